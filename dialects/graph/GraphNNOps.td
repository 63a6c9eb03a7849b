//===- GraphNNOps.td - contractions, convolution, pooling, normalisation ===//
//
// Neural-network ops. Layout is channels-first as in ONNX: activations are
// `[N, C, D1, ..., Dk]` and filters `[O, I/groups, K1, ..., Kk]`. Attribute
// lists that describe spatial dimensions (strides, dilations, pads, windows)
// have one entry per spatial dimension; absent lists mean strides and
// dilations of 1 and pads of 0.
//
//===----------------------------------------------------------------------===//

#ifndef GRAPHC_DIALECTS_GRAPH_GRAPHNNOPS_TD
#define GRAPHC_DIALECTS_GRAPH_GRAPHNNOPS_TD

include "graph/GraphBase.td"

//===----------------------------------------------------------------------===//
// Enums
//===----------------------------------------------------------------------===//

def Graph_PoolKind : I32EnumAttr<"PoolKind", "pooling reduction", [
      I32EnumAttrCase<"max", 0>, I32EnumAttrCase<"avg", 1>]> {
  let genSpecializedAttr = 0;
  let cppNamespace = "::graphc::graph";
}
def Graph_PoolKindAttr : EnumAttr<Graph_Dialect, Graph_PoolKind, "pool_kind">;

def Graph_ResizeMode : I32EnumAttr<"ResizeMode", "resize interpolation", [
      I32EnumAttrCase<"nearest", 0>, I32EnumAttrCase<"linear", 1>,
      I32EnumAttrCase<"cubic", 2>]> {
  let genSpecializedAttr = 0;
  let cppNamespace = "::graphc::graph";
}
def Graph_ResizeModeAttr
    : EnumAttr<Graph_Dialect, Graph_ResizeMode, "resize_mode">;

def Graph_CoordinateMode : I32EnumAttr<"CoordinateMode",
    "how resize maps output coordinates to input coordinates", [
      I32EnumAttrCase<"half_pixel", 0>, I32EnumAttrCase<"align_corners", 1>,
      I32EnumAttrCase<"asymmetric", 2>,
      I32EnumAttrCase<"pytorch_half_pixel", 3>,
      I32EnumAttrCase<"half_pixel_symmetric", 4>,
      I32EnumAttrCase<"tf_crop_and_resize", 5>]> {
  let genSpecializedAttr = 0;
  let cppNamespace = "::graphc::graph";
}
def Graph_CoordinateModeAttr
    : EnumAttr<Graph_Dialect, Graph_CoordinateMode, "coordinate_mode">;

def Graph_NearestMode : I32EnumAttr<"NearestMode",
    "how a nearest resize rounds a source coordinate to an index", [
      I32EnumAttrCase<"round_prefer_floor", 0>,
      I32EnumAttrCase<"round_prefer_ceil", 1>, I32EnumAttrCase<"floor", 2>,
      I32EnumAttrCase<"ceil", 3>]> {
  let genSpecializedAttr = 0;
  let cppNamespace = "::graphc::graph";
}
def Graph_NearestModeAttr
    : EnumAttr<Graph_Dialect, Graph_NearestMode, "nearest_mode">;

def Graph_RNNDirection : I32EnumAttr<"RNNDirection",
    "direction of a recurrent layer", [
      I32EnumAttrCase<"forward", 0>, I32EnumAttrCase<"reverse", 1>,
      I32EnumAttrCase<"bidirectional", 2>]> {
  let genSpecializedAttr = 0;
  let cppNamespace = "::graphc::graph";
}
def Graph_RNNDirectionAttr
    : EnumAttr<Graph_Dialect, Graph_RNNDirection, "rnn_direction">;

//===----------------------------------------------------------------------===//
// MatMulOp
//===----------------------------------------------------------------------===//

def Graph_MatMulOp : Graph_Op<"matmul", [Pure, Graph_CostOverride]> {
  let summary = "Batched matrix multiplication";
  let description = [{
    Multiplies the last two dimensions of `lhs` (`[..., M, K]`, or `[..., K, M]`
    with `transpose_lhs`) by those of `rhs` (`[..., K, N]`, or `[..., N, K]`
    with `transpose_rhs`). Leading batch dimensions broadcast the NumPy way.
    A rank-1 operand is treated as in NumPy's `matmul`: a vector `[K]` on the
    left is `[1, K]` and on the right `[K, 1]`, and that unit dimension is
    dropped from the result.

    Cost: `2 * K` per result element (one multiply and one add per
    contraction step).

    A `graph.transpose` that only swaps the last two dimensions of an operand
    of rank >= 2 is absorbed into `transpose_lhs` / `transpose_rhs` by
    canonicalization.

    Example:

    ```mlir
    %y = graph.matmul %x, %w : (tensor<8x784xf32>, tensor<784x10xf32>) -> tensor<8x10xf32>
    %z = graph.matmul %q, %k {transpose_rhs} : (tensor<2x4x16x64xf32>, tensor<2x4x16x64xf32>) -> tensor<2x4x16x16xf32>
    ```
  }];
  let arguments = (ins Graph_Tensor:$lhs, Graph_Tensor:$rhs,
                       UnitAttr:$transpose_lhs, UnitAttr:$transpose_rhs);
  let results = (outs Graph_Tensor:$result);
  let assemblyFormat = [{
    $lhs `,` $rhs attr-dict `:` functional-type(operands, results)
  }];
  let hasCanonicalizer = 1;
}

//===----------------------------------------------------------------------===//
// ConvOp
//===----------------------------------------------------------------------===//

/// Element types graph.conv computes in: floats, and signless integers
/// (wrapping arithmetic) for quantized convolutions, which the ONNX importer
/// accumulates in `i32`.
def Graph_ConvTensor : TensorOf<[AnyFloat, I8, I16, I32, I64]>;

def Graph_ConvOp : Graph_Op<"conv", [Pure, Graph_CostOverride]> {
  let summary = "N-dimensional grouped convolution, channels-first";
  let description = [{
    Convolves `input` `[N, C, D1, ..., Dk]` (k = 1, 2 or 3 spatial
    dimensions) with `filter` `[O, C/groups, K1, ..., Kk]` and adds the
    optional `bias` `[O]` per output channel (the cross-correlation of
    ONNX `Conv` and TensorFlow `Conv2D`, not a flipped convolution).
    Operands and result share one element type: a float, or a signless
    integer, in which case products and sums wrap modulo `2^N` (ONNX
    `ConvInteger` casts its operands to `i32` first, so that `i32` is the
    accumulator).

    `strides`, `dilations`, `pad_low` and `pad_high` have one entry per
    spatial dimension; when absent they are all 1 (strides, dilations) or 0
    (pads). `groups` (default 1) must divide `C` and `O`. Output spatial size
    `i` is `floor((D_i + pad_low_i + pad_high_i - dilation_i * (K_i - 1) - 1)
    / stride_i) + 1` and must be positive.

    Cost: `2 * N * O * prod(output spatial) * (C / groups) * prod(K)` (one
    multiply-add per filter tap and output element) plus one add per output
    element when `bias` is present.

    Example:

    ```mlir
    %y = graph.conv %x, %w, %b {strides = array<i64: 2, 2>, pad_low = array<i64: 1, 1>, pad_high = array<i64: 1, 1>}
        : (tensor<1x3x224x224xf32>, tensor<64x3x7x7xf32>, tensor<64xf32>) -> tensor<1x64x112x112xf32>
    %q = graph.conv %xi, %wi : (tensor<1x1x3x3xi32>, tensor<2x1x2x2xi32>) -> tensor<1x2x2x2xi32>
    ```
  }];
  let arguments = (ins Graph_ConvTensor:$input, Graph_ConvTensor:$filter,
                       Optional<Graph_ConvTensor>:$bias,
                       OptionalAttr<DenseI64ArrayAttr>:$strides,
                       OptionalAttr<DenseI64ArrayAttr>:$dilations,
                       OptionalAttr<DenseI64ArrayAttr>:$pad_low,
                       OptionalAttr<DenseI64ArrayAttr>:$pad_high,
                       DefaultValuedAttr<I64Attr, "1">:$groups);
  let results = (outs Graph_ConvTensor:$result);
  let assemblyFormat = [{
    $input `,` $filter (`,` $bias^)? attr-dict `:` functional-type(operands, results)
  }];
}

//===----------------------------------------------------------------------===//
// ConvTransposeOp
//===----------------------------------------------------------------------===//

def Graph_ConvTransposeOp : Graph_Op<"conv_transpose",
    [Pure, Graph_CostOverride]> {
  let summary = "N-dimensional grouped transposed convolution, channels-first";
  let description = [{
    The gradient of `graph.conv` with respect to its input (ONNX
    `ConvTranspose`, TensorFlow `Conv2DBackpropInput`): `input` `[N, C, D1,
    ..., Dk]`, `filter` `[C, O/groups, K1, ..., Kk]` (ONNX layout), optional
    `bias` `[O]`; the result has `O = filter[1] * groups` channels.

    Attributes are those of `graph.conv` plus `output_padding` (one entry
    per spatial dimension, default 0), which adds cells at the high end of
    each spatial dimension and must be smaller than the stride or the
    dilation of that dimension (PyTorch's rule). Output spatial size `i` is
    `stride_i * (D_i - 1) + output_padding_i + dilation_i * (K_i - 1) + 1 -
    pad_low_i - pad_high_i` and must be positive.

    Cost: `2 * N * C * prod(input spatial) * (O / groups) * prod(K)` (every
    input element is scattered through its group's filter taps) plus one add
    per output element when `bias` is present.

    Example:

    ```mlir
    %y = graph.conv_transpose %x, %w {strides = array<i64: 2, 2>}
        : (tensor<1x64x8x8xf32>, tensor<64x32x2x2xf32>) -> tensor<1x32x16x16xf32>
    ```
  }];
  let arguments = (ins Graph_FloatTensor:$input, Graph_FloatTensor:$filter,
                       Optional<Graph_FloatTensor>:$bias,
                       OptionalAttr<DenseI64ArrayAttr>:$strides,
                       OptionalAttr<DenseI64ArrayAttr>:$dilations,
                       OptionalAttr<DenseI64ArrayAttr>:$pad_low,
                       OptionalAttr<DenseI64ArrayAttr>:$pad_high,
                       OptionalAttr<DenseI64ArrayAttr>:$output_padding,
                       DefaultValuedAttr<I64Attr, "1">:$groups);
  let results = (outs Graph_FloatTensor:$result);
  let assemblyFormat = [{
    $input `,` $filter (`,` $bias^)? attr-dict `:` functional-type(operands, results)
  }];
}

//===----------------------------------------------------------------------===//
// PoolOp
//===----------------------------------------------------------------------===//

def Graph_PoolOp : Graph_Op<"pool", [Pure, Graph_CostOverride]> {
  let summary = "Max or average pooling over spatial windows";
  let description = [{
    Slides a window of `window` cells (one entry per spatial dimension) over
    the spatial dimensions of `input` `[N, C, D1, ..., Dk]` and takes the
    maximum (`max`) or the mean (`avg`) of each window. `strides`,
    `dilations`, `pad_low`, `pad_high` default to 1, 1, 0, 0. Padding cells
    never win a maximum; for `avg` they count in the divisor only with
    `count_include_pad` (which is rejected for `max`).

    Output spatial size `i` is `(D_i + pad_low_i + pad_high_i - dilation_i *
    (W_i - 1) - 1) / stride_i + 1`, rounded down, or up with `ceil_mode`;
    with `ceil_mode` a last window that would start inside the high padding
    is dropped (PyTorch and ONNX agree on this).

    Cost: per output element, one operation per window cell (a comparison or
    an add) plus, for `avg`, one division.

    Global pooling is `graph.reduce` over the spatial axes with `keepdims`.

    Example:

    ```mlir
    %y = graph.pool %x {kind = #graph<pool_kind max>, window = array<i64: 3, 3>, strides = array<i64: 2, 2>, pad_low = array<i64: 1, 1>, pad_high = array<i64: 1, 1>}
        : (tensor<1x64x112x112xf32>) -> tensor<1x64x56x56xf32>
    ```
  }];
  let arguments = (ins Graph_Tensor:$input, Graph_PoolKindAttr:$kind,
                       DenseI64ArrayAttr:$window,
                       OptionalAttr<DenseI64ArrayAttr>:$strides,
                       OptionalAttr<DenseI64ArrayAttr>:$dilations,
                       OptionalAttr<DenseI64ArrayAttr>:$pad_low,
                       OptionalAttr<DenseI64ArrayAttr>:$pad_high,
                       UnitAttr:$count_include_pad, UnitAttr:$ceil_mode);
  let results = (outs Graph_Tensor:$result);
  let assemblyFormat = [{
    $input attr-dict `:` functional-type(operands, results)
  }];
  let hasFolder = 1;
}

//===----------------------------------------------------------------------===//
// SoftmaxOp, LogSoftmaxOp
//===----------------------------------------------------------------------===//

class Graph_SoftmaxBase<string mnemonic> : Graph_Op<mnemonic,
    [Pure, Graph_CostOverride]> {
  let arguments = (ins Graph_FloatTensor:$input,
                       DefaultValuedAttr<I64Attr, "-1">:$axis);
  let results = (outs Graph_FloatTensor:$result);
  let assemblyFormat = [{
    $input attr-dict `:` functional-type(operands, results)
  }];
}

def Graph_SoftmaxOp : Graph_SoftmaxBase<"softmax"> {
  let summary = "Softmax along one axis";
  let description = [{
    `result = exp(x - max(x)) / sum(exp(x - max(x)))` along `axis`
    (default -1; negative counts from the end). The result has the input's
    type.

    Cost: five operations per element (max, subtract, exp, sum, divide).

    Example:

    ```mlir
    %p = graph.softmax %logits {axis = 1} : (tensor<8x10xf32>) -> tensor<8x10xf32>
    ```
  }];
}

def Graph_LogSoftmaxOp : Graph_SoftmaxBase<"log_softmax"> {
  let summary = "Logarithm of the softmax along one axis";
  let description = [{
    `result = x - max(x) - log(sum(exp(x - max(x))))` along `axis`
    (default -1), computed without forming the softmax.

    Cost: five operations per element (max, subtract, exp, sum, subtract)
    plus one logarithm per slice along `axis`.

    Example:

    ```mlir
    %lp = graph.log_softmax %logits : (tensor<8x10xf32>) -> tensor<8x10xf32>
    ```
  }];
}

//===----------------------------------------------------------------------===//
// BatchNormOp, BatchNormTrainOp
//===----------------------------------------------------------------------===//

def Graph_BatchNormOp : Graph_Op<"batch_norm", [Pure, Graph_CostOverride]> {
  let summary = "Batch normalisation with given statistics (inference)";
  let description = [{
    `result = (input - mean) / sqrt(variance + epsilon) * scale + bias`, with
    `scale`, `bias`, `mean` and `variance` of shape `[C]` broadcast along the
    channel axis 1 of `input` `[N, C, ...]` (rank >= 2). `epsilon` defaults
    to 1e-5.

    Cost: four operations per element (subtract, multiply by the inverse
    deviation, scale, add bias) plus two per channel (add epsilon, rsqrt).

    Example:

    ```mlir
    %y = graph.batch_norm %x, %scale, %bias, %mean, %var {epsilon = 1.0e-03 : f32}
        : (tensor<8x16x32x32xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>) -> tensor<8x16x32x32xf32>
    ```
  }];
  let arguments = (ins Graph_FloatTensor:$input, Graph_FloatTensor:$scale,
                       Graph_FloatTensor:$bias, Graph_FloatTensor:$mean,
                       Graph_FloatTensor:$variance,
                       DefaultValuedAttr<F32Attr, "1.0e-5f">:$epsilon);
  let results = (outs Graph_FloatTensor:$result);
  let assemblyFormat = [{
    $input `,` $scale `,` $bias `,` $mean `,` $variance attr-dict `:`
    functional-type(operands, results)
  }];
}

def Graph_BatchNormTrainOp : Graph_Op<"batch_norm_train",
    [Pure, Graph_CostOverride]> {
  let summary = "Batch normalisation with statistics of the batch (training)";
  let description = [{
    Computes per channel (axis 1 of `input` `[N, C, ...]`) the mean and the
    biased variance over all other axes, normalises `input` with them as
    `graph.batch_norm` does, and returns `(output, batch_mean,
    batch_variance)`, the statistics of shape `[C]`. Running averages are
    the caller's business (they are plain elementwise ops on variables).

    Cost: eight operations per element (one for the mean, three for the
    variance, four to normalise) plus four per channel.

    Example:

    ```mlir
    %y, %mean, %var = graph.batch_norm_train %x, %scale, %bias
        : (tensor<8x16x32x32xf32>, tensor<16xf32>, tensor<16xf32>) -> (tensor<8x16x32x32xf32>, tensor<16xf32>, tensor<16xf32>)
    ```
  }];
  let arguments = (ins Graph_FloatTensor:$input, Graph_FloatTensor:$scale,
                       Graph_FloatTensor:$bias,
                       DefaultValuedAttr<F32Attr, "1.0e-5f">:$epsilon);
  let results = (outs Graph_FloatTensor:$output,
                      Graph_FloatTensor:$batch_mean,
                      Graph_FloatTensor:$batch_variance);
  let assemblyFormat = [{
    $input `,` $scale `,` $bias attr-dict `:` functional-type(operands, results)
  }];
}

//===----------------------------------------------------------------------===//
// LayerNormOp
//===----------------------------------------------------------------------===//

def Graph_LayerNormOp : Graph_Op<"layer_norm", [Pure, Graph_CostOverride]> {
  let summary = "Layer normalisation over the trailing dimensions";
  let description = [{
    Normalises `input` over the dimensions `axis` ... rank-1 (default -1)
    with their mean and biased variance, then multiplies by `scale` and adds
    the optional `bias` (ONNX `LayerNormalization`). `scale` and `bias` have
    exactly the normalised trailing shape. `epsilon` defaults to 1e-5.

    Cost: seven operations per element (one for the mean, three for the
    variance, three to normalise and scale) plus one more per element with
    `bias`, plus four per normalised group.

    Example:

    ```mlir
    %y = graph.layer_norm %x, %gamma, %beta {axis = 2}
        : (tensor<4x128x768xf32>, tensor<768xf32>, tensor<768xf32>) -> tensor<4x128x768xf32>
    ```
  }];
  let arguments = (ins Graph_FloatTensor:$input, Graph_FloatTensor:$scale,
                       Optional<Graph_FloatTensor>:$bias,
                       DefaultValuedAttr<I64Attr, "-1">:$axis,
                       DefaultValuedAttr<F32Attr, "1.0e-5f">:$epsilon);
  let results = (outs Graph_FloatTensor:$result);
  let assemblyFormat = [{
    $input `,` $scale (`,` $bias^)? attr-dict `:` functional-type(operands, results)
  }];
}

//===----------------------------------------------------------------------===//
// LRNOp
//===----------------------------------------------------------------------===//

def Graph_LRNOp : Graph_Op<"lrn", [Pure, Graph_CostOverride]> {
  let summary = "Local response normalisation across channels";
  let description = [{
    Divides each element of `input` `[N, C, D1, ..., Dk]` (rank >= 2) by a
    power of the sum of squares over a window of `size` neighbouring
    channels (ONNX `LRN`, AlexNet's normalisation):

    ```
    square_sum[n, c, d...] = sum of input[n, i, d...]^2
        for i in [c - floor((size - 1) / 2), c + ceil((size - 1) / 2)]
        (channels outside [0, C) count as 0)
    result = input / (bias + alpha / size * square_sum)^beta
    ```

    `size` must be at least 1; `alpha` defaults to 1e-4, `beta` to 0.75 and
    `bias` to 1. The result has the input's type.

    Cost: `size + 5` operations per element (one square, `size` adds over
    the window, scale, add bias, power, divide).

    Example:

    ```mlir
    %y = graph.lrn %x {size = 5 : i64, alpha = 1.0e-04 : f32, beta = 7.5e-01 : f32}
        : (tensor<1x96x55x55xf32>) -> tensor<1x96x55x55xf32>
    ```
  }];
  let arguments = (ins Graph_FloatTensor:$input, I64Attr:$size,
                       DefaultValuedAttr<F32Attr, "1.0e-4f">:$alpha,
                       DefaultValuedAttr<F32Attr, "0.75f">:$beta,
                       DefaultValuedAttr<F32Attr, "1.0f">:$bias);
  let results = (outs Graph_FloatTensor:$result);
  let assemblyFormat = [{
    $input attr-dict `:` functional-type(operands, results)
  }];
}

//===----------------------------------------------------------------------===//
// ResizeOp
//===----------------------------------------------------------------------===//

def Graph_ResizeOp : Graph_Op<"resize", [Pure, Graph_CostOpInterface]> {
  let summary = "Resize a tensor to explicit sizes by interpolation";
  let description = [{
    Resamples `input` to the shape `sizes` (one positive entry per
    dimension; importers turn ONNX scales into sizes). `mode` picks nearest
    (rounding half down, ONNX's default `round_prefer_floor`), linear or
    cubic interpolation; `coordinate_mode` (default `half_pixel`) how an
    output coordinate maps to an input one, as in ONNX. `linear` and `cubic`
    need a floating-point input.

    `scales` (optional, one positive entry per dimension) is the ratio the
    coordinate transformation uses when it is not `sizes / input`: ONNX
    Resize given scales keeps them exact (the size `floor(input * scale)`
    is rounded, the scale is not; `align_corners` uses `input * scale` as
    the resized length).

    `nearest_mode` (default `round_prefer_floor`) rounds a nearest resize's
    source coordinate. `cubic_coeff_a` (default -0.75) is the cubic
    kernel's A. With `exclude_outside`, linear/cubic taps that fall outside
    the input weigh 0 and the others are renormalized. With `antialias`, a
    linear or cubic downscale by `s < 1` stretches the kernel by `1 / s`
    (more taps, weights renormalized), as ONNX Resize-18 does.

    `tf_crop_and_resize` samples the box `roi` (required with that mode
    only: the start of every dimension, then its end, in normalized input
    coordinates); an output element whose source coordinate falls outside
    the input along any dimension is `extrapolation_value`.

    A `nearest` resize to the input's own shape without `scales` folds to
    its input (every coordinate mode but `tf_crop_and_resize` maps each
    index to itself at scale 1).

    Example:

    ```mlir
    %y = graph.resize %x {sizes = array<i64: 1, 3, 64, 64>, mode = #graph<resize_mode linear>}
        : (tensor<1x3x32x32xf32>) -> tensor<1x3x64x64xf32>
    ```
  }];
  let arguments = (ins Graph_Tensor:$input, DenseI64ArrayAttr:$sizes,
                       Graph_ResizeModeAttr:$mode,
                       DefaultValuedAttr<Graph_CoordinateModeAttr,
                         "::graphc::graph::CoordinateMode::half_pixel">:$coordinate_mode,
                       OptionalAttr<DenseF64ArrayAttr>:$scales,
                       DefaultValuedAttr<Graph_NearestModeAttr,
                         "::graphc::graph::NearestMode::round_prefer_floor">:$nearest_mode,
                       DefaultValuedAttr<F64Attr, "-0.75">:$cubic_coeff_a,
                       UnitAttr:$exclude_outside, UnitAttr:$antialias,
                       OptionalAttr<DenseF64ArrayAttr>:$roi,
                       DefaultValuedAttr<F64Attr, "0.0">:$extrapolation_value);
  let results = (outs Graph_Tensor:$result);
  let assemblyFormat = [{
    $input attr-dict `:` functional-type(operands, results)
  }];
  let hasFolder = 1;
}

//===----------------------------------------------------------------------===//
// LSTMOp, GRUOp
//===----------------------------------------------------------------------===//

def Graph_LSTMOp : Graph_Op<"lstm", [Pure, AttrSizedOperandSegments,
    Graph_CostOverride]> {
  let summary = "Long short-term memory layer (ONNX LSTM)";
  let description = [{
    Runs an LSTM over a sequence with ONNX's semantics and operand order
    (layout 0, time-major):

    * `X` `[seq, batch, input]`, `W` `[dirs, 4H, input]`, `R` `[dirs, 4H, H]`
      with gates in the order i, o, f, c;
    * optional `B` `[dirs, 8H]` (`Wb` then `Rb`), `sequence_lens` `[batch]`
      (i32), `initial_h` and `initial_c` `[dirs, batch, H]`, and peepholes
      `P` `[dirs, 3H]`;
    * results `Y` `[seq, dirs, batch, H]`, `Y_h` and `Y_c` `[dirs, batch, H]`.

    `dirs` is 2 for `bidirectional` and 1 otherwise; `H` is `hidden_size`.
    `activations` (default `Sigmoid`, `Tanh`, `Tanh` per direction) names
    three ONNX activation functions per direction; only those without
    parameters are accepted (`Sigmoid`, `Tanh`, `Relu`, `Softsign`,
    `Softplus`). `clip` bounds the cell input;
    `input_forget` couples the input and forget gates.

    Cost per time step, direction and batch row: `8H * (input + H)` for the
    two gate matrix products, `4H` to add them, `8H` more with `B`, `9H` for
    the cell (five activations, three for `c`, one for `h`), `6H` more with
    peepholes.

    Example:

    ```mlir
    %y, %yh, %yc = graph.lstm %x, %w, %r bias(%b) {hidden_size = 20 : i64}
        : (tensor<7x4x10xf32>, tensor<1x80x10xf32>, tensor<1x80x20xf32>, tensor<1x160xf32>)
        -> (tensor<7x1x4x20xf32>, tensor<1x4x20xf32>, tensor<1x4x20xf32>)
    ```
  }];
  let arguments = (ins Graph_FloatTensor:$X, Graph_FloatTensor:$W,
                       Graph_FloatTensor:$R, Optional<Graph_FloatTensor>:$B,
                       Optional<TensorOf<[I32]>>:$sequence_lens,
                       Optional<Graph_FloatTensor>:$initial_h,
                       Optional<Graph_FloatTensor>:$initial_c,
                       Optional<Graph_FloatTensor>:$P,
                       I64Attr:$hidden_size,
                       DefaultValuedAttr<Graph_RNNDirectionAttr,
                         "::graphc::graph::RNNDirection::forward">:$direction,
                       OptionalAttr<StrArrayAttr>:$activations,
                       OptionalAttr<F32Attr>:$clip,
                       UnitAttr:$input_forget);
  let results = (outs Graph_FloatTensor:$Y, Graph_FloatTensor:$Y_h,
                      Graph_FloatTensor:$Y_c);
  let assemblyFormat = [{
    $X `,` $W `,` $R (`bias` `(` $B^ `)`)?
    (`sequence_lens` `(` $sequence_lens^ `)`)?
    (`initial_h` `(` $initial_h^ `)`)? (`initial_c` `(` $initial_c^ `)`)?
    (`peepholes` `(` $P^ `)`)?
    attr-dict `:` functional-type(operands, results)
  }];
}

def Graph_GRUOp : Graph_Op<"gru", [Pure, AttrSizedOperandSegments,
    Graph_CostOverride]> {
  let summary = "Gated recurrent unit layer (ONNX GRU)";
  let description = [{
    Runs a GRU over a sequence with ONNX's semantics and operand order
    (layout 0, time-major):

    * `X` `[seq, batch, input]`, `W` `[dirs, 3H, input]`, `R` `[dirs, 3H, H]`
      with gates in the order z, r, h;
    * optional `B` `[dirs, 6H]`, `sequence_lens` `[batch]` (i32) and
      `initial_h` `[dirs, batch, H]`;
    * results `Y` `[seq, dirs, batch, H]` and `Y_h` `[dirs, batch, H]`.

    `activations` names two ONNX activation functions per direction (default
    `Sigmoid`, `Tanh`; parameterless ones only, as for `graph.lstm`).
    `linear_before_reset` applies the reset gate after the
    recurrent matrix product, as cuDNN and PyTorch do.

    Cost per time step, direction and batch row: `6H * (input + H)` for the
    gate matrix products, `3H` to add them, `6H` more with `B`, and `8H` for
    the gates and the new state.

    Example:

    ```mlir
    %y, %yh = graph.gru %x, %w, %r {hidden_size = 16 : i64, direction = #graph<rnn_direction bidirectional>}
        : (tensor<5x2x8xf32>, tensor<2x48x8xf32>, tensor<2x48x16xf32>)
        -> (tensor<5x2x2x16xf32>, tensor<2x2x16xf32>)
    ```
  }];
  let arguments = (ins Graph_FloatTensor:$X, Graph_FloatTensor:$W,
                       Graph_FloatTensor:$R, Optional<Graph_FloatTensor>:$B,
                       Optional<TensorOf<[I32]>>:$sequence_lens,
                       Optional<Graph_FloatTensor>:$initial_h,
                       I64Attr:$hidden_size,
                       DefaultValuedAttr<Graph_RNNDirectionAttr,
                         "::graphc::graph::RNNDirection::forward">:$direction,
                       OptionalAttr<StrArrayAttr>:$activations,
                       OptionalAttr<F32Attr>:$clip,
                       UnitAttr:$linear_before_reset);
  let results = (outs Graph_FloatTensor:$Y, Graph_FloatTensor:$Y_h);
  let assemblyFormat = [{
    $X `,` $W `,` $R (`bias` `(` $B^ `)`)?
    (`sequence_lens` `(` $sequence_lens^ `)`)?
    (`initial_h` `(` $initial_h^ `)`)?
    attr-dict `:` functional-type(operands, results)
  }];
}

#endif // GRAPHC_DIALECTS_GRAPH_GRAPHNNOPS_TD
