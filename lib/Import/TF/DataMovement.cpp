//===- DataMovement.cpp - TensorFlow data movement ------------------------===//
//
// The translator of the TensorFlow data movement ops: Unpack, Fill, Transpose,
// Tile, Slice, StridedSlice (StridedSlice.cpp), Split, Pad. TFOps.cpp names
// this file for each op it takes; importNode (GraphDefImporter.cpp) dispatches
// here and records the result.
//
//===----------------------------------------------------------------------===//

#include "GraphDefImporterImpl.h"

namespace graphc::import {

LogicalResult GraphDefImporter::translateDataMovement(
    const GraphNode &node, const tensorflow::NodeDef &nd, Location at,
    StringRef op, llvm::ArrayRef<Value> in, Value &result,
    llvm::SmallVectorImpl<Value> &results) {
  if (op == "Unpack") {
    if (failed(needInputs(in, at, op, 1))) {
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
    if (failed(needInputs(in, at, op, 2))) {
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
  } else if (op == "Transpose") {
    if (failed(needInputs(in, at, op, 2))) {
      return failure();
    }
    auto perm = constInts(in[1]);
    if (!perm) {
      return emitError(at) << "Transpose needs a constant perm";
    }
    result = transpose(at, in[0], *perm);
  } else if (op == "Tile") {
    if (failed(needInputs(in, at, op, 2))) {
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
    if (failed(needInputs(in, at, op, 3))) {
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
    if (failed(needInputs(in, at, op, op == "Split" ? 2 : 3))) {
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
  } else if (op == "Pad" || op == "PadV2") {
    if (failed(needInputs(in, at, op, 2))) {
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
  } else {
    return notTranslated(at, op, "TF/DataMovement.cpp");
  }
  recordResults = true;
  return success();
}

} // namespace graphc::import
