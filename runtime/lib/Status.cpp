// Status.cpp: the runtime's status type.
#include "Status.h"

namespace graphrt {

const char *statusCodeName(graphrt_status_code_t code) {
  static const char *const names[] = {"OK",
                                      "CANCELLED",
                                      "UNKNOWN",
                                      "INVALID_ARGUMENT",
                                      "DEADLINE_EXCEEDED",
                                      "NOT_FOUND",
                                      "ALREADY_EXISTS",
                                      "PERMISSION_DENIED",
                                      "RESOURCE_EXHAUSTED",
                                      "FAILED_PRECONDITION",
                                      "ABORTED",
                                      "OUT_OF_RANGE",
                                      "UNIMPLEMENTED",
                                      "INTERNAL",
                                      "UNAVAILABLE",
                                      "DATA_LOSS",
                                      "UNAUTHENTICATED"};
  int c = static_cast<int>(code);
  if (c < 0 || c > 16) {
    return "UNKNOWN";
  }
  return names[c];
}

std::string Status::toString() const {
  if (isOk()) {
    return "OK";
  }
  return std::string(statusCodeName(code_)) + ": " + message_;
}

graphrt_status_t Status::toC() const {
  if (isOk()) {
    return GRAPHRT_OK;
  }
  return new graphrt_status_s{code_, message_};
}

Status Status::fromC(graphrt_status_t status) {
  if (status == GRAPHRT_OK) {
    return Status();
  }
  Status result(status->code == GRAPHRT_STATUS_OK ? GRAPHRT_STATUS_UNKNOWN
                                                  : status->code,
                status->message);
  delete status;
  return result;
}

} // namespace graphrt
