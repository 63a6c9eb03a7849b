//===- Rnn.cpp - ONNX RNN unrolled over the static sequence -------------===//
//
// ONNX RNN: H_t = f(X_t W^T + H_{t-1} R^T + Wb + Rb), per direction. The
// graph dialect has lstm and gru ops but no simple RNN; the recurrence is
// one matmul per step, so it is unrolled over the sequence length (static)
// from graph ops: the input projection of every step at once, then per step
// a matmul with R, the optional clip and the activation. Layout 1
// (batch-major) is transposed around the time-major computation.
//
//===----------------------------------------------------------------------===//

#include "OnnxImporterImpl.h"

namespace graphc::import {

using mlir::emitError;
using mlir::failure;

namespace {

/// Builds one RNN node's values; every helper returns null after emitting.
struct RnnBuilder {
  OnnxImporter &imp;
  Location at;
  int64_t hidden;

  Value op(StringRef name, ValueRange operands,
           llvm::ArrayRef<NamedAttribute> attrs = {}) {
    for (Value v : operands) {
      if (!v) {
        return {};
      }
    }
    return imp.build1(at, name, operands, attrs);
  }
  Value take(Value v, int64_t index, int64_t axis) {
    return op("graph.gather",
              {v, imp.scalar(at, imp.builder.getI64Type(), double(index))},
              {imp.named("axis", imp.i64Attr(axis))});
  }
  Value transpose(Value v, llvm::ArrayRef<int64_t> perm) {
    return op("graph.transpose", {v}, {imp.named("perm", imp.i64Array(perm))});
  }
  Value reshape(Value v, llvm::ArrayRef<int64_t> shape) {
    return op("graph.reshape", {v}, {imp.named("shape", imp.i64Array(shape))});
  }
  Value slice(Value v, int64_t lo, int64_t hi) {
    return op("graph.slice", {v},
              {imp.named("starts", imp.i64Array({lo})),
               imp.named("limits", imp.i64Array({hi})),
               imp.named("strides", imp.i64Array({1}))});
  }
  /// Values stacked on a new axis `axis`.
  Value stack(llvm::ArrayRef<Value> parts, int64_t axis) {
    llvm::SmallVector<Value> grown;
    for (Value p : parts) {
      grown.push_back(op("graph.unsqueeze", {p},
                         {imp.named("axes", imp.i64Array({axis}))}));
    }
    if (grown.size() == 1) {
      return grown[0];
    }
    return op("graph.concat", grown, {imp.named("axis", imp.i64Attr(axis))});
  }
};

} // namespace

std::optional<FailureOr<OnnxImporter::Results>>
OnnxImporter::importRnn(const GraphNode &node, const onnx::NodeProto &def,
                        ArrayRef<Value> in, Location at) {
  if (node.op != "RNN") {
    return std::nullopt;
  }
  auto fail = [&]() { return FailureOr<Results>(failure()); };
  if (failed(need(3))) {
    return fail();
  }
  if (attr(def, "activation_alpha") || attr(def, "activation_beta")) {
    return FailureOr<Results>(emitError(at)
                              << "RNN activation_alpha/activation_beta are not "
                                 "supported");
  }
  StringRef direction = attrStr("direction", "forward");
  int64_t dirs = direction == "bidirectional" ? 2 : 1;
  if (direction != "forward" && direction != "reverse" && dirs != 2) {
    return FailureOr<Results>(emitError(at) << "RNN direction '" << direction
                                            << "' is not one ONNX defines");
  }
  bool batchMajor = attrInt(def, "layout", 0) == 1;
  auto xShape = getShape(in[0]);
  auto wShape = getShape(in[1]);
  if (!isStatic(xShape) || xShape->size() != 3 || !isStatic(wShape) ||
      wShape->size() != 3) {
    return FailureOr<Results>(emitError(at)
                              << "RNN needs X and W of static rank-3 shapes");
  }
  int64_t seq = (*xShape)[batchMajor ? 1 : 0];
  int64_t batch = (*xShape)[batchMajor ? 0 : 1];
  int64_t hidden = attrInt(def, "hidden_size", (*wShape)[1]);
  if (Value lens = operand(4)) {
    auto v = constInts(lens);
    if (!v || llvm::any_of(*v, [&](int64_t n) { return n != seq; })) {
      return FailureOr<Results>(
          emitError(at) << "RNN sequence_lens must be a constant equal to "
                        << "the sequence length " << seq
                        << " (shorter sequences are not supported)");
    }
  }
  llvm::SmallVector<std::string> acts;
  if (auto *a = attr(def, "activations")) {
    for (const std::string &s : a->strings()) {
      acts.push_back(s);
    }
  }
  RnnBuilder b{*this, at, hidden};
  Type element = getElementType(in[0]);
  Value x = batchMajor ? b.transpose(in[0], {1, 0, 2}) : in[0];
  Value flatX = b.reshape(x, {seq * batch, (*xShape)[2]});
  Value init = operand(5);
  if (init && batchMajor) {
    init = b.transpose(init, {1, 0, 2});
  }
  llvm::SmallVector<Value> ys, finals;
  for (int64_t d = 0; d < dirs; ++d) {
    StringRef act = size_t(d) < acts.size() ? StringRef(acts[d]) : "Tanh";
    StringRef actOp = llvm::StringSwitch<StringRef>(act)
                          .Case("Tanh", "graph.tanh")
                          .Case("Relu", "graph.relu")
                          .Case("Sigmoid", "graph.sigmoid")
                          .Default("");
    if (actOp.empty()) {
      return FailureOr<Results>(emitError(at) << "RNN activation '" << act
                                              << "' is not supported (Tanh, "
                                                 "Relu, Sigmoid)");
    }
    Value wT = b.transpose(b.take(in[1], d, 0), {1, 0});
    Value rT = b.transpose(b.take(in[2], d, 0), {1, 0});
    Value proj = b.op("graph.matmul", {flatX, wT});
    if (Value bias = operand(3)) {
      Value both = b.take(bias, d, 0);
      proj =
          b.op("graph.add",
               {proj, b.op("graph.add", {b.slice(both, 0, hidden),
                                         b.slice(both, hidden, 2 * hidden)})});
    }
    proj = b.reshape(proj, {seq, batch, hidden});
    Value h =
        init ? b.take(init, d, 0)
             : constant(at, DenseElementsAttr::get(
                                RankedTensorType::get({batch, hidden}, element),
                                builder.getZeroAttr(element)));
    bool reverse = direction == "reverse" || d == 1;
    llvm::SmallVector<Value> steps(seq);
    for (int64_t i = 0; i < seq; ++i) {
      int64_t t = reverse ? seq - 1 - i : i;
      Value pre = b.op("graph.add",
                       {b.take(proj, t, 0), b.op("graph.matmul", {h, rT})});
      if (const onnx::AttributeProto *clip = attr(def, "clip")) {
        pre = b.op("graph.clamp", {pre, scalar(at, element, -clip->f()),
                                   scalar(at, element, clip->f())});
      }
      h = b.op(actOp, {pre});
      if (!h) {
        return fail();
      }
      steps[t] = h;
    }
    ys.push_back(b.stack(steps, 0));
    finals.push_back(h);
  }
  Value y = b.stack(ys, 1);
  Value yh = b.stack(finals, 0);
  if (batchMajor) {
    y = b.transpose(y, {2, 0, 1, 3});
    yh = b.transpose(yh, {1, 0, 2});
  }
  if (!y || !yh) {
    return fail();
  }
  return FailureOr<Results>(Results{y, yh});
}

} // namespace graphc::import
