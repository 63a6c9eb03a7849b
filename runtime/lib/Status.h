// Status.h: the runtime's C++ status type and its bridge to graphrt_status_t.
#ifndef GRAPHRT_LIB_STATUS_H
#define GRAPHRT_LIB_STATUS_H

#include "graphrt/graphrt.h"

#include <string>
#include <utility>

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

#define GRAPHRT_RETURN_IF_ERROR(expr)                                          \
  do {                                                                         \
    ::graphrt::Status _st = (expr);                                            \
    if (!_st.isOk())                                                           \
      return _st;                                                              \
  } while (0)

} // namespace graphrt

#endif // GRAPHRT_LIB_STATUS_H
