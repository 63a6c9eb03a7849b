//===- Core.cpp - ONNX ops that map (almost) one to one ------------------===//
//
// Elementwise and logical ops, MatMul and Gemm, Max/Min/Sum, comparisons,
// Where, Cast, Concat, Constant/ConstantOfShape, Dropout (inference),
// Flatten, Reshape, Transpose, Elu/LeakyRelu, Conv and the window pools: one
// translator per op or group of ops, each registered in OnnxOps.cpp.
//
//===----------------------------------------------------------------------===//

#include "OnnxImporterImpl.h"
#include "OnnxNodeBuilder.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/Matchers.h"

#include "llvm/ADT/StringSwitch.h"

using namespace mlir;

namespace graphc::import {

/// Elementwise ops without attributes, and MatMul: one graph op each.
FailureOr<OnnxImporter::Results>
OnnxImporter::importOneToOne(const GraphNode &node, const onnx::NodeProto &def,
                             llvm::ArrayRef<Value> in, Location at) {
  StringRef name = llvm::StringSwitch<StringRef>(node.op)
                       .Case("Abs", "graph.abs")
                       .Case("Neg", "graph.neg")
                       .Case("Exp", "graph.exp")
                       .Case("Log", "graph.log")
                       .Case("Sqrt", "graph.sqrt")
                       .Case("Reciprocal", "graph.reciprocal")
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
                       .Case("Not", "graph.not")
                       .Case("Softplus", "graph.softplus")
                       .Case("Identity", "graph.identity")
                       .Case("Add", "graph.add")
                       .Case("Sub", "graph.sub")
                       .Case("Mul", "graph.mul")
                       .Case("Div", "graph.div")
                       .Case("And", "graph.and")
                       .Case("Or", "graph.or")
                       .Case("Xor", "graph.xor")
                       .Case("MatMul", "graph.matmul")
                       .Default("");
  if (name.empty()) {
    return notTranslated(node, at);
  }
  unsigned arity =
      llvm::is_contained(
          {"Add", "Sub", "Mul", "Div", "And", "Or", "Xor", "MatMul"}, node.op)
          ? 2
          : 1;
  if (failed(need(arity))) {
    return failure();
  }
  return one(build1(at, name, in.take_front(arity), {}));
}

/// Pow: an integer base is raised in f64; an exponent of another type is
/// cast to the base's.
FailureOr<OnnxImporter::Results>
OnnxImporter::importPow(const GraphNode &node, const onnx::NodeProto &def,
                        llvm::ArrayRef<Value> in, Location at) {
  if (failed(need(2))) {
    return failure();
  }
  llvm::SmallVector<Value> operands(in.take_front(2));
  Type base = getElementType(operands[0]);
  if (isa<IntegerType>(base)) {
    // graph.pow is a float op: an integer base (and any exponent) is
    // raised in f64, exact for integer results below 2^53, and the
    // result truncated back to the base's type as ONNX's reference does.
    Type f64 = builder.getF64Type();
    for (Value &v : operands) {
      v = build1(at, "graph.cast", {v}, {named("to", TypeAttr::get(f64))}, f64);
      if (!v) {
        return failure();
      }
    }
    Value p = build1(at, "graph.pow", operands, {});
    return one(p ? build1(at, "graph.cast", {p},
                          {named("to", TypeAttr::get(base))}, base)
                 : Value());
  }
  if (base != getElementType(operands[1])) {
    // ONNX lets the exponent's type differ; the op set does not.
    operands[1] = build1(at, "graph.cast", {operands[1]},
                         {named("to", TypeAttr::get(base))}, base);
    if (!operands[1]) {
      return failure();
    }
  }
  return one(build1(at, "graph.pow", operands, {}));
}

/// Max, Min, Sum: a chain of binary ops over the inputs.
FailureOr<OnnxImporter::Results>
OnnxImporter::importVariadic(const GraphNode &node, const onnx::NodeProto &def,
                             llvm::ArrayRef<Value> in, Location at) {
  StringRef op = node.op;
  Value result;
  if (failed(need(1))) {
    return failure();
  }
  StringRef name = op == "Max"   ? "graph.max"
                   : op == "Min" ? "graph.min"
                                 : "graph.add";
  result = in[0];
  for (unsigned i = 1; i < in.size() && result; ++i) {
    result = build1(at, name, {result, in[i]}, {});
  }
  return one(result);
}

/// Dropout: the identity at inference (an all-true mask when asked for).
FailureOr<OnnxImporter::Results>
OnnxImporter::importDropout(const GraphNode &node, const onnx::NodeProto &def,
                            llvm::ArrayRef<Value> in, Location at) {
  Value result;
  if (failed(need(1))) {
    return failure();
  }
  // Inference, or training with ratio 0, is the identity with an all-true
  // mask; real dropout needs random numbers the op set does not have.
  // Before opset 7 the mode is the is_test attribute, which importLegacy
  // has checked: this is then inference or a zero ratio.
  bool training = false;
  if (Value mode = operand(2)) {
    auto flag = constInts(mode);
    DenseElementsAttr attr;
    if (!flag && !matchPattern(mode, m_Constant(&attr))) {
      return emitError(at) << "Dropout with a computed training_mode is "
                              "not supported";
    }
    training =
        flag ? (!flag->empty() && (*flag)[0] != 0) : attr.getSplatValue<bool>();
  }
  if (training) {
    DenseElementsAttr ratio;
    bool zero = operand(1) && matchPattern(in[1], m_Constant(&ratio)) &&
                ratio.isSplat() && isa<FloatType>(ratio.getElementType()) &&
                ratio.getSplatValue<llvm::APFloat>().isZero();
    if (!zero) {
      return emitError(at) << "training-mode Dropout with a non-zero ratio "
                              "is not supported (no random ops)";
    }
  }
  result = build1(at, "graph.identity", {in[0]}, {});
  if (result && def.output_size() > 1 && !def.output(1).empty()) {
    auto shape = getShape(in[0]);
    if (!shape || ShapedType::isDynamicShape(*shape)) {
      return emitError(at) << "Dropout's mask needs a static input shape";
    }
    Value mask = constant(
        at, DenseElementsAttr::get(
                RankedTensorType::get(*shape, builder.getI1Type()), true));
    if (!mask) {
      return failure();
    }
    values[def.output(1)] = mask;
  }
  return one(result);
}

/// ConstantOfShape: a splat of a constant shape.
FailureOr<OnnxImporter::Results>
OnnxImporter::importConstantOfShape(const GraphNode &node,
                                    const onnx::NodeProto &def,
                                    llvm::ArrayRef<Value> in, Location at) {
  Value result;
  if (failed(need(1))) {
    return failure();
  }
  auto shape = constInts(in[0]);
  if (!shape) {
    return emitError(at) << "ConstantOfShape with a computed shape is not "
                            "supported";
  }
  for (int64_t d : *shape) {
    if (d < 0) {
      return emitError(at) << "ConstantOfShape dimension " << d
                           << " is negative";
    }
  }
  DenseElementsAttr fill;
  if (const onnx::AttributeProto *value = attr(def, "value")) {
    auto dense = convertTensor(value->t(), at);
    if (failed(dense)) {
      return failure();
    }
    if (dense->getNumElements() != 1) {
      return emitError(at) << "ConstantOfShape value must hold one element";
    }
    fill = *dense;
  } else {
    fill = DenseElementsAttr::get(
        RankedTensorType::get({1}, builder.getF32Type()), 0.0f);
  }
  auto type = RankedTensorType::get(*shape, fill.getElementType());
  result = constant(
      at, DenseElementsAttr::get(type, fill.getValues<Attribute>()[0]));
  return one(result);
}

/// Equal, Less, LessOrEqual, Greater, GreaterOrEqual.
FailureOr<OnnxImporter::Results>
OnnxImporter::importCompare(const GraphNode &node, const onnx::NodeProto &def,
                            llvm::ArrayRef<Value> in, Location at) {
  StringRef op = node.op;
  Value result;
  if (failed(need(2))) {
    return failure();
  }
  StringRef dir = llvm::StringSwitch<StringRef>(op)
                      .Case("Equal", "eq")
                      .Case("Less", "lt")
                      .Case("LessOrEqual", "le")
                      .Case("Greater", "gt")
                      .Default("ge");
  Attribute direction =
      parseAttr(ctx, at, ("#graph<compare_direction " + dir + ">").str());
  if (!direction) {
    return failure();
  }
  result = build1(at, "graph.compare", {in[0], in[1]},
                  {named("direction", direction)}, builder.getI1Type());
  return one(result);
}

/// Where: graph.select.
FailureOr<OnnxImporter::Results>
OnnxImporter::importWhere(const GraphNode &node, const onnx::NodeProto &def,
                          llvm::ArrayRef<Value> in, Location at) {
  Value result;
  if (failed(need(3))) {
    return failure();
  }
  result = build1(at, "graph.select", {in[0], in[1], in[2]}, {},
                  getElementType(in[1]));
  return one(result);
}

/// Cast (saturate and round_mode as graph.cast attributes).
FailureOr<OnnxImporter::Results>
OnnxImporter::importCast(const GraphNode &node, const onnx::NodeProto &def,
                         llvm::ArrayRef<Value> in, Location at) {
  Value result;
  if (failed(need(1))) {
    return failure();
  }
  Type to = convertOnnxElementType(ctx, attrInt(def, "to", 0));
  if (!to) {
    return emitError(at) << "Cast to unsupported ONNX element type "
                         << attrInt(def, "to", 0);
  }
  llvm::SmallVector<NamedAttribute> attrs = {named("to", TypeAttr::get(to))};
  if (failed(castAttributes(def, to, at, attrs))) {
    return failure();
  }
  result = build1(at, "graph.cast", {in[0]}, attrs, to);
  return one(result);
}

/// LeakyRelu and Elu (alpha).
FailureOr<OnnxImporter::Results>
OnnxImporter::importAlphaActivation(const GraphNode &node,
                                    const onnx::NodeProto &def,
                                    llvm::ArrayRef<Value> in, Location at) {
  StringRef op = node.op;
  Value result;
  if (failed(need(1))) {
    return failure();
  }
  float alpha = attrFloat(def, "alpha", op == "LeakyRelu" ? 0.01f : 1.0f);
  result = build1(at, op == "LeakyRelu" ? "graph.leaky_relu" : "graph.elu",
                  {in[0]}, {named("alpha", builder.getF32FloatAttr(alpha))});
  return one(result);
}

/// Constant: every numeric value attribute.
FailureOr<OnnxImporter::Results>
OnnxImporter::importConstant(const GraphNode &node, const onnx::NodeProto &def,
                             llvm::ArrayRef<Value> in, Location at) {
  Value result;
  const onnx::AttributeProto *value = attr(def, "value");
  if (value && value->has_t()) {
    auto dense = convertTensor(value->t(), at);
    if (failed(dense)) {
      return failure();
    }
    result = constant(at, *dense);
  } else if (const onnx::AttributeProto *a = attr(def, "value_float")) {
    result = constant(
        at, DenseElementsAttr::get(
                RankedTensorType::get({}, builder.getF32Type()), a->f()));
  } else if (const onnx::AttributeProto *a = attr(def, "value_int")) {
    result = constant(at, DenseElementsAttr::get(
                              RankedTensorType::get({}, builder.getI64Type()),
                              int64_t(a->i())));
  } else if (const onnx::AttributeProto *a = attr(def, "value_floats")) {
    llvm::SmallVector<float> v(a->floats().begin(), a->floats().end());
    result = constant(
        at, DenseElementsAttr::get(RankedTensorType::get({int64_t(v.size())},
                                                         builder.getF32Type()),
                                   llvm::ArrayRef<float>(v)));
  } else if (const onnx::AttributeProto *a = attr(def, "value_ints")) {
    llvm::SmallVector<int64_t> v(a->ints().begin(), a->ints().end());
    result = i64Const(at, v);
  } else {
    return emitError(at) << "Constant without a numeric value (string or "
                            "sparse tensors) is not supported";
  }
  return one(result);
}

/// Reshape (ONNX 0 copies the input dimension; allowzero keeps it).
FailureOr<OnnxImporter::Results>
OnnxImporter::importReshape(const GraphNode &node, const onnx::NodeProto &def,
                            llvm::ArrayRef<Value> in, Location at) {
  Value result;
  std::optional<llvm::SmallVector<int64_t>> shape;
  if (opset < 5) {
    if (failed(need(1))) {
      return failure();
    }
    shape = attrInts(def, "shape");
    if (!shape) {
      return emitError(at) << "Reshape (opset " << opset
                           << ") has no shape attribute";
    }
  } else {
    if (failed(need(2))) {
      return failure();
    }
    shape = constInts(in[1]);
  }
  if (!shape) {
    // A shape computed at run time: exact only with allowzero, since
    // ONNX's 0 ("copy this dimension") cannot be resolved before run time.
    if (!attrInt(def, "allowzero", 0)) {
      return emitError(at) << "Reshape with a shape computed at run time "
                              "is not supported (ONNX's 0 entries cannot "
                              "be resolved); fix the input shapes with "
                              "--input-shape";
    }
    result = build1(at, "graph.dynamic_reshape", {in[0], in[1]}, {});
    if (!result) {
      return failure();
    }
    return llvm::SmallVector<Value>{result};
  }
  if (!attrInt(def, "allowzero", 0)) {
    auto inShape = getShape(in[0]);
    for (unsigned i = 0; i < shape->size(); ++i) {
      if ((*shape)[i] != 0) {
        continue;
      }
      if (!inShape || i >= inShape->size() ||
          ShapedType::isDynamic((*inShape)[i])) {
        return emitError(at) << "Reshape copies dimension " << i
                             << " of an input whose shape is not known";
      }
      (*shape)[i] = (*inShape)[i];
    }
  }
  result =
      build1(at, "graph.reshape", {in[0]}, {named("shape", i64Array(*shape))});
  return one(result);
}

/// Flatten: a 2-D reshape around axis.
FailureOr<OnnxImporter::Results>
OnnxImporter::importFlatten(const GraphNode &node, const onnx::NodeProto &def,
                            llvm::ArrayRef<Value> in, Location at) {
  Value result;
  if (failed(need(1))) {
    return failure();
  }
  auto inShape = getShape(in[0]);
  if (!inShape) {
    return emitError(at) << "Flatten of an unranked input";
  }
  int64_t rank = inShape->size(), axis = attrInt(def, "axis", 1);
  if (axis < -rank || axis > rank) {
    return emitError(at) << "Flatten axis " << axis << " out of range for rank "
                         << rank;
  }
  if (axis < 0) {
    axis += rank;
  }
  int64_t outer = 1, inner = 1;
  for (int64_t i = 0; i < rank; ++i) {
    int64_t d = (*inShape)[i];
    int64_t &part = i < axis ? outer : inner;
    part = (ShapedType::isDynamic(d) || ShapedType::isDynamic(part))
               ? ShapedType::kDynamic
               : part * d;
  }
  if (ShapedType::isDynamic(outer) && ShapedType::isDynamic(inner)) {
    return emitError(at) << "Flatten with two unknown extents";
  }
  result = build1(
      at, "graph.reshape", {in[0]},
      {named("shape", i64Array({ShapedType::isDynamic(outer) ? -1 : outer,
                                ShapedType::isDynamic(inner) ? -1 : inner}))});
  return one(result);
}

/// Transpose (no perm: reversed).
FailureOr<OnnxImporter::Results>
OnnxImporter::importTranspose(const GraphNode &node, const onnx::NodeProto &def,
                              llvm::ArrayRef<Value> in, Location at) {
  Value result;
  if (failed(need(1))) {
    return failure();
  }
  auto perm = attrInts(def, "perm");
  if (!perm) {
    auto inShape = getShape(in[0]);
    if (!inShape) {
      return emitError(at) << "Transpose without perm of an unranked input";
    }
    perm.emplace();
    for (int64_t i = inShape->size() - 1; i >= 0; --i) {
      perm->push_back(i);
    }
  }
  result =
      build1(at, "graph.transpose", {in[0]}, {named("perm", i64Array(*perm))});
  return one(result);
}

/// Concat (default axis 1 before opset 4).
FailureOr<OnnxImporter::Results>
OnnxImporter::importConcat(const GraphNode &node, const onnx::NodeProto &def,
                           llvm::ArrayRef<Value> in, Location at) {
  Value result;
  if (failed(need(1))) {
    return failure();
  }
  llvm::SmallVector<Value> parts;
  for (Value v : in) {
    if (v) {
      parts.push_back(v);
    }
  }
  result = build1(at, "graph.concat", parts,
                  {named("axis", builder.getI64IntegerAttr(attrInt(
                                     def, "axis", opset < 4 ? 1 : 0)))});
  return one(result);
}

/// Gemm: matmul (transA/transB), alpha, beta * C.
FailureOr<OnnxImporter::Results>
OnnxImporter::importGemm(const GraphNode &node, const onnx::NodeProto &def,
                         llvm::ArrayRef<Value> in, Location at) {
  Value result;
  if (failed(need(2))) {
    return failure();
  }
  llvm::SmallVector<NamedAttribute> attrs;
  if (attrInt(def, "transA", 0)) {
    attrs.push_back(named("transpose_lhs", builder.getUnitAttr()));
  }
  if (attrInt(def, "transB", 0)) {
    attrs.push_back(named("transpose_rhs", builder.getUnitAttr()));
  }
  result = build1(at, "graph.matmul", {in[0], in[1]}, attrs);
  float alpha = attrFloat(def, "alpha", 1), beta = attrFloat(def, "beta", 1);
  Type element = result ? getElementType(result) : Type();
  if (result && alpha != 1) {
    result = build1(at, "graph.mul", {result, scalar(at, element, alpha)}, {});
  }
  if (result && operand(2)) {
    Value c = in[2];
    if (beta != 1) {
      c = build1(at, "graph.mul", {c, scalar(at, element, beta)}, {});
    }
    result = c ? build1(at, "graph.add", {result, c}, {}) : Value();
  }
  return one(result);
}

/// Conv, MaxPool, AveragePool: windowed ops, auto_pad resolved.
FailureOr<OnnxImporter::Results>
OnnxImporter::importConvPool(const GraphNode &node, const onnx::NodeProto &def,
                             llvm::ArrayRef<Value> in, Location at) {
  StringRef op = node.op;
  Value result;
  if (failed(need(op == "Conv" ? 2 : 1))) {
    return failure();
  }
  auto inShape = getShape(in[0]);
  if (!inShape || inShape->size() < 3) {
    return emitError(at) << op << " needs an input of known rank >= 3";
  }
  llvm::SmallVector<int64_t> window;
  if (op == "Conv") {
    auto filter = getShape(in[1]);
    if (!filter || filter->size() != inShape->size()) {
      return emitError(at) << "Conv filter rank does not match the input";
    }
    window.assign(filter->begin() + 2, filter->end());
  } else {
    auto k = attrInts(def, "kernel_shape");
    if (!k) {
      return emitError(at) << op << " has no kernel_shape";
    }
    window = *k;
  }
  FailureOr<llvm::SmallVector<NamedAttribute>> windowed =
      windowAttrs(op, def, *inShape, window, at);
  if (failed(windowed)) {
    return failure();
  }
  llvm::SmallVector<NamedAttribute> attrs = std::move(*windowed);
  if (op == "Conv") {
    attrs.push_back(
        named("groups", builder.getI64IntegerAttr(attrInt(def, "group", 1))));
    llvm::SmallVector<Value> operands = {in[0], in[1]};
    if (operand(2)) {
      operands.push_back(in[2]);
    }
    result = build1(at, "graph.conv", operands, attrs);
  } else {
    Attribute kind = parseAttr(ctx, at,
                               op == "MaxPool" ? "#graph<pool_kind max>"
                                               : "#graph<pool_kind avg>");
    if (!kind) {
      return failure();
    }
    attrs.push_back(named("kind", kind));
    attrs.push_back(named("window", i64Array(window)));
    if (attrInt(def, "ceil_mode", 0)) {
      attrs.push_back(named("ceil_mode", builder.getUnitAttr()));
    }
    if (attrInt(def, "count_include_pad", 0)) {
      attrs.push_back(named("count_include_pad", builder.getUnitAttr()));
    }
    result = build1(at, "graph.pool", {in[0]}, attrs);
    if (result && op == "MaxPool" && def.output_size() > 1 &&
        !def.output(1).empty()) {
      Value indices =
          maxPoolIndices(def, in[0], window, attrs, *getShape(result), at);
      if (!indices) {
        return failure();
      }
      return Results{result, indices};
    }
  }
  return one(result);
}

Value OnnxImporter::maxPoolIndices(const onnx::NodeProto &def, Value x,
                                   llvm::ArrayRef<int64_t> window,
                                   llvm::ArrayRef<NamedAttribute> windowed,
                                   llvm::ArrayRef<int64_t> outShape,
                                   Location at) {
  // Each window's first maximum in scan order, found by comparing the
  // window's elements one offset at a time: the strided slice of the
  // padded input at offset k holds element k of every window, and the
  // same slice of a table of flattened indices says where it came from.
  auto inShape = getShape(x);
  if (!isStatic(inShape) || mlir::ShapedType::isDynamicShape(outShape)) {
    emitError(at) << "MaxPool's Indices output needs a static input shape";
    return {};
  }
  int64_t storageOrder = attrInt(def, "storage_order", 0);
  if (storageOrder != 0 && storageOrder != 1) {
    emitError(at) << "MaxPool storage_order " << storageOrder
                  << " is not 0 (row major) or 1 (column major)";
    return {};
  }
  int64_t windowElements = 1;
  for (int64_t k : window) {
    windowElements *= k;
  }
  constexpr int64_t kMaxWindow = 4096;
  if (windowElements > kMaxWindow) {
    emitError(at) << "MaxPool's Indices output over a window of "
                  << windowElements << " elements is not supported (at most "
                  << kMaxWindow << ")";
    return {};
  }
  auto ints = [&](StringRef name) -> llvm::SmallVector<int64_t> {
    for (const NamedAttribute &a : windowed) {
      if (a.getName() == name) {
        return llvm::SmallVector<int64_t>(
            llvm::cast<mlir::DenseI64ArrayAttr>(a.getValue()).asArrayRef());
      }
    }
    return {};
  };
  llvm::SmallVector<int64_t> strides = ints("strides"),
                             dilations = ints("dilations"),
                             low = ints("pad_low"), high = ints("pad_high");
  size_t spatial = window.size();
  llvm::ArrayRef<int64_t> dims = llvm::ArrayRef(*inShape).drop_front(2);
  // The padded extent the windows reach (ceil_mode may reach past the
  // pads), and the padding that gives it.
  llvm::SmallVector<int64_t> padLow(2, 0), padHigh(2, 0), padded;
  for (size_t i = 0; i < spatial; ++i) {
    int64_t reach =
        (outShape[2 + i] - 1) * strides[i] + (window[i] - 1) * dilations[i] + 1;
    int64_t extent = std::max(low[i] + dims[i] + high[i], reach);
    padLow.push_back(low[i]);
    padHigh.push_back(extent - low[i] - dims[i]);
    padded.push_back(extent);
  }
  // The table: each padded position's flattened index within its (n, c)
  // plane, -1 in the padding.
  int64_t plane = 1;
  for (int64_t d : dims) {
    plane *= d;
  }
  int64_t paddedPlane = 1;
  for (int64_t d : padded) {
    paddedPlane *= d;
  }
  llvm::SmallVector<int64_t> table(paddedPlane, -1);
  for (int64_t p = 0; p < paddedPlane; ++p) {
    int64_t rest = p, rowMajor = 0, colMajor = 0, colStride = 1;
    bool inside = true;
    llvm::SmallVector<int64_t> pos(spatial);
    for (size_t i = spatial; i-- > 0;) {
      pos[i] = rest % padded[i] - padLow[2 + i];
      rest /= padded[i];
      inside &= pos[i] >= 0 && pos[i] < dims[i];
    }
    if (!inside) {
      continue;
    }
    for (size_t i = 0; i < spatial; ++i) {
      rowMajor = rowMajor * dims[i] + pos[i];
      colMajor += pos[i] * colStride;
      colStride *= dims[i];
    }
    table[p] = storageOrder == 0 ? rowMajor : colMajor;
  }
  Type i64 = builder.getI64Type();
  llvm::SmallVector<int64_t> tableShape = {1, 1};
  tableShape.append(padded.begin(), padded.end());
  Value indexTable = constant(
      at, DenseElementsAttr::get(RankedTensorType::get(tableShape, i64),
                                 llvm::ArrayRef<int64_t>(table)));
  Type element = getElementType(x);
  Attribute lowest;
  if (auto f = llvm::dyn_cast<FloatType>(element)) {
    lowest = builder.getFloatAttr(
        f, llvm::APFloat::getInf(f.getFloatSemantics(), /*Negative=*/true));
  } else if (auto n = llvm::dyn_cast<IntegerType>(element)) {
    lowest = builder.getIntegerAttr(
        n, n.isUnsigned() ? llvm::APInt::getMinValue(n.getWidth())
                          : llvm::APInt::getSignedMinValue(n.getWidth()));
  } else {
    emitError(at) << "MaxPool's Indices output of " << element
                  << " is not supported";
    return {};
  }
  NodeBuilder b{*this, at};
  Value border = constant(
      at, DenseElementsAttr::get(RankedTensorType::get({}, element), lowest));
  Value values = b.op("graph.pad", {x, border},
                      {b.i64s("low", padLow), b.i64s("high", padHigh)});
  Value best, index;
  llvm::SmallVector<int64_t> offset(spatial, 0);
  for (int64_t k = 0; k < windowElements; ++k) {
    llvm::SmallVector<int64_t> starts = {0, 0},
                               limits = {(*inShape)[0], (*inShape)[1]},
                               steps = {1, 1};
    for (size_t i = 0; i < spatial; ++i) {
      int64_t start = offset[i] * dilations[i];
      starts.push_back(start);
      limits.push_back(start + (outShape[2 + i] - 1) * strides[i] + 1);
      steps.push_back(strides[i]);
    }
    auto slice = [&](Value v, llvm::ArrayRef<int64_t> limit) {
      return b.op("graph.slice", {v},
                  {b.i64s("starts", starts), b.i64s("limits", limit),
                   b.i64s("strides", steps)});
    };
    llvm::SmallVector<int64_t> tableLimits(limits);
    tableLimits[0] = tableLimits[1] = 1;
    Value v = slice(values, limits), i = slice(indexTable, tableLimits);
    if (!best) {
      best = v;
      index = i;
    } else {
      Value take = b.compare(v, best, "gt");
      best = b.op("graph.select", {take, v, best}, {}, element);
      index = b.op("graph.select", {take, i, index}, {}, i64);
    }
    if (!index) {
      return {};
    }
    // The next offset in row-major order over the window.
    for (size_t d = spatial; d-- > 0;) {
      if (++offset[d] < window[d]) {
        break;
      }
      offset[d] = 0;
    }
  }
  // Each (n, c) plane's place in the flattened input.
  int64_t planes = (*inShape)[0] * (*inShape)[1];
  llvm::SmallVector<int64_t> bases(planes);
  for (int64_t p = 0; p < planes; ++p) {
    bases[p] = p * plane;
  }
  llvm::SmallVector<int64_t> baseShape = {(*inShape)[0], (*inShape)[1]};
  baseShape.append(spatial, 1);
  Value base =
      constant(at, DenseElementsAttr::get(RankedTensorType::get(baseShape, i64),
                                          llvm::ArrayRef<int64_t>(bases)));
  return b.op("graph.add", {index, base});
}

} // namespace graphc::import
