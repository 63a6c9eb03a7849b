//===- Random.cpp - TensorFlow random ops ---------------------------------===//
//
// The translator of the TensorFlow random ops (RandomUniform,
// RandomStandardNormal, TruncatedNormal): arguments marked graph.random.
// TFOps.cpp names this file for each op it takes; importNode
// (GraphDefImporter.cpp) dispatches here and records the result.
//
//===----------------------------------------------------------------------===//

#include "GraphDefImporterImpl.h"

namespace graphc::import {

LogicalResult GraphDefImporter::translateRandom(
    const GraphNode &node, const tensorflow::NodeDef &nd, Location at,
    StringRef op, llvm::ArrayRef<Value> in, Value &result,
    llvm::SmallVectorImpl<Value> &results) {
  if (op == "RandomUniform" || op == "RandomStandardNormal" ||
      op == "TruncatedNormal") {
    // The graph dialect has no random ops: random tensors are fed from
    // outside, as arguments naming their distribution.
    if (failed(needInputs(in, at, op, 1))) {
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
      argAttrs.push_back(named(dist::DistDialect::kDeviceAttrName, *device));
      placed.insert(node.name);
    }
    if (failed(func.insertArgument(index,
                                   RankedTensorType::get(*shape, element),
                                   builder.getDictionaryAttr(argAttrs), at))) {
      return failure();
    }
    values[node.name + ":0"] = func.getArgument(index);
    return success();
  } else {
    return notTranslated(at, op, "TF/Random.cpp");
  }
  recordResults = true;
  return success();
}

} // namespace graphc::import
