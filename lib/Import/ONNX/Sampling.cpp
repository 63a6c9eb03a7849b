//===- Sampling.cpp - ONNX sampling, cropping and bit ops -----------------===//
//
// GridSample, Col2Im, BitShift and BitCast map onto their graph ops
// (GraphSamplingOps.td). AffineGrid is a constant grid of normalised
// coordinates times the transposed theta (one batched matmul);
// CenterCropPad a slice and a zero pad; Pad's wrap mode one gather of
// wrapped indices per padded axis. The sizes these take (Col2Im's shapes,
// AffineGrid's size, CenterCropPad's shape) must be constants.
//
//===----------------------------------------------------------------------===//

#include "OnnxImporterImpl.h"

#include "mlir/IR/Diagnostics.h"

#include "llvm/ADT/StringSwitch.h"

namespace graphc::import {

namespace {
using Results = llvm::SmallVector<Value>;

FailureOr<Results> one(Value v) {
  if (!v) {
    return mlir::failure();
  }
  return Results{v};
}
} // namespace

Value OnnxImporter::importWrapPad(Value x, llvm::ArrayRef<int64_t> low,
                                  llvm::ArrayRef<int64_t> high, Location at) {
  auto shape = getShape(x);
  if (!shape || mlir::ShapedType::isDynamicShape(*shape)) {
    emitError(at) << "Pad mode 'wrap' needs a static input shape";
    return {};
  }
  for (size_t d = 0; d < shape->size() && x; ++d) {
    if (low[d] == 0 && high[d] == 0) {
      continue;
    }
    int64_t size = (*shape)[d], out = size + low[d] + high[d];
    if (size == 0 || out < 0) {
      emitError(at) << "Pad mode 'wrap' of dimension " << d << " (size " << size
                    << ") by " << low[d] << " and " << high[d];
      return {};
    }
    // Output element i reads input element (i - low) mod size: negative
    // pads crop what the wrap would have produced.
    llvm::SmallVector<int64_t> from;
    for (int64_t i = 0; i < out; ++i) {
      from.push_back(((i - low[d]) % size + size) % size);
    }
    x = build1(at, "graph.gather", {x, i64Const(at, from)},
               {builder.getNamedAttr("axis", builder.getI64IntegerAttr(d))});
  }
  return x;
}

/// How many inputs sampling op `op` needs.
static unsigned samplingInputs(StringRef op) {
  return op == "BitCast" ? 1 : op == "Col2Im" ? 3 : 2;
}

/// Input `i` of `op` as constant integers; the wording lets drivers freeze
/// inputs.
static FailureOr<llvm::SmallVector<int64_t>>
constOperand(StringRef op, ArrayRef<Value> in, unsigned i, Location at) {
  auto ints = constantInts(in[i]);
  if (!ints) {
    return emitError(at) << op << " input " << i
                         << " must be a constant (it is computed at run "
                            "time)";
  }
  return *ints;
}

static FailureOr<llvm::SmallVector<int64_t>>
requireStaticShape(StringRef op, Value v, Location at) {
  auto shape = getShape(v);
  if (!shape || mlir::ShapedType::isDynamicShape(*shape)) {
    return emitError(at) << op << " needs a static input shape";
  }
  return *shape;
}

/// GridSample.
std::optional<FailureOr<llvm::SmallVector<Value>>>
OnnxImporter::importGridSample(const GraphNode &node,
                               const onnx::NodeProto &def,
                               llvm::ArrayRef<Value> in, Location at) {
  StringRef op = node.op;
  if (failed(need(samplingInputs(op)))) {
    return FailureOr<Results>(mlir::failure());
  }
  // Opset 16 spells the modes bilinear and bicubic, opset 20 linear and
  // cubic.
  StringRef mode = attrStr("mode", opset >= 20 ? "linear" : "bilinear");
  mode = llvm::StringSwitch<StringRef>(mode)
             .Case("bilinear", "linear")
             .Case("bicubic", "cubic")
             .Default(mode);
  StringRef padding = attrStr("padding_mode", "zeros");
  if (mode != "linear" && mode != "nearest" && mode != "cubic") {
    return FailureOr<Results>(emitError(at) << "GridSample mode '" << mode
                                            << "' is not supported");
  }
  if (padding != "zeros" && padding != "border" && padding != "reflection") {
    return FailureOr<Results>(emitError(at) << "GridSample padding_mode '"
                                            << padding << "' is not supported");
  }
  Attribute m = parseAttr(ctx, at, ("#graph<sample_mode " + mode + ">").str());
  Attribute p =
      parseAttr(ctx, at, ("#graph<sample_padding " + padding + ">").str());
  if (!m || !p) {
    return FailureOr<Results>(mlir::failure());
  }
  llvm::SmallVector<NamedAttribute> attrs{named("mode", m),
                                          named("padding", p)};
  if (attrInt(def, "align_corners", 0)) {
    attrs.push_back(named("align_corners", builder.getUnitAttr()));
  }
  return one(build1(at, "graph.grid_sample", {in[0], in[1]}, attrs));
}

/// Col2Im.
std::optional<FailureOr<llvm::SmallVector<Value>>>
OnnxImporter::importCol2Im(const GraphNode &node, const onnx::NodeProto &def,
                           llvm::ArrayRef<Value> in, Location at) {
  StringRef op = node.op;
  if (failed(need(samplingInputs(op)))) {
    return FailureOr<Results>(mlir::failure());
  }
  auto image = constOperand(op, in, 1, at);
  if (failed(image)) {
    return FailureOr<Results>(mlir::failure());
  }
  auto block = constOperand(op, in, 2, at);
  if (failed(block)) {
    return FailureOr<Results>(mlir::failure());
  }
  llvm::SmallVector<NamedAttribute> attrs{
      named("image_shape", builder.getDenseI64ArrayAttr(*image)),
      named("block_shape", builder.getDenseI64ArrayAttr(*block))};
  for (StringRef name : {"dilations", "pads", "strides"}) {
    if (auto v = attrInts(def, name)) {
      attrs.push_back(named(name, builder.getDenseI64ArrayAttr(*v)));
    }
  }
  return one(build1(at, "graph.col2im", {in[0]}, attrs));
}

/// BitShift.
std::optional<FailureOr<llvm::SmallVector<Value>>>
OnnxImporter::importBitShift(const GraphNode &node, const onnx::NodeProto &def,
                             llvm::ArrayRef<Value> in, Location at) {
  StringRef op = node.op;
  if (failed(need(samplingInputs(op)))) {
    return FailureOr<Results>(mlir::failure());
  }
  StringRef direction = attrStr("direction", "");
  if (direction != "LEFT" && direction != "RIGHT") {
    return FailureOr<Results>(emitError(at)
                              << "BitShift direction '" << direction
                              << "' is not LEFT or RIGHT");
  }
  return one(
      build1(at, direction == "LEFT" ? "graph.shift_left" : "graph.shift_right",
             {in[0], in[1]}));
}

/// BitCast.
std::optional<FailureOr<llvm::SmallVector<Value>>>
OnnxImporter::importBitCast(const GraphNode &node, const onnx::NodeProto &def,
                            llvm::ArrayRef<Value> in, Location at) {
  StringRef op = node.op;
  if (failed(need(samplingInputs(op)))) {
    return FailureOr<Results>(mlir::failure());
  }
  const onnx::AttributeProto *to = attr(def, "to");
  Type element = to ? convertOnnxElementType(ctx, to->i()) : Type();
  if (!element) {
    return FailureOr<Results>(emitError(at)
                              << "BitCast needs a supported 'to' type");
  }
  return one(build1(at, "graph.bitcast", {in[0]},
                    {named("to", mlir::TypeAttr::get(element))}, element));
}

/// AffineGrid.
std::optional<FailureOr<llvm::SmallVector<Value>>>
OnnxImporter::importAffineGrid(const GraphNode &node,
                               const onnx::NodeProto &def,
                               llvm::ArrayRef<Value> in, Location at) {
  StringRef op = node.op;
  if (failed(need(samplingInputs(op)))) {
    return FailureOr<Results>(mlir::failure());
  }
  auto size = constOperand(op, in, 1, at);
  if (failed(size)) {
    return FailureOr<Results>(mlir::failure());
  }
  auto theta = getShape(in[0]);
  int64_t k = int64_t(size->size()) - 2;
  if ((k != 2 && k != 3) || !theta || theta->size() != 3 || (*theta)[1] != k ||
      (*theta)[2] != k + 1) {
    return FailureOr<Results>(
        emitError(at) << "AffineGrid needs size of 4 or 5 entries and theta "
                         "of shape N x k x (k + 1)");
  }
  llvm::ArrayRef<int64_t> spatial = llvm::ArrayRef(*size).drop_front(2);
  if (llvm::any_of(spatial, [](int64_t s) { return s <= 0; })) {
    return FailureOr<Results>(emitError(at)
                              << "AffineGrid sizes must be positive");
  }
  bool align = attrInt(def, "align_corners", 0);
  auto coordinate = [&](int64_t i, int64_t n) -> double {
    if (align) {
      return n == 1 ? -1.0 : -1.0 + 2.0 * double(i) / double(n - 1);
    }
    return (2.0 * double(i) + 1.0) / double(n) - 1.0;
  };
  // One row (x, y[, z], 1) per output point, width fastest.
  int64_t points = 1;
  for (int64_t s : spatial) {
    points *= s;
  }
  Type element = getElementType(in[0]);
  if (!llvm::isa<FloatType>(element)) {
    return FailureOr<Results>(emitError(at)
                              << "AffineGrid theta must be a float tensor");
  }
  llvm::SmallVector<Attribute> base;
  llvm::SmallVector<int64_t> index(k, 0);
  for (int64_t p = 0; p < points; ++p) {
    for (int64_t d = k - 1; d >= 0; --d) {
      base.push_back(
          builder.getFloatAttr(element, coordinate(index[d], spatial[d])));
    }
    base.push_back(builder.getFloatAttr(element, 1.0));
    for (int64_t d = k - 1; d >= 0 && ++index[d] == spatial[d]; --d) {
      index[d] = 0;
    }
  }
  Value grid =
      constant(at, DenseElementsAttr::get(
                       RankedTensorType::get({points, k + 1}, element), base));
  Value out = build1(at, "graph.matmul", {grid, in[0]},
                     {named("transpose_rhs", builder.getUnitAttr())});
  llvm::SmallVector<int64_t> shape{(*size)[0]};
  shape.append(spatial.begin(), spatial.end());
  shape.push_back(k);
  return one(out ? build1(at, "graph.reshape", {out},
                          {named("shape", builder.getDenseI64ArrayAttr(shape))})
                 : Value());
}

std::optional<FailureOr<llvm::SmallVector<Value>>>
OnnxImporter::importCenterCropPad(const GraphNode &node,
                                  const onnx::NodeProto &def,
                                  llvm::ArrayRef<Value> in, Location at) {
  StringRef op = node.op;
  if (failed(need(samplingInputs(op)))) {
    return FailureOr<Results>(mlir::failure());
  }
  auto target = constOperand(op, in, 1, at);
  if (failed(target)) {
    return FailureOr<Results>(mlir::failure());
  }
  auto shape = requireStaticShape(op, in[0], at);
  if (failed(shape)) {
    return FailureOr<Results>(mlir::failure());
  }
  int64_t rank = shape->size();
  llvm::SmallVector<int64_t> axes;
  if (auto a = attrInts(def, "axes")) {
    axes = *a;
  } else {
    for (int64_t d = 0; d < rank; ++d) {
      axes.push_back(d);
    }
  }
  if (axes.size() != target->size()) {
    return FailureOr<Results>(emitError(at)
                              << "CenterCropPad has " << target->size()
                              << " sizes for " << axes.size() << " axes");
  }
  llvm::SmallVector<int64_t> starts(rank, 0), limits(*shape), strides(rank, 1);
  llvm::SmallVector<int64_t> low(rank, 0), high(rank, 0);
  for (auto [a, want] : llvm::zip(axes, *target)) {
    int64_t d = a < 0 ? a + rank : a;
    if (d < 0 || d >= rank || want < 0) {
      return FailureOr<Results>(emitError(at)
                                << "CenterCropPad axis " << a << " or size "
                                << want << " out of range for rank " << rank);
    }
    int64_t have = (*shape)[d];
    if (want < have) {
      starts[d] = (have - want) / 2;
      limits[d] = starts[d] + want;
    } else {
      low[d] = (want - have) / 2;
      high[d] = want - have - low[d];
    }
  }
  Value x = in[0];
  if (starts != llvm::SmallVector<int64_t>(rank, 0) || limits != *shape) {
    x = build1(at, "graph.slice", {x},
               {named("starts", builder.getDenseI64ArrayAttr(starts)),
                named("limits", builder.getDenseI64ArrayAttr(limits)),
                named("strides", builder.getDenseI64ArrayAttr(strides))});
  }
  if (x && (llvm::any_of(low, [](int64_t v) { return v; }) ||
            llvm::any_of(high, [](int64_t v) { return v; }))) {
    Value zero = scalar(at, getElementType(x), 0);
    x = zero ? build1(at, "graph.pad", {x, zero},
                      {named("low", builder.getDenseI64ArrayAttr(low)),
                       named("high", builder.getDenseI64ArrayAttr(high))})
             : Value();
  }
  return one(x);
}

} // namespace graphc::import
