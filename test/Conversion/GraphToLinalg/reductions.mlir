// RUN: graph-opt %s --graph-to-linalg --split-input-file | FileCheck %s

// CHECK-LABEL: func.func @reduce_mean_keepdims
// CHECK-SAME: (%[[X:.*]]: tensor<2x3x4xf32>)
// CHECK: %[[FILL:.*]] = linalg.fill
// CHECK: %[[SUM:.*]] = linalg.reduce ins(%[[X]] : tensor<2x3x4xf32>) outs(%[[FILL]] : tensor<3xf32>) dimensions = [0, 2]
// CHECK: arith.addf
// CHECK: %[[N:.*]] = arith.constant 8.000000e+00 : f32
// CHECK: %[[MEAN:.*]] = linalg.generic
// CHECK: arith.divf %{{.*}}, %[[N]]
// CHECK: %[[R:.*]] = tensor.expand_shape %[[MEAN]] {{\[\[}}0, 1, 2]] output_shape [1, 3, 1] : tensor<3xf32> into tensor<1x3x1xf32>
// CHECK: return %[[R]]
func.func @reduce_mean_keepdims(%x: tensor<2x3x4xf32>) -> tensor<1x3x1xf32> {
  %0 = graph.reduce %x {axes = array<i64: 0, -1>, keepdims, kind = #graph<reduce_kind mean>} : (tensor<2x3x4xf32>) -> tensor<1x3x1xf32>
  return %0 : tensor<1x3x1xf32>
}

// -----

// CHECK-LABEL: func.func @reduce_max_int
// CHECK: %[[MIN:.*]] = arith.constant -2147483648 : i32
// CHECK: linalg.fill ins(%[[MIN]] : i32)
// CHECK: linalg.reduce
// CHECK: arith.maxsi
func.func @reduce_max_int(%x: tensor<4x5xi32>) -> tensor<4xi32> {
  %0 = graph.reduce %x {axes = array<i64: 1>, kind = #graph<reduce_kind max>} : (tensor<4x5xi32>) -> tensor<4xi32>
  return %0 : tensor<4xi32>
}

// -----

// A dynamic reduced dimension divides by its run-time size.
// CHECK-LABEL: func.func @reduce_mean_dynamic
// CHECK: tensor.dim
// CHECK: arith.index_cast
// CHECK: arith.sitofp
// CHECK: arith.divf
func.func @reduce_mean_dynamic(%x: tensor<?x4xf32>) -> tensor<4xf32> {
  %0 = graph.reduce %x {axes = array<i64: 0>, kind = #graph<reduce_kind mean>} : (tensor<?x4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// CHECK-LABEL: func.func @arg_max
// CHECK: %[[V:.*]]:2 = linalg.generic
// CHECK-SAME: iterator_types = ["parallel", "reduction"]
// CHECK-SAME: outs(%{{.*}}, %{{.*}} : tensor<8xf32>, tensor<8xi64>)
// CHECK: arith.cmpf ogt
// CHECK: linalg.index 1
// CHECK: return %[[V]]#1
func.func @arg_max(%x: tensor<8x10xf32>) -> tensor<8xi64> {
  %0 = graph.arg_reduce %x {axis = 1 : i64, kind = #graph<reduce_kind max>} : (tensor<8x10xf32>) -> tensor<8xi64>
  return %0 : tensor<8xi64>
}

// -----

// Softmax subtracts the maximum before exponentiating.
// CHECK-LABEL: func.func @softmax
// CHECK: %[[MAX:.*]] = linalg.reduce
// CHECK: arith.maximumf
// CHECK: %[[SHIFT:.*]] = linalg.generic {{.*}} ins(%{{.*}}, %[[MAX]] :
// CHECK: arith.subf
// CHECK: %[[EXP:.*]] = linalg.generic {{.*}} ins(%[[SHIFT]] :
// CHECK: math.exp
// CHECK: %[[SUM:.*]] = linalg.reduce ins(%[[EXP]]
// CHECK: linalg.generic {{.*}} ins(%[[EXP]], %[[SUM]] :
// CHECK: arith.divf
func.func @softmax(%x: tensor<8x10xf32>) -> tensor<8x10xf32> {
  %0 = graph.softmax %x : (tensor<8x10xf32>) -> tensor<8x10xf32>
  return %0 : tensor<8x10xf32>
}

// -----

// CHECK-LABEL: func.func @log_softmax
// CHECK: math.exp
// CHECK: linalg.reduce
// CHECK: math.log
// CHECK: arith.subf
func.func @log_softmax(%x: tensor<8x10xf32>) -> tensor<8x10xf32> {
  %0 = graph.log_softmax %x {axis = 0 : i64} : (tensor<8x10xf32>) -> tensor<8x10xf32>
  return %0 : tensor<8x10xf32>
}

// -----

// A reduction over every axis goes through a [1] result (graphc-cpu-codegen
// miscompiles linalg.reduce into a 0-d output).
// CHECK-LABEL: func.func @reduce_all
// CHECK-SAME: (%[[X:.*]]: tensor<?x4xf32>)
// CHECK: %[[D:.*]] = tensor.dim %[[X]], %{{.*}} : tensor<?x4xf32>
// CHECK: %[[E:.*]] = tensor.expand_shape %[[X]] {{\[}}[0, 1], [2]] output_shape [1, %[[D]], 4] : tensor<?x4xf32> into tensor<1x?x4xf32>
// CHECK: %[[R:.*]] = linalg.reduce ins(%[[E]] : tensor<1x?x4xf32>) outs(%{{.*}} : tensor<1xf32>) dimensions = [1, 2]
// CHECK: tensor.collapse_shape %[[R]] [] : tensor<1xf32> into tensor<f32>
func.func @reduce_all(%x: tensor<?x4xf32>) -> tensor<f32> {
  %0 = graph.reduce %x {axes = array<i64: 0, 1>, kind = #graph<reduce_kind sum>} : (tensor<?x4xf32>) -> tensor<f32>
  return %0 : tensor<f32>
}
