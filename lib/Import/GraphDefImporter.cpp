//===- GraphDefImporter.cpp - TensorFlow graphs to the graph dialect --------===//
//
// Builds func @main from a GraphDef (or the graph of a MetaGraphDef or
// SavedModel): Placeholders (and dequeued queue components) become
// arguments, the chosen outputs (--outputs, else the sinks) are returned, and
// only their ancestors are imported (so initializer subgraphs drop out).
// Every op keeps its node's device as `dist.device`, its colocation as
// `graph.colocate` and its control inputs as `graph.control_deps`; variables
// become module-level graph.variable symbols, optimizer ops become
// read_variable / *_update / assign_variable.
//
//===----------------------------------------------------------------------===//

#include "graphc/Import/Importers.h"

#include "ImportUtils.h"
#include "graphc/Import/NodeGraph.h"
#include "graphc/Import/SupportedOps.h"
#include "graphc/Import/TFReader.h"

#include "dist/DistAttrs.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/Matchers.h"

#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/Path.h"

using namespace mlir;
using llvm::StringRef;

namespace graphc::import {

namespace {

/// The element type of a TensorFlow DataType (reference types included);
/// null when graphc has none (strings, resources, variants, complex).
Type convertTFType(MLIRContext *ctx, int dtype) {
  if (dtype > 100)
    dtype -= 100;
  switch (dtype) {
  case tensorflow::DT_FLOAT:
    return Float32Type::get(ctx);
  case tensorflow::DT_DOUBLE:
    return Float64Type::get(ctx);
  case tensorflow::DT_HALF:
    return Float16Type::get(ctx);
  case tensorflow::DT_BFLOAT16:
    return BFloat16Type::get(ctx);
  case tensorflow::DT_BOOL:
    return IntegerType::get(ctx, 1);
  case tensorflow::DT_INT8:
  case tensorflow::DT_UINT8:
    return IntegerType::get(ctx, 8);
  case tensorflow::DT_INT16:
  case tensorflow::DT_UINT16:
    return IntegerType::get(ctx, 16);
  case tensorflow::DT_INT32:
  case tensorflow::DT_UINT32:
    return IntegerType::get(ctx, 32);
  case tensorflow::DT_INT64:
  case tensorflow::DT_UINT64:
    return IntegerType::get(ctx, 64);
  default:
    return {};
  }
}

class GraphDefImporter {
public:
  GraphDefImporter(MLIRContext &context, TFModel &model,
                   const ImportOptions &options)
      : ctx(&context), builder(&context), model(model), options(options) {
    fileName = llvm::sys::path::filename(
                   StringRef(model.path).rtrim('/'))
                   .str();
  }

  OwningOpRef<ModuleOp> run();

private:
  Location loc(StringRef node) {
    return NameLoc::get(StringAttr::get(ctx, fileName + ":" + node.str()));
  }
  const tensorflow::NodeDef &def(const GraphNode &node) {
    return *static_cast<const tensorflow::NodeDef *>(node.source);
  }
  const tensorflow::AttrValue *attr(const tensorflow::NodeDef &node,
                                    StringRef name) {
    auto it = node.attr().find(name.str());
    return it == node.attr().end() ? nullptr : &it->second;
  }

  FailureOr<DenseElementsAttr> convertTensor(const tensorflow::TensorProto &t,
                                             Location at);
  FailureOr<Type> placeholderType(const tensorflow::NodeDef &node,
                                  Location at);
  LogicalResult importNode(const GraphNode &node);
  LogicalResult annotate(Operation *op, const GraphNode &node);
  FailureOr<FlatSymbolRefAttr> variableFor(unsigned input, Location at);
  Value readVariable(Location at, FlatSymbolRefAttr symbol) {
    return emit(at, "graph.read_variable", {},
                {builder.getNamedAttr("variable", symbol),
                 builder.getNamedAttr("value_type",
                                      TypeAttr::get(variableType.lookup(symbol)))},
                cast<ShapedType>(variableType.lookup(symbol)).getElementType());
  }
  FailureOr<FlatSymbolRefAttr> declareVariable(const GraphNode &node,
                                               Location at);

  Value emit(Location at, StringRef name, ValueRange operands,
             llvm::ArrayRef<NamedAttribute> attrs, Type element = {}) {
    Operation *op = createGraphOp(builder, at, name, operands, attrs,
                                  {element ? element
                                           : getElementType(operands.front())});
    if (op)
      created.push_back(op);
    return op ? op->getResult(0) : Value();
  }
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

  MLIRContext *ctx;
  OpBuilder builder;
  TFModel &model;
  const ImportOptions &options;
  std::string fileName;
  NodeGraph graph;
  ModuleOp module;
  func::FuncOp func;
  /// "node:index" -> value.
  llvm::StringMap<Value> values;
  /// Variable node name -> symbol; values that are variable refs/handles.
  llvm::StringMap<FlatSymbolRefAttr> variables;
  /// "node:index" of a variable ref or resource handle -> its symbol.
  llvm::StringMap<FlatSymbolRefAttr> variableOf;
  llvm::DenseMap<Attribute, Type> variableType;
  /// The keys of the current node's inputs.
  llvm::SmallVector<std::string> inKeys;
  llvm::SmallVector<Operation *> created;
};

FailureOr<DenseElementsAttr>
GraphDefImporter::convertTensor(const tensorflow::TensorProto &t, Location at) {
  Type element = convertTFType(ctx, t.dtype());
  if (!element)
    return emitError(at) << "tensor of TensorFlow dtype "
                         << tensorflow::DataType_Name(t.dtype())
                         << " is not supported";
  llvm::SmallVector<int64_t> shape;
  int64_t count = 1;
  for (const auto &dim : t.tensor_shape().dim()) {
    if (dim.size() < 0 || (dim.size() > 0 && count > (int64_t(1) << 40) / dim.size()))
      return emitError(at) << "tensor has an invalid dimension " << dim.size();
    shape.push_back(dim.size());
    count *= dim.size();
  }
  auto type = RankedTensorType::get(shape, element);
  unsigned width = element.isInteger(1) ? 8 : element.getIntOrFloatBitWidth();
  if (!t.tensor_content().empty()) {
    const std::string &raw = t.tensor_content();
    if (raw.size() != size_t(count) * (width / 8))
      return emitError(at) << "tensor_content holds " << raw.size()
                           << " bytes, " << type << " needs "
                           << count * (width / 8);
    if (element.isInteger(1)) {
      llvm::SmallVector<bool> bits;
      for (char c : raw)
        bits.push_back(c != 0);
      return DenseElementsAttr::get(type, llvm::ArrayRef<bool>(bits));
    }
    return DenseElementsAttr::getFromRawBuffer(
        type, llvm::ArrayRef<char>(raw.data(), raw.size()));
  }
  // Typed values: TensorFlow repeats the last one to fill the shape.
  llvm::SmallVector<Attribute> given;
  auto add = [&](Attribute a) { given.push_back(a); };
  if (element.isF32())
    for (float v : t.float_val())
      add(builder.getF32FloatAttr(v));
  else if (element.isF64())
    for (double v : t.double_val())
      add(builder.getF64FloatAttr(v));
  else if (element.isF16() || element.isBF16())
    for (int32_t v : t.half_val())
      add(FloatAttr::get(element,
                         llvm::APFloat(cast<FloatType>(element).getFloatSemantics(),
                                       llvm::APInt(16, uint16_t(v)))));
  else if (element.isInteger(64))
    for (int64_t v : t.int64_val())
      add(builder.getIntegerAttr(element, v));
  else if (element.isInteger(1))
    for (bool v : t.bool_val())
      add(builder.getBoolAttr(v));
  else
    for (int32_t v : t.int_val())
      add(builder.getIntegerAttr(element, llvm::APInt(width, uint64_t(int64_t(v)),
                                                      false, true)));
  if (given.empty()) {
    if (count == 0)
      return DenseElementsAttr::get(type, llvm::ArrayRef<Attribute>{});
    add(isa<FloatType>(element) ? Attribute(builder.getFloatAttr(element, 0))
                                : Attribute(builder.getIntegerAttr(element, 0)));
  }
  if (int64_t(given.size()) > count)
    return emitError(at) << "tensor holds " << given.size() << " values, "
                         << type << " has " << count;
  if (int64_t(given.size()) == 1 || count == 0)
    return DenseElementsAttr::get(type, given.front());
  given.resize(count, given.back());
  return DenseElementsAttr::get(type, given);
}

FailureOr<Type>
GraphDefImporter::placeholderType(const tensorflow::NodeDef &node,
                                  Location at) {
  const tensorflow::AttrValue *dtype = attr(node, "dtype");
  Type element = dtype ? convertTFType(ctx, dtype->type()) : Type();
  if (!element)
    return emitError(at) << "placeholder has no supported dtype";
  for (StringRef spec : options.inputShapes) {
    auto [name, dims] = spec.rsplit(':');
    if (name != node.name())
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
    return Type(RankedTensorType::get(shape, element));
  }
  const tensorflow::AttrValue *shapeAttr = attr(node, "shape");
  if (!shapeAttr || !shapeAttr->has_shape() ||
      shapeAttr->shape().unknown_rank())
    return Type(UnrankedTensorType::get(element));
  llvm::SmallVector<int64_t> shape;
  for (const auto &dim : shapeAttr->shape().dim())
    shape.push_back(dim.size() < 0 ? ShapedType::kDynamic : dim.size());
  return Type(RankedTensorType::get(shape, element));
}

LogicalResult GraphDefImporter::annotate(Operation *op, const GraphNode &node) {
  const tensorflow::NodeDef &nd = def(node);
  if (!nd.device().empty()) {
    std::string error;
    auto device = dist::DeviceAttr::fromString(ctx, nd.device(), error);
    if (failed(device))
      return emitError(op->getLoc())
             << "bad device '" << nd.device() << "': " << error;
    op->setAttr("dist.device", *device);
  }
  if (const tensorflow::AttrValue *cls = attr(nd, "_class")) {
    llvm::SmallVector<Attribute> names;
    for (const std::string &s : cls->list().s())
      if (StringRef(s).starts_with("loc:@"))
        names.push_back(builder.getStringAttr(StringRef(s).drop_front(5)));
    if (!names.empty())
      op->setAttr("graph.colocate", builder.getArrayAttr(names));
  }
  if (!node.controlInputs.empty()) {
    llvm::SmallVector<Attribute> names;
    for (unsigned c : node.controlInputs)
      names.push_back(builder.getStringAttr(graph.nodes[c].name));
    op->setAttr("graph.control_deps", builder.getArrayAttr(names));
  }
  return success();
}

FailureOr<FlatSymbolRefAttr>
GraphDefImporter::declareVariable(const GraphNode &node, Location at) {
  const tensorflow::NodeDef &nd = def(node);
  const tensorflow::AttrValue *dtype = attr(nd, "dtype");
  const tensorflow::AttrValue *shape = attr(nd, "shape");
  Type element = dtype ? convertTFType(ctx, dtype->type()) : Type();
  if (!element)
    return emitError(at) << "variable has no supported dtype";
  if (!shape || shape->shape().unknown_rank())
    return emitError(at) << "variable has no static shape";
  llvm::SmallVector<int64_t> dims;
  for (const auto &dim : shape->shape().dim()) {
    if (dim.size() < 0)
      return emitError(at) << "variable has a dynamic dimension";
    dims.push_back(dim.size());
  }
  auto type = RankedTensorType::get(dims, element);
  // Symbol names follow the node; TF names are unique in the graph.
  std::string symbol = node.name;
  std::string shared = nd.op() == "VarHandleOp" && attr(nd, "shared_name")
                           ? attr(nd, "shared_name")->s()
                           : "";
  llvm::SmallVector<NamedAttribute> attrs = {
      builder.getNamedAttr("sym_name", builder.getStringAttr(symbol)),
      builder.getNamedAttr("type", TypeAttr::get(type)),
      builder.getNamedAttr("trainable", builder.getUnitAttr())};
  // A SavedModel checkpoint gives the initial value.
  if (model.variables) {
    auto it = model.variables->tensors.find(shared.empty() ? symbol : shared);
    if (it == model.variables->tensors.end() && !shared.empty())
      it = model.variables->tensors.find(symbol);
    if (it != model.variables->tensors.end() && !it->second.sliced &&
        convertTFType(ctx, it->second.dtype) == element) {
      unsigned width = element.isInteger(1) ? 8 : element.getIntOrFloatBitWidth();
      if (it->second.data.size() == size_t(type.getNumElements()) * width / 8 &&
          !element.isInteger(1))
        attrs.push_back(builder.getNamedAttr(
            "initial_value",
            DenseElementsAttr::getFromRawBuffer(
                type, llvm::ArrayRef<char>(it->second.data.data(),
                                           it->second.data.size()))));
    }
  }
  OpBuilder::InsertionGuard guard(builder);
  builder.setInsertionPoint(func);
  std::optional<RegisteredOperationName> name =
      RegisteredOperationName::lookup("graph.variable", ctx);
  if (!name)
    return emitError(at) << "importing variables needs graph.variable";
  OperationState state(at, *name);
  state.addAttributes(attrs);
  Operation *op = builder.create(state);
  if (failed(annotate(op, node)))
    return failure();
  auto ref = FlatSymbolRefAttr::get(ctx, symbol);
  variables[node.name] = ref;
  variableType[ref] = type;
  return ref;
}

FailureOr<FlatSymbolRefAttr> GraphDefImporter::variableFor(unsigned input,
                                                           Location at) {
  auto it = input < inKeys.size() ? variableOf.find(inKeys[input])
                                  : variableOf.end();
  if (it == variableOf.end())
    return emitError(at) << "expected a variable (ref or resource handle) "
                            "operand";
  return it->second;
}

LogicalResult GraphDefImporter::importNode(const GraphNode &node) {
  const tensorflow::NodeDef &nd = def(node);
  Location at = loc(node.name);
  StringRef op = node.op;
  const OpRule *rule = lookupTFOp(op);
  if (!rule)
    return emitError(at) << "TensorFlow op '" << op << "' has no import rule";
  if (rule->action == OpAction::Drop) {
    emitWarning(at) << "dropping '" << op
                    << "': it serves only TensorFlow's runtime";
    return success();
  }
  llvm::SmallVector<Value> in;
  inKeys.clear();
  for (const NodeInput &input : node.inputs) {
    std::string key = graph.nodes[input.producer].name + ":" +
                      std::to_string(input.index);
    inKeys.push_back(key);
    Value v = values.lookup(key);
    if (!v && variableOf.count(key)) {
      // A resource handle: no tensor value, only its variable.
      in.push_back(Value());
      continue;
    }
    if (!v)
      return emitError(at) << "input '" << input.name
                           << "' has no value (its producer was dropped or "
                              "has fewer outputs)";
    in.push_back(v);
  }
  // Only variable ops take resource handles.
  bool takesHandles = op == "ReadVariableOp" || op.starts_with("Assign") ||
                      op.starts_with("ResourceApply") || op == "Identity";
  for (unsigned i = 0; i < in.size(); ++i)
    if (!in[i] && !takesHandles)
      return emitError(at) << "input '" << node.inputs[i].name
                           << "' is a resource handle, not a tensor";
  auto need = [&](unsigned n) -> LogicalResult {
    if (in.size() < n)
      return emitError(at) << op << " needs " << n << " inputs, has "
                           << in.size();
    return success();
  };
  auto named = [&](StringRef n, Attribute a) {
    return builder.getNamedAttr(n, a);
  };
  auto boolAttr = [&](StringRef n) {
    const tensorflow::AttrValue *a = attr(nd, n);
    return a && a->b();
  };
  unsigned firstCreated = created.size();
  llvm::SmallVector<Value> results;

  if (rule->action == OpAction::GraphInput) {
    // A dequeue's components become arguments; the queue itself vanishes.
    if (op.starts_with("QueueDequeue")) {
      const tensorflow::AttrValue *types = attr(nd, "component_types");
      if (!types)
        return emitError(at) << "dequeue has no component_types";
      const tensorflow::AttrValue *shapes = attr(nd, "_output_shapes");
      for (int i = 0; i < types->list().type_size(); ++i) {
        Type element = convertTFType(ctx, types->list().type(i));
        if (!element)
          return emitError(at) << "queue component " << i
                               << " has an unsupported type";
        Type type = UnrankedTensorType::get(element);
        if (shapes && i < shapes->list().shape_size() &&
            !shapes->list().shape(i).unknown_rank()) {
          llvm::SmallVector<int64_t> dims;
          for (const auto &d : shapes->list().shape(i).dim())
            dims.push_back(d.size() < 0 ? ShapedType::kDynamic : d.size());
          type = RankedTensorType::get(dims, element);
        }
        unsigned index = func.getNumArguments();
        if (failed(func.insertArgument(index, type,
                                       builder.getDictionaryAttr(named(
                                           "graph.name",
                                           builder.getStringAttr(
                                               node.name + ":" +
                                               std::to_string(i)))),
                                       at)))
          return failure();
        values[node.name + ":" + std::to_string(i)] = func.getArgument(index);
      }
    }
    return success();
  }

  StringRef simple = llvm::StringSwitch<StringRef>(op)
                         .Cases("Identity", "StopGradient", "PreventGradient",
                                "Snapshot", "CheckNumerics", "graph.identity")
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
  Value result;
  if (!simple.empty()) {
    bool binary = !(simple == "graph.identity" || op == "Abs" || op == "Neg" ||
                    op == "Exp" || op == "Log" || op == "Sqrt" ||
                    op == "Rsqrt" || op == "Reciprocal" || op == "Inv" ||
                    op == "Tanh" || op == "Sigmoid" || op == "Relu" ||
                    op == "Erf" || op == "Floor" || op == "Ceil" ||
                    op == "Round" || op == "Sign" || op == "Sin" ||
                    op == "Cos" || op == "Softplus" || op == "LogicalNot");
    if (failed(need(binary ? 2 : 1)))
      return failure();
    if (op == "BiasAdd") {
      const tensorflow::AttrValue *format = attr(nd, "data_format");
      if (format && format->s() == "NCHW")
        return emitError(at) << "BiasAdd with data_format NCHW is not "
                                "supported yet";
    }
    // A variable read through Identity stays a variable reference.
    if (simple == "graph.identity" && variableOf.count(inKeys[0])) {
      variableOf[node.name + ":0"] = variableOf.lookup(inKeys[0]);
      if (in[0])
        values[node.name + ":0"] = in[0];
      return success();
    }
    result = emit(at, simple,
                  llvm::ArrayRef<Value>(in).take_front(binary ? 2 : 1), {});
  } else if (op == "AddN") {
    if (failed(need(1)))
      return failure();
    result = in[0];
    for (unsigned i = 1; i < in.size() && result; ++i)
      result = emit(at, "graph.add", {result, in[i]}, {});
  } else if (op == "Square") {
    if (failed(need(1)))
      return failure();
    result = emit(at, "graph.mul", {in[0], in[0]}, {});
  } else if (op == "SquaredDifference") {
    if (failed(need(2)))
      return failure();
    Value d = emit(at, "graph.sub", {in[0], in[1]}, {});
    result = d ? emit(at, "graph.mul", {d, d}, {}) : Value();
  } else if (op == "Const") {
    const tensorflow::AttrValue *value = attr(nd, "value");
    if (!value || !value->has_tensor())
      return emitError(at) << "Const has no tensor value";
    auto dense = convertTensor(value->tensor(), at);
    if (failed(dense))
      return failure();
    result = emit(at, "graph.constant", {},
                  {named("value", *dense)}, dense->getElementType());
  } else if (op == "Placeholder" || op == "PlaceholderWithDefault") {
    auto type = placeholderType(nd, at);
    if (failed(type))
      return failure();
    unsigned index = func.getNumArguments();
    llvm::SmallVector<NamedAttribute> argAttrs = {
        named("graph.name", builder.getStringAttr(node.name))};
    if (!nd.device().empty()) {
      std::string error;
      auto device = dist::DeviceAttr::fromString(ctx, nd.device(), error);
      if (failed(device))
        return emitError(at) << "bad device '" << nd.device() << "': " << error;
      argAttrs.push_back(named("dist.device", *device));
    }
    if (failed(func.insertArgument(index, *type,
                                   builder.getDictionaryAttr(argAttrs), at)))
      return failure();
    values[node.name + ":0"] = func.getArgument(index);
    return success();
  } else if (op == "NoOp") {
    return success();
  } else if (op == "MatMul" || op == "BatchMatMul" || op == "BatchMatMulV2") {
    if (failed(need(2)))
      return failure();
    llvm::SmallVector<NamedAttribute> attrs;
    if (boolAttr("transpose_a") || boolAttr("adj_x"))
      attrs.push_back(named("transpose_lhs", builder.getUnitAttr()));
    if (boolAttr("transpose_b") || boolAttr("adj_y"))
      attrs.push_back(named("transpose_rhs", builder.getUnitAttr()));
    result = emit(at, "graph.matmul", {in[0], in[1]}, attrs);
  } else if (op == "Softmax" || op == "LogSoftmax") {
    if (failed(need(1)))
      return failure();
    result = emit(at, op == "Softmax" ? "graph.softmax" : "graph.log_softmax",
                  {in[0]}, {named("axis", builder.getI64IntegerAttr(-1))});
  } else if (op == "Reshape") {
    if (failed(need(2)))
      return failure();
    auto shape = constInts(in[1]);
    if (shape)
      result = emit(at, "graph.reshape", {in[0]},
                    {named("shape", builder.getDenseI64ArrayAttr(*shape))});
    else
      result = emit(at, "graph.dynamic_reshape", {in[0], in[1]}, {});
  } else if (op == "ConcatV2" || op == "Concat") {
    if (failed(need(2)))
      return failure();
    // ConcatV2 takes the axis last, Concat first.
    Value axisValue = op == "ConcatV2" ? in.back() : in.front();
    auto axis = constInts(axisValue);
    if (!axis || axis->size() != 1)
      return emitError(at) << op << " needs a constant scalar axis";
    llvm::SmallVector<Value> parts(op == "ConcatV2" ? in.begin() : in.begin() + 1,
                                   op == "ConcatV2" ? in.end() - 1 : in.end());
    result = emit(at, "graph.concat", parts,
                  {named("axis", builder.getI64IntegerAttr((*axis)[0]))});
  } else if (op == "Cast") {
    if (failed(need(1)))
      return failure();
    const tensorflow::AttrValue *dst = attr(nd, "DstT");
    Type to = dst ? convertTFType(ctx, dst->type()) : Type();
    if (!to)
      return emitError(at) << "Cast to an unsupported type";
    result = emit(at, "graph.cast", {in[0]}, {named("to", TypeAttr::get(to))},
                  to);
  } else if (op == "Variable" || op == "VariableV2" || op == "VarHandleOp") {
    auto symbol = declareVariable(node, at);
    if (failed(symbol))
      return failure();
    variableOf[node.name + ":0"] = *symbol;
    if (op == "VarHandleOp")
      return success(); // a handle: reads go through ReadVariableOp
    result = readVariable(at, *symbol);
    if (!result)
      return failure();
  } else if (op == "ReadVariableOp") {
    if (failed(need(1)))
      return failure();
    auto symbol = variableFor(0, at);
    if (failed(symbol))
      return failure();
    result = readVariable(at, *symbol);
  } else if (op == "Assign" || op == "AssignAdd" || op == "AssignSub" ||
             op == "AssignVariableOp" || op == "AssignAddVariableOp" ||
             op == "AssignSubVariableOp") {
    if (failed(need(2)))
      return failure();
    auto symbol = variableFor(0, at);
    if (failed(symbol))
      return failure();
    if (!in[1])
      return emitError(at) << "assigned value is not a tensor";
    StringRef mode = op.contains("Add") ? "add" : op.contains("Sub") ? "sub" : "set";
    Attribute modeAttr = parseAttr(ctx, at, ("#graph<assign_mode " + mode + ">").str());
    if (!modeAttr)
      return failure();
    std::optional<RegisteredOperationName> name =
        RegisteredOperationName::lookup("graph.assign_variable", ctx);
    if (!name)
      return emitError(at) << "importing assignments needs graph.assign_variable";
    OperationState state(at, *name);
    state.addOperands(in[1]);
    state.addAttribute("variable", *symbol);
    state.addAttribute("mode", modeAttr);
    Operation *assign = builder.create(state);
    created.push_back(assign);
    if (!op.ends_with("VariableOp"))
      result = in[1]; // the ref output: the assigned value
  } else if (op == "ApplyGradientDescent" || op == "ResourceApplyGradientDescent" ||
             op == "ApplyAdam" || op == "ResourceApplyAdam" ||
             op == "ApplyFtrl" || op == "ResourceApplyFtrl" ||
             op == "ApplyMomentum" || op == "ResourceApplyMomentum") {
    // Operand order (TF): var, [slots...], hyper-parameters, grad.
    unsigned slots = op.contains("Adam") ? 2 : op.contains("Ftrl") ? 2
                     : op.contains("Momentum") ? 1 : 0;
    if (failed(need(1 + slots)))
      return failure();
    llvm::SmallVector<FlatSymbolRefAttr> vars;
    llvm::SmallVector<Value> state;
    for (unsigned i = 0; i <= slots; ++i) {
      auto symbol = variableFor(i, at);
      if (failed(symbol))
        return failure();
      vars.push_back(*symbol);
      Value read = readVariable(at, *symbol);
      if (!read)
        return failure();
      state.push_back(read);
    }
    llvm::SmallVector<Value> operands;
    StringRef update;
    if (op.contains("GradientDescent")) {
      if (failed(need(3)))
        return failure();
      update = "graph.sgd_update"; // (param, grad, lr)
      operands = {state[0], in[2], in[1]};
    } else if (op.contains("Adam")) {
      // TF: var m v beta1_power beta2_power lr beta1 beta2 epsilon grad
      if (failed(need(10)))
        return failure();
      update = "graph.adam_update";
      operands = {state[0], state[1], state[2], in[9], in[5],
                  in[6],    in[7],    in[8],    in[3], in[4]};
    } else if (op.contains("Ftrl")) {
      // TF: var accum linear grad lr l1 l2 lr_power
      if (failed(need(8)))
        return failure();
      update = "graph.ftrl_update";
      operands = {state[0], state[1], state[2], in[3],
                  in[4],    in[5],    in[6],    in[7]};
    } else {
      // TF: var accum lr grad momentum
      if (failed(need(5)))
        return failure();
      update = "graph.momentum_update";
      operands = {state[0], state[1], in[3], in[2], in[4]};
    }
    std::optional<RegisteredOperationName> name =
        RegisteredOperationName::lookup(update, ctx);
    if (!name)
      return emitError(at) << "importing " << op << " needs " << update;
    OperationState st(at, *name);
    st.addOperands(operands);
    if (op.contains("Momentum") && boolAttr("use_nesterov"))
      st.addAttribute("nesterov", builder.getUnitAttr());
    for (unsigned i = 0; i <= slots; ++i)
      st.addTypes(state[i].getType());
    Operation *upd = builder.create(st);
    created.push_back(upd);
    Attribute set = parseAttr(ctx, at, "#graph<assign_mode set>");
    std::optional<RegisteredOperationName> assignName =
        RegisteredOperationName::lookup("graph.assign_variable", ctx);
    if (!set || !assignName)
      return failure();
    for (unsigned i = 0; i <= slots; ++i) {
      OperationState as(at, *assignName);
      as.addOperands(upd->getResult(i));
      as.addAttribute("variable", vars[i]);
      as.addAttribute("mode", set);
      created.push_back(builder.create(as));
    }
    if (!op.starts_with("Resource"))
      result = upd->getResult(0);
  } else {
    return emitError(at) << "TensorFlow op '" << op
                         << "' has a planned rule but no translation yet";
  }

  for (unsigned i = firstCreated; i < created.size(); ++i)
    if (failed(annotate(created[i], node)))
      return failure();
  if (firstCreated == created.size() && !result)
    return success();
  if (!result) {
    if (rule->creates.empty() || op.starts_with("Resource") ||
        op.starts_with("Assign"))
      return success();
    return failure();
  }
  values[node.name + ":0"] = result;
  return success();
}

OwningOpRef<ModuleOp> GraphDefImporter::run() {
  Location fileLoc = NameLoc::get(StringAttr::get(ctx, fileName));
  if (!options.inputs.empty() || options.training) {
    emitError(fileLoc) << "--inputs and --train-op are not implemented for "
                          "TensorFlow graphs yet; use --outputs";
    return nullptr;
  }
  if (model.graph.library().function_size() > 0)
    for (const tensorflow::NodeDef &node : model.graph.node())
      if (node.op() == "StatefulPartitionedCall" ||
          node.op() == "PartitionedCall") {
        emitError(loc(node.name()))
            << "function calls (" << node.op()
            << ") are not imported yet";
        return nullptr;
      }
  auto built = buildTFNodeGraph(model.graph.node(), model.path);
  if (!built) {
    emitError(fileLoc) << llvm::toString(built.takeError());
    return nullptr;
  }
  graph = std::move(*built);
  auto order = graph.topologicalOrder(
      model.path, [&](const GraphNode &n, unsigned i) {
        return graph.isTFLoopBackEdge(n, i);
      });
  if (!order) {
    emitError(fileLoc) << llvm::toString(order.takeError());
    return nullptr;
  }

  // Pick the outputs, then keep only their ancestors.
  llvm::SmallVector<std::pair<unsigned, unsigned>> outputs;
  std::vector<bool> consumed(graph.nodes.size(), false);
  for (const GraphNode &n : graph.nodes)
    for (const NodeInput &in : n.inputs)
      consumed[in.producer] = true;
  llvm::SmallVector<unsigned> roots;
  if (!options.outputs.empty()) {
    for (StringRef spec : options.outputs) {
      TFInputRef ref = parseTFInput(spec);
      auto it = graph.nodeByName.find(ref.node);
      if (it == graph.nodeByName.end()) {
        emitError(fileLoc) << "--outputs names no node '" << spec << "'";
        return nullptr;
      }
      outputs.push_back({it->second, ref.index});
      roots.push_back(it->second);
    }
  } else {
    for (unsigned i = 0; i < graph.nodes.size(); ++i) {
      if (consumed[i])
        continue;
      roots.push_back(i);
      const OpRule *rule = lookupTFOp(graph.nodes[i].op);
      StringRef op = graph.nodes[i].op;
      bool producesValue = rule && rule->action == OpAction::Map &&
                           op != "NoOp" && !op.starts_with("Assign") &&
                           !op.starts_with("Resource") &&
                           !op.starts_with("Apply") && op != "_Send";
      if (producesValue)
        outputs.push_back({i, 0});
    }
  }
  std::vector<bool> keep(graph.nodes.size(), false);
  llvm::SmallVector<unsigned> work(roots.begin(), roots.end());
  while (!work.empty()) {
    unsigned i = work.pop_back_val();
    if (keep[i])
      continue;
    keep[i] = true;
    for (const NodeInput &in : graph.nodes[i].inputs)
      work.push_back(in.producer);
    for (unsigned c : graph.nodes[i].controlInputs)
      work.push_back(c);
  }

  OwningOpRef<ModuleOp> owned = ModuleOp::create(fileLoc);
  module = *owned;
  builder.setInsertionPointToEnd(module.getBody());
  func = func::FuncOp::create(builder, fileLoc, "main",
                              builder.getFunctionType({}, {}));
  Block *entry = func.addEntryBlock();
  builder.setInsertionPointToStart(entry);
  for (unsigned index : *order) {
    if (!keep[index])
      continue;
    const GraphNode &node = graph.nodes[index];
    if (lookupTFOp(node.op) == nullptr || node.op == "Enter" ||
        node.op == "Merge" || node.op == "Switch" || node.op == "Exit" ||
        node.op == "NextIteration" || node.op == "LoopCond") {
      if (node.op == "Merge" || node.op == "Enter" || node.op == "Switch" ||
          node.op == "Exit" || node.op == "NextIteration" ||
          node.op == "LoopCond") {
        emitError(loc(node.name)) << "TF1 control flow (" << node.op
                                  << ") is not imported yet";
        return nullptr;
      }
    }
    if (failed(importNode(node)))
      return nullptr;
  }
  llvm::SmallVector<Value> results;
  llvm::SmallVector<std::string> resultNames;
  for (auto [node, index] : outputs) {
    std::string key = graph.nodes[node].name + ":" + std::to_string(index);
    Value v = values.lookup(key);
    if (!v) {
      if (!options.outputs.empty()) {
        emitError(loc(graph.nodes[node].name)) << "output has no value";
        return nullptr;
      }
      continue;
    }
    results.push_back(v);
    resultNames.push_back(index == 0 ? graph.nodes[node].name : key);
  }
  func::ReturnOp::create(builder, fileLoc, results);
  func.setFunctionType(builder.getFunctionType(
      entry->getArgumentTypes(), TypeRange(ValueRange(results))));
  // Output names travel to the job bundle's manifest.
  llvm::SmallVector<StringRef> names(resultNames.begin(), resultNames.end());
  func->setAttr("graph.output_names", builder.getStrArrayAttr(names));
  return owned;
}

} // namespace

bool isTFOpTranslated(StringRef op) {
  // Keep in step with importNode: the ops it translates.
  static const char *const kTranslated[] = {
    "Abs",
    "Add",
    "AddN",
    "AddV2",
    "ApplyAdam",
    "ApplyFtrl",
    "ApplyGradientDescent",
    "ApplyMomentum",
    "Assign",
    "AssignAdd",
    "AssignAddVariableOp",
    "AssignSub",
    "AssignSubVariableOp",
    "AssignVariableOp",
    "BatchMatMul",
    "BatchMatMulV2",
    "BiasAdd",
    "Cast",
    "Ceil",
    "CheckNumerics",
    "Concat",
    "ConcatV2",
    "Const",
    "Cos",
    "Div",
    "Erf",
    "Exp",
    "FIFOQueueV2",
    "Floor",
    "FloorDiv",
    "FloorMod",
    "Identity",
    "Inv",
    "Log",
    "LogSoftmax",
    "LogicalAnd",
    "LogicalNot",
    "LogicalOr",
    "MatMul",
    "Maximum",
    "Minimum",
    "Mul",
    "Neg",
    "NoOp",
    "PaddingFIFOQueueV2",
    "Placeholder",
    "PlaceholderWithDefault",
    "Pow",
    "PreventGradient",
    "QueueDequeueManyV2",
    "QueueDequeueUpToV2",
    "QueueDequeueV2",
    "RandomShuffleQueueV2",
    "ReadVariableOp",
    "RealDiv",
    "Reciprocal",
    "Relu",
    "Reshape",
    "ResourceApplyAdam",
    "ResourceApplyFtrl",
    "ResourceApplyGradientDescent",
    "ResourceApplyMomentum",
    "Round",
    "Rsqrt",
    "Sigmoid",
    "Sign",
    "Sin",
    "Snapshot",
    "Softmax",
    "Softplus",
    "Sqrt",
    "Square",
    "SquaredDifference",
    "StopGradient",
    "Sub",
    "Tanh",
    "VarHandleOp",
    "Variable",
    "VariableV2",
  };
  // Dropped ops need no translation.
  if (const OpRule *rule = lookupTFOp(op))
    if (rule->action == OpAction::Drop)
      return true;
  for (const char *name : kTranslated)
    if (op == name)
      return true;
  return false;
}

OwningOpRef<ModuleOp> importGraphDef(StringRef path, ModelFormat format,
                                     MLIRContext &context,
                                     const ImportOptions &options) {
  context.loadAllAvailableDialects();
  auto model = readTFModel(path, format, options.limits);
  if (!model) {
    emitError(NameLoc::get(StringAttr::get(
        &context, llvm::sys::path::filename(path.rtrim('/')))))
        << llvm::toString(model.takeError());
    return nullptr;
  }
  return GraphDefImporter(context, *model, options).run();
}

} // namespace graphc::import
