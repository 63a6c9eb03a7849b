//===- AutoPlacement.cpp - strategy=auto: the cheapest candidate placement ===//
//
// Every registered strategy offers the option sets that fit the cluster
// (PlacementStrategy::getCandidates); auto compiles each on a clone of the
// module through the same passes graphc-dist runs after placement, estimates
// it with the communication report and applies the cheapest to the module.
// It lives here rather than in lib/Transforms because it needs the report,
// which reads the partitioned module that lib/Transforms produces.
//
//===----------------------------------------------------------------------===//

#include "graphc/Analysis/Planning.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/Pass/PassManager.h"

#include "llvm/ADT/StringExtras.h"

using namespace mlir;
using namespace graphc;
using namespace graphc::transforms;

TrialClone::TrialClone(ModuleOp original, StringRef entryName,
                       std::string &refusal)
    : module(original.clone()),
      handler(original.getContext(), [&refusal](Diagnostic &diag) {
        if (diag.getSeverity() == DiagnosticSeverity::Error &&
            refusal.empty()) {
          refusal = StringRef(diag.str()).split('\n').first.str();
        }
        return success();
      }) {
  entry = module->lookupSymbol<func::FuncOp>(entryName);
  if (!entry && refusal.empty()) {
    refusal = ("no function @" + entryName).str();
  }
}

FailureOr<DistReport> graphc::estimatePlacement(ModuleOp module,
                                                StringRef entry,
                                                PlacementStrategy &strategy,
                                                const PlacementOptions &options,
                                                const MachineModel &machine,
                                                std::string &refusal) {
  TrialClone trial(module, entry, refusal);
  if (!trial.entry ||
      failed(strategy.place(*trial.module, trial.entry, options)) ||
      failed(setClusterFromPlacement(*trial.module, trial.entry,
                                     options.defaultTask,
                                     strategy.getName()))) {
    return failure();
  }
  // The rest of graphc-dist.
  PassManager pm(module.getContext());
  buildPostPlacementPasses(pm, entry, kDefaultBucketBytes);
  if (failed(pm.run(*trial.module))) {
    return failure();
  }
  FailureOr<DistReport> report = analyzeDistribution(*trial.module, machine);
  if (failed(report) && refusal.empty()) {
    refusal = "the report cannot estimate the partitioned job";
  }
  return report;
}

namespace {

class AutoStrategy : public PlacementStrategy {
public:
  StringRef getName() const override { return "auto"; }

  LogicalResult place(ModuleOp module, func::FuncOp entry,
                      const PlacementOptions &options) override {
    llvm::Expected<MachineModel> machine =
        options.machineModel.empty()
            ? llvm::Expected<MachineModel>(MachineModel::getDefault())
            : MachineModel::fromFile(options.machineModel);
    if (!machine) {
      return module.emitError() << "dist-place: strategy=auto: "
                                << llvm::toString(machine.takeError());
    }
    // A local job is as large as the machine it shares; a cluster model
    // (no shared cores) gets the contract's default of four tasks.
    int64_t workers = options.workers > 0        ? options.workers
                      : machine->sharedCores > 0 ? int64_t(machine->sharedCores)
                                                 : 4;

    struct Tried {
      PlacementCandidate candidate;
      std::unique_ptr<PlacementStrategy> strategy;
      AutoCandidateReport result;
    };
    std::vector<Tried> tried;
    for (const std::string &name : getPlacementStrategyNames()) {
      if (name == getName()) {
        continue;
      }
      std::unique_ptr<PlacementStrategy> probe = createPlacementStrategy(name);
      for (PlacementCandidate &candidate : probe->getCandidates(workers)) {
        candidate.options.defaultTask = options.defaultTask;
        Tried t{candidate, createPlacementStrategy(name), {}};
        t.result.label = candidate.label;
        FailureOr<DistReport> report =
            estimatePlacement(module, entry.getSymName(), *t.strategy,
                              candidate.options, *machine, t.result.refusal);
        if (succeeded(report)) {
          t.result.tasks = report->tasks.size();
          t.result.stepSeconds = report->stepSeconds;
        } else if (t.result.refusal.empty()) {
          t.result.refusal = "refused without a diagnostic";
        }
        tried.push_back(std::move(t));
      }
    }

    // Cheapest first; at equal estimates the job with fewer tasks, then the
    // earlier candidate (stable), so the choice is deterministic.
    llvm::stable_sort(tried, [](const Tried &a, const Tried &b) {
      bool aOk = a.result.refusal.empty(), bOk = b.result.refusal.empty();
      if (aOk != bOk) {
        return aOk;
      }
      if (!aOk) {
        return false;
      }
      if (a.result.stepSeconds != b.result.stepSeconds) {
        return a.result.stepSeconds < b.result.stepSeconds;
      }
      return a.result.tasks < b.result.tasks;
    });
    if (tried.empty() || !tried.front().result.refusal.empty()) {
      InFlightDiagnostic diag = module.emitError()
                                << "dist-place: strategy=auto: no candidate "
                                   "placement fits the model on "
                                << workers << " workers";
      for (const Tried &t : tried) {
        diag.attachNote() << t.result.label << ": " << t.result.refusal;
      }
      return diag;
    }

    Tried &best = tried.front();
    AutoReport why;
    why.chosen = best.candidate.label;
    why.workers = workers;
    why.machine = machine->name;
    for (const Tried &t : tried) {
      why.candidates.push_back(t.result);
    }
    if (failed(best.strategy->place(module, entry, best.candidate.options))) {
      return failure();
    }
    module->setAttr(kAutoAttrName, why.toAttr(module.getContext()));
    return success();
  }
};

} // namespace

void graphc::registerAutoPlacementStrategy() {
  static bool once = [] {
    registerPlacementStrategy("auto",
                              [] { return std::make_unique<AutoStrategy>(); });
    return true;
  }();
  (void)once;
}
