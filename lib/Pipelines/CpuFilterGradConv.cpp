//===- CpuFilterGradConv.cpp - filter gradients on the direct kernel ------===//
//
// The "wgrad" class of graphc-cpu-direct-conv: a convolution with more filter
// taps than output pixels, the shape of graph-autodiff's filter gradient
// (the forward input x^T [C, N, H, W] with its batch as channels, convolved
// by the output adjoint dY^T [O, N, Ho, Wo] as a filter of Ho x Wo taps;
// the output [C, O, KH, KW] is the filter's size). On that form the direct
// kernel's register tile is KW (3) output columns: too few accumulators to
// hide the FMA latency, and 2 loads per 3 broadcasts. With its images (C)
// moved into the output columns,
//
//   in'[0, n, h, w*C + c]   = in[c, n, h, w]
//   out'[0, o, kh, kw*C + c] = sum_n,y,x in'[0, n, kh*sh + y*dh,
//                                          kw*C + c + x*(dw*C)] * dY^T[o, n, y,
//                                          x]
//
// it is one convolution of stride (sh, 1) and dilation (dh, dw*C) whose
// output rows are KW*C columns wide, so a tile is `ow-block` input channels
// of one tap by the kernel's output-channel vectors: the same inner loop
// as a forward convolution (2 filter loads, ow-block broadcasts, 2 *
// ow-block FMAs). The reduction is cut into chunks of images (and of the
// filter's rows when one image is too many), one accumulating convolution
// each, so that the part of the re-laid-out dY that every tile streams
// stays in L2. See "Filter gradients on the direct
// kernel" in docs/design/conv-codegen.md.
//
//===----------------------------------------------------------------------===//

#include "CpuDirectConv.h"
#include "IndexMath.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Utils/ReshapeOpsUtils.h"
#include "mlir/IR/PatternMatch.h"

using namespace mlir;

namespace {

using graphc::indexAttrs;
using graphc::largestDivisor;

/// Bytes of one chunk of the reduction: its re-laid-out filter (dY, one
/// output-channel block of it), which every register tile streams, and its
/// input rows, which neighbouring tiles read again; both should stay in L2.
constexpr int64_t kChunkBytes = int64_t(1) << 20;

/// `v` reshaped to `shape` (row-major, as graph.reshape): a collapse, an
/// expand, or a collapse to one dimension then an expand.
Value reshape(OpBuilder &b, Location loc, Value v, ArrayRef<int64_t> shape) {
  auto type = cast<RankedTensorType>(v.getType());
  Type et = type.getElementType();
  if (type.getShape() == shape) {
    return v;
  }
  auto target = RankedTensorType::get(shape, et);
  std::optional<SmallVector<ReassociationIndices>> collapse =
      getReassociationIndicesForCollapse(type.getShape(), shape);
  if (collapse) {
    return tensor::CollapseShapeOp::create(b, loc, target, v, *collapse);
  }
  std::optional<SmallVector<ReassociationIndices>> expand =
      getReassociationIndicesForCollapse(shape, type.getShape());
  if (expand) {
    return tensor::ExpandShapeOp::create(b, loc, target, v, *expand);
  }
  // Neither (a merge and a split): through the flat view.
  return reshape(b, loc, reshape(b, loc, v, {type.getNumElements()}), shape);
}

/// `v` [rows, cols] transposed: a linalg.transpose of the last two
/// dimensions, which graphc-cpu-tile-and-vectorize does by lanes x lanes
/// register transposes when the dimensions are whole vectors.
Value transpose2d(OpBuilder &b, Location loc, Value v) {
  auto type = cast<RankedTensorType>(v.getType());
  SmallVector<int64_t> shape = {type.getDimSize(1), type.getDimSize(0)};
  Value init = tensor::EmptyOp::create(b, loc, shape, type.getElementType());
  return linalg::TransposeOp::create(b, loc, v, init, ArrayRef<int64_t>{1, 0})
      .getResult()[0];
}

} // namespace

bool graphc::isFilterGradientConv(linalg::Conv2DNchwFchwOp conv) {
  auto ft = dyn_cast<RankedTensorType>(conv.getInputs()[1].getType());
  auto ot = dyn_cast<RankedTensorType>(conv.getOutputs()[0].getType());
  if (!ft || !ot || !ft.hasStaticShape() || !ot.hasStaticShape()) {
    return false;
  }
  return ft.getDimSize(2) * ft.getDimSize(3) >
         ot.getDimSize(2) * ot.getDimSize(3);
}

LogicalResult graphc::filterGradDirectConv(RewriterBase &rewriter,
                                           linalg::Conv2DNchwFchwOp conv,
                                           int64_t lanes, int64_t owBlock,
                                           int64_t fVectors) {
  Value input = conv.getInputs()[0], filter = conv.getInputs()[1];
  Value init = conv.getOutputs()[0];
  auto it = dyn_cast<RankedTensorType>(input.getType());
  auto ft = dyn_cast<RankedTensorType>(filter.getType());
  auto ot = dyn_cast<RankedTensorType>(init.getType());
  if (!it || !ft || !ot || !it.hasStaticShape() || !ft.hasStaticShape() ||
      !ot.hasStaticShape() || !it.getElementType().isF32() ||
      !ft.getElementType().isF32() || !ot.getElementType().isF32()) {
    return failure();
  }
  SmallVector<int64_t> strides =
      llvm::to_vector(conv.getStrides().getValues<int64_t>());
  SmallVector<int64_t> dilations =
      llvm::to_vector(conv.getDilations().getValues<int64_t>());
  int64_t images = it.getDimSize(0), channels = it.getDimSize(1);
  int64_t f = ot.getDimSize(1), oh = ot.getDimSize(2), ow = ot.getDimSize(3);
  int64_t kh = ft.getDimSize(2), kw = ft.getDimSize(3);
  if (images == 1) {
    // Nothing to merge: the form is the plain one.
    return rewriteDirectConv(rewriter, conv, lanes, owBlock, fVectors);
  }
  // The merged columns kw*C + c step by 1 only when the output's columns
  // do (stride 1 along W); the kernel wants whole vectors of output
  // channels and a tile of at least 4 columns (or the whole row).
  int64_t cols = ow * images;
  int64_t owb = largestDivisor(cols, owBlock);
  if (strides[1] != 1 || f % lanes != 0 || (owb < 4 && owb != cols)) {
    return failure();
  }

  Type et = ot.getElementType();
  Location loc = conv.getLoc();
  rewriter.setInsertionPoint(conv);
  // in [B, N, H, W] -> [N, H, W, B] -> [1, N, H, W*B]: the transpose of
  // [B, N*H*W] (two whole-vector dimensions in ResNets: register tiles).
  int64_t h = it.getDimSize(2), w = it.getDimSize(3);
  Value merged = reshape(
      rewriter, loc,
      transpose2d(rewriter, loc,
                  reshape(rewriter, loc, input, {images, channels * h * w})),
      {1, channels, h, w * images});
  auto accType = RankedTensorType::get({1, f, oh, cols}, et);
  auto fill = init.getDefiningOp<linalg::FillOp>();
  Value acc;
  if (fill) {
    SmallVector<Value, 1> value = {fill.getInputs()[0]};
    SmallVector<Value, 1> empty = {
        tensor::EmptyOp::create(rewriter, loc, accType.getShape(), et)};
    acc = linalg::FillOp::create(rewriter, loc, value, empty).getResult(0);
  } else {
    // init [B, F, OH, OW] -> [F, OH, OW, B] -> [1, F, OH, OW*B].
    acc = reshape(
        rewriter, loc,
        transpose2d(rewriter, loc,
                    reshape(rewriter, loc, init, {images, f * oh * ow})),
        accType.getShape());
  }

  // Chunks of the reduction (the forward batch, then the filter's rows when
  // one channel is already over the budget): every register tile streams
  // its chunk's filter block (fb elements per channel and tap) and reads
  // its chunk's input rows, which the next tile reads again.
  int64_t fb = f % (fVectors * lanes) == 0 ? fVectors * lanes : lanes;
  int64_t rowBytes = kw * fb * int64_t(sizeof(float));
  int64_t inRowBytes = w * images * int64_t(sizeof(float));
  auto chunkBytes = [&](int64_t c, int64_t r) {
    int64_t span = (oh - 1) * strides[0] + (r - 1) * dilations[0] + 1;
    return c * (r * rowBytes + span * inRowBytes);
  };
  int64_t chunk = 1, rows = kh;
  for (int64_t d = channels; d >= 1; --d) {
    if (channels % d == 0 && chunkBytes(d, kh) <= kChunkBytes) {
      chunk = d;
      break;
    }
  }
  if (chunkBytes(1, kh) > kChunkBytes) {
    rows = 1;
    for (int64_t d = kh; d >= 1; --d) {
      if (kh % d == 0 && chunkBytes(1, d) <= kChunkBytes) {
        rows = d;
        break;
      }
    }
  }
  auto stridesAttr = rewriter.getI64TensorAttr({strides[0], 1});
  auto dilationsAttr =
      rewriter.getI64TensorAttr({dilations[0], dilations[1] * images});
  int64_t width = cast<RankedTensorType>(merged.getType()).getDimSize(3);
  // Input rows one chunk of `rows` filter rows reads.
  int64_t span = (oh - 1) * strides[0] + (rows - 1) * dilations[0] + 1;
  SmallVector<OpFoldResult> unit = indexAttrs(rewriter, {1, 1, 1, 1});
  SmallVector<linalg::Conv2DNchwFchwOp> convs;
  auto chunkConv = [&](OpBuilder &b, Value x, Value wgt, Value into) {
    SmallVector<Type, 1> types = {accType};
    SmallVector<Value, 2> ins = {x, wgt};
    SmallVector<Value, 1> outs = {into};
    auto c = linalg::Conv2DNchwFchwOp::create(b, loc, types, ins, outs,
                                              stridesAttr, dilationsAttr);
    convs.push_back(c);
    return c.getResult(0);
  };
  if (chunk == channels && rows == kh) {
    acc = chunkConv(rewriter, merged, filter, acc);
  } else {
    // The chunks as a loop nest, one convolution (so one kernel) in its
    // body: written out one after another, a layer with many chunks made
    // as many copies of the kernel (ResNet-18's training step compiled
    // 4x slower, at twice the memory).
    graphc::IndexMath im{rewriter, loc};
    auto cLoop = scf::ForOp::create(
        rewriter, loc, im.idx(0), im.idx(channels), im.idx(chunk),
        ValueRange{acc}, [&](OpBuilder &, Location, Value c0, ValueRange cAcc) {
          auto yLoop = scf::ForOp::create(
              rewriter, loc, im.idx(0), im.idx(kh), im.idx(rows), cAcc,
              [&](OpBuilder &, Location, Value y0, ValueRange yAcc) {
                Value zero = im.idx(0);
                SmallVector<OpFoldResult> xOffsets = {
                    rewriter.getIndexAttr(0), c0, im.mul(y0, dilations[0]),
                    rewriter.getIndexAttr(0)};
                Value x = tensor::ExtractSliceOp::create(
                    rewriter, loc,
                    RankedTensorType::get({1, chunk, span, width}, et), merged,
                    xOffsets, indexAttrs(rewriter, {1, chunk, span, width}),
                    unit);
                SmallVector<OpFoldResult> wOffsets = {zero, c0, y0, zero};
                Value wgt = tensor::ExtractSliceOp::create(
                    rewriter, loc,
                    RankedTensorType::get({f, chunk, rows, kw}, et), filter,
                    wOffsets, indexAttrs(rewriter, {f, chunk, rows, kw}), unit);
                scf::YieldOp::create(rewriter, loc,
                                     chunkConv(rewriter, x, wgt, yAcc[0]));
              });
          scf::YieldOp::create(rewriter, loc, yLoop.getResults());
        });
    acc = cLoop.getResult(0);
  }
  // [1, F, OH, OW*B] -> [F*OH*OW, B] -> [B, F*OH*OW] = [B, F, OH, OW].
  Value result = reshape(
      rewriter, loc,
      transpose2d(rewriter, loc,
                  reshape(rewriter, loc,
                          reshape(rewriter, loc, acc, {1, f, oh, ow, images}),
                          {f * oh * ow, images})),
      ot.getShape());
  rewriter.replaceOp(conv, result);
  if (fill && fill->use_empty()) {
    rewriter.eraseOp(fill);
  }
  // Checked above: each takes the kernel (one that did not would still be a
  // correct convolution, left to im2col + GEMM).
  for (linalg::Conv2DNchwFchwOp c : convs) {
    (void)rewriteDirectConv(rewriter, c, lanes, owBlock, fVectors);
  }
  return success();
}
