//===- Losses.cpp - ONNX loss ops to the graph dialect --------------------===//
//
// NegativeLogLikelihoodLoss and SoftmaxCrossEntropyLoss, composed from
// existing graph ops: the picked log-probability is one gather_elements
// along the class axis, the per-element weight one gather of `weight`, and
// the reductions plain graph.reduce. Targets equal to `ignore_index` are
// replaced by class 0 before any gather (they may be negative or beyond the
// class count), and their weight is zeroed, so nothing is read out of
// bounds and they add nothing to the loss or to the mean's denominator.
//
//===----------------------------------------------------------------------===//

#include "OnnxNodeBuilder.h"

using namespace mlir;

namespace graphc::import {

std::optional<FailureOr<llvm::SmallVector<Value>>>
OnnxImporter::importLosses(const GraphNode &node, const onnx::NodeProto &def,
                           ArrayRef<Value> in, Location at) {
  StringRef op = node.op;
  bool isNll = op == "NegativeLogLikelihoodLoss";
  if (!isNll && op != "SoftmaxCrossEntropyLoss") {
    return std::nullopt;
  }
  if (in.size() < 2 || !in[0] || !in[1]) {
    return nodeFailed(emitError(at) << op << " needs inputs 0 and 1");
  }
  NodeBuilder b{*this, at};
  Value scores = in[0], target = in[1];
  Value weight = in.size() > 2 ? in[2] : Value();
  auto shape = getShape(scores);
  if (!shape || shape->size() < 2) {
    return nodeFailed(emitError(at)
                      << op << " needs an input of known rank >= 2");
  }
  Type element = getElementType(scores);
  if (!isa<FloatType>(element)) {
    return nodeFailed(emitError(at)
                      << op << " needs a float input, got " << element);
  }
  Type targetElement = getElementType(target);
  if (!targetElement.isInteger(32) && !targetElement.isInteger(64)) {
    return nodeFailed(emitError(at) << op << " needs i32 or i64 targets, got "
                                    << targetElement);
  }
  StringRef reduction = "mean";
  if (const onnx::AttributeProto *a = attr(def, "reduction")) {
    reduction = a->s();
  }
  if (reduction != "none" && reduction != "sum" && reduction != "mean") {
    return nodeFailed(emitError(at)
                      << op << " reduction '" << reduction << "' is unknown");
  }

  // SCE: log-probabilities over the class axis, then the NLL of those.
  Value logProb =
      isNll ? scores : b.op("graph.log_softmax", {scores}, {b.i64("axis", 1)});

  // Ignored targets read class 0 and weigh nothing.
  Value safeTarget = target, keep;
  if (const onnx::AttributeProto *ii = attr(def, "ignore_index")) {
    keep = b.compare(target, b.scalar(targetElement, double(ii->i())), "ne");
    safeTarget =
        b.op("graph.select", {keep, target, b.scalar(targetElement, 0)}, {},
             targetElement);
  }
  // -logProb[n, target[n, d..], d..]: gather_elements along axis 1.
  Value picked = b.op("graph.unsqueeze", {safeTarget}, {b.i64s("axes", {1})});
  picked = b.op("graph.gather_elements", {logProb, picked}, {b.i64("axis", 1)},
                element);
  picked = b.op("graph.squeeze", {picked}, {b.i64s("axes", {1})});
  Value loss = b.op("graph.neg", {picked});

  Value w;
  if (weight) {
    w = b.op("graph.gather", {weight, safeTarget}, {b.i64("axis", 0)});
  }
  if (keep) {
    Value mask = b.cast(keep, element);
    w = w ? b.op("graph.mul", {w, mask}) : mask;
  }
  if (w) {
    loss = b.op("graph.mul", {loss, w});
  }
  if (reduction == "sum") {
    loss = b.reduce(loss, "sum");
  } else if (reduction == "mean") {
    // Weighted mean: divided by the total weight (ignored targets count 0).
    loss = w ? b.op("graph.div", {b.reduce(loss, "sum"), b.reduce(w, "sum")})
             : b.reduce(loss, "mean");
  }
  if (isNll) {
    return nodeResults({loss});
  }
  return nodeResults({loss, logProb});
}

} // namespace graphc::import
