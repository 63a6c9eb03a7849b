// RUN: graph-opt %s --graph-to-linalg --split-input-file -verify-diagnostics

func.func @unranked(%x: tensor<*xf32>) -> tensor<*xf32> {
  // expected-error @+1 {{graph-to-linalg: unranked tensor not supported; run graph-infer-shapes or give --input-shape}}
  %0 = graph.relu %x : (tensor<*xf32>) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

func.func @not_lowered(%x: tensor<1x64x8x8xf32>, %w: tensor<64x32x2x2xf32>) -> tensor<1x32x16x16xf32> {
  // expected-error @+1 {{failed to legalize operation 'graph.conv_transpose'}}
  %0 = graph.conv_transpose %x, %w {strides = array<i64: 2, 2>} : (tensor<1x64x8x8xf32>, tensor<64x32x2x2xf32>) -> tensor<1x32x16x16xf32>
  return %0 : tensor<1x32x16x16xf32>
}

// -----

func.func @matmul_dynamic(%a: tensor<?x4xf32>, %b: tensor<4x2xf32>) -> tensor<?x2xf32> {
  // expected-error @+2 {{graph-to-linalg: graph.matmul needs static shapes, got 'tensor<?x4xf32>'; run graph-infer-shapes or give --input-shape}}
  // expected-error @+1 {{failed to legalize operation 'graph.matmul'}}
  %0 = graph.matmul %a, %b : (tensor<?x4xf32>, tensor<4x2xf32>) -> tensor<?x2xf32>
  return %0 : tensor<?x2xf32>
}

// -----

func.func @conv3d_grouped(%x: tensor<1x4x4x4x4xf32>, %w: tensor<4x2x1x1x1xf32>) -> tensor<1x4x4x4x4xf32> {
  // expected-error @+2 {{graph-to-linalg: grouped 3-d convolution is not lowered yet}}
  // expected-error @+1 {{failed to legalize operation 'graph.conv'}}
  %0 = graph.conv %x, %w {groups = 2 : i64} : (tensor<1x4x4x4x4xf32>, tensor<4x2x1x1x1xf32>) -> tensor<1x4x4x4x4xf32>
  return %0 : tensor<1x4x4x4x4xf32>
}
