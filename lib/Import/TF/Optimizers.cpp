//===- Optimizers.cpp - TensorFlow optimizer updates ----------------------===//
//
// The translator of the TensorFlow optimizer updates: Apply*/ResourceApply*
// (gradient descent, Adam, FTRL) and SparseApplyFtrl. TFOps.cpp names this file
// for each op it takes; importNode (GraphDefImporter.cpp) dispatches here and
// records the result.
//
//===----------------------------------------------------------------------===//

#include "GraphDefImporterImpl.h"

namespace graphc::import {

LogicalResult GraphDefImporter::translateOptimizers(
    const GraphNode &node, const tensorflow::NodeDef &nd, Location at,
    StringRef op, llvm::ArrayRef<Value> in, Value &result,
    llvm::SmallVectorImpl<Value> &results) {
  if (op == "SparseApplyFtrl" || op == "ResourceSparseApplyFtrl") {
    // TF: var accum linear grad indices lr l1 l2 lr_power. The rows named
    // by `indices` take an FTRL step: they are gathered from the three
    // variables, updated with graph.ftrl_update, and scattered back. TF
    // applies a row named twice twice, in order; here each such row takes
    // one step from its old value (scatter_nd's last write wins) -- TF's
    // own optimizers pass unique indices (Unique + UnsortedSegmentSum).
    if (failed(needInputs(in, at, op, 9))) {
      return failure();
    }
    if (boolAttr(nd, "multiply_linear_by_lr")) {
      return emitError(at) << op
                           << " with multiply_linear_by_lr is not "
                              "supported";
    }
    auto indexType = dyn_cast<RankedTensorType>(in[4].getType());
    if (!indexType || indexType.getRank() != 1) {
      return emitError(at) << op << ": indices must be a vector, not "
                           << in[4].getType();
    }
    llvm::SmallVector<FlatSymbolRefAttr> vars;
    llvm::SmallVector<Value> rows;
    llvm::SmallVector<Value> whole;
    for (unsigned i = 0; i < 3; ++i) {
      auto symbol = variableFor(i, at);
      if (failed(symbol)) {
        return failure();
      }
      vars.push_back(*symbol);
      Value read = readVariable(at, *symbol);
      Value row = read ? emit(at, "graph.gather", {read, in[4]},
                              {named("axis", builder.getI64IntegerAttr(0))})
                       : Value();
      if (!row) {
        return failure();
      }
      whole.push_back(read);
      rows.push_back(row);
    }
    std::optional<RegisteredOperationName> name =
        RegisteredOperationName::lookup("graph.ftrl_update", ctx);
    std::optional<RegisteredOperationName> assignName =
        RegisteredOperationName::lookup("graph.assign_variable", ctx);
    Attribute set = parseAttr(ctx, at, "#graph<assign_mode set>");
    if (!name || !assignName || !set) {
      return emitError(at) << "importing " << op
                           << " needs graph.ftrl_update and "
                              "graph.assign_variable";
    }
    OperationState st(at, *name);
    st.addOperands(
        {rows[0], rows[1], rows[2], in[3], in[5], in[6], in[7], in[8]});
    for (Value row : rows) {
      st.addTypes(row.getType());
    }
    Operation *upd = builder.create(st);
    created.push_back(upd);
    if (failed(mlir::verify(upd))) {
      return failure();
    }
    Value index = emit(at, "graph.unsqueeze", {in[4]},
                       {named("axes", builder.getDenseI64ArrayAttr({1}))});
    if (!index) {
      return failure();
    }
    for (unsigned i = 0; i < 3; ++i) {
      Value updated = emit(at, "graph.scatter_nd",
                           {whole[i], index, upd->getResult(i)}, {});
      if (!updated) {
        return failure();
      }
      OperationState as(at, *assignName);
      as.addOperands(updated);
      as.addAttribute("variable", vars[i]);
      as.addAttribute("mode", set);
      created.push_back(builder.create(as));
      if (i == 0 && !op.starts_with("Resource")) {
        result = updated;
      }
    }
  } else if (op == "ApplyGradientDescent" ||
             op == "ResourceApplyGradientDescent" || op == "ApplyAdam" ||
             op == "ResourceApplyAdam" || op == "ApplyFtrl" ||
             op == "ResourceApplyFtrl" || op == "ApplyMomentum" ||
             op == "ResourceApplyMomentum") {
    // Operand order (TF): var, [slots...], hyper-parameters, grad.
    unsigned slots = op.contains("Adam")       ? 2
                     : op.contains("Ftrl")     ? 2
                     : op.contains("Momentum") ? 1
                                               : 0;
    if (failed(needInputs(in, at, op, 1 + slots))) {
      return failure();
    }
    llvm::SmallVector<FlatSymbolRefAttr> vars;
    llvm::SmallVector<Value> state;
    for (unsigned i = 0; i <= slots; ++i) {
      auto symbol = variableFor(i, at);
      if (failed(symbol)) {
        return failure();
      }
      vars.push_back(*symbol);
      Value read = readVariable(at, *symbol);
      if (!read) {
        return failure();
      }
      state.push_back(read);
    }
    llvm::SmallVector<Value> operands;
    StringRef update;
    if (op.contains("GradientDescent")) {
      if (failed(needInputs(in, at, op, 3))) {
        return failure();
      }
      update = "graph.sgd_update"; // (param, grad, lr)
      operands = {state[0], in[2], in[1]};
    } else if (op.contains("Adam")) {
      // TF: var m v beta1_power beta2_power lr beta1 beta2 epsilon grad
      if (failed(needInputs(in, at, op, 10))) {
        return failure();
      }
      update = "graph.adam_update";
      operands = {state[0], state[1], state[2], in[9], in[5],
                  in[6],    in[7],    in[8],    in[3], in[4]};
    } else if (op.contains("Ftrl")) {
      // TF: var accum linear grad lr l1 l2 lr_power
      if (failed(needInputs(in, at, op, 8))) {
        return failure();
      }
      update = "graph.ftrl_update";
      operands = {state[0], state[1], state[2], in[3],
                  in[4],    in[5],    in[6],    in[7]};
    } else {
      // TF: var accum lr grad momentum
      if (failed(needInputs(in, at, op, 5))) {
        return failure();
      }
      update = "graph.momentum_update";
      operands = {state[0], state[1], in[3], in[2], in[4]};
    }
    std::optional<RegisteredOperationName> name =
        RegisteredOperationName::lookup(update, ctx);
    if (!name) {
      return emitError(at) << "importing " << op << " needs " << update;
    }
    OperationState st(at, *name);
    st.addOperands(operands);
    if (op.contains("Momentum") && boolAttr(nd, "use_nesterov")) {
      st.addAttribute("nesterov", builder.getUnitAttr());
    }
    for (unsigned i = 0; i <= slots; ++i) {
      st.addTypes(state[i].getType());
    }
    Operation *upd = builder.create(st);
    created.push_back(upd);
    Attribute set = parseAttr(ctx, at, "#graph<assign_mode set>");
    std::optional<RegisteredOperationName> assignName =
        RegisteredOperationName::lookup("graph.assign_variable", ctx);
    if (!set || !assignName) {
      return failure();
    }
    for (unsigned i = 0; i <= slots; ++i) {
      OperationState as(at, *assignName);
      as.addOperands(upd->getResult(i));
      as.addAttribute("variable", vars[i]);
      as.addAttribute("mode", set);
      created.push_back(builder.create(as));
    }
    if (!op.starts_with("Resource")) {
      result = upd->getResult(0);
    }
  } else {
    return notTranslated(at, op, "TF/Optimizers.cpp");
  }
  recordResults = true;
  return success();
}

} // namespace graphc::import
