//===- GraphcPipelines.cpp - graphc-graph, -dist, -task-lowering, -codegen ===//

#include "graphc/Pipelines/GraphcPipelines.h"

#include "CpuCodegenPipelineOptions.h"
#include "CpuPasses.h"

#include "graph/Passes.h"
#include "graphc/Autodiff/Passes.h"
#include "graphc/Conversion/Passes.h"
#include "graphc/Transforms/Passes.h"
#include "graphc/Transforms/Placement.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassOptions.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Transforms/Passes.h"

using namespace mlir;

namespace graphc {

void buildGraphPipeline(OpPassManager &pm,
                        const GraphPipelineOptions &options) {
  // Shapes first: the canonicalizer's folds need static types to fire, and
  // the user's --input-shape fixes a dynamic batch here.
  graph::GraphInferShapesOptions infer;
  if (!options.argShapes.empty()) {
    infer.entry = options.entry;
    infer.argShapes.assign(options.argShapes.begin(), options.argShapes.end());
  }
  pm.addPass(graph::createGraphInferShapes(infer));
  // A batch still dynamic after --input-shape: one bundle for every batch
  // size, its body compiled for one sample and made static by inference.
  if (options.dynamicBatch) {
    graph::GraphDynamicBatchOptions batch;
    batch.entry = options.entry;
    batch.chunk = options.dynamicBatchChunk;
    pm.addPass(graph::createGraphDynamicBatch(batch));
    pm.addPass(graph::createGraphInferShapes());
  }
  // Folds and simplifications on the graph (identity, reshape chains,
  // constant subgraphs).
  pm.addPass(createCanonicalizerPass());
  // Canonicalization can expose further static shapes (folded reshapes).
  pm.addPass(graph::createGraphInferShapes());
}

void buildTrainPipeline(OpPassManager &pm,
                        const TrainPipelineOptions &options) {
  // Every non-splat float constant is a weight to train, however small (a
  // bias of ten floats is still a parameter): threshold 0.
  graph::GraphHoistWeightsOptions hoist;
  hoist.threshold = 0;
  pm.addPass(graph::createGraphHoistWeights(hoist));
  // The model's output becomes the scalar loss, with the labels as a new
  // input.
  GraphAddLossOptions loss;
  loss.kind = options.loss;
  loss.labels = options.labels;
  loss.output = options.output;
  loss.entry = options.entry;
  pm.addPass(createGraphAddLoss(loss));
  // PyTorch trains batch normalisation with the batch's statistics and
  // keeps running ones for inference.
  if (options.batchNorm == "batch") {
    GraphBatchNormTrainOptions batchNorm;
    batchNorm.entry = options.entry;
    pm.addPass(createGraphBatchNormTrain(batchNorm));
  }
  // bf16/f16 compute with f32 master weights: the forward pass only, so
  // that graph-autodiff gives the backward pass the same precisions.
  if (!options.mixedPrecision.empty()) {
    GraphMixedPrecisionOptions mixed;
    mixed.precision = options.mixedPrecision;
    mixed.emulate = options.emulateLowPrecision;
    pm.addPass(createGraphMixedPrecision(mixed));
  }
  // d loss / d weight for every trained variable, as grad/NAME results.
  GraphAutodiffOptions autodiff;
  autodiff.wrt = "variables";
  autodiff.lossScale = options.lossScale;
  pm.addPass(createGraphAutodiff(autodiff));
  // The gradients become updates of the weights and optimizer slots.
  GraphApplyOptimizerOptions optimizer;
  optimizer.optimizer = options.optimizer;
  optimizer.lr = options.lr;
  optimizer.momentum = options.momentum;
  optimizer.beta1 = options.beta1;
  optimizer.beta2 = options.beta2;
  optimizer.epsilon = options.epsilon;
  optimizer.returnWeights = options.returnWeights;
  pm.addPass(createGraphApplyOptimizer(optimizer));
  // The backward pass leaves reshapes of reshapes, splat arithmetic and
  // duplicate reads for the canonicalizer and CSE.
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createCSEPass());
}

void buildDistPipeline(OpPassManager &pm, const DistPipelineOptions &options) {
  // A constant weight of a transpose_rhs matmul (Gemm transB=1, nn.Linear)
  // is stored transposed once here instead of transposed every step. Trained
  // weights are variables by now and keep their model's layout.
  pm.addPass(graph::createGraphPretransposeWeights());
  // Constant filters of the CPU's direct convolution kernel are stored in
  // its packed layout once here instead of re-laid out every step
  // (docs/design/conv-codegen.md, "Filters packed at compile time"); only
  // those that become variables next (smaller ones stay constants, which
  // the kernel packs at compile time itself).
  if (!options.prepackConvFilters.empty() && options.weightsThreshold >= 0) {
    CpuPrepackConvFiltersOptions prepack;
    prepack.convs_ = options.prepackConvFilters;
    prepack.vectorWidth = options.prepackVectorWidth;
    prepack.minBytes = options.weightsThreshold;
    pm.addPass(createCpuPrepackConvFilters(prepack));
  }
  // Weights become module-level variables before placement, so that
  // placement can move them (parameter servers, replicas) like trained
  // variables, and the bundle writer puts their bytes in weights files
  // instead of the task's code.
  graph::GraphHoistWeightsOptions hoist;
  hoist.threshold = options.weightsThreshold;
  pm.addPass(graph::createGraphHoistWeights(hoist));
  // Where everything runs: annotations only (and, for replicas, the
  // per-replica shapes and cross-replica placeholders).
  DistPlaceOptions place;
  place.strategy = options.strategy;
  place.replicas = options.replicas;
  place.psTasks = options.psTasks;
  place.workers = options.workers;
  place.machineModel = options.machineModel;
  place.tensorParallel = options.tensorParallel;
  place.pipelineStages = options.pipelineStages;
  place.microbatches = options.microbatches;
  place.defaultDevice = options.defaultDevice;
  place.entry = options.entry;
  pm.addPass(createDistPlace(place));
  // The tasks, then fewer, larger all-reduces (what strategy=auto runs on
  // each candidate too).
  transforms::buildPostPlacementPasses(pm, options.entry, options.bucketBytes,
                                       options.overlapCollectives);
}

void buildTaskLoweringPipeline(OpPassManager &pm,
                               const TaskLoweringOptions &options) {
  // Each task becomes its own module with graphc_task_run over memrefs, its
  // signature as attributes and communication as service calls; done first
  // and at graph level, so that every later pass sees one task at a time.
  ConvertDistToRuntimeOptions toRuntime;
  toRuntime.entry = options.entry;
  pm.addPass(createConvertDistToRuntime(toRuntime));
  OpPassManager &task = pm.nest<ModuleOp>();
  // The task's graph ops to linalg on tensors, task by task.
  task.addPass(createConvertGraphToLinalg());
  // Helper functions a task does not call were copied into it anyway.
  task.addPass(createSymbolDCEPass());
  // Fold the casts and constants the conversions leave, so that --emit=linalg
  // shows what the CPU pipeline starts from.
  task.addPass(createCanonicalizerPass());
}

void buildTaskCodegenPipeline(OpPassManager &pm,
                              const TaskCodegenOptions &options) {
  // Every task module is lowered on its own by the CPU pipeline: each
  // becomes one shared object, and tasks are independent (parallel).
  OpPassManager &task = pm.nest<ModuleOp>();
  buildCpuCodegenPipeline(task, options.cpu);
  // Then the runtime's view of it: descriptor global and step function,
  // from the module's signature, channel and group attributes.
  task.addPass(createGraphrtTaskDescriptor());
}

namespace {

struct GraphPipelineCL : PassPipelineOptions<GraphPipelineCL> {
  Option<std::string> entry{*this, "entry",
                            llvm::cl::desc("function arg-shapes refers to"),
                            llvm::cl::init("main")};
  ListOption<std::string> argShapes{
      *this, "arg-shapes",
      llvm::cl::desc("INDEX:DxDx... per argument of the entry")};
  Option<bool> dynamicBatch{
      *this, "dynamic-batch",
      llvm::cl::desc("a dynamic leading dimension becomes a loop over one "
                     "sample (graph-dynamic-batch)"),
      llvm::cl::init(false)};
  Option<int64_t> dynamicBatchChunk{
      *this, "dynamic-batch-chunk",
      llvm::cl::desc("with dynamic-batch: also a body at this many samples "
                     "for the step's full chunks (1: none)"),
      llvm::cl::init(8)};
};

struct TrainPipelineCL : PassPipelineOptions<TrainPipelineCL> {
  Option<std::string> entry{*this, "entry", llvm::cl::desc("step function"),
                            llvm::cl::init("main")};
  Option<std::string> loss{*this, "loss",
                           llvm::cl::desc("softmax_cross_entropy or mse"),
                           llvm::cl::init("softmax_cross_entropy")};
  Option<std::string> labels{*this, "labels",
                             llvm::cl::desc("name of the labels input"),
                             llvm::cl::init("labels")};
  Option<int64_t> output{*this, "output",
                         llvm::cl::desc("model output the loss applies to"),
                         llvm::cl::init(0)};
  Option<std::string> optimizer{*this, "optimizer",
                                llvm::cl::desc("sgd, momentum or adam"),
                                llvm::cl::init("sgd")};
  Option<double> lr{*this, "lr", llvm::cl::desc("learning rate"),
                    llvm::cl::init(0.01)};
  Option<double> momentum{*this, "momentum", llvm::cl::desc("momentum"),
                          llvm::cl::init(0.9)};
  Option<double> beta1{*this, "beta1", llvm::cl::desc("Adam's beta1"),
                       llvm::cl::init(0.9)};
  Option<double> beta2{*this, "beta2", llvm::cl::desc("Adam's beta2"),
                       llvm::cl::init(0.999)};
  Option<double> epsilon{*this, "epsilon", llvm::cl::desc("Adam's eps"),
                         llvm::cl::init(1e-8)};
  Option<bool> returnWeights{
      *this, "return-weights",
      llvm::cl::desc("the step also returns every updated weight"),
      llvm::cl::init(false)};
  Option<std::string> batchNorm{
      *this, "batch-norm",
      llvm::cl::desc("batch normalisation statistics: batch or running"),
      llvm::cl::init("batch")};
  Option<std::string> mixedPrecision{
      *this, "mixed-precision",
      llvm::cl::desc("compute precision with f32 master weights: bf16 or f16 "
                     "(empty: f32)"),
      llvm::cl::init("")};
  Option<bool> emulateLowPrecision{
      *this, "emulate-low-precision",
      llvm::cl::desc("round to the low precision around f32 arithmetic"),
      llvm::cl::init(false)};
  Option<double> lossScale{*this, "loss-scale",
                           llvm::cl::desc("static loss scale"),
                           llvm::cl::init(1.0)};
};

struct DistPipelineCL : PassPipelineOptions<DistPipelineCL> {
  Option<int64_t> weightsThreshold{
      *this, "weights-threshold",
      llvm::cl::desc("constants of at least this many bytes become variables "
                     "(negative: none)"),
      llvm::cl::init(4096)};
  Option<std::string> strategy{
      *this, "strategy",
      llvm::cl::desc(
          "placement: given, replicas, ps, pipeline, tensor-parallel or auto"),
      llvm::cl::init("given")};
  Option<int64_t> replicas{*this, "replicas",
                           llvm::cl::desc("replicas of the step"),
                           llvm::cl::init(1)};
  Option<int64_t> psTasks{*this, "ps-tasks",
                          llvm::cl::desc("parameter-server tasks"),
                          llvm::cl::init(1)};
  Option<int64_t> workers{
      *this, "workers",
      llvm::cl::desc("auto: tasks the candidates may use (0: the machine "
                     "model's shared_cores, else 4)"),
      llvm::cl::init(0)};
  Option<std::string> machineModel{
      *this, "machine-model",
      llvm::cl::desc("auto: machine-model JSON of the estimates"),
      llvm::cl::init("")};
  Option<int64_t> tensorParallel{
      *this, "tensor-parallel",
      llvm::cl::desc("tasks each weight is split over (tensor-parallel)"),
      llvm::cl::init(1)};
  Option<int64_t> pipelineStages{*this, "pipeline-stages",
                                 llvm::cl::desc("pipeline stages"),
                                 llvm::cl::init(1)};
  Option<int64_t> microbatches{
      *this, "microbatches",
      llvm::cl::desc("GPipe microbatches per step (0: one per stage)"),
      llvm::cl::init(0)};
  Option<std::string> defaultDevice{
      *this, "default-device",
      llvm::cl::desc("task of unplaced ops and partial placements"),
      llvm::cl::init("/job:worker/task:0")};
  Option<std::string> entry{*this, "entry",
                            llvm::cl::desc("function to place and partition"),
                            llvm::cl::init("")};
  Option<int64_t> bucketBytes{*this, "bucket-bytes",
                              llvm::cl::desc("largest fused all-reduce"),
                              llvm::cl::init(4 * 1024 * 1024)};
  Option<bool> overlapCollectives{
      *this, "overlap-collectives",
      llvm::cl::desc("start all-reduces early, wait at first use"),
      llvm::cl::init(true)};
  Option<std::string> prepackConvFilters{
      *this, "prepack-conv-filters",
      llvm::cl::desc("direct-conv classes whose constant filters are stored "
                     "packed (\"\": none)"),
      llvm::cl::init("")};
  Option<int64_t> prepackVectorWidth{
      *this, "prepack-vector-width",
      llvm::cl::desc("f32 lanes the packed filters are blocked for (0: the "
                     "host's)"),
      llvm::cl::init(0)};
};

struct TaskLoweringCL : PassPipelineOptions<TaskLoweringCL> {
  Option<std::string> entry{
      *this, "entry",
      llvm::cl::desc("entry function of a module without dist.task ops"),
      llvm::cl::init("main")};
};

} // namespace

void registerGraphcPipelines() {
  PassPipelineRegistration<GraphPipelineCL>(
      "graphc-graph",
      "graphc's graph stage: shapes inferred, canonicalized, inferred again",
      [](OpPassManager &pm, const GraphPipelineCL &cl) {
        GraphPipelineOptions options;
        options.entry = cl.entry;
        options.argShapes.assign(cl.argShapes.begin(), cl.argShapes.end());
        options.dynamicBatch = cl.dynamicBatch;
        options.dynamicBatchChunk = cl.dynamicBatchChunk;
        buildGraphPipeline(pm, options);
      });
  PassPipelineRegistration<TrainPipelineCL>(
      "graphc-train",
      "graphc --train: weights as variables, the loss, its gradients and "
      "the optimizer's updates (docs/design/training.md)",
      [](OpPassManager &pm, const TrainPipelineCL &cl) {
        TrainPipelineOptions options;
        options.entry = cl.entry;
        options.loss = cl.loss;
        options.labels = cl.labels;
        options.output = cl.output;
        options.optimizer = cl.optimizer;
        options.lr = cl.lr;
        options.momentum = cl.momentum;
        options.beta1 = cl.beta1;
        options.beta2 = cl.beta2;
        options.epsilon = cl.epsilon;
        options.returnWeights = cl.returnWeights;
        options.batchNorm = cl.batchNorm;
        options.mixedPrecision = cl.mixedPrecision;
        options.lossScale = cl.lossScale;
        options.emulateLowPrecision = cl.emulateLowPrecision;
        buildTrainPipeline(pm, options);
      });
  PassPipelineRegistration<DistPipelineCL>(
      "graphc-dist",
      "graphc's dist stage: weights as variables, placement, one dist.task "
      "per task",
      [](OpPassManager &pm, const DistPipelineCL &cl) {
        DistPipelineOptions options;
        options.weightsThreshold = cl.weightsThreshold;
        options.strategy = cl.strategy;
        options.replicas = cl.replicas;
        options.psTasks = cl.psTasks;
        options.workers = cl.workers;
        options.machineModel = cl.machineModel;
        options.tensorParallel = cl.tensorParallel;
        options.pipelineStages = cl.pipelineStages;
        options.microbatches = cl.microbatches;
        options.defaultDevice = cl.defaultDevice;
        options.entry = cl.entry;
        options.bucketBytes = cl.bucketBytes;
        options.overlapCollectives = cl.overlapCollectives;
        options.prepackConvFilters = cl.prepackConvFilters;
        options.prepackVectorWidth = cl.prepackVectorWidth;
        buildDistPipeline(pm, options);
      });
  PassPipelineRegistration<TaskLoweringCL>(
      "graphc-task-lowering",
      "graphc's linalg stage: one nested module per task over memrefs, "
      "linalg on tensors inside, communication as service calls",
      [](OpPassManager &pm, const TaskLoweringCL &cl) {
        TaskLoweringOptions options;
        options.entry = cl.entry;
        buildTaskLoweringPipeline(pm, options);
      });
  PassPipelineRegistration<CpuCodegenPipelineOptions>(
      "graphc-task-codegen",
      "graphc's llvm stage: every task module through graphc-cpu-codegen, "
      "then its graphrt descriptor and step function",
      [](OpPassManager &pm, const CpuCodegenPipelineOptions &cl) {
        TaskCodegenOptions options;
        options.cpu = cl.options();
        buildTaskCodegenPipeline(pm, options);
      });
}

} // namespace graphc
