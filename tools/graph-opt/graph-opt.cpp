//===- graph-opt.cpp - mlir-opt with graphc's dialects and passes ---------===//
//
// Runs and debugs pass pipelines: every upstream dialect and pass, plus the
// graph and dist dialects and every graphc pass and pipeline.
//
//===----------------------------------------------------------------------===//

#include "graphc/InitAll.h"
#include "graphc/Target/CUDA/CudaTarget.h"

#include "mlir/Debug/Counter.h"
#include "mlir/IR/AsmState.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/InitAllPasses.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Support/Timing.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"

#include "llvm/Support/CommandLine.h"

namespace cl = llvm::cl;

int main(int argc, char **argv) {
  mlir::registerAllPasses();
  graphc::registerAllPasses();

  mlir::DialectRegistry registry;
  mlir::registerAllDialects(registry);
  // The cuda pipelines serialise kernels and translate gpu ops; registered
  // before the upstream extensions, which would otherwise shadow the GPU
  // translation (one extension per function type).
  graphc::registerCudaCompilation(registry);
  mlir::registerAllExtensions(registry);
  graphc::registerAllDialects(registry);

  // MlirOptMain's own parsing exits 1 on a bad flag; graphc's tools exit 2
  // for usage errors (docs/user/exit-codes.md), so the options mlir-opt
  // registers are registered and parsed here, then MlirOptMain runs.
  static cl::opt<std::string> inputFilename(
      cl::Positional, cl::desc("<input file>"), cl::init("-"));
  static cl::opt<std::string> outputFilename("o", cl::desc("Output filename"),
                                             cl::value_desc("filename"),
                                             cl::init("-"));
  mlir::MlirOptMainConfig::registerCLOptions(registry);
  mlir::registerAsmPrinterCLOptions();
  mlir::registerMLIRContextCLOptions();
  mlir::registerPassManagerCLOptions();
  mlir::registerDefaultTimingManagerCLOptions();
  mlir::tracing::DebugCounter::registerCLOptions();
  if (!cl::ParseCommandLineOptions(
          argc, argv,
          "graphc pass driver: runs graph and dist pass pipelines\n",
          &llvm::errs())) {
    return 2;
  }
  return mlir::asMainReturnCode(
      mlir::MlirOptMain(argc, argv, inputFilename, outputFilename, registry));
}
