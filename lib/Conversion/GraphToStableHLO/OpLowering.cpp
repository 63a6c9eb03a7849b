//===- OpLowering.cpp - graph ops to stablehlo ops, one at a time ---------===//
//
// Each graph op becomes the StableHLO ops of its semantics: implicit numpy
// broadcasting becomes broadcast_in_dim, composite ops (softmax,
// normalization, average pooling) their decomposition. Shapes are static
// (the task signature requires it); anything else is an error naming the op.
//
//===----------------------------------------------------------------------===//

#include "OpLowering.h"

#include "graph/GraphOps.h"
#include "stablehlo/StablehloOps.h"

#include "llvm/ADT/TypeSwitch.h"

#include <numeric>

using namespace mlir;
namespace shlo = graphc::stablehlo;

namespace graphc::tostablehlo {

Value scalarConstant(OpBuilder &b, Location loc, Type element, double value) {
  auto type = RankedTensorType::get({}, element);
  Attribute attr;
  if (auto f = dyn_cast<FloatType>(element)) {
    attr = b.getFloatAttr(f, value);
  } else {
    attr = b.getIntegerAttr(element, static_cast<int64_t>(value));
  }
  return shlo::ConstantOp::create(b, loc, type,
                                  DenseElementsAttr::get(type, attr));
}

Value broadcastTo(OpBuilder &b, Location loc, Value x,
                  ArrayRef<int64_t> shape) {
  auto type = cast<RankedTensorType>(x.getType());
  if (type.getShape() == shape) {
    return x;
  }
  int64_t offset = static_cast<int64_t>(shape.size()) - type.getRank();
  SmallVector<int64_t> dims;
  for (int64_t d = 0; d < type.getRank(); ++d) {
    dims.push_back(offset + d);
  }
  return shlo::BroadcastInDimOp::create(
      b, loc, RankedTensorType::get(shape, type.getElementType()), x,
      b.getDenseI64ArrayAttr(dims));
}

void buildReducerBody(OpBuilder &b, Location loc, Region &region, Type element,
                      Combiner combiner) {
  OpBuilder::InsertionGuard guard(b);
  auto scalar = RankedTensorType::get({}, element);
  Block *block = b.createBlock(&region, {}, {scalar, scalar}, {loc, loc});
  Value lhs = block->getArgument(0), rhs = block->getArgument(1);
  Value result;
  switch (combiner) {
  case Combiner::Add:
    result = shlo::AddOp::create(b, loc, scalar, lhs, rhs);
    break;
  case Combiner::Mul:
    result = shlo::MulOp::create(b, loc, scalar, lhs, rhs);
    break;
  case Combiner::Max:
    result = shlo::MaxOp::create(b, loc, scalar, lhs, rhs);
    break;
  case Combiner::Min:
    result = shlo::MinOp::create(b, loc, scalar, lhs, rhs);
    break;
  }
  shlo::ReturnOp::create(b, loc, ValueRange{result});
}

namespace {

using Values = SmallVector<Value>;

RankedTensorType typeOf(Value v) { return cast<RankedTensorType>(v.getType()); }

/// The identity of a combiner for `element` (-inf/+inf, or the integer
/// extremes, for max/min).
double identityOf(Combiner c, Type element) {
  switch (c) {
  case Combiner::Add:
    return 0;
  case Combiner::Mul:
    return 1;
  case Combiner::Max:
  case Combiner::Min: {
    bool max = c == Combiner::Max;
    if (isa<FloatType>(element)) {
      return max ? -std::numeric_limits<double>::infinity()
                 : std::numeric_limits<double>::infinity();
    }
    unsigned bits = element.getIntOrFloatBitWidth();
    if (bits == 1) {
      return max ? 0 : 1;
    }
    bool isUnsigned = element.isUnsignedInteger();
    double lo = isUnsigned ? 0 : -std::ldexp(1.0, bits - 1);
    double hi =
        isUnsigned ? std::ldexp(1.0, bits) - 1 : std::ldexp(1.0, bits - 1) - 1;
    return max ? lo : hi;
  }
  }
  return 0;
}

/// Lowers one op; `fail` makes the error every unsupported case shares.
struct Lowerer {
  OpBuilder &b;
  Operation *op;
  StringRef task;
  Location loc;

  InFlightDiagnostic fail() {
    return op->emitError() << "graph-to-stablehlo: cannot lower '"
                           << op->getName() << "' in task '" << task << "': ";
  }

  RankedTensorType resultType(unsigned i = 0) {
    return cast<RankedTensorType>(op->getResult(i).getType());
  }

  template <typename OpT> Value binary(Value lhs, Value rhs) {
    return OpT::create(b, loc, lhs.getType(), lhs, rhs);
  }

  /// Both operands broadcast to the result's shape, then `OpT`.
  template <typename OpT> Value broadcastBinary(Value lhs, Value rhs) {
    ArrayRef<int64_t> shape = resultType().getShape();
    return binary<OpT>(broadcastTo(b, loc, lhs, shape),
                       broadcastTo(b, loc, rhs, shape));
  }

  Value splatLike(Value like, double value) {
    RankedTensorType t = typeOf(like);
    return broadcastTo(b, loc,
                       scalarConstant(b, loc, t.getElementType(), value),
                       t.getShape());
  }

  Value convert(Value x, Type element) {
    RankedTensorType t = typeOf(x);
    if (t.getElementType() == element) {
      return x;
    }
    return shlo::ConvertOp::create(b, loc, t.clone(element), x);
  }

  Value reshape(Value x, ArrayRef<int64_t> shape) {
    RankedTensorType t = typeOf(x);
    if (t.getShape() == shape) {
      return x;
    }
    return shlo::ReshapeOp::create(b, loc, t.clone(shape), x);
  }

  /// `reduce` of `x` over `dims` with `c`.
  Value reduce(Value x, ArrayRef<int64_t> dims, Combiner c) {
    RankedTensorType t = typeOf(x);
    SmallVector<int64_t> shape;
    for (int64_t d = 0; d < t.getRank(); ++d) {
      if (!llvm::is_contained(dims, d)) {
        shape.push_back(t.getDimSize(d));
      }
    }
    Type e = t.getElementType();
    Value init = scalarConstant(b, loc, e, identityOf(c, e));
    SmallVector<int64_t> sorted(dims);
    llvm::sort(sorted);
    auto r = shlo::ReduceOp::create(
        b, loc, TypeRange{RankedTensorType::get(shape, e)}, ValueRange{x},
        ValueRange{init}, b.getDenseI64ArrayAttr(sorted));
    buildReducerBody(b, loc, r.getBody(), e, c);
    return r.getResult(0);
  }

  /// A reduced `x` (the dimensions not in `dims` kept) broadcast back to
  /// `shape`.
  Value expand(Value reduced, ArrayRef<int64_t> dims, ArrayRef<int64_t> shape) {
    SmallVector<int64_t> kept;
    for (int64_t d = 0; d < static_cast<int64_t>(shape.size()); ++d) {
      if (!llvm::is_contained(dims, d)) {
        kept.push_back(d);
      }
    }
    return shlo::BroadcastInDimOp::create(
        b, loc, RankedTensorType::get(shape, typeOf(reduced).getElementType()),
        reduced, b.getDenseI64ArrayAttr(kept));
  }

  /// A vector along dimension `dim` of `shape`, broadcast to `shape`.
  Value alongDim(Value v, int64_t dim, ArrayRef<int64_t> shape) {
    RankedTensorType t = typeOf(v);
    Value flat = reshape(v, {t.getNumElements()});
    return shlo::BroadcastInDimOp::create(
        b, loc, RankedTensorType::get(shape, t.getElementType()), flat,
        b.getDenseI64ArrayAttr({dim}));
  }

  static int64_t normAxis(int64_t axis, int64_t rank) {
    return axis < 0 ? axis + rank : axis;
  }

  //===--------------------------------------------------------------------===//
  // Elementwise
  //===--------------------------------------------------------------------===//

  template <typename OpT> FailureOr<Values> unary(ValueRange in) {
    return Values{OpT::create(b, loc, in[0].getType(), in[0])};
  }

  FailureOr<Values> compare(graph::CompareOp c, ValueRange in) {
    SmallVector<int64_t> shape(resultType().getShape());
    Value lhs = broadcastTo(b, loc, in[0], shape);
    Value rhs = broadcastTo(b, loc, in[1], shape);
    shlo::ComparisonDirection dir;
    switch (c.getDirection()) {
    case graph::CompareDirection::eq:
      dir = shlo::ComparisonDirection::EQ;
      break;
    case graph::CompareDirection::ne:
      dir = shlo::ComparisonDirection::NE;
      break;
    case graph::CompareDirection::lt:
      dir = shlo::ComparisonDirection::LT;
      break;
    case graph::CompareDirection::le:
      dir = shlo::ComparisonDirection::LE;
      break;
    case graph::CompareDirection::gt:
      dir = shlo::ComparisonDirection::GT;
      break;
    case graph::CompareDirection::ge:
      dir = shlo::ComparisonDirection::GE;
      break;
    }
    return Values{compareValues(lhs, rhs, dir)};
  }

  Value compareValues(Value lhs, Value rhs, shlo::ComparisonDirection dir) {
    Type e = typeOf(lhs).getElementType();
    shlo::ComparisonType kind = isa<FloatType>(e) ? shlo::ComparisonType::FLOAT
                                : e.isUnsignedInteger() || e.isInteger(1)
                                    ? shlo::ComparisonType::UNSIGNED
                                    : shlo::ComparisonType::SIGNED;
    return shlo::CompareOp::create(
        b, loc, typeOf(lhs).clone(b.getI1Type()), lhs, rhs,
        shlo::ComparisonDirectionAttr::get(b.getContext(), dir),
        shlo::ComparisonTypeAttr::get(b.getContext(), kind));
  }

  FailureOr<Values> select(ValueRange in) {
    SmallVector<int64_t> shape(resultType().getShape());
    Value pred = broadcastTo(b, loc, in[0], shape);
    return Values{shlo::SelectOp::create(b, loc, resultType(), pred,
                                         broadcastTo(b, loc, in[1], shape),
                                         broadcastTo(b, loc, in[2], shape))};
  }

  FailureOr<Values> clamp(ValueRange in) {
    SmallVector<int64_t> shape(typeOf(in[0]).getShape());
    auto bound = [&](Value v) {
      return typeOf(v).getRank() == 0 ? v : broadcastTo(b, loc, v, shape);
    };
    return Values{shlo::ClampOp::create(b, loc, in[0].getType(), bound(in[1]),
                                        in[0], bound(in[2]))};
  }

  FailureOr<Values> castElements(ValueRange in) {
    Type to = resultType().getElementType();
    // convert to i1 is x != 0 in the spec too; spelled out so the intent
    // does not depend on the plugin.
    if (to.isInteger(1) && !typeOf(in[0]).getElementType().isInteger(1)) {
      return Values{compareValues(in[0], splatLike(in[0], 0),
                                  shlo::ComparisonDirection::NE)};
    }
    return Values{convert(in[0], to)};
  }

  FailureOr<Values> leakyRelu(graph::LeakyReluOp l, ValueRange in) {
    Value x = in[0];
    Value scaled =
        binary<shlo::MulOp>(x, splatLike(x, l.getAlpha().convertToDouble()));
    Value pos =
        compareValues(x, splatLike(x, 0), shlo::ComparisonDirection::GE);
    return Values{shlo::SelectOp::create(b, loc, x.getType(), pos, x, scaled)};
  }

  //===--------------------------------------------------------------------===//
  // Contractions and windows
  //===--------------------------------------------------------------------===//

  FailureOr<Values> matmul(graph::MatMulOp m, ValueRange in) {
    Type e = resultType().getElementType();
    Value lhs = convert(in[0], e), rhs = convert(in[1], e);
    bool tl = m.getTransposeLhs(), tr = m.getTransposeRhs();
    // numpy: a vector operand is a 1xK row / Kx1 column, dropped after.
    if (typeOf(lhs).getRank() == 1) {
      lhs = reshape(lhs, {1, typeOf(lhs).getDimSize(0)});
      tl = false;
    }
    if (typeOf(rhs).getRank() == 1) {
      rhs = reshape(rhs, {typeOf(rhs).getDimSize(0), 1});
      tr = false;
    }
    RankedTensorType lt = typeOf(lhs), rt = typeOf(rhs);
    // The batch dimensions broadcast to their common shape first:
    // dot_general batches only equal dimensions.
    int64_t lb = lt.getRank() - 2, rb = rt.getRank() - 2;
    int64_t nb = std::max(lb, rb);
    SmallVector<int64_t> batch(nb, 1);
    for (int64_t i = 0; i < nb; ++i) {
      int64_t l = i - (nb - lb) >= 0 ? lt.getDimSize(i - (nb - lb)) : 1;
      int64_t r = i - (nb - rb) >= 0 ? rt.getDimSize(i - (nb - rb)) : 1;
      if (l != r && l != 1 && r != 1) {
        return fail() << "batch dimensions " << l << " and " << r
                      << " do not broadcast";
      }
      batch[i] = std::max(l, r);
    }
    auto withBatch = [&](Value v) {
      RankedTensorType t = typeOf(v);
      SmallVector<int64_t> shape(batch);
      shape.push_back(t.getDimSize(t.getRank() - 2));
      shape.push_back(t.getDimSize(t.getRank() - 1));
      return broadcastTo(b, loc, v, shape);
    };
    lhs = withBatch(lhs);
    rhs = withBatch(rhs);
    SmallVector<int64_t> batchDims(nb);
    std::iota(batchDims.begin(), batchDims.end(), 0);
    int64_t lc = nb + (tl ? 0 : 1), rc = nb + (tr ? 1 : 0);
    int64_t mSize = typeOf(lhs).getDimSize(tl ? nb + 1 : nb);
    int64_t nSize = typeOf(rhs).getDimSize(tr ? nb : nb + 1);
    if (typeOf(lhs).getDimSize(lc) != typeOf(rhs).getDimSize(rc)) {
      return fail() << "contraction sizes " << typeOf(lhs).getDimSize(lc)
                    << " and " << typeOf(rhs).getDimSize(rc) << " differ";
    }
    SmallVector<int64_t> shape(batch);
    shape.push_back(mSize);
    shape.push_back(nSize);
    auto dn = shlo::DotDimensionNumbersAttr::get(b.getContext(), batchDims,
                                                 batchDims, {lc}, {rc});
    Value dot = shlo::DotGeneralOp::create(
        b, loc, RankedTensorType::get(shape, e), lhs, rhs, dn);
    return Values{reshape(dot, resultType().getShape())};
  }

  static DenseIntElementsAttr
  padPairs(OpBuilder &b, ArrayRef<std::pair<int64_t, int64_t>> p) {
    SmallVector<int64_t> flat;
    for (auto [lo, hi] : p) {
      flat.push_back(lo);
      flat.push_back(hi);
    }
    return DenseIntElementsAttr::get(
        RankedTensorType::get({static_cast<int64_t>(p.size()), 2},
                              b.getI64Type()),
        flat);
  }

  FailureOr<Values> conv(graph::ConvOp c, ValueRange in) {
    Value x = in[0], w = in[1];
    int64_t rank = typeOf(x).getRank(), n = rank - 2;
    auto orDefault = [&](std::optional<ArrayRef<int64_t>> a, int64_t v) {
      return a ? SmallVector<int64_t>(*a) : SmallVector<int64_t>(n, v);
    };
    SmallVector<int64_t> strides = orDefault(c.getStrides(), 1),
                         dil = orDefault(c.getDilations(), 1),
                         lo = orDefault(c.getPadLow(), 0),
                         hi = orDefault(c.getPadHigh(), 0);
    if (static_cast<int64_t>(strides.size()) != n ||
        static_cast<int64_t>(dil.size()) != n ||
        static_cast<int64_t>(lo.size()) != n ||
        static_cast<int64_t>(hi.size()) != n) {
      return fail() << "strides, dilations and pads need " << n
                    << " entries each";
    }
    SmallVector<std::pair<int64_t, int64_t>> pads;
    for (int64_t i = 0; i < n; ++i) {
      pads.push_back({lo[i], hi[i]});
    }
    SmallVector<int64_t> spatial(n);
    std::iota(spatial.begin(), spatial.end(), 2);
    // NCHW input, OIHW kernel, NCHW output: graph's (ONNX's) layouts.
    auto dn = shlo::ConvDimensionNumbersAttr::get(b.getContext(), 0, 1, spatial,
                                                  1, 0, spatial, 0, 1, spatial);
    Type e = resultType().getElementType();
    Value y = shlo::ConvolutionOp::create(
        b, loc, resultType(), convert(x, e), convert(w, e),
        b.getDenseI64ArrayAttr(strides), padPairs(b, pads),
        b.getDenseI64ArrayAttr(SmallVector<int64_t>(n, 1)),
        b.getDenseI64ArrayAttr(dil), dn, b.getI64IntegerAttr(c.getGroups()),
        b.getI64IntegerAttr(1));
    if (in.size() > 2) {
      y = binary<shlo::AddOp>(
          y, alongDim(convert(in[2], e), 1, resultType().getShape()));
    }
    return Values{y};
  }

  FailureOr<Values> pool(graph::PoolOp p, ValueRange in) {
    Value x = in[0];
    RankedTensorType t = typeOf(x);
    int64_t rank = t.getRank(), n = rank - 2;
    ArrayRef<int64_t> window = p.getWindow();
    auto orDefault = [&](std::optional<ArrayRef<int64_t>> a, int64_t v) {
      return a ? SmallVector<int64_t>(*a) : SmallVector<int64_t>(n, v);
    };
    SmallVector<int64_t> strides = orDefault(p.getStrides(), 1),
                         dil = orDefault(p.getDilations(), 1),
                         lo = orDefault(p.getPadLow(), 0),
                         hi = orDefault(p.getPadHigh(), 0);
    if (static_cast<int64_t>(window.size()) != n ||
        static_cast<int64_t>(strides.size()) != n ||
        static_cast<int64_t>(dil.size()) != n ||
        static_cast<int64_t>(lo.size()) != n ||
        static_cast<int64_t>(hi.size()) != n) {
      return fail() << "window, strides, dilations and pads need " << n
                    << " entries each";
    }
    SmallVector<int64_t> wd = {1, 1}, ws = {1, 1}, wdil = {1, 1};
    SmallVector<std::pair<int64_t, int64_t>> pads = {{0, 0}, {0, 0}};
    bool extended = false;
    for (int64_t i = 0; i < n; ++i) {
      wd.push_back(window[i]);
      ws.push_back(strides[i]);
      wdil.push_back(dil[i]);
      // ceil_mode: the last, partial window is padded on the high side.
      int64_t in = t.getDimSize(2 + i);
      int64_t span = (window[i] - 1) * dil[i] + 1;
      int64_t got = (in + lo[i] + hi[i] - span) / strides[i] + 1;
      int64_t want = resultType().getDimSize(2 + i);
      int64_t extra = std::max<int64_t>(0, (want - got) * strides[i]);
      extended |= extra > 0;
      pads.push_back({lo[i], hi[i] + extra});
    }
    Type e = t.getElementType();
    bool isMax = p.getKind() == graph::PoolKind::max;
    Combiner c = isMax ? Combiner::Max : Combiner::Add;
    auto window_ = [&](Value v, Combiner comb) {
      Type ve = typeOf(v).getElementType();
      auto r = shlo::ReduceWindowOp::create(
          b, loc, TypeRange{resultType().clone(ve)}, ValueRange{v},
          ValueRange{scalarConstant(b, loc, ve, identityOf(comb, ve))},
          b.getDenseI64ArrayAttr(wd), b.getDenseI64ArrayAttr(ws),
          DenseI64ArrayAttr(), b.getDenseI64ArrayAttr(wdil), padPairs(b, pads));
      buildReducerBody(b, loc, r.getBody(), ve, comb);
      return r.getResult(0);
    };
    Value y = window_(x, c);
    if (isMax) {
      return Values{y};
    }
    if (!isa<FloatType>(e)) {
      return fail() << "average pooling needs a float element type, got " << e;
    }
    bool anyPad = extended || llvm::any_of(pads, [](auto p) {
                    return p.first != 0 || p.second != 0;
                  });
    if (p.getCountIncludePad() && !extended) {
      int64_t size = 1;
      for (int64_t w : window) {
        size *= w;
      }
      return Values{binary<shlo::DivOp>(y, splatLike(y, size))};
    }
    if (!anyPad) {
      int64_t size = 1;
      for (int64_t w : window) {
        size *= w;
      }
      return Values{binary<shlo::DivOp>(y, splatLike(y, size))};
    }
    // Excluded padding: each window divides by its count of real elements.
    Value counts = window_(splatLike(x, 1), Combiner::Add);
    return Values{binary<shlo::DivOp>(y, counts)};
  }

  //===--------------------------------------------------------------------===//
  // Reductions and normalization
  //===--------------------------------------------------------------------===//

  FailureOr<Values> reduction(graph::ReduceOp r, ValueRange in) {
    Value x = in[0];
    RankedTensorType t = typeOf(x);
    SmallVector<int64_t> dims;
    for (int64_t a : r.getAxes()) {
      dims.push_back(normAxis(a, t.getRank()));
    }
    if (dims.empty()) {
      dims.resize(t.getRank());
      std::iota(dims.begin(), dims.end(), 0);
    }
    Value y;
    switch (r.getKind()) {
    case graph::ReduceKind::sum:
    case graph::ReduceKind::mean:
      y = reduce(x, dims, Combiner::Add);
      break;
    case graph::ReduceKind::max:
      y = reduce(x, dims, Combiner::Max);
      break;
    case graph::ReduceKind::min:
      y = reduce(x, dims, Combiner::Min);
      break;
    case graph::ReduceKind::prod:
      y = reduce(x, dims, Combiner::Mul);
      break;
    }
    if (r.getKind() == graph::ReduceKind::mean) {
      int64_t count = 1;
      for (int64_t d : dims) {
        count *= t.getDimSize(d);
      }
      y = binary<shlo::DivOp>(y, splatLike(y, count));
    }
    return Values{reshape(y, resultType().getShape())};
  }

  FailureOr<Values> softmax(int64_t axis, bool log, ValueRange in) {
    Value x = in[0];
    SmallVector<int64_t> shape(typeOf(x).getShape());
    int64_t a = normAxis(axis, shape.size());
    // Subtracting the max keeps exp finite.
    Value shifted = binary<shlo::SubtractOp>(
        x, expand(reduce(x, {a}, Combiner::Max), {a}, shape));
    Value e = shlo::ExpOp::create(b, loc, x.getType(), shifted);
    Value sum = expand(reduce(e, {a}, Combiner::Add), {a}, shape);
    if (log) {
      return Values{binary<shlo::SubtractOp>(
          shifted, shlo::LogOp::create(b, loc, sum.getType(), sum))};
    }
    return Values{binary<shlo::DivOp>(e, sum)};
  }

  /// loss = -sum(labels * log_softmax(logits), 1), grad = softmax - labels;
  /// sparse labels become one-hot rows first (iota == label).
  FailureOr<Values> crossEntropy(graph::SoftmaxCrossEntropyOp ce,
                                 ValueRange in) {
    Value logits = in[0];
    RankedTensorType lt = typeOf(logits);
    if (lt.getRank() != 2) {
      return fail() << "logits must be [batch, classes], got " << lt;
    }
    SmallVector<int64_t> shape(lt.getShape());
    Type e = lt.getElementType();
    Value labels = in[1];
    if (ce.getSparse()) {
      Type it = typeOf(labels).getElementType();
      Value classes = shlo::IotaOp::create(
          b, loc, RankedTensorType::get(shape, it), b.getI64IntegerAttr(1));
      Value rows = shlo::BroadcastInDimOp::create(
          b, loc, RankedTensorType::get(shape, it), labels,
          b.getDenseI64ArrayAttr({0}));
      labels = convert(
          compareValues(classes, rows, shlo::ComparisonDirection::EQ), e);
    } else {
      labels = broadcastTo(b, loc, convert(labels, e), shape);
    }
    FailureOr<Values> logSm = softmax(1, /*log=*/true, ValueRange{logits});
    if (failed(logSm)) {
      return failure();
    }
    Value lsm = (*logSm)[0];
    Value loss = shlo::NegOp::create(
        b, loc, RankedTensorType::get({shape[0]}, e),
        reduce(binary<shlo::MulOp>(labels, lsm), {1}, Combiner::Add));
    Value grad = binary<shlo::SubtractOp>(
        shlo::ExpOp::create(b, loc, lsm.getType(), lsm), labels);
    return Values{reshape(loss, resultType(0).getShape()),
                  reshape(grad, resultType(1).getShape())};
  }

  FailureOr<Values> batchNorm(graph::BatchNormOp bn, ValueRange in) {
    Value x = in[0];
    SmallVector<int64_t> shape(typeOf(x).getShape());
    if (shape.size() < 2) {
      return fail() << "batch_norm needs a channel dimension";
    }
    Type e = typeOf(x).getElementType();
    // Folded per channel first: y = x * factor + shift.
    Value scale = convert(in[1], e), bias = convert(in[2], e),
          mean = convert(in[3], e), var = convert(in[4], e);
    Value eps = splatLike(var, bn.getEpsilon().convertToDouble());
    Value factor = binary<shlo::MulOp>(
        scale, shlo::RsqrtOp::create(b, loc, var.getType(),
                                     binary<shlo::AddOp>(var, eps)));
    Value shift =
        binary<shlo::SubtractOp>(bias, binary<shlo::MulOp>(mean, factor));
    Value y = binary<shlo::MulOp>(x, alongDim(factor, 1, shape));
    return Values{binary<shlo::AddOp>(y, alongDim(shift, 1, shape))};
  }

  FailureOr<Values> layerNorm(graph::LayerNormOp ln, ValueRange in) {
    Value x = in[0];
    SmallVector<int64_t> shape(typeOf(x).getShape());
    int64_t a = normAxis(ln.getAxis(), shape.size());
    SmallVector<int64_t> dims;
    int64_t count = 1;
    for (int64_t d = a; d < static_cast<int64_t>(shape.size()); ++d) {
      dims.push_back(d);
      count *= shape[d];
    }
    auto meanOf = [&](Value v) {
      Value s = reduce(v, dims, Combiner::Add);
      s = binary<shlo::DivOp>(s, splatLike(s, count));
      return expand(s, dims, shape);
    };
    Value diff = binary<shlo::SubtractOp>(x, meanOf(x));
    Value var = meanOf(binary<shlo::MulOp>(diff, diff));
    Value inv = shlo::RsqrtOp::create(
        b, loc, var.getType(),
        binary<shlo::AddOp>(var,
                            splatLike(var, ln.getEpsilon().convertToDouble())));
    Value y = binary<shlo::MulOp>(diff, inv);
    y = binary<shlo::MulOp>(y, broadcastTo(b, loc, in[1], shape));
    if (in.size() > 2) {
      y = binary<shlo::AddOp>(y, broadcastTo(b, loc, in[2], shape));
    }
    return Values{y};
  }

  //===--------------------------------------------------------------------===//
  // Data movement
  //===--------------------------------------------------------------------===//

  FailureOr<Values> concat(graph::ConcatOp c, ValueRange in) {
    int64_t axis = normAxis(c.getAxis(), resultType().getRank());
    return Values{shlo::ConcatenateOp::create(b, loc, resultType(), in,
                                              b.getI64IntegerAttr(axis))};
  }

  FailureOr<Values> slice(graph::SliceOp s, ValueRange in) {
    if (llvm::any_of(s.getStrides(), [](int64_t v) { return v <= 0; })) {
      return fail() << "slice strides must be positive (a reversing slice "
                       "has no lowering yet)";
    }
    // Negative bounds count from the end, and bounds clamp to the size.
    RankedTensorType t = typeOf(in[0]);
    SmallVector<int64_t> starts, limits;
    for (int64_t d = 0; d < t.getRank(); ++d) {
      auto clampIndex = [&](int64_t v) {
        int64_t n = t.getDimSize(d);
        return std::clamp<int64_t>(v < 0 ? v + n : v, 0, n);
      };
      starts.push_back(clampIndex(s.getStarts()[d]));
      limits.push_back(std::max(starts.back(), clampIndex(s.getLimits()[d])));
    }
    return Values{shlo::SliceOp::create(
        b, loc, resultType(), in[0], b.getDenseI64ArrayAttr(starts),
        b.getDenseI64ArrayAttr(limits),
        b.getDenseI64ArrayAttr(s.getStrides()))};
  }

  FailureOr<Values> pad(graph::PadOp p, ValueRange in) {
    if (p.getMode() != graph::PadMode::constant) {
      return fail() << "only constant padding has a StableHLO lowering";
    }
    Value value = reshape(in[1], {});
    SmallVector<int64_t> zeros(typeOf(in[0]).getRank(), 0);
    return Values{shlo::PadOp::create(
        b, loc, resultType(), in[0], value, b.getDenseI64ArrayAttr(p.getLow()),
        b.getDenseI64ArrayAttr(p.getHigh()), b.getDenseI64ArrayAttr(zeros))};
  }

  FailureOr<Values> gather(graph::GatherOp g, ValueRange in) {
    if (g.getBatchDims() != 0) {
      return fail() << "batch_dims " << g.getBatchDims()
                    << " is not supported (only 0)";
    }
    Value x = in[0], idx = in[1];
    RankedTensorType xt = typeOf(x), it = typeOf(idx);
    int64_t axis = normAxis(g.getAxis(), xt.getRank());
    // Negative indices count from the end.
    Value size = splatLike(idx, xt.getDimSize(axis));
    Value neg =
        compareValues(idx, splatLike(idx, 0), shlo::ComparisonDirection::LT);
    idx = shlo::SelectOp::create(b, loc, idx.getType(), neg,
                                 binary<shlo::AddOp>(idx, size), idx);
    SmallVector<int64_t> offsetDims, sliceSizes(xt.getShape());
    sliceSizes[axis] = 1;
    for (int64_t d = 0; d < xt.getRank(); ++d) {
      if (d < axis) {
        offsetDims.push_back(d);
      } else if (d > axis) {
        offsetDims.push_back(d - 1 + it.getRank());
      }
    }
    auto dn = shlo::GatherDimensionNumbersAttr::get(
        b.getContext(), offsetDims, {axis}, {axis}, it.getRank());
    return Values{shlo::GatherOp::create(b, loc, resultType(), x, idx, dn,
                                         b.getDenseI64ArrayAttr(sliceSizes),
                                         b.getBoolAttr(false))};
  }

  FailureOr<Values> run(ValueRange in) {
    for (Type t : op->getResultTypes()) {
      auto r = dyn_cast<RankedTensorType>(t);
      if (!r || !r.hasStaticShape()) {
        return fail() << "result type " << t
                      << " is not static; fix shapes with --input-shape";
      }
    }
    return llvm::TypeSwitch<Operation *, FailureOr<Values>>(op)
        .Case([&](graph::ConstantOp c) -> FailureOr<Values> {
          return Values{
              shlo::ConstantOp::create(b, loc, resultType(), c.getValue())};
        })
        .Case([&](graph::IdentityOp) { return Values{in[0]}; })
        .Case([&](graph::NegOp) { return unary<shlo::NegOp>(in); })
        .Case([&](graph::AbsOp) { return unary<shlo::AbsOp>(in); })
        .Case([&](graph::ExpOp) { return unary<shlo::ExpOp>(in); })
        .Case([&](graph::LogOp) { return unary<shlo::LogOp>(in); })
        .Case([&](graph::SqrtOp) { return unary<shlo::SqrtOp>(in); })
        .Case([&](graph::RsqrtOp) { return unary<shlo::RsqrtOp>(in); })
        .Case([&](graph::TanhOp) { return unary<shlo::TanhOp>(in); })
        .Case([&](graph::TanOp) { return unary<shlo::TanOp>(in); })
        .Case([&](graph::SigmoidOp) { return unary<shlo::LogisticOp>(in); })
        .Case([&](graph::FloorOp) { return unary<shlo::FloorOp>(in); })
        .Case([&](graph::CeilOp) { return unary<shlo::CeilOp>(in); })
        .Case([&](graph::RoundOp) { return unary<shlo::RoundEvenOp>(in); })
        .Case([&](graph::SinOp) { return unary<shlo::SineOp>(in); })
        .Case([&](graph::CosOp) { return unary<shlo::CosineOp>(in); })
        .Case([&](graph::SignOp) { return unary<shlo::SignOp>(in); })
        .Case([&](graph::NotOp) { return unary<shlo::NotOp>(in); })
        .Case([&](graph::BitwiseNotOp) { return unary<shlo::NotOp>(in); })
        .Case([&](graph::ReluOp) -> FailureOr<Values> {
          return Values{binary<shlo::MaxOp>(in[0], splatLike(in[0], 0))};
        })
        .Case([&](graph::ReciprocalOp) -> FailureOr<Values> {
          return Values{binary<shlo::DivOp>(splatLike(in[0], 1), in[0])};
        })
        .Case([&](graph::SoftplusOp) -> FailureOr<Values> {
          Value e = shlo::ExpOp::create(b, loc, in[0].getType(), in[0]);
          return Values{shlo::Log1pOp::create(b, loc, e.getType(), e)};
        })
        .Case([&](graph::LeakyReluOp l) { return leakyRelu(l, in); })
        .Case([&](graph::AddOp) {
          return Values{broadcastBinary<shlo::AddOp>(in[0], in[1])};
        })
        .Case([&](graph::SubOp) {
          return Values{broadcastBinary<shlo::SubtractOp>(in[0], in[1])};
        })
        .Case([&](graph::MulOp) {
          return Values{broadcastBinary<shlo::MulOp>(in[0], in[1])};
        })
        .Case([&](graph::DivOp) {
          return Values{broadcastBinary<shlo::DivOp>(in[0], in[1])};
        })
        .Case([&](graph::PowOp) {
          return Values{broadcastBinary<shlo::PowOp>(in[0], in[1])};
        })
        .Case([&](graph::MaxOp) {
          return Values{broadcastBinary<shlo::MaxOp>(in[0], in[1])};
        })
        .Case([&](graph::MinOp) {
          return Values{broadcastBinary<shlo::MinOp>(in[0], in[1])};
        })
        .Case([&](graph::AndOp) {
          return Values{broadcastBinary<shlo::AndOp>(in[0], in[1])};
        })
        .Case([&](graph::OrOp) {
          return Values{broadcastBinary<shlo::OrOp>(in[0], in[1])};
        })
        .Case([&](graph::XorOp) {
          return Values{broadcastBinary<shlo::XorOp>(in[0], in[1])};
        })
        .Case([&](graph::BitwiseAndOp) {
          return Values{broadcastBinary<shlo::AndOp>(in[0], in[1])};
        })
        .Case([&](graph::BitwiseOrOp) {
          return Values{broadcastBinary<shlo::OrOp>(in[0], in[1])};
        })
        .Case([&](graph::BitwiseXorOp) {
          return Values{broadcastBinary<shlo::XorOp>(in[0], in[1])};
        })
        .Case([&](graph::CompareOp c) { return compare(c, in); })
        .Case([&](graph::SelectOp) { return select(in); })
        .Case([&](graph::ClampOp) { return clamp(in); })
        .Case([&](graph::CastOp) { return castElements(in); })
        .Case([&](graph::MatMulOp m) { return matmul(m, in); })
        .Case([&](graph::ConvOp c) { return conv(c, in); })
        .Case([&](graph::PoolOp p) { return pool(p, in); })
        .Case([&](graph::ReduceOp r) { return reduction(r, in); })
        .Case([&](graph::SoftmaxOp s) {
          return softmax(s.getAxis(), /*log=*/false, in);
        })
        .Case([&](graph::LogSoftmaxOp s) {
          return softmax(s.getAxis(), /*log=*/true, in);
        })
        .Case([&](graph::BatchNormOp bn) { return batchNorm(bn, in); })
        .Case([&](graph::SoftmaxCrossEntropyOp ce) {
          return crossEntropy(ce, in);
        })
        .Case([&](graph::LayerNormOp ln) { return layerNorm(ln, in); })
        .Case<graph::ReshapeOp, graph::SqueezeOp, graph::UnsqueezeOp>(
            [&](Operation *) {
              return Values{reshape(in[0], resultType().getShape())};
            })
        .Case([&](graph::TransposeOp t) -> FailureOr<Values> {
          return Values{
              shlo::TransposeOp::create(b, loc, resultType(), in[0],
                                        b.getDenseI64ArrayAttr(t.getPerm()))};
        })
        .Case([&](graph::BroadcastToOp) -> FailureOr<Values> {
          return Values{broadcastTo(b, loc, in[0], resultType().getShape())};
        })
        .Case([&](graph::ConcatOp c) { return concat(c, in); })
        .Case([&](graph::SliceOp s) { return slice(s, in); })
        .Case([&](graph::PadOp p) { return pad(p, in); })
        .Case([&](graph::GatherOp g) { return gather(g, in); })
        .Case([&](graph::SGDUpdateOp) -> FailureOr<Values> {
          Value param = in[0];
          SmallVector<int64_t> shape(typeOf(param).getShape());
          Value step = binary<shlo::MulOp>(broadcastTo(b, loc, in[2], shape),
                                           broadcastTo(b, loc, in[1], shape));
          return Values{binary<shlo::SubtractOp>(param, step)};
        })
        .Default([&](Operation *) -> FailureOr<Values> {
          return fail() << "no StableHLO lowering for this op yet "
                           "(docs/design/stablehlo.md lists what is lowered); "
                           "compile this model for --target=cpu";
        });
  }
};

} // namespace

FailureOr<SmallVector<Value>>
lowerGraphOp(OpBuilder &b, Operation *op, ValueRange operands, StringRef task) {
  Lowerer l{b, op, task, op->getLoc()};
  return l.run(operands);
}

} // namespace graphc::tostablehlo
