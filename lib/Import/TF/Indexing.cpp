//===- Indexing.cpp - TensorFlow indexing ops -----------------------------===//
//
// The translator of the TensorFlow indexing and gradient helpers: Gather,
// Range, DynamicStitch, OneHot, BroadcastGradientArgs. TFOps.cpp names this
// file for each op it takes; importNode (GraphDefImporter.cpp) dispatches here
// and records the result.
//
//===----------------------------------------------------------------------===//

#include "GraphDefImporterImpl.h"

namespace graphc::import {

LogicalResult GraphDefImporter::translateIndexing(
    const GraphNode &node, const tensorflow::NodeDef &nd, Location at,
    StringRef op, llvm::ArrayRef<Value> in, Value &result,
    llvm::SmallVectorImpl<Value> &results) {
  if (op == "BroadcastGradientArgs") {
    // The reduction axes of each operand's gradient, from static shapes.
    if (failed(needInputs(in, at, op, 2))) {
      return failure();
    }
    auto s0 = constTensor(in[0]), s1 = constTensor(in[1]);
    if (!s0 || !s1) {
      return emitError(at) << "BroadcastGradientArgs needs static shapes";
    }
    size_t rank = std::max(s0->data.size(), s1->data.size());
    IntTensor r0, r1;
    for (size_t i = 0; i < rank; ++i) {
      size_t o0 = rank - s0->data.size(), o1 = rank - s1->data.size();
      int64_t d0 = i < o0 ? 1 : s0->data[i - o0];
      int64_t d1 = i < o1 ? 1 : s1->data[i - o1];
      if (d0 != d1 && d0 != 1 && d1 != 1) {
        return emitError(at)
               << "BroadcastGradientArgs: dimension " << i << " sizes " << d0
               << " and " << d1 << " do not broadcast";
      }
      if (d0 == 1 && d1 != 1) {
        r0.data.push_back(i);
      } else if (d1 == 1 && d0 != 1) {
        r1.data.push_back(i);
      } else if (d0 == 1 && d1 == 1) {
        r0.data.push_back(i);
        r1.data.push_back(i);
      }
    }
    r0.shape = {int64_t(r0.data.size())};
    r1.shape = {int64_t(r1.data.size())};
    Type element = getElementType(in[0]);
    results.push_back(intConst(at, r0, element));
    results.push_back(intConst(at, r1, element));
    if (!results[0] || !results[1]) {
      return failure();
    }
  } else if (op == "Gather" || op == "GatherV2") {
    if (failed(needInputs(in, at, op, 2))) {
      return failure();
    }
    int64_t axis = 0;
    if (op == "GatherV2") {
      auto a = in.size() > 2 ? constInts(in[2]) : std::nullopt;
      if (!a || a->size() != 1) {
        return emitError(at) << "GatherV2 needs a constant axis";
      }
      axis = (*a)[0];
    }
    result = emit(at, "graph.gather", {in[0], in[1]},
                  {named("axis", builder.getI64IntegerAttr(axis))});
  } else if (op == "Range") {
    if (failed(needInputs(in, at, op, 3))) {
      return failure();
    }
    auto s = constTensor(in[0]), l = constTensor(in[1]), d = constTensor(in[2]);
    if (!s || !l || !d || s->data.size() != 1 || l->data.size() != 1 ||
        d->data.size() != 1 || d->data[0] == 0) {
      return emitError(at) << "Range needs constant integer start/limit/delta";
    }
    IntTensor t;
    for (int64_t v = s->data[0];
         d->data[0] > 0 ? v < l->data[0] : v > l->data[0]; v += d->data[0]) {
      t.data.push_back(v);
    }
    t.shape = {int64_t(t.data.size())};
    result = intConst(at, t, getElementType(in[0]));
  } else if (op == "DynamicStitch") {
    // Constant index/data pairs only (the shape arithmetic of Sum/Mean
    // gradients).
    unsigned n = in.size() / 2;
    IntTensor t;
    std::map<int64_t, int64_t> merged;
    for (unsigned i = 0; i < n; ++i) {
      auto idx = constTensor(in[i]), data = constTensor(in[n + i]);
      if (!idx || !data || idx->data.size() != data->data.size()) {
        return emitError(at) << "DynamicStitch needs constant scalar-element "
                                "indices and data";
      }
      for (size_t k = 0; k < idx->data.size(); ++k) {
        merged[idx->data[k]] = data->data[k];
      }
    }
    for (auto [k, v] : merged) {
      if (k != int64_t(t.data.size())) {
        return emitError(at) << "DynamicStitch indices are not dense";
      }
      t.data.push_back(v);
    }
    t.shape = {int64_t(t.data.size())};
    result = intConst(at, t, getElementType(in[n]));
  } else if (op == "OneHot") {
    // OneHot(indices, depth, on_value, off_value) with attr axis.
    if (failed(needInputs(in, at, op, 4))) {
      return failure();
    }
    auto depth = constInts(in[1]);
    if (!depth || depth->size() != 1) {
      return emitError(at) << "OneHot needs a constant depth";
    }
    const tensorflow::AttrValue *axis = attr(nd, "axis");
    result =
        emit(at, "graph.one_hot", {in[0], in[2], in[3]},
             {named("depth", builder.getI64IntegerAttr((*depth)[0])),
              named("axis", builder.getI64IntegerAttr(axis ? axis->i() : -1))},
             getElementType(in[2]));
  } else {
    return notTranslated(at, op, "TF/Indexing.cpp");
  }
  recordResults = true;
  return success();
}

} // namespace graphc::import
