// Gradient check of graph-autodiff's elementwise rules: unary functions
// (trigonometric and hyperbolic ones too),
// broadcasting binary ops, select, clamp and cast. Each function's gradient
// (the loss is sum(f(x) * r)) is compared with central differences of the
// compiled function, in f64 (see gradcheck.py for step and tolerance).
//
// RUN: %python %S/gradcheck.py %s --runner %mlir_runner --libs %runner_libs | FileCheck %s
// CHECK-NOT: MISMATCH
// CHECK: gradcheck: 52 of 52 gradients match finite differences

func.func @neg(%x: tensor<2x3xf64>) -> tensor<2x3xf64> {
  %y = graph.neg %x : (tensor<2x3xf64>) -> tensor<2x3xf64>
  return %y : tensor<2x3xf64>
}

func.func @exp(%x: tensor<2x3xf64>) -> tensor<2x3xf64> {
  %y = graph.exp %x : (tensor<2x3xf64>) -> tensor<2x3xf64>
  return %y : tensor<2x3xf64>
}

// gradcheck @log x=pos
func.func @log(%x: tensor<2x3xf64>) -> tensor<2x3xf64> {
  %y = graph.log %x : (tensor<2x3xf64>) -> tensor<2x3xf64>
  return %y : tensor<2x3xf64>
}

// gradcheck @sqrt x=pos
func.func @sqrt(%x: tensor<2x3xf64>) -> tensor<2x3xf64> {
  %y = graph.sqrt %x : (tensor<2x3xf64>) -> tensor<2x3xf64>
  return %y : tensor<2x3xf64>
}

// gradcheck @rsqrt x=pos
func.func @rsqrt(%x: tensor<2x3xf64>) -> tensor<2x3xf64> {
  %y = graph.rsqrt %x : (tensor<2x3xf64>) -> tensor<2x3xf64>
  return %y : tensor<2x3xf64>
}

// gradcheck @reciprocal x=pos
func.func @reciprocal(%x: tensor<2x3xf64>) -> tensor<2x3xf64> {
  %y = graph.reciprocal %x : (tensor<2x3xf64>) -> tensor<2x3xf64>
  return %y : tensor<2x3xf64>
}

func.func @tanh(%x: tensor<2x3xf64>) -> tensor<2x3xf64> {
  %y = graph.tanh %x : (tensor<2x3xf64>) -> tensor<2x3xf64>
  return %y : tensor<2x3xf64>
}

func.func @sigmoid(%x: tensor<2x3xf64>) -> tensor<2x3xf64> {
  %y = graph.sigmoid %x : (tensor<2x3xf64>) -> tensor<2x3xf64>
  return %y : tensor<2x3xf64>
}

func.func @relu(%x: tensor<2x3xf64>) -> tensor<2x3xf64> {
  %y = graph.relu %x : (tensor<2x3xf64>) -> tensor<2x3xf64>
  return %y : tensor<2x3xf64>
}

func.func @softplus(%x: tensor<2x3xf64>) -> tensor<2x3xf64> {
  %y = graph.softplus %x : (tensor<2x3xf64>) -> tensor<2x3xf64>
  return %y : tensor<2x3xf64>
}

func.func @erf(%x: tensor<2x3xf64>) -> tensor<2x3xf64> {
  %y = graph.erf %x : (tensor<2x3xf64>) -> tensor<2x3xf64>
  return %y : tensor<2x3xf64>
}

func.func @sin(%x: tensor<2x3xf64>) -> tensor<2x3xf64> {
  %y = graph.sin %x : (tensor<2x3xf64>) -> tensor<2x3xf64>
  return %y : tensor<2x3xf64>
}

func.func @cos(%x: tensor<2x3xf64>) -> tensor<2x3xf64> {
  %y = graph.cos %x : (tensor<2x3xf64>) -> tensor<2x3xf64>
  return %y : tensor<2x3xf64>
}

func.func @abs(%x: tensor<2x3xf64>) -> tensor<2x3xf64> {
  %y = graph.abs %x : (tensor<2x3xf64>) -> tensor<2x3xf64>
  return %y : tensor<2x3xf64>
}

func.func @identity(%x: tensor<2x3xf64>) -> tensor<2x3xf64> {
  %y = graph.identity %x : (tensor<2x3xf64>) -> tensor<2x3xf64>
  return %y : tensor<2x3xf64>
}

func.func @sign(%x: tensor<2x3xf64>) -> tensor<2x3xf64> {
  %y = graph.sign %x : (tensor<2x3xf64>) -> tensor<2x3xf64>
  return %y : tensor<2x3xf64>
}

func.func @floor(%x: tensor<2x3xf64>) -> tensor<2x3xf64> {
  %y = graph.floor %x : (tensor<2x3xf64>) -> tensor<2x3xf64>
  return %y : tensor<2x3xf64>
}
func.func @leaky_relu(%x: tensor<2x3xf64>) -> tensor<2x3xf64> {
  %y = graph.leaky_relu %x {alpha = 2.000000e-01 : f32} : (tensor<2x3xf64>) -> tensor<2x3xf64>
  return %y : tensor<2x3xf64>
}

func.func @elu(%x: tensor<2x3xf64>) -> tensor<2x3xf64> {
  %y = graph.elu %x {alpha = 1.500000e+00 : f32} : (tensor<2x3xf64>) -> tensor<2x3xf64>
  return %y : tensor<2x3xf64>
}

func.func @gelu(%x: tensor<2x3xf64>) -> (tensor<2x3xf64>, tensor<2x3xf64>) {
  %y = graph.gelu %x : (tensor<2x3xf64>) -> tensor<2x3xf64>
  %z = graph.gelu %x {approximate} : (tensor<2x3xf64>) -> tensor<2x3xf64>
  return %y, %z : tensor<2x3xf64>, tensor<2x3xf64>
}

// Trigonometric and hyperbolic functions, inside their domains.
// gradcheck @tan x=unit
func.func @tan(%x: tensor<2x3xf64>) -> tensor<2x3xf64> {
  %y = graph.tan %x : (tensor<2x3xf64>) -> tensor<2x3xf64>
  return %y : tensor<2x3xf64>
}

// gradcheck @asin x=unit
func.func @asin(%x: tensor<2x3xf64>) -> tensor<2x3xf64> {
  %y = graph.asin %x : (tensor<2x3xf64>) -> tensor<2x3xf64>
  return %y : tensor<2x3xf64>
}

// gradcheck @acos x=unit
func.func @acos(%x: tensor<2x3xf64>) -> tensor<2x3xf64> {
  %y = graph.acos %x : (tensor<2x3xf64>) -> tensor<2x3xf64>
  return %y : tensor<2x3xf64>
}

func.func @atan(%x: tensor<2x3xf64>) -> tensor<2x3xf64> {
  %y = graph.atan %x : (tensor<2x3xf64>) -> tensor<2x3xf64>
  return %y : tensor<2x3xf64>
}

func.func @sinh(%x: tensor<2x3xf64>) -> tensor<2x3xf64> {
  %y = graph.sinh %x : (tensor<2x3xf64>) -> tensor<2x3xf64>
  return %y : tensor<2x3xf64>
}

func.func @cosh(%x: tensor<2x3xf64>) -> tensor<2x3xf64> {
  %y = graph.cosh %x : (tensor<2x3xf64>) -> tensor<2x3xf64>
  return %y : tensor<2x3xf64>
}

func.func @asinh(%x: tensor<2x3xf64>) -> tensor<2x3xf64> {
  %y = graph.asinh %x : (tensor<2x3xf64>) -> tensor<2x3xf64>
  return %y : tensor<2x3xf64>
}

// gradcheck @acosh x=gt1
func.func @acosh(%x: tensor<2x3xf64>) -> tensor<2x3xf64> {
  %y = graph.acosh %x : (tensor<2x3xf64>) -> tensor<2x3xf64>
  return %y : tensor<2x3xf64>
}

// gradcheck @atanh x=unit
func.func @atanh(%x: tensor<2x3xf64>) -> tensor<2x3xf64> {
  %y = graph.atanh %x : (tensor<2x3xf64>) -> tensor<2x3xf64>
  return %y : tensor<2x3xf64>
}

// Broadcasting: each operand's gradient is summed back to its own shape.
func.func @add(%a: tensor<2x3xf64>, %b: tensor<3xf64>) -> tensor<2x3xf64> {
  %y = graph.add %a, %b : (tensor<2x3xf64>, tensor<3xf64>) -> tensor<2x3xf64>
  return %y : tensor<2x3xf64>
}

func.func @sub(%a: tensor<2x1xf64>, %b: tensor<1x3xf64>) -> tensor<2x3xf64> {
  %y = graph.sub %a, %b : (tensor<2x1xf64>, tensor<1x3xf64>) -> tensor<2x3xf64>
  return %y : tensor<2x3xf64>
}

func.func @mul(%a: tensor<2x3xf64>, %b: tensor<f64>) -> tensor<2x3xf64> {
  %y = graph.mul %a, %b : (tensor<2x3xf64>, tensor<f64>) -> tensor<2x3xf64>
  return %y : tensor<2x3xf64>
}

// gradcheck @div b=pos
func.func @div(%a: tensor<2x3xf64>, %b: tensor<2x1xf64>) -> tensor<2x3xf64> {
  %y = graph.div %a, %b : (tensor<2x3xf64>, tensor<2x1xf64>) -> tensor<2x3xf64>
  return %y : tensor<2x3xf64>
}

// gradcheck @pow a=pos
func.func @pow(%a: tensor<2x3xf64>, %b: tensor<3xf64>) -> tensor<2x3xf64> {
  %y = graph.pow %a, %b : (tensor<2x3xf64>, tensor<3xf64>) -> tensor<2x3xf64>
  return %y : tensor<2x3xf64>
}

func.func @max(%a: tensor<2x3xf64>, %b: tensor<3xf64>) -> tensor<2x3xf64> {
  %y = graph.max %a, %b : (tensor<2x3xf64>, tensor<3xf64>) -> tensor<2x3xf64>
  return %y : tensor<2x3xf64>
}

func.func @min(%a: tensor<2x3xf64>, %b: tensor<2x3xf64>) -> tensor<2x3xf64> {
  %y = graph.min %a, %b : (tensor<2x3xf64>, tensor<2x3xf64>) -> tensor<2x3xf64>
  return %y : tensor<2x3xf64>
}

func.func @select(%c: tensor<2x3xi1>, %t: tensor<2x3xf64>, %f: tensor<3xf64>) -> tensor<2x3xf64> {
  %y = graph.select %c, %t, %f : (tensor<2x3xi1>, tensor<2x3xf64>, tensor<3xf64>) -> tensor<2x3xf64>
  return %y : tensor<2x3xf64>
}

// Inputs in [-2, 2], bounds in [-2, 2]: elements fall below, inside and
// above the range.
func.func @clamp(%x: tensor<4x3xf64>, %lo: tensor<3xf64>, %hi: tensor<4x1xf64>) -> tensor<4x3xf64> {
  %y = graph.clamp %x, %lo, %hi : (tensor<4x3xf64>, tensor<3xf64>, tensor<4x1xf64>) -> tensor<4x3xf64>
  return %y : tensor<4x3xf64>
}

// Composite: the rules chain.
func.func @chain(%x: tensor<3x2xf64>, %y: tensor<2xf64>) -> tensor<3x2xf64> {
  %a = graph.mul %x, %y : (tensor<3x2xf64>, tensor<2xf64>) -> tensor<3x2xf64>
  %b = graph.tanh %a : (tensor<3x2xf64>) -> tensor<3x2xf64>
  %c = graph.mul %b, %x : (tensor<3x2xf64>, tensor<3x2xf64>) -> tensor<3x2xf64>
  %d = graph.exp %y : (tensor<2xf64>) -> tensor<2xf64>
  %e = graph.div %c, %d : (tensor<3x2xf64>, tensor<2xf64>) -> tensor<3x2xf64>
  return %e : tensor<3x2xf64>
}

// cast between floats; f32 arithmetic, so a larger step (sum(cast(x) * r)
// is linear: the central difference is exact but for rounding).
// gradcheck @cast h=1e-2 rtol=1e-3
func.func @cast(%x: tensor<2x3xf32>, %y: tensor<3xf64>) -> tensor<2x3xf64> {
  %c = graph.cast %x {to = f64} : (tensor<2x3xf32>) -> tensor<2x3xf64>
  %d = graph.cast %y {to = f32} : (tensor<3xf64>) -> tensor<3xf32>
  %e = graph.cast %d {to = f64} : (tensor<3xf32>) -> tensor<3xf64>
  %f = graph.mul %c, %e : (tensor<2x3xf64>, tensor<3xf64>) -> tensor<2x3xf64>
  return %f : tensor<2x3xf64>
}
