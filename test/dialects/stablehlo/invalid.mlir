// RUN: graph-opt %s -split-input-file -verify-diagnostics --allow-unregistered-dialect

func.func @dot_contraction(%a: tensor<2x3xf32>, %b: tensor<4x5xf32>) -> tensor<2x5xf32> {
  // expected-error @+1 {{contracting dimension sizes 3 (lhs 1) and 4 (rhs 0) differ}}
  %0 = "stablehlo.dot_general"(%a, %b) {dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>} : (tensor<2x3xf32>, tensor<4x5xf32>) -> tensor<2x5xf32>
  return %0 : tensor<2x5xf32>
}

// -----

func.func @dot_result(%a: tensor<2x3xf32>, %b: tensor<3x4xf32>) -> tensor<2x5xf32> {
  // expected-error @+1 {{result shape [2, 5] does not match the expected [2, 4]}}
  %0 = "stablehlo.dot_general"(%a, %b) {dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>} : (tensor<2x3xf32>, tensor<3x4xf32>) -> tensor<2x5xf32>
  return %0 : tensor<2x5xf32>
}

// -----

func.func @conv_shape(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xf32>) -> tensor<1x4x8x8xf32> {
  // expected-error @+1 {{result shape [1, 4, 8, 8] does not match the expected [1, 4, 6, 6]}}
  %0 = "stablehlo.convolution"(%x, %w) {batch_group_count = 1 : i64, dimension_numbers = #stablehlo.conv<[b, f, 0, 1]x[o, i, 0, 1]->[b, f, 0, 1]>, feature_group_count = 1 : i64, lhs_dilation = array<i64: 1, 1>, padding = dense<0> : tensor<2x2xi64>, rhs_dilation = array<i64: 1, 1>, window_strides = array<i64: 1, 1>} : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x8x8xf32>
  return %0 : tensor<1x4x8x8xf32>
}

// -----

func.func @conv_groups(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xf32>) -> tensor<1x4x6x6xf32> {
  // expected-error @+1 {{input features 3 must be kernel input features 3 times feature_group_count 2}}
  %0 = "stablehlo.convolution"(%x, %w) {batch_group_count = 1 : i64, dimension_numbers = #stablehlo.conv<[b, f, 0, 1]x[o, i, 0, 1]->[b, f, 0, 1]>, feature_group_count = 2 : i64, lhs_dilation = array<i64: 1, 1>, padding = dense<0> : tensor<2x2xi64>, rhs_dilation = array<i64: 1, 1>, window_strides = array<i64: 1, 1>} : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x6x6xf32>
  return %0 : tensor<1x4x6x6xf32>
}

// -----

func.func @conv_layout(%x: tensor<1x3x8x8xf32>) {
  // expected-error @+1 {{expected 'b', 'f' or a spatial index, got 'q'}}
  "test.use"() {a = #stablehlo.conv<[b, q, 0, 1]x[o, i, 0, 1]->[b, f, 0, 1]>} : () -> ()
  return
}

// -----

func.func @broadcast(%v: tensor<3xf32>) -> tensor<2x4xf32> {
  // expected-error @+1 {{operand dimension 0 of size 3 cannot broadcast to result dimension 1 of size 4}}
  %0 = "stablehlo.broadcast_in_dim"(%v) {broadcast_dimensions = array<i64: 1>} : (tensor<3xf32>) -> tensor<2x4xf32>
  return %0 : tensor<2x4xf32>
}

// -----

func.func @transpose(%x: tensor<2x3xf32>) -> tensor<3x2xf32> {
  // expected-error @+1 {{permutation dimension 0 repeats}}
  %0 = "stablehlo.transpose"(%x) {permutation = array<i64: 0, 0>} : (tensor<2x3xf32>) -> tensor<3x2xf32>
  return %0 : tensor<3x2xf32>
}

// -----

func.func @reshape(%x: tensor<2x3xf32>) -> tensor<5xf32> {
  // expected-error @+1 {{cannot reshape 'tensor<2x3xf32>' to 'tensor<5xf32>'}}
  %0 = "stablehlo.reshape"(%x) : (tensor<2x3xf32>) -> tensor<5xf32>
  return %0 : tensor<5xf32>
}

// -----

func.func @slice(%x: tensor<4xf32>) -> tensor<2xf32> {
  // expected-error @+1 {{dimension 0: slice [3, 5) step 1 does not fit size 4}}
  %0 = "stablehlo.slice"(%x) {start_indices = array<i64: 3>, limit_indices = array<i64: 5>, strides = array<i64: 1>} : (tensor<4xf32>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

func.func @concat(%a: tensor<1x4xf32>, %b: tensor<1x3xf32>) -> tensor<2x4xf32> {
  // expected-error @+1 {{differs from 'tensor<1x4xf32>' outside dimension 0}}
  %0 = "stablehlo.concatenate"(%a, %b) {dimension = 0 : i64} : (tensor<1x4xf32>, tensor<1x3xf32>) -> tensor<2x4xf32>
  return %0 : tensor<2x4xf32>
}

// -----

func.func @reduce_dims(%x: tensor<2x3xf32>, %z: tensor<f32>) -> tensor<2xf32> {
  // expected-error @+1 {{reduced dimension 2 is out of range for rank 2}}
  %0 = "stablehlo.reduce"(%x, %z) ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = "stablehlo.add"(%a, %b) : (tensor<f32>, tensor<f32>) -> tensor<f32>
    "stablehlo.return"(%s) : (tensor<f32>) -> ()
  }) {dimensions = array<i64: 2>} : (tensor<2x3xf32>, tensor<f32>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

func.func @reduce_body(%x: tensor<2x3xf32>, %z: tensor<f32>) -> tensor<2xf32> {
  // expected-error @+1 {{body argument 1 has type 'tensor<i32>'; expected 'tensor<f32>'}}
  %0 = "stablehlo.reduce"(%x, %z) ({
  ^bb0(%a: tensor<f32>, %b: tensor<i32>):
    "stablehlo.return"(%a) : (tensor<f32>) -> ()
  }) {dimensions = array<i64: 1>} : (tensor<2x3xf32>, tensor<f32>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

func.func @reduce_window(%x: tensor<1x1x4x4xf32>, %z: tensor<f32>) -> tensor<1x1x3x3xf32> {
  // expected-error @+1 {{result shape [1, 1, 3, 3] does not match the expected [1, 1, 2, 2]}}
  %0 = "stablehlo.reduce_window"(%x, %z) ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %m = "stablehlo.maximum"(%a, %b) : (tensor<f32>, tensor<f32>) -> tensor<f32>
    "stablehlo.return"(%m) : (tensor<f32>) -> ()
  }) {window_dimensions = array<i64: 1, 1, 2, 2>, window_strides = array<i64: 1, 1, 2, 2>} : (tensor<1x1x4x4xf32>, tensor<f32>) -> tensor<1x1x3x3xf32>
  return %0 : tensor<1x1x3x3xf32>
}

// -----

func.func @all_reduce(%g: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{replica 1 is in replica_groups twice}}
  %0 = "stablehlo.all_reduce"(%g) ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = "stablehlo.add"(%a, %b) : (tensor<f32>, tensor<f32>) -> tensor<f32>
    "stablehlo.return"(%s) : (tensor<f32>) -> ()
  }) {replica_groups = dense<[[0, 1], [1, 2]]> : tensor<2x2xi64>} : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @compare(%a: tensor<4xf32>, %b: tensor<4xi32>) -> tensor<4xi1> {
  // expected-error @+1 {{operands have types 'tensor<4xf32>' and 'tensor<4xi32>'; they must be the same}}
  %0 = "stablehlo.compare"(%a, %b) {comparison_direction = #stablehlo<comparison_direction LT>} : (tensor<4xf32>, tensor<4xi32>) -> tensor<4xi1>
  return %0 : tensor<4xi1>
}

// -----

func.func @recv(%t: !stablehlo.token) -> tensor<4xf32> {
  // expected-error @+1 {{last result must be a !stablehlo.token}}
  %0 = "stablehlo.recv"(%t) {channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>} : (!stablehlo.token) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @dot_field() {
  // expected-error @+1 {{unknown field 'lhs_contract'}}
  "test.use"() {a = #stablehlo.dot<lhs_contract = [1]>} : () -> ()
  return
}
