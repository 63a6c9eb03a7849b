//===- ReverseMode.h - reverse-mode differentiation of graph ops -*- C++
//-*-===//
//
// The core of graph-autodiff, for its other users: the ONNX importer's
// ai.onnx.preview.training Gradient node differentiates a tensor of the
// model with respect to others while importing (docs/design/training.md,
// "Gradients at import").
//
//===----------------------------------------------------------------------===//

#ifndef GRAPHC_AUTODIFF_REVERSEMODE_H
#define GRAPHC_AUTODIFF_REVERSEMODE_H

#include "mlir/IR/Builders.h"
#include "mlir/Support/LLVM.h"

#include "llvm/ADT/STLFunctionalExtras.h"

#include <string>

namespace graphc::autodiff {

/// A value differentiated with respect to: an argument, a tensor of an
/// imported model, or a variable and every read of it (whose adjoints are
/// summed). `label` names it in diagnostics ("argument 'x'").
struct ReverseSource {
  std::string label;
  llvm::SmallVector<mlir::Value> values;
};

/// How reverse() words its diagnostics and reports what it builds.
struct ReverseOptions {
  /// Starts every diagnostic ("graph-autodiff: ").
  std::string prefix;
  /// What is differentiated, as the diagnostics call it ("the loss").
  std::string target;
  /// Ends the diagnostic for an op with no gradient rule (what to do).
  std::string advice;
  /// Called once the ops to differentiate are known, before any is built,
  /// with those ops in reverse program order.
  llvm::function_ref<void(llvm::ArrayRef<mlir::Operation *>)> planned;
  /// Called after the adjoints of `op`'s operands are built; they follow
  /// `before` (null: the block's start).
  llvm::function_ref<void(mlir::Operation *op, mlir::Operation *before)> built;
};

/// Reverse-mode differentiation of `y`, whose adjoint is `seed` in every
/// element (1: the gradient of the sum of y's elements), through the ops that
/// precede b's insertion point in its block: builds the adjoint ops there and
/// returns, for each source, the sum of its values' adjoints, null where `y`
/// does not depend on the source. Ops on a path from a source to `y` must have
/// a gradient rule and static shapes; the first that does not is reported
/// (failure). Adjoint ops that nothing reads are erased; the returned values
/// are kept.
mlir::FailureOr<llvm::SmallVector<mlir::Value>>
reverse(mlir::OpBuilder &b, mlir::Value y, double seed,
        llvm::ArrayRef<ReverseSource> sources, const ReverseOptions &options);

} // namespace graphc::autodiff

#endif // GRAPHC_AUTODIFF_REVERSEMODE_H
