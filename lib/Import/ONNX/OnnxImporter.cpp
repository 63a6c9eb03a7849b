//===- OnnxImporter.cpp - ONNX ModelProto to the graph dialect
//--------------===//
//
// Builds func @main: graph inputs (initializers excluded) become arguments,
// initializers become graph.constant, nodes are visited in topological order
// and translated by op type, graph outputs are returned. Every op's location
// is "FILE:NODE".
//
//===----------------------------------------------------------------------===//

#include "graphc/Import/Importers.h"

#include "ImportUtils.h"
#include "OnnxImporterImpl.h"
#include "graphc/Import/NodeGraph.h"
#include "graphc/Import/ONNX/OnnxReader.h"
#include "OnnxOps.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/AsmState.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/DialectResourceBlobManager.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/SymbolTable.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/Alignment.h"
#include "llvm/Support/Endian.h"
#include "llvm/Support/Path.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <map>

using namespace mlir;
using llvm::StringRef;

namespace graphc::import {


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
    return IntegerType::get(ctx, 8);
  case onnx::TensorProto::UINT8:
    return IntegerType::get(ctx, 8, IntegerType::Unsigned);
  case onnx::TensorProto::INT16:
    return IntegerType::get(ctx, 16);
  case onnx::TensorProto::UINT16:
    return IntegerType::get(ctx, 16, IntegerType::Unsigned);
  case onnx::TensorProto::INT32:
    return IntegerType::get(ctx, 32);
  case onnx::TensorProto::UINT32:
    return IntegerType::get(ctx, 32, IntegerType::Unsigned);
  case onnx::TensorProto::INT64:
    return IntegerType::get(ctx, 64);
  case onnx::TensorProto::UINT64:
    return IntegerType::get(ctx, 64, IntegerType::Unsigned);
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
    return IntegerType::get(ctx, 4, IntegerType::Unsigned);
  case 22: // INT4
    return IntegerType::get(ctx, 4);
  case 23:
    return Float4E2M1FNType::get(ctx);
  case 24:
    return Float8E8M0FNUType::get(ctx);
  case 25: // UINT2
    return IntegerType::get(ctx, 2, IntegerType::Unsigned);
  case 26: // INT2
    return IntegerType::get(ctx, 2);
  default:
    return {};
  }
}


/// The dimensions of `tensor` and their product, checked: no negative
/// dimension and at most 2^40 elements (so byte counts cannot overflow).
static LogicalResult tensorShape(const onnx::TensorProto &tensor, Location at,
                                 llvm::SmallVectorImpl<int64_t> &shape,
                                 int64_t &count) {
  count = 1;
  for (int64_t dim : tensor.dims()) {
    if (dim < 0 || (dim > 0 && count > (int64_t(1) << 40) / dim)) {
      return emitError(at) << "tensor '" << tensor.name()
                           << "' has an invalid dimension " << dim;
    }
    shape.push_back(dim);
    count *= dim;
  }
  return success();
}

/// A tensor of a 4- or 2-bit type (INT4, UINT4, FLOAT4E2M1, INT2, UINT2):
/// ONNX packs its elements, the first in the lowest bits of the first byte,
/// in raw_data or in int32_data (8 bits' worth in each int32).
FailureOr<DenseElementsAttr>
OnnxImporter::convertPackedTensor(const onnx::TensorProto &tensor,
                                  RankedTensorType type, const std::string *raw,
                                  Location at) {
  Type element = type.getElementType();
  unsigned width = element.getIntOrFloatBitWidth();
  int64_t count = type.getNumElements();
  std::string packed;
  if (raw) {
    packed = *raw;
  } else {
    for (int32_t v : tensor.int32_data()) {
      packed.push_back(char(v & 0xff));
    }
  }
  int64_t perByte = 8 / width;
  int64_t need = (count + perByte - 1) / perByte;
  if (int64_t(packed.size()) != need) {
    return emitError(at) << "tensor '" << tensor.name() << "' holds "
                         << packed.size() << " bytes of packed " << element
                         << " data, its type " << type << " needs " << need;
  }
  llvm::SmallVector<llvm::APInt> values;
  for (int64_t i = 0; i < count; ++i) {
    unsigned byte = uint8_t(packed[i / perByte]);
    values.push_back(llvm::APInt(width, byte >> (width * (i % perByte)),
                                 /*isSigned=*/false, /*implicitTrunc=*/true));
  }
  if (auto floatType = dyn_cast<FloatType>(element)) {
    llvm::SmallVector<llvm::APFloat> floats;
    for (const llvm::APInt &v : values) {
      floats.emplace_back(floatType.getFloatSemantics(), v);
    }
    return DenseElementsAttr::get(type, floats);
  }
  return DenseElementsAttr::get(type, values);
}

LogicalResult
OnnxImporter::castAttributes(const onnx::NodeProto &def, Type to, Location at,
                             llvm::SmallVectorImpl<NamedAttribute> &attrs) {
  // ONNX's saturate (opset 19+) applies to the float8/float4 targets only;
  // graph.cast's default is the same (true).
  if (attrInt(def, "saturate", 1) == 0) {
    attrs.push_back(
        builder.getNamedAttr("saturate", builder.getBoolAttr(false)));
  }
  // round_mode (opset 25+) applies to FLOAT8E8M0 only; "up" is the default
  // and what graph.cast does.
  if (const onnx::AttributeProto *mode = attr(def, "round_mode")) {
    if (isa<Float8E8M0FNUType>(to) && mode->s() != "up") {
      return emitError(at) << def.op_type() << " to " << to
                           << " with round_mode '" << mode->s()
                           << "' is not supported (only 'up')";
    }
  }
  return success();
}

FailureOr<DenseElementsAttr>
OnnxImporter::convertTensor(const onnx::TensorProto &tensor, Location at) {
  Type element = convertOnnxElementType(ctx, tensor.data_type());
  if (!element) {
    return emitError(at) << "tensor '" << tensor.name()
                         << "' has unsupported ONNX element type "
                         << tensor.data_type();
  }
  llvm::SmallVector<int64_t> shape;
  int64_t count = 1;
  if (failed(tensorShape(tensor, at, shape, count))) {
    return failure();
  }
  auto type = RankedTensorType::get(shape, element);
  std::string external;
  const std::string *raw = nullptr;
  if (tensor.data_location() == onnx::TensorProto::EXTERNAL) {
    auto bytes = readOnnxExternalData(tensor, modelDir, path, options.limits);
    if (!bytes) {
      return emitError(at) << llvm::toString(bytes.takeError());
    }
    external = std::move(*bytes);
    raw = &external;
  } else if (tensor.has_raw_data()) {
    raw = &tensor.raw_data();
  }
  unsigned width = element.isInteger(1) ? 8 : element.getIntOrFloatBitWidth();
  if (width % 8 != 0) {
    return convertPackedTensor(tensor, type, raw, at);
  }
  size_t bytesPer = width / 8;
  if (raw) {
    if (raw->size() != size_t(count) * bytesPer) {
      return emitError(at) << "tensor '" << tensor.name() << "' holds "
                           << raw->size() << " bytes, its type " << type
                           << " needs " << count * bytesPer;
    }
    if (element.isInteger(1)) {
      llvm::SmallVector<bool> bits;
      for (char c : *raw) {
        bits.push_back(c != 0);
      }
      return DenseElementsAttr::get(type, llvm::ArrayRef<bool>(bits));
    }
    return DenseElementsAttr::getFromRawBuffer(
        type, llvm::ArrayRef<char>(raw->data(), raw->size()));
  }
  // Typed fields; each element type has exactly one home.
  auto checkCount = [&](int64_t have) -> LogicalResult {
    if (have != count) {
      return emitError(at) << "tensor '" << tensor.name() << "' holds " << have
                           << " values, its type " << type << " needs "
                           << count;
    }
    return success();
  };
  if (element.isF32()) {
    if (failed(checkCount(tensor.float_data_size()))) {
      return failure();
    }
    return DenseElementsAttr::get(
        type, llvm::ArrayRef<float>(tensor.float_data().data(), count));
  }
  if (element.isF64()) {
    if (failed(checkCount(tensor.double_data_size()))) {
      return failure();
    }
    return DenseElementsAttr::get(
        type, llvm::ArrayRef<double>(tensor.double_data().data(), count));
  }
  if (element.isInteger(64)) {
    bool unsignedData = tensor.data_type() == onnx::TensorProto::UINT64;
    int64_t have =
        unsignedData ? tensor.uint64_data_size() : tensor.int64_data_size();
    if (failed(checkCount(have))) {
      return failure();
    }
    llvm::SmallVector<int64_t> data;
    for (int64_t i = 0; i < count; ++i) {
      data.push_back(unsignedData ? int64_t(tensor.uint64_data(i))
                                  : tensor.int64_data(i));
    }
    return DenseElementsAttr::get(type, llvm::ArrayRef<int64_t>(data));
  }
  if (tensor.data_type() == onnx::TensorProto::UINT32) {
    if (failed(checkCount(tensor.uint64_data_size()))) {
      return failure();
    }
    llvm::SmallVector<llvm::APInt> data;
    for (int64_t i = 0; i < count; ++i) {
      data.push_back(llvm::APInt(32, tensor.uint64_data(i)));
    }
    return DenseElementsAttr::get(type, data);
  }
  // int32_data carries every narrower type, FLOAT16/BFLOAT16 as bit patterns.
  if (failed(checkCount(tensor.int32_data_size()))) {
    return failure();
  }
  llvm::SmallVector<llvm::APInt> data;
  for (int64_t i = 0; i < count; ++i) {
    data.push_back(llvm::APInt(width, uint64_t(int64_t(tensor.int32_data(i))),
                               /*isSigned=*/false, /*implicitTrunc=*/true));
  }
  if (isa<FloatType>(element)) {
    llvm::SmallVector<char> bytes;
    for (const llvm::APInt &v : data) {
      uint16_t bits = uint16_t(v.getZExtValue());
      bytes.push_back(char(bits & 0xff));
      if (width == 16) {
        bytes.push_back(char(bits >> 8));
      }
    }
    return DenseElementsAttr::getFromRawBuffer(type, bytes);
  }
  return DenseElementsAttr::get(type, data);
}

FailureOr<Type> OnnxImporter::convertValueType(const onnx::ValueInfoProto &info,
                                               Location at) {
  if (!info.type().has_tensor_type()) {
    return emitError(at) << "value '" << info.name()
                         << "' is not a tensor (sequences and maps are not "
                            "supported)";
  }
  const auto &tensorType = info.type().tensor_type();
  Type element = convertOnnxElementType(ctx, tensorType.elem_type());
  if (!element) {
    return emitError(at) << "value '" << info.name()
                         << "' has unsupported ONNX element type "
                         << tensorType.elem_type();
  }
  // An explicit --input-shape wins over the file.
  for (StringRef spec : options.inputShapes) {
    auto [name, dims] = spec.rsplit(':');
    if (name != info.name()) {
      continue;
    }
    llvm::SmallVector<int64_t> shape;
    llvm::SmallVector<StringRef> parts;
    if (!dims.empty()) {
      dims.split(parts, 'x');
    }
    for (StringRef part : parts) {
      int64_t size;
      if (part == "?") {
        size = ShapedType::kDynamic;
      } else if (part.getAsInteger(10, size) || size < 0) {
        return emitError(at) << "--input-shape '" << spec
                             << "': bad dimension '" << part << "'";
      }
      shape.push_back(size);
    }
    if (tensorType.has_shape() &&
        tensorType.shape().dim_size() != int(shape.size())) {
      return emitError(at) << "--input-shape '" << spec << "' has rank "
                           << shape.size() << " but input '" << info.name()
                           << "' has rank " << tensorType.shape().dim_size();
    }
    return Type(RankedTensorType::get(shape, element));
  }
  if (!tensorType.has_shape()) {
    return Type(UnrankedTensorType::get(element));
  }
  llvm::SmallVector<int64_t> shape;
  for (const auto &dim : tensorType.shape().dim()) {
    shape.push_back(dim.has_dim_value() && dim.dim_value() >= 0
                        ? dim.dim_value()
                        : ShapedType::kDynamic);
  }
  return Type(RankedTensorType::get(shape, element));
}

FailureOr<llvm::SmallVector<NamedAttribute>>
OnnxImporter::windowAttrs(StringRef op, const onnx::NodeProto &def,
                          llvm::ArrayRef<int64_t> inShape,
                          llvm::ArrayRef<int64_t> window, Location at) {
  size_t spatial = inShape.size() - 2;
  if (window.size() != spatial) {
    return emitError(at) << op << " window has " << window.size()
                         << " dims for " << spatial << " spatial dims";
  }
  auto strides =
      attrInts(def, "strides").value_or(llvm::SmallVector<int64_t>(spatial, 1));
  auto dilations = attrInts(def, "dilations")
                       .value_or(llvm::SmallVector<int64_t>(spatial, 1));
  auto pads = attrInts(def, "pads")
                  .value_or(llvm::SmallVector<int64_t>(2 * spatial, 0));
  if (strides.size() != spatial || dilations.size() != spatial ||
      pads.size() != 2 * spatial) {
    return emitError(at) << op << " strides, dilations or pads do not match "
                         << spatial << " spatial dims";
  }
  const onnx::AttributeProto *autoPad = attr(def, "auto_pad");
  StringRef mode = autoPad ? StringRef(autoPad->s()) : "NOTSET";
  if (mode == "VALID") {
    pads.assign(2 * spatial, 0);
  } else if (mode == "SAME_UPPER" || mode == "SAME_LOWER") {
    for (size_t i = 0; i < spatial; ++i) {
      int64_t size = inShape[2 + i];
      if (ShapedType::isDynamic(size)) {
        return emitError(at)
               << op << " auto_pad " << mode << " needs static spatial sizes";
      }
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
  auto named = [&](StringRef n, llvm::ArrayRef<int64_t> v) {
    return builder.getNamedAttr(n, builder.getDenseI64ArrayAttr(v));
  };
  return llvm::SmallVector<NamedAttribute>{
      named("strides", strides), named("dilations", dilations),
      named("pad_low", low), named("pad_high", high)};
}

LogicalResult OnnxImporter::importNode(const GraphNode &node) {
  const auto &original = *static_cast<const onnx::NodeProto *>(node.source);
  Location at = loc(node.name);
  std::optional<OnnxOpEntry> entry = lookupOnnxEntry(node.domain, node.op);
  if (!entry) {
    if (!node.domain.empty()) {
      return emitError(at) << "op '" << node.domain << "." << node.op
                           << "' is not a standard ONNX op and has no import "
                              "rule";
    }
    return emitError(at) << "ONNX op '" << node.op << "' has no import rule";
  }
  if (!entry->family) {
    return emitError(at) << "ONNX op '" << node.op
                         << "' has a planned rule but no translation yet";
  }
  std::string problem = onnxOpsetProblem(*entry->rule, opset);
  if (!problem.empty()) {
    return emitError(at) << "ONNX op '" << node.op << "' " << problem;
  }
  llvm::SmallVector<Value> in;
  for (const NodeInput &input : node.inputs) {
    if (input.producer == NodeInput::kAbsent) {
      in.push_back(Value());
      continue;
    }
    Value v = lookupValue(input.name);
    if (!v) {
      return emitError(at) << "input '" << input.name << "' has no value";
    }
    in.push_back(v);
  }
  // Old forms become the ones the translators read, or are translated whole.
  LegacyForm legacy;
  if (opset < 9) {
    FailureOr<LegacyForm> form = importLegacy(node, original, in, at);
    if (failed(form)) {
      return failure();
    }
    legacy = std::move(*form);
    if (legacy.results) {
      for (auto [name, value] : llvm::zip(original.output(), *legacy.results)) {
        if (!name.empty()) {
          values[name] = value;
        }
      }
      return success();
    }
  }
  const onnx::NodeProto &def = legacy.upgraded ? *legacy.upgraded : original;
  OnnxTranslator translate = entry->family->translate;
  FailureOr<llvm::SmallVector<Value>> results =
      (this->*translate)(node, def, in, at);
  if (failed(results)) {
    return failure();
  }
  // importCore's ops name one result; their other outputs (Dropout's mask)
  // stay without a value, which a node that reads one reports.
  bool firstOnly = translate == &OnnxImporter::importCore;
  for (int i = 0; i < def.output_size(); ++i) {
    if (def.output(i).empty()) {
      continue;
    }
    if (unsigned(i) >= results->size() || !(*results)[i]) {
      if (firstOnly) {
        continue;
      }
      return emitError(at) << node.op << " output " << i << " ('"
                           << def.output(i) << "') is not supported";
    }
    values[def.output(i)] = (*results)[i];
  }
  return success();
}

FailureOr<llvm::SmallVector<Value>>
OnnxImporter::importCore(const GraphNode &node, const onnx::NodeProto &def,
                         llvm::ArrayRef<Value> in, Location at) {
  auto operand = [&](unsigned i) { return i < in.size() ? in[i] : Value(); };
  auto need = [&](unsigned n) -> LogicalResult {
    unsigned have = 0;
    for (unsigned i = 0; i < n && i < in.size(); ++i) {
      have += bool(in[i]);
    }
    if (have < n) {
      return emitError(at) << node.op << " needs " << n << " inputs, has "
                           << have;
    }
    return success();
  };
  auto emit = [&](StringRef name, ValueRange operands,
                  llvm::ArrayRef<NamedAttribute> attrs,
                  Type element = {}) -> Value {
    return build1(at, name, operands, attrs, element);
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
    if (failed(need(arity))) {
      return failure();
    }
    llvm::SmallVector<Value> operands(
        llvm::ArrayRef<Value>(in).take_front(arity));
    Type powBase = getElementType(operands[0]);
    if (simple == "graph.pow" && isa<IntegerType>(powBase)) {
      // graph.pow is a float op: an integer base (and any exponent) is
      // raised in f64, exact for integer results below 2^53, and the
      // result truncated back to the base's type as ONNX's reference does.
      Type f64 = builder.getF64Type();
      for (Value &v : operands) {
        v = emit("graph.cast", {v}, {named("to", TypeAttr::get(f64))}, f64);
        if (!v) {
          return failure();
        }
      }
      Value p = emit("graph.pow", operands, {});
      result = p ? emit("graph.cast", {p},
                        {named("to", TypeAttr::get(powBase))}, powBase)
                 : Value();
      if (!result) {
        return failure();
      }
      simple = "";
    } else if (simple == "graph.pow" &&
               getElementType(operands[0]) != getElementType(operands[1])) {
      // ONNX lets the exponent's type differ; the op set does not.
      Type base = getElementType(operands[0]);
      operands[1] = emit("graph.cast", {operands[1]},
                         {named("to", TypeAttr::get(base))}, base);
      if (!operands[1]) {
        return failure();
      }
    }
    if (!simple.empty()) {
      result = emit(simple, operands, {});
    }
  } else if (op == "Max" || op == "Min" || op == "Sum") {
    if (failed(need(1))) {
      return failure();
    }
    StringRef name = op == "Max"   ? "graph.max"
                     : op == "Min" ? "graph.min"
                                   : "graph.add";
    result = in[0];
    for (unsigned i = 1; i < in.size() && result; ++i) {
      result = emit(name, {result, in[i]}, {});
    }
  } else if (op == "Dropout") {
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
      training = flag ? (!flag->empty() && (*flag)[0] != 0)
                      : attr.getSplatValue<bool>();
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
    result = emit("graph.identity", {in[0]}, {});
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
  } else if (op == "ConstantOfShape") {
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
        return emitError(at)
               << "ConstantOfShape dimension " << d << " is negative";
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
  } else if (op == "Equal" || op == "Less" || op == "LessOrEqual" ||
             op == "Greater" || op == "GreaterOrEqual") {
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
    result = emit("graph.compare", {in[0], in[1]},
                  {named("direction", direction)}, builder.getI1Type());
  } else if (op == "Where") {
    if (failed(need(3))) {
      return failure();
    }
    result =
        emit("graph.select", {in[0], in[1], in[2]}, {}, getElementType(in[1]));
  } else if (op == "Cast") {
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
    result = emit("graph.cast", {in[0]}, attrs, to);
  } else if (op == "LeakyRelu" || op == "Elu") {
    if (failed(need(1))) {
      return failure();
    }
    float alpha = attrFloat(def, "alpha", op == "LeakyRelu" ? 0.01f : 1.0f);
    result = emit(op == "LeakyRelu" ? "graph.leaky_relu" : "graph.elu", {in[0]},
                  {named("alpha", builder.getF32FloatAttr(alpha))});
  } else if (op == "Constant") {
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
      result = constant(at, DenseElementsAttr::get(
                                RankedTensorType::get({int64_t(v.size())},
                                                      builder.getF32Type()),
                                llvm::ArrayRef<float>(v)));
    } else if (const onnx::AttributeProto *a = attr(def, "value_ints")) {
      llvm::SmallVector<int64_t> v(a->ints().begin(), a->ints().end());
      result = i64Const(at, v);
    } else {
      return emitError(at) << "Constant without a numeric value (string or "
                              "sparse tensors) is not supported";
    }
  } else if (op == "Reshape") {
    std::optional<llvm::SmallVector<int64_t>> shape;
    if (opset < 5) {
      if (failed(need(1))) {
        return failure();
      }
      shape = attrInts(def, "shape");
      if (!shape) {
        return emitError(at)
               << "Reshape (opset " << opset << ") has no shape attribute";
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
      result = emit("graph.dynamic_reshape", {in[0], in[1]}, {});
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
    result = emit("graph.reshape", {in[0]}, {named("shape", i64Array(*shape))});
  } else if (op == "Flatten") {
    if (failed(need(1))) {
      return failure();
    }
    auto inShape = getShape(in[0]);
    if (!inShape) {
      return emitError(at) << "Flatten of an unranked input";
    }
    int64_t rank = inShape->size(), axis = attrInt(def, "axis", 1);
    if (axis < -rank || axis > rank) {
      return emitError(at) << "Flatten axis " << axis
                           << " out of range for rank " << rank;
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
    result =
        emit("graph.reshape", {in[0]},
             {named("shape",
                    i64Array({ShapedType::isDynamic(outer) ? -1 : outer,
                              ShapedType::isDynamic(inner) ? -1 : inner}))});
  } else if (op == "Transpose") {
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
    result = emit("graph.transpose", {in[0]}, {named("perm", i64Array(*perm))});
  } else if (op == "Concat") {
    if (failed(need(1))) {
      return failure();
    }
    llvm::SmallVector<Value> parts;
    for (Value v : in) {
      if (v) {
        parts.push_back(v);
      }
    }
    result = emit("graph.concat", parts,
                  {named("axis", builder.getI64IntegerAttr(attrInt(
                                     def, "axis", opset < 4 ? 1 : 0)))});
  } else if (op == "Gemm") {
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
    result = emit("graph.matmul", {in[0], in[1]}, attrs);
    float alpha = attrFloat(def, "alpha", 1), beta = attrFloat(def, "beta", 1);
    Type element = result ? getElementType(result) : Type();
    if (result && alpha != 1) {
      result = emit("graph.mul", {result, scalar(at, element, alpha)}, {});
    }
    if (result && operand(2)) {
      Value c = in[2];
      if (beta != 1) {
        c = emit("graph.mul", {c, scalar(at, element, beta)}, {});
      }
      result = c ? emit("graph.add", {result, c}, {}) : Value();
    }
  } else if (op == "Conv" || op == "MaxPool" || op == "AveragePool") {
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
      result = emit("graph.conv", operands, attrs);
    } else {
      if (op == "MaxPool" && def.output_size() > 1 && !def.output(1).empty()) {
        return emitError(at) << "MaxPool's Indices output is not supported";
      }
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
      result = emit("graph.pool", {in[0]}, attrs);
    }
  } else {
    return notTranslated(node, at);
  }
  if (!result) {
    return failure();
  }
  return llvm::SmallVector<Value>{result};
}

ElementsAttr OnnxImporter::foldDataMovement(Operation *op) {
  // graph.slice and graph.concat have no constant folders; shape
  // arithmetic needs them.
  StringRef name = op->getName().getStringRef();
  if (name != "graph.slice" && name != "graph.concat" &&
      name != "graph.reduce") {
    return {};
  }
  auto resultType = dyn_cast<RankedTensorType>(op->getResult(0).getType());
  if (!resultType || !resultType.hasStaticShape()) {
    return {};
  }
  llvm::SmallVector<DenseElementsAttr> inputs;
  for (Value v : op->getOperands()) {
    DenseElementsAttr a;
    if (!matchPattern(v, m_Constant(&a))) {
      return {};
    }
    inputs.push_back(a);
  }
  llvm::SmallVector<Attribute> out;
  if (name == "graph.reduce") {
    DenseElementsAttr a = inputs[0];
    Type element = a.getElementType();
    if (!isa<FloatType>(element) && !isa<IntegerType>(element)) {
      return {};
    }
    auto inShape = a.getType().getShape();
    int64_t rank = inShape.size();
    llvm::SmallVector<bool> reduced(rank, false);
    for (int64_t axis :
         cast<DenseI64ArrayAttr>(op->getAttr("axes")).asArrayRef()) {
      reduced[axis < 0 ? axis + rank : axis] = true;
    }
    StringRef kind;
    {
      std::string text;
      llvm::raw_string_ostream os(text);
      op->getAttr("kind").print(os);
      kind = StringRef(text).contains("sum")    ? "sum"
             : StringRef(text).contains("mean") ? "mean"
             : StringRef(text).contains("max")  ? "max"
             : StringRef(text).contains("min")  ? "min"
                                                : "prod";
    }
    // Accumulate in double (float inputs) or int64 (integer inputs).
    bool isFloat = isa<FloatType>(element);
    llvm::SmallVector<double> fv;
    llvm::SmallVector<int64_t> iv;
    if (isFloat) {
      for (const llvm::APFloat &v : a.getValues<llvm::APFloat>()) {
        fv.push_back(v.convertToDouble());
      }
    } else {
      for (const llvm::APInt &v : a.getValues<llvm::APInt>()) {
        iv.push_back(element.isInteger(1) ? v.getZExtValue()
                                          : v.getSExtValue());
      }
    }
    int64_t count = resultType.getNumElements();
    llvm::SmallVector<double> facc(count, 0);
    llvm::SmallVector<int64_t> iacc(count, 0), n(count, 0);
    llvm::SmallVector<int64_t> index(rank, 0);
    int64_t total = a.getNumElements();
    for (int64_t flat = 0; flat < total; ++flat) {
      int64_t o = 0;
      for (int64_t d = 0; d < rank; ++d) {
        if (!reduced[d]) {
          o = o * inShape[d] + index[d];
        }
      }
      double f = isFloat ? fv[flat] : 0;
      int64_t i = isFloat ? 0 : iv[flat];
      if (n[o] == 0) {
        facc[o] = f;
        iacc[o] = i;
      } else if (kind == "sum" || kind == "mean") {
        facc[o] += f;
        iacc[o] += i;
      } else if (kind == "prod") {
        facc[o] *= f;
        iacc[o] *= i;
      } else if (kind == "max") {
        facc[o] = std::max(facc[o], f);
        iacc[o] = std::max(iacc[o], i);
      } else {
        facc[o] = std::min(facc[o], f);
        iacc[o] = std::min(iacc[o], i);
      }
      ++n[o];
      for (int64_t d = rank - 1; d >= 0; --d) {
        if (++index[d] < inShape[d]) {
          break;
        }
        index[d] = 0;
      }
    }
    for (int64_t o = 0; o < count; ++o) {
      if (n[o] == 0) {
        return {}; // empty reductions: leave to the op
      }
      if (isFloat) {
        out.push_back(FloatAttr::get(
            element, kind == "mean" ? facc[o] / double(n[o]) : facc[o]));
      } else if (kind == "mean") {
        return {};
      } else {
        out.push_back(IntegerAttr::get(element, iacc[o]));
      }
    }
  } else if (name == "graph.concat") {
    int64_t rank = resultType.getRank();
    int64_t axis = cast<IntegerAttr>(op->getAttr("axis")).getInt();
    if (axis < 0) {
      axis += rank;
    }
    int64_t outer = 1;
    for (int64_t i = 0; i < axis; ++i) {
      outer *= resultType.getDimSize(i);
    }
    llvm::SmallVector<llvm::SmallVector<Attribute>> values;
    llvm::SmallVector<int64_t> chunk;
    for (DenseElementsAttr a : inputs) {
      values.push_back(llvm::to_vector(a.getValues<Attribute>()));
      chunk.push_back(outer ? a.getNumElements() / std::max<int64_t>(outer, 1)
                            : 0);
    }
    for (int64_t o = 0; o < outer; ++o) {
      for (size_t k = 0; k < values.size(); ++k) {
        for (int64_t i = 0; i < chunk[k]; ++i) {
          out.push_back(values[k][o * chunk[k] + i]);
        }
      }
    }
  } else {
    DenseElementsAttr a = inputs[0];
    auto inShape = a.getType().getShape();
    auto starts = cast<DenseI64ArrayAttr>(op->getAttr("starts")).asArrayRef();
    auto steps = cast<DenseI64ArrayAttr>(op->getAttr("strides")).asArrayRef();
    auto values = llvm::to_vector(a.getValues<Attribute>());
    int64_t rank = inShape.size();
    llvm::SmallVector<int64_t> inStrides(rank, 1), index(rank, 0);
    for (int64_t i = rank - 2; i >= 0; --i) {
      inStrides[i] = inStrides[i + 1] * inShape[i + 1];
    }
    int64_t count = resultType.getNumElements();
    for (int64_t n = 0; n < count; ++n) {
      int64_t flat = 0;
      for (int64_t d = 0; d < rank; ++d) {
        flat += (starts[d] + index[d] * steps[d]) * inStrides[d];
      }
      out.push_back(values[flat]);
      for (int64_t d = rank - 1; d >= 0; --d) {
        if (++index[d] < resultType.getDimSize(d)) {
          break;
        }
        index[d] = 0;
      }
    }
  }
  if (int64_t(out.size()) != resultType.getNumElements()) {
    return {};
  }
  return DenseElementsAttr::get(resultType, out);
}

llvm::SmallVector<Value> OnnxImporter::foldConstant(Operation *op) {
  llvm::SmallVector<Value> results(op->getResults());
  // Large constants (weights) are left alone: folding them would copy
  // their bytes for no gain in shape knowledge.
  constexpr int64_t kFoldLimit = 1 << 16;
  for (Value v : op->getOperands()) {
    DenseElementsAttr a;
    if (matchPattern(v, m_Constant(&a)) && a.getNumElements() > kFoldLimit) {
      return results;
    }
  }
  llvm::SmallVector<OpFoldResult> folded;
  if (ElementsAttr moved = foldDataMovement(op)) {
    folded.push_back(moved);
  } else if (failed(op->fold(folded))) {
    return results;
  }
  if (folded.size() != op->getNumResults()) {
    return results;
  }
  for (auto [result, fold] : llvm::zip(op->getResults(), folded)) {
    if (auto v = dyn_cast<Value>(fold)) {
      if (v.getDefiningOp() == op || v.getType() != result.getType()) {
        return results; // folded in place, or a type the users do not expect
      }
      continue;
    }
    auto value = dyn_cast_or_null<ElementsAttr>(dyn_cast<Attribute>(fold));
    if (!value || value.getType() != result.getType() ||
        value.getNumElements() > kFoldLimit) {
      return results;
    }
  }
  llvm::SmallVector<Value> out;
  for (OpFoldResult fold : folded) {
    if (auto v = dyn_cast<Value>(fold)) {
      out.push_back(v);
    } else {
      out.push_back(
          constant(op->getLoc(), cast<ElementsAttr>(cast<Attribute>(fold))));
    }
    if (!out.back()) {
      return results;
    }
  }
  op->erase();
  return out;
}

namespace {
bool isStatic(const std::optional<llvm::SmallVector<int64_t>> &shape) {
  return shape && !ShapedType::isDynamicShape(*shape);
}
} // namespace

FailureOr<llvm::SmallVector<Value>>
OnnxImporter::importExtended(const GraphNode &node, const onnx::NodeProto &def,
                             llvm::ArrayRef<Value> in, Location at) {
  StringRef op = node.op;
  using Results = llvm::SmallVector<Value>;
  auto operand = [&](unsigned i) { return i < in.size() ? in[i] : Value(); };
  auto need = [&](unsigned n) -> LogicalResult {
    for (unsigned i = 0; i < n; ++i) {
      if (!operand(i)) {
        return emitError(at) << op << " needs input " << i;
      }
    }
    return success();
  };
  auto named = [&](StringRef n, Attribute a) {
    return builder.getNamedAttr(n, a);
  };
  auto i64Array = [&](llvm::ArrayRef<int64_t> v) {
    return builder.getDenseI64ArrayAttr(v);
  };
  auto i64Attr = [&](int64_t v) { return builder.getI64IntegerAttr(v); };
  auto one = [&](Value v) -> FailureOr<Results> {
    if (!v) {
      return failure();
    }
    return Results{v};
  };
  auto attrStr = [&](StringRef name, StringRef dflt) -> StringRef {
    const onnx::AttributeProto *a = attr(def, name);
    return a ? StringRef(a->s()) : dflt;
  };
  auto rankOf = [&](Value v) -> std::optional<int64_t> {
    auto s = getShape(v);
    if (!s) {
      return std::nullopt;
    }
    return int64_t(s->size());
  };
  // Integer list from input `index` (must be constant) or attribute `name`.
  // `present` tells whether either was given.
  auto intsArg = [&](unsigned index, StringRef name,
                     bool &present) -> FailureOr<llvm::SmallVector<int64_t>> {
    present = false;
    if (Value v = operand(index)) {
      present = true;
      auto ints = constInts(v);
      if (!ints) {
        return emitError(at) << op << " input " << index
                             << " must be a constant (it is computed at run "
                                "time)";
      }
      return *ints;
    }
    if (auto ints = attrInts(def, name)) {
      present = true;
      return *ints;
    }
    return llvm::SmallVector<int64_t>();
  };
  auto kindAttr = [&](StringRef text) { return parseAttr(ctx, at, text); };

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

  // ---- activations composed from elementwise ops ------------------------
  if (op == "Softmax" || op == "LogSoftmax") {
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
      return emitError(at) << op << " (opset " << opset << ") over axis "
                           << axis << " needs a static input shape";
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
    return one(sm ? build1(at, "graph.reshape", {sm},
                           {named("shape", i64Array(*shape))})
                  : Value());
  }
  if (op == "PRelu" || op == "ThresholdedRelu" || op == "HardSigmoid" ||
      op == "HardSwish" || op == "Softsign" || op == "Selu" || op == "Celu" ||
      op == "Mish" || op == "Gelu") {
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
      float alpha =
          op == "HardSwish" ? 1.0f / 6 : attrFloat(def, "alpha", 0.2f);
      float beta = op == "HardSwish" ? 0.5f : attrFloat(def, "beta", 0.5f);
      Value lin = bin("graph.add", bin("graph.mul", x, s(alpha)), s(beta));
      Value hs = lin ? build1(at, "graph.clamp", {lin, s(0), s(1)}) : Value();
      return one(op == "HardSwish" ? bin("graph.mul", x, hs) : hs);
    }
    if (op == "Softsign") {
      return one(
          bin("graph.div", x, bin("graph.add", un("graph.abs", x), s(1))));
    }
    if (op == "Mish") {
      return one(
          bin("graph.mul", x, un("graph.tanh", un("graph.softplus", x))));
    }
    if (op == "Gelu") {
      StringRef approx = attrStr("approximate", "none");
      llvm::SmallVector<NamedAttribute> attrs;
      if (approx == "tanh") {
        attrs.push_back(named("approximate", builder.getUnitAttr()));
      } else if (approx != "none") {
        return emitError(at)
               << "Gelu approximate '" << approx << "' is unknown";
      }
      return one(build1(at, "graph.gelu", {x}, attrs));
    }
    if (op == "Selu") {
      double alpha = attrFloat(def, "alpha", 1.67326319217681884765625f);
      double gamma = attrFloat(def, "gamma", 1.05070102214813232421875f);
      // gamma * (x > 0 ? x : alpha * (exp(x) - 1))
      Value negPart = bin("graph.mul",
                          bin("graph.sub", un("graph.exp", x), s(1)), s(alpha));
      return one(
          bin("graph.mul", sel(cmp("gt", x, s(0)), x, negPart), s(gamma)));
    }
    // Celu: max(0, x) + min(0, alpha * (exp(x / alpha) - 1))
    double alpha = attrFloat(def, "alpha", 1.0f);
    Value e =
        bin("graph.sub", un("graph.exp", bin("graph.div", x, s(alpha))), s(1));
    return one(bin("graph.add", bin("graph.max", x, s(0)),
                   bin("graph.min", bin("graph.mul", e, s(alpha)), s(0))));
  }
  if (op == "Mean") {
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
  if (op == "Mod") {
    if (failed(need(2))) {
      return failure();
    }
    return one(build1(at, attrInt(def, "fmod", 0) ? "graph.rem" : "graph.mod",
                      {in[0], in[1]}));
  }
  if (op == "IsNaN") {
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
  if (op == "CastLike") {
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
  if (op == "Clip") {
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
        return constant(at, DenseElementsAttr::get(
                                type, llvm::APFloat::getInf(
                                          f.getFloatSemantics(), !isMax)));
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

  // ---- shapes and data movement ----------------------------------------
  if (op == "Shape" || op == "Size") {
    if (failed(need(1))) {
      return failure();
    }
    auto shape = getShape(in[0]);
    if (!shape) {
      return emitError(at) << op << " of an unranked input";
    }
    int64_t rank = shape->size();
    if (op == "Size") {
      if (isStatic(shape)) {
        int64_t n = 1;
        for (int64_t d : *shape) {
          n *= d;
        }
        return one(constant(
            at, DenseElementsAttr::get(
                    RankedTensorType::get({}, builder.getI64Type()), n)));
      }
      Value s = build1(at, "graph.shape", {in[0]}, {}, builder.getI64Type());
      Attribute k = kindAttr("#graph<reduce_kind prod>");
      if (!s || !k) {
        return failure();
      }
      return one(build1(at, "graph.reduce", {s},
                        {named("kind", k), named("axes", i64Array({0}))}));
    }
    int64_t start = attrInt(def, "start", 0), end = attrInt(def, "end", rank);
    start = std::clamp<int64_t>(start < 0 ? start + rank : start, 0, rank);
    end = std::clamp<int64_t>(end < 0 ? end + rank : end, 0, rank);
    end = std::max(start, end);
    Value s = build1(at, "graph.shape", {in[0]}, {}, builder.getI64Type());
    if (!s || (start == 0 && end == rank)) {
      return one(s);
    }
    return one(build1(at, "graph.slice", {s},
                      {named("starts", i64Array({start})),
                       named("limits", i64Array({end})),
                       named("strides", i64Array({1}))}));
  }
  if (op == "Range") {
    if (failed(need(3))) {
      return failure();
    }
    DenseElementsAttr a[3];
    for (int i = 0; i < 3; ++i) {
      if (!matchPattern(in[i], m_Constant(&a[i])) ||
          a[i].getNumElements() != 1) {
        return emitError(at) << "Range with a computed start, limit or delta "
                                "is not supported";
      }
    }
    Type element = a[0].getElementType();
    auto get = [&](int i) {
      if (isa<FloatType>(element)) {
        return (*a[i].getValues<llvm::APFloat>().begin()).convertToDouble();
      }
      return double((*a[i].getValues<llvm::APInt>().begin()).getSExtValue());
    };
    double start = get(0), limit = get(1), delta = get(2);
    if (delta == 0) {
      return emitError(at) << "Range delta is 0";
    }
    int64_t n =
        std::max<int64_t>(0, int64_t(std::ceil((limit - start) / delta)));
    if (n > (int64_t(1) << 24)) {
      return emitError(at) << "Range of " << n
                           << " elements is too large to "
                              "fold";
    }
    auto type = RankedTensorType::get({n}, element);
    llvm::SmallVector<Attribute> elems;
    for (int64_t i = 0; i < n; ++i) {
      if (auto f = dyn_cast<FloatType>(element)) {
        elems.push_back(builder.getFloatAttr(
            f, element.isF32() ? double(float(start) + float(i) * float(delta))
                               : start + i * delta));
      } else {
        int64_t s0 = (*a[0].getValues<llvm::APInt>().begin()).getSExtValue();
        int64_t d0 = (*a[2].getValues<llvm::APInt>().begin()).getSExtValue();
        elems.push_back(builder.getIntegerAttr(element, s0 + i * d0));
      }
    }
    return one(constant(at, DenseElementsAttr::get(type, elems)));
  }
  if (op == "Gather") {
    if (failed(need(2))) {
      return failure();
    }
    int64_t axis = attrInt(def, "axis", 0);
    Value indices = in[1];
    Type idx = getElementType(indices);
    if (!idx.isInteger(32) && !idx.isInteger(64)) {
      return emitError(at) << "Gather indices of type " << idx;
    }
    // Constant data and indices (shape arithmetic) fold here.
    DenseElementsAttr data, index;
    auto shape = getShape(in[0]);
    if (matchPattern(in[0], m_Constant(&data)) &&
        matchPattern(indices, m_Constant(&index)) &&
        data.getNumElements() <= (1 << 16) &&
        index.getNumElements() <= (1 << 16)) {
      int64_t rank = shape->size();
      int64_t a = axis < 0 ? axis + rank : axis;
      if (a < 0 || a >= rank) {
        return emitError(at)
               << "Gather axis " << axis << " out of range for rank " << rank;
      }
      int64_t dim = (*shape)[a];
      llvm::SmallVector<int64_t> idxs;
      for (const llvm::APInt &v : index.getValues<llvm::APInt>()) {
        int64_t i = v.getSExtValue();
        if (i < -dim || i >= dim) {
          return emitError(at) << "Gather index " << i
                               << " out of range for dimension " << dim;
        }
        idxs.push_back(i < 0 ? i + dim : i);
      }
      int64_t outer = 1, inner = 1;
      for (int64_t i = 0; i < a; ++i) {
        outer *= (*shape)[i];
      }
      for (int64_t i = a + 1; i < rank; ++i) {
        inner *= (*shape)[i];
      }
      auto values = llvm::to_vector(data.getValues<Attribute>());
      llvm::SmallVector<Attribute> out;
      for (int64_t o = 0; o < outer; ++o) {
        for (int64_t i : idxs) {
          for (int64_t n = 0; n < inner; ++n) {
            out.push_back(values[(o * dim + i) * inner + n]);
          }
        }
      }
      llvm::SmallVector<int64_t> outShape(shape->begin(), shape->begin() + a);
      llvm::append_range(outShape, index.getType().getShape());
      outShape.append(shape->begin() + a + 1, shape->end());
      return one(constant(
          at,
          DenseElementsAttr::get(
              RankedTensorType::get(outShape, data.getElementType()), out)));
    }
    return one(build1(at, "graph.gather", {in[0], indices},
                      {named("axis", i64Attr(axis))}));
  }
  if (op == "GatherND") {
    if (failed(need(2))) {
      return failure();
    }
    return one(
        build1(at, "graph.gather_nd", {in[0], in[1]},
               {named("batch_dims", i64Attr(attrInt(def, "batch_dims", 0)))}));
  }
  if (op == "ScatterElements" || op == "ScatterND" || op == "Scatter") {
    if (failed(need(3))) {
      return failure();
    }
    StringRef red = attrStr("reduction", "none");
    Attribute r = kindAttr(("#graph<scatter_reduction " + red + ">").str());
    if (!r) {
      return failure();
    }
    llvm::SmallVector<NamedAttribute> attrs = {named("reduction", r)};
    if (op != "ScatterND") {
      attrs.push_back(named("axis", i64Attr(attrInt(def, "axis", 0))));
    }
    return one(build1(
        at, op == "ScatterND" ? "graph.scatter_nd" : "graph.scatter_elements",
        {in[0], in[1], in[2]}, attrs));
  }
  if (op == "Slice") {
    if (failed(need(1))) {
      return failure();
    }
    auto shape = getShape(in[0]);
    if (!shape) {
      return emitError(at) << "Slice of an unranked input";
    }
    int64_t rank = shape->size();
    bool present;
    FailureOr<llvm::SmallVector<int64_t>> starts, ends, axes, steps;
    if (opset < 10) {
      starts = attrInts(def, "starts").value_or(llvm::SmallVector<int64_t>());
      ends = attrInts(def, "ends").value_or(llvm::SmallVector<int64_t>());
      axes = attrInts(def, "axes").value_or(llvm::SmallVector<int64_t>());
      steps = llvm::SmallVector<int64_t>();
    } else {
      starts = intsArg(1, "", present);
      ends = intsArg(2, "", present);
      axes = intsArg(3, "", present);
      steps = intsArg(4, "", present);
    }
    if (failed(starts) || failed(ends) || failed(axes) || failed(steps)) {
      return failure();
    }
    if (starts->size() != ends->size()) {
      return emitError(at) << "Slice has " << starts->size() << " starts and "
                           << ends->size() << " ends";
    }
    if (axes->empty()) {
      for (size_t i = 0; i < starts->size(); ++i) {
        axes->push_back(i);
      }
    }
    if (steps->empty()) {
      steps->assign(starts->size(), 1);
    }
    if (axes->size() != starts->size() || steps->size() != starts->size()) {
      return emitError(at) << "Slice axes or steps do not match "
                           << starts->size() << " starts";
    }
    llvm::SmallVector<int64_t> lo(rank, 0), hi(*shape), st(rank, 1);
    llvm::SmallVector<bool> sliced(rank, false);
    for (size_t i = 0; i < axes->size(); ++i) {
      int64_t a = (*axes)[i] < 0 ? (*axes)[i] + rank : (*axes)[i];
      if (a < 0 || a >= rank || sliced[a]) {
        return emitError(at)
               << "Slice axis " << (*axes)[i]
               << " is out of range or repeated for rank " << rank;
      }
      sliced[a] = true;
      int64_t dim = (*shape)[a], step = (*steps)[i];
      int64_t s = (*starts)[i], e = (*ends)[i];
      if (step == 0) {
        return emitError(at) << "Slice step is 0";
      }
      if (ShapedType::isDynamic(dim)) {
        // Exact without knowing the size only for non-negative bounds
        // inside it, which a static result shape cannot express past the
        // end: refuse.
        return emitError(at) << "Slice along dimension " << a
                             << " of unknown size is not supported; fix the "
                                "input shapes with --input-shape";
      }
      if (s < 0) {
        s += dim;
      }
      if (e < 0) {
        e += dim;
      }
      if (step > 0) {
        s = std::clamp<int64_t>(s, 0, dim);
        e = std::clamp<int64_t>(e, 0, dim);
      } else {
        s = std::clamp<int64_t>(s, -1, dim - 1);
        e = std::clamp<int64_t>(e, -1, dim - 1);
      }
      lo[a] = s;
      hi[a] = e;
      st[a] = step;
    }
    for (int64_t d = 0; d < rank; ++d) {
      if (!sliced[d] && ShapedType::isDynamic((*shape)[d])) {
        return emitError(at) << "Slice keeps dimension " << d
                             << " of unknown size, which graph.slice cannot "
                                "express; fix the input shapes with "
                                "--input-shape";
      }
    }
    return one(
        build1(at, "graph.slice", {in[0]},
               {named("starts", i64Array(lo)), named("limits", i64Array(hi)),
                named("strides", i64Array(st))}));
  }
  if (op == "Split") {
    if (failed(need(1))) {
      return failure();
    }
    auto shape = getShape(in[0]);
    if (!shape) {
      return emitError(at) << "Split of an unranked input";
    }
    int64_t rank = shape->size(), axis = attrInt(def, "axis", 0);
    if (axis < 0) {
      axis += rank;
    }
    if (axis < 0 || axis >= rank) {
      return emitError(at) << "Split axis " << attrInt(def, "axis", 0)
                           << " out of range for rank " << rank;
    }
    bool present;
    auto sizes = intsArg(1, "split", present);
    if (failed(sizes)) {
      return failure();
    }
    int64_t parts = def.output_size();
    if (sizes->empty()) {
      int64_t dim = (*shape)[axis];
      if (ShapedType::isDynamic(dim)) {
        return emitError(at) << "Split of dimension " << axis
                             << " of unknown size into equal parts";
      }
      int64_t n = attrInt(def, "num_outputs", parts);
      if (n <= 0) {
        return emitError(at) << "Split into " << n << " parts";
      }
      int64_t chunk = (dim + n - 1) / n; // opset 18: last part smaller
      for (int64_t i = 0; i < n; ++i) {
        sizes->push_back(
            std::max<int64_t>(0, std::min(chunk, dim - i * chunk)));
      }
    }
    DenseElementsAttr data;
    if (matchPattern(in[0], m_Constant(&data)) && isStatic(shape) &&
        data.getNumElements() <= (1 << 16)) {
      // Shape arithmetic: fold the pieces through graph.slice.
      Results pieces;
      int64_t offset = 0;
      for (int64_t size : *sizes) {
        llvm::SmallVector<int64_t> lo(rank, 0), hi(*shape), st(rank, 1);
        lo[axis] = offset;
        hi[axis] = offset += size;
        if (size < 0 || offset > (*shape)[axis]) {
          return emitError(at)
                 << "Split sizes do not fit dimension " << (*shape)[axis];
        }
        Value piece = build1(at, "graph.slice", {in[0]},
                             {named("starts", i64Array(lo)),
                              named("limits", i64Array(hi)),
                              named("strides", i64Array(st))});
        if (!piece) {
          return failure();
        }
        pieces.push_back(piece);
      }
      return pieces;
    }
    llvm::SmallVector<Type> elems(sizes->size(), getElementType(in[0]));
    auto r =
        build(at, "graph.split", {in[0]},
              {named("axis", i64Attr(axis)), named("sizes", i64Array(*sizes))},
              elems);
    if (r.empty()) {
      return failure();
    }
    return r;
  }
  if (op == "Squeeze" || op == "Unsqueeze") {
    if (failed(need(1))) {
      return failure();
    }
    bool present;
    auto axes = intsArg(1, "axes", present);
    if (failed(axes)) {
      return failure();
    }
    if (axes->empty()) {
      if (op == "Unsqueeze") {
        return emitError(at) << "Unsqueeze without axes";
      }
      auto shape = getShape(in[0]);
      if (!shape) {
        return emitError(at) << "Squeeze without axes of an unranked input";
      }
      for (size_t i = 0; i < shape->size(); ++i) {
        if (ShapedType::isDynamic((*shape)[i])) {
          return emitError(at) << "Squeeze without axes of dimension " << i
                               << " of unknown size";
        }
        if ((*shape)[i] == 1) {
          axes->push_back(i);
        }
      }
    }
    return one(build1(at, op == "Squeeze" ? "graph.squeeze" : "graph.unsqueeze",
                      {in[0]}, {named("axes", i64Array(*axes))}));
  }
  if (op == "Tile") {
    if (failed(need(2))) {
      return failure();
    }
    auto repeats = constInts(in[1]);
    if (!repeats) {
      return emitError(at) << "Tile with computed repeats is not supported";
    }
    return one(build1(at, "graph.tile", {in[0]},
                      {named("multiples", i64Array(*repeats))}));
  }
  if (op == "Expand") {
    if (failed(need(2))) {
      return failure();
    }
    auto target = constInts(in[1]);
    if (!target) {
      return emitError(at) << "Expand with a computed shape is not supported";
    }
    auto shape = getShape(in[0]);
    if (!shape) {
      return emitError(at) << "Expand of an unranked input";
    }
    // ONNX broadcasts both ways: the result is the broadcast of the two.
    size_t rank = std::max(shape->size(), target->size());
    llvm::SmallVector<int64_t> out(rank, 1);
    for (size_t i = 0; i < rank; ++i) {
      int64_t a =
          i + shape->size() >= rank ? (*shape)[i + shape->size() - rank] : 1;
      int64_t b =
          i + target->size() >= rank ? (*target)[i + target->size() - rank] : 1;
      if (ShapedType::isDynamic(a) && b == 1) {
        return emitError(at)
               << "Expand keeps dimension " << i << " of unknown size";
      }
      if (a != 1 && b != 1 && a != b && !ShapedType::isDynamic(a)) {
        return emitError(at) << "Expand cannot broadcast " << a << " to " << b;
      }
      out[i] = b == 1 ? a : b;
    }
    return one(build1(at, "graph.broadcast_to", {in[0]},
                      {named("shape", i64Array(out))}));
  }
  if (op == "Pad") {
    if (failed(need(1))) {
      return failure();
    }
    auto shape = getShape(in[0]);
    if (!shape) {
      return emitError(at) << "Pad of an unranked input";
    }
    int64_t rank = shape->size();
    bool present;
    auto pads = intsArg(1, "pads", present);
    if (failed(pads)) {
      return failure();
    }
    llvm::SmallVector<int64_t> axes;
    if (opset >= 18 && operand(3)) {
      auto a = constInts(in[3]);
      if (!a) {
        return emitError(at) << "Pad with computed axes is not supported";
      }
      for (int64_t x : *a) {
        axes.push_back(x < 0 ? x + rank : x);
      }
    } else {
      for (int64_t i = 0; i < rank; ++i) {
        axes.push_back(i);
      }
    }
    if (int64_t(pads->size()) != 2 * int64_t(axes.size())) {
      return emitError(at) << "Pad has " << pads->size() << " pads for "
                           << axes.size() << " axes";
    }
    llvm::SmallVector<int64_t> low(rank, 0), high(rank, 0);
    for (size_t i = 0; i < axes.size(); ++i) {
      if (axes[i] < 0 || axes[i] >= rank) {
        return emitError(at) << "Pad axis out of range for rank " << rank;
      }
      low[axes[i]] = (*pads)[i];
      high[axes[i]] = (*pads)[axes.size() + i];
    }
    StringRef mode = attrStr("mode", "constant");
    if (mode == "wrap") {
      return one(importWrapPad(in[0], low, high, at));
    }
    if (mode != "constant" && mode != "reflect" && mode != "edge") {
      return emitError(at) << "Pad mode '" << mode << "' is not supported";
    }
    Type element = getElementType(in[0]);
    Value fill;
    if (opset < 11) {
      fill = scalar(at, element, attrFloat(def, "value", 0));
    } else if (Value v = operand(2)) {
      fill = v;
      if (auto s = getShape(v); s && !s->empty()) {
        fill = build1(at, "graph.reshape", {v}, {named("shape", i64Array({}))});
      }
    } else {
      fill = scalar(at, element, 0);
    }
    if (!fill) {
      return failure();
    }
    // Negative pads crop: slice first, then pad the rest.
    Value x = in[0];
    bool crop = llvm::any_of(low, [](int64_t v) { return v < 0; }) ||
                llvm::any_of(high, [](int64_t v) { return v < 0; });
    if (crop) {
      if (!isStatic(shape)) {
        return emitError(at) << "Pad with negative pads needs a static shape";
      }
      llvm::SmallVector<int64_t> s(rank), l(rank), st(rank, 1);
      for (int64_t d = 0; d < rank; ++d) {
        s[d] = std::max<int64_t>(0, -low[d]);
        l[d] = (*shape)[d] - std::max<int64_t>(0, -high[d]);
        low[d] = std::max<int64_t>(0, low[d]);
        high[d] = std::max<int64_t>(0, high[d]);
      }
      x = build1(at, "graph.slice", {x},
                 {named("starts", i64Array(s)), named("limits", i64Array(l)),
                  named("strides", i64Array(st))});
      if (!x) {
        return failure();
      }
    }
    Attribute m = kindAttr(("#graph<pad_mode " + mode + ">").str());
    if (!m) {
      return failure();
    }
    return one(build1(at, "graph.pad", {x, fill},
                      {named("low", i64Array(low)),
                       named("high", i64Array(high)), named("mode", m)}));
  }
  if (op == "DepthToSpace" || op == "SpaceToDepth") {
    if (failed(need(1))) {
      return failure();
    }
    auto shape = getShape(in[0]);
    if (!isStatic(shape) || shape->size() != 4) {
      return emitError(at) << op << " needs a static 4-D input";
    }
    int64_t b = attrInt(def, "blocksize", 0);
    int64_t n = (*shape)[0], c = (*shape)[1], h = (*shape)[2], w = (*shape)[3];
    if (b <= 0 || (op == "DepthToSpace" ? c % (b * b) : (h % b) | (w % b))) {
      return emitError(at) << op << " blocksize " << b
                           << " does not divide the input";
    }
    llvm::SmallVector<int64_t> s1, perm, s2;
    if (op == "DepthToSpace") {
      if (attrStr("mode", "DCR") == "CRD") {
        s1 = {n, c / (b * b), b, b, h, w};
        perm = {0, 1, 4, 2, 5, 3};
      } else {
        s1 = {n, b, b, c / (b * b), h, w};
        perm = {0, 3, 4, 1, 5, 2};
      }
      s2 = {n, c / (b * b), h * b, w * b};
    } else {
      s1 = {n, c, h / b, b, w / b, b};
      perm = {0, 3, 5, 1, 2, 4};
      s2 = {n, c * b * b, h / b, w / b};
    }
    Value r =
        build1(at, "graph.reshape", {in[0]}, {named("shape", i64Array(s1))});
    r = r ? build1(at, "graph.transpose", {r}, {named("perm", i64Array(perm))})
          : Value();
    return one(
        r ? build1(at, "graph.reshape", {r}, {named("shape", i64Array(s2))})
          : Value());
  }
  if (op == "OneHot") {
    if (failed(need(3))) {
      return failure();
    }
    auto depth = constInts(in[1]);
    DenseElementsAttr depthF;
    int64_t d;
    if (depth && depth->size() == 1) {
      d = (*depth)[0];
    } else if (matchPattern(in[1], m_Constant(&depthF)) &&
               depthF.getNumElements() == 1 &&
               isa<FloatType>(depthF.getElementType())) {
      d = int64_t(
          (*depthF.getValues<llvm::APFloat>().begin()).convertToDouble());
    } else {
      return emitError(at) << "OneHot with a computed depth is not supported";
    }
    Value indices = in[0];
    Type idx = getElementType(indices);
    if (!idx.isInteger(32) && !idx.isInteger(64)) {
      indices = build1(at, "graph.cast", {indices},
                       {named("to", TypeAttr::get(builder.getI64Type()))},
                       builder.getI64Type());
      if (!indices) {
        return failure();
      }
    }
    // ONNX: a negative index counts from the end of depth.
    if (auto ids = constInts(indices);
        !ids || llvm::any_of(*ids, [](int64_t v) { return v < 0; })) {
      Type it = getElementType(indices);
      Attribute lt = kindAttr("#graph<compare_direction lt>");
      if (!lt) {
        return failure();
      }
      Value zero = scalar(at, it, 0);
      Value neg = build1(at, "graph.compare", {indices, zero},
                         {named("direction", lt)}, builder.getI1Type());
      Value wrapped = build1(at, "graph.add", {indices, scalar(at, it, d)});
      indices = neg && wrapped ? build1(at, "graph.select",
                                        {neg, wrapped, indices}, {}, it)
                               : Value();
      if (!indices) {
        return failure();
      }
    }
    auto part = [&](int64_t i) -> Value {
      Value s = build1(at, "graph.slice", {in[2]},
                       {named("starts", i64Array({i})),
                        named("limits", i64Array({i + 1})),
                        named("strides", i64Array({1}))});
      return s ? build1(at, "graph.reshape", {s},
                        {named("shape", i64Array({}))})
               : Value();
    };
    Value off = part(0), on = part(1);
    if (!off || !on) {
      return failure();
    }
    return one(build1(at, "graph.one_hot", {indices, on, off},
                      {named("depth", i64Attr(d)),
                       named("axis", i64Attr(attrInt(def, "axis", -1)))},
                      getElementType(in[2])));
  }

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
         named("bias", builder.getF32FloatAttr(attrFloat(def, "bias", 1.0f)))}));
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

  // ---- convolution, resize, recurrent layers ----------------------------
  if (op == "ConvTranspose") {
    if (failed(need(2))) {
      return failure();
    }
    auto inShape = getShape(in[0]), filter = getShape(in[1]);
    if (!inShape || inShape->size() < 3 || !filter ||
        filter->size() != inShape->size()) {
      return emitError(at) << "ConvTranspose needs ranked input and filter of "
                              "the same rank >= 3";
    }
    size_t spatial = inShape->size() - 2;
    llvm::SmallVector<int64_t> ones(spatial, 1), zeros(spatial, 0);
    auto strides = attrInts(def, "strides").value_or(ones);
    auto dilations = attrInts(def, "dilations").value_or(ones);
    auto outPad = attrInts(def, "output_padding").value_or(zeros);
    auto pads = attrInts(def, "pads")
                    .value_or(llvm::SmallVector<int64_t>(2 * spatial, 0));
    if (strides.size() != spatial || dilations.size() != spatial ||
        outPad.size() != spatial || pads.size() != 2 * spatial) {
      return emitError(at) << "ConvTranspose strides, dilations, pads or "
                              "output_padding do not match "
                           << spatial << " spatial dims";
    }
    StringRef mode = attrStr("auto_pad", "NOTSET");
    auto outputShape = attrInts(def, "output_shape");
    if (outputShape || mode == "SAME_UPPER" || mode == "SAME_LOWER") {
      llvm::SmallVector<int64_t> target;
      if (outputShape) {
        target.assign(outputShape->end() -
                          std::min(outputShape->size(), spatial),
                      outputShape->end());
      } else {
        for (size_t i = 0; i < spatial; ++i) {
          target.push_back((*inShape)[2 + i] * strides[i]);
        }
      }
      if (target.size() != spatial) {
        return emitError(at)
               << "ConvTranspose output_shape has " << target.size() << " dims";
      }
      for (size_t i = 0; i < spatial; ++i) {
        int64_t size = (*inShape)[2 + i], k = (*filter)[2 + i];
        if (ShapedType::isDynamic(size) || ShapedType::isDynamic(k)) {
          return emitError(at) << "ConvTranspose output_shape/auto_pad needs "
                                  "static spatial sizes";
        }
        int64_t total = strides[i] * (size - 1) + outPad[i] +
                        ((k - 1) * dilations[i] + 1) - target[i];
        if (total < 0) {
          // ONNX puts the surplus into output_padding-like extra cells;
          // graph.conv_transpose needs it as output_padding.
          outPad[i] -= total;
          total = 0;
        }
        int64_t half = total / 2;
        bool upper = mode != "SAME_LOWER";
        pads[i] = upper ? half : total - half;
        pads[spatial + i] = upper ? total - half : half;
      }
    } else if (mode == "VALID") {
      pads.assign(2 * spatial, 0);
    } else if (mode != "NOTSET") {
      return emitError(at) << "ConvTranspose auto_pad '" << mode
                           << "' is unknown";
    }
    llvm::SmallVector<NamedAttribute> attrs = {
        named("strides", i64Array(strides)),
        named("dilations", i64Array(dilations)),
        named("pad_low", i64Array(llvm::ArrayRef(pads).take_front(spatial))),
        named("pad_high", i64Array(llvm::ArrayRef(pads).drop_front(spatial))),
        named("output_padding", i64Array(outPad)),
        named("groups", i64Attr(attrInt(def, "group", 1)))};
    llvm::SmallVector<Value> operands = {in[0], in[1]};
    if (operand(2)) {
      operands.push_back(in[2]);
    }
    return one(build1(at, "graph.conv_transpose", operands, attrs));
  }
  if (op == "Resize" || op == "Upsample") {
    if (failed(need(1))) {
      return failure();
    }
    auto shape = getShape(in[0]);
    if (!shape) {
      return emitError(at) << op << " of an unranked input";
    }
    int64_t rank = shape->size();
    StringRef mode = attrStr("mode", "nearest");
    StringRef coord =
        attrStr("coordinate_transformation_mode",
                (op == "Upsample" || opset < 11) ? "asymmetric" : "half_pixel");
    // Opset < 11 rounds nearest down.
    StringRef nearest = attrStr("nearest_mode", (op == "Upsample" || opset < 11)
                                                    ? "floor"
                                                    : "round_prefer_floor");
    // Opset 18: scales/sizes may name only some axes.
    llvm::SmallVector<int64_t> axes;
    if (auto a = attrInts(def, "axes")) {
      for (int64_t x : *a) {
        if (x < -rank || x >= rank) {
          return emitError(at)
                 << op << " axis " << x << " out of range for rank " << rank;
        }
        axes.push_back(x < 0 ? x + rank : x);
      }
    } else {
      for (int64_t i = 0; i < rank; ++i) {
        axes.push_back(i);
      }
    }
    StringRef policy = attrStr("keep_aspect_ratio_policy", "stretch");
    if (policy != "stretch" && policy != "not_larger" &&
        policy != "not_smaller") {
      return emitError(at) << op << " keep_aspect_ratio_policy '" << policy
                           << "' is unknown";
    }
    if (mode == "bilinear" || mode == "trilinear") {
      mode = "linear";
    }
    if (mode != "nearest" && mode != "linear" && mode != "cubic") {
      return emitError(at) << op << " mode '" << mode << "' is unknown";
    }
    if (coord != "half_pixel" && coord != "align_corners" &&
        coord != "asymmetric" && coord != "pytorch_half_pixel" &&
        coord != "half_pixel_symmetric" && coord != "tf_crop_and_resize") {
      return emitError(at) << op << " coordinate_transformation_mode '" << coord
                           << "' is unknown";
    }
    // tf_crop_and_resize: the box, normalized, per named axis (input 1).
    std::optional<llvm::SmallVector<double>> roi;
    if (coord == "tf_crop_and_resize") {
      DenseElementsAttr r;
      if (!operand(1) || !matchPattern(in[1], m_Constant(&r)) ||
          !isa<FloatType>(r.getElementType())) {
        return emitError(at) << op
                             << " roi must be a constant for "
                                "tf_crop_and_resize";
      }
      if (r.getNumElements() != int64_t(2 * axes.size())) {
        return emitError(at) << op << " roi has " << r.getNumElements()
                             << " entries for " << axes.size() << " axes";
      }
      roi.emplace(2 * rank, 0.0);
      for (int64_t i = 0; i < rank; ++i) {
        (*roi)[rank + i] = 1.0;
      }
      auto v = llvm::to_vector(r.getValues<llvm::APFloat>());
      for (size_t i = 0; i < axes.size(); ++i) {
        (*roi)[axes[i]] = v[i].convertToDouble();
        (*roi)[rank + axes[i]] = v[axes.size() + i].convertToDouble();
      }
    }
    // Sizes: from `sizes`, else from scales times the input shape.
    llvm::SmallVector<int64_t> sizes;
    std::optional<llvm::SmallVector<double>> scales;
    bool legacyScales = op == "Upsample" || opset < 11;
    if (!legacyScales && operand(3)) {
      auto s = constInts(in[3]);
      if (!s) {
        return emitError(at) << op << " with computed sizes is not supported";
      }
      if (s->size() != axes.size()) {
        return emitError(at) << op << " has " << s->size() << " sizes for "
                             << axes.size() << " axes";
      }
      if (policy != "stretch") {
        // One scale for all the axes: the largest that fits (not_larger) or
        // the smallest that covers (not_smaller).
        double scale = policy == "not_larger" ? 1e300 : 0;
        for (size_t i = 0; i < axes.size(); ++i) {
          int64_t dim = (*shape)[axes[i]];
          if (ShapedType::isDynamic(dim) || dim == 0) {
            return emitError(at) << op
                                 << " keep_aspect_ratio_policy needs "
                                    "static sizes";
          }
          double r = double((*s)[i]) / double(dim);
          scale =
              policy == "not_larger" ? std::min(scale, r) : std::max(scale, r);
        }
        for (size_t i = 0; i < axes.size(); ++i) {
          (*s)[i] = int64_t(std::nearbyint(scale * (*shape)[axes[i]]));
        }
      }
      sizes.assign(shape->begin(), shape->end());
      for (size_t i = 0; i < axes.size(); ++i) {
        sizes[axes[i]] = (*s)[i];
      }
      for (int64_t i = 0; i < rank; ++i) {
        if (ShapedType::isDynamic(sizes[i])) {
          return emitError(at)
                 << op << " keeps dimension " << i << " of unknown size";
        }
      }
    } else {
      Value sv = op == "Upsample" ? operand(1)
                 : legacyScales   ? operand(1)
                                  : operand(2);
      DenseElementsAttr sc;
      if (sv) {
        if (!matchPattern(sv, m_Constant(&sc)) ||
            !isa<FloatType>(sc.getElementType())) {
          return emitError(at) << op
                               << " with computed scales is not "
                                  "supported";
        }
        scales.emplace();
        for (const llvm::APFloat &f : sc.getValues<llvm::APFloat>()) {
          scales->push_back(f.convertToDouble());
        }
      } else if (auto a = attr(def, "scales")) {
        scales.emplace(a->floats().begin(), a->floats().end());
      } else {
        return emitError(at) << op << " has neither sizes nor scales";
      }
      if (scales->size() != axes.size()) {
        return emitError(at) << op << " has " << scales->size()
                             << " scales for " << axes.size() << " axes";
      }
      llvm::SmallVector<double> full(rank, 1.0);
      for (size_t i = 0; i < axes.size(); ++i) {
        full[axes[i]] = (*scales)[i];
      }
      scales = full;
      for (int64_t i = 0; i < rank; ++i) {
        if (ShapedType::isDynamic((*shape)[i])) {
          return emitError(at)
                 << op << " by scales of dimension " << i << " of unknown size";
        }
        sizes.push_back(int64_t(std::floor((*shape)[i] * (*scales)[i])));
      }
    }
    if (nearest != "round_prefer_floor" && nearest != "round_prefer_ceil" &&
        nearest != "floor" && nearest != "ceil") {
      return emitError(at) << op << " nearest_mode '" << nearest
                           << "' is unknown";
    }
    // Scales that sizes / input does not reproduce (a size rounded down)
    // go to graph.resize: the coordinate transformation uses them.
    bool exactScales = false;
    if (scales) {
      for (int64_t i = 0; i < rank; ++i) {
        exactScales |= (*scales)[i] != double(sizes[i]) / double((*shape)[i]);
      }
    }
    // At scale 1 every mode and coordinate mapping is the identity (this
    // also covers integer inputs, which graph.resize interpolates only by
    // nearest).
    if (llvm::equal(sizes, *shape) && !exactScales && !roi) {
      return one(build1(at, "graph.identity", {in[0]}));
    }
    Attribute m = kindAttr(("#graph<resize_mode " + mode + ">").str());
    Attribute c = kindAttr(("#graph<coordinate_mode " + coord + ">").str());
    if (!m || !c) {
      return failure();
    }
    llvm::SmallVector<NamedAttribute> resizeAttrs = {
        named("sizes", i64Array(sizes)), named("mode", m),
        named("coordinate_mode", c)};
    if (exactScales) {
      resizeAttrs.push_back(
          named("scales", builder.getDenseF64ArrayAttr(*scales)));
    }
    if (mode == "nearest" && nearest != "round_prefer_floor") {
      Attribute n = kindAttr(("#graph<nearest_mode " + nearest + ">").str());
      if (!n) {
        return failure();
      }
      resizeAttrs.push_back(named("nearest_mode", n));
    }
    if (mode == "cubic") {
      float a = attrFloat(def, "cubic_coeff_a", -0.75f);
      if (a != -0.75f) {
        resizeAttrs.push_back(
            named("cubic_coeff_a", builder.getF64FloatAttr(a)));
      }
    }
    if (mode != "nearest" && attrInt(def, "exclude_outside", 0)) {
      resizeAttrs.push_back(named("exclude_outside", builder.getUnitAttr()));
    }
    // Antialiasing only changes a linear or cubic downscale.
    if (mode != "nearest" && attrInt(def, "antialias", 0)) {
      resizeAttrs.push_back(named("antialias", builder.getUnitAttr()));
    }
    if (roi) {
      resizeAttrs.push_back(named("roi", builder.getDenseF64ArrayAttr(*roi)));
      float e = attrFloat(def, "extrapolation_value", 0.0f);
      if (e != 0.0f) {
        resizeAttrs.push_back(
            named("extrapolation_value", builder.getF64FloatAttr(e)));
      }
    }
    return one(build1(at, "graph.resize", {in[0]}, resizeAttrs));
  }
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
  if (op == "Einsum") {
    return importEinsum(def, in, at);
  }
  return notTranslated(node, at);
}

FailureOr<llvm::SmallVector<Value>>
OnnxImporter::importEinsum(const onnx::NodeProto &def, llvm::ArrayRef<Value> in,
                           Location at) {
  const onnx::AttributeProto *eqAttr = attr(def, "equation");
  if (!eqAttr || in.empty()) {
    return emitError(at) << "Einsum needs an equation and inputs";
  }
  std::string eq;
  for (char c : eqAttr->s()) {
    if (c != ' ') {
      eq += c;
    }
  }
  auto [lhs, rhs] = StringRef(eq).split("->");
  bool explicitOut = StringRef(eq).contains("->");
  llvm::SmallVector<StringRef> terms;
  lhs.split(terms, ',');
  if (terms.size() != in.size()) {
    return emitError(at) << "Einsum equation '" << eq << "' has "
                         << terms.size() << " terms for " << in.size()
                         << " inputs";
  }
  // Expand "..." into upper-case letters, one per broadcast dimension
  // (aligned from the right, as NumPy does).
  int64_t ellipsisRank = 0;
  llvm::SmallVector<llvm::SmallVector<int64_t>> shapes;
  for (auto [term, v] : llvm::zip(terms, in)) {
    auto shape = getShape(v);
    if (!isStatic(shape)) {
      return emitError(at) << "Einsum needs static input shapes";
    }
    shapes.push_back(*shape);
    size_t letters = term.size() - (term.contains("...") ? 3 : 0);
    if (term.contains("...")) {
      ellipsisRank = std::max<int64_t>(ellipsisRank, shape->size() - letters);
    }
  }
  std::string ell;
  for (int64_t i = 0; i < ellipsisRank; ++i) {
    ell += char('A' + i);
  }
  auto expand = [&](StringRef term, int64_t rank) {
    size_t pos = term.find("...");
    if (pos == StringRef::npos) {
      return term.str();
    }
    int64_t n = rank - int64_t(term.size() - 3);
    return (term.take_front(pos) +
            StringRef(ell).take_back(std::max<int64_t>(n, 0)) +
            term.drop_front(pos + 3))
        .str();
  };
  llvm::SmallVector<std::string> subs;
  for (size_t i = 0; i < terms.size(); ++i) {
    subs.push_back(expand(terms[i], shapes[i].size()));
    if (int64_t(subs.back().size()) != int64_t(shapes[i].size())) {
      return emitError(at) << "Einsum term '" << terms[i].str()
                           << "' does not match rank " << shapes[i].size();
    }
    for (size_t a = 0; a < subs.back().size(); ++a) {
      if (subs.back().find(subs.back()[a], a + 1) != std::string::npos) {
        return emitError(at) << "Einsum with a repeated index in one term "
                                "(diagonals) is not supported";
      }
    }
  }
  std::string out;
  if (explicitOut) {
    out = expand(rhs, ellipsisRank + int64_t(rhs.size()) -
                          (rhs.contains("...") ? 3 : 0));
  } else {
    out = ell;
    std::map<char, int> count;
    for (const std::string &s : subs) {
      for (char c : s) {
        if (!(c >= 'A' && c < 'A' + ellipsisRank)) {
          ++count[c];
        }
      }
    }
    for (auto [c, n] : count) {
      if (n == 1) {
        out += c;
      }
    }
  }
  std::map<char, int64_t> size;
  for (size_t i = 0; i < subs.size(); ++i) {
    for (size_t a = 0; a < subs[i].size(); ++a) {
      int64_t d = shapes[i][a];
      auto [it, fresh] = size.try_emplace(subs[i][a], d);
      if (!fresh && it->second != d) {
        if (it->second == 1) {
          it->second = d;
        } else if (d != 1) {
          return emitError(at) << "Einsum index '" << subs[i][a]
                               << "' has sizes " << it->second << " and " << d;
        }
      }
    }
  }
  Attribute sum = parseAttr(ctx, at, "#graph<reduce_kind sum>");
  if (!sum) {
    return failure();
  }
  auto named = [&](StringRef n, Attribute a) {
    return builder.getNamedAttr(n, a);
  };
  auto arr = [&](llvm::ArrayRef<int64_t> v) {
    return builder.getDenseI64ArrayAttr(v);
  };
  // Sums out the letters of `v` (labelled `s`) not in `keep`.
  auto reduceTo = [&](Value v, std::string &s, StringRef keep) -> Value {
    llvm::SmallVector<int64_t> axes;
    std::string rest;
    for (size_t a = 0; a < s.size(); ++a) {
      if (keep.contains(s[a])) {
        rest += s[a];
      } else {
        axes.push_back(a);
      }
    }
    if (axes.empty()) {
      return v;
    }
    s = rest;
    return build1(at, "graph.reduce", {v},
                  {named("kind", sum), named("axes", arr(axes))});
  };
  auto permute = [&](Value v, StringRef from, StringRef to) -> Value {
    llvm::SmallVector<int64_t> perm;
    for (char c : to) {
      perm.push_back(from.find(c));
    }
    bool identity = true;
    for (size_t i = 0; i < perm.size(); ++i) {
      identity &= perm[i] == int64_t(i);
    }
    return identity
               ? v
               : build1(at, "graph.transpose", {v}, {named("perm", arr(perm))});
  };
  auto reshape = [&](Value v, llvm::ArrayRef<int64_t> shape) -> Value {
    return v ? build1(at, "graph.reshape", {v}, {named("shape", arr(shape))})
             : Value();
  };
  auto broadcastTo = [&](Value v, StringRef s) -> Value {
    // Size-1 dimensions standing for a larger index (ellipsis broadcast).
    llvm::SmallVector<int64_t> target;
    bool needed = false;
    auto shape = *getShape(v);
    for (size_t a = 0; a < s.size(); ++a) {
      target.push_back(size[s[a]]);
      needed |= shape[a] != size[s[a]];
    }
    return needed ? build1(at, "graph.broadcast_to", {v},
                           {named("shape", arr(target))})
                  : v;
  };
  auto product = [&](StringRef s) {
    int64_t p = 1;
    for (char c : s) {
      p *= size[c];
    }
    return p;
  };

  Value acc = in[0];
  std::string accS = subs[0];
  for (size_t k = 1; k <= subs.size(); ++k) {
    // Letters still needed after this step: the output's and later terms'.
    std::string keep = out;
    for (size_t j = k; j < subs.size(); ++j) {
      keep += subs[j];
    }
    if (k == subs.size()) {
      acc = reduceTo(acc, accS, keep);
      break;
    }
    std::string bS = subs[k];
    std::string keepA = keep + bS, keepB = keep + accS;
    acc = reduceTo(acc, accS, keepA);
    Value b = reduceTo(in[k], bS, keepB);
    if (!acc || !b) {
      return failure();
    }
    std::string batch, contract, aFree, bFree;
    for (char c : accS) {
      if (!StringRef(bS).contains(c)) {
        aFree += c;
      } else if (StringRef(keep).contains(c)) {
        batch += c;
      } else {
        contract += c;
      }
    }
    for (char c : bS) {
      if (!StringRef(accS).contains(c)) {
        bFree += c;
      }
    }
    acc = broadcastTo(acc, accS);
    b = broadcastTo(b, bS);
    Value a3 = reshape(permute(acc, accS, batch + aFree + contract),
                       {product(batch), product(aFree), product(contract)});
    Value b3 = reshape(permute(b, bS, batch + contract + bFree),
                       {product(batch), product(contract), product(bFree)});
    if (!a3 || !b3) {
      return failure();
    }
    Value m = build1(at, "graph.matmul", {a3, b3});
    accS = batch + aFree + bFree;
    llvm::SmallVector<int64_t> shape;
    for (char c : accS) {
      shape.push_back(size[c]);
    }
    acc = reshape(m, shape);
    if (!acc) {
      return failure();
    }
  }
  if (!acc) {
    return failure();
  }
  if (accS.size() != out.size()) {
    return emitError(at) << "Einsum output '" << out << "' repeats an index";
  }
  Value r = permute(acc, accS, out);
  if (!r) {
    return failure();
  }
  return llvm::SmallVector<Value>{r};
}

/// Parses "1x3x224x224" with an optional element suffix ("240x320x3xui8").
static LogicalResult parseShapeSpec(MLIRContext *ctx, StringRef spec,
                                    llvm::SmallVector<int64_t> &shape,
                                    Type &element) {
  llvm::SmallVector<StringRef> parts;
  if (!spec.empty()) {
    spec.split(parts, 'x');
  }
  for (size_t i = 0; i < parts.size(); ++i) {
    StringRef part = parts[i];
    int64_t size;
    if (part == "?") {
      shape.push_back(ShapedType::kDynamic);
      continue;
    }
    if (!part.getAsInteger(10, size) && size >= 0) {
      shape.push_back(size);
      continue;
    }
    if (i + 1 != parts.size()) {
      return failure();
    }
    element = llvm::StringSwitch<Type>(part)
                  .Case("f32", Float32Type::get(ctx))
                  .Case("f16", Float16Type::get(ctx))
                  .Case("bf16", BFloat16Type::get(ctx))
                  .Case("f64", Float64Type::get(ctx))
                  .Cases({"i1", "bool"}, IntegerType::get(ctx, 1))
                  .Case("i8", IntegerType::get(ctx, 8))
                  .Case("i16", IntegerType::get(ctx, 16))
                  .Case("i32", IntegerType::get(ctx, 32))
                  .Case("i64", IntegerType::get(ctx, 64))
                  .Cases({"ui8", "u8"},
                         IntegerType::get(ctx, 8, IntegerType::Unsigned))
                  .Cases({"ui16", "u16"},
                         IntegerType::get(ctx, 16, IntegerType::Unsigned))
                  .Cases({"ui32", "u32"},
                         IntegerType::get(ctx, 32, IntegerType::Unsigned))
                  .Cases({"ui64", "u64"},
                         IntegerType::get(ctx, 64, IntegerType::Unsigned))
                  .Default(Type());
    if (!element) {
      return failure();
    }
  }
  return success();
}

FailureOr<ElementsAttr>
OnnxImporter::adoptLargeTensor(const onnx::TensorProto &tensor, Location at) {
  // Large raw initializers (weights) keep the bytes protobuf parsed: the
  // string is moved out of the model into a dense_resource blob, so the
  // weights are held once, not twice. Small ones stay DenseElementsAttr,
  // which folders and tests read directly.
  constexpr size_t kAdoptBytes = 64 * 1024;
  if (tensor.data_location() == onnx::TensorProto::EXTERNAL ||
      !tensor.has_raw_data() || tensor.raw_data().size() < kAdoptBytes) {
    return ElementsAttr();
  }
  Type element = convertOnnxElementType(ctx, tensor.data_type());
  if (!element || element.isInteger(1) ||
      element.getIntOrFloatBitWidth() % 8 != 0) {
    return ElementsAttr();
  }
  size_t bytesPer = element.getIntOrFloatBitWidth() / 8;
  llvm::SmallVector<int64_t> shape;
  int64_t count = 1;
  if (failed(tensorShape(tensor, at, shape, count))) {
    return failure();
  }
  auto type = RankedTensorType::get(shape, element);
  if (tensor.raw_data().size() != size_t(count) * bytesPer) {
    return emitError(at) << "tensor '" << tensor.name() << "' holds "
                         << tensor.raw_data().size() << " bytes, its type "
                         << type << " needs " << count * bytesPer;
  }
  // The model is this importer's own copy; taking the bytes out of it is
  // safe because each initializer is converted once.
  std::string *bytes =
      const_cast<onnx::TensorProto &>(tensor).release_raw_data();
  if (!llvm::isAddrAligned(llvm::Align(bytesPer), bytes->data())) {
    // Not expected from malloc; fall back to a copy.
    auto dense = DenseElementsAttr::getFromRawBuffer(
        type, llvm::ArrayRef<char>(bytes->data(), bytes->size()));
    delete bytes;
    return ElementsAttr(dense);
  }
  std::string key = "onnx_";
  for (char c : tensor.name()) {
    key += llvm::isAlnum(c) ? c : '_';
  }
  AsmResourceBlob blob = UnmanagedAsmResourceBlob::allocateWithAlign(
      llvm::ArrayRef<char>(bytes->data(), bytes->size()), bytesPer,
      [bytes](void *, size_t, size_t) { delete bytes; });
  return ElementsAttr(
      DenseResourceElementsAttr::get(type, key, std::move(blob)));
}

Value OnnxImporter::lookupValue(StringRef name) {
  if (Value v = values.lookup(name)) {
    return v;
  }
  // Initializers become constants when first used, so unused ones (and
  // those outside an --outputs subgraph) cost nothing.
  auto it = initializers.find(name);
  if (it == initializers.end()) {
    return {};
  }
  Location at = loc(name);
  ElementsAttr value;
  if (auto moved = adoptLargeTensor(*it->second, at); failed(moved)) {
    return {};
  } else {
    value = *moved;
  }
  if (!value) {
    auto dense = convertTensor(*it->second, at);
    if (failed(dense)) {
      return {};
    }
    value = *dense;
  }
  Value v;
  auto role = initializerRoles.find(name);
  if (role != initializerRoles.end() &&
      role->second != InitializerRole::Constant) {
    v = declareVariable(name, value,
                        role->second == InitializerRole::Trainable, at);
  } else {
    v = constant(at, value);
  }
  if (v) {
    values[name] = v;
  }
  return v;
}

void OnnxImporter::classifyInitializers(llvm::ArrayRef<GraphNode> nodes,
                                        const std::vector<bool> &needed) {
  // Floating-point initializers are the model's parameters; integer ones
  // are shapes, axes and indices, which stay constants. A float input the
  // translation must know at import time is configuration, not a
  // parameter, and stays a constant too; BatchNormalization's running mean
  // and variance are state the step updates, not differentiated.
  struct Slots {
    const char *op;
    std::initializer_list<int> inputs;
  };
  static const Slots kConfiguration[] = {
      {"Dropout", {1, 2}}, {"Resize", {1, 2, 3}}, {"Upsample", {1}},
      {"OneHot", {1}},     {"Range", {0, 1, 2}},
  };
  for (const auto &entry : initializers) {
    Type element = convertOnnxElementType(ctx, entry.second->data_type());
    if (element && isa<FloatType>(element)) {
      initializerRoles[entry.first()] = InitializerRole::Trainable;
    }
  }
  auto demote = [&](StringRef name, InitializerRole to) {
    auto it = initializerRoles.find(name);
    if (it != initializerRoles.end() && to < it->second) {
      it->second = to;
    }
  };
  for (unsigned index = 0; index < nodes.size(); ++index) {
    if (!needed[index]) {
      continue;
    }
    const GraphNode &node = nodes[index];
    if (!node.domain.empty() && node.domain != "ai.onnx") {
      continue;
    }
    for (const Slots &slots : kConfiguration) {
      if (node.op != slots.op) {
        continue;
      }
      for (int i : slots.inputs) {
        if (i < int(node.inputs.size())) {
          demote(node.inputs[i].name, InitializerRole::Constant);
        }
      }
    }
    if (node.op == "BatchNormalization") {
      for (int i : {3, 4}) {
        if (i < int(node.inputs.size())) {
          demote(node.inputs[i].name, InitializerRole::State);
        }
      }
    }
  }
}

Value OnnxImporter::declareVariable(StringRef name, ElementsAttr value,
                                    bool trainable, Location at) {
  std::optional<RegisteredOperationName> variableOp =
      RegisteredOperationName::lookup("graph.variable", ctx);
  if (!variableOp || !mainFunc) {
    emitError(at) << "importing initializers as variables needs "
                     "graph.variable";
    return {};
  }
  // The initializer's name, unless a symbol (the entry function) has it.
  auto module = cast<ModuleOp>(mainFunc->getParentOp());
  std::string symbol = name.str();
  for (unsigned n = 1; SymbolTable::lookupSymbolIn(module, symbol); ++n) {
    symbol = name.str() + "_" + std::to_string(n);
  }
  llvm::SmallVector<NamedAttribute> attrs = {
      builder.getNamedAttr("sym_name", builder.getStringAttr(symbol)),
      builder.getNamedAttr("type", TypeAttr::get(value.getType())),
      builder.getNamedAttr("initial_value", value)};
  if (trainable) {
    attrs.push_back(builder.getNamedAttr("trainable", builder.getUnitAttr()));
  }
  {
    OpBuilder::InsertionGuard guard(builder);
    builder.setInsertionPoint(mainFunc);
    OperationState state(at, *variableOp);
    state.addAttributes(attrs);
    builder.create(state);
  }
  Operation *read = createGraphOp(
      builder, at, "graph.read_variable", {},
      {builder.getNamedAttr("variable",
                            FlatSymbolRefAttr::get(ctx, symbol)),
       builder.getNamedAttr("value_type", TypeAttr::get(value.getType()))},
      {value.getElementType()});
  return read ? read->getResult(0) : Value();
}

OwningOpRef<ModuleOp> OnnxImporter::run() {
  Location fileLoc = NameLoc::get(StringAttr::get(ctx, fileName));
  auto loaded = readOnnxModel(path, options.limits);
  if (!loaded) {
    emitError(fileLoc) << llvm::toString(loaded.takeError());
    return nullptr;
  }
  if (llvm::Error err = freezeOnnxInputs(**loaded, options.frozenInputs, path,
                                   options.limits)) {
    emitError(fileLoc) << llvm::toString(std::move(err));
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

  // Value infos by name: graph inputs, outputs and intermediate values.
  llvm::StringMap<const onnx::ValueInfoProto *> infos;
  for (const auto *list :
       {&graph.value_info(), &graph.output(), &graph.input()}) {
    for (const onnx::ValueInfoProto &info : *list) {
      infos[info.name()] = &info;
    }
  }
  for (const onnx::TensorProto &init : graph.initializer()) {
    initializers[init.name()] = &init;
  }

  llvm::SmallVector<std::string> outputNames;
  if (!options.outputs.empty()) {
    outputNames.assign(options.outputs.begin(), options.outputs.end());
  } else {
    for (const onnx::ValueInfoProto &output : graph.output()) {
      outputNames.push_back(output.name());
    }
  }
  for (const std::string &name : outputNames) {
    if (!nodeGraph->valueByName.count(name)) {
      emitError(loc(name)) << "output '" << name << "' names no value";
      return nullptr;
    }
  }

  // --inputs cuts the graph: those values become the arguments and what
  // produces them is not imported.
  llvm::StringMap<std::string> cut;
  llvm::SmallVector<std::string> cutOrder;
  for (StringRef spec : options.inputs) {
    auto [name, shape] = spec.split(':');
    if (!nodeGraph->valueByName.count(name)) {
      emitError(fileLoc) << "--inputs '" << spec << "' names no value";
      return nullptr;
    }
    if (!cut.try_emplace(name, spec.contains(':') ? shape.str() : "?").second) {
      emitError(fileLoc) << "--inputs names '" << name << "' twice";
      return nullptr;
    }
    cutOrder.push_back(name.str());
  }
  // Only ancestors of the outputs are imported.
  std::vector<bool> needed(nodeGraph->nodes.size(), false);
  llvm::SmallVector<StringRef> work(outputNames.begin(), outputNames.end());
  llvm::StringMap<bool> reached;
  while (!work.empty()) {
    StringRef name = work.pop_back_val();
    if (cut.count(name) || !reached.try_emplace(name, true).second) {
      continue;
    }
    auto it = nodeGraph->valueByName.find(name);
    if (it == nodeGraph->valueByName.end() || it->second.first < 0) {
      continue;
    }
    unsigned index = it->second.first;
    if (needed[index]) {
      continue;
    }
    needed[index] = true;
    for (const NodeInput &input : nodeGraph->nodes[index].inputs) {
      if (input.producer != NodeInput::kAbsent) {
        work.push_back(input.name);
      }
    }
  }

  OwningOpRef<ModuleOp> module = ModuleOp::create(fileLoc);
  builder.setInsertionPointToEnd(module->getBody());

  llvm::SmallVector<Type> argTypes;
  llvm::SmallVector<std::string> argNames;
  if (cut.empty()) {
    for (const onnx::ValueInfoProto &input : graph.input()) {
      if (initializers.count(input.name())) {
        continue; // an initializer listed as input (IR < 4): a constant
      }
      auto type = convertValueType(input, loc(input.name()));
      if (failed(type)) {
        return nullptr;
      }
      argTypes.push_back(*type);
      argNames.push_back(input.name());
    }
  } else {
    for (const std::string &name : cutOrder) {
      Location at = loc(name);
      StringRef spec = cut[name];
      llvm::SmallVector<int64_t> shape;
      Type element;
      const onnx::ValueInfoProto *info = infos.lookup(name);
      if (info && info->type().has_tensor_type()) {
        element =
            convertOnnxElementType(ctx, info->type().tensor_type().elem_type());
      }
      if (auto init = initializers.find(name);
          !element && init != initializers.end()) {
        element = convertOnnxElementType(ctx, init->second->data_type());
      }
      if (spec == "?" && info) {
        auto type = convertValueType(*info, at);
        if (failed(type)) {
          return nullptr;
        }
        argTypes.push_back(*type);
        argNames.push_back(name);
        continue;
      }
      if (spec != "?" && failed(parseShapeSpec(ctx, spec, shape, element))) {
        emitError(at) << "--inputs '" << name << ":" << spec
                      << "': bad shape (expected e.g. 1x3x224x224 or "
                         "240x320x3xui8)";
        return nullptr;
      }
      if (!element) {
        emitError(at) << "--inputs '" << name << "': the model does not say "
                      << "its element type; give it as in " << name
                      << ":2x3xf32";
        return nullptr;
      }
      argTypes.push_back(spec == "?"
                             ? Type(UnrankedTensorType::get(element))
                             : Type(RankedTensorType::get(shape, element)));
      argNames.push_back(name);
    }
  }
  llvm::SmallVector<Type> resultTypes;
  auto func = func::FuncOp::create(
      builder, fileLoc, "main", builder.getFunctionType(argTypes, resultTypes));
  mainFunc = func;
  if (options.training) {
    classifyInitializers(nodeGraph->nodes, needed);
  }
  Block *entry = func.addEntryBlock();
  for (unsigned i = 0; i < argNames.size(); ++i) {
    values[argNames[i]] = entry->getArgument(i);
    func.setArgAttr(i, "graph.name", builder.getStringAttr(argNames[i]));
  }
  builder.setInsertionPointToStart(entry);

  for (unsigned index : *order) {
    if (needed[index] && failed(importNode(nodeGraph->nodes[index]))) {
      return nullptr;
    }
  }

  llvm::SmallVector<Value> results;
  for (const std::string &name : outputNames) {
    Value v = lookupValue(name);
    if (!v) {
      emitError(loc(name)) << "output '" << name << "' has no value";
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


OwningOpRef<ModuleOp> importOnnx(StringRef path, MLIRContext &context,
                                 const ImportOptions &options) {
  context.loadAllAvailableDialects();
  return OnnxImporter(context, path, options).run();
}

} // namespace graphc::import
