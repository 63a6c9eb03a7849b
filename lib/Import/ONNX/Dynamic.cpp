//===- Dynamic.cpp - ONNX NonZero and Compress: bounded outputs ----------===//
//
// The size of these ops' outputs depends on their inputs' values, and
// graphc compiles static shapes. When those values are constants the
// output is folded or gathered exactly. Otherwise the output is *bounded*:
// it has its largest possible size, the valid entries first (in ONNX's
// order) and zeros after, and the number of valid entries is an extra i64
// scalar result of @main named OUTPUT:valid_count, after the model's
// outputs (docs/design/importers.md, "Bounded outputs"). A warning names
// the node, since a consumer that reads the padding sees zeros.
//
// Both use one compaction: row k of a [N, R] matrix goes to row
// (number of selected rows before k) of a zero [N + 1, R] matrix, or to
// the spare last row when k is not selected (graph.scatter_nd), which is
// then cut off.
//
//===----------------------------------------------------------------------===//

#include "OnnxImporterImpl.h"

namespace graphc::import {

using mlir::emitError;
using mlir::failure;

namespace {

/// The selected rows of `rows` ([N, R]) moved to the front of a zero
/// [N, R] matrix, `mask` ([N], i1) saying which are selected; also returns
/// the number selected (i64 scalar). Null values on failure.
std::pair<Value, Value> compact(OnnxImporter &imp, Value rows, Value mask,
                                Location at) {
  auto shape = *getShape(rows);
  int64_t n = shape[0], r = shape[1];
  Type i64 = imp.builder.getI64Type();
  auto castTo64 = [&](Value v) {
    return imp.build1(at, "graph.cast", {v},
                      {imp.named("to", mlir::TypeAttr::get(i64))}, i64);
  };
  Value ones = castTo64(mask);
  if (!ones) {
    return {};
  }
  Value before =
      imp.build1(at, "graph.cumulative", {ones},
                 {imp.named("kind", imp.kindAttr("#graph<reduce_kind sum>")),
                  imp.named("axis", imp.i64Attr(0)),
                  imp.named("exclusive", imp.builder.getUnitAttr())});
  Value target =
      before ? imp.build1(at, "graph.select",
                          {mask, before, imp.scalar(at, i64, n)}, {}, i64)
             : Value();
  target = target ? imp.build1(at, "graph.reshape", {target},
                               {imp.named("shape", imp.i64Array({n, 1}))})
                  : Value();
  auto zerosType = RankedTensorType::get({n + 1, r}, getElementType(rows));
  Type element = zerosType.getElementType();
  Attribute zero = llvm::isa<FloatType>(element)
                       ? Attribute(imp.builder.getFloatAttr(element, 0))
                       : Attribute(imp.builder.getIntegerAttr(element, 0));
  Value zeros = imp.constant(at, DenseElementsAttr::get(zerosType, zero));
  Value spread = target
                     ? imp.build1(at, "graph.scatter_nd", {zeros, target, rows})
                     : Value();
  Value kept = spread ? imp.build1(at, "graph.slice", {spread},
                                   {imp.named("starts", imp.i64Array({0, 0})),
                                    imp.named("limits", imp.i64Array({n, r})),
                                    imp.named("strides", imp.i64Array({1, 1}))})
                      : Value();
  Value count =
      imp.build1(at, "graph.reduce", {ones},
                 {imp.named("kind", imp.kindAttr("#graph<reduce_kind sum>")),
                  imp.named("axes", imp.i64Array({0}))});
  return {kept, count};
}

} // namespace

/// NonZero: [rank, nnz] i64 coordinates in row-major order.
static FailureOr<OnnxImporter::Results>
importNonZero(OnnxImporter &imp, Value x, StringRef output, Location at) {
  auto shape = getShape(x);
  if (!isStatic(shape)) {
    return emitError(at) << "NonZero needs its input's shape at compile time";
  }
  int64_t rank = shape->size(), n = 1;
  for (int64_t d : *shape) {
    n *= d;
  }
  // Coordinates of every element, [n, rank], row-major.
  llvm::SmallVector<int64_t> coords;
  coords.reserve(n * rank);
  llvm::SmallVector<int64_t> index(rank, 0);
  for (int64_t k = 0; k < n; ++k) {
    coords.append(index);
    for (int64_t d = rank - 1; d >= 0; --d) {
      if (++index[d] < (*shape)[d]) {
        break;
      }
      index[d] = 0;
    }
  }
  Type i64 = imp.builder.getI64Type();
  DenseElementsAttr known;
  if (matchPattern(x, mlir::m_Constant(&known))) {
    llvm::SmallVector<int64_t> picked;
    llvm::SmallVector<bool> nonzero;
    if (llvm::isa<FloatType>(known.getElementType())) {
      for (const llvm::APFloat &v : known.getValues<llvm::APFloat>()) {
        nonzero.push_back(!v.isZero());
      }
    } else {
      for (const llvm::APInt &v : known.getValues<llvm::APInt>()) {
        nonzero.push_back(!v.isZero());
      }
    }
    int64_t nnz = llvm::count(nonzero, true);
    for (int64_t d = 0; d < rank; ++d) {
      for (int64_t k = 0; k < n; ++k) {
        if (nonzero[known.isSplat() ? 0 : k]) {
          picked.push_back(coords[k * rank + d]);
        }
      }
    }
    if (known.isSplat()) {
      nnz = nonzero[0] ? n : 0;
    }
    return imp.one(imp.constant(
        at, DenseElementsAttr::get(RankedTensorType::get({rank, nnz}, i64),
                                   llvm::ArrayRef<int64_t>(picked))));
  }
  Value flat = imp.build1(at, "graph.reshape", {x},
                          {imp.named("shape", imp.i64Array({n}))});
  Value mask =
      flat ? imp.build1(
                 at, "graph.compare",
                 {flat, imp.scalar(at, getElementType(x), 0)},
                 {imp.named("direction",
                            imp.kindAttr("#graph<compare_direction ne>"))},
                 imp.builder.getI1Type())
           : Value();
  Value rows = imp.constant(
      at, DenseElementsAttr::get(RankedTensorType::get({n, rank}, i64),
                                 llvm::ArrayRef<int64_t>(coords)));
  if (!mask || !rows) {
    return failure();
  }
  auto [kept, count] = compact(imp, rows, mask, at);
  Value result = kept ? imp.build1(at, "graph.transpose", {kept},
                                   {imp.named("perm", imp.i64Array({1, 0}))})
                      : Value();
  if (!result || !count) {
    return failure();
  }
  mlir::emitWarning(at) << "NonZero's input is computed at run time: output '"
                        << output << "' is bounded to " << n
                        << " columns (zeros after the valid ones); their "
                           "number is the result '"
                        << output << ":valid_count'";
  imp.validCounts.push_back({(output + ":valid_count").str(), count});
  return OnnxImporter::Results{result};
}

/// Compress: the slices along `axis` (of the flattened input without one)
/// whose condition is true.
static FailureOr<OnnxImporter::Results>
importCompress(OnnxImporter &imp, const onnx::NodeProto &def, Value x,
               Value cond, StringRef output, Location at) {
  auto shape = getShape(x);
  if (!isStatic(shape)) {
    return emitError(at) << "Compress needs its input's shape at compile time";
  }
  const onnx::AttributeProto *axisAttr = imp.attr(def, "axis");
  int64_t rank = shape->size();
  int64_t axis = axisAttr ? axisAttr->i() : 0;
  axis = axis < 0 ? axis + rank : axis;
  if (axisAttr && (axis < 0 || axis >= rank)) {
    return emitError(at) << "Compress axis " << axisAttr->i()
                         << " is outside rank " << rank;
  }
  if (!axisAttr) {
    int64_t n = 1;
    for (int64_t d : *shape) {
      n *= d;
    }
    x = imp.build1(at, "graph.reshape", {x},
                   {imp.named("shape", imp.i64Array({n}))});
    if (!x) {
      return failure();
    }
    shape = llvm::SmallVector<int64_t>{n};
    rank = 1;
  }
  int64_t length = (*shape)[axis];
  auto condShape = getShape(cond);
  if (!isStatic(condShape) || condShape->size() != 1) {
    return emitError(at) << "Compress needs a 1-D condition of static length";
  }
  int64_t condLength = std::min((*condShape)[0], length);
  if (auto bits = imp.constInts(cond)) {
    // A constant condition: gather the chosen slices, exactly.
    llvm::SmallVector<int64_t> picked;
    for (int64_t k = 0; k < condLength; ++k) {
      if ((*bits)[k]) {
        picked.push_back(k);
      }
    }
    Value indices = imp.i64Const(at, picked);
    return imp.one(imp.build1(at, "graph.gather", {x, indices},
                              {imp.named("axis", imp.i64Attr(axis))}));
  }
  if ((*condShape)[0] != length) {
    return emitError(at) << "Compress's condition is computed at run time and "
                         << "has " << (*condShape)[0] << " entries for "
                         << length
                         << " slices; a bounded output needs one "
                            "per slice";
  }
  // Bounded: move the axis first, flatten the rest, compact the rows.
  llvm::SmallVector<int64_t> perm = {axis};
  for (int64_t d = 0; d < rank; ++d) {
    if (d != axis) {
      perm.push_back(d);
    }
  }
  Value moved = axis ? imp.build1(at, "graph.transpose", {x},
                                  {imp.named("perm", imp.i64Array(perm))})
                     : x;
  int64_t rest = length ? mlir::ShapedType::getNumElements(*shape) / length : 0;
  Value rows =
      moved ? imp.build1(at, "graph.reshape", {moved},
                         {imp.named("shape", imp.i64Array({length, rest}))})
            : Value();
  Value mask = imp.build1(
      at, "graph.cast", {cond},
      {imp.named("to", mlir::TypeAttr::get(imp.builder.getI1Type()))},
      imp.builder.getI1Type());
  if (!rows || !mask) {
    return failure();
  }
  auto [kept, count] = compact(imp, rows, mask, at);
  llvm::SmallVector<int64_t> movedShape;
  for (int64_t d : perm) {
    movedShape.push_back((*shape)[d]);
  }
  Value result =
      kept ? imp.build1(at, "graph.reshape", {kept},
                        {imp.named("shape", imp.i64Array(movedShape))})
           : Value();
  if (result && axis) {
    llvm::SmallVector<int64_t> inverse(rank);
    for (int64_t d = 0; d < rank; ++d) {
      inverse[perm[d]] = d;
    }
    result = imp.build1(at, "graph.transpose", {result},
                        {imp.named("perm", imp.i64Array(inverse))});
  }
  if (!result || !count) {
    return failure();
  }
  mlir::emitWarning(at) << "Compress's condition is computed at run time: "
                        << "output '" << output << "' is bounded to " << length
                        << " slices (zeros after the valid ones); "
                        << "their number is the result '" << output
                        << ":valid_count'";
  imp.validCounts.push_back({(output + ":valid_count").str(), count});
  return OnnxImporter::Results{result};
}

std::optional<FailureOr<OnnxImporter::Results>>
OnnxImporter::importDynamic(const GraphNode &node, const onnx::NodeProto &def,
                            ArrayRef<Value> in, Location at) {
  StringRef output = def.output_size() ? StringRef(def.output(0)) : "";
  if (node.op == "NonZero") {
    if (failed(need(1))) {
      return FailureOr<Results>(failure());
    }
    return importNonZero(*this, in[0], output, at);
  }
  if (node.op == "Compress") {
    if (failed(need(2))) {
      return FailureOr<Results>(failure());
    }
    return importCompress(*this, def, in[0], in[1], output, at);
  }
  return std::nullopt;
}

} // namespace graphc::import
