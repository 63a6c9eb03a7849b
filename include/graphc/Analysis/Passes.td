//===- Passes.td - analyses of partitioned modules -----------*- tablegen -*-===//

#ifndef GRAPHC_ANALYSIS_PASSES_TD
#define GRAPHC_ANALYSIS_PASSES_TD

include "mlir/Pass/PassBase.td"

def DistReport : Pass<"dist-report", "mlir::ModuleOp"> {
  let summary = "Report the communication and estimated step time of a job";
  let description = [{
    Reads a partitioned module (the output of `graphc-dist`) and prints a
    table on stderr: the tasks and their devices, every transfer (from, to,
    key, tensor type, bytes), every collective (kind, group, the bytes each
    member contributes and sends), the bytes one step moves exactly as the
    runtime's per-channel counters count them (payload only), and an
    estimated step time from simulating the tasks' programs on a machine
    model, with its critical path and each task's busy and idle time. The
    module is not changed.

    With `output`, writes the same report as JSON. `machine-model` names a
    machine-model JSON file; without it the built-in default is used.
    Work that depends only on weights and constants is not charged to the
    step unless `prepared-weights=false` (graphc `--prepare-weights=false`).
  }];
  let options = [
    Option<"output", "output", "std::string", /*default=*/"\"\"",
           "write the report as JSON to this file ('-' for stdout)">,
    Option<"machineModel", "machine-model", "std::string", /*default=*/"\"\"",
           "machine-model JSON file (default: the built-in model)">,
    Option<"quiet", "quiet", "bool", /*default=*/"false",
           "do not print the table">,
    Option<"preparedWeights", "prepared-weights", "bool", /*default=*/"true",
           "work that reads only weights (variables no task assigns) and "
           "constants runs once at load (graphc's default "
           "--prepare-weights), not every step; false charges it per step">,
  ];
}

def DistPrintDot : Pass<"dist-print-dot", "mlir::ModuleOp"> {
  let summary = "Write a partitioned module as a Graphviz graph";
  let description = [{
    One cluster per `dist.task`, ops as nodes with their data edges; a task
    with more than `max-ops` compute ops is condensed to one node per run of
    compute ops between communication ops (its op count and FLOPs). Every
    send -> recv pair is an edge across clusters labelled with the tensor
    type and bytes; every collective is one node joined to each member's
    instance. The module is not changed.
  }];
  let options = [
    Option<"output", "output", "std::string", /*default=*/"\"-\"",
           "file to write the graph to ('-' for stdout)">,
    Option<"maxOps", "max-ops", "unsigned", /*default=*/"40",
           "draw tasks with more compute ops than this condensed">,
  ];
}

#endif // GRAPHC_ANALYSIS_PASSES_TD
