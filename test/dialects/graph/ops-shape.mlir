// RUN: graph-opt %s | graph-opt | FileCheck %s
// RUN: graph-opt %s --verify-roundtrip | FileCheck %s
// RUN: graph-opt %s --graph-print-cost -o /dev/null 2>&1 | FileCheck %s --check-prefix=COST

// Round trip of every data-movement op, with static, dynamic and unranked
// operands where the op accepts them.

// CHECK-LABEL: func @reshape
func.func @reshape(%x: tensor<2x3x4xf32>, %d: tensor<?x4xf32>, %u: tensor<*xf32>, %e: tensor<0x3xf32>) {
  // CHECK: graph.reshape %{{.*}} {shape = array<i64: 2, -1>} : (tensor<2x3x4xf32>) -> tensor<2x12xf32>
  // No arithmetic; 24 f32 read and written.
  // COST: :[[@LINE+1]]:{{.*}} remark: flops = 0, bytes = 192{{$}}
  %0 = graph.reshape %x {shape = array<i64: 2, -1>} : (tensor<2x3x4xf32>) -> tensor<2x12xf32>
  // CHECK: graph.reshape %{{.*}} {shape = array<i64: -1, 2, 2>} : (tensor<?x4xf32>) -> tensor<?x2x2xf32>
  %1 = graph.reshape %d {shape = array<i64: -1, 2, 2>} : (tensor<?x4xf32>) -> tensor<?x2x2xf32>
  // CHECK: graph.reshape %{{.*}} {shape = array<i64: 6>} : (tensor<*xf32>) -> tensor<6xf32>
  %2 = graph.reshape %u {shape = array<i64: 6>} : (tensor<*xf32>) -> tensor<6xf32>
  // CHECK: graph.reshape %{{.*}} {shape = array<i64: 5, 0>} : (tensor<0x3xf32>) -> tensor<5x0xf32>
  %3 = graph.reshape %e {shape = array<i64: 5, 0>} : (tensor<0x3xf32>) -> tensor<5x0xf32>
  // CHECK: graph.reshape %{{.*}} {shape = array<i64>} : (tensor<?x4xf32>) -> tensor<f32>
  %4 = graph.reshape %d {shape = array<i64>} : (tensor<?x4xf32>) -> tensor<f32>
  return
}

// CHECK-LABEL: func @dynamic_reshape
func.func @dynamic_reshape(%x: tensor<?xf32>, %u: tensor<*xi32>, %s: tensor<2xi64>, %t: tensor<?xi64>) {
  // CHECK: graph.dynamic_reshape %{{.*}}, %{{.*}} : (tensor<?xf32>, tensor<2xi64>) -> tensor<?x16xf32>
  %0 = graph.dynamic_reshape %x, %s : (tensor<?xf32>, tensor<2xi64>) -> tensor<?x16xf32>
  // CHECK: graph.dynamic_reshape %{{.*}}, %{{.*}} : (tensor<*xi32>, tensor<?xi64>) -> tensor<*xi32>
  %1 = graph.dynamic_reshape %u, %t : (tensor<*xi32>, tensor<?xi64>) -> tensor<*xi32>
  return
}

// CHECK-LABEL: func @transpose
func.func @transpose(%x: tensor<8x3x32x?xf32>, %u: tensor<*xf16>) {
  // CHECK: graph.transpose %{{.*}} {perm = array<i64: 0, 2, 3, 1>} : (tensor<8x3x32x?xf32>) -> tensor<8x32x?x3xf32>
  %0 = graph.transpose %x {perm = array<i64: 0, 2, 3, 1>} : (tensor<8x3x32x?xf32>) -> tensor<8x32x?x3xf32>
  // CHECK: graph.transpose %{{.*}} {perm = array<i64: 1, 0>} : (tensor<*xf16>) -> tensor<*xf16>
  %1 = graph.transpose %u {perm = array<i64: 1, 0>} : (tensor<*xf16>) -> tensor<*xf16>
  return
}

// CHECK-LABEL: func @concat
func.func @concat(%a: tensor<2x3xf32>, %b: tensor<2x5xf32>, %d: tensor<?x?xf32>, %u: tensor<*xf32>) {
  // CHECK: graph.concat %{{.*}}, %{{.*}} {axis = 1 : i64} : (tensor<2x3xf32>, tensor<2x5xf32>) -> tensor<2x8xf32>
  %0 = graph.concat %a, %b {axis = 1 : i64} : (tensor<2x3xf32>, tensor<2x5xf32>) -> tensor<2x8xf32>
  // CHECK: graph.concat %{{.*}}, %{{.*}}, %{{.*}} {axis = -2 : i64} : (tensor<2x3xf32>, tensor<?x?xf32>, tensor<*xf32>) -> tensor<?x3xf32>
  %1 = graph.concat %a, %d, %u {axis = -2 : i64} : (tensor<2x3xf32>, tensor<?x?xf32>, tensor<*xf32>) -> tensor<?x3xf32>
  // CHECK: graph.concat %{{.*}} {axis = 0 : i64} : (tensor<*xf32>) -> tensor<*xf32>
  %2 = graph.concat %u {axis = 0 : i64} : (tensor<*xf32>) -> tensor<*xf32>
  return
}

// CHECK-LABEL: func @split
func.func @split(%x: tensor<2x8xf32>, %d: tensor<2x?xf32>, %u: tensor<*xf32>) {
  // CHECK: graph.split %{{.*}} {axis = 1 : i64, sizes = array<i64: 3, -1>} : (tensor<2x8xf32>) -> (tensor<2x3xf32>, tensor<2x5xf32>)
  %0:2 = graph.split %x {axis = 1 : i64, sizes = array<i64: 3, -1>} : (tensor<2x8xf32>) -> (tensor<2x3xf32>, tensor<2x5xf32>)
  // CHECK: graph.split %{{.*}} {axis = -1 : i64, sizes = array<i64: 4, -1, 0>} : (tensor<2x?xf32>) -> (tensor<2x4xf32>, tensor<2x?xf32>, tensor<2x0xf32>)
  %1:3 = graph.split %d {axis = -1 : i64, sizes = array<i64: 4, -1, 0>} : (tensor<2x?xf32>) -> (tensor<2x4xf32>, tensor<2x?xf32>, tensor<2x0xf32>)
  // CHECK: graph.split %{{.*}} {axis = 0 : i64, sizes = array<i64: 1, 1>} : (tensor<*xf32>) -> (tensor<*xf32>, tensor<*xf32>)
  %2:2 = graph.split %u {axis = 0 : i64, sizes = array<i64: 1, 1>} : (tensor<*xf32>) -> (tensor<*xf32>, tensor<*xf32>)
  return
}

// CHECK-LABEL: func @slice
func.func @slice(%x: tensor<5x3xf32>, %d: tensor<?x?xf32>, %u: tensor<*xf32>) {
  // x[1:4:2, ::-1]
  // CHECK: graph.slice %{{.*}} {limits = array<i64: 4, -1>, starts = array<i64: 1, 2>, strides = array<i64: 2, -1>} : (tensor<5x3xf32>) -> tensor<2x3xf32>
  %0 = graph.slice %x {starts = array<i64: 1, 2>, limits = array<i64: 4, -1>, strides = array<i64: 2, -1>} : (tensor<5x3xf32>) -> tensor<2x3xf32>
  // An empty slice: limit before start.
  // CHECK: graph.slice %{{.*}} {limits = array<i64: 1, 3>, starts = array<i64: 3, 0>, strides = array<i64: 1, 1>} : (tensor<5x3xf32>) -> tensor<0x3xf32>
  %1 = graph.slice %x {starts = array<i64: 3, 0>, limits = array<i64: 1, 3>, strides = array<i64: 1, 1>} : (tensor<5x3xf32>) -> tensor<0x3xf32>
  // CHECK: graph.slice %{{.*}} {limits = array<i64: 100, 0>, starts = array<i64: 10, 7>, strides = array<i64: 30, -3>} : (tensor<?x?xf32>) -> tensor<3x3xf32>
  // Only the 3x3 f32 window is read, so the cost is known for a dynamic input.
  // COST: :[[@LINE+1]]:{{.*}} remark: flops = 0, bytes = 72{{$}}
  %2 = graph.slice %d {starts = array<i64: 10, 7>, limits = array<i64: 100, 0>, strides = array<i64: 30, -3>} : (tensor<?x?xf32>) -> tensor<3x3xf32>
  // CHECK: graph.slice %{{.*}} {limits = array<i64: 4>, starts = array<i64: 0>, strides = array<i64: 1>} : (tensor<*xf32>) -> tensor<4xf32>
  %3 = graph.slice %u {starts = array<i64: 0>, limits = array<i64: 4>, strides = array<i64: 1>} : (tensor<*xf32>) -> tensor<4xf32>
  return
}

// CHECK-LABEL: func @gather
func.func @gather(%t: tensor<1000x64xf32>, %i: tensor<8x16xi64>, %b: tensor<4x5x6xf32>, %bi: tensor<4x3xi32>, %u: tensor<*xf32>) {
  // CHECK: graph.gather %{{.*}}, %{{.*}} : (tensor<1000x64xf32>, tensor<8x16xi64>) -> tensor<8x16x64xf32>
  // Gathered 8x16x64 f32 read and written, plus 8x16 i64 indices; not the table.
  // COST: :[[@LINE+1]]:{{.*}} remark: flops = 0, bytes = 66560{{$}}
  %0 = graph.gather %t, %i : (tensor<1000x64xf32>, tensor<8x16xi64>) -> tensor<8x16x64xf32>
  // CHECK: graph.gather %{{.*}}, %{{.*}} {axis = -1 : i64} : (tensor<1000x64xf32>, tensor<8x16xi64>) -> tensor<1000x8x16xf32>
  %1 = graph.gather %t, %i {axis = -1 : i64} : (tensor<1000x64xf32>, tensor<8x16xi64>) -> tensor<1000x8x16xf32>
  // CHECK: graph.gather %{{.*}}, %{{.*}} {axis = 1 : i64, batch_dims = 1 : i64} : (tensor<4x5x6xf32>, tensor<4x3xi32>) -> tensor<4x3x6xf32>
  %2 = graph.gather %b, %bi {axis = 1 : i64, batch_dims = 1 : i64} : (tensor<4x5x6xf32>, tensor<4x3xi32>) -> tensor<4x3x6xf32>
  // CHECK: graph.gather %{{.*}}, %{{.*}} : (tensor<*xf32>, tensor<8x16xi64>) -> tensor<*xf32>
  %3 = graph.gather %u, %i : (tensor<*xf32>, tensor<8x16xi64>) -> tensor<*xf32>
  return
}

// CHECK-LABEL: func @gather_nd
func.func @gather_nd(%x: tensor<4x5x6xf32>, %i: tensor<3x2xi64>, %bi: tensor<4x1xi64>, %di: tensor<3x?xi64>) {
  // CHECK: graph.gather_nd %{{.*}}, %{{.*}} : (tensor<4x5x6xf32>, tensor<3x2xi64>) -> tensor<3x6xf32>
  %0 = graph.gather_nd %x, %i : (tensor<4x5x6xf32>, tensor<3x2xi64>) -> tensor<3x6xf32>
  // CHECK: graph.gather_nd %{{.*}}, %{{.*}} {batch_dims = 1 : i64} : (tensor<4x5x6xf32>, tensor<4x1xi64>) -> tensor<4x6xf32>
  %1 = graph.gather_nd %x, %bi {batch_dims = 1 : i64} : (tensor<4x5x6xf32>, tensor<4x1xi64>) -> tensor<4x6xf32>
  // An unknown index depth leaves the rank unknown.
  // CHECK: graph.gather_nd %{{.*}}, %{{.*}} : (tensor<4x5x6xf32>, tensor<3x?xi64>) -> tensor<*xf32>
  %2 = graph.gather_nd %x, %di : (tensor<4x5x6xf32>, tensor<3x?xi64>) -> tensor<*xf32>
  return
}

// CHECK-LABEL: func @scatter
func.func @scatter(%x: tensor<3x5xf32>, %i: tensor<3x2xi64>, %v: tensor<3x2xf32>, %ni: tensor<2x1xi32>, %nv: tensor<2x5xf32>, %v2: tensor<3xf32>, %u: tensor<*xf32>) {
  // CHECK: graph.scatter_elements %{{.*}}, %{{.*}}, %{{.*}} {axis = 1 : i64, reduction = #graph<scatter_reduction add>} : (tensor<3x5xf32>, tensor<3x2xi64>, tensor<3x2xf32>) -> tensor<3x5xf32>
  %0 = graph.scatter_elements %x, %i, %v {axis = 1 : i64, reduction = #graph<scatter_reduction add>} : (tensor<3x5xf32>, tensor<3x2xi64>, tensor<3x2xf32>) -> tensor<3x5xf32>
  // CHECK: graph.scatter_elements %{{.*}}, %{{.*}}, %{{.*}} : (tensor<*xf32>, tensor<3x2xi64>, tensor<3x2xf32>) -> tensor<*xf32>
  %1 = graph.scatter_elements %u, %i, %v : (tensor<*xf32>, tensor<3x2xi64>, tensor<3x2xf32>) -> tensor<*xf32>
  // CHECK: graph.scatter_nd %{{.*}}, %{{.*}}, %{{.*}} : (tensor<3x5xf32>, tensor<2x1xi32>, tensor<2x5xf32>) -> tensor<3x5xf32>
  %2 = graph.scatter_nd %x, %ni, %nv : (tensor<3x5xf32>, tensor<2x1xi32>, tensor<2x5xf32>) -> tensor<3x5xf32>
  // CHECK: graph.scatter_nd %{{.*}}, %{{.*}}, %{{.*}} {reduction = #graph<scatter_reduction max>} : (tensor<3x5xf32>, tensor<3x2xi64>, tensor<3xf32>) -> tensor<3x5xf32>
  %3 = graph.scatter_nd %x, %i, %v2 {reduction = #graph<scatter_reduction max>} : (tensor<3x5xf32>, tensor<3x2xi64>, tensor<3xf32>) -> tensor<3x5xf32>
  return
}

// CHECK-LABEL: func @pad
func.func @pad(%x: tensor<2x3xf32>, %d: tensor<?x3xi8>, %u: tensor<*xf32>, %z: tensor<f32>, %zi: tensor<i8>) {
  // CHECK: graph.pad %{{.*}}, %{{.*}} {high = array<i64: 0, 2>, low = array<i64: 0, 1>} : (tensor<2x3xf32>, tensor<f32>) -> tensor<2x6xf32>
  %0 = graph.pad %x, %z {low = array<i64: 0, 1>, high = array<i64: 0, 2>} : (tensor<2x3xf32>, tensor<f32>) -> tensor<2x6xf32>
  // CHECK: graph.pad %{{.*}}, %{{.*}} {high = array<i64: 1, 2>, low = array<i64: 1, 2>, mode = #graph<pad_mode reflect>} : (tensor<?x3xi8>, tensor<i8>) -> tensor<?x7xi8>
  %1 = graph.pad %d, %zi {low = array<i64: 1, 2>, high = array<i64: 1, 2>, mode = #graph<pad_mode reflect>} : (tensor<?x3xi8>, tensor<i8>) -> tensor<?x7xi8>
  // CHECK: graph.pad %{{.*}}, %{{.*}} {high = array<i64: 3>, low = array<i64: 4>, mode = #graph<pad_mode edge>} : (tensor<*xf32>, tensor<f32>) -> tensor<*xf32>
  %2 = graph.pad %u, %z {low = array<i64: 4>, high = array<i64: 3>, mode = #graph<pad_mode edge>} : (tensor<*xf32>, tensor<f32>) -> tensor<*xf32>
  return
}

// CHECK-LABEL: func @broadcast_to
func.func @broadcast_to(%b: tensor<10xf32>, %d: tensor<?x1xf32>, %u: tensor<*xf32>) {
  // CHECK: graph.broadcast_to %{{.*}} {shape = array<i64: 8, 10>} : (tensor<10xf32>) -> tensor<8x10xf32>
  %0 = graph.broadcast_to %b {shape = array<i64: 8, 10>} : (tensor<10xf32>) -> tensor<8x10xf32>
  // CHECK: graph.broadcast_to %{{.*}} {shape = array<i64: 4, 5>} : (tensor<?x1xf32>) -> tensor<4x5xf32>
  %1 = graph.broadcast_to %d {shape = array<i64: 4, 5>} : (tensor<?x1xf32>) -> tensor<4x5xf32>
  // CHECK: graph.broadcast_to %{{.*}} {shape = array<i64: 2, 0>} : (tensor<*xf32>) -> tensor<2x0xf32>
  %2 = graph.broadcast_to %u {shape = array<i64: 2, 0>} : (tensor<*xf32>) -> tensor<2x0xf32>
  return
}

// CHECK-LABEL: func @squeeze
func.func @squeeze(%x: tensor<1x3x1xf32>, %d: tensor<?x3xf32>, %u: tensor<*xf32>) {
  // CHECK: graph.squeeze %{{.*}} {axes = array<i64: 0, -1>} : (tensor<1x3x1xf32>) -> tensor<3xf32>
  %0 = graph.squeeze %x {axes = array<i64: 0, -1>} : (tensor<1x3x1xf32>) -> tensor<3xf32>
  // A dynamic dimension must be 1 at run time.
  // CHECK: graph.squeeze %{{.*}} {axes = array<i64: 0>} : (tensor<?x3xf32>) -> tensor<3xf32>
  %1 = graph.squeeze %d {axes = array<i64: 0>} : (tensor<?x3xf32>) -> tensor<3xf32>
  // CHECK: graph.squeeze %{{.*}} {axes = array<i64: 0>} : (tensor<*xf32>) -> tensor<*xf32>
  %2 = graph.squeeze %u {axes = array<i64: 0>} : (tensor<*xf32>) -> tensor<*xf32>
  return
}

// CHECK-LABEL: func @unsqueeze
func.func @unsqueeze(%x: tensor<3xf32>, %d: tensor<?x4xf32>, %u: tensor<*xf32>) {
  // CHECK: graph.unsqueeze %{{.*}} {axes = array<i64: 0, -1>} : (tensor<3xf32>) -> tensor<1x3x1xf32>
  %0 = graph.unsqueeze %x {axes = array<i64: 0, -1>} : (tensor<3xf32>) -> tensor<1x3x1xf32>
  // CHECK: graph.unsqueeze %{{.*}} {axes = array<i64: 3, 1>} : (tensor<?x4xf32>) -> tensor<?x1x4x1xf32>
  %1 = graph.unsqueeze %d {axes = array<i64: 3, 1>} : (tensor<?x4xf32>) -> tensor<?x1x4x1xf32>
  // CHECK: graph.unsqueeze %{{.*}} {axes = array<i64: 0>} : (tensor<*xf32>) -> tensor<*xf32>
  %2 = graph.unsqueeze %u {axes = array<i64: 0>} : (tensor<*xf32>) -> tensor<*xf32>
  return
}

// CHECK-LABEL: func @tile
func.func @tile(%x: tensor<3x4xf32>, %d: tensor<?x?xf32>, %u: tensor<*xf32>) {
  // CHECK: graph.tile %{{.*}} {multiples = array<i64: 2, 1>} : (tensor<3x4xf32>) -> tensor<6x4xf32>
  %0 = graph.tile %x {multiples = array<i64: 2, 1>} : (tensor<3x4xf32>) -> tensor<6x4xf32>
  // Zero repeats give an empty dimension even when its size is unknown.
  // CHECK: graph.tile %{{.*}} {multiples = array<i64: 3, 0>} : (tensor<?x?xf32>) -> tensor<?x0xf32>
  %1 = graph.tile %d {multiples = array<i64: 3, 0>} : (tensor<?x?xf32>) -> tensor<?x0xf32>
  // CHECK: graph.tile %{{.*}} {multiples = array<i64: 2>} : (tensor<*xf32>) -> tensor<*xf32>
  %2 = graph.tile %u {multiples = array<i64: 2>} : (tensor<*xf32>) -> tensor<*xf32>
  return
}

// CHECK-LABEL: func @one_hot
func.func @one_hot(%l: tensor<8xi64>, %l2: tensor<?x5xi32>, %lu: tensor<*xi64>, %on: tensor<f32>, %off: tensor<f32>) {
  // CHECK: graph.one_hot %{{.*}}, %{{.*}}, %{{.*}} {depth = 10 : i64} : (tensor<8xi64>, tensor<f32>, tensor<f32>) -> tensor<8x10xf32>
  %0 = graph.one_hot %l, %on, %off {depth = 10 : i64} : (tensor<8xi64>, tensor<f32>, tensor<f32>) -> tensor<8x10xf32>
  // CHECK: graph.one_hot %{{.*}}, %{{.*}}, %{{.*}} {axis = 1 : i64, depth = 3 : i64} : (tensor<?x5xi32>, tensor<f32>, tensor<f32>) -> tensor<?x3x5xf32>
  %1 = graph.one_hot %l2, %on, %off {axis = 1 : i64, depth = 3 : i64} : (tensor<?x5xi32>, tensor<f32>, tensor<f32>) -> tensor<?x3x5xf32>
  // CHECK: graph.one_hot %{{.*}}, %{{.*}}, %{{.*}} {axis = 0 : i64, depth = 3 : i64} : (tensor<*xi64>, tensor<f32>, tensor<f32>) -> tensor<*xf32>
  %2 = graph.one_hot %lu, %on, %off {axis = 0 : i64, depth = 3 : i64} : (tensor<*xi64>, tensor<f32>, tensor<f32>) -> tensor<*xf32>
  return
}

// CHECK-LABEL: func @shape
func.func @shape(%x: tensor<?x16xf32>, %s: tensor<f32>) {
  // CHECK: graph.shape %{{.*}} : (tensor<?x16xf32>) -> tensor<2xi64>
  // Only the 2 x i64 result is written.
  // COST: :[[@LINE+1]]:{{.*}} remark: flops = 0, bytes = 16{{$}}
  %0 = graph.shape %x : (tensor<?x16xf32>) -> tensor<2xi64>
  // CHECK: graph.shape %{{.*}} : (tensor<f32>) -> tensor<0xi64>
  %1 = graph.shape %s : (tensor<f32>) -> tensor<0xi64>
  return
}

// Declared result types may be less refined than the inferred ones.
// CHECK-LABEL: func @less_refined
func.func @less_refined(%x: tensor<2x3x4xf32>) {
  // CHECK: graph.reshape %{{.*}} {shape = array<i64: 6, 4>} : (tensor<2x3x4xf32>) -> tensor<?x?xf32>
  %0 = graph.reshape %x {shape = array<i64: 6, 4>} : (tensor<2x3x4xf32>) -> tensor<?x?xf32>
  // CHECK: graph.transpose %{{.*}} {perm = array<i64: 2, 1, 0>} : (tensor<2x3x4xf32>) -> tensor<*xf32>
  %1 = graph.transpose %x {perm = array<i64: 2, 1, 0>} : (tensor<2x3x4xf32>) -> tensor<*xf32>
  return
}
