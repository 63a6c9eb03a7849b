//===- ElementwiseToLinalg.cpp - graph elementwise ops to linalg.generic
//---===//
//
// Constants, identity, unary and broadcasting binary ops, cast, clamp,
// compare and select. Every elementwise op becomes one parallel
// linalg.generic whose indexing maps express NumPy broadcasting (a constant
// 0 where an operand has a unit dimension the result does not), so later
// elementwise fusion sees through the broadcast.
//
//===----------------------------------------------------------------------===//

#include "LoweringUtils.h"
#include "SmallTypes.h"

#include "graph/GraphOps.h"

#include <cmath>

using namespace mlir;
using namespace graphc::graph;

namespace graphc::lowering {
namespace {

bool isFloat(Type type) { return isa<FloatType>(type); }

//===----------------------------------------------------------------------===//
// Scalar bodies, one overload per op
//===----------------------------------------------------------------------===//

Value scalar(NegOp, OpBuilder &b, Location loc, ValueRange a, Type t) {
  if (isFloat(t)) {
    return arith::NegFOp::create(b, loc, a[0]);
  }
  return arith::SubIOp::create(b, loc, createScalar(b, loc, t, 0), a[0]);
}
Value scalar(AbsOp, OpBuilder &b, Location loc, ValueRange a, Type t) {
  if (isFloat(t)) {
    return math::AbsFOp::create(b, loc, a[0]);
  }
  // max(x, -x) rather than math.absi, which graphc-cpu-codegen cannot
  // lower on vectors (the minimum value maps to itself either way).
  Value negated =
      arith::SubIOp::create(b, loc, createScalar(b, loc, t, 0), a[0]);
  return arith::MaxSIOp::create(b, loc, a[0], negated);
}
Value scalar(ReluOp, OpBuilder &b, Location loc, ValueRange a, Type t) {
  return createMax(b, loc, a[0], createScalar(b, loc, t, 0));
}
Value scalar(SignOp, OpBuilder &b, Location loc, ValueRange a, Type t) {
  Value zero = createScalar(b, loc, t, 0);
  Value one = createScalar(b, loc, t, 1);
  Value minusOne = createScalar(b, loc, t, -1);
  Value pos, neg;
  if (isFloat(t)) {
    pos = arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OGT, a[0], zero);
    neg = arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OLT, a[0], zero);
  } else {
    pos = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sgt, a[0], zero);
    neg = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt, a[0], zero);
  }
  // Zeros (with their sign) and NaN fall through unchanged.
  Value negOrSelf = arith::SelectOp::create(b, loc, neg, minusOne, a[0]);
  return arith::SelectOp::create(b, loc, pos, one, negOrSelf);
}
Value scalar(ExpOp, OpBuilder &b, Location loc, ValueRange a, Type) {
  return math::ExpOp::create(b, loc, a[0]);
}
Value scalar(LogOp, OpBuilder &b, Location loc, ValueRange a, Type) {
  return math::LogOp::create(b, loc, a[0]);
}
Value scalar(SqrtOp, OpBuilder &b, Location loc, ValueRange a, Type) {
  return math::SqrtOp::create(b, loc, a[0]);
}
Value scalar(RsqrtOp, OpBuilder &b, Location loc, ValueRange a, Type) {
  return math::RsqrtOp::create(b, loc, a[0]);
}
Value scalar(ReciprocalOp, OpBuilder &b, Location loc, ValueRange a, Type t) {
  return arith::DivFOp::create(b, loc, createScalar(b, loc, t, 1), a[0]);
}
Value scalar(TanhOp, OpBuilder &b, Location loc, ValueRange a, Type) {
  return math::TanhOp::create(b, loc, a[0]);
}
Value scalar(SigmoidOp, OpBuilder &b, Location loc, ValueRange a, Type t) {
  Value negX = arith::NegFOp::create(b, loc, a[0]);
  Value e = math::ExpOp::create(b, loc, negX);
  Value one = createScalar(b, loc, t, 1);
  Value denom = arith::AddFOp::create(b, loc, one, e);
  return arith::DivFOp::create(b, loc, one, denom);
}
Value scalar(ErfOp, OpBuilder &b, Location loc, ValueRange a, Type) {
  return math::ErfOp::create(b, loc, a[0]);
}
Value scalar(FloorOp, OpBuilder &b, Location loc, ValueRange a, Type) {
  return math::FloorOp::create(b, loc, a[0]);
}
Value scalar(CeilOp, OpBuilder &b, Location loc, ValueRange a, Type) {
  return math::CeilOp::create(b, loc, a[0]);
}
Value scalar(RoundOp, OpBuilder &b, Location loc, ValueRange a, Type) {
  return math::RoundEvenOp::create(b, loc, a[0]);
}
Value scalar(SinOp, OpBuilder &b, Location loc, ValueRange a, Type) {
  return math::SinOp::create(b, loc, a[0]);
}
Value scalar(CosOp, OpBuilder &b, Location loc, ValueRange a, Type) {
  return math::CosOp::create(b, loc, a[0]);
}
Value scalar(SoftplusOp, OpBuilder &b, Location loc, ValueRange a, Type t) {
  // ln(1 + e^x) = max(x, 0) + log1p(e^-|x|): never overflows.
  Value relu =
      arith::MaximumFOp::create(b, loc, a[0], createScalar(b, loc, t, 0));
  Value negAbs =
      arith::NegFOp::create(b, loc, math::AbsFOp::create(b, loc, a[0]));
  Value tail =
      math::Log1pOp::create(b, loc, math::ExpOp::create(b, loc, negAbs));
  return arith::AddFOp::create(b, loc, relu, tail);
}
Value scalar(NotOp, OpBuilder &b, Location loc, ValueRange a, Type t) {
  return arith::XOrIOp::create(b, loc, a[0], createScalar(b, loc, t, 1));
}
Value scalar(GeluOp op, OpBuilder &b, Location loc, ValueRange a, Type t) {
  Value x = a[0];
  Value half = createScalar(b, loc, t, 0.5);
  Value one = createScalar(b, loc, t, 1);
  Value inner;
  if (op.getApproximate()) {
    Value x3 =
        arith::MulFOp::create(b, loc, x, arith::MulFOp::create(b, loc, x, x));
    Value poly = arith::AddFOp::create(
        b, loc, x,
        arith::MulFOp::create(b, loc, createScalar(b, loc, t, 0.044715), x3));
    Value scaled = arith::MulFOp::create(
        b, loc, createScalar(b, loc, t, std::sqrt(2.0 / M_PI)), poly);
    inner = math::TanhOp::create(b, loc, scaled);
  } else {
    Value scaled =
        arith::MulFOp::create(b, loc, x, createScalar(b, loc, t, M_SQRT1_2));
    inner = math::ErfOp::create(b, loc, scaled);
  }
  Value halfX = arith::MulFOp::create(b, loc, half, x);
  return arith::MulFOp::create(b, loc, halfX,
                               arith::AddFOp::create(b, loc, one, inner));
}
Value scalar(LeakyReluOp op, OpBuilder &b, Location loc, ValueRange a, Type t) {
  Value alpha = createScalar(b, loc, t, op.getAlpha().convertToDouble());
  Value isNeg = arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OLT, a[0],
                                      createScalar(b, loc, t, 0));
  Value scaled = arith::MulFOp::create(b, loc, alpha, a[0]);
  return arith::SelectOp::create(b, loc, isNeg, scaled, a[0]);
}
Value scalar(EluOp op, OpBuilder &b, Location loc, ValueRange a, Type t) {
  Value alpha = createScalar(b, loc, t, op.getAlpha().convertToDouble());
  Value isNeg = arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OLT, a[0],
                                      createScalar(b, loc, t, 0));
  Value scaled =
      arith::MulFOp::create(b, loc, alpha, math::ExpM1Op::create(b, loc, a[0]));
  return arith::SelectOp::create(b, loc, isNeg, scaled, a[0]);
}

Value scalar(AddOp, OpBuilder &b, Location loc, ValueRange a, Type t) {
  if (isFloat(t)) {
    return arith::AddFOp::create(b, loc, a[0], a[1]);
  }
  return arith::AddIOp::create(b, loc, a[0], a[1]);
}
Value scalar(SubOp, OpBuilder &b, Location loc, ValueRange a, Type t) {
  if (isFloat(t)) {
    return arith::SubFOp::create(b, loc, a[0], a[1]);
  }
  return arith::SubIOp::create(b, loc, a[0], a[1]);
}
Value scalar(MulOp, OpBuilder &b, Location loc, ValueRange a, Type t) {
  if (isFloat(t)) {
    return arith::MulFOp::create(b, loc, a[0], a[1]);
  }
  return arith::MulIOp::create(b, loc, a[0], a[1]);
}
Value scalar(DivOp, OpBuilder &b, Location loc, ValueRange a, Type t) {
  if (isFloat(t)) {
    return arith::DivFOp::create(b, loc, a[0], a[1]);
  }
  return arith::DivSIOp::create(b, loc, a[0], a[1]);
}
Value scalar(PowOp, OpBuilder &b, Location loc, ValueRange a, Type) {
  return math::PowFOp::create(b, loc, a[0], a[1]);
}
Value scalar(MaxOp, OpBuilder &b, Location loc, ValueRange a, Type) {
  return createMax(b, loc, a[0], a[1]);
}
Value scalar(MinOp, OpBuilder &b, Location loc, ValueRange a, Type) {
  return createMin(b, loc, a[0], a[1]);
}
Value scalar(FloorDivOp, OpBuilder &b, Location loc, ValueRange a, Type t) {
  if (isFloat(t)) {
    return math::FloorOp::create(b, loc,
                                 arith::DivFOp::create(b, loc, a[0], a[1]));
  }
  return arith::FloorDivSIOp::create(b, loc, a[0], a[1]);
}
Value scalar(RemOp, OpBuilder &b, Location loc, ValueRange a, Type t) {
  if (isFloat(t)) {
    return arith::RemFOp::create(b, loc, a[0], a[1]);
  }
  return arith::RemSIOp::create(b, loc, a[0], a[1]);
}
Value scalar(ModOp, OpBuilder &b, Location loc, ValueRange a, Type t) {
  // The C remainder, plus the divisor when it is non-zero and its sign
  // differs from the divisor's; a zero result takes the divisor's sign.
  Value zero = createScalar(b, loc, t, 0);
  if (isFloat(t)) {
    Value rem = arith::RemFOp::create(b, loc, a[0], a[1]);
    Value remNeg =
        arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OLT, rem, zero);
    Value divNeg =
        arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OLT, a[1], zero);
    Value nonZero =
        arith::CmpFOp::create(b, loc, arith::CmpFPredicate::UNE, rem, zero);
    Value differ = arith::XOrIOp::create(b, loc, remNeg, divNeg);
    Value adjust = arith::AndIOp::create(b, loc, nonZero, differ);
    Value adjusted = arith::SelectOp::create(
        b, loc, adjust, arith::AddFOp::create(b, loc, rem, a[1]), rem);
    Value signedZero = math::CopySignOp::create(b, loc, zero, a[1]);
    Value isZero =
        arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OEQ, rem, zero);
    return arith::SelectOp::create(b, loc, isZero, signedZero, adjusted);
  }
  Value rem = arith::RemSIOp::create(b, loc, a[0], a[1]);
  Value remNeg =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt, rem, zero);
  Value divNeg =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt, a[1], zero);
  Value nonZero =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ne, rem, zero);
  Value adjust = arith::AndIOp::create(
      b, loc, nonZero, arith::XOrIOp::create(b, loc, remNeg, divNeg));
  return arith::SelectOp::create(b, loc, adjust,
                                 arith::AddIOp::create(b, loc, rem, a[1]), rem);
}
Value scalar(AndOp, OpBuilder &b, Location loc, ValueRange a, Type) {
  return arith::AndIOp::create(b, loc, a[0], a[1]);
}
Value scalar(OrOp, OpBuilder &b, Location loc, ValueRange a, Type) {
  return arith::OrIOp::create(b, loc, a[0], a[1]);
}
Value scalar(XorOp, OpBuilder &b, Location loc, ValueRange a, Type) {
  return arith::XOrIOp::create(b, loc, a[0], a[1]);
}
Value scalar(ClampOp, OpBuilder &b, Location loc, ValueRange a, Type) {
  // min(max(x, lo), hi): where lo > hi the result is hi, as NumPy's clip.
  return createMin(b, loc, createMax(b, loc, a[0], a[1]), a[2]);
}
Value scalar(SelectOp, OpBuilder &b, Location loc, ValueRange a, Type) {
  return arith::SelectOp::create(b, loc, a[0], a[1], a[2]);
}
Value scalar(CompareOp op, OpBuilder &b, Location loc, ValueRange a, Type) {
  Type operandType = a[0].getType();
  CompareDirection dir = op.getDirection();
  if (isFloat(operandType)) {
    // Ordered comparisons: NaN makes every direction false but `ne`.
    arith::CmpFPredicate pred;
    switch (dir) {
    case CompareDirection::eq:
      pred = arith::CmpFPredicate::OEQ;
      break;
    case CompareDirection::ne:
      pred = arith::CmpFPredicate::UNE;
      break;
    case CompareDirection::lt:
      pred = arith::CmpFPredicate::OLT;
      break;
    case CompareDirection::le:
      pred = arith::CmpFPredicate::OLE;
      break;
    case CompareDirection::gt:
      pred = arith::CmpFPredicate::OGT;
      break;
    case CompareDirection::ge:
      pred = arith::CmpFPredicate::OGE;
      break;
    }
    return arith::CmpFOp::create(b, loc, pred, a[0], a[1]);
  }
  // Booleans order false < true, so they compare unsigned.
  bool isBool = operandType.isInteger(1);
  arith::CmpIPredicate pred;
  switch (dir) {
  case CompareDirection::eq:
    pred = arith::CmpIPredicate::eq;
    break;
  case CompareDirection::ne:
    pred = arith::CmpIPredicate::ne;
    break;
  case CompareDirection::lt:
    pred = isBool ? arith::CmpIPredicate::ult : arith::CmpIPredicate::slt;
    break;
  case CompareDirection::le:
    pred = isBool ? arith::CmpIPredicate::ule : arith::CmpIPredicate::sle;
    break;
  case CompareDirection::gt:
    pred = isBool ? arith::CmpIPredicate::ugt : arith::CmpIPredicate::sgt;
    break;
  case CompareDirection::ge:
    pred = isBool ? arith::CmpIPredicate::uge : arith::CmpIPredicate::sge;
    break;
  }
  return arith::CmpIOp::create(b, loc, pred, a[0], a[1]);
}
Value scalar(CastOp op, OpBuilder &b, Location loc, ValueRange a, Type to) {
  Value x = a[0];
  Type from = x.getType();
  if (from == to) {
    return x;
  }
  // LLVM has no 8- and 4-bit floats: through f32, which holds all their
  // values, with the bit arithmetic of SmallFloatCasts.cpp at the ends.
  if (isSmallFloat(from)) {
    return scalar(op, b, loc, extendSmallFloat(b, loc, x), to);
  }
  if (isSmallFloat(to)) {
    Value wide = scalar(op, b, loc, x, b.getF32Type());
    return truncateToSmallFloat(b, loc, wide, cast<FloatType>(to),
                                op.getSaturate());
  }
  if (to.isInteger(1)) {
    // True when non-zero; NaN is true (unordered-or-not-equal).
    if (isFloat(from)) {
      return arith::CmpFOp::create(b, loc, arith::CmpFPredicate::UNE, x,
                                   createScalar(b, loc, from, 0));
    }
    return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ne, x,
                                 createScalar(b, loc, from, 0));
  }
  bool fromBool = from.isInteger(1);
  if (isFloat(from) && isFloat(to)) {
    if (from.getIntOrFloatBitWidth() < to.getIntOrFloatBitWidth()) {
      return arith::ExtFOp::create(b, loc, to, x);
    }
    if (from.getIntOrFloatBitWidth() > to.getIntOrFloatBitWidth()) {
      return arith::TruncFOp::create(b, loc, to, x);
    }
    // Same width, different format (f16 <-> bf16): through f32.
    Value wide = arith::ExtFOp::create(b, loc, b.getF32Type(), x);
    return arith::TruncFOp::create(b, loc, to, wide);
  }
  if (isFloat(from)) {
    return arith::FPToSIOp::create(b, loc, to, x);
  }
  if (isFloat(to)) {
    if (fromBool) {
      return arith::UIToFPOp::create(b, loc, to, x);
    }
    return arith::SIToFPOp::create(b, loc, to, x);
  }
  unsigned fromWidth = from.getIntOrFloatBitWidth();
  unsigned toWidth = to.getIntOrFloatBitWidth();
  if (fromWidth < toWidth) {
    if (fromBool) {
      return arith::ExtUIOp::create(b, loc, to, x);
    }
    return arith::ExtSIOp::create(b, loc, to, x);
  }
  return arith::TruncIOp::create(b, loc, to, x);
}

//===----------------------------------------------------------------------===//
// Patterns
//===----------------------------------------------------------------------===//

/// The declared result type when it is static where the operands are, or
/// the broadcast of the operands' shapes where the declared type is dynamic
/// but the operands fix the size.
RankedTensorType refineBroadcastType(RankedTensorType resultType,
                                     ValueRange operands) {
  SmallVector<int64_t> shape(resultType.getShape());
  int64_t rank = resultType.getRank();
  for (int64_t d = 0; d < rank; ++d) {
    if (!resultType.isDynamicDim(d)) {
      continue;
    }
    int64_t size = 1;
    for (Value operand : operands) {
      auto type = cast<RankedTensorType>(operand.getType());
      int64_t od = d - (rank - type.getRank());
      if (od < 0) {
        continue;
      }
      int64_t operandSize = type.getDimSize(od);
      if (ShapedType::isDynamic(operandSize)) {
        size = ShapedType::kDynamic;
        break;
      }
      if (operandSize != 1) {
        size = operandSize;
      }
    }
    shape[d] = size;
  }
  return RankedTensorType::get(shape, resultType.getElementType());
}

template <typename OpTy>
struct ElementwiseLowering : OpConversionPattern<OpTy> {
  using OpConversionPattern<OpTy>::OpConversionPattern;

  LogicalResult
  matchAndRewrite(OpTy op, typename OpTy::Adaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    FailureOr<RankedTensorType> declared = getRankedResultType(op);
    if (failed(declared)) {
      return failure();
    }
    for (Value operand : adaptor.getOperands()) {
      if (!isa<RankedTensorType>(operand.getType())) {
        return op->emitError("graph-to-linalg: unranked tensor not supported; "
                             "run graph-infer-shapes or give --input-shape");
      }
    }
    Location loc = op.getLoc();
    RankedTensorType resultType =
        refineBroadcastType(*declared, adaptor.getOperands());
    Type elementType = resultType.getElementType();
    Value result =
        buildElementwise(rewriter, loc, resultType, adaptor.getOperands(),
                         [&](OpBuilder &b, Location nloc, ValueRange args) {
                           return scalar(op, b, nloc, args, elementType);
                         });
    if (resultType != *declared) {
      result = tensor::CastOp::create(rewriter, loc, *declared, result);
    }
    rewriter.replaceOp(op, result);
    return success();
  }
};

struct ConstantLowering : OpConversionPattern<ConstantOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(ConstantOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto value = cast<TypedAttr>(op.getValue());
    rewriter.replaceOpWithNewOp<arith::ConstantOp>(op, op.getType(), value);
    return success();
  }
};

struct IdentityLowering : OpConversionPattern<IdentityOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(IdentityOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Value input = adaptor.getInput();
    if (input.getType() != op.getType()) {
      input =
          tensor::CastOp::create(rewriter, op.getLoc(), op.getType(), input);
    }
    rewriter.replaceOp(op, input);
    return success();
  }
};

} // namespace

void populateElementwisePatterns(RewritePatternSet &patterns,
                                 const TypeConverter *converter) {
  addPatterns<ConstantLowering, IdentityLowering,
              // Unary.
              ElementwiseLowering<NegOp>, ElementwiseLowering<AbsOp>,
              ElementwiseLowering<ReluOp>, ElementwiseLowering<SignOp>,
              ElementwiseLowering<ExpOp>, ElementwiseLowering<LogOp>,
              ElementwiseLowering<SqrtOp>, ElementwiseLowering<RsqrtOp>,
              ElementwiseLowering<ReciprocalOp>, ElementwiseLowering<TanhOp>,
              ElementwiseLowering<SigmoidOp>, ElementwiseLowering<ErfOp>,
              ElementwiseLowering<FloorOp>, ElementwiseLowering<CeilOp>,
              ElementwiseLowering<RoundOp>, ElementwiseLowering<SinOp>,
              ElementwiseLowering<CosOp>, ElementwiseLowering<SoftplusOp>,
              ElementwiseLowering<NotOp>, ElementwiseLowering<GeluOp>,
              ElementwiseLowering<LeakyReluOp>, ElementwiseLowering<EluOp>,
              ElementwiseLowering<CastOp>,
              // Binary and ternary, broadcasting.
              ElementwiseLowering<AddOp>, ElementwiseLowering<SubOp>,
              ElementwiseLowering<MulOp>, ElementwiseLowering<DivOp>,
              ElementwiseLowering<PowOp>, ElementwiseLowering<MaxOp>,
              ElementwiseLowering<MinOp>, ElementwiseLowering<FloorDivOp>,
              ElementwiseLowering<ModOp>, ElementwiseLowering<RemOp>,
              ElementwiseLowering<AndOp>, ElementwiseLowering<OrOp>,
              ElementwiseLowering<XorOp>, ElementwiseLowering<ClampOp>,
              ElementwiseLowering<CompareOp>, ElementwiseLowering<SelectOp>>(
      patterns, converter);
}

} // namespace graphc::lowering
