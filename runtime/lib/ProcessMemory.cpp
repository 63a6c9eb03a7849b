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
  // 64-bit), so blocks above it would still be mapped and unmapped per step
  // (VGG-19 at batch 8: activations of 100 MB, about 10% of the step in the
  // kernel). So no block is mapped on its own (M_MMAP_MAX 0), and every
  // thread allocates from the main arena (M_ARENA_MAX 1: a thread arena's
  // heaps are 64 MiB, and glibc maps a larger block there whatever
  // M_MMAP_MAX says), which grows with brk and keeps what is freed under
  // the trim threshold. Small blocks still come from each thread's cache
  // without the arena's lock. Set before the process starts threads.
  constexpr int kMmapThreshold = 32 << 20;
  constexpr int kTrimThreshold = 1 << 30;
  // A thread other than the main one (a worker's step thread) allocates
  // from an arena of 64 MiB heaps, and glibc unmaps a heap that a free
  // leaves empty whatever the trim threshold, unless the top pad covers a
  // whole heap: without it a step whose buffers span several heaps
  // page-faults them all in again every step (the ResNet-18 training
  // step: 112 k faults, about 460 MB, per step). The pad is address space:
  // untouched pages are never resident.
  constexpr int kTopPad = 64 << 20;
  return mallopt(M_MMAP_THRESHOLD, kMmapThreshold) == 1 &&
         mallopt(M_MMAP_MAX, 0) == 1 && mallopt(M_ARENA_MAX, 1) == 1 &&
         mallopt(M_TRIM_THRESHOLD, kTrimThreshold) == 1 &&
         mallopt(M_TOP_PAD, kTopPad) == 1;
#else
  return false;
#endif
}

} // namespace graphrt
