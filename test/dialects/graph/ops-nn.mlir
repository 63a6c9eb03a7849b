// RUN: graph-opt %s | graph-opt | FileCheck %s
// RUN: graph-opt %s --verify-roundtrip | FileCheck %s

// CHECK-LABEL: func @matmul
func.func @matmul(%a: tensor<8x784xf32>, %b: tensor<784x10xf32>, %v: tensor<784xf32>) -> tensor<8xf32> {
  // CHECK: graph.matmul %{{.*}}, %{{.*}} : (tensor<8x784xf32>, tensor<784x10xf32>) -> tensor<8x10xf32>
  %0 = graph.matmul %a, %b : (tensor<8x784xf32>, tensor<784x10xf32>) -> tensor<8x10xf32>
  // CHECK: graph.matmul %{{.*}}, %{{.*}} {transpose_lhs} : (tensor<8x784xf32>, tensor<8x784xf32>) -> tensor<784x784xf32>
  %1 = graph.matmul %a, %a {transpose_lhs} : (tensor<8x784xf32>, tensor<8x784xf32>) -> tensor<784x784xf32>
  // CHECK: graph.matmul %{{.*}}, %{{.*}} : (tensor<8x784xf32>, tensor<784xf32>) -> tensor<8xf32>
  %2 = graph.matmul %a, %v : (tensor<8x784xf32>, tensor<784xf32>) -> tensor<8xf32>
  return %2 : tensor<8xf32>
}

// CHECK-LABEL: func @conv
func.func @conv(%x1: tensor<2x4x10xf32>, %w1: tensor<6x2x3xf32>,
                %x2: tensor<1x3x224x224xf32>, %w2: tensor<64x3x7x7xf32>, %b2: tensor<64xf32>,
                %x3: tensor<1x2x8x8x8xf16>, %w3: tensor<4x2x3x3x3xf16>,
                %xd: tensor<?x3x?x?xf32>) {
  // 1-d, two groups of 2 input channels, dilation 2: (10 - 2*2 - 1)/1 + 1 = 6.
  // CHECK: graph.conv %{{.*}}, %{{.*}} {dilations = array<i64: 2>, groups = 2 : i64} : (tensor<2x4x10xf32>, tensor<6x2x3xf32>) -> tensor<2x6x6xf32>
  %0 = graph.conv %x1, %w1 {dilations = array<i64: 2>, groups = 2 : i64} : (tensor<2x4x10xf32>, tensor<6x2x3xf32>) -> tensor<2x6x6xf32>
  // 2-d with bias: (224 + 3 + 3 - 7)/2 + 1 = 112.
  // CHECK: graph.conv %{{.*}}, %{{.*}}, %{{.*}} {pad_high = array<i64: 3, 3>, pad_low = array<i64: 3, 3>, strides = array<i64: 2, 2>} : (tensor<1x3x224x224xf32>, tensor<64x3x7x7xf32>, tensor<64xf32>) -> tensor<1x64x112x112xf32>
  %1 = graph.conv %x2, %w2, %b2 {strides = array<i64: 2, 2>, pad_low = array<i64: 3, 3>, pad_high = array<i64: 3, 3>} : (tensor<1x3x224x224xf32>, tensor<64x3x7x7xf32>, tensor<64xf32>) -> tensor<1x64x112x112xf32>
  // 3-d, f16, groups = 1 written out is elided.
  // CHECK: graph.conv %{{.*}}, %{{.*}} : (tensor<1x2x8x8x8xf16>, tensor<4x2x3x3x3xf16>) -> tensor<1x4x6x6x6xf16>
  %2 = graph.conv %x3, %w3 {groups = 1 : i64} : (tensor<1x2x8x8x8xf16>, tensor<4x2x3x3x3xf16>) -> tensor<1x4x6x6x6xf16>
  // Dynamic spatial sizes stay dynamic.
  // CHECK: graph.conv %{{.*}}, %{{.*}} : (tensor<?x3x?x?xf32>, tensor<64x3x7x7xf32>) -> tensor<?x64x?x?xf32>
  %3 = graph.conv %xd, %w2 : (tensor<?x3x?x?xf32>, tensor<64x3x7x7xf32>) -> tensor<?x64x?x?xf32>
  return
}

// CHECK-LABEL: func @conv_transpose
func.func @conv_transpose(%x: tensor<1x64x8x8xf32>, %w: tensor<64x32x2x2xf32>, %b: tensor<32xf32>,
                          %x1: tensor<1x4x5xf32>, %w1: tensor<4x3x3xf32>, %b1: tensor<6xf32>) {
  // 2 * (8 - 1) + 0 + 1 * (2 - 1) + 1 - 0 - 0 = 16.
  // CHECK: graph.conv_transpose %{{.*}}, %{{.*}}, %{{.*}} {strides = array<i64: 2, 2>} : (tensor<1x64x8x8xf32>, tensor<64x32x2x2xf32>, tensor<32xf32>) -> tensor<1x32x16x16xf32>
  %0 = graph.conv_transpose %x, %w, %b {strides = array<i64: 2, 2>} : (tensor<1x64x8x8xf32>, tensor<64x32x2x2xf32>, tensor<32xf32>) -> tensor<1x32x16x16xf32>
  // Two groups: O = 3 * 2 = 6; 3 * (5 - 1) + 1 + 1 * 2 + 1 - 1 - 0 = 15.
  // CHECK: graph.conv_transpose {{.*}} {groups = 2 : i64, output_padding = array<i64: 1>, pad_low = array<i64: 1>, strides = array<i64: 3>} : (tensor<1x4x5xf32>, tensor<4x3x3xf32>, tensor<6xf32>) -> tensor<1x6x15xf32>
  %1 = graph.conv_transpose %x1, %w1, %b1 {strides = array<i64: 3>, pad_low = array<i64: 1>, output_padding = array<i64: 1>, groups = 2 : i64} : (tensor<1x4x5xf32>, tensor<4x3x3xf32>, tensor<6xf32>) -> tensor<1x6x15xf32>
  return
}

// CHECK-LABEL: func @pool
func.func @pool(%x: tensor<1x64x112x112xf32>, %y: tensor<1x1x5x5xf32>, %i: tensor<2x3x9xi32>) {
  // (112 + 2 - 3)/2 + 1 = 56.
  // CHECK: graph.pool %{{.*}} {kind = #graph<pool_kind max>, pad_high = array<i64: 1, 1>, pad_low = array<i64: 1, 1>, strides = array<i64: 2, 2>, window = array<i64: 3, 3>} : (tensor<1x64x112x112xf32>) -> tensor<1x64x56x56xf32>
  %0 = graph.pool %x {kind = #graph<pool_kind max>, window = array<i64: 3, 3>, strides = array<i64: 2, 2>, pad_low = array<i64: 1, 1>, pad_high = array<i64: 1, 1>} : (tensor<1x64x112x112xf32>) -> tensor<1x64x56x56xf32>
  // ceil((5 - 2)/2) + 1 = 3 (floor would give 2).
  // CHECK: graph.pool %{{.*}} {ceil_mode, count_include_pad, kind = #graph<pool_kind avg>, strides = array<i64: 2, 2>, window = array<i64: 2, 2>} : (tensor<1x1x5x5xf32>) -> tensor<1x1x3x3xf32>
  %1 = graph.pool %y {kind = #graph<pool_kind avg>, window = array<i64: 2, 2>, strides = array<i64: 2, 2>, ceil_mode, count_include_pad} : (tensor<1x1x5x5xf32>) -> tensor<1x1x3x3xf32>
  // Max pooling of integers, 1-d with dilation 2: (9 - 2*2 - 1)/1 + 1 = 5.
  // CHECK: graph.pool %{{.*}} {dilations = array<i64: 2>, kind = #graph<pool_kind max>, window = array<i64: 3>} : (tensor<2x3x9xi32>) -> tensor<2x3x5xi32>
  %2 = graph.pool %i {kind = #graph<pool_kind max>, window = array<i64: 3>, dilations = array<i64: 2>} : (tensor<2x3x9xi32>) -> tensor<2x3x5xi32>
  return
}

// CHECK-LABEL: func @softmax
func.func @softmax(%x: tensor<8x10xf32>) {
  // CHECK: graph.softmax %{{.*}} : (tensor<8x10xf32>) -> tensor<8x10xf32>
  %0 = graph.softmax %x : (tensor<8x10xf32>) -> tensor<8x10xf32>
  // CHECK: graph.softmax %{{.*}} {axis = 0 : i64} : (tensor<8x10xf32>) -> tensor<8x10xf32>
  %1 = graph.softmax %x {axis = 0} : (tensor<8x10xf32>) -> tensor<8x10xf32>
  // CHECK: graph.log_softmax %{{.*}} {axis = -2 : i64} : (tensor<8x10xf32>) -> tensor<8x10xf32>
  %2 = graph.log_softmax %x {axis = -2} : (tensor<8x10xf32>) -> tensor<8x10xf32>
  return
}

// CHECK-LABEL: func @norms
func.func @norms(%x: tensor<8x16x32x32xf32>, %c: tensor<16xf32>, %t: tensor<4x128x768xf32>, %g: tensor<128x768xf32>) {
  // CHECK: graph.batch_norm %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} {epsilon = 1.000000e-03 : f32} : (tensor<8x16x32x32xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>) -> tensor<8x16x32x32xf32>
  %0 = graph.batch_norm %x, %c, %c, %c, %c {epsilon = 1.0e-03 : f32} : (tensor<8x16x32x32xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>) -> tensor<8x16x32x32xf32>
  // CHECK: %{{.*}}, %{{.*}}, %{{.*}} = graph.batch_norm_train %{{.*}}, %{{.*}}, %{{.*}} : (tensor<8x16x32x32xf32>, tensor<16xf32>, tensor<16xf32>) -> (tensor<8x16x32x32xf32>, tensor<16xf32>, tensor<16xf32>)
  %1:3 = graph.batch_norm_train %x, %c, %c : (tensor<8x16x32x32xf32>, tensor<16xf32>, tensor<16xf32>) -> (tensor<8x16x32x32xf32>, tensor<16xf32>, tensor<16xf32>)
  // CHECK: graph.layer_norm %{{.*}}, %{{.*}}, %{{.*}} {axis = 1 : i64} : (tensor<4x128x768xf32>, tensor<128x768xf32>, tensor<128x768xf32>) -> tensor<4x128x768xf32>
  %2 = graph.layer_norm %t, %g, %g {axis = 1} : (tensor<4x128x768xf32>, tensor<128x768xf32>, tensor<128x768xf32>) -> tensor<4x128x768xf32>
  // No bias.
  // CHECK: graph.layer_norm %{{.*}}, %{{.*}} {axis = 1 : i64} : (tensor<4x128x768xf32>, tensor<128x768xf32>) -> tensor<4x128x768xf32>
  %3 = graph.layer_norm %t, %g {axis = 1} : (tensor<4x128x768xf32>, tensor<128x768xf32>) -> tensor<4x128x768xf32>
  return
}

// CHECK-LABEL: func @lrn
func.func @lrn(%x: tensor<1x96x55x55xf32>, %u: tensor<*xf16>) {
  // Defaults are elided.
  // CHECK: graph.lrn %{{.*}} {size = 5 : i64} : (tensor<1x96x55x55xf32>) -> tensor<1x96x55x55xf32>
  %0 = graph.lrn %x {size = 5 : i64} : (tensor<1x96x55x55xf32>) -> tensor<1x96x55x55xf32>
  // CHECK: graph.lrn %{{.*}} {alpha = 2.000000e-04 : f32, beta = 5.000000e-01 : f32, bias = 2.000000e+00 : f32, size = 4 : i64} : (tensor<1x96x55x55xf32>) -> tensor<1x96x55x55xf32>
  %1 = graph.lrn %x {size = 4 : i64, alpha = 2.0e-04 : f32, beta = 0.5 : f32, bias = 2.0 : f32} : (tensor<1x96x55x55xf32>) -> tensor<1x96x55x55xf32>
  // An unranked input is accepted; its rank is checked once known.
  // CHECK: graph.lrn %{{.*}} {size = 3 : i64} : (tensor<*xf16>) -> tensor<*xf16>
  %2 = graph.lrn %u {size = 3 : i64} : (tensor<*xf16>) -> tensor<*xf16>
  return
}

// CHECK-LABEL: func @resize
func.func @resize(%x: tensor<1x3x32x32xf32>, %u: tensor<*xi8>) {
  // CHECK: graph.resize %{{.*}} {mode = #graph<resize_mode linear>, sizes = array<i64: 1, 3, 64, 64>} : (tensor<1x3x32x32xf32>) -> tensor<1x3x64x64xf32>
  %0 = graph.resize %x {sizes = array<i64: 1, 3, 64, 64>, mode = #graph<resize_mode linear>} : (tensor<1x3x32x32xf32>) -> tensor<1x3x64x64xf32>
  // CHECK: graph.resize %{{.*}} {coordinate_mode = #graph<coordinate_mode align_corners>, mode = #graph<resize_mode cubic>, sizes = array<i64: 1, 3, 7, 9>}
  %1 = graph.resize %x {sizes = array<i64: 1, 3, 7, 9>, mode = #graph<resize_mode cubic>, coordinate_mode = #graph<coordinate_mode align_corners>} : (tensor<1x3x32x32xf32>) -> tensor<1x3x7x9xf32>
  // Nearest works on integers, and sizes give an unranked input a shape.
  // CHECK: graph.resize %{{.*}} {mode = #graph<resize_mode nearest>, sizes = array<i64: 2, 4>} : (tensor<*xi8>) -> tensor<2x4xi8>
  %2 = graph.resize %u {sizes = array<i64: 2, 4>, mode = #graph<resize_mode nearest>} : (tensor<*xi8>) -> tensor<2x4xi8>
  // Explicit scales (ONNX's, when the size was rounded down).
  // CHECK: graph.resize %{{.*}} {mode = #graph<resize_mode linear>, scales = array<f64: 1.000000e+00, 1.000000e+00, 6.000000e-01, 6.000000e-01>, sizes = array<i64: 1, 3, 19, 19>}
  %3 = graph.resize %x {sizes = array<i64: 1, 3, 19, 19>, mode = #graph<resize_mode linear>, scales = array<f64: 1.0, 1.0, 0.6, 0.6>} : (tensor<1x3x32x32xf32>) -> tensor<1x3x19x19xf32>
  return
}

// CHECK-LABEL: func @rnn
func.func @rnn(%x: tensor<7x4x10xf32>, %w: tensor<1x80x10xf32>, %r: tensor<1x80x20xf32>, %b: tensor<1x160xf32>,
               %lens: tensor<4xi32>, %h: tensor<1x4x20xf32>, %p: tensor<1x60xf32>,
               %gx: tensor<5x2x8xf32>, %gw: tensor<2x48x8xf32>, %gr: tensor<2x48x16xf32>, %gb: tensor<2x96xf32>,
               %gh: tensor<2x2x16xf32>) {
  // CHECK: %{{.*}}, %{{.*}}, %{{.*}} = graph.lstm %{{.*}}, %{{.*}}, %{{.*}} bias(%{{.*}}) {hidden_size = 20 : i64} : (tensor<7x4x10xf32>, tensor<1x80x10xf32>, tensor<1x80x20xf32>, tensor<1x160xf32>) -> (tensor<7x1x4x20xf32>, tensor<1x4x20xf32>, tensor<1x4x20xf32>)
  %0:3 = graph.lstm %x, %w, %r bias(%b) {hidden_size = 20 : i64} : (tensor<7x4x10xf32>, tensor<1x80x10xf32>, tensor<1x80x20xf32>, tensor<1x160xf32>) -> (tensor<7x1x4x20xf32>, tensor<1x4x20xf32>, tensor<1x4x20xf32>)
  // Every optional operand, reverse direction, activations and clip.
  // CHECK: graph.lstm %{{.*}}, %{{.*}}, %{{.*}} bias(%{{.*}}) sequence_lens(%{{.*}}) initial_h(%{{.*}}) initial_c(%{{.*}}) peepholes(%{{.*}}) {activations = ["Sigmoid", "Relu", "Tanh"], clip = 3.000000e+00 : f32, direction = #graph<rnn_direction reverse>, hidden_size = 20 : i64, input_forget}
  %1:3 = graph.lstm %x, %w, %r bias(%b) sequence_lens(%lens) initial_h(%h) initial_c(%h) peepholes(%p) {hidden_size = 20 : i64, direction = #graph<rnn_direction reverse>, activations = ["Sigmoid", "Relu", "Tanh"], clip = 3.0 : f32, input_forget} : (tensor<7x4x10xf32>, tensor<1x80x10xf32>, tensor<1x80x20xf32>, tensor<1x160xf32>, tensor<4xi32>, tensor<1x4x20xf32>, tensor<1x4x20xf32>, tensor<1x60xf32>) -> (tensor<7x1x4x20xf32>, tensor<1x4x20xf32>, tensor<1x4x20xf32>)
  // Initial cell state without an initial hidden state keeps its place.
  // CHECK: graph.lstm %{{.*}}, %{{.*}}, %{{.*}} initial_c(%{{.*}}) {hidden_size = 20 : i64}
  %2:3 = graph.lstm %x, %w, %r initial_c(%h) {hidden_size = 20 : i64} : (tensor<7x4x10xf32>, tensor<1x80x10xf32>, tensor<1x80x20xf32>, tensor<1x4x20xf32>) -> (tensor<7x1x4x20xf32>, tensor<1x4x20xf32>, tensor<1x4x20xf32>)
  // CHECK: %{{.*}}, %{{.*}} = graph.gru %{{.*}}, %{{.*}}, %{{.*}} {direction = #graph<rnn_direction bidirectional>, hidden_size = 16 : i64} : (tensor<5x2x8xf32>, tensor<2x48x8xf32>, tensor<2x48x16xf32>) -> (tensor<5x2x2x16xf32>, tensor<2x2x16xf32>)
  %3:2 = graph.gru %gx, %gw, %gr {hidden_size = 16 : i64, direction = #graph<rnn_direction bidirectional>} : (tensor<5x2x8xf32>, tensor<2x48x8xf32>, tensor<2x48x16xf32>) -> (tensor<5x2x2x16xf32>, tensor<2x2x16xf32>)
  // CHECK: graph.gru %{{.*}}, %{{.*}}, %{{.*}} bias(%{{.*}}) initial_h(%{{.*}}) {direction = #graph<rnn_direction bidirectional>, hidden_size = 16 : i64, linear_before_reset}
  %4:2 = graph.gru %gx, %gw, %gr bias(%gb) initial_h(%gh) {hidden_size = 16 : i64, direction = #graph<rnn_direction bidirectional>, linear_before_reset} : (tensor<5x2x8xf32>, tensor<2x48x8xf32>, tensor<2x48x16xf32>, tensor<2x96xf32>, tensor<2x2x16xf32>) -> (tensor<5x2x2x16xf32>, tensor<2x2x16xf32>)
  return
}

// Integer convolution (ONNX ConvInteger after its i32 casts).
// CHECK-LABEL: func @conv_integer
func.func @conv_integer(%x: tensor<1x1x3x3xi32>, %w: tensor<2x1x2x2xi32>, %b: tensor<2xi32>) -> tensor<1x2x4x4xi32> {
  // CHECK: graph.conv %{{.*}}, %{{.*}}, %{{.*}} {pad_high = array<i64: 1, 1>, pad_low = array<i64: 1, 1>} : (tensor<1x1x3x3xi32>, tensor<2x1x2x2xi32>, tensor<2xi32>) -> tensor<1x2x4x4xi32>
  %0 = graph.conv %x, %w, %b {pad_low = array<i64: 1, 1>, pad_high = array<i64: 1, 1>} : (tensor<1x1x3x3xi32>, tensor<2x1x2x2xi32>, tensor<2xi32>) -> tensor<1x2x4x4xi32>
  return %0 : tensor<1x2x4x4xi32>
}

// Resize's ONNX options: nearest rounding, the cubic coefficient,
// exclude_outside, antialias, and a tf_crop_and_resize box.
// CHECK-LABEL: func @resize_options
func.func @resize_options(%x: tensor<1x3x32x32xf32>) {
  // CHECK: graph.resize %{{.*}} {coordinate_mode = #graph<coordinate_mode half_pixel_symmetric>, mode = #graph<resize_mode nearest>, nearest_mode = #graph<nearest_mode ceil>, sizes = array<i64: 1, 3, 48, 48>}
  %0 = graph.resize %x {sizes = array<i64: 1, 3, 48, 48>, mode = #graph<resize_mode nearest>, nearest_mode = #graph<nearest_mode ceil>, coordinate_mode = #graph<coordinate_mode half_pixel_symmetric>} : (tensor<1x3x32x32xf32>) -> tensor<1x3x48x48xf32>
  // CHECK: graph.resize %{{.*}} {antialias, cubic_coeff_a = -5.000000e-01 : f64, exclude_outside, mode = #graph<resize_mode cubic>, sizes = array<i64: 1, 3, 12, 12>}
  %1 = graph.resize %x {sizes = array<i64: 1, 3, 12, 12>, mode = #graph<resize_mode cubic>, cubic_coeff_a = -0.5 : f64, exclude_outside, antialias} : (tensor<1x3x32x32xf32>) -> tensor<1x3x12x12xf32>
  // CHECK: graph.resize %{{.*}} {coordinate_mode = #graph<coordinate_mode tf_crop_and_resize>, extrapolation_value = 1.000000e+01 : f64, mode = #graph<resize_mode linear>, roi = array<f64: 0.000000e+00, 0.000000e+00, 4.000000e-01, 6.000000e-01, 1.000000e+00, 1.000000e+00, 6.000000e-01, 8.000000e-01>, sizes = array<i64: 1, 3, 3, 3>}
  %2 = graph.resize %x {sizes = array<i64: 1, 3, 3, 3>, mode = #graph<resize_mode linear>, coordinate_mode = #graph<coordinate_mode tf_crop_and_resize>, roi = array<f64: 0.0, 0.0, 0.4, 0.6, 1.0, 1.0, 0.6, 0.8>, extrapolation_value = 10.0 : f64} : (tensor<1x3x32x32xf32>) -> tensor<1x3x3x3xf32>
  return
}
