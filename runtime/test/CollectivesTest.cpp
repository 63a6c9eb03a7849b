// CollectivesTest.cpp: ring collectives against naive computations, k = 1..5 ranks.
#include "Collectives.h"
#include "Rendezvous.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <functional>
#include <thread>
#include <vector>

using namespace graphrt;

namespace {

// Ranks are threads; each rank's inbox is a Rendezvous, as in the worker.
struct InProcessGroup {
  explicit InProcessGroup(int k) : inbox(k), sentBytes(k) {}
  std::vector<Rendezvous> inbox;
  std::vector<std::atomic<size_t>> sentBytes;
};

class InProcessTransport : public PeerTransport {
public:
  InProcessTransport(InProcessGroup& g, int rank) : g_(g), rank_(rank) {}
  Status send(int peer, const std::string& key, const void* data,
              size_t bytes) override {
    g_.sentBytes[rank_] += bytes;
    return g_.inbox[peer].deposit(key, data, bytes);
  }
  Status recv(int, const std::string& key, void* data, size_t bytes) override {
    return g_.inbox[rank_].take(key, data, bytes,
                                Clock::now() + std::chrono::seconds(10));
  }

private:
  InProcessGroup& g_;
  int rank_;
};

// Runs fn(call) on k threads and expects every rank to succeed.
void runGroup(int k, InProcessGroup& g,
              const std::function<Status(const CollectiveCall&)>& fn) {
  std::vector<std::thread> threads;
  std::vector<Status> results(k);
  std::vector<std::unique_ptr<InProcessTransport>> transports;
  for (int r = 0; r < k; ++r)
    transports.push_back(std::make_unique<InProcessTransport>(g, r));
  for (int r = 0; r < k; ++r)
    threads.emplace_back([&, r] {
      results[r] = fn(CollectiveCall{transports[r].get(), r, k, "t"});
    });
  for (auto& t : threads)
    t.join();
  for (int r = 0; r < k; ++r)
    EXPECT_TRUE(results[r].isOk()) << "rank " << r << ": "
                                   << results[r].toString();
  for (int r = 0; r < k; ++r)
    EXPECT_EQ(g.inbox[r].pending(), 0u) << "rank " << r << " has leftovers";
}

// Distinct, exactly representable values per rank and element.
float value(int rank, size_t i) {
  return static_cast<float>((rank * 7 + 3) % 11) - 5.0f +
         static_cast<float>(i % 13) * (rank + 1);
}

} // namespace

class RingTest : public testing::TestWithParam<std::tuple<int, size_t>> {};

TEST_P(RingTest, AllReduceMatchesNaive) {
  int k = std::get<0>(GetParam());
  size_t count = std::get<1>(GetParam());
  for (graphrt_reduce_op_t op : {GRAPHRT_REDUCE_SUM, GRAPHRT_REDUCE_MEAN,
                                 GRAPHRT_REDUCE_MAX, GRAPHRT_REDUCE_MIN}) {
    std::vector<std::vector<float>> in(k, std::vector<float>(count)), out = in;
    for (int r = 0; r < k; ++r)
      for (size_t i = 0; i < count; ++i)
        in[r][i] = value(r, i);
    InProcessGroup g(k);
    runGroup(k, g, [&](const CollectiveCall& c) {
      // Rank 0 reduces in place to cover input == output.
      if (c.rank == 0) {
        out[0] = in[0];
        return ringAllReduce(c, op, GRAPHRT_DTYPE_F32, out[0].data(),
                             out[0].data(), count);
      }
      return ringAllReduce(c, op, GRAPHRT_DTYPE_F32, in[c.rank].data(),
                           out[c.rank].data(), count);
    });
    for (size_t i = 0; i < count; ++i) {
      double expected = in[0][i];
      for (int r = 1; r < k; ++r) {
        if (op == GRAPHRT_REDUCE_MAX)
          expected = std::max<double>(expected, in[r][i]);
        else if (op == GRAPHRT_REDUCE_MIN)
          expected = std::min<double>(expected, in[r][i]);
        else
          expected += in[r][i];
      }
      if (op == GRAPHRT_REDUCE_MEAN)
        expected /= k;
      for (int r = 0; r < k; ++r)
        ASSERT_NEAR(out[r][i], expected, 1e-5)
            << "op " << op << " rank " << r << " element " << i;
    }
    // Bandwidth optimality: 2 (k-1) blocks of at most ceil(count/k) each.
    size_t block = (count + k - 1) / k;
    for (int r = 0; r < k; ++r)
      EXPECT_LE(g.sentBytes[r].load(), 2 * (k - 1) * block * sizeof(float));
  }
}

TEST_P(RingTest, AllGatherReduceScatterAllToAllBroadcast) {
  int k = std::get<0>(GetParam());
  size_t count = std::get<1>(GetParam());
  std::vector<std::vector<float>> in(k, std::vector<float>(count * k));
  for (int r = 0; r < k; ++r)
    for (size_t i = 0; i < count * k; ++i)
      in[r][i] = value(r, i);

  // all-gather of the first `count` elements of each rank.
  {
    std::vector<std::vector<float>> out(k, std::vector<float>(count * k));
    InProcessGroup g(k);
    runGroup(k, g, [&](const CollectiveCall& c) {
      return ringAllGather(c, GRAPHRT_DTYPE_F32, in[c.rank].data(),
                           out[c.rank].data(), count);
    });
    for (int r = 0; r < k; ++r)
      for (int src = 0; src < k; ++src)
        for (size_t i = 0; i < count; ++i)
          ASSERT_EQ(out[r][src * count + i], in[src][i]);
  }
  // reduce-scatter (sum).
  {
    std::vector<std::vector<float>> out(k, std::vector<float>(count));
    InProcessGroup g(k);
    runGroup(k, g, [&](const CollectiveCall& c) {
      return ringReduceScatter(c, GRAPHRT_REDUCE_SUM, GRAPHRT_DTYPE_F32,
                               in[c.rank].data(), out[c.rank].data(), count);
    });
    for (int r = 0; r < k; ++r)
      for (size_t i = 0; i < count; ++i) {
        float expected = 0;
        for (int src = 0; src < k; ++src)
          expected += in[src][r * count + i];
        ASSERT_FLOAT_EQ(out[r][i], expected) << "rank " << r << " i " << i;
      }
  }
  // all-to-all.
  {
    std::vector<std::vector<float>> out(k, std::vector<float>(count * k));
    InProcessGroup g(k);
    runGroup(k, g, [&](const CollectiveCall& c) {
      return pairwiseAllToAll(c, GRAPHRT_DTYPE_F32, in[c.rank].data(),
                              out[c.rank].data(), count);
    });
    for (int r = 0; r < k; ++r)
      for (int src = 0; src < k; ++src)
        for (size_t i = 0; i < count; ++i)
          ASSERT_EQ(out[r][src * count + i], in[src][r * count + i]);
  }
  // broadcast from the last rank.
  {
    int root = k - 1;
    std::vector<std::vector<float>> buf = in;
    InProcessGroup g(k);
    runGroup(k, g, [&](const CollectiveCall& c) {
      return pipelinedBroadcast(c, root, GRAPHRT_DTYPE_F32, buf[c.rank].data(),
                                count * k);
    });
    for (int r = 0; r < k; ++r)
      ASSERT_EQ(buf[r], in[root]) << "rank " << r;
  }
}

INSTANTIATE_TEST_SUITE_P(
    Sizes, RingTest,
    testing::Combine(testing::Values(1, 2, 3, 4, 5),
                     testing::Values(size_t{0}, size_t{1}, size_t{7},
                                     size_t{1001}, size_t{70000})));

TEST(Collectives, IntegerReductionsAndErrors) {
  std::vector<int64_t> a = {1, -5, 9}, b = {4, 2, -10};
  ASSERT_TRUE(reduceInto(GRAPHRT_REDUCE_MAX, GRAPHRT_DTYPE_I64, a.data(),
                         b.data(), 3)
                  .isOk());
  EXPECT_EQ(a, (std::vector<int64_t>{4, 2, 9}));
  uint8_t u = 0;
  EXPECT_EQ(reduceInto(GRAPHRT_REDUCE_SUM, GRAPHRT_DTYPE_U8, &u, &u, 1).code(),
            GRAPHRT_STATUS_UNIMPLEMENTED);
  InProcessGroup g(2);
  InProcessTransport t(g, 0);
  float x = 0;
  EXPECT_EQ(pipelinedBroadcast(CollectiveCall{&t, 0, 2, "p"}, 2,
                               GRAPHRT_DTYPE_F32, &x, 1)
                .code(),
            GRAPHRT_STATUS_INVALID_ARGUMENT);
}
