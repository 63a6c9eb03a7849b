//===- TaskAttrs.h - the signature of a task module, as attributes -*- C++
//-*-===//
//
// `dist-outline-tasks` turns each `dist.task` into a nested
// `builtin.module @TASK`; what the runtime needs to know about the task (its
// place in the cluster, inputs, outputs, variables, channels, collective
// groups) is recorded as attributes of that module, so that every later stage
// (`convert-dist-to-runtime`, `graphrt-task-descriptor`, the bundle writer)
// reads one source of truth:
//
//   module @worker0 attributes {
//     graphrt.task = {job = "worker", index = 0 : i64,
//                     device = "/job:worker/task:0/device:CPU:0"},
//     graphrt.inputs = [{name = "x", dtype = "f32", shape = array<i64: 8, 4>}],
//     graphrt.outputs = [...],
//     graphrt.variables = [{name = "w", dtype = "f32", shape = array<i64: 4>,
//                           value = dense<...> : tensor<4xf32>}],
//     graphrt.channels = [{key = "x/worker0->worker1", peer = "worker1",
//                          direction = "send", dtype = "f32",
//                          shape = array<i64: 4, 4>}],
//     graphrt.groups = [{name = "worker0+worker1",
//                        tasks = ["worker0", "worker1"]}]}
//
//===----------------------------------------------------------------------===//

#ifndef GRAPHC_CONVERSION_DISTTORUNTIME_TASKATTRS_H
#define GRAPHC_CONVERSION_DISTTORUNTIME_TASKATTRS_H

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Support/LLVM.h"

#include "llvm/ADT/StringSet.h"

#include <optional>
#include <string>

namespace graphc::task {

inline constexpr llvm::StringLiteral kTaskAttr = "graphrt.task";
inline constexpr llvm::StringLiteral kInputsAttr = "graphrt.inputs";
inline constexpr llvm::StringLiteral kOutputsAttr = "graphrt.outputs";
inline constexpr llvm::StringLiteral kVariablesAttr = "graphrt.variables";
inline constexpr llvm::StringLiteral kChannelsAttr = "graphrt.channels";
inline constexpr llvm::StringLiteral kGroupsAttr = "graphrt.groups";
/// On a graph.variable: the variable this one is a replica's copy of
/// (set by dist-partition), and the weight an optimizer slot belongs to (set
/// by graph-apply-optimizer). Carried into the entries of graphrt.variables
/// as `replica_of` and `slot_of`, and into the manifest.
inline constexpr llvm::StringLiteral kReplicaOfAttr = "graph.replica_of";
inline constexpr llvm::StringLiteral kSlotOfAttr = "graph.slot_of";
/// On an entry argument or result (set by graph-dynamic-batch): dimension
/// 0 is a batch of any size, the type holds one sample.
inline constexpr llvm::StringLiteral kDynamicBatchAttr = "graph.dynamic_batch";
/// A batched dimension in a signature's shape (the manifest's -1).
inline constexpr int64_t kBatchDim = -1;
/// The task's code: inputs, variables, outputs over memrefs.
inline constexpr llvm::StringLiteral kRunFunction = "graphc_task_run";
/// On the entry (graph-dynamic-batch, carried by dist-partition onto the
/// dist.task): {func = @BODY, size = C}, the entry compiled at C samples.
inline constexpr llvm::StringLiteral kDynamicBatchChunkAttr =
    "graph.dynamic_batch_chunk";
/// The chunk body in a task module: kRunFunction's signature with C samples
/// in dimension 0 of every batched tensor; the module's kBatchChunkAttr
/// holds C. The step runs full chunks through it, the rest through
/// kRunFunction.
inline constexpr llvm::StringLiteral kRunChunkFunction =
    "graphc_task_run_chunk";
inline constexpr llvm::StringLiteral kBatchChunkAttr = "graphrt.batch_chunk";
/// Optional (graphc-cpu-prepare-weights): ctx, services and the variables'
/// memrefs, returning the status; computes what depends only on read-only
/// variables into module globals. The runtime calls it after loading or
/// writing the variables (graphrt_task_descriptor_v1_t::prepare).
inline constexpr llvm::StringLiteral kPrepareFunction = "graphc_task_prepare";

/// One tensor of a task's signature or a channel's payload.
struct TensorInfo {
  std::string name;
  std::string dtype;
  llvm::SmallVector<int64_t> shape;
  /// Variables only: the initial value (null: zeroed by the runtime).
  mlir::ElementsAttr value;
  /// Variables only: graph.replica_of and graph.slot_of (see above).
  std::string replicaOf;
  std::optional<std::string> slotOf;
};

struct ChannelInfo {
  std::string key;
  std::string peer;
  bool send = true;
  TensorInfo payload;
};

struct GroupInfo {
  std::string name;
  llvm::SmallVector<std::string> tasks;
};

/// Everything the attributes of a task module say.
struct TaskInfo {
  std::string name;
  std::string job;
  int64_t index = 0;
  std::string device;
  // No inline storage: the entries are large.
  llvm::SmallVector<TensorInfo, 0> inputs, outputs, variables;
  llvm::SmallVector<ChannelInfo, 0> channels;
  llvm::SmallVector<GroupInfo> groups;
};

/// The manifest dtype of an element type ("f32", "i64", "f8e4m3fn", ...), or
/// "" when the runtime has none.
std::string manifestDType(mlir::Type elementType);

/// The graphrt_dtype_t value of a manifest dtype; 0 (INVALID) for none.
int32_t dtypeCode(llvm::StringRef dtype);

/// `{name, dtype, shape[, value]}` for a static tensor type with a dtype.
/// With `dynamicBatch`, dimension 0 of `shape` is -1: the task's code is
/// compiled for one sample of `type` and its step loops over the batch the
/// runtime gives (docs/design/dynamic-batch.md).
mlir::DictionaryAttr tensorEntry(mlir::MLIRContext *ctx, llvm::StringRef name,
                                 mlir::RankedTensorType type,
                                 mlir::ElementsAttr value = {},
                                 bool dynamicBatch = false);

/// `entry` with `replica_of` / `slot_of` added from the variable op `var`'s
/// graph.replica_of / graph.slot_of, when it has them.
mlir::DictionaryAttr withVariableMarks(mlir::DictionaryAttr entry,
                                       mlir::Operation *var);

/// A name for the manifest from a `graph.name` (or `fallback`), unique in
/// the job (`taken` collects them); an output's has no '/', since graph-run
/// writes DIR/<output>.npy.
std::string uniqueName(mlir::StringAttr given, llvm::StringRef fallback,
                       llvm::StringSet<> &taken, bool isOutput);

/// The static tensor type of a task's input, output or variable (`what`
/// `name`); diagnoses at `where` a dynamic shape or an element type the
/// runtime has no dtype for.
mlir::FailureOr<mlir::RankedTensorType>
staticSignatureType(mlir::Operation *where, mlir::Type type,
                    llvm::StringRef what, llvm::StringRef name);

/// True for a nested module that `dist-outline-tasks` made.
bool isTaskModule(mlir::Operation *op);

/// Reads a task module's attributes; emits an error on the module naming the
/// malformed attribute when they do not have the form above.
mlir::FailureOr<TaskInfo> readTask(mlir::ModuleOp task);

} // namespace graphc::task

#endif // GRAPHC_CONVERSION_DISTTORUNTIME_TASKATTRS_H
