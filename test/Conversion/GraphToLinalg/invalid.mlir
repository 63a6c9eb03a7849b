// RUN: graph-opt %s --graph-to-linalg --split-input-file -verify-diagnostics

func.func @unranked(%x: tensor<*xf32>) -> tensor<*xf32> {
  // expected-error @+1 {{graph-to-linalg: unranked tensor not supported; run graph-infer-shapes or give --input-shape}}
  %0 = graph.relu %x : (tensor<*xf32>) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

func.func @lstm_dynamic(%x: tensor<?x4x10xf32>, %w: tensor<1x80x10xf32>, %r: tensor<1x80x20xf32>) -> tensor<?x1x4x20xf32> {
  // expected-error @+2 {{graph-to-linalg: graph.lstm needs static shapes, got 'tensor<?x4x10xf32>'; run graph-infer-shapes or give --input-shape}}
  // expected-error @+1 {{failed to legalize operation 'graph.lstm'}}
  %y, %yh, %yc = graph.lstm %x, %w, %r {hidden_size = 20 : i64} : (tensor<?x4x10xf32>, tensor<1x80x10xf32>, tensor<1x80x20xf32>) -> (tensor<?x1x4x20xf32>, tensor<1x4x20xf32>, tensor<1x4x20xf32>)
  return %y : tensor<?x1x4x20xf32>
}

// -----

func.func @matmul_dynamic(%a: tensor<?x4xf32>, %b: tensor<4x2xf32>) -> tensor<?x2xf32> {
  // expected-error @+2 {{graph-to-linalg: graph.matmul needs static shapes, got 'tensor<?x4xf32>'; run graph-infer-shapes or give --input-shape}}
  // expected-error @+1 {{failed to legalize operation 'graph.matmul'}}
  %0 = graph.matmul %a, %b : (tensor<?x4xf32>, tensor<4x2xf32>) -> tensor<?x2xf32>
  return %0 : tensor<?x2xf32>
}

// -----

func.func @conv_transpose_dynamic(%x: tensor<?x4x3xf32>, %w: tensor<4x2x2xf32>) -> tensor<?x2x4xf32> {
  // expected-error @+2 {{graph-to-linalg: graph.conv_transpose needs static shapes, got 'tensor<?x4x3xf32>'; run graph-infer-shapes or give --input-shape}}
  // expected-error @+1 {{failed to legalize operation 'graph.conv_transpose'}}
  %0 = graph.conv_transpose %x, %w : (tensor<?x4x3xf32>, tensor<4x2x2xf32>) -> tensor<?x2x4xf32>
  return %0 : tensor<?x2x4xf32>
}
