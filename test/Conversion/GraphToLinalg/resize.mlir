// RUN: graph-opt %s --graph-to-linalg --split-input-file | FileCheck %s

// Nearest: the half_pixel source coordinate (x + 0.5) / scale - 0.5,
// rounded half down, clamped, read with tensor.extract; the dimensions that
// keep their size are read directly.
// CHECK-LABEL: func.func @nearest
// CHECK-SAME: (%[[X:.*]]: tensor<1x1x2x2xf32>)
// CHECK: linalg.generic {{.*}} outs(%{{.*}} : tensor<1x1x4x4xf32>)
// CHECK: %[[N:.*]] = linalg.index 0 : index
// CHECK: %[[C:.*]] = linalg.index 1 : index
// CHECK: %[[I:.*]] = linalg.index 2 : index
// CHECK: arith.constant 5.000000e-01 : f64
// CHECK: arith.divf
// CHECK: math.ceil
// CHECK: arith.maxsi
// CHECK: %[[R:.*]] = arith.index_cast %{{.*}} : i64 to index
// CHECK: linalg.index 3 : index
// CHECK: math.ceil
// CHECK: %[[Q:.*]] = arith.index_cast %{{.*}} : i64 to index
// CHECK: tensor.extract %[[X]][%[[N]], %[[C]], %[[R]], %[[Q]]] : tensor<1x1x2x2xf32>
func.func @nearest(%x: tensor<1x1x2x2xf32>) -> tensor<1x1x4x4xf32> {
  %0 = graph.resize %x {sizes = array<i64: 1, 1, 4, 4>, mode = #graph<resize_mode nearest>} : (tensor<1x1x2x2xf32>) -> tensor<1x1x4x4xf32>
  return %0 : tensor<1x1x4x4xf32>
}

// -----

// Linear over one resized dimension: two reads blended in f64.
// CHECK-LABEL: func.func @linear
// CHECK: math.floor
// CHECK-COUNT-2: tensor.extract
// CHECK: arith.truncf %{{.*}} : f64 to f32
func.func @linear(%x: tensor<2x3xf32>) -> tensor<2x5xf32> {
  %0 = graph.resize %x {sizes = array<i64: 2, 5>, mode = #graph<resize_mode linear>, coordinate_mode = #graph<coordinate_mode align_corners>} : (tensor<2x3xf32>) -> tensor<2x5xf32>
  return %0 : tensor<2x5xf32>
}

// -----

// Cubic: four taps per resized dimension (Keys, A = -0.75), indices
// clamped at the edges.
// CHECK-LABEL: func.func @cubic
// CHECK: math.floor
// CHECK: arith.constant -7.500000e-01 : f64
// CHECK-COUNT-4: tensor.extract %{{.*}} : tensor<2x3xf32>
// CHECK-NOT: tensor.extract
// CHECK: arith.truncf %{{.*}} : f64 to f32
func.func @cubic(%x: tensor<2x3xf32>) -> tensor<2x5xf32> {
  %0 = graph.resize %x {sizes = array<i64: 2, 5>, mode = #graph<resize_mode cubic>} : (tensor<2x3xf32>) -> tensor<2x5xf32>
  return %0 : tensor<2x5xf32>
}

// -----

// Explicit scales drive the coordinate transformation: half_pixel divides
// by 0.6 (not 2 / 4 = 0.5), align_corners stretches over the resized
// length 4 * 0.6 = 2.4 ((4 - 1) / (2.4 - 1) = 2.142857...).
// CHECK-LABEL: func.func @scales
// CHECK: arith.constant 6.000000e-01 : f64
// CHECK: arith.divf
func.func @scales(%x: tensor<2x4xf32>) -> tensor<2x2xf32> {
  %0 = graph.resize %x {sizes = array<i64: 2, 2>, mode = #graph<resize_mode linear>, scales = array<f64: 1.0, 0.6>} : (tensor<2x4xf32>) -> tensor<2x2xf32>
  return %0 : tensor<2x2xf32>
}

// -----

// CHECK-LABEL: func.func @scales_align_corners
// CHECK: arith.constant 2.14285714{{[0-9]*}} : f64
// CHECK: arith.mulf
func.func @scales_align_corners(%x: tensor<2x4xf32>) -> tensor<2x2xf32> {
  %0 = graph.resize %x {sizes = array<i64: 2, 2>, mode = #graph<resize_mode linear>, coordinate_mode = #graph<coordinate_mode align_corners>, scales = array<f64: 1.0, 0.6>} : (tensor<2x4xf32>) -> tensor<2x2xf32>
  return %0 : tensor<2x2xf32>
}
