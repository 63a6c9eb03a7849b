// NpyTest.cpp: .npy round trips and header parsing.
#include "Npy.h"

#include <gtest/gtest.h>

#include <cstring>
#include <fstream>

using namespace graphrt;

TEST(Npy, RoundTripsShapesAndDTypes) {
  for (std::vector<int64_t> shape :
       {std::vector<int64_t>{}, {3}, {2, 3}, {1, 2, 2}}) {
    NpyArray a;
    a.dtype = GRAPHRT_DTYPE_F64;
    a.shape = shape;
    int64_t n = 1;
    for (int64_t d : shape) {
      n *= d;
    }
    std::vector<double> v(n);
    for (int64_t i = 0; i < n; ++i) {
      v[i] = 0.5 * i - 1;
    }
    a.data.assign(reinterpret_cast<const char *>(v.data()), n * 8);
    std::string path = testing::TempDir() + "/graphrt_npy_rt.npy";
    ASSERT_TRUE(writeNpy(path, a).isOk());
    NpyArray b;
    Status st = readNpy(path, &b);
    ASSERT_TRUE(st.isOk()) << st.toString();
    EXPECT_EQ(b.dtype, GRAPHRT_DTYPE_F64);
    EXPECT_EQ(b.shape, shape);
    EXPECT_EQ(b.data, a.data);
  }
}

TEST(Npy, ReadsANumPyWrittenHeader) {
  // What numpy.save writes for np.arange(3, dtype='<i4').
  std::string header =
      "{'descr': '<i4', 'fortran_order': False, 'shape': (3,), }";
  header.append(118 - header.size() - 1, ' ');
  header += '\n';
  std::string file = std::string("\x93NUMPY\x01\x00", 8);
  file += static_cast<char>(header.size());
  file += '\0';
  file += header;
  int32_t v[3] = {0, 1, 2};
  file.append(reinterpret_cast<const char *>(v), 12);
  std::string path = testing::TempDir() + "/graphrt_npy_np.npy";
  std::ofstream(path, std::ios::binary) << file;
  NpyArray a;
  ASSERT_TRUE(readNpy(path, &a).isOk());
  EXPECT_EQ(a.dtype, GRAPHRT_DTYPE_I32);
  EXPECT_EQ(a.shape, std::vector<int64_t>{3});
  EXPECT_EQ(std::memcmp(a.data.data(), v, 12), 0);
}

TEST(Npy, RejectsFortranOrderAndTruncation) {
  std::string header =
      "{'descr': '<f4', 'fortran_order': True, 'shape': (2,), }\n";
  std::string file = std::string("\x93NUMPY\x01\x00", 8);
  file += static_cast<char>(header.size());
  file += '\0';
  file += header + std::string(8, '\0');
  std::string path = testing::TempDir() + "/graphrt_npy_bad.npy";
  std::ofstream(path, std::ios::binary) << file;
  NpyArray a;
  Status st = readNpy(path, &a);
  EXPECT_EQ(st.code(), GRAPHRT_STATUS_INVALID_ARGUMENT);
  EXPECT_NE(st.message().find("Fortran order"), std::string::npos);
  std::ofstream(path, std::ios::binary) << file.substr(0, file.size() - 3);
  EXPECT_FALSE(readNpy(path, &a).isOk());
}

TEST(Npy, WritesBFloat16AsItsFloat32Widening) {
  // 1.0, -2.5 and 3.140625 are exact in bfloat16: their bf16 bits are the
  // upper halves of their float32 bits.
  const float values[] = {1.0f, -2.5f, 3.140625f};
  NpyArray a;
  a.dtype = GRAPHRT_DTYPE_BF16;
  a.shape = {3};
  for (float f : values) {
    uint32_t bits;
    std::memcpy(&bits, &f, 4);
    uint16_t half = static_cast<uint16_t>(bits >> 16);
    a.data.append(reinterpret_cast<const char *>(&half), 2);
  }
  std::string path = testing::TempDir() + "/graphrt_npy_bf16.npy";
  ASSERT_TRUE(writeNpy(path, a).isOk());
  NpyArray b;
  ASSERT_TRUE(readNpy(path, &b).isOk());
  EXPECT_EQ(b.dtype, GRAPHRT_DTYPE_F32);
  EXPECT_EQ(b.shape, a.shape);
  ASSERT_EQ(b.data.size(), 12u);
  for (int i = 0; i < 3; ++i) {
    float f;
    std::memcpy(&f, b.data.data() + 4 * i, 4);
    EXPECT_EQ(f, values[i]);
  }
}

TEST(Npy, WritesSmallTypesAsBytes) {
  // f8/f4 bit patterns and u4/u2 values as uint8, i4/i2 values as int8.
  for (auto [dtype, descr] :
       {std::pair{GRAPHRT_DTYPE_F8E4M3FN, "|u1"},
        std::pair{GRAPHRT_DTYPE_F4E2M1, "|u1"},
        std::pair{GRAPHRT_DTYPE_U4, "|u1"}, std::pair{GRAPHRT_DTYPE_I4, "|i1"},
        std::pair{GRAPHRT_DTYPE_I2, "|i1"}}) {
    NpyArray a;
    a.dtype = dtype;
    a.shape = {3};
    a.data = std::string("\x7e\xff\x01", 3);
    std::string path = testing::TempDir() + "/graphrt_npy_small.npy";
    ASSERT_TRUE(writeNpy(path, a).isOk());
    NpyArray b;
    Status st = readNpy(path, &b);
    ASSERT_TRUE(st.isOk()) << st.toString();
    EXPECT_EQ(b.dtype, descr[1] == 'i' ? GRAPHRT_DTYPE_I8 : GRAPHRT_DTYPE_U8);
    EXPECT_EQ(b.data, a.data);
    // ... and such a file feeds an input of the small type back.
    EXPECT_TRUE(npyCanFeed(b.dtype, dtype));
  }
  EXPECT_FALSE(npyCanFeed(GRAPHRT_DTYPE_I8, GRAPHRT_DTYPE_F8E5M2));
  EXPECT_FALSE(npyCanFeed(GRAPHRT_DTYPE_U8, GRAPHRT_DTYPE_I4));
  EXPECT_FALSE(npyCanFeed(GRAPHRT_DTYPE_U8, GRAPHRT_DTYPE_I8));
}

// Found by graphc-fuzz-npy: a 19-digit dimension made std::stoll throw
// (graph-run died in std::terminate), and dimensions whose product wraps
// around 2^64 could match a short data section.
TEST(Npy, RejectsShapesThatDoNotFit) {
  auto read = [](const std::string &shape, size_t dataBytes) {
    std::string header =
        "{'descr': '<u2', 'fortran_order': False, 'shape': " + shape + ", }\n";
    std::string file = std::string("\x93NUMPY\x01\x00", 8);
    file += static_cast<char>(header.size());
    file += '\0';
    file += header + std::string(dataBytes, '\0');
    std::string path = testing::TempDir() + "/graphrt_npy_shape.npy";
    std::ofstream(path, std::ios::binary) << file;
    NpyArray a;
    return readNpy(path, &a);
  };
  Status huge = read("(4,6666666666666666666666)", 8);
  EXPECT_EQ(huge.code(), GRAPHRT_STATUS_INVALID_ARGUMENT);
  EXPECT_NE(
      huge.message().find("dimension 6666666666666666666666 is too large"),
      std::string::npos)
      << huge.message();
  // 2^32 * 2^32 elements wrap to 0 in 64 bits; so would 0 bytes of data.
  Status wrapped = read("(4294967296, 4294967296)", 0);
  EXPECT_EQ(wrapped.code(), GRAPHRT_STATUS_INVALID_ARGUMENT);
  EXPECT_NE(wrapped.message().find("has too many elements"), std::string::npos)
      << wrapped.message();
  EXPECT_TRUE(read("(2, 2)", 8).isOk());
}
