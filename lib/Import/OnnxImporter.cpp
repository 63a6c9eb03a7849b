//===- OnnxImporter.cpp - ONNX ModelProto to the graph dialect --------------===//
//
// Builds func @main: graph inputs (initializers excluded) become arguments,
// initializers become graph.constant, nodes are visited in topological order
// and translated by op type, graph outputs are returned. Every op's location
// is "FILE:NODE".
//
//===----------------------------------------------------------------------===//

#include "graphc/Import/Importers.h"

#include "ImportUtils.h"
#include "graphc/Import/NodeGraph.h"
#include "graphc/Import/OnnxReader.h"
#include "graphc/Import/SupportedOps.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/Matchers.h"

#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/Endian.h"
#include "llvm/Support/Path.h"

#include <cstring>

using namespace mlir;
using llvm::StringRef;

namespace graphc::import {

namespace {

/// Element type of an ONNX TensorProto::DataType; null when unsupported.
Type convertOnnxElementType(MLIRContext *ctx, int32_t type) {
  switch (type) {
  case onnx::TensorProto::FLOAT:
    return Float32Type::get(ctx);
  case onnx::TensorProto::DOUBLE:
    return Float64Type::get(ctx);
  case onnx::TensorProto::FLOAT16:
    return Float16Type::get(ctx);
  case onnx::TensorProto::BFLOAT16:
    return BFloat16Type::get(ctx);
  case onnx::TensorProto::BOOL:
    return IntegerType::get(ctx, 1);
  case onnx::TensorProto::INT8:
  case onnx::TensorProto::UINT8:
    return IntegerType::get(ctx, 8);
  case onnx::TensorProto::INT16:
  case onnx::TensorProto::UINT16:
    return IntegerType::get(ctx, 16);
  case onnx::TensorProto::INT32:
  case onnx::TensorProto::UINT32:
    return IntegerType::get(ctx, 32);
  case onnx::TensorProto::INT64:
  case onnx::TensorProto::UINT64:
    return IntegerType::get(ctx, 64);
  // Narrow types of newer opsets (numbers as in ONNX 1.18+).
  case 17:
    return Float8E4M3FNType::get(ctx);
  case 18:
    return Float8E4M3FNUZType::get(ctx);
  case 19:
    return Float8E5M2Type::get(ctx);
  case 20:
    return Float8E5M2FNUZType::get(ctx);
  case 21: // UINT4
  case 22: // INT4
    return IntegerType::get(ctx, 4);
  case 23:
    return Float4E2M1FNType::get(ctx);
  case 24:
    return Float8E8M0FNUType::get(ctx);
  case 25: // UINT2
  case 26: // INT2
    return IntegerType::get(ctx, 2);
  default:
    return {};
  }
}

class OnnxImporter {
public:
  OnnxImporter(MLIRContext &context, StringRef path,
               const ImportOptions &options)
      : ctx(&context), builder(&context), path(path), options(options) {
    fileName = llvm::sys::path::filename(path).str();
    modelDir = llvm::sys::path::parent_path(path).str();
  }

  OwningOpRef<ModuleOp> run();

private:
  Location loc(StringRef node) {
    return NameLoc::get(StringAttr::get(ctx, fileName + ":" + node.str()));
  }

  FailureOr<DenseElementsAttr> convertTensor(const onnx::TensorProto &tensor,
                                             Location at);
  FailureOr<Type> convertValueType(const onnx::ValueInfoProto &info,
                                   Location at);
  LogicalResult importNode(const GraphNode &node);

  // Attribute accessors.
  const onnx::AttributeProto *attr(const onnx::NodeProto &node,
                                   StringRef name) {
    for (const onnx::AttributeProto &a : node.attribute())
      if (a.name() == name)
        return &a;
    return nullptr;
  }
  int64_t attrInt(const onnx::NodeProto &node, StringRef name, int64_t dflt) {
    const onnx::AttributeProto *a = attr(node, name);
    return a ? a->i() : dflt;
  }
  float attrFloat(const onnx::NodeProto &node, StringRef name, float dflt) {
    const onnx::AttributeProto *a = attr(node, name);
    return a ? a->f() : dflt;
  }
  std::optional<llvm::SmallVector<int64_t>> attrInts(const onnx::NodeProto &node,
                                                     StringRef name) {
    const onnx::AttributeProto *a = attr(node, name);
    if (!a)
      return std::nullopt;
    return llvm::SmallVector<int64_t>(a->ints().begin(), a->ints().end());
  }
  /// The values of a constant integer operand (shapes, axes).
  std::optional<llvm::SmallVector<int64_t>> constInts(Value value) {
    DenseElementsAttr attr;
    if (!value || !matchPattern(value, m_Constant(&attr)) ||
        !isa<IntegerType>(attr.getElementType()))
      return std::nullopt;
    llvm::SmallVector<int64_t> out;
    for (const llvm::APInt &v : attr.getValues<llvm::APInt>())
      out.push_back(v.getSExtValue());
    return out;
  }

  Value constant(Location at, DenseElementsAttr value) {
    Operation *op = createGraphOp(builder, at, "graph.constant", {},
                                  {builder.getNamedAttr("value", value)},
                                  {value.getElementType()});
    return op ? op->getResult(0) : Value();
  }
  Value scalar(Location at, Type element, double value) {
    auto type = RankedTensorType::get({}, element);
    if (isa<FloatType>(element))
      return constant(at, DenseElementsAttr::get(
                              type, builder.getFloatAttr(element, value)));
    return constant(at, DenseElementsAttr::get(
                            type, builder.getIntegerAttr(element, int64_t(value))));
  }

  MLIRContext *ctx;
  OpBuilder builder;
  std::string path, fileName, modelDir;
  const ImportOptions &options;
  int64_t opset = 0;
  llvm::StringMap<Value> values;
  const onnx::ModelProto *model = nullptr;
};

FailureOr<DenseElementsAttr>
OnnxImporter::convertTensor(const onnx::TensorProto &tensor, Location at) {
  Type element = convertOnnxElementType(ctx, tensor.data_type());
  if (!element)
    return emitError(at) << "tensor '" << tensor.name()
                         << "' has unsupported ONNX element type "
                         << tensor.data_type();
  llvm::SmallVector<int64_t> shape;
  int64_t count = 1;
  for (int64_t dim : tensor.dims()) {
    if (dim < 0 || (dim > 0 && count > (int64_t(1) << 40) / dim))
      return emitError(at) << "tensor '" << tensor.name()
                           << "' has an invalid dimension " << dim;
    shape.push_back(dim);
    count *= dim;
  }
  auto type = RankedTensorType::get(shape, element);
  std::string external;
  const std::string *raw = nullptr;
  if (tensor.data_location() == onnx::TensorProto::EXTERNAL) {
    auto bytes = readOnnxExternalData(tensor, modelDir, path, options.limits);
    if (!bytes)
      return emitError(at) << llvm::toString(bytes.takeError());
    external = std::move(*bytes);
    raw = &external;
  } else if (tensor.has_raw_data()) {
    raw = &tensor.raw_data();
  }
  unsigned width = element.isInteger(1) ? 8 : element.getIntOrFloatBitWidth();
  if (width % 8 != 0)
    return emitError(at) << "tensor '" << tensor.name() << "' of " << element
                         << " holds packed sub-byte data, which is not "
                            "supported";
  size_t bytesPer = width / 8;
  if (raw) {
    if (raw->size() != size_t(count) * bytesPer)
      return emitError(at) << "tensor '" << tensor.name() << "' holds "
                           << raw->size() << " bytes, its type " << type
                           << " needs " << count * bytesPer;
    if (element.isInteger(1)) {
      llvm::SmallVector<bool> bits;
      for (char c : *raw)
        bits.push_back(c != 0);
      return DenseElementsAttr::get(type, llvm::ArrayRef<bool>(bits));
    }
    return DenseElementsAttr::getFromRawBuffer(
        type, llvm::ArrayRef<char>(raw->data(), raw->size()));
  }
  // Typed fields; each element type has exactly one home.
  auto checkCount = [&](int64_t have) -> LogicalResult {
    if (have != count)
      return emitError(at) << "tensor '" << tensor.name() << "' holds " << have
                           << " values, its type " << type << " needs "
                           << count;
    return success();
  };
  if (element.isF32()) {
    if (failed(checkCount(tensor.float_data_size())))
      return failure();
    return DenseElementsAttr::get(
        type, llvm::ArrayRef<float>(tensor.float_data().data(), count));
  }
  if (element.isF64()) {
    if (failed(checkCount(tensor.double_data_size())))
      return failure();
    return DenseElementsAttr::get(
        type, llvm::ArrayRef<double>(tensor.double_data().data(), count));
  }
  if (element.isInteger(64)) {
    bool unsignedData = tensor.data_type() == onnx::TensorProto::UINT64;
    int64_t have = unsignedData ? tensor.uint64_data_size()
                                : tensor.int64_data_size();
    if (failed(checkCount(have)))
      return failure();
    llvm::SmallVector<int64_t> data;
    for (int64_t i = 0; i < count; ++i)
      data.push_back(unsignedData ? int64_t(tensor.uint64_data(i))
                                  : tensor.int64_data(i));
    return DenseElementsAttr::get(type, llvm::ArrayRef<int64_t>(data));
  }
  if (tensor.data_type() == onnx::TensorProto::UINT32) {
    if (failed(checkCount(tensor.uint64_data_size())))
      return failure();
    llvm::SmallVector<llvm::APInt> data;
    for (int64_t i = 0; i < count; ++i)
      data.push_back(llvm::APInt(32, tensor.uint64_data(i)));
    return DenseElementsAttr::get(type, data);
  }
  // int32_data carries every narrower type, FLOAT16/BFLOAT16 as bit patterns.
  if (failed(checkCount(tensor.int32_data_size())))
    return failure();
  llvm::SmallVector<llvm::APInt> data;
  for (int64_t i = 0; i < count; ++i)
    data.push_back(llvm::APInt(width, uint64_t(int64_t(tensor.int32_data(i))),
                               /*isSigned=*/false, /*implicitTrunc=*/true));
  if (isa<FloatType>(element)) {
    llvm::SmallVector<char> bytes;
    for (const llvm::APInt &v : data) {
      uint16_t bits = uint16_t(v.getZExtValue());
      bytes.push_back(char(bits & 0xff));
      if (width == 16)
        bytes.push_back(char(bits >> 8));
    }
    return DenseElementsAttr::getFromRawBuffer(type, bytes);
  }
  return DenseElementsAttr::get(type, data);
}

FailureOr<Type> OnnxImporter::convertValueType(const onnx::ValueInfoProto &info,
                                               Location at) {
  if (!info.type().has_tensor_type())
    return emitError(at) << "value '" << info.name()
                         << "' is not a tensor (sequences and maps are not "
                            "supported)";
  const auto &tensorType = info.type().tensor_type();
  Type element = convertOnnxElementType(ctx, tensorType.elem_type());
  if (!element)
    return emitError(at) << "value '" << info.name()
                         << "' has unsupported ONNX element type "
                         << tensorType.elem_type();
  // An explicit --input-shape wins over the file.
  for (StringRef spec : options.inputShapes) {
    auto [name, dims] = spec.rsplit(':');
    if (name != info.name())
      continue;
    llvm::SmallVector<int64_t> shape;
    llvm::SmallVector<StringRef> parts;
    if (!dims.empty())
      dims.split(parts, 'x');
    for (StringRef part : parts) {
      int64_t size;
      if (part == "?")
        size = ShapedType::kDynamic;
      else if (part.getAsInteger(10, size) || size < 0)
        return emitError(at) << "--input-shape '" << spec
                             << "': bad dimension '" << part << "'";
      shape.push_back(size);
    }
    if (tensorType.has_shape() &&
        tensorType.shape().dim_size() != int(shape.size()))
      return emitError(at) << "--input-shape '" << spec << "' has rank "
                           << shape.size() << " but input '" << info.name()
                           << "' has rank " << tensorType.shape().dim_size();
    return Type(RankedTensorType::get(shape, element));
  }
  if (!tensorType.has_shape())
    return Type(UnrankedTensorType::get(element));
  llvm::SmallVector<int64_t> shape;
  for (const auto &dim : tensorType.shape().dim())
    shape.push_back(dim.has_dim_value() && dim.dim_value() >= 0
                        ? dim.dim_value()
                        : ShapedType::kDynamic);
  return Type(RankedTensorType::get(shape, element));
}

LogicalResult OnnxImporter::importNode(const GraphNode &node) {
  const auto &def = *static_cast<const onnx::NodeProto *>(node.source);
  Location at = loc(node.name);
  if (!node.domain.empty())
    return emitError(at) << "op '" << node.domain << "." << node.op
                         << "' is not a standard ONNX op and has no import "
                            "rule";
  llvm::SmallVector<Value> in;
  for (const NodeInput &input : node.inputs) {
    if (input.producer == NodeInput::kAbsent) {
      in.push_back(Value());
      continue;
    }
    Value v = values.lookup(input.name);
    if (!v)
      return emitError(at) << "input '" << input.name << "' has no value";
    in.push_back(v);
  }
  auto operand = [&](unsigned i) { return i < in.size() ? in[i] : Value(); };
  auto need = [&](unsigned n) -> LogicalResult {
    unsigned have = 0;
    for (unsigned i = 0; i < n && i < in.size(); ++i)
      have += bool(in[i]);
    if (have < n)
      return emitError(at) << node.op << " needs " << n << " inputs, has "
                           << have;
    return success();
  };
  llvm::SmallVector<Value> results;
  auto emit = [&](StringRef name, ValueRange operands,
                  llvm::ArrayRef<NamedAttribute> attrs,
                  Type element = {}) -> Value {
    Type resultElement = element ? element : getElementType(operands.front());
    Operation *op = createGraphOp(builder, at, name, operands, attrs,
                                  {resultElement});
    return op ? op->getResult(0) : Value();
  };
  auto named = [&](StringRef n, Attribute a) {
    return builder.getNamedAttr(n, a);
  };
  auto i64Array = [&](llvm::ArrayRef<int64_t> v) {
    return builder.getDenseI64ArrayAttr(v);
  };

  StringRef op = node.op;
  // Elementwise ops without attributes map one to one.
  StringRef simple = llvm::StringSwitch<StringRef>(op)
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
                         .Case("Pow", "graph.pow")
                         .Case("And", "graph.and")
                         .Case("Or", "graph.or")
                         .Case("Xor", "graph.xor")
                         .Case("MatMul", "graph.matmul")
                         .Default("");
  Value result;
  if (!simple.empty()) {
    unsigned arity = (simple == "graph.add" || simple == "graph.sub" ||
                      simple == "graph.mul" || simple == "graph.div" ||
                      simple == "graph.pow" || simple == "graph.and" ||
                      simple == "graph.or" || simple == "graph.xor" ||
                      simple == "graph.matmul")
                         ? 2
                         : 1;
    if (failed(need(arity)))
      return failure();
    if (opset < 7 && attr(def, "broadcast"))
      return emitError(at) << "legacy broadcast attribute is not supported";
    result = emit(simple, llvm::ArrayRef<Value>(in).take_front(arity), {});
  } else if (op == "Max" || op == "Min" || op == "Sum") {
    if (failed(need(1)))
      return failure();
    StringRef name = op == "Max" ? "graph.max"
                     : op == "Min" ? "graph.min"
                                   : "graph.add";
    result = in[0];
    for (unsigned i = 1; i < in.size() && result; ++i)
      result = emit(name, {result, in[i]}, {});
  } else if (op == "Dropout") {
    if (failed(need(1)))
      return failure();
    // Inference, or training with ratio 0, is the identity with an all-true
    // mask; real dropout needs random numbers the op set does not have.
    bool training = attrInt(def, "is_test", 1) == 0 && opset < 7;
    if (Value mode = operand(2)) {
      auto flag = constInts(mode);
      DenseElementsAttr attr;
      if (!flag && !matchPattern(mode, m_Constant(&attr)))
        return emitError(at) << "Dropout with a computed training_mode is "
                                "not supported";
      training = flag ? (!flag->empty() && (*flag)[0] != 0)
                      : attr.getSplatValue<bool>();
    }
    if (training) {
      DenseElementsAttr ratio;
      bool zero = operand(1) && matchPattern(in[1], m_Constant(&ratio)) &&
                  ratio.isSplat() && isa<FloatType>(ratio.getElementType()) &&
                  ratio.getSplatValue<llvm::APFloat>().isZero();
      if (!zero)
        return emitError(at) << "training-mode Dropout with a non-zero ratio "
                                "is not supported (no random ops)";
    }
    result = emit("graph.identity", {in[0]}, {});
    if (result && def.output_size() > 1 && !def.output(1).empty()) {
      auto shape = getShape(in[0]);
      if (!shape || ShapedType::isDynamicShape(*shape))
        return emitError(at) << "Dropout's mask needs a static input shape";
      Value mask = constant(
          at, DenseElementsAttr::get(
                  RankedTensorType::get(*shape, builder.getI1Type()), true));
      if (!mask)
        return failure();
      values[def.output(1)] = mask;
    }
  } else if (op == "ConstantOfShape") {
    if (failed(need(1)))
      return failure();
    auto shape = constInts(in[0]);
    if (!shape)
      return emitError(at) << "ConstantOfShape with a computed shape is not "
                              "supported";
    for (int64_t d : *shape)
      if (d < 0)
        return emitError(at) << "ConstantOfShape dimension " << d
                             << " is negative";
    DenseElementsAttr fill;
    if (const onnx::AttributeProto *value = attr(def, "value")) {
      auto dense = convertTensor(value->t(), at);
      if (failed(dense))
        return failure();
      if (dense->getNumElements() != 1)
        return emitError(at) << "ConstantOfShape value must hold one element";
      fill = *dense;
    } else {
      fill = DenseElementsAttr::get(
          RankedTensorType::get({1}, builder.getF32Type()), 0.0f);
    }
    auto type = RankedTensorType::get(*shape, fill.getElementType());
    result = constant(at, DenseElementsAttr::get(
                              type, fill.getValues<Attribute>()[0]));
  } else if (op == "Equal" || op == "Less" || op == "LessOrEqual" ||
             op == "Greater" || op == "GreaterOrEqual") {
    if (failed(need(2)))
      return failure();
    StringRef dir = llvm::StringSwitch<StringRef>(op)
                        .Case("Equal", "eq")
                        .Case("Less", "lt")
                        .Case("LessOrEqual", "le")
                        .Case("Greater", "gt")
                        .Default("ge");
    Attribute direction =
        parseAttr(ctx, at, ("#graph<compare_direction " + dir + ">").str());
    if (!direction)
      return failure();
    result = emit("graph.compare", {in[0], in[1]},
                  {named("direction", direction)}, builder.getI1Type());
  } else if (op == "Where") {
    if (failed(need(3)))
      return failure();
    result = emit("graph.select", {in[0], in[1], in[2]}, {},
                  getElementType(in[1]));
  } else if (op == "Cast") {
    if (failed(need(1)))
      return failure();
    Type to = convertOnnxElementType(ctx, attrInt(def, "to", 0));
    if (!to)
      return emitError(at) << "Cast to unsupported ONNX element type "
                           << attrInt(def, "to", 0);
    result = emit("graph.cast", {in[0]}, {named("to", TypeAttr::get(to))}, to);
  } else if (op == "LeakyRelu" || op == "Elu") {
    if (failed(need(1)))
      return failure();
    float alpha = attrFloat(def, "alpha", op == "LeakyRelu" ? 0.01f : 1.0f);
    result = emit(op == "LeakyRelu" ? "graph.leaky_relu" : "graph.elu", {in[0]},
                  {named("alpha", builder.getF32FloatAttr(alpha))});
  } else if (op == "Constant") {
    const onnx::AttributeProto *value = attr(def, "value");
    if (!value || !value->has_t())
      return emitError(at) << "Constant without a tensor 'value' is not "
                              "supported";
    auto dense = convertTensor(value->t(), at);
    if (failed(dense))
      return failure();
    result = constant(at, *dense);
  } else if (op == "Reshape") {
    if (failed(need(2)))
      return failure();
    auto shape = constInts(in[1]);
    if (!shape)
      return emitError(at) << "Reshape with a computed shape is not supported";
    if (!attrInt(def, "allowzero", 0)) {
      auto inShape = getShape(in[0]);
      for (unsigned i = 0; i < shape->size(); ++i) {
        if ((*shape)[i] != 0)
          continue;
        if (!inShape || i >= inShape->size() ||
            ShapedType::isDynamic((*inShape)[i]))
          return emitError(at) << "Reshape copies dimension " << i
                               << " of an input whose shape is not known";
        (*shape)[i] = (*inShape)[i];
      }
    }
    result = emit("graph.reshape", {in[0]}, {named("shape", i64Array(*shape))});
  } else if (op == "Flatten") {
    if (failed(need(1)))
      return failure();
    auto inShape = getShape(in[0]);
    if (!inShape)
      return emitError(at) << "Flatten of an unranked input";
    int64_t rank = inShape->size(), axis = attrInt(def, "axis", 1);
    if (axis < -rank || axis > rank)
      return emitError(at) << "Flatten axis " << axis << " out of range for rank "
                           << rank;
    if (axis < 0)
      axis += rank;
    int64_t outer = 1, inner = 1;
    for (int64_t i = 0; i < rank; ++i) {
      int64_t d = (*inShape)[i];
      int64_t &part = i < axis ? outer : inner;
      part = (ShapedType::isDynamic(d) || ShapedType::isDynamic(part))
                 ? ShapedType::kDynamic
                 : part * d;
    }
    if (ShapedType::isDynamic(outer) && ShapedType::isDynamic(inner))
      return emitError(at) << "Flatten with two unknown extents";
    result = emit("graph.reshape", {in[0]},
                  {named("shape", i64Array({ShapedType::isDynamic(outer) ? -1 : outer,
                                            ShapedType::isDynamic(inner) ? -1 : inner}))});
  } else if (op == "Transpose") {
    if (failed(need(1)))
      return failure();
    auto perm = attrInts(def, "perm");
    if (!perm) {
      auto inShape = getShape(in[0]);
      if (!inShape)
        return emitError(at) << "Transpose without perm of an unranked input";
      perm.emplace();
      for (int64_t i = inShape->size() - 1; i >= 0; --i)
        perm->push_back(i);
    }
    result = emit("graph.transpose", {in[0]}, {named("perm", i64Array(*perm))});
  } else if (op == "Concat") {
    if (failed(need(1)))
      return failure();
    llvm::SmallVector<Value> parts;
    for (Value v : in)
      if (v)
        parts.push_back(v);
    result = emit("graph.concat", parts,
                  {named("axis", builder.getI64IntegerAttr(
                                     attrInt(def, "axis", 0)))});
  } else if (op == "Softmax" || op == "LogSoftmax") {
    if (failed(need(1)))
      return failure();
    int64_t axis = attrInt(def, "axis", opset >= 13 ? -1 : 1);
    if (opset < 13) {
      // Before opset 13 the op flattens at `axis`: the same only when the
      // axis is the last one.
      auto inShape = getShape(in[0]);
      int64_t rank = inShape ? int64_t(inShape->size()) : -1;
      if (axis != -1 && axis != rank - 1)
        return emitError(at) << op << " (opset " << opset << ") over axis "
                             << axis << " coerces to 2-D, which is not "
                                        "supported";
    }
    result = emit(op == "Softmax" ? "graph.softmax" : "graph.log_softmax",
                  {in[0]}, {named("axis", builder.getI64IntegerAttr(axis))});
  } else if (op == "Gemm") {
    if (failed(need(2)))
      return failure();
    llvm::SmallVector<NamedAttribute> attrs;
    if (attrInt(def, "transA", 0))
      attrs.push_back(named("transpose_lhs", builder.getUnitAttr()));
    if (attrInt(def, "transB", 0))
      attrs.push_back(named("transpose_rhs", builder.getUnitAttr()));
    result = emit("graph.matmul", {in[0], in[1]}, attrs);
    float alpha = attrFloat(def, "alpha", 1), beta = attrFloat(def, "beta", 1);
    Type element = result ? getElementType(result) : Type();
    if (result && alpha != 1)
      result = emit("graph.mul", {result, scalar(at, element, alpha)}, {});
    if (result && operand(2)) {
      Value c = in[2];
      if (beta != 1)
        c = emit("graph.mul", {c, scalar(at, element, beta)}, {});
      result = c ? emit("graph.add", {result, c}, {}) : Value();
    }
  } else if (op == "Conv" || op == "MaxPool" || op == "AveragePool") {
    if (failed(need(op == "Conv" ? 2 : 1)))
      return failure();
    auto inShape = getShape(in[0]);
    if (!inShape || inShape->size() < 3)
      return emitError(at) << op << " needs an input of known rank >= 3";
    size_t spatial = inShape->size() - 2;
    llvm::SmallVector<int64_t> window;
    if (op == "Conv") {
      auto filter = getShape(in[1]);
      if (!filter || filter->size() != inShape->size())
        return emitError(at) << "Conv filter rank does not match the input";
      window.assign(filter->begin() + 2, filter->end());
    } else {
      auto k = attrInts(def, "kernel_shape");
      if (!k)
        return emitError(at) << op << " has no kernel_shape";
      window = *k;
    }
    if (window.size() != spatial)
      return emitError(at) << op << " window has " << window.size()
                           << " dims for " << spatial << " spatial dims";
    auto strides =
        attrInts(def, "strides").value_or(llvm::SmallVector<int64_t>(spatial, 1));
    auto dilations = attrInts(def, "dilations")
                         .value_or(llvm::SmallVector<int64_t>(spatial, 1));
    auto pads = attrInts(def, "pads")
                    .value_or(llvm::SmallVector<int64_t>(2 * spatial, 0));
    if (strides.size() != spatial || dilations.size() != spatial ||
        pads.size() != 2 * spatial)
      return emitError(at) << op << " strides, dilations or pads do not match "
                           << spatial << " spatial dims";
    const onnx::AttributeProto *autoPad = attr(def, "auto_pad");
    StringRef mode = autoPad ? StringRef(autoPad->s()) : "NOTSET";
    if (mode == "VALID") {
      pads.assign(2 * spatial, 0);
    } else if (mode == "SAME_UPPER" || mode == "SAME_LOWER") {
      for (size_t i = 0; i < spatial; ++i) {
        int64_t size = (*inShape)[2 + i];
        if (ShapedType::isDynamic(size))
          return emitError(at) << op << " auto_pad " << mode
                               << " needs static spatial sizes";
        int64_t out = (size + strides[i] - 1) / strides[i];
        int64_t extent = (window[i] - 1) * dilations[i] + 1;
        int64_t total =
            std::max<int64_t>(0, (out - 1) * strides[i] + extent - size);
        int64_t small = total / 2, large = total - small;
        pads[i] = mode == "SAME_UPPER" ? small : large;
        pads[spatial + i] = mode == "SAME_UPPER" ? large : small;
      }
    } else if (mode != "NOTSET") {
      return emitError(at) << op << " auto_pad '" << mode << "' is unknown";
    }
    llvm::SmallVector<int64_t> low(pads.begin(), pads.begin() + spatial),
        high(pads.begin() + spatial, pads.end());
    llvm::SmallVector<NamedAttribute> attrs = {
        named("strides", i64Array(strides)),
        named("dilations", i64Array(dilations)),
        named("pad_low", i64Array(low)), named("pad_high", i64Array(high))};
    if (op == "Conv") {
      attrs.push_back(
          named("groups", builder.getI64IntegerAttr(attrInt(def, "group", 1))));
      llvm::SmallVector<Value> operands = {in[0], in[1]};
      if (operand(2))
        operands.push_back(in[2]);
      result = emit("graph.conv", operands, attrs);
    } else {
      if (op == "MaxPool" && def.output_size() > 1 && !def.output(1).empty())
        return emitError(at) << "MaxPool's Indices output is not supported";
      Attribute kind = parseAttr(
          ctx, at, op == "MaxPool" ? "#graph<pool_kind max>"
                                   : "#graph<pool_kind avg>");
      if (!kind)
        return failure();
      attrs.push_back(named("kind", kind));
      attrs.push_back(named("window", i64Array(window)));
      if (attrInt(def, "ceil_mode", 0))
        attrs.push_back(named("ceil_mode", builder.getUnitAttr()));
      if (attrInt(def, "count_include_pad", 0))
        attrs.push_back(named("count_include_pad", builder.getUnitAttr()));
      result = emit("graph.pool", {in[0]}, attrs);
    }
  } else {
    const OpRule *rule = lookupOnnxOp(node.domain, op);
    return emitError(at) << "ONNX op '" << op << "' "
                         << (rule ? "has a planned rule but no translation "
                                    "yet"
                                  : "has no import rule");
  }
  if (!result)
    return failure();
  if (def.output_size() > 0 && !def.output(0).empty())
    values[def.output(0)] = result;
  return success();
}

OwningOpRef<ModuleOp> OnnxImporter::run() {
  Location fileLoc = NameLoc::get(StringAttr::get(ctx, fileName));
  if (!options.inputs.empty()) {
    emitError(fileLoc) << "--inputs is not implemented for ONNX models yet";
    return nullptr;
  }
  auto loaded = readOnnxModel(path, options.limits);
  if (!loaded) {
    emitError(fileLoc) << llvm::toString(loaded.takeError());
    return nullptr;
  }
  model = loaded->get();
  opset = getOnnxOpset(*model);
  const onnx::GraphProto &graph = model->graph();
  auto nodeGraph = buildOnnxNodeGraph(graph, path);
  if (!nodeGraph) {
    emitError(fileLoc) << llvm::toString(nodeGraph.takeError());
    return nullptr;
  }
  auto order = nodeGraph->topologicalOrder(
      path, [](const GraphNode &, unsigned) { return false; });
  if (!order) {
    emitError(fileLoc) << llvm::toString(order.takeError());
    return nullptr;
  }

  OwningOpRef<ModuleOp> module = ModuleOp::create(fileLoc);
  builder.setInsertionPointToEnd(module->getBody());
  llvm::StringMap<bool> initNames;
  for (const onnx::TensorProto &init : graph.initializer())
    initNames[init.name()] = true;

  llvm::SmallVector<Type> argTypes;
  llvm::SmallVector<std::string> argNames;
  for (const onnx::ValueInfoProto &input : graph.input()) {
    if (initNames.count(input.name()))
      continue; // an initializer listed as input (IR < 4): a constant
    auto type = convertValueType(input, loc(input.name()));
    if (failed(type))
      return nullptr;
    argTypes.push_back(*type);
    argNames.push_back(input.name());
  }
  llvm::SmallVector<Type> resultTypes;
  for (const onnx::ValueInfoProto &output : graph.output())
    resultTypes.push_back(UnrankedTensorType::get(
        convertOnnxElementType(ctx, output.type().tensor_type().elem_type())
            ?: Float32Type::get(ctx)));
  auto func = func::FuncOp::create(builder, fileLoc, "main",
                                   builder.getFunctionType(argTypes, resultTypes));
  Block *entry = func.addEntryBlock();
  for (unsigned i = 0; i < argNames.size(); ++i) {
    values[argNames[i]] = entry->getArgument(i);
    func.setArgAttr(i, "graph.name", builder.getStringAttr(argNames[i]));
  }
  builder.setInsertionPointToStart(entry);

  if (options.training) {
    emitError(fileLoc) << "importing initializers as variables (training) is "
                          "not implemented yet";
    return nullptr;
  }
  for (const onnx::TensorProto &init : graph.initializer()) {
    Location at = loc(init.name());
    auto dense = convertTensor(init, at);
    if (failed(dense))
      return nullptr;
    Value v = constant(at, *dense);
    if (!v)
      return nullptr;
    values[init.name()] = v;
  }
  for (unsigned index : *order)
    if (failed(importNode(nodeGraph->nodes[index])))
      return nullptr;

  llvm::SmallVector<Value> results;
  llvm::SmallVector<std::string> outputNames;
  for (const onnx::ValueInfoProto &output : graph.output())
    outputNames.push_back(output.name());
  if (!options.outputs.empty())
    outputNames.assign(options.outputs.begin(), options.outputs.end());
  for (const std::string &name : outputNames) {
    Value v = values.lookup(name);
    if (!v) {
      emitError(loc(name)) << "output '" << name << "' names no value";
      return nullptr;
    }
    results.push_back(v);
  }
  func::ReturnOp::create(builder, fileLoc, results);
  func.setFunctionType(
      builder.getFunctionType(argTypes, TypeRange(ValueRange(results))));
  // Output names travel to the job bundle's manifest.
  llvm::SmallVector<StringRef> names(outputNames.begin(), outputNames.end());
  func->setAttr("graph.output_names", builder.getStrArrayAttr(names));
  return module;
}

} // namespace

bool isOnnxOpTranslated(StringRef op) {
  // Keep in step with importNode: the ops it translates.
  static const char *const kTranslated[] = {
    "Abs",
    "Add",
    "And",
    "AveragePool",
    "Cast",
    "Ceil",
    "Concat",
    "Constant",
    "ConstantOfShape",
    "Conv",
    "Cos",
    "Div",
    "Dropout",
    "Elu",
    "Equal",
    "Erf",
    "Exp",
    "Flatten",
    "Floor",
    "Gemm",
    "Greater",
    "GreaterOrEqual",
    "Identity",
    "LeakyRelu",
    "Less",
    "LessOrEqual",
    "Log",
    "LogSoftmax",
    "MatMul",
    "Max",
    "MaxPool",
    "Min",
    "Mul",
    "Neg",
    "Not",
    "Or",
    "Pow",
    "Reciprocal",
    "Relu",
    "Reshape",
    "Round",
    "Sigmoid",
    "Sign",
    "Sin",
    "Softmax",
    "Softplus",
    "Sqrt",
    "Sub",
    "Sum",
    "Tanh",
    "Transpose",
    "Where",
    "Xor",
  };
  for (const char *name : kTranslated)
    if (op == name)
      return true;
  return false;
}

OwningOpRef<ModuleOp> importOnnx(StringRef path, MLIRContext &context,
                                 const ImportOptions &options) {
  context.loadAllAvailableDialects();
  return OnnxImporter(context, path, options).run();
}

} // namespace graphc::import
