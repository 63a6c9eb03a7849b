// Npy.h: reading and writing NumPy .npy files (version 1.0, C order, little endian).
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

Status readNpy(const std::string& path, NpyArray* out);
Status writeNpy(const std::string& path, const NpyArray& array);

} // namespace graphrt

#endif // GRAPHRT_LIB_NPY_H
