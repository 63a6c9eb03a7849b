//===- Shapes.cpp - TensorFlow shape ops ----------------------------------===//
//
// The translator of the TensorFlow shape ops: Reshape, Concat, Shape/Size/Rank,
// ExpandDims, Squeeze, Pack. TFOps.cpp names this file for each op it takes;
// importNode (GraphDefImporter.cpp) dispatches here and records the result.
//
//===----------------------------------------------------------------------===//

#include "GraphDefImporterImpl.h"

namespace graphc::import {

LogicalResult GraphDefImporter::translateShapes(
    const GraphNode &node, const tensorflow::NodeDef &nd, Location at,
    StringRef op, llvm::ArrayRef<Value> in, Value &result,
    llvm::SmallVectorImpl<Value> &results) {
  if (op == "Reshape") {
    if (failed(needInputs(in, at, op, 2))) {
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
    if (failed(needInputs(in, at, op, 2))) {
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
  } else if (op == "Shape" || op == "Size" || op == "Rank") {
    if (failed(needInputs(in, at, op, 1))) {
      return failure();
    }
    const tensorflow::AttrValue *outType = attr(nd, "out_type");
    Type element = outType ? convertTFType(ctx, outType->type())
                           : IntegerType::get(ctx, 32);
    if (!element) {
      element = IntegerType::get(ctx, 32);
    }
    auto shape = getShape(in[0]);
    if (op == "Rank") {
      if (!shape) {
        return emitError(at) << "Rank of a tensor of unknown rank is not "
                                "supported";
      }
      result = intConst(at, {{}, {int64_t(shape->size())}}, element);
    } else if (op == "Shape" ||
               (shape && !llvm::is_contained(*shape, ShapedType::kDynamic))) {
      // graph.shape folds to a constant for a static shape, and so does the
      // product of its dimensions (Size).
      result = emit(at, "graph.shape", {in[0]}, {}, builder.getI64Type());
      if (result && op == "Size") {
        result = reduce(at, result, "prod", {0}, /*keepdims=*/false);
      }
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
    if (failed(needInputs(in, at, op, 2))) {
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
    result = emit(at, "graph.unsqueeze", {in[0]},
                  {named("axes", builder.getDenseI64ArrayAttr({a}))});
  } else if (op == "Squeeze") {
    if (failed(needInputs(in, at, op, 1))) {
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
    if (failed(needInputs(in, at, op, 1))) {
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
    // Constant packs (shapes) fold through unsqueeze and concat.
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
  } else {
    return notTranslated(at, op, "TF/Shapes.cpp");
  }
  recordResults = true;
  return success();
}

} // namespace graphc::import
