//===- Attention.cpp - ONNX attention-family ops --------------------------===//
//
// Translates the transformer ops of opsets 23-27 (Attention,
// RMSNormalization, RotaryEmbedding, CausalConvWithState, LinearAttention,
// and the preview domain's FlexAttention) into existing graph ops: matmul,
// softmax, conv, transpose, reshape, broadcast_to, elementwise and
// reductions. Each translation
// follows the op's ONNX function body (the `_expanded` node tests), so
// rounding matches the reference: e.g. Attention scales Q and K each by
// sqrt(scale) before the product, as the function does.
//
//===----------------------------------------------------------------------===//

#include "OnnxImporterImpl.h"

#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Diagnostics.h"

#include "llvm/ADT/StringSwitch.h"

#include <cmath>

using namespace mlir;

namespace graphc::import {
namespace {

using Results = llvm::SmallVector<Value>;

/// Small builders over OnnxImporter::build1 that propagate a null operand
/// (an earlier failure, already reported) as a null result.
class Emitter {
public:
  Emitter(OnnxImporter &imp, Location at) : imp(imp), at(at) {}

  NamedAttribute named(StringRef n, Attribute a) {
    return imp.builder.getNamedAttr(n, a);
  }
  Attribute i64Array(ArrayRef<int64_t> v) {
    return imp.builder.getDenseI64ArrayAttr(v);
  }

  Value op(StringRef name, ValueRange operands,
           ArrayRef<NamedAttribute> attrs = {}, Type element = {}) {
    for (Value v : operands) {
      if (!v) {
        return Value();
      }
    }
    return imp.build1(at, name, operands, attrs, element);
  }
  Value add(Value a, Value b) { return op("graph.add", {a, b}); }
  Value sub(Value a, Value b) { return op("graph.sub", {a, b}); }
  Value mul(Value a, Value b) { return op("graph.mul", {a, b}); }
  Value div(Value a, Value b) { return op("graph.div", {a, b}); }
  Value reshape(Value v, ArrayRef<int64_t> shape) {
    return op("graph.reshape", {v}, {named("shape", i64Array(shape))});
  }
  Value transpose(Value v, ArrayRef<int64_t> perm) {
    return op("graph.transpose", {v}, {named("perm", i64Array(perm))});
  }
  Value concat(ValueRange vs, int64_t axis) {
    return op("graph.concat", vs,
              {named("axis", imp.builder.getI64IntegerAttr(axis))});
  }
  Value cast(Value v, Type to) {
    if (!v || getElementType(v) == to) {
      return v;
    }
    return op("graph.cast", {v}, {named("to", TypeAttr::get(to))}, to);
  }
  /// `v[..., start:limit:step]` along `axis` of a static-shaped value.
  Value slice(Value v, int64_t axis, int64_t start, int64_t limit,
              int64_t step = 1) {
    if (!v) {
      return v;
    }
    auto shape = *getShape(v);
    llvm::SmallVector<int64_t> lo(shape.size(), 0), hi(shape),
        st(shape.size(), 1);
    lo[axis] = start;
    hi[axis] = limit;
    st[axis] = step;
    return op("graph.slice", {v},
              {named("starts", i64Array(lo)), named("limits", i64Array(hi)),
               named("strides", i64Array(st))});
  }
  Value scalar(Type element, double value) {
    return imp.scalar(at, element, value);
  }

  OnnxImporter &imp;
  Location at;
};

/// The shape of `v` when it is ranked and static.
std::optional<llvm::SmallVector<int64_t>> staticShape(Value v) {
  auto shape = getShape(v);
  if (!shape || ShapedType::isDynamicShape(*shape)) {
    return std::nullopt;
  }
  return shape;
}

/// The element type an ONNX TensorProto data type names; null when the
/// code is not a float type the graph dialect has.
Type floatTypeOf(MLIRContext *ctx, int64_t code) {
  Type t = convertOnnxElementType(ctx, int32_t(code));
  return t && isa<FloatType>(t) ? t : Type();
}

} // namespace

//===----------------------------------------------------------------------===//
// Attention (opset 23/24)
//===----------------------------------------------------------------------===//

// Y = softmax(softcap(Q K^T * scale) + bias) V per head, with
//  * 3-D inputs [B, S, H*D] split into heads (q_num_heads, kv_num_heads),
//  * grouped-query attention: each KV head serves q_heads / kv_heads
//    query heads (K and V repeated along the head axis),
//  * past_key / past_value concatenated in front of K / V (returned as
//    present_key / present_value),
//  * bias = attn_mask (additive, or boolean: false -> -inf; padded with
//    -inf up to the total KV length) + the causal mask (query i, offset by
//    the past length, sees keys j <= i + past) + the padding mask of
//    nonpad_kv_seqlen (opset 24),
//  * qk_matmul_output: 0 = Q K^T scaled, 1 = after softcap, 2 = after the
//    bias, 3 = after softmax.
/// A score or probability modifier (FlexAttention's score_mod / prob_mod):
/// returns the modified value, or null having reported an error.
using AttentionMod = llvm::function_ref<Value(Value)>;

namespace {
/// Attention's Q, K and V as [B, H, S, D] (3-D inputs split into heads),
/// with their sizes.
struct AttentionHeads {
  Value q, k, v;
  Type element;
  int64_t rank, batch, qHeads, kvHeads, qLen, kvLen, headSize, vHeadSize;
};
} // namespace

/// Checks Q, K and V (static, rank 3 or 4, matching batch and head sizes,
/// query heads a multiple of KV heads) and splits 3-D ones into heads.
static FailureOr<AttentionHeads> attentionHeads(OnnxImporter &imp, Emitter &e,
                                                const onnx::NodeProto &def,
                                                ArrayRef<Value> in,
                                                Location at) {
  auto operand = [&](unsigned i) { return i < in.size() ? in[i] : Value(); };
  Value q = operand(0), k = operand(1), v = operand(2);
  if (!q || !k || !v) {
    return emitError(at) << "Attention needs Q, K and V";
  }
  auto qShape = staticShape(q), kShape = staticShape(k),
       vShape = staticShape(v);
  if (!qShape || !kShape || !vShape) {
    return emitError(at) << "Attention needs static Q, K and V shapes (fix "
                            "them with --input-shape)";
  }
  int64_t rank = qShape->size();
  if ((rank != 3 && rank != 4) || int64_t(kShape->size()) != rank ||
      int64_t(vShape->size()) != rank) {
    return emitError(at) << "Attention needs Q, K and V all of rank 3 or 4, "
                            "got ranks "
                         << rank << ", " << kShape->size() << ", "
                         << vShape->size();
  }
  Type element = getElementType(q);
  int64_t batch = (*qShape)[0];
  int64_t qHeads, kvHeads, qLen, kvLen, headSize, vHeadSize;
  if (rank == 3) {
    qHeads = imp.attrInt(def, "q_num_heads", 0);
    kvHeads = imp.attrInt(def, "kv_num_heads", 0);
    if (qHeads <= 0 || kvHeads <= 0 || (*qShape)[2] % qHeads != 0 ||
        (*kShape)[2] % kvHeads != 0 || (*vShape)[2] % kvHeads != 0) {
      return emitError(at)
             << "3-D Attention needs q_num_heads and kv_num_heads that divide "
                "the hidden sizes, got "
             << qHeads << " and " << kvHeads << " for " << (*qShape)[2] << ", "
             << (*kShape)[2] << " and " << (*vShape)[2];
    }
    qLen = (*qShape)[1];
    kvLen = (*kShape)[1];
    headSize = (*qShape)[2] / qHeads;
    vHeadSize = (*vShape)[2] / kvHeads;
    // [B, S, H*D] -> [B, H, S, D]
    auto heads = [&](Value x, int64_t len, int64_t h, int64_t d) {
      return e.transpose(e.reshape(x, {batch, len, h, d}), {0, 2, 1, 3});
    };
    q = heads(q, qLen, qHeads, headSize);
    k = heads(k, kvLen, kvHeads, headSize);
    v = heads(v, kvLen, kvHeads, vHeadSize);
  } else {
    qHeads = (*qShape)[1];
    kvHeads = (*kShape)[1];
    qLen = (*qShape)[2];
    kvLen = (*kShape)[2];
    headSize = (*qShape)[3];
    vHeadSize = (*vShape)[3];
  }
  if ((*kShape)[0] != batch || (*vShape)[0] != batch ||
      (rank == 4 && ((*kShape)[3] != headSize || (*vShape)[1] != kvHeads ||
                     (*vShape)[2] != kvLen))) {
    return emitError(at) << "Attention K and V shapes do not match Q's batch "
                            "and head sizes";
  }
  if (kvHeads <= 0 || qHeads % kvHeads != 0) {
    return emitError(at) << "Attention q heads " << qHeads
                         << " are not a multiple of kv heads " << kvHeads;
  }
  return AttentionHeads{q,      k,       v,    element, rank,     batch,
                        qHeads, kvHeads, qLen, kvLen,   headSize, vHeadSize};
}

static FailureOr<Results> importAttention(OnnxImporter &imp,
                                          const onnx::NodeProto &def,
                                          ArrayRef<Value> in, Location at,
                                          AttentionMod scoreMod = nullptr,
                                          AttentionMod probMod = nullptr) {
  Emitter e(imp, at);
  auto operand = [&](unsigned i) { return i < in.size() ? in[i] : Value(); };
  FailureOr<AttentionHeads> heads = attentionHeads(imp, e, def, in, at);
  if (failed(heads)) {
    return failure();
  }
  Value q = heads->q, k = heads->k, v = heads->v;
  Type element = heads->element;
  int64_t rank = heads->rank, batch = heads->batch, qHeads = heads->qHeads,
          kvHeads = heads->kvHeads, qLen = heads->qLen, kvLen = heads->kvLen,
          headSize = heads->headSize, vHeadSize = heads->vHeadSize;

  // KV cache.
  Value pastK = operand(4), pastV = operand(5);
  int64_t pastLen = 0;
  if (bool(pastK) != bool(pastV)) {
    return emitError(at) << "Attention needs both past_key and past_value, "
                            "or neither";
  }
  if (pastK) {
    auto pk = staticShape(pastK), pv = staticShape(pastV);
    if (!pk || !pv || pk->size() != 4 || pv->size() != 4 ||
        (*pk)[2] != (*pv)[2]) {
      return emitError(at) << "Attention past_key and past_value must be "
                              "static 4-D tensors of one length";
    }
    pastLen = (*pk)[2];
    k = e.concat({pastK, k}, 2);
    v = e.concat({pastV, v}, 2);
  }
  Value presentK = k, presentV = v;
  int64_t total = pastLen + kvLen;
  // Narrow floats are computed in f32 and rounded once at the end, as the
  // reference does (the f16 node tests expect that rounding).
  Type io = element;
  if (element.getIntOrFloatBitWidth() < 32) {
    element = imp.builder.getF32Type();
    q = e.cast(q, element);
    k = e.cast(k, element);
    v = e.cast(v, element);
  }

  // Scale Q and K by sqrt(scale) each, as the ONNX function does.
  const onnx::AttributeProto *scaleAttr = imp.attr(def, "scale");
  double scale = scaleAttr ? double(scaleAttr->f())
                           : double(1.0f / std::sqrt(float(headSize)));
  Value root = e.scalar(element, double(std::sqrt(float(scale))));
  q = e.mul(q, root);
  k = e.mul(k, root);

  // Grouped-query attention: repeat each KV head for its query heads.
  if (qHeads != kvHeads) {
    int64_t group = qHeads / kvHeads;
    auto repeat = [&](Value x, int64_t d) {
      Value b = e.op(
          "graph.broadcast_to", {e.reshape(x, {batch, kvHeads, 1, total, d})},
          {e.named("shape", e.i64Array({batch, kvHeads, group, total, d}))});
      return e.reshape(b, {batch, qHeads, total, d});
    };
    k = repeat(k, headSize);
    v = repeat(v, vHeadSize);
  }

  Value qk = e.op("graph.matmul", {q, k},
                  {e.named("transpose_rhs", imp.builder.getUnitAttr())});
  Value capped = qk;
  if (float softcap = imp.attrFloat(def, "softcap", 0.0f); softcap > 0) {
    Value c = e.scalar(element, softcap);
    capped = e.mul(e.op("graph.tanh", {e.div(qk, c)}), c);
  }

  // The additive bias: mask, causal mask, KV padding mask.
  Value negInf = e.scalar(element, -INFINITY);
  Value zero = e.scalar(element, 0.0);
  Value bias;
  auto addBias = [&](Value b) { bias = bias ? e.add(bias, b) : b; };
  if (Value mask = operand(3)) {
    auto mShape = staticShape(mask);
    if (!mShape || mShape->empty() || mShape->back() > total) {
      return emitError(at) << "Attention attn_mask must be static with at "
                              "most "
                           << total << " columns";
    }
    Type mElement = getElementType(mask);
    if (mElement.isInteger(1)) {
      mask = e.op("graph.select", {mask, zero, negInf}, {}, element);
    } else if (isa<FloatType>(mElement)) {
      mask = e.cast(mask, element);
    } else {
      return emitError(at) << "Attention attn_mask must be boolean or float";
    }
    if (int64_t short_ = total - mShape->back(); short_ > 0) {
      llvm::SmallVector<int64_t> low(mShape->size(), 0), high(low);
      high.back() = short_;
      mask = e.op(
          "graph.pad", {mask, negInf},
          {e.named("low", e.i64Array(low)), e.named("high", e.i64Array(high))});
    }
    addBias(mask);
  }
  if (imp.attrInt(def, "is_causal", 0)) {
    llvm::SmallVector<Attribute> values;
    Attribute ninf = imp.builder.getFloatAttr(element, -INFINITY);
    Attribute zeroAttr = imp.builder.getFloatAttr(element, 0.0);
    for (int64_t i = 0; i < qLen; ++i) {
      for (int64_t j = 0; j < total; ++j) {
        values.push_back(i + pastLen < j ? ninf : zeroAttr);
      }
    }
    addBias(imp.constant(
        at, DenseElementsAttr::get(
                RankedTensorType::get({qLen, total}, element), values)));
  }
  if (Value nonpad = operand(6)) {
    // Keys at positions >= nonpad_kv_seqlen[b] are padding.
    llvm::SmallVector<int64_t> iota;
    for (int64_t j = 0; j < total; ++j) {
      iota.push_back(j);
    }
    Attribute lt = parseAttr(imp.ctx, at, "#graph<compare_direction lt>");
    if (!lt) {
      return failure();
    }
    Value keep =
        e.op("graph.compare",
             {imp.i64Const(at, iota), e.reshape(nonpad, {batch, 1, 1, 1})},
             {e.named("direction", lt)}, imp.builder.getI1Type());
    addBias(e.op("graph.select", {keep, zero, negInf}, {}, element));
  }
  Value biased = bias ? e.add(capped, bias) : capped;
  if (scoreMod && biased) {
    biased = scoreMod(biased);
  }

  Value probs = biased;
  Type softmaxType = element;
  if (int64_t p = imp.attrInt(def, "softmax_precision", 0)) {
    softmaxType = floatTypeOf(imp.ctx, p);
    if (!softmaxType) {
      return emitError(at) << "Attention softmax_precision " << p
                           << " is not a float type";
    }
  }
  probs = e.cast(e.op("graph.softmax", {e.cast(probs, softmaxType)},
                      {e.named("axis", imp.builder.getI64IntegerAttr(-1))}),
                 element);
  if (probMod && probs) {
    probs = probMod(probs);
  }
  Value y = e.op("graph.matmul", {probs, v});
  if (rank == 3) {
    y = e.reshape(e.transpose(y, {0, 2, 1, 3}),
                  {batch, qLen, qHeads * vHeadSize});
  }

  y = e.cast(y, io);
  int64_t mode = imp.attrInt(def, "qk_matmul_output_mode", 0);
  Value qkOut = mode == 0   ? qk
                : mode == 1 ? capped
                : mode == 2 ? biased
                : mode == 3 ? probs
                            : Value();
  if (!qkOut) {
    return emitError(at) << "Attention qk_matmul_output_mode " << mode
                         << " is not 0, 1, 2 or 3";
  }
  if (def.output_size() > 3 && !def.output(3).empty()) {
    qkOut = e.cast(qkOut, io);
  }
  if (!y || !presentK || !presentV || !qkOut) {
    return failure();
  }
  return Results{y, presentK, presentV, qkOut};
}

//===----------------------------------------------------------------------===//
// RMSNormalization (opset 23)
//===----------------------------------------------------------------------===//

// Y = X / sqrt(mean(X^2 over axes [axis, rank)) + epsilon) * scale, the
// statistics in stash_type (float32 by default).
static FailureOr<Results> importRMSNorm(OnnxImporter &imp,
                                        const onnx::NodeProto &def,
                                        ArrayRef<Value> in, Location at) {
  Emitter e(imp, at);
  if (in.size() < 2 || !in[0] || !in[1]) {
    return emitError(at) << "RMSNormalization needs X and scale";
  }
  auto shape = getShape(in[0]);
  if (!shape) {
    return emitError(at) << "RMSNormalization of an unranked input";
  }
  int64_t rank = shape->size();
  int64_t axis = imp.attrInt(def, "axis", -1);
  int64_t a = axis < 0 ? axis + rank : axis;
  if (a < 0 || a >= rank) {
    return emitError(at) << "RMSNormalization axis " << axis
                         << " out of range for rank " << rank;
  }
  llvm::SmallVector<int64_t> axes;
  for (int64_t i = a; i < rank; ++i) {
    axes.push_back(i);
  }
  Type element = getElementType(in[0]);
  Type stash = floatTypeOf(imp.ctx, imp.attrInt(def, "stash_type", 1));
  if (!stash) {
    return emitError(at) << "RMSNormalization stash_type "
                         << imp.attrInt(def, "stash_type", 1)
                         << " is not a float type";
  }
  Attribute mean = parseAttr(imp.ctx, at, "#graph<reduce_kind mean>");
  if (!mean) {
    return failure();
  }
  Value x = e.cast(in[0], stash);
  Value ms = e.op("graph.reduce", {e.mul(x, x)},
                  {e.named("kind", mean), e.named("axes", e.i64Array(axes)),
                   e.named("keepdims", imp.builder.getUnitAttr())});
  Value rms =
      e.op("graph.sqrt",
           {e.add(ms, e.scalar(stash, imp.attrFloat(def, "epsilon", 1e-5f)))});
  Value y = e.mul(e.cast(e.div(x, rms), element), in[1]);
  if (!y) {
    return failure();
  }
  return Results{y};
}

//===----------------------------------------------------------------------===//
// RotaryEmbedding (opset 23)
//===----------------------------------------------------------------------===//

// Rotates the first rotary_embedding_dim features of each head by the
// angles of cos_cache / sin_cache (gathered at position_ids when given):
// pairs (x[i], x[i + dim/2]), or (x[2i], x[2i+1]) when interleaved.
// Input [B, H, S, D] or [B, S, H*D] (num_heads); computed as [B, S, H, D].
static FailureOr<Results> importRotary(OnnxImporter &imp,
                                       const onnx::NodeProto &def,
                                       ArrayRef<Value> in, Location at) {
  Emitter e(imp, at);
  auto operand = [&](unsigned i) { return i < in.size() ? in[i] : Value(); };
  Value x = operand(0), cosCache = operand(1), sinCache = operand(2);
  if (!x || !cosCache || !sinCache) {
    return emitError(at) << "RotaryEmbedding needs input, cos_cache and "
                            "sin_cache";
  }
  auto shape = staticShape(x);
  if (!shape || (shape->size() != 3 && shape->size() != 4)) {
    return emitError(at) << "RotaryEmbedding needs a static input of rank 3 "
                            "or 4";
  }
  int64_t batch = (*shape)[0], heads, len, headSize;
  if (shape->size() == 4) {
    heads = (*shape)[1];
    len = (*shape)[2];
    headSize = (*shape)[3];
    x = e.transpose(x, {0, 2, 1, 3});
  } else {
    heads = imp.attrInt(def, "num_heads", 0);
    len = (*shape)[1];
    if (heads <= 0 || (*shape)[2] % heads != 0) {
      return emitError(at) << "3-D RotaryEmbedding needs num_heads dividing "
                           << (*shape)[2] << ", got " << heads;
    }
    headSize = (*shape)[2] / heads;
    x = e.reshape(x, {batch, len, heads, headSize});
  }
  int64_t dim = imp.attrInt(def, "rotary_embedding_dim", 0);
  if (dim == 0) {
    dim = headSize;
  }
  if (dim < 0 || dim > headSize || dim % 2 != 0) {
    return emitError(at) << "RotaryEmbedding rotary_embedding_dim " << dim
                         << " must be even and at most the head size "
                         << headSize;
  }
  int64_t half = dim / 2;
  if (Value positions = operand(3)) {
    cosCache = e.op("graph.gather", {cosCache, positions},
                    {e.named("axis", imp.builder.getI64IntegerAttr(0))});
    sinCache = e.op("graph.gather", {sinCache, positions},
                    {e.named("axis", imp.builder.getI64IntegerAttr(0))});
  }
  auto cShape = cosCache ? staticShape(cosCache) : std::nullopt;
  auto sShape = sinCache ? staticShape(sinCache) : std::nullopt;
  if (!cShape || !sShape || cShape->size() != 3 || *cShape != *sShape ||
      (*cShape)[0] != batch || (*cShape)[1] != len || (*cShape)[2] < half) {
    return emitError(at) << "RotaryEmbedding caches must give [" << batch
                         << ", " << len << ", >= " << half
                         << "] angles for the input";
  }
  // [B, S, half] -> [B, S, 1, half], broadcast over the heads.
  auto angles = [&](Value c) {
    return e.reshape(e.slice(c, 2, 0, half), {batch, len, 1, half});
  };
  Value cos = angles(cosCache), sin = angles(sinCache);
  bool interleaved = imp.attrInt(def, "interleaved", 0);
  Value rotate = dim == headSize ? x : e.slice(x, 3, 0, dim);
  Value x1 =
      interleaved ? e.slice(rotate, 3, 0, dim, 2) : e.slice(rotate, 3, 0, half);
  Value x2 = interleaved ? e.slice(rotate, 3, 1, dim, 2)
                         : e.slice(rotate, 3, half, dim);
  Value real = e.sub(e.mul(cos, x1), e.mul(sin, x2));
  Value imag = e.add(e.mul(sin, x1), e.mul(cos, x2));
  Value rotated;
  if (interleaved) {
    llvm::SmallVector<int64_t> pairs = {batch, len, heads, half, 1};
    rotated =
        e.reshape(e.concat({e.reshape(real, pairs), e.reshape(imag, pairs)}, 4),
                  {batch, len, heads, dim});
  } else {
    rotated = e.concat({real, imag}, 3);
  }
  if (dim != headSize) {
    rotated = e.concat({rotated, e.slice(x, 3, dim, headSize)}, 3);
  }
  Value y = shape->size() == 4
                ? e.transpose(rotated, {0, 2, 1, 3})
                : e.reshape(rotated, {batch, len, heads * headSize});
  if (!y) {
    return failure();
  }
  return Results{y};
}

//===----------------------------------------------------------------------===//
// CausalConvWithState (opset 27)
//===----------------------------------------------------------------------===//

// A depthwise causal 1-D convolution over [B, C, T] with weight [C, 1, K]:
// the input is prefixed by past_state [B, C, K-1] (zeros when absent), the
// output keeps T steps, present_state is the last K-1 padded steps; then
// the optional activation (silu / swish).
static FailureOr<Results> importCausalConv(OnnxImporter &imp,
                                           const onnx::NodeProto &def,
                                           ArrayRef<Value> in, Location at) {
  Emitter e(imp, at);
  auto operand = [&](unsigned i) { return i < in.size() ? in[i] : Value(); };
  Value x = operand(0), w = operand(1), bias = operand(2), past = operand(3);
  if (!x || !w) {
    return emitError(at) << "CausalConvWithState needs input and weight";
  }
  auto xShape = staticShape(x), wShape = staticShape(w);
  if (!xShape || !wShape || xShape->size() != 3 || wShape->size() != 3 ||
      (*wShape)[0] != (*xShape)[1] || (*wShape)[1] != 1) {
    return emitError(at) << "CausalConvWithState needs a static [B, C, T] "
                            "input and a [C, 1, K] weight";
  }
  int64_t batch = (*xShape)[0], channels = (*xShape)[1], len = (*xShape)[2];
  int64_t kernel = (*wShape)[2];
  StringRef activation = "none";
  if (const onnx::AttributeProto *a = imp.attr(def, "activation")) {
    activation = a->s();
  }
  if (activation != "none" && activation != "silu" && activation != "swish") {
    return emitError(at) << "CausalConvWithState activation '" << activation
                         << "' is unknown";
  }
  Type io = getElementType(x);
  Type element =
      io.getIntOrFloatBitWidth() < 32 ? Type(imp.builder.getF32Type()) : io;
  x = e.cast(x, element);
  w = e.cast(w, element);
  if (past) {
    auto pShape = staticShape(past);
    if (!pShape ||
        *pShape != llvm::SmallVector<int64_t>{batch, channels, kernel - 1}) {
      return emitError(at) << "CausalConvWithState past_state must be ["
                           << batch << ", " << channels << ", " << kernel - 1
                           << "]";
    }
  }
  Value padded = x;
  if (kernel > 1) {
    padded = past ? e.concat({e.cast(past, element), x}, 2)
                  : e.op("graph.pad", {x, e.scalar(element, 0.0)},
                         {e.named("low", e.i64Array({0, 0, kernel - 1})),
                          e.named("high", e.i64Array({0, 0, 0}))});
  }
  llvm::SmallVector<Value> operands = {padded, w};
  if (bias) {
    operands.push_back(e.cast(bias, element));
  }
  Value y = e.op("graph.conv", operands,
                 {e.named("strides", e.i64Array({1})),
                  e.named("dilations", e.i64Array({1})),
                  e.named("pad_low", e.i64Array({0})),
                  e.named("pad_high", e.i64Array({0})),
                  e.named("groups", imp.builder.getI64IntegerAttr(channels))});
  if (activation != "none") {
    y = e.mul(y, e.op("graph.sigmoid", {y}));
  }
  Value present;
  if (kernel > 1) {
    present = e.cast(e.slice(padded, 2, len, len + kernel - 1), io);
  } else {
    auto type = RankedTensorType::get({batch, channels, 0}, io);
    present = imp.constant(
        at, DenseElementsAttr::get(type, llvm::ArrayRef<Attribute>{}));
  }
  y = e.cast(y, io);
  if (!y || !present) {
    return failure();
  }
  return Results{y, present};
}

//===----------------------------------------------------------------------===//
// LinearAttention (opset 27)
//===----------------------------------------------------------------------===//

// A recurrent state S [B, Hkv, dk, dv] updated per step t by update_rule:
//   linear:      S += k v^T
//   gated:       S = S * exp(decay); S += k v^T
//   delta:       S += k (beta * (v - S^T k))^T
//   gated_delta: S = S * exp(decay); then as delta (the default),
// and read as o_t = scale * q_t^T S (each KV head serving Hq / Hkv query
// heads). The sequence length is static and the steps are unrolled: the
// graph dialect has no scan, and the node tests' sequences are short.
// TODO(issue 4): a loop (scf.for over tensors) for long prefills.
static FailureOr<Results> importLinearAttention(OnnxImporter &imp,
                                                const onnx::NodeProto &def,
                                                ArrayRef<Value> in,
                                                Location at) {
  Emitter e(imp, at);
  auto operand = [&](unsigned i) { return i < in.size() ? in[i] : Value(); };
  Value q = operand(0), k = operand(1), v = operand(2), past = operand(3),
        decay = operand(4), beta = operand(5);
  StringRef rule = "gated_delta";
  if (const onnx::AttributeProto *a = imp.attr(def, "update_rule")) {
    rule = a->s();
  }
  bool gated = rule == "gated" || rule == "gated_delta";
  bool delta = rule == "delta" || rule == "gated_delta";
  if (!gated && !delta && rule != "linear") {
    return emitError(at) << "LinearAttention update_rule '" << rule
                         << "' is unknown";
  }
  if (!q || !k || !v || (gated && !decay) || (delta && !beta)) {
    return emitError(at) << "LinearAttention with update_rule '" << rule
                         << "' needs query, key, value"
                         << (gated ? ", decay" : "") << (delta ? ", beta" : "");
  }
  auto qShape = staticShape(q), kShape = staticShape(k),
       vShape = staticShape(v);
  int64_t qHeads = imp.attrInt(def, "q_num_heads", 0);
  int64_t kvHeads = imp.attrInt(def, "kv_num_heads", 0);
  if (!qShape || !kShape || !vShape || qShape->size() != 3 ||
      kShape->size() != 3 || vShape->size() != 3 || qHeads <= 0 ||
      kvHeads <= 0 || qHeads % kvHeads != 0 || (*qShape)[2] % qHeads != 0 ||
      (*kShape)[2] % kvHeads != 0 || (*vShape)[2] % kvHeads != 0) {
    return emitError(at) << "LinearAttention needs static [B, T, H*D] query, "
                            "key and value and q_num_heads, kv_num_heads "
                            "dividing them";
  }
  int64_t batch = (*qShape)[0], len = (*qShape)[1];
  int64_t dk = (*qShape)[2] / qHeads, dv = (*vShape)[2] / kvHeads;
  if ((*kShape)[2] / kvHeads != dk || (*kShape)[1] != len ||
      (*vShape)[1] != len) {
    return emitError(at) << "LinearAttention key and value do not match the "
                            "query's length and head size";
  }
  Type io = getElementType(q);
  Type element = imp.builder.getF32Type();
  // [B, T, H*X] -> [B, T, H, X] in f32.
  auto heads = [&](Value x, int64_t h) {
    return e.reshape(e.cast(x, element), {batch, len, h, -1});
  };
  q = heads(q, qHeads);
  k = heads(k, kvHeads);
  v = heads(v, kvHeads);
  if (gated) {
    decay = e.op("graph.exp", {heads(decay, kvHeads)});
  }
  if (delta) {
    // [B, T, Hkv or 1] -> [B, T, Hkv or 1, 1]
    beta = e.reshape(e.cast(beta, element), {batch, len, -1, 1});
  }
  Value state;
  if (past) {
    auto pShape = staticShape(past);
    if (!pShape ||
        *pShape != llvm::SmallVector<int64_t>{batch, kvHeads, dk, dv}) {
      return emitError(at) << "LinearAttention past_state must be [" << batch
                           << ", " << kvHeads << ", " << dk << ", " << dv
                           << "]";
    }
    state = e.cast(past, element);
  } else {
    auto type = RankedTensorType::get({batch, kvHeads, dk, dv}, element);
    state = imp.constant(
        at, DenseElementsAttr::get(type, imp.builder.getF32FloatAttr(0)));
  }
  const onnx::AttributeProto *scaleAttr = imp.attr(def, "scale");
  Value scale = e.scalar(element, scaleAttr ? double(scaleAttr->f())
                                            : 1.0 / std::sqrt(double(dk)));
  // Step t of a [B, T, H, X] value as [B, H, X].
  auto step = [&](Value x, int64_t t) {
    if (!x) {
      return x;
    }
    auto shape = *getShape(x);
    return e.reshape(e.slice(x, 1, t, t + 1), {batch, shape[2], shape[3]});
  };
  int64_t group = qHeads / kvHeads;
  llvm::SmallVector<Value> outs;
  for (int64_t t = 0; t < len; ++t) {
    Value kt = e.reshape(step(k, t), {batch, kvHeads, dk, 1});
    Value vt = step(v, t);
    if (gated) {
      auto dShape = *getShape(decay);
      state = e.mul(state,
                    e.reshape(step(decay, t), {batch, kvHeads, dShape[3], 1}));
    }
    Value write = vt;
    if (delta) {
      Value retrieved =
          e.reshape(e.op("graph.matmul", {state, kt},
                         {e.named("transpose_lhs", imp.builder.getUnitAttr())}),
                    {batch, kvHeads, dv});
      write = e.mul(step(beta, t), e.sub(vt, retrieved));
    }
    state = e.add(state, e.op("graph.matmul",
                              {kt, e.reshape(write, {batch, kvHeads, 1, dv})}));
    Value read = state;
    if (group > 1) {
      read = e.reshape(
          e.op("graph.broadcast_to",
               {e.reshape(state, {batch, kvHeads, 1, dk, dv})},
               {e.named("shape", e.i64Array({batch, kvHeads, group, dk, dv}))}),
          {batch, qHeads, dk, dv});
    }
    Value o = e.op("graph.matmul",
                   {e.reshape(step(q, t), {batch, qHeads, 1, dk}), read});
    outs.push_back(e.reshape(e.mul(scale, o), {batch, 1, qHeads * dv}));
    if (!outs.back()) {
      return failure();
    }
  }
  Value y = e.cast(outs.size() == 1 ? outs[0] : e.concat(outs, 1), io);
  Value present = e.cast(state, io);
  if (!y || !present) {
    return failure();
  }
  return Results{y, present};
}

//===----------------------------------------------------------------------===//
// FlexAttention (ai.onnx.preview)
//===----------------------------------------------------------------------===//

/// Imports the one-input, one-output subgraph `body` inline on `input`: its
/// input is bound to `input`, its nodes are imported as the main graph's
/// are (outer-scope names resolve to the enclosing values), and the value
/// of its output is returned. Names the body defines are restored after,
/// so the body cannot leak into or shadow the enclosing graph.
static Value inlineSubgraph(OnnxImporter &imp, const onnx::GraphProto &body,
                            Value input, StringRef what, Location at) {
  if (body.input_size() != 1 || body.output_size() != 1) {
    emitError(at) << what << " must have one input and one output, has "
                  << body.input_size() << " and " << body.output_size();
    return Value();
  }
  llvm::StringMap<Value> saved;
  llvm::StringMap<const onnx::TensorProto *> savedInits;
  auto define = [&](const std::string &name) {
    if (!saved.count(name)) {
      saved[name] = imp.values.lookup(name);
    }
  };
  for (const onnx::TensorProto &init : body.initializer()) {
    define(init.name());
    imp.values.erase(init.name());
    if (!savedInits.count(init.name())) {
      auto it = imp.initializers.find(init.name());
      savedInits[init.name()] =
          it == imp.initializers.end() ? nullptr : it->second;
    }
    imp.initializers[init.name()] = &init;
  }
  define(body.input(0).name());
  imp.values[body.input(0).name()] = input;
  Value result;
  bool ok = true;
  for (int i = 0; i < body.node_size() && ok; ++i) {
    const onnx::NodeProto &node = body.node(i);
    GraphNode g = OnnxImporter::subgraphNode(node, i, what);
    for (const std::string &name : node.output()) {
      define(name);
    }
    ok = succeeded(imp.importNode(g));
  }
  if (ok) {
    result = imp.values.lookup(body.output(0).name());
    if (!result) {
      emitError(at) << what << " output '" << body.output(0).name()
                    << "' has no value";
    }
  }
  for (auto &entry : saved) {
    if (entry.second) {
      imp.values[entry.getKey()] = entry.second;
    } else {
      imp.values.erase(entry.getKey());
    }
  }
  for (auto &entry : savedInits) {
    if (entry.second) {
      imp.initializers[entry.getKey()] = entry.second;
    } else {
      imp.initializers.erase(entry.getKey());
    }
  }
  return result;
}

// Attention over 4-D Q, K, V (GQA by head counts) with optional subgraphs
// applied to the scaled scores before the softmax (score_mod) and to the
// probabilities after it (prob_mod).
static FailureOr<Results> importFlexAttention(OnnxImporter &imp,
                                              const onnx::NodeProto &def,
                                              ArrayRef<Value> in, Location at) {
  for (unsigned i = 0; i < 3; ++i) {
    auto shape = i < in.size() && in[i] ? getShape(in[i]) : std::nullopt;
    if (!shape || shape->size() != 4) {
      return emitError(at) << "FlexAttention needs 4-D Q, K and V";
    }
  }
  const onnx::AttributeProto *scoreAttr = imp.attr(def, "score_mod");
  const onnx::AttributeProto *probAttr = imp.attr(def, "prob_mod");
  auto scoreMod = [&](Value v) {
    return inlineSubgraph(imp, scoreAttr->g(), v, "FlexAttention score_mod",
                          at);
  };
  auto probMod = [&](Value v) {
    return inlineSubgraph(imp, probAttr->g(), v, "FlexAttention prob_mod", at);
  };
  auto r = importAttention(imp, def, in.take_front(3), at,
                           scoreAttr ? AttentionMod(scoreMod) : nullptr,
                           probAttr ? AttentionMod(probMod) : nullptr);
  if (failed(r)) {
    return failure();
  }
  return Results{(*r)[0]};
}

std::optional<FailureOr<Results>>
OnnxImporter::importAttentionFamily(const GraphNode &node,
                                    const onnx::NodeProto &def,
                                    ArrayRef<Value> in, Location at) {
  StringRef op = node.op;
  if (op == "Attention") {
    return importAttention(*this, def, in, at);
  }
  if (op == "RMSNormalization") {
    return importRMSNorm(*this, def, in, at);
  }
  if (op == "RotaryEmbedding") {
    return importRotary(*this, def, in, at);
  }
  if (op == "CausalConvWithState") {
    return importCausalConv(*this, def, in, at);
  }
  if (op == "LinearAttention") {
    return importLinearAttention(*this, def, in, at);
  }
  if (op == "FlexAttention") {
    return importFlexAttention(*this, def, in, at);
  }
  return std::nullopt;
}

} // namespace graphc::import
