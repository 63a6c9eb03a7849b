//===- CpuFuseElementwise.cpp - elementwise fusion that keeps GEMM roots --===//
//
// See CpuPasses.td: upstream's linalg-fuse-elementwise-ops with a control
// function that leaves contractions and convolutions alone, so that
// graphc-cpu-tile-and-vectorize still finds them as GEMM/convolution roots.
//
//===----------------------------------------------------------------------===//

#include "CpuPasses.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/IR/LinalgInterfaces.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Tensor/Transforms/Transforms.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace graphc {
#define GEN_PASS_DEF_CPUFUSEELEMENTWISE
#include "CpuPasses.h.inc"
} // namespace graphc

using namespace mlir;

namespace {

/// An op the tile-and-vectorize pass gives a strategy of its own.
bool isKernelRoot(Operation *op) {
  auto linalgOp = dyn_cast_or_null<linalg::LinalgOp>(op);
  return linalgOp && (linalg::isaContractionOpInterface(linalgOp) ||
                      linalg::isaConvolutionOpInterface(linalgOp));
}

/// Fuse a single-use producer, unless either side is a kernel root: an
/// elementwise producer fused into a matmul is recomputed for every output
/// column (a bias + ReLU inside the next layer's GEMM, 2048 times per
/// element in a transformer's FFN), and a reshape folded through a matmul
/// turns it into a generic with two reduction loops that no GEMM strategy
/// matches and that runs as a scalar loop nest.
bool fuseOutsideKernelRoots(OpOperand *fused) {
  Operation *producer = fused->get().getDefiningOp();
  return producer && producer->hasOneUse() && !isKernelRoot(producer) &&
         !isKernelRoot(fused->getOwner());
}

struct CpuFuseElementwise
    : public graphc::impl::CpuFuseElementwiseBase<CpuFuseElementwise> {
  void runOnOperation() override {
    Operation *op = getOperation();
    MLIRContext *ctx = op->getContext();
    RewritePatternSet patterns(ctx);
    // The pattern set of upstream's linalg-fuse-elementwise-ops (MLIR 22),
    // with the control function above for fusion and reshape folding.
    linalg::populateElementwiseOpsFusionPatterns(patterns,
                                                 fuseOutsideKernelRoots);
    linalg::populateFoldReshapeOpsByExpansionPatterns(patterns,
                                                      fuseOutsideKernelRoots);
    tensor::populateBubbleUpExpandShapePatterns(patterns);
    // tensor.concat becomes a tensor.empty and one insert_slice per operand,
    // so that empty-tensor elimination lets each operand's producer (a bias
    // + ReLU after a convolution: SqueezeNet's fire modules, Inception's
    // branches, DenseNet's blocks) compute straight into its slice of the
    // result; the concat bufferized into a fresh buffer and a serial scalar
    // copy of every operand.
    tensor::populateDecomposeTensorConcatPatterns(patterns);
    affine::AffineApplyOp::getCanonicalizationPatterns(patterns, ctx);
    linalg::GenericOp::getCanonicalizationPatterns(patterns, ctx);
    tensor::ExpandShapeOp::getCanonicalizationPatterns(patterns, ctx);
    tensor::CollapseShapeOp::getCanonicalizationPatterns(patterns, ctx);
    ctx->getLoadedDialect<linalg::LinalgDialect>()->getCanonicalizationPatterns(
        patterns);
    linalg::populateConstantFoldLinalgOperations(
        patterns, [](OpOperand *fused) {
          Operation *producer = fused->get().getDefiningOp();
          return producer && producer->hasOneUse();
        });
    (void)applyPatternsGreedily(op, std::move(patterns),
                                GreedyRewriteConfig().setUseTopDownTraversal());
  }
};

} // namespace
