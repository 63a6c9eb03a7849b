//===- AddLoss.cpp - graph-add-loss: a model's output becomes its loss ----===//

#include "GradientBuilder.h"
#include "StepSignature.h"

#include "graphc/Autodiff/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"

namespace graphc {
#define GEN_PASS_DEF_GRAPHADDLOSS
#include "graphc/Autodiff/Passes.h.inc"
} // namespace graphc

using namespace mlir;
using namespace graphc;
using namespace graphc::graph;
using namespace graphc::autodiff;

namespace {

struct GraphAddLossPass : graphc::impl::GraphAddLossBase<GraphAddLossPass> {
  using GraphAddLossBase::GraphAddLossBase;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    if (kind != "softmax_cross_entropy" && kind != "mse") {
      module.emitError() << "graph-add-loss: unknown loss '" << kind
                         << "'; use softmax_cross_entropy or mse";
      return signalPassFailure();
    }
    auto func = module.lookupSymbol<func::FuncOp>(entry);
    if (!func || func.isExternal()) {
      module.emitError() << "graph-add-loss: no function @" << entry
                         << " to add the loss to; name the step with entry=";
      return signalPassFailure();
    }
    if (failed(addLoss(func))) {
      return signalPassFailure();
    }
  }

  LogicalResult addLoss(func::FuncOp func) {
    func::ReturnOp ret = returnOf(func);
    if (!ret) {
      return func.emitError() << "graph-add-loss: @" << func.getSymName()
                              << " must have one block ending in a return";
    }
    SmallVector<std::string> names = resultNames(func);
    if (output < 0 || output >= static_cast<int64_t>(names.size())) {
      return func.emitError()
             << "graph-add-loss: @" << func.getSymName() << " has "
             << names.size() << " outputs; output=" << output
             << " is not one of them";
    }
    for (unsigned i = 0; i < func.getNumArguments(); ++i) {
      if (argumentName(func, i) == labels) {
        return func.emitError()
               << "graph-add-loss: @" << func.getSymName()
               << " already has an input named '" << labels
               << "'; give the labels another name (--labels=NAME)";
      }
    }
    Value out = ret.getOperand(output);
    auto type = dyn_cast<RankedTensorType>(out.getType());
    if (!type || !isa<FloatType>(type.getElementType())) {
      return func.emitError()
             << "graph-add-loss: output '" << names[output] << "' of @"
             << func.getSymName() << " has type " << out.getType()
             << "; a loss needs a float output (pick another with --output "
                "or the ONNX graph's outputs)";
    }
    if (!type.hasStaticShape()) {
      return func.emitError()
             << "graph-add-loss: output '" << names[output] << "' has type "
             << type << "; training needs static shapes (give graphc "
             << "--input-shape NAME:DxDx...)";
    }
    bool crossEntropy = kind == "softmax_cross_entropy";
    if (crossEntropy && type.getRank() != 2) {
      return func.emitError()
             << "graph-add-loss: softmax_cross_entropy takes logits of shape "
                "[batch, classes]; output '"
             << names[output] << "' has type " << type
             << " (reshape the model's output, or use --loss=mse)";
    }

    OpBuilder b(ret);
    Type labelType = crossEntropy ? RankedTensorType::get({type.getDimSize(0)},
                                                          b.getI64Type())
                                  : Type(type);
    unsigned index = func.getNumArguments();
    if (failed(func.insertArgument(index, labelType,
                                   b.getDictionaryAttr(b.getNamedAttr(
                                       "graph.name", b.getStringAttr(labels))),
                                   func.getLoc()))) {
      return func.emitError() << "graph-add-loss: cannot add the labels";
    }
    Value y = func.getArgument(index);

    GradientBuilder gb(b, out.getLoc());
    Value loss;
    if (crossEntropy) {
      auto ce = gb.make<SoftmaxCrossEntropyOp>({out, y}, {gb.unit("sparse")});
      loss = gb.reduce(ce.getLoss(), ReduceKind::mean, {0}, false);
    } else {
      Value d = gb.sub(out, y);
      loss = gb.reduce(gb.mul(d, d), ReduceKind::mean,
                       llvm::to_vector(llvm::seq<int64_t>(0, type.getRank())),
                       false);
    }
    setResults(func, {loss}, {std::string("loss")});
    // The dropped outputs' ops are dead now; graph-autodiff must not see
    // them as paths to the loss, and they would cost a step.
    Block &body = func.getBody().front();
    for (Operation &op : llvm::make_early_inc_range(llvm::reverse(body))) {
      if (isOpTriviallyDead(&op)) {
        op.erase();
      }
    }
    return success();
  }
};

} // namespace
