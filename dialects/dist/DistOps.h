//===- DistOps.h - dist dialect ops -----------------------------*- C++ -*-===//

#ifndef GRAPHC_DIALECTS_DIST_DISTOPS_H
#define GRAPHC_DIALECTS_DIST_DISTOPS_H

#include "dist/DistAttrs.h"
#include "dist/DistDialect.h"

#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/CallInterfaces.h"
#include "mlir/Interfaces/ControlFlowInterfaces.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include "dist/DistEnums.h.inc"

namespace graphc::dist {

/// The channels between tasks: every communication op reads and writes it,
/// so none is erased as dead or merged with another.
struct CommunicationResource
    : public mlir::SideEffects::Resource::Base<CommunicationResource> {
  llvm::StringRef getName() final { return "dist::Communication"; }
};

class TaskOp;

namespace detail {
/// Checks shared by every collective (group, enclosing task, cluster).
llvm::LogicalResult verifyCollective(mlir::Operation *op);
} // namespace detail

/// The `dist.cluster` of the module enclosing `op`, or null.
ClusterAttr getEnclosingCluster(mlir::Operation *op);

/// The replica count (`dist.replicas`) of `op` or its nearest ancestor that
/// has one, or none outside a replicated function.
std::optional<int64_t> getReplicaCount(mlir::Operation *op);

/// Runs the module-wide checks: unique task devices, send/recv pairing and
/// collective matching (see the dialect description). Emits at the
/// offending ops.
llvm::LogicalResult verifyCommunication(mlir::ModuleOp module);

} // namespace graphc::dist

#include "dist/DistInterfaces.h.inc"

#define GET_OP_CLASSES
#include "dist/DistOps.h.inc"

#endif // GRAPHC_DIALECTS_DIST_DISTOPS_H
