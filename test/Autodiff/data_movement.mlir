// Gradient check of graph-autodiff's data-movement rules: reshape,
// transpose, squeeze, unsqueeze, broadcast_to, tile, concat, split, slice
// (strided, reversed), pad, gather, gather_elements, top_k, cumulative sum,
// nearest resize (see gradcheck.py).
//
// RUN: %python %S/gradcheck.py %s --runner %mlir_runner --libs %runner_libs | FileCheck %s
// CHECK-NOT: MISMATCH
// CHECK: gradcheck: 20 of 20 gradients match finite differences

func.func @reshape(%x: tensor<2x6xf64>) -> tensor<3x4xf64> {
  %y = graph.reshape %x {shape = array<i64: 3, 4>} : (tensor<2x6xf64>) -> tensor<3x4xf64>
  %z = graph.mul %y, %y : (tensor<3x4xf64>, tensor<3x4xf64>) -> tensor<3x4xf64>
  return %z : tensor<3x4xf64>
}

func.func @transpose(%x: tensor<2x3x4xf64>) -> tensor<4x2x3xf64> {
  %y = graph.transpose %x {perm = array<i64: 2, 0, 1>} : (tensor<2x3x4xf64>) -> tensor<4x2x3xf64>
  %z = graph.exp %y : (tensor<4x2x3xf64>) -> tensor<4x2x3xf64>
  return %z : tensor<4x2x3xf64>
}

func.func @squeeze(%x: tensor<1x3x1xf64>, %y: tensor<3xf64>) -> (tensor<3xf64>, tensor<1x3x1xf64>) {
  %a = graph.squeeze %x {axes = array<i64: 0, -1>} : (tensor<1x3x1xf64>) -> tensor<3xf64>
  %b = graph.unsqueeze %y {axes = array<i64: 0, -1>} : (tensor<3xf64>) -> tensor<1x3x1xf64>
  %c = graph.mul %a, %y : (tensor<3xf64>, tensor<3xf64>) -> tensor<3xf64>
  %d = graph.mul %b, %x : (tensor<1x3x1xf64>, tensor<1x3x1xf64>) -> tensor<1x3x1xf64>
  return %c, %d : tensor<3xf64>, tensor<1x3x1xf64>
}

func.func @broadcast_to(%x: tensor<3x1xf64>) -> tensor<2x3x4xf64> {
  %y = graph.broadcast_to %x {shape = array<i64: 2, 3, 4>} : (tensor<3x1xf64>) -> tensor<2x3x4xf64>
  %z = graph.tanh %y : (tensor<2x3x4xf64>) -> tensor<2x3x4xf64>
  return %z : tensor<2x3x4xf64>
}

func.func @tile(%x: tensor<2x3xf64>) -> tensor<4x9xf64> {
  %y = graph.tile %x {multiples = array<i64: 2, 3>} : (tensor<2x3xf64>) -> tensor<4x9xf64>
  %z = graph.sin %y : (tensor<4x9xf64>) -> tensor<4x9xf64>
  return %z : tensor<4x9xf64>
}

func.func @concat(%a: tensor<2x3xf64>, %b: tensor<2x2xf64>) -> tensor<2x5xf64> {
  %y = graph.concat %a, %b {axis = -1 : i64} : (tensor<2x3xf64>, tensor<2x2xf64>) -> tensor<2x5xf64>
  %z = graph.mul %y, %y : (tensor<2x5xf64>, tensor<2x5xf64>) -> tensor<2x5xf64>
  return %z : tensor<2x5xf64>
}

// Only two of the three pieces reach the loss; the third gets a zero
// gradient.
func.func @split(%x: tensor<2x7xf64>) -> (tensor<2x3xf64>, tensor<2x2xf64>) {
  %a, %b, %c = graph.split %x {axis = 1 : i64, sizes = array<i64: 3, 2, -1>} : (tensor<2x7xf64>) -> (tensor<2x3xf64>, tensor<2x2xf64>, tensor<2x2xf64>)
  %d = graph.exp %a : (tensor<2x3xf64>) -> tensor<2x3xf64>
  return %d, %c : tensor<2x3xf64>, tensor<2x2xf64>
}

func.func @slice(%x: tensor<5x6xf64>) -> (tensor<2x3xf64>, tensor<3x2xf64>) {
  %a = graph.slice %x {starts = array<i64: 1, 0>, limits = array<i64: 4, 6>, strides = array<i64: 2, 2>} : (tensor<5x6xf64>) -> tensor<2x3xf64>
  %b = graph.slice %x {starts = array<i64: 4, 5>, limits = array<i64: -1, 1>, strides = array<i64: -2, -3>} : (tensor<5x6xf64>) -> tensor<3x2xf64>
  %c = graph.mul %a, %a : (tensor<2x3xf64>, tensor<2x3xf64>) -> tensor<2x3xf64>
  return %c, %b : tensor<2x3xf64>, tensor<3x2xf64>
}

func.func @pad(%x: tensor<2x3xf64>, %v: tensor<f64>) -> tensor<5x4xf64> {
  %y = graph.pad %x, %v {low = array<i64: 1, 0>, high = array<i64: 2, 1>} : (tensor<2x3xf64>, tensor<f64>) -> tensor<5x4xf64>
  %z = graph.mul %y, %y : (tensor<5x4xf64>, tensor<5x4xf64>) -> tensor<5x4xf64>
  return %z : tensor<5x4xf64>
}

// Repeated and negative indices: rows are gathered several times.
// gradcheck @gather ids=int:-4:4
func.func @gather(%table: tensor<4x3xf64>, %ids: tensor<2x3xi64>) -> tensor<2x3x3xf64> {
  %y = graph.gather %table, %ids {axis = 0 : i64} : (tensor<4x3xf64>, tensor<2x3xi64>) -> tensor<2x3x3xf64>
  %z = graph.mul %y, %y : (tensor<2x3x3xf64>, tensor<2x3x3xf64>) -> tensor<2x3x3xf64>
  return %z : tensor<2x3x3xf64>
}

// gradcheck @gather_axis1 ids=int:0:5
func.func @gather_axis1(%x: tensor<2x5x3xf64>, %ids: tensor<4xi32>) -> tensor<2x4x3xf64> {
  %y = graph.gather %x, %ids {axis = 1 : i64} : (tensor<2x5x3xf64>, tensor<4xi32>) -> tensor<2x4x3xf64>
  %z = graph.exp %y : (tensor<2x4x3xf64>) -> tensor<2x4x3xf64>
  return %z : tensor<2x4x3xf64>
}

// Negative and out-of-range indices (clamped by the op) included.
// gradcheck @gather_elements ids=int:-5:6
func.func @gather_elements(%x: tensor<3x4xf64>, %ids: tensor<3x5xi64>) -> tensor<3x5xf64> {
  %y = graph.gather_elements %x, %ids {axis = 1 : i64} : (tensor<3x4xf64>, tensor<3x5xi64>) -> tensor<3x5xf64>
  %z = graph.mul %y, %y : (tensor<3x5xf64>, tensor<3x5xf64>) -> tensor<3x5xf64>
  return %z : tensor<3x5xf64>
}

// gradcheck @top_k x=spread
func.func @top_k(%x: tensor<3x5xf64>) -> (tensor<3x2xf64>, tensor<2x5xf64>) {
  %v, %i = graph.top_k %x {axis = 1 : i64, k = 2 : i64} : (tensor<3x5xf64>) -> (tensor<3x2xf64>, tensor<3x2xi64>)
  %w, %j = graph.top_k %x {axis = 0 : i64, k = 2 : i64, smallest} : (tensor<3x5xf64>) -> (tensor<2x5xf64>, tensor<2x5xi64>)
  return %v, %w : tensor<3x2xf64>, tensor<2x5xf64>
}

func.func @cumsum(%x: tensor<2x5xf64>) -> (tensor<2x5xf64>, tensor<2x5xf64>) {
  %a = graph.cumulative %x {axis = 1 : i64, kind = #graph<reduce_kind sum>} : (tensor<2x5xf64>) -> tensor<2x5xf64>
  %b = graph.cumulative %x {axis = 1 : i64, kind = #graph<reduce_kind sum>, exclusive, reverse} : (tensor<2x5xf64>) -> tensor<2x5xf64>
  %c = graph.mul %a, %a : (tensor<2x5xf64>, tensor<2x5xf64>) -> tensor<2x5xf64>
  return %c, %b : tensor<2x5xf64>, tensor<2x5xf64>
}

// Nearest resizes: an integer upscale, a fractional one with
// align_corners, a downscale given by scales, each index map taken from the
// op itself.
func.func @resize_up(%x: tensor<1x2x3x2xf64>) -> tensor<1x2x6x5xf64> {
  %y = graph.resize %x {sizes = array<i64: 1, 2, 6, 5>, mode = #graph<resize_mode nearest>} : (tensor<1x2x3x2xf64>) -> tensor<1x2x6x5xf64>
  %z = graph.mul %y, %y : (tensor<1x2x6x5xf64>, tensor<1x2x6x5xf64>) -> tensor<1x2x6x5xf64>
  return %z : tensor<1x2x6x5xf64>
}

func.func @resize_corners(%x: tensor<2x5xf64>) -> tensor<3x7xf64> {
  %y = graph.resize %x {sizes = array<i64: 3, 7>, mode = #graph<resize_mode nearest>, coordinate_mode = #graph<coordinate_mode align_corners>, nearest_mode = #graph<nearest_mode ceil>} : (tensor<2x5xf64>) -> tensor<3x7xf64>
  return %y : tensor<3x7xf64>
}

func.func @resize_down(%x: tensor<1x1x7x6xf64>) -> tensor<1x1x3x2xf64> {
  %y = graph.resize %x {sizes = array<i64: 1, 1, 3, 2>, scales = array<f64: 1.0, 1.0, 0.5, 0.4>, mode = #graph<resize_mode nearest>, coordinate_mode = #graph<coordinate_mode asymmetric>} : (tensor<1x1x7x6xf64>) -> tensor<1x1x3x2xf64>
  return %y : tensor<1x1x3x2xf64>
}
