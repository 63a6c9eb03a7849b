//===- Passes.td - graphc's cross-dialect transforms -------*- tablegen -*-===//
//
// Placement, partitioning and collective fusion: the passes that turn one
// graph-dialect function into the programs of the tasks of a job
// (docs/design/distribution.md).
//
//===----------------------------------------------------------------------===//

#ifndef GRAPHC_TRANSFORMS_PASSES_TD
#define GRAPHC_TRANSFORMS_PASSES_TD

include "mlir/Pass/PassBase.td"

def DistPlace : Pass<"dist-place", "mlir::ModuleOp"> {
  let summary = "Decide which task runs every op and holds every variable";
  let description = [{
    Annotates the entry function (and the module's `graph.variable`s) with
    `dist.device` placements naming tasks (job and task index), its arguments
    and results with the task that owns them, and sets the module's
    `dist.cluster` to the tasks used. It restructures nothing except for
    `strategy=replicas`, which rewrites the entry to one replica's shapes and
    inserts the cross-replica placeholders (`dist.replica_split`,
    `dist.replica_concat`).

    Strategies (a registry keyed by name, see graphc/Transforms/Placement.h):

    * `given`: the model's own `dist.device` attributes, partial ones filled
      from `default-device`, colocation groups (`graph.colocate`) honoured,
      an unplaced op with its operands' task (else the default); no
      placement at all puts everything on `default-device`'s task.
    * `replicas`: `replicas` copies of the step on `/job:worker/task:0..N-1`,
      the batch (dimension 0 of the batched inputs) split between them; an op
      that mixes batch rows is an error naming it.
    * `ps`: compute on `/job:worker/task:0` (or its replicas when `replicas`
      is above 1), variables spread over `ps-tasks` parameter servers
      balanced by bytes, their assignments and update ops placed with them.
    * `auto`: every registered strategy offers the option sets that fit a
      cluster of `workers` tasks; each is placed, partitioned and fused on a
      clone of the module and estimated with the communication report's
      step time on `machine-model`; the cheapest is applied. The module gets
      `dist.auto`, the candidates and their estimates (the report prints
      them).
    * `tensor-parallel`: Megatron-style splits of matmul weights over
      `tensor-parallel` tasks (`/job:worker/task:0..T-1`; with `replicas`
      R, replica r's shards on tasks r*T..r*T+T-1): the first matmul of a
      block by output columns, the second by rows, one
      `dist.group_all_reduce` per block; rewrites the entry into one copy
      of every op per task (see docs/design/distribution-2.md).
    * `pipeline`: the ops cut into `pipeline-stages` contiguous stages of
      the entry's order, balanced with the graph cost interface while
      keeping the bytes crossing cuts small; the batch cut into
      `microbatches` slices that every stage runs one after the other
      (GPipe), outputs concatenated on task 0. With `replicas` above 1,
      replica r runs stage k on task r*P + k. Rewrites the entry into those
      explicit copies; an op that mixes batch rows is an error naming it,
      as for `replicas`. A training step (one with
      `dist.replica_all_reduce`) runs as 1F1B: backward ops on the stage
      of the forward op graph-autodiff marked them with, gradients and the
      loss accumulated over the microbatches on their stage, all-reduced
      across replicas, and each weight updated once, on its stage.

    A module that already holds `dist.task` ops is left unchanged.
  }];
  let options = [
    Option<"strategy", "strategy", "std::string", /*default=*/"\"given\"",
           "Placement strategy: given, replicas, ps, pipeline, tensor-parallel or auto">,
    Option<"replicas", "replicas", "int64_t", /*default=*/"1",
           "Number of replicas of the step (replicas, ps)">,
    Option<"psTasks", "ps-tasks", "int64_t", /*default=*/"1",
           "Number of parameter-server tasks (ps)">,
    Option<"workers", "workers", "int64_t", /*default=*/"0",
           "auto: tasks the candidates may use (0: the machine model's "
           "shared_cores, else 4)">,
    Option<"machineModel", "machine-model", "std::string",
           /*default=*/"\"\"",
           "auto: machine-model JSON the candidates are estimated on "
           "(default: the built-in model)">,
    Option<"tensorParallel", "tensor-parallel", "int64_t", /*default=*/"1",
           "Tasks each split weight is spread over (tensor-parallel)">,
    Option<"pipelineStages", "pipeline-stages", "int64_t", /*default=*/"1",
           "Number of pipeline stages (pipeline)">,
    Option<"microbatches", "microbatches", "int64_t", /*default=*/"0",
           "GPipe microbatches per step (pipeline; 0: as many as stages)">,
    Option<"defaultDevice", "default-device", "std::string",
           /*default=*/"\"/job:worker/task:0\"",
           "Device that fills partial placements and takes unplaced ops">,
    Option<"entry", "entry", "std::string", /*default=*/"\"\"",
           "Function to place (default: the only public func.func, or @main)">,
  ];
  let dependentDialects = ["::graphc::dist::DistDialect",
                           "::graphc::graph::GraphDialect"];
  let statistics = [
    Statistic<"numPlaced", "num-placed", "Number of ops placed">,
  ];
}

def DistPartition : Pass<"dist-partition", "mlir::ModuleOp"> {
  let summary = "Outline one dist.task per task, with send/recv on cut edges";
  let description = [{
    Turns the placed entry function (see `dist-place`) into one `dist.task`
    per task of the module's `dist.cluster` (`worker0`, `ps0`, ...; `@main`
    for a one-task job), each holding its ops in the entry's order. Every
    def-use edge between tasks becomes one `dist.send` and one `dist.recv`
    per (value, destination task); a control dependence across tasks
    (`graph.control_deps`) an empty token (`tensor<0xi8>`). The
    cross-replica placeholders become slices, sends, concats and
    `dist.all_reduce`s; variables are cloned per replica and homed on a
    task. A module that already holds `dist.task` ops is left unchanged.
  }];
  let options = [
    Option<"entry", "entry", "std::string", /*default=*/"\"\"",
           "Function to partition (default: the placed function)">,
  ];
  let dependentDialects = ["::graphc::dist::DistDialect",
                           "::graphc::graph::GraphDialect"];
  let statistics = [
    Statistic<"numSends", "num-sends", "Number of send/recv pairs created">,
    Statistic<"numTasks", "num-tasks", "Number of task programs created">,
  ];
}

def DistFuseCollectives : Pass<"dist-fuse-collectives", "mlir::ModuleOp"> {
  let summary = "Fuse consecutive all-reduces of one group into buckets";
  let description = [{
    In each `dist.task`, consecutive `dist.all_reduce`s with the same group,
    reduction and element type, none depending on another, become one
    all-reduce over the flattened concatenation of their inputs (reshape and
    concat before, slice and reshape after), in buckets of at most
    `bucket-bytes` (Horovod's tensor fusion). No use of a result moves
    before the fused op. Every task of a group sees the same all-reduces in
    the same order, so every task forms the same buckets. A mean of f32 or
    f64 joins a sum bucket of its group (a data-parallel step's loss beside
    its gradients): it goes last in the bucket and its slice is divided by
    the group's size, the runtime's mean to the bit, one collective fewer.
  }];
  let options = [
    Option<"bucketBytes", "bucket-bytes", "int64_t",
           /*default=*/"4 * 1024 * 1024",
           "Largest fused all-reduce, in bytes">,
  ];
  let dependentDialects = ["::graphc::dist::DistDialect",
                           "::graphc::graph::GraphDialect"];
  let statistics = [
    Statistic<"numFused", "num-fused", "Number of all-reduces fused away">,
  ];
}

def DistOverlapCollectives : Pass<"dist-overlap-collectives",
                                  "mlir::ModuleOp"> {
  let summary = "Start all-reduces early and wait on them at their first use";
  let description = [{
    Moves every `dist.all_reduce` at the top level of a `dist.task` up to
    just after its input's definition, but never above the task's previous
    communication op (send, recv or collective), so that every task keeps
    its communication in the order it had, the order every member of a
    group shares. The side-effect-free ops that use the result (a bucket's
    slices and reshapes) move down to just before their own first use (the
    optimizer update). An all-reduce with work (an op other than a
    constant, variable read, slice or reshape) between it and its first use
    then gets the unit attribute `dist.overlap`: `convert-dist-to-runtime`
    lowers it to the runtime's `all_reduce_start` where it stands and
    `wait` just before the first op that uses its result, and the runtime's
    communication thread runs the all-reduce while the task computes what
    comes between (the rest of the backward pass, for a gradient bucket).
    `graphc --overlap-collectives=false` leaves this pass out: every
    collective then blocks where it stands.
  }];
  let dependentDialects = ["::graphc::dist::DistDialect"];
  let statistics = [
    Statistic<"numOverlapped", "num-overlapped",
              "Number of all-reduces marked to overlap">,
    Statistic<"numHoisted", "num-hoisted",
              "Number of all-reduces moved up to their input">,
    Statistic<"numSunk", "num-sunk",
              "Number of pure users moved down to their own first use">,
  ];
}

#endif // GRAPHC_TRANSFORMS_PASSES_TD
