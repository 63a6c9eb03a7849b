// ProcessMemory.h: keeps freed heap memory in a process that runs task steps.
#ifndef GRAPHRT_LIB_PROCESSMEMORY_H
#define GRAPHRT_LIB_PROCESSMEMORY_H

namespace graphrt {

/// Generated task code allocates its buffers with malloc in every step and
/// frees them at the end. glibc hands large blocks (over its mmap threshold)
/// and the free top of a thread's arena (over its trim threshold) back to
/// the kernel on free, so the next step page-faults and zero-fills the same
/// memory again: an MLP training step spent more than half its time in the
/// kernel doing that. This raises both thresholds (the mmap one to glibc's
/// maximum, 32 MiB) and the top pad to a whole heap of a thread's arena (64
/// MiB, else glibc unmaps every heap a free empties), maps no block on its
/// own and keeps every thread on the main arena (blocks over 32 MiB: large
/// activations at large batches), so a step's buffers are reused by the
/// next step. Call it before the process starts threads. It
/// leaves malloc alone when the user set GLIBC_TUNABLES or a MALLOC_*_
/// variable, and does nothing outside glibc. Returns whether it applied.
bool keepFreedMemory();

} // namespace graphrt

#endif // GRAPHRT_LIB_PROCESSMEMORY_H
