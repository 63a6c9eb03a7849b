//===- GraphReductions.cpp - reduction ops --------------------------------===//

#include "graph/GraphOps.h"

#include "llvm/ADT/SmallBitVector.h"

using namespace mlir;
using namespace graphc::graph;

/// Normalises `axes` against `rank` into a mask of reduced dimensions, failing
/// (at `location`) on an axis out of range or named twice.
static FailureOr<llvm::SmallBitVector>
getReducedDims(std::optional<Location> location, StringRef opName,
               ArrayRef<int64_t> axes, int64_t rank) {
  llvm::SmallBitVector reduced(rank);
  for (int64_t axis : axes) {
    FailureOr<int64_t> dim = normalizeAxis(location, opName, axis, rank);
    if (failed(dim)) {
      return failure();
    }
    if (reduced.test(*dim)) {
      (void)emitOptionalError(location, opName, ": axis ", axis,
                              " names dimension ", *dim,
                              " which is already reduced");
      return failure();
    }
    reduced.set(*dim);
  }
  return reduced;
}

/// The shape of `input` with the `reduced` dimensions set to 1 (`keepdims`)
/// or removed.
static SmallVector<int64_t> getReducedShape(ArrayRef<int64_t> input,
                                            const llvm::SmallBitVector &reduced,
                                            bool keepdims) {
  SmallVector<int64_t> shape;
  for (auto [dim, size] : llvm::enumerate(input)) {
    if (!reduced.test(dim)) {
      shape.push_back(size);
    } else if (keepdims) {
      shape.push_back(1);
    }
  }
  return shape;
}

//===----------------------------------------------------------------------===//
// ReduceOp
//===----------------------------------------------------------------------===//

LogicalResult ReduceOp::inferReturnTypes(MLIRContext *,
                                         std::optional<Location> location,
                                         Adaptor adaptor,
                                         SmallVectorImpl<Type> &inferred) {
  auto inputType = cast<TensorType>(adaptor.getInput().getType());
  ReduceKind kind = adaptor.getKind();
  if (kind == ReduceKind::mean && !isa<FloatType>(inputType.getElementType())) {
    return emitOptionalError(location, getOperationName(),
                             ": reduce_kind mean needs a float element type, "
                             "got ",
                             inputType.getElementType());
  }
  ArrayRef<int64_t> axes = adaptor.getAxes();
  if (!inputType.hasRank()) {
    // Without a rank only literal repetitions can be caught.
    for (auto [i, axis] : llvm::enumerate(axes)) {
      if (llvm::is_contained(axes.take_front(i), axis)) {
        return emitOptionalError(location, getOperationName(), ": axis ", axis,
                                 " appears twice");
      }
    }
    inferred.push_back(inputType);
    return success();
  }
  FailureOr<llvm::SmallBitVector> reduced =
      getReducedDims(location, getOperationName(), axes, inputType.getRank());
  if (failed(reduced)) {
    return failure();
  }
  inferred.push_back(RankedTensorType::get(
      getReducedShape(inputType.getShape(), *reduced, adaptor.getKeepdims()),
      inputType.getElementType()));
  return success();
}

std::optional<int64_t> ReduceOp::getFlops() {
  // One combining step per input element.
  return getStaticNumElements(getInput().getType());
}

//===----------------------------------------------------------------------===//
// ArgReduceOp
//===----------------------------------------------------------------------===//

LogicalResult ArgReduceOp::inferReturnTypes(MLIRContext *context,
                                            std::optional<Location> location,
                                            Adaptor adaptor,
                                            SmallVectorImpl<Type> &inferred) {
  ReduceKind kind = adaptor.getKind();
  if (kind != ReduceKind::max && kind != ReduceKind::min) {
    return emitOptionalError(location, getOperationName(), ": reduce_kind ",
                             stringifyReduceKind(kind),
                             " is not supported, expected max or min");
  }
  auto inputType = cast<TensorType>(adaptor.getInput().getType());
  Type i64 = IntegerType::get(context, 64);
  if (!inputType.hasRank()) {
    inferred.push_back(UnrankedTensorType::get(i64));
    return success();
  }
  int64_t axis = adaptor.getAxis();
  FailureOr<llvm::SmallBitVector> reduced = getReducedDims(
      location, getOperationName(), ArrayRef(axis), inputType.getRank());
  if (failed(reduced)) {
    return failure();
  }
  inferred.push_back(RankedTensorType::get(
      getReducedShape(inputType.getShape(), *reduced, adaptor.getKeepdims()),
      i64));
  return success();
}

std::optional<int64_t> ArgReduceOp::getFlops() {
  // One comparison per input element.
  return getStaticNumElements(getInput().getType());
}
