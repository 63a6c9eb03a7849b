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

#include <limits>

using namespace mlir;
using namespace graphc;
using namespace graphc::transforms;
using graphc::dist::DeviceAttr;

namespace {

/// How far above the best bottleneck a cut may go to move fewer bytes.
constexpr double kBalanceSlack = 0.05;

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
  /// The batched compute ops in order: what the stage cut divides.
  SmallVector<Operation *> units;
  llvm::DenseMap<Operation *, int64_t> unitIndex;
  llvm::DenseMap<Operation *, int64_t> stageOf;

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
      ops.push_back(&op);
      // The pipeline runs inference steps: a value summed over the batch
      // (a gradient, a mean loss) would need the microbatches' shares
      // accumulated, which GPipe's backward schedule does and this does not.
      if (isa<dist::ReplicaAllReduceOp>(op)) {
        return op.emitError()
               << prefix << ": '" << op.getName() << "' at " << op.getLoc()
               << " combines a value summed over the batch (a gradient or a "
                  "loss); the pipeline runs inference steps only, so place a "
                  "training step with replicas=N";
      }
      bool dependsOnBatch = isa<dist::ReplicaSplitOp>(op);
      for (Value v : getUsedValues(&op)) {
        Operation *def = v.getDefiningOp();
        dependsOnBatch |= def && batched.contains(def);
      }
      if (!dependsOnBatch) {
        continue;
      }
      batched.insert(&op);
      if (!isa<dist::ReplicaSplitOp, dist::ReplicaConcatOp>(op)) {
        unitIndex[&op] = units.size();
        units.push_back(&op);
      }
    }
    if (int64_t(units.size()) < stages) {
      return func.emitError()
             << prefix << ": @" << func.getSymName() << " has " << units.size()
             << " ops on the batch's path, fewer than " << stages
             << " stages; use fewer stages";
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
    for (Operation *op : units) {
      seconds.push_back(secondsOf(op));
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
    int64_t n = units.size();
    SmallVector<int64_t> delta(n + 1, 0);
    for (auto [i, op] : llvm::enumerate(units)) {
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
    int64_t n = units.size(), p = stages;
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
        stageOf[units[u]] = s - 1;
      }
    }
    // A shared op runs on the earliest stage that uses it (so before all
    // its users in the stage-major order below); one no stage uses (it
    // feeds only outputs or assignments) on the first.
    for (Operation *op : llvm::reverse(ops)) {
      if (batched.contains(op)) {
        continue;
      }
      int64_t stage = none;
      for (Operation *user : op->getUsers()) {
        auto it = stageOf.find(inBody(user));
        if (it != stageOf.end()) {
          stage = std::min(stage, it->second);
        }
      }
      stageOf[op] = stage == none ? 0 : stage;
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
    for (int64_t s = 0; s < stages; ++s) {
      for (int64_t r = 0; r < replicas; ++r) {
        DeviceAttr task = taskFor(r, s);
        for (Operation *op : ops) {
          if (batched.contains(op) || stageOf.lookup(op) != s) {
            continue;
          }
          Operation *clone = b.clone(*op, mapping[r][0]);
          setPlacement(clone, task);
          renameVariable(clone, r);
          for (int64_t m = 1; m < microbatches; ++m) {
            mapping[r][m].map(op->getResults(), clone->getResults());
          }
        }
        for (int64_t m = 0; m < microbatches; ++m) {
          for (Operation *op : units) {
            if (stageOf.lookup(op) != s) {
              continue;
            }
            Operation *clone = b.clone(*op, mapping[r][m]);
            setPlacement(clone, task);
            renameVariable(clone, r);
          }
        }
      }
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

  LogicalResult run() {
    if (failed(rewriteForBatchSlices(module, func, replicas * microbatches, job,
                                     prefix, "microbatches")) ||
        failed(classify())) {
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
