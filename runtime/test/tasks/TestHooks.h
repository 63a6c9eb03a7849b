// TestHooks.h: fault injection for the runtime's end-to-end tests.
#ifndef GRAPHRT_TEST_TASKS_TESTHOOKS_H
#define GRAPHRT_TEST_TASKS_TESTHOOKS_H

#include <csignal>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <string>
#include <unistd.h>

// GRAPHRT_TEST_KILL=<task>:<step> makes that task SIGKILL its own worker at
// the start of that step (the same as `kill -9` from outside, but at a
// deterministic point); GRAPHRT_TEST_HANG=<task>:<step> makes it stop making
// progress without ever returning.
inline bool graphrtTestHookMatches(const char* var, const char* task,
                                   int64_t step) {
  const char* v = std::getenv(var);
  if (!v)
    return false;
  std::string s(v);
  size_t colon = s.rfind(':');
  return colon != std::string::npos && s.substr(0, colon) == task &&
         std::atoll(s.c_str() + colon + 1) == step;
}

inline void graphrtTestHooks(const char* task, int64_t step) {
  if (graphrtTestHookMatches("GRAPHRT_TEST_KILL", task, step))
    std::raise(SIGKILL);
  if (graphrtTestHookMatches("GRAPHRT_TEST_HANG", task, step))
    for (;;)
      ::sleep(1000);
}

#endif // GRAPHRT_TEST_TASKS_TESTHOOKS_H
