//===- GraphCoreOps.td - constants and identity -----------*- tablegen -*-===//

#ifndef GRAPHC_DIALECTS_GRAPH_GRAPHCOREOPS_TD
#define GRAPHC_DIALECTS_GRAPH_GRAPHCOREOPS_TD

include "graph/GraphBase.td"

//===----------------------------------------------------------------------===//
// ConstantOp
//===----------------------------------------------------------------------===//

def Graph_ConstantOp : Graph_Op<"constant", [ConstantLike, Pure,
    Graph_CostOverride]> {
  let summary = "A tensor constant";
  let description = [{
    Produces the tensor given by `value`, an elements attribute (dense,
    dense resource or splat). The result type is the attribute's type.

    Example:

    ```mlir
    %w = graph.constant dense<[[1.0, 2.0], [3.0, 4.0]]> : tensor<2x2xf32>
    ```
  }];
  let arguments = (ins ElementsAttr:$value);
  let results = (outs AnyStaticShapeTensor:$result);
  let assemblyFormat = "attr-dict $value";
  let hasFolder = 1;
}

//===----------------------------------------------------------------------===//
// IdentityOp
//===----------------------------------------------------------------------===//

def Graph_IdentityOp : Graph_Op<"identity", [Pure, Graph_CostOverride]> {
  let summary = "Forwards its operand unchanged";
  let description = [{
    Returns its operand. Importers produce it for TensorFlow's `Identity` and
    ONNX's `Identity` so that a named node survives import; it folds away.
    It may refine a dynamic type to a static one but never change the
    element type.

    Example:

    ```mlir
    %y = graph.identity %x : (tensor<4xf32>) -> tensor<4xf32>
    ```
  }];
  let arguments = (ins Graph_Tensor:$input);
  let results = (outs Graph_Tensor:$result);
  let assemblyFormat = "$input attr-dict `:` functional-type(operands, results)";
  let hasFolder = 1;
}

#endif // GRAPHC_DIALECTS_GRAPH_GRAPHCOREOPS_TD
