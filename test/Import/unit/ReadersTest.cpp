//===- ReadersTest.cpp - unit tests for the ONNX and TensorFlow readers
//----===//

#include "graphc/Import/ModelFormat.h"
#include "graphc/Import/NodeGraph.h"
#include "graphc/Import/ONNX/OnnxReader.h"
#include "graphc/Import/TF/TFReader.h"
#include "graphc/Import/TF/TensorBundle.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <cstring>
#include <gtest/gtest.h>

using namespace llvm;
using namespace graphc::import;

namespace {

std::string testdata(StringRef rel) {
  return (Twine(GRAPHC_SHARED_TESTDATA) + "/" + rel).str();
}

#define REQUIRE_TESTDATA()                                                     \
  if (!sys::fs::exists(GRAPHC_SHARED_TESTDATA))                                \
  GTEST_SKIP() << "no ../shared/testdata"

template <typename T> std::string errorOf(Expected<T> value) {
  if (value) {
    return "";
  }
  return toString(value.takeError());
}

//===----------------------------------------------------------------------===//
// Snappy and SSTable
//===----------------------------------------------------------------------===//

TEST(Snappy, LiteralAndOverlappingCopy) {
  // length 12; literal "abc"; copy length 9 from offset 3 (overlapping).
  const char block[] = "\x0c\x08"
                       "abc"
                       "\x15\x03";
  auto out = decompressSnappy(StringRef(block, sizeof(block) - 1), 1 << 20);
  ASSERT_TRUE(bool(out)) << toString(out.takeError());
  EXPECT_EQ(*out, "abcabcabcabc");
}

TEST(Snappy, RefusesBadInput) {
  // Copy before any output.
  EXPECT_NE(errorOf(decompressSnappy(StringRef("\x04\x15\x03", 3), 100)), "");
  // Truncated literal.
  EXPECT_NE(errorOf(decompressSnappy(StringRef("\x05\x10"
                                               "ab",
                                               4),
                                     100)),
            "");
  // Claimed length over the limit.
  EXPECT_NE(errorOf(decompressSnappy(StringRef("\xff\xff\x7f", 3), 100)), "");
  // Decodes to fewer bytes than claimed.
  EXPECT_NE(errorOf(decompressSnappy(StringRef("\x05\x04"
                                               "ab",
                                               4),
                                     100)),
            "");
}

TEST(SSTable, RefusesCorruptTables) {
  EXPECT_NE(errorOf(readSSTable("short", "t")), "");
  std::string zeros(64, '\0');
  EXPECT_NE(errorOf(readSSTable(zeros, "t")).find("bad magic"),
            std::string::npos);
}

TEST(TensorBundle, HalfPlusTwoVariables) {
  REQUIRE_TESTDATA();
  // The model computes y = a*x + b with a = 0.5, b = 2 (and y2 = a*x + c,
  // c = 3): the values come from the model's definition in TF Serving.
  auto bundle = readTensorBundle(
      testdata("tf-graphs/serving_saved_model_half_plus_two_cpu/variables/"
               "variables"));
  ASSERT_TRUE(bool(bundle)) << toString(bundle.takeError());
  auto scalar = [&](StringRef name) {
    auto it = bundle->tensors.find(name.str());
    EXPECT_NE(it, bundle->tensors.end()) << name.str();
    if (it == bundle->tensors.end()) {
      return -1.0f;
    }
    EXPECT_EQ(it->second.dtype, 1 /*DT_FLOAT*/);
    EXPECT_EQ(it->second.data.size(), 4u);
    float value = -1;
    if (it->second.data.size() == 4) {
      std::memcpy(&value, it->second.data.data(), 4);
    }
    return value;
  };
  EXPECT_EQ(scalar("a"), 0.5f);
  EXPECT_EQ(scalar("b"), 2.0f);
  EXPECT_EQ(scalar("c"), 3.0f);
}

TEST(TensorBundle, EverySavedModelCheckpointReads) {
  REQUIRE_TESTDATA();
  std::error_code ec;
  unsigned read = 0;
  for (sys::fs::directory_iterator it(testdata("tf-graphs"), ec), e;
       it != e && !ec; it.increment(ec)) {
    std::string prefix = it->path() + "/variables/variables";
    if (!sys::fs::exists(prefix + ".index")) {
      continue;
    }
    auto bundle = readTensorBundle(prefix);
    ASSERT_TRUE(bool(bundle)) << toString(bundle.takeError());
    EXPECT_FALSE(bundle->tensors.empty()) << prefix;
    ++read;
  }
  EXPECT_EQ(read, 7u);
}

//===----------------------------------------------------------------------===//
// TensorFlow formats
//===----------------------------------------------------------------------===//

TEST(TFReader, FtrlTextAndMetaGraphAgree) {
  REQUIRE_TESTDATA();
  auto text = readTFModel(
      testdata("tf-graphs/tensorboard_functionaltest_linear_ftrl_train.pbtxt"),
      ModelFormat::GraphDefText);
  auto meta = readTFModel(
      testdata("tf-graphs/tensorboard_functionaltest_linear_ftrl_train.meta"),
      ModelFormat::MetaGraph);
  ASSERT_TRUE(bool(text)) << toString(text.takeError());
  ASSERT_TRUE(bool(meta)) << toString(meta.takeError());
  ASSERT_EQ(text->graph.node_size(), 338);
  ASSERT_EQ(meta->graph.node_size(), 338);
  for (int i = 0; i < 338; ++i) {
    const auto &a = text->graph.node(i), &b = meta->graph.node(i);
    EXPECT_EQ(a.name(), b.name());
    EXPECT_EQ(a.op(), b.op());
    EXPECT_EQ(a.input_size(), b.input_size()) << a.name();
    EXPECT_EQ(a.attr_size(), b.attr_size()) << a.name();
  }
}

TEST(TFReader, PlacedGraphKeepsEveryDevice) {
  REQUIRE_TESTDATA();
  auto model = readTFModel(
      testdata("tf-graphs/tensorboard_demo_mlp_train_xla_placed.pbtxt"),
      ModelFormat::GraphDefText);
  ASSERT_TRUE(bool(model)) << toString(model.takeError());
  int placed = 0;
  for (const auto &node : model->graph.node()) {
    placed += !node.device().empty();
  }
  EXPECT_EQ(model->graph.node_size(), 118);
  EXPECT_EQ(placed, 118);
}

TEST(TFReader, SavedModelWithFunctionLibrary) {
  REQUIRE_TESTDATA();
  auto model = readTFModel(testdata("tf-graphs/rust_regression_savedmodel_tf2"),
                           ModelFormat::SavedModel);
  ASSERT_TRUE(bool(model)) << toString(model.takeError());
  EXPECT_GT(model->graph.library().function_size(), 0);
  ASSERT_TRUE(model->variables.has_value());
  EXPECT_FALSE(model->variables->tensors.empty());
  EXPECT_FALSE(model->signatures.empty());
}

TEST(TFReader, RefusesTruncatedAndWrongFormat) {
  REQUIRE_TESTDATA();
  auto buffer =
      MemoryBuffer::getFile(testdata("tf-graphs/rust_regression_train.pb"));
  ASSERT_TRUE(bool(buffer));
  StringRef data = (*buffer)->getBuffer();
  std::string truncated =
      errorOf(parseGraphDefBinary(data.take_front(data.size() / 2), "x.pb"));
  EXPECT_NE(truncated.find("x.pb: cannot parse binary GraphDef"),
            std::string::npos)
      << truncated;
  auto onnx = MemoryBuffer::getFile(
      testdata("onnx-models/mnist-8_modelzoo/model.onnx"));
  ASSERT_TRUE(bool(onnx));
  EXPECT_NE(errorOf(parseGraphDefBinary((*onnx)->getBuffer(), "m.pb")), "");
  std::string textErr =
      errorOf(parseGraphDefText("node { nme: \"a\" }", "t.pbtxt"));
  EXPECT_NE(textErr.find("t.pbtxt: cannot parse text GraphDef: 1:"),
            std::string::npos)
      << textErr;
  EXPECT_NE(errorOf(parseGraphDefText("node { name: \"a\" }", "t.pbtxt"))
                .find("t.pbtxt:a: node has no op"),
            std::string::npos);
}

//===----------------------------------------------------------------------===//
// NodeGraph
//===----------------------------------------------------------------------===//

Expected<NodeGraph> graphFromText(StringRef text,
                                  tensorflow::GraphDef &storage) {
  auto graph = parseGraphDefText(text, "g.pbtxt");
  if (!graph) {
    return graph.takeError();
  }
  storage = std::move(*graph);
  return buildTFNodeGraph(storage.node(), "g.pbtxt");
}

TEST(NodeGraph, InputSpellings) {
  TFInputRef a = parseTFInput("scope/x:1");
  EXPECT_EQ(a.node, "scope/x");
  EXPECT_EQ(a.index, 1u);
  EXPECT_FALSE(a.control);
  TFInputRef b = parseTFInput("^init");
  EXPECT_EQ(b.node, "init");
  EXPECT_TRUE(b.control);
  EXPECT_EQ(parseTFInput("y").index, 0u);
}

TEST(NodeGraph, OrdersLoopsAndRefusesOtherCycles) {
  tensorflow::GraphDef storage;
  auto loop = graphFromText(R"(
    node { name: "m" op: "Merge" input: "c" input: "n" }
    node { name: "c" op: "Const" }
    node { name: "add" op: "Add" input: "m" input: "c" }
    node { name: "n" op: "NextIteration" input: "add" }
  )",
                            storage);
  ASSERT_TRUE(bool(loop)) << toString(loop.takeError());
  auto order =
      loop->topologicalOrder("g.pbtxt", [&](const GraphNode &n, unsigned i) {
        return loop->isTFLoopBackEdge(n, i);
      });
  ASSERT_TRUE(bool(order)) << toString(order.takeError());
  EXPECT_EQ(*order, (std::vector<unsigned>{1, 0, 2, 3}));

  tensorflow::GraphDef storage2;
  auto cycle = graphFromText(R"(
    node { name: "a" op: "Add" input: "b" input: "b" }
    node { name: "b" op: "Neg" input: "a" }
  )",
                             storage2);
  ASSERT_TRUE(bool(cycle));
  std::string err = errorOf(cycle->topologicalOrder(
      "g.pbtxt", [](const GraphNode &, unsigned) { return false; }));
  EXPECT_NE(err.find("is on a cycle that is not a loop"), std::string::npos)
      << err;
}

TEST(NodeGraph, RefusesDanglingAndDuplicateNames) {
  tensorflow::GraphDef s1, s2, s3;
  EXPECT_NE(errorOf(graphFromText(
                        R"(node { name: "a" op: "Neg" input: "nope:0" })", s1))
                .find("g.pbtxt:a: input 'nope:0' names no node"),
            std::string::npos);
  EXPECT_NE(errorOf(graphFromText(R"(node { name: "a" op: "NoOp" }
                                     node { name: "a" op: "NoOp" })",
                                  s2))
                .find("duplicate node name"),
            std::string::npos);
  EXPECT_NE(errorOf(graphFromText(R"(node { name: "a" op: "NoOp" }
                 node { name: "b" op: "Neg" input: "^a" input: "a" })",
                                  s3))
                .find("follows a control input"),
            std::string::npos);
}

//===----------------------------------------------------------------------===//
// ONNX
//===----------------------------------------------------------------------===//

TEST(OnnxReader, ReadsModelsAndRefusesOldOpsets) {
  REQUIRE_TESTDATA();
  auto model =
      readOnnxModel(testdata("onnx-models/mnist-8_modelzoo/model.onnx"));
  ASSERT_TRUE(bool(model)) << toString(model.takeError());
  EXPECT_EQ(getOnnxOpset(**model), 8);
  auto graph = buildOnnxNodeGraph((*model)->graph(), "model.onnx");
  ASSERT_TRUE(bool(graph)) << toString(graph.takeError());
  EXPECT_EQ(graph->nodes.size(), 12u);
  // IR 1 without opset_import is read as legacy opset 1 (onnx.checker's
  // rule); declared opsets from 1 are read, opset 0 does not exist.
  auto legacy =
      readOnnxModel(testdata("onnx-models/super_resolution_pytorch_ir1.onnx"));
  ASSERT_TRUE(bool(legacy)) << toString(legacy.takeError());
  EXPECT_TRUE(isLegacyOnnxModel(**legacy));
  EXPECT_EQ(getOnnxOpset(**legacy), 1);
  onnx::ModelProto old;
  old.set_ir_version(3);
  old.mutable_graph()->set_name("g");
  old.add_opset_import()->set_version(6);
  auto six = parseOnnxModel(old.SerializeAsString(), "old.onnx");
  ASSERT_TRUE(bool(six)) << toString(six.takeError());
  old.mutable_opset_import(0)->set_version(0);
  std::string err =
      errorOf(parseOnnxModel(old.SerializeAsString(), "old.onnx"));
  EXPECT_NE(err.find("opset 0 does not exist"), std::string::npos) << err;
}

class ExternalData : public ::testing::Test {
protected:
  void SetUp() override {
    ASSERT_FALSE(sys::fs::createUniqueDirectory("graphc-extdata", root));
    modelDir = root;
    sys::path::append(modelDir, "model");
    ASSERT_FALSE(sys::fs::create_directory(modelDir));
    write(modelDir + "/w.bin", "0123456789");
    write(root + "/secret.bin", "secret");
    SmallString<128> link(modelDir);
    sys::path::append(link, "escape.bin");
    ASSERT_FALSE(sys::fs::create_link(root + "/secret.bin", link));
  }
  void TearDown() override { sys::fs::remove_directories(root); }

  static void write(const Twine &path, StringRef text) {
    std::error_code ec;
    raw_fd_ostream os(path.str(), ec);
    ASSERT_FALSE(ec);
    os << text;
  }

  Expected<std::string> read(StringRef location, StringRef offset = "",
                             StringRef length = "") {
    onnx::TensorProto tensor;
    tensor.set_name("w");
    tensor.set_data_location(onnx::TensorProto::EXTERNAL);
    auto add = [&](StringRef key, StringRef value) {
      if (value.empty()) {
        return;
      }
      auto *entry = tensor.add_external_data();
      entry->set_key(key.str());
      entry->set_value(value.str());
    };
    add("location", location);
    add("offset", offset);
    add("length", length);
    return readOnnxExternalData(tensor, modelDir, "m.onnx");
  }

  SmallString<128> root, modelDir;
};

TEST_F(ExternalData, ReadsInsideTheModelDirectory) {
  auto all = read("w.bin");
  ASSERT_TRUE(bool(all)) << toString(all.takeError());
  EXPECT_EQ(*all, "0123456789");
  auto part = read("w.bin", "2", "3");
  ASSERT_TRUE(bool(part)) << toString(part.takeError());
  EXPECT_EQ(*part, "234");
}

TEST_F(ExternalData, RefusesEscapes) {
  EXPECT_NE(errorOf(read((root + "/secret.bin").str())).find("is absolute"),
            std::string::npos);
  EXPECT_NE(errorOf(read("../secret.bin")).find("contains '..'"),
            std::string::npos);
  EXPECT_NE(errorOf(read("escape.bin")).find("outside the model's directory"),
            std::string::npos);
  EXPECT_NE(errorOf(read("w.bin", "8", "5")).find("lies outside"),
            std::string::npos);
  EXPECT_NE(errorOf(read("w.bin", "-1")).find("not a non-negative integer"),
            std::string::npos);
  EXPECT_NE(errorOf(read("missing.bin")).find("cannot open external data"),
            std::string::npos);
}

TEST(ModelFormat, Detection) {
  REQUIRE_TESTDATA();
  EXPECT_EQ(*detectFormat(testdata("tf-graphs/serving_saved_model_counter")),
            ModelFormat::SavedModel);
  EXPECT_EQ(*detectFormat(testdata("tf-graphs/tract_plus3.pb")),
            ModelFormat::GraphDefBinary);
  EXPECT_NE(
      errorOf(detectFormat(testdata("README.md"))).find("unknown model format"),
      std::string::npos);
  EXPECT_NE(
      errorOf(detectFormat(testdata("tf-graphs"))).find("no saved_model.pb"),
      std::string::npos);
}

} // namespace
