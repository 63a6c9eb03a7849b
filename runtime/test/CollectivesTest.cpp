// CollectivesTest.cpp: ring collectives against naive computations, k = 1..5
// ranks.
#include "Collectives.h"
#include "HalfFloat.h"
#include "InProcessGroup.h"
#include "Rendezvous.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <functional>
#include <thread>
#include <vector>

using namespace graphrt;

namespace {

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
    for (int r = 0; r < k; ++r) {
      for (size_t i = 0; i < count; ++i) {
        in[r][i] = value(r, i);
      }
    }
    InProcessGroup g(k);
    runGroup(k, g, [&](const CollectiveCall &c) {
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
        if (op == GRAPHRT_REDUCE_MAX) {
          expected = std::max<double>(expected, in[r][i]);
        } else if (op == GRAPHRT_REDUCE_MIN) {
          expected = std::min<double>(expected, in[r][i]);
        } else {
          expected += in[r][i];
        }
      }
      if (op == GRAPHRT_REDUCE_MEAN) {
        expected /= k;
      }
      for (int r = 0; r < k; ++r) {
        ASSERT_NEAR(out[r][i], expected, 1e-5)
            << "op " << op << " rank " << r << " element " << i;
      }
    }
    // Bandwidth optimality: 2 (k-1) blocks of at most ceil(count/k) each.
    size_t block = (count + k - 1) / k;
    for (int r = 0; r < k; ++r) {
      EXPECT_LE(g.sentBytes[r].load(), 2 * (k - 1) * block * sizeof(float));
    }
  }
}

TEST_P(RingTest, AllGatherReduceScatterAllToAllBroadcast) {
  int k = std::get<0>(GetParam());
  size_t count = std::get<1>(GetParam());
  std::vector<std::vector<float>> in(k, std::vector<float>(count * k));
  for (int r = 0; r < k; ++r) {
    for (size_t i = 0; i < count * k; ++i) {
      in[r][i] = value(r, i);
    }
  }

  // all-gather of the first `count` elements of each rank.
  {
    std::vector<std::vector<float>> out(k, std::vector<float>(count * k));
    InProcessGroup g(k);
    runGroup(k, g, [&](const CollectiveCall &c) {
      return ringAllGather(c, GRAPHRT_DTYPE_F32, in[c.rank].data(),
                           out[c.rank].data(), count);
    });
    for (int r = 0; r < k; ++r) {
      for (int src = 0; src < k; ++src) {
        for (size_t i = 0; i < count; ++i) {
          ASSERT_EQ(out[r][src * count + i], in[src][i]);
        }
      }
    }
  }
  // reduce-scatter (sum).
  {
    std::vector<std::vector<float>> out(k, std::vector<float>(count));
    InProcessGroup g(k);
    runGroup(k, g, [&](const CollectiveCall &c) {
      return ringReduceScatter(c, GRAPHRT_REDUCE_SUM, GRAPHRT_DTYPE_F32,
                               in[c.rank].data(), out[c.rank].data(), count);
    });
    for (int r = 0; r < k; ++r) {
      for (size_t i = 0; i < count; ++i) {
        float expected = 0;
        for (int src = 0; src < k; ++src) {
          expected += in[src][r * count + i];
        }
        ASSERT_FLOAT_EQ(out[r][i], expected) << "rank " << r << " i " << i;
      }
    }
  }
  // all-to-all.
  {
    std::vector<std::vector<float>> out(k, std::vector<float>(count * k));
    InProcessGroup g(k);
    runGroup(k, g, [&](const CollectiveCall &c) {
      return pairwiseAllToAll(c, GRAPHRT_DTYPE_F32, in[c.rank].data(),
                              out[c.rank].data(), count);
    });
    for (int r = 0; r < k; ++r) {
      for (int src = 0; src < k; ++src) {
        for (size_t i = 0; i < count; ++i) {
          ASSERT_EQ(out[r][src * count + i], in[src][r * count + i]);
        }
      }
    }
  }
  // broadcast from the last rank.
  {
    int root = k - 1;
    std::vector<std::vector<float>> buf = in;
    InProcessGroup g(k);
    runGroup(k, g, [&](const CollectiveCall &c) {
      return pipelinedBroadcast(c, root, GRAPHRT_DTYPE_F32, buf[c.rank].data(),
                                count * k);
    });
    for (int r = 0; r < k; ++r) {
      ASSERT_EQ(buf[r], in[root]) << "rank " << r;
    }
  }
}

// f16 and bf16 reduce in f32 and round once: the inputs are integers, so
// every f32 partial sum is exact whatever the ring's order, and each result
// must be, bit for bit, the exact sum (or the f32 mean) rounded.
TEST_P(RingTest, HalfPrecisionReducesInFloat) {
  int k = std::get<0>(GetParam());
  size_t count = std::get<1>(GetParam());
  for (graphrt_dtype_t dtype : {GRAPHRT_DTYPE_F16, GRAPHRT_DTYPE_BF16}) {
    auto narrow = [&](float f) {
      return dtype == GRAPHRT_DTYPE_BF16 ? floatToBf16(f) : floatToF16(f);
    };
    auto wide = [&](uint16_t h) {
      return dtype == GRAPHRT_DTYPE_BF16 ? bf16ToFloat(h) : f16ToFloat(h);
    };
    for (graphrt_reduce_op_t op :
         {GRAPHRT_REDUCE_SUM, GRAPHRT_REDUCE_MEAN, GRAPHRT_REDUCE_MAX}) {
      std::vector<std::vector<uint16_t>> in(k, std::vector<uint16_t>(count)),
          out = in;
      for (int r = 0; r < k; ++r) {
        for (size_t i = 0; i < count; ++i) {
          in[r][i] = narrow(value(r, i) * 3);
        }
      }
      InProcessGroup g(k);
      runGroup(k, g, [&](const CollectiveCall &c) {
        return ringAllReduce(c, op, dtype, in[c.rank].data(),
                             out[c.rank].data(), count);
      });
      for (size_t i = 0; i < count; ++i) {
        float expected = wide(in[0][i]);
        for (int r = 1; r < k; ++r) {
          expected = op == GRAPHRT_REDUCE_MAX
                         ? std::max(expected, wide(in[r][i]))
                         : expected + wide(in[r][i]);
        }
        if (op == GRAPHRT_REDUCE_MEAN) {
          expected /= static_cast<float>(k);
        }
        for (int r = 0; r < k; ++r) {
          ASSERT_EQ(out[r][i], narrow(expected))
              << "dtype " << dtype << " op " << op << " rank " << r
              << " element " << i;
        }
      }
    }
    // reduce-scatter (sum).
    std::vector<std::vector<uint16_t>> in(k, std::vector<uint16_t>(count * k)),
        out(k, std::vector<uint16_t>(count));
    for (int r = 0; r < k; ++r) {
      for (size_t i = 0; i < count * k; ++i) {
        in[r][i] = narrow(value(r, i));
      }
    }
    InProcessGroup g(k);
    runGroup(k, g, [&](const CollectiveCall &c) {
      return ringReduceScatter(c, GRAPHRT_REDUCE_SUM, dtype, in[c.rank].data(),
                               out[c.rank].data(), count);
    });
    for (int r = 0; r < k; ++r) {
      for (size_t i = 0; i < count; ++i) {
        float expected = 0;
        for (int src = 0; src < k; ++src) {
          expected += wide(in[src][r * count + i]);
        }
        ASSERT_EQ(out[r][i], narrow(expected)) << "rank " << r << " i " << i;
      }
    }
  }
}

INSTANTIATE_TEST_SUITE_P(
    Sizes, RingTest,
    testing::Combine(testing::Values(1, 2, 3, 4, 5),
                     testing::Values(size_t{0}, size_t{1}, size_t{7},
                                     size_t{1001}, size_t{70000})));

TEST(Collectives, IntegerReductionsAndErrors) {
  std::vector<int64_t> a = {1, -5, 9}, b = {4, 2, -10};
  ASSERT_TRUE(
      reduceInto(GRAPHRT_REDUCE_MAX, GRAPHRT_DTYPE_I64, a.data(), b.data(), 3)
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

TEST(HalfFloat, RoundsToNearestEven) {
  // bf16: 8 significant bits; 1 + 2^-8 is halfway between 1 and 1 + 2^-7.
  EXPECT_EQ(floatToBf16(1.0f), 0x3f80);
  EXPECT_EQ(floatToBf16(1.0f + 0x1p-8f), 0x3f80);
  EXPECT_EQ(floatToBf16(1.0f + 3 * 0x1p-8f), 0x3f82);
  EXPECT_EQ(floatToBf16(-2.0f), 0xc000);
  EXPECT_EQ(floatToBf16(INFINITY), 0x7f80);
  EXPECT_TRUE(std::isnan(bf16ToFloat(floatToBf16(NAN))));
  // The largest finite f32 rounds up to infinity.
  EXPECT_EQ(floatToBf16(3.4028235e38f), 0x7f80);
  // f16: 11 significant bits, largest 65504, subnormals in units of 2^-24.
  EXPECT_EQ(floatToF16(1.0f), 0x3c00);
  EXPECT_EQ(floatToF16(1.0f + 0x1p-11f), 0x3c00);
  EXPECT_EQ(floatToF16(1.0f + 3 * 0x1p-11f), 0x3c02);
  EXPECT_EQ(floatToF16(-2.0f), 0xc000);
  EXPECT_EQ(floatToF16(65504.0f), 0x7bff);
  EXPECT_EQ(floatToF16(65519.0f), 0x7bff);
  EXPECT_EQ(floatToF16(65520.0f), 0x7c00);
  EXPECT_EQ(floatToF16(-1e10f), 0xfc00);
  EXPECT_EQ(floatToF16(0x1p-24f), 0x0001);
  EXPECT_EQ(floatToF16(0x1p-25f), 0x0000);
  EXPECT_EQ(floatToF16(3 * 0x1p-25f), 0x0002);
  EXPECT_EQ(floatToF16(0x1p-14f - 0x1p-26f), 0x0400);
  EXPECT_EQ(floatToF16(0x1p-14f), 0x0400);
  EXPECT_EQ(floatToF16(-0.0f), 0x8000);
  EXPECT_TRUE(std::isnan(f16ToFloat(floatToF16(NAN))));
  EXPECT_EQ(f16ToFloat(0x7c00), INFINITY);
  // Every value of either type survives the round trip through f32.
  for (uint32_t h = 0; h < 0x10000; ++h) {
    uint16_t b = static_cast<uint16_t>(h);
    if (!std::isnan(f16ToFloat(b))) {
      ASSERT_EQ(floatToF16(f16ToFloat(b)), b) << "f16 " << h;
    }
    if (!std::isnan(bf16ToFloat(b))) {
      ASSERT_EQ(floatToBf16(bf16ToFloat(b)), b) << "bf16 " << h;
    }
  }
}

// Reducing in f32 is not reducing in bf16 hop by hop: 256 + 1 + 1 is 256 in
// bf16 arithmetic (257 rounds to even) but 258 exactly, which bf16 holds.
TEST(Collectives, HalfPrecisionSumsOnceRounded) {
  int k = 3;
  std::vector<std::vector<uint16_t>> in = {{floatToBf16(256)},
                                           {floatToBf16(1)},
                                           {floatToBf16(1)}},
                                     out(k, std::vector<uint16_t>(1));
  InProcessGroup g(k);
  runGroup(k, g, [&](const CollectiveCall &c) {
    return ringAllReduce(c, GRAPHRT_REDUCE_SUM, GRAPHRT_DTYPE_BF16,
                         in[c.rank].data(), out[c.rank].data(), 1);
  });
  for (int r = 0; r < k; ++r) {
    EXPECT_EQ(bf16ToFloat(out[r][0]), 258.0f) << "rank " << r;
  }
  // reduceInto rounds once per call.
  uint16_t a = floatToF16(2048), b = floatToF16(1);
  ASSERT_TRUE(
      reduceInto(GRAPHRT_REDUCE_SUM, GRAPHRT_DTYPE_F16, &a, &b, 1).isOk());
  EXPECT_EQ(f16ToFloat(a), 2048.0f); // 2049 ties to the even 2048
  a = floatToF16(2050);
  ASSERT_TRUE(
      reduceInto(GRAPHRT_REDUCE_MIN, GRAPHRT_DTYPE_F16, &a, &b, 1).isOk());
  EXPECT_EQ(f16ToFloat(a), 1.0f);
}
