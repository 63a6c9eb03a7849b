//===- ReverseMode.cpp - reverse-mode differentiation of graph ops --------===//
//
// graph-autodiff's core, shared with the ONNX importer's Gradient node:
// which ops lie between the sources and the differentiated value, their
// checks, and the backward sweep through the gradient rules.
//
//===----------------------------------------------------------------------===//

#include "graphc/Autodiff/ReverseMode.h"

#include "GradientRules.h"

#include "mlir/IR/Operation.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

using namespace mlir;
using namespace graphc;
using namespace graphc::graph;
using namespace graphc::autodiff;

namespace {

std::string locString(Location loc) {
  std::string s;
  llvm::raw_string_ostream os(s);
  loc.print(os);
  return s;
}

} // namespace

FailureOr<SmallVector<Value>>
graphc::autodiff::reverse(OpBuilder &b, Value y, double seed,
                          ArrayRef<ReverseSource> sources,
                          const ReverseOptions &options) {
  Block *block = b.getInsertionBlock();
  auto forwardOps =
      llvm::make_range(block->begin(), Block::iterator(b.getInsertionPoint()));

  // Active: float values that depend on a source. Useful: values `y`
  // depends on. Only ops with both kinds are differentiated. Each active
  // value remembers one source it depends on, for diagnostics.
  DenseMap<Value, std::string> origin;
  DenseSet<Value> active, useful;
  for (const ReverseSource &s : sources) {
    for (Value v : s.values) {
      active.insert(v);
      origin[v] = s.label;
    }
  }
  for (Operation &op : forwardOps) {
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
  useful.insert(y);
  SmallVector<Operation *> ops;
  for (Operation &op : llvm::reverse(forwardOps)) {
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
      why = "its second result (the gradient of the logits) leads to " +
            options.target +
            ", and graph-autodiff does not differentiate a gradient";
    }
    if (why) {
      Value from = *llvm::find_if(op->getOperands(),
                                  [&](Value v) { return active.contains(v); });
      return op->emitError()
             << options.prefix << "'" << op->getName() << "' at "
             << locString(op->getLoc()) << " is not differentiable; " << *why
             << "; it lies between " << origin[from] << " and "
             << options.target << options.advice;
    }
    for (Type t : llvm::concat<const Type>(op->getOperandTypes(),
                                           op->getResultTypes())) {
      if (isa<TensorType>(t) && !isStaticTensor(t)) {
        return op->emitError()
               << options.prefix << "'" << op->getName() << "' at "
               << locString(op->getLoc()) << " has the dynamic type " << t
               << "; differentiating needs static shapes (give graphc "
                  "--input-shape)";
      }
    }
  }
  if (options.planned) {
    options.planned(ops);
  }

  DenseSet<Operation *> forward;
  for (Operation &op : *block) {
    forward.insert(&op);
  }

  DenseMap<Value, Value> grads;
  auto accumulate = [&](Value v, Value g, GradientBuilder &gb) {
    auto [it, fresh] = grads.try_emplace(v, g);
    if (!fresh) {
      it->second = gb.add(it->second, g);
    }
  };
  {
    GradientBuilder gb(b, y.getLoc());
    grads[y] = gb.splat(GradientBuilder::typeOf(y), seed);
  }
  // `ops` is in reverse program order: every user of a result comes before
  // the op that defines it.
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
    Operation *before = b.getInsertionPoint() == block->begin()
                            ? nullptr
                            : &*std::prev(b.getInsertionPoint());
    buildGradients(op, resultGrads, wanted, gb, operandGrads);
    for (auto [operand, g] : llvm::zip(op->getOperands(), operandGrads)) {
      if (!g) {
        continue;
      }
      if (g.getType() != operand.getType()) {
        return op->emitError()
               << options.prefix << "internal error: the gradient rule of '"
               << op->getName() << "' produced " << g.getType() << " for "
               << operand.getType();
      }
      accumulate(operand, g, gb);
    }
    if (options.built) {
      options.built(op, before);
    }
  }

  SmallVector<Value> totals;
  DenseSet<Operation *> keep;
  GradientBuilder gb(b, y.getLoc());
  for (const ReverseSource &s : sources) {
    Value total;
    for (Value v : s.values) {
      if (Value g = grads.lookup(v)) {
        total = total ? gb.add(total, g) : g;
      }
    }
    totals.push_back(total);
    if (total && total.getDefiningOp()) {
      keep.insert(total.getDefiningOp());
    }
  }
  // Rules build some adjoints no one reads (an unused operand's); drop
  // them, but never a forward op or a returned adjoint.
  for (Operation &op : llvm::make_early_inc_range(llvm::reverse(*block))) {
    if (!forward.contains(&op) && !keep.contains(&op) &&
        isOpTriviallyDead(&op)) {
      op.erase();
    }
  }
  return totals;
}
