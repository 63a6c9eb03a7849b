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

#include "ConvKernels.h"
#include "CpuDirectConv.h"
#include "IndexMath.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Utils/ReshapeOpsUtils.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/PatternMatch.h"

using namespace mlir;

namespace {

using graphc::forEachRow;
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

/// `v` [..., rows, cols] with its last two dimensions exchanged (a
/// linalg.transpose; blocked into register transposes as transpose2d's).
Value transposeInner(OpBuilder &b, Location loc, Value v) {
  auto type = cast<RankedTensorType>(v.getType());
  int64_t rank = type.getRank();
  SmallVector<int64_t> shape = llvm::to_vector(type.getShape());
  std::swap(shape[rank - 1], shape[rank - 2]);
  SmallVector<int64_t> perm = llvm::to_vector(llvm::seq<int64_t>(0, rank));
  std::swap(perm[rank - 1], perm[rank - 2]);
  Value init = tensor::EmptyOp::create(b, loc, shape, type.getElementType());
  return linalg::TransposeOp::create(b, loc, v, init, perm).getResult()[0];
}

bool swapsOuterPair(linalg::TransposeOp t) {
  ArrayRef<int64_t> perm = t.getPermutation();
  return perm.size() == 4 && perm[0] == 1 && perm[1] == 0 && perm[2] == 2 &&
         perm[3] == 3;
}

/// The dimensions of `shape` other than 1s.
SmallVector<int64_t> nonUnit(ArrayRef<int64_t> shape) {
  SmallVector<int64_t> dims;
  for (int64_t d : shape) {
    if (d != 1) {
      dims.push_back(d);
    }
  }
  return dims;
}

/// graph-autodiff's filter gradient convolves x^T, a transpose [1, 0, 2, 3]
/// of the forward input x [N, C, H, W] (in the rule's grouped form, a
/// transpose of [N, G, C/G, H, W] collapsed back, with a unit group
/// dimension when G = 1), padded in H and W by a tensor.pad or not. When
/// `input` is that, returns x (its non-unit dimensions) padded alike, so
/// the kernel's re-layout [N, H, W, C] is one transpose of x's last
/// dimensions instead of a transpose of the transpose; null otherwise.
Value forwardInput(RewriterBase &rewriter, Location loc, Value input) {
  auto it = cast<RankedTensorType>(input.getType());
  Value v = input;
  if (auto collapse = v.getDefiningOp<tensor::CollapseShapeOp>()) {
    // Only unit dimensions folded away.
    if (nonUnit(collapse.getSrcType().getShape()) != nonUnit(it.getShape())) {
      return Value();
    }
    v = collapse.getSrc();
  }
  auto pad = v.getDefiningOp<tensor::PadOp>();
  if (pad) {
    v = pad.getSource();
  }
  auto t = v.getDefiningOp<linalg::TransposeOp>();
  if (!t) {
    return Value();
  }
  // The permutation on the non-unit dimensions: [1, 0, 2, 3], with H and W
  // the transpose's last two dimensions (the ones padded).
  auto st = cast<RankedTensorType>(t.getInput().getType());
  ArrayRef<int64_t> perm = t.getPermutation();
  int64_t r = st.getRank();
  SmallVector<int64_t> rank(r, -1);
  int64_t next = 0;
  for (int64_t d = 0; d < r; ++d) {
    if (st.getDimSize(d) != 1) {
      rank[d] = next++;
    }
  }
  SmallVector<int64_t> order;
  for (int64_t p : perm) {
    if (rank[p] >= 0) {
      order.push_back(rank[p]);
    }
  }
  if (r < 4 || order != SmallVector<int64_t>{1, 0, 2, 3} ||
      perm[r - 1] != r - 1 || perm[r - 2] != r - 2 ||
      st.getDimSize(r - 1) == 1 || st.getDimSize(r - 2) == 1) {
    return Value();
  }
  SmallVector<int64_t> low(r, 0), high(r, 0);
  Value padValue;
  if (pad) {
    padValue = pad.getConstantPaddingValue();
    if (!padValue || ShapedType::isDynamicShape(pad.getStaticLow()) ||
        ShapedType::isDynamicShape(pad.getStaticHigh())) {
      return Value();
    }
    low = llvm::to_vector(pad.getStaticLow());
    high = llvm::to_vector(pad.getStaticHigh());
    for (int64_t d = 0; d + 2 < r; ++d) {
      if (low[d] != 0 || high[d] != 0) {
        return Value();
      }
    }
  }
  Value x = reshape(rewriter, loc, t.getInput(), nonUnit(st.getShape()));
  if (!pad) {
    return x;
  }
  auto xt = cast<RankedTensorType>(x.getType());
  auto type = RankedTensorType::get(
      {xt.getDimSize(0), xt.getDimSize(1), it.getDimSize(2), it.getDimSize(3)},
      xt.getElementType());
  SmallVector<int64_t> lo = {0, 0, low[r - 2], low[r - 1]};
  SmallVector<int64_t> hi = {0, 0, high[r - 2], high[r - 1]};
  return tensor::PadOp::create(rewriter, loc, type, x, indexAttrs(rewriter, lo),
                               indexAttrs(rewriter, hi), padValue);
}

/// `acc` [F, T, B] (the kernel's output, taps before images) transposed to
/// [F, B*T] by register tiles: per output channel and `lanes` images, the T
/// x lanes block read as T whole vectors, transposed in registers and
/// written as lanes*T contiguous elements (T x lanes -> lanes x T). What a
/// linalg.transpose of the last two dimensions cannot do blocked: T (9 for
/// a 3x3 filter) is not a whole vector.
Value transposeTaps(RewriterBase &rewriter, Location loc, Value acc,
                    int64_t lanes) {
  auto type = cast<RankedTensorType>(acc.getType());
  int64_t f = type.getDimSize(0), t = type.getDimSize(1),
          b = type.getDimSize(2);
  Type et = type.getElementType();
  graphc::IndexMath im{rewriter, loc};
  Value empty = tensor::EmptyOp::create(rewriter, loc, {f, b * t}, et);
  Value pad =
      arith::ConstantOp::create(rewriter, loc, et, rewriter.getZeroAttr(et));
  return forEachRow(rewriter, loc, empty, [&](Value o, Value row) -> Value {
    auto loop = scf::ForOp::create(
        rewriter, loc, im.idx(0), im.idx(b), im.idx(lanes), ValueRange{row},
        [&](OpBuilder &, Location, Value c0, ValueRange args) {
          Value block = vector::TransferReadOp::create(
              rewriter, loc, VectorType::get({t, lanes}, et), acc,
              ValueRange{o, im.idx(0), c0}, std::optional<Value>(pad),
              ArrayRef<bool>{true, true});
          block = vector::TransposeOp::create(rewriter, loc, block,
                                              ArrayRef<int64_t>{1, 0});
          block = vector::ShapeCastOp::create(
              rewriter, loc, VectorType::get({lanes * t}, et), block);
          scf::YieldOp::create(
              rewriter, loc,
              vector::TransferWriteOp::create(rewriter, loc, block, args[0],
                                              ValueRange{im.mul(c0, t)},
                                              ArrayRef<bool>{true})
                  .getResult());
        });
    return loop.getResult(0);
  });
}

/// The source of a stride-1 data gradient's flipped filter, as
/// ConvTransposeLowering builds it (one group): `filter` [F, C, KH, KW] is
/// the collapse of a generic that gathers
/// `flipped[0, f, c, kh, kw] = src[0, c, f, KH - 1 - kh, KW - 1 - kw]`
/// (src [1, C, F, KH, KW], the forward filter). Null for anything else.
Value flipSource(Value filter) {
  auto collapse = filter.getDefiningOp<tensor::CollapseShapeOp>();
  if (!collapse ||
      collapse.getReassociationIndices() !=
          SmallVector<ReassociationIndices>{{0, 1}, {2}, {3}, {4}}) {
    return Value();
  }
  auto generic = collapse.getSrc().getDefiningOp<linalg::GenericOp>();
  if (!generic || generic.getNumDpsInputs() != 0 ||
      generic.getNumDpsInits() != 1 || generic.getNumLoops() != 5 ||
      generic.getNumParallelLoops() != 5 ||
      !generic.getIndexingMapsArray()[0].isIdentity()) {
    return Value();
  }
  auto type = cast<RankedTensorType>(generic.getResult(0).getType());
  auto yield = cast<linalg::YieldOp>(generic.getBody()->getTerminator());
  auto extract = yield.getOperand(0).getDefiningOp<tensor::ExtractOp>();
  if (!type.hasStaticShape() || type.getDimSize(0) != 1 || !extract ||
      extract->getBlock() != generic.getBody() ||
      generic.getBody()->getOperations().size() > 16) {
    return Value();
  }
  Value src = extract.getTensor();
  auto st = cast<RankedTensorType>(src.getType());
  if (st.getShape() != ArrayRef<int64_t>{1, type.getDimSize(2),
                                         type.getDimSize(1), type.getDimSize(3),
                                         type.getDimSize(4)}) {
    return Value();
  }
  auto isIndex = [](Value v, int64_t dim) {
    auto index = v.getDefiningOp<linalg::IndexOp>();
    return index && int64_t(index.getDim()) == dim;
  };
  auto isFlip = [&](Value v, int64_t dim, int64_t size) {
    auto sub = v.getDefiningOp<arith::SubIOp>();
    std::optional<int64_t> last =
        sub ? getConstantIntValue(sub.getLhs()) : std::nullopt;
    return sub && last && *last == size - 1 && isIndex(sub.getRhs(), dim);
  };
  ValueRange at = extract.getIndices();
  std::optional<int64_t> zero = getConstantIntValue(at[0]);
  if (!(isIndex(at[0], 0) || (zero && *zero == 0)) || !isIndex(at[1], 2) ||
      !isIndex(at[2], 1) || !isFlip(at[3], 3, type.getDimSize(3)) ||
      !isFlip(at[4], 4, type.getDimSize(4))) {
    return Value();
  }
  return src;
}

/// graph-autodiff's filter gradient convolves by dY^T, a transpose
/// [1, 0, 2, 3] of the output adjoint dY [N, F, OH, OW]. When `filter` is
/// that, returns dY; null otherwise.
Value outputAdjoint(Value filter) {
  auto t = filter.getDefiningOp<linalg::TransposeOp>();
  if (!t || !swapsOuterPair(t)) {
    return Value();
  }
  auto type = dyn_cast<RankedTensorType>(t.getInput().getType());
  return type && type.hasStaticShape() ? t.getInput() : Value();
}

/// dY [N, F, OH, OW] re-laid out in one pass as the direct kernel's packed
/// filter for the convolution by dY^T: [F/fb, N, OH, OW, fb], per block of
/// fb output channels and image, the [fb, OH*OW] block transposed by
/// register tiles (fb x lanes read as fb vectors, written as lanes*fb
/// contiguous elements; a static narrower tile for the last OH*OW % lanes
/// pixels). The rule's transpose to dY^T, a per-chunk copy and the
/// kernel's own packing were three passes over dY.
Value packOutputAdjoint(RewriterBase &rewriter, Location loc, Value dy,
                        int64_t fb, int64_t lanes) {
  auto type = cast<RankedTensorType>(dy.getType());
  int64_t n = type.getDimSize(0), f = type.getDimSize(1);
  int64_t oh = type.getDimSize(2), ow = type.getDimSize(3);
  int64_t p = oh * ow, blocks = f / fb, width = n * p * fb;
  Type et = type.getElementType();
  graphc::IndexMath im{rewriter, loc};
  Value rows = reshape(rewriter, loc, dy, {n, f, p});
  Value pad =
      arith::ConstantOp::create(rewriter, loc, et, rewriter.getZeroAttr(et));
  Value packedRows = forEachRow(
      rewriter, loc,
      tensor::EmptyOp::create(rewriter, loc, {blocks, width}, et),
      [&](Value b, Value row) -> Value {
        Value c0 = im.mul(b, fb);
        // One tile: dY[i, c0 .. c0 + fb, q .. q + w] to row[(i*P + q)*fb ...].
        auto tile = [&](Value i, Value q, int64_t w, Value into) -> Value {
          Value v = vector::TransferReadOp::create(
              rewriter, loc, VectorType::get({fb, w}, et), rows,
              ValueRange{i, c0, q}, std::optional<Value>(pad),
              ArrayRef<bool>{true, true});
          v = vector::TransposeOp::create(rewriter, loc, v,
                                          ArrayRef<int64_t>{1, 0});
          v = vector::ShapeCastOp::create(rewriter, loc,
                                          VectorType::get({w * fb}, et), v);
          Value at = im.mul(im.add(im.mul(i, p), q), fb);
          return vector::TransferWriteOp::create(rewriter, loc, v, into,
                                                 ValueRange{at},
                                                 ArrayRef<bool>{true})
              .getResult();
        };
        int64_t whole = p / lanes * lanes;
        auto loop = scf::ForOp::create(
            rewriter, loc, im.idx(0), im.idx(n), im.idx(1), ValueRange{row},
            [&](OpBuilder &, Location, Value i, ValueRange imageArgs) {
              Value acc = imageArgs[0];
              if (whole > 0) {
                acc = scf::ForOp::create(
                          rewriter, loc, im.idx(0), im.idx(whole),
                          im.idx(lanes), ValueRange{acc},
                          [&](OpBuilder &, Location, Value q, ValueRange args) {
                            scf::YieldOp::create(rewriter, loc,
                                                 tile(i, q, lanes, args[0]));
                          })
                          .getResult(0);
              }
              if (whole < p) {
                acc = tile(i, im.idx(whole), p - whole, acc);
              }
              scf::YieldOp::create(rewriter, loc, acc);
            });
        return loop.getResult(0);
      });
  return reshape(rewriter, loc, packedRows, {blocks, n, oh, ow, fb});
}

/// `packed` [F/fb, C, KH, KW, fb] as the filter [F, C, KH, KW] the direct
/// kernel's packFilter reads through (as graphc-cpu-prepack-conv-filters
/// leaves one): a transpose by [0, 4, 1, 2, 3] collapsed. The transpose is
/// dead once the kernel has taken `packed`.
Value packedView(RewriterBase &rewriter, Location loc, Value packed,
                 SmallVectorImpl<Operation *> &views) {
  auto type = cast<RankedTensorType>(packed.getType());
  ArrayRef<int64_t> s = type.getShape();
  Value init = tensor::EmptyOp::create(
      rewriter, loc, {s[0], s[4], s[1], s[2], s[3]}, type.getElementType());
  auto transpose = linalg::TransposeOp::create(
      rewriter, loc, packed, init, ArrayRef<int64_t>{0, 4, 1, 2, 3});
  views.push_back(transpose);
  return tensor::CollapseShapeOp::create(
      rewriter, loc,
      RankedTensorType::get({s[0] * s[4], s[1], s[2], s[3]},
                            type.getElementType()),
      transpose.getResult()[0],
      SmallVector<ReassociationIndices>{{0, 1}, {2}, {3}, {4}});
}

} // namespace

linalg::TransposeOp graphc::prepackFlippedFilter(RewriterBase &rewriter,
                                                 linalg::Conv2DNchwFchwOp conv,
                                                 int64_t lanes,
                                                 int64_t fVectors) {
  Value filter = conv.getInputs()[1];
  auto ft = cast<RankedTensorType>(filter.getType());
  Value src = flipSource(filter);
  int64_t f = ft.getDimSize(0), c = ft.getDimSize(1);
  int64_t taps = ft.getDimSize(2) * ft.getDimSize(3);
  int64_t fb = directConvFilterBlock(f, lanes, fVectors);
  Type et = ft.getElementType();
  if (!src || !et.isF32() || fb == 0 || taps < 2 || taps > 16) {
    return linalg::TransposeOp();
  }
  // packed[b, c, t, j] = src[c, b*fb + j, T - 1 - t]: per block and input
  // channel, the contiguous [fb, T] block of the forward filter read as one
  // vector, transposed in registers, its rows reversed, written as the
  // contiguous [T, fb] block of the kernel's layout.
  Location loc = conv.getLoc();
  rewriter.setInsertionPoint(conv);
  graphc::IndexMath im{rewriter, loc};
  Value rows = reshape(rewriter, loc, src, {c, f * taps});
  int64_t blocks = f / fb, width = c * taps * fb;
  Value pad =
      arith::ConstantOp::create(rewriter, loc, et, rewriter.getZeroAttr(et));
  Value packedRows = forEachRow(
      rewriter, loc,
      tensor::EmptyOp::create(rewriter, loc, {blocks, width}, et),
      [&](Value b, Value row) -> Value {
        SmallVector<int64_t> reversed;
        for (int64_t t = taps; t-- > 0;) {
          reversed.push_back(t);
        }
        auto loop = scf::ForOp::create(
            rewriter, loc, im.idx(0), im.idx(c), im.idx(1), ValueRange{row},
            [&](OpBuilder &, Location, Value ci, ValueRange args) {
              Value v = vector::TransferReadOp::create(
                  rewriter, loc, VectorType::get({fb * taps}, et), rows,
                  ValueRange{ci, im.mul(b, fb * taps)},
                  std::optional<Value>(pad), ArrayRef<bool>{true});
              v = vector::ShapeCastOp::create(
                  rewriter, loc, VectorType::get({fb, taps}, et), v);
              v = vector::TransposeOp::create(rewriter, loc, v,
                                              ArrayRef<int64_t>{1, 0});
              v = vector::ShuffleOp::create(rewriter, loc, v, v, reversed);
              v = vector::ShapeCastOp::create(
                  rewriter, loc, VectorType::get({taps * fb}, et), v);
              scf::YieldOp::create(rewriter, loc,
                                   vector::TransferWriteOp::create(
                                       rewriter, loc, v, args[0],
                                       ValueRange{im.mul(ci, taps * fb)},
                                       ArrayRef<bool>{true})
                                       .getResult());
            });
        return loop.getResult(0);
      });
  // As graphc-cpu-prepack-conv-filters leaves a filter: the packed
  // [F/fb, C, KH, KW, fb] behind a transpose and a collapse, which the
  // kernel's packFilter reads through (the transpose is then dead).
  Value packed = reshape(rewriter, loc, packedRows,
                         {blocks, c, ft.getDimSize(2), ft.getDimSize(3), fb});
  Value init = tensor::EmptyOp::create(
      rewriter, loc, {blocks, fb, c, ft.getDimSize(2), ft.getDimSize(3)}, et);
  auto transpose = linalg::TransposeOp::create(
      rewriter, loc, packed, init, ArrayRef<int64_t>{0, 4, 1, 2, 3});
  Value view = tensor::CollapseShapeOp::create(
      rewriter, loc, ft, transpose.getResult()[0],
      SmallVector<ReassociationIndices>{{0, 1}, {2}, {3}, {4}});
  rewriter.modifyOpInPlace(conv,
                           [&] { conv.getInputsMutable()[1].assign(view); });
  // The gather, when this convolution was its only reader.
  if (filter.use_empty()) {
    Operation *generic = filter.getDefiningOp<tensor::CollapseShapeOp>()
                             .getSrc()
                             .getDefiningOp();
    rewriter.eraseOp(filter.getDefiningOp());
    if (generic->use_empty()) {
      rewriter.eraseOp(generic);
    }
  }
  return transpose;
}

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
  Value merged;
  Value x = forwardInput(rewriter, loc, input);
  if (x) {
    // x [N, B, H, W] -> [N, H, W, B]: per image, [B, H*W] transposed.
    merged = reshape(
        rewriter, loc,
        transposeInner(rewriter, loc,
                       reshape(rewriter, loc, x, {channels, images, h * w})),
        {1, channels, h, w * images});
  } else {
    merged = reshape(
        rewriter, loc,
        transpose2d(rewriter, loc,
                    reshape(rewriter, loc, input, {images, channels * h * w})),
        {1, channels, h, w * images});
  }
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
  // dY^T's re-layout for the kernel, once from dY, when the filter is the
  // rule's transpose of it: each chunk's filter is then a slice of it.
  Value dy = outputAdjoint(filter);
  Value packed;
  SmallVector<Operation *> views;
  if (dy && directConvFilterBlock(f, lanes, fVectors) == fb) {
    packed = packOutputAdjoint(rewriter, loc, dy, fb, lanes);
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
    acc = chunkConv(rewriter, merged,
                    packed ? packedView(rewriter, loc, packed, views) : filter,
                    acc);
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
                Value wgt;
                if (packed) {
                  OpFoldResult origin = rewriter.getIndexAttr(0);
                  SmallVector<OpFoldResult> pOffsets = {origin, c0, y0, origin,
                                                        origin};
                  SmallVector<int64_t> pSizes = {f / fb, chunk, rows, kw, fb};
                  Value slice = tensor::ExtractSliceOp::create(
                      rewriter, loc, RankedTensorType::get(pSizes, et), packed,
                      pOffsets, indexAttrs(rewriter, pSizes),
                      indexAttrs(rewriter, {1, 1, 1, 1, 1}));
                  wgt = packedView(rewriter, loc, slice, views);
                } else {
                  SmallVector<OpFoldResult> wOffsets = {zero, c0, y0, zero};
                  wgt = tensor::ExtractSliceOp::create(
                      rewriter, loc,
                      RankedTensorType::get({f, chunk, rows, kw}, et), filter,
                      wOffsets, indexAttrs(rewriter, {f, chunk, rows, kw}),
                      unit);
                }
                scf::YieldOp::create(rewriter, loc,
                                     chunkConv(rewriter, x, wgt, yAcc[0]));
              });
          scf::YieldOp::create(rewriter, loc, yLoop.getResults());
        });
    acc = cLoop.getResult(0);
  }
  // graph-autodiff's rule transposes the gradient [B, F, OH, OW] to the
  // filter's [F, B, OH, OW]: when that is the only use, the kernel's
  // [F, OH*OW, B] goes there in one transpose (of its last two dimensions)
  // instead of two. A 1x1 filter's needs none: [F, 1, B] is [F, B, 1].
  auto user = conv->hasOneUse()
                  ? dyn_cast<linalg::TransposeOp>(*conv->getUsers().begin())
                  : linalg::TransposeOp();
  int64_t taps = oh * ow;
  if (user && swapsOuterPair(user) &&
      (taps == 1 || (taps <= lanes && images % lanes == 0))) {
    Value taped = reshape(rewriter, loc, acc, {f, taps, images});
    rewriter.setInsertionPoint(user);
    Value result = taps == 1 ? reshape(rewriter, loc, taped, {f, images})
                             : transposeTaps(rewriter, loc, taped, lanes);
    rewriter.replaceOp(
        user,
        reshape(
            rewriter, loc, result,
            cast<RankedTensorType>(user->getResult(0).getType()).getShape()));
    rewriter.eraseOp(conv);
  } else {
    // [1, F, OH, OW*B] -> [F*OH*OW, B] -> [B, F*OH*OW] = [B, F, OH, OW].
    Value result = reshape(
        rewriter, loc,
        transpose2d(rewriter, loc,
                    reshape(rewriter, loc,
                            reshape(rewriter, loc, acc, {1, f, oh, ow, images}),
                            {f * oh * ow, images})),
        ot.getShape());
    rewriter.replaceOp(conv, result);
  }
  if (fill && fill->use_empty()) {
    rewriter.eraseOp(fill);
  }
  // x^T (and its pad), now read by nothing when the rule built them for
  // this convolution alone.
  if (x) {
    for (Value v = input; Operation *def = v.getDefiningOp();) {
      if (!def->use_empty() ||
          !isa<tensor::CollapseShapeOp, tensor::PadOp, linalg::TransposeOp>(
              def)) {
        break;
      }
      bool last = isa<linalg::TransposeOp>(def);
      v = def->getOperand(0);
      rewriter.eraseOp(def);
      if (last) {
        break;
      }
    }
  }
  // Checked above: each takes the kernel (one that did not would still be a
  // correct convolution, left to im2col + GEMM).
  for (linalg::Conv2DNchwFchwOp c : convs) {
    (void)rewriteDirectConv(rewriter, c, lanes, owBlock, fVectors);
  }
  // The packed filter's views (transposes, read through by the kernel) and
  // dY^T, when nothing else reads them.
  for (Operation *view : views) {
    for (Operation *user : llvm::make_early_inc_range(view->getUsers())) {
      if (user->use_empty()) {
        rewriter.eraseOp(user);
      }
    }
    if (view->use_empty()) {
      rewriter.eraseOp(view);
    }
  }
  if (packed && filter.use_empty()) {
    rewriter.eraseOp(filter.getDefiningOp());
  }
  return success();
}
