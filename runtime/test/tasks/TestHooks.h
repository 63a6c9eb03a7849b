// TestHooks.h: fault injection for the runtime's end-to-end tests.
#ifndef GRAPHRT_TEST_TASKS_TESTHOOKS_H
#define GRAPHRT_TEST_TASKS_TESTHOOKS_H

#include <chrono>
#include <csignal>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <string>
#include <unistd.h>

// Returns a failed status of a service call from the enclosing function.
#define CHECK(call)                                                            \
  do {                                                                         \
    graphrt_status_t _st = (call);                                             \
    if (_st)                                                                   \
      return _st;                                                              \
  } while (0)

// GRAPHRT_TEST_KILL=<task>:<step> makes that task SIGKILL its own worker at
// the start of that step (the same as `kill -9` from outside, but at a
// deterministic point); GRAPHRT_TEST_HANG=<task>:<step> makes it stop making
// progress without ever returning; GRAPHRT_TEST_COMPUTE=<task>:<step> makes it
// compute (a busy loop, without calling the runtime) for
// GRAPHRT_TEST_COMPUTE_MS milliseconds before it communicates;
// GRAPHRT_TEST_DEADLOCK=<task>:<step> makes it skip its first send, which
// leaves it and its peer waiting on each other (tasks opt in with
// graphrtTestSkipSend).
//
// GRAPHRT_TEST_KILL may list several <task>:<step> pairs, comma-separated.
// With GRAPHRT_TEST_KILL_ONCE=<dir> each fires once only (it leaves a file
// <dir>/<task>-<step> behind), so a job that restarts its workers and runs
// that step again goes on.
inline bool graphrtTestHookMatches(const char *var, const char *task,
                                   int64_t step) {
  const char *v = std::getenv(var);
  if (!v) {
    return false;
  }
  std::string all(v);
  size_t begin = 0;
  while (begin <= all.size()) {
    size_t end = all.find(',', begin);
    if (end == std::string::npos) {
      end = all.size();
    }
    std::string s = all.substr(begin, end - begin);
    size_t colon = s.rfind(':');
    if (colon != std::string::npos && s.substr(0, colon) == task &&
        std::atoll(s.c_str() + colon + 1) == step) {
      return true;
    }
    begin = end + 1;
  }
  return false;
}

inline bool graphrtTestFirstTime(const char *task, int64_t step) {
  const char *dir = std::getenv("GRAPHRT_TEST_KILL_ONCE");
  if (!dir) {
    return true;
  }
  std::string mark = std::string(dir) + "/" + task + "-" + std::to_string(step);
  int fd = ::open(mark.c_str(), O_CREAT | O_EXCL | O_WRONLY, 0644);
  if (fd < 0) {
    return false;
  }
  ::close(fd);
  return true;
}

inline void graphrtTestHooks(const char *task, int64_t step) {
  if (graphrtTestHookMatches("GRAPHRT_TEST_KILL", task, step) &&
      graphrtTestFirstTime(task, step)) {
    std::raise(SIGKILL);
  }
  if (graphrtTestHookMatches("GRAPHRT_TEST_HANG", task, step)) {
    for (;;) {
      ::sleep(1000);
    }
  }
  // GRAPHRT_TEST_THREAD_LOG=<file>: every step appends "<task> <step>
  // <thread id>" to the file, so a test can see which threads ran the steps.
  if (const char *log = std::getenv("GRAPHRT_TEST_THREAD_LOG")) {
    int fd = ::open(log, O_CREAT | O_WRONLY | O_APPEND, 0644);
    if (fd >= 0) {
      std::string line = std::string(task) + " " + std::to_string(step) + " " +
                         std::to_string(::gettid()) + "\n";
      (void)!::write(fd, line.data(), line.size());
      ::close(fd);
    }
  }
  if (graphrtTestHookMatches("GRAPHRT_TEST_COMPUTE", task, step)) {
    const char *ms = std::getenv("GRAPHRT_TEST_COMPUTE_MS");
    auto until = std::chrono::steady_clock::now() +
                 std::chrono::milliseconds(ms ? std::atoll(ms) : 1000);
    volatile uint64_t sink = 0;
    while (std::chrono::steady_clock::now() < until) {
      for (int i = 0; i < 100000; ++i) {
        sink = sink + static_cast<uint64_t>(i);
      }
    }
  }
}

inline bool graphrtTestSkipSend(const char *task, int64_t step) {
  return graphrtTestHookMatches("GRAPHRT_TEST_DEADLOCK", task, step);
}

#endif // GRAPHRT_TEST_TASKS_TESTHOOKS_H
