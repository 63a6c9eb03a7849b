// RUN: graph-opt %s -split-input-file -verify-diagnostics

// One case per check of the neural-network ops' type inference.

// matmul: element types differ
func.func @f(%a: tensor<2x3xf32>, %b: tensor<3x4xf16>) {
  // expected-error @+2 {{graph.matmul: operand element types 'f32' and 'f16' differ}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = graph.matmul %a, %b : (tensor<2x3xf32>, tensor<3x4xf16>) -> tensor<2x4xf32>
  return
}

// -----
// matmul: scalar operand
func.func @f(%a: tensor<f32>, %b: tensor<3x4xf32>) {
  // expected-error @+2 {{graph.matmul: operands must have rank >= 1}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = graph.matmul %a, %b : (tensor<f32>, tensor<3x4xf32>) -> tensor<4xf32>
  return
}

// -----
// matmul: contraction mismatch
func.func @f(%a: tensor<8x784xf32>, %b: tensor<512x10xf32>) {
  // expected-error @+2 {{graph.matmul: contraction size 784 does not match 512}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = graph.matmul %a, %b : (tensor<8x784xf32>, tensor<512x10xf32>) -> tensor<8x10xf32>
  return
}

// -----
// matmul: batch dimensions do not broadcast
func.func @f(%a: tensor<2x8x4xf32>, %b: tensor<3x4x5xf32>) {
  // expected-error @+2 {{graph.matmul: cannot broadcast dimension 2 against 3}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = graph.matmul %a, %b : (tensor<2x8x4xf32>, tensor<3x4x5xf32>) -> tensor<2x8x5xf32>
  return
}

// -----
// matmul: declared result contradicts the inferred one
func.func @f(%a: tensor<2x3xf32>, %b: tensor<3x4xf32>) {
  // expected-error @+2 {{inferred type(s) 'tensor<2x4xf32>' are incompatible with return type(s) of operation 'tensor<2x5xf32>'}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = graph.matmul %a, %b : (tensor<2x3xf32>, tensor<3x4xf32>) -> tensor<2x5xf32>
  return
}

// -----
// conv: element types differ
func.func @f(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xf16>) {
  // expected-error @+2 {{graph.conv: filter element type 'f16' does not match input element type 'f32'}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = graph.conv %x, %w : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf16>) -> tensor<1x4x6x6xf32>
  return
}

// -----
// conv: no spatial dimension
func.func @f(%x: tensor<1x3xf32>, %w: tensor<4x3xf32>) {
  // expected-error @+2 {{graph.conv: input must have rank 3, 4 or 5 (1 to 3 spatial dimensions), got rank 2}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = graph.conv %x, %w : (tensor<1x3xf32>, tensor<4x3xf32>) -> tensor<1x4xf32>
  return
}

// -----
// conv: filter rank differs
func.func @f(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3xf32>) {
  // expected-error @+2 {{graph.conv: filter rank 3 does not match input rank 4}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = graph.conv %x, %w : (tensor<1x3x8x8xf32>, tensor<4x3x3xf32>) -> tensor<1x4x6x6xf32>
  return
}

// -----
// conv: groups not positive
func.func @f(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xf32>) {
  // expected-error @+2 {{graph.conv: groups must be positive, got 0}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = graph.conv %x, %w {groups = 0 : i64} : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x6x6xf32>
  return
}

// -----
// conv: empty filter
func.func @f(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x0x3xf32>) {
  // expected-error @+2 {{graph.conv: filter spatial dimension 0 is empty}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = graph.conv %x, %w : (tensor<1x3x8x8xf32>, tensor<4x3x0x3xf32>) -> tensor<1x4x6x6xf32>
  return
}

// -----
// conv: strides has the wrong length
func.func @f(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xf32>) {
  // expected-error @+2 {{graph.conv: strides has 3 entries, expected 2 (one per spatial dimension)}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = graph.conv %x, %w {strides = array<i64: 1, 1, 1>} : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x6x6xf32>
  return
}

// -----
// conv: zero stride
func.func @f(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xf32>) {
  // expected-error @+2 {{graph.conv: strides entry 1 is 0, expected at least 1}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = graph.conv %x, %w {strides = array<i64: 1, 0>} : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x6x6xf32>
  return
}

// -----
// conv: zero dilation
func.func @f(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xf32>) {
  // expected-error @+2 {{graph.conv: dilations entry 0 is 0, expected at least 1}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = graph.conv %x, %w {dilations = array<i64: 0, 1>} : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x6x6xf32>
  return
}

// -----
// conv: negative padding
func.func @f(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xf32>) {
  // expected-error @+2 {{graph.conv: pad_low entry 1 is -1, expected at least 0}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = graph.conv %x, %w {pad_low = array<i64: 0, -1>} : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x6x6xf32>
  return
}

// -----
// conv: pad_high has the wrong length
func.func @f(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xf32>) {
  // expected-error @+2 {{graph.conv: pad_high has 1 entries, expected 2 (one per spatial dimension)}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = graph.conv %x, %w {pad_high = array<i64: 1>} : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x6x6xf32>
  return
}

// -----
// conv: input channels do not match
func.func @f(%x: tensor<1x3x8x8xf32>, %w: tensor<4x2x3x3xf32>) {
  // expected-error @+2 {{graph.conv: input channels 3 do not match filter in-channels 2 * groups 1}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = graph.conv %x, %w : (tensor<1x3x8x8xf32>, tensor<4x2x3x3xf32>) -> tensor<1x4x6x6xf32>
  return
}

// -----
// conv: output channels not divisible by groups
func.func @f(%x: tensor<1x4x8x8xf32>, %w: tensor<5x2x3x3xf32>) {
  // expected-error @+2 {{graph.conv: output channels 5 are not divisible by groups 2}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = graph.conv %x, %w {groups = 2 : i64} : (tensor<1x4x8x8xf32>, tensor<5x2x3x3xf32>) -> tensor<1x5x6x6xf32>
  return
}

// -----
// conv: bias does not match output channels
func.func @f(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xf32>, %b: tensor<3xf32>) {
  // expected-error @+2 {{graph.conv: bias has shape [3], expected [4]}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = graph.conv %x, %w, %b : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>, tensor<3xf32>) -> tensor<1x4x6x6xf32>
  return
}

// -----
// conv: kernel larger than padded input
func.func @f(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x9x3xf32>) {
  // expected-error @+2 {{graph.conv: spatial dimension 0 is empty: padded input size 8 is smaller than the dilated kernel size 9}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = graph.conv %x, %w : (tensor<1x3x8x8xf32>, tensor<4x3x9x3xf32>) -> tensor<1x4x1x6xf32>
  return
}

// -----
// conv: declared output size wrong
func.func @f(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xf32>) {
  // expected-error @+2 {{inferred type(s) 'tensor<1x4x3x3xf32>' are incompatible with return type(s) of operation 'tensor<1x4x4x4xf32>'}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = graph.conv %x, %w {strides = array<i64: 2, 2>} : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x4x4xf32>
  return
}

// -----
// conv_transpose: input channels do not match
func.func @f(%x: tensor<1x8x4x4xf32>, %w: tensor<6x2x3x3xf32>) {
  // expected-error @+2 {{graph.conv_transpose: input channels 8 do not match filter channels 6}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = graph.conv_transpose %x, %w : (tensor<1x8x4x4xf32>, tensor<6x2x3x3xf32>) -> tensor<1x2x6x6xf32>
  return
}

// -----
// conv_transpose: input channels not divisible by groups
func.func @f(%x: tensor<1x6x4x4xf32>, %w: tensor<6x2x3x3xf32>) {
  // expected-error @+2 {{graph.conv_transpose: input channels 6 are not divisible by groups 4}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = graph.conv_transpose %x, %w {groups = 4 : i64} : (tensor<1x6x4x4xf32>, tensor<6x2x3x3xf32>) -> tensor<1x8x6x6xf32>
  return
}

// -----
// conv_transpose: bias does not match output channels
func.func @f(%x: tensor<1x6x4x4xf32>, %w: tensor<6x2x3x3xf32>, %b: tensor<6xf32>) {
  // expected-error @+2 {{graph.conv_transpose: bias has shape [6], expected [4]}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = graph.conv_transpose %x, %w, %b {groups = 2 : i64} : (tensor<1x6x4x4xf32>, tensor<6x2x3x3xf32>, tensor<6xf32>) -> tensor<1x4x6x6xf32>
  return
}

// -----
// conv_transpose: output_padding has the wrong length
func.func @f(%x: tensor<1x6x4x4xf32>, %w: tensor<6x2x3x3xf32>) {
  // expected-error @+2 {{graph.conv_transpose: output_padding has 1 entries, expected 2 (one per spatial dimension)}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = graph.conv_transpose %x, %w {output_padding = array<i64: 0>} : (tensor<1x6x4x4xf32>, tensor<6x2x3x3xf32>) -> tensor<1x2x6x6xf32>
  return
}

// -----
// conv_transpose: output_padding not below stride or dilation
func.func @f(%x: tensor<1x6x4x4xf32>, %w: tensor<6x2x3x3xf32>) {
  // expected-error @+2 {{graph.conv_transpose: output_padding 2 in spatial dimension 1 must be smaller than stride 2 or dilation 1}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = graph.conv_transpose %x, %w {strides = array<i64: 2, 2>, output_padding = array<i64: 0, 2>} : (tensor<1x6x4x4xf32>, tensor<6x2x3x3xf32>) -> tensor<1x2x9x11xf32>
  return
}

// -----
// conv_transpose: pads remove every output cell
func.func @f(%x: tensor<1x6x1x4xf32>, %w: tensor<6x2x1x3xf32>) {
  // expected-error @+2 {{graph.conv_transpose: spatial dimension 0 is empty: pads remove all 1 output cells}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = graph.conv_transpose %x, %w {pad_low = array<i64: 1, 0>} : (tensor<1x6x1x4xf32>, tensor<6x2x1x3xf32>) -> tensor<1x2x1x6xf32>
  return
}

// -----
// pool: avg of integers
func.func @f(%x: tensor<1x3x8x8xi32>) {
  // expected-error @+2 {{graph.pool: avg pooling needs a floating-point input, got 'i32'}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = graph.pool %x {kind = #graph<pool_kind avg>, window = array<i64: 2, 2>} : (tensor<1x3x8x8xi32>) -> tensor<1x3x7x7xi32>
  return
}

// -----
// pool: count_include_pad with max
func.func @f(%x: tensor<1x3x8x8xf32>) {
  // expected-error @+2 {{graph.pool: count_include_pad applies only to avg pooling}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = graph.pool %x {kind = #graph<pool_kind max>, window = array<i64: 2, 2>, count_include_pad} : (tensor<1x3x8x8xf32>) -> tensor<1x3x7x7xf32>
  return
}

// -----
// pool: empty window
func.func @f(%x: tensor<1x3x8x8xf32>) {
  // expected-error @+2 {{graph.pool: window must have at least one entry}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = graph.pool %x {kind = #graph<pool_kind max>, window = array<i64>} : (tensor<1x3x8x8xf32>) -> tensor<1x3x8x8xf32>
  return
}

// -----
// pool: window length does not match the input rank
func.func @f(%x: tensor<1x3x8x8xf32>) {
  // expected-error @+2 {{graph.pool: input rank 4 does not match 1 window entries plus 2}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = graph.pool %x {kind = #graph<pool_kind max>, window = array<i64: 2>} : (tensor<1x3x8x8xf32>) -> tensor<1x3x7x7xf32>
  return
}

// -----
// pool: zero window
func.func @f(%x: tensor<1x3x8x8xf32>) {
  // expected-error @+2 {{graph.pool: window entry 1 is 0, expected at least 1}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = graph.pool %x {kind = #graph<pool_kind max>, window = array<i64: 2, 0>} : (tensor<1x3x8x8xf32>) -> tensor<1x3x7x7xf32>
  return
}

// -----
// pool: strides has the wrong length
func.func @f(%x: tensor<1x3x8x8xf32>) {
  // expected-error @+2 {{graph.pool: strides has 1 entries, expected 2 (one per spatial dimension)}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = graph.pool %x {kind = #graph<pool_kind max>, window = array<i64: 2, 2>, strides = array<i64: 2>} : (tensor<1x3x8x8xf32>) -> tensor<1x3x4x4xf32>
  return
}

// -----
// pool: padding as large as the window
func.func @f(%x: tensor<1x3x8x8xf32>) {
  // expected-error @+2 {{graph.pool: pads 0 and 2 in spatial dimension 1 must be smaller than the window extent 2}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = graph.pool %x {kind = #graph<pool_kind max>, window = array<i64: 2, 2>, pad_high = array<i64: 0, 2>} : (tensor<1x3x8x8xf32>) -> tensor<1x3x7x9xf32>
  return
}

// -----
// pool: window larger than the input
func.func @f(%x: tensor<1x3x2x8xf32>) {
  // expected-error @+2 {{graph.pool: spatial dimension 0 is empty: padded input size 2 is smaller than the window extent 3}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = graph.pool %x {kind = #graph<pool_kind max>, window = array<i64: 3, 3>} : (tensor<1x3x2x8xf32>) -> tensor<1x3x1x6xf32>
  return
}

// -----
// softmax: axis out of range
func.func @f(%x: tensor<8x10xf32>) {
  // expected-error @+2 {{graph.softmax: axis 2 is out of range for rank 2}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = graph.softmax %x {axis = 2} : (tensor<8x10xf32>) -> tensor<8x10xf32>
  return
}

// -----
// log_softmax: axis out of range
func.func @f(%x: tensor<8x10xf32>) {
  // expected-error @+2 {{graph.log_softmax: axis -3 is out of range for rank 2}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = graph.log_softmax %x {axis = -3} : (tensor<8x10xf32>) -> tensor<8x10xf32>
  return
}

// -----
// lrn: empty window
func.func @f(%x: tensor<1x4x3x3xf32>) {
  // expected-error @+2 {{graph.lrn: size is 0, expected at least 1}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = graph.lrn %x {size = 0 : i64} : (tensor<1x4x3x3xf32>) -> tensor<1x4x3x3xf32>
  return
}

// -----
// lrn: no channel axis
func.func @f(%x: tensor<4xf32>) {
  // expected-error @+2 {{graph.lrn: input must have rank >= 2 ([N, C, ...]), got rank 1}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = graph.lrn %x {size = 3 : i64} : (tensor<4xf32>) -> tensor<4xf32>
  return
}

// -----
// batch_norm: element types differ
func.func @f(%x: tensor<2x3x4xf32>, %c: tensor<3xf32>, %h: tensor<3xf16>) {
  // expected-error @+2 {{graph.batch_norm: mean element type 'f16' does not match input element type 'f32'}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = graph.batch_norm %x, %c, %c, %h, %c : (tensor<2x3x4xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf16>, tensor<3xf32>) -> tensor<2x3x4xf32>
  return
}

// -----
// batch_norm: no channel axis
func.func @f(%x: tensor<3xf32>, %c: tensor<3xf32>) {
  // expected-error @+2 {{graph.batch_norm: input must have rank >= 2 ([N, C, ...]), got rank 1}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = graph.batch_norm %x, %c, %c, %c, %c : (tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
  return
}

// -----
// batch_norm: variance has the wrong shape
func.func @f(%x: tensor<2x3x4xf32>, %c: tensor<3xf32>, %v: tensor<3x1xf32>) {
  // expected-error @+2 {{graph.batch_norm: variance has shape [3, 1], expected [3]}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = graph.batch_norm %x, %c, %c, %c, %v : (tensor<2x3x4xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3x1xf32>) -> tensor<2x3x4xf32>
  return
}

// -----
// batch_norm_train: scale has the wrong size
func.func @f(%x: tensor<2x3x4xf32>, %c: tensor<3xf32>, %s: tensor<4xf32>) {
  // expected-error @+2 {{graph.batch_norm_train: scale has shape [4], expected [3]}}
  // expected-error @+1 {{failed to infer returned types}}
  %0:3 = graph.batch_norm_train %x, %s, %c : (tensor<2x3x4xf32>, tensor<4xf32>, tensor<3xf32>) -> (tensor<2x3x4xf32>, tensor<3xf32>, tensor<3xf32>)
  return
}

// -----
// batch_norm_train: declared statistics type wrong
func.func @f(%x: tensor<2x3x4xf32>, %c: tensor<3xf32>) {
  // expected-error @+2 {{inferred type(s) 'tensor<2x3x4xf32>', 'tensor<3xf32>', 'tensor<3xf32>' are incompatible with return type(s) of operation 'tensor<2x3x4xf32>', 'tensor<4xf32>', 'tensor<3xf32>'}}
  // expected-error @+1 {{failed to infer returned types}}
  %0:3 = graph.batch_norm_train %x, %c, %c : (tensor<2x3x4xf32>, tensor<3xf32>, tensor<3xf32>) -> (tensor<2x3x4xf32>, tensor<4xf32>, tensor<3xf32>)
  return
}

// -----
// layer_norm: axis out of range
func.func @f(%x: tensor<4x8xf32>, %g: tensor<8xf32>) {
  // expected-error @+2 {{graph.layer_norm: axis 2 is out of range for rank 2}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = graph.layer_norm %x, %g {axis = 2} : (tensor<4x8xf32>, tensor<8xf32>) -> tensor<4x8xf32>
  return
}

// -----
// layer_norm: element types differ
func.func @f(%x: tensor<4x8xf32>, %g: tensor<8xbf16>) {
  // expected-error @+2 {{graph.layer_norm: scale element type 'bf16' does not match input element type 'f32'}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = graph.layer_norm %x, %g : (tensor<4x8xf32>, tensor<8xbf16>) -> tensor<4x8xf32>
  return
}

// -----
// layer_norm: scale is not the normalised shape
func.func @f(%x: tensor<4x8xf32>, %g: tensor<8xf32>) {
  // expected-error @+2 {{graph.layer_norm: scale has shape [8], expected [4, 8]}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = graph.layer_norm %x, %g {axis = 0} : (tensor<4x8xf32>, tensor<8xf32>) -> tensor<4x8xf32>
  return
}

// -----
// layer_norm: bias is not the normalised shape
func.func @f(%x: tensor<4x8xf32>, %g: tensor<8xf32>, %b: tensor<4xf32>) {
  // expected-error @+2 {{graph.layer_norm: bias has shape [4], expected [8]}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = graph.layer_norm %x, %g, %b : (tensor<4x8xf32>, tensor<8xf32>, tensor<4xf32>) -> tensor<4x8xf32>
  return
}

// -----
// resize: sizes length differs from the rank
func.func @f(%x: tensor<1x3x8x8xf32>) {
  // expected-error @+2 {{graph.resize: sizes has 2 entries, expected 4 (the input rank)}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = graph.resize %x {sizes = array<i64: 16, 16>, mode = #graph<resize_mode nearest>} : (tensor<1x3x8x8xf32>) -> tensor<16x16xf32>
  return
}

// -----
// resize: zero size
func.func @f(%x: tensor<1x3x8x8xf32>) {
  // expected-error @+2 {{graph.resize: sizes entry 2 is 0, expected at least 1}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = graph.resize %x {sizes = array<i64: 1, 3, 0, 16>, mode = #graph<resize_mode nearest>} : (tensor<1x3x8x8xf32>) -> tensor<1x3x0x16xf32>
  return
}

// -----
// resize: scales length differs from the rank
func.func @f(%x: tensor<1x3x8x8xf32>) {
  // expected-error @+2 {{graph.resize: scales has 2 entries, expected 4 (one per dimension)}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = graph.resize %x {sizes = array<i64: 1, 3, 4, 4>, mode = #graph<resize_mode linear>, scales = array<f64: 0.6, 0.6>} : (tensor<1x3x8x8xf32>) -> tensor<1x3x4x4xf32>
  return
}

// -----
// resize: non-positive scale
func.func @f(%x: tensor<1x3x8x8xf32>) {
  // expected-error @+2 {{graph.resize: scales entry 2 is 0.000000e+00, expected a positive value}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = graph.resize %x {sizes = array<i64: 1, 3, 4, 4>, mode = #graph<resize_mode linear>, scales = array<f64: 1.0, 1.0, 0.0, 0.5>} : (tensor<1x3x8x8xf32>) -> tensor<1x3x4x4xf32>
  return
}

// -----
// resize: linear interpolation of integers
func.func @f(%x: tensor<1x3x8x8xi8>) {
  // expected-error @+2 {{graph.resize: linear interpolation needs a floating-point input, got 'i8'}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = graph.resize %x {sizes = array<i64: 1, 3, 16, 16>, mode = #graph<resize_mode linear>} : (tensor<1x3x8x8xi8>) -> tensor<1x3x16x16xi8>
  return
}

// -----
// lstm: hidden_size not positive
func.func @f(%x: tensor<7x4x10xf32>, %w: tensor<1x80x10xf32>, %r: tensor<1x80x20xf32>) {
  // expected-error @+2 {{graph.lstm: hidden_size must be positive, got 0}}
  // expected-error @+1 {{failed to infer returned types}}
  %0:3 = graph.lstm %x, %w, %r {hidden_size = 0 : i64} : (tensor<7x4x10xf32>, tensor<1x80x10xf32>, tensor<1x80x20xf32>) -> (tensor<7x1x4x20xf32>, tensor<1x4x20xf32>, tensor<1x4x20xf32>)
  return
}

// -----
// lstm: negative clip
func.func @f(%x: tensor<7x4x10xf32>, %w: tensor<1x80x10xf32>, %r: tensor<1x80x20xf32>) {
  // expected-error @+2 {{graph.lstm: clip must be positive, got -1}}
  // expected-error @+1 {{failed to infer returned types}}
  %0:3 = graph.lstm %x, %w, %r {hidden_size = 20 : i64, clip = -1.0 : f32} : (tensor<7x4x10xf32>, tensor<1x80x10xf32>, tensor<1x80x20xf32>) -> (tensor<7x1x4x20xf32>, tensor<1x4x20xf32>, tensor<1x4x20xf32>)
  return
}

// -----
// lstm: element types differ
func.func @f(%x: tensor<7x4x10xf32>, %w: tensor<1x80x10xf32>, %r: tensor<1x80x20xf32>, %b: tensor<1x160xf16>) {
  // expected-error @+2 {{graph.lstm: B element type 'f16' does not match X element type 'f32'}}
  // expected-error @+1 {{failed to infer returned types}}
  %0:3 = graph.lstm %x, %w, %r bias(%b) {hidden_size = 20 : i64} : (tensor<7x4x10xf32>, tensor<1x80x10xf32>, tensor<1x80x20xf32>, tensor<1x160xf16>) -> (tensor<7x1x4x20xf32>, tensor<1x4x20xf32>, tensor<1x4x20xf32>)
  return
}

// -----
// lstm: too few activations
func.func @f(%x: tensor<7x4x10xf32>, %w: tensor<1x80x10xf32>, %r: tensor<1x80x20xf32>) {
  // expected-error @+2 {{graph.lstm: expected 3 activations (3 per direction), got 2}}
  // expected-error @+1 {{failed to infer returned types}}
  %0:3 = graph.lstm %x, %w, %r {hidden_size = 20 : i64, activations = ["Sigmoid", "Tanh"]} : (tensor<7x4x10xf32>, tensor<1x80x10xf32>, tensor<1x80x20xf32>) -> (tensor<7x1x4x20xf32>, tensor<1x4x20xf32>, tensor<1x4x20xf32>)
  return
}

// -----
// lstm: activation with parameters
func.func @f(%x: tensor<7x4x10xf32>, %w: tensor<1x80x10xf32>, %r: tensor<1x80x20xf32>) {
  // expected-error @+2 {{graph.lstm: unsupported activation 'LeakyRelu' (expected Sigmoid, Tanh, Relu, Softsign or Softplus)}}
  // expected-error @+1 {{failed to infer returned types}}
  %0:3 = graph.lstm %x, %w, %r {hidden_size = 20 : i64, activations = ["Sigmoid", "Tanh", "LeakyRelu"]} : (tensor<7x4x10xf32>, tensor<1x80x10xf32>, tensor<1x80x20xf32>) -> (tensor<7x1x4x20xf32>, tensor<1x4x20xf32>, tensor<1x4x20xf32>)
  return
}

// -----
// lstm: X is not rank 3
func.func @f(%x: tensor<7x10xf32>, %w: tensor<1x80x10xf32>, %r: tensor<1x80x20xf32>) {
  // expected-error @+2 {{graph.lstm: X must have rank 3 ([seq, batch, input]), got rank 2}}
  // expected-error @+1 {{failed to infer returned types}}
  %0:3 = graph.lstm %x, %w, %r {hidden_size = 20 : i64} : (tensor<7x10xf32>, tensor<1x80x10xf32>, tensor<1x80x20xf32>) -> (tensor<7x1x4x20xf32>, tensor<1x4x20xf32>, tensor<1x4x20xf32>)
  return
}

// -----
// lstm: W has 3H rows
func.func @f(%x: tensor<7x4x10xf32>, %w: tensor<1x60x10xf32>, %r: tensor<1x80x20xf32>) {
  // expected-error @+2 {{graph.lstm: W has shape [1, 60, 10], expected [1, 80, 10]}}
  // expected-error @+1 {{failed to infer returned types}}
  %0:3 = graph.lstm %x, %w, %r {hidden_size = 20 : i64} : (tensor<7x4x10xf32>, tensor<1x60x10xf32>, tensor<1x80x20xf32>) -> (tensor<7x1x4x20xf32>, tensor<1x4x20xf32>, tensor<1x4x20xf32>)
  return
}

// -----
// lstm: R for one direction of a bidirectional layer
func.func @f(%x: tensor<7x4x10xf32>, %w: tensor<2x80x10xf32>, %r: tensor<1x80x20xf32>) {
  // expected-error @+2 {{graph.lstm: R has shape [1, 80, 20], expected [2, 80, 20]}}
  // expected-error @+1 {{failed to infer returned types}}
  %0:3 = graph.lstm %x, %w, %r {hidden_size = 20 : i64, direction = #graph<rnn_direction bidirectional>} : (tensor<7x4x10xf32>, tensor<2x80x10xf32>, tensor<1x80x20xf32>) -> (tensor<7x2x4x20xf32>, tensor<2x4x20xf32>, tensor<2x4x20xf32>)
  return
}

// -----
// lstm: B holds only Wb
func.func @f(%x: tensor<7x4x10xf32>, %w: tensor<1x80x10xf32>, %r: tensor<1x80x20xf32>, %b: tensor<1x80xf32>) {
  // expected-error @+2 {{graph.lstm: B has shape [1, 80], expected [1, 160]}}
  // expected-error @+1 {{failed to infer returned types}}
  %0:3 = graph.lstm %x, %w, %r bias(%b) {hidden_size = 20 : i64} : (tensor<7x4x10xf32>, tensor<1x80x10xf32>, tensor<1x80x20xf32>, tensor<1x80xf32>) -> (tensor<7x1x4x20xf32>, tensor<1x4x20xf32>, tensor<1x4x20xf32>)
  return
}

// -----
// lstm: sequence_lens per time step
func.func @f(%x: tensor<7x4x10xf32>, %w: tensor<1x80x10xf32>, %r: tensor<1x80x20xf32>, %l: tensor<7xi32>) {
  // expected-error @+2 {{graph.lstm: sequence_lens has shape [7], expected [4]}}
  // expected-error @+1 {{failed to infer returned types}}
  %0:3 = graph.lstm %x, %w, %r sequence_lens(%l) {hidden_size = 20 : i64} : (tensor<7x4x10xf32>, tensor<1x80x10xf32>, tensor<1x80x20xf32>, tensor<7xi32>) -> (tensor<7x1x4x20xf32>, tensor<1x4x20xf32>, tensor<1x4x20xf32>)
  return
}

// -----
// lstm: initial_h of input size
func.func @f(%x: tensor<7x4x10xf32>, %w: tensor<1x80x10xf32>, %r: tensor<1x80x20xf32>, %h: tensor<1x4x10xf32>) {
  // expected-error @+2 {{graph.lstm: initial_h has shape [1, 4, 10], expected [1, 4, 20]}}
  // expected-error @+1 {{failed to infer returned types}}
  %0:3 = graph.lstm %x, %w, %r initial_h(%h) {hidden_size = 20 : i64} : (tensor<7x4x10xf32>, tensor<1x80x10xf32>, tensor<1x80x20xf32>, tensor<1x4x10xf32>) -> (tensor<7x1x4x20xf32>, tensor<1x4x20xf32>, tensor<1x4x20xf32>)
  return
}

// -----
// lstm: initial_c without directions
func.func @f(%x: tensor<7x4x10xf32>, %w: tensor<1x80x10xf32>, %r: tensor<1x80x20xf32>, %c: tensor<4x20xf32>) {
  // expected-error @+2 {{graph.lstm: initial_c has shape [4, 20], expected [1, 4, 20]}}
  // expected-error @+1 {{failed to infer returned types}}
  %0:3 = graph.lstm %x, %w, %r initial_c(%c) {hidden_size = 20 : i64} : (tensor<7x4x10xf32>, tensor<1x80x10xf32>, tensor<1x80x20xf32>, tensor<4x20xf32>) -> (tensor<7x1x4x20xf32>, tensor<1x4x20xf32>, tensor<1x4x20xf32>)
  return
}

// -----
// lstm: peepholes for four gates
func.func @f(%x: tensor<7x4x10xf32>, %w: tensor<1x80x10xf32>, %r: tensor<1x80x20xf32>, %p: tensor<1x80xf32>) {
  // expected-error @+2 {{graph.lstm: P has shape [1, 80], expected [1, 60]}}
  // expected-error @+1 {{failed to infer returned types}}
  %0:3 = graph.lstm %x, %w, %r peepholes(%p) {hidden_size = 20 : i64} : (tensor<7x4x10xf32>, tensor<1x80x10xf32>, tensor<1x80x20xf32>, tensor<1x80xf32>) -> (tensor<7x1x4x20xf32>, tensor<1x4x20xf32>, tensor<1x4x20xf32>)
  return
}

// -----
// gru: W with LSTM's four gates
func.func @f(%x: tensor<5x2x8xf32>, %w: tensor<1x64x8xf32>, %r: tensor<1x48x16xf32>) {
  // expected-error @+2 {{graph.gru: W has shape [1, 64, 8], expected [1, 48, 8]}}
  // expected-error @+1 {{failed to infer returned types}}
  %0:2 = graph.gru %x, %w, %r {hidden_size = 16 : i64} : (tensor<5x2x8xf32>, tensor<1x64x8xf32>, tensor<1x48x16xf32>) -> (tensor<5x1x2x16xf32>, tensor<1x2x16xf32>)
  return
}

// -----
// gru: two activations per direction
func.func @f(%x: tensor<5x2x8xf32>, %w: tensor<1x48x8xf32>, %r: tensor<1x48x16xf32>) {
  // expected-error @+2 {{graph.gru: expected 2 activations (2 per direction), got 3}}
  // expected-error @+1 {{failed to infer returned types}}
  %0:2 = graph.gru %x, %w, %r {hidden_size = 16 : i64, activations = ["Sigmoid", "Tanh", "Tanh"]} : (tensor<5x2x8xf32>, tensor<1x48x8xf32>, tensor<1x48x16xf32>) -> (tensor<5x1x2x16xf32>, tensor<1x2x16xf32>)
  return
}

// -----
// conv: unsigned integers are not taken (ConvInteger casts to i32 first)
func.func @f(%x: tensor<1x1x3x3xui8>, %w: tensor<1x1x2x2xui8>) {
  // expected-error @+1 {{operand #0 must be tensor of floating-point or 8-bit signless integer or 16-bit signless integer or 32-bit signless integer or 64-bit signless integer values}}
  %0 = graph.conv %x, %w : (tensor<1x1x3x3xui8>, tensor<1x1x2x2xui8>) -> tensor<1x1x2x2xui8>
  return
}

// -----
// resize: roi without tf_crop_and_resize
func.func @f(%x: tensor<1x3x8x8xf32>) {
  // expected-error @+2 {{graph.resize: roi is only used by coordinate_mode tf_crop_and_resize, got half_pixel}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = graph.resize %x {sizes = array<i64: 1, 3, 4, 4>, mode = #graph<resize_mode linear>, roi = array<f64: 0.0, 0.0, 0.0, 0.0, 1.0, 1.0, 1.0, 1.0>} : (tensor<1x3x8x8xf32>) -> tensor<1x3x4x4xf32>
  return
}

// -----
// resize: roi of the wrong length
func.func @f(%x: tensor<1x3x8x8xf32>) {
  // expected-error @+2 {{graph.resize: roi has 4 entries, expected 8 (a start and an end per dimension)}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = graph.resize %x {sizes = array<i64: 1, 3, 4, 4>, mode = #graph<resize_mode linear>, coordinate_mode = #graph<coordinate_mode tf_crop_and_resize>, roi = array<f64: 0.0, 0.0, 1.0, 1.0>} : (tensor<1x3x8x8xf32>) -> tensor<1x3x4x4xf32>
  return
}

// -----
// resize: tf_crop_and_resize without a roi
func.func @f(%x: tensor<1x3x8x8xf32>) {
  // expected-error @+2 {{graph.resize: coordinate_mode tf_crop_and_resize needs a roi}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = graph.resize %x {sizes = array<i64: 1, 3, 4, 4>, mode = #graph<resize_mode linear>, coordinate_mode = #graph<coordinate_mode tf_crop_and_resize>} : (tensor<1x3x8x8xf32>) -> tensor<1x3x4x4xf32>
  return
}
