//===- GraphNN.cpp - contractions, convolution, pooling, normalisation ----===//

#include "graph/GraphOps.h"

#include "llvm/ADT/StringSwitch.h"

#include <string>

using namespace mlir;
using namespace graphc::graph;

//===----------------------------------------------------------------------===//
// Helpers
//===----------------------------------------------------------------------===//

/// Formats a shape as "[2, ?, 3]" for diagnostics.
static std::string formatShape(ArrayRef<int64_t> shape) {
  std::string text = "[";
  for (auto [i, dim] : llvm::enumerate(shape)) {
    if (i) {
      text += ", ";
    }
    text += ShapedType::isDynamic(dim) ? "?" : std::to_string(dim);
  }
  return text + "]";
}

/// The shape of `type` when ranked; otherwise `rank` dynamic dimensions.
static SmallVector<int64_t> getDims(Type type, int64_t rank) {
  auto tensor = cast<TensorType>(type);
  if (tensor.hasRank()) {
    return SmallVector<int64_t>(tensor.getShape());
  }
  return SmallVector<int64_t>(rank, ShapedType::kDynamic);
}

static bool isStatic(int64_t dim) { return !ShapedType::isDynamic(dim); }

/// Checks that `type` (when ranked) has shape `expected`, where a dynamic
/// entry of either side matches anything.
static LogicalResult expectShape(std::optional<Location> loc, StringRef opName,
                                 StringRef what, Type type,
                                 ArrayRef<int64_t> expected) {
  auto tensor = cast<TensorType>(type);
  if (!tensor.hasRank()) {
    return success();
  }
  ArrayRef<int64_t> shape = tensor.getShape();
  bool ok = shape.size() == expected.size();
  for (size_t i = 0; ok && i < shape.size(); ++i) {
    ok = !isStatic(shape[i]) || !isStatic(expected[i]) ||
         shape[i] == expected[i];
  }
  if (ok) {
    return success();
  }
  return emitOptionalError(loc, opName, ": ", what, " has shape ",
                           formatShape(shape), ", expected ",
                           formatShape(expected));
}

/// Checks that every type in `types` (null entries are absent operands) has
/// the element type of the first.
static LogicalResult
expectSameElementType(std::optional<Location> loc, StringRef opName,
                      ArrayRef<std::pair<StringRef, Type>> types) {
  Type first = cast<TensorType>(types.front().second).getElementType();
  for (auto [name, type] : types.drop_front()) {
    if (!type) {
      continue;
    }
    Type element = cast<TensorType>(type).getElementType();
    if (element != first) {
      return emitOptionalError(loc, opName, ": ", name, " element type ",
                               element, " does not match ", types.front().first,
                               " element type ", first);
    }
  }
  return success();
}

/// Reads a per-spatial-dimension list attribute, `fill` when absent. Each
/// entry must be at least `minValue`.
static FailureOr<SmallVector<int64_t>>
getSpatialList(std::optional<Location> loc, StringRef opName, StringRef name,
               DenseI64ArrayAttr attr, int64_t spatialRank, int64_t fill,
               int64_t minValue) {
  if (!attr) {
    return SmallVector<int64_t>(spatialRank, fill);
  }
  ArrayRef<int64_t> values = attr.asArrayRef();
  if (static_cast<int64_t>(values.size()) != spatialRank) {
    (void)emitOptionalError(loc, opName, ": ", name, " has ", values.size(),
                            " entries, expected ", spatialRank,
                            " (one per spatial dimension)");
    return failure();
  }
  for (auto [i, value] : llvm::enumerate(values)) {
    if (value < minValue) {
      (void)emitOptionalError(loc, opName, ": ", name, " entry ", i, " is ",
                              value, ", expected at least ", minValue);
      return failure();
    }
  }
  return SmallVector<int64_t>(values);
}

/// Strides, dilations and pads of a convolution-like op.
struct Window {
  SmallVector<int64_t> strides, dilations, padLow, padHigh;
};

static FailureOr<Window> getWindowParams(std::optional<Location> loc,
                                         StringRef opName, int64_t spatialRank,
                                         DenseI64ArrayAttr strides,
                                         DenseI64ArrayAttr dilations,
                                         DenseI64ArrayAttr padLow,
                                         DenseI64ArrayAttr padHigh) {
  Window window;
  FailureOr<SmallVector<int64_t>> s =
      getSpatialList(loc, opName, "strides", strides, spatialRank, 1, 1);
  if (failed(s)) {
    return failure();
  }
  FailureOr<SmallVector<int64_t>> d =
      getSpatialList(loc, opName, "dilations", dilations, spatialRank, 1, 1);
  if (failed(d)) {
    return failure();
  }
  FailureOr<SmallVector<int64_t>> lo =
      getSpatialList(loc, opName, "pad_low", padLow, spatialRank, 0, 0);
  if (failed(lo)) {
    return failure();
  }
  FailureOr<SmallVector<int64_t>> hi =
      getSpatialList(loc, opName, "pad_high", padHigh, spatialRank, 0, 0);
  if (failed(hi)) {
    return failure();
  }
  window.strides = std::move(*s);
  window.dilations = std::move(*d);
  window.padLow = std::move(*lo);
  window.padHigh = std::move(*hi);
  return window;
}

//===----------------------------------------------------------------------===//
// MatMulOp
//===----------------------------------------------------------------------===//

LogicalResult MatMulOp::inferReturnTypes(MLIRContext *,
                                         std::optional<Location> location,
                                         Adaptor adaptor,
                                         SmallVectorImpl<Type> &inferred) {
  auto lhsType = cast<TensorType>(adaptor.getLhs().getType());
  auto rhsType = cast<TensorType>(adaptor.getRhs().getType());
  if (lhsType.getElementType() != rhsType.getElementType()) {
    return emitOptionalError(location, "graph.matmul: operand element types ",
                             lhsType.getElementType(), " and ",
                             rhsType.getElementType(), " differ");
  }
  Type elementType = lhsType.getElementType();
  if (!lhsType.hasRank() || !rhsType.hasRank()) {
    inferred.push_back(UnrankedTensorType::get(elementType));
    return success();
  }
  if (lhsType.getRank() == 0 || rhsType.getRank() == 0) {
    return emitOptionalError(location,
                             "graph.matmul: operands must have rank >= 1");
  }

  // Promote vectors to matrices as NumPy does, remembering which unit
  // dimensions to drop from the result.
  SmallVector<int64_t> lhs(lhsType.getShape());
  SmallVector<int64_t> rhs(rhsType.getShape());
  bool lhsVector = lhs.size() == 1, rhsVector = rhs.size() == 1;
  if (lhsVector) {
    lhs.insert(lhs.begin(), 1);
  }
  if (rhsVector) {
    rhs.push_back(1);
  }
  if (adaptor.getTransposeLhs() && !lhsVector) {
    std::swap(lhs[lhs.size() - 1], lhs[lhs.size() - 2]);
  }
  if (adaptor.getTransposeRhs() && !rhsVector) {
    std::swap(rhs[rhs.size() - 1], rhs[rhs.size() - 2]);
  }

  int64_t m = lhs[lhs.size() - 2], k = lhs.back();
  int64_t k2 = rhs[rhs.size() - 2], n = rhs.back();
  if (!ShapedType::isDynamic(k) && !ShapedType::isDynamic(k2) && k != k2) {
    return emitOptionalError(location, "graph.matmul: contraction size ", k,
                             " does not match ", k2);
  }

  SmallVector<int64_t> batch;
  if (failed(broadcastShapes(location, "graph.matmul",
                             ArrayRef(lhs).drop_back(2),
                             ArrayRef(rhs).drop_back(2), batch))) {
    return failure();
  }
  SmallVector<int64_t> shape(batch);
  if (!lhsVector) {
    shape.push_back(m);
  }
  if (!rhsVector) {
    shape.push_back(n);
  }
  inferred.push_back(RankedTensorType::get(shape, elementType));
  return success();
}

std::optional<int64_t> MatMulOp::getFlops() {
  auto lhsType = cast<TensorType>(getLhs().getType());
  std::optional<int64_t> outputs = getStaticNumElements(getType());
  if (!outputs || !lhsType.hasRank()) {
    return std::nullopt;
  }
  int64_t k = lhsType.getRank() == 1 || !getTransposeLhs()
                  ? lhsType.getShape().back()
                  : lhsType.getShape()[lhsType.getRank() - 2];
  if (ShapedType::isDynamic(k)) {
    return std::nullopt;
  }
  // One multiply and one add per output element and contraction step.
  return 2 * *outputs * k;
}

//===----------------------------------------------------------------------===//
// ConvOp, ConvTransposeOp
//===----------------------------------------------------------------------===//

namespace {
/// What conv and conv_transpose share: operand ranks, groups, bias, window.
struct ConvOperands {
  int64_t rank;
  SmallVector<int64_t> input, filter;
  Window window;
};
} // namespace

static FailureOr<ConvOperands>
checkConvOperands(std::optional<Location> loc, StringRef opName, Value input,
                  Value filter, Value bias, int64_t groups,
                  DenseI64ArrayAttr strides, DenseI64ArrayAttr dilations,
                  DenseI64ArrayAttr padLow, DenseI64ArrayAttr padHigh) {
  auto inputType = cast<TensorType>(input.getType());
  auto filterType = cast<TensorType>(filter.getType());
  if (failed(
          expectSameElementType(loc, opName,
                                {{"input", inputType},
                                 {"filter", filterType},
                                 {"bias", bias ? bias.getType() : Type()}}))) {
    return failure();
  }

  ConvOperands result;
  if (inputType.hasRank()) {
    result.rank = inputType.getRank();
  } else if (filterType.hasRank()) {
    result.rank = filterType.getRank();
  } else if (strides || dilations || padLow || padHigh) {
    result.rank = 2 + (strides     ? strides.size()
                       : dilations ? dilations.size()
                       : padLow    ? padLow.size()
                                   : padHigh.size());
  } else {
    result.rank = 0; // Unknown; the caller infers an unranked result.
  }
  if (result.rank == 0) {
    return result;
  }
  if (result.rank < 3 || result.rank > 5) {
    (void)emitOptionalError(loc, opName,
                            ": input must have rank 3, 4 or 5 (1 to 3 spatial "
                            "dimensions), got rank ",
                            result.rank);
    return failure();
  }
  if (inputType.hasRank() && filterType.hasRank() &&
      filterType.getRank() != inputType.getRank()) {
    (void)emitOptionalError(loc, opName, ": filter rank ", filterType.getRank(),
                            " does not match input rank ", inputType.getRank());
    return failure();
  }
  if (groups < 1) {
    (void)emitOptionalError(loc, opName, ": groups must be positive, got ",
                            groups);
    return failure();
  }
  result.input = getDims(inputType, result.rank);
  result.filter = getDims(filterType, result.rank);
  for (int64_t i = 2; i < result.rank; ++i) {
    if (result.filter[i] == 0) {
      (void)emitOptionalError(loc, opName, ": filter spatial dimension ", i - 2,
                              " is empty");
      return failure();
    }
  }
  FailureOr<Window> window = getWindowParams(
      loc, opName, result.rank - 2, strides, dilations, padLow, padHigh);
  if (failed(window)) {
    return failure();
  }
  result.window = std::move(*window);
  return result;
}

/// Checks `bias` (when present) against the output channel count.
static LogicalResult checkBias(std::optional<Location> loc, StringRef opName,
                               Value bias, int64_t channels) {
  if (!bias) {
    return success();
  }
  return expectShape(loc, opName, "bias", bias.getType(), {channels});
}

LogicalResult ConvOp::inferReturnTypes(MLIRContext *,
                                       std::optional<Location> location,
                                       Adaptor adaptor,
                                       SmallVectorImpl<Type> &inferred) {
  StringRef opName = "graph.conv";
  int64_t groups = adaptor.getGroups();
  FailureOr<ConvOperands> conv =
      checkConvOperands(location, opName, adaptor.getInput(),
                        adaptor.getFilter(), adaptor.getBias(), groups,
                        adaptor.getStridesAttr(), adaptor.getDilationsAttr(),
                        adaptor.getPadLowAttr(), adaptor.getPadHighAttr());
  if (failed(conv)) {
    return failure();
  }
  Type elementType =
      cast<TensorType>(adaptor.getInput().getType()).getElementType();
  if (conv->rank == 0) {
    inferred.push_back(UnrankedTensorType::get(elementType));
    return success();
  }
  ArrayRef<int64_t> in = conv->input, filter = conv->filter;
  int64_t channels = in[1], filterChannels = filter[1], out = filter[0];
  if (isStatic(channels) && isStatic(filterChannels) &&
      channels != filterChannels * groups) {
    return emitOptionalError(location, opName, ": input channels ", channels,
                             " do not match filter in-channels ",
                             filterChannels, " * groups ", groups);
  }
  if (isStatic(out) && out % groups != 0) {
    return emitOptionalError(location, opName, ": output channels ", out,
                             " are not divisible by groups ", groups);
  }
  if (failed(checkBias(location, opName, adaptor.getBias(), out))) {
    return failure();
  }

  SmallVector<int64_t> shape = {in[0], out};
  const Window &w = conv->window;
  for (int64_t i = 0, e = conv->rank - 2; i < e; ++i) {
    int64_t size = in[i + 2], kernel = filter[i + 2];
    if (!isStatic(size) || !isStatic(kernel)) {
      shape.push_back(ShapedType::kDynamic);
      continue;
    }
    int64_t extent = w.dilations[i] * (kernel - 1) + 1;
    int64_t padded = size + w.padLow[i] + w.padHigh[i];
    if (padded < extent) {
      return emitOptionalError(location, opName, ": spatial dimension ", i,
                               " is empty: padded input size ", padded,
                               " is smaller than the dilated kernel size ",
                               extent);
    }
    shape.push_back((padded - extent) / w.strides[i] + 1);
  }
  inferred.push_back(RankedTensorType::get(shape, elementType));
  return success();
}

std::optional<int64_t> ConvOp::getFlops() {
  std::optional<int64_t> outputs = getStaticNumElements(getType());
  auto filterType = cast<TensorType>(getFilter().getType());
  if (!outputs || !filterType.hasStaticShape()) {
    return std::nullopt;
  }
  // Each output element takes one multiply-add per tap of its group's
  // filter: (C / groups) * prod(K) taps.
  if (filterType.getDimSize(0) == 0) {
    return 0;
  }
  int64_t taps = filterType.getNumElements() / filterType.getDimSize(0);
  return 2 * *outputs * taps + (getBias() ? *outputs : 0);
}

LogicalResult ConvTransposeOp::inferReturnTypes(
    MLIRContext *, std::optional<Location> location, Adaptor adaptor,
    SmallVectorImpl<Type> &inferred) {
  StringRef opName = "graph.conv_transpose";
  int64_t groups = adaptor.getGroups();
  FailureOr<ConvOperands> conv =
      checkConvOperands(location, opName, adaptor.getInput(),
                        adaptor.getFilter(), adaptor.getBias(), groups,
                        adaptor.getStridesAttr(), adaptor.getDilationsAttr(),
                        adaptor.getPadLowAttr(), adaptor.getPadHighAttr());
  if (failed(conv)) {
    return failure();
  }
  Type elementType =
      cast<TensorType>(adaptor.getInput().getType()).getElementType();
  if (conv->rank == 0) {
    inferred.push_back(UnrankedTensorType::get(elementType));
    return success();
  }
  ArrayRef<int64_t> in = conv->input, filter = conv->filter;
  int64_t channels = in[1];
  if (isStatic(channels) && isStatic(filter[0]) && channels != filter[0]) {
    return emitOptionalError(location, opName, ": input channels ", channels,
                             " do not match filter channels ", filter[0]);
  }
  if (isStatic(channels) && channels % groups != 0) {
    return emitOptionalError(location, opName, ": input channels ", channels,
                             " are not divisible by groups ", groups);
  }
  int64_t out = isStatic(filter[1]) ? filter[1] * groups : ShapedType::kDynamic;
  if (failed(checkBias(location, opName, adaptor.getBias(), out))) {
    return failure();
  }

  const Window &w = conv->window;
  FailureOr<SmallVector<int64_t>> outputPadding =
      getSpatialList(location, opName, "output_padding",
                     adaptor.getOutputPaddingAttr(), conv->rank - 2, 0, 0);
  if (failed(outputPadding)) {
    return failure();
  }
  SmallVector<int64_t> shape = {in[0], out};
  for (int64_t i = 0, e = conv->rank - 2; i < e; ++i) {
    int64_t extra = (*outputPadding)[i];
    // PyTorch's rule: the extra cells must lie within one stride or one
    // dilation step, or they would be a different convolution.
    if (extra >= w.strides[i] && extra >= w.dilations[i]) {
      return emitOptionalError(location, opName, ": output_padding ", extra,
                               " in spatial dimension ", i,
                               " must be smaller than stride ", w.strides[i],
                               " or dilation ", w.dilations[i]);
    }
    int64_t size = in[i + 2], kernel = filter[i + 2];
    if (!isStatic(size) || !isStatic(kernel)) {
      shape.push_back(ShapedType::kDynamic);
      continue;
    }
    int64_t result = w.strides[i] * (size - 1) + extra +
                     w.dilations[i] * (kernel - 1) + 1 - w.padLow[i] -
                     w.padHigh[i];
    if (result <= 0) {
      return emitOptionalError(location, opName, ": spatial dimension ", i,
                               " is empty: pads remove all ",
                               result + w.padLow[i] + w.padHigh[i],
                               " output cells");
    }
    shape.push_back(result);
  }
  inferred.push_back(RankedTensorType::get(shape, elementType));
  return success();
}

std::optional<int64_t> ConvTransposeOp::getFlops() {
  std::optional<int64_t> inputs = getStaticNumElements(getInput().getType());
  std::optional<int64_t> outputs = getStaticNumElements(getType());
  auto filterType = cast<TensorType>(getFilter().getType());
  if (!inputs || !outputs || !filterType.hasStaticShape()) {
    return std::nullopt;
  }
  // Every input element is scattered through its group's (O / groups) *
  // prod(K) filter taps, one multiply-add each.
  if (filterType.getDimSize(0) == 0) {
    return 0;
  }
  int64_t taps = filterType.getNumElements() / filterType.getDimSize(0);
  return 2 * *inputs * taps + (getBias() ? *outputs : 0);
}

//===----------------------------------------------------------------------===//
// PoolOp
//===----------------------------------------------------------------------===//

LogicalResult PoolOp::inferReturnTypes(MLIRContext *,
                                       std::optional<Location> location,
                                       Adaptor adaptor,
                                       SmallVectorImpl<Type> &inferred) {
  StringRef opName = "graph.pool";
  auto inputType = cast<TensorType>(adaptor.getInput().getType());
  Type elementType = inputType.getElementType();
  PoolKind kind = adaptor.getKind();
  if (kind == PoolKind::avg && !isa<FloatType>(elementType)) {
    return emitOptionalError(location, opName,
                             ": avg pooling needs a floating-point input, got ",
                             elementType);
  }
  if (kind == PoolKind::max && adaptor.getCountIncludePad()) {
    return emitOptionalError(location, opName,
                             ": count_include_pad applies only to avg pooling");
  }
  ArrayRef<int64_t> window = adaptor.getWindow();
  int64_t spatialRank = window.size();
  if (spatialRank == 0) {
    return emitOptionalError(location, opName,
                             ": window must have at least one entry");
  }
  int64_t rank = spatialRank + 2;
  if (inputType.hasRank() && inputType.getRank() != rank) {
    return emitOptionalError(location, opName, ": input rank ",
                             inputType.getRank(), " does not match ",
                             spatialRank, " window entries plus 2");
  }
  for (auto [i, size] : llvm::enumerate(window)) {
    if (size < 1) {
      return emitOptionalError(location, opName, ": window entry ", i, " is ",
                               size, ", expected at least 1");
    }
  }
  FailureOr<Window> w =
      getWindowParams(location, opName, spatialRank, adaptor.getStridesAttr(),
                      adaptor.getDilationsAttr(), adaptor.getPadLowAttr(),
                      adaptor.getPadHighAttr());
  if (failed(w)) {
    return failure();
  }

  SmallVector<int64_t> in = getDims(inputType, rank);
  SmallVector<int64_t> shape = {in[0], in[1]};
  for (int64_t i = 0; i < spatialRank; ++i) {
    int64_t extent = w->dilations[i] * (window[i] - 1) + 1;
    // A window lying wholly in padding has no maximum and no mean
    // (ONNX Runtime rejects it the same way).
    if (w->padLow[i] >= extent || w->padHigh[i] >= extent) {
      return emitOptionalError(location, opName, ": pads ", w->padLow[i],
                               " and ", w->padHigh[i], " in spatial dimension ",
                               i, " must be smaller than the window extent ",
                               extent);
    }
    int64_t size = in[i + 2];
    if (!isStatic(size)) {
      shape.push_back(ShapedType::kDynamic);
      continue;
    }
    int64_t padded = size + w->padLow[i] + w->padHigh[i];
    if (padded < extent) {
      return emitOptionalError(location, opName, ": spatial dimension ", i,
                               " is empty: padded input size ", padded,
                               " is smaller than the window extent ", extent);
    }
    int64_t stride = w->strides[i];
    int64_t span = padded - extent;
    int64_t out =
        (adaptor.getCeilMode() ? (span + stride - 1) / stride : span / stride) +
        1;
    // With ceil_mode the last window must start inside the input or the
    // low padding.
    if (adaptor.getCeilMode() && (out - 1) * stride >= size + w->padLow[i]) {
      --out;
    }
    shape.push_back(out);
  }
  inferred.push_back(RankedTensorType::get(shape, elementType));
  return success();
}

std::optional<int64_t> PoolOp::getFlops() {
  std::optional<int64_t> outputs = getStaticNumElements(getType());
  if (!outputs) {
    return std::nullopt;
  }
  int64_t windowSize = 1;
  for (int64_t size : getWindow()) {
    windowSize *= size;
  }
  // One comparison or add per window cell; avg divides once per output.
  return *outputs * (windowSize + (getKind() == PoolKind::avg ? 1 : 0));
}

//===----------------------------------------------------------------------===//
// SoftmaxOp, LogSoftmaxOp
//===----------------------------------------------------------------------===//

static LogicalResult inferSoftmax(std::optional<Location> location,
                                  StringRef opName, Type input, int64_t axis,
                                  SmallVectorImpl<Type> &inferred) {
  auto inputType = cast<TensorType>(input);
  if (inputType.hasRank() &&
      failed(normalizeAxis(location, opName, axis, inputType.getRank()))) {
    return failure();
  }
  inferred.push_back(input);
  return success();
}

LogicalResult SoftmaxOp::inferReturnTypes(MLIRContext *,
                                          std::optional<Location> location,
                                          Adaptor adaptor,
                                          SmallVectorImpl<Type> &inferred) {
  return inferSoftmax(location, "graph.softmax", adaptor.getInput().getType(),
                      adaptor.getAxis(), inferred);
}

std::optional<int64_t> SoftmaxOp::getFlops() {
  std::optional<int64_t> n = getStaticNumElements(getType());
  if (!n) {
    return std::nullopt;
  }
  // max, subtract, exp, sum, divide.
  return 5 * *n;
}

LogicalResult LogSoftmaxOp::inferReturnTypes(MLIRContext *,
                                             std::optional<Location> location,
                                             Adaptor adaptor,
                                             SmallVectorImpl<Type> &inferred) {
  return inferSoftmax(location, "graph.log_softmax",
                      adaptor.getInput().getType(), adaptor.getAxis(),
                      inferred);
}

std::optional<int64_t> LogSoftmaxOp::getFlops() {
  std::optional<int64_t> n = getStaticNumElements(getType());
  if (!n) {
    return std::nullopt;
  }
  auto type = cast<RankedTensorType>(getType());
  // I64Attr getters return uint64_t; read the axis back as signed.
  int64_t axis = static_cast<int64_t>(getAxis());
  if (axis < 0) {
    axis += type.getRank();
  }
  int64_t axisSize = type.getDimSize(axis);
  // max, subtract, exp, sum, subtract per element; one log per slice.
  return 5 * *n + (axisSize == 0 ? 0 : *n / axisSize);
}

//===----------------------------------------------------------------------===//
// BatchNormOp, BatchNormTrainOp
//===----------------------------------------------------------------------===//

/// Checks the per-channel operands of a batch norm and returns the channel
/// count (possibly dynamic).
static FailureOr<int64_t>
checkBatchNorm(std::optional<Location> loc, StringRef opName, Type input,
               ArrayRef<std::pair<StringRef, Type>> channelOperands) {
  SmallVector<std::pair<StringRef, Type>> all = {{"input", input}};
  all.append(channelOperands.begin(), channelOperands.end());
  if (failed(expectSameElementType(loc, opName, all))) {
    return failure();
  }
  auto inputType = cast<TensorType>(input);
  int64_t channels = ShapedType::kDynamic;
  if (inputType.hasRank()) {
    if (inputType.getRank() < 2) {
      (void)emitOptionalError(loc, opName,
                              ": input must have rank >= 2 ([N, C, ...]), got "
                              "rank ",
                              inputType.getRank());
      return failure();
    }
    channels = inputType.getDimSize(1);
  }
  for (auto [name, type] : channelOperands) {
    if (failed(expectShape(loc, opName, name, type, {channels}))) {
      return failure();
    }
  }
  return channels;
}

LogicalResult BatchNormOp::inferReturnTypes(MLIRContext *,
                                            std::optional<Location> location,
                                            Adaptor adaptor,
                                            SmallVectorImpl<Type> &inferred) {
  Type input = adaptor.getInput().getType();
  if (failed(checkBatchNorm(location, "graph.batch_norm", input,
                            {{"scale", adaptor.getScale().getType()},
                             {"bias", adaptor.getBias().getType()},
                             {"mean", adaptor.getMean().getType()},
                             {"variance", adaptor.getVariance().getType()}}))) {
    return failure();
  }
  inferred.push_back(input);
  return success();
}

std::optional<int64_t> BatchNormOp::getFlops() {
  std::optional<int64_t> n = getStaticNumElements(getType());
  if (!n) {
    return std::nullopt;
  }
  int64_t channels = cast<RankedTensorType>(getType()).getDimSize(1);
  // Per element: subtract the mean, multiply by the inverse deviation,
  // scale, add the bias; per channel: add epsilon, rsqrt.
  return 4 * *n + 2 * channels;
}

LogicalResult BatchNormTrainOp::inferReturnTypes(
    MLIRContext *, std::optional<Location> location, Adaptor adaptor,
    SmallVectorImpl<Type> &inferred) {
  Type input = adaptor.getInput().getType();
  FailureOr<int64_t> channels =
      checkBatchNorm(location, "graph.batch_norm_train", input,
                     {{"scale", adaptor.getScale().getType()},
                      {"bias", adaptor.getBias().getType()}});
  if (failed(channels)) {
    return failure();
  }
  auto stats = RankedTensorType::get({*channels},
                                     cast<TensorType>(input).getElementType());
  inferred.append({input, stats, stats});
  return success();
}

std::optional<int64_t> BatchNormTrainOp::getFlops() {
  std::optional<int64_t> n = getStaticNumElements(getOutput().getType());
  if (!n) {
    return std::nullopt;
  }
  int64_t channels =
      cast<RankedTensorType>(getOutput().getType()).getDimSize(1);
  // Per element: one add for the mean, subtract/square/add for the
  // variance, four to normalise. Per channel: two divisions, epsilon, rsqrt.
  return 8 * *n + 4 * channels;
}

//===----------------------------------------------------------------------===//
// LayerNormOp
//===----------------------------------------------------------------------===//

LogicalResult LayerNormOp::inferReturnTypes(MLIRContext *,
                                            std::optional<Location> location,
                                            Adaptor adaptor,
                                            SmallVectorImpl<Type> &inferred) {
  StringRef opName = "graph.layer_norm";
  Type input = adaptor.getInput().getType();
  Value bias = adaptor.getBias();
  if (failed(
          expectSameElementType(location, opName,
                                {{"input", input},
                                 {"scale", adaptor.getScale().getType()},
                                 {"bias", bias ? bias.getType() : Type()}}))) {
    return failure();
  }
  auto inputType = cast<TensorType>(input);
  if (inputType.hasRank()) {
    FailureOr<int64_t> axis =
        normalizeAxis(location, opName, adaptor.getAxis(), inputType.getRank());
    if (failed(axis)) {
      return failure();
    }
    ArrayRef<int64_t> normalized = inputType.getShape().drop_front(*axis);
    if (failed(expectShape(location, opName, "scale",
                           adaptor.getScale().getType(), normalized))) {
      return failure();
    }
    if (bias && failed(expectShape(location, opName, "bias", bias.getType(),
                                   normalized))) {
      return failure();
    }
  }
  inferred.push_back(input);
  return success();
}

std::optional<int64_t> LayerNormOp::getFlops() {
  std::optional<int64_t> n = getStaticNumElements(getType());
  if (!n) {
    return std::nullopt;
  }
  std::optional<int64_t> groupSize = getStaticNumElements(getScale().getType());
  if (!groupSize) {
    return std::nullopt;
  }
  int64_t groups = *groupSize == 0 ? 0 : *n / *groupSize;
  // Per element: mean (1), variance (3), normalise and scale (3), bias (1);
  // per group: two divisions, epsilon, rsqrt.
  return (getBias() ? 8 : 7) * *n + 4 * groups;
}

//===----------------------------------------------------------------------===//
// LRNOp
//===----------------------------------------------------------------------===//

LogicalResult LRNOp::inferReturnTypes(MLIRContext *,
                                      std::optional<Location> location,
                                      Adaptor adaptor,
                                      SmallVectorImpl<Type> &inferred) {
  StringRef opName = "graph.lrn";
  // I64Attr getters return uint64_t; read the size back as signed.
  int64_t size = static_cast<int64_t>(adaptor.getSize());
  if (size < 1) {
    return emitOptionalError(location, opName, ": size is ", size,
                             ", expected at least 1");
  }
  auto inputType = cast<TensorType>(adaptor.getInput().getType());
  if (inputType.hasRank() && inputType.getRank() < 2) {
    return emitOptionalError(
        location, opName,
        ": input must have rank >= 2 ([N, C, ...]), got rank ",
        inputType.getRank());
  }
  inferred.push_back(inputType);
  return success();
}

std::optional<int64_t> LRNOp::getFlops() {
  std::optional<int64_t> n = getStaticNumElements(getType());
  if (!n) {
    return std::nullopt;
  }
  // Per element: square, `size` window adds, scale, add bias, pow, divide.
  return (static_cast<int64_t>(getSize()) + 5) * *n;
}

//===----------------------------------------------------------------------===//
// ResizeOp
//===----------------------------------------------------------------------===//

LogicalResult ResizeOp::inferReturnTypes(MLIRContext *,
                                         std::optional<Location> location,
                                         Adaptor adaptor,
                                         SmallVectorImpl<Type> &inferred) {
  StringRef opName = "graph.resize";
  auto inputType = cast<TensorType>(adaptor.getInput().getType());
  ArrayRef<int64_t> sizes = adaptor.getSizes();
  if (inputType.hasRank() &&
      static_cast<int64_t>(sizes.size()) != inputType.getRank()) {
    return emitOptionalError(location, opName, ": sizes has ", sizes.size(),
                             " entries, expected ", inputType.getRank(),
                             " (the input rank)");
  }
  for (auto [i, size] : llvm::enumerate(sizes)) {
    if (size < 1) {
      return emitOptionalError(location, opName, ": sizes entry ", i, " is ",
                               size, ", expected at least 1");
    }
  }
  if (std::optional<ArrayRef<double>> scales = adaptor.getScales()) {
    if (scales->size() != sizes.size()) {
      return emitOptionalError(location, opName, ": scales has ",
                               scales->size(), " entries, expected ",
                               sizes.size(), " (one per dimension)");
    }
    for (auto [i, scale] : llvm::enumerate(*scales)) {
      if (!(scale > 0)) {
        return emitOptionalError(location, opName, ": scales entry ", i, " is ",
                                 scale, ", expected a positive value");
      }
    }
  }
  bool crop = adaptor.getCoordinateMode() == CoordinateMode::tf_crop_and_resize;
  if (std::optional<ArrayRef<double>> roi = adaptor.getRoi()) {
    if (!crop) {
      return emitOptionalError(
          location, opName,
          ": roi is only used by coordinate_mode "
          "tf_crop_and_resize, got ",
          stringifyCoordinateMode(adaptor.getCoordinateMode()));
    }
    if (roi->size() != 2 * sizes.size()) {
      return emitOptionalError(location, opName, ": roi has ", roi->size(),
                               " entries, expected ", 2 * sizes.size(),
                               " (a start and an end per dimension)");
    }
  } else if (crop) {
    return emitOptionalError(location, opName,
                             ": coordinate_mode tf_crop_and_resize needs a "
                             "roi");
  }
  if (adaptor.getMode() != ResizeMode::nearest &&
      !isa<FloatType>(inputType.getElementType())) {
    return emitOptionalError(
        location, opName, ": ", stringifyResizeMode(adaptor.getMode()),
        " interpolation needs a floating-point input, got ",
        inputType.getElementType());
  }
  inferred.push_back(RankedTensorType::get(sizes, inputType.getElementType()));
  return success();
}

//===----------------------------------------------------------------------===//
// LSTMOp, GRUOp
//===----------------------------------------------------------------------===//

namespace {
/// The operands of a recurrent layer (null types for absent ones).
struct RNNOperands {
  Type x, w, r, b, sequenceLens, initialH, initialC, peepholes;
};
} // namespace

static LogicalResult inferRNN(std::optional<Location> loc, StringRef opName,
                              int64_t gates, int64_t hidden,
                              RNNDirection direction, ArrayAttr activations,
                              std::optional<APFloat> clip,
                              const RNNOperands &ops, bool withCell,
                              SmallVectorImpl<Type> &inferred) {
  if (hidden < 1) {
    return emitOptionalError(loc, opName,
                             ": hidden_size must be positive, got ", hidden);
  }
  if (clip && (clip->isNegative() || clip->isZero() || clip->isNaN())) {
    return emitOptionalError(loc, opName, ": clip must be positive, got ",
                             clip->convertToDouble());
  }
  if (failed(expectSameElementType(loc, opName,
                                   {{"X", ops.x},
                                    {"W", ops.w},
                                    {"R", ops.r},
                                    {"B", ops.b},
                                    {"initial_h", ops.initialH},
                                    {"initial_c", ops.initialC},
                                    {"P", ops.peepholes}}))) {
    return failure();
  }
  int64_t dirs = direction == RNNDirection::bidirectional ? 2 : 1;
  int64_t perDirection = withCell ? 3 : 2;
  if (activations) {
    if (static_cast<int64_t>(activations.size()) != perDirection * dirs) {
      return emitOptionalError(loc, opName, ": expected ", perDirection * dirs,
                               " activations (", perDirection,
                               " per direction), got ", activations.size());
    }
    for (Attribute attr : activations) {
      StringRef name = cast<StringAttr>(attr).getValue();
      if (!llvm::is_contained(
              {"Sigmoid", "Tanh", "Relu", "Softsign", "Softplus"}, name)) {
        return emitOptionalError(loc, opName, ": unsupported activation '",
                                 name,
                                 "' (expected Sigmoid, Tanh, Relu, Softsign "
                                 "or Softplus)");
      }
    }
  }

  auto xType = cast<TensorType>(ops.x);
  if (xType.hasRank() && xType.getRank() != 3) {
    return emitOptionalError(loc, opName,
                             ": X must have rank 3 ([seq, batch, input]), got "
                             "rank ",
                             xType.getRank());
  }
  SmallVector<int64_t> x = getDims(xType, 3);
  int64_t seq = x[0], batch = x[1], input = x[2];
  if (failed(expectShape(loc, opName, "W", ops.w,
                         {dirs, gates * hidden, input})) ||
      failed(expectShape(loc, opName, "R", ops.r,
                         {dirs, gates * hidden, hidden}))) {
    return failure();
  }
  if (ops.b && failed(expectShape(loc, opName, "B", ops.b,
                                  {dirs, 2 * gates * hidden}))) {
    return failure();
  }
  if (ops.sequenceLens && failed(expectShape(loc, opName, "sequence_lens",
                                             ops.sequenceLens, {batch}))) {
    return failure();
  }
  if (ops.initialH && failed(expectShape(loc, opName, "initial_h", ops.initialH,
                                         {dirs, batch, hidden}))) {
    return failure();
  }
  if (ops.initialC && failed(expectShape(loc, opName, "initial_c", ops.initialC,
                                         {dirs, batch, hidden}))) {
    return failure();
  }
  if (ops.peepholes && failed(expectShape(loc, opName, "P", ops.peepholes,
                                          {dirs, 3 * hidden}))) {
    return failure();
  }

  Type element = xType.getElementType();
  auto state = RankedTensorType::get({dirs, batch, hidden}, element);
  inferred.push_back(
      RankedTensorType::get({seq, dirs, batch, hidden}, element));
  inferred.push_back(state);
  if (withCell) {
    inferred.push_back(state);
  }
  return success();
}

static std::optional<APFloat> clipValue(FloatAttr clip) {
  if (!clip) {
    return std::nullopt;
  }
  return clip.getValue();
}

LogicalResult LSTMOp::inferReturnTypes(MLIRContext *,
                                       std::optional<Location> location,
                                       Adaptor adaptor,
                                       SmallVectorImpl<Type> &inferred) {
  auto typeOf = [](Value v) { return v ? v.getType() : Type(); };
  RNNOperands ops{
      adaptor.getX().getType(),          adaptor.getW().getType(),
      adaptor.getR().getType(),          typeOf(adaptor.getB()),
      typeOf(adaptor.getSequenceLens()), typeOf(adaptor.getInitialH()),
      typeOf(adaptor.getInitialC()),     typeOf(adaptor.getP())};
  return inferRNN(location, "graph.lstm", /*gates=*/4, adaptor.getHiddenSize(),
                  adaptor.getDirection(), adaptor.getActivationsAttr(),
                  clipValue(adaptor.getClipAttr()), ops, /*withCell=*/true,
                  inferred);
}

/// Flops of a recurrent layer: `perRow` operations per time step, direction
/// and batch row.
static std::optional<int64_t> rnnFlops(Type x, Type y, int64_t perRow) {
  auto xType = cast<TensorType>(x);
  auto yType = cast<TensorType>(y);
  if (!xType.hasStaticShape() || !yType.hasStaticShape()) {
    return std::nullopt;
  }
  // Y is [seq, dirs, batch, H].
  int64_t rows =
      yType.getDimSize(0) * yType.getDimSize(1) * yType.getDimSize(2);
  return rows * perRow;
}

std::optional<int64_t> LSTMOp::getFlops() {
  auto xType = cast<TensorType>(getX().getType());
  if (!xType.hasStaticShape()) {
    return std::nullopt;
  }
  int64_t h = getHiddenSize(), input = xType.getDimSize(2);
  int64_t perRow = 8 * h * (input + h) + 4 * h + (getB() ? 8 * h : 0) + 9 * h +
                   (getP() ? 6 * h : 0);
  return rnnFlops(xType, getY().getType(), perRow);
}

LogicalResult GRUOp::inferReturnTypes(MLIRContext *,
                                      std::optional<Location> location,
                                      Adaptor adaptor,
                                      SmallVectorImpl<Type> &inferred) {
  auto typeOf = [](Value v) { return v ? v.getType() : Type(); };
  RNNOperands ops{adaptor.getX().getType(),
                  adaptor.getW().getType(),
                  adaptor.getR().getType(),
                  typeOf(adaptor.getB()),
                  typeOf(adaptor.getSequenceLens()),
                  typeOf(adaptor.getInitialH()),
                  Type(),
                  Type()};
  return inferRNN(location, "graph.gru", /*gates=*/3, adaptor.getHiddenSize(),
                  adaptor.getDirection(), adaptor.getActivationsAttr(),
                  clipValue(adaptor.getClipAttr()), ops, /*withCell=*/false,
                  inferred);
}

std::optional<int64_t> GRUOp::getFlops() {
  auto xType = cast<TensorType>(getX().getType());
  if (!xType.hasStaticShape()) {
    return std::nullopt;
  }
  int64_t h = getHiddenSize(), input = xType.getDimSize(2);
  int64_t perRow = 6 * h * (input + h) + 3 * h + (getB() ? 6 * h : 0) + 8 * h;
  return rnnFlops(xType, getY().getType(), perRow);
}
