//===- LoweringUtils.cpp - builders shared by the graph-to-linalg patterns
//-===//

#include "LoweringUtils.h"

#include "mlir/Dialect/ControlFlow/IR/ControlFlowOps.h"
#include "mlir/Dialect/Utils/ReshapeOpsUtils.h"
#include "mlir/IR/AffineMap.h"

#include <cmath>
#include <limits>

using namespace mlir;

namespace graphc::lowering {

FailureOr<RankedTensorType> getRankedResultType(Operation *op, unsigned i) {
  auto type = dyn_cast<RankedTensorType>(op->getResult(i).getType());
  if (!type) {
    return op->emitError("graph-to-linalg: unranked tensor not supported; run "
                         "graph-infer-shapes or give --input-shape");
  }
  return type;
}

LogicalResult requireStaticShapes(Operation *op) {
  auto check = [&](Type type) -> LogicalResult {
    auto shaped = dyn_cast<RankedTensorType>(type);
    if (shaped && !shaped.hasStaticShape()) {
      return op->emitError("graph-to-linalg: ")
             << op->getName() << " needs static shapes, got " << type
             << "; run graph-infer-shapes or give --input-shape";
    }
    return success();
  };
  for (Type type : op->getOperandTypes()) {
    if (failed(check(type))) {
      return failure();
    }
  }
  for (Type type : op->getResultTypes()) {
    if (failed(check(type))) {
      return failure();
    }
  }
  return success();
}

Value createEmpty(OpBuilder &b, Location loc, RankedTensorType type,
                  ValueRange dynSizes) {
  return tensor::EmptyOp::create(b, loc, type.getShape(), type.getElementType(),
                                 dynSizes);
}

Value createEmptyForBroadcast(OpBuilder &b, Location loc, RankedTensorType type,
                              ValueRange operands) {
  SmallVector<Value> dynSizes;
  int64_t rank = type.getRank();
  for (int64_t d = 0; d < rank; ++d) {
    // The size of result dimension `d`: static if the result or some
    // operand knows it, else the first dynamic operand's.
    int64_t staticSize = type.getDimSize(d);
    Value size;
    int64_t sizeSource = -1;
    SmallVector<std::pair<int64_t, int64_t>> dynamicOperands;
    for (auto [i, operand] : llvm::enumerate(operands)) {
      auto operandType = cast<RankedTensorType>(operand.getType());
      int64_t od = d - (rank - operandType.getRank());
      if (od < 0) {
        continue;
      }
      int64_t operandSize = operandType.getDimSize(od);
      if (ShapedType::isDynamic(operandSize)) {
        dynamicOperands.emplace_back(i, od);
      } else if (operandSize != 1 && ShapedType::isDynamic(staticSize)) {
        staticSize = operandSize;
      }
    }
    if (ShapedType::isDynamic(staticSize) && dynamicOperands.empty()) {
      // Every operand has a static 1 here (a result type less refined than
      // its operands').
      staticSize = 1;
    }
    if (!ShapedType::isDynamic(staticSize)) {
      if (!dynamicOperands.empty() || type.isDynamicDim(d)) {
        size = arith::ConstantIndexOp::create(b, loc, staticSize);
      }
    } else {
      auto [i, od] = dynamicOperands.front();
      size = tensor::DimOp::create(b, loc, operands[i], od);
      sizeSource = static_cast<int64_t>(i);
    }
    if (type.isDynamicDim(d)) {
      dynSizes.push_back(size);
    }
    // A dynamic operand dimension is read with the identity map, so it must
    // equal the result's size at run time: a 1 that would need stretching
    // stops the program with a message instead of reading out of bounds.
    for (auto [i, od] : dynamicOperands) {
      if (static_cast<int64_t>(i) == sizeSource) {
        continue;
      }
      Value operandSize = tensor::DimOp::create(b, loc, operands[i], od);
      Value same = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq,
                                         operandSize, size);
      std::string message;
      llvm::raw_string_ostream os(message);
      os << "graph-to-linalg: dynamic dimension " << od << " of operand " << i
         << " does not match result dimension " << d
         << " at run time (a dynamic dimension of size 1 is not broadcast)";
      cf::AssertOp::create(b, loc, same, message);
    }
  }
  return createEmpty(b, loc, type, dynSizes);
}

Value createFilled(OpBuilder &b, Location loc, RankedTensorType type,
                   Value value, ValueRange dynSizes) {
  Value empty = createEmpty(b, loc, type, dynSizes);
  return linalg::FillOp::create(b, loc, ValueRange{value}, ValueRange{empty})
      .getResult(0);
}

Value createScalar(OpBuilder &b, Location loc, Type type, double value) {
  if (auto floatType = dyn_cast<FloatType>(type)) {
    return arith::ConstantOp::create(b, loc, b.getFloatAttr(floatType, value));
  }
  if (isa<IndexType>(type)) {
    return arith::ConstantIndexOp::create(b, loc, static_cast<int64_t>(value));
  }
  return arith::ConstantOp::create(
      b, loc, b.getIntegerAttr(type, static_cast<int64_t>(value)));
}

AffineMap getBroadcastMap(MLIRContext *ctx, RankedTensorType operand,
                          ArrayRef<int64_t> resultShape) {
  int64_t rank = resultShape.size();
  int64_t offset = rank - operand.getRank();
  SmallVector<AffineExpr> exprs;
  for (int64_t d = 0; d < operand.getRank(); ++d) {
    int64_t rd = d + offset;
    if (operand.getDimSize(d) == 1 && resultShape[rd] != 1) {
      exprs.push_back(getAffineConstantExpr(0, ctx));
    } else {
      exprs.push_back(getAffineDimExpr(rd, ctx));
    }
  }
  return AffineMap::get(rank, 0, exprs, ctx);
}

Value buildElementwise(OpBuilder &b, Location loc, RankedTensorType resultType,
                       ValueRange operands, ScalarBuilder body) {
  MLIRContext *ctx = b.getContext();
  SmallVector<AffineMap> maps;
  for (Value operand : operands) {
    maps.push_back(getBroadcastMap(
        ctx, cast<RankedTensorType>(operand.getType()), resultType.getShape()));
  }
  maps.push_back(b.getMultiDimIdentityMap(resultType.getRank()));
  Value init = createEmptyForBroadcast(b, loc, resultType, operands);
  SmallVector<utils::IteratorType> iterators(resultType.getRank(),
                                             utils::IteratorType::parallel);
  auto generic = linalg::GenericOp::create(
      b, loc, TypeRange{resultType}, operands, ValueRange{init}, maps,
      iterators, [&](OpBuilder &nb, Location nloc, ValueRange args) {
        Value result = body(nb, nloc, args.drop_back());
        linalg::YieldOp::create(nb, nloc, result);
      });
  return generic.getResult(0);
}

SmallVector<Value> getDynamicSizes(OpBuilder &b, Location loc, Value value) {
  auto type = cast<RankedTensorType>(value.getType());
  SmallVector<Value> sizes;
  for (int64_t d = 0; d < type.getRank(); ++d) {
    if (type.isDynamicDim(d)) {
      sizes.push_back(tensor::DimOp::create(b, loc, value, d));
    }
  }
  return sizes;
}

AffineMap getDropDimsMap(MLIRContext *ctx, int64_t rank,
                         ArrayRef<int64_t> dims) {
  SmallVector<AffineExpr> exprs;
  for (int64_t d = 0; d < rank; ++d) {
    if (!llvm::is_contained(dims, d)) {
      exprs.push_back(getAffineDimExpr(d, ctx));
    }
  }
  return AffineMap::get(rank, 0, exprs, ctx);
}

Value buildParallelGeneric(OpBuilder &b, Location loc, Value shapeSource,
                           Type elementType, ValueRange inputs,
                           ArrayRef<AffineMap> inputMaps, ScalarBuilder body) {
  auto sourceType = cast<RankedTensorType>(shapeSource.getType());
  auto resultType = sourceType.clone(elementType);
  // A tensor.empty of the right type is its own destination.
  Value init = shapeSource;
  if (!shapeSource.getDefiningOp<tensor::EmptyOp>() ||
      sourceType != resultType) {
    init =
        createEmpty(b, loc, resultType, getDynamicSizes(b, loc, shapeSource));
  }
  SmallVector<AffineMap> maps(inputMaps);
  maps.push_back(b.getMultiDimIdentityMap(resultType.getRank()));
  SmallVector<utils::IteratorType> iterators(resultType.getRank(),
                                             utils::IteratorType::parallel);
  auto generic = linalg::GenericOp::create(
      b, loc, TypeRange{resultType}, inputs, ValueRange{init}, maps, iterators,
      [&](OpBuilder &nb, Location nloc, ValueRange args) {
        linalg::YieldOp::create(nb, nloc, body(nb, nloc, args.drop_back()));
      });
  return generic.getResult(0);
}

Value buildReduction(OpBuilder &b, Location loc, Value input,
                     ArrayRef<int64_t> axes, Value init,
                     ScalarBuilder combine) {
  auto inputType = cast<RankedTensorType>(input.getType());
  int64_t rank = inputType.getRank();
  if (rank > 0 && static_cast<int64_t>(axes.size()) == rank) {
    // A reduction to a 0-d tensor goes through a [1] result (the input
    // gains a leading unit dimension): graphc-cpu-codegen miscompiles
    // linalg.reduce into a 0-d output (it keeps only the last partial sum).
    SmallVector<int64_t> expandedShape = {1};
    SmallVector<OpFoldResult> outputShape = {b.getIndexAttr(1)};
    SmallVector<ReassociationIndices> reassociation = {{0, 1}};
    SmallVector<int64_t> shiftedAxes;
    for (int64_t d = 0; d < rank; ++d) {
      expandedShape.push_back(inputType.getDimSize(d));
      outputShape.push_back(
          inputType.isDynamicDim(d)
              ? OpFoldResult(
                    tensor::DimOp::create(b, loc, input, d).getResult())
              : OpFoldResult(b.getIndexAttr(inputType.getDimSize(d))));
      if (d > 0) {
        reassociation.push_back({d + 1});
      }
      shiftedAxes.push_back(d + 1);
    }
    Value expanded =
        tensor::ExpandShapeOp::create(b, loc, inputType.clone(expandedShape),
                                      input, reassociation, outputShape);
    Value one = buildReduction(b, loc, expanded, shiftedAxes, init, combine);
    return tensor::CollapseShapeOp::create(
        b, loc, RankedTensorType::get({}, init.getType()), one,
        ArrayRef<ReassociationIndices>{});
  }
  SmallVector<int64_t> shape;
  SmallVector<Value> dynSizes;
  for (int64_t d = 0; d < rank; ++d) {
    if (llvm::is_contained(axes, d)) {
      continue;
    }
    shape.push_back(inputType.getDimSize(d));
    if (inputType.isDynamicDim(d)) {
      dynSizes.push_back(tensor::DimOp::create(b, loc, input, d));
    }
  }
  auto resultType = RankedTensorType::get(shape, init.getType());
  Value filled = createFilled(b, loc, resultType, init, dynSizes);
  auto reduce = linalg::ReduceOp::create(
      b, loc, ValueRange{input}, ValueRange{filled}, axes,
      [&](OpBuilder &nb, Location nloc, ValueRange args) {
        linalg::YieldOp::create(nb, nloc, combine(nb, nloc, args));
      });
  return reduce.getResult(0);
}

Value reshapeTo(OpBuilder &b, Location loc, Value value,
                RankedTensorType type) {
  auto sourceType = cast<RankedTensorType>(value.getType());
  if (sourceType == type) {
    return value;
  }
  if (sourceType.getRank() > type.getRank()) {
    if (auto reassociation =
            getReassociationIndicesForReshape(sourceType, type)) {
      return tensor::CollapseShapeOp::create(b, loc, type, value,
                                             *reassociation);
    }
  } else if (sourceType.getRank() < type.getRank()) {
    if (auto reassociation =
            getReassociationIndicesForReshape(sourceType, type)) {
      return tensor::ExpandShapeOp::create(b, loc, type, value, *reassociation);
    }
  }
  // No single reassociation (or equal ranks): go through a 1-d tensor.
  int64_t numElements = sourceType.getNumElements();
  auto flatType = RankedTensorType::get({numElements}, type.getElementType());
  Value flat = value;
  if (sourceType.getRank() != 1) {
    SmallVector<ReassociationIndices> all;
    if (sourceType.getRank() > 0) {
      all.push_back(
          llvm::to_vector(llvm::seq<int64_t>(0, sourceType.getRank())));
    }
    if (sourceType.getRank() == 0) {
      flat = tensor::ExpandShapeOp::create(b, loc, flatType, value, all);
    } else {
      flat = tensor::CollapseShapeOp::create(b, loc, flatType, value, all);
    }
  }
  if (type.getRank() == 1) {
    return flat;
  }
  SmallVector<ReassociationIndices> all;
  if (type.getRank() > 0) {
    all.push_back(llvm::to_vector(llvm::seq<int64_t>(0, type.getRank())));
    return tensor::ExpandShapeOp::create(b, loc, type, flat, all);
  }
  return tensor::CollapseShapeOp::create(b, loc, type, flat, all);
}

Value insertUnitDims(OpBuilder &b, Location loc, Value value,
                     ArrayRef<int64_t> axes) {
  auto type = cast<RankedTensorType>(value.getType());
  if (axes.empty()) {
    return value;
  }
  int64_t rank = type.getRank() + axes.size();
  SmallVector<int64_t> shape;
  SmallVector<ReassociationIndices> reassociation;
  int64_t source = 0;
  for (int64_t d = 0; d < rank; ++d) {
    if (llvm::is_contained(axes, d)) {
      shape.push_back(1);
    } else {
      shape.push_back(type.getDimSize(source++));
    }
  }
  // Group each unit dimension with the next kept dimension (the last kept
  // one for trailing units); a 0-d source has no groups at all.
  if (type.getRank() > 0) {
    ReassociationIndices group;
    int64_t kept = 0;
    for (int64_t d = 0; d < rank; ++d) {
      group.push_back(d);
      if (!llvm::is_contained(axes, d)) {
        ++kept;
        if (kept < type.getRank()) {
          reassociation.push_back(group);
          group.clear();
        }
      }
    }
    reassociation.push_back(group);
  }
  auto resultType = RankedTensorType::get(shape, type.getElementType());
  SmallVector<OpFoldResult> outputShape;
  source = 0;
  for (int64_t d = 0; d < rank; ++d) {
    if (llvm::is_contained(axes, d)) {
      outputShape.push_back(b.getIndexAttr(1));
    } else if (type.isDynamicDim(source)) {
      outputShape.push_back(
          tensor::DimOp::create(b, loc, value, source++).getResult());
    } else {
      outputShape.push_back(b.getIndexAttr(type.getDimSize(source++)));
    }
  }
  return tensor::ExpandShapeOp::create(b, loc, resultType, value, reassociation,
                                       outputShape);
}

Value createMax(OpBuilder &b, Location loc, Value x, Value y) {
  if (isa<FloatType>(x.getType())) {
    return arith::MaximumFOp::create(b, loc, x, y);
  }
  if (x.getType().isInteger(1)) {
    return arith::MaxUIOp::create(b, loc, x, y);
  }
  return arith::MaxSIOp::create(b, loc, x, y);
}

Value createMin(OpBuilder &b, Location loc, Value x, Value y) {
  if (isa<FloatType>(x.getType())) {
    return arith::MinimumFOp::create(b, loc, x, y);
  }
  if (x.getType().isInteger(1)) {
    return arith::MinUIOp::create(b, loc, x, y);
  }
  return arith::MinSIOp::create(b, loc, x, y);
}

Value createExtreme(OpBuilder &b, Location loc, Type type, bool negative) {
  if (auto floatType = dyn_cast<FloatType>(type)) {
    APFloat value = APFloat::getInf(floatType.getFloatSemantics(), negative);
    return arith::ConstantOp::create(b, loc, b.getFloatAttr(floatType, value));
  }
  unsigned width = type.getIntOrFloatBitWidth();
  APInt value = width == 1
                    ? (negative ? APInt::getZero(1) : APInt::getAllOnes(1))
                    : (negative ? APInt::getSignedMinValue(width)
                                : APInt::getSignedMaxValue(width));
  return arith::ConstantOp::create(b, loc, b.getIntegerAttr(type, value));
}

} // namespace graphc::lowering
