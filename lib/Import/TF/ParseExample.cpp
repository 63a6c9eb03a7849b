//===- ParseExample.cpp - TensorFlow tf.Example parsing -------------------===//
//
// ParseExample/ParseExampleV2 as a frontend boundary: each dense feature
// becomes an argument named by its key (docs/design/importers.md).
//
//===----------------------------------------------------------------------===//

#include "GraphDefImporterImpl.h"

namespace graphc::import {

std::optional<llvm::SmallVector<std::string>>
GraphDefImporter::stringConstant(const NodeInput &input) {
  int producer = input.producer;
  // Follow Identity chains (bounded by the node count: no cycles here).
  for (size_t steps = 0; producer >= 0 && steps < graph.nodes.size(); ++steps) {
    const tensorflow::NodeDef &nd = def(graph.nodes[producer]);
    if (nd.op() != "Identity" || graph.nodes[producer].inputs.empty()) {
      break;
    }
    producer = graph.nodes[producer].inputs[0].producer;
  }
  if (producer < 0) {
    return std::nullopt;
  }
  const tensorflow::NodeDef &nd = def(graph.nodes[producer]);
  const tensorflow::AttrValue *value = attr(nd, "value");
  if (nd.op() != "Const" || !value || !value->has_tensor() ||
      value->tensor().dtype() != tensorflow::DT_STRING) {
    return std::nullopt;
  }
  const tensorflow::TensorProto &t = value->tensor();
  int64_t count = 1;
  for (const auto &d : t.tensor_shape().dim()) {
    count = d.size() < 0 ? -1 : count * d.size();
  }
  if (count < 0 || count > (1 << 20) ||
      (t.string_val_size() == 0 && count > 0) || t.string_val_size() > count) {
    return std::nullopt;
  }
  llvm::SmallVector<std::string> out(t.string_val().begin(),
                                     t.string_val().end());
  // TensorFlow stores a repeated tail once.
  if (!out.empty()) {
    out.resize(count, out.back());
  }
  return out;
}

/// Parsing serialized tf.Example protos is where the model's data enters: a
/// frontend boundary, like a queue. The node goes (with a warning naming
/// it); each dense feature it parses becomes an argument named by its
/// feature key and typed by `Tdense` and `dense_shapes` under the batch
/// shape of the serialized input. Sparse and ragged features have no
/// graphc type: their outputs are opaque, and a node that reads one is
/// refused naming the feature.
LogicalResult GraphDefImporter::importParseExample(const GraphNode &node,
                                                   Location at) {
  const tensorflow::NodeDef &nd = def(node);
  bool v2 = node.op == "ParseExampleV2";
  const tensorflow::AttrValue *tdense = attr(nd, "Tdense");
  const tensorflow::AttrValue *denseShapes = attr(nd, "dense_shapes");
  const tensorflow::AttrValue *sparseCount =
      attr(nd, v2 ? "num_sparse" : "Nsparse");
  int numDense = tdense ? tdense->list().type_size() : 0;
  int numShapes = denseShapes ? denseShapes->list().shape_size() : 0;
  if (numShapes != numDense) {
    return emitError(at) << node.op << ": dense_shapes has " << numShapes
                         << " shapes for " << numDense << " Tdense types";
  }
  int64_t numSparse = sparseCount ? sparseCount->i() : 0;
  int numRagged = 0;
  if (v2) {
    if (const tensorflow::AttrValue *r = attr(nd, "ragged_value_types")) {
      numRagged = r->list().type_size();
    }
  }
  if (numSparse < 0 || numSparse > (1 << 16)) {
    return emitError(at) << node.op << ": bad sparse feature count "
                         << numSparse;
  }
  // Inputs: serialized, names, then (V1) sparse_keys[Nsparse],
  // dense_keys[Ndense], dense_defaults[Ndense]; (V2) sparse_keys,
  // dense_keys, ragged_keys (1-D string tensors), dense_defaults[Ndense].
  size_t expected = v2 ? 5 + numDense : 2 + numSparse + 2 * numDense;
  if (node.inputs.size() != expected) {
    return emitError(at) << node.op << " with " << numSparse << " sparse and "
                         << numDense << " dense features needs " << expected
                         << " inputs, has " << node.inputs.size();
  }
  auto keysOf = [&](size_t first, size_t n, size_t vectorInput) {
    llvm::SmallVector<std::string> keys;
    if (v2) {
      if (auto k = stringConstant(node.inputs[vectorInput]);
          k && k->size() == n) {
        keys = *k;
      }
    } else {
      for (size_t i = 0; i < n; ++i) {
        auto k = stringConstant(node.inputs[first + i]);
        keys.push_back(k && k->size() == 1 ? k->front() : std::string());
      }
    }
    keys.resize(n);
    return keys;
  };
  llvm::SmallVector<std::string> sparseKeys = keysOf(2, numSparse, 2);
  llvm::SmallVector<std::string> denseKeys = keysOf(2 + numSparse, numDense, 3);
  llvm::SmallVector<std::string> raggedKeys = keysOf(0, numRagged, 4);
  auto output = [&](int64_t flat) {
    return node.name + ":" + std::to_string(flat);
  };
  auto describe = [&](StringRef kind, StringRef key) {
    return (kind + " feature '" + key + "' parsed by " + node.op + " '" +
            node.name + "' (only dense features are imported)")
        .str();
  };
  for (int64_t i = 0; i < numSparse; ++i) {
    std::string key =
        sparseKeys[i].empty() ? "#" + std::to_string(i) : sparseKeys[i];
    for (int64_t part = 0; part < 3; ++part) {
      opaque[output(part * numSparse + i)] = describe("the sparse", key);
    }
  }
  for (int i = 0; i < numRagged; ++i) {
    std::string key =
        raggedKeys[i].empty() ? "#" + std::to_string(i) : raggedKeys[i];
    int64_t first = 3 * numSparse + numDense;
    opaque[output(first + i)] = describe("the ragged", key);
    opaque[output(first + numRagged + i)] = describe("the ragged", key);
  }

  // The batch shape: --input-shape of the serialized placeholder, else its
  // shape attribute, else one dimension (ParseExample takes a vector of
  // serialized protos; tf.io.parse_example passes one).
  const NodeInput &serialized = node.inputs[0];
  std::optional<llvm::SmallVector<int64_t>> batch;
  std::string serializedName = serialized.producer >= 0
                                   ? graph.nodes[serialized.producer].name
                                   : serialized.name;
  FailureOr<std::optional<InputShapeSpec>> given =
      findInputShape(options.inputShapes, serializedName, loc(serializedName));
  if (failed(given)) {
    return failure();
  }
  if (*given) {
    batch = (*given)->shape;
  }
  if (!batch && serialized.producer >= 0 &&
      def(graph.nodes[serialized.producer]).op() == "Placeholder") {
    batch = placeholderShape(def(graph.nodes[serialized.producer]));
  }
  if (!batch) {
    batch = llvm::SmallVector<int64_t>{ShapedType::kDynamic};
  }
  if (!v2 && batch->size() != 1) {
    return emitError(at) << "ParseExample takes a vector of serialized "
                            "examples; '"
                         << serializedName << "' has rank " << batch->size();
  }

  std::optional<dist::DeviceAttr> device;
  if (!nd.device().empty()) {
    std::string error;
    auto parsed = dist::DeviceAttr::fromString(ctx, nd.device(), error);
    if (failed(parsed)) {
      return emitError(at) << "bad device '" << nd.device() << "': " << error;
    }
    device = *parsed;
    placed.insert(node.name);
  }
  std::string names;
  for (int i = 0; i < numDense; ++i) {
    Type element = convertTFType(ctx, tdense->list().type(i));
    if (!element) {
      return emitError(at) << node.op << ": dense feature '" << denseKeys[i]
                           << "' has type "
                           << tensorflow::DataType_Name(tdense->list().type(i))
                           << ", which graphc has no tensor type for";
    }
    const tensorflow::TensorShapeProto &shape = denseShapes->list().shape(i);
    if (shape.unknown_rank()) {
      return emitError(at) << node.op << ": dense feature '" << denseKeys[i]
                           << "' has no rank in dense_shapes";
    }
    llvm::SmallVector<int64_t> dims(batch->begin(), batch->end());
    for (const auto &d : shape.dim()) {
      dims.push_back(d.size() < 0 ? ShapedType::kDynamic : d.size());
    }
    auto type = RankedTensorType::get(dims, element);
    std::string key =
        denseKeys[i].empty() ? output(3 * numSparse + i) : denseKeys[i];
    // The same feature of the same serialized input (a regress and a
    // classify signature) is one argument; another feature of that name
    // is told apart by its node.
    std::string featureId =
        serializedName + ":" + std::to_string(serialized.index) + "|" + key;
    Value arg = parsedFeatures.lookup(featureId);
    if (arg && arg.getType() != type) {
      return emitError(at) << node.op << ": dense feature '" << key << "' is "
                           << type << " here and " << arg.getType()
                           << " where parsed before";
    }
    if (!arg) {
      std::string argName = key;
      for (BlockArgument a : func.getArguments()) {
        if (auto n = func.getArgAttrOfType<StringAttr>(a.getArgNumber(),
                                                       "graph.name");
            n && n.getValue() == argName) {
          argName = node.name + "/" + key;
        }
      }
      llvm::SmallVector<NamedAttribute> argAttrs = {
          builder.getNamedAttr("graph.name", builder.getStringAttr(argName))};
      if (device) {
        argAttrs.push_back(
            builder.getNamedAttr(dist::DistDialect::kDeviceAttrName, *device));
      }
      unsigned index = func.getNumArguments();
      if (failed(func.insertArgument(
              index, type, builder.getDictionaryAttr(argAttrs), at))) {
        return failure();
      }
      arg = func.getArgument(index);
      parsedFeatures[featureId] = arg;
    }
    values[output(3 * numSparse + i)] = arg;
    names += (i ? ", '" : "'") + key + "'";
  }
  emitWarning(at) << "dropping '" << node.op << "': the serialized "
                  << "tf.Example input '" << serializedName
                  << "' is not imported; "
                  << (numDense
                          ? "the dense features " + names + " become arguments"
                          : std::string("it parses no dense feature"));
  return success();
}

} // namespace graphc::import
