//===- DistBase.td - dist dialect definition -----------------*- tablegen -*-===//
//
// The dist dialect: *where* a computation runs and how tasks talk.
//
//===----------------------------------------------------------------------===//

#ifndef GRAPHC_DIALECTS_DIST_DISTBASE_TD
#define GRAPHC_DIALECTS_DIST_DISTBASE_TD

include "mlir/IR/OpBase.td"
include "mlir/IR/AttrTypeBase.td"

def Dist_Dialect : Dialect {
  let name = "dist";
  let cppNamespace = "::graphc::dist";
  let summary = "Devices, tasks and the communication between them";
  let description = [{
    The `dist` dialect says *where* graph computation runs and how the tasks
    of a job exchange tensors: device and cluster attributes, one program per
    task, point-to-point send/recv matched by rendezvous key, and collectives
    over explicit groups of tasks.
  }];
}

class Dist_Op<string mnemonic, list<Trait> traits = []>
    : Op<Dist_Dialect, mnemonic, traits>;

#endif // GRAPHC_DIALECTS_DIST_DISTBASE_TD
