//===- ExtraToLinalg.cpp - math, bitwise and scan ops to linalg -----------===//
//
// The ops of GraphExtraOps.td. The math and bitwise ops are elementwise
// generics over math/arith scalars. gather_elements is one parallel generic
// over the result that reads the input with tensor.extract. cumulative and
// top_k are written as generics with one extra reduction loop over the axis
// (O(n^2) per line, no sequential scan or sort): cumulative masks the
// elements each position combines with linalg.index; top_k first ranks every
// element among its line (how many elements beat it), then picks, for each
// output position r, the element of rank r.
//
//===----------------------------------------------------------------------===//

#include "LoweringUtils.h"

#include "graph/GraphOps.h"

using namespace mlir;
using namespace graphc::graph;

namespace graphc::lowering {
namespace {

//===----------------------------------------------------------------------===//
// Elementwise math and bitwise ops
//===----------------------------------------------------------------------===//

template <typename MathOp>
Value mathScalar(OpBuilder &b, Location loc, ValueRange a) {
  return MathOp::create(b, loc, a[0]);
}

Value bitwiseNot(OpBuilder &b, Location loc, ValueRange a) {
  Value ones =
      arith::ConstantOp::create(b, loc, b.getIntegerAttr(a[0].getType(), -1));
  return arith::XOrIOp::create(b, loc, a[0], ones);
}

template <typename ArithOp>
Value binaryScalar(OpBuilder &b, Location loc, ValueRange a) {
  return ArithOp::create(b, loc, a[0], a[1]);
}

//===----------------------------------------------------------------------===//
// GatherElementsOp
//===----------------------------------------------------------------------===//

struct GatherElementsLowering : OpConversionPattern<GatherElementsOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(GatherElementsOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (failed(requireStaticShapes(op))) {
      return failure();
    }
    Location loc = op.getLoc();
    Value input = adaptor.getInput(), indices = adaptor.getIndices();
    auto inputType = cast<RankedTensorType>(input.getType());
    auto resultType = cast<RankedTensorType>(op.getType());
    int64_t rank = resultType.getRank();
    int64_t axis = normalizeAxis(op.getAxis(), rank);
    int64_t size = inputType.getDimSize(axis);
    Value result = buildParallelGeneric(
        rewriter, loc, createEmpty(rewriter, loc, resultType),
        resultType.getElementType(), ValueRange{indices},
        {rewriter.getMultiDimIdentityMap(rank)},
        [&](OpBuilder &b, Location nloc, ValueRange args) -> Value {
          Value index =
              arith::IndexCastOp::create(b, nloc, b.getIndexType(), args[0]);
          Value zero = arith::ConstantIndexOp::create(b, nloc, 0);
          Value n = arith::ConstantIndexOp::create(b, nloc, size);
          Value last = arith::ConstantIndexOp::create(b, nloc, size - 1);
          Value isNeg = arith::CmpIOp::create(
              b, nloc, arith::CmpIPredicate::slt, index, zero);
          index = arith::SelectOp::create(
              b, nloc, isNeg, arith::AddIOp::create(b, nloc, index, n), index);
          // Clamp what is still out of range: never read outside `input`.
          index = arith::MaxSIOp::create(b, nloc, index, zero);
          index = arith::MinSIOp::create(b, nloc, index, last);
          SmallVector<Value> coords;
          for (int64_t d = 0; d < rank; ++d) {
            coords.push_back(d == axis ? index
                                       : linalg::IndexOp::create(b, nloc, d));
          }
          return tensor::ExtractOp::create(b, nloc, input, coords);
        });
    rewriter.replaceOp(op, result);
    return success();
  }
};

//===----------------------------------------------------------------------===//
// CumulativeOp
//===----------------------------------------------------------------------===//

/// The map from (d0 .. d(rank-1), j) that reads dimension `axis` at `j`.
AffineMap axisAtExtraDim(MLIRContext *ctx, int64_t rank, int64_t axis) {
  SmallVector<AffineExpr> exprs;
  for (int64_t d = 0; d < rank; ++d) {
    exprs.push_back(getAffineDimExpr(d == axis ? rank : d, ctx));
  }
  return AffineMap::get(rank + 1, 0, exprs, ctx);
}

/// Iterators of a generic over a rank-`rank` result plus one reduction loop.
SmallVector<utils::IteratorType> withReductionLoop(int64_t rank) {
  SmallVector<utils::IteratorType> iterators(rank,
                                             utils::IteratorType::parallel);
  iterators.push_back(utils::IteratorType::reduction);
  return iterators;
}

struct CumulativeLowering : OpConversionPattern<CumulativeOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(CumulativeOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (failed(requireStaticShapes(op))) {
      return failure();
    }
    Location loc = op.getLoc();
    MLIRContext *ctx = rewriter.getContext();
    auto type = cast<RankedTensorType>(op.getType());
    Type element = type.getElementType();
    int64_t rank = type.getRank();
    int64_t axis = normalizeAxis(op.getAxis(), rank);
    ReduceKind kind = op.getKind();
    Value init;
    switch (kind) {
    case ReduceKind::sum:
    case ReduceKind::mean:
      init = createScalar(rewriter, loc, element, 0);
      break;
    case ReduceKind::prod:
      init = createScalar(rewriter, loc, element, 1);
      break;
    case ReduceKind::max:
      init = createExtreme(rewriter, loc, element, /*negative=*/true);
      break;
    case ReduceKind::min:
      init = createExtreme(rewriter, loc, element, /*negative=*/false);
      break;
    }
    Value out = createFilled(rewriter, loc, type, init);
    // Which j contribute to position i.
    arith::CmpIPredicate pred =
        op.getReverse() ? (op.getExclusive() ? arith::CmpIPredicate::sgt
                                             : arith::CmpIPredicate::sge)
                        : (op.getExclusive() ? arith::CmpIPredicate::slt
                                             : arith::CmpIPredicate::sle);
    bool isFloat = isa<FloatType>(element);
    SmallVector<AffineMap> maps = {axisAtExtraDim(ctx, rank, axis),
                                   getDropDimsMap(ctx, rank + 1, {rank})};
    auto generic = linalg::GenericOp::create(
        rewriter, loc, TypeRange{type}, ValueRange{adaptor.getInput()},
        ValueRange{out}, maps, withReductionLoop(rank),
        [&](OpBuilder &b, Location nloc, ValueRange args) {
          Value x = args[0], acc = args[1];
          Value combined;
          switch (kind) {
          case ReduceKind::sum:
          case ReduceKind::mean:
            combined = isFloat
                           ? arith::AddFOp::create(b, nloc, acc, x)
                           : arith::AddIOp::create(b, nloc, acc, x).getResult();
            break;
          case ReduceKind::prod:
            combined = isFloat
                           ? arith::MulFOp::create(b, nloc, acc, x)
                           : arith::MulIOp::create(b, nloc, acc, x).getResult();
            break;
          case ReduceKind::max:
            combined = createMax(b, nloc, acc, x);
            break;
          case ReduceKind::min:
            combined = createMin(b, nloc, acc, x);
            break;
          }
          Value j = linalg::IndexOp::create(b, nloc, rank);
          Value i = linalg::IndexOp::create(b, nloc, axis);
          Value take = arith::CmpIOp::create(b, nloc, pred, j, i);
          linalg::YieldOp::create(b, nloc,
                                  ValueRange{arith::SelectOp::create(
                                      b, nloc, take, combined, acc)});
        });
    rewriter.replaceOp(op, generic.getResult(0));
    return success();
  }
};

//===----------------------------------------------------------------------===//
// TopKOp
//===----------------------------------------------------------------------===//

struct TopKLowering : OpConversionPattern<TopKOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(TopKOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (failed(requireStaticShapes(op))) {
      return failure();
    }
    Location loc = op.getLoc();
    MLIRContext *ctx = rewriter.getContext();
    Value input = adaptor.getInput();
    auto inputType = cast<RankedTensorType>(input.getType());
    auto valuesType = cast<RankedTensorType>(op.getValues().getType());
    auto indicesType = cast<RankedTensorType>(op.getIndices().getType());
    int64_t rank = inputType.getRank();
    int64_t axis = normalizeAxis(op.getAxis(), rank);
    bool isFloat = isa<FloatType>(inputType.getElementType());
    bool smallest = op.getSmallest();
    Type i64 = rewriter.getI64Type();
    AffineMap atI = getDropDimsMap(ctx, rank + 1, {rank});
    AffineMap atJ = axisAtExtraDim(ctx, rank, axis);

    // rank[.., i, ..] = #{j : x_j beats x_i}, where x_j beats x_i when it is
    // strictly better or equal and earlier (ties keep their order).
    auto rankType = inputType.clone(i64);
    Value zero64 = createScalar(rewriter, loc, i64, 0);
    Value ranks0 = createFilled(rewriter, loc, rankType, zero64);
    auto ranking = linalg::GenericOp::create(
        rewriter, loc, TypeRange{rankType}, ValueRange{input, input},
        ValueRange{ranks0}, ArrayRef<AffineMap>{atI, atJ, atI},
        withReductionLoop(rank),
        [&](OpBuilder &b, Location nloc, ValueRange args) {
          Value xi = args[0], xj = args[1], acc = args[2];
          Value better, equal;
          if (isFloat) {
            better = arith::CmpFOp::create(b, nloc,
                                           smallest ? arith::CmpFPredicate::OLT
                                                    : arith::CmpFPredicate::OGT,
                                           xj, xi);
            equal = arith::CmpFOp::create(b, nloc, arith::CmpFPredicate::OEQ,
                                          xj, xi);
          } else {
            better = arith::CmpIOp::create(b, nloc,
                                           smallest ? arith::CmpIPredicate::slt
                                                    : arith::CmpIPredicate::sgt,
                                           xj, xi);
            equal = arith::CmpIOp::create(b, nloc, arith::CmpIPredicate::eq, xj,
                                          xi);
          }
          Value j = linalg::IndexOp::create(b, nloc, rank);
          Value i = linalg::IndexOp::create(b, nloc, axis);
          Value earlier =
              arith::CmpIOp::create(b, nloc, arith::CmpIPredicate::slt, j, i);
          Value beats = arith::OrIOp::create(
              b, nloc, better, arith::AndIOp::create(b, nloc, equal, earlier));
          Value inc = arith::ExtUIOp::create(b, nloc, i64, beats);
          linalg::YieldOp::create(
              b, nloc, ValueRange{arith::AddIOp::create(b, nloc, acc, inc)});
        });
    Value ranks = ranking.getResult(0);

    // Output position r takes the element whose rank is r. Ranks are a
    // permutation of the line, so exactly one j matches.
    Value values0 = createFilled(
        rewriter, loc, valuesType,
        createScalar(rewriter, loc, valuesType.getElementType(), 0));
    Value indices0 = createFilled(rewriter, loc, indicesType, zero64);
    auto picking = linalg::GenericOp::create(
        rewriter, loc, TypeRange{valuesType, indicesType},
        ValueRange{input, ranks}, ValueRange{values0, indices0},
        ArrayRef<AffineMap>{atJ, atJ, atI, atI}, withReductionLoop(rank),
        [&](OpBuilder &b, Location nloc, ValueRange args) {
          Value xj = args[0], rj = args[1], accV = args[2], accI = args[3];
          Value r = arith::IndexCastOp::create(
              b, nloc, i64, linalg::IndexOp::create(b, nloc, axis));
          Value j = arith::IndexCastOp::create(
              b, nloc, i64, linalg::IndexOp::create(b, nloc, rank));
          Value match =
              arith::CmpIOp::create(b, nloc, arith::CmpIPredicate::eq, rj, r);
          linalg::YieldOp::create(
              b, nloc,
              ValueRange{arith::SelectOp::create(b, nloc, match, xj, accV),
                         arith::SelectOp::create(b, nloc, match, j, accI)});
        });
    rewriter.replaceOp(op, picking.getResults());
    return success();
  }
};

} // namespace

void populateExtraPatterns(RewritePatternSet &patterns,
                           const TypeConverter *converter) {
  addPatterns<
      ElementwiseBodyLowering<TanOp, mathScalar<math::TanOp>>,
      ElementwiseBodyLowering<AsinOp, mathScalar<math::AsinOp>>,
      ElementwiseBodyLowering<AcosOp, mathScalar<math::AcosOp>>,
      ElementwiseBodyLowering<AtanOp, mathScalar<math::AtanOp>>,
      ElementwiseBodyLowering<SinhOp, mathScalar<math::SinhOp>>,
      ElementwiseBodyLowering<CoshOp, mathScalar<math::CoshOp>>,
      ElementwiseBodyLowering<AsinhOp, mathScalar<math::AsinhOp>>,
      ElementwiseBodyLowering<AcoshOp, mathScalar<math::AcoshOp>>,
      ElementwiseBodyLowering<AtanhOp, mathScalar<math::AtanhOp>>,
      ElementwiseBodyLowering<BitwiseAndOp, binaryScalar<arith::AndIOp>>,
      ElementwiseBodyLowering<BitwiseOrOp, binaryScalar<arith::OrIOp>>,
      ElementwiseBodyLowering<BitwiseXorOp, binaryScalar<arith::XOrIOp>>,
      ElementwiseBodyLowering<BitwiseNotOp, bitwiseNot>, GatherElementsLowering,
      CumulativeLowering, TopKLowering>(patterns, converter);
}

} // namespace graphc::lowering
