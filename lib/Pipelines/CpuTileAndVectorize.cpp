//===- CpuTileAndVectorize.cpp - thread, cache and register tiling --------===//
//
// The CPU tiling strategy: see CpuPasses.td and docs/design/cpu-codegen.md.
//
//===----------------------------------------------------------------------===//

#include "ConvKernels.h"
#include "CpuInnerDims.h"
#include "CpuPasses.h"
#include "IndexMath.h"

#include "graphc/Target/CPU/CpuTarget.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Bufferization/Transforms/Passes.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/Hoisting.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/SCF/Transforms/TileUsingInterface.h"
#include "mlir/Dialect/SCF/Transforms/Transforms.h"
#include "mlir/Dialect/SCF/Utils/Utils.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Dialect/Vector/Transforms/LoweringPatterns.h"
#include "mlir/Dialect/Vector/Transforms/VectorRewritePatterns.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/IR/TypeUtilities.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include "mlir/Transforms/LoopInvariantCodeMotionUtils.h"

#include "llvm/ADT/SmallPtrSet.h"

#include <array>
#include <functional>

namespace graphc {
#define GEN_PASS_DEF_CPUTILEANDVECTORIZE
#define GEN_PASS_DEF_CPUHOISTVECTORTRANSFERS
#define GEN_PASS_DEF_CPUEXPANDCOPIES
#define GEN_PASS_DEF_CPUDROPEQUIVALENTRESULTS
#include "CpuPasses.h.inc"
} // namespace graphc

using namespace mlir;

namespace {

/// Marks an op the vectoriser rejected, so later phases leave it scalar
/// instead of tiling it again. Removed at the end of the pass.
constexpr llvm::StringLiteral kScalarMarker = "__graphc_cpu_scalar";

/// Marks the register-tile contraction left by the matmul strategy, which is
/// vectorised to a vector.contract once its shape has been folded static.
constexpr llvm::StringLiteral kContractionMarker = "__graphc_cpu_contraction";

/// Marks the K loop (step 1) of a GEMV register tile whose vector ops are
/// split into pieces of the given number of lanes after vectorisation
/// (narrowGemvVectors).
constexpr llvm::StringLiteral kNarrowGemvMarker = "__graphc_cpu_narrow_gemv";

/// Marks the K loop (step 1) of a register tile with the factor that
/// CpuHoistVectorTransfers unrolls it by once the C tile lives in registers.
constexpr llvm::StringLiteral kUnrollKMarker = "__graphc_cpu_unroll_k";

/// Columns of B below which its panels are read in place: a row of B of
/// under 1 KiB (f32) spans few cache lines and pages, and packing would add
/// a heap buffer per task to small matmuls that have none.
constexpr int64_t kMinPackedColumns = 256;

/// Bytes of B (K x N, per batch) up to which its panels are read in place:
/// 256 KiB, a quarter of Zen 4/5's 1 MiB L2 per core. On Zen 5 (one thread,
/// --cpu-time, two interleaved rounds) reading B in place ran 256^3
/// at 1.06-1.12 of OpenBLAS against 0.97-1.02 packed, 784x256x256 and
/// 784x512x128 (256 KiB) 1.04-1.08 against 1.00-1.04; a B of 1 MiB
/// (1024x256x1024) lost 10%.
constexpr int64_t kMaxUnpackedBBytes = int64_t(256) << 10;

/// Rows of A below which B's panels are read in place: the 49-row GEMM of
/// a 7x7 convolution (49x512x4608) ran at 0.4-0.5 of OpenBLAS with packed B
/// against 0.7-0.8 unpacked on Zen 3 (noisy, loaded machine).
constexpr int64_t kMinPackedRows = 64;

/// The GEMV strategy (one row of A): rows of B per step, vectors per
/// register tile, and the widest task. Measured on an Emerald Rapids Xeon
/// against OpenBLAS's sgemv (1x4096x9216, 1x4096x4096, 1x1000x4096): 4 rows
/// x 8 vectors with 2048-column tasks was best of 2/4/8 rows, 4/8/16
/// vectors and 256-2048 columns.
constexpr int64_t kGemvRows = 4;
constexpr int64_t kGemvVectors = 8;
constexpr int64_t kGemvTaskColumns = 2048;

/// The bytes of a cache line, which a full AVX-512 vector spans: a GEMV
/// whose rows of B are not a whole number of such vectors long takes
/// half-width vectors (kNarrowGemvMarker).
constexpr int64_t kCacheLineBytes = 64;

/// A GEMV that gets one column task (no task width divides its columns on a
/// vector boundary: 1000 classes) is split along K instead
/// (splitGemvDepth), from kMinGemvSplitMacs multiply-adds (about 10 us on
/// one core, several forks' worth), into kGemvDepthTasks tasks of whole
/// rows of B, fewer where a task would get under kMinGemvDepthRows rows.
/// Two tasks: each task adds a zero fill of its partial row, copies of it
/// into and out of the task's row buffer and a row to the final sum, and at
/// one thread (--cpu-time) 4 and 8 tasks ran 1x1000x4096 and 1x1000x2048
/// 1-2% slower than one task, 2 tasks 0.5-1.5%. A GEMV is bound by memory,
/// which two cores already share.
constexpr int64_t kMinGemvSplitMacs = int64_t(1) << 18;
constexpr int64_t kGemvDepthTasks = 2;
constexpr int64_t kMinGemvDepthRows = 64;

/// Elements below which an op gets no scf.forall: a thread fork costs more.
constexpr int64_t kMinParallelElements = 4096;

/// The most vector operations a convolution or pooling may unroll into.
/// MLIR's 1-D convolution vectoriser emits one operation per filter tap,
/// and per output column too when the stride is not 1: a 1-D pooling with
/// a 200-wide window over 21821 strided columns became 4.4 million
/// arith.maximumf and kept graphc busy for minutes. Such an op stays scalar.
constexpr int64_t kMaxConvUnroll = 4096;

/// Elements of an im2col buffer above which a convolution keeps the direct
/// (loop-nest) path instead of becoming a GEMM: 2^26 f32 are 256 MiB.
constexpr int64_t kMaxIm2colElements = int64_t(1) << 26;

/// Elements of a whole batch's im2col buffer up to which convToGemm makes
/// one batched GEMM (one parallel region, tasks over images and tiles) rather
/// than a loop of one GEMM per image. mnist-8's two convolutions at batch 8
/// (157 k and 313 k elements) were 16 GEMMs of 0.2-0.6 M multiply-adds, each
/// its own fork and join of the thread team; 4 MiB stays within L2 + L3
/// reach, where the per-image loop was introduced for buffers of 58 MB.
constexpr int64_t kMaxBatchIm2colElements = int64_t(1) << 20;

/// Whether some value `op` yields, in an op with a reduction loop, is
/// computed from no input element: e.g. `out + 1.0`, which the elementwise
/// fusion of a pooling over a tensor of ones leaves (the divisor of an
/// average pool). MLIR 22's vectoriser broadcasts such a value to the
/// output's vector shape, not the iteration space's, so each vector of the
/// reduction adds it once instead of once per element: a 2x2x2 average pool
/// counted 4 elements per window. Such an op stays scalar.
bool reducesInputFreeValue(linalg::LinalgOp op) {
  if (op.getNumReductionLoops() == 0) {
    return false;
  }
  Block *body = op.getBlock();
  unsigned numInputs = op.getNumDpsInputs();
  for (Value yielded : body->getTerminator()->getOperands()) {
    // Backward walk inside the body: does `yielded` read an input element
    // or a loop index?
    SmallVector<Value> work = {yielded};
    llvm::SmallPtrSet<Operation *, 8> seen;
    bool readsInput = false;
    while (!work.empty() && !readsInput) {
      Value v = work.pop_back_val();
      if (auto arg = dyn_cast<BlockArgument>(v)) {
        readsInput = arg.getOwner() == body && arg.getArgNumber() < numInputs;
        continue;
      }
      Operation *def = v.getDefiningOp();
      if (!def || def->getBlock() != body || !seen.insert(def).second) {
        continue;
      }
      if (isa<linalg::IndexOp>(def)) {
        readsInput = true;
        continue;
      }
      llvm::append_range(work, def->getOperands());
    }
    if (!readsInput) {
      return true;
    }
  }
  return false;
}

/// Whether vectorising convolution-like `op` would unroll into more than
/// kMaxConvUnroll operations (see above). Unknown sizes count as too many.
bool convUnrollsTooFar(linalg::LinalgOp op) {
  if (!isa<linalg::ConvolutionOpInterface>(op.getOperation())) {
    return false;
  }
  FailureOr<linalg::ConvolutionDimensions> dims =
      linalg::inferConvolutionDims(op);
  if (failed(dims)) {
    return false;
  }
  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  bool strided = llvm::any_of(dims->strides, [](int64_t s) { return s != 1; });
  int64_t unrolled = 1;
  auto scale = [&](ArrayRef<unsigned> loops) {
    for (unsigned loop : loops) {
      int64_t size = ranges[loop];
      if (ShapedType::isDynamic(size) || size > kMaxConvUnroll) {
        unrolled = kMaxConvUnroll + 1;
        return;
      }
      unrolled = std::min(unrolled * size, kMaxConvUnroll + 1);
    }
  };
  scale(dims->filterLoop);
  if (strided) {
    scale(dims->outputImage);
  }
  return unrolled > kMaxConvUnroll;
}

/// Tiles `op` with `sizes` (0: not tiled) and replaces it. Returns the tiled
/// op.
FailureOr<Operation *> tileOp(RewriterBase &rewriter, Operation *target,
                              ArrayRef<int64_t> sizes, bool forall,
                              ArrayRef<int64_t> interchange = {},
                              SmallVectorImpl<scf::ForOp> *loops = nullptr) {
  // The interface is an external model: a context that did not register
  // linalg's tiling models gets untiled (still correct) code, not a crash.
  auto op = dyn_cast<TilingInterface>(target);
  if (!op) {
    return failure();
  }
  if (llvm::all_of(sizes, [](int64_t s) { return s == 0; })) {
    return op.getOperation();
  }
  scf::SCFTilingOptions options;
  options.setTileSizes(getAsIndexOpFoldResult(op->getContext(), sizes));
  if (forall) {
    options.setLoopType(scf::SCFTilingOptions::LoopType::ForallOp);
  }
  if (!interchange.empty()) {
    options.setInterchange(interchange);
  }
  rewriter.setInsertionPoint(op);
  FailureOr<scf::SCFTilingResult> result =
      scf::tileUsingSCF(rewriter, op, options);
  if (failed(result) || result->tiledOps.size() != 1) {
    return failure();
  }
  rewriter.replaceOp(op, result->replacements);
  if (loops) {
    for (LoopLikeOpInterface loop : result->loops) {
      if (auto forOp = dyn_cast<scf::ForOp>(loop.getOperation())) {
        loops->push_back(forOp);
      }
    }
  }
  return result->tiledOps.front();
}

/// Whether all-parallel `op` reads an input transposed in its two innermost
/// loops: the input's innermost index is the second-innermost loop and its
/// second-innermost index the innermost loop, while the output is written
/// in loop order (a linalg.transpose of the last two dimensions, or an
/// elementwise op with such an operand).
bool transposesInnerLoops(linalg::LinalgOp op) {
  unsigned n = op.getNumLoops();
  if (n < 2 || op.getNumDpsInits() != 1 || op.getNumParallelLoops() != n ||
      !op.getMatchingIndexingMap(op.getDpsInitOperand(0)).isIdentity()) {
    return false;
  }
  for (OpOperand *input : op.getDpsInputOperands()) {
    AffineMap map = op.getMatchingIndexingMap(input);
    unsigned r = map.getNumResults();
    if (r >= 2 &&
        map.getResult(r - 1) == getAffineDimExpr(n - 2, op.getContext()) &&
        map.getResult(r - 2) == getAffineDimExpr(n - 1, op.getContext())) {
      return true;
    }
  }
  return false;
}

/// Peels the last partial iteration off `loop` so the main loop's tiles all
/// have the full, static size and need no masks.
void peel(RewriterBase &rewriter, scf::ForOp loop) {
  scf::ForOp partial;
  (void)scf::peelForLoopAndSimplifyBounds(rewriter, loop, partial);
}

/// Vectorises `op`, with masks sized `vectorSizes` when its shape is dynamic.
/// Returns false (and leaves `op` alone) when the vectoriser rejects it.
bool vectorizeOp(RewriterBase &rewriter, linalg::LinalgOp op,
                 ArrayRef<int64_t> vectorSizes, bool namedContraction = false) {
  SmallVector<int64_t> sizes;
  if (op.hasDynamicShape()) {
    if (vectorSizes.size() != op.getNumLoops()) {
      return false;
    }
    sizes.assign(vectorSizes.begin(), vectorSizes.end());
  }
  if (failed(linalg::vectorizeOpPrecondition(op, sizes))) {
    return false;
  }
  rewriter.setInsertionPoint(op);
  FailureOr<linalg::VectorizationResult> result = linalg::vectorize(
      rewriter, op, sizes, /*inputScalableVecDims=*/{},
      /*vectorizeNDExtract=*/false,
      /*flatten1DDepthwiseConv=*/false,
      /*assumeDynamicDimsMatchVecSizes=*/false, namedContraction);
  if (failed(result)) {
    return false;
  }
  if (result->replacements.empty()) {
    rewriter.eraseOp(op);
  } else {
    rewriter.replaceOp(op, result->replacements);
  }
  return true;
}

/// A matmul-like contraction: parallel batch loops, then M, N parallel and
/// one K reduction loop.
bool isMatmulLike(linalg::LinalgOp op) {
  if (!linalg::isaContractionOpInterface(op) || op.getNumLoops() < 3) {
    return false;
  }
  SmallVector<utils::IteratorType> iters = op.getIteratorTypesArray();
  for (unsigned i = 0, e = iters.size(); i + 1 < e; ++i) {
    if (iters[i] != utils::IteratorType::parallel) {
      return false;
    }
  }
  return iters.back() == utils::IteratorType::reduction &&
         op.getNumDpsInputs() == 2;
}

/// The B operand of matmul-like `op` when it is row-major: the input whose
/// indexing map does not use M and ends in N. Null for a transposed B.
OpOperand *rowMajorB(linalg::LinalgOp op, unsigned numBatch) {
  unsigned mDim = numBatch, nDim = numBatch + 1;
  OpOperand *bOperand = nullptr;
  for (OpOperand *input : op.getDpsInputOperands()) {
    AffineMap map = op.getMatchingIndexingMap(input);
    if (map.getNumResults() == 0 || map.isFunctionOfDim(mDim)) {
      continue;
    }
    if (map.getResults().back() == getAffineDimExpr(nDim, op.getContext())) {
      bOperand = input;
    }
  }
  return bOperand;
}

/// K block of a matmul: a kc x nr panel of B stays near the core while every
/// register tile of the task streams over it.
constexpr int64_t kDefaultKBlock = 256;

/// Rows of one matmul task: each kc x nr micro-panel of B is reused by
/// 256 / mr register tiles while the task's rows of A stay in L2.
constexpr int64_t kDefaultTaskRows = 256;

/// The large-contraction register tile of chooseGemmTile: its least M and
/// K, and its largest K block.
constexpr int64_t kWideTileMinRows = 128;
constexpr int64_t kWideTileMinDepth = 512;
constexpr int64_t kWideTileMaxKBlock = 1024;
/// The K loop of a 6x64 micro-kernel unrolled 4 times: one loop branch and
/// counter update per 96 FMAs instead of per 24, +3-6% at 1024^3 and 2048^3
/// (gemm-bench, one thread); the 8x32 kernels measured no better unrolled.
constexpr int64_t kWideTileUnrollK = 4;
/// Tasks of 512 rows for the 6x64 tile: each packed B block then serves
/// twice the register tiles and is packed half as often; +3-6% on 2048^3
/// and the BERT FFN shapes against 256 (gemm-bench, one thread; 1024 rows
/// were no better than 512, 128 rows 5-10% worse).
constexpr int64_t kWideTileTaskRows = 512;

/// Columns of a task with the 6x64 tile, and the tasks it must leave
/// (wideTaskColumns).
constexpr int64_t kWideTileTaskColumns = 512;
constexpr int64_t kWideTileMinTasks = 4;
/// Bytes of a task's K block of A (task rows x kc) above which the 6x64
/// tile's tasks are widened: a smaller block stays in L2 across the task's
/// column tiles, and wider tasks then only enlarge the packed B block
/// (128x1536x512: 1.15-1.16 -> 1.12-1.13 of OpenBLAS at 384 columns,
/// 128x2048x512 1.11-1.12 -> 1.09-1.11 at 512).
constexpr int64_t kWideTaskMinABlockBytes = 1024 * 1024;

/// Columns of the default matmul task (the 8x32 tiles, and wide tiles whose
/// N has no suitable divisor).
constexpr int64_t kDefaultTaskColumns = 128;

/// A matmul's register tile (mr x nr) and K block.
struct GemmTile {
  int64_t mr, nr, kc;
  /// Unroll factor of the micro-kernel's K loop (1: not unrolled).
  int64_t unrollK = 1;
  /// Rows of one parallel task (before splitTaskRows).
  int64_t taskM = kDefaultTaskRows;
  /// The large-contraction tile: task columns by wideTaskColumns.
  bool wide = false;
};

/// The task columns of a contraction with the 6x64 tile over static
/// `columns`, whose `rowTasks` row tasks (times any batch) are known:
/// kWideTileTaskColumns where they divide `columns` and leave at least
/// kWideTileMinTasks tasks, else kDefaultTaskColumns. A task packs its
/// kc x taskN block of B once per K block and every register tile of its
/// rows reuses it, and reads its block of A once per 64 columns: 512-column
/// tasks read A a quarter as often as 128-column ones. Measured (gemm-bench,
/// one thread, --cpu-time, ratio to OpenBLAS SkylakeX, six interleaved
/// runs each; docs/design/cpu-codegen.md, "Task width"): 2048^3 0.92-0.95
/// -> 0.92-0.97, 1024^3 0.99-1.01 -> 1.00-1.03, 512x3072x768 0.95-1.01 ->
/// 0.98-1.01. Narrower widths gained nothing (512x768x768, 512x768x3072 at
/// 192 or 384) or lost (1024x512x2048 at 256: 1.02-1.04 -> 0.99-1.02), and
/// a width that does not divide N leaves a dynamic last task (384 of 2048:
/// 0.28). The task count floor keeps both cores busy on a GEMM with a
/// single row task. Used only where the task's block of A does not stay in
/// L2 (kWideTaskMinABlockBytes).
int64_t wideTaskColumns(int64_t columns, int64_t rowTasks) {
  if (ShapedType::isDynamic(columns) || columns % kWideTileTaskColumns != 0 ||
      rowTasks * (columns / kWideTileTaskColumns) < kWideTileMinTasks) {
    return kDefaultTaskColumns;
  }
  return kWideTileTaskColumns;
}

/// The register tile and K block of an M x N x K contraction (static
/// extents, or ShapedType::kDynamic) with `lanes` f32 lanes per vector.
///
/// AVX2 and narrower: 6x16 with 8 lanes (12 of 16 ymm accumulators;
/// measured faster than 4x16 on Zen 3 on every gemm-bench shape once B is
/// packed), 4 x 2 vectors below; K blocks of 256.
///
/// AVX-512: 8x32 (16 of 32 zmm accumulators, 10 loads per 16 FMAs) with K
/// blocks of 256, except for large contractions whose N is a multiple of
/// 4 vectors (M >= kWideTileMinRows, N >= 2 * 4 vectors and
/// K >= kWideTileMinDepth), which get 6x64 (24 accumulators, 10 loads per
/// 24 FMAs) with K blocks of up to kWideTileMaxKBlock. Measured on an
/// Emerald Rapids Xeon (gemm-bench, one thread, --cpu-time, against
/// OpenBLAS's SkylakeX sgemm; docs/design/cpu-codegen.md, "Register tile by
/// shape"): 6x64 won 3-20% on 1024^3, 2048^3, BERT FFN down, 784x128x1152,
/// 128x512x2048 and the transformer encoder's shapes, and lost 5-15%
/// wherever N is not a multiple of 64 (the convolution GEMMs' 196, 49, 784
/// and 169 output pixels, whose 6x64 tiles leave narrow edges), with M = 64
/// (10 x 6 + 4 rows) and with K = 64. Its K blocks of 1024 beat 384 by
/// 2-8% on the large shapes (the C tile is loaded and stored once per
/// block; the 6 x 64 panel of B streams from L2 either way).
GemmTile chooseGemmTile(int64_t rows, int64_t columns, int64_t depth,
                        int64_t lanes) {
  if (lanes < 16) {
    return {lanes == 8 ? 6 : 4, 2 * lanes, kDefaultKBlock};
  }
  int64_t wideN = 4 * lanes;
  bool large = !ShapedType::isDynamic(rows) &&
               !ShapedType::isDynamic(columns) &&
               !ShapedType::isDynamic(depth) && rows >= kWideTileMinRows &&
               columns >= 2 * wideN && columns % wideN == 0 &&
               depth >= kWideTileMinDepth;
  if (large) {
    // K blocks of at most kWideTileMaxKBlock, balanced (a multiple of 64
    // rows but the last), so no short last block pays a C tile load and
    // store for few K steps: K = 2048 in 2 x 1024, 1152 in 576 + 576.
    int64_t blocks = llvm::divideCeil(depth, kWideTileMaxKBlock);
    int64_t block = llvm::alignTo(llvm::divideCeil(depth, blocks), 64);
    return {6,
            wideN,
            std::min(depth, block),
            kWideTileUnrollK,
            kWideTileTaskRows,
            /*wide=*/true};
  }
  return {8, 2 * lanes, kDefaultKBlock};
}

/// The task tile along a matmul dimension of static `extent`: `preferred`,
/// unless the last task would then have a size that is not a multiple of
/// the register tile `reg`. Such a task has a dynamic size whose register
/// remainder stays scalar (a dynamic edge cannot be peeled to static
/// vectors), so a divisor of `extent` between preferred/2 and 2*preferred is
/// taken instead, a multiple of `reg` first, then the nearest to
/// `preferred`: every task then has the same static size and its edge tile
/// is vectorised too. An extent of at most `preferred` is one task of that
/// static size. E.g. 784 output pixels (28x28) with preferred 128 and
/// reg 32: 112, not 6 x 128 + 16.
int64_t pickTaskTile(int64_t extent, int64_t preferred, int64_t reg) {
  if (ShapedType::isDynamic(extent) || preferred <= 0 ||
      (preferred % reg == 0 && (extent % preferred) % reg == 0)) {
    return preferred;
  }
  // One task along this dimension: its full (static) extent.
  if (extent <= preferred) {
    return extent;
  }
  int64_t best = 0;
  auto better = [&](int64_t t) {
    if (best == 0) {
      return true;
    }
    bool tAligned = t % reg == 0, bestAligned = best % reg == 0;
    if (tAligned != bestAligned) {
      return tAligned;
    }
    return std::abs(t - preferred) < std::abs(best - preferred);
  };
  for (int64_t t = std::max<int64_t>(1, preferred / 2); t <= 2 * preferred;
       ++t) {
    if (extent % t == 0 && better(t)) {
      best = t;
    }
  }
  return best == 0 ? preferred : best;
}

/// Tasks below which a GEMM's rows are split further: with one task of
/// 256x169 (SqueezeNet's 3x3 expand convolutions at 13x13, one image at a
/// time) the whole GEMM ran on one thread while the other waited. 8 tasks
/// balance 2 and 4 threads exactly and cost one fork either way.
constexpr int64_t kMinGemmTasks = 8;

/// Multiply-adds below which a GEMM is not split for kMinGemmTasks: a fork
/// and join of the thread team costs microseconds, about what 2^20
/// multiply-adds take on one core.
constexpr int64_t kMinSplitMacs = int64_t(1) << 20;

/// The task rows of a GEMM with loop ranges `ranges` (batch loops, M, N,
/// K) and task tiles `taskM` x `taskN`: `taskM` unless the GEMM would make
/// fewer than kMinGemmTasks tasks, then the rows that give about that many
/// (a multiple of the register tile `regM`, chosen by pickTaskTile so every
/// task has the same static size); GEMMs under kMinSplitMacs keep `taskM`.
/// Rows, not columns: each task then reads its own rows of A (the filter) and
/// shares B, which stays in cache.
int64_t splitTaskRows(ArrayRef<int64_t> ranges, unsigned numBatch,
                      int64_t taskM, int64_t taskN, int64_t regM) {
  int64_t tasks = 1;
  for (int64_t i = 0, e = numBatch + 2; i < e; ++i) {
    if (ShapedType::isDynamic(ranges[i])) {
      return taskM;
    }
  }
  for (unsigned i = 0; i < numBatch; ++i) {
    tasks *= ranges[i];
  }
  int64_t rows = ranges[numBatch], columns = ranges[numBatch + 1];
  int64_t depth = ranges.size() > numBatch + 2 ? ranges[numBatch + 2] : 1;
  if (ShapedType::isDynamic(depth) ||
      tasks * rows * columns * depth < kMinSplitMacs) {
    return taskM;
  }
  tasks *= llvm::divideCeil(columns, taskN);
  if (tasks * llvm::divideCeil(rows, taskM) >= kMinGemmTasks) {
    return taskM;
  }
  int64_t wanted = llvm::divideCeil(kMinGemmTasks, tasks);
  int64_t preferred = std::max<int64_t>(
      regM, llvm::divideCeil(llvm::divideCeil(rows, wanted), regM) * regM);
  if (preferred >= taskM) {
    return taskM;
  }
  // Only a tile that is a multiple of the register tile: another would
  // leave each task a scalar or odd-width edge.
  int64_t tile = pickTaskTile(rows, preferred, regM);
  return tile < taskM && tile % regM == 0 ? tile : taskM;
}

/// The task width of a GEMV over `columns` (static) columns of B: the
/// widest divisor of `columns` of at most kGemvTaskColumns that is a
/// multiple of `lanes` and leaves at least two tasks (a GEMV is bound by
/// memory, which both cores read faster than one). Each task then starts
/// on a vector boundary: tasks of 500 columns (1x1000x4096) made every
/// vector load of the second task straddle two cache lines and ran at half
/// the speed of one 1000-column task. Without such a divisor, one task of
/// all columns up to 2 x kGemvTaskColumns, else pickTaskTile's choice.
int64_t gemvTaskColumns(int64_t columns, int64_t lanes) {
  if (ShapedType::isDynamic(columns)) {
    return kGemvTaskColumns;
  }
  for (int64_t t = std::min(kGemvTaskColumns, columns / 2) / lanes * lanes;
       t >= 16 * lanes; t -= lanes) {
    if (columns % t == 0) {
      return t;
    }
  }
  if (columns <= 2 * kGemvTaskColumns) {
    return columns;
  }
  return pickTaskTile(columns, kGemvTaskColumns, lanes);
}

/// The operand types of a convolution `conv` (input, filter, init) when all
/// three are statically shaped with one float element type and it has one
/// result: what the convolution rewrites below handle.
struct ConvTypes {
  RankedTensorType input, filter, output;
  Type element;
};
std::optional<ConvTypes> staticFloatConv(linalg::LinalgOp conv) {
  if (conv->getNumOperands() != 3 || conv->getNumResults() != 1) {
    return std::nullopt;
  }
  auto it = dyn_cast<RankedTensorType>(conv->getOperand(0).getType());
  auto ft = dyn_cast<RankedTensorType>(conv->getOperand(1).getType());
  auto ot = dyn_cast<RankedTensorType>(conv->getOperand(2).getType());
  if (!it || !ft || !ot || !it.hasStaticShape() || !ft.hasStaticShape() ||
      !ot.hasStaticShape()) {
    return std::nullopt;
  }
  Type et = ot.getElementType();
  if (!isa<FloatType>(et) || it.getElementType() != et ||
      ft.getElementType() != et) {
    return std::nullopt;
  }
  return ConvTypes{it, ft, ot, et};
}

using graphc::indexAttrs;

/// Where one dimension of an im2col buffer reads its input ([N, C, H, W]):
/// the input dimension it indexes and its coefficient there.
struct GatherDim {
  unsigned input;
  int64_t scale;
};

/// The widest input stride along a copied row that im2colByRows copies with
/// vectors: a stride-2 row is read as twice its elements (one more load) and
/// compacted by a shuffle. Wider strides keep the scalar copy.
constexpr int64_t kMaxVectorGatherStride = 2;

/// Elements per copied row below which im2colByRows leaves the copy scalar
/// (the 1x1 filter gradients' rows of one element).
constexpr int64_t kMinVectorGatherRow = 4;

/// Emits an im2col buffer of the 6-D shape `colShape` as vector copies:
///
///   col[i0, ..., i5] = images[j0, j1, j2, j3],
///   jk = sum of dims[d].scale * id over the d with dims[d].input == k.
///
/// The innermost dimension must read the input's rows (W) at a stride of at
/// most kMaxVectorGatherStride: each row of `col` is then a segment of an
/// input row (padding was applied before), copied in whole vectors of
/// `lanes` f32 widths by a loop, then static power-of-two pieces (56 = 3 x
/// 16 + 8), each one vector.transfer_read and one vector.transfer_write; a
/// stride-2 segment is read contiguously and compacted by a shuffle. The
/// other dimensions are loops: the outer three an scf.forall (tasks) when
/// `parallel` and the buffer has kMinParallelElements or more, the rest
/// scf.for. The linalg.generic with the strides in its input map that this
/// replaces is rejected by the vectoriser (a non-permutation map) and
/// became one scalar load and store per element; one vectorised copy per
/// filter tap instead multiplied compile time by 10-30 (49 taps of a 7x7
/// filter), while this loop nest is the same few bodies for any filter.
/// Returns a null Value (emitting nothing) when the rows are not such
/// segments or are shorter than kMinVectorGatherRow elements.
Value im2colByRows(OpBuilder &b, Location loc, Value images,
                   ArrayRef<int64_t> colShape, ArrayRef<GatherDim> dims,
                   int64_t lanes, bool parallel) {
  auto imagesType = cast<RankedTensorType>(images.getType());
  Type et = imagesType.getElementType();
  unsigned bits = et.getIntOrFloatBitWidth();
  if (colShape.size() != 6 || dims.size() != 6 || imagesType.getRank() != 4 ||
      dims[5].input != 3 || dims[5].scale < 1 ||
      dims[5].scale > kMaxVectorGatherStride ||
      colShape[5] < kMinVectorGatherRow || bits < 8 ||
      (32 * lanes) % bits != 0) {
    return Value();
  }
  int64_t vlen = 32 * lanes / bits;
  int64_t stride = dims[5].scale, row = colShape[5];
  int64_t rowMain = row - row % vlen;
  SmallVector<int64_t> tails;
  for (int64_t rest = row % vlen; rest > 0;) {
    int64_t piece = int64_t(llvm::bit_floor(uint64_t(rest)));
    tails.push_back(piece);
    rest -= piece;
  }
  // The furthest start along W that the outer dimensions reach: whether a
  // piece may read w*stride contiguous elements and stay inside the row.
  int64_t farthest = 0;
  for (unsigned d = 0; d < 5; ++d) {
    if (dims[d].input == 3) {
      farthest += dims[d].scale * (colShape[d] - 1);
    }
  }
  int64_t width = imagesType.getDimSize(3);
  auto wideFits = [&](int64_t col0, int64_t w) {
    return farthest + (col0 + w) * stride <= width;
  };
  int64_t elements = 1;
  for (int64_t e : colShape) {
    elements *= e;
  }
  unsigned outer = parallel && elements >= kMinParallelElements ? 3 : 0;

  graphc::IndexMath im{b, loc};
  Value pad = arith::ConstantOp::create(b, loc, et, b.getZeroAttr(et));

  // Copies the row of `col` at `ivs` (dimensions 0-4) into `tile` (the
  // dimensions from `outer` on).
  auto copyRow = [&](Value tile, ArrayRef<Value> ivs) -> Value {
    SmallVector<Value> base(4, Value());
    for (unsigned d = 0; d < 5; ++d) {
      Value term = im.mul(ivs[d], dims[d].scale);
      Value &at = base[dims[d].input];
      at = at ? im.add(at, term) : term;
    }
    for (Value &at : base) {
      if (!at) {
        at = im.idx(0);
      }
    }
    auto piece = [&](Value into, Value col0, int64_t w, bool wide) -> Value {
      int64_t len = stride == 1 || w == 1
                        ? w
                        : (wide ? w * stride : (w - 1) * stride + 1);
      SmallVector<Value> from(base.begin(), base.end());
      from[3] = im.add(base[3], im.mul(col0, stride));
      Value v = vector::TransferReadOp::create(
          b, loc, VectorType::get({len}, et), images, from,
          std::optional<Value>(pad), ArrayRef<bool>{true});
      if (len != w) {
        SmallVector<int64_t> picks;
        for (int64_t l = 0; l < w; ++l) {
          picks.push_back(l * stride);
        }
        v = vector::ShuffleOp::create(b, loc, v, v, picks);
      }
      SmallVector<Value> to(ivs.begin() + outer, ivs.end());
      to.push_back(col0);
      return vector::TransferWriteOp::create(b, loc, v, into, to,
                                             ArrayRef<bool>{true})
          .getResult();
    };
    if (rowMain > 0) {
      bool wide = wideFits(rowMain - vlen, vlen);
      auto loop = scf::ForOp::create(
          b, loc, im.idx(0), im.idx(rowMain), im.idx(vlen), ValueRange{tile},
          [&](OpBuilder &, Location l, Value col0, ValueRange args) {
            scf::YieldOp::create(b, l, piece(args[0], col0, vlen, wide));
          });
      tile = loop.getResult(0);
    }
    int64_t col0 = rowMain;
    for (int64_t w : tails) {
      tile = piece(tile, im.idx(col0), w, wideFits(col0, w));
      col0 += w;
    }
    return tile;
  };
  // Loops over dimensions `d` to 4 around copyRow.
  std::function<Value(Value, SmallVector<Value> &, unsigned)> nest =
      [&](Value tile, SmallVector<Value> &ivs, unsigned d) -> Value {
    if (d == 5) {
      return copyRow(tile, ivs);
    }
    auto loop = scf::ForOp::create(
        b, loc, im.idx(0), im.idx(colShape[d]), im.idx(1), ValueRange{tile},
        [&](OpBuilder &, Location l, Value iv, ValueRange args) {
          ivs.push_back(iv);
          Value next = nest(args[0], ivs, d + 1);
          ivs.pop_back();
          scf::YieldOp::create(b, l, next);
        });
    return loop.getResult(0);
  };

  Value empty = tensor::EmptyOp::create(b, loc, colShape, et);
  if (outer == 0) {
    SmallVector<Value> ivs;
    return nest(empty, ivs, 0);
  }
  OpBuilder::InsertionGuard guard(b);
  auto forall =
      scf::ForallOp::create(b, loc, indexAttrs(b, colShape.take_front(outer)),
                            ValueRange{empty}, std::nullopt);
  b.setInsertionPoint(forall.getTerminator());
  SmallVector<Value> ivs = llvm::to_vector(forall.getInductionVars());
  Value out = forall.getRegionIterArgs()[0];
  SmallVector<OpFoldResult> offsets(6, b.getIndexAttr(0));
  SmallVector<int64_t> sizes(colShape);
  for (unsigned d = 0; d < outer; ++d) {
    offsets[d] = ivs[d];
    sizes[d] = 1;
  }
  SmallVector<OpFoldResult> unit(6, b.getIndexAttr(1));
  Value tile = tensor::ExtractSliceOp::create(
      b, loc, RankedTensorType::get(colShape.drop_front(outer), et), out,
      offsets, indexAttrs(b, sizes), unit);
  tile = nest(tile, ivs, outer);
  b.setInsertionPointToStart(forall.getTerminator().getBody());
  tensor::ParallelInsertSliceOp::create(b, loc, tile, out, offsets,
                                        indexAttrs(b, sizes), unit);
  return forall.getResult(0);
}

/// Rewrites `conv` (NCHW input, already padded; FCHW filter) into im2col
/// (one copy generic) plus a GEMM-shaped contraction that
/// the matmul strategy register-tiles:
///
///   col[n, c, kh, kw, oh, ow] = in[n, c, oh*sh + kh*dh, ow*sw + kw*dw]
///   out[n, o, p] += w[o, k] * col[n, k, p]      (k = c*kh*kw, p = oh*ow)
///
/// The contraction is a batch matmul over (n, o, p, k) with the filter
/// shared by every image, so batch needs no transpose and the output stays
/// NCHW. A 1x1 convolution at stride 1 reads its input as `col` directly (no
/// copy). Returns failure (and leaves `conv` alone) for non-float or mixed
/// element types, non-static shapes, and when the im2col buffer would exceed
/// kMaxIm2colElements.
LogicalResult convToGemm(RewriterBase &rewriter, linalg::Conv2DNchwFchwOp conv,
                         int64_t lanes, bool parallel) {
  Value input = conv->getOperand(0), filter = conv->getOperand(1);
  Value init = conv->getOperand(2);
  std::optional<ConvTypes> types = staticFloatConv(conv);
  if (!types) {
    return failure();
  }
  RankedTensorType it = types->input, ft = types->filter, ot = types->output;
  Type et = types->element;
  SmallVector<int64_t> strides =
      llvm::to_vector(conv.getStrides().getValues<int64_t>());
  SmallVector<int64_t> dilations =
      llvm::to_vector(conv.getDilations().getValues<int64_t>());
  int64_t n = ot.getDimSize(0), o = ot.getDimSize(1);
  int64_t oh = ot.getDimSize(2), ow = ot.getDimSize(3);
  int64_t c = ft.getDimSize(1), kh = ft.getDimSize(2), kw = ft.getDimSize(3);
  int64_t k = c * kh * kw, p = oh * ow;
  bool pointwise = kh == 1 && kw == 1 && strides[0] == 1 && strides[1] == 1 &&
                   it.getDimSize(2) == oh && it.getDimSize(3) == ow;
  // Several images go one at a time (below), so the im2col buffer holds one
  // image: its size does not depend on the batch.
  if (!pointwise && k * p > kMaxIm2colElements) {
    return failure();
  }
  MLIRContext *ctx = rewriter.getContext();
  Location loc = conv.getLoc();
  rewriter.setInsertionPoint(conv);
  auto d = [&](unsigned i) { return getAffineDimExpr(i, ctx); };
  auto yieldBody = [](OpBuilder &b, Location l, ValueRange args) {
    linalg::YieldOp::create(b, l, args[0]);
  };
  SmallVector<ReassociationIndices> toOK = {{0}, {1, 2, 3}};
  Value weights = tensor::CollapseShapeOp::create(rewriter, loc, filter, toOK);
  SmallVector<ReassociationIndices> toNOP = {{0}, {1}, {2, 3}};
  auto fill = init.getDefiningOp<linalg::FillOp>();

  // The scalar im2col, where im2colByRows does not apply (strides above 2,
  // rows under 4 columns): one generic with the strides and dilations in
  // its input map, over loops (c, kh, kw, n, oh, ow), C outermost.
  auto scalarIm2col = [&](Value images, ArrayRef<int64_t> colShape) -> Value {
    Value empty = tensor::EmptyOp::create(rewriter, loc, colShape, et);
    AffineMap read =
        AffineMap::get(6, 0,
                       {d(3), d(0), d(4) * strides[0] + d(1) * dilations[0],
                        d(5) * strides[1] + d(2) * dilations[1]},
                       ctx);
    AffineMap write =
        AffineMap::get(6, 0, {d(3), d(0), d(1), d(2), d(4), d(5)}, ctx);
    SmallVector<utils::IteratorType> iters(6, utils::IteratorType::parallel);
    return linalg::GenericOp::create(rewriter, loc, TypeRange{empty.getType()},
                                     ValueRange{images}, ValueRange{empty},
                                     ArrayRef<AffineMap>{read, write}, iters,
                                     yieldBody)
        .getResult(0);
  };
  // im2col of `images` ([nb, C, H, W]) and the GEMM into `acc` ([nb, O, P]).
  auto emitGemm = [&](Value images, Value acc, int64_t nb) -> Value {
    Value col;
    if (pointwise) {
      SmallVector<ReassociationIndices> toNKP = {{0}, {1}, {2, 3}};
      col = tensor::CollapseShapeOp::create(rewriter, loc, images, toNKP);
    } else {
      // Rows of output columns are segments of input rows: vector copies
      // (im2colByRows), C outermost to spread over threads even at batch 1.
      SmallVector<int64_t> colShape = {nb, c, kh, kw, oh, ow};
      Value cols = im2colByRows(rewriter, loc, images, colShape,
                                {{0, 1},
                                 {1, 1},
                                 {2, dilations[0]},
                                 {3, dilations[1]},
                                 {2, strides[0]},
                                 {3, strides[1]}},
                                lanes, parallel);
      if (!cols) {
        cols = scalarIm2col(images, colShape);
      }
      SmallVector<ReassociationIndices> toNKP = {{0}, {1, 2, 3}, {4, 5}};
      col = tensor::CollapseShapeOp::create(rewriter, loc, cols, toNKP);
    }
    // A batch matmul over (n, o, p, k) whose filter operand has no batch
    // dimension (broadcast through its indexing map): batch, M, N, K of the
    // matmul strategy, and a named contraction, so the register tile
    // becomes one vector.contract.
    SmallVector<Attribute> maps = {
        AffineMapAttr::get(AffineMap::get(4, 0, {d(1), d(3)}, ctx)),
        AffineMapAttr::get(AffineMap::get(4, 0, {d(0), d(3), d(2)}, ctx)),
        AffineMapAttr::get(AffineMap::get(4, 0, {d(0), d(1), d(2)}, ctx))};
    auto gemmOp = linalg::BatchMatmulOp::create(
        rewriter, loc, TypeRange{acc.getType()}, ValueRange{weights, col},
        ValueRange{acc});
    gemmOp.setIndexingMapsAttr(rewriter.getArrayAttr(maps));
    return gemmOp.getResult(0);
  };
  // The fill's destination as [N, O, P]: a tensor.empty (the collapse
  // folds), or a slice of a larger result (groupedConvToPerGroup's group of
  // output channels), which the GEMM then writes in place.
  Value fillDest;
  if (fill && fill.getOutputs()[0].getDefiningOp<tensor::EmptyOp>()) {
    // A new empty tensor, not a reshape of one: empty-tensor elimination
    // does not look through reshapes (nor does the canonicalizer fold
    // them into the empty tensor).
    fillDest =
        tensor::EmptyOp::create(rewriter, loc, ArrayRef<int64_t>{n, o, p}, et);
  } else if (fill) {
    fillDest = tensor::CollapseShapeOp::create(rewriter, loc,
                                               fill.getOutputs()[0], toNOP);
  }
  // A zero fill is re-created on the GEMM's accumulator `out` so the matmul
  // strategy fuses it into its tasks.
  auto fillOf = [&](Value out) -> Value {
    return linalg::FillOp::create(
               rewriter, loc, ValueRange{fill.getInputs()[0]}, ValueRange{out})
        .getResult(0);
  };

  // Any accumulator other than a zero fill is read back, as [N, O, P].
  Value collapsedInit =
      fill ? Value()
           : tensor::CollapseShapeOp::create(rewriter, loc, init, toNOP)
                 .getResult();
  Value gemm;
  if (pointwise || n == 1 || n * k * p <= kMaxBatchIm2colElements) {
    gemm = emitGemm(input, fill ? fillOf(fillDest) : collapsedInit, n);
  } else {
    // One image per iteration: im2col of the whole batch materialised a
    // buffer N times the size of one image's (58 MB for a 3x3 64->64 layer
    // at batch 8) before the GEMM read it back, which ran batch 8 at a
    // third of batch 1's per-image rate. One image's panel stays in cache.
    Value out = fill ? fillDest : collapsedInit;
    Value zero = arith::ConstantIndexOp::create(rewriter, loc, 0);
    Value upper = arith::ConstantIndexOp::create(rewriter, loc, n);
    Value one = arith::ConstantIndexOp::create(rewriter, loc, 1);
    auto loop =
        scf::ForOp::create(rewriter, loc, zero, upper, one, ValueRange{out});
    OpBuilder::InsertionGuard guard(rewriter);
    rewriter.setInsertionPointToStart(loop.getBody());
    Value i = loop.getInductionVar();
    Value carried = loop.getRegionIterArgs()[0];
    auto offsets = [&](unsigned rank) {
      SmallVector<OpFoldResult> offs(rank, rewriter.getIndexAttr(0));
      offs[0] = i;
      return offs;
    };
    auto ones = [&](unsigned rank) {
      return SmallVector<OpFoldResult>(rank, rewriter.getIndexAttr(1));
    };
    auto sizes = [&](ArrayRef<int64_t> shape) {
      SmallVector<OpFoldResult> sz;
      for (int64_t e : shape) {
        sz.push_back(rewriter.getIndexAttr(e));
      }
      sz[0] = rewriter.getIndexAttr(1);
      return sz;
    };
    auto imageType = RankedTensorType::get(
        {1, it.getDimSize(1), it.getDimSize(2), it.getDimSize(3)}, et);
    Value image = tensor::ExtractSliceOp::create(rewriter, loc, imageType,
                                                 input, offsets(4),
                                                 sizes(it.getShape()), ones(4));
    SmallVector<int64_t> nop = {n, o, p};
    // One image's fill on a fresh tensor: the insert_slice below makes it
    // the image's slice of `carried` (empty-tensor elimination).
    Value acc = fill ? fillOf(tensor::EmptyOp::create(
                           rewriter, loc, ArrayRef<int64_t>{1, o, p}, et))
                     : tensor::ExtractSliceOp::create(
                           rewriter, loc, RankedTensorType::get({1, o, p}, et),
                           carried, offsets(3), sizes(nop), ones(3))
                           .getResult();
    Value imageGemm = emitGemm(image, acc, 1);
    Value updated = tensor::InsertSliceOp::create(
        rewriter, loc, imageGemm, carried, offsets(3), sizes(nop), ones(3));
    scf::YieldOp::create(rewriter, loc, updated);
    gemm = loop.getResult(0);
  }
  Value result = tensor::ExpandShapeOp::create(rewriter, loc, ot, gemm, toNOP);
  rewriter.replaceOp(conv, result);
  return success();
}

/// Output pixels per image below which a convolution whose filter is larger
/// than its output (below) puts the images into the GEMM's N dimension.
/// convToGemm's per-image GEMM has N = the output pixels: at 1 (the filter
/// gradient of a 1x1 convolution) it is a matrix-vector product that reads
/// the whole filter once per image, and the rewrite took ResNet-18's 1x1
/// stride-2 filter gradients from 8.9-14.8 to 5.0-7.0 ms of CPU per step.
/// At 9 (3x3 filter gradients) and 49 (the 7x7 stem) the images-in-N form
/// measured the same or up to 40% slower (its accumulator, its transpose
/// back and fresh buffers cost as much as it saved); those take the
/// images-in-M form or convToGemm instead (kMinWideFilterBytes).
constexpr int64_t kMaxWideOutputPixels = 8;

/// Filter bytes above which a convolution with a filter larger than its
/// output and kMaxWideOutputPixels or more output pixels (3x3 and 7x7
/// filter gradients) puts its images and pixels into the GEMM's M
/// (wideFilterConvToGemm): convToGemm's per-image GEMM reads the whole
/// filter (dY, N*Ho*Wo taps per output channel) once per image, from L2
/// while it fits there. Measured (CPU time, one thread, batch 8): ResNet-18
/// layer 1's 3x3 filter gradient (6.4 MB) 50.7 -> 34.2 ms; layer 3's
/// stride-2 one (1.6 MB) 18.5 -> 21.6 ms, so it stays per image.
constexpr int64_t kMinWideFilterBytes = int64_t(2) << 20;

/// K of one GEMM in wideFilterConvToGemm: input channels are taken in
/// chunks of at least this many (channel, tap) rows, so that a 7x7 filter
/// (49 taps) is not a K of 49 per GEMM, and the accumulator is read and
/// written once per chunk.
constexpr int64_t kMinWideK = 256;

/// Rewrites a convolution whose output is smaller than its filter (fewer
/// output pixels per image than filter taps) into im2col + GEMMs that do
/// not go image by image: autodiff's filter gradient is such a convolution
/// (the forward input with its batch as channels, convolved by the output
/// adjoint as a filter of Ho x Wo taps; the output is the KH x KW filter).
/// With `in` [B, C, H, W] (padded), `w` [O, C, T] (T = KH*KW taps) and
/// `out` [B, O, Q] (Q = OH*OW), over chunks of Cb input channels carried by
/// an scf.for, one linalg.matmul per chunk:
///
/// * Q < kMaxWideOutputPixels: the images in N (M = O, N = B*Q, K = Cb*T),
///     col[c, kh, kw, b, oh, ow] = in[b, c0 + c, oh*sh + kh*dh, ow*sw + kw*dw]
///     acc[o, (b, q)] += w[o, (c0 + c, t)] * col[(c, t), (b, q)]
/// * otherwise, when the filter exceeds kMinWideFilterBytes: the images and
///   pixels in M (M = B*Q, N = O, K = Cb*T), the filter transposed once,
///     colT[b, oh, ow, c, kh, kw] = in[b, c0 + c, oh*sh + kh*dh, ...]
///     acc[(b, q), o] += colT[(b, q), (c0 + c, t)] * wT[(c0 + c, t), o]
///
/// and `out` = acc transposed to [B, O, Q] at the end (O*B*Q elements: the
/// filter gradient's size). convToGemm's per-image GEMM would be O x Q x
/// C*T, one per image, each reading all of `w`: for ResNet-18's 1x1 filter
/// gradients 128..512 matrix-vector products, for its first layer's 3x3
/// ones 64 passes over a 6.4 MB filter. Returns failure (leaving `conv`
/// alone) unless the convolution has one of those shapes, is float with
/// static shapes, and one chunk's buffer fits kMaxIm2colElements.
LogicalResult wideFilterConvToGemm(RewriterBase &rewriter,
                                   linalg::Conv2DNchwFchwOp conv, int64_t lanes,
                                   bool parallel) {
  Value input = conv->getOperand(0), filter = conv->getOperand(1);
  Value init = conv->getOperand(2);
  std::optional<ConvTypes> types = staticFloatConv(conv);
  if (!types) {
    return failure();
  }
  RankedTensorType it = types->input, ft = types->filter, ot = types->output;
  Type et = types->element;
  SmallVector<int64_t> strides =
      llvm::to_vector(conv.getStrides().getValues<int64_t>());
  SmallVector<int64_t> dilations =
      llvm::to_vector(conv.getDilations().getValues<int64_t>());
  int64_t b = ot.getDimSize(0), o = ot.getDimSize(1);
  int64_t oh = ot.getDimSize(2), ow = ot.getDimSize(3);
  int64_t c = ft.getDimSize(1), kh = ft.getDimSize(2), kw = ft.getDimSize(3);
  int64_t h = it.getDimSize(2), w = it.getDimSize(3);
  int64_t q = oh * ow, t = kh * kw;
  if (b < 2 || q >= t) {
    return failure();
  }
  // Few output pixels: the images and pixels are the GEMM's N (M = O).
  // Otherwise they are its M and the filter's rows its N, when the filter
  // is too large for convToGemm's per-image GEMM, which reads all of it
  // once per image, to find it in L2.
  bool pixelsInM = q >= kMaxWideOutputPixels;
  if (pixelsInM && o * c * t * int64_t(et.getIntOrFloatBitWidth() / 8) <=
                       kMinWideFilterBytes) {
    return failure();
  }
  // The smallest divisor of C whose chunk reaches kMinWideK rows of K.
  int64_t cb = c;
  for (int64_t d = 1; d <= c; ++d) {
    if (c % d == 0 && d * t >= kMinWideK) {
      cb = d;
      break;
    }
  }
  if (cb * t * b * q > kMaxIm2colElements) {
    return failure();
  }
  MLIRContext *ctx = rewriter.getContext();
  Location loc = conv.getLoc();
  rewriter.setInsertionPoint(conv);
  auto dim = [&](unsigned i) { return getAffineDimExpr(i, ctx); };
  auto yieldBody = [](OpBuilder &nb, Location l, ValueRange args) {
    linalg::YieldOp::create(nb, l, args[0]);
  };
  auto permute = [&](Value source, ArrayRef<int64_t> shape,
                     ArrayRef<unsigned> perm) -> Value {
    // result[i...] = source[perm(i)...] as a generic (a permutation map).
    SmallVector<AffineExpr> read;
    for (unsigned p : perm) {
      read.push_back(dim(p));
    }
    unsigned rank = shape.size();
    Value empty = tensor::EmptyOp::create(rewriter, loc, shape, et);
    SmallVector<utils::IteratorType> iters(rank, utils::IteratorType::parallel);
    return linalg::GenericOp::create(
               rewriter, loc, TypeRange{empty.getType()}, ValueRange{source},
               ValueRange{empty},
               ArrayRef<AffineMap>{AffineMap::get(rank, 0, read, ctx),
                                   rewriter.getMultiDimIdentityMap(rank)},
               iters, yieldBody)
        .getResult(0);
  };

  // The accumulator, [O, B*Q] (or [B*Q, O] with pixelsInM): a zero fill,
  // or `init` transposed.
  auto fill = init.getDefiningOp<linalg::FillOp>();
  SmallVector<ReassociationIndices> toBOQ = {{0}, {1}, {2, 3}};
  SmallVector<ReassociationIndices> toOX = {{0}, {1, 2}};
  SmallVector<ReassociationIndices> toXO = {{0, 1}, {2}};
  SmallVector<int64_t> accShape = pixelsInM ? SmallVector<int64_t>{b * q, o}
                                            : SmallVector<int64_t>{o, b * q};
  Value acc;
  if (fill) {
    Value empty = tensor::EmptyOp::create(rewriter, loc, accShape, et);
    acc = linalg::FillOp::create(rewriter, loc, ValueRange{fill.getInputs()[0]},
                                 ValueRange{empty})
              .getResult(0);
  } else if (pixelsInM) {
    Value boq = tensor::CollapseShapeOp::create(rewriter, loc, init, toBOQ);
    Value bqo = permute(boq, {b, q, o}, {0, 2, 1});
    acc = tensor::CollapseShapeOp::create(rewriter, loc, bqo, toXO);
  } else {
    Value boq = tensor::CollapseShapeOp::create(rewriter, loc, init, toBOQ);
    Value obq = permute(boq, {o, b, q}, {1, 0, 2});
    acc = tensor::CollapseShapeOp::create(rewriter, loc, obq, toOX);
  }
  // With pixelsInM the filter is the GEMM's B, [C*T, O]: transposed once.
  Value filterT =
      pixelsInM ? permute(filter, {c, kh, kw, o}, {3, 0, 1, 2}) : Value();

  // One chunk: im2col of channels [c0, c0 + cb) and its GEMM into `into`.
  auto emitChunk = [&](OpBuilder &ob, Value c0, Value into) -> Value {
    auto offsets = [&](unsigned rank) {
      SmallVector<OpFoldResult> offs(rank, ob.getIndexAttr(0));
      offs[1] = c0;
      return offs;
    };
    SmallVector<OpFoldResult> unit(4, ob.getIndexAttr(1));
    Value images = tensor::ExtractSliceOp::create(
        ob, loc, RankedTensorType::get({b, cb, h, w}, et), input, offsets(4),
        indexAttrs(ob, {b, cb, h, w}), unit);
    // The chunk's im2col: a copy of `images` into a 6-D `colShape`, whose
    // first and last three dimensions are the GEMM operand's rows and
    // columns, and whose dimension d reads input dimension gathers[d]
    // (im2colByRows). Vector copies along input rows where those are the
    // innermost dimension, else a parallel generic reading through `read`.
    auto gather = [&](ArrayRef<int64_t> colShape, ArrayRef<GatherDim> gathers,
                      AffineMap read) -> Value {
      Value cols =
          im2colByRows(ob, loc, images, colShape, gathers, lanes, parallel);
      if (!cols) {
        Value empty = tensor::EmptyOp::create(ob, loc, colShape, et);
        SmallVector<utils::IteratorType> iters(6,
                                               utils::IteratorType::parallel);
        cols = linalg::GenericOp::create(
                   ob, loc, TypeRange{empty.getType()}, ValueRange{images},
                   ValueRange{empty},
                   ArrayRef<AffineMap>{read, ob.getMultiDimIdentityMap(6)},
                   iters, yieldBody)
                   .getResult(0);
      }
      SmallVector<ReassociationIndices> to2D = {{0, 1, 2}, {3, 4, 5}};
      return tensor::CollapseShapeOp::create(ob, loc, cols, to2D);
    };
    if (pixelsInM) {
      // colT[b, oh, ow, c, kh, kw]: loops in the write order, K (the filter
      // taps, along the input's rows) innermost; the GEMM
      // acc[(b, q), o] += colT[(b, q), (c, t)] * filterT[(c, t), o].
      SmallVector<OpFoldResult> at(4, ob.getIndexAttr(0));
      at[0] = c0;
      Value taps = tensor::ExtractSliceOp::create(
          ob, loc, RankedTensorType::get({cb, kh, kw, o}, et), filterT, at,
          indexAttrs(ob, {cb, kh, kw, o}), unit);
      SmallVector<ReassociationIndices> toKO = {{0, 1, 2}, {3}};
      Value weights = tensor::CollapseShapeOp::create(ob, loc, taps, toKO);
      Value col =
          gather({b, oh, ow, cb, kh, kw},
                 {{0, 1},
                  {2, strides[0]},
                  {3, strides[1]},
                  {1, 1},
                  {2, dilations[0]},
                  {3, dilations[1]}},
                 AffineMap::get(6, 0,
                                {dim(0), dim(3),
                                 dim(1) * strides[0] + dim(4) * dilations[0],
                                 dim(2) * strides[1] + dim(5) * dilations[1]},
                                ctx));
      return linalg::MatmulOp::create(ob, loc, TypeRange{into.getType()},
                                      ValueRange{col, weights},
                                      ValueRange{into})
          .getResult(0);
    }
    Value taps = tensor::ExtractSliceOp::create(
        ob, loc, RankedTensorType::get({o, cb, kh, kw}, et), filter, offsets(4),
        indexAttrs(ob, {o, cb, kh, kw}), unit);
    SmallVector<ReassociationIndices> toOK = {{0}, {1, 2, 3}};
    Value weights = tensor::CollapseShapeOp::create(ob, loc, taps, toOK);
    // Loops (c, kh, kw, b, oh, ow), the write order: K rows outermost, the
    // image's output columns innermost.
    Value col =
        gather({cb, kh, kw, b, oh, ow},
               {{1, 1},
                {2, dilations[0]},
                {3, dilations[1]},
                {0, 1},
                {2, strides[0]},
                {3, strides[1]}},
               AffineMap::get(6, 0,
                              {dim(3), dim(0),
                               dim(4) * strides[0] + dim(1) * dilations[0],
                               dim(5) * strides[1] + dim(2) * dilations[1]},
                              ctx));
    return linalg::MatmulOp::create(ob, loc, TypeRange{into.getType()},
                                    ValueRange{weights, col}, ValueRange{into})
        .getResult(0);
  };
  Value zero = arith::ConstantIndexOp::create(rewriter, loc, 0);
  if (cb == c) {
    acc = emitChunk(rewriter, zero, acc);
  } else {
    Value upper = arith::ConstantIndexOp::create(rewriter, loc, c);
    Value step = arith::ConstantIndexOp::create(rewriter, loc, cb);
    auto loop =
        scf::ForOp::create(rewriter, loc, zero, upper, step, ValueRange{acc});
    {
      OpBuilder::InsertionGuard guard(rewriter);
      rewriter.setInsertionPointToStart(loop.getBody());
      Value next = emitChunk(rewriter, loop.getInductionVar(),
                             loop.getRegionIterArgs()[0]);
      scf::YieldOp::create(rewriter, loc, next);
    }
    acc = loop.getResult(0);
  }
  // [O, B*Q] -> [O, B, Q] -> [B, O, Q] (or [B*Q, O] -> [B, Q, O] -> [B, O,
  // Q]) -> [B, O, OH, OW].
  Value boq;
  if (pixelsInM) {
    Value bqo = tensor::ExpandShapeOp::create(
        rewriter, loc, RankedTensorType::get({b, q, o}, et), acc, toXO);
    boq = permute(bqo, {b, o, q}, {0, 2, 1});
  } else {
    SmallVector<ReassociationIndices> fromOX = {{0}, {1, 2}};
    Value obq = tensor::ExpandShapeOp::create(
        rewriter, loc, RankedTensorType::get({o, b, q}, et), acc, fromOX);
    boq = permute(obq, {b, o, q}, {1, 0, 2});
  }
  Value result = tensor::ExpandShapeOp::create(rewriter, loc, ot, boq, toBOQ);
  rewriter.replaceOp(conv, result);
  return success();
}

/// Output rows a depthwise or pooling task computes together: each row is
/// an independent chain of KH*KW fused multiply-adds (or maxima), so several
/// rows keep both vector ports busy (one chain waits out the latency on
/// every tap), and with stride 1 neighbouring rows read the same input rows
/// from L1.
constexpr int64_t kDepthwiseRows = 4;

/// One output plane of a window op that works plane by plane (a depthwise
/// convolution, a pooling): output [oh, ow] from a padded input plane
/// [hp, wp], window kh x kw, strides and dilations.
struct PlaneWindow {
  int64_t oh, ow, hp, wp, kh, kw, sh, sw, dh, dw;
  Type element;
};

/// Columns of a plane kernel: a loop over whole vectors of `lanes`, then the
/// rest as static power-of-two pieces (12 = 8 + 4, 7 = 4 + 2 + 1).
SmallVector<int64_t> planeTails(int64_t ow, int64_t lanes) {
  SmallVector<int64_t> tails;
  for (int64_t rest = ow % lanes; rest > 0;) {
    int64_t piece = int64_t(llvm::bit_floor(uint64_t(rest)));
    tails.push_back(piece);
    rest -= piece;
  }
  return tails;
}

/// Whether planeWindowLoops would unroll past kMaxConvUnroll operations.
bool planeWindowTooLarge(const PlaneWindow &pw, int64_t lanes) {
  if (pw.ow == 0 || pw.oh == 0) {
    return true;
  }
  int64_t owMain = pw.ow - pw.ow % lanes;
  int64_t tails = int64_t(planeTails(pw.ow, lanes).size());
  int64_t rows = std::min(kDepthwiseRows, pw.oh);
  int64_t bodies = (int64_t(owMain > 0) + tails) * (pw.oh % rows ? 2 : 1);
  return pw.kh * pw.kw * rows * bodies > kMaxConvUnroll;
}

/// Folds the input vector `v` of tap `tap` (row-major in the window) into
/// the accumulator vector `acc` of width `width`.
using TapCombiner =
    function_ref<Value(Value acc, Value v, int64_t tap, int64_t width)>;

/// Maps a finished accumulator vector (output row `row`, columns from
/// `col0`) to the value stored: an epilogue (depthwiseConv's batch norm).
using TileFinisher = function_ref<Value(Value acc, Value row, Value col0)>;

/// The `w` input elements of one output row segment at stride `sw` from
/// `at` (the segment's first input element in `image`, its last dimension
/// the row): one contiguous read compacted by a shuffle when strided, of
/// w * sw elements when `wide` (they stay inside the row, so the read is a
/// power of two), else (w - 1) * sw + 1.
Value loadRowSegment(RewriterBase &rewriter, Location loc, Value image,
                     ValueRange at, int64_t w, int64_t sw, bool wide) {
  auto it = cast<RankedTensorType>(image.getType());
  Type et = it.getElementType();
  int64_t len = sw == 1 || w == 1 ? w : (wide ? w * sw : (w - 1) * sw + 1);
  Value pad =
      arith::ConstantOp::create(rewriter, loc, et, rewriter.getZeroAttr(et));
  Value v = vector::TransferReadOp::create(
      rewriter, loc, VectorType::get({len}, et), image, at,
      std::optional<Value>(pad), ArrayRef<bool>{true});
  if (len == w) {
    return v;
  }
  SmallVector<int64_t> picks;
  for (int64_t l = 0; l < w; ++l) {
    picks.push_back(l * sw);
  }
  return vector::ShuffleOp::create(rewriter, loc, v, v, picks);
}

/// Emits, at the rewriter's insertion point, the loops that compute one
/// output plane `plane` ([oh, ow]) from the input plane `image` ([hp, wp])
/// and returns the new plane. They walk blocks of kDepthwiseRows output rows
/// by `lanes` output columns; for each block they keep one accumulator
/// vector per row (starting at `init` broadcast, or at the plane's elements
/// when `init` is null) and, unrolled over the window, load an input row
/// segment and `combine` it in. A strided row segment is loaded as one
/// contiguous vector and compacted by a shuffle. Columns that do not fill a
/// vector go in static power-of-two pieces (no masks, no odd widths that
/// LLVM would split into shuffles); rows that do not fill a block are one
/// static block. `finish`, when given, maps each accumulator before its
/// store. Callers check planeWindowTooLarge first.
Value planeWindowLoops(RewriterBase &rewriter, Location loc,
                       const PlaneWindow &pw, int64_t lanes, Value image,
                       Value plane, Value init, TapCombiner combine,
                       TileFinisher finish = nullptr) {
  Type et = pw.element;
  int64_t owMain = pw.ow - pw.ow % lanes;
  SmallVector<int64_t> tails = planeTails(pw.ow, lanes);
  int64_t rows = std::min(kDepthwiseRows, pw.oh);
  int64_t ohMain = pw.oh - pw.oh % rows, ohTail = pw.oh % rows;
  int64_t sh = pw.sh, sw = pw.sw, kh = pw.kh, kw = pw.kw;
  graphc::IndexMath im{rewriter, loc};
  Value pad =
      arith::ConstantOp::create(rewriter, loc, et, rewriter.getZeroAttr(et));

  // One block: `nrows` output rows from `row0` by `w` columns from `col0`.
  // `wide`: reading w*sw contiguous elements stays inside the row, so a
  // strided read is a power-of-two load plus a shuffle.
  auto block = [&](Value acc, Value row0, int64_t nrows, Value col0, int64_t w,
                   bool wide) -> Value {
    auto vt = VectorType::get({w}, et);
    SmallVector<Value> outRows, accs;
    for (int64_t r = 0; r < nrows; ++r) {
      outRows.push_back(im.add(row0, im.idx(r)));
      accs.push_back(
          init
              ? vector::BroadcastOp::create(rewriter, loc, vt, init).getResult()
              : vector::TransferReadOp::create(
                    rewriter, loc, vt, acc, ValueRange{outRows[r], col0},
                    std::optional<Value>(pad), ArrayRef<bool>{true})
                    .getResult());
    }
    Value colBase = im.mul(col0, sw);
    for (int64_t i = 0; i < kh; ++i) {
      for (int64_t j = 0; j < kw; ++j) {
        Value col = im.add(colBase, im.idx(j * pw.dw));
        for (int64_t r = 0; r < nrows; ++r) {
          Value row = im.add(im.mul(outRows[r], sh), im.idx(i * pw.dh));
          Value v = loadRowSegment(rewriter, loc, image, ValueRange{row, col},
                                   w, sw, wide);
          accs[r] = combine(accs[r], v, i * kw + j, w);
        }
      }
    }
    for (int64_t r = 0; r < nrows; ++r) {
      if (finish) {
        accs[r] = finish(accs[r], outRows[r], col0);
      }
      acc = vector::TransferWriteOp::create(rewriter, loc, accs[r], acc,
                                            ValueRange{outRows[r], col0},
                                            ArrayRef<bool>{true})
                .getResult();
    }
    return acc;
  };
  // Whether a block of `w` columns starting at output column `col0` may
  // read w*sw contiguous elements at its last tap.
  auto wideFits = [&](int64_t col0, int64_t w) {
    return col0 * sw + (kw - 1) * pw.dw + w * sw <= pw.wp;
  };
  // One band of `nrows` output rows from `row0`: whole vectors in a loop,
  // then the static pieces.
  auto band = [&](Value acc, Value row0, int64_t nrows) -> Value {
    if (owMain > 0) {
      bool wide = wideFits(owMain - lanes, lanes);
      auto loop = scf::ForOp::create(
          rewriter, loc, im.idx(0), im.idx(owMain), im.idx(lanes),
          ValueRange{acc},
          [&](OpBuilder &, Location l, Value col0, ValueRange args) {
            Value r = block(args[0], row0, nrows, col0, lanes, wide);
            scf::YieldOp::create(rewriter, l, r);
          });
      acc = loop.getResult(0);
    }
    int64_t col0 = owMain;
    for (int64_t w : tails) {
      acc = block(acc, row0, nrows, im.idx(col0), w, wideFits(col0, w));
      col0 += w;
    }
    return acc;
  };
  Value acc = plane;
  if (ohMain > 0) {
    auto loop = scf::ForOp::create(
        rewriter, loc, im.idx(0), im.idx(ohMain), im.idx(rows), ValueRange{acc},
        [&](OpBuilder &, Location l, Value row0, ValueRange args) {
          scf::YieldOp::create(rewriter, l, band(args[0], row0, rows));
        });
    acc = loop.getResult(0);
  }
  if (ohTail > 0) {
    acc = band(acc, im.idx(ohMain), ohTail);
  }
  return acc;
}

/// Whether `op` is a tensor.expand_shape or tensor.collapse_shape that leaves
/// the last two dimensions (an image plane) alone: each is the last of its
/// reassociation group, whose other dimensions are unit ones (graph-to-linalg
/// expands [N, C, H, W] to [N, G, C/G, H, W] with [[0], [1, 2], [3], [4]],
/// ShuffleNet's shuffle to [.., 1, H, W] with [.., [3, 4], [5]]).
bool reshapeKeepsPlane(Operation *op) {
  SmallVector<ReassociationIndices> groups;
  if (auto expand = dyn_cast<tensor::ExpandShapeOp>(op)) {
    groups = expand.getReassociationIndices();
  } else if (auto collapse = dyn_cast<tensor::CollapseShapeOp>(op)) {
    groups = collapse.getReassociationIndices();
  } else {
    return false;
  }
  auto type = dyn_cast<RankedTensorType>(op->getResult(0).getType());
  auto src = dyn_cast<RankedTensorType>(op->getOperand(0).getType());
  if (!type || !src || !type.hasStaticShape() || !src.hasStaticShape() ||
      groups.size() < 2) {
    return false;
  }
  // The groups index the dimensions of the side with more of them; the
  // last two groups end in the plane's dimensions, anything else in them
  // is a unit dimension.
  RankedTensorType big = type.getRank() > src.getRank() ? type : src;
  int64_t last = big.getRank() - 1;
  for (int64_t i = 0; i < 2; ++i) {
    ArrayRef<int64_t> group = groups[groups.size() - 1 - i];
    if (group.back() != last - i ||
        llvm::any_of(group.drop_back(),
                     [&](int64_t d) { return big.getDimSize(d) != 1; })) {
      return false;
    }
  }
  return true;
}

/// When `input` is a static tensor.pad by a constant on its last two
/// dimensions only, possibly followed by reshapes of the leading dimensions
/// (reshapeKeepsPlane; ShuffleNet's channel shuffle leaves
/// expand_shape + collapse_shape between the pad and the depthwise
/// convolution), and the padding value is visible inside `forall`: the
/// padded [hp, wp] plane at `lead` (the offsets of the dimensions before
/// the plane in `input`) built inside the task from the unpadded source, so
/// that no padded copy of the whole batch is written and read back (13 MB
/// for MobileNet-v2's first depthwise layer at batch 8, a fresh allocation
/// every step, whose page faults cost more than the convolution; one plane
/// stays in L2). The reshapes are replayed on the unpadded source before
/// `forall`. With `channels` > 0, `channels` planes from `lead`'s last
/// offset on as one [channels, hp, wp] tensor (the input planes of a group,
/// groupedPlaneConv). Null otherwise.
Value padPlaneInTask(RewriterBase &rewriter, Location loc, Value input,
                     scf::ForallOp forall, ArrayRef<OpFoldResult> lead,
                     int64_t hp, int64_t wp, Type et, int64_t channels = 0) {
  SmallVector<Operation *> reshapes;
  Value v = input;
  while (Operation *def = v.getDefiningOp()) {
    if (!reshapeKeepsPlane(def)) {
      break;
    }
    reshapes.push_back(def);
    v = def->getOperand(0);
  }
  auto padOp = v.getDefiningOp<tensor::PadOp>();
  Value padValue = padOp ? padOp.getConstantPaddingValue() : Value();
  auto source = padOp ? dyn_cast<RankedTensorType>(padOp.getSourceType())
                      : RankedTensorType();
  if (!padValue || !source || !source.hasStaticShape() ||
      source.getRank() < 2 ||
      ShapedType::isDynamicShape(padOp.getStaticLow()) ||
      ShapedType::isDynamicShape(padOp.getStaticHigh()) ||
      !padValue.getParentRegion()->isAncestor(forall->getParentRegion())) {
    return Value();
  }
  int64_t rank = source.getRank();
  for (int64_t d = 0; d < rank - 2; ++d) {
    if (padOp.getStaticLow()[d] != 0 || padOp.getStaticHigh()[d] != 0) {
      return Value();
    }
  }
  int64_t h = source.getDimSize(rank - 2), w = source.getDimSize(rank - 1);
  // The reshapes again, on the unpadded source: the same groups, the plane
  // at its unpadded size.
  Value unpadded = padOp.getSource();
  {
    OpBuilder::InsertionGuard guard(rewriter);
    rewriter.setInsertionPoint(forall);
    for (Operation *reshape : llvm::reverse(reshapes)) {
      auto type = cast<RankedTensorType>(reshape->getResult(0).getType());
      SmallVector<int64_t> shape = llvm::to_vector(type.getShape());
      shape[shape.size() - 2] = h;
      shape.back() = w;
      auto newType = RankedTensorType::get(shape, et);
      if (auto expand = dyn_cast<tensor::ExpandShapeOp>(reshape)) {
        unpadded = tensor::ExpandShapeOp::create(
            rewriter, loc, newType, unpadded, expand.getReassociationIndices());
      } else {
        unpadded = tensor::CollapseShapeOp::create(
            rewriter, loc, newType, unpadded,
            cast<tensor::CollapseShapeOp>(reshape).getReassociationIndices());
      }
    }
  }
  auto unpaddedType = cast<RankedTensorType>(unpadded.getType());
  if (int64_t(lead.size()) + 2 != unpaddedType.getRank()) {
    return Value();
  }
  SmallVector<OpFoldResult> srcOffsets = llvm::to_vector(lead);
  srcOffsets.append({rewriter.getIndexAttr(0), rewriter.getIndexAttr(0)});
  SmallVector<int64_t> sizes(lead.size(), 1), strides(lead.size() + 2, 1);
  sizes.append({h, w});
  // The planes' leading shape: [channels] or none.
  SmallVector<int64_t> stack;
  if (channels > 0) {
    sizes[lead.size() - 1] = channels;
    stack.push_back(channels);
  }
  auto shaped = [&](int64_t rows, int64_t cols) {
    SmallVector<int64_t> shape = stack;
    shape.append({rows, cols});
    return RankedTensorType::get(shape, et);
  };
  // Offsets, sizes and unit strides of a block of the planes.
  auto at = [&](int64_t row, int64_t col) {
    SmallVector<int64_t> offsets(stack.size(), 0);
    offsets.append({row, col});
    return indexAttrs(rewriter, offsets);
  };
  auto extent = [&](int64_t rows, int64_t cols) {
    return indexAttrs(rewriter, shaped(rows, cols).getShape());
  };
  SmallVector<OpFoldResult> ones =
      indexAttrs(rewriter, SmallVector<int64_t>(stack.size() + 2, 1));
  Value sourcePlane = tensor::ExtractSliceOp::create(
      rewriter, loc, shaped(h, w), unpadded, srcOffsets,
      indexAttrs(rewriter, sizes), indexAttrs(rewriter, strides));
  // The padded plane: the padding value written to the border only, the
  // source copied into the interior. (A tensor.pad here became a fill of
  // the whole plane, a memset that took 40% as long as the convolution of
  // MobileNet-v2's 144 @56 layer at batch 1, and then the copy.)
  int64_t lowH = padOp.getStaticLow()[rank - 2];
  int64_t lowW = padOp.getStaticLow().back();
  Value padded =
      tensor::EmptyOp::create(rewriter, loc, shaped(hp, wp).getShape(), et);
  // Top and bottom rows over the whole width, then the left and right
  // columns of the rows between.
  int64_t strips[4][4] = {{0, 0, lowH, wp},
                          {lowH + h, 0, hp - lowH - h, wp},
                          {lowH, 0, h, lowW},
                          {lowH, lowW + w, h, wp - lowW - w}};
  for (auto &strip : strips) {
    if (strip[2] <= 0 || strip[3] <= 0) {
      continue;
    }
    SmallVector<OpFoldResult> offsets = at(strip[0], strip[1]);
    SmallVector<OpFoldResult> sizes = extent(strip[2], strip[3]);
    Value slice = tensor::ExtractSliceOp::create(rewriter, loc,
                                                 shaped(strip[2], strip[3]),
                                                 padded, offsets, sizes, ones);
    Value filled = linalg::FillOp::create(rewriter, loc, ValueRange{padValue},
                                          ValueRange{slice})
                       .getResult(0);
    padded = tensor::InsertSliceOp::create(rewriter, loc, filled, padded,
                                           offsets, sizes, ones);
  }
  return tensor::InsertSliceOp::create(rewriter, loc, sourcePlane, padded,
                                       at(lowH, lowW), extent(h, w), ones);
}

/// Erases `op` and then the reshapes and the tensor.pad it read through
/// (padPlaneInTask's chain) as far as each is left without uses.
void eraseDeadInputChain(RewriterBase &rewriter, Value input) {
  while (Operation *def = input.getDefiningOp()) {
    if (!def->use_empty() ||
        !isa<tensor::ExpandShapeOp, tensor::CollapseShapeOp, tensor::PadOp>(
            def)) {
      return;
    }
    input = def->getOperand(0);
    rewriter.eraseOp(def);
  }
}

/// [N, G, O/G, OH, OW] -> [N, O, OH, OW].
SmallVector<ReassociationIndices> groupedToNCHW() {
  return {{0}, {1, 2}, {3}, {4}};
}

/// The destination of a grouped convolution's rewrite as [N, O, OH, OW]
/// (`ot` is [N, G, O/G, OH, OW]), the shape graph-to-linalg collapses the
/// result to: a fresh tensor.empty when `dest` is one, `dest` collapsed
/// otherwise. The rewrites write this tensor and expand it at the end, so
/// that the collapse folds away and bufferization makes the graph's result
/// buffer the destination (it does not look through reshapes: with a
/// [N, G, O/G, OH, OW] empty a fresh buffer was allocated every step and
/// copied into the result serially after the convolution, 17% of a step of
/// the depthwise 144 @56 layer at batch 8).
Value flatGroupedDest(RewriterBase &rewriter, Location loc, Value dest,
                      RankedTensorType ot) {
  ArrayRef<int64_t> s = ot.getShape();
  if (dest.getDefiningOp<tensor::EmptyOp>()) {
    return tensor::EmptyOp::create(
        rewriter, loc, ArrayRef<int64_t>{s[0], s[1] * s[2], s[3], s[4]},
        ot.getElementType());
  }
  return tensor::CollapseShapeOp::create(rewriter, loc, dest, groupedToNCHW());
}

/// Whether `v` is available before `op` (in `op`'s block or above it).
bool definedBefore(Value v, Operation *op) {
  Operation *def = v.getDefiningOp();
  Block *block = def ? def->getBlock() : cast<BlockArgument>(v).getOwner();
  if (!block->getParent()->isAncestor(op->getParentRegion())) {
    return false;
  }
  if (!def || def->getBlock() != op->getBlock()) {
    return true;
  }
  return def->isBeforeInBlock(op);
}

/// The elementwise consumer of a depthwise `conv` ([N, G, M, OH, OW])
/// that depthwiseConv applies to each accumulator vector before its store
/// (as the direct kernels of graphc-cpu-direct-conv do): the only user of
/// the result, a linalg.generic over its five parallel dimensions with one
/// result of the same type and an init it does not read, whose inputs are
/// the convolution (once, identity map), tensors of the same shape read at
/// the same point (a residual), per-channel tensors (map results d1, d2 or
/// 0: a batch norm's parameters) or scalars, all available before the
/// convolution, and whose body is pure elementwise scalar ops. In
/// ShuffleNet and MobileNet every depthwise convolution is followed by
/// such a batch norm (with a ReLU in MobileNet): one more pass over the
/// output otherwise. Null when there is none.
linalg::GenericOp matchPlaneEpilogue(Operation *conv) {
  Value result = conv->getResult(0);
  if (!result.hasOneUse()) {
    return {};
  }
  auto g = dyn_cast<linalg::GenericOp>(*result.getUsers().begin());
  if (!g || g->getBlock() != conv->getBlock() || !g.hasPureTensorSemantics() ||
      g.getNumDpsInits() != 1 || g->getNumResults() != 1 ||
      g.getNumLoops() != 5 || g.getNumParallelLoops() != 5 ||
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
    if (!type || type.getElementType() != et || !type.hasStaticShape()) {
      return {};
    }
    if (in->get() == result) {
      convInputs += map.isIdentity() ? 1 : 2;
      continue;
    }
    if (!definedBefore(in->get(), conv)) {
      return {};
    }
    if (map.isIdentity()) {
      continue;
    }
    for (AffineExpr e : map.getResults()) {
      auto c = dyn_cast<AffineConstantExpr>(e);
      auto d = dyn_cast<AffineDimExpr>(e);
      if (c ? c.getValue() != 0
            : !d || (d.getPosition() != 1 && d.getPosition() != 2)) {
        return {};
      }
    }
  }
  if (convInputs != 1) {
    return {};
  }
  Region &body = g.getRegion();
  for (Operation &op : body.front()) {
    if (isa<linalg::YieldOp>(op)) {
      continue;
    }
    if (op.getNumRegions() != 0 || !op.hasTrait<OpTrait::Elementwise>() ||
        !isPure(&op) || !llvm::all_of(op.getResultTypes(), [](Type t) {
          return t.isIntOrIndexOrFloat();
        })) {
      return {};
    }
    for (Value o : op.getOperands()) {
      if (o.getParentRegion() != &body &&
          (!o.getType().isIntOrIndexOrFloat() || !definedBefore(o, conv))) {
        return {};
      }
    }
  }
  return g;
}

/// A matchPlaneEpilogue generic prepared inside one task (one output
/// channel): the body ops that do not depend on the convolution or on a
/// same-shape input are emitted once, as scalars, at the task's start
/// (a batch norm's rsqrt(var + eps) * scale), the others on every
/// accumulator vector by `apply`.
struct PlaneEpilogue {
  linalg::GenericOp generic;
  Value convResult;
  /// Scalars of the task: the per-channel inputs' block arguments and the
  /// uniform body ops' results.
  llvm::DenseMap<Value, Value> uniform;
  /// The task's [OH, OW] plane of each same-shape input, by block argument.
  llvm::DenseMap<Value, Value> planes;

  PlaneEpilogue(RewriterBase &rewriter, Location loc, linalg::GenericOp g,
                Value convResult, ArrayRef<Value> ivs, int64_t oh, int64_t ow,
                bool flat = false)
      : generic(g), convResult(convResult) {
    graphc::IndexMath im{rewriter, loc};
    Type et = cast<RankedTensorType>(convResult.getType()).getElementType();
    Block &body = g.getRegion().front();
    llvm::SmallPtrSet<Value, 8> varying;
    for (OpOperand *in : g.getDpsInputOperands()) {
      Value src = in->get();
      AffineMap m = g.getMatchingIndexingMap(in);
      BlockArgument arg = g.getMatchingBlockArgument(in);
      if (src == convResult) {
        varying.insert(arg);
      } else if (m.isIdentity()) {
        varying.insert(arg);
        SmallVector<OpFoldResult> offsets = {ivs[0], ivs[1], ivs[2],
                                             rewriter.getIndexAttr(0),
                                             rewriter.getIndexAttr(0)};
        Value plane = tensor::ExtractSliceOp::create(
            rewriter, loc, RankedTensorType::get({oh, ow}, et), src, offsets,
            indexAttrs(rewriter, {1, 1, 1, oh, ow}),
            indexAttrs(rewriter, {1, 1, 1, 1, 1}));
        planes[arg] = flat ? tensor::CollapseShapeOp::create(
                                 rewriter, loc, plane,
                                 SmallVector<ReassociationIndices>{{0, 1}})
                                 .getResult()
                           : plane;
      } else {
        SmallVector<Value> indices;
        for (AffineExpr e : m.getResults()) {
          auto d = dyn_cast<AffineDimExpr>(e);
          indices.push_back(d ? ivs[d.getPosition()] : im.idx(0));
        }
        uniform[arg] = tensor::ExtractOp::create(rewriter, loc, src, indices);
      }
    }
    for (Operation &op : body.without_terminator()) {
      if (llvm::any_of(op.getOperands(),
                       [&](Value o) { return varying.contains(o); })) {
        varying.insert(op.result_begin(), op.result_end());
        continue;
      }
      IRMapping map;
      for (auto [v, scalar] : uniform) {
        map.map(v, scalar);
      }
      Operation *clone = rewriter.clone(op, map);
      for (auto [r, c] : llvm::zip(op.getResults(), clone->getResults())) {
        uniform[r] = c;
      }
    }
  }

  /// The body on accumulator `acc`, a vector of the plane from `at` (row
  /// and column, or the pixel of a flat plane).
  Value apply(RewriterBase &rewriter, Location loc, Value acc, ValueRange at) {
    auto vt = cast<VectorType>(acc.getType());
    Block &body = generic.getRegion().front();
    llvm::DenseMap<Value, Value> values;
    auto vectorOf = [&](Value v) -> Value {
      if (auto it = values.find(v); it != values.end()) {
        return it->second;
      }
      Value scalar = uniform.count(v) ? uniform[v] : v;
      return vector::BroadcastOp::create(
          rewriter, loc, VectorType::get(vt.getShape(), scalar.getType()),
          scalar);
    };
    for (OpOperand *in : generic.getDpsInputOperands()) {
      BlockArgument arg = generic.getMatchingBlockArgument(in);
      if (in->get() == convResult) {
        values[arg] = acc;
      } else if (planes.count(arg)) {
        Value pad = arith::ConstantOp::create(
            rewriter, loc, vt.getElementType(),
            rewriter.getZeroAttr(vt.getElementType()));
        values[arg] = vector::TransferReadOp::create(
            rewriter, loc, vt, planes[arg], at, std::optional<Value>(pad),
            ArrayRef<bool>{true});
      }
    }
    for (Operation &op : body.without_terminator()) {
      if (uniform.count(op.getResult(0))) {
        continue;
      }
      OperationState state(loc, op.getName());
      for (Value o : op.getOperands()) {
        state.addOperands(vectorOf(o));
      }
      for (Type t : op.getResultTypes()) {
        state.addTypes(VectorType::get(vt.getShape(), t));
      }
      state.addAttributes(op.getAttrs());
      Operation *vop = rewriter.create(state);
      for (auto [r, vr] : llvm::zip(op.getResults(), vop->getResults())) {
        values[r] = vr;
      }
    }
    return vectorOf(body.getTerminator()->getOperand(0));
  }
};

/// What the rewrites of a grouped convolution start from, made before
/// `conv` (the rewriter's insertion point is left there): the fill of its
/// accumulator (null when there is none), the elementwise consumer the
/// kernel applies (matchPlaneEpilogue, null when there is none) and the
/// [N, O, OH, OW] destination the kernel writes (flatGroupedDest): the
/// fill's destination, whose elements are then never read, else the
/// accumulator.
struct GroupedConvStart {
  linalg::FillOp fill;
  linalg::GenericOp epilogue;
  Value dest;
};

GroupedConvStart startGroupedConv(RewriterBase &rewriter,
                                  linalg::Conv2DNgchwGfchwOp conv) {
  Value init = conv->getOperand(2);
  rewriter.setInsertionPoint(conv);
  auto fill = init.getDefiningOp<linalg::FillOp>();
  linalg::GenericOp epilogue = matchPlaneEpilogue(conv);
  Value dest = flatGroupedDest(rewriter, conv.getLoc(),
                               fill ? fill.getOutputs()[0] : init,
                               cast<RankedTensorType>(init.getType()));
  return {fill, epilogue, dest};
}

/// startGroupedConv and the plane kernels' task loop: an `scf.forall` over
/// `tasks` whose one shared output is the destination, the rewriter's
/// insertion point left before its terminator. replaceGroupedConv ends
/// the rewrite.
struct GroupedConvTasks {
  linalg::FillOp fill;
  linalg::GenericOp epilogue;
  scf::ForallOp forall;
};

GroupedConvTasks groupedConvTasks(RewriterBase &rewriter,
                                  linalg::Conv2DNgchwGfchwOp conv,
                                  ArrayRef<int64_t> tasks) {
  GroupedConvStart start = startGroupedConv(rewriter, conv);
  auto forall = scf::ForallOp::create(rewriter, conv.getLoc(),
                                      indexAttrs(rewriter, tasks),
                                      ValueRange{start.dest}, std::nullopt);
  rewriter.setInsertionPoint(forall.getTerminator());
  return {start.fill, start.epilogue, forall};
}

/// Replaces the grouped `conv` (or its epilogue, which the kernel applied)
/// by the result of the task loop of groupedConvTasks, expanded to the
/// convolution's [N, G, O/G, OH, OW]; erases the fill and the input's
/// padding and reshapes left without uses.
void replaceGroupedConv(RewriterBase &rewriter, linalg::Conv2DNgchwGfchwOp conv,
                        GroupedConvTasks tasks) {
  Value input = conv->getOperand(0);
  rewriter.setInsertionPointAfter(tasks.forall);
  Value result = tensor::ExpandShapeOp::create(
      rewriter, conv.getLoc(), conv->getOperand(2).getType(),
      tasks.forall.getResult(0), groupedToNCHW());
  graphc::replaceConvResult(rewriter, conv, tasks.epilogue, tasks.fill, result);
  eraseDeadInputChain(rewriter, input);
}

/// Rewrites a depthwise `conv` (linalg.conv_2d_ngchw_gfchw with one input
/// channel per group: input [N, G, 1, H, W] already padded, filter
/// [G, M, 1, KH, KW], M output channels per group) into a direct kernel: an
/// `scf.forall` over (n, g, m), one output plane per task, whose body is
/// planeWindowLoops with a `vector.fma` of each input segment and its tap
/// (broadcast once per task). Depthwise convolutions have K = KH*KW per
/// output, too little reuse for im2col + GEMM. Returns failure (and leaves
/// `conv` alone) when the op is not such a convolution over f32 or f64 with
/// static shapes, or when the unrolled body would exceed kMaxConvUnroll
/// operations.
LogicalResult depthwiseConv(RewriterBase &rewriter,
                            linalg::Conv2DNgchwGfchwOp conv, int64_t lanes) {
  Value input = conv->getOperand(0), filter = conv->getOperand(1);
  std::optional<ConvTypes> types = staticFloatConv(conv);
  if (!types) {
    return failure();
  }
  RankedTensorType it = types->input, ft = types->filter, ot = types->output;
  Type et = types->element;
  // f16 and bf16 keep the old path: a fused multiply-add rounds once where
  // the old path also rounded each product, which changes half-precision
  // results, and only f32 was measured.
  if (it.getDimSize(2) != 1 || !(et.isF32() || et.isF64())) {
    return failure();
  }
  SmallVector<int64_t> strides =
      llvm::to_vector(conv.getStrides().getValues<int64_t>());
  SmallVector<int64_t> dilations =
      llvm::to_vector(conv.getDilations().getValues<int64_t>());
  int64_t n = ot.getDimSize(0), g = ot.getDimSize(1), m = ot.getDimSize(2);
  int64_t oh = ot.getDimSize(3), ow = ot.getDimSize(4);
  int64_t hp = it.getDimSize(3), wp = it.getDimSize(4);
  int64_t kh = ft.getDimSize(3), kw = ft.getDimSize(4);
  PlaneWindow pw{oh,         ow,         hp,           wp,           kh, kw,
                 strides[0], strides[1], dilations[0], dilations[1], et};
  if (planeWindowTooLarge(pw, lanes)) {
    return failure();
  }

  Location loc = conv.getLoc();
  // With a fill the accumulators start as its value and the plane is never
  // read; otherwise they start from the accumulator's elements. The tasks
  // write the output as [N, G*M, OH, OW] (flatGroupedDest).
  GroupedConvTasks tasks = groupedConvTasks(rewriter, conv, {n, g, m});
  linalg::FillOp fill = tasks.fill;
  linalg::GenericOp epilogue = tasks.epilogue;
  scf::ForallOp forall = tasks.forall;
  graphc::IndexMath im{rewriter, loc};
  auto attrs = [&](ArrayRef<int64_t> values) {
    return indexAttrs(rewriter, values);
  };
  SmallVector<Value> ivs = llvm::to_vector(forall.getInductionVars());
  Value out = forall.getRegionIterArgs()[0];
  SmallVector<OpFoldResult> outOffsets = {
      ivs[0], im.add(im.mul(ivs[1], m), ivs[2]), rewriter.getIndexAttr(0),
      rewriter.getIndexAttr(0)};
  SmallVector<OpFoldResult> outSizes = attrs({1, 1, oh, ow});
  SmallVector<OpFoldResult> unit = attrs({1, 1, 1, 1, 1});
  Value plane = tensor::ExtractSliceOp::create(
      rewriter, loc, RankedTensorType::get({oh, ow}, et), out, outOffsets,
      outSizes, attrs({1, 1, 1, 1}));
  // The input plane, padded inside the task when the input is
  // graph-to-linalg's tensor.pad of the images (then expand_shape to
  // [N, G, 1, H, W], and in ShuffleNet the channel shuffle's reshapes).
  Value image =
      padPlaneInTask(rewriter, loc, input, forall,
                     {ivs[0], ivs[1], rewriter.getIndexAttr(0)}, hp, wp, et);
  if (!image) {
    SmallVector<OpFoldResult> inOffsets = {
        ivs[0], ivs[1], rewriter.getIndexAttr(0), rewriter.getIndexAttr(0),
        rewriter.getIndexAttr(0)};
    image = tensor::ExtractSliceOp::create(
        rewriter, loc, RankedTensorType::get({hp, wp}, et), input, inOffsets,
        attrs({1, 1, 1, hp, wp}), unit);
  }
  SmallVector<OpFoldResult> wOffsets = {
      ivs[1], ivs[2], rewriter.getIndexAttr(0), rewriter.getIndexAttr(0),
      rewriter.getIndexAttr(0)};
  Value window = tensor::ExtractSliceOp::create(
      rewriter, loc, RankedTensorType::get({kh, kw}, et), filter, wOffsets,
      attrs({1, 1, 1, kh, kw}), unit);
  // The taps, broadcast once per task to each vector width used.
  SmallVector<Value> taps;
  for (int64_t i = 0; i < kh; ++i) {
    for (int64_t j = 0; j < kw; ++j) {
      taps.push_back(tensor::ExtractOp::create(
          rewriter, loc, window, ValueRange{im.idx(i), im.idx(j)}));
    }
  }
  llvm::SmallDenseMap<int64_t, SmallVector<Value>> broadcast;
  SmallVector<int64_t> widths = planeTails(ow, lanes);
  if (ow - ow % lanes > 0) {
    widths.push_back(lanes);
  }
  for (int64_t w : widths) {
    if (broadcast.count(w)) {
      continue;
    }
    auto vt = VectorType::get({w}, et);
    for (Value tap : taps) {
      broadcast[w].push_back(
          vector::BroadcastOp::create(rewriter, loc, vt, tap));
    }
  }
  // The elementwise consumer, applied to each accumulator before its
  // store; its per-channel work is done here, once per task.
  std::optional<PlaneEpilogue> ep;
  if (epilogue) {
    ep.emplace(rewriter, loc, epilogue, conv->getResult(0), ivs, oh, ow);
  }
  auto finish = [&](Value a, Value row, Value col0) -> Value {
    return ep->apply(rewriter, loc, a, ValueRange{row, col0});
  };
  Value acc = planeWindowLoops(
      rewriter, loc, pw, lanes, image, plane,
      fill ? fill.getInputs()[0] : Value(),
      [&](Value a, Value v, int64_t tap, int64_t w) -> Value {
        return vector::FMAOp::create(rewriter, loc, v, broadcast[w][tap], a);
      },
      ep ? TileFinisher(finish) : TileFinisher());
  rewriter.setInsertionPointToStart(forall.getTerminator().getBody());
  tensor::ParallelInsertSliceOp::create(rewriter, loc, acc, out, outOffsets,
                                        outSizes, attrs({1, 1, 1, 1}));
  replaceGroupedConv(rewriter, conv, tasks);
  return success();
}

/// Accumulator vectors of the small-group kernel's register tile (output
/// rows x the group's output channels): 16 of AVX-512's 32 registers, with
/// the channels' filter broadcasts and the rows' input vectors beside them.
constexpr int64_t kSmallGroupAccs = 16;
/// Output channels per group up to which a grouped convolution gets the
/// small-group kernel (groupedPlaneConv) rather than a GEMM per group.
constexpr int64_t kSmallGroupMaxOut = 8;

/// Rewrites a grouped `conv` with few output channels per group
/// (linalg.conv_2d_ngchw_gfchw: input [N, G, C/G, H, W] already padded,
/// filter [G, O/G, C/G, KH, KW], O/G at most kSmallGroupMaxOut, more than
/// one input channel per group; f32 or f64, static shapes) into a direct
/// kernel in the manner of depthwiseConv: an `scf.forall` over (image,
/// group), each task padding its group's input planes (padPlaneInTask) and
/// computing the group's O/G output planes in register tiles of `rows`
/// output rows by one vector of output columns by all O/G channels (rows *
/// O/G = kSmallGroupAccs). For each input channel (an `scf.for` carrying
/// the accumulators) and tap, it broadcasts the O/G filter elements and
/// loads one input row segment per output row, each segment multiply-added
/// into the row's O/G accumulators. As a GEMM per group (im2col + GEMM),
/// ResNeXt's 32 groups of 4 channels were GEMMs of M = 4 rows; this kernel
/// reuses every input vector O/G times and every broadcast over the rows.
/// Columns that do not fill a vector go in static power-of-two pieces, as
/// in planeWindowLoops. An elementwise consumer (matchPlaneEpilogue) is
/// applied to each accumulator before its store. Returns failure (leaving
/// `conv` alone) for other convolutions or when the unrolled bodies would
/// exceed kMaxConvUnroll operations.
LogicalResult groupedPlaneConv(RewriterBase &rewriter,
                               linalg::Conv2DNgchwGfchwOp conv, int64_t lanes) {
  Value input = conv->getOperand(0), filter = conv->getOperand(1);
  std::optional<ConvTypes> types = staticFloatConv(conv);
  if (!types) {
    return failure();
  }
  RankedTensorType it = types->input, ft = types->filter, ot = types->output;
  Type et = types->element;
  int64_t n = ot.getDimSize(0), g = ot.getDimSize(1), og = ot.getDimSize(2);
  int64_t oh = ot.getDimSize(3), ow = ot.getDimSize(4);
  int64_t cg = it.getDimSize(2), hp = it.getDimSize(3), wp = it.getDimSize(4);
  int64_t kh = ft.getDimSize(3), kw = ft.getDimSize(4);
  if (cg < 2 || og < 1 || og > kSmallGroupMaxOut || kh * kw < 2 ||
      !(et.isF32() || et.isF64()) || n == 0 || oh == 0 || ow == 0) {
    return failure();
  }
  SmallVector<int64_t> strides =
      llvm::to_vector(conv.getStrides().getValues<int64_t>());
  SmallVector<int64_t> dilations =
      llvm::to_vector(conv.getDilations().getValues<int64_t>());
  int64_t sh = strides[0], sw = strides[1], dh = dilations[0],
          dw = dilations[1];
  int64_t rows = std::min(std::max<int64_t>(1, kSmallGroupAccs / og), oh);
  int64_t owMain = ow - ow % lanes;
  SmallVector<int64_t> tails = planeTails(ow, lanes);
  int64_t bodies =
      (int64_t(owMain > 0) + int64_t(tails.size())) * (oh % rows ? 2 : 1);
  if (kh * kw * rows * og * bodies > kMaxConvUnroll) {
    return failure();
  }

  Location loc = conv.getLoc();
  GroupedConvTasks tasks = groupedConvTasks(rewriter, conv, {n, g});
  linalg::FillOp fill = tasks.fill;
  linalg::GenericOp epilogue = tasks.epilogue;
  scf::ForallOp forall = tasks.forall;
  graphc::IndexMath im{rewriter, loc};
  auto attrs = [&](ArrayRef<int64_t> values) {
    return indexAttrs(rewriter, values);
  };
  Value ni = forall.getInductionVars()[0], gi = forall.getInductionVars()[1];
  Value out = forall.getRegionIterArgs()[0];
  SmallVector<OpFoldResult> outOffsets = {
      ni, im.mul(gi, og), rewriter.getIndexAttr(0), rewriter.getIndexAttr(0)};
  SmallVector<OpFoldResult> outSizes = attrs({1, og, oh, ow});
  SmallVector<OpFoldResult> unit4 = attrs({1, 1, 1, 1});
  Value slab = tensor::ExtractSliceOp::create(
      rewriter, loc, RankedTensorType::get({og, oh, ow}, et), out, outOffsets,
      outSizes, unit4);
  // The group's input planes as [C/G, hp, wp]: padded inside the task when
  // the input is graph-to-linalg's tensor.pad (padPlaneInTask), else read
  // in place.
  auto stackType = RankedTensorType::get({cg, hp, wp}, et);
  SmallVector<OpFoldResult> unit5 = attrs({1, 1, 1, 1, 1});
  Value stack =
      padPlaneInTask(rewriter, loc, input, forall,
                     {ni, gi, rewriter.getIndexAttr(0)}, hp, wp, et, cg);
  if (!stack) {
    stack = tensor::ExtractSliceOp::create(
        rewriter, loc, stackType, input,
        SmallVector<OpFoldResult>{ni, gi, rewriter.getIndexAttr(0),
                                  rewriter.getIndexAttr(0),
                                  rewriter.getIndexAttr(0)},
        attrs({1, 1, cg, hp, wp}), unit5);
  }
  // The group's filter [O/G, C/G, KH, KW].
  Value weights = tensor::ExtractSliceOp::create(
      rewriter, loc, RankedTensorType::get({og, cg, kh, kw}, et), filter,
      SmallVector<OpFoldResult>{
          gi, rewriter.getIndexAttr(0), rewriter.getIndexAttr(0),
          rewriter.getIndexAttr(0), rewriter.getIndexAttr(0)},
      attrs({1, og, cg, kh, kw}), unit5);
  // The elementwise consumer, per output channel of the group: its
  // per-channel work done here, once per task.
  SmallVector<PlaneEpilogue> eps;
  if (epilogue) {
    for (int64_t o = 0; o < og; ++o) {
      eps.emplace_back(rewriter, loc, epilogue, conv->getResult(0),
                       SmallVector<Value>{ni, gi, im.idx(o)}, oh, ow);
    }
  }
  Value pad =
      arith::ConstantOp::create(rewriter, loc, et, rewriter.getZeroAttr(et));

  // One register tile: `nrows` output rows from `row0` by `w` columns from
  // `col0`, all the group's channels; accumulator r * og + o is row r,
  // channel o.
  auto tile = [&](Value acc, Value row0, int64_t nrows, Value col0, int64_t w,
                  bool wide) -> Value {
    auto vt = VectorType::get({w}, et);
    SmallVector<Value> accs;
    for (int64_t r = 0; r < nrows; ++r) {
      for (int64_t o = 0; o < og; ++o) {
        accs.push_back(
            fill ? vector::BroadcastOp::create(rewriter, loc, vt,
                                               fill.getInputs()[0])
                       .getResult()
                 : vector::TransferReadOp::create(
                       rewriter, loc, vt, acc,
                       ValueRange{im.idx(o), im.add(row0, im.idx(r)), col0},
                       std::optional<Value>(pad), ArrayRef<bool>{true})
                       .getResult());
      }
    }
    Value colBase = im.mul(col0, sw);
    auto cLoop = scf::ForOp::create(
        rewriter, loc, im.idx(0), im.idx(cg), im.idx(1), accs,
        [&](OpBuilder &, Location, Value ci, ValueRange cAccs) {
          SmallVector<Value> next(cAccs.begin(), cAccs.end());
          for (int64_t y = 0; y < kh; ++y) {
            for (int64_t x = 0; x < kw; ++x) {
              SmallVector<Value> taps;
              for (int64_t o = 0; o < og; ++o) {
                Value e = tensor::ExtractOp::create(
                    rewriter, loc, weights,
                    ValueRange{im.idx(o), ci, im.idx(y), im.idx(x)});
                taps.push_back(
                    vector::BroadcastOp::create(rewriter, loc, vt, e));
              }
              Value col = im.add(colBase, im.idx(x * dw));
              for (int64_t r = 0; r < nrows; ++r) {
                Value row =
                    im.add(im.mul(im.add(row0, im.idx(r)), sh), im.idx(y * dh));
                Value v = loadRowSegment(rewriter, loc, stack,
                                         ValueRange{ci, row, col}, w, sw, wide);
                for (int64_t o = 0; o < og; ++o) {
                  next[r * og + o] = vector::FMAOp::create(
                      rewriter, loc, v, taps[o], next[r * og + o]);
                }
              }
            }
          }
          scf::YieldOp::create(rewriter, loc, next);
        });
    for (int64_t r = 0; r < nrows; ++r) {
      Value row = im.add(row0, im.idx(r));
      for (int64_t o = 0; o < og; ++o) {
        Value a = cLoop.getResult(r * og + o);
        if (epilogue) {
          a = eps[o].apply(rewriter, loc, a, ValueRange{row, col0});
        }
        acc = vector::TransferWriteOp::create(rewriter, loc, a, acc,
                                              ValueRange{im.idx(o), row, col0},
                                              ArrayRef<bool>{true})
                  .getResult();
      }
    }
    return acc;
  };
  // Whether a tile of `w` columns at output column `col0` may read w * sw
  // contiguous elements at its last tap.
  auto wideFits = [&](int64_t col0, int64_t w) {
    return col0 * sw + (kw - 1) * dw + w * sw <= wp;
  };
  // One band of `nrows` output rows from `row0`: whole vectors in a loop,
  // then the static pieces.
  auto band = [&](Value acc, Value row0, int64_t nrows) -> Value {
    if (owMain > 0) {
      bool wide = wideFits(owMain - lanes, lanes);
      auto loop = scf::ForOp::create(
          rewriter, loc, im.idx(0), im.idx(owMain), im.idx(lanes),
          ValueRange{acc},
          [&](OpBuilder &, Location l, Value col0, ValueRange args) {
            scf::YieldOp::create(rewriter, l,
                                 tile(args[0], row0, nrows, col0, lanes, wide));
          });
      acc = loop.getResult(0);
    }
    int64_t col0 = owMain;
    for (int64_t w : tails) {
      acc = tile(acc, row0, nrows, im.idx(col0), w, wideFits(col0, w));
      col0 += w;
    }
    return acc;
  };
  int64_t ohMain = oh - oh % rows;
  if (ohMain > 0) {
    auto loop = scf::ForOp::create(
        rewriter, loc, im.idx(0), im.idx(ohMain), im.idx(rows),
        ValueRange{slab},
        [&](OpBuilder &, Location l, Value row0, ValueRange args) {
          scf::YieldOp::create(rewriter, l, band(args[0], row0, rows));
        });
    slab = loop.getResult(0);
  }
  if (oh % rows > 0) {
    slab = band(slab, im.idx(ohMain), oh % rows);
  }
  rewriter.setInsertionPointToStart(forall.getTerminator().getBody());
  tensor::ParallelInsertSliceOp::create(rewriter, loc, slab, out, outOffsets,
                                        outSizes, unit4);
  replaceGroupedConv(rewriter, conv, tasks);
  return success();
}

/// Rewrites a 2-D NCHW max or sum pooling (linalg.pooling_nchw_max/sum over
/// f32 or f64, static shapes, input already padded) into the direct plane
/// kernel of depthwiseConv: an `scf.forall` over (n, c), one output plane
/// per task, whose body is planeWindowLoops with an `arith.maximumf` (the
/// op's own NaN-propagating maximum) or an `arith.addf` per tap, in the
/// window's row-major order as the scalar loops summed. When the input is
/// graph-to-linalg's tensor.pad, each task pads its own plane. The pooling
/// was a scalar loop nest before (MLIR's vectoriser unrolls a strided 2-D
/// window per column), on one thread at batch 1 (its scf.forall went over
/// the batch): 19% of SqueezeNet's step at batch 1, one thread. Returns
/// failure (leaving `pool` alone) for other types and shapes, or when the
/// unrolled body would exceed kMaxConvUnroll operations.
LogicalResult poolPlanes(RewriterBase &rewriter, linalg::LinalgOp pool,
                         int64_t lanes) {
  bool isMax = isa<linalg::PoolingNchwMaxOp>(pool.getOperation());
  if (!isMax && !isa<linalg::PoolingNchwSumOp>(pool.getOperation())) {
    return failure();
  }
  if (pool->getNumResults() != 1 || !pool.hasPureTensorSemantics()) {
    return failure();
  }
  Value input = pool->getOperand(0), window = pool->getOperand(1);
  Value init = pool->getOperand(2);
  auto it = dyn_cast<RankedTensorType>(input.getType());
  auto wt = dyn_cast<RankedTensorType>(window.getType());
  auto ot = dyn_cast<RankedTensorType>(init.getType());
  if (!it || !wt || !ot || !it.hasStaticShape() || !wt.hasStaticShape() ||
      !ot.hasStaticShape() || it.getElementType() != ot.getElementType()) {
    return failure();
  }
  Type et = ot.getElementType();
  if (!(et.isF32() || et.isF64())) {
    return failure();
  }
  auto strideAttr = pool->getAttrOfType<DenseIntElementsAttr>("strides");
  auto dilationAttr = pool->getAttrOfType<DenseIntElementsAttr>("dilations");
  SmallVector<int64_t> strides =
      strideAttr ? llvm::to_vector(strideAttr.getValues<int64_t>())
                 : SmallVector<int64_t>{1, 1};
  SmallVector<int64_t> dilations =
      dilationAttr ? llvm::to_vector(dilationAttr.getValues<int64_t>())
                   : SmallVector<int64_t>{1, 1};
  int64_t n = ot.getDimSize(0), c = ot.getDimSize(1);
  int64_t oh = ot.getDimSize(2), ow = ot.getDimSize(3);
  int64_t hp = it.getDimSize(2), wp = it.getDimSize(3);
  PlaneWindow pw{oh,
                 ow,
                 hp,
                 wp,
                 wt.getDimSize(0),
                 wt.getDimSize(1),
                 strides[0],
                 strides[1],
                 dilations[0],
                 dilations[1],
                 et};
  if (planeWindowTooLarge(pw, lanes) ||
      (oh - 1) * pw.sh + (pw.kh - 1) * pw.dh >= hp ||
      (ow - 1) * pw.sw + (pw.kw - 1) * pw.dw >= wp) {
    return failure();
  }
  Location loc = pool.getLoc();
  rewriter.setInsertionPoint(pool);
  auto fill = init.getDefiningOp<linalg::FillOp>();
  Value dest = fill ? fill.getOutputs()[0] : init;
  auto attrs = [&](ArrayRef<int64_t> values) {
    return indexAttrs(rewriter, values);
  };
  auto forall = scf::ForallOp::create(rewriter, loc, attrs({n, c}),
                                      ValueRange{dest}, std::nullopt);
  rewriter.setInsertionPoint(forall.getTerminator());
  SmallVector<Value> ivs = llvm::to_vector(forall.getInductionVars());
  Value out = forall.getRegionIterArgs()[0];
  SmallVector<OpFoldResult> outOffsets = {
      ivs[0], ivs[1], rewriter.getIndexAttr(0), rewriter.getIndexAttr(0)};
  SmallVector<OpFoldResult> outSizes = attrs({1, 1, oh, ow});
  SmallVector<OpFoldResult> unit = attrs({1, 1, 1, 1});
  Value plane = tensor::ExtractSliceOp::create(
      rewriter, loc, RankedTensorType::get({oh, ow}, et), out, outOffsets,
      outSizes, unit);
  Value image = padPlaneInTask(rewriter, loc, input, forall, {ivs[0], ivs[1]},
                               hp, wp, et);
  if (!image) {
    image = tensor::ExtractSliceOp::create(
        rewriter, loc, RankedTensorType::get({hp, wp}, et), input, outOffsets,
        attrs({1, 1, hp, wp}), unit);
  }
  Value acc =
      planeWindowLoops(rewriter, loc, pw, lanes, image, plane,
                       fill ? fill.getInputs()[0] : Value(),
                       [&](Value a, Value v, int64_t, int64_t) -> Value {
                         if (isMax) {
                           // nsz: the NaN-propagating maximum without ordering
                           // -0 below +0 (a tie of zeros may give either):
                           // LLVM's x86 lowering then drops the sign test and
                           // two blends per tap, half of the kernel's
                           // instructions.
                           return arith::MaximumFOp::create(
                               rewriter, loc, a, v, arith::FastMathFlags::nsz);
                         }
                         return arith::AddFOp::create(rewriter, loc, a, v);
                       });
  rewriter.setInsertionPointToStart(forall.getTerminator().getBody());
  tensor::ParallelInsertSliceOp::create(rewriter, loc, acc, out, outOffsets,
                                        outSizes, unit);
  rewriter.replaceOp(pool, forall.getResults());
  if (fill && fill->use_empty()) {
    rewriter.eraseOp(fill);
  }
  eraseDeadInputChain(rewriter, input);
  return success();
}

/// The (image, group, channel in group) of task (a, b) of channelEpilogue.
using EpilogueIvs = function_ref<std::array<Value, 3>(Value a, Value b)>;

/// Applies `ep` (matchPlaneEpilogue of a grouped convolution whose output
/// planes are `oh` x `ow`) to `rows` ([A, B, OH*OW], just written by a GEMM,
/// so in cache), one output channel at a time: the per-channel part once,
/// then `lanes`-wide vectors over the channel's pixels (the rest in
/// power-of-two pieces). `ivsOf` maps a channel (a, b) of `rows` to its
/// (image, group, channel in group). With `parallel` the channels are the
/// tasks of an scf.forall (after a GEMM that was parallel inside, a serial
/// epilogue ran on one thread where its own pass runs on all: ShuffleNet
/// at batch 1 on 2 threads went 2.61 -> 3.02 ms), else a loop nest (inside
/// an image task, or without threads). `rows` is sliced, never reshaped, so
/// the empty tensor under the GEMM is still found by bufferization's
/// empty-tensor elimination through the epilogue. Returns the new rows.
Value channelEpilogue(RewriterBase &rewriter, Location loc,
                      linalg::GenericOp ep, Value convResult, Value rows,
                      int64_t oh, int64_t ow, EpilogueIvs ivsOf, int64_t lanes,
                      bool parallel) {
  auto rt = cast<RankedTensorType>(rows.getType());
  int64_t na = rt.getDimSize(0), nb = rt.getDimSize(1);
  int64_t pixels = rt.getDimSize(2);
  Type et = rt.getElementType();
  graphc::IndexMath im{rewriter, loc};
  SmallVector<OpFoldResult> sizes = indexAttrs(rewriter, {1, 1, pixels});
  SmallVector<OpFoldResult> ones = indexAttrs(rewriter, {1, 1, 1});
  auto offsetsOf = [&](Value a, Value b) -> SmallVector<OpFoldResult> {
    return {a, b, rewriter.getIndexAttr(0)};
  };
  // Channel (a, b) of `all` with the epilogue applied, as [OH*OW].
  auto channel = [&](Value a, Value b, Value all) -> Value {
    PlaneEpilogue plane(rewriter, loc, ep, convResult, ivsOf(a, b), oh, ow,
                        /*flat=*/true);
    Value row = tensor::ExtractSliceOp::create(
        rewriter, loc, RankedTensorType::get({pixels}, et), all,
        offsetsOf(a, b), sizes, ones);
    Value pad =
        arith::ConstantOp::create(rewriter, loc, et, rewriter.getZeroAttr(et));
    auto piece = [&](Value r, Value p0, int64_t w) -> Value {
      auto vt = VectorType::get({w}, et);
      Value v = vector::TransferReadOp::create(
          rewriter, loc, vt, r, ValueRange{p0}, std::optional<Value>(pad),
          ArrayRef<bool>{true});
      v = plane.apply(rewriter, loc, v, ValueRange{p0});
      return vector::TransferWriteOp::create(
                 rewriter, loc, v, r, ValueRange{p0}, ArrayRef<bool>{true})
          .getResult();
    };
    int64_t main = pixels - pixels % lanes;
    if (main > 0) {
      auto inner = scf::ForOp::create(
          rewriter, loc, im.idx(0), im.idx(main), im.idx(lanes),
          ValueRange{row},
          [&](OpBuilder &, Location l, Value p0, ValueRange args) {
            scf::YieldOp::create(rewriter, l, piece(args[0], p0, lanes));
          });
      row = inner.getResult(0);
    }
    int64_t p0 = main;
    for (int64_t w : planeTails(pixels, lanes)) {
      row = piece(row, im.idx(p0), w);
      p0 += w;
    }
    return row;
  };
  OpBuilder::InsertionGuard guard(rewriter);
  if (parallel) {
    auto forall =
        scf::ForallOp::create(rewriter, loc, indexAttrs(rewriter, {na, nb}),
                              ValueRange{rows}, std::nullopt);
    rewriter.setInsertionPoint(forall.getTerminator());
    Value a = forall.getInductionVars()[0], b = forall.getInductionVars()[1];
    Value carried = forall.getRegionIterArgs()[0];
    Value row = channel(a, b, carried);
    rewriter.setInsertionPointToStart(forall.getTerminator().getBody());
    tensor::ParallelInsertSliceOp::create(rewriter, loc, row, carried,
                                          offsetsOf(a, b), sizes, ones);
    return forall.getResult(0);
  }
  auto outer = scf::ForOp::create(rewriter, loc, im.idx(0), im.idx(na),
                                  im.idx(1), ValueRange{rows});
  rewriter.setInsertionPointToStart(outer.getBody());
  Value a = outer.getInductionVar();
  auto inner = scf::ForOp::create(rewriter, loc, im.idx(0), im.idx(nb),
                                  im.idx(1), outer.getRegionIterArgs());
  scf::YieldOp::create(rewriter, loc, inner.getResults());
  rewriter.setInsertionPointToStart(inner.getBody());
  Value b = inner.getInductionVar();
  Value carried = inner.getRegionIterArgs()[0];
  Value row = channel(a, b, carried);
  scf::YieldOp::create(rewriter, loc,
                       tensor::InsertSliceOp::create(rewriter, loc, row,
                                                     carried, offsetsOf(a, b),
                                                     sizes, ones)
                           .getResult());
  return outer.getResult(0);
}

/// Rewrites a pointwise grouped `conv` (linalg.conv_2d_ngchw_gfchw with 1x1
/// filters at stride 1, input [N, G, C/G, H, W] unpadded, float, static)
/// into one linalg.batch_matmul per image whose batch is the groups:
/// filter [G, O/G, C/G] times image [G, C/G, H*W] into the image's slice of
/// the result [G, O/G, H*W], written in place (a zero fill is re-created at
/// the GEMM's shape on that slice, so the matmul strategy fuses it into its
/// tasks). ShuffleNet's grouped 1x1 convolutions: every group's GEMM in one
/// parallel region (the per-group loop below made one region per group, a
/// single serial task for 0.9 M multiply-adds at 14x14, and wrote each
/// group's GEMM to a temporary that a serial copy moved into the result).
/// At batch N > 1 an scf.for over the images carries the result. Returns
/// failure (leaving `conv` alone) for other convolutions.
LogicalResult groupedPointwiseToGemm(RewriterBase &rewriter,
                                     linalg::Conv2DNgchwGfchwOp conv,
                                     bool imageTasks, int64_t lanes) {
  Value input = conv->getOperand(0), filter = conv->getOperand(1);
  Value init = conv->getOperand(2);
  std::optional<ConvTypes> types = staticFloatConv(conv);
  if (!types) {
    return failure();
  }
  RankedTensorType it = types->input, ft = types->filter, ot = types->output;
  Type et = types->element;
  int64_t n = ot.getDimSize(0), g = ot.getDimSize(1), og = ot.getDimSize(2);
  int64_t oh = ot.getDimSize(3), ow = ot.getDimSize(4);
  int64_t cg = it.getDimSize(2);
  bool unitStrides = llvm::all_of(conv.getStrides().getValues<int64_t>(),
                                  [](int64_t v) { return v == 1; });
  if (ft.getDimSize(3) != 1 || ft.getDimSize(4) != 1 || !unitStrides ||
      it.getDimSize(3) != oh || it.getDimSize(4) != ow) {
    return failure();
  }
  Location loc = conv.getLoc();
  rewriter.setInsertionPoint(conv);
  auto attrs = [&](ArrayRef<int64_t> values) {
    return indexAttrs(rewriter, values);
  };
  auto fill = init.getDefiningOp<linalg::FillOp>();
  // [G, O/G, C/G] x [G, C/G, P] -> `acc` [G, O/G, P], `acc` collapsed from
  // [G, O/G, OH, OW] and the product expanded back to it.
  SmallVector<ReassociationIndices> toGKP = {{0}, {1}, {2, 3}};
  Value weights = tensor::CollapseShapeOp::create(
      rewriter, loc, filter,
      SmallVector<ReassociationIndices>{{0}, {1}, {2, 3, 4}});
  // The GEMM of `image` ([G, C/G, H, W]) into `out` ([G, O/G, P]).
  auto gemm = [&](Value image, Value out) -> Value {
    Value x = tensor::CollapseShapeOp::create(rewriter, loc, image, toGKP);
    if (fill) {
      out = linalg::FillOp::create(
                rewriter, loc, ValueRange{fill.getInputs()[0]}, ValueRange{out})
                .getResult(0);
    }
    return linalg::BatchMatmulOp::create(
               rewriter, loc, TypeRange{out.getType()}, ValueRange{weights, x},
               ValueRange{out})
        .getResult(0);
  };
  // With a fill its destination is written, not the filled tensor.
  Value flat =
      flatGroupedDest(rewriter, loc, fill ? fill.getOutputs()[0] : init, ot);
  // The elementwise consumer (a batch norm, a ReLU), applied to each
  // image's result while it is in cache: not one more pass over the whole
  // output (which also computed a batch norm's rsqrt(var + eps) per
  // element). Where the images are the tasks (or there are no threads) it
  // runs inside the image's task; after a GEMM that is parallel inside
  // (batch 1 to 7) the output channels are the tasks of its own scf.forall.
  bool imagesAreTasks = imageTasks && n >= kMinGemmTasks;
  linalg::GenericOp epilogue = matchPlaneEpilogue(conv);
  // Image `i`'s slice [O, OH, OW] of the [N, O, OH, OW] result.
  auto imageOffsets = [&](Value i) -> SmallVector<OpFoldResult> {
    return {i, rewriter.getIndexAttr(0), rewriter.getIndexAttr(0),
            rewriter.getIndexAttr(0)};
  };
  SmallVector<OpFoldResult> imageSizes = attrs({1, g * og, oh, ow});
  SmallVector<OpFoldResult> unit = attrs({1, 1, 1, 1});
  auto imageType = RankedTensorType::get({g * og, oh, ow}, et);
  // Image `i`'s GEMM (and epilogue) on its slice of `carried` (or on a new
  // tensor.empty), as [O, OH, OW].
  auto image = [&](Value i, Value carried, bool fresh = false) -> Value {
    SmallVector<OpFoldResult> inOffsets = {
        i, rewriter.getIndexAttr(0), rewriter.getIndexAttr(0),
        rewriter.getIndexAttr(0), rewriter.getIndexAttr(0)};
    Value x = tensor::ExtractSliceOp::create(
        rewriter, loc, RankedTensorType::get({g, cg, oh, ow}, et), input,
        inOffsets, attrs({1, g, cg, oh, ow}), attrs({1, 1, 1, 1, 1}));
    SmallVector<ReassociationIndices> toGroups = {{0, 1}, {2}, {3}};
    Value out;
    if (fresh) {
      out = tensor::EmptyOp::create(rewriter, loc,
                                    ArrayRef<int64_t>{g, og, oh * ow}, et);
    } else {
      Value slice = tensor::ExtractSliceOp::create(
          rewriter, loc, imageType, carried, imageOffsets(i), imageSizes, unit);
      Value acc = tensor::ExpandShapeOp::create(
          rewriter, loc, RankedTensorType::get({g, og, oh, ow}, et), slice,
          toGroups);
      out = tensor::CollapseShapeOp::create(rewriter, loc, acc, toGKP);
    }
    Value product = gemm(x, out);
    if (epilogue) {
      product = channelEpilogue(
          rewriter, loc, epilogue, conv->getResult(0), product, oh, ow,
          [&](Value a, Value b) { return std::array<Value, 3>{i, a, b}; },
          lanes, imageTasks && !imagesAreTasks);
    }
    Value planes = tensor::ExpandShapeOp::create(
        rewriter, loc, RankedTensorType::get({g, og, oh, ow}, et), product,
        toGKP);
    return tensor::CollapseShapeOp::create(rewriter, loc, planes, toGroups);
  };
  Value result;
  if (n == 1) {
    // The image is the result, reshaped: no insert_slice into `flat`. With
    // a fill, the GEMM's accumulator is a tensor.empty at its own shape
    // [G, O/G, P]: empty-tensor elimination follows neither slices nor
    // reshapes, so the image's slice of `flat` became a 750 KB temporary
    // (g3 240 @28) that was copied into the output serially after the
    // GEMM. The reshapes between the result and the graph's output are
    // moved into the output buffer (sinkReshapesIntoOutputs), and the
    // elimination makes the empty tensor that buffer.
    Value zero = arith::ConstantIndexOp::create(rewriter, loc, 0);
    result = tensor::ExpandShapeOp::create(
        rewriter, loc, cast<RankedTensorType>(flat.getType()),
        image(zero, flat, /*fresh=*/static_cast<bool>(fill)),
        SmallVector<ReassociationIndices>{{0, 1}, {2}, {3}});
  } else if (imagesAreTasks) {
    // One task per image, its GEMM serial inside: one fork for the whole
    // convolution instead of one per image, and whole images balance the
    // threads (ShuffleNet's g3 @28 at batch 8: 21 tasks of 80x112 per
    // image, 8 forks).
    auto forall = scf::ForallOp::create(rewriter, loc, attrs({n}),
                                        ValueRange{flat}, std::nullopt);
    OpBuilder::InsertionGuard guard(rewriter);
    rewriter.setInsertionPoint(forall.getTerminator());
    Value i = forall.getInductionVars()[0];
    Value carried = forall.getRegionIterArgs()[0];
    Value product = image(i, carried);
    rewriter.setInsertionPointToStart(forall.getTerminator().getBody());
    tensor::ParallelInsertSliceOp::create(rewriter, loc, product, carried,
                                          imageOffsets(i), imageSizes, unit);
    result = forall.getResult(0);
  } else {
    Value lower = arith::ConstantIndexOp::create(rewriter, loc, 0);
    Value upper = arith::ConstantIndexOp::create(rewriter, loc, n);
    Value step = arith::ConstantIndexOp::create(rewriter, loc, 1);
    auto loop =
        scf::ForOp::create(rewriter, loc, lower, upper, step, ValueRange{flat});
    OpBuilder::InsertionGuard guard(rewriter);
    rewriter.setInsertionPointToStart(loop.getBody());
    Value i = loop.getInductionVar();
    Value carried = loop.getRegionIterArgs()[0];
    scf::YieldOp::create(
        rewriter, loc,
        tensor::InsertSliceOp::create(rewriter, loc, image(i, carried), carried,
                                      imageOffsets(i), imageSizes, unit)
            .getResult());
    result = loop.getResult(0);
  }
  result =
      tensor::ExpandShapeOp::create(rewriter, loc, ot, result, groupedToNCHW());
  graphc::replaceConvResult(rewriter, conv, epilogue, fill, result);
  return success();
}

/// Rewrites a grouped `conv` (linalg.conv_2d_ngchw_gfchw with more than one
/// input channel per group) into an `scf.for` over the groups whose body is
/// a linalg.conv_2d_nchw_fchw on the group's slices of input, filter and
/// accumulator, returned so that convToGemm makes it im2col + GEMM: one
/// GEMM per group, through the tuned matmul strategy. A grouped convolution
/// was a scalar loop nest before, single-threaded at batch 1. The group's
/// accumulator is its slice of the result (a zero fill re-created on the
/// slice), so the GEMM writes the result in place: with a fresh
/// accumulator per group each group's result was copied into the output
/// after its GEMM. An elementwise consumer (matchPlaneEpilogue: a batch
/// norm, a ReLU) is applied to the group's channels right after its GEMM
/// (channelEpilogue, the channels the tasks where `parallel`).
FailureOr<linalg::Conv2DNchwFchwOp>
groupedConvToPerGroup(RewriterBase &rewriter, linalg::Conv2DNgchwGfchwOp conv,
                      int64_t lanes, bool parallel) {
  Value input = conv->getOperand(0), filter = conv->getOperand(1);
  std::optional<ConvTypes> types = staticFloatConv(conv);
  if (!types) {
    return failure();
  }
  RankedTensorType it = types->input, ft = types->filter, ot = types->output;
  Type et = types->element;
  int64_t n = ot.getDimSize(0), g = ot.getDimSize(1), og = ot.getDimSize(2);
  int64_t oh = ot.getDimSize(3), ow = ot.getDimSize(4);
  int64_t cg = it.getDimSize(2), hp = it.getDimSize(3), wp = it.getDimSize(4);
  int64_t kh = ft.getDimSize(3), kw = ft.getDimSize(4);
  Location loc = conv.getLoc();
  // With a fill every group writes its whole slice: the fill's destination
  // is carried, not the filled tensor.
  GroupedConvStart start = startGroupedConv(rewriter, conv);
  linalg::FillOp fill = start.fill;
  linalg::GenericOp epilogue = start.epilogue;
  Value dest = start.dest;
  auto attrs = [&](ArrayRef<int64_t> values) {
    return indexAttrs(rewriter, values);
  };
  // Many groups are the tasks themselves, each group's im2col and GEMM
  // serial inside: ResNeXt's 32 groups of 4 channels made 32 GEMMs of
  // 4 x 36 x 3136 one after the other, each forking the team for a
  // fraction of a millisecond. Few groups (AlexNet's 2) stay a loop
  // whose GEMMs are parallel inside.
  bool groupTasks = parallel && g >= kMinGemmTasks;
  Operation *loop;
  Value gi, carried;
  if (groupTasks) {
    auto forall = scf::ForallOp::create(rewriter, loc, attrs({g}),
                                        ValueRange{dest}, std::nullopt);
    rewriter.setInsertionPoint(forall.getTerminator());
    gi = forall.getInductionVars()[0];
    carried = forall.getRegionIterArgs()[0];
    loop = forall;
  } else {
    graphc::IndexMath im{rewriter, loc};
    auto forOp = scf::ForOp::create(rewriter, loc, im.idx(0), im.idx(g),
                                    im.idx(1), ValueRange{dest});
    rewriter.setInsertionPointToStart(forOp.getBody());
    gi = forOp.getInductionVar();
    carried = forOp.getRegionIterArgs()[0];
    loop = forOp;
  }
  auto at = [&](unsigned pos) {
    SmallVector<OpFoldResult> offs = attrs({0, 0, 0, 0, 0});
    offs[pos] = gi;
    return offs;
  };
  SmallVector<OpFoldResult> unit = attrs({1, 1, 1, 1, 1});
  Value x = tensor::ExtractSliceOp::create(
      rewriter, loc, RankedTensorType::get({n, cg, hp, wp}, et), input, at(1),
      attrs({n, 1, cg, hp, wp}), unit);
  Value w = tensor::ExtractSliceOp::create(
      rewriter, loc, RankedTensorType::get({og, cg, kh, kw}, et), filter, at(0),
      attrs({1, og, cg, kh, kw}), unit);
  auto accType = RankedTensorType::get({n, og, oh, ow}, et);
  // The group's output channels in the [N, O, OH, OW] destination.
  SmallVector<OpFoldResult> accOffsets = attrs({0, 0, 0, 0});
  accOffsets[1] = graphc::IndexMath{rewriter, loc}.mul(gi, og);
  SmallVector<OpFoldResult> accSizes = attrs({n, og, oh, ow});
  SmallVector<OpFoldResult> unit4 = attrs({1, 1, 1, 1});
  // A zero fill is re-created on the slice so that convToGemm fuses it into
  // the GEMM's tasks (and fills the slice, not a temporary).
  Value acc = tensor::ExtractSliceOp::create(rewriter, loc, accType, carried,
                                             accOffsets, accSizes, unit4);
  if (fill) {
    acc = linalg::FillOp::create(rewriter, loc, ValueRange{fill.getInputs()[0]},
                                 ValueRange{acc})
              .getResult(0);
  }
  auto groupConv = linalg::Conv2DNchwFchwOp::create(
      rewriter, loc, TypeRange{accType}, ValueRange{x, w}, ValueRange{acc},
      conv.getStrides(), conv.getDilations());
  Value groupResult = groupConv.getResult(0);
  if (epilogue) {
    // On [N, O/G, P], the shape of convToGemm's GEMM (the reshapes between
    // fold), the channels (image, channel in group) of group `gi`.
    SmallVector<ReassociationIndices> toNOP = {{0}, {1}, {2, 3}};
    Value rows =
        tensor::CollapseShapeOp::create(rewriter, loc, groupResult, toNOP);
    rows = channelEpilogue(
        rewriter, loc, epilogue, conv->getResult(0), rows, oh, ow,
        [&](Value a, Value b) { return std::array<Value, 3>{a, gi, b}; }, lanes,
        parallel && !groupTasks);
    groupResult =
        tensor::ExpandShapeOp::create(rewriter, loc, accType, rows, toNOP);
  }
  if (groupTasks) {
    auto forall = cast<scf::ForallOp>(loop);
    rewriter.setInsertionPointToStart(forall.getTerminator().getBody());
    tensor::ParallelInsertSliceOp::create(rewriter, loc, groupResult, carried,
                                          accOffsets, accSizes, unit4);
  } else {
    Value updated = tensor::InsertSliceOp::create(
        rewriter, loc, groupResult, carried, accOffsets, accSizes, unit4);
    scf::YieldOp::create(rewriter, loc, updated);
  }
  rewriter.setInsertionPointAfter(loop);
  Value result = tensor::ExpandShapeOp::create(
      rewriter, loc, ot, loop->getResult(0), groupedToNCHW());
  graphc::replaceConvResult(rewriter, conv, epilogue, fill, result);
  return groupConv;
}

/// Moves the reshapes between a function's result and its output buffer
/// into the buffer: `materialize_in_destination(collapse_shape(x), out)`
/// becomes `materialize_in_destination(x, expand_shape(out))` (and an
/// expand_shape a memref.collapse_shape), until the source is no reshape.
/// Empty-tensor elimination follows only ops that keep the type, so a
/// result computed at another shape than the graph's output (a convolution
/// GEMM's [N, F, OH*OW], a grouped convolution's [N, G, O/G, OH, OW]) was
/// computed into a temporary and copied into the output serially after the
/// kernel; with the reshapes on the memref side its tensor.empty becomes
/// the output buffer's view. Only for outputs that are arguments of the
/// function's entry block (graphc_task_run's output buffers) with static
/// shapes and the identity layout; the views are made at the top of the
/// function, so they dominate every tensor.empty they replace.
void sinkReshapesIntoOutputs(RewriterBase &rewriter, func::FuncOp func) {
  if (func.isExternal()) {
    return;
  }
  Block &entry = func.getBody().front();
  func.walk([&](bufferization::MaterializeInDestinationOp m) {
    auto arg = dyn_cast<BlockArgument>(m.getDest());
    auto type = dyn_cast<MemRefType>(m.getDest().getType());
    if (!arg || arg.getOwner() != &entry || !type ||
        !type.getLayout().isIdentity() || !type.hasStaticShape()) {
      return;
    }
    Value source = m.getSource(), out = m.getDest();
    OpBuilder::InsertionGuard guard(rewriter);
    rewriter.setInsertionPointToStart(&entry);
    while (true) {
      if (auto c = source.getDefiningOp<tensor::CollapseShapeOp>()) {
        RankedTensorType st = c.getSrcType();
        if (!st.hasStaticShape()) {
          break;
        }
        out = memref::ExpandShapeOp::create(
            rewriter, m.getLoc(),
            MemRefType::get(st.getShape(), st.getElementType()), out,
            c.getReassociationIndices());
        source = c.getSrc();
      } else if (auto e = source.getDefiningOp<tensor::ExpandShapeOp>()) {
        if (!e.getSrcType().hasStaticShape()) {
          break;
        }
        out = memref::CollapseShapeOp::create(rewriter, m.getLoc(), out,
                                              e.getReassociationIndices());
        source = e.getSrc();
      } else {
        break;
      }
    }
    if (source != m.getSource()) {
      rewriter.modifyOpInPlace(m, [&] {
        m.getSourceMutable().assign(source);
        m.getDestMutable().assign(out);
      });
    }
  });
}

/// Whether `op` reads or writes memory of an element type narrower than a
/// byte (i1). Memory holds one byte per such element, but the vectoriser's
/// transfers on vector<Nxi1> lower to bit-packed loads and stores, so these
/// ops must stay scalar.
bool hasSubByteOperand(linalg::LinalgOp op) {
  return llvm::any_of(op->getOperands(), [](Value v) {
    Type type = getElementTypeOrSelf(v.getType());
    return type.isIntOrFloat() && type.getIntOrFloatBitWidth() < 8;
  });
}

bool insideForall(Operation *op) {
  return op->getParentOfType<scf::ForallOp>() != nullptr;
}

struct CpuTileAndVectorize
    : public graphc::impl::CpuTileAndVectorizeBase<CpuTileAndVectorize> {
  using Base::Base;

  void runOnOperation() override;

private:
  int64_t lanes = 16;
  /// The K-loop unroll factor of the contraction being tiled.
  int64_t kUnroll = 1;
  /// The lanes that the register tiles of the GEMV being tiled are split
  /// into after vectorisation; 0 for full vectors.
  int64_t narrowLanes = 0;
  SmallVector<Operation *> decomposable;
  void tileContraction(RewriterBase &rewriter, linalg::LinalgOp op);
  bool splitGemvDepth(RewriterBase &rewriter, linalg::LinalgOp op);
  void registerTile(RewriterBase &rewriter, Operation *op, unsigned numBatch,
                    int64_t regM, int64_t regN, bool pack);
  void packPanelB(RewriterBase &rewriter, linalg::LinalgOp op,
                  unsigned numBatch);
  void tileConvolution(RewriterBase &rewriter, linalg::LinalgOp op);
  void parallelizeOther(RewriterBase &rewriter, linalg::LinalgOp op);
  void tileLeaf(RewriterBase &rewriter, linalg::LinalgOp op);
  void vectorizeLeaf(RewriterBase &rewriter, linalg::LinalgOp op);
};

void CpuTileAndVectorize::tileContraction(RewriterBase &rewriter,
                                          linalg::LinalgOp op) {
  unsigned numBatch = op.getNumLoops() - 3;
  SmallVector<int64_t> extents = op.getStaticLoopRanges();
  GemmTile tile = chooseGemmTile(extents[numBatch], extents[numBatch + 1],
                                 extents[numBatch + 2], lanes);
  int64_t regM = mr > 0 ? int64_t(mr) : tile.mr;
  int64_t regN = nr > 0 ? int64_t(nr) : tile.nr;
  int64_t kBlock = kc > 0 ? int64_t(kc) : tile.kc;
  kUnroll = unrollK > 0 ? int64_t(unrollK) : tile.unrollK;
  int64_t rowsM = extents[numBatch], columnsN = extents[numBatch + 1];
  // One row of A against a row-major B (a fully connected layer at batch
  // 1): a GEMV, bound by reading B once. Register tiles of 1 x kGemvVectors
  // vectors walk a task's columns for kGemvRows rows of B at a time, so
  // each row of B is read contiguously across the task (several rows in
  // flight) and the output row, in L1, is read and written once per
  // kGemvRows rows. The matmul tiles (1 x 64 columns over a K block of 256
  // rows) read 256 B of each row of B per page and ran at 0.4-0.7 of
  // OpenBLAS's sgemv.
  bool gemv = rowsM == 1 && rowMajorB(op, numBatch);
  if (gemv && parallel && splitGemvDepth(rewriter, op)) {
    return;
  }
  // The lanes of the register tile's vectors: a full vector, except in a
  // GEMV whose rows of B are not a whole number of cache-line vectors
  // long (1000 classes: 4000-byte rows), where every other row would make
  // each 64-byte load span two cache lines. There, vectors of half the
  // width: with rows a multiple of 32 bytes apart, none spans two lines.
  // 1x1000x4096 (16 MB of B, in L3 on Zen 5) ran at 28-30 GFLOP/s with
  // 16-lane loads against 44 for 1x1008x4096; a C kernel of 8-lane loads
  // over the same rows reached 42.
  int64_t tileLanes = lanes;
  narrowLanes = 0;
  if (gemv) {
    Type element = getElementTypeOrSelf(rowMajorB(op, numBatch)->get());
    int64_t bytes = element.isIntOrFloat()
                        ? int64_t(element.getIntOrFloatBitWidth()) / 8
                        : 0;
    if (bytes > 0 && lanes % 2 == 0 && lanes * bytes == kCacheLineBytes &&
        !ShapedType::isDynamic(columnsN) && columnsN % lanes != 0 &&
        columnsN > lanes) {
      tileLanes = lanes / 2;
      narrowLanes = tileLanes;
    }
    regM = 1;
    regN = kGemvVectors * tileLanes;
    kBlock = kGemvRows;
  }
  auto withBatch = [&](int64_t batch, std::initializer_list<int64_t> rest) {
    SmallVector<int64_t> sizes(numBatch, batch);
    sizes.append(rest);
    return sizes;
  };

  // A B panel is reused by every register tile of the task's rows; with
  // few rows (a batch-1 fully connected layer, ResNet's 7x7 conv5_x GEMM of
  // 49 rows) the copy is not amortised. Nor where all of B is small
  // (smallB): it stays near the core anyway, and each task would copy its
  // block again.
  int64_t depthK = extents[numBatch + 2];
  Type bElement = getElementTypeOrSelf(op.getDpsInputOperand(1)->get());
  bool smallB =
      !ShapedType::isDynamic(columnsN) && !ShapedType::isDynamic(depthK) &&
      bElement.isIntOrFloat() &&
      columnsN * depthK *
              int64_t(llvm::divideCeil(bElement.getIntOrFloatBitWidth(), 8)) <=
          kMaxUnpackedBBytes;
  bool packRows =
      packB && !smallB &&
      (ShapedType::isDynamic(rowsM) ||
       (rowsM > regM && rowsM >= kMinPackedRows)) &&
      (ShapedType::isDynamic(columnsN) || columnsN >= kMinPackedColumns);

  Operation *current = op;
  // Threads: one task per output tile; the fill that zeroes the output is
  // fused in so each task initialises only what it writes.
  auto tileable = dyn_cast<TilingInterface>(op.getOperation());
  if (!tileable) {
    return;
  }
  if (parallel) {
    SmallVector<int64_t> ranges = op.getStaticLoopRanges();
    int64_t taskM =
        pickTaskTile(ranges[numBatch],
                     parallelM > 0 ? int64_t(parallelM) : tile.taskM, regM);
    // Task columns: the option when set; by shape with the 6x64 tile when
    // the task's K block of A is past kWideTaskMinABlockBytes
    // (wideTaskColumns, from the row tasks before splitTaskRows);
    // kDefaultTaskColumns otherwise.
    int64_t rowTasks = 1;
    for (unsigned i = 0; i < numBatch; ++i) {
      rowTasks = ShapedType::isDynamic(ranges[i]) || rowTasks < 0
                     ? -1
                     : rowTasks * ranges[i];
    }
    if (rowTasks > 0 && !ShapedType::isDynamic(ranges[numBatch])) {
      rowTasks *= llvm::divideCeil(ranges[numBatch], taskM);
    }
    int64_t preferredN = kDefaultTaskColumns;
    Type element = getElementTypeOrSelf(op.getDpsInputOperand(0)->get());
    if (parallelN > 0) {
      preferredN = parallelN;
    } else if (tile.wide && rowTasks > 0 && element.isIntOrFloat() &&
               !ShapedType::isDynamic(ranges[numBatch])) {
      int64_t aBlockBytes =
          std::min(taskM, ranges[numBatch]) * kBlock *
          int64_t(llvm::divideCeil(element.getIntOrFloatBitWidth(), 8));
      if (aBlockBytes > kWideTaskMinABlockBytes) {
        preferredN = wideTaskColumns(columnsN, rowTasks);
      }
    }
    int64_t taskN = gemv ? gemvTaskColumns(columnsN, lanes)
                         : pickTaskTile(ranges[numBatch + 1], preferredN, regN);
    if (!gemv) {
      taskM = splitTaskRows(ranges, numBatch, taskM, taskN, regM);
    }
    scf::SCFTileAndFuseOptions options;
    options.tilingOptions.setTileSizes(getAsIndexOpFoldResult(
        op->getContext(), withBatch(1, {taskM, taskN, 0})));
    options.tilingOptions.setLoopType(
        scf::SCFTilingOptions::LoopType::ForallOp);
    options.setFusionControlFn(
        [](tensor::ExtractSliceOp, OpResult producer, bool isDestination)
            -> std::optional<scf::SCFTileAndFuseOptions::ControlFnResult> {
          if (isDestination && isa<linalg::FillOp>(producer.getOwner())) {
            return scf::SCFTileAndFuseOptions::ControlFnResult{};
          }
          return std::nullopt;
        });
    rewriter.setInsertionPoint(op);
    FailureOr<scf::SCFTileAndFuseResult> result =
        scf::tileConsumerAndFuseProducersUsingSCF(rewriter, tileable, options);
    if (failed(result)) {
      return;
    }
    for (OpResult res : op->getResults()) {
      if (Value repl = result->replacements.lookup(res)) {
        rewriter.replaceAllUsesWith(res, repl);
      }
    }
    current = result->tiledAndFusedOps.front();
    if (op->use_empty()) {
      rewriter.eraseOp(op);
    }
  }

  // Cache: a K block keeps a kc x nr panel of B in L1 while every register
  // tile of the task streams over it.
  FailureOr<Operation *> tiled =
      tileOp(rewriter, current, withBatch(0, {0, 0, kBlock}),
             /*forall=*/false);
  if (failed(tiled)) {
    return;
  }
  // Registers: mr x nr output tiles. A static N extent that is not a
  // multiple of nr is first split into [whole nr tiles | whole vectors | the
  // rest]: a peeled edge tile of e.g. 17 columns became one 17-lane vector
  // per row, which LLVM legalised into shuffles and spills (the 8 x 17 tail
  // of a 49-pixel 7x7 convolution ran slower than the 8 x 32 main part).
  SmallVector<std::pair<Operation *, int64_t>> pieces;
  unsigned nDim = numBatch + 1;
  int64_t extentN = cast<linalg::LinalgOp>(*tiled).getStaticLoopRanges()[nDim];
  Operation *rest = *tiled;
  if (!ShapedType::isDynamic(extentN) && extentN > tileLanes &&
      extentN % regN != 0) {
    // Piece ends and register-tile widths: whole nr tiles, then the whole
    // vectors left in power-of-two groups (48 columns as 32 + 16: an LLVM
    // vector of 3 x 16 floats, which the 6x64 tile's edges made, is loaded
    // and stored one scalar at a time, with vinsertps to rebuild it), then
    // the last partial vector.
    SmallVector<std::pair<int64_t, int64_t>> ends;
    int64_t end = extentN - extentN % regN;
    if (end > 0) {
      ends.push_back({end, regN});
    }
    for (int64_t group = int64_t(llvm::bit_floor(
             uint64_t(std::max<int64_t>((extentN % regN) / tileLanes, 1))));
         group >= 1; group /= 2) {
      if ((extentN - end) / tileLanes >= group) {
        end += group * tileLanes;
        ends.push_back({end, group * tileLanes});
      }
    }
    if (end < extentN) {
      ends.push_back({extentN, extentN - end});
    }
    int64_t done = 0;
    int64_t lastWidth = ends.back().second;
    for (auto [bound, width] : ArrayRef(ends).drop_back()) {
      rewriter.setInsertionPoint(rest);
      auto [head, tail] =
          linalg::splitOp(rewriter, cast<TilingInterface>(rest), nDim,
                          rewriter.getIndexAttr(bound - done));
      if (!head || !tail) {
        lastWidth = std::min(regN, extentN - done);
        break;
      }
      pieces.push_back({head.getOperation(), width});
      rest = tail.getOperation();
      done = bound;
    }
    pieces.push_back({rest, lastWidth});
  } else {
    pieces.push_back({rest, regN});
  }
  for (auto [piece, width] : pieces) {
    registerTile(rewriter, piece, numBatch, regM, width, packRows);
  }
  ++numMatmuls;
}

/// The most f32 elements one row of a packing copy moves as one vector
/// (16 zmm registers' worth); wider rows keep the tiled linalg.copy.
constexpr int64_t kMaxCopyRowElements = 256;

/// Copies `source` (a tensor whose dimensions are all static but `rowDim`)
/// into `dest` of the same shape as an scf.for over `rowDim` whose body moves
/// one row as a single vector transfer, and returns the copied tensor. The
/// tiled linalg.copy that the leaf phase would make of it folds to 1 x 16
/// slice copies, which bufferize to memref.copy and reach LLVM as scalar
/// loops (one vmovss per element). Returns null, emitting nothing, when
/// another dimension is dynamic or a row exceeds kMaxCopyRowElements.
Value vectorRowCopy(OpBuilder &b, Location loc, Value source, Value dest,
                    unsigned rowDim) {
  auto type = cast<RankedTensorType>(source.getType());
  SmallVector<int64_t> rowShape(type.getShape());
  rowShape[rowDim] = 1;
  int64_t elements = 1;
  for (int64_t extent : rowShape) {
    if (ShapedType::isDynamic(extent)) {
      return nullptr;
    }
    elements *= extent;
  }
  if (elements > kMaxCopyRowElements) {
    return nullptr;
  }
  auto vectorType = VectorType::get(rowShape, type.getElementType());
  Value zero = arith::ConstantIndexOp::create(b, loc, 0);
  Value one = arith::ConstantIndexOp::create(b, loc, 1);
  Value rows = tensor::DimOp::create(b, loc, source, rowDim);
  Value pad = arith::ConstantOp::create(b, loc, type.getElementType(),
                                        b.getZeroAttr(type.getElementType()));
  SmallVector<bool> inBounds(rowShape.size(), true);
  auto loop = scf::ForOp::create(
      b, loc, zero, rows, one, ValueRange{dest},
      [&](OpBuilder &nested, Location l, Value row, ValueRange iters) {
        SmallVector<Value> indices(rowShape.size(), zero);
        indices[rowDim] = row;
        Value v = vector::TransferReadOp::create(nested, l, vectorType, source,
                                                 indices, pad, inBounds);
        Value written = vector::TransferWriteOp::create(nested, l, v, iters[0],
                                                        indices, inBounds)
                            .getResult();
        scf::YieldOp::create(nested, l, written);
      });
  return loop.getResult(0);
}

/// Packs, before the N register-tile loop `nLoop`, every kc x nr micro-panel
/// of B that its iterations read into one [N/nr][kc][nr] buffer, and makes
/// `slice` (the panel of one N iteration, inside `nLoop`) a slice of it.
/// The copy walks B row by row, each row's N columns in one pass (one vector
/// transfer per panel): a per-iteration panel copy read only nr columns
/// (two cache lines) of each of kc rows per pass, a new page per row when
/// B's rows are 4 KiB or more apart, and the prefetchers, which stop at
/// page ends, fetched none of them; at 2048^3 those copies took 15% of the
/// time. Returns false, emitting nothing, unless `nLoop` starts at 0 and
/// walks B's whole static N extent in steps of the panel width, and the
/// panel's other sizes match its source (batch dims of 1 aside).
bool packBlockB(RewriterBase &rewriter, tensor::ExtractSliceOp slice,
                scf::ForOp mLoop, unsigned rowDim) {
  auto nLoop = mLoop->getParentOfType<scf::ForOp>();
  if (!nLoop) {
    return false;
  }
  Value source = slice.getSource();
  if (nLoop.getRegion().isAncestor(source.getParentRegion())) {
    return false;
  }
  auto sourceType = cast<RankedTensorType>(source.getType());
  RankedTensorType panelType = slice.getResultType();
  unsigned rank = sourceType.getRank();
  unsigned nDim = rank - 1;
  if (panelType.getRank() != int64_t(rank) || rowDim + 1 != nDim) {
    return false;
  }
  std::optional<int64_t> lb = getConstantIntValue(nLoop.getLowerBound());
  std::optional<int64_t> ub = getConstantIntValue(nLoop.getUpperBound());
  std::optional<int64_t> step = getConstantIntValue(nLoop.getStep());
  int64_t extentN = sourceType.getDimSize(nDim);
  int64_t width = panelType.getDimSize(nDim);
  if (!lb || !ub || !step || *lb != 0 || *ub != extentN || *step != width ||
      ShapedType::isDynamic(width) || extentN % width != 0 ||
      width > kMaxCopyRowElements) {
    return false;
  }
  // The panel: offset the loop's IV along N, the whole extent along K, and
  // batch offsets (if any) from outside the loop.
  SmallVector<OpFoldResult> offsets = slice.getMixedOffsets();
  SmallVector<OpFoldResult> sizes = slice.getMixedSizes();
  if (!llvm::all_of(slice.getMixedStrides(),
                    [](OpFoldResult s) { return isConstantIntValue(s, 1); })) {
    return false;
  }
  auto iv = dyn_cast_if_present<Value>(offsets[nDim]);
  if (iv != nLoop.getInductionVar() ||
      !isConstantIntValue(offsets[rowDim], 0)) {
    return false;
  }
  for (unsigned d = 0; d < rowDim; ++d) {
    if (!isConstantIntValue(sizes[d], 1)) {
      return false;
    }
    if (auto v = dyn_cast<Value>(offsets[d]);
        v && nLoop.getRegion().isAncestor(v.getParentRegion())) {
      return false;
    }
  }
  int64_t rows = sourceType.getDimSize(rowDim);
  if (panelType.getDimSize(rowDim) != rows) {
    return false;
  }
  OpFoldResult rowsValue = sizes[rowDim];
  if (auto v = dyn_cast<Value>(rowsValue);
      v && nLoop.getRegion().isAncestor(v.getParentRegion())) {
    return false;
  }
  // (A dynamic K extent is the source's: the slice spans it whole.)

  Location loc = slice.getLoc();
  rewriter.setInsertionPoint(nLoop);
  Type element = sourceType.getElementType();
  int64_t tiles = extentN / width;
  // packed[j, b.., k, c] = source[b.., k, j * width + c]
  SmallVector<OpFoldResult> packedSizes = {rewriter.getIndexAttr(tiles)};
  for (unsigned d = 0; d < rank; ++d) {
    packedSizes.push_back(d == nDim ? OpFoldResult(rewriter.getIndexAttr(width))
                                    : sizes[d]);
  }
  Value empty = tensor::EmptyOp::create(rewriter, loc, packedSizes, element);
  SmallVector<int64_t> rowShape(rank, 1);
  rowShape[nDim] = width;
  auto vectorType = VectorType::get(rowShape, element);
  Value zero = arith::ConstantIndexOp::create(rewriter, loc, 0);
  Value one = arith::ConstantIndexOp::create(rewriter, loc, 1);
  Value rowCount = getValueOrCreateConstantIndexOp(rewriter, loc, rowsValue);
  Value tileCount = arith::ConstantIndexOp::create(rewriter, loc, tiles);
  Value widthValue = arith::ConstantIndexOp::create(rewriter, loc, width);
  Value pad = arith::ConstantOp::create(rewriter, loc, element,
                                        rewriter.getZeroAttr(element));
  SmallVector<bool> inBounds(rank, true);
  SmallVector<Value> batchOffsets;
  for (unsigned d = 0; d < rowDim; ++d) {
    batchOffsets.push_back(
        getValueOrCreateConstantIndexOp(rewriter, loc, offsets[d]));
  }
  auto rowLoop = scf::ForOp::create(
      rewriter, loc, zero, rowCount, one, ValueRange{empty},
      [&](OpBuilder &b, Location l, Value row, ValueRange rowIters) {
        auto tileLoop = scf::ForOp::create(
            b, l, zero, tileCount, one, ValueRange{rowIters[0]},
            [&](OpBuilder &nb, Location nl, Value tile, ValueRange iters) {
              Value column = arith::MulIOp::create(nb, nl, tile, widthValue);
              SmallVector<Value> readAt(batchOffsets);
              readAt.append({row, column});
              SmallVector<Value> writeAt = {tile};
              writeAt.append(rowDim, zero);
              writeAt.append({row, zero});
              Value v = vector::TransferReadOp::create(
                  nb, nl, vectorType, source, readAt, pad, inBounds);
              AffineMap minor = AffineMap::getMinorIdentityMap(rank + 1, rank,
                                                               nb.getContext());
              Value written =
                  vector::TransferWriteOp::create(nb, nl, v, iters[0], writeAt,
                                                  AffineMapAttr::get(minor),
                                                  nb.getBoolArrayAttr(inBounds))
                      .getResult();
              scf::YieldOp::create(nb, nl, written);
            });
        scf::YieldOp::create(b, l, tileLoop.getResult(0));
      });
  Value packed = rowLoop.getResult(0);

  // Inside the loop: the IV's panel of the packed buffer.
  rewriter.setInsertionPoint(slice);
  Value index = arith::DivUIOp::create(
      rewriter, loc, iv, arith::ConstantIndexOp::create(rewriter, loc, width));
  SmallVector<OpFoldResult> panelOffsets = {index};
  panelOffsets.append(rank, rewriter.getIndexAttr(0));
  SmallVector<OpFoldResult> panelSizes = {rewriter.getIndexAttr(1)};
  for (unsigned d = 0; d < rank; ++d) {
    panelSizes.push_back(packedSizes[d + 1]);
  }
  SmallVector<OpFoldResult> unit(rank + 1, rewriter.getIndexAttr(1));
  auto panel = tensor::ExtractSliceOp::create(rewriter, loc, panelType, packed,
                                              panelOffsets, panelSizes, unit);
  rewriter.replaceOp(slice, panel.getResult());
  return true;
}

/// Splits GEMV `op` (C[1, N] += A[1, K] x B[K, N], static, an add of
/// products) along K when its columns make one task (gemvTaskColumns: no
/// task width divides N on a vector boundary, as for 1000 classes, so the
/// second core idled and 1x1000x4096 ran at 0.75 of OpenBLAS on two
/// threads): a batched GEMV P[t] = A[t-th K block] x B[t-th K block] over
/// kGemvDepthTasks blocks of whole rows of B, then C + P[0] + P[1] + ...
/// (elementwise). Each task streams a contiguous block of B's rows, as the
/// one task did; column tasks of 512 and 488 (half rows) instead ran one
/// thread at 0.85 of one 1000-column task. P's rows are padded to whole
/// vectors so tasks on two cores write no common cache line. Tiles the
/// batched GEMV (tileContraction) and returns true; false, emitting
/// nothing, when `op` does not qualify.
bool CpuTileAndVectorize::splitGemvDepth(RewriterBase &rewriter,
                                         linalg::LinalgOp op) {
  if (op.getNumLoops() != 3 || op->getNumResults() != 1 ||
      op.hasDynamicShape()) {
    return false;
  }
  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  int64_t columns = ranges[1], depth = ranges[2];
  if (ranges[0] != 1 || gemvTaskColumns(columns, lanes) < columns ||
      columns * depth < kMinGemvSplitMacs) {
    return false;
  }
  // Tasks: kGemvDepthTasks, or fewer where K does not split into whole
  // steps of kGemvRows rows or a task would get under kMinGemvDepthRows.
  int64_t tasks = kGemvDepthTasks;
  while (tasks > 1 && (depth % (tasks * kGemvRows) != 0 ||
                       depth / tasks < kMinGemvDepthRows)) {
    tasks /= 2;
  }
  if (tasks < 2) {
    return false;
  }
  // The body must accumulate by addition (zero starts each partial sum).
  Block *body = op.getBlock();
  Operation *combiner = body->getTerminator()->getOperand(0).getDefiningOp();
  if (!combiner || !isa<arith::AddFOp>(combiner) ||
      !body->getOps<linalg::IndexOp>().empty()) {
    return false;
  }
  MLIRContext *ctx = op.getContext();
  auto d = [&](unsigned i) { return getAffineDimExpr(i, ctx); };
  OpOperand *bOperand = rowMajorB(op, 0);
  OpOperand *aOperand = op.getDpsInputOperand(0) == bOperand
                            ? op.getDpsInputOperand(1)
                            : op.getDpsInputOperand(0);
  OpOperand *cOperand = op.getDpsInitOperand(0);
  auto aType = dyn_cast<RankedTensorType>(aOperand->get().getType());
  auto bType = dyn_cast<RankedTensorType>(bOperand->get().getType());
  auto cType = dyn_cast<RankedTensorType>(cOperand->get().getType());
  if (!aType || !bType || !cType || aType.getRank() != 2 ||
      bType.getRank() != 2 ||
      op.getMatchingIndexingMap(bOperand) !=
          AffineMap::get(3, 0, {d(2), d(1)}, ctx) ||
      op.getMatchingIndexingMap(cOperand) !=
          AffineMap::get(3, 0, {d(0), d(1)}, ctx)) {
    return false;
  }
  // A is [1, K] or [K, 1] (m, k or k, m): its K elements are contiguous.
  AffineMap aMap = op.getMatchingIndexingMap(aOperand);
  if (aMap != AffineMap::get(3, 0, {d(0), d(2)}, ctx) &&
      aMap != AffineMap::get(3, 0, {d(2), d(0)}, ctx)) {
    return false;
  }
  Type cElement = cType.getElementType();
  Location loc = op.getLoc();
  rewriter.setInsertionPoint(op);
  int64_t block = depth / tasks;
  // A as [tasks, 1, block], B as [tasks, block, N]: views, no copies.
  Value aFlat = tensor::CollapseShapeOp::create(
      rewriter, loc, aOperand->get(),
      SmallVector<ReassociationIndices>{{0, 1}});
  Value aBlocks = tensor::ExpandShapeOp::create(
      rewriter, loc,
      RankedTensorType::get({tasks, 1, block}, aType.getElementType()), aFlat,
      SmallVector<ReassociationIndices>{{0, 1, 2}});
  Value bBlocks = tensor::ExpandShapeOp::create(
      rewriter, loc,
      RankedTensorType::get({tasks, block, columns}, bType.getElementType()),
      bOperand->get(), SmallVector<ReassociationIndices>{{0, 1}, {2}});
  // P: zeroed per task (the fill is fused into the tasks), rows padded.
  int64_t padded = llvm::divideCeil(columns, lanes) * lanes;
  Value storage = tensor::EmptyOp::create(
      rewriter, loc, ArrayRef<int64_t>{tasks, 1, padded}, cElement);
  Value partialInit = tensor::ExtractSliceOp::create(
      rewriter, loc, RankedTensorType::get({tasks, 1, columns}, cElement),
      storage, SmallVector<OpFoldResult>(3, rewriter.getIndexAttr(0)),
      SmallVector<OpFoldResult>{rewriter.getIndexAttr(tasks),
                                rewriter.getIndexAttr(1),
                                rewriter.getIndexAttr(columns)},
      SmallVector<OpFoldResult>(3, rewriter.getIndexAttr(1)));
  Value zero = arith::ConstantOp::create(rewriter, loc, cElement,
                                         rewriter.getZeroAttr(cElement));
  Value partialZero =
      linalg::FillOp::create(rewriter, loc, zero, partialInit).getResult(0);
  // (t, m, n, k): A[t, m, k], B[t, k, n], P[t, m, n].
  auto map4 = [&](ArrayRef<unsigned> dims) {
    SmallVector<AffineExpr> exprs;
    for (unsigned i : dims) {
      exprs.push_back(d(i));
    }
    return AffineMap::get(4, 0, exprs, ctx);
  };
  SmallVector<Value> inputs = {aBlocks, bBlocks};
  SmallVector<AffineMap> maps = {map4({0, 1, 3}), map4({0, 3, 2}),
                                 map4({0, 1, 2})};
  if (aOperand->getOperandNumber() != 0) {
    std::swap(inputs[0], inputs[1]);
    std::swap(maps[0], maps[1]);
  }
  // A named matmul stays named (its register tiles vectorise to
  // vector.contract, an FMA per vector); another contraction keeps its body.
  Operation *batched;
  if (isa<linalg::MatmulOp>(op.getOperation())) {
    batched = linalg::BatchMatmulOp::create(
        rewriter, loc, TypeRange{partialZero.getType()},
        ValueRange{aBlocks, bBlocks}, ValueRange{partialZero});
  } else {
    auto generic = linalg::GenericOp::create(
        rewriter, loc, TypeRange{partialZero.getType()}, inputs,
        ValueRange{partialZero}, maps,
        SmallVector<utils::IteratorType>{
            utils::IteratorType::parallel, utils::IteratorType::parallel,
            utils::IteratorType::parallel, utils::IteratorType::reduction});
    rewriter.cloneRegionBefore(op->getRegion(0), generic.getRegion(),
                               generic.getRegion().end());
    batched = generic;
  }
  // C + P[0] + ... + P[tasks - 1], elementwise over [1, N].
  SmallVector<Value> rows;
  for (int64_t t = 0; t < tasks; ++t) {
    rows.push_back(tensor::ExtractSliceOp::create(
        rewriter, loc, cType, batched->getResult(0),
        SmallVector<OpFoldResult>{rewriter.getIndexAttr(t),
                                  rewriter.getIndexAttr(0),
                                  rewriter.getIndexAttr(0)},
        SmallVector<OpFoldResult>{rewriter.getIndexAttr(1),
                                  rewriter.getIndexAttr(1),
                                  rewriter.getIndexAttr(columns)},
        SmallVector<OpFoldResult>(3, rewriter.getIndexAttr(1))));
  }
  AffineMap id2 = rewriter.getMultiDimIdentityMap(2);
  auto sum = linalg::GenericOp::create(
      rewriter, loc, TypeRange{cType}, rows, ValueRange{cOperand->get()},
      SmallVector<AffineMap>(tasks + 1, id2),
      SmallVector<utils::IteratorType>(2, utils::IteratorType::parallel),
      [&](OpBuilder &b, Location l, ValueRange args) {
        Value acc = args.back();
        for (Value partial : args.drop_back()) {
          acc = arith::AddFOp::create(b, l, acc, partial);
        }
        linalg::YieldOp::create(b, l, acc);
      });
  rewriter.replaceOp(op, sum.getResults());
  tileContraction(rewriter, cast<linalg::LinalgOp>(batched));
  return true;
}

/// Splits the vector ops of the GEMV register tiles marked with
/// kNarrowGemvMarker (their K loops) into pieces of the marked lanes: each
/// transfer of a row of B or of the output tile and the contraction become
/// one op per piece, so LLVM loads, multiplies and stores half-width
/// vectors (and cannot fuse two loads into one full vector, which it may
/// do when only the loads are split).
void narrowGemvVectors(func::FuncOp func) {
  SmallVector<Operation *> ops;
  func.walk([&](scf::ForOp loop) {
    if (!loop->hasAttr(kNarrowGemvMarker)) {
      return;
    }
    for (Operation &op : loop.getBody()->without_terminator()) {
      if (isa<vector::ContractionOp, vector::TransferReadOp,
              vector::TransferWriteOp>(op)) {
        ops.push_back(&op);
      }
    }
  });
  if (!ops.empty()) {
    vector::UnrollVectorOptions options;
    // Each dimension that is a multiple of the marked lanes, wider than
    // them (the N dimension of a 1 x regN tile), in pieces of them.
    options.setNativeShapeFn(
        [](Operation *op) -> std::optional<SmallVector<int64_t>> {
          auto loop = dyn_cast_or_null<scf::ForOp>(op->getParentOp());
          auto unrollable = dyn_cast<VectorUnrollOpInterface>(op);
          if (!loop || !unrollable) {
            return std::nullopt;
          }
          auto width = loop->getAttrOfType<IntegerAttr>(kNarrowGemvMarker);
          std::optional<SmallVector<int64_t>> shape =
              unrollable.getShapeForUnroll();
          if (!width || !shape) {
            return std::nullopt;
          }
          int64_t lanes = width.getInt();
          SmallVector<int64_t> native = *shape;
          for (int64_t &extent : native) {
            if (extent > lanes && extent % lanes == 0) {
              extent = lanes;
            }
          }
          return native;
        });
    RewritePatternSet patterns(func.getContext());
    vector::populateVectorUnrollPatterns(patterns, options);
    GreedyRewriteConfig config;
    config.setStrictness(GreedyRewriteStrictness::ExistingAndNewOps);
    (void)applyOpPatternsGreedily(ops, std::move(patterns), config);
  }
  func.walk([](scf::ForOp loop) { loop->removeAttr(kNarrowGemvMarker); });
}

/// Tiles `op` (one K block of a matmul task) into regM x regN register
/// tiles, N outer so the B micro-panel is reused by each M tile, then K
/// innermost with step 1 (marked for vector.contract); edge tiles are
/// peeled into static smaller tiles. With `pack`, the B micro-panel is
/// copied into a contiguous buffer before the M loop (packPanelB).
void CpuTileAndVectorize::registerTile(RewriterBase &rewriter, Operation *op,
                                       unsigned numBatch, int64_t regM,
                                       int64_t regN, bool pack) {
  auto withBatch = [&](int64_t batch, std::initializer_list<int64_t> rest) {
    SmallVector<int64_t> sizes(numBatch, batch);
    sizes.append(rest);
    return sizes;
  };
  SmallVector<int64_t> interchange;
  for (unsigned i = 0; i < numBatch; ++i) {
    interchange.push_back(i);
  }
  interchange.append({numBatch + 1, numBatch, numBatch + 2});
  SmallVector<scf::ForOp> regLoops;
  FailureOr<Operation *> tiled =
      tileOp(rewriter, op, withBatch(1, {regM, regN, 0}),
             /*forall=*/false, interchange, &regLoops);
  if (failed(tiled)) {
    return;
  }
  if (pack) {
    packPanelB(rewriter, cast<linalg::LinalgOp>(*tiled), numBatch);
  }
  tiled = tileOp(rewriter, *tiled, withBatch(0, {0, 0, 1}), /*forall=*/false);
  if (failed(tiled)) {
    return;
  }
  (*tiled)->setAttr(kContractionMarker, rewriter.getUnitAttr());
  if (auto kLoop = (*tiled)->getParentOfType<scf::ForOp>()) {
    if (kUnroll > 1) {
      kLoop->setAttr(kUnrollKMarker, rewriter.getI64IntegerAttr(kUnroll));
    }
    if (narrowLanes > 0) {
      kLoop->setAttr(kNarrowGemvMarker,
                     rewriter.getI64IntegerAttr(narrowLanes));
    }
  }
  // Edge tiles (M or N not a multiple of the register tile) get loops of
  // their own with static, smaller tiles instead of masked vectors. Inner
  // (M) loop first: peeling the N loop then copies the peeled M loops too.
  for (scf::ForOp loop : llvm::reverse(regLoops)) {
    peel(rewriter, loop);
  }
}

/// Copies the kc x nr micro-panel of B that register tile `op` reads into a
/// contiguous buffer, once per N tile, before the M loop that reuses it.
/// Unpacked, each K step of the micro-kernel read a new row of B: with a row
/// stride that is a multiple of 4 KiB (N = 1024, 2048, 3072) the kc rows of
/// the panel mapped to one L1 set (4K aliasing) and each was a new page, and
/// the kernel ran at a third of its speed. Packed, the kernel streams kc x nr
/// contiguous elements. Where the N loop walks whole panels of a static B
/// block, the whole block is packed before it into [N_task/nr][kc][nr]
/// (packBlockB, reading each row of B once); otherwise (dynamic N, a single
/// N tile) one panel at a time, before the M loop.
/// B is the input whose indexing map does not use M and ends in N (row-major
/// B); a transposed B, or a tile whose panel serves one M tile only, is left
/// as it is.
void CpuTileAndVectorize::packPanelB(RewriterBase &rewriter,
                                     linalg::LinalgOp op, unsigned numBatch) {
  OpOperand *bOperand = rowMajorB(op, numBatch);
  if (!bOperand) {
    return;
  }
  auto slice = bOperand->get().getDefiningOp<tensor::ExtractSliceOp>();
  if (!slice) {
    return;
  }
  // The outermost enclosing loop the slice does not depend on: the M loop
  // (and batch loops outside it, if any, stay out of reach because the
  // slice depends on them).
  auto definedOutside = [&](scf::ForOp loop) {
    return llvm::all_of(slice->getOperands(), [&](Value v) {
      return !loop.getRegion().isAncestor(v.getParentRegion());
    });
  };
  scf::ForOp reuseLoop;
  for (auto loop = op->getParentOfType<scf::ForOp>();
       loop && definedOutside(loop);
       loop = loop->getParentOfType<scf::ForOp>()) {
    reuseLoop = loop;
  }
  if (!reuseLoop) {
    return;
  }
  // A panel read by one register tile only is not worth a copy.
  if (std::optional<APInt> trips = reuseLoop.getStaticTripCount();
      trips && trips->sle(1)) {
    return;
  }
  OpBuilder::InsertionGuard guard(rewriter);
  Location loc = op.getLoc();
  AffineMap bMap = op.getMatchingIndexingMap(bOperand);
  unsigned rowDim = bMap.getNumResults() - 2;
  if (packBlockB(rewriter, slice, reuseLoop, rowDim)) {
    ++numPackedPanels;
    return;
  }
  rewriter.setInsertionPoint(reuseLoop);
  auto panel = cast<tensor::ExtractSliceOp>(rewriter.clone(*slice));
  SmallVector<OpFoldResult> sizes =
      tensor::getMixedSizes(rewriter, loc, panel.getResult());
  Value empty = tensor::EmptyOp::create(rewriter, loc, sizes,
                                        panel.getResultType().getElementType());
  // B's rows run along K: the K dimension of the panel is the row loop.
  Value packed = vectorRowCopy(rewriter, loc, panel.getResult(), empty, rowDim);
  if (!packed) {
    packed = linalg::CopyOp::create(rewriter, loc, panel.getResult(), empty)
                 .getResult(0);
  }
  rewriter.modifyOpInPlace(op, [&] { bOperand->set(packed); });
  if (slice->use_empty()) {
    rewriter.eraseOp(slice);
  }
  ++numPackedPanels;
}

void CpuTileAndVectorize::tileConvolution(RewriterBase &rewriter,
                                          linalg::LinalgOp op) {
  // Loop orders: nchw_fchw (n, f, oh, ow, c, kh, kw);
  //              nhwc_hwcf (n, oh, ow, f, kh, kw, c).
  bool nchw = isa<linalg::Conv2DNchwFchwOp>(op);
  SmallVector<int64_t> parallelSizes =
      nchw ? SmallVector<int64_t>{1, 16, 0, 0, 0, 0, 0}
           : SmallVector<int64_t>{1, 1, 0, 0, 0, 0, 0};
  // Output rows and filter rows to 1 so the op decomposes into 1-D
  // convolutions; output columns and channels in vector-sized pieces.
  SmallVector<int64_t> sizes =
      nchw ? SmallVector<int64_t>{1, 4, 1, lanes, 8, 1, 0}
           : SmallVector<int64_t>{1, 1, lanes, 16, 1, 0, 8};
  Operation *current = op;
  if (parallel) {
    FailureOr<Operation *> tiled =
        tileOp(rewriter, current, parallelSizes, true);
    if (failed(tiled)) {
      return;
    }
    current = *tiled;
  }
  FailureOr<Operation *> tiled = tileOp(rewriter, current, sizes, false);
  if (failed(tiled)) {
    return;
  }
  // MLIR 22's decomposition of conv_2d_nchw_fchw drops the wrong unit
  // dimension of the input when the batch tile is 1 (it takes the first unit
  // dimension, N, instead of H), so only NHWC convolutions are decomposed and
  // vectorised; NCHW ones run as scalar loops inside their tasks.
  if (nchw) {
    (*tiled)->setAttr(kScalarMarker, rewriter.getUnitAttr());
  } else {
    decomposable.push_back(*tiled);
  }
}

void CpuTileAndVectorize::parallelizeOther(RewriterBase &rewriter,
                                           linalg::LinalgOp op) {
  if (!parallel || insideForall(op) || op.hasDynamicShape() ||
      op.getNumLoops() == 0) {
    return;
  }
  SmallVector<int64_t> bounds = op.getStaticLoopRanges();
  int64_t elements = 1;
  for (int64_t b : bounds) {
    elements *= b;
  }
  SmallVector<utils::IteratorType> iters = op.getIteratorTypesArray();
  // The outermost parallel loop of more than one iteration, past loops of
  // one (the batch of an NCHW op at batch 1: the bias + ReLU, pooling and
  // copies of every batch-1 CNN ran on one thread).
  unsigned dim = 0;
  while (dim + 1 < bounds.size() && bounds[dim] == 1 &&
         iters[dim] == utils::IteratorType::parallel) {
    ++dim;
  }
  if (elements < kMinParallelElements ||
      iters[dim] != utils::IteratorType::parallel || bounds[dim] < 2) {
    return;
  }
  // Up to 16 tasks over that loop; the OpenMP runtime spreads them over its
  // threads.
  SmallVector<int64_t> sizes(bounds.size(), 0);
  for (unsigned i = 0; i < dim; ++i) {
    sizes[i] = 1;
  }
  // A tile that divides the extent: a partial last task has dynamic sizes,
  // and dynamic shapes stay scalar (1000 channels in tiles of 63 made the
  // whole op scalar; tiles of 100 do not).
  int64_t tile = llvm::divideCeil(bounds[dim], 16);
  while (bounds[dim] % tile != 0) {
    ++tile;
  }
  sizes[dim] = tile;
  (void)tileOp(rewriter, op.getOperation(), sizes,
               /*forall=*/true);
}

void CpuTileAndVectorize::tileLeaf(RewriterBase &rewriter,
                                   linalg::LinalgOp op) {
  if (op->hasAttr(kScalarMarker) || op->hasAttr(kContractionMarker) ||
      op.getNumLoops() == 0 || hasSubByteOperand(op) ||
      isa<linalg::ConvolutionOpInterface>(op.getOperation())) {
    return;
  }
  unsigned numLoops = op.getNumLoops();
  SmallVector<int64_t> bounds = op.getStaticLoopRanges();
  SmallVector<int64_t> sizes(numLoops, 1);
  int64_t last = bounds.back();
  int64_t width = ShapedType::isDynamic(last) ? lanes : std::min(last, lanes);
  sizes.back() = width;
  // A transposing op gets lanes x lanes tiles: the vectoriser then reads
  // whole rows of the transposed input and transposes the block in
  // registers, where a 1 x lanes tile gathers one element per lane from
  // lanes rows (the forward transposes of a training step's weights).
  bool blocked = transposesInnerLoops(op) && last % lanes == 0 &&
                 !ShapedType::isDynamic(bounds[numLoops - 2]) &&
                 bounds[numLoops - 2] >= lanes;
  if (blocked) {
    sizes[numLoops - 2] = lanes;
  }
  if (llvm::all_of(llvm::zip(bounds, sizes), [](auto pair) {
        return std::get<0>(pair) == std::get<1>(pair);
      })) {
    return;
  }
  auto tileable = dyn_cast<TilingInterface>(op.getOperation());
  if (!tileable) {
    return;
  }
  scf::SCFTilingOptions options;
  options.setTileSizes(getAsIndexOpFoldResult(op->getContext(), sizes));
  rewriter.setInsertionPoint(op);
  FailureOr<scf::SCFTilingResult> result =
      scf::tileUsingSCF(rewriter, tileable, options);
  if (failed(result)) {
    return;
  }
  rewriter.replaceOp(op, result->replacements);
  // A static extent that is not a multiple of the vector width: peel the last
  // partial vector into its own loop so both parts have static shapes and
  // need no masks.
  if (!ShapedType::isDynamic(last) && last % width != 0 &&
      !result->loops.empty()) {
    if (auto inner =
            dyn_cast<scf::ForOp>(result->loops.back().getOperation())) {
      peel(rewriter, inner);
    }
  }
  // Likewise the rows of a blocked transpose: the last rows (fewer than
  // lanes) keep 1 x lanes tiles of their own.
  if (blocked && bounds[numLoops - 2] % lanes != 0 &&
      result->loops.size() >= 2) {
    if (auto rows = dyn_cast<scf::ForOp>(
            result->loops[result->loops.size() - 2].getOperation())) {
      peel(rewriter, rows);
    }
  }
}

void CpuTileAndVectorize::vectorizeLeaf(RewriterBase &rewriter,
                                        linalg::LinalgOp op) {
  if (op->hasAttr(kScalarMarker)) {
    return;
  }
  bool contraction = op->hasAttr(kContractionMarker);
  op->removeAttr(kContractionMarker);
  // i1 tensors stay scalar: see hasSubByteOperand.
  if (hasSubByteOperand(op)) {
    ++numScalar;
    return;
  }
  // Dynamic shapes stay scalar: masked vectors from MLIR 22's vectoriser did
  // not survive the later vector passes (see docs/design/cpu-codegen.md).
  // Static shapes are the common case after shape inference.
  // A contraction becomes a vector.contract (not mul + add) so it lowers to
  // outer products, i.e. fused multiply-adds, without fast-math flags.
  if (!op.hasDynamicShape() && !convUnrollsTooFar(op) &&
      !reducesInputFreeValue(op) &&
      vectorizeOp(rewriter, op, {}, /*namedContraction=*/contraction)) {
    ++numVectorized;
  } else {
    ++numScalar;
  }
}

void CpuTileAndVectorize::runOnOperation() {
  func::FuncOp func = getOperation();
  MLIRContext *ctx = &getContext();
  lanes = vectorWidth > 0 ? int64_t(vectorWidth)
                          : int64_t(graphc::detectHostCpu().vectorBits / 32);
  IRRewriter rewriter(ctx);

  // Phase 0: 2-D NCHW convolutions become im2col + GEMM (convToGemm), so
  // phase 1 register-tiles them like a matmul.
  if (convGemm) {
    SmallVector<linalg::Conv2DNchwFchwOp> convs;
    func.walk([&](linalg::Conv2DNchwFchwOp op) { convs.push_back(op); });
    for (linalg::Conv2DNchwFchwOp conv : convs) {
      if (!conv.hasPureTensorSemantics()) {
        continue;
      }
      if (succeeded(wideFilterConvToGemm(rewriter, conv, lanes, parallel))) {
        ++numWideFilterGemms;
      } else if (succeeded(convToGemm(rewriter, conv, lanes, parallel))) {
        ++numConvGemms;
      }
    }
  }

  // Phase 0b: depthwise convolutions and grouped ones with few output
  // channels per group get direct vector kernels (grouped ones with whole
  // vectors of them took graphc-cpu-direct-conv's row kernel before this
  // pass, when asked for); other grouped ones become one convolution per
  // group, which convToGemm makes a GEMM.
  {
    SmallVector<linalg::Conv2DNgchwGfchwOp> grouped;
    func.walk([&](linalg::Conv2DNgchwGfchwOp op) { grouped.push_back(op); });
    for (linalg::Conv2DNgchwGfchwOp conv : grouped) {
      if (!conv.hasPureTensorSemantics()) {
        continue;
      }
      if (succeeded(depthwiseConv(rewriter, conv, lanes))) {
        ++numDepthwise;
        continue;
      }
      if (succeeded(groupedPlaneConv(rewriter, conv, lanes))) {
        ++numSmallGroupConvs;
        continue;
      }
      if (!convGemm) {
        continue;
      }
      if (succeeded(groupedPointwiseToGemm(rewriter, conv, parallel, lanes))) {
        ++numGroupedGemms;
        continue;
      }
      FailureOr<linalg::Conv2DNchwFchwOp> perGroup =
          groupedConvToPerGroup(rewriter, conv, lanes, parallel);
      // Inside group tasks the im2col copy is serial.
      if (succeeded(perGroup) &&
          succeeded(convToGemm(rewriter, *perGroup, lanes,
                               parallel && !insideForall(*perGroup)))) {
        ++numConvGemms;
      }
    }
  }

  // Phase 0c: 2-D NCHW max and sum pooling get the same direct plane kernel.
  {
    SmallVector<linalg::LinalgOp> pools;
    func.walk([&](linalg::LinalgOp op) {
      if (isa<linalg::PoolingNchwMaxOp, linalg::PoolingNchwSumOp>(
              op.getOperation())) {
        pools.push_back(op);
      }
    });
    for (linalg::LinalgOp pool : pools) {
      if (succeeded(poolPlanes(rewriter, pool, lanes))) {
        ++numPools;
      }
    }
  }

  // Phase 1: contractions and convolutions get their own strategies.
  SmallVector<linalg::LinalgOp> roots;
  func.walk([&](linalg::LinalgOp op) { roots.push_back(op); });
  for (linalg::LinalgOp op : roots) {
    if (!op.hasPureTensorSemantics()) {
      continue;
    }
    if (isMatmulLike(op) && op.getNumLoops() <= 4) {
      tileContraction(rewriter, op);
    } else if (isa<linalg::Conv2DNchwFchwOp, linalg::Conv2DNhwcHwcfOp>(op)) {
      tileConvolution(rewriter, op);
    }
  }
  // Tiled 2-D convolutions with unit output and filter rows become 1-D ones.
  if (!decomposable.empty()) {
    RewritePatternSet patterns(ctx);
    linalg::populateDecomposeConvolutionPatterns(patterns);
    (void)applyOpPatternsGreedily(decomposable, std::move(patterns));
    decomposable.clear();
  }

  // Phase 1b: sums over contiguous innermost elements (batch norm's
  // per-channel sums, pooling to 1x1, softmax rows) keep lane partial sums
  // instead of a horizontal reduction per vector, and copies of contiguous
  // blocks move whole blocks (CpuInnerDims.cpp). Only ops phase 1 left
  // alone, at the top of the function.
  {
    SmallVector<linalg::LinalgOp> sums;
    func.walk([&](linalg::LinalgOp op) {
      if (op->getParentOp() == func.getOperation() &&
          !op->hasAttr(kScalarMarker) && !op->hasAttr(kContractionMarker) &&
          !isMatmulLike(op) &&
          !isa<linalg::ConvolutionOpInterface>(op.getOperation())) {
        sums.push_back(op);
      }
    });
    for (linalg::LinalgOp op : sums) {
      if (succeeded(graphc::splitLaneReduction(rewriter, op, lanes))) {
        ++numLaneReductions;
      } else if (succeeded(graphc::collapseBlockCopy(rewriter, op, lanes))) {
        ++numBlockCopies;
      }
    }
  }

  // Phase 2: what is not yet inside a task gets an scf.forall of its own.
  SmallVector<linalg::LinalgOp> others;
  func.walk([&](linalg::LinalgOp op) { others.push_back(op); });
  for (linalg::LinalgOp op : others) {
    if (op.hasPureTensorSemantics() && !op->hasAttr(kScalarMarker)) {
      parallelizeOther(rewriter, op);
    }
  }

  // Phase 3: every remaining linalg op is tiled to vectors (the partial
  // last vector peeled off), shapes are folded to static ones, and then
  // vectorised.
  SmallVector<linalg::LinalgOp> leaves;
  func.walk([&](linalg::LinalgOp op) { leaves.push_back(op); });
  for (linalg::LinalgOp op : leaves) {
    if (op.hasPureTensorSemantics()) {
      tileLeaf(rewriter, op);
    }
  }
  {
    RewritePatternSet patterns(ctx);
    for (Dialect *dialect : ctx->getLoadedDialects()) {
      dialect->getCanonicalizationPatterns(patterns);
    }
    for (RegisteredOperationName name : ctx->getRegisteredOperations()) {
      name.getCanonicalizationPatterns(patterns, ctx);
    }
    (void)applyPatternsGreedily(func, std::move(patterns));
  }
  leaves.clear();
  func.walk([&](linalg::LinalgOp op) { leaves.push_back(op); });
  for (linalg::LinalgOp op : leaves) {
    if (op.hasPureTensorSemantics()) {
      vectorizeLeaf(rewriter, op);
    }
  }

  narrowGemvVectors(func);

  // A lanes x lanes tile read transposed (blocked transposes, see tileLeaf)
  // becomes a read of whole rows and a transpose in registers: shuffles,
  // lowered here already, because the canonicalizer would otherwise fold
  // the row extracts of the unrolled transfer_write through the
  // vector.transpose back into one extracted element per lane. Left as it
  // is, the transfer would be unrolled into one gathered element per lane.
  SmallVector<Operation *> registerTransposes;
  func.walk([&](vector::TransferReadOp read) {
    VectorType type = read.getVectorType();
    AffineMap map = read.getPermutationMap();
    auto source = dyn_cast<ShapedType>(read.getBase().getType());
    unsigned rank = map.getNumDims();
    if (type.getRank() != 2 || type.getDimSize(0) != lanes ||
        type.getDimSize(1) != lanes || read.getMask() || !source ||
        map.getNumResults() != 2 || rank < 2 ||
        map.getResult(0) != getAffineDimExpr(rank - 1, ctx) ||
        map.getResult(1) != getAffineDimExpr(rank - 2, ctx)) {
      return;
    }
    // Only whole tiles: the read covers the source's last two dimensions
    // exactly (a tile's slice), so no element is out of bounds.
    ArrayRef<int64_t> shape = source.getShape();
    if (shape[rank - 1] != lanes || shape[rank - 2] != lanes ||
        !isZeroInteger(read.getIndices()[rank - 1]) ||
        !isZeroInteger(read.getIndices()[rank - 2])) {
      return;
    }
    rewriter.setInsertionPoint(read);
    auto rows = vector::TransferReadOp::create(
        rewriter, read.getLoc(), type, read.getBase(), read.getIndices(),
        AffineMapAttr::get(AffineMap::getMinorIdentityMap(rank, 2, ctx)),
        read.getPadding(), /*mask=*/Value(),
        rewriter.getBoolArrayAttr({true, true}));
    auto transpose = rewriter.replaceOpWithNewOp<vector::TransposeOp>(
        read, rows, ArrayRef<int64_t>{1, 0});
    registerTransposes.push_back(transpose);
    ++numBlockedTransposes;
  });
  if (!registerTransposes.empty()) {
    // 16x16 (AVX-512): unpacks and 128-bit lane shuffles; other sizes: one
    // flat shuffle, which LLVM turns into permutes.
    RewritePatternSet patterns(ctx);
    vector::populateVectorTransposeLoweringPatterns(
        patterns, lanes == 16 ? vector::VectorTransposeLowering::Shuffle16x16
                              : vector::VectorTransposeLowering::Shuffle1D);
    (void)applyOpPatternsGreedily(registerTransposes, std::move(patterns));
  }

  func.walk([](Operation *op) { op->removeAttr(kScalarMarker); });

  sinkReshapesIntoOutputs(rewriter, func);
}

struct CpuHoistVectorTransfers
    : public graphc::impl::CpuHoistVectorTransfersBase<
          CpuHoistVectorTransfers> {
  void runOnOperation() override {
    func::FuncOp func = getOperation();
    // Make the slices that transfers read and write loop-invariant first.
    func.walk([](LoopLikeOpInterface loop) { moveLoopInvariantCode(loop); });
    linalg::hoistRedundantVectorTransfers(func);
    IRRewriter rewriter(&getContext());
    linalg::hoistRedundantVectorBroadcasts(rewriter, func);
    // The K loops of micro-kernels the matmul strategy asked to unroll:
    // their bodies now carry the C tile in registers (iter_args).
    SmallVector<std::pair<scf::ForOp, int64_t>> kernels;
    func.walk([&](scf::ForOp loop) {
      if (auto factor = loop->getAttrOfType<IntegerAttr>(kUnrollKMarker)) {
        kernels.push_back({loop, factor.getInt()});
      }
    });
    for (auto [loop, factor] : kernels) {
      loop->removeAttr(kUnrollKMarker);
      if (factor > 1 && loop.getNumRegionIterArgs() > 0) {
        (void)loopUnrollByFactor(loop, factor);
      }
    }
  }
};

/// Whether `a` and `b` are subviews of one buffer with the same offsets,
/// sizes and strides: bufferizing `insert_slice(write(extract_slice(x)))`
/// in place leaves a copy between two such views.
bool sameSubview(Value a, Value b) {
  auto va = a.getDefiningOp<memref::SubViewOp>();
  auto vb = b.getDefiningOp<memref::SubViewOp>();
  if (!va || !vb || va.getSource() != vb.getSource() ||
      va.getType() != vb.getType()) {
    return false;
  }
  return isEqualConstantIntOrValueArray(va.getMixedOffsets(),
                                        vb.getMixedOffsets()) &&
         isEqualConstantIntOrValueArray(va.getMixedSizes(),
                                        vb.getMixedSizes()) &&
         isEqualConstantIntOrValueArray(va.getMixedStrides(),
                                        vb.getMixedStrides());
}

/// A copy between static memrefs whose rows (last dimension) are
/// contiguous in both, as loops over the other dimensions around vector
/// transfers of a row: `lanes` at a time, then power-of-two pieces. The
/// padding copies of the direct convolutions' inputs (rows of 56 into rows
/// of 58) became scalar moves through linalg.copy's loops: LLVM unrolled
/// the row and could not prove the two buffers apart.
bool vectorCopy(RewriterBase &rewriter, memref::CopyOp copy, int64_t lanes) {
  auto src = dyn_cast<MemRefType>(copy.getSource().getType());
  auto dst = dyn_cast<MemRefType>(copy.getTarget().getType());
  if (!src || !dst || !src.hasStaticShape() || !dst.hasStaticShape() ||
      src.getShape() != dst.getShape() || src.getRank() == 0 ||
      src.getElementType() != dst.getElementType() ||
      // f16/bf16 vectors may be widened through f32 by LLVM (bf16 needs a
      // compiler-rt builtin then); i1 is not byte-addressed.
      !(src.getElementType().isF32() || src.getElementType().isF64() ||
        (src.getElementType().isInteger() &&
         src.getElementType().getIntOrFloatBitWidth() >= 8)) ||
      !src.isLastDimUnitStride() || !dst.isLastDimUnitStride() ||
      src.getShape().back() < 4 || lanes < 2) {
    return false;
  }
  Location loc = copy.getLoc();
  graphc::IndexMath im{rewriter, loc};
  ArrayRef<int64_t> shape = src.getShape();
  int64_t width = shape.back();
  Type et = src.getElementType();
  rewriter.setInsertionPoint(copy);
  SmallVector<Value> ivs;
  for (int64_t d = 0; d + 1 < int64_t(shape.size()); ++d) {
    auto loop = scf::ForOp::create(rewriter, loc, im.idx(0), im.idx(shape[d]),
                                   im.idx(1));
    rewriter.setInsertionPointToStart(loop.getBody());
    ivs.push_back(loop.getInductionVar());
  }
  Value pad =
      arith::ConstantOp::create(rewriter, loc, et, rewriter.getZeroAttr(et));
  auto piece = [&](Value at, int64_t size) {
    SmallVector<Value> idx = ivs;
    idx.push_back(at);
    auto type = VectorType::get({size}, et);
    Value v = vector::TransferReadOp::create(
        rewriter, loc, type, copy.getSource(), idx, std::optional<Value>(pad),
        ArrayRef<bool>{true});
    vector::TransferWriteOp::create(rewriter, loc, v, copy.getTarget(), idx,
                                    ArrayRef<bool>{true});
  };
  int64_t main = width - width % lanes;
  if (main > 0) {
    auto loop = scf::ForOp::create(rewriter, loc, im.idx(0), im.idx(main),
                                   im.idx(lanes));
    OpBuilder::InsertionGuard guard(rewriter);
    rewriter.setInsertionPointToStart(loop.getBody());
    piece(loop.getInductionVar(), lanes);
  }
  for (int64_t at = main, rest = width - main; rest > 0;) {
    int64_t size = int64_t(1) << llvm::Log2_64(rest);
    piece(im.idx(at), size);
    at += size;
    rest -= size;
  }
  rewriter.eraseOp(copy);
  return true;
}

struct CpuExpandCopies
    : public graphc::impl::CpuExpandCopiesBase<CpuExpandCopies> {
  using Base::Base;
  void runOnOperation() override {
    IRRewriter rewriter(&getContext());
    int64_t lanes = vectorWidth > 0
                        ? int64_t(vectorWidth)
                        : int64_t(graphc::detectHostCpu().vectorBits / 32);
    getOperation().walk([&](memref::CopyOp copy) {
      // In-place updates of a slice bufferize to a copy of the slice onto
      // itself: nothing to do.
      if (copy.getSource() == copy.getTarget() ||
          sameSubview(copy.getSource(), copy.getTarget())) {
        rewriter.eraseOp(copy);
        return;
      }
      if (vectorCopy(rewriter, copy, lanes)) {
        return;
      }
      rewriter.setInsertionPoint(copy);
      rewriter.replaceOpWithNewOp<linalg::CopyOp>(copy, copy.getSource(),
                                                  copy.getTarget());
    });
  }
};

struct CpuDropEquivalentResults
    : public graphc::impl::CpuDropEquivalentResultsBase<
          CpuDropEquivalentResults> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    SmallVector<func::FuncOp> madePrivate;
    for (func::FuncOp fn : module.getOps<func::FuncOp>()) {
      if (fn.isPublic() && !fn.isDeclaration()) {
        fn.setPrivate();
        madePrivate.push_back(fn);
      }
    }
    OpPassManager pipeline(ModuleOp::getOperationName());
    pipeline.addPass(bufferization::createDropEquivalentBufferResultsPass());
    LogicalResult result = runPipeline(pipeline, module);
    for (func::FuncOp fn : madePrivate) {
      fn.setPublic();
    }
    if (failed(result)) {
      signalPassFailure();
    }
  }
};

} // namespace
