//===- GraphShapeFolds.cpp - folders and canonicalizations of ShapeFolds ops ---------===//

#include "graph/GraphOps.h"

#include "mlir/IR/PatternMatch.h"

using namespace mlir;
using namespace graphc::graph;
