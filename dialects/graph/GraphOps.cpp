//===- GraphOps.cpp - graph dialect registration and shared helpers -------===//

#include "graph/GraphOps.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/DialectImplementation.h"
#include "mlir/IR/DialectResourceBlobManager.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace graphc::graph;

#include "graph/GraphDialect.cpp.inc"
#include "graph/GraphEnums.cpp.inc"
#include "graph/GraphInterfaces.cpp.inc"

#define GET_ATTRDEF_CLASSES
#include "graph/GraphAttrs.cpp.inc"

//===----------------------------------------------------------------------===//
// Dialect
//===----------------------------------------------------------------------===//

void GraphDialect::initialize() {
  addAttributes<
#define GET_ATTRDEF_LIST
#include "graph/GraphAttrs.cpp.inc"
      >();
  addOperations<
#define GET_OP_LIST
#include "graph/GraphOps.cpp.inc"
      >();
}

Operation *GraphDialect::materializeConstant(OpBuilder &builder,
                                             Attribute value, Type type,
                                             Location loc) {
  auto elements = dyn_cast<ElementsAttr>(value);
  if (!elements || elements.getType() != type) {
    return nullptr;
  }
  return ConstantOp::create(builder, loc, elements);
}

//===----------------------------------------------------------------------===//
// Shape helpers (GraphTypeUtils.h)
//===----------------------------------------------------------------------===//

LogicalResult graphc::graph::broadcastShapes(std::optional<Location> loc,
                                             StringRef opName,
                                             ArrayRef<int64_t> lhs,
                                             ArrayRef<int64_t> rhs,
                                             SmallVectorImpl<int64_t> &result) {
  size_t rank = std::max(lhs.size(), rhs.size());
  result.assign(rank, 1);
  for (size_t i = 0; i < rank; ++i) {
    // Walk from the trailing dimension; a missing dimension acts as 1.
    int64_t l = i < lhs.size() ? lhs[lhs.size() - 1 - i] : 1;
    int64_t r = i < rhs.size() ? rhs[rhs.size() - 1 - i] : 1;
    int64_t &out = result[rank - 1 - i];
    if (l == r) {
      out = l;
    } else if (l == 1) {
      out = r;
    } else if (r == 1) {
      out = l;
    } else if (ShapedType::isDynamic(l)) {
      out = r;
    } else if (ShapedType::isDynamic(r)) {
      out = l;
    } else {
      return emitOptionalError(
          loc, opName, ": cannot broadcast dimension ", l, " against ", r,
          " (shapes [", llvm::make_range(lhs.begin(), lhs.end()), "] and [",
          llvm::make_range(rhs.begin(), rhs.end()), "])");
    }
  }
  return success();
}

LogicalResult graphc::graph::inferBroadcastBinary(
    std::optional<Location> loc, StringRef opName, Type lhs, Type rhs,
    Type resultElementType, SmallVectorImpl<Type> &inferred) {
  auto lhsType = dyn_cast<TensorType>(lhs);
  auto rhsType = dyn_cast<TensorType>(rhs);
  if (!lhsType || !rhsType) {
    return emitOptionalError(loc, opName, ": operands must be tensors");
  }
  Type elementType = resultElementType;
  if (!elementType) {
    if (lhsType.getElementType() != rhsType.getElementType()) {
      return emitOptionalError(loc, opName, ": operand element types ",
                               lhsType.getElementType(), " and ",
                               rhsType.getElementType(), " differ");
    }
    elementType = lhsType.getElementType();
  }
  if (!lhsType.hasRank() || !rhsType.hasRank()) {
    inferred.push_back(UnrankedTensorType::get(elementType));
    return success();
  }
  SmallVector<int64_t> shape;
  if (failed(broadcastShapes(loc, opName, lhsType.getShape(),
                             rhsType.getShape(), shape))) {
    return failure();
  }
  inferred.push_back(RankedTensorType::get(shape, elementType));
  return success();
}

Type graphc::graph::refineTensorType(Type a, Type b) {
  auto ta = dyn_cast<TensorType>(a);
  auto tb = dyn_cast<TensorType>(b);
  if (!ta || !tb || ta.getElementType() != tb.getElementType()) {
    return nullptr;
  }
  if (!ta.hasRank()) {
    return tb;
  }
  if (!tb.hasRank()) {
    return ta;
  }
  if (ta.getRank() != tb.getRank()) {
    return nullptr;
  }
  SmallVector<int64_t> shape;
  for (auto [da, db] : llvm::zip_equal(ta.getShape(), tb.getShape())) {
    if (ShapedType::isDynamic(da)) {
      shape.push_back(db);
    } else if (ShapedType::isDynamic(db) || da == db) {
      shape.push_back(da);
    } else {
      return nullptr;
    }
  }
  // Keep an encoding only when both agree on it.
  auto ra = cast<RankedTensorType>(ta);
  auto rb = cast<RankedTensorType>(tb);
  Attribute encoding =
      ra.getEncoding() == rb.getEncoding() ? ra.getEncoding() : Attribute();
  return RankedTensorType::get(shape, ta.getElementType(), encoding);
}

std::optional<int64_t> graphc::graph::getStaticNumElements(Type type) {
  auto shaped = dyn_cast<ShapedType>(type);
  if (!shaped || !shaped.hasStaticShape()) {
    return std::nullopt;
  }
  return shaped.getNumElements();
}

std::optional<int64_t> graphc::graph::getStaticSizeInBytes(Type type) {
  std::optional<int64_t> n = getStaticNumElements(type);
  if (!n) {
    return std::nullopt;
  }
  Type element = cast<ShapedType>(type).getElementType();
  int64_t bits = element.isIntOrFloat() ? element.getIntOrFloatBitWidth() : 64;
  if (auto complex = dyn_cast<ComplexType>(element)) {
    bits = 2 * complex.getElementType().getIntOrFloatBitWidth();
  }
  return *n * ((bits + 7) / 8);
}

std::optional<ArrayRef<char>>
graphc::graph::getRawElementBytes(Attribute value) {
  auto elements = dyn_cast<ElementsAttr>(value);
  if (!elements) {
    return std::nullopt;
  }
  ShapedType type = elements.getShapedType();
  Type element = type.getElementType();
  if (!type.hasStaticShape() || !element.isIntOrFloat() ||
      element.getIntOrFloatBitWidth() % 8 != 0) {
    return std::nullopt;
  }
  ArrayRef<char> raw;
  if (auto dense = dyn_cast<DenseElementsAttr>(value)) {
    if (dense.isSplat()) {
      return std::nullopt;
    }
    raw = dense.getRawData();
  } else if (auto resource = dyn_cast<DenseResourceElementsAttr>(value)) {
    AsmResourceBlob *blob = resource.getRawHandle().getBlob();
    if (!blob) {
      return std::nullopt;
    }
    raw = blob->getData();
  } else {
    return std::nullopt;
  }
  if (raw.size() !=
      size_t(type.getNumElements()) * (element.getIntOrFloatBitWidth() / 8)) {
    return std::nullopt;
  }
  return raw;
}

FailureOr<int64_t> graphc::graph::normalizeAxis(std::optional<Location> loc,
                                                StringRef opName, int64_t axis,
                                                int64_t rank) {
  if (axis < -rank || axis >= rank) {
    (void)emitOptionalError(loc, opName, ": axis ", axis,
                            " is out of range for rank ", rank);
    return failure();
  }
  return axis < 0 ? axis + rank : axis;
}

bool graphc::graph::detail::isCompatibleReturnTypes(TypeRange lhs,
                                                    TypeRange rhs) {
  if (lhs.size() != rhs.size()) {
    return false;
  }
  for (auto [l, r] : llvm::zip_equal(lhs, rhs)) {
    if (l == r) {
      continue;
    }
    auto tl = dyn_cast<TensorType>(l);
    auto tr = dyn_cast<TensorType>(r);
    if (!tl || !tr || !refineTensorType(tl, tr)) {
      return false;
    }
  }
  return true;
}

std::optional<int64_t> graphc::graph::detail::defaultFlops(Operation *op) {
  int64_t total = 0;
  for (Type type : op->getResultTypes()) {
    std::optional<int64_t> n = getStaticNumElements(type);
    if (!n) {
      return std::nullopt;
    }
    total += *n;
  }
  return total;
}

std::optional<int64_t> graphc::graph::detail::defaultBytesMoved(Operation *op) {
  int64_t total = 0;
  auto add = [&](Type type) -> bool {
    if (!isa<TensorType>(type)) {
      return true;
    }
    std::optional<int64_t> bytes = getStaticSizeInBytes(type);
    if (!bytes) {
      return false;
    }
    total += *bytes;
    return true;
  };
  for (Type type : op->getOperandTypes()) {
    if (!add(type)) {
      return std::nullopt;
    }
  }
  for (Type type : op->getResultTypes()) {
    if (!add(type)) {
      return std::nullopt;
    }
  }
  return total;
}

#define GET_OP_CLASSES
#include "graph/GraphOps.cpp.inc"
