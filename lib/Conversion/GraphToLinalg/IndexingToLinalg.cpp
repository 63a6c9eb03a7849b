//===- IndexingToLinalg.cpp - gather_nd, scatters, resize to linalg/scf ---===//
//
// gather_nd is one parallel linalg.generic over the result that reads its
// source coordinates from `indices` with tensor.extract. The scatters are an
// scf.for nest over the elements of `updates` that carries the result tensor
// (initially `input`, which bufferization copies) and combines each update
// into the element it lands on with tensor.extract / tensor.insert: one
// visit per update element, in order, so duplicate indices combine exactly
// as the reduction says (for `none` the last update wins). resize is a
// generic over the result that computes its source coordinates.
//
//===----------------------------------------------------------------------===//

#include "LoweringUtils.h"

#include "graph/GraphOps.h"

#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;
using namespace graphc::graph;

namespace graphc::lowering {
namespace {

/// `index` (any integer type) as an `index` value, counted from the end of
/// a dimension of size `size` when negative.
Value wrapIndex(OpBuilder &b, Location loc, Value index, Value size) {
  if (!index.getType().isIndex()) {
    index = arith::IndexCastOp::create(b, loc, b.getIndexType(), index);
  }
  Value zero = arith::ConstantIndexOp::create(b, loc, 0);
  Value isNeg =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt, index, zero);
  Value wrapped = arith::AddIOp::create(b, loc, index, size);
  return arith::SelectOp::create(b, loc, isNeg, wrapped, index);
}

Value dimOf(OpBuilder &b, Location loc, Value tensor, int64_t d) {
  return b.createOrFold<tensor::DimOp>(loc, tensor, d);
}

//===----------------------------------------------------------------------===//
// GatherNdOp
//===----------------------------------------------------------------------===//

struct GatherNdLowering : OpConversionPattern<GatherNdOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(GatherNdOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (failed(requireStaticShapes(op))) {
      return failure();
    }
    Location loc = op.getLoc();
    Value input = adaptor.getInput(), indices = adaptor.getIndices();
    auto inputType = cast<RankedTensorType>(input.getType());
    auto indicesType = cast<RankedTensorType>(indices.getType());
    auto resultType = cast<RankedTensorType>(op.getType());
    int64_t batch = static_cast<int64_t>(op.getBatchDims());
    int64_t indexRank = indicesType.getRank();
    int64_t k = indicesType.getDimSize(indexRank - 1);
    Value result = buildParallelGeneric(
        rewriter, loc, createEmpty(rewriter, loc, resultType),
        resultType.getElementType(), ValueRange{}, {},
        [&](OpBuilder &b, Location nloc, ValueRange) -> Value {
          // Result dims [0, indexRank - 1) walk the index tuples (the first
          // `batch` of them are also the input's batch dims); the rest walk
          // the gathered slice.
          SmallVector<Value> tuple;
          for (int64_t d = 0; d + 1 < indexRank; ++d) {
            tuple.push_back(linalg::IndexOp::create(b, nloc, d));
          }
          SmallVector<Value> coords(tuple.begin(), tuple.begin() + batch);
          for (int64_t j = 0; j < k; ++j) {
            SmallVector<Value> at(tuple);
            at.push_back(arith::ConstantIndexOp::create(b, nloc, j));
            Value index = tensor::ExtractOp::create(b, nloc, indices, at);
            Value size = arith::ConstantIndexOp::create(
                b, nloc, inputType.getDimSize(batch + j));
            coords.push_back(wrapIndex(b, nloc, index, size));
          }
          for (int64_t d = indexRank - 1; d < resultType.getRank(); ++d) {
            coords.push_back(linalg::IndexOp::create(b, nloc, d));
          }
          return tensor::ExtractOp::create(b, nloc, input, coords);
        });
    rewriter.replaceOp(op, result);
    return success();
  }
};

//===----------------------------------------------------------------------===//
// ScatterElementsOp, ScatterNdOp
//===----------------------------------------------------------------------===//

/// Combines `update` into the element of `dest` at `at` by `reduction`.
Value combine(OpBuilder &b, Location loc, ScatterReduction reduction,
              Value dest, ValueRange at, Value update) {
  if (reduction == ScatterReduction::none) {
    return update;
  }
  Value old = tensor::ExtractOp::create(b, loc, dest, at);
  Type type = update.getType();
  bool isFloat = isa<FloatType>(type);
  bool isBool = type.isInteger(1);
  switch (reduction) {
  case ScatterReduction::none:
    break;
  case ScatterReduction::add:
    if (isFloat) {
      return arith::AddFOp::create(b, loc, old, update);
    }
    if (isBool) {
      return arith::OrIOp::create(b, loc, old, update);
    }
    return arith::AddIOp::create(b, loc, old, update);
  case ScatterReduction::mul:
    if (isFloat) {
      return arith::MulFOp::create(b, loc, old, update);
    }
    if (isBool) {
      return arith::AndIOp::create(b, loc, old, update);
    }
    return arith::MulIOp::create(b, loc, old, update);
  case ScatterReduction::max:
    return createMax(b, loc, old, update);
  case ScatterReduction::min:
    return createMin(b, loc, old, update);
  }
  return update;
}

using DestinationFn =
    llvm::function_ref<SmallVector<Value>(OpBuilder &, Location, ValueRange)>;

/// Visits every element of `updates` in row-major order and combines it
/// into a copy of `input` at `destination(ivs)`.
Value scatterLoops(OpBuilder &b, Location loc, Value input, Value updates,
                   ScatterReduction reduction, DestinationFn destination) {
  auto updatesType = cast<RankedTensorType>(updates.getType());
  SmallVector<Value> lbs, ubs, steps;
  Value zero = arith::ConstantIndexOp::create(b, loc, 0);
  Value one = arith::ConstantIndexOp::create(b, loc, 1);
  for (int64_t d = 0; d < updatesType.getRank(); ++d) {
    lbs.push_back(zero);
    ubs.push_back(dimOf(b, loc, updates, d));
    steps.push_back(one);
  }
  if (updatesType.getRank() == 0) {
    SmallVector<Value> dest = destination(b, loc, ValueRange{});
    Value update = tensor::ExtractOp::create(b, loc, updates, ValueRange{});
    return tensor::InsertOp::create(
        b, loc, combine(b, loc, reduction, input, dest, update), input, dest);
  }
  scf::LoopNest nest = scf::buildLoopNest(
      b, loc, lbs, ubs, steps, ValueRange{input},
      [&](OpBuilder &nb, Location nloc, ValueRange ivs,
          ValueRange iterArgs) -> scf::ValueVector {
        SmallVector<Value> dest = destination(nb, nloc, ivs);
        Value update = tensor::ExtractOp::create(nb, nloc, updates, ivs);
        Value current = iterArgs[0];
        Value combined = combine(nb, nloc, reduction, current, dest, update);
        return {tensor::InsertOp::create(nb, nloc, combined, current, dest)
                    .getResult()};
      });
  return nest.results.front();
}

struct ScatterElementsLowering : OpConversionPattern<ScatterElementsOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(ScatterElementsOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value input = adaptor.getInput(), indices = adaptor.getIndices();
    auto inputType = cast<RankedTensorType>(input.getType());
    int64_t axis =
        normalizeAxis(static_cast<int64_t>(op.getAxis()), inputType.getRank());
    Value axisSize = dimOf(rewriter, loc, input, axis);
    Value result = scatterLoops(
        rewriter, loc, input, adaptor.getUpdates(), op.getReduction(),
        [&](OpBuilder &b, Location nloc, ValueRange ivs) {
          SmallVector<Value> dest(ivs);
          Value index = tensor::ExtractOp::create(b, nloc, indices, ivs);
          dest[axis] = wrapIndex(b, nloc, index, axisSize);
          return dest;
        });
    rewriter.replaceOp(op, castToResult(rewriter, loc, result, op));
    return success();
  }

  static Value castToResult(OpBuilder &b, Location loc, Value value,
                            Operation *op) {
    Type type = op->getResult(0).getType();
    return value.getType() == type
               ? value
               : tensor::CastOp::create(b, loc, type, value).getResult();
  }
};

struct ScatterNdLowering : OpConversionPattern<ScatterNdOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(ScatterNdOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value input = adaptor.getInput(), indices = adaptor.getIndices();
    auto indicesType = cast<RankedTensorType>(indices.getType());
    int64_t indexRank = indicesType.getRank();
    int64_t k = indicesType.getDimSize(indexRank - 1);
    if (ShapedType::isDynamic(k)) {
      return op.emitError("graph-to-linalg: graph.scatter_nd needs a static "
                          "last dimension of indices, got ")
             << indicesType;
    }
    SmallVector<Value> sizes;
    for (int64_t j = 0; j < k; ++j) {
      sizes.push_back(dimOf(rewriter, loc, input, j));
    }
    Value result = scatterLoops(
        rewriter, loc, input, adaptor.getUpdates(), op.getReduction(),
        [&](OpBuilder &b, Location nloc, ValueRange ivs) {
          // updates[t..., s...]: indices[t..., :] picks the leading k input
          // coordinates, s the rest.
          SmallVector<Value> tuple(ivs.take_front(indexRank - 1));
          SmallVector<Value> dest;
          for (int64_t j = 0; j < k; ++j) {
            SmallVector<Value> at(tuple);
            at.push_back(arith::ConstantIndexOp::create(b, nloc, j));
            Value index = tensor::ExtractOp::create(b, nloc, indices, at);
            dest.push_back(wrapIndex(b, nloc, index, sizes[j]));
          }
          for (Value iv : ivs.drop_front(indexRank - 1)) {
            dest.push_back(iv);
          }
          return dest;
        });
    rewriter.replaceOp(
        op, ScatterElementsLowering::castToResult(rewriter, loc, result, op));
    return success();
  }
};

//===----------------------------------------------------------------------===//
// ResizeOp
//===----------------------------------------------------------------------===//

/// The input coordinate (f64) that output index `out` (index) of a
/// dimension of `in` cells resized by `scale` maps to, as ONNX defines each
/// coordinate transformation mode (the resized length is `in * scale`,
/// which is the output size unless the scale was given explicitly).
Value sourceCoordinate(OpBuilder &b, Location loc, CoordinateMode mode,
                       Value out, int64_t in, double scale) {
  Type f64 = b.getF64Type();
  Value x = arith::UIToFPOp::create(
      b, loc, f64, arith::IndexCastUIOp::create(b, loc, b.getI64Type(), out));
  auto constant = [&](double value) -> Value {
    return arith::ConstantOp::create(b, loc, b.getF64FloatAttr(value));
  };
  double size = static_cast<double>(in) * scale;
  switch (mode) {
  case CoordinateMode::half_pixel:
  case CoordinateMode::pytorch_half_pixel: {
    if (mode == CoordinateMode::pytorch_half_pixel && size == 1) {
      return constant(0);
    }
    // (x + 0.5) / scale - 0.5
    Value shifted = arith::AddFOp::create(b, loc, x, constant(0.5));
    return arith::SubFOp::create(
        b, loc, arith::DivFOp::create(b, loc, shifted, constant(scale)),
        constant(0.5));
  }
  case CoordinateMode::align_corners:
    if (size == 1) {
      return constant(0);
    }
    return arith::MulFOp::create(
        b, loc, x, constant(static_cast<double>(in - 1) / (size - 1)));
  case CoordinateMode::asymmetric:
    return arith::DivFOp::create(b, loc, x, constant(scale));
  }
  llvm_unreachable("unknown coordinate mode");
}

/// `value` (f64, integral) as an index clamped to [0, in - 1].
Value clampedIndex(OpBuilder &b, Location loc, Value value, int64_t in) {
  Value i = arith::FPToSIOp::create(b, loc, b.getI64Type(), value);
  Value lo = arith::ConstantOp::create(b, loc, b.getI64IntegerAttr(0));
  Value hi = arith::ConstantOp::create(b, loc, b.getI64IntegerAttr(in - 1));
  i = arith::MaxSIOp::create(b, loc, i, lo);
  i = arith::MinSIOp::create(b, loc, i, hi);
  return arith::IndexCastOp::create(b, loc, b.getIndexType(), i);
}

/// One generic over the result that reads the input with tensor.extract:
/// nearest takes the rounded (half down) source coordinate; linear blends
/// the two neighbours of every resized dimension, cubic the four (Keys,
/// A = -0.75), clamping indices at the edges as ONNX's edge padding does.
struct ResizeLowering : OpConversionPattern<ResizeOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(ResizeOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (failed(requireStaticShapes(op))) {
      return failure();
    }
    Location loc = op.getLoc();
    Value input = adaptor.getInput();
    auto inputType = cast<RankedTensorType>(input.getType());
    auto resultType = cast<RankedTensorType>(op.getType());
    Type elementType = resultType.getElementType();
    bool linear = op.getMode() == ResizeMode::linear;
    if (op.getMode() != ResizeMode::nearest && !isa<FloatType>(elementType)) {
      // The verifier rejects these already.
      return op.emitError("graph-to-linalg: interpolating resize of ")
             << elementType << " is not supported";
    }
    CoordinateMode mode = op.getCoordinateMode();
    std::optional<ArrayRef<double>> scales = op.getScales();
    int64_t rank = resultType.getRank();
    Value result = buildParallelGeneric(
        rewriter, loc, createEmpty(rewriter, loc, resultType), elementType,
        ValueRange{}, {},
        [&](OpBuilder &b, Location nloc, ValueRange) -> Value {
          auto constant = [&](double value) -> Value {
            return arith::ConstantOp::create(b, nloc, b.getF64FloatAttr(value));
          };
          // Per dimension: the taps (source index, weight) it reads; one
          // unweighted tap where the size is kept or for nearest.
          auto sub = [&](Value p, Value q) -> Value {
            return arith::SubFOp::create(b, nloc, p, q);
          };
          auto mul = [&](Value p, Value q) -> Value {
            return arith::MulFOp::create(b, nloc, p, q);
          };
          auto add = [&](Value p, Value q) -> Value {
            return arith::AddFOp::create(b, nloc, p, q);
          };
          SmallVector<SmallVector<std::pair<Value, Value>>> taps;
          SmallVector<int64_t> resized;
          for (int64_t d = 0; d < rank; ++d) {
            Value out = linalg::IndexOp::create(b, nloc, d);
            int64_t in = inputType.getDimSize(d);
            int64_t size = resultType.getDimSize(d);
            double scale = scales ? (*scales)[d]
                                  : static_cast<double>(size) /
                                        static_cast<double>(in);
            if (in == size && scale == 1.0) {
              taps.push_back({{out, nullptr}});
              continue;
            }
            Value x = sourceCoordinate(b, nloc, mode, out, in, scale);
            if (op.getMode() == ResizeMode::nearest) {
              // round_prefer_floor: ceil(x - 0.5).
              Value rounded = math::CeilOp::create(
                  b, nloc, arith::SubFOp::create(b, nloc, x, constant(0.5)));
              taps.push_back({{clampedIndex(b, nloc, rounded, in), nullptr}});
              continue;
            }
            resized.push_back(d);
            Value floor = math::FloorOp::create(b, nloc, x);
            Value t = arith::SubFOp::create(b, nloc, x, floor);
            auto at = [&](double offset) {
              return clampedIndex(
                  b, nloc,
                  arith::AddFOp::create(b, nloc, floor, constant(offset)), in);
            };
            if (linear) {
              taps.push_back({{at(0), sub(constant(1), t)}, {at(1), t}});
              continue;
            }
            // Keys' cubic convolution with A = -0.75 (ONNX's default and
            // PyTorch's): |s| <= 1: (A+2)|s|^3 - (A+3)|s|^2 + 1;
            // 1 < |s| < 2: A|s|^3 - 5A|s|^2 + 8A|s| - 4A; s = distance.
            double a = -0.75;
            auto near = [&](Value s) {
              Value s2 = mul(s, s);
              return add(sub(mul(constant(a + 2), mul(s2, s)),
                             mul(constant(a + 3), s2)),
                         constant(1));
            };
            auto far = [&](Value s) {
              Value s2 = mul(s, s);
              return sub(add(sub(mul(constant(a), mul(s2, s)),
                                 mul(constant(5 * a), s2)),
                             mul(constant(8 * a), s)),
                         constant(4 * a));
            };
            Value oneMinus = sub(constant(1), t);
            taps.push_back({{at(-1), far(add(t, constant(1)))},
                            {at(0), near(t)},
                            {at(1), near(oneMinus)},
                            {at(2), far(add(oneMinus, constant(1)))}});
          }
          SmallVector<Value> coords;
          for (auto &dimTaps : taps) {
            coords.push_back(dimTaps.front().first);
          }
          if (resized.empty()) {
            return tensor::ExtractOp::create(b, nloc, input, coords);
          }
          // Sum over every combination of taps in f64 (2^k reads for linear,
          // 4^k for cubic, k resized dimensions).
          Value acc = constant(0);
          SmallVector<size_t> pick(resized.size(), 0);
          while (true) {
            Value weight = constant(1);
            for (auto [i, d] : llvm::enumerate(resized)) {
              coords[d] = taps[d][pick[i]].first;
              weight = mul(weight, taps[d][pick[i]].second);
            }
            Value v = tensor::ExtractOp::create(b, nloc, input, coords);
            if (v.getType() != b.getF64Type()) {
              v = arith::ExtFOp::create(b, nloc, b.getF64Type(), v);
            }
            acc = add(acc, mul(weight, v));
            size_t i = 0;
            while (i < pick.size() && ++pick[i] == taps[resized[i]].size()) {
              pick[i++] = 0;
            }
            if (i == pick.size()) {
              break;
            }
          }
          if (elementType == b.getF64Type()) {
            return acc;
          }
          return arith::TruncFOp::create(b, nloc, elementType, acc);
        });
    rewriter.replaceOp(op, result);
    return success();
  }
};

} // namespace

void populateIndexingPatterns(RewritePatternSet &patterns,
                              const TypeConverter *converter) {
  addPatterns<GatherNdLowering, ScatterElementsLowering, ScatterNdLowering,
              ResizeLowering>(patterns, converter);
}

} // namespace graphc::lowering
