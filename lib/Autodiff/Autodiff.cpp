//===- Autodiff.cpp - graph-autodiff: reverse-mode differentiation --------===//

#include "GradientRules.h"
#include "StepSignature.h"

#include "graphc/Autodiff/Passes.h"
#include "graphc/Autodiff/ReverseMode.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/SymbolTable.h"

#include <cmath>

namespace graphc {
#define GEN_PASS_DEF_GRAPHAUTODIFF
#include "graphc/Autodiff/Passes.h.inc"
} // namespace graphc

using namespace mlir;
using namespace graphc;
using namespace graphc::graph;
using namespace graphc::autodiff;

namespace {

/// The marks that pair a forward op with the ops of its gradient.
constexpr llvm::StringLiteral kForwardIdAttr = "graph.forward_id";
constexpr llvm::StringLiteral kGradOfAttr = "graph.grad_of";

/// True when every read of `var` feeds only the mean or variance operand of
/// an inference graph.batch_norm: running statistics (PyTorch buffers), not
/// weights, even when graph-hoist-weights made them variables.
bool isStatistic(VariableOp var, ModuleOp module) {
  bool any = false, onlyStats = true;
  module.walk([&](ReadVariableOp read) {
    if (read.getVariable() != var.getSymName()) {
      return;
    }
    for (OpOperand &use : read->getUses()) {
      any = true;
      auto bn = dyn_cast<BatchNormOp>(use.getOwner());
      onlyStats &=
          bn && (use.get() == bn.getMean() || use.get() == bn.getVariance()) &&
          bn.getInput() != use.get() && bn.getScale() != use.get() &&
          bn.getBias() != use.get();
    }
  });
  return any && onlyStats;
}

/// A value the loss is differentiated with respect to: an argument, or a
/// variable and every read of it.
struct Source {
  std::string name;
  RankedTensorType type;
  SmallVector<Value> values;
};

struct GraphAutodiffPass : graphc::impl::GraphAutodiffBase<GraphAutodiffPass> {
  using GraphAutodiffBase::GraphAutodiffBase;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    if (wrt != "variables" && wrt != "arguments") {
      module.emitError() << "graph-autodiff: unknown wrt='" << wrt
                         << "'; use wrt=variables or wrt=arguments";
      return signalPassFailure();
    }
    if (!(lossScale > 0) || std::isinf(lossScale)) {
      module.emitError() << "graph-autodiff: loss-scale=" << lossScale
                         << " must be a positive finite number";
      return signalPassFailure();
    }
    SymbolTable symbols(module);
    bool any = false;
    for (func::FuncOp func : module.getOps<func::FuncOp>()) {
      if (func.isExternal()) {
        continue;
      }
      std::optional<unsigned> loss = findResult(func, "loss");
      if (!loss) {
        continue;
      }
      any = true;
      if (failed(differentiate(func, *loss, symbols))) {
        return signalPassFailure();
      }
    }
    if (!any) {
      module.emitError()
          << "graph-autodiff: no function has a result named 'loss' in its "
             "graph.output_names; run graph-add-loss first (graphc --train)";
      return signalPassFailure();
    }
  }

  LogicalResult collectSources(func::FuncOp func, SymbolTable &symbols,
                               SmallVectorImpl<Source> &sources) {
    if (wrt == "arguments") {
      for (BlockArgument arg : func.getArguments()) {
        if (!isFloatTensor(arg.getType())) {
          continue;
        }
        std::string name = argumentName(func, arg.getArgNumber());
        if (!isStaticTensor(arg.getType())) {
          return func.emitError()
                 << "graph-autodiff: argument '" << name << "' has type "
                 << arg.getType()
                 << "; differentiating needs a static shape (give graphc "
                    "--input-shape)";
        }
        sources.push_back({name, cast<RankedTensorType>(arg.getType()), {arg}});
      }
      return success();
    }
    // An importer that knows which variables are weights marks them
    // `trainable`; then only those are differentiated.
    auto module = func->getParentOfType<ModuleOp>();
    bool marked = llvm::any_of(module.getOps<VariableOp>(),
                               [](VariableOp v) { return v.getTrainable(); });
    llvm::StringMap<unsigned> index;
    func.walk([&](ReadVariableOp read) {
      auto var = symbols.lookup<VariableOp>(read.getVariable());
      if (!var || !isFloatTensor(read.getType())) {
        return;
      }
      if (auto trainable = var->getAttrOfType<BoolAttr>("graph.trainable")) {
        if (!trainable.getValue()) {
          return;
        }
      }
      if (marked && !var.getTrainable()) {
        return;
      }
      if (isStatistic(var, module)) {
        return;
      }
      auto [it, fresh] = index.try_emplace(var.getSymName(), sources.size());
      if (fresh) {
        sources.push_back({var.getSymName().str(),
                           cast<RankedTensorType>(read.getType()),
                           {}});
      }
      sources[it->second].values.push_back(read.getResult());
    });
    return success();
  }

  LogicalResult differentiate(func::FuncOp func, unsigned lossIndex,
                              SymbolTable &symbols) {
    func::ReturnOp ret = returnOf(func);
    if (!ret) {
      return func.emitError() << "graph-autodiff: @" << func.getSymName()
                              << " must have a single block ending in a return";
    }
    Value loss = ret.getOperand(lossIndex);
    auto lossType = dyn_cast<RankedTensorType>(loss.getType());
    if (!lossType || lossType.getRank() != 0 ||
        !isa<FloatType>(lossType.getElementType())) {
      return func.emitError()
             << "graph-autodiff: the result 'loss' of @" << func.getSymName()
             << " has type " << loss.getType()
             << "; it must be a scalar float such as tensor<f32>";
    }

    SmallVector<Source> sources;
    if (failed(collectSources(func, symbols, sources))) {
      return failure();
    }
    if (sources.empty() && wrt == "variables") {
      return func.emitError()
             << "graph-autodiff: @" << func.getSymName()
             << " reads no trainable float variable, so there is nothing to "
                "train; weights passed as inputs are not trained (make them "
                "constants or initializers of the model)";
    }

    std::vector<ReverseSource> reverseSources;
    for (Source &s : sources) {
      reverseSources.push_back({wrt == "arguments" ? "argument '" + s.name + "'"
                                                   : "variable @" + s.name,
                                s.values});
    }
    // Each differentiated op and every op its rule builds share a mark, so a
    // later pass can tell which forward op a backward op belongs to (the
    // pipeline strategy runs it on that op's stage; distribution-2.md).
    // Discardable: nothing else reads them. An op canonicalization rebuilds
    // loses its mark, and readers must cope with that.
    Builder attrs(func.getContext());
    Block &body = func.getBody().front();
    auto planned = [&](ArrayRef<Operation *> ops) {
      for (auto [i, op] : llvm::enumerate(ops)) {
        op->setAttr(kForwardIdAttr, attrs.getI64IntegerAttr(i));
      }
    };
    auto built = [&](Operation *op, Operation *before) {
      ++numOpsDifferentiated;
      // The adjoint sums into the operands belong to this op too: they sit
      // on its stage, where its output gradient arrives.
      int64_t id = op->getAttrOfType<IntegerAttr>(kForwardIdAttr).getInt();
      for (Operation *o = before ? before->getNextNode() : &body.front();
           o && o != ret; o = o->getNextNode()) {
        // A constant depends on no example, so it has no stage of its own.
        if (!isa<ConstantOp>(o)) {
          o->setAttr(kGradOfAttr, attrs.getI64IntegerAttr(id));
        }
      }
    };
    ReverseOptions options;
    options.prefix = "graph-autodiff: ";
    options.target = "the loss";
    options.advice = " (mark the variable graph.trainable = false, or keep "
                     "the op out of the training step)";
    options.planned = planned;
    options.built = built;
    OpBuilder b(ret);
    // Static loss scaling: the backward pass computes S times every
    // gradient, unscaled below once each is back in its own type.
    FailureOr<SmallVector<Value>> totals =
        autodiff::reverse(b, loss, lossScale, reverseSources, options);
    if (failed(totals)) {
      return failure();
    }

    SmallVector<Value> results(ret.getOperands());
    SmallVector<std::string> names = resultNames(func);
    GradientBuilder gb(b, func.getLoc());
    for (auto [s, total] : llvm::zip(sources, *totals)) {
      if (total && lossScale != 1.0) {
        total = gb.scale(total, 1.0 / lossScale);
      }
      results.push_back(total ? total : gb.splat(s.type, 0.0));
      names.push_back("grad/" + s.name);
      ++numGradients;
    }
    setResults(func, results, names);
    return success();
  }
};

} // namespace
