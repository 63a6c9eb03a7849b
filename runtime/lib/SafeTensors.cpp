// SafeTensors.cpp: the safetensors codec and its crash-safe writer.
#include "SafeTensors.h"

#include <google/protobuf/struct.pb.h>
#include <google/protobuf/util/json_util.h>

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstring>
#include <fstream>
#include <set>
#include <sstream>

namespace graphrt {
namespace {

struct DTypeEntry {
  graphrt_dtype_t dtype;
  const char *name;
};
const DTypeEntry kDTypes[] = {
    {GRAPHRT_DTYPE_F64, "F64"},        {GRAPHRT_DTYPE_F32, "F32"},
    {GRAPHRT_DTYPE_F16, "F16"},        {GRAPHRT_DTYPE_BF16, "BF16"},
    {GRAPHRT_DTYPE_I64, "I64"},        {GRAPHRT_DTYPE_I32, "I32"},
    {GRAPHRT_DTYPE_I16, "I16"},        {GRAPHRT_DTYPE_I8, "I8"},
    {GRAPHRT_DTYPE_U64, "U64"},        {GRAPHRT_DTYPE_U32, "U32"},
    {GRAPHRT_DTYPE_U16, "U16"},        {GRAPHRT_DTYPE_U8, "U8"},
    {GRAPHRT_DTYPE_BOOL, "BOOL"},      {GRAPHRT_DTYPE_F8E4M3FN, "F8_E4M3"},
    {GRAPHRT_DTYPE_F8E5M2, "F8_E5M2"},
};

std::string jsonString(const std::string &s) {
  std::string out = "\"";
  for (char c : s) {
    if (c == '"' || c == '\\') {
      out += '\\';
      out += c;
    } else if (static_cast<unsigned char>(c) < 0x20) {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\u%04x", c);
      out += buf;
    } else {
      out += c;
    }
  }
  return out + "\"";
}

Status corrupt(const std::string &why) {
  return Status(GRAPHRT_STATUS_DATA_LOSS, why);
}

Status ioError(const std::string &what, const std::string &path) {
  return Status(GRAPHRT_STATUS_UNAVAILABLE,
                "cannot " + what + " '" + path + "': " + std::strerror(errno));
}

// A JSON number that is a whole, non-negative integer below 2^53 (what a
// protobuf Struct, which holds numbers as doubles, can carry exactly).
bool wholeNumber(const google::protobuf::Value &v, uint64_t *out) {
  if (!v.has_number_value()) {
    return false;
  }
  double d = v.number_value();
  if (d < 0 || d > 9007199254740992.0 || std::trunc(d) != d) {
    return false;
  }
  *out = static_cast<uint64_t>(d);
  return true;
}

} // namespace

const char *safetensorsDType(graphrt_dtype_t dtype) {
  for (const DTypeEntry &e : kDTypes) {
    if (e.dtype == dtype) {
      return e.name;
    }
  }
  return nullptr;
}

Status encodeSafeTensors(const SafeTensorsFile &file, std::string *out) {
  std::string header = "{";
  if (!file.metadata.empty()) {
    header += "\"__metadata__\":{";
    bool first = true;
    for (const auto &[k, v] : file.metadata) {
      header += (first ? "" : ",") + jsonString(k) + ":" + jsonString(v);
      first = false;
    }
    header += "}";
  }
  std::set<std::string> names;
  uint64_t offset = 0;
  for (const SafeTensor &t : file.tensors) {
    const char *dtype = safetensorsDType(t.dtype);
    if (!dtype) {
      return Status(GRAPHRT_STATUS_INVALID_ARGUMENT,
                    "tensor '" + t.name +
                        "' has a dtype safetensors cannot "
                        "hold");
    }
    uint64_t elements = 1;
    for (int64_t d : t.shape) {
      elements *= static_cast<uint64_t>(d);
    }
    if (elements * graphrt_dtype_size(t.dtype) != t.data.size()) {
      return Status(GRAPHRT_STATUS_INVALID_ARGUMENT,
                    "tensor '" + t.name + "' has " +
                        std::to_string(t.data.size()) +
                        " bytes, its shape needs " +
                        std::to_string(elements * graphrt_dtype_size(t.dtype)));
    }
    if (t.name == "__metadata__" || !names.insert(t.name).second) {
      return Status(GRAPHRT_STATUS_INVALID_ARGUMENT,
                    "tensor name '" + t.name + "' is used twice or reserved");
    }
    header += std::string(header.size() > 1 ? "," : "") + jsonString(t.name) +
              ":{\"dtype\":\"" + dtype + "\",\"shape\":[";
    for (size_t i = 0; i < t.shape.size(); ++i) {
      header += (i ? "," : "") + std::to_string(t.shape[i]);
    }
    header += "],\"data_offsets\":[" + std::to_string(offset) + "," +
              std::to_string(offset + t.data.size()) + "]}";
    offset += t.data.size();
  }
  header += "}";
  // The data section starts 8-byte aligned.
  while ((8 + header.size()) % 8) {
    header += ' ';
  }
  out->clear();
  out->reserve(8 + header.size() + offset);
  uint64_t n = header.size();
  for (int i = 0; i < 8; ++i) {
    out->push_back(static_cast<char>((n >> (8 * i)) & 0xff));
  }
  *out += header;
  for (const SafeTensor &t : file.tensors) {
    *out += t.data;
  }
  return Status::ok();
}

Status writeSafeTensorsAtomically(const std::string &path,
                                  const std::string &tmpPath,
                                  const SafeTensorsFile &file) {
  std::string bytes;
  GRAPHRT_RETURN_IF_ERROR(encodeSafeTensors(file, &bytes));
  int fd =
      ::open(tmpPath.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) {
    return ioError("create", tmpPath);
  }
  size_t done = 0;
  while (done < bytes.size()) {
    ssize_t n = ::write(fd, bytes.data() + done, bytes.size() - done);
    if (n < 0 && errno == EINTR) {
      continue;
    }
    if (n <= 0) {
      Status st = ioError("write", tmpPath);
      ::close(fd);
      ::unlink(tmpPath.c_str());
      return st;
    }
    done += static_cast<size_t>(n);
  }
  if (::fsync(fd) != 0) {
    Status st = ioError("fsync", tmpPath);
    ::close(fd);
    ::unlink(tmpPath.c_str());
    return st;
  }
  ::close(fd);
  if (::rename(tmpPath.c_str(), path.c_str()) != 0) {
    Status st = ioError("rename to", path);
    ::unlink(tmpPath.c_str());
    return st;
  }
  // The rename itself is durable only once the directory is synced.
  size_t slash = path.rfind('/');
  std::string dir = slash == std::string::npos ? "." : path.substr(0, slash);
  if (dir.empty()) {
    dir = "/";
  }
  int dfd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (dfd < 0) {
    return ioError("open directory", dir);
  }
  int rc = ::fsync(dfd);
  ::close(dfd);
  if (rc != 0) {
    return ioError("fsync directory", dir);
  }
  return Status::ok();
}

Status decodeSafeTensors(const std::string &bytes, SafeTensorsFile *out) {
  if (bytes.size() < 8) {
    return corrupt("it has " + std::to_string(bytes.size()) +
                   " bytes, fewer than the 8 of the header length");
  }
  uint64_t n = 0;
  for (int i = 0; i < 8; ++i) {
    n |= static_cast<uint64_t>(static_cast<unsigned char>(bytes[i])) << (8 * i);
  }
  if (n > bytes.size() - 8) {
    return corrupt("its header length is " + std::to_string(n) + " but only " +
                   std::to_string(bytes.size() - 8) +
                   " bytes follow (truncated?)");
  }
  google::protobuf::Struct header;
  auto st =
      google::protobuf::util::JsonStringToMessage(bytes.substr(8, n), &header);
  if (!st.ok()) {
    return corrupt("its header is not JSON: " + std::string(st.message()));
  }
  const uint64_t dataBegin = 8 + n, dataSize = bytes.size() - dataBegin;
  std::vector<std::pair<uint64_t, uint64_t>> ranges;
  out->tensors.clear();
  out->metadata.clear();
  for (const auto &[name, value] : header.fields()) {
    if (name == "__metadata__") {
      if (!value.has_struct_value()) {
        return corrupt("its __metadata__ is not an object");
      }
      for (const auto &[k, v] : value.struct_value().fields()) {
        if (!v.has_string_value()) {
          return corrupt("__metadata__ '" + k + "' is not a string");
        }
        out->metadata[k] = v.string_value();
      }
      continue;
    }
    std::string where = "tensor '" + name + "'";
    if (!value.has_struct_value()) {
      return corrupt(where + " is not an object");
    }
    const auto &f = value.struct_value().fields();
    auto dtype = f.find("dtype"), shape = f.find("shape"),
         offsets = f.find("data_offsets");
    if (dtype == f.end() || shape == f.end() || offsets == f.end() ||
        !dtype->second.has_string_value() || !shape->second.has_list_value() ||
        !offsets->second.has_list_value() ||
        offsets->second.list_value().values_size() != 2) {
      return corrupt(where + " lacks dtype, shape or data_offsets");
    }
    SafeTensor t;
    t.name = name;
    for (const DTypeEntry &e : kDTypes) {
      if (dtype->second.string_value() == e.name) {
        t.dtype = e.dtype;
      }
    }
    if (t.dtype == GRAPHRT_DTYPE_INVALID) {
      return corrupt(where + " has dtype '" + dtype->second.string_value() +
                     "', which graph-run does not read");
    }
    uint64_t elements = 1;
    for (const auto &d : shape->second.list_value().values()) {
      uint64_t v;
      if (!wholeNumber(d, &v)) {
        return corrupt(where + " has a shape that is not whole numbers");
      }
      t.shape.push_back(static_cast<int64_t>(v));
      // A product past 2^64 would wrap and could match the byte count by
      // accident; no real tensor comes near it.
      if (__builtin_mul_overflow(elements, v, &elements)) {
        return corrupt(where + " has a shape whose element count overflows");
      }
    }
    uint64_t begin, end;
    if (!wholeNumber(offsets->second.list_value().values(0), &begin) ||
        !wholeNumber(offsets->second.list_value().values(1), &end) ||
        begin > end) {
      return corrupt(where + " has malformed data_offsets");
    }
    if (end > dataSize) {
      return corrupt(where + " ends at byte " + std::to_string(end) +
                     " of a data section of " + std::to_string(dataSize) +
                     " bytes (truncated?)");
    }
    uint64_t need;
    if (__builtin_mul_overflow(elements, uint64_t(graphrt_dtype_size(t.dtype)),
                               &need) ||
        end - begin != need) {
      return corrupt(where + " has " + std::to_string(end - begin) +
                     " bytes, its dtype and shape need " +
                     std::to_string(elements * graphrt_dtype_size(t.dtype)));
    }
    t.data = bytes.substr(dataBegin + begin, end - begin);
    ranges.push_back({begin, end});
    out->tensors.push_back(std::move(t));
  }
  // The tensors tile the data section exactly, as the format requires; keep
  // them in data order (the Struct's map lost the header's).
  std::vector<size_t> byOffset(ranges.size());
  for (size_t i = 0; i < byOffset.size(); ++i) {
    byOffset[i] = i;
  }
  std::sort(byOffset.begin(), byOffset.end(),
            [&](size_t a, size_t b) { return ranges[a] < ranges[b]; });
  uint64_t at = 0;
  std::vector<SafeTensor> ordered;
  for (size_t i : byOffset) {
    if (ranges[i].first != at) {
      return corrupt("tensor '" + out->tensors[i].name + "' starts at byte " +
                     std::to_string(ranges[i].first) + ", expected " +
                     std::to_string(at) + " (overlapping or a gap)");
    }
    at = ranges[i].second;
    ordered.push_back(std::move(out->tensors[i]));
  }
  if (at != dataSize) {
    return corrupt("the data section has " + std::to_string(dataSize) +
                   " bytes, the tensors cover " + std::to_string(at));
  }
  out->tensors = std::move(ordered);
  return Status::ok();
}

Status readSafeTensors(const std::string &path, SafeTensorsFile *out) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    return Status(GRAPHRT_STATUS_NOT_FOUND,
                  "cannot read '" + path + "': " + std::strerror(errno));
  }
  std::stringstream ss;
  ss << in.rdbuf();
  return decodeSafeTensors(ss.str(), out);
}

} // namespace graphrt
