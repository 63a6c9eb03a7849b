//===- GraphToStableHLO.cpp - dist.task -> StableHLO task module ----------===//
//
// The TPU target's task lowering (docs/design/stablehlo.md): each task
// program becomes a module with `@main` over StableHLO, its signature as the
// graphrt.* attributes the bundle writer reads, and its communication as
// StableHLO's channels and collectives.
//
//===----------------------------------------------------------------------===//

#include "graphc/Conversion/DistToRuntime/TaskAttrs.h"
#include "graphc/Conversion/DistToRuntime/TaskSources.h"
#include "graphc/Conversion/Passes.h"

#include "OpLowering.h"

#include "dist/DistOps.h"
#include "graph/GraphOps.h"
#include "stablehlo/StablehloOps.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/IRMapping.h"

#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/StringMap.h"

namespace graphc {
#define GEN_PASS_DEF_CONVERTGRAPHTOSTABLEHLO
#include "graphc/Conversion/Passes.h.inc"
} // namespace graphc

using namespace mlir;
namespace shlo = graphc::stablehlo;

namespace graphc {
namespace {

using task::TaskSource;

/// What the module-wide walk decided before any task is outlined.
struct JobInfo {
  /// Rendezvous and collective keys -> channel ids, from 1, in the order the
  /// keys first appear (both ends of a channel see the same id).
  llvm::StringMap<int64_t> channelIds;
  /// Task device -> (name, position in the module's task order).
  llvm::DenseMap<Attribute, std::pair<std::string, int64_t>> tasks;
};

/// How an SPMD replica's communication with task 0 is rewired.
struct SpmdRewiring {
  /// The replica's recv from task 0 becomes an input (named by the key's
  /// value prefix), its send to task 0 an output.
  bool active = false;
  dist::DeviceAttr leader;
  /// Outputs of the leader that are all-reduce results (a training step's
  /// loss): every replica holds them, so the replica returns them too, by
  /// collective key -> the leader's output name.
  llvm::StringMap<std::string> reducedOutputs;
  /// Outputs of the leader computed from an all-reduce result by a chain of
  /// graph ops whose other operands are constants (a loss that
  /// dist-fuse-collectives put in the gradient bucket: slice, divide by the
  /// group's size, reshape). Each replica computes the same chain (unused
  /// there), whose end it returns.
  struct Chain {
    std::string key;
    /// From the op next to the all-reduce out to the output.
    SmallVector<Operation *> ops;
    std::string name;
  };
  SmallVector<Chain> reducedChains;
};

/// The ops from an all-reduce's result out to `v`, each with one operand
/// that is not a graph.constant, and the all-reduce; nullopt when `v` is
/// not computed that way.
std::optional<std::pair<dist::AllReduceOp, SmallVector<Operation *>>>
chainFromAllReduce(Value v) {
  SmallVector<Operation *> ops;
  for (int depth = 0; depth < 8; ++depth) {
    Operation *def = v.getDefiningOp();
    if (!def) {
      return std::nullopt;
    }
    if (auto reduce = dyn_cast<dist::AllReduceOp>(def)) {
      if (ops.empty()) {
        return std::nullopt;
      }
      std::reverse(ops.begin(), ops.end());
      return std::make_pair(reduce, ops);
    }
    if (!isa<graph::GraphDialect>(def->getDialect()) ||
        def->getNumResults() != 1 || def->getNumRegions() != 0) {
      return std::nullopt;
    }
    Value next;
    for (Value operand : def->getOperands()) {
      if (operand.getDefiningOp<graph::ConstantOp>()) {
        continue;
      }
      if (next) {
        return std::nullopt;
      }
      next = operand;
    }
    if (!next) {
      return std::nullopt;
    }
    ops.push_back(def);
    v = next;
  }
  return std::nullopt;
}

/// Whether `op` (a replica's) computes what `like` (the leader's) does:
/// the same op and attributes, `from` where `like` reads its chain operand
/// and equal constants elsewhere.
bool sameChainStep(Operation *op, Operation *like, Value from, Value likeFrom) {
  if (op->getName() != like->getName() ||
      op->getAttrDictionary() != like->getAttrDictionary() ||
      op->getNumOperands() != like->getNumOperands() ||
      op->getResultTypes() != like->getResultTypes()) {
    return false;
  }
  for (auto [a, b] : llvm::zip(op->getOperands(), like->getOperands())) {
    if (b == likeFrom) {
      if (a != from) {
        return false;
      }
      continue;
    }
    auto ca = a.getDefiningOp<graph::ConstantOp>();
    auto cb = b.getDefiningOp<graph::ConstantOp>();
    if (!ca || !cb || ca.getValue() != cb.getValue()) {
      return false;
    }
  }
  return true;
}

/// `name/r1/worker0->worker1` -> `name`: the value a replica key carries.
std::string keyValueName(StringRef key) {
  size_t r = key.rfind("/r");
  return (r == StringRef::npos ? key : key.take_front(r)).str();
}

struct ConvertGraphToStableHLOPass
    : impl::ConvertGraphToStableHLOBase<ConvertGraphToStableHLOPass> {
  using ConvertGraphToStableHLOBase::ConvertGraphToStableHLOBase;

  // A module without dist ops still gets a task device (a #dist.device), so
  // the dist dialect must be loaded before the pass runs. Kept here rather
  // than in Passes.td's dependentDialects: Passes.h is included by every
  // conversion, and this is the only pass that needs it beyond its own.
  void getDependentDialects(DialectRegistry &registry) const override {
    ConvertGraphToStableHLOBase::getDependentDialects(registry);
    registry.insert<dist::DistDialect>();
  }

  void runOnOperation() override {
    ModuleOp module = getOperation();
    FailureOr<SmallVector<TaskSource>> sources =
        task::collectTaskSources(module, entry);
    if (failed(sources)) {
      return signalPassFailure();
    }
    SmallVector<TaskSource> &tasks = *sources;

    JobInfo job;
    for (auto [i, t] : llvm::enumerate(tasks)) {
      job.tasks[t.device] = {t.name, static_cast<int64_t>(i)};
    }
    module.walk([&](Operation *op) {
      StringAttr key;
      if (auto s = dyn_cast<dist::SendOp>(op)) {
        key = s.getKeyAttr();
      } else if (auto r = dyn_cast<dist::RecvOp>(op)) {
        key = r.getKeyAttr();
      } else if (auto a = dyn_cast<dist::AllReduceOp>(op)) {
        key = a.getKeyAttr();
      }
      if (key) {
        job.channelIds.try_emplace(key.getValue(), job.channelIds.size() + 1);
      }
    });

    SmallVector<graph::VariableOp> variables(
        module.getOps<graph::VariableOp>());
    FailureOr<SmallVector<SmallVector<graph::VariableOp>>> owned =
        task::variablesByTask(module, tasks);
    if (failed(owned)) {
      return signalPassFailure();
    }

    if (spmd && tasks.size() > 1) {
      // One program for all replicas: the last replica's, which holds no
      // leader's work (splitting the batch, gathering the outputs).
      if (failed(checkReplicas(tasks))) {
        return signalPassFailure();
      }
      TaskSource &t = tasks.back();
      SpmdRewiring rewiring{true, tasks.front().device, {}, {}};
      FunctionOpInterface leader = tasks.front().fn;
      auto leaderNames =
          tasks.front().op->getAttrOfType<ArrayAttr>("graph.output_names");
      Operation *ret = leader.getFunctionBody().front().getTerminator();
      for (auto [i, v] : llvm::enumerate(ret->getOperands())) {
        auto reduce = v.getDefiningOp<dist::AllReduceOp>();
        auto chain = reduce ? std::nullopt : chainFromAllReduce(v);
        if (!reduce && !chain) {
          continue;
        }
        StringAttr given =
            leader.getResultAttrOfType<StringAttr>(i, "graph.name");
        if (!given && leaderNames && i < leaderNames.size()) {
          given = dyn_cast<StringAttr>(leaderNames[i]);
        }
        std::string name =
            given ? given.getValue().str() : "output" + std::to_string(i);
        if (reduce) {
          rewiring.reducedOutputs[reduce.getKey()] = name;
        } else {
          rewiring.reducedChains.push_back(
              {chain->first.getKey().str(), chain->second, name});
        }
      }
      if (failed(outline(t, owned->back(), job, rewiring, tasks.size()))) {
        return signalPassFailure();
      }
    } else {
      for (auto [t, own] : llvm::zip(tasks, *owned)) {
        if (failed(outline(t, own, job, {}, 0))) {
          return signalPassFailure();
        }
      }
    }
    for (TaskSource &t : tasks) {
      t.op->erase();
    }
    for (graph::VariableOp v : variables) {
      v.erase();
    }
  }

  /// An SPMD job is N worker tasks where every task but the first talks
  /// only to the first (its batch slice in, its results out) and in
  /// all-reduces over all N.
  LogicalResult checkReplicas(ArrayRef<TaskSource> tasks) {
    dist::DeviceAttr leader = tasks.front().device;
    for (const TaskSource &t : tasks.drop_front()) {
      WalkResult r = t.op->walk([&](Operation *op) {
        dist::DeviceAttr peer;
        if (auto s = dyn_cast<dist::SendOp>(op)) {
          peer = s.getPeer().getTaskAttr();
        } else if (auto rv = dyn_cast<dist::RecvOp>(op)) {
          peer = rv.getPeer().getTaskAttr();
        } else if (auto a = dyn_cast<dist::AllReduceOp>(op)) {
          if (a.getGroup().size() != tasks.size()) {
            op->emitOpError() << "reduces over " << a.getGroup().size()
                              << " of the job's " << tasks.size()
                              << " tasks; an SPMD module needs all-replica "
                                 "all-reduces (drop spmd for a module per "
                                 "task)";
            return WalkResult::interrupt();
          }
          return WalkResult::advance();
        } else if (isa_and_nonnull<dist::DistDialect>(op->getDialect()) &&
                   !isa<dist::TaskOp, dist::ReturnOp>(op)) {
          op->emitOpError() << "in task '" << t.name
                            << "' has no SPMD form; drop spmd for a module "
                               "per task";
          return WalkResult::interrupt();
        }
        if (peer && peer != leader) {
          op->emitOpError() << "in task '" << t.name << "' talks to " << peer
                            << ", not to the leader " << leader
                            << "; this job is not one of identical replicas "
                               "(drop spmd for a module per task)";
          return WalkResult::interrupt();
        }
        return WalkResult::advance();
      });
      if (r.wasInterrupted()) {
        return failure();
      }
    }
    return success();
  }

  LogicalResult outline(TaskSource &t, ArrayRef<graph::VariableOp> own,
                        const JobInfo &job, const SpmdRewiring &rewiring,
                        int64_t numReplicas) {
    MLIRContext *ctx = &getContext();
    Location loc = t.op->getLoc();
    FunctionOpInterface fn = t.fn;
    FailureOr<Block *> only = task::singleBlock(t);
    if (failed(only)) {
      return failure();
    }
    Block &block = **only;
    llvm::StringSet<> names;
    OpBuilder b(t.op);

    // --- The signature -----------------------------------------------------
    // Inputs: the program's arguments, then (SPMD) each recv from the
    // leader, which is the replica's own shard.
    SmallVector<Attribute> inputs, outputs, vars;
    SmallVector<Type> argTypes;
    SmallVector<std::string> argNames;
    auto addInput = [&](StringAttr given, StringRef fallback,
                        Type type) -> LogicalResult {
      std::string name =
          task::uniqueName(given, fallback, names, /*isOutput=*/false);
      FailureOr<RankedTensorType> ranked =
          task::staticSignatureType(t.op, type, "input", name);
      if (failed(ranked)) {
        return failure();
      }
      argTypes.push_back(*ranked);
      argNames.push_back(name);
      inputs.push_back(task::tensorEntry(ctx, name, *ranked));
      return success();
    };
    for (unsigned i = 0; i < fn.getNumArguments(); ++i) {
      if (failed(addInput(fn.getArgAttrOfType<StringAttr>(i, "graph.name"),
                          "input" + std::to_string(i),
                          fn.getArgumentTypes()[i]))) {
        return failure();
      }
    }
    llvm::DenseMap<Operation *, unsigned> shardArg;
    if (rewiring.active) {
      for (auto recv : block.getOps<dist::RecvOp>()) {
        shardArg[recv] = argTypes.size();
        if (failed(addInput(b.getStringAttr(keyValueName(recv.getKey())), "",
                            recv.getType()))) {
          return failure();
        }
      }
    }
    unsigned firstVar = argTypes.size();
    llvm::StringMap<unsigned> varIndex;
    SmallVector<RankedTensorType> varTypes;
    for (graph::VariableOp v : own) {
      auto signature = task::variableSignature(v);
      if (failed(signature)) {
        return failure();
      }
      varIndex[v.getSymName()] = varTypes.size();
      varTypes.push_back(signature->first);
      vars.push_back(signature->second);
      argTypes.push_back(signature->first);
      // A replica's copy is known by the variable it copies.
      auto of = v->getAttrOfType<StringAttr>(task::kReplicaOfAttr);
      argNames.push_back(rewiring.active && of ? of.getValue().str()
                                               : v.getSymName().str());
    }

    // --- The task module ---------------------------------------------------
    std::string moduleName = rewiring.active ? "replica" : t.name;
    auto taskModule = ModuleOp::create(loc, moduleName);
    b.insert(taskModule);
    taskModule->setAttr(
        task::kTaskAttr,
        b.getDictionaryAttr(
            {b.getNamedAttr("job", b.getStringAttr(t.job)),
             b.getNamedAttr("index",
                            b.getI64IntegerAttr(rewiring.active ? 0 : t.index)),
             b.getNamedAttr("device", b.getStringAttr(t.device.str() +
                                                      "/device:TPU:0"))}));
    if (rewiring.active) {
      taskModule->setAttr("mhlo.num_replicas",
                          b.getI32IntegerAttr(numReplicas));
      taskModule->setAttr("mhlo.num_partitions", b.getI32IntegerAttr(1));
    }
    b.setInsertionPointToStart(taskModule.getBody());
    auto main =
        func::FuncOp::create(b, loc, "main", b.getFunctionType(argTypes, {}));
    Block *entryBlock = main.addEntryBlock();
    for (auto [i, name] : llvm::enumerate(argNames)) {
      main.setArgAttr(i, "graphc.name", b.getStringAttr(name));
    }
    b.setInsertionPointToStart(entryBlock);

    IRMapping mapping;
    for (unsigned i = 0; i < fn.getNumArguments(); ++i) {
      mapping.map(block.getArgument(i), entryBlock->getArgument(i));
    }
    SmallVector<Value> initial, current;
    for (unsigned i = 0; i < varTypes.size(); ++i) {
      initial.push_back(entryBlock->getArgument(firstVar + i));
      current.push_back(initial.back());
    }

    Value token;
    auto nextToken = [&]() {
      if (!token) {
        token = shlo::AfterAllOp::create(b, loc, shlo::TokenType::get(ctx),
                                         ValueRange{});
      }
      return token;
    };
    auto channel = [&](StringRef key) {
      return shlo::ChannelHandleAttr::get(ctx, job.channelIds.lookup(key),
                                          /*DEVICE_TO_DEVICE=*/1);
    };
    SmallVector<Attribute> channelRecords;
    auto recordChannel = [&](StringRef key) {
      channelRecords.push_back(b.getDictionaryAttr(
          {b.getNamedAttr("key", b.getStringAttr(key)),
           b.getNamedAttr("handle",
                          b.getI64IntegerAttr(job.channelIds.lookup(key)))}));
    };
    auto taskName = [&](dist::DeviceAttr d) {
      auto it = job.tasks.find(d.getTaskAttr());
      return it == job.tasks.end() ? d.str() : it->second.first;
    };
    auto castTo = [&](Value v, Type type) -> Value {
      // Only static shapes reach here: equal shapes, maybe a refined type.
      return v.getType() == type
                 ? v
                 : shlo::ReshapeOp::create(b, loc, type, v).getResult();
    };

    SmallVector<Attribute> runtimeChannels;
    SmallVector<Value> results;
    SmallVector<std::string> resultNames;
    auto outputNames = t.op->getAttrOfType<ArrayAttr>("graph.output_names");
    for (Operation &op : block) {
      if (op.hasTrait<OpTrait::IsTerminator>()) {
        for (auto [i, v] : llvm::enumerate(op.getOperands())) {
          StringAttr given =
              fn.getResultAttrOfType<StringAttr>(i, "graph.name");
          if (!given && outputNames && i < outputNames.size()) {
            given = dyn_cast<StringAttr>(outputNames[i]);
          }
          results.push_back(mapping.lookup(v));
          resultNames.push_back(task::uniqueName(
              given, "output" + std::to_string(i), names, /*isOutput=*/true));
        }
        continue;
      }
      if (auto read = dyn_cast<graph::ReadVariableOp>(op)) {
        auto it = varIndex.find(read.getVariable());
        if (it == varIndex.end()) {
          return read.emitOpError()
                 << "in task '" << t.name << "' reads variable @"
                 << read.getVariable()
                 << ", which lives on another task; a task reads only its "
                    "own variables";
        }
        mapping.map(read.getResult(),
                    castTo(current[it->second], read.getType()));
        continue;
      }
      if (auto assign = dyn_cast<graph::AssignVariableOp>(op)) {
        auto it = varIndex.find(assign.getVariable());
        if (it == varIndex.end()) {
          return assign.emitOpError()
                 << "in task '" << t.name << "' assigns variable @"
                 << assign.getVariable() << ", which lives on another task";
        }
        unsigned i = it->second;
        Value value = castTo(mapping.lookup(assign.getValue()), varTypes[i]);
        switch (assign.getMode()) {
        case graph::AssignMode::set:
          break;
        case graph::AssignMode::add:
          value = shlo::AddOp::create(b, loc, varTypes[i], current[i], value);
          break;
        case graph::AssignMode::sub:
          value =
              shlo::SubtractOp::create(b, loc, varTypes[i], current[i], value);
          break;
        }
        current[i] = value;
        continue;
      }
      if (auto send = dyn_cast<dist::SendOp>(op)) {
        if (rewiring.active) {
          // The replica's share of an output: returned, not sent.
          results.push_back(mapping.lookup(send.getInput()));
          resultNames.push_back(task::uniqueName(
              b.getStringAttr(keyValueName(send.getKey())), "", names,
              /*isOutput=*/true));
          continue;
        }
        recordChannel(send.getKey());
        runtimeChannels.push_back(channelEntry(send.getKey(),
                                               taskName(send.getPeer()), true,
                                               send.getInput().getType()));
        token = shlo::SendOp::create(
            b, send.getLoc(), shlo::TokenType::get(ctx),
            ValueRange{mapping.lookup(send.getInput())}, nextToken(),
            channel(send.getKey()), b.getBoolAttr(false));
        continue;
      }
      if (auto recv = dyn_cast<dist::RecvOp>(op)) {
        if (rewiring.active) {
          mapping.map(recv.getResult(),
                      entryBlock->getArgument(shardArg.lookup(recv)));
          continue;
        }
        recordChannel(recv.getKey());
        runtimeChannels.push_back(channelEntry(
            recv.getKey(), taskName(recv.getPeer()), false, recv.getType()));
        auto r = shlo::RecvOp::create(
            b, recv.getLoc(),
            TypeRange{recv.getType(), shlo::TokenType::get(ctx)}, nextToken(),
            channel(recv.getKey()), b.getBoolAttr(false));
        token = r.getResult(1);
        mapping.map(recv.getResult(), r.getResult(0));
        continue;
      }
      if (auto reduce = dyn_cast<dist::AllReduceOp>(op)) {
        FailureOr<Value> v =
            allReduce(b, reduce, mapping.lookup(reduce.getInput()), job, t.name,
                      rewiring.active);
        if (failed(v)) {
          return failure();
        }
        recordChannel(reduce.getKey());
        mapping.map(reduce.getResult(), *v);
        auto reduced = rewiring.reducedOutputs.find(reduce.getKey());
        if (rewiring.active && reduced != rewiring.reducedOutputs.end()) {
          results.push_back(*v);
          resultNames.push_back(
              task::uniqueName(b.getStringAttr(reduced->second), "", names,
                               /*isOutput=*/true));
        }
        continue;
      }
      if (!isa_and_nonnull<graph::GraphDialect>(op.getDialect()) ||
          op.getNumRegions() != 0) {
        return op.emitError()
               << "graph-to-stablehlo: cannot lower '" << op.getName()
               << "' in task '" << t.name
               << "': the TPU target lowers graph ops, send/recv and "
                  "all_reduce (docs/design/stablehlo.md)";
      }
      SmallVector<Value> operands;
      for (Value v : op.getOperands()) {
        operands.push_back(mapping.lookup(v));
      }
      FailureOr<SmallVector<Value>> lowered =
          tostablehlo::lowerGraphOp(b, &op, operands, t.name);
      if (failed(lowered)) {
        return failure();
      }
      mapping.map(op.getResults(), *lowered);
    }

    // The leader's outputs computed from all-reduce results: the replica's
    // own copy of the computation.
    for (const SpmdRewiring::Chain &chain : rewiring.reducedChains) {
      Value from;
      for (Operation &op : block) {
        auto reduce = dyn_cast<dist::AllReduceOp>(op);
        if (reduce && reduce.getKey() == chain.key) {
          from = reduce.getResult();
        }
      }
      Value likeFrom = chain.ops.front()->getOperand(0);
      for (Value operand : chain.ops.front()->getOperands()) {
        if (!operand.getDefiningOp<graph::ConstantOp>()) {
          likeFrom = operand;
        }
      }
      for (Operation *like : chain.ops) {
        Operation *step = nullptr;
        if (from) {
          for (Operation *user : from.getUsers()) {
            if (sameChainStep(user, like, from, likeFrom)) {
              step = user;
              break;
            }
          }
        }
        if (!step) {
          return t.op->emitError()
                 << "graph-to-stablehlo: task '" << t.name
                 << "' does not compute the leader's output '" << chain.name
                 << "' from all-reduce '" << chain.key
                 << "' as the leader does; an SPMD module needs every "
                    "replica to hold it";
        }
        from = step->getResult(0);
        likeFrom = like->getResult(0);
      }
      results.push_back(mapping.lookup(from));
      resultNames.push_back(task::uniqueName(b.getStringAttr(chain.name), "",
                                             names, /*isOutput=*/true));
    }

    // Outputs, then the variables this step changed.
    for (auto [i, v] : llvm::enumerate(results)) {
      FailureOr<RankedTensorType> type = task::staticSignatureType(
          t.op, v.getType(), "output", resultNames[i]);
      if (failed(type)) {
        return failure();
      }
      outputs.push_back(task::tensorEntry(ctx, resultNames[i], *type));
    }
    unsigned numOutputs = results.size();
    for (unsigned i = 0; i < varTypes.size(); ++i) {
      if (current[i] != initial[i]) {
        results.push_back(current[i]);
        resultNames.push_back(argNames[firstVar + i]);
      }
    }
    func::ReturnOp::create(b, loc, results);
    main.setFunctionType(
        b.getFunctionType(argTypes, ValueRange(results).getTypes()));
    for (auto [i, name] : llvm::enumerate(resultNames)) {
      main.setResultAttr(i, "graphc.name", b.getStringAttr(name));
      if (i >= numOutputs) {
        main.setResultAttr(i, "graphc.updates", b.getStringAttr(name));
      }
    }

    taskModule->setAttr(task::kInputsAttr, b.getArrayAttr(inputs));
    taskModule->setAttr(task::kOutputsAttr, b.getArrayAttr(outputs));
    taskModule->setAttr(task::kVariablesAttr, b.getArrayAttr(vars));
    taskModule->setAttr(task::kChannelsAttr, b.getArrayAttr(runtimeChannels));
    taskModule->setAttr(task::kGroupsAttr, b.getArrayAttr({}));
    taskModule->setAttr("graphc.channels", b.getArrayAttr(channelRecords));
    return success();
  }

  DictionaryAttr channelEntry(StringRef key, StringRef peer, bool send,
                              Type type) {
    MLIRContext *ctx = &getContext();
    Builder b(ctx);
    NamedAttrList fields(
        task::tensorEntry(ctx, "", cast<RankedTensorType>(type)));
    fields.erase("name");
    fields.set("key", b.getStringAttr(key));
    fields.set("peer", b.getStringAttr(peer));
    fields.set("direction", b.getStringAttr(send ? "send" : "recv"));
    return fields.getDictionary(ctx);
  }

  /// `dist.all_reduce` as `stablehlo.all_reduce` over the group's task
  /// positions (SPMD: replica ids, the same numbers); a mean is a sum
  /// divided by the group size.
  FailureOr<Value> allReduce(OpBuilder &b, dist::AllReduceOp reduce, Value in,
                             const JobInfo &job, StringRef taskName,
                             bool spmd) {
    Location loc = reduce.getLoc();
    SmallVector<int64_t> members;
    for (auto d : reduce.getGroup().getAsRange<dist::DeviceAttr>()) {
      auto it = job.tasks.find(d.getTaskAttr());
      if (it == job.tasks.end()) {
        return reduce.emitOpError()
               << "in task '" << taskName << "' names group member " << d
               << ", which is not a task of the job";
      }
      members.push_back(it->second.second);
    }
    tostablehlo::Combiner c;
    switch (reduce.getReduction()) {
    case dist::ReductionKind::sum:
    case dist::ReductionKind::mean:
      c = tostablehlo::Combiner::Add;
      break;
    case dist::ReductionKind::max:
      c = tostablehlo::Combiner::Max;
      break;
    case dist::ReductionKind::min:
      c = tostablehlo::Combiner::Min;
      break;
    case dist::ReductionKind::prod:
      c = tostablehlo::Combiner::Mul;
      break;
    }
    auto groups = DenseIntElementsAttr::get(
        RankedTensorType::get({1, static_cast<int64_t>(members.size())},
                              b.getI64Type()),
        members);
    auto handle = shlo::ChannelHandleAttr::get(
        b.getContext(), job.channelIds.lookup(reduce.getKey()), 1);
    auto op = shlo::AllReduceOp::create(b, loc, TypeRange{in.getType()},
                                        ValueRange{in}, groups, handle,
                                        /*use_global_device_ids=*/false);
    auto type = cast<RankedTensorType>(in.getType());
    tostablehlo::buildReducerBody(b, loc, op.getComputation(),
                                  type.getElementType(), c);
    Value result = op.getResult(0);
    if (reduce.getReduction() == dist::ReductionKind::mean) {
      Value n = tostablehlo::broadcastTo(
          b, loc,
          tostablehlo::scalarConstant(b, loc, type.getElementType(),
                                      members.size()),
          type.getShape());
      result = shlo::DivOp::create(b, loc, type, result, n);
    }
    (void)spmd;
    return result;
  }
};

} // namespace
} // namespace graphc
