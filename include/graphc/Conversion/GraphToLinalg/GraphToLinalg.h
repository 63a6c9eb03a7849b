//===- GraphToLinalg.h - lower graph ops to linalg on tensors -----*- C++
//-*-===//

#ifndef GRAPHC_CONVERSION_GRAPHTOLINALG_GRAPHTOLINALG_H
#define GRAPHC_CONVERSION_GRAPHTOLINALG_GRAPHTOLINALG_H

namespace mlir {
class ConversionTarget;
class RewritePatternSet;
class TypeConverter;
} // namespace mlir

namespace graphc {

/// Adds the patterns that lower graph ops to linalg, tensor, arith and math
/// on tensors. Tensor types are unchanged, so `converter` is only consulted
/// to legalize operand types when given; it may be null.
void populateGraphToLinalgPatterns(
    mlir::RewritePatternSet &patterns,
    const mlir::TypeConverter *converter = nullptr);

/// Marks the graph dialect illegal except for the ops the runtime owns
/// (variables), and the target dialects legal.
void configureGraphToLinalgTarget(mlir::ConversionTarget &target);

} // namespace graphc

#endif // GRAPHC_CONVERSION_GRAPHTOLINALG_GRAPHTOLINALG_H
