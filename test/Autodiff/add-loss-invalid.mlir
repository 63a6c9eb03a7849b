// RUN: graph-opt %s --graph-add-loss="labels=y" --split-input-file -verify-diagnostics

// expected-error @+1 {{graph-add-loss: output 'classes' of @main has type 'tensor<4xi64>'; a loss needs a float output}}
func.func @main(%x: tensor<4x3xf32>) -> tensor<4xi64> attributes {graph.output_names = ["classes"]} {
  %i = graph.arg_reduce %x {axis = 1 : i64, kind = #graph<reduce_kind max>} : (tensor<4x3xf32>) -> tensor<4xi64>
  return %i : tensor<4xi64>
}

// -----

// expected-error @+1 {{graph-add-loss: @main already has an input named 'y'; give the labels another name (--labels=NAME)}}
func.func @main(%x: tensor<4x3xf32> {graph.name = "y"}) -> tensor<4x3xf32> {
  return %x : tensor<4x3xf32>
}

// -----

// expected-error @+1 {{graph-add-loss: softmax_cross_entropy takes logits of shape [batch, classes]; output 'output0' has type 'tensor<2x4x3xf32>'}}
func.func @main(%x: tensor<2x4x3xf32>) -> tensor<2x4x3xf32> {
  return %x : tensor<2x4x3xf32>
}

// -----

// expected-error @+1 {{graph-add-loss: output 'output0' has type 'tensor<?x3xf32>'; training needs static shapes}}
func.func @main(%x: tensor<?x3xf32>) -> tensor<?x3xf32> {
  return %x : tensor<?x3xf32>
}

// -----

// expected-error @+1 {{graph-add-loss: no function @main to add the loss to}}
module {
  func.func @step(%x: tensor<3xf32>) -> tensor<3xf32> {
    return %x : tensor<3xf32>
  }
}
