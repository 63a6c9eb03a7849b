// Status.h: the runtime's C++ status type and its bridge to graphrt_status_t.
#ifndef GRAPHRT_LIB_STATUS_H
#define GRAPHRT_LIB_STATUS_H

#include "graphrt/graphrt.h"

#include <cstddef>
#include <string>
#include <utility>
#include <vector>

/// The object behind a non-OK graphrt_status_t.
struct graphrt_status_s {
  graphrt_status_code_t code;
  std::string message;
};

namespace graphrt {

/// A code (gRPC canonical) and a message; OK is code 0.
class Status {
public:
  Status() = default;
  Status(graphrt_status_code_t code, std::string message)
      : code_(code), message_(std::move(message)) {}
  static Status ok() { return Status(); }

  bool isOk() const { return code_ == GRAPHRT_STATUS_OK; }
  graphrt_status_code_t code() const { return code_; }
  const std::string &message() const { return message_; }
  /// "CODE_NAME: message".
  std::string toString() const;

  /// Converts to a C handle the caller owns (null for OK).
  graphrt_status_t toC() const;
  /// Takes ownership of `status` and converts it.
  static Status fromC(graphrt_status_t status);

private:
  graphrt_status_code_t code_ = GRAPHRT_STATUS_OK;
  std::string message_;
};

/// The upper-case name of a canonical code ("DEADLINE_EXCEEDED").
const char *statusCodeName(graphrt_status_code_t code);

/// How little a task's failure says about why a job failed, for choosing whom
/// to blame: 0 for an error of the task's own (INTERNAL, INVALID_ARGUMENT,
/// ...), 1 for a timeout or a lost connection (DEADLINE_EXCEEDED,
/// UNAVAILABLE: the task waited on a peer that is stuck or gone), 2 for
/// CANCELLED (the task gave up because a peer did).
int failureBlameRank(graphrt_status_code_t code);
/// Whether a failure with `code` is usually a symptom of another task's.
inline bool isSymptomOfPeer(graphrt_status_code_t code) {
  return failureBlameRank(code) > 0;
}

/// One task's failed call, as the coordinator saw it.
struct TaskFailure {
  graphrt_status_code_t code;
  /// When the call ended, in any clock's seconds.
  double endedSec;
};
/// The index in `failures` (not empty) of the one to blame: the lowest
/// failureBlameRank, then the earliest to end, then the lowest index. A
/// symptom that arrived first under load must not hide the root cause: a
/// rank that timed out waiting for a stuck peer says more than a rank that
/// was cancelled because of that timeout.
size_t chooseFailureToBlame(const std::vector<TaskFailure> &failures);

#define GRAPHRT_RETURN_IF_ERROR(expr)                                          \
  do {                                                                         \
    ::graphrt::Status _st = (expr);                                            \
    if (!_st.isOk())                                                           \
      return _st;                                                              \
  } while (0)

} // namespace graphrt

#endif // GRAPHRT_LIB_STATUS_H
