//===- OnnxImporter.cpp - ONNX ModelProto to the graph dialect ------------===//
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
#include "OnnxOps.h"
#include "graphc/Import/NodeGraph.h"
#include "graphc/Import/ONNX/OnnxReader.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/AsmState.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/DialectResourceBlobManager.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/IR/TypeUtilities.h"

#include "llvm/ADT/ScopeExit.h"
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
                         << "' is not a tensor (sequence, map and optional "
                            "graph inputs and outputs are not supported)";
  }
  const auto &tensorType = info.type().tensor_type();
  Type element = convertOnnxElementType(ctx, tensorType.elem_type());
  if (!element) {
    return emitError(at) << "value '" << info.name()
                         << "' has unsupported ONNX element type "
                         << tensorType.elem_type();
  }
  // An explicit --input-shape wins over the file.
  FailureOr<std::optional<InputShapeSpec>> given =
      findInputShape(options.inputShapes, info.name(), at);
  if (failed(given)) {
    return failure();
  }
  if (*given) {
    const llvm::SmallVector<int64_t> &shape = (*given)->shape;
    if (tensorType.has_shape() &&
        tensorType.shape().dim_size() != int(shape.size())) {
      return emitError(at) << "--input-shape '" << (*given)->spec
                           << "' has rank " << shape.size() << " but input '"
                           << info.name() << "' has rank "
                           << tensorType.shape().dim_size();
    }
    return Type(RankedTensorType::get(shape, element));
  }
  if (!tensorType.has_shape()) {
    if (options.batch > 0) {
      unresolvedInputs.push_back({info.name(), std::nullopt});
    }
    return Type(UnrankedTensorType::get(element));
  }
  llvm::SmallVector<int64_t> shape;
  for (const auto &dim : tensorType.shape().dim()) {
    shape.push_back(dim.has_dim_value() && dim.dim_value() >= 0
                        ? dim.dim_value()
                        : ShapedType::kDynamic);
  }
  fillLeadingBatch(shape, options.batch);
  if (options.batch > 0 && !ShapedType::isStaticShape(shape)) {
    unresolvedInputs.push_back({info.name(), shape});
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
  for (auto [i, input] : llvm::enumerate(node.inputs)) {
    if (input.producer == NodeInput::kAbsent) {
      in.push_back(Value());
      continue;
    }
    // Sequences are lists of values known here (Sequences.cpp): the
    // sequence ops read them by name; no other op can.
    if (sequences.count(input.name)) {
      if (!readsSequence(node, i)) {
        return emitError(at)
               << node.op << " input " << i << " ('" << input.name
               << "') is a sequence; graphc resolves sequences while "
                  "importing, and only SequenceInsert, SequenceErase, "
                  "SequenceAt, SequenceLength and ConcatFromSequence read "
                  "them";
      }
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
  // A translator may import a subgraph (FlexAttention's score_mod), which
  // translates other nodes: theirs is `current` only while they last.
  CurrentNode outer = current;
  current = {node.op, &def, in, at};
  bool outerFold = foldFloats;
  foldFloats = foldFloats && !unfoldedNodes.contains(node.source);
  llvm::scope_exit restore([&] {
    current = outer;
    foldFloats = outerFold;
  });
  OnnxTranslator translate = entry->family->translate;
  FailureOr<llvm::SmallVector<Value>> results =
      (this->*translate)(node, def, in, at);
  if (failed(results)) {
    return failure();
  }
  // Core.cpp's ops name one result; their other outputs (Dropout's mask)
  // stay without a value, which a node that reads one reports.
  bool firstOnly = StringRef(entry->family->file) == "ONNX/Core.cpp";
  for (int i = 0; i < def.output_size(); ++i) {
    if (def.output(i).empty() || sequences.count(def.output(i))) {
      continue; // absent, or a sequence the translator set
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

llvm::SmallVector<Value> OnnxImporter::foldConstant(Operation *op) {
  // The graph dialect's folders do the work (shape, gather, slice, concat,
  // reduce, arithmetic ... of constants), so shape subgraphs become
  // constants as the nodes are imported.
  // A node a Gradient differentiates through keeps its float ops
  // (markDifferentiated).
  if (!foldFloats && llvm::any_of(op->getResultTypes(), [](Type t) {
        return isa<FloatType>(getElementTypeOrSelf(t));
      })) {
    return llvm::SmallVector<Value>(op->getResults());
  }
  llvm::SmallVector<Value> folded =
      foldCreatedOp(builder, op, FoldReplacement::ExistingValue);
  if (folded.empty()) {
    return llvm::SmallVector<Value>(op->getResults());
  }
  return folded;
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
    v = declareVariable(name, value, role->second == InitializerRole::Trainable,
                        at);
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
      {builder.getNamedAttr("variable", FlatSymbolRefAttr::get(ctx, symbol)),
       builder.getNamedAttr("value_type", TypeAttr::get(value.getType()))},
      {value.getElementType()});
  return read ? read->getResult(0) : Value();
}

/// Appends to `work` the values node `index` reads: its inputs, and the
/// outputs of the nodes whose values its subgraphs capture (its control
/// inputs, see buildOnnxNodeGraph).
static void appendNodeInputs(const NodeGraph &graph, unsigned index,
                             llvm::SmallVectorImpl<StringRef> &work) {
  for (const NodeInput &input : graph.nodes[index].inputs) {
    if (input.producer != NodeInput::kAbsent) {
      work.push_back(input.name);
    }
  }
  for (unsigned producer : graph.nodes[index].controlInputs) {
    const auto *def =
        static_cast<const onnx::NodeProto *>(graph.nodes[producer].source);
    for (const std::string &name : def->output()) {
      work.push_back(name);
    }
  }
}

/// Bounded outputs' valid counts follow the model's outputs as results of
/// @main (those made inside a loop or branch body are not its values).
static void
appendValidCounts(llvm::ArrayRef<std::pair<std::string, Value>> counts,
                  mlir::Region &body, llvm::SmallVectorImpl<Value> &results,
                  llvm::SmallVectorImpl<std::string> &names) {
  for (const auto &[name, count] : counts) {
    if (Value(count).getParentRegion() == &body) {
      results.push_back(count);
      names.push_back(name);
    }
  }
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
    appendNodeInputs(*nodeGraph, index, work);
  }

  markDifferentiated(*nodeGraph, *order, needed);

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
  if (!unresolvedInputs.empty()) {
    (void)reportUnresolvedInputs(fileLoc, options.batch, unresolvedInputs);
    return nullptr;
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
      emitError(loc(name)) << "output '" << name
                           << (sequences.count(name)
                                   ? "' is a sequence; graphc resolves "
                                     "sequences while importing, and "
                                     "sequence-typed graph outputs are not "
                                     "supported"
                                   : "' has no value");
      return nullptr;
    }
    results.push_back(v);
  }
  appendValidCounts(validCounts, func.getBody(), results, outputNames);
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
