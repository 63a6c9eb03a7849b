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
    op->setAttr("dist.device", *device);
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
  auto need = [&](unsigned n) -> LogicalResult {
    if (in.size() < n) {
      return emitError(at) << op << " needs " << n << " inputs, has "
                           << in.size();
    }
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
  emitFailed = false;

  bool isRandom = op == "RandomUniform" || op == "RandomStandardNormal" ||
                  op == "TruncatedNormal";
  if (op == "ParseExample" || op == "ParseExampleV2") {
    return importParseExample(node, at);
  }
  if (rule->action == OpAction::GraphInput && !isRandom) {
    // A dequeue's components become arguments; the queue itself vanishes.
    if (op.starts_with("QueueDequeue")) {
      const tensorflow::AttrValue *types = attr(nd, "component_types");
      if (!types) {
        return emitError(at) << "dequeue has no component_types";
      }
      const tensorflow::AttrValue *shapes = attr(nd, "_output_shapes");
      for (int i = 0; i < types->list().type_size(); ++i) {
        Type element = convertTFType(ctx, types->list().type(i));
        if (!element) {
          return emitError(at)
                 << "queue component " << i << " has an unsupported type";
        }
        Type type = UnrankedTensorType::get(element);
        if (shapes && i < shapes->list().shape_size() &&
            !shapes->list().shape(i).unknown_rank()) {
          llvm::SmallVector<int64_t> dims;
          for (const auto &d : shapes->list().shape(i).dim()) {
            dims.push_back(d.size() < 0 ? ShapedType::kDynamic : d.size());
          }
          type = RankedTensorType::get(dims, element);
        } else if (!node.inputs.empty() && node.inputs[0].producer >= 0) {
          // The queue's component shapes, batched by n for DequeueMany.
          const tensorflow::AttrValue *queueShapes =
              attr(def(graph.nodes[node.inputs[0].producer]), "shapes");
          if (queueShapes && i < queueShapes->list().shape_size() &&
              !queueShapes->list().shape(i).unknown_rank()) {
            llvm::SmallVector<int64_t> dims;
            if (op != "QueueDequeueV2") {
              auto n = in.size() > 1 ? constInts(in[1]) : std::nullopt;
              dims.push_back(op == "QueueDequeueManyV2" && n && n->size() == 1
                                 ? (*n)[0]
                                 : ShapedType::kDynamic);
            }
            for (const auto &d : queueShapes->list().shape(i).dim()) {
              dims.push_back(d.size() < 0 ? ShapedType::kDynamic : d.size());
            }
            type = RankedTensorType::get(dims, element);
          }
        }
        unsigned index = func.getNumArguments();
        llvm::SmallVector<NamedAttribute> argAttrs = {
            named("graph.name",
                  builder.getStringAttr(node.name + ":" + std::to_string(i)))};
        if (!nd.device().empty()) {
          std::string error;
          auto device = dist::DeviceAttr::fromString(ctx, nd.device(), error);
          if (failed(device)) {
            return emitError(at)
                   << "bad device '" << nd.device() << "': " << error;
          }
          argAttrs.push_back(named("dist.device", *device));
          placed.insert(node.name);
        }
        if (failed(func.insertArgument(
                index, type, builder.getDictionaryAttr(argAttrs), at))) {
          return failure();
        }
        values[node.name + ":" + std::to_string(i)] = func.getArgument(index);
      }
    }
    return success();
  }

  // Integer arithmetic on constants (shape computations of gradient graphs)
  // is folded here, so Reshape/Sum/Tile downstream see constant operands.
  if (in.size() >= 2 && in[0] && in[1] &&
      (op == "Add" || op == "AddV2" || op == "Sub" || op == "Mul" ||
       op == "FloorDiv" || op == "FloorMod" || op == "Maximum" ||
       op == "Minimum" || op == "Div" || op == "RealDiv")) {
    auto a = constTensor(in[0]), b = constTensor(in[1]);
    if (a && b && !getElementType(in[0]).isInteger(1)) {
      IntTensor r;
      size_t rank = std::max(a->shape.size(), b->shape.size());
      r.shape.assign(rank, 1);
      auto dimOf = [&](const IntTensor &t, size_t i) -> int64_t {
        size_t off = rank - t.shape.size();
        return i < off ? 1 : t.shape[i - off];
      };
      for (size_t i = 0; i < rank; ++i) {
        int64_t x = dimOf(*a, i), y = dimOf(*b, i);
        if (x != y && x != 1 && y != 1) {
          return emitError(at) << op << ": shapes do not broadcast";
        }
        r.shape[i] = x == 1 ? y : x;
      }
      int64_t count = 1;
      for (int64_t d : r.shape) {
        count *= d;
      }
      auto at_ = [&](const IntTensor &t, int64_t flat) {
        int64_t index = 0, stride = 1;
        size_t off = rank - t.shape.size();
        for (size_t i = rank; i-- > 0;) {
          int64_t coord = flat % r.shape[i];
          flat /= r.shape[i];
          if (i >= off) {
            int64_t d = t.shape[i - off];
            index += (d == 1 ? 0 : coord) * stride;
            stride *= d;
          }
        }
        return t.data[index];
      };
      for (int64_t f = 0; f < count; ++f) {
        int64_t x = at_(*a, f), y = at_(*b, f), v;
        if ((op == "FloorDiv" || op == "FloorMod" || op == "Div" ||
             op == "RealDiv") &&
            y == 0) {
          return emitError(at) << op << ": division by zero in a constant";
        }
        if (op == "Add" || op == "AddV2") {
          v = x + y;
        } else if (op == "Sub") {
          v = x - y;
        } else if (op == "Mul") {
          v = x * y;
        } else if (op == "Maximum") {
          v = std::max(x, y);
        } else if (op == "Minimum") {
          v = std::min(x, y);
        } else if (op == "FloorMod") {
          v = ((x % y) + y) % y;
        } else if (op == "Div") {
          v = x / y; // TF's integer Div truncates
        } else {
          v = x / y;
          if ((x % y != 0) && ((x < 0) != (y < 0))) {
            --v;
          }
        }
        r.data.push_back(v);
      }
      Value c = intConst(at, r, getElementType(in[0]));
      if (!c) {
        return failure();
      }
      values[node.name + ":0"] = c;
      return annotate(c.getDefiningOp(), node);
    }
  }

  // Data movement of integer constants folds too.
  if (!in.empty() && in[0]) {
    auto c = constTensor(in[0]);
    Type element = c ? getElementType(in[0]) : Type();
    std::optional<IntTensor> folded;
    if (c && (op == "Identity" || op == "StopGradient" || op == "Snapshot")) {
      folded = c;
    } else if (c && op == "Cast") {
      const tensorflow::AttrValue *dst = attr(nd, "DstT");
      Type to = dst ? convertTFType(ctx, dst->type()) : Type();
      if (to && isa<IntegerType>(to) && !to.isInteger(1)) {
        folded = c;
        element = to;
      }
    } else if (c && op == "Reshape" && in.size() > 1) {
      auto shape = constInts(in[1]);
      int64_t known = 1, unknown = -1;
      if (shape) {
        for (unsigned i = 0; i < shape->size(); ++i) {
          if ((*shape)[i] == -1) {
            unknown = i;
          } else {
            known *= (*shape)[i];
          }
        }
        if (known != 0) {
          folded = c;
          folded->shape = *shape;
          if (unknown >= 0) {
            folded->shape[unknown] = int64_t(c->data.size()) / known;
          }
        }
      }
    } else if (c && op == "Slice" && in.size() > 2 && c->shape.size() == 1) {
      auto begin = constInts(in[1]), size = constInts(in[2]);
      if (begin && size && begin->size() == 1 && size->size() == 1) {
        int64_t b = (*begin)[0];
        int64_t e = (*size)[0] == -1 ? int64_t(c->data.size()) : b + (*size)[0];
        if (b >= 0 && b <= e && e <= int64_t(c->data.size())) {
          folded = IntTensor{{e - b}, {}};
          folded->data.assign(c->data.begin() + b, c->data.begin() + e);
        }
      }
    } else if ((op == "ConcatV2" || op == "Concat") && in.size() > 2) {
      // ConcatV2 takes the axis last, TF1's Concat first.
      bool v2 = op == "ConcatV2";
      auto axis = constInts(v2 ? in.back() : in.front());
      llvm::ArrayRef<Value> parts = llvm::ArrayRef<Value>(in)
                                        .drop_front(v2 ? 0 : 1)
                                        .drop_back(v2 ? 1 : 0);
      IntTensor t;
      bool ok =
          axis && axis->size() == 1 && ((*axis)[0] == 0 || (*axis)[0] == -1);
      for (Value v : parts) {
        auto part = ok && v ? constTensor(v) : std::nullopt;
        ok = part && part->shape.size() == 1;
        if (ok) {
          t.data.append(part->data.begin(), part->data.end());
        }
      }
      if (ok) {
        t.shape = {int64_t(t.data.size())};
        folded = t;
        element = getElementType(parts.front());
      }
    }
    if (folded) {
      Value v = intConst(at, *folded, element);
      if (!v) {
        return failure();
      }
      values[node.name + ":0"] = v;
      return annotate(v.getDefiningOp(), node);
    }
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
    bool binary =
        !(simple == "graph.identity" || op == "Abs" || op == "Neg" ||
          op == "Exp" || op == "Log" || op == "Sqrt" || op == "Rsqrt" ||
          op == "Reciprocal" || op == "Inv" || op == "Tanh" ||
          op == "Sigmoid" || op == "Relu" || op == "Erf" || op == "Floor" ||
          op == "Ceil" || op == "Round" || op == "Sign" || op == "Sin" ||
          op == "Cos" || op == "Softplus" || op == "LogicalNot");
    if (failed(need(binary ? 2 : 1))) {
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
  } else if (op == "IdentityN") {
    // Each input passes through: tensors, variable handles and opaque
    // (string) values alike. Inlined function calls end in one.
    for (unsigned i = 0; i < in.size(); ++i) {
      std::string key = node.name + ":" + std::to_string(i);
      if (auto it = variableOf.find(inKeys[i]); it != variableOf.end()) {
        variableOf[key] = it->second;
      }
      if (auto it = opaque.find(inKeys[i]); it != opaque.end()) {
        opaque[key] = it->second;
      }
      if (in[i]) {
        values[key] = in[i];
      }
    }
    return success();
  } else if (op == "AddN") {
    if (failed(need(1))) {
      return failure();
    }
    result = in[0];
    for (unsigned i = 1; i < in.size() && result; ++i) {
      result = emit(at, "graph.add", {result, in[i]}, {});
    }
  } else if (op == "Square") {
    if (failed(need(1))) {
      return failure();
    }
    result = emit(at, "graph.mul", {in[0], in[0]}, {});
  } else if (op == "SquaredDifference") {
    if (failed(need(2))) {
      return failure();
    }
    Value d = emit(at, "graph.sub", {in[0], in[1]}, {});
    result = d ? emit(at, "graph.mul", {d, d}, {}) : Value();
  } else if (op == "Const") {
    const tensorflow::AttrValue *value = attr(nd, "value");
    if (!value || !value->has_tensor()) {
      return emitError(at) << "Const has no tensor value";
    }
    if (!convertTFType(ctx, value->tensor().dtype())) {
      // Strings (Save/Restore paths, summary tags) only matter to the ops
      // that read them; an error is raised if a translated op does.
      opaque[node.name + ":0"] =
          "a " + tensorflow::DataType_Name(value->tensor().dtype()) +
          " constant";
      return success();
    }
    auto dense = convertTensor(value->tensor(), at);
    if (failed(dense)) {
      return failure();
    }
    result = emit(at, "graph.constant", {}, {named("value", *dense)},
                  dense->getElementType());
  } else if (op == "Placeholder" || op == "PlaceholderWithDefault") {
    const tensorflow::AttrValue *dtype = attr(nd, "dtype");
    if (dtype && !convertTFType(ctx, dtype->type())) {
      opaque[node.name + ":0"] =
          "a " + tensorflow::DataType_Name(dtype->type()) + " placeholder";
      return success();
    }
    auto type = placeholderType(nd, at);
    if (failed(type)) {
      return failure();
    }
    unsigned index = func.getNumArguments();
    llvm::SmallVector<NamedAttribute> argAttrs = {
        named("graph.name", builder.getStringAttr(node.name))};
    if (!nd.device().empty()) {
      std::string error;
      auto device = dist::DeviceAttr::fromString(ctx, nd.device(), error);
      if (failed(device)) {
        return emitError(at) << "bad device '" << nd.device() << "': " << error;
      }
      argAttrs.push_back(named("dist.device", *device));
      placed.insert(node.name);
    }
    if (failed(func.insertArgument(index, *type,
                                   builder.getDictionaryAttr(argAttrs), at))) {
      return failure();
    }
    values[node.name + ":0"] = func.getArgument(index);
    return success();
  } else if (op == "NoOp") {
    return success();
  } else if (op == "MatMul" || op == "BatchMatMul" || op == "BatchMatMulV2") {
    if (failed(need(2))) {
      return failure();
    }
    llvm::SmallVector<NamedAttribute> attrs;
    if (boolAttr("transpose_a") || boolAttr("adj_x")) {
      attrs.push_back(named("transpose_lhs", builder.getUnitAttr()));
    }
    if (boolAttr("transpose_b") || boolAttr("adj_y")) {
      attrs.push_back(named("transpose_rhs", builder.getUnitAttr()));
    }
    result = emit(at, "graph.matmul", {in[0], in[1]}, attrs);
  } else if (op == "Softmax" || op == "LogSoftmax") {
    if (failed(need(1))) {
      return failure();
    }
    result = emit(at, op == "Softmax" ? "graph.softmax" : "graph.log_softmax",
                  {in[0]}, {named("axis", builder.getI64IntegerAttr(-1))});
  } else if (op == "Reshape") {
    if (failed(need(2))) {
      return failure();
    }
    auto shape = constInts(in[1]);
    if (shape) {
      result = emit(at, "graph.reshape", {in[0]},
                    {named("shape", builder.getDenseI64ArrayAttr(*shape))});
    } else {
      Value target = in[1];
      Type i64 = IntegerType::get(ctx, 64);
      if (getElementType(target) != i64) {
        target = emit(at, "graph.cast", {target},
                      {named("to", TypeAttr::get(i64))}, i64);
      }
      result = target ? emit(at, "graph.dynamic_reshape", {in[0], target}, {})
                      : Value();
    }
  } else if (op == "ConcatV2" || op == "Concat") {
    if (failed(need(2))) {
      return failure();
    }
    // ConcatV2 takes the axis last, Concat first.
    Value axisValue = op == "ConcatV2" ? in.back() : in.front();
    auto axis = constInts(axisValue);
    if (!axis || axis->size() != 1) {
      return emitError(at) << op << " needs a constant scalar axis";
    }
    llvm::SmallVector<Value> parts(op == "ConcatV2" ? in.begin()
                                                    : in.begin() + 1,
                                   op == "ConcatV2" ? in.end() - 1 : in.end());
    result = emit(at, "graph.concat", parts,
                  {named("axis", builder.getI64IntegerAttr((*axis)[0]))});
  } else if (op == "Cast") {
    if (failed(need(1))) {
      return failure();
    }
    const tensorflow::AttrValue *dst = attr(nd, "DstT");
    Type to = dst ? convertTFType(ctx, dst->type()) : Type();
    if (!to) {
      return emitError(at) << "Cast to an unsupported type";
    }
    result =
        emit(at, "graph.cast", {in[0]}, {named("to", TypeAttr::get(to))}, to);
  } else if (op == "Variable" || op == "VariableV2" || op == "VarHandleOp") {
    auto symbol = declareVariable(node, at);
    if (failed(symbol)) {
      return failure();
    }
    variableOf[node.name + ":0"] = *symbol;
    if (op == "VarHandleOp") {
      return success(); // a handle: reads go through ReadVariableOp
    }
    result = readVariable(at, *symbol);
    if (!result) {
      return failure();
    }
  } else if (op == "ReadVariableOp") {
    if (failed(need(1))) {
      return failure();
    }
    auto symbol = variableFor(0, at);
    if (failed(symbol)) {
      return failure();
    }
    result = readVariable(at, *symbol);
  } else if (op == "Assign" || op == "AssignAdd" || op == "AssignSub" ||
             op == "AssignVariableOp" || op == "AssignAddVariableOp" ||
             op == "AssignSubVariableOp") {
    if (failed(need(2))) {
      return failure();
    }
    auto symbol = variableFor(0, at);
    if (failed(symbol)) {
      return failure();
    }
    if (!in[1]) {
      return emitError(at) << "assigned value is not a tensor";
    }
    StringRef mode = op.contains("Add")   ? "add"
                     : op.contains("Sub") ? "sub"
                                          : "set";
    Attribute modeAttr =
        parseAttr(ctx, at, ("#graph<assign_mode " + mode + ">").str());
    if (!modeAttr) {
      return failure();
    }
    std::optional<RegisteredOperationName> name =
        RegisteredOperationName::lookup("graph.assign_variable", ctx);
    if (!name) {
      return emitError(at)
             << "importing assignments needs graph.assign_variable";
    }
    OperationState state(at, *name);
    state.addOperands(in[1]);
    state.addAttribute("variable", *symbol);
    state.addAttribute("mode", modeAttr);
    Operation *assign = builder.create(state);
    created.push_back(assign);
    if (!op.ends_with("VariableOp")) {
      result = in[1]; // the ref output: the assigned value
    }
  } else if (op == "SparseApplyFtrl" || op == "ResourceSparseApplyFtrl") {
    // TF: var accum linear grad indices lr l1 l2 lr_power. The rows named
    // by `indices` take an FTRL step: they are gathered from the three
    // variables, updated with graph.ftrl_update, and scattered back. TF
    // applies a row named twice twice, in order; here each such row takes
    // one step from its old value (scatter_nd's last write wins) -- TF's
    // own optimizers pass unique indices (Unique + UnsortedSegmentSum).
    if (failed(need(9))) {
      return failure();
    }
    if (boolAttr("multiply_linear_by_lr")) {
      return emitError(at) << op
                           << " with multiply_linear_by_lr is not "
                              "supported";
    }
    auto indexType = dyn_cast<RankedTensorType>(in[4].getType());
    if (!indexType || indexType.getRank() != 1) {
      return emitError(at) << op << ": indices must be a vector, not "
                           << in[4].getType();
    }
    llvm::SmallVector<FlatSymbolRefAttr> vars;
    llvm::SmallVector<Value> rows;
    llvm::SmallVector<Value> whole;
    for (unsigned i = 0; i < 3; ++i) {
      auto symbol = variableFor(i, at);
      if (failed(symbol)) {
        return failure();
      }
      vars.push_back(*symbol);
      Value read = readVariable(at, *symbol);
      Value row = read ? emit(at, "graph.gather", {read, in[4]},
                              {named("axis", builder.getI64IntegerAttr(0))})
                       : Value();
      if (!row) {
        return failure();
      }
      whole.push_back(read);
      rows.push_back(row);
    }
    std::optional<RegisteredOperationName> name =
        RegisteredOperationName::lookup("graph.ftrl_update", ctx);
    std::optional<RegisteredOperationName> assignName =
        RegisteredOperationName::lookup("graph.assign_variable", ctx);
    Attribute set = parseAttr(ctx, at, "#graph<assign_mode set>");
    if (!name || !assignName || !set) {
      return emitError(at) << "importing " << op
                           << " needs graph.ftrl_update and "
                              "graph.assign_variable";
    }
    OperationState st(at, *name);
    st.addOperands(
        {rows[0], rows[1], rows[2], in[3], in[5], in[6], in[7], in[8]});
    for (Value row : rows) {
      st.addTypes(row.getType());
    }
    Operation *upd = builder.create(st);
    created.push_back(upd);
    if (failed(mlir::verify(upd))) {
      return failure();
    }
    Value index = emit(at, "graph.unsqueeze", {in[4]},
                       {named("axes", builder.getDenseI64ArrayAttr({1}))});
    if (!index) {
      return failure();
    }
    for (unsigned i = 0; i < 3; ++i) {
      Value updated = emit(at, "graph.scatter_nd",
                           {whole[i], index, upd->getResult(i)}, {});
      if (!updated) {
        return failure();
      }
      OperationState as(at, *assignName);
      as.addOperands(updated);
      as.addAttribute("variable", vars[i]);
      as.addAttribute("mode", set);
      created.push_back(builder.create(as));
      if (i == 0 && !op.starts_with("Resource")) {
        result = updated;
      }
    }
  } else if (op == "ApplyGradientDescent" ||
             op == "ResourceApplyGradientDescent" || op == "ApplyAdam" ||
             op == "ResourceApplyAdam" || op == "ApplyFtrl" ||
             op == "ResourceApplyFtrl" || op == "ApplyMomentum" ||
             op == "ResourceApplyMomentum") {
    // Operand order (TF): var, [slots...], hyper-parameters, grad.
    unsigned slots = op.contains("Adam")       ? 2
                     : op.contains("Ftrl")     ? 2
                     : op.contains("Momentum") ? 1
                                               : 0;
    if (failed(need(1 + slots))) {
      return failure();
    }
    llvm::SmallVector<FlatSymbolRefAttr> vars;
    llvm::SmallVector<Value> state;
    for (unsigned i = 0; i <= slots; ++i) {
      auto symbol = variableFor(i, at);
      if (failed(symbol)) {
        return failure();
      }
      vars.push_back(*symbol);
      Value read = readVariable(at, *symbol);
      if (!read) {
        return failure();
      }
      state.push_back(read);
    }
    llvm::SmallVector<Value> operands;
    StringRef update;
    if (op.contains("GradientDescent")) {
      if (failed(need(3))) {
        return failure();
      }
      update = "graph.sgd_update"; // (param, grad, lr)
      operands = {state[0], in[2], in[1]};
    } else if (op.contains("Adam")) {
      // TF: var m v beta1_power beta2_power lr beta1 beta2 epsilon grad
      if (failed(need(10))) {
        return failure();
      }
      update = "graph.adam_update";
      operands = {state[0], state[1], state[2], in[9], in[5],
                  in[6],    in[7],    in[8],    in[3], in[4]};
    } else if (op.contains("Ftrl")) {
      // TF: var accum linear grad lr l1 l2 lr_power
      if (failed(need(8))) {
        return failure();
      }
      update = "graph.ftrl_update";
      operands = {state[0], state[1], state[2], in[3],
                  in[4],    in[5],    in[6],    in[7]};
    } else {
      // TF: var accum lr grad momentum
      if (failed(need(5))) {
        return failure();
      }
      update = "graph.momentum_update";
      operands = {state[0], state[1], in[3], in[2], in[4]};
    }
    std::optional<RegisteredOperationName> name =
        RegisteredOperationName::lookup(update, ctx);
    if (!name) {
      return emitError(at) << "importing " << op << " needs " << update;
    }
    OperationState st(at, *name);
    st.addOperands(operands);
    if (op.contains("Momentum") && boolAttr("use_nesterov")) {
      st.addAttribute("nesterov", builder.getUnitAttr());
    }
    for (unsigned i = 0; i <= slots; ++i) {
      st.addTypes(state[i].getType());
    }
    Operation *upd = builder.create(st);
    created.push_back(upd);
    Attribute set = parseAttr(ctx, at, "#graph<assign_mode set>");
    std::optional<RegisteredOperationName> assignName =
        RegisteredOperationName::lookup("graph.assign_variable", ctx);
    if (!set || !assignName) {
      return failure();
    }
    for (unsigned i = 0; i <= slots; ++i) {
      OperationState as(at, *assignName);
      as.addOperands(upd->getResult(i));
      as.addAttribute("variable", vars[i]);
      as.addAttribute("mode", set);
      created.push_back(builder.create(as));
    }
    if (!op.starts_with("Resource")) {
      result = upd->getResult(0);
    }
  } else if (op == "Shape" || op == "Size" || op == "Rank") {
    if (failed(need(1))) {
      return failure();
    }
    const tensorflow::AttrValue *outType = attr(nd, "out_type");
    Type element = outType ? convertTFType(ctx, outType->type())
                           : IntegerType::get(ctx, 32);
    if (!element) {
      element = IntegerType::get(ctx, 32);
    }
    auto shape = getShape(in[0]);
    if (shape && !llvm::is_contained(*shape, ShapedType::kDynamic)) {
      IntTensor t;
      if (op == "Shape") {
        t.shape = {int64_t(shape->size())};
        t.data.assign(shape->begin(), shape->end());
      } else if (op == "Size") {
        int64_t n = 1;
        for (int64_t d : *shape) {
          n *= d;
        }
        t.data = {n};
      } else {
        t.data = {int64_t(shape->size())};
      }
      result = intConst(at, t, element);
    } else if (op == "Rank" && shape) {
      result = intConst(at, {{}, {int64_t(shape->size())}}, element);
    } else if (op == "Shape") {
      result = emit(at, "graph.shape", {in[0]}, {}, element);
      if (result && getElementType(result) != element) {
        result = emit(at, "graph.cast", {result},
                      {named("to", TypeAttr::get(element))}, element);
      }
    } else {
      return emitError(at) << op
                           << " of a tensor with a dynamic shape "
                              "is not supported";
    }
  } else if (op == "ExpandDims") {
    if (failed(need(2))) {
      return failure();
    }
    auto axis = constInts(in[1]);
    auto shape = getShape(in[0]);
    if (!axis || axis->size() != 1 || !shape) {
      return emitError(at) << "ExpandDims needs a constant axis and a ranked "
                              "input";
    }
    int64_t a =
        (*axis)[0] < 0 ? (*axis)[0] + int64_t(shape->size()) + 1 : (*axis)[0];
    if (auto c = constTensor(in[0])) {
      c->shape.insert(c->shape.begin() + a, 1);
      result = intConst(at, *c, getElementType(in[0]));
    } else {
      result = emit(at, "graph.unsqueeze", {in[0]},
                    {named("axes", builder.getDenseI64ArrayAttr({a}))});
    }
  } else if (op == "Squeeze") {
    if (failed(need(1))) {
      return failure();
    }
    auto shape = getShape(in[0]);
    if (!shape) {
      return emitError(at) << "Squeeze needs a ranked input";
    }
    llvm::SmallVector<int64_t> axes;
    if (const tensorflow::AttrValue *dims = attr(nd, "squeeze_dims")) {
      for (int64_t d : dims->list().i()) {
        axes.push_back(d < 0 ? d + int64_t(shape->size()) : d);
      }
    }
    if (axes.empty()) {
      for (unsigned i = 0; i < shape->size(); ++i) {
        if ((*shape)[i] == 1) {
          axes.push_back(i);
        }
      }
    }
    llvm::sort(axes);
    result = emit(at, "graph.squeeze", {in[0]},
                  {named("axes", builder.getDenseI64ArrayAttr(axes))});
  } else if (op == "Pack") {
    if (failed(need(1))) {
      return failure();
    }
    const tensorflow::AttrValue *axisAttr = attr(nd, "axis");
    int64_t axis = axisAttr ? axisAttr->i() : 0;
    auto shape = getShape(in[0]);
    if (!shape) {
      return emitError(at) << "Pack needs ranked inputs";
    }
    if (axis < 0) {
      axis += int64_t(shape->size()) + 1;
    }
    if (axis < 0 || axis > int64_t(shape->size())) {
      return emitError(at) << "Pack axis " << (axisAttr ? axisAttr->i() : 0)
                           << " is out of range for rank " << shape->size()
                           << " inputs";
    }
    // All-constant integer packs (shapes) fold.
    llvm::SmallVector<IntTensor> parts;
    for (Value v : in) {
      if (auto c = constTensor(v)) {
        parts.push_back(*c);
      }
    }
    bool sameShape = parts.size() == in.size();
    for (const IntTensor &p : parts) {
      sameShape &= p.shape == parts.front().shape;
    }
    if (sameShape) {
      // Stacking along `axis`: the outer block of each part in turn.
      IntTensor t;
      t.shape = parts.front().shape;
      t.shape.insert(t.shape.begin() + axis, int64_t(parts.size()));
      int64_t inner = 1;
      for (size_t i = axis; i < parts.front().shape.size(); ++i) {
        inner *= parts.front().shape[i];
      }
      int64_t outer = inner ? int64_t(parts.front().data.size()) / inner : 0;
      for (int64_t o = 0; o < outer; ++o) {
        for (const IntTensor &p : parts) {
          t.data.append(p.data.begin() + o * inner,
                        p.data.begin() + (o + 1) * inner);
        }
      }
      result = intConst(at, t, getElementType(in[0]));
    } else {
      llvm::SmallVector<Value> expanded;
      for (Value v : in) {
        Value e = emit(at, "graph.unsqueeze", {v},
                       {named("axes", builder.getDenseI64ArrayAttr({axis}))});
        if (!e) {
          return failure();
        }
        expanded.push_back(e);
      }
      result = expanded.size() == 1
                   ? expanded[0]
                   : emit(at, "graph.concat", expanded,
                          {named("axis", builder.getI64IntegerAttr(axis))});
    }
  } else if (op == "Unpack") {
    if (failed(need(1))) {
      return failure();
    }
    auto shape = getShape(in[0]);
    const tensorflow::AttrValue *axisAttr = attr(nd, "axis");
    int64_t axis = axisAttr ? axisAttr->i() : 0;
    if (!shape) {
      return emitError(at) << "Unpack needs a ranked input";
    }
    if (axis < 0) {
      axis += int64_t(shape->size());
    }
    const tensorflow::AttrValue *num = attr(nd, "num");
    int64_t n = num ? num->i() : (*shape)[axis];
    if (n <= 0) {
      return emitError(at) << "Unpack needs a static count";
    }
    llvm::SmallVector<int64_t> sizes(n, 1);
    Operation *split =
        createGraphOp(builder, at, "graph.split", {in[0]},
                      {named("axis", builder.getI64IntegerAttr(axis)),
                       named("sizes", builder.getDenseI64ArrayAttr(sizes))},
                      llvm::SmallVector<Type>(n, getElementType(in[0])));
    if (!split) {
      return failure();
    }
    created.push_back(split);
    for (Value part : split->getResults()) {
      Value s = emit(at, "graph.squeeze", {part},
                     {named("axes", builder.getDenseI64ArrayAttr({axis}))});
      if (!s) {
        return failure();
      }
      results.push_back(s);
    }
  } else if (op == "Fill") {
    if (failed(need(2))) {
      return failure();
    }
    auto dims = constInts(in[0]);
    if (!dims) {
      return emitError(at) << "Fill needs constant dims";
    }
    DenseElementsAttr scalar;
    if (matchPattern(in[1], m_Constant(&scalar)) && scalar.isSplat()) {
      auto type = RankedTensorType::get(*dims, scalar.getElementType());
      result =
          emit(at, "graph.constant", {},
               {named("value", DenseElementsAttr::get(
                                   type, scalar.getSplatValue<Attribute>()))},
               scalar.getElementType());
    } else {
      result = emit(at, "graph.broadcast_to", {in[1]},
                    {named("shape", builder.getDenseI64ArrayAttr(*dims))});
    }
  } else if (op == "ZerosLike" || op == "OnesLike") {
    if (failed(need(1))) {
      return failure();
    }
    auto shape = getShape(in[0]);
    if (!shape || llvm::is_contained(*shape, ShapedType::kDynamic)) {
      return emitError(at) << op << " needs a static shape";
    }
    result = splat(at, op == "OnesLike" ? 1 : 0, getElementType(in[0]), *shape);
  } else if (op == "IsVariableInitialized" || op == "VarIsInitializedOp") {
    // Imported variables always hold a value.
    result = splat(at, 1, IntegerType::get(ctx, 1));
  } else if (op == "Transpose") {
    if (failed(need(2))) {
      return failure();
    }
    auto perm = constInts(in[1]);
    if (!perm) {
      return emitError(at) << "Transpose needs a constant perm";
    }
    result = transpose(at, in[0], *perm);
  } else if (op == "Select" || op == "SelectV2") {
    if (failed(need(3))) {
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
    if (failed(need(2))) {
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
  } else if (op == "Sum" || op == "Mean" || op == "Max" || op == "Min" ||
             op == "Prod") {
    if (failed(need(2))) {
      return failure();
    }
    auto axes = constInts(in[1]);
    auto shape = getShape(in[0]);
    if (!axes || !shape) {
      return emitError(at) << op
                           << " needs constant reduction_indices and a "
                              "ranked input";
    }
    llvm::SmallVector<int64_t> norm;
    for (int64_t a : *axes) {
      norm.push_back(a < 0 ? a + int64_t(shape->size()) : a);
    }
    llvm::sort(norm);
    norm.erase(std::unique(norm.begin(), norm.end()), norm.end());
    bool keep = boolAttr("keep_dims");
    auto c = constTensor(in[0]);
    if (c && (op == "Prod" || op == "Sum") && norm.size() == shape->size() &&
        !keep) {
      int64_t v = op == "Prod" ? 1 : 0;
      for (int64_t x : c->data) {
        v = op == "Prod" ? v * x : v + x;
      }
      result = intConst(at, {{}, {v}}, getElementType(in[0]));
    } else if (norm.empty()) {
      result = emit(at, "graph.identity", {in[0]}, {});
    } else {
      result = reduce(at, in[0], op.lower(), norm, keep);
    }
  } else if (op == "ArgMax" || op == "ArgMin") {
    if (failed(need(2))) {
      return failure();
    }
    auto axis = constInts(in[1]);
    if (!axis || axis->size() != 1) {
      return emitError(at) << op << " needs a constant axis";
    }
    Attribute kind = parseAttr(ctx, at,
                               op == "ArgMax" ? "#graph<reduce_kind max>"
                                              : "#graph<reduce_kind min>");
    if (!kind) {
      return failure();
    }
    result = emit(at, "graph.arg_reduce", {in[0]},
                  {named("kind", kind),
                   named("axis", builder.getI64IntegerAttr((*axis)[0]))},
                  IntegerType::get(ctx, 64));
    const tensorflow::AttrValue *outType = attr(nd, "output_type");
    if (result && outType && outType->type() == tensorflow::DT_INT32) {
      result = emit(at, "graph.cast", {result},
                    {named("to", TypeAttr::get(IntegerType::get(ctx, 32)))},
                    IntegerType::get(ctx, 32));
    }
  } else if (op == "ReluGrad") {
    // ReluGrad(g, x) = select(x > 0, g, 0)
    if (failed(need(2))) {
      return failure();
    }
    Value zero = splat(at, 0, getElementType(in[1]));
    Value pos = zero ? compare(at, in[1], zero, "gt") : Value();
    result = pos ? emit(at, "graph.select", {pos, in[0], zero}, {},
                        getElementType(in[0]))
                 : Value();
  } else if (op == "Relu6") {
    if (failed(need(1))) {
      return failure();
    }
    Value lo = splat(at, 0, getElementType(in[0]));
    Value hi = splat(at, 6, getElementType(in[0]));
    result = emit(at, "graph.clamp", {in[0], lo, hi}, {});
  } else if (op == "SigmoidGrad" || op == "TanhGrad") {
    // SigmoidGrad(y, dy) = dy * y * (1 - y); TanhGrad(y, dy) = dy * (1 - y^2)
    if (failed(need(2))) {
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
    if (failed(need(1))) {
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
  } else if (op == "BiasAddGrad") {
    if (failed(need(1))) {
      return failure();
    }
    auto shape = getShape(in[0]);
    if (!shape) {
      return emitError(at) << "BiasAddGrad needs a ranked input";
    }
    const tensorflow::AttrValue *format = attr(nd, "data_format");
    int64_t channel = format && format->s() == "NCHW" ? 1 : shape->size() - 1;
    llvm::SmallVector<int64_t> axes;
    for (int64_t i = 0; i < int64_t(shape->size()); ++i) {
      if (i != channel) {
        axes.push_back(i);
      }
    }
    result = reduce(at, in[0], "sum", axes, false);
  } else if (op == "BroadcastGradientArgs") {
    // The reduction axes of each operand's gradient, from static shapes.
    if (failed(need(2))) {
      return failure();
    }
    auto s0 = constTensor(in[0]), s1 = constTensor(in[1]);
    if (!s0 || !s1) {
      return emitError(at) << "BroadcastGradientArgs needs static shapes";
    }
    size_t rank = std::max(s0->data.size(), s1->data.size());
    IntTensor r0, r1;
    for (size_t i = 0; i < rank; ++i) {
      size_t o0 = rank - s0->data.size(), o1 = rank - s1->data.size();
      int64_t d0 = i < o0 ? 1 : s0->data[i - o0];
      int64_t d1 = i < o1 ? 1 : s1->data[i - o1];
      if (d0 != d1 && d0 != 1 && d1 != 1) {
        return emitError(at)
               << "BroadcastGradientArgs: dimension " << i << " sizes " << d0
               << " and " << d1 << " do not broadcast";
      }
      if (d0 == 1 && d1 != 1) {
        r0.data.push_back(i);
      } else if (d1 == 1 && d0 != 1) {
        r1.data.push_back(i);
      } else if (d0 == 1 && d1 == 1) {
        r0.data.push_back(i);
        r1.data.push_back(i);
      }
    }
    r0.shape = {int64_t(r0.data.size())};
    r1.shape = {int64_t(r1.data.size())};
    Type element = getElementType(in[0]);
    results.push_back(intConst(at, r0, element));
    results.push_back(intConst(at, r1, element));
    if (!results[0] || !results[1]) {
      return failure();
    }
  } else if (op == "SoftmaxCrossEntropyWithLogits" ||
             op == "SparseSoftmaxCrossEntropyWithLogits") {
    if (failed(need(2))) {
      return failure();
    }
    llvm::SmallVector<NamedAttribute> attrs;
    if (op.starts_with("Sparse")) {
      attrs.push_back(named("sparse", builder.getUnitAttr()));
    }
    Operation *sce = createGraphOp(
        builder, at, "graph.softmax_cross_entropy", {in[0], in[1]}, attrs,
        {getElementType(in[0]), getElementType(in[0])});
    if (!sce) {
      return failure();
    }
    created.push_back(sce);
    results.assign(sce->getResults().begin(), sce->getResults().end());
  } else if (op == "Tile") {
    if (failed(need(2))) {
      return failure();
    }
    auto multiples = constInts(in[1]);
    if (!multiples) {
      return emitError(at) << "Tile needs constant multiples";
    }
    result =
        emit(at, "graph.tile", {in[0]},
             {named("multiples", builder.getDenseI64ArrayAttr(*multiples))});
  } else if (op == "Slice") {
    if (failed(need(3))) {
      return failure();
    }
    auto begin = constInts(in[1]), size = constInts(in[2]);
    auto shape = getShape(in[0]);
    if (!begin || !size || !shape || begin->size() != shape->size() ||
        size->size() != shape->size()) {
      return emitError(at)
             << "Slice needs constant begin/size of the input's rank";
    }
    llvm::SmallVector<int64_t> limits, strides(shape->size(), 1);
    for (unsigned i = 0; i < shape->size(); ++i) {
      if ((*size)[i] == -1 && (*shape)[i] == ShapedType::kDynamic) {
        return emitError(at) << "Slice to the end of a dynamic dimension";
      }
      limits.push_back((*size)[i] == -1 ? (*shape)[i]
                                        : (*begin)[i] + (*size)[i]);
    }
    result = emit(at, "graph.slice", {in[0]},
                  {named("starts", builder.getDenseI64ArrayAttr(*begin)),
                   named("limits", builder.getDenseI64ArrayAttr(limits)),
                   named("strides", builder.getDenseI64ArrayAttr(strides))});
  } else if (op == "StridedSlice") {
    if (failed(stridedSlice(nd, at, in, result))) {
      return failure();
    }
  } else if (op == "Split" || op == "SplitV") {
    // Split(axis, value) with num_split; SplitV(value, size_splits, axis).
    if (failed(need(op == "Split" ? 2 : 3))) {
      return failure();
    }
    Value input = op == "Split" ? in[1] : in[0];
    auto axis = constInts(op == "Split" ? in[0] : in[2]);
    auto shape = getShape(input);
    if (!axis || axis->size() != 1 || !shape) {
      return emitError(at) << op << " needs a constant axis and a ranked input";
    }
    int64_t a =
        (*axis)[0] < 0 ? (*axis)[0] + int64_t(shape->size()) : (*axis)[0];
    llvm::SmallVector<int64_t> sizes;
    if (op == "Split") {
      const tensorflow::AttrValue *num = attr(nd, "num_split");
      int64_t n = num ? num->i() : 0;
      if (n <= 0 || (*shape)[a] == ShapedType::kDynamic || (*shape)[a] % n) {
        return emitError(at) << "Split of dimension " << (*shape)[a] << " into "
                             << n << " equal parts";
      }
      sizes.assign(n, (*shape)[a] / n);
    } else {
      auto s = constInts(in[1]);
      if (!s) {
        return emitError(at) << "SplitV needs constant size_splits";
      }
      sizes = *s;
    }
    Operation *split = createGraphOp(
        builder, at, "graph.split", {input},
        {named("axis", builder.getI64IntegerAttr(a)),
         named("sizes", builder.getDenseI64ArrayAttr(sizes))},
        llvm::SmallVector<Type>(sizes.size(), getElementType(input)));
    if (!split) {
      return failure();
    }
    created.push_back(split);
    results.assign(split->getResults().begin(), split->getResults().end());
  } else if (op == "Gather" || op == "GatherV2") {
    if (failed(need(2))) {
      return failure();
    }
    int64_t axis = 0;
    if (op == "GatherV2") {
      auto a = in.size() > 2 ? constInts(in[2]) : std::nullopt;
      if (!a || a->size() != 1) {
        return emitError(at) << "GatherV2 needs a constant axis";
      }
      axis = (*a)[0];
    }
    result = emit(at, "graph.gather", {in[0], in[1]},
                  {named("axis", builder.getI64IntegerAttr(axis))});
  } else if (op == "Pad" || op == "PadV2") {
    if (failed(need(2))) {
      return failure();
    }
    auto pads = constInts(in[1]);
    if (!pads) {
      return emitError(at) << op << " needs constant paddings";
    }
    llvm::SmallVector<int64_t> low, high;
    for (size_t i = 0; i + 1 < pads->size(); i += 2) {
      low.push_back((*pads)[i]);
      high.push_back((*pads)[i + 1]);
    }
    Value padValue = op == "PadV2" && in.size() > 2
                         ? in[2]
                         : splat(at, 0, getElementType(in[0]));
    result = emit(at, "graph.pad", {in[0], padValue},
                  {named("low", builder.getDenseI64ArrayAttr(low)),
                   named("high", builder.getDenseI64ArrayAttr(high))});
  } else if (op == "Range") {
    if (failed(need(3))) {
      return failure();
    }
    auto s = constTensor(in[0]), l = constTensor(in[1]), d = constTensor(in[2]);
    if (!s || !l || !d || s->data.size() != 1 || l->data.size() != 1 ||
        d->data.size() != 1 || d->data[0] == 0) {
      return emitError(at) << "Range needs constant integer start/limit/delta";
    }
    IntTensor t;
    for (int64_t v = s->data[0];
         d->data[0] > 0 ? v < l->data[0] : v > l->data[0]; v += d->data[0]) {
      t.data.push_back(v);
    }
    t.shape = {int64_t(t.data.size())};
    result = intConst(at, t, getElementType(in[0]));
  } else if (op == "DynamicStitch") {
    // Constant index/data pairs only (the shape arithmetic of Sum/Mean
    // gradients).
    unsigned n = in.size() / 2;
    IntTensor t;
    std::map<int64_t, int64_t> merged;
    for (unsigned i = 0; i < n; ++i) {
      auto idx = constTensor(in[i]), data = constTensor(in[n + i]);
      if (!idx || !data || idx->data.size() != data->data.size()) {
        return emitError(at) << "DynamicStitch needs constant scalar-element "
                                "indices and data";
      }
      for (size_t k = 0; k < idx->data.size(); ++k) {
        merged[idx->data[k]] = data->data[k];
      }
    }
    for (auto [k, v] : merged) {
      if (k != int64_t(t.data.size())) {
        return emitError(at) << "DynamicStitch indices are not dense";
      }
      t.data.push_back(v);
    }
    t.shape = {int64_t(t.data.size())};
    result = intConst(at, t, getElementType(in[n]));
  } else if (op == "Conv2D" || op == "DepthwiseConv2dNative" ||
             op == "MaxPool" || op == "AvgPool") {
    if (failed(convOrPool(nd, at, in, result))) {
      return failure();
    }
  } else if (op == "FusedBatchNorm" || op == "FusedBatchNormV3") {
    if (failed(need(5))) {
      return failure();
    }
    if (boolAttr("is_training")) {
      return emitError(at) << op << " in training mode is not supported";
    }
    const tensorflow::AttrValue *format = attr(nd, "data_format");
    bool nhwc = !format || format->s() == "NHWC";
    const tensorflow::AttrValue *eps = attr(nd, "epsilon");
    Value x = nhwc ? transpose(at, in[0], {0, 3, 1, 2}) : in[0];
    Value y = x ? emit(at, "graph.batch_norm", {x, in[1], in[2], in[3], in[4]},
                       {named("epsilon",
                              builder.getF32FloatAttr(eps ? eps->f() : 1e-4f))})
                : Value();
    result = y && nhwc ? transpose(at, y, {0, 2, 3, 1}) : y;
    if (!result) {
      return failure();
    }
    // Inference: the batch statistics outputs are the given ones.
    results = {result, in[3], in[4], in[3], in[4]};
    if (op == "FusedBatchNormV3") {
      results.push_back(in[3]);
    }
    result = Value();
  } else if (op == "SpaceToBatchND") {
    // Only as the head of a dilated convolution: the Conv2D that consumes
    // it becomes one conv with dilations (see convOrPool).
    if (failed(need(3))) {
      return failure();
    }
    auto block = constInts(in[1]), pads = constInts(in[2]);
    if (!block || !pads || pads->size() != 2 * block->size()) {
      return emitError(at) << "SpaceToBatchND needs constant block_shape and "
                              "paddings";
    }
    spaceToBatch[node.name + ":0"] = {in[0], *block, *pads};
    return success();
  } else if (op == "BatchToSpaceND") {
    if (failed(need(3))) {
      return failure();
    }
    auto it = fromSpaceToBatch.find(in[0]);
    auto crops = constInts(in[2]);
    if (it == fromSpaceToBatch.end() || !crops) {
      return emitError(at) << "BatchToSpaceND is only supported closing a "
                              "dilated convolution (SpaceToBatchND, Conv2D, "
                              "BatchToSpaceND) with constant crops";
    }
    auto shape = getShape(in[0]);
    llvm::SmallVector<int64_t> starts(shape->size(), 0), limits(*shape),
        strides(shape->size(), 1);
    bool any = false;
    for (size_t i = 0; i + 1 < crops->size(); i += 2) {
      size_t d = 1 + i / 2;
      starts[d] = (*crops)[i];
      limits[d] = (*shape)[d] - (*crops)[i + 1];
      any |= (*crops)[i] != 0 || (*crops)[i + 1] != 0;
    }
    result =
        any ? emit(at, "graph.slice", {in[0]},
                   {named("starts", builder.getDenseI64ArrayAttr(starts)),
                    named("limits", builder.getDenseI64ArrayAttr(limits)),
                    named("strides", builder.getDenseI64ArrayAttr(strides))})
            : in[0];
    if (!any) {
      values[node.name + ":0"] = in[0];
      return success();
    }
  } else if (op == "RandomUniform" || op == "RandomStandardNormal" ||
             op == "TruncatedNormal") {
    // The graph dialect has no random ops: random tensors are fed from
    // outside, as arguments naming their distribution.
    if (failed(need(1))) {
      return failure();
    }
    auto shape = constInts(in[0]);
    const tensorflow::AttrValue *dtype = attr(nd, "dtype");
    Type element = dtype ? convertTFType(ctx, dtype->type()) : Type();
    if (!shape || !element) {
      return emitError(at) << op << " needs a constant shape and a dtype";
    }
    unsigned index = func.getNumArguments();
    llvm::SmallVector<NamedAttribute> argAttrs = {
        named("graph.name", builder.getStringAttr(node.name)),
        named("graph.random", builder.getStringAttr(
                                  op == "RandomUniform"     ? "uniform"
                                  : op == "TruncatedNormal" ? "truncated_normal"
                                                            : "normal"))};
    if (!nd.device().empty()) {
      std::string error;
      auto device = dist::DeviceAttr::fromString(ctx, nd.device(), error);
      if (failed(device)) {
        return emitError(at) << "bad device '" << nd.device() << "': " << error;
      }
      argAttrs.push_back(named("dist.device", *device));
      placed.insert(node.name);
    }
    if (failed(func.insertArgument(index,
                                   RankedTensorType::get(*shape, element),
                                   builder.getDictionaryAttr(argAttrs), at))) {
      return failure();
    }
    values[node.name + ":0"] = func.getArgument(index);
    return success();
  } else if (op == "OneHot") {
    // OneHot(indices, depth, on_value, off_value) with attr axis.
    if (failed(need(4))) {
      return failure();
    }
    auto depth = constInts(in[1]);
    if (!depth || depth->size() != 1) {
      return emitError(at) << "OneHot needs a constant depth";
    }
    const tensorflow::AttrValue *axis = attr(nd, "axis");
    result =
        emit(at, "graph.one_hot", {in[0], in[2], in[3]},
             {named("depth", builder.getI64IntegerAttr((*depth)[0])),
              named("axis", builder.getI64IntegerAttr(axis ? axis->i() : -1))},
             getElementType(in[2]));
  } else if (op == "_Send" || op == "_Recv") {
    // Outside a dist.task a partition boundary is an edge of the function:
    // _Send's tensor becomes a result, _Recv's an argument (both named by
    // tensor_name).
    const tensorflow::AttrValue *tensorName = attr(nd, "tensor_name");
    std::string name = tensorName ? tensorName->s() : node.name;
    if (op == "_Send") {
      if (failed(need(1))) {
        return failure();
      }
      sends.push_back({in[0], node.name, name, nd.device()});
      if (!nd.device().empty()) {
        placed.insert(node.name);
      }
      return success();
    }
    const tensorflow::AttrValue *type = attr(nd, "tensor_type");
    Type element = type ? convertTFType(ctx, type->type()) : Type();
    if (!element) {
      return emitError(at) << "_Recv has no supported tensor_type";
    }
    unsigned index = func.getNumArguments();
    if (failed(func.insertArgument(
            index, UnrankedTensorType::get(element),
            builder.getDictionaryAttr(
                {named("graph.name", builder.getStringAttr(node.name)),
                 named("graph.tensor_name", builder.getStringAttr(name))}),
            at))) {
      return failure();
    }
    values[node.name + ":0"] = func.getArgument(index);
    return success();
  } else {
    return emitError(at) << "TensorFlow op '" << op
                         << "' has a planned rule but no translation yet";
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
       << " with --input-shape=NAME:DxD... (NAME: for a scalar)";
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
  llvm::SmallVector<NamedAttribute> argAttrs = {
      builder.getNamedAttr("graph.name", builder.getStringAttr(node.name))};
  if (!nd.device().empty()) {
    std::string error;
    auto device = dist::DeviceAttr::fromString(ctx, nd.device(), error);
    if (failed(device)) {
      return emitError(at) << "bad device '" << nd.device() << "': " << error;
    }
    argAttrs.push_back(builder.getNamedAttr("dist.device", *device));
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
  auto order =
      graph.topologicalOrder(model.path, [&](const GraphNode &n, unsigned i) {
        return graph.isTFLoopBackEdge(n, i);
      });
  if (!order) {
    emitError(fileLoc) << llvm::toString(order.takeError());
    return nullptr;
  }

  // A SavedModel/MetaGraphDef without --inputs/--outputs: its signature
  // (serving_default, else the first by name whose inputs all have a graphc
  // type; string inputs such as serialized tf.Example are not importable)
  // gives the inputs and outputs.
  std::vector<std::string> inputSpecs = options.inputs;
  std::vector<std::string> outputSpecs = options.outputs;
  // A signature's outputs are named by their keys (what a serving client
  // asks for), not by the nodes that compute them.
  std::vector<std::string> outputKeys;
  if (inputSpecs.empty() && outputSpecs.empty() && !model.signatures.empty()) {
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
            spec +=
                (i ? "x" : "") + (shape.dim(i).size() < 0
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
    for (const NodeInput &in : graph.nodes[i].inputs) {
      work.push_back(in.producer);
    }
    for (unsigned c : graph.nodes[i].controlInputs) {
      work.push_back(c);
    }
  }

  OwningOpRef<ModuleOp> owned = ModuleOp::create(fileLoc);
  module = *owned;
  builder.setInsertionPointToEnd(module.getBody());
  func = func::FuncOp::create(builder, fileLoc, "main",
                              builder.getFunctionType({}, {}));
  Block *entry = func.addEntryBlock();
  builder.setInsertionPointToStart(entry);
  if (failed(importScope(*order, "", keep))) {
    return nullptr;
  }
  llvm::SmallVector<Value> results;
  llvm::SmallVector<std::string> resultNames;
  for (auto [i, output] : llvm::enumerate(outputs)) {
    auto [node, index] = output;
    std::string key = graph.nodes[node].name + ":" + std::to_string(index);
    Value v = values.lookup(key);
    if (!v) {
      if (!outputSpecs.empty()) {
        emitError(loc(graph.nodes[node].name)) << "output has no value";
        return nullptr;
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
  for (unsigned index : *order) {
    const GraphNode &node = graph.nodes[index];
    if (!keep[index] || node.device.empty() || placed.contains(node.name)) {
      continue;
    }
    std::string error;
    auto device = dist::DeviceAttr::fromString(ctx, node.device, error);
    if (failed(device)) {
      emitError(loc(node.name))
          << "bad device '" << node.device << "': " << error;
      return nullptr;
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
      return nullptr;
    }
    func.setResultAttr(firstSend + i, "dist.device", *device);
  }
  // Output names travel to the job bundle's manifest.
  // `_Send`s are results too, after the requested outputs.
  llvm::SmallVector<StringRef> names(resultNames.begin(), resultNames.end());
  for (const Send &send : sends) {
    names.push_back(send.node);
  }
  func->setAttr("graph.output_names", builder.getStrArrayAttr(names));
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
