//===- DistOps.cpp - dist dialect registration and ops --------------------===//
//
// Dialect registration, dialect attribute checks, and the parsers, printers
// and verifiers of the dist ops. The module-wide matching is in
// DistVerify.cpp.
//
//===----------------------------------------------------------------------===//

#include "dist/DistOps.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"
#include "mlir/Interfaces/FunctionImplementation.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace graphc::dist;

#include "dist/DistDialect.cpp.inc"
#include "dist/DistEnums.cpp.inc"
#include "dist/DistInterfaces.cpp.inc"

void DistDialect::initialize() {
  registerAttributes();
  addOperations<
#define GET_OP_LIST
#include "dist/DistOps.cpp.inc"
      >();
}

LogicalResult DistDialect::verifyOperationAttribute(Operation *op,
                                                    NamedAttribute attr) {
  StringRef name = attr.getName().getValue();
  if (name == kClusterAttrName) {
    if (!isa<ModuleOp>(op)) {
      return op->emitError()
             << "'" << name << "' may only be set on a builtin.module";
    }
    if (!isa<ClusterAttr>(attr.getValue())) {
      return op->emitError() << "'" << name << "' must be a #dist.cluster";
    }
    return success();
  }
  if (name == kDeviceAttrName) {
    if (!isa<DeviceAttr>(attr.getValue())) {
      return op->emitError() << "'" << name << "' must be a #dist.device";
    }
    return success();
  }
  if (name == kReplicasAttrName) {
    if (!isa<FunctionOpInterface>(op)) {
      return op->emitError()
             << "'" << name << "' may only be set on a function";
    }
    auto count = dyn_cast<IntegerAttr>(attr.getValue());
    if (!count || !count.getType().isSignlessInteger() || count.getInt() < 1) {
      return op->emitError()
             << "'" << name << "' must be a positive integer, got "
             << attr.getValue();
    }
    return success();
  }
  // Why dist-place strategy=auto chose its placement (graphc's planning
  // code writes it, the report reads it): a dictionary on the module.
  if (name == "dist.auto") {
    if (!isa<ModuleOp>(op) || !isa<DictionaryAttr>(attr.getValue())) {
      return op->emitError()
             << "'" << name << "' must be a dictionary on a builtin.module";
    }
    return success();
  }
  if (name == kPipelineAttrName) {
    if (!isa<ModuleOp>(op)) {
      return op->emitError()
             << "'" << name << "' may only be set on a builtin.module";
    }
    auto dict = dyn_cast<DictionaryAttr>(attr.getValue());
    for (StringRef field : {"stages", "microbatches", "replicas"}) {
      auto value = dict ? dict.getAs<IntegerAttr>(field) : IntegerAttr();
      if (!value || value.getInt() < 1) {
        return op->emitError()
               << "'" << name << "' must be a dictionary with positive "
               << "integers stages, microbatches and replicas, got "
               << attr.getValue();
      }
    }
    return success();
  }
  // dist-overlap-collectives' mark (graphc/Transforms/Placement.h,
  // kOverlapAttr): started where it stands, waited on at its first use.
  if (name == "dist.overlap") {
    if (!isa<AllReduceOp>(op) || !isa<UnitAttr>(attr.getValue())) {
      return op->emitError() << "'" << name
                             << "' must be a unit attribute on a "
                                "dist.all_reduce";
    }
    return success();
  }
  return op->emitError() << "unknown dist attribute '" << name << "'";
}

//===----------------------------------------------------------------------===//
// Shared helpers
//===----------------------------------------------------------------------===//

/// `custom<Device>`: a #dist.device written in full, so op syntax shows what
/// it is (the default would strip it to `<"...">`).
static ParseResult parseDevice(OpAsmParser &parser, DeviceAttr &device) {
  return parser.parseAttribute(device);
}
static void printDevice(OpAsmPrinter &printer, Operation *, DeviceAttr device) {
  printer.printAttribute(device);
}

ClusterAttr graphc::dist::getEnclosingCluster(Operation *op) {
  auto module = op->getParentOfType<ModuleOp>();
  if (!module) {
    return {};
  }
  return module->getAttrOfType<ClusterAttr>(DistDialect::kClusterAttrName);
}

/// Checks that `device`, the `what` of `op`, names a task of the cluster.
static LogicalResult verifyTaskName(Operation *op, DeviceAttr device,
                                    StringRef what) {
  if (!device.namesTask()) {
    return op->emitOpError()
           << what << " '" << device.str()
           << "' does not name a task (needs job and task, and no device)";
  }
  if (ClusterAttr cluster = getEnclosingCluster(op)) {
    if (!cluster.contains(device)) {
      return op->emitOpError() << what << " '" << device.str()
                               << "' is not a task of the cluster";
    }
  }
  return success();
}

/// The task of the dist.task enclosing `op`, emitting when there is none.
static FailureOr<DeviceAttr> getOwnTask(Operation *op) {
  auto task = op->getParentOfType<TaskOp>();
  if (!task) {
    return op->emitOpError() << "must be inside a dist.task";
  }
  return task.getDevice().getTaskAttr();
}

//===----------------------------------------------------------------------===//
// TaskOp
//===----------------------------------------------------------------------===//

void TaskOp::build(OpBuilder &builder, OperationState &state, StringRef name,
                   DeviceAttr device, FunctionType type) {
  state.addAttribute(SymbolTable::getSymbolAttrName(),
                     builder.getStringAttr(name));
  state.addAttribute(getFunctionTypeAttrName(state.name), TypeAttr::get(type));
  state.addAttribute(getDeviceAttrName(state.name), device);
  Region *body = state.addRegion();
  Block *entry = new Block();
  body->push_back(entry);
  for (Type input : type.getInputs()) {
    entry->addArgument(input, state.location);
  }
}

ParseResult TaskOp::parse(OpAsmParser &parser, OperationState &result) {
  StringAttr name;
  DeviceAttr device;
  if (parser.parseSymbolName(name, SymbolTable::getSymbolAttrName(),
                             result.attributes) ||
      parser.parseKeyword("on") || parser.parseAttribute(device)) {
    return failure();
  }
  result.addAttribute(getDeviceAttrName(result.name), device);

  SmallVector<OpAsmParser::Argument> args;
  SmallVector<Type> resultTypes;
  SmallVector<DictionaryAttr> resultAttrs;
  bool isVariadic = false;
  // allowVariadic=false: the helper itself rejects `...`.
  if (function_interface_impl::parseFunctionSignatureWithArguments(
          parser, /*allowVariadic=*/false, args, isVariadic, resultTypes,
          resultAttrs)) {
    return failure();
  }
  SmallVector<Type> argTypes = llvm::map_to_vector(
      args, [](const OpAsmParser::Argument &arg) { return arg.type; });
  result.addAttribute(getFunctionTypeAttrName(result.name),
                      TypeAttr::get(parser.getBuilder().getFunctionType(
                          argTypes, resultTypes)));
  if (parser.parseOptionalAttrDictWithKeyword(result.attributes)) {
    return failure();
  }
  call_interface_impl::addArgAndResultAttrs(
      parser.getBuilder(), result, args, resultAttrs,
      getArgAttrsAttrName(result.name), getResAttrsAttrName(result.name));
  Region *body = result.addRegion();
  return parser.parseRegion(*body, args, /*enableNameShadowing=*/false);
}

void TaskOp::print(OpAsmPrinter &p) {
  p << ' ';
  p.printSymbolName(getSymName());
  p << " on ";
  p.printAttribute(getDevice());
  p << ' ';
  function_interface_impl::printFunctionSignature(
      p, *this, getArgumentTypes(), /*isVariadic=*/false, getResultTypes());
  function_interface_impl::printFunctionAttributes(
      p, *this,
      {getSymNameAttrName(), getFunctionTypeAttrName(), getDeviceAttrName(),
       getArgAttrsAttrName(), getResAttrsAttrName()});
  p << ' ';
  p.printRegion(getBody(), /*printEntryBlockArgs=*/false,
                /*printBlockTerminators=*/true);
}

LogicalResult TaskOp::verify() {
  if (getBody().empty()) {
    return emitOpError() << "must have a body";
  }
  if (!getEnclosingCluster(*this)) {
    return emitOpError() << "requires the enclosing module to carry a '"
                         << DistDialect::kClusterAttrName << "' attribute";
  }
  return verifyTaskName(*this, getDevice(), "device");
}

LogicalResult TaskOp::verifySymbolUses(SymbolTableCollection &) {
  // The module-wide checks run once, from the first task of the module; the
  // SymbolTable trait calls this after every nested op has verified.
  auto module = cast<ModuleOp>((*this)->getParentOp());
  TaskOp first = *module.getOps<TaskOp>().begin();
  if (first != *this) {
    return success();
  }
  return verifyCommunication(module);
}

//===----------------------------------------------------------------------===//
// ReturnOp
//===----------------------------------------------------------------------===//

LogicalResult ReturnOp::verify() {
  auto task = cast<TaskOp>((*this)->getParentOp());
  ArrayRef<Type> results = task.getResultTypes();
  if (getNumOperands() != results.size()) {
    return emitOpError() << "returns " << getNumOperands()
                         << " values but task @" << task.getSymName() << " has "
                         << results.size() << " results";
  }
  for (auto [i, value, type] : llvm::enumerate(getOperands(), results)) {
    if (value.getType() != type) {
      return emitOpError() << "result #" << i << " has type " << value.getType()
                           << " but task @" << task.getSymName() << " returns "
                           << type;
    }
  }
  return success();
}

//===----------------------------------------------------------------------===//
// SendOp, RecvOp
//===----------------------------------------------------------------------===//

static LogicalResult verifyPointToPoint(Operation *op, DeviceAttr peer,
                                        StringRef key, StringRef direction) {
  if (key.empty()) {
    return op->emitOpError() << "rendezvous key must not be empty";
  }
  FailureOr<DeviceAttr> own = getOwnTask(op);
  if (failed(own) || failed(verifyTaskName(op, peer, "peer"))) {
    return failure();
  }
  if (peer.getTaskAttr() == *own) {
    return op->emitOpError()
           << "cannot " << direction << " its own task '" << own->str() << "'";
  }
  return success();
}

LogicalResult SendOp::verify() {
  return verifyPointToPoint(*this, getPeer(), getKey(), "send to");
}

LogicalResult RecvOp::verify() {
  return verifyPointToPoint(*this, getPeer(), getKey(), "receive from");
}

//===----------------------------------------------------------------------===//
// Collectives
//===----------------------------------------------------------------------===//

LogicalResult graphc::dist::detail::verifyCollective(Operation *op) {
  auto collective = cast<CollectiveOpInterface>(op);
  if (collective.getKey().empty()) {
    return op->emitOpError() << "collective key must not be empty";
  }
  ArrayAttr group = collective.getGroup();
  if (group.empty()) {
    return op->emitOpError() << "group must not be empty";
  }
  SmallVector<DeviceAttr> tasks;
  for (DeviceAttr member : group.getAsRange<DeviceAttr>()) {
    if (failed(verifyTaskName(op, member, "group member"))) {
      return failure();
    }
    DeviceAttr task = member.getTaskAttr();
    if (llvm::is_contained(tasks, task)) {
      return op->emitOpError()
             << "group member '" << task.str() << "' appears twice";
    }
    tasks.push_back(task);
  }
  FailureOr<DeviceAttr> own = getOwnTask(op);
  if (failed(own)) {
    return failure();
  }
  if (!llvm::is_contained(tasks, *own)) {
    return op->emitOpError() << "enclosing task '" << own->str()
                             << "' is not a member of the group";
  }

  auto inputType = cast<RankedTensorType>(collective.getInput().getType());
  auto resultType = cast<RankedTensorType>(collective.getResult().getType());
  if (inputType.getElementType() != resultType.getElementType()) {
    return op->emitOpError()
           << "result element type " << resultType.getElementType()
           << " does not match input element type "
           << inputType.getElementType();
  }
  if (inputType.getRank() != resultType.getRank()) {
    return op->emitOpError()
           << "result rank " << resultType.getRank()
           << " does not match input rank " << inputType.getRank();
  }
  return success();
}

/// Checks that `result` has the shape `expected` (`kDynamic` where the input
/// leaves a dimension unknown, which accepts any size).
static LogicalResult verifyResultShape(Operation *op, RankedTensorType result,
                                       ArrayRef<int64_t> expected) {
  for (auto [i, want, got] : llvm::enumerate(expected, result.getShape())) {
    if (!ShapedType::isDynamic(want) && !ShapedType::isDynamic(got) &&
        want != got) {
      return op->emitOpError() << "result dimension " << i << " is " << got
                               << ", expected " << want;
    }
  }
  return success();
}

static LogicalResult verifyAxis(Operation *op, StringRef what, int64_t axis,
                                int64_t rank) {
  if (axis < 0 || axis >= rank) {
    return op->emitOpError()
           << what << " " << axis << " is out of range for a rank-" << rank
           << " tensor";
  }
  return success();
}

/// Checks that `dim` of `type` divides by `groupSize` when static.
static LogicalResult verifyDivisible(Operation *op, StringRef what,
                                     RankedTensorType type, int64_t dim,
                                     int64_t groupSize) {
  int64_t size = type.getDimSize(dim);
  if (!ShapedType::isDynamic(size) && size % groupSize != 0) {
    return op->emitOpError()
           << what << " dimension " << dim << " of size " << size
           << " is not divisible by the group size " << groupSize;
  }
  return success();
}

static int64_t scaleDim(int64_t size, int64_t factor) {
  return ShapedType::isDynamic(size) ? size : size * factor;
}
static int64_t divideDim(int64_t size, int64_t divisor) {
  return ShapedType::isDynamic(size) ? size : size / divisor;
}

LogicalResult AllReduceOp::verify() {
  return verifyResultShape(*this, getResult().getType(),
                           getInput().getType().getShape());
}

LogicalResult AllGatherOp::verify() {
  RankedTensorType input = getInput().getType();
  if (failed(verifyAxis(*this, "gather axis", getAxis(), input.getRank()))) {
    return failure();
  }
  SmallVector<int64_t> expected(input.getShape());
  expected[getAxis()] = scaleDim(expected[getAxis()], getGroup().size());
  return verifyResultShape(*this, getResult().getType(), expected);
}

LogicalResult ReduceScatterOp::verify() {
  RankedTensorType input = getInput().getType();
  int64_t n = getGroup().size();
  if (failed(verifyAxis(*this, "scatter axis", getAxis(), input.getRank())) ||
      failed(verifyDivisible(*this, "scatter", input, getAxis(), n))) {
    return failure();
  }
  SmallVector<int64_t> expected(input.getShape());
  expected[getAxis()] = divideDim(expected[getAxis()], n);
  return verifyResultShape(*this, getResult().getType(), expected);
}

LogicalResult BroadcastOp::verify() {
  DeviceAttr root = getRoot().getTaskAttr();
  bool inGroup =
      llvm::any_of(getGroup().getAsRange<DeviceAttr>(),
                   [&](DeviceAttr m) { return m.getTaskAttr() == root; });
  if (!getRoot().namesTask() || !inGroup) {
    return emitOpError() << "root '" << getRoot().str()
                         << "' is not a member of the group";
  }
  return verifyResultShape(*this, getResult().getType(),
                           getInput().getType().getShape());
}

LogicalResult AllToAllOp::verify() {
  RankedTensorType input = getInput().getType();
  int64_t n = getGroup().size();
  int64_t split = getSplitAxis(), concat = getConcatAxis();
  if (failed(verifyAxis(*this, "split axis", split, input.getRank())) ||
      failed(verifyAxis(*this, "concat axis", concat, input.getRank())) ||
      failed(verifyDivisible(*this, "split", input, split, n))) {
    return failure();
  }
  SmallVector<int64_t> expected(input.getShape());
  expected[split] = divideDim(expected[split], n);
  expected[concat] = scaleDim(expected[concat], n);
  return verifyResultShape(*this, getResult().getType(), expected);
}

//===----------------------------------------------------------------------===//
// Cross-replica placeholders
//===----------------------------------------------------------------------===//

std::optional<int64_t> graphc::dist::getReplicaCount(Operation *op) {
  for (Operation *parent = op; parent; parent = parent->getParentOp()) {
    if (auto count = parent->getAttrOfType<IntegerAttr>(
            DistDialect::kReplicasAttrName)) {
      return count.getInt();
    }
  }
  return std::nullopt;
}

/// Checks a split (`whole` -> `part`) or concat (`part` -> `whole`) along
/// `axis`: equal ranks and element types, equal sizes off the axis, and the
/// whole axis `N` times the part's, `N` being the enclosing function's
/// replica count when known.
static LogicalResult verifyReplicaSlicing(Operation *op, int64_t axis,
                                          RankedTensorType whole,
                                          RankedTensorType part) {
  if (whole.getElementType() != part.getElementType()) {
    return op->emitOpError() << "element types " << whole.getElementType()
                             << " and " << part.getElementType() << " differ";
  }
  if (whole.getRank() != part.getRank()) {
    return op->emitOpError() << "ranks " << whole.getRank() << " and "
                             << part.getRank() << " differ";
  }
  if (failed(verifyAxis(op, "axis", axis, whole.getRank()))) {
    return failure();
  }
  for (int64_t d = 0; d < whole.getRank(); ++d) {
    if (d == axis) {
      continue;
    }
    int64_t a = whole.getDimSize(d), b = part.getDimSize(d);
    if (!ShapedType::isDynamic(a) && !ShapedType::isDynamic(b) && a != b) {
      return op->emitOpError()
             << "dimension " << d << " is " << a << " in the whole value but "
             << b << " in a replica's slice";
    }
  }
  int64_t a = whole.getDimSize(axis), b = part.getDimSize(axis);
  if (ShapedType::isDynamic(a) || ShapedType::isDynamic(b)) {
    return success();
  }
  std::optional<int64_t> n = getReplicaCount(op);
  if (n ? a != b * *n : (b == 0 || a % b != 0)) {
    return op->emitOpError()
           << "axis " << axis << " is " << a << " in the whole value and " << b
           << " in a replica's slice, expected "
           << (n ? "a ratio of " + std::to_string(*n) + " (dist.replicas)"
                 : std::string("a whole ratio"));
  }
  return success();
}

LogicalResult ReplicaSplitOp::verify() {
  return verifyReplicaSlicing(*this, getAxis(), getInput().getType(),
                              getResult().getType());
}

LogicalResult ReplicaConcatOp::verify() {
  return verifyReplicaSlicing(*this, getAxis(), getResult().getType(),
                              getInput().getType());
}

#define GET_OP_CLASSES
#include "dist/DistOps.cpp.inc"

//===----------------------------------------------------------------------===//
// GroupAllReduceOp
//===----------------------------------------------------------------------===//

LogicalResult GroupAllReduceOp::verify() {
  size_t members = getGroup().size();
  if (members == 0) {
    return emitOpError() << "group must not be empty";
  }
  if (getInputs().size() != members || getResults().size() != members) {
    return emitOpError() << "has " << getInputs().size() << " inputs and "
                         << getResults().size() << " results for a group of "
                         << members << " tasks; give one of each per member";
  }
  SmallVector<DeviceAttr> tasks;
  for (DeviceAttr member : getGroup().getAsRange<DeviceAttr>()) {
    if (failed(verifyTaskName(*this, member, "group member"))) {
      return failure();
    }
    if (llvm::is_contained(tasks, member.getTaskAttr())) {
      return emitOpError() << "group member '" << member.str()
                           << "' appears twice";
    }
    tasks.push_back(member.getTaskAttr());
  }
  Type type = getInputs().front().getType();
  for (Value v : llvm::concat<Value>(getInputs(), getResults())) {
    if (v.getType() != type) {
      return emitOpError() << "every input and result must have type " << type
                           << ", not " << v.getType();
    }
  }
  return success();
}
