//===- Indexing.cpp - ONNX index-driven ops to the graph dialect ----------===//
//
// GatherElements, CumSum, CumProd and TopK map onto one graph op each
// (gather_elements, cumulative, top_k). Trilu, EyeLike and ReverseSequence
// are compositions around constants built from the static shape: Trilu
// selects against a constant triangle mask, EyeLike is a constant, and
// ReverseSequence is a gather_elements whose indices are computed from the
// sequence lengths.
//
//===----------------------------------------------------------------------===//

#include "OnnxNodeBuilder.h"

using namespace mlir;

namespace graphc::import {

namespace {
/// The single integer of a constant operand (a scalar or a 1-element
/// tensor), or std::nullopt.
std::optional<int64_t> constScalar(OnnxImporter &imp, Value v) {
  auto ints = imp.constInts(v);
  if (!ints || ints->size() != 1) {
    return std::nullopt;
  }
  return (*ints)[0];
}
} // namespace

std::optional<FailureOr<llvm::SmallVector<Value>>>
OnnxImporter::importIndexing(const GraphNode &node, const onnx::NodeProto &def,
                             ArrayRef<Value> in, Location at) {
  StringRef op = node.op;
  if (op != "GatherElements" && op != "CumSum" && op != "CumProd" &&
      op != "TopK" && op != "Trilu" && op != "EyeLike" &&
      op != "ReverseSequence") {
    return std::nullopt;
  }
  if (in.empty() || !in[0]) {
    return nodeFailed(emitError(at) << op << " needs input 0");
  }
  NodeBuilder b{*this, at};
  Value x = in[0];
  Type element = getElementType(x);
  auto operand = [&](unsigned i) { return i < in.size() ? in[i] : Value(); };
  auto shape = getShape(x);

  if (op == "GatherElements") {
    if (!operand(1)) {
      return nodeFailed(emitError(at) << op << " needs input 1");
    }
    return nodeResults({b.op("graph.gather_elements", {x, in[1]},
                             {b.i64("axis", attrInt(def, "axis", 0))})});
  }

  if (op == "CumSum" || op == "CumProd") {
    auto axis = operand(1) ? constScalar(*this, in[1]) : std::nullopt;
    if (!axis) {
      return nodeFailed(emitError(at) << op << " axis (input 1) must be a "
                                      << "constant scalar (it is computed at "
                                      << "run time)");
    }
    Attribute kind = b.enumAttr("reduce_kind", op == "CumSum" ? "sum" : "prod");
    if (!kind) {
      return nodeFailed(failure());
    }
    llvm::SmallVector<NamedAttribute> attrs = {b.named("kind", kind),
                                               b.i64("axis", *axis)};
    if (attrInt(def, "exclusive", 0)) {
      attrs.push_back(b.unit("exclusive"));
    }
    if (attrInt(def, "reverse", 0)) {
      attrs.push_back(b.unit("reverse"));
    }
    return nodeResults({b.op("graph.cumulative", {x}, attrs)});
  }

  if (op == "TopK") {
    std::optional<int64_t> k;
    if (opset < 10) {
      k = attrInt(def, "k", -1);
    } else if (operand(1)) {
      k = constScalar(*this, in[1]);
    }
    if (!k) {
      return nodeFailed(emitError(at) << op << " k must be a constant scalar "
                                      << "(it is computed at run time)");
    }
    // `sorted = 0` leaves the order unspecified; sorted order is one.
    llvm::SmallVector<NamedAttribute> attrs = {
        b.i64("k", *k), b.i64("axis", attrInt(def, "axis", -1))};
    if (!attrInt(def, "largest", 1)) {
      attrs.push_back(b.unit("smallest"));
    }
    auto results =
        build(at, "graph.top_k", {x}, attrs, {element, builder.getI64Type()});
    if (results.size() != 2) {
      return nodeFailed(failure());
    }
    return nodeResults({results[0], results[1]});
  }

  // The rest build constants from the static shape.
  if (!shape || mlir::ShapedType::isDynamicShape(*shape)) {
    return nodeFailed(emitError(at) << op << " needs a static input shape");
  }
  int64_t rank = shape->size();

  if (op == "Trilu") {
    if (rank < 2) {
      return nodeFailed(emitError(at)
                        << op << " needs rank >= 2, got " << rank);
    }
    // mask[i, j] = (j - i >= k) for the upper triangle, <= k for the lower;
    // a k computed at run time is compared against the constant j - i.
    bool upper = attrInt(def, "upper", 1);
    int64_t rows = (*shape)[rank - 2], cols = (*shape)[rank - 1];
    llvm::SmallVector<int64_t> diagonal;
    for (int64_t i = 0; i < rows; ++i) {
      for (int64_t j = 0; j < cols; ++j) {
        diagonal.push_back(j - i);
      }
    }
    Type i64 = builder.getI64Type();
    Value offsets = constant(
        at, DenseElementsAttr::get(RankedTensorType::get({rows, cols}, i64),
                                   ArrayRef<int64_t>(diagonal)));
    Value k = operand(1) ? in[1] : b.scalar(i64, 0);
    if (k && getElementType(k) != i64) {
      k = b.cast(k, i64);
    }
    if (auto kShape = k ? getShape(k) : std::nullopt;
        kShape && !kShape->empty()) {
      k = b.op("graph.reshape", {k}, {b.i64s("shape", {})});
    }
    Value mask = b.compare(offsets, k, upper ? "ge" : "le");
    return nodeResults(
        {b.op("graph.select", {mask, x, b.scalar(element, 0)}, {}, element)});
  }

  if (op == "EyeLike") {
    if (rank != 2) {
      return nodeFailed(emitError(at)
                        << op << " needs a 2-D input, got rank " << rank);
    }
    Type out = element;
    if (const onnx::AttributeProto *dt = attr(def, "dtype")) {
      out = convertOnnxElementType(ctx, int32_t(dt->i()));
      if (!out) {
        return nodeFailed(emitError(at)
                          << op << " dtype " << dt->i() << " is not supported");
      }
    }
    int64_t k = attrInt(def, "k", 0);
    llvm::SmallVector<Attribute> values;
    for (int64_t i = 0; i < (*shape)[0]; ++i) {
      for (int64_t j = 0; j < (*shape)[1]; ++j) {
        double v = j - i == k ? 1 : 0;
        values.push_back(isa<FloatType>(out)
                             ? Attribute(builder.getFloatAttr(out, v))
                             : Attribute(builder.getIntegerAttr(out, v)));
      }
    }
    return nodeResults(
        {constant(at, DenseElementsAttr::get(RankedTensorType::get(*shape, out),
                                             values))});
  }

  // ReverseSequence: out[t, b] = x[t < len[b] ? len[b] - 1 - t : t, b].
  if (!operand(1)) {
    return nodeFailed(emitError(at) << op << " needs input 1");
  }
  int64_t timeAxis = attrInt(def, "time_axis", 0);
  int64_t batchAxis = attrInt(def, "batch_axis", 1);
  if (rank < 2 || !((timeAxis == 0 && batchAxis == 1) ||
                    (timeAxis == 1 && batchAxis == 0))) {
    return nodeFailed(emitError(at)
                      << op << " needs rank >= 2 and time/batch axes 0 and 1, "
                      << "got " << timeAxis << " and " << batchAxis);
  }
  int64_t steps = (*shape)[timeAxis];
  llvm::SmallVector<int64_t> t;
  for (int64_t i = 0; i < steps; ++i) {
    t.push_back(i);
  }
  Type i64 = builder.getI64Type();
  // Time along the time axis, lengths along the batch axis: 2-D broadcast.
  llvm::SmallVector<int64_t> tShape = {1, 1};
  tShape[timeAxis] = steps;
  llvm::SmallVector<int64_t> lShape = {1, 1};
  lShape[batchAxis] = (*shape)[batchAxis];
  Value time =
      constant(at, DenseElementsAttr::get(RankedTensorType::get(tShape, i64),
                                          ArrayRef<int64_t>(t)));
  Value lens = in[1];
  if (getElementType(lens) != i64) {
    lens = b.cast(lens, i64);
  }
  lens = b.op("graph.reshape", {lens}, {b.i64s("shape", lShape)});
  Value inside = b.compare(time, lens, "lt");
  Value reversed =
      b.op("graph.sub", {b.op("graph.sub", {lens, b.scalar(i64, 1)}), time});
  Value index = b.op("graph.select", {inside, reversed, time}, {}, i64);
  // Broadcast over the trailing dimensions.
  llvm::SmallVector<int64_t> trailing;
  for (int64_t d = 2; d < rank; ++d) {
    trailing.push_back(d);
  }
  if (!trailing.empty()) {
    index = b.op("graph.unsqueeze", {index}, {b.i64s("axes", trailing)});
  }
  index = b.op("graph.broadcast_to", {index}, {b.i64s("shape", *shape)});
  return nodeResults(
      {b.op("graph.gather_elements", {x, index}, {b.i64("axis", timeAxis)})});
}

} // namespace graphc::import
