//===- ImportUtils.cpp - building graph ops by name
//-------------------------===//

#include "ImportUtils.h"

#include "mlir/AsmParser/AsmParser.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/OperationSupport.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Interfaces/InferTypeOpInterface.h"

using namespace mlir;

namespace graphc::import {

Operation *createGraphOp(OpBuilder &builder, Location loc, StringRef name,
                         ValueRange operands, ArrayRef<NamedAttribute> attrs,
                         ArrayRef<Type> resultElements) {
  MLIRContext *context = builder.getContext();
  std::optional<RegisteredOperationName> opName =
      RegisteredOperationName::lookup(name, context);
  if (!opName) {
    emitError(loc) << "importing this node needs '" << name
                   << "', which this build of the graph dialect lacks";
    return nullptr;
  }
  OperationState state(loc, *opName);
  state.addOperands(operands);
  state.addAttributes(attrs);
  for (Type element : resultElements) {
    state.addTypes(UnrankedTensorType::get(element));
  }
  Operation *op = builder.create(state);
  if (auto infer = dyn_cast<InferTypeOpInterface>(op)) {
    SmallVector<Type> inferred;
    if (failed(infer.inferReturnTypes(
            context, loc, op->getOperands(), op->getRawDictionaryAttrs(),
            op->getPropertiesStorage(), op->getRegions(), inferred))) {
      op->erase();
      return nullptr;
    }
    if (inferred.size() != op->getNumResults()) {
      emitError(loc) << name << " infers " << inferred.size()
                     << " results, expected " << op->getNumResults();
      op->erase();
      return nullptr;
    }
    for (auto [result, type] : llvm::zip(op->getResults(), inferred)) {
      result.setType(type);
    }
  }
  // A malformed model can hand an op operands it does not take (an ONNX Ceil
  // on int8): the op's own verifier says so now, at the node, instead of the
  // importer returning a module that does not verify. Ops with regions are
  // filled after this returns, so only the op itself is checked, not what
  // it will hold.
  if (op->getNumRegions() == 0 &&
      failed(verify(op, /*verifyRecursively=*/false))) {
    op->erase();
    return nullptr;
  }
  return op;
}

Type getElementType(Value value) {
  return cast<ShapedType>(value.getType()).getElementType();
}

std::optional<SmallVector<int64_t>> getShape(Value value) {
  auto type = dyn_cast<RankedTensorType>(value.getType());
  if (!type) {
    return std::nullopt;
  }
  return SmallVector<int64_t>(type.getShape());
}

Attribute parseAttr(MLIRContext *context, Location loc, StringRef text) {
  Attribute attr = parseAttribute(text, context);
  if (!attr) {
    emitError(loc) << "cannot build attribute '" << text
                   << "' with this build of the graph dialect";
  }
  return attr;
}

FailureOr<std::optional<InputShapeSpec>>
findInputShape(ArrayRef<std::string> specs, StringRef name, Location loc) {
  for (StringRef spec : specs) {
    auto [specName, dims] = spec.rsplit(':');
    if (specName != name) {
      continue;
    }
    InputShapeSpec found{spec, {}};
    llvm::SmallVector<StringRef> parts;
    if (!dims.empty()) {
      dims.split(parts, 'x');
    }
    for (StringRef part : parts) {
      int64_t size;
      if (part == "?") {
        size = ShapedType::kDynamic;
      } else if (part.getAsInteger(10, size) || size < 0) {
        return emitError(loc) << "--input-shape '" << spec
                              << "': bad dimension '" << part << "'";
      }
      found.shape.push_back(size);
    }
    return std::optional<InputShapeSpec>(std::move(found));
  }
  return std::optional<InputShapeSpec>();
}

void fillLeadingBatch(llvm::SmallVectorImpl<int64_t> &dims, int64_t batch) {
  if (batch > 0 && !dims.empty() && ShapedType::isDynamic(dims.front())) {
    dims.front() = batch;
  }
}

std::string inputShapeFlag(const UnresolvedInput &input) {
  std::string flag = "--input-shape " + input.name + ":";
  if (!input.dims) {
    return flag + "DIMS";
  }
  for (auto [i, dim] : llvm::enumerate(*input.dims)) {
    flag += (i ? "x" : "") + (ShapedType::isDynamic(dim) ? std::string("?")
                                                         : std::to_string(dim));
  }
  return flag;
}

LogicalResult reportUnresolvedInputs(Location loc, int64_t batch,
                                     ArrayRef<UnresolvedInput> inputs) {
  InFlightDiagnostic error = emitError(loc);
  error << "--batch " << batch << " fills only an unknown leading dimension; "
        << inputs.size() << " input" << (inputs.size() > 1 ? "s" : "")
        << " still need" << (inputs.size() > 1 ? "" : "s") << " a shape, add:";
  for (const UnresolvedInput &input : inputs) {
    error << "\n  " << inputShapeFlag(input);
    if (!input.dims) {
      error << "  (rank unknown: every dimension, or '" << input.name
            << ":' for a scalar)";
    } else {
      error << "  (replace each ? with a size)";
    }
  }
  return error;
}

std::optional<llvm::SmallVector<int64_t>> constantInts(mlir::Value value) {
  mlir::DenseElementsAttr attr;
  if (!value || !mlir::matchPattern(value, mlir::m_Constant(&attr)) ||
      !mlir::isa<mlir::IntegerType>(attr.getElementType())) {
    return std::nullopt;
  }
  llvm::SmallVector<int64_t> out;
  for (const llvm::APInt &v : attr.getValues<llvm::APInt>()) {
    out.push_back(v.getSExtValue());
  }
  return out;
}

SmallVector<Value> foldCreatedOp(OpBuilder &builder, Operation *op,
                                 FoldReplacement replacement) {
  for (Value v : op->getOperands()) {
    DenseElementsAttr a;
    if (matchPattern(v, m_Constant(&a)) &&
        a.getNumElements() > kMaxImportFoldElements) {
      return {};
    }
  }
  SmallVector<OpFoldResult> folded;
  if (failed(op->fold(folded)) || folded.size() != op->getNumResults()) {
    return {};
  }
  // Check every result before building anything, so that a fold that is
  // not taken leaves the IR as it was.
  SmallVector<ElementsAttr> constants;
  for (auto [result, fold] : llvm::zip(op->getResults(), folded)) {
    ElementsAttr value;
    if (auto v = dyn_cast<Value>(fold)) {
      if (v.getDefiningOp() == op || v.getType() != result.getType()) {
        return {}; // folded in place, or a type the users do not expect
      }
      if (replacement == FoldReplacement::NewConstant &&
          !matchPattern(v, m_Constant(&value))) {
        return {};
      }
    } else {
      value = dyn_cast_or_null<ElementsAttr>(dyn_cast<Attribute>(fold));
      if (!value) {
        return {};
      }
    }
    if (value && (value.getType() != result.getType() ||
                  value.getNumElements() > kMaxImportFoldElements)) {
      return {};
    }
    constants.push_back(value);
  }
  SmallVector<Value> out;
  for (auto [fold, value] : llvm::zip(folded, constants)) {
    if (!value) {
      out.push_back(cast<Value>(fold));
      continue;
    }
    Operation *constant = createGraphOp(
        builder, op->getLoc(), "graph.constant", {},
        {builder.getNamedAttr("value", value)}, {value.getElementType()});
    if (!constant) {
      return {}; // emitted; constants built so far are unused and harmless
    }
    out.push_back(constant->getResult(0));
  }
  op->erase();
  return out;
}

} // namespace graphc::import
