//===- TaskDescriptor.cpp - the graphrt descriptor and step of a task -----===//
//
// After the CPU pipeline a task's code is `graphc_task_run`, an LLVM function
// taking `%ctx`, `%services` and one expanded memref descriptor (allocated,
// aligned, offset, sizes, strides) per input, variable and output, returning
// the step's status. This pass adds what the runtime sees: the exported
// `graphrt_task_descriptor_v1` global (runtime/include/graphrt/graphrt.h)
// with the task's signatures, channels and groups, read from the task
// module's attributes, and `graphc_task_step`, which reads the data pointers
// out of the runtime's graphrt_tensor_t arrays and calls `graphc_task_run`.
// Shapes are static, so sizes and strides are constants; the runtime checks
// every tensor's shape against the descriptor before it calls step. A
// batched tensor (-1 in dimension 0, docs/design/dynamic-batch.md) is one
// sample to graphc_task_run; the step loops over the batch.
//
// Why generated IR rather than a C shim linked into each .so: the
// descriptor's contents differ per task and must be static data, and
// generating them keeps one artifact (the module), lets `--emit=llvm` show
// the whole task and lets LLVM inline `graphc_task_run` into the step.
//
//===----------------------------------------------------------------------===//

#include "graphc/Conversion/DistToRuntime/TaskAttrs.h"
#include "graphc/Conversion/Passes.h"

#include "graphrt/graphrt.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"

#include <cstddef>

namespace graphc {
#define GEN_PASS_DEF_GRAPHRTTASKDESCRIPTOR
#include "graphc/Conversion/Passes.h.inc"
} // namespace graphc

using namespace mlir;

namespace graphc {

// The LLVM struct types below mirror graphrt.h; check the C layout they
// assume (x86-64 / AArch64 LP64).
static_assert(offsetof(graphrt_tensor_t, data) == 16, "graphrt_tensor_t");
static_assert(sizeof(graphrt_tensor_t) == 32, "graphrt_tensor_t");
static_assert(sizeof(graphrt_tensor_signature_t) == 24,
              "graphrt_tensor_signature_t");
static_assert(offsetof(graphrt_channel_t, payload) == 24, "graphrt_channel_t");
static_assert(sizeof(graphrt_channel_t) == 48, "graphrt_channel_t");
static_assert(sizeof(graphrt_collective_group_t) == 8,
              "graphrt_collective_group_t");
static_assert(sizeof(graphrt_task_descriptor_v1_t) == 120,
              "graphrt_task_descriptor_v1_t");
static_assert(offsetof(graphrt_task_descriptor_v1_t, prepare) == 112,
              "graphrt_task_descriptor_v1_t");

namespace {

using task::TensorInfo;

/// Builds the glue's globals at the end of a task module.
class GlueBuilder {
public:
  GlueBuilder(ModuleOp module)
      : module(module), ctx(module.getContext()), b(ctx), loc(module.getLoc()),
        ptrTy(LLVM::LLVMPointerType::get(ctx)), i32(IntegerType::get(ctx, 32)),
        i64(IntegerType::get(ctx, 64)) {
    b.setInsertionPointToEnd(module.getBody());
    sigTy = LLVM::LLVMStructType::getLiteral(ctx, {ptrTy, i32, i32, ptrTy});
    tensorTy =
        LLVM::LLVMStructType::getLiteral(ctx, {i32, i32, ptrTy, ptrTy, i64});
  }

  /// A private NUL-terminated string global.
  StringRef string(StringRef value) {
    std::string sym = "graphc_str_" + std::to_string(counter++);
    auto type =
        LLVM::LLVMArrayType::get(IntegerType::get(ctx, 8), value.size() + 1);
    LLVM::GlobalOp::create(b, loc, type, /*isConstant=*/true,
                           LLVM::Linkage::Private, sym,
                           b.getStringAttr(value.str() + '\0'));
    return intern(sym);
  }

  /// A private i64 array global, or "" for an empty one.
  StringRef shape(ArrayRef<int64_t> dims) {
    if (dims.empty()) {
      return "";
    }
    std::string sym = "graphc_shape_" + std::to_string(counter++);
    auto type = LLVM::LLVMArrayType::get(i64, dims.size());
    auto value = DenseElementsAttr::get(
        RankedTensorType::get({static_cast<int64_t>(dims.size())}, i64), dims);
    LLVM::GlobalOp::create(b, loc, type, /*isConstant=*/true,
                           LLVM::Linkage::Private, sym, value);
    return intern(sym);
  }

  /// A private constant array global of `type` elements built by `element`
  /// in its initializer, or "" when `n` is 0.
  StringRef array(StringRef prefix, Type type, size_t n,
                  llvm::function_ref<Value(size_t)> element) {
    if (n == 0) {
      return "";
    }
    std::string sym =
        "graphc_" + prefix.str() + "_" + std::to_string(counter++);
    auto arrayTy = LLVM::LLVMArrayType::get(type, n);
    auto global =
        LLVM::GlobalOp::create(b, loc, arrayTy, /*isConstant=*/true,
                               LLVM::Linkage::Private, sym, Attribute());
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(&global.getInitializerRegion().emplaceBlock());
    Value value = LLVM::UndefOp::create(b, loc, arrayTy);
    for (size_t i = 0; i < n; ++i) {
      value = LLVM::InsertValueOp::create(
          b, loc, value, element(i),
          ArrayRef<int64_t>{static_cast<int64_t>(i)});
    }
    LLVM::ReturnOp::create(b, loc, value);
    return intern(sym);
  }

  /// A graphrt_tensor_signature_t value (inside an initializer) whose
  /// strings and shape are the globals `name` and `dims`.
  Value signature(StringRef name, StringRef dims, const TensorInfo &t) {
    Value sig = LLVM::UndefOp::create(b, loc, sigTy);
    Value fields[] = {address(name), constant(i32, task::dtypeCode(t.dtype)),
                      constant(i32, t.shape.size()), address(dims)};
    for (auto [i, f] : llvm::enumerate(fields)) {
      sig = LLVM::InsertValueOp::create(
          b, loc, sig, f, ArrayRef<int64_t>{static_cast<int64_t>(i)});
    }
    return sig;
  }

  /// A private array of graphrt_tensor_signature_t, or "" when empty.
  StringRef signatures(ArrayRef<TensorInfo> tensors) {
    SmallVector<std::pair<StringRef, StringRef>> syms;
    for (const TensorInfo &t : tensors) {
      syms.push_back({string(t.name), shape(t.shape)});
    }
    return array("sigs", sigTy, tensors.size(), [&](size_t i) {
      return signature(syms[i].first, syms[i].second, tensors[i]);
    });
  }

  /// A private array of graphrt_channel_t, or "" when empty.
  StringRef channels(ArrayRef<task::ChannelInfo> channels) {
    struct Syms {
      StringRef key, peer, name, shape;
    };
    SmallVector<Syms> syms;
    for (const task::ChannelInfo &c : channels) {
      syms.push_back({string(c.key), string(c.peer), string(c.payload.name),
                      shape(c.payload.shape)});
    }
    auto channelTy =
        LLVM::LLVMStructType::getLiteral(ctx, {ptrTy, ptrTy, i32, sigTy});
    return array("channels", channelTy, channels.size(), [&](size_t i) {
      const task::ChannelInfo &c = channels[i];
      Value v = LLVM::UndefOp::create(b, loc, channelTy);
      Value fields[] = {
          address(syms[i].key), address(syms[i].peer),
          constant(i32, c.send ? GRAPHRT_CHANNEL_SEND : GRAPHRT_CHANNEL_RECV),
          signature(syms[i].name, syms[i].shape, c.payload)};
      for (auto [f, field] : llvm::enumerate(fields)) {
        v = LLVM::InsertValueOp::create(
            b, loc, v, field, ArrayRef<int64_t>{static_cast<int64_t>(f)});
      }
      return v;
    });
  }

  /// A private array of graphrt_collective_group_t, or "" when empty.
  StringRef groups(ArrayRef<task::GroupInfo> groups) {
    SmallVector<StringRef> names;
    for (const task::GroupInfo &g : groups) {
      names.push_back(string(g.name));
    }
    auto groupTy = LLVM::LLVMStructType::getLiteral(ctx, {ptrTy});
    return array("groups", groupTy, groups.size(), [&](size_t i) {
      Value v = LLVM::UndefOp::create(b, loc, groupTy);
      return LLVM::InsertValueOp::create(b, loc, v, address(names[i]),
                                         ArrayRef<int64_t>{0})
          .getResult();
    });
  }

  /// The address of global or function `sym`, or null for "".
  Value address(StringRef sym) {
    if (sym.empty()) {
      return LLVM::ZeroOp::create(b, loc, ptrTy);
    }
    return LLVM::AddressOfOp::create(b, loc, ptrTy, sym);
  }

  Value constant(Type type, int64_t value) {
    return LLVM::ConstantOp::create(b, loc, type,
                                    b.getIntegerAttr(type, value));
  }

  /// `graphc_task_step`: graphrt_task_step_fn_t calling `run`. With batched
  /// tensors (shape -1 in dimension 0), `run` holds one sample: the step
  /// reads the batch from the first batched input, checks every batched
  /// tensor has it, calls `chunkRun` (when there is one: the body at
  /// `chunk` samples) on each full chunk, then `run` once per remaining
  /// sample.
  LogicalResult step(LLVM::LLVMFuncOp run, LLVM::LLVMFuncOp chunkRun,
                     int64_t chunk, const task::TaskInfo &info) {
    auto fnTy = LLVM::LLVMFunctionType::get(
        ptrTy, {ptrTy, ptrTy, i64, ptrTy, i64, ptrTy, i64, ptrTy, i64});
    auto fn = LLVM::LLVMFuncOp::create(b, loc, "graphc_task_step", fnTy,
                                       LLVM::Linkage::Internal);
    OpBuilder::InsertionGuard guard(b);
    Block *entry = fn.addEntryBlock(b);
    b.setInsertionPointToStart(entry);
    Value inputs = entry->getArgument(3), outputs = entry->getArgument(5),
          variables = entry->getArgument(7);

    // graphc_task_run's order: inputs, variables, outputs.
    struct Arg {
      Value array;
      size_t index;
      const TensorInfo *info;
    };
    SmallVector<Arg> order;
    for (auto [array, tensors] :
         {std::pair(inputs, ArrayRef<TensorInfo>(info.inputs)),
          std::pair(variables, ArrayRef<TensorInfo>(info.variables)),
          std::pair(outputs, ArrayRef<TensorInfo>(info.outputs))}) {
      for (size_t i = 0; i < tensors.size(); ++i) {
        order.push_back({array, i, &tensors[i]});
      }
    }
    size_t expected = 2;
    for (const Arg &a : order) {
      expected += 3 + 2 * a.info->shape.size();
    }
    for (LLVM::LLVMFuncOp fn : {run, chunkRun}) {
      if (fn && (fn.getNumArguments() != expected ||
                 fn.getFunctionType().getReturnType() != ptrTy)) {
        return fn.emitOpError()
               << "has " << fn.getNumArguments()
               << " arguments after lowering, the task glue passes " << expected
               << " (expected ctx, services and identity-layout "
               << "memrefs, returning the status pointer)";
      }
    }
    auto isBatched = [](const TensorInfo &t) {
      return !t.shape.empty() && t.shape[0] == task::kBatchDim;
    };
    const Arg *first = llvm::find_if(order, [&](const Arg &a) {
      return a.array == inputs && isBatched(*a.info);
    });
    bool batched = first != order.end();
    if (chunkRun && (!batched || chunk < 2)) {
      return chunkRun.emitOpError()
             << "is a chunk body of " << chunk << " samples in task '"
             << info.name << "', which has "
             << (batched ? "no chunk of two or more samples"
                         : "no batched input")
             << "; the module's " << task::kBatchChunkAttr
             << " must say how many samples it takes";
    }
    if (!batched &&
        llvm::any_of(order, [&](const Arg &a) { return isBatched(*a.info); })) {
      return run.emitOpError() << "task '" << info.name
                               << "' has a batched output or variable but no "
                                  "batched input to take the batch from";
    }

    Value zero = constant(i64, 0);
    // The batch, and the check that every batched tensor has it.
    Value batch;
    if (batched) {
      batch = dim0(first->array, first->index);
      for (const Arg &a : order) {
        if (&a == first || !isBatched(*a.info)) {
          continue;
        }
        if (a.array == variables) {
          return run.emitOpError() << "variable '" << a.info->name
                                   << "' cannot have a batch dimension";
        }
        Value same = LLVM::ICmpOp::create(b, loc, LLVM::ICmpPredicate::eq,
                                          dim0(a.array, a.index), batch);
        Block *current = b.getInsertionBlock();
        Block *next = b.createBlock(&fn.getBody());
        Block *bad = b.createBlock(&fn.getBody());
        std::string message =
            "task '" + info.name +
            "': " + (a.array == inputs ? "input '" : "output '") +
            a.info->name + "' does not have the batch of input '" +
            first->info->name + "'";
        LLVM::ReturnOp::create(b, loc,
                               statusCreate(entry->getArgument(1),
                                            GRAPHRT_STATUS_INVALID_ARGUMENT,
                                            message));
        b.setInsertionPointToEnd(current);
        LLVM::CondBrOp::create(b, loc, same, next, bad);
        b.setInsertionPointToEnd(next);
      }
    }

    // One call of `fn`, which takes `samples` samples, over the tensors as
    // given, or from sample `i` on.
    auto call = [&](LLVM::LLVMFuncOp callee, int64_t samples, Value i) {
      SmallVector<Value> args = {entry->getArgument(0), entry->getArgument(1)};
      for (const Arg &a : order) {
        const TensorInfo &t = *a.info;
        Value field = LLVM::GEPOp::create(
            b, loc, ptrTy, tensorTy, a.array,
            ArrayRef<LLVM::GEPArg>{static_cast<int32_t>(a.index), 3});
        Value data = LLVM::LoadOp::create(b, loc, ptrTy, field);
        SmallVector<int64_t> shape(t.shape);
        if (isBatched(t)) {
          shape[0] = 1;
          int64_t sample =
              static_cast<int64_t>(graphrt_dtype_size(
                  static_cast<graphrt_dtype_t>(task::dtypeCode(t.dtype)))) *
              product(ArrayRef<int64_t>(shape));
          Value offset = LLVM::MulOp::create(b, loc, i, constant(i64, sample));
          data = LLVM::GEPOp::create(b, loc, ptrTy, b.getI8Type(), data,
                                     ArrayRef<LLVM::GEPArg>{offset});
          shape[0] = samples;
        }
        args.append({data, data, zero});
        appendSizesAndStrides(args, shape);
      }
      return LLVM::CallOp::create(b, loc, callee, args).getResult();
    };
    if (!batched) {
      LLVM::ReturnOp::create(b, loc, call(run, 1, zero));
      return success();
    }
    // i = 0; for (; i + C <= batch; i += C) { status = chunk(samples i..);
    // if (status) return status; } for (; i < batch; ++i) { status =
    // run(sample i); ... } return OK;
    Block *failed = new Block();
    failed->addArgument(ptrTy, loc);
    Value i = zero;
    if (chunkRun) {
      i = loop(i, batch, chunk, failed,
               [&](Value at) { return call(chunkRun, chunk, at); });
    }
    loop(i, batch, 1, failed, [&](Value at) { return call(run, 1, at); });
    LLVM::ReturnOp::create(b, loc, LLVM::ZeroOp::create(b, loc, ptrTy));
    fn.getBody().push_back(failed);
    b.setInsertionPointToEnd(failed);
    LLVM::ReturnOp::create(b, loc, failed->getArgument(0));
    return success();
  }

  /// `graphc_task_prepare_glue`: graphrt_task_prepare_fn_t calling
  /// `prepare` (graphc-cpu-prepare-weights) with the variables' memrefs.
  /// Variables have static shapes (never a batch dimension).
  LogicalResult prepareGlue(LLVM::LLVMFuncOp prepare,
                            const task::TaskInfo &info) {
    size_t expected = 2;
    for (const TensorInfo &t : info.variables) {
      expected += 3 + 2 * t.shape.size();
    }
    if (prepare.getNumArguments() != expected ||
        prepare.getFunctionType().getReturnType() != ptrTy) {
      return prepare.emitOpError()
             << "has " << prepare.getNumArguments()
             << " arguments after lowering, the task glue passes " << expected
             << " (ctx, services and the variables' identity-layout memrefs, "
                "returning the status pointer)";
    }
    auto fnTy = LLVM::LLVMFunctionType::get(ptrTy, {ptrTy, ptrTy, ptrTy, i64});
    auto fn = LLVM::LLVMFuncOp::create(b, loc, "graphc_task_prepare_glue", fnTy,
                                       LLVM::Linkage::Internal);
    OpBuilder::InsertionGuard guard(b);
    Block *entry = fn.addEntryBlock(b);
    b.setInsertionPointToStart(entry);
    SmallVector<Value> args = {entry->getArgument(0), entry->getArgument(1)};
    Value zero = constant(i64, 0);
    for (auto [i, t] : llvm::enumerate(info.variables)) {
      Value field = LLVM::GEPOp::create(
          b, loc, ptrTy, tensorTy, entry->getArgument(2),
          ArrayRef<LLVM::GEPArg>{static_cast<int32_t>(i), 3});
      Value data = LLVM::LoadOp::create(b, loc, ptrTy, field);
      args.append({data, data, zero});
      appendSizesAndStrides(args, t.shape);
    }
    LLVM::ReturnOp::create(
        b, loc, LLVM::CallOp::create(b, loc, prepare, args).getResult());
    return success();
  }

  /// The constant sizes, then row-major strides, of a memref of `shape`.
  void appendSizesAndStrides(SmallVectorImpl<Value> &args,
                             ArrayRef<int64_t> shape) {
    SmallVector<int64_t> strides(shape.size(), 1);
    for (int64_t d = static_cast<int64_t>(shape.size()) - 2; d >= 0; --d) {
      strides[d] = strides[d + 1] * shape[d + 1];
    }
    for (int64_t size : shape) {
      args.push_back(constant(i64, size));
    }
    for (int64_t stride : strides) {
      args.push_back(constant(i64, stride));
    }
  }

  /// At the insertion point: for (i = begin; i + step <= batch; i += step)
  /// { status = call(i); if (status) goto failed(status); }. Leaves the
  /// insertion point after the loop and returns `i` there.
  Value loop(Value begin, Value batch, int64_t step, Block *failed,
             llvm::function_ref<Value(Value)> call) {
    Region *region = b.getInsertionBlock()->getParent();
    auto block = [&]() {
      region->push_back(new Block());
      return &region->back();
    };
    Block *header = block(), *body = block(), *latch = block(), *exit = block();
    Value i = header->addArgument(i64, loc);
    LLVM::BrOp::create(b, loc, ValueRange{begin}, header);
    b.setInsertionPointToEnd(header);
    Value next = LLVM::AddOp::create(b, loc, i, constant(i64, step));
    Value fits =
        LLVM::ICmpOp::create(b, loc, LLVM::ICmpPredicate::sle, next, batch);
    LLVM::CondBrOp::create(b, loc, fits, body, exit);
    b.setInsertionPointToEnd(body);
    Value status = call(i);
    Value ok = LLVM::ICmpOp::create(b, loc, LLVM::ICmpPredicate::eq, status,
                                    LLVM::ZeroOp::create(b, loc, ptrTy));
    LLVM::CondBrOp::create(b, loc, ok, latch, ValueRange{}, failed,
                           ValueRange{status});
    b.setInsertionPointToEnd(latch);
    LLVM::BrOp::create(b, loc, ValueRange{next}, header);
    b.setInsertionPointToEnd(exit);
    return i;
  }

  /// Dimension 0 of tensor `index` of a graphrt_tensor_t array.
  Value dim0(Value array, size_t index) {
    Value field = LLVM::GEPOp::create(
        b, loc, ptrTy, tensorTy, array,
        ArrayRef<LLVM::GEPArg>{static_cast<int32_t>(index), 2});
    Value shape = LLVM::LoadOp::create(b, loc, ptrTy, field);
    return LLVM::LoadOp::create(b, loc, i64, shape);
  }

  /// services->status_create(code, message), at the insertion point.
  Value statusCreate(Value services, graphrt_status_code_t code,
                     StringRef message) {
    StringRef text;
    {
      OpBuilder::InsertionGuard g(b);
      b.setInsertionPointToEnd(module.getBody());
      text = string(message);
    }
    static_assert(offsetof(graphrt_services_v1_t, status_create) == 8,
                  "graphrt_services_v1_t");
    Value slot = LLVM::GEPOp::create(b, loc, ptrTy, b.getI8Type(), services,
                                     ArrayRef<LLVM::GEPArg>{8});
    Value fnPtr = LLVM::LoadOp::create(b, loc, ptrTy, slot);
    auto createTy = LLVM::LLVMFunctionType::get(ptrTy, {i32, ptrTy});
    return LLVM::CallOp::create(
               b, loc, createTy,
               ValueRange{fnPtr, constant(i32, code), address(text)})
        .getResult();
  }

  static int64_t product(ArrayRef<int64_t> dims) {
    int64_t n = 1;
    for (int64_t d : dims) {
      n *= d;
    }
    return n;
  }

  /// The exported descriptor.
  void descriptor(const task::TaskInfo &info) {
    StringRef name = string(info.name);
    StringRef inputs = signatures(info.inputs);
    StringRef outputs = signatures(info.outputs);
    StringRef variables = signatures(info.variables);
    StringRef channelArray = channels(info.channels);
    StringRef groupArray = groups(info.groups);
    auto type = LLVM::LLVMStructType::getLiteral(
        ctx, {i32, i32, ptrTy, ptrTy, ptrTy, i64, ptrTy, i64, ptrTy, i64, ptrTy,
              i64, ptrTy, i64, ptrTy, ptrTy});
    auto global = LLVM::GlobalOp::create(
        b, loc, type, /*isConstant=*/true, LLVM::Linkage::External,
        GRAPHRT_TASK_DESCRIPTOR_SYMBOL, Attribute());
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(&global.getInitializerRegion().emplaceBlock());
    SmallVector<Value> fields = {
        constant(i32, GRAPHRT_ABI_VERSION),
        constant(i32, sizeof(graphrt_task_descriptor_v1_t)), address(name),
        // init: a target that needs one declares graphc_task_init (cuda:
        // the GPU check and the variables' upload); otherwise the variables
        // come from weights files or zeroes and there is nothing to do.
        address(module.lookupSymbol("graphc_task_init") ? "graphc_task_init"
                                                        : ""),
        address("graphc_task_step"), constant(i64, info.inputs.size()),
        address(inputs), constant(i64, info.outputs.size()), address(outputs),
        constant(i64, info.variables.size()), address(variables),
        constant(i64, info.channels.size()), address(channelArray),
        constant(i64, info.groups.size()), address(groupArray),
        // prepare: graphc-cpu-prepare-weights' load-time work, if any.
        address(module.lookupSymbol(task::kPrepareFunction)
                    ? "graphc_task_prepare_glue"
                    : "")};
    Value desc = LLVM::UndefOp::create(b, loc, type);
    for (auto [i, v] : llvm::enumerate(fields)) {
      desc = LLVM::InsertValueOp::create(
          b, loc, desc, v, ArrayRef<int64_t>{static_cast<int64_t>(i)});
    }
    LLVM::ReturnOp::create(b, loc, desc);
  }

private:
  StringRef intern(const std::string &s) {
    return StringAttr::get(ctx, s).getValue();
  }

  ModuleOp module;
  MLIRContext *ctx;
  OpBuilder b;
  Location loc;
  Type ptrTy, i32, i64, sigTy;
  LLVM::LLVMStructType tensorTy;
  int counter = 0;
};

LogicalResult addGlue(ModuleOp module) {
  FailureOr<task::TaskInfo> info = task::readTask(module);
  if (failed(info)) {
    return failure();
  }
  auto run = module.lookupSymbol<LLVM::LLVMFuncOp>(task::kRunFunction);
  if (!run) {
    return module.emitError()
           << "task module '" << info->name << "' has no llvm.func @"
           << task::kRunFunction << "; run graphc-cpu-codegen on it first";
  }
  for (StringRef taken : {"graphc_task_step", "graphc_task_prepare_glue",
                          GRAPHRT_TASK_DESCRIPTOR_SYMBOL}) {
    if (module.lookupSymbol(taken)) {
      return module.emitError()
             << "symbol '" << taken << "' is reserved for the task glue";
    }
  }
  // The descriptor is the library's only export (graphrt.h): every function
  // defined here (graphc_task_run, the communication helpers, functions the
  // model calls, which func-to-llvm leaves external) becomes internal.
  for (auto fn : module.getOps<LLVM::LLVMFuncOp>()) {
    if (!fn.isExternal()) {
      fn.setLinkage(LLVM::Linkage::Internal);
    }
  }
  // A dynamic batch's chunk body (convert-dist-to-runtime), if any.
  auto chunkRun =
      module.lookupSymbol<LLVM::LLVMFuncOp>(task::kRunChunkFunction);
  auto chunk = module->getAttrOfType<IntegerAttr>(task::kBatchChunkAttr);
  if (chunk && !chunkRun) {
    return module.emitError()
           << "task module '" << info->name << "' has " << task::kBatchChunkAttr
           << " but no llvm.func @" << task::kRunChunkFunction;
  }
  GlueBuilder glue(module);
  if (failed(glue.step(run, chunkRun, chunk ? chunk.getInt() : 0, *info))) {
    return failure();
  }
  if (auto prepare =
          module.lookupSymbol<LLVM::LLVMFuncOp>(task::kPrepareFunction)) {
    if (failed(glue.prepareGlue(prepare, *info))) {
      return failure();
    }
  }
  glue.descriptor(*info);
  return success();
}

struct GraphrtTaskDescriptorPass
    : impl::GraphrtTaskDescriptorBase<GraphrtTaskDescriptorPass> {
  void runOnOperation() override {
    SmallVector<ModuleOp> tasks;
    getOperation()->walk([&](ModuleOp m) {
      if (task::isTaskModule(m)) {
        tasks.push_back(m);
      }
    });
    for (ModuleOp m : tasks) {
      if (failed(addGlue(m))) {
        return signalPassFailure();
      }
    }
  }
};

} // namespace
} // namespace graphc
