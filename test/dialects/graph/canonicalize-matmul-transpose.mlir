// RUN: graph-opt %s --canonicalize --split-input-file | FileCheck %s

// matmul absorbs a transpose of the last two dimensions into its transpose
// flags; the transpose then dies.

// CHECK-LABEL: func @transpose_lhs
// CHECK-SAME: (%[[X:.*]]: tensor<784x8xf32>, %[[W:.*]]: tensor<784x10xf32>)
// CHECK-NOT: graph.transpose
// CHECK: %[[M:.*]] = graph.matmul %[[X]], %[[W]] {transpose_lhs} : (tensor<784x8xf32>, tensor<784x10xf32>) -> tensor<8x10xf32>
// CHECK: return %[[M]]
func.func @transpose_lhs(%x: tensor<784x8xf32>, %w: tensor<784x10xf32>) -> tensor<8x10xf32> {
  %t = graph.transpose %x {perm = array<i64: 1, 0>} : (tensor<784x8xf32>) -> tensor<8x784xf32>
  %m = graph.matmul %t, %w : (tensor<8x784xf32>, tensor<784x10xf32>) -> tensor<8x10xf32>
  return %m : tensor<8x10xf32>
}

// -----

// Batch dimensions in front stay where they are.
// CHECK-LABEL: func @transpose_rhs_batched
// CHECK-SAME: (%[[Q:.*]]: tensor<2x16x64xf32>, %[[K:.*]]: tensor<2x16x64xf32>)
// CHECK-NOT: graph.transpose
// CHECK: graph.matmul %[[Q]], %[[K]] {transpose_rhs} : (tensor<2x16x64xf32>, tensor<2x16x64xf32>) -> tensor<2x16x16xf32>
func.func @transpose_rhs_batched(%q: tensor<2x16x64xf32>, %k: tensor<2x16x64xf32>) -> tensor<2x16x16xf32> {
  %kt = graph.transpose %k {perm = array<i64: 0, 2, 1>} : (tensor<2x16x64xf32>) -> tensor<2x64x16xf32>
  %m = graph.matmul %q, %kt : (tensor<2x16x64xf32>, tensor<2x64x16xf32>) -> tensor<2x16x16xf32>
  return %m : tensor<2x16x16xf32>
}

// -----

// A transpose into an operand already marked transposed clears the flag.
// CHECK-LABEL: func @double_flip
// CHECK-SAME: (%[[A:.*]]: tensor<3x4xf32>, %[[B:.*]]: tensor<4x5xf32>)
// CHECK-NOT: graph.transpose
// CHECK: graph.matmul %[[A]], %[[B]] : (tensor<3x4xf32>, tensor<4x5xf32>) -> tensor<3x5xf32>
func.func @double_flip(%a: tensor<3x4xf32>, %b: tensor<4x5xf32>) -> tensor<3x5xf32> {
  %at = graph.transpose %a {perm = array<i64: 1, 0>} : (tensor<3x4xf32>) -> tensor<4x3xf32>
  %bt = graph.transpose %b {perm = array<i64: 1, 0>} : (tensor<4x5xf32>) -> tensor<5x4xf32>
  %m = graph.matmul %at, %bt {transpose_lhs, transpose_rhs} : (tensor<4x3xf32>, tensor<5x4xf32>) -> tensor<3x5xf32>
  return %m : tensor<3x5xf32>
}

// -----

// A transpose that moves a batch dimension is not a matmul flag.
// CHECK-LABEL: func @batch_transpose_kept
// CHECK: %[[T:.*]] = graph.transpose
// CHECK: graph.matmul %[[T]], %{{.*}} : (tensor<3x2x4xf32>, tensor<4x5xf32>)
func.func @batch_transpose_kept(%x: tensor<2x3x4xf32>, %w: tensor<4x5xf32>) -> tensor<3x2x5xf32> {
  %t = graph.transpose %x {perm = array<i64: 1, 0, 2>} : (tensor<2x3x4xf32>) -> tensor<3x2x4xf32>
  %m = graph.matmul %t, %w : (tensor<3x2x4xf32>, tensor<4x5xf32>) -> tensor<3x2x5xf32>
  return %m : tensor<3x2x5xf32>
}

// -----

// A transpose with another user stays for that user; matmul still absorbs it.
// CHECK-LABEL: func @shared_transpose
// CHECK: %[[T:.*]] = graph.transpose
// CHECK: graph.matmul %{{.*}}, %{{.*}} {transpose_lhs}
// CHECK: return %{{.*}}, %[[T]]
func.func @shared_transpose(%x: tensor<4x3xf32>, %w: tensor<4x5xf32>) -> (tensor<3x5xf32>, tensor<3x4xf32>) {
  %t = graph.transpose %x {perm = array<i64: 1, 0>} : (tensor<4x3xf32>) -> tensor<3x4xf32>
  %m = graph.matmul %t, %w : (tensor<3x4xf32>, tensor<4x5xf32>) -> tensor<3x5xf32>
  return %m, %t : tensor<3x5xf32>, tensor<3x4xf32>
}
