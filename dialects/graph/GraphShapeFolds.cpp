//===- GraphShapeFolds.cpp - folders and canonicalizations of data movement
//===//
//
// Folders remove no-op data movement (identity reshapes, permutations, pads,
// tiles, slices), merge chains (reshape of reshape, transpose of transpose)
// and fold constants through reshape, transpose, broadcast_to, squeeze,
// unsqueeze, slice, split, concat and gather (the shape arithmetic of exported
// models: Shape -> Gather -> Concat -> Reshape becomes a static reshape).
// Canonical form: static squeeze/unsqueeze and dynamic_reshape of a constant
// shape become graph.reshape, which the folders then handle.
//
// A folder only returns a value of exactly the op's result type; a rewrite
// that re-infers a type checks it against the declared one first.
//
//===----------------------------------------------------------------------===//

#include "graph/GraphOps.h"

#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"

using namespace mlir;
using namespace graphc::graph;

namespace {

/// Dense constants up to this many elements are rearranged element by
/// element; larger non-splat constants are left to run time.
constexpr int64_t kMaxFoldElements = 1 << 16;

/// A dense constant whose elements may be copied one by one into a
/// statically shaped `resultType`.
DenseElementsAttr getFoldableDense(Attribute attr, Type resultType) {
  auto dense = dyn_cast_if_present<DenseElementsAttr>(attr);
  auto result = dyn_cast<RankedTensorType>(resultType);
  if (!dense || !result || !result.hasStaticShape() ||
      dense.getElementType() != result.getElementType()) {
    return {};
  }
  if (!dense.isSplat() && (dense.getNumElements() > kMaxFoldElements ||
                           result.getNumElements() > kMaxFoldElements)) {
    return {};
  }
  return dense;
}

/// Row-major strides of `shape`.
SmallVector<int64_t> getRowMajorStrides(ArrayRef<int64_t> shape) {
  SmallVector<int64_t> strides(shape.size(), 1);
  for (int64_t d = (int64_t)shape.size() - 2; d >= 0; --d) {
    strides[d] = strides[d + 1] * shape[d + 1];
  }
  return strides;
}

/// Builds a constant of `resultType` whose element at result index `r` is
/// `input`'s element at linear index `sourceIndex(r)`.
DenseElementsAttr
gatherElements(DenseElementsAttr input, RankedTensorType resultType,
               llvm::function_ref<int64_t(ArrayRef<int64_t>)> sourceIndex) {
  if (input.isSplat()) {
    return input.resizeSplat(resultType);
  }
  SmallVector<Attribute> source(input.getValues<Attribute>());
  ArrayRef<int64_t> shape = resultType.getShape();
  SmallVector<Attribute> values;
  values.reserve(resultType.getNumElements());
  SmallVector<int64_t> index(shape.size(), 0);
  for (int64_t n = 0, e = resultType.getNumElements(); n < e; ++n) {
    values.push_back(source[sourceIndex(index)]);
    // Advance the row-major multi-index.
    for (int64_t d = (int64_t)shape.size() - 1; d >= 0; --d) {
      if (++index[d] < shape[d]) {
        break;
      }
      index[d] = 0;
    }
  }
  return DenseElementsAttr::get(resultType, values);
}

/// Reshapes a dense constant to the static `resultType`.
OpFoldResult reshapeConstant(Attribute attr, Type resultType) {
  DenseElementsAttr dense = getFoldableDense(attr, resultType);
  if (!dense ||
      dense.getNumElements() != cast<ShapedType>(resultType).getNumElements()) {
    return {};
  }
  return dense.reshape(cast<ShapedType>(resultType));
}

bool allEqual(ArrayRef<int64_t> values, int64_t v) {
  return llvm::all_of(values, [&](int64_t x) { return x == v; });
}

/// Whether `shape` (a reshape target) leaves `type` as it is.
bool isIdentityReshape(Type type, ArrayRef<int64_t> shape) {
  auto ranked = dyn_cast<RankedTensorType>(type);
  if (!ranked || ranked.getRank() != (int64_t)shape.size()) {
    return false;
  }
  // Every size matches the input's static size or is the single -1, which
  // then resolves to the one dimension left (static or dynamic).
  for (auto [dim, size] : llvm::zip_equal(ranked.getShape(), shape)) {
    if (size != -1 && size != dim) {
      return false;
    }
  }
  return true;
}

/// Result types of a graph.reshape of `input` to `shape`, or failure when
/// that reshape would not verify or would contradict `declared`.
LogicalResult checkReshape(Value input, ArrayRef<int64_t> shape,
                           Type declared) {
  ReshapeOp::Properties props;
  props.setShape(DenseI64ArrayAttr::get(input.getContext(), shape));
  // The adaptor keeps a reference to its operand range, so it must outlive it.
  SmallVector<Value, 1> operands{input};
  ReshapeOp::Adaptor adaptor(operands, nullptr, props);
  SmallVector<Type> inferred;
  if (failed(ReshapeOp::inferReturnTypes(input.getContext(), std::nullopt,
                                         adaptor, inferred))) {
    return failure();
  }
  return success(refineTensorType(inferred[0], declared) != nullptr);
}

} // namespace

//===----------------------------------------------------------------------===//
// ReshapeOp
//===----------------------------------------------------------------------===//

OpFoldResult ReshapeOp::fold(FoldAdaptor adaptor) {
  if (OpFoldResult folded = reshapeConstant(adaptor.getInput(), getType())) {
    return folded;
  }
  if (getInput().getType() == getType() &&
      isIdentityReshape(getInput().getType(), getShape())) {
    return getInput();
  }
  // A reshape only reads its input in row-major order, so any reshaping op
  // before it can be skipped, as long as the result still verifies (a
  // dynamic_reshape may have hidden an element count that does not match).
  Operation *def = getInput().getDefiningOp();
  if (def && isa<ReshapeOp, DynamicReshapeOp, SqueezeOp, UnsqueezeOp>(def)) {
    Value source = def->getOperand(0);
    if (succeeded(checkReshape(source, getShape(), getType()))) {
      getInputMutable().assign(source);
      return getResult();
    }
  }
  return {};
}

//===----------------------------------------------------------------------===//
// DynamicReshapeOp
//===----------------------------------------------------------------------===//

namespace {
/// dynamic_reshape(x, constant) -> reshape(x).
struct DynamicReshapeOfConstantShape
    : public OpRewritePattern<DynamicReshapeOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(DynamicReshapeOp op,
                                PatternRewriter &rewriter) const override {
    DenseIntElementsAttr shapeAttr;
    if (!matchPattern(op.getShape(), m_Constant(&shapeAttr))) {
      return failure();
    }
    SmallVector<int64_t> shape;
    for (const APInt &size : shapeAttr.getValues<APInt>()) {
      shape.push_back(size.getSExtValue());
    }
    // Graph.reshape's result must be ranked; keep the declared type so no
    // user sees a type change (graph-infer-shapes refines it later).
    if (!isa<RankedTensorType>(op.getType()) ||
        failed(checkReshape(op.getInput(), shape, op.getType()))) {
      return rewriter.notifyMatchFailure(op, "shape would not verify");
    }
    rewriter.replaceOpWithNewOp<ReshapeOp>(op, op.getType(), op.getInput(),
                                           shape);
    return success();
  }
};
} // namespace

void DynamicReshapeOp::getCanonicalizationPatterns(RewritePatternSet &results,
                                                   MLIRContext *ctx) {
  results.add<DynamicReshapeOfConstantShape>(ctx);
}

//===----------------------------------------------------------------------===//
// TransposeOp
//===----------------------------------------------------------------------===//

OpFoldResult TransposeOp::fold(FoldAdaptor adaptor) {
  ArrayRef<int64_t> perm = getPerm();
  if (DenseElementsAttr dense =
          getFoldableDense(adaptor.getInput(), getType())) {
    auto resultType = cast<RankedTensorType>(getType());
    SmallVector<int64_t> strides =
        getRowMajorStrides(cast<ShapedType>(dense.getType()).getShape());
    return gatherElements(dense, resultType, [&](ArrayRef<int64_t> index) {
      // Result dimension d walks input dimension perm[d].
      int64_t linear = 0;
      for (auto [d, i] : llvm::enumerate(index)) {
        linear += i * strides[perm[d]];
      }
      return linear;
    });
  }
  // transpose(transpose(x, inner), outer) = transpose(x, inner o outer).
  if (auto inner = getInput().getDefiningOp<TransposeOp>()) {
    ArrayRef<int64_t> innerPerm = inner.getPerm();
    SmallVector<int64_t> composed;
    for (int64_t p : perm) {
      composed.push_back(innerPerm[p]);
    }
    setPerm(composed);
    getInputMutable().assign(inner.getInput());
    perm = getPerm();
    if (!llvm::equal(perm, llvm::seq<int64_t>(0, perm.size())) ||
        getInput().getType() != getType()) {
      return getResult();
    }
  }
  if (llvm::equal(perm, llvm::seq<int64_t>(0, perm.size())) &&
      getInput().getType() == getType()) {
    return getInput();
  }
  return {};
}

//===----------------------------------------------------------------------===//
// ConcatOp / SplitOp
//===----------------------------------------------------------------------===//

OpFoldResult ConcatOp::fold(FoldAdaptor adaptor) {
  if (getInputs().size() == 1 && getInputs()[0].getType() == getType()) {
    return getInputs()[0];
  }
  // Constants (the pieces of a computed shape) join into one constant.
  auto result = dyn_cast<RankedTensorType>(getType());
  if (!result || !result.hasStaticShape() ||
      result.getNumElements() > kMaxFoldElements) {
    return {};
  }
  int64_t rank = result.getRank();
  // I64Attr reads as uint64_t: a negative axis needs the cast.
  int64_t axis = static_cast<int64_t>(getAxis());
  axis = axis < 0 ? axis + rank : axis;
  if (axis < 0 || axis >= rank) {
    return {};
  }
  int64_t outer = 1;
  for (int64_t d = 0; d < axis; ++d) {
    outer *= result.getDimSize(d);
  }
  // Each input contributes `chunk` consecutive elements per outer index.
  SmallVector<SmallVector<Attribute>> pieces;
  SmallVector<int64_t> chunks;
  for (Attribute input : adaptor.getInputs()) {
    DenseElementsAttr dense = getFoldableDense(input, result);
    if (!dense || !cast<ShapedType>(dense.getType()).hasStaticShape()) {
      return {};
    }
    pieces.emplace_back(dense.getValues<Attribute>());
    chunks.push_back(outer ? dense.getNumElements() / outer : 0);
  }
  SmallVector<Attribute> values;
  values.reserve(result.getNumElements());
  for (int64_t o = 0; o < outer; ++o) {
    for (auto [piece, chunk] : llvm::zip_equal(pieces, chunks)) {
      auto first = piece.begin() + o * chunk;
      values.append(first, first + chunk);
    }
  }
  if ((int64_t)values.size() != result.getNumElements()) {
    return {};
  }
  return DenseElementsAttr::get(result, values);
}

LogicalResult SplitOp::fold(FoldAdaptor adaptor,
                            SmallVectorImpl<OpFoldResult> &results) {
  // A split into one piece is its input (the sizes verified to cover it).
  if (getNumResults() == 1 && getInput().getType() == getResult(0).getType()) {
    results.push_back(getInput());
    return success();
  }
  // The pieces of a constant (a computed shape cut into its dimensions) are
  // constants: piece k starts where piece k - 1 ends along the axis.
  auto input = dyn_cast<RankedTensorType>(getInput().getType());
  if (!input || !input.hasStaticShape()) {
    return failure();
  }
  int64_t rank = input.getRank();
  // I64Attr reads as uint64_t: a negative axis needs the cast.
  int64_t axis = static_cast<int64_t>(getAxis());
  axis = axis < 0 ? axis + rank : axis;
  if (axis < 0 || axis >= rank) {
    return failure();
  }
  SmallVector<int64_t> strides = getRowMajorStrides(input.getShape());
  SmallVector<OpFoldResult> pieces;
  int64_t offset = 0;
  for (Value piece : getResults()) {
    auto type = dyn_cast<RankedTensorType>(piece.getType());
    DenseElementsAttr dense = getFoldableDense(adaptor.getInput(), type);
    if (!dense || type.getRank() != rank) {
      return failure();
    }
    pieces.push_back(gatherElements(dense, type, [&](ArrayRef<int64_t> index) {
      int64_t flat = offset * strides[axis];
      for (auto [d, i] : llvm::enumerate(index)) {
        flat += i * strides[d];
      }
      return flat;
    }));
    offset += type.getDimSize(axis);
  }
  if (offset != input.getDimSize(axis)) {
    return failure();
  }
  results.append(pieces);
  return success();
}

//===----------------------------------------------------------------------===//
// GatherOp
//===----------------------------------------------------------------------===//

OpFoldResult GatherOp::fold(FoldAdaptor adaptor) {
  // Picking dimensions out of a constant shape (ONNX Shape -> Gather) gives
  // a constant. Batched gathers and out-of-range indices stay for run time.
  auto input = dyn_cast<RankedTensorType>(getInput().getType());
  auto result = dyn_cast<RankedTensorType>(getType());
  auto indices =
      dyn_cast_if_present<DenseIntElementsAttr>(adaptor.getIndices());
  DenseElementsAttr dense = getFoldableDense(adaptor.getInput(), getType());
  if (!dense || !input || !input.hasStaticShape() || !indices ||
      getBatchDims() != 0 || indices.getNumElements() > kMaxFoldElements) {
    return {};
  }
  int64_t rank = input.getRank();
  // I64Attr reads as uint64_t: a negative axis needs the cast.
  int64_t axis = static_cast<int64_t>(getAxis());
  axis = axis < 0 ? axis + rank : axis;
  if (axis < 0 || axis >= rank) {
    return {};
  }
  int64_t dim = input.getDimSize(axis);
  SmallVector<int64_t> picked;
  for (const APInt &value : indices.getValues<APInt>()) {
    int64_t i = value.getSExtValue();
    if (i < -dim || i >= dim) {
      return {};
    }
    picked.push_back(i < 0 ? i + dim : i);
  }
  // result[outer.., j.., inner..] = input[outer.., picked[j], inner..], with
  // the index dimensions j.. flattened row-major.
  ArrayRef<int64_t> indexShape = cast<ShapedType>(indices.getType()).getShape();
  int64_t indexRank = indexShape.size();
  SmallVector<int64_t> strides = getRowMajorStrides(input.getShape());
  return gatherElements(dense, result, [&](ArrayRef<int64_t> index) {
    int64_t j = 0;
    for (int64_t d = 0; d < indexRank; ++d) {
      j = j * indexShape[d] + index[axis + d];
    }
    int64_t flat = picked[j] * strides[axis];
    for (int64_t d = 0; d < axis; ++d) {
      flat += index[d] * strides[d];
    }
    for (int64_t d = axis + 1; d < rank; ++d) {
      flat += index[d - 1 + indexRank] * strides[d];
    }
    return flat;
  });
}

//===----------------------------------------------------------------------===//
// SliceOp / PadOp / TileOp
//===----------------------------------------------------------------------===//

OpFoldResult SliceOp::fold(FoldAdaptor adaptor) {
  auto input = dyn_cast<RankedTensorType>(getInput().getType());
  if (!input || !input.hasStaticShape()) {
    return {};
  }
  if (input == getType() && allEqual(getStarts(), 0) &&
      allEqual(getStrides(), 1) && llvm::equal(getLimits(), input.getShape())) {
    return getInput();
  }
  // A window of a constant (a piece of a computed shape) is a constant:
  // result index r reads input index starts + r * strides.
  auto result = dyn_cast<RankedTensorType>(getType());
  DenseElementsAttr dense = getFoldableDense(adaptor.getInput(), getType());
  if (!dense || result.getRank() != input.getRank()) {
    return {};
  }
  SmallVector<int64_t> strides = getRowMajorStrides(input.getShape());
  ArrayRef<int64_t> starts = getStarts(), steps = getStrides();
  return gatherElements(dense, result, [&](ArrayRef<int64_t> index) {
    int64_t flat = 0;
    for (auto [d, i] : llvm::enumerate(index)) {
      flat += (starts[d] + i * steps[d]) * strides[d];
    }
    return flat;
  });
}

OpFoldResult PadOp::fold(FoldAdaptor) {
  if (allEqual(getLow(), 0) && allEqual(getHigh(), 0) &&
      getInput().getType() == getType()) {
    return getInput();
  }
  return {};
}

OpFoldResult TileOp::fold(FoldAdaptor) {
  if (allEqual(getMultiples(), 1) && getInput().getType() == getType()) {
    return getInput();
  }
  return {};
}

//===----------------------------------------------------------------------===//
// BroadcastToOp
//===----------------------------------------------------------------------===//

OpFoldResult BroadcastToOp::fold(FoldAdaptor adaptor) {
  if (getInput().getType() == getType()) {
    return getInput();
  }
  DenseElementsAttr dense = getFoldableDense(adaptor.getInput(), getType());
  if (!dense) {
    return {};
  }
  ArrayRef<int64_t> inShape = cast<ShapedType>(dense.getType()).getShape();
  SmallVector<int64_t> strides = getRowMajorStrides(inShape);
  size_t lead = getShape().size() - inShape.size();
  return gatherElements(dense, cast<RankedTensorType>(getType()),
                        [&](ArrayRef<int64_t> index) {
                          // A size-1 input dimension repeats its element.
                          int64_t linear = 0;
                          for (auto [d, size] : llvm::enumerate(inShape)) {
                            if (size != 1) {
                              linear += index[lead + d] * strides[d];
                            }
                          }
                          return linear;
                        });
}

//===----------------------------------------------------------------------===//
// SqueezeOp / UnsqueezeOp
//===----------------------------------------------------------------------===//

namespace {
/// squeeze/unsqueeze of a static input -> reshape, so that chains of them
/// meet the reshape folders.
template <typename OpTy>
struct StaticToReshape : public OpRewritePattern<OpTy> {
  using OpRewritePattern<OpTy>::OpRewritePattern;

  LogicalResult matchAndRewrite(OpTy op,
                                PatternRewriter &rewriter) const override {
    auto input = dyn_cast<RankedTensorType>(op.getInput().getType());
    if (!input || !input.hasStaticShape() ||
        !isa<RankedTensorType>(op.getType())) {
      return failure();
    }
    SmallVector<Type> inferred;
    if (failed(OpTy::inferReturnTypes(op.getContext(), std::nullopt,
                                      typename OpTy::Adaptor(op), inferred))) {
      return failure();
    }
    auto shape = cast<RankedTensorType>(inferred[0]).getShape();
    rewriter.replaceOpWithNewOp<ReshapeOp>(op, op.getType(), op.getInput(),
                                           shape);
    return success();
  }
};
} // namespace

OpFoldResult SqueezeOp::fold(FoldAdaptor adaptor) {
  if (getAxes().empty() && getInput().getType() == getType()) {
    return getInput();
  }
  return reshapeConstant(adaptor.getInput(), getType());
}

void SqueezeOp::getCanonicalizationPatterns(RewritePatternSet &results,
                                            MLIRContext *ctx) {
  results.add<StaticToReshape<SqueezeOp>>(ctx);
}

OpFoldResult UnsqueezeOp::fold(FoldAdaptor adaptor) {
  if (getAxes().empty() && getInput().getType() == getType()) {
    return getInput();
  }
  return reshapeConstant(adaptor.getInput(), getType());
}

void UnsqueezeOp::getCanonicalizationPatterns(RewritePatternSet &results,
                                              MLIRContext *ctx) {
  results.add<StaticToReshape<UnsqueezeOp>>(ctx);
}

//===----------------------------------------------------------------------===//
// ShapeOfOp
//===----------------------------------------------------------------------===//

OpFoldResult ShapeOfOp::fold(FoldAdaptor) {
  auto input = dyn_cast<RankedTensorType>(getInput().getType());
  auto resultType = cast<RankedTensorType>(getType());
  if (!input || !input.hasStaticShape() || !resultType.hasStaticShape()) {
    return {};
  }
  return DenseIntElementsAttr::get(resultType, input.getShape());
}
