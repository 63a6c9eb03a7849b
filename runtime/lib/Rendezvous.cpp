// Rendezvous.cpp: keyed one-shot slots shared by the transport and the task.
#include "Rendezvous.h"

#include <algorithm>
#include <cstring>
#include <new>

namespace graphrt {

Status Rendezvous::beginIncoming(const std::string &key, size_t totalBytes,
                                 char **out_target) {
  std::lock_guard<std::mutex> lock(mu_);
  if (cancelled_) {
    return cancelReason_;
  }
  Slot &slot = slots_[key];
  if (slot.receiving || slot.complete) {
    return Status(GRAPHRT_STATUS_ALREADY_EXISTS,
                  "rendezvous key '" + key + "' was sent twice");
  }
  slot.receiving = true;
  if (slot.consumerDst && slot.consumerBytes == totalBytes) {
    slot.target = static_cast<char *>(slot.consumerDst);
  } else {
    // The smallest pooled buffer that fits, else a new one.
    auto best = pool_.end();
    for (auto it = pool_.begin(); it != pool_.end(); ++it) {
      if (it->size() >= totalBytes &&
          (best == pool_.end() || it->size() < best->size())) {
        best = it;
      }
    }
    // Allocated by growIncoming as bytes arrive: `totalBytes` is only what
    // the sender claims.
    if (best != pool_.end()) {
      slot.staged = std::move(*best);
      pool_.erase(best);
    }
    slot.stagedBytes = totalBytes;
    slot.target = slot.staged.data();
  }
  *out_target = slot.target;
  return Status::ok();
}

Status Rendezvous::growIncoming(const std::string &key, size_t bytes,
                                char **out_target) {
  std::lock_guard<std::mutex> lock(mu_);
  auto it = slots_.find(key);
  if (it == slots_.end() || !it->second.receiving) {
    return Status(GRAPHRT_STATUS_INTERNAL,
                  "rendezvous key '" + key + "' has no transfer in progress");
  }
  Slot &slot = it->second;
  if (slot.target && slot.target == slot.consumerDst) {
    *out_target = slot.target; // the consumer's buffer, of the right size
    return Status::ok();
  }
  if (bytes > slot.stagedBytes) {
    return Status(GRAPHRT_STATUS_INVALID_ARGUMENT,
                  "rendezvous key '" + key + "': " + std::to_string(bytes) +
                      " bytes written to a " +
                      std::to_string(slot.stagedBytes) + "-byte tensor");
  }
  if (slot.staged.size() < bytes) {
    // Geometric growth keeps a stream of small parts linear overall.
    size_t grown =
        std::min(slot.stagedBytes, std::max(bytes, 2 * slot.staged.size()));
    try {
      slot.staged.resize(grown);
    } catch (const std::bad_alloc &) {
      return Status(GRAPHRT_STATUS_RESOURCE_EXHAUSTED,
                    "rendezvous key '" + key + "': cannot stage " +
                        std::to_string(grown) + " bytes");
    }
  }
  slot.target = slot.staged.data();
  *out_target = slot.target;
  return Status::ok();
}

void Rendezvous::finishIncoming(const std::string &key, Status status) {
  {
    std::lock_guard<std::mutex> lock(mu_);
    auto it = slots_.find(key);
    if (it == slots_.end()) {
      return;
    }
    it->second.receiving = false;
    it->second.complete = true;
    it->second.status = std::move(status);
  }
  cv_.notify_all();
}

Status Rendezvous::deposit(const std::string &key, const void *data,
                           size_t bytes) {
  char *target = nullptr;
  GRAPHRT_RETURN_IF_ERROR(beginIncoming(key, bytes, &target));
  if (bytes) {
    if (Status st = growIncoming(key, bytes, &target); !st.isOk()) {
      finishIncoming(key, st);
      return st;
    }
    std::memcpy(target, data, bytes);
  }
  finishIncoming(key, Status::ok());
  return Status::ok();
}

Status Rendezvous::take(const std::string &key, void *dst, size_t bytes,
                        Clock::time_point deadline) {
  std::unique_lock<std::mutex> lock(mu_);
  Slot &slot = slots_[key];
  if (!slot.receiving && !slot.complete) {
    slot.consumerDst = dst;
    slot.consumerBytes = bytes;
  }
  bool timedOut = false;
  while (!slot.complete && !cancelled_) {
    if (cv_.wait_until(lock, deadline) == std::cv_status::timeout &&
        !slot.complete) {
      timedOut = true;
      break;
    }
  }
  // A producer may be writing into `dst`; it is bounded by its own RPC
  // deadline, so wait for it before handing `dst` back to the caller.
  while (!slot.complete && slot.receiving && slot.target == dst) {
    cv_.wait(lock);
  }
  if (!slot.complete) {
    Status result =
        cancelled_ && !timedOut
            ? cancelReason_
            : Status(GRAPHRT_STATUS_DEADLINE_EXCEEDED,
                     "timed out waiting for rendezvous key '" + key + "'");
    if (slot.receiving) {
      // Data is on its way into a staging buffer; just forget our buffer.
      slot.consumerDst = nullptr;
      slot.consumerBytes = 0;
    } else {
      slots_.erase(key);
    }
    return result;
  }
  Status result = slot.status;
  if (result.isOk()) {
    if (slot.target != dst) {
      if (slot.stagedBytes != bytes) {
        result =
            Status(GRAPHRT_STATUS_INVALID_ARGUMENT,
                   "rendezvous key '" + key + "' carried " +
                       std::to_string(slot.stagedBytes) +
                       " bytes, the receiver expects " + std::to_string(bytes));
      } else if (bytes) {
        std::memcpy(dst, slot.staged.data(), bytes);
      }
    }
  }
  constexpr size_t kPoolBuffers = 8;
  constexpr size_t kPoolMaxBytes = 64 << 20; // bounds what the pool keeps
  if (slot.staged.size() >= 4096 && slot.staged.size() <= kPoolMaxBytes &&
      pool_.size() < kPoolBuffers) {
    pool_.push_back(std::move(slot.staged));
  }
  slots_.erase(key);
  return result;
}

void Rendezvous::post(const std::string &key, void *dst, size_t bytes) {
  std::lock_guard<std::mutex> lock(mu_);
  if (cancelled_) {
    return;
  }
  Slot &slot = slots_[key];
  if (!slot.receiving && !slot.complete) {
    slot.consumerDst = dst;
    slot.consumerBytes = bytes;
  }
}

void Rendezvous::cancel(Status reason) {
  {
    std::lock_guard<std::mutex> lock(mu_);
    if (cancelled_) {
      return;
    }
    cancelled_ = true;
    cancelReason_ = std::move(reason);
  }
  cv_.notify_all();
}

std::string Rendezvous::waitingOn() const {
  std::lock_guard<std::mutex> lock(mu_);
  std::string out;
  for (const auto &[key, slot] : slots_) {
    if (slot.consumerDst && !slot.complete) {
      out += (out.empty() ? "" : ",") + key;
    }
  }
  return out;
}

size_t Rendezvous::pending() const {
  std::lock_guard<std::mutex> lock(mu_);
  return slots_.size();
}

} // namespace graphrt
