//===- GraphElementwiseOps.td - elementwise ops -----------*- tablegen -*-===//
//
// Unary and binary elementwise ops. Binary ops broadcast their operands the
// NumPy way: shapes are aligned at the trailing dimension and a dimension of
// size 1 stretches to the other.
//
// Integer element types are signless, read as two's complement signed
// numbers, or unsigned (`ui8` ... `ui64`, from ONNX's unsigned types), read
// as unsigned; `i1` is the boolean type and only the logical ops, `compare`,
// `select` and `cast` take it. graph-to-linalg lowers unsigned integers to
// signless ones with the unsigned meaning made explicit (see
// docs/design/graph-to-linalg.md).
//
//===----------------------------------------------------------------------===//

#ifndef GRAPHC_DIALECTS_GRAPH_GRAPHELEMENTWISEOPS_TD
#define GRAPHC_DIALECTS_GRAPH_GRAPHELEMENTWISEOPS_TD

include "graph/GraphBase.td"

//===----------------------------------------------------------------------===//
// Type constraints
//===----------------------------------------------------------------------===//

/// A number: a float, or a signless or unsigned integer other than the
/// boolean `i1`.
def Graph_ArithmeticElement : Type<
    Or<[AnyFloat.predicate,
        And<[AnySignlessInteger.predicate, CPred<"!$_self.isInteger(1)">]>,
        AnyUnsignedInteger.predicate]>,
    "float or signless/unsigned integer wider than 1 bit">;
def Graph_ArithmeticTensor : TensorOf<[Graph_ArithmeticElement]>;
/// Any float, signless or unsigned integer element type, booleans included.
def Graph_IntOrFloatTensor : TensorOf<[AnyFloat, AnySignlessInteger,
                                       AnyUnsignedInteger]>;

//===----------------------------------------------------------------------===//
// Base classes
//===----------------------------------------------------------------------===//

/// A unary op whose result has the operand's type.
class Graph_UnaryOp<string mnemonic, Type operandType, list<Trait> traits = []>
    : Graph_Op<mnemonic, !listconcat(traits, [Pure, Graph_CostOpInterface])> {
  let arguments = (ins operandType:$input);
  let results = (outs operandType:$result);
  let assemblyFormat = "$input attr-dict `:` functional-type(operands, results)";
  let extraClassDefinition = [{
    ::llvm::LogicalResult $cppClass::inferReturnTypes(
        ::mlir::MLIRContext *, std::optional<::mlir::Location>,
        Adaptor adaptor, ::llvm::SmallVectorImpl<::mlir::Type> &inferred) {
      inferred.push_back(adaptor.getInput().getType());
      return ::mlir::success();
    }
  }];
}

/// A binary op with NumPy broadcasting whose result element type is the
/// operands' (which must agree).
class Graph_BroadcastBinaryOp<string mnemonic, Type operandType,
                              list<Trait> traits = []>
    : Graph_Op<mnemonic, !listconcat(traits, [Pure, Graph_CostOpInterface])> {
  let arguments = (ins operandType:$lhs, operandType:$rhs);
  let results = (outs operandType:$result);
  let assemblyFormat = [{
    $lhs `,` $rhs attr-dict `:` functional-type(operands, results)
  }];
  let extraClassDefinition = [{
    ::llvm::LogicalResult $cppClass::inferReturnTypes(
        ::mlir::MLIRContext *, std::optional<::mlir::Location> location,
        Adaptor adaptor, ::llvm::SmallVectorImpl<::mlir::Type> &inferred) {
      return ::graphc::graph::inferBroadcastBinary(
          location, getOperationName(), adaptor.getLhs().getType(),
          adaptor.getRhs().getType(), /*resultElementType=*/nullptr, inferred);
    }
  }];
}

//===----------------------------------------------------------------------===//
// Unary ops
//===----------------------------------------------------------------------===//

def Graph_NegOp : Graph_UnaryOp<"neg", Graph_ArithmeticTensor> {
  let summary = "Elementwise negation";
  let description = [{
    `result[i] = -input[i]`. Integers wrap around (`-INT_MIN = INT_MIN`).

    Example:

    ```mlir
    %y = graph.neg %x : (tensor<4xf32>) -> tensor<4xf32>
    ```
  }];
  let hasFolder = 1;
}

def Graph_AbsOp : Graph_UnaryOp<"abs", Graph_ArithmeticTensor> {
  let summary = "Elementwise absolute value";
  let description = [{
    `result[i] = |input[i]|`. Integers wrap around (`|INT_MIN| = INT_MIN`); for
    floats only the sign bit changes.

    Example:

    ```mlir
    %y = graph.abs %x : (tensor<4xf32>) -> tensor<4xf32>
    ```
  }];
  let hasFolder = 1;
}

def Graph_ReluOp : Graph_UnaryOp<"relu", Graph_ArithmeticTensor> {
  let summary = "Elementwise rectified linear unit";
  let description = [{
    `result[i] = maximum(input[i], 0)` with IEEE 754-2019 `maximum`: NaN
    propagates and `relu(-0.0) = +0.0`.

    Example:

    ```mlir
    %y = graph.relu %x : (tensor<4xf32>) -> tensor<4xf32>
    ```
  }];
  let hasFolder = 1;
}

def Graph_SignOp : Graph_UnaryOp<"sign", Graph_ArithmeticTensor> {
  let summary = "Elementwise sign";
  let description = [{
    `result[i]` is -1 for negative, +1 for positive inputs; zeros (keeping their
    sign) and NaN are returned unchanged.

    Example:

    ```mlir
    %y = graph.sign %x : (tensor<4xf32>) -> tensor<4xf32>
    ```
  }];
  let hasFolder = 1;
}

def Graph_ExpOp : Graph_UnaryOp<"exp", Graph_FloatTensor> {
  let summary = "Elementwise natural exponential";
  let description = [{
    `result[i] = e^input[i]`.

    Example:

    ```mlir
    %y = graph.exp %x : (tensor<4xf32>) -> tensor<4xf32>
    ```
  }];
}

def Graph_LogOp : Graph_UnaryOp<"log", Graph_FloatTensor> {
  let summary = "Elementwise natural logarithm";
  let description = [{
    `result[i] = ln(input[i])`; NaN for negative inputs, -inf for zero.

    Example:

    ```mlir
    %y = graph.log %x : (tensor<4xf32>) -> tensor<4xf32>
    ```
  }];
}

def Graph_SqrtOp : Graph_UnaryOp<"sqrt", Graph_FloatTensor> {
  let summary = "Elementwise square root";
  let description = [{
    `result[i] = sqrt(input[i])`, correctly rounded; NaN for negative inputs.

    Example:

    ```mlir
    %y = graph.sqrt %x : (tensor<4xf32>) -> tensor<4xf32>
    ```
  }];
  let hasFolder = 1;
}

def Graph_RsqrtOp : Graph_UnaryOp<"rsqrt", Graph_FloatTensor> {
  let summary = "Elementwise reciprocal square root";
  let description = [{
    `result[i] = 1 / sqrt(input[i])`. Implementations may use a faster
    approximation than the division, so it does not fold.

    Example:

    ```mlir
    %y = graph.rsqrt %x : (tensor<4xf32>) -> tensor<4xf32>
    ```
  }];
}

def Graph_ReciprocalOp : Graph_UnaryOp<"reciprocal", Graph_FloatTensor> {
  let summary = "Elementwise reciprocal";
  let description = [{
    `result[i] = 1 / input[i]`, one correctly rounded division.

    Example:

    ```mlir
    %y = graph.reciprocal %x : (tensor<4xf32>) -> tensor<4xf32>
    ```
  }];
  let hasFolder = 1;
}

def Graph_TanhOp : Graph_UnaryOp<"tanh", Graph_FloatTensor> {
  let summary = "Elementwise hyperbolic tangent";
  let description = [{
    `result[i] = tanh(input[i])`.

    Example:

    ```mlir
    %y = graph.tanh %x : (tensor<4xf32>) -> tensor<4xf32>
    ```
  }];
}

def Graph_SigmoidOp : Graph_UnaryOp<"sigmoid", Graph_FloatTensor> {
  let summary = "Elementwise logistic function";
  let description = [{
    `result[i] = 1 / (1 + e^-input[i])`.

    Example:

    ```mlir
    %y = graph.sigmoid %x : (tensor<4xf32>) -> tensor<4xf32>
    ```
  }];
}

def Graph_ErfOp : Graph_UnaryOp<"erf", Graph_FloatTensor> {
  let summary = "Elementwise Gauss error function";
  let description = [{
    `result[i] = erf(input[i])`.

    Example:

    ```mlir
    %y = graph.erf %x : (tensor<4xf32>) -> tensor<4xf32>
    ```
  }];
}

def Graph_FloorOp : Graph_UnaryOp<"floor", Graph_FloatTensor> {
  let summary = "Elementwise rounding towards negative infinity";
  let description = [{
    `result[i] = floor(input[i])`; NaN, infinities and zeros are returned
    unchanged.

    Example:

    ```mlir
    %y = graph.floor %x : (tensor<4xf32>) -> tensor<4xf32>
    ```
  }];
  let hasFolder = 1;
}

def Graph_CeilOp : Graph_UnaryOp<"ceil", Graph_FloatTensor> {
  let summary = "Elementwise rounding towards positive infinity";
  let description = [{
    `result[i] = ceil(input[i])`; NaN, infinities and zeros are returned
    unchanged.

    Example:

    ```mlir
    %y = graph.ceil %x : (tensor<4xf32>) -> tensor<4xf32>
    ```
  }];
  let hasFolder = 1;
}

def Graph_RoundOp : Graph_UnaryOp<"round", Graph_FloatTensor> {
  let summary = "Elementwise rounding to the nearest integer, ties to even";
  let description = [{
    `result[i]` is the integer nearest to `input[i]`; halfway cases go to the
    even neighbour (`round(2.5) = 2`, `round(-0.5) = -0`), as ONNX `Round` and
    NumPy `round`.

    Example:

    ```mlir
    %y = graph.round %x : (tensor<4xf32>) -> tensor<4xf32>
    ```
  }];
  let hasFolder = 1;
}

def Graph_SinOp : Graph_UnaryOp<"sin", Graph_FloatTensor> {
  let summary = "Elementwise sine";
  let description = [{
    `result[i] = sin(input[i])`, in radians.

    Example:

    ```mlir
    %y = graph.sin %x : (tensor<4xf32>) -> tensor<4xf32>
    ```
  }];
}

def Graph_CosOp : Graph_UnaryOp<"cos", Graph_FloatTensor> {
  let summary = "Elementwise cosine";
  let description = [{
    `result[i] = cos(input[i])`, in radians.

    Example:

    ```mlir
    %y = graph.cos %x : (tensor<4xf32>) -> tensor<4xf32>
    ```
  }];
}

def Graph_SoftplusOp : Graph_UnaryOp<"softplus", Graph_FloatTensor> {
  let summary = "Elementwise softplus";
  let description = [{
    `result[i] = ln(1 + e^input[i])`.

    Example:

    ```mlir
    %y = graph.softplus %x : (tensor<4xf32>) -> tensor<4xf32>
    ```
  }];
}

def Graph_NotOp : Graph_UnaryOp<"not", Graph_BoolTensor> {
  let summary = "Elementwise logical negation";
  let description = [{
    `result[i] = !input[i]` on booleans (`i1`).

    Example:

    ```mlir
    %y = graph.not %c : (tensor<4xi1>) -> tensor<4xi1>
    ```
  }];
  let hasFolder = 1;
  let hasCanonicalizer = 1;
}

def Graph_GeluOp : Graph_UnaryOp<"gelu", Graph_FloatTensor> {
  let summary = "Elementwise Gaussian error linear unit";
  let description = [{
    `result[i] = x * Phi(x)` with `Phi` the standard normal CDF, i.e. `0.5 * x *
    (1 + erf(x / sqrt(2)))`. With `approximate` set it is the tanh approximation
    `0.5 * x * (1 + tanh(sqrt(2 / pi) * (x + 0.044715 * x^3)))` (ONNX `Gelu`
    with `approximate = "tanh"`).

    Example:

    ```mlir
    %y = graph.gelu %x {approximate} : (tensor<4xf32>) -> tensor<4xf32>
    ```
  }];
  let arguments = (ins Graph_FloatTensor:$input, UnitAttr:$approximate);
}

def Graph_LeakyReluOp : Graph_UnaryOp<"leaky_relu", Graph_FloatTensor> {
  let summary = "Elementwise leaky rectified linear unit";
  let description = [{
    `result[i] = input[i] >= 0 ? input[i] : alpha * input[i]`. `alpha` is always
    written out because the frameworks' defaults differ (ONNX 0.01, TensorFlow
    0.2).

    Example:

    ```mlir
    %y = graph.leaky_relu %x {alpha = 2.000000e-01 : f32} : (tensor<4xf32>) -> tensor<4xf32>
    ```
  }];
  let arguments = (ins Graph_FloatTensor:$input, F32Attr:$alpha);
}

def Graph_EluOp : Graph_UnaryOp<"elu", Graph_FloatTensor> {
  let summary = "Elementwise exponential linear unit";
  let description = [{
    `result[i] = input[i] > 0 ? input[i] : alpha * (e^input[i] - 1)`.

    Example:

    ```mlir
    %y = graph.elu %x {alpha = 1.000000e+00 : f32} : (tensor<4xf32>) -> tensor<4xf32>
    ```
  }];
  let arguments = (ins Graph_FloatTensor:$input, F32Attr:$alpha);
}

//===----------------------------------------------------------------------===//
// CastOp
//===----------------------------------------------------------------------===//

def Graph_CastOp : Graph_Op<"cast", [Pure, Graph_CostOpInterface]> {
  let summary = "Elementwise conversion to another element type";
  let description = [{
    Converts every element to the element type `to`; the shape is unchanged.

    * integer to integer: sign extension or truncation; a boolean (`i1`)
      source converts to 0 or 1;
    * integer to float and float to float: round to nearest, ties to even;
    * float to integer: truncation towards zero; NaN and values out of the
      target's range give an undefined result;
    * anything to `i1`: true when non-zero (NaN is true).

    The small formats (`f8E4M3FN`, `f8E4M3FNUZ`, `f8E5M2`, `f8E5M2FNUZ`,
    `f8E8M0FNU`, `f4E2M1FN`) convert exactly to wider floats; a conversion
    to them rounds to nearest, ties to even (`f8E8M0FNU`: the exponent of
    the magnitude, rounded up, as ONNX's default `round_mode`). `saturate`
    (default true) says what happens to finite values beyond the format's
    largest finite value and to infinities: true clamps them to the largest
    finite value of their sign; false gives infinity where the format has
    one (`f8E5M2`) and NaN elsewhere. NaN stays NaN (`f4E2M1FN` has none:
    NaN becomes -0 there, as in ONNX's reference); the FNUZ formats have no
    -0, so a negative value that rounds to zero gives +0. `saturate` has no
    effect on other targets. A float converts to a 2- or 4-bit integer
    through an 8-bit one: truncation towards zero, then the low bits
    (wrapping, as ONNX's reference: -9.0 to i4 is 7).

    Example:

    ```mlir
    %y = graph.cast %x {to = f16} : (tensor<4xf32>) -> tensor<4xf16>
    %z = graph.cast %x {saturate = false, to = f8E4M3FN} : (tensor<4xf32>) -> tensor<4xf8E4M3FN>
    ```
  }];
  let arguments = (ins Graph_IntOrFloatTensor:$input, TypeAttr:$to,
                       DefaultValuedAttr<BoolAttr, "true">:$saturate);
  let results = (outs Graph_IntOrFloatTensor:$result);
  let assemblyFormat = "$input attr-dict `:` functional-type(operands, results)";
  let hasFolder = 1;
  let hasCanonicalizer = 1;
}

//===----------------------------------------------------------------------===//
// ClampOp
//===----------------------------------------------------------------------===//

def Graph_ClampOp : Graph_Op<"clamp", [Pure, Graph_CostOpInterface]> {
  let summary = "Elementwise clamping to a range, with broadcasting";
  let description = [{
    `result = min(max(input, min), max)` with the semantics of `graph.max`
    and `graph.min`; where `min > max` the result is `max` (as NumPy's
    `clip`). The three operands broadcast the NumPy way and share their
    element type.

    Example:

    ```mlir
    %y = graph.clamp %x, %lo, %hi : (tensor<8x16xf32>, tensor<f32>, tensor<f32>) -> tensor<8x16xf32>
    ```
  }];
  let arguments = (ins Graph_ArithmeticTensor:$input,
                       Graph_ArithmeticTensor:$min,
                       Graph_ArithmeticTensor:$max);
  let results = (outs Graph_ArithmeticTensor:$result);
  let assemblyFormat = [{
    $input `,` $min `,` $max attr-dict `:` functional-type(operands, results)
  }];
  let hasFolder = 1;
}

//===----------------------------------------------------------------------===//
// Binary ops
//===----------------------------------------------------------------------===//

def Graph_AddOp : Graph_BroadcastBinaryOp<"add", Graph_ArithmeticTensor, [Commutative]> {
  let summary = "Elementwise addition";
  let description = [{
    `result = lhs + rhs`. Integers wrap around. Operands broadcast the NumPy
    way.

    Example:

    ```mlir
    %y = graph.add %x, %b : (tensor<8x16xf32>, tensor<16xf32>) -> tensor<8x16xf32>
    ```
  }];
  let hasFolder = 1;
  let hasCanonicalizer = 1;
}

def Graph_SubOp : Graph_BroadcastBinaryOp<"sub", Graph_ArithmeticTensor, []> {
  let summary = "Elementwise subtraction";
  let description = [{
    `result = lhs - rhs`. Integers wrap around. Operands broadcast the NumPy
    way.

    Example:

    ```mlir
    %y = graph.sub %x, %b : (tensor<8x16xf32>, tensor<16xf32>) -> tensor<8x16xf32>
    ```
  }];
  let hasFolder = 1;
  let hasCanonicalizer = 1;
}

def Graph_MulOp : Graph_BroadcastBinaryOp<"mul", Graph_ArithmeticTensor, [Commutative]> {
  let summary = "Elementwise multiplication";
  let description = [{
    `result = lhs * rhs`. Integers wrap around. Operands broadcast the NumPy
    way.

    Example:

    ```mlir
    %y = graph.mul %x, %s : (tensor<8x16xf32>, tensor<f32>) -> tensor<8x16xf32>
    ```
  }];
  let hasFolder = 1;
}

def Graph_DivOp : Graph_BroadcastBinaryOp<"div", Graph_ArithmeticTensor, []> {
  let summary = "Elementwise division";
  let description = [{
    `result = lhs / rhs`. Integer division truncates towards zero (C, ONNX
    `Div`, TensorFlow `TruncateDiv`); an integer division by zero, or of the
    smallest value by -1, has an undefined result. Operands broadcast the NumPy
    way.

    Example:

    ```mlir
    %y = graph.div %x, %s : (tensor<8x16xf32>, tensor<f32>) -> tensor<8x16xf32>
    ```
  }];
  let hasFolder = 1;
}

def Graph_PowOp : Graph_BroadcastBinaryOp<"pow", Graph_FloatTensor, []> {
  let summary = "Elementwise power";
  let description = [{
    `result = lhs ^ rhs` (C `pow`). Importers cast integer operands to a float
    type. Operands broadcast the NumPy way.

    Example:

    ```mlir
    %y = graph.pow %x, %e : (tensor<8x16xf32>, tensor<f32>) -> tensor<8x16xf32>
    ```
  }];
}

def Graph_MaxOp : Graph_BroadcastBinaryOp<"max", Graph_ArithmeticTensor, [Commutative]> {
  let summary = "Elementwise maximum";
  let description = [{
    `result = max(lhs, rhs)`; integers compare signed. Floats use IEEE 754-2019
    `maximum`: NaN propagates and `+0.0 > -0.0`. Operands broadcast the NumPy
    way.

    Example:

    ```mlir
    %y = graph.max %x, %z : (tensor<8x16xf32>, tensor<f32>) -> tensor<8x16xf32>
    ```
  }];
  let hasFolder = 1;
}

def Graph_MinOp : Graph_BroadcastBinaryOp<"min", Graph_ArithmeticTensor, [Commutative]> {
  let summary = "Elementwise minimum";
  let description = [{
    `result = min(lhs, rhs)`; integers compare signed. Floats use IEEE 754-2019
    `minimum`: NaN propagates and `-0.0 < +0.0`. Operands broadcast the NumPy
    way.

    Example:

    ```mlir
    %y = graph.min %x, %z : (tensor<8x16xf32>, tensor<f32>) -> tensor<8x16xf32>
    ```
  }];
  let hasFolder = 1;
}

def Graph_FloorDivOp : Graph_BroadcastBinaryOp<"floor_div", Graph_ArithmeticTensor, []> {
  let summary = "Elementwise division rounding towards negative infinity";
  let description = [{
    `result = floor(lhs / rhs)` (Python `//`, TensorFlow `FloorDiv`). For floats
    it is the correctly rounded quotient, rounded down. An integer division by
    zero, or of the smallest value by -1, has an undefined result. Operands
    broadcast the NumPy way.

    Example:

    ```mlir
    %y = graph.floor_div %a, %b : (tensor<4xi64>, tensor<i64>) -> tensor<4xi64>
    ```
  }];
  let hasFolder = 1;
}

def Graph_ModOp : Graph_BroadcastBinaryOp<"mod", Graph_ArithmeticTensor, []> {
  let summary = "Elementwise remainder with the sign of the divisor";
  let description = [{
    `result = lhs - floor(lhs / rhs) * rhs`, computed exactly as Python's `%`
    (ONNX `Mod` with `fmod = 0`, TensorFlow `FloorMod`): the C remainder, plus
    `rhs` when it is non-zero and its sign differs from `rhs`'s; a zero result
    takes the sign of `rhs`. An integer remainder by zero has an undefined
    result. Operands broadcast the NumPy way.

    Example:

    ```mlir
    %y = graph.mod %a, %b : (tensor<4xi32>, tensor<i32>) -> tensor<4xi32>
    ```
  }];
  let hasFolder = 1;
}

def Graph_RemOp : Graph_BroadcastBinaryOp<"rem", Graph_ArithmeticTensor, []> {
  let summary = "Elementwise remainder with the sign of the dividend";
  let description = [{
    `result = lhs - trunc(lhs / rhs) * rhs`, exactly (C `fmod` and `%`, ONNX
    `Mod` with `fmod = 1`, TensorFlow `TruncateMod`). An integer remainder by
    zero has an undefined result. Operands broadcast the NumPy way.

    Example:

    ```mlir
    %y = graph.rem %a, %b : (tensor<4xf32>, tensor<f32>) -> tensor<4xf32>
    ```
  }];
  let hasFolder = 1;
}

def Graph_AndOp : Graph_BroadcastBinaryOp<"and", Graph_BoolTensor, [Commutative]> {
  let summary = "Elementwise logical and";
  let description = [{
    `result = lhs && rhs` on booleans (`i1`). Operands broadcast the NumPy way.

    Example:

    ```mlir
    %y = graph.and %a, %b : (tensor<4xi1>, tensor<4xi1>) -> tensor<4xi1>
    ```
  }];
  let hasFolder = 1;
}

def Graph_OrOp : Graph_BroadcastBinaryOp<"or", Graph_BoolTensor, [Commutative]> {
  let summary = "Elementwise logical or";
  let description = [{
    `result = lhs || rhs` on booleans (`i1`). Operands broadcast the NumPy way.

    Example:

    ```mlir
    %y = graph.or %a, %b : (tensor<4xi1>, tensor<4xi1>) -> tensor<4xi1>
    ```
  }];
  let hasFolder = 1;
}

def Graph_XorOp : Graph_BroadcastBinaryOp<"xor", Graph_BoolTensor, [Commutative]> {
  let summary = "Elementwise logical exclusive or";
  let description = [{
    `result = lhs != rhs` on booleans (`i1`). Operands broadcast the NumPy way.

    Example:

    ```mlir
    %y = graph.xor %a, %b : (tensor<4xi1>, tensor<4xi1>) -> tensor<4xi1>
    ```
  }];
  let hasFolder = 1;
}

//===----------------------------------------------------------------------===//
// CompareOp
//===----------------------------------------------------------------------===//

def Graph_CompareOp : Graph_Op<"compare", [Pure, Graph_CostOpInterface]> {
  let summary = "Elementwise comparison with broadcasting";
  let description = [{
    `result = lhs <direction> rhs`, a boolean tensor of the broadcast shape.
    Integers compare signed, booleans as `false < true`. Float comparisons
    are ordered: with a NaN operand every direction is false except `ne`,
    which is true.

    Example:

    ```mlir
    %m = graph.compare %x, %y {direction = #graph<compare_direction lt>} : (tensor<4xf32>, tensor<f32>) -> tensor<4xi1>
    ```
  }];
  let arguments = (ins Graph_IntOrFloatTensor:$lhs,
                       Graph_IntOrFloatTensor:$rhs,
                       Graph_CompareDirectionAttr:$direction);
  let results = (outs Graph_BoolTensor:$result);
  let assemblyFormat = [{
    $lhs `,` $rhs attr-dict `:` functional-type(operands, results)
  }];
  let hasFolder = 1;
  let hasCanonicalizer = 1;
}

//===----------------------------------------------------------------------===//
// SelectOp
//===----------------------------------------------------------------------===//

def Graph_SelectOp : Graph_Op<"select", [Pure, Graph_CostOpInterface]> {
  let summary = "Elementwise choice between two tensors, with broadcasting";
  let description = [{
    `result = cond ? true_value : false_value`, element by element. The
    three operands broadcast the NumPy way (ONNX `Where`); the values share
    their element type.

    Example:

    ```mlir
    %y = graph.select %c, %x, %z : (tensor<4xi1>, tensor<4xf32>, tensor<f32>) -> tensor<4xf32>
    ```
  }];
  let arguments = (ins Graph_BoolTensor:$cond, Graph_Tensor:$true_value,
                       Graph_Tensor:$false_value);
  let results = (outs Graph_Tensor:$result);
  let assemblyFormat = [{
    $cond `,` $true_value `,` $false_value attr-dict `:`
    functional-type(operands, results)
  }];
  let hasFolder = 1;
  let hasCanonicalizer = 1;
}

#endif // GRAPHC_DIALECTS_GRAPH_GRAPHELEMENTWISEOPS_TD
