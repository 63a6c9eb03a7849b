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
    for (int64_t d : shape)
      n *= d;
    std::vector<double> v(n);
    for (int64_t i = 0; i < n; ++i)
      v[i] = 0.5 * i - 1;
    a.data.assign(reinterpret_cast<const char*>(v.data()), n * 8);
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
  file.append(reinterpret_cast<const char*>(v), 12);
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
