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

/// How one dimension of a resize maps output indices to input coordinates.
struct ResizeAxis {
  int64_t in;   // input size
  int64_t out;  // output size
  double scale; // the ratio the coordinate transformation uses
  double roiStart = 0, roiEnd = 1; // tf_crop_and_resize's box
};

/// The input coordinate (f64) that output index `out` (index) maps to, as
/// ONNX defines each coordinate transformation mode (the resized length is
/// `in * scale`, which is the output size unless the scale was given
/// explicitly).
Value sourceCoordinate(OpBuilder &b, Location loc, CoordinateMode mode,
                       Value out, const ResizeAxis &axis) {
  Type f64 = b.getF64Type();
  Value x = arith::UIToFPOp::create(
      b, loc, f64, arith::IndexCastUIOp::create(b, loc, b.getI64Type(), out));
  auto constant = [&](double value) -> Value {
    return arith::ConstantOp::create(b, loc, b.getF64FloatAttr(value));
  };
  double in = static_cast<double>(axis.in);
  double size = in * axis.scale;
  // (x + 0.5) / scale - 0.5 + offset
  auto halfPixel = [&](double offset) -> Value {
    Value shifted = arith::AddFOp::create(b, loc, x, constant(0.5));
    Value scaled = arith::DivFOp::create(b, loc, shifted, constant(axis.scale));
    if (offset == 0) {
      return arith::SubFOp::create(b, loc, scaled, constant(0.5));
    }
    return arith::AddFOp::create(b, loc, scaled, constant(offset - 0.5));
  };
  switch (mode) {
  case CoordinateMode::half_pixel:
    return halfPixel(0);
  case CoordinateMode::pytorch_half_pixel:
    return size == 1 ? constant(0) : halfPixel(0);
  case CoordinateMode::half_pixel_symmetric: {
    // The sampling grid is centred on the input's centre, not its origin,
    // when the output size was rounded from in * scale.
    double adjustment = static_cast<double>(axis.out) / size;
    return halfPixel(in / 2 * (1 - adjustment));
  }
  case CoordinateMode::align_corners:
    if (size == 1) {
      return constant(0);
    }
    return arith::MulFOp::create(b, loc, x, constant((in - 1) / (size - 1)));
  case CoordinateMode::asymmetric:
    return arith::DivFOp::create(b, loc, x, constant(axis.scale));
  case CoordinateMode::tf_crop_and_resize: {
    double extent = (axis.roiEnd - axis.roiStart) * (in - 1);
    double origin = axis.roiStart * (in - 1);
    if (size == 1) {
      return constant(extent / 2 + origin);
    }
    return arith::AddFOp::create(
        b, loc, arith::MulFOp::create(b, loc, x, constant(extent / (size - 1))),
        constant(origin));
  }
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

/// The most input reads one output element of a resize may take (the
/// product of the taps of the interpolated dimensions).
constexpr int64_t kMaxResizeReads = 4096;

/// The number of taps an interpolating dimension reads: 2 (linear) or 4
/// (cubic), times 1 / scale when antialiasing a downscale.
int64_t tapsPerAxis(ResizeOp op, double scale) {
  bool linear = op.getMode() == ResizeMode::linear;
  double s = op.getAntialias() ? std::min(scale, 1.0) : 1.0;
  return 2 * static_cast<int64_t>(std::ceil((linear ? 1.0 : 2.0) / s));
}

/// One generic over the result that reads the input with tensor.extract:
/// nearest takes the source coordinate rounded by `nearest_mode`; linear and
/// cubic (Keys, A = `cubic_coeff_a`) blend 2 or 4 neighbours per resized
/// dimension (more when antialiasing a downscale, with the kernel stretched
/// and the weights renormalized), clamping indices at the edges as ONNX's
/// edge padding does, or dropping outside taps with `exclude_outside`.
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
    ResizeMode kind = op.getMode();
    if (kind != ResizeMode::nearest && !isa<FloatType>(elementType)) {
      // The verifier rejects these already.
      return op.emitError("graph-to-linalg: interpolating resize of ")
             << elementType << " is not supported";
    }
    CoordinateMode mode = op.getCoordinateMode();
    bool crop = mode == CoordinateMode::tf_crop_and_resize;
    std::optional<ArrayRef<double>> scales = op.getScales();
    std::optional<ArrayRef<double>> roi = op.getRoi();
    int64_t rank = resultType.getRank();
    SmallVector<ResizeAxis> axes;
    int64_t reads = 1;
    for (int64_t d = 0; d < rank; ++d) {
      ResizeAxis axis{inputType.getDimSize(d), resultType.getDimSize(d), 1.0};
      axis.scale =
          scales ? (*scales)[d]
                 : static_cast<double>(axis.out) / static_cast<double>(axis.in);
      if (roi) {
        axis.roiStart = (*roi)[d];
        axis.roiEnd = (*roi)[rank + d];
      }
      if (kind != ResizeMode::nearest) {
        reads *= tapsPerAxis(op, axis.scale);
      }
      axes.push_back(axis);
    }
    if (reads > kMaxResizeReads) {
      return op.emitError("graph-to-linalg: resize reads ")
             << reads << " input elements per output element, more than "
             << kMaxResizeReads;
    }
    double a = op.getCubicCoeffA().convertToDouble();
    Value result = buildParallelGeneric(
        rewriter, loc, createEmpty(rewriter, loc, resultType), elementType,
        ValueRange{}, {},
        [&](OpBuilder &b, Location nloc, ValueRange) -> Value {
          auto constant = [&](double value) -> Value {
            return arith::ConstantOp::create(b, nloc, b.getF64FloatAttr(value));
          };
          auto sub = [&](Value p, Value q) -> Value {
            return arith::SubFOp::create(b, nloc, p, q);
          };
          auto mul = [&](Value p, Value q) -> Value {
            return arith::MulFOp::create(b, nloc, p, q);
          };
          auto add = [&](Value p, Value q) -> Value {
            return arith::AddFOp::create(b, nloc, p, q);
          };
          auto cmp = [&](arith::CmpFPredicate pred, Value p, Value q) -> Value {
            return arith::CmpFOp::create(b, nloc, pred, p, q);
          };
          auto select = [&](Value c, Value p, Value q) -> Value {
            return arith::SelectOp::create(b, nloc, c, p, q);
          };
          // Keys' cubic convolution: |s| <= 1: (A+2)|s|^3 - (A+3)|s|^2 + 1;
          // 1 < |s| < 2: A|s|^3 - 5A|s|^2 + 8A|s| - 4A; s = distance.
          auto near = [&](Value s) {
            Value s2 = mul(s, s);
            return add(
                sub(mul(constant(a + 2), mul(s2, s)), mul(constant(a + 3), s2)),
                constant(1));
          };
          auto far = [&](Value s) {
            Value s2 = mul(s, s);
            return sub(
                add(sub(mul(constant(a), mul(s2, s)), mul(constant(5 * a), s2)),
                    mul(constant(8 * a), s)),
                constant(4 * a));
          };
          // Per dimension: the taps (source index, weight) it reads; one
          // unweighted tap where the size is kept or for nearest.
          SmallVector<SmallVector<std::pair<Value, Value>>> taps;
          SmallVector<int64_t> resized;
          Value outside; // i1: tf_crop_and_resize reads outside the input
          for (auto [d, axis] : llvm::enumerate(axes)) {
            Value out = linalg::IndexOp::create(b, nloc, d);
            // Kept sizes map each index to itself (a crop only when its
            // box is the whole dimension).
            if (axis.in == axis.out && axis.scale == 1.0 &&
                (!crop || (axis.roiStart == 0 && axis.roiEnd == 1))) {
              taps.push_back({{out, nullptr}});
              continue;
            }
            Value x = sourceCoordinate(b, nloc, mode, out, axis);
            if (crop) {
              Value off = arith::OrIOp::create(
                  b, nloc, cmp(arith::CmpFPredicate::OLT, x, constant(0)),
                  cmp(arith::CmpFPredicate::OGT, x,
                      constant(static_cast<double>(axis.in - 1))));
              outside =
                  outside ? arith::OrIOp::create(b, nloc, outside, off) : off;
            }
            if (kind == ResizeMode::nearest) {
              Value rounded;
              switch (op.getNearestMode()) {
              case NearestMode::round_prefer_floor:
                rounded = math::CeilOp::create(b, nloc, sub(x, constant(0.5)));
                break;
              case NearestMode::round_prefer_ceil:
                rounded = math::FloorOp::create(b, nloc, add(x, constant(0.5)));
                break;
              case NearestMode::floor:
                rounded = math::FloorOp::create(b, nloc, x);
                break;
              case NearestMode::ceil:
                rounded = math::CeilOp::create(b, nloc, x);
                break;
              }
              taps.push_back(
                  {{clampedIndex(b, nloc, rounded, axis.in), nullptr}});
              continue;
            }
            resized.push_back(d);
            Value floor = math::FloorOp::create(b, nloc, x);
            Value t = sub(x, floor);
            int64_t n = tapsPerAxis(op, axis.scale);
            bool stretched = n > (kind == ResizeMode::linear ? 2 : 4);
            double s = std::min(axis.scale, 1.0);
            SmallVector<std::pair<Value, Value>> dimTaps;
            SmallVector<Value> inRange;
            for (int64_t i = 1 - n / 2; i <= n / 2; ++i) {
              Value raw = add(floor, constant(static_cast<double>(i)));
              Value weight;
              if (!stretched) {
                // The fixed kernels: distances 1 + t, t, 1 - t, 2 - t.
                Value oneMinus = sub(constant(1), t);
                if (kind == ResizeMode::linear) {
                  weight = i == 0 ? oneMinus : t;
                } else {
                  weight = i == -1  ? far(add(t, constant(1)))
                           : i == 0 ? near(t)
                           : i == 1 ? near(oneMinus)
                                    : far(add(oneMinus, constant(1)));
                }
              } else {
                // The kernel stretched by 1 / s: distance |i - t| * s.
                Value dist = math::AbsFOp::create(
                    b, nloc,
                    mul(sub(constant(static_cast<double>(i)), t), constant(s)));
                Value zero = constant(0);
                if (kind == ResizeMode::linear) {
                  weight = arith::MaximumFOp::create(
                      b, nloc, sub(constant(1), dist), zero);
                } else {
                  weight = select(
                      cmp(arith::CmpFPredicate::OLE, dist, constant(1)),
                      near(dist),
                      select(cmp(arith::CmpFPredicate::OLT, dist, constant(2)),
                             far(dist), zero));
                }
              }
              if (op.getExcludeOutside()) {
                Value inside = arith::AndIOp::create(
                    b, nloc, cmp(arith::CmpFPredicate::OGE, raw, constant(0)),
                    cmp(arith::CmpFPredicate::OLE, raw,
                        constant(static_cast<double>(axis.in - 1))));
                weight = select(inside, weight, constant(0));
              }
              dimTaps.push_back({clampedIndex(b, nloc, raw, axis.in), weight});
            }
            if (stretched || op.getExcludeOutside()) {
              Value sum = constant(0);
              for (auto &tap : dimTaps) {
                sum = add(sum, tap.second);
              }
              for (auto &tap : dimTaps) {
                tap.second = arith::DivFOp::create(b, nloc, tap.second, sum);
              }
            }
            taps.push_back(std::move(dimTaps));
          }
          SmallVector<Value> coords;
          for (auto &dimTaps : taps) {
            coords.push_back(dimTaps.front().first);
          }
          Value value;
          if (resized.empty()) {
            value = tensor::ExtractOp::create(b, nloc, input, coords);
          } else {
            // Sum over every combination of taps in f64 (2^k reads for
            // linear, 4^k for cubic, k resized dimensions).
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
            value = elementType == b.getF64Type()
                        ? acc
                        : arith::TruncFOp::create(b, nloc, elementType, acc);
          }
          if (outside) {
            double e = op.getExtrapolationValue().convertToDouble();
            Value fill = isa<FloatType>(elementType)
                             ? arith::ConstantOp::create(
                                   b, nloc, b.getFloatAttr(elementType, e))
                             : arith::ConstantOp::create(
                                   b, nloc,
                                   b.getIntegerAttr(elementType,
                                                    static_cast<int64_t>(e)));
            value = select(outside, fill, value);
          }
          return value;
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
