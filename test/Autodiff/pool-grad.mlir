// RUN: graph-opt %s --graph-autodiff=wrt=arguments --split-input-file | FileCheck %s

// Max pooling's adjoint is a gather: the first maximum of each window (its
// row-major tap index, 9 when none matches) selects the tap whose column of
// graph.col2im's input gets the window's gradient, and col2im sums, for
// each input cell, the columns of the windows that cover it. No tensor of
// the padded input's size is built per tap.

// CHECK-LABEL: func.func @max_pool
// CHECK: %[[XP:.*]] = graph.pad %{{.*}}, %{{.*}} {{{.*}}high = array<i64: 0, 0, 1, 1>, low = array<i64: 0, 0, 1, 1>} : (tensor<2x3x8x8xf32>, tensor<f32>) -> tensor<2x3x10x10xf32>
// CHECK: %[[NONE:.*]] = graph.constant dense<9> : tensor<i32>
// The last tap first: tap 8 starts at (2, 2).
// CHECK: %[[S8:.*]] = graph.slice %[[XP]] {{{.*}}limits = array<i64: 2, 3, 9, 9>, starts = array<i64: 0, 0, 2, 2>, strides = array<i64: 1, 1, 2, 2>}
// CHECK: %[[H8:.*]] = graph.compare %[[S8]], %[[Y:[^ ]*]] {direction = #graph<compare_direction eq>{{.*}}
// CHECK: %[[T8:.*]] = graph.constant dense<8> : tensor<i32>
// CHECK: %[[F8:.*]] = graph.select %[[H8]], %[[T8]], %[[NONE]] {{.*}}: (tensor<2x3x4x4xi1>, tensor<i32>, tensor<i32>) -> tensor<2x3x4x4xi32>
// CHECK-COUNT-7: graph.select %{{.*}} : (tensor<2x3x4x4xi1>, tensor<i32>, tensor<2x3x4x4xi32>) -> tensor<2x3x4x4xi32>
// CHECK: graph.slice %[[XP]] {{{.*}}limits = array<i64: 2, 3, 7, 7>, starts = array<i64: 0, 0, 0, 0>, strides = array<i64: 1, 1, 2, 2>}
// CHECK: %[[F0:.*]] = graph.select %{{.*}} : (tensor<2x3x4x4xi1>, tensor<i32>, tensor<2x3x4x4xi32>) -> tensor<2x3x4x4xi32>
// CHECK: %[[IDS:.*]] = graph.constant dense<{{\[}}[0], [1], [2], [3], [4], [5], [6], [7], [8]]> : tensor<9x1xi32>
// CHECK: %[[FR:.*]] = graph.reshape %[[F0]] {{{.*}}shape = array<i64: 2, 3, 1, 16>}
// CHECK: %[[TAKEN:.*]] = graph.compare %[[FR]], %[[IDS]] {direction = #graph<compare_direction eq>{{.*}} : (tensor<2x3x1x16xi32>, tensor<9x1xi32>) -> tensor<2x3x9x16xi1>
// CHECK: %[[GR:.*]] = graph.reshape %{{.*}} {{{.*}}shape = array<i64: 2, 3, 1, 16>}
// CHECK: %[[COLS:.*]] = graph.select %[[TAKEN]], %[[GR]], %{{.*}} : (tensor<2x3x9x16xi1>, tensor<2x3x1x16xf32>, tensor<f32>) -> tensor<2x3x9x16xf32>
// CHECK: %[[C:.*]] = graph.reshape %[[COLS]] {{{.*}}shape = array<i64: 2, 27, 16>}
// CHECK: %[[DX:.*]] = graph.col2im %[[C]] {block_shape = array<i64: 3, 3>, dilations = array<i64: 1, 1>, {{.*}}image_shape = array<i64: 8, 8>, pads = array<i64: 1, 1, 1, 1>, strides = array<i64: 2, 2>} : (tensor<2x27x16xf32>) -> tensor<2x3x8x8xf32>
// CHECK-NOT: graph.add
// CHECK: return %{{.*}}, %[[DX]]
func.func @max_pool(%x: tensor<2x3x8x8xf32> {graph.name = "x"}) -> tensor<f32> attributes {graph.output_names = ["loss"]} {
  %y = graph.pool %x {kind = #graph<pool_kind max>, window = array<i64: 3, 3>, strides = array<i64: 2, 2>, pad_low = array<i64: 1, 1>, pad_high = array<i64: 1, 1>} : (tensor<2x3x8x8xf32>) -> tensor<2x3x4x4xf32>
  %l = graph.reduce %y {axes = array<i64: 0, 1, 2, 3>, kind = #graph<reduce_kind sum>} : (tensor<2x3x4x4xf32>) -> tensor<f32>
  return %l : tensor<f32>
}

// -----

// ceil_mode: the last window reaches past the end of the input, which
// col2im's trailing pads cover: (8 + 0 + 1 - 3) / 2 + 1 = 4 positions.
// CHECK-LABEL: func.func @max_pool_ceil
// CHECK: graph.pad %{{.*}} {{{.*}}high = array<i64: 0, 0, 1, 1>, low = array<i64: 0, 0, 0, 0>}
// CHECK: graph.col2im %{{.*}} {block_shape = array<i64: 3, 3>, dilations = array<i64: 1, 1>, {{.*}}image_shape = array<i64: 8, 8>, pads = array<i64: 0, 0, 1, 1>, strides = array<i64: 2, 2>} : (tensor<1x18x16xf32>) -> tensor<1x2x8x8xf32>
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
