//===- graphc.cpp - the graphc compiler driver ----------------------------===//
//
// graphc INPUT [-o OUTPUT] [--emit=STAGE]: reads a model, runs the named
// pipelines (graphc/Pipelines/GraphcPipelines.h) up to STAGE and writes the
// result. Flags live here only; the libraries take options structs.
//
//===----------------------------------------------------------------------===//

#include "graphc/Analysis/DistReport.h"
#include "graphc/Analysis/MachineModel.h"
#include "graphc/Analysis/Planning.h"
#include "graphc/Bundle/JobBundle.h"
#include "graphc/Conversion/Passes.h"
#include "graphc/Import/Importers.h"
#include "graphc/Import/ModelFormat.h"
#include "graphc/Import/SupportedOps.h"
#include "graphc/InitAll.h"
#include "graphc/Pipelines/CpuCodegen.h"
#include "graphc/Pipelines/CudaCodegen.h"
#include "graphc/Pipelines/GraphcPipelines.h"
#include "graphc/Target/CPU/CpuTarget.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/AsmState.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Support/FileUtilities.h"
#include "mlir/Support/Timing.h"
#include "mlir/Support/ToolUtilities.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/ToolOutputFile.h"

#include <cmath>

using namespace mlir;
namespace cl = llvm::cl;

namespace {

// Dot is the dist stage drawn as Graphviz; it sits right after Dist.
// Stablehlo is the TPU target's stage after Dist (instead of Linalg..Obj).
// Gpu and Ptx exist for --target=cuda only, between linalg and llvm.
enum class EmitStage {
  Import,
  Graph,
  Dist,
  Dot,
  Stablehlo,
  Linalg,
  Gpu,
  Ptx,
  LLVM,
  Obj,
  Job
};
enum class Target { Cpu, Cuda, Stablehlo };

cl::OptionCategory graphcCategory("graphc options");

// Required, except with --print-op-table (checked in main).
cl::opt<std::string> inputFilename(cl::Positional, cl::desc("<model>"),
                                   cl::cat(graphcCategory));
cl::opt<std::string> outputFilename(
    "o",
    cl::desc("Output file ('-' for stdout, the default), or the bundle "
             "directory for --emit=job"),
    cl::value_desc("file"), cl::init(""), cl::cat(graphcCategory));
cl::opt<EmitStage> emit(
    "emit",
    cl::desc("Stage to stop at and write (default: job, or graph when the "
             "output is stdout or a .mlir file)"),
    cl::init(EmitStage::Job),
    cl::values(clEnumValN(EmitStage::Import, "import",
                          "graph dialect as the importer built it (every "
                          "node's op, device and location kept)"),
               clEnumValN(EmitStage::Graph, "graph",
                          "graph dialect after shape inference and "
                          "canonicalization"),
               clEnumValN(EmitStage::Dist, "dist",
                          "weights as graph.variables, placed and "
                          "partitioned into dist.tasks (graphc-dist)"),
               clEnumValN(EmitStage::Dot, "dot",
                          "the partitioned job as a Graphviz graph: tasks "
                          "as clusters, cut edges labelled with bytes"),
               clEnumValN(EmitStage::Stablehlo, "stablehlo",
                          "--target=tpu: each task's StableHLO module, @main "
                          "over inputs and variables (graph-to-stablehlo)"),
               clEnumValN(EmitStage::Linalg, "linalg",
                          "one nested module per task: graphc_task_run over "
                          "memrefs, linalg on tensors, communication as "
                          "service calls (graphc-task-lowering)"),
               clEnumValN(EmitStage::Gpu, "gpu",
                          "--target=cuda: every task's kernels outlined "
                          "into gpu.modules, its host side on gpu ops and "
                          "task glue calls (graphc-cuda-gpu)"),
               clEnumValN(EmitStage::Ptx, "ptx",
                          "--target=cuda: the PTX of every kernel module"),
               clEnumValN(EmitStage::LLVM, "llvm",
                          "every task in the LLVM dialect, with its graphrt "
                          "descriptor (graphc-task-codegen)"),
               clEnumValN(EmitStage::Obj, "obj",
                          "the object file of a one-task job"),
               clEnumValN(EmitStage::Job, "job",
                          "a job bundle directory (manifest.json, one .so "
                          "per task, weights)")),
    cl::cat(graphcCategory));
cl::opt<Target> target(
    "target", cl::desc("Target of the compiled job"), cl::init(Target::Cpu),
    cl::values(clEnumValN(Target::Cpu, "cpu", "the host CPU (OpenMP threads)"),
               clEnumValN(Target::Cuda, "cuda",
                          "NVIDIA GPUs: sm_90 kernels, cuBLASLt GEMMs, "
                          "through the runtime's GPU services "
                          "(docs/user/gpu.md)"),
               clEnumValN(Target::Stablehlo, "tpu",
                          "StableHLO modules for XLA/PJRT "
                          "(TPU; any PJRT plugin)"),
               clEnumValN(Target::Stablehlo, "stablehlo", "alias of tpu")),
    cl::cat(graphcCategory));
cl::opt<int64_t> weightsThreshold(
    "weights-threshold",
    cl::desc("Constants of at least this many bytes become runtime-owned "
             "variables read from weights files; smaller ones stay in the "
             ".so (-1: keep all in the .so)"),
    cl::init(4096), cl::cat(graphcCategory));
cl::opt<int64_t> replicas(
    "replicas",
    cl::desc("Run the step as N data-parallel replicas, one task each, the "
             "batch split between them (dist-place strategy=replicas)"),
    cl::init(1), cl::cat(graphcCategory));
cl::opt<int64_t> psTasks(
    "ps-tasks",
    cl::desc("Hold the variables on N parameter-server tasks, balanced by "
             "bytes, compute on the worker(s) (dist-place strategy=ps)"),
    cl::init(0), cl::cat(graphcCategory));
cl::opt<int64_t> tensorParallel(
    "tensor-parallel",
    cl::desc("Split the model's matmul weights Megatron-style over T tasks "
             "(one all-reduce per MLP or attention block; with --replicas R, "
             "R*T tasks) (dist-place strategy=tensor-parallel)"),
    cl::init(1), cl::cat(graphcCategory));
cl::opt<int64_t> bucketBytes(
    "bucket-bytes",
    cl::desc("The largest fused all-reduce (a gradient bucket under "
             "--replicas), in bytes (default 4 MiB); smaller buckets start "
             "earlier in the backward pass"),
    cl::init(4 * 1024 * 1024), cl::cat(graphcCategory));
cl::opt<bool> overlapCollectives(
    "overlap-collectives",
    cl::desc("Start each all-reduce (a gradient bucket under --replicas) as "
             "soon as its input exists and wait on it only where its result "
             "is first used, so that it runs on the runtime's communication "
             "thread while the step computes (default on; "
             "--overlap-collectives=false: every collective blocks where it "
             "stands)"),
    cl::init(true), cl::cat(graphcCategory));
cl::opt<int64_t> pipelineStages(
    "pipeline-stages",
    cl::desc("Cut the step into N pipeline stages, one task each, balanced "
             "by the cost model (dist-place strategy=pipeline); with "
             "--replicas R, R copies of the N stages"),
    cl::init(1), cl::cat(graphcCategory));
cl::opt<int64_t> microbatches(
    "microbatches",
    cl::desc("GPipe microbatches per step for --pipeline-stages: the batch "
             "is cut into M slices the stages work on in turn (default: one "
             "per stage)"),
    cl::init(0), cl::cat(graphcCategory));
cl::opt<std::string> strategyName(
    "strategy",
    cl::desc("Placement strategy: given, replicas, ps, pipeline, "
             "tensor-parallel or auto (default: from --pipeline-stages, "
             "--tensor-parallel, --ps-tasks, --replicas, else given); a "
             "flag the strategy would ignore is an error"),
    cl::init(""), cl::cat(graphcCategory));
cl::opt<int64_t>
    workers("workers",
            cl::desc("--strategy=auto: the tasks the job may use (default: the "
                     "machine model's shared_cores, else 4)"),
            cl::init(0), cl::cat(graphcCategory));
cl::list<int64_t> simulateReplicas(
    "simulate-replicas",
    cl::desc("Predict the data-parallel step and its scaling efficiency for "
             "each replica count (e.g. 1,2,4,8) on --machine-model, without "
             "building those jobs"),
    cl::CommaSeparated, cl::value_desc("R,R,..."), cl::cat(graphcCategory));
cl::opt<std::string> simulateScaling(
    "simulate-scaling",
    cl::desc("--simulate-replicas: strong (the model's batch split over the "
             "replicas, as --replicas does; the default) or weak (every "
             "replica computes the model's batch)"),
    cl::init("strong"), cl::cat(graphcCategory));
cl::opt<std::string> simulateStrategy(
    "simulate-strategy",
    cl::desc("--simulate-replicas: the strategy simulated: replicas (the "
             "default: each count is R data-parallel replicas), pipeline or "
             "tensor-parallel (each count is W workers: one W-stage or "
             "W-shard job, or W/K replicas of K with --pipeline-stages K or "
             "--tensor-parallel K; --microbatches M)"),
    cl::init("replicas"), cl::cat(graphcCategory));
cl::opt<std::string>
    defaultDevice("default-device",
                  cl::desc("The task of ops the model does not place"),
                  cl::init("/job:worker/task:0"), cl::cat(graphcCategory));
cl::opt<std::string> reportFile(
    "report",
    cl::desc("Write the static communication report of the partitioned job "
             "as JSON to FILE ('-': stdout) and print its table on stderr"),
    cl::value_desc("file.json"), cl::init(""), cl::cat(graphcCategory));
cl::opt<std::string> machineModelFile(
    "machine-model",
    cl::desc("The machine the report's step-time estimate is for (JSON: "
             "FLOP/s, memory and link bandwidth, latency); default: the "
             "built-in model measured on a build machine"),
    cl::value_desc("file.json"), cl::init(""), cl::cat(graphcCategory));
cl::opt<bool> noOpenmp("no-openmp",
                       cl::desc("Single-threaded code that needs no libomp"),
                       cl::init(false), cl::cat(graphcCategory));
cl::opt<std::string> directConv(
    "direct-conv",
    cl::desc("CPU: give 2-D f32 convolutions of these classes the direct "
             "(im2col-free) kernel instead of im2col + GEMM: all, or a "
             "comma-separated list of 3x3, 1x1, strided, other, wgrad (filter "
             "gradients), or none (default: 3x3,strided,1x1,wgrad; "
             "docs/design/cpu-codegen.md, \"Direct convolution\")"),
    cl::value_desc("classes"), cl::init("3x3,strided,1x1,wgrad"),
    cl::cat(graphcCategory));
cl::opt<bool> prepareWeights(
    "prepare-weights",
    cl::desc("CPU: compute what depends only on read-only weights (the "
             "direct kernels' filter re-layout) once, when the runtime loads "
             "the task, instead of every step (default on; "
             "--prepare-weights=false for comparisons)"),
    cl::init(true), cl::cat(graphcCategory));
cl::opt<std::string> targetCpu(
    "mcpu",
    cl::desc("Generate CPU tasks for this CPU instead of the host: an LLVM "
             "CPU name (x86-64-v3, x86-64-v4, znver4, sapphirerapids, ...; "
             "`llc-22 -mcpu=help` lists them). Vector width and register "
             "tiles follow it; the bundle runs on that CPU and newer ones"),
    cl::value_desc("cpu"), cl::init(""), cl::cat(graphcCategory));
cl::opt<unsigned> codegenThreads(
    "j",
    cl::desc("Threads that optimise and generate the code of a task's "
             "parts at once (default 0: one per hardware thread); the "
             "output is the same whatever N"),
    cl::value_desc("N"), cl::init(0), cl::Prefix, cl::cat(graphcCategory));
cl::alias codegenThreadsLong("codegen-threads", cl::desc("Alias for -j"),
                             cl::aliasopt(codegenThreads),
                             cl::cat(graphcCategory));
cl::opt<bool> verifyEach(
    "verify-each",
    cl::desc("Verify the IR after every pass (default: once at the end of "
             "each pipeline; the verifier walks the whole module, which "
             "after every pass of a large model costs seconds)"),
    cl::init(false), cl::cat(graphcCategory));
cl::opt<unsigned> codegenPartSize(
    "codegen-part-size",
    cl::desc("LLVM instructions per code generation part (0: one part); the "
             "parts, not -j, decide the output"),
    cl::init(graphc::CpuTargetOptions().instructionsPerPart), cl::Hidden,
    cl::cat(graphcCategory));
cl::list<std::string> inputShapes(
    "input-shape",
    cl::desc("Fix the shape of an input: NAME:DxDx... for imported models, "
             "INDEX:DxDx... for .mlir (repeatable, `?` keeps a dim dynamic)"),
    cl::value_desc("name:shape"), cl::cat(graphcCategory));
cl::opt<int64_t> batchSize(
    "batch",
    cl::desc("Imported models: every input's unknown leading dimension "
             "becomes N (a TensorFlow Placeholder without a rank takes one "
             "from its uses); an input still without a static shape is an "
             "error naming the --input-shape to add. --input-shape wins"),
    cl::value_desc("N"), cl::init(0), cl::cat(graphcCategory));
cl::list<std::string> frozenInputs(
    "freeze-input",
    cl::desc("ONNX: make input NAME a constant holding the TensorProto in "
             "FILE.pb, so a value that fixes shapes (axes, a target shape, "
             "pads) is known at compile time (repeatable)"),
    cl::value_desc("name=file.pb"), cl::cat(graphcCategory));
cl::list<std::string>
    inputNames("inputs",
               cl::desc("Inputs of the imported subgraph: NAME[:SHAPE],..."),
               cl::CommaSeparated, cl::cat(graphcCategory));
cl::list<std::string>
    outputNames("outputs",
                cl::desc("Outputs of the imported subgraph: NAME,..."),
                cl::CommaSeparated, cl::cat(graphcCategory));
cl::opt<std::string>
    trainOp("train-op",
            cl::desc("TensorFlow training graphs: the op that runs one "
                     "step (imports initializers as variables)"),
            cl::init(""), cl::cat(graphcCategory));
cl::opt<bool> training(
    "training",
    cl::desc("ONNX: import for training: floating-point initializers become "
             "graph.variable (trainable; BatchNormalization's running mean "
             "and variance not) instead of constants"),
    cl::init(false), cl::cat(graphcCategory));
cl::opt<bool> listUnsupported(
    "list-unsupported",
    cl::desc("List every op of the model the importer cannot take, with "
             "counts and node names, and exit (status 1 when there are any)"),
    cl::init(false), cl::cat(graphcCategory));
cl::opt<bool> printOpTable(
    "print-op-table",
    cl::desc("Print the importers' op registries as the Markdown tables of "
             "docs/user/import-ops.md and exit (no model needed)"),
    cl::init(false), cl::cat(graphcCategory));
cl::opt<bool> train(
    "train",
    cl::desc("Compile a training step: the model's weights become variables, "
             "--loss is applied to its output with --labels as a new input, "
             "and --optimizer updates the weights every step (graphc-train)"),
    cl::init(false), cl::cat(graphcCategory));
cl::opt<std::string>
    lossKind("loss",
             cl::desc("--train: softmax_cross_entropy (class indices) or mse"),
             cl::init("softmax_cross_entropy"), cl::cat(graphcCategory));
cl::opt<std::string> labelsName(
    "labels",
    cl::desc("--train: name of the input that holds the targets (required)"),
    cl::value_desc("name"), cl::init(""), cl::cat(graphcCategory));
cl::opt<std::string>
    optimizerName("optimizer",
                  cl::desc("--train: sgd, momentum or adam (PyTorch 1.13's)"),
                  cl::init("sgd"), cl::cat(graphcCategory));
cl::opt<double>
    learningRate("lr",
                 cl::desc("--train: learning rate (default 0.01; adam 0.001)"),
                 cl::init(0.01), cl::cat(graphcCategory));
cl::opt<double>
    momentumValue("momentum",
                  cl::desc("--train --optimizer=momentum: the momentum"),
                  cl::init(0.9), cl::cat(graphcCategory));
cl::opt<bool> returnWeights(
    "return-weights",
    cl::desc("--train: the step also returns every updated weight as an "
             "output named after it (graph-run --output-dir writes them "
             "after the last step)"),
    cl::init(false), cl::cat(graphcCategory));
cl::opt<std::string> batchNormMode(
    "batch-norm",
    cl::desc("--train: batch normalisation with the batch's statistics, "
             "updating the running ones (batch, the default, as PyTorch "
             "trains), or with the running statistics (running)"),
    cl::init("batch"), cl::cat(graphcCategory));
cl::opt<std::string> mixedPrecision(
    "mixed-precision",
    cl::desc("--train: compute matmuls, convolutions and elementwise ops in "
             "bf16 or f16, keeping the weights, the optimizer state, the "
             "loss, reductions and normalisations in f32 "
             "(graph-mixed-precision)"),
    cl::value_desc("bf16|f16"), cl::init(""), cl::cat(graphcCategory));
cl::opt<double> lossScale(
    "loss-scale",
    cl::desc("--mixed-precision: static loss scale; the gradients are "
             "unscaled in f32 before the update (default 1024 for f16, 1 "
             "for bf16)"),
    cl::init(0.0), cl::cat(graphcCategory));

cl::opt<std::string> entryName("entry", cl::desc("Entry function"),
                               cl::init("main"), cl::cat(graphcCategory));

/// The exit codes every graphc tool shares (docs/user/exit-codes.md).
constexpr int kExitOk = 0;
constexpr int kExitFailed = 1; // the input is invalid or compiling it failed
constexpr int kExitUsage = 2;  // a flag is unknown, malformed or misplaced

} // namespace

/// The placement strategy: --strategy, else picked by the flags; without
/// them the model's own placements (often none: one task).
static std::string strategyFromFlags() {
  if (!strategyName.empty()) {
    return strategyName;
  }
  return pipelineStages > 1   ? "pipeline"
         : tensorParallel > 1 ? "tensor-parallel"
         : psTasks > 0        ? "ps"
         : replicas > 1       ? "replicas"
                              : "given";
}

/// The distribution flags, checked before anything is read: a flag the
/// strategy would ignore is a mistake to hear about, not a silent
/// single-task job. Non-zero on a mistake.
static int checkStrategyFlags() {
  std::string strategy = strategyFromFlags();
  auto ignored = [&](StringRef flag, StringRef instead) {
    llvm::errs() << "graphc: error: --strategy=" << strategy << " ignores "
                 << flag << "; " << instead << "\n";
    return kExitUsage;
  };
  bool replicasGiven = replicas.getNumOccurrences() > 0,
       psGiven = psTasks.getNumOccurrences() > 0,
       tpGiven = tensorParallel.getNumOccurrences() > 0,
       stagesGiven = pipelineStages.getNumOccurrences() > 0;
  StringRef given = replicasGiven ? "--replicas"
                    : psGiven     ? "--ps-tasks"
                    : tpGiven     ? "--tensor-parallel"
                                  : "--pipeline-stages";
  if (pipelineStages > 1 && tensorParallel > 1) {
    llvm::errs()
        << "graphc: error: --pipeline-stages and --tensor-parallel do not "
           "combine (yet); use one of them, with --replicas R if "
           "you like\n";
    return kExitUsage;
  }
  if (strategy == "auto" &&
      (replicasGiven || psGiven || tpGiven || stagesGiven)) {
    return ignored(given, "auto chooses replicas, parameter servers and "
                          "tensor parallelism itself (give the cluster size "
                          "with --workers N)");
  }
  if (strategy == "given" &&
      (replicasGiven || psGiven || tpGiven || stagesGiven)) {
    return ignored(given, "use --strategy=replicas, --strategy=ps, "
                          "--strategy=pipeline or "
                          "--strategy=tensor-parallel");
  }
  if (strategy != "tensor-parallel" && strategy != "given" &&
      strategy != "auto" && tpGiven) {
    return ignored("--tensor-parallel",
                   "use --strategy=tensor-parallel (with --replicas R)");
  }
  if (strategy != "pipeline" && strategy != "given" && strategy != "auto" &&
      stagesGiven) {
    return ignored("--pipeline-stages",
                   "use --strategy=pipeline (with --replicas R)");
  }
  if (strategy == "replicas" && psGiven) {
    return ignored("--ps-tasks", "use --strategy=ps with --replicas N");
  }
  if (strategy != "auto" && workers.getNumOccurrences()) {
    return ignored("--workers", "it sizes the cluster of --strategy=auto");
  }
  if (workers.getNumOccurrences() && workers < 1) {
    llvm::errs() << "graphc: error: --workers=" << workers.getValue()
                 << " must be at least 1\n";
    return kExitUsage;
  }
  for (int64_t r : simulateReplicas) {
    if (r < 1) {
      llvm::errs() << "graphc: error: --simulate-replicas: " << r
                   << " replicas; every count must be at least 1\n";
      return kExitUsage;
    }
  }
  if (simulateScaling.getNumOccurrences() && simulateReplicas.empty()) {
    llvm::errs() << "graphc: error: --simulate-scaling describes "
                    "--simulate-replicas; give the replica counts too\n";
    return kExitUsage;
  }
  if (simulateStrategy != "replicas" && simulateStrategy != "pipeline" &&
      simulateStrategy != "tensor-parallel") {
    llvm::errs() << "graphc: error: unknown --simulate-strategy="
                 << simulateStrategy
                 << "; use replicas, pipeline or tensor-parallel\n";
    return kExitUsage;
  }
  if (simulateStrategy.getNumOccurrences() && simulateReplicas.empty()) {
    llvm::errs() << "graphc: error: --simulate-strategy describes "
                    "--simulate-replicas; give the worker counts too\n";
    return kExitUsage;
  }
  if (simulateStrategy != "replicas" && simulateScaling == "weak") {
    llvm::errs() << "graphc: error: --simulate-scaling=weak is for "
                    "--simulate-strategy=replicas; a "
                 << simulateStrategy
                 << " job splits the model's batch (strong scaling)\n";
    return kExitUsage;
  }
  if (simulateScaling != "strong" && simulateScaling != "weak") {
    llvm::errs() << "graphc: error: unknown --simulate-scaling="
                 << simulateScaling << "; use strong or weak\n";
    return kExitUsage;
  }
  if (!machineModelFile.empty() && reportFile.empty() && strategy != "auto" &&
      simulateReplicas.empty()) {
    llvm::errs()
        << "graphc: error: --machine-model is the machine of --report's "
           "estimate, --strategy=auto's choice or "
           "--simulate-replicas; give one of them too\n";
    return kExitUsage;
  }
  return kExitOk;
}

/// The machine model of --machine-model, else the built-in one.
static llvm::Expected<graphc::MachineModel> loadMachineModel() {
  return machineModelFile.empty()
             ? llvm::Expected<graphc::MachineModel>(
                   graphc::MachineModel::getDefault())
             : graphc::MachineModel::fromFile(machineModelFile);
}

/// --simulate-replicas on the graph stage; the table on stderr, the JSON in
/// `json`. Non-zero on failure.
static int simulateOn(ModuleOp module, std::optional<llvm::json::Value> &json) {
  llvm::Expected<graphc::MachineModel> machine = loadMachineModel();
  if (!machine) {
    llvm::errs() << "graphc: " << llvm::toString(machine.takeError()) << "\n";
    return kExitFailed;
  }
  SmallVector<int64_t> counts(simulateReplicas.begin(), simulateReplicas.end());
  if (simulateStrategy != "replicas") {
    // The K of "W/K replicas of K tasks" is the strategy's own flag, so the
    // simulated job is the one those flags build.
    bool pipeline = simulateStrategy == "pipeline";
    int64_t k = pipeline ? pipelineStages : tensorParallel;
    FailureOr<graphc::StrategyScaling> scaling = graphc::simulateStrategy(
        module, entryName, simulateStrategy, counts, k > 1 ? k : 0,
        pipeline && microbatches.getNumOccurrences() ? microbatches : 0,
        *machine);
    if (failed(scaling)) {
      return kExitFailed;
    }
    graphc::printStrategyScalingTable(*scaling, llvm::errs());
    json = graphc::strategyScalingToJson(*scaling);
    return kExitOk;
  }
  FailureOr<graphc::ScalingReport> scaling = graphc::simulateReplicas(
      module, entryName, counts,
      simulateScaling == "weak" ? graphc::ScalingMode::Weak
                                : graphc::ScalingMode::Strong,
      *machine);
  if (failed(scaling)) {
    return kExitFailed;
  }
  graphc::printScalingTable(*scaling, llvm::errs());
  json = graphc::scalingToJson(*scaling);
  return kExitOk;
}

/// --mlir-timing's root scope (null when the driver has not set it up): every
/// pass manager of the driver and the bundle writer's LLVM work report under
/// it, so one table shows where a compile's time goes.
static TimingScope *driverTiming = nullptr;

/// The command line's pass-manager options (--mlir-print-ir-*, crash
/// reproducers), --verify-each and --mlir-timing on `pm`. Without
/// --verify-each, run it with runVerified, which verifies the result once.
static LogicalResult configurePassManager(PassManager &pm) {
  if (failed(applyPassManagerCLOptions(pm))) {
    return failure();
  }
  pm.enableVerifier(verifyEach);
  if (driverTiming) {
    pm.enableTiming(*driverTiming);
  }
  return success();
}

/// Runs `pm` (set up by configurePassManager) on `module`; without
/// --verify-each the module is verified here, once, instead of after every
/// pass.
static LogicalResult runVerified(PassManager &pm, ModuleOp module) {
  if (failed(pm.run(module))) {
    return failure();
  }
  return success(verifyEach || succeeded(verify(module)));
}

/// The CPU code generation options of every task pipeline: OpenMP, and the
/// vector width of --mcpu's CPU (0: the host's, found by the pass).
static graphc::TaskCodegenOptions taskCodegenOptions() {
  graphc::TaskCodegenOptions codegen;
  codegen.cpu.openmp = !noOpenmp;
  codegen.cpu.directConv = directConv;
  codegen.cpu.prepareWeights = prepareWeights;
  if (!targetCpu.empty()) {
    if (llvm::Expected<graphc::CpuInfo> info = graphc::describeCpu(targetCpu)) {
      codegen.cpu.vectorWidth = info->vectorBits / 32;
    } else {
      // checkTargetFlags has reported an unknown CPU before any pipeline.
      llvm::consumeError(info.takeError());
    }
  }
  return codegen;
}

/// Runs the named pipelines of the stages after `from` up to `stage` (graph,
/// dist, linalg, llvm; the file stages need all four), exactly what
/// graph-opt replays.
static LogicalResult compile(ModuleOp module, EmitStage from, EmitStage stage,
                             bool fixInputShapes) {
  PassManager pm(module.getContext());
  if (failed(configurePassManager(pm))) {
    return failure();
  }
  if (from < EmitStage::Graph) {
    graphc::GraphPipelineOptions graphOptions;
    graphOptions.entry = entryName;
    if (fixInputShapes) {
      graphOptions.argShapes.assign(inputShapes.begin(), inputShapes.end());
    }
    // One task and no training: a dynamic batch becomes a loop in the
    // task's step. Everything else splits or differentiates the batch and
    // keeps the errors that ask for --input-shape.
    // --emit=graph still shows the model's own `?`.
    graphOptions.dynamicBatch =
        !train && strategyFromFlags() == "given" && stage >= EmitStage::Dist;
    // The CPU step runs full chunks of 8 through a second body; the CUDA
    // glue takes graphc_task_run only.
    graphOptions.dynamicBatchChunk = target == Target::Cpu ? 8 : 1;
    graphc::buildGraphPipeline(pm, graphOptions);
    if (train) {
      graphc::TrainPipelineOptions trainOptions;
      trainOptions.entry = entryName;
      trainOptions.loss = lossKind;
      trainOptions.labels = labelsName;
      trainOptions.optimizer = optimizerName;
      trainOptions.lr =
          learningRate.getNumOccurrences() || optimizerName != "adam"
              ? learningRate
              : 0.001;
      trainOptions.momentum = momentumValue;
      trainOptions.returnWeights = returnWeights;
      trainOptions.batchNorm = batchNormMode;
      trainOptions.mixedPrecision = mixedPrecision;
      // The CPU codegen cannot compute in bf16 on x86 without AVX512-BF16
      // (LLVM keeps bf16 values in f32 registers and rounds them with
      // __truncsfbf2, which a task library cannot resolve), and accumulates
      // an f16 matmul in f16: it gets the same numbers from f32 arithmetic
      // on rounded values (docs/design/training.md, "Mixed precision").
      trainOptions.emulateLowPrecision = target == Target::Cpu;
      // f16's 5-bit exponent flushes gradients below 6e-8 to zero; bf16 has
      // f32's range and needs no scaling (PyTorch's GradScaler starts f16
      // at 65536 and adjusts; a static 1024 is the common safe choice).
      trainOptions.lossScale = lossScale.getNumOccurrences() ? lossScale
                               : mixedPrecision == "f16"     ? 1024.0
                                                             : 1.0;
      graphc::buildTrainPipeline(pm, trainOptions);
    }
  }
  if (from < EmitStage::Dist && stage >= EmitStage::Dist) {
    graphc::DistPipelineOptions distOptions;
    distOptions.weightsThreshold = weightsThreshold;
    distOptions.strategy = strategyFromFlags();
    distOptions.replicas = replicas;
    distOptions.tensorParallel = tensorParallel;
    distOptions.psTasks = std::max<int64_t>(psTasks, 1);
    if (distOptions.strategy == "auto") {
      distOptions.workers = workers;
      distOptions.machineModel = machineModelFile;
    }
    distOptions.pipelineStages = pipelineStages;
    distOptions.microbatches = microbatches;
    distOptions.overlapCollectives = overlapCollectives;
    distOptions.bucketBytes = bucketBytes;
    distOptions.defaultDevice = defaultDevice;
    if (entryName.getNumOccurrences()) {
      distOptions.entry = entryName;
    }
    if (target == Target::Cpu) {
      // Constant filters stored in the direct kernel's packed layout.
      distOptions.prepackConvFilters = directConv;
      distOptions.prepackVectorWidth = taskCodegenOptions().cpu.vectorWidth;
    }
    graphc::buildDistPipeline(pm, distOptions);
  }
  if (target == Target::Stablehlo) {
    if (stage >= EmitStage::Stablehlo) {
      graphc::ConvertGraphToStableHLOOptions toStablehlo;
      toStablehlo.entry = entryName;
      // --replicas alone: identical replicas, one SPMD program.
      toStablehlo.spmd = replicas > 1 && strategyFromFlags() == "replicas";
      pm.addPass(graphc::createConvertGraphToStableHLO(toStablehlo));
    }
    return runVerified(pm, module);
  }
  if (from < EmitStage::Linalg && stage >= EmitStage::Linalg) {
    graphc::TaskLoweringOptions lowering;
    lowering.entry = entryName;
    graphc::buildTaskLoweringPipeline(pm, lowering);
  }
  if (target == Target::Cuda) {
    graphc::CudaCodegenOptions cuda;
    if (stage >= EmitStage::Gpu) {
      graphc::buildCudaGpuPipeline(pm.nest<ModuleOp>(), cuda);
    }
    if (stage >= EmitStage::LLVM) {
      bool ptxOnly = false;
      graphc::resolveCudaFormat(cuda, &ptxOnly);
      if (ptxOnly) {
        emitRemark(module.getLoc())
            << "no CUDA toolkit with ptxas (GRAPHC_CUDA_TOOLKIT, or the one "
               "found when graphc was built): the kernels are embedded as "
               "PTX for sm_90 only, which the driver compiles when a task "
               "loads";
      }
      OpPassManager &task = pm.nest<ModuleOp>();
      graphc::buildCudaBinaryPipeline(task, cuda);
      task.addPass(graphc::createGraphrtTaskDescriptor());
    }
  } else if (stage >= EmitStage::LLVM) {
    graphc::TaskCodegenOptions codegen = taskCodegenOptions();
    graphc::buildTaskCodegenPipeline(pm, codegen);
  }
  return runVerified(pm, module);
}

static graphc::BundleOptions bundleOptions() {
  graphc::BundleOptions options;
  options.openmp = !noOpenmp;
  options.target.cpu = targetCpu;
  options.target.threads = codegenThreads;
  options.target.instructionsPerPart = codegenPartSize;
  llvm::StringRef stem = llvm::sys::path::stem(inputFilename);
  options.jobName = stem.empty() ? "job" : stem.str();
  return options;
}

/// --report: the communication report of the partitioned module, as JSON
/// to the file and as a table on stderr. Returns non-zero on failure.
static int reportOn(ModuleOp module,
                    std::optional<llvm::json::Value> simulation) {
  llvm::Expected<graphc::MachineModel> machine = loadMachineModel();
  if (!machine) {
    llvm::errs() << "graphc: " << llvm::toString(machine.takeError()) << "\n";
    return kExitFailed;
  }
  FailureOr<graphc::DistReport> report =
      graphc::analyzeDistribution(module, *machine, prepareWeights);
  if (failed(report)) {
    return kExitFailed;
  }
  graphc::printReportTable(*report, llvm::errs());
  llvm::json::Object extra;
  if (simulation) {
    extra["simulation"] = std::move(*simulation);
  }
  if (llvm::Error err =
          graphc::writeReportJson(*report, reportFile, std::move(extra))) {
    llvm::errs() << "graphc: " << llvm::toString(std::move(err)) << "\n";
    return kExitFailed;
  }
  return 0;
}

/// --train --emit=job: JOB/eval/, the model as imported compiled for
/// inference as a one-task job whose weights are variables named as the
/// training step's (graph-hoist-weights{threshold=0} on the same graph), and
/// JOB/eval/eval.json naming the scored output, the labels and the loss, so
/// that `graph-run --eval` can score held-out data with the trained
/// weights (docs/design/training.md, "Held-out evaluation").
static int writeEvalJob(ModuleOp imported, bool fixInputShapes) {
  OwningOpRef<ModuleOp> eval = imported.clone();
  PassManager graph(eval->getContext());
  if (failed(configurePassManager(graph))) {
    return kExitFailed;
  }
  graphc::GraphPipelineOptions graphOptions;
  graphOptions.entry = entryName;
  if (fixInputShapes) {
    graphOptions.argShapes.assign(inputShapes.begin(), inputShapes.end());
  }
  graphc::buildGraphPipeline(graph, graphOptions);
  if (failed(runVerified(graph, *eval))) {
    return kExitFailed;
  }
  // The output graph-add-loss scores (its `output` option, 0 here).
  std::string scored;
  if (auto entry = eval->lookupSymbol<func::FuncOp>(entryName)) {
    if (auto names = entry->getAttrOfType<ArrayAttr>("graph.output_names");
        names && !names.empty()) {
      if (auto name = dyn_cast<StringAttr>(names[0])) {
        scored = name.str();
      }
    }
  }
  PassManager pm(eval->getContext());
  if (failed(configurePassManager(pm))) {
    return kExitFailed;
  }
  graphc::DistPipelineOptions distOptions;
  // Every weight a variable, as graphc-train hoists them, so that each
  // gets the trained value by name.
  distOptions.weightsThreshold = 0;
  distOptions.strategy = "given";
  distOptions.entry = entryName;
  graphc::buildDistPipeline(pm, distOptions);
  graphc::TaskLoweringOptions lowering;
  lowering.entry = entryName;
  graphc::buildTaskLoweringPipeline(pm, lowering);
  graphc::TaskCodegenOptions codegen = taskCodegenOptions();
  graphc::buildTaskCodegenPipeline(pm, codegen);
  if (failed(runVerified(pm, *eval))) {
    return kExitFailed;
  }
  llvm::SmallString<256> dir(outputFilename);
  llvm::sys::path::append(dir, "eval");
  graphc::BundleOptions options = bundleOptions();
  options.jobName += "-eval";
  options.releaseWeights = true;
  options.consumeModule = true;
  std::optional<TimingScope> bundleTiming;
  if (driverTiming) {
    bundleTiming.emplace(driverTiming->nest("Eval job bundle (LLVM, link)"));
  }
  if (failed(graphc::writeJobBundle(*eval, dir, options))) {
    return kExitFailed;
  }
  llvm::SmallString<256> file(dir);
  llvm::sys::path::append(file, "eval.json");
  std::string error;
  auto out = openOutputFile(file, &error);
  if (!out) {
    llvm::errs() << "graphc: " << error << "\n";
    return kExitFailed;
  }
  llvm::json::Object info{{"format", "graphc-eval-1"},
                          {"labels", labelsName.getValue()},
                          {"loss", lossKind.getValue()},
                          {"output_index", 0}};
  if (!scored.empty()) {
    info["output"] = scored;
  }
  out->os() << llvm::formatv("{0:2}", llvm::json::Value(std::move(info)))
            << "\n";
  out->keep();
  return 0;
}

/// --emit=job: the bundle directory -o names. `weights`: the weights files
/// writeWeights wrote before code generation (the TPU target's writer writes
/// its own).
static int writeJob(ModuleOp module, const graphc::BundleWeights *weights) {
  if (target == Target::Stablehlo) {
    return failed(graphc::writeStablehloBundle(module, outputFilename,
                                               bundleOptions()))
               ? kExitFailed
               : 0;
  }
  graphc::BundleOptions options = bundleOptions();
  // graphc reads nothing of the module once its bundle is written.
  options.consumeModule = true;
  if (failed(
          graphc::writeJobBundle(module, outputFilename, options, weights))) {
    return kExitFailed;
  }
  return 0;
}

/// --emit=job, CPU and CUDA targets: the weights files, written as soon as
/// the task modules exist (the linalg stage), so that when nothing reads the
/// module's weights afterwards (`releaseWeights`: no eval job shares them)
/// their memory is freed before the task code generation pipeline and the
/// LLVM work (docs/design/cpu-codegen.md, "Peak memory").
static int writeWeights(ModuleOp module, bool releaseWeights,
                        graphc::BundleWeights &weights) {
  graphc::BundleOptions options = bundleOptions();
  options.releaseWeights = releaseWeights;
  return failed(graphc::writeBundleWeights(module, outputFilename, options,
                                           weights))
             ? kExitFailed
             : 0;
}

/// --target against --emit: the CPU stages (linalg, llvm, obj) do not exist
/// for the TPU target, nor stablehlo for the CPU one. --emit=stablehlo
/// alone picks the TPU target. Non-zero on a mistake.
static int checkTargetFlags() {
  bool cpuStage = emit == EmitStage::Linalg || emit == EmitStage::LLVM ||
                  emit == EmitStage::Obj;
  if (emit == EmitStage::Stablehlo && !target.getNumOccurrences()) {
    target = Target::Stablehlo;
  }
  if (target == Target::Stablehlo && cpuStage) {
    llvm::errs() << "graphc: error: --target=tpu has no --emit="
                 << (emit == EmitStage::Linalg ? "linalg"
                     : emit == EmitStage::LLVM ? "llvm"
                                               : "obj")
                 << " stage; use --emit=stablehlo to see each task's "
                    "StableHLO module\n";
    return kExitUsage;
  }
  if (target != Target::Stablehlo && emit == EmitStage::Stablehlo) {
    llvm::errs() << "graphc: error: --emit=stablehlo needs --target=tpu (or "
                    "stablehlo)\n";
    return kExitUsage;
  }
  if (!targetCpu.empty()) {
    if (target != Target::Cpu) {
      llvm::errs() << "graphc: error: --mcpu names a CPU for --target=cpu; "
                      "drop it or the --target\n";
      return kExitUsage;
    }
    if (llvm::Expected<graphc::CpuInfo> info = graphc::describeCpu(targetCpu);
        !info) {
      llvm::errs() << "graphc: error: --mcpu: "
                   << llvm::toString(info.takeError()) << "\n";
      return kExitUsage;
    }
  }
  // The pass checks them too, but only once code generation runs.
  if (std::string error = graphc::checkDirectConvClasses(directConv);
      !error.empty()) {
    llvm::errs() << "graphc: error: --direct-conv: " << error << "\n";
    return kExitUsage;
  }
  return 0;
}

/// The --train flags, checked before anything is read; non-zero on a
/// mistake.
static int checkTrainFlags() {
  bool trainFlag =
      lossKind.getNumOccurrences() || labelsName.getNumOccurrences() ||
      optimizerName.getNumOccurrences() || learningRate.getNumOccurrences() ||
      momentumValue.getNumOccurrences() || returnWeights.getNumOccurrences() ||
      batchNormMode.getNumOccurrences();
  if (!train) {
    if (trainFlag) {
      llvm::errs() << "graphc: error: --loss, --labels, --optimizer, --lr, "
                      "--momentum, --return-weights and --batch-norm "
                      "describe a training step; add --train\n";
      return kExitUsage;
    }
    if (mixedPrecision.getNumOccurrences() || lossScale.getNumOccurrences()) {
      llvm::errs() << "graphc: error: --mixed-precision and --loss-scale "
                      "choose how a training step computes; add --train (an "
                      "inference model in bf16 or f16 is compiled in its "
                      "own types)\n";
      return kExitUsage;
    }
    return 0;
  }
  if (mixedPrecision.getNumOccurrences() && mixedPrecision != "bf16" &&
      mixedPrecision != "f16") {
    llvm::errs() << "graphc: error: unknown --mixed-precision="
                 << mixedPrecision << "; use bf16 or f16\n";
    return kExitUsage;
  }
  if (lossScale.getNumOccurrences() && mixedPrecision.empty()) {
    llvm::errs() << "graphc: error: --loss-scale scales the loss of a "
                    "--mixed-precision step; add --mixed-precision=f16 (or "
                    "bf16)\n";
    return kExitUsage;
  }
  if (lossScale.getNumOccurrences() &&
      (!(lossScale > 0) || std::isinf(lossScale))) {
    llvm::errs() << "graphc: error: --loss-scale="
                 << llvm::format("%g", lossScale.getValue())
                 << " must be a positive finite number\n";
    return kExitUsage;
  }
  if (labelsName.empty()) {
    llvm::errs()
        << "graphc: error: --train needs --labels=NAME, the name of the new "
           "input that holds the targets (class indices for "
           "softmax_cross_entropy)\n";
    return kExitUsage;
  }
  if (lossKind != "softmax_cross_entropy" && lossKind != "mse") {
    llvm::errs() << "graphc: error: unknown --loss=" << lossKind
                 << "; use softmax_cross_entropy or mse\n";
    return kExitUsage;
  }
  if (optimizerName != "sgd" && optimizerName != "momentum" &&
      optimizerName != "adam") {
    llvm::errs() << "graphc: error: unknown --optimizer=" << optimizerName
                 << "; use sgd, momentum or adam\n";
    return kExitUsage;
  }
  if (batchNormMode != "batch" && batchNormMode != "running") {
    llvm::errs() << "graphc: error: unknown --batch-norm=" << batchNormMode
                 << "; use batch or running\n";
    return kExitUsage;
  }
  if (!(learningRate > 0)) {
    llvm::errs() << "graphc: error: --lr="
                 << llvm::format("%g", learningRate.getValue())
                 << " must be positive\n";
    return kExitUsage;
  }
  if (!trainOp.empty()) {
    llvm::errs() << "graphc: error: --train builds the training step from an "
                    "inference model; a TensorFlow graph that already holds "
                    "its updates trains with --train-op alone\n";
    return kExitUsage;
  }
  return 0;
}

/// An ONNX --input-shape whose name is none of the model's inputs would be
/// ignored (the file's shape kept): report it with the inputs there are.
/// (The TensorFlow importer and --freeze-input check their names as they
/// read the model.)
static LogicalResult checkInputShapeNames(ModuleOp module) {
  auto entry = module.lookupSymbol<func::FuncOp>(
      entryName.empty() ? "main" : entryName.getValue());
  if (!entry) {
    return success();
  }
  llvm::SmallVector<StringRef> names;
  for (unsigned i = 0, e = entry.getNumArguments(); i < e; ++i) {
    if (auto name = entry.getArgAttrOfType<StringAttr>(i, "graph.name")) {
      names.push_back(name.getValue());
    }
  }
  for (StringRef spec : inputShapes) {
    StringRef name = spec.rsplit(':').first;
    if (llvm::is_contained(names, name)) {
      continue;
    }
    llvm::errs() << inputFilename << ": error: --input-shape '" << spec
                 << "': the model has no input '" << name
                 << "'; its inputs are: "
                 << (names.empty() ? std::string("none")
                                   : llvm::join(names, ", "))
                 << "\n";
    return failure();
  }
  return success();
}

/// Prints the ops of the input the importer cannot take; 0 when none.
static int listUnsupportedOps(graphc::import::ModelFormat format,
                              MLIRContext &context) {
  auto unsupported =
      graphc::import::listUnsupportedOps(inputFilename, format, context);
  if (!unsupported) {
    llvm::errs() << "graphc: " << llvm::toString(unsupported.takeError())
                 << "\n";
    return kExitFailed;
  }
  size_t nodes = 0;
  for (const graphc::import::UnsupportedOp &op : *unsupported) {
    nodes += op.nodes.size();
  }
  auto &os = llvm::outs();
  if (unsupported->empty()) {
    os << inputFilename << ": every op is supported\n";
    return 0;
  }
  os << inputFilename << ": " << unsupported->size()
     << " unsupported op types in " << nodes << " nodes\n";
  for (const graphc::import::UnsupportedOp &op : *unsupported) {
    os << "  " << op.op << " x" << op.nodes.size() << " (" << op.reason << "):";
    for (const std::string &node : op.nodes) {
      os << " " << node;
    }
    os << "\n";
  }
  return kExitFailed;
}

int main(int argc, char **argv) {
  llvm::InitLLVM y(argc, argv);
  registerAsmPrinterCLOptions();
  registerMLIRContextCLOptions();
  registerPassManagerCLOptions();
  registerDefaultTimingManagerCLOptions();
  cl::HideUnrelatedOptions(graphcCategory);
  if (!cl::ParseCommandLineOptions(argc, argv,
                                   "graphc: compile a dataflow graph into a "
                                   "distributed job\n",
                                   &llvm::errs())) {
    return kExitUsage;
  }

  if (printOpTable) {
    graphc::import::printOpTables(llvm::outs());
    return 0;
  }
  if (inputFilename.empty()) {
    llvm::errs() << "graphc: no model given: graphc MODEL [options] (see "
                    "--help)\n";
    return 1;
  }

  llvm::Expected<graphc::import::ModelFormat> format =
      graphc::import::detectFormat(inputFilename);
  if (!format) {
    llvm::errs() << "graphc: " << llvm::toString(format.takeError()) << "\n";
    return kExitFailed;
  }

  if (int status = checkTrainFlags()) {
    return status;
  }
  if (int status = checkStrategyFlags()) {
    return status;
  }
  if (int status = checkTargetFlags()) {
    return status;
  }
  graphc::registerAutoPlacementStrategy();
  // Microbatches only mean something to a pipeline; silently running one
  // task would hide the mistake.
  if (microbatches.getNumOccurrences() && pipelineStages <= 1) {
    llvm::errs() << "graphc: error: --microbatches " << microbatches
                 << " needs --pipeline-stages N with N above 1\n";
    return kExitUsage;
  }
  if (pipelineStages > 1 && psTasks > 0) {
    llvm::errs() << "graphc: error: --ps-tasks " << psTasks
                 << " does not combine with --pipeline-stages "
                 << pipelineStages
                 << ": each stage holds the variables it reads\n";
    return kExitUsage;
  }

  DialectRegistry registry;
  graphc::registerAllDialects(registry);
  graphc::registerTaskCompilation(registry);
  MLIRContext context(registry);

  if (listUnsupported) {
    return listUnsupportedOps(*format, context);
  }

  OwningOpRef<ModuleOp> module;
  llvm::SourceMgr sourceMgr;
  SourceMgrDiagnosticHandler diagHandler(sourceMgr, &context);
  if (batchSize.getNumOccurrences() && batchSize <= 0) {
    llvm::errs() << "graphc: error: --batch " << batchSize
                 << ": the batch must be at least 1\n";
    return kExitUsage;
  }
  if (*format == graphc::import::ModelFormat::Mlir &&
      batchSize.getNumOccurrences()) {
    llvm::errs() << "graphc: error: --batch fixes the inputs of an imported "
                    "model; a .mlir module's argument shapes are fixed with "
                    "--input-shape INDEX:DxD...\n";
    return kExitUsage;
  }
  if (*format == graphc::import::ModelFormat::Mlir) {
    std::string error;
    auto input = openInputFile(inputFilename, &error);
    if (!input) {
      llvm::errs() << "graphc: " << error << "\n";
      return kExitFailed;
    }
    sourceMgr.AddNewSourceBuffer(std::move(input), llvm::SMLoc());
    module = parseSourceFile<ModuleOp>(sourceMgr, &context);
  } else {
    // Imported ops are located "FILE:NODE"; print that plainly.
    context.getDiagEngine().registerHandler([](Diagnostic &diag) {
      std::string where;
      if (auto name = dyn_cast<NameLoc>(diag.getLocation())) {
        where = name.getName().str();
      } else {
        llvm::raw_string_ostream os(where);
        diag.getLocation().print(os);
      }
      StringRef severity =
          diag.getSeverity() == DiagnosticSeverity::Error     ? "error"
          : diag.getSeverity() == DiagnosticSeverity::Warning ? "warning"
                                                              : "note";
      llvm::errs() << where << ": " << severity << ": " << diag << "\n";
      for (Diagnostic &note : diag.getNotes()) {
        llvm::errs() << "  note: " << note << "\n";
      }
      return success();
    });
    graphc::import::ImportOptions options;
    options.inputs.assign(inputNames.begin(), inputNames.end());
    options.outputs.assign(outputNames.begin(), outputNames.end());
    options.inputShapes.assign(inputShapes.begin(), inputShapes.end());
    options.frozenInputs.assign(frozenInputs.begin(), frozenInputs.end());
    options.batch = batchSize;
    if (!frozenInputs.empty() && *format != graphc::import::ModelFormat::Onnx) {
      llvm::errs() << "graphc: error: --freeze-input is implemented for ONNX "
                      "models only; for a TensorFlow graph, cut it with "
                      "--inputs past the value instead\n";
      return kExitUsage;
    }
    if (*format == graphc::import::ModelFormat::Onnx && !trainOp.empty()) {
      llvm::errs() << "graphc: error: --train-op names a TensorFlow node; an "
                      "ONNX model has none: import it for training with "
                      "--training\n";
      return kExitUsage;
    }
    if (*format != graphc::import::ModelFormat::Onnx && training) {
      llvm::errs() << "graphc: error: --training is for ONNX models; a "
                      "TensorFlow training graph takes --train-op=NAME (its "
                      "variables are variables already)\n";
      return kExitUsage;
    }
    if (*format == graphc::import::ModelFormat::Onnx) {
      // --train on ONNX: the initializers that are parameters become the
      // trainable variables (splat ones too, such as a fresh BatchNorm's
      // scale), the running statistics variables that are not trained.
      options.training = training || train;
    } else if (!trainOp.empty()) {
      // TensorFlow: the train op's variable updates are imported.
      llvm::SmallVector<StringRef> names;
      StringRef(trainOp).split(names, ',', -1, /*KeepEmpty=*/false);
      for (StringRef name : names) {
        options.trainOps.push_back(name.str());
      }
    }
    if (*format == graphc::import::ModelFormat::Onnx) {
      module = graphc::import::importOnnx(inputFilename, context, options);
    } else {
      module = graphc::import::importGraphDef(inputFilename, *format, context,
                                              options);
    }
    if (module && failed(verify(*module))) {
      return kExitFailed;
    }
  }
  if (!module) {
    return kExitFailed;
  }
  if (*format == graphc::import::ModelFormat::Onnx &&
      failed(checkInputShapeNames(*module))) {
    return kExitFailed;
  }
  // --simulate-replicas alone only predicts: nothing else to write.
  bool simulateOnly = !simulateReplicas.empty() && outputFilename.empty() &&
                      !emit.getNumOccurrences() && reportFile.empty();
  // Without --emit the output picks the stage: a bundle is a directory, so
  // stdout and .mlir files get the graph dialect, anything else a job.
  if (outputFilename.empty()) {
    outputFilename = "-";
  }
  if (emit.getNumOccurrences() == 0 &&
      (outputFilename == "-" ||
       llvm::StringRef(outputFilename).ends_with(".mlir"))) {
    emit = EmitStage::Graph;
  }
  if ((emit == EmitStage::Gpu || emit == EmitStage::Ptx) &&
      target != Target::Cuda) {
    llvm::errs() << "graphc: error: --emit="
                 << (emit == EmitStage::Gpu ? "gpu" : "ptx")
                 << " is a stage of the cuda target; add --target=cuda\n";
    return kExitUsage;
  }
  if (emit == EmitStage::Job && outputFilename == "-") {
    llvm::errs()
        << "graphc: error: --emit=job writes a bundle directory; give it "
           "with -o NAME.gjob\n";
    return kExitUsage;
  }
  // --train writes a forward-only job beside the step; it starts from the
  // model as imported, before the training passes change it.
  std::optional<OwningOpRef<ModuleOp>> evalModule;
  if (train && target == Target::Cpu && emit == EmitStage::Job) {
    evalModule.emplace(module->clone());
  }
  // Imported input shapes are fixed by the importer, not by index.
  bool fixInputShapes = *format == graphc::import::ModelFormat::Mlir;
  // --mlir-timing: the report is printed when `timing` goes out of scope.
  DefaultTimingManager timing;
  applyDefaultTimingManagerCLOptions(timing);
  TimingScope rootTiming = timing.getRootScope();
  if (timing.isEnabled()) {
    driverTiming = &rootTiming;
  }
  // The report and the Graphviz view read the partitioned module: stop
  // there, look, and go on with the same module.
  bool look = !reportFile.empty() || emit == EmitStage::Dot;
  if (look && emit < EmitStage::Dist) {
    llvm::errs()
        << "graphc: error: --report reads the partitioned job; it cannot "
           "be combined with --emit="
        << (emit == EmitStage::Import ? "import" : "graph") << "\n";
    return kExitUsage;
  }
  // A job's weights files are written at the linalg stage, before code
  // generation (writeWeights).
  bool weightsFirst = emit == EmitStage::Job && target != Target::Stablehlo;
  EmitStage first = look           ? EmitStage::Dist
                    : weightsFirst ? EmitStage::Linalg
                                   : emit;
  EmitStage done = EmitStage::Import;
  // The simulation reads the graph stage (the step before placement).
  std::optional<llvm::json::Value> simulation;
  if (!simulateReplicas.empty()) {
    if (emit < EmitStage::Graph) {
      llvm::errs() << "graphc: error: --simulate-replicas reads the graph "
                      "stage; it cannot be combined with --emit=import\n";
      return kExitUsage;
    }
    if (failed(compile(*module, done, EmitStage::Graph, fixInputShapes)) ||
        simulateOn(*module, simulation)) {
      return kExitFailed;
    }
    done = EmitStage::Graph;
    if (simulateOnly) {
      return kExitOk;
    }
  }
  if (emit != EmitStage::Import && first > done &&
      failed(compile(*module, done, first, fixInputShapes))) {
    return kExitFailed;
  }
  if (!reportFile.empty() && reportOn(*module, std::move(simulation))) {
    return kExitFailed;
  }
  if (emit == EmitStage::Dot) {
    std::string error;
    auto output = openOutputFile(outputFilename, &error);
    if (!output) {
      llvm::errs() << "graphc: " << error << "\n";
      return kExitFailed;
    }
    graphc::printDistDot(*module, output->os());
    output->keep();
    return 0;
  }
  // The stage the module is at (Dot: partitioned, after --report).
  done = first == EmitStage::Dist ? EmitStage::Dot : first;
  std::optional<graphc::BundleWeights> weights;
  if (weightsFirst) {
    if (done < EmitStage::Linalg &&
        failed(compile(*module, done, EmitStage::Linalg, fixInputShapes))) {
      return kExitFailed;
    }
    done = EmitStage::Linalg;
    TimingScope weightsTiming = rootTiming.nest("Job bundle (weights files)");
    weights.emplace();
    if (int status =
            writeWeights(*module, /*releaseWeights=*/!evalModule, *weights)) {
      return status;
    }
  }
  if (done < emit && failed(compile(*module, done, emit, fixInputShapes))) {
    return kExitFailed;
  }
  // What the pipelines freed (the IR of every stage before the last) goes
  // back to the system before the bundle writer's LLVM work allocates anew.
  graphc::releaseFreedMemory();
  if (emit == EmitStage::Job) {
    // Translation to LLVM IR, O3, code generation and linking.
    TimingScope bundleTiming = rootTiming.nest("Job bundle (LLVM, link)");
    if (int status = writeJob(*module, weights ? &*weights : nullptr)) {
      return status;
    }
    bundleTiming.stop();
    // The forward-only job beside the step (CPU only: graph-run runs it in
    // its own process).
    if (evalModule) {
      return writeEvalJob(**evalModule, fixInputShapes);
    }
    return 0;
  }

  std::string error;
  auto output = openOutputFile(outputFilename, &error);
  if (!output) {
    llvm::errs() << "graphc: " << error << "\n";
    return kExitFailed;
  }
  if (emit == EmitStage::Ptx) {
    if (failed(graphc::printCudaPtx(*module, graphc::CudaCodegenOptions(),
                                    output->os()))) {
      return kExitFailed;
    }
  } else if (emit == EmitStage::Obj) {
    if (failed(
            graphc::writeTaskObject(*module, bundleOptions(), output->os()))) {
      return kExitFailed;
    }
  } else if (emit == EmitStage::Stablehlo) {
    // Each task's module as its bundle file holds it, split like
    // `graph-opt --split-input-file` reads them.
    bool first = true;
    for (auto task : module->getOps<ModuleOp>()) {
      if (!first) {
        output->os() << "// -----\n";
      }
      graphc::printStablehloTask(task, output->os());
      first = false;
    }
  } else {
    module->print(output->os());
    output->os() << "\n";
  }
  output->keep();
  return 0;
}
