//===- Recurrent.cpp - ONNX LSTM and GRU ----------------------------------===//
//
// LSTM and GRU (layout 1 transposed around the time-major op).
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

FailureOr<OnnxImporter::Results>
OnnxImporter::importRecurrent(const GraphNode &node, const onnx::NodeProto &def,
                              llvm::ArrayRef<Value> in, Location at) {
  StringRef op = node.op;
  if (op == "LSTM" || op == "GRU") {
    if (failed(need(3))) {
      return failure();
    }
    bool lstm = op == "LSTM";
    // layout 1 is batch-major: transpose in and out of the time-major op.
    bool batchMajor = attrInt(def, "layout", 0) != 0;
    auto transpose = [&](Value v, llvm::ArrayRef<int64_t> perm) {
      return v ? build1(at, "graph.transpose", {v},
                        {named("perm", i64Array(perm))})
               : Value();
    };
    if (attr(def, "activation_alpha") || attr(def, "activation_beta")) {
      return emitError(at) << op << " activation_alpha/beta are not supported";
    }
    const onnx::AttributeProto *hs = attr(def, "hidden_size");
    int64_t hidden = hs ? hs->i() : 0;
    if (!hs) {
      auto r = getShape(in[2]);
      if (!r || r->size() != 3 || ShapedType::isDynamic((*r)[2])) {
        return emitError(at) << op << " without hidden_size";
      }
      hidden = (*r)[2];
    }
    Attribute dir = kindAttr(
        ("#graph<rnn_direction " + attrStr("direction", "forward") + ">")
            .str());
    if (!dir) {
      return failure();
    }
    llvm::SmallVector<NamedAttribute> attrs = {
        named("hidden_size", i64Attr(hidden)), named("direction", dir)};
    if (const onnx::AttributeProto *a = attr(def, "activations")) {
      llvm::SmallVector<StringRef> names(a->strings().begin(),
                                         a->strings().end());
      attrs.push_back(named("activations", builder.getStrArrayAttr(names)));
    }
    if (const onnx::AttributeProto *a = attr(def, "clip")) {
      attrs.push_back(named("clip", builder.getF32FloatAttr(a->f())));
    }
    if (lstm && attrInt(def, "input_forget", 0)) {
      attrs.push_back(named("input_forget", builder.getUnitAttr()));
    }
    if (!lstm && attrInt(def, "linear_before_reset", 0)) {
      attrs.push_back(named("linear_before_reset", builder.getUnitAttr()));
    }
    unsigned optional = lstm ? 5 : 3; // B, sequence_lens, initial_h[, c, P]
    Value x = batchMajor ? transpose(in[0], {1, 0, 2}) : in[0];
    if (!x) {
      return failure();
    }
    llvm::SmallVector<Value> operands = {x, in[1], in[2]};
    llvm::SmallVector<int32_t> segments = {1, 1, 1};
    for (unsigned i = 0; i < optional; ++i) {
      Value v = operand(3 + i);
      if (v && batchMajor && (i == 2 || i == 3)) { // initial_h, initial_c
        v = transpose(v, {1, 0, 2});
        if (!v) {
          return failure();
        }
      }
      if (v && i == 1 && !getElementType(v).isInteger(32)) {
        v = build1(at, "graph.cast", {v},
                   {named("to", TypeAttr::get(builder.getI32Type()))},
                   builder.getI32Type());
        if (!v) {
          return failure();
        }
      }
      if (v) {
        operands.push_back(v);
      }
      segments.push_back(v ? 1 : 0);
    }
    attrs.push_back(
        named("operandSegmentSizes", builder.getDenseI32ArrayAttr(segments)));
    Type element = getElementType(in[0]);
    llvm::SmallVector<Type> elems(lstm ? 3 : 2, element);
    Operation *rnn = createGraphOp(
        builder, at, lstm ? "graph.lstm" : "graph.gru", operands, attrs, elems);
    if (!rnn) {
      return failure();
    }
    Results outs(rnn->getResults());
    if (batchMajor) {
      outs[0] = transpose(outs[0], {2, 0, 1, 3});
      for (size_t i = 1; i < outs.size(); ++i) {
        outs[i] = transpose(outs[i], {1, 0, 2});
      }
      if (llvm::is_contained(outs, Value())) {
        return failure();
      }
    }
    return outs;
  }
  return notTranslated(node, at);
}

} // namespace graphc::import
