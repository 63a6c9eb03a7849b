//===- GraphReductions.cpp - reductions ops -------------------------------------------===//

#include "graph/GraphOps.h"

using namespace mlir;
using namespace graphc::graph;
