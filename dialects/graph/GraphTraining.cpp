//===- GraphTraining.cpp - training ops -------------------------------------------===//

#include "graph/GraphOps.h"

using namespace mlir;
using namespace graphc::graph;
