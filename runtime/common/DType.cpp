// DType.cpp: the dtype name table shared by graphc's bundle writer and the
// runtime.
#include "graphrt/common/DType.h"

namespace graphrt {

const std::vector<DTypeName> &allDTypes() {
  static const std::vector<DTypeName> table = {
      {GRAPHRT_DTYPE_F32, "f32"},
      {GRAPHRT_DTYPE_F64, "f64"},
      {GRAPHRT_DTYPE_I32, "i32"},
      {GRAPHRT_DTYPE_I64, "i64"},
      {GRAPHRT_DTYPE_U8, "u8"},
      {GRAPHRT_DTYPE_I8, "i8"},
      {GRAPHRT_DTYPE_BOOL, "bool"},
      {GRAPHRT_DTYPE_F16, "f16"},
      {GRAPHRT_DTYPE_BF16, "bf16"},
      {GRAPHRT_DTYPE_I16, "i16"},
      {GRAPHRT_DTYPE_U16, "u16"},
      {GRAPHRT_DTYPE_U32, "u32"},
      {GRAPHRT_DTYPE_U64, "u64"},
      {GRAPHRT_DTYPE_F8E4M3FN, "f8e4m3fn"},
      {GRAPHRT_DTYPE_F8E4M3FNUZ, "f8e4m3fnuz"},
      {GRAPHRT_DTYPE_F8E5M2, "f8e5m2"},
      {GRAPHRT_DTYPE_F8E5M2FNUZ, "f8e5m2fnuz"},
      {GRAPHRT_DTYPE_F8E8M0, "f8e8m0"},
      {GRAPHRT_DTYPE_F4E2M1, "f4e2m1"},
      {GRAPHRT_DTYPE_I4, "i4"},
      {GRAPHRT_DTYPE_U4, "u4"},
      {GRAPHRT_DTYPE_I2, "i2"},
      {GRAPHRT_DTYPE_U2, "u2"},
  };
  return table;
}

graphrt_dtype_t parseDType(std::string_view name) {
  for (const DTypeName &d : allDTypes()) {
    if (name == d.name) {
      return d.dtype;
    }
  }
  return GRAPHRT_DTYPE_INVALID;
}

const char *dtypeName(graphrt_dtype_t dtype) {
  for (const DTypeName &d : allDTypes()) {
    if (dtype == d.dtype) {
      return d.name;
    }
  }
  return "invalid";
}

} // namespace graphrt
