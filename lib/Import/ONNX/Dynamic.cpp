//===- Dynamic.cpp - ONNX NonZero, Compress, Unique, NMS: bounded outputs -===//
//
// The size of these ops' outputs depends on their inputs' values, and
// graphc compiles static shapes. When those values are constants the
// output of NonZero and Compress is folded or gathered exactly. Otherwise
// (and always for Unique and NonMaxSuppression) the output is *bounded*:
// it has its largest possible size, the valid entries first (in ONNX's
// order) and zeros after, and the number of valid entries is an extra i64
// scalar result of @main named OUTPUT:valid_count, after the model's
// outputs (docs/design/importers.md, "Bounded outputs"). A warning names
// the node, since a consumer that reads the padding sees zeros.
//
// All use one compaction: row k of a [N, R] matrix goes to row
// (number of selected rows before k) of a zero [N + 1, R] matrix, or to
// the spare last row when k is not selected (graph.scatter_nd), which is
// then cut off.
//
//===----------------------------------------------------------------------===//

#include "OnnxNodeBuilder.h"

#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

#include <array>

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

/// The static shape of `op`'s input `x` and its optional `axis` attribute
/// (normalised; nullopt without one), or failure after emitting.
static FailureOr<std::pair<llvm::SmallVector<int64_t>, std::optional<int64_t>>>
shapeAndAxis(OnnxImporter &imp, const onnx::NodeProto &def, StringRef op,
             Value x, Location at) {
  auto shape = getShape(x);
  if (!isStatic(shape)) {
    return emitError(at) << op << " needs its input's shape at compile time";
  }
  const onnx::AttributeProto *axisAttr = imp.attr(def, "axis");
  if (!axisAttr) {
    return std::make_pair(*shape, std::optional<int64_t>());
  }
  int64_t rank = shape->size();
  int64_t axis = axisAttr->i() < 0 ? axisAttr->i() + rank : axisAttr->i();
  if (axis < 0 || axis >= rank) {
    return emitError(at) << op << " axis " << axisAttr->i()
                         << " is outside rank " << rank;
  }
  return std::make_pair(*shape, std::optional<int64_t>(axis));
}

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
  auto shapeAxis = shapeAndAxis(imp, def, "Compress", x, at);
  if (failed(shapeAxis)) {
    return failure();
  }
  std::optional<llvm::SmallVector<int64_t>> shape = shapeAxis->first;
  int64_t rank = shape->size();
  int64_t axis = shapeAxis->second.value_or(0);
  if (!shapeAxis->second) {
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

namespace {

/// 0, 1, ..., n-1 as a [n] i64 constant.
Value iota(OnnxImporter &imp, int64_t n, Location at) {
  llvm::SmallVector<int64_t> v(n);
  for (int64_t i = 0; i < n; ++i) {
    v[i] = i;
  }
  return imp.i64Const(at, v);
}

/// Vector `v` ([L]) compacted by `mask`: compact() of it as a column.
Value compactVector(OnnxImporter &imp, Value v, Value mask, Location at) {
  NodeBuilder b{imp, at};
  int64_t n = (*getShape(v))[0];
  Value column = b.reshape(v, {n, 1});
  if (!column) {
    return {};
  }
  return b.reshape(compact(imp, column, mask, at).first, {n});
}

/// The permutation that sorts the rows of `rows` ([L, R]) lexicographically,
/// equal rows in their order: one stable sort (graph.top_k, which keeps
/// the lower index first among equals) per column, from the last column
/// to the first.
Value lexicographicOrder(OnnxImporter &imp, Value rows, Location at) {
  NodeBuilder b{imp, at};
  auto shape = *getShape(rows);
  int64_t l = shape[0], r = shape[1];
  // Columns as contiguous rows: the CPU code generator's vectorized gather
  // does not read a strided column.
  Value columns = r > 1 ? b.transpose(rows, {1, 0}) : rows;
  Value perm;
  for (int64_t c = r - 1; c >= 0; --c) {
    Value key =
        b.reshape(r > 1 ? b.slice(columns, {c, 0}, {c + 1, l}) : columns, {l});
    if (perm) {
      key = b.gather(key, perm, 0);
    }
    if (!key) {
      return {};
    }
    auto sorted =
        imp.build(at, "graph.top_k", {key},
                  {b.i64("k", l), b.i64("axis", 0), b.unit("smallest")},
                  {getElementType(key), imp.builder.getI64Type()});
    if (sorted.size() != 2) {
      return {};
    }
    perm = perm ? b.gather(perm, sorted[1], 0) : sorted[1];
  }
  return perm;
}

} // namespace

/// Unique (opset 11): the distinct slices along `axis` (elements of the
/// flattened input without one), sorted or in order of first occurrence,
/// with the index of each one's first occurrence, each slice's position
/// among them and their counts. Y, indices and counts are bounded to the
/// number of slices; inverse_indices is exact.
static FailureOr<OnnxImporter::Results> importUnique(OnnxImporter &imp,
                                                     const onnx::NodeProto &def,
                                                     Value x, Location at) {
  NodeBuilder b{imp, at};
  auto shapeAxis = shapeAndAxis(imp, def, "Unique", x, at);
  if (failed(shapeAxis)) {
    return failure();
  }
  const llvm::SmallVector<int64_t> *shape = &shapeAxis->first;
  bool hasAxis = shapeAxis->second.has_value();
  int64_t axis = shapeAxis->second.value_or(0);
  bool sorted = imp.attrInt(def, "sorted", 1) != 0;
  int64_t rank = shape->size();
  int64_t numel = mlir::ShapedType::getNumElements(*shape);
  int64_t l = hasAxis ? (*shape)[axis] : numel;
  if (l == 0) {
    // No slices: every output is empty, and exact.
    Value none = imp.i64Const(at, {});
    Value y = hasAxis ? x : b.reshape(x, {0});
    if (!y) {
      return failure();
    }
    return OnnxImporter::Results{y, none, none, none};
  }
  int64_t r = numel / l;
  // The slices as the rows of [L, R], the axis moved first.
  llvm::SmallVector<int64_t> perm = {axis}, movedShape = {l};
  for (int64_t d = 0; hasAxis && d < rank; ++d) {
    if (d != axis) {
      perm.push_back(d);
      movedShape.push_back((*shape)[d]);
    }
  }
  Value moved = hasAxis && axis ? b.transpose(x, perm) : x;
  Value rows = b.reshape(moved, {l, r});
  Value order = rows ? lexicographicOrder(imp, rows, at) : Value();
  Value sortedRows = b.gather(rows, order, 0);
  // first[i]: sorted row i differs from row i-1 (starts a group); last[i]:
  // it differs from row i+1.
  Type i64 = imp.builder.getI64Type();
  Value one = imp.i64Const(at, {1});
  Value first = one, last = one;
  if (l > 1) {
    Value differs =
        b.cast(b.compare(b.slice(sortedRows, {1, 0}, {l, r}),
                         b.slice(sortedRows, {0, 0}, {l - 1, r}), "ne"),
               i64);
    differs = b.reduce(differs, "max", {1});
    first = b.concat({one, differs}, 0);
    last = b.concat({differs, one}, 0);
  }
  Value isFirst = b.compare(first, b.scalar(i64, 0), "ne");
  Value isLast = b.compare(last, b.scalar(i64, 0), "ne");
  Value positions = iota(imp, l, at);
  Value count = b.reduce(first, "sum", {0});
  Value group = b.op("graph.sub",
                     {b.op("graph.cumulative", {first},
                           {b.named("kind", b.enumAttr("reduce_kind", "sum")),
                            b.i64("axis", 0)}),
                      b.scalar(i64, 1)});
  if (!sortedRows || !isFirst || !isLast || !count || !group) {
    return failure();
  }
  Value uniqueRows = compact(imp, sortedRows, isFirst, at).first;
  Value starts = compactVector(imp, positions, isFirst, at);
  Value ends = compactVector(imp, positions, isLast, at);
  Value indices = compactVector(imp, order, isFirst, at);
  Value valid = b.compare(positions, count, "lt");
  Value counts = b.op(
      "graph.select",
      {valid,
       b.op("graph.add", {b.op("graph.sub", {ends, starts}), b.scalar(i64, 1)}),
       b.scalar(i64, 0)});
  auto scatterPositions = [&](Value where, Value what) {
    return b.op("graph.scatter_nd",
                {imp.i64Const(at, llvm::SmallVector<int64_t>(l, 0)),
                 b.reshape(where, {l, 1}), what});
  };
  // inverse[order[i]] = group[i].
  Value inverse = scatterPositions(order, group);
  if (!sorted) {
    // Groups in order of first occurrence; the padding after them stays last.
    Value key = b.op(
        "graph.select",
        {valid, indices, b.op("graph.add", {positions, b.scalar(i64, l)})});
    auto byFirst =
        key ? imp.build(at, "graph.top_k", {key},
                        {b.i64("k", l), b.i64("axis", 0), b.unit("smallest")},
                        {i64, i64})
            : llvm::SmallVector<Value>();
    if (byFirst.size() != 2) {
      return failure();
    }
    Value newOrder = byFirst[1];
    uniqueRows = b.gather(uniqueRows, newOrder, 0);
    indices = b.gather(indices, newOrder, 0);
    counts = b.gather(counts, newOrder, 0);
    inverse = b.gather(scatterPositions(newOrder, positions), inverse, 0);
  }
  Value y = b.reshape(uniqueRows,
                      hasAxis ? movedShape : llvm::SmallVector<int64_t>{l});
  if (y && hasAxis && axis) {
    llvm::SmallVector<int64_t> inversePerm(rank);
    for (int64_t d = 0; d < rank; ++d) {
      inversePerm[perm[d]] = d;
    }
    y = b.transpose(y, inversePerm);
  }
  if (!y || !indices || !inverse || !counts) {
    return failure();
  }
  llvm::SmallVector<std::string> bounded, counted;
  for (int k : {0, 1, 3}) {
    if (k < def.output_size() && !def.output(k).empty()) {
      bounded.push_back("'" + def.output(k) + "'");
      counted.push_back("'" + def.output(k) + ":valid_count'");
      imp.validCounts.push_back({def.output(k) + ":valid_count", count});
    }
  }
  if (!bounded.empty()) {
    mlir::emitWarning(at)
        << "Unique's number of distinct values depends on its input's "
        << "values: output " << llvm::join(bounded, ", ") << " is bounded to "
        << l << " entries (zeros after the valid ones); their number is the "
        << "result " << llvm::join(counted, ", ");
  }
  return OnnxImporter::Results{y, indices, inverse, counts};
}

namespace {

/// The value of a one-element constant operand, as a double; nullopt when
/// it is computed at run time.
std::optional<double> constantScalar(Value v) {
  DenseElementsAttr known;
  if (!matchPattern(v, mlir::m_Constant(&known)) ||
      known.getNumElements() != 1) {
    return std::nullopt;
  }
  if (llvm::isa<FloatType>(known.getElementType())) {
    llvm::APFloat f = *known.getValues<llvm::APFloat>().begin();
    bool lost = false;
    f.convert(llvm::APFloat::IEEEdouble(), llvm::APFloat::rmNearestTiesToEven,
              &lost);
    return f.convertToDouble();
  }
  return double((*known.getValues<llvm::APInt>().begin()).getSExtValue());
}

/// Boxes [B, N, 4] as corners (ymin, xmin, ymax, xmax), [B, N, 1] each:
/// center_point_box 0 gives two opposite corners in either order, 1 gives
/// (x_center, y_center, width, height).
std::array<Value, 4> boxCorners(NodeBuilder &b, Value boxes, int64_t batch,
                                int64_t n, bool centered) {
  std::array<Value, 4> c;
  for (int64_t k = 0; k < 4; ++k) {
    c[k] = b.slice(boxes, {0, 0, k}, {batch, n, k + 1});
  }
  if (centered) {
    Value half = b.scalar(getElementType(boxes), 0.5);
    Value hw = b.op("graph.mul", {c[2], half});
    Value hh = b.op("graph.mul", {c[3], half});
    return {b.op("graph.sub", {c[1], hh}), b.op("graph.sub", {c[0], hw}),
            b.op("graph.add", {c[1], hh}), b.op("graph.add", {c[0], hw})};
  }
  return {b.op("graph.min", {c[0], c[2]}), b.op("graph.min", {c[1], c[3]}),
          b.op("graph.max", {c[0], c[2]}), b.op("graph.max", {c[1], c[3]})};
}

/// Whether box `k` ([B, C, 1] corners and area) suppresses each of `all`
/// ([B, C, N]): their intersection and both areas are positive and
/// intersection / union > threshold, as ONNX Runtime decides.
Value overlaps(NodeBuilder &b, ArrayRef<Value> all, Value allArea,
               ArrayRef<Value> k, Value kArea, Value threshold) {
  Value zero = b.scalar(getElementType(allArea), 0);
  auto positive = [&](Value v) { return b.compare(v, zero, "gt"); };
  Value h = b.op("graph.sub", {b.op("graph.min", {all[2], k[2]}),
                               b.op("graph.max", {all[0], k[0]})});
  Value w = b.op("graph.sub", {b.op("graph.min", {all[3], k[3]}),
                               b.op("graph.max", {all[1], k[1]})});
  Value inter = b.op("graph.mul", {h, w});
  Value uni = b.op("graph.sub", {b.op("graph.add", {allArea, kArea}), inter});
  Value iou = b.op("graph.div", {inter, uni});
  Value result = b.op("graph.and", {positive(h), positive(w)});
  for (Value v : {inter, allArea, kArea, uni}) {
    result = b.op("graph.and", {result, positive(v)});
  }
  return b.op("graph.and", {result, b.compare(iou, threshold, "gt")});
}

} // namespace

/// NonMaxSuppression (opsets 10, 11): per batch and class, the boxes whose
/// score passes score_threshold, taken greedily by descending score (the
/// lower index first among equals) unless a box already taken overlaps
/// them by more than iou_threshold, at most max_output_boxes_per_class.
/// The greedy pass is an scf.while over the sorted candidates carrying
/// which are taken ([B, C, N]); the [b, c, box] rows of those taken are
/// compacted into a result bounded to B * C * min(max, N) rows.
static FailureOr<OnnxImporter::Results>
importNonMaxSuppression(OnnxImporter &imp, const onnx::NodeProto &def,
                        ArrayRef<Value> in, Location at) {
  NodeBuilder b{imp, at};
  auto boxShape = getShape(in[0]), scoreShape = getShape(in[1]);
  if (!isStatic(boxShape) || !isStatic(scoreShape) || boxShape->size() != 3 ||
      scoreShape->size() != 3 || (*boxShape)[2] != 4 ||
      (*scoreShape)[0] != (*boxShape)[0] ||
      (*scoreShape)[2] != (*boxShape)[1]) {
    return emitError(at) << "NonMaxSuppression needs boxes [B, N, 4] and "
                         << "scores [B, C, N] of static shapes, not "
                         << in[0].getType() << " and " << in[1].getType();
  }
  int64_t batch = (*boxShape)[0], n = (*boxShape)[1],
          classes = (*scoreShape)[1];
  // The optional scalars fix the output's size or the selection; graphc
  // needs them at compile time.
  static const char *const kNames[] = {"max_output_boxes_per_class",
                                       "iou_threshold", "score_threshold"};
  std::optional<double> given[3];
  for (unsigned i = 0; i < 3; ++i) {
    Value v = i + 2 < in.size() ? in[i + 2] : Value();
    if (!v) {
      continue;
    }
    given[i] = constantScalar(v);
    if (!given[i]) {
      return emitError(at)
             << "NonMaxSuppression's " << kNames[i]
             << " is computed at run time; graphc needs it at compile time "
                "(give it as a constant or an initializer, or freeze the "
                "input with --freeze-input)";
    }
  }
  int64_t maxOut = given[0] ? std::max<int64_t>(int64_t(*given[0]), 0) : 0;
  int64_t keep = std::min(maxOut, n), rows = batch * classes * n;
  Type i64 = imp.builder.getI64Type(), i1 = imp.builder.getI1Type();
  if (keep == 0) {
    return imp.one(imp.constant(
        at, DenseElementsAttr::get(RankedTensorType::get({0, 3}, i64),
                                   llvm::ArrayRef<int64_t>())));
  }
  Type element = getElementType(in[0]);
  Value threshold = b.scalar(element, given[1].value_or(0.0));
  // Candidates by descending score, their corners gathered: [B, C, N, 1].
  auto sortedBy = imp.build(at, "graph.top_k", {in[1]},
                            {b.i64("k", n), b.i64("axis", 2)}, {element, i64});
  if (sortedBy.size() != 2) {
    return failure();
  }
  Value order = sortedBy[1];
  Value valid =
      given[2]
          ? b.compare(sortedBy[0], b.scalar(element, *given[2]), "gt")
          : imp.constant(
                at, DenseElementsAttr::get(
                        RankedTensorType::get({batch, classes, n}, i1), true));
  std::array<Value, 4> corners =
      boxCorners(b, in[0], batch, n, imp.attrInt(def, "center_point_box", 0));
  for (Value &c : corners) {
    c = b.reshape(b.gather(c, order, 1, 1), {batch, classes, n});
  }
  Value area = b.op("graph.mul", {b.op("graph.sub", {corners[2], corners[0]}),
                                  b.op("graph.sub", {corners[3], corners[1]})});
  if (!valid || !area) {
    return failure();
  }
  // The greedy pass: step i takes candidate i unless a taken one overlaps it.
  auto keepType = RankedTensorType::get({batch, classes, n}, i1);
  auto counterType = RankedTensorType::get({}, i64);
  OpBuilder &builder = imp.builder;
  auto loop = mlir::scf::WhileOp::create(
      builder, at, llvm::SmallVector<Type>{counterType, keepType},
      ValueRange{b.scalar(i64, 0),
                 imp.constant(at, DenseElementsAttr::get(keepType, false))});
  OpBuilder::InsertionGuard guard(builder);
  mlir::Block *before = builder.createBlock(&loop.getBefore(), {},
                                            {counterType, keepType}, {at, at});
  Value more = b.compare(before->getArgument(0), b.scalar(i64, n), "lt");
  if (!more) {
    return failure();
  }
  mlir::scf::ConditionOp::create(
      builder, at,
      mlir::tensor::ExtractOp::create(builder, at, more, ValueRange{}),
      before->getArguments());
  mlir::Block *after = builder.createBlock(&loop.getAfter(), {},
                                           {counterType, keepType}, {at, at});
  Value i = after->getArgument(0), taken = after->getArgument(1);
  auto at_i = [&](Value v) {
    return b.reshape(b.gather(v, i, 2), {batch, classes, 1});
  };
  std::array<Value, 4> cornersI;
  for (int k = 0; k < 4; ++k) {
    cornersI[k] = at_i(corners[k]);
  }
  Value hit = overlaps(b, corners, area, cornersI, at_i(area), threshold);
  Value suppressed =
      b.reduce(b.cast(b.op("graph.and", {hit, taken}), i64), "max", {2}, true);
  Value takeI =
      b.op("graph.and",
           {at_i(valid), b.compare(suppressed, b.scalar(i64, 0), "eq")});
  Value isI = b.compare(iota(imp, n, at), i, "eq");
  Value next = b.op("graph.or", {taken, b.op("graph.and", {isI, takeI})});
  Value step = b.op("graph.add", {i, b.scalar(i64, 1)});
  if (!next || !step) {
    return failure();
  }
  mlir::scf::YieldOp::create(builder, at, ValueRange{step, next});
  builder.setInsertionPointAfter(loop);
  // The first max_output_boxes_per_class taken of each batch and class.
  taken = loop.getResult(1);
  Value rank = b.op(
      "graph.cumulative", {b.cast(taken, i64)},
      {b.named("kind", b.enumAttr("reduce_kind", "sum")), b.i64("axis", 2)});
  Value selected = b.reshape(
      b.op("graph.and", {taken, b.compare(rank, b.scalar(i64, maxOut), "le")}),
      {rows});
  llvm::SmallVector<int64_t> bc;
  bc.reserve(rows * 2);
  for (int64_t k = 0; k < rows; ++k) {
    bc.append({k / (classes * n), k / n % classes});
  }
  Value triples =
      b.concat({imp.constant(at, DenseElementsAttr::get(
                                     RankedTensorType::get({rows, 2}, i64),
                                     llvm::ArrayRef<int64_t>(bc))),
                b.reshape(order, {rows, 1})},
               1);
  if (!selected || !triples) {
    return failure();
  }
  auto [kept, count] = compact(imp, triples, selected, at);
  int64_t bound = batch * classes * keep;
  Value result = bound < rows ? b.slice(kept, {0, 0}, {bound, 3}) : kept;
  if (!result || !count) {
    return failure();
  }
  StringRef output = def.output(0);
  mlir::emitWarning(at) << "NonMaxSuppression's selection depends on its "
                        << "boxes' and scores' values: output '" << output
                        << "' is bounded to " << bound
                        << " rows (zeros after the valid ones); their number "
                        << "is the result '" << output << ":valid_count'";
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
  if (node.op == "Unique") {
    if (failed(need(1))) {
      return FailureOr<Results>(failure());
    }
    return importUnique(*this, def, in[0], at);
  }
  if (node.op == "NonMaxSuppression") {
    if (failed(need(2))) {
      return FailureOr<Results>(failure());
    }
    return importNonMaxSuppression(*this, def, in, at);
  }
  return std::nullopt;
}

} // namespace graphc::import
