// TensorProto.h: reading ONNX TensorProto files (the ONNX backend tests'
// input_N.pb / output_N.pb) without linking ONNX or MLIR.
#ifndef GRAPHRT_LIB_TENSORPROTO_H
#define GRAPHRT_LIB_TENSORPROTO_H

#include "Npy.h"

namespace graphrt {

/// Reads a serialized onnx.TensorProto: dims (1), data_type (2) and the
/// values from raw_data (9), float_data (4), int32_data (5), int64_data (7)
/// or double_data (10). External data and strings are refused.
Status readTensorProto(const std::string& path, NpyArray* out);

/// readTensorProto for a path ending in ".pb", readNpy otherwise.
Status readTensorFile(const std::string& path, NpyArray* out);

} // namespace graphrt

#endif // GRAPHRT_LIB_TENSORPROTO_H
