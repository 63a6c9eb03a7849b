//===- SamplingToLinalg.cpp - grid sampling, col2im and bit ops to linalg -===//
//
// The ops of GraphSamplingOps.td. grid_sample is one parallel generic over
// the result that reads the grid point's components through constant-index
// maps, computes the neighbours' coordinates and weights in the body and
// reads them with tensor.extract (the vectoriser makes these gathers).
// col2im is the gather form of the scatter-add it describes: a generic over
// the image with reduction loops over the block, each image element summing
// the block elements that land on it. The shifts and bitcast are
// elementwise generics over arith scalars.
//
//===----------------------------------------------------------------------===//

#include "LoweringUtils.h"

#include "graph/GraphOps.h"

using namespace mlir;
using namespace graphc::graph;

namespace graphc::lowering {
namespace {

//===----------------------------------------------------------------------===//
// GridSampleOp
//===----------------------------------------------------------------------===//

/// Builds the scalar arithmetic of one grid_sample result element, following
/// the ONNX reference implementation step by step.
class Sampler {
public:
  Sampler(OpBuilder &b, Location loc, GridSampleOp op, Value input)
      : b(b), loc(loc), op(op), input(input),
        type(cast<RankedTensorType>(input.getType())),
        element(type.getElementType()) {
    batch = linalg::IndexOp::create(b, loc, 0);
    channel = linalg::IndexOp::create(b, loc, 1);
  }

  /// The result element at the current generic position for the point
  /// whose components (width first) are `point`.
  Value sample(ValueRange point) {
    int64_t k = type.getRank() - 2;
    SmallVector<Value> coords;
    for (int64_t d = 0; d < k; ++d) {
      Value x = denormalize(point[k - 1 - d], d);
      if (op.getMode() == SampleMode::nearest) {
        x = math::RoundEvenOp::create(b, loc, x);
      }
      coords.push_back(padCoordinate(x, d));
    }
    if (op.getMode() == SampleMode::nearest) {
      SmallVector<Tap> at;
      for (int64_t d = 0; d < k; ++d) {
        at.push_back(tap(coords[d], d));
      }
      return read(at);
    }
    // Neighbours and weights per dimension, then the sum over all their
    // combinations of the product of weights times the element.
    bool cubic = op.getMode() == SampleMode::cubic;
    int64_t count = cubic ? 4 : 2;
    SmallVector<SmallVector<Tap>> at(k);
    SmallVector<SmallVector<Value>> weight(k);
    for (int64_t d = 0; d < k; ++d) {
      Value floor = math::FloorOp::create(b, loc, coords[d]);
      Value frac = arith::SubFOp::create(b, loc, coords[d], floor);
      for (int64_t t = 0; t < count; ++t) {
        Value x =
            arith::AddFOp::create(b, loc, floor, constant(t - (cubic ? 1 : 0)));
        at[d].push_back(tap(x, d));
      }
      weight[d] = cubic ? cubicWeights(frac) : linearWeights(frac);
    }
    Value sum = constant(0);
    SmallVector<int64_t> pick(k, 0);
    while (true) {
      SmallVector<Tap> where;
      Value w;
      for (int64_t d = 0; d < k; ++d) {
        where.push_back(at[d][pick[d]]);
        w = w ? arith::MulFOp::create(b, loc, w, weight[d][pick[d]])
              : weight[d][pick[d]];
      }
      sum = arith::AddFOp::create(
          b, loc, sum, arith::MulFOp::create(b, loc, w, read(where)));
      int64_t d = k - 1;
      while (d >= 0 && ++pick[d] == count) {
        pick[d--] = 0;
      }
      if (d < 0) {
        break;
      }
    }
    return sum;
  }

private:
  Value constant(double v) { return createScalar(b, loc, element, v); }
  int64_t size(int64_t d) { return type.getDimSize(d + 2); }
  /// The borders a coordinate is clamped or reflected to.
  double low(int64_t) { return op.getAlignCorners() ? 0.0 : -0.5; }
  double high(int64_t d) {
    return op.getAlignCorners() ? size(d) - 1.0 : size(d) - 0.5;
  }

  Value denormalize(Value g, int64_t d) {
    // align_corners: (g + 1) / 2 * (D - 1); else ((g + 1) * D - 1) / 2.
    Value plus1 = arith::AddFOp::create(b, loc, g, constant(1));
    if (op.getAlignCorners()) {
      return arith::MulFOp::create(b, loc, plus1,
                                   constant((size(d) - 1) / 2.0));
    }
    Value scaled = arith::MulFOp::create(b, loc, plus1, constant(size(d)));
    return arith::MulFOp::create(
        b, loc, arith::SubFOp::create(b, loc, scaled, constant(1)),
        constant(0.5));
  }

  Value clamp(Value x, double lo, double hi) {
    x = arith::MaxNumFOp::create(b, loc, x, constant(lo));
    return arith::MinNumFOp::create(b, loc, x, constant(hi));
  }

  /// Reflects `x` at the borders `lo` and `hi` until it lies between them.
  Value reflect(Value x, double lo, double hi) {
    double range = hi - lo;
    if (range <= 0) {
      return constant(lo);
    }
    auto fold = [&](Value dx, double near, double far) {
      // n = floor(dx / range) whole reflections, r what is left; an even
      // n leaves x on the near side.
      Value n = math::FloorOp::create(
          b, loc, arith::MulFOp::create(b, loc, dx, constant(1.0 / range)));
      Value r = arith::SubFOp::create(
          b, loc, dx, arith::MulFOp::create(b, loc, n, constant(range)));
      Value half = math::FloorOp::create(
          b, loc, arith::MulFOp::create(b, loc, n, constant(0.5)));
      Value parity = arith::SubFOp::create(
          b, loc, n, arith::MulFOp::create(b, loc, half, constant(2)));
      Value even = arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OEQ,
                                         parity, constant(0));
      Value plus =
          arith::AddFOp::create(b, loc, constant(near < far ? near : far), r);
      Value minus =
          arith::SubFOp::create(b, loc, constant(near < far ? far : near), r);
      // From the low border the reflection adds, from the high it subtracts.
      Value fromNear = near < far ? plus : minus;
      Value fromFar = near < far ? minus : plus;
      return arith::SelectOp::create(b, loc, even, fromNear, fromFar)
          .getResult();
    };
    Value below = fold(arith::SubFOp::create(b, loc, constant(lo), x), lo, hi);
    Value above = fold(arith::SubFOp::create(b, loc, x, constant(hi)), hi, lo);
    Value isBelow = arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OLT, x,
                                          constant(lo));
    Value isAbove = arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OGT, x,
                                          constant(hi));
    return arith::SelectOp::create(
        b, loc, isBelow, below,
        arith::SelectOp::create(b, loc, isAbove, above, x));
  }

  /// A point outside the borders is clamped (border) or reflected
  /// (reflection) before interpolation; zeros padding leaves it.
  Value padCoordinate(Value x, int64_t d) {
    switch (op.getPadding()) {
    case SamplePadding::zeros:
      return x;
    case SamplePadding::border: {
      Value outside = arith::OrIOp::create(
          b, loc,
          arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OLT, x,
                                constant(low(d))),
          arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OGT, x,
                                constant(high(d))));
      return arith::SelectOp::create(b, loc, outside, clamp(x, 0, size(d) - 1),
                                     x);
    }
    case SamplePadding::reflection:
      return reflect(x, low(d), high(d));
    }
    llvm_unreachable("unknown sample padding");
  }

  SmallVector<Value> linearWeights(Value frac) {
    return {arith::SubFOp::create(b, loc, constant(1), frac), frac};
  }

  SmallVector<Value> cubicWeights(Value frac) {
    // Keys' cubic convolution with a = -0.75, at distances 1 + f, f, 1 - f
    // and 2 - f from the four neighbours.
    const double a = -0.75;
    auto mul = [&](Value x, Value y) {
      return arith::MulFOp::create(b, loc, x, y).getResult();
    };
    auto add = [&](Value x, double c) {
      return arith::AddFOp::create(b, loc, x, constant(c)).getResult();
    };
    auto scale = [&](Value x, double c) { return mul(x, constant(c)); };
    auto outer = [&](Value x) { // 1 < |x| < 2
      return add(mul(add(mul(add(scale(x, a), -5 * a), x), 8 * a), x), -4 * a);
    };
    auto inner = [&](Value x) { // |x| <= 1
      return add(mul(mul(add(scale(x, a + 2), -(a + 3)), x), x), 1);
    };
    Value oneMinus = arith::SubFOp::create(b, loc, constant(1), frac);
    Value twoMinus = arith::SubFOp::create(b, loc, constant(2), frac);
    return {outer(add(frac, 1)), inner(frac), inner(oneMinus), outer(twoMinus)};
  }

  /// Where a neighbour at the whole-numbered coordinate `x` of spatial
  /// dimension `d` is read: an index into the input, and (zeros padding)
  /// whether it lies inside. The padding mode is applied here.
  struct Tap {
    Value index, inside;
  };
  Tap tap(Value x, int64_t d) {
    double last = size(d) - 1;
    Value inside;
    if (op.getPadding() == SamplePadding::zeros) {
      inside = arith::AndIOp::create(
          b, loc,
          arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OGE, x,
                                constant(0)),
          arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OLE, x,
                                constant(last)));
    } else if (op.getPadding() == SamplePadding::reflection) {
      x = reflect(x, low(d), high(d));
    }
    // Clamping is the border mode, and a guard for the others (NaN goes
    // to 0), so the read never leaves the input.
    x = clamp(x, 0, last);
    Value i = arith::FPToSIOp::create(b, loc, b.getI64Type(), x);
    return {arith::IndexCastOp::create(b, loc, b.getIndexType(), i), inside};
  }

  /// input[n, c, taps...], 0 where a tap lies outside (zeros padding).
  Value read(ArrayRef<Tap> taps) {
    SmallVector<Value> indices{batch, channel};
    Value inside;
    for (const Tap &t : taps) {
      indices.push_back(t.index);
      if (t.inside) {
        inside =
            inside ? arith::AndIOp::create(b, loc, inside, t.inside) : t.inside;
      }
    }
    Value v = tensor::ExtractOp::create(b, loc, input, indices);
    return inside ? arith::SelectOp::create(b, loc, inside, v, constant(0))
                        .getResult()
                  : v;
  }

  OpBuilder &b;
  Location loc;
  GridSampleOp op;
  Value input, batch, channel;
  RankedTensorType type;
  Type element;
};

struct GridSampleLowering : OpConversionPattern<GridSampleOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(GridSampleOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (failed(requireStaticShapes(op))) {
      return failure();
    }
    Location loc = op.getLoc();
    auto resultType = cast<RankedTensorType>(op.getType());
    int64_t rank = resultType.getRank(), k = rank - 2;
    MLIRContext *ctx = rewriter.getContext();
    // Component j of the point for result (n, c, o...) is grid[n, o..., j].
    SmallVector<Value> grids(k, adaptor.getGrid());
    SmallVector<AffineMap> maps;
    for (int64_t j = 0; j < k; ++j) {
      SmallVector<AffineExpr> exprs{getAffineDimExpr(0, ctx)};
      for (int64_t d = 2; d < rank; ++d) {
        exprs.push_back(getAffineDimExpr(d, ctx));
      }
      exprs.push_back(getAffineConstantExpr(j, ctx));
      maps.push_back(AffineMap::get(rank, 0, exprs, ctx));
    }
    Value result = buildParallelGeneric(
        rewriter, loc, createEmpty(rewriter, loc, resultType),
        resultType.getElementType(), grids, maps,
        [&](OpBuilder &b, Location nloc, ValueRange point) -> Value {
          return Sampler(b, nloc, op, adaptor.getInput()).sample(point);
        });
    rewriter.replaceOp(op, result);
    return success();
  }
};

//===----------------------------------------------------------------------===//
// Col2ImOp
//===----------------------------------------------------------------------===//

struct Col2ImLowering : OpConversionPattern<Col2ImOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(Col2ImOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (failed(requireStaticShapes(op))) {
      return failure();
    }
    Location loc = op.getLoc();
    Value input = adaptor.getInput();
    auto resultType = cast<RankedTensorType>(op.getType());
    Type element = resultType.getElementType();
    ArrayRef<int64_t> image = op.getImageShape(), block = op.getBlockShape();
    int64_t k = image.size(), rank = 2 + k;
    SmallVector<int64_t> ones(k, 1), zeros(2 * k, 0);
    ArrayRef<int64_t> dilations = op.getDilations() ? *op.getDilations() : ones;
    ArrayRef<int64_t> strides = op.getStrides() ? *op.getStrides() : ones;
    ArrayRef<int64_t> pads = op.getPads() ? *op.getPads() : zeros;
    // Block positions per dimension and row-major strides of the positions
    // and of the block elements.
    SmallVector<int64_t> positions(k), positionStride(k), blockStride(k);
    int64_t ps = 1, bs = 1;
    for (int64_t d = k - 1; d >= 0; --d) {
      int64_t span = dilations[d] * (block[d] - 1) + 1;
      positions[d] = (image[d] + pads[d] + pads[k + d] - span) / strides[d] + 1;
      positionStride[d] = ps;
      blockStride[d] = bs;
      ps *= positions[d];
      bs *= block[d];
    }
    int64_t blockSize = bs;

    // Loops: (n, c, y...) parallel, then the block (b...) as reductions;
    // an empty tensor of the block's shape gives those loops their sizes.
    MLIRContext *ctx = rewriter.getContext();
    SmallVector<AffineExpr> blockExprs, resultExprs;
    for (int64_t d = 0; d < k; ++d) {
      blockExprs.push_back(getAffineDimExpr(rank + d, ctx));
    }
    for (int64_t d = 0; d < rank; ++d) {
      resultExprs.push_back(getAffineDimExpr(d, ctx));
    }
    SmallVector<utils::IteratorType> iterators(rank,
                                               utils::IteratorType::parallel);
    iterators.append(k, utils::IteratorType::reduction);
    Value blockShape = tensor::EmptyOp::create(rewriter, loc, block, element);
    Value zero = createScalar(rewriter, loc, element, 0);
    Value init = createFilled(rewriter, loc, resultType, zero);
    auto generic = linalg::GenericOp::create(
        rewriter, loc, TypeRange{resultType}, ValueRange{blockShape},
        ValueRange{init},
        ArrayRef<AffineMap>{AffineMap::get(rank + k, 0, blockExprs, ctx),
                            AffineMap::get(rank + k, 0, resultExprs, ctx)},
        iterators, [&](OpBuilder &b, Location nloc, ValueRange args) {
          auto index = [&](int64_t v) {
            return arith::ConstantIndexOp::create(b, nloc, v).getResult();
          };
          Value valid, position = index(0),
                       channel = arith::MulIOp::create(
                           b, nloc, linalg::IndexOp::create(b, nloc, 1),
                           index(blockSize));
          for (int64_t d = 0; d < k; ++d) {
            Value y = linalg::IndexOp::create(b, nloc, 2 + d);
            Value e = linalg::IndexOp::create(b, nloc, rank + d);
            // t = y + pad - e * dilation must be p * stride, 0 <= p < P.
            Value t = arith::SubIOp::create(
                b, nloc, arith::AddIOp::create(b, nloc, y, index(pads[d])),
                arith::MulIOp::create(b, nloc, e, index(dilations[d])));
            Value nonNegative = arith::CmpIOp::create(
                b, nloc, arith::CmpIPredicate::sge, t, index(0));
            t = arith::MaxSIOp::create(b, nloc, t, index(0));
            Value p = arith::DivUIOp::create(b, nloc, t, index(strides[d]));
            Value onGrid = arith::CmpIOp::create(
                b, nloc, arith::CmpIPredicate::eq,
                arith::RemUIOp::create(b, nloc, t, index(strides[d])),
                index(0));
            Value inRange = arith::CmpIOp::create(
                b, nloc, arith::CmpIPredicate::ult, p, index(positions[d]));
            p = arith::MinUIOp::create(b, nloc, p, index(positions[d] - 1));
            Value ok = arith::AndIOp::create(
                b, nloc, nonNegative,
                arith::AndIOp::create(b, nloc, onGrid, inRange));
            valid = valid ? arith::AndIOp::create(b, nloc, valid, ok) : ok;
            position = arith::AddIOp::create(
                b, nloc, position,
                arith::MulIOp::create(b, nloc, p, index(positionStride[d])));
            channel = arith::AddIOp::create(
                b, nloc, channel,
                arith::MulIOp::create(b, nloc, e, index(blockStride[d])));
          }
          Value v = tensor::ExtractOp::create(
              b, nloc, input,
              ValueRange{linalg::IndexOp::create(b, nloc, 0), channel,
                         position});
          v = arith::SelectOp::create(b, nloc, valid, v,
                                      createScalar(b, nloc, element, 0));
          Value sum =
              isa<FloatType>(element)
                  ? arith::AddFOp::create(b, nloc, args[1], v).getResult()
                  : arith::AddIOp::create(b, nloc, args[1], v).getResult();
          linalg::YieldOp::create(b, nloc, sum);
        });
    rewriter.replaceOp(op, generic.getResult(0));
    return success();
  }
};

//===----------------------------------------------------------------------===//
// Shifts and bitcast
//===----------------------------------------------------------------------===//

/// x << n or x >> n (logical); 0 when n, read as unsigned, is at least the
/// bit width (where arith's shifts are poison).
template <typename ShiftOp>
Value shiftScalar(OpBuilder &b, Location loc, ValueRange a) {
  Type type = a[0].getType();
  Value width = arith::ConstantOp::create(
      b, loc, b.getIntegerAttr(type, type.getIntOrFloatBitWidth()));
  Value inRange =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, a[1], width);
  Value zero = arith::ConstantOp::create(b, loc, b.getIntegerAttr(type, 0));
  return arith::SelectOp::create(b, loc, inRange,
                                 ShiftOp::create(b, loc, a[0], a[1]), zero);
}

struct BitcastLowering : OpConversionPattern<BitcastOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(BitcastOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    FailureOr<RankedTensorType> type = getRankedResultType(op);
    if (failed(type)) {
      return failure();
    }
    Type to = type->getElementType();
    Value result = buildElementwise(
        rewriter, op.getLoc(), *type, adaptor.getInput(),
        [&](OpBuilder &b, Location loc, ValueRange a) -> Value {
          Type from = a[0].getType();
          if (from == to) {
            return a[0];
          }
          // A boolean is a byte holding 0 or 1; a byte is true when
          // non-zero.
          if (from.isInteger(1)) {
            Value byte = arith::ExtUIOp::create(b, loc, b.getI8Type(), a[0]);
            return isa<FloatType>(to)
                       ? arith::BitcastOp::create(b, loc, to, byte).getResult()
                       : byte;
          }
          if (to.isInteger(1)) {
            Value byte = a[0];
            if (isa<FloatType>(from)) {
              byte = arith::BitcastOp::create(b, loc, b.getI8Type(), byte);
            }
            Value zero = arith::ConstantOp::create(
                b, loc, b.getIntegerAttr(byte.getType(), 0));
            return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ne, byte,
                                         zero);
          }
          return arith::BitcastOp::create(b, loc, to, a[0]);
        });
    rewriter.replaceOp(op, result);
    return success();
  }
};

} // namespace

void populateSamplingPatterns(RewritePatternSet &patterns,
                              const TypeConverter *converter) {
  addPatterns<
      GridSampleLowering, Col2ImLowering, BitcastLowering,
      ElementwiseBodyLowering<ShiftLeftOp, shiftScalar<arith::ShLIOp>>,
      ElementwiseBodyLowering<ShiftRightOp, shiftScalar<arith::ShRUIOp>>>(
      patterns, converter);
}

} // namespace graphc::lowering
