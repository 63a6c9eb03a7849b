// RUN: graph-opt %s --graph-add-loss="labels=y" --split-input-file | FileCheck %s
// RUN: graph-opt %s --graph-add-loss="kind=mse labels=t output=1" --split-input-file | FileCheck %s --check-prefix=MSE

// softmax_cross_entropy: class indices as a new input, the mean over the
// batch as the only result; the dropped output's ops go too.
// CHECK-LABEL: func.func @main(
// CHECK-SAME: %[[X:.*]]: tensor<4x3xf32> {graph.name = "x"}, %[[Y:.*]]: tensor<4xi64> {graph.name = "y"}) -> tensor<f32>
// CHECK-SAME: graph.output_names = ["loss"]
// CHECK: %[[L:.*]] = graph.mul
// CHECK-NOT: graph.exp
// CHECK: %[[CE:.*]], %{{.*}} = graph.softmax_cross_entropy %[[L]], %[[Y]] {sparse} : (tensor<4x3xf32>, tensor<4xi64>) -> (tensor<4xf32>, tensor<4x3xf32>)
// CHECK: %[[M:.*]] = graph.reduce %[[CE]] {axes = array<i64: 0>, kind = #graph<reduce_kind mean>} : (tensor<4xf32>) -> tensor<f32>
// CHECK: return %[[M]] : tensor<f32>

// mse on output 1: labels of the output's type, mean over every element.
// MSE-LABEL: func.func @main(
// MSE-SAME: %{{.*}}: tensor<4x3xf32> {graph.name = "x"}, %[[T:.*]]: tensor<4x3xf32> {graph.name = "t"}) -> tensor<f32>
// MSE: %[[E:.*]] = graph.exp
// MSE: %[[D:.*]] = graph.sub %[[E]], %[[T]]
// MSE: %[[S:.*]] = graph.mul %[[D]], %[[D]]
// MSE: graph.reduce %[[S]] {axes = array<i64: 0, 1>, kind = #graph<reduce_kind mean>}
func.func @main(%x: tensor<4x3xf32> {graph.name = "x"}) -> (tensor<4x3xf32>, tensor<4x3xf32>) attributes {graph.output_names = ["logits", "scores"]} {
  %l = graph.mul %x, %x : (tensor<4x3xf32>, tensor<4x3xf32>) -> tensor<4x3xf32>
  %e = graph.exp %x : (tensor<4x3xf32>) -> tensor<4x3xf32>
  return %l, %e : tensor<4x3xf32>, tensor<4x3xf32>
}
