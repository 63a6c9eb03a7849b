//===- CpuReductions.h - sums along contiguous dimensions in lanes --------===//
//
// Part of graphc-cpu-tile-and-vectorize (CpuReductions.cpp).
//
//===----------------------------------------------------------------------===//

#ifndef GRAPHC_LIB_PIPELINES_CPUREDUCTIONS_H
#define GRAPHC_LIB_PIPELINES_CPUREDUCTIONS_H

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/IR/PatternMatch.h"

namespace graphc {

/// Rewrites a floating-point sum whose innermost loops reduce over
/// dimensions that are contiguous in every operand that reads them (the
/// per-channel sums of batch norm over N, H, W: H*W contiguous) into lane
/// partial sums, so the vectoriser keeps `lanes` accumulators instead of a
/// horizontal reduction per vector:
///
///   partial[o, v] += f(in[.., q*lanes + v])   v parallel, q reduction
///   tail[o]       = init[o] + sum f(in[.., P - P%lanes + t])
///   out[o]        = tail[o] + sum_v partial[o, v]
///
/// with the output's parallel loops outermost. Failure (nothing changed)
/// for anything else: other combiners, index ops, fewer than 2 * lanes
/// contiguous elements, dynamic shapes.
mlir::LogicalResult splitLaneReduction(mlir::RewriterBase &rewriter,
                                       mlir::linalg::LinalgOp op,
                                       int64_t lanes);

} // namespace graphc

#endif // GRAPHC_LIB_PIPELINES_CPUREDUCTIONS_H
