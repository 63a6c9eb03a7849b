// SafeTensors.h: reading and writing safetensors files (checkpoints and
// --save).
//
// The format (https://github.com/huggingface/safetensors): 8 bytes of
// little-endian u64 N, N bytes of JSON header (padded with spaces so the data
// starts 8-byte aligned), then the data section. The header maps each tensor
// name to {"dtype": "F32", "shape": [...], "data_offsets": [begin, end]}
// (offsets into the data section) and may hold "__metadata__", a map of
// strings to strings.
#ifndef GRAPHRT_LIB_SAFETENSORS_H
#define GRAPHRT_LIB_SAFETENSORS_H

#include "Status.h"

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace graphrt {

struct SafeTensor {
  std::string name;
  graphrt_dtype_t dtype = GRAPHRT_DTYPE_INVALID;
  std::vector<int64_t> shape;
  std::string data; // raw little-endian row-major bytes
};

struct SafeTensorsFile {
  std::vector<SafeTensor> tensors; // the data section in this order
  std::map<std::string, std::string> metadata;
};

/// The safetensors dtype name of `dtype` ("F32"), or nullptr when the format
/// has none.
const char *safetensorsDType(graphrt_dtype_t dtype);

/// The whole file's bytes. INVALID_ARGUMENT (naming the tensor) for a dtype
/// the format cannot hold, a data size that does not match the shape, or a
/// name used twice.
Status encodeSafeTensors(const SafeTensorsFile &file, std::string *out);

/// Writes `file` to `path` so that `path` is never seen half-written: the
/// bytes go to `tmpPath` (in the same directory), which is fsync'd, renamed
/// over `path`, and the directory fsync'd.
Status writeSafeTensorsAtomically(const std::string &path,
                                  const std::string &tmpPath,
                                  const SafeTensorsFile &file);

/// Parses a whole file's bytes; DATA_LOSS saying what is wrong (truncated,
/// malformed header, offsets out of the data section or not covering it).
Status decodeSafeTensors(const std::string &bytes, SafeTensorsFile *out);

/// Reads and decodes `path`; NOT_FOUND if it cannot be read.
Status readSafeTensors(const std::string &path, SafeTensorsFile *out);

} // namespace graphrt

#endif // GRAPHRT_LIB_SAFETENSORS_H
