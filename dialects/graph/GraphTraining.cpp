//===- GraphTraining.cpp - variables, losses, optimizer updates -----------===//

#include "graph/GraphOps.h"

#include "mlir/IR/Builders.h"

#include <string>

using namespace mlir;
using namespace graphc::graph;

//===----------------------------------------------------------------------===//
// VariableOp
//===----------------------------------------------------------------------===//

// graph.variable @name [trainable] : type [= initial-value] [attr-dict]
ParseResult VariableOp::parse(OpAsmParser &parser, OperationState &result) {
  StringAttr name;
  Type type;
  if (parser.parseSymbolName(name)) {
    return failure();
  }
  Properties &props = result.getOrAddProperties<Properties>();
  props.sym_name = name;
  if (succeeded(parser.parseOptionalKeyword("trainable"))) {
    props.trainable = parser.getBuilder().getUnitAttr();
  }
  if (parser.parseColonType(type)) {
    return failure();
  }
  props.type = TypeAttr::get(type);
  if (succeeded(parser.parseOptionalEqual())) {
    // The initial value takes the declared type, so it is not repeated.
    Attribute value;
    SMLoc valueLoc = parser.getCurrentLocation();
    if (parser.parseAttribute(value, type)) {
      return failure();
    }
    auto elements = dyn_cast<ElementsAttr>(value);
    if (!elements) {
      return parser.emitError(
          valueLoc, "expected an elements attribute as initial value");
    }
    props.initial_value = elements;
  }
  return parser.parseOptionalAttrDict(result.attributes);
}

void VariableOp::print(OpAsmPrinter &p) {
  p << ' ';
  p.printSymbolName(getSymName());
  if (getTrainable()) {
    p << " trainable";
  }
  p << " : " << getType();
  if (std::optional<ElementsAttr> value = getInitialValue()) {
    p << " = ";
    if (value->getType() == getType()) {
      p.printAttributeWithoutType(*value);
    } else { // Only reachable from generic IR that does not verify.
      p.printAttribute(*value);
    }
  }
  p.printOptionalAttrDict((*this)->getAttrs(),
                          {getSymNameAttrName(), getTypeAttrName(),
                           getInitialValueAttrName(), getTrainableAttrName()});
}

LogicalResult VariableOp::inferReturnTypes(MLIRContext *,
                                           std::optional<Location> location,
                                           Adaptor adaptor,
                                           SmallVectorImpl<Type> &) {
  // No results; this is where the declaration's invariants are checked.
  Type type = adaptor.getType();
  auto tensor = dyn_cast<RankedTensorType>(type);
  if (!tensor || !tensor.hasStaticShape()) {
    return emitOptionalError(
        location,
        "graph.variable: type must be a statically shaped tensor, got ", type);
  }
  if (ElementsAttr value = adaptor.getInitialValueAttr();
      value && value.getType() != type) {
    return emitOptionalError(location, "graph.variable: initial value type ",
                             value.getType(), " does not match declared type ",
                             type);
  }
  return success();
}

//===----------------------------------------------------------------------===//
// ReadVariableOp, AssignVariableOp
//===----------------------------------------------------------------------===//

/// Finds the graph.variable `name` refers to from `op`, or emits an error.
static FailureOr<VariableOp> lookupVariable(Operation *op,
                                            SymbolTableCollection &symbolTable,
                                            FlatSymbolRefAttr name) {
  Operation *symbol = symbolTable.lookupNearestSymbolFrom(op, name);
  if (!symbol) {
    return op->emitOpError("refers to unknown variable ") << name;
  }
  auto variable = dyn_cast<VariableOp>(symbol);
  if (!variable) {
    return op->emitOpError() << name << " is a '" << symbol->getName()
                             << "', not a graph.variable";
  }
  return variable;
}

LogicalResult ReadVariableOp::inferReturnTypes(
    MLIRContext *, std::optional<Location> location, Adaptor adaptor,
    SmallVectorImpl<Type> &inferred) {
  // The symbol table is out of reach here, so the type is an attribute of
  // the op; verifySymbolUses checks it against the variable.
  Type type = adaptor.getValueType();
  auto tensor = dyn_cast_if_present<RankedTensorType>(type);
  if (!tensor || !tensor.hasStaticShape()) {
    return emitOptionalError(
        location,
        "graph.read_variable: type must be a statically shaped tensor, got ",
        type);
  }
  inferred.push_back(type);
  return success();
}

LogicalResult
ReadVariableOp::verifySymbolUses(SymbolTableCollection &symbolTable) {
  FailureOr<VariableOp> variable =
      lookupVariable(*this, symbolTable, getVariableAttr());
  if (failed(variable)) {
    return failure();
  }
  if (variable->getType() != getValueType()) {
    return emitOpError("type ")
           << getValueType() << " does not match the type "
           << variable->getType() << " of variable " << getVariableAttr();
  }
  return success();
}

std::optional<int64_t> ReadVariableOp::getFlops() { return 0; }

LogicalResult AssignVariableOp::inferReturnTypes(MLIRContext *,
                                                 std::optional<Location>,
                                                 Adaptor,
                                                 SmallVectorImpl<Type> &) {
  // No results; the value is checked against the variable in
  // verifySymbolUses.
  return success();
}

LogicalResult
AssignVariableOp::verifySymbolUses(SymbolTableCollection &symbolTable) {
  FailureOr<VariableOp> variable =
      lookupVariable(*this, symbolTable, getVariableAttr());
  if (failed(variable)) {
    return failure();
  }
  // A value that is only dynamically shaped yet is accepted: the runtime
  // checks it, and graph-infer-shapes usually makes it static.
  if (!refineTensorType(getValue().getType(), variable->getType())) {
    return emitOpError("value type ")
           << getValue().getType() << " is not compatible with the type "
           << variable->getType() << " of variable " << getVariableAttr();
  }
  return success();
}

std::optional<int64_t> AssignVariableOp::getFlops() {
  if (getMode() == AssignMode::set) {
    return 0;
  }
  // One add or subtract per element of the variable.
  return getStaticNumElements(getValue().getType());
}

//===----------------------------------------------------------------------===//
// Helpers
//===----------------------------------------------------------------------===//

static std::string formatShape(TensorType type) {
  if (!type.hasRank()) {
    return "[*]";
  }
  std::string text = "[";
  for (auto [i, dim] : llvm::enumerate(type.getShape())) {
    if (i) {
      text += ", ";
    }
    text += ShapedType::isDynamic(dim) ? "?" : std::to_string(dim);
  }
  return text + "]";
}

//===----------------------------------------------------------------------===//
// SoftmaxCrossEntropyOp
//===----------------------------------------------------------------------===//

LogicalResult SoftmaxCrossEntropyOp::inferReturnTypes(
    MLIRContext *, std::optional<Location> location, Adaptor adaptor,
    SmallVectorImpl<Type> &inferred) {
  StringRef opName = "graph.softmax_cross_entropy";
  auto logits = cast<TensorType>(adaptor.getLogits().getType());
  auto labels = cast<TensorType>(adaptor.getLabels().getType());
  Type element = logits.getElementType();
  if (logits.hasRank() && logits.getRank() != 2) {
    return emitOptionalError(
        location, opName,
        ": logits must have rank 2 ([batch, classes]), got "
        "rank ",
        logits.getRank());
  }
  int64_t batch = ShapedType::kDynamic, classes = ShapedType::kDynamic;
  if (logits.hasRank()) {
    batch = logits.getDimSize(0);
    classes = logits.getDimSize(1);
  }
  // Expected labels shape; a dynamic entry matches anything.
  SmallVector<int64_t> expected = {batch};
  if (adaptor.getSparse()) {
    if (!labels.getElementType().isSignlessInteger(32) &&
        !labels.getElementType().isSignlessInteger(64)) {
      return emitOptionalError(
          location, opName,
          ": sparse labels must be i32 or i64 class indices, got ",
          labels.getElementType());
    }
  } else {
    if (labels.getElementType() != element) {
      return emitOptionalError(location, opName, ": labels element type ",
                               labels.getElementType(),
                               " does not match logits element type ", element);
    }
    expected.push_back(classes);
  }
  if (labels.hasRank()) {
    ArrayRef<int64_t> shape = labels.getShape();
    bool ok = shape.size() == expected.size();
    for (size_t i = 0; ok && i < shape.size(); ++i) {
      ok = ShapedType::isDynamic(shape[i]) ||
           ShapedType::isDynamic(expected[i]) || shape[i] == expected[i];
    }
    if (!ok) {
      return emitOptionalError(
          location, opName, ": labels have shape ", formatShape(labels),
          ", expected ",
          formatShape(RankedTensorType::get(expected, labels.getElementType())),
          adaptor.getSparse() ? " (one class index per row)" : "");
    }
    // The labels may know the sizes the logits leave open.
    if (ShapedType::isDynamic(batch)) {
      batch = shape[0];
    }
    if (!adaptor.getSparse() && ShapedType::isDynamic(classes)) {
      classes = shape[1];
    }
  }
  inferred.push_back(RankedTensorType::get({batch}, element));
  inferred.push_back(RankedTensorType::get({batch, classes}, element));
  return success();
}

std::optional<int64_t> SoftmaxCrossEntropyOp::getFlops() {
  std::optional<int64_t> n = getStaticNumElements(getGrad().getType());
  if (!n) {
    return std::nullopt;
  }
  int64_t batch = cast<RankedTensorType>(getGrad().getType()).getDimSize(0);
  // Softmax (5 per element) and its difference with the labels (1); dense
  // labels add log, multiply and add per element, sparse ones a log and a
  // negation per row.
  if (getSparse()) {
    return 6 * *n + 2 * batch;
  }
  return 9 * *n;
}

//===----------------------------------------------------------------------===//
// Optimizer updates
//===----------------------------------------------------------------------===//

/// Shared checks of the update ops: `state` (param first) share one element
/// type and compatible shapes; each of `scalars` has that element type and
/// broadcasts to the state shape without changing it. Pushes `numResults`
/// copies of the refined state type.
static LogicalResult inferUpdate(std::optional<Location> loc, StringRef opName,
                                 ArrayRef<std::pair<StringRef, Value>> state,
                                 ArrayRef<std::pair<StringRef, Value>> scalars,
                                 unsigned numResults,
                                 SmallVectorImpl<Type> &inferred) {
  StringRef paramName = state.front().first;
  auto paramType = cast<TensorType>(state.front().second.getType());
  Type element = paramType.getElementType();
  auto checkElement = [&](StringRef name, TensorType type) -> LogicalResult {
    if (type.getElementType() == element) {
      return success();
    }
    return emitOptionalError(loc, opName, ": ", name, " element type ",
                             type.getElementType(), " does not match ",
                             paramName, " element type ", element);
  };
  Type refined = paramType;
  for (auto [name, value] : state.drop_front()) {
    auto type = cast<TensorType>(value.getType());
    if (failed(checkElement(name, type))) {
      return failure();
    }
    Type next = refineTensorType(refined, type);
    if (!next) {
      return emitOptionalError(loc, opName, ": ", name, " shape ",
                               formatShape(type), " does not match ", paramName,
                               " shape ",
                               formatShape(cast<TensorType>(refined)));
    }
    refined = next;
  }
  auto refinedType = cast<TensorType>(refined);
  for (auto [name, value] : scalars) {
    auto type = cast<TensorType>(value.getType());
    if (failed(checkElement(name, type))) {
      return failure();
    }
    if (!type.hasRank() || !refinedType.hasRank()) {
      continue;
    }
    ArrayRef<int64_t> s = type.getShape(), p = refinedType.getShape();
    bool ok = s.size() <= p.size();
    for (size_t i = 0; ok && i < s.size(); ++i) {
      int64_t sd = s[s.size() - 1 - i], pd = p[p.size() - 1 - i];
      ok = sd == 1 || sd == pd || ShapedType::isDynamic(sd) ||
           ShapedType::isDynamic(pd);
    }
    if (!ok) {
      return emitOptionalError(loc, opName, ": ", name, " of shape ",
                               formatShape(type), " does not broadcast to ",
                               paramName, " shape ", formatShape(refinedType));
    }
  }
  inferred.append(numResults, refined);
  return success();
}

/// `perElement` operations per parameter element plus `fixed` for scalars.
static std::optional<int64_t> updateFlops(Value param, int64_t perElement,
                                          int64_t fixed) {
  std::optional<int64_t> n = getStaticNumElements(param.getType());
  if (!n) {
    return std::nullopt;
  }
  return perElement * *n + fixed;
}

LogicalResult SGDUpdateOp::inferReturnTypes(MLIRContext *,
                                            std::optional<Location> location,
                                            Adaptor adaptor,
                                            SmallVectorImpl<Type> &inferred) {
  return inferUpdate(
      location, "graph.sgd_update",
      {{"param", adaptor.getParam()}, {"grad", adaptor.getGrad()}},
      {{"lr", adaptor.getLr()}}, 1, inferred);
}

std::optional<int64_t> SGDUpdateOp::getFlops() {
  // param - lr * grad.
  return updateFlops(getNewParam(), 2, 0);
}

LogicalResult MomentumUpdateOp::inferReturnTypes(
    MLIRContext *, std::optional<Location> location, Adaptor adaptor,
    SmallVectorImpl<Type> &inferred) {
  return inferUpdate(
      location, "graph.momentum_update",
      {{"param", adaptor.getParam()},
       {"accum", adaptor.getAccum()},
       {"grad", adaptor.getGrad()}},
      {{"lr", adaptor.getLr()}, {"momentum", adaptor.getMomentum()}}, 2,
      inferred);
}

std::optional<int64_t> MomentumUpdateOp::getFlops() {
  // accum * momentum + grad (2), then param - lr * accum' (2); nesterov:
  // param - grad * lr - accum' * momentum * lr (5).
  return updateFlops(getNewParam(), getNesterov() ? 7 : 4, 0);
}

LogicalResult AdamUpdateOp::inferReturnTypes(MLIRContext *,
                                             std::optional<Location> location,
                                             Adaptor adaptor,
                                             SmallVectorImpl<Type> &inferred) {
  return inferUpdate(location, "graph.adam_update",
                     {{"param", adaptor.getParam()},
                      {"m", adaptor.getM()},
                      {"v", adaptor.getV()},
                      {"grad", adaptor.getGrad()}},
                     {{"lr", adaptor.getLr()},
                      {"beta1", adaptor.getBeta1()},
                      {"beta2", adaptor.getBeta2()},
                      {"epsilon", adaptor.getEpsilon()},
                      {"beta1_power", adaptor.getBeta1Power()},
                      {"beta2_power", adaptor.getBeta2Power()}},
                     3, inferred);
}

std::optional<int64_t> AdamUpdateOp::getFlops() {
  // Per element: m' (3), v' (4), param' (sqrt, add, divide, multiply,
  // subtract: 5). Scalars: lr_t (sub, sqrt, mul, sub, div: 5), 1 - beta1,
  // 1 - beta2.
  return updateFlops(getNewParam(), 12, 7);
}

LogicalResult FtrlUpdateOp::inferReturnTypes(MLIRContext *,
                                             std::optional<Location> location,
                                             Adaptor adaptor,
                                             SmallVectorImpl<Type> &inferred) {
  return inferUpdate(location, "graph.ftrl_update",
                     {{"param", adaptor.getParam()},
                      {"accum", adaptor.getAccum()},
                      {"linear", adaptor.getLinear()},
                      {"grad", adaptor.getGrad()}},
                     {{"lr", adaptor.getLr()},
                      {"l1", adaptor.getL1()},
                      {"l2", adaptor.getL2()},
                      {"lr_power", adaptor.getLrPower()}},
                     3, inferred);
}

std::optional<int64_t> FtrlUpdateOp::getFlops() {
  // Per element: accum' (2); linear' (two powers, subtract, divide,
  // multiply, subtract, add: 7); quadratic (divide, add: 2); param' (abs,
  // compare, sign, multiply, subtract, divide, select: 7). Scalars:
  // -lr_power and 2 * l2.
  return updateFlops(getNewParam(), 18, 2);
}
