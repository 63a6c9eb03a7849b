//===- ShapeOps.cpp - ONNX shape queries and gathers ----------------------===//
//
// Shape, Size, Range, Gather, GatherND and the Scatter ops.
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
OnnxImporter::importShapeOps(const GraphNode &node, const onnx::NodeProto &def,
                             llvm::ArrayRef<Value> in, Location at) {
  StringRef op = node.op;
  // ---- shapes and data movement ----------------------------------------
  if (op == "Shape" || op == "Size") {
    if (failed(need(1))) {
      return failure();
    }
    auto shape = getShape(in[0]);
    if (!shape) {
      return emitError(at) << op << " of an unranked input";
    }
    int64_t rank = shape->size();
    if (op == "Size") {
      // A static shape folds to a constant, and so does its product.
      Value s = build1(at, "graph.shape", {in[0]}, {}, builder.getI64Type());
      Attribute k = kindAttr("#graph<reduce_kind prod>");
      if (!s || !k) {
        return failure();
      }
      return one(build1(at, "graph.reduce", {s},
                        {named("kind", k), named("axes", i64Array({0}))}));
    }
    int64_t start = attrInt(def, "start", 0), end = attrInt(def, "end", rank);
    start = std::clamp<int64_t>(start < 0 ? start + rank : start, 0, rank);
    end = std::clamp<int64_t>(end < 0 ? end + rank : end, 0, rank);
    end = std::max(start, end);
    Value s = build1(at, "graph.shape", {in[0]}, {}, builder.getI64Type());
    if (!s || (start == 0 && end == rank)) {
      return one(s);
    }
    return one(build1(at, "graph.slice", {s},
                      {named("starts", i64Array({start})),
                       named("limits", i64Array({end})),
                       named("strides", i64Array({1}))}));
  }
  if (op == "Range") {
    if (failed(need(3))) {
      return failure();
    }
    DenseElementsAttr a[3];
    for (int i = 0; i < 3; ++i) {
      if (!matchPattern(in[i], m_Constant(&a[i])) ||
          a[i].getNumElements() != 1) {
        return emitError(at) << "Range with a computed start, limit or delta "
                                "is not supported";
      }
    }
    Type element = a[0].getElementType();
    auto get = [&](int i) {
      if (isa<FloatType>(element)) {
        return (*a[i].getValues<llvm::APFloat>().begin()).convertToDouble();
      }
      return double((*a[i].getValues<llvm::APInt>().begin()).getSExtValue());
    };
    double start = get(0), limit = get(1), delta = get(2);
    if (delta == 0) {
      return emitError(at) << "Range delta is 0";
    }
    int64_t n =
        std::max<int64_t>(0, int64_t(std::ceil((limit - start) / delta)));
    if (n > (int64_t(1) << 24)) {
      return emitError(at) << "Range of " << n
                           << " elements is too large to "
                              "fold";
    }
    auto type = RankedTensorType::get({n}, element);
    llvm::SmallVector<Attribute> elems;
    for (int64_t i = 0; i < n; ++i) {
      if (auto f = dyn_cast<FloatType>(element)) {
        elems.push_back(builder.getFloatAttr(
            f, element.isF32() ? double(float(start) + float(i) * float(delta))
                               : start + i * delta));
      } else {
        int64_t s0 = (*a[0].getValues<llvm::APInt>().begin()).getSExtValue();
        int64_t d0 = (*a[2].getValues<llvm::APInt>().begin()).getSExtValue();
        elems.push_back(builder.getIntegerAttr(element, s0 + i * d0));
      }
    }
    return one(constant(at, DenseElementsAttr::get(type, elems)));
  }
  if (op == "Gather") {
    if (failed(need(2))) {
      return failure();
    }
    int64_t axis = attrInt(def, "axis", 0);
    Value indices = in[1];
    Type idx = getElementType(indices);
    if (!idx.isInteger(32) && !idx.isInteger(64)) {
      return emitError(at) << "Gather indices of type " << idx;
    }
    // Constant data and indices (shape arithmetic) fold through
    // graph.gather's folder.
    return one(build1(at, "graph.gather", {in[0], indices},
                      {named("axis", i64Attr(axis))}));
  }
  if (op == "GatherND") {
    if (failed(need(2))) {
      return failure();
    }
    return one(
        build1(at, "graph.gather_nd", {in[0], in[1]},
               {named("batch_dims", i64Attr(attrInt(def, "batch_dims", 0)))}));
  }
  if (op == "ScatterElements" || op == "ScatterND" || op == "Scatter") {
    if (failed(need(3))) {
      return failure();
    }
    StringRef red = attrStr("reduction", "none");
    Attribute r = kindAttr(("#graph<scatter_reduction " + red + ">").str());
    if (!r) {
      return failure();
    }
    llvm::SmallVector<NamedAttribute> attrs = {named("reduction", r)};
    if (op != "ScatterND") {
      attrs.push_back(named("axis", i64Attr(attrInt(def, "axis", 0))));
    }
    return one(build1(
        at, op == "ScatterND" ? "graph.scatter_nd" : "graph.scatter_elements",
        {in[0], in[1], in[2]}, attrs));
  }
  return notTranslated(node, at);
}

} // namespace graphc::import
