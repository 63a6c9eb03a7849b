//===- GradientRules.h - reverse-mode rules of the graph ops ----*- C++ -*-===//
//
// One rule per differentiable graph op: given the adjoints of the op's
// results, build the adjoints of its operands. Private to lib/Autodiff.
//
//===----------------------------------------------------------------------===//

#ifndef GRAPHC_LIB_AUTODIFF_GRADIENTRULES_H
#define GRAPHC_LIB_AUTODIFF_GRADIENTRULES_H

#include "GradientBuilder.h"

#include <optional>
#include <string>

namespace graphc::autodiff {

/// Whether `t` is a tensor of floats (what is differentiated).
inline bool isFloatTensor(mlir::Type t) {
  auto tensor = mlir::dyn_cast<mlir::TensorType>(t);
  return tensor && mlir::isa<mlir::FloatType>(tensor.getElementType());
}

/// Whether `t` is a ranked tensor of static shape (what the rules need).
inline bool isStaticTensor(mlir::Type t) {
  auto ranked = mlir::dyn_cast<mlir::RankedTensorType>(t);
  return ranked && ranked.hasStaticShape();
}

/// Why `op` cannot be differentiated through, or nullopt when a rule covers
/// it (in the configuration of attributes and types it has).
std::optional<std::string> whyNotDifferentiable(mlir::Operation *op);

/// Builds the adjoints of `op`'s operands. `resultGrads[i]` is the adjoint
/// of result i, null when no gradient reaches it; `wanted[i]` says whether
/// operand i needs its adjoint. `operandGrads` gets one entry per operand,
/// null where none was wanted or where the operand's adjoint is zero.
/// Requires whyNotDifferentiable(op) to be nullopt.
void buildGradients(mlir::Operation *op,
                    llvm::ArrayRef<mlir::Value> resultGrads,
                    llvm::ArrayRef<bool> wanted, GradientBuilder &gb,
                    llvm::SmallVectorImpl<mlir::Value> &operandGrads);

} // namespace graphc::autodiff

#endif // GRAPHC_LIB_AUTODIFF_GRADIENTRULES_H
