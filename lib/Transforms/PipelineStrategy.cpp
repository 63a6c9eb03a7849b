//===- PipelineStrategy.cpp - pipeline stages with GPipe microbatches -----===//
//
// The `pipeline` placement strategy: the entry's ops are cut into
// `pipeline-stages` contiguous ranges of its (topological) order, balanced
// with the graph cost interface while keeping the bytes that cross a cut
// small, and the step runs as GPipe does: the batch is cut into
// `microbatches` slices, each stage runs its ops microbatch after
// microbatch, and the outputs are concatenated on task 0. With `replicas`
// too, each replica runs the stages on its rows (replica-major mesh: stage
// k of replica r on task r*P + k).
//
// A microbatch is a replica in time: which ops keep rows apart, and how
// their shapes shrink, is the replicas strategy's analysis
// (rewriteForBatchSlices), run for replicas x microbatches slices. This
// file then unrolls that one-slice step into explicit per-slice copies on
// explicit tasks, so dist-partition cuts it as any placed function (no new
// placeholders), and the order it writes is the global order that
// docs/design/distribution.md's deadlock argument needs.
//
//===----------------------------------------------------------------------===//

#include "graphc/Transforms/Placement.h"

#include "graph/GraphOps.h"
#include "graph/GraphTypeUtils.h"
#include "graphc/Analysis/DistReport.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/IRMapping.h"

#include <array>
#include <limits>
#include <map>

using namespace mlir;
using namespace graphc;
using namespace graphc::transforms;
using graphc::dist::DeviceAttr;

namespace {

/// How far above the best bottleneck a cut may go to move fewer bytes.
constexpr double kBalanceSlack = 0.05;

/// graph-autodiff's marks (lib/Autodiff/Autodiff.cpp): a differentiated
/// forward op's id, and on each op of its gradient the same id.
constexpr llvm::StringLiteral kForwardIdAttr = "graph.forward_id";
constexpr llvm::StringLiteral kGradOfAttr = "graph.grad_of";

struct PipelinePlacer {
  PipelinePlacer(ModuleOp module, func::FuncOp func,
                 const PlacementOptions &options)
      : module(module), func(func), stages(options.pipelineStages),
        microbatches(options.microbatches > 0 ? options.microbatches
                                              : options.pipelineStages),
        replicas(options.replicas), job(options.defaultTask.getJob()),
        machine(MachineModel::getDefault()) {
    prefix = "dist-place: pipeline-stages=" + std::to_string(stages) +
             " microbatches=" + std::to_string(microbatches);
    if (replicas > 1) {
      prefix += " replicas=" + std::to_string(replicas);
    }
  }

  ModuleOp module;
  func::FuncOp func;
  int64_t stages, microbatches, replicas;
  StringRef job;
  MachineModel machine;
  std::string prefix;

  /// The one-slice step's ops (no terminator), and which of them depend on
  /// the batch (cloned per microbatch) rather than being shared (computed
  /// once per replica: weight reads, constants, what only they feed).
  SmallVector<Operation *> ops;
  llvm::DenseSet<Operation *> batched;
  /// The batched compute ops in order, and of them the forward ones (what
  /// the stage cut divides; all of them in an inference step) and the
  /// backward ones.
  SmallVector<Operation *> units, forwardUnits, backwardUnits;
  /// A forward unit's position in forwardUnits.
  llvm::DenseMap<Operation *, int64_t> unitIndex;
  llvm::DenseMap<Operation *, int64_t> stageOf;
  /// A training step (it has dist.replica_all_reduce): the all-reduces,
  /// where the microbatches' shares are accumulated, and the ops that run
  /// once per step after them (the optimizer, the assignments).
  bool training = false;
  llvm::DenseSet<Operation *> accumulations, tail;

  MLIRContext *ctx() { return module.getContext(); }

  DeviceAttr taskFor(int64_t replica, int64_t stage) {
    return DeviceAttr::get(ctx(), job, std::nullopt, replica * stages + stage,
                           "", std::nullopt);
  }

  /// The op of the entry body that holds `op` (itself, or its ancestor).
  Operation *inBody(Operation *op) {
    return func.getBody().front().findAncestorOpInBlock(*op);
  }

  //===--------------------------------------------------------------------===//
  // What depends on the batch
  //===--------------------------------------------------------------------===//

  LogicalResult classify() {
    Block &body = func.getBody().front();
    for (Operation &op : body.without_terminator()) {
      training |= isa<dist::ReplicaAllReduceOp>(op);
    }
    bool afterAssign = false;
    for (Operation &op : body.without_terminator()) {
      ops.push_back(&op);
      bool dependsOnBatch = isa<dist::ReplicaSplitOp>(op);
      bool dependsOnStep = false;
      for (Value v : getUsedValues(&op)) {
        Operation *def = v.getDefiningOp();
        dependsOnBatch |= def && batched.contains(def);
        dependsOnStep |=
            def && (accumulations.contains(def) || tail.contains(def));
      }
      // A training step's values summed over the batch (a gradient, the
      // mean loss: what the replicas rewrite all-reduces) are the sum of
      // the microbatches' shares: each dist.replica_all_reduce is where the
      // shares are accumulated, and what uses its result (the optimizer)
      // runs once per step, after every microbatch.
      if (isa<dist::ReplicaAllReduceOp>(op)) {
        accumulations.insert(&op);
        continue;
      }
      if (dependsOnStep && dependsOnBatch) {
        return op.emitError()
               << prefix << ": '" << op.getName() << "' at " << op.getLoc()
               << " uses a value summed over the whole batch (after the "
                  "microbatches' shares are accumulated) together with one "
                  "microbatch's rows; the pipeline cannot run it per "
                  "microbatch (place it with replicas=N and no pipeline "
                  "stages)";
      }
      // Assignments, and everything after the first (a weight read again
      // for its update), stay after every microbatch in their order.
      afterAssign |= training && isa<graph::AssignVariableOp>(op);
      if (training && (dependsOnStep || afterAssign) && !dependsOnBatch) {
        tail.insert(&op);
        continue;
      }
      if (!dependsOnBatch) {
        continue;
      }
      batched.insert(&op);
      if (!isa<dist::ReplicaSplitOp, dist::ReplicaConcatOp>(op)) {
        units.push_back(&op);
      }
    }
    // The forward units are what the cut divides; a backward unit (one
    // graph-autodiff built, or one that uses one) runs on its forward op's
    // stage (assignTrainingStages).
    llvm::DenseSet<Operation *> backwardSet;
    for (Operation *op : units) {
      bool backward = training && op->hasAttr(kGradOfAttr);
      for (Value v : getUsedValues(op)) {
        Operation *def = v.getDefiningOp();
        backward |= def && backwardSet.contains(def);
      }
      if (backward) {
        backwardSet.insert(op);
        backwardUnits.push_back(op);
      } else {
        unitIndex[op] = forwardUnits.size();
        forwardUnits.push_back(op);
      }
    }
    if (int64_t(forwardUnits.size()) < stages) {
      return func.emitError()
             << prefix << ": @" << func.getSymName() << " has "
             << forwardUnits.size() << " ops on the batch's path"
             << (training ? " in its forward pass" : "") << ", fewer than "
             << stages << " stages; use fewer stages";
    }
    return success();
  }

  //===--------------------------------------------------------------------===//
  // The stage cut
  //===--------------------------------------------------------------------===//

  double secondsOf(Operation *op) {
    std::optional<OpCost> cost = getOpCost(op);
    // An op of unknown cost (a dynamic shape) counts as free, as in the
    // report.
    return cost ? machine.opSeconds(op->getName().getStringRef(),
                                    double(cost->flops), double(cost->bytes))
                : 0.0;
  }

  /// Per unit: its seconds for one microbatch, plus its share of the shared
  /// ops that first feed it (they run once per step, on its stage).
  SmallVector<double> unitSeconds() {
    SmallVector<double> seconds;
    llvm::DenseMap<int64_t, int64_t> byId;
    for (Operation *op : forwardUnits) {
      if (auto id = op->getAttrOfType<IntegerAttr>(kForwardIdAttr)) {
        byId[id.getInt()] = seconds.size();
      }
      seconds.push_back(secondsOf(op));
    }
    // A backward op runs on its forward op's stage, so it weighs there.
    for (Operation *op : backwardUnits) {
      auto id = op->getAttrOfType<IntegerAttr>(kGradOfAttr);
      if (auto it = id ? byId.find(id.getInt()) : byId.end();
          it != byId.end()) {
        seconds[it->second] += secondsOf(op);
      }
    }
    llvm::DenseMap<Operation *, int64_t> firstUnit;
    for (Operation *op : llvm::reverse(ops)) {
      if (batched.contains(op)) {
        continue;
      }
      int64_t first = std::numeric_limits<int64_t>::max();
      for (Operation *user : op->getUsers()) {
        Operation *u = inBody(user);
        if (auto it = unitIndex.find(u); it != unitIndex.end()) {
          first = std::min(first, it->second);
        } else if (auto it = firstUnit.find(u); it != firstUnit.end()) {
          first = std::min(first, it->second);
        }
      }
      if (first != std::numeric_limits<int64_t>::max()) {
        firstUnit[op] = first;
        seconds[first] += secondsOf(op) / double(microbatches);
      }
    }
    return seconds;
  }

  /// Per boundary j (between unit j-1 and unit j): bytes of one
  /// microbatch's values that cross it.
  SmallVector<int64_t> cutBytes() {
    int64_t n = forwardUnits.size();
    SmallVector<int64_t> delta(n + 1, 0);
    for (auto [i, op] : llvm::enumerate(forwardUnits)) {
      for (Value result : op->getResults()) {
        int64_t last = int64_t(i);
        for (Operation *user : result.getUsers()) {
          auto it = unitIndex.find(inBody(user));
          if (it != unitIndex.end()) {
            last = std::max(last, it->second);
          }
        }
        int64_t bytes =
            graph::getStaticSizeInBytes(result.getType()).value_or(0);
        delta[i + 1] += bytes;
        delta[last + 1] -= bytes;
      }
    }
    SmallVector<int64_t> cut(n + 1, 0);
    for (int64_t j = 1; j <= n; ++j) {
      cut[j] = cut[j - 1] + delta[j];
    }
    return cut;
  }

  /// Cuts the units into `stages` contiguous, non-empty ranges. A stage
  /// costs its units' seconds per microbatch plus the time its link is busy
  /// sending what crosses its end; first the smallest bottleneck, then, among
  /// cuts whose every stage stays within kBalanceSlack of it, the fewest bytes
  /// crossing cuts.
  void cut() {
    int64_t n = forwardUnits.size(), p = stages;
    SmallVector<double> seconds = unitSeconds();
    SmallVector<int64_t> crossing = cutBytes();
    SmallVector<double> prefixSum(n + 1, 0);
    for (int64_t i = 0; i < n; ++i) {
      prefixSum[i + 1] = prefixSum[i] + seconds[i];
    }
    auto stageSeconds = [&](int64_t i, int64_t j) {
      double t = prefixSum[j] - prefixSum[i];
      // A send keeps its stage busy for bytes / bandwidth (the latency is
      // in flight and overlaps the next microbatch), as the report counts.
      return j < n ? t + double(crossing[j]) / machine.linkBytesPerSecond : t;
    };
    const double inf = std::numeric_limits<double>::infinity();
    // best[s][j]: the smallest bottleneck of units [0, j) in s stages.
    std::vector<std::vector<double>> best(p + 1,
                                          std::vector<double>(n + 1, inf));
    best[0][0] = 0;
    for (int64_t s = 1; s <= p; ++s) {
      for (int64_t j = s; j <= n; ++j) {
        for (int64_t i = s - 1; i < j; ++i) {
          if (best[s - 1][i] < inf) {
            best[s][j] = std::min(best[s][j],
                                  std::max(best[s - 1][i], stageSeconds(i, j)));
          }
        }
      }
    }
    double limit = best[p][n] * (1 + kBalanceSlack) + 1e-15;
    const int64_t none = std::numeric_limits<int64_t>::max();
    std::vector<std::vector<int64_t>> bytes(p + 1,
                                            std::vector<int64_t>(n + 1, none));
    std::vector<std::vector<int64_t>> from(p + 1,
                                           std::vector<int64_t>(n + 1, -1));
    bytes[0][0] = 0;
    for (int64_t s = 1; s <= p; ++s) {
      for (int64_t j = s; j <= n; ++j) {
        for (int64_t i = s - 1; i < j; ++i) {
          if (bytes[s - 1][i] == none || stageSeconds(i, j) > limit) {
            continue;
          }
          int64_t total = bytes[s - 1][i] + (j < n ? crossing[j] : 0);
          if (total < bytes[s][j]) {
            bytes[s][j] = total;
            from[s][j] = i;
          }
        }
      }
    }
    for (int64_t s = p, j = n; s > 0; j = from[s][j], --s) {
      for (int64_t u = from[s][j]; u < j; ++u) {
        stageOf[forwardUnits[u]] = s - 1;
      }
    }
    if (training) {
      assignTrainingStages();
    }
    // A shared op runs on the earliest stage that uses it (so before all
    // its users in the stage-major order below); one no stage uses (it
    // feeds only outputs or assignments) on the first.
    for (Operation *op : llvm::reverse(ops)) {
      if (batched.contains(op) || stageOf.contains(op)) {
        continue;
      }
      std::optional<int64_t> stage = firstUserStage(op);
      stageOf[op] = stage ? *stage : 0;
    }
    // A training step assigns each variable where homeVariables() puts it,
    // with its first reader (Adam's beta powers have no reader on the
    // batch's path to place them before this).
    llvm::StringMap<int64_t> home;
    for (Operation *op : training ? ops : ArrayRef<Operation *>()) {
      if (auto read = dyn_cast<graph::ReadVariableOp>(op)) {
        home.try_emplace(read.getVariable(), stageOf.lookup(op));
      } else if (auto assign = dyn_cast<graph::AssignVariableOp>(op)) {
        stageOf[op] = home.try_emplace(assign.getVariable(), stageOf.lookup(op))
                          .first->second;
      }
    }
  }

  /// The earliest stage of the users of `op` that have one.
  std::optional<int64_t> firstUserStage(Operation *op) {
    std::optional<int64_t> stage;
    for (Operation *user : op->getUsers()) {
      auto it = stageOf.find(inBody(user));
      if (it != stageOf.end()) {
        stage = std::min(stage.value_or(it->second), it->second);
      }
    }
    return stage;
  }

  /// Stages of a training step's other ops, once the forward units have
  /// theirs. A backward unit runs on the stage of the forward op whose
  /// gradient rule built it (graph-autodiff's marks), so an activation
  /// crosses a cut backwards only as its gradient. A backward unit with no
  /// usable mark (built by the seed or the sum of a variable's gradients,
  /// or rebuilt by canonicalization) runs on the earliest stage among the
  /// units it uses: gradients only flow towards earlier stages, so it
  /// cannot wait for a later microbatch there (the schedule checks it).
  /// An accumulation runs where its share is computed; a weight's update
  /// and assignment where the weight lives (its first reader's stage).
  void assignTrainingStages() {
    llvm::DenseMap<int64_t, int64_t> stageOfId;
    for (Operation *op : forwardUnits) {
      if (auto id = op->getAttrOfType<IntegerAttr>(kForwardIdAttr)) {
        stageOfId[id.getInt()] = stageOf.lookup(op);
      }
    }
    auto definingStages = [&](Operation *op) {
      SmallVector<int64_t> found;
      for (Value v : getUsedValues(op)) {
        Operation *def = v.getDefiningOp();
        if (def && stageOf.contains(def)) {
          found.push_back(stageOf.lookup(def));
        }
      }
      return found;
    };
    for (Operation *op : backwardUnits) {
      auto id = op->getAttrOfType<IntegerAttr>(kGradOfAttr);
      if (auto it = id ? stageOfId.find(id.getInt()) : stageOfId.end();
          it != stageOfId.end()) {
        stageOf[op] = it->second;
        continue;
      }
      SmallVector<int64_t> used = definingStages(op);
      stageOf[op] = used.empty() ? stages - 1 : *llvm::min_element(used);
    }
    for (Operation *op : accumulations) {
      SmallVector<int64_t> used = definingStages(op);
      stageOf[op] = used.empty() ? 0 : used.front();
    }
    // Shared ops that feed the microbatches: with their first user.
    for (Operation *op : llvm::reverse(ops)) {
      if (batched.contains(op) || tail.contains(op) ||
          accumulations.contains(op)) {
        continue;
      }
      if (std::optional<int64_t> stage = firstUserStage(op)) {
        stageOf[op] = *stage;
      }
    }
    llvm::StringMap<int64_t> home;
    for (Operation *op : ops) {
      if (auto read = dyn_cast<graph::ReadVariableOp>(op);
          read && stageOf.contains(op)) {
        home.try_emplace(read.getVariable(), stageOf.lookup(op));
      }
    }
    for (Operation *op : llvm::reverse(ops)) {
      if (!tail.contains(op)) {
        continue;
      }
      if (auto assign = dyn_cast<graph::AssignVariableOp>(op)) {
        if (auto it = home.find(assign.getVariable()); it != home.end()) {
          stageOf[op] = it->second;
          continue;
        }
      }
      if (std::optional<int64_t> stage = firstUserStage(op)) {
        stageOf[op] = *stage;
        continue;
      }
      SmallVector<int64_t> used = definingStages(op);
      stageOf[op] = used.empty() ? 0 : *llvm::max_element(used);
    }
  }

  //===--------------------------------------------------------------------===//
  // The unrolled step
  //===--------------------------------------------------------------------===//

  /// Homes every variable with its first reader or writer's stage, one copy
  /// per replica (`@w`, `@w_r1`, ... as dist-partition names replicas'
  /// copies). Returns the name replica r uses for each variable.
  SmallVector<llvm::StringMap<std::string>> homeVariables() {
    SmallVector<llvm::StringMap<std::string>> names(replicas);
    llvm::StringMap<int64_t> stageOfVariable;
    for (Operation *op : ops) {
      StringRef variable;
      if (auto read = dyn_cast<graph::ReadVariableOp>(op)) {
        variable = read.getVariable();
      } else if (auto assign = dyn_cast<graph::AssignVariableOp>(op)) {
        variable = assign.getVariable();
      }
      if (!variable.empty()) {
        stageOfVariable.try_emplace(variable, stageOf.lookup(op));
      }
    }
    for (auto var :
         llvm::make_early_inc_range(module.getOps<graph::VariableOp>())) {
      auto it = stageOfVariable.find(var.getSymName());
      if (it == stageOfVariable.end()) {
        setPlacement(var, taskFor(0, 0));
        continue;
      }
      setPlacement(var, taskFor(0, it->second));
      names[0][var.getSymName()] = var.getSymName().str();
      OpBuilder builder(var);
      builder.setInsertionPointAfter(var);
      for (int64_t r = 1; r < replicas; ++r) {
        auto clone = cast<graph::VariableOp>(builder.clone(*var));
        std::string name = (var.getSymName() + "_r" + Twine(r)).str();
        clone.setSymName(name);
        // One model weight under another name, as dist-partition marks
        // the copies of replicated variables (checkpoints keep it once).
        clone->setAttr("graph.replica_of", var.getSymNameAttr());
        setPlacement(clone, taskFor(r, it->second));
        names[r][var.getSymName()] = name;
        builder.setInsertionPointAfter(clone);
      }
    }
    return names;
  }

  using Mapping = std::vector<std::vector<IRMapping>>;
  using EmitFn =
      llvm::function_ref<void(ArrayRef<Operation *>, int64_t, int64_t)>;

  /// Adds replica r's microbatch share `share` of the all-reduced value of
  /// `acc` into `total` (null for the first microbatch) on its stage's task.
  Value accumulate(OpBuilder &b, dist::ReplicaAllReduceOp acc, Value total,
                   Value share, int64_t r, int64_t m) {
    Location loc = acc.getLoc();
    Type type = share.getType();
    DeviceAttr task = taskFor(r, stageOf.lookup(acc));
    Operation *combined = nullptr;
    if (total) {
      switch (acc.getReduction()) {
      case dist::ReductionKind::sum:
      case dist::ReductionKind::mean:
        combined = graph::AddOp::create(b, loc, type, total, share);
        break;
      case dist::ReductionKind::max:
        combined = graph::MaxOp::create(b, loc, type, total, share);
        break;
      case dist::ReductionKind::min:
        combined = graph::MinOp::create(b, loc, type, total, share);
        break;
      case dist::ReductionKind::prod:
        combined = graph::MulOp::create(b, loc, type, total, share);
        break;
      }
      setPlacement(combined, task);
      total = combined->getResult(0);
    } else {
      total = share;
    }
    // Each microbatch's mean is over its rows alone; equal microbatches make
    // the step's mean the mean of theirs (the replicas then average theirs).
    if (m == microbatches - 1 && microbatches > 1 &&
        acc.getReduction() == dist::ReductionKind::mean) {
      auto tensor = cast<RankedTensorType>(type);
      auto element = cast<FloatType>(tensor.getElementType());
      auto scale = graph::ConstantOp::create(
          b, loc,
          DenseElementsAttr::get(RankedTensorType::get({}, element),
                                 b.getFloatAttr(element, 1.0 / microbatches)));
      setPlacement(scale, task);
      auto mean = graph::MulOp::create(b, loc, type, total, scale);
      setPlacement(mean, task);
      total = mean.getResult();
    }
    return total;
  }

  /// A training step's units in 1F1B order, then the once-per-step tail.
  ///
  /// Per stage s of P, its forward units for one microbatch are one group,
  /// its backward units another; the stage's task runs min(P-s-1, M)
  /// forward groups (warm-up), then one forward and one backward group
  /// alternately, then the remaining backward groups. The global order
  /// interleaves the tasks' sequences round by round, taking a task's next
  /// group only once every group it uses a value of is placed, so it is a
  /// topological order whose subsequence on each task is that task's 1F1B
  /// sequence: distribution.md's deadlock argument holds as it is. That the
  /// rounds always make progress is 1F1B's own correctness (a forward group
  /// waits for the previous stage's, which runs ahead of it by one warm-up
  /// group; a backward group waits for the next stage's, which came due one
  /// steady step earlier); a unit that used a value against that flow would
  /// stop it, and is reported.
  ///
  /// Each all-reduce's shares are summed on the stage that computes them
  /// right after each microbatch's group; the tail, in the step's order,
  /// all-reduces the sums across replicas (one dist.group_all_reduce per
  /// stage over its R tasks) and runs the optimizer once.
  LogicalResult emitOneFOneB(OpBuilder &b, Mapping &mapping, EmitFn emit) {
    int64_t P = stages, M = microbatches;
    llvm::DenseSet<Operation *> backward(backwardUnits.begin(),
                                         backwardUnits.end());
    // groups[s][phase]: phase 0 forward, 1 backward.
    std::vector<std::array<SmallVector<Operation *>, 2>> groups(P);
    llvm::DenseMap<Operation *, std::pair<int64_t, int>> groupOf;
    for (Operation *op : units) {
      int phase = backward.contains(op);
      int64_t s = stageOf.lookup(op);
      groups[s][phase].push_back(op);
      groupOf[op] = {s, phase};
    }
    // The groups of the same microbatch each group uses values of.
    std::vector<std::array<SmallVector<std::pair<int64_t, int>>, 2>> deps(P);
    for (Operation *op : units) {
      auto self = groupOf.lookup(op);
      for (Value v : getUsedValues(op)) {
        auto it = groupOf.find(v.getDefiningOp());
        auto &list = deps[self.first][self.second];
        if (it != groupOf.end() && it->second != self &&
            !llvm::is_contained(list, it->second)) {
          list.push_back(it->second);
        }
      }
    }
    std::map<std::pair<int64_t, int>, SmallVector<dist::ReplicaAllReduceOp>>
        accumulateAfter;
    for (Operation *op : ops) {
      if (!accumulations.contains(op)) {
        continue;
      }
      auto it = groupOf.find(op->getOperand(0).getDefiningOp());
      if (it == groupOf.end()) {
        return op->emitError()
               << prefix << ": '" << op->getName() << "' at " << op->getLoc()
               << " combines a value no microbatch computes; the pipeline "
                  "accumulates only shares of the batch";
      }
      accumulateAfter[it->second].push_back(cast<dist::ReplicaAllReduceOp>(op));
    }
    llvm::DenseMap<Operation *, SmallVector<Value>> totals;
    for (Operation *op : accumulations) {
      totals[op].resize(replicas);
    }

    std::vector<SmallVector<std::pair<int, int64_t>>> sequence(P);
    for (int64_t s = 0; s < P; ++s) {
      int64_t warmup = std::min(P - s - 1, M);
      for (int64_t m = 0; m < warmup; ++m) {
        sequence[s].push_back({0, m});
      }
      for (int64_t m = 0; m + warmup < M; ++m) {
        sequence[s].push_back({0, m + warmup});
        sequence[s].push_back({1, m});
      }
      for (int64_t m = M - warmup; m < M; ++m) {
        sequence[s].push_back({1, m});
      }
    }
    // done[r][s][phase] = how many microbatches of the group are placed
    // (they are placed in microbatch order).
    std::vector<std::vector<std::array<int64_t, 2>>> done(
        replicas, std::vector<std::array<int64_t, 2>>(P, {0, 0}));
    std::vector<std::vector<size_t>> next(replicas, std::vector<size_t>(P, 0));
    for (int64_t left = replicas * P * 2 * M; left > 0;) {
      bool progress = false;
      for (int64_t r = 0; r < replicas; ++r) {
        for (int64_t s = 0; s < P; ++s) {
          if (next[r][s] == sequence[s].size()) {
            continue;
          }
          int phase = sequence[s][next[r][s]].first;
          int64_t m = sequence[s][next[r][s]].second;
          if (llvm::any_of(deps[s][phase], [&](std::pair<int64_t, int> d) {
                return done[r][d.first][d.second] <= m;
              })) {
            continue;
          }
          emit(groups[s][phase], r, m);
          for (dist::ReplicaAllReduceOp acc : accumulateAfter[{s, phase}]) {
            Value &total = totals[acc][r];
            total = accumulate(b, acc, total,
                               mapping[r][m].lookup(acc.getInput()), r, m);
          }
          ++done[r][s][phase];
          ++next[r][s];
          --left;
          progress = true;
        }
      }
      if (!progress) {
        return func.emitError()
               << prefix << ": @" << func.getSymName()
               << " has a backward op that uses a gradient of an earlier "
                  "stage, which the 1F1B schedule cannot order (a bug in "
                  "dist-place's stage assignment; please report it with "
                  "this model)";
      }
    }

    for (Operation *op : ops) {
      if (accumulations.contains(op)) {
        auto acc = cast<dist::ReplicaAllReduceOp>(op);
        ArrayRef<Value> sums = totals[op];
        if (replicas == 1) {
          mapping[0][0].map(acc.getResult(), sums[0]);
          continue;
        }
        SmallVector<Attribute> group;
        for (int64_t r = 0; r < replicas; ++r) {
          group.push_back(taskFor(r, stageOf.lookup(op)));
        }
        SmallVector<Type> types(replicas, acc.getType());
        auto reduce = dist::GroupAllReduceOp::create(b, acc.getLoc(), types,
                                                     acc.getReduction(), sums,
                                                     b.getArrayAttr(group));
        setPlacement(reduce, taskFor(0, stageOf.lookup(op)));
        for (int64_t r = 0; r < replicas; ++r) {
          mapping[r][0].map(acc.getResult(), reduce.getResult(r));
        }
      } else if (tail.contains(op)) {
        for (int64_t r = 0; r < replicas; ++r) {
          emit(op, r, 0);
        }
      }
    }
    return success();
  }

  /// Replaces the one-slice step by its copies in the order the tasks run
  /// them: the input slices on task 0; then stage by stage, per replica,
  /// the stage's shared ops once and its batched ops microbatch after
  /// microbatch; then the concatenated outputs on task 0. Every op's
  /// operands come earlier (a stage uses only its own and earlier stages),
  /// so this is a topological order, and each task's ops in it are its
  /// stage's ops microbatch by microbatch: GPipe's forward schedule.
  LogicalResult unroll() {
    Block &body = func.getBody().front();
    auto ret = cast<func::ReturnOp>(body.getTerminator());
    OpBuilder b(ret);
    DeviceAttr first = taskFor(0, 0);
    SmallVector<llvm::StringMap<std::string>> varNames = homeVariables();
    // mapping[r][m]: the values of replica r's microbatch m.
    std::vector<std::vector<IRMapping>> mapping(
        replicas, std::vector<IRMapping>(microbatches));

    for (Operation *op : ops) {
      auto split = dyn_cast<dist::ReplicaSplitOp>(op);
      if (!split) {
        continue;
      }
      auto type = split.getResult().getType();
      int64_t share = type.getDimSize(0);
      for (int64_t j = 0; j < replicas * microbatches; ++j) {
        SmallVector<int64_t> starts(type.getRank(), 0),
            strides(type.getRank(), 1);
        SmallVector<int64_t> limits(type.getShape());
        starts[0] = j * share;
        limits[0] = (j + 1) * share;
        auto slice = graph::SliceOp::create(
            b, split.getLoc(), type, split.getInput(), starts, limits, strides);
        setPlacement(slice, first);
        mapping[j / microbatches][j % microbatches].map(split.getResult(),
                                                        slice.getResult());
      }
    }

    auto renameVariable = [&](Operation *clone, int64_t r) {
      if (auto read = dyn_cast<graph::ReadVariableOp>(clone)) {
        read.setVariable(varNames[r].lookup(read.getVariable()));
      }
      if (auto assign = dyn_cast<graph::AssignVariableOp>(clone)) {
        assign.setVariable(varNames[r].lookup(assign.getVariable()));
      }
    };
    // Clones the ops of `group` for replica r's microbatch m on its stage's
    // task; a shared op (m < 0) once for all its microbatches.
    auto emit = [&](ArrayRef<Operation *> group, int64_t r, int64_t m) {
      for (Operation *op : group) {
        Operation *clone = b.clone(*op, mapping[r][std::max<int64_t>(m, 0)]);
        setPlacement(clone, taskFor(r, stageOf.lookup(op)));
        renameVariable(clone, r);
        for (int64_t k = 1; m < 0 && k < microbatches; ++k) {
          mapping[r][k].map(op->getResults(), clone->getResults());
        }
      }
    };
    for (int64_t s = 0; s < stages; ++s) {
      SmallVector<Operation *> shared, stageUnits;
      for (Operation *op : ops) {
        if (stageOf.lookup(op) != s || tail.contains(op) ||
            accumulations.contains(op)) {
          continue;
        }
        if (!batched.contains(op)) {
          shared.push_back(op);
        } else if (!isa<dist::ReplicaSplitOp, dist::ReplicaConcatOp>(op)) {
          stageUnits.push_back(op);
        }
      }
      for (int64_t r = 0; r < replicas; ++r) {
        emit(shared, r, -1);
        // GPipe: the stage's ops microbatch after microbatch. A training
        // step's units are scheduled below instead.
        for (int64_t m = 0; !training && m < microbatches; ++m) {
          emit(stageUnits, r, m);
        }
      }
    }
    if (training && failed(emitOneFOneB(b, mapping, emit))) {
      return failure();
    }

    IRMapping outputs;
    for (Operation *op : ops) {
      auto concat = dyn_cast<dist::ReplicaConcatOp>(op);
      if (!concat) {
        continue;
      }
      SmallVector<Value> parts;
      for (int64_t j = 0; j < replicas * microbatches; ++j) {
        parts.push_back(mapping[j / microbatches][j % microbatches].lookup(
            concat.getInput()));
      }
      auto joined =
          graph::ConcatOp::create(b, concat.getLoc(), parts, concat.getAxis());
      setPlacement(joined, first);
      outputs.map(concat.getResult(), joined.getResult());
    }
    for (OpOperand &operand : ret->getOpOperands()) {
      Value v = operand.get();
      operand.set(outputs.lookupOrNull(v) ? outputs.lookup(v)
                                          : mapping[0][0].lookupOrDefault(v));
    }

    // The one-slice step is gone: users first.
    for (Operation *op : llvm::reverse(ops)) {
      if (!op->use_empty()) {
        return op->emitError()
               << prefix << ": '" << op->getName()
               << "' is still used after unrolling the microbatches (a bug "
                  "in dist-place; please report it with this model)";
      }
      op->erase();
    }
    func->removeAttr(dist::DistDialect::kReplicasAttrName);
    module->setAttr(
        dist::DistDialect::kPipelineAttrName,
        DictionaryAttr::get(
            ctx(), {NamedAttribute(StringAttr::get(ctx(), "microbatches"),
                                   b.getI64IntegerAttr(microbatches)),
                    NamedAttribute(StringAttr::get(ctx(), "replicas"),
                                   b.getI64IntegerAttr(replicas)),
                    NamedAttribute(StringAttr::get(ctx(), "stages"),
                                   b.getI64IntegerAttr(stages))}));
    return success();
  }

  /// In a training step, each user of a constant gets its own copy, so the
  /// constant is made on its user's stage rather than sent there every step
  /// (the learning rate every stage's updates read).
  void copyConstantsPerUser() {
    bool training = false;
    func.walk([&](dist::ReplicaAllReduceOp) { training = true; });
    if (!training) {
      return;
    }
    for (auto constant : llvm::make_early_inc_range(
             func.getBody().front().getOps<graph::ConstantOp>())) {
      for (OpOperand &use :
           llvm::make_early_inc_range(llvm::drop_begin(constant->getUses()))) {
        OpBuilder b(inBody(use.getOwner()));
        use.set(b.clone(*constant)->getResult(0));
      }
    }
  }

  LogicalResult run() {
    if (failed(rewriteForBatchSlices(module, func, replicas * microbatches, job,
                                     prefix, "microbatches"))) {
      return failure();
    }
    copyConstantsPerUser();
    if (failed(classify())) {
      return failure();
    }
    cut();
    return unroll();
  }
};

class PipelineStrategy : public PlacementStrategy {
public:
  StringRef getName() const override { return "pipeline"; }
  LogicalResult place(ModuleOp module, func::FuncOp entry,
                      const PlacementOptions &options) override {
    return PipelinePlacer(module, entry, options).run();
  }
  /// P stages (2 to the cluster), alone or under R replicas with R*P tasks
  /// at most, with as many microbatches as stages and twice as many (GPipe's
  /// bubble (P-1)/(M+P-1) shrinks with M, each microbatch's fixed costs
  /// grow). Batches that do not divide are refused and listed as such.
  SmallVector<PlacementCandidate>
  getCandidates(int64_t workers) const override {
    SmallVector<PlacementCandidate> candidates;
    for (int64_t p = 2; p <= workers; ++p) {
      for (int64_t r = 1; r * p <= workers; ++r) {
        for (int64_t m : {p, 2 * p}) {
          PlacementCandidate c;
          c.label = "pipeline " +
                    (r > 1 ? "replicas=" + std::to_string(r) + " " : "") +
                    "stages=" + std::to_string(p) +
                    " microbatches=" + std::to_string(m);
          c.options.strategy = "pipeline";
          c.options.replicas = r;
          c.options.pipelineStages = p;
          c.options.microbatches = m;
          candidates.push_back(c);
        }
      }
    }
    return candidates;
  }
};

} // namespace

std::unique_ptr<PlacementStrategy> transforms::createPipelineStrategy() {
  return std::make_unique<PipelineStrategy>();
}
