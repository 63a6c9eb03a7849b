//===- Sampling.cpp - ONNX sampling, cropping and bit ops -----------------===//
//
// GridSample, Col2Im, BitShift and BitCast map onto their graph ops
// (GraphSamplingOps.td). AffineGrid is a constant grid of normalised
// coordinates times the transposed theta (one batched matmul);
// CenterCropPad a slice and a zero pad; Pad's wrap mode one gather of
// wrapped indices per padded axis. The sizes these take (Col2Im's shapes,
// AffineGrid's size, CenterCropPad's shape) must be constants. RoiAlign
// computes each bin's sample points from the rois with graph arithmetic
// and reads their four neighbours with gathers (the bilinear weights and
// border rules of ONNX Runtime, which graph.grid_sample does not share).
//
//===----------------------------------------------------------------------===//

#include "OnnxNodeBuilder.h"

#include "mlir/IR/Diagnostics.h"

#include "llvm/ADT/StringSwitch.h"

namespace graphc::import {

namespace {
using Results = llvm::SmallVector<Value>;

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

namespace {

/// A float constant of `shape` holding `values`, in `element`.
Value floatConstant(NodeBuilder &b, ArrayRef<int64_t> shape,
                    ArrayRef<double> values, Type element) {
  llvm::SmallVector<Attribute> attrs;
  for (double v : values) {
    attrs.push_back(b.imp.builder.getFloatAttr(element, v));
  }
  return b.imp.constant(
      b.at,
      DenseElementsAttr::get(RankedTensorType::get(shape, element), attrs));
}

/// RoiAlign's samples along one spatial axis of `size` elements, [R, S]
/// each with S = bins * grid: the lower and upper neighbour (i64) and
/// their weights, zero for a point outside [-1, size]; `used` says which
/// samples a roi takes when its grid (`perRoi`, [R, 1]) is smaller than
/// `grid` (null when every roi takes them all).
struct AxisSamples {
  Value low, high, wLow, wHigh, used;
};

AxisSamples axisSamples(NodeBuilder &b, Value start, Value bin, Value perRoi,
                        int64_t bins, int64_t grid, int64_t size,
                        bool adaptive) {
  Type element = getElementType(start);
  int64_t s = bins * grid;
  llvm::SmallVector<double> binOf, offset, index;
  for (int64_t k = 0; k < s; ++k) {
    binOf.push_back(double(k / grid));
    offset.push_back(double(k % grid) + 0.5);
    index.push_back(double(k % grid));
  }
  // start + p * bin + (i + 0.5) * bin / grid, as ONNX Runtime orders it.
  Value coord = b.op(
      "graph.add",
      {b.op("graph.add",
            {start, b.op("graph.mul",
                         {floatConstant(b, {1, s}, binOf, element), bin})}),
       b.op(
           "graph.div",
           {b.op("graph.mul", {floatConstant(b, {1, s}, offset, element), bin}),
            perRoi})});
  Value zero = b.scalar(element, 0), one = b.scalar(element, 1);
  Value last = b.scalar(element, double(size - 1));
  Value inside = b.op(
      "graph.and", {b.compare(coord, b.scalar(element, -1), "ge"),
                    b.compare(coord, b.scalar(element, double(size)), "le")});
  Value c = b.op("graph.max", {coord, zero});
  Value low = b.op("graph.floor", {c});
  Value atEnd = b.compare(low, last, "ge");
  Value frac = b.op("graph.select", {atEnd, zero, b.op("graph.sub", {c, low})});
  Type i64 = b.imp.builder.getI64Type();
  AxisSamples out;
  out.low = b.cast(b.op("graph.min", {low, last}), i64);
  out.high =
      b.cast(b.op("graph.min", {b.op("graph.add", {low, one}), last}), i64);
  out.wLow =
      b.op("graph.select", {inside, b.op("graph.sub", {one, frac}), zero});
  out.wHigh = b.op("graph.select", {inside, frac, zero});
  if (adaptive) {
    out.used =
        b.compare(floatConstant(b, {1, s}, index, element), perRoi, "lt");
  }
  return out;
}

/// The per-roi sample grid along each axis, [R, 1] each, for the adaptive
/// sampling_ratio 0: ceil(roi size / output size) from constant rois, as
/// ONNX Runtime computes it; also the largest of each.
struct AdaptiveGrid {
  llvm::SmallVector<double> h, w;
  int64_t maxH = 1, maxW = 1;
};

FailureOr<AdaptiveGrid> adaptiveGrid(Value rois, double scale, double offset,
                                     bool halfPixel, int64_t oh, int64_t ow,
                                     Location at) {
  DenseElementsAttr known;
  if (!matchPattern(rois, mlir::m_Constant(&known))) {
    return mlir::emitError(at)
           << "RoiAlign's sampling_ratio is 0 (adaptive) and its rois are "
              "computed at run time: the number of samples per bin depends "
              "on each roi's size, and graphc compiles static shapes (give "
              "sampling_ratio > 0, or the rois as a constant, e.g. with "
              "--freeze-input)";
  }
  llvm::SmallVector<float> v;
  for (llvm::APFloat f : known.getValues<llvm::APFloat>()) {
    bool lost = false;
    f.convert(llvm::APFloat::IEEEsingle(), llvm::APFloat::rmNearestTiesToEven,
              &lost);
    v.push_back(f.convertToFloat());
  }
  AdaptiveGrid g;
  for (size_t r = 0; r + 3 < v.size(); r += 4) {
    float fs = float(scale), fo = float(offset);
    float rw = (v[r + 2] * fs - fo) - (v[r] * fs - fo);
    float rh = (v[r + 3] * fs - fo) - (v[r + 1] * fs - fo);
    if (!halfPixel) {
      rw = std::max(rw, 1.0f);
      rh = std::max(rh, 1.0f);
    }
    g.h.push_back(std::ceil(rh / float(oh)));
    g.w.push_back(std::ceil(rw / float(ow)));
    g.maxH = std::max(g.maxH, int64_t(g.h.back()));
    g.maxW = std::max(g.maxW, int64_t(g.w.back()));
  }
  return g;
}

/// The roi's start and bin size along y and x, [R, 1] each, from `rois`
/// ([R, 4]: x1, y1, x2, y2).
std::array<Value, 4> roiBins(NodeBuilder &b, Value rois, int64_t r,
                             double scale, double offset, bool halfPixel,
                             int64_t oh, int64_t ow) {
  Type element = getElementType(rois);
  Value byCoordinate = b.transpose(rois, {1, 0});
  std::array<Value, 4> c;
  for (int64_t k = 0; k < 4; ++k) {
    c[k] = b.op(
        "graph.sub",
        {b.op("graph.mul",
              {b.reshape(b.slice(byCoordinate, {k, 0}, {k + 1, r}), {r, 1}),
               b.scalar(element, scale)}),
         b.scalar(element, offset)});
  }
  Value rw = b.op("graph.sub", {c[2], c[0]});
  Value rh = b.op("graph.sub", {c[3], c[1]});
  if (!halfPixel) {
    rw = b.op("graph.max", {rw, b.scalar(element, 1)});
    rh = b.op("graph.max", {rh, b.scalar(element, 1)});
  }
  return {c[1], b.op("graph.div", {rh, b.scalar(element, double(oh))}), c[0],
          b.op("graph.div", {rw, b.scalar(element, double(ow))})};
}

} // namespace

/// RoiAlign (opsets 10, 16): for each roi, bin and sample point, the
/// bilinear interpolation of its batch's feature map, averaged over each
/// bin's samples (mode avg) or, as ONNX Runtime and the reference do, the
/// largest of the four weighted neighbours of each sample (mode max).
std::optional<FailureOr<llvm::SmallVector<Value>>>
OnnxImporter::importRoiAlign(const GraphNode &node, const onnx::NodeProto &def,
                             llvm::ArrayRef<Value> in, Location at) {
  if (failed(need(3))) {
    return FailureOr<Results>(mlir::failure());
  }
  NodeBuilder b{*this, at};
  auto xShape = getShape(in[0]), roiShape = getShape(in[1]);
  if (!isStatic(xShape) || xShape->size() != 4 || !isStatic(roiShape) ||
      roiShape->size() != 2 || (*roiShape)[1] != 4) {
    return FailureOr<Results>(
        emitError(at) << "RoiAlign needs X [N, C, H, W] and rois [R, 4] of "
                      << "static shapes, not " << in[0].getType() << " and "
                      << in[1].getType());
  }
  int64_t c = (*xShape)[1], h = (*xShape)[2], w = (*xShape)[3],
          r = (*roiShape)[0];
  StringRef mode = attrStr("mode", "avg");
  StringRef transform =
      attrStr("coordinate_transformation_mode",
              opset >= 16 ? "half_pixel" : "output_half_pixel");
  if (mode != "avg" && mode != "max") {
    return FailureOr<Results>(emitError(at) << "RoiAlign mode '" << mode
                                            << "' is not avg or max");
  }
  if (transform != "half_pixel" && transform != "output_half_pixel") {
    return FailureOr<Results>(emitError(at)
                              << "RoiAlign coordinate_transformation_mode '"
                              << transform
                              << "' is not half_pixel or output_half_pixel");
  }
  bool halfPixel = transform == "half_pixel";
  int64_t oh = attrInt(def, "output_height", 1),
          ow = attrInt(def, "output_width", 1);
  int64_t ratio = attrInt(def, "sampling_ratio", 0);
  double scale = attrFloat(def, "spatial_scale", 1.0f),
         offset = halfPixel ? 0.5 : 0;
  if (oh < 1 || ow < 1 || ratio < 0) {
    return FailureOr<Results>(
        emitError(at) << "RoiAlign output_height " << oh << ", output_width "
                      << ow << " and sampling_ratio " << ratio
                      << ": sizes must be positive and the ratio not negative");
  }
  Type element = getElementType(in[0]);
  // Samples per bin: sampling_ratio, or per roi from constant rois.
  AdaptiveGrid grid;
  Value gridH = b.scalar(element, double(ratio)), gridW = gridH;
  if (ratio > 0) {
    grid.maxH = grid.maxW = ratio;
  } else {
    auto g = adaptiveGrid(in[1], scale, offset, halfPixel, oh, ow, at);
    if (failed(g)) {
      return FailureOr<Results>(mlir::failure());
    }
    grid = *g;
    gridH = floatConstant(b, {r, 1}, grid.h, element);
    gridW = floatConstant(b, {r, 1}, grid.w, element);
  }
  std::array<Value, 4> bins =
      roiBins(b, in[1], r, scale, offset, halfPixel, oh, ow);
  AxisSamples ys =
      axisSamples(b, bins[0], bins[1], gridH, oh, grid.maxH, h, ratio == 0);
  AxisSamples xs =
      axisSamples(b, bins[2], bins[3], gridW, ow, grid.maxW, w, ratio == 0);
  int64_t sh = oh * grid.maxH, sw = ow * grid.maxW;
  // The four neighbours of each sample from X as [N * H * W, C] rows.
  Value rows =
      b.reshape(b.transpose(in[0], {0, 2, 3, 1}), {(*xShape)[0] * h * w, c});
  Value base = b.op("graph.mul",
                    {b.reshape(b.cast(in[2], builder.getI64Type()), {r, 1, 1}),
                     b.scalar(builder.getI64Type(), double(h * w))});
  Value width = b.scalar(builder.getI64Type(), double(w));
  llvm::SmallVector<Value> terms;
  for (auto [yi, wy] :
       {std::pair{ys.low, ys.wLow}, std::pair{ys.high, ys.wHigh}}) {
    for (auto [xi, wx] :
         {std::pair{xs.low, xs.wLow}, std::pair{xs.high, xs.wHigh}}) {
      Value index = b.op(
          "graph.add",
          {b.op("graph.add",
                {base, b.op("graph.mul", {b.reshape(yi, {r, sh, 1}), width})}),
           b.reshape(xi, {r, 1, sw})});
      Value weight = b.op("graph.mul", {b.reshape(wy, {r, sh, 1, 1}),
                                        b.reshape(wx, {r, 1, sw, 1})});
      terms.push_back(b.op("graph.mul", {weight, b.gather(rows, index, 0)}));
    }
  }
  Value sample = terms[0];
  for (Value t : ArrayRef<Value>(terms).drop_front()) {
    sample = b.op(mode == "avg" ? "graph.add" : "graph.max", {sample, t});
  }
  Value used;
  if (ratio == 0) {
    used = b.op("graph.and", {b.reshape(ys.used, {r, sh, 1, 1}),
                              b.reshape(xs.used, {r, 1, sw, 1})});
    double fill =
        mode == "avg" ? 0.0 : -std::numeric_limits<double>::infinity();
    sample = b.op("graph.select", {used, sample, b.scalar(element, fill)});
  }
  Value pooled =
      b.reduce(b.reshape(sample, {r, oh, grid.maxH, ow, grid.maxW, c}),
               mode == "avg" ? "sum" : "max", {2, 4});
  Value count = b.op("graph.mul", {gridH, gridW});
  if (ratio == 0) {
    count = b.reshape(count, {r, 1, 1, 1});
  }
  if (mode == "avg") {
    pooled = b.op("graph.div",
                  {pooled, b.op("graph.max", {count, b.scalar(element, 1)})});
  } else if (ratio == 0) {
    // A roi of no samples (a negative size) keeps ONNX Runtime's 0.
    pooled = b.op("graph.select", {b.compare(count, b.scalar(element, 0), "gt"),
                                   pooled, b.scalar(element, 0)});
  }
  return one(b.transpose(pooled, {0, 3, 1, 2}));
}

} // namespace graphc::import
