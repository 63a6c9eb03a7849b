//===- GraphNNOps.td - contractions, convolution, pooling, normalisation ===//

#ifndef GRAPHC_DIALECTS_GRAPH_GRAPHNNOPS_TD
#define GRAPHC_DIALECTS_GRAPH_GRAPHNNOPS_TD

include "graph/GraphBase.td"

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
}

#endif // GRAPHC_DIALECTS_GRAPH_GRAPHNNOPS_TD
