//===- Passes.td - graph dialect passes --------------------*- tablegen -*-===//

#ifndef GRAPHC_DIALECTS_GRAPH_PASSES_TD
#define GRAPHC_DIALECTS_GRAPH_PASSES_TD

include "mlir/Pass/PassBase.td"

def GraphInferShapes : Pass<"graph-infer-shapes", "mlir::ModuleOp"> {
  let summary = "Refine graph op result types from their operands";
  let description = [{
    Walks every function in order and replaces each graph op's result type
    with the meet of its declared and its inferred type, so static shapes flow
    from static inputs through the whole graph. Function result types are
    updated to match what `func.return` returns; a user outside the graph
    dialect that needs the old type gets a `tensor.cast` back to it.

    Functions whose argument types should change first (for example a
    dynamic batch dimension that the user fixes) can be given
    `arg-shapes`: `name:1x3x224x224,...` keyed by function argument index
    (`0:1x3x224x224`) of the function named by `entry`.
  }];
  let options = [
    Option<"entry", "entry", "std::string", /*default=*/"\"\"",
           "Function whose arguments `arg-shapes` refines">,
    ListOption<"argShapes", "arg-shapes", "std::string",
               "Argument shapes as INDEX:DxDx... for the `entry` function">,
  ];
  let dependentDialects = ["mlir::tensor::TensorDialect"];
  let statistics = [
    Statistic<"numRefined", "num-refined", "Number of result types refined">,
  ];
}

def GraphPrintCost : Pass<"graph-print-cost"> {
  let summary = "Report every graph op's cost as a remark";
  let description = [{
    Emits a remark `flops = F, bytes = B` (or `?` for an unknown figure) on
    each op that implements `CostOpInterface`, and a total per function. A
    debugging aid for placement and the communication report.
  }];
}

def GraphHoistWeights : Pass<"graph-hoist-weights", "mlir::ModuleOp"> {
  let summary = "Turn large constants into variables (the model's weights)";
  let description = [{
    Every dense (or `dense_resource`, as the ONNX importer keeps large
    initializers) non-splat `graph.constant` of at least `threshold` bytes
    becomes a module-level `graph.variable @NAME : T = <value>` read with
    `graph.read_variable @NAME` where the constant was. From here on weights
    and trained variables are the same thing: runtime-owned buffers that
    placement can move and a weights file initialises, instead of bytes in
    the task's shared object.

    `NAME` is the constant's source (the ONNX initializer or TF node named
    by its location, after the last `:`), else `constN`, with characters
    other than letters, digits, `_`, `.` and `-` replaced by `_`, and made
    unique among the module's symbols (`W`, `W_1`, ...). Each constant gets
    its own variable even when two hold the same value, since they may be
    updated independently later; the bytes themselves are shared (the
    attribute is reused, and the bundle writer writes one file per distinct
    value). The constant's `dist.device`, when it has one, moves to the
    variable.

    Constants stay where they are when they are splats (cheap to
    materialise), smaller than `threshold`, of a type the runtime has no
    dtype for, or of `i1` (bit-packed in the attribute). A negative
    `threshold` hoists nothing.
  }];
  let options = [
    Option<"threshold", "threshold", "int64_t", /*default=*/"4096",
           "Smallest constant, in bytes, that becomes a variable (negative: "
           "none)">,
  ];
  let statistics = [
    Statistic<"numHoisted", "num-hoisted", "Number of constants hoisted">,
  ];
}

def GraphPretransposeWeights : Pass<"graph-pretranspose-weights",
                                     "mlir::ModuleOp"> {
  let summary = "Store constant right-hand sides of transposed matmuls "
                "transposed, once, at compile time";
  let description = [{
    A fully connected layer imported from ONNX (`Gemm` with `transB=1`,
    PyTorch's `nn.Linear`) or TensorFlow (`MatMul` with `transpose_b`) is a
    `graph.matmul {transpose_rhs}` whose right-hand side is a constant
    weight. Lowered as it is, every step first copies the weight into its
    transpose (AlexNet's first fully connected layer: 151 MB read and 151 MB
    written per image, three times the bytes of the product itself). This
    pass transposes the constant's bytes once and drops `transpose_rhs`, so
    the step reads the weight once, in the row-major `[K, N]` layout the
    GEMM strategy packs.

    A constant is rewritten only when every use of it, and of every other
    constant holding the same bytes (a `dense_resource` blob is shared by
    key: the dynamic batch's chunk body reuses the entry's), is the
    right-hand side of a `transpose_rhs` matmul with a 2-D right-hand side,
    and when no other attribute of the module refers to its blob. A
    `dense_resource` blob is replaced in its manager, so the untransposed
    bytes are freed instead of kept beside the new ones. `i1` and
    element types that are not whole bytes stay as they are; a splat is
    only given its transposed shape.

    Runs on inference graphs before `graph-hoist-weights`, after the
    training passes: trained weights are variables by then and keep the
    layout of the model they came from (`--save` writes them under the
    model's names).
  }];
  let statistics = [
    Statistic<"numTransposed", "num-transposed",
              "Number of constants stored transposed">,
  ];
}

def GraphDynamicBatch : Pass<"graph-dynamic-batch", "mlir::ModuleOp"> {
  let summary = "Compile a dynamic leading (batch) dimension as a loop over "
                "a one-sample body";
  let description = [{
    On the entry function, an argument whose only dynamic dimension is
    dimension 0 is a *batched input*. The pass checks that the function maps
    the batch sample by sample: every op with a batched operand has only
    batched results (`?` in dimension 0 and nowhere else), no axis of such an
    op (`axis`, `axes`, `perm`, the first entry of `starts`, `low`, `high`,
    `multiples`) touches dimension 0, a reshape keeps the product of the other
    dimensions, and every result of the function is batched. It then marks
    the batched arguments and all results `graph.dynamic_batch` and sets
    dimension 0 of the batched arguments to 1; the next `graph-infer-shapes`
    makes the body static. The task's step runs that one-sample body once per
    sample (docs/design/dynamic-batch.md). Anything that mixes samples is an
    error naming the op and the input, telling the user to pass
    `--input-shape`. A function without a batched input is left alone.

    With `chunk` > 1 (default 8) the pass first clones the checked entry as
    the private `@ENTRY_batch_chunk`, whose batched arguments hold `chunk`
    samples, and records it on the entry as `graph.dynamic_batch_chunk =
    {func = @ENTRY_batch_chunk, size = chunk}`: convert-dist-to-runtime
    lowers it as `graphc_task_run_chunk`, and the step runs full chunks
    through it and the remainder through the one-sample body, so batched
    matmuls stay matrix products.

    Example:

    ```mlir
    func.func @main(%x: tensor<?x16xf32>) -> tensor<?x4xf32>
    // becomes
    func.func @main(%x: tensor<1x16xf32> {graph.dynamic_batch})
        -> (tensor<?x4xf32> {graph.dynamic_batch})
    ```
  }];
  let options = [
    Option<"entry", "entry", "std::string", /*default=*/"\"main\"",
           "The function whose batch is dynamic">,
    Option<"chunk", "chunk", "int64_t", /*default=*/"8",
           "Also compile the entry at this many samples (the step runs full "
           "chunks through it and the remainder one sample at a time); 1 "
           "or less: the one-sample body only">,
  ];
}

#endif // GRAPHC_DIALECTS_GRAPH_PASSES_TD
