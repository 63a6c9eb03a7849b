//===- Normalization.cpp - ONNX normalisation -----------------------------===//
//
// BatchNormalization (inference), LayerNormalization, LRN,
// InstanceNormalization.
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
OnnxImporter::importNormalization(const GraphNode &node,
                                  const onnx::NodeProto &def,
                                  llvm::ArrayRef<Value> in, Location at) {
  StringRef op = node.op;
  // ---- normalisation ----------------------------------------------------
  if (op == "BatchNormalization") {
    if (failed(need(5))) {
      return failure();
    }
    if (attrInt(def, "training_mode", 0)) {
      return emitError(at) << "BatchNormalization in training mode is not "
                              "supported";
    }
    return one(build1(
        at, "graph.batch_norm", {in[0], in[1], in[2], in[3], in[4]},
        {named("epsilon",
               builder.getF32FloatAttr(attrFloat(def, "epsilon", 1e-5f)))}));
  }
  if (op == "LayerNormalization") {
    if (failed(need(2))) {
      return failure();
    }
    int64_t axis = attrInt(def, "axis", -1);
    float epsilon = attrFloat(def, "epsilon", 1e-5f);
    llvm::SmallVector<Value> operands = {in[0], in[1]};
    llvm::SmallVector<NamedAttribute> attrs = {
        named("axis", i64Attr(axis)),
        named("epsilon", builder.getF32FloatAttr(epsilon))};
    if (operand(2)) {
      operands.push_back(in[2]);
    }
    Value y = build1(at, "graph.layer_norm", operands, attrs);
    if (!y) {
      return failure();
    }
    bool stats = false;
    for (int i = 1; i < def.output_size(); ++i) {
      stats |= !def.output(i).empty();
    }
    if (!stats) {
      return Results{y};
    }
    // Mean and InvStdDev (kept dimensions), computed in the stash type
    // (float32 by default) as ONNX's function body does.
    auto rank = rankOf(in[0]);
    if (!rank) {
      return emitError(at) << "LayerNormalization statistics of an unranked "
                              "input";
    }
    int64_t a = axis < 0 ? axis + *rank : axis;
    if (a < 0 || a >= *rank) {
      return emitError(at) << "LayerNormalization axis " << axis
                           << " out of range for rank " << *rank;
    }
    llvm::SmallVector<int64_t> axes;
    for (int64_t i = a; i < *rank; ++i) {
      axes.push_back(i);
    }
    Type stash = attrInt(def, "stash_type", 1) == 1 ? Type(builder.getF32Type())
                                                    : getElementType(in[0]);
    Value x = in[0];
    if (getElementType(x) != stash) {
      x = build1(at, "graph.cast", {x}, {named("to", TypeAttr::get(stash))},
                 stash);
    }
    Attribute meanKind = kindAttr("#graph<reduce_kind mean>");
    if (!x || !meanKind) {
      return failure();
    }
    auto reduceMean = [&](Value v) {
      return v ? build1(at, "graph.reduce", {v},
                        {named("kind", meanKind), named("axes", i64Array(axes)),
                         named("keepdims", builder.getUnitAttr())})
               : Value();
    };
    Value mean = reduceMean(x);
    Value centred = mean ? build1(at, "graph.sub", {x, mean}) : Value();
    Value var = centred
                    ? reduceMean(build1(at, "graph.mul", {centred, centred}))
                    : Value();
    Value inv = var ? build1(at, "graph.rsqrt",
                             {build1(at, "graph.add",
                                     {var, scalar(at, stash, epsilon)})})
                    : Value();
    if (!inv) {
      return failure();
    }
    return Results{y, mean, inv};
  }
  if (op == "LRN") {
    if (failed(need(1))) {
      return failure();
    }
    if (!attr(def, "size")) {
      return emitError(at) << "LRN needs the attribute size";
    }
    return one(build1(
        at, "graph.lrn", {in[0]},
        {named("size", i64Attr(attrInt(def, "size", 0))),
         named("alpha",
               builder.getF32FloatAttr(attrFloat(def, "alpha", 1e-4f))),
         named("beta", builder.getF32FloatAttr(attrFloat(def, "beta", 0.75f))),
         named("bias",
               builder.getF32FloatAttr(attrFloat(def, "bias", 1.0f)))}));
  }
  if (op == "InstanceNormalization") {
    if (failed(need(3))) {
      return failure();
    }
    auto rank = rankOf(in[0]);
    if (!rank || *rank < 3) {
      return emitError(at) << "InstanceNormalization needs a ranked input of "
                              "rank >= 3";
    }
    Type element = getElementType(in[0]);
    llvm::SmallVector<int64_t> axes;
    for (int64_t i = 2; i < *rank; ++i) {
      axes.push_back(i);
    }
    Attribute mean = kindAttr("#graph<reduce_kind mean>");
    if (!mean) {
      return failure();
    }
    auto reduceMean = [&](Value v) {
      return v ? build1(at, "graph.reduce", {v},
                        {named("kind", mean), named("axes", i64Array(axes)),
                         named("keepdims", builder.getUnitAttr())})
               : Value();
    };
    Value mu = reduceMean(in[0]);
    Value centred = mu ? build1(at, "graph.sub", {in[0], mu}) : Value();
    Value var = centred
                    ? reduceMean(build1(at, "graph.mul", {centred, centred}))
                    : Value();
    Value eps = scalar(at, element, attrFloat(def, "epsilon", 1e-5f));
    Value inv =
        var ? build1(at, "graph.rsqrt", {build1(at, "graph.add", {var, eps})})
            : Value();
    llvm::SmallVector<int64_t> cshape = {-1};
    cshape.append(*rank - 2, 1);
    Value scale = build1(at, "graph.reshape", {in[1]},
                         {named("shape", i64Array(cshape))});
    Value bias = build1(at, "graph.reshape", {in[2]},
                        {named("shape", i64Array(cshape))});
    if (!inv || !scale || !bias) {
      return failure();
    }
    Value y = build1(at, "graph.mul", {centred, inv});
    y = y ? build1(at, "graph.mul", {y, scale}) : Value();
    return one(y ? build1(at, "graph.add", {y, bias}) : Value());
  }

  return notTranslated(node, at);
}

} // namespace graphc::import
