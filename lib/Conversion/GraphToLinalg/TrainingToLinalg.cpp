//===- TrainingToLinalg.cpp - graph training ops to linalg ----------------===//
//
// batch_norm_train (mean and biased variance reductions, then the
// batch_norm generic), softmax_cross_entropy (a max-shifted log-softmax;
// sparse labels read through tensor.extract) and the optimizer updates, each
// one parallel linalg.generic with one output per updated tensor.
//
//===----------------------------------------------------------------------===//

#include "LoweringUtils.h"

#include "graph/GraphOps.h"

using namespace mlir;
using namespace graphc::graph;

namespace graphc::lowering {
namespace {

Value castTo(OpBuilder &b, Location loc, Value value, Type type) {
  if (value.getType() == type) {
    return value;
  }
  return tensor::CastOp::create(b, loc, type, value);
}

using MultiScalarBuilder =
    llvm::function_ref<SmallVector<Value>(OpBuilder &, Location, ValueRange)>;

/// One parallel generic with `numResults` outputs of `type` (the shape of
/// `operands[0]`), every operand read through a NumPy broadcast map.
SmallVector<Value> buildMultiElementwise(OpBuilder &b, Location loc,
                                         RankedTensorType type,
                                         ValueRange operands,
                                         unsigned numResults,
                                         MultiScalarBuilder body) {
  MLIRContext *ctx = b.getContext();
  SmallVector<AffineMap> maps;
  for (Value operand : operands) {
    maps.push_back(getBroadcastMap(
        ctx, cast<RankedTensorType>(operand.getType()), type.getShape()));
  }
  Value first = createEmptyForBroadcast(b, loc, type, operands);
  SmallVector<Value> inits = {first};
  SmallVector<Type> types(numResults, type);
  for (unsigned i = 1; i < numResults; ++i) {
    inits.push_back(createEmpty(b, loc, type, getDynamicSizes(b, loc, first)));
  }
  for (unsigned i = 0; i < numResults; ++i) {
    maps.push_back(b.getMultiDimIdentityMap(type.getRank()));
  }
  SmallVector<utils::IteratorType> iterators(type.getRank(),
                                             utils::IteratorType::parallel);
  auto generic = linalg::GenericOp::create(
      b, loc, types, operands, inits, maps, iterators,
      [&](OpBuilder &nb, Location nloc, ValueRange args) {
        SmallVector<Value> results =
            body(nb, nloc, args.take_front(operands.size()));
        linalg::YieldOp::create(nb, nloc, results);
      });
  return SmallVector<Value>(generic.getResults());
}

/// Replaces `op`'s results with `values`, cast to the declared types.
void replaceWithCasts(ConversionPatternRewriter &rewriter, Operation *op,
                      ArrayRef<Value> values) {
  SmallVector<Value> results;
  for (auto [value, type] : llvm::zip(values, op->getResultTypes())) {
    results.push_back(castTo(rewriter, op->getLoc(), value, type));
  }
  rewriter.replaceOp(op, results);
}

FailureOr<RankedTensorType> getParamType(Operation *op) {
  return getRankedResultType(op, 0);
}

//===----------------------------------------------------------------------===//
// Optimizer updates
//===----------------------------------------------------------------------===//

struct SGDUpdateLowering : OpConversionPattern<SGDUpdateOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(SGDUpdateOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    FailureOr<RankedTensorType> type = getParamType(op);
    if (failed(type)) {
      return failure();
    }
    SmallVector<Value> results = buildMultiElementwise(
        rewriter, op.getLoc(), *type,
        ValueRange{adaptor.getParam(), adaptor.getGrad(), adaptor.getLr()}, 1,
        [](OpBuilder &b, Location loc, ValueRange a) -> SmallVector<Value> {
          Value step = arith::MulFOp::create(b, loc, a[2], a[1]);
          return {arith::SubFOp::create(b, loc, a[0], step)};
        });
    replaceWithCasts(rewriter, op, results);
    return success();
  }
};

struct MomentumUpdateLowering : OpConversionPattern<MomentumUpdateOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(MomentumUpdateOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    FailureOr<RankedTensorType> type = getParamType(op);
    if (failed(type)) {
      return failure();
    }
    bool nesterov = op.getNesterov();
    SmallVector<Value> results = buildMultiElementwise(
        rewriter, op.getLoc(), *type,
        ValueRange{adaptor.getParam(), adaptor.getAccum(), adaptor.getGrad(),
                   adaptor.getLr(), adaptor.getMomentum()},
        2, [&](OpBuilder &b, Location loc, ValueRange a) -> SmallVector<Value> {
          Value param = a[0], accum = a[1], grad = a[2], lr = a[3], mu = a[4];
          Value newAccum = arith::AddFOp::create(
              b, loc, arith::MulFOp::create(b, loc, accum, mu), grad);
          Value newParam;
          if (nesterov) {
            // param - lr * grad - lr * momentum * accum'
            Value viaGrad = arith::MulFOp::create(b, loc, lr, grad);
            Value viaAccum = arith::MulFOp::create(
                b, loc, arith::MulFOp::create(b, loc, lr, mu), newAccum);
            newParam = arith::SubFOp::create(
                b, loc, arith::SubFOp::create(b, loc, param, viaGrad),
                viaAccum);
          } else {
            newParam = arith::SubFOp::create(
                b, loc, param, arith::MulFOp::create(b, loc, lr, newAccum));
          }
          return {newParam, newAccum};
        });
    replaceWithCasts(rewriter, op, results);
    return success();
  }
};

struct AdamUpdateLowering : OpConversionPattern<AdamUpdateOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(AdamUpdateOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    FailureOr<RankedTensorType> type = getParamType(op);
    if (failed(type)) {
      return failure();
    }
    Type elementType = type->getElementType();
    SmallVector<Value> results = buildMultiElementwise(
        rewriter, op.getLoc(), *type,
        ValueRange{adaptor.getParam(), adaptor.getM(), adaptor.getV(),
                   adaptor.getGrad(), adaptor.getLr(), adaptor.getBeta1(),
                   adaptor.getBeta2(), adaptor.getEpsilon(),
                   adaptor.getBeta1Power(), adaptor.getBeta2Power()},
        3, [&](OpBuilder &b, Location loc, ValueRange a) -> SmallVector<Value> {
          Value param = a[0], m = a[1], v = a[2], grad = a[3], lr = a[4];
          Value beta1 = a[5], beta2 = a[6], eps = a[7], b1p = a[8], b2p = a[9];
          Value one = createScalar(b, loc, elementType, 1);
          auto sub = [&](Value x, Value y) -> Value {
            return arith::SubFOp::create(b, loc, x, y);
          };
          auto mul = [&](Value x, Value y) -> Value {
            return arith::MulFOp::create(b, loc, x, y);
          };
          auto add = [&](Value x, Value y) -> Value {
            return arith::AddFOp::create(b, loc, x, y);
          };
          // lr_t = lr * sqrt(1 - beta2_power) / (1 - beta1_power)
          Value lrT = arith::DivFOp::create(
              b, loc, mul(lr, math::SqrtOp::create(b, loc, sub(one, b2p))),
              sub(one, b1p));
          Value newM = add(mul(beta1, m), mul(sub(one, beta1), grad));
          Value newV =
              add(mul(beta2, v), mul(sub(one, beta2), mul(grad, grad)));
          Value denom = add(math::SqrtOp::create(b, loc, newV), eps);
          Value newParam =
              sub(param, arith::DivFOp::create(b, loc, mul(lrT, newM), denom));
          return {newParam, newM, newV};
        });
    replaceWithCasts(rewriter, op, results);
    return success();
  }
};

struct FtrlUpdateLowering : OpConversionPattern<FtrlUpdateOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(FtrlUpdateOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    FailureOr<RankedTensorType> type = getParamType(op);
    if (failed(type)) {
      return failure();
    }
    Type elementType = type->getElementType();
    SmallVector<Value> results = buildMultiElementwise(
        rewriter, op.getLoc(), *type,
        ValueRange{adaptor.getParam(), adaptor.getAccum(), adaptor.getLinear(),
                   adaptor.getGrad(), adaptor.getLr(), adaptor.getL1(),
                   adaptor.getL2(), adaptor.getLrPower()},
        3, [&](OpBuilder &b, Location loc, ValueRange a) -> SmallVector<Value> {
          Value param = a[0], accum = a[1], linear = a[2], grad = a[3];
          Value lr = a[4], l1 = a[5], l2 = a[6], lrPower = a[7];
          auto sub = [&](Value x, Value y) -> Value {
            return arith::SubFOp::create(b, loc, x, y);
          };
          auto mul = [&](Value x, Value y) -> Value {
            return arith::MulFOp::create(b, loc, x, y);
          };
          auto add = [&](Value x, Value y) -> Value {
            return arith::AddFOp::create(b, loc, x, y);
          };
          auto div = [&](Value x, Value y) -> Value {
            return arith::DivFOp::create(b, loc, x, y);
          };
          Value negPower = arith::NegFOp::create(b, loc, lrPower);
          Value newAccum = add(accum, mul(grad, grad));
          Value newPow = math::PowFOp::create(b, loc, newAccum, negPower);
          Value oldPow = math::PowFOp::create(b, loc, accum, negPower);
          Value sigma = div(sub(newPow, oldPow), lr);
          Value newLinear = sub(add(linear, grad), mul(sigma, param));
          Value two = createScalar(b, loc, elementType, 2);
          Value quadratic = add(div(newPow, lr), mul(two, l2));
          Value zero = createScalar(b, loc, elementType, 0);
          Value one = createScalar(b, loc, elementType, 1);
          Value isNeg = arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OLT,
                                              newLinear, zero);
          Value sign = arith::SelectOp::create(
              b, loc, isNeg, arith::NegFOp::create(b, loc, one), one);
          Value shrunk = div(sub(mul(sign, l1), newLinear), quadratic);
          Value active = arith::CmpFOp::create(
              b, loc, arith::CmpFPredicate::OGT,
              math::AbsFOp::create(b, loc, newLinear), l1);
          Value newParam =
              arith::SelectOp::create(b, loc, active, shrunk, zero);
          return {newParam, newAccum, newLinear};
        });
    replaceWithCasts(rewriter, op, results);
    return success();
  }
};

//===----------------------------------------------------------------------===//
// BatchNormTrainOp
//===----------------------------------------------------------------------===//

struct BatchNormTrainLowering : OpConversionPattern<BatchNormTrainOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(BatchNormTrainOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value input = adaptor.getInput();
    auto inputType = cast<RankedTensorType>(input.getType());
    int64_t rank = inputType.getRank();
    Type type = inputType.getElementType();
    MLIRContext *ctx = getContext();
    SmallVector<int64_t> axes = {0};
    for (int64_t d = 2; d < rank; ++d) {
      axes.push_back(d);
    }
    AffineMap id = rewriter.getMultiDimIdentityMap(rank);
    AffineMap channel =
        AffineMap::get(rank, 0, {getAffineDimExpr(1, ctx)}, ctx);
    Value mean = reduceAlong(rewriter, loc, input, axes, ReduceKind::mean);
    Value centered = buildParallelGeneric(
        rewriter, loc, input, type, ValueRange{input, mean}, {id, channel},
        [](OpBuilder &b, Location nloc, ValueRange a) -> Value {
          return arith::SubFOp::create(b, nloc, a[0], a[1]);
        });
    Value squares = buildParallelGeneric(
        rewriter, loc, input, type, ValueRange{centered}, {id},
        [](OpBuilder &b, Location nloc, ValueRange a) -> Value {
          return arith::MulFOp::create(b, nloc, a[0], a[0]);
        });
    // The biased variance (divided by the count, not count - 1).
    Value variance =
        reduceAlong(rewriter, loc, squares, axes, ReduceKind::mean);
    double epsilon = op.getEpsilon().convertToDouble();
    Value output = buildParallelGeneric(
        rewriter, loc, input, type,
        ValueRange{centered, variance, adaptor.getScale(), adaptor.getBias()},
        {id, channel, channel, channel},
        [&](OpBuilder &b, Location nloc, ValueRange a) -> Value {
          Value var = arith::AddFOp::create(
              b, nloc, a[1], createScalar(b, nloc, type, epsilon));
          Value normed = arith::MulFOp::create(
              b, nloc, a[0], math::RsqrtOp::create(b, nloc, var));
          Value scaled = arith::MulFOp::create(b, nloc, normed, a[2]);
          return arith::AddFOp::create(b, nloc, scaled, a[3]);
        });
    replaceWithCasts(rewriter, op, {output, mean, variance});
    return success();
  }
};

//===----------------------------------------------------------------------===//
// SoftmaxCrossEntropyOp
//===----------------------------------------------------------------------===//

struct SoftmaxCrossEntropyLowering
    : OpConversionPattern<SoftmaxCrossEntropyOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(SoftmaxCrossEntropyOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value logits = adaptor.getLogits(), labels = adaptor.getLabels();
    auto logitsType = cast<RankedTensorType>(logits.getType());
    Type type = logitsType.getElementType();
    MLIRContext *ctx = getContext();
    AffineMap id = rewriter.getMultiDimIdentityMap(2);
    AffineMap row = AffineMap::get(2, 0, {getAffineDimExpr(0, ctx)}, ctx);

    // shifted = x - max(x); logsm = shifted - log(sum(exp(shifted))).
    Value max = reduceAlong(rewriter, loc, logits, {1}, ReduceKind::max);
    Value shifted = buildParallelGeneric(
        rewriter, loc, logits, type, ValueRange{logits, max}, {id, row},
        [](OpBuilder &b, Location nloc, ValueRange a) -> Value {
          return arith::SubFOp::create(b, nloc, a[0], a[1]);
        });
    Value exp = buildParallelGeneric(
        rewriter, loc, logits, type, ValueRange{shifted}, {id},
        [](OpBuilder &b, Location nloc, ValueRange a) -> Value {
          return math::ExpOp::create(b, nloc, a[0]);
        });
    Value sum = reduceAlong(rewriter, loc, exp, {1}, ReduceKind::sum);
    Value logSum = buildParallelGeneric(
        rewriter, loc, sum, type, ValueRange{sum},
        {rewriter.getMultiDimIdentityMap(1)},
        [](OpBuilder &b, Location nloc, ValueRange a) -> Value {
          return math::LogOp::create(b, nloc, a[0]);
        });
    Value loss, grad;
    if (op.getSparse()) {
      // loss[b] = log(sum[b]) - shifted[b, label[b]];
      // grad[b, c] = softmax[b, c] - (c == label[b]).
      Value classes = tensor::DimOp::create(rewriter, loc, logits, 1);
      loss = buildParallelGeneric(
          rewriter, loc, sum, type, ValueRange{logSum, labels},
          {rewriter.getMultiDimIdentityMap(1),
           rewriter.getMultiDimIdentityMap(1)},
          [&](OpBuilder &b, Location nloc, ValueRange a) -> Value {
            Value label =
                arith::IndexCastOp::create(b, nloc, b.getIndexType(), a[1]);
            Value zero = arith::ConstantIndexOp::create(b, nloc, 0);
            Value isNeg = arith::CmpIOp::create(
                b, nloc, arith::CmpIPredicate::slt, label, zero);
            label = arith::SelectOp::create(
                b, nloc, isNeg, arith::AddIOp::create(b, nloc, label, classes),
                label);
            Value r = linalg::IndexOp::create(b, nloc, 0);
            Value picked = tensor::ExtractOp::create(b, nloc, shifted,
                                                     ValueRange{r, label});
            return arith::SubFOp::create(b, nloc, a[0], picked);
          });
      grad = buildParallelGeneric(
          rewriter, loc, logits, type, ValueRange{exp, sum, labels},
          {id, row, row},
          [&](OpBuilder &b, Location nloc, ValueRange a) -> Value {
            Value softmax = arith::DivFOp::create(b, nloc, a[0], a[1]);
            Value label =
                arith::IndexCastOp::create(b, nloc, b.getIndexType(), a[2]);
            Value zero = arith::ConstantIndexOp::create(b, nloc, 0);
            Value isNeg = arith::CmpIOp::create(
                b, nloc, arith::CmpIPredicate::slt, label, zero);
            label = arith::SelectOp::create(
                b, nloc, isNeg, arith::AddIOp::create(b, nloc, label, classes),
                label);
            Value c = linalg::IndexOp::create(b, nloc, 1);
            Value hit = arith::CmpIOp::create(b, nloc, arith::CmpIPredicate::eq,
                                              c, label);
            Value oneHot = arith::SelectOp::create(
                b, nloc, hit, createScalar(b, nloc, type, 1),
                createScalar(b, nloc, type, 0));
            return arith::SubFOp::create(b, nloc, softmax, oneHot);
          });
    } else {
      // loss[b] = -sum_c labels * (shifted - logSum).
      Value terms = buildParallelGeneric(
          rewriter, loc, logits, type, ValueRange{labels, shifted, logSum},
          {id, id, row},
          [](OpBuilder &b, Location nloc, ValueRange a) -> Value {
            Value logSoftmax = arith::SubFOp::create(b, nloc, a[1], a[2]);
            return arith::MulFOp::create(b, nloc, a[0], logSoftmax);
          });
      Value total = reduceAlong(rewriter, loc, terms, {1}, ReduceKind::sum);
      loss = buildParallelGeneric(
          rewriter, loc, total, type, ValueRange{total},
          {rewriter.getMultiDimIdentityMap(1)},
          [](OpBuilder &b, Location nloc, ValueRange a) -> Value {
            return arith::NegFOp::create(b, nloc, a[0]);
          });
      grad = buildParallelGeneric(
          rewriter, loc, logits, type, ValueRange{exp, sum, labels},
          {id, row, id},
          [](OpBuilder &b, Location nloc, ValueRange a) -> Value {
            Value softmax = arith::DivFOp::create(b, nloc, a[0], a[1]);
            return arith::SubFOp::create(b, nloc, softmax, a[2]);
          });
    }
    replaceWithCasts(rewriter, op, {loss, grad});
    return success();
  }
};

} // namespace

void populateTrainingPatterns(RewritePatternSet &patterns,
                              const TypeConverter *converter) {
  addPatterns<SGDUpdateLowering, MomentumUpdateLowering, AdamUpdateLowering,
              FtrlUpdateLowering, BatchNormTrainLowering,
              SoftmaxCrossEntropyLowering>(patterns, converter);
}

} // namespace graphc::lowering
