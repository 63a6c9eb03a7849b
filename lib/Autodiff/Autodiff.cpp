//===- Autodiff.cpp - graph-autodiff: reverse-mode differentiation --------===//

#include "GradientRules.h"
#include "StepSignature.h"

#include "graphc/Autodiff/Passes.h"

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

bool isFloatTensor(Type t) {
  auto tensor = dyn_cast<TensorType>(t);
  return tensor && isa<FloatType>(tensor.getElementType());
}

bool isStatic(Type t) {
  auto ranked = dyn_cast<RankedTensorType>(t);
  return ranked && ranked.hasStaticShape();
}

std::string locString(Location loc) {
  std::string s;
  llvm::raw_string_ostream os(s);
  loc.print(os);
  return s;
}

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
        if (!isStatic(arg.getType())) {
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

    // Active: float values that depend on a source. Useful: values the
    // loss depends on. Only ops with both kinds are differentiated.
    Block &body = func.getBody().front();
    // Each active value remembers one source it depends on, for
    // diagnostics.
    DenseMap<Value, std::string> origin;
    DenseSet<Value> active, useful;
    for (Source &s : sources) {
      std::string label = wrt == "arguments" ? "argument '" + s.name + "'"
                                             : "variable @" + s.name;
      for (Value v : s.values) {
        active.insert(v);
        origin[v] = label;
      }
    }
    for (Operation &op : body.without_terminator()) {
      auto first = llvm::find_if(op.getOperands(),
                                 [&](Value v) { return active.contains(v); });
      if (first == op.getOperands().end()) {
        continue;
      }
      // A copy: inserting the results may move the map's entries.
      std::string from = origin.lookup(*first);
      for (Value r : op.getResults()) {
        if (isFloatTensor(r.getType())) {
          active.insert(r);
          origin[r] = from;
        }
      }
    }
    useful.insert(loss);
    SmallVector<Operation *> ops;
    for (Operation &op : llvm::reverse(body.without_terminator())) {
      bool needed = false;
      for (Value r : op.getResults()) {
        needed |= useful.contains(r) && active.contains(r);
      }
      // A source (a variable read) is active without active operands.
      needed &= llvm::any_of(op.getOperands(),
                             [&](Value v) { return active.contains(v); });
      if (!needed) {
        continue;
      }
      ops.push_back(&op);
      useful.insert(op.getOperands().begin(), op.getOperands().end());
    }

    for (Operation *op : ops) {
      std::optional<std::string> why = whyNotDifferentiable(op);
      if (!why && isa<SoftmaxCrossEntropyOp>(op) &&
          useful.contains(op->getResult(1))) {
        why = "its second result (the gradient of the logits) leads to the "
              "loss, and graph-autodiff does not differentiate a gradient";
      }
      if (why) {
        Value from = *llvm::find_if(
            op->getOperands(), [&](Value v) { return active.contains(v); });
        return op->emitError()
               << "graph-autodiff: '" << op->getName() << "' at "
               << locString(op->getLoc()) << " is not differentiable; " << *why
               << "; it lies between " << origin[from]
               << " and the loss (mark the variable graph.trainable = false, "
                  "or keep the op out of the training step)";
      }
      for (Type t : llvm::concat<const Type>(op->getOperandTypes(),
                                             op->getResultTypes())) {
        if (isa<TensorType>(t) && !isStatic(t)) {
          return op->emitError()
                 << "graph-autodiff: '" << op->getName() << "' at "
                 << locString(op->getLoc()) << " has the dynamic type " << t
                 << "; differentiating needs static shapes (give graphc "
                    "--input-shape)";
        }
      }
    }

    DenseSet<Operation *> forward;
    for (Operation &op : body) {
      forward.insert(&op);
    }

    // Each differentiated op and every op its rule builds share a mark, so a
    // later pass can tell which forward op a backward op belongs to (the
    // pipeline strategy runs it on that op's stage; distribution-2.md).
    // Discardable: nothing else reads them. An op canonicalization rebuilds
    // loses its mark, and readers must cope with that.
    Builder attrs(func.getContext());
    for (auto [i, op] : llvm::enumerate(ops)) {
      op->setAttr(kForwardIdAttr, attrs.getI64IntegerAttr(i));
    }
    auto markBackward = [&](Operation *after, int64_t id) {
      for (Operation *op = after ? after->getNextNode() : &body.front();
           op && op != ret; op = op->getNextNode()) {
        // A constant depends on no example, so it has no stage of its own.
        if (!isa<ConstantOp>(op)) {
          op->setAttr(kGradOfAttr, attrs.getI64IntegerAttr(id));
        }
      }
    };

    OpBuilder b(ret);
    DenseMap<Value, Value> grads;
    auto accumulate = [&](Value v, Value g, GradientBuilder &gb) {
      auto [it, fresh] = grads.try_emplace(v, g);
      if (!fresh) {
        it->second = gb.add(it->second, g);
      }
    };
    {
      GradientBuilder gb(b, loss.getLoc());
      // Static loss scaling: the backward pass computes S times every
      // gradient, unscaled below once each is back in its own type.
      grads[loss] = gb.splat(lossType, lossScale);
    }
    // `ops` is in reverse program order: every user of a result comes
    // before the op that defines it.
    for (Operation *op : ops) {
      SmallVector<Value> resultGrads;
      bool anyGrad = false;
      for (Value r : op->getResults()) {
        resultGrads.push_back(grads.lookup(r));
        anyGrad |= static_cast<bool>(resultGrads.back());
      }
      if (!anyGrad) {
        continue;
      }
      SmallVector<bool> wanted;
      for (Value operand : op->getOperands()) {
        wanted.push_back(active.contains(operand));
      }
      GradientBuilder gb(b, op->getLoc());
      SmallVector<Value> operandGrads;
      Operation *before = ret->getPrevNode();
      buildGradients(op, resultGrads, wanted, gb, operandGrads);
      ++numOpsDifferentiated;
      for (auto [operand, g] : llvm::zip(op->getOperands(), operandGrads)) {
        if (!g) {
          continue;
        }
        if (g.getType() != operand.getType()) {
          return op->emitError()
                 << "graph-autodiff: internal error: the gradient rule of '"
                 << op->getName() << "' produced " << g.getType() << " for "
                 << operand.getType();
        }
        accumulate(operand, g, gb);
      }
      // The adjoint sums into the operands belong to this op too: they sit
      // on its stage, where its output gradient arrives.
      markBackward(before,
                   op->getAttrOfType<IntegerAttr>(kForwardIdAttr).getInt());
    }

    SmallVector<Value> results(ret.getOperands());
    SmallVector<std::string> names = resultNames(func);
    GradientBuilder gb(b, func.getLoc());
    for (Source &s : sources) {
      Value total;
      for (Value v : s.values) {
        if (Value g = grads.lookup(v)) {
          total = total ? gb.add(total, g) : g;
        }
      }
      if (total && lossScale != 1.0) {
        total = gb.scale(total, 1.0 / lossScale);
      }
      results.push_back(total ? total : gb.splat(s.type, 0.0));
      names.push_back("grad/" + s.name);
      ++numGradients;
    }
    setResults(func, results, names);

    // Rules build some adjoints no one reads (an unused operand's); drop
    // them, but never a forward op.
    for (Operation &op : llvm::make_early_inc_range(llvm::reverse(body))) {
      if (!forward.contains(&op) && isOpTriviallyDead(&op)) {
        op.erase();
      }
    }
    return success();
  }
};

} // namespace
