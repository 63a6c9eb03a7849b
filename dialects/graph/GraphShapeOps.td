//===- GraphShapeOps.td - data-movement (shape) ops --------*- tablegen -*-===//
//
// Ops that move or rearrange elements without arithmetic: reshape, transpose,
// concat/split, slicing, gathers and scatters, padding, broadcasting, tiling,
// one-hot encoding and reading a tensor's shape. Their flop count is zero.
//
//===----------------------------------------------------------------------===//

#ifndef GRAPHC_DIALECTS_GRAPH_GRAPHSHAPEOPS_TD
#define GRAPHC_DIALECTS_GRAPH_GRAPHSHAPEOPS_TD

include "graph/GraphBase.td"

//===----------------------------------------------------------------------===//
// Enums
//===----------------------------------------------------------------------===//

def Graph_PadMode : I32EnumAttr<"PadMode", "how graph.pad fills the border", [
      I32EnumAttrCase<"constant", 0>, I32EnumAttrCase<"reflect", 1>,
      I32EnumAttrCase<"edge", 2>]> {
  let genSpecializedAttr = 0;
  let cppNamespace = "::graphc::graph";
}
def Graph_PadModeAttr : EnumAttr<Graph_Dialect, Graph_PadMode, "pad_mode">;

def Graph_ScatterReduction : I32EnumAttr<"ScatterReduction",
    "how a scatter combines an update with the element it lands on", [
      I32EnumAttrCase<"none", 0>, I32EnumAttrCase<"add", 1>,
      I32EnumAttrCase<"mul", 2>, I32EnumAttrCase<"max", 3>,
      I32EnumAttrCase<"min", 4>]> {
  let genSpecializedAttr = 0;
  let cppNamespace = "::graphc::graph";
}
def Graph_ScatterReductionAttr
    : EnumAttr<Graph_Dialect, Graph_ScatterReduction, "scatter_reduction">;

/// A 0-d tensor (a scalar operand such as a padding or on/off value).
def Graph_ScalarTensor : 0DTensorOf<[AnyType]>;
/// A 1-D i64 tensor holding a shape.
def Graph_ShapeTensor : 1DTensorOf<[I64]>;

/// Data movement does no arithmetic: every op here overrides `getFlops` to 0
/// (`cost` is `Graph_CostOverrideAll` where the bytes differ from the
/// default too).
class Graph_DataMovementOp<string mnemonic, Trait cost = Graph_CostOverride>
    : Graph_Op<mnemonic, [Pure, cost]> {
  let assemblyFormat =
      "operands attr-dict `:` functional-type(operands, results)";
}

//===----------------------------------------------------------------------===//
// ReshapeOp
//===----------------------------------------------------------------------===//

def Graph_ReshapeOp : Graph_DataMovementOp<"reshape"> {
  let summary = "Gives a tensor a new shape with the same elements";
  let description = [{
    Returns the elements of `input`, in row-major order, as a tensor of shape
    `shape`. One entry of `shape` may be `-1`: it takes the size that keeps
    the element count (dynamic when the input's count is not static). `0`
    is a real zero, not ONNX's "copy this dimension"; importers resolve that
    before they build the op. An unranked input gives a ranked result.

    Example:

    ```mlir
    %y = graph.reshape %x {shape = array<i64: 2, -1>}
        : (tensor<2x3x4xf32>) -> tensor<2x12xf32>
    ```
  }];
  let arguments = (ins Graph_Tensor:$input, DenseI64ArrayAttr:$shape);
  let results = (outs AnyRankedTensor:$result);
  let hasFolder = 1;
}

//===----------------------------------------------------------------------===//
// DynamicReshapeOp
//===----------------------------------------------------------------------===//

def Graph_DynamicReshapeOp : Graph_DataMovementOp<"dynamic_reshape"> {
  let summary = "Reshape to a shape computed at run time";
  let description = [{
    As `graph.reshape`, but the new shape is the 1-D `i64` tensor `shape`
    (with the same `-1` rule). The result's rank is the static length of
    `shape` (unranked when that length is dynamic) and all its dimensions
    are dynamic unless the declared type says more. A constant `shape`
    canonicalizes to `graph.reshape`.

    Example:

    ```mlir
    %s = graph.shape %a : (tensor<?x16xf32>) -> tensor<2xi64>
    %y = graph.dynamic_reshape %x, %s
        : (tensor<?xf32>, tensor<2xi64>) -> tensor<?x16xf32>
    ```
  }];
  let arguments = (ins Graph_Tensor:$input, Graph_ShapeTensor:$shape);
  let results = (outs Graph_Tensor:$result);
  let hasCanonicalizer = 1;
}

//===----------------------------------------------------------------------===//
// TransposeOp
//===----------------------------------------------------------------------===//

def Graph_TransposeOp : Graph_DataMovementOp<"transpose"> {
  let summary = "Permutes the dimensions of a tensor";
  let description = [{
    Result dimension `i` is input dimension `perm[i]`; `perm` is a
    permutation of `0 .. rank-1`. An unranked input gives an unranked
    result. Two transposes in a row compose; the identity permutation folds
    away (the TensorFlow importer relies on this to cancel NHWC/NCHW pairs).

    Example:

    ```mlir
    %y = graph.transpose %x {perm = array<i64: 0, 2, 3, 1>}
        : (tensor<8x3x32x32xf32>) -> tensor<8x32x32x3xf32>
    ```
  }];
  let arguments = (ins Graph_Tensor:$input, DenseI64ArrayAttr:$perm);
  let results = (outs Graph_Tensor:$result);
  let hasFolder = 1;
}

//===----------------------------------------------------------------------===//
// ConcatOp
//===----------------------------------------------------------------------===//

def Graph_ConcatOp : Graph_DataMovementOp<"concat"> {
  let summary = "Joins tensors along an axis";
  let description = [{
    Concatenates `inputs` along `axis` (negative counts from the end). All
    inputs have the same element type and rank and agree on every other
    dimension; the result's `axis` dimension is the sum of theirs (dynamic
    when any is). Unranked inputs are allowed; the result is unranked only
    when all inputs are.

    Example:

    ```mlir
    %y = graph.concat %a, %b {axis = 1 : i64}
        : (tensor<2x3xf32>, tensor<2x5xf32>) -> tensor<2x8xf32>
    ```
  }];
  let arguments = (ins Variadic<Graph_Tensor>:$inputs, I64Attr:$axis);
  let results = (outs Graph_Tensor:$result);
  let hasFolder = 1;
}

//===----------------------------------------------------------------------===//
// SplitOp
//===----------------------------------------------------------------------===//

def Graph_SplitOp : Graph_DataMovementOp<"split"> {
  let summary = "Cuts a tensor into pieces along an axis";
  let description = [{
    Returns one tensor per entry of `sizes`: consecutive pieces of `input`
    along `axis`. The sizes are non-negative and sum to the axis dimension;
    one of them may be `-1` and then takes the rest. An unranked input gives
    unranked results.

    Example:

    ```mlir
    %a, %b = graph.split %x {axis = 1 : i64, sizes = array<i64: 3, -1>}
        : (tensor<2x8xf32>) -> (tensor<2x3xf32>, tensor<2x5xf32>)
    ```
  }];
  let arguments = (ins Graph_Tensor:$input, I64Attr:$axis,
                       DenseI64ArrayAttr:$sizes);
  let results = (outs Variadic<Graph_Tensor>:$results);
  let hasFolder = 1;
}

//===----------------------------------------------------------------------===//
// SliceOp
//===----------------------------------------------------------------------===//

def Graph_SliceOp : Graph_DataMovementOp<"slice", Graph_CostOverrideAll> {
  let summary = "Takes a strided window of a tensor";
  let description = [{
    Along every dimension `d`, takes the elements `starts[d]`,
    `starts[d] + strides[d]`, ... that lie before `limits[d]` (after it, for a
    negative stride), as Python's `x[start:limit:stride]` does but with
    normalised bounds: no negative indices and no clamping. For a positive
    stride `0 <= start, limit <= dim`; for a negative stride
    `-1 <= start, limit <= dim - 1`, where a `limit` of `-1` means "through
    index 0". A `limit` on the wrong side of `start` gives an empty
    dimension. `strides[d]` is never 0. The result shape depends only on
    the attributes, so it is static even for a dynamic or unranked input.
    Its cost counts only the elements it reads, not the whole input.

    Example:

    ```mlir
    // x[1:4:2, ::-1] of a 5x3 tensor
    %y = graph.slice %x {starts = array<i64: 1, 2>, limits = array<i64: 4, -1>,
                         strides = array<i64: 2, -1>}
        : (tensor<5x3xf32>) -> tensor<2x3xf32>
    ```
  }];
  let arguments = (ins Graph_Tensor:$input, DenseI64ArrayAttr:$starts,
                       DenseI64ArrayAttr:$limits, DenseI64ArrayAttr:$strides);
  let results = (outs AnyRankedTensor:$result);
  let hasFolder = 1;
}

//===----------------------------------------------------------------------===//
// GatherOp
//===----------------------------------------------------------------------===//

def Graph_GatherOp : Graph_DataMovementOp<"gather", Graph_CostOverrideAll> {
  let summary = "Picks slices of a tensor along an axis by index";
  let description = [{
    TensorFlow's `GatherV2` (ONNX `Gather` when `batch_dims` is 0): with
    `b = batch_dims` and `a = axis`,
    `result[i0..i(b-1), j.., k..] =
     input[i0..i(b-1), .., indices[i0..i(b-1), j..], k..]`,
    so the result shape is `input.shape[:a] + indices.shape[b:] +
    input.shape[a+1:]`. `0 <= batch_dims <= axis` (after normalising
    `axis`), `batch_dims <= rank(indices)`, and the leading `batch_dims`
    dimensions of `input` and `indices` agree. Indices are `i32` or `i64`;
    a negative index counts from the end. An unranked operand gives an
    unranked result. Its cost counts the gathered elements and the indices,
    not the whole input.

    Example:

    ```mlir
    %e = graph.gather %table, %ids {axis = 0 : i64}
        : (tensor<1000x64xf32>, tensor<8x16xi64>) -> tensor<8x16x64xf32>
    ```
  }];
  let arguments = (ins Graph_Tensor:$input, Graph_IndexTensor:$indices,
                       DefaultValuedAttr<I64Attr, "0">:$axis,
                       DefaultValuedAttr<I64Attr, "0">:$batch_dims);
  let results = (outs Graph_Tensor:$result);
  let hasFolder = 1;
}

//===----------------------------------------------------------------------===//
// GatherNdOp
//===----------------------------------------------------------------------===//

def Graph_GatherNdOp : Graph_DataMovementOp<"gather_nd", Graph_CostOverrideAll> {
  let summary = "Picks slices of a tensor by multi-dimensional index";
  let description = [{
    ONNX `GatherND`: the last dimension of `indices` (size `k`, static,
    `1 <= k <= rank(input) - batch_dims`) holds an index into the `k`
    dimensions of `input` that follow its `batch_dims` leading (batch)
    dimensions, which match those of `indices`. The result shape is
    `indices.shape[:-1] + input.shape[batch_dims + k:]`. `batch_dims` is
    smaller than the rank of both operands. An unranked operand gives an
    unranked result. Its cost counts the gathered elements and the indices,
    not the whole input.

    Example:

    ```mlir
    %y = graph.gather_nd %x, %idx
        : (tensor<4x5x6xf32>, tensor<3x2xi64>) -> tensor<3x6xf32>
    ```
  }];
  let arguments = (ins Graph_Tensor:$input, Graph_IndexTensor:$indices,
                       DefaultValuedAttr<I64Attr, "0">:$batch_dims);
  let results = (outs Graph_Tensor:$result);
}

//===----------------------------------------------------------------------===//
// ScatterElementsOp
//===----------------------------------------------------------------------===//

def Graph_ScatterElementsOp : Graph_DataMovementOp<"scatter_elements"> {
  let summary = "Writes elements into a copy of a tensor by index along an axis";
  let description = [{
    ONNX `ScatterElements` (PyTorch `scatter`/`scatter_reduce`): the result
    is `input` with, for every position `p` of `updates`,
    `result[p with p[axis] replaced by indices[p]] = updates[p]`, combined
    with the old element by `reduction` (`none` overwrites). `indices` and
    `updates` have the same shape and the rank of `input`; off the `axis`
    their dimensions are at most `input`'s. The result type is `input`'s.

    Example:

    ```mlir
    %y = graph.scatter_elements %x, %idx, %upd
        {axis = 1 : i64, reduction = #graph<scatter_reduction add>}
        : (tensor<3x5xf32>, tensor<3x2xi64>, tensor<3x2xf32>) -> tensor<3x5xf32>
    ```
  }];
  let arguments = (ins Graph_Tensor:$input, Graph_IndexTensor:$indices,
      Graph_Tensor:$updates, DefaultValuedAttr<I64Attr, "0">:$axis,
      DefaultValuedAttr<Graph_ScatterReductionAttr,
                        "::graphc::graph::ScatterReduction::none">:$reduction);
  let results = (outs Graph_Tensor:$result);
}

//===----------------------------------------------------------------------===//
// ScatterNdOp
//===----------------------------------------------------------------------===//

def Graph_ScatterNdOp : Graph_DataMovementOp<"scatter_nd"> {
  let summary = "Writes slices into a copy of a tensor by multi-dimensional index";
  let description = [{
    ONNX `ScatterND`: the last dimension of `indices` (size `k`, static,
    `1 <= k <= rank(input)`) indexes the leading `k` dimensions of `input`;
    `updates` has shape `indices.shape[:-1] + input.shape[k:]`. Each update
    slice replaces (or, by `reduction`, combines with) the slice it indexes.
    The result type is `input`'s.

    Example:

    ```mlir
    %y = graph.scatter_nd %x, %idx, %upd
        : (tensor<4x5xf32>, tensor<2x1xi64>, tensor<2x5xf32>) -> tensor<4x5xf32>
    ```
  }];
  let arguments = (ins Graph_Tensor:$input, Graph_IndexTensor:$indices,
      Graph_Tensor:$updates,
      DefaultValuedAttr<Graph_ScatterReductionAttr,
                        "::graphc::graph::ScatterReduction::none">:$reduction);
  let results = (outs Graph_Tensor:$result);
}

//===----------------------------------------------------------------------===//
// PadOp
//===----------------------------------------------------------------------===//

def Graph_PadOp : Graph_DataMovementOp<"pad"> {
  let summary = "Adds a border around a tensor";
  let description = [{
    Adds `low[d]` elements before and `high[d]` after dimension `d` (both
    non-negative, one entry per dimension; importers turn ONNX's negative
    pads into a `graph.slice`). `mode` says what the border holds:
    `constant` (the default) the 0-d `padding_value`, which has the input's
    element type; `reflect` the mirror image without repeating the edge
    (NumPy `reflect`, so each pad is smaller than its dimension); `edge` the
    edge element repeated (the dimension must not be empty).
    `padding_value` is ignored by the other modes. An unranked input gives
    an unranked result.

    Example:

    ```mlir
    %y = graph.pad %x, %zero {low = array<i64: 0, 1>, high = array<i64: 0, 2>}
        : (tensor<2x3xf32>, tensor<f32>) -> tensor<2x6xf32>
    ```
  }];
  let arguments = (ins Graph_Tensor:$input, Graph_ScalarTensor:$padding_value,
      DenseI64ArrayAttr:$low, DenseI64ArrayAttr:$high,
      DefaultValuedAttr<Graph_PadModeAttr,
                        "::graphc::graph::PadMode::constant">:$mode);
  let results = (outs Graph_Tensor:$result);
  let hasFolder = 1;
}

//===----------------------------------------------------------------------===//
// BroadcastToOp
//===----------------------------------------------------------------------===//

def Graph_BroadcastToOp : Graph_DataMovementOp<"broadcast_to"> {
  let summary = "Broadcasts a tensor to a static shape";
  let description = [{
    NumPy's `broadcast_to`: aligns the input's dimensions with the trailing
    ones of `shape`; each is equal to its target or 1. `shape` is static
    (no negative sizes) and at least as long as the input's rank. A dynamic
    input dimension is accepted and must be 1 or its target at run time.

    Example:

    ```mlir
    %y = graph.broadcast_to %b {shape = array<i64: 8, 10>}
        : (tensor<10xf32>) -> tensor<8x10xf32>
    ```
  }];
  let arguments = (ins Graph_Tensor:$input, DenseI64ArrayAttr:$shape);
  let results = (outs AnyRankedTensor:$result);
  let hasFolder = 1;
}

//===----------------------------------------------------------------------===//
// SqueezeOp / UnsqueezeOp
//===----------------------------------------------------------------------===//

def Graph_SqueezeOp : Graph_DataMovementOp<"squeeze"> {
  let summary = "Removes size-1 dimensions";
  let description = [{
    Removes the dimensions listed in `axes` (negative counts from the end of
    the input's shape, no duplicates), each of which has size 1 (a dynamic
    one must be 1 at run time). Empty `axes` removes nothing: importers
    spell "all size-1 dimensions" explicitly. An unranked input gives an
    unranked result. With a static input it canonicalizes to
    `graph.reshape`.

    Example:

    ```mlir
    %y = graph.squeeze %x {axes = array<i64: 0, -1>}
        : (tensor<1x3x1xf32>) -> tensor<3xf32>
    ```
  }];
  let arguments = (ins Graph_Tensor:$input, DenseI64ArrayAttr:$axes);
  let results = (outs Graph_Tensor:$result);
  let hasFolder = 1;
  let hasCanonicalizer = 1;
}

def Graph_UnsqueezeOp : Graph_DataMovementOp<"unsqueeze"> {
  let summary = "Inserts size-1 dimensions";
  let description = [{
    Inserts a dimension of size 1 at each position in `axes`, which index
    the *result* (rank = input rank + number of axes; negative counts from
    its end; no duplicates), as ONNX `Unsqueeze` does. An unranked input
    gives an unranked result. With a static input it canonicalizes to
    `graph.reshape`.

    Example:

    ```mlir
    %y = graph.unsqueeze %x {axes = array<i64: 0, -1>}
        : (tensor<3xf32>) -> tensor<1x3x1xf32>
    ```
  }];
  let arguments = (ins Graph_Tensor:$input, DenseI64ArrayAttr:$axes);
  let results = (outs Graph_Tensor:$result);
  let hasFolder = 1;
  let hasCanonicalizer = 1;
}

//===----------------------------------------------------------------------===//
// TileOp
//===----------------------------------------------------------------------===//

def Graph_TileOp : Graph_DataMovementOp<"tile"> {
  let summary = "Repeats a tensor along each dimension";
  let description = [{
    Result dimension `d` is input dimension `d` repeated `multiples[d]`
    times (one non-negative entry per dimension; 0 gives an empty
    dimension). An unranked input gives an unranked result.

    Example:

    ```mlir
    %y = graph.tile %x {multiples = array<i64: 2, 1>}
        : (tensor<3x4xf32>) -> tensor<6x4xf32>
    ```
  }];
  let arguments = (ins Graph_Tensor:$input, DenseI64ArrayAttr:$multiples);
  let results = (outs Graph_Tensor:$result);
  let hasFolder = 1;
}

//===----------------------------------------------------------------------===//
// OneHotOp
//===----------------------------------------------------------------------===//

def Graph_OneHotOp : Graph_DataMovementOp<"one_hot"> {
  let summary = "Expands indices into one-hot vectors";
  let description = [{
    Inserts a new dimension of size `depth` (positive) at `axis` (in
    `[-(r+1), r]` for indices of rank `r`; `-1`, the default, appends it):
    the element is `on_value` where its position along that dimension equals
    the index and `off_value` elsewhere. `on_value` and `off_value` are 0-d
    tensors of the result's element type. An unranked `indices` gives an
    unranked result.

    Example:

    ```mlir
    %y = graph.one_hot %labels, %one, %zero {depth = 10 : i64}
        : (tensor<8xi64>, tensor<f32>, tensor<f32>) -> tensor<8x10xf32>
    ```
  }];
  let arguments = (ins Graph_IndexTensor:$indices,
                       Graph_ScalarTensor:$on_value,
                       Graph_ScalarTensor:$off_value, I64Attr:$depth,
                       DefaultValuedAttr<I64Attr, "-1">:$axis);
  let results = (outs Graph_Tensor:$result);
}

//===----------------------------------------------------------------------===//
// ShapeOp
//===----------------------------------------------------------------------===//

def Graph_ShapeOfOp : Graph_DataMovementOp<"shape", Graph_CostOverrideAll> {
  let summary = "The dimensions of a tensor as a 1-D i64 tensor";
  let description = [{
    Returns the input's dimensions as `tensor<rank x i64>`; the input must be
    ranked. Only the type is read, so it moves no input bytes. A statically
    shaped input folds to a constant.

    Example:

    ```mlir
    %s = graph.shape %x : (tensor<?x16xf32>) -> tensor<2xi64>
    ```
  }];
  let arguments = (ins Graph_Tensor:$input);
  let results = (outs Graph_ShapeTensor:$result);
  let hasFolder = 1;
}

#endif // GRAPHC_DIALECTS_GRAPH_GRAPHSHAPEOPS_TD
