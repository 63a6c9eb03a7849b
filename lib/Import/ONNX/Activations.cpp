//===- Activations.cpp - ONNX activations and elementwise compositions ----===//
//
// Softmax/LogSoftmax, activations composed from elementwise ops, Mean, Mod,
// IsNaN, CastLike, Clip.
// Dispatched from the op registry (OnnxOps.cpp).
//
//===----------------------------------------------------------------------===//

#include "OnnxImporterImpl.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/Matchers.h"

#include "llvm/ADT/StringSwitch.h"

#include <algorithm>
#include <cmath>
#include <numeric>

using namespace mlir;

namespace graphc::import {

/// Softmax, LogSoftmax.
FailureOr<OnnxImporter::Results>
OnnxImporter::importSoftmax(const GraphNode &node, const onnx::NodeProto &def,
                            llvm::ArrayRef<Value> in, Location at) {
  StringRef op = node.op;
  if (failed(need(1))) {
    return failure();
  }
  StringRef name = op == "Softmax" ? "graph.softmax" : "graph.log_softmax";
  int64_t axis = attrInt(def, "axis", opset >= 13 ? -1 : 1);
  auto shape = getShape(in[0]);
  int64_t rank = shape ? int64_t(shape->size()) : -1;
  if (opset >= 13 || axis == -1 || (rank >= 0 && axis == rank - 1)) {
    return one(build1(at, name, {in[0]}, {named("axis", i64Attr(axis))}));
  }
  // Before opset 13 the op coerces the input to 2-D at `axis` and
  // normalises each row: reshape, softmax over the last axis, reshape
  // back.
  if (!isStatic(shape)) {
    return emitError(at) << op << " (opset " << opset << ") over axis " << axis
                         << " needs a static input shape";
  }
  if (axis < 0) {
    axis += rank;
  }
  if (axis < 0 || axis > rank) {
    return emitError(at) << op << " axis " << attrInt(def, "axis", 1)
                         << " out of range for rank " << rank;
  }
  int64_t outer = 1, inner = 1;
  for (int64_t i = 0; i < rank; ++i) {
    (i < axis ? outer : inner) *= (*shape)[i];
  }
  Value flat = build1(at, "graph.reshape", {in[0]},
                      {named("shape", i64Array({outer, inner}))});
  Value sm =
      flat ? build1(at, name, {flat}, {named("axis", i64Attr(1))}) : Value();
  return one(
      sm ? build1(at, "graph.reshape", {sm}, {named("shape", i64Array(*shape))})
         : Value());
}

/// PRelu, ThresholdedRelu, HardSigmoid, HardSwish, Softsign, Selu, Celu, Mish,
/// Gelu.
FailureOr<OnnxImporter::Results>
OnnxImporter::importComposedActivation(const GraphNode &node,
                                       const onnx::NodeProto &def,
                                       llvm::ArrayRef<Value> in, Location at) {
  StringRef op = node.op;
  if (failed(need(op == "PRelu" ? 2 : 1))) {
    return failure();
  }
  Value x = in[0];
  Type element = getElementType(x);
  if (!isa<FloatType>(element)) {
    return emitError(at) << op << " of non-float element type " << element;
  }
  auto s = [&](double v) { return scalar(at, element, v); };
  auto cmp = [&](StringRef dir, Value a, Value b) {
    Attribute d = kindAttr(("#graph<compare_direction " + dir + ">").str());
    return d ? build1(at, "graph.compare", {a, b}, {named("direction", d)},
                      builder.getI1Type())
             : Value();
  };
  auto sel = [&](Value c, Value a, Value b) {
    return c && a && b
               ? build1(at, "graph.select", {c, a, b}, {}, getElementType(a))
               : Value();
  };
  auto bin = [&](StringRef name, Value a, Value b) {
    return a && b ? build1(at, name, {a, b}) : Value();
  };
  auto un = [&](StringRef name, Value a) {
    return a ? build1(at, name, {a}) : Value();
  };
  if (op == "PRelu") {
    Value neg = cmp("lt", x, s(0));
    return one(sel(neg, bin("graph.mul", x, in[1]), x));
  }
  if (op == "ThresholdedRelu") {
    return one(sel(cmp("gt", x, s(attrFloat(def, "alpha", 1.0f))), x, s(0)));
  }
  if (op == "HardSigmoid" || op == "HardSwish") {
    float alpha = op == "HardSwish" ? 1.0f / 6 : attrFloat(def, "alpha", 0.2f);
    float beta = op == "HardSwish" ? 0.5f : attrFloat(def, "beta", 0.5f);
    Value lin = bin("graph.add", bin("graph.mul", x, s(alpha)), s(beta));
    Value hs = lin ? build1(at, "graph.clamp", {lin, s(0), s(1)}) : Value();
    return one(op == "HardSwish" ? bin("graph.mul", x, hs) : hs);
  }
  if (op == "Softsign") {
    return one(bin("graph.div", x, bin("graph.add", un("graph.abs", x), s(1))));
  }
  if (op == "Mish") {
    return one(bin("graph.mul", x, un("graph.tanh", un("graph.softplus", x))));
  }
  if (op == "Gelu") {
    StringRef approx = attrStr("approximate", "none");
    llvm::SmallVector<NamedAttribute> attrs;
    if (approx == "tanh") {
      attrs.push_back(named("approximate", builder.getUnitAttr()));
    } else if (approx != "none") {
      return emitError(at) << "Gelu approximate '" << approx << "' is unknown";
    }
    return one(build1(at, "graph.gelu", {x}, attrs));
  }
  if (op == "Selu") {
    double alpha = attrFloat(def, "alpha", 1.67326319217681884765625f);
    double gamma = attrFloat(def, "gamma", 1.05070102214813232421875f);
    // gamma * (x > 0 ? x : alpha * (exp(x) - 1))
    Value negPart =
        bin("graph.mul", bin("graph.sub", un("graph.exp", x), s(1)), s(alpha));
    return one(bin("graph.mul", sel(cmp("gt", x, s(0)), x, negPart), s(gamma)));
  }
  // Celu: max(0, x) + min(0, alpha * (exp(x / alpha) - 1))
  double alpha = attrFloat(def, "alpha", 1.0f);
  Value e =
      bin("graph.sub", un("graph.exp", bin("graph.div", x, s(alpha))), s(1));
  return one(bin("graph.add", bin("graph.max", x, s(0)),
                 bin("graph.min", bin("graph.mul", e, s(alpha)), s(0))));
}

/// Mean.
FailureOr<OnnxImporter::Results>
OnnxImporter::importMean(const GraphNode &node, const onnx::NodeProto &def,
                         llvm::ArrayRef<Value> in, Location at) {
  if (failed(need(1))) {
    return failure();
  }
  Value sum = in[0];
  unsigned n = 1;
  for (unsigned i = 1; i < in.size() && sum; ++i, ++n) {
    sum = build1(at, "graph.add", {sum, in[i]});
  }
  if (!sum) {
    return failure();
  }
  return one(
      build1(at, "graph.div", {sum, scalar(at, getElementType(sum), n)}));
}

/// Mod.
FailureOr<OnnxImporter::Results>
OnnxImporter::importMod(const GraphNode &node, const onnx::NodeProto &def,
                        llvm::ArrayRef<Value> in, Location at) {
  if (failed(need(2))) {
    return failure();
  }
  return one(build1(at, attrInt(def, "fmod", 0) ? "graph.rem" : "graph.mod",
                    {in[0], in[1]}));
}

/// IsNaN.
FailureOr<OnnxImporter::Results>
OnnxImporter::importIsNaN(const GraphNode &node, const onnx::NodeProto &def,
                          llvm::ArrayRef<Value> in, Location at) {
  if (failed(need(1))) {
    return failure();
  }
  Attribute d = kindAttr("#graph<compare_direction ne>");
  if (!d) {
    return failure();
  }
  return one(build1(at, "graph.compare", {in[0], in[0]},
                    {named("direction", d)}, builder.getI1Type()));
}

/// CastLike.
FailureOr<OnnxImporter::Results>
OnnxImporter::importCastLike(const GraphNode &node, const onnx::NodeProto &def,
                             llvm::ArrayRef<Value> in, Location at) {
  if (failed(need(2))) {
    return failure();
  }
  Type to = getElementType(in[1]);
  llvm::SmallVector<NamedAttribute> attrs = {named("to", TypeAttr::get(to))};
  if (failed(castAttributes(def, to, at, attrs))) {
    return failure();
  }
  return one(build1(at, "graph.cast", {in[0]}, attrs, to));
}

/// Clip.
FailureOr<OnnxImporter::Results>
OnnxImporter::importClip(const GraphNode &node, const onnx::NodeProto &def,
                         llvm::ArrayRef<Value> in, Location at) {
  if (failed(need(1))) {
    return failure();
  }
  Type element = getElementType(in[0]);
  Value lo = operand(1), hi = operand(2);
  auto bound = [&](bool isMax) -> Value {
    if (opset < 11) {
      if (const onnx::AttributeProto *a = attr(def, isMax ? "max" : "min")) {
        return scalar(at, element, a->f());
      }
    }
    auto type = RankedTensorType::get({}, element);
    if (auto f = dyn_cast<FloatType>(element)) {
      return constant(
          at, DenseElementsAttr::get(
                  type, llvm::APFloat::getInf(f.getFloatSemantics(), !isMax)));
    }
    unsigned w = element.getIntOrFloatBitWidth();
    return constant(at, DenseElementsAttr::get(
                            type, isMax ? llvm::APInt::getSignedMaxValue(w)
                                        : llvm::APInt::getSignedMinValue(w)));
  };
  if (!lo) {
    lo = bound(false);
  }
  if (!hi) {
    hi = bound(true);
  }
  if (!lo || !hi) {
    return failure();
  }
  return one(build1(at, "graph.clamp", {in[0], lo, hi}));
}

} // namespace graphc::import
