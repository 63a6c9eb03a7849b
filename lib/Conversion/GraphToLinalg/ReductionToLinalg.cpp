//===- ReductionToLinalg.cpp - graph reductions and softmax to linalg -----===//
//
// graph.reduce becomes linalg.reduce (plus a division for `mean` and an
// expand_shape for `keepdims`); graph.arg_reduce a linalg.generic with two
// outputs (value and index); softmax and log_softmax subtract the maximum
// before exponentiating so large logits do not overflow.
//
//===----------------------------------------------------------------------===//

#include "LoweringUtils.h"

#include "graph/GraphOps.h"
#include "graph/GraphTypeUtils.h"

using namespace mlir;
using namespace graphc::graph;

namespace graphc::lowering {
namespace {

/// Casts `value` to `type` when the declared type is less refined.
Value castTo(OpBuilder &b, Location loc, Value value, Type type) {
  if (value.getType() == type) {
    return value;
  }
  return tensor::CastOp::create(b, loc, type, value);
}

/// The number of elements along `axes` of `input` as a scalar of `type`.
Value countAlong(OpBuilder &b, Location loc, Value input,
                 ArrayRef<int64_t> axes, Type type) {
  auto inputType = cast<RankedTensorType>(input.getType());
  int64_t staticCount = 1;
  Value dynamicCount;
  for (int64_t axis : axes) {
    if (!inputType.isDynamicDim(axis)) {
      staticCount *= inputType.getDimSize(axis);
      continue;
    }
    Value dim = tensor::DimOp::create(b, loc, input, axis);
    dynamicCount =
        dynamicCount ? arith::MulIOp::create(b, loc, dynamicCount, dim) : dim;
  }
  if (!dynamicCount) {
    return createScalar(b, loc, type, static_cast<double>(staticCount));
  }
  Value count = arith::MulIOp::create(
      b, loc, dynamicCount,
      arith::ConstantIndexOp::create(b, loc, staticCount));
  Value asInt = arith::IndexCastOp::create(b, loc, b.getI64Type(), count);
  if (isa<FloatType>(type)) {
    return arith::SIToFPOp::create(b, loc, type, asInt);
  }
  return arith::TruncIOp::create(b, loc, type, asInt);
}

Value reduceWithKind(OpBuilder &b, Location loc, Value input,
                     ArrayRef<int64_t> axes, ReduceKind kind) {
  Type type = cast<RankedTensorType>(input.getType()).getElementType();
  bool isFloat = isa<FloatType>(type);
  switch (kind) {
  case ReduceKind::sum:
  case ReduceKind::mean: {
    Value sum = buildReduction(
        b, loc, input, axes, createScalar(b, loc, type, 0),
        [&](OpBuilder &nb, Location nloc, ValueRange a) -> Value {
          if (isFloat) {
            return arith::AddFOp::create(nb, nloc, a[0], a[1]);
          }
          return arith::AddIOp::create(nb, nloc, a[0], a[1]);
        });
    if (kind == ReduceKind::sum) {
      return sum;
    }
    Value count = countAlong(b, loc, input, axes, type);
    auto sumType = cast<RankedTensorType>(sum.getType());
    return buildParallelGeneric(
        b, loc, sum, type, ValueRange{sum},
        {b.getMultiDimIdentityMap(sumType.getRank())},
        [&](OpBuilder &nb, Location nloc, ValueRange a) -> Value {
          return arith::DivFOp::create(nb, nloc, a[0], count);
        });
  }
  case ReduceKind::prod:
    return buildReduction(
        b, loc, input, axes, createScalar(b, loc, type, 1),
        [&](OpBuilder &nb, Location nloc, ValueRange a) -> Value {
          if (isFloat) {
            return arith::MulFOp::create(nb, nloc, a[0], a[1]);
          }
          return arith::MulIOp::create(nb, nloc, a[0], a[1]);
        });
  case ReduceKind::max:
    return buildReduction(b, loc, input, axes,
                          createExtreme(b, loc, type, /*negative=*/true),
                          [&](OpBuilder &nb, Location nloc, ValueRange a) {
                            return createMax(nb, nloc, a[0], a[1]);
                          });
  case ReduceKind::min:
    return buildReduction(b, loc, input, axes,
                          createExtreme(b, loc, type, /*negative=*/false),
                          [&](OpBuilder &nb, Location nloc, ValueRange a) {
                            return createMin(nb, nloc, a[0], a[1]);
                          });
  }
  llvm_unreachable("unknown reduce kind");
}

//===----------------------------------------------------------------------===//
// ReduceOp
//===----------------------------------------------------------------------===//

struct ReduceLowering : OpConversionPattern<ReduceOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(ReduceOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value input = adaptor.getInput();
    auto inputType = cast<RankedTensorType>(input.getType());
    SmallVector<int64_t> axes;
    for (int64_t axis : op.getAxes()) {
      axes.push_back(axis < 0 ? axis + inputType.getRank() : axis);
    }
    llvm::sort(axes);
    if (axes.empty()) {
      rewriter.replaceOp(op, castTo(rewriter, loc, input, op.getType()));
      return success();
    }
    Value result = reduceWithKind(rewriter, loc, input, axes, op.getKind());
    if (op.getKeepdims()) {
      result = insertUnitDims(rewriter, loc, result, axes);
    }
    rewriter.replaceOp(op, castTo(rewriter, loc, result, op.getType()));
    return success();
  }
};

//===----------------------------------------------------------------------===//
// ArgReduceOp
//===----------------------------------------------------------------------===//

struct ArgReduceLowering : OpConversionPattern<ArgReduceOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(ArgReduceOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value input = adaptor.getInput();
    auto inputType = cast<RankedTensorType>(input.getType());
    int64_t rank = inputType.getRank();
    int64_t axis = normalizeAxis(static_cast<int64_t>(op.getAxis()), rank);
    bool isMax = op.getKind() == ReduceKind::max;
    bool last = op.getSelectLastIndex();
    Type type = inputType.getElementType();

    SmallVector<int64_t> shape;
    SmallVector<Value> dynSizes;
    for (int64_t d = 0; d < rank; ++d) {
      if (d == axis) {
        continue;
      }
      shape.push_back(inputType.getDimSize(d));
      if (inputType.isDynamicDim(d)) {
        dynSizes.push_back(tensor::DimOp::create(rewriter, loc, input, d));
      }
    }
    auto valueType = RankedTensorType::get(shape, type);
    auto indexType = RankedTensorType::get(shape, rewriter.getI64Type());
    Value values =
        createFilled(rewriter, loc, valueType,
                     createExtreme(rewriter, loc, type, isMax), dynSizes);
    Value indices = createFilled(
        rewriter, loc, indexType,
        createScalar(rewriter, loc, rewriter.getI64Type(), 0), dynSizes);
    MLIRContext *ctx = getContext();
    AffineMap outMap = getDropDimsMap(ctx, rank, {axis});
    SmallVector<AffineMap> maps = {rewriter.getMultiDimIdentityMap(rank),
                                   outMap, outMap};
    SmallVector<utils::IteratorType> iterators(rank,
                                               utils::IteratorType::parallel);
    iterators[axis] = utils::IteratorType::reduction;
    auto generic = linalg::GenericOp::create(
        rewriter, loc, TypeRange{valueType, indexType}, ValueRange{input},
        ValueRange{values, indices}, maps, iterators,
        [&](OpBuilder &b, Location nloc, ValueRange a) {
          Value x = a[0], best = a[1], bestIndex = a[2];
          Value wins;
          if (isa<FloatType>(type)) {
            using P = arith::CmpFPredicate;
            P pred =
                isMax ? (last ? P::OGE : P::OGT) : (last ? P::OLE : P::OLT);
            Value better = arith::CmpFOp::create(b, nloc, pred, x, best);
            // The first NaN wins, as in NumPy: once best is NaN nothing
            // compares better.
            Value xNaN = arith::CmpFOp::create(b, nloc, P::UNO, x, x);
            Value bestNotNaN =
                arith::CmpFOp::create(b, nloc, P::ORD, best, best);
            Value nanWins = arith::AndIOp::create(b, nloc, xNaN, bestNotNaN);
            wins = arith::OrIOp::create(b, nloc, better, nanWins);
          } else {
            using P = arith::CmpIPredicate;
            bool isBool = type.isInteger(1);
            P pred;
            if (isMax) {
              pred = last ? (isBool ? P::uge : P::sge)
                          : (isBool ? P::ugt : P::sgt);
            } else {
              pred = last ? (isBool ? P::ule : P::sle)
                          : (isBool ? P::ult : P::slt);
            }
            wins = arith::CmpIOp::create(b, nloc, pred, x, best);
          }
          Value index = linalg::IndexOp::create(b, nloc, axis);
          Value index64 =
              arith::IndexCastOp::create(b, nloc, b.getI64Type(), index);
          Value newBest = arith::SelectOp::create(b, nloc, wins, x, best);
          Value newIndex =
              arith::SelectOp::create(b, nloc, wins, index64, bestIndex);
          linalg::YieldOp::create(b, nloc, ValueRange{newBest, newIndex});
        });
    Value result = generic.getResult(1);
    if (op.getKeepdims()) {
      result = insertUnitDims(rewriter, loc, result, {axis});
    }
    rewriter.replaceOp(op, castTo(rewriter, loc, result, op.getType()));
    return success();
  }
};

//===----------------------------------------------------------------------===//
// SoftmaxOp, LogSoftmaxOp
//===----------------------------------------------------------------------===//

template <typename OpTy, bool isLog>
struct SoftmaxLowering : OpConversionPattern<OpTy> {
  using OpConversionPattern<OpTy>::OpConversionPattern;

  LogicalResult
  matchAndRewrite(OpTy op, typename OpTy::Adaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value input = adaptor.getInput();
    auto inputType = cast<RankedTensorType>(input.getType());
    int64_t rank = inputType.getRank();
    int64_t axis = normalizeAxis(static_cast<int64_t>(op.getAxis()), rank);
    Type type = inputType.getElementType();
    MLIRContext *ctx = rewriter.getContext();
    AffineMap id = rewriter.getMultiDimIdentityMap(rank);
    AffineMap dropAxis = getDropDimsMap(ctx, rank, {axis});

    Value max = reduceWithKind(rewriter, loc, input, {axis}, ReduceKind::max);
    // shifted = x - max; every exponent is <= 0.
    Value shifted = buildParallelGeneric(
        rewriter, loc, input, type, ValueRange{input, max}, {id, dropAxis},
        [](OpBuilder &b, Location nloc, ValueRange a) -> Value {
          return arith::SubFOp::create(b, nloc, a[0], a[1]);
        });
    Value exp = buildParallelGeneric(
        rewriter, loc, input, type, ValueRange{shifted}, {id},
        [](OpBuilder &b, Location nloc, ValueRange a) -> Value {
          return math::ExpOp::create(b, nloc, a[0]);
        });
    Value sum = reduceWithKind(rewriter, loc, exp, {axis}, ReduceKind::sum);
    Value result;
    if (isLog) {
      result = buildParallelGeneric(
          rewriter, loc, input, type, ValueRange{shifted, sum}, {id, dropAxis},
          [](OpBuilder &b, Location nloc, ValueRange a) -> Value {
            return arith::SubFOp::create(b, nloc, a[0],
                                         math::LogOp::create(b, nloc, a[1]));
          });
    } else {
      result = buildParallelGeneric(
          rewriter, loc, input, type, ValueRange{exp, sum}, {id, dropAxis},
          [](OpBuilder &b, Location nloc, ValueRange a) -> Value {
            return arith::DivFOp::create(b, nloc, a[0], a[1]);
          });
    }
    rewriter.replaceOp(op, castTo(rewriter, loc, result, op.getType()));
    return success();
  }
};

} // namespace

Value reduceAlong(OpBuilder &b, Location loc, Value input,
                  ArrayRef<int64_t> axes, ReduceKind kind) {
  return reduceWithKind(b, loc, input, axes, kind);
}

void populateReductionPatterns(RewritePatternSet &patterns,
                               const TypeConverter *converter) {
  addPatterns<ReduceLowering, ArgReduceLowering,
              SoftmaxLowering<SoftmaxOp, false>,
              SoftmaxLowering<LogSoftmaxOp, true>>(patterns, converter);
}

} // namespace graphc::lowering
