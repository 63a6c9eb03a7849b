//===- ApplyOptimizer.cpp - graph-apply-optimizer: gradients to updates ---===//

#include "GradientBuilder.h"
#include "StepSignature.h"

#include "graphc/Autodiff/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/SymbolTable.h"

namespace graphc {
#define GEN_PASS_DEF_GRAPHAPPLYOPTIMIZER
#include "graphc/Autodiff/Passes.h.inc"
} // namespace graphc

using namespace mlir;
using namespace graphc;
using namespace graphc::graph;
using namespace graphc::autodiff;

namespace {

constexpr StringLiteral kGradPrefix = "grad/";

struct GraphApplyOptimizerPass
    : graphc::impl::GraphApplyOptimizerBase<GraphApplyOptimizerPass> {
  using GraphApplyOptimizerBase::GraphApplyOptimizerBase;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    if (optimizer != "sgd" && optimizer != "momentum" && optimizer != "adam") {
      module.emitError() << "graph-apply-optimizer: unknown optimizer '"
                         << optimizer << "'; use sgd, momentum or adam";
      return signalPassFailure();
    }
    SymbolTable symbols(module);
    bool any = false;
    for (func::FuncOp func : module.getOps<func::FuncOp>()) {
      if (func.isExternal() ||
          !llvm::any_of(resultNames(func), [](const std::string &n) {
            return StringRef(n).starts_with(kGradPrefix);
          })) {
        continue;
      }
      any = true;
      if (failed(apply(func, symbols))) {
        return signalPassFailure();
      }
    }
    if (!any) {
      module.emitError() << "graph-apply-optimizer: no function has grad/ "
                            "results; run graph-autodiff first";
      return signalPassFailure();
    }
  }

  /// A new zero-initialised (or `init`-filled) variable next to `after`.
  FailureOr<VariableOp> makeSlot(SymbolTable &symbols, Operation *after,
                                 StringRef name, RankedTensorType type,
                                 StringRef slotOf, double init) {
    if (symbols.lookup(name)) {
      return after->emitError()
             << "graph-apply-optimizer: the optimizer slot '" << name
             << "' exists already; was the optimizer applied twice?";
    }
    OpBuilder b(after->getContext());
    b.setInsertionPointAfter(after);
    Attribute value =
        b.getFloatAttr(cast<FloatType>(type.getElementType()), init);
    auto slot = VariableOp::create(b, after->getLoc(), b.getStringAttr(name),
                                   TypeAttr::get(type),
                                   DenseElementsAttr::get(type, value),
                                   /*trainable=*/nullptr);
    slot->setAttr("graph.slot_of", b.getStringAttr(slotOf));
    symbols.insert(slot);
    return slot;
  }

  Value read(GradientBuilder &gb, VariableOp var) {
    auto type = cast<RankedTensorType>(var.getType());
    return ReadVariableOp::create(gb.builder(), gb.location(), type,
                                  FlatSymbolRefAttr::get(var.getSymNameAttr()),
                                  TypeAttr::get(type))
        .getResult();
  }

  void assign(GradientBuilder &gb, VariableOp var, Value value) {
    AssignVariableOp::create(
        gb.builder(), gb.location(),
        FlatSymbolRefAttr::get(var.getSymNameAttr()), value,
        AssignModeAttr::get(gb.context(), AssignMode::set));
  }

  LogicalResult apply(func::FuncOp func, SymbolTable &symbols) {
    func::ReturnOp ret = returnOf(func);
    if (!ret) {
      return func.emitError() << "graph-apply-optimizer: @" << func.getSymName()
                              << " must have one block ending in a return";
    }
    OpBuilder b(ret);
    GradientBuilder gb(b, func.getLoc());
    SmallVector<Value> kept;
    SmallVector<std::string> keptNames;
    // Adam's beta powers: one pair per step, read before any update and
    // advanced after all of them.
    Value beta1Power, beta2Power;
    VariableOp beta1Var, beta2Var;
    SmallVector<Value> weights;
    SmallVector<std::string> weightNames;
    for (auto [value, name] : llvm::zip(ret.getOperands(), resultNames(func))) {
      if (!StringRef(name).starts_with(kGradPrefix)) {
        kept.push_back(value);
        keptNames.push_back(name);
        continue;
      }
      StringRef varName = StringRef(name).drop_front(kGradPrefix.size());
      auto var = symbols.lookup<VariableOp>(varName);
      if (!var) {
        return func.emitError()
               << "graph-apply-optimizer: result '" << name << "' of @"
               << func.getSymName() << " has no graph.variable @" << varName
               << " to update (was it differentiated with wrt=arguments?)";
      }
      auto type = dyn_cast<RankedTensorType>(var.getType());
      if (!type || value.getType() != type ||
          !isa<FloatType>(type.getElementType())) {
        return func.emitError() << "graph-apply-optimizer: result '" << name
                                << "' has type " << value.getType() << " but @"
                                << varName << " is " << var.getType();
      }
      Type e = type.getElementType();
      Value w = read(gb, var);
      Value lrValue = gb.scalar(e, lr);
      Value updated;
      if (optimizer == "sgd") {
        updated = gb.value<SGDUpdateOp>({w, value, lrValue});
        assign(gb, var, updated);
      } else if (optimizer == "momentum") {
        FailureOr<VariableOp> accum = makeSlot(
            symbols, var, (varName + "/momentum").str(), type, varName, 0.0);
        if (failed(accum)) {
          return failure();
        }
        auto update = gb.make<MomentumUpdateOp>(
            {w, read(gb, *accum), value, lrValue, gb.scalar(e, momentum)});
        updated = update.getNewParam();
        assign(gb, var, updated);
        assign(gb, *accum, update.getNewAccum());
      } else {
        if (!beta1Power) {
          auto scalarType = RankedTensorType::get({}, b.getF32Type());
          ModuleOp module = func->getParentOfType<ModuleOp>();
          Operation *anchor = &module.getBody()->front();
          FailureOr<VariableOp> p1 = makeSlot(
              symbols, anchor, "adam/beta1_power", scalarType, "", beta1);
          if (failed(p1)) {
            return failure();
          }
          FailureOr<VariableOp> p2 =
              makeSlot(symbols, *p1, "adam/beta2_power", scalarType, "", beta2);
          if (failed(p2)) {
            return failure();
          }
          beta1Var = *p1;
          beta2Var = *p2;
          // Read ahead of the updates, where the function starts, so that
          // every update sees this step's powers.
          OpBuilder::InsertionGuard guard(b);
          b.setInsertionPointToStart(&func.getBody().front());
          beta1Power = read(gb, beta1Var);
          beta2Power = read(gb, beta2Var);
        }
        FailureOr<VariableOp> m = makeSlot(
            symbols, var, (varName + "/adam_m").str(), type, varName, 0.0);
        if (failed(m)) {
          return failure();
        }
        FailureOr<VariableOp> v = makeSlot(
            symbols, *m, (varName + "/adam_v").str(), type, varName, 0.0);
        if (failed(v)) {
          return failure();
        }
        Value p1 = gb.cast(beta1Power, e), p2 = gb.cast(beta2Power, e);
        // PyTorch adds eps to sqrt(v_hat); ApplyAdam to sqrt(v) after
        // folding sqrt(1 - beta2^t) into the step: scale eps to match.
        Value epsT = gb.mul(gb.scalar(e, epsilon),
                            gb.value<SqrtOp>({gb.sub(gb.scalar(e, 1.0), p2)}));
        auto update = gb.make<AdamUpdateOp>(
            {w, read(gb, *m), read(gb, *v), value, lrValue, gb.scalar(e, beta1),
             gb.scalar(e, beta2), epsT, p1, p2});
        updated = update.getNewParam();
        assign(gb, var, updated);
        assign(gb, *m, update.getNewM());
        assign(gb, *v, update.getNewV());
      }
      weights.push_back(updated);
      weightNames.push_back(varName.str());
      ++numUpdated;
    }
    if (beta1Power) {
      assign(gb, beta1Var, gb.scale(beta1Power, beta1));
      assign(gb, beta2Var, gb.scale(beta2Power, beta2));
    }
    if (returnWeights) {
      // The other state the step sets (batch norm's running statistics),
      // but not the optimizer's slots.
      func.walk([&](AssignVariableOp assign) {
        auto var = symbols.lookup<VariableOp>(assign.getVariable());
        if (!var || var->hasAttr("graph.slot_of") ||
            assign.getMode() != AssignMode::set ||
            llvm::is_contained(weightNames, var.getSymName())) {
          return;
        }
        weights.push_back(assign.getValue());
        weightNames.push_back(var.getSymName().str());
      });
      kept.append(weights.begin(), weights.end());
      keptNames.append(weightNames.begin(), weightNames.end());
    }
    setResults(func, kept, keptNames);
    return success();
  }
};

} // namespace
