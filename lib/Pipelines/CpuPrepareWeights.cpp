//===- CpuPrepareWeights.cpp - weight-only work moved to load time --------===//
//
// A task's weights are variables: run-time arguments of graphc_task_run,
// read from the bundle's weights files. Work that depends on nothing but
// read-only variables and constants (the direct convolution kernels' filter
// re-layout, a transposed fully connected weight, a folded scale) is then
// redone on every step although its result never changes. This pass moves
// it into `graphc_task_prepare`, which the runtime calls once after it has
// loaded the variables and again whenever it overwrites them
// (graphrt_task_descriptor_v1_t::prepare), and leaves each result in a
// module global the step reads: ONNX Runtime's PrePack, for any weight-only
// computation the CPU pipeline produced.
//
// A variable is read-only when its memref argument is only read through
// `bufferization.to_tensor` (a training step's updated variables are written
// with `materialize_in_destination` and stay where they are). The pass runs
// on tensors, after tiling and vectorisation (which create the re-layouts)
// and before bufferization. See docs/design/cpu-codegen.md, "Weights
// prepared at load time".
//
//===----------------------------------------------------------------------===//

#include "CpuPasses.h"

#include "graphc/Conversion/DistToRuntime/TaskAttrs.h"

#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Dominance.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Transforms/CSE.h"
#include "mlir/Transforms/RegionUtils.h"

#include "llvm/ADT/STLExtras.h"

namespace graphc {
#define GEN_PASS_DEF_CPUPREPAREWEIGHTS
#include "CpuPasses.h.inc"
} // namespace graphc

using namespace mlir;

namespace graphc {
namespace {

constexpr llvm::StringLiteral kPreparedPrefix = "graphc_prepared_";

/// Ops that only re-type or re-view a tensor: a weight-only value made by
/// nothing else is not worth a global (it costs as much to read as the
/// variable it views).
bool isView(Operation *op) {
  return isa<bufferization::ToTensorOp, tensor::CollapseShapeOp,
             tensor::ExpandShapeOp, tensor::CastOp, tensor::ExtractSliceOp,
             tensor::ReshapeOp, tensor::EmptyOp>(op) ||
         op->hasTrait<OpTrait::ConstantLike>();
}

/// The weight-only part of one run function: ops whose results depend on
/// nothing but read-only variables and constants.
struct WeightSlice {
  /// In block order: the ops the roots need, cloned into the prepare
  /// function.
  SmallVector<Operation *> ops;
  /// Every weight-only op (and constant) of the block.
  llvm::DenseSet<Operation *> members;
  /// Values that ops outside the slice use, each made by work worth doing
  /// once (not only views of a variable).
  SmallVector<Value> roots;
};

WeightSlice findWeightSlice(func::FuncOp fn, unsigned firstVariable,
                            unsigned numVariables) {
  WeightSlice slice;
  Block &body = fn.getFunctionBody().front();
  // Values that depend on a variable and on nothing but variables and
  // constants; `worked`: made by at least one op that is not a view.
  llvm::DenseSet<Value> weightOnly, worked;
  for (unsigned i = 0; i < numVariables; ++i) {
    BlockArgument arg = body.getArgument(firstVariable + i);
    if (!isa<MemRefType>(arg.getType()) ||
        !llvm::all_of(arg.getUsers(), [](Operation *user) {
          return isa<bufferization::ToTensorOp>(user);
        })) {
      continue; // Written by the step, or not a buffer: not read-only.
    }
    for (Operation *user : arg.getUsers()) {
      if (user->getBlock() == &body) {
        slice.members.insert(user);
        weightOnly.insert(user->getResult(0));
      }
    }
  }
  if (weightOnly.empty()) {
    return slice;
  }
  for (Operation &op : body.without_terminator()) {
    if (slice.members.contains(&op)) {
      continue;
    }
    if (op.getNumResults() == 0 || !isMemoryEffectFree(&op) ||
        llvm::any_of(op.getResultTypes(), llvm::IsaPred<BaseMemRefType>)) {
      continue;
    }
    // Every value it reads, in its regions too, is a constant or weight-only.
    llvm::SetVector<Value> used(op.getOperands().begin(),
                                op.getOperands().end());
    getUsedValuesDefinedAbove(op.getRegions(), used);
    bool dependsOnWeight = false, constantOnly = true;
    for (Value v : used) {
      if (weightOnly.contains(v)) {
        dependsOnWeight = true;
        continue;
      }
      Operation *def = v.getDefiningOp();
      if (!def || def->getBlock() != &body || !slice.members.contains(def)) {
        constantOnly = false;
        break;
      }
    }
    if (!constantOnly) {
      continue;
    }
    // Constants (no operands) join the slice so that the prepare function
    // can clone them, but only values that depend on a weight are roots.
    slice.members.insert(&op);
    if (!dependsOnWeight) {
      continue;
    }
    bool work = !isView(&op) ||
                llvm::any_of(used, [&](Value v) { return worked.contains(v); });
    for (Value r : op.getResults()) {
      weightOnly.insert(r);
      if (work) {
        worked.insert(r);
      }
    }
  }
  // Roots: worked, statically shaped tensors read outside the slice.
  for (Operation &op : body.without_terminator()) {
    if (!slice.members.contains(&op)) {
      continue;
    }
    for (Value r : op.getResults()) {
      auto type = dyn_cast<RankedTensorType>(r.getType());
      if (!worked.contains(r) || !type || !type.hasStaticShape()) {
        continue;
      }
      bool usedOutside = llvm::any_of(r.getUses(), [&](OpOperand &use) {
        Operation *owner = body.findAncestorOpInBlock(*use.getOwner());
        return !owner || !slice.members.contains(owner);
      });
      if (usedOutside) {
        slice.roots.push_back(r);
      }
    }
  }
  // The ops the roots need, in block order.
  llvm::DenseSet<Operation *> needed;
  SmallVector<Operation *> worklist;
  for (Value root : slice.roots) {
    worklist.push_back(root.getDefiningOp());
  }
  while (!worklist.empty()) {
    Operation *op = worklist.pop_back_val();
    if (!needed.insert(op).second) {
      continue;
    }
    llvm::SetVector<Value> used(op->getOperands().begin(),
                                op->getOperands().end());
    getUsedValuesDefinedAbove(op->getRegions(), used);
    for (Value v : used) {
      if (Operation *def = v.getDefiningOp();
          def && def->getBlock() == &body && slice.members.contains(def)) {
        worklist.push_back(def);
      }
    }
  }
  for (Operation &op : body.without_terminator()) {
    if (needed.contains(&op)) {
      slice.ops.push_back(&op);
    }
  }
  return slice;
}

struct CpuPrepareWeights
    : public graphc::impl::CpuPrepareWeightsBase<CpuPrepareWeights> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    if (!task::isTaskModule(module)) {
      return;
    }
    FailureOr<task::TaskInfo> info = task::readTask(module);
    if (failed(info)) {
      return signalPassFailure();
    }
    unsigned firstVariable = 2 + info->inputs.size();
    unsigned numVariables = info->variables.size();
    if (numVariables == 0) {
      return;
    }
    if (Operation *taken = module.lookupSymbol(task::kPrepareFunction)) {
      taken->emitOpError() << "uses the name @" << task::kPrepareFunction
                           << ", which the task glue reserves";
      return signalPassFailure();
    }
    SmallVector<func::FuncOp> runs;
    for (StringRef name :
         {task::kRunFunction.data(), task::kRunChunkFunction.data()}) {
      auto fn = module.lookupSymbol<func::FuncOp>(name);
      if (fn && !fn.isExternal() && fn.getFunctionBody().hasOneBlock() &&
          fn.getNumArguments() >= firstVariable + numVariables) {
        runs.push_back(fn);
      }
    }
    SmallVector<std::pair<func::FuncOp, WeightSlice>> slices;
    for (func::FuncOp fn : runs) {
      WeightSlice slice = findWeightSlice(fn, firstVariable, numVariables);
      if (!slice.roots.empty()) {
        slices.emplace_back(fn, std::move(slice));
      }
    }
    if (slices.empty()) {
      return;
    }

    // graphc_task_prepare(ctx, services, variables...) -> status: the same
    // leading arguments as graphc_task_run, so the glue builds both calls
    // alike.
    MLIRContext *ctx = &getContext();
    func::FuncOp first = slices.front().first;
    SmallVector<Type> argTypes(first.getArgumentTypes().take_front(2));
    llvm::append_range(
        argTypes, first.getArgumentTypes().slice(firstVariable, numVariables));
    Type ptrTy = LLVM::LLVMPointerType::get(ctx);
    OpBuilder b(ctx);
    b.setInsertionPointAfter(first);
    Location loc = first.getLoc();
    auto prepare = func::FuncOp::create(
        b, loc, task::kPrepareFunction,
        FunctionType::get(ctx, argTypes, TypeRange{ptrTy}));
    Block *entry = prepare.addEntryBlock();
    SymbolTable symbols(module);
    // Stores into the globals, one per root: checked for duplicates (a
    // dynamic batch's chunk body prepares the same values) after CSE.
    SmallVector<
        std::pair<bufferization::MaterializeInDestinationOp, memref::GlobalOp>>
        stores;
    int counter = 0;
    SmallVector<Value> variableTensors(numVariables);
    for (auto &item : slices) {
      func::FuncOp fn = item.first;
      WeightSlice &slice = item.second;
      IRMapping map;
      Block &body = fn.getFunctionBody().front();
      map.map(body.getArgument(0), entry->getArgument(0));
      map.map(body.getArgument(1), entry->getArgument(1));
      for (unsigned i = 0; i < numVariables; ++i) {
        map.map(body.getArgument(firstVariable + i), entry->getArgument(2 + i));
      }
      b.setInsertionPointToEnd(entry);
      for (Operation *op : slice.ops) {
        // Every function's reads of a variable are one tensor here, so that
        // CSE can tell their identical work apart from different work.
        auto read = dyn_cast<bufferization::ToTensorOp>(op);
        auto arg = read ? dyn_cast<BlockArgument>(read.getBuffer()) : nullptr;
        if (arg && arg.getOwner() == &body) {
          Value &shared = variableTensors[arg.getArgNumber() - firstVariable];
          if (!shared) {
            shared = b.clone(*op, map)->getResult(0);
          }
          map.map(read.getResult(), shared);
          continue;
        }
        b.clone(*op, map);
      }
      for (Value root : slice.roots) {
        auto type = cast<RankedTensorType>(root.getType());
        auto memrefType =
            MemRefType::get(type.getShape(), type.getElementType());
        OpBuilder::InsertionGuard guard(b);
        b.setInsertionPoint(prepare);
        auto global = memref::GlobalOp::create(
            b, root.getLoc(), kPreparedPrefix.str() + std::to_string(counter++),
            b.getStringAttr("private"), memrefType, b.getUnitAttr(),
            /*constant=*/false, b.getI64IntegerAttr(64));
        symbols.insert(global);
        b.setInsertionPointToEnd(entry);
        Value dest = memref::GetGlobalOp::create(b, root.getLoc(), memrefType,
                                                 global.getSymName());
        auto store = bufferization::MaterializeInDestinationOp::create(
            b, root.getLoc(), map.lookup(root), dest);
        store.setRestrict(true);
        store.setWritable(true);
        stores.emplace_back(store, global);
        // The step reads the global instead.
        b.setInsertionPointToStart(&body);
        Value read = memref::GetGlobalOp::create(b, root.getLoc(), memrefType,
                                                 global.getSymName());
        Value tensor = bufferization::ToTensorOp::create(
            b, root.getLoc(), type, read, /*restrict=*/true,
            /*writable=*/false);
        root.replaceUsesWithIf(tensor, [&](OpOperand &use) {
          Operation *owner = body.findAncestorOpInBlock(*use.getOwner());
          return !owner || !slice.members.contains(owner);
        });
      }
      // The slice's ops now feed nothing outside it: drop them from the step.
      for (Operation *op : llvm::reverse(slice.ops)) {
        if (op->use_empty()) {
          op->erase();
        }
      }
    }
    b.setInsertionPointToEnd(entry);
    func::ReturnOp::create(
        b, loc, ValueRange{LLVM::ZeroOp::create(b, loc, ptrTy).getResult()});

    // Identical work (the chunk body's copy of the run function's) becomes
    // one value; its second store and global go.
    IRRewriter rewriter(ctx);
    DominanceInfo dominance(prepare);
    eliminateCommonSubExpressions(rewriter, dominance, prepare);
    llvm::DenseMap<Value, memref::GlobalOp> storedTo;
    for (auto &[store, global] : stores) {
      auto [it, inserted] = storedTo.try_emplace(store.getSource(), global);
      if (inserted) {
        continue;
      }
      if (failed(SymbolTable::replaceAllSymbolUses(
              global.getSymNameAttr(), it->second.getSymNameAttr(), module))) {
        return signalPassFailure();
      }
      Operation *dest = store.getDest().getDefiningOp();
      store.erase();
      if (dest && dest->use_empty()) {
        dest->erase();
      }
      global.erase();
    }
  }
};

} // namespace
} // namespace graphc
