// DataFeed.cpp: reading --data files and cutting them into batches in a seeded
// order.
#include "DataFeed.h"

#include "Npy.h"
#include "graphrt/common/DType.h"

#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>
#include <sys/stat.h>

namespace graphrt {
namespace {

Status invalid(const std::string &msg) {
  return Status(GRAPHRT_STATUS_INVALID_ARGUMENT, msg);
}

std::string shapeString(const std::vector<int64_t> &shape) {
  std::string s = "[";
  for (size_t i = 0; i < shape.size(); ++i) {
    s += (i ? ", " : "") + std::to_string(shape[i]);
  }
  return s + "]";
}

bool endsWith(const std::string &s, const std::string &suffix) {
  return s.size() >= suffix.size() &&
         s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

std::string trim(const std::string &s) {
  size_t b = s.find_first_not_of(" \t\r"), e = s.find_last_not_of(" \t\r");
  return b == std::string::npos ? "" : s.substr(b, e - b + 1);
}

std::vector<std::string> splitFields(const std::string &line) {
  std::vector<std::string> fields;
  std::stringstream ss(line);
  std::string f;
  while (std::getline(ss, f, ',')) {
    fields.push_back(trim(f));
  }
  if (!line.empty() && line.back() == ',') {
    fields.push_back("");
  }
  return fields;
}

bool isNumber(const std::string &f) {
  if (f.empty()) {
    return false;
  }
  char *end = nullptr;
  (void)std::strtod(f.c_str(), &end);
  return *end == '\0';
}

// Appends `field` converted to `dtype`; false (with *why) if it does not fit.
bool appendValue(const std::string &field, graphrt_dtype_t dtype,
                 std::string *out, std::string *why) {
  char *end = nullptr;
  errno = 0;
  auto put = [&](auto v) {
    out->append(reinterpret_cast<const char *>(&v), sizeof v);
    return true;
  };
  switch (dtype) {
  case GRAPHRT_DTYPE_F32:
  case GRAPHRT_DTYPE_F64: {
    double d = std::strtod(field.c_str(), &end);
    if (field.empty() || *end) {
      *why = "is not a number";
      return false;
    }
    return dtype == GRAPHRT_DTYPE_F32 ? put(static_cast<float>(d)) : put(d);
  }
  case GRAPHRT_DTYPE_BOOL:
    if (field == "0" || field == "1") {
      return put(static_cast<uint8_t>(field == "1"));
    }
    *why = "is not 0 or 1 (the input is bool)";
    return false;
  default:
    break;
  }
  // Integers: written as integers, or as floats holding an integer value
  // (NumPy's savetxt writes 3.000000000000000000e+00).
  long long v = std::strtoll(field.c_str(), &end, 10);
  if (field.empty() || *end || errno == ERANGE) {
    double d = std::strtod(field.c_str(), &end);
    if (field.empty() || *end || std::trunc(d) != d || std::fabs(d) > 9e18) {
      *why = std::string("is not an integer (the input is ") +
             dtypeName(dtype) + ")";
      return false;
    }
    v = static_cast<long long>(d);
  }
  auto inRange = [&](long long lo, long long hi) {
    if (v >= lo && v <= hi) {
      return true;
    }
    *why = std::string("does not fit in ") + dtypeName(dtype);
    return false;
  };
  switch (dtype) {
  case GRAPHRT_DTYPE_I8:
    return inRange(INT8_MIN, INT8_MAX) && put(static_cast<int8_t>(v));
  case GRAPHRT_DTYPE_I16:
    return inRange(INT16_MIN, INT16_MAX) && put(static_cast<int16_t>(v));
  case GRAPHRT_DTYPE_I32:
    return inRange(INT32_MIN, INT32_MAX) && put(static_cast<int32_t>(v));
  case GRAPHRT_DTYPE_I64:
    return put(static_cast<int64_t>(v));
  case GRAPHRT_DTYPE_U8:
    return inRange(0, UINT8_MAX) && put(static_cast<uint8_t>(v));
  case GRAPHRT_DTYPE_U16:
    return inRange(0, UINT16_MAX) && put(static_cast<uint16_t>(v));
  case GRAPHRT_DTYPE_U32:
    return inRange(0, UINT32_MAX) && put(static_cast<uint32_t>(v));
  case GRAPHRT_DTYPE_U64:
    return inRange(0, INT64_MAX) && put(static_cast<uint64_t>(v));
  default:
    *why = std::string("cannot be read from CSV into ") + dtypeName(dtype) +
           "; give a .npy file";
    return false;
  }
}

// splitmix64: a tiny, fully specified generator, so that an order depends on
// (seed, epoch) alone, on every platform and standard library.
uint64_t splitmix64(uint64_t &state) {
  uint64_t z = (state += 0x9e3779b97f4a7c15ULL);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

// Uniform in [0, bound), without modulo bias.
uint64_t below(uint64_t &state, uint64_t bound) {
  uint64_t limit = UINT64_MAX - UINT64_MAX % bound;
  uint64_t r;
  do {
    r = splitmix64(state);
  } while (r >= limit);
  return r % bound;
}

} // namespace

Status parseCsv(const std::string &text, const std::string &path,
                const std::string &input, int64_t columns,
                graphrt_dtype_t dtype, std::string *out, int64_t *rows) {
  std::stringstream ss(text);
  std::string line;
  int64_t lineNo = 0;
  bool first = true;
  *rows = 0;
  while (std::getline(ss, line)) {
    ++lineNo;
    if (trim(line).empty()) {
      continue;
    }
    std::vector<std::string> fields = splitFields(line);
    if (first) {
      first = false;
      bool header = false;
      for (const std::string &f : fields) {
        header = header || !isNumber(f);
      }
      if (header) {
        continue;
      }
    }
    if (static_cast<int64_t>(fields.size()) != columns) {
      return invalid("--data " + input + ": '" + path + "' line " +
                     std::to_string(lineNo) + " has " +
                     std::to_string(fields.size()) + " columns, input '" +
                     input + "' needs " + std::to_string(columns) +
                     " per example");
    }
    for (size_t c = 0; c < fields.size(); ++c) {
      std::string why;
      if (!appendValue(fields[c], dtype, out, &why)) {
        return invalid("--data " + input + ": '" + path + "' line " +
                       std::to_string(lineNo) + " column " +
                       std::to_string(c + 1) + ": '" + fields[c] + "' " + why);
      }
    }
    ++*rows;
  }
  return Status::ok();
}

Status readDataFile(const manifest::TensorSignature &sig,
                    const std::string &path, DataFile *out) {
  out->input = sig.name();
  out->path = path;
  out->dtype = parseDType(sig.dtype());
  std::string where = "--data " + sig.name() + ": '" + path + "'";
  if (sig.shape_size() == 0) {
    return invalid("--data " + sig.name() + ": input '" + sig.name() +
                   "' is a scalar and has no batch dimension to slice; "
                   "feed it with --input");
  }
  std::vector<int64_t> example(sig.shape().begin() + 1, sig.shape().end());
  int64_t columns = 1;
  for (int64_t d : example) {
    columns *= d;
  }
  out->exampleBytes =
      static_cast<size_t>(columns) * graphrt_dtype_size(out->dtype);
  struct stat st;
  if (::stat(path.c_str(), &st) != 0) {
    return Status(GRAPHRT_STATUS_NOT_FOUND,
                  where + " cannot be read: " + std::strerror(errno));
  }
  if (endsWith(path, ".csv")) {
    std::ifstream in(path, std::ios::binary);
    std::stringstream text;
    text << in.rdbuf();
    if (!in) {
      return Status(GRAPHRT_STATUS_NOT_FOUND, where + " cannot be read");
    }
    return parseCsv(text.str(), path, sig.name(), columns, out->dtype,
                    &out->data, &out->examples);
  }
  if (!endsWith(path, ".npy")) {
    return invalid(where + " is neither .npy nor .csv");
  }
  NpyArray a;
  Status s = readNpy(path, &a);
  if (!s.isOk()) {
    return Status(s.code(), "--data " + sig.name() + ": " + s.message());
  }
  if (!npyCanFeed(a.dtype, out->dtype)) {
    return invalid(where + " holds " + dtypeName(a.dtype) + ", input '" +
                   sig.name() + "' is " + sig.dtype());
  }
  std::vector<int64_t> got(a.shape.begin() + (a.shape.empty() ? 0 : 1),
                           a.shape.end());
  if (a.shape.empty() || got != example) {
    return invalid(where + " has shape " + shapeString(a.shape) + ": input '" +
                   sig.name() + "' takes examples of shape " +
                   shapeString(example) + ", so the file must be [N, " +
                   shapeString(example).substr(1));
  }
  out->examples = a.shape[0];
  out->data = std::move(a.data);
  return Status::ok();
}

Batcher::Batcher(int64_t examples, int64_t batch, uint64_t seed, bool shuffle,
                 PartialBatch partial)
    : examples_(examples), batch_(batch), seed_(seed), shuffle_(shuffle),
      partial_(partial) {}

int64_t Batcher::batchesPerEpoch() const {
  return partial_ == PartialBatch::Drop ? examples_ / batch_
                                        : (examples_ + batch_ - 1) / batch_;
}

std::vector<int64_t> Batcher::order(int64_t epoch) const {
  std::vector<int64_t> order(static_cast<size_t>(examples_));
  for (int64_t i = 0; i < examples_; ++i) {
    order[static_cast<size_t>(i)] = i;
  }
  if (!shuffle_) {
    return order;
  }
  uint64_t state =
      seed_ ^ (0x632be59bd9b4e019ULL * (static_cast<uint64_t>(epoch) + 1));
  (void)splitmix64(state);
  // Fisher-Yates.
  for (int64_t i = examples_ - 1; i > 0; --i) {
    std::swap(order[static_cast<size_t>(i)],
              order[below(state, static_cast<uint64_t>(i) + 1)]);
  }
  return order;
}

DataPosition Batcher::normalize(DataPosition pos) const {
  int64_t need = partial_ == PartialBatch::Drop ? batch_ : 1;
  if (pos.index + need > examples_) {
    return DataPosition{pos.epoch + 1, 0};
  }
  return pos;
}

std::vector<int64_t> Batcher::batchAt(DataPosition pos, DataPosition *next) {
  pos = normalize(pos);
  if (pos.epoch != cachedEpoch_) {
    cachedOrder_ = order(pos.epoch);
    cachedEpoch_ = pos.epoch;
  }
  std::vector<int64_t> rows;
  for (int64_t i = 0; i < batch_; ++i) {
    int64_t k = pos.index + i;
    // Pad: wrap around to the start of this epoch's order.
    rows.push_back(cachedOrder_[static_cast<size_t>(k % examples_)]);
  }
  *next = normalize(DataPosition{pos.epoch, pos.index + batch_});
  return rows;
}

std::string gatherRows(const DataFile &file,
                       const std::vector<int64_t> &indices) {
  std::string out;
  out.resize(indices.size() * file.exampleBytes);
  for (size_t i = 0; i < indices.size(); ++i) {
    std::memcpy(&out[i * file.exampleBytes],
                file.data.data() +
                    static_cast<size_t>(indices[i]) * file.exampleBytes,
                file.exampleBytes);
  }
  return out;
}

} // namespace graphrt
