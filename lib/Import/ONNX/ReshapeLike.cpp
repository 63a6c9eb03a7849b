//===- ReshapeLike.cpp - ONNX data movement -------------------------------===//
//
// Squeeze/Unsqueeze, Tile, Expand, Pad, DepthToSpace/SpaceToDepth, OneHot.
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
OnnxImporter::importReshapeLike(const GraphNode &node,
                                const onnx::NodeProto &def,
                                llvm::ArrayRef<Value> in, Location at) {
  StringRef op = node.op;
  if (op == "Squeeze" || op == "Unsqueeze") {
    if (failed(need(1))) {
      return failure();
    }
    bool present;
    auto axes = intsArg(1, "axes", present);
    if (failed(axes)) {
      return failure();
    }
    if (axes->empty()) {
      if (op == "Unsqueeze") {
        return emitError(at) << "Unsqueeze without axes";
      }
      auto shape = getShape(in[0]);
      if (!shape) {
        return emitError(at) << "Squeeze without axes of an unranked input";
      }
      for (size_t i = 0; i < shape->size(); ++i) {
        if (ShapedType::isDynamic((*shape)[i])) {
          return emitError(at) << "Squeeze without axes of dimension " << i
                               << " of unknown size";
        }
        if ((*shape)[i] == 1) {
          axes->push_back(i);
        }
      }
    }
    return one(build1(at, op == "Squeeze" ? "graph.squeeze" : "graph.unsqueeze",
                      {in[0]}, {named("axes", i64Array(*axes))}));
  }
  if (op == "Tile") {
    if (failed(need(2))) {
      return failure();
    }
    auto repeats = constInts(in[1]);
    if (!repeats) {
      return emitError(at) << "Tile with computed repeats is not supported";
    }
    return one(build1(at, "graph.tile", {in[0]},
                      {named("multiples", i64Array(*repeats))}));
  }
  if (op == "Expand") {
    if (failed(need(2))) {
      return failure();
    }
    auto target = constInts(in[1]);
    if (!target) {
      return emitError(at) << "Expand with a computed shape is not supported";
    }
    auto shape = getShape(in[0]);
    if (!shape) {
      return emitError(at) << "Expand of an unranked input";
    }
    // ONNX broadcasts both ways: the result is the broadcast of the two.
    size_t rank = std::max(shape->size(), target->size());
    llvm::SmallVector<int64_t> out(rank, 1);
    for (size_t i = 0; i < rank; ++i) {
      int64_t a =
          i + shape->size() >= rank ? (*shape)[i + shape->size() - rank] : 1;
      int64_t b =
          i + target->size() >= rank ? (*target)[i + target->size() - rank] : 1;
      if (ShapedType::isDynamic(a) && b == 1) {
        return emitError(at)
               << "Expand keeps dimension " << i << " of unknown size";
      }
      if (a != 1 && b != 1 && a != b && !ShapedType::isDynamic(a)) {
        return emitError(at) << "Expand cannot broadcast " << a << " to " << b;
      }
      out[i] = b == 1 ? a : b;
    }
    return one(build1(at, "graph.broadcast_to", {in[0]},
                      {named("shape", i64Array(out))}));
  }
  if (op == "Pad") {
    if (failed(need(1))) {
      return failure();
    }
    auto shape = getShape(in[0]);
    if (!shape) {
      return emitError(at) << "Pad of an unranked input";
    }
    int64_t rank = shape->size();
    bool present;
    auto pads = intsArg(1, "pads", present);
    if (failed(pads)) {
      return failure();
    }
    llvm::SmallVector<int64_t> axes;
    if (opset >= 18 && operand(3)) {
      auto a = constInts(in[3]);
      if (!a) {
        return emitError(at) << "Pad with computed axes is not supported";
      }
      for (int64_t x : *a) {
        axes.push_back(x < 0 ? x + rank : x);
      }
    } else {
      for (int64_t i = 0; i < rank; ++i) {
        axes.push_back(i);
      }
    }
    if (int64_t(pads->size()) != 2 * int64_t(axes.size())) {
      return emitError(at) << "Pad has " << pads->size() << " pads for "
                           << axes.size() << " axes";
    }
    llvm::SmallVector<int64_t> low(rank, 0), high(rank, 0);
    for (size_t i = 0; i < axes.size(); ++i) {
      if (axes[i] < 0 || axes[i] >= rank) {
        return emitError(at) << "Pad axis out of range for rank " << rank;
      }
      low[axes[i]] = (*pads)[i];
      high[axes[i]] = (*pads)[axes.size() + i];
    }
    StringRef mode = attrStr("mode", "constant");
    if (mode == "wrap") {
      return one(importWrapPad(in[0], low, high, at));
    }
    if (mode != "constant" && mode != "reflect" && mode != "edge") {
      return emitError(at) << "Pad mode '" << mode << "' is not supported";
    }
    Type element = getElementType(in[0]);
    Value fill;
    if (opset < 11) {
      fill = scalar(at, element, attrFloat(def, "value", 0));
    } else if (Value v = operand(2)) {
      fill = v;
      if (auto s = getShape(v); s && !s->empty()) {
        fill = build1(at, "graph.reshape", {v}, {named("shape", i64Array({}))});
      }
    } else {
      fill = scalar(at, element, 0);
    }
    if (!fill) {
      return failure();
    }
    // Negative pads crop: slice first, then pad the rest.
    Value x = in[0];
    bool crop = llvm::any_of(low, [](int64_t v) { return v < 0; }) ||
                llvm::any_of(high, [](int64_t v) { return v < 0; });
    if (crop) {
      if (!isStatic(shape)) {
        return emitError(at) << "Pad with negative pads needs a static shape";
      }
      llvm::SmallVector<int64_t> s(rank), l(rank), st(rank, 1);
      for (int64_t d = 0; d < rank; ++d) {
        s[d] = std::max<int64_t>(0, -low[d]);
        l[d] = (*shape)[d] - std::max<int64_t>(0, -high[d]);
        low[d] = std::max<int64_t>(0, low[d]);
        high[d] = std::max<int64_t>(0, high[d]);
      }
      x = build1(at, "graph.slice", {x},
                 {named("starts", i64Array(s)), named("limits", i64Array(l)),
                  named("strides", i64Array(st))});
      if (!x) {
        return failure();
      }
    }
    Attribute m = kindAttr(("#graph<pad_mode " + mode + ">").str());
    if (!m) {
      return failure();
    }
    return one(build1(at, "graph.pad", {x, fill},
                      {named("low", i64Array(low)),
                       named("high", i64Array(high)), named("mode", m)}));
  }
  return notTranslated(node, at);
}

FailureOr<OnnxImporter::Results>
OnnxImporter::importDepthSpace(const GraphNode &node,
                               const onnx::NodeProto &def,
                               llvm::ArrayRef<Value> in, Location at) {
  StringRef op = node.op;
  if (op == "DepthToSpace" || op == "SpaceToDepth") {
    if (failed(need(1))) {
      return failure();
    }
    auto shape = getShape(in[0]);
    if (!isStatic(shape) || shape->size() != 4) {
      return emitError(at) << op << " needs a static 4-D input";
    }
    int64_t b = attrInt(def, "blocksize", 0);
    int64_t n = (*shape)[0], c = (*shape)[1], h = (*shape)[2], w = (*shape)[3];
    if (b <= 0 || (op == "DepthToSpace" ? c % (b * b) : (h % b) | (w % b))) {
      return emitError(at) << op << " blocksize " << b
                           << " does not divide the input";
    }
    llvm::SmallVector<int64_t> s1, perm, s2;
    if (op == "DepthToSpace") {
      if (attrStr("mode", "DCR") == "CRD") {
        s1 = {n, c / (b * b), b, b, h, w};
        perm = {0, 1, 4, 2, 5, 3};
      } else {
        s1 = {n, b, b, c / (b * b), h, w};
        perm = {0, 3, 4, 1, 5, 2};
      }
      s2 = {n, c / (b * b), h * b, w * b};
    } else {
      s1 = {n, c, h / b, b, w / b, b};
      perm = {0, 3, 5, 1, 2, 4};
      s2 = {n, c * b * b, h / b, w / b};
    }
    Value r =
        build1(at, "graph.reshape", {in[0]}, {named("shape", i64Array(s1))});
    r = r ? build1(at, "graph.transpose", {r}, {named("perm", i64Array(perm))})
          : Value();
    return one(
        r ? build1(at, "graph.reshape", {r}, {named("shape", i64Array(s2))})
          : Value());
  }
  if (op == "OneHot") {
    if (failed(need(3))) {
      return failure();
    }
    auto depth = constInts(in[1]);
    DenseElementsAttr depthF;
    int64_t d;
    if (depth && depth->size() == 1) {
      d = (*depth)[0];
    } else if (matchPattern(in[1], m_Constant(&depthF)) &&
               depthF.getNumElements() == 1 &&
               isa<FloatType>(depthF.getElementType())) {
      d = int64_t(
          (*depthF.getValues<llvm::APFloat>().begin()).convertToDouble());
    } else {
      return emitError(at) << "OneHot with a computed depth is not supported";
    }
    Value indices = in[0];
    Type idx = getElementType(indices);
    if (!idx.isInteger(32) && !idx.isInteger(64)) {
      indices = build1(at, "graph.cast", {indices},
                       {named("to", TypeAttr::get(builder.getI64Type()))},
                       builder.getI64Type());
      if (!indices) {
        return failure();
      }
    }
    // ONNX: a negative index counts from the end of depth.
    if (auto ids = constInts(indices);
        !ids || llvm::any_of(*ids, [](int64_t v) { return v < 0; })) {
      Type it = getElementType(indices);
      Attribute lt = kindAttr("#graph<compare_direction lt>");
      if (!lt) {
        return failure();
      }
      Value zero = scalar(at, it, 0);
      Value neg = build1(at, "graph.compare", {indices, zero},
                         {named("direction", lt)}, builder.getI1Type());
      Value wrapped = build1(at, "graph.add", {indices, scalar(at, it, d)});
      indices = neg && wrapped ? build1(at, "graph.select",
                                        {neg, wrapped, indices}, {}, it)
                               : Value();
      if (!indices) {
        return failure();
      }
    }
    auto part = [&](int64_t i) -> Value {
      Value s = build1(at, "graph.slice", {in[2]},
                       {named("starts", i64Array({i})),
                        named("limits", i64Array({i + 1})),
                        named("strides", i64Array({1}))});
      return s ? build1(at, "graph.reshape", {s},
                        {named("shape", i64Array({}))})
               : Value();
    };
    Value off = part(0), on = part(1);
    if (!off || !on) {
      return failure();
    }
    return one(build1(at, "graph.one_hot", {indices, on, off},
                      {named("depth", i64Attr(d)),
                       named("axis", i64Attr(attrInt(def, "axis", -1)))},
                      getElementType(in[2])));
  }

  return notTranslated(node, at);
}

} // namespace graphc::import
