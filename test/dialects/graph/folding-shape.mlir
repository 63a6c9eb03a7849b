// RUN: graph-opt %s --canonicalize --split-input-file | FileCheck %s

// Folders of the data-movement ops. Constant results were computed
// independently (row-major index arithmetic in Python, as NumPy would).

// CHECK-LABEL: func @reshape_constant
func.func @reshape_constant() -> tensor<3x2xi32> {
  // CHECK: %[[C:.*]] = graph.constant dense<{{\[}}[1, 2], [3, 4], [5, 6]]> : tensor<3x2xi32>
  // CHECK-NOT: graph.reshape
  // CHECK: return %[[C]]
  %c = graph.constant dense<[[1, 2, 3], [4, 5, 6]]> : tensor<2x3xi32>
  %0 = graph.reshape %c {shape = array<i64: 3, -1>} : (tensor<2x3xi32>) -> tensor<3x2xi32>
  return %0 : tensor<3x2xi32>
}

// -----

// CHECK-LABEL: func @reshape_splat
func.func @reshape_splat() -> tensor<6xf32> {
  // CHECK: %[[C:.*]] = graph.constant dense<2.500000e+00> : tensor<6xf32>
  // CHECK-NOT: graph.reshape
  // CHECK: return %[[C]]
  %c = graph.constant dense<2.5> : tensor<2x3xf32>
  %0 = graph.reshape %c {shape = array<i64: 6>} : (tensor<2x3xf32>) -> tensor<6xf32>
  return %0 : tensor<6xf32>
}

// -----

// CHECK-LABEL: func @reshape_identity
// CHECK-SAME: (%[[X:.*]]: tensor<?x4xf32>)
func.func @reshape_identity(%x: tensor<?x4xf32>) -> tensor<?x4xf32> {
  // CHECK-NOT: graph.reshape
  // CHECK: return %[[X]]
  %0 = graph.reshape %x {shape = array<i64: -1, 4>} : (tensor<?x4xf32>) -> tensor<?x4xf32>
  return %0 : tensor<?x4xf32>
}

// -----

// Same type, different shape: a 4x2 viewed as 2x4 and back is not a no-op
// when the declared types hide it.
// CHECK-LABEL: func @reshape_same_type_not_identity
func.func @reshape_same_type_not_identity(%x: tensor<?x?xf32>) -> tensor<?x?xf32> {
  // CHECK: graph.reshape %{{.*}} {shape = array<i64: 2, -1>} : (tensor<?x?xf32>) -> tensor<?x?xf32>
  %0 = graph.reshape %x {shape = array<i64: 2, -1>} : (tensor<?x?xf32>) -> tensor<?x?xf32>
  return %0 : tensor<?x?xf32>
}

// -----

// CHECK-LABEL: func @reshape_chain
// CHECK-SAME: (%[[X:.*]]: tensor<2x3x4xf32>)
func.func @reshape_chain(%x: tensor<2x3x4xf32>) -> tensor<4x6xf32> {
  // CHECK: %[[R:.*]] = graph.reshape %[[X]] {shape = array<i64: 4, 6>} : (tensor<2x3x4xf32>) -> tensor<4x6xf32>
  // CHECK-NEXT: return %[[R]]
  %0 = graph.reshape %x {shape = array<i64: 24>} : (tensor<2x3x4xf32>) -> tensor<24xf32>
  %1 = graph.unsqueeze %0 {axes = array<i64: 0>} : (tensor<24xf32>) -> tensor<1x24xf32>
  %2 = graph.reshape %1 {shape = array<i64: 4, 6>} : (tensor<1x24xf32>) -> tensor<4x6xf32>
  return %2 : tensor<4x6xf32>
}

// -----

// The dynamic_reshape hides that 6 elements cannot become 4x2: skipping it
// would not verify, so the chain stays.
// CHECK-LABEL: func @reshape_chain_unverifiable
func.func @reshape_chain_unverifiable(%x: tensor<6xf32>, %s: tensor<2xi64>) -> tensor<4x2xf32> {
  // CHECK: %[[D:.*]] = graph.dynamic_reshape
  // CHECK: graph.reshape %[[D]] {shape = array<i64: 4, 2>}
  %0 = graph.dynamic_reshape %x, %s : (tensor<6xf32>, tensor<2xi64>) -> tensor<?x?xf32>
  %1 = graph.reshape %0 {shape = array<i64: 4, 2>} : (tensor<?x?xf32>) -> tensor<4x2xf32>
  return %1 : tensor<4x2xf32>
}

// -----

// CHECK-LABEL: func @transpose_identity
// CHECK-SAME: (%[[X:.*]]: tensor<2x?xf32>)
func.func @transpose_identity(%x: tensor<2x?xf32>) -> tensor<2x?xf32> {
  // CHECK-NOT: graph.transpose
  // CHECK: return %[[X]]
  %0 = graph.transpose %x {perm = array<i64: 0, 1>} : (tensor<2x?xf32>) -> tensor<2x?xf32>
  return %0 : tensor<2x?xf32>
}

// -----

// (x^(1,0,2))^(0,2,1) = x^(1,2,0).
// CHECK-LABEL: func @transpose_compose
// CHECK-SAME: (%[[X:.*]]: tensor<2x3x4xf32>)
func.func @transpose_compose(%x: tensor<2x3x4xf32>) -> tensor<3x4x2xf32> {
  // CHECK: %[[T:.*]] = graph.transpose %[[X]] {perm = array<i64: 1, 2, 0>} : (tensor<2x3x4xf32>) -> tensor<3x4x2xf32>
  // CHECK-NEXT: return %[[T]]
  %0 = graph.transpose %x {perm = array<i64: 1, 0, 2>} : (tensor<2x3x4xf32>) -> tensor<3x2x4xf32>
  %1 = graph.transpose %0 {perm = array<i64: 0, 2, 1>} : (tensor<3x2x4xf32>) -> tensor<3x4x2xf32>
  return %1 : tensor<3x4x2xf32>
}

// -----

// NHWC -> NCHW -> NHWC cancels, as the TensorFlow importer relies on.
// CHECK-LABEL: func @transpose_cancel
// CHECK-SAME: (%[[X:.*]]: tensor<8x32x32x3xf32>)
func.func @transpose_cancel(%x: tensor<8x32x32x3xf32>) -> tensor<8x32x32x3xf32> {
  // CHECK-NOT: graph.transpose
  // CHECK: return %[[X]]
  %0 = graph.transpose %x {perm = array<i64: 0, 3, 1, 2>} : (tensor<8x32x32x3xf32>) -> tensor<8x3x32x32xf32>
  %1 = graph.transpose %0 {perm = array<i64: 0, 2, 3, 1>} : (tensor<8x3x32x32xf32>) -> tensor<8x32x32x3xf32>
  return %1 : tensor<8x32x32x3xf32>
}

// -----

// CHECK-LABEL: func @transpose_constant
func.func @transpose_constant() -> (tensor<3x2xi32>, tensor<3x2x2xi64>) {
  // CHECK-DAG: %[[A:.*]] = graph.constant dense<{{\[}}[1, 4], [2, 5], [3, 6]]> : tensor<3x2xi32>
  // CHECK-DAG: %[[B:.*]] = graph.constant dense<{{\[}}{{\[}}[0, 3], [6, 9]], {{\[}}[1, 4], [7, 10]], {{\[}}[2, 5], [8, 11]]]> : tensor<3x2x2xi64>
  // CHECK-NOT: graph.transpose
  // CHECK: return %[[A]], %[[B]]
  %a = graph.constant dense<[[1, 2, 3], [4, 5, 6]]> : tensor<2x3xi32>
  %0 = graph.transpose %a {perm = array<i64: 1, 0>} : (tensor<2x3xi32>) -> tensor<3x2xi32>
  %b = graph.constant dense<[[[0, 1, 2], [3, 4, 5]], [[6, 7, 8], [9, 10, 11]]]> : tensor<2x2x3xi64>
  %1 = graph.transpose %b {perm = array<i64: 2, 0, 1>} : (tensor<2x2x3xi64>) -> tensor<3x2x2xi64>
  return %0, %1 : tensor<3x2xi32>, tensor<3x2x2xi64>
}

// -----

// CHECK-LABEL: func @transpose_splat
func.func @transpose_splat() -> tensor<3x2xf32> {
  // CHECK: %[[C:.*]] = graph.constant dense<1.000000e+00> : tensor<3x2xf32>
  // CHECK-NOT: graph.transpose
  // CHECK: return %[[C]]
  %c = graph.constant dense<1.0> : tensor<2x3xf32>
  %0 = graph.transpose %c {perm = array<i64: 1, 0>} : (tensor<2x3xf32>) -> tensor<3x2xf32>
  return %0 : tensor<3x2xf32>
}

// -----

// CHECK-LABEL: func @broadcast_constant
func.func @broadcast_constant() -> (tensor<2x3xi32>, tensor<2x3x4xi32>, tensor<4x4xf32>) {
  // CHECK-DAG: %[[A:.*]] = graph.constant dense<{{\[}}[1, 2, 3], [1, 2, 3]]> : tensor<2x3xi32>
  // CHECK-DAG: %[[B:.*]] = graph.constant dense<{{\[}}{{\[}}[1, 1, 1, 1], [2, 2, 2, 2], [3, 3, 3, 3]], {{\[}}[1, 1, 1, 1], [2, 2, 2, 2], [3, 3, 3, 3]]]> : tensor<2x3x4xi32>
  // CHECK-DAG: %[[S:.*]] = graph.constant dense<-2.000000e+00> : tensor<4x4xf32>
  // CHECK-NOT: graph.broadcast_to
  // CHECK: return %[[A]], %[[B]], %[[S]]
  %v = graph.constant dense<[1, 2, 3]> : tensor<3xi32>
  %0 = graph.broadcast_to %v {shape = array<i64: 2, 3>} : (tensor<3xi32>) -> tensor<2x3xi32>
  %c = graph.constant dense<[[1], [2], [3]]> : tensor<3x1xi32>
  %1 = graph.broadcast_to %c {shape = array<i64: 2, 3, 4>} : (tensor<3x1xi32>) -> tensor<2x3x4xi32>
  %s = graph.constant dense<-2.0> : tensor<f32>
  %2 = graph.broadcast_to %s {shape = array<i64: 4, 4>} : (tensor<f32>) -> tensor<4x4xf32>
  return %0, %1, %2 : tensor<2x3xi32>, tensor<2x3x4xi32>, tensor<4x4xf32>
}

// -----

// CHECK-LABEL: func @broadcast_same_type
// CHECK-SAME: (%[[X:.*]]: tensor<2x3xf32>)
func.func @broadcast_same_type(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
  // CHECK-NOT: graph.broadcast_to
  // CHECK: return %[[X]]
  %0 = graph.broadcast_to %x {shape = array<i64: 2, 3>} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

// CHECK-LABEL: func @squeeze_unsqueeze_constant
func.func @squeeze_unsqueeze_constant() -> (tensor<3xi32>, tensor<1x2x1xi32>) {
  // CHECK-DAG: %[[A:.*]] = graph.constant dense<[4, 5, 6]> : tensor<3xi32>
  // CHECK-DAG: %[[B:.*]] = graph.constant dense<{{\[}}{{\[}}[7], [8]]]> : tensor<1x2x1xi32>
  // CHECK-NOT: graph.squeeze
  // CHECK-NOT: graph.unsqueeze
  // CHECK: return %[[A]], %[[B]]
  %a = graph.constant dense<[[4, 5, 6]]> : tensor<1x3xi32>
  %0 = graph.squeeze %a {axes = array<i64: 0>} : (tensor<1x3xi32>) -> tensor<3xi32>
  %b = graph.constant dense<[7, 8]> : tensor<2xi32>
  %1 = graph.unsqueeze %b {axes = array<i64: 0, 2>} : (tensor<2xi32>) -> tensor<1x2x1xi32>
  return %0, %1 : tensor<3xi32>, tensor<1x2x1xi32>
}

// -----

// CHECK-LABEL: func @shape_static
func.func @shape_static(%x: tensor<2x3x4xf32>, %d: tensor<?x3xf32>) -> (tensor<3xi64>, tensor<2xi64>) {
  // CHECK: %[[C:.*]] = graph.constant dense<[2, 3, 4]> : tensor<3xi64>
  // CHECK: %[[S:.*]] = graph.shape %{{.*}} : (tensor<?x3xf32>) -> tensor<2xi64>
  // CHECK: return %[[C]], %[[S]]
  %0 = graph.shape %x : (tensor<2x3x4xf32>) -> tensor<3xi64>
  %1 = graph.shape %d : (tensor<?x3xf32>) -> tensor<2xi64>
  return %0, %1 : tensor<3xi64>, tensor<2xi64>
}

// -----

// No-op concat, split, slice, pad and tile return their input.
// CHECK-LABEL: func @no_ops
// CHECK-SAME: (%[[X:.*]]: tensor<2x3xf32>, %[[Z:.*]]: tensor<f32>)
func.func @no_ops(%x: tensor<2x3xf32>, %z: tensor<f32>) -> (tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>) {
  // CHECK-NOT: graph.
  // CHECK: return %[[X]], %[[X]], %[[X]], %[[X]], %[[X]]
  %0 = graph.concat %x {axis = 1 : i64} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %1 = graph.split %x {axis = 0 : i64, sizes = array<i64: -1>} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %2 = graph.slice %x {starts = array<i64: 0, 0>, limits = array<i64: 2, 3>, strides = array<i64: 1, 1>} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %3 = graph.pad %x, %z {low = array<i64: 0, 0>, high = array<i64: 0, 0>, mode = #graph<pad_mode reflect>} : (tensor<2x3xf32>, tensor<f32>) -> tensor<2x3xf32>
  %4 = graph.tile %x {multiples = array<i64: 1, 1>} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  return %0, %1, %2, %3, %4 : tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>
}

// -----

// Ones that do move data stay.
// CHECK-LABEL: func @real_ops
func.func @real_ops(%x: tensor<2x3xf32>, %z: tensor<f32>) -> (tensor<2x2xf32>, tensor<2x3xf32>, tensor<2x4xf32>, tensor<2x6xf32>) {
  // CHECK: graph.slice
  // CHECK: graph.slice
  // CHECK: graph.pad
  // CHECK: graph.tile
  %0 = graph.slice %x {starts = array<i64: 0, 0>, limits = array<i64: 2, 3>, strides = array<i64: 1, 2>} : (tensor<2x3xf32>) -> tensor<2x2xf32>
  %1 = graph.slice %x {starts = array<i64: 0, 2>, limits = array<i64: 2, -1>, strides = array<i64: 1, -1>} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %2 = graph.pad %x, %z {low = array<i64: 0, 1>, high = array<i64: 0, 0>} : (tensor<2x3xf32>, tensor<f32>) -> tensor<2x4xf32>
  %3 = graph.tile %x {multiples = array<i64: 1, 2>} : (tensor<2x3xf32>) -> tensor<2x6xf32>
  return %0, %1, %2, %3 : tensor<2x2xf32>, tensor<2x3xf32>, tensor<2x4xf32>, tensor<2x6xf32>
}

// -----

// Windows of constants fold (x[0:3:2, 3:0:-2] and x[2::-1, 1:2] in NumPy).
// CHECK-LABEL: func @slice_constant
func.func @slice_constant() -> (tensor<2x2xi64>, tensor<3x1xi64>) {
  // CHECK-DAG: %[[A:.*]] = graph.constant dense<{{\[}}[4, 2], [12, 10]]> : tensor<2x2xi64>
  // CHECK-DAG: %[[B:.*]] = graph.constant dense<{{\[}}[10], [6], [2]]> : tensor<3x1xi64>
  // CHECK-NOT: graph.slice
  // CHECK: return %[[A]], %[[B]]
  %c = graph.constant dense<[[1, 2, 3, 4], [5, 6, 7, 8], [9, 10, 11, 12]]> : tensor<3x4xi64>
  %0 = graph.slice %c {starts = array<i64: 0, 3>, limits = array<i64: 3, 0>, strides = array<i64: 2, -2>} : (tensor<3x4xi64>) -> tensor<2x2xi64>
  %1 = graph.slice %c {starts = array<i64: 2, 1>, limits = array<i64: -1, 2>, strides = array<i64: -1, 1>} : (tensor<3x4xi64>) -> tensor<3x1xi64>
  return %0, %1 : tensor<2x2xi64>, tensor<3x1xi64>
}

// -----

// CHECK-LABEL: func @concat_constant
func.func @concat_constant() -> (tensor<2x3xi32>, tensor<3xi64>) {
  // CHECK-DAG: %[[A:.*]] = graph.constant dense<{{\[}}[1, 2, 5], [3, 4, 6]]> : tensor<2x3xi32>
  // CHECK-DAG: %[[B:.*]] = graph.constant dense<[7, 8, 9]> : tensor<3xi64>
  // CHECK-NOT: graph.concat
  // CHECK: return %[[A]], %[[B]]
  %a = graph.constant dense<[[1, 2], [3, 4]]> : tensor<2x2xi32>
  %b = graph.constant dense<[[5], [6]]> : tensor<2x1xi32>
  %0 = graph.concat %a, %b {axis = -1 : i64} : (tensor<2x2xi32>, tensor<2x1xi32>) -> tensor<2x3xi32>
  %c = graph.constant dense<7> : tensor<1xi64>
  %d = graph.constant dense<[8, 9]> : tensor<2xi64>
  %1 = graph.concat %c, %d {axis = 0 : i64} : (tensor<1xi64>, tensor<2xi64>) -> tensor<3xi64>
  return %0, %1 : tensor<2x3xi32>, tensor<3xi64>
}

// -----

// A concat with a run-time operand stays.
// CHECK-LABEL: func @concat_not_constant
func.func @concat_not_constant(%x: tensor<2xi64>) -> tensor<3xi64> {
  // CHECK: graph.concat
  %c = graph.constant dense<7> : tensor<1xi64>
  %0 = graph.concat %c, %x {axis = 0 : i64} : (tensor<1xi64>, tensor<2xi64>) -> tensor<3xi64>
  return %0 : tensor<3xi64>
}

// -----

// np.take(x, [[2, 0], [-1, 1]], axis=1) of x = arange(10, 22).reshape(2, 3, 2).
// CHECK-LABEL: func @gather_constant
func.func @gather_constant() -> tensor<2x2x2x2xi64> {
  // CHECK: %[[C:.*]] = graph.constant dense<{{\[}}{{\[}}{{\[}}[14, 15], [10, 11]], {{\[}}[14, 15], [12, 13]]], {{\[}}{{\[}}[20, 21], [16, 17]], {{\[}}[20, 21], [18, 19]]]]> : tensor<2x2x2x2xi64>
  // CHECK-NOT: graph.gather
  // CHECK: return %[[C]]
  %x = graph.constant dense<[[[10, 11], [12, 13], [14, 15]], [[16, 17], [18, 19], [20, 21]]]> : tensor<2x3x2xi64>
  %i = graph.constant dense<[[2, 0], [-1, 1]]> : tensor<2x2xi64>
  %0 = graph.gather %x, %i {axis = 1 : i64} : (tensor<2x3x2xi64>, tensor<2x2xi64>) -> tensor<2x2x2x2xi64>
  return %0 : tensor<2x2x2x2xi64>
}

// -----

// An index out of range is left for run time to report.
// CHECK-LABEL: func @gather_out_of_range
func.func @gather_out_of_range() -> tensor<1xi64> {
  // CHECK: graph.gather
  %x = graph.constant dense<[1, 2, 3]> : tensor<3xi64>
  %i = graph.constant dense<3> : tensor<1xi64>
  %0 = graph.gather %x, %i {axis = 0 : i64} : (tensor<3xi64>, tensor<1xi64>) -> tensor<1xi64>
  return %0 : tensor<1xi64>
}

// -----

// The shape arithmetic of an exported model (Shape -> Gather -> Concat ->
// Reshape) becomes a static reshape.
// CHECK-LABEL: func @shape_arithmetic
// CHECK-SAME: (%[[X:.*]]: tensor<2x3x4xf32>)
func.func @shape_arithmetic(%x: tensor<2x3x4xf32>) -> tensor<?x?xf32> {
  // CHECK: %[[R:.*]] = graph.reshape %[[X]] {shape = array<i64: 2, -1>}
  // CHECK-NOT: graph.gather
  // CHECK-NOT: graph.concat
  // CHECK-NOT: graph.dynamic_reshape
  %s = graph.shape %x : (tensor<2x3x4xf32>) -> tensor<3xi64>
  %i = graph.constant dense<0> : tensor<1xi64>
  %b = graph.gather %s, %i {axis = 0 : i64} : (tensor<3xi64>, tensor<1xi64>) -> tensor<1xi64>
  %m = graph.constant dense<-1> : tensor<1xi64>
  %t = graph.concat %b, %m {axis = 0 : i64} : (tensor<1xi64>, tensor<1xi64>) -> tensor<2xi64>
  %0 = graph.dynamic_reshape %x, %t : (tensor<2x3x4xf32>, tensor<2xi64>) -> tensor<?x?xf32>
  return %0 : tensor<?x?xf32>
}

// -----

// The pieces of a constant are constants (np.split(x, [1], axis=1) of
// [[1, 2, 3], [4, 5, 6]]).
// CHECK-LABEL: func @split_constant
func.func @split_constant() -> (tensor<2x1xi64>, tensor<2x2xi64>) {
  // CHECK-DAG: %[[A:.*]] = graph.constant dense<{{\[}}[1], [4]]> : tensor<2x1xi64>
  // CHECK-DAG: %[[B:.*]] = graph.constant dense<{{\[}}[2, 3], [5, 6]]> : tensor<2x2xi64>
  // CHECK-NOT: graph.split
  // CHECK: return %[[A]], %[[B]]
  %c = graph.constant dense<[[1, 2, 3], [4, 5, 6]]> : tensor<2x3xi64>
  %0:2 = graph.split %c {axis = -1 : i64, sizes = array<i64: 1, -1>} : (tensor<2x3xi64>) -> (tensor<2x1xi64>, tensor<2x2xi64>)
  return %0#0, %0#1 : tensor<2x1xi64>, tensor<2x2xi64>
}
