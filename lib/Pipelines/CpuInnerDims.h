//===- CpuInnerDims.h - ops on contiguous innermost dimensions -----------===//
//
// Part of graphc-cpu-tile-and-vectorize (CpuInnerDims.cpp).
//
//===----------------------------------------------------------------------===//

#ifndef GRAPHC_LIB_PIPELINES_CPUINNERDIMS_H
#define GRAPHC_LIB_PIPELINES_CPUINNERDIMS_H

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/IR/PatternMatch.h"

namespace graphc {

/// Rewrites a floating-point sum (or maximum or minimum: arith.maximumf,
/// minimumf, maxnumf, minnumf, exact in any order) whose innermost loops
/// reduce over
/// dimensions that are contiguous in every operand that reads them (the
/// per-channel sums of batch norm over N, H, W: H*W contiguous) into lane
/// partial sums, so the vectoriser keeps `lanes` accumulators instead of a
/// horizontal reduction per vector:
///
///   partial[o, v] += f(in[.., q*lanes + v])   v parallel, q reduction
///   tail[o]       = init[o] + sum f(in[.., P - P%lanes + t])
///   out[o]        = tail[o] + sum_v partial[o, v]
///
/// with the output's parallel loops outermost; a maximum or minimum combines
/// the same way, its partials starting at -inf or +inf. Without it a softmax
/// row's maximum was a serial chain of scalar NaN-propagating compares (13%
/// of a transformer encoder layer). Failure (nothing changed) for anything
/// else: other combiners, index ops, fewer than 2 * lanes
/// contiguous elements, dynamic shapes.
mlir::LogicalResult splitLaneReduction(mlir::RewriterBase &rewriter,
                                       mlir::linalg::LinalgOp op,
                                       int64_t lanes);

/// Collapses the innermost loops of a parallel op whose operands are all
/// permutations (linalg.transpose, a transposing elementwise generic) that
/// every operand reads contiguously and in order into one loop: a transpose of
/// the outer dimensions that moves blocks of a 3x3 filter's 9 taps or a 7x7
/// plane's 49 pixels (a filter gradient's [C, O, KH, KW] -> [O, C, KH, KW], a
/// training step's x^T) then copies vectors of the whole block instead of
/// vectors of KW or W elements, which LLVM scalarised. Failure (nothing
/// changed) when fewer than two innermost loops qualify or the last one
/// alone already fills a vector.
mlir::LogicalResult collapseBlockCopy(mlir::RewriterBase &rewriter,
                                      mlir::linalg::LinalgOp op, int64_t lanes);

} // namespace graphc

#endif // GRAPHC_LIB_PIPELINES_CPUINNERDIMS_H
