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

} // namespace graphc::import

#endif // GRAPHC_LIB_IMPORT_IMPORTUTILS_H
