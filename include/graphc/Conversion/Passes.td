//===- Passes.td - conversion passes between graphc dialects -*- tablegen -*-===//

#ifndef GRAPHC_CONVERSION_PASSES_TD
#define GRAPHC_CONVERSION_PASSES_TD

include "mlir/Pass/PassBase.td"

def ConvertGraphToLinalg : Pass<"graph-to-linalg", "mlir::ModuleOp"> {
  let summary = "Lower graph ops to linalg, tensor, arith and math on tensors";
  let description = [{
    The first step of CPU (and GPU) code generation: every computational
    graph op becomes upstream structured ops on tensors (named linalg ops
    where they exist: `linalg.matmul`, `linalg.batch_matmul`,
    `linalg.conv_2d_nchw_fchw`, `linalg.pooling_nchw_max`, `linalg.transpose`,
    ...; `linalg.generic` with broadcasting indexing maps for elementwise
    math and reductions), `tensor` ops for data movement and `arith`/`math`
    for the scalar bodies.

    Shapes must be ranked: an unranked operand is an error that asks for
    `graph-infer-shapes` or `--input-shape`. Elementwise ops and reductions
    accept dynamic dimensions (a dynamic dimension must match the result's
    size at run time, which a `cf.assert` checks; it is never broadcast); the
    other ops need static shapes. Every computational op is lowered; variables,
    which the runtime owns, stay in place. An op that cannot be lowered as
    given (e.g. dynamic shapes where static ones are needed) makes the pass
    fail with a reason and "failed to legalize operation 'graph.<op>'".
  }];
  let dependentDialects = [
    "mlir::arith::ArithDialect",
    "mlir::cf::ControlFlowDialect",
    "mlir::linalg::LinalgDialect",
    "mlir::math::MathDialect",
    "mlir::scf::SCFDialect",
    "mlir::tensor::TensorDialect",
  ];
}

def ConvertDistToRuntime : Pass<"convert-dist-to-runtime", "mlir::ModuleOp"> {
  let summary = "Turn each dist.task into a task module calling the graphrt services";
  let description = [{
    The dist -> runtime conversion (docs/design/distribution.md, "Task
    lowering"). Each `dist.task @TASK` becomes a nested `builtin.module
    @TASK` holding `func.func @graphc_task_run(%ctx: !llvm.ptr, %services:
    !llvm.ptr, inputs..., variables..., outputs...) -> !llvm.ptr` over
    identity-layout memrefs, and the task's signature as attributes of the
    module (graphc/Conversion/DistToRuntime/TaskAttrs.h): `graphrt.task`
    (job, index, device), `graphrt.inputs` and `graphrt.outputs` (names from
    `graph.name`, unique in the job), `graphrt.variables` (the module's
    `graph.variable`s whose `dist.device` is this task, in module order,
    with their initial values), `graphrt.channels` and `graphrt.groups`. A
    module without `dist.task` ops is one task, `main`, made from the
    function `entry`, with every variable. One pass rather than two because
    the dist ops are only valid inside a `dist.task`.

    **Tensors.** Inputs and variables enter the body through
    `bufferization.to_tensor restrict` (read-only), outputs leave through
    `bufferization.materialize_in_destination ... in restrict writable`, so
    bufferization computes results straight into the runtime's buffers.
    **Variables.** `graph.read_variable` yields the variable's current
    value; `graph.assign_variable` (set, add, sub) makes a new one, and after
    the outputs are written each updated variable's buffer is overwritten
    with its final value (a training step's update) by a `memref.copy`.
    Functions the entry calls are copied into every task module, private;
    the tasks, functions and `graph.variable`s leave the outer module.

    **Communication.** `dist.send`, `dist.recv`, `dist.all_reduce`,
    `dist.all_gather`, `dist.reduce_scatter`, `dist.broadcast` and
    `dist.all_to_all` become calls of a private helper (one per op) whose
    body, in the LLVM dialect, calls the matching entry of the
    `graphrt_services_v1_t` table with `%ctx`. An operand enters the helper
    as `bufferization.to_buffer ... read_only`; a result is a fresh
    `memref.alloc` the helper fills, turned back into a tensor by
    `bufferization.to_tensor restrict writable`, so the CPU pipeline's
    ownership-based deallocation frees it after its last use. The module
    records `graphrt.channels` (key, peer task, direction, payload dtype and
    shape) and `graphrt.groups` (one per distinct member list, named after
    its members in the group's order, `worker0+worker1`).

    **Failure.** The step's status lives in a stack slot of
    `graphc_task_run`. A helper whose service call fails stores the status
    there; every later helper sees a non-null slot and skips its call (no
    communication after a failure: peers are not fed garbage, and a
    collective fails in the peers instead of waiting), and `graphc_task_run`
    returns the slot, which the step returns to the runtime. Computation
    between the calls still runs on whatever the skipped buffers hold; the
    runtime discards a failed step's outputs.

    **Layouts.** The runtime's collectives exchange flat, rank-major
    blocks. An all_gather or reduce_scatter along an axis with non-unit
    dimensions before it moves the axis first (`linalg.transpose`) around
    the call; an all_to_all whose split or concat axis is not leading moves
    the split axis first for the call, then puts each received block back
    in the original layout and stacks the blocks along the concat axis
    (`tensor.expand_shape`, transposes, `tensor.collapse_shape`).

    **Limits.** A `prod` reduction, which graphrt has no operator for, and
    variable accesses inside nested regions are refused.
  }];
  let options = [
    Option<"entry", "entry", "std::string", /*default=*/"\"main\"",
           "The entry function of a module without dist.task ops">,
  ];
  let dependentDialects = [
    "mlir::arith::ArithDialect",
    "mlir::bufferization::BufferizationDialect",
    "mlir::func::FuncDialect",
    "mlir::linalg::LinalgDialect",
    "mlir::scf::SCFDialect",
    "mlir::LLVM::LLVMDialect",
    "mlir::memref::MemRefDialect",
    "mlir::tensor::TensorDialect",
    "graphc::dist::DistDialect",
    "graphc::graph::GraphDialect",
  ];
}

def GraphrtTaskDescriptor : Pass<"graphrt-task-descriptor", "mlir::ModuleOp"> {
  let summary = "Add the graphrt descriptor and step function to a lowered task module";
  let description = [{
    Runs on a task module in the LLVM dialect (after `graphc-cpu-codegen`),
    where `graphc_task_run` takes `%ctx`, `%services` and one expanded memref
    descriptor (allocated, aligned, offset, sizes, strides) per input,
    variable and output and returns the step's status. Adds what the runtime
    sees (runtime/include/graphrt/graphrt.h): the exported constant
    `graphrt_task_descriptor_v1` (ABI version, struct size, the task name,
    the input, output and variable signatures, the channels and collective
    groups of the module's attributes) and the internal `graphc_task_step`,
    a `graphrt_task_step_fn_t` that reads `data` out of each
    `graphrt_tensor_t`, calls `graphc_task_run` with the descriptors
    expanded (shapes are static, so sizes and strides are constants) and
    returns its status. `graphc_task_run` becomes internal: the descriptor
    is the library's only export. Runs on every task module below the
    anchor (the anchor itself when it is one).
  }];
  let dependentDialects = ["mlir::LLVM::LLVMDialect"];
}

def ConvertGraphToStableHLO : Pass<"graph-to-stablehlo", "mlir::ModuleOp"> {
  let summary = "Turn each dist.task into a StableHLO module for XLA/PJRT";
  let description = [{
    The TPU target (`graphc --target=tpu`, docs/design/stablehlo.md). Each
    `dist.task @TASK` (a module without any: the function `entry`, as task
    `main`) becomes a nested `builtin.module @TASK` holding one
    `func.func @main(inputs..., variables...) -> (outputs..., updated
    variables...)` of `stablehlo` ops; arguments and results carry their
    names as `graphc.name`, and the module the task's signature as the
    `graphrt.*` attributes the bundle writer reads (as
    `convert-dist-to-runtime` does for the CPU).

    **Ops.** Elementwise math with numpy broadcasting made explicit
    (`broadcast_in_dim`), `graph.matmul` as `dot_general` (batched,
    transposed, broadcast batch dimensions), `graph.conv` as `convolution`
    (strides, padding, dilations, groups, bias), `graph.pool` as
    `reduce_window` (max; average dividing by the window or by the count of
    unpadded elements), `graph.reduce` as `reduce` with a region, softmax,
    log-softmax, batch and layer normalization decomposed, data movement
    (reshape, squeeze, transpose, broadcast, concat, slice, pad, gather),
    constants, casts, compare, select, clamp and SGD updates. Variables
    read the value they hold at that point of the step; an assignment
    makes the value returned for it.

    **Communication.** `dist.send`/`dist.recv` become `stablehlo.send`/
    `stablehlo.recv` threaded on one token, with one channel id per
    rendezvous key (ids from 1 in the order keys first appear in the
    module, so both ends agree); `dist.all_reduce` becomes
    `stablehlo.all_reduce` with `replica_groups` (the members' task
    positions) and a channel per key. The module records `graphc.channels`
    (`{key, handle}`).

    **Replicas.** With `spmd` (graphc: `--replicas N` alone) a job of N
    identical replica tasks becomes one module `@replica` with
    `mhlo.num_replicas = N` and `mhlo.num_partitions = 1`: the program of
    the last replica, whose batch slice and results travel as its own
    inputs and outputs (each replica gets its shard), its gradient
    all-reduces over all replicas.

    **Failure.** An op with no StableHLO lowering, a dynamic shape or an
    unsupported attribute is an error naming the op and the task.
  }];
  let options = [
    Option<"entry", "entry", "std::string", /*default=*/"\"main\"",
           "The entry function of a module without dist.task ops">,
    Option<"spmd", "spmd", "bool", /*default=*/"false",
           "Make a job of identical replicas one SPMD module">,
  ];
  let dependentDialects = [
    "mlir::func::FuncDialect",
    "graphc::stablehlo::StablehloDialect",
  ];
}

#endif // GRAPHC_CONVERSION_PASSES_TD
