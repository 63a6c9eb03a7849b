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
#include "ConvKernels.h"
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
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

namespace graphc {
#define GEN_PASS_DEF_CPUDIRECTCONV
#include "CpuPasses.h.inc"
} // namespace graphc

using namespace mlir;

namespace {

using graphc::forEachRow;
using graphc::indexAttrs;
using graphc::largestDivisor;
using graphc::replaceConvResult;

/// The task loop of a direct kernel over (image, chunk, chunk of output
/// channel blocks), sharing `dest`; with a dynamic batch `n` the images are
/// counted from `init`. `imagesInner` makes the images the innermost
/// dimension, `chunksInner` the chunks (after the channel blocks). Leaves
/// the insertion point in the loop's body.
scf::ForallOp taskLoop(RewriterBase &rewriter, Location loc, Value init,
                       int64_t n, int64_t chunks, int64_t split, Value dest,
                       bool imagesInner = false, bool chunksInner = false) {
  bool dynamicBatch = ShapedType::isDynamic(n);
  SmallVector<OpFoldResult> counts =
      indexAttrs(rewriter, {dynamicBatch ? 1 : n, chunks, split});
  if (dynamicBatch) {
    counts[0] = tensor::DimOp::create(rewriter, loc, init, 0).getResult();
  }
  if (imagesInner) {
    std::swap(counts[0], counts[2]);
  } else if (chunksInner) {
    std::swap(counts[1], counts[2]);
  }
  auto forall = scf::ForallOp::create(rewriter, loc, counts, ValueRange{dest},
                                      std::nullopt);
  rewriter.setInsertionPoint(forall.getTerminator());
  return forall;
}

/// The induction variables of `taskLoop`'s loop as (image, chunk, channel
/// chunk), whichever order the loop has them in.
SmallVector<Value> taskIvs(scf::ForallOp forall, bool imagesInner,
                           bool chunksInner = false) {
  SmallVector<Value> ivs = llvm::to_vector(forall.getInductionVars());
  if (imagesInner) {
    std::swap(ivs[0], ivs[2]);
  } else if (chunksInner) {
    std::swap(ivs[1], ivs[2]);
  }
  return ivs;
}

/// Filter bytes a row-kernel task's channel chunk may have for the images
/// to be the inner task dimension (see directConv).
constexpr int64_t kImagesInnerFilterBytes = 1024 * 1024;
/// Output pixels per image below which a large filter is streamed more
/// than it is used: under this the images become the inner task dimension.
constexpr int64_t kImagesInnerPixels = 100;

/// Channel chunks of the row kernel (see directConv): a filter block
/// (KH*KW*C*fb elements) above kChunkBlockBytes is reduced in chunks of
/// input channels whose filter slice fits kChunkFilterBytes, over strips of
/// at least kChunkMinTiles register tiles and at most kChunkMaxTiles (the
/// scratch of accumulators: 1.8 KB a tile of 28 zmm). 48 KB is the L1 of
/// the Golden Cove cores measured; the chunk leaves room in it for the
/// chunk's input rows and the scratch.
constexpr int64_t kChunkBlockBytes = 48 * 1024;
constexpr int64_t kChunkFilterBytes = 20 * 1024;
constexpr int64_t kChunkMinTiles = 4;
constexpr int64_t kChunkMaxTiles = 16;

/// The types of a convolution the direct kernels take: f32 NCHW/FCHW with
/// every size static but the batch, which may be dynamic (a bundle compiled
/// once for any batch size) since it only bounds the task loop.
struct DirectConvTypes {
  RankedTensorType input, filter, output;
};
std::optional<DirectConvTypes> directConvTypes(linalg::Conv2DNchwFchwOp conv) {
  auto it = dyn_cast<RankedTensorType>(conv.getInputs()[0].getType());
  auto ft = dyn_cast<RankedTensorType>(conv.getInputs()[1].getType());
  auto ot = dyn_cast<RankedTensorType>(conv.getOutputs()[0].getType());
  auto staticPastBatch = [](RankedTensorType t) {
    return llvm::none_of(t.getShape().drop_front(), ShapedType::isDynamic);
  };
  if (!it || !ft || !ot || !staticPastBatch(it) || !ft.hasStaticShape() ||
      !staticPastBatch(ot) || !it.getElementType().isF32() ||
      !ft.getElementType().isF32() || !ot.getElementType().isF32()) {
    return std::nullopt;
  }
  return DirectConvTypes{it, ft, ot};
}

/// The elementwise consumer a direct kernel applies to its output tile
/// while the tile is in registers (ONNX Runtime's FusedConv): the only user
/// of the convolution's result, a linalg.generic over its four parallel
/// dimensions with one result of the same type, an init it does not read,
/// and inputs that are the convolution (once), tensors of the same shape
/// read at the same point (a residual), per-channel tensors (their indexing
/// map's results are d1 or zeros: a bias, a folded batch norm) or scalars
/// (all zeros); its body is pure elementwise scalar ops (bias + ReLU,
/// scale + shift, a residual add). Applying it there saves a read and a
/// write of the output (ResNet-50 at batch 8: 49 of its 53 such passes, 2%
/// of the step). A grouped convolution's consumer is over its five
/// dimensions [N, G, O/G, OH, OW], its per-channel inputs indexed by d1
/// (the group), d2 (the channel in the group) or both. Null when the
/// convolution has no such consumer.
linalg::GenericOp matchEpilogue(Operation *conv) {
  Value result = conv->getResult(0);
  if (!result.hasOneUse()) {
    return {};
  }
  auto g = dyn_cast<linalg::GenericOp>(*result.getUsers().begin());
  unsigned rank = cast<ShapedType>(result.getType()).getRank();
  if (!g || g->getBlock() != conv->getBlock() || !g.hasPureTensorSemantics() ||
      g.getNumDpsInits() != 1 || g->getNumResults() != 1 ||
      g.getNumLoops() != rank || g.getNumParallelLoops() != rank ||
      g->getResult(0).getType() != result.getType()) {
    return {};
  }
  OpOperand *init = g.getDpsInitOperand(0);
  if (!g.getMatchingIndexingMap(init).isIdentity() ||
      !g.getMatchingBlockArgument(init).use_empty()) {
    return {};
  }
  Type et = cast<RankedTensorType>(result.getType()).getElementType();
  int convInputs = 0;
  for (OpOperand *in : g.getDpsInputOperands()) {
    AffineMap map = g.getMatchingIndexingMap(in);
    auto type = dyn_cast<RankedTensorType>(in->get().getType());
    if (!type || type.getElementType() != et) {
      return {};
    }
    if (map.isIdentity()) {
      convInputs += in->get() == result;
      continue;
    }
    // The channel dimensions (d1; grouped: d1 and d2), each at most once.
    unsigned seen = 0;
    for (AffineExpr e : map.getResults()) {
      auto c = dyn_cast<AffineConstantExpr>(e);
      auto d = dyn_cast<AffineDimExpr>(e);
      if (c ? c.getValue() != 0
            : !d || d.getPosition() < 1 || d.getPosition() > rank - 3 ||
                  (seen & (1u << d.getPosition()))) {
        return {};
      }
      seen |= d ? 1u << d.getPosition() : 0;
    }
    if (in->get() == result) {
      return {};
    }
  }
  if (convInputs != 1) {
    return {};
  }
  Region &body = g.getRegion();
  auto scalarOrLocal = [&](Value v) {
    return v.getParentRegion() == &body || v.getType().isIntOrIndexOrFloat();
  };
  for (Operation &op : body.front()) {
    if (op.getNumRegions() != 0 ||
        (!isa<linalg::YieldOp>(op) &&
         (!op.hasTrait<OpTrait::Elementwise>() || !isPure(&op) ||
          !llvm::all_of(op.getResultTypes(),
                        [](Type t) { return t.isIntOrIndexOrFloat(); }))) ||
        !llvm::all_of(op.getOperands(), scalarOrLocal)) {
      return {};
    }
  }
  return g;
}

/// How a kernel's output tile relates to the epilogue's per-channel
/// values: `channelType(t)` is the type of one channel-level value of
/// element type t (a vector over the tile's channels, or a scalar when the
/// tile is one channel's pixels), `perChannel(src, map)` reads input `src`
/// (indexed by the epilogue's `map`: its channel dimensions, the others 0)
/// at that level, and `toTile(v)` expands a channel-level value to the
/// tile's shape.
struct EpilogueTile {
  function_ref<Type(Type)> channelType;
  function_ref<Value(Value, AffineMap)> perChannel;
  function_ref<Value(Value)> toTile;
  /// An input read at the same point as the convolution, as a tile.
  function_ref<Value(Value)> same;
};

/// Applies `epilogue` (matchEpilogue) to `tile`, a vector of the
/// convolution's output values: each body op is re-created on the level of
/// its operands (scalars, per-channel values, or the tile's shape), so that
/// work on per-channel inputs alone (a batch norm's rsqrt of its variance)
/// is done once per channel, not once per output element.
Value applyEpilogue(RewriterBase &rewriter, Location loc,
                    linalg::GenericOp epilogue, Value convResult, Value tile,
                    const EpilogueTile &how) {
  auto vt = cast<VectorType>(tile.getType());
  graphc::IndexMath im{rewriter, loc};
  Block &body = epilogue.getRegion().front();
  enum Level { Scalar, Channel, Tile };
  llvm::DenseMap<Value, std::pair<Value, Level>> values;
  for (OpOperand *in : epilogue.getDpsInputOperands()) {
    Value src = in->get();
    AffineMap m = epilogue.getMatchingIndexingMap(in);
    std::pair<Value, Level> v;
    if (src == convResult) {
      v = {tile, Tile};
    } else if (m.isIdentity()) {
      v = {how.same(src), Tile};
    } else if (m.getNumDims() > 0 &&
               llvm::any_of(m.getResults(), [](AffineExpr e) {
                 return isa<AffineDimExpr>(e);
               })) {
      v = {how.perChannel(src, m), Channel};
    } else {
      SmallVector<Value> zeros(m.getNumResults(), im.idx(0));
      v = {tensor::ExtractOp::create(rewriter, loc, src, zeros), Scalar};
    }
    values[epilogue.getMatchingBlockArgument(in)] = v;
  }
  // `v` (a value of the body, or a scalar from outside it) at `level`.
  auto at = [&](Value v, Level level) -> Value {
    auto [value, from] =
        values.count(v) ? values[v] : std::make_pair(v, Scalar);
    if (from == level) {
      return value;
    }
    if (level == Tile && from == Channel) {
      return how.toTile(value);
    }
    Type type = level == Tile ? VectorType::get(vt.getShape(), value.getType())
                              : how.channelType(value.getType());
    return type == value.getType()
               ? value
               : vector::BroadcastOp::create(rewriter, loc, type, value)
                     .getResult();
  };
  for (Operation &op : body.without_terminator()) {
    Level level = Scalar;
    for (Value o : op.getOperands()) {
      if (values.count(o)) {
        level = std::max(level, values[o].second);
      }
    }
    OperationState state(loc, op.getName());
    for (Value o : op.getOperands()) {
      state.addOperands(at(o, level));
    }
    for (Type t : op.getResultTypes()) {
      state.addTypes(level == Tile      ? VectorType::get(vt.getShape(), t)
                     : level == Channel ? how.channelType(t)
                                        : t);
    }
    state.addAttributes(op.getAttrs());
    Operation *vop = rewriter.create(state);
    for (auto [r, vr] : llvm::zip(op.getResults(), vop->getResults())) {
      values[r] = {vr, level};
    }
  }
  return at(body.getTerminator()->getOperand(0), Tile);
}

/// The position of the dimension among `map`'s results (a per-channel
/// epilogue input's map: one dimension, the others 0).
unsigned channelPosition(AffineMap map) {
  for (auto [pos, e] : llvm::enumerate(map.getResults())) {
    if (isa<AffineDimExpr>(e)) {
      return pos;
    }
  }
  llvm_unreachable("a per-channel input has a channel dimension");
}

/// The indices of a per-channel epilogue input of rank `rank`: `channel` at
/// `pos`, 0 elsewhere.
SmallVector<Value> channelIndices(graphc::IndexMath &im, int64_t rank,
                                  unsigned pos, Value channel) {
  SmallVector<Value> indices(rank, im.idx(0));
  indices[pos] = channel;
  return indices;
}

/// Tasks a convolution is split into at least, when its images and output
/// rows alone give fewer (output channel blocks are then split too).
constexpr int64_t kMinTasks = 16;

/// The [F/fb, C, KH, KW, fb] tensor behind a filter that
/// graphc-cpu-prepack-conv-filters stored packed for channel blocks of fb:
/// `filter` is the collapse ([[0, 1], [2], [3], [4]]) of its transpose by
/// [0, 4, 1, 2, 3] (a linalg.transpose, or the equivalent generic). Null
/// for any other filter.
Value prepackedFilter(Value filter, int64_t fb) {
  auto collapse = filter.getDefiningOp<tensor::CollapseShapeOp>();
  if (!collapse ||
      collapse.getReassociationIndices() !=
          SmallVector<ReassociationIndices>{{0, 1}, {2}, {3}, {4}}) {
    return {};
  }
  Operation *def = collapse.getSrc().getDefiningOp();
  Value src;
  if (auto transpose = dyn_cast_or_null<linalg::TransposeOp>(def)) {
    if (transpose.getPermutation() == ArrayRef<int64_t>{0, 4, 1, 2, 3}) {
      src = transpose.getInput();
    }
  } else if (auto generic = dyn_cast_or_null<linalg::GenericOp>(def)) {
    // out[d0, d1, d2, d3, d4] = in[d0, d2, d3, d4, d1]
    MLIRContext *ctx = generic.getContext();
    AffineMap in =
        AffineMap::getPermutationMap(ArrayRef<unsigned>{0, 2, 3, 4, 1}, ctx);
    auto yield = cast<linalg::YieldOp>(generic.getBody()->getTerminator());
    if (generic.getNumDpsInputs() == 1 && generic.getNumDpsInits() == 1 &&
        generic.getNumParallelLoops() == 5 && generic.getNumLoops() == 5 &&
        generic.getIndexingMapsArray() ==
            SmallVector<AffineMap>{in,
                                   AffineMap::getMultiDimIdentityMap(5, ctx)} &&
        yield.getNumOperands() == 1 &&
        yield.getOperand(0) == generic.getBody()->getArgument(0)) {
      src = generic.getDpsInputs()[0];
    }
  }
  auto st = src ? dyn_cast<RankedTensorType>(src.getType()) : nullptr;
  if (!st || st.getRank() != 5 || !st.hasStaticShape() ||
      st.getDimSize(4) != fb) {
    return {};
  }
  return src;
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
  if (Value prepacked = prepackedFilter(filter, fb)) {
    return tensor::CollapseShapeOp::create(
        rewriter, loc, packedType, prepacked,
        SmallVector<ReassociationIndices>{{0}, {1, 2, 3}, {4}});
  }
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
  return forEachRow(rewriter, loc, empty, [&](Value b, Value block) -> Value {
    Value row0 = arith::MulIOp::create(rewriter, loc, b, im.idx(fb));
    constexpr int64_t kTile = 16;
    auto transposeTile = [&](Value acc, Value k0, int64_t width) -> Value {
      Value t = vector::TransferReadOp::create(
          rewriter, loc, VectorType::get({fb, width}, et), matrix,
          ValueRange{row0, k0}, std::optional<Value>(pad),
          ArrayRef<bool>{true, true});
      t = vector::TransposeOp::create(rewriter, loc, t,
                                      ArrayRef<int64_t>{1, 0});
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
    return block;
  });
}

/// [N, G, F/G, ...] <-> [N, F, ...]: a grouped convolution's operands
/// and result as a 2-D convolution's.
SmallVector<ReassociationIndices> groupedToFlat() {
  return {{0}, {1, 2}, {3}, {4}};
}

/// A convolution the row kernel (directConv) rewrites, seen as a 2-D one:
/// input [N, C, H, W], filter [F, C/groups, KH, KW], output [N, F, OH, OW]
/// (`it`, `ft`, `ot`). A grouped convolution (linalg.conv_2d_ngchw_gfchw,
/// `groups` > 1) is viewed so with its input and filter collapsed: output
/// channels [g * F/groups, (g + 1) * F/groups) read input channels
/// [g * C/groups, (g + 1) * C/groups); `op`'s own init and result stay 5-D.
struct RowConv {
  Operation *op;
  Value input, filter, init;
  RankedTensorType it, ft, ot;
  SmallVector<int64_t> strides, dilations;
  int64_t groups = 1;
};

std::optional<RowConv> rowConvOf(linalg::Conv2DNchwFchwOp conv) {
  std::optional<DirectConvTypes> types = directConvTypes(conv);
  if (!types) {
    return std::nullopt;
  }
  return RowConv{conv,
                 conv.getInputs()[0],
                 conv.getInputs()[1],
                 conv.getOutputs()[0],
                 types->input,
                 types->filter,
                 types->output,
                 llvm::to_vector(conv.getStrides().getValues<int64_t>()),
                 llvm::to_vector(conv.getDilations().getValues<int64_t>())};
}

/// Rewrites `rc` (NCHW input, already padded; FCHW filter; f32, static
/// shapes but for the batch) into the direct kernel described at the top of
/// the file: an `scf.forall` over (image, chunk of output rows, chunk of
/// output-channel blocks), whose task walks, per block of `fb` output
/// channels, its output rows in tiles of `rb` rows by `owb` output columns
/// (a narrower tile for the last columns or rows when they do not divide)
/// and reduces over filter rows, filter columns and input channels in
/// `scf.for` loops that carry the tile's accumulator vectors. Returns
/// failure (and leaves `conv` alone) for other element types, dynamic sizes
/// other than the batch, or an output channel count that is not a multiple
/// of `lanes` (with 16 lanes, of 8; grouped: per group).
LogicalResult directConv(RewriterBase &rewriter, const RowConv &rc,
                         int64_t lanes, int64_t owBlock, int64_t fVectors,
                         bool channelsOuter, bool fuseEpilogue) {
  Value input = rc.input, filter = rc.filter, init = rc.init;
  RankedTensorType it = rc.it, ft = rc.ft, ot = rc.ot;
  Type et = ot.getElementType();
  int64_t sh = rc.strides[0], sw = rc.strides[1], dh = rc.dilations[0],
          dw = rc.dilations[1];
  int64_t n = ot.getDimSize(0), f = ot.getDimSize(1), oh = ot.getDimSize(2),
          ow = ot.getDimSize(3);
  // The input channels of one group (all of them without groups).
  int64_t c = ft.getDimSize(1);
  int64_t kh = ft.getDimSize(2), kw = ft.getDimSize(3);
  int64_t groups = rc.groups, og = f / groups;
  bool dynamicBatch = ShapedType::isDynamic(n);
  // A channel block never straddles two groups.
  int64_t fb = graphc::directConvFilterBlock(og, lanes, fVectors);
  if (n == 0 || f == 0 || oh == 0 || ow == 0 || c == 0 || fb == 0 ||
      it.getDimSize(1) != c * groups) {
    return failure();
  }
  // Column tiles: the whole row when it fits the register tile; else a
  // divisor of the width when one fills at least half of it (56 -> 14,
  // 55 -> 11, 27 -> 9), else `owBlock` columns and one narrower tile for
  // the rest (25 -> 14 + 11, 109 -> 7 x 14 + 11).
  int64_t owb = ow;
  if (ow > owBlock) {
    int64_t d = largestDivisor(ow, owBlock);
    owb = 2 * d >= owBlock ? d : owBlock;
  }
  int64_t owRem = ow % owb, owMain = ow - owRem;
  // Row tiles: a row narrower than half the register tile (7, 6) shares it
  // with the next rows, so one filter load feeds rb * ow columns.
  int64_t rb = owb == ow ? std::max<int64_t>(1, owBlock / ow) : 1;
  // Tasks: (image, chunk of output rows, chunk of output channel blocks),
  // at least kMinTasks of them when the images alone are fewer. Channel
  // blocks are split first: a task walks its rows inside each channel
  // block, so the block's filter (KH*KW*C*fb elements) is read from memory
  // once per task and reused from cache over its rows; splitting rows
  // multiplies that traffic, splitting channels does not.
  int64_t fBlocks = f / fb;
  // A dynamic batch is split as batch 1: more images only add tasks.
  int64_t need = llvm::divideCeil(kMinTasks, dynamicBatch ? 1 : n);
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
  // A row tile is not split across tasks: fewer tasks rather than tiles of
  // one row (a 7x7 map stays one chunk of 7 rows, tiles 2 + 2 + 2 + 1).
  if (oh / rowChunks < rb) {
    for (int64_t d = rowChunks; d >= 1; --d) {
      if (oh % d == 0 && oh / d >= rb) {
        rowChunks = d;
        break;
      }
    }
  }
  // Small maps under a large filter (3x3 512->512 @7: 9.4 MB of filter
  // for 49 output pixels an image): image-outer tasks stream each channel
  // chunk's filter once per image, about 25 FLOPs a byte. With several
  // images the channel blocks are instead split into chunks whose filter
  // fits kImagesInnerFilterBytes (L2), one row chunk each, and the images
  // are the innermost task dimension, so a thread's consecutive tasks (a
  // static schedule) reuse one chunk's filter over the images.
  int64_t blockBytes = kh * kw * c * fb * int64_t(sizeof(float));
  bool imagesInner = !dynamicBatch && n > 1 && oh * ow < kImagesInnerPixels &&
                     fBlocks * blockBytes > kImagesInnerFilterBytes;
  if (imagesInner) {
    rowChunks = 1;
    split = fBlocks;
    for (int64_t d = 1; d <= fBlocks; ++d) {
      if (fBlocks % d == 0 &&
          (fBlocks / d) * blockBytes <= kImagesInnerFilterBytes) {
        split = d;
        break;
      }
    }
  }
  int64_t taskF = f / split, taskRows = oh / rowChunks;
  rb = std::min(rb, taskRows);
  int64_t rbRem = taskRows % rb, rbMain = taskRows - rbRem;

  Operation *conv = rc.op;
  Location loc = conv->getLoc();
  auto fill = init.getDefiningOp<linalg::FillOp>();
  // An elementwise consumer applied to the tiles in registers (with a fill
  // only: the accumulators then never read the output) is replaced by the
  // kernel, which is built where the consumer is, after all its inputs.
  linalg::GenericOp epilogue =
      fuseEpilogue && fill ? matchEpilogue(conv) : linalg::GenericOp();
  rewriter.setInsertionPoint(epilogue ? epilogue.getOperation() : conv);
  graphc::IndexMath im{rewriter, loc};

  Value packed = packFilter(rewriter, loc, filter, fb);
  // With channels outer the taps are one loop, and each tap's input element
  // is read through the image plane flattened to H*W at the tap's offset
  // from a table (y*dh*W + x*dw): one load and one add per tap instead of
  // the tap's row and column by division (a multiply-high, a shift and a
  // multiply before every tap's broadcasts; 5% of a C model of the loop,
  // within the noise on its own in graph-run: conv-codegen.md, "Round
  // four").
  //
  // A zero tensor.pad of the rows and columns in front of the input is
  // read through (`padT`, `padL`: the source's offset in the padded
  // input) when a tile is one row: a tile's taps are limited to the filter
  // rows whose input row exists, and in the column tiles at either edge the
  // columns outside the source read as zero; the copy of the whole padded
  // input is gone (conv-codegen.md, "Round four").
  int64_t ih = it.getDimSize(2), iw = it.getDimSize(3);
  int64_t padT = 0, padL = 0;
  Value source = input;
  if (auto padOp = input.getDefiningOp<tensor::PadOp>();
      padOp && channelsOuter && rb == 1) {
    auto st = cast<RankedTensorType>(padOp.getSourceType());
    Value padValue = padOp.getConstantPaddingValue();
    ArrayRef<int64_t> low = padOp.getStaticLow(), high = padOp.getStaticHigh();
    if (padValue && matchPattern(padValue, m_AnyZeroFloat()) &&
        !llvm::any_of(low, ShapedType::isDynamic) &&
        !llvm::any_of(high, ShapedType::isDynamic) && low[0] == 0 &&
        low[1] == 0 && high[0] == 0 && high[1] == 0 && low[2] >= 0 &&
        low[3] >= 0 && st.getDimSize(2) > 0 && st.getDimSize(3) > 0) {
      source = padOp.getSource();
      padT = low[2];
      padL = low[3];
      ih = st.getDimSize(2);
      iw = st.getDimSize(3);
    }
  }
  bool padded = source != input;
  Value flatInput, tapOffsets;
  if (channelsOuter) {
    flatInput = tensor::CollapseShapeOp::create(
        rewriter, loc,
        RankedTensorType::get({it.getDimSize(0), c * groups, ih * iw}, et),
        source, SmallVector<ReassociationIndices>{{0}, {1}, {2, 3}});
    SmallVector<int64_t> offsets;
    for (int64_t y = 0; y < kh; ++y) {
      for (int64_t x = 0; x < kw; ++x) {
        offsets.push_back(y * dh * iw + x * dw);
      }
    }
    auto tableType = RankedTensorType::get({kh * kw}, rewriter.getIndexType());
    tapOffsets = arith::ConstantOp::create(
        rewriter, loc, tableType,
        DenseElementsAttr::get(tableType, ArrayRef<int64_t>(offsets)));
  }
  // Whether a tile of `cols` columns from `col0` reads a column outside
  // the source (never without a pad).
  auto edgeTile = [&](int64_t col0, int64_t cols) {
    return padded && (col0 * sw < padL ||
                      (col0 + cols - 1) * sw + (kw - 1) * dw >= padL + iw);
  };

  // With a fill the accumulators start as its value and the output is
  // never read; otherwise they start from the accumulator's elements.
  Value dest = epilogue ? epilogue.getDpsInits()[0]
               : fill   ? fill.getOutputs()[0]
                        : init;
  // A grouped convolution's [N, G, F/G, OH, OW] as [N, F, OH, OW]: a fresh
  // tensor.empty rather than a collapse of one, so that bufferization can
  // still make the graph's result buffer the destination.
  if (groups > 1) {
    dest = dest.getDefiningOp<tensor::EmptyOp>()
               ? tensor::EmptyOp::create(rewriter, loc, ot.getShape(), et)
                     .getResult()
               : tensor::CollapseShapeOp::create(rewriter, loc, ot, dest,
                                                 groupedToFlat())
                     .getResult();
  }
  // A grouped convolution's filter blocks are each reduced over fewer
  // input channels, so its maps tend to be small and split into many row
  // chunks (AlexNet's 13 rows at batch 1): with the row chunks inner, a
  // thread's consecutive tasks (a static schedule) share one block's
  // filter, read from memory once rather than once per row chunk.
  bool rowsInner = groups > 1 && rowChunks > 1;
  scf::ForallOp forall = taskLoop(rewriter, loc, init, n, rowChunks, split,
                                  dest, imagesInner, rowsInner);
  SmallVector<Value> ivs = taskIvs(forall, imagesInner, rowsInner);
  Value out = forall.getRegionIterArgs()[0];
  Value fBase = im.mul(ivs[2], taskF);
  Value rowBase = im.mul(ivs[1], taskRows);
  SmallVector<OpFoldResult> outOffsets = {ivs[0], fBase, rowBase,
                                          rewriter.getIndexAttr(0)};
  SmallVector<OpFoldResult> outSizes =
      indexAttrs(rewriter, {1, taskF, taskRows, ow});
  SmallVector<OpFoldResult> unit = indexAttrs(rewriter, {1, 1, 1, 1});
  auto taskType = RankedTensorType::get({taskF, taskRows, ow}, et);
  Value taskOut = tensor::ExtractSliceOp::create(rewriter, loc, taskType, out,
                                                 outOffsets, outSizes, unit);
  Value pad =
      arith::ConstantOp::create(rewriter, loc, et, rewriter.getZeroAttr(et));
  auto rowType = VectorType::get({fb}, et);
  // Channel chunks: a filter block larger than L1 (3x3 64->64 with 32
  // channels a block: 73 KB) is streamed from L2 once per register tile.
  // Instead the task's rows are cut into strips of at least
  // kChunkMinTiles tiles, and for each strip the input channels are reduced
  // in chunks whose filter slice fits kChunkFilterBytes: every tile of the
  // strip takes the chunk in turn (its filter slice and input rows then
  // come from L1), its accumulators kept in a scratch tensor between
  // chunks, and the strip's tiles are stored once the last chunk is in
  // (conv-codegen.md, "Round four"). Needs a fill (the scratch starts as
  // its value) and channels outer.
  int64_t colTiles = owMain / owb + (owRem > 0 ? 1 : 0);
  int64_t chunk = 0, sRows = taskRows, stripTiles = 0;
  if (channelsOuter && fill && blockBytes > kChunkBlockBytes) {
    int64_t perChannel = kh * kw * fb * int64_t(sizeof(float));
    int64_t cc =
        largestDivisor(c, std::max<int64_t>(1, kChunkFilterBytes / perChannel));
    for (int64_t d = 1; d <= taskRows; ++d) {
      if (taskRows % d != 0 || (d % rb != 0 && d != taskRows)) {
        continue;
      }
      sRows = d;
      if (llvm::divideCeil(d, rb) * colTiles >= kChunkMinTiles) {
        break;
      }
    }
    stripTiles = llvm::divideCeil(sRows, rb) * colTiles;
    if (cc < c && stripTiles >= 2 && stripTiles <= kChunkMaxTiles) {
      chunk = cc;
    }
  }

  // One register tile: output channels [fi, fi + fb) of the task by `rows`
  // output rows (from `oy0` in the image, row 0 of `slab`, the task's
  // [taskF, rows, ow] slice) by `cols` output columns from `col0`.
  // Accumulator j * cols + i holds row j, column i.
  //
  // With channel chunks (`chunk` set, see below) a tile is visited once per
  // chunk and its accumulators kept between visits in `slab`, then a
  // [slots, rb * owb, fb] scratch tensor, at `slot`: ChunkMode::Reduce
  // reduces input channels [cBegin, cBegin + chunk) into them (starting
  // from the fill at cBegin 0), ChunkMode::Store stores them to the output.
  enum class ChunkMode { Whole, Reduce, Store };
  auto tile = [&](Value slab, Value fi, Value oy0, Value col0, int64_t rows,
                  int64_t cols, ChunkMode mode = ChunkMode::Whole,
                  Value scratch = {}, Value slot = {}, Value cBegin = {},
                  int64_t edgeCol0 = -1) -> Value {
    auto tileType = VectorType::get({cols, fb}, et);
    auto tileTType = VectorType::get({fb, cols}, et);
    auto slabRowType = VectorType::get({fb, 1, cols}, et);
    SmallVector<Value> accs;
    if (mode != ChunkMode::Whole) {
      // Chunks need a fill (checked where they are chosen).
      Value splat = vector::BroadcastOp::create(rewriter, loc, rowType,
                                                fill.getInputs()[0]);
      Value first;
      if (mode == ChunkMode::Reduce) {
        first = arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::eq,
                                      cBegin, im.idx(0));
      }
      for (int64_t k = 0; k < rows * cols; ++k) {
        Value v = vector::TransferReadOp::create(
            rewriter, loc, rowType, scratch,
            ValueRange{slot, im.idx(k), im.idx(0)}, std::optional<Value>(pad),
            ArrayRef<bool>{true});
        if (first) {
          v = arith::SelectOp::create(rewriter, loc, first, splat, v);
        }
        accs.push_back(v);
      }
    } else if (fill) {
      Value splat = vector::BroadcastOp::create(rewriter, loc, rowType,
                                                fill.getInputs()[0]);
      accs.assign(rows * cols, splat);
    } else {
      for (int64_t j = 0; j < rows; ++j) {
        Value t = vector::TransferReadOp::create(
            rewriter, loc, slabRowType, slab, ValueRange{fi, im.idx(j), col0},
            std::optional<Value>(pad), ArrayRef<bool>{true, true, true});
        t = vector::ShapeCastOp::create(rewriter, loc, tileTType, t);
        t = vector::TransposeOp::create(rewriter, loc, t,
                                        ArrayRef<int64_t>{1, 0});
        for (int64_t i = 0; i < cols; ++i) {
          accs.push_back(vector::ExtractOp::create(rewriter, loc, t,
                                                   ArrayRef<int64_t>{i}));
        }
      }
    }
    Value fBlock = im.divu(im.add(fBase, fi), fb);
    // The first input channel of the tile's group.
    Value cOff =
        groups > 1 ? im.mul(im.divu(im.add(fBase, fi), og), c) : im.idx(0);
    Value colBase = im.mul(col0, sw);
    // One input channel and tap: one filter row (fb channels) and, per
    // output column, one broadcast input element, multiply-added.
    auto tap = [&](Value ci, Value y, Value x, ValueRange cur) {
      Value col = im.add(colBase, im.mul(x, dw));
      Value t = im.add(im.mul(ci, kh * kw), im.add(im.mul(y, kw), x));
      Value w = vector::TransferReadOp::create(
          rewriter, loc, rowType, packed, ValueRange{fBlock, t, im.idx(0)},
          std::optional<Value>(pad), ArrayRef<bool>{true});
      SmallVector<Value> next;
      for (int64_t j = 0; j < rows; ++j) {
        Value inRow = im.add(im.mul(im.add(oy0, im.idx(j)), sh), im.mul(y, dh));
        for (int64_t i = 0; i < cols; ++i) {
          Value v = tensor::ExtractOp::create(
              rewriter, loc, input,
              ValueRange{ivs[0], im.add(cOff, ci), inRow,
                         im.add(col, im.idx(i * sw))});
          Value b = vector::BroadcastOp::create(rewriter, loc, rowType, v);
          next.push_back(
              vector::FMAOp::create(rewriter, loc, b, w, cur[j * cols + i]));
        }
      }
      return next;
    };
    // The taps of the filter rows whose input row is inside the source:
    // all of them without a pad; with one (a tile of one row) the rows y
    // with 0 <= oy0 * sh + y * dh - padT < H.
    Value yBegin = im.idx(0), yEnd = im.idx(kh);
    if (padded) {
      Value rel =
          arith::SubIOp::create(rewriter, loc, im.idx(padT), im.mul(oy0, sh));
      Value yLo = arith::MaxSIOp::create(
          rewriter, loc, im.idx(0),
          arith::CeilDivSIOp::create(rewriter, loc, rel, im.idx(dh)));
      Value yHi = arith::MinSIOp::create(
          rewriter, loc, im.idx(kh),
          arith::CeilDivSIOp::create(rewriter, loc, im.add(rel, im.idx(ih)),
                                     im.idx(dh)));
      yHi = arith::MaxSIOp::create(rewriter, loc, yLo, yHi);
      yBegin = yLo;
      yEnd = yHi;
    }
    // Tap `t` of input channel `ci` (channels outer): the filter row at
    // ci * KH * KW + t, the input elements at the tap's offset `off` in the
    // flattened plane. In an edge tile the tap's filter column `x` is
    // static, and the columns it reads outside the source are left out.
    auto flatTap = [&](Value ci, Value t, Value off, ValueRange cur,
                       int64_t x = -1) {
      Value w = vector::TransferReadOp::create(
          rewriter, loc, rowType, packed,
          ValueRange{fBlock, im.add(im.mul(ci, kh * kw), t), im.idx(0)},
          std::optional<Value>(pad), ArrayRef<bool>{true});
      SmallVector<Value> next;
      for (int64_t j = 0; j < rows; ++j) {
        // The source index of the tap's first column: its row is
        // (oy0 + j) * sh - padT, its column col0 * sw - padL.
        Value start = im.add(
            im.add(im.mul(im.add(oy0, im.idx(j)), sh * iw), colBase), off);
        if (padded) {
          start = arith::SubIOp::create(rewriter, loc, start,
                                        im.idx(padT * iw + padL));
        }
        for (int64_t i = 0; i < cols; ++i) {
          if (x >= 0) {
            int64_t column = (edgeCol0 + i) * sw - padL + x * dw;
            if (column < 0 || column >= iw) {
              next.push_back(cur[j * cols + i]);
              continue;
            }
          }
          Value v = tensor::ExtractOp::create(
              rewriter, loc, flatInput,
              ValueRange{ivs[0], im.add(cOff, ci),
                         im.add(start, im.idx(i * sw))});
          Value b = vector::BroadcastOp::create(rewriter, loc, rowType, v);
          next.push_back(
              vector::FMAOp::create(rewriter, loc, b, w, cur[j * cols + i]));
        }
      }
      return next;
    };
    // Every tap of one input channel, in the packed filter's order.
    auto taps = [&](Value ci, ValueRange cur) -> SmallVector<Value> {
      if (edgeCol0 >= 0) {
        // An edge tile: one loop over the filter rows inside the source
        // for each filter column, so that which of the tile's columns a
        // tap reads outside the source is known when the loop is built
        // (no test per tap; the taps' order differs from the other
        // tiles', x before y).
        SmallVector<Value> accs(cur.begin(), cur.end());
        for (int64_t x = 0; x < kw; ++x) {
          auto yLoop = scf::ForOp::create(
              rewriter, loc, yBegin, yEnd, im.idx(1), accs,
              [&](OpBuilder &, Location, Value y, ValueRange yAccs) {
                Value t = im.add(im.mul(y, kw), im.idx(x));
                Value off = im.add(im.mul(y, dh * iw), im.idx(x * dw));
                scf::YieldOp::create(rewriter, loc,
                                     flatTap(ci, t, off, yAccs, x));
              });
          accs.assign(yLoop.getResults().begin(), yLoop.getResults().end());
        }
        return accs;
      }
      // One loop over the taps: a loop of KW columns inside one of KH rows
      // would be unrolled by LLVM, which then interleaves the taps' loads
      // and spills accumulators.
      auto tLoop = scf::ForOp::create(
          rewriter, loc, padded ? im.mul(yBegin, kw) : im.idx(0),
          padded ? im.mul(yEnd, kw) : im.idx(kh * kw), im.idx(1), cur,
          [&](OpBuilder &, Location, Value t, ValueRange tAccs) {
            Value off = tensor::ExtractOp::create(rewriter, loc, tapOffsets, t);
            scf::YieldOp::create(rewriter, loc, flatTap(ci, t, off, tAccs));
          });
      return SmallVector<Value>(tLoop.getResults());
    };
    if (mode == ChunkMode::Reduce) {
      auto reduction = scf::ForOp::create(
          rewriter, loc, cBegin, im.add(cBegin, im.idx(chunk)), im.idx(1), accs,
          [&](OpBuilder &, Location, Value ci, ValueRange cAccs) {
            scf::YieldOp::create(rewriter, loc, taps(ci, cAccs));
          });
      for (int64_t k = 0; k < rows * cols; ++k) {
        scratch =
            vector::TransferWriteOp::create(
                rewriter, loc, reduction.getResult(k), scratch,
                ValueRange{slot, im.idx(k), im.idx(0)}, ArrayRef<bool>{true})
                .getResult();
      }
      return scratch;
    }
    SmallVector<Value> results;
    if (mode == ChunkMode::Store) {
      results = accs;
    } else if (channelsOuter) {
      // Input channels outer, taps inner: the task's filter block is read
      // in its packed order ([C][KH][KW][fb], sequential) and one channel's
      // input window is reused by every tap from L1.
      auto reduction = scf::ForOp::create(
          rewriter, loc, im.idx(0), im.idx(c), im.idx(1), accs,
          [&](OpBuilder &, Location, Value ci, ValueRange cAccs) {
            scf::YieldOp::create(rewriter, loc, taps(ci, cAccs));
          });
      results = reduction.getResults();
    } else {
      // Filter rows, filter columns, then input channels: every tap walks
      // all channels (the filter-gradient form, whose "channels" are the
      // few images and whose taps are many).
      auto reduction = scf::ForOp::create(
          rewriter, loc, im.idx(0), im.idx(kh), im.idx(1), accs,
          [&](OpBuilder &, Location, Value y, ValueRange yAccs) {
            auto xLoop = scf::ForOp::create(
                rewriter, loc, im.idx(0), im.idx(kw), im.idx(1), yAccs,
                [&](OpBuilder &, Location, Value x, ValueRange xAccs) {
                  auto cLoop = scf::ForOp::create(
                      rewriter, loc, im.idx(0), im.idx(c), im.idx(1), xAccs,
                      [&](OpBuilder &, Location, Value ci, ValueRange cAccs) {
                        scf::YieldOp::create(rewriter, loc,
                                             tap(ci, y, x, cAccs));
                      });
                  scf::YieldOp::create(rewriter, loc, cLoop.getResults());
                });
            scf::YieldOp::create(rewriter, loc, xLoop.getResults());
          });
      results = reduction.getResults();
    }
    // Each row of the tile in registers is [column][channel]; NCHW wants
    // [channel][column]: transpose it, then store fb rows of cols.
    // With 16 lanes, blocks of 16 channels by 16 columns (the rows past
    // `cols` zeros) take the 16x16 shuffle transpose: a [cols, fb] transpose
    // of any other shape is lowered lane by lane (3x3 64->64 @56: about 700
    // instructions a tile, 7% of the kernel's time, against about 150).
    bool blocks16 = lanes == 16 && fb % 16 == 0 && cols <= 16;
    auto block16Type = VectorType::get({16, 16}, et);
    for (int64_t j = 0; j < rows; ++j) {
      Value t;
      if (blocks16) {
        t = vector::BroadcastOp::create(rewriter, loc, tileTType, pad);
        for (int64_t h = 0; h < fb; h += 16) {
          Value blk =
              vector::BroadcastOp::create(rewriter, loc, block16Type, pad);
          for (int64_t i = 0; i < cols; ++i) {
            Value part = vector::ExtractStridedSliceOp::create(
                rewriter, loc, results[j * cols + i], ArrayRef<int64_t>{h},
                ArrayRef<int64_t>{16}, ArrayRef<int64_t>{1});
            blk = vector::InsertOp::create(rewriter, loc, part, blk,
                                           ArrayRef<int64_t>{i});
          }
          blk = vector::TransposeOp::create(rewriter, loc, blk,
                                            ArrayRef<int64_t>{1, 0});
          if (cols < 16) {
            blk = vector::ExtractStridedSliceOp::create(
                rewriter, loc, blk, ArrayRef<int64_t>{0, 0},
                ArrayRef<int64_t>{16, cols}, ArrayRef<int64_t>{1, 1});
          }
          t = vector::InsertStridedSliceOp::create(rewriter, loc, blk, t,
                                                   ArrayRef<int64_t>{h, 0},
                                                   ArrayRef<int64_t>{1, 1});
        }
      } else {
        t = vector::BroadcastOp::create(rewriter, loc, tileType, pad);
        for (int64_t i = 0; i < cols; ++i) {
          t = vector::InsertOp::create(rewriter, loc, results[j * cols + i], t,
                                       ArrayRef<int64_t>{i});
        }
        t = vector::TransposeOp::create(rewriter, loc, t,
                                        ArrayRef<int64_t>{1, 0});
      }
      if (epilogue) {
        // The tile is [fb channels, cols columns] of one output row. A
        // grouped convolution's epilogue indexes the channels as (group,
        // channel in the group): d1 and d2 of its five dimensions.
        Value channel = im.add(fBase, fi), row = im.add(oy0, im.idx(j));
        SmallVector<Value> channelDims = {channel};
        if (groups > 1) {
          channelDims = {
              im.divu(channel, og),
              arith::RemUIOp::create(rewriter, loc, channel, im.idx(og))};
        }
        auto vt = cast<VectorType>(t.getType());
        auto same = [&](Value src) -> Value {
          SmallVector<Value> at = {ivs[0]};
          at.append(channelDims);
          at.append({row, col0});
          Value v = vector::TransferReadOp::create(
              rewriter, loc, slabRowType, src, at, std::optional<Value>(pad),
              ArrayRef<bool>{true, true, true});
          return vector::ShapeCastOp::create(rewriter, loc, vt, v);
        };
        // The fb channels along the last channel dimension, or one value
        // broadcast when the input has only the group's.
        auto perChannel = [&](Value src, AffineMap map) -> Value {
          int64_t rank = cast<RankedTensorType>(src.getType()).getRank();
          SmallVector<Value> at(rank, im.idx(0));
          std::optional<unsigned> vectorPos;
          for (auto [pos, e] : llvm::enumerate(map.getResults())) {
            if (auto d = dyn_cast<AffineDimExpr>(e)) {
              at[pos] = channelDims[d.getPosition() - 1];
              if (d.getPosition() == channelDims.size()) {
                vectorPos = pos;
              }
            }
          }
          if (!vectorPos) {
            Value v = tensor::ExtractOp::create(rewriter, loc, src, at);
            return vector::BroadcastOp::create(rewriter, loc, rowType, v);
          }
          return vector::TransferReadOp::create(
              rewriter, loc, rowType, src, at, std::optional<Value>(pad),
              AffineMap::get(rank, 0, rewriter.getAffineDimExpr(*vectorPos),
                             rewriter.getContext()),
              ArrayRef<bool>{true});
        };
        auto channelType = [&](Type t) -> Type {
          return VectorType::get({fb}, t);
        };
        auto toTile = [&](Value v) -> Value {
          auto et1 = cast<VectorType>(v.getType()).getElementType();
          v = vector::ShapeCastOp::create(rewriter, loc,
                                          VectorType::get({fb, 1}, et1), v);
          return vector::BroadcastOp::create(
              rewriter, loc, VectorType::get(vt.getShape(), et1), v);
        };
        t = applyEpilogue(rewriter, loc, epilogue, conv->getResult(0), t,
                          {channelType, perChannel, toTile, same});
      }
      t = vector::ShapeCastOp::create(rewriter, loc, slabRowType, t);
      slab = vector::TransferWriteOp::create(rewriter, loc, t, slab,
                                             ValueRange{fi, im.idx(j), col0},
                                             ArrayRef<bool>{true, true, true})
                 .getResult();
    }
    return slab;
  };

  // `rows` output rows of the task from row `r`, channels [fi, fi + fb):
  // the column tiles over the task's [taskF, rows, ow] slice at row r.
  // With ChunkMode::Reduce `task` is the scratch tensor, and the tiles'
  // slots start at `slotBase`.
  auto rowTile = [&](Value task, Value fi, Value r, int64_t rows,
                     ChunkMode mode = ChunkMode::Whole, Value scratch = {},
                     Value slotBase = {}, Value cBegin = {}) -> Value {
    Value oy0 = im.add(rowBase, r);
    auto slotOf = [&](Value col0) -> Value {
      return mode == ChunkMode::Whole
                 ? Value()
                 : im.add(slotBase, arith::DivUIOp::create(rewriter, loc, col0,
                                                           im.idx(owb)));
    };
    // The column tiles, `visit(carried, col0, cols, edgeCol0)` each: a
    // loop over the runs of tiles inside the source, and the tiles at its
    // edges (edgeTile) one by one at their static column (-1 otherwise).
    using Visit = function_ref<Value(Value, Value, int64_t, int64_t)>;
    auto columns = [&](Value carried, Visit visit) -> Value {
      int64_t tiles = owMain / owb;
      for (int64_t k = 0; k < tiles;) {
        if (edgeTile(k * owb, owb)) {
          carried = visit(carried, im.idx(k * owb), owb, k * owb);
          ++k;
          continue;
        }
        int64_t end = k;
        while (end < tiles && !edgeTile(end * owb, owb)) {
          ++end;
        }
        auto colLoop = scf::ForOp::create(
            rewriter, loc, im.idx(k * owb), im.idx(end * owb), im.idx(owb),
            ValueRange{carried},
            [&](OpBuilder &, Location, Value col0, ValueRange colArgs) {
              scf::YieldOp::create(rewriter, loc,
                                   visit(colArgs[0], col0, owb, -1));
            });
        carried = colLoop.getResult(0);
        k = end;
      }
      if (owRem > 0) {
        carried = visit(carried, im.idx(owMain), owRem,
                        edgeTile(owMain, owRem) ? owMain : -1);
      }
      return carried;
    };
    if (mode == ChunkMode::Reduce) {
      return columns(
          task, [&](Value carried, Value col0, int64_t cols, int64_t edgeCol0) {
            return tile(Value(), fi, oy0, col0, rows, cols, mode, carried,
                        slotOf(col0), cBegin, edgeCol0);
          });
    }
    SmallVector<OpFoldResult> offsets = {rewriter.getIndexAttr(0), r,
                                         rewriter.getIndexAttr(0)};
    SmallVector<OpFoldResult> sizes = indexAttrs(rewriter, {taskF, rows, ow});
    SmallVector<OpFoldResult> strides = indexAttrs(rewriter, {1, 1, 1});
    Value slab = tensor::ExtractSliceOp::create(
        rewriter, loc, RankedTensorType::get({taskF, rows, ow}, et), task,
        offsets, sizes, strides);
    slab = columns(
        slab, [&](Value carried, Value col0, int64_t cols, int64_t edgeCol0) {
          return tile(carried, fi, oy0, col0, rows, cols, mode, scratch,
                      slotOf(col0), Value(), edgeCol0);
        });
    return tensor::InsertSliceOp::create(rewriter, loc, slab, task, offsets,
                                         sizes, strides);
  };

  auto fLoop = scf::ForOp::create(
      rewriter, loc, im.idx(0), im.idx(taskF), im.idx(fb), ValueRange{taskOut},
      [&](OpBuilder &, Location, Value fi, ValueRange fArgs) {
        Value task = fArgs[0];
        if (chunk > 0) {
          // The strip's row tiles from task row `s`, in `mode`.
          int64_t sRem = sRows % rb, sMain = sRows - sRem;
          auto strip = [&](Value carried, Value s, ChunkMode mode,
                           Value scratch, Value cBegin) -> Value {
            auto slotBase = [&](Value r) {
              Value k = arith::DivUIOp::create(
                  rewriter, loc, arith::SubIOp::create(rewriter, loc, r, s),
                  im.idx(rb));
              return im.mul(k, colTiles);
            };
            if (sMain > 0) {
              auto rowLoop = scf::ForOp::create(
                  rewriter, loc, s, im.add(s, im.idx(sMain)), im.idx(rb),
                  ValueRange{carried},
                  [&](OpBuilder &, Location, Value r, ValueRange rArgs) {
                    scf::YieldOp::create(rewriter, loc,
                                         rowTile(rArgs[0], fi, r, rb, mode,
                                                 scratch, slotBase(r), cBegin));
                  });
              carried = rowLoop.getResult(0);
            }
            if (sRem > 0) {
              Value r = im.add(s, im.idx(sMain));
              carried = rowTile(carried, fi, r, sRem, mode, scratch,
                                slotBase(r), cBegin);
            }
            return carried;
          };
          Value scratch0 = tensor::EmptyOp::create(
              rewriter, loc, ArrayRef<int64_t>{stripTiles, rb * owb, fb}, et);
          auto stripLoop = scf::ForOp::create(
              rewriter, loc, im.idx(0), im.idx(taskRows), im.idx(sRows),
              ValueRange{task, scratch0},
              [&](OpBuilder &, Location, Value s, ValueRange sArgs) {
                auto chunkLoop = scf::ForOp::create(
                    rewriter, loc, im.idx(0), im.idx(c), im.idx(chunk),
                    ValueRange{sArgs[1]},
                    [&](OpBuilder &, Location, Value c0, ValueRange cArgs) {
                      scf::YieldOp::create(
                          rewriter, loc,
                          strip(cArgs[0], s, ChunkMode::Reduce, Value(), c0));
                    });
                Value scratch = chunkLoop.getResult(0);
                Value stored =
                    strip(sArgs[0], s, ChunkMode::Store, scratch, Value());
                scf::YieldOp::create(rewriter, loc,
                                     ValueRange{stored, scratch});
              });
          scf::YieldOp::create(rewriter, loc, stripLoop.getResult(0));
          return;
        }
        if (rbMain > 0) {
          auto rowLoop = scf::ForOp::create(
              rewriter, loc, im.idx(0), im.idx(rbMain), im.idx(rb),
              ValueRange{task},
              [&](OpBuilder &, Location, Value r, ValueRange rArgs) {
                scf::YieldOp::create(rewriter, loc,
                                     rowTile(rArgs[0], fi, r, rb));
              });
          task = rowLoop.getResult(0);
        }
        if (rbRem > 0) {
          task = rowTile(task, fi, im.idx(rbMain), rbRem);
        }
        scf::YieldOp::create(rewriter, loc, task);
      });
  rewriter.setInsertionPointToStart(forall.getTerminator().getBody());
  tensor::ParallelInsertSliceOp::create(rewriter, loc, fLoop.getResult(0), out,
                                        outOffsets, outSizes, unit);
  rewriter.setInsertionPointAfter(forall);
  Value result = forall.getResult(0);
  if (groups > 1) {
    result = tensor::ExpandShapeOp::create(
        rewriter, loc, conv->getResult(0).getType(), result, groupedToFlat());
  }
  replaceConvResult(rewriter, conv, epilogue, fill, result);
  return success();
}

/// `value` reshaped to `type` by `reassociation` (a collapse): the source
/// of an expand_shape by the same groups, a constant's elements re-typed,
/// else a tensor.collapse_shape made at the rewriter's insertion point.
Value collapsedView(RewriterBase &rewriter, Location loc, Value value,
                    RankedTensorType type,
                    ArrayRef<ReassociationIndices> reassociation) {
  if (auto expand = value.getDefiningOp<tensor::ExpandShapeOp>();
      expand && expand.getSrcType() == type &&
      expand.getReassociationIndices() ==
          SmallVector<ReassociationIndices>(reassociation)) {
    return expand.getSrc();
  }
  Attribute attr;
  if (matchPattern(value, m_Constant(&attr))) {
    if (auto dense = dyn_cast<DenseElementsAttr>(attr)) {
      return arith::ConstantOp::create(rewriter, loc, type,
                                       dense.reshape(type));
    }
    if (auto resource = dyn_cast<DenseResourceElementsAttr>(attr)) {
      return arith::ConstantOp::create(
          rewriter, loc, type,
          DenseResourceElementsAttr::get(type, resource.getRawHandle()));
    }
  }
  return tensor::CollapseShapeOp::create(rewriter, loc, type, value,
                                         reassociation);
}

/// Whether the row kernel takes the grouped `conv`
/// (linalg.conv_2d_ngchw_gfchw: input [N, G, C/G, H, W] already padded,
/// filter [G, F/G, C/G, KH, KW]; f32, static shapes): more than one input
/// channel per group (depthwise ones have their own kernel in
/// graphc-cpu-tile-and-vectorize), a filter larger than 1x1 (grouped 1x1
/// convolutions are one batch GEMM there), not a filter gradient's shape,
/// and output channels per group in whole vectors, so that a register
/// tile's channels are one group's. Groups of fewer channels (ResNeXt's 32
/// of 4) have the small-group plane kernel of
/// graphc-cpu-tile-and-vectorize instead (docs/design/conv-codegen.md,
/// "Grouped convolutions on the direct kernels").
bool groupedRowKernelTakes(linalg::Conv2DNgchwGfchwOp conv, int64_t lanes,
                           int64_t fVectors) {
  auto it = dyn_cast<RankedTensorType>(conv->getOperand(0).getType());
  auto ft = dyn_cast<RankedTensorType>(conv->getOperand(1).getType());
  auto ot = dyn_cast<RankedTensorType>(conv->getResult(0).getType());
  if (!it || !ft || !ot || !it.hasStaticShape() || !ft.hasStaticShape() ||
      !ot.hasStaticShape() || !it.getElementType().isF32() ||
      !ft.getElementType().isF32() || !ot.getElementType().isF32()) {
    return false;
  }
  int64_t og = ot.getDimSize(2), cg = it.getDimSize(2);
  int64_t kh = ft.getDimSize(3), kw = ft.getDimSize(4);
  return cg > 1 && kh * kw > 1 &&
         kh * kw <= ot.getDimSize(3) * ot.getDimSize(4) && og % lanes == 0 &&
         graphc::directConvFilterBlock(og, lanes, fVectors) != 0;
}

/// Rewrites the grouped `conv` (groupedRowKernelTakes) with the row kernel
/// over all groups at once, its input and filter viewed as a 2-D
/// convolution's ([N, C, H, W], [F, C/G, KH, KW]) and each output channel
/// block reading its group's input channels; failure leaves `conv` alone.
LogicalResult groupedRowConv(RewriterBase &rewriter,
                             linalg::Conv2DNgchwGfchwOp conv, int64_t lanes,
                             int64_t owBlock, int64_t fVectors) {
  auto it = cast<RankedTensorType>(conv->getOperand(0).getType());
  auto ft = cast<RankedTensorType>(conv->getOperand(1).getType());
  auto ot = cast<RankedTensorType>(conv->getResult(0).getType());
  Type et = ot.getElementType();
  int64_t g = ot.getDimSize(1);
  auto it4 = RankedTensorType::get({it.getDimSize(0), g * it.getDimSize(2),
                                    it.getDimSize(3), it.getDimSize(4)},
                                   et);
  auto ft4 = RankedTensorType::get({g * ft.getDimSize(1), ft.getDimSize(2),
                                    ft.getDimSize(3), ft.getDimSize(4)},
                                   et);
  auto ot4 = RankedTensorType::get({ot.getDimSize(0), g * ot.getDimSize(2),
                                    ot.getDimSize(3), ot.getDimSize(4)},
                                   et);
  Location loc = conv.getLoc();
  rewriter.setInsertionPoint(conv);
  Operation *last = conv->getPrevNode();
  Value input = conv->getOperand(0), filter = conv->getOperand(1);
  // A zero padding of the 5-D input's planes (graphc-cpu-fuse-elementwise
  // moves the expand_shape above the pad when an elementwise op makes the
  // input) becomes the same padding of the collapsed source, which the
  // kernel reads through instead of a padded copy.
  Value input4;
  auto pad = input.getDefiningOp<tensor::PadOp>();
  if (pad && pad.getConstantPaddingValue() &&
      pad.getSourceType().hasStaticShape() &&
      llvm::none_of(pad.getStaticLow(), ShapedType::isDynamic) &&
      llvm::none_of(pad.getStaticHigh(), ShapedType::isDynamic) &&
      llvm::all_of(
          llvm::concat<const int64_t>(pad.getStaticLow().take_front(3),
                                      pad.getStaticHigh().take_front(3)),
          [](int64_t p) { return p == 0; })) {
    RankedTensorType st = pad.getSourceType();
    auto st4 = RankedTensorType::get({st.getDimSize(0), g * st.getDimSize(2),
                                      st.getDimSize(3), st.getDimSize(4)},
                                     et);
    Value source4 =
        collapsedView(rewriter, loc, pad.getSource(), st4, groupedToFlat());
    ArrayRef<int64_t> low = pad.getStaticLow(), high = pad.getStaticHigh();
    input4 =
        tensor::PadOp::create(rewriter, loc, it4, source4,
                              indexAttrs(rewriter, {0, 0, low[3], low[4]}),
                              indexAttrs(rewriter, {0, 0, high[3], high[4]}),
                              pad.getConstantPaddingValue());
  } else {
    input4 = collapsedView(rewriter, loc, input, it4, groupedToFlat());
  }
  Value filter4 =
      collapsedView(rewriter, loc, filter, ft4, {{0, 1}, {2}, {3}, {4}});
  RowConv rc{conv,
             input4,
             filter4,
             conv->getOperand(2),
             it4,
             ft4,
             ot4,
             llvm::to_vector(conv.getStrides().getValues<int64_t>()),
             llvm::to_vector(conv.getDilations().getValues<int64_t>()),
             g};
  if (failed(directConv(rewriter, rc, lanes, owBlock, fVectors,
                        /*channelsOuter=*/true, /*fuseEpilogue=*/true))) {
    // The views made above, latest first.
    while (conv->getPrevNode() != last) {
      rewriter.eraseOp(conv->getPrevNode());
    }
    return failure();
  }
  // The views of the input and filter, and a padding the kernel reads
  // through, are left without uses.
  for (Value v : {input4, input, filter}) {
    while (Operation *def = v.getDefiningOp()) {
      if (!def->use_empty() ||
          !isa<tensor::ExpandShapeOp, tensor::CollapseShapeOp, tensor::PadOp,
               arith::ConstantOp>(def)) {
        break;
      }
      v = def->getNumOperands() ? def->getOperand(0) : Value();
      rewriter.eraseOp(def);
      if (!v) {
        break;
      }
    }
  }
  return success();
}

/// Output channels of the 1x1 kernel's register tile, and vectors of
/// output pixels: 8 x 3 accumulators (24 zmm with AVX-512).
constexpr int64_t kPointwiseF = 8;
constexpr int64_t kPointwiseVectors = 3;

/// The input bytes of one strip of the pointwise kernel's pixel tiles (see
/// pointwiseConv): an eighth of a 2 MiB L2, so that the strip stays there
/// beside the filter and the output rows being written. ResNet-50 at batch
/// 8 ran the same within noise with 512 KiB, and 1x1 128->512 @28 4%
/// slower.
constexpr int64_t kPointwiseStripBytes = 256 * 1024;

/// The input of a 1x1 convolution with strides (sh, sw): `input`'s pixels
/// (oh * sh, ow * sw) as a fresh [N, C, OH, OW] tensor, so that the
/// pointwise kernel reads contiguous output pixels. Tasks over (image,
/// chunk of channels); each output row is `lanes`-wide vectors (a narrower
/// last one) picked by a shuffle out of one contiguous load of the input
/// row, which never reads past the row's last needed element.
Value subsample(RewriterBase &rewriter, Location loc, Value input,
                RankedTensorType it, int64_t oh, int64_t ow, int64_t sh,
                int64_t sw, int64_t lanes) {
  graphc::IndexMath im{rewriter, loc};
  int64_t n = it.getDimSize(0), c = it.getDimSize(1), w = it.getDimSize(3);
  Type et = it.getElementType();
  auto outType = RankedTensorType::get({n, c, oh, ow}, et);
  SmallVector<Value> dyn;
  if (ShapedType::isDynamic(n)) {
    dyn.push_back(tensor::DimOp::create(rewriter, loc, input, 0));
  }
  Value empty = tensor::EmptyOp::create(rewriter, loc, outType, dyn);
  int64_t need = llvm::divideCeil(kMinTasks, ShapedType::isDynamic(n) ? 1 : n);
  int64_t split = c;
  for (int64_t d = std::min(need, c); d <= c; ++d) {
    if (c % d == 0) {
      split = d;
      break;
    }
  }
  int64_t taskC = c / split;
  scf::ForallOp forall = taskLoop(rewriter, loc, input, n, 1, split, empty);
  SmallVector<Value> ivs = llvm::to_vector(forall.getInductionVars());
  Value out = forall.getRegionIterArgs()[0];
  Value cBase = im.mul(ivs[2], taskC);
  SmallVector<OpFoldResult> offsets = {ivs[0], cBase, rewriter.getIndexAttr(0),
                                       rewriter.getIndexAttr(0)};
  SmallVector<OpFoldResult> sizes = indexAttrs(rewriter, {1, taskC, oh, ow});
  SmallVector<OpFoldResult> unit = indexAttrs(rewriter, {1, 1, 1, 1});
  Value taskOut = tensor::ExtractSliceOp::create(
      rewriter, loc, RankedTensorType::get({1, taskC, oh, ow}, et), out,
      offsets, sizes, unit);
  auto cLoop = scf::ForOp::create(
      rewriter, loc, im.idx(0), im.idx(taskC), im.idx(1), ValueRange{taskOut},
      [&](OpBuilder &, Location, Value ci, ValueRange cArgs) {
        Value inC = im.add(cBase, ci);
        auto rowLoop = scf::ForOp::create(
            rewriter, loc, im.idx(0), im.idx(oh), im.idx(1),
            ValueRange{cArgs[0]},
            [&](OpBuilder &, Location, Value r, ValueRange rArgs) {
              Value acc = rArgs[0];
              Value inRow = im.mul(r, sh);
              for (int64_t o = 0; o < ow; o += lanes) {
                int64_t width = std::min(lanes, ow - o);
                // The input elements o * sw, ..., (o + width - 1) * sw;
                // a whole width * sw when the row has them.
                int64_t span = (width - 1) * sw + 1;
                if (o * sw + width * sw <= w) {
                  span = width * sw;
                }
                Value row = vector::TransferReadOp::create(
                    rewriter, loc, VectorType::get({span}, et), input,
                    ValueRange{ivs[0], inC, inRow, im.idx(o * sw)},
                    std::optional<Value>(arith::ConstantOp::create(
                        rewriter, loc, et, rewriter.getZeroAttr(et))),
                    ArrayRef<bool>{true});
                SmallVector<int64_t> mask;
                for (int64_t k = 0; k < width; ++k) {
                  mask.push_back(k * sw);
                }
                Value picked =
                    vector::ShuffleOp::create(rewriter, loc, row, row, mask);
                acc = vector::TransferWriteOp::create(
                          rewriter, loc, picked, acc,
                          ValueRange{im.idx(0), ci, r, im.idx(o)},
                          ArrayRef<bool>{true})
                          .getResult();
              }
              scf::YieldOp::create(rewriter, loc, acc);
            });
        scf::YieldOp::create(rewriter, loc, rowLoop.getResult(0));
      });
  rewriter.setInsertionPointToStart(forall.getTerminator().getBody());
  tensor::ParallelInsertSliceOp::create(rewriter, loc, cLoop.getResult(0), out,
                                        offsets, sizes, unit);
  rewriter.setInsertionPointAfter(forall);
  return forall.getResult(0);
}

/// Rewrites a 1x1, stride-1 `conv` (f32, static shapes, output channels a
/// multiple of 8) as the pointwise kernel: with H x W flattened to P pixels
/// it is out[f, p] += w[f, c] * in[c, p], whose pixels are contiguous in
/// NCHW. The register tile is 8 output channels by 3 vectors of pixels;
/// for every input channel the kernel loads the 3 input vectors (contiguous
/// rows, no broadcast), broadcasts the 8 filter elements (the filter
/// re-laid out to [F/8, C, 8]) and multiply-adds: the accumulators are
/// already output rows, so nothing is transposed. A last tile narrower
/// than 3 vectors takes the pixels left over (vectors of fewer lanes at the
/// end). Tasks: (image, chunk of pixels, chunk of output-channel blocks).
LogicalResult pointwiseConv(RewriterBase &rewriter,
                            linalg::Conv2DNchwFchwOp conv, int64_t lanes,
                            bool fuseEpilogue) {
  Value input = conv.getInputs()[0], filter = conv.getInputs()[1];
  Value init = conv.getOutputs()[0];
  std::optional<DirectConvTypes> types = directConvTypes(conv);
  if (!types) {
    return failure();
  }
  RankedTensorType it = types->input, ft = types->filter, ot = types->output;
  int64_t n = ot.getDimSize(0), f = ot.getDimSize(1), oh = ot.getDimSize(2),
          ow = ot.getDimSize(3), c = it.getDimSize(1);
  bool dynamicBatch = ShapedType::isDynamic(n);
  SmallVector<int64_t> strides =
      llvm::to_vector(conv.getStrides().getValues<int64_t>());
  int64_t sh = strides[0], sw = strides[1];
  // A strided 1x1 convolution reads every sh-th row and sw-th column: with
  // those pixels copied out first (subsample) it is a stride-1 one.
  if (ft.getDimSize(2) != 1 || ft.getDimSize(3) != 1 || sh < 1 || sw < 1 ||
      (oh - 1) * sh >= it.getDimSize(2) || (ow - 1) * sw >= it.getDimSize(3) ||
      (sh == 1 && it.getDimSize(2) != oh) ||
      (sw == 1 && it.getDimSize(3) != ow) || n == 0 || f == 0 || oh == 0 ||
      ow == 0 || c == 0 || f % kPointwiseF != 0) {
    return failure();
  }
  Type et = ot.getElementType();
  int64_t mr = kPointwiseF, p = oh * ow;
  int64_t tileP = kPointwiseVectors * lanes;
  int64_t pRem = p % tileP, pMain = p - pRem;
  // Tasks: (image, chunk of pixels, chunk of output channel blocks), at
  // least kMinTasks when there is enough to split. Pixels are split first
  // when an image's input is at least its filter (P >= F): each task then
  // reads its own input once and the whole filter, which stays in L2.
  // Otherwise the output channels are split. Inside a task the pixel tiles
  // are the outer loop, so a tile's input strip (C x 3 vectors) is reused
  // from cache by every channel block.
  int64_t tiles = pMain / tileP;
  int64_t need = llvm::divideCeil(kMinTasks, dynamicBatch ? 1 : n);
  int64_t pChunks = 1, tilesPerChunk = tiles;
  if (p >= f && tiles > 1) {
    tilesPerChunk = llvm::divideCeil(tiles, std::min(need, tiles));
    pChunks = llvm::divideCeil(tiles, tilesPerChunk);
  }
  int64_t fBlocks = f / mr;
  int64_t needF = llvm::divideCeil(need, pChunks);
  int64_t split = fBlocks;
  for (int64_t d = std::min(needF, fBlocks); d <= fBlocks; ++d) {
    if (fBlocks % d == 0) {
      split = d;
      break;
    }
  }
  int64_t taskF = f / split, chunk = tilesPerChunk * tileP;

  Location loc = conv.getLoc();
  auto fill = init.getDefiningOp<linalg::FillOp>();
  // As in directConv: an elementwise consumer applied in registers.
  linalg::GenericOp epilogue =
      fuseEpilogue && fill ? matchEpilogue(conv) : linalg::GenericOp();
  rewriter.setInsertionPoint(epilogue ? epilogue.getOperation()
                                      : conv.getOperation());
  graphc::IndexMath im{rewriter, loc};
  Value packed = packFilter(rewriter, loc, filter, mr);
  Value dest = epilogue ? epilogue.getDpsInits()[0]
               : fill   ? fill.getOutputs()[0]
                        : init;
  SmallVector<ReassociationIndices> flat = {{0}, {1}, {2, 3}};
  if (sh != 1 || sw != 1) {
    input = subsample(rewriter, loc, input, it, oh, ow, sh, sw, lanes);
  }
  Value x = tensor::CollapseShapeOp::create(
      rewriter, loc, RankedTensorType::get({n, c, p}, et), input, flat);
  auto outType = RankedTensorType::get({n, f, p}, et);
  // The epilogue's inputs read where the output is, with their pixels
  // flattened as the kernel's.
  llvm::DenseMap<Value, Value> flatInputs;
  if (epilogue) {
    for (OpOperand *in : epilogue.getDpsInputOperands()) {
      if (in->get() != conv->getResult(0) &&
          epilogue.getMatchingIndexingMap(in).isIdentity()) {
        flatInputs[in->get()] = tensor::CollapseShapeOp::create(
            rewriter, loc, outType, in->get(), flat);
      }
    }
  }
  Value dest3 =
      tensor::CollapseShapeOp::create(rewriter, loc, outType, dest, flat);
  scf::ForallOp forall =
      taskLoop(rewriter, loc, init, n, pChunks, split, dest3);
  SmallVector<Value> ivs = llvm::to_vector(forall.getInductionVars());
  Value out = forall.getRegionIterArgs()[0];
  Value fBase = im.mul(ivs[2], taskF);
  // The task's pixels: [pStart, pStart + pSize); with one chunk all of
  // them (static), else `chunk` but the last, which ends at P.
  Value pStart = im.mul(ivs[1], chunk);
  OpFoldResult pSize = rewriter.getIndexAttr(p);
  Value tilesEnd = im.idx(pMain);
  if (pChunks > 1) {
    Value left = arith::SubIOp::create(rewriter, loc, im.idx(p), pStart);
    pSize =
        arith::MinUIOp::create(rewriter, loc, left, im.idx(chunk)).getResult();
    Value leftMain =
        arith::SubIOp::create(rewriter, loc, im.idx(pMain), pStart);
    tilesEnd = arith::MinUIOp::create(rewriter, loc, leftMain, im.idx(chunk));
  }
  SmallVector<OpFoldResult> outOffsets = {ivs[0], fBase, pStart};
  SmallVector<OpFoldResult> outSizes = {rewriter.getIndexAttr(1),
                                        rewriter.getIndexAttr(taskF), pSize};
  SmallVector<OpFoldResult> unit = indexAttrs(rewriter, {1, 1, 1});
  Value taskOut = tensor::ExtractSliceOp::create(
      rewriter, loc,
      RankedTensorType::get({taskF, pChunks > 1 ? ShapedType::kDynamic : p},
                            et),
      out, outOffsets, outSizes, unit);
  Value pad =
      arith::ConstantOp::create(rewriter, loc, et, rewriter.getZeroAttr(et));

  // One register tile: output channels [fi, fi + mr) of the task by `width`
  // pixels from p0 (of the task), in vectors of `lanes` (the last one
  // narrower).
  auto tile = [&](Value acc, Value fi, Value p0, int64_t width) -> Value {
    SmallVector<int64_t> widths, offs;
    for (int64_t o = 0; o < width; o += lanes) {
      offs.push_back(o);
      widths.push_back(std::min(lanes, width - o));
    }
    int64_t nv = widths.size();
    SmallVector<Value> pix, inPix;
    for (int64_t v = 0; v < nv; ++v) {
      pix.push_back(im.add(p0, im.idx(offs[v])));
      inPix.push_back(im.add(pStart, pix.back()));
    }
    SmallVector<Value> accs;
    for (int64_t m = 0; m < mr; ++m) {
      Value row = im.add(fi, im.idx(m));
      for (int64_t v = 0; v < nv; ++v) {
        auto vt = VectorType::get({widths[v]}, et);
        if (fill) {
          accs.push_back(vector::BroadcastOp::create(rewriter, loc, vt,
                                                     fill.getInputs()[0]));
        } else {
          accs.push_back(vector::TransferReadOp::create(
              rewriter, loc, vt, acc, ValueRange{row, pix[v]},
              std::optional<Value>(pad), ArrayRef<bool>{true}));
        }
      }
    }
    Value fBlock = im.divu(im.add(fBase, fi), mr);
    auto cLoop = scf::ForOp::create(
        rewriter, loc, im.idx(0), im.idx(c), im.idx(1), accs,
        [&](OpBuilder &, Location, Value ci, ValueRange cAccs) {
          SmallVector<Value> in;
          for (int64_t v = 0; v < nv; ++v) {
            in.push_back(vector::TransferReadOp::create(
                rewriter, loc, VectorType::get({widths[v]}, et), x,
                ValueRange{ivs[0], ci, inPix[v]}, std::optional<Value>(pad),
                ArrayRef<bool>{true}));
          }
          SmallVector<Value> next;
          for (int64_t m = 0; m < mr; ++m) {
            Value w = tensor::ExtractOp::create(
                rewriter, loc, packed, ValueRange{fBlock, ci, im.idx(m)});
            for (int64_t v = 0; v < nv; ++v) {
              Value b = vector::BroadcastOp::create(
                  rewriter, loc, VectorType::get({widths[v]}, et), w);
              next.push_back(vector::FMAOp::create(rewriter, loc, in[v], b,
                                                   cAccs[m * nv + v]));
            }
          }
          scf::YieldOp::create(rewriter, loc, next);
        });
    for (int64_t m = 0; m < mr; ++m) {
      Value row = im.add(fi, im.idx(m));
      for (int64_t v = 0; v < nv; ++v) {
        Value t = cLoop.getResult(m * nv + v);
        if (epilogue) {
          // The tile is one output channel's widths[v] pixels.
          Value channel = im.add(fBase, row);
          auto vt = cast<VectorType>(t.getType());
          auto same = [&](Value src) -> Value {
            return vector::TransferReadOp::create(
                rewriter, loc, vt, flatInputs.lookup(src),
                ValueRange{ivs[0], channel, inPix[v]},
                std::optional<Value>(pad), ArrayRef<bool>{true});
          };
          auto perChannel = [&](Value src, AffineMap map) -> Value {
            int64_t rank = cast<RankedTensorType>(src.getType()).getRank();
            return tensor::ExtractOp::create(
                rewriter, loc, src,
                channelIndices(im, rank, channelPosition(map), channel));
          };
          auto channelType = [](Type t) { return t; };
          auto toTile = [&](Value v) -> Value {
            return vector::BroadcastOp::create(
                rewriter, loc, VectorType::get(vt.getShape(), v.getType()), v);
          };
          t = applyEpilogue(rewriter, loc, epilogue, conv->getResult(0), t,
                            {channelType, perChannel, toTile, same});
        }
        acc = vector::TransferWriteOp::create(rewriter, loc, t, acc,
                                              ValueRange{row, pix[v]},
                                              ArrayRef<bool>{true})
                  .getResult();
      }
    }
    return acc;
  };
  // Every channel block of the task over the tile at p0.
  auto allBlocks = [&](Value acc, Value p0, int64_t width) -> Value {
    auto fLoop = scf::ForOp::create(
        rewriter, loc, im.idx(0), im.idx(taskF), im.idx(mr), ValueRange{acc},
        [&](OpBuilder &, Location, Value fi, ValueRange fArgs) {
          scf::YieldOp::create(rewriter, loc, tile(fArgs[0], fi, p0, width));
        });
    return fLoop.getResult(0);
  };

  // The task's full tiles in strips of `stripTiles` tiles whose input
  // (C x stripTiles x tileP floats) fits kPointwiseStripBytes: per strip,
  // the channel blocks are the outer loop and the strip's tiles the inner
  // one. A block then writes its 8 output rows along the whole strip and
  // reads the strip's input from L2, where the tiles-outer order (one
  // strip per tile) wrote every output channel's row and read every input
  // channel's row 48 pixels at a time: C + F concurrent streams of 192
  // bytes, more than the hardware prefetchers follow, so at batch 8 the
  // large-map 1x1 convolutions of ResNet-50 (256->64 @56, 64->256 @56,
  // 512->128 @28) ran at a third of the deep ones' speed.
  int64_t stripTiles = std::max<int64_t>(
      1, kPointwiseStripBytes / (c * tileP * int64_t(sizeof(float))));
  if (pMain > 0 && stripTiles == 1) {
    auto pLoop = scf::ForOp::create(
        rewriter, loc, im.idx(0), tilesEnd, im.idx(tileP), ValueRange{taskOut},
        [&](OpBuilder &, Location, Value p0, ValueRange pArgs) {
          scf::YieldOp::create(rewriter, loc, allBlocks(pArgs[0], p0, tileP));
        });
    taskOut = pLoop.getResult(0);
  } else if (pMain > 0) {
    int64_t strip = stripTiles * tileP;
    // The tiles of the strip at s0, every channel block over them.
    auto stripBlocks = [&](Value acc, Value s0, Value sEnd) -> Value {
      auto fLoop = scf::ForOp::create(
          rewriter, loc, im.idx(0), im.idx(taskF), im.idx(mr), ValueRange{acc},
          [&](OpBuilder &, Location, Value fi, ValueRange fArgs) {
            auto pLoop = scf::ForOp::create(
                rewriter, loc, s0, sEnd, im.idx(tileP), ValueRange{fArgs[0]},
                [&](OpBuilder &, Location, Value p0, ValueRange pArgs) {
                  scf::YieldOp::create(rewriter, loc,
                                       tile(pArgs[0], fi, p0, tileP));
                });
            scf::YieldOp::create(rewriter, loc, pLoop.getResult(0));
          });
      return fLoop.getResult(0);
    };
    if (pChunks == 1 && pMain <= strip) {
      taskOut = stripBlocks(taskOut, im.idx(0), tilesEnd);
    } else {
      auto sLoop = scf::ForOp::create(
          rewriter, loc, im.idx(0), tilesEnd, im.idx(strip),
          ValueRange{taskOut},
          [&](OpBuilder &, Location, Value s0, ValueRange sArgs) {
            Value sEnd = arith::MinUIOp::create(
                rewriter, loc, im.add(s0, im.idx(strip)), tilesEnd);
            scf::YieldOp::create(rewriter, loc,
                                 stripBlocks(sArgs[0], s0, sEnd));
          });
      taskOut = sLoop.getResult(0);
    }
  }
  if (pRem > 0) {
    if (pChunks == 1) {
      taskOut = allBlocks(taskOut, im.idx(pMain), pRem);
    } else {
      // Only the last chunk holds the pixels left over.
      Value last = arith::CmpIOp::create(
          rewriter, loc, arith::CmpIPredicate::eq, ivs[1], im.idx(pChunks - 1));
      auto ifOp = scf::IfOp::create(rewriter, loc, TypeRange{taskOut.getType()},
                                    last, /*withElseRegion=*/true);
      OpBuilder::InsertionGuard guard(rewriter);
      rewriter.setInsertionPointToStart(ifOp.thenBlock());
      Value p0 = arith::SubIOp::create(rewriter, loc, im.idx(pMain), pStart);
      scf::YieldOp::create(rewriter, loc, allBlocks(taskOut, p0, pRem));
      rewriter.setInsertionPointToStart(ifOp.elseBlock());
      scf::YieldOp::create(rewriter, loc, taskOut);
      taskOut = ifOp.getResult(0);
    }
  }
  rewriter.setInsertionPointToStart(forall.getTerminator().getBody());
  tensor::ParallelInsertSliceOp::create(rewriter, loc, taskOut, out, outOffsets,
                                        outSizes, unit);
  rewriter.setInsertionPointAfter(forall);
  Value result = tensor::ExpandShapeOp::create(rewriter, loc, ot,
                                               forall.getResult(0), flat);
  replaceConvResult(rewriter, conv, epilogue, fill, result);
  return success();
}

/// Which convolutions a `convs` option value admits: "all", "none", or a
/// comma-separated list of classes: "wgrad" (more filter taps than output
/// pixels: a filter gradient, CpuFilterGradConv.cpp), else "strided" (a
/// stride above 1, any filter), else "3x3", "1x1" or "other" by the filter.
bool admitted(StringRef classes, linalg::Conv2DNchwFchwOp conv) {
  auto ft = cast<ShapedType>(conv.getInputs()[1].getType());
  bool strided = llvm::any_of(conv.getStrides().getValues<int64_t>(),
                              [](int64_t s) { return s != 1; });
  return graphc::directConvAdmits(classes, ft.getDimSize(2), ft.getDimSize(3),
                                  strided, graphc::isFilterGradientConv(conv));
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
      // A data gradient's flipped filter: packed from the forward filter
      // (CpuFilterGradConv.cpp); the flip is left dead if the kernel takes
      // the convolution.
      linalg::TransposeOp flip;
      if (!graphc::isFilterGradientConv(conv)) {
        flip = graphc::prepackFlippedFilter(rewriter, conv, lanes, fVectors);
      }
      if (graphc::isFilterGradientConv(conv)
              ? succeeded(graphc::filterGradDirectConv(rewriter, conv, lanes,
                                                       owBlock, fVectors))
              : succeeded(pointwiseConv(rewriter, conv, lanes,
                                        /*fuseEpilogue=*/true)) ||
                    (rowConvOf(conv) &&
                     succeeded(directConv(rewriter, *rowConvOf(conv), lanes,
                                          owBlock, fVectors,
                                          /*channelsOuter=*/true,
                                          /*fuseEpilogue=*/true)))) {
        ++numDirectConvs;
      }
      if (flip && flip->hasOneUse() &&
          (*flip->getUsers().begin())->use_empty()) {
        rewriter.eraseOp(*flip->getUsers().begin());
        rewriter.eraseOp(flip);
      }
    }
    // Grouped convolutions with whole vectors of output channels per group.
    SmallVector<linalg::Conv2DNgchwGfchwOp> grouped;
    func.walk([&](linalg::Conv2DNgchwGfchwOp op) {
      if (!op.hasPureTensorSemantics() ||
          !groupedRowKernelTakes(op, lanes, fVectors)) {
        return;
      }
      auto ft = cast<ShapedType>(op->getOperand(1).getType());
      bool strided = llvm::any_of(op.getStrides().getValues<int64_t>(),
                                  [](int64_t s) { return s != 1; });
      if (graphc::directConvAdmits(convs_, ft.getDimSize(3), ft.getDimSize(4),
                                   strided, /*filterGradient=*/false)) {
        grouped.push_back(op);
      }
    });
    for (linalg::Conv2DNgchwGfchwOp conv : grouped) {
      if (succeeded(groupedRowConv(rewriter, conv, lanes, owBlock, fVectors))) {
        ++numGroupedDirectConvs;
      }
    }
  }
};

} // namespace

LogicalResult graphc::rewriteDirectConv(RewriterBase &rewriter,
                                        linalg::Conv2DNchwFchwOp conv,
                                        int64_t lanes, int64_t owBlock,
                                        int64_t fVectors) {
  std::optional<RowConv> rc = rowConvOf(conv);
  if (!rc) {
    return failure();
  }
  return directConv(rewriter, *rc, lanes, owBlock, fVectors,
                    /*channelsOuter=*/false, /*fuseEpilogue=*/false);
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

int64_t graphc::directConvFilterBlock(int64_t f, int64_t lanes,
                                      int64_t fVectors) {
  // Channel blocks: fVectors vectors, else one, else (16 lanes) half a
  // vector when the channels are a multiple of 8 (24, 40, 1000).
  return f % (fVectors * lanes) == 0               ? fVectors * lanes
         : f % lanes == 0                          ? lanes
         : lanes % 16 == 0 && f % (lanes / 2) == 0 ? lanes / 2
                                                   : 0;
}

bool graphc::directConvAdmits(llvm::StringRef classes, int64_t kh, int64_t kw,
                              bool strided, bool filterGradient) {
  if (classes == "all") {
    return true;
  }
  if (classes == "none") {
    return false;
  }
  StringRef cls = filterGradient       ? "wgrad"
                  : strided            ? "strided"
                  : kh == 3 && kw == 3 ? "3x3"
                  : kh == 1 && kw == 1 ? "1x1"
                                       : "other";
  SmallVector<StringRef> list;
  classes.split(list, ',', -1, /*KeepEmpty=*/false);
  return llvm::is_contained(list, cls);
}
