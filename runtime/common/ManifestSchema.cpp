// ManifestSchema.cpp: manifest.json validation, strict parsing and printing
// (protobuf JSON).
#include "graphrt/common/ManifestSchema.h"

#include "graphrt/common/DType.h"

#include <google/protobuf/util/json_util.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <set>
#include <sstream>

namespace graphrt {
namespace {

// The checks below return "" when the rule holds, else what is wrong.

bool isSafeRelativePath(const std::string &p) {
  if (p.empty() || p[0] == '/') {
    return false;
  }
  std::stringstream ss(p);
  std::string part;
  while (std::getline(ss, part, '/')) {
    if (part.empty() || part == "." || part == "..") {
      return false;
    }
  }
  return true;
}

bool isLowerHex64(const std::string &s) {
  if (s.size() != 64) {
    return false;
  }
  for (char c : s) {
    if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'))) {
      return false;
    }
  }
  return true;
}

std::string checkSignature(const manifest::TensorSignature &sig,
                           const std::string &where, bool allowFile,
                           const manifest::Manifest &m,
                           bool allowBatch = false) {
  if (sig.name().empty()) {
    return where + ": empty name";
  }
  if (parseDType(sig.dtype()) == GRAPHRT_DTYPE_INVALID) {
    return where + " '" + sig.name() + "': unknown dtype '" + sig.dtype() + "'";
  }
  for (int i = 0; i < sig.shape_size(); ++i) {
    // -1 in dimension 0 of a task's input or output: a batch of any size
    // (docs/design/dynamic-batch.md).
    if (sig.shape(i) == kBatchDim && i == 0 && allowBatch) {
      continue;
    }
    if (sig.shape(i) < 0) {
      return where + " '" + sig.name() + "': dimension " + std::to_string(i) +
             " is " + std::to_string(sig.shape(i)) +
             (allowBatch ? ", expected a static size >= 0 (or -1 in "
                           "dimension 0 for a batch of any size)"
                         : ", expected a static size >= 0");
    }
  }
  if (!allowFile && (!sig.replica_of().empty() || sig.has_slot_of())) {
    return where + " '" + sig.name() +
           "': only variables may be marked replica_of or slot_of";
  }
  if (!sig.file().empty()) {
    if (!allowFile) {
      return where + " '" + sig.name() + "': only variables may name a file";
    }
    const manifest::File *f = findFile(m, sig.file());
    if (!f) {
      return where + " '" + sig.name() + "': file '" + sig.file() +
             "' is not listed in files";
    }
    if (static_cast<int64_t>(f->size()) != byteSize(sig)) {
      return where + " '" + sig.name() + "': file '" + sig.file() + "' has " +
             std::to_string(f->size()) + " bytes, expected " +
             std::to_string(byteSize(sig));
    }
  }
  return "";
}

std::string checkFiles(const manifest::Manifest &m,
                       std::set<std::string> &paths) {
  for (const manifest::File &f : m.files()) {
    if (!isSafeRelativePath(f.path())) {
      return "file path '" + f.path() +
             "' must be relative and stay inside the bundle";
    }
    if (!paths.insert(f.path()).second) {
      return "file '" + f.path() + "' is listed twice";
    }
    if (!isLowerHex64(f.sha256())) {
      return "file '" + f.path() + "': sha256 '" + f.sha256() +
             "' is not 64 lower-case hex digits";
    }
  }
  return "";
}

std::string checkTasks(const manifest::Manifest &m,
                       const std::set<std::string> &paths,
                       std::set<std::string> &taskNames) {
  std::set<std::string> ioNames;
  std::set<std::pair<std::string, int>> placements;
  for (const manifest::Task &t : m.tasks()) {
    if (t.name().empty()) {
      return "a task has an empty name";
    }
    if (!taskNames.insert(t.name()).second) {
      return "task '" + t.name() + "' is defined twice";
    }
    std::string where = "task '" + t.name() + "'";
    std::string job = t.job().empty() ? "worker" : t.job();
    if (t.index() < 0) {
      return where + ": index " + std::to_string(t.index()) + " is negative";
    }
    if (!placements.insert({job, t.index()}).second) {
      return where + ": " + job + ":" + std::to_string(t.index()) +
             " is used by another task";
    }
    if (!t.target().empty() && t.target() != "cpu" && t.target() != "cuda" &&
        t.target() != "stablehlo") {
      return where + ": target '" + t.target() +
             "' is not one of cpu, cuda, stablehlo";
    }
    if (t.library().empty()) {
      return where + ": no library";
    }
    if (!paths.count(t.library())) {
      return where + ": library '" + t.library() + "' is not listed in files";
    }
    // A shared object exports the descriptor; a StableHLO module's entry
    // is its function @main.
    const char *entry =
        t.target() == "stablehlo" ? "main" : GRAPHRT_TASK_DESCRIPTOR_SYMBOL;
    if (!t.entry().empty() && t.entry() != entry) {
      return where + ": entry '" + t.entry() + "' is not " + entry;
    }
    // Inputs and outputs share one namespace across the job: graph-run feeds
    // and writes them by name.
    auto checkIO = [&](const manifest::TensorSignature &s,
                       const char *kind) -> std::string {
      std::string e =
          checkSignature(s, where + ": " + kind, false, m, /*allowBatch=*/true);
      if (!e.empty()) {
        return e;
      }
      if (!ioNames.insert(s.name()).second) {
        return where + ": " + kind + " '" + s.name() +
               "' is already an input or output of the job";
      }
      return "";
    };
    for (const auto &s : t.inputs()) {
      if (std::string e = checkIO(s, "input"); !e.empty()) {
        return e;
      }
    }
    for (const auto &s : t.outputs()) {
      if (std::string e = checkIO(s, "output"); !e.empty()) {
        return e;
      }
    }
    // A batched output is allocated with the batch of the task's inputs.
    auto batched = [](const manifest::TensorSignature &s) {
      return isBatched(s);
    };
    if (std::any_of(t.outputs().begin(), t.outputs().end(), batched) &&
        std::none_of(t.inputs().begin(), t.inputs().end(), batched)) {
      return where + ": an output has a batch of any size (-1) but no input "
                     "gives it";
    }
    std::set<std::string> vars;
    for (const auto &s : t.variables()) {
      if (std::string e = checkSignature(s, where + ": variable", true, m);
          !e.empty()) {
        return e;
      }
      if (!vars.insert(s.name()).second) {
        return where + ": variable '" + s.name() + "' is defined twice";
      }
    }
  }
  return "";
}

std::string checkChannels(const manifest::Manifest &m,
                          const std::set<std::string> &taskNames) {
  std::set<std::string> keys;
  for (const manifest::Channel &c : m.channels()) {
    if (c.key().empty()) {
      return "a channel has an empty key";
    }
    std::string where = "channel '" + c.key() + "'";
    if (!keys.insert(c.key()).second) {
      return where + " is defined twice";
    }
    if (!taskNames.count(c.src())) {
      return where + ": unknown source task '" + c.src() + "'";
    }
    if (!taskNames.count(c.dst())) {
      return where + ": unknown destination task '" + c.dst() + "'";
    }
    if (c.src() == c.dst()) {
      return where + ": source and destination are both '" + c.src() + "'";
    }
    if (!c.has_payload()) {
      return where + ": no payload signature";
    }
    // A payload's name defaults to its key.
    manifest::TensorSignature payload = c.payload();
    if (payload.name().empty()) {
      payload.set_name(c.key());
    }
    if (std::string e = checkSignature(payload, where + ": payload", false, m);
        !e.empty()) {
      return e;
    }
  }
  return "";
}

std::string checkGroups(const manifest::Manifest &m,
                        const std::set<std::string> &taskNames) {
  std::set<std::string> groups;
  for (const manifest::CollectiveGroup &g : m.collective_groups()) {
    if (g.name().empty()) {
      return "a collective group has an empty name";
    }
    std::string where = "collective group '" + g.name() + "'";
    if (!groups.insert(g.name()).second) {
      return where + " is defined twice";
    }
    if (g.tasks().empty()) {
      return where + ": no member tasks";
    }
    std::set<std::string> members;
    for (const std::string &t : g.tasks()) {
      if (!taskNames.count(t)) {
        return where + ": unknown task '" + t + "'";
      }
      if (!members.insert(t).second) {
        return where + ": task '" + t + "' is listed twice";
      }
    }
  }
  return "";
}

std::string check(const manifest::Manifest &m) {
  if (m.format_version() != kManifestFormatVersion) {
    return "format_version is " + std::to_string(m.format_version()) +
           ", this runtime reads version " +
           std::to_string(kManifestFormatVersion);
  }
  if (m.tasks().empty()) {
    return "no tasks";
  }
  std::set<std::string> paths, taskNames;
  if (std::string e = checkFiles(m, paths); !e.empty()) {
    return e;
  }
  if (std::string e = checkTasks(m, paths, taskNames); !e.empty()) {
    return e;
  }
  if (std::string e = checkChannels(m, taskNames); !e.empty()) {
    return e;
  }
  return checkGroups(m, taskNames);
}

} // namespace

int64_t numElements(const manifest::TensorSignature &sig) {
  int64_t n = 1;
  for (int i = isBatched(sig) ? 1 : 0; i < sig.shape_size(); ++i) {
    n *= sig.shape(i);
  }
  return n;
}

bool isBatched(const manifest::TensorSignature &sig) {
  return sig.shape_size() > 0 && sig.shape(0) == kBatchDim;
}

bool matchesSignature(const manifest::TensorSignature &sig,
                      const std::vector<int64_t> &shape) {
  if (static_cast<int>(shape.size()) != sig.shape_size()) {
    return false;
  }
  for (int i = 0; i < sig.shape_size(); ++i) {
    if (!(i == 0 && isBatched(sig) && shape[0] >= 0) &&
        shape[i] != sig.shape(i)) {
      return false;
    }
  }
  return true;
}

int64_t byteSize(const manifest::TensorSignature &sig) {
  return numElements(sig) *
         static_cast<int64_t>(graphrt_dtype_size(parseDType(sig.dtype())));
}

std::string describe(const manifest::TensorSignature &sig) {
  std::string s = sig.dtype() + "[";
  for (int i = 0; i < sig.shape_size(); ++i) {
    s += (i ? "," : "") + (i == 0 && isBatched(sig)
                               ? std::string("N")
                               : std::to_string(sig.shape(i)));
  }
  return s + "]";
}

const manifest::Task *findTask(const manifest::Manifest &m,
                               const std::string &name) {
  for (const manifest::Task &t : m.tasks()) {
    if (t.name() == name) {
      return &t;
    }
  }
  return nullptr;
}

const manifest::File *findFile(const manifest::Manifest &m,
                               const std::string &path) {
  for (const manifest::File &f : m.files()) {
    if (f.path() == path) {
      return &f;
    }
  }
  return nullptr;
}

bool checkManifest(const manifest::Manifest &m, std::string *error) {
  *error = check(m);
  return error->empty();
}

bool parseManifestJson(const std::string &json, manifest::Manifest *out,
                       std::string *error) {
  google::protobuf::util::JsonParseOptions options;
  options.ignore_unknown_fields = false;
  auto st = google::protobuf::util::JsonStringToMessage(json, out, options);
  if (!st.ok()) {
    *error = "malformed JSON: " + std::string(st.message());
    return false;
  }
  return checkManifest(*out, error);
}

std::string printManifestJson(const manifest::Manifest &m) {
  google::protobuf::util::JsonPrintOptions options;
  options.add_whitespace = true;
  options.preserve_proto_field_names = true;
  std::string json;
  auto st = google::protobuf::util::MessageToJsonString(m, &json, options);
  // The printer fails only on Any fields without a type resolver and on
  // out-of-range enum values; the manifest schema has neither.
  if (!st.ok()) {
    std::fprintf(stderr, "printManifestJson: %s\n",
                 std::string(st.message()).c_str());
    std::abort();
  }
  return json;
}

} // namespace graphrt
