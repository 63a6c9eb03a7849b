// ManifestTest.cpp: manifest.json parsing, validation errors and file
// verification.
#include "Manifest.h"
#include "Sha256.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <set>
#include <string>
#include <sys/stat.h>

using namespace graphrt;

namespace {

const char *const kHashA =
    "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad";

// A valid two-task manifest; tests patch one thing at a time.
std::string validJson() {
  return std::string(R"({
  "format_version": 1,
  "name": "pair",
  "tasks": [
    {"name": "a", "job": "worker", "index": 0, "library": "a.so",
     "entry": "graphrt_task_descriptor_v1",
     "inputs": [{"name": "x", "dtype": "f32", "shape": [2, 3]}],
     "variables": [{"name": "w", "dtype": "f32", "shape": [3], "file": "w.bin"}]},
    {"name": "b", "job": "worker", "index": 1, "library": "a.so",
     "outputs": [{"name": "y", "dtype": "i64", "shape": [4]}]}
  ],
  "channels": [{"key": "e", "src": "a", "dst": "b",
                "payload": {"dtype": "f32", "shape": [6]}}],
  "collective_groups": [{"name": "all", "tasks": ["a", "b"]}],
  "files": [{"path": "a.so", "sha256": ")") +
         kHashA + R"(", "size": 3},
            {"path": "w.bin", "sha256": ")" +
         kHashA +
         R"(", "size": 12}]
})";
}

std::string replaced(std::string s, const std::string &from,
                     const std::string &to) {
  size_t at = s.find(from);
  EXPECT_NE(at, std::string::npos) << from;
  if (at != std::string::npos) {
    s.replace(at, from.size(), to);
  }
  return s;
}

std::string errorOf(const std::string &json) {
  manifest::Manifest m;
  Status st = parseManifest(json, &m);
  EXPECT_FALSE(st.isOk());
  EXPECT_EQ(st.code(), GRAPHRT_STATUS_INVALID_ARGUMENT);
  return st.message();
}

} // namespace

TEST(Manifest, ParsesValid) {
  manifest::Manifest m;
  Status st = parseManifest(validJson(), &m);
  ASSERT_TRUE(st.isOk()) << st.toString();
  ASSERT_EQ(m.tasks_size(), 2);
  EXPECT_EQ(m.tasks(0).inputs(0).shape(1), 3);
  EXPECT_EQ(byteSize(m.tasks(0).inputs(0)), 24);
  EXPECT_EQ(byteSize(m.tasks(1).outputs(0)), 32);
  EXPECT_EQ(describe(m.tasks(0).inputs(0)), "f32[2,3]");
  EXPECT_NE(findTask(m, "b"), nullptr);
  EXPECT_EQ(findTask(m, "c"), nullptr);
}

TEST(Manifest, DTypeNamesRoundTrip) {
  for (const char *n : {"f32", "f64", "i32", "i64", "u8", "i8", "bool", "f16",
                        "bf16", "i16", "u16", "u32", "u64"}) {
    EXPECT_STREQ(dtypeName(parseDType(n)), n);
  }
  EXPECT_EQ(parseDType("float"), GRAPHRT_DTYPE_INVALID);
  EXPECT_EQ(parseDType(""), GRAPHRT_DTYPE_INVALID);
  EXPECT_STREQ(dtypeName(GRAPHRT_DTYPE_INVALID), "invalid");
}

TEST(Manifest, DTypeTableCoversEveryEnumValueOnce) {
  // graphc's bundle writer and the runtime both read this table: every
  // graphrt_dtype_t after INVALID appears once, in enum order, with a size.
  const std::vector<DTypeName> &table = allDTypes();
  ASSERT_EQ(table.size(), static_cast<size_t>(GRAPHRT_DTYPE_U2));
  std::set<std::string> names;
  for (size_t i = 0; i < table.size(); ++i) {
    EXPECT_EQ(table[i].dtype, static_cast<int>(i) + 1) << table[i].name;
    EXPECT_TRUE(names.insert(table[i].name).second) << table[i].name;
    EXPECT_EQ(parseDType(table[i].name), table[i].dtype) << table[i].name;
    EXPECT_STREQ(dtypeName(table[i].dtype), table[i].name);
    EXPECT_GT(graphrt_dtype_size(table[i].dtype), 0u) << table[i].name;
  }
}

TEST(Manifest, SmallDTypesAreOneBytePerElement) {
  // ONNX's small types, appended after u64 in this order.
  int value = GRAPHRT_DTYPE_U64;
  for (const char *n : {"f8e4m3fn", "f8e4m3fnuz", "f8e5m2", "f8e5m2fnuz",
                        "f8e8m0", "f4e2m1", "i4", "u4", "i2", "u2"}) {
    graphrt_dtype_t d = parseDType(n);
    EXPECT_EQ(d, ++value) << n;
    EXPECT_STREQ(dtypeName(d), n);
    EXPECT_EQ(graphrt_dtype_size(d), 1u) << n;
  }
}

struct BadCase {
  const char *from;
  const char *to;
  const char *expected;
};

TEST(Manifest, ValidationErrors) {
  const BadCase cases[] = {
      {"\"format_version\": 1", "\"format_version\": 2",
       "format_version is 2, this runtime reads version 1"},
      {"\"name\": \"b\", \"job\"", "\"name\": \"a\", \"job\"",
       "task 'a' is defined twice"},
      {"\"index\": 1", "\"index\": 0",
       "task 'b': worker:0 is used by another task"},
      {"\"index\": 1", "\"index\": -1", "task 'b': index -1 is negative"},
      {"\"library\": \"a.so\",\n     \"entry\"",
       "\"library\": \"z.so\",\n     \"entry\"",
       "task 'a': library 'z.so' is not listed in files"},
      {"graphrt_task_descriptor_v1\"", "graphrt_task_descriptor_v9\"",
       "task 'a': entry 'graphrt_task_descriptor_v9' is not "
       "graphrt_task_descriptor_v1"},
      // A StableHLO module's entry is its @main, not the descriptor.
      {"\"library\": \"a.so\",\n     \"entry\"",
       "\"library\": \"a.so\", \"target\": \"stablehlo\",\n     \"entry\"",
       "task 'a': entry 'graphrt_task_descriptor_v1' is not main"},
      {"\"dtype\": \"f32\", \"shape\": [2, 3]",
       "\"dtype\": \"f33\", \"shape\": [2, 3]",
       "task 'a': input 'x': unknown dtype 'f33'"},
      {"[2, 3]", "[2, -3]",
       "task 'a': input 'x': dimension 1 is -3, expected a static size >= 0"},
      {"\"name\": \"y\"", "\"name\": \"x\"",
       "task 'b': output 'x' is already an input or output of the job"},
      {"\"size\": 12", "\"size\": 16",
       "task 'a': variable 'w': file 'w.bin' has 16 bytes, expected 12"},
      {"\"file\": \"w.bin\"", "\"file\": \"v.bin\"",
       "task 'a': variable 'w': file 'v.bin' is not listed in files"},
      {"\"dst\": \"b\"", "\"dst\": \"q\"",
       "channel 'e': unknown destination task 'q'"},
      {"\"dst\": \"b\"", "\"dst\": \"a\"",
       "channel 'e': source and destination are both 'a'"},
      {"\"tasks\": [\"a\", \"b\"]", "\"tasks\": [\"a\", \"a\"]",
       "collective group 'all': task 'a' is listed twice"},
      {"\"tasks\": [\"a\", \"b\"]", "\"tasks\": []",
       "collective group 'all': no member tasks"},
      {"\"path\": \"w.bin\"", "\"path\": \"../w.bin\"",
       "file path '../w.bin' must be relative and stay inside the bundle"},
      {"\"path\": \"w.bin\", \"sha256\": \"ba78",
       "\"path\": \"w.bin\", \"sha256\": \"BA78", "file 'w.bin': sha256 'BA78"},
      {"\"name\": \"y\"", "\"name\": \"y\", \"slot_of\": \"w\"",
       "task 'b': output 'y': only variables may be marked replica_of or "
       "slot_of"},
      {"\"name\": \"x\"", "\"name\": \"x\", \"replica_of\": \"w\"",
       "task 'a': input 'x': only variables may be marked replica_of or "
       "slot_of"},
      {"\"name\": \"pair\"", "\"nmae\": \"pair\"", "malformed JSON"},
      // A batch of any size (-1) is for dimension 0 of inputs and outputs
      // only, and a batched output takes its batch from an input.
      {"[2, 3]", "[2, -1]",
       "task 'a': input 'x': dimension 1 is -1, expected a static size >= 0 "
       "(or -1 in dimension 0 for a batch of any size)"},
      {"\"shape\": [3], \"file\"", "\"shape\": [-1], \"file\"",
       "task 'a': variable 'w': dimension 0 is -1, expected a static size "
       ">= 0"},
      {"\"shape\": [6]", "\"shape\": [-1, 6]",
       "channel 'e': payload 'e': dimension 0 is -1"},
      {"\"shape\": [4]", "\"shape\": [-1]",
       "task 'b': an output has a batch of any size (-1) but no input gives "
       "it"},
  };
  for (const BadCase &c : cases) {
    std::string msg = errorOf(replaced(validJson(), c.from, c.to));
    EXPECT_NE(msg.find(c.expected), std::string::npos)
        << "expected '" << c.expected << "' in '" << msg << "'";
    EXPECT_EQ(msg.rfind("manifest: ", 0), 0u) << msg;
  }
}

TEST(Manifest, BatchedSignaturesTakeAnyBatch) {
  manifest::Manifest m;
  Status st = parseManifest(replaced(validJson(), "[2, 3]", "[-1, 3]"), &m);
  ASSERT_TRUE(st.isOk()) << st.message();
  const manifest::TensorSignature &x = m.tasks(0).inputs(0);
  EXPECT_TRUE(isBatched(x));
  EXPECT_EQ(describe(x), "f32[N,3]");
  EXPECT_EQ(byteSize(x), 12); // one sample
  EXPECT_TRUE(matchesSignature(x, {1, 3}));
  EXPECT_TRUE(matchesSignature(x, {8, 3}));
  EXPECT_FALSE(matchesSignature(x, {8, 4}));
  EXPECT_FALSE(matchesSignature(x, {3}));
  EXPECT_FALSE(matchesSignature(m.tasks(1).outputs(0), {5}));
}

TEST(Manifest, CarriesReplicaAndSlotMarksOfVariables) {
  manifest::Manifest m;
  std::string json =
      replaced(validJson(), "\"file\": \"w.bin\"",
               "\"file\": \"w.bin\", \"replica_of\": \"v\", \"slot_of\": \"\"");
  Status st = parseManifest(json, &m);
  ASSERT_TRUE(st.isOk()) << st.toString();
  const manifest::TensorSignature &w = m.tasks(0).variables(0);
  EXPECT_EQ(w.replica_of(), "v");
  // An empty slot_of (Adam's beta powers) is still a slot.
  EXPECT_TRUE(w.has_slot_of());
  EXPECT_FALSE(m.tasks(0).inputs(0).has_slot_of());
  EXPECT_NE(printManifestJson(m).find("\"slot_of\": \"\""), std::string::npos);
}

TEST(Manifest, PrintedJsonParsesBackToTheSameMessage) {
  manifest::Manifest m;
  Status st = parseManifest(validJson(), &m);
  ASSERT_TRUE(st.isOk()) << st.toString();
  std::string json = printManifestJson(m);
  // Proto field names, not the JSON mapping's lowerCamelCase.
  EXPECT_NE(json.find("\"format_version\": 1"), std::string::npos) << json;
  EXPECT_NE(json.find("\"collective_groups\""), std::string::npos) << json;
  manifest::Manifest back;
  st = parseManifest(json, &back);
  ASSERT_TRUE(st.isOk()) << st.toString() << "\n" << json;
  EXPECT_EQ(back.SerializeAsString(), m.SerializeAsString()) << json;
  EXPECT_EQ(printManifestJson(back), json);
}

TEST(Manifest, CheckManifestReportsWithoutPrefix) {
  // The compiler checks what it writes with the same rules; its messages
  // carry no "manifest: " prefix (the runtime's Status wrapper adds it).
  manifest::Manifest m;
  ASSERT_TRUE(parseManifest(validJson(), &m).isOk());
  std::string error;
  EXPECT_TRUE(checkManifest(m, &error)) << error;
  m.mutable_channels(0)->set_src("nobody");
  EXPECT_FALSE(checkManifest(m, &error));
  EXPECT_EQ(error, "channel 'e': unknown source task 'nobody'");
  Status st = validateManifest(m);
  EXPECT_EQ(st.code(), GRAPHRT_STATUS_INVALID_ARGUMENT);
  EXPECT_EQ(st.message(), "manifest: " + error);
}

TEST(Manifest, VerifyBundleFileRefusesTamperedFiles) {
  std::string dir = testing::TempDir() + "/graphrt_manifest_test.gjob";
  ::mkdir(dir.c_str(), 0755);
  {
    std::ofstream(dir + "/a.so", std::ios::binary) << "abc";
    std::ofstream(dir + "/w.bin", std::ios::binary) << "abcdefghijkl";
    std::ofstream(dir + "/manifest.json", std::ios::binary) << validJson();
  }
  Bundle bundle;
  Status st = readBundle(dir, &bundle);
  ASSERT_TRUE(st.isOk()) << st.toString();
  EXPECT_EQ(bundle.manifestSha256.size(), 64u);
  EXPECT_TRUE(verifyBundleFile(bundle, "a.so").isOk());
  // Same size, different bytes.
  st = verifyBundleFile(bundle, "w.bin");
  EXPECT_EQ(st.code(), GRAPHRT_STATUS_PERMISSION_DENIED);
  EXPECT_NE(st.message().find("bundle file 'w.bin' has sha256 "),
            std::string::npos)
      << st.message();
  std::ofstream(dir + "/a.so", std::ios::binary) << "abcd";
  st = verifyBundleFile(bundle, "a.so");
  EXPECT_EQ(st.code(), GRAPHRT_STATUS_PERMISSION_DENIED);
  EXPECT_NE(st.message().find("has 4 bytes, the manifest says 3"),
            std::string::npos)
      << st.message();
  EXPECT_EQ(verifyBundleFile(bundle, "other").code(),
            GRAPHRT_STATUS_PERMISSION_DENIED);
  Bundle missing;
  EXPECT_EQ(readBundle(dir + "/nope", &missing).code(),
            GRAPHRT_STATUS_NOT_FOUND);
}
