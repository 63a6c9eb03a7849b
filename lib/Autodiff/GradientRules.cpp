//===- GradientRules.cpp - reverse-mode rules of the graph ops ------------===//
//
// Each rule is written in graph ops so that the backward pass goes through
// the same lowering, placement and partitioning as the forward pass. Ties
// (max, min, max pooling) send the gradient where PyTorch 1.13 does: to the
// first maximum of a pooling window, evenly across tied elements of a
// reduction.
//
//===----------------------------------------------------------------------===//

#include "GradientRules.h"

#include "llvm/ADT/TypeSwitch.h"

#include <cmath>

using namespace mlir;
using namespace graphc;
using namespace graphc::graph;
using namespace graphc::autodiff;

// The ops that have a gradient rule, by family: whyNotDifferentiable admits
// exactly these and buildGradients dispatches on the same lists.
#define GRAPHC_UNARY_RULE_OPS                                                  \
  NegOp, IdentityOp, ExpOp, LogOp, SqrtOp, RsqrtOp, ReciprocalOp, TanhOp,      \
      SigmoidOp, ReluOp, LeakyReluOp, EluOp, SoftplusOp, ErfOp, SinOp, CosOp,  \
      AbsOp, GeluOp, CastOp, TanOp, AsinOp, AcosOp, AtanOp, SinhOp, CoshOp,    \
      AsinhOp, AcoshOp, AtanhOp
#define GRAPHC_BINARY_RULE_OPS AddOp, SubOp, MulOp, DivOp, PowOp, MaxOp, MinOp
// Piecewise constant: the gradient is zero almost everywhere.
#define GRAPHC_ZERO_RULE_OPS SignOp, FloorOp, CeilOp, RoundOp
#define GRAPHC_RESHAPE_RULE_OPS                                                \
  ReshapeOp, DynamicReshapeOp, SqueezeOp, UnsqueezeOp
#define GRAPHC_OTHER_RULE_OPS                                                  \
  ClampOp, SelectOp, ReduceOp, SoftmaxOp, LogSoftmaxOp, SoftmaxCrossEntropyOp, \
      TransposeOp, BroadcastToOp, ConcatOp, SplitOp, SliceOp, PadOp, GatherOp, \
      TileOp, ResizeOp, GatherElementsOp, TopKOp, CumulativeOp, LRNOp,         \
      MatMulOp, ConvOp, ConvTransposeOp, PoolOp, BatchNormOp,                  \
      BatchNormTrainOp, LayerNormOp

namespace {

using CD = CompareDirection;

/// What a rule sees: the adjoints of the results and which operand adjoints
/// to build.
struct Rule {
  GradientBuilder &gb;
  ArrayRef<Value> resultGrads;
  ArrayRef<bool> wanted;
  SmallVectorImpl<Value> &out;

  Value g() const { return resultGrads[0]; }
  bool want(unsigned i) const { return i < wanted.size() && wanted[i]; }
  void set(unsigned i, Value v) {
    if (want(i) && v) {
      out[i] = v;
    }
  }
  /// Sets operand i's adjoint to `v` reduced to the operand's shape.
  void setSummed(unsigned i, Value operand, Value v) {
    if (want(i) && v) {
      out[i] = gb.sumTo(v, GradientBuilder::typeOf(operand));
    }
  }
  Value one(Value like) {
    return gb.scalar(GradientBuilder::elementOf(like), 1);
  }
  Value zero(Value like) {
    return gb.scalar(GradientBuilder::elementOf(like), 0);
  }
};

int64_t rankOf(Value v) { return GradientBuilder::typeOf(v).getRank(); }
ArrayRef<int64_t> shapeOf(Value v) {
  return GradientBuilder::typeOf(v).getShape();
}
int64_t normalize(int64_t axis, int64_t rank) {
  return axis < 0 ? axis + rank : axis;
}
SmallVector<int64_t> orDefault(std::optional<ArrayRef<int64_t>> v, size_t n,
                               int64_t fill) {
  if (v) {
    return llvm::to_vector(*v);
  }
  return SmallVector<int64_t>(n, fill);
}

//===----------------------------------------------------------------------===//
// Elementwise
//===----------------------------------------------------------------------===//

/// d/dx of `x * Phi(x)`, exact or with the tanh approximation.
Value geluDerivative(GradientBuilder &gb, Value x, bool approximate) {
  Type e = GradientBuilder::elementOf(x);
  auto c = [&](double v) { return gb.scalar(e, v); };
  if (!approximate) {
    Value cdf =
        gb.scale(gb.add(c(1), gb.value<ErfOp>({gb.scale(x, M_SQRT1_2)})), 0.5);
    Value pdf = gb.scale(gb.value<ExpOp>({gb.scale(gb.mul(x, x), -0.5)}),
                         0.5 * M_2_SQRTPI * M_SQRT1_2);
    return gb.add(cdf, gb.mul(x, pdf));
  }
  const double k = std::sqrt(2.0 / M_PI), a = 0.044715;
  Value x2 = gb.mul(x, x);
  Value inner = gb.scale(gb.add(x, gb.scale(gb.mul(x2, x), a)), k);
  Value t = gb.value<TanhOp>({inner});
  Value left = gb.scale(gb.add(c(1), t), 0.5);
  Value dInner = gb.scale(gb.add(c(1), gb.scale(x2, 3 * a)), k);
  Value right =
      gb.mul(gb.scale(gb.mul(x, gb.sub(c(1), gb.mul(t, t))), 0.5), dInner);
  return gb.add(left, right);
}

void unaryRule(Rule &r, Operation *op) {
  GradientBuilder &gb = r.gb;
  Value x = op->getOperand(0), y = op->getResult(0), g = r.g();
  auto c = [&](double v) {
    return gb.scalar(GradientBuilder::elementOf(x), v);
  };
  Value dx =
      llvm::TypeSwitch<Operation *, Value>(op)
          .Case([&](NegOp) { return gb.neg(g); })
          .Case([&](IdentityOp) { return g; })
          .Case([&](ExpOp) { return gb.mul(g, y); })
          .Case([&](LogOp) { return gb.div(g, x); })
          .Case([&](SqrtOp) { return gb.div(gb.scale(g, 0.5), y); })
          .Case(
              [&](RsqrtOp) { return gb.div(gb.mul(gb.scale(g, -0.5), y), x); })
          .Case([&](ReciprocalOp) { return gb.neg(gb.mul(g, gb.mul(y, y))); })
          .Case([&](TanhOp) { return gb.mul(g, gb.sub(c(1), gb.mul(y, y))); })
          .Case(
              [&](SigmoidOp) { return gb.mul(g, gb.mul(y, gb.sub(c(1), y))); })
          .Case(
              [&](ReluOp) { return gb.where(gb.compare(x, c(0), CD::gt), g); })
          .Case([&](LeakyReluOp l) {
            return gb.select(gb.compare(x, c(0), CD::ge), g,
                             gb.scale(g, l.getAlpha().convertToDouble()));
          })
          .Case([&](EluOp l) {
            return gb.select(
                gb.compare(x, c(0), CD::gt), g,
                gb.mul(g, gb.add(y, c(l.getAlpha().convertToDouble()))));
          })
          .Case([&](SoftplusOp) { return gb.mul(g, gb.value<SigmoidOp>({x})); })
          .Case([&](ErfOp) {
            return gb.mul(gb.scale(g, M_2_SQRTPI),
                          gb.value<ExpOp>({gb.neg(gb.mul(x, x))}));
          })
          .Case([&](SinOp) { return gb.mul(g, gb.value<CosOp>({x})); })
          .Case([&](CosOp) { return gb.neg(gb.mul(g, gb.value<SinOp>({x}))); })
          .Case([&](AbsOp) { return gb.mul(g, gb.value<SignOp>({x})); })
          .Case([&](TanOp) { return gb.mul(g, gb.add(c(1), gb.mul(y, y))); })
          .Case([&](AsinOp) {
            return gb.div(g, gb.value<SqrtOp>({gb.sub(c(1), gb.mul(x, x))}));
          })
          .Case([&](AcosOp) {
            return gb.neg(
                gb.div(g, gb.value<SqrtOp>({gb.sub(c(1), gb.mul(x, x))})));
          })
          .Case([&](AtanOp) { return gb.div(g, gb.add(c(1), gb.mul(x, x))); })
          .Case([&](SinhOp) { return gb.mul(g, gb.value<CoshOp>({x})); })
          .Case([&](CoshOp) { return gb.mul(g, gb.value<SinhOp>({x})); })
          .Case([&](AsinhOp) {
            return gb.div(g, gb.value<SqrtOp>({gb.add(gb.mul(x, x), c(1))}));
          })
          .Case([&](AcoshOp) {
            return gb.div(g, gb.value<SqrtOp>({gb.sub(gb.mul(x, x), c(1))}));
          })
          .Case([&](AtanhOp) { return gb.div(g, gb.sub(c(1), gb.mul(x, x))); })
          .Case([&](GeluOp l) {
            return gb.mul(g, geluDerivative(gb, x, l.getApproximate()));
          })
          .Case(
              [&](CastOp) { return gb.cast(g, GradientBuilder::elementOf(x)); })
          .Default([](Operation *) { return Value(); });
  r.set(0, dx);
}

void binaryRule(Rule &r, Operation *op) {
  GradientBuilder &gb = r.gb;
  Value a = op->getOperand(0), b = op->getOperand(1), y = op->getResult(0);
  Value g = r.g();
  llvm::TypeSwitch<Operation *>(op)
      .Case([&](AddOp) {
        r.setSummed(0, a, g);
        r.setSummed(1, b, g);
      })
      .Case([&](SubOp) {
        r.setSummed(0, a, g);
        if (r.want(1)) {
          r.setSummed(1, b, gb.neg(g));
        }
      })
      .Case([&](MulOp) {
        if (r.want(0)) {
          r.setSummed(0, a, gb.mul(g, b));
        }
        if (r.want(1)) {
          r.setSummed(1, b, gb.mul(g, a));
        }
      })
      .Case([&](DivOp) {
        if (r.want(0)) {
          r.setSummed(0, a, gb.div(g, b));
        }
        if (r.want(1)) {
          r.setSummed(1, b, gb.neg(gb.div(gb.mul(g, y), b)));
        }
      })
      .Case([&](PowOp) {
        if (r.want(0)) {
          Value bm1 = gb.sub(b, r.one(b));
          r.setSummed(0, a, gb.mul(g, gb.mul(b, gb.value<PowOp>({a, bm1}))));
        }
        if (r.want(1)) {
          r.setSummed(1, b, gb.mul(g, gb.mul(y, gb.value<LogOp>({a}))));
        }
      })
      .Case<MaxOp, MinOp>([&](Operation *) {
        // Ties go to the left operand.
        Value takeA = gb.compare(a, b, isa<MaxOp>(op) ? CD::ge : CD::le);
        if (r.want(0)) {
          r.setSummed(0, a, gb.select(takeA, g, r.zero(g)));
        }
        if (r.want(1)) {
          r.setSummed(1, b, gb.select(takeA, r.zero(g), g));
        }
      });
}

void clampRule(Rule &r, ClampOp op) {
  // result = min(max(x, lo), hi), differentiated as those two ops.
  GradientBuilder &gb = r.gb;
  Value x = op.getInput(), lo = op.getMin(), hi = op.getMax(), g = r.g();
  Value m = gb.value<MaxOp>({x, lo});
  Value keepM = gb.compare(m, hi, CD::le);
  Value gm = gb.select(keepM, g, r.zero(g));
  Value keepX = gb.compare(x, lo, CD::ge);
  if (r.want(0)) {
    r.setSummed(0, x, gb.select(keepX, gm, r.zero(g)));
  }
  if (r.want(1)) {
    r.setSummed(1, lo, gb.select(keepX, r.zero(g), gm));
  }
  if (r.want(2)) {
    r.setSummed(2, hi, gb.select(keepM, r.zero(g), g));
  }
}

void selectRule(Rule &r, SelectOp op) {
  GradientBuilder &gb = r.gb;
  Value g = r.g();
  if (r.want(1)) {
    r.setSummed(1, op.getTrueValue(), gb.select(op.getCond(), g, r.zero(g)));
  }
  if (r.want(2)) {
    r.setSummed(2, op.getFalseValue(), gb.select(op.getCond(), r.zero(g), g));
  }
}

//===----------------------------------------------------------------------===//
// Reductions and softmax
//===----------------------------------------------------------------------===//

void reduceRule(Rule &r, ReduceOp op) {
  GradientBuilder &gb = r.gb;
  Value x = op.getInput(), g = r.g();
  ArrayRef<int64_t> inShape = shapeOf(x);
  if (op.getAxes().empty()) {
    r.set(0, g);
    return;
  }
  SmallVector<int64_t> axes, keepShape(inShape);
  int64_t count = 1;
  for (int64_t a : op.getAxes()) {
    a = normalize(a, inShape.size());
    axes.push_back(a);
    keepShape[a] = 1;
    count *= inShape[a];
  }
  Value gk = gb.reshape(g, keepShape);
  switch (op.getKind()) {
  case ReduceKind::sum:
    r.set(0, gb.broadcastTo(gk, inShape));
    return;
  case ReduceKind::mean:
    r.set(0, gb.broadcastTo(gb.scale(gk, 1.0 / count), inShape));
    return;
  case ReduceKind::max:
  case ReduceKind::min: {
    // Split evenly between the elements equal to the extremum.
    Value yk = gb.reshape(op.getResult(), keepShape);
    Value mask = gb.compare(x, yk, CD::eq);
    Value ties = gb.sum(gb.cast(mask, GradientBuilder::elementOf(x)), axes,
                        /*keepdims=*/true);
    r.set(0, gb.select(mask, gb.div(gk, ties), r.zero(g)));
    return;
  }
  case ReduceKind::prod:
    return;
  }
}

void softmaxRule(Rule &r, Operation *op, int64_t axis, bool log) {
  GradientBuilder &gb = r.gb;
  Value y = op->getResult(0), g = r.g();
  axis = normalize(axis, rankOf(y));
  if (log) {
    Value s = gb.sum(g, {axis}, /*keepdims=*/true);
    r.set(0, gb.sub(g, gb.mul(gb.value<ExpOp>({y}), s)));
    return;
  }
  Value s = gb.sum(gb.mul(g, y), {axis}, /*keepdims=*/true);
  r.set(0, gb.mul(y, gb.sub(g, s)));
}

void crossEntropyRule(Rule &r, SoftmaxCrossEntropyOp op) {
  GradientBuilder &gb = r.gb;
  Value gLoss = r.resultGrads[0];
  if (!gLoss) {
    return;
  }
  int64_t batch = shapeOf(gLoss)[0];
  Value gCol = gb.reshape(gLoss, {batch, 1});
  if (op.getSparse()) {
    // The op's second result is d loss_i / d logits_i.
    r.set(0, gb.mul(gCol, op.getGrad()));
    return;
  }
  // Dense labels need not sum to one: d loss_i / d logits_i is
  // softmax * sum(labels_i) - labels_i, which is the op's second result
  // only for a distribution.
  Value labels = op.getLabels();
  if (r.want(0)) {
    Value p = gb.value<SoftmaxOp>({op.getLogits()}, {gb.i64("axis", 1)});
    Value mass = gb.sum(labels, {1}, /*keepdims=*/true);
    r.set(0, gb.mul(gCol, gb.sub(gb.mul(p, mass), labels)));
  }
  if (r.want(1)) {
    r.set(1, gb.neg(gb.mul(gCol, gb.value<LogSoftmaxOp>({op.getLogits()},
                                                        {gb.i64("axis", 1)}))));
  }
}

//===----------------------------------------------------------------------===//
// Data movement
//===----------------------------------------------------------------------===//

void concatRule(Rule &r, ConcatOp op) {
  GradientBuilder &gb = r.gb;
  Value g = r.g();
  int64_t rank = rankOf(g);
  int64_t axis = normalize(op.getAxis(), rank);
  int64_t offset = 0;
  for (auto [i, input] : llvm::enumerate(op.getInputs())) {
    int64_t size = shapeOf(input)[axis];
    if (r.want(i)) {
      SmallVector<int64_t> starts(rank, 0), limits(shapeOf(g)),
          strides(rank, 1);
      starts[axis] = offset;
      limits[axis] = offset + size;
      r.set(i, gb.slice(g, starts, limits, strides));
    }
    offset += size;
  }
}

void splitRule(Rule &r, SplitOp op) {
  GradientBuilder &gb = r.gb;
  SmallVector<Value> parts;
  for (auto [result, grad] : llvm::zip(op.getResults(), r.resultGrads)) {
    parts.push_back(grad ? grad : gb.zerosLike(result));
  }
  int64_t axis = normalize(op.getAxis(), rankOf(op.getInput()));
  r.set(0, parts.size() == 1
               ? parts[0]
               : gb.value<ConcatOp>(parts, {gb.i64("axis", axis)}));
}

void padRule(Rule &r, PadOp op) {
  GradientBuilder &gb = r.gb;
  Value g = r.g();
  ArrayRef<int64_t> inShape = shapeOf(op.getInput());
  SmallVector<int64_t> limits, strides(inShape.size(), 1);
  for (auto [low, dim] : llvm::zip(op.getLow(), inShape)) {
    limits.push_back(low + dim);
  }
  Value gx = gb.slice(g, op.getLow(), limits, strides);
  r.set(0, gx);
  // The padding value fills every cell the input does not.
  if (r.want(1)) {
    r.set(1, gb.sub(gb.sumAll(g), gb.sumAll(gx)));
  }
}

void gatherRule(Rule &r, GatherOp op) {
  GradientBuilder &gb = r.gb;
  Value x = op.getInput(), idx = op.getIndices(), g = r.g();
  ArrayRef<int64_t> inShape = shapeOf(x);
  int64_t rank = inShape.size(), q = rankOf(idx);
  int64_t axis = normalize(op.getAxis(), rank);
  int64_t dim = inShape[axis];
  // Negative indices count from the end.
  Type ie = GradientBuilder::elementOf(idx);
  idx = gb.select(gb.compare(idx, gb.scalar(ie, 0), CD::lt),
                  gb.add(idx, gb.scalar(ie, dim)), idx);
  // g is pre + I + post; bring I to the front, scatter-add rows into
  // [dim] + pre + post, then move dim back to `axis`.
  int64_t gRank = rankOf(g);
  SmallVector<int64_t> perm;
  for (int64_t i = axis; i < axis + q; ++i) {
    perm.push_back(i);
  }
  for (int64_t i = 0; i < axis; ++i) {
    perm.push_back(i);
  }
  for (int64_t i = axis + q; i < gRank; ++i) {
    perm.push_back(i);
  }
  Value updates = gb.transpose(g, perm);
  SmallVector<int64_t> idxShape(shapeOf(idx));
  idxShape.push_back(1);
  Value idx2 = gb.reshape(idx, idxShape);
  SmallVector<int64_t> target = {dim};
  llvm::append_range(target, inShape.take_front(axis));
  llvm::append_range(target, inShape.drop_front(axis + 1));
  Value zeros =
      gb.splat(RankedTensorType::get(target, GradientBuilder::elementOf(x)), 0);
  Value scattered = gb.value<ScatterNdOp>(
      {zeros, idx2, updates},
      {gb.attr("reduction", ScatterReductionAttr::get(gb.context(),
                                                      ScatterReduction::add))});
  SmallVector<int64_t> back;
  for (int64_t i = 1; i <= axis; ++i) {
    back.push_back(i);
  }
  back.push_back(0);
  for (int64_t i = axis + 1; i < rank; ++i) {
    back.push_back(i);
  }
  r.set(0, gb.transpose(scattered, back));
}

/// `g` added into zeros of `type` at `indices` along `axis`
/// (scatter_elements with reduction add): the adjoint of picking elements.
Value scatterAdd(GradientBuilder &gb, RankedTensorType type, Value indices,
                 Value g, int64_t axis) {
  Value zeros = gb.splat(type, 0);
  return gb.value<ScatterElementsOp>(
      {zeros, indices, g},
      {gb.i64("axis", axis),
       gb.attr("reduction", ScatterReductionAttr::get(gb.context(),
                                                      ScatterReduction::add))});
}

void gatherElementsRule(Rule &r, GatherElementsOp op) {
  GradientBuilder &gb = r.gb;
  Value x = op.getInput(), idx = op.getIndices();
  int64_t axis = normalize(op.getAxis(), rankOf(x));
  int64_t dim = shapeOf(x)[axis];
  // The op counts negative indices from the end and clamps the rest; the
  // gradient goes where the element came from.
  Type ie = GradientBuilder::elementOf(idx);
  idx = gb.select(gb.compare(idx, gb.scalar(ie, 0), CD::lt),
                  gb.add(idx, gb.scalar(ie, dim)), idx);
  idx = gb.value<ClampOp>({idx, gb.scalar(ie, 0), gb.scalar(ie, dim - 1)});
  r.set(0, scatterAdd(gb, GradientBuilder::typeOf(x), idx, r.g(), axis));
}

void topKRule(Rule &r, TopKOp op) {
  if (Value g = r.resultGrads[0]) {
    r.set(0, scatterAdd(r.gb, GradientBuilder::typeOf(op.getInput()),
                        op.getIndices(), g,
                        normalize(op.getAxis(), rankOf(op.getInput()))));
  }
}

void cumulativeRule(Rule &r, CumulativeOp op) {
  // Each input element adds to the results after it (before it, reversed):
  // the same scan of g in the other direction.
  GradientBuilder &gb = r.gb;
  SmallVector<NamedAttribute> attrs = {
      gb.attr("kind", ReduceKindAttr::get(gb.context(), ReduceKind::sum)),
      gb.i64("axis", op.getAxis())};
  if (op.getExclusive()) {
    attrs.push_back(gb.unit("exclusive"));
  }
  if (!op.getReverse()) {
    attrs.push_back(gb.unit("reverse"));
  }
  r.set(0, gb.value<CumulativeOp>({r.g()}, attrs));
}

/// A nearest resize picks, along each axis on its own, one source index
/// per output index. The index maps come from the op itself, applied to an
/// iota along one axis at a time (so they are exactly what the lowering
/// computes), and the gradient is added back along each axis in turn.
void resizeRule(Rule &r, ResizeOp op) {
  GradientBuilder &gb = r.gb;
  Value g = r.g();
  ArrayRef<int64_t> inShape = shapeOf(op.getInput());
  int64_t rank = inShape.size();
  Type f64 = gb.builder().getF64Type(), i64 = gb.builder().getI64Type();
  std::optional<ArrayRef<double>> scales = op.getScales();
  for (int64_t d = rank - 1; d >= 0; --d) {
    int64_t in = inShape[d], out = shapeOf(g)[d];
    if (in == out && (!scales || (*scales)[d] == 1.0)) {
      continue;
    }
    SmallVector<int64_t> iotaShape(rank, 1), sizes(rank, 1);
    iotaShape[d] = in;
    sizes[d] = out;
    SmallVector<Attribute> values;
    for (int64_t i = 0; i < in; ++i) {
      values.push_back(FloatAttr::get(f64, static_cast<double>(i)));
    }
    auto iotaType = RankedTensorType::get(iotaShape, f64);
    Value iota = gb.value<ConstantOp>(
        {}, {gb.attr("value", DenseElementsAttr::get(iotaType, values))});
    auto picks = cast<ResizeOp>(gb.builder().clone(*op));
    picks->setOperand(0, iota);
    picks.setSizes(sizes);
    if (scales) {
      SmallVector<double> one(rank, 1.0);
      one[d] = (*scales)[d];
      picks.setScales(one);
    }
    picks.getResult().setType(RankedTensorType::get(sizes, f64));
    Value index = gb.broadcastTo(gb.cast(picks.getResult(), i64), shapeOf(g));
    SmallVector<int64_t> target(shapeOf(g));
    target[d] = in;
    g = scatterAdd(gb,
                   RankedTensorType::get(target, GradientBuilder::elementOf(g)),
                   index, g, d);
  }
  r.set(0, g);
}

/// sum_{i = c - before}^{c + after} v[:, i, ...] for every channel c, with
/// channels outside [0, C) counting as zero.
Value channelWindowSum(GradientBuilder &gb, Value v, int64_t before,
                       int64_t after) {
  ArrayRef<int64_t> shape = shapeOf(v);
  size_t rank = shape.size();
  SmallVector<int64_t> low(rank, 0), high(rank, 0);
  low[1] = before;
  high[1] = after;
  Value padded = gb.pad(v, low, high);
  Value total;
  for (int64_t j = 0; j <= before + after; ++j) {
    SmallVector<int64_t> starts(rank, 0), limits(shape), strides(rank, 1);
    starts[1] = j;
    limits[1] = j + shape[1];
    Value tap = gb.slice(padded, starts, limits, strides);
    total = total ? gb.add(total, tap) : tap;
  }
  return total;
}

/// y = x * d^-beta with d = bias + alpha / size * (window sum of x^2):
/// dx_k = g_k d_k^-beta - 2 alpha beta / size * x_k * sum over the windows
/// that hold k of g_c x_c d_c^(-beta-1), the transposed window.
void lrnRule(Rule &r, LRNOp op) {
  GradientBuilder &gb = r.gb;
  Value x = op.getInput(), g = r.g();
  int64_t size = op.getSize(), lo = (size - 1) / 2, hi = size / 2;
  double alpha = op.getAlpha().convertToDouble();
  double beta = op.getBeta().convertToDouble();
  Type e = GradientBuilder::elementOf(x);
  Value d = gb.add(
      gb.scalar(e, op.getBias().convertToDouble()),
      gb.scale(channelWindowSum(gb, gb.mul(x, x), lo, hi), alpha / size));
  Value dPow = gb.value<PowOp>({d, gb.scalar(e, -beta)});
  Value t = gb.div(gb.mul(gb.mul(g, x), dPow), d);
  Value spread = channelWindowSum(gb, t, hi, lo);
  r.set(0, gb.sub(gb.mul(g, dPow),
                  gb.scale(gb.mul(x, spread), 2 * alpha * beta / size)));
}

void tileRule(Rule &r, TileOp op) {
  GradientBuilder &gb = r.gb;
  ArrayRef<int64_t> inShape = shapeOf(op.getInput());
  SmallVector<int64_t> split, axes;
  for (auto [i, m] : llvm::enumerate(op.getMultiples())) {
    axes.push_back(split.size());
    split.push_back(m);
    split.push_back(inShape[i]);
  }
  Value g = gb.reshape(r.g(), split);
  r.set(0, gb.reshape(gb.sum(g, axes, /*keepdims=*/false), inShape));
}

//===----------------------------------------------------------------------===//
// Matmul
//===----------------------------------------------------------------------===//

void matmulRule(Rule &r, MatMulOp op) {
  GradientBuilder &gb = r.gb;
  Value a = op.getLhs(), b = op.getRhs(), g = r.g();
  bool ta = op.getTransposeLhs(), tb = op.getTransposeRhs();
  // Rank-1 operands as NumPy treats them: [K] is [1, K] on the left and
  // [K, 1] on the right; g gets the unit dimension back.
  Value a2 = a, b2 = b;
  SmallVector<int64_t> gShape(shapeOf(g));
  if (rankOf(a) == 1) {
    a2 = gb.reshape(a, {1, shapeOf(a)[0]});
    ta = false;
    gShape.insert(gShape.end() - (rankOf(b) == 1 ? 0 : 1), 1);
  }
  if (rankOf(b) == 1) {
    b2 = gb.reshape(b, {shapeOf(b)[0], 1});
    tb = false;
    gShape.push_back(1);
  }
  Value g2 = gb.reshape(g, gShape);
  auto mm = [&](Value l, Value rr, bool tl, bool tr) {
    SmallVector<NamedAttribute> attrs;
    if (tl) {
      attrs.push_back(gb.unit("transpose_lhs"));
    }
    if (tr) {
      attrs.push_back(gb.unit("transpose_rhs"));
    }
    return gb.value<MatMulOp>({l, rr}, attrs);
  };
  if (r.want(0)) {
    // d(A_eff) = g B_eff^T; A = A_eff^T when transposed.
    Value da = ta ? mm(b2, g2, tb, true) : mm(g2, b2, false, !tb);
    r.set(0, gb.reshape(gb.sumTo(da, GradientBuilder::typeOf(a2)), shapeOf(a)));
  }
  if (r.want(1)) {
    Value db = tb ? mm(g2, a2, true, ta) : mm(a2, g2, !ta, false);
    r.set(1, gb.reshape(gb.sumTo(db, GradientBuilder::typeOf(b2)), shapeOf(b)));
  }
}

//===----------------------------------------------------------------------===//
// Convolution and pooling
//===----------------------------------------------------------------------===//

struct Window {
  SmallVector<int64_t> strides, dilations, low, high;
};

Window windowOf(size_t k, std::optional<ArrayRef<int64_t>> strides,
                std::optional<ArrayRef<int64_t>> dilations,
                std::optional<ArrayRef<int64_t>> low,
                std::optional<ArrayRef<int64_t>> high) {
  return {orDefault(strides, k, 1), orDefault(dilations, k, 1),
          orDefault(low, k, 0), orDefault(high, k, 0)};
}

/// d loss / d filter of a convolution whose input is `x` [N, C, ...] and
/// whose output's adjoint is `g` [N, O, ...], as a filter [O, C/groups,
/// taps...]: dw[o, c, k] = sum_n,p g[n, o, p] x[n, group(o)*Cg + c,
/// p*s + k*d - pad_low], itself a convolution of x (batch as channels,
/// grouped) by g with stride and dilation exchanged. The padded input is
/// cut at the high end to the rows the forward pass read ((P-1)*s +
/// (K-1)*d + 1 for P output rows), high padding first: a forward stride
/// that skipped the last rows would otherwise give filter rows past K,
/// computed and dropped (a 1x1 stride-2 filter's gradient over an even
/// input was 2x2 taps per dimension, four times the work).
Value filterGradient(GradientBuilder &gb, Value x, Value g, const Window &win,
                     int64_t groups, ArrayRef<int64_t> taps) {
  ArrayRef<int64_t> xs = shapeOf(x), gs = shapeOf(g);
  size_t k = xs.size() - 2;
  SmallVector<int64_t> high(win.high), cropTo(xs);
  for (size_t i = 0; i < k; ++i) {
    int64_t read =
        (gs[i + 2] - 1) * win.strides[i] + (taps[i] - 1) * win.dilations[i] + 1;
    int64_t cut = xs[i + 2] + win.low[i] + high[i] - read;
    if (cut <= 0 || high[i] < 0) {
      continue;
    }
    int64_t fromPad = std::min(high[i], cut);
    // Rows of x itself go only while some remain (every read in the padding
    // is a degenerate convolution; left as it was).
    if (cut - fromPad >= xs[i + 2]) {
      continue;
    }
    high[i] -= fromPad;
    cropTo[i + 2] -= cut - fromPad;
  }
  if (ArrayRef<int64_t>(cropTo) != xs) {
    x = gb.slice(x, SmallVector<int64_t>(xs.size(), 0), cropTo,
                 SmallVector<int64_t>(xs.size(), 1));
    xs = shapeOf(x);
  }
  int64_t n = xs[0], cg = xs[1] / groups;
  SmallVector<int64_t> split = {n, groups, cg};
  llvm::append_range(split, xs.drop_front(2));
  SmallVector<int64_t> perm = {2, 1, 0};
  for (size_t i = 0; i < k; ++i) {
    perm.push_back(3 + i);
  }
  SmallVector<int64_t> merged = {cg, groups * n};
  llvm::append_range(merged, xs.drop_front(2));
  Value input = gb.reshape(gb.transpose(gb.reshape(x, split), perm), merged);
  SmallVector<int64_t> swap = {1, 0};
  for (size_t i = 0; i < k; ++i) {
    swap.push_back(2 + i);
  }
  Value filter = gb.transpose(g, swap);
  SmallVector<NamedAttribute> attrs = {
      gb.i64s("strides", win.dilations), gb.i64s("dilations", win.strides),
      gb.i64s("pad_low", win.low), gb.i64s("pad_high", high),
      gb.i64("groups", groups)};
  Value dw = gb.value<ConvOp>({input, filter}, attrs);
  // Rows past the last tap the forward pass used, where the crop above was
  // skipped, are dropped.
  ArrayRef<int64_t> dws = shapeOf(dw);
  SmallVector<int64_t> starts(k + 2, 0), limits(dws), strides(k + 2, 1);
  for (size_t i = 0; i < k; ++i) {
    limits[i + 2] = taps[i];
  }
  if (ArrayRef<int64_t>(limits) != dws) {
    dw = gb.slice(dw, starts, limits, strides);
  }
  return gb.transpose(dw, swap);
}

/// The bias adjoint of a channels-first op: the sum over all but axis 1.
Value biasGradient(GradientBuilder &gb, Value g) {
  SmallVector<int64_t> axes = {0};
  for (int64_t i = 2; i < rankOf(g); ++i) {
    axes.push_back(i);
  }
  return gb.sum(g, axes, /*keepdims=*/false);
}

void convRule(Rule &r, ConvOp op) {
  GradientBuilder &gb = r.gb;
  Value x = op.getInput(), w = op.getFilter(), g = r.g();
  ArrayRef<int64_t> xs = shapeOf(x), ws = shapeOf(w), gs = shapeOf(g);
  size_t k = xs.size() - 2;
  int64_t groups = op.getGroups();
  Window win = windowOf(k, op.getStrides(), op.getDilations(), op.getPadLow(),
                        op.getPadHigh());
  if (r.want(0)) {
    // The transposed convolution with the same filter; output_padding
    // restores the rows the forward stride skipped at the high end.
    SmallVector<int64_t> outPad;
    for (size_t i = 0; i < k; ++i) {
      int64_t covered = win.strides[i] * (gs[i + 2] - 1) +
                        win.dilations[i] * (ws[i + 2] - 1) + 1 - win.low[i] -
                        win.high[i];
      outPad.push_back(xs[i + 2] - covered);
    }
    SmallVector<NamedAttribute> attrs = {
        gb.i64s("strides", win.strides),   gb.i64s("dilations", win.dilations),
        gb.i64s("pad_low", win.low),       gb.i64s("pad_high", win.high),
        gb.i64s("output_padding", outPad), gb.i64("groups", groups)};
    r.set(0, gb.value<ConvTransposeOp>({g, w}, attrs));
  }
  if (r.want(1)) {
    r.set(1, filterGradient(gb, x, g, win, groups, ws.drop_front(2)));
  }
  if (op.getBias() && r.want(2)) {
    r.set(2, biasGradient(gb, g));
  }
}

void convTransposeRule(Rule &r, ConvTransposeOp op) {
  GradientBuilder &gb = r.gb;
  Value x = op.getInput(), w = op.getFilter(), g = r.g();
  size_t k = shapeOf(x).size() - 2;
  int64_t groups = op.getGroups();
  Window win = windowOf(k, op.getStrides(), op.getDilations(), op.getPadLow(),
                        op.getPadHigh());
  // conv_transpose is the adjoint of the convolution with the same filter
  // and attributes: its input's adjoint is that convolution of g, and its
  // filter's the filter gradient of the convolution from g to x.
  if (r.want(0)) {
    SmallVector<NamedAttribute> attrs = {
        gb.i64s("strides", win.strides), gb.i64s("dilations", win.dilations),
        gb.i64s("pad_low", win.low), gb.i64s("pad_high", win.high),
        gb.i64("groups", groups)};
    r.set(0, gb.value<ConvOp>({g, w}, attrs));
  }
  if (r.want(1)) {
    r.set(1, filterGradient(gb, g, x, win, groups, shapeOf(w).drop_front(2)));
  }
  if (op.getBias() && r.want(2)) {
    r.set(2, biasGradient(gb, g));
  }
}

/// Cells per window that count in an average pool's divisor, per output
/// position along one spatial dimension.
SmallVector<int64_t> avgCounts(int64_t in, int64_t out, int64_t window,
                               int64_t stride, int64_t dilation, int64_t low,
                               int64_t high, bool includePad) {
  SmallVector<int64_t> counts;
  for (int64_t o = 0; o < out; ++o) {
    int64_t n = 0;
    for (int64_t j = 0; j < window; ++j) {
      int64_t pos = o * stride - low + j * dilation;
      n += includePad ? (pos >= -low && pos < in + high)
                      : (pos >= 0 && pos < in);
    }
    counts.push_back(n);
  }
  return counts;
}

void poolRule(Rule &r, PoolOp op) {
  GradientBuilder &gb = r.gb;
  Value x = op.getInput(), y = op.getResult(), g = r.g();
  ArrayRef<int64_t> xs = shapeOf(x), ys = shapeOf(y);
  ArrayRef<int64_t> window = op.getWindow();
  size_t k = xs.size() - 2, rank = xs.size();
  Window win = windowOf(k, op.getStrides(), op.getDilations(), op.getPadLow(),
                        op.getPadHigh());
  Type e = GradientBuilder::elementOf(x);
  bool isMax = op.getKind() == PoolKind::max;
  // Pad so that every window lies inside (ceil_mode's last window may reach
  // past the high padding).
  SmallVector<int64_t> low(rank, 0), high(rank, 0), padded(xs);
  for (size_t i = 0; i < k; ++i) {
    int64_t reach = (ys[i + 2] - 1) * win.strides[i] +
                    win.dilations[i] * (window[i] - 1) + 1;
    low[i + 2] = win.low[i];
    high[i + 2] = std::max(win.high[i], reach - xs[i + 2] - win.low[i]);
    padded[i + 2] = xs[i + 2] + low[i + 2] + high[i + 2];
  }
  Value xp;
  if (isMax) {
    xp = gb.pad(x, low, high, -std::numeric_limits<double>::infinity());
  }
  Value gScaled = g;
  if (!isMax) {
    // Divide by each window's divisor, a constant of the static shapes.
    SmallVector<SmallVector<int64_t>> perDim;
    for (size_t i = 0; i < k; ++i) {
      perDim.push_back(avgCounts(xs[i + 2], ys[i + 2], window[i],
                                 win.strides[i], win.dilations[i], win.low[i],
                                 win.high[i], op.getCountIncludePad()));
    }
    SmallVector<int64_t> spatial(ys.drop_front(2));
    int64_t total = 1;
    for (int64_t s : spatial) {
      total *= s;
    }
    SmallVector<Attribute> inv;
    for (int64_t flat = 0; flat < total; ++flat) {
      int64_t rest = flat, count = 1;
      for (size_t i = k; i-- > 0;) {
        count *= perDim[i][rest % spatial[i]];
        rest /= spatial[i];
      }
      inv.push_back(FloatAttr::get(e, count ? 1.0 / count : 0.0));
    }
    auto invType = RankedTensorType::get(spatial, e);
    Value divisor = gb.value<ConstantOp>(
        {}, {gb.attr("value", DenseElementsAttr::get(invType, inv))});
    gScaled = gb.mul(g, divisor);
  }
  int64_t n = xs[0], c = xs[1], taps = 1, positions = 1, plane = 1;
  for (size_t i = 0; i < k; ++i) {
    taps *= window[i];
    positions *= ys[i + 2];
    plane *= xs[i + 2];
  }
  if (isMax) {
    // The first maximum of the window (row-major taps) takes it all: `cell`
    // is that tap's input cell, flat over x's spatial dimensions, negative
    // where it is padding or none matches (a NaN window), built from the
    // last tap backwards; then each window's gradient is added into zeros
    // at its cell (scatter_elements, one visit per window). The earlier
    // form, a column per tap ([N, C * taps, positions], zero off the
    // maximum) summed per input cell by graph.col2im, wrote and read taps
    // times the gradient's size and gathered with divisions per tap: ~5% of
    // ResNet-18's training step for its one max pool (docs/design/
    // conv-codegen.md, "Where the step's time goes against PyTorch").
    Type it = plane < (int64_t(1) << 29) && k <= 3
                  ? Type(gb.builder().getI32Type())
                  : Type(gb.builder().getI64Type());
    // A tap's cell is the sum over the spatial dimensions of its position
    // times the dimension's stride in x, each from a table over that
    // dimension's output positions (broadcast against the others), where a
    // position in the padding is `outside`: negative enough that the sum is
    // negative whatever the other terms, and no sum of k of them wraps.
    int64_t outside =
        it.isInteger(32) ? -(int64_t(1) << 29) : -(int64_t(1) << 40);
    Value cell = gb.scalar(it, -1);
    for (int64_t t = taps; t-- > 0;) {
      SmallVector<int64_t> starts(rank, 0), limits(padded), strides(rank, 1),
          tap(k);
      for (int64_t i = k, rest = t; i-- > 0; rest /= window[i]) {
        tap[i] = rest % window[i];
        starts[i + 2] = tap[i] * win.dilations[i];
        limits[i + 2] = starts[i + 2] + (ys[i + 2] - 1) * win.strides[i] + 1;
        strides[i + 2] = win.strides[i];
      }
      Value tapCells;
      for (int64_t i = 0, scale = plane; i < int64_t(k); ++i) {
        scale /= xs[i + 2];
        SmallVector<APInt> terms;
        for (int64_t o = 0; o < ys[i + 2]; ++o) {
          int64_t pos =
              o * win.strides[i] - low[i + 2] + tap[i] * win.dilations[i];
          bool inside = pos >= 0 && pos < xs[i + 2];
          terms.push_back(APInt(it.getIntOrFloatBitWidth(),
                                inside ? pos * scale : outside,
                                /*isSigned=*/true));
        }
        SmallVector<int64_t> shape(k, 1);
        shape[i] = ys[i + 2];
        Value term = gb.value<ConstantOp>(
            {},
            {gb.attr("value", DenseElementsAttr::get(
                                  RankedTensorType::get(shape, it), terms))});
        tapCells = tapCells ? gb.add(tapCells, term) : term;
      }
      Value hit = gb.compare(gb.slice(xp, starts, limits, strides), y, CD::eq);
      cell = gb.select(hit, tapCells, cell);
    }
    Value found = gb.compare(cell, gb.scalar(it, 0), CD::ge);
    Value updates = gb.select(found, g, gb.scalar(e, 0));
    Value at = gb.select(found, cell, gb.scalar(it, 0));
    SmallVector<int64_t> flat = {n, c, positions};
    Value dx = scatterAdd(gb, RankedTensorType::get({n, c, plane}, e),
                          gb.reshape(at, flat), gb.reshape(updates, flat), 2);
    r.set(0, gb.reshape(dx, xs));
    return;
  }
  // Average pooling's adjoint is a gather: every window's gradient over its
  // divisor, broadcast over its taps as a column of Col2Im's input
  // [N, C * taps, positions], and graph.col2im sums, for each input cell,
  // the columns of the windows that cover it. The earlier form unsliced
  // every tap's share into a zero tensor of the padded input's size and
  // added them: taps full-size buffers, several passes each
  // (docs/design/training.md).
  SmallVector<int64_t> columns = {n, c, taps, positions};
  Value cols =
      gb.broadcastTo(gb.reshape(gScaled, {n, c, 1, positions}), columns);
  SmallVector<int64_t> pads;
  for (size_t i = 0; i < k; ++i) {
    pads.push_back(low[i + 2]);
  }
  for (size_t i = 0; i < k; ++i) {
    pads.push_back(high[i + 2]);
  }
  r.set(0, gb.value<Col2ImOp>({gb.reshape(cols, {n, c * taps, positions})},
                              {gb.i64s("image_shape", xs.drop_front(2)),
                               gb.i64s("block_shape", window),
                               gb.i64s("dilations", win.dilations),
                               gb.i64s("pads", pads),
                               gb.i64s("strides", win.strides)}));
}

//===----------------------------------------------------------------------===//
// Normalisation
//===----------------------------------------------------------------------===//

/// The adjoints of y = xhat * scale + bias, xhat = (x - mean) * rstd with
/// the statistics over `axes` (M elements each). `scale` and `bias` are
/// already broadcastable to x; gScale/gBias are summed over `paramAxes`.
struct NormGrads {
  Value dx, dscale, dbias;
};
/// `batchStatistics`: the statistics are the batch's (batch_norm_train),
/// so the sums over `axes` in dx are sums over the batch, marked
/// `graph.batch_statistic` for dist-place: under --replicas each replica's
/// share is all-reduced where it is used (synchronised batch norm,
/// docs/design/training.md).
NormGrads normGrads(GradientBuilder &gb, Value g, Value xhat, Value rstd,
                    Value scale, ArrayRef<int64_t> axes, int64_t m,
                    ArrayRef<int64_t> paramAxes, bool wantX,
                    bool batchStatistics = false) {
  NormGrads out;
  auto mark = [&](Value sum) {
    if (batchStatistics) {
      if (Operation *def = sum.getDefiningOp()) {
        def->setAttr("graph.batch_statistic", UnitAttr::get(def->getContext()));
      }
    }
    return sum;
  };
  if (wantX && ArrayRef<int64_t>(axes) == paramAxes) {
    // Batch norm: the parameters are per channel, the statistics over the
    // other axes, so sum(g*scale) and sum(g*scale*xhat) in dx are the
    // channel's scale times dbias and dscale. Two sums over the data, not
    // four: dx = rstd*scale * (g - sum(g)/M - xhat*sum(g*xhat)/M). Under
    // --replicas the sums are all-reduced where they are computed
    // (batchStatistics), so dbias and dscale are the global batch's
    // already, which is what the all-reduce of a gradient would make them.
    Value sg = mark(gb.sum(g, axes, /*keepdims=*/true));
    Value sgx = mark(gb.sum(gb.mul(g, xhat), axes, /*keepdims=*/true));
    SmallVector<int64_t> paramShape;
    for (auto [i, size] :
         llvm::enumerate(GradientBuilder::typeOf(g).getShape())) {
      if (!llvm::is_contained(axes, int64_t(i))) {
        paramShape.push_back(size);
      }
    }
    out.dbias = gb.reshape(sg, paramShape);
    out.dscale = gb.reshape(sgx, paramShape);
    Value centered = gb.sub(gb.sub(g, gb.scale(sg, 1.0 / m)),
                            gb.mul(xhat, gb.scale(sgx, 1.0 / m)));
    out.dx = gb.mul(gb.mul(rstd, scale), centered);
    return out;
  }
  out.dbias = gb.sum(g, paramAxes, /*keepdims=*/false);
  out.dscale = gb.sum(gb.mul(g, xhat), paramAxes, /*keepdims=*/false);
  if (!wantX) {
    return out;
  }
  // dx = rstd/M * (M*gh - sum(gh) - xhat*sum(gh*xhat)), gh = g*scale.
  Value gh = gb.mul(g, scale);
  Value s1 = gb.sum(gh, axes, /*keepdims=*/true);
  Value s2 = gb.sum(gb.mul(gh, xhat), axes, /*keepdims=*/true);
  mark(s1);
  mark(s2);
  Value inner = gb.sub(gb.sub(gb.scale(gh, m), s1), gb.mul(xhat, s2));
  out.dx = gb.mul(gb.scale(rstd, 1.0 / m), inner);
  return out;
}

void batchNormTrainRule(Rule &r, BatchNormTrainOp op) {
  GradientBuilder &gb = r.gb;
  Value x = op.getInput();
  ArrayRef<int64_t> xs = shapeOf(x);
  int64_t c = xs[1], m = 1;
  SmallVector<int64_t> axes, bshape(xs.size(), 1);
  bshape[1] = c;
  for (size_t i = 0; i < xs.size(); ++i) {
    if (i != 1) {
      axes.push_back(i);
      m *= xs[i];
    }
  }
  Type e = GradientBuilder::elementOf(x);
  Value mean = gb.reshape(op.getBatchMean(), bshape);
  Value var = gb.reshape(op.getBatchVariance(), bshape);
  Value rstd = gb.value<RsqrtOp>(
      {gb.add(var, gb.scalar(e, op.getEpsilon().convertToDouble()))});
  Value centered = gb.sub(x, mean);
  Value xhat = gb.mul(centered, rstd);
  Value dx;
  if (Value g = r.resultGrads[0]) {
    NormGrads n =
        normGrads(gb, g, xhat, rstd, gb.reshape(op.getScale(), bshape), axes, m,
                  axes, r.want(0), /*batchStatistics=*/true);
    dx = n.dx;
    r.set(1, n.dscale);
    r.set(2, n.dbias);
  }
  if (r.want(0)) {
    // The statistics are results too: mean by 1/M, the biased variance by
    // 2(x - mean)/M.
    if (Value gm = r.resultGrads[1]) {
      Value part =
          gb.broadcastTo(gb.scale(gb.reshape(gm, bshape), 1.0 / m), xs);
      dx = dx ? gb.add(dx, part) : part;
    }
    if (Value gv = r.resultGrads[2]) {
      Value part = gb.mul(gb.scale(gb.reshape(gv, bshape), 2.0 / m), centered);
      dx = dx ? gb.add(dx, part) : part;
    }
    r.set(0, dx);
  }
}

void batchNormRule(Rule &r, BatchNormOp op) {
  GradientBuilder &gb = r.gb;
  Value x = op.getInput(), g = r.g();
  ArrayRef<int64_t> xs = shapeOf(x);
  SmallVector<int64_t> axes, bshape(xs.size(), 1);
  bshape[1] = xs[1];
  for (size_t i = 0; i < xs.size(); ++i) {
    if (i != 1) {
      axes.push_back(i);
    }
  }
  Type e = GradientBuilder::elementOf(x);
  Value scale = gb.reshape(op.getScale(), bshape);
  Value mean = gb.reshape(op.getMean(), bshape);
  Value rstd = gb.value<RsqrtOp>(
      {gb.add(gb.reshape(op.getVariance(), bshape),
              gb.scalar(e, op.getEpsilon().convertToDouble()))});
  Value centered = gb.sub(x, mean);
  Value gs = gb.mul(g, gb.mul(scale, rstd));
  r.set(0, gs);
  r.set(1, gb.sum(gb.mul(g, gb.mul(centered, rstd)), axes, false));
  r.set(2, gb.sum(g, axes, false));
  if (r.want(3)) {
    r.set(3, gb.neg(gb.sum(gs, axes, false)));
  }
  if (r.want(4)) {
    // d rstd / d var = -rstd^3 / 2.
    Value r3 = gb.mul(rstd, gb.mul(rstd, rstd));
    r.set(4, gb.reshape(gb.sum(gb.mul(gb.mul(g, centered),
                                      gb.scale(gb.mul(scale, r3), -0.5)),
                               axes, true),
                        {xs[1]}));
  }
}

void layerNormRule(Rule &r, LayerNormOp op) {
  GradientBuilder &gb = r.gb;
  Value x = op.getInput(), g = r.g();
  ArrayRef<int64_t> xs = shapeOf(x);
  int64_t axis = normalize(op.getAxis(), xs.size()), m = 1;
  SmallVector<int64_t> axes, lead;
  for (int64_t i = 0; i < static_cast<int64_t>(xs.size()); ++i) {
    if (i >= axis) {
      axes.push_back(i);
      m *= xs[i];
    } else {
      lead.push_back(i);
    }
  }
  Type e = GradientBuilder::elementOf(x);
  Value mean = gb.reduce(x, ReduceKind::mean, axes, /*keepdims=*/true);
  Value centered = gb.sub(x, mean);
  Value var = gb.reduce(gb.mul(centered, centered), ReduceKind::mean, axes,
                        /*keepdims=*/true);
  Value rstd = gb.value<RsqrtOp>(
      {gb.add(var, gb.scalar(e, op.getEpsilon().convertToDouble()))});
  Value xhat = gb.mul(centered, rstd);
  NormGrads n =
      normGrads(gb, g, xhat, rstd, op.getScale(), axes, m, lead, r.want(0));
  r.set(0, n.dx);
  r.set(1, n.dscale);
  if (op.getBias()) {
    r.set(2, n.dbias);
  }
}

} // namespace

//===----------------------------------------------------------------------===//
// Entry points
//===----------------------------------------------------------------------===//

std::optional<std::string>
graphc::autodiff::whyNotDifferentiable(Operation *op) {
  return llvm::TypeSwitch<Operation *, std::optional<std::string>>(op)
      .Case([](ReduceOp r) -> std::optional<std::string> {
        if (r.getKind() == ReduceKind::prod) {
          return std::string("its reduction kind 'prod' has no gradient rule");
        }
        return std::nullopt;
      })
      .Case([](PadOp p) -> std::optional<std::string> {
        if (p.getMode() != PadMode::constant) {
          return "its mode '" + stringifyPadMode(p.getMode()).str() +
                 "' has no gradient rule (only 'constant')";
        }
        return std::nullopt;
      })
      .Case([](ConvTransposeOp ct) -> std::optional<std::string> {
        // The adjoint convolution gives back the input's size only when
        // the extra output cells are fewer than the stride.
        auto pads = ct.getOutputPadding();
        auto strides = ct.getStrides();
        for (size_t i = 0; pads && i < pads->size(); ++i) {
          int64_t s = strides ? (*strides)[i] : 1;
          if ((*pads)[i] >= s) {
            return "output_padding " + std::to_string((*pads)[i]) +
                   " is not smaller than its stride " + std::to_string(s);
          }
        }
        return std::nullopt;
      })
      .Case([](ResizeOp rs) -> std::optional<std::string> {
        if (rs.getMode() != ResizeMode::nearest) {
          return "its mode '" + stringifyResizeMode(rs.getMode()).str() +
                 "' has no gradient rule (only 'nearest')";
        }
        if (rs.getCoordinateMode() == CoordinateMode::tf_crop_and_resize) {
          return std::string("its coordinate mode 'tf_crop_and_resize' has "
                             "no gradient rule");
        }
        return std::nullopt;
      })
      .Case([](CumulativeOp c) -> std::optional<std::string> {
        if (c.getKind() != ReduceKind::sum) {
          return "its kind '" + stringifyReduceKind(c.getKind()).str() +
                 "' has no gradient rule (only 'sum')";
        }
        return std::nullopt;
      })
      .Case([](GatherOp gth) -> std::optional<std::string> {
        if (gth.getBatchDims() != 0) {
          return "batch_dims = " + std::to_string(gth.getBatchDims()) +
                 " has no gradient rule (only 0)";
        }
        return std::nullopt;
      })
      .Case<GRAPHC_UNARY_RULE_OPS, GRAPHC_BINARY_RULE_OPS, GRAPHC_ZERO_RULE_OPS,
            GRAPHC_RESHAPE_RULE_OPS, GRAPHC_OTHER_RULE_OPS>(
          [](Operation *) { return std::nullopt; })
      .Default([](Operation *) {
        return std::string("graph-autodiff has no gradient rule for it");
      });
}

void graphc::autodiff::buildGradients(Operation *op,
                                      ArrayRef<Value> resultGrads,
                                      ArrayRef<bool> wanted,
                                      GradientBuilder &gb,
                                      SmallVectorImpl<Value> &operandGrads) {
  operandGrads.assign(op->getNumOperands(), Value());
  Rule r{gb, resultGrads, wanted, operandGrads};
  auto reshapeBack = [&](Operation *o) {
    r.set(0, gb.reshape(r.g(), shapeOf(o->getOperand(0))));
  };
  llvm::TypeSwitch<Operation *>(op)
      .Case<GRAPHC_UNARY_RULE_OPS>([&](Operation *o) { unaryRule(r, o); })
      .Case<GRAPHC_BINARY_RULE_OPS>([&](Operation *o) { binaryRule(r, o); })
      // Piecewise constant: the gradient is zero almost everywhere.
      .Case<GRAPHC_ZERO_RULE_OPS>([](Operation *) {})
      .Case([&](ClampOp o) { clampRule(r, o); })
      .Case([&](SelectOp o) { selectRule(r, o); })
      .Case([&](ReduceOp o) { reduceRule(r, o); })
      .Case([&](SoftmaxOp o) { softmaxRule(r, o, o.getAxis(), false); })
      .Case([&](LogSoftmaxOp o) { softmaxRule(r, o, o.getAxis(), true); })
      .Case([&](SoftmaxCrossEntropyOp o) { crossEntropyRule(r, o); })
      .Case<GRAPHC_RESHAPE_RULE_OPS>(reshapeBack)
      .Case([&](TransposeOp o) {
        SmallVector<int64_t> inverse(o.getPerm().size());
        for (auto [i, p] : llvm::enumerate(o.getPerm())) {
          inverse[p] = i;
        }
        r.set(0, gb.transpose(r.g(), inverse));
      })
      .Case([&](BroadcastToOp o) { r.setSummed(0, o.getInput(), r.g()); })
      .Case([&](ConcatOp o) { concatRule(r, o); })
      .Case([&](SplitOp o) { splitRule(r, o); })
      .Case([&](SliceOp o) {
        r.set(0, gb.unslice(r.g(), shapeOf(o.getInput()), o.getStarts(),
                            o.getLimits(), o.getStrides()));
      })
      .Case([&](PadOp o) { padRule(r, o); })
      .Case([&](GatherOp o) { gatherRule(r, o); })
      .Case([&](TileOp o) { tileRule(r, o); })
      .Case([&](LRNOp o) { lrnRule(r, o); })
      .Case([&](ResizeOp o) { resizeRule(r, o); })
      .Case([&](GatherElementsOp o) { gatherElementsRule(r, o); })
      .Case([&](TopKOp o) { topKRule(r, o); })
      .Case([&](CumulativeOp o) { cumulativeRule(r, o); })
      .Case([&](MatMulOp o) { matmulRule(r, o); })
      .Case([&](ConvOp o) { convRule(r, o); })
      .Case([&](ConvTransposeOp o) { convTransposeRule(r, o); })
      .Case([&](PoolOp o) { poolRule(r, o); })
      .Case([&](BatchNormOp o) { batchNormRule(r, o); })
      .Case([&](BatchNormTrainOp o) { batchNormTrainRule(r, o); })
      .Case([&](LayerNormOp o) { layerNormRule(r, o); })
      .Default([](Operation *) {
        llvm_unreachable("whyNotDifferentiable admits an op without a rule");
      });
}
