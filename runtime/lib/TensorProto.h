// TensorProto.h: reading ONNX TensorProto files (the ONNX backend tests'
// input_N.pb / output_N.pb) without linking ONNX or MLIR.
#ifndef GRAPHRT_LIB_TENSORPROTO_H
#define GRAPHRT_LIB_TENSORPROTO_H

#include "Npy.h"

namespace graphrt {

/// Reads a serialized onnx.TensorProto: dims (1), data_type (2) and the
/// values from raw_data (9), float_data (4), int32_data (5), int64_data (7)
/// or double_data (10). External data and strings are refused. The 4- and
/// 2-bit types are unpacked to one element per byte (unpackSubByte).
Status readTensorProto(const std::string &path, NpyArray *out);

/// The `count` elements of a 4-bit (i4, u4, f4e2m1) or 2-bit (i2, u2)
/// `dtype` packed as ONNX packs them (the first element in the lowest bits
/// of the first byte), one per byte: i4/i2 sign-extended, the others
/// zero-extended. `packed` must hold ceil(count * bits / 8) bytes.
std::string unpackSubByte(const std::string &packed, graphrt_dtype_t dtype,
                          size_t count);

/// readTensorProto for a path ending in ".pb", readNpy otherwise.
Status readTensorFile(const std::string &path, NpyArray *out);

} // namespace graphrt

#endif // GRAPHRT_LIB_TENSORPROTO_H
