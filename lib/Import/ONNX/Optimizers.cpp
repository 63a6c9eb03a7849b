//===- Optimizers.cpp - ONNX's training optimizers as graph ops -----------===//
//
// The optimizer ops of ONNX's `ai.onnx.preview.training` domain (opset 1):
// Adagrad, Momentum (standard and Nesterov) and Adam. Each updates n
// tensors at once: inputs R (the learning rate, a scalar), T (the step
// count, an int64 scalar), then n tensors X, n gradients G and n (Adam: 2n)
// accumulators; outputs the n new X and the new accumulators. They are
// elementwise, so they import as graph arithmetic; R and T are run-time
// values and broadcast as scalars. graph.momentum_update and
// graph.adam_update (TF's ApplyMomentum and ApplyAdam) differ from these in
// the L2 terms, Momentum's beta and Adam's first step
// (docs/design/importers.md).
//
//===----------------------------------------------------------------------===//

#include "OnnxNodeBuilder.h"

namespace graphc::import {

namespace {

/// The n tensors of each of the node's `groups` operand groups after R and
/// T, or failure having emitted.
FailureOr<int64_t> tensorsPerGroup(NodeBuilder &b, StringRef op,
                                   llvm::ArrayRef<Value> in, int64_t groups,
                                   int64_t outputs) {
  int64_t rest = int64_t(in.size()) - 2;
  if (rest < groups || rest % groups != 0) {
    return mlir::emitError(b.at)
           << op << " takes R, T and " << groups
           << " groups of the same number of tensors; got " << in.size()
           << " inputs";
  }
  int64_t n = rest / groups;
  if (outputs != n * (groups - 1)) {
    return mlir::emitError(b.at)
           << op << " with " << n << " tensors has " << n * (groups - 1)
           << " outputs; the node names " << outputs;
  }
  for (auto [i, v] : llvm::enumerate(in)) {
    if (!v) {
      return mlir::emitError(b.at) << op << ": input " << i << " is missing";
    }
  }
  for (Value x : in.drop_front(2)) {
    if (!llvm::isa<FloatType>(getElementType(x))) {
      return mlir::emitError(b.at)
             << op << " updates float tensors; got " << getElementType(x);
    }
  }
  return n;
}

} // namespace

std::optional<FailureOr<llvm::SmallVector<Value>>>
OnnxImporter::importTrainingOptimizer(const GraphNode &node,
                                      const onnx::NodeProto &def,
                                      llvm::ArrayRef<Value> in, Location at) {
  StringRef op = node.op;
  int64_t groups = llvm::StringSwitch<int64_t>(op)
                       .Case("Adagrad", 3)
                       .Case("Momentum", 3)
                       .Case("Adam", 4)
                       .Default(0);
  if (!groups) {
    return std::nullopt;
  }
  NodeBuilder b{*this, at};
  FailureOr<int64_t> count =
      tensorsPerGroup(b, op, in, groups, def.output_size());
  if (failed(count)) {
    return nodeFailed(mlir::failure());
  }
  int64_t n = *count;
  // R and T in each tensor's float type (the tensors may differ).
  auto rate = [&](Type t) {
    return getElementType(in[0]) == t ? in[0] : b.cast(in[0], t);
  };
  auto step = [&](Type t) { return b.cast(in[1], t); };
  auto mul = [&](Value x, Value y) { return b.op("graph.mul", {x, y}); };
  auto add = [&](Value x, Value y) { return b.op("graph.add", {x, y}); };
  auto sub = [&](Value x, Value y) { return b.op("graph.sub", {x, y}); };
  auto div = [&](Value x, Value y) { return b.op("graph.div", {x, y}); };
  auto sqrt = [&](Value x) { return b.op("graph.sqrt", {x}); };
  float norm = attrFloat(def, "norm_coefficient", 0.0f);
  llvm::SmallVector<Value> xs(n), states(n * (groups - 2));

  for (int64_t i = 0; i < n; ++i) {
    Value x = in[2 + i], g = in[2 + n + i];
    Type t = getElementType(x);
    auto c = [&](double v) { return b.scalar(t, v); };
    // The gradient with the L2 term: norm_coefficient * X + G.
    Value greg = add(mul(c(norm), x), g);
    if (op == "Adagrad") {
      Value h = in[2 + 2 * n + i];
      float decay = attrFloat(def, "decay_factor", 0.0f);
      float epsilon = attrFloat(def, "epsilon", 0.0f);
      Value r = div(rate(t), add(c(1.0), mul(step(t), c(decay))));
      Value hNew = add(h, mul(greg, greg));
      Value adaptive = add(sqrt(hNew), c(epsilon));
      xs[i] = sub(x, div(mul(r, greg), adaptive));
      states[i] = hNew;
    } else if (op == "Momentum") {
      Value v = in[2 + 2 * n + i];
      const onnx::AttributeProto *alphaAttr = attr(def, "alpha");
      const onnx::AttributeProto *betaAttr = attr(def, "beta");
      const onnx::AttributeProto *modeAttr = attr(def, "mode");
      if (!alphaAttr || !betaAttr || !modeAttr) {
        return nodeFailed(emitError(at) << "Momentum needs the attributes "
                                           "alpha, beta and mode");
      }
      StringRef mode = modeAttr->s();
      if (mode != "standard" && mode != "nesterov") {
        return nodeFailed(emitError(at) << "Momentum mode '" << mode
                                        << "' is not 'standard' or 'nesterov'");
      }
      Value alpha = c(alphaAttr->f());
      // The first step (T = 0) takes the whole gradient: beta becomes 1.
      Value first =
          b.compare(in[1], b.scalar(getElementType(in[1]), 0.0), "eq");
      Value beta =
          b.op("graph.select", {first, c(1.0), c(betaAttr->f())}, {}, t);
      Value vNew = add(mul(alpha, v), mul(beta, greg));
      Value direction = mode == "standard" ? vNew : add(greg, mul(alpha, vNew));
      xs[i] = sub(x, mul(rate(t), direction));
      states[i] = vNew;
    } else {
      Value v = in[2 + 2 * n + i], h = in[2 + 3 * n + i];
      float alpha = attrFloat(def, "alpha", 0.9f);
      float beta = attrFloat(def, "beta", 0.999f);
      float epsilon = attrFloat(def, "epsilon", 1e-6f);
      float post = attrFloat(def, "norm_coefficient_post", 0.0f);
      Value vNew = add(mul(c(alpha), v), mul(c(1.0 - double(alpha)), greg));
      Value hNew =
          add(mul(c(beta), h), mul(c(1.0 - double(beta)), mul(greg, greg)));
      Value hSqrt = add(sqrt(hNew), c(epsilon));
      // The bias correction, from the first step on (T > 0):
      // R * sqrt(1 - beta^T) / (1 - alpha^T).
      Value tf = step(t);
      Value corrected =
          div(mul(rate(t), sqrt(sub(c(1.0), b.op("graph.pow", {c(beta), tf})))),
              sub(c(1.0), b.op("graph.pow", {c(alpha), tf})));
      Value started =
          b.compare(in[1], b.scalar(getElementType(in[1]), 0.0), "gt");
      Value r = b.op("graph.select", {started, corrected, rate(t)}, {}, t);
      Value xNew = sub(x, div(mul(r, vNew), hSqrt));
      xs[i] = mul(c(1.0 - double(post)), xNew);
      states[i] = vNew;
      states[n + i] = hNew;
    }
  }
  llvm::SmallVector<Value> results(xs);
  results.append(states.begin(), states.end());
  return nodeResults(std::move(results));
}

} // namespace graphc::import
