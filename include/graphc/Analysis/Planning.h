//===- Planning.h - choosing a placement and predicting its scaling -*- C++
//-*-===//
//
// What the report's estimate is for before a job runs: `strategy=auto`
// (compile every candidate placement on a clone, keep the cheapest) and the
// scaling simulation behind `graphc --simulate-replicas` (data parallelism,
// and with --simulate-strategy pipelines and tensor parallelism).
// Both reuse the communication report's cost model (DistReport.h); see
// docs/design/distribution-2.md.
//
//===----------------------------------------------------------------------===//

#ifndef GRAPHC_ANALYSIS_PLANNING_H
#define GRAPHC_ANALYSIS_PLANNING_H

#include "graphc/Analysis/DistReport.h"
#include "graphc/Transforms/Placement.h"

#include "mlir/IR/Diagnostics.h"

#include <string>
#include <vector>

namespace graphc {

/// Adds `auto` to the placement strategy registry. Safe to call more than
/// once.
void registerAutoPlacementStrategy();

/// A clone of a module to try a placement on. While it lives, the
/// context's diagnostics are swallowed and the first line of the first
/// error is kept in `refusal`: a refused candidate is an answer, not an
/// error of the compilation. `entry` is null (and `refusal` says so) when
/// the clone has no function of that name.
class TrialClone {
public:
  TrialClone(mlir::ModuleOp module, llvm::StringRef entryName,
             std::string &refusal);
  mlir::OwningOpRef<mlir::ModuleOp> module;
  mlir::func::FuncOp entry;

private:
  mlir::ScopedDiagnosticHandler handler;
};

/// Places a clone of `module` with `strategy` and `options`, partitions it,
/// fuses its collectives (the graphc-dist defaults) and estimates it on
/// `machine`. The module is not changed. When the model cannot be placed
/// this way, fails and sets `refusal` to the first line of the first
/// error (nothing is printed).
mlir::FailureOr<DistReport>
estimatePlacement(mlir::ModuleOp module, llvm::StringRef entry,
                  transforms::PlacementStrategy &strategy,
                  const transforms::PlacementOptions &options,
                  const MachineModel &machine, std::string &refusal);

/// Strong scaling splits the model's batch over the replicas; weak scaling
/// gives every replica the model's batch.
enum class ScalingMode { Strong, Weak };

/// The prediction for one replica count.
struct ScalingPoint {
  int64_t replicas = 1;
  /// Rows each replica computes.
  int64_t replicaBatch = 0;
  /// Why there is no prediction (the batch does not split R ways), or "".
  std::string skipped;
  /// Until the last replica has its input rows (task 0 slices and sends
  /// them), a replica's compute, the collectives once all are in, and the
  /// outputs back to task 0 and concatenated.
  double scatterSeconds = 0, computeSeconds = 0, collectiveSeconds = 0,
         gatherSeconds = 0;
  double stepSeconds = 0;
  /// Samples per second relative to one replica, and that over R.
  double speedup = 0, efficiency = 0;
};

struct ScalingReport {
  ScalingMode mode = ScalingMode::Strong;
  MachineModel machine;
  /// The model's batch (the one replica's step).
  int64_t batch = 0;
  /// The step's cross-replica all-reduces after fusion: count and bytes.
  int64_t allReduces = 0;
  int64_t allReduceBytes = 0;
  /// Set when the replicas strategy refuses the step (its first line) and
  /// a weak-scaling training step is predicted from its gradients instead.
  std::string refusal;
  std::vector<ScalingPoint> points;
};

/// Predicts the data-parallel step (strategy=replicas) of `module` (the
/// graph stage: before dist-place) for each of `counts` replicas on
/// `machine`, from the one-replica step's op costs, the replicas rewrite of
/// the step for its shapes and placeholders, and the report's transfer and
/// collective formulas, without building an R-task job. Emits and fails
/// when the step cannot be replicated.
mlir::FailureOr<ScalingReport> simulateReplicas(mlir::ModuleOp module,
                                                llvm::StringRef entry,
                                                llvm::ArrayRef<int64_t> counts,
                                                ScalingMode mode,
                                                const MachineModel &machine);

/// One worker count of a pipeline or tensor-parallel job: R replicas of a
/// K-task program (K stages or K shards), W = R*K workers.
struct StrategyPoint {
  int64_t workers = 1, replicas = 1, tasksPerReplica = 1, microbatches = 1;
  /// Why there is no prediction (W does not split into R*K, the strategy
  /// refuses the model), or "".
  std::string skipped;
  /// Task 0 slicing the batch and sending R-1 replicas their rows (0 for
  /// one replica), one replica's K-task step as the report estimates it
  /// (input on its first task, output back on it), the replicas' outputs
  /// back on task 0.
  double scatterSeconds = 0, replicaSeconds = 0, gatherSeconds = 0;
  double stepSeconds = 0;
  /// The report's bubble of one replica's pipeline, or -1.
  double bubble = -1;
  double speedup = 0, efficiency = 0;
};

struct StrategyScaling {
  /// "pipeline" or "tensor-parallel".
  std::string strategy;
  MachineModel machine;
  int64_t batch = 0;
  /// K when every count is R replicas of K tasks; 0 when each count W is
  /// one K = W task program.
  int64_t tasksPerReplica = 0;
  /// Microbatches of every pipeline; 0: as many as stages.
  int64_t microbatches = 0;
  std::vector<StrategyPoint> points;
};

/// Predicts the step of `strategy` ("pipeline" or "tensor-parallel") for
/// each worker count: one replica's K-task program is placed, partitioned
/// and estimated by the report on a clone (K is bounded by the model's
/// layers or heads, so it is small), at the rows one of R replicas gets,
/// and R replicas of it are composed with simulateReplicas' scatter and
/// gather formulas, without building the R*K-task job. With one replica
/// the prediction is the built job's report estimate. `tasksPerReplica`
/// and `microbatches` as in StrategyScaling. Emits and fails when the
/// module has no batch to split.
mlir::FailureOr<StrategyScaling>
simulateStrategy(mlir::ModuleOp module, llvm::StringRef entry,
                 llvm::StringRef strategy, llvm::ArrayRef<int64_t> workers,
                 int64_t tasksPerReplica, int64_t microbatches,
                 const MachineModel &machine);

llvm::json::Value strategyScalingToJson(const StrategyScaling &report);
void printStrategyScalingTable(const StrategyScaling &report,
                               llvm::raw_ostream &os);

llvm::json::Value scalingToJson(const ScalingReport &report);
void printScalingTable(const ScalingReport &report, llvm::raw_ostream &os);

} // namespace graphc

#endif // GRAPHC_ANALYSIS_PLANNING_H
