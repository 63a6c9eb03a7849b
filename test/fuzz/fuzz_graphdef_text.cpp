//===- fuzz_graphdef_text.cpp - libFuzzer target for text GraphDefs ------===//

#include "FuzzCommon.h"

#include "graphc/Import/TF/TFReader.h"

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

using namespace graphc;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  fuzz::quietProtobuf();
  auto graph = import::parseGraphDefText(
      llvm::StringRef(reinterpret_cast<const char *>(data), size), "fuzz.pb",
      fuzz::limits());
  if (!graph) {
    llvm::consumeError(graph.takeError());
    return 0;
  }
  fuzz::order(import::buildTFNodeGraph(graph->node(), "fuzz.pb"));
  for (const tensorflow::FunctionDef &function : graph->library().function()) {
    std::vector<std::string> args;
    for (const auto &arg : function.signature().input_arg()) {
      args.push_back(arg.name());
    }
    fuzz::order(
        import::buildTFNodeGraph(function.node_def(), "fuzz.pb", &args));
  }
  return 0;
}
