// SafeTensorsTest.cpp: the safetensors codec (layout, round trip, damage) and
// checkpoint selection.
#include "SafeTensors.h"
#include "Checkpoint.h"

#include <gtest/gtest.h>

#include <cstring>
#include <fstream>
#include <sys/stat.h>

using namespace graphrt;

namespace {

SafeTensor tensor(const std::string &name, std::vector<float> v,
                  std::vector<int64_t> shape) {
  SafeTensor t;
  t.name = name;
  t.dtype = GRAPHRT_DTYPE_F32;
  t.shape = std::move(shape);
  t.data.assign(reinterpret_cast<const char *>(v.data()), v.size() * 4);
  return t;
}

std::string freshDir(const std::string &name) {
  std::string dir = testing::TempDir() + "/" + name;
  std::string cmd = "rm -rf '" + dir + "'";
  (void)std::system(cmd.c_str());
  ::mkdir(dir.c_str(), 0755);
  return dir;
}

} // namespace

TEST(SafeTensors, LaysOutHeaderLengthJsonAndAlignedData) {
  SafeTensorsFile f;
  f.tensors.push_back(tensor("a", {1, 2, 3}, {3}));
  f.metadata["k"] = "v";
  std::string bytes;
  ASSERT_TRUE(encodeSafeTensors(f, &bytes).isOk());
  uint64_t n;
  std::memcpy(&n, bytes.data(), 8); // little-endian host
  EXPECT_EQ((8 + n) % 8, 0u);
  std::string header = bytes.substr(8, n);
  EXPECT_EQ(
      header.substr(0, header.find_last_not_of(' ') + 1),
      "{\"__metadata__\":{\"k\":\"v\"},\"a\":{\"dtype\":\"F32\",\"shape\":"
      "[3],\"data_offsets\":[0,12]}}");
  EXPECT_EQ(bytes.size(), 8 + n + 12);
  EXPECT_EQ(bytes.substr(8 + n), f.tensors[0].data);
}

TEST(SafeTensors, RoundTripsInDataOrder) {
  SafeTensorsFile f;
  f.tensors.push_back(tensor("z/b", {5, 6, 7, 8}, {2, 2}));
  f.tensors.push_back(tensor("a", {1}, {}));
  f.metadata = {{"step", "7"}, {"quote", "say \"hi\"\n"}};
  std::string bytes;
  ASSERT_TRUE(encodeSafeTensors(f, &bytes).isOk());
  SafeTensorsFile g;
  Status st = decodeSafeTensors(bytes, &g);
  ASSERT_TRUE(st.isOk()) << st.toString();
  ASSERT_EQ(g.tensors.size(), 2u);
  EXPECT_EQ(g.tensors[0].name, "z/b");
  EXPECT_EQ(g.tensors[0].shape, (std::vector<int64_t>{2, 2}));
  EXPECT_EQ(g.tensors[0].data, f.tensors[0].data);
  EXPECT_EQ(g.tensors[1].name, "a");
  EXPECT_TRUE(g.tensors[1].shape.empty());
  EXPECT_EQ(g.metadata, f.metadata);
}

TEST(SafeTensors, RefusesTruncatedAndMalformedFiles) {
  SafeTensorsFile f;
  f.tensors.push_back(tensor("a", {1, 2, 3, 4}, {4}));
  std::string bytes;
  ASSERT_TRUE(encodeSafeTensors(f, &bytes).isOk());
  SafeTensorsFile g;
  for (size_t cut : {size_t(3), size_t(20), bytes.size() - 1}) {
    Status st = decodeSafeTensors(bytes.substr(0, cut), &g);
    EXPECT_EQ(st.code(), GRAPHRT_STATUS_DATA_LOSS) << "cut at " << cut;
  }
  EXPECT_EQ(decodeSafeTensors(bytes + "x", &g).message(),
            "the data section has 17 bytes, the tensors cover 16");
  std::string bad = bytes;
  bad[9] = '[';
  EXPECT_EQ(decodeSafeTensors(bad, &g).code(), GRAPHRT_STATUS_DATA_LOSS);
  SafeTensor wrong = tensor("w", {1, 2}, {3});
  f.tensors = {wrong};
  EXPECT_EQ(encodeSafeTensors(f, &bytes).code(),
            GRAPHRT_STATUS_INVALID_ARGUMENT);
}

TEST(SafeTensors, RefusesAShapeWhoseSizeWraps) {
  // 2^32 x 2^32 elements wrap to 0 in 64 bits, which would match an empty
  // data range and hand the reader a tensor whose shape lies.
  std::string header = "{\"a\":{\"dtype\":\"F32\",\"shape\":[4294967296,"
                       "4294967296],\"data_offsets\":[0,0]}}";
  std::string bytes(8, '\0');
  uint64_t n = header.size();
  for (int i = 0; i < 8; ++i) {
    bytes[i] = static_cast<char>((n >> (8 * i)) & 0xff);
  }
  bytes += header;
  SafeTensorsFile g;
  Status st = decodeSafeTensors(bytes, &g);
  EXPECT_EQ(st.code(), GRAPHRT_STATUS_DATA_LOSS);
  EXPECT_EQ(st.message(),
            "tensor 'a' has a shape whose element count overflows");
}

TEST(Checkpoint, WritesAtomicallyAndPicksTheNewestValid) {
  std::string dir = freshDir("graphrt_ckpt");
  CheckpointInfo info;
  info.manifestSha256 = "abc";
  info.seed = 9;
  std::string path;
  for (int64_t step : {2, 4, 6, 8}) {
    info.step = step;
    info.position = DataPosition{step / 4, step % 4};
    ASSERT_TRUE(
        writeCheckpoint(dir, info, {tensor("t/v", {float(step)}, {1})}, &path)
            .isOk());
  }
  EXPECT_EQ(path, dir + "/ckpt-8.safetensors");
  struct stat st;
  EXPECT_NE(::stat((dir + "/ckpt-2.safetensors").c_str(), &st), 0)
      << "only the newest " << kCheckpointsKept << " are kept";
  EXPECT_NE(::stat((dir + "/.ckpt-8.tmp").c_str(), &st), 0);
  // Damage the newest: it is skipped, naming why.
  ::truncate((dir + "/ckpt-8.safetensors").c_str(), 40);
  SafeTensorsFile f;
  CheckpointInfo got;
  std::vector<std::pair<std::string, std::string>> skipped;
  ASSERT_TRUE(findCheckpoint(dir, "abc", &f, &got, &path, &skipped).isOk());
  EXPECT_EQ(path, dir + "/ckpt-6.safetensors");
  EXPECT_EQ(got.step, 6);
  EXPECT_EQ(got.position, (DataPosition{1, 2}));
  EXPECT_EQ(got.seed, 9u);
  ASSERT_EQ(skipped.size(), 1u);
  EXPECT_EQ(skipped[0].first, dir + "/ckpt-8.safetensors");
  // Another job's manifest: none is valid.
  skipped.clear();
  EXPECT_EQ(findCheckpoint(dir, "def", &f, &got, &path, &skipped).code(),
            GRAPHRT_STATUS_NOT_FOUND);
  EXPECT_EQ(skipped.size(), 3u);
}
