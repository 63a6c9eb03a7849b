// RUN: graph-opt %s -split-input-file -verify-diagnostics

// One case per check of the ops in GraphSamplingOps.td.

func.func @f1(%x: tensor<1x1x4x4xf32>, %g: tensor<1x2x2x2xf64>) {
  // expected-error @+2 {{graph.grid_sample: grid element type 'f64' does not match the input's 'f32'}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = graph.grid_sample %x, %g : (tensor<1x1x4x4xf32>, tensor<1x2x2x2xf64>) -> tensor<1x1x2x2xf32>
  return
}

// -----

func.func @f2(%x: tensor<1x4xf32>, %g: tensor<1x2xf32>) {
  // expected-error @+2 {{graph.grid_sample: input rank 2 is below 3 (N, C and a spatial dimension)}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = graph.grid_sample %x, %g : (tensor<1x4xf32>, tensor<1x2xf32>) -> tensor<1x4xf32>
  return
}

// -----

func.func @f3(%x: tensor<1x1x4x4xf32>, %g: tensor<1x2x2x2x2xf32>) {
  // expected-error @+2 {{graph.grid_sample: grid rank 5 does not match the input rank 4}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = graph.grid_sample %x, %g : (tensor<1x1x4x4xf32>, tensor<1x2x2x2x2xf32>) -> tensor<1x1x2x2xf32>
  return
}

// -----

func.func @f4(%x: tensor<1x1x4x4xf32>, %g: tensor<1x2x2x3xf32>) {
  // expected-error @+2 {{graph.grid_sample: grid points have 3 components for 2 spatial dimensions}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = graph.grid_sample %x, %g : (tensor<1x1x4x4xf32>, tensor<1x2x2x3xf32>) -> tensor<1x1x2x2xf32>
  return
}

// -----

func.func @f5(%x: tensor<1x1x4x4xf32>, %g: tensor<2x2x2x2xf32>) {
  // expected-error @+2 {{graph.grid_sample: grid batch 2 does not match the input batch 1}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = graph.grid_sample %x, %g : (tensor<1x1x4x4xf32>, tensor<2x2x2x2xf32>) -> tensor<1x1x2x2xf32>
  return
}

// -----

func.func @f6(%x: tensor<1x1x1xf32>) {
  // expected-error @+2 {{graph.col2im: image_shape is empty}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = graph.col2im %x {image_shape = array<i64>, block_shape = array<i64>} : (tensor<1x1x1xf32>) -> tensor<1x1xf32>
  return
}

// -----

func.func @f7(%x: tensor<1x2x4xf32>) {
  // expected-error @+2 {{graph.col2im: block_shape has 1 entries for 2 image dimensions}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = graph.col2im %x {image_shape = array<i64: 2, 2>, block_shape = array<i64: 2>} : (tensor<1x2x4xf32>) -> tensor<1x1x2x2xf32>
  return
}

// -----

func.func @f8(%x: tensor<1x1x4xf32>) {
  // expected-error @+2 {{graph.col2im: dilations and strides need 2 entries, not 2 and 1}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = graph.col2im %x {image_shape = array<i64: 2, 2>, block_shape = array<i64: 1, 1>, dilations = array<i64: 1, 1>, strides = array<i64: 1>} : (tensor<1x1x4xf32>) -> tensor<1x1x2x2xf32>
  return
}

// -----

func.func @f9(%x: tensor<1x1x4xf32>) {
  // expected-error @+2 {{graph.col2im: pads has 2 entries, not 4}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = graph.col2im %x {image_shape = array<i64: 2, 2>, block_shape = array<i64: 1, 1>, pads = array<i64: 0, 0>} : (tensor<1x1x4xf32>) -> tensor<1x1x2x2xf32>
  return
}

// -----

func.func @f10(%x: tensor<1x1x4xf32>) {
  // expected-error @+2 {{graph.col2im: dimension 1 has image 2, block 1, dilation 1, stride 0, pads 0 and 0 (sizes must be positive, pads non-negative)}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = graph.col2im %x {image_shape = array<i64: 2, 2>, block_shape = array<i64: 1, 1>, strides = array<i64: 1, 0>} : (tensor<1x1x4xf32>) -> tensor<1x1x2x2xf32>
  return
}

// -----

func.func @f11(%x: tensor<1x3x1xf32>) {
  // expected-error @+2 {{graph.col2im: dilated block size 5 exceeds the padded image size 4 in dimension 0}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = graph.col2im %x {image_shape = array<i64: 4>, block_shape = array<i64: 3>, dilations = array<i64: 2>} : (tensor<1x3x1xf32>) -> tensor<1x1x4xf32>
  return
}

// -----

func.func @f12(%x: tensor<1x4xf32>) {
  // expected-error @+2 {{graph.col2im: input rank 2 is not 3 (N, C * block, positions)}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = graph.col2im %x {image_shape = array<i64: 2, 2>, block_shape = array<i64: 1, 1>} : (tensor<1x4xf32>) -> tensor<1x1x2x2xf32>
  return
}

// -----

func.func @f13(%x: tensor<1x3x3xf32>) {
  // expected-error @+2 {{graph.col2im: input dimension 1 (3) is not a multiple of the block size 2}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = graph.col2im %x {image_shape = array<i64: 4>, block_shape = array<i64: 2>} : (tensor<1x3x3xf32>) -> tensor<1x1x4xf32>
  return
}

// -----

func.func @f14(%x: tensor<1x4x5xf32>) {
  // expected-error @+2 {{graph.col2im: input has 5 block positions, the image and block give 4}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = graph.col2im %x {image_shape = array<i64: 2, 2>, block_shape = array<i64: 1, 1>} : (tensor<1x4x5xf32>) -> tensor<1x4x2x2xf32>
  return
}

// -----

func.func @f15(%x: tensor<4xi64>) {
  // expected-error @+2 {{graph.bitcast: target type 'index' is not a float, signless or unsigned integer type}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = graph.bitcast %x {to = index} : (tensor<4xi64>) -> tensor<4xi64>
  return
}

// -----

func.func @f16(%x: tensor<4xf32>) {
  // expected-error @+2 {{graph.bitcast: 'f32' (32 bits) and 'i16' (16 bits) differ in width}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = graph.bitcast %x {to = i16} : (tensor<4xf32>) -> tensor<4xi16>
  return
}

// -----

func.func @f17(%x: tensor<4xi1>) {
  // expected-error @+2 {{graph.bitcast: 'i1' (8 bits) and 'i32' (32 bits) differ in width}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = graph.bitcast %x {to = i32} : (tensor<4xi1>) -> tensor<4xi32>
  return
}
