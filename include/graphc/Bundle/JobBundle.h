//===- JobBundle.h - task modules to a job bundle's files ---------*- C++
//-*-===//
//
// The last step of graphc, after the named pipelines (graphc/Pipelines/
// GraphcPipelines.h) have lowered every task to a nested module in the LLVM
// dialect with its descriptor: lib/Bundle only writes files. For a job
// bundle (docs/design/job-bundle.md) that is one `<task>.so` per task
// module, one weights file per distinct variable value, and manifest.json
// with every task, channel, collective group and file.
//
//===----------------------------------------------------------------------===//

#ifndef GRAPHC_BUNDLE_JOBBUNDLE_H
#define GRAPHC_BUNDLE_JOBBUNDLE_H

#include "graphc/Pipelines/CpuCodegen.h"

#include "mlir/Support/LLVM.h"
#include "mlir/Support/LogicalResult.h"

#include "llvm/ADT/StringMap.h"

#include <string>
#include <vector>

namespace mlir {
class DialectRegistry;
class ModuleOp;
} // namespace mlir

namespace graphc {

struct BundleOptions {
  /// The job's name in the manifest (informational).
  std::string jobName = "job";
  /// The tasks' code uses OpenMP (links libomp).
  bool openmp = true;
  CpuTargetOptions target;
  LinkOptions link;
  /// Nothing reads the module's variables after the bundle is written: the
  /// weights files are written first and the memory of the initial values
  /// held as resource blobs (the importers' weights) is freed before the
  /// tasks' code is generated, unless the code itself uses the blob. The
  /// module's variables then have no initial values left; a caller that
  /// writes another bundle from the same context (graphc's eval job, a
  /// clone sharing the blobs) must leave this off.
  bool releaseWeights = false;
  /// Nothing reads the module after the bundle is written: each task
  /// module's body is erased as soon as it is translated to LLVM IR
  /// (CpuTargetOptions::eraseModuleBody), so that its memory is not held
  /// through code generation. The module keeps its task modules and their
  /// attributes.
  bool consumeModule = false;
};

/// The weights files of a bundle that writeBundleWeights has written.
struct BundleWeights {
  struct Task {
    /// The task's variables' names, in order (checked again when the rest of
    /// the bundle is written).
    std::vector<std::string> variables;
    /// Each variable's weights file, "" for one without an initial value.
    std::vector<std::string> files;
    /// The files first written for this task (a value another task had
    /// already is not written again), in order.
    std::vector<std::string> written;
  };
  llvm::StringMap<Task> tasks;
  /// Every file written: its SHA-256 (hex) and size.
  llvm::StringMap<std::pair<std::string, uint64_t>> files;
};

/// Writes the weights files of the job bundle `dir` (created) from a module
/// whose task modules hold their variables (after `graphc-task-lowering`;
/// code generation does not change them), and with options.releaseWeights
/// frees the memory of their initial values then. graphc calls it before
/// the task code generation pipeline, so that the weights are not held
/// through it; writeJobBundle given `weights` then writes the rest.
mlir::LogicalResult writeBundleWeights(mlir::ModuleOp module,
                                       llvm::StringRef dir,
                                       const BundleOptions &options,
                                       BundleWeights &weights);

/// Registers what a context must hold before compiling a task: the upstream
/// dialects and their interface extensions the CPU pipeline relies on, and
/// the LLVM IR translations.
void registerTaskCompilation(mlir::DialectRegistry &registry);

/// Writes the job bundle directory `dir` (created; an existing manifest.json
/// there is replaced) from a module after `graphc-task-codegen`: `<task>.so`
/// per task module (linked by lld), the weights files and manifest.json with
/// the SHA-256 of every file. With `weights` (writeBundleWeights on the
/// same module, before code generation), the weights files are those, and
/// a task whose variables differ from theirs is an internal error. Emits a
/// diagnostic naming the task or file on failure.
mlir::LogicalResult writeJobBundle(mlir::ModuleOp module, llvm::StringRef dir,
                                   const BundleOptions &options,
                                   const BundleWeights *weights = nullptr);

/// The TPU target's bundle (docs/design/stablehlo.md): from a module after
/// `graph-to-stablehlo`, `<task>.stablehlo.mlir` per task module (its
/// program, `@main`), the weights files and manifest.json with
/// `target: "stablehlo"` and `entry: "main"`.
mlir::LogicalResult writeStablehloBundle(mlir::ModuleOp module,
                                         llvm::StringRef dir,
                                         const BundleOptions &options);

/// Prints a StableHLO task module as its bundle file holds it: without the
/// graphrt.* signature attributes.
void printStablehloTask(mlir::ModuleOp task, llvm::raw_ostream &os);

/// `--emit=obj`: the object file of the module's one task module. A job of
/// several tasks is refused with an error that lists them and names
/// `--emit=job` (one .so per task) and `--emit=llvm`.
mlir::LogicalResult writeTaskObject(mlir::ModuleOp module,
                                    const BundleOptions &options,
                                    llvm::raw_ostream &os);

} // namespace graphc

#endif // GRAPHC_BUNDLE_JOBBUNDLE_H
