// RUN: graph-opt %s --graph-infer-shapes | FileCheck %s

// Static shapes flow through broadcasting, comparison, selection and
// reductions.
// CHECK-LABEL: func @refine
// CHECK-SAME: -> (tensor<8x16xf32>, tensor<8xi64>, tensor<1x16xf32>)
func.func @refine(%x: tensor<8x1xf32>, %y: tensor<16xf32>) -> (tensor<*xf32>, tensor<?xi64>, tensor<?x?xf32>) {
  // CHECK: graph.add {{.*}} -> tensor<8x16xf32>
  %a = graph.add %x, %y : (tensor<8x1xf32>, tensor<16xf32>) -> tensor<?x?xf32>
  // CHECK: graph.compare {{.*}} : (tensor<8x16xf32>, tensor<16xf32>) -> tensor<8x16xi1>
  %c = graph.compare %a, %y {direction = #graph<compare_direction gt>} : (tensor<?x?xf32>, tensor<16xf32>) -> tensor<*xi1>
  // CHECK: graph.select {{.*}} : (tensor<8x16xi1>, tensor<8x16xf32>, tensor<16xf32>) -> tensor<8x16xf32>
  %s = graph.select %c, %a, %y : (tensor<*xi1>, tensor<?x?xf32>, tensor<16xf32>) -> tensor<*xf32>
  // CHECK: graph.arg_reduce {{.*}} : (tensor<8x16xf32>) -> tensor<8xi64>
  %i = graph.arg_reduce %s {axis = -1 : i64, kind = #graph<reduce_kind max>} : (tensor<*xf32>) -> tensor<?xi64>
  // CHECK: graph.reduce {{.*}} : (tensor<8x16xf32>) -> tensor<1x16xf32>
  %r = graph.reduce %s {axes = array<i64: 0>, keepdims, kind = #graph<reduce_kind mean>} : (tensor<*xf32>) -> tensor<?x?xf32>
  // CHECK: return {{.*}} : tensor<8x16xf32>, tensor<8xi64>, tensor<1x16xf32>
  return %s, %i, %r : tensor<*xf32>, tensor<?xi64>, tensor<?x?xf32>
}
