// RUN: graph-opt %s | graph-opt | FileCheck %s
// RUN: graph-opt %s --verify-roundtrip | FileCheck %s

// CHECK-LABEL: func @core
func.func @core(%x: tensor<2x3xf32>, %b: tensor<3xf32>) -> tensor<2x3xf32> {
  // CHECK: %[[C:.*]] = graph.constant dense<1.000000e+00> : tensor<3xf32>
  %c = graph.constant dense<1.0> : tensor<3xf32>
  // CHECK: %[[I:.*]] = graph.identity %{{.*}} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %i = graph.identity %x : (tensor<2x3xf32>) -> tensor<2x3xf32>
  // CHECK: graph.identity %{{.*}} : (tensor<2x3xf32>) -> tensor<?x3xf32>
  %r = graph.identity %x : (tensor<2x3xf32>) -> tensor<?x3xf32>
  // CHECK: graph.add %[[I]], %[[C]] : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  %y = graph.add %i, %c : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  // CHECK: graph.matmul %{{.*}}, %{{.*}} {transpose_rhs} : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x2xf32>
  %m = graph.matmul %y, %y {transpose_rhs} : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x2xf32>
  return %y : tensor<2x3xf32>
}

// Every unary op, on a static float tensor.
// CHECK-LABEL: func @unary_float
func.func @unary_float(%x: tensor<2x3xf32>) {
  // CHECK: graph.neg %{{.*}} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %neg = graph.neg %x : (tensor<2x3xf32>) -> tensor<2x3xf32>
  // CHECK: graph.abs %{{.*}} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %abs = graph.abs %x : (tensor<2x3xf32>) -> tensor<2x3xf32>
  // CHECK: graph.relu %{{.*}} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %relu = graph.relu %x : (tensor<2x3xf32>) -> tensor<2x3xf32>
  // CHECK: graph.sign %{{.*}} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %sign = graph.sign %x : (tensor<2x3xf32>) -> tensor<2x3xf32>
  // CHECK: graph.exp %{{.*}} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %exp = graph.exp %x : (tensor<2x3xf32>) -> tensor<2x3xf32>
  // CHECK: graph.log %{{.*}} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %log = graph.log %x : (tensor<2x3xf32>) -> tensor<2x3xf32>
  // CHECK: graph.sqrt %{{.*}} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %sqrt = graph.sqrt %x : (tensor<2x3xf32>) -> tensor<2x3xf32>
  // CHECK: graph.rsqrt %{{.*}} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %rsqrt = graph.rsqrt %x : (tensor<2x3xf32>) -> tensor<2x3xf32>
  // CHECK: graph.reciprocal %{{.*}} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %reciprocal = graph.reciprocal %x : (tensor<2x3xf32>) -> tensor<2x3xf32>
  // CHECK: graph.tanh %{{.*}} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %tanh = graph.tanh %x : (tensor<2x3xf32>) -> tensor<2x3xf32>
  // CHECK: graph.sigmoid %{{.*}} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %sigmoid = graph.sigmoid %x : (tensor<2x3xf32>) -> tensor<2x3xf32>
  // CHECK: graph.erf %{{.*}} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %erf = graph.erf %x : (tensor<2x3xf32>) -> tensor<2x3xf32>
  // CHECK: graph.floor %{{.*}} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %floor = graph.floor %x : (tensor<2x3xf32>) -> tensor<2x3xf32>
  // CHECK: graph.ceil %{{.*}} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %ceil = graph.ceil %x : (tensor<2x3xf32>) -> tensor<2x3xf32>
  // CHECK: graph.round %{{.*}} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %round = graph.round %x : (tensor<2x3xf32>) -> tensor<2x3xf32>
  // CHECK: graph.sin %{{.*}} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %sin = graph.sin %x : (tensor<2x3xf32>) -> tensor<2x3xf32>
  // CHECK: graph.cos %{{.*}} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %cos = graph.cos %x : (tensor<2x3xf32>) -> tensor<2x3xf32>
  // CHECK: graph.softplus %{{.*}} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %softplus = graph.softplus %x : (tensor<2x3xf32>) -> tensor<2x3xf32>
  // CHECK: graph.gelu %{{.*}} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %gelu = graph.gelu %x : (tensor<2x3xf32>) -> tensor<2x3xf32>
  // CHECK: graph.gelu %{{.*}} {approximate} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %gelu_tanh = graph.gelu %x {approximate} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  // CHECK: graph.leaky_relu %{{.*}} {alpha = 2.000000e-01 : f32} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %leaky = graph.leaky_relu %x {alpha = 0.2 : f32} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  // CHECK: graph.elu %{{.*}} {alpha = 1.000000e+00 : f32} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %elu = graph.elu %x {alpha = 1.0 : f32} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  return
}

// Integer, boolean, dynamic and unranked operands; a declared result may
// be less refined than the operand.
// CHECK-LABEL: func @unary_other
func.func @unary_other(%i: tensor<?x4xi32>, %b: tensor<*xi1>, %u: tensor<*xf64>, %h: tensor<8xbf16>) {
  // CHECK: graph.neg %{{.*}} : (tensor<?x4xi32>) -> tensor<?x4xi32>
  %neg = graph.neg %i : (tensor<?x4xi32>) -> tensor<?x4xi32>
  // CHECK: graph.abs %{{.*}} : (tensor<?x4xi32>) -> tensor<?x4xi32>
  %abs = graph.abs %i : (tensor<?x4xi32>) -> tensor<?x4xi32>
  // CHECK: graph.relu %{{.*}} : (tensor<?x4xi32>) -> tensor<?x4xi32>
  %relu = graph.relu %i : (tensor<?x4xi32>) -> tensor<?x4xi32>
  // CHECK: graph.sign %{{.*}} : (tensor<?x4xi32>) -> tensor<?x4xi32>
  %sign = graph.sign %i : (tensor<?x4xi32>) -> tensor<?x4xi32>
  // CHECK: graph.not %{{.*}} : (tensor<*xi1>) -> tensor<*xi1>
  %not = graph.not %b : (tensor<*xi1>) -> tensor<*xi1>
  // CHECK: graph.exp %{{.*}} : (tensor<*xf64>) -> tensor<*xf64>
  %exp = graph.exp %u : (tensor<*xf64>) -> tensor<*xf64>
  // CHECK: graph.tanh %{{.*}} : (tensor<8xbf16>) -> tensor<?xbf16>
  %tanh = graph.tanh %h : (tensor<8xbf16>) -> tensor<?xbf16>
  return
}

// CHECK-LABEL: func @cast
func.func @cast(%x: tensor<2x?xf32>, %b: tensor<*xi1>) {
  // CHECK: graph.cast %{{.*}} {to = i8} : (tensor<2x?xf32>) -> tensor<2x?xi8>
  %0 = graph.cast %x {to = i8} : (tensor<2x?xf32>) -> tensor<2x?xi8>
  // CHECK: graph.cast %{{.*}} {to = bf16} : (tensor<2x?xf32>) -> tensor<2x?xbf16>
  %1 = graph.cast %x {to = bf16} : (tensor<2x?xf32>) -> tensor<2x?xbf16>
  // CHECK: graph.cast %{{.*}} {to = f32} : (tensor<*xi1>) -> tensor<*xf32>
  %2 = graph.cast %b {to = f32} : (tensor<*xi1>) -> tensor<*xf32>
  // CHECK: graph.cast %{{.*}} {to = i1} : (tensor<2x?xf32>) -> tensor<*xi1>
  %3 = graph.cast %x {to = i1} : (tensor<2x?xf32>) -> tensor<*xi1>
  return
}

// CHECK-LABEL: func @clamp
func.func @clamp(%x: tensor<8x16xf32>, %lo: tensor<f32>, %hi: tensor<16xf32>, %i: tensor<?xi64>, %u: tensor<*xi64>) {
  // CHECK: graph.clamp %{{.*}}, %{{.*}}, %{{.*}} : (tensor<8x16xf32>, tensor<f32>, tensor<16xf32>) -> tensor<8x16xf32>
  %0 = graph.clamp %x, %lo, %hi : (tensor<8x16xf32>, tensor<f32>, tensor<16xf32>) -> tensor<8x16xf32>
  // The bounds may be larger than the input.
  // CHECK: graph.clamp %{{.*}}, %{{.*}}, %{{.*}} : (tensor<f32>, tensor<f32>, tensor<16xf32>) -> tensor<16xf32>
  %1 = graph.clamp %lo, %lo, %hi : (tensor<f32>, tensor<f32>, tensor<16xf32>) -> tensor<16xf32>
  // CHECK: graph.clamp %{{.*}}, %{{.*}}, %{{.*}} : (tensor<?xi64>, tensor<*xi64>, tensor<?xi64>) -> tensor<*xi64>
  %2 = graph.clamp %i, %u, %i : (tensor<?xi64>, tensor<*xi64>, tensor<?xi64>) -> tensor<*xi64>
  return
}

// CHECK-LABEL: func @binary
func.func @binary(%x: tensor<8x1xf32>, %y: tensor<16xf32>, %i: tensor<?x4xi32>, %j: tensor<4xi32>, %b: tensor<4xi1>, %u: tensor<*xi1>) {
  // CHECK: graph.add %{{.*}}, %{{.*}} : (tensor<8x1xf32>, tensor<16xf32>) -> tensor<8x16xf32>
  %add_f = graph.add %x, %y : (tensor<8x1xf32>, tensor<16xf32>) -> tensor<8x16xf32>
  // CHECK: graph.sub %{{.*}}, %{{.*}} : (tensor<8x1xf32>, tensor<16xf32>) -> tensor<8x16xf32>
  %sub_f = graph.sub %x, %y : (tensor<8x1xf32>, tensor<16xf32>) -> tensor<8x16xf32>
  // CHECK: graph.mul %{{.*}}, %{{.*}} : (tensor<8x1xf32>, tensor<16xf32>) -> tensor<8x16xf32>
  %mul_f = graph.mul %x, %y : (tensor<8x1xf32>, tensor<16xf32>) -> tensor<8x16xf32>
  // CHECK: graph.div %{{.*}}, %{{.*}} : (tensor<8x1xf32>, tensor<16xf32>) -> tensor<8x16xf32>
  %div_f = graph.div %x, %y : (tensor<8x1xf32>, tensor<16xf32>) -> tensor<8x16xf32>
  // CHECK: graph.max %{{.*}}, %{{.*}} : (tensor<8x1xf32>, tensor<16xf32>) -> tensor<8x16xf32>
  %max_f = graph.max %x, %y : (tensor<8x1xf32>, tensor<16xf32>) -> tensor<8x16xf32>
  // CHECK: graph.min %{{.*}}, %{{.*}} : (tensor<8x1xf32>, tensor<16xf32>) -> tensor<8x16xf32>
  %min_f = graph.min %x, %y : (tensor<8x1xf32>, tensor<16xf32>) -> tensor<8x16xf32>
  // CHECK: graph.floor_div %{{.*}}, %{{.*}} : (tensor<8x1xf32>, tensor<16xf32>) -> tensor<8x16xf32>
  %floor_div_f = graph.floor_div %x, %y : (tensor<8x1xf32>, tensor<16xf32>) -> tensor<8x16xf32>
  // CHECK: graph.mod %{{.*}}, %{{.*}} : (tensor<8x1xf32>, tensor<16xf32>) -> tensor<8x16xf32>
  %mod_f = graph.mod %x, %y : (tensor<8x1xf32>, tensor<16xf32>) -> tensor<8x16xf32>
  // CHECK: graph.rem %{{.*}}, %{{.*}} : (tensor<8x1xf32>, tensor<16xf32>) -> tensor<8x16xf32>
  %rem_f = graph.rem %x, %y : (tensor<8x1xf32>, tensor<16xf32>) -> tensor<8x16xf32>
  // CHECK: graph.pow %{{.*}}, %{{.*}} : (tensor<8x1xf32>, tensor<16xf32>) -> tensor<8x16xf32>
  %pow_f = graph.pow %x, %y : (tensor<8x1xf32>, tensor<16xf32>) -> tensor<8x16xf32>
  // CHECK: graph.add %{{.*}}, %{{.*}} : (tensor<?x4xi32>, tensor<4xi32>) -> tensor<?x4xi32>
  %add_i = graph.add %i, %j : (tensor<?x4xi32>, tensor<4xi32>) -> tensor<?x4xi32>
  // CHECK: graph.sub %{{.*}}, %{{.*}} : (tensor<?x4xi32>, tensor<4xi32>) -> tensor<?x4xi32>
  %sub_i = graph.sub %i, %j : (tensor<?x4xi32>, tensor<4xi32>) -> tensor<?x4xi32>
  // CHECK: graph.mul %{{.*}}, %{{.*}} : (tensor<?x4xi32>, tensor<4xi32>) -> tensor<?x4xi32>
  %mul_i = graph.mul %i, %j : (tensor<?x4xi32>, tensor<4xi32>) -> tensor<?x4xi32>
  // CHECK: graph.div %{{.*}}, %{{.*}} : (tensor<?x4xi32>, tensor<4xi32>) -> tensor<?x4xi32>
  %div_i = graph.div %i, %j : (tensor<?x4xi32>, tensor<4xi32>) -> tensor<?x4xi32>
  // CHECK: graph.max %{{.*}}, %{{.*}} : (tensor<?x4xi32>, tensor<4xi32>) -> tensor<?x4xi32>
  %max_i = graph.max %i, %j : (tensor<?x4xi32>, tensor<4xi32>) -> tensor<?x4xi32>
  // CHECK: graph.min %{{.*}}, %{{.*}} : (tensor<?x4xi32>, tensor<4xi32>) -> tensor<?x4xi32>
  %min_i = graph.min %i, %j : (tensor<?x4xi32>, tensor<4xi32>) -> tensor<?x4xi32>
  // CHECK: graph.floor_div %{{.*}}, %{{.*}} : (tensor<?x4xi32>, tensor<4xi32>) -> tensor<?x4xi32>
  %floor_div_i = graph.floor_div %i, %j : (tensor<?x4xi32>, tensor<4xi32>) -> tensor<?x4xi32>
  // CHECK: graph.mod %{{.*}}, %{{.*}} : (tensor<?x4xi32>, tensor<4xi32>) -> tensor<?x4xi32>
  %mod_i = graph.mod %i, %j : (tensor<?x4xi32>, tensor<4xi32>) -> tensor<?x4xi32>
  // CHECK: graph.rem %{{.*}}, %{{.*}} : (tensor<?x4xi32>, tensor<4xi32>) -> tensor<?x4xi32>
  %rem_i = graph.rem %i, %j : (tensor<?x4xi32>, tensor<4xi32>) -> tensor<?x4xi32>
  // CHECK: graph.and %{{.*}}, %{{.*}} : (tensor<4xi1>, tensor<*xi1>) -> tensor<*xi1>
  %and = graph.and %b, %u : (tensor<4xi1>, tensor<*xi1>) -> tensor<*xi1>
  // CHECK: graph.or %{{.*}}, %{{.*}} : (tensor<4xi1>, tensor<*xi1>) -> tensor<*xi1>
  %or = graph.or %b, %u : (tensor<4xi1>, tensor<*xi1>) -> tensor<*xi1>
  // CHECK: graph.xor %{{.*}}, %{{.*}} : (tensor<4xi1>, tensor<*xi1>) -> tensor<*xi1>
  %xor = graph.xor %b, %u : (tensor<4xi1>, tensor<*xi1>) -> tensor<*xi1>
  return
}

// CHECK-LABEL: func @compare
func.func @compare(%x: tensor<8x1xf32>, %y: tensor<16xf32>, %i: tensor<?xi64>, %b: tensor<*xi1>) {
  // CHECK: graph.compare %{{.*}}, %{{.*}} {direction = #graph<compare_direction eq>} : (tensor<8x1xf32>, tensor<16xf32>) -> tensor<8x16xi1>
  %eq = graph.compare %x, %y {direction = #graph<compare_direction eq>} : (tensor<8x1xf32>, tensor<16xf32>) -> tensor<8x16xi1>
  // CHECK: graph.compare %{{.*}}, %{{.*}} {direction = #graph<compare_direction ne>} : (tensor<8x1xf32>, tensor<16xf32>) -> tensor<8x16xi1>
  %ne = graph.compare %x, %y {direction = #graph<compare_direction ne>} : (tensor<8x1xf32>, tensor<16xf32>) -> tensor<8x16xi1>
  // CHECK: graph.compare %{{.*}}, %{{.*}} {direction = #graph<compare_direction lt>} : (tensor<8x1xf32>, tensor<16xf32>) -> tensor<8x16xi1>
  %lt = graph.compare %x, %y {direction = #graph<compare_direction lt>} : (tensor<8x1xf32>, tensor<16xf32>) -> tensor<8x16xi1>
  // CHECK: graph.compare %{{.*}}, %{{.*}} {direction = #graph<compare_direction le>} : (tensor<8x1xf32>, tensor<16xf32>) -> tensor<8x16xi1>
  %le = graph.compare %x, %y {direction = #graph<compare_direction le>} : (tensor<8x1xf32>, tensor<16xf32>) -> tensor<8x16xi1>
  // CHECK: graph.compare %{{.*}}, %{{.*}} {direction = #graph<compare_direction gt>} : (tensor<8x1xf32>, tensor<16xf32>) -> tensor<8x16xi1>
  %gt = graph.compare %x, %y {direction = #graph<compare_direction gt>} : (tensor<8x1xf32>, tensor<16xf32>) -> tensor<8x16xi1>
  // CHECK: graph.compare %{{.*}}, %{{.*}} {direction = #graph<compare_direction ge>} : (tensor<8x1xf32>, tensor<16xf32>) -> tensor<8x16xi1>
  %ge = graph.compare %x, %y {direction = #graph<compare_direction ge>} : (tensor<8x1xf32>, tensor<16xf32>) -> tensor<8x16xi1>
  // CHECK: graph.compare %{{.*}}, %{{.*}} {direction = #graph<compare_direction lt>} : (tensor<?xi64>, tensor<?xi64>) -> tensor<?xi1>
  %int = graph.compare %i, %i {direction = #graph<compare_direction lt>} : (tensor<?xi64>, tensor<?xi64>) -> tensor<?xi1>
  // CHECK: graph.compare %{{.*}}, %{{.*}} {direction = #graph<compare_direction eq>} : (tensor<*xi1>, tensor<*xi1>) -> tensor<*xi1>
  %bool = graph.compare %b, %b {direction = #graph<compare_direction eq>} : (tensor<*xi1>, tensor<*xi1>) -> tensor<*xi1>
  return
}

// CHECK-LABEL: func @select
func.func @select(%c: tensor<8x1xi1>, %x: tensor<16xf32>, %y: tensor<f32>, %u: tensor<*xi1>, %d: tensor<?xi32>) {
  // CHECK: graph.select %{{.*}}, %{{.*}}, %{{.*}} : (tensor<8x1xi1>, tensor<16xf32>, tensor<f32>) -> tensor<8x16xf32>
  %0 = graph.select %c, %x, %y : (tensor<8x1xi1>, tensor<16xf32>, tensor<f32>) -> tensor<8x16xf32>
  // CHECK: graph.select %{{.*}}, %{{.*}}, %{{.*}} : (tensor<*xi1>, tensor<?xi32>, tensor<?xi32>) -> tensor<*xi32>
  %1 = graph.select %u, %d, %d : (tensor<*xi1>, tensor<?xi32>, tensor<?xi32>) -> tensor<*xi32>
  // CHECK: graph.select %{{.*}}, %{{.*}}, %{{.*}} : (tensor<8x1xi1>, tensor<8x1xi1>, tensor<*xi1>) -> tensor<*xi1>
  %2 = graph.select %c, %c, %u : (tensor<8x1xi1>, tensor<8x1xi1>, tensor<*xi1>) -> tensor<*xi1>
  return
}

// CHECK-LABEL: func @reduce
func.func @reduce(%x: tensor<2x?x4xf32>, %i: tensor<2x3xi32>, %u: tensor<*xf32>) {
  // CHECK: graph.reduce %{{.*}} {axes = array<i64: 1>, kind = #graph<reduce_kind sum>} : (tensor<2x?x4xf32>) -> tensor<2x4xf32>
  %sum = graph.reduce %x {axes = array<i64: 1>, kind = #graph<reduce_kind sum>} : (tensor<2x?x4xf32>) -> tensor<2x4xf32>
  // CHECK: graph.reduce %{{.*}} {axes = array<i64: 0, -1>, keepdims, kind = #graph<reduce_kind mean>} : (tensor<2x?x4xf32>) -> tensor<1x?x1xf32>
  %mean = graph.reduce %x {axes = array<i64: 0, -1>, keepdims, kind = #graph<reduce_kind mean>} : (tensor<2x?x4xf32>) -> tensor<1x?x1xf32>
  // CHECK: graph.reduce %{{.*}} {axes = array<i64: 0, 1, 2>, kind = #graph<reduce_kind max>} : (tensor<2x?x4xf32>) -> tensor<f32>
  %max = graph.reduce %x {axes = array<i64: 0, 1, 2>, kind = #graph<reduce_kind max>} : (tensor<2x?x4xf32>) -> tensor<f32>
  // CHECK: graph.reduce %{{.*}} {axes = array<i64>, kind = #graph<reduce_kind min>} : (tensor<2x?x4xf32>) -> tensor<2x?x4xf32>
  %none = graph.reduce %x {axes = array<i64>, kind = #graph<reduce_kind min>} : (tensor<2x?x4xf32>) -> tensor<2x?x4xf32>
  // CHECK: graph.reduce %{{.*}} {axes = array<i64: -2>, kind = #graph<reduce_kind prod>} : (tensor<2x3xi32>) -> tensor<?xi32>
  %prod = graph.reduce %i {axes = array<i64: -2>, kind = #graph<reduce_kind prod>} : (tensor<2x3xi32>) -> tensor<?xi32>
  // CHECK: graph.reduce %{{.*}} {axes = array<i64: 5>, kind = #graph<reduce_kind sum>} : (tensor<*xf32>) -> tensor<*xf32>
  %unranked = graph.reduce %u {axes = array<i64: 5>, kind = #graph<reduce_kind sum>} : (tensor<*xf32>) -> tensor<*xf32>
  return
}

// CHECK-LABEL: func @arg_reduce
func.func @arg_reduce(%x: tensor<8x10xf32>, %i: tensor<?x3xi8>, %u: tensor<*xf32>) {
  // CHECK: graph.arg_reduce %{{.*}} {axis = 1 : i64, kind = #graph<reduce_kind max>} : (tensor<8x10xf32>) -> tensor<8xi64>
  %0 = graph.arg_reduce %x {axis = 1 : i64, kind = #graph<reduce_kind max>} : (tensor<8x10xf32>) -> tensor<8xi64>
  // CHECK: graph.arg_reduce %{{.*}} {axis = -2 : i64, keepdims, kind = #graph<reduce_kind min>, select_last_index} : (tensor<?x3xi8>) -> tensor<1x3xi64>
  %1 = graph.arg_reduce %i {axis = -2 : i64, keepdims, kind = #graph<reduce_kind min>, select_last_index} : (tensor<?x3xi8>) -> tensor<1x3xi64>
  // CHECK: graph.arg_reduce %{{.*}} {axis = 0 : i64, kind = #graph<reduce_kind max>} : (tensor<*xf32>) -> tensor<*xi64>
  %2 = graph.arg_reduce %u {axis = 0 : i64, kind = #graph<reduce_kind max>} : (tensor<*xf32>) -> tensor<*xi64>
  return
}

// ONNX's small types; `saturate` is printed only when false (the default is
// true).
// CHECK-LABEL: func @cast_small_types
func.func @cast_small_types(%x: tensor<4xf32>, %q: tensor<4xf8E4M3FNUZ>, %i: tensor<4xi4>) {
  // CHECK: graph.cast %{{.*}} {saturate = false, to = f8E5M2} : (tensor<4xf32>) -> tensor<4xf8E5M2>
  %0 = graph.cast %x {saturate = false, to = f8E5M2} : (tensor<4xf32>) -> tensor<4xf8E5M2>
  // CHECK: graph.cast %{{.*}} {to = f4E2M1FN} : (tensor<4xf32>) -> tensor<4xf4E2M1FN>
  %1 = graph.cast %x {saturate = true, to = f4E2M1FN} : (tensor<4xf32>) -> tensor<4xf4E2M1FN>
  // CHECK: graph.cast %{{.*}} {to = f16} : (tensor<4xf8E4M3FNUZ>) -> tensor<4xf16>
  %2 = graph.cast %q {to = f16} : (tensor<4xf8E4M3FNUZ>) -> tensor<4xf16>
  // CHECK: graph.cast %{{.*}} {to = ui2} : (tensor<4xi4>) -> tensor<4xui2>
  %3 = graph.cast %i {to = ui2} : (tensor<4xi4>) -> tensor<4xui2>
  return
}
