//===- GraphNNFolds.cpp - folders and canonicalizations of NNFolds ops ---------===//

#include "graph/GraphOps.h"

#include "mlir/IR/PatternMatch.h"

using namespace mlir;
using namespace graphc::graph;
