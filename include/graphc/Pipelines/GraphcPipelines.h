//===- GraphcPipelines.h - the named pipelines graphc runs -------*- C++
//-*-===//
//
// graphc's stages (docs/design/distribution.md, "Stages") are these
// pipelines, in order; `graphc --emit=STAGE` stops after one and
// `graph-opt --pass-pipeline=...` replays each (test/Pipelines/replay.test):
//
//   import -> graphc-graph [-> graphc-train] -> graphc-dist
//          -> graphc-task-lowering -> graphc-task-codegen
//          -> (lib/Bundle writes the files)
//
//===----------------------------------------------------------------------===//

#ifndef GRAPHC_PIPELINES_GRAPHCPIPELINES_H
#define GRAPHC_PIPELINES_GRAPHCPIPELINES_H

#include "graphc/Pipelines/CpuCodegen.h"

#include <cstdint>
#include <string>
#include <vector>

namespace mlir {
class OpPassManager;
} // namespace mlir

namespace graphc {

/// `graphc-graph`: shapes inferred, canonicalized.
struct GraphPipelineOptions {
  /// The function whose arguments `argShapes` fixes.
  std::string entry = "main";
  /// INDEX:DxDx... per argument of `entry` (graphc --input-shape on .mlir).
  std::vector<std::string> argShapes;
  /// Compile a dynamic leading dimension of the entry's inputs as a loop
  /// over a one-sample body (graph-dynamic-batch,
  /// docs/design/dynamic-batch.md). Off for what needs a static batch
  /// (training, replicas, pipelines), whose own errors then name the input.
  bool dynamicBatch = false;
  /// With dynamicBatch: also compile the entry at this many samples, for
  /// the step's full chunks (graph-dynamic-batch chunk=); 1: the one-sample
  /// body only (targets whose task glue takes one run function).
  int64_t dynamicBatchChunk = 8;
};
void buildGraphPipeline(mlir::OpPassManager &pm,
                        const GraphPipelineOptions &options);

/// `graphc-train` (graphc --train): the model's weights as variables, a
/// loss on its output, gradients, optimizer updates
/// (docs/design/training.md). Part of the graph stage.
struct TrainPipelineOptions {
  /// The step function.
  std::string entry = "main";
  /// softmax_cross_entropy or mse.
  std::string loss = "softmax_cross_entropy";
  /// The name of the labels input the loss adds.
  std::string labels = "labels";
  /// The model output the loss is applied to.
  int64_t output = 0;
  /// sgd, momentum or adam, with PyTorch 1.13's arithmetic.
  std::string optimizer = "sgd";
  double lr = 0.01;
  double momentum = 0.9;
  double beta1 = 0.9;
  double beta2 = 0.999;
  double epsilon = 1e-8;
  /// The step also returns every updated weight, named after it.
  bool returnWeights = false;
  /// Batch normalisation with the statistics of the batch ("batch", as
  /// PyTorch trains) or the model's running statistics ("running").
  std::string batchNorm = "batch";
  /// Mixed precision: "" (f32 throughout), "bf16" or "f16" compute with f32
  /// master weights (graph-mixed-precision).
  std::string mixedPrecision;
  /// Round to the low precision around f32 arithmetic instead of computing
  /// in it (graph-mixed-precision's emulate; the CPU target).
  bool emulateLowPrecision = false;
  /// Static loss scale (graph-autodiff's loss-scale).
  double lossScale = 1.0;
};
void buildTrainPipeline(mlir::OpPassManager &pm,
                        const TrainPipelineOptions &options);

/// `graphc-dist`: weights as variables, placement, one dist.task per task.
struct DistPipelineOptions {
  /// graph-hoist-weights' threshold in bytes (negative: keep all inline).
  int64_t weightsThreshold = 4096;
  /// dist-place: `given` (the model's placements), `replicas`, `ps` or
  /// `auto`.
  /// `pipeline`.
  std::string strategy = "given";
  /// Replicas of the step (replicas, ps).
  int64_t replicas = 1;
  /// Parameter-server tasks (ps).
  int64_t psTasks = 1;
  /// auto: the tasks its candidates may use (0: the machine model's
  /// shared_cores, else 4) and the machine-model file ("": built-in).
  int64_t workers = 0;
  std::string machineModel;
  /// Tasks each split weight is spread over (tensor-parallel).
  int64_t tensorParallel = 1;
  /// Pipeline stages and GPipe microbatches per step (pipeline; 0
  /// microbatches: one per stage).
  int64_t pipelineStages = 1;
  int64_t microbatches = 0;
  /// The task that fills partial placements and takes unplaced ops.
  std::string defaultDevice = "/job:worker/task:0";
  /// The function to place and partition ("": the only public one, or main).
  std::string entry;
  /// dist-fuse-collectives: the largest fused all-reduce, in bytes.
  int64_t bucketBytes = 4 * 1024 * 1024;
  /// dist-overlap-collectives: all-reduces started early and waited on at
  /// their first use (graphc --overlap-collectives).
  bool overlapCollectives = true;
  /// graphc-cpu-prepack-conv-filters before the weights are hoisted: the
  /// direct-conv classes (graphc --direct-conv) whose constant filters are
  /// stored in the CPU kernel's packed layout ("": none, the default; graphc
  /// sets it for --target=cpu), blocked for this many f32 lanes (0: the
  /// host's).
  std::string prepackConvFilters;
  int64_t prepackVectorWidth = 0;
};
void buildDistPipeline(mlir::OpPassManager &pm,
                       const DistPipelineOptions &options);

/// `graphc-task-lowering`: one nested module per task, linalg on tensors
/// inside, communication as calls through the services table.
struct TaskLoweringOptions {
  /// The entry function of a module without dist.task ops.
  std::string entry = "main";
};
void buildTaskLoweringPipeline(mlir::OpPassManager &pm,
                               const TaskLoweringOptions &options);

/// `graphc-task-codegen`: every task module in the LLVM dialect with its
/// graphrt descriptor.
struct TaskCodegenOptions {
  CpuCodegenOptions cpu;
};
void buildTaskCodegenPipeline(mlir::OpPassManager &pm,
                              const TaskCodegenOptions &options);

/// Registers the five pipelines with the global registry (graph-opt).
void registerGraphcPipelines();

} // namespace graphc

#endif // GRAPHC_PIPELINES_GRAPHCPIPELINES_H
