// Rendezvous.h: where a received tensor waits for its consumer (or the
// reverse).
#ifndef GRAPHRT_LIB_RENDEZVOUS_H
#define GRAPHRT_LIB_RENDEZVOUS_H

#include "Status.h"

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace graphrt {

using Clock = std::chrono::steady_clock;

/// A table of keyed one-shot slots. A producer (the transport, as chunks
/// arrive) and a consumer (`take`) meet at a key in either order. When the
/// consumer is already waiting with a buffer of the right size, the producer
/// writes straight into it; otherwise the data is staged and copied once at
/// `take`. Thread-safe.
class Rendezvous {
public:
  /// Starts an incoming transfer of `totalBytes` for `key` and returns where
  /// to write it in `*out_target`, valid until `finishIncoming` (staged
  /// targets: until the next `growIncoming`, which a producer writing
  /// more than 0 bytes must call first). Only one
  /// producer per key; ALREADY_EXISTS if the key is in flight or unconsumed,
  /// or the cancellation status once `cancel` was called.
  Status beginIncoming(const std::string &key, size_t totalBytes,
                       char **out_target);
  /// Makes the first `bytes` of the incoming `key`'s target writable and
  /// returns it (it may move) in `*out_target`; the producer calls this
  /// before writing each part. Without a waiting consumer the data is
  /// staged, and the staging buffer grows with what actually arrives rather
  /// than with the size the sender declared: a sender that declares
  /// terabytes and sends a few bytes costs a few bytes.
  /// RESOURCE_EXHAUSTED if the memory cannot be had; INVALID_ARGUMENT past
  /// the declared size.
  Status growIncoming(const std::string &key, size_t bytes, char **out_target);
  /// Ends the transfer `beginIncoming` started; a non-OK `status` is handed
  /// to the consumer instead of data.
  void finishIncoming(const std::string &key, Status status);

  /// Convenience: a whole message at once.
  Status deposit(const std::string &key, const void *data, size_t bytes);

  /// Waits until `key` has arrived, then copies it into `dst` (`bytes` long)
  /// and forgets the key. DEADLINE_EXCEEDED at `deadline`; INVALID_ARGUMENT on
  /// a size mismatch; the cancellation status after `cancel`.
  Status take(const std::string &key, void *dst, size_t bytes,
              Clock::time_point deadline);

  /// Offers `dst` (`bytes` long) for `key` ahead of `take(key, dst, ...)`, so
  /// a transfer that starts in between writes straight into it. The caller
  /// must then call `take` with the same buffer (a deadline in the past
  /// withdraws it).
  void post(const std::string &key, void *dst, size_t bytes);

  /// Fails every current and future wait with `reason`.
  void cancel(Status reason);
  /// Keys a consumer is blocked on, comma-separated (for health reports).
  std::string waitingOn() const;
  /// Number of keys with state (arrived but unconsumed, or awaited).
  size_t pending() const;

private:
  struct Slot {
    void *consumerDst = nullptr; // a waiting consumer's buffer
    size_t consumerBytes = 0;
    char *target = nullptr;   // where the producer writes
    std::vector<char> staged; // used when target is not consumerDst
    size_t stagedBytes = 0;   // of `staged`, which may be larger
    bool receiving = false;
    bool complete = false;
    Status status;
  };
  mutable std::mutex mu_;
  std::condition_variable cv_;
  std::map<std::string, Slot> slots_;
  bool cancelled_ = false;
  Status cancelReason_;
  // Staging buffers handed back by `take`, reused so that a producer that
  // runs ahead of its consumer does not fault in fresh pages every time.
  std::vector<std::vector<char>> pool_;
};

} // namespace graphrt

#endif // GRAPHRT_LIB_RENDEZVOUS_H
