// RUN: graph-opt %s --canonicalize --split-input-file | FileCheck %s

// A one-cell window with unit stride and no padding is the identity, for max
// and avg alike, whatever the dilation.
// CHECK-LABEL: func @pool_identity
// CHECK-SAME: (%[[X:.*]]: tensor<1x3x8x8xf32>)
func.func @pool_identity(%x: tensor<1x3x8x8xf32>) -> (tensor<1x3x8x8xf32>, tensor<1x3x8x8xf32>) {
  // CHECK-NOT: graph.pool
  // CHECK: return %[[X]], %[[X]]
  %0 = graph.pool %x {kind = #graph<pool_kind max>, window = array<i64: 1, 1>} : (tensor<1x3x8x8xf32>) -> tensor<1x3x8x8xf32>
  %1 = graph.pool %x {kind = #graph<pool_kind avg>, window = array<i64: 1, 1>, strides = array<i64: 1, 1>, dilations = array<i64: 2, 2>, ceil_mode} : (tensor<1x3x8x8xf32>) -> tensor<1x3x8x8xf32>
  return %0, %1 : tensor<1x3x8x8xf32>, tensor<1x3x8x8xf32>
}

// -----

// CHECK-LABEL: func @pool_kept
func.func @pool_kept(%x: tensor<1x3x8x8xf32>) -> (tensor<1x3x4x4xf32>, tensor<1x3x7x7xf32>) {
  // Stride 2 subsamples; a 2x2 window reduces.
  // CHECK: graph.pool %{{.*}} {kind = #graph<pool_kind max>, strides = array<i64: 2, 2>, window = array<i64: 1, 1>}
  // CHECK: graph.pool %{{.*}} {kind = #graph<pool_kind max>, window = array<i64: 2, 2>}
  %0 = graph.pool %x {kind = #graph<pool_kind max>, window = array<i64: 1, 1>, strides = array<i64: 2, 2>} : (tensor<1x3x8x8xf32>) -> tensor<1x3x4x4xf32>
  %1 = graph.pool %x {kind = #graph<pool_kind max>, window = array<i64: 2, 2>} : (tensor<1x3x8x8xf32>) -> tensor<1x3x7x7xf32>
  return %0, %1 : tensor<1x3x4x4xf32>, tensor<1x3x7x7xf32>
}

// -----

// A nearest resize to the input's own shape is the identity; linear is not
// folded (0 * inf next to an infinity would be NaN in a real kernel).
// CHECK-LABEL: func @resize
// CHECK-SAME: (%[[X:.*]]: tensor<1x3x8x8xf32>)
func.func @resize(%x: tensor<1x3x8x8xf32>) -> (tensor<1x3x8x8xf32>, tensor<1x3x8x8xf32>) {
  // CHECK: %[[L:.*]] = graph.resize %[[X]] {mode = #graph<resize_mode linear>
  // CHECK-NOT: graph.resize
  // CHECK: return %[[X]], %[[L]]
  %0 = graph.resize %x {sizes = array<i64: 1, 3, 8, 8>, mode = #graph<resize_mode nearest>, coordinate_mode = #graph<coordinate_mode align_corners>} : (tensor<1x3x8x8xf32>) -> tensor<1x3x8x8xf32>
  %1 = graph.resize %x {sizes = array<i64: 1, 3, 8, 8>, mode = #graph<resize_mode linear>} : (tensor<1x3x8x8xf32>) -> tensor<1x3x8x8xf32>
  return %0, %1 : tensor<1x3x8x8xf32>, tensor<1x3x8x8xf32>
}

// -----

// A nearest resize to its own shape by an explicit scale other than 1
// samples other points: not folded.
// CHECK-LABEL: func @resize_scaled
// CHECK: %[[R:.*]] = graph.resize
// CHECK: return %[[R]]
func.func @resize_scaled(%x: tensor<1x3x8x8xf32>) -> tensor<1x3x8x8xf32> {
  %0 = graph.resize %x {sizes = array<i64: 1, 3, 8, 8>, mode = #graph<resize_mode nearest>, scales = array<f64: 1.0, 1.0, 1.1, 1.1>} : (tensor<1x3x8x8xf32>) -> tensor<1x3x8x8xf32>
  return %0 : tensor<1x3x8x8xf32>
}
