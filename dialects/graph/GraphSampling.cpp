//===- GraphSampling.cpp - grid sampling, col2im and bit ops --------------===//
//
// Type inference, verification and cost of the ops in GraphSamplingOps.td.
// The shifts get theirs from their ODS base class.
//
//===----------------------------------------------------------------------===//

#include "graph/GraphOps.h"

using namespace mlir;
using namespace graphc::graph;

//===----------------------------------------------------------------------===//
// GridSampleOp
//===----------------------------------------------------------------------===//

LogicalResult GridSampleOp::inferReturnTypes(MLIRContext *,
                                             std::optional<Location> loc,
                                             Adaptor adaptor,
                                             SmallVectorImpl<Type> &inferred) {
  StringRef name = getOperationName();
  auto input = cast<TensorType>(adaptor.getInput().getType());
  auto grid = cast<TensorType>(adaptor.getGrid().getType());
  Type element = input.getElementType();
  if (grid.getElementType() != element) {
    return emitOptionalError(loc, name, ": grid element type ",
                             grid.getElementType(),
                             " does not match the input's ", element);
  }
  if (input.hasRank() && input.getRank() < 3) {
    return emitOptionalError(loc, name, ": input rank ", input.getRank(),
                             " is below 3 (N, C and a spatial dimension)");
  }
  if (!input.hasRank() || !grid.hasRank()) {
    inferred.push_back(UnrankedTensorType::get(element));
    return success();
  }
  int64_t rank = input.getRank(), spatial = rank - 2;
  if (grid.getRank() != rank) {
    return emitOptionalError(loc, name, ": grid rank ", grid.getRank(),
                             " does not match the input rank ", rank);
  }
  int64_t components = grid.getDimSize(rank - 1);
  if (!ShapedType::isDynamic(components) && components != spatial) {
    return emitOptionalError(loc, name, ": grid points have ", components,
                             " components for ", spatial,
                             " spatial dimensions");
  }
  int64_t n = input.getDimSize(0), gridN = grid.getDimSize(0);
  if (!ShapedType::isDynamic(n) && !ShapedType::isDynamic(gridN) &&
      n != gridN) {
    return emitOptionalError(loc, name, ": grid batch ", gridN,
                             " does not match the input batch ", n);
  }
  SmallVector<int64_t> shape{ShapedType::isDynamic(n) ? gridN : n,
                             input.getDimSize(1)};
  for (int64_t d = 1; d <= spatial; ++d) {
    shape.push_back(grid.getDimSize(d));
  }
  inferred.push_back(RankedTensorType::get(shape, element));
  return success();
}

std::optional<int64_t> GridSampleOp::getFlops() {
  std::optional<int64_t> n = getStaticNumElements(getType());
  auto input = dyn_cast<RankedTensorType>(getInput().getType());
  if (!n || !input) {
    return std::nullopt;
  }
  // Per result element: 2^k or 4^k weighted reads (one per neighbour),
  // plus the coordinate arithmetic, about ten operations per dimension.
  int64_t spatial = input.getRank() - 2;
  int64_t taps = 1;
  for (int64_t d = 0; d < spatial; ++d) {
    taps *= getMode() == SampleMode::cubic    ? 4
            : getMode() == SampleMode::linear ? 2
                                              : 1;
  }
  return *n * (2 * taps + 10 * spatial);
}

//===----------------------------------------------------------------------===//
// Col2ImOp
//===----------------------------------------------------------------------===//

LogicalResult Col2ImOp::inferReturnTypes(MLIRContext *,
                                         std::optional<Location> loc,
                                         Adaptor adaptor,
                                         SmallVectorImpl<Type> &inferred) {
  StringRef name = getOperationName();
  auto input = cast<TensorType>(adaptor.getInput().getType());
  ArrayRef<int64_t> image = adaptor.getImageShape();
  ArrayRef<int64_t> block = adaptor.getBlockShape();
  int64_t k = image.size();
  if (k == 0) {
    return emitOptionalError(loc, name, ": image_shape is empty");
  }
  if (int64_t(block.size()) != k) {
    return emitOptionalError(loc, name, ": block_shape has ", block.size(),
                             " entries for ", k, " image dimensions");
  }
  SmallVector<int64_t> ones(k, 1), zeros(2 * k, 0);
  ArrayRef<int64_t> dilations =
      adaptor.getDilations() ? *adaptor.getDilations() : ArrayRef(ones);
  ArrayRef<int64_t> strides =
      adaptor.getStrides() ? *adaptor.getStrides() : ArrayRef(ones);
  ArrayRef<int64_t> pads =
      adaptor.getPads() ? *adaptor.getPads() : ArrayRef(zeros);
  if (int64_t(dilations.size()) != k || int64_t(strides.size()) != k) {
    return emitOptionalError(loc, name, ": dilations and strides need ", k,
                             " entries, not ", dilations.size(), " and ",
                             strides.size());
  }
  if (int64_t(pads.size()) != 2 * k) {
    return emitOptionalError(loc, name, ": pads has ", pads.size(),
                             " entries, not ", 2 * k);
  }
  int64_t blockSize = 1, positions = 1;
  for (int64_t d = 0; d < k; ++d) {
    if (image[d] <= 0 || block[d] <= 0 || dilations[d] <= 0 ||
        strides[d] <= 0 || pads[d] < 0 || pads[k + d] < 0) {
      return emitOptionalError(loc, name, ": dimension ", d, " has image ",
                               image[d], ", block ", block[d], ", dilation ",
                               dilations[d], ", stride ", strides[d], ", pads ",
                               pads[d], " and ", pads[k + d],
                               " (sizes must be positive, pads non-negative)");
    }
    int64_t span = dilations[d] * (block[d] - 1) + 1;
    int64_t padded = image[d] + pads[d] + pads[k + d];
    if (span > padded) {
      return emitOptionalError(loc, name, ": dilated block size ", span,
                               " exceeds the padded image size ", padded,
                               " in dimension ", d);
    }
    blockSize *= block[d];
    positions *= (padded - span) / strides[d] + 1;
  }
  if (!input.hasRank()) {
    inferred.push_back(UnrankedTensorType::get(input.getElementType()));
    return success();
  }
  if (input.getRank() != 3) {
    return emitOptionalError(loc, name, ": input rank ", input.getRank(),
                             " is not 3 (N, C * block, positions)");
  }
  int64_t channels = input.getDimSize(1);
  if (!ShapedType::isDynamic(channels)) {
    if (channels % blockSize != 0) {
      return emitOptionalError(loc, name, ": input dimension 1 (", channels,
                               ") is not a multiple of the block size ",
                               blockSize);
    }
    channels /= blockSize;
  }
  int64_t given = input.getDimSize(2);
  if (!ShapedType::isDynamic(given) && given != positions) {
    return emitOptionalError(loc, name, ": input has ", given,
                             " block positions, the image and block give ",
                             positions);
  }
  SmallVector<int64_t> shape{input.getDimSize(0), channels};
  shape.append(image.begin(), image.end());
  inferred.push_back(RankedTensorType::get(shape, input.getElementType()));
  return success();
}

std::optional<int64_t> Col2ImOp::getFlops() {
  // One addition per input element.
  return getStaticNumElements(getInput().getType());
}

//===----------------------------------------------------------------------===//
// BitcastOp
//===----------------------------------------------------------------------===//

/// Storage bits of an element: booleans take a byte.
static unsigned storageBits(Type type) {
  return type.isInteger(1) ? 8 : type.getIntOrFloatBitWidth();
}

LogicalResult BitcastOp::inferReturnTypes(MLIRContext *,
                                          std::optional<Location> loc,
                                          Adaptor adaptor,
                                          SmallVectorImpl<Type> &inferred) {
  StringRef name = getOperationName();
  Type to = adaptor.getTo();
  if (!isa<FloatType>(to) && !to.isSignlessInteger() &&
      !to.isUnsignedInteger()) {
    return emitOptionalError(loc, name, ": target type ", to,
                             " is not a float, signless or unsigned integer "
                             "type");
  }
  auto input = cast<TensorType>(adaptor.getInput().getType());
  Type from = input.getElementType();
  if (storageBits(from) != storageBits(to)) {
    return emitOptionalError(loc, name, ": ", from, " (", storageBits(from),
                             " bits) and ", to, " (", storageBits(to),
                             " bits) differ in width");
  }
  inferred.push_back(input.clone(to));
  return success();
}

std::optional<int64_t> BitcastOp::getFlops() { return 0; }
