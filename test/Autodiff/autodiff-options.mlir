// RUN: not graph-opt %s --graph-autodiff=wrt=weights 2>&1 | FileCheck %s
// CHECK: graph-autodiff: unknown wrt='weights'; use wrt=variables or wrt=arguments
// With wrt=variables (the default), a loss that reads no variable has
// nothing to train.
// RUN: not graph-opt %s --graph-autodiff 2>&1 | FileCheck %s --check-prefix=NOVARS
// NOVARS: graph-autodiff: @f reads no trainable float variable, so there is nothing to train; weights passed as inputs are not trained

func.func @f(%x: tensor<f32>) -> tensor<f32> attributes {graph.output_names = ["loss"]} {
  return %x : tensor<f32>
}
