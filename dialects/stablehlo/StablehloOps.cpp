//===- StablehloOps.cpp - stablehlo dialect, types and op verifiers -------===//
//
// The verifiers check the constraints of the StableHLO specification that
// the lowering relies on (shapes of results, dimension numbers in range), so
// a module graphc writes fails here rather than in XLA on a TPU VM.
//
//===----------------------------------------------------------------------===//

#include "stablehlo/StablehloOps.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallSet.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace graphc::stablehlo;

#include "stablehlo/StablehloDialect.cpp.inc"
#include "stablehlo/StablehloEnums.cpp.inc"

#define GET_TYPEDEF_CLASSES
#include "stablehlo/StablehloTypes.cpp.inc"

void StablehloDialect::initialize() {
  addOperations<
#define GET_OP_LIST
#include "stablehlo/StablehloOps.cpp.inc"
      >();
  addTypes<
#define GET_TYPEDEF_LIST
#include "stablehlo/StablehloTypes.cpp.inc"
      >();
  registerAttributes();
}

namespace {

std::string shapeStr(ArrayRef<int64_t> shape) {
  std::string s;
  llvm::raw_string_ostream os(s);
  os << '[';
  llvm::interleaveComma(shape, os);
  os << ']';
  return s;
}

/// Checks that `dims` are distinct and in [0, rank); `what` names them.
LogicalResult checkDims(Operation *op, ArrayRef<int64_t> dims, int64_t rank,
                        StringRef what) {
  llvm::SmallSet<int64_t, 8> seen;
  for (int64_t d : dims) {
    if (d < 0 || d >= rank) {
      return op->emitOpError() << what << " dimension " << d
                               << " is out of range for rank " << rank;
    }
    if (!seen.insert(d).second) {
      return op->emitOpError() << what << " dimension " << d << " repeats";
    }
  }
  return success();
}

/// Checks the result shape against the one the spec computes.
LogicalResult checkShape(Operation *op, Type result,
                         ArrayRef<int64_t> expected) {
  auto type = cast<RankedTensorType>(result);
  if (type.getShape() != expected) {
    return op->emitOpError()
           << "result shape " << shapeStr(type.getShape())
           << " does not match the expected " << shapeStr(expected);
  }
  return success();
}

RankedTensorType ranked(Value v) { return cast<RankedTensorType>(v.getType()); }

/// A body of `count` (accumulator, element) pairs of 0-d tensors.
LogicalResult checkReducer(Operation *op, Region &body, ValueRange inits) {
  Block &block = body.front();
  if (block.getNumArguments() != 2 * inits.size()) {
    return op->emitOpError() << "body takes " << block.getNumArguments()
                             << " arguments; expected " << 2 * inits.size();
  }
  for (auto [i, arg] : llvm::enumerate(block.getArguments())) {
    auto type = dyn_cast<RankedTensorType>(arg.getType());
    Type want = inits[i % inits.size()].getType();
    if (!type || type.getRank() != 0 ||
        type.getElementType() != cast<ShapedType>(want).getElementType()) {
      return op->emitOpError() << "body argument " << i << " has type "
                               << arg.getType() << "; expected " << want;
    }
  }
  Operation *ret = block.getTerminator();
  if (ret->getNumOperands() != inits.size()) {
    return op->emitOpError() << "body returns " << ret->getNumOperands()
                             << " values; expected " << inits.size();
  }
  return success();
}

} // namespace

//===----------------------------------------------------------------------===//
// Elementwise
//===----------------------------------------------------------------------===//

LogicalResult CompareOp::verify() {
  if (getLhs().getType() != getRhs().getType()) {
    return emitOpError() << "operands have types " << getLhs().getType()
                         << " and " << getRhs().getType()
                         << "; they must be the same";
  }
  return checkShape(*this, getType(), ranked(getLhs()).getShape());
}

LogicalResult SelectOp::verify() {
  if (getOnTrue().getType() != getOnFalse().getType() ||
      getOnTrue().getType() != getType()) {
    return emitOpError() << "branches " << getOnTrue().getType() << " and "
                         << getOnFalse().getType() << " and result "
                         << getType() << " must have one type";
  }
  RankedTensorType pred = ranked(getPred());
  if (pred.getRank() != 0 && pred.getShape() != getType().getShape()) {
    return emitOpError() << "pred shape " << shapeStr(pred.getShape())
                         << " is neither a scalar nor the branches' "
                         << shapeStr(getType().getShape());
  }
  return success();
}

LogicalResult ClampOp::verify() {
  RankedTensorType operand = ranked(getOperand());
  if (getType() != operand) {
    return emitOpError() << "result type " << getType()
                         << " differs from operand type " << operand;
  }
  for (Value bound : {getMin(), getMax()}) {
    RankedTensorType b = ranked(bound);
    if (b.getElementType() != operand.getElementType() ||
        (b.getRank() != 0 && b.getShape() != operand.getShape())) {
      return emitOpError() << "bound type " << b
                           << " is neither a scalar nor the operand's "
                           << operand;
    }
  }
  return success();
}

//===----------------------------------------------------------------------===//
// Constants and data movement
//===----------------------------------------------------------------------===//

LogicalResult ConstantOp::verify() {
  if (getValue().getType() != getType()) {
    return emitOpError() << "value type " << getValue().getType()
                         << " differs from result type " << getType();
  }
  return success();
}

LogicalResult IotaOp::verify() {
  int64_t rank = getType().getRank();
  if (getIotaDimension() < 0 || getIotaDimension() >= rank) {
    return emitOpError() << "iota_dimension " << getIotaDimension()
                         << " is out of range for rank " << rank;
  }
  return success();
}

LogicalResult ReshapeOp::verify() {
  RankedTensorType in = ranked(getOperand()), out = getType();
  if (!in.hasStaticShape() || !out.hasStaticShape()) {
    return emitOpError() << "needs static shapes, got " << in << " -> " << out;
  }
  if (in.getNumElements() != out.getNumElements() ||
      in.getElementType() != out.getElementType()) {
    return emitOpError() << "cannot reshape " << in << " to " << out;
  }
  return success();
}

LogicalResult TransposeOp::verify() {
  RankedTensorType in = ranked(getOperand());
  ArrayRef<int64_t> perm = getPermutation();
  if (static_cast<int64_t>(perm.size()) != in.getRank()) {
    return emitOpError() << "permutation has " << perm.size()
                         << " entries for rank " << in.getRank();
  }
  if (failed(checkDims(*this, perm, in.getRank(), "permutation"))) {
    return failure();
  }
  SmallVector<int64_t> shape;
  for (int64_t p : perm) {
    shape.push_back(in.getDimSize(p));
  }
  return checkShape(*this, getType(), shape);
}

LogicalResult BroadcastInDimOp::verify() {
  RankedTensorType in = ranked(getOperand()), out = getType();
  ArrayRef<int64_t> dims = getBroadcastDimensions();
  if (static_cast<int64_t>(dims.size()) != in.getRank()) {
    return emitOpError() << "broadcast_dimensions has " << dims.size()
                         << " entries for operand rank " << in.getRank();
  }
  if (failed(checkDims(*this, dims, out.getRank(), "broadcast"))) {
    return failure();
  }
  for (auto [i, d] : llvm::enumerate(dims)) {
    int64_t size = in.getDimSize(i);
    if (size != 1 && size != out.getDimSize(d)) {
      return emitOpError() << "operand dimension " << i << " of size " << size
                           << " cannot broadcast to result dimension " << d
                           << " of size " << out.getDimSize(d);
    }
  }
  return success();
}

LogicalResult ConcatenateOp::verify() {
  if (getInputs().empty()) {
    return emitOpError() << "needs at least one input";
  }
  RankedTensorType first = ranked(getInputs().front());
  int64_t dim = getDimension();
  if (dim < 0 || dim >= first.getRank()) {
    return emitOpError() << "dimension " << dim << " is out of range for rank "
                         << first.getRank();
  }
  SmallVector<int64_t> shape(first.getShape());
  shape[dim] = 0;
  for (Value v : getInputs()) {
    RankedTensorType t = ranked(v);
    if (t.getRank() != first.getRank() ||
        t.getElementType() != first.getElementType()) {
      return emitOpError() << "input " << t << " does not match " << first;
    }
    for (int64_t d = 0; d < t.getRank(); ++d) {
      if (d != dim && t.getDimSize(d) != first.getDimSize(d)) {
        return emitOpError() << "input " << t << " differs from " << first
                             << " outside dimension " << dim;
      }
    }
    shape[dim] += t.getDimSize(dim);
  }
  return checkShape(*this, getType(), shape);
}

LogicalResult SliceOp::verify() {
  RankedTensorType in = ranked(getOperand());
  ArrayRef<int64_t> start = getStartIndices(), limit = getLimitIndices(),
                    stride = getStrides();
  int64_t rank = in.getRank();
  if (static_cast<int64_t>(start.size()) != rank ||
      static_cast<int64_t>(limit.size()) != rank ||
      static_cast<int64_t>(stride.size()) != rank) {
    return emitOpError() << "start_indices, limit_indices and strides need "
                         << rank << " entries each";
  }
  SmallVector<int64_t> shape;
  for (int64_t d = 0; d < rank; ++d) {
    if (start[d] < 0 || start[d] > limit[d] || limit[d] > in.getDimSize(d) ||
        stride[d] <= 0) {
      return emitOpError() << "dimension " << d << ": slice [" << start[d]
                           << ", " << limit[d] << ") step " << stride[d]
                           << " does not fit size " << in.getDimSize(d);
    }
    shape.push_back((limit[d] - start[d] + stride[d] - 1) / stride[d]);
  }
  return checkShape(*this, getType(), shape);
}

LogicalResult PadOp::verify() {
  RankedTensorType in = ranked(getOperand());
  int64_t rank = in.getRank();
  ArrayRef<int64_t> lo = getEdgePaddingLow(), hi = getEdgePaddingHigh(),
                    interior = getInteriorPadding();
  if (static_cast<int64_t>(lo.size()) != rank ||
      static_cast<int64_t>(hi.size()) != rank ||
      static_cast<int64_t>(interior.size()) != rank) {
    return emitOpError() << "paddings need " << rank << " entries each";
  }
  SmallVector<int64_t> shape;
  for (int64_t d = 0; d < rank; ++d) {
    if (interior[d] < 0) {
      return emitOpError() << "interior padding " << interior[d]
                           << " of dimension " << d << " is negative";
    }
    int64_t n = in.getDimSize(d);
    shape.push_back(lo[d] + hi[d] + n +
                    std::max<int64_t>(n - 1, 0) * interior[d]);
  }
  return checkShape(*this, getType(), shape);
}

LogicalResult GatherOp::verify() {
  RankedTensorType in = ranked(getOperand());
  RankedTensorType idx = ranked(getStartIndices());
  GatherDimensionNumbersAttr dn = getDimensionNumbers();
  if (static_cast<int64_t>(getSliceSizes().size()) != in.getRank()) {
    return emitOpError() << "slice_sizes has " << getSliceSizes().size()
                         << " entries for operand rank " << in.getRank();
  }
  if (dn.getIndexVectorDim() < 0 || dn.getIndexVectorDim() > idx.getRank()) {
    return emitOpError() << "index_vector_dim " << dn.getIndexVectorDim()
                         << " is out of range for indices rank "
                         << idx.getRank();
  }
  if (failed(checkDims(*this, dn.getCollapsedSliceDims(), in.getRank(),
                       "collapsed slice")) ||
      failed(checkDims(*this, dn.getStartIndexMap(), in.getRank(),
                       "start index map"))) {
    return failure();
  }
  for (int64_t d : dn.getCollapsedSliceDims()) {
    if (getSliceSizes()[d] > 1) {
      return emitOpError() << "collapsed dimension " << d << " has slice size "
                           << getSliceSizes()[d] << "; it must be at most 1";
    }
  }
  int64_t batchRank =
      idx.getRank() - (dn.getIndexVectorDim() < idx.getRank() ? 1 : 0);
  int64_t expected = batchRank + dn.getOffsetDims().size();
  if (getType().getRank() != expected) {
    return emitOpError() << "result rank " << getType().getRank()
                         << " is not the " << batchRank << " batch plus "
                         << dn.getOffsetDims().size() << " offset dimensions";
  }
  return success();
}

//===----------------------------------------------------------------------===//
// Contractions and windows
//===----------------------------------------------------------------------===//

LogicalResult DotGeneralOp::verify() {
  RankedTensorType lhs = ranked(getLhs()), rhs = ranked(getRhs());
  DotDimensionNumbersAttr dn = getDotDimensionNumbers();
  if (dn.getLhsBatchingDimensions().size() !=
          dn.getRhsBatchingDimensions().size() ||
      dn.getLhsContractingDimensions().size() !=
          dn.getRhsContractingDimensions().size()) {
    return emitOpError() << "lhs and rhs need as many batching and as many "
                            "contracting dimensions";
  }
  SmallVector<int64_t> lhsUsed(dn.getLhsBatchingDimensions());
  llvm::append_range(lhsUsed, dn.getLhsContractingDimensions());
  SmallVector<int64_t> rhsUsed(dn.getRhsBatchingDimensions());
  llvm::append_range(rhsUsed, dn.getRhsContractingDimensions());
  if (failed(checkDims(*this, lhsUsed, lhs.getRank(), "lhs")) ||
      failed(checkDims(*this, rhsUsed, rhs.getRank(), "rhs"))) {
    return failure();
  }
  auto sameSizes = [&](ArrayRef<int64_t> l, ArrayRef<int64_t> r,
                       StringRef what) -> LogicalResult {
    for (auto [a, b] : llvm::zip(l, r)) {
      if (lhs.getDimSize(a) != rhs.getDimSize(b)) {
        return emitOpError() << what << " dimension sizes " << lhs.getDimSize(a)
                             << " (lhs " << a << ") and " << rhs.getDimSize(b)
                             << " (rhs " << b << ") differ";
      }
    }
    return success();
  };
  if (failed(sameSizes(dn.getLhsBatchingDimensions(),
                       dn.getRhsBatchingDimensions(), "batching")) ||
      failed(sameSizes(dn.getLhsContractingDimensions(),
                       dn.getRhsContractingDimensions(), "contracting"))) {
    return failure();
  }
  SmallVector<int64_t> shape;
  for (int64_t d : dn.getLhsBatchingDimensions()) {
    shape.push_back(lhs.getDimSize(d));
  }
  for (int64_t d = 0; d < lhs.getRank(); ++d) {
    if (!llvm::is_contained(lhsUsed, d)) {
      shape.push_back(lhs.getDimSize(d));
    }
  }
  for (int64_t d = 0; d < rhs.getRank(); ++d) {
    if (!llvm::is_contained(rhsUsed, d)) {
      shape.push_back(rhs.getDimSize(d));
    }
  }
  return checkShape(*this, getType(), shape);
}

/// The spec's window output size: the dilated, padded input and window.
static int64_t windowOutput(int64_t in, int64_t lo, int64_t hi, int64_t window,
                            int64_t stride, int64_t baseDilation,
                            int64_t windowDilation) {
  int64_t dilatedIn = in == 0 ? 0 : (in - 1) * baseDilation + 1;
  int64_t dilatedWindow = window == 0 ? 0 : (window - 1) * windowDilation + 1;
  int64_t padded = dilatedIn + lo + hi;
  if (padded < dilatedWindow) {
    return 0;
  }
  return (padded - dilatedWindow) / stride + 1;
}

/// The (low, high) pairs of a `tensor<Nx2xi64>` padding attribute.
static FailureOr<SmallVector<std::pair<int64_t, int64_t>>>
paddingPairs(Operation *op, DenseIntElementsAttr padding, int64_t n) {
  SmallVector<std::pair<int64_t, int64_t>> pairs(n, {0, 0});
  if (!padding) {
    return pairs;
  }
  auto type = padding.getType();
  if (type.getRank() != 2 || type.getDimSize(0) != n ||
      type.getDimSize(1) != 2) {
    return op->emitOpError() << "padding has type " << type << "; expected "
                             << "tensor<" << n << "x2xi64>";
  }
  auto values = llvm::to_vector(padding.getValues<int64_t>());
  for (int64_t i = 0; i < n; ++i) {
    pairs[i] = {values[2 * i], values[2 * i + 1]};
  }
  return pairs;
}

LogicalResult ConvolutionOp::verify() {
  RankedTensorType lhs = ranked(getLhs()), rhs = ranked(getRhs());
  ConvDimensionNumbersAttr dn = getDimensionNumbers();
  int64_t rank = lhs.getRank();
  int64_t n = rank - 2;
  if (rhs.getRank() != rank || getType().getRank() != rank ||
      static_cast<int64_t>(dn.getInputSpatialDimensions().size()) != n) {
    return emitOpError() << "input, kernel, result and dimension numbers "
                            "need one rank, got "
                         << rank << ", " << rhs.getRank() << ", "
                         << getType().getRank();
  }
  if (static_cast<int64_t>(getWindowStrides().size()) != n ||
      static_cast<int64_t>(getLhsDilation().size()) != n ||
      static_cast<int64_t>(getRhsDilation().size()) != n) {
    return emitOpError() << "window_strides, lhs_dilation and rhs_dilation "
                            "need "
                         << n << " entries each";
  }
  auto pads = paddingPairs(*this, cast<DenseIntElementsAttr>(getPadding()), n);
  if (failed(pads)) {
    return failure();
  }
  int64_t groups = getFeatureGroupCount();
  int64_t inFeatures = lhs.getDimSize(dn.getInputFeatureDimension());
  int64_t kIn = rhs.getDimSize(dn.getKernelInputFeatureDimension());
  int64_t kOut = rhs.getDimSize(dn.getKernelOutputFeatureDimension());
  if (groups < 1 || getBatchGroupCount() != 1 || inFeatures != kIn * groups ||
      kOut % groups != 0) {
    return emitOpError() << "input features " << inFeatures
                         << " must be kernel input features " << kIn
                         << " times feature_group_count " << groups
                         << " (batch_group_count " << getBatchGroupCount()
                         << " must be 1), and output features " << kOut
                         << " a multiple of it";
  }
  SmallVector<int64_t> shape(rank);
  shape[dn.getOutputBatchDimension()] =
      lhs.getDimSize(dn.getInputBatchDimension());
  shape[dn.getOutputFeatureDimension()] = kOut;
  for (int64_t i = 0; i < n; ++i) {
    if (getWindowStrides()[i] <= 0) {
      return emitOpError() << "window stride " << getWindowStrides()[i]
                           << " must be positive";
    }
    shape[dn.getOutputSpatialDimensions()[i]] = windowOutput(
        lhs.getDimSize(dn.getInputSpatialDimensions()[i]), (*pads)[i].first,
        (*pads)[i].second, rhs.getDimSize(dn.getKernelSpatialDimensions()[i]),
        getWindowStrides()[i], getLhsDilation()[i], getRhsDilation()[i]);
  }
  return checkShape(*this, getType(), shape);
}

LogicalResult ReduceOp::verify() {
  if (getInputs().size() != getInitValues().size() ||
      getInputs().size() != getResults().size() || getInputs().empty()) {
    return emitOpError() << "needs as many inputs (" << getInputs().size()
                         << "), init values (" << getInitValues().size()
                         << ") and results (" << getResults().size()
                         << "), at least one";
  }
  RankedTensorType in = ranked(getInputs().front());
  if (failed(checkDims(*this, getDimensions(), in.getRank(), "reduced"))) {
    return failure();
  }
  SmallVector<int64_t> shape;
  for (int64_t d = 0; d < in.getRank(); ++d) {
    if (!llvm::is_contained(getDimensions(), d)) {
      shape.push_back(in.getDimSize(d));
    }
  }
  for (Value r : getResults()) {
    if (failed(checkShape(*this, r.getType(), shape))) {
      return failure();
    }
  }
  return checkReducer(*this, getBody(), getInitValues());
}

LogicalResult ReduceWindowOp::verify() {
  if (getInputs().size() != getInitValues().size() ||
      getInputs().size() != getResults().size() || getInputs().empty()) {
    return emitOpError() << "needs as many inputs, init values and results, "
                            "at least one";
  }
  RankedTensorType in = ranked(getInputs().front());
  int64_t rank = in.getRank();
  auto orOnes = [&](std::optional<ArrayRef<int64_t>> a) {
    return a ? SmallVector<int64_t>(*a) : SmallVector<int64_t>(rank, 1);
  };
  SmallVector<int64_t> window(getWindowDimensions());
  SmallVector<int64_t> strides = orOnes(getWindowStrides()),
                       baseDil = orOnes(getBaseDilations()),
                       winDil = orOnes(getWindowDilations());
  if (static_cast<int64_t>(window.size()) != rank ||
      static_cast<int64_t>(strides.size()) != rank ||
      static_cast<int64_t>(baseDil.size()) != rank ||
      static_cast<int64_t>(winDil.size()) != rank) {
    return emitOpError() << "window attributes need " << rank
                         << " entries each";
  }
  auto pads = paddingPairs(
      *this, cast_if_present<DenseIntElementsAttr>(getPaddingAttr()), rank);
  if (failed(pads)) {
    return failure();
  }
  SmallVector<int64_t> shape;
  for (int64_t d = 0; d < rank; ++d) {
    if (strides[d] <= 0) {
      return emitOpError() << "window stride " << strides[d]
                           << " must be positive";
    }
    shape.push_back(windowOutput(in.getDimSize(d), (*pads)[d].first,
                                 (*pads)[d].second, window[d], strides[d],
                                 baseDil[d], winDil[d]));
  }
  for (Value r : getResults()) {
    if (failed(checkShape(*this, r.getType(), shape))) {
      return failure();
    }
  }
  return checkReducer(*this, getBody(), getInitValues());
}

//===----------------------------------------------------------------------===//
// Communication
//===----------------------------------------------------------------------===//

LogicalResult AllReduceOp::verify() {
  auto groups = cast<DenseIntElementsAttr>(getReplicaGroups());
  if (groups.getType().getRank() != 2) {
    return emitOpError() << "replica_groups has type " << groups.getType()
                         << "; expected tensor<GROUPSxSIZExi64>";
  }
  llvm::SmallSet<int64_t, 8> seen;
  for (int64_t id : groups.getValues<int64_t>()) {
    if (id != -1 && !seen.insert(id).second) {
      return emitOpError() << "replica " << id << " is in replica_groups twice";
    }
  }
  if (getOperands().getTypes() != getResults().getTypes()) {
    return emitOpError() << "results must have the operands' types";
  }
  if (getOperands().empty()) {
    return emitOpError() << "needs at least one operand";
  }
  Block &block = getComputation().front();
  if (block.getNumArguments() != 2) {
    return emitOpError() << "computation takes " << block.getNumArguments()
                         << " arguments; expected 2";
  }
  return success();
}

LogicalResult RecvOp::verify() {
  if (getResults().empty() || !isa<TokenType>(getResults().back().getType())) {
    return emitOpError() << "last result must be a !stablehlo.token";
  }
  for (Value r : getResults().drop_back()) {
    if (!isa<RankedTensorType>(r.getType())) {
      return emitOpError() << "result of type " << r.getType()
                           << " is not a ranked tensor";
    }
  }
  return success();
}

#define GET_OP_CLASSES
#include "stablehlo/StablehloOps.cpp.inc"
