//===- StablehloOps.td - StableHLO ops graphc emits ----------*- tablegen -*-===//
//
// Each op keeps upstream's name, operands, results and attribute names and
// types (DenseI64ArrayAttr where upstream has `array<i64: ...>`, I64Attr
// for scalars), so its generic form is upstream's. Semantics: the StableHLO
// specification, docs/spec.md of openxla/stablehlo.
//
//===----------------------------------------------------------------------===//

#ifndef GRAPHC_DIALECTS_STABLEHLO_STABLEHLOOPS_TD
#define GRAPHC_DIALECTS_STABLEHLO_STABLEHLOOPS_TD

include "StablehloBase.td"
include "mlir/IR/BuiltinAttributeInterfaces.td"
include "mlir/Interfaces/InferTypeOpInterface.td"
include "mlir/Interfaces/SideEffectInterfaces.td"
include "mlir/IR/OpBase.td"

def Stablehlo_Tensor : RankedTensorOf<[AnyFloat, AnySignlessInteger,
                                       AnyUnsignedInteger, I1]>;
def Stablehlo_ScalarTensor : 0DTensorOf<[AnyFloat, AnySignlessInteger,
                                         AnyUnsignedInteger, I1]>;
def Stablehlo_IntTensor : RankedTensorOf<[AnySignlessInteger, AnyUnsignedInteger]>;
def Stablehlo_PredTensor : RankedTensorOf<[I1]>;
def Stablehlo_TokenType : Type<CPred<"::llvm::isa<::graphc::stablehlo::TokenType>($_self)">,
                               "token", "::graphc::stablehlo::TokenType">;

class Stablehlo_Op<string mnemonic, list<Trait> traits = []>
    : Op<Stablehlo_Dialect, mnemonic, traits>;

//===----------------------------------------------------------------------===//
// Elementwise
//===----------------------------------------------------------------------===//

class Stablehlo_UnaryOp<string mnemonic, string what>
    : Stablehlo_Op<mnemonic, [Pure, Elementwise, SameOperandsAndResultType]> {
  let summary = what;
  let description = "Elementwise `" # what # "` of `operand`.\n\nExample:\n\n"
    # "```mlir\n%r = \"stablehlo." # mnemonic
    # "\"(%x) : (tensor<4xf32>) -> tensor<4xf32>\n```";
  let arguments = (ins Stablehlo_Tensor:$operand);
  let results = (outs Stablehlo_Tensor:$result);
}

def Stablehlo_AbsOp : Stablehlo_UnaryOp<"abs", "absolute value">;
def Stablehlo_NegOp : Stablehlo_UnaryOp<"negate", "negation">;
def Stablehlo_ExpOp : Stablehlo_UnaryOp<"exponential", "e to the power">;
def Stablehlo_Expm1Op : Stablehlo_UnaryOp<"exponential_minus_one", "exp(x) - 1">;
def Stablehlo_LogOp : Stablehlo_UnaryOp<"log", "natural logarithm">;
def Stablehlo_Log1pOp : Stablehlo_UnaryOp<"log_plus_one", "log(1 + x)">;
def Stablehlo_LogisticOp : Stablehlo_UnaryOp<"logistic", "1 / (1 + exp(-x))">;
def Stablehlo_SqrtOp : Stablehlo_UnaryOp<"sqrt", "square root">;
def Stablehlo_RsqrtOp : Stablehlo_UnaryOp<"rsqrt", "reciprocal square root">;
def Stablehlo_TanhOp : Stablehlo_UnaryOp<"tanh", "hyperbolic tangent">;
def Stablehlo_TanOp : Stablehlo_UnaryOp<"tan", "tangent">;
def Stablehlo_SineOp : Stablehlo_UnaryOp<"sine", "sine">;
def Stablehlo_CosineOp : Stablehlo_UnaryOp<"cosine", "cosine">;
def Stablehlo_FloorOp : Stablehlo_UnaryOp<"floor", "round toward -inf">;
def Stablehlo_CeilOp : Stablehlo_UnaryOp<"ceil", "round toward +inf">;
def Stablehlo_RoundEvenOp : Stablehlo_UnaryOp<"round_nearest_even",
                                              "round half to even">;
def Stablehlo_SignOp : Stablehlo_UnaryOp<"sign", "sign (-1, 0, 1)">;
def Stablehlo_NotOp : Stablehlo_UnaryOp<"not", "logical or bitwise not">;

class Stablehlo_BinaryOp<string mnemonic, string what>
    : Stablehlo_Op<mnemonic, [Pure, Elementwise, SameOperandsAndResultType]> {
  let summary = what;
  let description = "Elementwise `" # what # "` of two tensors of one type "
    # "(no implicit broadcasting: broadcast_in_dim first).\n\nExample:\n\n"
    # "```mlir\n%r = \"stablehlo." # mnemonic
    # "\"(%a, %b) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>\n```";
  let arguments = (ins Stablehlo_Tensor:$lhs, Stablehlo_Tensor:$rhs);
  let results = (outs Stablehlo_Tensor:$result);
}

def Stablehlo_AddOp : Stablehlo_BinaryOp<"add", "addition">;
def Stablehlo_SubtractOp : Stablehlo_BinaryOp<"subtract", "subtraction">;
def Stablehlo_MulOp : Stablehlo_BinaryOp<"multiply", "multiplication">;
def Stablehlo_DivOp : Stablehlo_BinaryOp<"divide", "division">;
def Stablehlo_RemOp : Stablehlo_BinaryOp<"remainder", "remainder (sign of the dividend)">;
def Stablehlo_PowOp : Stablehlo_BinaryOp<"power", "power">;
def Stablehlo_MaxOp : Stablehlo_BinaryOp<"maximum", "maximum">;
def Stablehlo_MinOp : Stablehlo_BinaryOp<"minimum", "minimum">;
def Stablehlo_AndOp : Stablehlo_BinaryOp<"and", "logical or bitwise and">;
def Stablehlo_OrOp : Stablehlo_BinaryOp<"or", "logical or bitwise or">;
def Stablehlo_XorOp : Stablehlo_BinaryOp<"xor", "logical or bitwise xor">;
def Stablehlo_Atan2Op : Stablehlo_BinaryOp<"atan2", "two-argument arctangent">;
def Stablehlo_ShiftLeftOp : Stablehlo_BinaryOp<"shift_left", "left shift">;
def Stablehlo_ShiftRightArithmeticOp
    : Stablehlo_BinaryOp<"shift_right_arithmetic", "arithmetic right shift">;
def Stablehlo_ShiftRightLogicalOp
    : Stablehlo_BinaryOp<"shift_right_logical", "logical right shift">;

def Stablehlo_CompareOp : Stablehlo_Op<"compare", [Pure, Elementwise]> {
  let summary = "Elementwise comparison";
  let description = [{
    `comparison_direction` compares `lhs` with `rhs`; `compare_type`, when
    given, says how (FLOAT, SIGNED, UNSIGNED, TOTALORDER).

    Example:

    ```mlir
    %r = "stablehlo.compare"(%a, %b) {comparison_direction = #stablehlo<comparison_direction LT>}
        : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
    ```
  }];
  let arguments = (ins Stablehlo_Tensor:$lhs, Stablehlo_Tensor:$rhs,
                       Stablehlo_ComparisonDirectionAttr:$comparison_direction,
                       OptionalAttr<Stablehlo_ComparisonTypeAttr>:$compare_type);
  let results = (outs Stablehlo_PredTensor:$result);
  let hasVerifier = 1;
}

def Stablehlo_SelectOp : Stablehlo_Op<"select", [Pure]> {
  let summary = "Elementwise choice between two tensors";
  let description = [{
    `pred` is a scalar or has the shape of the branches.

    Example:

    ```mlir
    %r = "stablehlo.select"(%p, %a, %b) : (tensor<4xi1>, tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
    ```
  }];
  let arguments = (ins Stablehlo_PredTensor:$pred, Stablehlo_Tensor:$on_true,
                       Stablehlo_Tensor:$on_false);
  let results = (outs Stablehlo_Tensor:$result);
  let hasVerifier = 1;
}

def Stablehlo_ClampOp : Stablehlo_Op<"clamp", [Pure]> {
  let summary = "Clamps `operand` between `min` and `max`";
  let description = [{
    `min` and `max` are scalars or have the shape of `operand`.

    Example:

    ```mlir
    %r = "stablehlo.clamp"(%lo, %x, %hi) : (tensor<f32>, tensor<4xf32>, tensor<f32>) -> tensor<4xf32>
    ```
  }];
  let arguments = (ins Stablehlo_Tensor:$min, Stablehlo_Tensor:$operand,
                       Stablehlo_Tensor:$max);
  let results = (outs Stablehlo_Tensor:$result);
  let hasVerifier = 1;
}

def Stablehlo_ConvertOp : Stablehlo_Op<"convert", [Pure, Elementwise,
                                                   SameOperandsAndResultShape]> {
  let summary = "Elementwise conversion of the element type";
  let description = [{
    Example:

    ```mlir
    %r = "stablehlo.convert"(%x) : (tensor<4xi64>) -> tensor<4xf32>
    ```
  }];
  let arguments = (ins Stablehlo_Tensor:$operand);
  let results = (outs Stablehlo_Tensor:$result);
}

//===----------------------------------------------------------------------===//
// Constants and data movement
//===----------------------------------------------------------------------===//

def Stablehlo_ConstantOp : Stablehlo_Op<"constant", [Pure, ConstantLike]> {
  let summary = "A constant tensor";
  let description = [{
    Example:

    ```mlir
    %c = "stablehlo.constant"() {value = dense<1.0> : tensor<4xf32>} : () -> tensor<4xf32>
    ```
  }];
  let arguments = (ins ElementsAttr:$value);
  let results = (outs Stablehlo_Tensor:$output);
  let hasVerifier = 1;
}

def Stablehlo_IotaOp : Stablehlo_Op<"iota", [Pure]> {
  let summary = "Counts 0, 1, 2, ... along one dimension";
  let description = [{
    Example:

    ```mlir
    %i = "stablehlo.iota"() {iota_dimension = 0 : i64} : () -> tensor<4xi64>
    ```
  }];
  let arguments = (ins I64Attr:$iota_dimension);
  let results = (outs Stablehlo_Tensor:$output);
  let hasVerifier = 1;
}

def Stablehlo_ReshapeOp : Stablehlo_Op<"reshape", [Pure]> {
  let summary = "Same elements in row-major order, another static shape";
  let description = [{
    Example:

    ```mlir
    %r = "stablehlo.reshape"(%x) : (tensor<2x3xf32>) -> tensor<6xf32>
    ```
  }];
  let arguments = (ins Stablehlo_Tensor:$operand);
  let results = (outs Stablehlo_Tensor:$result);
  let hasVerifier = 1;
}

def Stablehlo_TransposeOp : Stablehlo_Op<"transpose", [Pure]> {
  let summary = "Permutes dimensions";
  let description = [{
    Example:

    ```mlir
    %r = "stablehlo.transpose"(%x) {permutation = array<i64: 1, 0>} : (tensor<2x3xf32>) -> tensor<3x2xf32>
    ```
  }];
  let arguments = (ins Stablehlo_Tensor:$operand,
                       DenseI64ArrayAttr:$permutation);
  let results = (outs Stablehlo_Tensor:$result);
  let hasVerifier = 1;
}

def Stablehlo_BroadcastInDimOp : Stablehlo_Op<"broadcast_in_dim", [Pure]> {
  let summary = "Broadcasts along mapped dimensions";
  let description = [{
    Each operand dimension is 1 or equals the result dimension it maps to.

    Example:

    ```mlir
    %r = "stablehlo.broadcast_in_dim"(%b) {broadcast_dimensions = array<i64: 1>} : (tensor<4xf32>) -> tensor<2x4xf32>
    ```
  }];
  let arguments = (ins Stablehlo_Tensor:$operand,
                       DenseI64ArrayAttr:$broadcast_dimensions);
  let results = (outs Stablehlo_Tensor:$result);
  let hasVerifier = 1;
}

def Stablehlo_ConcatenateOp : Stablehlo_Op<"concatenate", [Pure]> {
  let summary = "Joins tensors along `dimension`";
  let description = [{
    Example:

    ```mlir
    %r = "stablehlo.concatenate"(%a, %b) {dimension = 0 : i64} : (tensor<1x4xf32>, tensor<2x4xf32>) -> tensor<3x4xf32>
    ```
  }];
  let arguments = (ins Variadic<Stablehlo_Tensor>:$inputs, I64Attr:$dimension);
  let results = (outs Stablehlo_Tensor:$result);
  let hasVerifier = 1;
}

def Stablehlo_SliceOp : Stablehlo_Op<"slice", [Pure]> {
  let summary = "A static strided slice";
  let description = [{
    Example:

    ```mlir
    %r = "stablehlo.slice"(%x) {start_indices = array<i64: 1>, limit_indices = array<i64: 3>, strides = array<i64: 1>}
        : (tensor<4xf32>) -> tensor<2xf32>
    ```
  }];
  let arguments = (ins Stablehlo_Tensor:$operand,
                       DenseI64ArrayAttr:$start_indices,
                       DenseI64ArrayAttr:$limit_indices,
                       DenseI64ArrayAttr:$strides);
  let results = (outs Stablehlo_Tensor:$result);
  let hasVerifier = 1;
}

def Stablehlo_PadOp : Stablehlo_Op<"pad", [Pure]> {
  let summary = "Pads with a scalar (edges may be negative, interior not)";
  let description = [{
    Example:

    ```mlir
    %r = "stablehlo.pad"(%x, %zero) {edge_padding_low = array<i64: 1>, edge_padding_high = array<i64: 2>, interior_padding = array<i64: 0>}
        : (tensor<4xf32>, tensor<f32>) -> tensor<7xf32>
    ```
  }];
  let arguments = (ins Stablehlo_Tensor:$operand,
                       Stablehlo_ScalarTensor:$padding_value,
                       DenseI64ArrayAttr:$edge_padding_low,
                       DenseI64ArrayAttr:$edge_padding_high,
                       DenseI64ArrayAttr:$interior_padding);
  let results = (outs Stablehlo_Tensor:$result);
  let hasVerifier = 1;
}

def Stablehlo_GatherOp : Stablehlo_Op<"gather", [Pure]> {
  let summary = "Gathers slices of the operand at start indices";
  let description = [{
    Example (rows 2 and 0 of a 3x4 matrix):

    ```mlir
    %r = "stablehlo.gather"(%x, %idx) {
      dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0],
                                            start_index_map = [0], index_vector_dim = 1>,
      indices_are_sorted = false, slice_sizes = array<i64: 1, 4>}
        : (tensor<3x4xf32>, tensor<2x1xi64>) -> tensor<2x4xf32>
    ```
  }];
  let arguments = (ins Stablehlo_Tensor:$operand,
                       Stablehlo_IntTensor:$start_indices,
                       Stablehlo_GatherDimensionNumbers:$dimension_numbers,
                       DenseI64ArrayAttr:$slice_sizes,
                       DefaultValuedAttr<BoolAttr, "false">:$indices_are_sorted);
  let results = (outs Stablehlo_Tensor:$result);
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Contractions and windows
//===----------------------------------------------------------------------===//

def Stablehlo_DotGeneralOp : Stablehlo_Op<"dot_general", [Pure]> {
  let summary = "Batched contraction of two tensors";
  let description = [{
    The result's dimensions are the batching dimensions, then lhs's free
    dimensions, then rhs's.

    Example (a matmul):

    ```mlir
    %r = "stablehlo.dot_general"(%a, %b) {
      dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>}
        : (tensor<2x3xf32>, tensor<3x4xf32>) -> tensor<2x4xf32>
    ```
  }];
  let arguments = (ins Stablehlo_Tensor:$lhs, Stablehlo_Tensor:$rhs,
                       Stablehlo_DotDimensionNumbers:$dot_dimension_numbers);
  let results = (outs Stablehlo_Tensor:$result);
  let hasVerifier = 1;
}

def Stablehlo_ConvolutionOp : Stablehlo_Op<"convolution", [Pure]> {
  let summary = "N-d convolution with strides, padding, dilations and groups";
  let description = [{
    `padding` is a `tensor<Nx2xi64>` of (low, high) per spatial dimension.

    Example (NCHW input, OIHW kernel):

    ```mlir
    %r = "stablehlo.convolution"(%x, %w) {
      batch_group_count = 1 : i64,
      dimension_numbers = #stablehlo.conv<[b, f, 0, 1]x[o, i, 0, 1]->[b, f, 0, 1]>,
      feature_group_count = 1 : i64, lhs_dilation = array<i64: 1, 1>,
      padding = dense<1> : tensor<2x2xi64>, rhs_dilation = array<i64: 1, 1>,
      window_strides = array<i64: 1, 1>}
        : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x8x8xf32>
    ```
  }];
  let arguments = (ins Stablehlo_Tensor:$lhs, Stablehlo_Tensor:$rhs,
                       DenseI64ArrayAttr:$window_strides,
                       I64ElementsAttr:$padding,
                       DenseI64ArrayAttr:$lhs_dilation,
                       DenseI64ArrayAttr:$rhs_dilation,
                       Stablehlo_ConvDimensionNumbers:$dimension_numbers,
                       I64Attr:$feature_group_count,
                       I64Attr:$batch_group_count);
  let results = (outs Stablehlo_Tensor:$result);
  let hasVerifier = 1;
}

def Stablehlo_ReduceOp : Stablehlo_Op<"reduce", [Pure, SameVariadicOperandSize,
    SingleBlockImplicitTerminator<"ReturnOp">]> {
  let summary = "Reduces `dimensions` with the body";
  let description = [{
    The body takes (accumulator, element) as 0-d tensors and returns the new
    accumulator.

    Example (sum of rows):

    ```mlir
    %r = "stablehlo.reduce"(%x, %zero) ({
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      %s = "stablehlo.add"(%a, %b) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%s) : (tensor<f32>) -> ()
    }) {dimensions = array<i64: 1>} : (tensor<2x3xf32>, tensor<f32>) -> tensor<2xf32>
    ```
  }];
  let arguments = (ins Variadic<Stablehlo_Tensor>:$inputs,
                       Variadic<Stablehlo_ScalarTensor>:$init_values,
                       DenseI64ArrayAttr:$dimensions);
  let results = (outs Variadic<Stablehlo_Tensor>:$results);
  let regions = (region SizedRegion<1>:$body);
  let hasVerifier = 1;
}

def Stablehlo_ReduceWindowOp : Stablehlo_Op<"reduce_window", [Pure,
    SameVariadicOperandSize,
    SingleBlockImplicitTerminator<"ReturnOp">]> {
  let summary = "Reduces each window (pooling)";
  let description = [{
    Example (2x2 max pooling, stride 2):

    ```mlir
    %r = "stablehlo.reduce_window"(%x, %ninf) ({
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      %m = "stablehlo.maximum"(%a, %b) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%m) : (tensor<f32>) -> ()
    }) {window_dimensions = array<i64: 1, 1, 2, 2>, window_strides = array<i64: 1, 1, 2, 2>}
        : (tensor<1x1x4x4xf32>, tensor<f32>) -> tensor<1x1x2x2xf32>
    ```
  }];
  let arguments = (ins Variadic<Stablehlo_Tensor>:$inputs,
                       Variadic<Stablehlo_ScalarTensor>:$init_values,
                       DenseI64ArrayAttr:$window_dimensions,
                       OptionalAttr<DenseI64ArrayAttr>:$window_strides,
                       OptionalAttr<DenseI64ArrayAttr>:$base_dilations,
                       OptionalAttr<DenseI64ArrayAttr>:$window_dilations,
                       OptionalAttr<I64ElementsAttr>:$padding);
  let results = (outs Variadic<Stablehlo_Tensor>:$results);
  let regions = (region SizedRegion<1>:$body);
  let hasVerifier = 1;
}

def Stablehlo_ReturnOp : Stablehlo_Op<"return", [Pure, Terminator]> {
  let summary = "Ends the body of a reduction or collective";
  let description = [{
    Example:

    ```mlir
    "stablehlo.return"(%s) : (tensor<f32>) -> ()
    ```
  }];
  let arguments = (ins Variadic<AnyType>:$results);
  let builders = [OpBuilder<(ins), [{ build($_builder, $_state, ::mlir::ValueRange()); }]>];
}

//===----------------------------------------------------------------------===//
// Communication
//===----------------------------------------------------------------------===//

def Stablehlo_AllReduceOp : Stablehlo_Op<"all_reduce",
    [SingleBlockImplicitTerminator<"ReturnOp">]> {
  let summary = "Reduces each operand across the replicas of each group";
  let description = [{
    Within each group of `replica_groups` (a `tensor<GxNxi64>` of replica
    ids), every replica gets the reduction (the body) of the members'
    operands:

    ```
      replica 0: [a0]  --\            /-->  [a0+a1]
                          +-- body --+
      replica 1: [a1]  --/            \-->  [a0+a1]
    ```

    `channel_handle` (type 1) makes it a cross-replica collective XLA keeps
    apart from the others.

    Example:

    ```mlir
    %r = "stablehlo.all_reduce"(%g) ({
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      %s = "stablehlo.add"(%a, %b) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%s) : (tensor<f32>) -> ()
    }) {channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>,
        replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>}
        : (tensor<4xf32>) -> tensor<4xf32>
    ```
  }];
  let arguments = (ins Variadic<Stablehlo_Tensor>:$operands,
                       I64ElementsAttr:$replica_groups,
                       OptionalAttr<Stablehlo_ChannelHandle>:$channel_handle,
                       UnitAttr:$use_global_device_ids);
  let results = (outs Variadic<Stablehlo_Tensor>:$results);
  let regions = (region SizedRegion<1>:$computation);
  let hasVerifier = 1;
}

def Stablehlo_AfterAllOp : Stablehlo_Op<"after_all", [Pure]> {
  let summary = "A token that orders after its operands (none: a fresh one)";
  let description = [{
    Example:

    ```mlir
    %t = "stablehlo.after_all"() : () -> !stablehlo.token
    ```
  }];
  let arguments = (ins Variadic<Stablehlo_TokenType>:$inputs);
  let results = (outs Stablehlo_TokenType:$result);
}

def Stablehlo_SendOp : Stablehlo_Op<"send"> {
  let summary = "Sends `inputs` on a channel to the program that receives it";
  let description = [{
    Point-to-point between two programs of one job; the receiver's
    `stablehlo.recv` names the same channel:

    ```
      program A: send(x, channel 3) --> program B: recv(channel 3) = x
    ```

    Example:

    ```mlir
    %t1 = "stablehlo.send"(%x, %t0) {channel_handle = #stablehlo.channel_handle<handle = 3, type = 1>,
                                      is_host_transfer = false}
        : (tensor<4xf32>, !stablehlo.token) -> !stablehlo.token
    ```
  }];
  let arguments = (ins Variadic<Stablehlo_Tensor>:$inputs,
                       Stablehlo_TokenType:$token,
                       Stablehlo_ChannelHandle:$channel_handle,
                       DefaultValuedAttr<BoolAttr, "false">:$is_host_transfer);
  let results = (outs Stablehlo_TokenType:$result);
}

def Stablehlo_RecvOp : Stablehlo_Op<"recv"> {
  let summary = "Receives tensors on a channel from the program that sends them";
  let description = [{
    The mirror of `stablehlo.send`; its last result is the token.

    Example:

    ```mlir
    %x, %t1 = "stablehlo.recv"(%t0) {channel_handle = #stablehlo.channel_handle<handle = 3, type = 1>,
                                     is_host_transfer = false}
        : (!stablehlo.token) -> (tensor<4xf32>, !stablehlo.token)
    ```
  }];
  let arguments = (ins Stablehlo_TokenType:$token,
                       Stablehlo_ChannelHandle:$channel_handle,
                       DefaultValuedAttr<BoolAttr, "false">:$is_host_transfer);
  let results = (outs Variadic<AnyType>:$results);
  let hasVerifier = 1;
}

#endif // GRAPHC_DIALECTS_STABLEHLO_STABLEHLOOPS_TD
