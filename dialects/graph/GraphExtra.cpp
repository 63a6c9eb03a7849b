//===- GraphExtra.cpp - math, bitwise and scan ops ------------------------===//
//
// Type inference, verification and cost of the ops in GraphExtraOps.td. The
// unary and broadcasting binary ops get theirs from their ODS base classes.
//
//===----------------------------------------------------------------------===//

#include "graph/GraphOps.h"

using namespace mlir;
using namespace graphc::graph;

//===----------------------------------------------------------------------===//
// GatherElementsOp
//===----------------------------------------------------------------------===//

LogicalResult
GatherElementsOp::inferReturnTypes(MLIRContext *, std::optional<Location> loc,
                                   Adaptor adaptor,
                                   SmallVectorImpl<Type> &inferred) {
  StringRef name = getOperationName();
  auto input = cast<RankedTensorType>(adaptor.getInput().getType());
  auto indices = cast<RankedTensorType>(adaptor.getIndices().getType());
  if (input.getRank() != indices.getRank()) {
    return emitOptionalError(loc, name, ": indices rank ", indices.getRank(),
                             " does not match the input rank ",
                             input.getRank());
  }
  if (input.getRank() == 0) {
    return emitOptionalError(loc, name, ": input must have rank >= 1");
  }
  FailureOr<int64_t> axis =
      normalizeAxis(loc, name, adaptor.getAxis(), input.getRank());
  if (failed(axis)) {
    return failure();
  }
  for (int64_t d = 0; d < input.getRank(); ++d) {
    int64_t in = input.getDimSize(d), idx = indices.getDimSize(d);
    if (d != *axis && !ShapedType::isDynamic(in) &&
        !ShapedType::isDynamic(idx) && idx > in) {
      return emitOptionalError(loc, name, ": indices dimension ", d, " is ",
                               idx, " but the input's is only ", in);
    }
  }
  inferred.push_back(
      RankedTensorType::get(indices.getShape(), input.getElementType()));
  return success();
}

std::optional<int64_t> GatherElementsOp::getFlops() { return 0; }

std::optional<int64_t> GatherElementsOp::getBytesMoved() {
  std::optional<int64_t> result = getStaticSizeInBytes(getType());
  std::optional<int64_t> index = getStaticSizeInBytes(getIndices().getType());
  if (!result || !index) {
    return std::nullopt;
  }
  // Reads one input element per result element, writes the result.
  return 2 * *result + *index;
}

//===----------------------------------------------------------------------===//
// CumulativeOp
//===----------------------------------------------------------------------===//

LogicalResult CumulativeOp::inferReturnTypes(MLIRContext *,
                                             std::optional<Location> loc,
                                             Adaptor adaptor,
                                             SmallVectorImpl<Type> &inferred) {
  StringRef name = getOperationName();
  auto input = cast<TensorType>(adaptor.getInput().getType());
  if (adaptor.getKind() == ReduceKind::mean) {
    return emitOptionalError(loc, name,
                             ": reduce_kind mean has no running form");
  }
  if (input.hasRank()) {
    if (input.getRank() == 0) {
      return emitOptionalError(loc, name, ": input must have rank >= 1");
    }
    if (failed(normalizeAxis(loc, name, adaptor.getAxis(), input.getRank()))) {
      return failure();
    }
  }
  inferred.push_back(input);
  return success();
}

std::optional<int64_t> CumulativeOp::getFlops() {
  // One combining step per result element (a sequential scan); the
  // lowering may do more.
  return getStaticNumElements(getType());
}

//===----------------------------------------------------------------------===//
// TopKOp
//===----------------------------------------------------------------------===//

LogicalResult TopKOp::inferReturnTypes(MLIRContext *ctx,
                                       std::optional<Location> loc,
                                       Adaptor adaptor,
                                       SmallVectorImpl<Type> &inferred) {
  StringRef name = getOperationName();
  auto input = cast<TensorType>(adaptor.getInput().getType());
  int64_t k = adaptor.getK();
  if (k < 0) {
    return emitOptionalError(loc, name, ": k ", k, " is negative");
  }
  Type i64 = IntegerType::get(ctx, 64);
  if (!input.hasRank()) {
    inferred.push_back(input);
    inferred.push_back(UnrankedTensorType::get(i64));
    return success();
  }
  if (input.getRank() == 0) {
    return emitOptionalError(loc, name, ": input must have rank >= 1");
  }
  FailureOr<int64_t> axis =
      normalizeAxis(loc, name, adaptor.getAxis(), input.getRank());
  if (failed(axis)) {
    return failure();
  }
  int64_t size = input.getDimSize(*axis);
  if (!ShapedType::isDynamic(size) && k > size) {
    return emitOptionalError(loc, name, ": k ", k, " exceeds the size ", size,
                             " of axis ", *axis);
  }
  SmallVector<int64_t> shape(input.getShape());
  shape[*axis] = k;
  inferred.push_back(RankedTensorType::get(shape, input.getElementType()));
  inferred.push_back(RankedTensorType::get(shape, i64));
  return success();
}

std::optional<int64_t> TopKOp::getFlops() {
  // A selection: about one comparison per input element and kept value.
  std::optional<int64_t> n = getStaticNumElements(getInput().getType());
  if (!n) {
    return std::nullopt;
  }
  return *n * std::max<int64_t>(1, getK());
}
