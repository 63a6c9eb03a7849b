// ProcessMemory.cpp: keeps freed heap memory in a process that runs task steps.
#include "ProcessMemory.h"

#include <cstdlib>
#include <cstring>

#if defined(__GLIBC__)
#include <malloc.h>
extern char **environ;
#endif

namespace graphrt {

bool keepFreedMemory() {
#if defined(__GLIBC__)
  for (char **env = environ; env && *env; ++env) {
    if (std::strncmp(*env, "GLIBC_TUNABLES=", 15) == 0 ||
        std::strncmp(*env, "MALLOC_", 7) == 0) {
      return false;
    }
  }
  // glibc refuses an mmap threshold above HEAP_MAX_SIZE / 2 (32 MiB on
  // 64-bit); blocks above it are still mapped and unmapped per step.
  constexpr int kMmapThreshold = 32 << 20;
  constexpr int kTrimThreshold = 1 << 30;
  return mallopt(M_MMAP_THRESHOLD, kMmapThreshold) == 1 &&
         mallopt(M_TRIM_THRESHOLD, kTrimThreshold) == 1;
#else
  return false;
#endif
}

} // namespace graphrt
