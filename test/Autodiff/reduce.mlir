// Gradient check of graph-autodiff's reduction, softmax and loss rules
// (see gradcheck.py for step and tolerance).
//
// RUN: %python %S/gradcheck.py %s --runner %mlir_runner --libs %runner_libs | FileCheck %s
// CHECK-NOT: MISMATCH
// CHECK: gradcheck: 9 of 9 gradients match finite differences

func.func @reduce_sum(%x: tensor<2x3x4xf64>) -> (tensor<2x4xf64>, tensor<1x3x1xf64>) {
  %a = graph.reduce %x {axes = array<i64: 1>, kind = #graph<reduce_kind sum>} : (tensor<2x3x4xf64>) -> tensor<2x4xf64>
  %b = graph.reduce %x {axes = array<i64: 0, -1>, keepdims, kind = #graph<reduce_kind sum>} : (tensor<2x3x4xf64>) -> tensor<1x3x1xf64>
  return %a, %b : tensor<2x4xf64>, tensor<1x3x1xf64>
}

func.func @reduce_mean(%x: tensor<2x3x4xf64>) -> (tensor<3xf64>, tensor<2x3x4xf64>) {
  %a = graph.reduce %x {axes = array<i64: 0, 2>, kind = #graph<reduce_kind mean>} : (tensor<2x3x4xf64>) -> tensor<3xf64>
  %b = graph.reduce %x {axes = array<i64>, kind = #graph<reduce_kind mean>} : (tensor<2x3x4xf64>) -> tensor<2x3x4xf64>
  return %a, %b : tensor<3xf64>, tensor<2x3x4xf64>
}

// Distinct inputs: the extremum of every slice is unique.
// gradcheck @reduce_max x=spread
func.func @reduce_max(%x: tensor<3x4xf64>) -> (tensor<3xf64>, tensor<1x4xf64>) {
  %a = graph.reduce %x {axes = array<i64: 1>, kind = #graph<reduce_kind max>} : (tensor<3x4xf64>) -> tensor<3xf64>
  %b = graph.reduce %x {axes = array<i64: 0>, keepdims, kind = #graph<reduce_kind min>} : (tensor<3x4xf64>) -> tensor<1x4xf64>
  return %a, %b : tensor<3xf64>, tensor<1x4xf64>
}

func.func @softmax(%x: tensor<2x5xf64>) -> tensor<2x5xf64> {
  %y = graph.softmax %x {axis = 1 : i64} : (tensor<2x5xf64>) -> tensor<2x5xf64>
  return %y : tensor<2x5xf64>
}

func.func @softmax_axis0(%x: tensor<3x2x4xf64>) -> tensor<3x2x4xf64> {
  %y = graph.softmax %x {axis = 0 : i64} : (tensor<3x2x4xf64>) -> tensor<3x2x4xf64>
  return %y : tensor<3x2x4xf64>
}

func.func @log_softmax(%x: tensor<2x5xf64>) -> tensor<2x5xf64> {
  %y = graph.log_softmax %x : (tensor<2x5xf64>) -> tensor<2x5xf64>
  return %y : tensor<2x5xf64>
}

// gradcheck @cross_entropy_sparse labels=int:0:5
func.func @cross_entropy_sparse(%logits: tensor<4x5xf64>, %labels: tensor<4xi64>) -> tensor<4xf64> {
  %loss, %grad = graph.softmax_cross_entropy %logits, %labels {sparse} : (tensor<4x5xf64>, tensor<4xi64>) -> (tensor<4xf64>, tensor<4x5xf64>)
  return %loss : tensor<4xf64>
}

// Dense labels: both operands are differentiated.
func.func @cross_entropy_dense(%logits: tensor<3x4xf64>, %labels: tensor<3x4xf64>) -> tensor<3xf64> {
  %loss, %grad = graph.softmax_cross_entropy %logits, %labels : (tensor<3x4xf64>, tensor<3x4xf64>) -> (tensor<3xf64>, tensor<3x4xf64>)
  return %loss : tensor<3xf64>
}
