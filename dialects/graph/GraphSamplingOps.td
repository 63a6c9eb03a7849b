//===- GraphSamplingOps.td - grid sampling, col2im, bit ops -*- tablegen -*-===//
//
// Ops added for ONNX operator coverage whose reads depend on computed
// coordinates (grid_sample, col2im) and the bit-level ops no arithmetic
// composition expresses (shifts, bit casts). The sampling ops lower to one
// generic each that computes coordinates and reads with tensor.extract.
//
//===----------------------------------------------------------------------===//

#ifndef GRAPHC_DIALECTS_GRAPH_GRAPHSAMPLINGOPS_TD
#define GRAPHC_DIALECTS_GRAPH_GRAPHSAMPLINGOPS_TD

include "graph/GraphBase.td"
include "graph/GraphElementwiseOps.td"
include "graph/GraphExtraOps.td"
include "graph/GraphShapeOps.td"

//===----------------------------------------------------------------------===//
// GridSampleOp
//===----------------------------------------------------------------------===//

def Graph_SampleMode : I32EnumAttr<"SampleMode",
    "how graph.grid_sample interpolates between input elements", [
      I32EnumAttrCase<"linear", 0>, I32EnumAttrCase<"nearest", 1>,
      I32EnumAttrCase<"cubic", 2>]> {
  let genSpecializedAttr = 0;
  let cppNamespace = "::graphc::graph";
}
def Graph_SampleModeAttr
    : EnumAttr<Graph_Dialect, Graph_SampleMode, "sample_mode">;

def Graph_SamplePadding : I32EnumAttr<"SamplePadding",
    "what graph.grid_sample reads outside the input", [
      I32EnumAttrCase<"zeros", 0>, I32EnumAttrCase<"border", 1>,
      I32EnumAttrCase<"reflection", 2>]> {
  let genSpecializedAttr = 0;
  let cppNamespace = "::graphc::graph";
}
def Graph_SamplePaddingAttr
    : EnumAttr<Graph_Dialect, Graph_SamplePadding, "sample_padding">;

def Graph_GridSampleOp : Graph_Op<"grid_sample", [Pure, Graph_CostOverride]> {
  let summary = "Samples an input at the normalised coordinates of a grid";
  let description = [{
    ONNX `GridSample` (PyTorch `grid_sample`). `input` is `N x C x D1 .. Dk`
    (k >= 1 spatial dimensions), `grid` is `N x O1 .. Ok x k`, and the
    result is `N x C x O1 .. Ok`: the element at `(n, c, o)` interpolates
    `input[n, c]` at the point `grid[n, o]`. The point's components are in
    reverse order of the spatial dimensions (component 0 is along `Dk`, the
    width) and normalised to [-1, 1]: with `align_corners` -1 and 1 are the
    centres of the first and last elements, otherwise their outer edges.

    `mode` is `linear` (the default: k-linear, from the 2^k neighbours),
    `nearest` (round half to even) or `cubic` (k-cubic over 4^k neighbours,
    coefficient -0.75). `padding` says what is read outside the input:
    `zeros`, the `border` element, or the input's `reflection` at its
    borders; a point outside is first clamped or reflected to the borders
    and then each neighbour read is, as the ONNX reference does. Input,
    grid and result share one float element type.

    Example:

    ```mlir
    %y = graph.grid_sample %x, %grid {mode = #graph<sample_mode nearest>,
                                      padding = #graph<sample_padding border>,
                                      align_corners}
        : (tensor<1x3x8x8xf32>, tensor<1x4x5x2xf32>) -> tensor<1x3x4x5xf32>
    ```
  }];
  let arguments = (ins
      Graph_FloatTensor:$input, Graph_FloatTensor:$grid,
      DefaultValuedAttr<Graph_SampleModeAttr, "SampleMode::linear">:$mode,
      DefaultValuedAttr<Graph_SamplePaddingAttr,
                        "SamplePadding::zeros">:$padding,
      UnitAttr:$align_corners);
  let results = (outs Graph_FloatTensor:$result);
  let assemblyFormat =
      "$input `,` $grid attr-dict `:` functional-type(operands, results)";
}

//===----------------------------------------------------------------------===//
// Col2ImOp
//===----------------------------------------------------------------------===//

def Graph_Col2ImOp : Graph_Op<"col2im", [Pure, Graph_CostOverride]> {
  let summary = "Sums sliding blocks back into an image (inverse of im2col)";
  let description = [{
    ONNX `Col2Im` (PyTorch `fold`). `input` is `N x (C * B) x L` where `B`
    is the product of `block_shape` (k entries) and `L` the number of block
    positions; the result is `N x C x image_shape`. Block position `l`
    (row-major over the grid of positions) and block element `b` (row-major
    over `block_shape`) of channel `c` are added to the result at
    `y[d] = p[d] * strides[d] + b[d] * dilations[d] - pads[d]` along each
    spatial dimension `d`, where dropped outside the image. `pads` holds the
    k leading then the k trailing pads; the number of positions along `d` is
    `(image[d] + pads[d] + pads[k + d] - dilations[d] * (block[d] - 1) - 1)
    / strides[d] + 1`, and `L` must be their product. `dilations` and
    `strides` default to ones, `pads` to zeros.

    Example:

    ```mlir
    %y = graph.col2im %x {image_shape = array<i64: 5, 5>,
                          block_shape = array<i64: 1, 5>}
        : (tensor<1x5x5xf32>) -> tensor<1x1x5x5xf32>
    ```
  }];
  let arguments = (ins Graph_ArithmeticTensor:$input,
                       DenseI64ArrayAttr:$image_shape,
                       DenseI64ArrayAttr:$block_shape,
                       OptionalAttr<DenseI64ArrayAttr>:$dilations,
                       OptionalAttr<DenseI64ArrayAttr>:$pads,
                       OptionalAttr<DenseI64ArrayAttr>:$strides);
  let results = (outs Graph_ArithmeticTensor:$result);
  let assemblyFormat = "$input attr-dict `:` functional-type(operands, results)";
}

//===----------------------------------------------------------------------===//
// Bit shifts
//===----------------------------------------------------------------------===//

class Graph_ShiftOp<string mnemonic, string symbol, string fills>
    : Graph_BroadcastBinaryOp<mnemonic, Graph_BitsTensor> {
  let summary = "Elementwise logical shift " # symbol # " (broadcasting)";
  let description = "`result[i] = lhs[i] " # symbol # [{ rhs[i]` on the
    bits, with NumPy broadcasting (ONNX `BitShift`): }] # fills # [{.
    The shift amount `rhs[i]` is read as unsigned; an amount of at least
    the bit width gives 0.

    Example:

    ```mlir
    %z = graph.}] # mnemonic # [{ %x, %n : (tensor<4xui8>, tensor<4xui8>) -> tensor<4xui8>
    ```
  }];
}

def Graph_ShiftLeftOp : Graph_ShiftOp<"shift_left", "<<",
    "zeros come in at the low end">;
def Graph_ShiftRightOp : Graph_ShiftOp<"shift_right", ">>",
    "zeros come in at the high end, whatever the sign bit">;

//===----------------------------------------------------------------------===//
// BitcastOp
//===----------------------------------------------------------------------===//

def Graph_BitcastOp : Graph_Op<"bitcast", [Pure, Graph_CostOverride]> {
  let summary = "Reinterprets the bits of each element as another type";
  let description = [{
    ONNX `BitCast` between element types of one storage width: every
    element keeps its bits and is read as the element type `to`; the shape
    is unchanged. A boolean (`i1`) is stored in 8 bits and so casts to and
    from 8-bit types: true is 1, and a byte is true when non-zero.

    Example:

    ```mlir
    %y = graph.bitcast %x {to = i32} : (tensor<4xf32>) -> tensor<4xi32>
    ```
  }];
  let arguments = (ins Graph_IntOrFloatTensor:$input, TypeAttr:$to);
  let results = (outs Graph_IntOrFloatTensor:$result);
  let assemblyFormat = "$input attr-dict `:` functional-type(operands, results)";
}

#endif // GRAPHC_DIALECTS_GRAPH_GRAPHSAMPLINGOPS_TD
