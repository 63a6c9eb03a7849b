//===- Random.cpp - ONNX seeded random ops as compile-time draws --------===//
//
// The graph dialect has no random ops, so the ONNX ones draw their numbers
// when the model is imported, from a documented counter-based generator,
// and become constants (RandomUniform, RandomNormal and their *Like forms)
// or arithmetic on constant uniforms (Bernoulli, Multinomial). A compiled
// job is therefore one sample: it gives the same numbers on every run, and
// a model imported twice with the same seed gives the same job.
//
// Generator (docs/design/importers.md, "Random ops"): the key is
// splitmix64(S) where S is the `seed` attribute as an integer (or, when it
// has a fraction, its IEEE double bits), or, without a seed, the FNV-1a
// hash of the node's first output name. The i-th uniform is
// (splitmix64(key + (i + 1) * 0x9E3779B97F4A7C15) >> 11) * 2^-53 in [0, 1);
// a normal element j is Box-Muller on uniforms 2*(j/2) and 2*(j/2)+1
// (cosine for even j, sine for odd).
//
//===----------------------------------------------------------------------===//

#include "OnnxImporterImpl.h"

#include "llvm/ADT/APFloat.h"

#include <cmath>
#include <cstring>

namespace graphc::import {

using mlir::emitError;
using mlir::failure;

namespace {

/// The most elements one random op may draw at import (a constant of this
/// size is 64 MiB in f32).
constexpr int64_t kMaxRandomElements = int64_t(1) << 24;

uint64_t splitmix64(uint64_t x) {
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ULL;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBULL;
  return x ^ (x >> 31);
}

/// The counter-based stream described in the file comment.
struct RandomStream {
  uint64_t key;
  double uniform(uint64_t i) const {
    uint64_t bits = splitmix64(key + (i + 1) * 0x9E3779B97F4A7C15ULL);
    return double(bits >> 11) * 0x1.0p-53;
  }
  double normal(uint64_t j) const {
    double u1 = uniform(j & ~uint64_t(1));
    double u2 = uniform(j | 1);
    double r = std::sqrt(-2.0 * std::log1p(-u1));
    double t = 2.0 * M_PI * u2;
    return (j & 1) ? r * std::sin(t) : r * std::cos(t);
  }
};

RandomStream streamFor(const onnx::NodeProto &def,
                       const onnx::AttributeProto *seed) {
  uint64_t s;
  if (seed) {
    double v = seed->f();
    if (v == std::floor(v) && std::fabs(v) < 9.0e18) {
      s = uint64_t(int64_t(v));
    } else {
      std::memcpy(&s, &v, sizeof s);
    }
  } else {
    // FNV-1a of the first output's name: a stable seed per node.
    s = 0xCBF29CE484222325ULL;
    for (unsigned char c : def.output_size() ? def.output(0) : def.name()) {
      s = (s ^ c) * 0x100000001B3ULL;
    }
  }
  return {splitmix64(s)};
}

} // namespace

/// A constant of `type` whose element i is draw(i) (rounded to the type).
static Value drawConstant(OnnxImporter &imp, RankedTensorType type,
                          llvm::function_ref<double(uint64_t)> draw,
                          Location at) {
  auto element = llvm::dyn_cast<FloatType>(type.getElementType());
  if (!element) {
    emitError(at) << "random values of " << type.getElementType()
                  << " are not supported (float types only)";
    return {};
  }
  int64_t n = type.getNumElements();
  llvm::SmallVector<llvm::APFloat> values;
  values.reserve(n);
  for (int64_t i = 0; i < n; ++i) {
    llvm::APFloat v(draw(uint64_t(i)));
    bool lost;
    v.convert(element.getFloatSemantics(), llvm::APFloat::rmNearestTiesToEven,
              &lost);
    values.push_back(v);
  }
  return imp.constant(at, DenseElementsAttr::get(type, values));
}

std::optional<FailureOr<OnnxImporter::Results>>
OnnxImporter::importRandom(const GraphNode &node, const onnx::NodeProto &def,
                           ArrayRef<Value> in, Location at) {
  StringRef op = node.op;
  bool like = op == "RandomNormalLike" || op == "RandomUniformLike";
  bool sampled = op == "Bernoulli" || op == "Multinomial";
  if (!like && !sampled && op != "RandomNormal" && op != "RandomUniform") {
    return std::nullopt;
  }
  if ((like || sampled) && failed(need(1))) {
    return FailureOr<Results>(failure());
  }
  const onnx::AttributeProto *dtypeAttr = attr(def, "dtype");
  // Without `dtype`: float for the ops that have no input, the input's type
  // for *Like and Bernoulli, int32 for Multinomial.
  Type element = dtypeAttr ? convertOnnxElementType(ctx, dtypeAttr->i())
                 : op == "Multinomial"         ? Type(builder.getI32Type())
                 : (like || op == "Bernoulli") ? getElementType(in[0])
                                               : Type(builder.getF32Type());
  if (!element) {
    return FailureOr<Results>(emitError(at) << op << ": unsupported dtype");
  }
  RandomStream stream = streamFor(def, attr(def, "seed"));
  llvm::SmallVector<int64_t> shape;
  if (like || op == "Bernoulli") {
    auto s = getShape(in[0]);
    if (!isStatic(s)) {
      return FailureOr<Results>(
          emitError(at) << op << " needs its input's shape at compile time "
                        << "(fix it with --input-shape)");
    }
    shape = *s;
  } else if (op == "Multinomial") {
    auto s = getShape(in[0]);
    if (!isStatic(s) || s->size() != 2) {
      return FailureOr<Results>(
          emitError(at) << "Multinomial needs a static [batch, classes] input");
    }
    shape = {(*s)[0], attrInt(def, "sample_size", 1)};
  } else if (auto s = attrInts(def, "shape")) {
    shape = *s;
  } else {
    return FailureOr<Results>(emitError(at) << op << " needs `shape`");
  }
  int64_t n = 1;
  for (int64_t d : shape) {
    if (d < 0 || (d && n > kMaxRandomElements / d)) {
      return FailureOr<Results>(
          emitError(at) << op << " draws more than " << kMaxRandomElements
                        << " values at import; graphc draws random values "
                           "when compiling, as constants");
    }
    n *= d;
  }
  if (op == "RandomNormal" || op == "RandomNormalLike") {
    double mean = attrFloat(def, "mean", 0), scale = attrFloat(def, "scale", 1);
    return one(drawConstant(
        *this, RankedTensorType::get(shape, element),
        [&](uint64_t i) { return mean + scale * stream.normal(i); }, at));
  }
  if (op == "RandomUniform" || op == "RandomUniformLike") {
    double low = attrFloat(def, "low", 0), high = attrFloat(def, "high", 1);
    return one(drawConstant(
        *this, RankedTensorType::get(shape, element),
        [&](uint64_t i) { return low + (high - low) * stream.uniform(i); },
        at));
  }
  Type inElement = getElementType(in[0]);
  if (!llvm::isa<FloatType>(inElement)) {
    return FailureOr<Results>(emitError(at)
                              << op << " needs a floating-point input");
  }
  if (op == "Bernoulli") {
    // 1 where a uniform draw falls below the input's probability.
    Value u = drawConstant(
        *this, RankedTensorType::get(shape, inElement),
        [&](uint64_t i) { return stream.uniform(i); }, at);
    Value hit = u ? build1(at, "graph.compare", {u, in[0]},
                           {named("direction",
                                  kindAttr("#graph<compare_direction lt>"))},
                           builder.getI1Type())
                  : Value();
    return one(hit ? build1(at, "graph.cast", {hit},
                            {named("to", mlir::TypeAttr::get(element))},
                            element)
                   : Value());
  }
  // Multinomial: inverse-CDF sampling. The class of draw u is the number of
  // cumulative probabilities at or below u, capped at the last class.
  int64_t batch = shape[0], samples = shape[1];
  int64_t classes = (*getShape(in[0]))[1];
  Value probs =
      build1(at, "graph.softmax", {in[0]}, {named("axis", i64Attr(1))});
  Value cdf = probs
                  ? build1(at, "graph.cumulative", {probs},
                           {named("kind", kindAttr("#graph<reduce_kind sum>")),
                            named("axis", i64Attr(1))})
                  : Value();
  Value u = drawConstant(
      *this, RankedTensorType::get({batch, samples, 1}, inElement),
      [&](uint64_t i) { return stream.uniform(i); }, at);
  cdf = cdf ? build1(at, "graph.reshape", {cdf},
                     {named("shape", i64Array({batch, 1, classes}))})
            : Value();
  if (!cdf || !u) {
    return FailureOr<Results>(failure());
  }
  Value below =
      build1(at, "graph.compare", {cdf, u},
             {named("direction", kindAttr("#graph<compare_direction le>"))},
             builder.getI1Type());
  Value count =
      below ? build1(at, "graph.cast", {below},
                     {named("to", mlir::TypeAttr::get(element))}, element)
            : Value();
  count = count ? build1(at, "graph.reduce", {count},
                         {named("kind", kindAttr("#graph<reduce_kind sum>")),
                          named("axes", i64Array({2}))})
                : Value();
  return one(count ? build1(at, "graph.min",
                            {count, scalar(at, element, double(classes - 1))})
                   : Value());
}

} // namespace graphc::import
