//===- LoweringUtils.h - builders shared by the graph-to-linalg patterns
//---===//
//
// Private to lib/Conversion/GraphToLinalg: the few shapes of IR every pattern
// builds (broadcasting elementwise generics, reductions, reshapes, fills).
//
//===----------------------------------------------------------------------===//

#ifndef GRAPHC_LIB_CONVERSION_GRAPHTOLINALG_LOWERINGUTILS_H
#define GRAPHC_LIB_CONVERSION_GRAPHTOLINALG_LOWERINGUTILS_H

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/DialectConversion.h"

namespace graphc::graph {
enum class ReduceKind : uint32_t;
} // namespace graphc::graph

namespace graphc::lowering {

using ScalarBuilder = llvm::function_ref<mlir::Value(
    mlir::OpBuilder &, mlir::Location, mlir::ValueRange)>;

/// The ranked result type of `op`'s result `i`, or failure after emitting
/// "graph-to-linalg: unranked tensor not supported" at the op.
mlir::FailureOr<mlir::RankedTensorType> getRankedResultType(mlir::Operation *op,
                                                            unsigned i = 0);

/// Fails (emitting at `op`) unless every tensor operand and result of `op`
/// has a static shape.
mlir::LogicalResult requireStaticShapes(mlir::Operation *op);

/// `tensor.empty` of `type`, with its dynamic sizes in `dynSizes`.
mlir::Value createEmpty(mlir::OpBuilder &b, mlir::Location loc,
                        mlir::RankedTensorType type,
                        mlir::ValueRange dynSizes = {});

/// `tensor.empty` of `type` whose dynamic sizes are, NumPy-aligned at the
/// trailing dimension, the static size some operand has there or else the
/// first dynamic operand's. Dynamic operand sizes are never broadcast: every
/// other dynamic operand size there gets a `cf.assert` that it matches.
mlir::Value createEmptyForBroadcast(mlir::OpBuilder &b, mlir::Location loc,
                                    mlir::RankedTensorType type,
                                    mlir::ValueRange operands);

/// `linalg.fill` of a new tensor of `type` with `value`.
mlir::Value createFilled(mlir::OpBuilder &b, mlir::Location loc,
                         mlir::RankedTensorType type, mlir::Value value,
                         mlir::ValueRange dynSizes = {});

/// An arith constant of element type `type` holding `value` (a float type
/// gets the double, an integer type its truncation).
mlir::Value createScalar(mlir::OpBuilder &b, mlir::Location loc,
                         mlir::Type type, double value);

/// The indexing map that reads `operand` (of rank <= `resultRank`) in a
/// NumPy broadcast to `resultShape`: trailing-aligned, constant 0 where the
/// operand has a static 1 and the result does not.
mlir::AffineMap getBroadcastMap(mlir::MLIRContext *ctx,
                                mlir::RankedTensorType operand,
                                llvm::ArrayRef<int64_t> resultShape);

/// A parallel `linalg.generic` producing `resultType` from `operands`
/// broadcast the NumPy way; `body` maps the operands' scalars to the result.
mlir::Value buildElementwise(mlir::OpBuilder &b, mlir::Location loc,
                             mlir::RankedTensorType resultType,
                             mlir::ValueRange operands, ScalarBuilder body);

/// Lowers an elementwise op whose scalar computation is `Body` with
/// buildElementwise (static shapes; the broadcast of a dynamic dimension is
/// left to the core elementwise ops).
template <typename OpTy, mlir::Value (*Body)(mlir::OpBuilder &, mlir::Location,
                                             mlir::ValueRange)>
struct ElementwiseBodyLowering : mlir::OpConversionPattern<OpTy> {
  using mlir::OpConversionPattern<OpTy>::OpConversionPattern;

  mlir::LogicalResult
  matchAndRewrite(OpTy op, typename OpTy::Adaptor adaptor,
                  mlir::ConversionPatternRewriter &rewriter) const override {
    mlir::FailureOr<mlir::RankedTensorType> type = getRankedResultType(op);
    if (mlir::failed(type)) {
      return mlir::failure();
    }
    rewriter.replaceOp(op, buildElementwise(rewriter, op.getLoc(), *type,
                                            adaptor.getOperands(), Body));
    return mlir::success();
  }
};

/// A parallel `linalg.generic` over the shape of `shapeSource` producing
/// `elementType` elements from `inputs` read through `inputMaps`.
mlir::Value buildParallelGeneric(mlir::OpBuilder &b, mlir::Location loc,
                                 mlir::Value shapeSource,
                                 mlir::Type elementType,
                                 mlir::ValueRange inputs,
                                 llvm::ArrayRef<mlir::AffineMap> inputMaps,
                                 ScalarBuilder body);

/// The dynamic sizes of the ranked tensor `value`, as tensor.dim ops.
llvm::SmallVector<mlir::Value>
getDynamicSizes(mlir::OpBuilder &b, mlir::Location loc, mlir::Value value);

/// The map from a rank-`rank` iteration space that drops the sorted `dims`.
mlir::AffineMap getDropDimsMap(mlir::MLIRContext *ctx, int64_t rank,
                               llvm::ArrayRef<int64_t> dims);

/// Reduces `input` over the sorted, normalised `axes` (removing them) with
/// `combine(b, loc, {element, accumulator})`, starting from the scalar
/// `init`, whose type is the result's element type.
mlir::Value buildReduction(mlir::OpBuilder &b, mlir::Location loc,
                           mlir::Value input, llvm::ArrayRef<int64_t> axes,
                           mlir::Value init, ScalarBuilder combine);

/// Reshapes a static-shaped `value` to the static `type` with the same
/// number of elements: one expand_shape or collapse_shape when a
/// reassociation exists, otherwise a collapse to 1-d and an expand.
mlir::Value reshapeTo(mlir::OpBuilder &b, mlir::Location loc, mlir::Value value,
                      mlir::RankedTensorType type);

/// Inserts size-1 dimensions at the sorted `axes` of the result (a
/// keepdims reduction's shape) into `value`.
mlir::Value insertUnitDims(mlir::OpBuilder &b, mlir::Location loc,
                           mlir::Value value, llvm::ArrayRef<int64_t> axes);

/// Reduces `input` over the sorted, normalised `axes` with the graph
/// dialect's reduction `kind` (a `graph::ReduceKind` value), removing them.
mlir::Value reduceAlong(mlir::OpBuilder &b, mlir::Location loc,
                        mlir::Value input, llvm::ArrayRef<int64_t> axes,
                        graph::ReduceKind kind);

/// `axis` in [0, rank) when it counts from the end (verified ops only).
inline int64_t normalizeAxis(int64_t axis, int64_t rank) {
  return axis < 0 ? axis + rank : axis;
}

/// Scalar helpers that follow the graph dialect's semantics.
mlir::Value createMax(mlir::OpBuilder &b, mlir::Location loc, mlir::Value x,
                      mlir::Value y);
mlir::Value createMin(mlir::OpBuilder &b, mlir::Location loc, mlir::Value x,
                      mlir::Value y);

/// The largest (or smallest, `negative`) value of a float or integer type:
/// the identity of a min (max) reduction. Floats use infinities.
mlir::Value createExtreme(mlir::OpBuilder &b, mlir::Location loc,
                          mlir::Type type, bool negative);

/// Pattern registration per op group.
/// `converter` may be null (tensor types are never converted).
/// Retypes unsigned integer tensors to signless ones and rewrites the ops
/// whose meaning depends on signedness (UnsignedToSignless.cpp); runs before
/// the patterns. Fails, having emitted at the op, on an op it cannot take.
mlir::LogicalResult lowerUnsignedIntegers(mlir::ModuleOp module);

void populateElementwisePatterns(mlir::RewritePatternSet &patterns,
                                 const mlir::TypeConverter *converter);
void populateReductionPatterns(mlir::RewritePatternSet &patterns,
                               const mlir::TypeConverter *converter);
void populateDataMovementPatterns(mlir::RewritePatternSet &patterns,
                                  const mlir::TypeConverter *converter);
void populateNNPatterns(mlir::RewritePatternSet &patterns,
                        const mlir::TypeConverter *converter);
void populateIndexingPatterns(mlir::RewritePatternSet &patterns,
                              const mlir::TypeConverter *converter);
void populateTrainingPatterns(mlir::RewritePatternSet &patterns,
                              const mlir::TypeConverter *converter);
void populateRecurrentPatterns(mlir::RewritePatternSet &patterns,
                               const mlir::TypeConverter *converter);
void populateExtraPatterns(mlir::RewritePatternSet &patterns,
                           const mlir::TypeConverter *converter);
void populateSamplingPatterns(mlir::RewritePatternSet &patterns,
                              const mlir::TypeConverter *converter);

/// Adds conversion patterns with or without a type converter.
template <typename... Patterns>
void addPatterns(mlir::RewritePatternSet &patterns,
                 const mlir::TypeConverter *converter) {
  if (converter) {
    patterns.add<Patterns...>(*converter, patterns.getContext());
  } else {
    patterns.add<Patterns...>(patterns.getContext());
  }
}

} // namespace graphc::lowering

#endif // GRAPHC_LIB_CONVERSION_GRAPHTOLINALG_LOWERINGUTILS_H
