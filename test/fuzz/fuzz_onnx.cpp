//===- fuzz_onnx.cpp - libFuzzer target for the ONNX reader ---------------===//

#include "FuzzCommon.h"

#include "graphc/Import/ONNX/OnnxReader.h"

#include <cstddef>
#include <cstdint>

using namespace graphc;

static void walk(const onnx::GraphProto &graph, int depth) {
  fuzz::order(import::buildOnnxNodeGraph(graph, "fuzz.onnx", depth > 0));
  for (const onnx::NodeProto &node : graph.node()) {
    for (const onnx::AttributeProto &attr : node.attribute()) {
      if (attr.has_g()) {
        walk(attr.g(), depth + 1);
      }
      for (const onnx::GraphProto &g : attr.graphs()) {
        walk(g, depth + 1);
      }
    }
  }
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  fuzz::quietProtobuf();
  auto model = import::parseOnnxModel(
      llvm::StringRef(reinterpret_cast<const char *>(data), size), "fuzz.onnx",
      fuzz::limits());
  if (!model) {
    llvm::consumeError(model.takeError());
    return 0;
  }
  walk((*model)->graph(), 0);
  return 0;
}
