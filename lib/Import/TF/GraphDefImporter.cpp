//===- GraphDefImporter.cpp - TensorFlow graphs to the graph dialect ------===//
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

#include "GraphDefImporterImpl.h"

using namespace mlir;
using llvm::StringRef;

namespace graphc::import {

/// The element type of a TensorFlow DataType (reference types included);
/// null when graphc has none (strings, resources, variants, complex).
Type convertTFType(MLIRContext *ctx, int dtype) {
  if (dtype > 100) {
    dtype -= 100;
  }
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

FailureOr<DenseElementsAttr>
GraphDefImporter::convertTensor(const tensorflow::TensorProto &t, Location at) {
  Type element = convertTFType(ctx, t.dtype());
  if (!element) {
    return emitError(at) << "tensor of TensorFlow dtype "
                         << tensorflow::DataType_Name(t.dtype())
                         << " is not supported";
  }
  llvm::SmallVector<int64_t> shape;
  int64_t count = 1;
  for (const auto &dim : t.tensor_shape().dim()) {
    if (dim.size() < 0 ||
        (dim.size() > 0 && count > (int64_t(1) << 40) / dim.size())) {
      return emitError(at) << "tensor has an invalid dimension " << dim.size();
    }
    shape.push_back(dim.size());
    count *= dim.size();
  }
  auto type = RankedTensorType::get(shape, element);
  unsigned width = element.isInteger(1) ? 8 : element.getIntOrFloatBitWidth();
  if (!t.tensor_content().empty()) {
    const std::string &raw = t.tensor_content();
    if (raw.size() != size_t(count) * (width / 8)) {
      return emitError(at) << "tensor_content holds " << raw.size()
                           << " bytes, " << type << " needs "
                           << count * (width / 8);
    }
    if (element.isInteger(1)) {
      llvm::SmallVector<bool> bits;
      for (char c : raw) {
        bits.push_back(c != 0);
      }
      return DenseElementsAttr::get(type, llvm::ArrayRef<bool>(bits));
    }
    return DenseElementsAttr::getFromRawBuffer(
        type, llvm::ArrayRef<char>(raw.data(), raw.size()));
  }
  // Typed values: TensorFlow repeats the last one to fill the shape.
  llvm::SmallVector<Attribute> given;
  auto add = [&](Attribute a) { given.push_back(a); };
  if (element.isF32()) {
    for (float v : t.float_val()) {
      add(builder.getF32FloatAttr(v));
    }
  } else if (element.isF64()) {
    for (double v : t.double_val()) {
      add(builder.getF64FloatAttr(v));
    }
  } else if (element.isF16() || element.isBF16()) {
    for (int32_t v : t.half_val()) {
      add(FloatAttr::get(
          element, llvm::APFloat(cast<FloatType>(element).getFloatSemantics(),
                                 llvm::APInt(16, uint16_t(v)))));
    }
  } else if (element.isInteger(64)) {
    for (int64_t v : t.int64_val()) {
      add(builder.getIntegerAttr(element, v));
    }
  } else if (element.isInteger(1)) {
    for (bool v : t.bool_val()) {
      add(builder.getBoolAttr(v));
    }
  } else {
    for (int32_t v : t.int_val()) {
      add(builder.getIntegerAttr(
          element, llvm::APInt(width, uint64_t(int64_t(v)), false, true)));
    }
  }
  if (given.empty()) {
    if (count == 0) {
      return DenseElementsAttr::get(type, llvm::ArrayRef<Attribute>{});
    }
    add(isa<FloatType>(element)
            ? Attribute(builder.getFloatAttr(element, 0))
            : Attribute(builder.getIntegerAttr(element, 0)));
  }
  if (int64_t(given.size()) > count) {
    return emitError(at) << "tensor holds " << given.size() << " values, "
                         << type << " has " << count;
  }
  if (int64_t(given.size()) == 1 || count == 0) {
    return DenseElementsAttr::get(type, given.front());
  }
  given.resize(count, given.back());
  return DenseElementsAttr::get(type, given);
}

FailureOr<Type>
GraphDefImporter::placeholderType(const tensorflow::NodeDef &node,
                                  Location at) {
  const tensorflow::AttrValue *dtype = attr(node, "dtype");
  Type element = dtype ? convertTFType(ctx, dtype->type()) : Type();
  if (!element) {
    return emitError(at) << "placeholder has no supported dtype";
  }
  FailureOr<std::optional<InputShapeSpec>> given =
      findInputShape(options.inputShapes, node.name(), at);
  if (failed(given)) {
    return failure();
  }
  if (*given) {
    return Type(RankedTensorType::get((*given)->shape, element));
  }
  if (auto batched = batchedInputs.find(node.name());
      batched != batchedInputs.end()) {
    return batched->second;
  }
  std::optional<llvm::SmallVector<int64_t>> shape = placeholderShape(node);
  if (!shape) {
    return Type(UnrankedTensorType::get(element));
  }
  return Type(RankedTensorType::get(*shape, element));
}

std::optional<llvm::SmallVector<int64_t>>
GraphDefImporter::placeholderShape(const tensorflow::NodeDef &node) {
  const tensorflow::AttrValue *shapeAttr = attr(node, "shape");
  if (!shapeAttr || !shapeAttr->has_shape() ||
      shapeAttr->shape().unknown_rank()) {
    return std::nullopt;
  }
  // Before GraphDef version 21, a Placeholder's empty shape meant unknown.
  if (shapeAttr->shape().dim_size() == 0 &&
      model.graph.versions().producer() < 21) {
    return std::nullopt;
  }
  llvm::SmallVector<int64_t> shape;
  for (const auto &dim : shapeAttr->shape().dim()) {
    shape.push_back(dim.size() < 0 ? ShapedType::kDynamic : dim.size());
  }
  return shape;
}

LogicalResult GraphDefImporter::annotate(Operation *op, const GraphNode &node) {
  const tensorflow::NodeDef &nd = def(node);
  if (!nd.device().empty()) {
    std::string error;
    auto device = dist::DeviceAttr::fromString(ctx, nd.device(), error);
    if (failed(device)) {
      return emitError(op->getLoc())
             << "bad device '" << nd.device() << "': " << error;
    }
    op->setAttr(dist::DistDialect::kDeviceAttrName, *device);
    placed.insert(node.name);
  }
  if (const tensorflow::AttrValue *cls = attr(nd, "_class")) {
    llvm::SmallVector<Attribute> names;
    for (const std::string &s : cls->list().s()) {
      if (StringRef(s).starts_with("loc:@")) {
        names.push_back(builder.getStringAttr(StringRef(s).drop_front(5)));
      }
    }
    if (!names.empty()) {
      op->setAttr("graph.colocate", builder.getArrayAttr(names));
    }
  }
  if (!node.controlInputs.empty()) {
    llvm::SmallVector<Attribute> names;
    for (unsigned c : node.controlInputs) {
      names.push_back(builder.getStringAttr(graph.nodes[c].name));
    }
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
  if (!element) {
    return emitError(at) << "variable has no supported dtype";
  }
  if (!shape || shape->shape().unknown_rank()) {
    return emitError(at) << "variable has no static shape";
  }
  llvm::SmallVector<int64_t> dims;
  for (const auto &dim : shape->shape().dim()) {
    if (dim.size() < 0) {
      return emitError(at) << "variable has a dynamic dimension";
    }
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
    if (it == model.variables->tensors.end() && !shared.empty()) {
      it = model.variables->tensors.find(symbol);
    }
    // TF2 object-based checkpoints key a variable by its object path; a
    // module attribute's path is its name (the optimizer's slots differ and
    // are not found: they start from no initial value).
    if (it == model.variables->tensors.end()) {
      it = model.variables->tensors.find((shared.empty() ? symbol : shared) +
                                         "/.ATTRIBUTES/VARIABLE_VALUE");
    }
    if (it != model.variables->tensors.end() && !it->second.sliced &&
        convertTFType(ctx, it->second.dtype) == element) {
      unsigned width =
          element.isInteger(1) ? 8 : element.getIntOrFloatBitWidth();
      if (it->second.data.size() == size_t(type.getNumElements()) * width / 8 &&
          !element.isInteger(1)) {
        attrs.push_back(builder.getNamedAttr(
            "initial_value",
            DenseElementsAttr::getFromRawBuffer(
                type, llvm::ArrayRef<char>(it->second.data.data(),
                                           it->second.data.size()))));
      }
    }
  }
  OpBuilder::InsertionGuard guard(builder);
  builder.setInsertionPoint(func);
  std::optional<RegisteredOperationName> name =
      RegisteredOperationName::lookup("graph.variable", ctx);
  if (!name) {
    return emitError(at) << "importing variables needs graph.variable";
  }
  OperationState state(at, *name);
  state.addAttributes(attrs);
  Operation *op = builder.create(state);
  if (failed(annotate(op, node))) {
    return failure();
  }
  auto ref = FlatSymbolRefAttr::get(ctx, symbol);
  variables[node.name] = ref;
  variableType[ref] = type;
  return ref;
}

FailureOr<FlatSymbolRefAttr> GraphDefImporter::variableFor(unsigned input,
                                                           Location at) {
  auto it =
      input < inKeys.size() ? variableOf.find(inKeys[input]) : variableOf.end();
  if (it == variableOf.end()) {
    return emitError(at) << "expected a variable (ref or resource handle) "
                            "operand";
  }
  return it->second;
}

GraphDefImporter::TFTranslator
GraphDefImporter::lookupTranslator(StringRef file) {
  static const std::pair<StringRef, TFTranslator> kFamilies[] = {
      {"TF/Elementwise.cpp", &GraphDefImporter::translateElementwise},
      {"TF/Variables.cpp", &GraphDefImporter::translateVariables},
      {"TF/Optimizers.cpp", &GraphDefImporter::translateOptimizers},
      {"TF/Shapes.cpp", &GraphDefImporter::translateShapes},
      {"TF/DataMovement.cpp", &GraphDefImporter::translateDataMovement},
      {"TF/Indexing.cpp", &GraphDefImporter::translateIndexing},
      {"TF/NN.cpp", &GraphDefImporter::translateNN},
      {"TF/Random.cpp", &GraphDefImporter::translateRandom},
      {"TF/Partitions.cpp", &GraphDefImporter::translatePartitions},
  };
  for (auto [name, translate] : kFamilies) {
    if (name == file) {
      return translate;
    }
  }
  return nullptr;
}

LogicalResult GraphDefImporter::importNode(const GraphNode &node) {
  const tensorflow::NodeDef &nd = def(node);
  Location at = loc(node.name);
  StringRef op = node.op;
  const OpRule *rule = lookupTFOp(op);
  if (!rule) {
    return emitError(at) << "TensorFlow op '" << op << "' has no import rule";
  }
  if (!rule->translated()) {
    return emitError(at) << "TensorFlow op '" << op
                         << "' has a planned rule but no translation yet";
  }
  if (rule->action == OpAction::Drop) {
    emitWarning(at) << "dropping '" << op
                    << "': it serves only TensorFlow's runtime";
    return success();
  }
  llvm::SmallVector<Value> in;
  inKeys.clear();
  for (const NodeInput &input : node.inputs) {
    std::string key =
        graph.nodes[input.producer].name + ":" + std::to_string(input.index);
    inKeys.push_back(key);
    Value v = values.lookup(key);
    if (!v && (variableOf.count(key) || spaceToBatch.count(key))) {
      // A resource handle: no tensor value, only its variable.
      in.push_back(Value());
      continue;
    }
    if (!v && opaque.count(key) &&
        (op == "IdentityN" || op == "Identity" || op == "ParseExample" ||
         op == "ParseExampleV2")) {
      in.push_back(Value()); // passed through, still opaque / parsed away
      continue;
    }
    if (!v && opaque.count(key)) {
      return emitError(at) << "input '" << input.name << "' is "
                           << opaque.lookup(key)
                           << ", which graphc has no tensor type for";
    }
    if (!v && rule->action == OpAction::GraphInput) {
      in.push_back(Value()); // the queue resource of a dequeue
      continue;
    }
    if (!v) {
      return emitError(at) << "input '" << input.name
                           << "' has no value (its producer was dropped or "
                              "has fewer outputs)";
    }
    in.push_back(v);
  }
  // Only variable ops take resource handles.
  bool takesHandles = op == "ReadVariableOp" || op.starts_with("Assign") ||
                      op.starts_with("ResourceApply") ||
                      op == "ResourceSparseApplyFtrl" || op == "Identity" ||
                      op == "Conv2D" || op == "DepthwiseConv2dNative" ||
                      op == "VarIsInitializedOp" || op == "IdentityN";
  takesHandles |= rule->action == OpAction::GraphInput;
  for (unsigned i = 0; i < in.size(); ++i) {
    if (!in[i] && !takesHandles) {
      return emitError(at) << "input '" << node.inputs[i].name
                           << "' is a resource handle, not a tensor";
    }
  }
  unsigned firstCreated = created.size();
  nodeFirstCreated = firstCreated;
  llvm::SmallVector<Value> results;
  emitFailed = false;

  bool isRandom = op == "RandomUniform" || op == "RandomStandardNormal" ||
                  op == "TruncatedNormal";
  if (op == "ParseExample" || op == "ParseExampleV2") {
    return importParseExample(node, at);
  }
  if (rule->action == OpAction::GraphInput && !isRandom) {
    return importDequeue(node, nd, at, in);
  }

  TFTranslator translate = lookupTranslator(rule->file);
  if (!translate) {
    return emitError(at) << "TensorFlow op '" << op
                         << "' has a planned rule but no translation yet";
  }
  Value result;
  recordResults = false;
  if (failed((this->*translate)(node, nd, at, op, in, result, results))) {
    return failure();
  }
  if (!recordResults) {
    return success();
  }

  if (emitFailed) {
    return failure();
  }
  for (unsigned i = firstCreated; i < created.size(); ++i) {
    if (failed(annotate(created[i], node))) {
      return failure();
    }
  }
  if (!results.empty()) {
    for (unsigned i = 0; i < results.size(); ++i) {
      values[node.name + ":" + std::to_string(i)] = results[i];
    }
    return success();
  }
  if (firstCreated == created.size() && !result) {
    return success();
  }
  if (!result) {
    if (rule->creates.empty() || op.starts_with("Resource") ||
        op.starts_with("Assign")) {
      return success();
    }
    return failure();
  }
  values[node.name + ":0"] = result;
  return success();
}

/// After a node failed: when it depends on placeholders whose shape is not
/// static (none in the GraphDef, or a dynamic batch), its shape arithmetic
/// could not fold; a note names them and the option that fixes them.
void GraphDefImporter::noteUnshapedInputs(unsigned index) {
  std::vector<bool> seen(graph.nodes.size(), false);
  llvm::SmallVector<unsigned> work = {index};
  llvm::SmallVector<std::string> found;
  while (!work.empty()) {
    unsigned i = work.pop_back_val();
    if (seen[i]) {
      continue;
    }
    seen[i] = true;
    const GraphNode &n = graph.nodes[i];
    if (n.op == "Placeholder" || n.op == "PlaceholderWithDefault") {
      Value v = values.lookup(n.name + ":0");
      auto type = v ? dyn_cast<ShapedType>(v.getType()) : ShapedType();
      if (type && !type.hasStaticShape()) {
        std::string text;
        llvm::raw_string_ostream os(text);
        os << "'" << n.name << "' (" << type << ")";
        found.push_back(text);
      }
    }
    for (const NodeInput &in : n.inputs) {
      if (in.producer >= 0) {
        work.push_back(in.producer);
      }
    }
    for (unsigned c : n.controlInputs) {
      work.push_back(c);
    }
  }
  if (found.empty()) {
    return;
  }
  llvm::sort(found);
  InFlightDiagnostic note = ctx->getDiagEngine().emit(
      loc(graph.nodes[index].name), DiagnosticSeverity::Note);
  note << "this node depends on input" << (found.size() > 1 ? "s " : " ");
  llvm::interleaveComma(found, note);
  note << " without a static shape; fix " << (found.size() > 1 ? "them" : "it")
       << " with --batch N (an unknown leading dimension, and a rank taken "
          "from the uses) or --input-shape=NAME:DxD... (NAME: for a scalar)";
}

LogicalResult GraphDefImporter::importCutInput(const GraphNode &node,
                                               StringRef shapeSpec) {
  const tensorflow::NodeDef &nd = def(node);
  Location at = loc(node.name);
  Type element;
  for (StringRef name : {"dtype", "T", "out_type", "DstT"}) {
    if (const tensorflow::AttrValue *a = attr(nd, name)) {
      if ((element = convertTFType(ctx, a->type()))) {
        break;
      }
    }
  }
  if (!element) {
    return emitError(at) << "--inputs: cannot tell the element type of '"
                         << node.name << "' (no dtype or T attribute)";
  }
  Type type = UnrankedTensorType::get(element);
  if (!shapeSpec.empty()) {
    llvm::SmallVector<int64_t> dims;
    llvm::SmallVector<StringRef> parts;
    shapeSpec.split(parts, 'x');
    for (StringRef part : parts) {
      int64_t size;
      if (part == "?") {
        size = ShapedType::kDynamic;
      } else if (part.getAsInteger(10, size) || size < 0) {
        return emitError(at) << "--inputs '" << node.name << ":" << shapeSpec
                             << "': bad dimension '" << part << "'";
      }
      dims.push_back(size);
    }
    type = RankedTensorType::get(dims, element);
  } else if (const tensorflow::AttrValue *shapes = attr(nd, "_output_shapes");
             shapes && shapes->list().shape_size() > 0 &&
             !shapes->list().shape(0).unknown_rank()) {
    llvm::SmallVector<int64_t> dims;
    for (const auto &d : shapes->list().shape(0).dim()) {
      dims.push_back(d.size() < 0 ? ShapedType::kDynamic : d.size());
    }
    type = RankedTensorType::get(dims, element);
  } else if (const tensorflow::AttrValue *shape = attr(nd, "shape");
             shape && shape->has_shape() && !shape->shape().unknown_rank()) {
    llvm::SmallVector<int64_t> dims;
    for (const auto &d : shape->shape().dim()) {
      dims.push_back(d.size() < 0 ? ShapedType::kDynamic : d.size());
    }
    type = RankedTensorType::get(dims, element);
  }
  // --batch fills what the graph or a signature left unknown, not what
  // --inputs spelled out.
  if (auto ranked = dyn_cast<RankedTensorType>(type);
      ranked && (shapeSpec.empty() || options.inputs.empty())) {
    llvm::SmallVector<int64_t> dims(ranked.getShape());
    fillLeadingBatch(dims, options.batch);
    type = ranked.clone(dims);
  }
  llvm::SmallVector<NamedAttribute> argAttrs = {
      builder.getNamedAttr("graph.name", builder.getStringAttr(node.name))};
  if (!nd.device().empty()) {
    std::string error;
    auto device = dist::DeviceAttr::fromString(ctx, nd.device(), error);
    if (failed(device)) {
      return emitError(at) << "bad device '" << nd.device() << "': " << error;
    }
    argAttrs.push_back(
        builder.getNamedAttr(dist::DistDialect::kDeviceAttrName, *device));
    placed.insert(node.name);
  }
  unsigned index = func.getNumArguments();
  if (failed(func.insertArgument(index, type,
                                 builder.getDictionaryAttr(argAttrs), at))) {
    return failure();
  }
  values[node.name + ":0"] = func.getArgument(index);
  return success();
}

/// A SavedModel/MetaGraphDef without --inputs/--outputs: its signature
/// (serving_default, else the first by name whose inputs all have a graphc
/// type; string inputs such as serialized tf.Example are not importable)
/// gives the inputs and outputs. A signature's outputs are named by their
/// keys (what a serving client asks for), not by the nodes that compute them.
void GraphDefImporter::chooseSignature(std::vector<std::string> &inputSpecs,
                                       std::vector<std::string> &outputSpecs,
                                       std::vector<std::string> &outputKeys) {
  if (!inputSpecs.empty() || !outputSpecs.empty() || model.signatures.empty()) {
    return;
  }
  std::vector<std::string> keys;
  // TF2's "__saved_model_init_op" only names the initializer NoOp.
  for (const auto &entry : model.signatures) {
    if (!StringRef(entry.first).starts_with("__saved_model")) {
      keys.push_back(entry.first);
    }
  }
  llvm::sort(keys);
  auto usable = [&](const tensorflow::SignatureDef &sig) {
    for (const auto &entry : sig.inputs()) {
      if (!entry.second.has_name() ||
          !convertTFType(ctx, entry.second.dtype())) {
        return false;
      }
    }
    for (const auto &entry : sig.outputs()) {
      if (!entry.second.has_name()) {
        return false;
      }
    }
    return !sig.outputs().empty();
  };
  const tensorflow::SignatureDef *chosen = nullptr;
  if (auto it = model.signatures.find("serving_default");
      it != model.signatures.end() && usable(it->second)) {
    chosen = &it->second;
  }
  for (const std::string &key : keys) {
    if (!chosen && usable(model.signatures.at(key))) {
      chosen = &model.signatures.at(key);
    }
  }
  if (chosen) {
    // Sorted by key, so the order of arguments and results is stable.
    std::vector<std::pair<std::string, std::string>> ins, outs;
    for (const auto &entry : chosen->inputs()) {
      std::string spec = parseTFInput(entry.second.name()).node.str();
      const auto &shape = entry.second.tensor_shape();
      if (!shape.unknown_rank()) {
        spec += ":";
        for (int i = 0; i < shape.dim_size(); ++i) {
          spec += (i ? "x" : "") + (shape.dim(i).size() < 0
                                        ? std::string("?")
                                        : std::to_string(shape.dim(i).size()));
        }
      }
      ins.push_back({entry.first, spec});
    }
    for (const auto &entry : chosen->outputs()) {
      outs.push_back({entry.first, entry.second.name()});
    }
    llvm::sort(ins);
    llvm::sort(outs);
    for (auto &[key, spec] : ins) {
      inputSpecs.push_back(spec);
    }
    for (auto &[key, name] : outs) {
      outputSpecs.push_back(name);
      outputKeys.push_back(key);
    }
  }
}

/// Returns the outputs from @main (those without a value are skipped unless
/// --outputs named them), then the unpaired _Sends, with their names, and
/// keeps in `graph.node_devices` the device of each imported node that
/// became no op.
LogicalResult GraphDefImporter::closeMain(
    llvm::ArrayRef<std::pair<unsigned, unsigned>> outputs, bool requested,
    llvm::ArrayRef<std::string> outputKeys, llvm::ArrayRef<unsigned> order,
    const std::vector<bool> &keep) {
  Location fileLoc = NameLoc::get(StringAttr::get(ctx, fileName));
  Block *entry = &func.getBody().front();
  llvm::SmallVector<Value> results;
  llvm::SmallVector<std::string> resultNames;
  for (auto [i, output] : llvm::enumerate(outputs)) {
    auto [node, index] = output;
    std::string key = graph.nodes[node].name + ":" + std::to_string(index);
    Value v = values.lookup(key);
    if (!v) {
      if (requested) {
        emitError(loc(graph.nodes[node].name)) << "output has no value";
        return failure();
      }
      continue;
    }
    results.push_back(v);
    resultNames.push_back(i < outputKeys.size() ? outputKeys[i]
                          : index == 0          ? graph.nodes[node].name
                                                : key);
  }
  // Nodes whose translation leaves nothing to carry a placement (NoOp,
  // Identity of a variable, queues, dropped ops, folded nodes) keep their
  // device in a module attribute, so every imported node's device survives.
  llvm::SmallVector<NamedAttribute> unplaced;
  for (unsigned index : order) {
    const GraphNode &node = graph.nodes[index];
    if (!keep[index] || node.device.empty() || placed.contains(node.name)) {
      continue;
    }
    std::string error;
    auto device = dist::DeviceAttr::fromString(ctx, node.device, error);
    if (failed(device)) {
      emitError(loc(node.name))
          << "bad device '" << node.device << "': " << error;
      return failure();
    }
    unplaced.push_back(builder.getNamedAttr(node.name, *device));
  }
  if (!unplaced.empty()) {
    module->setAttr("graph.node_devices", builder.getDictionaryAttr(unplaced));
  }
  unsigned firstSend = results.size();
  for (const Send &send : sends) {
    results.push_back(send.value);
  }
  func::ReturnOp::create(builder, fileLoc, results);
  func.setFunctionType(builder.getFunctionType(entry->getArgumentTypes(),
                                               TypeRange(ValueRange(results))));
  for (unsigned i = 0; i < sends.size(); ++i) {
    func.setResultAttr(firstSend + i, "graph.name",
                       builder.getStringAttr(sends[i].node));
    func.setResultAttr(firstSend + i, "graph.tensor_name",
                       builder.getStringAttr(sends[i].tensorName));
    if (sends[i].device.empty()) {
      continue;
    }
    std::string error;
    auto device = dist::DeviceAttr::fromString(ctx, sends[i].device, error);
    if (failed(device)) {
      emitError(fileLoc) << "bad device '" << sends[i].device << "': " << error;
      return failure();
    }
    func.setResultAttr(firstSend + i, dist::DistDialect::kDeviceAttrName,
                       *device);
  }
  // Output names travel to the job bundle's manifest.
  // `_Send`s are results too, after the requested outputs.
  llvm::SmallVector<StringRef> names(resultNames.begin(), resultNames.end());
  for (const Send &send : sends) {
    names.push_back(send.node);
  }
  func->setAttr("graph.output_names", builder.getStrArrayAttr(names));
  return success();
}

OwningOpRef<ModuleOp> GraphDefImporter::run() {
  Location fileLoc = NameLoc::get(StringAttr::get(ctx, fileName));
  if (failed(inlineFunctionCalls())) {
    return nullptr;
  }
  auto built = buildTFNodeGraph(model.graph.node(), model.path);
  if (!built) {
    emitError(fileLoc) << llvm::toString(built.takeError());
    return nullptr;
  }
  graph = std::move(*built);
  if (failed(pairSendsAndRecvs())) {
    return nullptr;
  }
  auto order =
      graph.topologicalOrder(model.path, [&](const GraphNode &n, unsigned i) {
        return graph.isTFLoopBackEdge(n, i);
      });
  if (!order) {
    emitError(fileLoc) << llvm::toString(order.takeError());
    return nullptr;
  }
  dropRendezvousEdges();

  std::vector<std::string> inputSpecs = options.inputs;
  std::vector<std::string> outputSpecs = options.outputs;
  std::vector<std::string> outputKeys;
  chooseSignature(inputSpecs, outputSpecs, outputKeys);

  if (failed(computeFrames(*order))) {
    return nullptr;
  }

  // Pick the outputs, then keep only their ancestors.
  llvm::SmallVector<std::pair<unsigned, unsigned>> outputs;
  std::vector<bool> consumed(graph.nodes.size(), false);
  for (const GraphNode &n : graph.nodes) {
    for (const NodeInput &in : n.inputs) {
      consumed[in.producer] = true;
    }
  }
  llvm::SmallVector<unsigned> roots;
  if (!outputSpecs.empty()) {
    for (StringRef spec : outputSpecs) {
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
    // Sinks that produce values are the outputs; sinks that only have
    // effects (init, save/restore_all, a train NoOp) are imported when named
    // by --outputs or --train-op, or by a MetaGraphDef's train_op collection.
    for (unsigned i = 0; i < graph.nodes.size(); ++i) {
      if (consumed[i] || !frameOf[i].empty()) { // sinks inside a loop body
        continue;
      }
      const OpRule *rule = lookupTFOp(graph.nodes[i].op);
      StringRef op = graph.nodes[i].op;
      bool producesValue = (!rule || rule->action == OpAction::Map) &&
                           op != "NoOp" && !op.starts_with("Assign") &&
                           !op.starts_with("Resource") &&
                           !op.starts_with("Apply") && op != "_Send";
      bool isSend = op == "_Send";
      if (producesValue && !isSend && !opaqueOp(graph.nodes[i])) {
        outputs.push_back({i, 0});
        roots.push_back(i);
      } else if (isSend) {
        roots.push_back(i);
      }
    }
    if (options.trainOps.empty()) {
      for (const std::string &name : model.trainOps) {
        TFInputRef ref = parseTFInput(name);
        auto it = graph.nodeByName.find(ref.node);
        if (it != graph.nodeByName.end()) {
          roots.push_back(it->second);
        }
      }
    }
  }
  // --train-op: the step's ops (variable updates) are kept as well.
  for (StringRef name : options.trainOps) {
    auto it = graph.nodeByName.find(name);
    if (it == graph.nodeByName.end()) {
      emitError(fileLoc) << "--train-op names no node '" << name << "'";
      return nullptr;
    }
    roots.push_back(it->second);
  }
  // --input-shape fixes Placeholders; a name that is none is a mistake.
  for (StringRef spec : options.inputShapes) {
    StringRef name = spec.rsplit(':').first;
    auto it = graph.nodeByName.find(name);
    if (it == graph.nodeByName.end()) {
      emitError(fileLoc) << "--input-shape names no node '" << name << "'";
      return nullptr;
    }
    StringRef op = graph.nodes[it->second].op;
    if (op != "Placeholder" && op != "PlaceholderWithDefault") {
      emitError(loc(name)) << "--input-shape names a " << op
                           << " node, not a Placeholder (--inputs=" << name
                           << ":SHAPE cuts the graph there)";
      return nullptr;
    }
  }
  // --inputs: the named nodes become arguments; what feeds them is cut off.
  for (StringRef spec : inputSpecs) {
    auto [name, shape] = spec.split(':');
    if (!graph.nodeByName.count(name)) {
      emitError(fileLoc) << "--inputs names no node '" << name << "'";
      return nullptr;
    }
    cutInputs[name] = shape.str();
  }
  std::vector<bool> keep(graph.nodes.size(), false);
  llvm::SmallVector<unsigned> work(roots.begin(), roots.end());
  while (!work.empty()) {
    unsigned i = work.pop_back_val();
    if (keep[i]) {
      continue;
    }
    keep[i] = true;
    if (cutInputs.count(graph.nodes[i].name)) {
      continue;
    }
    if (auto pair = rendezvous.find(graph.nodes[i].name);
        pair != rendezvous.end()) {
      work.push_back(pair->second.send); // a _Recv needs its _Send
    }
    for (const NodeInput &in : graph.nodes[i].inputs) {
      work.push_back(in.producer);
    }
    for (unsigned c : graph.nodes[i].controlInputs) {
      work.push_back(c);
    }
  }

  if (failed(resolveInputShapes(keep))) {
    return nullptr;
  }
  OwningOpRef<ModuleOp> owned = ModuleOp::create(fileLoc);
  module = *owned;
  builder.setInsertionPointToEnd(module.getBody());
  if (partitioned) {
    if (failed(openTasks(*order, keep)) ||
        failed(importScope(*order, "", keep)) || failed(closeTasks(outputs)) ||
        failed(freezeVariables())) {
      return nullptr;
    }
    return owned;
  }
  func = func::FuncOp::create(builder, fileLoc, "main",
                              builder.getFunctionType({}, {}));
  Block *entry = func.addEntryBlock();
  builder.setInsertionPointToStart(entry);
  if (failed(importScope(*order, "", keep))) {
    return nullptr;
  }
  if (failed(
          closeMain(outputs, !outputSpecs.empty(), outputKeys, *order, keep))) {
    return nullptr;
  }
  if (failed(freezeVariables())) {
    return nullptr;
  }
  return owned;
}

/// An inference import (nothing assigns a variable) is self-contained: each
/// variable with an initial value (a SavedModel checkpoint) is read as that
/// constant, as TensorFlow's freezing does; variables without one stay.
LogicalResult GraphDefImporter::freezeVariables() {
  bool assigns = false;
  module.walk([&](Operation *op) {
    assigns |= op->getName().getStringRef() == "graph.assign_variable";
  });
  if (assigns) {
    return success();
  }
  llvm::StringMap<DenseElementsAttr> initial;
  llvm::SmallVector<Operation *> frozen;
  for (Operation &op : module.getBody()->getOperations()) {
    if (op.getName().getStringRef() == "graph.variable") {
      if (auto value = op.getAttrOfType<DenseElementsAttr>("initial_value")) {
        initial[op.getAttrOfType<StringAttr>("sym_name").getValue()] = value;
        frozen.push_back(&op);
      }
    }
  }
  llvm::SmallVector<Operation *> reads;
  module.walk([&](Operation *op) {
    if (op->getName().getStringRef() != "graph.read_variable") {
      return;
    }
    auto symbol = op->getAttrOfType<FlatSymbolRefAttr>("variable");
    if (symbol && initial.count(symbol.getValue())) {
      reads.push_back(op);
    }
  });
  for (Operation *read : reads) {
    DenseElementsAttr value = initial.lookup(
        read->getAttrOfType<FlatSymbolRefAttr>("variable").getValue());
    OpBuilder::InsertionGuard guard(builder);
    builder.setInsertionPoint(read);
    Operation *c = createGraphOp(builder, read->getLoc(), "graph.constant", {},
                                 {builder.getNamedAttr("value", value)},
                                 {value.getElementType()});
    if (!c) {
      return failure();
    }
    // The read's placement and control inputs carry over.
    for (NamedAttribute a : read->getDiscardableAttrs()) {
      c->setAttr(a.getName(), a.getValue());
    }
    read->getResult(0).replaceAllUsesWith(c->getResult(0));
    read->erase();
  }
  for (Operation *op : frozen) {
    op->erase();
  }
  return success();
}

OwningOpRef<ModuleOp> importGraphDef(StringRef path, ModelFormat format,
                                     MLIRContext &context,
                                     const ImportOptions &options) {
  context.loadAllAvailableDialects();
  auto model = readTFModel(path, format, options.limits);
  if (!model) {
    emitError(NameLoc::get(
        StringAttr::get(&context, llvm::sys::path::filename(path.rtrim('/')))))
        << llvm::toString(model.takeError());
    return nullptr;
  }
  return GraphDefImporter(context, *model, options).run();
}

} // namespace graphc::import
