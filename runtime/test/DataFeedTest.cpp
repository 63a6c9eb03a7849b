// DataFeedTest.cpp: --data batching (slicing, shuffling per (seed, epoch),
// padding) and CSV parsing.
#include "DataFeed.h"
#include "Npy.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <fstream>
#include <numeric>
#include <set>

using namespace graphrt;

namespace {

// Every batch of `epochs` epochs, in feeding order.
std::vector<std::vector<int64_t>> batches(Batcher &b, int64_t steps) {
  std::vector<std::vector<int64_t>> out;
  DataPosition pos;
  for (int64_t s = 0; s < steps; ++s) {
    DataPosition next;
    out.push_back(b.batchAt(pos, &next));
    pos = next;
  }
  return out;
}

manifest::TensorSignature sig(const std::string &name, const std::string &dtype,
                              std::vector<int64_t> shape) {
  manifest::TensorSignature s;
  s.set_name(name);
  s.set_dtype(dtype);
  for (int64_t d : shape) {
    s.add_shape(d);
  }
  return s;
}

std::string writeFile(const std::string &name, const std::string &text) {
  std::string path = testing::TempDir() + "/" + name;
  std::ofstream(path, std::ios::binary) << text;
  return path;
}

} // namespace

TEST(Batcher, SlicesInFileOrderWithoutShuffle) {
  Batcher b(10, 3, 0, /*shuffle=*/false, PartialBatch::Drop);
  EXPECT_EQ(b.batchesPerEpoch(), 3);
  auto got = batches(b, 4);
  std::vector<std::vector<int64_t>> want = {
      {0, 1, 2}, {3, 4, 5}, {6, 7, 8}, {0, 1, 2}}; // example 9 dropped
  EXPECT_EQ(got, want);
}

TEST(Batcher, PadsTheLastBatchFromTheEpochsStart) {
  Batcher b(10, 4, 0, /*shuffle=*/false, PartialBatch::Pad);
  EXPECT_EQ(b.batchesPerEpoch(), 3);
  auto got = batches(b, 4);
  std::vector<std::vector<int64_t>> want = {
      {0, 1, 2, 3}, {4, 5, 6, 7}, {8, 9, 0, 1}, {0, 1, 2, 3}};
  EXPECT_EQ(got, want);
}

TEST(Batcher, PadsFromTheShuffledOrderOfTheSameEpoch) {
  Batcher b(7, 3, 5, /*shuffle=*/true, PartialBatch::Pad);
  std::vector<int64_t> order = b.order(0);
  auto got = batches(b, 3);
  EXPECT_EQ(got[2], (std::vector<int64_t>{order[6], order[0], order[1]}));
}

TEST(Batcher, ShufflesByPermutationsOfSeedAndEpochOnly) {
  Batcher a(50, 5, 7, true, PartialBatch::Drop);
  Batcher b(50, 5, 7, true, PartialBatch::Drop);
  Batcher c(50, 5, 8, true, PartialBatch::Drop);
  for (int64_t e = 0; e < 3; ++e) {
    std::vector<int64_t> o = a.order(e);
    EXPECT_EQ(o, b.order(e)) << "epoch " << e;
    EXPECT_NE(o, c.order(e)) << "another seed, epoch " << e;
    std::vector<int64_t> sorted = o;
    std::sort(sorted.begin(), sorted.end());
    std::vector<int64_t> iota(50);
    std::iota(iota.begin(), iota.end(), 0);
    EXPECT_EQ(sorted, iota) << "not a permutation";
    EXPECT_NE(o, iota);
  }
  EXPECT_NE(a.order(0), a.order(1));
  // The order of epoch 2 does not depend on having visited epochs 0 and 1.
  Batcher fresh(50, 5, 7, true, PartialBatch::Drop);
  DataPosition next;
  std::vector<int64_t> first = fresh.batchAt(DataPosition{2, 10}, &next);
  std::vector<int64_t> epoch2 = a.order(2);
  EXPECT_EQ(first,
            std::vector<int64_t>(epoch2.begin() + 10, epoch2.begin() + 15));
  EXPECT_EQ(next, (DataPosition{2, 15}));
}

TEST(Batcher, BatchesWithinAnEpochNeverOverlap) {
  Batcher b(40, 8, 3, true, PartialBatch::Drop);
  std::set<int64_t> seen;
  for (const auto &batch : batches(b, 5)) {
    for (int64_t i : batch) {
      EXPECT_TRUE(seen.insert(i).second) << "example " << i << " twice";
    }
  }
  EXPECT_EQ(seen.size(), 40u);
}

TEST(Batcher, ResumesFromAPosition) {
  Batcher whole(23, 4, 11, true, PartialBatch::Drop);
  auto all = batches(whole, 12);
  // Stop after 7 batches, note the position, continue in a new batcher.
  Batcher first(23, 4, 11, true, PartialBatch::Drop);
  DataPosition pos;
  for (int s = 0; s < 7; ++s) {
    first.batchAt(pos, &pos);
  }
  Batcher second(23, 4, 11, true, PartialBatch::Drop);
  for (int s = 7; s < 12; ++s) {
    DataPosition next;
    EXPECT_EQ(second.batchAt(pos, &next), all[static_cast<size_t>(s)]);
    pos = next;
  }
}

TEST(Batcher, GathersRows) {
  DataFile f;
  f.examples = 3;
  f.exampleBytes = 2;
  f.data = "aabbcc";
  EXPECT_EQ(gatherRows(f, {2, 0, 2}), "ccaacc");
}

TEST(Csv, ParsesNumbersSkipsAHeaderAndBlankLines) {
  std::string out;
  int64_t rows = 0;
  Status st = parseCsv("a,b\n1, 2.5\n\n-3,4e1\n", "f.csv", "x", 2,
                       GRAPHRT_DTYPE_F32, &out, &rows);
  ASSERT_TRUE(st.isOk()) << st.toString();
  ASSERT_EQ(rows, 2);
  float v[4];
  ASSERT_EQ(out.size(), sizeof v);
  std::memcpy(v, out.data(), sizeof v);
  EXPECT_EQ(v[0], 1.0f);
  EXPECT_EQ(v[1], 2.5f);
  EXPECT_EQ(v[2], -3.0f);
  EXPECT_EQ(v[3], 40.0f);
}

TEST(Csv, ConvertsIntegersIncludingSavetxtsFloats) {
  std::string out;
  int64_t rows = 0;
  Status st = parseCsv("7\n3.000000000000000000e+00\n-2\n", "y.csv", "y", 1,
                       GRAPHRT_DTYPE_I64, &out, &rows);
  ASSERT_TRUE(st.isOk()) << st.toString();
  int64_t v[3];
  std::memcpy(v, out.data(), sizeof v);
  EXPECT_EQ(v[0], 7);
  EXPECT_EQ(v[1], 3);
  EXPECT_EQ(v[2], -2);
}

TEST(Csv, NamesTheLineAndColumnOfABadValue) {
  std::string out;
  int64_t rows = 0;
  Status st =
      parseCsv("1,2\n3,x\n", "bad.csv", "x", 2, GRAPHRT_DTYPE_F32, &out, &rows);
  EXPECT_EQ(st.code(), GRAPHRT_STATUS_INVALID_ARGUMENT);
  EXPECT_EQ(st.message(),
            "--data x: 'bad.csv' line 2 column 2: 'x' is not a number");
  st =
      parseCsv("1,2\n3\n", "short.csv", "x", 2, GRAPHRT_DTYPE_F32, &out, &rows);
  EXPECT_EQ(st.message(), "--data x: 'short.csv' line 2 has 1 columns, input "
                          "'x' needs 2 per example");
  st = parseCsv("1.5\n", "y.csv", "y", 1, GRAPHRT_DTYPE_I32, &out, &rows);
  EXPECT_EQ(st.message(),
            "--data y: 'y.csv' line 1 column 1: '1.5' is not an integer (the "
            "input is i32)");
  st = parseCsv("300\n", "y.csv", "y", 1, GRAPHRT_DTYPE_U8, &out, &rows);
  EXPECT_EQ(st.message(),
            "--data y: 'y.csv' line 1 column 1: '300' does not fit in u8");
}

TEST(DataFile, ReadsCsvAndNpyAgainstTheInputsShape) {
  DataFile f;
  std::string csv =
      writeFile("graphrt_feed.csv", "1,2,3,4\n5,6,7,8\n9,10,11,12\n");
  Status st = readDataFile(sig("x", "f32", {2, 2, 2}), csv, &f);
  ASSERT_TRUE(st.isOk()) << st.toString();
  EXPECT_EQ(f.examples, 3);
  EXPECT_EQ(f.exampleBytes, 16u);

  NpyArray a;
  a.dtype = GRAPHRT_DTYPE_F32;
  a.shape = {5, 3};
  a.data.assign(5 * 3 * 4, '\0');
  std::string npy = testing::TempDir() + "/graphrt_feed.npy";
  ASSERT_TRUE(writeNpy(npy, a).isOk());
  st = readDataFile(sig("x", "f32", {2, 3}), npy, &f);
  ASSERT_TRUE(st.isOk()) << st.toString();
  EXPECT_EQ(f.examples, 5);

  st = readDataFile(sig("x", "f32", {2, 4}), npy, &f);
  EXPECT_EQ(st.message(), "--data x: '" + npy +
                              "' has shape [5, 3]: input 'x' takes examples "
                              "of shape [4], so the file must be [N, 4]");
  st = readDataFile(sig("x", "i64", {2, 3}), npy, &f);
  EXPECT_EQ(st.message(),
            "--data x: '" + npy + "' holds f32, input 'x' is i64");
  st = readDataFile(sig("x", "f32", {2, 3}), npy + ".missing.npy", &f);
  EXPECT_EQ(st.code(), GRAPHRT_STATUS_NOT_FOUND);
  st = readDataFile(sig("x", "f32", {}), npy, &f);
  EXPECT_EQ(st.code(), GRAPHRT_STATUS_INVALID_ARGUMENT);
}
