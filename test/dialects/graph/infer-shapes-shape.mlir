// RUN: graph-opt %s --graph-infer-shapes --split-input-file | FileCheck %s

// graph-infer-shapes refines the dynamic result types of the data-movement
// ops from their operands and attributes.

// CHECK-LABEL: func @refine(
// CHECK-SAME: -> (tensor<3x8xf32>, tensor<3x2xf32>, tensor<3x6xf32>, tensor<3xi64>)
func.func @refine(%x: tensor<2x3x4xf32>, %i: tensor<5xi32>, %z: tensor<f32>)
    -> (tensor<*xf32>, tensor<?x?xf32>, tensor<?x?xf32>, tensor<?xi64>) {
  // CHECK: graph.reshape {{.*}} -> tensor<6x4xf32>
  %r = graph.reshape %x {shape = array<i64: -1, 4>} : (tensor<2x3x4xf32>) -> tensor<?x?xf32>
  // CHECK: graph.transpose {{.*}} -> tensor<4x6xf32>
  %t = graph.transpose %r {perm = array<i64: 1, 0>} : (tensor<?x?xf32>) -> tensor<*xf32>
  // CHECK: graph.concat {{.*}} -> tensor<8x6xf32>
  %c = graph.concat %t, %t {axis = 0 : i64} : (tensor<*xf32>, tensor<*xf32>) -> tensor<*xf32>
  // CHECK: graph.split {{.*}} -> (tensor<2x6xf32>, tensor<6x6xf32>)
  %s:2 = graph.split %c {axis = 0 : i64, sizes = array<i64: 2, -1>} : (tensor<*xf32>) -> (tensor<*xf32>, tensor<*xf32>)
  // CHECK: graph.slice {{.*}} -> tensor<3x6xf32>
  %l = graph.slice %s#1 {starts = array<i64: 5, 0>, limits = array<i64: -1, 6>, strides = array<i64: -2, 1>} : (tensor<*xf32>) -> tensor<?x?xf32>
  // CHECK: graph.pad {{.*}} -> tensor<3x8xf32>
  %p = graph.pad %l, %z {low = array<i64: 0, 1>, high = array<i64: 0, 1>} : (tensor<?x?xf32>, tensor<f32>) -> tensor<*xf32>
  // CHECK: graph.gather {{.*}} -> tensor<3x5xf32>
  %g = graph.gather %p, %i {axis = 1 : i64} : (tensor<*xf32>, tensor<5xi32>) -> tensor<*xf32>
  // CHECK: graph.unsqueeze {{.*}} -> tensor<1x3x5xf32>
  %u = graph.unsqueeze %g {axes = array<i64: 0>} : (tensor<*xf32>) -> tensor<*xf32>
  // CHECK: graph.tile {{.*}} -> tensor<2x3x10xf32>
  %tl = graph.tile %u {multiples = array<i64: 2, 1, 2>} : (tensor<*xf32>) -> tensor<?x?x?xf32>
  // CHECK: graph.squeeze {{.*}} -> tensor<3x5xf32>
  %q = graph.squeeze %u {axes = array<i64: 0>} : (tensor<*xf32>) -> tensor<?x?xf32>
  // CHECK: graph.broadcast_to {{.*}} -> tensor<3x2xf32>
  %b = graph.broadcast_to %z {shape = array<i64: 3, 2>} : (tensor<f32>) -> tensor<?x?xf32>
  // CHECK: graph.shape {{.*}} -> tensor<3xi64>
  %sh = graph.shape %tl : (tensor<?x?x?xf32>) -> tensor<?xi64>
  // CHECK: graph.one_hot {{.*}} -> tensor<3x5xf32>
  %o = graph.one_hot %i, %z, %z {depth = 3 : i64, axis = 0 : i64} : (tensor<5xi32>, tensor<f32>, tensor<f32>) -> tensor<?x?xf32>
  // CHECK: graph.shape {{.*}} : (tensor<3x5xf32>) -> tensor<2xi64>
  %sh2 = graph.shape %o : (tensor<?x?xf32>) -> tensor<?xi64>
  // CHECK: return %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} : tensor<3x8xf32>, tensor<3x2xf32>, tensor<3x6xf32>, tensor<3xi64>
  return %p, %b, %l, %sh : tensor<*xf32>, tensor<?x?xf32>, tensor<?x?xf32>, tensor<?xi64>
}

// -----

// Ops whose result rank or shape follows an operand's type.
// CHECK-LABEL: func @refine_more
func.func @refine_more(%x: tensor<4x5x6xf32>, %i: tensor<3x2xi64>, %s: tensor<2xi64>, %v: tensor<3x6xf32>) {
  // CHECK: graph.dynamic_reshape {{.*}} -> tensor<?x?xf32>
  %d = graph.dynamic_reshape %x, %s : (tensor<4x5x6xf32>, tensor<2xi64>) -> tensor<*xf32>
  // CHECK: graph.gather_nd {{.*}} -> tensor<3x6xf32>
  %g = graph.gather_nd %x, %i : (tensor<4x5x6xf32>, tensor<3x2xi64>) -> tensor<*xf32>
  // CHECK: graph.scatter_nd {{.*}} -> tensor<4x5x6xf32>
  %n = graph.scatter_nd %x, %i, %g : (tensor<4x5x6xf32>, tensor<3x2xi64>, tensor<*xf32>) -> tensor<*xf32>
  // CHECK: graph.scatter_elements {{.*}} -> tensor<3x6xf32>
  %i2 = graph.constant dense<0> : tensor<1x6xi64>
  %u2 = graph.constant dense<1.0> : tensor<1x6xf32>
  %e = graph.scatter_elements %v, %i2, %u2 : (tensor<3x6xf32>, tensor<1x6xi64>, tensor<1x6xf32>) -> tensor<?x?xf32>
  return
}
