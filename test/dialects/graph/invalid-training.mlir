// RUN: graph-opt %s -split-input-file -verify-diagnostics

// One case per check of the variable, loss and optimizer-update ops.

// expected-error @+2 {{graph.variable: type must be a statically shaped tensor, got 'tensor<?xf32>'}}
// expected-error @+1 {{failed to infer returned types}}
graph.variable @w : tensor<?xf32>

// -----

// expected-error @+2 {{graph.variable: type must be a statically shaped tensor, got 'f32'}}
// expected-error @+1 {{failed to infer returned types}}
graph.variable @w : f32

// -----

// The custom syntax gives the initial value the declared type; generic IR
// can still disagree.
// expected-error @+2 {{graph.variable: initial value type 'tensor<2xf32>' does not match declared type 'tensor<3xf32>'}}
// expected-error @+1 {{failed to infer returned types}}
"graph.variable"() <{sym_name = "w", type = tensor<3xf32>, initial_value = dense<0.0> : tensor<2xf32>}> : () -> ()

// -----

func.func @f() {
  // expected-error @+1 {{'graph.variable' op expects parent op 'builtin.module'}}
  graph.variable @w : tensor<2xf32>
  return
}

// -----

func.func @f() {
  // expected-error @+1 {{'graph.read_variable' op refers to unknown variable @nope}}
  %0 = graph.read_variable @nope : tensor<2xf32>
  return
}

// -----

func.func private @g()
func.func @f() {
  // expected-error @+1 {{'graph.read_variable' op @g is a 'func.func', not a graph.variable}}
  %0 = graph.read_variable @g : tensor<2xf32>
  return
}

// -----

graph.variable @w : tensor<3xf32>
func.func @f() {
  // expected-error @+1 {{'graph.read_variable' op type 'tensor<2xf32>' does not match the type 'tensor<3xf32>' of variable @w}}
  %0 = graph.read_variable @w : tensor<2xf32>
  return
}

// -----

graph.variable @w : tensor<3xf32>
func.func @f() {
  // expected-error @+1 {{graph.read_variable: type must be a statically shaped tensor, got 'tensor<?xf32>'}}
  %0 = graph.read_variable @w : tensor<?xf32>
  return
}

// -----

func.func @f(%v: tensor<2xf32>) {
  // expected-error @+1 {{'graph.assign_variable' op refers to unknown variable @nope}}
  graph.assign_variable @nope, %v : tensor<2xf32>
  return
}

// -----

graph.variable @w : tensor<3xf32>
func.func @f(%v: tensor<2xf32>) {
  // expected-error @+1 {{'graph.assign_variable' op value type 'tensor<2xf32>' is not compatible with the type 'tensor<3xf32>' of variable @w}}
  graph.assign_variable @w, %v mode = add : tensor<2xf32>
  return
}

// -----

graph.variable @w : tensor<3xf32>
func.func @f(%v: tensor<3xf16>) {
  // expected-error @+1 {{'graph.assign_variable' op value type 'tensor<3xf16>' is not compatible with the type 'tensor<3xf32>' of variable @w}}
  graph.assign_variable @w, %v : tensor<3xf16>
  return
}

// -----

// softmax_cross_entropy: logits not rank 2
func.func @f(%l: tensor<2x3x4xf32>, %y: tensor<2x3x4xf32>) {
  // expected-error @+2 {{graph.softmax_cross_entropy: logits must have rank 2 ([batch, classes]), got rank 3}}
  // expected-error @+1 {{failed to infer returned types}}
  %0:2 = graph.softmax_cross_entropy %l, %y : (tensor<2x3x4xf32>, tensor<2x3x4xf32>) -> (tensor<2xf32>, tensor<2x3xf32>)
  return
}

// -----
// softmax_cross_entropy: sparse labels are not indices
func.func @f(%l: tensor<4x3xf32>, %y: tensor<4xf32>) {
  // expected-error @+2 {{graph.softmax_cross_entropy: sparse labels must be i32 or i64 class indices, got 'f32'}}
  // expected-error @+1 {{failed to infer returned types}}
  %0:2 = graph.softmax_cross_entropy %l, %y {sparse} : (tensor<4x3xf32>, tensor<4xf32>) -> (tensor<4xf32>, tensor<4x3xf32>)
  return
}

// -----
// softmax_cross_entropy: dense labels of another element type
func.func @f(%l: tensor<4x3xf32>, %y: tensor<4x3xf16>) {
  // expected-error @+2 {{graph.softmax_cross_entropy: labels element type 'f16' does not match logits element type 'f32'}}
  // expected-error @+1 {{failed to infer returned types}}
  %0:2 = graph.softmax_cross_entropy %l, %y : (tensor<4x3xf32>, tensor<4x3xf16>) -> (tensor<4xf32>, tensor<4x3xf32>)
  return
}

// -----
// softmax_cross_entropy: dense labels of the wrong shape
func.func @f(%l: tensor<4x3xf32>, %y: tensor<4x5xf32>) {
  // expected-error @+2 {{graph.softmax_cross_entropy: labels have shape [4, 5], expected [4, 3]}}
  // expected-error @+1 {{failed to infer returned types}}
  %0:2 = graph.softmax_cross_entropy %l, %y : (tensor<4x3xf32>, tensor<4x5xf32>) -> (tensor<4xf32>, tensor<4x3xf32>)
  return
}

// -----
// softmax_cross_entropy: one-hot labels marked sparse
func.func @f(%l: tensor<4x3xf32>, %y: tensor<4x3xi64>) {
  // expected-error @+2 {{graph.softmax_cross_entropy: labels have shape [4, 3], expected [4] (one class index per row)}}
  // expected-error @+1 {{failed to infer returned types}}
  %0:2 = graph.softmax_cross_entropy %l, %y {sparse} : (tensor<4x3xf32>, tensor<4x3xi64>) -> (tensor<4xf32>, tensor<4x3xf32>)
  return
}

// -----
// sgd_update: grad of another shape
func.func @f(%p: tensor<10xf32>, %g: tensor<9xf32>, %lr: tensor<f32>) {
  // expected-error @+2 {{graph.sgd_update: grad shape [9] does not match param shape [10]}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = graph.sgd_update %p, %g, %lr : (tensor<10xf32>, tensor<9xf32>, tensor<f32>) -> tensor<10xf32>
  return
}

// -----
// sgd_update: learning rate of another element type
func.func @f(%p: tensor<10xf32>, %g: tensor<10xf32>, %lr: tensor<f64>) {
  // expected-error @+2 {{graph.sgd_update: lr element type 'f64' does not match param element type 'f32'}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = graph.sgd_update %p, %g, %lr : (tensor<10xf32>, tensor<10xf32>, tensor<f64>) -> tensor<10xf32>
  return
}

// -----
// sgd_update: learning rate does not broadcast
func.func @f(%p: tensor<10xf32>, %g: tensor<10xf32>, %lr: tensor<3xf32>) {
  // expected-error @+2 {{graph.sgd_update: lr of shape [3] does not broadcast to param shape [10]}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = graph.sgd_update %p, %g, %lr : (tensor<10xf32>, tensor<10xf32>, tensor<3xf32>) -> tensor<10xf32>
  return
}

// -----
// sgd_update: learning rate would grow the result
func.func @f(%p: tensor<10xf32>, %g: tensor<10xf32>, %lr: tensor<2x10xf32>) {
  // expected-error @+2 {{graph.sgd_update: lr of shape [2, 10] does not broadcast to param shape [10]}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = graph.sgd_update %p, %g, %lr : (tensor<10xf32>, tensor<10xf32>, tensor<2x10xf32>) -> tensor<10xf32>
  return
}

// -----
// momentum_update: accum of another shape
func.func @f(%p: tensor<10xf32>, %a: tensor<10x1xf32>, %g: tensor<10xf32>, %lr: tensor<f32>) {
  // expected-error @+2 {{graph.momentum_update: accum shape [10, 1] does not match param shape [10]}}
  // expected-error @+1 {{failed to infer returned types}}
  %0:2 = graph.momentum_update %p, %a, %g, %lr, %lr : (tensor<10xf32>, tensor<10x1xf32>, tensor<10xf32>, tensor<f32>, tensor<f32>) -> (tensor<10xf32>, tensor<10xf32>)
  return
}

// -----
// adam_update: v of another element type
func.func @f(%p: tensor<10xf32>, %v: tensor<10xbf16>, %s: tensor<f32>) {
  // expected-error @+2 {{graph.adam_update: v element type 'bf16' does not match param element type 'f32'}}
  // expected-error @+1 {{failed to infer returned types}}
  %0:3 = graph.adam_update %p, %p, %v, %p, %s, %s, %s, %s, %s, %s : (tensor<10xf32>, tensor<10xf32>, tensor<10xbf16>, tensor<10xf32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>) -> (tensor<10xf32>, tensor<10xf32>, tensor<10xf32>)
  return
}

// -----
// ftrl_update: lr_power does not broadcast
func.func @f(%p: tensor<10xf32>, %s: tensor<f32>, %q: tensor<2xf32>) {
  // expected-error @+2 {{graph.ftrl_update: lr_power of shape [2] does not broadcast to param shape [10]}}
  // expected-error @+1 {{failed to infer returned types}}
  %0:3 = graph.ftrl_update %p, %p, %p, %p, %s, %s, %s, %q : (tensor<10xf32>, tensor<10xf32>, tensor<10xf32>, tensor<10xf32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<2xf32>) -> (tensor<10xf32>, tensor<10xf32>, tensor<10xf32>)
  return
}

// -----
// adam_update: declared result contradicts the inferred one
func.func @f(%p: tensor<10xf32>, %s: tensor<f32>) {
  // expected-error @+2 {{inferred type(s) 'tensor<10xf32>', 'tensor<10xf32>', 'tensor<10xf32>' are incompatible with return type(s) of operation 'tensor<10xf32>', 'tensor<10xf32>', 'tensor<5xf32>'}}
  // expected-error @+1 {{failed to infer returned types}}
  %0:3 = graph.adam_update %p, %p, %p, %p, %s, %s, %s, %s, %s, %s : (tensor<10xf32>, tensor<10xf32>, tensor<10xf32>, tensor<10xf32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>) -> (tensor<10xf32>, tensor<10xf32>, tensor<5xf32>)
  return
}
