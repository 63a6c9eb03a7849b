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
  ];
  let dependentDialects = ["::graphc::graph::GraphDialect"];
  let statistics = [
    Statistic<"numGradients", "num-gradients", "Number of grad/ results added">,
    Statistic<"numOpsDifferentiated", "num-ops-differentiated",
              "Number of forward ops given a backward rule">,
  ];
}

#endif // GRAPHC_AUTODIFF_PASSES_TD
