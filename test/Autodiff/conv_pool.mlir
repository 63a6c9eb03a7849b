// Gradient check of graph-autodiff's convolution and pooling rules: 2-D
// and 1-D convolutions with stride, padding, dilation, groups and bias (the
// data gradient is a conv_transpose, the filter gradient a conv); max and
// average pooling with padding, count_include_pad and ceil_mode;
// conv_transpose with stride, padding, output_padding, dilation and groups (see
// gradcheck.py).
//
// RUN: %python %S/gradcheck.py %s --runner %mlir_runner --libs %runner_libs | FileCheck %s
// CHECK-NOT: MISMATCH
// CHECK: gradcheck: 25 of 25 gradients match finite differences

func.func @conv(%x: tensor<2x3x5x5xf64>, %w: tensor<4x3x3x3xf64>, %b: tensor<4xf64>) -> tensor<2x4x5x5xf64> {
  %y = graph.conv %x, %w, %b {pad_low = array<i64: 1, 1>, pad_high = array<i64: 1, 1>} : (tensor<2x3x5x5xf64>, tensor<4x3x3x3xf64>, tensor<4xf64>) -> tensor<2x4x5x5xf64>
  return %y : tensor<2x4x5x5xf64>
}

// Stride 2 over an even size: the forward pass skips the last row and
// column, which the data gradient must give back as zeros.
func.func @conv_stride(%x: tensor<1x2x6x7xf64>, %w: tensor<3x2x3x2xf64>) -> tensor<1x3x3x3xf64> {
  %y = graph.conv %x, %w {strides = array<i64: 2, 2>, pad_low = array<i64: 1, 0>, pad_high = array<i64: 0, 0>} : (tensor<1x2x6x7xf64>, tensor<3x2x3x2xf64>) -> tensor<1x3x3x3xf64>
  return %y : tensor<1x3x3x3xf64>
}

func.func @conv_dilation(%x: tensor<1x2x7x7xf64>, %w: tensor<2x2x2x3xf64>) -> tensor<1x2x3x4xf64> {
  %y = graph.conv %x, %w {dilations = array<i64: 2, 2>, strides = array<i64: 2, 1>, pad_low = array<i64: 0, 1>, pad_high = array<i64: 1, 0>} : (tensor<1x2x7x7xf64>, tensor<2x2x2x3xf64>) -> tensor<1x2x3x4xf64>
  return %y : tensor<1x2x3x4xf64>
}

func.func @conv_groups(%x: tensor<2x4x5x5xf64>, %w: tensor<6x2x3x3xf64>, %b: tensor<6xf64>) -> tensor<2x6x2x2xf64> {
  %y = graph.conv %x, %w, %b {groups = 2 : i64, strides = array<i64: 2, 2>} : (tensor<2x4x5x5xf64>, tensor<6x2x3x3xf64>, tensor<6xf64>) -> tensor<2x6x2x2xf64>
  return %y : tensor<2x6x2x2xf64>
}

func.func @conv1d(%x: tensor<2x2x9xf64>, %w: tensor<3x2x3xf64>) -> tensor<2x3x4xf64> {
  %y = graph.conv %x, %w {strides = array<i64: 2>, pad_low = array<i64: 1>, pad_high = array<i64: 0>} : (tensor<2x2x9xf64>, tensor<3x2x3xf64>) -> tensor<2x3x4xf64>
  return %y : tensor<2x3x4xf64>
}

// gradcheck @max_pool x=spread
func.func @max_pool(%x: tensor<1x2x5x5xf64>) -> tensor<1x2x3x3xf64> {
  %y = graph.pool %x {kind = #graph<pool_kind max>, window = array<i64: 3, 3>, strides = array<i64: 2, 2>, pad_low = array<i64: 1, 1>, pad_high = array<i64: 1, 1>} : (tensor<1x2x5x5xf64>) -> tensor<1x2x3x3xf64>
  return %y : tensor<1x2x3x3xf64>
}

// gradcheck @max_pool_2x2 x=spread
func.func @max_pool_2x2(%x: tensor<2x1x4x6xf64>) -> tensor<2x1x2x3xf64> {
  %y = graph.pool %x {kind = #graph<pool_kind max>, window = array<i64: 2, 2>, strides = array<i64: 2, 2>} : (tensor<2x1x4x6xf64>) -> tensor<2x1x2x3xf64>
  return %y : tensor<2x1x2x3xf64>
}

// gradcheck @max_pool_ceil x=spread
func.func @max_pool_ceil(%x: tensor<1x1x6x6xf64>) -> tensor<1x1x3x3xf64> {
  %y = graph.pool %x {kind = #graph<pool_kind max>, window = array<i64: 3, 3>, strides = array<i64: 2, 2>, ceil_mode} : (tensor<1x1x6x6xf64>) -> tensor<1x1x3x3xf64>
  return %y : tensor<1x1x3x3xf64>
}

func.func @avg_pool(%x: tensor<1x2x5x5xf64>) -> tensor<1x2x3x3xf64> {
  %y = graph.pool %x {kind = #graph<pool_kind avg>, window = array<i64: 3, 3>, strides = array<i64: 2, 2>, pad_low = array<i64: 1, 1>, pad_high = array<i64: 1, 1>} : (tensor<1x2x5x5xf64>) -> tensor<1x2x3x3xf64>
  return %y : tensor<1x2x3x3xf64>
}

func.func @avg_pool_include_pad(%x: tensor<1x2x5x5xf64>) -> tensor<1x2x3x3xf64> {
  %y = graph.pool %x {kind = #graph<pool_kind avg>, window = array<i64: 3, 3>, strides = array<i64: 2, 2>, pad_low = array<i64: 1, 1>, pad_high = array<i64: 1, 1>, count_include_pad} : (tensor<1x2x5x5xf64>) -> tensor<1x2x3x3xf64>
  return %y : tensor<1x2x3x3xf64>
}

func.func @avg_pool_ceil(%x: tensor<1x1x6x6xf64>) -> tensor<1x1x4x4xf64> {
  %y = graph.pool %x {kind = #graph<pool_kind avg>, window = array<i64: 3, 3>, strides = array<i64: 2, 2>, pad_low = array<i64: 1, 1>, pad_high = array<i64: 1, 1>, ceil_mode, count_include_pad} : (tensor<1x1x6x6xf64>) -> tensor<1x1x4x4xf64>
  return %y : tensor<1x1x4x4xf64>
}

// conv_transpose: its input's gradient is the convolution with the same
// filter, its filter's the convolution's filter gradient from g to x.
func.func @conv_transpose(%x: tensor<2x3x3x3xf64>, %w: tensor<3x2x3x3xf64>, %b: tensor<2xf64>) -> tensor<2x2x5x5xf64> {
  %y = graph.conv_transpose %x, %w, %b : (tensor<2x3x3x3xf64>, tensor<3x2x3x3xf64>, tensor<2xf64>) -> tensor<2x2x5x5xf64>
  return %y : tensor<2x2x5x5xf64>
}

func.func @conv_transpose_strided(%x: tensor<1x4x3x2xf64>, %w: tensor<4x1x3x2xf64>) -> tensor<1x2x7x4xf64> {
  %y = graph.conv_transpose %x, %w {groups = 2 : i64, strides = array<i64: 2, 2>, pad_low = array<i64: 1, 0>, pad_high = array<i64: 0, 1>, output_padding = array<i64: 1, 1>} : (tensor<1x4x3x2xf64>, tensor<4x1x3x2xf64>) -> tensor<1x2x7x4xf64>
  return %y : tensor<1x2x7x4xf64>
}

func.func @conv_transpose_dilated(%x: tensor<1x2x4xf64>, %w: tensor<2x3x2xf64>) -> tensor<1x3x6xf64> {
  %y = graph.conv_transpose %x, %w {dilations = array<i64: 3>, pad_low = array<i64: 1>, pad_high = array<i64: 0>} : (tensor<1x2x4xf64>, tensor<2x3x2xf64>) -> tensor<1x3x6xf64>
  return %y : tensor<1x3x6xf64>
}
