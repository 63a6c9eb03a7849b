// ProcessMemoryTest.cpp: keepFreedMemory keeps a step's buffers in the heap.
#include "ProcessMemory.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <cstring>

// Under a sanitizer malloc is the sanitizer's: mallopt and mallinfo2 do
// nothing there, so the test is glibc's alone.
#if defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer) ||     \
    __has_feature(memory_sanitizer)
#define GRAPHRT_SANITIZED_MALLOC 1
#endif
#endif

#if defined(__GLIBC__) && !defined(GRAPHRT_SANITIZED_MALLOC)
#include <malloc.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <thread>

namespace {

// Bytes glibc holds in mmap'ed blocks: a block above the mmap threshold is
// mapped on malloc and unmapped on free, which is what keepFreedMemory stops
// for buffers up to 32 MiB.
size_t mappedBytes() { return mallinfo2().hblkhd; }

TEST(ProcessMemory, StepSizedBuffersStayInTheHeap) {
  const char *tunables = std::getenv("GLIBC_TUNABLES");
  if (tunables) {
    GTEST_SKIP() << "GLIBC_TUNABLES is set; keepFreedMemory leaves it alone";
  }
  // glibc's default threshold (128 KiB, raised only by frees of mapped
  // blocks) maps an 8 MiB buffer.
  ASSERT_TRUE(graphrt::keepFreedMemory());
  size_t before = mappedBytes();
  constexpr size_t kBytes = 8 << 20;
  void *p = std::malloc(kBytes);
  ASSERT_NE(p, nullptr);
  std::memset(p, 1, kBytes);
  EXPECT_EQ(mappedBytes(), before) << "an 8 MiB buffer was mmap'ed";
  std::free(p);
  // Freed, it stays in the heap (the trim threshold is 1 GiB): the next
  // step's malloc of the same size gets the same pages back.
  EXPECT_GE(mallinfo2().fordblks, kBytes);
}

long minorFaults() {
  rusage usage;
  getrusage(RUSAGE_SELF, &usage);
  return usage.ru_minflt;
}

// A step on a thread of its own (as in graph-worker) whose buffers span
// several of its arena's 64 MiB heaps: glibc unmaps a heap that a free
// empties unless the top pad covers it, and the next step faults the same
// 96 MiB in again (about 24 k faults).
TEST(ProcessMemory, AThreadsStepBuffersStayMapped) {
  if (std::getenv("GLIBC_TUNABLES")) {
    GTEST_SKIP() << "GLIBC_TUNABLES is set; keepFreedMemory leaves it alone";
  }
  ASSERT_TRUE(graphrt::keepFreedMemory());
  constexpr size_t kBytes = 24 << 20;
  // The first step maps the buffers (unless an earlier thread's arena
  // already holds them); the second must find them mapped.
  long faults[2] = {0, 0};
  std::thread worker([&] {
    for (long &stepFaults : faults) {
      long before = minorFaults();
      void *buffers[4];
      for (void *&p : buffers) {
        p = std::malloc(kBytes);
        ASSERT_NE(p, nullptr);
        std::memset(p, 1, kBytes);
        // Keeps the stores: freed right after, they would be dead.
        asm volatile("" : : "r"(p) : "memory");
      }
      for (void *p : buffers) {
        std::free(p);
      }
      stepFaults = minorFaults() - before;
    }
  });
  worker.join();
  EXPECT_LT(faults[1], 1000) << "the second step faulted its buffers in again";
}

// Buffers larger than any mmap threshold glibc accepts (32 MiB) and than a
// thread arena's heap (64 MiB): VGG-19's activations at batch 8 are 100 MB.
// Mapped per malloc and unmapped per free, every step faults all of them in
// again (about 51 k faults here). The arena setting holds for a process
// whose threads start after it (graph-worker calls keepFreedMemory first),
// and glibc hands a new thread the arena of one that exited before: so the
// check runs in a fresh process, this test alone re-executed with
// GRAPHRT_PROCESS_MEMORY_CHILD set, whose exit code is the result.
int largeBuffersChild() {
  if (!graphrt::keepFreedMemory()) {
    return 10;
  }
  constexpr size_t kBytes = 100 << 20;
  int result = 0;
  std::thread worker([&] {
    for (int step = 0; step < 2; ++step) {
      long before = minorFaults();
      void *buffers[2];
      for (void *&p : buffers) {
        p = std::malloc(kBytes);
        if (!p) {
          result = 11;
          return;
        }
        std::memset(p, 1, kBytes);
        asm volatile("" : : "r"(p) : "memory");
      }
      bool mapped = mappedBytes() >= kBytes;
      for (void *p : buffers) {
        std::free(p);
      }
      if (step == 1) {
        result = mapped ? 12 : minorFaults() - before >= 1000 ? 13 : 0;
      }
    }
  });
  worker.join();
  return result;
}

TEST(ProcessMemory, BuffersLargerThanAHeapStayMapped) {
  if (std::getenv("GRAPHRT_PROCESS_MEMORY_CHILD")) {
    ::_exit(largeBuffersChild());
  }
  if (std::getenv("GLIBC_TUNABLES")) {
    GTEST_SKIP() << "GLIBC_TUNABLES is set; keepFreedMemory leaves it alone";
  }
  pid_t pid = ::fork();
  ASSERT_GE(pid, 0);
  if (pid == 0) {
    ::setenv("GRAPHRT_PROCESS_MEMORY_CHILD", "1", 1);
    char self[] = "/proc/self/exe";
    char filter[] =
        "--gtest_filter=ProcessMemory.BuffersLargerThanAHeapStayMapped";
    char *args[] = {self, filter, nullptr};
    ::execv(self, args);
    ::_exit(127);
  }
  int status = 0;
  ASSERT_EQ(::waitpid(pid, &status, 0), pid);
  ASSERT_TRUE(WIFEXITED(status));
  int code = WEXITSTATUS(status);
  EXPECT_NE(code, 127) << "could not re-execute the test binary";
  EXPECT_NE(code, 10) << "keepFreedMemory did not apply";
  EXPECT_NE(code, 11) << "malloc of 100 MiB failed";
  EXPECT_NE(code, 12) << "a 100 MiB buffer was mmap'ed on its own";
  EXPECT_NE(code, 13) << "the second step faulted its buffers in again";
  EXPECT_EQ(code, 0);
}

TEST(ProcessMemory, LeavesAUsersMallocSettingsAlone) {
  ASSERT_EQ(setenv("MALLOC_ARENA_MAX", "2", 1), 0);
  EXPECT_FALSE(graphrt::keepFreedMemory());
  ASSERT_EQ(unsetenv("MALLOC_ARENA_MAX"), 0);
}

} // namespace
#endif
