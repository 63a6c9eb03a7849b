// Gradient check of graph-autodiff's matmul rule: transposed operands,
// batched and broadcast batch dimensions, vectors (see gradcheck.py).
//
// RUN: %python %S/gradcheck.py %s --runner %mlir_runner --libs %runner_libs | FileCheck %s
// CHECK-NOT: MISMATCH
// CHECK: gradcheck: 14 of 14 gradients match finite differences

func.func @plain(%a: tensor<3x4xf64>, %b: tensor<4x2xf64>) -> tensor<3x2xf64> {
  %y = graph.matmul %a, %b : (tensor<3x4xf64>, tensor<4x2xf64>) -> tensor<3x2xf64>
  return %y : tensor<3x2xf64>
}

func.func @transpose_lhs(%a: tensor<4x3xf64>, %b: tensor<4x2xf64>) -> tensor<3x2xf64> {
  %y = graph.matmul %a, %b {transpose_lhs} : (tensor<4x3xf64>, tensor<4x2xf64>) -> tensor<3x2xf64>
  return %y : tensor<3x2xf64>
}

func.func @transpose_both(%a: tensor<4x3xf64>, %b: tensor<2x4xf64>) -> tensor<3x2xf64> {
  %y = graph.matmul %a, %b {transpose_lhs, transpose_rhs} : (tensor<4x3xf64>, tensor<2x4xf64>) -> tensor<3x2xf64>
  return %y : tensor<3x2xf64>
}

// The rhs's batch dimension broadcasts: its gradient sums over the batch.
func.func @batched(%a: tensor<2x3x3x4xf64>, %b: tensor<3x2x4xf64>) -> tensor<2x3x3x2xf64> {
  %y = graph.matmul %a, %b {transpose_rhs} : (tensor<2x3x3x4xf64>, tensor<3x2x4xf64>) -> tensor<2x3x3x2xf64>
  return %y : tensor<2x3x3x2xf64>
}

func.func @broadcast_unit(%a: tensor<1x3x4xf64>, %b: tensor<2x4x2xf64>) -> tensor<2x3x2xf64> {
  %y = graph.matmul %a, %b : (tensor<1x3x4xf64>, tensor<2x4x2xf64>) -> tensor<2x3x2xf64>
  return %y : tensor<2x3x2xf64>
}

func.func @vector_lhs(%a: tensor<4xf64>, %b: tensor<2x4x3xf64>) -> tensor<2x3xf64> {
  %y = graph.matmul %a, %b : (tensor<4xf64>, tensor<2x4x3xf64>) -> tensor<2x3xf64>
  return %y : tensor<2x3xf64>
}

func.func @vector_both(%a: tensor<4xf64>, %b: tensor<4xf64>) -> tensor<f64> {
  %y = graph.matmul %a, %b : (tensor<4xf64>, tensor<4xf64>) -> tensor<f64>
  return %y : tensor<f64>
}
