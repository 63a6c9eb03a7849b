//===- Passes.h - graph dialect passes ----------------------------*- C++
//-*-===//

#ifndef GRAPHC_DIALECTS_GRAPH_PASSES_H
#define GRAPHC_DIALECTS_GRAPH_PASSES_H

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Pass/Pass.h"

namespace graphc::graph {

#define GEN_PASS_DECL
#include "graph/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "graph/Passes.h.inc"

} // namespace graphc::graph

#endif // GRAPHC_DIALECTS_GRAPH_PASSES_H
