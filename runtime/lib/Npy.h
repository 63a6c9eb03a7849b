// Npy.h: reading and writing NumPy .npy files (version 1.0, C order, little
// endian).
#ifndef GRAPHRT_LIB_NPY_H
#define GRAPHRT_LIB_NPY_H

#include "Status.h"

#include <cstdint>
#include <string>
#include <vector>

namespace graphrt {

struct NpyArray {
  graphrt_dtype_t dtype = GRAPHRT_DTYPE_INVALID;
  std::vector<int64_t> shape;
  std::string data; // raw little-endian row-major bytes
};

Status readNpy(const std::string &path, NpyArray *out);

/// Whether an array read with dtype `file` may feed a tensor of dtype
/// `declared`: the same dtype, or for the small types (f8*, f4e2m1, i4, u4,
/// i2, u2), which .npy cannot name, the byte dtype writeNpy writes them as
/// (uint8, or int8 for i4/i2), holding one element per byte.
bool npyCanFeed(graphrt_dtype_t file, graphrt_dtype_t declared);
Status writeNpy(const std::string &path, const NpyArray &array);

} // namespace graphrt

#endif // GRAPHRT_LIB_NPY_H
