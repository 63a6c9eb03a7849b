//===- TaskSources.h - the task programs of a partitioned module -*- C++
//-*-===//
//
// What every target's task lowering starts from (convert-dist-to-runtime for
// the CPU, graph-to-stablehlo for the TPU): the module's task programs and
// the variables each one owns.
//
//===----------------------------------------------------------------------===//

#ifndef GRAPHC_CONVERSION_DISTTORUNTIME_TASKSOURCES_H
#define GRAPHC_CONVERSION_DISTTORUNTIME_TASKSOURCES_H

#include "dist/DistOps.h"
#include "graph/GraphOps.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Interfaces/FunctionInterfaces.h"

#include <string>

namespace graphc::task {

/// A task program: a `dist.task`, or (a module without any) the entry
/// function as task `main` on /job:worker/task:0.
struct TaskSource {
  mlir::Operation *op;
  std::string name;
  std::string job;
  int64_t index;
  /// `/job:J/task:I`, to match variables' `dist.device`.
  dist::DeviceAttr device;
  mlir::FunctionOpInterface fn;
};

/// The task programs of `module`, in module order; without `dist.task` ops
/// the function `entry`. Emits an error naming `entry` when there is
/// neither (what to do: `entry=NAME`, graphc's --entry).
mlir::FailureOr<llvm::SmallVector<TaskSource>>
collectTaskSources(mlir::ModuleOp module, llvm::StringRef entry);

/// The task program's only block; emits an error at the task naming the
/// block count when its function has several (a task lowers to one
/// straight-line step).
mlir::FailureOr<mlir::Block *> singleBlock(const TaskSource &t);

/// Each task's own `graph.variable`s (their `dist.device`; every variable
/// when there is one task), in module order, indexed like `tasks`. Emits an
/// error at an unplaced variable of a job of several tasks.
mlir::FailureOr<llvm::SmallVector<llvm::SmallVector<graph::VariableOp>>>
variablesByTask(mlir::ModuleOp module, llvm::ArrayRef<TaskSource> tasks);

/// A variable's static type and its `graphrt.variables` entry (name, dtype,
/// shape, initial value, replica_of/slot_of); diagnoses at the variable a
/// type a task signature cannot have.
mlir::FailureOr<std::pair<mlir::RankedTensorType, mlir::DictionaryAttr>>
variableSignature(graph::VariableOp v);

} // namespace graphc::task

#endif // GRAPHC_CONVERSION_DISTTORUNTIME_TASKSOURCES_H
