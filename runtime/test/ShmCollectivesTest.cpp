// ShmCollectivesTest.cpp: the shared-memory collectives against the ring ones
// (bit for bit), their setup handshake, deadlines, abort and a killed peer.
#include "ShmCollectives.h"
#include "HalfFloat.h"
#include "InProcessGroup.h"

#include <gtest/gtest.h>

#include <signal.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstring>
#include <fcntl.h>
#include <random>

using namespace graphrt;

namespace {

using Bytes = std::vector<char>;

const graphrt_dtype_t kDtypes[] = {GRAPHRT_DTYPE_F32, GRAPHRT_DTYPE_F64,
                                   GRAPHRT_DTYPE_F16, GRAPHRT_DTYPE_BF16,
                                   GRAPHRT_DTYPE_I32, GRAPHRT_DTYPE_I64};
const graphrt_reduce_op_t kOps[] = {GRAPHRT_REDUCE_SUM, GRAPHRT_REDUCE_MEAN,
                                    GRAPHRT_REDUCE_MAX, GRAPHRT_REDUCE_MIN};

// Random values of `dtype`: floats with every bit of the mantissa in use
// (so that the order of a sum shows in the result), small integers.
Bytes randomData(graphrt_dtype_t dtype, size_t count, unsigned seed) {
  std::mt19937 gen(seed);
  std::normal_distribution<double> normal(0, 10);
  std::uniform_int_distribution<int> small(-1000, 1000);
  Bytes b(count * graphrt_dtype_size(dtype));
  for (size_t i = 0; i < count; ++i) {
    switch (dtype) {
    case GRAPHRT_DTYPE_F32:
      reinterpret_cast<float *>(b.data())[i] = static_cast<float>(normal(gen));
      break;
    case GRAPHRT_DTYPE_F64:
      reinterpret_cast<double *>(b.data())[i] = normal(gen);
      break;
    case GRAPHRT_DTYPE_F16:
      reinterpret_cast<uint16_t *>(b.data())[i] =
          floatToF16(static_cast<float>(normal(gen)));
      break;
    case GRAPHRT_DTYPE_BF16:
      reinterpret_cast<uint16_t *>(b.data())[i] =
          floatToBf16(static_cast<float>(normal(gen)));
      break;
    case GRAPHRT_DTYPE_I32:
      reinterpret_cast<int32_t *>(b.data())[i] = small(gen);
      break;
    case GRAPHRT_DTYPE_I64:
      reinterpret_cast<int64_t *>(b.data())[i] = small(gen) * 1000003ll;
      break;
    default:
      break;
    }
  }
  return b;
}

// Runs fn(group) on k threads that share one anonymous segment; the
// statuses by rank.
std::vector<Status> runShm(int k, size_t slotBytes,
                           const std::function<Status(ShmGroup &)> &fn,
                           ShmOptions opt = {}) {
  std::unique_ptr<ShmSegment> seg;
  Status st = ShmSegment::anonymous(k, slotBytes, &seg);
  EXPECT_TRUE(st.isOk()) << st.toString();
  std::shared_ptr<ShmSegment> shared(std::move(seg));
  std::vector<std::unique_ptr<ShmGroup>> groups;
  for (int r = 0; r < k; ++r) {
    groups.push_back(std::make_unique<ShmGroup>(shared, r, opt));
  }
  std::vector<Status> results(k);
  std::vector<std::thread> threads;
  for (int r = 0; r < k; ++r) {
    threads.emplace_back([&, r] { results[r] = fn(*groups[r]); });
  }
  for (auto &t : threads) {
    t.join();
  }
  return results;
}

void expectAllOk(const std::vector<Status> &results) {
  for (size_t r = 0; r < results.size(); ++r) {
    EXPECT_TRUE(results[r].isOk())
        << "rank " << r << ": " << results[r].toString();
  }
}

std::string label(int k, size_t count, graphrt_dtype_t dtype, int op) {
  return "k=" + std::to_string(k) + " count=" + std::to_string(count) +
         " dtype=" + std::to_string(dtype) + " op=" + std::to_string(op);
}

} // namespace

class ShmTest : public testing::TestWithParam<int> {};

// Every dtype and op, uneven sizes, sizes over one slot (chunks): the same
// bytes as the ring on every rank.
TEST_P(ShmTest, AllReduceEqualsRing) {
  int k = GetParam();
  for (size_t count :
       {size_t(0), size_t(1), size_t(7), size_t(1001), size_t(40003)}) {
    for (graphrt_dtype_t dtype : kDtypes) {
      size_t esize = graphrt_dtype_size(dtype);
      std::vector<Bytes> in;
      for (int r = 0; r < k; ++r) {
        in.push_back(randomData(dtype, count, 17 * r + 1));
      }
      for (graphrt_reduce_op_t op : kOps) {
        std::vector<Bytes> ring(k, Bytes(count * esize)), shm = ring;
        InProcessGroup g(k);
        runGroup(k, g, [&](const CollectiveCall &c) {
          return ringAllReduce(c, op, dtype, in[c.rank].data(),
                               ring[c.rank].data(), count);
        });
        // 64 KiB slots: the largest calls run in several chunks.
        expectAllOk(runShm(k, 64 << 10, [&](ShmGroup &s) {
          return s.allReduce(op, dtype, in[s.rank()].data(),
                             shm[s.rank()].data(), count);
        }));
        for (int r = 0; r < k; ++r) {
          ASSERT_TRUE(ring[r] == shm[r])
              << label(k, count, dtype, op) << " rank " << r;
        }
      }
    }
  }
}

// In place (output == input, as the worker's gradient buckets may be) and
// several calls back to back on one segment, each with new data: every
// rank reduces its own share straight from its input into its output while
// the others read its slot and the result area, so a call must not see the
// previous call's bytes or overwrite an input still to be read.
TEST_P(ShmTest, AllReduceInPlaceBackToBackEqualsRing) {
  int k = GetParam();
  const graphrt_dtype_t dtypes[] = {GRAPHRT_DTYPE_F32, GRAPHRT_DTYPE_BF16,
                                    GRAPHRT_DTYPE_I64};
  constexpr int kCalls = 4;
  for (size_t count : {size_t(3), size_t(1001), size_t(40003)}) {
    for (graphrt_dtype_t dtype : dtypes) {
      for (graphrt_reduce_op_t op :
           {GRAPHRT_REDUCE_SUM, GRAPHRT_REDUCE_MEAN, GRAPHRT_REDUCE_MAX}) {
        size_t esize = graphrt_dtype_size(dtype);
        // in[call][rank]; the ring's results out of place.
        std::vector<std::vector<Bytes>> in(kCalls), ring(kCalls);
        for (int c = 0; c < kCalls; ++c) {
          for (int r = 0; r < k; ++r) {
            in[c].push_back(randomData(dtype, count, 97 * c + 13 * r + 3));
          }
          ring[c].assign(k, Bytes(count * esize));
          InProcessGroup g(k);
          runGroup(k, g, [&](const CollectiveCall &call) {
            return ringAllReduce(call, op, dtype, in[c][call.rank].data(),
                                 ring[c][call.rank].data(), count);
          });
        }
        std::vector<std::vector<Bytes>> shm = in;
        expectAllOk(runShm(k, 64 << 10, [&](ShmGroup &s) {
          for (int c = 0; c < kCalls; ++c) {
            char *buf = shm[c][s.rank()].data();
            GRAPHRT_RETURN_IF_ERROR(s.allReduce(op, dtype, buf, buf, count));
          }
          return Status::ok();
        }));
        for (int c = 0; c < kCalls; ++c) {
          for (int r = 0; r < k; ++r) {
            ASSERT_TRUE(ring[c][r] == shm[c][r])
                << label(k, count, dtype, op) << " call " << c << " rank " << r;
          }
        }
      }
    }
  }
}

TEST_P(ShmTest, OtherCollectivesEqualRing) {
  int k = GetParam();
  for (size_t count : {size_t(0), size_t(5), size_t(9001)}) {
    for (graphrt_dtype_t dtype : kDtypes) {
      size_t esize = graphrt_dtype_size(dtype);
      std::vector<Bytes> in;
      for (int r = 0; r < k; ++r) {
        in.push_back(randomData(dtype, count * k, 31 * r + 5));
      }
      // All-gather of each rank's first `count` elements.
      {
        std::vector<Bytes> ring(k, Bytes(count * k * esize)), shm = ring;
        InProcessGroup g(k);
        runGroup(k, g, [&](const CollectiveCall &c) {
          return ringAllGather(c, dtype, in[c.rank].data(), ring[c.rank].data(),
                               count);
        });
        expectAllOk(runShm(k, 64 << 10, [&](ShmGroup &s) {
          return s.allGather(dtype, in[s.rank()].data(), shm[s.rank()].data(),
                             count);
        }));
        EXPECT_TRUE(ring == shm) << "all_gather " << label(k, count, dtype, 0);
      }
      for (graphrt_reduce_op_t op : kOps) {
        std::vector<Bytes> ring(k, Bytes(count * esize)), shm = ring;
        InProcessGroup g(k);
        runGroup(k, g, [&](const CollectiveCall &c) {
          return ringReduceScatter(c, op, dtype, in[c.rank].data(),
                                   ring[c.rank].data(), count);
        });
        expectAllOk(runShm(k, 64 << 10, [&](ShmGroup &s) {
          return s.reduceScatter(op, dtype, in[s.rank()].data(),
                                 shm[s.rank()].data(), count);
        }));
        EXPECT_TRUE(ring == shm)
            << "reduce_scatter " << label(k, count, dtype, op);
      }
      {
        int root = k - 1;
        std::vector<Bytes> buf = in;
        expectAllOk(runShm(k, 64 << 10, [&](ShmGroup &s) {
          return s.broadcast(root, dtype, buf[s.rank()].data(), count * k);
        }));
        for (int r = 0; r < k; ++r) {
          EXPECT_TRUE(buf[r] == in[root])
              << "broadcast " << label(k, count, dtype, 0) << " rank " << r;
        }
      }
    }
  }
}

// Growing calls over the handshake, as the worker makes them: a new segment
// whenever a call wants bigger slots, with named segments each rank maps
// itself; every result equal to the ring's.
TEST_P(ShmTest, SetupAndGrowOverTransport) {
  int k = GetParam();
  std::vector<std::unique_ptr<ShmGroup>> groups(k);
  int setups = 0;
  int seq = 0;
  for (size_t count : {size_t(10), size_t(20000), size_t(5000), size_t(300000),
                       size_t(300001)}) {
    std::vector<Bytes> in;
    for (int r = 0; r < k; ++r) {
      in.push_back(randomData(GRAPHRT_DTYPE_F32, count, r + 99));
    }
    std::vector<Bytes> ring(k, Bytes(count * 4)), shm = ring;
    InProcessGroup g(k);
    runGroup(k, g, [&](const CollectiveCall &c) {
      return ringAllReduce(c, GRAPHRT_REDUCE_SUM, GRAPHRT_DTYPE_F32,
                           in[c.rank].data(), ring[c.rank].data(), count);
    });
    size_t want = shmSlotBytesFor(shmAllReduceBytes(GRAPHRT_DTYPE_F32, count));
    bool grow = !groups[0] || groups[0]->slotBytes() < want;
    setups += grow;
    InProcessGroup setupGroup(k);
    runGroup(k, setupGroup, [&](const CollectiveCall &c) -> Status {
      CollectiveCall call = c;
      call.keyPrefix = "s0/c/g/" + std::to_string(seq);
      if (grow) {
        std::string why;
        ShmOptions opt;
        opt.timeout = std::chrono::seconds(10);
        GRAPHRT_RETURN_IF_ERROR(
            setupShmGroup(call, want, opt, &groups[c.rank], &why));
        if (!groups[c.rank]) {
          return Status(GRAPHRT_STATUS_INTERNAL, "no segment: " + why);
        }
      }
      return groups[c.rank]->allReduce(GRAPHRT_REDUCE_SUM, GRAPHRT_DTYPE_F32,
                                       in[c.rank].data(), shm[c.rank].data(),
                                       count);
    });
    ++seq;
    EXPECT_TRUE(ring == shm) << "count " << count;
    EXPECT_GE(groups[0]->slotBytes(), std::min(want, kShmMaxSlotBytes));
  }
  // 40 B, 80 KB and 1.2 MB want new slots; 20 KB and 300001 elements
  // (rounded to the same 2 MiB) do not.
  EXPECT_EQ(setups, 3);
}

INSTANTIATE_TEST_SUITE_P(Ranks, ShmTest, testing::Values(2, 3, 4));

TEST(ShmSegment, NamedSegmentIsPrivateAndUnlinked) {
  std::unique_ptr<ShmSegment> made, opened, wrong;
  ASSERT_TRUE(ShmSegment::create(2, 64 << 10, &made).isOk());
  std::string path = "/dev/shm" + made->name();
  struct stat st;
  ASSERT_EQ(::stat(path.c_str(), &st), 0) << path;
  EXPECT_EQ(st.st_mode & 0777, 0600u);
  EXPECT_EQ(made->name().size(), std::string("/graphrt-").size() + 64);
  // The wrong cookie or shape is refused; the right one maps the same
  // memory.
  uint8_t bad[32];
  std::memcpy(bad, made->cookie(), 32);
  bad[0] ^= 1;
  Status st1 = ShmSegment::open(made->name(), bad, 2, 64 << 10, &wrong);
  EXPECT_EQ(st1.code(), GRAPHRT_STATUS_PERMISSION_DENIED) << st1.toString();
  Status st2 =
      ShmSegment::open(made->name(), made->cookie(), 2, 128 << 10, &wrong);
  EXPECT_EQ(st2.code(), GRAPHRT_STATUS_FAILED_PRECONDITION) << st2.toString();
  ASSERT_TRUE(
      ShmSegment::open(made->name(), made->cookie(), 2, 64 << 10, &opened)
          .isOk());
  made->slot(1)[5] = 42;
  EXPECT_EQ(opened->slot(1)[5], 42);
  made->unlink();
  EXPECT_NE(::stat(path.c_str(), &st), 0);
  Status gone =
      ShmSegment::open(made->name(), made->cookie(), 2, 64 << 10, &wrong);
  EXPECT_EQ(gone.code(), GRAPHRT_STATUS_UNAVAILABLE) << gone.toString();
  Status notOurs =
      ShmSegment::open("/../etc/passwd", made->cookie(), 2, 64 << 10, &wrong);
  EXPECT_EQ(notOurs.code(), GRAPHRT_STATUS_INVALID_ARGUMENT);
}

TEST(ShmSegment, SetupFallsBackWhenARankCannotMap) {
  // Rank 1 gets an offer for a shape it does not expect (as if its call
  // differed): every rank hears the same refusal, with the reason, and no
  // segment is left behind.
  InProcessGroup g(2);
  std::vector<std::unique_ptr<ShmGroup>> groups(2);
  std::vector<std::string> why(2);
  runGroup(2, g, [&](const CollectiveCall &c) {
    return setupShmGroup(c, c.rank == 0 ? 64 << 10 : 128 << 10, {},
                         &groups[c.rank], &why[c.rank]);
  });
  EXPECT_FALSE(groups[0]);
  EXPECT_FALSE(groups[1]);
  EXPECT_EQ(why[0], why[1]);
  EXPECT_NE(why[0].find("rank 1: rank 0 offered a segment of another shape"),
            std::string::npos)
      << why[0];
}

// lastWaitUs: a rank that arrives first counts the time it waited for a
// late peer, and each call counts from zero: rank 1 waits for rank 0 in the
// first call and rank 0 for rank 1 in the second, after which rank 1's
// count is the second call's alone, far below the first call's wait.
TEST(ShmGroup, LastWaitCountsThisCallsBarrierWaits) {
  constexpr auto kLate = std::chrono::milliseconds(60);
  std::vector<int64_t> first(2, -1), second(2, -1);
  expectAllOk(runShm(2, 64 << 10, [&](ShmGroup &s) {
    float x = 1, y = 0;
    for (int call = 0; call < 2; ++call) {
      if (s.rank() == call) {
        std::this_thread::sleep_for(kLate);
      }
      GRAPHRT_RETURN_IF_ERROR(
          s.allReduce(GRAPHRT_REDUCE_SUM, GRAPHRT_DTYPE_F32, &x, &y, 1));
      (call == 0 ? first : second)[s.rank()] = s.lastWaitUs();
    }
    return Status::ok();
  }));
  EXPECT_GE(first[1], 30000);
  EXPECT_GE(second[0], 30000);
  EXPECT_GE(second[1], 0);
  EXPECT_LT(second[1], first[1]);
}

TEST(ShmGroup, PeerThatNeverArrivesTimesOut) {
  std::unique_ptr<ShmSegment> seg;
  ASSERT_TRUE(ShmSegment::anonymous(2, 64 << 10, &seg).isOk());
  std::shared_ptr<ShmSegment> shared(std::move(seg));
  ShmOptions opt;
  opt.timeout = std::chrono::milliseconds(300);
  opt.names = {"worker:0", "worker:1"};
  ShmGroup g0(shared, 0, opt);
  float x = 1, y = 0;
  auto start = std::chrono::steady_clock::now();
  Status st = g0.allReduce(GRAPHRT_REDUCE_SUM, GRAPHRT_DTYPE_F32, &x, &y, 1);
  double s =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
          .count();
  EXPECT_EQ(st.code(), GRAPHRT_STATUS_DEADLINE_EXCEEDED);
  EXPECT_EQ(st.message(),
            "shared-memory all_reduce: rank 1 (task 'worker:1') did not reach "
            "barrier 1 within 300 ms (--recv-timeout); it is stuck or gone");
  EXPECT_GE(s, 0.29);
  EXPECT_LT(s, 3.0);
  // The peer that comes late learns at once that the group failed, and so
  // does every later call.
  ShmGroup g1(shared, 1, opt);
  Status late = g1.allReduce(GRAPHRT_REDUCE_SUM, GRAPHRT_DTYPE_F32, &x, &y, 1);
  EXPECT_EQ(late.code(), GRAPHRT_STATUS_FAILED_PRECONDITION) << late.toString();
  EXPECT_NE(late.message().find("rank 0 (task 'worker:0') gave up"),
            std::string::npos)
      << late.message();
  Status after = g0.allReduce(GRAPHRT_REDUCE_SUM, GRAPHRT_DTYPE_F32, &x, &y, 1);
  EXPECT_EQ(after.code(), GRAPHRT_STATUS_FAILED_PRECONDITION);
}

TEST(ShmGroup, AbortWakesAWaiter) {
  std::unique_ptr<ShmSegment> seg;
  ASSERT_TRUE(ShmSegment::anonymous(3, 64 << 10, &seg).isOk());
  std::shared_ptr<ShmSegment> shared(std::move(seg));
  std::atomic<bool> cancelled{false};
  ShmOptions opt;
  opt.timeout = std::chrono::seconds(30);
  ShmGroup g1(shared, 1, opt);
  opt.cancelled = &cancelled; // rank 0's task is the one aborted
  ShmGroup g0(shared, 0, opt);
  std::vector<float> x(100, 1), y(100);
  Status st1;
  // Rank 1 arrives, rank 2 never does; rank 0 is aborted.
  std::thread other([&] {
    st1 = g1.allReduce(GRAPHRT_REDUCE_SUM, GRAPHRT_DTYPE_F32, x.data(),
                       y.data(), 100);
  });
  std::thread aborter([&] {
    // Health's view while rank 0 waits: once rank 1 is in, only rank 2.
    auto until = std::chrono::steady_clock::now() + std::chrono::seconds(10);
    while (g0.waitingOn() != "shared-memory barrier (waiting for rank 2)" &&
           std::chrono::steady_clock::now() < until) {
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
    EXPECT_EQ(g0.waitingOn(), "shared-memory barrier (waiting for rank 2)");
    cancelled = true;
    g0.wake();
  });
  auto start = std::chrono::steady_clock::now();
  Status st0 = g0.allReduce(GRAPHRT_REDUCE_SUM, GRAPHRT_DTYPE_F32, x.data(),
                            y.data(), 100);
  aborter.join();
  other.join();
  EXPECT_LT(
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
          .count(),
      5.0);
  EXPECT_EQ(st0.code(), GRAPHRT_STATUS_CANCELLED) << st0.toString();
  EXPECT_EQ(st0.message(), "shared-memory all_reduce: cancelled while "
                           "waiting for rank 2");
  // Rank 1 stops waiting too, naming the rank that gave up.
  EXPECT_EQ(st1.code(), GRAPHRT_STATUS_CANCELLED) << st1.toString();
  EXPECT_NE(st1.message().find("rank 0 gave up"), std::string::npos);
}

TEST(ShmGroup, MismatchedCallsAreRefused) {
  auto results = runShm(2, 64 << 10, [](ShmGroup &s) {
    std::vector<float> x(20), y(40);
    return s.rank() == 0
               ? s.allReduce(GRAPHRT_REDUCE_SUM, GRAPHRT_DTYPE_F32, x.data(),
                             y.data(), 20)
               : s.allGather(GRAPHRT_DTYPE_F32, x.data(), y.data(), 20);
  });
  for (const Status &st : results) {
    EXPECT_EQ(st.code(), GRAPHRT_STATUS_INVALID_ARGUMENT) << st.toString();
    EXPECT_NE(st.message().find("every member must make the same call"),
              std::string::npos);
  }
}

// A peer process killed mid-run (SIGKILL) is noticed by its exit, long before
// the deadline, and named.
TEST(ShmGroup, KilledPeerProcessIsNamed) {
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
    ::pause(); // until killed
    ::_exit(0);
  }
  ShmGroup g0(shared, 0, opt);
  float x = 1, y = 0;
  Status first = g0.allReduce(GRAPHRT_REDUCE_SUM, GRAPHRT_DTYPE_F32, &x, &y, 1);
  ASSERT_TRUE(first.isOk()) << first.toString();
  EXPECT_EQ(y, 3);
  ::kill(child, SIGKILL);
  auto start = std::chrono::steady_clock::now();
  Status st = g0.allReduce(GRAPHRT_REDUCE_SUM, GRAPHRT_DTYPE_F32, &x, &y, 1);
  double s =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
          .count();
  int status = 0;
  ::waitpid(child, &status, 0);
  EXPECT_EQ(st.code(), GRAPHRT_STATUS_UNAVAILABLE) << st.toString();
  EXPECT_EQ(st.message(), "shared-memory all_reduce: rank 1 (task "
                          "'worker:1') (pid " +
                              std::to_string(child) +
                              ") exited during the collective");
  EXPECT_LT(s, 5.0);
}

TEST(ShmCollectives, AddressesShareHost) {
  std::string why;
  EXPECT_TRUE(addressesShareHost({"127.0.0.1:5000", "127.0.0.1:5001"}, &why));
  EXPECT_TRUE(
      addressesShareHost({"localhost:1", "127.0.0.2:2", "[::1]:3"}, &why));
  EXPECT_TRUE(addressesShareHost({"10.0.0.5:1", "10.0.0.5:2"}, &why));
  EXPECT_FALSE(addressesShareHost({"10.0.0.5:1", "10.0.0.6:1"}, &why));
  EXPECT_EQ(why,
            "its members are on different hosts (10.0.0.5:1 and 10.0.0.6:1)");
  EXPECT_FALSE(addressesShareHost({"127.0.0.1:1", "job-1.job:29500"}, &why));
}
