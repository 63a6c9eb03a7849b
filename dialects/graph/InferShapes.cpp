//===- InferShapes.cpp - refine graph result types from operands ----------===//
//
// Type inference lives on each op (InferTypeOpInterface); this pass only
// applies it in program order so that static shapes flow through a function.
//
//===----------------------------------------------------------------------===//

#include "graph/GraphOps.h"
#include "graph/Passes.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/SymbolTable.h"

namespace graphc::graph {
#define GEN_PASS_DEF_GRAPHINFERSHAPES
#include "graph/Passes.h.inc"
} // namespace graphc::graph

using namespace mlir;
using namespace graphc::graph;

namespace {

/// Parses "DxDx..." ("?" for a dynamic dimension, "" for a scalar).
FailureOr<SmallVector<int64_t>> parseShape(StringRef text) {
  SmallVector<int64_t> shape;
  if (text.empty()) {
    return shape;
  }
  SmallVector<StringRef> dims;
  text.split(dims, 'x');
  for (StringRef dim : dims) {
    if (dim == "?") {
      shape.push_back(ShapedType::kDynamic);
      continue;
    }
    int64_t size;
    if (dim.getAsInteger(10, size) || size < 0) {
      return failure();
    }
    shape.push_back(size);
  }
  return shape;
}

struct GraphInferShapesPass
    : public graphc::graph::impl::GraphInferShapesBase<GraphInferShapesPass> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    bool entryFound = entry.empty();
    for (auto func : module.getOps<func::FuncOp>()) {
      if (func.isExternal()) {
        continue;
      }
      if (!entry.empty() && func.getSymName() == entry) {
        entryFound = true;
        if (failed(applyArgShapes(func))) {
          return signalPassFailure();
        }
      }
      if (failed(inferFunction(func))) {
        return signalPassFailure();
      }
    }
    if (!entryFound) {
      module.emitError() << "graph-infer-shapes: no function named '" << entry
                         << "'";
      return signalPassFailure();
    }
  }

  /// Applies the `arg-shapes` option to `func`'s signature.
  LogicalResult applyArgShapes(func::FuncOp func) {
    SmallVector<Type> inputs(func.getArgumentTypes());
    for (const std::string &spec : argShapes) {
      auto [indexText, shapeText] = StringRef(spec).split(':');
      unsigned index;
      FailureOr<SmallVector<int64_t>> shape = parseShape(shapeText);
      if (indexText.getAsInteger(10, index) || failed(shape)) {
        return func.emitError() << "graph-infer-shapes: bad arg-shapes entry '"
                                << spec << "' (expected INDEX:DxDx...)";
      }
      if (index >= inputs.size()) {
        return func.emitError() << "graph-infer-shapes: argument " << index
                                << " out of range; '" << func.getSymName()
                                << "' has " << inputs.size() << " arguments";
      }
      auto oldType = dyn_cast<TensorType>(inputs[index]);
      if (!oldType) {
        return func.emitError() << "graph-infer-shapes: argument " << index
                                << " is not a tensor";
      }
      Type newType = refineTensorType(
          oldType, RankedTensorType::get(*shape, oldType.getElementType()));
      if (!newType) {
        return func.emitError() << "graph-infer-shapes: shape " << shapeText
                                << " conflicts with argument " << index
                                << " of type " << oldType;
      }
      inputs[index] = newType;
      func.getArgument(index).setType(newType);
    }
    func.setFunctionType(
        FunctionType::get(func.getContext(), inputs, func.getResultTypes()));
    return success();
  }

  LogicalResult inferFunction(func::FuncOp func) {
    MLIRContext *ctx = func.getContext();
    auto *graphDialect = ctx->getLoadedDialect<GraphDialect>();
    WalkResult result = func.walk<WalkOrder::PreOrder>([&](Operation *op) {
      auto infer = dyn_cast<InferTypeOpInterface>(op);
      if (!infer || op->getDialect() != graphDialect) {
        return WalkResult::advance();
      }
      SmallVector<Type> inferred;
      if (failed(infer.inferReturnTypes(
              ctx, op->getLoc(), op->getOperands(), op->getRawDictionaryAttrs(),
              op->getPropertiesStorage(), op->getRegions(), inferred))) {
        return WalkResult::interrupt();
      }
      for (auto [value, newType] :
           llvm::zip_equal(op->getResults(), inferred)) {
        if (failed(refineValue(value, newType))) {
          return WalkResult::interrupt();
        }
      }
      return WalkResult::advance();
    });
    if (result.wasInterrupted()) {
      return failure();
    }
    return updateResultTypes(func);
  }

  /// Gives `value` the meet of its type and `inferred`; users outside the
  /// graph dialect keep seeing the old type through a tensor.cast.
  LogicalResult refineValue(Value value, Type inferred) {
    Type oldType = value.getType();
    Type newType = refineTensorType(oldType, inferred);
    if (!newType) {
      return emitError(value.getLoc())
             << "inferred type " << inferred << " conflicts with declared type "
             << oldType;
    }
    if (newType == oldType) {
      return success();
    }
    ++numRefined;
    value.setType(newType);
    auto *graphDialect = value.getContext()->getLoadedDialect<GraphDialect>();
    OpBuilder builder(value.getContext());
    for (OpOperand &use : llvm::make_early_inc_range(value.getUses())) {
      Operation *user = use.getOwner();
      if (user->getDialect() == graphDialect || isa<func::ReturnOp>(user)) {
        continue;
      }
      builder.setInsertionPoint(user);
      use.set(tensor::CastOp::create(builder, value.getLoc(), oldType, value));
    }
    return success();
  }

  /// Makes the function's result types match what it returns. A function
  /// with callers keeps its signature; its returns get casts instead. A
  /// reference from another function's attribute (graph-dynamic-batch's
  /// chunk body) calls nothing and does not count.
  LogicalResult updateResultTypes(func::FuncOp func) {
    auto module = func->getParentOfType<ModuleOp>();
    std::optional<SymbolTable::UseRange> uses =
        SymbolTable::getSymbolUses(func, module);
    bool hasUses =
        !uses || llvm::any_of(*uses, [](const SymbolTable::SymbolUse &u) {
          return !isa<func::FuncOp>(u.getUser());
        });
    SmallVector<Type> results(func.getResultTypes());
    SmallVector<func::ReturnOp> returns;
    func.walk([&](func::ReturnOp op) { returns.push_back(op); });
    if (returns.empty()) {
      return success();
    }
    bool changed = false;
    // Adopt a result type only when every return yields exactly that type
    // and it refines the declared one.
    for (unsigned i = 0; !hasUses && i < results.size(); ++i) {
      Type returned = returns.front().getOperand(i).getType();
      bool allEqual = llvm::all_of(returns, [&](func::ReturnOp ret) {
        return ret.getOperand(i).getType() == returned;
      });
      if (allEqual && returned != results[i] &&
          refineTensorType(results[i], returned) == returned) {
        results[i] = returned;
        changed = true;
      }
    }
    OpBuilder builder(func.getContext());
    for (func::ReturnOp ret : returns) {
      builder.setInsertionPoint(ret);
      for (OpOperand &operand : ret->getOpOperands()) {
        Type want = results[operand.getOperandNumber()];
        if (operand.get().getType() != want) {
          operand.set(tensor::CastOp::create(builder, ret.getLoc(), want,
                                             operand.get()));
        }
      }
    }
    if (changed) {
      func.setFunctionType(FunctionType::get(func.getContext(),
                                             func.getArgumentTypes(), results));
    }
    return success();
  }
};

} // namespace
