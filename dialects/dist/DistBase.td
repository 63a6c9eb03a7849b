//===- DistBase.td - dist dialect definition -----------------*- tablegen -*-===//
//
// The dist dialect: *where* a computation runs and how tasks talk. This file
// holds the dialect, its enums and the communication side-effect resource.
//
//===----------------------------------------------------------------------===//

#ifndef GRAPHC_DIALECTS_DIST_DISTBASE_TD
#define GRAPHC_DIALECTS_DIST_DISTBASE_TD

include "mlir/IR/OpBase.td"
include "mlir/IR/AttrTypeBase.td"
include "mlir/IR/EnumAttr.td"
include "mlir/Interfaces/SideEffectInterfaces.td"

def Dist_Dialect : Dialect {
  let name = "dist";
  let cppNamespace = "::graphc::dist";
  let summary = "Devices, tasks and the communication between them";
  let description = [{
    The `dist` dialect says *where* graph computation runs and how the tasks
    of a job exchange tensors: device and cluster attributes, one program per
    task, point-to-point send/recv matched by rendezvous key, and collectives
    over explicit groups of tasks.

    A partitioned job is one `builtin.module` that carries the cluster it runs
    on and holds one `dist.task` per task:

    ```mlir
    module attributes {dist.cluster = #dist.cluster<{worker = 2 x [CPU:0]}>} {
      dist.task @w0 on #dist.device<"/job:worker/task:0"> (%x: tensor<4xf32>) {
        dist.send %x to #dist.device<"/job:worker/task:1"> key "x" : tensor<4xf32>
        dist.return
      }
      dist.task @w1 on #dist.device<"/job:worker/task:1"> () -> tensor<4xf32> {
        %x = dist.recv from #dist.device<"/job:worker/task:0"> key "x" : tensor<4xf32>
        dist.return %x : tensor<4xf32>
      }
    }
    ```

    **Discardable attributes.** `dist.cluster` (a `#dist.cluster`, only on a
    `builtin.module`) names the cluster; `dist.device` (a `#dist.device`, on
    any op, function argument or result) is a placement request honoured by
    `dist-place`, and after it the placement itself; `dist.replicas` (a
    positive integer, only on a function) says the function is the step of
    each of that many replicas (see `dist.replica_split`); `dist.pipeline`
    (`{stages = P, microbatches = M, replicas = R}`, positive integers, only
    on a `builtin.module`) says the module was placed as a pipeline of P
    stages run on M microbatches, stage k of replica r on task r*P + k of
    the worker job (the report reads it). Any other `dist.*` attribute name
    is rejected.

    **Where the checks run.** Each op verifies what it can see alone: a
    `dist.task` names a task (job and task index) of the enclosing module's
    `dist.cluster`; a send, recv or collective sits inside a `dist.task`, its
    peers and group members are tasks of the cluster, and a collective's own
    task is a member of its group. The checks that need the whole module run
    once per module, after every nested op has verified, from
    `verifySymbolUses` of the module's first `dist.task` (the `SymbolTable`
    trait of `builtin.module` calls it when it verifies its region):

    * no two `dist.task` ops run on the same task;
    * every rendezvous key of `dist.send`/`dist.recv` is used by exactly one
      send and one recv, with the same tensor type, and the peers mirror each
      other: a send in task A to B pairs with a recv in task B from A;
    * every collective key names one collective instance per group member
      task, all of the same kind, group, types and attributes, and no key is
      shared between point-to-point and collective communication.

    Running them from `verifySymbolUses` rather than from the dialect's
    `verifyOperationAttribute` hook on `dist.cluster` matters: that hook runs
    before the nested ops are verified, so it would see malformed ops and would
    hide their own, more precise, diagnostics behind a matching error.

    **Side effects.** Communication ops read and write the
    `dist::Communication` resource, so they are neither erased when their
    results are unused (a peer would wait forever) nor merged by CSE.
  }];
  let useDefaultAttributePrinterParser = 1;
  let hasOperationAttrVerify = 1;
  let extraClassDeclaration = [{
    /// The module attribute holding the `#dist.cluster`.
    static constexpr ::llvm::StringLiteral kClusterAttrName = "dist.cluster";
    /// The placement attribute (a `#dist.device`) any op may carry.
    static constexpr ::llvm::StringLiteral kDeviceAttrName = "dist.device";
    /// The replica count (a positive integer) of a replicated function.
    static constexpr ::llvm::StringLiteral kReplicasAttrName = "dist.replicas";
    /// The pipeline a module was placed as (`{stages = P, microbatches = M,
    /// replicas = R}`, positive integers): stage k of replica r runs on task
    /// r*P + k of the worker job. The report reads it.
    static constexpr ::llvm::StringLiteral kPipelineAttrName = "dist.pipeline";

    /// Registers the attributes of DistAttrs.td (defined in DistAttrs.cpp).
    void registerAttributes();
  }];
}

//===----------------------------------------------------------------------===//
// Enums
//===----------------------------------------------------------------------===//

def Dist_ReductionKind : I32EnumAttr<"ReductionKind",
    "how a collective combines the tensors of the group", [
      I32EnumAttrCase<"sum", 0>, I32EnumAttrCase<"mean", 1>,
      I32EnumAttrCase<"max", 2>, I32EnumAttrCase<"min", 3>,
      I32EnumAttrCase<"prod", 4>]> {
  let cppNamespace = "::graphc::dist";
}

//===----------------------------------------------------------------------===//
// Side-effect resource
//===----------------------------------------------------------------------===//

/// The channels between tasks. Every communication op reads and writes it.
def Dist_CommunicationResource
    : Resource<"::graphc::dist::CommunicationResource">;
def Dist_CommunicationEffects : MemoryEffects<[
    MemRead<Dist_CommunicationResource>, MemWrite<Dist_CommunicationResource>]>;

class Dist_Op<string mnemonic, list<Trait> traits = []>
    : Op<Dist_Dialect, mnemonic, traits>;

#endif // GRAPHC_DIALECTS_DIST_DISTBASE_TD
