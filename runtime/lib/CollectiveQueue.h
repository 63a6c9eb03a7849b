// CollectiveQueue.h: one task's collectives run on a communication thread,
// in the order they were started, while the task's thread computes.
#ifndef GRAPHRT_LIB_COLLECTIVEQUEUE_H
#define GRAPHRT_LIB_COLLECTIVEQUEUE_H

#include "Status.h"

#include <condition_variable>
#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <mutex>
#include <string>
#include <thread>

namespace graphrt {

/// A FIFO of collective calls and the thread that runs them, one at a time,
/// in the order of `start`. Every member of a group starts its collectives
/// in the same (program) order, so running them in start order keeps the
/// members paired exactly as the blocking calls would, whatever the number
/// in flight: there is no reordering to deadlock on.
///
/// Once a call fails, the calls started after it are not run: each one's
/// wait returns FAILED_PRECONDITION naming the failed call, as the blocking
/// path would have stopped at the first failure. Errors of the calls
/// themselves (a dead peer, a deadline, a cancelled job) are returned by
/// `wait` unchanged.
///
/// `start`, `wait`, `runNow` and `drain` are for the task's thread; the
/// calls run on the queue's own thread, started on first use and joined by
/// the destructor (which drains first).
class CollectiveQueue {
public:
  using Call = std::function<Status()>;

  CollectiveQueue() = default;
  ~CollectiveQueue();
  CollectiveQueue(const CollectiveQueue &) = delete;
  CollectiveQueue &operator=(const CollectiveQueue &) = delete;

  /// Queues `call` (`what` names it in the errors of later calls) and
  /// returns its request id (never 0) at once.
  uint64_t start(std::string what, Call call);
  /// Blocks until request `id` has run and returns its status; each id may
  /// be waited on once. INVALID_ARGUMENT for an unknown or already waited
  /// id.
  Status wait(uint64_t id);
  /// Runs `call` after every queued call: on this thread when nothing is
  /// queued or running, else through the queue (so that it cannot overtake
  /// a started call).
  Status runNow(std::string what, Call call);
  /// Waits for every started call; returns how many had not been waited on
  /// (they are then forgotten) and, in `*first`, the first error among
  /// them.
  size_t drain(Status *first);
  /// Whether a call is queued or running.
  bool busy() const;

private:
  struct Request {
    std::string what;
    Call call;
    bool done = false;
    Status status;
  };
  void loop();

  mutable std::mutex mu_;
  std::condition_variable work_, finished_;
  std::deque<uint64_t> queue_;
  std::map<uint64_t, Request> requests_; // started, not yet waited on
  uint64_t next_ = 1;
  int running_ = 0;
  bool stop_ = false;
  // The first call that failed ("" while none has); later calls are skipped.
  std::string failedWhat_;
  Status failed_;
  std::thread thread_;
};

} // namespace graphrt

#endif // GRAPHRT_LIB_COLLECTIVEQUEUE_H
