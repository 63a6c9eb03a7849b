//===- graphc.cpp - the graphc compiler driver ----------------------------===//
//
// graphc INPUT [-o OUTPUT] [--emit=STAGE]: reads a model, runs the named
// pipelines (graphc/Pipelines/GraphcPipelines.h) up to STAGE and writes the
// result. Flags live here only; the libraries take options structs.
//
//===----------------------------------------------------------------------===//

#include "graphc/Analysis/DistReport.h"
#include "graphc/Analysis/MachineModel.h"
#include "graphc/Bundle/JobBundle.h"
#include "graphc/Import/Importers.h"
#include "graphc/Import/ModelFormat.h"
#include "graphc/Import/SupportedOps.h"
#include "graphc/InitAll.h"
#include "graphc/Pipelines/GraphcPipelines.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/AsmState.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Support/FileUtilities.h"
#include "mlir/Support/ToolUtilities.h"

#include "llvm/Support/CommandLine.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/ToolOutputFile.h"

using namespace mlir;
namespace cl = llvm::cl;

namespace {

// Dot is the dist stage drawn as Graphviz; it sits right after Dist.
enum class EmitStage { Import, Graph, Dist, Dot, Linalg, LLVM, Obj, Job };
enum class Target { Cpu };

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
               clEnumValN(EmitStage::Linalg, "linalg",
                          "one nested module per task: graphc_task_run over "
                          "memrefs, linalg on tensors, communication as "
                          "service calls (graphc-task-lowering)"),
               clEnumValN(EmitStage::LLVM, "llvm",
                          "every task in the LLVM dialect, with its graphrt "
                          "descriptor (graphc-task-codegen)"),
               clEnumValN(EmitStage::Obj, "obj",
                          "the object file of a one-task job"),
               clEnumValN(EmitStage::Job, "job",
                          "a job bundle directory (manifest.json, one .so "
                          "per task, weights)")),
    cl::cat(graphcCategory));
cl::opt<Target> target("target", cl::desc("Target of the compiled job"),
                       cl::init(Target::Cpu),
                       cl::values(clEnumValN(Target::Cpu, "cpu",
                                             "the host CPU (OpenMP threads)")),
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
cl::opt<std::string> defaultDevice(
    "default-device",
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
cl::list<std::string> inputShapes(
    "input-shape",
    cl::desc("Fix the shape of an input: NAME:DxDx... for imported models, "
             "INDEX:DxDx... for .mlir (repeatable, `?` keeps a dim dynamic)"),
    cl::value_desc("name:shape"), cl::cat(graphcCategory));
cl::list<std::string> frozenInputs(
    "freeze-input",
    cl::desc("ONNX: make input NAME a constant holding the TensorProto in "
             "FILE.pb, so a value that fixes shapes (axes, a target shape, "
             "pads) is known at compile time (repeatable)"),
    cl::value_desc("name=file.pb"), cl::cat(graphcCategory));
cl::list<std::string> inputNames(
    "inputs", cl::desc("Inputs of the imported subgraph: NAME[:SHAPE],..."),
    cl::CommaSeparated, cl::cat(graphcCategory));
cl::list<std::string> outputNames(
    "outputs", cl::desc("Outputs of the imported subgraph: NAME,..."),
    cl::CommaSeparated, cl::cat(graphcCategory));
cl::opt<std::string> trainOp(
    "train-op", cl::desc("TensorFlow training graphs: the op that runs one "
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

cl::opt<std::string> entryName("entry", cl::desc("Entry function"),
                               cl::init("main"), cl::cat(graphcCategory));

} // namespace

/// Runs the named pipelines of the stages after `from` up to `stage` (graph,
/// dist, linalg, llvm; the file stages need all four), exactly what
/// graph-opt replays.
static LogicalResult compile(ModuleOp module, EmitStage from, EmitStage stage,
                             bool fixInputShapes) {
  PassManager pm(module.getContext());
  if (failed(applyPassManagerCLOptions(pm)))
    return failure();
  if (from < EmitStage::Graph) {
    graphc::GraphPipelineOptions graphOptions;
    graphOptions.entry = entryName;
    if (fixInputShapes)
      graphOptions.argShapes.assign(inputShapes.begin(), inputShapes.end());
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
      graphc::buildTrainPipeline(pm, trainOptions);
    }
  }
  if (from < EmitStage::Dist && stage >= EmitStage::Dist) {
    graphc::DistPipelineOptions distOptions;
    distOptions.weightsThreshold = weightsThreshold;
    // The flags pick the placement strategy; without them the model's own
    // placements (often none: one task).
    distOptions.strategy = psTasks > 0     ? "ps"
                           : replicas > 1 ? "replicas"
                                          : "given";
    distOptions.replicas = replicas;
    distOptions.psTasks = std::max<int64_t>(psTasks, 1);
    distOptions.defaultDevice = defaultDevice;
    if (entryName.getNumOccurrences())
      distOptions.entry = entryName;
    graphc::buildDistPipeline(pm, distOptions);
  }
  if (stage >= EmitStage::Linalg) {
    graphc::TaskLoweringOptions lowering;
    lowering.entry = entryName;
    graphc::buildTaskLoweringPipeline(pm, lowering);
  }
  if (stage >= EmitStage::LLVM) {
    graphc::TaskCodegenOptions codegen;
    codegen.cpu.openmp = !noOpenmp;
    graphc::buildTaskCodegenPipeline(pm, codegen);
  }
  return pm.run(module);
}

static graphc::BundleOptions bundleOptions() {
  graphc::BundleOptions options;
  options.openmp = !noOpenmp;
  llvm::StringRef stem = llvm::sys::path::stem(inputFilename);
  options.jobName = stem.empty() ? "job" : stem.str();
  return options;
}

/// --report: the communication report of the partitioned module, as JSON
/// to the file and as a table on stderr. Returns non-zero on failure.
static int reportOn(ModuleOp module) {
  llvm::Expected<graphc::MachineModel> machine =
      machineModelFile.empty()
          ? llvm::Expected<graphc::MachineModel>(
                graphc::MachineModel::getDefault())
          : graphc::MachineModel::fromFile(machineModelFile);
  if (!machine) {
    llvm::errs() << "graphc: " << llvm::toString(machine.takeError())
                 << "\n";
    return 1;
  }
  FailureOr<graphc::DistReport> report =
      graphc::analyzeDistribution(module, *machine);
  if (failed(report))
    return 1;
  graphc::printReportTable(*report, llvm::errs());
  if (llvm::Error err = graphc::writeReportJson(*report, reportFile)) {
    llvm::errs() << "graphc: " << llvm::toString(std::move(err)) << "\n";
    return 1;
  }
  return 0;
}

/// --emit=job: the bundle directory -o names.
static int writeJob(ModuleOp module) {
  if (failed(graphc::writeJobBundle(module, outputFilename, bundleOptions())))
    return 1;
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
      llvm::errs() << "graphc: --loss, --labels, --optimizer, --lr, "
                      "--momentum, --return-weights and --batch-norm "
                      "describe a training step; add --train\n";
      return 1;
    }
    return 0;
  }
  if (labelsName.empty()) {
    llvm::errs() << "graphc: --train needs --labels=NAME, the name of the new "
                    "input that holds the targets (class indices for "
                    "softmax_cross_entropy)\n";
    return 1;
  }
  if (lossKind != "softmax_cross_entropy" && lossKind != "mse") {
    llvm::errs() << "graphc: unknown --loss=" << lossKind
                 << "; use softmax_cross_entropy or mse\n";
    return 1;
  }
  if (optimizerName != "sgd" && optimizerName != "momentum" &&
      optimizerName != "adam") {
    llvm::errs() << "graphc: unknown --optimizer=" << optimizerName
                 << "; use sgd, momentum or adam\n";
    return 1;
  }
  if (batchNormMode != "batch" && batchNormMode != "running") {
    llvm::errs() << "graphc: unknown --batch-norm=" << batchNormMode
                 << "; use batch or running\n";
    return 1;
  }
  if (!(learningRate > 0)) {
    llvm::errs() << "graphc: --lr="
                 << llvm::format("%g", learningRate.getValue())
                 << " must be positive\n";
    return 1;
  }
  if (!trainOp.empty()) {
    llvm::errs() << "graphc: --train builds the training step from an "
                    "inference model; a TensorFlow graph that already holds "
                    "its updates trains with --train-op alone\n";
    return 1;
  }
  return 0;
}

/// Prints the ops of the input the importer cannot take; 0 when none.
static int listUnsupportedOps(graphc::import::ModelFormat format,
                              MLIRContext &context) {
  auto unsupported =
      graphc::import::listUnsupportedOps(inputFilename, format, context);
  if (!unsupported) {
    llvm::errs() << "graphc: " << llvm::toString(unsupported.takeError())
                 << "\n";
    return 1;
  }
  size_t nodes = 0;
  for (const graphc::import::UnsupportedOp &op : *unsupported)
    nodes += op.nodes.size();
  auto &os = llvm::outs();
  if (unsupported->empty()) {
    os << inputFilename << ": every op is supported\n";
    return 0;
  }
  os << inputFilename << ": " << unsupported->size()
     << " unsupported op types in " << nodes << " nodes\n";
  for (const graphc::import::UnsupportedOp &op : *unsupported) {
    os << "  " << op.op << " x" << op.nodes.size() << " (" << op.reason
       << "):";
    for (const std::string &node : op.nodes)
      os << " " << node;
    os << "\n";
  }
  return 1;
}

int main(int argc, char **argv) {
  llvm::InitLLVM y(argc, argv);
  registerAsmPrinterCLOptions();
  registerMLIRContextCLOptions();
  registerPassManagerCLOptions();
  cl::HideUnrelatedOptions(graphcCategory);
  cl::ParseCommandLineOptions(argc, argv,
                              "graphc: compile a dataflow graph into a "
                              "distributed job\n");

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
    return 1;
  }

  if (int status = checkTrainFlags()) {
    return status;
  }

  DialectRegistry registry;
  graphc::registerAllDialects(registry);
  graphc::registerTaskCompilation(registry);
  MLIRContext context(registry);

  if (listUnsupported)
    return listUnsupportedOps(*format, context);

  OwningOpRef<ModuleOp> module;
  llvm::SourceMgr sourceMgr;
  SourceMgrDiagnosticHandler diagHandler(sourceMgr, &context);
  if (*format == graphc::import::ModelFormat::Mlir) {
    std::string error;
    auto input = openInputFile(inputFilename, &error);
    if (!input) {
      llvm::errs() << "graphc: " << error << "\n";
      return 1;
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
      StringRef severity = diag.getSeverity() == DiagnosticSeverity::Error
                               ? "error"
                           : diag.getSeverity() == DiagnosticSeverity::Warning
                               ? "warning"
                               : "note";
      llvm::errs() << where << ": " << severity << ": " << diag << "\n";
      for (Diagnostic &note : diag.getNotes())
        llvm::errs() << "  note: " << note << "\n";
      return success();
    });
    graphc::import::ImportOptions options;
    options.inputs.assign(inputNames.begin(), inputNames.end());
    options.outputs.assign(outputNames.begin(), outputNames.end());
    options.inputShapes.assign(inputShapes.begin(), inputShapes.end());
    options.frozenInputs.assign(frozenInputs.begin(), frozenInputs.end());
    if (!frozenInputs.empty() &&
        *format != graphc::import::ModelFormat::Onnx) {
      llvm::errs() << "graphc: error: --freeze-input is implemented for ONNX "
                      "models only; for a TensorFlow graph, cut it with "
                      "--inputs past the value instead\n";
      return 1;
    }
    if (*format == graphc::import::ModelFormat::Onnx && !trainOp.empty()) {
      llvm::errs() << "graphc: error: --train-op names a TensorFlow node; an "
                      "ONNX model has none: import it for training with "
                      "--training\n";
      return 1;
    }
    if (*format != graphc::import::ModelFormat::Onnx && training) {
      llvm::errs() << "graphc: error: --training is for ONNX models; a "
                      "TensorFlow training graph takes --train-op=NAME (its "
                      "variables are variables already)\n";
      return 1;
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
      for (StringRef name : names)
        options.trainOps.push_back(name.str());
    }
    if (*format == graphc::import::ModelFormat::Onnx) {
      module = graphc::import::importOnnx(inputFilename, context, options);
    } else {
      module = graphc::import::importGraphDef(inputFilename, *format, context,
                                              options);
    }
    if (module && failed(verify(*module)))
      return 1;
  }
  if (!module)
    return 1;
  // Without --emit the output picks the stage: a bundle is a directory, so
  // stdout and .mlir files get the graph dialect, anything else a job.
  if (outputFilename.empty())
    outputFilename = "-";
  if (emit.getNumOccurrences() == 0 &&
      (outputFilename == "-" ||
       llvm::StringRef(outputFilename).ends_with(".mlir")))
    emit = EmitStage::Graph;
  if (emit == EmitStage::Job && outputFilename == "-") {
    llvm::errs() << "graphc: --emit=job writes a bundle directory; give it "
                    "with -o NAME.gjob\n";
    return 1;
  }
  // Imported input shapes are fixed by the importer, not by index.
  bool fixInputShapes = *format == graphc::import::ModelFormat::Mlir;
  // The report and the Graphviz view read the partitioned module: stop
  // there, look, and go on with the same module.
  bool look = !reportFile.empty() || emit == EmitStage::Dot;
  if (!machineModelFile.empty() && reportFile.empty()) {
    llvm::errs() << "graphc: --machine-model is the machine of --report's "
                    "estimate; give --report FILE.json too\n";
    return 1;
  }
  if (look && emit < EmitStage::Dist) {
    llvm::errs() << "graphc: --report reads the partitioned job; it cannot "
                    "be combined with --emit="
                 << (emit == EmitStage::Import ? "import" : "graph") << "\n";
    return 1;
  }
  EmitStage first = look ? EmitStage::Dist : emit;
  if (emit != EmitStage::Import &&
      failed(compile(*module, EmitStage::Import, first, fixInputShapes)))
    return 1;
  if (!reportFile.empty() && reportOn(*module))
    return 1;
  if (emit == EmitStage::Dot) {
    std::string error;
    auto output = openOutputFile(outputFilename, &error);
    if (!output) {
      llvm::errs() << "graphc: " << error << "\n";
      return 1;
    }
    graphc::printDistDot(*module, output->os());
    output->keep();
    return 0;
  }
  if (first < emit &&
      failed(compile(*module, EmitStage::Dot, emit, fixInputShapes)))
    return 1;
  if (emit == EmitStage::Job)
    return writeJob(*module);

  std::string error;
  auto output = openOutputFile(outputFilename, &error);
  if (!output) {
    llvm::errs() << "graphc: " << error << "\n";
    return 1;
  }
  if (emit == EmitStage::Obj) {
    if (failed(graphc::writeTaskObject(*module, bundleOptions(),
                                       output->os())))
      return 1;
  } else {
    module->print(output->os());
    output->os() << "\n";
  }
  output->keep();
  return 0;
}
