// graph-pretranspose-weights: a constant right-hand side of transpose_rhs
// matmuls is stored transposed, and the matmuls lose the flag; a constant
// with any other use, or whose bytes something else refers to, is kept.
// RUN: graph-opt %s --graph-pretranspose-weights --split-input-file | FileCheck %s

// CHECK-LABEL: func.func @dense
// CHECK: %[[W:.*]] = graph.constant dense<{{\[}}[1.000000e+00, 4.000000e+00], [2.000000e+00, 5.000000e+00], [3.000000e+00, 6.000000e+00]]> : tensor<3x2xf32>
// CHECK: graph.matmul %{{.*}}, %[[W]] : (tensor<2x3xf32>, tensor<3x2xf32>) -> tensor<2x2xf32>
// CHECK: graph.matmul %{{.*}}, %[[W]] : (tensor<1x3xf32>, tensor<3x2xf32>) -> tensor<1x2xf32>
func.func @dense(%x: tensor<2x3xf32>, %y: tensor<1x3xf32>) -> (tensor<2x2xf32>, tensor<1x2xf32>) {
  %w = graph.constant dense<[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]> : tensor<2x3xf32>
  %a = graph.matmul %x, %w {transpose_rhs} : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x2xf32>
  %b = graph.matmul %y, %w {transpose_rhs} : (tensor<1x3xf32>, tensor<2x3xf32>) -> tensor<1x2xf32>
  return %a, %b : tensor<2x2xf32>, tensor<1x2xf32>
}

// -----

// A splat only changes shape.
// CHECK-LABEL: func.func @splat
// CHECK: %[[W:.*]] = graph.constant dense<2.000000e-02> : tensor<3x2xf32>
// CHECK: graph.matmul %{{.*}}, %[[W]] : (tensor<2x3xf32>, tensor<3x2xf32>)
func.func @splat(%x: tensor<2x3xf32>) -> tensor<2x2xf32> {
  %w = graph.constant dense<0.02> : tensor<2x3xf32>
  %a = graph.matmul %x, %w {transpose_rhs} : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x2xf32>
  return %a : tensor<2x2xf32>
}

// -----

// Kept: another use reads the constant as it is; a matmul without the flag;
// the constant on the left; a batched (3-D) right-hand side.
// CHECK-LABEL: func.func @kept
// CHECK-COUNT-2: graph.matmul {{.*}} {transpose_rhs}
// CHECK: graph.matmul %{{.*}}, %{{.*}} : (tensor<3x2xf32>, tensor<2x3xf32>)
// CHECK: graph.matmul {{.*}} {transpose_rhs} : (tensor<2x3xf32>, tensor<2x3xf32>)
// CHECK: graph.matmul {{.*}} {transpose_rhs} : (tensor<4x2x3xf32>, tensor<4x2x3xf32>)
func.func @kept(%x: tensor<2x3xf32>, %z: tensor<3x2xf32>, %b: tensor<4x2x3xf32>) -> (tensor<2x2xf32>, tensor<3x2xf32>, tensor<3x3xf32>, tensor<2x2xf32>, tensor<4x2x2xf32>) {
  %w = graph.constant dense<[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]> : tensor<2x3xf32>
  %a = graph.matmul %x, %w {transpose_rhs} : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x2xf32>
  %t = graph.transpose %w {perm = array<i64: 1, 0>} : (tensor<2x3xf32>) -> tensor<3x2xf32>
  %v = graph.constant dense<[[1.0, 2.0, 3.0], [4.0, 5.0, 7.0]]> : tensor<2x3xf32>
  %c = graph.matmul %v, %v {transpose_rhs} : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x2xf32>
  %u = graph.constant dense<[[1.0, 2.0, 3.0], [4.0, 5.0, 8.0]]> : tensor<2x3xf32>
  %d = graph.matmul %z, %u : (tensor<3x2xf32>, tensor<2x3xf32>) -> tensor<3x3xf32>
  %e = graph.matmul %x, %u {transpose_rhs} : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x2xf32>
  %s = graph.constant dense<1.0> : tensor<4x2x3xf32>
  %f = graph.matmul %b, %s {transpose_rhs} : (tensor<4x2x3xf32>, tensor<4x2x3xf32>) -> tensor<4x2x2xf32>
  return %a, %t, %d, %e, %f : tensor<2x2xf32>, tensor<3x2xf32>, tensor<3x3xf32>, tensor<2x2xf32>, tensor<4x2x2xf32>
}

// -----

// A dense_resource blob (the ONNX importer's large initializers) is
// replaced by its transpose: 1..6 as [2, 3] becomes 1 4 2 5 3 6. Two
// constants naming the same blob (a dynamic batch's chunk body) are both
// rewritten, once.
// CHECK-LABEL: func.func @main
// CHECK: %[[W:.*]] = graph.constant dense_resource<w_blob> : tensor<3x2xf32>
// CHECK: graph.matmul %{{.*}}, %[[W]] : (tensor<1x3xf32>, tensor<3x2xf32>)
// CHECK-LABEL: func.func private @chunk
// CHECK: %[[V:.*]] = graph.constant dense_resource<w_blob> : tensor<3x2xf32>
// CHECK: graph.matmul %{{.*}}, %[[V]] : (tensor<8x3xf32>, tensor<3x2xf32>)
// CHECK: w_blob: "0x{{[0-9A-F]+}}0000803F00008040000000400000A040000040400000C040"
func.func @main(%x: tensor<1x3xf32>) -> tensor<1x2xf32> {
  %w = graph.constant dense_resource<w_blob> : tensor<2x3xf32>
  %y = graph.matmul %x, %w {transpose_rhs} : (tensor<1x3xf32>, tensor<2x3xf32>) -> tensor<1x2xf32>
  return %y : tensor<1x2xf32>
}
func.func private @chunk(%x: tensor<8x3xf32>) -> tensor<8x2xf32> {
  %w = graph.constant dense_resource<w_blob> : tensor<2x3xf32>
  %y = graph.matmul %x, %w {transpose_rhs} : (tensor<8x3xf32>, tensor<2x3xf32>) -> tensor<8x2xf32>
  return %y : tensor<8x2xf32>
}

{-#
  dialect_resources: {
    builtin: {
      w_blob: "0x040000000000803F0000004000004040000080400000A0400000C040"
    }
  }
#-}

// -----

// The blob is also a variable's value: kept, since rewriting the bytes
// would change the variable.
// CHECK-LABEL: module
// CHECK: graph.variable @V : tensor<2x3xf32> = dense_resource<v_blob>
// CHECK: graph.constant dense_resource<v_blob> : tensor<2x3xf32>
// CHECK: graph.matmul {{.*}} {transpose_rhs}
// CHECK: v_blob: "0x040000000000803F0000004000004040000080400000A0400000C040"
graph.variable @V : tensor<2x3xf32> = dense_resource<v_blob>
func.func @main(%x: tensor<1x3xf32>) -> tensor<1x2xf32> {
  %w = graph.constant dense_resource<v_blob> : tensor<2x3xf32>
  %y = graph.matmul %x, %w {transpose_rhs} : (tensor<1x3xf32>, tensor<2x3xf32>) -> tensor<1x2xf32>
  return %y : tensor<1x2xf32>
}

{-#
  dialect_resources: {
    builtin: {
      v_blob: "0x040000000000803F0000004000004040000080400000A0400000C040"
    }
  }
#-}
