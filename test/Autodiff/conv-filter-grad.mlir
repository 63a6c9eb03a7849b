// RUN: graph-opt %s --graph-autodiff=wrt=arguments --split-input-file | FileCheck %s

// The filter gradient is a convolution of x (its batch as channels) by the
// output adjoint, with stride and dilation exchanged. Its padded input is
// cut to the rows the forward pass read: a 1x1 stride-2 filter over an even
// input never reads the last row and column, which would otherwise make
// the gradient convolution 2x2 taps (four times the work, three quarters
// sliced away).

// CHECK-LABEL: func.func @conv_1x1_stride2
// CHECK: graph.slice %{{.*}} {{{.*}}limits = array<i64: 2, 4, 7, 7>, starts = array<i64: 0, 0, 0, 0>, strides = array<i64: 1, 1, 1, 1>} : (tensor<2x4x8x8xf32>) -> tensor<2x4x7x7xf32>
// CHECK: graph.conv %{{.*}}, %{{.*}} {dilations = array<i64: 2, 2>, {{.*}}pad_high = array<i64: 0, 0>, pad_low = array<i64: 0, 0>, strides = array<i64: 1, 1>} : (tensor<4x2x7x7xf32>, tensor<6x2x4x4xf32>) -> tensor<4x6x1x1xf32>
// CHECK-NOT: graph.slice
// CHECK: return
func.func @conv_1x1_stride2(%x: tensor<2x4x8x8xf32> {graph.name = "x"}, %w: tensor<6x4x1x1xf32> {graph.name = "w"}) -> tensor<f32> attributes {graph.output_names = ["loss"]} {
  %y = graph.conv %x, %w {strides = array<i64: 2, 2>} : (tensor<2x4x8x8xf32>, tensor<6x4x1x1xf32>) -> tensor<2x6x4x4xf32>
  %l = graph.reduce %y {axes = array<i64: 0, 1, 2, 3>, kind = #graph<reduce_kind sum>} : (tensor<2x6x4x4xf32>) -> tensor<f32>
  return %l : tensor<f32>
}

// -----

// A 3x3 stride-2 filter padded by 1 over an even input: the high padding
// is never read, so it goes (x itself is not sliced) and the gradient
// convolution is exactly 3x3.
// CHECK-LABEL: func.func @conv_3x3_stride2
// CHECK-NOT: graph.slice
// CHECK: graph.conv %{{.*}}, %{{.*}} {dilations = array<i64: 2, 2>, {{.*}}pad_high = array<i64: 0, 0>, pad_low = array<i64: 1, 1>, strides = array<i64: 1, 1>} : (tensor<3x1x8x8xf32>, tensor<4x1x4x4xf32>) -> tensor<3x4x3x3xf32>
// CHECK-NOT: graph.slice
// CHECK: return
func.func @conv_3x3_stride2(%x: tensor<1x3x8x8xf32> {graph.name = "x"}, %w: tensor<4x3x3x3xf32> {graph.name = "w"}) -> tensor<f32> attributes {graph.output_names = ["loss"]} {
  %y = graph.conv %x, %w {strides = array<i64: 2, 2>, pad_low = array<i64: 1, 1>, pad_high = array<i64: 1, 1>} : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x4x4xf32>
  %l = graph.reduce %y {axes = array<i64: 0, 1, 2, 3>, kind = #graph<reduce_kind sum>} : (tensor<1x4x4x4xf32>) -> tensor<f32>
  return %l : tensor<f32>
}

// -----

// Stride 1 reads every row: the padding stays.
// CHECK-LABEL: func.func @conv_3x3
// CHECK: graph.conv %{{.*}}, %{{.*}} {dilations = array<i64: 1, 1>, {{.*}}pad_high = array<i64: 1, 1>, pad_low = array<i64: 1, 1>, strides = array<i64: 1, 1>} : (tensor<3x1x8x8xf32>, tensor<4x1x8x8xf32>) -> tensor<3x4x3x3xf32>
func.func @conv_3x3(%x: tensor<1x3x8x8xf32> {graph.name = "x"}, %w: tensor<4x3x3x3xf32> {graph.name = "w"}) -> tensor<f32> attributes {graph.output_names = ["loss"]} {
  %y = graph.conv %x, %w {pad_low = array<i64: 1, 1>, pad_high = array<i64: 1, 1>} : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x8x8xf32>
  %l = graph.reduce %y {axes = array<i64: 0, 1, 2, 3>, kind = #graph<reduce_kind sum>} : (tensor<1x4x8x8xf32>) -> tensor<f32>
  return %l : tensor<f32>
}
