//===- GraphShape.cpp - shape ops -------------------------------------------===//

#include "graph/GraphOps.h"

using namespace mlir;
using namespace graphc::graph;
