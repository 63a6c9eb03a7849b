// Sha256Test.cpp: SHA-256 against the FIPS 180-2 test vectors.
#include "Sha256.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <string>

using namespace graphrt;

TEST(Sha256, KnownVectors) {
  EXPECT_EQ(sha256Hex("", 0),
            "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  EXPECT_EQ(sha256Hex("abc", 3),
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  std::string two = "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq";
  EXPECT_EQ(sha256Hex(two.data(), two.size()),
            "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
}

TEST(Sha256, FileMatchesMemoryAcrossChunks) {
  // One million 'a': the third FIPS vector, larger than the 64 KiB read size.
  std::string path = testing::TempDir() + "/graphrt_sha_million_a";
  {
    std::ofstream out(path, std::ios::binary);
    out << std::string(1000000, 'a');
  }
  std::string hex;
  ASSERT_TRUE(sha256File(path, &hex).isOk());
  EXPECT_EQ(hex,
            "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
  std::remove(path.c_str());
}

TEST(Sha256, MissingFileIsNotFound) {
  std::string hex;
  Status st = sha256File("/nonexistent/graphrt/file", &hex);
  EXPECT_EQ(st.code(), GRAPHRT_STATUS_NOT_FOUND);
  EXPECT_NE(st.message().find("/nonexistent/graphrt/file"), std::string::npos);
}
