//===- TaskAttrs.cpp - reading and writing a task module's attributes -----===//

#include "graphc/Conversion/DistToRuntime/TaskAttrs.h"

#include "graphrt/graphrt.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Diagnostics.h"

#include "llvm/ADT/StringSwitch.h"

using namespace mlir;

namespace graphc::task {

std::string manifestDType(Type t) {
  if (t.isF32())
    return "f32";
  if (t.isF64())
    return "f64";
  if (t.isF16())
    return "f16";
  if (t.isBF16())
    return "bf16";
  if (t.isInteger(1))
    return "bool";
  // ONNX's small types (one element per byte in the runtime's buffers).
  if (isa<Float8E4M3FNType>(t))
    return "f8e4m3fn";
  if (isa<Float8E4M3FNUZType>(t))
    return "f8e4m3fnuz";
  if (isa<Float8E5M2Type>(t))
    return "f8e5m2";
  if (isa<Float8E5M2FNUZType>(t))
    return "f8e5m2fnuz";
  if (isa<Float8E8M0FNUType>(t))
    return "f8e8m0";
  if (isa<Float4E2M1FNType>(t))
    return "f4e2m1";
  if (auto i = dyn_cast<IntegerType>(t)) {
    if (i.isSigned())
      return ""; // the graph dialect's integers are signless or unsigned
    switch (i.getWidth()) {
    case 2:
    case 4:
    case 8:
    case 16:
    case 32:
    case 64:
      return (i.isUnsigned() ? "u" : "i") + std::to_string(i.getWidth());
    default:
      return "";
    }
  }
  return "";
}

int32_t dtypeCode(StringRef dtype) {
  return llvm::StringSwitch<graphrt_dtype_t>(dtype)
      .Case("f32", GRAPHRT_DTYPE_F32)
      .Case("f64", GRAPHRT_DTYPE_F64)
      .Case("i32", GRAPHRT_DTYPE_I32)
      .Case("i64", GRAPHRT_DTYPE_I64)
      .Case("u8", GRAPHRT_DTYPE_U8)
      .Case("i8", GRAPHRT_DTYPE_I8)
      .Case("bool", GRAPHRT_DTYPE_BOOL)
      .Case("f16", GRAPHRT_DTYPE_F16)
      .Case("bf16", GRAPHRT_DTYPE_BF16)
      .Case("i16", GRAPHRT_DTYPE_I16)
      .Case("u16", GRAPHRT_DTYPE_U16)
      .Case("u32", GRAPHRT_DTYPE_U32)
      .Case("u64", GRAPHRT_DTYPE_U64)
      .Case("f8e4m3fn", GRAPHRT_DTYPE_F8E4M3FN)
      .Case("f8e4m3fnuz", GRAPHRT_DTYPE_F8E4M3FNUZ)
      .Case("f8e5m2", GRAPHRT_DTYPE_F8E5M2)
      .Case("f8e5m2fnuz", GRAPHRT_DTYPE_F8E5M2FNUZ)
      .Case("f8e8m0", GRAPHRT_DTYPE_F8E8M0)
      .Case("f4e2m1", GRAPHRT_DTYPE_F4E2M1)
      .Case("i4", GRAPHRT_DTYPE_I4)
      .Case("u4", GRAPHRT_DTYPE_U4)
      .Case("i2", GRAPHRT_DTYPE_I2)
      .Case("u2", GRAPHRT_DTYPE_U2)
      .Default(GRAPHRT_DTYPE_INVALID);
}

DictionaryAttr tensorEntry(MLIRContext *ctx, StringRef name,
                           RankedTensorType type, ElementsAttr value) {
  Builder b(ctx);
  SmallVector<NamedAttribute> fields = {
      b.getNamedAttr("name", b.getStringAttr(name)),
      b.getNamedAttr("dtype",
                     b.getStringAttr(manifestDType(type.getElementType()))),
      b.getNamedAttr("shape", b.getDenseI64ArrayAttr(type.getShape()))};
  if (value)
    fields.push_back(b.getNamedAttr("value", value));
  return b.getDictionaryAttr(fields);
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
    return module.emitError() << "task module '"
                              << module.getSymName().value_or("")
                              << "': attribute '" << attr << "' " << what;
  }

  FailureOr<ArrayAttr> array(StringRef attr) {
    Attribute value = module->getAttr(attr);
    if (!value)
      return ArrayAttr::get(module.getContext(), {});
    auto array = dyn_cast<ArrayAttr>(value);
    if (!array)
      return fail(attr, "is not an array");
    return array;
  }

  LogicalResult tensor(StringRef attr, DictionaryAttr dict, TensorInfo &t) {
    auto name = dict.getAs<StringAttr>("name");
    auto dtype = dict.getAs<StringAttr>("dtype");
    auto shape = dict.getAs<DenseI64ArrayAttr>("shape");
    if (!dtype || !shape)
      return fail(attr, "has an entry without a string 'dtype' and an "
                        "array<i64> 'shape'");
    t.name = name ? name.getValue().str() : "";
    t.dtype = dtype.getValue().str();
    t.shape.assign(shape.asArrayRef().begin(), shape.asArrayRef().end());
    t.value = dict.getAs<ElementsAttr>("value");
    return success();
  }

  LogicalResult tensors(StringRef attr, SmallVectorImpl<TensorInfo> &out) {
    FailureOr<ArrayAttr> entries = array(attr);
    if (failed(entries))
      return failure();
    for (Attribute entry : *entries) {
      auto dict = dyn_cast<DictionaryAttr>(entry);
      TensorInfo t;
      if (!dict || failed(tensor(attr, dict, t)))
        return fail(attr, "has an entry that is not a tensor dictionary");
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
  if (!task)
    return r.fail(kTaskAttr, "is missing or not a dictionary");
  auto job = task.getAs<StringAttr>("job");
  auto index = task.getAs<IntegerAttr>("index");
  auto device = task.getAs<StringAttr>("device");
  if (!job || !index || !device)
    return r.fail(kTaskAttr, "needs string 'job', integer 'index' and string "
                             "'device'");
  info.job = job.getValue().str();
  info.index = index.getInt();
  info.device = device.getValue().str();
  if (failed(r.tensors(kInputsAttr, info.inputs)) ||
      failed(r.tensors(kOutputsAttr, info.outputs)) ||
      failed(r.tensors(kVariablesAttr, info.variables)))
    return failure();

  FailureOr<ArrayAttr> channels = r.array(kChannelsAttr);
  if (failed(channels))
    return failure();
  for (Attribute entry : *channels) {
    auto dict = dyn_cast<DictionaryAttr>(entry);
    ChannelInfo c;
    auto key = dict ? dict.getAs<StringAttr>("key") : nullptr;
    auto peer = dict ? dict.getAs<StringAttr>("peer") : nullptr;
    auto direction = dict ? dict.getAs<StringAttr>("direction") : nullptr;
    if (!key || !peer || !direction ||
        (direction.getValue() != "send" && direction.getValue() != "recv") ||
        failed(r.tensor(kChannelsAttr, dict, c.payload)))
      return r.fail(kChannelsAttr, "needs entries with 'key', 'peer', "
                                   "'direction' (send or recv), 'dtype' and "
                                   "'shape'");
    c.key = key.getValue().str();
    c.peer = peer.getValue().str();
    c.send = direction.getValue() == "send";
    info.channels.push_back(std::move(c));
  }

  FailureOr<ArrayAttr> groups = r.array(kGroupsAttr);
  if (failed(groups))
    return failure();
  for (Attribute entry : *groups) {
    auto dict = dyn_cast<DictionaryAttr>(entry);
    auto name = dict ? dict.getAs<StringAttr>("name") : nullptr;
    auto tasks = dict ? dict.getAs<ArrayAttr>("tasks") : nullptr;
    if (!name || !tasks)
      return r.fail(kGroupsAttr, "needs entries with 'name' and 'tasks'");
    GroupInfo g;
    g.name = name.getValue().str();
    for (Attribute member : tasks) {
      auto s = dyn_cast<StringAttr>(member);
      if (!s)
        return r.fail(kGroupsAttr, "has a member that is not a string");
      g.tasks.push_back(s.getValue().str());
    }
    info.groups.push_back(std::move(g));
  }
  return info;
}

} // namespace graphc::task
