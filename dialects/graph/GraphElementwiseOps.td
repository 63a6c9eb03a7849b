//===- GraphElementwiseOps.td - elementwise ops -----------*- tablegen -*-===//
//
// Unary and binary elementwise ops. Binary ops broadcast their operands the
// NumPy way: shapes are aligned at the trailing dimension and a dimension of
// size 1 stretches to the other.
//
//===----------------------------------------------------------------------===//

#ifndef GRAPHC_DIALECTS_GRAPH_GRAPHELEMENTWISEOPS_TD
#define GRAPHC_DIALECTS_GRAPH_GRAPHELEMENTWISEOPS_TD

include "graph/GraphBase.td"

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

def Graph_NegOp : Graph_UnaryOp<"neg", Graph_Tensor> {
  let summary = "Elementwise negation";
  let description = [{
    `result[i] = -input[i]`.

    Example:

    ```mlir
    %y = graph.neg %x : (tensor<4xf32>) -> tensor<4xf32>
    ```
  }];
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

//===----------------------------------------------------------------------===//
// Binary ops
//===----------------------------------------------------------------------===//

def Graph_AddOp : Graph_BroadcastBinaryOp<"add", Graph_Tensor, [Commutative]> {
  let summary = "Elementwise addition with broadcasting";
  let description = [{
    `result = lhs + rhs`, broadcasting the NumPy way.

    Example:

    ```mlir
    %y = graph.add %x, %b : (tensor<8x16xf32>, tensor<16xf32>) -> tensor<8x16xf32>
    ```
  }];
}

def Graph_MulOp : Graph_BroadcastBinaryOp<"mul", Graph_Tensor, [Commutative]> {
  let summary = "Elementwise multiplication with broadcasting";
  let description = [{
    `result = lhs * rhs`, broadcasting the NumPy way.

    Example:

    ```mlir
    %y = graph.mul %x, %s : (tensor<8x16xf32>, tensor<f32>) -> tensor<8x16xf32>
    ```
  }];
}

#endif // GRAPHC_DIALECTS_GRAPH_GRAPHELEMENTWISEOPS_TD
