//===- UnsignedToSignless.cpp - unsigned graph integers to signless -------===//
//
// The graph dialect takes unsigned integer tensors (`ui8` ... `ui64`, from
// ONNX's unsigned types); arith and linalg take only signless ones. Before
// the ops are lowered, every unsigned value is retyped to the signless type
// of its width and each op whose meaning depends on the signedness is
// rewritten so that it computes the unsigned result on signless values:
//
// * ops that only move bits or compute modulo 2^N (add, sub, mul, neg,
//   bitwise ops, logical shifts, bitcasts, col2im, data movement, matmul,
//   sum/prod reductions, eq/ne) are unchanged;
// * ops that order values (compare lt/le/gt/ge, max, min, clamp, max/min
//   reductions, arg_reduce, top_k, max pooling, max/min scatter) see operands
//   and produce results with the sign bit flipped: x ^ 2^(N-1) maps unsigned
//   order onto signed order and is its own inverse;
// * div, floor_div, rem and mod zero-extend their operands to i64, divide
//   there and truncate back (N < 64); on 64-bit values, which have no wider
//   type, they halve the dividend so that signed division is exact and
//   correct the quotient (divide64);
// * cast from an unsigned integer zero-extends to i64 first; a cast from a
//   float to an unsigned integer converts to i64 and truncates (N < 64);
//   ui64 <-> float casts go through the signed conversions with the top
//   bit handled apart (castFromU64, castToU64);
// * abs and relu are the identity; sign is (x != 0).
//
// Any other op on unsigned integers is an error naming it, never a silent
// signed computation.
//
//===----------------------------------------------------------------------===//

#include "LoweringUtils.h"

#include "graph/GraphOps.h"

#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"

#include "llvm/ADT/DenseSet.h"

using namespace mlir;

namespace graphc::lowering {
namespace {

bool isUnsignedTensor(Type type) {
  auto shaped = dyn_cast<ShapedType>(type);
  return shaped && shaped.getElementType().isUnsignedInteger();
}

Type toSignless(Type type) {
  auto shaped = dyn_cast<ShapedType>(type);
  if (!shaped) {
    return type;
  }
  auto element = dyn_cast<IntegerType>(shaped.getElementType());
  if (!element || !element.isUnsigned()) {
    return type;
  }
  return shaped.clone(IntegerType::get(type.getContext(), element.getWidth()));
}

Type withElement(Type type, Type element) {
  return cast<ShapedType>(type).clone(element);
}

class Legalizer {
public:
  explicit Legalizer(func::FuncOp func) : func(func), b(func.getContext()) {}

  LogicalResult run();

private:
  /// A splat constant of `type`'s (signless integer) element type.
  Value splat(Location loc, Type tensorType, const APInt &value) {
    auto type = RankedTensorType::get(
        {}, cast<ShapedType>(tensorType).getElementType());
    return graph::ConstantOp::create(b, loc, type,
                                     DenseElementsAttr::get(type, value));
  }
  /// x ^ 2^(N-1) for a signless integer tensor x of width N.
  Value flip(Location loc, Value x) {
    unsigned width = getElementTypeOrSelf(x.getType()).getIntOrFloatBitWidth();
    Value bit = splat(loc, x.getType(), APInt::getSignMask(width));
    return graph::BitwiseXorOp::create(b, loc, x.getType(), x, bit);
  }
  /// The zero-extension of a signless integer tensor to i64 (width < 64).
  Value zextTo64(Location loc, Value x) {
    unsigned width = getElementTypeOrSelf(x.getType()).getIntOrFloatBitWidth();
    Type i64 = b.getI64Type();
    Type wide = withElement(x.getType(), i64);
    Value ext = graph::CastOp::create(b, loc, wide, x, TypeAttr::get(i64));
    Value mask = splat(loc, wide, APInt::getLowBitsSet(64, width));
    return graph::BitwiseAndOp::create(b, loc, wide, ext, mask);
  }
  bool wasUnsigned(Value v) const { return unsignedValues.contains(v); }
  unsigned widthOf(Value v) const {
    return getElementTypeOrSelf(v.getType()).getIntOrFloatBitWidth();
  }

  /// a >= b on unsigned values held in signless integers (an i1 tensor of
  /// `boolType`).
  Value unsignedGe(Location loc, Type boolType, Value a, Value b) {
    return graph::CompareOp::create(
        this->b, loc, boolType, flip(loc, a), flip(loc, b),
        graph::CompareDirectionAttr::get(func.getContext(),
                                         graph::CompareDirection::ge));
  }
  /// The i1 tensor `x` as 0/1 of the integer tensor type `type`.
  Value boolToInt(Location loc, Type type, Value x) {
    return graph::CastOp::create(b, loc, type, x,
                                 TypeAttr::get(getElementTypeOrSelf(type)));
  }

  LogicalResult flipOperandsAndResults(Operation *op, bool flipResults);
  LogicalResult widen(Operation *op);
  void divide64(Operation *op);
  Value castFromU64(Location loc, Value x, Type resultType);
  Value castToU64(Location loc, Value x, Type resultType);
  LogicalResult legalizeCast(graph::CastOp op);
  LogicalResult legalize(Operation *op);

  func::FuncOp func;
  OpBuilder b;
  llvm::DenseSet<Value> unsignedValues;
};

LogicalResult Legalizer::flipOperandsAndResults(Operation *op,
                                                bool flipResults) {
  b.setInsertionPoint(op);
  for (OpOperand &operand : op->getOpOperands()) {
    if (wasUnsigned(operand.get())) {
      operand.set(flip(op->getLoc(), operand.get()));
    }
  }
  if (!flipResults) {
    return success();
  }
  b.setInsertionPointAfter(op);
  for (Value result : op->getResults()) {
    if (!wasUnsigned(result)) {
      continue;
    }
    Value flipped = flip(op->getLoc(), result);
    result.replaceAllUsesExcept(flipped, flipped.getDefiningOp());
    unsignedValues.insert(flipped);
  }
  return success();
}

LogicalResult Legalizer::widen(Operation *op) {
  if (llvm::any_of(op->getOperands(), [&](Value v) {
        return wasUnsigned(v) && widthOf(v) >= 64;
      })) {
    divide64(op);
    return success();
  }
  b.setInsertionPoint(op);
  for (OpOperand &operand : op->getOpOperands()) {
    if (wasUnsigned(operand.get())) {
      operand.set(zextTo64(op->getLoc(), operand.get()));
    }
  }
  b.setInsertionPointAfter(op);
  for (Value result : op->getResults()) {
    Type narrow = result.getType();
    Type element = getElementTypeOrSelf(narrow);
    result.setType(withElement(narrow, b.getI64Type()));
    Value back = graph::CastOp::create(b, op->getLoc(), narrow, result,
                                       TypeAttr::get(element));
    result.replaceAllUsesExcept(back, back.getDefiningOp());
    if (wasUnsigned(result)) {
      unsignedValues.insert(back);
    }
  }
  return success();
}

/// Unsigned 64-bit div, floor_div, rem and mod (all the same quotient or
/// remainder for unsigned values) with signed i64 ops. With the divisor d
/// at least 2^63 the quotient is n >= d. Otherwise n >> 1 is non-negative,
/// so q0 = ((n >> 1) / d) << 1 is exact signed arithmetic; it is the
/// quotient or one less, and n - q0 * d (below 2d <= 2^64) says which. A
/// zero divisor divides by zero, as the signed ops do.
void Legalizer::divide64(Operation *op) {
  Location loc = op->getLoc();
  Value n = op->getOperand(0), d = op->getOperand(1);
  Value result = op->getResult(0);
  Type type = result.getType();
  Type boolType = withElement(type, b.getI1Type());
  b.setInsertionPoint(op);
  APInt one(64, 1);
  Value halfN = graph::ShiftRightOp::create(b, loc, n.getType(), n,
                                            splat(loc, n.getType(), one));
  Value q0 = graph::DivOp::create(b, loc, type, halfN, d);
  q0 = graph::ShiftLeftOp::create(b, loc, type, q0, splat(loc, type, one));
  Value r0 = graph::SubOp::create(b, loc, type, n,
                                  graph::MulOp::create(b, loc, type, q0, d));
  Value q = graph::AddOp::create(
      b, loc, type, q0, boolToInt(loc, type, unsignedGe(loc, boolType, r0, d)));
  Value dBig = graph::CompareOp::create(
      b, loc, withElement(d.getType(), b.getI1Type()), d,
      splat(loc, d.getType(), APInt::getZero(64)),
      graph::CompareDirectionAttr::get(op->getContext(),
                                       graph::CompareDirection::lt));
  Value bigQ = boolToInt(loc, type, unsignedGe(loc, boolType, n, d));
  q = graph::SelectOp::create(b, loc, type, dBig, bigQ, q);
  Value value = q;
  if (isa<graph::RemOp, graph::ModOp>(op)) {
    value = graph::SubOp::create(b, loc, type, n,
                                 graph::MulOp::create(b, loc, type, q, d));
  }
  result.replaceAllUsesWith(value);
  if (wasUnsigned(result)) {
    unsignedValues.insert(value);
  }
  op->erase();
}

/// ui64 `x` (signless) to the float tensor type `resultType`: the signed
/// conversion where the top bit is clear; otherwise x >> 1, with the
/// shifted-out bit kept as a sticky low bit so that rounding stays
/// correct, converted and doubled.
Value Legalizer::castFromU64(Location loc, Value x, Type resultType) {
  Type type = x.getType();
  Type floatType = getElementTypeOrSelf(resultType);
  APInt one(64, 1);
  Value small =
      graph::CastOp::create(b, loc, resultType, x, TypeAttr::get(floatType));
  Value oneSplat = splat(loc, type, one);
  Value halved = graph::BitwiseOrOp::create(
      b, loc, type, graph::ShiftRightOp::create(b, loc, type, x, oneSplat),
      graph::BitwiseAndOp::create(b, loc, type, x, oneSplat));
  Value half = graph::CastOp::create(b, loc, resultType, halved,
                                     TypeAttr::get(floatType));
  Value big = graph::AddOp::create(b, loc, resultType, half, half);
  Value topBit = graph::CompareOp::create(
      b, loc, withElement(type, b.getI1Type()), x,
      splat(loc, type, APInt::getZero(64)),
      graph::CompareDirectionAttr::get(func.getContext(),
                                       graph::CompareDirection::lt));
  return graph::SelectOp::create(b, loc, resultType, topBit, big, small);
}

/// Float `x` to ui64 (signless `resultType`): the signed conversion below
/// 2^63; from 2^63 on, the conversion of x - 2^63 with the top bit set.
/// Values outside [0, 2^64) are undefined, as in ONNX and C.
Value Legalizer::castToU64(Location loc, Value x, Type resultType) {
  auto floatType = cast<FloatType>(getElementTypeOrSelf(x.getType()));
  Type i64 = b.getI64Type();
  auto scalar = RankedTensorType::get({}, floatType);
  APFloat twoTo63(0x1p63);
  bool lost;
  twoTo63.convert(floatType.getFloatSemantics(), APFloat::rmNearestTiesToEven,
                  &lost);
  Value bound = graph::ConstantOp::create(
      b, loc, scalar, DenseElementsAttr::get(scalar, twoTo63));
  Value small =
      graph::CastOp::create(b, loc, resultType, x, TypeAttr::get(i64));
  Value shifted = graph::SubOp::create(b, loc, x.getType(), x, bound);
  Value big = graph::BitwiseXorOp::create(
      b, loc, resultType,
      graph::CastOp::create(b, loc, resultType, shifted, TypeAttr::get(i64)),
      splat(loc, resultType, APInt::getSignMask(64)));
  Value isBig = graph::CompareOp::create(
      b, loc, withElement(x.getType(), b.getI1Type()), x, bound,
      graph::CompareDirectionAttr::get(func.getContext(),
                                       graph::CompareDirection::ge));
  return graph::SelectOp::create(b, loc, resultType, isBig, big, small);
}

LogicalResult Legalizer::legalizeCast(graph::CastOp op) {
  Value input = op.getInput();
  Type to = op.getTo();
  Location loc = op.getLoc();
  if (to.isUnsignedInteger()) {
    op.setToAttr(TypeAttr::get(
        IntegerType::get(op.getContext(), to.getIntOrFloatBitWidth())));
  }
  Type from = getElementTypeOrSelf(input.getType());
  if (wasUnsigned(input)) {
    // Zero-extend first; a cast from i64 to any type is then exact for
    // these values (truncation keeps the low bits, as a narrowing must).
    unsigned width = widthOf(input);
    unsigned toWidth = to.isIntOrFloat() ? to.getIntOrFloatBitWidth() : 0;
    bool narrowing = isa<IntegerType>(to) && toWidth <= width;
    if (narrowing || to.isInteger(1)) {
      return success(); // low bits / (x != 0): signedness does not matter
    }
    b.setInsertionPoint(op);
    if (width < 64) {
      op.getInputMutable().assign(zextTo64(loc, input));
      return success();
    }
    // ui64 to a wider integer does not exist; to a float, see castFromU64.
    Value converted = castFromU64(loc, input, op.getType());
    op.getResult().replaceAllUsesWith(converted);
    op.erase();
    return success();
  }
  if (to.isUnsignedInteger() && isa<FloatType>(from)) {
    // float -> uN: convert to i64 (exact for 0 <= x < 2^63) and truncate.
    unsigned width = to.getIntOrFloatBitWidth();
    if (width >= 64) {
      b.setInsertionPoint(op);
      Value converted = castToU64(loc, input, op.getType());
      op.getResult().replaceAllUsesWith(converted);
      unsignedValues.insert(converted);
      op.erase();
      return success();
    }
    Type narrow = op.getType();
    op.setToAttr(TypeAttr::get(b.getI64Type()));
    op.getResult().setType(
        cast<TensorType>(withElement(narrow, b.getI64Type())));
    b.setInsertionPointAfter(op);
    Value back =
        graph::CastOp::create(b, loc, narrow, op.getResult(),
                              TypeAttr::get(getElementTypeOrSelf(narrow)));
    op.getResult().replaceAllUsesExcept(back, back.getDefiningOp());
    unsignedValues.insert(back);
  }
  // From a signed integer or a bool the signless cast is already right:
  // widening sign-extends (int8 -1 -> uint16 65535), narrowing truncates.
  return success();
}

LogicalResult Legalizer::legalize(Operation *op) {
  bool involved =
      llvm::any_of(op->getOperands(),
                   [&](Value v) { return wasUnsigned(v); }) ||
      llvm::any_of(op->getResults(), [&](Value v) { return wasUnsigned(v); });
  if (auto cast = dyn_cast<graph::CastOp>(op)) {
    return legalizeCast(cast);
  }
  if (!involved) {
    return success();
  }

  // Bits and modulo-2^N arithmetic: nothing to do.
  if (isa<graph::AddOp, graph::SubOp, graph::MulOp, graph::NegOp, graph::AndOp,
          graph::OrOp, graph::XorOp, graph::NotOp, graph::IdentityOp,
          graph::ConcatOp, graph::BroadcastToOp, graph::GatherOp,
          graph::GatherNdOp, graph::PadOp, graph::ReshapeOp,
          graph::DynamicReshapeOp, graph::SliceOp, graph::SplitOp,
          graph::SqueezeOp, graph::UnsqueezeOp, graph::TileOp,
          graph::TransposeOp, graph::SelectOp, graph::MatMulOp,
          graph::ShapeOfOp, graph::OneHotOp, graph::BitwiseAndOp,
          graph::BitwiseOrOp, graph::BitwiseXorOp, graph::BitwiseNotOp,
          func::ReturnOp>(op)) {
    return success();
  }
  // The task's buffers (convert-dist-to-runtime): the runtime's bytes enter
  // and leave as they are, and calls of the communication helpers move them.
  if (isa<bufferization::ToTensorOp, bufferization::ToBufferOp,
          bufferization::MaterializeInDestinationOp, memref::AllocOp,
          memref::CopyOp, tensor::CastOp, func::CallOp>(op)) {
    return success();
  }
  // Shifts are logical (zeros come in), col2im sums modulo 2^N, bitcasts
  // keep the bits; a bitcast to an unsigned type now names the signless one.
  if (isa<graph::ShiftLeftOp, graph::ShiftRightOp, graph::Col2ImOp>(op)) {
    return success();
  }
  if (auto bitcast = dyn_cast<graph::BitcastOp>(op)) {
    bitcast.setToAttr(
        TypeAttr::get(getElementTypeOrSelf(bitcast.getResult().getType())));
    return success();
  }
  if (auto constant = dyn_cast<graph::ConstantOp>(op)) {
    auto dense = dyn_cast<DenseElementsAttr>(constant.getValue());
    if (!dense) {
      return op->emitError("graph.constant: an unsigned constant must be a "
                           "dense elements attribute");
    }
    constant.setValueAttr(dense.bitcast(IntegerType::get(
        op->getContext(), dense.getElementType().getIntOrFloatBitWidth())));
    return success();
  }
  if (auto reduce = dyn_cast<graph::ReduceOp>(op)) {
    switch (reduce.getKind()) {
    case graph::ReduceKind::sum:
    case graph::ReduceKind::prod:
      return success();
    case graph::ReduceKind::max:
    case graph::ReduceKind::min:
      return flipOperandsAndResults(op, /*flipResults=*/true);
    default:
      return op->emitError("graph.reduce: a mean of unsigned integers is "
                           "not supported");
    }
  }
  if (auto scatter = dyn_cast<graph::ScatterElementsOp>(op)) {
    auto reduction = scatter.getReduction();
    if (reduction == graph::ScatterReduction::max ||
        reduction == graph::ScatterReduction::min) {
      return flipOperandsAndResults(op, /*flipResults=*/true);
    }
    return success();
  }
  if (isa<graph::ScatterNdOp>(op)) {
    return success();
  }
  if (auto pool = dyn_cast<graph::PoolOp>(op)) {
    if (pool.getKind() == graph::PoolKind::max) {
      return flipOperandsAndResults(op, /*flipResults=*/true);
    }
    return op->emitError("graph.pool: average pooling of unsigned integers "
                         "is not supported");
  }
  if (isa<graph::TopKOp>(op)) {
    return flipOperandsAndResults(op, /*flipResults=*/true);
  }
  if (isa<graph::CompareOp, graph::ArgReduceOp>(op)) {
    return flipOperandsAndResults(op, /*flipResults=*/false);
  }
  if (isa<graph::MaxOp, graph::MinOp, graph::ClampOp>(op)) {
    return flipOperandsAndResults(op, /*flipResults=*/true);
  }
  if (isa<graph::DivOp, graph::FloorDivOp, graph::RemOp, graph::ModOp>(op)) {
    return widen(op);
  }
  if (isa<graph::AbsOp, graph::ReluOp>(op)) {
    op->getResult(0).replaceAllUsesWith(op->getOperand(0));
    op->erase();
    return success();
  }
  if (auto sign = dyn_cast<graph::SignOp>(op)) {
    b.setInsertionPoint(op);
    Location loc = op->getLoc();
    Type type = sign.getType();
    Value zero = splat(loc, type, APInt::getZero(widthOf(sign.getInput())));
    Value nonzero = graph::CompareOp::create(
        b, loc, withElement(type, b.getI1Type()), sign.getInput(), zero,
        graph::CompareDirectionAttr::get(op->getContext(),
                                         graph::CompareDirection::ne));
    Value result = graph::CastOp::create(
        b, loc, type, nonzero, TypeAttr::get(getElementTypeOrSelf(type)));
    sign.getResult().replaceAllUsesWith(result);
    unsignedValues.insert(result);
    op->erase();
    return success();
  }
  return op->emitError() << op->getName()
                         << " on unsigned integers is not supported";
}

LogicalResult Legalizer::run() {
  // Remember which values were unsigned, then retype them all.
  func.walk([&](Operation *op) {
    for (Region &region : op->getRegions()) {
      for (Block &block : region) {
        for (BlockArgument arg : block.getArguments()) {
          if (isUnsignedTensor(arg.getType())) {
            unsignedValues.insert(arg);
          }
        }
      }
    }
    for (Value result : op->getResults()) {
      if (isUnsignedTensor(result.getType())) {
        unsignedValues.insert(result);
      }
    }
  });
  bool castToUnsigned = false;
  func.walk([&](graph::CastOp op) {
    castToUnsigned |= op.getTo().isUnsignedInteger();
  });
  if (unsignedValues.empty() && !castToUnsigned) {
    return success();
  }
  for (Value v : unsignedValues) {
    v.setType(toSignless(v.getType()));
  }

  SmallVector<Operation *> ops;
  func.walk([&](Operation *op) {
    if (op != func.getOperation()) {
      ops.push_back(op);
    }
  });
  for (Operation *op : ops) {
    if (failed(legalize(op))) {
      return failure();
    }
  }

  SmallVector<Type> results;
  func.walk([&](func::ReturnOp ret) {
    if (ret->getParentOp() == func.getOperation()) {
      results.assign(ret.getOperandTypes().begin(),
                     ret.getOperandTypes().end());
    }
  });
  func.setType(FunctionType::get(
      func.getContext(), func.getBody().front().getArgumentTypes(), results));
  return success();
}

} // namespace

LogicalResult lowerUnsignedIntegers(ModuleOp module) {
  for (auto func : module.getOps<func::FuncOp>()) {
    if (!func.isExternal() && failed(Legalizer(func).run())) {
      return failure();
    }
  }
  return success();
}

} // namespace graphc::lowering
