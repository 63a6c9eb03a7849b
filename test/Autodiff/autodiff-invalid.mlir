// RUN: graph-opt %s --graph-autodiff=wrt=arguments --split-input-file -verify-diagnostics

// An op without a gradient rule on the way to the loss is refused by name.
func.func @scatter(%x: tensor<2x4xf32>, %u: tensor<2x2xf32>) -> tensor<f32> attributes {graph.output_names = ["loss"]} {
  %i = graph.constant dense<[[0, 3], [1, 2]]> : tensor<2x2xi64>
  // expected-error @+1 {{graph-autodiff: 'graph.scatter_elements' at loc(}}
  %y = graph.scatter_elements %x, %i, %u {axis = 1 : i64} : (tensor<2x4xf32>, tensor<2x2xi64>, tensor<2x2xf32>) -> tensor<2x4xf32>
  %l = graph.reduce %y {axes = array<i64: 0, 1>, kind = #graph<reduce_kind sum>} : (tensor<2x4xf32>) -> tensor<f32>
  return %l : tensor<f32>
}

// -----

func.func @prod(%x: tensor<3xf32>) -> tensor<f32> attributes {graph.output_names = ["loss"]} {
  // expected-error @+1 {{is not differentiable; its reduction kind 'prod' has no gradient rule; it lies between argument 'arg0' and the loss}}
  %l = graph.reduce %x {axes = array<i64: 0>, kind = #graph<reduce_kind prod>} : (tensor<3xf32>) -> tensor<f32>
  return %l : tensor<f32>
}

// -----

func.func @reflect(%x: tensor<3xf32>, %v: tensor<f32>) -> tensor<f32> attributes {graph.output_names = ["loss"]} {
  // expected-error @+1 {{its mode 'reflect' has no gradient rule (only 'constant')}}
  %p = graph.pad %x, %v {low = array<i64: 1>, high = array<i64: 1>, mode = #graph<pad_mode reflect>} : (tensor<3xf32>, tensor<f32>) -> tensor<5xf32>
  %l = graph.reduce %p {axes = array<i64: 0>, kind = #graph<reduce_kind sum>} : (tensor<5xf32>) -> tensor<f32>
  return %l : tensor<f32>
}

// -----

// The same op off the path to the loss is fine (no diagnostic).
func.func @off_path(%x: tensor<2x4xf32>, %u: tensor<2x2xf32>) -> (tensor<f32>, tensor<2x4xf32>) attributes {graph.output_names = ["loss", "side"]} {
  %i = graph.constant dense<[[0, 3], [1, 2]]> : tensor<2x2xi64>
  %y = graph.scatter_elements %x, %i, %u {axis = 1 : i64} : (tensor<2x4xf32>, tensor<2x2xi64>, tensor<2x2xf32>) -> tensor<2x4xf32>
  %l = graph.reduce %x {axes = array<i64: 0, 1>, kind = #graph<reduce_kind sum>} : (tensor<2x4xf32>) -> tensor<f32>
  return %l, %y : tensor<f32>, tensor<2x4xf32>
}

// -----

// The cross-entropy's gradient result feeding the loss would need a second
// derivative.
func.func @second_order(%x: tensor<2x3xf32>, %y: tensor<2xi64>) -> tensor<f32> attributes {graph.output_names = ["loss"]} {
  // expected-error @+1 {{its second result (the gradient of the logits) leads to the loss}}
  %loss, %grad = graph.softmax_cross_entropy %x, %y {sparse} : (tensor<2x3xf32>, tensor<2xi64>) -> (tensor<2xf32>, tensor<2x3xf32>)
  %l = graph.reduce %grad {axes = array<i64: 0, 1>, kind = #graph<reduce_kind sum>} : (tensor<2x3xf32>) -> tensor<f32>
  return %l : tensor<f32>
}

// -----

// expected-error @+1 {{graph-autodiff: the result 'loss' of @vector has type 'tensor<3xf32>'; it must be a scalar float such as tensor<f32>}}
func.func @vector(%x: tensor<3xf32>) -> tensor<3xf32> attributes {graph.output_names = ["loss"]} {
  return %x : tensor<3xf32>
}

// -----

// expected-error @+1 {{graph-autodiff: argument 'x' has type 'tensor<?x3xf32>'; differentiating needs a static shape}}
func.func @dynamic(%x: tensor<?x3xf32> {graph.name = "x"}) -> tensor<f32> attributes {graph.output_names = ["loss"]} {
  %l = graph.reduce %x {axes = array<i64: 0, 1>, kind = #graph<reduce_kind sum>} : (tensor<?x3xf32>) -> tensor<f32>
  return %l : tensor<f32>
}

// -----

// expected-error @+1 {{graph-autodiff: no function has a result named 'loss' in its graph.output_names; run graph-add-loss first (graphc --train)}}
module {
  func.func @no_loss(%x: tensor<3xf32>) -> tensor<3xf32> {
    return %x : tensor<3xf32>
  }
}

// -----

// output_padding past the stride (allowed by a larger dilation): the
// adjoint convolution would not give back the input's size.
func.func @conv_transpose_pad(%x: tensor<1x1x3xf32>, %w: tensor<1x1x2xf32>) -> tensor<f32> attributes {graph.output_names = ["loss"]} {
  // expected-error @+1 {{is not differentiable; output_padding 1 is not smaller than its stride 1}}
  %y = graph.conv_transpose %x, %w {dilations = array<i64: 2>, output_padding = array<i64: 1>} : (tensor<1x1x3xf32>, tensor<1x1x2xf32>) -> tensor<1x1x6xf32>
  %l = graph.reduce %y {axes = array<i64: 0, 1, 2>, kind = #graph<reduce_kind sum>} : (tensor<1x1x6xf32>) -> tensor<f32>
  return %l : tensor<f32>
}

// -----

func.func @cumprod(%x: tensor<4xf32>) -> tensor<f32> attributes {graph.output_names = ["loss"]} {
  // expected-error @+1 {{is not differentiable; its kind 'prod' has no gradient rule (only 'sum')}}
  %c = graph.cumulative %x {axis = 0 : i64, kind = #graph<reduce_kind prod>} : (tensor<4xf32>) -> tensor<4xf32>
  %l = graph.reduce %c {axes = array<i64: 0>, kind = #graph<reduce_kind sum>} : (tensor<4xf32>) -> tensor<f32>
  return %l : tensor<f32>
}

// -----

func.func @resize_linear(%x: tensor<1x1x2x2xf32>) -> tensor<f32> attributes {graph.output_names = ["loss"]} {
  // expected-error @+1 {{is not differentiable; its mode 'linear' has no gradient rule (only 'nearest')}}
  %y = graph.resize %x {sizes = array<i64: 1, 1, 4, 4>, mode = #graph<resize_mode linear>} : (tensor<1x1x2x2xf32>) -> tensor<1x1x4x4xf32>
  %l = graph.reduce %y {axes = array<i64: 0, 1, 2, 3>, kind = #graph<reduce_kind sum>} : (tensor<1x1x4x4xf32>) -> tensor<f32>
  return %l : tensor<f32>
}
