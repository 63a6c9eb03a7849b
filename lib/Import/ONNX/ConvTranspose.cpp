//===- ConvTranspose.cpp - ONNX ConvTranspose -----------------------------===//
//
// ConvTranspose (output_shape, auto_pad).
// Dispatched from the op registry (OnnxOps.cpp).
//
//===----------------------------------------------------------------------===//

#include "OnnxImporterImpl.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/Matchers.h"

#include "llvm/ADT/StringSwitch.h"

#include <algorithm>
#include <cmath>
#include <numeric>

using namespace mlir;

namespace graphc::import {

FailureOr<OnnxImporter::Results>
OnnxImporter::importConvTranspose(const GraphNode &node,
                                  const onnx::NodeProto &def,
                                  llvm::ArrayRef<Value> in, Location at) {
  StringRef op = node.op;
  // ---- convolution, resize, recurrent layers ----------------------------
  if (op == "ConvTranspose") {
    if (failed(need(2))) {
      return failure();
    }
    auto inShape = getShape(in[0]), filter = getShape(in[1]);
    if (!inShape || inShape->size() < 3 || !filter ||
        filter->size() != inShape->size()) {
      return emitError(at) << "ConvTranspose needs ranked input and filter of "
                              "the same rank >= 3";
    }
    size_t spatial = inShape->size() - 2;
    llvm::SmallVector<int64_t> ones(spatial, 1), zeros(spatial, 0);
    auto strides = attrInts(def, "strides").value_or(ones);
    auto dilations = attrInts(def, "dilations").value_or(ones);
    auto outPad = attrInts(def, "output_padding").value_or(zeros);
    auto pads = attrInts(def, "pads")
                    .value_or(llvm::SmallVector<int64_t>(2 * spatial, 0));
    if (strides.size() != spatial || dilations.size() != spatial ||
        outPad.size() != spatial || pads.size() != 2 * spatial) {
      return emitError(at) << "ConvTranspose strides, dilations, pads or "
                              "output_padding do not match "
                           << spatial << " spatial dims";
    }
    StringRef mode = attrStr("auto_pad", "NOTSET");
    auto outputShape = attrInts(def, "output_shape");
    if (outputShape || mode == "SAME_UPPER" || mode == "SAME_LOWER") {
      llvm::SmallVector<int64_t> target;
      if (outputShape) {
        target.assign(outputShape->end() -
                          std::min(outputShape->size(), spatial),
                      outputShape->end());
      } else {
        for (size_t i = 0; i < spatial; ++i) {
          target.push_back((*inShape)[2 + i] * strides[i]);
        }
      }
      if (target.size() != spatial) {
        return emitError(at)
               << "ConvTranspose output_shape has " << target.size() << " dims";
      }
      for (size_t i = 0; i < spatial; ++i) {
        int64_t size = (*inShape)[2 + i], k = (*filter)[2 + i];
        if (ShapedType::isDynamic(size) || ShapedType::isDynamic(k)) {
          return emitError(at) << "ConvTranspose output_shape/auto_pad needs "
                                  "static spatial sizes";
        }
        int64_t total = strides[i] * (size - 1) + outPad[i] +
                        ((k - 1) * dilations[i] + 1) - target[i];
        if (total < 0) {
          // ONNX puts the surplus into output_padding-like extra cells;
          // graph.conv_transpose needs it as output_padding.
          outPad[i] -= total;
          total = 0;
        }
        int64_t half = total / 2;
        bool upper = mode != "SAME_LOWER";
        pads[i] = upper ? half : total - half;
        pads[spatial + i] = upper ? total - half : half;
      }
    } else if (mode == "VALID") {
      pads.assign(2 * spatial, 0);
    } else if (mode != "NOTSET") {
      return emitError(at) << "ConvTranspose auto_pad '" << mode
                           << "' is unknown";
    }
    llvm::SmallVector<NamedAttribute> attrs = {
        named("strides", i64Array(strides)),
        named("dilations", i64Array(dilations)),
        named("pad_low", i64Array(llvm::ArrayRef(pads).take_front(spatial))),
        named("pad_high", i64Array(llvm::ArrayRef(pads).drop_front(spatial))),
        named("output_padding", i64Array(outPad)),
        named("groups", i64Attr(attrInt(def, "group", 1)))};
    llvm::SmallVector<Value> operands = {in[0], in[1]};
    if (operand(2)) {
      operands.push_back(in[2]);
    }
    return one(build1(at, "graph.conv_transpose", operands, attrs));
  }
  return notTranslated(node, at);
}

} // namespace graphc::import
