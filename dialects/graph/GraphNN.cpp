//===- GraphNN.cpp - contractions, convolution, pooling, normalisation ----===//

#include "graph/GraphOps.h"

using namespace mlir;
using namespace graphc::graph;

//===----------------------------------------------------------------------===//
// MatMulOp
//===----------------------------------------------------------------------===//

LogicalResult MatMulOp::inferReturnTypes(MLIRContext *,
                                         std::optional<Location> location,
                                         Adaptor adaptor,
                                         SmallVectorImpl<Type> &inferred) {
  auto lhsType = cast<TensorType>(adaptor.getLhs().getType());
  auto rhsType = cast<TensorType>(adaptor.getRhs().getType());
  if (lhsType.getElementType() != rhsType.getElementType())
    return emitOptionalError(location, "graph.matmul: operand element types ",
                             lhsType.getElementType(), " and ",
                             rhsType.getElementType(), " differ");
  Type elementType = lhsType.getElementType();
  if (!lhsType.hasRank() || !rhsType.hasRank()) {
    inferred.push_back(UnrankedTensorType::get(elementType));
    return success();
  }
  if (lhsType.getRank() == 0 || rhsType.getRank() == 0)
    return emitOptionalError(location,
                             "graph.matmul: operands must have rank >= 1");

  // Promote vectors to matrices as NumPy does, remembering which unit
  // dimensions to drop from the result.
  SmallVector<int64_t> lhs(lhsType.getShape());
  SmallVector<int64_t> rhs(rhsType.getShape());
  bool lhsVector = lhs.size() == 1, rhsVector = rhs.size() == 1;
  if (lhsVector)
    lhs.insert(lhs.begin(), 1);
  if (rhsVector)
    rhs.push_back(1);
  if (adaptor.getTransposeLhs() && !lhsVector)
    std::swap(lhs[lhs.size() - 1], lhs[lhs.size() - 2]);
  if (adaptor.getTransposeRhs() && !rhsVector)
    std::swap(rhs[rhs.size() - 1], rhs[rhs.size() - 2]);

  int64_t m = lhs[lhs.size() - 2], k = lhs.back();
  int64_t k2 = rhs[rhs.size() - 2], n = rhs.back();
  if (!ShapedType::isDynamic(k) && !ShapedType::isDynamic(k2) && k != k2)
    return emitOptionalError(location, "graph.matmul: contraction size ", k,
                             " does not match ", k2);

  SmallVector<int64_t> batch;
  if (failed(broadcastShapes(location, "graph.matmul",
                             ArrayRef(lhs).drop_back(2),
                             ArrayRef(rhs).drop_back(2), batch)))
    return failure();
  SmallVector<int64_t> shape(batch);
  if (!lhsVector)
    shape.push_back(m);
  if (!rhsVector)
    shape.push_back(n);
  inferred.push_back(RankedTensorType::get(shape, elementType));
  return success();
}

std::optional<int64_t> MatMulOp::getFlops() {
  auto lhsType = cast<TensorType>(getLhs().getType());
  std::optional<int64_t> outputs = getStaticNumElements(getType());
  if (!outputs || !lhsType.hasRank())
    return std::nullopt;
  int64_t k = lhsType.getRank() == 1 || !getTransposeLhs()
                  ? lhsType.getShape().back()
                  : lhsType.getShape()[lhsType.getRank() - 2];
  if (ShapedType::isDynamic(k))
    return std::nullopt;
  // One multiply and one add per output element and contraction step.
  return 2 * *outputs * k;
}
