//===- GraphCanonicalize.cpp - canonicalization patterns of graph ops -----===//

#include "graph/GraphOps.h"

#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/IR/TypeUtilities.h"

using namespace mlir;
using namespace graphc::graph;

//===----------------------------------------------------------------------===//
// Elementwise ops
//===----------------------------------------------------------------------===//

namespace {

/// The direction that gives the same answer with the operands swapped.
CompareDirection getSwappedDirection(CompareDirection direction) {
  switch (direction) {
  case CompareDirection::lt:
    return CompareDirection::gt;
  case CompareDirection::le:
    return CompareDirection::ge;
  case CompareDirection::gt:
    return CompareDirection::lt;
  case CompareDirection::ge:
    return CompareDirection::le;
  case CompareDirection::eq:
  case CompareDirection::ne:
    return direction;
  }
  llvm_unreachable("unknown compare direction");
}

/// The direction whose answer is the negation, for operands that are never
/// NaN.
CompareDirection getInvertedDirection(CompareDirection direction) {
  switch (direction) {
  case CompareDirection::eq:
    return CompareDirection::ne;
  case CompareDirection::ne:
    return CompareDirection::eq;
  case CompareDirection::lt:
    return CompareDirection::ge;
  case CompareDirection::le:
    return CompareDirection::gt;
  case CompareDirection::gt:
    return CompareDirection::le;
  case CompareDirection::ge:
    return CompareDirection::lt;
  }
  llvm_unreachable("unknown compare direction");
}

/// compare(constant, x, dir) -> compare(x, constant, swapped dir), so that
/// constants sit on the right as for the commutative ops.
struct CompareConstantToRight : OpRewritePattern<CompareOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(CompareOp op,
                                PatternRewriter &rewriter) const override {
    if (!matchPattern(op.getLhs(), m_Constant()) ||
        matchPattern(op.getRhs(), m_Constant())) {
      return failure();
    }
    rewriter.replaceOpWithNewOp<CompareOp>(
        op, op.getType(), op.getRhs(), op.getLhs(),
        getSwappedDirection(op.getDirection()));
    return success();
  }
};

/// not(compare(a, b, dir)) -> compare(a, b, inverted dir). For floats only
/// eq and ne invert exactly: with a NaN both `a < b` and `a >= b` are false.
struct NotOfCompare : OpRewritePattern<NotOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(NotOp op,
                                PatternRewriter &rewriter) const override {
    auto compare = op.getInput().getDefiningOp<CompareOp>();
    if (!compare || compare.getType() != op.getType()) {
      return failure();
    }
    CompareDirection direction = compare.getDirection();
    Type elementType = getElementTypeOrSelf(compare.getLhs().getType());
    if (isa<FloatType>(elementType) && direction != CompareDirection::eq &&
        direction != CompareDirection::ne) {
      return failure();
    }
    rewriter.replaceOpWithNewOp<CompareOp>(op, op.getType(), compare.getLhs(),
                                           compare.getRhs(),
                                           getInvertedDirection(direction));
    return success();
  }
};

/// select(not(c), a, b) -> select(c, b, a).
struct SelectOfNot : OpRewritePattern<SelectOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(SelectOp op,
                                PatternRewriter &rewriter) const override {
    auto negated = op.getCond().getDefiningOp<NotOp>();
    if (!negated) {
      return failure();
    }
    rewriter.replaceOpWithNewOp<SelectOp>(op, op.getType(), negated.getInput(),
                                          op.getFalseValue(),
                                          op.getTrueValue());
    return success();
  }
};

/// add(x, neg(y)) -> sub(x, y) and add(neg(x), y) -> sub(y, x). IEEE 754
/// defines x - y as x + (-y), so this is exact for floats too.
struct AddOfNeg : OpRewritePattern<AddOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(AddOp op,
                                PatternRewriter &rewriter) const override {
    if (auto neg = op.getRhs().getDefiningOp<NegOp>()) {
      rewriter.replaceOpWithNewOp<SubOp>(op, op.getType(), op.getLhs(),
                                         neg.getInput());
      return success();
    }
    if (auto neg = op.getLhs().getDefiningOp<NegOp>()) {
      rewriter.replaceOpWithNewOp<SubOp>(op, op.getType(), op.getRhs(),
                                         neg.getInput());
      return success();
    }
    return failure();
  }
};

/// sub(x, neg(y)) -> add(x, y).
struct SubOfNeg : OpRewritePattern<SubOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(SubOp op,
                                PatternRewriter &rewriter) const override {
    auto neg = op.getRhs().getDefiningOp<NegOp>();
    if (!neg) {
      return failure();
    }
    rewriter.replaceOpWithNewOp<AddOp>(op, op.getType(), op.getLhs(),
                                       neg.getInput());
    return success();
  }
};

/// Whether every value of `from` is exactly a value of `to`, so that a cast
/// through `to` loses nothing.
bool isExactCast(Type from, Type to) {
  auto fromInt = dyn_cast<IntegerType>(from);
  if (auto toInt = dyn_cast<IntegerType>(to)) {
    return fromInt && fromInt.getWidth() <= toInt.getWidth();
  }
  auto toFloat = dyn_cast<FloatType>(to);
  if (!toFloat) {
    return false;
  }
  const llvm::fltSemantics &semantics = toFloat.getFloatSemantics();
  if (auto fromFloat = dyn_cast<FloatType>(from)) {
    return llvm::APFloatBase::isRepresentableBy(fromFloat.getFloatSemantics(),
                                                semantics);
  }
  if (!fromInt) {
    return false;
  }
  // A signed N-bit integer has magnitude at most 2^(N-1); a boolean is 0 or 1.
  int64_t magnitudeBits = std::max<int64_t>(fromInt.getWidth() - 1, 1);
  return magnitudeBits <=
             int64_t(llvm::APFloatBase::semanticsPrecision(semantics)) &&
         magnitudeBits <= llvm::APFloatBase::semanticsMaxExponent(semantics);
}

/// cast(cast(x, B), C) -> cast(x, C) when the inner cast is exact: every
/// value of x survives it, so the outer cast sees x's value.
struct CastOfExactCast : OpRewritePattern<CastOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(CastOp op,
                                PatternRewriter &rewriter) const override {
    auto inner = op.getInput().getDefiningOp<CastOp>();
    if (!inner) {
      return failure();
    }
    Type from = getElementTypeOrSelf(inner.getInput().getType());
    if (!isExactCast(from, inner.getTo())) {
      return failure();
    }
    rewriter.replaceOpWithNewOp<CastOp>(op, op.getType(), inner.getInput(),
                                        op.getToAttr(), op.getSaturateAttr());
    return success();
  }
};

} // namespace

void CompareOp::getCanonicalizationPatterns(RewritePatternSet &patterns,
                                            MLIRContext *context) {
  patterns.add<CompareConstantToRight>(context);
}

void NotOp::getCanonicalizationPatterns(RewritePatternSet &patterns,
                                        MLIRContext *context) {
  patterns.add<NotOfCompare>(context);
}

void SelectOp::getCanonicalizationPatterns(RewritePatternSet &patterns,
                                           MLIRContext *context) {
  patterns.add<SelectOfNot>(context);
}

void AddOp::getCanonicalizationPatterns(RewritePatternSet &patterns,
                                        MLIRContext *context) {
  patterns.add<AddOfNeg>(context);
}

void SubOp::getCanonicalizationPatterns(RewritePatternSet &patterns,
                                        MLIRContext *context) {
  patterns.add<SubOfNeg>(context);
}

void CastOp::getCanonicalizationPatterns(RewritePatternSet &patterns,
                                         MLIRContext *context) {
  patterns.add<CastOfExactCast>(context);
}
