//===- BatchNormTrain.cpp - graph-batch-norm-train: batch statistics ------===//

#include "GradientBuilder.h"
#include "StepSignature.h"

#include "graphc/Autodiff/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/SymbolTable.h"

namespace graphc {
#define GEN_PASS_DEF_GRAPHBATCHNORMTRAIN
#include "graphc/Autodiff/Passes.h.inc"
} // namespace graphc

using namespace mlir;
using namespace graphc;
using namespace graphc::graph;
using namespace graphc::autodiff;

namespace {

/// True when every use of every read of `var` is the mean or variance
/// operand of an inference batch_norm.
bool onlyStatistic(VariableOp var, ModuleOp module) {
  bool only = true;
  module.walk([&](ReadVariableOp read) {
    if (read.getVariable() != var.getSymName()) {
      return;
    }
    for (OpOperand &use : read->getUses()) {
      auto bn = dyn_cast<BatchNormOp>(use.getOwner());
      only &=
          bn && (use.getOperandNumber() == 3 || use.getOperandNumber() == 4);
    }
  });
  return only;
}

struct GraphBatchNormTrainPass
    : graphc::impl::GraphBatchNormTrainBase<GraphBatchNormTrainPass> {
  using GraphBatchNormTrainBase::GraphBatchNormTrainBase;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    if (!(momentum >= 0.0 && momentum <= 1.0)) {
      module.emitError() << "graph-batch-norm-train: momentum=" << momentum
                         << " must lie in [0, 1]";
      return signalPassFailure();
    }
    auto func = module.lookupSymbol<func::FuncOp>(entry);
    if (!func || func.isExternal()) {
      return;
    }
    func::ReturnOp ret = returnOf(func);
    if (!ret) {
      return;
    }
    SymbolTable symbols(module);
    SmallVector<BatchNormOp> norms;
    func.walk([&](BatchNormOp bn) { norms.push_back(bn); });
    for (BatchNormOp bn : norms) {
      // Decide before the op goes: its reads are what "only a statistic"
      // looks at.
      VariableOp mean =
          statistic(bn.getMean(), symbols, module, "running_mean");
      VariableOp var =
          statistic(bn.getVariance(), symbols, module, "running_var");
      OpBuilder b(bn);
      GradientBuilder gb(b, bn.getLoc());
      auto train = gb.make<BatchNormTrainOp>(
          {bn.getInput(), bn.getScale(), bn.getBias()},
          {gb.attr("epsilon", bn.getEpsilonAttr())});
      bn.getResult().replaceAllUsesWith(train.getOutput());
      bn.erase();
      ++numConverted;

      ArrayRef<int64_t> shape =
          GradientBuilder::typeOf(train.getOutput()).getShape();
      int64_t n = 1;
      for (auto [i, d] : llvm::enumerate(shape)) {
        if (i != 1) {
          n *= d;
        }
      }
      b.setInsertionPoint(ret);
      update(gb, mean, train.getBatchMean(), 1.0);
      update(gb, var, train.getBatchVariance(),
             n > 1 ? static_cast<double>(n) / (n - 1) : 1.0);
    }
  }

  /// The variable `stat` reads, made a running statistic of its own (a copy
  /// named NAME/SUFFIX when it is read as something else too); null when
  /// `stat` is not a variable read (a constant stays as it is).
  VariableOp statistic(Value stat, SymbolTable &symbols, ModuleOp module,
                       StringRef suffix) {
    auto read = stat.getDefiningOp<ReadVariableOp>();
    auto var =
        read ? symbols.lookup<VariableOp>(read.getVariable()) : VariableOp();
    if (!var) {
      return nullptr;
    }
    if (!onlyStatistic(var, module)) {
      OpBuilder b(var);
      b.setInsertionPointAfter(var);
      auto copy = cast<VariableOp>(b.clone(*var));
      std::string base = (var.getSymName() + "/" + suffix).str(), name = base;
      for (int i = 1; symbols.lookup(name); ++i) {
        name = base + "_" + std::to_string(i);
      }
      copy.setSymName(name);
      symbols.insert(copy);
      b.setInsertionPoint(read);
      auto copyRead = b.clone(*read);
      cast<ReadVariableOp>(copyRead).setVariable(name);
      // Only this statistic operand moves to the copy.
      stat.replaceUsesWithIf(copyRead->getResult(0), [&](OpOperand &use) {
        return isa<BatchNormOp>(use.getOwner()) &&
               use.getOperandNumber() == (suffix == "running_mean" ? 3u : 4u);
      });
      var = copy;
    }
    var.removeTrainableAttr();
    var->setAttr("graph.trainable", BoolAttr::get(var.getContext(), false));
    return var;
  }

  /// running = (1 - momentum) * running + momentum * scale * batch.
  void update(GradientBuilder &gb, VariableOp var, Value batch, double scale) {
    if (!var) {
      return;
    }
    auto type = cast<RankedTensorType>(var.getType());
    Value running =
        ReadVariableOp::create(gb.builder(), gb.location(), type,
                               FlatSymbolRefAttr::get(var.getSymNameAttr()),
                               TypeAttr::get(type))
            .getResult();
    Value next = gb.add(gb.scale(running, 1.0 - momentum),
                        gb.scale(batch, momentum * scale));
    AssignVariableOp::create(
        gb.builder(), gb.location(),
        FlatSymbolRefAttr::get(var.getSymNameAttr()), next,
        AssignModeAttr::get(gb.context(), AssignMode::set));
  }
};

} // namespace
