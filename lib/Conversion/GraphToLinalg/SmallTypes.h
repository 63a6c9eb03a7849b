//===- SmallTypes.h - 8-, 4- and 2-bit element types in the lowering ------===//
//
// Private to lib/Conversion/GraphToLinalg. LLVM has no 8- or 4-bit float
// types, so casts to and from them are expanded to integer arithmetic on
// their bit patterns (SmallFloatCasts.cpp); 2- and 4-bit integer tensors are
// widened to 8-bit ones before lowering (NarrowIntegers.cpp), so that every
// element of every small type occupies one byte in memory.
//
//===----------------------------------------------------------------------===//

#ifndef GRAPHC_LIB_CONVERSION_GRAPHTOLINALG_SMALLTYPES_H
#define GRAPHC_LIB_CONVERSION_GRAPHTOLINALG_SMALLTYPES_H

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"

namespace graphc::lowering {

/// True for the float formats whose casts are expanded here: every float
/// type of at most 8 bits (f8E4M3FN, f8E4M3FNUZ, f8E5M2, f8E5M2FNUZ,
/// f8E8M0FNU, f4E2M1FN and the other f8/f6/f4 formats APFloat knows).
bool isSmallFloat(mlir::Type type);

/// True for integer types of 2 or 4 bits (either signedness).
bool isNarrowInteger(mlir::Type type);

/// The exact f32 value of the scalar `x` of a small float type.
mlir::Value extendSmallFloat(mlir::OpBuilder &b, mlir::Location loc,
                             mlir::Value x);

/// The f32 scalar `x` rounded to the small float type `to`: to nearest,
/// ties to even (f8E8M0FNU: up); with `saturate`, overflow and infinities
/// give the largest finite value of their sign, without it infinity where
/// `to` has one and NaN elsewhere.
mlir::Value truncateToSmallFloat(mlir::OpBuilder &b, mlir::Location loc,
                                 mlir::Value x, mlir::FloatType to,
                                 bool saturate);

/// Before the ops are lowered: refuses every op other than casts, constants
/// and data movement on small floats and narrow integers, naming it, and
/// retypes 2- and 4-bit integer values to 8-bit ones of the same signedness
/// (sign- or zero-extended), wrapping the results of casts to them.
mlir::LogicalResult legalizeSmallTypes(mlir::ModuleOp module);

} // namespace graphc::lowering

#endif // GRAPHC_LIB_CONVERSION_GRAPHTOLINALG_SMALLTYPES_H
