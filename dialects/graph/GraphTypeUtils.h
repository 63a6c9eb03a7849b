//===- GraphTypeUtils.h - shape helpers shared by graph ops -------*- C++
//-*-===//
//
// Shape arithmetic that several graph ops' type inference shares: NumPy
// broadcasting, compatibility of declared and inferred types, and the default
// op cost. All functions that can fail take an optional location and emit an
// error there when it is set, so they serve both verification (location set)
// and speculative inference (no location, no diagnostic).
//
//===----------------------------------------------------------------------===//

#ifndef GRAPHC_DIALECTS_GRAPH_GRAPHTYPEUTILS_H
#define GRAPHC_DIALECTS_GRAPH_GRAPHTYPEUTILS_H

#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Location.h"
#include "mlir/IR/Operation.h"
#include "mlir/IR/TypeRange.h"
#include "llvm/ADT/SmallVector.h"

#include <optional>

namespace graphc::graph {

/// Broadcasts two shapes the NumPy way into `result`. Dynamic dimensions
/// (ShapedType::kDynamic) combine with 1 to dynamic and with a static size N
/// to N. Fails (emitting at `loc` when set) on two static sizes that are
/// neither equal nor 1. `opName` prefixes the message.
llvm::LogicalResult broadcastShapes(std::optional<mlir::Location> loc,
                                    llvm::StringRef opName,
                                    llvm::ArrayRef<int64_t> lhs,
                                    llvm::ArrayRef<int64_t> rhs,
                                    llvm::SmallVectorImpl<int64_t> &result);

/// Infers the result type of a broadcasting binary op: the broadcast shape
/// (unranked when either operand is unranked) with `resultElementType`, or
/// with the operands' common element type when it is null (in which case the
/// operands' element types must agree).
llvm::LogicalResult
inferBroadcastBinary(std::optional<mlir::Location> loc, llvm::StringRef opName,
                     mlir::Type lhs, mlir::Type rhs,
                     mlir::Type resultElementType,
                     llvm::SmallVectorImpl<mlir::Type> &inferred);

/// Returns the more refined of two compatible tensor types: static dimensions
/// from either, ranked over unranked. Returns null when they conflict.
mlir::Type refineTensorType(mlir::Type a, mlir::Type b);

/// Number of elements of a statically shaped tensor type, or std::nullopt.
std::optional<int64_t> getStaticNumElements(mlir::Type type);

/// Bytes of a statically shaped tensor type (bit width rounded up to whole
/// bytes per element), or std::nullopt.
std::optional<int64_t> getStaticSizeInBytes(mlir::Type type);

/// The raw row-major bytes behind an elements attribute of a statically
/// shaped tensor: a non-splat dense attribute's data or a dense_resource
/// attribute's blob. std::nullopt for a splat, a resource without a blob, an
/// element type without whole bytes per element (i1, index, complex) or a
/// blob whose size does not match the type.
std::optional<llvm::ArrayRef<char>> getRawElementBytes(mlir::Attribute value);

/// Normalises an axis in [-rank, rank) to [0, rank); fails (emitting at `loc`)
/// when out of range.
llvm::FailureOr<int64_t> normalizeAxis(std::optional<mlir::Location> loc,
                                       llvm::StringRef opName, int64_t axis,
                                       int64_t rank);

namespace detail {
/// Declared and inferred result types agree: same count, same element types,
/// compatible shapes.
bool isCompatibleReturnTypes(mlir::TypeRange lhs, mlir::TypeRange rhs);
/// Default cost: one operation per element of every result.
std::optional<int64_t> defaultFlops(mlir::Operation *op);
/// Default bytes: sum of the sizes of all tensor operands and results.
std::optional<int64_t> defaultBytesMoved(mlir::Operation *op);
} // namespace detail

} // namespace graphc::graph

#endif // GRAPHC_DIALECTS_GRAPH_GRAPHTYPEUTILS_H
