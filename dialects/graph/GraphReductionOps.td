//===- GraphReductionOps.td - reduction ops ----------------*- tablegen -*-===//

#ifndef GRAPHC_DIALECTS_GRAPH_GRAPHREDUCTIONOPS_TD
#define GRAPHC_DIALECTS_GRAPH_GRAPHREDUCTIONOPS_TD

include "graph/GraphBase.td"
include "graph/GraphElementwiseOps.td"

//===----------------------------------------------------------------------===//
// Enums
//===----------------------------------------------------------------------===//

def Graph_ReduceKind : I32EnumAttr<"ReduceKind", "reduction", [
      I32EnumAttrCase<"sum", 0>, I32EnumAttrCase<"mean", 1>,
      I32EnumAttrCase<"max", 2>, I32EnumAttrCase<"min", 3>,
      I32EnumAttrCase<"prod", 4>]> {
  let genSpecializedAttr = 0;
  let cppNamespace = "::graphc::graph";
}
def Graph_ReduceKindAttr
    : EnumAttr<Graph_Dialect, Graph_ReduceKind, "reduce_kind"> {
  let assemblyFormat = "$value";
}

//===----------------------------------------------------------------------===//
// ReduceOp
//===----------------------------------------------------------------------===//

def Graph_ReduceOp : Graph_Op<"reduce", [Pure, Graph_CostOverride]> {
  let summary = "Reduction over a set of axes";
  let description = [{
    Combines the elements of `input` along `axes` with `kind`: `sum`,
    `mean` (floats only), `max`, `min` (with the semantics of `graph.max`
    and `graph.min`) or `prod`. Axes may be negative (counting from the end)
    and must be distinct after normalisation. With `keepdims` the reduced
    dimensions stay as size 1, otherwise they are removed. Empty `axes`
    reduce nothing: the op returns its input (importers spell "all axes"
    explicitly).

    Example:

    ```mlir
    %s = graph.reduce %x {axes = array<i64: 1>, kind = #graph<reduce_kind sum>} : (tensor<8x16xf32>) -> tensor<8xf32>
    %m = graph.reduce %x {axes = array<i64: -1>, keepdims, kind = #graph<reduce_kind max>} : (tensor<8x16xf32>) -> tensor<8x1xf32>
    ```
  }];
  let arguments = (ins Graph_ArithmeticTensor:$input,
                       Graph_ReduceKindAttr:$kind,
                       DenseI64ArrayAttr:$axes, UnitAttr:$keepdims);
  let results = (outs Graph_ArithmeticTensor:$result);
  let assemblyFormat = "$input attr-dict `:` functional-type(operands, results)";
  let hasFolder = 1;
}

//===----------------------------------------------------------------------===//
// ArgReduceOp
//===----------------------------------------------------------------------===//

def Graph_ArgReduceOp : Graph_Op<"arg_reduce", [Pure, Graph_CostOverride]> {
  let summary = "Index of the largest or smallest element along an axis";
  let description = [{
    Returns, along `axis`, the index (`i64`) of the largest (`kind = max`)
    or smallest (`kind = min`) element; other kinds are rejected. Ties go
    to the first index, or to the last with `select_last_index` (ONNX
    `ArgMax`/`ArgMin`). With `keepdims` the axis stays as size 1, otherwise
    it is removed.

    Example:

    ```mlir
    %i = graph.arg_reduce %logits {axis = 1 : i64, kind = #graph<reduce_kind max>} : (tensor<8x10xf32>) -> tensor<8xi64>
    ```
  }];
  let arguments = (ins Graph_IntOrFloatTensor:$input,
                       Graph_ReduceKindAttr:$kind, I64Attr:$axis,
                       UnitAttr:$keepdims, UnitAttr:$select_last_index);
  let results = (outs TensorOf<[I64]>:$result);
  let assemblyFormat = "$input attr-dict `:` functional-type(operands, results)";
}

#endif // GRAPHC_DIALECTS_GRAPH_GRAPHREDUCTIONOPS_TD
