//===- Passes.td - the passes that make a training step ----*- tablegen -*-===//
//
// Loss, gradients and optimizer updates: the passes of `graphc-train` that
// turn an inference function into a training step
// (docs/design/training.md).
//
//===----------------------------------------------------------------------===//

#ifndef GRAPHC_AUTODIFF_PASSES_TD
#define GRAPHC_AUTODIFF_PASSES_TD

include "mlir/Pass/PassBase.td"

def GraphAutodiff : Pass<"graph-autodiff", "mlir::ModuleOp"> {
  let summary = "Append the gradients of the result named `loss`";
  let description = [{
    Reverse-mode differentiation of every function whose
    `graph.output_names` holds `loss` (a scalar float result). With
    `wrt=variables` (the default) it differentiates with respect to every
    float `graph.variable` the function reads, except those marked
    `graph.trainable = false` and running statistics (variables read only
    as the mean or variance of an inference `graph.batch_norm`); when an
    importer marked some variables `trainable`, only those. With
    `wrt=arguments`, every float argument.
    For each such value NAME (the variable's symbol, or the argument's
    `graph.name`, else `argN`) it appends a result named `grad/NAME` of
    NAME's type; a variable read several times gets the sum of its reads'
    gradients, a value the loss does not depend on a zero gradient.

    The backward ops are graph ops placed before the return. Ops on a path
    from a differentiated value to the loss that have no gradient rule are
    refused by name; integer values and ops off every such path are left
    alone. Shapes on those paths must be static.

    With `loss-scale=S` (mixed precision, docs/design/training.md) the
    backward pass starts from `S` instead of 1, so that small gradients in
    f16 do not flush to zero, and each `grad/NAME` is multiplied by `1/S`
    (rounded to NAME's element type, as PyTorch's GradScaler does) once it
    is back in NAME's own type; the `loss` result is not scaled.

    Example (`wrt=arguments`):

    ```mlir
    func.func @f(%x: tensor<3xf32> {graph.name = "x"}) -> tensor<f32>
        attributes {graph.output_names = ["loss"]} {
      %e = graph.exp %x : (tensor<3xf32>) -> tensor<3xf32>
      %l = graph.reduce %e {axes = array<i64: 0>, kind = #graph<reduce_kind sum>} : (tensor<3xf32>) -> tensor<f32>
      return %l : tensor<f32>
    }
    // becomes (-> tensor<f32>, tensor<3xf32>) with
    // graph.output_names = ["loss", "grad/x"], the gradient being exp(x).
    ```
  }];
  let options = [
    Option<"wrt", "wrt", "std::string", /*default=*/"\"variables\"",
           "What to differentiate with respect to: variables or arguments">,
    Option<"lossScale", "loss-scale", "double", /*default=*/"1.0",
           "Static loss scaling: differentiate loss * S, then multiply each "
           "gradient by 1/S in its own (f32) type">,
  ];
  let dependentDialects = ["::graphc::graph::GraphDialect"];
  let statistics = [
    Statistic<"numGradients", "num-gradients", "Number of grad/ results added">,
    Statistic<"numOpsDifferentiated", "num-ops-differentiated",
              "Number of forward ops given a backward rule">,
  ];
}

def GraphAddLoss : Pass<"graph-add-loss", "mlir::ModuleOp"> {
  let summary = "Replace a model's outputs by its training loss";
  let description = [{
    Appends to the entry function an argument named `labels` (`graph.name`)
    and makes its only result the scalar `loss` (`graph.output_names =
    ["loss"]`), computed from the model's output number `output`:

    * `softmax_cross_entropy`: the output is the logits `[B, C]`; the labels
      are class indices `tensor<Bxi64>`; the loss is the mean over the batch
      of `graph.softmax_cross_entropy {sparse}` (PyTorch's
      `CrossEntropyLoss()`).
    * `mse`: the labels have the output's type; the loss is the mean of the
      squared differences over every element (PyTorch's `MSELoss()`).

    The other outputs are dropped. The output must be a float tensor of
    static shape.

    Example: `graph-add-loss{kind=softmax_cross_entropy labels=y}` on
    `@main(%x) -> tensor<8x10xf32>` gives
    `@main(%x, %y: tensor<8xi64> {graph.name = "y"}) -> tensor<f32>`.
  }];
  let options = [
    Option<"kind", "kind", "std::string", /*default=*/"\"softmax_cross_entropy\"",
           "Loss: softmax_cross_entropy or mse">,
    Option<"labels", "labels", "std::string", /*default=*/"\"labels\"",
           "Name of the labels argument">,
    Option<"output", "output", "int64_t", /*default=*/"0",
           "Index of the model output the loss is applied to">,
    Option<"entry", "entry", "std::string", /*default=*/"\"main\"",
           "The step function">,
  ];
  let dependentDialects = ["::graphc::graph::GraphDialect"];
}

def GraphApplyOptimizer : Pass<"graph-apply-optimizer", "mlir::ModuleOp"> {
  let summary = "Turn grad/NAME results into optimizer updates of NAME";
  let description = [{
    For every result `grad/NAME` (graph-autodiff's) of a function, where
    NAME is a `graph.variable`, removes the result and emits the optimizer's
    update op (`graph.sgd_update`, `graph.momentum_update`,
    `graph.adam_update`) and a `graph.assign_variable` of the weight and of
    each optimizer slot. Slots are new zero-initialised variables
    `NAME/momentum`, `NAME/adam_m`, `NAME/adam_v` with `graph.slot_of =
    "NAME"`; Adam's bias corrections use two scalar variables
    `adam/beta1_power` and `adam/beta2_power` (`graph.slot_of = ""`) that
    hold beta^t for the current step t: they start at beta1 and beta2 and
    are multiplied by them after each step.

    The arithmetic is PyTorch 1.13's: `SGD(lr)`, `SGD(lr, momentum)` (no
    dampening, no Nesterov), `Adam(lr, betas, eps)` (graph.adam_update's
    epsilon is passed as `eps * sqrt(1 - beta2^t)`, which turns TF's
    ApplyAdam into PyTorch's `m / (sqrt(v) / sqrt(1 - beta2^t) + eps)`).

    With `return-weights` the function also returns each updated weight as
    a result named after its variable, then the new value of every other
    variable it sets that is not an optimizer slot (batch norm's running
    statistics), so that a run can fetch the trained model
    (graph-run --output-dir).

    Example: `graph-apply-optimizer{optimizer=sgd lr=0.1}` turns
    `return %loss, %gw` (names `["loss", "grad/w"]`) into
    `%w = graph.read_variable @w`, `%n = graph.sgd_update %w, %gw, %lr`,
    `graph.assign_variable @w, %n` and `return %loss`.
  }];
  let options = [
    Option<"optimizer", "optimizer", "std::string", /*default=*/"\"sgd\"",
           "sgd, momentum or adam">,
    Option<"lr", "lr", "double", /*default=*/"0.01", "Learning rate">,
    Option<"momentum", "momentum", "double", /*default=*/"0.9",
           "Momentum (momentum)">,
    Option<"beta1", "beta1", "double", /*default=*/"0.9", "Adam's beta1">,
    Option<"beta2", "beta2", "double", /*default=*/"0.999", "Adam's beta2">,
    Option<"epsilon", "epsilon", "double", /*default=*/"1e-8", "Adam's eps">,
    Option<"returnWeights", "return-weights", "bool", /*default=*/"false",
           "Also return every updated weight (and running statistic), as a "
           "result named after its variable">,
  ];
  let dependentDialects = ["::graphc::graph::GraphDialect"];
  let statistics = [
    Statistic<"numUpdated", "num-updated", "Number of variables updated">,
  ];
}

def GraphBatchNormTrain : Pass<"graph-batch-norm-train", "mlir::ModuleOp"> {
  let summary = "Batch normalisation with batch statistics, as in training";
  let description = [{
    Replaces every inference `graph.batch_norm` of the entry function by a
    `graph.batch_norm_train` (the statistics of the batch, PyTorch's
    `train()` mode) and, where its mean and variance are variables, updates
    them as PyTorch updates its running statistics:
    `running = (1 - momentum) * running + momentum * batch`, the batch
    variance made unbiased (`* n / (n - 1)`, n the elements per channel).
    The running statistics are marked `graph.trainable = false`; one that is
    also read as something else (an exporter that merged equal initializers,
    such as a fresh BatchNorm's zero mean and zero bias) is first copied to
    its own variable `NAME/running_mean` or `NAME/running_var`.

    Example: `graph.batch_norm %x, %g, %b, %m, %v` with `%m`, `%v` read from
    `@mean`, `@var` becomes `graph.batch_norm_train %x, %g, %b` and two
    `graph.assign_variable`s of `@mean` and `@var`.
  }];
  let options = [
    Option<"momentum", "momentum", "double", /*default=*/"0.1",
           "Weight of the batch in the running statistics (PyTorch's)">,
    Option<"entry", "entry", "std::string", /*default=*/"\"main\"",
           "The step function">,
  ];
  let dependentDialects = ["::graphc::graph::GraphDialect"];
  let statistics = [
    Statistic<"numConverted", "num-converted",
              "Number of batch_norm ops given batch statistics">,
  ];
}

def GraphMixedPrecision : Pass<"graph-mixed-precision", "mlir::ModuleOp"> {
  let summary = "Run a training step's forward pass in bf16 or f16";
  let description = [{
    Mixed-precision training (docs/design/training.md, "Mixed precision"):
    in every function with a result named `loss` (graph-add-loss's), before
    graph-autodiff, the f32 compute is given an element type by op class,
    as PyTorch's `torch.autocast` does:

    * low precision (`precision`): `graph.matmul`, `graph.conv`,
      `graph.conv_transpose`: every f32 operand is cast to bf16 (or f16)
      and the result is low precision;
    * follow: elementwise arithmetic that rounds once (add, sub, mul, div,
      max, min, neg, abs, relu, leaky_relu, elu, gelu, tanh, sigmoid,
      sqrt, clamp, select, compare, sign, floor, ceil, round), max pooling
      and data movement run in low precision when every operand that is an
      activation is low precision (weights and constants take the op's
      precision), and in f32 when any activation operand is f32;
    * f32: everything else, notably the loss (`graph.softmax_cross_entropy`),
      reductions (the loss mean), softmax, batch and layer normalisation
      (their statistics), average pooling, exp, log and pow: low-precision
      operands are cast back to f32.

    Variables stay f32 (the master weights): each read is cast where a
    low-precision op uses it, once per read. Results (the `loss`) and
    assigned values keep their types. graph-autodiff then differentiates
    through the casts, so the backward pass runs in the forward pass's
    precisions and every weight gradient arrives in f32 (the gradient of a
    cast is the cast back), ahead of an optimizer update that stays f32.

    With `emulate` the types stay f32: each low-precision operand and result
    is rounded to the precision and back (two casts) and the arithmetic is
    f32, which gives the numbers of low-precision compute with f32
    accumulation on a target that cannot compute in it (graphc's CPU
    target: x86 without AVX512-BF16 cannot link bf16 arithmetic).

    Example (`precision=bf16`):

    ```mlir
    %w = graph.read_variable @w : tensor<16x32xf32>
    %y = graph.matmul %x, %w : (tensor<8x16xf32>, tensor<16x32xf32>) -> tensor<8x32xf32>
    // becomes
    %w = graph.read_variable @w : tensor<16x32xf32>
    %wl = graph.cast %w {to = bf16} : (tensor<16x32xf32>) -> tensor<16x32xbf16>
    %xl = graph.cast %x {to = bf16} : (tensor<8x16xf32>) -> tensor<8x16xbf16>
    %y = graph.matmul %xl, %wl : (tensor<8x16xbf16>, tensor<16x32xbf16>) -> tensor<8x32xbf16>
    ```
  }];
  let options = [
    Option<"precision", "precision", "std::string", /*default=*/"\"bf16\"",
           "The compute precision: bf16 or f16">,
    Option<"emulate", "emulate", "bool", /*default=*/"false",
           "Keep f32 types and round every low-precision op's operands and "
           "results to the precision and back (for targets that cannot "
           "compute in it: graphc's CPU target with bf16)">,
  ];
  let dependentDialects = ["::graphc::graph::GraphDialect"];
  let statistics = [
    Statistic<"numLowOps", "num-low-ops",
              "Number of ops computing in low precision">,
    Statistic<"numCasts", "num-casts", "Number of casts inserted">,
  ];
}

#endif // GRAPHC_AUTODIFF_PASSES_TD
