// TensorProto.cpp: a small reader of the protobuf wire format of
// onnx.TensorProto (onnx/onnx.proto3), enough for the backend test data.
#include "TensorProto.h"

#include <cstring>
#include <fstream>
#include <sstream>

namespace graphrt {
namespace {

// onnx.TensorProto.DataType values and the runtime dtypes they map to.
graphrt_dtype_t dtypeOfOnnx(int64_t t) {
  switch (t) {
  case 1:
    return GRAPHRT_DTYPE_F32;
  case 2:
    return GRAPHRT_DTYPE_U8;
  case 3:
    return GRAPHRT_DTYPE_I8;
  case 4:
    return GRAPHRT_DTYPE_U16;
  case 5:
    return GRAPHRT_DTYPE_I16;
  case 6:
    return GRAPHRT_DTYPE_I32;
  case 7:
    return GRAPHRT_DTYPE_I64;
  case 9:
    return GRAPHRT_DTYPE_BOOL;
  case 10:
    return GRAPHRT_DTYPE_F16;
  case 11:
    return GRAPHRT_DTYPE_F64;
  case 12:
    return GRAPHRT_DTYPE_U32;
  case 13:
    return GRAPHRT_DTYPE_U64;
  case 16:
    return GRAPHRT_DTYPE_BF16;
  case 17:
    return GRAPHRT_DTYPE_F8E4M3FN;
  case 18:
    return GRAPHRT_DTYPE_F8E4M3FNUZ;
  case 19:
    return GRAPHRT_DTYPE_F8E5M2;
  case 20:
    return GRAPHRT_DTYPE_F8E5M2FNUZ;
  case 21:
    return GRAPHRT_DTYPE_U4;
  case 22:
    return GRAPHRT_DTYPE_I4;
  case 23:
    return GRAPHRT_DTYPE_F4E2M1;
  case 24:
    return GRAPHRT_DTYPE_F8E8M0;
  case 25:
    return GRAPHRT_DTYPE_U2;
  case 26:
    return GRAPHRT_DTYPE_I2;
  default:
    return GRAPHRT_DTYPE_INVALID;
  }
}

// Bits per element in ONNX's packed encoding of the sub-byte types (0 for
// the others), and whether an element is a signed integer.
unsigned packedBits(graphrt_dtype_t d) {
  switch (d) {
  case GRAPHRT_DTYPE_I4:
  case GRAPHRT_DTYPE_U4:
  case GRAPHRT_DTYPE_F4E2M1:
    return 4;
  case GRAPHRT_DTYPE_I2:
  case GRAPHRT_DTYPE_U2:
    return 2;
  default:
    return 0;
  }
}

} // namespace

std::string unpackSubByte(const std::string &packed, graphrt_dtype_t dtype,
                          size_t count) {
  unsigned bits = packedBits(dtype);
  bool isSigned = dtype == GRAPHRT_DTYPE_I4 || dtype == GRAPHRT_DTYPE_I2;
  unsigned perByte = 8 / bits, mask = (1u << bits) - 1;
  std::string out(count, '\0');
  for (size_t i = 0; i < count; ++i) {
    unsigned byte = static_cast<uint8_t>(packed[i / perByte]);
    unsigned v = (byte >> (bits * (i % perByte))) & mask;
    if (isSigned && (v >> (bits - 1))) {
      v |= ~mask; // sign-extend to the byte
    }
    out[i] = static_cast<char>(v & 0xff);
  }
  return out;
}

namespace {

struct Reader {
  const std::string &b;
  size_t pos = 0;
  bool failed = false;

  bool done() const { return failed || pos >= b.size(); }
  uint64_t varint() {
    uint64_t v = 0;
    for (int shift = 0; shift < 64; shift += 7) {
      if (pos >= b.size()) {
        break;
      }
      uint8_t byte = static_cast<uint8_t>(b[pos++]);
      v |= static_cast<uint64_t>(byte & 0x7f) << shift;
      if (!(byte & 0x80)) {
        return v;
      }
    }
    failed = true;
    return 0;
  }
  std::string bytes(size_t n) {
    if (n > b.size() - pos) {
      failed = true;
      return "";
    }
    std::string s = b.substr(pos, n);
    pos += n;
    return s;
  }
};

} // namespace

Status readTensorProto(const std::string &path, NpyArray *out) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    return Status(GRAPHRT_STATUS_NOT_FOUND, "cannot open '" + path + "'");
  }
  std::stringstream ss;
  ss << in.rdbuf();
  std::string data = ss.str();
  auto bad = [&](const std::string &why) {
    return Status(GRAPHRT_STATUS_INVALID_ARGUMENT,
                  "'" + path + "' is not an ONNX TensorProto: " + why);
  };

  Reader r{data};
  std::vector<int64_t> dims;
  int64_t onnxType = 0;
  std::string raw;
  // Typed repeated fields, by field number: their elements as 8-byte words
  // (varints) or raw little-endian bytes (fixed32/fixed64).
  std::vector<int64_t> ints; // int32_data (5), int64_data (7),
                             // uint64_data (11)
  std::string fixed;         // float_data (4), double_data (10)
  bool external = false;
  while (!r.done()) {
    uint64_t key = r.varint();
    uint64_t field = key >> 3, wire = key & 7;
    auto repeatedVarints = [&](std::vector<int64_t> *into) {
      if (wire == 0) {
        into->push_back(static_cast<int64_t>(r.varint()));
        return;
      }
      std::string packed = r.bytes(r.varint());
      Reader p{packed};
      while (!p.done()) {
        into->push_back(static_cast<int64_t>(p.varint()));
      }
      r.failed |= p.failed;
    };
    if (field == 1 && (wire == 0 || wire == 2)) {
      repeatedVarints(&dims);
    } else if (field == 2 && wire == 0) {
      onnxType = static_cast<int64_t>(r.varint());
    } else if ((field == 5 || field == 7 || field == 11) &&
               (wire == 0 || wire == 2)) {
      repeatedVarints(&ints);
    } else if ((field == 4 || field == 10) && wire == 2) {
      fixed += r.bytes(r.varint());
    } else if (field == 4 && wire == 5) {
      fixed += r.bytes(4);
    } else if (field == 10 && wire == 1) {
      fixed += r.bytes(8);
    } else if (field == 9 && wire == 2) {
      raw = r.bytes(r.varint());
    } else if (field == 6 && wire == 2) {
      return bad("string tensors are not supported");
    } else if (field == 14 && wire == 0) {
      external = r.varint() == 1; // data_location EXTERNAL
    } else if (wire == 0) {
      r.varint();
    } else if (wire == 1) {
      r.bytes(8);
    } else if (wire == 2) {
      r.bytes(r.varint());
    } else if (wire == 5) {
      r.bytes(4);
    } else {
      return bad("unsupported wire type " + std::to_string(wire));
    }
  }
  if (r.failed) {
    return bad("truncated or malformed");
  }
  if (external) {
    return bad("external data is not supported");
  }
  out->dtype = dtypeOfOnnx(onnxType);
  if (out->dtype == GRAPHRT_DTYPE_INVALID) {
    return bad("unsupported data_type " + std::to_string(onnxType));
  }
  out->shape = dims;
  // A product that wrapped around could match a short (or empty) data
  // section and leave a shape that claims more than the data holds.
  size_t count = 1;
  for (int64_t d : dims) {
    if (d < 0) {
      return bad("negative dimension");
    }
    if (__builtin_mul_overflow(count, static_cast<size_t>(d), &count)) {
      return bad("dims have too many elements");
    }
  }
  size_t elem = graphrt_dtype_size(out->dtype);
  size_t want = 0;
  if (__builtin_mul_overflow(count, elem, &want)) {
    return bad("dims have too many elements");
  }
  if (unsigned bits = packedBits(out->dtype)) {
    // 4- and 2-bit types are packed, the first element in the lowest bits,
    // in raw_data, or in int32_data (8 bits' worth in each int32).
    std::string packed = raw;
    if (packed.empty()) {
      for (int64_t v : ints) {
        packed.push_back(static_cast<char>(v & 0xff));
      }
    }
    size_t perByte = 8 / bits;
    size_t need = (count + perByte - 1) / perByte;
    if (packed.size() != need) {
      return bad("holds " + std::to_string(packed.size()) +
                 " bytes of packed data, its shape needs " +
                 std::to_string(need));
    }
    out->data = unpackSubByte(packed, out->dtype, count);
    return Status::ok();
  }
  if (!raw.empty() || count == 0) {
    out->data = raw;
  } else if (!fixed.empty()) {
    out->data = fixed; // float_data / double_data: already little-endian
  } else {
    // int32_data holds int32, int16, uint16, int8, uint8, bool, f16 and
    // bf16 (as bits); int64_data holds int64; uint64_data uint32 and uint64.
    // Each value's low `elem` bytes are the element (little-endian host).
    out->data.resize(ints.size() * elem);
    for (size_t i = 0; i < ints.size(); ++i) {
      int64_t v = ints[i];
      std::memcpy(&out->data[i * elem], &v, elem); // little-endian host
    }
  }
  if (out->data.size() != want) {
    return bad("holds " + std::to_string(out->data.size()) +
               " bytes of data, " + "its shape needs " + std::to_string(want));
  }
  return Status::ok();
}

Status readTensorFile(const std::string &path, NpyArray *out) {
  if (path.size() >= 3 && path.compare(path.size() - 3, 3, ".pb") == 0) {
    return readTensorProto(path, out);
  }
  return readNpy(path, out);
}

} // namespace graphrt
