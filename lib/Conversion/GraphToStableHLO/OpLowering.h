//===- OpLowering.h - graph ops to stablehlo ops, one at a time -*- C++ -*-===//

#ifndef GRAPHC_LIB_CONVERSION_GRAPHTOSTABLEHLO_OPLOWERING_H
#define GRAPHC_LIB_CONVERSION_GRAPHTOSTABLEHLO_OPLOWERING_H

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"

namespace graphc::tostablehlo {

/// Emits the stablehlo ops of one computational graph op at the builder's
/// insertion point. `operands` are the op's operands already lowered.
/// Returns the values that replace the op's results, or failure after an
/// error at the op naming it and `task`.
mlir::FailureOr<llvm::SmallVector<mlir::Value>>
lowerGraphOp(mlir::OpBuilder &b, mlir::Operation *op, mlir::ValueRange operands,
             llvm::StringRef task);

/// `x` broadcast numpy-style (trailing dimensions aligned) to `shape`,
/// keeping its element type; `x` itself when it has that shape.
mlir::Value broadcastTo(mlir::OpBuilder &b, mlir::Location loc, mlir::Value x,
                        llvm::ArrayRef<int64_t> shape);

/// A 0-d constant of `element` holding `value`.
mlir::Value scalarConstant(mlir::OpBuilder &b, mlir::Location loc,
                           mlir::Type element, double value);

/// How a reduction body combines its accumulator and element.
enum class Combiner { Add, Mul, Max, Min };

/// Fills `region` with a reduction body of two 0-d `element` tensors
/// combined by `combiner`, ending in `stablehlo.return`.
void buildReducerBody(mlir::OpBuilder &b, mlir::Location loc,
                      mlir::Region &region, mlir::Type element,
                      Combiner combiner);

} // namespace graphc::tostablehlo

#endif // GRAPHC_LIB_CONVERSION_GRAPHTOSTABLEHLO_OPLOWERING_H
