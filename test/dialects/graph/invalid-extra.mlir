// RUN: graph-opt %s -split-input-file -verify-diagnostics

// One case per check of the ops in GraphExtraOps.td.

func.func @f1(%x: tensor<3x5xf32>, %i: tensor<3xi64>) {
  // expected-error @+2 {{graph.gather_elements: indices rank 1 does not match the input rank 2}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = graph.gather_elements %x, %i {axis = 1 : i64} : (tensor<3x5xf32>, tensor<3xi64>) -> tensor<3xf32>
  return
}

// -----

func.func @f2(%x: tensor<f32>, %i: tensor<i64>) {
  // expected-error @+2 {{graph.gather_elements: input must have rank >= 1}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = graph.gather_elements %x, %i : (tensor<f32>, tensor<i64>) -> tensor<f32>
  return
}

// -----

func.func @f3(%x: tensor<3x5xf32>, %i: tensor<3x1xi64>) {
  // expected-error @+2 {{graph.gather_elements: axis 2 is out of range for rank 2}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = graph.gather_elements %x, %i {axis = 2 : i64} : (tensor<3x5xf32>, tensor<3x1xi64>) -> tensor<3x1xf32>
  return
}

// -----

func.func @f4(%x: tensor<3x5xf32>, %i: tensor<4x1xi64>) {
  // expected-error @+2 {{graph.gather_elements: indices dimension 0 is 4 but the input's is only 3}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = graph.gather_elements %x, %i {axis = 1 : i64} : (tensor<3x5xf32>, tensor<4x1xi64>) -> tensor<4x1xf32>
  return
}

// -----

func.func @f5(%x: tensor<4xf32>) {
  // expected-error @+2 {{graph.cumulative: reduce_kind mean has no running form}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = graph.cumulative %x {axis = 0 : i64, kind = #graph<reduce_kind mean>} : (tensor<4xf32>) -> tensor<4xf32>
  return
}

// -----

func.func @f6(%x: tensor<f32>) {
  // expected-error @+2 {{graph.cumulative: input must have rank >= 1}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = graph.cumulative %x {axis = 0 : i64, kind = #graph<reduce_kind sum>} : (tensor<f32>) -> tensor<f32>
  return
}

// -----

func.func @f7(%x: tensor<4xf32>) {
  // expected-error @+2 {{graph.cumulative: axis -2 is out of range for rank 1}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = graph.cumulative %x {axis = -2 : i64, kind = #graph<reduce_kind sum>} : (tensor<4xf32>) -> tensor<4xf32>
  return
}

// -----

func.func @f8(%x: tensor<4xf32>) {
  // expected-error @+2 {{graph.top_k: k -1 is negative}}
  // expected-error @+1 {{failed to infer returned types}}
  %0:2 = graph.top_k %x {axis = 0 : i64, k = -1 : i64} : (tensor<4xf32>) -> (tensor<4xf32>, tensor<4xi64>)
  return
}

// -----

func.func @f9(%x: tensor<f32>) {
  // expected-error @+2 {{graph.top_k: input must have rank >= 1}}
  // expected-error @+1 {{failed to infer returned types}}
  %0:2 = graph.top_k %x {axis = 0 : i64, k = 1 : i64} : (tensor<f32>) -> (tensor<1xf32>, tensor<1xi64>)
  return
}

// -----

func.func @f10(%x: tensor<4xf32>) {
  // expected-error @+2 {{graph.top_k: axis 1 is out of range for rank 1}}
  // expected-error @+1 {{failed to infer returned types}}
  %0:2 = graph.top_k %x {axis = 1 : i64, k = 1 : i64} : (tensor<4xf32>) -> (tensor<1xf32>, tensor<1xi64>)
  return
}

// -----

func.func @f11(%x: tensor<4xf32>) {
  // expected-error @+2 {{graph.top_k: k 5 exceeds the size 4 of axis 0}}
  // expected-error @+1 {{failed to infer returned types}}
  %0:2 = graph.top_k %x {axis = 0 : i64, k = 5 : i64} : (tensor<4xf32>) -> (tensor<5xf32>, tensor<5xi64>)
  return
}

// -----

func.func @f12(%x: tensor<4xi1>) {
  // expected-error @+1 {{operand #0 must be tensor of signless/unsigned integer wider than 1 bit values}}
  %0 = graph.bitwise_not %x : (tensor<4xi1>) -> tensor<4xi1>
  return
}

// -----

func.func @f13(%x: tensor<4xi32>) {
  // expected-error @+1 {{operand #0 must be tensor of floating-point values}}
  %0 = graph.tan %x : (tensor<4xi32>) -> tensor<4xi32>
  return
}
