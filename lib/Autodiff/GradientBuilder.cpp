//===- GradientBuilder.cpp - graph-op builders for gradient rules ---------===//

#include "GradientBuilder.h"

#include "mlir/IR/BuiltinAttributes.h"

using namespace mlir;
using namespace graphc;
using namespace graphc::graph;
using namespace graphc::autodiff;

Value GradientBuilder::splat(RankedTensorType type, double v) {
  Type element = type.getElementType();
  Attribute scalarAttr;
  if (auto f = dyn_cast<FloatType>(element)) {
    scalarAttr = b.getFloatAttr(f, v);
  } else if (element.isInteger(1)) {
    scalarAttr = b.getBoolAttr(v != 0.0);
  } else {
    scalarAttr = b.getIntegerAttr(element, static_cast<int64_t>(v));
  }
  return value<ConstantOp>(
      {}, {attr("value", DenseElementsAttr::get(type, scalarAttr))});
}

Value GradientBuilder::scalar(Type element, double v) {
  return splat(RankedTensorType::get({}, element), v);
}

Value GradientBuilder::add(Value a, Value c) { return value<AddOp>({a, c}); }
Value GradientBuilder::sub(Value a, Value c) { return value<SubOp>({a, c}); }
Value GradientBuilder::mul(Value a, Value c) { return value<MulOp>({a, c}); }
Value GradientBuilder::div(Value a, Value c) { return value<DivOp>({a, c}); }
Value GradientBuilder::neg(Value a) { return value<NegOp>({a}); }

Value GradientBuilder::scale(Value a, double v) {
  return mul(a, scalar(elementOf(a), v));
}

Value GradientBuilder::compare(Value a, Value c, CompareDirection direction) {
  return value<CompareOp>(
      {a, c},
      {attr("direction", CompareDirectionAttr::get(context(), direction))});
}

Value GradientBuilder::select(Value cond, Value t, Value f) {
  return value<SelectOp>({cond, t, f});
}

Value GradientBuilder::where(Value cond, Value g) {
  Value result = select(cond, g, scalar(elementOf(g), 0.0));
  // The condition may broadcast g up; the adjoint keeps g's shape.
  return sumTo(result, typeOf(g));
}

Value GradientBuilder::reshape(Value v, ArrayRef<int64_t> shape) {
  if (typeOf(v).getShape() == shape) {
    return v;
  }
  return value<ReshapeOp>({v}, {i64s("shape", shape)});
}

Value GradientBuilder::transpose(Value v, ArrayRef<int64_t> perm) {
  bool identity = true;
  for (auto [i, p] : llvm::enumerate(perm)) {
    identity &= static_cast<int64_t>(i) == p;
  }
  if (identity) {
    return v;
  }
  return value<TransposeOp>({v}, {i64s("perm", perm)});
}

Value GradientBuilder::broadcastTo(Value v, ArrayRef<int64_t> shape) {
  if (typeOf(v).getShape() == shape) {
    return v;
  }
  return value<BroadcastToOp>({v}, {i64s("shape", shape)});
}

Value GradientBuilder::reduce(Value v, ReduceKind kind, ArrayRef<int64_t> axes,
                              bool keepdims) {
  if (axes.empty()) {
    return v;
  }
  SmallVector<NamedAttribute> attrs = {
      attr("kind", ReduceKindAttr::get(context(), kind)), i64s("axes", axes)};
  if (keepdims) {
    attrs.push_back(unit("keepdims"));
  }
  return value<ReduceOp>({v}, attrs);
}

Value GradientBuilder::sumAll(Value v) {
  return sum(v, llvm::to_vector(llvm::seq<int64_t>(0, typeOf(v).getRank())),
             /*keepdims=*/false);
}

Value GradientBuilder::slice(Value v, ArrayRef<int64_t> starts,
                             ArrayRef<int64_t> limits,
                             ArrayRef<int64_t> strides) {
  return value<SliceOp>({v}, {i64s("starts", starts), i64s("limits", limits),
                              i64s("strides", strides)});
}

Value GradientBuilder::pad(Value v, ArrayRef<int64_t> low,
                           ArrayRef<int64_t> high, double fill) {
  if (llvm::all_of(low, [](int64_t p) { return p == 0; }) &&
      llvm::all_of(high, [](int64_t p) { return p == 0; })) {
    return v;
  }
  // Defaulted attributes are spelled out: type inference reads them before
  // the op exists to fill them in.
  return value<PadOp>(
      {v, scalar(elementOf(v), fill)},
      {i64s("low", low), i64s("high", high),
       attr("mode", PadModeAttr::get(context(), PadMode::constant))});
}

Value GradientBuilder::cast(Value v, Type element) {
  if (elementOf(v) == element) {
    return v;
  }
  return value<CastOp>({v}, {attr("to", TypeAttr::get(element))});
}

Value GradientBuilder::sumTo(Value g, RankedTensorType target) {
  RankedTensorType from = typeOf(g);
  if (from.getShape() == target.getShape()) {
    return g;
  }
  int64_t lead = from.getRank() - target.getRank();
  SmallVector<int64_t> axes;
  for (int64_t i = 0; i < from.getRank(); ++i) {
    if (i < lead ||
        (target.getDimSize(i - lead) == 1 && from.getDimSize(i) != 1)) {
      axes.push_back(i);
    }
  }
  return reshape(sum(g, axes, /*keepdims=*/false), target.getShape());
}

Value GradientBuilder::unslice(Value g, ArrayRef<int64_t> inputShape,
                               ArrayRef<int64_t> starts,
                               ArrayRef<int64_t> limits,
                               ArrayRef<int64_t> strides) {
  RankedTensorType gType = typeOf(g);
  if (gType.getNumElements() == 0) {
    return splat(RankedTensorType::get(inputShape, gType.getElementType()), 0);
  }
  // One dimension at a time: reverse a negative stride, spread the kept
  // elements `stride` apart with zeros between them, then pad to the input's
  // extent.
  int64_t rank = gType.getRank();
  for (int64_t d = 0; d < rank; ++d) {
    SmallVector<int64_t> shape(typeOf(g).getShape());
    int64_t n = shape[d];
    int64_t stride = strides[d];
    int64_t first = starts[d];
    if (stride < 0) {
      SmallVector<int64_t> s(rank, 0), l(shape), st(rank, 1);
      s[d] = n - 1;
      l[d] = -1;
      st[d] = -1;
      g = slice(g, s, l, st);
      first = starts[d] + (n - 1) * stride;
      stride = -stride;
    }
    if (stride > 1 && n > 1) {
      // [.., n, ..] -> [.., n, 1, ..] -> pad to [.., n, stride, ..] ->
      // [.., n*stride, ..] -> keep the first (n-1)*stride+1.
      SmallVector<int64_t> expanded(shape);
      expanded.insert(expanded.begin() + d + 1, 1);
      g = reshape(g, expanded);
      SmallVector<int64_t> low(rank + 1, 0), high(rank + 1, 0);
      high[d + 1] = stride - 1;
      g = pad(g, low, high);
      SmallVector<int64_t> flat(shape);
      flat[d] = n * stride;
      g = reshape(g, flat);
      SmallVector<int64_t> s(rank, 0), l(flat), st(rank, 1);
      l[d] = (n - 1) * stride + 1;
      g = slice(g, s, l, st);
    }
    int64_t extent = typeOf(g).getDimSize(d);
    SmallVector<int64_t> low(rank, 0), high(rank, 0);
    low[d] = first;
    high[d] = inputShape[d] - first - extent;
    g = pad(g, low, high);
  }
  return g;
}
