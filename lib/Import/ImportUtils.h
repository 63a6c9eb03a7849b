//===- ImportUtils.h - building graph ops by name -------------------------===//
//
// The importers create graph-dialect ops through their registered names, so
// they build and run while the dialect grows, and refine each result type at
// once through the op's InferTypeOpInterface: shape errors surface at the node
// that caused them.
//
//===----------------------------------------------------------------------===//

#ifndef GRAPHC_LIB_IMPORT_IMPORTUTILS_H
#define GRAPHC_LIB_IMPORT_IMPORTUTILS_H

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Operation.h"

namespace graphc::import {

/// Creates op `name` with `operands` and `attrs`, results typed
/// `tensor<*xE>` for each element type in `resultElements`, then refines the
/// result types by the op's type inference. Emits an error at `loc` and
/// returns null when the op is unknown or inference fails.
mlir::Operation *createGraphOp(mlir::OpBuilder &builder, mlir::Location loc,
                               llvm::StringRef name, mlir::ValueRange operands,
                               llvm::ArrayRef<mlir::NamedAttribute> attrs,
                               llvm::ArrayRef<mlir::Type> resultElements);

/// The element type of a tensor value.
mlir::Type getElementType(mlir::Value value);

/// The static shape of `value`, or nullopt when its rank is unknown.
std::optional<llvm::SmallVector<int64_t>> getShape(mlir::Value value);

/// Parses an attribute spelled in MLIR syntax ("#graph<reduce_kind sum>"),
/// emitting at `loc` when the dialect does not know it.
mlir::Attribute parseAttr(mlir::MLIRContext *context, mlir::Location loc,
                          llvm::StringRef text);

/// An `--input-shape NAME:DxDx...` flag: the flag as written and its
/// dimensions (`?` is dynamic).
struct InputShapeSpec {
  llvm::StringRef spec;
  llvm::SmallVector<int64_t> shape;
};

/// The first of `specs` that names `name`, parsed; none when no spec names
/// it. Emits at `loc` and fails on a dimension that is neither a count nor
/// `?`. Every importer reads --input-shape through this one parser.
mlir::FailureOr<std::optional<InputShapeSpec>>
findInputShape(llvm::ArrayRef<std::string> specs, llvm::StringRef name,
               mlir::Location loc);

/// An input (ONNX graph input, TF Placeholder) whose shape --batch could
/// not make static: `dims` are what is known (`kDynamic` where the user must
/// choose), none when even the rank is unknown.
struct UnresolvedInput {
  std::string name;
  std::optional<llvm::SmallVector<int64_t>> dims;
};

/// --batch: an unknown leading dimension of `dims` becomes `batch` (nothing
/// happens when `batch` is 0, the flag's absence).
void fillLeadingBatch(llvm::SmallVectorImpl<int64_t> &dims, int64_t batch);

/// The flag that fixes `input`: `--input-shape NAME:4x?` (the known dims
/// filled in, `?` where the user must choose), `--input-shape NAME:DIMS`
/// when the rank is unknown.
std::string inputShapeFlag(const UnresolvedInput &input);

/// The one error for every input --batch left without a static shape, one
/// line each with the flag to add. Always fails.
mlir::LogicalResult
reportUnresolvedInputs(mlir::Location loc, int64_t batch,
                       llvm::ArrayRef<UnresolvedInput> inputs);

/// The values of a constant integer tensor (shapes, axes), or nullopt when
/// `value` is null, not a constant or not of integers.
std::optional<llvm::SmallVector<int64_t>> constantInts(mlir::Value value);

/// The most elements an operand or result of a fold done while importing
/// may have: shapes and their arithmetic fold, weights are not copied.
constexpr int64_t kMaxImportFoldElements = int64_t(1) << 16;

/// What foldCreatedOp may replace a result with besides a new constant.
enum class FoldReplacement {
  /// Any existing value of the result's type (a no-op folds away).
  ExistingValue,
  /// Only constants: an existing constant is copied into a new
  /// graph.constant, so each imported node keeps an op of its own.
  NewConstant,
};

/// createOrFold for the ops the importers build by name: folds `op` with the
/// graph dialect's folder and, when it folds, erases it and returns the
/// values replacing its results (new graph.constants for folded
/// attributes). Returns nothing, leaving `op`, when it does not fold, when
/// an operand or a result is a constant over kMaxImportFoldElements, or
/// when a result would change type.
llvm::SmallVector<mlir::Value> foldCreatedOp(mlir::OpBuilder &builder,
                                             mlir::Operation *op,
                                             FoldReplacement replacement);

} // namespace graphc::import

#endif // GRAPHC_LIB_IMPORT_IMPORTUTILS_H
