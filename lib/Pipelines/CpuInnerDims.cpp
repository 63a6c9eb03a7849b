//===- CpuInnerDims.cpp - ops on contiguous innermost dimensions ---------===//
//
// Lane partial sums. A sum over an operand's innermost dimensions (batch norm's
// per-channel sums over N, H, W of an NCHW tensor, the global average pool, a
// softmax row) tiles, in graphc-cpu-tile-and-vectorize's leaf strategy, into
// one vector of the innermost dimension at a time, and the vectoriser reduces
// each vector horizontally into the scalar accumulator: a chain of scalar
// adds per vector (`vaddss`, about 4 cycles an element). Here such a sum
// becomes lane partial sums (`lanes` accumulators along the contiguous
// elements, a plain vector add per vector), a scalar tail for the elements
// past the last whole vector, and one horizontal sum per output element.
// See "Per-channel sums" in docs/design/training.md.
//
// Block copies. A transpose of outer dimensions that moves contiguous
// blocks (a filter's KH x KW taps) tiles into vectors of the last dimension
// alone (KW = 3 elements, scalar code); collapsed, the vectors are whole
// blocks.
//
//===----------------------------------------------------------------------===//

#include "CpuInnerDims.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/AffineMap.h"

using namespace mlir;

namespace {

/// Whether `map`'s results are loop dimensions or the constant 0 (a
/// broadcast size-1 dimension), the forms the rewrite re-indexes.
bool plainResults(AffineMap map) {
  return llvm::all_of(map.getResults(), [](AffineExpr e) {
    if (isa<AffineDimExpr>(e)) {
      return true;
    }
    auto c = dyn_cast<AffineConstantExpr>(e);
    return c && c.getValue() == 0;
  });
}

/// Whether `map` reads loop dimensions [first, numLoops) as its trailing
/// results, in order and nowhere else (true), or none of them (true, with
/// `reads` false); any other use of them is false.
bool readsSuffix(AffineMap map, unsigned first, unsigned numLoops,
                 bool &reads) {
  unsigned k = numLoops - first;
  unsigned n = map.getNumResults();
  unsigned uses = 0;
  for (AffineExpr e : map.getResults()) {
    if (auto d = dyn_cast<AffineDimExpr>(e); d && d.getPosition() >= first) {
      ++uses;
    }
  }
  reads = uses != 0;
  if (!reads) {
    return true;
  }
  if (uses != k || n < k) {
    return false;
  }
  for (unsigned i = 0; i < k; ++i) {
    auto d = dyn_cast<AffineDimExpr>(map.getResult(n - k + i));
    if (!d || d.getPosition() != first + i) {
      return false;
    }
  }
  return true;
}

/// Splits the last loop of `op` (a parallel generic whose operands all end
/// in that loop's dimension) into pieces whose vectors LLVM keeps whole:
/// the multiple of `lanes` (tiled by lanes later), then powers of two. A
/// vector<9xf32> copy came out of LLVM as 9 scalar moves, re-vectorised
/// across the outer loop with gathers and scatters; 8 + 1 are two moves.
void splitBlock(RewriterBase &rewriter, linalg::GenericOp op, int64_t lanes) {
  int64_t block = op.getStaticLoopRanges().back();
  int64_t rest = block % lanes;
  if (llvm::isPowerOf2_64(rest) || rest == 0) {
    return;
  }
  SmallVector<std::pair<int64_t, int64_t>> pieces;
  int64_t offset = block - rest;
  if (offset > 0) {
    pieces.push_back({0, offset});
  }
  while (rest > 0) {
    int64_t width = int64_t(1) << llvm::Log2_64(rest);
    pieces.push_back({offset, width});
    offset += width;
    rest -= width;
  }
  Location loc = op.getLoc();
  rewriter.setInsertionPointAfter(op);
  auto slice = [&](Value v, int64_t at, int64_t size) -> Value {
    auto type = cast<RankedTensorType>(v.getType());
    int64_t rank = type.getRank();
    SmallVector<OpFoldResult> offsets(rank, rewriter.getIndexAttr(0));
    SmallVector<OpFoldResult> sizes, strides(rank, rewriter.getIndexAttr(1));
    for (int64_t d : type.getShape()) {
      sizes.push_back(rewriter.getIndexAttr(d));
    }
    offsets.back() = rewriter.getIndexAttr(at);
    sizes.back() = rewriter.getIndexAttr(size);
    return tensor::ExtractSliceOp::create(rewriter, loc, v, offsets, sizes,
                                          strides);
  };
  Value result = op.getDpsInitOperand(0)->get();
  for (auto [at, size] : pieces) {
    SmallVector<Value> ins;
    for (OpOperand *in : op.getDpsInputOperands()) {
      ins.push_back(slice(in->get(), at, size));
    }
    Value into = slice(result, at, size);
    auto piece = linalg::GenericOp::create(
        rewriter, loc, TypeRange{into.getType()}, ins, ValueRange{into},
        op.getIndexingMapsArray(), op.getIteratorTypesArray());
    rewriter.cloneRegionBefore(op.getRegion(), piece.getRegion(),
                               piece.getRegion().end());
    auto type = cast<RankedTensorType>(result.getType());
    SmallVector<OpFoldResult> offsets(type.getRank(), rewriter.getIndexAttr(0));
    SmallVector<OpFoldResult> sizes,
        strides(type.getRank(), rewriter.getIndexAttr(1));
    for (int64_t d : type.getShape()) {
      sizes.push_back(rewriter.getIndexAttr(d));
    }
    offsets.back() = rewriter.getIndexAttr(at);
    sizes.back() = rewriter.getIndexAttr(size);
    result = tensor::InsertSliceOp::create(rewriter, loc, piece.getResult(0),
                                           result, offsets, sizes, strides);
  }
  rewriter.replaceAllUsesWith(op.getResult(0), result);
  rewriter.eraseOp(op);
}

} // namespace

LogicalResult graphc::splitLaneReduction(RewriterBase &rewriter,
                                         linalg::LinalgOp op, int64_t lanes) {
  if (lanes < 2 || !op.hasPureTensorSemantics() || op.hasDynamicShape() ||
      op.getNumDpsInits() != 1 || op.hasIndexSemantics() ||
      op->getNumRegions() != 1 || op->getRegion(0).empty()) {
    return failure();
  }
  unsigned numLoops = op.getNumLoops();
  SmallVector<utils::IteratorType> iters = op.getIteratorTypesArray();
  SmallVector<int64_t> bounds = op.getStaticLoopRanges();
  if (numLoops == 0 || iters.back() != utils::IteratorType::reduction) {
    return failure();
  }
  // The body: yield(acc + x) with acc, the output element, used only there.
  OpOperand *initOperand = op.getDpsInitOperand(0);
  Block &body = op->getRegion(0).front();
  Value acc = op.getMatchingBlockArgument(initOperand);
  auto yield = dyn_cast<linalg::YieldOp>(body.getTerminator());
  if (!yield || yield->getNumOperands() != 1 || !acc.hasOneUse() ||
      !isa<FloatType>(acc.getType())) {
    return failure();
  }
  Operation *combiner = yield->getOperand(0).getDefiningOp();
  if (!combiner || combiner->getBlock() != &body ||
      !isa<arith::AddFOp, arith::MaximumFOp, arith::MinimumFOp,
           arith::MaxNumFOp, arith::MinNumFOp>(combiner) ||
      (combiner->getOperand(0) == acc) == (combiner->getOperand(1) == acc)) {
    return failure();
  }
  AffineMap outMap = op.getMatchingIndexingMap(initOperand);
  if (!plainResults(outMap)) {
    return failure();
  }
  SmallVector<OpOperand *> inputs;
  for (OpOperand *in : op.getDpsInputOperands()) {
    auto type = dyn_cast<RankedTensorType>(in->get().getType());
    if (!type || !plainResults(op.getMatchingIndexingMap(in))) {
      return failure();
    }
    inputs.push_back(in);
  }
  // The longest suffix of reduction loops that every input reads as its
  // trailing dimensions (or not at all): those elements are contiguous.
  unsigned first = numLoops;
  while (first > 0 && iters[first - 1] == utils::IteratorType::reduction) {
    --first;
  }
  SmallVector<bool> reads(inputs.size(), false);
  for (; first < numLoops; ++first) {
    bool ok = true, any = false;
    for (auto [i, in] : llvm::enumerate(inputs)) {
      bool r = false;
      ok = ok && readsSuffix(op.getMatchingIndexingMap(in), first, numLoops, r);
      reads[i] = r;
      any = any || r;
    }
    if (ok && any) {
      break;
    }
  }
  if (first == numLoops) {
    return failure();
  }
  int64_t p = 1;
  for (unsigned d = first; d < numLoops; ++d) {
    p *= bounds[d];
  }
  if (p < 2 * lanes) {
    return failure();
  }
  int64_t tail = p % lanes, main = p - tail;

  // New loop order: the output's parallel loops, then the other reduction
  // loops, then the contiguous elements (q, v for the partial sums, t for
  // the tail).
  MLIRContext *ctx = rewriter.getContext();
  SmallVector<unsigned> pos(first);
  SmallVector<utils::IteratorType> outerIters;
  unsigned next = 0;
  for (unsigned d = 0; d < first; ++d) {
    if (iters[d] == utils::IteratorType::parallel) {
      pos[d] = next++;
      outerIters.push_back(iters[d]);
    }
  }
  for (unsigned d = 0; d < first; ++d) {
    if (iters[d] == utils::IteratorType::reduction) {
      pos[d] = next++;
      outerIters.push_back(iters[d]);
    }
  }
  auto remap = [&](AffineMap map, unsigned numDims,
                   ArrayRef<AffineExpr> extra) {
    SmallVector<AffineExpr> results;
    for (AffineExpr e : map.getResults()) {
      if (auto d = dyn_cast<AffineDimExpr>(e)) {
        if (d.getPosition() >= first) {
          continue;
        }
        results.push_back(getAffineDimExpr(pos[d.getPosition()], ctx));
      } else {
        results.push_back(e);
      }
    }
    results.append(extra.begin(), extra.end());
    return AffineMap::get(numDims, 0, results, ctx);
  };

  Location loc = op.getLoc();
  rewriter.setInsertionPoint(op);
  // An input that reads the suffix, with it collapsed to one dimension and
  // cut to [offset, offset + size).
  auto contiguous = [&](Value v, int64_t offset, int64_t size) -> Value {
    auto type = cast<RankedTensorType>(v.getType());
    int64_t rank = type.getRank(), k = numLoops - first;
    if (k > 1) {
      SmallVector<ReassociationIndices> groups;
      for (int64_t i = 0; i < rank - k; ++i) {
        groups.push_back({i});
      }
      ReassociationIndices last;
      for (int64_t i = rank - k; i < rank; ++i) {
        last.push_back(i);
      }
      groups.push_back(last);
      v = tensor::CollapseShapeOp::create(rewriter, loc, v, groups);
      type = cast<RankedTensorType>(v.getType());
      rank = type.getRank();
    }
    SmallVector<OpFoldResult> offsets(rank, rewriter.getIndexAttr(0));
    SmallVector<OpFoldResult> sizes, strides(rank, rewriter.getIndexAttr(1));
    for (int64_t s : type.getShape()) {
      sizes.push_back(rewriter.getIndexAttr(s));
    }
    offsets.back() = rewriter.getIndexAttr(offset);
    sizes.back() = rewriter.getIndexAttr(size);
    if (offset == 0 && size == type.getShape().back()) {
      return v;
    }
    return tensor::ExtractSliceOp::create(rewriter, loc, v, offsets, sizes,
                                          strides)
        .getResult();
  };
  auto cloneBody = [&](linalg::GenericOp to) {
    rewriter.cloneRegionBefore(op->getRegion(0), to.getRegion(),
                               to.getRegion().end());
  };
  Value init = initOperand->get();
  auto outType = cast<RankedTensorType>(init.getType());
  Type et = outType.getElementType();

  // Lane partial sums: loops (outer..., q, v).
  unsigned partialLoops = first + 2;
  AffineExpr q = getAffineDimExpr(first, ctx);
  AffineExpr v = getAffineDimExpr(first + 1, ctx);
  SmallVector<Value> partialIns;
  SmallVector<AffineMap> partialMaps;
  for (auto [i, in] : llvm::enumerate(inputs)) {
    AffineMap map = op.getMatchingIndexingMap(in);
    if (!reads[i]) {
      partialIns.push_back(in->get());
      partialMaps.push_back(remap(map, partialLoops, {}));
      continue;
    }
    Value cut = contiguous(in->get(), 0, main);
    auto cutType = cast<RankedTensorType>(cut.getType());
    SmallVector<int64_t> shape(cutType.getShape().drop_back());
    shape.append({main / lanes, lanes});
    SmallVector<ReassociationIndices> groups;
    for (int64_t j = 0; j + 1 < cutType.getRank(); ++j) {
      groups.push_back({j});
    }
    groups.push_back({cutType.getRank() - 1, cutType.getRank()});
    partialIns.push_back(tensor::ExpandShapeOp::create(
        rewriter, loc, RankedTensorType::get(shape, et), cut, groups));
    partialMaps.push_back(remap(map, partialLoops, {q, v}));
  }
  SmallVector<int64_t> partialShape(outType.getShape());
  partialShape.push_back(lanes);
  // The partials start at the combiner's neutral element: 0 for a sum,
  // -inf for a maximum, +inf for a minimum.
  Value neutral;
  if (isa<arith::AddFOp>(combiner)) {
    neutral =
        arith::ConstantOp::create(rewriter, loc, et, rewriter.getZeroAttr(et));
  } else {
    bool negative = isa<arith::MaximumFOp, arith::MaxNumFOp>(combiner);
    APFloat inf =
        APFloat::getInf(cast<FloatType>(et).getFloatSemantics(), negative);
    neutral = arith::ConstantOp::create(rewriter, loc, et,
                                        rewriter.getFloatAttr(et, inf));
  }
  Value partialInit =
      linalg::FillOp::create(
          rewriter, loc, ValueRange{neutral},
          ValueRange{tensor::EmptyOp::create(rewriter, loc, partialShape, et)})
          .getResult(0);
  partialMaps.push_back(remap(outMap, partialLoops, {v}));
  SmallVector<utils::IteratorType> partialIters = outerIters;
  partialIters.append(
      {utils::IteratorType::reduction, utils::IteratorType::parallel});
  auto partial = linalg::GenericOp::create(
      rewriter, loc, TypeRange{partialInit.getType()}, partialIns,
      ValueRange{partialInit}, partialMaps, partialIters);
  cloneBody(partial);

  // The tail (elements past the last whole vector) into the original init.
  Value start = init;
  if (tail > 0) {
    unsigned tailLoops = first + 1;
    AffineExpr t = getAffineDimExpr(first, ctx);
    SmallVector<Value> tailIns;
    SmallVector<AffineMap> tailMaps;
    for (auto [i, in] : llvm::enumerate(inputs)) {
      AffineMap map = op.getMatchingIndexingMap(in);
      if (!reads[i]) {
        tailIns.push_back(in->get());
        tailMaps.push_back(remap(map, tailLoops, {}));
        continue;
      }
      tailIns.push_back(contiguous(in->get(), main, tail));
      tailMaps.push_back(remap(map, tailLoops, {t}));
    }
    tailMaps.push_back(remap(outMap, tailLoops, {}));
    SmallVector<utils::IteratorType> tailIters = outerIters;
    tailIters.push_back(utils::IteratorType::reduction);
    auto tailOp =
        linalg::GenericOp::create(rewriter, loc, TypeRange{outType}, tailIns,
                                  ValueRange{init}, tailMaps, tailIters);
    cloneBody(tailOp);
    start = tailOp.getResult(0);
  }

  // out = start combined with every lane (start + the sum of the lanes).
  unsigned outRank = outType.getRank();
  SmallVector<AffineMap> combineMaps = {
      rewriter.getMultiDimIdentityMap(outRank + 1),
      AffineMap::getMultiDimIdentityMap(outRank + 1, ctx)
          .getMajorSubMap(outRank)};
  SmallVector<utils::IteratorType> combineIters(outRank,
                                                utils::IteratorType::parallel);
  combineIters.push_back(utils::IteratorType::reduction);
  auto combine = linalg::GenericOp::create(
      rewriter, loc, TypeRange{outType}, ValueRange{partial.getResult(0)},
      ValueRange{start}, combineMaps, combineIters,
      [&](OpBuilder &b, Location l, ValueRange args) {
        OperationState state(l, combiner->getName());
        state.addOperands({args[1], args[0]});
        state.addTypes(args[0].getType());
        state.addAttributes(combiner->getAttrs());
        linalg::YieldOp::create(b, l, b.create(state)->getResult(0));
      });
  rewriter.replaceOp(op, combine.getResults());
  return success();
}

LogicalResult graphc::collapseBlockCopy(RewriterBase &rewriter,
                                        linalg::LinalgOp op, int64_t lanes) {
  if (!op.hasPureTensorSemantics() || op.hasDynamicShape() ||
      op.getNumDpsInputs() < 1 || op.getNumDpsInits() != 1 ||
      op.getNumLoops() < 2 || op.getNumParallelLoops() != op.getNumLoops() ||
      op.hasIndexSemantics() ||
      !isa<linalg::TransposeOp, linalg::GenericOp>(op.getOperation())) {
    return failure();
  }
  SmallVector<AffineMap> maps = op.getIndexingMapsArray();
  if (!llvm::all_of(maps, [](AffineMap m) { return m.isPermutation(); })) {
    return failure();
  }
  // Innermost loops every map has as its trailing results, in order.
  unsigned numLoops = op.getNumLoops();
  unsigned k = 0;
  while (k < numLoops) {
    unsigned d = numLoops - 1 - k;
    bool trailing = llvm::all_of(maps, [&](AffineMap m) {
      auto e = dyn_cast<AffineDimExpr>(m.getResult(numLoops - 1 - k));
      return e && e.getPosition() == d;
    });
    if (!trailing) {
      break;
    }
    ++k;
  }
  SmallVector<int64_t> bounds = op.getStaticLoopRanges();
  if (k < 2 || k == numLoops || bounds.back() >= lanes) {
    return failure();
  }
  SmallVector<ReassociationIndices> groups;
  for (unsigned d = 0; d + k < numLoops; ++d) {
    groups.push_back({int64_t(d)});
  }
  ReassociationIndices inner;
  for (unsigned d = numLoops - k; d < numLoops; ++d) {
    inner.push_back(d);
  }
  groups.push_back(inner);
  linalg::LinalgOp target = op;
  rewriter.setInsertionPoint(op);
  if (isa<linalg::TransposeOp>(op.getOperation())) {
    FailureOr<linalg::GenericOp> generic =
        linalg::generalizeNamedOp(rewriter, op);
    if (failed(generic)) {
      return failure();
    }
    target = *generic;
  }
  FailureOr<linalg::CollapseResult> collapsed =
      linalg::collapseOpIterationDims(target, groups, rewriter);
  if (failed(collapsed)) {
    return failure();
  }
  rewriter.replaceOp(target, collapsed->results);
  splitBlock(rewriter, cast<linalg::GenericOp>(collapsed->collapsedOp), lanes);
  return success();
}
