//===- SmallFloatCasts.cpp - casts to and from 8- and 4-bit floats --------===//
//
// LLVM has no f8/f4 types (the LLVM type converter turns them into integers
// of their width), so a cast that involves one is expanded here into integer
// arithmetic on the bit pattern, always through f32, which holds every value
// of these formats exactly. One expansion serves every format: it is
// parameterised by what APFloat says about the format (width, mantissa
// bits, bias, largest finite value, whether it has infinities, NaNs, a sign
// and a zero, and how NaN is encoded), not written per type.
//
// Upstream's `arith-expand` (include-f8e8m0, include-f4e2m1) covers only two
// of the formats, always saturates, and rounds f8E8M0FNU down, and
// `arith-emulate-unsupported-floats` still needs a native truncf; neither
// gives ONNX's `saturate = 0` or its round-up for E8M0, hence this file.
//
//===----------------------------------------------------------------------===//

#include "SmallTypes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/BuiltinTypes.h"

#include "llvm/ADT/APFloat.h"

#include <cmath>
#include <cstring>

using namespace mlir;

namespace graphc::lowering {

bool isSmallFloat(Type type) {
  auto f = dyn_cast<FloatType>(type);
  return f && f.getWidth() <= 8;
}

bool isNarrowInteger(Type type) {
  auto i = dyn_cast<IntegerType>(type);
  return i && (i.getWidth() == 2 || i.getWidth() == 4);
}

namespace {

/// What the expansion needs to know about a small float format, all from
/// APFloat's description of it. Bit patterns are zero-extended to 32 bits.
struct Format {
  unsigned width;    ///< bits of the encoding
  unsigned mantissa; ///< explicit mantissa bits
  int bias;          ///< exponent bias
  bool hasSign, hasInf, hasNaN, hasZero;
  uint32_t signBit;   ///< the sign bit, 0 without one
  uint32_t largest;   ///< the largest finite value's bits (positive)
  uint32_t inf;       ///< +infinity's bits, when the format has one
  uint32_t nan;       ///< the canonical quiet NaN's bits
  bool nanIsSignOnly; ///< FNUZ: NaN is the sign bit alone (no -0)

  explicit Format(FloatType type) {
    const llvm::fltSemantics &sem = type.getFloatSemantics();
    using llvm::APFloat;
    width = APFloat::semanticsSizeInBits(sem);
    mantissa = APFloat::semanticsPrecision(sem) - 1;
    hasSign = APFloat::semanticsHasSignedRepr(sem);
    hasInf = APFloat::semanticsHasInf(sem);
    hasNaN = APFloat::semanticsHasNaN(sem);
    hasZero = APFloat::semanticsHasZero(sem);
    signBit = hasSign ? 1u << (width - 1) : 0;
    largest = APFloat::getLargest(sem).bitcastToAPInt().getZExtValue();
    bias = int(largest >> mantissa) - int(APFloat::semanticsMaxExponent(sem));
    inf = hasInf ? APFloat::getInf(sem).bitcastToAPInt().getZExtValue() : 0;
    nan = hasNaN ? APFloat::getQNaN(sem).bitcastToAPInt().getZExtValue() : 0;
    nanIsSignOnly = hasNaN && hasSign && nan == signBit;
  }
  uint32_t magnitudeMask() const { return (1u << (width - hasSign)) - 1; }
};

/// Scalar i32/f32 arithmetic, kept short.
struct Emitter {
  OpBuilder &b;
  Location loc;
  Type i32 = b.getI32Type(), f32 = b.getF32Type();

  Value c(uint32_t v) {
    return arith::ConstantOp::create(b, loc, b.getI32IntegerAttr(int32_t(v)));
  }
  Value cf(float v) {
    return arith::ConstantOp::create(b, loc, b.getF32FloatAttr(v));
  }
  Value add(Value x, Value y) { return arith::AddIOp::create(b, loc, x, y); }
  Value sub(Value x, Value y) { return arith::SubIOp::create(b, loc, x, y); }
  Value andi(Value x, Value y) { return arith::AndIOp::create(b, loc, x, y); }
  Value ori(Value x, Value y) { return arith::OrIOp::create(b, loc, x, y); }
  Value shl(Value x, unsigned n) {
    return n ? arith::ShLIOp::create(b, loc, x, c(n)).getResult() : x;
  }
  Value shr(Value x, unsigned n) {
    return n ? arith::ShRUIOp::create(b, loc, x, c(n)).getResult() : x;
  }
  Value cmp(arith::CmpIPredicate p, Value x, Value y) {
    return arith::CmpIOp::create(b, loc, p, x, y);
  }
  Value sel(Value cond, Value x, Value y) {
    return arith::SelectOp::create(b, loc, cond, x, y);
  }
  Value bits(Value x) { return arith::BitcastOp::create(b, loc, i32, x); }
  Value real(Value x) { return arith::BitcastOp::create(b, loc, f32, x); }
};

uint32_t f32Bits(float v) {
  uint32_t u;
  std::memcpy(&u, &v, sizeof u);
  return u;
}

} // namespace

Value extendSmallFloat(OpBuilder &b, Location loc, Value x) {
  Format f(cast<FloatType>(x.getType()));
  Emitter e{b, loc};
  using P = arith::CmpIPredicate;
  Value raw = arith::BitcastOp::create(b, loc, b.getIntegerType(f.width), x);
  Value u = arith::ExtUIOp::create(b, loc, e.i32, raw);
  Value mag = e.andi(u, e.c(f.magnitudeMask()));
  // A normal value: the exponent rebiased to f32's, the mantissa shifted to
  // the top of f32's 23 bits.
  Value value =
      e.add(e.shl(mag, 23 - f.mantissa), e.c(uint32_t(127 - f.bias) << 23));
  Value zeroExponent = e.cmp(P::ult, mag, e.c(1u << f.mantissa));
  if (f.mantissa > 0) {
    // A subnormal (or zero): mantissa * 2^(1 - bias - mantissa), exact.
    Value man = arith::UIToFPOp::create(b, loc, e.f32, mag);
    Value scaled = arith::MulFOp::create(
        b, loc, man, e.cf(std::ldexp(1.0f, 1 - f.bias - int(f.mantissa))));
    value = e.sel(zeroExponent, e.bits(scaled), value);
  } else if (!f.hasZero) {
    // No mantissa and no zero (E8M0): exponent field 0 is 2^-bias, an f32
    // subnormal for bias 127 that the rebiasing above cannot reach.
    value = e.sel(zeroExponent, e.c(f32Bits(std::ldexp(1.0f, -f.bias))), value);
  }
  if (f.hasSign) {
    value = e.ori(value, e.shl(e.shr(u, f.width - 1), 31));
  }
  if (f.hasInf) {
    value =
        e.sel(e.cmp(P::eq, mag, e.c(f.inf)),
              e.ori(e.c(0x7f800000u), e.andi(value, e.c(0x80000000u))), value);
  }
  // Every magnitude above the largest finite one that is not infinity is a
  // NaN (IEEE-like, FN and E8M0 encodings); FNUZ's NaN is the sign alone.
  Value isNaN = e.cmp(P::ugt, mag, e.c(f.hasInf ? f.inf : f.largest));
  if (f.nanIsSignOnly) {
    isNaN = e.cmp(P::eq, u, e.c(f.signBit));
  }
  if (f.hasNaN) {
    value = e.sel(isNaN, e.c(0x7fc00000u), value);
  }
  return e.real(value);
}

Value truncateToSmallFloat(OpBuilder &b, Location loc, Value x, FloatType to,
                           bool saturate) {
  Format f(to);
  Emitter e{b, loc};
  using P = arith::CmpIPredicate;
  Value u = e.bits(x);
  Value a = e.andi(u, e.c(0x7fffffffu));
  Value sign = f.hasSign ? e.shl(e.shr(u, 31), f.width - 1) : e.c(0);

  // Normal range: rebias the exponent in place, then drop 23 - mantissa
  // bits, rounding to nearest even (E8M0, which has no zero and whose ONNX
  // cast rounds up by default: up). The rounding may carry into the
  // exponent, which is the right encoding of the next binade.
  unsigned drop = 23 - f.mantissa;
  Value t = e.sub(a, e.c(uint32_t(127 - f.bias) << 23));
  Value mag;
  if (!f.hasZero) {
    mag = e.shr(e.add(t, e.c((1u << drop) - 1)), drop);
  } else {
    Value odd = e.andi(e.shr(t, drop), e.c(1));
    mag = e.shr(e.add(e.add(t, e.c((1u << (drop - 1)) - 1)), odd), drop);
  }
  if (f.hasZero && f.mantissa > 0) {
    // Below the smallest normal: scale so that one unit is the smallest
    // subnormal (exact, a power of two), and round to an integer with the
    // FPU's own ties-to-even by adding 2^23, whose ulp is 1. A result of
    // 2^mantissa is the smallest normal's encoding, as it should be.
    uint32_t minNormal = uint32_t(128 - f.bias) << 23;
    Value scaled = arith::MulFOp::create(
        b, loc, e.real(a),
        e.cf(std::ldexp(1.0f, f.bias - 1 + int(f.mantissa))));
    Value shifted = arith::AddFOp::create(b, loc, scaled, e.cf(8388608.0f));
    Value q = e.sub(e.bits(shifted), e.c(f32Bits(8388608.0f)));
    mag = e.sel(e.cmp(P::ult, a, e.c(minNormal)), q, mag);
  }

  Value finite = e.ori(mag, sign);
  if (f.nanIsSignOnly) { // no -0: a negative value that rounds to 0 is +0
    finite = e.sel(e.cmp(P::eq, mag, e.c(0)), mag, finite);
  }
  // NaN: the format's NaN (keeping the sign where the encoding has one);
  // without any NaN (E2M1), -0 as ONNX's reference does.
  Value nan;
  if (!f.hasNaN) {
    nan = e.c(f.signBit);
  } else if (f.nanIsSignOnly || !f.hasSign) {
    nan = e.c(f.nan);
  } else {
    nan = e.ori(e.c(f.nan), sign);
  }
  // Overflow (infinities included, as their rebiased magnitude is beyond
  // the largest): clamp when saturating or when there is nothing else.
  Value overflow;
  if (saturate || (!f.hasInf && !f.hasNaN)) {
    overflow = e.ori(e.c(f.largest), sign);
  } else if (f.hasInf) {
    overflow = e.ori(e.c(f.inf), sign);
  } else {
    overflow = nan;
  }
  Value result = e.sel(e.cmp(P::ugt, mag, e.c(f.largest)), overflow, finite);
  result = e.sel(e.cmp(P::ugt, a, e.c(0x7f800000u)), nan, result);
  Value narrow =
      arith::TruncIOp::create(b, loc, b.getIntegerType(f.width), result);
  return arith::BitcastOp::create(b, loc, to, narrow);
}

} // namespace graphc::lowering
