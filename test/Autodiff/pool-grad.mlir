// RUN: graph-opt %s --graph-autodiff=wrt=arguments --split-input-file | FileCheck %s

// Max pooling's adjoint is a scatter: the first maximum of each window (its
// row-major tap) gives the input cell that gets the window's gradient,
// flat over the spatial dimensions: per tap, the sum of a table per
// dimension over its output positions (position times the dimension's
// stride in x, -2^29 in the padding, so a cell with any coordinate there is
// negative), -1 where no tap matches; scatter_elements adds each window's
// gradient into zeros there: one visit per window. No tensor of taps times
// the windows' size, and no tensor of the padded input's size per tap.

// CHECK-LABEL: func.func @max_pool
// CHECK: %[[XP:.*]] = graph.pad %{{.*}}, %{{.*}} {{{.*}}high = array<i64: 0, 0, 1, 1>, low = array<i64: 0, 0, 1, 1>} : (tensor<2x3x8x8xf32>, tensor<f32>) -> tensor<2x3x10x10xf32>
// CHECK: %[[NONE:.*]] = graph.constant dense<-1> : tensor<i32>
// The last tap first: tap 8 starts at (2, 2), input rows 1, 3, 5, 7 (times
// 8) and columns 1, 3, 5, 7.
// CHECK: %[[R8:.*]] = graph.constant dense<{{\[}}[8], [24], [40], [56]]> : tensor<4x1xi32>
// CHECK: %[[W8:.*]] = graph.constant dense<{{\[}}[1, 3, 5, 7]]> : tensor<1x4xi32>
// CHECK: %[[C8:.*]] = graph.add %[[R8]], %[[W8]] {{.*}} -> tensor<4x4xi32>
// CHECK: %[[S8:.*]] = graph.slice %[[XP]] {{{.*}}limits = array<i64: 2, 3, 9, 9>, starts = array<i64: 0, 0, 2, 2>, strides = array<i64: 1, 1, 2, 2>}
// CHECK: %[[H8:.*]] = graph.compare %[[S8]], %[[Y:[^ ]*]] {direction = #graph<compare_direction eq>{{.*}}
// CHECK: %[[F8:.*]] = graph.select %[[H8]], %[[C8]], %[[NONE]] {{.*}}: (tensor<2x3x4x4xi1>, tensor<4x4xi32>, tensor<i32>) -> tensor<2x3x4x4xi32>
// CHECK-COUNT-7: graph.select %{{.*}} : (tensor<2x3x4x4xi1>, tensor<4x4xi32>, tensor<2x3x4x4xi32>) -> tensor<2x3x4x4xi32>
// Tap 0 is in the padding for the first row and the first column of
// windows.
// CHECK: %[[R0:.*]] = graph.constant dense<{{\[}}[-536870912], [8], [24], [40]]> : tensor<4x1xi32>
// CHECK: %[[W0:.*]] = graph.constant dense<{{\[}}[-536870912, 1, 3, 5]]> : tensor<1x4xi32>
// CHECK: %[[C0:.*]] = graph.add %[[R0]], %[[W0]]
// CHECK: graph.slice %[[XP]] {{{.*}}limits = array<i64: 2, 3, 7, 7>, starts = array<i64: 0, 0, 0, 0>, strides = array<i64: 1, 1, 2, 2>}
// CHECK: %[[CELL:.*]] = graph.select %{{.*}}, %[[C0]], %{{.*}} : (tensor<2x3x4x4xi1>, tensor<4x4xi32>, tensor<2x3x4x4xi32>) -> tensor<2x3x4x4xi32>
// CHECK: %[[FOUND:.*]] = graph.compare %[[CELL]], %{{.*}} {direction = #graph<compare_direction ge>{{.*}} : (tensor<2x3x4x4xi32>, tensor<i32>) -> tensor<2x3x4x4xi1>
// CHECK: %[[UPD:.*]] = graph.select %[[FOUND]], %{{.*}}, %{{.*}} : (tensor<2x3x4x4xi1>, tensor<2x3x4x4xf32>, tensor<f32>) -> tensor<2x3x4x4xf32>
// CHECK: %[[AT:.*]] = graph.select %[[FOUND]], %[[CELL]], %{{.*}} : (tensor<2x3x4x4xi1>, tensor<2x3x4x4xi32>, tensor<i32>) -> tensor<2x3x4x4xi32>
// CHECK: %[[ATR:.*]] = graph.reshape %[[AT]] {{{.*}}shape = array<i64: 2, 3, 16>}
// CHECK: %[[UPDR:.*]] = graph.reshape %[[UPD]] {{{.*}}shape = array<i64: 2, 3, 16>}
// CHECK: %[[Z:.*]] = graph.constant dense<0.000000e+00> : tensor<2x3x64xf32>
// CHECK: %[[S:.*]] = graph.scatter_elements %[[Z]], %[[ATR]], %[[UPDR]] {axis = 2 : i64, {{.*}}reduction = #graph<scatter_reduction add>} : (tensor<2x3x64xf32>, tensor<2x3x16xi32>, tensor<2x3x16xf32>) -> tensor<2x3x64xf32>
// CHECK: %[[DX:.*]] = graph.reshape %[[S]] {{{.*}}shape = array<i64: 2, 3, 8, 8>}
// CHECK-NOT: graph.col2im
// CHECK-NOT: graph.add
// CHECK: return %{{.*}}, %[[DX]]
func.func @max_pool(%x: tensor<2x3x8x8xf32> {graph.name = "x"}) -> tensor<f32> attributes {graph.output_names = ["loss"]} {
  %y = graph.pool %x {kind = #graph<pool_kind max>, window = array<i64: 3, 3>, strides = array<i64: 2, 2>, pad_low = array<i64: 1, 1>, pad_high = array<i64: 1, 1>} : (tensor<2x3x8x8xf32>) -> tensor<2x3x4x4xf32>
  %l = graph.reduce %y {axes = array<i64: 0, 1, 2, 3>, kind = #graph<reduce_kind sum>} : (tensor<2x3x4x4xf32>) -> tensor<f32>
  return %l : tensor<f32>
}

// -----

// ceil_mode: the last window reaches past the end of the input (the pad of
// x covers it): its taps past row and column 7 are in the padding (tap 8
// below, rows and columns 2, 4, 6 and 8).
// CHECK-LABEL: func.func @max_pool_ceil
// CHECK: graph.pad %{{.*}} {{{.*}}high = array<i64: 0, 0, 1, 1>, low = array<i64: 0, 0, 0, 0>}
// CHECK: graph.constant dense<{{\[}}[16], [32], [48], [-536870912]]> : tensor<4x1xi32>
// CHECK: graph.constant dense<{{\[}}[2, 4, 6, -536870912]]> : tensor<1x4xi32>
// CHECK: graph.scatter_elements %{{.*}} {axis = 2 : i64, {{.*}}} : (tensor<1x2x64xf32>, tensor<1x2x16xi32>, tensor<1x2x16xf32>) -> tensor<1x2x64xf32>
func.func @max_pool_ceil(%x: tensor<1x2x8x8xf32> {graph.name = "x"}) -> tensor<f32> attributes {graph.output_names = ["loss"]} {
  %y = graph.pool %x {kind = #graph<pool_kind max>, window = array<i64: 3, 3>, strides = array<i64: 2, 2>, ceil_mode} : (tensor<1x2x8x8xf32>) -> tensor<1x2x4x4xf32>
  %l = graph.reduce %y {axes = array<i64: 0, 1, 2, 3>, kind = #graph<reduce_kind sum>} : (tensor<1x2x4x4xf32>) -> tensor<f32>
  return %l : tensor<f32>
}

// -----

// Average pooling: every tap of a window gets the window's gradient over
// its divisor, broadcast into the columns; no compare, no pad of x.
// CHECK-LABEL: func.func @avg_pool_1d
// CHECK-NOT: graph.pad
// CHECK: %[[D:.*]] = graph.mul %{{.*}}, %{{.*}} : (tensor<2x4x3xf32>, tensor<3xf32>) -> tensor<2x4x3xf32>
// CHECK: %[[R:.*]] = graph.reshape %[[D]] {{{.*}}shape = array<i64: 2, 4, 1, 3>}
// CHECK: %[[B:.*]] = graph.broadcast_to %[[R]] {{{.*}}shape = array<i64: 2, 4, 2, 3>}
// CHECK: %[[C:.*]] = graph.reshape %[[B]] {{{.*}}shape = array<i64: 2, 8, 3>}
// CHECK: graph.col2im %[[C]] {block_shape = array<i64: 2>, dilations = array<i64: 1>, {{.*}}image_shape = array<i64: 6>, pads = array<i64: 0, 0>, strides = array<i64: 2>} : (tensor<2x8x3xf32>) -> tensor<2x4x6xf32>
func.func @avg_pool_1d(%x: tensor<2x4x6xf32> {graph.name = "x"}) -> tensor<f32> attributes {graph.output_names = ["loss"]} {
  %y = graph.pool %x {kind = #graph<pool_kind avg>, window = array<i64: 2>, strides = array<i64: 2>} : (tensor<2x4x6xf32>) -> tensor<2x4x3xf32>
  %l = graph.reduce %y {axes = array<i64: 0, 1, 2>, kind = #graph<reduce_kind sum>} : (tensor<2x4x3xf32>) -> tensor<f32>
  return %l : tensor<f32>
}
