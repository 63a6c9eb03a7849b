//===- Passes.cpp - dist-report and dist-print-dot
//-------------------------===//

#include "graphc/Analysis/Passes.h"
#include "graphc/Analysis/DistReport.h"

#include "mlir/Support/FileUtilities.h"
#include "llvm/Support/ToolOutputFile.h"

namespace graphc {
#define GEN_PASS_DEF_DISTREPORT
#define GEN_PASS_DEF_DISTPRINTDOT
#include "graphc/Analysis/Passes.h.inc"
} // namespace graphc

using namespace mlir;
using namespace graphc;

namespace {

struct DistReportPass : public graphc::impl::DistReportBase<DistReportPass> {
  using Base::Base;
  void runOnOperation() override {
    ModuleOp module = getOperation();
    MachineModel machine = MachineModel::getDefault();
    if (!machineModel.empty()) {
      llvm::Expected<MachineModel> read = MachineModel::fromFile(machineModel);
      if (!read) {
        module.emitError() << llvm::toString(read.takeError());
        return signalPassFailure();
      }
      machine = std::move(*read);
    }
    FailureOr<DistReport> report =
        analyzeDistribution(module, machine, preparedWeights);
    if (failed(report)) {
      return signalPassFailure();
    }
    if (!quiet) {
      printReportTable(*report, llvm::errs());
    }
    if (!output.empty()) {
      if (llvm::Error e = writeReportJson(*report, output)) {
        module.emitError() << llvm::toString(std::move(e));
        return signalPassFailure();
      }
    }
    markAllAnalysesPreserved();
  }
};

struct DistPrintDotPass
    : public graphc::impl::DistPrintDotBase<DistPrintDotPass> {
  using Base::Base;
  void runOnOperation() override {
    std::string error;
    std::unique_ptr<llvm::ToolOutputFile> file = openOutputFile(output, &error);
    if (!file) {
      getOperation().emitError()
          << "cannot write the graph to '" << output << "': " << error;
      return signalPassFailure();
    }
    DotOptions options;
    options.maxOpsPerTask = maxOps;
    printDistDot(getOperation(), file->os(), options);
    file->keep();
    markAllAnalysesPreserved();
  }
};

} // namespace
