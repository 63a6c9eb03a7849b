//===- GraphCanonicalize.cpp - canonicalization patterns of graph ops -----===//

#include "graph/GraphOps.h"

#include "mlir/IR/PatternMatch.h"

using namespace mlir;
using namespace graphc::graph;
