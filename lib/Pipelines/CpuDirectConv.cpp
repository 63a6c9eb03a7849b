//===- CpuDirectConv.cpp - direct (im2col-free) 2-D convolutions ----------===//
//
// graphc-cpu-direct-conv: rewrites linalg.conv_2d_nchw_fchw into a direct
// vector kernel that materialises no im2col buffer. The register tile is
// `ow-block` output columns by `f-vectors` vectors of output channels; for
// every input channel and filter tap the kernel loads one row of the filter
// (the tile's output channels, contiguous after the filter is re-laid out)
// and, per output column, broadcasts one input element and multiply-adds
// it into that column's accumulators: the scheme of oneDNN's brgconv and
// ONNX Runtime's MLAS NCHWc kernels, with the input and output kept in NCHW
// (the input elements are scalar broadcasts, so their layout does not
// matter; the accumulator tile is transposed in registers before it is
// stored). See "Direct convolution" in docs/design/cpu-codegen.md.
//
//===----------------------------------------------------------------------===//

#include "CpuDirectConv.h"
#include "CpuPasses.h"
#include "IndexMath.h"

#include "graphc/Pipelines/CpuCodegen.h"

#include <cstring>
#include <vector>

#include "graphc/Target/CPU/CpuTarget.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/DialectResourceBlobManager.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"

namespace graphc {
#define GEN_PASS_DEF_CPUDIRECTCONV
#include "CpuPasses.h.inc"
} // namespace graphc

using namespace mlir;

namespace {

/// Tasks a convolution is split into at least, when its images and output
/// rows alone give fewer (output channel blocks are then split too).
constexpr int64_t kMinTasks = 16;

/// The largest divisor of `extent` not above `max` (the extent itself when
/// it fits).
int64_t pickBlock(int64_t extent, int64_t max) {
  if (extent <= max) {
    return extent;
  }
  for (int64_t b = max; b > 1; --b) {
    if (extent % b == 0) {
      return b;
    }
  }
  return 1;
}

SmallVector<OpFoldResult> indexAttrs(OpBuilder &b, ArrayRef<int64_t> values) {
  SmallVector<OpFoldResult> r;
  for (int64_t v : values) {
    r.push_back(b.getIndexAttr(v));
  }
  return r;
}

/// The filter [F, C, KH, KW] re-laid out as [F/fb, C*KH*KW, fb], so the fb
/// output channels of one input channel and tap are contiguous: per block of
/// fb output channels, the [fb, K] matrix transposed. A constant filter
/// (dense or resource elements) is re-laid out here, at compile time; any
/// other one at run time by an `scf.forall` over the blocks that transposes
/// fb x 16 tiles in registers (`lanes`-wide loads and stores; the last tile
/// of a K that is not a multiple of 16 is a static smaller one).
Value packFilter(RewriterBase &rewriter, Location loc, Value filter,
                 int64_t fb) {
  auto ft = cast<RankedTensorType>(filter.getType());
  int64_t f = ft.getDimSize(0);
  int64_t k = ft.getDimSize(1) * ft.getDimSize(2) * ft.getDimSize(3);
  int64_t blocks = f / fb;
  Type et = ft.getElementType();
  auto packedType = RankedTensorType::get({blocks, k, fb}, et);
  Attribute attr;
  if (matchPattern(filter, m_Constant(&attr))) {
    ArrayRef<char> raw;
    if (auto dense = dyn_cast<DenseElementsAttr>(attr)) {
      if (dense.isSplat()) {
        return arith::ConstantOp::create(rewriter, loc, packedType,
                                         dense.resizeSplat(packedType));
      }
      raw = dense.getRawData();
    } else if (auto resource = dyn_cast<DenseResourceElementsAttr>(attr)) {
      if (AsmResourceBlob *blob = resource.getRawHandle().getBlob()) {
        raw = blob->getData();
      }
    }
    int64_t count = f * k;
    if (et.isF32() && int64_t(raw.size()) == count * int64_t(sizeof(float))) {
      // Copied first: the blob need not be aligned for float.
      std::vector<float> src(count), dst(count);
      std::memcpy(src.data(), raw.data(), raw.size());
      for (int64_t b = 0; b < blocks; ++b) {
        for (int64_t i = 0; i < k; ++i) {
          for (int64_t j = 0; j < fb; ++j) {
            dst[(b * k + i) * fb + j] = src[(b * fb + j) * k + i];
          }
        }
      }
      return arith::ConstantOp::create(
          rewriter, loc, packedType,
          DenseElementsAttr::get(packedType, ArrayRef<float>(dst)));
    }
  }
  graphc::IndexMath im{rewriter, loc};
  Value matrix = tensor::CollapseShapeOp::create(
      rewriter, loc, RankedTensorType::get({f, k}, et), filter,
      SmallVector<ReassociationIndices>{{0}, {1, 2, 3}});
  Value empty =
      tensor::EmptyOp::create(rewriter, loc, packedType.getShape(), et);
  Value pad =
      arith::ConstantOp::create(rewriter, loc, et, rewriter.getZeroAttr(et));
  auto forall =
      scf::ForallOp::create(rewriter, loc, indexAttrs(rewriter, {blocks}),
                            ValueRange{empty}, std::nullopt);
  OpBuilder::InsertionGuard guard(rewriter);
  rewriter.setInsertionPoint(forall.getTerminator());
  Value b = forall.getInductionVars()[0];
  Value out = forall.getRegionIterArgs()[0];
  SmallVector<OpFoldResult> offsets = {b, rewriter.getIndexAttr(0),
                                       rewriter.getIndexAttr(0)};
  SmallVector<OpFoldResult> sizes = indexAttrs(rewriter, {1, k, fb});
  SmallVector<OpFoldResult> unit = indexAttrs(rewriter, {1, 1, 1});
  Value block = tensor::ExtractSliceOp::create(
      rewriter, loc, RankedTensorType::get({k, fb}, et), out, offsets, sizes,
      unit);
  Value row0 = arith::MulIOp::create(rewriter, loc, b, im.idx(fb));
  constexpr int64_t kTile = 16;
  auto transposeTile = [&](Value acc, Value k0, int64_t width) -> Value {
    Value t = vector::TransferReadOp::create(
        rewriter, loc, VectorType::get({fb, width}, et), matrix,
        ValueRange{row0, k0}, std::optional<Value>(pad),
        ArrayRef<bool>{true, true});
    t = vector::TransposeOp::create(rewriter, loc, t, ArrayRef<int64_t>{1, 0});
    return vector::TransferWriteOp::create(rewriter, loc, t, acc,
                                           ValueRange{k0, im.idx(0)},
                                           ArrayRef<bool>{true, true})
        .getResult();
  };
  int64_t kMain = k - k % kTile;
  if (kMain > 0) {
    auto loop = scf::ForOp::create(
        rewriter, loc, im.idx(0), im.idx(kMain), im.idx(kTile),
        ValueRange{block},
        [&](OpBuilder &, Location, Value k0, ValueRange args) {
          scf::YieldOp::create(rewriter, loc,
                               transposeTile(args[0], k0, kTile));
        });
    block = loop.getResult(0);
  }
  if (k % kTile != 0) {
    block = transposeTile(block, im.idx(kMain), k % kTile);
  }
  rewriter.setInsertionPointToStart(forall.getTerminator().getBody());
  tensor::ParallelInsertSliceOp::create(rewriter, loc, block, out, offsets,
                                        sizes, unit);
  return forall.getResult(0);
}

/// Rewrites `conv` (NCHW input, already padded; FCHW filter; f32, static
/// shapes) into the direct kernel described at the top of the file: an
/// `scf.forall` over (image, chunk of output rows, chunk of output-channel
/// blocks), whose task walks, per block of `fb` output channels, its output
/// rows in tiles of `owb` output columns and
/// reduces over filter rows, filter columns and input channels in
/// `scf.for` loops that carry the owb accumulator vectors. Returns failure
/// (and leaves `conv` alone) for other element types, dynamic shapes, an
/// output channel count that is not a multiple of `lanes`, or an output
/// width above `owBlock` with no divisor from 4 to `owBlock`.
LogicalResult directConv(RewriterBase &rewriter, linalg::Conv2DNchwFchwOp conv,
                         int64_t lanes, int64_t owBlock, int64_t fVectors) {
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
  Type et = ot.getElementType();
  SmallVector<int64_t> strides =
      llvm::to_vector(conv.getStrides().getValues<int64_t>());
  SmallVector<int64_t> dilations =
      llvm::to_vector(conv.getDilations().getValues<int64_t>());
  int64_t sh = strides[0], sw = strides[1], dh = dilations[0],
          dw = dilations[1];
  int64_t n = ot.getDimSize(0), f = ot.getDimSize(1), oh = ot.getDimSize(2),
          ow = ot.getDimSize(3);
  int64_t c = it.getDimSize(1);
  int64_t kh = ft.getDimSize(2), kw = ft.getDimSize(3);
  if (n == 0 || f == 0 || oh == 0 || ow == 0 || c == 0 || f % lanes != 0) {
    return failure();
  }
  int64_t fb = f % (fVectors * lanes) == 0 ? fVectors * lanes : lanes;
  int64_t owb = pickBlock(ow, owBlock);
  if (owb < 4 && owb != ow) {
    return failure();
  }
  // Tasks: (image, chunk of output rows, chunk of output channel blocks),
  // at least kMinTasks of them when the images alone are fewer. Channel
  // blocks are split first: a task walks its rows inside each channel
  // block, so the block's filter (KH*KW*C*fb elements) is read from memory
  // once per task and reused from cache over its rows; splitting rows
  // multiplies that traffic, splitting channels does not.
  int64_t fBlocks = f / fb;
  int64_t need = llvm::divideCeil(kMinTasks, n);
  int64_t split = 1;
  for (int64_t d = std::min(need, fBlocks); d >= 1; --d) {
    if (fBlocks % d == 0) {
      split = d;
      break;
    }
  }
  int64_t rowChunks = oh;
  for (int64_t d = llvm::divideCeil(need, split); d <= oh; ++d) {
    if (oh % d == 0) {
      rowChunks = d;
      break;
    }
  }
  int64_t taskF = f / split, taskRows = oh / rowChunks;

  Location loc = conv.getLoc();
  rewriter.setInsertionPoint(conv);
  graphc::IndexMath im{rewriter, loc};

  Value packed = packFilter(rewriter, loc, filter, fb);
  auto fill = init.getDefiningOp<linalg::FillOp>();
  // With a fill the accumulators start as its value and the output is
  // never read; otherwise they start from the accumulator's elements.
  Value dest = fill ? fill.getOutputs()[0] : init;
  auto forall = scf::ForallOp::create(
      rewriter, loc, indexAttrs(rewriter, {n, rowChunks, split}),
      ValueRange{dest}, std::nullopt);
  rewriter.setInsertionPoint(forall.getTerminator());
  SmallVector<Value> ivs = llvm::to_vector(forall.getInductionVars());
  Value out = forall.getRegionIterArgs()[0];
  Value fBase = im.mul(ivs[2], taskF);
  Value rowBase = im.mul(ivs[1], taskRows);
  SmallVector<OpFoldResult> outOffsets = {ivs[0], fBase, rowBase,
                                          rewriter.getIndexAttr(0)};
  SmallVector<OpFoldResult> outSizes =
      indexAttrs(rewriter, {1, taskF, taskRows, ow});
  SmallVector<OpFoldResult> unit = indexAttrs(rewriter, {1, 1, 1, 1});
  auto taskType = RankedTensorType::get({taskF, taskRows, ow}, et);
  auto planeType = RankedTensorType::get({taskF, ow}, et);
  Value taskOut = tensor::ExtractSliceOp::create(rewriter, loc, taskType, out,
                                                 outOffsets, outSizes, unit);
  Value pad =
      arith::ConstantOp::create(rewriter, loc, et, rewriter.getZeroAttr(et));
  auto rowType = VectorType::get({fb}, et);
  auto tileType = VectorType::get({owb, fb}, et);
  auto tileTType = VectorType::get({fb, owb}, et);

  // One register tile: output channels [fi, fi + fb) of the task by output
  // columns [col0, col0 + owb) of output row `oy` (`acc`: the row's plane).
  auto tile = [&](Value acc, Value fi, Value oy, Value col0) -> Value {
    SmallVector<Value> accs;
    if (fill) {
      Value splat = vector::BroadcastOp::create(rewriter, loc, rowType,
                                                fill.getInputs()[0]);
      accs.assign(owb, splat);
    } else {
      Value t = vector::TransferReadOp::create(
          rewriter, loc, tileTType, acc, ValueRange{fi, col0},
          std::optional<Value>(pad), ArrayRef<bool>{true, true});
      t = vector::TransposeOp::create(rewriter, loc, t,
                                      ArrayRef<int64_t>{1, 0});
      for (int64_t i = 0; i < owb; ++i) {
        accs.push_back(
            vector::ExtractOp::create(rewriter, loc, t, ArrayRef<int64_t>{i}));
      }
    }
    Value fBlock = im.divu(im.add(fBase, fi), fb);
    Value colBase = im.mul(col0, sw);
    auto yLoop = scf::ForOp::create(
        rewriter, loc, im.idx(0), im.idx(kh), im.idx(1), accs,
        [&](OpBuilder &, Location, Value y, ValueRange yAccs) {
          Value row = im.add(im.mul(oy, sh), im.mul(y, dh));
          auto xLoop = scf::ForOp::create(
              rewriter, loc, im.idx(0), im.idx(kw), im.idx(1), yAccs,
              [&](OpBuilder &, Location, Value x, ValueRange xAccs) {
                Value col = im.add(colBase, im.mul(x, dw));
                Value yx = im.add(im.mul(y, kw), x);
                auto cLoop = scf::ForOp::create(
                    rewriter, loc, im.idx(0), im.idx(c), im.idx(1), xAccs,
                    [&](OpBuilder &, Location, Value ci, ValueRange cAccs) {
                      Value tap = im.add(im.mul(ci, kh * kw), yx);
                      Value w = vector::TransferReadOp::create(
                          rewriter, loc, rowType, packed,
                          ValueRange{fBlock, tap, im.idx(0)},
                          std::optional<Value>(pad), ArrayRef<bool>{true});
                      SmallVector<Value> next;
                      for (int64_t i = 0; i < owb; ++i) {
                        Value v = tensor::ExtractOp::create(
                            rewriter, loc, input,
                            ValueRange{ivs[0], ci, row,
                                       im.add(col, im.idx(i * sw))});
                        Value b = vector::BroadcastOp::create(rewriter, loc,
                                                              rowType, v);
                        next.push_back(vector::FMAOp::create(rewriter, loc, b,
                                                             w, cAccs[i]));
                      }
                      scf::YieldOp::create(rewriter, loc, next);
                    });
                scf::YieldOp::create(rewriter, loc, cLoop.getResults());
              });
          scf::YieldOp::create(rewriter, loc, xLoop.getResults());
        });
    // The tile in registers is [column][channel]; NCHW wants
    // [channel][column]: transpose it, then store fb rows of owb.
    Value t = vector::BroadcastOp::create(rewriter, loc, tileType, pad);
    for (int64_t i = 0; i < owb; ++i) {
      t = vector::InsertOp::create(rewriter, loc, yLoop.getResult(i), t,
                                   ArrayRef<int64_t>{i});
    }
    t = vector::TransposeOp::create(rewriter, loc, t, ArrayRef<int64_t>{1, 0});
    return vector::TransferWriteOp::create(rewriter, loc, t, acc,
                                           ValueRange{fi, col0},
                                           ArrayRef<bool>{true, true})
        .getResult();
  };

  SmallVector<OpFoldResult> planeSizes = indexAttrs(rewriter, {taskF, 1, ow});
  SmallVector<OpFoldResult> planeStrides = indexAttrs(rewriter, {1, 1, 1});
  auto fLoop = scf::ForOp::create(
      rewriter, loc, im.idx(0), im.idx(taskF), im.idx(fb), ValueRange{taskOut},
      [&](OpBuilder &, Location, Value fi, ValueRange fArgs) {
        auto rowLoop = scf::ForOp::create(
            rewriter, loc, im.idx(0), im.idx(taskRows), im.idx(1), fArgs,
            [&](OpBuilder &, Location, Value r, ValueRange rArgs) {
              SmallVector<OpFoldResult> planeOffsets = {
                  rewriter.getIndexAttr(0), r, rewriter.getIndexAttr(0)};
              Value plane = tensor::ExtractSliceOp::create(
                  rewriter, loc, planeType, rArgs[0], planeOffsets, planeSizes,
                  planeStrides);
              Value oy = im.add(rowBase, r);
              auto colLoop = scf::ForOp::create(
                  rewriter, loc, im.idx(0), im.idx(ow), im.idx(owb),
                  ValueRange{plane},
                  [&](OpBuilder &, Location, Value col0, ValueRange colArgs) {
                    scf::YieldOp::create(rewriter, loc,
                                         tile(colArgs[0], fi, oy, col0));
                  });
              Value updated = tensor::InsertSliceOp::create(
                  rewriter, loc, colLoop.getResult(0), rArgs[0], planeOffsets,
                  planeSizes, planeStrides);
              scf::YieldOp::create(rewriter, loc, updated);
            });
        scf::YieldOp::create(rewriter, loc, rowLoop.getResults());
      });
  rewriter.setInsertionPointToStart(forall.getTerminator().getBody());
  tensor::ParallelInsertSliceOp::create(rewriter, loc, fLoop.getResult(0), out,
                                        outOffsets, outSizes, unit);
  rewriter.replaceOp(conv, forall.getResults());
  if (fill && fill->use_empty()) {
    rewriter.eraseOp(fill);
  }
  return success();
}

/// Which convolutions a `convs` option value admits: "all", "none", or a
/// comma-separated list of classes: "wgrad" (more filter taps than output
/// pixels: a filter gradient, CpuFilterGradConv.cpp), else "strided" (a
/// stride above 1, any filter), else "3x3", "1x1" or "other" by the filter.
bool admitted(StringRef classes, linalg::Conv2DNchwFchwOp conv) {
  if (classes == "all") {
    return true;
  }
  if (classes == "none") {
    return false;
  }
  auto ft = cast<ShapedType>(conv.getInputs()[1].getType());
  bool strided = llvm::any_of(conv.getStrides().getValues<int64_t>(),
                              [](int64_t s) { return s != 1; });
  int64_t kh = ft.getDimSize(2), kw = ft.getDimSize(3);
  StringRef cls = graphc::isFilterGradientConv(conv) ? "wgrad"
                  : strided                          ? "strided"
                  : kh == 3 && kw == 3               ? "3x3"
                  : kh == 1 && kw == 1               ? "1x1"
                                                     : "other";
  SmallVector<StringRef> list;
  classes.split(list, ',', -1, /*KeepEmpty=*/false);
  return llvm::is_contained(list, cls);
}

struct CpuDirectConv : public graphc::impl::CpuDirectConvBase<CpuDirectConv> {
  using Base::Base;

  void runOnOperation() override {
    func::FuncOp func = getOperation();
    int64_t lanes = vectorWidth > 0
                        ? int64_t(vectorWidth)
                        : int64_t(graphc::detectHostCpu().vectorBits / 32);
    if (lanes < 1 || owBlock < 1 || fVectors < 1) {
      func.emitError("graphc-cpu-direct-conv: vector-width, ow-block and "
                     "f-vectors must be positive");
      return signalPassFailure();
    }
    if (std::string error = graphc::checkDirectConvClasses(convs_);
        !error.empty()) {
      func.emitError() << "graphc-cpu-direct-conv: " << error;
      return signalPassFailure();
    }
    SmallVector<linalg::Conv2DNchwFchwOp> convs;
    func.walk([&](linalg::Conv2DNchwFchwOp op) {
      if (op.hasPureTensorSemantics() && admitted(convs_, op)) {
        convs.push_back(op);
      }
    });
    IRRewriter rewriter(&getContext());
    for (linalg::Conv2DNchwFchwOp conv : convs) {
      if (succeeded(
              graphc::isFilterGradientConv(conv)
                  ? graphc::filterGradDirectConv(rewriter, conv, lanes, owBlock,
                                                 fVectors)
                  : directConv(rewriter, conv, lanes, owBlock, fVectors))) {
        ++numDirectConvs;
      }
    }
  }
};

} // namespace

LogicalResult graphc::rewriteDirectConv(RewriterBase &rewriter,
                                        linalg::Conv2DNchwFchwOp conv,
                                        int64_t lanes, int64_t owBlock,
                                        int64_t fVectors) {
  return directConv(rewriter, conv, lanes, owBlock, fVectors);
}

std::string graphc::checkDirectConvClasses(llvm::StringRef classes) {
  if (classes.empty() || classes == "all" || classes == "none") {
    return "";
  }
  SmallVector<StringRef> list;
  classes.split(list, ',', -1, /*KeepEmpty=*/false);
  for (StringRef cls : list) {
    if (!llvm::is_contained({"3x3", "1x1", "strided", "other", "wgrad"}, cls)) {
      return ("unknown convolution class '" + cls +
              "' (expected all, none, or a comma-separated list of 3x3, "
              "1x1, strided, other, wgrad)")
          .str();
    }
  }
  return "";
}
