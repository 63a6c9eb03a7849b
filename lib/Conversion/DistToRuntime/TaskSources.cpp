//===- TaskSources.cpp - the task programs of a partitioned module --------===//

#include "graphc/Conversion/DistToRuntime/TaskSources.h"

#include "graphc/Conversion/DistToRuntime/TaskAttrs.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"

using namespace mlir;

namespace graphc::task {

FailureOr<SmallVector<TaskSource>> collectTaskSources(ModuleOp module,
                                                      StringRef entry) {
  SmallVector<TaskSource> tasks;
  for (auto op : module.getOps<dist::TaskOp>()) {
    dist::DeviceAttr device = op.getDevice().getTaskAttr();
    tasks.push_back({op, op.getSymName().str(), device.getJob().str(),
                     device.getTask().value_or(0), device,
                     cast<FunctionOpInterface>(op.getOperation())});
  }
  if (!tasks.empty()) {
    return tasks;
  }
  auto entryFn = module.lookupSymbol<func::FuncOp>(entry);
  if (!entryFn || entryFn.isExternal()) {
    return module.emitError()
           << "no dist.task and no entry function '" << entry
           << "' with a body; give the entry with entry=NAME (graphc: "
              "--entry)";
  }
  dist::DeviceSpec spec;
  spec.job = "worker";
  spec.task = 0;
  tasks.push_back({entryFn, "main", "worker", 0,
                   dist::DeviceAttr::get(module.getContext(), spec), entryFn});
  return tasks;
}

FailureOr<SmallVector<SmallVector<graph::VariableOp>>>
variablesByTask(ModuleOp module, ArrayRef<TaskSource> tasks) {
  SmallVector<SmallVector<graph::VariableOp>> own(tasks.size());
  for (graph::VariableOp v : module.getOps<graph::VariableOp>()) {
    dist::DeviceAttr home;
    if (auto device = v->getAttrOfType<dist::DeviceAttr>("dist.device")) {
      home = device.getTaskAttr();
    } else if (tasks.size() == 1) {
      // Without placement there is one task, and the variable is its.
      home = tasks.front().device;
    } else {
      return v.emitError() << "graph.variable @" << v.getSymName()
                           << " has no dist.device, and the module has "
                           << tasks.size()
                           << " tasks; run dist-place to home it on one";
    }
    for (auto [i, t] : llvm::enumerate(tasks)) {
      if (t.device == home) {
        own[i].push_back(v);
      }
    }
  }
  return own;
}

FailureOr<std::pair<RankedTensorType, DictionaryAttr>>
variableSignature(graph::VariableOp v) {
  FailureOr<RankedTensorType> type =
      staticSignatureType(v, v.getType(), "variable", v.getSymName());
  if (failed(type)) {
    return failure();
  }
  ElementsAttr value;
  if (std::optional<ElementsAttr> init = v.getInitialValue()) {
    value = *init;
  }
  return std::make_pair(
      *type, withVariableMarks(
                 tensorEntry(v.getContext(), v.getSymName(), *type, value), v));
}

FailureOr<Block *> singleBlock(const TaskSource &t) {
  FunctionOpInterface fn = t.fn;
  Region &body = fn.getFunctionBody();
  if (!body.hasOneBlock()) {
    return t.op->emitOpError() << "has " << body.getBlocks().size()
                               << " blocks; a task program needs one";
  }
  return &body.front();
}

} // namespace graphc::task
