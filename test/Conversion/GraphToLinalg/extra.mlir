// RUN: graph-opt %s --graph-to-linalg --split-input-file | FileCheck %s

// cumulative: one generic with an extra reduction loop j over the axis; an
// exclusive forward scan takes the elements with j < i.
// CHECK-DAG: #[[ATJ:.*]] = affine_map<(d0, d1, d2) -> (d0, d2)>
// CHECK-DAG: #[[ATI:.*]] = affine_map<(d0, d1, d2) -> (d0, d1)>
// CHECK-LABEL: func.func @cumulative
// CHECK: %[[INIT:.*]] = linalg.fill ins(%{{.*}} : f32)
// CHECK: linalg.generic {indexing_maps = [#[[ATJ]], #[[ATI]]], iterator_types = ["parallel", "parallel", "reduction"]} ins(%arg0 : tensor<2x5xf32>) outs(%[[INIT]] : tensor<2x5xf32>)
// CHECK: ^bb0(%[[X:.*]]: f32, %[[ACC:.*]]: f32):
// CHECK: %[[SUM:.*]] = arith.addf %[[ACC]], %[[X]] : f32
// CHECK: %[[J:.*]] = linalg.index 2 : index
// CHECK: %[[I:.*]] = linalg.index 1 : index
// CHECK: %[[TAKE:.*]] = arith.cmpi slt, %[[J]], %[[I]] : index
// CHECK: arith.select %[[TAKE]], %[[SUM]], %[[ACC]] : f32
func.func @cumulative(%x: tensor<2x5xf32>) -> tensor<2x5xf32> {
  %0 = graph.cumulative %x {axis = 1 : i64, kind = #graph<reduce_kind sum>, exclusive} : (tensor<2x5xf32>) -> tensor<2x5xf32>
  return %0 : tensor<2x5xf32>
}

// -----

// A reverse inclusive product: j >= i, starting from 1.
// CHECK-LABEL: func.func @cumprod_reverse
// CHECK: arith.constant 1 : i32
// CHECK: arith.muli
// CHECK: arith.cmpi sge
func.func @cumprod_reverse(%x: tensor<6xi32>) -> tensor<6xi32> {
  %0 = graph.cumulative %x {axis = 0 : i64, kind = #graph<reduce_kind prod>, reverse} : (tensor<6xi32>) -> tensor<6xi32>
  return %0 : tensor<6xi32>
}

// -----

// gather_elements: a generic over the indices that wraps negative indices,
// clamps the rest into the axis and reads the input with tensor.extract.
// CHECK-LABEL: func.func @gather_elements
// CHECK-SAME: (%[[X:.*]]: tensor<3x5xf32>, %[[IDX:.*]]: tensor<3x2xi32>)
// CHECK: linalg.generic {{.*}} ins(%[[IDX]] : tensor<3x2xi32>) outs(%{{.*}} : tensor<3x2xf32>)
// CHECK: %[[K:.*]] = arith.index_cast %{{.*}} : i32 to index
// CHECK: arith.cmpi slt, %[[K]]
// CHECK: %[[W:.*]] = arith.select
// CHECK: %[[LO:.*]] = arith.maxsi %[[W]]
// CHECK: %[[C:.*]] = arith.minsi %[[LO]]
// CHECK: %[[R:.*]] = linalg.index 0 : index
// CHECK: tensor.extract %[[X]][%[[R]], %[[C]]] : tensor<3x5xf32>
func.func @gather_elements(%x: tensor<3x5xf32>, %i: tensor<3x2xi32>) -> tensor<3x2xf32> {
  %0 = graph.gather_elements %x, %i {axis = 1 : i64} : (tensor<3x5xf32>, tensor<3x2xi32>) -> tensor<3x2xf32>
  return %0 : tensor<3x2xf32>
}

// -----

// top_k: rank every element (how many beat it, ties by index), then pick
// the element of rank r for each output position r.
// CHECK-LABEL: func.func @top_k
// CHECK: %[[RANKS:.*]] = linalg.generic {{.*}} iterator_types = ["parallel", "parallel", "reduction"]} ins(%arg0, %arg0 : tensor<3x4xf32>, tensor<3x4xf32>) outs(%{{.*}} : tensor<3x4xi64>)
// CHECK: arith.cmpf ogt
// CHECK: arith.cmpf oeq
// CHECK: arith.cmpi slt
// CHECK: arith.extui
// CHECK: linalg.generic {{.*}} ins(%arg0, %[[RANKS]] : tensor<3x4xf32>, tensor<3x4xi64>) outs(%{{.*}}, %{{.*}} : tensor<3x2xf32>, tensor<3x2xi64>)
// CHECK: arith.cmpi eq
// CHECK: linalg.yield %{{.*}}, %{{.*}} : f32, i64
func.func @top_k(%x: tensor<3x4xf32>) -> (tensor<3x2xf32>, tensor<3x2xi64>) {
  %0:2 = graph.top_k %x {axis = 1 : i64, k = 2 : i64} : (tensor<3x4xf32>) -> (tensor<3x2xf32>, tensor<3x2xi64>)
  return %0#0, %0#1 : tensor<3x2xf32>, tensor<3x2xi64>
}

// -----

// CHECK-LABEL: func.func @elementwise
// CHECK: math.atanh %{{.*}} : f32
// CHECK: math.tan %{{.*}} : f32
// CHECK: arith.constant -1 : i32
// CHECK: arith.xori
// CHECK: arith.andi %{{.*}}, %{{.*}} : i32
func.func @elementwise(%x: tensor<4xf32>, %a: tensor<4xi32>, %b: tensor<4xi32>) -> (tensor<4xf32>, tensor<4xf32>, tensor<4xi32>, tensor<4xi32>) {
  %0 = graph.atanh %x : (tensor<4xf32>) -> tensor<4xf32>
  %1 = graph.tan %x : (tensor<4xf32>) -> tensor<4xf32>
  %2 = graph.bitwise_not %a : (tensor<4xi32>) -> tensor<4xi32>
  %3 = graph.bitwise_and %a, %b : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32>
  return %0, %1, %2, %3 : tensor<4xf32>, tensor<4xf32>, tensor<4xi32>, tensor<4xi32>
}
