//===- Resize.cpp - ONNX Resize and Upsample ------------------------------===//
//
// Resize/Upsample: scales to sizes, every coordinate mode.
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

/// The output sizes of Resize/Upsample node `op`: from its `sizes` input
/// (with keep_aspect_ratio_policy), else from its scales (input or
/// attribute) times `shape`; `scales` is set in the second case.
static LogicalResult
resizeSizes(OnnxImporter &imp, StringRef op, int64_t opset,
            const onnx::NodeProto &def, llvm::ArrayRef<Value> in,
            llvm::ArrayRef<int64_t> shape, llvm::ArrayRef<int64_t> axes,
            StringRef policy, llvm::SmallVectorImpl<int64_t> &sizes,
            std::optional<llvm::SmallVector<double>> &scales, Location at) {
  auto operand = [&](unsigned i) { return i < in.size() ? in[i] : Value(); };
  int64_t rank = shape.size();
  bool legacyScales = op == "Upsample" || opset < 11;
  if (!legacyScales && operand(3)) {
    auto s = constantInts(in[3]);
    if (!s) {
      return emitError(at) << op << " with computed sizes is not supported";
    }
    if (s->size() != axes.size()) {
      return emitError(at) << op << " has " << s->size() << " sizes for "
                           << axes.size() << " axes";
    }
    if (policy != "stretch") {
      // One scale for all the axes: the largest that fits (not_larger) or
      // the smallest that covers (not_smaller).
      double scale = policy == "not_larger" ? 1e300 : 0;
      for (size_t i = 0; i < axes.size(); ++i) {
        int64_t dim = shape[axes[i]];
        if (ShapedType::isDynamic(dim) || dim == 0) {
          return emitError(at) << op
                               << " keep_aspect_ratio_policy needs "
                                  "static sizes";
        }
        double r = double((*s)[i]) / double(dim);
        scale =
            policy == "not_larger" ? std::min(scale, r) : std::max(scale, r);
      }
      for (size_t i = 0; i < axes.size(); ++i) {
        (*s)[i] = int64_t(std::nearbyint(scale * shape[axes[i]]));
      }
    }
    sizes.assign(shape.begin(), shape.end());
    for (size_t i = 0; i < axes.size(); ++i) {
      sizes[axes[i]] = (*s)[i];
    }
    for (int64_t i = 0; i < rank; ++i) {
      if (ShapedType::isDynamic(sizes[i])) {
        return emitError(at)
               << op << " keeps dimension " << i << " of unknown size";
      }
    }
  } else {
    Value sv = op == "Upsample" ? operand(1)
               : legacyScales   ? operand(1)
                                : operand(2);
    DenseElementsAttr sc;
    if (sv) {
      if (!matchPattern(sv, m_Constant(&sc)) ||
          !isa<FloatType>(sc.getElementType())) {
        return emitError(at) << op
                             << " with computed scales is not "
                                "supported";
      }
      scales.emplace();
      for (const llvm::APFloat &f : sc.getValues<llvm::APFloat>()) {
        scales->push_back(f.convertToDouble());
      }
    } else if (auto a = imp.attr(def, "scales")) {
      scales.emplace(a->floats().begin(), a->floats().end());
    } else {
      return emitError(at) << op << " has neither sizes nor scales";
    }
    if (scales->size() != axes.size()) {
      return emitError(at) << op << " has " << scales->size() << " scales for "
                           << axes.size() << " axes";
    }
    llvm::SmallVector<double> full(rank, 1.0);
    for (size_t i = 0; i < axes.size(); ++i) {
      full[axes[i]] = (*scales)[i];
    }
    scales = full;
    for (int64_t i = 0; i < rank; ++i) {
      if (ShapedType::isDynamic(shape[i])) {
        return emitError(at)
               << op << " by scales of dimension " << i << " of unknown size";
      }
      sizes.push_back(int64_t(std::floor(shape[i] * (*scales)[i])));
    }
  }
  return success();
}

FailureOr<OnnxImporter::Results>
OnnxImporter::importResize(const GraphNode &node, const onnx::NodeProto &def,
                           llvm::ArrayRef<Value> in, Location at) {
  StringRef op = node.op;
  if (op == "Resize" || op == "Upsample") {
    if (failed(need(1))) {
      return failure();
    }
    auto shape = getShape(in[0]);
    if (!shape) {
      return emitError(at) << op << " of an unranked input";
    }
    int64_t rank = shape->size();
    StringRef mode = attrStr("mode", "nearest");
    StringRef coord =
        attrStr("coordinate_transformation_mode",
                (op == "Upsample" || opset < 11) ? "asymmetric" : "half_pixel");
    // Opset < 11 rounds nearest down.
    StringRef nearest = attrStr("nearest_mode", (op == "Upsample" || opset < 11)
                                                    ? "floor"
                                                    : "round_prefer_floor");
    // Opset 18: scales/sizes may name only some axes.
    llvm::SmallVector<int64_t> axes;
    if (auto a = attrInts(def, "axes")) {
      for (int64_t x : *a) {
        if (x < -rank || x >= rank) {
          return emitError(at)
                 << op << " axis " << x << " out of range for rank " << rank;
        }
        axes.push_back(x < 0 ? x + rank : x);
      }
    } else {
      for (int64_t i = 0; i < rank; ++i) {
        axes.push_back(i);
      }
    }
    StringRef policy = attrStr("keep_aspect_ratio_policy", "stretch");
    if (policy != "stretch" && policy != "not_larger" &&
        policy != "not_smaller") {
      return emitError(at) << op << " keep_aspect_ratio_policy '" << policy
                           << "' is unknown";
    }
    if (mode == "bilinear" || mode == "trilinear") {
      mode = "linear";
    }
    if (mode != "nearest" && mode != "linear" && mode != "cubic") {
      return emitError(at) << op << " mode '" << mode << "' is unknown";
    }
    if (coord != "half_pixel" && coord != "align_corners" &&
        coord != "asymmetric" && coord != "pytorch_half_pixel" &&
        coord != "half_pixel_symmetric" && coord != "tf_crop_and_resize") {
      return emitError(at) << op << " coordinate_transformation_mode '" << coord
                           << "' is unknown";
    }
    // tf_crop_and_resize: the box, normalized, per named axis (input 1).
    std::optional<llvm::SmallVector<double>> roi;
    if (coord == "tf_crop_and_resize") {
      DenseElementsAttr r;
      if (!operand(1) || !matchPattern(in[1], m_Constant(&r)) ||
          !isa<FloatType>(r.getElementType())) {
        return emitError(at) << op
                             << " roi must be a constant for "
                                "tf_crop_and_resize";
      }
      if (r.getNumElements() != int64_t(2 * axes.size())) {
        return emitError(at) << op << " roi has " << r.getNumElements()
                             << " entries for " << axes.size() << " axes";
      }
      roi.emplace(2 * rank, 0.0);
      for (int64_t i = 0; i < rank; ++i) {
        (*roi)[rank + i] = 1.0;
      }
      auto v = llvm::to_vector(r.getValues<llvm::APFloat>());
      for (size_t i = 0; i < axes.size(); ++i) {
        (*roi)[axes[i]] = v[i].convertToDouble();
        (*roi)[rank + axes[i]] = v[axes.size() + i].convertToDouble();
      }
    }
    // Sizes: from `sizes`, else from scales times the input shape.
    llvm::SmallVector<int64_t> sizes;
    std::optional<llvm::SmallVector<double>> scales;
    if (failed(resizeSizes(*this, op, opset, def, in, *shape, axes, policy,
                           sizes, scales, at))) {
      return failure();
    }
    if (nearest != "round_prefer_floor" && nearest != "round_prefer_ceil" &&
        nearest != "floor" && nearest != "ceil") {
      return emitError(at) << op << " nearest_mode '" << nearest
                           << "' is unknown";
    }
    // Scales that sizes / input does not reproduce (a size rounded down)
    // go to graph.resize: the coordinate transformation uses them.
    bool exactScales = false;
    if (scales) {
      for (int64_t i = 0; i < rank; ++i) {
        exactScales |= (*scales)[i] != double(sizes[i]) / double((*shape)[i]);
      }
    }
    // At scale 1 every mode and coordinate mapping is the identity (this
    // also covers integer inputs, which graph.resize interpolates only by
    // nearest).
    if (llvm::equal(sizes, *shape) && !exactScales && !roi) {
      return one(build1(at, "graph.identity", {in[0]}));
    }
    Attribute m = kindAttr(("#graph<resize_mode " + mode + ">").str());
    Attribute c = kindAttr(("#graph<coordinate_mode " + coord + ">").str());
    if (!m || !c) {
      return failure();
    }
    llvm::SmallVector<NamedAttribute> resizeAttrs = {
        named("sizes", i64Array(sizes)), named("mode", m),
        named("coordinate_mode", c)};
    if (exactScales) {
      resizeAttrs.push_back(
          named("scales", builder.getDenseF64ArrayAttr(*scales)));
    }
    if (mode == "nearest" && nearest != "round_prefer_floor") {
      Attribute n = kindAttr(("#graph<nearest_mode " + nearest + ">").str());
      if (!n) {
        return failure();
      }
      resizeAttrs.push_back(named("nearest_mode", n));
    }
    if (mode == "cubic") {
      float a = attrFloat(def, "cubic_coeff_a", -0.75f);
      if (a != -0.75f) {
        resizeAttrs.push_back(
            named("cubic_coeff_a", builder.getF64FloatAttr(a)));
      }
    }
    if (mode != "nearest" && attrInt(def, "exclude_outside", 0)) {
      resizeAttrs.push_back(named("exclude_outside", builder.getUnitAttr()));
    }
    // Antialiasing only changes a linear or cubic downscale.
    if (mode != "nearest" && attrInt(def, "antialias", 0)) {
      resizeAttrs.push_back(named("antialias", builder.getUnitAttr()));
    }
    if (roi) {
      resizeAttrs.push_back(named("roi", builder.getDenseF64ArrayAttr(*roi)));
      float e = attrFloat(def, "extrapolation_value", 0.0f);
      if (e != 0.0f) {
        resizeAttrs.push_back(
            named("extrapolation_value", builder.getF64FloatAttr(e)));
      }
    }
    return one(build1(at, "graph.resize", {in[0]}, resizeAttrs));
  }
  return notTranslated(node, at);
}

} // namespace graphc::import
