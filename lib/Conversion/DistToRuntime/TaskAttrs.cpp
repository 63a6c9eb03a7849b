//===- TaskAttrs.cpp - reading and writing a task module's attributes -----===//

#include "graphc/Conversion/DistToRuntime/TaskAttrs.h"

#include "graphrt/common/DType.h"
#include "graphrt/graphrt.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Diagnostics.h"

using namespace mlir;

namespace graphc::task {

/// The runtime's dtype of an element type; INVALID when it has none.
static graphrt_dtype_t runtimeDType(Type t) {
  if (t.isF32()) {
    return GRAPHRT_DTYPE_F32;
  }
  if (t.isF64()) {
    return GRAPHRT_DTYPE_F64;
  }
  if (t.isF16()) {
    return GRAPHRT_DTYPE_F16;
  }
  if (t.isBF16()) {
    return GRAPHRT_DTYPE_BF16;
  }
  if (t.isInteger(1)) {
    return GRAPHRT_DTYPE_BOOL;
  }
  // ONNX's small types (one element per byte in the runtime's buffers).
  if (isa<Float8E4M3FNType>(t)) {
    return GRAPHRT_DTYPE_F8E4M3FN;
  }
  if (isa<Float8E4M3FNUZType>(t)) {
    return GRAPHRT_DTYPE_F8E4M3FNUZ;
  }
  if (isa<Float8E5M2Type>(t)) {
    return GRAPHRT_DTYPE_F8E5M2;
  }
  if (isa<Float8E5M2FNUZType>(t)) {
    return GRAPHRT_DTYPE_F8E5M2FNUZ;
  }
  if (isa<Float8E8M0FNUType>(t)) {
    return GRAPHRT_DTYPE_F8E8M0;
  }
  if (isa<Float4E2M1FNType>(t)) {
    return GRAPHRT_DTYPE_F4E2M1;
  }
  if (auto i = dyn_cast<IntegerType>(t)) {
    if (i.isSigned()) {
      return GRAPHRT_DTYPE_INVALID; // the graph dialect's integers are
                                    // signless or unsigned
    }
    bool u = i.isUnsigned();
    switch (i.getWidth()) {
    case 2:
      return u ? GRAPHRT_DTYPE_U2 : GRAPHRT_DTYPE_I2;
    case 4:
      return u ? GRAPHRT_DTYPE_U4 : GRAPHRT_DTYPE_I4;
    case 8:
      return u ? GRAPHRT_DTYPE_U8 : GRAPHRT_DTYPE_I8;
    case 16:
      return u ? GRAPHRT_DTYPE_U16 : GRAPHRT_DTYPE_I16;
    case 32:
      return u ? GRAPHRT_DTYPE_U32 : GRAPHRT_DTYPE_I32;
    case 64:
      return u ? GRAPHRT_DTYPE_U64 : GRAPHRT_DTYPE_I64;
    default:
      return GRAPHRT_DTYPE_INVALID;
    }
  }
  return GRAPHRT_DTYPE_INVALID;
}

std::string manifestDType(Type t) {
  graphrt_dtype_t dtype = runtimeDType(t);
  return dtype == GRAPHRT_DTYPE_INVALID ? "" : graphrt::dtypeName(dtype);
}

int32_t dtypeCode(StringRef dtype) {
  return graphrt::parseDType(std::string_view(dtype.data(), dtype.size()));
}

DictionaryAttr tensorEntry(MLIRContext *ctx, StringRef name,
                           RankedTensorType type, ElementsAttr value,
                           bool dynamicBatch) {
  Builder b(ctx);
  SmallVector<int64_t> shape(type.getShape());
  if (dynamicBatch && !shape.empty()) {
    shape[0] = kBatchDim;
  }
  SmallVector<NamedAttribute> fields = {
      b.getNamedAttr("name", b.getStringAttr(name)),
      b.getNamedAttr("dtype",
                     b.getStringAttr(manifestDType(type.getElementType()))),
      b.getNamedAttr("shape", b.getDenseI64ArrayAttr(shape))};
  if (value) {
    fields.push_back(b.getNamedAttr("value", value));
  }
  return b.getDictionaryAttr(fields);
}

DictionaryAttr withVariableMarks(DictionaryAttr entry, Operation *var) {
  NamedAttrList fields(entry);
  if (auto of = var->getAttrOfType<StringAttr>(kReplicaOfAttr)) {
    fields.set("replica_of", of);
  }
  if (auto of = var->getAttrOfType<StringAttr>(kSlotOfAttr)) {
    fields.set("slot_of", of);
  }
  return fields.getDictionary(entry.getContext());
}

bool isTaskModule(Operation *op) {
  auto module = dyn_cast<ModuleOp>(op);
  return module && module->hasAttr(kTaskAttr);
}

namespace {

/// Reads the attributes of one task module, diagnosing on it.
class Reader {
public:
  explicit Reader(ModuleOp module) : module(module) {}

  LogicalResult fail(StringRef attr, StringRef what) {
    return module.emitError()
           << "task module '" << module.getSymName().value_or("")
           << "': attribute '" << attr << "' " << what;
  }

  FailureOr<ArrayAttr> array(StringRef attr) {
    Attribute value = module->getAttr(attr);
    if (!value) {
      return ArrayAttr::get(module.getContext(), {});
    }
    auto array = dyn_cast<ArrayAttr>(value);
    if (!array) {
      return fail(attr, "is not an array");
    }
    return array;
  }

  LogicalResult tensor(StringRef attr, DictionaryAttr dict, TensorInfo &t) {
    auto name = dict.getAs<StringAttr>("name");
    auto dtype = dict.getAs<StringAttr>("dtype");
    auto shape = dict.getAs<DenseI64ArrayAttr>("shape");
    if (!dtype || !shape) {
      return fail(attr, "has an entry without a string 'dtype' and an "
                        "array<i64> 'shape'");
    }
    t.name = name ? name.getValue().str() : "";
    t.dtype = dtype.getValue().str();
    t.shape.assign(shape.asArrayRef().begin(), shape.asArrayRef().end());
    t.value = dict.getAs<ElementsAttr>("value");
    if (auto of = dict.getAs<StringAttr>("replica_of")) {
      t.replicaOf = of.getValue().str();
    }
    if (auto of = dict.getAs<StringAttr>("slot_of")) {
      t.slotOf = of.getValue().str();
    }
    return success();
  }

  LogicalResult tensors(StringRef attr, SmallVectorImpl<TensorInfo> &out) {
    FailureOr<ArrayAttr> entries = array(attr);
    if (failed(entries)) {
      return failure();
    }
    for (Attribute entry : *entries) {
      auto dict = dyn_cast<DictionaryAttr>(entry);
      TensorInfo t;
      if (!dict || failed(tensor(attr, dict, t))) {
        return fail(attr, "has an entry that is not a tensor dictionary");
      }
      out.push_back(std::move(t));
    }
    return success();
  }

  ModuleOp module;
};

} // namespace

FailureOr<TaskInfo> readTask(ModuleOp module) {
  Reader r(module);
  TaskInfo info;
  info.name = module.getSymName().value_or("").str();
  auto task = module->getAttrOfType<DictionaryAttr>(kTaskAttr);
  if (!task) {
    return r.fail(kTaskAttr, "is missing or not a dictionary");
  }
  auto job = task.getAs<StringAttr>("job");
  auto index = task.getAs<IntegerAttr>("index");
  auto device = task.getAs<StringAttr>("device");
  if (!job || !index || !device) {
    return r.fail(kTaskAttr, "needs string 'job', integer 'index' and string "
                             "'device'");
  }
  info.job = job.getValue().str();
  info.index = index.getInt();
  info.device = device.getValue().str();
  if (failed(r.tensors(kInputsAttr, info.inputs)) ||
      failed(r.tensors(kOutputsAttr, info.outputs)) ||
      failed(r.tensors(kVariablesAttr, info.variables))) {
    return failure();
  }

  FailureOr<ArrayAttr> channels = r.array(kChannelsAttr);
  if (failed(channels)) {
    return failure();
  }
  for (Attribute entry : *channels) {
    auto dict = dyn_cast<DictionaryAttr>(entry);
    ChannelInfo c;
    auto key = dict ? dict.getAs<StringAttr>("key") : nullptr;
    auto peer = dict ? dict.getAs<StringAttr>("peer") : nullptr;
    auto direction = dict ? dict.getAs<StringAttr>("direction") : nullptr;
    if (!key || !peer || !direction ||
        (direction.getValue() != "send" && direction.getValue() != "recv") ||
        failed(r.tensor(kChannelsAttr, dict, c.payload))) {
      return r.fail(kChannelsAttr, "needs entries with 'key', 'peer', "
                                   "'direction' (send or recv), 'dtype' and "
                                   "'shape'");
    }
    c.key = key.getValue().str();
    c.peer = peer.getValue().str();
    c.send = direction.getValue() == "send";
    info.channels.push_back(std::move(c));
  }

  FailureOr<ArrayAttr> groups = r.array(kGroupsAttr);
  if (failed(groups)) {
    return failure();
  }
  for (Attribute entry : *groups) {
    auto dict = dyn_cast<DictionaryAttr>(entry);
    auto name = dict ? dict.getAs<StringAttr>("name") : nullptr;
    auto tasks = dict ? dict.getAs<ArrayAttr>("tasks") : nullptr;
    if (!name || !tasks) {
      return r.fail(kGroupsAttr, "needs entries with 'name' and 'tasks'");
    }
    GroupInfo g;
    g.name = name.getValue().str();
    for (Attribute member : tasks) {
      auto s = dyn_cast<StringAttr>(member);
      if (!s) {
        return r.fail(kGroupsAttr, "has a member that is not a string");
      }
      g.tasks.push_back(s.getValue().str());
    }
    info.groups.push_back(std::move(g));
  }
  return info;
}

/// A name for the manifest from a `graph.name` (or `fallback`), unique in
/// the job. graph-run writes DIR/<output>.npy: no '/' in an output's name.
std::string uniqueName(StringAttr given, StringRef fallback,
                       llvm::StringSet<> &taken, bool isOutput) {
  std::string base = given && !given.getValue().empty() ? given.getValue().str()
                                                        : fallback.str();
  if (isOutput) {
    std::replace(base.begin(), base.end(), '/', '_');
  }
  std::string name = base;
  for (int i = 1; !taken.insert(name).second; ++i) {
    name = base + "_" + std::to_string(i);
  }
  return name;
}

/// The static tensor type of a signature entry; diagnoses anything else.
FailureOr<RankedTensorType> staticSignatureType(Operation *where, Type type,
                                                StringRef what,
                                                StringRef name) {
  auto ranked = dyn_cast<RankedTensorType>(type);
  if (!ranked || !ranked.hasStaticShape()) {
    return where->emitError()
           << what << " '" << name << "' has type " << type
           << "; a task needs static shapes (fix them with --input-shape)";
  }
  if (manifestDType(ranked.getElementType()).empty()) {
    return where->emitError()
           << what << " '" << name << "' has element type "
           << ranked.getElementType() << ", which the runtime has no dtype for";
  }
  return ranked;
}

} // namespace graphc::task
