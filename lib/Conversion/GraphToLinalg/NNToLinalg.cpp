//===- NNToLinalg.cpp - graph matmul, conv, pool, norms to linalg ---------===//
//
// Contractions and windowed ops map onto linalg's named ops
// (linalg.matmul, linalg.batch_matmul, linalg.conv_*_nc*_fc*,
// linalg.conv_2d_ngchw_gfchw, linalg.pooling_nc*_max/sum) so that the CPU
// pipeline's GEMM and convolution tuning recognises them; padding is an
// explicit tensor.pad, biases and normalisations are broadcasting generics.
//
//===----------------------------------------------------------------------===//

#include "LoweringUtils.h"

#include "graph/GraphOps.h"
#include "graph/GraphTypeUtils.h"

#include <algorithm>
#include <numeric>

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

RankedTensorType withShape(Value value, ArrayRef<int64_t> shape) {
  return RankedTensorType::get(
      shape, cast<RankedTensorType>(value.getType()).getElementType());
}

/// Swaps the last two dimensions of `value`.
Value transposeLastTwo(OpBuilder &b, Location loc, Value value) {
  auto type = cast<RankedTensorType>(value.getType());
  int64_t rank = type.getRank();
  SmallVector<int64_t> perm = llvm::to_vector(llvm::seq<int64_t>(0, rank));
  std::swap(perm[rank - 1], perm[rank - 2]);
  SmallVector<int64_t> shape;
  for (int64_t p : perm) {
    shape.push_back(type.getDimSize(p));
  }
  Value init = createEmpty(b, loc, withShape(value, shape));
  return linalg::TransposeOp::create(b, loc, value, init, perm).getResult()[0];
}

/// Broadcasts the static `value` to `shape` (NumPy rules) with a generic.
Value broadcastTo(OpBuilder &b, Location loc, Value value,
                  ArrayRef<int64_t> shape) {
  auto type = cast<RankedTensorType>(value.getType());
  if (type.getShape() == shape) {
    return value;
  }
  return buildElementwise(
      b, loc, withShape(value, shape), ValueRange{value},
      [](OpBuilder &, Location, ValueRange a) { return a[0]; });
}

/// Pads the spatial dimensions (2..) of an `[N, C, ...]` tensor with `value`.
Value padSpatial(OpBuilder &b, Location loc, Value input, ArrayRef<int64_t> low,
                 ArrayRef<int64_t> high, Value value) {
  if (llvm::all_of(low, [](int64_t p) { return p == 0; }) &&
      llvm::all_of(high, [](int64_t p) { return p == 0; })) {
    return input;
  }
  auto type = cast<RankedTensorType>(input.getType());
  SmallVector<OpFoldResult> lows(2, b.getIndexAttr(0)),
      highs(2, b.getIndexAttr(0));
  SmallVector<int64_t> shape(type.getShape().take_front(2));
  for (size_t i = 0; i < low.size(); ++i) {
    lows.push_back(b.getIndexAttr(low[i]));
    highs.push_back(b.getIndexAttr(high[i]));
    shape.push_back(type.getDimSize(i + 2) + low[i] + high[i]);
  }
  return tensor::PadOp::create(b, loc, withShape(input, shape), input, lows,
                               highs, value);
}

SmallVector<int64_t> orDefault(std::optional<ArrayRef<int64_t>> values,
                               size_t count, int64_t fallback) {
  if (values) {
    return SmallVector<int64_t>(*values);
  }
  return SmallVector<int64_t>(count, fallback);
}

//===----------------------------------------------------------------------===//
// MatMulOp
//===----------------------------------------------------------------------===//

struct MatMulLowering : OpConversionPattern<MatMulOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(MatMulOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (failed(requireStaticShapes(op))) {
      return failure();
    }
    Location loc = op.getLoc();
    Value lhs = adaptor.getLhs(), rhs = adaptor.getRhs();
    auto lhsType = cast<RankedTensorType>(lhs.getType());
    auto rhsType = cast<RankedTensorType>(rhs.getType());
    auto resultType = cast<RankedTensorType>(op.getType());
    // NumPy vectors: [K] is [1, K] on the left and [K, 1] on the right; the
    // unit dimension is dropped from the result by the final reshape.
    if (lhsType.getRank() == 1) {
      lhs = reshapeTo(rewriter, loc, lhs,
                      withShape(lhs, {1, lhsType.getDimSize(0)}));
    } else if (op.getTransposeLhs()) {
      lhs = transposeLastTwo(rewriter, loc, lhs);
    }
    if (rhsType.getRank() == 1) {
      rhs = reshapeTo(rewriter, loc, rhs,
                      withShape(rhs, {rhsType.getDimSize(0), 1}));
    } else if (op.getTransposeRhs()) {
      rhs = transposeLastTwo(rewriter, loc, rhs);
    }
    auto lt = cast<RankedTensorType>(lhs.getType());
    auto rt = cast<RankedTensorType>(rhs.getType());
    int64_t m = lt.getDimSize(lt.getRank() - 2);
    int64_t k = lt.getDimSize(lt.getRank() - 1);
    int64_t n = rt.getDimSize(rt.getRank() - 1);
    SmallVector<int64_t> batch;
    if (failed(broadcastShapes(std::nullopt, "graph.matmul",
                               lt.getShape().drop_back(2),
                               rt.getShape().drop_back(2), batch))) {
      return rewriter.notifyMatchFailure(op, "batch shapes do not broadcast");
    }
    Type elementType = resultType.getElementType();
    Value zero = createScalar(rewriter, loc, elementType, 0);
    // A batched lhs against one rhs matrix (a linear layer on [B, S, K]
    // activations) is a single [B*S, K] x [K, N] GEMM: broadcasting the
    // weight to every batch materialised it B times (400 MB for a
    // transformer's [128, 1, 512] x [512, 1536] projection) and left B
    // batch_matmuls of one row each.
    int64_t lhsRows = m;
    for (int64_t size : lt.getShape().drop_back(2)) {
      lhsRows *= size;
    }
    bool singleRhs = llvm::all_of(rt.getShape().drop_back(2),
                                  [](int64_t size) { return size == 1; });
    if (!batch.empty() && singleRhs) {
      lhs = reshapeTo(rewriter, loc, lhs, withShape(lhs, {lhsRows, k}));
      rhs = reshapeTo(rewriter, loc, rhs, withShape(rhs, {k, n}));
      batch.clear();
      m = lhsRows;
    }
    Value result;
    if (batch.empty()) {
      Value acc = createFilled(
          rewriter, loc, RankedTensorType::get({m, n}, elementType), zero);
      result = linalg::MatmulOp::create(rewriter, loc, TypeRange{acc.getType()},
                                        ValueRange{lhs, rhs}, ValueRange{acc})
                   .getResult(0);
    } else {
      // Broadcast the batch dimensions, fold them into one, batch_matmul.
      auto full = [&](ArrayRef<int64_t> tail) {
        SmallVector<int64_t> shape(batch);
        shape.append(tail.begin(), tail.end());
        return shape;
      };
      lhs = broadcastTo(rewriter, loc, lhs, full({m, k}));
      rhs = broadcastTo(rewriter, loc, rhs, full({k, n}));
      int64_t b = 1;
      for (int64_t size : batch) {
        b *= size;
      }
      lhs = reshapeTo(rewriter, loc, lhs, withShape(lhs, {b, m, k}));
      rhs = reshapeTo(rewriter, loc, rhs, withShape(rhs, {b, k, n}));
      Value acc = createFilled(
          rewriter, loc, RankedTensorType::get({b, m, n}, elementType), zero);
      result =
          linalg::BatchMatmulOp::create(rewriter, loc, TypeRange{acc.getType()},
                                        ValueRange{lhs, rhs}, ValueRange{acc})
              .getResult(0);
    }
    rewriter.replaceOp(op, reshapeTo(rewriter, loc, result, resultType));
    return success();
  }
};

//===----------------------------------------------------------------------===//
// ConvOp
//===----------------------------------------------------------------------===//

/// `a + b` and `a * b` on floats or (wrapping) signless integers.
Value createAdd(OpBuilder &b, Location loc, Value x, Value y) {
  if (isa<FloatType>(x.getType())) {
    return arith::AddFOp::create(b, loc, x, y);
  }
  return arith::AddIOp::create(b, loc, x, y);
}
Value createMul(OpBuilder &b, Location loc, Value x, Value y) {
  if (isa<FloatType>(x.getType())) {
    return arith::MulFOp::create(b, loc, x, y);
  }
  return arith::MulIOp::create(b, loc, x, y);
}

/// Adds `bias` `[C]` along dimension 1 of `value`.
Value addChannelBias(OpBuilder &b, Location loc, Value value, Value bias) {
  auto type = cast<RankedTensorType>(value.getType());
  int64_t rank = type.getRank();
  MLIRContext *ctx = b.getContext();
  AffineMap channel = AffineMap::get(rank, 0, {getAffineDimExpr(1, ctx)}, ctx);
  return buildParallelGeneric(
      b, loc, value, type.getElementType(), ValueRange{value, bias},
      {b.getMultiDimIdentityMap(rank), channel},
      [](OpBuilder &nb, Location nloc, ValueRange a) -> Value {
        return createAdd(nb, nloc, a[0], a[1]);
      });
}

/// A grouped convolution as one generic over (n, g, o, out..., c, k...):
/// `input` `[N, G, C/G, D...]` (already padded), `filter` `[G, O/G, C/G,
/// K...]`, result `groupedType` `[N, G, O/G, OUT...]`. Used where linalg has
/// no named op (grouped 1-d and 3-d).
Value groupedConvGeneric(OpBuilder &b, Location loc, Value input, Value filter,
                         RankedTensorType groupedType,
                         ArrayRef<int64_t> strides,
                         ArrayRef<int64_t> dilations) {
  MLIRContext *ctx = b.getContext();
  int64_t spatial = strides.size();
  int64_t loops = 4 + 2 * spatial;
  auto dim = [&](int64_t i) { return getAffineDimExpr(i, ctx); };
  AffineExpr c = dim(3 + spatial);
  SmallVector<AffineExpr> inputExprs = {dim(0), dim(1), c};
  SmallVector<AffineExpr> filterExprs = {dim(1), dim(2), c};
  SmallVector<AffineExpr> outExprs = {dim(0), dim(1), dim(2)};
  for (int64_t i = 0; i < spatial; ++i) {
    AffineExpr out = dim(3 + i), k = dim(4 + spatial + i);
    inputExprs.push_back(out * strides[i] + k * dilations[i]);
    filterExprs.push_back(k);
    outExprs.push_back(out);
  }
  SmallVector<AffineMap> maps = {AffineMap::get(loops, 0, inputExprs, ctx),
                                 AffineMap::get(loops, 0, filterExprs, ctx),
                                 AffineMap::get(loops, 0, outExprs, ctx)};
  SmallVector<utils::IteratorType> iterators(loops,
                                             utils::IteratorType::parallel);
  for (int64_t i = 3 + spatial; i < loops; ++i) {
    iterators[i] = utils::IteratorType::reduction;
  }
  Value zero = createScalar(b, loc, groupedType.getElementType(), 0);
  Value acc = createFilled(b, loc, groupedType, zero);
  return linalg::GenericOp::create(
             b, loc, TypeRange{groupedType}, ValueRange{input, filter},
             ValueRange{acc}, maps, iterators,
             [](OpBuilder &nb, Location nloc, ValueRange a) {
               Value product = createMul(nb, nloc, a[0], a[1]);
               linalg::YieldOp::create(
                   nb, nloc, ValueRange{createAdd(nb, nloc, a[2], product)});
             })
      .getResult(0);
}

/// Convolves the padded `input` `[N, C, D...]` with `filter` `[O, C/groups,
/// K...]` into `resultType`: linalg's named convolutions where one exists,
/// otherwise `groupedConvGeneric`.
Value convolve(OpBuilder &b, Location loc, Value input, Value filter,
               int64_t groups, RankedTensorType resultType,
               ArrayRef<int64_t> strides, ArrayRef<int64_t> dilations) {
  size_t spatial = strides.size();
  Type elementType = resultType.getElementType();
  Value zero = createScalar(b, loc, elementType, 0);
  auto stridesAttr = b.getI64TensorAttr(strides);
  auto dilationsAttr = b.getI64TensorAttr(dilations);
  if (groups == 1) {
    Value acc = createFilled(b, loc, resultType, zero);
    // Owned storage: a TypeRange/ValueRange over a braced list dangles.
    SmallVector<Type, 1> types = {resultType};
    SmallVector<Value, 2> ins = {input, filter};
    SmallVector<Value, 1> outs = {acc};
    if (spatial == 1) {
      return linalg::Conv1DNcwFcwOp::create(b, loc, types, ins, outs,
                                            stridesAttr, dilationsAttr)
          .getResult(0);
    }
    if (spatial == 2) {
      return linalg::Conv2DNchwFchwOp::create(b, loc, types, ins, outs,
                                              stridesAttr, dilationsAttr)
          .getResult(0);
    }
    return linalg::Conv3DNcdhwFcdhwOp::create(b, loc, types, ins, outs,
                                              stridesAttr, dilationsAttr)
        .getResult(0);
  }
  // [N, C, D...] -> [N, G, C/G, D...]; [O, C/G, K...] -> [G, O/G, C/G,
  // K...]; the result [N, G, O/G, OUT...] collapses back.
  auto it = cast<RankedTensorType>(input.getType());
  auto ft = cast<RankedTensorType>(filter.getType());
  int64_t c = it.getDimSize(1), o = ft.getDimSize(0);
  SmallVector<int64_t> inputShape = {it.getDimSize(0), groups, c / groups};
  SmallVector<int64_t> filterShape = {groups, o / groups, ft.getDimSize(1)};
  SmallVector<int64_t> groupedShape = {resultType.getDimSize(0), groups,
                                       o / groups};
  for (size_t i = 0; i < spatial; ++i) {
    inputShape.push_back(it.getDimSize(2 + i));
    filterShape.push_back(ft.getDimSize(2 + i));
    groupedShape.push_back(resultType.getDimSize(2 + i));
  }
  input = reshapeTo(b, loc, input, withShape(input, inputShape));
  filter = reshapeTo(b, loc, filter, withShape(filter, filterShape));
  auto groupedType = RankedTensorType::get(groupedShape, elementType);
  Value result;
  if (spatial == 2) {
    Value acc = createFilled(b, loc, groupedType, zero);
    result = linalg::Conv2DNgchwGfchwOp::create(
                 b, loc, TypeRange{groupedType}, ValueRange{input, filter},
                 ValueRange{acc}, stridesAttr, dilationsAttr)
                 .getResult(0);
  } else {
    result = groupedConvGeneric(b, loc, input, filter, groupedType, strides,
                                dilations);
  }
  return reshapeTo(b, loc, result, resultType);
}

struct ConvLowering : OpConversionPattern<ConvOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(ConvOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (failed(requireStaticShapes(op))) {
      return failure();
    }
    Location loc = op.getLoc();
    Value input = adaptor.getInput();
    auto inputType = cast<RankedTensorType>(input.getType());
    auto resultType = cast<RankedTensorType>(op.getType());
    size_t spatial = inputType.getRank() - 2;
    SmallVector<int64_t> strides = orDefault(op.getStrides(), spatial, 1);
    SmallVector<int64_t> dilations = orDefault(op.getDilations(), spatial, 1);
    SmallVector<int64_t> low = orDefault(op.getPadLow(), spatial, 0);
    SmallVector<int64_t> high = orDefault(op.getPadHigh(), spatial, 0);
    Value zero = createScalar(rewriter, loc, resultType.getElementType(), 0);
    input = padSpatial(rewriter, loc, input, low, high, zero);
    Value result = convolve(rewriter, loc, input, adaptor.getFilter(),
                            static_cast<int64_t>(op.getGroups()), resultType,
                            strides, dilations);
    if (adaptor.getBias()) {
      result = addChannelBias(rewriter, loc, result, adaptor.getBias());
    }
    rewriter.replaceOp(op, result);
    return success();
  }
};

//===----------------------------------------------------------------------===//
// ConvTransposeOp
//===----------------------------------------------------------------------===//

/// One phase of a strided transposed convolution along one spatial
/// dimension: the outputs y = r + s*m (m < size) receive the filter taps
/// k = first + step*t (t < taps), and are a stride-1 convolution (with
/// `dilation`) of the input read from `offset` by those taps, flipped.
struct TransposePhase {
  int64_t first = 0, step = 1, taps = 0, dilation = 1, offset = 0, size = 0;
};

/// The phase `r` of a transposed convolution with stride `s`, dilation `d`,
/// low padding `low` and a filter of `k` taps, whose output has `out`
/// positions: y = j*s + k*d - low reaches y = r + s*m from the taps k with
/// k*d = r + low (mod s), at j = m + (r + low - k*d) / s. Empty (taps 0)
/// when no tap or no output has that phase.
TransposePhase transposePhase(int64_t r, int64_t s, int64_t d, int64_t low,
                              int64_t k, int64_t out) {
  TransposePhase p;
  p.size = out > r ? (out - r + s - 1) / s : 0;
  for (int64_t first = 0; first < k; ++first) {
    if (((first * d - r - low) % s + s) % s == 0) {
      p.first = first;
      p.step = s / std::gcd(d, s);
      p.taps = (k - 1 - first) / p.step + 1;
      p.dilation = d * p.step / s;
      // Flipped taps t' = taps - 1 - t read j = m + offset + t' * dilation.
      p.offset = (r + low - first * d) / s - (p.taps - 1) * p.dilation;
      break;
    }
  }
  if (p.size == 0) {
    p.taps = 0;
  }
  return p;
}

/// The transposed convolution as a direct one: the input is spread out by
/// the stride (zero insertion: a strided tensor.insert_slice into zeros),
/// padded by `dilation * (K - 1) - pad` at either end (plus output_padding
/// at the high end; a negative amount crops the result instead), and
/// convolved at stride 1 with the filter flipped in space and with its
/// channel dimensions swapped per group.
/// A transposed convolution with a stride above 1, without zero insertion:
/// its output splits into prod(strides) phases (output positions r + s*m),
/// each a stride-1 convolution of the input (cropped or zero-padded to the
/// rows the phase reads) by the taps of the flipped filter `convFilter`
/// ([O, C/G, K...]) that land on that phase (a strided slice of it), written
/// into the zero-filled result with a strided tensor.insert_slice. Zero
/// insertion convolved the spread input, s^2 times as many positions, three
/// quarters of them zeros at stride 2; a phase with no tap (a 1x1 filter at
/// stride 2 reaches one phase of four) is no convolution at all.
Value stridedByPhases(OpBuilder &b, Location loc, Value input, Value convFilter,
                      int64_t groups, RankedTensorType resultType,
                      ArrayRef<int64_t> strides, ArrayRef<int64_t> dilations,
                      ArrayRef<int64_t> low) {
  auto inputType = cast<RankedTensorType>(input.getType());
  auto filterType = cast<RankedTensorType>(convFilter.getType());
  Type elementType = resultType.getElementType();
  int64_t spatial = strides.size();
  int64_t rank = spatial + 2;
  Value zero = createScalar(b, loc, elementType, 0);
  int64_t phases = 1;
  for (int64_t s : strides) {
    phases *= s;
  }
  // Each phase's per-dimension form, and whether it stays zero: no tap
  // reaches it, or its reads all fall in the padding.
  auto phaseOfIndex = [&](int64_t index, SmallVector<TransposePhase> &per) {
    per.clear();
    int64_t rest = index;
    bool empty = false;
    for (int64_t i = spatial - 1; i >= 0; --i) {
      int64_t r = rest % strides[i];
      rest /= strides[i];
      TransposePhase p = transposePhase(r, strides[i], dilations[i], low[i],
                                        filterType.getDimSize(2 + i),
                                        resultType.getDimSize(2 + i));
      empty |= p.taps == 0 || p.size == 0;
      per.insert(per.begin(), p);
    }
    for (int64_t i = 0; i < spatial && !empty; ++i) {
      const TransposePhase &p = per[i];
      empty = p.offset >= inputType.getDimSize(2 + i) ||
              p.offset + p.size - 1 + (p.taps - 1) * p.dilation < 0;
    }
    return empty;
  };
  // The phases partition the output positions, so when none stays zero
  // their inserts write every element: the result needs no zero fill (a
  // pass over the whole data gradient, 6.4 MB for ResNet-18's 3x3/2 64->128
  // layer at batch 8).
  bool covered = true;
  SmallVector<TransposePhase> per;
  for (int64_t index = 0; index < phases && covered; ++index) {
    covered = !phaseOfIndex(index, per);
  }
  Value result =
      covered
          ? tensor::EmptyOp::create(b, loc, resultType.getShape(), elementType)
                .getResult()
          : createFilled(b, loc, resultType, zero);
  for (int64_t index = 0; index < phases; ++index) {
    if (phaseOfIndex(index, per)) {
      continue;
    }
    int64_t rest;
    // The input rows this phase reads: [offset, offset + size - 1 +
    // (taps - 1) * dilation], cropped where inside and zero-padded where
    // outside the input.
    SmallVector<OpFoldResult> cropAt(2, b.getIndexAttr(0)), cropSizes;
    SmallVector<int64_t> cropShape(inputType.getShape().take_front(2));
    SmallVector<int64_t> padLow, padHigh;
    cropSizes.push_back(b.getIndexAttr(inputType.getDimSize(0)));
    cropSizes.push_back(b.getIndexAttr(inputType.getDimSize(1)));
    bool crop = false;
    for (int64_t i = 0; i < spatial; ++i) {
      const TransposePhase &p = per[i];
      int64_t extent = inputType.getDimSize(2 + i);
      int64_t first = p.offset;
      int64_t last = p.offset + p.size - 1 + (p.taps - 1) * p.dilation;
      int64_t from = std::clamp<int64_t>(first, 0, extent);
      int64_t to = std::clamp<int64_t>(last + 1, from, extent);
      crop |= from != 0 || to != extent;
      cropAt.push_back(b.getIndexAttr(from));
      cropSizes.push_back(b.getIndexAttr(to - from));
      cropShape.push_back(to - from);
      padLow.push_back(from - first);
      padHigh.push_back(last + 1 - to);
    }
    Value phaseInput = input;
    if (crop) {
      SmallVector<OpFoldResult> unit(rank, b.getIndexAttr(1));
      phaseInput = tensor::ExtractSliceOp::create(
          b, loc, RankedTensorType::get(cropShape, elementType), input, cropAt,
          cropSizes, unit);
    }
    phaseInput = padSpatial(b, loc, phaseInput, padLow, padHigh, zero);
    // Flipped tap t' of this phase is tap K - 1 - first - (taps - 1 - t') *
    // step of the original filter, i.e. flipped position K - 1 - first -
    // (taps - 1) * step + t' * step.
    SmallVector<OpFoldResult> tapAt(2, b.getIndexAttr(0)), tapSizes,
        tapSteps(2, b.getIndexAttr(1));
    SmallVector<int64_t> tapShape(filterType.getShape().take_front(2));
    tapSizes.push_back(b.getIndexAttr(filterType.getDimSize(0)));
    tapSizes.push_back(b.getIndexAttr(filterType.getDimSize(1)));
    SmallVector<int64_t> phaseShape(resultType.getShape().take_front(2));
    SmallVector<int64_t> phaseDilations, ones(spatial, 1);
    SmallVector<OpFoldResult> outAt(2, b.getIndexAttr(0)), outSizes,
        outSteps(2, b.getIndexAttr(1));
    outSizes.push_back(b.getIndexAttr(resultType.getDimSize(0)));
    outSizes.push_back(b.getIndexAttr(resultType.getDimSize(1)));
    rest = index;
    SmallVector<int64_t> phaseOf(spatial);
    for (int64_t i = spatial - 1; i >= 0; --i) {
      phaseOf[i] = rest % strides[i];
      rest /= strides[i];
    }
    for (int64_t i = 0; i < spatial; ++i) {
      const TransposePhase &p = per[i];
      int64_t k = filterType.getDimSize(2 + i);
      tapAt.push_back(b.getIndexAttr(k - 1 - p.first - (p.taps - 1) * p.step));
      tapSizes.push_back(b.getIndexAttr(p.taps));
      tapSteps.push_back(b.getIndexAttr(p.step));
      tapShape.push_back(p.taps);
      phaseShape.push_back(p.size);
      phaseDilations.push_back(p.dilation);
      outAt.push_back(b.getIndexAttr(phaseOf[i]));
      outSizes.push_back(b.getIndexAttr(p.size));
      outSteps.push_back(b.getIndexAttr(strides[i]));
    }
    Value taps = tensor::ExtractSliceOp::create(
        b, loc, RankedTensorType::get(tapShape, elementType), convFilter, tapAt,
        tapSizes, tapSteps);
    Value phase = convolve(b, loc, phaseInput, taps, groups,
                           RankedTensorType::get(phaseShape, elementType), ones,
                           phaseDilations);
    result = tensor::InsertSliceOp::create(b, loc, phase, result, outAt,
                                           outSizes, outSteps);
  }
  return result;
}

struct ConvTransposeLowering : OpConversionPattern<ConvTransposeOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(ConvTransposeOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (failed(requireStaticShapes(op))) {
      return failure();
    }
    Location loc = op.getLoc();
    Value input = adaptor.getInput(), filter = adaptor.getFilter();
    auto inputType = cast<RankedTensorType>(input.getType());
    auto filterType = cast<RankedTensorType>(filter.getType());
    auto resultType = cast<RankedTensorType>(op.getType());
    Type elementType = resultType.getElementType();
    int64_t spatial = inputType.getRank() - 2;
    int64_t groups = static_cast<int64_t>(op.getGroups());
    SmallVector<int64_t> strides = orDefault(op.getStrides(), spatial, 1);
    SmallVector<int64_t> dilations = orDefault(op.getDilations(), spatial, 1);
    SmallVector<int64_t> low = orDefault(op.getPadLow(), spatial, 0);
    SmallVector<int64_t> high = orDefault(op.getPadHigh(), spatial, 0);
    SmallVector<int64_t> outPad = orDefault(op.getOutputPadding(), spatial, 0);
    int64_t n = inputType.getDimSize(0), c = inputType.getDimSize(1);
    int64_t og = filterType.getDimSize(1), cg = c / groups;
    bool strided = llvm::any_of(strides, [](int64_t v) { return v > 1; });

    // Spread and pad the input: [N, C, P...].
    Value zero = createScalar(rewriter, loc, elementType, 0);
    SmallVector<int64_t> spreadShape = {n, c}, cropOffsets(2, 0);
    SmallVector<OpFoldResult> offsets(2, rewriter.getIndexAttr(0));
    SmallVector<OpFoldResult> sizes = {rewriter.getIndexAttr(n),
                                       rewriter.getIndexAttr(c)};
    SmallVector<OpFoldResult> steps(2, rewriter.getIndexAttr(1));
    SmallVector<int64_t> convShape = {n, og * groups};
    for (int64_t i = 0; i < spatial; ++i) {
      int64_t d = inputType.getDimSize(2 + i);
      int64_t reach = dilations[i] * (filterType.getDimSize(2 + i) - 1);
      int64_t padLow = reach - low[i];
      int64_t padHigh = reach - high[i] + outPad[i];
      int64_t size = (d - 1) * strides[i] + 1 + std::max<int64_t>(padLow, 0) +
                     std::max<int64_t>(padHigh, 0);
      spreadShape.push_back(size);
      offsets.push_back(rewriter.getIndexAttr(std::max<int64_t>(padLow, 0)));
      sizes.push_back(rewriter.getIndexAttr(d));
      steps.push_back(rewriter.getIndexAttr(strides[i]));
      convShape.push_back(size - reach);
      cropOffsets.push_back(std::max<int64_t>(-padLow, 0));
    }

    // [C, O/G, K...] -> [G, C/G, O/G, K...] -> flipped [G, O/G, C/G, K...]
    // -> [O, C/G, K...].
    SmallVector<int64_t> splitShape = {groups, cg, og};
    SmallVector<int64_t> flippedShape = {groups, og, cg};
    SmallVector<int64_t> convFilterShape = {og * groups, cg};
    int64_t rank = 3 + spatial;
    for (int64_t i = 0; i < spatial; ++i) {
      int64_t k = filterType.getDimSize(2 + i);
      splitShape.push_back(k);
      flippedShape.push_back(k);
      convFilterShape.push_back(k);
    }
    Value split =
        reshapeTo(rewriter, loc, filter, withShape(filter, splitShape));
    // flipped[g, o, c, k...] = split[g, c, o, K - 1 - k...], read with
    // tensor.extract: a map with negative coefficients does not survive
    // graphc-cpu-codegen's tiling.
    Value flipped = buildParallelGeneric(
        rewriter, loc,
        createEmpty(rewriter, loc, withShape(filter, flippedShape)),
        elementType, ValueRange{}, {},
        [&](OpBuilder &b, Location nloc, ValueRange) -> Value {
          SmallVector<Value> at = {linalg::IndexOp::create(b, nloc, 0),
                                   linalg::IndexOp::create(b, nloc, 2),
                                   linalg::IndexOp::create(b, nloc, 1)};
          for (int64_t i = 0; i < spatial; ++i) {
            Value last = arith::ConstantIndexOp::create(
                b, nloc, filterType.getDimSize(2 + i) - 1);
            at.push_back(arith::SubIOp::create(
                b, nloc, last, linalg::IndexOp::create(b, nloc, 3 + i)));
          }
          return tensor::ExtractOp::create(b, nloc, split, at);
        });
    Value convFilter =
        reshapeTo(rewriter, loc, flipped, withShape(filter, convFilterShape));

    if (strided) {
      Value result = stridedByPhases(rewriter, loc, input, convFilter, groups,
                                     resultType, strides, dilations, low);
      if (adaptor.getBias()) {
        result = addChannelBias(rewriter, loc, result, adaptor.getBias());
      }
      rewriter.replaceOp(op, result);
      return success();
    }
    Value spread = createFilled(
        rewriter, loc, RankedTensorType::get(spreadShape, elementType), zero);
    spread = tensor::InsertSliceOp::create(rewriter, loc, input, spread,
                                           offsets, sizes, steps);
    SmallVector<int64_t> ones(spatial, 1);
    Value result = convolve(rewriter, loc, spread, convFilter, groups,
                            RankedTensorType::get(convShape, elementType), ones,
                            dilations);
    if (convShape != resultType.getShape()) {
      SmallVector<OpFoldResult> cropAt, cropSizes,
          unit(rank - 1, rewriter.getIndexAttr(1));
      for (int64_t i = 0; i < rank - 1; ++i) {
        cropAt.push_back(rewriter.getIndexAttr(cropOffsets[i]));
        cropSizes.push_back(rewriter.getIndexAttr(resultType.getDimSize(i)));
      }
      result = tensor::ExtractSliceOp::create(rewriter, loc, resultType, result,
                                              cropAt, cropSizes, unit);
    }
    if (adaptor.getBias()) {
      result = addChannelBias(rewriter, loc, result, adaptor.getBias());
    }
    rewriter.replaceOp(op, result);
    return success();
  }
};

//===----------------------------------------------------------------------===//
// PoolOp
//===----------------------------------------------------------------------===//

/// Pools `input` `[N, C, D...]` (already padded) into `resultType` with a
/// max (`isMax`) or a sum over `window`.
Value poolWindows(OpBuilder &b, Location loc, Value input,
                  RankedTensorType resultType, ArrayRef<int64_t> window,
                  ArrayRef<int64_t> strides, ArrayRef<int64_t> dilations,
                  bool isMax) {
  Type elementType = resultType.getElementType();
  Value init = isMax ? createExtreme(b, loc, elementType, /*negative=*/true)
                     : createScalar(b, loc, elementType, 0);
  Value acc = createFilled(b, loc, resultType, init);
  Value windowTensor =
      createEmpty(b, loc, RankedTensorType::get(window, elementType));
  auto stridesAttr = b.getI64TensorAttr(strides);
  auto dilationsAttr = b.getI64TensorAttr(dilations);
  SmallVector<Type, 1> types = {resultType};
  SmallVector<Value, 2> ins = {input, windowTensor};
  SmallVector<Value, 1> outs = {acc};
  size_t spatial = window.size();
  if (spatial == 2) {
    if (isMax) {
      return linalg::PoolingNchwMaxOp::create(b, loc, types, ins, outs,
                                              stridesAttr, dilationsAttr)
          .getResult(0);
    }
    return linalg::PoolingNchwSumOp::create(b, loc, types, ins, outs,
                                            stridesAttr, dilationsAttr)
        .getResult(0);
  }
  if (spatial == 1) {
    if (isMax) {
      return linalg::PoolingNcwMaxOp::create(b, loc, types, ins, outs,
                                             stridesAttr, dilationsAttr)
          .getResult(0);
    }
    return linalg::PoolingNcwSumOp::create(b, loc, types, ins, outs,
                                           stridesAttr, dilationsAttr)
        .getResult(0);
  }
  // No channels-first named op for other ranks: the same computation as a
  // generic over (n, c, out..., window...).
  MLIRContext *ctx = b.getContext();
  int64_t loops = 2 + 2 * spatial;
  SmallVector<AffineExpr> inputExprs = {getAffineDimExpr(0, ctx),
                                        getAffineDimExpr(1, ctx)};
  SmallVector<AffineExpr> windowExprs, outExprs = inputExprs;
  for (size_t i = 0; i < spatial; ++i) {
    AffineExpr out = getAffineDimExpr(2 + i, ctx);
    AffineExpr win = getAffineDimExpr(2 + spatial + i, ctx);
    inputExprs.push_back(out * strides[i] + win * dilations[i]);
    windowExprs.push_back(win);
    outExprs.push_back(out);
  }
  SmallVector<AffineMap> maps = {AffineMap::get(loops, 0, inputExprs, ctx),
                                 AffineMap::get(loops, 0, windowExprs, ctx),
                                 AffineMap::get(loops, 0, outExprs, ctx)};
  SmallVector<utils::IteratorType> iterators(loops,
                                             utils::IteratorType::parallel);
  for (size_t i = 0; i < spatial; ++i) {
    iterators[2 + spatial + i] = utils::IteratorType::reduction;
  }
  return linalg::GenericOp::create(
             b, loc, types, ins, outs, maps, iterators,
             [&](OpBuilder &nb, Location nloc, ValueRange a) {
               Value r = isMax ? createMax(nb, nloc, a[0], a[2])
                               : arith::AddFOp::create(nb, nloc, a[0], a[2])
                                     .getResult();
               linalg::YieldOp::create(nb, nloc, r);
             })
      .getResult(0);
}

struct PoolLowering : OpConversionPattern<PoolOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(PoolOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (failed(requireStaticShapes(op))) {
      return failure();
    }
    Location loc = op.getLoc();
    Value input = adaptor.getInput();
    auto inputType = cast<RankedTensorType>(input.getType());
    auto resultType = cast<RankedTensorType>(op.getType());
    Type elementType = resultType.getElementType();
    if (!isa<FloatType>(elementType) && op.getKind() != PoolKind::max) {
      // The verifier already rejects integer averages (no rounding rule).
      return op.emitError("graph-to-linalg: average pooling of ")
             << elementType << " is not supported";
    }
    ArrayRef<int64_t> window = op.getWindow();
    size_t spatial = window.size();
    SmallVector<int64_t> strides = orDefault(op.getStrides(), spatial, 1);
    SmallVector<int64_t> dilations = orDefault(op.getDilations(), spatial, 1);
    SmallVector<int64_t> low = orDefault(op.getPadLow(), spatial, 0);
    SmallVector<int64_t> high = orDefault(op.getPadHigh(), spatial, 0);
    // ceil_mode: the last window may reach past the high padding; those
    // cells never win a maximum and never count in an average.
    SmallVector<int64_t> extra(spatial, 0), highAll(high);
    for (size_t i = 0; i < spatial; ++i) {
      int64_t needed = (resultType.getDimSize(2 + i) - 1) * strides[i] +
                       dilations[i] * (window[i] - 1) + 1;
      int64_t have = inputType.getDimSize(2 + i) + low[i] + high[i];
      extra[i] = std::max<int64_t>(0, needed - have);
      highAll[i] += extra[i];
    }
    bool isMax = op.getKind() == PoolKind::max;
    Value padValue = isMax ? createExtreme(rewriter, loc, elementType, true)
                           : createScalar(rewriter, loc, elementType, 0);
    Value padded = padSpatial(rewriter, loc, input, low, highAll, padValue);
    Value pooled = poolWindows(rewriter, loc, padded, resultType, window,
                               strides, dilations, isMax);
    if (isMax) {
      rewriter.replaceOp(op, pooled);
      return success();
    }
    // The divisor per output cell: the window is a box, so the number of
    // cells that count is a product of one count per spatial dimension,
    // known at compile time. A tap counts when it falls inside the input,
    // or inside the padding with count_include_pad; never in the cells
    // ceil_mode adds past the high padding.
    int64_t rank = resultType.getRank();
    MLIRContext *ctx = getContext();
    SmallVector<Value> inputs = {pooled};
    SmallVector<AffineMap> maps = {rewriter.getMultiDimIdentityMap(rank)};
    bool includePad = op.getCountIncludePad();
    for (size_t i = 0; i < spatial; ++i) {
      int64_t size = inputType.getDimSize(2 + i);
      int64_t first = includePad ? -low[i] : 0;
      int64_t last = includePad ? size + high[i] : size; // exclusive
      int64_t outSize = resultType.getDimSize(2 + i);
      SmallVector<Attribute> counts;
      for (int64_t o = 0; o < outSize; ++o) {
        int64_t n = 0;
        for (int64_t t = 0; t < window[i]; ++t) {
          int64_t pos = o * strides[i] + t * dilations[i] - low[i];
          n += pos >= first && pos < last;
        }
        counts.push_back(rewriter.getFloatAttr(elementType, double(n)));
      }
      auto countType = RankedTensorType::get({outSize}, elementType);
      inputs.push_back(arith::ConstantOp::create(
          rewriter, loc, DenseElementsAttr::get(countType, counts)));
      maps.push_back(AffineMap::get(rank, 0, getAffineDimExpr(2 + i, ctx)));
    }
    Value result = buildParallelGeneric(
        rewriter, loc, pooled, elementType, inputs, maps,
        [](OpBuilder &b, Location nloc, ValueRange a) -> Value {
          Value divisor = a[1];
          for (Value count : a.drop_front(2)) {
            divisor = arith::MulFOp::create(b, nloc, divisor, count);
          }
          return arith::DivFOp::create(b, nloc, a[0], divisor);
        });
    rewriter.replaceOp(op, result);
    return success();
  }
};

//===----------------------------------------------------------------------===//
// BatchNormOp, LayerNormOp
//===----------------------------------------------------------------------===//

struct BatchNormLowering : OpConversionPattern<BatchNormOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(BatchNormOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value input = adaptor.getInput();
    auto inputType = cast<RankedTensorType>(input.getType());
    int64_t rank = inputType.getRank();
    Type type = inputType.getElementType();
    MLIRContext *ctx = getContext();
    AffineMap channel =
        AffineMap::get(rank, 0, {getAffineDimExpr(1, ctx)}, ctx);
    double epsilon = op.getEpsilon().convertToDouble();
    // (x - mean) * rsqrt(variance + epsilon) * scale + bias, in one pass.
    Value result = buildParallelGeneric(
        rewriter, loc, input, type,
        ValueRange{input, adaptor.getScale(), adaptor.getBias(),
                   adaptor.getMean(), adaptor.getVariance()},
        {rewriter.getMultiDimIdentityMap(rank), channel, channel, channel,
         channel},
        [&](OpBuilder &b, Location nloc, ValueRange a) -> Value {
          Value centered = arith::SubFOp::create(b, nloc, a[0], a[3]);
          Value var = arith::AddFOp::create(
              b, nloc, a[4], createScalar(b, nloc, type, epsilon));
          Value inv = math::RsqrtOp::create(b, nloc, var);
          Value normed = arith::MulFOp::create(b, nloc, centered, inv);
          Value scaled = arith::MulFOp::create(b, nloc, normed, a[1]);
          return arith::AddFOp::create(b, nloc, scaled, a[2]);
        });
    rewriter.replaceOp(op, castTo(rewriter, loc, result, op.getType()));
    return success();
  }
};

struct LayerNormLowering : OpConversionPattern<LayerNormOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(LayerNormOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value input = adaptor.getInput();
    auto inputType = cast<RankedTensorType>(input.getType());
    int64_t rank = inputType.getRank();
    int64_t axis = normalizeAxis(static_cast<int64_t>(op.getAxis()), rank);
    Type type = inputType.getElementType();
    MLIRContext *ctx = getContext();
    SmallVector<int64_t> axes = llvm::to_vector(llvm::seq<int64_t>(axis, rank));
    AffineMap id = rewriter.getMultiDimIdentityMap(rank);
    AffineMap outer = getDropDimsMap(ctx, rank, axes);
    SmallVector<AffineExpr> innerExprs;
    for (int64_t d = axis; d < rank; ++d) {
      innerExprs.push_back(getAffineDimExpr(d, ctx));
    }
    AffineMap inner = AffineMap::get(rank, 0, innerExprs, ctx);

    Value mean = reduceAlong(rewriter, loc, input, axes, ReduceKind::mean);
    Value centered = buildParallelGeneric(
        rewriter, loc, input, type, ValueRange{input, mean}, {id, outer},
        [](OpBuilder &b, Location nloc, ValueRange a) -> Value {
          return arith::SubFOp::create(b, nloc, a[0], a[1]);
        });
    Value squares = buildParallelGeneric(
        rewriter, loc, input, type, ValueRange{centered}, {id},
        [](OpBuilder &b, Location nloc, ValueRange a) -> Value {
          return arith::MulFOp::create(b, nloc, a[0], a[0]);
        });
    Value variance =
        reduceAlong(rewriter, loc, squares, axes, ReduceKind::mean);
    double epsilon = op.getEpsilon().convertToDouble();
    SmallVector<Value> inputs = {centered, variance, adaptor.getScale()};
    SmallVector<AffineMap> maps = {id, outer, inner};
    if (adaptor.getBias()) {
      inputs.push_back(adaptor.getBias());
      maps.push_back(inner);
    }
    bool hasBias = static_cast<bool>(adaptor.getBias());
    Value result = buildParallelGeneric(
        rewriter, loc, input, type, inputs, maps,
        [&](OpBuilder &b, Location nloc, ValueRange a) -> Value {
          Value var = arith::AddFOp::create(
              b, nloc, a[1], createScalar(b, nloc, type, epsilon));
          Value normed = arith::MulFOp::create(
              b, nloc, a[0], math::RsqrtOp::create(b, nloc, var));
          Value scaled = arith::MulFOp::create(b, nloc, normed, a[2]);
          if (hasBias) {
            return arith::AddFOp::create(b, nloc, scaled, a[3]);
          }
          return scaled;
        });
    rewriter.replaceOp(op, castTo(rewriter, loc, result, op.getType()));
    return success();
  }
};

//===----------------------------------------------------------------------===//
// LRNOp
//===----------------------------------------------------------------------===//

/// The input is zero-padded along the channels by the window's reach on
/// either side; one generic over (n, c, d..., k) sums the squares of the
/// padded input at channel c + k into a zero-filled accumulator (the square
/// happens in the reduction body, so no squared copy is materialised), and
/// one elementwise generic divides the input by the power of the scaled sum.
struct LRNLowering : OpConversionPattern<LRNOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(LRNOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value input = adaptor.getInput();
    auto inputType = dyn_cast<RankedTensorType>(input.getType());
    if (!inputType) {
      return rewriter.notifyMatchFailure(op, "unranked input");
    }
    int64_t rank = inputType.getRank();
    Type type = inputType.getElementType();
    MLIRContext *ctx = getContext();
    int64_t size = static_cast<int64_t>(op.getSize());
    int64_t low = (size - 1) / 2;
    int64_t high = size - 1 - low;

    SmallVector<OpFoldResult> lows(rank, rewriter.getIndexAttr(0));
    SmallVector<OpFoldResult> highs(rank, rewriter.getIndexAttr(0));
    lows[1] = rewriter.getIndexAttr(low);
    highs[1] = rewriter.getIndexAttr(high);
    SmallVector<int64_t> paddedShape(inputType.getShape());
    if (!ShapedType::isDynamic(paddedShape[1])) {
      paddedShape[1] += size - 1;
    }
    Value zero = createScalar(rewriter, loc, type, 0);
    Value padded = input;
    if (size > 1) {
      padded =
          tensor::PadOp::create(rewriter, loc, withShape(input, paddedShape),
                                input, lows, highs, zero);
    }

    // Sum of squares over the window: loops (n, c, d..., k).
    int64_t loops = rank + 1;
    SmallVector<AffineExpr> paddedExprs, outExprs;
    for (int64_t d = 0; d < rank; ++d) {
      outExprs.push_back(getAffineDimExpr(d, ctx));
    }
    paddedExprs = outExprs;
    paddedExprs[1] = paddedExprs[1] + getAffineDimExpr(rank, ctx);
    SmallVector<AffineMap> maps = {
        AffineMap::get(loops, 0, paddedExprs, ctx),
        AffineMap::get(loops, 0, {getAffineDimExpr(rank, ctx)}, ctx),
        AffineMap::get(loops, 0, outExprs, ctx)};
    SmallVector<utils::IteratorType> iterators(loops,
                                               utils::IteratorType::parallel);
    iterators[rank] = utils::IteratorType::reduction;
    Value window =
        createEmpty(rewriter, loc, RankedTensorType::get({size}, type));
    Value acc = createFilled(rewriter, loc, inputType, zero,
                             getDynamicSizes(rewriter, loc, input));
    Value squareSum =
        linalg::GenericOp::create(
            rewriter, loc, TypeRange{inputType}, ValueRange{padded, window},
            ValueRange{acc}, maps, iterators,
            [](OpBuilder &b, Location nloc, ValueRange a) {
              Value square = arith::MulFOp::create(b, nloc, a[0], a[0]);
              linalg::YieldOp::create(
                  b, nloc,
                  arith::AddFOp::create(b, nloc, a[2], square).getResult());
            })
            .getResult(0);

    double scale = op.getAlpha().convertToDouble() / static_cast<double>(size);
    double beta = op.getBeta().convertToDouble();
    double bias = op.getBias().convertToDouble();
    AffineMap id = rewriter.getMultiDimIdentityMap(rank);
    Value result = buildParallelGeneric(
        rewriter, loc, input, type, ValueRange{input, squareSum}, {id, id},
        [&](OpBuilder &b, Location nloc, ValueRange a) -> Value {
          Value scaled = arith::MulFOp::create(
              b, nloc, a[1], createScalar(b, nloc, type, scale));
          Value base = arith::AddFOp::create(b, nloc, scaled,
                                             createScalar(b, nloc, type, bias));
          Value denom = math::PowFOp::create(b, nloc, base,
                                             createScalar(b, nloc, type, beta));
          return arith::DivFOp::create(b, nloc, a[0], denom);
        });
    rewriter.replaceOp(op, castTo(rewriter, loc, result, op.getType()));
    return success();
  }
};

} // namespace

void populateNNPatterns(RewritePatternSet &patterns,
                        const TypeConverter *converter) {
  addPatterns<MatMulLowering, ConvLowering, ConvTransposeLowering, PoolLowering,
              BatchNormLowering, LayerNormLowering>(patterns, converter);
  addPatterns<LRNLowering>(patterns, converter);
}

} // namespace graphc::lowering
