// RUN: graph-opt %s --graph-apply-optimizer --split-input-file -verify-diagnostics
// RUN: not graph-opt %s --graph-apply-optimizer=optimizer=rmsprop --split-input-file 2>&1 | FileCheck %s
// CHECK: graph-apply-optimizer: unknown optimizer 'rmsprop'; use sgd, momentum or adam

// expected-error @+1 {{graph-apply-optimizer: result 'grad/x' of @main has no graph.variable @x to update (was it differentiated with wrt=arguments?)}}
func.func @main(%x: tensor<2xf32>) -> (tensor<f32>, tensor<2xf32>) attributes {graph.output_names = ["loss", "grad/x"]} {
  %l = graph.constant dense<2.0> : tensor<f32>
  return %l, %x : tensor<f32>, tensor<2xf32>
}

// -----

// expected-error @+1 {{graph-apply-optimizer: no function has grad/ results; run graph-autodiff first}}
module {
  func.func @main(%x: tensor<2xf32>) -> tensor<2xf32> {
    return %x : tensor<2xf32>
  }
}
