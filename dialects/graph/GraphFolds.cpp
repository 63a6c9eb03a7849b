//===- GraphFolds.cpp - constant folding and folders of graph ops ---------===//

#include "graph/GraphOps.h"

using namespace mlir;
using namespace graphc::graph;
