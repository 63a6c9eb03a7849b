//===- GraphElementwise.cpp - elementwise ops ------------------------------===//
//
// Type inference for the elementwise base classes is generated from ODS
// (GraphElementwiseOps.td); this file holds what individual ops add.
//
//===----------------------------------------------------------------------===//

#include "graph/GraphOps.h"

using namespace mlir;
using namespace graphc::graph;
