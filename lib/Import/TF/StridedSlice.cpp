//===- StridedSlice.cpp - TensorFlow StridedSlice -------------------------===//
//
// StridedSlice: begin/end/strides masks resolved to graph.slice (+ reshape).
//
//===----------------------------------------------------------------------===//

#include "GraphDefImporterImpl.h"

namespace graphc::import {

LogicalResult GraphDefImporter::stridedSlice(const tensorflow::NodeDef &nd,
                                             Location at,
                                             llvm::ArrayRef<Value> in,
                                             Value &result) {
  if (in.size() < 4) {
    return emitError(at) << "StridedSlice needs 4 inputs";
  }
  auto begin = constInts(in[1]), end = constInts(in[2]),
       stride = constInts(in[3]);
  auto shape = getShape(in[0]);
  if (!begin || !end || !stride || begin->size() != end->size() ||
      begin->size() != stride->size() || !shape) {
    return emitError(at) << "StridedSlice needs constant begin/end/strides "
                            "and a ranked input";
  }
  auto mask = [&](StringRef name) -> int64_t {
    const tensorflow::AttrValue *a = attr(nd, name);
    return a ? a->i() : 0;
  };
  int64_t beginMask = mask("begin_mask"), endMask = mask("end_mask"),
          ellipsisMask = mask("ellipsis_mask"),
          newAxisMask = mask("new_axis_mask"),
          shrinkMask = mask("shrink_axis_mask");
  int64_t rank = shape->size();
  unsigned n = begin->size();
  int64_t real = 0;
  for (unsigned i = 0; i < n; ++i) {
    if (!((ellipsisMask >> i) & 1) && !((newAxisMask >> i) & 1)) {
      ++real;
    }
  }
  llvm::SmallVector<int64_t> starts(rank, 0), limits(*shape), steps(rank, 1),
      finalShape;
  int64_t d = 0;
  auto fullDim = [&]() -> LogicalResult {
    if (d >= rank) {
      return emitError(at) << "StridedSlice indexes past rank " << rank;
    }
    finalShape.push_back((*shape)[d]);
    ++d;
    return success();
  };
  for (unsigned i = 0; i < n; ++i) {
    if ((ellipsisMask >> i) & 1) {
      for (int64_t k = 0, e = rank - real; k < e; ++k) {
        if (failed(fullDim())) {
          return failure();
        }
      }
      continue;
    }
    if ((newAxisMask >> i) & 1) {
      finalShape.push_back(1);
      continue;
    }
    if (d >= rank) {
      return emitError(at) << "StridedSlice indexes past rank " << rank;
    }
    int64_t size = (*shape)[d];
    int64_t st = (*stride)[i];
    bool shrink = (shrinkMask >> i) & 1;
    bool full = ((beginMask >> i) & 1) && ((endMask >> i) & 1) && st == 1;
    if (full && !shrink) {
      if (failed(fullDim())) {
        return failure();
      }
      continue;
    }
    if (size == ShapedType::kDynamic) {
      return emitError(at) << "StridedSlice of dynamic dimension " << d;
    }
    if (st <= 0) {
      return emitError(at) << "StridedSlice with stride " << st
                           << " is not supported";
    }
    int64_t b = ((beginMask >> i) & 1) ? 0 : (*begin)[i];
    int64_t e = ((endMask >> i) & 1) ? size : (*end)[i];
    if (b < 0) {
      b += size;
    }
    if (shrink) {
      if (b < 0 || b >= size) {
        return emitError(at) << "StridedSlice index " << (*begin)[i]
                             << " is out of range for size " << size;
      }
      e = b + 1;
      st = 1;
    } else {
      if (e < 0) {
        e += size;
      }
      b = std::clamp<int64_t>(b, 0, size);
      e = std::clamp<int64_t>(e, b, size);
      finalShape.push_back((e - b + st - 1) / st);
    }
    starts[d] = b;
    limits[d] = e;
    steps[d] = st;
    ++d;
  }
  while (d < rank) {
    if (failed(fullDim())) {
      return failure();
    }
  }
  // A constant input (shapes, paddings) folds through graph.slice and
  // graph.reshape.
  bool identity = true;
  for (int64_t k = 0; k < rank; ++k) {
    identity &= starts[k] == 0 && limits[k] == (*shape)[k] && steps[k] == 1;
  }
  Value v = in[0];
  if (!identity) {
    if (llvm::is_contained(limits, ShapedType::kDynamic)) {
      return emitError(at) << "StridedSlice keeping a dynamic dimension "
                              "while slicing another is not supported";
    }
    v = emit(
        at, "graph.slice", {v},
        {builder.getNamedAttr("starts", builder.getDenseI64ArrayAttr(starts)),
         builder.getNamedAttr("limits", builder.getDenseI64ArrayAttr(limits)),
         builder.getNamedAttr("strides", builder.getDenseI64ArrayAttr(steps))});
    if (!v) {
      return failure();
    }
  }
  auto now = getShape(v);
  if (now &&
      llvm::ArrayRef<int64_t>(*now) != llvm::ArrayRef<int64_t>(finalShape)) {
    if (llvm::count(finalShape, ShapedType::kDynamic) > 1) {
      return emitError(at) << "StridedSlice result has more than one dynamic "
                              "dimension";
    }
    llvm::SmallVector<int64_t> target(finalShape);
    for (int64_t &t : target) {
      if (t == ShapedType::kDynamic) {
        t = -1;
      }
    }
    v = reshape(at, v, target);
  }
  result = v;
  return success(bool(result));
}

} // namespace graphc::import
