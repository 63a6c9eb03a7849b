// TensorProtoTest.cpp: reading ONNX TensorProto files, the packed 4- and
// 2-bit types in particular (one element per byte after reading).
#include "TensorProto.h"

#include <gtest/gtest.h>

#include <fstream>

using namespace graphrt;

namespace {

void varint(std::string &out, uint64_t v) {
  while (v >= 0x80) {
    out.push_back(static_cast<char>((v & 0x7f) | 0x80));
    v >>= 7;
  }
  out.push_back(static_cast<char>(v));
}

/// The wire bytes of a TensorProto with `dims`, `dataType` and either
/// raw_data (field 9) or int32_data (field 5, packed).
std::string tensorProto(const std::vector<int64_t> &dims, int dataType,
                        const std::string &raw,
                        const std::vector<int32_t> &int32Data = {}) {
  std::string out;
  for (int64_t d : dims) {
    varint(out, (1 << 3) | 0);
    varint(out, static_cast<uint64_t>(d));
  }
  varint(out, (2 << 3) | 0);
  varint(out, static_cast<uint64_t>(dataType));
  if (!int32Data.empty()) {
    std::string packed;
    for (int32_t v : int32Data) {
      varint(packed, static_cast<uint64_t>(static_cast<int64_t>(v)));
    }
    varint(out, (5 << 3) | 2);
    varint(out, packed.size());
    out += packed;
  } else {
    varint(out, (9 << 3) | 2);
    varint(out, raw.size());
    out += raw;
  }
  return out;
}

Status readBytes(const std::string &bytes, NpyArray *out) {
  // One file per test: ctest runs the tests as parallel processes.
  std::string path =
      testing::TempDir() + "/graphrt_tensorproto_" +
      testing::UnitTest::GetInstance()->current_test_info()->name() + ".pb";
  std::ofstream(path, std::ios::binary) << bytes;
  return readTensorProto(path, out);
}

std::vector<int> elements(const NpyArray &a, bool isSigned) {
  std::vector<int> v;
  for (char c : a.data) {
    v.push_back(isSigned ? static_cast<int>(static_cast<int8_t>(c))
                         : static_cast<int>(static_cast<uint8_t>(c)));
  }
  return v;
}

} // namespace

TEST(TensorProto, UnpacksInt4LowNibbleFirstSignExtended) {
  // ONNX INT4 (22): -8..7 then 0, packed two per byte, the odd count padded.
  NpyArray a;
  Status st = readBytes(
      tensorProto({17}, 22,
                  std::string("\x98\xba\xdc\xfe\x10\x32\x54\x76\x00", 9)),
      &a);
  ASSERT_TRUE(st.isOk()) << st.toString();
  EXPECT_EQ(a.dtype, GRAPHRT_DTYPE_I4);
  EXPECT_EQ(a.shape, std::vector<int64_t>({17}));
  EXPECT_EQ(elements(a, true), std::vector<int>({-8, -7, -6, -5, -4, -3, -2, -1,
                                                 0, 1, 2, 3, 4, 5, 6, 7, 0}));
}

TEST(TensorProto, UnpacksUInt4ZeroExtended) {
  NpyArray a;
  Status st = readBytes(tensorProto({2, 2}, 21, "\xf0\x9a"), &a);
  ASSERT_TRUE(st.isOk()) << st.toString();
  EXPECT_EQ(a.dtype, GRAPHRT_DTYPE_U4);
  EXPECT_EQ(elements(a, false), std::vector<int>({0, 15, 10, 9}));
}

TEST(TensorProto, UnpacksInt2FourPerByte) {
  // INT2 (26): 1, -2, -1, 0 | -2 (0b01 | 0b10 << 2 | 0b11 << 4 | 0 << 6).
  NpyArray a;
  Status st = readBytes(tensorProto({5}, 26, std::string("\x39\x02", 2)), &a);
  ASSERT_TRUE(st.isOk()) << st.toString();
  EXPECT_EQ(a.dtype, GRAPHRT_DTYPE_I2);
  EXPECT_EQ(elements(a, true), std::vector<int>({1, -2, -1, 0, -2}));
  // UINT2 (25): the same bytes, zero-extended.
  st = readBytes(tensorProto({5}, 25, std::string("\x39\x02", 2)), &a);
  ASSERT_TRUE(st.isOk()) << st.toString();
  EXPECT_EQ(elements(a, false), std::vector<int>({1, 2, 3, 0, 2}));
}

TEST(TensorProto, UnpacksInt4FromInt32Data) {
  // int32_data holds one packed byte (two elements) per int32.
  NpyArray a;
  Status st = readBytes(tensorProto({3}, 22, "", {0x7f, 0x08}), &a);
  ASSERT_TRUE(st.isOk()) << st.toString();
  EXPECT_EQ(elements(a, true), std::vector<int>({-1, 7, -8}));
}

TEST(TensorProto, KeepsFloat8BitPatterns) {
  NpyArray a;
  Status st = readBytes(tensorProto({3}, 17, "\x7e\xff\x01"), &a);
  ASSERT_TRUE(st.isOk()) << st.toString();
  EXPECT_EQ(a.dtype, GRAPHRT_DTYPE_F8E4M3FN);
  EXPECT_EQ(elements(a, false), std::vector<int>({0x7e, 0xff, 0x01}));
}

TEST(TensorProto, RefusesAShortPackedBuffer) {
  NpyArray a;
  Status st = readBytes(tensorProto({5}, 22, "\x11\x22"), &a);
  ASSERT_FALSE(st.isOk());
  EXPECT_NE(st.message().find("needs 3"), std::string::npos) << st.message();
}

// dims of 2^32 x 2^32 float32 elements wrapped around to 0 elements, so an
// empty raw_data was accepted for a shape that claims 2^64 of them (and a
// reader of the array would run off its end).
TEST(TensorProto, RefusesDimsWhoseProductOverflows) {
  NpyArray a;
  Status st =
      readBytes(tensorProto({int64_t(1) << 32, int64_t(1) << 32}, 1, ""), &a);
  ASSERT_FALSE(st.isOk());
  EXPECT_NE(st.message().find("dims have too many elements"), std::string::npos)
      << st.message();
  // float32 elements: 2^62 of them need 2^64 bytes.
  st = readBytes(tensorProto({int64_t(1) << 62}, 1, ""), &a);
  ASSERT_FALSE(st.isOk());
  EXPECT_NE(st.message().find("dims have too many elements"), std::string::npos)
      << st.message();
}
