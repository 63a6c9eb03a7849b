// RUN: graph-opt %s --graph-to-linalg --split-input-file --verify-diagnostics | FileCheck %s

// Unsigned integers become signless; ordering ops flip the sign bit so that
// signed order is the unsigned one.
// CHECK-LABEL: func.func @less(
// CHECK-SAME: %[[A:.*]]: tensor<4xi8>, %[[B:.*]]: tensor<4xi8>) -> tensor<4xi1>
// CHECK: arith.constant dense<-128> : tensor<i8>
// CHECK: arith.xori
// CHECK: arith.xori
// CHECK: arith.cmpi slt
func.func @less(%a: tensor<4xui8>, %b: tensor<4xui8>) -> tensor<4xi1> {
  %0 = graph.compare %a, %b {direction = #graph<compare_direction lt>} : (tensor<4xui8>, tensor<4xui8>) -> tensor<4xi1>
  return %0 : tensor<4xi1>
}

// -----

// Division zero-extends to i64 and truncates back.
// CHECK-LABEL: func.func @div(
// CHECK-SAME: tensor<4xi16>, %{{.*}}: tensor<4xi16>) -> tensor<4xi16>
// CHECK: arith.extsi %{{.*}} : i16 to i64
// CHECK: arith.constant dense<65535> : tensor<i64>
// CHECK: arith.andi
// CHECK: arith.divsi %{{.*}}, %{{.*}} : i64
// CHECK: arith.trunci %{{.*}} : i64 to i16
func.func @div(%a: tensor<4xui16>, %b: tensor<4xui16>) -> tensor<4xui16> {
  %0 = graph.div %a, %b : (tensor<4xui16>, tensor<4xui16>) -> tensor<4xui16>
  return %0 : tensor<4xui16>
}

// -----

// A cast from an unsigned integer zero-extends first.
// CHECK-LABEL: func.func @to_float(
// CHECK: arith.constant dense<4294967295> : tensor<i64>
// CHECK: arith.andi
// CHECK: arith.sitofp %{{.*}} : i64 to f32
func.func @to_float(%a: tensor<4xui32>) -> tensor<4xf32> {
  %0 = graph.cast %a {to = f32} : (tensor<4xui32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// A float to unsigned cast converts to i64 and truncates.
// CHECK-LABEL: func.func @from_float(
// CHECK-SAME: -> tensor<4xi8>
// CHECK: arith.fptosi %{{.*}} : f32 to i64
// CHECK: arith.trunci %{{.*}} : i64 to i8
func.func @from_float(%a: tensor<4xf32>) -> tensor<4xui8> {
  %0 = graph.cast %a {to = ui8} : (tensor<4xf32>) -> tensor<4xui8>
  return %0 : tensor<4xui8>
}

// -----

// A max reduction flips its input and its result.
// CHECK-LABEL: func.func @reduce_max(
// CHECK: arith.xori
// CHECK: arith.maxsi
// CHECK: arith.xori
func.func @reduce_max(%a: tensor<4xui8>) -> tensor<ui8> {
  %0 = graph.reduce %a {axes = array<i64: 0>, kind = #graph<reduce_kind max>} : (tensor<4xui8>) -> tensor<ui8>
  return %0 : tensor<ui8>
}

// -----

// Wrapping arithmetic and constants only change type.
// CHECK-LABEL: func.func @add_const(
// CHECK: arith.constant dense<[1, -1]> : tensor<2xi8>
// CHECK: arith.addi
func.func @add_const(%a: tensor<2xui8>) -> tensor<2xui8> {
  %c = graph.constant dense<[1, 255]> : tensor<2xui8>
  %0 = graph.add %a, %c : (tensor<2xui8>, tensor<2xui8>) -> tensor<2xui8>
  return %0 : tensor<2xui8>
}

// -----

// 64-bit division has no wider type: the dividend is halved (a logical
// shift) so that the signed division is exact, the quotient corrected by
// one where the remainder is still at least the divisor, and divisors from
// 2^63 on give n >= d (Bundle/uint64.test checks the numbers).
// CHECK-LABEL: func.func @div64(
// CHECK-SAME: tensor<4xi64>, %{{.*}}: tensor<4xi64>) -> tensor<4xi64>
// CHECK: arith.shrui
// CHECK: arith.divsi
// CHECK: arith.shli
// CHECK: arith.cmpi sge
// CHECK: arith.cmpi slt
// CHECK: arith.select
// CHECK-NOT: arith.extui
func.func @div64(%a: tensor<4xui64>, %b: tensor<4xui64>) -> tensor<4xui64> {
  %0 = graph.div %a, %b : (tensor<4xui64>, tensor<4xui64>) -> tensor<4xui64>
  return %0 : tensor<4xui64>
}

// -----

// ui64 to float: the signed conversion, or for values from 2^63 on the
// conversion of x >> 1 with its low bit kept (sticky), doubled.
// CHECK-LABEL: func.func @u64_to_f32(
// CHECK: arith.sitofp
// CHECK: arith.shrui
// CHECK: arith.sitofp
// CHECK: arith.addf
// CHECK: arith.select
// CHECK-NOT: arith.uitofp
func.func @u64_to_f32(%a: tensor<4xui64>) -> tensor<4xf32> {
  %0 = graph.cast %a {to = f32} : (tensor<4xui64>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// float to ui64: from 2^63 on, x - 2^63 converted with the top bit set.
// CHECK-LABEL: func.func @f32_to_u64(
// CHECK: arith.constant dense<9.22337203E+18> : tensor<f32>
// CHECK: arith.fptosi
// CHECK: arith.subf
// CHECK: arith.fptosi
// CHECK: arith.xori
// CHECK: arith.cmpf oge
// CHECK: arith.select
func.func @f32_to_u64(%a: tensor<4xf32>) -> tensor<4xui64> {
  %0 = graph.cast %a {to = ui64} : (tensor<4xf32>) -> tensor<4xui64>
  return %0 : tensor<4xui64>
}

// -----

// top_k orders unsigned values through the flipped sign bit, and flips the
// values back.
// CHECK-LABEL: func.func @top_k_u8(
// CHECK: arith.xori
// CHECK: arith.xori
func.func @top_k_u8(%a: tensor<5xui8>) -> (tensor<2xui8>, tensor<2xi64>) {
  %v, %i = graph.top_k %a {axis = 0 : i64, k = 2 : i64} : (tensor<5xui8>) -> (tensor<2xui8>, tensor<2xi64>)
  return %v, %i : tensor<2xui8>, tensor<2xi64>
}
