// RUN: graph-opt %s | graph-opt | FileCheck %s
// RUN: graph-opt %s --verify-roundtrip | FileCheck %s
// RUN: graph-opt %s --graph-print-cost -o /dev/null 2>&1 | FileCheck %s --check-prefix=COST

// Round trip of the ops in GraphExtraOps.td.

// CHECK-LABEL: func @math
func.func @math(%x: tensor<4xf32>, %d: tensor<?x2xf64>) {
  // CHECK: graph.tan %{{.*}} : (tensor<4xf32>) -> tensor<4xf32>
  %0 = graph.tan %x : (tensor<4xf32>) -> tensor<4xf32>
  // CHECK: graph.asin %{{.*}} : (tensor<4xf32>) -> tensor<4xf32>
  %1 = graph.asin %x : (tensor<4xf32>) -> tensor<4xf32>
  // CHECK: graph.acos %{{.*}} : (tensor<4xf32>) -> tensor<4xf32>
  %2 = graph.acos %x : (tensor<4xf32>) -> tensor<4xf32>
  // CHECK: graph.atan %{{.*}} : (tensor<?x2xf64>) -> tensor<?x2xf64>
  %3 = graph.atan %d : (tensor<?x2xf64>) -> tensor<?x2xf64>
  // CHECK: graph.sinh %{{.*}} : (tensor<4xf32>) -> tensor<4xf32>
  %4 = graph.sinh %x : (tensor<4xf32>) -> tensor<4xf32>
  // CHECK: graph.cosh %{{.*}} : (tensor<4xf32>) -> tensor<4xf32>
  %5 = graph.cosh %x : (tensor<4xf32>) -> tensor<4xf32>
  // CHECK: graph.asinh %{{.*}} : (tensor<4xf32>) -> tensor<4xf32>
  %6 = graph.asinh %x : (tensor<4xf32>) -> tensor<4xf32>
  // CHECK: graph.acosh %{{.*}} : (tensor<4xf32>) -> tensor<4xf32>
  %7 = graph.acosh %x : (tensor<4xf32>) -> tensor<4xf32>
  // CHECK: graph.atanh %{{.*}} : (tensor<4xf32>) -> tensor<4xf32>
  %8 = graph.atanh %x : (tensor<4xf32>) -> tensor<4xf32>
  return
}

// CHECK-LABEL: func @bitwise
func.func @bitwise(%a: tensor<2x3xi32>, %b: tensor<3xi32>, %c: tensor<4xi8>) {
  // CHECK: graph.bitwise_and %{{.*}}, %{{.*}} : (tensor<2x3xi32>, tensor<3xi32>) -> tensor<2x3xi32>
  %0 = graph.bitwise_and %a, %b : (tensor<2x3xi32>, tensor<3xi32>) -> tensor<2x3xi32>
  // CHECK: graph.bitwise_or %{{.*}}, %{{.*}} : (tensor<2x3xi32>, tensor<3xi32>) -> tensor<2x3xi32>
  %1 = graph.bitwise_or %a, %b : (tensor<2x3xi32>, tensor<3xi32>) -> tensor<2x3xi32>
  // CHECK: graph.bitwise_xor %{{.*}}, %{{.*}} : (tensor<2x3xi32>, tensor<3xi32>) -> tensor<2x3xi32>
  %2 = graph.bitwise_xor %a, %b : (tensor<2x3xi32>, tensor<3xi32>) -> tensor<2x3xi32>
  // CHECK: graph.bitwise_not %{{.*}} : (tensor<4xi8>) -> tensor<4xi8>
  %3 = graph.bitwise_not %c : (tensor<4xi8>) -> tensor<4xi8>
  return
}

// CHECK-LABEL: func @gather_elements
func.func @gather_elements(%x: tensor<3x5xf32>, %i: tensor<3x2xi64>, %j: tensor<2x5xi32>) {
  // CHECK: graph.gather_elements %{{.*}}, %{{.*}} {axis = 1 : i64} : (tensor<3x5xf32>, tensor<3x2xi64>) -> tensor<3x2xf32>
  // 6 f32 gathered (read and written) and 6 i64 indices.
  // COST: :[[@LINE+1]]:{{.*}} remark: flops = 0, bytes = 96{{$}}
  %0 = graph.gather_elements %x, %i {axis = 1 : i64} : (tensor<3x5xf32>, tensor<3x2xi64>) -> tensor<3x2xf32>
  // CHECK: graph.gather_elements %{{.*}}, %{{.*}} {axis = -2 : i64} : (tensor<3x5xf32>, tensor<2x5xi32>) -> tensor<2x5xf32>
  %1 = graph.gather_elements %x, %j {axis = -2 : i64} : (tensor<3x5xf32>, tensor<2x5xi32>) -> tensor<2x5xf32>
  return
}

// CHECK-LABEL: func @cumulative
func.func @cumulative(%x: tensor<2x5xf32>, %i: tensor<?xi64>) {
  // CHECK: graph.cumulative %{{.*}} {axis = 1 : i64, exclusive, kind = #graph<reduce_kind sum>} : (tensor<2x5xf32>) -> tensor<2x5xf32>
  // COST: :[[@LINE+1]]:{{.*}} remark: flops = 10, bytes = 80{{$}}
  %0 = graph.cumulative %x {axis = 1 : i64, kind = #graph<reduce_kind sum>, exclusive} : (tensor<2x5xf32>) -> tensor<2x5xf32>
  // CHECK: graph.cumulative %{{.*}} {axis = 0 : i64, kind = #graph<reduce_kind prod>, reverse} : (tensor<?xi64>) -> tensor<?xi64>
  %1 = graph.cumulative %i {axis = 0 : i64, kind = #graph<reduce_kind prod>, reverse} : (tensor<?xi64>) -> tensor<?xi64>
  // CHECK: graph.cumulative %{{.*}} {axis = -1 : i64, kind = #graph<reduce_kind max>} : (tensor<2x5xf32>) -> tensor<2x5xf32>
  %2 = graph.cumulative %x {axis = -1 : i64, kind = #graph<reduce_kind max>} : (tensor<2x5xf32>) -> tensor<2x5xf32>
  return
}

// CHECK-LABEL: func @top_k
func.func @top_k(%x: tensor<3x4xf32>, %d: tensor<?x4xi32>) {
  // CHECK: graph.top_k %{{.*}} {axis = 1 : i64, k = 3 : i64} : (tensor<3x4xf32>) -> (tensor<3x3xf32>, tensor<3x3xi64>)
  // COST: :[[@LINE+1]]:{{.*}} remark: flops = 36, bytes = {{[0-9]+}}{{$}}
  %0:2 = graph.top_k %x {axis = 1 : i64, k = 3 : i64} : (tensor<3x4xf32>) -> (tensor<3x3xf32>, tensor<3x3xi64>)
  // CHECK: graph.top_k %{{.*}} {axis = 0 : i64, k = 0 : i64, smallest} : (tensor<?x4xi32>) -> (tensor<0x4xi32>, tensor<0x4xi64>)
  %1:2 = graph.top_k %d {axis = 0 : i64, k = 0 : i64, smallest} : (tensor<?x4xi32>) -> (tensor<0x4xi32>, tensor<0x4xi64>)
  return
}
