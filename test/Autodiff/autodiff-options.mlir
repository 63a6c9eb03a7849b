// RUN: not graph-opt %s --graph-autodiff=wrt=weights 2>&1 | FileCheck %s
// CHECK: graph-autodiff: unknown wrt='weights'; use wrt=variables or wrt=arguments

func.func @f(%x: tensor<f32>) -> tensor<f32> attributes {graph.output_names = ["loss"]} {
  return %x : tensor<f32>
}
