//===- GraphNNFolds.cpp - folders and canonicalizations of NN ops ---------===//
//
// Only rewrites that are exact for every input, NaN and infinities included:
// a pooling window of one cell, a nearest resize to the same shape, and
// absorbing a last-two-dimension transpose into matmul's transpose flags.
//
//===----------------------------------------------------------------------===//

#include "graph/GraphOps.h"

#include "mlir/IR/PatternMatch.h"

using namespace mlir;
using namespace graphc::graph;

//===----------------------------------------------------------------------===//
// PoolOp
//===----------------------------------------------------------------------===//

OpFoldResult PoolOp::fold(FoldAdaptor) {
  // A 1-cell window with stride 1 and no padding picks (max) or averages
  // over exactly one element: the input itself. Dilations do not matter.
  auto isAll = [](std::optional<ArrayRef<int64_t>> values, int64_t v) {
    return !values || llvm::all_of(*values, [&](int64_t x) { return x == v; });
  };
  if (getInput().getType() != getType() || !isAll(getWindow(), 1) ||
      !isAll(getStrides(), 1) || !isAll(getPadLow(), 0) ||
      !isAll(getPadHigh(), 0)) {
    return {};
  }
  return getInput();
}

//===----------------------------------------------------------------------===//
// ResizeOp
//===----------------------------------------------------------------------===//

OpFoldResult ResizeOp::fold(FoldAdaptor) {
  // At scale 1 every coordinate mode maps output index i to input index i,
  // and nearest picks that element exactly. Linear and cubic would compute
  // 0 * neighbour, which is NaN next to an infinity, so they stay.
  if (getMode() != ResizeMode::nearest || getInput().getType() != getType() ||
      getCoordinateMode() == CoordinateMode::tf_crop_and_resize) {
    return {};
  }
  // Explicit scales other than 1 move the sampling points.
  if (std::optional<ArrayRef<double>> scales = getScales()) {
    if (llvm::any_of(*scales, [](double s) { return s != 1.0; })) {
      return {};
    }
  }
  return getInput();
}

//===----------------------------------------------------------------------===//
// MatMulOp
//===----------------------------------------------------------------------===//

namespace {

/// matmul(transpose(x, perm = [0, ..., n-1, n-2]), y) ->
/// matmul(x, y) with the operand's transpose flag flipped.
struct AbsorbTransposeIntoMatMul : public OpRewritePattern<MatMulOp> {
  using OpRewritePattern::OpRewritePattern;

  /// Returns the transpose's input when `value` is a transpose that swaps
  /// exactly the last two of its (at least two) dimensions.
  static Value getSwappedSource(Value value) {
    auto transpose = value.getDefiningOp<TransposeOp>();
    if (!transpose) {
      return {};
    }
    auto sourceType =
        dyn_cast<RankedTensorType>(transpose.getInput().getType());
    ArrayRef<int64_t> perm = transpose.getPerm();
    if (!sourceType) {
      return {};
    }
    int64_t rank = sourceType.getRank();
    if (rank < 2 || static_cast<int64_t>(perm.size()) != rank) {
      return {};
    }
    for (int64_t i = 0; i < rank; ++i) {
      int64_t p = perm[i] < 0 ? perm[i] + rank : perm[i];
      int64_t want = i < rank - 2 ? i : (i == rank - 2 ? rank - 1 : rank - 2);
      if (p != want) {
        return {};
      }
    }
    return transpose.getInput();
  }

  LogicalResult matchAndRewrite(MatMulOp op,
                                PatternRewriter &rewriter) const override {
    Value lhs = getSwappedSource(op.getLhs());
    Value rhs = getSwappedSource(op.getRhs());
    if (!lhs && !rhs) {
      return rewriter.notifyMatchFailure(op, "no last-two-dims transpose");
    }
    rewriter.modifyOpInPlace(op, [&] {
      if (lhs) {
        op.getLhsMutable().assign(lhs);
        op.setTransposeLhs(!op.getTransposeLhs());
      }
      if (rhs) {
        op.getRhsMutable().assign(rhs);
        op.setTransposeRhs(!op.getTransposeRhs());
      }
    });
    return success();
  }
};

} // namespace

void MatMulOp::getCanonicalizationPatterns(RewritePatternSet &patterns,
                                           MLIRContext *context) {
  patterns.add<AbsorbTransposeIntoMatMul>(context);
}
