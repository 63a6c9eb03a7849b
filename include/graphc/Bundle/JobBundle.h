//===- JobBundle.h - a compiled model as a runnable job bundle ---*- C++ -*-===//
//
// The last stage of graphc: a model in the graph dialect becomes a job bundle
// (docs/design/job-bundle.md), a directory with manifest.json, one shared
// object per task that exports `graphrt_task_descriptor_v1`, and the weights.
// The stages are exposed one by one so that `graphc --emit=linalg|llvm|obj`
// can stop after any of them.
//
//===----------------------------------------------------------------------===//

#ifndef GRAPHC_BUNDLE_JOBBUNDLE_H
#define GRAPHC_BUNDLE_JOBBUNDLE_H

#include "graphc/Pipelines/CpuCodegen.h"

#include "mlir/Support/LLVM.h"
#include "mlir/Support/LogicalResult.h"

#include <cstdint>
#include <string>
#include <vector>

namespace mlir {
class DialectRegistry;
class ModuleOp;
class Type;
} // namespace mlir

namespace graphc {

/// Name, manifest dtype ("f32", "i64", ...) and static shape of one tensor of
/// a task, plus the initial value of a variable (raw little-endian bytes).
struct TaskTensor {
  std::string name;
  std::string dtype;
  std::vector<int64_t> shape;
  /// Variables only: the initial value, exactly the tensor's byte size.
  std::string data;
};

/// The signature of one compiled task, in descriptor order.
struct TaskSignature {
  std::string name;
  std::vector<TaskTensor> inputs;
  std::vector<TaskTensor> outputs;
  std::vector<TaskTensor> variables;
};

struct BundleOptions {
  /// The entry function of the graph module.
  std::string entry = "main";
  /// The task's name in the manifest and descriptor.
  std::string taskName = "main";
  /// The job's name in the manifest (informational).
  std::string jobName = "job";
  /// Constants of at least this many bytes become runtime-owned variables
  /// initialised from a weights file; smaller ones (and splats of any size)
  /// stay in the shared object's read-only data. Negative: keep all inline.
  int64_t weightsThresholdBytes = 4096;
  CpuCodegenOptions codegen;
  CpuTargetOptions target;
  LinkOptions link;
};

/// Registers what a context must hold before compiling a task: the upstream
/// dialects and their interface extensions the CPU pipeline relies on, and
/// the LLVM IR translations.
void registerTaskCompilation(mlir::DialectRegistry &registry);

/// Lowers the graph-dialect module to linalg on tensors (`graph-to-linalg`).
mlir::LogicalResult lowerGraphToLinalg(mlir::ModuleOp module);

/// Turns the graph-dialect entry function into a task: dense constants above
/// the threshold become trailing arguments (the task's variables, their
/// values recorded in the signature), then the module is lowered to linalg
/// and wrapped in `graphc_task_run`, a public function over memrefs (inputs,
/// variables, then outputs written in place). Fills `signature`. Emits a
/// diagnostic that names the offending value (an unranked or dynamic input,
/// an unsupported element type) on failure.
mlir::LogicalResult prepareTask(mlir::ModuleOp module,
                                const BundleOptions &options,
                                TaskSignature &signature);

/// Lowers a module from `prepareTask` to the LLVM dialect with the CPU
/// pipeline and adds the task glue: the `graphrt_task_descriptor_v1` global
/// and the step function that hands the runtime's tensors to
/// `graphc_task_run`.
mlir::LogicalResult lowerTaskToLLVM(mlir::ModuleOp module,
                                    const BundleOptions &options,
                                    const TaskSignature &signature);

/// Compiles a graph-dialect module into the job bundle directory `dir`
/// (created; an existing manifest.json there is replaced): prepareTask,
/// lowerTaskToLLVM, an object, `<task>.so` linked by lld, one weights file
/// per variable and manifest.json with the SHA-256 of every file.
mlir::LogicalResult writeJobBundle(mlir::ModuleOp module, llvm::StringRef dir,
                                   const BundleOptions &options);

/// The manifest dtype of an MLIR element type, or "" when the runtime has no
/// dtype for it.
std::string manifestDType(mlir::Type elementType);

} // namespace graphc

#endif // GRAPHC_BUNDLE_JOBBUNDLE_H
