//===- Placement.h - placement strategies and shared helpers -----*- C++
//-*-===//
//
// What dist-place and dist-partition agree on: how a placement is written in
// the IR, how a TensorFlow node name is found on an op, and the registry of
// placement strategies that dist-place dispatches to.
//
// A placed entry function carries `dist.device` (a task, `/job:J/task:I`) on
// every op of its body, on every argument and result, and on every
// `graph.variable`. In a function with `dist.replicas = N`, the device
// `/job:J` (a job without a task) marks the replicated step: replica r runs
// it on `/job:J/task:r`, and a variable homed there is one copy per replica.
//
//===----------------------------------------------------------------------===//

#ifndef GRAPHC_TRANSFORMS_PLACEMENT_H
#define GRAPHC_TRANSFORMS_PLACEMENT_H

#include "dist/DistOps.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/PassManager.h"

#include <functional>
#include <memory>

namespace graphc::transforms {

/// The TF importer's colocation groups: node names an op must run with.
inline constexpr llvm::StringLiteral kColocateAttrName = "graph.colocate";
/// The TF importer's control inputs: node names an op must run after.
inline constexpr llvm::StringLiteral kControlDepsAttrName =
    "graph.control_deps";
/// The name of an argument or result (a feed or fetch name).
inline constexpr llvm::StringLiteral kNameAttrName = "graph.name";
/// The importers' output names, on the function, when results carry none.
inline constexpr llvm::StringLiteral kOutputNamesAttrName =
    "graph.output_names";

/// The `dist.device` of `op`, or null.
dist::DeviceAttr getPlacement(mlir::Operation *op);
void setPlacement(mlir::Operation *op, dist::DeviceAttr device);

/// True for `/job:J` with no task: the replicated step's placement.
bool isReplicatedPlacement(dist::DeviceAttr device);

/// The TensorFlow node an op was imported from: the part of a `FILE:NODE`
/// name location after the last ':' (node names hold no ':'), or "".
llvm::StringRef getNodeName(mlir::Location loc);

/// The function a distribution pass works on: `entry` when given, else the
/// one function of the module with a body, else @main. Emits and returns
/// null when there is none.
mlir::func::FuncOp findEntryFunction(mlir::ModuleOp module,
                                     llvm::StringRef entry,
                                     llvm::StringRef passName);

/// Places every op of `func`'s body, its arguments and results, and every
/// variable of `module` on `task`.
void placeAllOn(mlir::ModuleOp module, mlir::func::FuncOp func,
                dist::DeviceAttr task);

/// The values `op` reads: its operands, then what its regions use from
/// above, each once.
llvm::SmallVector<mlir::Value> getUsedValues(mlir::Operation *op);

/// True when the module already holds `dist.task` ops (hand-partitioned or
/// partitioned before): the distribution passes leave it unchanged.
bool isPartitioned(mlir::ModuleOp module);

//===----------------------------------------------------------------------===//
// Placement strategies
//===----------------------------------------------------------------------===//

/// dist-place's options, as one strategy sees them.
struct PlacementOptions {
  std::string strategy;
  int64_t replicas = 1;
  int64_t psTasks = 1;
  /// Tasks each split weight is spread over (strategy tensor-parallel).
  /// Pipeline stages (`pipeline`) and the GPipe microbatches per step (0:
  /// as many as stages).
  int64_t pipelineStages = 1;
  int64_t microbatches = 0;
  /// Tasks a Megatron-style split spreads each layer over
  /// (`tensor-parallel`).
  int64_t tensorParallel = 1;
  /// `default-device` reduced to a task (`/job:worker/task:0`).
  dist::DeviceAttr defaultTask;
  /// strategy=auto: the cluster size the candidates must fit (0: the
  /// machine model's `shared_cores`, else 4) and the machine model file the
  /// estimates are for ("": the built-in one).
  int64_t workers = 0;
  std::string machineModel;
};

/// One placement `strategy=auto` compiles and estimates: a strategy with a
/// complete option set (`defaultTask` is filled in by auto).
struct PlacementCandidate {
  /// How the report names it: "given", "replicas=4", "ps replicas=2
  /// ps-tasks=1".
  std::string label;
  PlacementOptions options;
};

/// One way to decide where things run. A strategy annotates the entry
/// function (every op of its body, its arguments and results) and the
/// module's variables with `dist.device`; dist-place then derives the
/// cluster. Later strategies (pipeline stages, tensor parallelism, a cost
/// model) plug in here without touching the pass.
class PlacementStrategy {
public:
  virtual ~PlacementStrategy();
  /// The name `strategy=` selects it by.
  virtual llvm::StringRef getName() const = 0;
  /// Places `entry` and the variables of `module`. Emits and fails when the
  /// model cannot be placed this way.
  virtual llvm::LogicalResult place(mlir::ModuleOp module,
                                    mlir::func::FuncOp entry,
                                    const PlacementOptions &options) = 0;
  /// The option sets of this strategy that `strategy=auto` tries on a
  /// cluster of `workers` tasks, each using at most `workers` tasks. The
  /// default, none, keeps a strategy out of auto's choice. A candidate the
  /// model cannot take is fine: auto lists it as refused.
  virtual llvm::SmallVector<PlacementCandidate>
  getCandidates(int64_t workers) const;
};

using PlacementStrategyFactory =
    std::function<std::unique_ptr<PlacementStrategy>()>;

/// Adds a strategy to the registry (the built-in ones are there already).
void registerPlacementStrategy(llvm::StringRef name,
                               PlacementStrategyFactory factory);
/// The strategy registered as `name`, or null.
std::unique_ptr<PlacementStrategy>
createPlacementStrategy(llvm::StringRef name);
/// Every registered strategy name, sorted (for diagnostics).
llvm::SmallVector<std::string> getPlacementStrategyNames();

/// dist-fuse-collectives' default bucket: Horovod's fusion threshold.
inline constexpr int64_t kDefaultBucketBytes = 4 * 1024 * 1024;

/// The passes graphc-dist runs after dist-place (partitioning, collective
/// fusion, and with `overlap` dist-overlap-collectives). `strategy=auto`
/// runs the same on each candidate, so a strategy that needs another pass
/// between placement and the tasks adds it here.
void buildPostPlacementPasses(mlir::OpPassManager &pm, llvm::StringRef entry,
                              int64_t bucketBytes, bool overlap = true);

/// dist-overlap-collectives' mark on a `dist.all_reduce`: dist-to-runtime
/// starts it where it is and waits on it before its result's first use.
inline constexpr llvm::StringLiteral kOverlapAttr = "dist.overlap";

/// What dist-place does after a strategy: checks that `entry`'s ops all got
/// a task (naming `strategy` when one did not) and sets the module's
/// `dist.cluster` to the tasks used, the default task's job first.
llvm::LogicalResult setClusterFromPlacement(mlir::ModuleOp module,
                                            mlir::func::FuncOp entry,
                                            dist::DeviceAttr defaultTask,
                                            llvm::StringRef strategy);

//===----------------------------------------------------------------------===//
// Building blocks the strategies share
//===----------------------------------------------------------------------===//

/// Ops computed element by element with NumPy broadcasting (unary, binary,
/// select, cast, ...): result element i depends only on element i of each
/// operand (broadcast).
bool isElementwise(mlir::Operation *op);

/// The `tensor-parallel` strategy (lib/Transforms/TensorParallel.cpp).
std::unique_ptr<PlacementStrategy> createTensorParallelStrategy();

/// The `given` strategy's work: honours the model's `dist.device`s (filled
/// from `defaultTask`), its colocation groups, puts an unplaced op with its
/// operands and everything else on `defaultTask`.
llvm::LogicalResult placeAsGiven(mlir::ModuleOp module,
                                 mlir::func::FuncOp entry,
                                 dist::DeviceAttr defaultTask);

/// Rewrites `entry` into the step of one of `replicas` replicas: batched
/// inputs (dimension 0 equal to the first input's) are split with
/// `dist.replica_split`, result types are re-derived op by op through an
/// allowlist of row-independent ops, batched results are joined with
/// `dist.replica_concat`, and the function gets `dist.replicas`. Places the
/// step on `/job:<job>` (replicated), the inputs and outputs on
/// `/job:<job>/task:0`, variables replicated. Emits and fails, naming the
/// op, when an op mixes batch rows.
llvm::LogicalResult rewriteForReplicas(mlir::ModuleOp module,
                                       mlir::func::FuncOp entry,
                                       int64_t replicas, llvm::StringRef job);

/// rewriteForReplicas' analysis and rewrite for `slices` slices of the
/// batch, whatever runs them: the entry becomes the step of one slice with
/// `dist.replica_split` / `dist.replica_concat` / `dist.replica_all_reduce`
/// placeholders and `dist.replicas = slices` (even for one slice), placed as
/// rewriteForReplicas places it. Diagnostics start with `prefix`
/// ("dist-place: replicas=2") and call the slices `unit` ("replicas").
llvm::LogicalResult rewriteForBatchSlices(mlir::ModuleOp module,
                                          mlir::func::FuncOp entry,
                                          int64_t slices, llvm::StringRef job,
                                          llvm::StringRef prefix,
                                          llvm::StringRef unit);

/// The `pipeline` strategy (PipelineStrategy.cpp).
std::unique_ptr<PlacementStrategy> createPipelineStrategy();

} // namespace graphc::transforms

#endif // GRAPHC_TRANSFORMS_PLACEMENT_H
