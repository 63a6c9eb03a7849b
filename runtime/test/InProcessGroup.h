// InProcessGroup.h: ranks as threads of one process, with a Rendezvous per
// rank as the worker has, for the collectives' unit tests.
#ifndef GRAPHRT_TEST_INPROCESSGROUP_H
#define GRAPHRT_TEST_INPROCESSGROUP_H

#include "Collectives.h"
#include "Rendezvous.h"

#include <gtest/gtest.h>

#include <atomic>
#include <functional>
#include <memory>
#include <thread>
#include <vector>

namespace graphrt {

// Ranks are threads; each rank's inbox is a Rendezvous, as in the worker.
struct InProcessGroup {
  explicit InProcessGroup(int k) : inbox(k), sentBytes(k) {}
  std::vector<Rendezvous> inbox;
  std::vector<std::atomic<size_t>> sentBytes;
};

class InProcessTransport : public PeerTransport {
public:
  InProcessTransport(InProcessGroup &g, int rank) : g_(g), rank_(rank) {}
  Status send(int peer, const std::string &key, const void *data,
              size_t bytes) override {
    g_.sentBytes[rank_] += bytes;
    return g_.inbox[peer].deposit(key, data, bytes);
  }
  Status recv(int, const std::string &key, void *data, size_t bytes) override {
    return g_.inbox[rank_].take(key, data, bytes,
                                Clock::now() + std::chrono::seconds(10));
  }

private:
  InProcessGroup &g_;
  int rank_;
};

// Runs fn(call) on k threads and expects every rank to succeed.
inline void runGroup(int k, InProcessGroup &g,
                     const std::function<Status(const CollectiveCall &)> &fn) {
  std::vector<std::thread> threads;
  std::vector<Status> results(k);
  std::vector<std::unique_ptr<InProcessTransport>> transports;
  for (int r = 0; r < k; ++r) {
    transports.push_back(std::make_unique<InProcessTransport>(g, r));
  }
  for (int r = 0; r < k; ++r) {
    threads.emplace_back([&, r] {
      results[r] = fn(CollectiveCall{transports[r].get(), r, k, "t"});
    });
  }
  for (auto &t : threads) {
    t.join();
  }
  for (int r = 0; r < k; ++r) {
    EXPECT_TRUE(results[r].isOk())
        << "rank " << r << ": " << results[r].toString();
  }
  for (int r = 0; r < k; ++r) {
    EXPECT_EQ(g.inbox[r].pending(), 0u) << "rank " << r << " has leftovers";
  }
}

} // namespace graphrt

#endif // GRAPHRT_TEST_INPROCESSGROUP_H
