//===- NN.cpp - TensorFlow neural-network ops -----------------------------===//
//
// The translator of the TensorFlow neural-network ops: MatMul, reductions,
// ArgMax, BiasAddGrad, softmax cross-entropy, convolutions and pools
// (ConvPool.cpp), FusedBatchNorm, the SpaceToBatchND/BatchToSpaceND of dilated
// convolutions. TFOps.cpp names this file for each op it takes; importNode
// (GraphDefImporter.cpp) dispatches here and records the result.
//
//===----------------------------------------------------------------------===//

#include "GraphDefImporterImpl.h"

namespace graphc::import {

LogicalResult GraphDefImporter::translateNN(
    const GraphNode &node, const tensorflow::NodeDef &nd, Location at,
    StringRef op, llvm::ArrayRef<Value> in, Value &result,
    llvm::SmallVectorImpl<Value> &results) {
  if (op == "MatMul" || op == "BatchMatMul" || op == "BatchMatMulV2") {
    if (failed(needInputs(in, at, op, 2))) {
      return failure();
    }
    llvm::SmallVector<NamedAttribute> attrs;
    if (boolAttr(nd, "transpose_a") || boolAttr(nd, "adj_x")) {
      attrs.push_back(named("transpose_lhs", builder.getUnitAttr()));
    }
    if (boolAttr(nd, "transpose_b") || boolAttr(nd, "adj_y")) {
      attrs.push_back(named("transpose_rhs", builder.getUnitAttr()));
    }
    result = emit(at, "graph.matmul", {in[0], in[1]}, attrs);
  } else if (op == "Sum" || op == "Mean" || op == "Max" || op == "Min" ||
             op == "Prod") {
    if (failed(needInputs(in, at, op, 2))) {
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
    bool keep = boolAttr(nd, "keep_dims");
    // A constant input (the element count of a computed shape) folds
    // through graph.reduce.
    if (norm.empty()) {
      result = emit(at, "graph.identity", {in[0]}, {});
    } else {
      result = reduce(at, in[0], op.lower(), norm, keep);
    }
  } else if (op == "ArgMax" || op == "ArgMin") {
    if (failed(needInputs(in, at, op, 2))) {
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
  } else if (op == "BiasAddGrad") {
    if (failed(needInputs(in, at, op, 1))) {
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
  } else if (op == "SoftmaxCrossEntropyWithLogits" ||
             op == "SparseSoftmaxCrossEntropyWithLogits") {
    if (failed(needInputs(in, at, op, 2))) {
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
  } else if (op == "Conv2D" || op == "DepthwiseConv2dNative" ||
             op == "MaxPool" || op == "AvgPool") {
    if (failed(convOrPool(nd, at, in, result))) {
      return failure();
    }
  } else if (op == "FusedBatchNorm" || op == "FusedBatchNormV3") {
    if (failed(needInputs(in, at, op, 5))) {
      return failure();
    }
    if (boolAttr(nd, "is_training")) {
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
    results.assign({result, in[3], in[4], in[3], in[4]});
    if (op == "FusedBatchNormV3") {
      results.push_back(in[3]);
    }
    result = Value();
  } else if (op == "SpaceToBatchND") {
    // Only as the head of a dilated convolution: the Conv2D that consumes
    // it becomes one conv with dilations (see convOrPool).
    if (failed(needInputs(in, at, op, 3))) {
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
    if (failed(needInputs(in, at, op, 3))) {
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
  } else {
    return notTranslated(at, op, "TF/NN.cpp");
  }
  recordResults = true;
  return success();
}

} // namespace graphc::import
