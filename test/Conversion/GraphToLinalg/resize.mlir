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

// -----

// nearest_mode ceil rounds the source coordinate up.
// CHECK-LABEL: func.func @nearest_ceil
// CHECK: arith.divf
// CHECK-NOT: arith.subf
// CHECK: math.ceil
// CHECK: tensor.extract
func.func @nearest_ceil(%x: tensor<1x4xf32>) -> tensor<1x6xf32> {
  %0 = graph.resize %x {sizes = array<i64: 1, 6>, mode = #graph<resize_mode nearest>, nearest_mode = #graph<nearest_mode ceil>, coordinate_mode = #graph<coordinate_mode asymmetric>} : (tensor<1x4xf32>) -> tensor<1x6xf32>
  return %0 : tensor<1x6xf32>
}

// -----

// Antialiased linear downscale by 0.5: the triangle stretched to radius 2
// reads 4 taps, weights max(0, 1 - |i - t| * 0.5) divided by their sum.
// CHECK-LABEL: func.func @antialias_linear
// CHECK-COUNT-4: arith.maximumf
// CHECK-COUNT-4: arith.divf %{{.*}}, %[[SUM:.*]] : f64
// CHECK-COUNT-4: tensor.extract %{{.*}} : tensor<1x8xf32>
// CHECK-NOT: tensor.extract
func.func @antialias_linear(%x: tensor<1x8xf32>) -> tensor<1x4xf32> {
  %0 = graph.resize %x {sizes = array<i64: 1, 4>, mode = #graph<resize_mode linear>, antialias} : (tensor<1x8xf32>) -> tensor<1x4xf32>
  return %0 : tensor<1x4xf32>
}

// -----

// exclude_outside: each cubic tap is kept only inside [0, 3], then the
// weights are renormalized; A = -0.5.
// CHECK-LABEL: func.func @exclude_outside
// CHECK: arith.constant -5.000000e-01 : f64
// CHECK-COUNT-4: arith.select
// CHECK-COUNT-4: arith.divf
// CHECK-COUNT-4: tensor.extract
func.func @exclude_outside(%x: tensor<1x4xf32>) -> tensor<1x8xf32> {
  %0 = graph.resize %x {sizes = array<i64: 1, 8>, mode = #graph<resize_mode cubic>, cubic_coeff_a = -0.5 : f64, exclude_outside} : (tensor<1x4xf32>) -> tensor<1x8xf32>
  return %0 : tensor<1x8xf32>
}

// -----

// tf_crop_and_resize: the box [0.4, 0.6] of 8 columns (origin 0.4 * 7 =
// 2.8, step 0.2 * 7 / 2 = 0.7); outside the input the result is the
// extrapolation value 10, kept dimensions are read directly.
// CHECK-LABEL: func.func @crop
// CHECK-DAG: arith.constant 0.69999{{[0-9]*}} : f64
// CHECK-DAG: arith.constant 2.80000{{[0-9]*}} : f64
// CHECK: arith.cmpf olt
// CHECK: arith.cmpf ogt
// CHECK: %[[OUT:.*]] = arith.ori
// CHECK: %[[V:.*]] = arith.truncf
// CHECK: %[[E:.*]] = arith.constant 1.000000e+01 : f32
// CHECK: arith.select %[[OUT]], %[[E]], %[[V]] : f32
func.func @crop(%x: tensor<2x8xf32>) -> tensor<2x3xf32> {
  %0 = graph.resize %x {sizes = array<i64: 2, 3>, mode = #graph<resize_mode linear>, coordinate_mode = #graph<coordinate_mode tf_crop_and_resize>, roi = array<f64: 0.0, 0.4, 1.0, 0.6>, extrapolation_value = 10.0 : f64} : (tensor<2x8xf32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}
