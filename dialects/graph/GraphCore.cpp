//===- GraphCore.cpp - constant and identity ops --------------------------===//

#include "graph/GraphOps.h"

using namespace mlir;
using namespace graphc::graph;

//===----------------------------------------------------------------------===//
// ConstantOp
//===----------------------------------------------------------------------===//

LogicalResult ConstantOp::inferReturnTypes(MLIRContext *,
                                           std::optional<Location> location,
                                           Adaptor adaptor,
                                           SmallVectorImpl<Type> &inferred) {
  auto value = dyn_cast_if_present<ElementsAttr>(adaptor.getValueAttr());
  if (!value) {
    return emitOptionalError(location, "graph.constant: missing value");
  }
  inferred.push_back(value.getType());
  return success();
}

std::optional<int64_t> ConstantOp::getFlops() { return 0; }

OpFoldResult ConstantOp::fold(FoldAdaptor) { return getValueAttr(); }

//===----------------------------------------------------------------------===//
// IdentityOp
//===----------------------------------------------------------------------===//

LogicalResult IdentityOp::inferReturnTypes(MLIRContext *,
                                           std::optional<Location>,
                                           Adaptor adaptor,
                                           SmallVectorImpl<Type> &inferred) {
  inferred.push_back(adaptor.getInput().getType());
  return success();
}

std::optional<int64_t> IdentityOp::getFlops() { return 0; }

OpFoldResult IdentityOp::fold(FoldAdaptor) {
  // Only fold when the types match exactly; a refining identity must stay
  // until its users are refined (graph-infer-shapes does that).
  if (getInput().getType() == getType()) {
    return getInput();
  }
  return {};
}
