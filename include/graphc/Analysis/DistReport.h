//===- DistReport.h - what a partitioned job communicates and costs -*- C++
//-*-===//
//
// The communication report of a partitioned module (the output of
// `graphc-dist`): tasks, transfers, collectives, the exact bytes the
// runtime's per-channel counters will count in one step, and an estimated
// step time from simulating the tasks' programs on a MachineModel. See
// docs/design/distribution.md, "The communication report".
//
//===----------------------------------------------------------------------===//

#ifndef GRAPHC_ANALYSIS_DISTREPORT_H
#define GRAPHC_ANALYSIS_DISTREPORT_H

#include "graphc/Analysis/MachineModel.h"

#include "mlir/IR/BuiltinOps.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace graphc {

/// One runtime channel counter of one task for one step: payload bytes (no
/// message headers) and the number of messages.
struct ChannelCount {
  uint64_t bytes = 0;
  uint64_t messages = 0;
};

struct TaskReport {
  /// The `dist.task` symbol (the manifest's task name) and its device.
  std::string name;
  std::string device;
  /// Ops other than communication, and those whose cost is unknown (a
  /// dynamic shape); unknown ones count as free in the estimate.
  unsigned numOps = 0;
  unsigned unknownCostOps = 0;
  /// Totals of the graph cost interface over the ops with a known cost.
  int64_t flops = 0;
  int64_t bytesMoved = 0;
  /// Estimated seconds of compute alone.
  double computeSeconds = 0;
  /// From the simulation: when the task's step ends, seconds spent moving
  /// bytes (sends, receives past their wait, collectives once all members
  /// are in) and seconds blocked waiting for a peer. Busy time is
  /// computeSeconds + commSeconds; the task idles for the rest of the step.
  double finishSeconds = 0;
  double commSeconds = 0;
  double waitSeconds = 0;
  /// What the runtime's counters of this task show after one step, keyed by
  /// the runtime's channel names: "send:KEY", "recv:KEY", "collective:GROUP".
  std::map<std::string, ChannelCount> counters;
};

/// One `dist.send`/`dist.recv` pair.
struct TransferReport {
  std::string from, to, key;
  /// The tensor type as MLIR prints it.
  std::string type;
  int64_t bytes = 0;
  /// Estimated seconds on the link.
  double seconds = 0;
};

/// One collective (the instances of one key, one per member).
struct CollectiveReport {
  /// "all_reduce", "all_gather", "reduce_scatter", "broadcast", "all_to_all".
  std::string kind;
  std::string key;
  /// Member task names in group order, and the runtime's group name
  /// (members joined by '+').
  std::vector<std::string> group;
  std::string groupName;
  /// The input tensor type and the bytes each member contributes.
  std::string type;
  int64_t bytes = 0;
  /// Bytes of one element of the input.
  int64_t elementBytes = 0;
  /// Bytes each member sends (group order), what its counter adds.
  std::vector<int64_t> sentBytes;
  std::vector<int64_t> messages;
  /// Estimated seconds once every member has arrived.
  double seconds = 0;
  int64_t wireBytes() const;
};

/// One stretch of the critical path.
struct PathStep {
  std::string task;
  /// "compute", "send", "transfer" (a recv that waited for its send),
  /// "recv", or the collective's kind.
  std::string kind;
  std::string name;
  double startSeconds = 0;
  double endSeconds = 0;
};

/// The module attribute where `strategy=auto` says why it chose its
/// placement (an AutoReport as a dictionary).
inline constexpr llvm::StringLiteral kAutoAttrName = "dist.auto";

/// One placement `strategy=auto` tried.
struct AutoCandidateReport {
  /// "given", "replicas=4", "ps replicas=1 ps-tasks=2".
  std::string label;
  /// Tasks of the partitioned job and its estimated step; or, when the
  /// model cannot be placed this way, the first line of the refusal.
  int64_t tasks = 0;
  double stepSeconds = 0;
  std::string refusal;
};

/// Why `strategy=auto` chose what it chose: the module's `dist.auto`.
struct AutoReport {
  std::string chosen;
  int64_t workers = 0;
  /// The machine model's name.
  std::string machine;
  /// Estimated candidates cheapest first, then the refused ones.
  std::vector<AutoCandidateReport> candidates;

  /// The `dist.auto` module attribute, and back (none when `attr` is not
  /// one).
  mlir::DictionaryAttr toAttr(mlir::MLIRContext *ctx) const;
  static std::optional<AutoReport> fromAttr(mlir::Attribute attr);
};

/// One stage of a pipeline (the module's `dist.pipeline`): its tasks, one
/// per replica, and the slowest replica's estimate.
struct StageReport {
  std::vector<std::string> tasks;
  /// Compute for the whole step (every microbatch), busy (compute and
  /// communication) and idle (the rest of the step).
  double computeSeconds = 0;
  double busySeconds = 0;
  double idleSeconds = 0;
};

struct PipelineReport {
  int64_t microbatches = 1;
  int64_t replicas = 1;
  std::vector<StageReport> stages;
  /// GPipe's bubble for P equal stages and M microbatches, (P-1)/(M+P-1),
  /// and the estimate's: the share of the stage tasks' step spent idle.
  double idealBubble = 0;
  double bubble = 0;
};

struct DistReport {
  MachineModel machine;
  /// Set when the job was placed by `strategy=auto`.
  std::optional<AutoReport> autoChoice;
  std::vector<TaskReport> tasks;
  std::vector<TransferReport> transfers;
  std::vector<CollectiveReport> collectives;
  /// Bytes per step that cross between tasks: payload of every send (each
  /// counted once, at the sender, as the "send:" counters count them) and
  /// everything the collective members send (the "collective:" counters).
  int64_t transferBytes = 0;
  int64_t collectiveBytes = 0;
  int64_t totalBytes() const { return transferBytes + collectiveBytes; }
  /// How much slower the tasks compute because they share the machine
  /// model's `shared_cores`: stretched compute over unstretched, summed over
  /// every op (each op is stretched by the tasks computing during it).
  double computeSlowdown = 1;
  /// The estimated step time: the latest task's finish.
  double stepSeconds = 0;
  std::vector<PathStep> criticalPath;
  /// Set when the module was placed as a pipeline.
  std::optional<PipelineReport> pipeline;
};

/// What one compute op costs by the graph cost interface (an op with
/// regions and no cost of its own costs its body). A variable read or a
/// constant is free: it names a buffer the task already holds. None when a
/// cost is unknown (a dynamic shape). The report and the placement
/// strategies that balance work (pipeline stages) use this one definition.
struct OpCost {
  int64_t flops = 0;
  int64_t bytes = 0;
};
std::optional<OpCost> getOpCost(mlir::Operation *op);

/// Seconds the report charges a compute op on `machine` (0 for a variable
/// read, a constant, and an op of unknown cost).
double estimateComputeSeconds(mlir::Operation *op, const MachineModel &machine);

/// Seconds the report charges a collective of `kind` ("all_reduce", ...)
/// over `members` tasks once all are in, `inputCount`/`outputCount`
/// elements of `elementBytes` each: the runtime's algorithms (ring
/// all-reduce, ...), as in docs/design/distribution.md.
double estimateCollectiveSeconds(llvm::StringRef kind, int64_t inputCount,
                                 int64_t outputCount, int64_t elementBytes,
                                 int64_t members, const MachineModel &machine);

/// Analyses a partitioned module: every `dist.task` in it, their
/// communication and an estimate on `machine`. Emits an error and fails when
/// a communicated tensor is not statically shaped or the programs cannot all
/// finish (a recv whose send comes after it in a cycle of waits). With
/// `preparedWeights`, work that reads only weights (variables no task
/// assigns) and constants is left out of the step: the CPU code does it
/// once at load (graphc-cpu-prepare-weights); without, it is charged every
/// step (graphc --prepare-weights=false).
mlir::FailureOr<DistReport> analyzeDistribution(mlir::ModuleOp module,
                                                const MachineModel &machine,
                                                bool preparedWeights = true);

/// The report as JSON (times in integer nanoseconds; see the design doc).
llvm::json::Value reportToJson(const DistReport &report);
/// Writes reportToJson to `path` ("-" is stdout), with the members of
/// `extra` added (graphc's "simulation").
llvm::Error writeReportJson(const DistReport &report, llvm::StringRef path,
                            llvm::json::Object extra = {});
/// The human-readable table graphc prints on stderr.
void printReportTable(const DistReport &report, llvm::raw_ostream &os);

/// Options of the Graphviz view.
struct DotOptions {
  /// Tasks with more compute ops than this are drawn condensed: one node for
  /// each run of compute ops between communication ops.
  unsigned maxOpsPerTask = 40;
};
/// Writes a partitioned module as a Graphviz digraph: one cluster per task,
/// cut edges (send -> recv) across clusters labelled with type and bytes,
/// one node per collective joined to every member's instance.
void printDistDot(mlir::ModuleOp module, llvm::raw_ostream &os,
                  const DotOptions &options = {});

} // namespace graphc

#endif // GRAPHC_ANALYSIS_DISTREPORT_H
