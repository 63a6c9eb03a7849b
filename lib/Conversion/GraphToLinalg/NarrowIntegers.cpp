//===- NarrowIntegers.cpp - small element types before lowering -----------===//
//
// Every element of ONNX's small types takes one byte in the runtime's
// buffers (docs/design/job-bundle.md): f8/f4 bit patterns in the low bits,
// int4/int2 sign-extended to int8, uint4/uint2 zero-extended to uint8. The
// float formats keep their MLIR types down to LLVM, which stores f8 as i8
// and f4 in the low bits of a byte. The 2- and 4-bit integers do not: LLVM
// keeps an i4 in memory zero-extended and assumes so when loading, which
// would misread the runtime's sign-extended int4. So before lowering they
// become 8-bit integers of the same signedness holding the same values:
//
// * constants are sign- or zero-extended;
// * a cast to a narrow type casts to the 8-bit type, then wraps the result
//   to the narrow range (x & mask unsigned, ((x + h) & mask) - h signed,
//   h = 2^(N-1)), which is ONNX's wrap-around;
// * casts from them and data movement need nothing: the values are exact.
//
// Arithmetic on any small type is refused here by name (ONNX models cast
// such tensors to a wide type first).
//
//===----------------------------------------------------------------------===//

#include "SmallTypes.h"

#include "graph/GraphDialect.h"
#include "graph/GraphOps.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"

#include "llvm/ADT/SetVector.h"

using namespace mlir;

namespace graphc::lowering {
namespace {

/// Ops that only move or pick whole elements, and so take any element type.
bool movesElements(Operation *op) {
  return isa<graph::CastOp, graph::ConstantOp, graph::IdentityOp,
             graph::ConcatOp, graph::BroadcastToOp, graph::GatherOp,
             graph::GatherNdOp, graph::PadOp, graph::ReshapeOp,
             graph::DynamicReshapeOp, graph::SliceOp, graph::SplitOp,
             graph::SqueezeOp, graph::UnsqueezeOp, graph::TileOp,
             graph::TransposeOp, graph::SelectOp, graph::ShapeOfOp>(op);
}

Type smallElement(Type type) {
  Type element = getElementTypeOrSelf(type);
  return isSmallFloat(element) || isNarrowInteger(element) ? element : Type();
}

/// The 8-bit integer type of the same signedness as a narrow one.
IntegerType widened(IntegerType narrow) {
  return IntegerType::get(narrow.getContext(), 8, narrow.getSignedness());
}

Type widenedTensor(Type type) {
  auto shaped = dyn_cast<ShapedType>(type);
  if (!shaped || !isNarrowInteger(shaped.getElementType())) {
    return type;
  }
  return shaped.clone(widened(cast<IntegerType>(shaped.getElementType())));
}

LogicalResult refuseArithmetic(func::FuncOp func) {
  WalkResult walk = func.walk([](Operation *op) {
    if (!isa_and_nonnull<graph::GraphDialect>(op->getDialect()) ||
        movesElements(op)) {
      return WalkResult::advance();
    }
    Type small;
    for (Type t : op->getOperandTypes()) {
      if (!small) {
        small = smallElement(t);
      }
    }
    for (Type t : op->getResultTypes()) {
      if (!small) {
        small = smallElement(t);
      }
    }
    if (!small) {
      return WalkResult::advance();
    }
    op->emitError() << op->getName() << " on " << small
                    << " is not supported; cast to "
                    << (isa<FloatType>(small) ? "f32" : "a wider integer type")
                    << " first";
    return WalkResult::interrupt();
  });
  return failure(walk.wasInterrupted());
}

/// A rank-0 constant of `element` holding `value`.
Value scalarConstant(OpBuilder &b, Location loc, IntegerType element,
                     int64_t value) {
  auto type = RankedTensorType::get({}, element);
  return graph::ConstantOp::create(
      b, loc, type,
      DenseElementsAttr::get(type, APInt(element.getWidth(), uint64_t(value),
                                         /*isSigned=*/true)));
}

/// Wraps the 8-bit result of a cast to the range of `narrow`.
void wrapCastResult(OpBuilder &b, graph::CastOp op, IntegerType narrow) {
  Location loc = op.getLoc();
  Value result = op.getResult();
  auto element = cast<IntegerType>(getElementTypeOrSelf(result.getType()));
  Type type = result.getType();
  int64_t mask = (int64_t(1) << narrow.getWidth()) - 1;
  b.setInsertionPointAfter(op);
  Value wrapped;
  Operation *user;
  if (narrow.isUnsigned()) {
    wrapped = graph::BitwiseAndOp::create(
        b, loc, type, result, scalarConstant(b, loc, element, mask));
    user = wrapped.getDefiningOp();
  } else {
    Value half = scalarConstant(b, loc, element, (mask + 1) / 2);
    Value shifted = graph::AddOp::create(b, loc, type, result, half);
    Value masked = graph::BitwiseAndOp::create(
        b, loc, type, shifted, scalarConstant(b, loc, element, mask));
    wrapped = graph::SubOp::create(b, loc, type, masked, half);
    user = shifted.getDefiningOp();
  }
  result.replaceAllUsesExcept(wrapped, user);
}

LogicalResult widenNarrowIntegers(func::FuncOp func) {
  llvm::SetVector<Value> narrow;
  func.walk([&](Operation *op) {
    for (Region &region : op->getRegions()) {
      for (Block &block : region) {
        for (BlockArgument arg : block.getArguments()) {
          if (widenedTensor(arg.getType()) != arg.getType()) {
            narrow.insert(arg);
          }
        }
      }
    }
    for (Value result : op->getResults()) {
      if (widenedTensor(result.getType()) != result.getType()) {
        narrow.insert(result);
      }
    }
  });
  if (narrow.empty()) {
    return success();
  }
  for (Value v : narrow) {
    v.setType(widenedTensor(v.getType()));
  }

  OpBuilder b(func.getContext());
  SmallVector<Operation *> ops;
  func.walk([&](Operation *op) { ops.push_back(op); });
  for (Operation *op : ops) {
    if (auto castOp = dyn_cast<graph::CastOp>(op)) {
      auto to = dyn_cast<IntegerType>(castOp.getTo());
      if (!to || !isNarrowInteger(to)) {
        continue;
      }
      castOp.setToAttr(TypeAttr::get(widened(to)));
      // From a float, a signed target goes through i32 so that values
      // beyond i8 still wrap (unsigned ones go through i64 already, in
      // the unsigned legalization).
      if (to.isSignless() &&
          isa<FloatType>(getElementTypeOrSelf(castOp.getInput().getType()))) {
        Type i32 = b.getI32Type();
        Value result = castOp.getResult();
        Type type = result.getType();
        castOp.setToAttr(TypeAttr::get(i32));
        result.setType(cast<ShapedType>(type).clone(i32));
        b.setInsertionPointAfter(castOp);
        auto narrowed = graph::CastOp::create(b, castOp.getLoc(), type, result,
                                              TypeAttr::get(widened(to)));
        result.replaceAllUsesExcept(narrowed, narrowed);
        castOp = narrowed;
      }
      wrapCastResult(b, castOp, to);
      continue;
    }
    auto constant = dyn_cast<graph::ConstantOp>(op);
    if (!constant || !narrow.contains(constant.getResult())) {
      continue;
    }
    auto dense = dyn_cast<DenseElementsAttr>(constant.getValue());
    if (!dense) {
      return op->emitError("graph.constant: a 2- or 4-bit integer constant "
                           "must be a dense elements attribute");
    }
    auto element = cast<IntegerType>(dense.getElementType());
    bool isUnsigned = element.isUnsigned();
    constant.setValueAttr(
        dense.mapValues(widened(element), [&](const APInt &v) {
          return isUnsigned ? v.zext(8) : v.sext(8);
        }));
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

LogicalResult legalizeSmallTypes(ModuleOp module) {
  for (auto func : module.getOps<func::FuncOp>()) {
    if (!func.isExternal() &&
        (failed(refuseArithmetic(func)) || failed(widenNarrowIntegers(func)))) {
      return failure();
    }
  }
  return success();
}

} // namespace graphc::lowering
