// RUN: graph-opt %s --graph-to-linalg --split-input-file --verify-diagnostics | FileCheck %s

// f32 -> f8E4M3FN (bias 7, 3 mantissa bits, largest 0x7E, NaN 0x7F, no
// infinity): the exponent is rebiased in the f32 bits (120 << 23), 20 bits
// are dropped with ties to even; below the smallest normal (2^-6, f32 bits
// 0x3C800000) the value is scaled by 2^9 and rounded by adding 2^23.
// Saturating, overflow clamps to 0x7E with the sign.
// CHECK-LABEL: func.func @to_e4m3fn(
// CHECK: linalg.generic
// CHECK: ^bb0(%[[IN:.*]]: f32, %{{.*}}: f8E4M3FN):
// CHECK: %[[U:.*]] = arith.bitcast %[[IN]] : f32 to i32
// CHECK: %[[A:.*]] = arith.andi %[[U]], %c2147483647_i32
// CHECK: %[[T:.*]] = arith.subi %[[A]], %c1006632960_i32
// CHECK: arith.shrui %[[T]], %c20_i32
// CHECK: arith.mulf %{{.*}}, %cst{{.*}} : f32
// CHECK: arith.addf %{{.*}}, %cst{{.*}} : f32
// CHECK: arith.cmpi ult, %[[A]], %c1015021568_i32
// CHECK: %[[SAT:.*]] = arith.ori %c126_i32, %{{.*}}
// CHECK: %[[OV:.*]] = arith.cmpi ugt, %{{.*}}, %c126_i32
// CHECK: arith.select %[[OV]], %[[SAT]],
// CHECK: %[[ISNAN:.*]] = arith.cmpi ugt, %[[A]], %c2139095040_i32
// CHECK: %[[R:.*]] = arith.select %[[ISNAN]],
// CHECK: %[[B:.*]] = arith.trunci %[[R]] : i32 to i8
// CHECK: %[[F:.*]] = arith.bitcast %[[B]] : i8 to f8E4M3FN
// CHECK: linalg.yield %[[F]] : f8E4M3FN
func.func @to_e4m3fn(%x: tensor<4xf32>) -> tensor<4xf8E4M3FN> {
  %y = graph.cast %x {to = f8E4M3FN} : (tensor<4xf32>) -> tensor<4xf8E4M3FN>
  return %y : tensor<4xf8E4M3FN>
}

// -----

// Without saturation, f8E5M2 overflows to infinity (0x7C with the sign).
// CHECK-LABEL: func.func @to_e5m2_no_saturate(
// CHECK: %[[INF:.*]] = arith.ori %c124_i32, %{{.*}}
// CHECK: %[[OV:.*]] = arith.cmpi ugt, %{{.*}}, %c123_i32
// CHECK: arith.select %[[OV]], %[[INF]],
// CHECK: arith.bitcast %{{.*}} : i8 to f8E5M2
func.func @to_e5m2_no_saturate(%x: tensor<4xf16>) -> tensor<4xf8E5M2> {
  %y = graph.cast %x {saturate = false, to = f8E5M2} : (tensor<4xf16>) -> tensor<4xf8E5M2>
  return %y : tensor<4xf8E5M2>
}

// -----

// f4E2M1FN -> f16 through f32: the 4-bit pattern is widened, normal values
// rebiased (126 << 23), subnormals scaled by 2^-1; then truncf.
// CHECK-LABEL: func.func @from_e2m1(
// CHECK: ^bb0(%[[IN:.*]]: f4E2M1FN, %{{.*}}: f16):
// CHECK: %[[B:.*]] = arith.bitcast %[[IN]] : f4E2M1FN to i4
// CHECK: arith.extui %[[B]] : i4 to i32
// CHECK: arith.addi %{{.*}}, %c1056964608_i32
// CHECK: arith.uitofp
// CHECK: arith.mulf %{{.*}}, %cst{{.*}} : f32
// CHECK: %[[F:.*]] = arith.bitcast %{{.*}} : i32 to f32
// CHECK: arith.truncf %[[F]] : f32 to f16
func.func @from_e2m1(%x: tensor<4xf4E2M1FN>) -> tensor<4xf16> {
  %y = graph.cast %x {to = f16} : (tensor<4xf4E2M1FN>) -> tensor<4xf16>
  return %y : tensor<4xf16>
}

// -----

// f8E8M0FNU -> f32: exponent field 0 is 2^-127 (f32 bits 0x00400000), 0xFF
// is NaN.
// CHECK-LABEL: func.func @from_e8m0(
// CHECK: arith.select %{{.*}}, %c4194304_i32,
// CHECK: arith.cmpi ugt, %{{.*}}, %c254_i32
// CHECK: arith.select %{{.*}}, %c2143289344_i32,
func.func @from_e8m0(%x: tensor<4xf8E8M0FNU>) -> tensor<4xf32> {
  %y = graph.cast %x {to = f32} : (tensor<4xf8E8M0FNU>) -> tensor<4xf32>
  return %y : tensor<4xf32>
}

// -----

// 4-bit integers become 8-bit ones; a float cast to i4 goes through i32 and
// i8, then wraps: ((x + 8) & 15) - 8.
// CHECK-LABEL: func.func @to_i4(
// CHECK-SAME: -> tensor<4xi8>
// CHECK: arith.fptosi %{{.*}} : f32 to i32
// CHECK: arith.trunci %{{.*}} : i32 to i8
// CHECK: arith.constant dense<8> : tensor<i8>
// CHECK: arith.addi
// CHECK: arith.constant dense<15> : tensor<i8>
// CHECK: arith.andi
// CHECK: arith.subi
func.func @to_i4(%x: tensor<4xf32>) -> tensor<4xi4> {
  %y = graph.cast %x {to = i4} : (tensor<4xf32>) -> tensor<4xi4>
  return %y : tensor<4xi4>
}

// -----

// Unsigned: a mask; a ui2 operand arrives as ui8 (then i8), zero-extended.
// CHECK-LABEL: func.func @ui2_to_ui4(
// CHECK-SAME: %{{.*}}: tensor<4xi8>) -> tensor<4xi8>
// CHECK: arith.constant dense<15> : tensor<i8>
// CHECK: arith.andi
func.func @ui2_to_ui4(%x: tensor<4xui2>) -> tensor<4xui4> {
  %y = graph.cast %x {to = ui4} : (tensor<4xui2>) -> tensor<4xui4>
  return %y : tensor<4xui4>
}

// -----

// i4 constants are sign-extended, ui4 ones zero-extended; data movement
// needs nothing.
// CHECK-LABEL: func.func @const_i4(
// CHECK-SAME: %{{.*}}: tensor<4xi8>) -> (tensor<2x2xi8>, tensor<2xi8>)
// CHECK-DAG: arith.constant dense<[-8, 7, -1, 0]> : tensor<4xi8>
// CHECK-DAG: arith.constant dense<[15, 1]> : tensor<2xi8>
// CHECK: tensor.expand_shape %{{.*}} {{\[\[}}0, 1]] output_shape [2, 2] : tensor<4xi8> into tensor<2x2xi8>
func.func @const_i4(%x: tensor<4xi4>) -> (tensor<2x2xi4>, tensor<2xui4>) {
  %c = graph.constant dense<[-8, 7, -1, 0]> : tensor<4xi4>
  %u = graph.constant dense<[15, 1]> : tensor<2xui4>
  %s = graph.concat %c, %x {axis = 0 : i64} : (tensor<4xi4>, tensor<4xi4>) -> tensor<8xi4>
  %r = graph.reshape %x {shape = array<i64: 2, 2>} : (tensor<4xi4>) -> tensor<2x2xi4>
  return %r, %u : tensor<2x2xi4>, tensor<2xui4>
}

// -----

func.func @add_f8(%x: tensor<4xf8E5M2>) -> tensor<4xf8E5M2> {
  // expected-error @+1 {{graph.add on 'f8E5M2' is not supported; cast to f32 first}}
  %y = graph.add %x, %x : (tensor<4xf8E5M2>, tensor<4xf8E5M2>) -> tensor<4xf8E5M2>
  return %y : tensor<4xf8E5M2>
}

// -----

func.func @mul_i4(%x: tensor<4xi4>) -> tensor<4xi4> {
  // expected-error @+1 {{graph.mul on 'i4' is not supported; cast to a wider integer type first}}
  %y = graph.mul %x, %x : (tensor<4xi4>, tensor<4xi4>) -> tensor<4xi4>
  return %y : tensor<4xi4>
}
