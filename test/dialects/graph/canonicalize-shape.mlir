// RUN: graph-opt %s --canonicalize --split-input-file | FileCheck %s

// Canonicalization patterns of the data-movement ops: dynamic_reshape with a
// constant shape, and static squeeze/unsqueeze, become graph.reshape.

// CHECK-LABEL: func @dynamic_reshape_constant_shape
// CHECK-SAME: (%[[X:.*]]: tensor<?xf32>)
func.func @dynamic_reshape_constant_shape(%x: tensor<?xf32>) -> tensor<?x?xf32> {
  // CHECK-NOT: graph.dynamic_reshape
  // CHECK-NOT: graph.constant
  // CHECK: %[[R:.*]] = graph.reshape %[[X]] {shape = array<i64: -1, 4>} : (tensor<?xf32>) -> tensor<?x?xf32>
  // CHECK: return %[[R]]
  %s = graph.constant dense<[-1, 4]> : tensor<2xi64>
  %0 = graph.dynamic_reshape %x, %s : (tensor<?xf32>, tensor<2xi64>) -> tensor<?x?xf32>
  return %0 : tensor<?x?xf32>
}

// -----

// Once it is a reshape, a constant input folds too: [[1, 2], [3, 4], [5, 6]].
// CHECK-LABEL: func @dynamic_reshape_constant_input
func.func @dynamic_reshape_constant_input() -> tensor<3x2xi32> {
  // CHECK: %[[C:.*]] = graph.constant dense<{{\[}}[1, 2], [3, 4], [5, 6]]> : tensor<3x2xi32>
  // CHECK-NOT: graph.reshape
  // CHECK: return %[[C]]
  %c = graph.constant dense<[1, 2, 3, 4, 5, 6]> : tensor<6xi32>
  %s = graph.constant dense<[3, 2]> : tensor<2xi64>
  %0 = graph.dynamic_reshape %c, %s : (tensor<6xi32>, tensor<2xi64>) -> tensor<3x2xi32>
  return %0 : tensor<3x2xi32>
}

// -----

// A constant shape that cannot hold the input stays a dynamic_reshape (it
// fails at run time, not in the compiler).
// CHECK-LABEL: func @dynamic_reshape_bad_constant
func.func @dynamic_reshape_bad_constant(%x: tensor<6xf32>) -> tensor<?x?xf32> {
  // CHECK: graph.dynamic_reshape
  // CHECK-NOT: graph.reshape
  %s = graph.constant dense<[4, 2]> : tensor<2xi64>
  %0 = graph.dynamic_reshape %x, %s : (tensor<6xf32>, tensor<2xi64>) -> tensor<?x?xf32>
  return %0 : tensor<?x?xf32>
}

// -----

// An unranked result cannot become a graph.reshape, whose result is ranked.
// CHECK-LABEL: func @dynamic_reshape_unranked_result
func.func @dynamic_reshape_unranked_result(%x: tensor<6xf32>) -> tensor<*xf32> {
  // CHECK: graph.dynamic_reshape
  %s = graph.constant dense<[3, 2]> : tensor<2xi64>
  %0 = graph.dynamic_reshape %x, %s : (tensor<6xf32>, tensor<2xi64>) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

// CHECK-LABEL: func @squeeze_static
// CHECK-SAME: (%[[X:.*]]: tensor<1x3x1xf32>)
func.func @squeeze_static(%x: tensor<1x3x1xf32>) -> tensor<3xf32> {
  // CHECK-NOT: graph.squeeze
  // CHECK: %[[R:.*]] = graph.reshape %[[X]] {shape = array<i64: 3>} : (tensor<1x3x1xf32>) -> tensor<3xf32>
  // CHECK: return %[[R]]
  %0 = graph.squeeze %x {axes = array<i64: 0, 2>} : (tensor<1x3x1xf32>) -> tensor<3xf32>
  return %0 : tensor<3xf32>
}

// -----

// CHECK-LABEL: func @unsqueeze_static
// CHECK-SAME: (%[[X:.*]]: tensor<2x3xf32>)
func.func @unsqueeze_static(%x: tensor<2x3xf32>) -> tensor<2x1x3x1xf32> {
  // CHECK-NOT: graph.unsqueeze
  // CHECK: %[[R:.*]] = graph.reshape %[[X]] {shape = array<i64: 2, 1, 3, 1>} : (tensor<2x3xf32>) -> tensor<2x1x3x1xf32>
  // CHECK: return %[[R]]
  %0 = graph.unsqueeze %x {axes = array<i64: 1, -1>} : (tensor<2x3xf32>) -> tensor<2x1x3x1xf32>
  return %0 : tensor<2x1x3x1xf32>
}

// -----

// squeeze then unsqueeze of the same axis cancels.
// CHECK-LABEL: func @squeeze_unsqueeze_cancel
// CHECK-SAME: (%[[X:.*]]: tensor<1x3xf32>)
func.func @squeeze_unsqueeze_cancel(%x: tensor<1x3xf32>) -> tensor<1x3xf32> {
  // CHECK-NOT: graph.
  // CHECK: return %[[X]]
  %0 = graph.squeeze %x {axes = array<i64: 0>} : (tensor<1x3xf32>) -> tensor<3xf32>
  %1 = graph.unsqueeze %0 {axes = array<i64: 0>} : (tensor<3xf32>) -> tensor<1x3xf32>
  return %1 : tensor<1x3xf32>
}

// -----

// With a dynamic input the ops stay: their result shape is not a reshape
// target that -1 can express in general.
// CHECK-LABEL: func @squeeze_dynamic
func.func @squeeze_dynamic(%x: tensor<?x1x?xf32>) -> tensor<?x1x1x?xf32> {
  // CHECK: graph.squeeze
  // CHECK: graph.unsqueeze
  // CHECK-NOT: graph.reshape
  %0 = graph.squeeze %x {axes = array<i64: 1>} : (tensor<?x1x?xf32>) -> tensor<?x?xf32>
  %1 = graph.unsqueeze %0 {axes = array<i64: 1, 2>} : (tensor<?x?xf32>) -> tensor<?x1x1x?xf32>
  return %1 : tensor<?x1x1x?xf32>
}
