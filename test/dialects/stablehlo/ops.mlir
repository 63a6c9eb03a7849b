// RUN: graph-opt %s | graph-opt | FileCheck %s
// RUN: graph-opt %s --verify-roundtrip | FileCheck %s

// Every op graphc emits, written as the StableHLO specification's examples
// spell them (generic form, upstream attribute syntax); printing must give
// the same spelling back, since XLA's parser reads what graphc writes.

// CHECK-LABEL: func.func @elementwise
func.func @elementwise(%a: tensor<2x3xf32>, %b: tensor<2x3xf32>, %i: tensor<2x3xi32>) -> tensor<2x3xf32> {
  // CHECK: "stablehlo.add"(%{{.*}}, %{{.*}}) : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  %0 = "stablehlo.add"(%a, %b) : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  // CHECK: "stablehlo.maximum"
  %1 = "stablehlo.maximum"(%0, %b) : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  // CHECK: "stablehlo.logistic"
  %2 = "stablehlo.logistic"(%1) : (tensor<2x3xf32>) -> tensor<2x3xf32>
  // CHECK: "stablehlo.compare"(%{{.*}}, %{{.*}}) {compare_type = #stablehlo<comparison_type FLOAT>, comparison_direction = #stablehlo<comparison_direction LT>} : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xi1>
  %3 = "stablehlo.compare"(%2, %b) {comparison_direction = #stablehlo<comparison_direction LT>, compare_type = #stablehlo<comparison_type FLOAT>} : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xi1>
  // CHECK: "stablehlo.select"
  %4 = "stablehlo.select"(%3, %2, %b) : (tensor<2x3xi1>, tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  // CHECK: "stablehlo.convert"(%{{.*}}) : (tensor<2x3xi32>) -> tensor<2x3xf32>
  %5 = "stablehlo.convert"(%i) : (tensor<2x3xi32>) -> tensor<2x3xf32>
  // CHECK: "stablehlo.constant"() {value = dense<0.000000e+00> : tensor<f32>} : () -> tensor<f32>
  %z = "stablehlo.constant"() {value = dense<0.0> : tensor<f32>} : () -> tensor<f32>
  // CHECK: "stablehlo.clamp"
  %6 = "stablehlo.clamp"(%z, %5, %z) : (tensor<f32>, tensor<2x3xf32>, tensor<f32>) -> tensor<2x3xf32>
  %7 = "stablehlo.add"(%4, %6) : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  return %7 : tensor<2x3xf32>
}

// CHECK-LABEL: func.func @movement
func.func @movement(%x: tensor<2x3xf32>, %v: tensor<3xf32>, %idx: tensor<2xi64>) -> tensor<2x3xf32> {
  // CHECK: "stablehlo.broadcast_in_dim"(%{{.*}}) {broadcast_dimensions = array<i64: 1>} : (tensor<3xf32>) -> tensor<2x3xf32>
  %0 = "stablehlo.broadcast_in_dim"(%v) {broadcast_dimensions = array<i64: 1>} : (tensor<3xf32>) -> tensor<2x3xf32>
  // CHECK: "stablehlo.transpose"(%{{.*}}) {permutation = array<i64: 1, 0>} : (tensor<2x3xf32>) -> tensor<3x2xf32>
  %1 = "stablehlo.transpose"(%0) {permutation = array<i64: 1, 0>} : (tensor<2x3xf32>) -> tensor<3x2xf32>
  // CHECK: "stablehlo.reshape"(%{{.*}}) : (tensor<3x2xf32>) -> tensor<6xf32>
  %2 = "stablehlo.reshape"(%1) : (tensor<3x2xf32>) -> tensor<6xf32>
  // CHECK: "stablehlo.slice"(%{{.*}}) {limit_indices = array<i64: 5>, start_indices = array<i64: 2>, strides = array<i64: 1>} : (tensor<6xf32>) -> tensor<3xf32>
  %3 = "stablehlo.slice"(%2) {start_indices = array<i64: 2>, limit_indices = array<i64: 5>, strides = array<i64: 1>} : (tensor<6xf32>) -> tensor<3xf32>
  // CHECK: "stablehlo.concatenate"(%{{.*}}, %{{.*}}) {dimension = 0 : i64} : (tensor<3xf32>, tensor<3xf32>) -> tensor<6xf32>
  %4 = "stablehlo.concatenate"(%3, %v) {dimension = 0 : i64} : (tensor<3xf32>, tensor<3xf32>) -> tensor<6xf32>
  %z = "stablehlo.constant"() {value = dense<0.0> : tensor<f32>} : () -> tensor<f32>
  // CHECK: "stablehlo.pad"(%{{.*}}, %{{.*}}) {edge_padding_high = array<i64: 1>, edge_padding_low = array<i64: -1>, interior_padding = array<i64: 0>} : (tensor<6xf32>, tensor<f32>) -> tensor<6xf32>
  %5 = "stablehlo.pad"(%4, %z) {edge_padding_low = array<i64: -1>, edge_padding_high = array<i64: 1>, interior_padding = array<i64: 0>} : (tensor<6xf32>, tensor<f32>) -> tensor<6xf32>
  // CHECK: "stablehlo.gather"(%{{.*}}, %{{.*}}) {dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, indices_are_sorted = false, slice_sizes = array<i64: 1, 3>} : (tensor<2x3xf32>, tensor<2xi64>) -> tensor<2x3xf32>
  %6 = "stablehlo.gather"(%x, %idx) {dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, indices_are_sorted = false, slice_sizes = array<i64: 1, 3>} : (tensor<2x3xf32>, tensor<2xi64>) -> tensor<2x3xf32>
  // CHECK: "stablehlo.iota"() {iota_dimension = 0 : i64} : () -> tensor<4xi64>
  %7 = "stablehlo.iota"() {iota_dimension = 0 : i64} : () -> tensor<4xi64>
  return %6 : tensor<2x3xf32>
}

// CHECK-LABEL: func.func @contractions
func.func @contractions(%a: tensor<4x2x3xf32>, %b: tensor<4x3x5xf32>, %x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xf32>) -> (tensor<4x2x5xf32>, tensor<1x4x4x4xf32>) {
  // CHECK: "stablehlo.dot_general"(%{{.*}}, %{{.*}}) {dot_dimension_numbers = #stablehlo.dot<lhs_batching_dimensions = [0], rhs_batching_dimensions = [0], lhs_contracting_dimensions = [2], rhs_contracting_dimensions = [1]>} : (tensor<4x2x3xf32>, tensor<4x3x5xf32>) -> tensor<4x2x5xf32>
  %0 = "stablehlo.dot_general"(%a, %b) {dot_dimension_numbers = #stablehlo.dot<lhs_batching_dimensions = [0], rhs_batching_dimensions = [0], lhs_contracting_dimensions = [2], rhs_contracting_dimensions = [1]>} : (tensor<4x2x3xf32>, tensor<4x3x5xf32>) -> tensor<4x2x5xf32>
  // CHECK: "stablehlo.convolution"(%{{.*}}, %{{.*}}) {batch_group_count = 1 : i64, dimension_numbers = #stablehlo.conv<[b, f, 0, 1]x[o, i, 0, 1]->[b, f, 0, 1]>, feature_group_count = 1 : i64, lhs_dilation = array<i64: 1, 1>, padding = dense<1> : tensor<2x2xi64>, rhs_dilation = array<i64: 1, 1>, window_strides = array<i64: 2, 2>} : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x4x4xf32>
  %1 = "stablehlo.convolution"(%x, %w) {batch_group_count = 1 : i64, dimension_numbers = #stablehlo.conv<[b, f, 0, 1]x[o, i, 0, 1]->[b, f, 0, 1]>, feature_group_count = 1 : i64, lhs_dilation = array<i64: 1, 1>, padding = dense<1> : tensor<2x2xi64>, rhs_dilation = array<i64: 1, 1>, window_strides = array<i64: 2, 2>} : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x4x4xf32>
  return %0, %1 : tensor<4x2x5xf32>, tensor<1x4x4x4xf32>
}

// An NHWC convolution: the layout letters sit where the dimensions are.
// CHECK-LABEL: func.func @conv_nhwc
func.func @conv_nhwc(%x: tensor<1x8x8x3xf32>, %w: tensor<3x3x3x4xf32>) -> tensor<1x6x6x4xf32> {
  // CHECK: #stablehlo.conv<[b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f]>
  %0 = "stablehlo.convolution"(%x, %w) {batch_group_count = 1 : i64, dimension_numbers = #stablehlo.conv<[b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f]>, feature_group_count = 1 : i64, lhs_dilation = array<i64: 1, 1>, padding = dense<0> : tensor<2x2xi64>, rhs_dilation = array<i64: 1, 1>, window_strides = array<i64: 1, 1>} : (tensor<1x8x8x3xf32>, tensor<3x3x3x4xf32>) -> tensor<1x6x6x4xf32>
  return %0 : tensor<1x6x6x4xf32>
}

// CHECK-LABEL: func.func @regions
func.func @regions(%x: tensor<1x1x4x4xf32>) -> (tensor<1x1xf32>, tensor<1x1x2x2xf32>) {
  %z = "stablehlo.constant"() {value = dense<0.0> : tensor<f32>} : () -> tensor<f32>
  // CHECK: "stablehlo.reduce"(%{{.*}}, %{{.*}}) ({
  // CHECK-NEXT: ^bb0(%[[A:.*]]: tensor<f32>, %[[B:.*]]: tensor<f32>):
  // CHECK-NEXT: %[[S:.*]] = "stablehlo.add"(%[[A]], %[[B]])
  // CHECK-NEXT: "stablehlo.return"(%[[S]]) : (tensor<f32>) -> ()
  // CHECK-NEXT: }) {dimensions = array<i64: 2, 3>} : (tensor<1x1x4x4xf32>, tensor<f32>) -> tensor<1x1xf32>
  %0 = "stablehlo.reduce"(%x, %z) ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = "stablehlo.add"(%a, %b) : (tensor<f32>, tensor<f32>) -> tensor<f32>
    "stablehlo.return"(%s) : (tensor<f32>) -> ()
  }) {dimensions = array<i64: 2, 3>} : (tensor<1x1x4x4xf32>, tensor<f32>) -> tensor<1x1xf32>
  // CHECK: "stablehlo.reduce_window"
  // CHECK: {padding = dense<0> : tensor<4x2xi64>, window_dimensions = array<i64: 1, 1, 2, 2>, window_strides = array<i64: 1, 1, 2, 2>}
  %1 = "stablehlo.reduce_window"(%x, %z) ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %m = "stablehlo.maximum"(%a, %b) : (tensor<f32>, tensor<f32>) -> tensor<f32>
    "stablehlo.return"(%m) : (tensor<f32>) -> ()
  }) {window_dimensions = array<i64: 1, 1, 2, 2>, window_strides = array<i64: 1, 1, 2, 2>, padding = dense<0> : tensor<4x2xi64>} : (tensor<1x1x4x4xf32>, tensor<f32>) -> tensor<1x1x2x2xf32>
  return %0, %1 : tensor<1x1xf32>, tensor<1x1x2x2xf32>
}

// CHECK-LABEL: func.func @communication
func.func @communication(%g: tensor<4xf32>) -> tensor<4xf32> {
  // CHECK: "stablehlo.all_reduce"(%{{.*}}) ({
  // CHECK: }) {channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, replica_groups = dense<{{\[\[}}0, 1]]> : tensor<1x2xi64>} : (tensor<4xf32>) -> tensor<4xf32>
  %0 = "stablehlo.all_reduce"(%g) ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = "stablehlo.add"(%a, %b) : (tensor<f32>, tensor<f32>) -> tensor<f32>
    "stablehlo.return"(%s) : (tensor<f32>) -> ()
  }) {channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} : (tensor<4xf32>) -> tensor<4xf32>
  // CHECK: %[[T0:.*]] = "stablehlo.after_all"() : () -> !stablehlo.token
  %t0 = "stablehlo.after_all"() : () -> !stablehlo.token
  // CHECK: %[[T1:.*]] = "stablehlo.send"(%{{.*}}, %[[T0]]) {channel_handle = #stablehlo.channel_handle<handle = 2, type = 1>, is_host_transfer = false} : (tensor<4xf32>, !stablehlo.token) -> !stablehlo.token
  %t1 = "stablehlo.send"(%0, %t0) {channel_handle = #stablehlo.channel_handle<handle = 2, type = 1>, is_host_transfer = false} : (tensor<4xf32>, !stablehlo.token) -> !stablehlo.token
  // CHECK: "stablehlo.recv"(%[[T1]]) {channel_handle = #stablehlo.channel_handle<handle = 3, type = 1>, is_host_transfer = false} : (!stablehlo.token) -> (tensor<4xf32>, !stablehlo.token)
  %r:2 = "stablehlo.recv"(%t1) {channel_handle = #stablehlo.channel_handle<handle = 3, type = 1>, is_host_transfer = false} : (!stablehlo.token) -> (tensor<4xf32>, !stablehlo.token)
  return %r#0 : tensor<4xf32>
}

// Empty dimension lists are left out, as upstream prints them.
// CHECK-LABEL: func.func @matmul
func.func @matmul(%a: tensor<2x3xf32>, %b: tensor<3x4xf32>) -> tensor<2x4xf32> {
  // CHECK: #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>
  %0 = "stablehlo.dot_general"(%a, %b) {dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>} : (tensor<2x3xf32>, tensor<3x4xf32>) -> tensor<2x4xf32>
  return %0 : tensor<2x4xf32>
}

// Every elementwise op, in its generic form.
// CHECK-LABEL: func.func @all_elementwise
func.func @all_elementwise(%x: tensor<4xf32>, %i: tensor<4xi32>) {
  // CHECK: "stablehlo.abs"(%{{.*}}) : (tensor<4xf32>) -> tensor<4xf32>
  %u0 = "stablehlo.abs"(%x) : (tensor<4xf32>) -> tensor<4xf32>
  // CHECK: "stablehlo.negate"(%{{.*}}) : (tensor<4xf32>) -> tensor<4xf32>
  %u1 = "stablehlo.negate"(%x) : (tensor<4xf32>) -> tensor<4xf32>
  // CHECK: "stablehlo.exponential"(%{{.*}}) : (tensor<4xf32>) -> tensor<4xf32>
  %u2 = "stablehlo.exponential"(%x) : (tensor<4xf32>) -> tensor<4xf32>
  // CHECK: "stablehlo.exponential_minus_one"(%{{.*}}) : (tensor<4xf32>) -> tensor<4xf32>
  %u3 = "stablehlo.exponential_minus_one"(%x) : (tensor<4xf32>) -> tensor<4xf32>
  // CHECK: "stablehlo.log"(%{{.*}}) : (tensor<4xf32>) -> tensor<4xf32>
  %u4 = "stablehlo.log"(%x) : (tensor<4xf32>) -> tensor<4xf32>
  // CHECK: "stablehlo.log_plus_one"(%{{.*}}) : (tensor<4xf32>) -> tensor<4xf32>
  %u5 = "stablehlo.log_plus_one"(%x) : (tensor<4xf32>) -> tensor<4xf32>
  // CHECK: "stablehlo.logistic"(%{{.*}}) : (tensor<4xf32>) -> tensor<4xf32>
  %u6 = "stablehlo.logistic"(%x) : (tensor<4xf32>) -> tensor<4xf32>
  // CHECK: "stablehlo.sqrt"(%{{.*}}) : (tensor<4xf32>) -> tensor<4xf32>
  %u7 = "stablehlo.sqrt"(%x) : (tensor<4xf32>) -> tensor<4xf32>
  // CHECK: "stablehlo.rsqrt"(%{{.*}}) : (tensor<4xf32>) -> tensor<4xf32>
  %u8 = "stablehlo.rsqrt"(%x) : (tensor<4xf32>) -> tensor<4xf32>
  // CHECK: "stablehlo.tanh"(%{{.*}}) : (tensor<4xf32>) -> tensor<4xf32>
  %u9 = "stablehlo.tanh"(%x) : (tensor<4xf32>) -> tensor<4xf32>
  // CHECK: "stablehlo.tan"(%{{.*}}) : (tensor<4xf32>) -> tensor<4xf32>
  %u10 = "stablehlo.tan"(%x) : (tensor<4xf32>) -> tensor<4xf32>
  // CHECK: "stablehlo.sine"(%{{.*}}) : (tensor<4xf32>) -> tensor<4xf32>
  %u11 = "stablehlo.sine"(%x) : (tensor<4xf32>) -> tensor<4xf32>
  // CHECK: "stablehlo.cosine"(%{{.*}}) : (tensor<4xf32>) -> tensor<4xf32>
  %u12 = "stablehlo.cosine"(%x) : (tensor<4xf32>) -> tensor<4xf32>
  // CHECK: "stablehlo.floor"(%{{.*}}) : (tensor<4xf32>) -> tensor<4xf32>
  %u13 = "stablehlo.floor"(%x) : (tensor<4xf32>) -> tensor<4xf32>
  // CHECK: "stablehlo.ceil"(%{{.*}}) : (tensor<4xf32>) -> tensor<4xf32>
  %u14 = "stablehlo.ceil"(%x) : (tensor<4xf32>) -> tensor<4xf32>
  // CHECK: "stablehlo.round_nearest_even"(%{{.*}}) : (tensor<4xf32>) -> tensor<4xf32>
  %u15 = "stablehlo.round_nearest_even"(%x) : (tensor<4xf32>) -> tensor<4xf32>
  // CHECK: "stablehlo.sign"(%{{.*}}) : (tensor<4xf32>) -> tensor<4xf32>
  %u16 = "stablehlo.sign"(%x) : (tensor<4xf32>) -> tensor<4xf32>
  // CHECK: "stablehlo.add"(%{{.*}}, %{{.*}}) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %b0 = "stablehlo.add"(%x, %x) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  // CHECK: "stablehlo.subtract"(%{{.*}}, %{{.*}}) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %b1 = "stablehlo.subtract"(%x, %x) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  // CHECK: "stablehlo.multiply"(%{{.*}}, %{{.*}}) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %b2 = "stablehlo.multiply"(%x, %x) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  // CHECK: "stablehlo.divide"(%{{.*}}, %{{.*}}) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %b3 = "stablehlo.divide"(%x, %x) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  // CHECK: "stablehlo.remainder"(%{{.*}}, %{{.*}}) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %b4 = "stablehlo.remainder"(%x, %x) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  // CHECK: "stablehlo.power"(%{{.*}}, %{{.*}}) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %b5 = "stablehlo.power"(%x, %x) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  // CHECK: "stablehlo.maximum"(%{{.*}}, %{{.*}}) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %b6 = "stablehlo.maximum"(%x, %x) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  // CHECK: "stablehlo.minimum"(%{{.*}}, %{{.*}}) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %b7 = "stablehlo.minimum"(%x, %x) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  // CHECK: "stablehlo.atan2"(%{{.*}}, %{{.*}}) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %b8 = "stablehlo.atan2"(%x, %x) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  // CHECK: "stablehlo.and"(%{{.*}}, %{{.*}}) : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32>
  %c0 = "stablehlo.and"(%i, %i) : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32>
  // CHECK: "stablehlo.or"(%{{.*}}, %{{.*}}) : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32>
  %c1 = "stablehlo.or"(%i, %i) : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32>
  // CHECK: "stablehlo.xor"(%{{.*}}, %{{.*}}) : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32>
  %c2 = "stablehlo.xor"(%i, %i) : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32>
  // CHECK: "stablehlo.shift_left"(%{{.*}}, %{{.*}}) : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32>
  %c3 = "stablehlo.shift_left"(%i, %i) : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32>
  // CHECK: "stablehlo.shift_right_arithmetic"(%{{.*}}, %{{.*}}) : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32>
  %c4 = "stablehlo.shift_right_arithmetic"(%i, %i) : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32>
  // CHECK: "stablehlo.shift_right_logical"(%{{.*}}, %{{.*}}) : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32>
  %c5 = "stablehlo.shift_right_logical"(%i, %i) : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32>
  // CHECK: "stablehlo.not"(%{{.*}}) : (tensor<4xi32>) -> tensor<4xi32>
  %n = "stablehlo.not"(%i) : (tensor<4xi32>) -> tensor<4xi32>
  return
}
