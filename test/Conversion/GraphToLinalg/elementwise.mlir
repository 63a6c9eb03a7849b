// RUN: graph-opt %s --graph-to-linalg --split-input-file | FileCheck %s

// CHECK-DAG: #[[ID:.*]] = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-DAG: #[[ROW:.*]] = affine_map<(d0, d1) -> (d1)>
// CHECK-DAG: #[[COL:.*]] = affine_map<(d0, d1) -> (d0, 0)>
// CHECK-DAG: #[[STRETCH_ROW:.*]] = affine_map<(d0, d1) -> (0, d1)>

// CHECK-LABEL: func.func @add_broadcast
// CHECK-SAME: (%[[A:.*]]: tensor<2x3xf32>, %[[B:.*]]: tensor<3xf32>)
// CHECK: %[[E:.*]] = tensor.empty() : tensor<2x3xf32>
// CHECK: %[[R:.*]] = linalg.generic {indexing_maps = [#[[ID]], #[[ROW]], #[[ID]]], iterator_types = ["parallel", "parallel"]}
// CHECK-SAME: ins(%[[A]], %[[B]] : tensor<2x3xf32>, tensor<3xf32>) outs(%[[E]] : tensor<2x3xf32>)
// CHECK: arith.addf
// CHECK: return %[[R]]
// CHECK-NOT: graph.
func.func @add_broadcast(%a: tensor<2x3xf32>, %b: tensor<3xf32>) -> tensor<2x3xf32> {
  %0 = graph.add %a, %b : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// Both operands stretch a unit dimension: constant 0 in their maps.
// CHECK-LABEL: func.func @mul_outer
// CHECK: linalg.generic {indexing_maps = [#[[COL]], #[[STRETCH_ROW]], #[[ID]]]
// CHECK: arith.mulf
func.func @mul_outer(%a: tensor<2x1xf32>, %b: tensor<1x3xf32>) -> tensor<2x3xf32> {
  %0 = graph.mul %a, %b : (tensor<2x1xf32>, tensor<1x3xf32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

// Integer ops pick the signed arith ops; mod corrects the C remainder.
// CHECK-LABEL: func.func @int_ops
// CHECK: arith.divsi
// CHECK: arith.floordivsi
// CHECK: arith.remsi
// CHECK: arith.cmpi slt
// CHECK: arith.select
func.func @int_ops(%a: tensor<4xi32>, %b: tensor<i32>) -> (tensor<4xi32>, tensor<4xi32>, tensor<4xi32>) {
  %0 = graph.div %a, %b : (tensor<4xi32>, tensor<i32>) -> tensor<4xi32>
  %1 = graph.floor_div %a, %b : (tensor<4xi32>, tensor<i32>) -> tensor<4xi32>
  %2 = graph.mod %a, %b : (tensor<4xi32>, tensor<i32>) -> tensor<4xi32>
  return %0, %1, %2 : tensor<4xi32>, tensor<4xi32>, tensor<4xi32>
}

// -----

// CHECK-LABEL: func.func @compare_select
// CHECK: %[[C:.*]] = linalg.generic
// CHECK: arith.cmpf olt
// CHECK: -> tensor<4xi1>
// CHECK: linalg.generic
// CHECK-SAME: ins(%[[C]], {{.*}} : tensor<4xi1>, tensor<4xf32>, tensor<f32>)
// CHECK: arith.select
func.func @compare_select(%a: tensor<4xf32>, %b: tensor<4xf32>, %z: tensor<f32>) -> tensor<4xf32> {
  %c = graph.compare %a, %b {direction = #graph<compare_direction lt>} : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
  %0 = graph.select %c, %a, %z : (tensor<4xi1>, tensor<4xf32>, tensor<f32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// Booleans compare unsigned (false < true).
// CHECK-LABEL: func.func @compare_bool
// CHECK: arith.cmpi ult
func.func @compare_bool(%a: tensor<4xi1>, %b: tensor<4xi1>) -> tensor<4xi1> {
  %0 = graph.compare %a, %b {direction = #graph<compare_direction lt>} : (tensor<4xi1>, tensor<4xi1>) -> tensor<4xi1>
  return %0 : tensor<4xi1>
}

// -----

// CHECK-LABEL: func.func @casts
// CHECK: arith.fptosi {{.*}} : f32 to i32
// CHECK: arith.uitofp {{.*}} : i1 to f32
// CHECK: arith.cmpf une
// CHECK: arith.extf {{.*}} : f16 to f32
func.func @casts(%a: tensor<4xf32>, %b: tensor<4xi1>, %h: tensor<4xf16>) -> (tensor<4xi32>, tensor<4xf32>, tensor<4xi1>, tensor<4xf32>) {
  %0 = graph.cast %a {to = i32} : (tensor<4xf32>) -> tensor<4xi32>
  %1 = graph.cast %b {to = f32} : (tensor<4xi1>) -> tensor<4xf32>
  %2 = graph.cast %a {to = i1} : (tensor<4xf32>) -> tensor<4xi1>
  %3 = graph.cast %h {to = f32} : (tensor<4xf16>) -> tensor<4xf32>
  return %0, %1, %2, %3 : tensor<4xi32>, tensor<4xf32>, tensor<4xi1>, tensor<4xf32>
}

// -----

// CHECK-LABEL: func.func @unary_math
// CHECK: math.erf
// CHECK: math.tanh
// CHECK: math.log1p
// CHECK: math.rsqrt
func.func @unary_math(%x: tensor<8xf32>) -> (tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>) {
  %0 = graph.gelu %x : (tensor<8xf32>) -> tensor<8xf32>
  %1 = graph.gelu %x {approximate} : (tensor<8xf32>) -> tensor<8xf32>
  %2 = graph.softplus %x : (tensor<8xf32>) -> tensor<8xf32>
  %3 = graph.rsqrt %x : (tensor<8xf32>) -> tensor<8xf32>
  return %0, %1, %2, %3 : tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>
}

// -----

// Dynamic dimensions: the result size comes from the operand via tensor.dim.
// CHECK-LABEL: func.func @dynamic
// CHECK-SAME: (%[[X:.*]]: tensor<?x4xf32>, %[[Y:.*]]: tensor<4xf32>)
// CHECK: %[[C0:.*]] = arith.constant 0 : index
// CHECK: %[[D:.*]] = tensor.dim %[[X]], %[[C0]]
// CHECK: tensor.empty(%[[D]]) : tensor<?x4xf32>
// CHECK: linalg.generic
func.func @dynamic(%x: tensor<?x4xf32>, %y: tensor<4xf32>) -> tensor<?x4xf32> {
  %0 = graph.sub %x, %y : (tensor<?x4xf32>, tensor<4xf32>) -> tensor<?x4xf32>
  return %0 : tensor<?x4xf32>
}

// -----

// CHECK-LABEL: func.func @constant_identity
// CHECK: %[[C:.*]] = arith.constant dense<[1.000000e+00, 2.000000e+00]> : tensor<2xf32>
// CHECK: return %[[C]]
func.func @constant_identity() -> tensor<2xf32> {
  %0 = graph.constant dense<[1.0, 2.0]> : tensor<2xf32>
  %1 = graph.identity %0 : (tensor<2xf32>) -> tensor<2xf32>
  return %1 : tensor<2xf32>
}

// -----

// Two dynamic operands at one dimension: the result takes the first one's
// size and a cf.assert checks the other matches (it is never stretched).
// CHECK-LABEL: func.func @dynamic_pair
// CHECK-SAME: (%[[X:.*]]: tensor<?x4xf32>, %[[Y:.*]]: tensor<?x4xf32>)
// CHECK: %[[DX:.*]] = tensor.dim %[[X]], %{{.*}} : tensor<?x4xf32>
// CHECK: %[[DY:.*]] = tensor.dim %[[Y]], %{{.*}} : tensor<?x4xf32>
// CHECK: %[[EQ:.*]] = arith.cmpi eq, %[[DY]], %[[DX]] : index
// CHECK: cf.assert %[[EQ]], "graph-to-linalg: dynamic dimension 0 of operand 1 does not match result dimension 0 at run time (a dynamic dimension of size 1 is not broadcast)"
// CHECK: tensor.empty(%[[DX]]) : tensor<?x4xf32>
func.func @dynamic_pair(%x: tensor<?x4xf32>, %y: tensor<?x4xf32>) -> tensor<?x4xf32> {
  %0 = graph.add %x, %y : (tensor<?x4xf32>, tensor<?x4xf32>) -> tensor<?x4xf32>
  return %0 : tensor<?x4xf32>
}

// -----

// A dynamic operand facing a static result size is checked against it.
// CHECK-LABEL: func.func @dynamic_static_result
// CHECK-SAME: (%[[X:.*]]: tensor<?x4xf32>, %[[Z:.*]]: tensor<3x4xf32>)
// CHECK: %[[C3:.*]] = arith.constant 3 : index
// CHECK: %[[DX:.*]] = tensor.dim %[[X]], %{{.*}} : tensor<?x4xf32>
// CHECK: %[[EQ:.*]] = arith.cmpi eq, %[[DX]], %[[C3]] : index
// CHECK: cf.assert %[[EQ]], "graph-to-linalg: dynamic dimension 0 of operand 0 does not match result dimension 0
// CHECK: tensor.empty() : tensor<3x4xf32>
func.func @dynamic_static_result(%x: tensor<?x4xf32>, %z: tensor<3x4xf32>) -> tensor<3x4xf32> {
  %0 = graph.add %x, %z : (tensor<?x4xf32>, tensor<3x4xf32>) -> tensor<3x4xf32>
  return %0 : tensor<3x4xf32>
}

// -----

// A static 1 against a dynamic size broadcasts statically: no check.
// CHECK-LABEL: func.func @dynamic_against_unit
// CHECK-NOT: cf.assert
// CHECK: linalg.generic
func.func @dynamic_against_unit(%x: tensor<?x4xf32>, %z: tensor<1x4xf32>) -> tensor<?x4xf32> {
  %0 = graph.add %x, %z : (tensor<?x4xf32>, tensor<1x4xf32>) -> tensor<?x4xf32>
  return %0 : tensor<?x4xf32>
}
