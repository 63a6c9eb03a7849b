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

int failureBlameRank(graphrt_status_code_t code) {
  switch (code) {
  case GRAPHRT_STATUS_CANCELLED:
    return 2;
  case GRAPHRT_STATUS_DEADLINE_EXCEEDED:
  case GRAPHRT_STATUS_UNAVAILABLE:
    return 1;
  default:
    return 0;
  }
}

size_t chooseFailureToBlame(const std::vector<TaskFailure> &failures) {
  size_t best = 0;
  for (size_t i = 1; i < failures.size(); ++i) {
    int rank = failureBlameRank(failures[i].code);
    int bestRank = failureBlameRank(failures[best].code);
    if (rank < bestRank ||
        (rank == bestRank && failures[i].endedSec < failures[best].endedSec)) {
      best = i;
    }
  }
  return best;
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
