//===- ScalingSimulation.cpp - data-parallel step time for many replicas --===//
//
// graphc --simulate-replicas: the step of R data-parallel replicas predicted
// from one replica's step, without building the R-task job. The pieces are
// the ones the report charges a built job with (DistReport.h): op costs on
// the machine model, task 0 slicing and sending the input rows, the fused
// all-reduces with the runtime's ring algorithm over R members, and the
// outputs coming back to task 0. For R = 2 and 4 this is the report's
// estimate of the built job up to the order in which task 0 interleaves its
// own compute with its sends. --simulate-strategy does the same for
// replicas of a pipeline or tensor-parallel program, whose one replica the
// report estimates on a clone.
//
//===----------------------------------------------------------------------===//

#include "graphc/Analysis/Planning.h"

#include "dist/DistOps.h"
#include "graph/GraphOps.h"
#include "graph/GraphTypeUtils.h"

#include "llvm/ADT/TypeSwitch.h"
#include "llvm/Support/FormatVariadic.h"

#include <cmath>

using namespace mlir;
using namespace graphc;
using namespace graphc::transforms;
using graphc::dist::DeviceAttr;

namespace {

/// One replica's step as the replicas rewrite makes it for R replicas.
struct ReplicaStep {
  /// Compute of the replicated step (what every replica runs).
  double computeSeconds = 0;
  /// Per batched input: bytes of the global input and of one replica's
  /// rows; per batched output the same.
  SmallVector<std::pair<int64_t, int64_t>> inputs, outputs;
};

int64_t bytesOf(Type type) {
  return graph::getStaticSizeInBytes(type).value_or(0);
}

/// Rewrites a clone of the module's step for `replicas` replicas (placement
/// only: no tasks are built) and reads its costs and placeholders. Fails
/// with the rewrite's first error line in `refusal`.
FailureOr<ReplicaStep> rewriteStep(ModuleOp module, StringRef entry,
                                   int64_t replicas,
                                   const MachineModel &machine,
                                   std::string &refusal) {
  TrialClone trial(module, entry, refusal);
  if (!trial.entry || failed(rewriteForReplicas(*trial.module, trial.entry,
                                                replicas, "worker"))) {
    return failure();
  }
  ReplicaStep step;
  for (Operation &op : trial.entry.getBody().front().without_terminator()) {
    if (auto split = dyn_cast<dist::ReplicaSplitOp>(op)) {
      step.inputs.push_back({bytesOf(split.getInput().getType()),
                             bytesOf(split.getResult().getType())});
    } else if (auto concat = dyn_cast<dist::ReplicaConcatOp>(op)) {
      step.outputs.push_back({bytesOf(concat.getResult().getType()),
                              bytesOf(concat.getInput().getType())});
    } else if (isReplicatedPlacement(getPlacement(&op))) {
      step.computeSeconds += estimateComputeSeconds(&op, machine);
    }
  }
  return step;
}

/// The batch: dimension 0 of the first input that has a dimension, as the
/// replicas strategy takes it.
std::optional<int64_t> batchOf(func::FuncOp func) {
  for (Type type : func.getArgumentTypes()) {
    if (auto ranked = dyn_cast<RankedTensorType>(type);
        ranked && ranked.getRank() > 0) {
      return ranked.isDynamicDim(0) ? std::nullopt
                                    : std::optional(ranked.getDimSize(0));
    }
  }
  return std::nullopt;
}

/// A collective of the step: kind, elements, bytes per element.
struct Coll {
  std::string kind;
  int64_t count, esize;
};

/// The gradient operand of an optimizer update, or null.
Value gradientOf(Operation *op) {
  return llvm::TypeSwitch<Operation *, Value>(op)
      .Case<graph::SGDUpdateOp, graph::MomentumUpdateOp, graph::AdamUpdateOp,
            graph::FtrlUpdateOp>([](auto update) { return update.getGrad(); })
      .Default([](Operation *) { return Value(); });
}

bool hasUpdates(func::FuncOp func) {
  return llvm::any_of(func.getBody().front(),
                      [](Operation &op) { return gradientOf(&op) != nullptr; });
}

/// Weak scaling of a training step the replicas rewrite refuses: every
/// gradient is all-reduced, bucketed in program order as
/// dist-fuse-collectives buckets them (one element type per bucket, up to
/// its default size), and a scalar result (the loss) is all-reduced: an
/// f32/f64 one opens the first bucket of its element type (its mean joins
/// the gradients' sum, as there), another on its own; inputs whose
/// dimension 0 is the batch are sent from task 0, outputs with it gathered
/// there.
ReplicaStep fromGradients(func::FuncOp func, int64_t batch,
                          SmallVectorImpl<Coll> &colls) {
  llvm::DenseMap<Type, size_t> open;
  auto summableScalar = [](Type type) {
    auto ranked = dyn_cast<RankedTensorType>(type);
    return ranked && ranked.getRank() == 0 &&
           (ranked.getElementType().isF32() || ranked.getElementType().isF64());
  };
  for (Type type : func.getResultTypes()) {
    if (summableScalar(type)) {
      Type elem = cast<RankedTensorType>(type).getElementType();
      auto it = open.find(elem);
      if (it != open.end() && (colls[it->second].count + 1) * bytesOf(type) <=
                                  kDefaultBucketBytes) {
        ++colls[it->second].count;
        continue;
      }
      open[elem] = colls.size();
      colls.push_back({"all_reduce", 1, bytesOf(type)});
    }
  }
  for (Operation &op : func.getBody().front()) {
    Value grad = gradientOf(&op);
    auto type = grad ? dyn_cast<RankedTensorType>(grad.getType()) : nullptr;
    if (!type || !type.hasStaticShape()) {
      continue;
    }
    Type elem = type.getElementType();
    int64_t esize = (elem.getIntOrFloatBitWidth() + 7) / 8;
    auto it = open.find(elem);
    if (it != open.end() &&
        (colls[it->second].count + type.getNumElements()) * esize <=
            kDefaultBucketBytes) {
      colls[it->second].count += type.getNumElements();
      continue;
    }
    open[elem] = colls.size();
    colls.push_back({"all_reduce", type.getNumElements(), esize});
  }
  ReplicaStep step;
  auto batched = [&](Type type) {
    auto ranked = dyn_cast<RankedTensorType>(type);
    return ranked && ranked.getRank() > 0 && ranked.getDimSize(0) == batch;
  };
  for (Type type : func.getArgumentTypes()) {
    if (batched(type)) {
      step.inputs.push_back({bytesOf(type), bytesOf(type) / 2});
    }
  }
  for (Type type : func.getResultTypes()) {
    auto ranked = dyn_cast<RankedTensorType>(type);
    if (batched(type)) {
      step.outputs.push_back({bytesOf(type), bytesOf(type) / 2});
    } else if (ranked && ranked.getRank() == 0 && !summableScalar(type)) {
      colls.push_back({"all_reduce", 1, bytesOf(type)});
    }
  }
  return step;
}

/// How much slower each task computes when `tasks` tasks share the
/// machine model's cores (the report's shareCores).
double sharedCoresSlowdown(const MachineModel &machine, int64_t tasks) {
  return machine.sharedCores > 0 && tasks > int64_t(machine.sharedCores)
             ? double(tasks) / machine.sharedCores
             : 1;
}

/// The edges of R replicas' step as the report charges them: task 0 slices
/// every input R ways and sends R-1 slices one after another, so the last
/// replica starts a latency after task 0's last send (the scatter); each
/// replica sends its output rows back and task 0 concatenates them (the
/// gather).
std::pair<double, double> replicaEdges(const ReplicaStep &step, int64_t r,
                                       double slowdown,
                                       const MachineModel &machine) {
  double scatter = 0, gather = 0;
  double bw = machine.linkBytesPerSecond;
  for (auto [global, rows] : step.inputs) {
    scatter +=
        double(r) * machine.opSeconds("graph.slice", 0, 2.0 * rows) * slowdown +
        double(r - 1) * double(rows) / bw;
  }
  if (!step.inputs.empty()) {
    scatter += machine.linkLatencySeconds;
  }
  if (!step.outputs.empty()) {
    gather += machine.linkLatencySeconds;
  }
  for (auto [global, rows] : step.outputs) {
    gather += double(rows) / bw +
              machine.opSeconds("graph.concat", 0, 2.0 * global) * slowdown;
  }
  return {scatter, gather};
}

std::string us(double seconds) {
  return llvm::formatv("{0:F1}", seconds * 1e6).str();
}
int64_t ns(double seconds) { return int64_t(std::llround(seconds * 1e9)); }

} // namespace

FailureOr<ScalingReport> graphc::simulateReplicas(ModuleOp module,
                                                  StringRef entryName,
                                                  ArrayRef<int64_t> counts,
                                                  ScalingMode mode,
                                                  const MachineModel &machine) {
  func::FuncOp func = findEntryFunction(module, entryName, "simulate-replicas");
  if (!func) {
    return failure();
  }
  std::optional<int64_t> batch = batchOf(func);
  if (!batch) {
    // At the location, not the op: the op would be printed whole.
    return emitError(func.getLoc())
           << "simulate-replicas: @" << func.getSymName()
           << " has no input with a static dimension 0 to split over "
              "replicas; fix it with --input-shape";
  }
  ScalingReport out;
  out.mode = mode;
  out.machine = machine;
  out.batch = *batch;

  // One replica: the whole step on one task, as the report charges it.
  double oneStep = 0;
  for (Operation &op : func.getBody().front().without_terminator()) {
    oneStep += estimateComputeSeconds(&op, machine);
  }

  // The graph stage may not have loaded the dialect of the placements yet.
  module.getContext()->getOrLoadDialect<dist::DistDialect>();
  // The collectives do not depend on R (the all-reduced values are
  // weight-shaped); take them from the 2-replica job after fusion, exactly
  // the buckets dist-fuse-collectives makes.
  PlacementOptions two;
  two.strategy = "replicas";
  two.replicas = 2;
  two.defaultTask = DeviceAttr::get(module.getContext(), "worker", std::nullopt,
                                    0, "", std::nullopt);
  std::unique_ptr<PlacementStrategy> replicas =
      createPlacementStrategy("replicas");
  std::string refusal;
  FailureOr<DistReport> twoJob = estimatePlacement(
      module, func.getSymName(), *replicas, two, machine, refusal);
  FailureOr<ReplicaStep> twoStep = failure();
  if (succeeded(twoJob)) {
    twoStep = rewriteStep(module, func.getSymName(), 2, machine, refusal);
  }
  SmallVector<Coll> colls;
  if (succeeded(twoStep)) {
    for (const CollectiveReport &c : twoJob->collectives) {
      colls.push_back({c.kind, c.bytes / std::max<int64_t>(c.elementBytes, 1),
                       std::max<int64_t>(c.elementBytes, 1)});
    }
  } else if (mode == ScalingMode::Weak && hasUpdates(func)) {
    // The replicas rewrite cannot split this training step yet; weak
    // scaling needs only the one-replica step and what is all-reduced,
    // which are the step's gradients.
    out.refusal = refusal;
    twoStep = fromGradients(func, *batch, colls);
  } else {
    return emitError(func.getLoc())
           << "simulate-replicas: the step of @" << func.getSymName()
           << " cannot be replicated (replicas=2): " << refusal;
  }
  for (const Coll &c : colls) {
    ++out.allReduces;
    out.allReduceBytes += c.count * c.esize;
  }

  for (int64_t r : counts) {
    ScalingPoint p;
    p.replicas = r;
    if (r == 1) {
      p.replicaBatch = *batch;
      p.computeSeconds = p.stepSeconds = oneStep;
      p.speedup = p.efficiency = 1;
      out.points.push_back(p);
      continue;
    }
    ReplicaStep step;
    if (mode == ScalingMode::Weak) {
      // Every replica computes the model's batch; task 0 holds all R of
      // them and sends each its own.
      p.replicaBatch = *batch;
      step.computeSeconds = oneStep;
      for (auto [global, rows] : twoStep->inputs) {
        step.inputs.push_back({global * r, global});
      }
      for (auto [global, rows] : twoStep->outputs) {
        step.outputs.push_back({global * r, global});
      }
    } else {
      if (*batch % r != 0) {
        p.skipped = llvm::formatv("the batch of {0} rows does not split {1} "
                                  "ways",
                                  *batch, r)
                        .str();
        out.points.push_back(p);
        continue;
      }
      p.replicaBatch = *batch / r;
      std::string why;
      FailureOr<ReplicaStep> rewritten =
          rewriteStep(module, func.getSymName(), r, machine, why);
      if (failed(rewritten)) {
        p.skipped = why;
        out.points.push_back(p);
        continue;
      }
      step = *rewritten;
    }
    // The report's rules, applied to R identical replicas: tasks sharing
    // cores compute slower; the collectives start when all are in.
    double slowdown = sharedCoresSlowdown(machine, r);
    std::tie(p.scatterSeconds, p.gatherSeconds) =
        replicaEdges(step, r, slowdown, machine);
    p.computeSeconds = step.computeSeconds * slowdown;
    for (const Coll &c : colls) {
      p.collectiveSeconds += estimateCollectiveSeconds(c.kind, c.count, c.count,
                                                       c.esize, r, machine);
    }
    p.stepSeconds = p.scatterSeconds + p.computeSeconds + p.collectiveSeconds +
                    p.gatherSeconds;
    // Samples per second against one replica: strong scaling moves the
    // same batch faster, weak scaling moves R batches in one step.
    p.speedup =
        (mode == ScalingMode::Weak ? double(r) : 1.0) * oneStep / p.stepSeconds;
    p.efficiency = p.speedup / double(r);
    out.points.push_back(p);
  }
  return out;
}

llvm::json::Value graphc::scalingToJson(const ScalingReport &r) {
  llvm::json::Array points;
  for (const ScalingPoint &p : r.points) {
    if (!p.skipped.empty()) {
      points.push_back(
          llvm::json::Object{{"replicas", p.replicas}, {"skipped", p.skipped}});
      continue;
    }
    points.push_back(llvm::json::Object{
        {"replicas", p.replicas},
        {"replica_batch", p.replicaBatch},
        {"scatter_ns", ns(p.scatterSeconds)},
        {"compute_ns", ns(p.computeSeconds)},
        {"collectives_ns", ns(p.collectiveSeconds)},
        {"gather_ns", ns(p.gatherSeconds)},
        {"step_ns", ns(p.stepSeconds)},
        {"speedup", std::round(p.speedup * 1000) / 1000},
        {"efficiency", std::round(p.efficiency * 1000) / 1000}});
  }
  return llvm::json::Object{
      {"mode", r.mode == ScalingMode::Weak ? "weak" : "strong"},
      {"machine_model", r.machine.name},
      {"batch", r.batch},
      {"all_reduces", r.allReduces},
      {"all_reduce_bytes", r.allReduceBytes},
      {"from_gradients", !r.refusal.empty()},
      {"points", std::move(points)}};
}

void graphc::printScalingTable(const ScalingReport &r, llvm::raw_ostream &os) {
  os << "scaling simulation, "
     << (r.mode == ScalingMode::Weak
             ? llvm::formatv("weak: every replica computes a batch of {0} "
                             "rows",
                             r.batch)
                   .str()
             : llvm::formatv("strong: a global batch of {0} rows split over "
                             "the replicas",
                             r.batch)
                   .str())
     << " (machine model: " << r.machine.name << ")\n";
  os << llvm::formatv("{0} all-reduce(s) per step after fusion, {1} bytes\n",
                      r.allReduces, r.allReduceBytes);
  if (!r.refusal.empty()) {
    os << "(from the step's gradients: the replicas strategy refuses the "
          "step itself: "
       << r.refusal << ")\n";
  }
  os << llvm::formatv("{0,8} {1,6} {2,12} {3,12} {4,12} {5,12} {6,12} "
                      "{7,8} {8,10}\n",
                      "replicas", "rows", "scatter us", "compute us",
                      "collect. us", "gather us", "step us", "speedup",
                      "efficiency");
  for (const ScalingPoint &p : r.points) {
    if (!p.skipped.empty()) {
      os << llvm::formatv("{0,8} skipped: {1}\n", p.replicas, p.skipped);
      continue;
    }
    os << llvm::formatv("{0,8} {1,6} {2,12} {3,12} {4,12} {5,12} {6,12} "
                        "{7,8:F2} {8,9:F0}%\n",
                        p.replicas, p.replicaBatch, us(p.scatterSeconds),
                        us(p.computeSeconds), us(p.collectiveSeconds),
                        us(p.gatherSeconds), us(p.stepSeconds), p.speedup,
                        p.efficiency * 100);
  }
}

//===----------------------------------------------------------------------===//
// Pipeline and tensor parallelism (--simulate-strategy)
//===----------------------------------------------------------------------===//

namespace {

/// Turns the step rewriteForReplicas made into a plain, unplaced function
/// over one replica's rows: each split input becomes an argument of the
/// slice's type, each concat's input is returned. What the placeholders
/// moved is kept in `edges` (global and per-replica bytes). Fails, saying
/// why in `refusal`, on a step that all-reduces across replicas (a
/// training step: the replicas' all-reduce would have to be composed with
/// the pipeline's accumulation, which this does not model).
LogicalResult toOneReplica(ModuleOp module, func::FuncOp func,
                           ReplicaStep &edges, std::string &refusal) {
  Block &body = func.getBody().front();
  for (Operation &op : llvm::make_early_inc_range(body)) {
    if (auto split = dyn_cast<dist::ReplicaSplitOp>(op)) {
      auto arg = dyn_cast<BlockArgument>(split.getInput());
      if (!arg || !arg.hasOneUse()) {
        refusal = "a replica's input is not an argument of the step";
        return failure();
      }
      edges.inputs.push_back(
          {bytesOf(arg.getType()), bytesOf(split.getResult().getType())});
      arg.setType(split.getResult().getType());
      split.getResult().replaceAllUsesWith(arg);
      split.erase();
    } else if (auto concat = dyn_cast<dist::ReplicaConcatOp>(op)) {
      edges.outputs.push_back({bytesOf(concat.getResult().getType()),
                               bytesOf(concat.getInput().getType())});
      concat.getResult().replaceAllUsesWith(concat.getInput());
      concat.erase();
    } else if (isa<dist::ReplicaAllReduceOp>(op)) {
      refusal = "the step all-reduces across replicas (a training step)";
      return failure();
    }
  }
  func.setFunctionType(
      FunctionType::get(module.getContext(), body.getArgumentTypes(),
                        body.getTerminator()->getOperandTypes()));
  func->removeAttr(dist::DistDialect::kReplicasAttrName);
  module.walk([](Operation *op) {
    op->removeAttr(dist::DistDialect::kDeviceAttrName);
  });
  return success();
}

/// `machine` with every compute op `slowdown` times slower and no shared
/// cores: one of R one-task replicas, all computing at once, is then charged
/// what the R-task job's report charges.
MachineModel stretched(const MachineModel &machine, double slowdown) {
  MachineModel m = machine;
  m.sharedCores = 0;
  m.flopsPerSecond /= slowdown;
  m.memoryBytesPerSecond /= slowdown;
  return m;
}

/// One replica's share of an R-replica job's step, from the report of the
/// replica alone: its step less the hops the R-replica job does not make.
/// Alone, the replica's inputs start on its first task and its outputs end
/// there; in the job, task 0 sends every replica's rows straight to the
/// tasks that read them (the scatter) and each replica's outputs straight
/// to task 0 (the gather). So a critical path that starts with the input's
/// transfer from the first task (a tensor-parallel shard's copy of the
/// rows) or ends with a transfer into it and the concat of the microbatches
/// (a pipeline's last stage) is charged without those.
double withoutEdgeHops(const DistReport &report) {
  const std::vector<PathStep> &path = report.criticalPath;
  if (path.empty() || report.tasks.empty()) {
    return report.stepSeconds;
  }
  const std::string &first = report.tasks.front().name;
  double begin = 0, end = report.stepSeconds;
  if (path.front().kind == "transfer" && path.front().task == first &&
      path.front().startSeconds == 0) {
    begin = path.front().endSeconds;
  }
  size_t last = path.size();
  while (last > 1 && path[last - 1].kind == "compute" &&
         path[last - 1].task == first &&
         path[last - 1].name == "graph.concat") {
    --last;
  }
  if (last < path.size() && path[last - 1].kind == "transfer") {
    end = path[last - 1].startSeconds;
  }
  return std::max(end - begin, 0.0);
}

} // namespace

FailureOr<StrategyScaling>
graphc::simulateStrategy(ModuleOp module, StringRef entryName,
                         StringRef strategyName, ArrayRef<int64_t> counts,
                         int64_t tasksPerReplica, int64_t microbatches,
                         const MachineModel &machine) {
  func::FuncOp func = findEntryFunction(module, entryName, "simulate-strategy");
  if (!func) {
    return failure();
  }
  std::optional<int64_t> batch = batchOf(func);
  if (!batch) {
    return emitError(func.getLoc())
           << "simulate-strategy: @" << func.getSymName()
           << " has no input with a static dimension 0 to split; fix it "
              "with --input-shape";
  }
  bool pipeline = strategyName == "pipeline";
  StrategyScaling out;
  out.strategy = strategyName.str();
  out.machine = machine;
  out.batch = *batch;
  out.tasksPerReplica = tasksPerReplica;
  out.microbatches = microbatches;

  double oneStep = 0;
  for (Operation &op : func.getBody().front().without_terminator()) {
    oneStep += estimateComputeSeconds(&op, machine);
  }
  MLIRContext *ctx = module.getContext();
  ctx->getOrLoadDialect<dist::DistDialect>();
  DeviceAttr task0 =
      DeviceAttr::get(ctx, "worker", std::nullopt, 0, "", std::nullopt);

  for (int64_t w : counts) {
    StrategyPoint p;
    p.workers = w;
    // One worker is the model on one task, whatever the strategy.
    int64_t k = w == 1 ? 1 : tasksPerReplica > 0 ? tasksPerReplica : w;
    auto skip = [&](std::string why) {
      p.skipped = std::move(why);
      out.points.push_back(p);
    };
    if (w % k != 0) {
      skip(llvm::formatv("{0} workers do not hold replicas of {1} tasks", w, k)
               .str());
      continue;
    }
    int64_t r = w / k;
    p.replicas = r;
    p.tasksPerReplica = k;
    p.microbatches =
        pipeline && k > 1 ? (microbatches > 0 ? microbatches : k) : 1;
    if (*batch % r != 0) {
      skip(llvm::formatv("the batch of {0} rows does not split {1} ways",
                         *batch, r)
               .str());
      continue;
    }
    // One replica's program over its rows: the model itself, or the
    // replicas rewrite's one-replica step with its placeholders dropped.
    std::string refusal;
    TrialClone replica(module, func.getSymName(), refusal);
    ReplicaStep edges;
    if (!replica.entry) {
      skip(refusal);
      continue;
    }
    if (r > 1 && (failed(rewriteForReplicas(*replica.module, replica.entry, r,
                                            "worker")) ||
                  failed(toOneReplica(*replica.module, replica.entry, edges,
                                      refusal)))) {
      skip(refusal);
      continue;
    }
    // With one replica the report of the built job is the prediction. With
    // more, replicas of one task all compute at once, so their compute is
    // stretched as the whole job's would be; replicas of K tasks run side
    // by side, so one of them is charged on its share of the cores, cores/R,
    // where the report stretches each op by the replica's tasks computing
    // beside it (pipeline stages take turns; tensor-parallel shards do not).
    double slowdown = r > 1 ? sharedCoresSlowdown(machine, w) : 1;
    MachineModel inner = machine;
    if (r > 1 && k == 1) {
      inner = stretched(machine, slowdown);
    } else if (r > 1) {
      inner.sharedCores = machine.sharedCores / double(r);
    }
    if (k == 1) {
      for (Operation &op :
           replica.entry.getBody().front().without_terminator()) {
        p.replicaSeconds += estimateComputeSeconds(&op, inner);
      }
    } else {
      PlacementOptions options;
      options.strategy = strategyName.str();
      options.defaultTask = task0;
      options.replicas = 1;
      if (pipeline) {
        options.pipelineStages = k;
        options.microbatches = p.microbatches;
      } else {
        options.tensorParallel = k;
      }
      std::unique_ptr<PlacementStrategy> placer =
          createPlacementStrategy(strategyName);
      FailureOr<DistReport> report = estimatePlacement(
          *replica.module, func.getSymName(), *placer, options, inner, refusal);
      if (failed(report)) {
        skip(refusal);
        continue;
      }
      p.replicaSeconds = r > 1 ? withoutEdgeHops(*report) : report->stepSeconds;
      if (report->pipeline) {
        p.bubble = report->pipeline->bubble;
      }
    }
    if (r > 1) {
      std::tie(p.scatterSeconds, p.gatherSeconds) =
          replicaEdges(edges, r, slowdown, machine);
    }
    p.stepSeconds = p.scatterSeconds + p.replicaSeconds + p.gatherSeconds;
    p.speedup = oneStep / p.stepSeconds;
    p.efficiency = p.speedup / double(w);
    out.points.push_back(p);
  }
  return out;
}

llvm::json::Value graphc::strategyScalingToJson(const StrategyScaling &r) {
  llvm::json::Array points;
  for (const StrategyPoint &p : r.points) {
    if (!p.skipped.empty()) {
      points.push_back(
          llvm::json::Object{{"workers", p.workers}, {"skipped", p.skipped}});
      continue;
    }
    llvm::json::Object point{
        {"workers", p.workers},
        {"replicas", p.replicas},
        {"tasks_per_replica", p.tasksPerReplica},
        {"microbatches", p.microbatches},
        {"scatter_ns", ns(p.scatterSeconds)},
        {"replica_ns", ns(p.replicaSeconds)},
        {"gather_ns", ns(p.gatherSeconds)},
        {"step_ns", ns(p.stepSeconds)},
        {"speedup", std::round(p.speedup * 1000) / 1000},
        {"efficiency", std::round(p.efficiency * 1000) / 1000}};
    if (p.bubble >= 0) {
      point["bubble"] = std::round(p.bubble * 1000) / 1000;
    }
    points.push_back(std::move(point));
  }
  return llvm::json::Object{{"strategy", r.strategy},
                            {"machine_model", r.machine.name},
                            {"batch", r.batch},
                            {"tasks_per_replica", r.tasksPerReplica},
                            {"microbatches", r.microbatches},
                            {"points", std::move(points)}};
}

void graphc::printStrategyScalingTable(const StrategyScaling &r,
                                       llvm::raw_ostream &os) {
  bool pipeline = r.strategy == "pipeline";
  StringRef unit = pipeline ? "stages" : "shards";
  os << "scaling simulation, " << r.strategy << ": a batch of " << r.batch
     << " rows on each count of workers as "
     << (r.tasksPerReplica > 0
             ? llvm::formatv("replicas of {0} {1}", r.tasksPerReplica, unit)
                   .str()
             : llvm::formatv("one replica of that many {0}", unit).str());
  if (pipeline) {
    os << (r.microbatches > 0
               ? llvm::formatv(", {0} microbatches", r.microbatches).str()
               : std::string(", as many microbatches as stages"));
  }
  os << " (machine model: " << r.machine.name << ")\n";
  os << llvm::formatv("{0,8} {1,8} {2,6} {3,6} {4,12} {5,12} {6,12} {7,12} "
                      "{8,7} {9,8} {10,10}\n",
                      "workers", "replicas", unit, "micro", "scatter us",
                      "replica us", "gather us", "step us", "bubble", "speedup",
                      "efficiency");
  for (const StrategyPoint &p : r.points) {
    if (!p.skipped.empty()) {
      os << llvm::formatv("{0,8} skipped: {1}\n", p.workers, p.skipped);
      continue;
    }
    std::string bubble =
        p.bubble >= 0 ? llvm::formatv("{0:F0}%", p.bubble * 100).str() : "-";
    os << llvm::formatv("{0,8} {1,8} {2,6} {3,6} {4,12} {5,12} {6,12} {7,12} "
                        "{8,7} {9,8:F2} {10,9:F0}%\n",
                        p.workers, p.replicas, p.tasksPerReplica,
                        pipeline ? std::to_string(p.microbatches) : "-",
                        us(p.scatterSeconds), us(p.replicaSeconds),
                        us(p.gatherSeconds), us(p.stepSeconds), bubble,
                        p.speedup, p.efficiency * 100);
  }
}
