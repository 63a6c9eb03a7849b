// RUN: graph-opt %s -split-input-file -verify-diagnostics

// One case per check of the data-movement ops.

func.func @f1(%x: tensor<2x3xf32>) {
  // expected-error @+2 {{graph.reshape: more than one -1 in shape [-1, -1]}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = graph.reshape %x {shape = array<i64: -1, -1>} : (tensor<2x3xf32>) -> tensor<?x?xf32>
  return
}

// -----

func.func @f2(%x: tensor<2x3xf32>) {
  // expected-error @+2 {{graph.reshape: size -2 at index 1 of shape [3, -2] is negative}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = graph.reshape %x {shape = array<i64: 3, -2>} : (tensor<2x3xf32>) -> tensor<3x2xf32>
  return
}

// -----

func.func @f3(%x: tensor<?x3xf32>) {
  // expected-error @+2 {{graph.reshape: cannot infer the -1 in shape [0, -1] because the other sizes multiply to 0}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = graph.reshape %x {shape = array<i64: 0, -1>} : (tensor<?x3xf32>) -> tensor<0x?xf32>
  return
}

// -----

func.func @f4(%x: tensor<2x3x4xf32>) {
  // expected-error @+2 {{graph.reshape: cannot reshape 24 elements into shape [5, -1]}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = graph.reshape %x {shape = array<i64: 5, -1>} : (tensor<2x3x4xf32>) -> tensor<5x?xf32>
  return
}

// -----

func.func @f5(%x: tensor<2x3x4xf32>) {
  // expected-error @+2 {{graph.reshape: cannot reshape 24 elements into shape [5, 4] of 20 elements}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = graph.reshape %x {shape = array<i64: 5, 4>} : (tensor<2x3x4xf32>) -> tensor<5x4xf32>
  return
}

// -----

func.func @f6(%x: tensor<2x3x4xf32>) {
  // expected-error @+2 {{'graph.reshape' op inferred type(s) 'tensor<6x4xf32>' are incompatible with return type(s) of operation 'tensor<4x6xf32>'}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = graph.reshape %x {shape = array<i64: 6, 4>} : (tensor<2x3x4xf32>) -> tensor<4x6xf32>
  return
}

// -----

func.func @f7(%x: tensor<4xf32>, %s: tensor<0xi64>) {
  // expected-error @+2 {{graph.dynamic_reshape: cannot reshape 4 elements into a 0-d tensor}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = graph.dynamic_reshape %x, %s : (tensor<4xf32>, tensor<0xi64>) -> tensor<f32>
  return
}

// -----

func.func @f8(%x: tensor<4xf32>, %s: tensor<2xi32>) {
  // expected-error @+1 {{operand #1 must be 1D tensor of 64-bit signless integer values}}
  %0 = graph.dynamic_reshape %x, %s : (tensor<4xf32>, tensor<2xi32>) -> tensor<?x?xf32>
  return
}

// -----

func.func @f9(%x: tensor<2x3xf32>) {
  // expected-error @+2 {{graph.transpose: perm [1, 0, 2] has 3 entries for an input of rank 2}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = graph.transpose %x {perm = array<i64: 1, 0, 2>} : (tensor<2x3xf32>) -> tensor<*xf32>
  return
}

// -----

func.func @f10(%x: tensor<*xf32>) {
  // expected-error @+2 {{graph.transpose: perm [1, 1] is not a permutation of 0..1}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = graph.transpose %x {perm = array<i64: 1, 1>} : (tensor<*xf32>) -> tensor<*xf32>
  return
}

// -----

func.func @f11() {
  // expected-error @+2 {{graph.concat: needs at least one input}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = graph.concat {axis = 0 : i64} : () -> tensor<*xf32>
  return
}

// -----

func.func @f12(%a: tensor<2xf32>, %b: tensor<2xf16>) {
  // expected-error @+2 {{graph.concat: input 1 element type 'f16' does not match 'f32'}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = graph.concat %a, %b {axis = 0 : i64} : (tensor<2xf32>, tensor<2xf16>) -> tensor<4xf32>
  return
}

// -----

func.func @f13(%a: tensor<2x3xf32>, %b: tensor<2xf32>) {
  // expected-error @+2 {{graph.concat: input 1 has rank 1 but earlier inputs have rank 2}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = graph.concat %a, %b {axis = 0 : i64} : (tensor<2x3xf32>, tensor<2xf32>) -> tensor<*xf32>
  return
}

// -----

func.func @f14(%a: tensor<2x3xf32>, %b: tensor<?x4xf32>) {
  // expected-error @+2 {{graph.concat: input 1 has size 4 in dimension 1 where earlier inputs have 3}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = graph.concat %a, %b {axis = 0 : i64} : (tensor<2x3xf32>, tensor<?x4xf32>) -> tensor<*xf32>
  return
}

// -----

func.func @f15(%a: tensor<2x3xf32>) {
  // expected-error @+2 {{graph.concat: axis 2 is out of range for rank 2}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = graph.concat %a {axis = 2 : i64} : (tensor<2x3xf32>) -> tensor<*xf32>
  return
}

// -----

func.func @f16(%x: tensor<4xf32>) {
  // expected-error @+2 {{graph.split: sizes must not be empty}}
  // expected-error @+1 {{failed to infer returned types}}
  graph.split %x {axis = 0 : i64, sizes = array<i64>} : (tensor<4xf32>) -> ()
  return
}

// -----

func.func @f17(%x: tensor<4xf32>) {
  // expected-error @+2 {{graph.split: sizes [-1, -1] may hold non-negative sizes and one -1}}
  // expected-error @+1 {{failed to infer returned types}}
  %0:2 = graph.split %x {axis = 0 : i64, sizes = array<i64: -1, -1>} : (tensor<4xf32>) -> (tensor<?xf32>, tensor<?xf32>)
  return
}

// -----

func.func @f18(%x: tensor<4xf32>) {
  // expected-error @+2 {{graph.split: axis 1 is out of range for rank 1}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = graph.split %x {axis = 1 : i64, sizes = array<i64: 4>} : (tensor<4xf32>) -> tensor<4xf32>
  return
}

// -----

func.func @f19(%x: tensor<2x8xf32>) {
  // expected-error @+2 {{graph.split: sizes [3, 4] do not add up to 8, the size of axis 1}}
  // expected-error @+1 {{failed to infer returned types}}
  %0:2 = graph.split %x {axis = 1 : i64, sizes = array<i64: 3, 4>} : (tensor<2x8xf32>) -> (tensor<2x3xf32>, tensor<2x4xf32>)
  return
}

// -----

func.func @f20(%x: tensor<2x8xf32>) {
  // expected-error @+2 {{graph.split: sizes [9, -1] do not add up to 8, the size of axis 1}}
  // expected-error @+1 {{failed to infer returned types}}
  %0:2 = graph.split %x {axis = 1 : i64, sizes = array<i64: 9, -1>} : (tensor<2x8xf32>) -> (tensor<2x9xf32>, tensor<2x?xf32>)
  return
}

// -----

func.func @f21(%x: tensor<2x8xf32>) {
  // expected-error @+2 {{'graph.split' op inferred type(s) 'tensor<2x4xf32>', 'tensor<2x4xf32>' are incompatible with return type(s) of operation 'tensor<2x4xf32>'}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = graph.split %x {axis = 1 : i64, sizes = array<i64: 4, 4>} : (tensor<2x8xf32>) -> tensor<2x4xf32>
  return
}

// -----

func.func @f22(%x: tensor<4x4xf32>) {
  // expected-error @+2 {{graph.slice: starts, limits and strides have 2, 1 and 2 entries}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = graph.slice %x {starts = array<i64: 0, 0>, limits = array<i64: 4>, strides = array<i64: 1, 1>} : (tensor<4x4xf32>) -> tensor<4x4xf32>
  return
}

// -----

func.func @f23(%x: tensor<4x4xf32>) {
  // expected-error @+2 {{graph.slice: 1 entries per attribute for an input of rank 2}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = graph.slice %x {starts = array<i64: 0>, limits = array<i64: 4>, strides = array<i64: 1>} : (tensor<4x4xf32>) -> tensor<4xf32>
  return
}

// -----

func.func @f24(%x: tensor<4xf32>) {
  // expected-error @+2 {{graph.slice: stride of dimension 0 is 0}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = graph.slice %x {starts = array<i64: 0>, limits = array<i64: 4>, strides = array<i64: 0>} : (tensor<4xf32>) -> tensor<4xf32>
  return
}

// -----

func.func @f25(%x: tensor<4xf32>) {
  // expected-error @+2 {{graph.slice: start 5 of dimension 0 is outside [0, 4] for stride 1}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = graph.slice %x {starts = array<i64: 5>, limits = array<i64: 4>, strides = array<i64: 1>} : (tensor<4xf32>) -> tensor<0xf32>
  return
}

// -----

func.func @f26(%x: tensor<4xf32>) {
  // expected-error @+2 {{graph.slice: limit -2 of dimension 0 is outside [-1, 3] for stride -1}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = graph.slice %x {starts = array<i64: 3>, limits = array<i64: -2>, strides = array<i64: -1>} : (tensor<4xf32>) -> tensor<5xf32>
  return
}

// -----

func.func @f27(%x: tensor<4xf32>) {
  // expected-error @+2 {{graph.slice: start 4 of dimension 0 is outside [-1, 3] for stride -1}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = graph.slice %x {starts = array<i64: 4>, limits = array<i64: 0>, strides = array<i64: -1>} : (tensor<4xf32>) -> tensor<4xf32>
  return
}

// -----

func.func @f28(%x: tensor<?xf32>) {
  // expected-error @+2 {{graph.slice: start -1 of dimension 0 is below 0 for stride 1}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = graph.slice %x {starts = array<i64: -1>, limits = array<i64: 2>, strides = array<i64: 1>} : (tensor<?xf32>) -> tensor<3xf32>
  return
}

// -----

func.func @f29(%x: tensor<4x5xf32>, %i: tensor<3xi64>) {
  // expected-error @+2 {{graph.gather: batch_dims -1 is negative}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = graph.gather %x, %i {batch_dims = -1 : i64} : (tensor<4x5xf32>, tensor<3xi64>) -> tensor<*xf32>
  return
}

// -----

func.func @f30(%x: tensor<4x5xf32>, %i: tensor<3xi64>) {
  // expected-error @+2 {{graph.gather: axis -3 is out of range for rank 2}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = graph.gather %x, %i {axis = -3 : i64} : (tensor<4x5xf32>, tensor<3xi64>) -> tensor<*xf32>
  return
}

// -----

func.func @f31(%x: tensor<4x5x6xf32>, %i: tensor<4xi64>) {
  // expected-error @+2 {{graph.gather: batch_dims 2 exceeds the indices rank 1}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = graph.gather %x, %i {axis = 2 : i64, batch_dims = 2 : i64} : (tensor<4x5x6xf32>, tensor<4xi64>) -> tensor<*xf32>
  return
}

// -----

func.func @f32(%x: tensor<4x5xf32>, %i: tensor<4x3xi64>) {
  // expected-error @+2 {{graph.gather: batch_dims 1 exceeds the axis 0}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = graph.gather %x, %i {axis = 0 : i64, batch_dims = 1 : i64} : (tensor<4x5xf32>, tensor<4x3xi64>) -> tensor<*xf32>
  return
}

// -----

func.func @f33(%x: tensor<4x5xf32>, %i: tensor<3x2xi64>) {
  // expected-error @+2 {{graph.gather: batch dimension 0 is 4 in the input but 3 in the indices}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = graph.gather %x, %i {axis = 1 : i64, batch_dims = 1 : i64} : (tensor<4x5xf32>, tensor<3x2xi64>) -> tensor<*xf32>
  return
}

// -----

func.func @f34(%x: tensor<4x5xf32>, %i: tensor<3xf32>) {
  // expected-error @+1 {{operand #1 must be tensor of 32-bit signless integer or 64-bit signless integer values}}
  %0 = graph.gather %x, %i : (tensor<4x5xf32>, tensor<3xf32>) -> tensor<*xf32>
  return
}

// -----

func.func @f35(%x: tensor<4x5xf32>, %i: tensor<3x1xi64>) {
  // expected-error @+2 {{graph.gather_nd: batch_dims -1 is negative}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = graph.gather_nd %x, %i {batch_dims = -1 : i64} : (tensor<4x5xf32>, tensor<3x1xi64>) -> tensor<*xf32>
  return
}

// -----

func.func @f36(%x: tensor<4x5xf32>, %i: tensor<4x1xi64>) {
  // expected-error @+2 {{graph.gather_nd: batch_dims 2 must be less than the input rank 2 and the indices rank 2}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = graph.gather_nd %x, %i {batch_dims = 2 : i64} : (tensor<4x5xf32>, tensor<4x1xi64>) -> tensor<*xf32>
  return
}

// -----

func.func @f37(%x: tensor<4x5xf32>, %i: tensor<4x3xi64>) {
  // expected-error @+2 {{graph.gather_nd: index depth 3 (last dimension of the indices) is outside [1, 2]}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = graph.gather_nd %x, %i : (tensor<4x5xf32>, tensor<4x3xi64>) -> tensor<*xf32>
  return
}

// -----

func.func @f38(%x: tensor<4x5xf32>, %i: tensor<3x1xi64>) {
  // expected-error @+2 {{graph.gather_nd: batch dimension 0 is 4 in the input but 3 in the indices}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = graph.gather_nd %x, %i {batch_dims = 1 : i64} : (tensor<4x5xf32>, tensor<3x1xi64>) -> tensor<*xf32>
  return
}

// -----

func.func @f39(%x: tensor<3x5xf32>, %i: tensor<3x2xi64>, %v: tensor<3x2xf16>) {
  // expected-error @+2 {{graph.scatter_elements: updates element type 'f16' does not match the input element type 'f32'}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = graph.scatter_elements %x, %i, %v : (tensor<3x5xf32>, tensor<3x2xi64>, tensor<3x2xf16>) -> tensor<3x5xf32>
  return
}

// -----

func.func @f40(%x: tensor<3x5xf32>, %i: tensor<3x2xi64>, %v: tensor<6xf32>) {
  // expected-error @+2 {{graph.scatter_elements: indices shape [3, 2] and updates shape [6] differ}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = graph.scatter_elements %x, %i, %v : (tensor<3x5xf32>, tensor<3x2xi64>, tensor<6xf32>) -> tensor<3x5xf32>
  return
}

// -----

func.func @f41(%x: tensor<3x5xf32>, %i: tensor<3x2xi64>, %v: tensor<3x3xf32>) {
  // expected-error @+2 {{graph.scatter_elements: indices shape [3, 2] and updates shape [3, 3] differ}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = graph.scatter_elements %x, %i, %v : (tensor<3x5xf32>, tensor<3x2xi64>, tensor<3x3xf32>) -> tensor<3x5xf32>
  return
}

// -----

func.func @f42(%x: tensor<3x5xf32>, %i: tensor<3x2xi64>, %v: tensor<3x2xf32>) {
  // expected-error @+2 {{graph.scatter_elements: axis 2 is out of range for rank 2}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = graph.scatter_elements %x, %i, %v {axis = 2 : i64} : (tensor<3x5xf32>, tensor<3x2xi64>, tensor<3x2xf32>) -> tensor<3x5xf32>
  return
}

// -----

func.func @f43(%x: tensor<3x5xf32>, %i: tensor<6xi64>, %v: tensor<6xf32>) {
  // expected-error @+2 {{graph.scatter_elements: indices and updates have rank 1 but the input has rank 2}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = graph.scatter_elements %x, %i, %v : (tensor<3x5xf32>, tensor<6xi64>, tensor<6xf32>) -> tensor<3x5xf32>
  return
}

// -----

func.func @f44(%x: tensor<3x5xf32>, %i: tensor<4x2xi64>, %v: tensor<*xf32>) {
  // expected-error @+2 {{graph.scatter_elements: indices and updates have 4 elements in dimension 0, more than the input's 3}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = graph.scatter_elements %x, %i, %v {axis = 1 : i64} : (tensor<3x5xf32>, tensor<4x2xi64>, tensor<*xf32>) -> tensor<3x5xf32>
  return
}

// -----

func.func @f45(%x: tensor<4x5xf32>, %i: tensor<2x1xi64>, %v: tensor<2x5xi32>) {
  // expected-error @+2 {{graph.scatter_nd: updates element type 'i32' does not match the input element type 'f32'}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = graph.scatter_nd %x, %i, %v : (tensor<4x5xf32>, tensor<2x1xi64>, tensor<2x5xi32>) -> tensor<4x5xf32>
  return
}

// -----

func.func @f46(%x: tensor<4x5xf32>, %i: tensor<i64>, %v: tensor<5xf32>) {
  // expected-error @+2 {{graph.scatter_nd: indices must have rank >= 1}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = graph.scatter_nd %x, %i, %v : (tensor<4x5xf32>, tensor<i64>, tensor<5xf32>) -> tensor<4x5xf32>
  return
}

// -----

func.func @f47(%x: tensor<4x5xf32>, %i: tensor<2x3xi64>, %v: tensor<2xf32>) {
  // expected-error @+2 {{graph.scatter_nd: index depth 3 (last dimension of the indices) is outside [1, 2]}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = graph.scatter_nd %x, %i, %v : (tensor<4x5xf32>, tensor<2x3xi64>, tensor<2xf32>) -> tensor<4x5xf32>
  return
}

// -----

func.func @f48(%x: tensor<4x5xf32>, %i: tensor<2x1xi64>, %v: tensor<2x4xf32>) {
  // expected-error @+2 {{graph.scatter_nd: updates shape [2, 4] does not match [2, 5] (indices.shape[:-1] + input.shape[1:])}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = graph.scatter_nd %x, %i, %v : (tensor<4x5xf32>, tensor<2x1xi64>, tensor<2x4xf32>) -> tensor<4x5xf32>
  return
}

// -----

func.func @f49(%x: tensor<2x3xf32>, %z: tensor<f16>) {
  // expected-error @+2 {{graph.pad: padding value element type 'f16' does not match the input element type 'f32'}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = graph.pad %x, %z {low = array<i64: 0, 0>, high = array<i64: 0, 0>} : (tensor<2x3xf32>, tensor<f16>) -> tensor<2x3xf32>
  return
}

// -----

func.func @f50(%x: tensor<2x3xf32>, %z: tensor<1xf32>) {
  // expected-error @+1 {{operand #1 must be 0D tensor of any type values}}
  %0 = graph.pad %x, %z {low = array<i64: 0, 0>, high = array<i64: 0, 0>} : (tensor<2x3xf32>, tensor<1xf32>) -> tensor<2x3xf32>
  return
}

// -----

func.func @f51(%x: tensor<*xf32>, %z: tensor<f32>) {
  // expected-error @+2 {{graph.pad: low has 2 entries but high has 1}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = graph.pad %x, %z {low = array<i64: 0, 0>, high = array<i64: 0>} : (tensor<*xf32>, tensor<f32>) -> tensor<*xf32>
  return
}

// -----

func.func @f52(%x: tensor<2x3xf32>, %z: tensor<f32>) {
  // expected-error @+2 {{graph.pad: low and high have 1 entries for an input of rank 2}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = graph.pad %x, %z {low = array<i64: 1>, high = array<i64: 1>} : (tensor<2x3xf32>, tensor<f32>) -> tensor<*xf32>
  return
}

// -----

func.func @f53(%x: tensor<2x3xf32>, %z: tensor<f32>) {
  // expected-error @+2 {{graph.pad: pad (-1, 0) of dimension 1 is negative}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = graph.pad %x, %z {low = array<i64: 0, -1>, high = array<i64: 0, 0>} : (tensor<2x3xf32>, tensor<f32>) -> tensor<*xf32>
  return
}

// -----

func.func @f54(%x: tensor<2x3xf32>, %z: tensor<f32>) {
  // expected-error @+2 {{graph.pad: reflect pad (1, 3) of dimension 1 must be smaller than its size 3}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = graph.pad %x, %z {low = array<i64: 0, 1>, high = array<i64: 0, 3>, mode = #graph<pad_mode reflect>} : (tensor<2x3xf32>, tensor<f32>) -> tensor<*xf32>
  return
}

// -----

func.func @f55(%x: tensor<2x0xf32>, %z: tensor<f32>) {
  // expected-error @+2 {{graph.pad: edge pad of dimension 1, which is empty}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = graph.pad %x, %z {low = array<i64: 0, 1>, high = array<i64: 0, 0>, mode = #graph<pad_mode edge>} : (tensor<2x0xf32>, tensor<f32>) -> tensor<*xf32>
  return
}

// -----

func.func @f56(%x: tensor<3xf32>) {
  // expected-error @+2 {{graph.broadcast_to: shape [-1, 3] has a negative size}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = graph.broadcast_to %x {shape = array<i64: -1, 3>} : (tensor<3xf32>) -> tensor<?x3xf32>
  return
}

// -----

func.func @f57(%x: tensor<2x3xf32>) {
  // expected-error @+2 {{graph.broadcast_to: cannot broadcast rank 2 to shape [3] of rank 1}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = graph.broadcast_to %x {shape = array<i64: 3>} : (tensor<2x3xf32>) -> tensor<3xf32>
  return
}

// -----

func.func @f58(%x: tensor<3x1xf32>) {
  // expected-error @+2 {{graph.broadcast_to: cannot broadcast input shape [3, 1] to [2, 4, 5]: dimension 0 is 3}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = graph.broadcast_to %x {shape = array<i64: 2, 4, 5>} : (tensor<3x1xf32>) -> tensor<2x4x5xf32>
  return
}

// -----

func.func @f59(%x: tensor<1x3xf32>) {
  // expected-error @+2 {{graph.squeeze: axis 2 is out of range for rank 2}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = graph.squeeze %x {axes = array<i64: 2>} : (tensor<1x3xf32>) -> tensor<*xf32>
  return
}

// -----

func.func @f60(%x: tensor<1x3xf32>) {
  // expected-error @+2 {{graph.squeeze: axis -2 repeats dimension 0 in axes [0, -2]}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = graph.squeeze %x {axes = array<i64: 0, -2>} : (tensor<1x3xf32>) -> tensor<*xf32>
  return
}

// -----

func.func @f61(%x: tensor<1x3xf32>) {
  // expected-error @+2 {{graph.squeeze: cannot squeeze dimension 1 of size 3}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = graph.squeeze %x {axes = array<i64: 1>} : (tensor<1x3xf32>) -> tensor<*xf32>
  return
}

// -----

func.func @f62(%x: tensor<3xf32>) {
  // expected-error @+2 {{graph.unsqueeze: axis 2 is out of range for rank 2}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = graph.unsqueeze %x {axes = array<i64: 2>} : (tensor<3xf32>) -> tensor<*xf32>
  return
}

// -----

func.func @f63(%x: tensor<3xf32>) {
  // expected-error @+2 {{graph.unsqueeze: axis -1 repeats dimension 2 in axes [2, -1]}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = graph.unsqueeze %x {axes = array<i64: 2, -1>} : (tensor<3xf32>) -> tensor<*xf32>
  return
}

// -----

func.func @f64(%x: tensor<3xf32>) {
  // expected-error @+2 {{graph.tile: multiples [-1] has a negative entry}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = graph.tile %x {multiples = array<i64: -1>} : (tensor<3xf32>) -> tensor<*xf32>
  return
}

// -----

func.func @f65(%x: tensor<3xf32>) {
  // expected-error @+2 {{graph.tile: multiples has 2 entries for an input of rank 1}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = graph.tile %x {multiples = array<i64: 1, 2>} : (tensor<3xf32>) -> tensor<*xf32>
  return
}

// -----

func.func @f66(%l: tensor<8xi64>, %on: tensor<f32>) {
  // expected-error @+2 {{graph.one_hot: depth 0 is not positive}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = graph.one_hot %l, %on, %on {depth = 0 : i64} : (tensor<8xi64>, tensor<f32>, tensor<f32>) -> tensor<*xf32>
  return
}

// -----

func.func @f67(%l: tensor<8xi64>, %on: tensor<f32>, %off: tensor<i32>) {
  // expected-error @+2 {{graph.one_hot: on_value element type 'f32' differs from off_value element type 'i32'}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = graph.one_hot %l, %on, %off {depth = 4 : i64} : (tensor<8xi64>, tensor<f32>, tensor<i32>) -> tensor<*xf32>
  return
}

// -----

func.func @f68(%l: tensor<8xi64>, %on: tensor<f32>) {
  // expected-error @+2 {{graph.one_hot: axis 2 is out of range for rank 2}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = graph.one_hot %l, %on, %on {axis = 2 : i64, depth = 4 : i64} : (tensor<8xi64>, tensor<f32>, tensor<f32>) -> tensor<*xf32>
  return
}

// -----

func.func @f69(%l: tensor<8xi64>, %on: tensor<2xf32>) {
  // expected-error @+1 {{operand #1 must be 0D tensor of any type values}}
  %0 = graph.one_hot %l, %on, %on {depth = 4 : i64} : (tensor<8xi64>, tensor<2xf32>, tensor<2xf32>) -> tensor<*xf32>
  return
}

// -----

func.func @f70(%l: tensor<8xf32>, %on: tensor<f32>) {
  // expected-error @+1 {{operand #0 must be tensor of 32-bit signless integer or 64-bit signless integer values}}
  %0 = graph.one_hot %l, %on, %on {depth = 4 : i64} : (tensor<8xf32>, tensor<f32>, tensor<f32>) -> tensor<*xf32>
  return
}

// -----

func.func @f71(%x: tensor<*xf32>) {
  // expected-error @+2 {{graph.shape: input must be ranked, not 'tensor<*xf32>'}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = graph.shape %x : (tensor<*xf32>) -> tensor<?xi64>
  return
}

// -----

func.func @f72(%x: tensor<2x3xf32>) {
  // expected-error @+1 {{result #0 must be 1D tensor of 64-bit signless integer values}}
  %0 = graph.shape %x : (tensor<2x3xf32>) -> tensor<2xi32>
  return
}
