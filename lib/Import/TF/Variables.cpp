//===- Variables.cpp - TensorFlow constants, inputs, variables ------------===//
//
// The translator of the TensorFlow constants, placeholders, variables and their
// reads and assignments, IdentityN, NoOp. TFOps.cpp names this file for each op
// it takes; importNode (GraphDefImporter.cpp) dispatches here and records the
// result.
//
//===----------------------------------------------------------------------===//

#include "GraphDefImporterImpl.h"

namespace graphc::import {

LogicalResult GraphDefImporter::translateVariables(
    const GraphNode &node, const tensorflow::NodeDef &nd, Location at,
    StringRef op, llvm::ArrayRef<Value> in, Value &result,
    llvm::SmallVectorImpl<Value> &results) {
  if (op == "IdentityN") {
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
      argAttrs.push_back(named(dist::DistDialect::kDeviceAttrName, *device));
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
    if (failed(needInputs(in, at, op, 1))) {
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
    if (failed(needInputs(in, at, op, 2))) {
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
  } else if (op == "IsVariableInitialized" || op == "VarIsInitializedOp") {
    // Imported variables always hold a value.
    result = splat(at, 1, IntegerType::get(ctx, 1));
  } else {
    return notTranslated(at, op, "TF/Variables.cpp");
  }
  recordResults = true;
  return success();
}

/// A queue dequeue (QueueDequeue*V2): its components become arguments of
/// the function, shaped by `_output_shapes` or the queue's `shapes`
/// (batched by n for DequeueMany); the queue itself vanishes.
LogicalResult GraphDefImporter::importDequeue(const GraphNode &node,
                                              const tensorflow::NodeDef &nd,
                                              Location at,
                                              llvm::ArrayRef<Value> in) {
  StringRef op = node.op;
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
        argAttrs.push_back(named(dist::DistDialect::kDeviceAttrName, *device));
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

} // namespace graphc::import
