//===- StepSignature.h - named results of a step function -------*- C++ -*-===//
//
// The training passes address a function's results by the names in its
// `graph.output_names` (the importers' output names, `loss`, `grad/NAME`).
// Private to lib/Autodiff.
//
//===----------------------------------------------------------------------===//

#ifndef GRAPHC_LIB_AUTODIFF_STEPSIGNATURE_H
#define GRAPHC_LIB_AUTODIFF_STEPSIGNATURE_H

#include "mlir/Dialect/Func/IR/FuncOps.h"

#include <optional>
#include <string>

namespace graphc::autodiff {

/// The name of every result: its `graph.output_names` entry, else "outputI".
llvm::SmallVector<std::string> resultNames(mlir::func::FuncOp func);

/// The index of the result named `name`, if any.
std::optional<unsigned> findResult(mlir::func::FuncOp func,
                                   llvm::StringRef name);

/// The function's single return op (graph functions have one block).
mlir::func::ReturnOp returnOf(mlir::func::FuncOp func);

/// Replaces the function's results (the return's operands, the type and
/// `graph.output_names`).
void setResults(mlir::func::FuncOp func, mlir::ValueRange values,
                llvm::ArrayRef<std::string> names);

/// The name of argument `index`: its `graph.name`, else "argI".
std::string argumentName(mlir::func::FuncOp func, unsigned index);

} // namespace graphc::autodiff

#endif // GRAPHC_LIB_AUTODIFF_STEPSIGNATURE_H
