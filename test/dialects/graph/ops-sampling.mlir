// RUN: graph-opt %s | graph-opt | FileCheck %s
// RUN: graph-opt %s --verify-roundtrip | FileCheck %s
// RUN: graph-opt %s --graph-print-cost -o /dev/null 2>&1 | FileCheck %s --check-prefix=COST

// Round trip of the ops in GraphSamplingOps.td.

// CHECK-LABEL: func @grid_sample
func.func @grid_sample(%x: tensor<1x3x8x8xf32>, %g: tensor<1x4x5x2xf32>,
                       %v: tensor<2x1x3x4x5xf64>, %h: tensor<2x6x7x8x3xf64>,
                       %u: tensor<*xf32>) {
  // 60 results, each 4 weighted reads and 2 coordinates.
  // CHECK: graph.grid_sample %{{.*}}, %{{.*}} : (tensor<1x3x8x8xf32>, tensor<1x4x5x2xf32>) -> tensor<1x3x4x5xf32>
  // COST: :[[@LINE+1]]:{{.*}} remark: flops = 1680, bytes = {{[0-9]+}}{{$}}
  %0 = graph.grid_sample %x, %g : (tensor<1x3x8x8xf32>, tensor<1x4x5x2xf32>) -> tensor<1x3x4x5xf32>
  // CHECK: graph.grid_sample %{{.*}}, %{{.*}} {align_corners, mode = #graph<sample_mode nearest>, padding = #graph<sample_padding border>}
  %1 = graph.grid_sample %x, %g {mode = #graph<sample_mode nearest>, padding = #graph<sample_padding border>, align_corners} : (tensor<1x3x8x8xf32>, tensor<1x4x5x2xf32>) -> tensor<1x3x4x5xf32>
  // CHECK: graph.grid_sample %{{.*}}, %{{.*}} {mode = #graph<sample_mode cubic>, padding = #graph<sample_padding reflection>} : (tensor<2x1x3x4x5xf64>, tensor<2x6x7x8x3xf64>) -> tensor<2x1x6x7x8xf64>
  %2 = graph.grid_sample %v, %h {mode = #graph<sample_mode cubic>, padding = #graph<sample_padding reflection>} : (tensor<2x1x3x4x5xf64>, tensor<2x6x7x8x3xf64>) -> tensor<2x1x6x7x8xf64>
  // An unranked grid gives an unranked result.
  // CHECK: graph.grid_sample %{{.*}}, %{{.*}} : (tensor<1x3x8x8xf32>, tensor<*xf32>) -> tensor<*xf32>
  %3 = graph.grid_sample %x, %u : (tensor<1x3x8x8xf32>, tensor<*xf32>) -> tensor<*xf32>
  return
}

// CHECK-LABEL: func @col2im
func.func @col2im(%x: tensor<1x5x5xf32>, %y: tensor<2x8x18xi32>, %d: tensor<?x?x?xf32>) {
  // CHECK: graph.col2im %{{.*}} {block_shape = array<i64: 1, 5>, image_shape = array<i64: 5, 5>} : (tensor<1x5x5xf32>) -> tensor<1x1x5x5xf32>
  // COST: :[[@LINE+1]]:{{.*}} remark: flops = 25, bytes = {{[0-9]+}}{{$}}
  %0 = graph.col2im %x {image_shape = array<i64: 5, 5>, block_shape = array<i64: 1, 5>} : (tensor<1x5x5xf32>) -> tensor<1x1x5x5xf32>
  // 2 channels of 2x2 blocks at (6 + 1 + 1 - 3) / 1 + 1 = 6 by
  // (4 - 2) / 1 + 1 = 3 positions.
  // CHECK: graph.col2im %{{.*}} {block_shape = array<i64: 2, 2>, dilations = array<i64: 2, 1>, image_shape = array<i64: 6, 4>, pads = array<i64: 1, 0, 1, 0>, strides = array<i64: 1, 1>} : (tensor<2x8x18xi32>) -> tensor<2x2x6x4xi32>
  %1 = graph.col2im %y {image_shape = array<i64: 6, 4>, block_shape = array<i64: 2, 2>, dilations = array<i64: 2, 1>, pads = array<i64: 1, 0, 1, 0>, strides = array<i64: 1, 1>} : (tensor<2x8x18xi32>) -> tensor<2x2x6x4xi32>
  // CHECK: graph.col2im %{{.*}} {block_shape = array<i64: 3>, image_shape = array<i64: 7>} : (tensor<?x?x?xf32>) -> tensor<?x?x7xf32>
  %2 = graph.col2im %d {image_shape = array<i64: 7>, block_shape = array<i64: 3>} : (tensor<?x?x?xf32>) -> tensor<?x?x7xf32>
  return
}

// CHECK-LABEL: func @bits
func.func @bits(%a: tensor<4xui8>, %n: tensor<ui8>, %f: tensor<2x3xf32>, %b: tensor<4xi1>) {
  // CHECK: graph.shift_left %{{.*}}, %{{.*}} : (tensor<4xui8>, tensor<ui8>) -> tensor<4xui8>
  %0 = graph.shift_left %a, %n : (tensor<4xui8>, tensor<ui8>) -> tensor<4xui8>
  // CHECK: graph.shift_right %{{.*}}, %{{.*}} : (tensor<4xui8>, tensor<4xui8>) -> tensor<4xui8>
  %1 = graph.shift_right %a, %a : (tensor<4xui8>, tensor<4xui8>) -> tensor<4xui8>
  // CHECK: graph.bitcast %{{.*}} {to = i32} : (tensor<2x3xf32>) -> tensor<2x3xi32>
  // COST: :[[@LINE+1]]:{{.*}} remark: flops = 0, bytes = 48{{$}}
  %2 = graph.bitcast %f {to = i32} : (tensor<2x3xf32>) -> tensor<2x3xi32>
  // CHECK: graph.bitcast %{{.*}} {to = ui8} : (tensor<4xi1>) -> tensor<4xui8>
  %3 = graph.bitcast %b {to = ui8} : (tensor<4xi1>) -> tensor<4xui8>
  return
}
