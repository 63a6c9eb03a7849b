//===- GraphTrainingOps.td - variables, losses, optimizer updates -*- tablegen -*-===//
//
// Variables are module-level symbols; only `read_variable` and
// `assign_variable` touch their state, through the `VariableResource`
// side-effect resource. Losses and optimizer updates are pure functions of
// their operands: an optimizer step reads variables, computes new values with
// an update op, and assigns them back.
//
//===----------------------------------------------------------------------===//

#ifndef GRAPHC_DIALECTS_GRAPH_GRAPHTRAININGOPS_TD
#define GRAPHC_DIALECTS_GRAPH_GRAPHTRAININGOPS_TD

include "graph/GraphBase.td"
include "mlir/IR/SymbolInterfaces.td"

/// The state of all `graph.variable`s. Reads and writes of variables are
/// effects on it, so CSE does not merge two reads around a write and DCE
/// never drops an assignment.
def Graph_VariableResource : Resource<"::graphc::graph::VariableResource">;

def Graph_AssignMode : I32EnumAttr<"AssignMode",
    "how assign_variable combines the value with the variable", [
      I32EnumAttrCase<"set", 0>, I32EnumAttrCase<"add", 1>,
      I32EnumAttrCase<"sub", 2>]> {
  let genSpecializedAttr = 0;
  let cppNamespace = "::graphc::graph";
}
def Graph_AssignModeAttr
    : EnumAttr<Graph_Dialect, Graph_AssignMode, "assign_mode">;

//===----------------------------------------------------------------------===//
// VariableOp
//===----------------------------------------------------------------------===//

def Graph_VariableOp : Graph_Op<"variable", [Symbol,
    HasParent<"::mlir::ModuleOp">, Graph_CostOpInterface]> {
  let summary = "A module-level tensor variable";
  let description = [{
    Declares a named, statically shaped tensor that persists across calls of
    the module's functions (model weights, optimizer state, step counters).
    The runtime owns its buffer and a checkpoint saves it; placement may move
    it to a parameter server. `initial_value`, when present, must have
    exactly the declared type and is printed without repeating it.
    `trainable` marks the variables that autodiff differentiates with
    respect to. The op has no results: functions reach the variable through
    `graph.read_variable` and `graph.assign_variable`.

    Example:

    ```mlir
    graph.variable @w trainable : tensor<784x10xf32>
    graph.variable @step : tensor<i64> = dense<0>
    ```
  }];
  let arguments = (ins SymbolNameAttr:$sym_name,
                       TypeAttrOf<AnyType>:$type,
                       OptionalAttr<ElementsAttr>:$initial_value,
                       UnitAttr:$trainable);
  let hasCustomAssemblyFormat = 1;
}

//===----------------------------------------------------------------------===//
// ReadVariableOp
//===----------------------------------------------------------------------===//

def Graph_ReadVariableOp : Graph_Op<"read_variable", [
    DeclareOpInterfaceMethods<SymbolUserOpInterface>,
    MemoryEffects<[MemRead<Graph_VariableResource>]>,
    Graph_CostOverride]> {
  let summary = "Reads the current value of a variable";
  let description = [{
    Returns the value of the `graph.variable` named by `variable`. The
    result type is carried by the `value_type` attribute (printed after `:`), not
    derived from the symbol: type inference sees only the op's own operands
    and attributes (no symbol table), so the op states the type and
    `verifySymbolUses` checks that it equals the variable's declared type.

    It reads `VariableResource`, so two reads with an assignment between
    them are not merged. Cost: no arithmetic; the bytes of the result.

    Example:

    ```mlir
    %w = graph.read_variable @w : tensor<784x10xf32>
    ```
  }];
  let arguments = (ins FlatSymbolRefAttr:$variable,
                       TypeAttrOf<AnyStaticShapeTensor>:$value_type);
  let results = (outs AnyStaticShapeTensor:$result);
  let assemblyFormat = "$variable attr-dict `:` $value_type";
}

//===----------------------------------------------------------------------===//
// AssignVariableOp
//===----------------------------------------------------------------------===//

def Graph_AssignVariableOp : Graph_Op<"assign_variable", [
    DeclareOpInterfaceMethods<SymbolUserOpInterface>,
    MemoryEffects<[MemRead<Graph_VariableResource>,
                   MemWrite<Graph_VariableResource>]>,
    Graph_CostOverride]> {
  let summary = "Stores a value into a variable, or adds or subtracts it";
  let description = [{
    Updates the `graph.variable` named by `variable` with `value`: `set`
    (the default) replaces it, `add` and `sub` accumulate into it (TF
    `AssignAddVariableOp` / `AssignSubVariableOp`). `value`'s type must be
    compatible with the variable's (same element type and rank, equal sizes
    where `value`'s are static). The op has no results; its write to
    `VariableResource` keeps it alive and ordered against reads.

    Cost: one operation per element for `add` and `sub`, none for `set`;
    the bytes of `value`.

    Example:

    ```mlir
    graph.assign_variable @w, %w_new : tensor<784x10xf32>
    graph.assign_variable @step, %one mode = add : tensor<i64>
    ```
  }];
  let arguments = (ins FlatSymbolRefAttr:$variable, Graph_Tensor:$value,
                       DefaultValuedAttr<Graph_AssignModeAttr,
                         "::graphc::graph::AssignMode::set">:$mode);
  let assemblyFormat = [{
    $variable `,` $value (`mode` `=` $mode^)? attr-dict `:` type($value)
  }];
}

//===----------------------------------------------------------------------===//
// SoftmaxCrossEntropyOp
//===----------------------------------------------------------------------===//

def Graph_SoftmaxCrossEntropyOp : Graph_Op<"softmax_cross_entropy", [Pure,
    Graph_CostOverride]> {
  let summary = "Softmax cross-entropy loss and its gradient";
  let description = [{
    For `logits` `[batch, classes]`, returns the per-row loss
    `-sum(labels * log_softmax(logits))` `[batch]` and its gradient with
    respect to the logits, `softmax(logits) - labels` `[batch, classes]`
    (TF `SoftmaxCrossEntropyWithLogits`). `labels` is a probability
    distribution of the logits' type, or with `sparse` a class index per row
    (`[batch]`, i32 or i64; TF `SparseSoftmaxCrossEntropyWithLogits`).

    Cost: five operations per element for the softmax and one for the
    gradient; dense labels add three per element (log, multiply, add),
    sparse ones two per row (log, negate).

    Example:

    ```mlir
    %loss, %grad = graph.softmax_cross_entropy %logits, %labels {sparse}
        : (tensor<32x10xf32>, tensor<32xi64>) -> (tensor<32xf32>, tensor<32x10xf32>)
    ```
  }];
  let arguments = (ins Graph_FloatTensor:$logits, Graph_Tensor:$labels,
                       UnitAttr:$sparse);
  let results = (outs Graph_FloatTensor:$loss, Graph_FloatTensor:$grad);
  let assemblyFormat = [{
    $logits `,` $labels attr-dict `:` functional-type(operands, results)
  }];
}

//===----------------------------------------------------------------------===//
// Optimizer updates
//===----------------------------------------------------------------------===//

def Graph_SGDUpdateOp : Graph_Op<"sgd_update", [Pure, Graph_CostOverride]> {
  let summary = "Plain gradient descent step";
  let description = [{
    `param' = param - lr * grad` (TF `ApplyGradientDescent`). `param` and
    `grad` have the same shape; `lr` is a 0-d tensor (or any shape that
    broadcasts to `param`'s without changing it). All share one
    floating-point element type.

    Cost: two operations per element.

    Example:

    ```mlir
    %w1 = graph.sgd_update %w, %dw, %lr : (tensor<784x10xf32>, tensor<784x10xf32>, tensor<f32>) -> tensor<784x10xf32>
    ```
  }];
  let arguments = (ins Graph_FloatTensor:$param, Graph_FloatTensor:$grad,
                       Graph_FloatTensor:$lr);
  let results = (outs Graph_FloatTensor:$new_param);
  let assemblyFormat = [{
    $param `,` $grad `,` $lr attr-dict `:` functional-type(operands, results)
  }];
}

def Graph_MomentumUpdateOp : Graph_Op<"momentum_update", [Pure,
    Graph_CostOverride]> {
  let summary = "Gradient descent step with momentum";
  let description = [{
    TF `ApplyMomentum`: `accum' = accum * momentum + grad`, then
    `param' = param - lr * accum'`, or with `nesterov`
    `param' = param - lr * grad - lr * momentum * accum'`. Returns
    `(param', accum')`. `param`, `accum` and `grad` have one shape; `lr` and
    `momentum` are 0-d (or broadcast to it without changing it).

    Cost: four operations per element, seven with `nesterov`.

    Example:

    ```mlir
    %w1, %a1 = graph.momentum_update %w, %a, %dw, %lr, %mu {nesterov}
        : (tensor<10xf32>, tensor<10xf32>, tensor<10xf32>, tensor<f32>, tensor<f32>) -> (tensor<10xf32>, tensor<10xf32>)
    ```
  }];
  let arguments = (ins Graph_FloatTensor:$param, Graph_FloatTensor:$accum,
                       Graph_FloatTensor:$grad, Graph_FloatTensor:$lr,
                       Graph_FloatTensor:$momentum, UnitAttr:$nesterov);
  let results = (outs Graph_FloatTensor:$new_param,
                      Graph_FloatTensor:$new_accum);
  let assemblyFormat = [{
    $param `,` $accum `,` $grad `,` $lr `,` $momentum attr-dict `:`
    functional-type(operands, results)
  }];
}

def Graph_AdamUpdateOp : Graph_Op<"adam_update", [Pure, Graph_CostOverride]> {
  let summary = "Adam optimizer step";
  let description = [{
    TF `ApplyAdam`:

    ```
    lr_t   = lr * sqrt(1 - beta2_power) / (1 - beta1_power)
    m'     = beta1 * m + (1 - beta1) * grad
    v'     = beta2 * v + (1 - beta2) * grad * grad
    param' = param - lr_t * m' / (sqrt(v') + epsilon)
    ```

    Returns `(param', m', v')`. `param`, `m`, `v` and `grad` have one shape;
    the six hyperparameters are 0-d (or broadcast to it without changing
    it).

    Cost: twelve operations per element plus seven for the scalars
    (`lr_t`, `1 - beta1`, `1 - beta2`).

    Example:

    ```mlir
    %w1, %m1, %v1 = graph.adam_update %w, %m, %v, %dw, %lr, %b1, %b2, %eps, %b1p, %b2p
        : (tensor<10xf32>, tensor<10xf32>, tensor<10xf32>, tensor<10xf32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>)
        -> (tensor<10xf32>, tensor<10xf32>, tensor<10xf32>)
    ```
  }];
  let arguments = (ins Graph_FloatTensor:$param, Graph_FloatTensor:$m,
                       Graph_FloatTensor:$v, Graph_FloatTensor:$grad,
                       Graph_FloatTensor:$lr, Graph_FloatTensor:$beta1,
                       Graph_FloatTensor:$beta2, Graph_FloatTensor:$epsilon,
                       Graph_FloatTensor:$beta1_power,
                       Graph_FloatTensor:$beta2_power);
  let results = (outs Graph_FloatTensor:$new_param, Graph_FloatTensor:$new_m,
                      Graph_FloatTensor:$new_v);
  let assemblyFormat = [{
    $param `,` $m `,` $v `,` $grad `,` $lr `,` $beta1 `,` $beta2 `,` $epsilon
    `,` $beta1_power `,` $beta2_power attr-dict `:`
    functional-type(operands, results)
  }];
}

def Graph_FtrlUpdateOp : Graph_Op<"ftrl_update", [Pure, Graph_CostOverride]> {
  let summary = "FTRL-proximal optimizer step";
  let description = [{
    TF `ApplyFtrl`:

    ```
    accum'    = accum + grad * grad
    linear'   = linear + grad - (accum'^-lr_power - accum^-lr_power) / lr * param
    quadratic = accum'^-lr_power / lr + 2 * l2
    param'    = |linear'| > l1 ? (sign(linear') * l1 - linear') / quadratic : 0
    ```

    Returns `(param', accum', linear')`. `param`, `accum`, `linear` and
    `grad` have one shape; `lr`, `l1`, `l2` and `lr_power` are 0-d (or
    broadcast to it without changing it).

    Cost: eighteen operations per element plus two for the scalars
    (`-lr_power`, `2 * l2`).

    Example:

    ```mlir
    %w1, %a1, %l1n = graph.ftrl_update %w, %a, %lin, %dw, %lr, %l1, %l2, %p
        : (tensor<10xf32>, tensor<10xf32>, tensor<10xf32>, tensor<10xf32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>)
        -> (tensor<10xf32>, tensor<10xf32>, tensor<10xf32>)
    ```
  }];
  let arguments = (ins Graph_FloatTensor:$param, Graph_FloatTensor:$accum,
                       Graph_FloatTensor:$linear, Graph_FloatTensor:$grad,
                       Graph_FloatTensor:$lr, Graph_FloatTensor:$l1,
                       Graph_FloatTensor:$l2, Graph_FloatTensor:$lr_power);
  let results = (outs Graph_FloatTensor:$new_param,
                      Graph_FloatTensor:$new_accum,
                      Graph_FloatTensor:$new_linear);
  let assemblyFormat = [{
    $param `,` $accum `,` $linear `,` $grad `,` $lr `,` $l1 `,` $l2 `,`
    $lr_power attr-dict `:` functional-type(operands, results)
  }];
}

#endif // GRAPHC_DIALECTS_GRAPH_GRAPHTRAININGOPS_TD
