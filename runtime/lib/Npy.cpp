// Npy.cpp: a minimal .npy codec for graph-run's inputs and outputs.
#include "Npy.h"

#include <cstring>
#include <fstream>
#include <sstream>

namespace graphrt {
namespace {

struct Descr {
  graphrt_dtype_t dtype;
  const char *descr;
};
const Descr kDescrs[] = {
    {GRAPHRT_DTYPE_F32, "<f4"},  {GRAPHRT_DTYPE_F64, "<f8"},
    {GRAPHRT_DTYPE_I32, "<i4"},  {GRAPHRT_DTYPE_I64, "<i8"},
    {GRAPHRT_DTYPE_U8, "|u1"},   {GRAPHRT_DTYPE_I8, "|i1"},
    {GRAPHRT_DTYPE_BOOL, "|b1"}, {GRAPHRT_DTYPE_F16, "<f2"},
    {GRAPHRT_DTYPE_I16, "<i2"},  {GRAPHRT_DTYPE_U16, "<u2"},
    {GRAPHRT_DTYPE_U32, "<u4"},  {GRAPHRT_DTYPE_U64, "<u8"},
};

// NumPy has no 8-, 4- or 2-bit floats and no 4- or 2-bit integers: their
// one-byte elements are written as bytes, the floats' bit patterns as '|u1',
// the signed integers (sign-extended) as '|i1', the unsigned as '|u1'.
const char *smallTypeDescr(graphrt_dtype_t dtype) {
  switch (dtype) {
  case GRAPHRT_DTYPE_I4:
  case GRAPHRT_DTYPE_I2:
    return "|i1";
  case GRAPHRT_DTYPE_F8E4M3FN:
  case GRAPHRT_DTYPE_F8E4M3FNUZ:
  case GRAPHRT_DTYPE_F8E5M2:
  case GRAPHRT_DTYPE_F8E5M2FNUZ:
  case GRAPHRT_DTYPE_F8E8M0:
  case GRAPHRT_DTYPE_F4E2M1:
  case GRAPHRT_DTYPE_U4:
  case GRAPHRT_DTYPE_U2:
    return "|u1";
  default:
    return nullptr;
  }
}

Status bad(const std::string &path, const std::string &why) {
  return Status(GRAPHRT_STATUS_INVALID_ARGUMENT,
                "'" + path + "' is not a supported .npy file: " + why);
}

// The value of 'key' in the header dict, up to the next ',' at depth 0.
std::string field(const std::string &header, const std::string &key) {
  size_t at = header.find("'" + key + "'");
  if (at == std::string::npos) {
    return "";
  }
  at = header.find(':', at);
  if (at == std::string::npos) {
    return "";
  }
  ++at;
  int depth = 0;
  size_t end = at;
  for (; end < header.size(); ++end) {
    char c = header[end];
    if (c == '(') {
      ++depth;
    } else if (c == ')') {
      --depth;
    } else if ((c == ',' || c == '}') && depth == 0) {
      break;
    }
  }
  std::string v = header.substr(at, end - at);
  size_t b = v.find_first_not_of(" "), e = v.find_last_not_of(" ");
  return b == std::string::npos ? "" : v.substr(b, e - b + 1);
}

} // namespace

bool npyCanFeed(graphrt_dtype_t file, graphrt_dtype_t declared) {
  if (file == declared) {
    return true;
  }
  const char *descr = smallTypeDescr(declared);
  return descr &&
         file == (descr[1] == 'i' ? GRAPHRT_DTYPE_I8 : GRAPHRT_DTYPE_U8);
}

Status readNpy(const std::string &path, NpyArray *out) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    return Status(GRAPHRT_STATUS_NOT_FOUND, "cannot open '" + path + "'");
  }
  std::stringstream ss;
  ss << in.rdbuf();
  std::string bytes = ss.str();
  if (bytes.size() < 10 || bytes.compare(0, 6, "\x93NUMPY") != 0) {
    return bad(path, "missing magic");
  }
  unsigned major = static_cast<unsigned char>(bytes[6]);
  size_t headerLen, headerStart;
  if (major == 1) {
    headerLen = static_cast<unsigned char>(bytes[8]) |
                (static_cast<unsigned char>(bytes[9]) << 8);
    headerStart = 10;
  } else if (major == 2 || major == 3) {
    if (bytes.size() < 12) {
      return bad(path, "truncated header");
    }
    headerLen = 0;
    for (int i = 0; i < 4; ++i) {
      headerLen |= static_cast<size_t>(static_cast<unsigned char>(bytes[8 + i]))
                   << (8 * i);
    }
    headerStart = 12;
  } else {
    return bad(path, "version " + std::to_string(major));
  }
  if (bytes.size() < headerStart + headerLen) {
    return bad(path, "truncated header");
  }
  std::string header = bytes.substr(headerStart, headerLen);
  std::string descr = field(header, "descr");
  if (descr.size() >= 2) {
    descr = descr.substr(1, descr.size() - 2);
  }
  out->dtype = GRAPHRT_DTYPE_INVALID;
  for (const Descr &d : kDescrs) {
    if (descr == d.descr ||
        (descr == std::string("<") + (d.descr + 1) && d.descr[0] == '|')) {
      out->dtype = d.dtype;
    }
  }
  if (out->dtype == GRAPHRT_DTYPE_INVALID) {
    return bad(path, "dtype '" + descr + "'");
  }
  if (field(header, "fortran_order") != "False") {
    return bad(path, "Fortran order");
  }
  std::string shape = field(header, "shape");
  out->shape.clear();
  // The header is untrusted: a dimension or a product of dimensions that
  // does not fit would otherwise throw (stoll) or wrap around, and a wrapped
  // product could match a short data section.
  uint64_t n = 1;
  for (size_t i = 0; i < shape.size();) {
    if (shape[i] >= '0' && shape[i] <= '9') {
      size_t j = i;
      while (j < shape.size() && shape[j] >= '0' && shape[j] <= '9') {
        ++j;
      }
      if (j - i > 18) {
        return bad(path,
                   "dimension " + shape.substr(i, j - i) + " is too large");
      }
      int64_t dim = std::stoll(shape.substr(i, j - i));
      out->shape.push_back(dim);
      if (__builtin_mul_overflow(n, static_cast<uint64_t>(dim), &n)) {
        return bad(path, "shape " + shape + " has too many elements");
      }
      i = j;
    } else {
      ++i;
    }
  }
  uint64_t expected = 0;
  if (__builtin_mul_overflow(n, graphrt_dtype_size(out->dtype), &expected)) {
    return bad(path, "shape " + shape + " has too many elements");
  }
  out->data = bytes.substr(headerStart + headerLen);
  if (out->data.size() != expected) {
    return bad(path, "data has " + std::to_string(out->data.size()) +
                         " bytes, the header says " + std::to_string(expected));
  }
  return Status::ok();
}

Status writeNpy(const std::string &path, const NpyArray &array) {
  if (array.dtype == GRAPHRT_DTYPE_BF16) {
    // NumPy has no bfloat16: write the exact float32 widening (a bf16 is
    // the upper half of the float32 with the same value).
    NpyArray wide;
    wide.dtype = GRAPHRT_DTYPE_F32;
    wide.shape = array.shape;
    wide.data.assign(array.data.size() * 2, '\0');
    for (size_t i = 0; i + 1 < array.data.size(); i += 2) {
      wide.data[2 * i + 2] = array.data[i];
      wide.data[2 * i + 3] = array.data[i + 1];
    }
    return writeNpy(path, wide);
  }
  const char *descr = nullptr;
  for (const Descr &d : kDescrs) {
    if (d.dtype == array.dtype) {
      descr = d.descr;
    }
  }
  if (!descr) {
    descr = smallTypeDescr(array.dtype);
  }
  if (!descr) {
    return Status(GRAPHRT_STATUS_UNIMPLEMENTED,
                  "cannot write dtype " + std::to_string(array.dtype) +
                      " to .npy");
  }
  std::string shape = "(";
  for (size_t i = 0; i < array.shape.size(); ++i) {
    shape += std::to_string(array.shape[i]) + ",";
  }
  if (array.shape.size() > 1) {
    shape.pop_back();
  }
  shape += ")";
  std::string header = std::string("{'descr': '") + descr +
                       "', 'fortran_order': False, 'shape': " + shape + ", }";
  // Pad so the data starts on a 64-byte boundary, ending in a newline.
  size_t total = 10 + header.size() + 1;
  header.append((64 - total % 64) % 64, ' ');
  header += '\n';
  std::ofstream out(path, std::ios::binary);
  if (!out) {
    return Status(GRAPHRT_STATUS_PERMISSION_DENIED,
                  "cannot write '" + path + "'");
  }
  out.write("\x93NUMPY\x01\x00", 8);
  char len[2] = {static_cast<char>(header.size() & 0xff),
                 static_cast<char>(header.size() >> 8)};
  out.write(len, 2);
  out << header;
  out.write(array.data.data(), array.data.size());
  if (!out) {
    return Status(GRAPHRT_STATUS_DATA_LOSS, "error writing '" + path + "'");
  }
  return Status::ok();
}

} // namespace graphrt
