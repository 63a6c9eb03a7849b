//===- Elementwise.cpp - TensorFlow element-wise ops ----------------------===//
//
// The translator of the TensorFlow element-wise ops and their gradients (the
// one-to-one ones through simpleGraphOp), comparisons, Select, casts, softmax.
// TFOps.cpp names this file for each op it takes; importNode
// (GraphDefImporter.cpp) dispatches here and records the result.
//
//===----------------------------------------------------------------------===//

#include "GraphDefImporterImpl.h"

namespace graphc::import {

/// The graph op of a one-to-one TensorFlow op, or "".
static StringRef simpleGraphOp(StringRef op) {
  return llvm::StringSwitch<StringRef>(op)
      .Cases("Identity", "StopGradient", "PreventGradient", "Snapshot",
             "CheckNumerics", "graph.identity")
      .Case("Abs", "graph.abs")
      .Case("Neg", "graph.neg")
      .Case("Exp", "graph.exp")
      .Case("Log", "graph.log")
      .Case("Sqrt", "graph.sqrt")
      .Case("Rsqrt", "graph.rsqrt")
      .Cases("Reciprocal", "Inv", "graph.reciprocal")
      .Case("Tanh", "graph.tanh")
      .Case("Sigmoid", "graph.sigmoid")
      .Case("Relu", "graph.relu")
      .Case("Erf", "graph.erf")
      .Case("Floor", "graph.floor")
      .Case("Ceil", "graph.ceil")
      .Case("Round", "graph.round")
      .Case("Sign", "graph.sign")
      .Case("Sin", "graph.sin")
      .Case("Cos", "graph.cos")
      .Case("Softplus", "graph.softplus")
      .Case("LogicalNot", "graph.not")
      .Cases("Add", "AddV2", "BiasAdd", "graph.add")
      .Case("Sub", "graph.sub")
      .Case("Mul", "graph.mul")
      .Cases("Div", "RealDiv", "graph.div")
      .Case("FloorDiv", "graph.floor_div")
      .Case("FloorMod", "graph.mod")
      .Case("Pow", "graph.pow")
      .Case("Maximum", "graph.max")
      .Case("Minimum", "graph.min")
      .Case("LogicalAnd", "graph.and")
      .Case("LogicalOr", "graph.or")
      .Default("");
}

LogicalResult GraphDefImporter::translateElementwise(
    const GraphNode &node, const tensorflow::NodeDef &nd, Location at,
    StringRef op, llvm::ArrayRef<Value> in, Value &result,
    llvm::SmallVectorImpl<Value> &results) {
  StringRef simple = simpleGraphOp(op);
  if (!simple.empty()) {
    bool binary =
        !(simple == "graph.identity" || op == "Abs" || op == "Neg" ||
          op == "Exp" || op == "Log" || op == "Sqrt" || op == "Rsqrt" ||
          op == "Reciprocal" || op == "Inv" || op == "Tanh" ||
          op == "Sigmoid" || op == "Relu" || op == "Erf" || op == "Floor" ||
          op == "Ceil" || op == "Round" || op == "Sign" || op == "Sin" ||
          op == "Cos" || op == "Softplus" || op == "LogicalNot");
    if (failed(needInputs(in, at, op, binary ? 2 : 1))) {
      return failure();
    }
    if (op == "BiasAdd") {
      const tensorflow::AttrValue *format = attr(nd, "data_format");
      if (format && format->s() == "NCHW") {
        return emitError(at) << "BiasAdd with data_format NCHW is not "
                                "supported yet";
      }
    }
    // A string passes through Identity, still opaque.
    if (op == "Identity" && !in[0]) {
      if (auto it = opaque.find(inKeys[0]); it != opaque.end()) {
        opaque[node.name + ":0"] = it->second;
        return success();
      }
    }
    // A variable read through Identity stays a variable reference.
    if (simple == "graph.identity" && variableOf.count(inKeys[0])) {
      variableOf[node.name + ":0"] = variableOf.lookup(inKeys[0]);
      if (in[0]) {
        values[node.name + ":0"] = in[0];
      }
      return success();
    }
    result = emit(at, simple,
                  llvm::ArrayRef<Value>(in).take_front(binary ? 2 : 1), {});
  } else if (op == "AddN") {
    if (failed(needInputs(in, at, op, 1))) {
      return failure();
    }
    result = in[0];
    for (unsigned i = 1; i < in.size() && result; ++i) {
      result = emit(at, "graph.add", {result, in[i]}, {});
    }
  } else if (op == "Square") {
    if (failed(needInputs(in, at, op, 1))) {
      return failure();
    }
    result = emit(at, "graph.mul", {in[0], in[0]}, {});
  } else if (op == "SquaredDifference") {
    if (failed(needInputs(in, at, op, 2))) {
      return failure();
    }
    Value d = emit(at, "graph.sub", {in[0], in[1]}, {});
    result = d ? emit(at, "graph.mul", {d, d}, {}) : Value();
  } else if (op == "Softmax" || op == "LogSoftmax") {
    if (failed(needInputs(in, at, op, 1))) {
      return failure();
    }
    result = emit(at, op == "Softmax" ? "graph.softmax" : "graph.log_softmax",
                  {in[0]}, {named("axis", builder.getI64IntegerAttr(-1))});
  } else if (op == "Cast") {
    if (failed(needInputs(in, at, op, 1))) {
      return failure();
    }
    const tensorflow::AttrValue *dst = attr(nd, "DstT");
    Type to = dst ? convertTFType(ctx, dst->type()) : Type();
    if (!to) {
      return emitError(at) << "Cast to an unsupported type";
    }
    result =
        emit(at, "graph.cast", {in[0]}, {named("to", TypeAttr::get(to))}, to);
  } else if (op == "ZerosLike" || op == "OnesLike") {
    if (failed(needInputs(in, at, op, 1))) {
      return failure();
    }
    auto shape = getShape(in[0]);
    if (!shape || llvm::is_contained(*shape, ShapedType::kDynamic)) {
      return emitError(at) << op << " needs a static shape";
    }
    result = splat(at, op == "OnesLike" ? 1 : 0, getElementType(in[0]), *shape);
  } else if (op == "Select" || op == "SelectV2") {
    if (failed(needInputs(in, at, op, 3))) {
      return failure();
    }
    Value cond = in[0];
    auto cs = getShape(cond), xs = getShape(in[1]);
    // TF1 Select: a vector condition picks rows of a higher-rank operand.
    if (op == "Select" && cs && xs && cs->size() == 1 && xs->size() > 1) {
      llvm::SmallVector<int64_t> shape(xs->size(), 1);
      shape[0] = (*cs)[0];
      cond = reshape(at, cond, shape);
      if (!cond) {
        return failure();
      }
    }
    result = emit(at, "graph.select", {cond, in[1], in[2]}, {},
                  getElementType(in[1]));
  } else if (op == "Equal" || op == "NotEqual" || op == "Less" ||
             op == "LessEqual" || op == "Greater" || op == "GreaterEqual") {
    if (failed(needInputs(in, at, op, 2))) {
      return failure();
    }
    StringRef dir = llvm::StringSwitch<StringRef>(op)
                        .Case("Equal", "eq")
                        .Case("NotEqual", "ne")
                        .Case("Less", "lt")
                        .Case("LessEqual", "le")
                        .Case("Greater", "gt")
                        .Default("ge");
    result = compare(at, in[0], in[1], dir);
  } else if (op == "ReluGrad") {
    // ReluGrad(g, x) = select(x > 0, g, 0)
    if (failed(needInputs(in, at, op, 2))) {
      return failure();
    }
    Value zero = splat(at, 0, getElementType(in[1]));
    Value pos = zero ? compare(at, in[1], zero, "gt") : Value();
    result = pos ? emit(at, "graph.select", {pos, in[0], zero}, {},
                        getElementType(in[0]))
                 : Value();
  } else if (op == "Relu6") {
    if (failed(needInputs(in, at, op, 1))) {
      return failure();
    }
    Value lo = splat(at, 0, getElementType(in[0]));
    Value hi = splat(at, 6, getElementType(in[0]));
    result = emit(at, "graph.clamp", {in[0], lo, hi}, {});
  } else if (op == "SigmoidGrad" || op == "TanhGrad") {
    // SigmoidGrad(y, dy) = dy * y * (1 - y); TanhGrad(y, dy) = dy * (1 - y^2)
    if (failed(needInputs(in, at, op, 2))) {
      return failure();
    }
    Value one = splat(at, 1, getElementType(in[0]));
    if (op == "SigmoidGrad") {
      Value d = emit(at, "graph.sub", {one, in[0]}, {});
      Value yd = d ? emit(at, "graph.mul", {in[0], d}, {}) : Value();
      result = yd ? emit(at, "graph.mul", {in[1], yd}, {}) : Value();
    } else {
      Value sq = emit(at, "graph.mul", {in[0], in[0]}, {});
      Value d = sq ? emit(at, "graph.sub", {one, sq}, {}) : Value();
      result = d ? emit(at, "graph.mul", {in[1], d}, {}) : Value();
    }
  } else if (op == "Elu" || op == "LeakyRelu") {
    if (failed(needInputs(in, at, op, 1))) {
      return failure();
    }
    if (op == "Elu") {
      result = emit(at, "graph.elu", {in[0]}, {});
    } else {
      const tensorflow::AttrValue *alpha = attr(nd, "alpha");
      result = emit(
          at, "graph.leaky_relu", {in[0]},
          {named("alpha", builder.getF32FloatAttr(alpha ? alpha->f() : 0.2f))});
    }
  } else {
    return notTranslated(at, op, "TF/Elementwise.cpp");
  }
  recordResults = true;
  return success();
}

} // namespace graphc::import
