//===- fuzz_metagraph.cpp - libFuzzer target for MetaGraphDefs ------------===//

#include "FuzzCommon.h"

#include "graphc/Import/TF/TFReader.h"

#include <cstddef>
#include <cstdint>

using namespace graphc;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  fuzz::quietProtobuf();
  auto meta = import::parseMetaGraph(
      llvm::StringRef(reinterpret_cast<const char *>(data), size), "fuzz.meta",
      fuzz::limits());
  if (!meta) {
    llvm::consumeError(meta.takeError());
    return 0;
  }
  fuzz::order(import::buildTFNodeGraph(meta->graph_def().node(), "fuzz.meta"));
  return 0;
}
