//===- Quant.cpp - ONNX quantization ops as graph ops ---------------------===//
//
// QuantizeLinear, DequantizeLinear, DynamicQuantizeLinear, MatMulInteger,
// ConvInteger, QLinearMatMul and QLinearConv, composed from existing graph
// ops; none needs an op of its own:
//
// * quantize:   y = saturate(round_half_even(x / scale) + zero_point), in
//   f32 (f64 for 32-bit targets or f64 inputs), clamped to the target's
//   range and then a graph.cast to whatever element type the zero point
//   (or `output_dtype`) names; a float target (float8/float4) skips the
//   rounding and clamping and lets the cast round and saturate;
// * dequantize: y = (x - zero_point) * scale, the difference taken exactly
//   in a wider integer before one conversion to float;
// * integer contractions cast both operands to i32 and subtract the zero
//   points there, so graph.matmul / graph.conv accumulate exactly in i32
//   (wrapping on overflow, as ONNX's int32 accumulator);
// * QLinear* requantize that accumulator by a_scale * b_scale / y_scale.
//
// Per-axis scales and zero points are reshaped to broadcast along `axis`;
// blocked ones (`block_size`) are repeated block_size times along it.
//
//===----------------------------------------------------------------------===//

#include "OnnxNodeBuilder.h"

#include "mlir/IR/Diagnostics.h"

#include "llvm/ADT/APInt.h"

using namespace mlir;

namespace graphc::import {

namespace {

using Results = std::optional<FailureOr<llvm::SmallVector<Value>>>;

int64_t numElements(ArrayRef<int64_t> shape) {
  int64_t n = 1;
  for (int64_t d : shape) {
    if (ShapedType::isDynamic(d)) {
      return ShapedType::kDynamic;
    }
    n *= d;
  }
  return n;
}

/// Composes one quantization node; every builder returns null after
/// emitting at the node.
struct QuantBuilder : NodeBuilder {
  StringRef opName;
  ArrayRef<Value> in;

  /// Input `i`, or null when absent.
  Value input(size_t i) { return i < in.size() ? in[i] : Value(); }
  /// Fails (naming the first missing) unless the inputs `indices` are there.
  LogicalResult need(std::initializer_list<size_t> indices) {
    for (size_t i : indices) {
      if (!input(i)) {
        return emitError(at) << opName << " needs input " << i;
      }
    }
    return success();
  }
  /// `v`'s shape; nullopt after emitting when its rank is unknown.
  std::optional<llvm::SmallVector<int64_t>> knownShape(Value v,
                                                       StringRef what) {
    auto shape = getShape(v);
    if (!shape) {
      emitError(at) << opName << " " << what << " must have a known rank";
    }
    return shape;
  }
  /// The element type of ONNX type code `onnxType`; null after emitting.
  Type elementOf(int64_t onnxType) {
    Type t = convertOnnxElementType(imp.ctx, int32_t(onnxType));
    if (!t) {
      emitError(at) << opName << " element type " << onnxType
                    << " is not supported";
    }
    return t;
  }

  Value reshape(Value v, ArrayRef<int64_t> shape) {
    return op("graph.reshape", {v}, {i64s("shape", shape)});
  }

  /// The f32 (or f64) type the float arithmetic of a node runs in: f64
  /// when any of `types` is f64 or a 32-bit (or wider) integer, so that
  /// those values stay exact.
  Type computeType(ArrayRef<Type> types) {
    for (Type t : types) {
      if (t && (t.isF64() ||
                (isa<IntegerType>(t) && t.getIntOrFloatBitWidth() >= 32))) {
        return imp.builder.getF64Type();
      }
    }
    return imp.builder.getF32Type();
  }

  Value castTo(Value v, Type to) {
    if (!v || getElementType(v) == to) {
      return v;
    }
    return cast(v, to);
  }

  /// `scale` or `zero_point` of a QuantizeLinear/DequantizeLinear, reshaped
  /// so that it broadcasts against `x` of shape `xShape`: a one-element
  /// tensor becomes a scalar (per tensor), a 1-D tensor lines up with
  /// `axis` (per axis), and with `blockSize` > 0 a tensor of x's rank is
  /// repeated blockSize times along `axis` (blocked).
  Value alignToAxis(Value v, StringRef what, ArrayRef<int64_t> xShape,
                    int64_t axis, int64_t blockSize) {
    auto shape = getShape(v);
    if (!shape) {
      emitError(at) << opName << " " << what << " must have a known rank";
      return {};
    }
    int64_t rank = xShape.size();
    int64_t count = numElements(*shape);
    if (count == 1 && (blockSize == 0 || shape->size() <= 1)) {
      return shape->empty() ? v : reshape(v, {});
    }
    if (axis < -rank || axis >= rank) {
      emitError(at) << opName << " axis " << axis << " is out of range for "
                    << "an input of rank " << rank;
      return {};
    }
    if (axis < 0) {
      axis += rank;
    }
    int64_t extent = xShape[axis];
    if (blockSize == 0) {
      if (shape->size() != 1) {
        emitError(at) << opName << " " << what << " of rank " << shape->size()
                      << " is neither per tensor nor per axis (rank 1)";
        return {};
      }
      if (!ShapedType::isDynamic(extent) && !ShapedType::isDynamic(count) &&
          count != extent) {
        emitError(at) << opName << " " << what << " has " << count
                      << " elements for axis " << axis << " of size " << extent;
        return {};
      }
      llvm::SmallVector<int64_t> aligned(rank, 1);
      aligned[axis] = -1;
      return reshape(v, aligned);
    }
    // Blocked: x's rank, the axis holding ceil(extent / blockSize) blocks.
    if (blockSize < 0) {
      emitError(at) << opName << " block_size " << blockSize << " is negative";
      return {};
    }
    if (int64_t(shape->size()) != rank) {
      emitError(at) << opName << " blocked " << what << " has rank "
                    << shape->size() << ", not the input's rank " << rank;
      return {};
    }
    int64_t blocks = (*shape)[axis];
    if (ShapedType::isDynamic(blocks) || ShapedType::isDynamic(extent)) {
      emitError(at) << opName << " blocked " << what
                    << " needs a static size along axis " << axis;
      return {};
    }
    if (blocks != (extent + blockSize - 1) / blockSize) {
      emitError(at) << opName << " blocked " << what << " has " << blocks
                    << " blocks along axis " << axis << " of size " << extent
                    << " with block_size " << blockSize;
      return {};
    }
    for (int64_t i = 0; i < rank; ++i) {
      if (i != axis && (*shape)[i] != xShape[i] &&
          !ShapedType::isDynamic(xShape[i])) {
        emitError(at) << opName << " blocked " << what << " dimension " << i
                      << " is " << (*shape)[i] << ", not the input's "
                      << xShape[i];
        return {};
      }
    }
    // [.., blocks, ..] -> [.., blocks, 1, ..] -> [.., blocks, B, ..]
    // -> [.., blocks * B, ..], then cut the last block to size.
    llvm::SmallVector<int64_t> spread(*shape);
    spread.insert(spread.begin() + axis + 1, blockSize);
    Value r = op("graph.unsqueeze", {v}, {i64s("axes", {axis + 1})});
    r = op("graph.broadcast_to", {r}, {i64s("shape", spread)});
    llvm::SmallVector<int64_t> merged(*shape);
    merged[axis] = blocks * blockSize;
    r = reshape(r, merged);
    if (merged[axis] != extent) {
      llvm::SmallVector<int64_t> starts(rank, 0), limits(merged),
          strides(rank, 1);
      limits[axis] = extent;
      r = op("graph.slice", {r},
             {i64s("starts", starts), i64s("limits", limits),
              i64s("strides", strides)});
    }
    return r;
  }

  /// Finishes a quantization from `scaled` (x / scale, in a float type):
  /// for an integer `target`, saturate(round(scaled) + zeroPoint) and a
  /// cast; for a float target, a cast of scaled + zeroPoint that
  /// saturates when `saturate` is set. `zeroPoint` may be null (zero).
  Value quantize(Value scaled, Value zeroPoint, Type target, bool saturate) {
    if (!scaled) {
      return {};
    }
    Type f = getElementType(scaled);
    if (isa<FloatType>(target)) {
      if (zeroPoint) {
        scaled = op("graph.add", {scaled, castTo(zeroPoint, f)});
      }
      if (!scaled) {
        return {};
      }
      llvm::SmallVector<NamedAttribute> attrs = {
          named("to", TypeAttr::get(target)),
          named("saturate", BoolAttr::get(scaled.getContext(), saturate))};
      return op("graph.cast", {scaled}, attrs, target);
    }
    auto integer = dyn_cast<IntegerType>(target);
    if (!integer || integer.getWidth() < 2) {
      emitError(at) << opName << " cannot quantize to " << target;
      return {};
    }
    unsigned width = integer.getWidth();
    bool isUnsigned = integer.isUnsigned();
    double low =
        isUnsigned
            ? 0.0
            : double(llvm::APInt::getSignedMinValue(width).getSExtValue());
    double high =
        isUnsigned
            ? double(llvm::APInt::getMaxValue(width).getZExtValue())
            : double(llvm::APInt::getSignedMaxValue(width).getSExtValue());
    Value q = op("graph.round", {scaled});
    if (zeroPoint) {
      q = op("graph.add", {q, castTo(zeroPoint, f)});
    }
    q = op("graph.clamp", {q, scalar(f, low), scalar(f, high)});
    return castTo(q, target);
  }

  /// `v` cast to i32 minus `zeroPoint` cast to i32 (`zeroPoint` already
  /// shaped to broadcast; null when the node has none).
  Value shiftToI32(Value v, Value zeroPoint) {
    Type i32 = imp.builder.getI32Type();
    Value r = castTo(v, i32);
    return zeroPoint ? op("graph.sub", {r, castTo(zeroPoint, i32)}) : r;
  }

  /// A per-tensor operand (`what`): one element, made a scalar; null after
  /// an error otherwise.
  Value scalarOperand(Value v, StringRef what) {
    auto shape = v ? getShape(v) : std::nullopt;
    if (!shape || numElements(*shape) != 1) {
      emitError(at) << opName << " " << what << " must be one element";
      return {};
    }
    return shape->empty() ? v : reshape(v, {});
  }

  /// A per-tensor (one element) or per-row (`rows` elements) operand of an
  /// `[..., rows, cols]` matmul operand, shaped to broadcast against it.
  Value alignRows(Value v, StringRef what, int64_t rows) {
    auto shape = getShape(v);
    if (!shape) {
      emitError(at) << opName << " " << what << " must have a known rank";
      return {};
    }
    int64_t count = numElements(*shape);
    if (count == 1) {
      return shape->empty() ? v : reshape(v, {});
    }
    if (shape->size() == 1) {
      if (!ShapedType::isDynamic(rows) && !ShapedType::isDynamic(count) &&
          count != rows) {
        emitError(at) << opName << " " << what << " has " << count
                      << " elements for " << rows << " rows";
        return {};
      }
      return reshape(v, {-1, 1});
    }
    return v;
  }

  /// A per-tensor (one element, made a scalar) or per-column operand of
  /// the right matmul operand; a per-column one broadcasts as it is.
  Value alignColumns(Value v, StringRef what) {
    auto shape = getShape(v);
    if (!shape) {
      emitError(at) << opName << " " << what << " must have a known rank";
      return {};
    }
    return numElements(*shape) == 1 && !shape->empty() ? reshape(v, {}) : v;
  }

  /// A per-tensor or per-output-channel operand (`channels` elements)
  /// shaped `[channels, 1, ...]` with `trailing` unit dimensions, or a
  /// scalar.
  Value alignChannels(Value v, StringRef what, int64_t channels,
                      int64_t leading, int64_t trailing) {
    auto shape = getShape(v);
    if (!shape) {
      emitError(at) << opName << " " << what << " must have a known rank";
      return {};
    }
    int64_t count = numElements(*shape);
    if (count == 1) {
      return shape->empty() ? v : reshape(v, {});
    }
    if (shape->size() != 1 ||
        (!ShapedType::isDynamic(channels) && !ShapedType::isDynamic(count) &&
         count != channels)) {
      emitError(at) << opName << " " << what
                    << " is neither per tensor nor per output channel ("
                    << channels << " elements)";
      return {};
    }
    llvm::SmallVector<int64_t> aligned(leading, 1);
    aligned.push_back(-1);
    aligned.append(trailing, 1);
    return reshape(v, aligned);
  }
};

} // namespace

/// QuantizeLinear, DequantizeLinear.
std::optional<FailureOr<llvm::SmallVector<Value>>>
OnnxImporter::importQuantizeLinear(const GraphNode &node,
                                   const onnx::NodeProto &def,
                                   ArrayRef<Value> in, Location at) {
  StringRef op = node.op;
  QuantBuilder b{{*this, at}, op, in};
  if (failed(b.need({0, 1}))) {
    return nodeFailed(failure());
  }
  Value x = in[0], scale = in[1], zeroPoint = b.input(2);
  auto xShape = b.knownShape(x, "input");
  if (!xShape) {
    return nodeFailed(failure());
  }
  int64_t axis = attrInt(def, "axis", 1);
  int64_t blockSize = attrInt(def, "block_size", 0);
  Value alignedScale = b.alignToAxis(scale, "scale", *xShape, axis, blockSize);
  Value alignedZero = zeroPoint ? b.alignToAxis(zeroPoint, "zero point",
                                                *xShape, axis, blockSize)
                                : Value();
  if (!alignedScale || (zeroPoint && !alignedZero)) {
    return nodeFailed(failure());
  }
  Type scaleType = getElementType(scale);
  if (!isa<FloatType>(scaleType)) {
    return nodeFailed(emitError(at) << op << " scale must be a float, "
                                    << "got " << scaleType);
  }
  if (op == "QuantizeLinear") {
    // The target: the zero point's type, else output_dtype, else uint8.
    Type target = zeroPoint ? getElementType(zeroPoint) : Type();
    if (int64_t dtype = attrInt(def, "output_dtype", 0)) {
      Type named = b.elementOf(dtype);
      if (!named) {
        return nodeFailed(failure());
      }
      if (target && target != named) {
        return nodeFailed(emitError(at)
                          << op << " output_dtype " << named
                          << " does not match the zero point's type "
                          << target);
      }
      target = named;
    }
    if (!target) {
      target = IntegerType::get(ctx, 8, IntegerType::Unsigned);
    }
    Type f = b.computeType({getElementType(x), scaleType, target});
    if (int64_t precision = attrInt(def, "precision", 0)) {
      f = b.elementOf(precision);
      if (!f) {
        return nodeFailed(failure());
      }
    }
    Value scaled =
        b.op("graph.div", {b.castTo(x, f), b.castTo(alignedScale, f)});
    bool saturate = attrInt(def, "saturate", 1) != 0;
    return nodeResults({b.quantize(scaled, alignedZero, target, saturate)});
  }
  // DequantizeLinear: output is the scale's type unless output_dtype
  // says otherwise.
  Type out = scaleType;
  if (int64_t dtype = attrInt(def, "output_dtype", 0)) {
    out = b.elementOf(dtype);
    if (!out) {
      return nodeFailed(failure());
    }
  }
  Type xType = getElementType(x);
  Type f = b.computeType({scaleType, out});
  Value diff;
  if (auto integer = dyn_cast<IntegerType>(xType)) {
    // The difference exactly, in an integer wide enough for it.
    Type wide = IntegerType::get(ctx, integer.getWidth() < 32 ? 32 : 64);
    diff = b.castTo(x, wide);
    if (alignedZero) {
      diff = b.op("graph.sub", {diff, b.castTo(alignedZero, wide)});
    }
    diff = b.castTo(diff, f);
  } else {
    diff = b.castTo(x, f);
    if (alignedZero) {
      diff = b.op("graph.sub", {diff, b.castTo(alignedZero, f)});
    }
  }
  Value y = b.op("graph.mul", {diff, b.castTo(alignedScale, f)});
  return nodeResults({b.castTo(y, out)});
}

/// DynamicQuantizeLinear.
std::optional<FailureOr<llvm::SmallVector<Value>>>
OnnxImporter::importDynamicQuantizeLinear(const GraphNode &node,
                                          const onnx::NodeProto &def,
                                          ArrayRef<Value> in, Location at) {
  StringRef op = node.op;
  QuantBuilder b{{*this, at}, op, in};
  // As the ONNX function body: the range [min(x, 0), max(x, 0)] onto
  // [0, 255]; the zero point clipped, then rounded.
  if (failed(b.need({0}))) {
    return nodeFailed(failure());
  }
  Value x = in[0];
  Type f = getElementType(x);
  if (!isa<FloatType>(f) || !b.knownShape(x, "input")) {
    return nodeFailed(emitError(at) << op << " needs a float input of "
                                    << "known rank, got " << x.getType());
  }
  Value zero = b.scalar(f, 0), qmax = b.scalar(f, 255);
  Value low = b.op("graph.min", {b.reduce(x, "min"), zero});
  Value high = b.op("graph.max", {b.reduce(x, "max"), zero});
  Value scale = b.op("graph.div", {b.op("graph.sub", {high, low}), qmax});
  Value zeroFp = b.op("graph.sub", {zero, b.op("graph.div", {low, scale})});
  zeroFp = b.op("graph.clamp", {zeroFp, zero, qmax});
  Type u8 = IntegerType::get(ctx, 8, IntegerType::Unsigned);
  Value zeroPoint = b.cast(b.op("graph.round", {zeroFp}), u8);
  Value y = b.quantize(b.op("graph.div", {x, scale}), zeroPoint, u8,
                       /*saturate=*/true);
  return nodeResults({y, scale, zeroPoint});
}

/// MatMulInteger, ConvInteger, QLinearMatMul, QLinearConv: integer
/// accumulation, then (QLinear*) requantization.
std::optional<FailureOr<llvm::SmallVector<Value>>>
OnnxImporter::importIntegerMatMulConv(const GraphNode &node,
                                      const onnx::NodeProto &def,
                                      ArrayRef<Value> in, Location at) {
  StringRef op = node.op;
  QuantBuilder b{{*this, at}, op, in};
  bool qlinear = op.starts_with("QLinear");
  // Operand positions: QLinear* interleave scales and zero points.
  size_t aIdx = 0, aZeroIdx = 2, bIdx = qlinear ? 3 : 1,
         bZeroIdx = qlinear ? 5 : 3;
  if (failed(b.need(qlinear ? std::initializer_list<size_t>{0, 1, 3, 4, 6}
                            : std::initializer_list<size_t>{0, 1}))) {
    return nodeFailed(failure());
  }
  Value a = in[aIdx], w = in[bIdx];
  auto aShape = b.knownShape(a, "input 0"),
       wShape = b.knownShape(w, qlinear ? "input 3" : "input 1");
  if (!aShape || !wShape) {
    return nodeFailed(failure());
  }
  for (Value v : {a, w}) {
    Type t = getElementType(v);
    if (!isa<IntegerType>(t) || t.getIntOrFloatBitWidth() > 16) {
      return nodeFailed(emitError(at) << op << " takes 8- or 16-bit "
                                      << "integer operands, got " << t);
    }
  }
  bool conv = op == "ConvInteger" || op == "QLinearConv";
  Value acc;
  int64_t channels = 0, outRank = 0;
  if (!conv) {
    if (aShape->empty() || wShape->empty()) {
      return nodeFailed(emitError(at) << op << " operands must have "
                                      << "rank >= 1");
    }
    // a_zero_point per tensor or per row of a ([M] -> [M, 1]); the
    // b_zero_point per tensor or per column broadcasts as it is.
    int64_t rows = aShape->size() >= 2 ? (*aShape)[aShape->size() - 2] : 1;
    Value aZero = b.input(aZeroIdx), bZero = b.input(bZeroIdx);
    if (aZero && aShape->size() >= 2) {
      aZero = b.alignRows(aZero, "a_zero_point", rows);
    }
    if (bZero) {
      bZero = b.alignColumns(bZero, "b_zero_point");
    }
    // A null zero point below means none; a failed alignment has emitted.
    if ((b.input(aZeroIdx) && !aZero) || (b.input(bZeroIdx) && !bZero)) {
      return nodeFailed(failure());
    }
    Value lhs = b.shiftToI32(a, aZero), rhs = b.shiftToI32(w, bZero);
    acc = b.op("graph.matmul", {lhs, rhs});
  } else {
    // ConvInteger / QLinearConv: w_zero_point per tensor or per output
    // channel ([M] -> [M, 1, ..., 1] against the filter).
    if (aShape->size() < 3 || wShape->size() != aShape->size()) {
      return nodeFailed(emitError(at)
                        << op << " needs an input of rank >= 3 and a "
                        << "filter of the same rank");
    }
    channels = wShape->front();
    outRank = aShape->size();
    Value xZero = b.input(aZeroIdx), wZero = b.input(bZeroIdx);
    if (xZero && !(xZero = b.scalarOperand(xZero, "x_zero_point"))) {
      return nodeFailed(failure());
    }
    if (wZero) {
      wZero = b.alignChannels(wZero, "w_zero_point", channels, 0, outRank - 1);
      if (!wZero) {
        return nodeFailed(failure());
      }
    }
    // Padding of the shifted input adds zeros: positions worth
    // x_zero_point, as ONNX pads.
    Value lhs = b.shiftToI32(a, xZero), rhs = b.shiftToI32(w, wZero);
    llvm::SmallVector<int64_t> window(wShape->begin() + 2, wShape->end());
    FailureOr<llvm::SmallVector<NamedAttribute>> attrs =
        windowAttrs(op, def, *aShape, window, at);
    if (failed(attrs)) {
      return nodeFailed(failure());
    }
    attrs->push_back(b.i64("groups", attrInt(def, "group", 1)));
    llvm::SmallVector<Value> operands = {lhs, rhs};
    if (Value bias = b.input(8); qlinear && bias) {
      if (!getElementType(bias).isInteger(32)) {
        return nodeFailed(emitError(at) << op << " bias must be int32, "
                                        << "got " << getElementType(bias));
      }
      operands.push_back(bias);
    }
    acc = b.op("graph.conv", operands, *attrs);
  }
  if (!qlinear) {
    return nodeResults({acc});
  }

  // Requantize: acc * (a_scale * b_scale / y_scale), rounded, + y_zp.
  Value aScale = in[1], bScale = in[4], yScale = in[6], yZero = b.input(7);
  Type target = yZero ? getElementType(yZero)
                      : IntegerType::get(ctx, 8, IntegerType::Unsigned);
  Type f = b.computeType(
      {getElementType(aScale), getElementType(bScale), getElementType(yScale)});
  Value aS, bS;
  if (!conv) {
    int64_t rows = aShape->size() >= 2 ? (*aShape)[aShape->size() - 2] : 1;
    aS = aShape->size() >= 2 ? b.alignRows(aScale, "a_scale", rows) : aScale;
    bS = b.alignColumns(bScale, "b_scale");
  } else {
    if (!(aS = b.scalarOperand(aScale, "x_scale"))) {
      return nodeFailed(failure());
    }
    bS = b.alignChannels(bScale, "w_scale", channels, 1, outRank - 2);
  }
  Value yS = b.scalarOperand(yScale, "y_scale");
  if (!yS || (yZero && !(yZero = b.scalarOperand(yZero, "y_zero_point")))) {
    return nodeFailed(failure());
  }
  Value multiplier =
      b.op("graph.div", {b.op("graph.mul", {b.castTo(aS, f), b.castTo(bS, f)}),
                         b.castTo(yS, f)});
  Value scaled = b.op("graph.mul", {b.castTo(acc, f), multiplier});
  return nodeResults({b.quantize(scaled, yZero, target, /*saturate=*/true)});
}

} // namespace graphc::import
