//===- GraphOps.h - graph dialect ops -----------------------------*- C++
//-*-===//

#ifndef GRAPHC_DIALECTS_GRAPH_GRAPHOPS_H
#define GRAPHC_DIALECTS_GRAPH_GRAPHOPS_H

#include "graph/GraphDialect.h"
#include "graph/GraphTypeUtils.h"

#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/InferTypeOpInterface.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include "graph/GraphEnums.h.inc"

#define GET_ATTRDEF_CLASSES
#include "graph/GraphAttrs.h.inc"

#include "graph/GraphInterfaces.h.inc"

namespace graphc::graph {
/// The state of all `graph.variable`s: `read_variable` reads it and
/// `assign_variable` writes it, so transformations keep their order.
struct VariableResource
    : public mlir::SideEffects::Resource::Base<VariableResource> {
  llvm::StringRef getName() final { return "graph.variable"; }
};
} // namespace graphc::graph

#define GET_OP_CLASSES
#include "graph/GraphOps.h.inc"

#endif // GRAPHC_DIALECTS_GRAPH_GRAPHOPS_H
