//===- GraphFolds.cpp - constant folding and folders of graph ops ---------===//
//
// Constant folding evaluates an op only where the result is exactly what the
// compiled program computes: two's complement integers, and f32/f64 with the
// IEEE operations that are correctly rounded. Transcendental functions,
// narrow float types (whose kernels often compute in f32 and round twice) and
// folds that would produce a NaN (whose sign and payload differ between
// targets) are left to run time.
//
//===----------------------------------------------------------------------===//

#include "graph/GraphOps.h"

#include "mlir/Dialect/CommonFolders.h"
#include "mlir/IR/TypeUtilities.h"
#include "llvm/ADT/APSInt.h"

#include <cmath>

using namespace mlir;
using namespace graphc::graph;

namespace {

using FloatUnaryFn = function_ref<std::optional<APFloat>(const APFloat &)>;
using IntUnaryFn = function_ref<std::optional<APInt>(const APInt &)>;
using FloatBinaryFn =
    function_ref<std::optional<APFloat>(const APFloat &, const APFloat &)>;
using IntBinaryFn =
    function_ref<std::optional<APInt>(const APInt &, const APInt &)>;

/// Element types whose arithmetic folding reproduces exactly.
bool isFoldableElementType(Type type) {
  return type.isF32() || type.isF64() || type.isSignlessInteger();
}

/// Collects `operands` as constants of `resultType`'s static shape: a splat
/// is broadcast to it, any other constant must already have it. Returns false
/// when an operand is not a constant, has an element type folding does not
/// evaluate, or would need a non-splat broadcast.
bool getBroadcastConstants(ArrayRef<Attribute> operands, Type resultType,
                           SmallVectorImpl<Attribute> &constants) {
  auto type = dyn_cast<RankedTensorType>(resultType);
  if (!type || !type.hasStaticShape()) {
    return false;
  }
  for (Attribute operand : operands) {
    auto elements = dyn_cast_if_present<ElementsAttr>(operand);
    if (!elements) {
      return false;
    }
    auto operandType = cast<ShapedType>(elements.getType());
    if (!isFoldableElementType(operandType.getElementType())) {
      return false;
    }
    auto resized = type.clone(operandType.getElementType());
    if (operandType == resized) {
      constants.push_back(elements);
      continue;
    }
    auto splat = dyn_cast<SplatElementsAttr>(elements);
    if (!splat) {
      return false;
    }
    constants.push_back(splat.resizeSplat(resized));
  }
  return true;
}

/// Refuses a float result that is NaN (see the file comment).
std::optional<APFloat> notNaN(std::optional<APFloat> value) {
  if (value && value->isNaN()) {
    return std::nullopt;
  }
  return value;
}

Attribute foldUnary(ArrayRef<Attribute> operands, Type resultType,
                    FloatUnaryFn floatFn, IntUnaryFn intFn) {
  SmallVector<Attribute, 1> constants;
  if (!getBroadcastConstants(operands, resultType, constants)) {
    return {};
  }
  if (isa<FloatType>(getElementTypeOrSelf(resultType))) {
    if (!floatFn) {
      return {};
    }
    return constFoldUnaryOpConditional<FloatAttr, APFloat, void>(
        constants, resultType,
        [&](const APFloat &a) { return notNaN(floatFn(a)); });
  }
  if (!intFn) {
    return {};
  }
  return constFoldUnaryOpConditional<IntegerAttr, APInt, void>(
      constants, resultType, intFn);
}

Attribute foldBinary(ArrayRef<Attribute> operands, Type resultType,
                     FloatBinaryFn floatFn, IntBinaryFn intFn) {
  SmallVector<Attribute, 2> constants;
  if (!getBroadcastConstants(operands, resultType, constants)) {
    return {};
  }
  if (isa<FloatType>(getElementTypeOrSelf(resultType))) {
    if (!floatFn) {
      return {};
    }
    return constFoldBinaryOpConditional<FloatAttr, APFloat, void>(
        constants, resultType, [&](const APFloat &a, const APFloat &b) {
          return notNaN(floatFn(a, b));
        });
  }
  if (!intFn) {
    return {};
  }
  return constFoldBinaryOpConditional<IntegerAttr, APInt, void>(
      constants, resultType, intFn);
}

/// Whether `attr` is a splat of the integer `value`.
bool isSplatInt(Attribute attr, int64_t value) {
  auto splat = dyn_cast_if_present<SplatElementsAttr>(attr);
  if (!splat || !splat.getElementType().isSignlessInteger()) {
    return false;
  }
  APInt element = splat.getSplatValue<APInt>();
  return element == APInt(element.getBitWidth(), value, /*isSigned=*/true,
                          /*implicitTrunc=*/true);
}

/// Whether `attr` is a splat of the float `value`, bit for bit (so +0.0 and
/// -0.0 differ).
bool isSplatFloat(Attribute attr, double value) {
  auto splat = dyn_cast_if_present<SplatElementsAttr>(attr);
  if (!splat || !isa<FloatType>(splat.getElementType())) {
    return false;
  }
  APFloat element = splat.getSplatValue<APFloat>();
  APFloat expected(value);
  bool losesInfo;
  expected.convert(element.getSemantics(), APFloat::rmNearestTiesToEven,
                   &losesInfo);
  return !losesInfo && element.bitwiseIsEqual(expected);
}

/// A splat of `value` with `type` when `type` is static, for folds whose
/// result does not depend on a non-constant operand.
Attribute getSplat(Type type, int64_t value) {
  auto tensor = dyn_cast<RankedTensorType>(type);
  if (!tensor || !tensor.hasStaticShape() ||
      !tensor.getElementType().isSignlessInteger()) {
    return {};
  }
  unsigned width = tensor.getElementType().getIntOrFloatBitWidth();
  return DenseElementsAttr::get(tensor,
                                APInt(width, value, /*isSigned=*/width > 1,
                                      /*implicitTrunc=*/true));
}

/// Returns `value` when it has `type`, for identities that must not change
/// the result type (a broadcast or a refinement).
OpFoldResult ifSameType(Value value, Type type) {
  if (value.getType() == type) {
    return value;
  }
  return {};
}

/// `op(op(x))` folds to `op(x)` for an idempotent unary op.
template <typename OpTy> OpFoldResult foldIdempotent(OpTy op) {
  if (auto inner = op.getInput().template getDefiningOp<OpTy>()) {
    return ifSameType(inner.getResult(), op.getType());
  }
  return {};
}

/// `op(op(x))` folds to `x` for an involution.
template <typename OpTy> OpFoldResult foldInvolution(OpTy op) {
  if (auto inner = op.getInput().template getDefiningOp<OpTy>()) {
    return ifSameType(inner.getInput(), op.getType());
  }
  return {};
}

APFloat roundToIntegral(APFloat value, APFloat::roundingMode mode) {
  value.roundToIntegral(mode);
  return value;
}

} // namespace

//===----------------------------------------------------------------------===//
// Unary ops
//===----------------------------------------------------------------------===//

OpFoldResult NegOp::fold(FoldAdaptor adaptor) {
  if (OpFoldResult folded = foldInvolution(*this)) {
    return folded;
  }
  return foldUnary(
      adaptor.getOperands(), getType(),
      [](const APFloat &a) -> std::optional<APFloat> { return -a; },
      [](const APInt &a) -> std::optional<APInt> { return -a; });
}

OpFoldResult AbsOp::fold(FoldAdaptor adaptor) {
  if (OpFoldResult folded = foldIdempotent(*this)) {
    return folded;
  }
  return foldUnary(
      adaptor.getOperands(), getType(),
      [](const APFloat &a) -> std::optional<APFloat> { return abs(a); },
      [](const APInt &a) -> std::optional<APInt> { return a.abs(); });
}

OpFoldResult ReluOp::fold(FoldAdaptor adaptor) {
  if (OpFoldResult folded = foldIdempotent(*this)) {
    return folded;
  }
  return foldUnary(
      adaptor.getOperands(), getType(),
      [](const APFloat &a) -> std::optional<APFloat> {
        return maximum(a, APFloat::getZero(a.getSemantics()));
      },
      [](const APInt &a) -> std::optional<APInt> {
        return a.isNegative() ? APInt::getZero(a.getBitWidth()) : a;
      });
}

OpFoldResult SignOp::fold(FoldAdaptor adaptor) {
  if (OpFoldResult folded = foldIdempotent(*this)) {
    return folded;
  }
  return foldUnary(
      adaptor.getOperands(), getType(),
      [](const APFloat &a) -> std::optional<APFloat> {
        if (a.isZero() || a.isNaN()) {
          return a;
        }
        return APFloat::getOne(a.getSemantics(), a.isNegative());
      },
      [](const APInt &a) -> std::optional<APInt> {
        if (a.isZero()) {
          return a;
        }
        return a.isNegative() ? APInt::getAllOnes(a.getBitWidth())
                              : APInt(a.getBitWidth(), 1);
      });
}

OpFoldResult SqrtOp::fold(FoldAdaptor adaptor) {
  // IEEE 754 requires sqrt to be correctly rounded, so the host's std::sqrt
  // gives the target's answer for f32 and f64.
  return foldUnary(
      adaptor.getOperands(), getType(),
      [](const APFloat &a) -> std::optional<APFloat> {
        if (a.isNegative() && !a.isZero()) {
          return std::nullopt;
        }
        if (&a.getSemantics() == &APFloat::IEEEsingle()) {
          return APFloat(std::sqrt(a.convertToFloat()));
        }
        return APFloat(std::sqrt(a.convertToDouble()));
      },
      nullptr);
}

OpFoldResult ReciprocalOp::fold(FoldAdaptor adaptor) {
  return foldUnary(
      adaptor.getOperands(), getType(),
      [](const APFloat &a) -> std::optional<APFloat> {
        return APFloat::getOne(a.getSemantics()) / a;
      },
      nullptr);
}

OpFoldResult FloorOp::fold(FoldAdaptor adaptor) {
  if (OpFoldResult folded = foldIdempotent(*this)) {
    return folded;
  }
  return foldUnary(
      adaptor.getOperands(), getType(),
      [](const APFloat &a) -> std::optional<APFloat> {
        return roundToIntegral(a, APFloat::rmTowardNegative);
      },
      nullptr);
}

OpFoldResult CeilOp::fold(FoldAdaptor adaptor) {
  if (OpFoldResult folded = foldIdempotent(*this)) {
    return folded;
  }
  return foldUnary(
      adaptor.getOperands(), getType(),
      [](const APFloat &a) -> std::optional<APFloat> {
        return roundToIntegral(a, APFloat::rmTowardPositive);
      },
      nullptr);
}

OpFoldResult RoundOp::fold(FoldAdaptor adaptor) {
  if (OpFoldResult folded = foldIdempotent(*this)) {
    return folded;
  }
  return foldUnary(
      adaptor.getOperands(), getType(),
      [](const APFloat &a) -> std::optional<APFloat> {
        return roundToIntegral(a, APFloat::rmNearestTiesToEven);
      },
      nullptr);
}

OpFoldResult NotOp::fold(FoldAdaptor adaptor) {
  if (OpFoldResult folded = foldInvolution(*this)) {
    return folded;
  }
  return foldUnary(adaptor.getOperands(), getType(), nullptr,
                   [](const APInt &a) -> std::optional<APInt> { return ~a; });
}

//===----------------------------------------------------------------------===//
// CastOp
//===----------------------------------------------------------------------===//

namespace {

/// Converts one element from `from` to `to` with graph.cast's semantics, or
/// returns nullopt where the result is undefined.
template <typename From, typename To>
std::optional<typename To::ValueType>
castElement(const typename From::ValueType &value, Type to);

template <>
std::optional<APInt> castElement<IntegerAttr, IntegerAttr>(const APInt &value,
                                                           Type to) {
  unsigned width = to.getIntOrFloatBitWidth();
  if (width == 1) {
    return APInt(1, !value.isZero());
  }
  // Booleans are 0 or 1, other integers are signed.
  if (value.getBitWidth() == 1) {
    return value.zext(width);
  }
  return value.sextOrTrunc(width);
}

template <>
std::optional<APFloat> castElement<IntegerAttr, FloatAttr>(const APInt &value,
                                                           Type to) {
  APFloat result(cast<FloatType>(to).getFloatSemantics());
  result.convertFromAPInt(value, /*IsSigned=*/value.getBitWidth() > 1,
                          APFloat::rmNearestTiesToEven);
  return result;
}

template <>
std::optional<APInt> castElement<FloatAttr, IntegerAttr>(const APFloat &value,
                                                         Type to) {
  unsigned width = to.getIntOrFloatBitWidth();
  if (width == 1) {
    return APInt(1, !value.isZero());
  }
  APSInt result(width, /*isUnsigned=*/false);
  bool isExact;
  if (value.convertToInteger(result, APFloat::rmTowardZero, &isExact) &
      APFloat::opInvalidOp) {
    return std::nullopt;
  }
  return APInt(result);
}

template <>
std::optional<APFloat> castElement<FloatAttr, FloatAttr>(const APFloat &value,
                                                         Type to) {
  APFloat result = value;
  bool losesInfo;
  result.convert(cast<FloatType>(to).getFloatSemantics(),
                 APFloat::rmNearestTiesToEven, &losesInfo);
  return notNaN(result);
}

template <typename From, typename To>
Attribute foldCast(Attribute constant, Type resultType) {
  Type to = getElementTypeOrSelf(resultType);
  return constFoldUnaryOpConditional<From, typename From::ValueType, void, To>(
      ArrayRef(constant), resultType,
      [&](const typename From::ValueType &value) {
        return castElement<From, To>(value, to);
      });
}

} // namespace

OpFoldResult CastOp::fold(FoldAdaptor adaptor) {
  if (getInput().getType() == getType()) {
    return getInput();
  }
  // The constant must have the result's shape; only the element type changes.
  auto resultType = dyn_cast<RankedTensorType>(getType());
  auto constant = dyn_cast_if_present<ElementsAttr>(adaptor.getInput());
  if (!resultType || !constant ||
      constant.getShapedType().getShape() != resultType.getShape() ||
      !resultType.hasStaticShape()) {
    return {};
  }
  Type from = constant.getElementType(), to = resultType.getElementType();
  if (!isFoldableElementType(from) || !isFoldableElementType(to)) {
    return {};
  }
  bool fromFloat = isa<FloatType>(from), toFloat = isa<FloatType>(to);
  if (fromFloat && toFloat) {
    return foldCast<FloatAttr, FloatAttr>(constant, resultType);
  }
  if (fromFloat) {
    return foldCast<FloatAttr, IntegerAttr>(constant, resultType);
  }
  if (toFloat) {
    return foldCast<IntegerAttr, FloatAttr>(constant, resultType);
  }
  return foldCast<IntegerAttr, IntegerAttr>(constant, resultType);
}

//===----------------------------------------------------------------------===//
// Binary ops
//===----------------------------------------------------------------------===//

namespace {

std::optional<APFloat> floatMax(const APFloat &a, const APFloat &b) {
  return maximum(a, b);
}
std::optional<APFloat> floatMin(const APFloat &a, const APFloat &b) {
  return minimum(a, b);
}
std::optional<APInt> intMax(const APInt &a, const APInt &b) {
  return a.sgt(b) ? a : b;
}
std::optional<APInt> intMin(const APInt &a, const APInt &b) {
  return a.slt(b) ? a : b;
}

} // namespace

OpFoldResult AddOp::fold(FoldAdaptor adaptor) {
  // x + (-0.0) is x for every float x, but x + (+0.0) turns -0.0 into +0.0.
  if (isSplatInt(adaptor.getRhs(), 0) || isSplatFloat(adaptor.getRhs(), -0.0)) {
    if (OpFoldResult folded = ifSameType(getLhs(), getType())) {
      return folded;
    }
  }
  return foldBinary(
      adaptor.getOperands(), getType(),
      [](const APFloat &a, const APFloat &b) -> std::optional<APFloat> {
        return a + b;
      },
      [](const APInt &a, const APInt &b) -> std::optional<APInt> {
        return a + b;
      });
}

OpFoldResult SubOp::fold(FoldAdaptor adaptor) {
  // x - (+0.0) is x + (-0.0), which is x for every float x.
  if (isSplatInt(adaptor.getRhs(), 0) || isSplatFloat(adaptor.getRhs(), 0.0)) {
    if (OpFoldResult folded = ifSameType(getLhs(), getType())) {
      return folded;
    }
  }
  // x - x is 0 for integers (for floats, inf - inf is NaN).
  if (getLhs() == getRhs()) {
    if (Attribute zero = getSplat(getType(), 0)) {
      return zero;
    }
  }
  return foldBinary(
      adaptor.getOperands(), getType(),
      [](const APFloat &a, const APFloat &b) -> std::optional<APFloat> {
        return a - b;
      },
      [](const APInt &a, const APInt &b) -> std::optional<APInt> {
        return a - b;
      });
}

OpFoldResult MulOp::fold(FoldAdaptor adaptor) {
  if (isSplatInt(adaptor.getRhs(), 1) || isSplatFloat(adaptor.getRhs(), 1.0)) {
    if (OpFoldResult folded = ifSameType(getLhs(), getType())) {
      return folded;
    }
  }
  // x * 0 is 0 for integers only: for floats, inf * 0 is NaN and -1 * 0 is -0.
  if (isSplatInt(adaptor.getRhs(), 0)) {
    if (Attribute zero = getSplat(getType(), 0)) {
      return zero;
    }
  }
  return foldBinary(
      adaptor.getOperands(), getType(),
      [](const APFloat &a, const APFloat &b) -> std::optional<APFloat> {
        return a * b;
      },
      [](const APInt &a, const APInt &b) -> std::optional<APInt> {
        return a * b;
      });
}

OpFoldResult DivOp::fold(FoldAdaptor adaptor) {
  if (isSplatInt(adaptor.getRhs(), 1) || isSplatFloat(adaptor.getRhs(), 1.0)) {
    if (OpFoldResult folded = ifSameType(getLhs(), getType())) {
      return folded;
    }
  }
  return foldBinary(
      adaptor.getOperands(), getType(),
      [](const APFloat &a, const APFloat &b) -> std::optional<APFloat> {
        return a / b;
      },
      [](const APInt &a, const APInt &b) -> std::optional<APInt> {
        bool overflow;
        if (b.isZero()) {
          return std::nullopt;
        }
        APInt quotient = a.sdiv_ov(b, overflow);
        if (overflow) {
          return std::nullopt;
        }
        return quotient;
      });
}

OpFoldResult FloorDivOp::fold(FoldAdaptor adaptor) {
  // floor(x / 1) is x for integers only.
  if (isSplatInt(adaptor.getRhs(), 1)) {
    if (OpFoldResult folded = ifSameType(getLhs(), getType())) {
      return folded;
    }
  }
  return foldBinary(
      adaptor.getOperands(), getType(),
      [](const APFloat &a, const APFloat &b) -> std::optional<APFloat> {
        return roundToIntegral(a / b, APFloat::rmTowardNegative);
      },
      [](const APInt &a, const APInt &b) -> std::optional<APInt> {
        bool overflow;
        if (b.isZero()) {
          return std::nullopt;
        }
        APInt quotient = a.sdiv_ov(b, overflow);
        if (overflow) {
          return std::nullopt;
        }
        // sdiv truncates; step down when the exact quotient was negative and
        // not whole.
        if (!a.srem(b).isZero() && a.isNegative() != b.isNegative()) {
          --quotient;
        }
        return quotient;
      });
}

OpFoldResult ModOp::fold(FoldAdaptor adaptor) {
  return foldBinary(
      adaptor.getOperands(), getType(),
      [](const APFloat &a, const APFloat &b) -> std::optional<APFloat> {
        // CPython's float_rem.
        APFloat result = a;
        result.mod(b);
        if (result.isZero()) {
          return APFloat::getZero(a.getSemantics(), b.isNegative());
        }
        if (result.isNegative() != b.isNegative()) {
          result = result + b;
        }
        return result;
      },
      [](const APInt &a, const APInt &b) -> std::optional<APInt> {
        if (b.isZero()) {
          return std::nullopt;
        }
        APInt result = a.srem(b);
        if (!result.isZero() && result.isNegative() != b.isNegative()) {
          result += b;
        }
        return result;
      });
}

OpFoldResult RemOp::fold(FoldAdaptor adaptor) {
  return foldBinary(
      adaptor.getOperands(), getType(),
      [](const APFloat &a, const APFloat &b) -> std::optional<APFloat> {
        APFloat result = a;
        result.mod(b);
        return result;
      },
      [](const APInt &a, const APInt &b) -> std::optional<APInt> {
        if (b.isZero()) {
          return std::nullopt;
        }
        return a.srem(b);
      });
}

OpFoldResult MaxOp::fold(FoldAdaptor adaptor) {
  if (getLhs() == getRhs()) {
    return ifSameType(getLhs(), getType());
  }
  return foldBinary(adaptor.getOperands(), getType(), floatMax, intMax);
}

OpFoldResult MinOp::fold(FoldAdaptor adaptor) {
  if (getLhs() == getRhs()) {
    return ifSameType(getLhs(), getType());
  }
  return foldBinary(adaptor.getOperands(), getType(), floatMin, intMin);
}

OpFoldResult AndOp::fold(FoldAdaptor adaptor) {
  if (getLhs() == getRhs() || isSplatInt(adaptor.getRhs(), 1)) {
    if (OpFoldResult folded = ifSameType(getLhs(), getType())) {
      return folded;
    }
  }
  if (isSplatInt(adaptor.getRhs(), 0)) {
    if (Attribute zero = getSplat(getType(), 0)) {
      return zero;
    }
  }
  return foldBinary(adaptor.getOperands(), getType(), nullptr,
                    [](const APInt &a, const APInt &b) -> std::optional<APInt> {
                      return a & b;
                    });
}

OpFoldResult OrOp::fold(FoldAdaptor adaptor) {
  if (getLhs() == getRhs() || isSplatInt(adaptor.getRhs(), 0)) {
    if (OpFoldResult folded = ifSameType(getLhs(), getType())) {
      return folded;
    }
  }
  if (isSplatInt(adaptor.getRhs(), 1)) {
    if (Attribute one = getSplat(getType(), 1)) {
      return one;
    }
  }
  return foldBinary(adaptor.getOperands(), getType(), nullptr,
                    [](const APInt &a, const APInt &b) -> std::optional<APInt> {
                      return a | b;
                    });
}

OpFoldResult XorOp::fold(FoldAdaptor adaptor) {
  if (isSplatInt(adaptor.getRhs(), 0)) {
    if (OpFoldResult folded = ifSameType(getLhs(), getType())) {
      return folded;
    }
  }
  if (getLhs() == getRhs()) {
    if (Attribute zero = getSplat(getType(), 0)) {
      return zero;
    }
  }
  return foldBinary(adaptor.getOperands(), getType(), nullptr,
                    [](const APInt &a, const APInt &b) -> std::optional<APInt> {
                      return a ^ b;
                    });
}

//===----------------------------------------------------------------------===//
// ClampOp
//===----------------------------------------------------------------------===//

OpFoldResult ClampOp::fold(FoldAdaptor adaptor) {
  SmallVector<Attribute, 3> constants;
  if (!getBroadcastConstants(adaptor.getOperands(), getType(), constants)) {
    return {};
  }
  Attribute lowered =
      foldBinary({constants[0], constants[1]}, getType(), floatMax, intMax);
  if (!lowered) {
    return {};
  }
  return foldBinary({lowered, constants[2]}, getType(), floatMin, intMin);
}

//===----------------------------------------------------------------------===//
// CompareOp
//===----------------------------------------------------------------------===//

namespace {

bool evaluateComparison(CompareDirection direction, int order, bool unordered) {
  if (unordered) {
    return direction == CompareDirection::ne;
  }
  switch (direction) {
  case CompareDirection::eq:
    return order == 0;
  case CompareDirection::ne:
    return order != 0;
  case CompareDirection::lt:
    return order < 0;
  case CompareDirection::le:
    return order <= 0;
  case CompareDirection::gt:
    return order > 0;
  case CompareDirection::ge:
    return order >= 0;
  }
  llvm_unreachable("unknown compare direction");
}

} // namespace

OpFoldResult CompareOp::fold(FoldAdaptor adaptor) {
  CompareDirection direction = getDirection();
  auto lhsType = cast<TensorType>(getLhs().getType());
  bool isFloat = isa<FloatType>(lhsType.getElementType());
  // x <op> x is known for integers; a float x may be NaN.
  if (getLhs() == getRhs() && !isFloat) {
    if (Attribute same = getSplat(
            getType(), evaluateComparison(direction, 0, /*unordered=*/false))) {
      return same;
    }
  }

  SmallVector<Attribute, 2> constants;
  if (!getBroadcastConstants(adaptor.getOperands(), getType(), constants)) {
    return {};
  }
  if (isFloat) {
    return constFoldBinaryOpConditional<FloatAttr, APFloat, void, IntegerAttr,
                                        APInt>(
        constants, getType(),
        [&](const APFloat &a, const APFloat &b) -> std::optional<APInt> {
          APFloat::cmpResult cmp = a.compare(b);
          int order = cmp == APFloat::cmpLessThan      ? -1
                      : cmp == APFloat::cmpGreaterThan ? 1
                                                       : 0;
          return APInt(1, evaluateComparison(direction, order,
                                             cmp == APFloat::cmpUnordered));
        });
  }
  bool isBool = lhsType.getElementType().isInteger(1);
  return constFoldBinaryOpConditional<IntegerAttr, APInt, void>(
      constants, getType(),
      [&](const APInt &a, const APInt &b) -> std::optional<APInt> {
        // Booleans order false < true; other integers are signed.
        int order = a == b ? 0 : (isBool ? a.ult(b) : a.slt(b)) ? -1 : 1;
        return APInt(1, evaluateComparison(direction, order, false));
      });
}

//===----------------------------------------------------------------------===//
// SelectOp
//===----------------------------------------------------------------------===//

OpFoldResult SelectOp::fold(FoldAdaptor adaptor) {
  if (getTrueValue() == getFalseValue()) {
    return ifSameType(getTrueValue(), getType());
  }
  if (isSplatInt(adaptor.getCond(), 1)) {
    return ifSameType(getTrueValue(), getType());
  }
  if (isSplatInt(adaptor.getCond(), 0)) {
    return ifSameType(getFalseValue(), getType());
  }

  SmallVector<Attribute, 3> constants;
  if (!getBroadcastConstants(adaptor.getOperands(), getType(), constants)) {
    return {};
  }
  auto cond = cast<DenseElementsAttr>(constants[0]);
  auto trueValues = dyn_cast<DenseElementsAttr>(constants[1]);
  auto falseValues = dyn_cast<DenseElementsAttr>(constants[2]);
  if (!trueValues || !falseValues) {
    return {};
  }
  SmallVector<Attribute> result;
  result.reserve(cond.getNumElements());
  for (auto [c, t, f] : llvm::zip_equal(cond.getValues<bool>(),
                                        trueValues.getValues<Attribute>(),
                                        falseValues.getValues<Attribute>())) {
    result.push_back(c ? t : f);
  }
  return DenseElementsAttr::get(cast<ShapedType>(getType()), result);
}

//===----------------------------------------------------------------------===//
// ReduceOp
//===----------------------------------------------------------------------===//

/// Reduces the constant `input` over `axes` into the static `resultType`,
/// combining in row-major order. Integers wrap in their width as the kernels
/// do; floats fold only for max/min, whose result does not depend on the
/// order the kernels pick. Null when `kind` does not fold for the type.
static Attribute reduceConstant(DenseElementsAttr input, ReduceKind kind,
                                ArrayRef<int64_t> axes, Type resultType) {
  constexpr int64_t kMaxElements = 1 << 16;
  auto type = dyn_cast<RankedTensorType>(resultType);
  auto inputType = cast<ShapedType>(input.getType());
  Type element = inputType.getElementType();
  bool isInt = element.isSignlessInteger() && !element.isInteger(1);
  bool isFloat = (element.isF32() || element.isF64()) &&
                 (kind == ReduceKind::max || kind == ReduceKind::min);
  if (!type || !type.hasStaticShape() || !inputType.hasStaticShape() ||
      (!isInt && !isFloat) || kind == ReduceKind::mean ||
      input.getNumElements() > kMaxElements || type.getNumElements() == 0 ||
      type.getElementType() != element) {
    return {};
  }
  ArrayRef<int64_t> shape = inputType.getShape();
  int64_t rank = shape.size();
  SmallVector<bool> reduced(rank, false);
  for (int64_t axis : axes) {
    reduced[axis < 0 ? axis + rank : axis] = true;
  }
  int64_t count = type.getNumElements();
  SmallVector<APInt> ints(count);
  SmallVector<APFloat> floats(count, APFloat(0.0));
  SmallVector<bool> seen(count, false);
  SmallVector<int64_t> index(rank, 0);
  auto combine = [&](int64_t o, auto value, auto &acc) {
    if (!seen[o]) {
      acc[o] = value;
      return;
    }
    if constexpr (std::is_same_v<decltype(value), APInt>) {
      if (kind == ReduceKind::sum) {
        acc[o] += value;
      } else if (kind == ReduceKind::prod) {
        acc[o] *= value;
      } else if (kind == ReduceKind::max) {
        acc[o] = acc[o].sge(value) ? acc[o] : value;
      } else {
        acc[o] = acc[o].sle(value) ? acc[o] : value;
      }
    } else {
      acc[o] = kind == ReduceKind::max ? maximum(acc[o], value)
                                       : minimum(acc[o], value);
    }
  };
  SmallVector<APInt> intInputs;
  SmallVector<APFloat> floatInputs;
  if (isInt) {
    intInputs.assign(input.getValues<APInt>().begin(),
                     input.getValues<APInt>().end());
  } else {
    floatInputs.assign(input.getValues<APFloat>().begin(),
                       input.getValues<APFloat>().end());
  }
  for (int64_t flat = 0, e = input.getNumElements(); flat < e; ++flat) {
    int64_t o = 0;
    for (int64_t d = 0; d < rank; ++d) {
      if (!reduced[d]) {
        o = o * shape[d] + index[d];
      }
    }
    if (isInt) {
      combine(o, intInputs[flat], ints);
    } else {
      combine(o, floatInputs[flat], floats);
    }
    seen[o] = true;
    for (int64_t d = rank - 1; d >= 0; --d) {
      if (++index[d] < shape[d]) {
        break;
      }
      index[d] = 0;
    }
  }
  // An empty reduction (a scalar's Size) is the kind's identity; max and
  // min of nothing have none.
  unsigned width = element.getIntOrFloatBitWidth();
  for (int64_t o = 0; o < count; ++o) {
    if (seen[o]) {
      continue;
    }
    if (!isInt || (kind != ReduceKind::sum && kind != ReduceKind::prod)) {
      return {};
    }
    ints[o] = APInt(width, kind == ReduceKind::prod ? 1 : 0);
  }
  if (isInt) {
    return DenseElementsAttr::get(type, ints);
  }
  return DenseElementsAttr::get(type, floats);
}

OpFoldResult ReduceOp::fold(FoldAdaptor adaptor) {
  if (getAxes().empty()) {
    return ifSameType(getInput(), getType());
  }
  // Shape arithmetic (the product of a computed shape's dimensions).
  if (auto dense = dyn_cast_if_present<DenseElementsAttr>(adaptor.getInput())) {
    if (Attribute folded =
            reduceConstant(dense, getKind(), getAxes(), getType())) {
      return folded;
    }
  }
  // Reducing only dimensions of size 1 and keeping them changes nothing,
  // whatever the kind.
  auto inputType = dyn_cast<RankedTensorType>(getInput().getType());
  if (!getKeepdims() || !inputType) {
    return {};
  }
  for (int64_t axis : getAxes()) {
    int64_t dim = axis < 0 ? axis + inputType.getRank() : axis;
    if (inputType.getDimSize(dim) != 1) {
      return {};
    }
  }
  return ifSameType(getInput(), getType());
}
