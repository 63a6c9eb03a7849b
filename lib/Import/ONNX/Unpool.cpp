//===- Unpool.cpp - ONNX MaxUnpool to the graph dialect -------------------===//
//
// MaxUnpool puts each input value at the position MaxPool's `Indices`
// output recorded for it, zeros elsewhere. Those indices are flat over the
// whole unpooled tensor (batch and channel included), so the translation is
// one graph.scatter_elements of the flattened input into a flat zero
// tensor, reshaped to the unpooled shape (and padded with zeros at the end
// to a larger `output_shape`): no new op is needed.
//
//===----------------------------------------------------------------------===//

#include "OnnxNodeBuilder.h"

using namespace mlir;

namespace graphc::import {

std::optional<FailureOr<llvm::SmallVector<Value>>>
OnnxImporter::importUnpool(const GraphNode &node, const onnx::NodeProto &def,
                           ArrayRef<Value> in, Location at) {
  StringRef op = node.op;
  if (op != "MaxUnpool") {
    return std::nullopt;
  }
  if (in.size() < 2 || !in[0] || !in[1]) {
    return nodeFailed(emitError(at) << op << " needs inputs 0 and 1");
  }
  NodeBuilder b{*this, at};
  Value x = in[0], indices = in[1];
  auto shape = getShape(x);
  if (!shape || shape->size() < 3 || ShapedType::isDynamicShape(*shape)) {
    return nodeFailed(emitError(at)
                      << op << " needs a static input of rank >= 3");
  }
  if (getShape(indices) != shape) {
    return nodeFailed(emitError(at)
                      << op << " indices must have the input's shape");
  }
  if (!getElementType(indices).isInteger(64)) {
    return nodeFailed(emitError(at) << op << " indices must be i64, got "
                                    << getElementType(indices));
  }
  int64_t spatial = shape->size() - 2;
  auto kernel = attrInts(def, "kernel_shape");
  if (!kernel || int64_t(kernel->size()) != spatial) {
    return nodeFailed(emitError(at) << op << " needs kernel_shape with "
                                    << spatial << " entries");
  }
  auto strides =
      attrInts(def, "strides").value_or(llvm::SmallVector<int64_t>(spatial, 1));
  auto pads = attrInts(def, "pads")
                  .value_or(llvm::SmallVector<int64_t>(2 * spatial, 0));
  if (int64_t(strides.size()) != spatial ||
      int64_t(pads.size()) != 2 * spatial) {
    return nodeFailed(emitError(at)
                      << op << " needs " << spatial << " strides and "
                      << 2 * spatial << " pads");
  }
  // The unpooled shape MaxPool's indices were taken in; output_shape may
  // only add zeros at the end of each spatial dimension (the indices keep
  // their coordinates, as in ONNX's reference).
  llvm::SmallVector<int64_t> outShape(shape->begin(), shape->begin() + 2);
  for (int64_t i = 0; i < spatial; ++i) {
    outShape.push_back(((*shape)[i + 2] - 1) * strides[i] - pads[i] -
                       pads[spatial + i] + (*kernel)[i]);
  }
  llvm::SmallVector<int64_t> finalShape = outShape;
  if (in.size() > 2 && in[2]) {
    auto given = constInts(in[2]);
    if (!given) {
      return nodeFailed(emitError(at)
                        << op << " output_shape must be a constant");
    }
    if (given->size() != shape->size() || (*given)[0] != (*shape)[0] ||
        (*given)[1] != (*shape)[1]) {
      return nodeFailed(emitError(at)
                        << op << " output_shape must have rank "
                        << shape->size() << " and keep dimensions 0 and 1");
    }
    for (int64_t i = 2; i < int64_t(given->size()); ++i) {
      if ((*given)[i] < outShape[i]) {
        return nodeFailed(emitError(at)
                          << op << " output_shape dimension " << i << " is "
                          << (*given)[i] << ", smaller than the unpooled "
                          << outShape[i]);
      }
    }
    finalShape = *given;
  }
  int64_t total = 1, count = 1;
  for (int64_t d : outShape) {
    if (d <= 0) {
      return nodeFailed(emitError(at) << op << " output dimension " << d
                                      << " is not positive");
    }
    total *= d;
  }
  for (int64_t d : *shape) {
    count *= d;
  }
  Type element = getElementType(x);
  auto zeroType = RankedTensorType::get({total}, element);
  Attribute zero = isa<FloatType>(element)
                       ? Attribute(builder.getFloatAttr(element, 0))
                       : Attribute(builder.getIntegerAttr(element, 0));
  Value zeros = constant(at, DenseElementsAttr::get(zeroType, zero));
  Attribute none = b.enumAttr("scatter_reduction", "none");
  if (!zeros || !none) {
    return nodeFailed(failure());
  }
  Value flatX = b.op("graph.reshape", {x}, {b.i64s("shape", {count})});
  Value flatI = b.op("graph.reshape", {indices}, {b.i64s("shape", {count})});
  Value out = b.op("graph.scatter_elements", {zeros, flatI, flatX},
                   {b.named("reduction", none), b.i64("axis", 0)});
  Value y = b.op("graph.reshape", {out}, {b.i64s("shape", outShape)});
  if (finalShape != outShape) {
    llvm::SmallVector<int64_t> low(finalShape.size(), 0), high;
    for (auto [f, o] : llvm::zip(finalShape, outShape)) {
      high.push_back(f - o);
    }
    y = b.op("graph.pad", {y, b.scalar(element, 0)},
             {b.i64s("low", low), b.i64s("high", high)});
  }
  return nodeResults({y});
}

} // namespace graphc::import
