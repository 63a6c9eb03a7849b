// CollectiveQueueTest.cpp: started collectives (the runtime's
// all_reduce_start/wait) on a communication thread: several in flight give
// the blocking path's bytes over the ring and shared memory, calls stay in
// start order, and a peer that never comes or dies mid-collective is named
// while the calls started after it are not run.
#include "CollectiveQueue.h"
#include "InProcessGroup.h"
#include "ShmCollectives.h"

#include <gtest/gtest.h>

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstring>
#include <random>

using namespace graphrt;

namespace {

std::vector<float> randomFloats(size_t n, unsigned seed) {
  std::mt19937 gen(seed);
  std::normal_distribution<float> normal(0, 10);
  std::vector<float> v(n);
  for (float &x : v) {
    x = normal(gen);
  }
  return v;
}

// Sizes of the buckets each rank starts: tiny, uneven, and over the ring's
// 1 MiB segments and one 64 KiB shared-memory slot.
const size_t kCounts[] = {1, 1000, 300001, 70000};

bool sameBytes(const std::vector<float> &a, const std::vector<float> &b) {
  return a.size() == b.size() &&
         std::memcmp(a.data(), b.data(), a.size() * sizeof(float)) == 0;
}

} // namespace

// Over the ring: each rank starts every bucket, then waits on them in
// reverse order; every result equals the blocking call's, byte for byte.
TEST(CollectiveQueue, SeveralInFlightOverTheRingMatchBlocking) {
  constexpr int k = 3;
  std::vector<std::vector<std::vector<float>>> in(k), blocking(k), started(k);
  for (int r = 0; r < k; ++r) {
    for (size_t i = 0; i < std::size(kCounts); ++i) {
      in[r].push_back(randomFloats(kCounts[i], 17 * r + i));
      blocking[r].emplace_back(kCounts[i]);
      started[r].emplace_back(kCounts[i]);
    }
  }
  InProcessGroup g1(k);
  runGroup(k, g1, [&](const CollectiveCall &call) {
    for (size_t i = 0; i < std::size(kCounts); ++i) {
      CollectiveCall c = call;
      c.keyPrefix = "b" + std::to_string(i);
      GRAPHRT_RETURN_IF_ERROR(ringAllReduce(
          c, GRAPHRT_REDUCE_SUM, GRAPHRT_DTYPE_F32, in[call.rank][i].data(),
          blocking[call.rank][i].data(), kCounts[i]));
    }
    return Status::ok();
  });
  InProcessGroup g2(k);
  runGroup(k, g2, [&](const CollectiveCall &call) {
    CollectiveQueue queue;
    std::vector<uint64_t> ids;
    for (size_t i = 0; i < std::size(kCounts); ++i) {
      ids.push_back(queue.start("bucket " + std::to_string(i), [&, call, i] {
        CollectiveCall c = call;
        c.keyPrefix = "b" + std::to_string(i);
        return ringAllReduce(c, GRAPHRT_REDUCE_SUM, GRAPHRT_DTYPE_F32,
                             in[call.rank][i].data(),
                             started[call.rank][i].data(), kCounts[i]);
      }));
    }
    for (size_t i = ids.size(); i-- > 0;) {
      GRAPHRT_RETURN_IF_ERROR(queue.wait(ids[i]));
    }
    Status left;
    EXPECT_EQ(queue.drain(&left), 0u);
    return Status::ok();
  });
  for (int r = 0; r < k; ++r) {
    for (size_t i = 0; i < std::size(kCounts); ++i) {
      EXPECT_TRUE(sameBytes(blocking[r][i], started[r][i]))
          << "rank " << r << " bucket " << i;
    }
  }
}

// Over shared memory, with a blocking call (runNow) issued while started
// ones are in flight: it runs after them, so the members still pair up.
TEST(CollectiveQueue, SharedMemoryInStartOrderWithABlockingCall) {
  constexpr int k = 2;
  std::unique_ptr<ShmSegment> seg;
  ASSERT_TRUE(ShmSegment::anonymous(k, 64 << 10, &seg).isOk());
  std::shared_ptr<ShmSegment> shared(std::move(seg));
  std::vector<std::vector<std::vector<float>>> in(k), out(k), ring(k);
  const size_t n = std::size(kCounts) + 1; // the last one blocking
  for (int r = 0; r < k; ++r) {
    for (size_t i = 0; i < n; ++i) {
      size_t count = i < std::size(kCounts) ? kCounts[i] : 4096;
      in[r].push_back(randomFloats(count, 31 * r + i));
      out[r].emplace_back(count);
      ring[r].emplace_back(count);
    }
  }
  InProcessGroup g(k);
  runGroup(k, g, [&](const CollectiveCall &call) {
    for (size_t i = 0; i < n; ++i) {
      CollectiveCall c = call;
      c.keyPrefix = "r" + std::to_string(i);
      GRAPHRT_RETURN_IF_ERROR(ringAllReduce(
          c, GRAPHRT_REDUCE_SUM, GRAPHRT_DTYPE_F32, in[call.rank][i].data(),
          ring[call.rank][i].data(), in[call.rank][i].size()));
    }
    return Status::ok();
  });
  std::vector<Status> results(k);
  std::vector<std::thread> threads;
  for (int r = 0; r < k; ++r) {
    threads.emplace_back([&, r] {
      ShmGroup group(shared, r, ShmOptions{});
      CollectiveQueue queue;
      auto reduce = [&, r](size_t i) {
        return [&, r, i] {
          return group.allReduce(GRAPHRT_REDUCE_SUM, GRAPHRT_DTYPE_F32,
                                 in[r][i].data(), out[r][i].data(),
                                 in[r][i].size());
        };
      };
      std::vector<uint64_t> ids;
      for (size_t i = 0; i + 1 < n; ++i) {
        ids.push_back(queue.start("bucket " + std::to_string(i), reduce(i)));
      }
      Status st = queue.runNow("blocking", reduce(n - 1));
      for (uint64_t id : ids) {
        Status w = queue.wait(id);
        if (st.isOk()) {
          st = w;
        }
      }
      results[r] = st;
    });
  }
  for (auto &t : threads) {
    t.join();
  }
  for (int r = 0; r < k; ++r) {
    ASSERT_TRUE(results[r].isOk()) << results[r].toString();
    for (size_t i = 0; i < n; ++i) {
      EXPECT_TRUE(sameBytes(ring[r][i], out[r][i]))
          << "rank " << r << " call " << i;
    }
  }
}

// A peer that never arrives: the first started call fails with the
// deadline, naming the peer; the ones started after it are not run.
TEST(CollectiveQueue, FirstFailureIsNamedAndLaterCallsAreNotRun) {
  std::unique_ptr<ShmSegment> seg;
  ASSERT_TRUE(ShmSegment::anonymous(2, 64 << 10, &seg).isOk());
  std::shared_ptr<ShmSegment> shared(std::move(seg));
  ShmOptions opt;
  opt.timeout = std::chrono::milliseconds(200);
  opt.names = {"worker:0", "worker:1"};
  ShmGroup g0(shared, 0, opt);
  float x = 1, y = 0, z = 0;
  CollectiveQueue queue;
  int ran = 0;
  uint64_t a = queue.start("all_reduce a", [&] {
    ++ran;
    return g0.allReduce(GRAPHRT_REDUCE_SUM, GRAPHRT_DTYPE_F32, &x, &y, 1);
  });
  uint64_t b = queue.start("all_reduce b", [&] {
    ++ran;
    return g0.allReduce(GRAPHRT_REDUCE_SUM, GRAPHRT_DTYPE_F32, &x, &z, 1);
  });
  EXPECT_NE(a, 0u);
  EXPECT_NE(a, b);
  Status sa = queue.wait(a);
  EXPECT_EQ(sa.code(), GRAPHRT_STATUS_DEADLINE_EXCEEDED) << sa.toString();
  EXPECT_NE(sa.message().find("rank 1 (task 'worker:1') did not reach"),
            std::string::npos)
      << sa.message();
  Status sb = queue.wait(b);
  EXPECT_EQ(sb.code(), GRAPHRT_STATUS_FAILED_PRECONDITION) << sb.toString();
  EXPECT_EQ(sb.message(), "all_reduce b was not run: all_reduce a, started "
                          "before it, failed: " +
                              sa.message());
  EXPECT_EQ(ran, 1);
  // A blocking call after the failure is refused the same way.
  Status sc = queue.runNow("all_reduce c", [&] {
    ++ran;
    return Status::ok();
  });
  EXPECT_EQ(sc.code(), GRAPHRT_STATUS_FAILED_PRECONDITION);
  EXPECT_EQ(ran, 1);
  // Waiting twice, or on an id never handed out, is an error, not a hang.
  EXPECT_EQ(queue.wait(a).code(), GRAPHRT_STATUS_INVALID_ARGUMENT);
  EXPECT_EQ(queue.wait(12345).code(), GRAPHRT_STATUS_INVALID_ARGUMENT);
  // The next step starts clean.
  Status left;
  EXPECT_EQ(queue.drain(&left), 0u);
  EXPECT_TRUE(queue.runNow("next step", [] { return Status::ok(); }).isOk());
}

// A peer process that dies while this rank's started all-reduce waits for it:
// the wait names it (by its exit, long before the deadline) while the
// task's thread was free meanwhile; the call started after it is not run.
TEST(CollectiveQueue, PeerDyingMidCollectiveIsNamed) {
  std::unique_ptr<ShmSegment> seg;
  ASSERT_TRUE(ShmSegment::anonymous(2, 64 << 10, &seg).isOk());
  std::shared_ptr<ShmSegment> shared(std::move(seg));
  ShmOptions opt;
  opt.timeout = std::chrono::seconds(30);
  opt.names = {"worker:0", "worker:1"};
  pid_t child = ::fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    ShmGroup g1(shared, 1, opt);
    float x = 2, y = 0;
    Status st = g1.allReduce(GRAPHRT_REDUCE_SUM, GRAPHRT_DTYPE_F32, &x, &y, 1);
    if (!st.isOk() || y != 3) {
      ::_exit(1);
    }
    // Dies while rank 0's second all-reduce waits for it.
    ::usleep(300 * 1000);
    ::_exit(0);
  }
  ShmGroup g0(shared, 0, opt);
  float x = 1, y = 0, z = 0, w = 0;
  CollectiveQueue queue;
  uint64_t first = queue.start("all_reduce 1", [&] {
    return g0.allReduce(GRAPHRT_REDUCE_SUM, GRAPHRT_DTYPE_F32, &x, &y, 1);
  });
  Status s1 = queue.wait(first);
  ASSERT_TRUE(s1.isOk()) << s1.toString();
  EXPECT_EQ(y, 3);
  auto start = std::chrono::steady_clock::now();
  uint64_t second = queue.start("all_reduce 2", [&] {
    return g0.allReduce(GRAPHRT_REDUCE_SUM, GRAPHRT_DTYPE_F32, &x, &z, 1);
  });
  uint64_t third = queue.start("all_reduce 3", [&] {
    return g0.allReduce(GRAPHRT_REDUCE_SUM, GRAPHRT_DTYPE_F32, &x, &w, 1);
  });
  // start returns at once: the task's thread computes meanwhile.
  EXPECT_LT(
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
          .count(),
      1.0);
  Status s2 = queue.wait(second);
  double secs =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
          .count();
  EXPECT_EQ(s2.code(), GRAPHRT_STATUS_UNAVAILABLE) << s2.toString();
  EXPECT_EQ(s2.message(), "shared-memory all_reduce: rank 1 (task "
                          "'worker:1') (pid " +
                              std::to_string(child) +
                              ") exited during the collective");
  EXPECT_LT(secs, 5.0);
  int status = 0;
  ::waitpid(child, &status, 0);
  EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
  Status s3 = queue.wait(third);
  EXPECT_EQ(s3.code(), GRAPHRT_STATUS_FAILED_PRECONDITION) << s3.toString();
  EXPECT_NE(s3.message().find("all_reduce 3 was not run: all_reduce 2"),
            std::string::npos)
      << s3.message();
}

// drain: the calls nobody waited on are counted, their first error kept.
TEST(CollectiveQueue, DrainCountsUnwaitedCalls) {
  CollectiveQueue queue;
  queue.start("ok", [] { return Status::ok(); });
  queue.start("bad",
              [] { return Status(GRAPHRT_STATUS_UNAVAILABLE, "peer gone"); });
  Status first;
  EXPECT_EQ(queue.drain(&first), 2u);
  EXPECT_EQ(first.code(), GRAPHRT_STATUS_UNAVAILABLE);
  EXPECT_FALSE(queue.busy());
}
