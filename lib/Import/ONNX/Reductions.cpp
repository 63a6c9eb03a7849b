//===- Reductions.cpp - ONNX reductions -----------------------------------===//
//
// Reduce*, ArgMax/ArgMin and the global pools.
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
OnnxImporter::importReductions(const GraphNode &node,
                               const onnx::NodeProto &def,
                               llvm::ArrayRef<Value> in, Location at) {
  StringRef op = node.op;
  // ---- reductions -------------------------------------------------------
  if (op.starts_with("Reduce")) {
    if (failed(need(1))) {
      return failure();
    }
    auto rank = rankOf(in[0]);
    if (!rank) {
      return emitError(at) << op << " of an unranked input";
    }
    // Axes moved from an attribute to input 1 (ReduceSum at 13, the others
    // at 18).
    bool present;
    auto axes = intsArg(1, "axes", present);
    if (failed(axes)) {
      return failure();
    }
    if (axes->empty()) {
      if (attrInt(def, "noop_with_empty_axes", 0)) {
        return one(build1(at, "graph.identity", {in[0]}));
      }
      for (int64_t i = 0; i < *rank; ++i) {
        axes->push_back(i);
      }
    }
    bool keep = attrInt(def, "keepdims", 1);
    StringRef kind = llvm::StringSwitch<StringRef>(op)
                         .Case("ReduceSum", "sum")
                         .Case("ReduceSumSquare", "sum")
                         .Case("ReduceL1", "sum")
                         .Case("ReduceL2", "sum")
                         .Case("ReduceLogSum", "sum")
                         .Case("ReduceLogSumExp", "sum")
                         .Case("ReduceMean", "mean")
                         .Case("ReduceMax", "max")
                         .Case("ReduceMin", "min")
                         .Case("ReduceProd", "prod")
                         .Default("");
    if (kind.empty()) {
      return emitError(at) << "ONNX op '" << op << "' has no import rule";
    }
    Value x = in[0];
    if (op == "ReduceSumSquare" || op == "ReduceL2") {
      x = build1(at, "graph.mul", {x, x});
    } else if (op == "ReduceL1") {
      x = build1(at, "graph.abs", {x});
    } else if (op == "ReduceLogSumExp") {
      x = build1(at, "graph.exp", {x});
    }
    // Booleans reduce as 0/1 bytes (max = any, min = all), compared back.
    bool boolean = getElementType(x).isInteger(1);
    if (boolean && (kind == "max" || kind == "min")) {
      Type i8 = builder.getIntegerType(8);
      x = build1(at, "graph.select", {x, scalar(at, i8, 1), scalar(at, i8, 0)},
                 {}, i8);
    }
    if (!x) {
      return failure();
    }
    Attribute k = kindAttr(("#graph<reduce_kind " + kind + ">").str());
    if (!k) {
      return failure();
    }
    llvm::SmallVector<NamedAttribute> attrs = {named("kind", k),
                                               named("axes", i64Array(*axes))};
    if (keep) {
      attrs.push_back(named("keepdims", builder.getUnitAttr()));
    }
    Value r = build1(at, "graph.reduce", {x}, attrs);
    if (r && boolean && (kind == "max" || kind == "min")) {
      Attribute ne = kindAttr("#graph<compare_direction ne>");
      r = ne ? build1(at, "graph.compare",
                      {r, scalar(at, getElementType(r), 0)},
                      {named("direction", ne)}, builder.getI1Type())
             : Value();
    }
    if (r && op == "ReduceL2") {
      r = build1(at, "graph.sqrt", {r});
    } else if (r && (op == "ReduceLogSum" || op == "ReduceLogSumExp")) {
      r = build1(at, "graph.log", {r});
    }
    return one(r);
  }
  if (op == "ArgMax" || op == "ArgMin") {
    if (failed(need(1))) {
      return failure();
    }
    Attribute k = kindAttr(op == "ArgMax" ? "#graph<reduce_kind max>"
                                          : "#graph<reduce_kind min>");
    if (!k) {
      return failure();
    }
    llvm::SmallVector<NamedAttribute> attrs = {
        named("kind", k), named("axis", i64Attr(attrInt(def, "axis", 0)))};
    if (attrInt(def, "keepdims", 1)) {
      attrs.push_back(named("keepdims", builder.getUnitAttr()));
    }
    if (attrInt(def, "select_last_index", 0)) {
      attrs.push_back(named("select_last_index", builder.getUnitAttr()));
    }
    return one(
        build1(at, "graph.arg_reduce", {in[0]}, attrs, builder.getI64Type()));
  }
  if (op == "GlobalAveragePool" || op == "GlobalMaxPool") {
    if (failed(need(1))) {
      return failure();
    }
    auto rank = rankOf(in[0]);
    if (!rank || *rank < 2) {
      return emitError(at) << op << " needs an input of known rank >= 2";
    }
    llvm::SmallVector<int64_t> axes;
    for (int64_t i = 2; i < *rank; ++i) {
      axes.push_back(i);
    }
    Attribute k = kindAttr(op == "GlobalMaxPool" ? "#graph<reduce_kind max>"
                                                 : "#graph<reduce_kind mean>");
    if (!k) {
      return failure();
    }
    return one(build1(at, "graph.reduce", {in[0]},
                      {named("kind", k), named("axes", i64Array(axes)),
                       named("keepdims", builder.getUnitAttr())}));
  }

  return notTranslated(node, at);
}

} // namespace graphc::import
