// Manifest.cpp: manifest.json parsing (protobuf JSON) and validation.
#include "Manifest.h"

#include "Sha256.h"

#include <google/protobuf/util/json_util.h>

#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <sys/stat.h>

namespace graphrt {
namespace {

struct DTypeName {
  graphrt_dtype_t dtype;
  const char* name;
};
const DTypeName kDTypes[] = {
    {GRAPHRT_DTYPE_F32, "f32"}, {GRAPHRT_DTYPE_F64, "f64"},
    {GRAPHRT_DTYPE_I32, "i32"}, {GRAPHRT_DTYPE_I64, "i64"},
    {GRAPHRT_DTYPE_U8, "u8"},   {GRAPHRT_DTYPE_I8, "i8"},
    {GRAPHRT_DTYPE_BOOL, "bool"}, {GRAPHRT_DTYPE_F16, "f16"},
    {GRAPHRT_DTYPE_BF16, "bf16"}, {GRAPHRT_DTYPE_I16, "i16"},
    {GRAPHRT_DTYPE_U16, "u16"},   {GRAPHRT_DTYPE_U32, "u32"},
    {GRAPHRT_DTYPE_U64, "u64"},
    {GRAPHRT_DTYPE_F8E4M3FN, "f8e4m3fn"}, {GRAPHRT_DTYPE_F8E4M3FNUZ, "f8e4m3fnuz"},
    {GRAPHRT_DTYPE_F8E5M2, "f8e5m2"},     {GRAPHRT_DTYPE_F8E5M2FNUZ, "f8e5m2fnuz"},
    {GRAPHRT_DTYPE_F8E8M0, "f8e8m0"},     {GRAPHRT_DTYPE_F4E2M1, "f4e2m1"},
    {GRAPHRT_DTYPE_I4, "i4"},             {GRAPHRT_DTYPE_U4, "u4"},
    {GRAPHRT_DTYPE_I2, "i2"},             {GRAPHRT_DTYPE_U2, "u2"},
};

Status invalid(const std::string& msg) {
  return Status(GRAPHRT_STATUS_INVALID_ARGUMENT, "manifest: " + msg);
}

bool isSafeRelativePath(const std::string& p) {
  if (p.empty() || p[0] == '/')
    return false;
  std::stringstream ss(p);
  std::string part;
  while (std::getline(ss, part, '/'))
    if (part.empty() || part == "." || part == "..")
      return false;
  return true;
}

bool isLowerHex64(const std::string& s) {
  if (s.size() != 64)
    return false;
  for (char c : s)
    if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f')))
      return false;
  return true;
}

Status validateSignature(const manifest::TensorSignature& sig,
                         const std::string& where, bool allowFile,
                         const manifest::Manifest& m) {
  if (sig.name().empty())
    return invalid(where + ": empty name");
  if (parseDType(sig.dtype()) == GRAPHRT_DTYPE_INVALID)
    return invalid(where + " '" + sig.name() + "': unknown dtype '" +
                   sig.dtype() + "'");
  for (int i = 0; i < sig.shape_size(); ++i)
    if (sig.shape(i) < 0)
      return invalid(where + " '" + sig.name() + "': dimension " +
                     std::to_string(i) + " is " + std::to_string(sig.shape(i)) +
                     ", expected a static size >= 0");
  if (!sig.file().empty()) {
    if (!allowFile)
      return invalid(where + " '" + sig.name() +
                     "': only variables may name a file");
    const manifest::File* f = findFile(m, sig.file());
    if (!f)
      return invalid(where + " '" + sig.name() + "': file '" + sig.file() +
                     "' is not listed in files");
    if (static_cast<int64_t>(f->size()) != byteSize(sig))
      return invalid(where + " '" + sig.name() + "': file '" + sig.file() +
                     "' has " + std::to_string(f->size()) +
                     " bytes, expected " + std::to_string(byteSize(sig)));
  }
  return Status::ok();
}

} // namespace

graphrt_dtype_t parseDType(const std::string& name) {
  for (const DTypeName& d : kDTypes)
    if (name == d.name)
      return d.dtype;
  return GRAPHRT_DTYPE_INVALID;
}

const char* dtypeName(graphrt_dtype_t dtype) {
  for (const DTypeName& d : kDTypes)
    if (dtype == d.dtype)
      return d.name;
  return "invalid";
}

int64_t numElements(const manifest::TensorSignature& sig) {
  int64_t n = 1;
  for (int64_t d : sig.shape())
    n *= d;
  return n;
}

int64_t byteSize(const manifest::TensorSignature& sig) {
  return numElements(sig) *
         static_cast<int64_t>(graphrt_dtype_size(parseDType(sig.dtype())));
}

std::string describe(const manifest::TensorSignature& sig) {
  std::string s = sig.dtype() + "[";
  for (int i = 0; i < sig.shape_size(); ++i)
    s += (i ? "," : "") + std::to_string(sig.shape(i));
  return s + "]";
}

const manifest::Task* findTask(const manifest::Manifest& m,
                               const std::string& name) {
  for (const manifest::Task& t : m.tasks())
    if (t.name() == name)
      return &t;
  return nullptr;
}

const manifest::File* findFile(const manifest::Manifest& m,
                               const std::string& path) {
  for (const manifest::File& f : m.files())
    if (f.path() == path)
      return &f;
  return nullptr;
}

Status parseManifest(const std::string& json, manifest::Manifest* out) {
  google::protobuf::util::JsonParseOptions options;
  options.ignore_unknown_fields = false;
  auto st = google::protobuf::util::JsonStringToMessage(json, out, options);
  if (!st.ok())
    return invalid("malformed JSON: " + std::string(st.message()));
  return validateManifest(*out);
}

Status validateManifest(const manifest::Manifest& m) {
  if (m.format_version() != kManifestFormatVersion)
    return invalid("format_version is " + std::to_string(m.format_version()) +
                   ", this runtime reads version " +
                   std::to_string(kManifestFormatVersion));
  if (m.tasks().empty())
    return invalid("no tasks");

  std::set<std::string> paths;
  for (const manifest::File& f : m.files()) {
    if (!isSafeRelativePath(f.path()))
      return invalid("file path '" + f.path() +
                     "' must be relative and stay inside the bundle");
    if (!paths.insert(f.path()).second)
      return invalid("file '" + f.path() + "' is listed twice");
    if (!isLowerHex64(f.sha256()))
      return invalid("file '" + f.path() + "': sha256 '" + f.sha256() +
                     "' is not 64 lower-case hex digits");
  }

  std::set<std::string> taskNames, ioNames;
  std::set<std::pair<std::string, int>> placements;
  for (const manifest::Task& t : m.tasks()) {
    if (t.name().empty())
      return invalid("a task has an empty name");
    if (!taskNames.insert(t.name()).second)
      return invalid("task '" + t.name() + "' is defined twice");
    std::string where = "task '" + t.name() + "'";
    std::string job = t.job().empty() ? "worker" : t.job();
    if (t.index() < 0)
      return invalid(where + ": index " + std::to_string(t.index()) +
                     " is negative");
    if (!placements.insert({job, t.index()}).second)
      return invalid(where + ": " + job + ":" + std::to_string(t.index()) +
                     " is used by another task");
    if (t.library().empty())
      return invalid(where + ": no library");
    if (!paths.count(t.library()))
      return invalid(where + ": library '" + t.library() +
                     "' is not listed in files");
    if (!t.entry().empty() && t.entry() != GRAPHRT_TASK_DESCRIPTOR_SYMBOL)
      return invalid(where + ": entry '" + t.entry() + "' is not " +
                     GRAPHRT_TASK_DESCRIPTOR_SYMBOL);
    std::set<std::string> vars;
    for (const auto& s : t.inputs()) {
      GRAPHRT_RETURN_IF_ERROR(validateSignature(s, where + ": input", false, m));
      if (!ioNames.insert(s.name()).second)
        return invalid(where + ": input '" + s.name() +
                       "' is already an input or output of the job");
    }
    for (const auto& s : t.outputs()) {
      GRAPHRT_RETURN_IF_ERROR(
          validateSignature(s, where + ": output", false, m));
      if (!ioNames.insert(s.name()).second)
        return invalid(where + ": output '" + s.name() +
                       "' is already an input or output of the job");
    }
    for (const auto& s : t.variables()) {
      GRAPHRT_RETURN_IF_ERROR(
          validateSignature(s, where + ": variable", true, m));
      if (!vars.insert(s.name()).second)
        return invalid(where + ": variable '" + s.name() + "' is defined twice");
    }
  }

  std::set<std::string> keys;
  for (const manifest::Channel& c : m.channels()) {
    if (c.key().empty())
      return invalid("a channel has an empty key");
    std::string where = "channel '" + c.key() + "'";
    if (!keys.insert(c.key()).second)
      return invalid(where + " is defined twice");
    if (!taskNames.count(c.src()))
      return invalid(where + ": unknown source task '" + c.src() + "'");
    if (!taskNames.count(c.dst()))
      return invalid(where + ": unknown destination task '" + c.dst() + "'");
    if (c.src() == c.dst())
      return invalid(where + ": source and destination are both '" + c.src() +
                     "'");
    if (!c.has_payload())
      return invalid(where + ": no payload signature");
    manifest::TensorSignature payload = c.payload();
    if (payload.name().empty())
      payload.set_name(c.key());
    GRAPHRT_RETURN_IF_ERROR(
        validateSignature(payload, where + ": payload", false, m));
  }

  std::set<std::string> groups;
  for (const manifest::CollectiveGroup& g : m.collective_groups()) {
    if (g.name().empty())
      return invalid("a collective group has an empty name");
    std::string where = "collective group '" + g.name() + "'";
    if (!groups.insert(g.name()).second)
      return invalid(where + " is defined twice");
    if (g.tasks().empty())
      return invalid(where + ": no member tasks");
    std::set<std::string> members;
    for (const std::string& t : g.tasks()) {
      if (!taskNames.count(t))
        return invalid(where + ": unknown task '" + t + "'");
      if (!members.insert(t).second)
        return invalid(where + ": task '" + t + "' is listed twice");
    }
  }
  return Status::ok();
}

Status readBundle(const std::string& dir, Bundle* out) {
  std::string path = dir + "/manifest.json";
  std::ifstream in(path, std::ios::binary);
  if (!in)
    return Status(GRAPHRT_STATUS_NOT_FOUND,
                  "cannot read '" + path + "': is '" + dir +
                      "' a job bundle (X.gjob/)?");
  std::stringstream ss;
  ss << in.rdbuf();
  std::string json = ss.str();
  out->dir = dir;
  out->manifestSha256 = sha256Hex(json.data(), json.size());
  Status st = parseManifest(json, &out->manifest);
  if (!st.isOk())
    return Status(st.code(), path + ": " + st.message());
  return Status::ok();
}

Status verifyBundleFile(const Bundle& bundle, const std::string& path) {
  const manifest::File* f = findFile(bundle.manifest, path);
  if (!f)
    return Status(GRAPHRT_STATUS_PERMISSION_DENIED,
                  "file '" + path + "' is not listed in the manifest");
  std::string full = bundle.dir + "/" + path;
  struct stat sb;
  if (::stat(full.c_str(), &sb) != 0)
    return Status(GRAPHRT_STATUS_NOT_FOUND, "bundle file '" + full +
                                                "' does not exist");
  if (static_cast<uint64_t>(sb.st_size) != f->size())
    return Status(GRAPHRT_STATUS_PERMISSION_DENIED,
                  "bundle file '" + path + "' has " +
                      std::to_string(sb.st_size) + " bytes, the manifest says " +
                      std::to_string(f->size()) + "; refusing to load it");
  std::string hex;
  GRAPHRT_RETURN_IF_ERROR(sha256File(full, &hex));
  if (hex != f->sha256())
    return Status(GRAPHRT_STATUS_PERMISSION_DENIED,
                  "bundle file '" + path + "' has sha256 " + hex +
                      ", the manifest says " + f->sha256() +
                      "; refusing to load it");
  return Status::ok();
}

} // namespace graphrt
