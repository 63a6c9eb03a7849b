// RUN: graph-opt %s --graph-to-linalg --split-input-file | FileCheck %s

// CHECK-LABEL: func.func @reshape
// CHECK: %[[R:.*]] = tensor.collapse_shape %{{.*}} {{\[\[}}0], [1, 2]] : tensor<2x3x4xf32> into tensor<2x12xf32>
// CHECK: return %[[R]]
func.func @reshape(%x: tensor<2x3x4xf32>) -> tensor<2x12xf32> {
  %0 = graph.reshape %x {shape = array<i64: 2, -1>} : (tensor<2x3x4xf32>) -> tensor<2x12xf32>
  return %0 : tensor<2x12xf32>
}

// -----

// CHECK-LABEL: func.func @transpose_dynamic
// CHECK-SAME: (%[[X:.*]]: tensor<?x3xf32>)
// CHECK: %[[D:.*]] = tensor.dim %[[X]]
// CHECK: %[[E:.*]] = tensor.empty(%[[D]]) : tensor<3x?xf32>
// CHECK: linalg.transpose ins(%[[X]] : tensor<?x3xf32>) outs(%[[E]] : tensor<3x?xf32>) permutation = [1, 0]
func.func @transpose_dynamic(%x: tensor<?x3xf32>) -> tensor<3x?xf32> {
  %0 = graph.transpose %x {perm = array<i64: 1, 0>} : (tensor<?x3xf32>) -> tensor<3x?xf32>
  return %0 : tensor<3x?xf32>
}

// -----

// CHECK-LABEL: func.func @broadcast_to
// CHECK: %[[C:.*]] = tensor.collapse_shape %{{.*}} {{\[\[}}0, 1]] : tensor<1x10xf32> into tensor<10xf32>
// CHECK: linalg.broadcast ins(%[[C]] : tensor<10xf32>) outs(%{{.*}} : tensor<4x8x10xf32>) dimensions = [0, 1]
func.func @broadcast_to(%x: tensor<1x10xf32>) -> tensor<4x8x10xf32> {
  %0 = graph.broadcast_to %x {shape = array<i64: 4, 8, 10>} : (tensor<1x10xf32>) -> tensor<4x8x10xf32>
  return %0 : tensor<4x8x10xf32>
}

// -----

// CHECK-LABEL: func.func @concat_split
// CHECK: tensor.concat dim(1)
// CHECK: tensor.extract_slice %{{.*}}[0, 0] [2, 3] [1, 1]
// CHECK: tensor.extract_slice %{{.*}}[0, 3] [2, 5] [1, 1]
func.func @concat_split(%a: tensor<2x3xf32>, %b: tensor<2x5xf32>) -> (tensor<2x3xf32>, tensor<2x5xf32>) {
  %0 = graph.concat %a, %b {axis = -1 : i64} : (tensor<2x3xf32>, tensor<2x5xf32>) -> tensor<2x8xf32>
  %1, %2 = graph.split %0 {axis = 1 : i64, sizes = array<i64: 3, -1>} : (tensor<2x8xf32>) -> (tensor<2x3xf32>, tensor<2x5xf32>)
  return %1, %2 : tensor<2x3xf32>, tensor<2x5xf32>
}

// -----

// Empty pieces (ONNX's zero-size splits) are empty tensors, even at the end
// of the axis where an extract_slice offset would be out of bounds.
// CHECK-LABEL: func.func @split_empty_pieces
// CHECK: %[[A:.*]] = tensor.extract_slice %{{.*}}[0, 0] [2, 8] [1, 1]
// CHECK: %[[B:.*]] = tensor.empty() : tensor<2x0xf32>
// CHECK: return %[[A]], %[[B]]
func.func @split_empty_pieces(%x: tensor<2x8xf32>) -> (tensor<2x8xf32>, tensor<2x0xf32>) {
  %0, %1 = graph.split %x {axis = 1 : i64, sizes = array<i64: 8, 0>} : (tensor<2x8xf32>) -> (tensor<2x8xf32>, tensor<2x0xf32>)
  return %0, %1 : tensor<2x8xf32>, tensor<2x0xf32>
}

// -----

// Empty inputs of a concat are dropped; all empty gives an empty tensor.
// CHECK-LABEL: func.func @concat_empty_inputs
// CHECK-SAME: (%[[X:.*]]: tensor<2x8xf32>, %{{.*}}: tensor<2x0xf32>, %{{.*}}: tensor<0x3xf32>)
// CHECK-NOT: tensor.concat
// CHECK: %[[E:.*]] = tensor.empty() : tensor<0x6xf32>
// CHECK: return %[[X]], %[[E]]
func.func @concat_empty_inputs(%x: tensor<2x8xf32>, %e: tensor<2x0xf32>, %z: tensor<0x3xf32>) -> (tensor<2x8xf32>, tensor<0x6xf32>) {
  %0 = graph.concat %x, %e {axis = 1 : i64} : (tensor<2x8xf32>, tensor<2x0xf32>) -> tensor<2x8xf32>
  %1 = graph.concat %z, %z {axis = 1 : i64} : (tensor<0x3xf32>, tensor<0x3xf32>) -> tensor<0x6xf32>
  return %0, %1 : tensor<2x8xf32>, tensor<0x6xf32>
}

// -----

// A negative stride reads upwards from the last element, then reverses
// (tensor.extract at n - 1 - i, which tiles, unlike a map -d1 + 2).
// CHECK-LABEL: func.func @slice_negative_stride
// CHECK: %[[S:.*]] = tensor.extract_slice %{{.*}}[1, 0] [2, 3] [2, 1] : tensor<5x3xf32> to tensor<2x3xf32>
// CHECK: linalg.generic
// CHECK: %[[I:.*]] = linalg.index 0 : index
// CHECK: %[[J:.*]] = linalg.index 1 : index
// CHECK: %[[C2:.*]] = arith.constant 2 : index
// CHECK: %[[R:.*]] = arith.subi %[[C2]], %[[J]] : index
// CHECK: tensor.extract %[[S]][%[[I]], %[[R]]] : tensor<2x3xf32>
func.func @slice_negative_stride(%x: tensor<5x3xf32>) -> tensor<2x3xf32> {
  %0 = graph.slice %x {starts = array<i64: 1, 2>, limits = array<i64: 4, -1>, strides = array<i64: 2, -1>} : (tensor<5x3xf32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

// CHECK-LABEL: func.func @pad_constant
// CHECK-SAME: (%[[X:.*]]: tensor<2x3xf32>, %[[V:.*]]: tensor<f32>)
// CHECK: %[[S:.*]] = tensor.extract %[[V]][] : tensor<f32>
// CHECK: tensor.pad %[[X]] low[0, 1] high[0, 2]
// CHECK: tensor.yield %[[S]]
func.func @pad_constant(%x: tensor<2x3xf32>, %v: tensor<f32>) -> tensor<2x6xf32> {
  %0 = graph.pad %x, %v {low = array<i64: 0, 1>, high = array<i64: 0, 2>} : (tensor<2x3xf32>, tensor<f32>) -> tensor<2x6xf32>
  return %0 : tensor<2x6xf32>
}

// -----

// CHECK-DAG: #[[IDX:.*]] = affine_map<(d0, d1, d2) -> (d0, d1)>
// CHECK-LABEL: func.func @gather
// CHECK: %[[E:.*]] = tensor.empty() : tensor<8x16x64xf32>
// CHECK-NOT: tensor.empty
// CHECK: linalg.generic {indexing_maps = [#[[IDX]], #{{.*}}]{{.*}} outs(%[[E]] :
// CHECK: arith.index_cast
// CHECK: arith.select
// CHECK: tensor.extract %{{.*}}[%{{.*}}, %{{.*}}] : tensor<1000x64xf32>
func.func @gather(%t: tensor<1000x64xf32>, %i: tensor<8x16xi64>) -> tensor<8x16x64xf32> {
  %0 = graph.gather %t, %i {axis = 0 : i64} : (tensor<1000x64xf32>, tensor<8x16xi64>) -> tensor<8x16x64xf32>
  return %0 : tensor<8x16x64xf32>
}

// -----

// CHECK-DAG: #[[MOD:.*]] = affine_map<(d0, d1) -> (d0 mod 3, d1)>
// CHECK-LABEL: func.func @tile
// CHECK: linalg.generic {indexing_maps = [#[[MOD]], #{{.*}}]
func.func @tile(%x: tensor<3x4xf32>) -> tensor<6x4xf32> {
  %0 = graph.tile %x {multiples = array<i64: 2, 1>} : (tensor<3x4xf32>) -> tensor<6x4xf32>
  return %0 : tensor<6x4xf32>
}

// -----

// CHECK-LABEL: func.func @one_hot
// CHECK: linalg.generic
// CHECK: linalg.index 1
// CHECK: arith.cmpi eq
// CHECK: arith.select
func.func @one_hot(%l: tensor<8xi64>, %on: tensor<f32>, %off: tensor<f32>) -> tensor<8x10xf32> {
  %0 = graph.one_hot %l, %on, %off {depth = 10 : i64} : (tensor<8xi64>, tensor<f32>, tensor<f32>) -> tensor<8x10xf32>
  return %0 : tensor<8x10xf32>
}

// -----

// CHECK-LABEL: func.func @shape_squeeze_unsqueeze
// CHECK: tensor.dim
// CHECK: tensor.from_elements {{.*}} : tensor<2xi64>
// CHECK: tensor.expand_shape {{.*}} into tensor<?x1x16xf32>
// CHECK: tensor.collapse_shape {{.*}} into tensor<4x4xf32>
func.func @shape_squeeze_unsqueeze(%x: tensor<?x16xf32>, %y: tensor<4x1x4xf32>) -> (tensor<2xi64>, tensor<?x1x16xf32>, tensor<4x4xf32>) {
  %0 = graph.shape %x : (tensor<?x16xf32>) -> tensor<2xi64>
  %1 = graph.unsqueeze %x {axes = array<i64: 1>} : (tensor<?x16xf32>) -> tensor<?x1x16xf32>
  %2 = graph.squeeze %y {axes = array<i64: 1>} : (tensor<4x1x4xf32>) -> tensor<4x4xf32>
  return %0, %1, %2 : tensor<2xi64>, tensor<?x1x16xf32>, tensor<4x4xf32>
}
