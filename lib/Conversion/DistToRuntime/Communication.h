//===- Communication.h - dist communication to graphrt service calls -*- C++
//-*-===//

#ifndef GRAPHC_LIB_CONVERSION_DISTTORUNTIME_COMMUNICATION_H
#define GRAPHC_LIB_CONVERSION_DISTTORUNTIME_COMMUNICATION_H

#include "dist/DistAttrs.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"

#include "llvm/ADT/DenseMap.h"

#include <string>

namespace graphc {

/// Task symbol by the task's device (`/job:J/task:I`).
using TaskNames = llvm::DenseMap<dist::DeviceAttr, std::string>;

/// Replaces the dist communication ops cloned into `run` (a task module's
/// graphc_task_run at tensor level) with calls through the services table,
/// makes `run` return the first failing call's status, and records the
/// task module's `graphrt.channels` and `graphrt.groups`. `self` is the
/// task's name.
mlir::LogicalResult lowerCommunication(mlir::func::FuncOp run,
                                       llvm::StringRef self,
                                       const TaskNames &names);

/// `bufferization.to_buffer %tensor read_only` tagged `graphc.read_for =
/// why`. One-Shot Bufferize treats the to_buffer op itself as the read of
/// the tensor, so the memref must be used right there; a `why` unique in
/// the function (a rendezvous key, a variable) keeps CSE from merging two
/// such ops and so moving a later read up past an in-place write.
mlir::Value readOnlyBuffer(mlir::OpBuilder &b, mlir::Location loc,
                           mlir::Value tensor, llvm::StringRef why);

} // namespace graphc

#endif // GRAPHC_LIB_CONVERSION_DISTTORUNTIME_COMMUNICATION_H
