// RUN: graph-opt %s -canonicalize -split-input-file | FileCheck %s

// Expected constants were computed independently with Python (float64, and
// struct-packed float32 for f32 results), not copied from graph-opt.

// CHECK-LABEL: func @fold_float_arith
func.func @fold_float_arith() -> (tensor<2xf32>, tensor<f64>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>) {
  %a = graph.constant dense<[1.5, 2.25]> : tensor<2xf32>
  %s = graph.constant dense<0.5> : tensor<f32>
  %t = graph.constant dense<0.1> : tensor<f64>
  %u = graph.constant dense<0.2> : tensor<f64>
  %two = graph.constant dense<[2.0, 3.0]> : tensor<2xf32>
  // A splat broadcasts to the other operand's shape.
  %add = graph.add %a, %s : (tensor<2xf32>, tensor<f32>) -> tensor<2xf32>
  %addd = graph.add %t, %u : (tensor<f64>, tensor<f64>) -> tensor<f64>
  %sqrt = graph.sqrt %two : (tensor<2xf32>) -> tensor<2xf32>
  %rcp = graph.reciprocal %two : (tensor<2xf32>) -> tensor<2xf32>
  %fd = graph.floor_div %a, %s : (tensor<2xf32>, tensor<f32>) -> tensor<2xf32>
  // CHECK-DAG: graph.constant dense<[2.000000e+00, 2.750000e+00]> : tensor<2xf32>
  // CHECK-DAG: graph.constant dense<0.30000000000000004> : tensor<f64>
  // CHECK-DAG: graph.constant dense<[1.41421354, 1.73205078]> : tensor<2xf32>
  // CHECK-DAG: graph.constant dense<[5.000000e-01, 0.333333343]> : tensor<2xf32>
  // CHECK-DAG: graph.constant dense<[3.000000e+00, 4.000000e+00]> : tensor<2xf32>
  // CHECK-NOT: graph.add
  // CHECK-NOT: graph.sqrt
  // CHECK-NOT: graph.reciprocal
  // CHECK-NOT: graph.floor_div
  return %add, %addd, %sqrt, %rcp, %fd : tensor<2xf32>, tensor<f64>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>
}

// -----

// CHECK-LABEL: func @fold_float_rounding
func.func @fold_float_rounding() -> (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) {
  %x = graph.constant dense<[0.5, 1.5, 2.5, -0.5]> : tensor<4xf32>
  %y = graph.constant dense<[5.5, -5.5, 4.0, -4.0]> : tensor<4xf32>
  %z = graph.constant dense<[2.0, 2.0, -2.0, 2.0]> : tensor<4xf32>
  // CHECK-DAG: graph.constant dense<[0.000000e+00, 2.000000e+00, 2.000000e+00, -0.000000e+00]> : tensor<4xf32>
  %round = graph.round %x : (tensor<4xf32>) -> tensor<4xf32>
  // CHECK-DAG: graph.constant dense<[0.000000e+00, 1.000000e+00, 2.000000e+00, -1.000000e+00]> : tensor<4xf32>
  %floor = graph.floor %x : (tensor<4xf32>) -> tensor<4xf32>
  // CHECK-DAG: graph.constant dense<[1.000000e+00, 2.000000e+00, 3.000000e+00, -0.000000e+00]> : tensor<4xf32>
  %ceil = graph.ceil %x : (tensor<4xf32>) -> tensor<4xf32>
  // C fmod: the sign of the dividend.
  // CHECK-DAG: graph.constant dense<[1.500000e+00, -1.500000e+00, 0.000000e+00, -0.000000e+00]> : tensor<4xf32>
  %rem = graph.rem %y, %z : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  // Python %: the sign of the divisor, zeros included.
  // CHECK-DAG: graph.constant dense<[1.500000e+00, 5.000000e-01, -0.000000e+00, 0.000000e+00]> : tensor<4xf32>
  %mod = graph.mod %y, %z : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  // CHECK-DAG: graph.constant dense<[1.000000e+00, 1.000000e+00, 1.000000e+00, -1.000000e+00]> : tensor<4xf32>
  %sign = graph.sign %x : (tensor<4xf32>) -> tensor<4xf32>
  // CHECK-NOT: graph.round
  // CHECK-NOT: graph.floor
  // CHECK-NOT: graph.ceil
  // CHECK-NOT: graph.rem
  // CHECK-NOT: graph.mod
  // CHECK-NOT: graph.sign
  return %round, %floor, %ceil, %rem, %mod, %sign : tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>
}

// -----

// CHECK-LABEL: func @fold_float_minmax
func.func @fold_float_minmax() -> (tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>) {
  %x = graph.constant dense<[-0.0, 3.0, -2.0]> : tensor<3xf32>
  %y = graph.constant dense<[0.0, -1.0, 5.0]> : tensor<3xf32>
  %lo = graph.constant dense<-1.0> : tensor<f32>
  %hi = graph.constant dense<2.0> : tensor<f32>
  // IEEE 754-2019 maximum/minimum order -0.0 below +0.0.
  // CHECK-DAG: graph.constant dense<[0.000000e+00, 3.000000e+00, 5.000000e+00]> : tensor<3xf32>
  %max = graph.max %x, %y : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
  // CHECK-DAG: graph.constant dense<[-0.000000e+00, -1.000000e+00, -2.000000e+00]> : tensor<3xf32>
  %min = graph.min %x, %y : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
  // CHECK-DAG: graph.constant dense<[0.000000e+00, 3.000000e+00, 0.000000e+00]> : tensor<3xf32>
  %relu = graph.relu %x : (tensor<3xf32>) -> tensor<3xf32>
  // CHECK-DAG: graph.constant dense<[-0.000000e+00, 2.000000e+00, -1.000000e+00]> : tensor<3xf32>
  %clamp = graph.clamp %x, %lo, %hi : (tensor<3xf32>, tensor<f32>, tensor<f32>) -> tensor<3xf32>
  // CHECK-DAG: graph.constant dense<[0.000000e+00, -3.000000e+00, 2.000000e+00]> : tensor<3xf32>
  %neg = graph.neg %x : (tensor<3xf32>) -> tensor<3xf32>
  // CHECK-NOT: graph.max
  // CHECK-NOT: graph.min
  // CHECK-NOT: graph.relu
  // CHECK-NOT: graph.clamp
  // CHECK-NOT: graph.neg
  return %max, %min, %relu, %clamp, %neg : tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>
}

// -----

// CHECK-LABEL: func @fold_int_division
func.func @fold_int_division() -> (tensor<4xi32>, tensor<4xi32>, tensor<4xi32>, tensor<4xi32>) {
  %a = graph.constant dense<[7, -7, 7, -7]> : tensor<4xi32>
  %b = graph.constant dense<[2, 2, -2, -2]> : tensor<4xi32>
  // CHECK-DAG: graph.constant dense<[3, -3, -3, 3]> : tensor<4xi32>
  %div = graph.div %a, %b : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32>
  // CHECK-DAG: graph.constant dense<[3, -4, -4, 3]> : tensor<4xi32>
  %fdiv = graph.floor_div %a, %b : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32>
  // CHECK-DAG: graph.constant dense<[1, 1, -1, -1]> : tensor<4xi32>
  %mod = graph.mod %a, %b : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32>
  // CHECK-DAG: graph.constant dense<[1, -1, 1, -1]> : tensor<4xi32>
  %rem = graph.rem %a, %b : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32>
  // CHECK-NOT: graph.div
  // CHECK-NOT: graph.floor_div
  // CHECK-NOT: graph.mod
  // CHECK-NOT: graph.rem
  return %div, %fdiv, %mod, %rem : tensor<4xi32>, tensor<4xi32>, tensor<4xi32>, tensor<4xi32>
}

// -----

// CHECK-LABEL: func @fold_int_arith
func.func @fold_int_arith() -> (tensor<3xi8>, tensor<3xi8>, tensor<3xi8>, tensor<3xi8>, tensor<3xi8>, tensor<3xi8>) {
  %a = graph.constant dense<[100, -128, 5]> : tensor<3xi8>
  %b = graph.constant dense<[100, 1, -3]> : tensor<3xi8>
  // Integers wrap around.
  // CHECK-DAG: graph.constant dense<[-56, -127, 2]> : tensor<3xi8>
  %add = graph.add %a, %b : (tensor<3xi8>, tensor<3xi8>) -> tensor<3xi8>
  // CHECK-DAG: graph.constant dense<[0, 127, 8]> : tensor<3xi8>
  %sub = graph.sub %a, %b : (tensor<3xi8>, tensor<3xi8>) -> tensor<3xi8>
  // CHECK-DAG: graph.constant dense<[16, -128, -15]> : tensor<3xi8>
  %mul = graph.mul %a, %b : (tensor<3xi8>, tensor<3xi8>) -> tensor<3xi8>
  // CHECK-DAG: graph.constant dense<[100, -128, 5]> : tensor<3xi8>
  %abs = graph.abs %a : (tensor<3xi8>) -> tensor<3xi8>
  // CHECK-DAG: graph.constant dense<[1, -1, 1]> : tensor<3xi8>
  %sign = graph.sign %a : (tensor<3xi8>) -> tensor<3xi8>
  // CHECK-DAG: graph.constant dense<[100, 1, 5]> : tensor<3xi8>
  %max = graph.max %a, %b : (tensor<3xi8>, tensor<3xi8>) -> tensor<3xi8>
  // CHECK-NOT: graph.add
  // CHECK-NOT: graph.sub
  // CHECK-NOT: graph.mul
  // CHECK-NOT: graph.abs
  // CHECK-NOT: graph.sign
  // CHECK-NOT: graph.max
  return %add, %sub, %mul, %abs, %sign, %max : tensor<3xi8>, tensor<3xi8>, tensor<3xi8>, tensor<3xi8>, tensor<3xi8>, tensor<3xi8>
}

// -----

// CHECK-LABEL: func @fold_logic_compare_select
func.func @fold_logic_compare_select() -> (tensor<4xi1>, tensor<4xi1>, tensor<4xi1>, tensor<4xi1>, tensor<4xi1>, tensor<4xi1>, tensor<4xi1>, tensor<4xf32>) {
  %p = graph.constant dense<[true, true, false, false]> : tensor<4xi1>
  %q = graph.constant dense<[true, false, true, false]> : tensor<4xi1>
  // CHECK-DAG: %[[TFFF:.*]] = graph.constant dense<[true, false, false, false]> : tensor<4xi1>
  %and = graph.and %p, %q : (tensor<4xi1>, tensor<4xi1>) -> tensor<4xi1>
  // CHECK-DAG: %[[TTTF:.*]] = graph.constant dense<[true, true, true, false]> : tensor<4xi1>
  %or = graph.or %p, %q : (tensor<4xi1>, tensor<4xi1>) -> tensor<4xi1>
  // CHECK-DAG: %[[FTTF:.*]] = graph.constant dense<[false, true, true, false]> : tensor<4xi1>
  %xor = graph.xor %p, %q : (tensor<4xi1>, tensor<4xi1>) -> tensor<4xi1>
  // CHECK-DAG: %[[FFTT:.*]] = graph.constant dense<[false, false, true, true]> : tensor<4xi1>
  %not = graph.not %p : (tensor<4xi1>) -> tensor<4xi1>
  // A NaN compares unordered: only ne is true.
  %x = graph.constant dense<[1.0, 2.0, 0x7FC00000, 3.0]> : tensor<4xf32>
  %y = graph.constant dense<2.0> : tensor<f32>
  // (lt gives [true, false, false, false], the same constant as %and.)
  %lt = graph.compare %x, %y {direction = #graph<compare_direction lt>} : (tensor<4xf32>, tensor<f32>) -> tensor<4xi1>
  // CHECK-DAG: %[[TFTT:.*]] = graph.constant dense<[true, false, true, true]> : tensor<4xi1>
  %ne = graph.compare %x, %y {direction = #graph<compare_direction ne>} : (tensor<4xf32>, tensor<f32>) -> tensor<4xi1>
  // Integers compare signed.
  %i = graph.constant dense<[-1, 0, 1, 2]> : tensor<4xi32>
  %j = graph.constant dense<1> : tensor<i32>
  // (ge gives [false, false, true, true], the same constant as %not.)
  %ge = graph.compare %i, %j {direction = #graph<compare_direction ge>} : (tensor<4xi32>, tensor<i32>) -> tensor<4xi1>
  // CHECK-DAG: %[[SEL:.*]] = graph.constant dense<[1.000000e+00, 2.000000e+00, 2.000000e+00, 2.000000e+00]> : tensor<4xf32>
  %sel = graph.select %p, %x, %y : (tensor<4xi1>, tensor<4xf32>, tensor<f32>) -> tensor<4xf32>
  // CHECK-NOT: graph.and
  // CHECK-NOT: graph.or
  // CHECK-NOT: graph.xor
  // CHECK-NOT: graph.not
  // CHECK-NOT: graph.compare
  // CHECK-NOT: graph.select
  // CHECK: return %[[TFFF]], %[[TTTF]], %[[FTTF]], %[[FFTT]], %[[TFFF]], %[[TFTT]], %[[FFTT]], %[[SEL]] :
  return %and, %or, %xor, %not, %lt, %ne, %ge, %sel : tensor<4xi1>, tensor<4xi1>, tensor<4xi1>, tensor<4xi1>, tensor<4xi1>, tensor<4xi1>, tensor<4xi1>, tensor<4xf32>
}

// -----

// CHECK-LABEL: func @fold_cast
func.func @fold_cast() -> (tensor<3xi32>, tensor<3xi1>, tensor<2xf32>, tensor<2xi8>, tensor<2xi32>, tensor<3xf64>) {
  %f = graph.constant dense<[2.7, -2.7, 0.0]> : tensor<3xf32>
  %i = graph.constant dense<[16777217, 300]> : tensor<2xi32>
  %b = graph.constant dense<[true, false]> : tensor<2xi1>
  // Float to integer truncates towards zero.
  // CHECK-DAG: graph.constant dense<[2, -2, 0]> : tensor<3xi32>
  %fi = graph.cast %f {to = i32} : (tensor<3xf32>) -> tensor<3xi32>
  // Anything to i1 is "non-zero".
  // CHECK-DAG: graph.constant dense<[true, true, false]> : tensor<3xi1>
  %fb = graph.cast %f {to = i1} : (tensor<3xf32>) -> tensor<3xi1>
  // 2^24 + 1 rounds to 2^24 in f32, whose bits are 0x4B800000.
  // CHECK-DAG: graph.constant dense<[0x4B800000, 3.000000e+02]> : tensor<2xf32>
  %if = graph.cast %i {to = f32} : (tensor<2xi32>) -> tensor<2xf32>
  // Narrowing truncates the two's complement bits: 16777217 = 0x1000001, 300 = 0x12C.
  // CHECK-DAG: graph.constant dense<[1, 44]> : tensor<2xi8>
  %ii = graph.cast %i {to = i8} : (tensor<2xi32>) -> tensor<2xi8>
  // Booleans widen to 0 and 1, not -1.
  // CHECK-DAG: graph.constant dense<[1, 0]> : tensor<2xi32>
  %bi = graph.cast %b {to = i32} : (tensor<2xi1>) -> tensor<2xi32>
  // CHECK-DAG: graph.constant dense<[2.7000000476837158, -2.7000000476837158, 0.000000e+00]> : tensor<3xf64>
  %ff = graph.cast %f {to = f64} : (tensor<3xf32>) -> tensor<3xf64>
  // CHECK-NOT: graph.cast
  return %fi, %fb, %if, %ii, %bi, %ff : tensor<3xi32>, tensor<3xi1>, tensor<2xf32>, tensor<2xi8>, tensor<2xi32>, tensor<3xf64>
}

// -----

// Folds whose result the target may compute differently stay.
// CHECK-LABEL: func @no_fold
func.func @no_fold() -> (tensor<2xf32>, tensor<2xf32>, tensor<i32>, tensor<i32>, tensor<f32>, tensor<2xf16>, tensor<2xi32>, tensor<2x2xf32>) {
  %x = graph.constant dense<[0.0, 1.0]> : tensor<2xf32>
  %zero = graph.constant dense<0.0> : tensor<f32>
  %min = graph.constant dense<-2147483648> : tensor<i32>
  %m1 = graph.constant dense<-1> : tensor<i32>
  %z = graph.constant dense<0> : tensor<i32>
  %h = graph.constant dense<[1.0, 2.0]> : tensor<2xf16>
  %big = graph.constant dense<[1.0, 3.0e9]> : tensor<2xf32>
  %m1f = graph.constant dense<-1.0> : tensor<f32>
  // CHECK: graph.exp
  %exp = graph.exp %x : (tensor<2xf32>) -> tensor<2xf32>
  // 0 / 0 is a NaN.
  // CHECK: graph.div %{{.*}}, %{{.*}} : (tensor<2xf32>, tensor<f32>)
  %nan = graph.div %x, %zero : (tensor<2xf32>, tensor<f32>) -> tensor<2xf32>
  // CHECK: graph.div %{{.*}}, %{{.*}} : (tensor<i32>, tensor<i32>)
  %ovf = graph.div %min, %m1 : (tensor<i32>, tensor<i32>) -> tensor<i32>
  // CHECK: graph.rem %{{.*}}, %{{.*}} : (tensor<i32>, tensor<i32>)
  %byzero = graph.rem %m1, %z : (tensor<i32>, tensor<i32>) -> tensor<i32>
  // CHECK: graph.sqrt
  %sqrt = graph.sqrt %m1f : (tensor<f32>) -> tensor<f32>
  // f16 arithmetic is not folded.
  // CHECK: graph.add %{{.*}}, %{{.*}} : (tensor<2xf16>, tensor<2xf16>)
  %half = graph.add %h, %h : (tensor<2xf16>, tensor<2xf16>) -> tensor<2xf16>
  // 3e9 does not fit in i32.
  // CHECK: graph.cast
  %cast = graph.cast %big {to = i32} : (tensor<2xf32>) -> tensor<2xi32>
  // Non-splat broadcasting is not expanded.
  %v = graph.constant dense<[1.0, 2.0]> : tensor<2xf32>
  %w = graph.constant dense<[[1.0], [2.0]]> : tensor<2x1xf32>
  // CHECK: graph.mul %{{.*}}, %{{.*}} : (tensor<2xf32>, tensor<2x1xf32>)
  %outer = graph.mul %v, %w : (tensor<2xf32>, tensor<2x1xf32>) -> tensor<2x2xf32>
  return %exp, %nan, %ovf, %byzero, %sqrt, %half, %cast, %outer : tensor<2xf32>, tensor<2xf32>, tensor<i32>, tensor<i32>, tensor<f32>, tensor<2xf16>, tensor<2xi32>, tensor<2x2xf32>
}

// -----

// CHECK-LABEL: func @arith_identities
// CHECK-SAME: (%[[X:.*]]: tensor<4xf32>, %[[I:.*]]: tensor<4xi32>)
func.func @arith_identities(%x: tensor<4xf32>, %i: tensor<4xi32>) -> (tensor<4xf32>, tensor<4xf32>, tensor<4xi32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xi32>, tensor<4xi32>, tensor<4xf32>, tensor<4xi32>) {
  %nz = graph.constant dense<-0.0> : tensor<f32>
  %one = graph.constant dense<1.0> : tensor<f32>
  %pz = graph.constant dense<0.0> : tensor<4xf32>
  %zi = graph.constant dense<0> : tensor<i32>
  %onei = graph.constant dense<1> : tensor<4xi32>
  // x + (-0.0) is x, with the constant on either side.
  %0 = graph.add %x, %nz : (tensor<4xf32>, tensor<f32>) -> tensor<4xf32>
  %1 = graph.add %nz, %x : (tensor<f32>, tensor<4xf32>) -> tensor<4xf32>
  %2 = graph.add %i, %zi : (tensor<4xi32>, tensor<i32>) -> tensor<4xi32>
  // x - (+0.0), x * 1 and x / 1 are x.
  %3 = graph.sub %x, %pz : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %4 = graph.mul %one, %x : (tensor<f32>, tensor<4xf32>) -> tensor<4xf32>
  %5 = graph.div %x, %one : (tensor<4xf32>, tensor<f32>) -> tensor<4xf32>
  %6 = graph.floor_div %i, %onei : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32>
  // Integer x * 0 and x - x are 0.
  // CHECK-DAG: %[[ZERO:.*]] = graph.constant dense<0> : tensor<4xi32>
  %7 = graph.mul %i, %zi : (tensor<4xi32>, tensor<i32>) -> tensor<4xi32>
  %8 = graph.sub %i, %i : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32>
  %9 = graph.max %x, %x : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %10 = graph.min %i, %i : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32>
  // CHECK-NOT: graph.add
  // CHECK-NOT: graph.sub
  // CHECK-NOT: graph.mul
  // CHECK-NOT: graph.div
  // CHECK-NOT: graph.floor_div
  // CHECK-NOT: graph.max
  // CHECK-NOT: graph.min
  // CHECK: return %[[X]], %[[X]], %[[I]], %[[X]], %[[X]], %[[X]], %[[I]], %[[ZERO]], %[[X]], %[[I]] :
  return %0, %1, %2, %3, %4, %5, %6, %8, %9, %10 : tensor<4xf32>, tensor<4xf32>, tensor<4xi32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xi32>, tensor<4xi32>, tensor<4xf32>, tensor<4xi32>
}

// -----

// Identities that do not hold for floats, or that would change the type.
// CHECK-LABEL: func @not_identities
func.func @not_identities(%x: tensor<4xf32>, %d: tensor<?xf32>) -> (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<2x4xf32>, tensor<4xf32>, tensor<4xf32>) {
  %pz = graph.constant dense<0.0> : tensor<f32>
  %one = graph.constant dense<1.0> : tensor<2x4xf32>
  // -0.0 + +0.0 is +0.0.
  // CHECK: graph.add %{{.*}}, %{{.*}} : (tensor<4xf32>, tensor<f32>)
  %0 = graph.add %x, %pz : (tensor<4xf32>, tensor<f32>) -> tensor<4xf32>
  // inf * 0 is NaN; x - x is NaN for an infinite x.
  // CHECK: graph.mul %{{.*}}, %{{.*}} : (tensor<4xf32>, tensor<f32>)
  %1 = graph.mul %x, %pz : (tensor<4xf32>, tensor<f32>) -> tensor<4xf32>
  // CHECK: graph.sub %{{.*}}, %{{.*}} : (tensor<4xf32>, tensor<4xf32>)
  %2 = graph.sub %x, %x : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  // Broadcasting x * 1 changes the shape.
  // CHECK: graph.mul %{{.*}}, %{{.*}} : (tensor<4xf32>, tensor<2x4xf32>)
  %3 = graph.mul %x, %one : (tensor<4xf32>, tensor<2x4xf32>) -> tensor<2x4xf32>
  // A refining x + (-0.0) changes the type.
  %nz = graph.constant dense<-0.0> : tensor<f32>
  // CHECK: graph.add %{{.*}}, %{{.*}} : (tensor<?xf32>, tensor<f32>) -> tensor<4xf32>
  %4 = graph.add %d, %nz : (tensor<?xf32>, tensor<f32>) -> tensor<4xf32>
  // floor(x / 1) is floor(x) for floats.
  %onef = graph.constant dense<1.0> : tensor<f32>
  // CHECK: graph.floor_div
  %5 = graph.floor_div %x, %onef : (tensor<4xf32>, tensor<f32>) -> tensor<4xf32>
  return %0, %1, %2, %3, %4, %5 : tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<2x4xf32>, tensor<4xf32>, tensor<4xf32>
}

// -----

// CHECK-LABEL: func @logic_identities
// CHECK-SAME: (%[[B:.*]]: tensor<4xi1>, %[[C:.*]]: tensor<4xi1>)
func.func @logic_identities(%b: tensor<4xi1>, %c: tensor<4xi1>) -> (tensor<4xi1>, tensor<4xi1>, tensor<4xi1>, tensor<4xi1>, tensor<4xi1>, tensor<4xi1>, tensor<4xi1>) {
  %t = graph.constant dense<true> : tensor<i1>
  %f = graph.constant dense<false> : tensor<4xi1>
  // CHECK-DAG: %[[TRUE:.*]] = graph.constant dense<true> : tensor<4xi1>
  // CHECK-DAG: %[[FALSE:.*]] = graph.constant dense<false> : tensor<4xi1>
  %0 = graph.and %b, %t : (tensor<4xi1>, tensor<i1>) -> tensor<4xi1>
  %1 = graph.and %f, %b : (tensor<4xi1>, tensor<4xi1>) -> tensor<4xi1>
  %2 = graph.or %b, %f : (tensor<4xi1>, tensor<4xi1>) -> tensor<4xi1>
  %3 = graph.or %t, %c : (tensor<i1>, tensor<4xi1>) -> tensor<4xi1>
  %4 = graph.xor %c, %c : (tensor<4xi1>, tensor<4xi1>) -> tensor<4xi1>
  %5 = graph.and %c, %c : (tensor<4xi1>, tensor<4xi1>) -> tensor<4xi1>
  %n = graph.not %b : (tensor<4xi1>) -> tensor<4xi1>
  %6 = graph.not %n : (tensor<4xi1>) -> tensor<4xi1>
  // CHECK-NOT: graph.and
  // CHECK-NOT: graph.or
  // CHECK-NOT: graph.xor
  // CHECK-NOT: graph.not
  // CHECK: return %[[B]], %[[FALSE]], %[[B]], %[[TRUE]], %[[FALSE]], %[[C]], %[[B]] :
  return %0, %1, %2, %3, %4, %5, %6 : tensor<4xi1>, tensor<4xi1>, tensor<4xi1>, tensor<4xi1>, tensor<4xi1>, tensor<4xi1>, tensor<4xi1>
}

// -----

// CHECK-LABEL: func @unary_identities
// CHECK-SAME: (%[[X:.*]]: tensor<4xf32>, %[[I:.*]]: tensor<4xi32>)
func.func @unary_identities(%x: tensor<4xf32>, %i: tensor<4xi32>) -> (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xi32>, tensor<4xf32>, tensor<4xi1>, tensor<4xi1>) {
  // CHECK: %[[TRUE:.*]] = graph.constant dense<true> : tensor<4xi1>
  %n = graph.neg %x : (tensor<4xf32>) -> tensor<4xf32>
  %0 = graph.neg %n : (tensor<4xf32>) -> tensor<4xf32>
  // CHECK: %[[ABS:.*]] = graph.abs %[[X]]
  %a = graph.abs %x : (tensor<4xf32>) -> tensor<4xf32>
  %1 = graph.abs %a : (tensor<4xf32>) -> tensor<4xf32>
  // CHECK: %[[FLOOR:.*]] = graph.floor %[[X]]
  %f = graph.floor %x : (tensor<4xf32>) -> tensor<4xf32>
  %2 = graph.floor %f : (tensor<4xf32>) -> tensor<4xf32>
  %3 = graph.cast %i {to = i32} : (tensor<4xi32>) -> tensor<4xi32>
  %4 = graph.identity %x : (tensor<4xf32>) -> tensor<4xf32>
  // Integers compare equal to themselves; floats may be NaN.
  %5 = graph.compare %i, %i {direction = #graph<compare_direction le>} : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi1>
  // CHECK: %[[CMP:.*]] = graph.compare %[[X]], %[[X]]
  %6 = graph.compare %x, %x {direction = #graph<compare_direction eq>} : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
  // CHECK-NOT: graph.neg
  // CHECK-NOT: graph.abs
  // CHECK-NOT: graph.floor
  // CHECK-NOT: graph.cast
  // CHECK-NOT: graph.identity
  // CHECK: return %[[X]], %[[ABS]], %[[FLOOR]], %[[I]], %[[X]], %[[TRUE]], %[[CMP]] :
  return %0, %1, %2, %3, %4, %5, %6 : tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xi32>, tensor<4xf32>, tensor<4xi1>, tensor<4xi1>
}

// -----

// CHECK-LABEL: func @select_and_reduce_identities
// CHECK-SAME: (%[[C:.*]]: tensor<4xi1>, %[[X:.*]]: tensor<4xf32>, %[[Y:.*]]: tensor<4xf32>, %[[Z:.*]]: tensor<2x1xf32>)
func.func @select_and_reduce_identities(%c: tensor<4xi1>, %x: tensor<4xf32>, %y: tensor<4xf32>, %z: tensor<2x1xf32>) -> (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<2x1xf32>, tensor<1x1xf32>, tensor<2xf32>) {
  %t = graph.constant dense<true> : tensor<4xi1>
  %f = graph.constant dense<false> : tensor<i1>
  %0 = graph.select %t, %x, %y : (tensor<4xi1>, tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %1 = graph.select %f, %x, %y : (tensor<i1>, tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %2 = graph.select %c, %y, %y : (tensor<4xi1>, tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %3 = graph.reduce %x {axes = array<i64>, kind = #graph<reduce_kind sum>} : (tensor<4xf32>) -> tensor<4xf32>
  %4 = graph.reduce %z {axes = array<i64: -1>, keepdims, kind = #graph<reduce_kind prod>} : (tensor<2x1xf32>) -> tensor<2x1xf32>
  // Reducing a non-unit dimension stays, and so does dropping a unit one.
  // CHECK: %[[R5:.*]] = graph.reduce %[[Z]] {axes = array<i64: 0>, keepdims, kind = #graph<reduce_kind max>}
  %5 = graph.reduce %z {axes = array<i64: 0>, keepdims, kind = #graph<reduce_kind max>} : (tensor<2x1xf32>) -> tensor<1x1xf32>
  // CHECK: %[[R6:.*]] = graph.reduce %[[Z]] {axes = array<i64: 1>, kind = #graph<reduce_kind sum>}
  %6 = graph.reduce %z {axes = array<i64: 1>, kind = #graph<reduce_kind sum>} : (tensor<2x1xf32>) -> tensor<2xf32>
  // CHECK-NOT: graph.select
  // CHECK: return %[[X]], %[[Y]], %[[Y]], %[[X]], %[[Z]], %[[R5]], %[[R6]] :
  return %0, %1, %2, %3, %4, %5, %6 : tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<2x1xf32>, tensor<1x1xf32>, tensor<2xf32>
}

// -----

// Reductions of integer constants fold (NumPy: r.sum(0), r.prod(1),
// r.max(1, keepdims=True), r.min(); i8 products wrap: 100 * 3 = 44 mod 256);
// float max/min fold, float sums and means stay (their order is the
// kernel's).
// CHECK-LABEL: func @reduce_constant
func.func @reduce_constant() -> (tensor<3xi32>, tensor<2xi32>, tensor<2x1xi32>, tensor<i32>, tensor<i8>, tensor<2xf32>, tensor<2xf32>) {
  // CHECK-DAG: %[[SUM:.*]] = graph.constant dense<[4, 4, -5]> : tensor<3xi32>
  // CHECK-DAG: %[[PROD:.*]] = graph.constant dense<[-12, -45]> : tensor<2xi32>
  // CHECK-DAG: %[[MAX:.*]] = graph.constant dense<{{\[}}[4], [5]]> : tensor<2x1xi32>
  // CHECK-DAG: %[[MIN:.*]] = graph.constant dense<-9> : tensor<i32>
  // CHECK-DAG: %[[WRAP:.*]] = graph.constant dense<44> : tensor<i8>
  // CHECK-DAG: %[[FMAX:.*]] = graph.constant dense<[1.500000e+00, 7.000000e+00]> : tensor<2xf32>
  // CHECK-DAG: %[[FSUM:.*]] = graph.reduce %{{.*}} {axes = array<i64: 0>, kind = #graph<reduce_kind sum>}
  // CHECK: return %[[SUM]], %[[PROD]], %[[MAX]], %[[MIN]], %[[WRAP]], %[[FMAX]], %[[FSUM]] :
  %r = graph.constant dense<[[3, -1, 4], [1, 5, -9]]> : tensor<2x3xi32>
  %0 = graph.reduce %r {axes = array<i64: 0>, kind = #graph<reduce_kind sum>} : (tensor<2x3xi32>) -> tensor<3xi32>
  %1 = graph.reduce %r {axes = array<i64: 1>, kind = #graph<reduce_kind prod>} : (tensor<2x3xi32>) -> tensor<2xi32>
  %2 = graph.reduce %r {axes = array<i64: -1>, keepdims, kind = #graph<reduce_kind max>} : (tensor<2x3xi32>) -> tensor<2x1xi32>
  %3 = graph.reduce %r {axes = array<i64: 0, 1>, kind = #graph<reduce_kind min>} : (tensor<2x3xi32>) -> tensor<i32>
  %w = graph.constant dense<[100, 3]> : tensor<2xi8>
  %4 = graph.reduce %w {axes = array<i64: 0>, kind = #graph<reduce_kind prod>} : (tensor<2xi8>) -> tensor<i8>
  %f = graph.constant dense<[[1.5, -2.0], [0.25, 7.0]]> : tensor<2x2xf32>
  %5 = graph.reduce %f {axes = array<i64: 0>, kind = #graph<reduce_kind max>} : (tensor<2x2xf32>) -> tensor<2xf32>
  %6 = graph.reduce %f {axes = array<i64: 0>, kind = #graph<reduce_kind sum>} : (tensor<2x2xf32>) -> tensor<2xf32>
  return %0, %1, %2, %3, %4, %5, %6 : tensor<3xi32>, tensor<2xi32>, tensor<2x1xi32>, tensor<i32>, tensor<i8>, tensor<2xf32>, tensor<2xf32>
}

// -----

// The element count of a scalar's (empty) shape is 1; max of nothing stays.
// CHECK-LABEL: func @reduce_empty
func.func @reduce_empty(%x: tensor<f32>) -> (tensor<i64>, tensor<i64>) {
  // CHECK: %[[ONE:.*]] = graph.constant dense<1> : tensor<i64>
  // CHECK: %[[MAX:.*]] = graph.reduce
  // CHECK: return %[[ONE]], %[[MAX]]
  %s = graph.shape %x : (tensor<f32>) -> tensor<0xi64>
  %0 = graph.reduce %s {axes = array<i64: 0>, kind = #graph<reduce_kind prod>} : (tensor<0xi64>) -> tensor<i64>
  %1 = graph.reduce %s {axes = array<i64: 0>, kind = #graph<reduce_kind max>} : (tensor<0xi64>) -> tensor<i64>
  return %0, %1 : tensor<i64>, tensor<i64>
}
