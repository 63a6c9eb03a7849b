// CollectiveQueue.cpp: the communication thread of a task.
#include "CollectiveQueue.h"

namespace graphrt {

CollectiveQueue::~CollectiveQueue() {
  Status ignored;
  drain(&ignored);
  {
    std::lock_guard<std::mutex> lock(mu_);
    stop_ = true;
  }
  work_.notify_all();
  if (thread_.joinable()) {
    thread_.join();
  }
}

uint64_t CollectiveQueue::start(std::string what, Call call) {
  uint64_t id;
  {
    std::lock_guard<std::mutex> lock(mu_);
    id = next_++;
    Request &r = requests_[id];
    r.what = std::move(what);
    r.call = std::move(call);
    queue_.push_back(id);
    if (!thread_.joinable()) {
      thread_ = std::thread([this] { loop(); });
    }
  }
  work_.notify_one();
  return id;
}

void CollectiveQueue::loop() {
  std::unique_lock<std::mutex> lock(mu_);
  for (;;) {
    work_.wait(lock, [&] { return stop_ || !queue_.empty(); });
    if (queue_.empty()) {
      return; // stop_
    }
    uint64_t id = queue_.front();
    queue_.pop_front();
    // Stays put while it runs: a std::map entry, erased by wait or drain
    // only once done.
    Request &r = requests_.at(id);
    Status st;
    if (!failedWhat_.empty()) {
      st = Status(GRAPHRT_STATUS_FAILED_PRECONDITION,
                  r.what + " was not run: " + failedWhat_ +
                      ", started before it, failed: " + failed_.message());
    } else {
      ++running_;
      Call call = std::move(r.call);
      lock.unlock();
      st = call();
      lock.lock();
      --running_;
      if (!st.isOk()) {
        failedWhat_ = r.what;
        failed_ = st;
      }
    }
    r.done = true;
    r.status = std::move(st);
    finished_.notify_all();
  }
}

Status CollectiveQueue::wait(uint64_t id) {
  std::unique_lock<std::mutex> lock(mu_);
  auto it = requests_.find(id);
  if (it == requests_.end()) {
    return Status(GRAPHRT_STATUS_INVALID_ARGUMENT,
                  "no collective request " + std::to_string(id) +
                      " is in flight (never started, or already waited on)");
  }
  finished_.wait(lock, [&] { return it->second.done; });
  Status st = std::move(it->second.status);
  requests_.erase(it);
  return st;
}

bool CollectiveQueue::busy() const {
  std::lock_guard<std::mutex> lock(mu_);
  return !queue_.empty() || running_ > 0;
}

Status CollectiveQueue::runNow(std::string what, Call call) {
  if (!busy()) {
    {
      std::lock_guard<std::mutex> lock(mu_);
      if (!failedWhat_.empty()) {
        return Status(GRAPHRT_STATUS_FAILED_PRECONDITION,
                      what + " was not run: " + failedWhat_ +
                          ", started before it, failed: " + failed_.message());
      }
    }
    // Only the task's thread starts calls, so the queue stays empty while
    // this one runs here.
    Status st = call();
    if (!st.isOk()) {
      std::lock_guard<std::mutex> lock(mu_);
      failedWhat_ = what;
      failed_ = st;
    }
    return st;
  }
  return wait(start(std::move(what), std::move(call)));
}

size_t CollectiveQueue::drain(Status *first) {
  *first = Status::ok();
  std::unique_lock<std::mutex> lock(mu_);
  finished_.wait(lock, [&] { return queue_.empty() && running_ == 0; });
  size_t unwaited = requests_.size();
  for (auto &[id, r] : requests_) {
    if (first->isOk() && !r.status.isOk()) {
      *first = r.status;
    }
  }
  requests_.clear();
  // A new step starts clean.
  failedWhat_.clear();
  failed_ = Status::ok();
  return unwaited;
}

} // namespace graphrt
