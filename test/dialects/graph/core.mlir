// RUN: graph-opt %s | graph-opt | FileCheck %s
// RUN: graph-opt %s --verify-roundtrip | FileCheck %s

// CHECK-LABEL: func @core
func.func @core(%x: tensor<2x3xf32>, %b: tensor<3xf32>) -> tensor<2x3xf32> {
  // CHECK: %[[C:.*]] = graph.constant dense<1.000000e+00> : tensor<3xf32>
  %c = graph.constant dense<1.0> : tensor<3xf32>
  // CHECK: %[[I:.*]] = graph.identity %{{.*}} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %i = graph.identity %x : (tensor<2x3xf32>) -> tensor<2x3xf32>
  // CHECK: graph.add %[[I]], %[[C]] : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  %y = graph.add %i, %c : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  // CHECK: graph.matmul %{{.*}}, %{{.*}} {transpose_rhs} : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x2xf32>
  %m = graph.matmul %y, %y {transpose_rhs} : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x2xf32>
  return %y : tensor<2x3xf32>
}
