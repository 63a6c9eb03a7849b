//===- GraphShape.cpp - type inference and costs of data-movement ops -----===//
//
// Each op's inferReturnTypes is also its verifier: it checks every invariant
// of the op's operands and attributes and, given a location, reports the
// first violation there. Ops with an unranked operand check what they can
// (attribute ranges, element types) and infer an unranked result when the
// result rank cannot be known.
//
//===----------------------------------------------------------------------===//

#include "graph/GraphOps.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallBitVector.h"

using namespace mlir;
using namespace graphc::graph;

//===----------------------------------------------------------------------===//
// Helpers
//===----------------------------------------------------------------------===//

namespace {

bool isDyn(int64_t dim) { return ShapedType::isDynamic(dim); }

/// Prints a shape as "[2, ?, 3]" in diagnostics.
std::string shapeStr(ArrayRef<int64_t> shape) {
  std::string text = "[";
  llvm::raw_string_ostream os(text);
  llvm::interleaveComma(shape, os, [&](int64_t d) {
    if (isDyn(d)) {
      os << '?';
    } else {
      os << d;
    }
  });
  os << ']';
  return text;
}

/// Fails with "OP: missing 'NAME' attribute" when `attr` is null. Verified
/// ops always have their required attributes; this guards builders.
LogicalResult requireAttr(std::optional<Location> loc, StringRef opName,
                          Attribute attr, StringRef name) {
  if (attr) {
    return success();
  }
  return emitOptionalError(loc, opName, ": missing '", name, "' attribute");
}

/// Merges two sizes of a dimension that must agree: dynamic yields to
/// static. Returns std::nullopt on two different static sizes.
std::optional<int64_t> mergeDim(int64_t a, int64_t b) {
  if (isDyn(a)) {
    return b;
  }
  if (isDyn(b) || a == b) {
    return a;
  }
  return std::nullopt;
}

/// Normalises `axes` against `rank` into `out`, rejecting duplicates.
LogicalResult normalizeAxes(std::optional<Location> loc, StringRef opName,
                            ArrayRef<int64_t> axes, int64_t rank,
                            SmallVectorImpl<int64_t> &out) {
  llvm::SmallBitVector seen(rank);
  for (int64_t axis : axes) {
    FailureOr<int64_t> norm = normalizeAxis(loc, opName, axis, rank);
    if (failed(norm)) {
      return failure();
    }
    if (seen.test(*norm)) {
      return emitOptionalError(loc, opName, ": axis ", axis,
                               " repeats dimension ", *norm, " in axes [",
                               llvm::make_range(axes.begin(), axes.end()), "]");
    }
    seen.set(*norm);
    out.push_back(*norm);
  }
  return success();
}

/// Element count of a tensor type when it is known: static shape, or a
/// static zero dimension among dynamic ones.
std::optional<int64_t> knownNumElements(TensorType type) {
  if (!type.hasRank()) {
    return std::nullopt;
  }
  if (llvm::is_contained(type.getShape(), 0)) {
    return 0;
  }
  return getStaticNumElements(type);
}

/// Bytes of an op that reads only as many input elements as it writes
/// (slices and gathers), plus its index operand when it has one.
std::optional<int64_t> readsWhatItWrites(Operation *op, Value indices) {
  std::optional<int64_t> result =
      getStaticSizeInBytes(op->getResult(0).getType());
  if (!result) {
    return std::nullopt;
  }
  int64_t total = 2 * *result;
  if (indices) {
    std::optional<int64_t> index = getStaticSizeInBytes(indices.getType());
    if (!index) {
      return std::nullopt;
    }
    total += *index;
  }
  return total;
}

} // namespace

/// Resolves a reshape target `shape` (one -1 allowed) against the input's
/// element count; -1 becomes a static size when the count is known and a
/// dynamic one otherwise.
static FailureOr<SmallVector<int64_t>>
resolveReshape(std::optional<Location> loc, StringRef opName, TensorType input,
               ArrayRef<int64_t> shape) {
  SmallVector<int64_t> result(shape);
  std::optional<size_t> inferIndex;
  int64_t product = 1;
  for (auto [i, size] : llvm::enumerate(shape)) {
    if (size == -1) {
      if (inferIndex) {
        (void)emitOptionalError(loc, opName, ": more than one -1 in shape ",
                                shapeStr(shape));
        return failure();
      }
      inferIndex = i;
      continue;
    }
    if (size < -1) {
      (void)emitOptionalError(loc, opName, ": size ", size, " at index ", i,
                              " of shape ", shapeStr(shape), " is negative");
      return failure();
    }
    product *= size;
  }
  std::optional<int64_t> count = knownNumElements(input);
  if (inferIndex) {
    if (product == 0) {
      (void)emitOptionalError(loc, opName, ": cannot infer the -1 in shape ",
                              shapeStr(shape),
                              " because the other sizes multiply to 0");
      return failure();
    }
    if (!count) {
      result[*inferIndex] = ShapedType::kDynamic;
      return result;
    }
    if (*count % product != 0) {
      (void)emitOptionalError(loc, opName, ": cannot reshape ", *count,
                              " elements into shape ", shapeStr(shape));
      return failure();
    }
    result[*inferIndex] = *count / product;
    return result;
  }
  if (count && *count != product) {
    (void)emitOptionalError(loc, opName, ": cannot reshape ", *count,
                            " elements into shape ", shapeStr(shape), " of ",
                            product, " elements");
    return failure();
  }
  return result;
}

//===----------------------------------------------------------------------===//
// ReshapeOp
//===----------------------------------------------------------------------===//

LogicalResult ReshapeOp::inferReturnTypes(MLIRContext *,
                                          std::optional<Location> loc,
                                          Adaptor adaptor,
                                          SmallVectorImpl<Type> &inferred) {
  StringRef name = getOperationName();
  if (failed(requireAttr(loc, name, adaptor.getShapeAttr(), "shape"))) {
    return failure();
  }
  auto input = cast<TensorType>(adaptor.getInput().getType());
  FailureOr<SmallVector<int64_t>> shape =
      resolveReshape(loc, name, input, adaptor.getShape());
  if (failed(shape)) {
    return failure();
  }
  inferred.push_back(RankedTensorType::get(*shape, input.getElementType()));
  return success();
}

std::optional<int64_t> ReshapeOp::getFlops() { return 0; }

//===----------------------------------------------------------------------===//
// DynamicReshapeOp
//===----------------------------------------------------------------------===//

LogicalResult
DynamicReshapeOp::inferReturnTypes(MLIRContext *, std::optional<Location> loc,
                                   Adaptor adaptor,
                                   SmallVectorImpl<Type> &inferred) {
  auto input = cast<TensorType>(adaptor.getInput().getType());
  auto shapeType = cast<TensorType>(adaptor.getShape().getType());
  Type element = input.getElementType();
  if (!shapeType.hasRank() || shapeType.isDynamicDim(0)) {
    inferred.push_back(UnrankedTensorType::get(element));
    return success();
  }
  int64_t rank = shapeType.getDimSize(0);
  std::optional<int64_t> count = knownNumElements(input);
  if (rank == 0 && count && *count != 1) {
    return emitOptionalError(loc, getOperationName(), ": cannot reshape ",
                             *count, " elements into a 0-d tensor");
  }
  SmallVector<int64_t> shape(rank, ShapedType::kDynamic);
  inferred.push_back(RankedTensorType::get(shape, element));
  return success();
}

std::optional<int64_t> DynamicReshapeOp::getFlops() { return 0; }

//===----------------------------------------------------------------------===//
// TransposeOp
//===----------------------------------------------------------------------===//

LogicalResult TransposeOp::inferReturnTypes(MLIRContext *,
                                            std::optional<Location> loc,
                                            Adaptor adaptor,
                                            SmallVectorImpl<Type> &inferred) {
  StringRef name = getOperationName();
  if (failed(requireAttr(loc, name, adaptor.getPermAttr(), "perm"))) {
    return failure();
  }
  ArrayRef<int64_t> perm = adaptor.getPerm();
  auto input = cast<TensorType>(adaptor.getInput().getType());
  int64_t rank = perm.size();
  if (input.hasRank() && input.getRank() != rank) {
    return emitOptionalError(loc, name, ": perm ", shapeStr(perm), " has ",
                             rank, " entries for an input of rank ",
                             input.getRank());
  }
  llvm::SmallBitVector seen(rank);
  for (int64_t p : perm) {
    if (p < 0 || p >= rank || seen.test(p)) {
      return emitOptionalError(loc, name, ": perm ", shapeStr(perm),
                               " is not a permutation of 0..", rank - 1);
    }
    seen.set(p);
  }
  if (!input.hasRank()) {
    inferred.push_back(input);
    return success();
  }
  SmallVector<int64_t> shape;
  for (int64_t p : perm) {
    shape.push_back(input.getDimSize(p));
  }
  inferred.push_back(RankedTensorType::get(shape, input.getElementType()));
  return success();
}

std::optional<int64_t> TransposeOp::getFlops() { return 0; }

//===----------------------------------------------------------------------===//
// ConcatOp
//===----------------------------------------------------------------------===//

LogicalResult ConcatOp::inferReturnTypes(MLIRContext *,
                                         std::optional<Location> loc,
                                         Adaptor adaptor,
                                         SmallVectorImpl<Type> &inferred) {
  StringRef name = getOperationName();
  if (failed(requireAttr(loc, name, adaptor.getAxisAttr(), "axis"))) {
    return failure();
  }
  ValueRange inputs = adaptor.getInputs();
  if (inputs.empty()) {
    return emitOptionalError(loc, name, ": needs at least one input");
  }
  Type element = cast<TensorType>(inputs[0].getType()).getElementType();
  std::optional<SmallVector<int64_t>> shape;
  std::optional<int64_t> axis;
  bool axisDynamic = false;
  for (auto [i, value] : llvm::enumerate(inputs)) {
    auto type = cast<TensorType>(value.getType());
    if (type.getElementType() != element) {
      return emitOptionalError(loc, name, ": input ", i, " element type ",
                               type.getElementType(), " does not match ",
                               element);
    }
    if (!type.hasRank()) {
      axisDynamic = true;
      continue;
    }
    if (!shape) {
      FailureOr<int64_t> norm =
          normalizeAxis(loc, name, adaptor.getAxis(), type.getRank());
      if (failed(norm)) {
        return failure();
      }
      axis = *norm;
      shape.emplace(type.getShape());
      shape->data()[*axis] = 0;
    } else if (type.getRank() != (int64_t)shape->size()) {
      return emitOptionalError(loc, name, ": input ", i, " has rank ",
                               type.getRank(), " but earlier inputs have rank ",
                               shape->size());
    }
    for (auto [d, size] : llvm::enumerate(type.getShape())) {
      if ((int64_t)d == *axis) {
        if (isDyn(size)) {
          axisDynamic = true;
        } else {
          (*shape)[d] += size;
        }
        continue;
      }
      std::optional<int64_t> merged = mergeDim((*shape)[d], size);
      if (!merged) {
        return emitOptionalError(loc, name, ": input ", i, " has size ", size,
                                 " in dimension ", d,
                                 " where earlier inputs have ", (*shape)[d]);
      }
      (*shape)[d] = *merged;
    }
  }
  if (!shape) {
    inferred.push_back(UnrankedTensorType::get(element));
    return success();
  }
  if (axisDynamic) {
    (*shape)[*axis] = ShapedType::kDynamic;
  }
  inferred.push_back(RankedTensorType::get(*shape, element));
  return success();
}

std::optional<int64_t> ConcatOp::getFlops() { return 0; }

//===----------------------------------------------------------------------===//
// SplitOp
//===----------------------------------------------------------------------===//

LogicalResult SplitOp::inferReturnTypes(MLIRContext *,
                                        std::optional<Location> loc,
                                        Adaptor adaptor,
                                        SmallVectorImpl<Type> &inferred) {
  StringRef name = getOperationName();
  if (failed(requireAttr(loc, name, adaptor.getAxisAttr(), "axis")) ||
      failed(requireAttr(loc, name, adaptor.getSizesAttr(), "sizes"))) {
    return failure();
  }
  ArrayRef<int64_t> sizes = adaptor.getSizes();
  auto input = cast<TensorType>(adaptor.getInput().getType());
  if (sizes.empty()) {
    return emitOptionalError(loc, name, ": sizes must not be empty");
  }
  std::optional<size_t> restIndex;
  int64_t sum = 0;
  for (auto [i, size] : llvm::enumerate(sizes)) {
    if (size == -1 && !restIndex) {
      restIndex = i;
      continue;
    }
    if (size < 0) {
      return emitOptionalError(loc, name, ": sizes ", shapeStr(sizes),
                               " may hold non-negative sizes and one -1");
    }
    sum += size;
  }
  if (!input.hasRank()) {
    inferred.append(sizes.size(), input);
    return success();
  }
  FailureOr<int64_t> axis =
      normalizeAxis(loc, name, adaptor.getAxis(), input.getRank());
  if (failed(axis)) {
    return failure();
  }
  int64_t dim = input.getDimSize(*axis);
  int64_t rest = ShapedType::kDynamic;
  if (!isDyn(dim)) {
    if (restIndex ? sum > dim : sum != dim) {
      return emitOptionalError(loc, name, ": sizes ", shapeStr(sizes),
                               " do not add up to ", dim, ", the size of axis ",
                               *axis);
    }
    rest = dim - sum;
  }
  SmallVector<int64_t> shape(input.getShape());
  for (auto [i, size] : llvm::enumerate(sizes)) {
    shape[*axis] = restIndex && i == *restIndex ? rest : size;
    inferred.push_back(RankedTensorType::get(shape, input.getElementType()));
  }
  return success();
}

std::optional<int64_t> SplitOp::getFlops() { return 0; }

//===----------------------------------------------------------------------===//
// SliceOp
//===----------------------------------------------------------------------===//

LogicalResult SliceOp::inferReturnTypes(MLIRContext *,
                                        std::optional<Location> loc,
                                        Adaptor adaptor,
                                        SmallVectorImpl<Type> &inferred) {
  StringRef name = getOperationName();
  if (failed(requireAttr(loc, name, adaptor.getStartsAttr(), "starts")) ||
      failed(requireAttr(loc, name, adaptor.getLimitsAttr(), "limits")) ||
      failed(requireAttr(loc, name, adaptor.getStridesAttr(), "strides"))) {
    return failure();
  }
  ArrayRef<int64_t> starts = adaptor.getStarts();
  ArrayRef<int64_t> limits = adaptor.getLimits();
  ArrayRef<int64_t> strides = adaptor.getStrides();
  auto input = cast<TensorType>(adaptor.getInput().getType());
  if (starts.size() != limits.size() || starts.size() != strides.size()) {
    return emitOptionalError(loc, name, ": starts, limits and strides have ",
                             starts.size(), ", ", limits.size(), " and ",
                             strides.size(), " entries");
  }
  int64_t rank = starts.size();
  if (input.hasRank() && input.getRank() != rank) {
    return emitOptionalError(loc, name, ": ", rank,
                             " entries per attribute for an input of rank ",
                             input.getRank());
  }
  SmallVector<int64_t> shape;
  for (int64_t d = 0; d < rank; ++d) {
    int64_t start = starts[d], limit = limits[d], stride = strides[d];
    if (stride == 0) {
      return emitOptionalError(loc, name, ": stride of dimension ", d, " is 0");
    }
    // Valid positions: [0, dim] going forward, [-1, dim - 1] going back;
    // -1 and dim are one-past-the-end.
    int64_t lo = stride > 0 ? 0 : -1;
    int64_t dim = input.hasRank() ? input.getDimSize(d) : ShapedType::kDynamic;
    std::optional<int64_t> hi;
    if (!isDyn(dim)) {
      hi = stride > 0 ? dim : dim - 1;
    }
    auto check = [&](int64_t value, StringRef what) -> LogicalResult {
      if (value >= lo && (!hi || value <= *hi)) {
        return success();
      }
      if (hi) {
        return emitOptionalError(loc, name, ": ", what, " ", value,
                                 " of dimension ", d, " is outside [", lo, ", ",
                                 *hi, "] for stride ", stride);
      }
      return emitOptionalError(loc, name, ": ", what, " ", value,
                               " of dimension ", d, " is below ", lo,
                               " for stride ", stride);
    };
    if (failed(check(start, "start")) || failed(check(limit, "limit"))) {
      return failure();
    }
    int64_t span = stride > 0 ? limit - start : start - limit;
    int64_t step = stride > 0 ? stride : -stride;
    shape.push_back(span <= 0 ? 0 : (span + step - 1) / step);
  }
  inferred.push_back(RankedTensorType::get(shape, input.getElementType()));
  return success();
}

std::optional<int64_t> SliceOp::getFlops() { return 0; }

std::optional<int64_t> SliceOp::getBytesMoved() {
  return readsWhatItWrites(*this, Value());
}

//===----------------------------------------------------------------------===//
// GatherOp
//===----------------------------------------------------------------------===//

LogicalResult GatherOp::inferReturnTypes(MLIRContext *,
                                         std::optional<Location> loc,
                                         Adaptor adaptor,
                                         SmallVectorImpl<Type> &inferred) {
  StringRef name = getOperationName();
  auto input = cast<TensorType>(adaptor.getInput().getType());
  auto indices = cast<TensorType>(adaptor.getIndices().getType());
  int64_t batchDims = adaptor.getBatchDims();
  if (batchDims < 0) {
    return emitOptionalError(loc, name, ": batch_dims ", batchDims,
                             " is negative");
  }
  if (!input.hasRank() || !indices.hasRank()) {
    inferred.push_back(UnrankedTensorType::get(input.getElementType()));
    return success();
  }
  FailureOr<int64_t> axis =
      normalizeAxis(loc, name, adaptor.getAxis(), input.getRank());
  if (failed(axis)) {
    return failure();
  }
  if (batchDims > indices.getRank()) {
    return emitOptionalError(loc, name, ": batch_dims ", batchDims,
                             " exceeds the indices rank ", indices.getRank());
  }
  if (batchDims > *axis) {
    return emitOptionalError(loc, name, ": batch_dims ", batchDims,
                             " exceeds the axis ", *axis);
  }
  SmallVector<int64_t> shape;
  for (int64_t d = 0; d < *axis; ++d) {
    int64_t size = input.getDimSize(d);
    if (d < batchDims) {
      std::optional<int64_t> merged = mergeDim(size, indices.getDimSize(d));
      if (!merged) {
        return emitOptionalError(loc, name, ": batch dimension ", d, " is ",
                                 size, " in the input but ",
                                 indices.getDimSize(d), " in the indices");
      }
      size = *merged;
    }
    shape.push_back(size);
  }
  llvm::append_range(shape, indices.getShape().drop_front(batchDims));
  llvm::append_range(shape, input.getShape().drop_front(*axis + 1));
  inferred.push_back(RankedTensorType::get(shape, input.getElementType()));
  return success();
}

std::optional<int64_t> GatherOp::getFlops() { return 0; }

std::optional<int64_t> GatherOp::getBytesMoved() {
  return readsWhatItWrites(*this, getIndices());
}

//===----------------------------------------------------------------------===//
// GatherNdOp
//===----------------------------------------------------------------------===//

LogicalResult GatherNdOp::inferReturnTypes(MLIRContext *,
                                           std::optional<Location> loc,
                                           Adaptor adaptor,
                                           SmallVectorImpl<Type> &inferred) {
  StringRef name = getOperationName();
  auto input = cast<TensorType>(adaptor.getInput().getType());
  auto indices = cast<TensorType>(adaptor.getIndices().getType());
  int64_t batchDims = adaptor.getBatchDims();
  Type element = input.getElementType();
  if (batchDims < 0) {
    return emitOptionalError(loc, name, ": batch_dims ", batchDims,
                             " is negative");
  }
  if (!input.hasRank() || !indices.hasRank()) {
    inferred.push_back(UnrankedTensorType::get(element));
    return success();
  }
  int64_t rank = input.getRank();
  if (batchDims >= rank || batchDims >= indices.getRank()) {
    return emitOptionalError(loc, name, ": batch_dims ", batchDims,
                             " must be less than the input rank ", rank,
                             " and the indices rank ", indices.getRank());
  }
  int64_t depth = indices.getShape().back();
  if (isDyn(depth)) {
    inferred.push_back(UnrankedTensorType::get(element));
    return success();
  }
  if (depth < 1 || depth > rank - batchDims) {
    return emitOptionalError(loc, name, ": index depth ", depth,
                             " (last dimension of the indices) is outside [1, ",
                             rank - batchDims, "]");
  }
  SmallVector<int64_t> shape(indices.getShape().drop_back());
  for (int64_t d = 0; d < batchDims; ++d) {
    std::optional<int64_t> merged = mergeDim(input.getDimSize(d), shape[d]);
    if (!merged) {
      return emitOptionalError(loc, name, ": batch dimension ", d, " is ",
                               input.getDimSize(d), " in the input but ",
                               shape[d], " in the indices");
    }
    shape[d] = *merged;
  }
  llvm::append_range(shape, input.getShape().drop_front(batchDims + depth));
  inferred.push_back(RankedTensorType::get(shape, element));
  return success();
}

std::optional<int64_t> GatherNdOp::getFlops() { return 0; }

std::optional<int64_t> GatherNdOp::getBytesMoved() {
  return readsWhatItWrites(*this, getIndices());
}

//===----------------------------------------------------------------------===//
// ScatterElementsOp
//===----------------------------------------------------------------------===//

LogicalResult
ScatterElementsOp::inferReturnTypes(MLIRContext *, std::optional<Location> loc,
                                    Adaptor adaptor,
                                    SmallVectorImpl<Type> &inferred) {
  StringRef name = getOperationName();
  auto input = cast<TensorType>(adaptor.getInput().getType());
  auto indices = cast<TensorType>(adaptor.getIndices().getType());
  auto updates = cast<TensorType>(adaptor.getUpdates().getType());
  if (updates.getElementType() != input.getElementType()) {
    return emitOptionalError(
        loc, name, ": updates element type ", updates.getElementType(),
        " does not match the input element type ", input.getElementType());
  }
  // The positions written: indices and updates share one shape.
  std::optional<SmallVector<int64_t>> positions;
  if (indices.hasRank()) {
    positions.emplace(indices.getShape());
  }
  if (updates.hasRank()) {
    if (positions && positions->size() != (size_t)updates.getRank()) {
      return emitOptionalError(
          loc, name, ": indices shape ", shapeStr(indices.getShape()),
          " and updates shape ", shapeStr(updates.getShape()), " differ");
    }
    if (!positions) {
      positions.emplace(updates.getShape());
    } else {
      for (auto [d, size] : llvm::enumerate(updates.getShape())) {
        std::optional<int64_t> merged = mergeDim((*positions)[d], size);
        if (!merged) {
          return emitOptionalError(
              loc, name, ": indices shape ", shapeStr(indices.getShape()),
              " and updates shape ", shapeStr(updates.getShape()), " differ");
        }
        (*positions)[d] = *merged;
      }
    }
  }
  if (input.hasRank()) {
    FailureOr<int64_t> axis =
        normalizeAxis(loc, name, adaptor.getAxis(), input.getRank());
    if (failed(axis)) {
      return failure();
    }
    if (positions) {
      if ((int64_t)positions->size() != input.getRank()) {
        return emitOptionalError(loc, name, ": indices and updates have rank ",
                                 positions->size(), " but the input has rank ",
                                 input.getRank());
      }
      for (auto [d, size] : llvm::enumerate(*positions)) {
        int64_t bound = input.getDimSize(d);
        if ((int64_t)d != *axis && !isDyn(size) && !isDyn(bound) &&
            size > bound) {
          return emitOptionalError(loc, name, ": indices and updates have ",
                                   size, " elements in dimension ", d,
                                   ", more than the input's ", bound);
        }
      }
    }
  }
  inferred.push_back(input);
  return success();
}

std::optional<int64_t> ScatterElementsOp::getFlops() { return 0; }

//===----------------------------------------------------------------------===//
// ScatterNdOp
//===----------------------------------------------------------------------===//

LogicalResult ScatterNdOp::inferReturnTypes(MLIRContext *,
                                            std::optional<Location> loc,
                                            Adaptor adaptor,
                                            SmallVectorImpl<Type> &inferred) {
  StringRef name = getOperationName();
  auto input = cast<TensorType>(adaptor.getInput().getType());
  auto indices = cast<TensorType>(adaptor.getIndices().getType());
  auto updates = cast<TensorType>(adaptor.getUpdates().getType());
  if (updates.getElementType() != input.getElementType()) {
    return emitOptionalError(
        loc, name, ": updates element type ", updates.getElementType(),
        " does not match the input element type ", input.getElementType());
  }
  if (indices.hasRank() && indices.getRank() == 0) {
    return emitOptionalError(loc, name, ": indices must have rank >= 1");
  }
  inferred.push_back(input);
  if (!input.hasRank() || !indices.hasRank()) {
    return success();
  }
  int64_t depth = indices.getShape().back();
  if (isDyn(depth)) {
    return success();
  }
  if (depth < 1 || depth > input.getRank()) {
    return emitOptionalError(loc, name, ": index depth ", depth,
                             " (last dimension of the indices) is outside [1, ",
                             input.getRank(), "]");
  }
  if (!updates.hasRank()) {
    return success();
  }
  SmallVector<int64_t> expected(indices.getShape().drop_back());
  llvm::append_range(expected, input.getShape().drop_front(depth));
  bool ok = (int64_t)expected.size() == updates.getRank();
  for (size_t d = 0; ok && d < expected.size(); ++d) {
    ok = mergeDim(expected[d], updates.getDimSize(d)).has_value();
  }
  if (!ok) {
    return emitOptionalError(
        loc, name, ": updates shape ", shapeStr(updates.getShape()),
        " does not match ", shapeStr(expected),
        " (indices.shape[:-1] + input.shape[", depth, ":])");
  }
  return success();
}

std::optional<int64_t> ScatterNdOp::getFlops() { return 0; }

//===----------------------------------------------------------------------===//
// PadOp
//===----------------------------------------------------------------------===//

LogicalResult PadOp::inferReturnTypes(MLIRContext *,
                                      std::optional<Location> loc,
                                      Adaptor adaptor,
                                      SmallVectorImpl<Type> &inferred) {
  StringRef name = getOperationName();
  if (failed(requireAttr(loc, name, adaptor.getLowAttr(), "low")) ||
      failed(requireAttr(loc, name, adaptor.getHighAttr(), "high"))) {
    return failure();
  }
  auto input = cast<TensorType>(adaptor.getInput().getType());
  auto value = cast<TensorType>(adaptor.getPaddingValue().getType());
  ArrayRef<int64_t> low = adaptor.getLow();
  ArrayRef<int64_t> high = adaptor.getHigh();
  PadMode mode = adaptor.getMode();
  if (value.getElementType() != input.getElementType()) {
    return emitOptionalError(
        loc, name, ": padding value element type ", value.getElementType(),
        " does not match the input element type ", input.getElementType());
  }
  if (low.size() != high.size()) {
    return emitOptionalError(loc, name, ": low has ", low.size(),
                             " entries but high has ", high.size());
  }
  if (input.hasRank() && (int64_t)low.size() != input.getRank()) {
    return emitOptionalError(loc, name, ": low and high have ", low.size(),
                             " entries for an input of rank ", input.getRank());
  }
  for (auto [d, l, h] : llvm::enumerate(low, high)) {
    if (l < 0 || h < 0) {
      return emitOptionalError(loc, name, ": pad (", l, ", ", h,
                               ") of dimension ", d, " is negative");
    }
  }
  if (!input.hasRank()) {
    inferred.push_back(input);
    return success();
  }
  SmallVector<int64_t> shape;
  for (auto [d, size] : llvm::enumerate(input.getShape())) {
    int64_t l = low[d], h = high[d];
    if (!isDyn(size)) {
      if (mode == PadMode::reflect && (l >= size || h >= size)) {
        return emitOptionalError(loc, name, ": reflect pad (", l, ", ", h,
                                 ") of dimension ", d,
                                 " must be smaller than its size ", size);
      }
      if (mode == PadMode::edge && size == 0 && (l > 0 || h > 0)) {
        return emitOptionalError(loc, name, ": edge pad of dimension ", d,
                                 ", which is empty");
      }
    }
    shape.push_back(isDyn(size) ? size : size + l + h);
  }
  inferred.push_back(RankedTensorType::get(shape, input.getElementType()));
  return success();
}

std::optional<int64_t> PadOp::getFlops() { return 0; }

//===----------------------------------------------------------------------===//
// BroadcastToOp
//===----------------------------------------------------------------------===//

LogicalResult BroadcastToOp::inferReturnTypes(MLIRContext *,
                                              std::optional<Location> loc,
                                              Adaptor adaptor,
                                              SmallVectorImpl<Type> &inferred) {
  StringRef name = getOperationName();
  if (failed(requireAttr(loc, name, adaptor.getShapeAttr(), "shape"))) {
    return failure();
  }
  auto input = cast<TensorType>(adaptor.getInput().getType());
  ArrayRef<int64_t> shape = adaptor.getShape();
  for (int64_t size : shape) {
    if (size < 0) {
      return emitOptionalError(loc, name, ": shape ", shapeStr(shape),
                               " has a negative size");
    }
  }
  if (input.hasRank()) {
    int64_t rank = input.getRank();
    int64_t lead = shape.size() - rank;
    if (lead < 0) {
      return emitOptionalError(loc, name, ": cannot broadcast rank ", rank,
                               " to shape ", shapeStr(shape), " of rank ",
                               shape.size());
    }
    for (auto [d, size] : llvm::enumerate(input.getShape())) {
      int64_t target = shape[lead + d];
      if (!isDyn(size) && size != 1 && size != target) {
        return emitOptionalError(loc, name, ": cannot broadcast input shape ",
                                 shapeStr(input.getShape()), " to ",
                                 shapeStr(shape), ": dimension ", d, " is ",
                                 size);
      }
    }
  }
  inferred.push_back(RankedTensorType::get(shape, input.getElementType()));
  return success();
}

std::optional<int64_t> BroadcastToOp::getFlops() { return 0; }

//===----------------------------------------------------------------------===//
// SqueezeOp / UnsqueezeOp
//===----------------------------------------------------------------------===//

LogicalResult SqueezeOp::inferReturnTypes(MLIRContext *,
                                          std::optional<Location> loc,
                                          Adaptor adaptor,
                                          SmallVectorImpl<Type> &inferred) {
  StringRef name = getOperationName();
  if (failed(requireAttr(loc, name, adaptor.getAxesAttr(), "axes"))) {
    return failure();
  }
  auto input = cast<TensorType>(adaptor.getInput().getType());
  if (!input.hasRank()) {
    inferred.push_back(input);
    return success();
  }
  SmallVector<int64_t> axes;
  if (failed(
          normalizeAxes(loc, name, adaptor.getAxes(), input.getRank(), axes))) {
    return failure();
  }
  SmallVector<int64_t> shape;
  for (auto [d, size] : llvm::enumerate(input.getShape())) {
    if (!llvm::is_contained(axes, (int64_t)d)) {
      shape.push_back(size);
      continue;
    }
    if (!isDyn(size) && size != 1) {
      return emitOptionalError(loc, name, ": cannot squeeze dimension ", d,
                               " of size ", size);
    }
  }
  inferred.push_back(RankedTensorType::get(shape, input.getElementType()));
  return success();
}

std::optional<int64_t> SqueezeOp::getFlops() { return 0; }

LogicalResult UnsqueezeOp::inferReturnTypes(MLIRContext *,
                                            std::optional<Location> loc,
                                            Adaptor adaptor,
                                            SmallVectorImpl<Type> &inferred) {
  StringRef name = getOperationName();
  if (failed(requireAttr(loc, name, adaptor.getAxesAttr(), "axes"))) {
    return failure();
  }
  auto input = cast<TensorType>(adaptor.getInput().getType());
  if (!input.hasRank()) {
    inferred.push_back(input);
    return success();
  }
  ArrayRef<int64_t> rawAxes = adaptor.getAxes();
  int64_t rank = input.getRank() + rawAxes.size();
  SmallVector<int64_t> axes;
  if (failed(normalizeAxes(loc, name, rawAxes, rank, axes))) {
    return failure();
  }
  SmallVector<int64_t> shape;
  ArrayRef<int64_t> rest = input.getShape();
  for (int64_t d = 0; d < rank; ++d) {
    if (llvm::is_contained(axes, d)) {
      shape.push_back(1);
    } else {
      shape.push_back(rest.front());
      rest = rest.drop_front();
    }
  }
  inferred.push_back(RankedTensorType::get(shape, input.getElementType()));
  return success();
}

std::optional<int64_t> UnsqueezeOp::getFlops() { return 0; }

//===----------------------------------------------------------------------===//
// TileOp
//===----------------------------------------------------------------------===//

LogicalResult TileOp::inferReturnTypes(MLIRContext *,
                                       std::optional<Location> loc,
                                       Adaptor adaptor,
                                       SmallVectorImpl<Type> &inferred) {
  StringRef name = getOperationName();
  if (failed(requireAttr(loc, name, adaptor.getMultiplesAttr(), "multiples"))) {
    return failure();
  }
  auto input = cast<TensorType>(adaptor.getInput().getType());
  ArrayRef<int64_t> multiples = adaptor.getMultiples();
  for (int64_t m : multiples) {
    if (m < 0) {
      return emitOptionalError(loc, name, ": multiples ", shapeStr(multiples),
                               " has a negative entry");
    }
  }
  if (!input.hasRank()) {
    inferred.push_back(input);
    return success();
  }
  if ((int64_t)multiples.size() != input.getRank()) {
    return emitOptionalError(loc, name, ": multiples has ", multiples.size(),
                             " entries for an input of rank ", input.getRank());
  }
  SmallVector<int64_t> shape;
  for (auto [size, m] : llvm::zip_equal(input.getShape(), multiples)) {
    shape.push_back(m == 0 ? 0 : isDyn(size) ? size : size * m);
  }
  inferred.push_back(RankedTensorType::get(shape, input.getElementType()));
  return success();
}

std::optional<int64_t> TileOp::getFlops() { return 0; }

//===----------------------------------------------------------------------===//
// OneHotOp
//===----------------------------------------------------------------------===//

LogicalResult OneHotOp::inferReturnTypes(MLIRContext *,
                                         std::optional<Location> loc,
                                         Adaptor adaptor,
                                         SmallVectorImpl<Type> &inferred) {
  StringRef name = getOperationName();
  if (failed(requireAttr(loc, name, adaptor.getDepthAttr(), "depth"))) {
    return failure();
  }
  auto indices = cast<TensorType>(adaptor.getIndices().getType());
  Type on = cast<TensorType>(adaptor.getOnValue().getType()).getElementType();
  Type off = cast<TensorType>(adaptor.getOffValue().getType()).getElementType();
  int64_t depth = adaptor.getDepth();
  if (depth <= 0) {
    return emitOptionalError(loc, name, ": depth ", depth, " is not positive");
  }
  if (on != off) {
    return emitOptionalError(loc, name, ": on_value element type ", on,
                             " differs from off_value element type ", off);
  }
  if (!indices.hasRank()) {
    inferred.push_back(UnrankedTensorType::get(on));
    return success();
  }
  FailureOr<int64_t> axis =
      normalizeAxis(loc, name, adaptor.getAxis(), indices.getRank() + 1);
  if (failed(axis)) {
    return failure();
  }
  SmallVector<int64_t> shape(indices.getShape());
  shape.insert(shape.begin() + *axis, depth);
  inferred.push_back(RankedTensorType::get(shape, on));
  return success();
}

std::optional<int64_t> OneHotOp::getFlops() { return 0; }

//===----------------------------------------------------------------------===//
// ShapeOfOp
//===----------------------------------------------------------------------===//

LogicalResult ShapeOfOp::inferReturnTypes(MLIRContext *ctx,
                                          std::optional<Location> loc,
                                          Adaptor adaptor,
                                          SmallVectorImpl<Type> &inferred) {
  auto input = cast<TensorType>(adaptor.getInput().getType());
  if (!input.hasRank()) {
    return emitOptionalError(loc, getOperationName(),
                             ": input must be ranked, not ", input);
  }
  inferred.push_back(
      RankedTensorType::get({input.getRank()}, IntegerType::get(ctx, 64)));
  return success();
}

std::optional<int64_t> ShapeOfOp::getFlops() { return 0; }

// Only the input's type is read, never its elements.
std::optional<int64_t> ShapeOfOp::getBytesMoved() {
  return getStaticSizeInBytes(getType());
}
