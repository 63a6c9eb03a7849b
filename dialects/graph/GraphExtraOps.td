//===- GraphExtraOps.td - math, bitwise and scan ops -------*- tablegen -*-===//
//
// Ops added for ONNX operator coverage that no composition of the core set
// expresses efficiently: the remaining trigonometric and hyperbolic
// functions, bitwise integer logic, per-element gathers and cumulative
// scans. Each section follows the conventions of the file it would
// otherwise sit in (GraphElementwiseOps.td, GraphShapeOps.td,
// GraphReductionOps.td).
//
//===----------------------------------------------------------------------===//

#ifndef GRAPHC_DIALECTS_GRAPH_GRAPHEXTRAOPS_TD
#define GRAPHC_DIALECTS_GRAPH_GRAPHEXTRAOPS_TD

include "graph/GraphBase.td"
include "graph/GraphElementwiseOps.td"
include "graph/GraphReductionOps.td"
include "graph/GraphShapeOps.td"

//===----------------------------------------------------------------------===//
// Trigonometric and hyperbolic functions
//===----------------------------------------------------------------------===//

/// A unary float function `fn`, documented by its formula.
class Graph_MathUnaryOp<string mnemonic, string fn, string domain>
    : Graph_UnaryOp<mnemonic, Graph_FloatTensor> {
  let summary = "Elementwise " # fn;
  let description = "`result[i] = " # fn # "(input[i])`" # domain # [{.

    Example:

    ```mlir
    %y = graph.}] # mnemonic # [{ %x : (tensor<4xf32>) -> tensor<4xf32>
    ```
  }];
}

def Graph_TanOp : Graph_MathUnaryOp<"tan", "tan", ", in radians">;
def Graph_AsinOp : Graph_MathUnaryOp<"asin", "asin",
    ", in radians; NaN outside [-1, 1]">;
def Graph_AcosOp : Graph_MathUnaryOp<"acos", "acos",
    ", in radians; NaN outside [-1, 1]">;
def Graph_AtanOp : Graph_MathUnaryOp<"atan", "atan", ", in radians">;
def Graph_SinhOp : Graph_MathUnaryOp<"sinh", "sinh", "">;
def Graph_CoshOp : Graph_MathUnaryOp<"cosh", "cosh", "">;
def Graph_AsinhOp : Graph_MathUnaryOp<"asinh", "asinh", "">;
def Graph_AcoshOp : Graph_MathUnaryOp<"acosh", "acosh",
    "; NaN below 1">;
def Graph_AtanhOp : Graph_MathUnaryOp<"atanh", "atanh",
    "; NaN outside [-1, 1], infinite at -1 and 1">;

//===----------------------------------------------------------------------===//
// Bitwise integer logic
//===----------------------------------------------------------------------===//

/// Integers wider than the boolean `i1` (which has `and`, `or`, `xor`,
/// `not`).
def Graph_BitsTensor : TensorOf<[
    Type<Or<[And<[AnySignlessInteger.predicate,
                  CPred<"!$_self.isInteger(1)">]>,
             AnyUnsignedInteger.predicate]>,
         "signless/unsigned integer wider than 1 bit">]>;

class Graph_BitwiseBinaryOp<string mnemonic, string symbol>
    : Graph_BroadcastBinaryOp<mnemonic, Graph_BitsTensor, [Commutative]> {
  let summary = "Elementwise bitwise " # symbol # " of integers (broadcasting)";
  let description = "`result[i] = lhs[i] " # symbol # [{ rhs[i]` on the
    two's complement bits, with NumPy broadcasting (ONNX `Bitwise*`).

    Example:

    ```mlir
    %z = graph.}] # mnemonic # [{ %x, %y : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32>
    ```
  }];
}

def Graph_BitwiseAndOp : Graph_BitwiseBinaryOp<"bitwise_and", "&">;
def Graph_BitwiseOrOp : Graph_BitwiseBinaryOp<"bitwise_or", "|">;
def Graph_BitwiseXorOp : Graph_BitwiseBinaryOp<"bitwise_xor", "^">;

def Graph_BitwiseNotOp : Graph_UnaryOp<"bitwise_not", Graph_BitsTensor> {
  let summary = "Elementwise bitwise complement of integers";
  let description = [{
    `result[i] = ~input[i]`: every bit flipped (ONNX `BitwiseNot`).

    Example:

    ```mlir
    %y = graph.bitwise_not %x : (tensor<4xi32>) -> tensor<4xi32>
    ```
  }];
}

//===----------------------------------------------------------------------===//
// GatherElementsOp
//===----------------------------------------------------------------------===//

def Graph_GatherElementsOp
    : Graph_DataMovementOp<"gather_elements", Graph_CostOverrideAll> {
  let summary = "Picks one element per index along an axis";
  let description = [{
    ONNX `GatherElements` (PyTorch `gather`): `input` and `indices` have the
    same rank, the result has the shape of `indices`, and with `a = axis`
    `result[i0.., ia, ..in] = input[i0.., indices[i0.., ia, ..in], ..in]`.
    Outside `axis` the indices' dimensions must not exceed the input's.
    Indices are `i32` or `i64`; a negative index counts from the end of
    the axis. An index still out of range after that is clamped to the
    axis, so the op never reads outside `input`. Its cost counts the
    gathered elements and the indices.

    Example:

    ```mlir
    %r = graph.gather_elements %x, %idx {axis = 1 : i64}
        : (tensor<3x5xf32>, tensor<3x1xi64>) -> tensor<3x1xf32>
    ```
  }];
  let arguments = (ins AnyRankedTensor:$input, Graph_IndexTensor:$indices,
                       DefaultValuedAttr<I64Attr, "0">:$axis);
  let results = (outs AnyRankedTensor:$result);
}

//===----------------------------------------------------------------------===//
// CumulativeOp
//===----------------------------------------------------------------------===//

def Graph_CumulativeOp
    : Graph_Op<"cumulative", [Pure, Graph_CostOverride]> {
  let summary = "Running sum, product, maximum or minimum along an axis";
  let description = [{
    Scans `input` along `axis` with `kind` (`sum`, `prod`, `max` or `min`;
    `mean` is rejected): `result[.., i, ..]` combines `input[.., j, ..]`
    for `j <= i`. With `exclusive` the element itself is left out (`j < i`,
    the first result is the kind's identity: 0, 1, the lowest or the
    highest value); with `reverse` the scan runs from the end (`j >= i`,
    or `j > i` when exclusive). ONNX `CumSum` and `CumProd`, TensorFlow
    `Cumsum`/`Cumprod`. The result has the input's type.

    Example:

    ```mlir
    %c = graph.cumulative %x {axis = 1 : i64, kind = #graph<reduce_kind sum>, exclusive}
        : (tensor<2x5xf32>) -> tensor<2x5xf32>
    ```
  }];
  let arguments = (ins Graph_ArithmeticTensor:$input,
                       Graph_ReduceKindAttr:$kind, I64Attr:$axis,
                       UnitAttr:$exclusive, UnitAttr:$reverse);
  let results = (outs Graph_ArithmeticTensor:$result);
  let assemblyFormat = "$input attr-dict `:` functional-type(operands, results)";
}

//===----------------------------------------------------------------------===//
// TopKOp
//===----------------------------------------------------------------------===//

def Graph_TopKOp : Graph_Op<"top_k", [Pure, Graph_CostOverride]> {
  let summary = "The k largest or smallest elements along an axis";
  let description = [{
    ONNX `TopK` with a constant `k`: along `axis`, `values` holds the `k`
    largest elements of `input` (the smallest with `smallest`) in order,
    largest (smallest) first, and `indices` (`i64`) their positions. Equal
    elements keep their order: the lower index comes first. Both results
    have the input's shape with `axis` of size `k`, and `0 <= k <= size of
    axis` where that size is static.

    Example:

    ```mlir
    %v, %i = graph.top_k %x {axis = 1 : i64, k = 3 : i64}
        : (tensor<3x4xf32>) -> (tensor<3x3xf32>, tensor<3x3xi64>)
    ```
  }];
  let arguments = (ins Graph_ArithmeticTensor:$input, I64Attr:$k,
                       I64Attr:$axis, UnitAttr:$smallest);
  let results = (outs Graph_ArithmeticTensor:$values,
                      TensorOf<[I64]>:$indices);
  let assemblyFormat = "$input attr-dict `:` functional-type(operands, results)";
}

#endif // GRAPHC_DIALECTS_GRAPH_GRAPHEXTRAOPS_TD
