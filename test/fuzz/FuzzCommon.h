//===- FuzzCommon.h - shared helpers of the reader fuzz targets -----------===//

#ifndef GRAPHC_TEST_FUZZ_FUZZCOMMON_H
#define GRAPHC_TEST_FUZZ_FUZZCOMMON_H

#include "graphc/Import/ModelFormat.h"
#include "graphc/Import/NodeGraph.h"

#include "google/protobuf/stubs/logging.h"
#include "llvm/ADT/StringRef.h"

namespace graphc::fuzz {

/// Small limits keep each input fast; the code paths are the same.
inline import::ReadLimits limits() {
  import::ReadLimits limits;
  limits.maxFileBytes = 8 << 20;
  return limits;
}

/// Silences protobuf's own logging of parse errors (they are expected).
inline void quietProtobuf() {
  static bool once = [] {
    google::protobuf::SetLogHandler(nullptr);
    return true;
  }();
  (void)once;
}

/// Orders a node graph as an importer would, discarding the result.
inline void order(llvm::Expected<import::NodeGraph> graph) {
  if (!graph) {
    llvm::consumeError(graph.takeError());
    return;
  }
  auto order = graph->topologicalOrder(
      "fuzz", [&](const import::GraphNode &node, unsigned index) {
        return graph->isTFLoopBackEdge(node, index);
      });
  if (!order) {
    llvm::consumeError(order.takeError());
  }
}

} // namespace graphc::fuzz

#endif // GRAPHC_TEST_FUZZ_FUZZCOMMON_H
