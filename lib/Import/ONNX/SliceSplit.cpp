//===- SliceSplit.cpp - ONNX Slice and Split ------------------------------===//
//
// Slice (bounds normalised and clamped) and Split (sizes, num_outputs or
// equal parts).
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
OnnxImporter::importSliceSplit(const GraphNode &node,
                               const onnx::NodeProto &def,
                               llvm::ArrayRef<Value> in, Location at) {
  StringRef op = node.op;
  if (op == "Slice") {
    if (failed(need(1))) {
      return failure();
    }
    auto shape = getShape(in[0]);
    if (!shape) {
      return emitError(at) << "Slice of an unranked input";
    }
    int64_t rank = shape->size();
    bool present;
    FailureOr<llvm::SmallVector<int64_t>> starts, ends, axes, steps;
    if (opset < 10) {
      starts = attrInts(def, "starts").value_or(llvm::SmallVector<int64_t>());
      ends = attrInts(def, "ends").value_or(llvm::SmallVector<int64_t>());
      axes = attrInts(def, "axes").value_or(llvm::SmallVector<int64_t>());
      steps = llvm::SmallVector<int64_t>();
    } else {
      starts = intsArg(1, "", present);
      ends = intsArg(2, "", present);
      axes = intsArg(3, "", present);
      steps = intsArg(4, "", present);
    }
    if (failed(starts) || failed(ends) || failed(axes) || failed(steps)) {
      return failure();
    }
    if (starts->size() != ends->size()) {
      return emitError(at) << "Slice has " << starts->size() << " starts and "
                           << ends->size() << " ends";
    }
    if (axes->empty()) {
      for (size_t i = 0; i < starts->size(); ++i) {
        axes->push_back(i);
      }
    }
    if (steps->empty()) {
      steps->assign(starts->size(), 1);
    }
    if (axes->size() != starts->size() || steps->size() != starts->size()) {
      return emitError(at) << "Slice axes or steps do not match "
                           << starts->size() << " starts";
    }
    llvm::SmallVector<int64_t> lo(rank, 0), hi(*shape), st(rank, 1);
    llvm::SmallVector<bool> sliced(rank, false);
    for (size_t i = 0; i < axes->size(); ++i) {
      int64_t a = (*axes)[i] < 0 ? (*axes)[i] + rank : (*axes)[i];
      if (a < 0 || a >= rank || sliced[a]) {
        return emitError(at)
               << "Slice axis " << (*axes)[i]
               << " is out of range or repeated for rank " << rank;
      }
      sliced[a] = true;
      int64_t dim = (*shape)[a], step = (*steps)[i];
      int64_t s = (*starts)[i], e = (*ends)[i];
      if (step == 0) {
        return emitError(at) << "Slice step is 0";
      }
      if (ShapedType::isDynamic(dim)) {
        // Exact without knowing the size only for non-negative bounds
        // inside it, which a static result shape cannot express past the
        // end: refuse.
        return emitError(at) << "Slice along dimension " << a
                             << " of unknown size is not supported; fix the "
                                "input shapes with --input-shape";
      }
      if (s < 0) {
        s += dim;
      }
      if (e < 0) {
        e += dim;
      }
      if (step > 0) {
        s = std::clamp<int64_t>(s, 0, dim);
        e = std::clamp<int64_t>(e, 0, dim);
      } else {
        s = std::clamp<int64_t>(s, -1, dim - 1);
        e = std::clamp<int64_t>(e, -1, dim - 1);
      }
      lo[a] = s;
      hi[a] = e;
      st[a] = step;
    }
    for (int64_t d = 0; d < rank; ++d) {
      if (!sliced[d] && ShapedType::isDynamic((*shape)[d])) {
        return emitError(at) << "Slice keeps dimension " << d
                             << " of unknown size, which graph.slice cannot "
                                "express; fix the input shapes with "
                                "--input-shape";
      }
    }
    return one(
        build1(at, "graph.slice", {in[0]},
               {named("starts", i64Array(lo)), named("limits", i64Array(hi)),
                named("strides", i64Array(st))}));
  }
  if (op == "Split") {
    if (failed(need(1))) {
      return failure();
    }
    auto shape = getShape(in[0]);
    if (!shape) {
      return emitError(at) << "Split of an unranked input";
    }
    int64_t rank = shape->size(), axis = attrInt(def, "axis", 0);
    if (axis < 0) {
      axis += rank;
    }
    if (axis < 0 || axis >= rank) {
      return emitError(at) << "Split axis " << attrInt(def, "axis", 0)
                           << " out of range for rank " << rank;
    }
    bool present;
    auto sizes = intsArg(1, "split", present);
    if (failed(sizes)) {
      return failure();
    }
    int64_t parts = def.output_size();
    if (sizes->empty()) {
      int64_t dim = (*shape)[axis];
      if (ShapedType::isDynamic(dim)) {
        return emitError(at) << "Split of dimension " << axis
                             << " of unknown size into equal parts";
      }
      int64_t n = attrInt(def, "num_outputs", parts);
      if (n <= 0) {
        return emitError(at) << "Split into " << n << " parts";
      }
      int64_t chunk = (dim + n - 1) / n; // opset 18: last part smaller
      for (int64_t i = 0; i < n; ++i) {
        sizes->push_back(
            std::max<int64_t>(0, std::min(chunk, dim - i * chunk)));
      }
    }
    // A constant input (shape arithmetic) folds through graph.split.
    llvm::SmallVector<Type> elems(sizes->size(), getElementType(in[0]));
    auto r =
        build(at, "graph.split", {in[0]},
              {named("axis", i64Attr(axis)), named("sizes", i64Array(*sizes))},
              elems);
    if (r.empty()) {
      return failure();
    }
    return r;
  }
  return notTranslated(node, at);
}

} // namespace graphc::import
