// RUN: graph-opt %s -canonicalize -split-input-file | FileCheck %s

// CHECK-LABEL: func @compare_constant_to_right
// CHECK-SAME: (%[[X:.*]]: tensor<4xf32>)
func.func @compare_constant_to_right(%x: tensor<4xf32>) -> (tensor<4xi1>, tensor<4xi1>) {
  // CHECK: %[[C:.*]] = graph.constant dense<1.000000e+00> : tensor<f32>
  %c = graph.constant dense<1.0> : tensor<f32>
  // 1 < x is x > 1.
  // CHECK: %[[GT:.*]] = graph.compare %[[X]], %[[C]] {direction = #graph<compare_direction gt>} : (tensor<4xf32>, tensor<f32>) -> tensor<4xi1>
  %0 = graph.compare %c, %x {direction = #graph<compare_direction lt>} : (tensor<f32>, tensor<4xf32>) -> tensor<4xi1>
  // CHECK: %[[EQ:.*]] = graph.compare %[[X]], %[[C]] {direction = #graph<compare_direction eq>} : (tensor<4xf32>, tensor<f32>) -> tensor<4xi1>
  %1 = graph.compare %c, %x {direction = #graph<compare_direction eq>} : (tensor<f32>, tensor<4xf32>) -> tensor<4xi1>
  // CHECK: return %[[GT]], %[[EQ]]
  return %0, %1 : tensor<4xi1>, tensor<4xi1>
}

// -----

// CHECK-LABEL: func @not_of_compare
// CHECK-SAME: (%[[I:.*]]: tensor<4xi32>, %[[J:.*]]: tensor<4xi32>, %[[X:.*]]: tensor<4xf32>, %[[Y:.*]]: tensor<4xf32>)
func.func @not_of_compare(%i: tensor<4xi32>, %j: tensor<4xi32>, %x: tensor<4xf32>, %y: tensor<4xf32>) -> (tensor<4xi1>, tensor<4xi1>, tensor<4xi1>) {
  // Integers: not(i < j) is i >= j.
  // CHECK: %[[GE:.*]] = graph.compare %[[I]], %[[J]] {direction = #graph<compare_direction ge>}
  %0 = graph.compare %i, %j {direction = #graph<compare_direction lt>} : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi1>
  %1 = graph.not %0 : (tensor<4xi1>) -> tensor<4xi1>
  // Floats: not(x == y) is x != y, NaN included.
  // CHECK: %[[NE:.*]] = graph.compare %[[X]], %[[Y]] {direction = #graph<compare_direction ne>}
  %2 = graph.compare %x, %y {direction = #graph<compare_direction eq>} : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
  %3 = graph.not %2 : (tensor<4xi1>) -> tensor<4xi1>
  // ...but not(x < y) is not x >= y when one is NaN.
  // CHECK: %[[LT:.*]] = graph.compare %[[X]], %[[Y]] {direction = #graph<compare_direction lt>}
  // CHECK: %[[NOT:.*]] = graph.not %[[LT]]
  %4 = graph.compare %x, %y {direction = #graph<compare_direction lt>} : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
  %5 = graph.not %4 : (tensor<4xi1>) -> tensor<4xi1>
  // CHECK: return %[[GE]], %[[NE]], %[[NOT]]
  return %1, %3, %5 : tensor<4xi1>, tensor<4xi1>, tensor<4xi1>
}

// -----

// CHECK-LABEL: func @select_of_not
// CHECK-SAME: (%[[C:.*]]: tensor<4xi1>, %[[X:.*]]: tensor<4xf32>, %[[Y:.*]]: tensor<f32>)
func.func @select_of_not(%c: tensor<4xi1>, %x: tensor<4xf32>, %y: tensor<f32>) -> tensor<4xf32> {
  // CHECK-NOT: graph.not
  // CHECK: %[[S:.*]] = graph.select %[[C]], %[[Y]], %[[X]] : (tensor<4xi1>, tensor<f32>, tensor<4xf32>) -> tensor<4xf32>
  %n = graph.not %c : (tensor<4xi1>) -> tensor<4xi1>
  %0 = graph.select %n, %x, %y : (tensor<4xi1>, tensor<4xf32>, tensor<f32>) -> tensor<4xf32>
  // CHECK: return %[[S]]
  return %0 : tensor<4xf32>
}

// -----

// CHECK-LABEL: func @add_sub_of_neg
// CHECK-SAME: (%[[X:.*]]: tensor<4xf32>, %[[Y:.*]]: tensor<f32>)
func.func @add_sub_of_neg(%x: tensor<4xf32>, %y: tensor<f32>) -> (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) {
  %ny = graph.neg %y : (tensor<f32>) -> tensor<f32>
  %nx = graph.neg %x : (tensor<4xf32>) -> tensor<4xf32>
  // CHECK-NOT: graph.neg
  // CHECK: %[[A:.*]] = graph.sub %[[X]], %[[Y]] : (tensor<4xf32>, tensor<f32>) -> tensor<4xf32>
  %0 = graph.add %x, %ny : (tensor<4xf32>, tensor<f32>) -> tensor<4xf32>
  // CHECK: %[[B:.*]] = graph.sub %[[Y]], %[[X]] : (tensor<f32>, tensor<4xf32>) -> tensor<4xf32>
  %1 = graph.add %nx, %y : (tensor<4xf32>, tensor<f32>) -> tensor<4xf32>
  // CHECK: %[[C:.*]] = graph.add %[[X]], %[[Y]] : (tensor<4xf32>, tensor<f32>) -> tensor<4xf32>
  %2 = graph.sub %x, %ny : (tensor<4xf32>, tensor<f32>) -> tensor<4xf32>
  // CHECK: return %[[A]], %[[B]], %[[C]]
  return %0, %1, %2 : tensor<4xf32>, tensor<4xf32>, tensor<4xf32>
}

// -----

// CHECK-LABEL: func @cast_of_exact_cast
// CHECK-SAME: (%[[I:.*]]: tensor<4xi8>, %[[F:.*]]: tensor<4xf16>, %[[B:.*]]: tensor<4xi1>, %[[W:.*]]: tensor<4xi32>)
func.func @cast_of_exact_cast(%i: tensor<4xi8>, %f: tensor<4xf16>, %b: tensor<4xi1>, %w: tensor<4xi32>) -> (tensor<4xi16>, tensor<4xf16>, tensor<4xi32>, tensor<4xf64>, tensor<4xi32>, tensor<4xi8>) {
  // i8 -> i32 -> i16 is i8 -> i16.
  // CHECK: %[[A:.*]] = graph.cast %[[I]] {to = i16} : (tensor<4xi8>) -> tensor<4xi16>
  %0 = graph.cast %i {to = i32} : (tensor<4xi8>) -> tensor<4xi32>
  %1 = graph.cast %0 {to = i16} : (tensor<4xi32>) -> tensor<4xi16>
  // f16 -> f32 -> f16 is the identity.
  %2 = graph.cast %f {to = f32} : (tensor<4xf16>) -> tensor<4xf32>
  %3 = graph.cast %2 {to = f16} : (tensor<4xf32>) -> tensor<4xf16>
  // i1 -> i8 -> i32 is i1 -> i32.
  // CHECK: %[[C:.*]] = graph.cast %[[B]] {to = i32} : (tensor<4xi1>) -> tensor<4xi32>
  %4 = graph.cast %b {to = i8} : (tensor<4xi1>) -> tensor<4xi8>
  %5 = graph.cast %4 {to = i32} : (tensor<4xi8>) -> tensor<4xi32>
  // i8 -> f32 is exact (f32 has 24 bits of precision).
  // CHECK: %[[D:.*]] = graph.cast %[[I]] {to = f64} : (tensor<4xi8>) -> tensor<4xf64>
  %6 = graph.cast %i {to = f32} : (tensor<4xi8>) -> tensor<4xf32>
  %7 = graph.cast %6 {to = f64} : (tensor<4xf32>) -> tensor<4xf64>
  // i32 -> f32 rounds, so the chain stays.
  // CHECK: %[[E1:.*]] = graph.cast %[[W]] {to = f32} : (tensor<4xi32>) -> tensor<4xf32>
  // CHECK: %[[E:.*]] = graph.cast %[[E1]] {to = i32} : (tensor<4xf32>) -> tensor<4xi32>
  %8 = graph.cast %w {to = f32} : (tensor<4xi32>) -> tensor<4xf32>
  %9 = graph.cast %8 {to = i32} : (tensor<4xf32>) -> tensor<4xi32>
  // i32 -> i8 narrows and stays; the i8 -> i16 -> i8 that follows is exact
  // and disappears.
  // CHECK: %[[G1:.*]] = graph.cast %[[W]] {to = i8} : (tensor<4xi32>) -> tensor<4xi8>
  // CHECK-NOT: graph.cast
  %10 = graph.cast %w {to = i8} : (tensor<4xi32>) -> tensor<4xi8>
  %11 = graph.cast %10 {to = i16} : (tensor<4xi8>) -> tensor<4xi16>
  %12 = graph.cast %11 {to = i8} : (tensor<4xi16>) -> tensor<4xi8>
  // CHECK: return %[[A]], %[[F]], %[[C]], %[[D]], %[[E]], %[[G1]]
  return %1, %3, %5, %7, %9, %12 : tensor<4xi16>, tensor<4xf16>, tensor<4xi32>, tensor<4xf64>, tensor<4xi32>, tensor<4xi8>
}

// -----

// The outer cast's `saturate` survives folding an exact inner cast.
// CHECK-LABEL: func @cast_of_exact_cast_keeps_saturate
// CHECK-SAME: (%[[H:.*]]: tensor<4xf16>)
// CHECK: %[[A:.*]] = graph.cast %[[H]] {saturate = false, to = f8E4M3FN} : (tensor<4xf16>) -> tensor<4xf8E4M3FN>
// CHECK: return %[[A]]
func.func @cast_of_exact_cast_keeps_saturate(%h: tensor<4xf16>) -> tensor<4xf8E4M3FN> {
  %0 = graph.cast %h {to = f32} : (tensor<4xf16>) -> tensor<4xf32>
  %1 = graph.cast %0 {saturate = false, to = f8E4M3FN} : (tensor<4xf32>) -> tensor<4xf8E4M3FN>
  return %1 : tensor<4xf8E4M3FN>
}
