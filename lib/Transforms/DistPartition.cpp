//===- DistPartition.cpp - one dist.task per task, send/recv on cut edges -===//
//
// TensorFlow's graph partitioner on MLIR: the placed entry function (see
// dist-place) is split into one dist.task per task of the cluster. Ops are
// cloned into the task that runs them in the entry's order, so every task
// body is a subsequence of one global topological order; that, with sends
// that never wait, is why the job cannot deadlock
// (docs/design/distribution.md). Cross-replica placeholders become slices,
// sends, concats and all-reduces; variables are cloned per replica.
//
//===----------------------------------------------------------------------===//

#include "graphc/Transforms/Placement.h"

#include "graph/GraphOps.h"
#include "graphc/Transforms/Passes.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/IRMapping.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/StringSet.h"

namespace graphc {
#define GEN_PASS_DEF_DISTPARTITION
#include "graphc/Transforms/Passes.h.inc"
} // namespace graphc

using namespace mlir;
using namespace graphc;
using namespace graphc::transforms;
using graphc::dist::DeviceAttr;

namespace {

/// Where one copy of an op runs: a task, and the replica it computes for
/// (-1 for an op that is not replicated).
struct Instance {
  DeviceAttr task;
  int64_t replica = -1;
};

/// One task program under construction.
struct TaskProgram {
  DeviceAttr device;
  std::string name;
  SmallVector<unsigned> args;    // entry argument numbers, in order
  SmallVector<unsigned> results; // entry result numbers, in order
  dist::TaskOp op;
  OpBuilder builder;
  explicit TaskProgram(MLIRContext *ctx) : builder(ctx) {}
};

struct Partitioner {
  Partitioner(ModuleOp module, func::FuncOp func, dist::ClusterAttr cluster)
      : module(module), func(func), cluster(cluster) {}

  ModuleOp module;
  func::FuncOp func;
  dist::ClusterAttr cluster;
  int64_t replicas = 1;
  /// The job of the replicated step (`/job:J` placements).
  StringRef replicaJob;
  unsigned numSends = 0;

  std::vector<std::unique_ptr<TaskProgram>> programs;
  llvm::DenseMap<DeviceAttr, TaskProgram *> programOf;

  /// Variables: their home per replica (a single home has one entry).
  llvm::StringMap<SmallVector<std::pair<std::string, DeviceAttr>, 1>> homes;

  /// The value an entry value has in a task, and the op after which sends
  /// of it go there (null: the top of the body).
  llvm::DenseMap<std::pair<Value, DeviceAttr>, Value> available;
  llvm::DenseMap<std::pair<const void *, DeviceAttr>, Operation *> sendPoint;
  /// Where each entry op runs.
  llvm::DenseMap<Operation *, SmallVector<Instance, 1>> instances;
  llvm::DenseMap<BlockArgument, DeviceAttr> argTask;
  llvm::StringMap<Operation *> nodeOps;
  llvm::DenseSet<std::tuple<Operation *, DeviceAttr, DeviceAttr>> tokensSent;
  llvm::StringSet<> keys;
  llvm::DenseMap<Value, std::string> valueNames;
  /// The job-wide names of the entry's inputs and outputs.
  SmallVector<std::string> argNames, resultNames;
  unsigned unnamed = 0;

  MLIRContext *ctx() { return module.getContext(); }

  InFlightDiagnostic error(Operation *op, const Twine &what) {
    return op->emitError() << "dist-partition: " << what;
  }

  TaskProgram &program(DeviceAttr task) { return *programOf.lookup(task); }

  DeviceAttr replicaTask(int64_t r) {
    return DeviceAttr::get(ctx(), replicaJob, std::nullopt, r, "",
                           std::nullopt);
  }

  //===--------------------------------------------------------------------===//
  // Reading the placement
  //===--------------------------------------------------------------------===//

  /// The instances of a placement, checked against the cluster.
  FailureOr<SmallVector<Instance, 1>> instancesOf(Operation *op,
                                                  DeviceAttr device) {
    if (!device) {
      return error(op, "'")
             << op->getName() << "' has no dist.device; run dist-place first";
    }
    if (isReplicatedPlacement(device)) {
      if (replicas <= 1 || device.getJob() != replicaJob) {
        return error(op, "placement '")
               << device.str() << "' names no task, and @" << func.getSymName()
               << " is not replicated on that job (dist.replicas)";
      }
      SmallVector<Instance, 1> all;
      for (int64_t r = 0; r < replicas; ++r) {
        all.push_back({replicaTask(r), r});
      }
      return all;
    }
    DeviceAttr task = device.getTaskAttr();
    if (!device.namesTask() &&
        !(device.getTask() && !device.getJob().empty())) {
      return error(op, "placement '")
             << device.str() << "' does not name a task; run dist-place first";
    }
    if (!programOf.count(task)) {
      return error(op, "placement '")
             << device.str() << "' is not a task of the cluster " << cluster;
    }
    return SmallVector<Instance, 1>{{task, -1}};
  }

  LogicalResult createPrograms() {
    SmallVector<DeviceAttr> tasks = cluster.getTaskAttrs();
    for (DeviceAttr task : tasks) {
      auto program = std::make_unique<TaskProgram>(ctx());
      program->device = task;
      program->name = tasks.size() == 1
                          ? std::string("main")
                          : (task.getJob() + Twine(*task.getTask())).str();
      programOf[task] = program.get();
      programs.push_back(std::move(program));
    }
    if (auto count = dist::getReplicaCount(func)) {
      replicas = *count;
      // The replicated step runs on the job of the op placements that
      // name no task; dist-place uses the default device's job.
      for (Operation &op : func.getBody().front().without_terminator()) {
        if (DeviceAttr d = getPlacement(&op); isReplicatedPlacement(d)) {
          replicaJob = d.getJob();
          break;
        }
      }
      dist::JobAttr job = cluster.getJob(replicaJob);
      if (!replicaJob.empty() && (!job || job.getNumTasks() < replicas)) {
        return func.emitError()
               << "dist-partition: @" << func.getSymName() << " has "
               << replicas << " replicas on job '" << replicaJob
               << "' but the cluster " << cluster << " has "
               << (job ? job.getNumTasks() : 0) << " tasks there";
      }
    }
    return success();
  }

  /// Homes every variable: one copy per replica for a replicated one.
  LogicalResult homeVariables() {
    for (auto var :
         llvm::make_early_inc_range(module.getOps<graph::VariableOp>())) {
      DeviceAttr device = getPlacement(var);
      auto &copies = homes[var.getSymName()];
      if (!device) {
        // Unplaced (a variable no function uses): the first task keeps it.
        device = programs.front()->device;
      }
      FailureOr<SmallVector<Instance, 1>> where = instancesOf(var, device);
      if (failed(where)) {
        return failure();
      }
      OpBuilder builder(var);
      builder.setInsertionPointAfter(var);
      for (const Instance &inst : *where) {
        std::string name = var.getSymName().str();
        if (inst.replica > 0) {
          name += "_r" + std::to_string(inst.replica);
          auto clone = cast<graph::VariableOp>(builder.clone(*var));
          clone.setSymName(name);
          // The copy is one model weight under another name: checkpoints
          // keep it, graph-run --save writes the weight once, as NAME.
          // (task::kReplicaOfAttr; Transforms does not include Conversion.)
          clone->setAttr("graph.replica_of", var.getSymNameAttr());
          setPlacement(clone, inst.task);
          builder.setInsertionPointAfter(clone);
        } else {
          setPlacement(var, inst.task);
        }
        copies.push_back({name, inst.task});
      }
    }
    return success();
  }

  /// The copy of `variable` that `inst` uses: its own replica's copy, the
  /// copy on its task, or the only one.
  std::pair<std::string, DeviceAttr> variableFor(StringRef variable,
                                                 const Instance &inst) {
    auto &copies = homes[variable];
    if (inst.replica >= 0 && inst.replica < int64_t(copies.size()) &&
        copies.size() > 1) {
      return copies[inst.replica];
    }
    for (auto &copy : copies) {
      if (copy.second == inst.task) {
        return copy;
      }
    }
    return copies.front();
  }

  LogicalResult placeOps() {
    Block &body = func.getBody().front();
    for (Operation &op : body.without_terminator()) {
      if (auto reduce = dyn_cast<dist::GroupAllReduceOp>(op)) {
        // One instance per member; each result lives on its member.
        SmallVector<Instance, 1> members;
        for (DeviceAttr d : reduce.getGroup().getAsRange<DeviceAttr>()) {
          if (!programOf.count(d.getTaskAttr())) {
            return error(&op, "group member '")
                   << d.str() << "' is not a task of the cluster " << cluster;
          }
          members.push_back({d.getTaskAttr(), -1});
        }
        instances[&op] = members;
        continue;
      }
      FailureOr<SmallVector<Instance, 1>> where =
          instancesOf(&op, getPlacement(&op));
      if (failed(where)) {
        return failure();
      }
      // Reads and assignments run where the variable lives: a variable is
      // only touched in its home task (a read elsewhere becomes a send).
      StringRef variable;
      if (auto read = dyn_cast<graph::ReadVariableOp>(op)) {
        variable = read.getVariable();
      }
      if (auto assign = dyn_cast<graph::AssignVariableOp>(op)) {
        variable = assign.getVariable();
      }
      if (!variable.empty()) {
        if (!homes.count(variable)) {
          return error(&op, "'") << op.getName() << "' uses @" << variable
                                 << ", which is not a graph.variable";
        }
        SmallVector<Instance, 1> moved;
        for (const Instance &inst : *where) {
          auto [name, home] = variableFor(variable, inst);
          Instance at{home, homes[variable].size() > 1 ? inst.replica : -1};
          if (llvm::none_of(moved, [&](const Instance &m) {
                return m.task == at.task && m.replica == at.replica;
              })) {
            moved.push_back(at);
          }
        }
        *where = moved;
      }
      instances[&op] = *where;
      if (StringRef node = getNodeName(op.getLoc()); !node.empty()) {
        nodeOps.try_emplace(node, &op);
      }
    }
    // Inputs belong to their placement, else to their first user's task.
    for (BlockArgument arg : body.getArguments()) {
      DeviceAttr task = func.getArgAttrOfType<DeviceAttr>(
          arg.getArgNumber(), dist::DistDialect::kDeviceAttrName);
      if (task && isReplicatedPlacement(task)) {
        task = replicaTask(0);
      } else if (task) {
        task = task.getTaskAttr();
      }
      if (!task) {
        for (Operation *user : arg.getUsers()) {
          if (instances.count(user)) {
            task = instances[user].front().task;
            break;
          }
        }
      }
      if (!task) {
        task = programs.front()->device;
      }
      if (!programOf.count(task)) {
        return func.emitError()
               << "dist-partition: input #" << arg.getArgNumber()
               << " is placed on '" << task.str()
               << "', which is not a task of the cluster " << cluster;
      }
      argTask[arg] = task;
      program(task).args.push_back(arg.getArgNumber());
    }
    auto ret = cast<func::ReturnOp>(body.getTerminator());
    for (OpOperand &operand : ret->getOpOperands()) {
      unsigned r = operand.getOperandNumber();
      DeviceAttr task = func.getResultAttrOfType<DeviceAttr>(
          r, dist::DistDialect::kDeviceAttrName);
      if (task && isReplicatedPlacement(task)) {
        task = replicaTask(0);
      } else if (task) {
        task = task.getTaskAttr();
      }
      if (!task) {
        task = sourceTask(operand.get());
      }
      if (!programOf.count(task)) {
        return ret.emitError()
               << "dist-partition: output #" << r << " is placed on '"
               << task.str() << "', which is not a task of the cluster "
               << cluster;
      }
      program(task).results.push_back(r);
    }
    return success();
  }

  /// The task that sends `value` to the tasks that need it: where it is
  /// defined (the first replica for a replicated value, whose copies agree
  /// wherever a single task reads them).
  DeviceAttr sourceTask(Value value) {
    if (auto arg = dyn_cast<BlockArgument>(value)) {
      return argTask.lookup(arg);
    }
    auto result = cast<OpResult>(value);
    if (isa<dist::GroupAllReduceOp>(result.getOwner())) {
      return instances[result.getOwner()][result.getResultNumber()].task;
    }
    return instances[result.getOwner()].front().task;
  }

  //===--------------------------------------------------------------------===//
  // Building the task programs
  //===--------------------------------------------------------------------===//

  /// The name of an entry value for rendezvous keys: its TF node (and output
  /// index), the input's name, or the op's name and a counter.
  std::string nameOf(Value value) {
    auto it = valueNames.find(value);
    if (it != valueNames.end()) {
      return it->second;
    }
    std::string name;
    if (auto arg = dyn_cast<BlockArgument>(value)) {
      name = argNames[arg.getArgNumber()];
    } else {
      Operation *op = value.getDefiningOp();
      name = getNodeName(op->getLoc()).str();
      // An unnamed read is named after what it reads.
      if (auto read = dyn_cast<graph::ReadVariableOp>(op);
          read && name.empty()) {
        name = read.getVariable().str();
      }
      if (name.empty()) {
        name = op->getName().stripDialect().str() + "_" +
               std::to_string(unnamed++);
      }
      unsigned index = cast<OpResult>(value).getResultNumber();
      if (index > 0) {
        name += ":" + std::to_string(index);
      }
    }
    return valueNames[value] = name;
  }

  /// A key no other send, recv or collective of the job uses.
  std::string uniqueKey(const Twine &base) {
    std::string key = base.str();
    for (unsigned n = 1; !keys.insert(key).second; ++n) {
      key = (base + "#" + Twine(n)).str();
    }
    return key;
  }

  std::string edgeKey(const Twine &name, DeviceAttr src, DeviceAttr dst) {
    return uniqueKey(name + "/" + program(src).name + "->" + program(dst).name);
  }

  /// Records `value` as the copy of `entryValue` in `task`, defined by `def`
  /// (null for a task argument), so later sends of it go right after it.
  void define(Value entryValue, DeviceAttr task, Value value, Operation *def) {
    available[{entryValue, task}] = value;
    sendPoint[{entryValue.getAsOpaquePointer(), task}] = def;
  }

  /// Makes `entryValue`'s copy in `task` the same value as `source`'s.
  void alias(Value entryValue, Value source, DeviceAttr task) {
    Value v = materialize(source, task);
    available[{entryValue, task}] = v;
    sendPoint[{entryValue.getAsOpaquePointer(), task}] =
        sendPoint.lookup({source.getAsOpaquePointer(), task});
  }

  /// Inserts `build` right after the last op recorded for `key` in `task`
  /// (the definition or an earlier send of it): in the global order a send
  /// follows its value's definition.
  template <typename Fn>
  Operation *insertAfterDefinition(const void *key, DeviceAttr task, Fn build) {
    TaskProgram &p = program(task);
    OpBuilder::InsertionGuard guard(p.builder);
    Operation *&point = sendPoint[{key, task}];
    Block &block = p.op.getBody().front();
    if (point) {
      p.builder.setInsertionPointAfter(point);
    } else {
      p.builder.setInsertionPointToStart(&block);
    }
    Operation *op = build(p.builder);
    point = op;
    return op;
  }

  /// Sends `value` (the copy in `src` of `entryValue`) to `dst` right after
  /// its definition, receives it at the current end of `dst`.
  Value transfer(Value entryValue, Value value, DeviceAttr src, DeviceAttr dst,
                 const Twine &name) {
    std::string key = edgeKey(name, src, dst);
    Location loc = value.getLoc();
    insertAfterDefinition(
        entryValue.getAsOpaquePointer(), src, [&](OpBuilder &b) {
          return dist::SendOp::create(b, loc, value, dst, key).getOperation();
        });
    ++numSends;
    auto recv = dist::RecvOp::create(program(dst).builder, loc, value.getType(),
                                     src, key);
    return recv.getResult();
  }

  /// The copy of `value` in `task`, received from its source task the first
  /// time a task needs it (once per value and destination task).
  Value materialize(Value value, DeviceAttr task) {
    if (Value local = available.lookup({value, task})) {
      return local;
    }
    DeviceAttr src = sourceTask(value);
    Value there = available.lookup({value, src});
    assert(there && "a value is used before its definition");
    Value received = transfer(value, there, src, task, nameOf(value));
    define(value, task, received, received.getDefiningOp());
    return received;
  }

  /// Control inputs from other tasks become empty tokens: sent after the
  /// predecessor in its task, received before the op in this one.
  void receiveControlTokens(Operation *op, const Instance &inst) {
    auto names = op->getAttrOfType<ArrayAttr>(kControlDepsAttrName);
    if (!names) {
      return;
    }
    for (auto name : names.getAsRange<StringAttr>()) {
      Operation *pred = nodeOps.lookup(name.getValue());
      if (!pred || !instances.count(pred)) {
        continue; // a node the import dropped: nothing to wait for
      }
      for (const Instance &from : instances[pred]) {
        if (from.task == inst.task || (from.replica >= 0 && inst.replica >= 0 &&
                                       from.replica != inst.replica)) {
          continue;
        }
        if (!tokensSent.insert({pred, from.task, inst.task}).second) {
          continue;
        }
        std::string key = edgeKey("^" + name.getValue(), from.task, inst.task);
        auto tokenType = RankedTensorType::get({0}, IntegerType::get(ctx(), 8));
        Location loc = pred->getLoc();
        insertAfterDefinition(pred, from.task, [&](OpBuilder &b) {
          auto token = graph::ConstantOp::create(
              b, loc, tokenType,
              DenseElementsAttr::get(tokenType, ArrayRef<int8_t>{}));
          return dist::SendOp::create(b, loc, token, inst.task, key)
              .getOperation();
        });
        ++numSends;
        dist::RecvOp::create(program(inst.task).builder, loc, tokenType,
                             from.task, key);
      }
    }
  }

  void cloneInstance(Operation &op, const Instance &inst) {
    receiveControlTokens(&op, inst);
    IRMapping mapping;
    for (Value v : getUsedValues(&op)) {
      mapping.map(v, materialize(v, inst.task));
    }
    TaskProgram &p = program(inst.task);
    Operation *clone = p.builder.clone(op, mapping);
    clone->removeAttr(dist::DistDialect::kDeviceAttrName);
    if (auto read = dyn_cast<graph::ReadVariableOp>(clone)) {
      read.setVariable(variableFor(read.getVariable(), inst).first);
    }
    if (auto assign = dyn_cast<graph::AssignVariableOp>(clone)) {
      assign.setVariable(variableFor(assign.getVariable(), inst).first);
    }
    for (auto [orig, copy] : llvm::zip(op.getResults(), clone->getResults())) {
      define(orig, inst.task, copy, clone);
    }
    // A control token of this op is sent after it (no results to hang the
    // send point on).
    sendPoint[{&op, inst.task}] = clone;
  }

  /// replica_split: the owner of the whole value slices it and sends each
  /// other replica its share.
  void splitToReplicas(dist::ReplicaSplitOp split) {
    Value whole = split.getInput();
    DeviceAttr src = sourceTask(whole);
    Value there = materialize(whole, src);
    OpBuilder &b = program(src).builder;
    auto type = split.getResult().getType();
    int64_t axis = split.getAxis();
    int64_t share = type.getDimSize(axis);
    for (int64_t r = 0; r < replicas; ++r) {
      SmallVector<int64_t> starts(type.getRank(), 0),
          strides(type.getRank(), 1);
      SmallVector<int64_t> limits(type.getShape());
      starts[axis] = r * share;
      limits[axis] = (r + 1) * share;
      auto slice = graph::SliceOp::create(b, split.getLoc(), type, there,
                                          starts, limits, strides);
      DeviceAttr dst = replicaTask(r);
      if (dst == src) {
        define(split.getResult(), dst, slice.getResult(), slice);
        continue;
      }
      // Each slice is its own value: sends of it follow it.
      sendPoint[{slice.getOperation(), src}] = slice;
      std::string key = edgeKey(nameOf(whole) + "/r" + Twine(r), src, dst);
      insertAfterDefinition(slice.getOperation(), src, [&](OpBuilder &ib) {
        return dist::SendOp::create(ib, split.getLoc(), slice.getResult(), dst,
                                    key)
            .getOperation();
      });
      ++numSends;
      auto recv = dist::RecvOp::create(program(dst).builder, split.getLoc(),
                                       type, src, key);
      define(split.getResult(), dst, recv.getResult(), recv);
    }
  }

  /// replica_concat: every other replica sends its share to the task that
  /// owns the whole value, which concatenates them in replica order.
  LogicalResult concatFromReplicas(dist::ReplicaConcatOp concat,
                                   const Instance &inst) {
    Value part = concat.getInput();
    if (replicas <= 1 ||
        instances[part.getDefiningOp()].size() != size_t(replicas)) {
      return error(concat, "dist.replica_concat of a value that is not "
                           "computed by every replica");
    }
    SmallVector<Value> parts;
    for (int64_t r = 0; r < replicas; ++r) {
      DeviceAttr src = replicaTask(r);
      Value there = available.lookup({part, src});
      if (src == inst.task) {
        parts.push_back(there);
        continue;
      }
      parts.push_back(transfer(part, there, src, inst.task,
                               nameOf(concat.getResult()) + "/r" + Twine(r)));
    }
    auto joined = graph::ConcatOp::create(
        program(inst.task).builder, concat.getLoc(), parts, concat.getAxis());
    define(concat.getResult(), inst.task, joined.getResult(), joined);
    return success();
  }

  /// replica_all_reduce: one dist.all_reduce over the replicas' tasks.
  void allReduceReplicas(dist::ReplicaAllReduceOp reduce,
                         ArrayRef<Instance> where) {
    if (where.size() <= 1) {
      // One replica: the value is already whole.
      alias(reduce.getResult(), reduce.getInput(), where.front().task);
      return;
    }
    SmallVector<Attribute> group;
    for (const Instance &inst : where) {
      group.push_back(inst.task);
    }
    std::string key = uniqueKey(nameOf(reduce.getResult()) + "/all_reduce");
    for (const Instance &inst : where) {
      Value in = materialize(reduce.getInput(), inst.task);
      auto op = dist::AllReduceOp::create(
          program(inst.task).builder, reduce.getLoc(), in.getType(),
          reduce.getReduction(), in, ArrayAttr::get(ctx(), group), key);
      define(reduce.getResult(), inst.task, op.getResult(), op);
    }
  }

  /// group_all_reduce: member i's input reduced with the others on its task,
  /// every instance at the op's position.
  void allReduceGroup(dist::GroupAllReduceOp reduce, ArrayRef<Instance> where) {
    std::string key = uniqueKey(nameOf(reduce.getResult(0)) + "/all_reduce");
    ArrayAttr group = reduce.getGroup();
    for (auto [i, inst] : llvm::enumerate(where)) {
      Value in = materialize(reduce.getInputs()[i], inst.task);
      auto op = dist::AllReduceOp::create(
          program(inst.task).builder, reduce.getLoc(), in.getType(),
          reduce.getReduction(), in, group, key);
      define(reduce.getResult(i), inst.task, op.getResult(), op);
    }
  }

  LogicalResult build() {
    Block &body = func.getBody().front();
    // Create the programs with their signatures; bodies fill in below.
    nameSignature();
    OpBuilder detached(ctx());
    for (auto &p : programs) {
      SmallVector<Type> inputs, outputs;
      for (unsigned a : p->args) {
        inputs.push_back(func.getArgumentTypes()[a]);
      }
      for (unsigned r : p->results) {
        outputs.push_back(func.getResultTypes()[r]);
      }
      p->op = dist::TaskOp::create(detached, func.getLoc(), p->name, p->device,
                                   FunctionType::get(ctx(), inputs, outputs));
      p->builder.setInsertionPointToEnd(&p->op.getBody().front());
      for (auto [i, a] : llvm::enumerate(p->args)) {
        BlockArgument arg = body.getArgument(a);
        define(arg, p->device, p->op.getBody().front().getArgument(i), nullptr);
      }
      copySignatureAttrs(*p);
      // A dynamic batch's chunk body (graph-dynamic-batch) belongs to the
      // one task; with several, convert-dist-to-runtime refuses the batch.
      if (programs.size() == 1) {
        if (Attribute chunk = func->getAttr("graph.dynamic_batch_chunk")) {
          p->op->setAttr("graph.dynamic_batch_chunk", chunk);
        }
      }
    }

    for (Operation &op : body.without_terminator()) {
      ArrayRef<Instance> where = instances[&op];
      if (auto split = dyn_cast<dist::ReplicaSplitOp>(op)) {
        if (where.size() <= 1) {
          alias(split.getResult(), split.getInput(), where.front().task);
          continue;
        }
        splitToReplicas(split);
        continue;
      }
      if (auto concat = dyn_cast<dist::ReplicaConcatOp>(op)) {
        if (where.size() != 1) {
          return error(&op, "dist.replica_concat must run on one task, not "
                            "be replicated");
        }
        if (failed(concatFromReplicas(concat, where.front()))) {
          return failure();
        }
        continue;
      }
      if (auto reduce = dyn_cast<dist::ReplicaAllReduceOp>(op)) {
        allReduceReplicas(reduce, where);
        continue;
      }
      if (auto reduce = dyn_cast<dist::GroupAllReduceOp>(op)) {
        allReduceGroup(reduce, where);
        continue;
      }
      for (const Instance &inst : where) {
        cloneInstance(op, inst);
      }
    }

    auto ret = cast<func::ReturnOp>(body.getTerminator());
    for (auto &p : programs) {
      SmallVector<Value> values;
      for (unsigned r : p->results) {
        values.push_back(materialize(ret.getOperand(r), p->device));
      }
      dist::ReturnOp::create(p->builder, ret.getLoc(), values);
    }
    return success();
  }

  /// Task arguments and results keep the entry's attributes (graph.name
  /// first of all), without the placement the task op now states.
  void copySignatureAttrs(TaskProgram &p) {
    auto strip = [&](DictionaryAttr dict, StringRef name) {
      NamedAttrList attrs;
      if (dict) {
        attrs.append(dict.getValue());
      }
      attrs.erase(dist::DistDialect::kDeviceAttrName);
      attrs.set(kNameAttrName, StringAttr::get(ctx(), name));
      return attrs;
    };
    for (auto [i, a] : llvm::enumerate(p.args)) {
      p.op.setArgAttrs(i, strip(func.getArgAttrDict(a), argNames[a]));
    }
    for (auto [i, r] : llvm::enumerate(p.results)) {
      p.op.setResultAttrs(i, strip(func.getResultAttrDict(r), resultNames[r]));
    }
  }

  /// Names every input and output uniquely across the job: its graph.name
  /// (for an output, else the importers' graph.output_names entry), else
  /// `inputN` / `outputN`, with `_K` appended to a repeat (as the
  /// single-task bundle names them).
  void nameSignature() {
    llvm::StringSet<> taken;
    auto unique = [&](StringRef base) {
      std::string name = base.str();
      for (int k = 1; !taken.insert(name).second; ++k) {
        name = (base + "_" + Twine(k)).str();
      }
      return name;
    };
    auto outputNames = func->getAttrOfType<ArrayAttr>(kOutputNamesAttrName);
    for (unsigned a = 0; a < func.getNumArguments(); ++a) {
      auto name = func.getArgAttrOfType<StringAttr>(a, kNameAttrName);
      argNames.push_back(unique(name && !name.getValue().empty()
                                    ? name.getValue().str()
                                    : "input" + std::to_string(a)));
    }
    for (unsigned r = 0; r < func.getNumResults(); ++r) {
      auto name = func.getResultAttrOfType<StringAttr>(r, kNameAttrName);
      if (!name && outputNames && r < outputNames.size()) {
        name = dyn_cast<StringAttr>(outputNames[r]);
      }
      resultNames.push_back(unique(name && !name.getValue().empty()
                                       ? name.getValue().str()
                                       : "output" + std::to_string(r)));
    }
  }

  /// Postcondition: each variable is read and assigned only in its home
  /// task (the contract the task lowering relies on).
  LogicalResult checkVariableHomes() {
    llvm::StringMap<DeviceAttr> home;
    for (auto var : module.getOps<graph::VariableOp>()) {
      home[var.getSymName()] = getPlacement(var);
    }
    for (auto &p : programs) {
      WalkResult result = p->op.walk([&](Operation *op) {
        StringRef variable;
        if (auto read = dyn_cast<graph::ReadVariableOp>(op)) {
          variable = read.getVariable();
        } else if (auto assign = dyn_cast<graph::AssignVariableOp>(op)) {
          variable = assign.getVariable();
        }
        if (variable.empty() || home.lookup(variable) == p->device) {
          return WalkResult::advance();
        }
        op->emitError() << "dist-partition: '" << op->getName() << "' of @"
                        << variable << " in task @" << p->name
                        << " but the variable lives in '"
                        << home.lookup(variable).str() << "'";
        return WalkResult::interrupt();
      });
      if (result.wasInterrupted()) {
        return failure();
      }
    }
    return success();
  }

  LogicalResult run() {
    if (failed(createPrograms()) || failed(homeVariables()) ||
        failed(placeOps())) {
      return failure();
    }
    if (failed(build())) {
      // The programs are not in the module yet: destroy them here.
      for (auto &p : programs) {
        if (p->op) {
          p->op->erase();
        }
      }
      return failure();
    }
    Block *moduleBody = module.getBody();
    Block::iterator at = func->getIterator();
    for (auto &p : programs) {
      moduleBody->getOperations().insert(at, p->op);
    }
    func.erase();
    return checkVariableHomes();
  }
};

struct DistPartitionPass
    : public graphc::impl::DistPartitionBase<DistPartitionPass> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    if (isPartitioned(module)) {
      return;
    }
    auto cluster = module->getAttrOfType<dist::ClusterAttr>(
        dist::DistDialect::kClusterAttrName);
    if (!cluster) {
      module.emitError() << "dist-partition: the module has no '"
                         << dist::DistDialect::kClusterAttrName
                         << "'; run dist-place first";
      return signalPassFailure();
    }
    func::FuncOp func = findEntryFunction(module, entry, "dist-partition");
    if (!func) {
      return signalPassFailure();
    }
    Partitioner partitioner(module, func, cluster);
    if (failed(partitioner.run())) {
      return signalPassFailure();
    }
    numSends += partitioner.numSends;
    numTasks += partitioner.programs.size();
  }
};

} // namespace
