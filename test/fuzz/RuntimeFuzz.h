//===- RuntimeFuzz.h - shared helpers of the runtime fuzz targets ---------===//
#ifndef GRAPHC_TEST_FUZZ_RUNTIMEFUZZ_H
#define GRAPHC_TEST_FUZZ_RUNTIMEFUZZ_H

#include "Status.h"

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <unistd.h>
#include <vector>

namespace graphrt::fuzz {

/// The readers under test take paths: each input goes to one file per
/// process (`name` keeps the extension the reader dispatches on).
inline std::string writeInput(const uint8_t *data, size_t size,
                              const char *name) {
  const char *tmp = std::getenv("TMPDIR");
  std::string path = std::string(tmp ? tmp : "/tmp") + "/graphrt-fuzz-" +
                     std::to_string(::getpid()) + "-" + name;
  FILE *f = std::fopen(path.c_str(), "wb");
  if (!f || (size && std::fwrite(data, 1, size, f) != size)) {
    std::abort();
  }
  std::fclose(f);
  return path;
}

/// A property the decoders promise was broken: report and stop (a finding).
[[noreturn]] inline void broken(const std::string &what) {
  std::fprintf(stderr, "fuzz: %s\n", what.c_str());
  std::abort();
}

/// Bytes a decoded tensor must hold: its element count times the element
/// size; false when the count overflows (which a decoder must refuse).
inline bool expectedBytes(graphrt_dtype_t dtype,
                          const std::vector<int64_t> &shape, uint64_t *out) {
  uint64_t n = 1;
  for (int64_t d : shape) {
    if (d < 0 || (d && n > UINT64_MAX / uint64_t(d))) {
      return false;
    }
    n *= uint64_t(d);
  }
  uint64_t size = graphrt_dtype_size(dtype);
  if (size && n > UINT64_MAX / size) {
    return false;
  }
  *out = n * size;
  return true;
}

/// An array a reader accepted must hold exactly prod(shape) elements.
inline void checkArraySize(graphrt_dtype_t dtype,
                           const std::vector<int64_t> &shape, size_t dataBytes,
                           const std::string &what) {
  uint64_t bytes = 0;
  if (!expectedBytes(dtype, shape, &bytes) || bytes != dataBytes) {
    broken(what + " accepted an array whose data does not match its shape");
  }
}

} // namespace graphrt::fuzz

#endif // GRAPHC_TEST_FUZZ_RUNTIMEFUZZ_H
