//===- DistToRuntime.cpp - dist.task -> task module calling graphrt -------===//
//
// The first step of task lowering (docs/design/distribution.md, "Task
// lowering"): every task program becomes its own module with the function
// the runtime's step calls and the task's signature as attributes, so that
// each task is then lowered by the same CPU pipeline, nested, and becomes its
// own shared object.
//
//===----------------------------------------------------------------------===//

#include "Communication.h"
#include "graphc/Conversion/DistToRuntime/TaskAttrs.h"
#include "graphc/Conversion/DistToRuntime/TaskSources.h"
#include "graphc/Conversion/Passes.h"

#include "dist/DistOps.h"
#include "graph/GraphOps.h"

#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/IRMapping.h"

#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/StringSet.h"

namespace graphc {
#define GEN_PASS_DEF_CONVERTDISTTORUNTIME
#include "graphc/Conversion/Passes.h.inc"
} // namespace graphc

using namespace mlir;

namespace graphc {
namespace {

using task::TaskSource;

MemRefType memrefOf(RankedTensorType t) {
  return MemRefType::get(t.getShape(), t.getElementType());
}

struct ConvertDistToRuntimePass
    : impl::ConvertDistToRuntimeBase<ConvertDistToRuntimePass> {
  using ConvertDistToRuntimeBase::ConvertDistToRuntimeBase;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    if (module.lookupSymbol(task::kRunFunction)) {
      module.emitError() << "symbol '" << task::kRunFunction
                         << "' is reserved for the task entry";
      return signalPassFailure();
    }

    FailureOr<SmallVector<TaskSource>> sources =
        task::collectTaskSources(module, entry);
    if (failed(sources)) {
      return signalPassFailure();
    }
    SmallVector<TaskSource> &tasks = *sources;
    // The entry function is the task, not a helper.
    auto entryFn = dyn_cast<func::FuncOp>(tasks.front().op);

    // Peers and group members are named by their task's symbol.
    TaskNames taskNames;
    for (TaskSource &t : tasks) {
      taskNames[t.device] = t.name;
    }

    // Variables by home task, in module order.
    SmallVector<graph::VariableOp> variables(
        module.getOps<graph::VariableOp>());
    llvm::StringMap<graph::VariableOp> variableByName;
    for (graph::VariableOp v : variables) {
      variableByName[v.getSymName()] = v;
    }
    FailureOr<SmallVector<SmallVector<graph::VariableOp>>> owned =
        task::variablesByTask(module, tasks);
    if (failed(owned)) {
      return signalPassFailure();
    }

    // A dynamic batch's chunk body becomes a second run function of its
    // task, not a helper.
    llvm::DenseSet<StringRef> chunkBodies;
    for (TaskSource &t : tasks) {
      if (auto chunk = t.op->getAttrOfType<DictionaryAttr>(
              task::kDynamicBatchChunkAttr)) {
        if (auto body = chunk.getAs<FlatSymbolRefAttr>("func")) {
          chunkBodies.insert(body.getValue());
        }
      }
    }
    // The functions task bodies may call are copied into each task module.
    SmallVector<func::FuncOp> helpers, chunks;
    for (auto f : module.getOps<func::FuncOp>()) {
      if (chunkBodies.contains(f.getSymName())) {
        chunks.push_back(f);
      } else if (f != entryFn) {
        helpers.push_back(f);
      }
    }

    llvm::StringSet<> names;
    for (auto [t, own] : llvm::zip(tasks, *owned)) {
      if (failed(outline(t, own, variableByName, helpers, names, taskNames))) {
        return signalPassFailure();
      }
    }
    for (TaskSource &t : tasks) {
      t.op->erase();
    }
    for (func::FuncOp f : llvm::concat<func::FuncOp>(helpers, chunks)) {
      f.erase();
    }
    for (graph::VariableOp v : variables) {
      v.erase();
    }
  }

  LogicalResult outline(TaskSource &t, ArrayRef<graph::VariableOp> own,
                        const llvm::StringMap<graph::VariableOp> &allVars,
                        ArrayRef<func::FuncOp> helpers,
                        llvm::StringSet<> &names, const TaskNames &taskNames) {
    MLIRContext *ctx = &getContext();
    Location loc = t.op->getLoc();
    FunctionOpInterface fn = t.fn;
    FailureOr<Block *> only = task::singleBlock(t);
    if (failed(only)) {
      return failure();
    }
    Block &block = **only;

    // --- The signature ----------------------------------------------------
    SmallVector<Attribute> inputs, outputs, vars;
    SmallVector<RankedTensorType> inputTypes, outputTypes, varTypes;
    for (unsigned i = 0; i < fn.getNumArguments(); ++i) {
      std::string name = task::uniqueName(
          fn.getArgAttrOfType<StringAttr>(i, "graph.name"),
          "input" + std::to_string(i), names, /*isOutput=*/false);
      FailureOr<RankedTensorType> type = task::staticSignatureType(
          t.op, fn.getArgumentTypes()[i], "input", name);
      if (failed(type)) {
        return failure();
      }
      inputTypes.push_back(*type);
      bool batched = fn.getArgAttr(i, task::kDynamicBatchAttr) != nullptr;
      if (batched && taskNames.size() != 1) {
        return t.op->emitError()
               << "input '" << name << "' has a dynamic batch, which a job of "
               << taskNames.size()
               << " tasks cannot split; give the batch with "
               << "--input-shape " << name << ":NxD...";
      }
      inputs.push_back(task::tensorEntry(ctx, name, *type, {}, batched));
    }
    // Output names: a result's graph.name, else the importers' list.
    auto outputNames = t.op->getAttrOfType<ArrayAttr>("graph.output_names");
    for (unsigned i = 0; i < fn.getNumResults(); ++i) {
      StringAttr given = fn.getResultAttrOfType<StringAttr>(i, "graph.name");
      if (!given && outputNames && i < outputNames.size()) {
        given = dyn_cast<StringAttr>(outputNames[i]);
      }
      std::string name =
          task::uniqueName(given, "output" + std::to_string(i), names,
                           /*isOutput=*/true);
      FailureOr<RankedTensorType> type = task::staticSignatureType(
          t.op, fn.getResultTypes()[i], "output", name);
      if (failed(type)) {
        return failure();
      }
      outputTypes.push_back(*type);
      outputs.push_back(task::tensorEntry(
          ctx, name, *type, {},
          fn.getResultAttr(i, task::kDynamicBatchAttr) != nullptr));
    }
    llvm::StringMap<unsigned> varIndex;
    for (graph::VariableOp v : own) {
      auto signature = task::variableSignature(v);
      if (failed(signature)) {
        return failure();
      }
      varIndex[v.getSymName()] = varTypes.size();
      varTypes.push_back(signature->first);
      vars.push_back(signature->second);
    }

    // --- The task module ----------------------------------------------------
    OpBuilder b(t.op);
    auto taskModule = ModuleOp::create(loc, t.name);
    b.insert(taskModule);
    taskModule->setAttr(
        task::kTaskAttr,
        b.getDictionaryAttr(
            {b.getNamedAttr("job", b.getStringAttr(t.job)),
             b.getNamedAttr("index", b.getI64IntegerAttr(t.index)),
             b.getNamedAttr("device", b.getStringAttr(t.device.str() +
                                                      "/device:CPU:0"))}));
    taskModule->setAttr(task::kInputsAttr, b.getArrayAttr(inputs));
    taskModule->setAttr(task::kOutputsAttr, b.getArrayAttr(outputs));
    taskModule->setAttr(task::kVariablesAttr, b.getArrayAttr(vars));
    b.setInsertionPointToStart(taskModule.getBody());
    for (func::FuncOp f : helpers) {
      auto copy = cast<func::FuncOp>(b.clone(*f));
      // Only graphc_task_run is an entry; unused copies are dropped later.
      if (!copy.isExternal()) {
        copy.setPrivate();
      }
    }

    b.setInsertionPointToEnd(taskModule.getBody());
    if (failed(buildRun(b, t, task::kRunFunction, block, inputTypes, varTypes,
                        outputTypes, varIndex, allVars, taskNames))) {
      return failure();
    }
    auto chunk =
        t.op->getAttrOfType<DictionaryAttr>(task::kDynamicBatchChunkAttr);
    if (!chunk) {
      return success();
    }
    // The chunk body: the same signature, its batched tensors holding
    // `size` samples (graph-dynamic-batch made them static).
    auto bodyRef = chunk.getAs<FlatSymbolRefAttr>("func");
    auto size = chunk.getAs<IntegerAttr>("size");
    auto chunkFn = bodyRef ? getOperation().lookupSymbol<func::FuncOp>(bodyRef)
                           : func::FuncOp();
    if (!chunkFn || chunkFn.isExternal() || !size ||
        chunkFn.getNumArguments() != inputTypes.size() ||
        chunkFn.getNumResults() != outputTypes.size() ||
        !chunkFn.getFunctionBody().hasOneBlock()) {
      return t.op->emitOpError()
             << "has " << task::kDynamicBatchChunkAttr << " = " << chunk
             << ", which does not name a one-block function with the task's "
                "inputs and outputs; rerun graph-dynamic-batch";
    }
    SmallVector<RankedTensorType> chunkInputs, chunkOutputs;
    auto chunkType = [&](Type type, RankedTensorType one, bool batched,
                         SmallVector<RankedTensorType> &into) -> LogicalResult {
      auto ranked = dyn_cast<RankedTensorType>(type);
      if (!ranked || !ranked.hasStaticShape() ||
          ranked.getRank() != one.getRank() ||
          (batched && ranked.getDimSize(0) != size.getInt())) {
        return t.op->emitOpError()
               << "chunk body @" << chunkFn.getSymName() << " has " << type
               << " where the one-sample body has " << one << " ("
               << size.getInt() << " samples expected in dimension 0)";
      }
      into.push_back(ranked);
      return success();
    };
    for (unsigned i = 0; i < inputTypes.size(); ++i) {
      if (failed(chunkType(chunkFn.getArgumentTypes()[i], inputTypes[i],
                           fn.getArgAttr(i, task::kDynamicBatchAttr) != nullptr,
                           chunkInputs))) {
        return failure();
      }
    }
    for (unsigned i = 0; i < outputTypes.size(); ++i) {
      if (failed(
              chunkType(chunkFn.getResultTypes()[i], outputTypes[i],
                        fn.getResultAttr(i, task::kDynamicBatchAttr) != nullptr,
                        chunkOutputs))) {
        return failure();
      }
    }
    taskModule->setAttr(task::kBatchChunkAttr, size);
    b.setInsertionPointToEnd(taskModule.getBody());
    return buildRun(b, t, task::kRunChunkFunction,
                    chunkFn.getFunctionBody().front(), chunkInputs, varTypes,
                    chunkOutputs, varIndex, allVars, taskNames);
  }

  /// `name`(ctx, services, inputs..., variables..., outputs...) at the
  /// insertion point: `block` over memrefs, variables read and assigned
  /// through their buffers, returning the step's status.
  LogicalResult buildRun(OpBuilder &b, TaskSource &t, StringRef name,
                         Block &block, ArrayRef<RankedTensorType> inputTypes,
                         ArrayRef<RankedTensorType> varTypes,
                         ArrayRef<RankedTensorType> outputTypes,
                         const llvm::StringMap<unsigned> &varIndex,
                         const llvm::StringMap<graph::VariableOp> &allVars,
                         const TaskNames &taskNames) {
    MLIRContext *ctx = &getContext();
    Location loc = t.op->getLoc();
    // graphc_task_run(ctx, services, inputs..., variables..., outputs...)
    auto ptr = LLVM::LLVMPointerType::get(ctx);
    SmallVector<Type> argTypes = {ptr, ptr};
    for (ArrayRef<RankedTensorType> types :
         {ArrayRef(inputTypes), ArrayRef(varTypes), ArrayRef(outputTypes)}) {
      for (RankedTensorType type : types) {
        argTypes.push_back(memrefOf(type));
      }
    }
    SmallVector<Type> resultTypes = {ptr}; // the step's status
    auto run = func::FuncOp::create(b, loc, name,
                                    b.getFunctionType(argTypes, resultTypes));
    Block *entry = run.addEntryBlock();
    b.setInsertionPointToStart(entry);
    unsigned firstVar = 2 + inputTypes.size();
    unsigned firstOut = firstVar + varTypes.size();

    IRMapping mapping;
    for (unsigned i = 0; i < inputTypes.size(); ++i) {
      mapping.map(block.getArgument(i),
                  bufferization::ToTensorOp::create(
                      b, loc, inputTypes[i], entry->getArgument(2 + i),
                      /*restrict=*/true, /*writable=*/false));
    }
    // The value each variable holds at this point of the step.
    SmallVector<Value> initial, current;
    for (unsigned i = 0; i < varTypes.size(); ++i) {
      initial.push_back(bufferization::ToTensorOp::create(
          b, loc, varTypes[i], entry->getArgument(firstVar + i),
          /*restrict=*/true, /*writable=*/false));
      current.push_back(initial.back());
    }

    auto variableOf = [&](Operation *op,
                          FlatSymbolRefAttr ref) -> FailureOr<unsigned> {
      auto it = varIndex.find(ref.getValue());
      if (it != varIndex.end()) {
        return it->second;
      }
      auto home = allVars.find(ref.getValue());
      std::string where = "another task";
      if (home != allVars.end()) {
        if (auto d =
                home->second->getAttrOfType<dist::DeviceAttr>("dist.device")) {
          where = "task " + d.getTaskAttr().str();
        }
      }
      return op->emitOpError()
             << "in task '" << t.name << "' uses variable " << ref
             << ", which lives on " << where
             << "; a task reads and assigns only its own variables (another "
                "task receives the value with dist.recv)";
    };

    SmallVector<Value> results;
    for (Operation &op : block) {
      if (op.hasTrait<OpTrait::IsTerminator>()) {
        for (Value v : op.getOperands()) {
          results.push_back(mapping.lookupOrDefault(v));
        }
        continue;
      }
      if (auto read = dyn_cast<graph::ReadVariableOp>(op)) {
        FailureOr<unsigned> i = variableOf(read, read.getVariableAttr());
        if (failed(i)) {
          return failure();
        }
        Value value = current[*i];
        if (value.getType() != read.getType()) {
          value = tensor::CastOp::create(b, loc, read.getType(), value);
        }
        mapping.map(read.getResult(), value);
        continue;
      }
      if (auto assign = dyn_cast<graph::AssignVariableOp>(op)) {
        FailureOr<unsigned> i = variableOf(assign, assign.getVariableAttr());
        if (failed(i)) {
          return failure();
        }
        Value value = mapping.lookupOrDefault(assign.getValue());
        if (value.getType() != varTypes[*i]) {
          value =
              tensor::CastOp::create(b, assign.getLoc(), varTypes[*i], value);
        }
        switch (assign.getMode()) {
        case graph::AssignMode::set:
          break;
        case graph::AssignMode::add:
          value = graph::AddOp::create(b, assign.getLoc(), varTypes[*i],
                                       current[*i], value);
          break;
        case graph::AssignMode::sub:
          value = graph::SubOp::create(b, assign.getLoc(), varTypes[*i],
                                       current[*i], value);
          break;
        }
        current[*i] = value;
        continue;
      }
      // Variable accesses in nested regions would need the current value
      // threaded through the region; the importers produce none.
      WalkResult nested = op.walk([&](Operation *inner) {
        if (inner != &op &&
            isa<graph::ReadVariableOp, graph::AssignVariableOp>(inner)) {
          inner->emitOpError()
              << "inside a region of '" << op.getName()
              << "' is not supported by task lowering; read the variable "
                 "before the region and assign it after";
          return WalkResult::interrupt();
        }
        return WalkResult::advance();
      });
      if (nested.wasInterrupted()) {
        return failure();
      }
      b.clone(op, mapping);
    }

    // Outputs first: they may hold a variable's old value, which the updates
    // below overwrite.
    for (auto [i, v] : llvm::enumerate(results)) {
      Value value = v;
      if (value.getType() != outputTypes[i]) {
        value = tensor::CastOp::create(b, loc, outputTypes[i], value);
      }
      bufferization::MaterializeInDestinationOp::create(
          b, loc, Type(), value, entry->getArgument(firstOut + i),
          /*restrict=*/true, /*writable=*/true);
    }
    for (unsigned i = 0; i < varTypes.size(); ++i) {
      if (current[i] == initial[i]) {
        continue;
      }
      // A copy rather than materialize_in_destination: the variable's buffer
      // is also read through `initial`, so it is not `restrict`.
      Value buffer =
          readOnlyBuffer(b, loc, current[i], "variable:" + std::to_string(i));
      memref::CopyOp::create(b, loc, buffer, entry->getArgument(firstVar + i));
    }
    Value ok = LLVM::ZeroOp::create(b, loc, ptr);
    func::ReturnOp::create(b, loc, ok);
    return lowerCommunication(run, t.name, taskNames);
  }
};

} // namespace
} // namespace graphc
