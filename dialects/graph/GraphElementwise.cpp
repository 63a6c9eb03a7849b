//===- GraphElementwise.cpp - elementwise ops -----------------------------===//
//
// Type inference for the elementwise base classes is generated from ODS
// (GraphElementwiseOps.td); this file holds what individual ops add.
//
//===----------------------------------------------------------------------===//

#include "graph/GraphOps.h"

using namespace mlir;
using namespace graphc::graph;

/// Broadcasts three operands: the two `values` must share their element type,
/// which the result takes; `third` contributes only its shape when
/// `thirdElementMustMatch` is false.
static LogicalResult inferBroadcastTernary(std::optional<Location> location,
                                           StringRef opName, Type third,
                                           Type value0, Type value1,
                                           bool thirdElementMustMatch,
                                           SmallVectorImpl<Type> &inferred) {
  SmallVector<Type, 1> values;
  if (failed(inferBroadcastBinary(location, opName, value0, value1,
                                  /*resultElementType=*/nullptr, values))) {
    return failure();
  }
  Type elementType = cast<TensorType>(values.front()).getElementType();
  return inferBroadcastBinary(location, opName, third, values.front(),
                              thirdElementMustMatch ? Type() : elementType,
                              inferred);
}

//===----------------------------------------------------------------------===//
// CastOp
//===----------------------------------------------------------------------===//

LogicalResult CastOp::inferReturnTypes(MLIRContext *,
                                       std::optional<Location> location,
                                       Adaptor adaptor,
                                       SmallVectorImpl<Type> &inferred) {
  Type to = adaptor.getTo();
  if (!isa<FloatType>(to) && !to.isSignlessInteger() &&
      !to.isUnsignedInteger()) {
    return emitOptionalError(location, "graph.cast: target type ", to,
                             " is not a float, signless or unsigned integer "
                             "type");
  }
  inferred.push_back(cast<TensorType>(adaptor.getInput().getType()).clone(to));
  return success();
}

//===----------------------------------------------------------------------===//
// ClampOp
//===----------------------------------------------------------------------===//

LogicalResult ClampOp::inferReturnTypes(MLIRContext *,
                                        std::optional<Location> location,
                                        Adaptor adaptor,
                                        SmallVectorImpl<Type> &inferred) {
  return inferBroadcastTernary(
      location, getOperationName(), adaptor.getInput().getType(),
      adaptor.getMin().getType(), adaptor.getMax().getType(),
      /*thirdElementMustMatch=*/true, inferred);
}

//===----------------------------------------------------------------------===//
// CompareOp
//===----------------------------------------------------------------------===//

LogicalResult CompareOp::inferReturnTypes(MLIRContext *context,
                                          std::optional<Location> location,
                                          Adaptor adaptor,
                                          SmallVectorImpl<Type> &inferred) {
  auto lhs = cast<TensorType>(adaptor.getLhs().getType());
  auto rhs = cast<TensorType>(adaptor.getRhs().getType());
  // The result is i1 whatever the operands are, so check their agreement here
  // rather than through inferBroadcastBinary's common element type.
  if (lhs.getElementType() != rhs.getElementType()) {
    return emitOptionalError(location, getOperationName(),
                             ": operand element types ", lhs.getElementType(),
                             " and ", rhs.getElementType(), " differ");
  }
  return inferBroadcastBinary(location, getOperationName(), lhs, rhs,
                              IntegerType::get(context, 1), inferred);
}

//===----------------------------------------------------------------------===//
// SelectOp
//===----------------------------------------------------------------------===//

LogicalResult SelectOp::inferReturnTypes(MLIRContext *,
                                         std::optional<Location> location,
                                         Adaptor adaptor,
                                         SmallVectorImpl<Type> &inferred) {
  return inferBroadcastTernary(
      location, getOperationName(), adaptor.getCond().getType(),
      adaptor.getTrueValue().getType(), adaptor.getFalseValue().getType(),
      /*thirdElementMustMatch=*/false, inferred);
}
