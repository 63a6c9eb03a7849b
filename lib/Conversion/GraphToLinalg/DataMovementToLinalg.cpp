//===- DataMovementToLinalg.cpp - graph data movement to tensor/linalg ----===//
//
// Reshapes become tensor.expand_shape/collapse_shape, slices and splits
// tensor.extract_slice (a negative stride adds a reversing linalg.generic),
// concat tensor.concat, transpose linalg.transpose, broadcast_to
// linalg.broadcast, constant padding tensor.pad; gathers, tiling, one-hot,
// reflect/edge padding are linalg.generic ops that compute their source
// coordinates.
//
//===----------------------------------------------------------------------===//

#include "LoweringUtils.h"

#include "graph/GraphOps.h"

using namespace mlir;
using namespace graphc::graph;

namespace graphc::lowering {
namespace {

Value castTo(OpBuilder &b, Location loc, Value value, Type type) {
  if (value.getType() == type) {
    return value;
  }
  return tensor::CastOp::create(b, loc, type, value);
}

SmallVector<utils::IteratorType> parallel(int64_t rank) {
  return SmallVector<utils::IteratorType>(rank, utils::IteratorType::parallel);
}

/// Static-shape data movement: the result type must be static as well.
template <typename OpTy> struct StaticPattern : OpConversionPattern<OpTy> {
  using OpConversionPattern<OpTy>::OpConversionPattern;

  LogicalResult
  matchAndRewrite(OpTy op, typename OpTy::Adaptor adaptor,
                  ConversionPatternRewriter &rewriter) const final {
    if (failed(requireStaticShapes(op))) {
      return failure();
    }
    return rewriteStatic(op, adaptor, rewriter);
  }

  virtual LogicalResult
  rewriteStatic(OpTy op, typename OpTy::Adaptor adaptor,
                ConversionPatternRewriter &rewriter) const = 0;
};

//===----------------------------------------------------------------------===//
// Reshapes
//===----------------------------------------------------------------------===//

struct ReshapeLowering : StaticPattern<ReshapeOp> {
  using StaticPattern::StaticPattern;
  LogicalResult
  rewriteStatic(ReshapeOp op, OpAdaptor adaptor,
                ConversionPatternRewriter &rewriter) const override {
    rewriter.replaceOp(op, reshapeTo(rewriter, op.getLoc(), adaptor.getInput(),
                                     cast<RankedTensorType>(op.getType())));
    return success();
  }
};

struct DynamicReshapeLowering : OpConversionPattern<DynamicReshapeOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(DynamicReshapeOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    rewriter.replaceOpWithNewOp<tensor::ReshapeOp>(
        op, op.getType(), adaptor.getInput(), adaptor.getShape());
    return success();
  }
};

struct SqueezeLowering : StaticPattern<SqueezeOp> {
  using StaticPattern::StaticPattern;
  LogicalResult
  rewriteStatic(SqueezeOp op, OpAdaptor adaptor,
                ConversionPatternRewriter &rewriter) const override {
    rewriter.replaceOp(op, reshapeTo(rewriter, op.getLoc(), adaptor.getInput(),
                                     cast<RankedTensorType>(op.getType())));
    return success();
  }
};

struct UnsqueezeLowering : OpConversionPattern<UnsqueezeOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(UnsqueezeOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto resultType = cast<RankedTensorType>(op.getType());
    SmallVector<int64_t> axes;
    for (int64_t axis : op.getAxes()) {
      axes.push_back(normalizeAxis(axis, resultType.getRank()));
    }
    llvm::sort(axes);
    Value result =
        insertUnitDims(rewriter, op.getLoc(), adaptor.getInput(), axes);
    rewriter.replaceOp(op, castTo(rewriter, op.getLoc(), result, resultType));
    return success();
  }
};

//===----------------------------------------------------------------------===//
// TransposeOp, BroadcastToOp
//===----------------------------------------------------------------------===//

struct TransposeLowering : OpConversionPattern<TransposeOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(TransposeOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value input = adaptor.getInput();
    auto inputType = cast<RankedTensorType>(input.getType());
    SmallVector<int64_t> shape;
    SmallVector<Value> dynSizes;
    for (int64_t p : op.getPerm()) {
      shape.push_back(inputType.getDimSize(p));
      if (inputType.isDynamicDim(p)) {
        dynSizes.push_back(tensor::DimOp::create(rewriter, loc, input, p));
      }
    }
    auto resultType = RankedTensorType::get(shape, inputType.getElementType());
    Value init = createEmpty(rewriter, loc, resultType, dynSizes);
    Value result =
        linalg::TransposeOp::create(rewriter, loc, input, init, op.getPerm())
            .getResult()[0];
    rewriter.replaceOp(op, castTo(rewriter, loc, result, op.getType()));
    return success();
  }
};

struct BroadcastToLowering : StaticPattern<BroadcastToOp> {
  using StaticPattern::StaticPattern;
  LogicalResult
  rewriteStatic(BroadcastToOp op, OpAdaptor adaptor,
                ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value input = adaptor.getInput();
    auto inputType = cast<RankedTensorType>(input.getType());
    auto resultType = cast<RankedTensorType>(op.getType());
    int64_t offset = resultType.getRank() - inputType.getRank();
    // Drop the unit dimensions that stretch, then linalg.broadcast adds every
    // result dimension the remaining input does not have.
    SmallVector<int64_t> keptShape, added;
    for (int64_t d = 0; d < resultType.getRank(); ++d) {
      int64_t id = d - offset;
      bool kept = id >= 0 && !(inputType.getDimSize(id) == 1 &&
                               resultType.getDimSize(d) != 1);
      if (kept) {
        keptShape.push_back(inputType.getDimSize(id));
      } else {
        added.push_back(d);
      }
    }
    Value kept =
        reshapeTo(rewriter, loc, input,
                  RankedTensorType::get(keptShape, inputType.getElementType()));
    if (added.empty()) {
      rewriter.replaceOp(op, kept);
      return success();
    }
    Value init = createEmpty(rewriter, loc, resultType);
    rewriter.replaceOp(
        op, linalg::BroadcastOp::create(rewriter, loc, kept, init, added)
                .getResult()[0]);
    return success();
  }
};

//===----------------------------------------------------------------------===//
// ConcatOp, SplitOp, SliceOp
//===----------------------------------------------------------------------===//

struct ConcatLowering : OpConversionPattern<ConcatOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(ConcatOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto resultType = cast<RankedTensorType>(op.getType());
    int64_t axis =
        normalizeAxis(static_cast<int64_t>(op.getAxis()), resultType.getRank());
    // Inputs with no elements add nothing (ONNX's zero-size splits feed
    // them back); tensor.concat would insert them at an offset past the
    // end, which tensor.insert_slice rejects.
    SmallVector<Value> inputs;
    for (Value input : adaptor.getInputs()) {
      auto type = cast<RankedTensorType>(input.getType());
      if (!type.hasStaticShape() || type.getNumElements() != 0) {
        inputs.push_back(input);
      }
    }
    if (inputs.empty()) {
      // Every input empty: so is the (static) result.
      rewriter.replaceOpWithNewOp<tensor::EmptyOp>(op, resultType.getShape(),
                                                   resultType.getElementType());
      return success();
    }
    if (inputs.size() == 1) {
      rewriter.replaceOp(op,
                         castTo(rewriter, op.getLoc(), inputs[0], resultType));
      return success();
    }
    Value result =
        tensor::ConcatOp::create(rewriter, op.getLoc(), axis, inputs);
    rewriter.replaceOp(op, castTo(rewriter, op.getLoc(), result, resultType));
    return success();
  }
};

struct SplitLowering : StaticPattern<SplitOp> {
  using StaticPattern::StaticPattern;
  LogicalResult
  rewriteStatic(SplitOp op, OpAdaptor adaptor,
                ConversionPatternRewriter &rewriter) const override {
    Value input = adaptor.getInput();
    auto inputType = cast<RankedTensorType>(input.getType());
    int64_t rank = inputType.getRank();
    int64_t axis = normalizeAxis(static_cast<int64_t>(op.getAxis()), rank);
    SmallVector<Value> results;
    int64_t offset = 0;
    for (Value result : op.getResults()) {
      auto type = cast<RankedTensorType>(result.getType());
      if (type.getNumElements() == 0) {
        // A piece with no elements holds no data; tensor.extract_slice
        // would also reject its offset when it sits at the end of the axis.
        results.push_back(tensor::EmptyOp::create(
            rewriter, op.getLoc(), type.getShape(), type.getElementType()));
        continue;
      }
      SmallVector<OpFoldResult> offsets(rank, rewriter.getIndexAttr(0));
      SmallVector<OpFoldResult> sizes, strides(rank, rewriter.getIndexAttr(1));
      for (int64_t d = 0; d < rank; ++d) {
        sizes.push_back(rewriter.getIndexAttr(type.getDimSize(d)));
      }
      offsets[axis] = rewriter.getIndexAttr(offset);
      offset += type.getDimSize(axis);
      results.push_back(tensor::ExtractSliceOp::create(
          rewriter, op.getLoc(), type, input, offsets, sizes, strides));
    }
    rewriter.replaceOp(op, results);
    return success();
  }
};

struct SliceLowering : StaticPattern<SliceOp> {
  using StaticPattern::StaticPattern;
  LogicalResult
  rewriteStatic(SliceOp op, OpAdaptor adaptor,
                ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value input = adaptor.getInput();
    auto resultType = cast<RankedTensorType>(op.getType());
    int64_t rank = resultType.getRank();
    SmallVector<OpFoldResult> offsets, sizes, strides;
    SmallVector<int64_t> reversed;
    for (int64_t d = 0; d < rank; ++d) {
      int64_t start = op.getStarts()[d], stride = op.getStrides()[d];
      int64_t count = resultType.getDimSize(d);
      if (stride < 0) {
        // Read the same elements upwards from the last one, then reverse.
        int64_t lowest = count == 0 ? 0 : start + (count - 1) * stride;
        offsets.push_back(rewriter.getIndexAttr(lowest));
        strides.push_back(rewriter.getIndexAttr(-stride));
        reversed.push_back(d);
      } else {
        offsets.push_back(rewriter.getIndexAttr(count == 0 ? 0 : start));
        strides.push_back(rewriter.getIndexAttr(stride));
      }
      sizes.push_back(rewriter.getIndexAttr(count));
    }
    Value result = tensor::ExtractSliceOp::create(
        rewriter, loc, resultType, input, offsets, sizes, strides);
    if (!reversed.empty()) {
      // Reverse with tensor.extract at n - 1 - i: a map with a negative
      // coefficient does not survive graphc-cpu-codegen's tiling.
      Value source = result;
      result = buildParallelGeneric(
          rewriter, loc, createEmpty(rewriter, loc, resultType),
          resultType.getElementType(), ValueRange{}, {},
          [&](OpBuilder &b, Location nloc, ValueRange) -> Value {
            SmallVector<Value> at;
            for (int64_t d = 0; d < rank; ++d) {
              Value i = linalg::IndexOp::create(b, nloc, d);
              if (llvm::is_contained(reversed, d)) {
                Value last = arith::ConstantIndexOp::create(
                    b, nloc, resultType.getDimSize(d) - 1);
                i = arith::SubIOp::create(b, nloc, last, i);
              }
              at.push_back(i);
            }
            return tensor::ExtractOp::create(b, nloc, source, at);
          });
    }
    rewriter.replaceOp(op, result);
    return success();
  }
};

//===----------------------------------------------------------------------===//
// PadOp
//===----------------------------------------------------------------------===//

struct PadLowering : StaticPattern<PadOp> {
  using StaticPattern::StaticPattern;
  LogicalResult
  rewriteStatic(PadOp op, OpAdaptor adaptor,
                ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value input = adaptor.getInput();
    auto inputType = cast<RankedTensorType>(input.getType());
    auto resultType = cast<RankedTensorType>(op.getType());
    int64_t rank = resultType.getRank();
    if (op.getMode() == PadMode::constant) {
      Value value = tensor::ExtractOp::create(
          rewriter, loc, adaptor.getPaddingValue(), ValueRange{});
      SmallVector<OpFoldResult> low, high;
      for (int64_t d = 0; d < rank; ++d) {
        low.push_back(rewriter.getIndexAttr(op.getLow()[d]));
        high.push_back(rewriter.getIndexAttr(op.getHigh()[d]));
      }
      rewriter.replaceOp(op, tensor::PadOp::create(rewriter, loc, resultType,
                                                   input, low, high, value));
      return success();
    }
    // reflect / edge: every result element reads one input element whose
    // coordinate is computed from the result coordinate.
    bool reflect = op.getMode() == PadMode::reflect;
    Value init = createEmpty(rewriter, loc, resultType);
    auto generic = linalg::GenericOp::create(
        rewriter, loc, TypeRange{resultType}, ValueRange{}, ValueRange{init},
        {rewriter.getMultiDimIdentityMap(rank)}, parallel(rank),
        [&](OpBuilder &b, Location nloc, ValueRange) {
          SmallVector<Value> coords;
          for (int64_t d = 0; d < rank; ++d) {
            int64_t size = inputType.getDimSize(d);
            Value i = linalg::IndexOp::create(b, nloc, d);
            Value j = arith::SubIOp::create(
                b, nloc, i,
                arith::ConstantIndexOp::create(b, nloc, op.getLow()[d]));
            Value zero = arith::ConstantIndexOp::create(b, nloc, 0);
            Value last = arith::ConstantIndexOp::create(b, nloc, size - 1);
            if (reflect) {
              // j < 0 -> -j; j > last -> 2 * last - j (pads are < size).
              Value negJ = arith::SubIOp::create(b, nloc, zero, j);
              Value below = arith::CmpIOp::create(
                  b, nloc, arith::CmpIPredicate::slt, j, zero);
              j = arith::SelectOp::create(b, nloc, below, negJ, j);
              Value mirrored = arith::SubIOp::create(
                  b, nloc,
                  arith::ConstantIndexOp::create(b, nloc, 2 * (size - 1)), j);
              Value above = arith::CmpIOp::create(
                  b, nloc, arith::CmpIPredicate::sgt, j, last);
              j = arith::SelectOp::create(b, nloc, above, mirrored, j);
            } else {
              j = arith::MaxSIOp::create(b, nloc, j, zero);
              j = arith::MinSIOp::create(b, nloc, j, last);
            }
            coords.push_back(j);
          }
          Value v = tensor::ExtractOp::create(b, nloc, input, coords);
          linalg::YieldOp::create(b, nloc, v);
        });
    rewriter.replaceOp(op, generic.getResult(0));
    return success();
  }
};

//===----------------------------------------------------------------------===//
// GatherOp
//===----------------------------------------------------------------------===//

struct GatherLowering : StaticPattern<GatherOp> {
  using StaticPattern::StaticPattern;
  LogicalResult
  rewriteStatic(GatherOp op, OpAdaptor adaptor,
                ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value input = adaptor.getInput();
    Value indices = adaptor.getIndices();
    auto inputType = cast<RankedTensorType>(input.getType());
    auto indicesType = cast<RankedTensorType>(indices.getType());
    auto resultType = cast<RankedTensorType>(op.getType());
    int64_t rank = resultType.getRank();
    int64_t axis =
        normalizeAxis(static_cast<int64_t>(op.getAxis()), inputType.getRank());
    int64_t batch = static_cast<int64_t>(op.getBatchDims());
    int64_t indexRank = indicesType.getRank();
    MLIRContext *ctx = getContext();
    // indices[i0..i(b-1), j..] with j at result dims axis .. axis+r-b-1.
    SmallVector<AffineExpr> indexExprs;
    for (int64_t d = 0; d < batch; ++d) {
      indexExprs.push_back(getAffineDimExpr(d, ctx));
    }
    for (int64_t d = batch; d < indexRank; ++d) {
      indexExprs.push_back(getAffineDimExpr(axis + d - batch, ctx));
    }
    AffineMap indexMap = AffineMap::get(rank, 0, indexExprs, ctx);
    int64_t axisSize = inputType.getDimSize(axis);
    Value result = buildParallelGeneric(
        rewriter, loc, createEmpty(rewriter, loc, resultType),
        resultType.getElementType(), ValueRange{indices}, {indexMap},
        [&](OpBuilder &b, Location nloc, ValueRange a) -> Value {
          Value index =
              arith::IndexCastOp::create(b, nloc, b.getIndexType(), a[0]);
          // A negative index counts from the end.
          Value zero = arith::ConstantIndexOp::create(b, nloc, 0);
          Value isNeg = arith::CmpIOp::create(
              b, nloc, arith::CmpIPredicate::slt, index, zero);
          Value wrapped = arith::AddIOp::create(
              b, nloc, index,
              arith::ConstantIndexOp::create(b, nloc, axisSize));
          index = arith::SelectOp::create(b, nloc, isNeg, wrapped, index);
          SmallVector<Value> coords;
          for (int64_t d = 0; d < axis; ++d) {
            coords.push_back(linalg::IndexOp::create(b, nloc, d));
          }
          coords.push_back(index);
          for (int64_t d = axis + 1; d < inputType.getRank(); ++d) {
            coords.push_back(linalg::IndexOp::create(
                b, nloc, d - axis - 1 + axis + indexRank - batch));
          }
          return tensor::ExtractOp::create(b, nloc, input, coords);
        });
    rewriter.replaceOp(op, result);
    return success();
  }
};

//===----------------------------------------------------------------------===//
// TileOp, OneHotOp, ShapeOfOp
//===----------------------------------------------------------------------===//

struct TileLowering : StaticPattern<TileOp> {
  using StaticPattern::StaticPattern;
  LogicalResult
  rewriteStatic(TileOp op, OpAdaptor adaptor,
                ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value input = adaptor.getInput();
    auto inputType = cast<RankedTensorType>(input.getType());
    auto resultType = cast<RankedTensorType>(op.getType());
    int64_t rank = resultType.getRank();
    MLIRContext *ctx = getContext();
    SmallVector<AffineExpr> exprs;
    for (int64_t d = 0; d < rank; ++d) {
      int64_t size = inputType.getDimSize(d);
      // An empty input dimension gives an empty result: no iteration reads.
      AffineExpr dim = getAffineDimExpr(d, ctx);
      if (size == 1) {
        exprs.push_back(getAffineConstantExpr(0, ctx));
      } else if (size == 0 || op.getMultiples()[d] == 1) {
        exprs.push_back(dim);
      } else {
        exprs.push_back(dim % size);
      }
    }
    Value result = buildParallelGeneric(
        rewriter, loc, createEmpty(rewriter, loc, resultType),
        resultType.getElementType(), ValueRange{input},
        {AffineMap::get(rank, 0, exprs, ctx)},
        [](OpBuilder &, Location, ValueRange a) { return a[0]; });
    rewriter.replaceOp(op, result);
    return success();
  }
};

struct OneHotLowering : StaticPattern<OneHotOp> {
  using StaticPattern::StaticPattern;
  LogicalResult
  rewriteStatic(OneHotOp op, OpAdaptor adaptor,
                ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto resultType = cast<RankedTensorType>(op.getType());
    int64_t rank = resultType.getRank();
    int64_t axis = normalizeAxis(static_cast<int64_t>(op.getAxis()), rank);
    MLIRContext *ctx = getContext();
    AffineMap scalarMap = AffineMap::get(rank, 0, {}, ctx);
    Value result = buildParallelGeneric(
        rewriter, loc, createEmpty(rewriter, loc, resultType),
        resultType.getElementType(),
        ValueRange{adaptor.getIndices(), adaptor.getOnValue(),
                   adaptor.getOffValue()},
        {getDropDimsMap(ctx, rank, {axis}), scalarMap, scalarMap},
        [&](OpBuilder &b, Location nloc, ValueRange a) -> Value {
          Value position = arith::IndexCastOp::create(
              b, nloc, a[0].getType(), linalg::IndexOp::create(b, nloc, axis));
          Value hit = arith::CmpIOp::create(b, nloc, arith::CmpIPredicate::eq,
                                            position, a[0]);
          return arith::SelectOp::create(b, nloc, hit, a[1], a[2]);
        });
    rewriter.replaceOp(op, result);
    return success();
  }
};

struct ShapeOfLowering : OpConversionPattern<ShapeOfOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(ShapeOfOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value input = adaptor.getInput();
    auto inputType = cast<RankedTensorType>(input.getType());
    SmallVector<Value> dims;
    for (int64_t d = 0; d < inputType.getRank(); ++d) {
      if (inputType.isDynamicDim(d)) {
        Value dim = tensor::DimOp::create(rewriter, loc, input, d);
        dims.push_back(arith::IndexCastOp::create(rewriter, loc,
                                                  rewriter.getI64Type(), dim));
      } else {
        dims.push_back(createScalar(rewriter, loc, rewriter.getI64Type(),
                                    inputType.getDimSize(d)));
      }
    }
    rewriter.replaceOpWithNewOp<tensor::FromElementsOp>(op, op.getType(), dims);
    return success();
  }
};

} // namespace

void populateDataMovementPatterns(RewritePatternSet &patterns,
                                  const TypeConverter *converter) {
  addPatterns<ReshapeLowering, DynamicReshapeLowering, SqueezeLowering,
              UnsqueezeLowering, TransposeLowering, BroadcastToLowering,
              ConcatLowering, SplitLowering, SliceLowering, PadLowering,
              GatherLowering, TileLowering, OneHotLowering, ShapeOfLowering>(
      patterns, converter);
}

} // namespace graphc::lowering
