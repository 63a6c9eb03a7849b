// RUN: graph-opt %s -split-input-file -verify-diagnostics

func.func @binary_broadcast(%x: tensor<2x3xf32>, %y: tensor<4xf32>) {
  // expected-error @+2 {{graph.add: cannot broadcast dimension 3 against 4 (shapes [2, 3] and [4])}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = graph.add %x, %y : (tensor<2x3xf32>, tensor<4xf32>) -> tensor<2x3xf32>
  return
}

// -----

func.func @binary_element_types(%x: tensor<3xf32>, %y: tensor<3xf64>) {
  // expected-error @+2 {{graph.sub: operand element types 'f32' and 'f64' differ}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = graph.sub %x, %y : (tensor<3xf32>, tensor<3xf64>) -> tensor<3xf32>
  return
}

// -----

func.func @binary_result_shape(%x: tensor<2x3xf32>, %y: tensor<3xf32>) {
  // expected-error @+2 {{'graph.mul' op inferred type(s) 'tensor<2x3xf32>' are incompatible with return type(s) of operation 'tensor<2x4xf32>'}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = graph.mul %x, %y : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x4xf32>
  return
}

// -----

func.func @arith_on_bool(%x: tensor<3xi1>) {
  // expected-error @+1 {{'graph.add' op operand #0 must be tensor of float or signless/unsigned integer wider than 1 bit values}}
  %0 = graph.add %x, %x : (tensor<3xi1>, tensor<3xi1>) -> tensor<3xi1>
  return
}

// -----

func.func @float_only(%x: tensor<3xi32>) {
  // expected-error @+1 {{'graph.exp' op operand #0 must be tensor of floating-point values}}
  %0 = graph.exp %x : (tensor<3xi32>) -> tensor<3xi32>
  return
}

// -----

func.func @pow_on_int(%x: tensor<3xi32>) {
  // expected-error @+1 {{'graph.pow' op operand #0 must be tensor of floating-point values}}
  %0 = graph.pow %x, %x : (tensor<3xi32>, tensor<3xi32>) -> tensor<3xi32>
  return
}

// -----

func.func @logical_on_int(%x: tensor<3xi32>) {
  // expected-error @+1 {{'graph.and' op operand #0 must be tensor of 1-bit signless integer values}}
  %0 = graph.and %x, %x : (tensor<3xi32>, tensor<3xi32>) -> tensor<3xi32>
  return
}

// -----

func.func @not_on_float(%x: tensor<3xf32>) {
  // expected-error @+1 {{'graph.not' op operand #0 must be tensor of 1-bit signless integer values}}
  %0 = graph.not %x : (tensor<3xf32>) -> tensor<3xf32>
  return
}

// -----

func.func @unary_result_type(%x: tensor<3xf32>) {
  // expected-error @+2 {{'graph.neg' op inferred type(s) 'tensor<3xf32>' are incompatible with return type(s) of operation 'tensor<3xf64>'}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = graph.neg %x : (tensor<3xf32>) -> tensor<3xf64>
  return
}

// -----

func.func @leaky_relu_alpha(%x: tensor<3xf32>) {
  // expected-error @+1 {{'graph.leaky_relu' op requires attribute 'alpha'}}
  %0 = graph.leaky_relu %x : (tensor<3xf32>) -> tensor<3xf32>
  return
}

// -----

func.func @cast_target(%x: tensor<3xf32>) {
  // expected-error @+2 {{graph.cast: target type 'index' is not a float, signless or unsigned integer type}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = graph.cast %x {to = index} : (tensor<3xf32>) -> tensor<3xf32>
  return
}

// -----

func.func @cast_result(%x: tensor<3xf32>) {
  // expected-error @+2 {{'graph.cast' op inferred type(s) 'tensor<3xi32>' are incompatible with return type(s) of operation 'tensor<3xi64>'}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = graph.cast %x {to = i32} : (tensor<3xf32>) -> tensor<3xi64>
  return
}

// -----

func.func @clamp_broadcast(%x: tensor<4xf32>, %lo: tensor<f32>, %hi: tensor<3xf32>) {
  // expected-error @+2 {{graph.clamp: cannot broadcast dimension 4 against 3 (shapes [4] and [3])}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = graph.clamp %x, %lo, %hi : (tensor<4xf32>, tensor<f32>, tensor<3xf32>) -> tensor<4xf32>
  return
}

// -----

func.func @clamp_element_types(%x: tensor<4xf32>, %lo: tensor<f32>, %hi: tensor<i32>) {
  // expected-error @+2 {{graph.clamp: operand element types 'f32' and 'i32' differ}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = graph.clamp %x, %lo, %hi : (tensor<4xf32>, tensor<f32>, tensor<i32>) -> tensor<4xf32>
  return
}

// -----

func.func @clamp_input_element_type(%x: tensor<4xf64>, %lo: tensor<f32>) {
  // expected-error @+2 {{graph.clamp: operand element types 'f64' and 'f32' differ}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = graph.clamp %x, %lo, %lo : (tensor<4xf64>, tensor<f32>, tensor<f32>) -> tensor<4xf64>
  return
}

// -----

func.func @compare_element_types(%x: tensor<4xf32>, %y: tensor<4xi32>) {
  // expected-error @+2 {{graph.compare: operand element types 'f32' and 'i32' differ}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = graph.compare %x, %y {direction = #graph<compare_direction eq>} : (tensor<4xf32>, tensor<4xi32>) -> tensor<4xi1>
  return
}

// -----

func.func @compare_broadcast(%x: tensor<4xf32>, %y: tensor<5xf32>) {
  // expected-error @+2 {{graph.compare: cannot broadcast dimension 4 against 5 (shapes [4] and [5])}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = graph.compare %x, %y {direction = #graph<compare_direction eq>} : (tensor<4xf32>, tensor<5xf32>) -> tensor<4xi1>
  return
}

// -----

func.func @compare_result(%x: tensor<4xf32>) {
  // expected-error @+1 {{'graph.compare' op result #0 must be tensor of 1-bit signless integer values}}
  %0 = graph.compare %x, %x {direction = #graph<compare_direction eq>} : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return
}

// -----

func.func @select_condition(%c: tensor<4xf32>, %x: tensor<4xf32>) {
  // expected-error @+1 {{'graph.select' op operand #0 must be tensor of 1-bit signless integer values}}
  %0 = graph.select %c, %x, %x : (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return
}

// -----

func.func @select_element_types(%c: tensor<4xi1>, %x: tensor<4xf32>, %y: tensor<4xf16>) {
  // expected-error @+2 {{graph.select: operand element types 'f32' and 'f16' differ}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = graph.select %c, %x, %y : (tensor<4xi1>, tensor<4xf32>, tensor<4xf16>) -> tensor<4xf32>
  return
}

// -----

func.func @select_broadcast(%c: tensor<3xi1>, %x: tensor<4xf32>) {
  // expected-error @+2 {{graph.select: cannot broadcast dimension 3 against 4 (shapes [3] and [4])}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = graph.select %c, %x, %x : (tensor<3xi1>, tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return
}

// -----

func.func @reduce_axis_range(%x: tensor<2x3xf32>) {
  // expected-error @+2 {{graph.reduce: axis 2 is out of range for rank 2}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = graph.reduce %x {axes = array<i64: 2>, kind = #graph<reduce_kind sum>} : (tensor<2x3xf32>) -> tensor<2xf32>
  return
}

// -----

func.func @reduce_negative_axis_range(%x: tensor<2x3xf32>) {
  // expected-error @+2 {{graph.reduce: axis -3 is out of range for rank 2}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = graph.reduce %x {axes = array<i64: -3>, kind = #graph<reduce_kind sum>} : (tensor<2x3xf32>) -> tensor<2xf32>
  return
}

// -----

func.func @reduce_duplicate_axes(%x: tensor<2x3xf32>) {
  // expected-error @+2 {{graph.reduce: axis -1 names dimension 1 which is already reduced}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = graph.reduce %x {axes = array<i64: 1, -1>, kind = #graph<reduce_kind sum>} : (tensor<2x3xf32>) -> tensor<2xf32>
  return
}

// -----

func.func @reduce_duplicate_axes_unranked(%x: tensor<*xf32>) {
  // expected-error @+2 {{graph.reduce: axis 0 appears twice}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = graph.reduce %x {axes = array<i64: 0, 0>, kind = #graph<reduce_kind sum>} : (tensor<*xf32>) -> tensor<*xf32>
  return
}

// -----

func.func @reduce_mean_int(%x: tensor<2x3xi32>) {
  // expected-error @+2 {{graph.reduce: reduce_kind mean needs a float element type, got 'i32'}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = graph.reduce %x {axes = array<i64: 1>, kind = #graph<reduce_kind mean>} : (tensor<2x3xi32>) -> tensor<2xi32>
  return
}

// -----

func.func @reduce_result(%x: tensor<2x3xf32>) {
  // expected-error @+2 {{'graph.reduce' op inferred type(s) 'tensor<2x1xf32>' are incompatible with return type(s) of operation 'tensor<2xf32>'}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = graph.reduce %x {axes = array<i64: 1>, keepdims, kind = #graph<reduce_kind sum>} : (tensor<2x3xf32>) -> tensor<2xf32>
  return
}

// -----

func.func @reduce_bool(%x: tensor<2x3xi1>) {
  // expected-error @+1 {{'graph.reduce' op operand #0 must be tensor of float or signless/unsigned integer wider than 1 bit values}}
  %0 = graph.reduce %x {axes = array<i64: 1>, kind = #graph<reduce_kind sum>} : (tensor<2x3xi1>) -> tensor<2xi1>
  return
}

// -----

func.func @arg_reduce_kind(%x: tensor<2x3xf32>) {
  // expected-error @+2 {{graph.arg_reduce: reduce_kind sum is not supported, expected max or min}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = graph.arg_reduce %x {axis = 1 : i64, kind = #graph<reduce_kind sum>} : (tensor<2x3xf32>) -> tensor<2xi64>
  return
}

// -----

func.func @arg_reduce_axis(%x: tensor<2x3xf32>) {
  // expected-error @+2 {{graph.arg_reduce: axis -3 is out of range for rank 2}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = graph.arg_reduce %x {axis = -3 : i64, kind = #graph<reduce_kind max>} : (tensor<2x3xf32>) -> tensor<2xi64>
  return
}

// -----

func.func @arg_reduce_result(%x: tensor<2x3xf32>) {
  // expected-error @+1 {{'graph.arg_reduce' op result #0 must be tensor of 64-bit signless integer values}}
  %0 = graph.arg_reduce %x {axis = 1 : i64, kind = #graph<reduce_kind max>} : (tensor<2x3xf32>) -> tensor<2xi32>
  return
}
