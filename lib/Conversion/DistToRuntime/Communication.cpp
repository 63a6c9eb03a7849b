//===- Communication.cpp - dist communication to graphrt service calls ----===//
//
// Each communication op becomes, at tensor level in graphc_task_run, a call
// of a private helper that takes `%ctx`, `%services`, the status slot and
// identity-layout memrefs (operands through `bufferization.to_buffer
// read_only`, results as fresh `memref.alloc`s turned back into tensors with
// `to_tensor restrict writable`). A helper, rather than inline LLVM ops at the
// call site, because a memref passed to a call is a use the deallocation
// pipeline sees: a raw pointer extracted at the call site would let it free
// the buffer before the service reads it. (A gradient bucket's all-reduce,
// blocking or started, is the exception: it reads through a writable
// to_buffer and reduces in place, see lowerCollective.) The helper's body is in
// the LLVM dialect: it skips the call when an earlier one failed, loads the
// entry from the services table and stores the returned status in the slot.
//
//===----------------------------------------------------------------------===//

#include "Communication.h"

#include "graphc/Conversion/DistToRuntime/TaskAttrs.h"
#include "graphc/Transforms/Placement.h"

#include "dist/DistOps.h"
#include "graph/GraphOps.h"
#include "graphrt/graphrt.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Builders.h"

#include "llvm/ADT/StringSet.h"

#include <cstddef>

using namespace mlir;

namespace graphc {
Value readOnlyBuffer(OpBuilder &b, Location loc, Value tensor, StringRef why) {
  auto type = cast<RankedTensorType>(tensor.getType());
  auto op = bufferization::ToBufferOp::create(
      b, loc, MemRefType::get(type.getShape(), type.getElementType()), tensor,
      /*read_only=*/true);
  op->setAttr("graphc.read_for", b.getStringAttr(why));
  return op;
}

namespace {

/// The index of a services-table entry, in pointers (every member after
/// `struct_size` is a function pointer, and size_t is pointer-sized).
#define SERVICE_INDEX(member)                                                  \
  static_cast<int32_t>(offsetof(graphrt_services_v1_t, member) / sizeof(void *))
static_assert(sizeof(size_t) == sizeof(void *), "services table layout");
static_assert(sizeof(graphrt_tensor_t) == 32, "graphrt_tensor_t");

/// The runtime's bytes per element: one for every type narrower than a byte
/// (graphrt.h, "Small element types").
int64_t elementBytes(Type element) {
  return std::max<int64_t>(1, (element.getIntOrFloatBitWidth() + 7) / 8);
}

/// True when every dimension before `axis` is 1: slices along `axis` are
/// then contiguous blocks, as the runtime's collectives lay them out.
bool isLeading(ArrayRef<int64_t> shape, int64_t axis) {
  return llvm::all_of(shape.take_front(axis), [](int64_t d) { return d == 1; });
}

/// `value` with dimension `from` moved to position `to` (linalg.transpose).
Value moveAxis(OpBuilder &b, Location loc, Value value, int64_t from,
               int64_t to) {
  auto type = cast<RankedTensorType>(value.getType());
  SmallVector<int64_t> perm;
  for (int64_t i = 0; i < type.getRank(); ++i) {
    if (i != from) {
      perm.push_back(i);
    }
  }
  perm.insert(perm.begin() + to, from);
  SmallVector<int64_t> shape;
  for (int64_t p : perm) {
    shape.push_back(type.getDimSize(p));
  }
  Value init = tensor::EmptyOp::create(b, loc, shape, type.getElementType());
  return linalg::TransposeOp::create(b, loc, value, init, perm).getResult()[0];
}

class Lowering {
public:
  Lowering(func::FuncOp run, StringRef self, const TaskNames &names)
      : run(run), module(run->getParentOfType<ModuleOp>()), self(self),
        names(names), ctx(run.getContext()), b(ctx),
        ptr(LLVM::LLVMPointerType::get(ctx)), i32(IntegerType::get(ctx, 32)),
        i64(IntegerType::get(ctx, 64)) {}

  LogicalResult lower() {
    SmallVector<Operation *> ops;
    run.walk([&](Operation *op) {
      if (isa<dist::SendOp, dist::RecvOp, dist::CollectiveOpInterface>(op)) {
        ops.push_back(op);
      }
    });
    ModuleOp taskModule = module;
    taskModule->setAttr(task::kChannelsAttr, b.getArrayAttr({}));
    taskModule->setAttr(task::kGroupsAttr, b.getArrayAttr({}));
    if (ops.empty()) {
      return success();
    }
    for (Operation *op : ops) {
      if (op->getParentOp() != run) {
        return op->emitOpError()
               << "inside a region of '" << op->getParentOp()->getName()
               << "' in task '" << self
               << "': communication must be at the top level of the task";
      }
    }

    // The status slot: null until a call fails.
    Block &entry = run.getBody().front();
    b.setInsertionPointToStart(&entry);
    Location loc = run.getLoc();
    Value one = LLVM::ConstantOp::create(b, loc, i64, b.getI64IntegerAttr(1));
    slot = LLVM::AllocaOp::create(b, loc, ptr, ptr, one);
    LLVM::StoreOp::create(b, loc, LLVM::ZeroOp::create(b, loc, ptr), slot);
    auto ret = cast<func::ReturnOp>(run.getBody().back().getTerminator());
    b.setInsertionPoint(ret);
    statusLoad = LLVM::LoadOp::create(b, loc, ptr, slot);
    ret->setOperand(0, statusLoad->getResult(0));

    for (Operation *op : ops) {
      if (failed(lowerOp(op))) {
        return failure();
      }
    }

    SmallVector<Attribute> groupAttrs;
    for (auto &[name, members] : groups) {
      SmallVector<Attribute> tasks;
      for (const std::string &m : members) {
        tasks.push_back(b.getStringAttr(m));
      }
      groupAttrs.push_back(b.getDictionaryAttr(
          {b.getNamedAttr("name", b.getStringAttr(name)),
           b.getNamedAttr("tasks", b.getArrayAttr(tasks))}));
    }
    module->setAttr(task::kChannelsAttr, b.getArrayAttr(channels));
    module->setAttr(task::kGroupsAttr, b.getArrayAttr(groupAttrs));
    return success();
  }

private:
  FailureOr<std::string> taskName(Operation *op, dist::DeviceAttr device,
                                  StringRef what) {
    auto it = names.find(device.getTaskAttr());
    if (it == names.end()) {
      return op->emitOpError()
             << what << " '" << device.str() << "' is no task of the module";
    }
    return it->second;
  }

  /// A private constant global holding `bytes` (strings NUL-terminated,
  /// shapes as i64 arrays), shared by equal contents.
  StringRef global(Attribute value, Type type, StringRef prefix) {
    auto key = std::make_pair(value, type);
    auto it = globals.find(key);
    if (it != globals.end()) {
      return it->second;
    }
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(module.getBody());
    // graphc_comm_*: the descriptor pass adds graphc_str_* and such later.
    std::string sym =
        ("graphc_comm_" + prefix + "_" + Twine(globals.size())).str();
    LLVM::GlobalOp::create(b, module.getLoc(), type, /*isConstant=*/true,
                           LLVM::Linkage::Private, sym, value);
    return globals[key] = StringAttr::get(ctx, sym).getValue();
  }

  StringRef string(StringRef s) {
    return global(
        b.getStringAttr(s.str() + '\0'),
        LLVM::LLVMArrayType::get(IntegerType::get(ctx, 8), s.size() + 1),
        "str");
  }

  /// The address of a global (in the helper being built), or null for "".
  Value address(Location loc, StringRef sym) {
    if (sym.empty()) {
      return LLVM::ZeroOp::create(b, loc, ptr);
    }
    return LLVM::AddressOfOp::create(b, loc, ptr, sym);
  }

  Value constant(Location loc, Type type, int64_t value) {
    return LLVM::ConstantOp::create(b, loc, type,
                                    b.getIntegerAttr(type, value));
  }

  /// The data pointer of an identity-layout memref, as !llvm.ptr.
  Value dataPointer(Location loc, Value memref) {
    Value index =
        memref::ExtractAlignedPointerAsIndexOp::create(b, loc, memref);
    Value asInt = arith::IndexCastOp::create(b, loc, i64, index);
    return LLVM::IntToPtrOp::create(b, loc, ptr, asInt);
  }

  /// What the body of a helper emits for the call itself: the status value.
  using EmitCall = llvm::function_ref<Value(
      Location loc, Value ctxArg, Value fn, ArrayRef<Value> pointers)>;

  /// A private helper `(ctx, services, slot, extra..., memrefs...)` with
  /// the body `build` makes (given the helper's arguments), and a call of it
  /// before `op` with `extra` (!llvm.ptr values of graphc_task_run).
  using BuildBody = llvm::function_ref<void(Location loc, Block *body)>;
  void helper(Operation *op, StringRef kind, ArrayRef<Value> extra,
              ArrayRef<Value> memrefs, BuildBody build) {
    Location loc = op->getLoc();
    SmallVector<Type> argTypes = {ptr, ptr, ptr};
    for (Value v : extra) {
      argTypes.push_back(v.getType());
    }
    for (Value m : memrefs) {
      argTypes.push_back(m.getType());
    }
    std::string name = ("graphc_" + kind + "_" + Twine(helpers++)).str();
    func::FuncOp fn;
    {
      OpBuilder::InsertionGuard guard(b);
      b.setInsertionPoint(run);
      fn = func::FuncOp::create(b, loc, name, b.getFunctionType(argTypes, {}));
      fn.setPrivate();
      Block *body = fn.addEntryBlock();
      b.setInsertionPointToStart(body);
      build(loc, body);
      b.setInsertionPointToEnd(body);
      func::ReturnOp::create(b, loc);
    }
    SmallVector<Value> operands = {run.getArgument(0), run.getArgument(1),
                                   slot};
    operands.append(extra.begin(), extra.end());
    operands.append(memrefs.begin(), memrefs.end());
    func::CallOp::create(b, loc, fn, operands);
  }

  /// Services-table entry `index` of the helper's `services` argument.
  Value serviceEntry(Location loc, Value services, int32_t index) {
    Value entryAddr = LLVM::GEPOp::create(b, loc, ptr, ptr, services,
                                          ArrayRef<LLVM::GEPArg>{index});
    return LLVM::LoadOp::create(b, loc, ptr, entryAddr);
  }

  /// An scf.if in the helper body on "the slot holds no failure yet".
  scf::IfOp ifNoFailure(Location loc, Value statusSlot) {
    Value prev = LLVM::LoadOp::create(b, loc, ptr, statusSlot);
    Value ok = LLVM::ICmpOp::create(b, loc, LLVM::ICmpPredicate::eq, prev,
                                    LLVM::ZeroOp::create(b, loc, ptr));
    return scf::IfOp::create(b, loc, ok, /*withElseRegion=*/false);
  }

  /// A helper calling services entry `index` through `emit` unless the slot
  /// already holds a failure, and a call of it before `op`.
  void callHelper(Operation *op, StringRef kind, int32_t index,
                  ArrayRef<Value> memrefs, EmitCall emit) {
    helper(op, kind, {}, memrefs, [&](Location loc, Block *body) {
      Value statusSlot = body->getArgument(2);
      auto ifOk = ifNoFailure(loc, statusSlot);
      b.setInsertionPointToStart(ifOk.thenBlock());
      SmallVector<Value> pointers;
      for (unsigned i = 0; i < memrefs.size(); ++i) {
        pointers.push_back(dataPointer(loc, body->getArgument(3 + i)));
      }
      Value fn = serviceEntry(loc, body->getArgument(1), index);
      Value status = emit(loc, body->getArgument(0), fn, pointers);
      LLVM::StoreOp::create(b, loc, status, statusSlot);
    });
  }

  Value indirectCall(Location loc, Value fn, ArrayRef<Type> argTypes,
                     ArrayRef<Value> args) {
    auto fnType = LLVM::LLVMFunctionType::get(ptr, argTypes);
    SmallVector<Value> operands = {fn};
    operands.append(args.begin(), args.end());
    return LLVM::CallOp::create(b, loc, fnType, operands).getResult();
  }

  /// The buffer a service call reads `tensor` from. One-Shot Bufferize
  /// takes the to_buffer op as the read, not the call after it; `key`
  /// (unique in the task) keeps CSE from merging two such ops, which would
  /// move a later send's read up to an earlier one and let a write in
  /// between clobber the buffer (found by the partitioning property test).
  Value toBuffer(Location loc, Value tensor, StringRef key) {
    return readOnlyBuffer(b, loc, tensor, key);
  }

  Value alloc(Location loc, RankedTensorType type) {
    return memref::AllocOp::create(
        b, loc, MemRefType::get(type.getShape(), type.getElementType()));
  }

  Value toTensor(Location loc, RankedTensorType type, Value buffer) {
    return bufferization::ToTensorOp::create(b, loc, type, buffer,
                                             /*restrict=*/true,
                                             /*writable=*/true);
  }

  FailureOr<int32_t> dtypeOf(Operation *op, RankedTensorType type) {
    int32_t code = task::dtypeCode(task::manifestDType(type.getElementType()));
    if (code == GRAPHRT_DTYPE_INVALID) {
      return op->emitOpError()
             << "communicates element type " << type.getElementType()
             << ", which the runtime has no dtype for";
    }
    return code;
  }

  void recordChannel(Operation *op, StringRef key, StringRef peer, bool send,
                     RankedTensorType type) {
    NamedAttrList fields(task::tensorEntry(ctx, "", type));
    fields.erase("name");
    fields.set("key", b.getStringAttr(key));
    fields.set("peer", b.getStringAttr(peer));
    fields.set("direction", b.getStringAttr(send ? "send" : "recv"));
    channels.push_back(fields.getDictionary(ctx));
  }

  /// The group's runtime name, `a+b+...` in the group attribute's order.
  FailureOr<std::string> groupName(Operation *op, ArrayAttr group) {
    SmallVector<std::string> members;
    for (Attribute a : group) {
      FailureOr<std::string> name =
          taskName(op, cast<dist::DeviceAttr>(a), "group member");
      if (failed(name)) {
        return failure();
      }
      members.push_back(*name);
    }
    std::string name = llvm::join(members, "+");
    if (groupSeen.insert(name).second) {
      groups.push_back({name, members});
    }
    return name;
  }

  FailureOr<int32_t> reduceOp(Operation *op, dist::ReductionKind kind) {
    switch (kind) {
    case dist::ReductionKind::sum:
      return GRAPHRT_REDUCE_SUM;
    case dist::ReductionKind::mean:
      return GRAPHRT_REDUCE_MEAN;
    case dist::ReductionKind::max:
      return GRAPHRT_REDUCE_MAX;
    case dist::ReductionKind::min:
      return GRAPHRT_REDUCE_MIN;
    case dist::ReductionKind::prod:
      break;
    }
    return op->emitOpError() << "reduces with 'prod', which the graphrt "
                                "services have no operator for (sum, mean, "
                                "max, min)";
  }

  LogicalResult lowerOp(Operation *op) {
    b.setInsertionPoint(op);
    Location loc = op->getLoc();
    if (auto send = dyn_cast<dist::SendOp>(op)) {
      auto type = cast<RankedTensorType>(send.getInput().getType());
      FailureOr<std::string> peer = taskName(op, send.getPeer(), "peer");
      FailureOr<int32_t> dtype = dtypeOf(op, type);
      if (failed(peer) || failed(dtype)) {
        return failure();
      }
      recordChannel(op, send.getKey(), *peer, /*send=*/true, type);
      Value in = toBuffer(loc, send.getInput(), send.getKey());
      pointToPoint(op, "send", SERVICE_INDEX(send), send.getKey(), type, *dtype,
                   in);
      op->erase();
      return success();
    }
    if (auto recv = dyn_cast<dist::RecvOp>(op)) {
      auto type = cast<RankedTensorType>(recv.getType());
      FailureOr<std::string> peer = taskName(op, recv.getPeer(), "peer");
      FailureOr<int32_t> dtype = dtypeOf(op, type);
      if (failed(peer) || failed(dtype)) {
        return failure();
      }
      recordChannel(op, recv.getKey(), *peer, /*send=*/false, type);
      Value out = alloc(loc, type);
      pointToPoint(op, "recv", SERVICE_INDEX(recv), recv.getKey(), type, *dtype,
                   out);
      recv.replaceAllUsesWith(toTensor(loc, type, out));
      op->erase();
      return success();
    }
    return lowerCollective(cast<dist::CollectiveOpInterface>(op));
  }

  /// send/recv: the helper builds a graphrt_tensor_t on its stack.
  void pointToPoint(Operation *op, StringRef kind, int32_t index, StringRef key,
                    RankedTensorType type, int32_t dtype, Value buffer) {
    StringRef keySym = string(key);
    StringRef shapeSym;
    if (type.getRank() > 0) {
      shapeSym = global(
          DenseElementsAttr::get(RankedTensorType::get({type.getRank()}, i64),
                                 type.getShape()),
          LLVM::LLVMArrayType::get(i64, type.getRank()), "shape");
    }
    int64_t bytes = type.getNumElements() * elementBytes(type.getElementType());
    auto tensorTy =
        LLVM::LLVMStructType::getLiteral(ctx, {i32, i32, ptr, ptr, i64});
    callHelper(
        op, kind, index, {buffer},
        [&](Location loc, Value ctxArg, Value fn, ArrayRef<Value> pointers) {
          Value t = LLVM::UndefOp::create(b, loc, tensorTy);
          Value fields[] = {
              constant(loc, i32, dtype), constant(loc, i32, type.getRank()),
              address(loc, shapeSym), pointers[0], constant(loc, i64, bytes)};
          for (auto [i, f] : llvm::enumerate(fields)) {
            t = LLVM::InsertValueOp::create(
                b, loc, t, f, ArrayRef<int64_t>{static_cast<int64_t>(i)});
          }
          Value one = constant(loc, i64, 1);
          Value storage = LLVM::AllocaOp::create(b, loc, ptr, tensorTy, one);
          LLVM::StoreOp::create(b, loc, t, storage);
          return indirectCall(loc, fn, {ptr, ptr, ptr},
                              {ctxArg, address(loc, keySym), storage});
        });
  }

  /// An all_to_all's result from the runtime's: `received` holds, in the
  /// layout with the split axis moved first, one block per member (member
  /// r's slice, rows r * S/n ...). Each block goes back to the original
  /// layout and the blocks are concatenated along `concat`.
  Value concatBlocks(Location loc, Value received, int64_t n, int64_t split,
                     int64_t concat) {
    auto type = cast<RankedTensorType>(received.getType());
    // [S, rest...] -> [n, S/n, rest...]
    SmallVector<int64_t> blocks = {n, type.getDimSize(0) / n};
    llvm::append_range(blocks, type.getShape().drop_front());
    SmallVector<ReassociationIndices> expand = {{0, 1}};
    for (int64_t d = 2; d < static_cast<int64_t>(blocks.size()); ++d) {
      expand.push_back({d});
    }
    Value t = tensor::ExpandShapeOp::create(
        b, loc, RankedTensorType::get(blocks, type.getElementType()), received,
        expand);
    // [n, S/n, rest...] -> [n, slice in the original layout]
    t = moveAxis(b, loc, t, 1, split + 1);
    // -> [d0 .. n, d_concat ..], then n * d_concat.
    t = moveAxis(b, loc, t, 0, concat);
    int64_t rank = cast<RankedTensorType>(t.getType()).getRank();
    SmallVector<ReassociationIndices> collapse;
    for (int64_t d = 0; d < rank; ++d) {
      if (d == concat + 1) {
        continue;
      }
      if (d == concat) {
        collapse.push_back({d, d + 1});
      } else {
        collapse.push_back({d});
      }
    }
    return tensor::CollapseShapeOp::create(b, loc, t, collapse);
  }

  LogicalResult lowerCollective(dist::CollectiveOpInterface op) {
    Operation *raw = op.getOperation();
    Location loc = raw->getLoc();
    auto inType = cast<RankedTensorType>(op.getInput().getType());
    auto outType = cast<RankedTensorType>(op.getResult().getType());
    FailureOr<std::string> group = groupName(raw, op.getGroup());
    FailureOr<int32_t> dtype = dtypeOf(raw, inType);
    if (failed(group) || failed(dtype)) {
      return failure();
    }
    StringRef groupSym = string(*group);
    int64_t groupSize = op.getGroup().size();
    Value input = op.getInput();
    // The axis the runtime's blocks run along, when it is not leading.
    std::optional<int64_t> moved;
    int32_t service = 0;
    std::optional<int32_t> reduction;
    int64_t count = inType.getNumElements();
    std::optional<int32_t> root;
    // all_to_all axes that are not leading.
    std::optional<int64_t> split, concat;

    if (auto ar = dyn_cast<dist::AllReduceOp>(raw)) {
      service = SERVICE_INDEX(all_reduce);
      FailureOr<int32_t> r = reduceOp(raw, ar.getReduction());
      if (failed(r)) {
        return failure();
      }
      reduction = *r;
    } else if (auto ag = dyn_cast<dist::AllGatherOp>(raw)) {
      service = SERVICE_INDEX(all_gather);
      if (!isLeading(inType.getShape(), ag.getAxis())) {
        moved = ag.getAxis();
      }
    } else if (auto rs = dyn_cast<dist::ReduceScatterOp>(raw)) {
      service = SERVICE_INDEX(reduce_scatter);
      FailureOr<int32_t> r = reduceOp(raw, rs.getReduction());
      if (failed(r)) {
        return failure();
      }
      reduction = *r;
      count = outType.getNumElements();
      if (!isLeading(inType.getShape(), rs.getAxis())) {
        moved = rs.getAxis();
      }
    } else if (auto bc = dyn_cast<dist::BroadcastOp>(raw)) {
      service = SERVICE_INDEX(broadcast);
      for (auto [i, member] : llvm::enumerate(op.getGroup())) {
        if (cast<dist::DeviceAttr>(member).getTaskAttr() ==
            bc.getRoot().getTaskAttr()) {
          root = static_cast<int32_t>(i);
        }
      }
    } else if (auto a2a = dyn_cast<dist::AllToAllOp>(raw)) {
      service = SERVICE_INDEX(all_to_all);
      count = inType.getNumElements() / groupSize;
      if (!isLeading(inType.getShape(), a2a.getSplitAxis()) ||
          !isLeading(outType.getShape(), a2a.getConcatAxis())) {
        split = a2a.getSplitAxis();
        concat = a2a.getConcatAxis();
      }
    }

    RankedTensorType callOut = outType;
    if (split) {
      // The runtime exchanges contiguous blocks: slices along the split
      // axis once it is leading; the received blocks are then put back in
      // place along the concat axis (see concatBlocks).
      input = moveAxis(b, loc, input, *split, 0);
      callOut = cast<RankedTensorType>(input.getType());
    } else if (moved) {
      input = moveAxis(b, loc, input, *moved, 0);
      auto movedIn = cast<RankedTensorType>(input.getType());
      SmallVector<int64_t> shape(movedIn.getShape());
      shape[0] = outType.getDimSize(*moved);
      callOut = RankedTensorType::get(shape, outType.getElementType());
    }
    // An all-reduce of a bucket (dist-fuse-collectives' concat, read by
    // nothing else) in the step's body reads the bucket through a writable
    // to_buffer, so that One-Shot Bufferize takes the call (or the start of
    // a started one) as a write of the bucket's buffer (a value placed in
    // it and read later is copied out first), and writes its result into a
    // buffer allocated at the step's start. graphc-cpu-in-place-step builds
    // the bucket in that buffer, its members made in their slices: the call
    // then reduces in place (graphrt.h: the input may equal the output),
    // with no copy and no second buffer of the bucket's size. A started
    // one's wait takes the same memref (startAndWait): nothing else reads
    // or writes the bucket's buffer between the start and the wait, since
    // the bucket has no other use and its result is read only after the
    // wait.
    bool bucket = isa<dist::AllReduceOp>(raw) && !moved && !split &&
                  raw->getBlock() == &run.getBody().front() &&
                  input.hasOneUse() && input.getDefiningOp<graph::ConcatOp>();
    Value in, out;
    if (bucket) {
      {
        OpBuilder::InsertionGuard guard(b);
        b.setInsertionPointToStart(raw->getBlock());
        out = memref::AllocOp::create(
            b, loc,
            MemRefType::get(callOut.getShape(), callOut.getElementType()),
            b.getI64IntegerAttr(64));
      }
      auto type = cast<RankedTensorType>(input.getType());
      auto toBuffer = bufferization::ToBufferOp::create(
          b, loc, MemRefType::get(type.getShape(), type.getElementType()),
          input, /*read_only=*/false);
      toBuffer->setAttr("graphc.read_for", b.getStringAttr(op.getKey()));
      in = toBuffer;
    } else {
      in = toBuffer(loc, input, op.getKey());
      out = alloc(loc, callOut);
    }
    int64_t bytes =
        inType.getNumElements() * elementBytes(inType.getElementType());
    auto emit = [&](Location l, Value ctxArg, Value fn,
                    ArrayRef<Value> p) -> Value {
      Value g = address(l, groupSym);
      Value d = constant(l, i32, *dtype);
      Value n = constant(l, i64, count);
      if (root) {
        // broadcast works in place: start from this member's input.
        LLVM::MemcpyOp::create(b, l, p[1], p[0], constant(l, i64, bytes),
                               /*isVolatile=*/false);
        return indirectCall(l, fn, {ptr, ptr, i32, i32, ptr, i64},
                            {ctxArg, g, constant(l, i32, *root), d, p[1], n});
      }
      if (reduction) {
        return indirectCall(
            l, fn, {ptr, ptr, i32, i32, ptr, ptr, i64},
            {ctxArg, g, constant(l, i32, *reduction), d, p[0], p[1], n});
      }
      return indirectCall(l, fn, {ptr, ptr, i32, ptr, ptr, i64},
                          {ctxArg, g, d, p[0], p[1], n});
    };
    StringRef kind = raw->getName().stripDialect();
    if (isa<dist::AllReduceOp>(raw) && raw->hasAttr(transforms::kOverlapAttr)) {
      auto emitStart = [&](Location l, Value ctxArg, Value fn,
                           ArrayRef<Value> p, Value request) -> Value {
        return indirectCall(l, fn, {ptr, ptr, i32, i32, ptr, ptr, i64, ptr},
                            {ctxArg, address(l, groupSym),
                             constant(l, i32, *reduction),
                             constant(l, i32, *dtype), p[0], p[1],
                             constant(l, i64, count), request});
      };
      startAndWait(raw, input, in, out, emit, emitStart,
                   /*inputWritten=*/bucket);
    } else {
      callHelper(raw, kind, service, {in, out}, emit);
    }
    Value result = toTensor(loc, callOut, out);
    if (split) {
      result = concatBlocks(loc, result, groupSize, *split, *concat);
    } else if (moved) {
      result = moveAxis(b, loc, result, 0, *moved);
    }
    raw->getResult(0).replaceAllUsesWith(result);
    raw->erase();
    return success();
  }

  /// The op before which a started collective's result must be there: the
  /// first op of the task's body that uses `op`'s result (or holds a use),
  /// else the load of the status the task returns.
  Operation *firstUse(Operation *op) {
    Block *block = op->getBlock();
    Operation *first =
        statusLoad->getBlock() == block ? statusLoad : block->getTerminator();
    for (Operation *user : op->getResult(0).getUsers()) {
      Operation *top = block->findAncestorOpInBlock(*user);
      if (!top) {
        // A use in another block of graphc_task_run: wait before this
        // block ends.
        top = block->getTerminator();
      }
      if (top->isBeforeInBlock(first)) {
        first = top;
      }
    }
    return first;
  }

  using EmitStart =
      llvm::function_ref<Value(Location loc, Value ctxArg, Value fn,
                               ArrayRef<Value> pointers, Value request)>;

  /// A `dist.overlap` all-reduce (dist-overlap-collectives): a helper that
  /// calls all_reduce_start where `op` stands (`emitStart`; the blocking
  /// all_reduce through `emit` when the runtime's table has no
  /// all_reduce_start), and one that waits on the request just before the
  /// first use of the result, leaving the insertion point after it. The
  /// wait helper waits even when an earlier call failed, so that no
  /// collective still writes into the step's buffers once it returns; it
  /// reads `input` again (a second to_buffer), so that bufferization keeps
  /// the input's buffer unwritten and alive until then. `inputWritten`: `in`
  /// is a writable to_buffer (a bucket reduced in place), whose buffer the
  /// analysis takes as written at the start; the wait then takes `in`
  /// itself, which keeps it alive (a second read of `input` after that
  /// write would make bufferization copy the bucket).
  void startAndWait(Operation *op, Value input, Value in, Value out,
                    EmitCall emit, EmitStart emitStart, bool inputWritten) {
    Location loc = op->getLoc();
    Operation *waitAt = firstUse(op);
    Value request;
    {
      // The request id, 0 while none is in flight.
      OpBuilder::InsertionGuard guard(b);
      b.setInsertionPointToStart(&run.getBody().front());
      request = LLVM::AllocaOp::create(b, loc, ptr, i64, constant(loc, i64, 1));
      LLVM::StoreOp::create(b, loc, constant(loc, i64, 0), request);
    }
    constexpr int64_t kWithStart =
        offsetof(graphrt_services_v1_t, wait) + sizeof(void *);
    helper(op, "all_reduce_start", {request}, {in, out},
           [&](Location l, Block *body) {
             Value ctxArg = body->getArgument(0);
             Value services = body->getArgument(1);
             Value statusSlot = body->getArgument(2);
             Value requestSlot = body->getArgument(3);
             auto ifOk = ifNoFailure(l, statusSlot);
             b.setInsertionPointToStart(ifOk.thenBlock());
             SmallVector<Value> p = {dataPointer(l, body->getArgument(4)),
                                     dataPointer(l, body->getArgument(5))};
             // The entry exists only in a table of struct_size >= kWithStart.
             Value size = LLVM::LoadOp::create(b, l, i64, services);
             Value big =
                 LLVM::ICmpOp::create(b, l, LLVM::ICmpPredicate::uge, size,
                                      constant(l, i64, kWithStart));
             auto pick = scf::IfOp::create(
                 b, l, big,
                 [&](OpBuilder &, Location l2) {
                   scf::YieldOp::create(
                       b, l2,
                       serviceEntry(l2, services,
                                    SERVICE_INDEX(all_reduce_start)));
                 },
                 [&](OpBuilder &, Location l2) {
                   scf::YieldOp::create(
                       b, l2, ValueRange{LLVM::ZeroOp::create(b, l2, ptr)});
                 });
             Value startFn = pick.getResult(0);
             Value none =
                 LLVM::ICmpOp::create(b, l, LLVM::ICmpPredicate::eq, startFn,
                                      LLVM::ZeroOp::create(b, l, ptr));
             auto call = scf::IfOp::create(
                 b, l, none,
                 [&](OpBuilder &, Location l2) {
                   Value fn =
                       serviceEntry(l2, services, SERVICE_INDEX(all_reduce));
                   scf::YieldOp::create(b, l2, emit(l2, ctxArg, fn, p));
                 },
                 [&](OpBuilder &, Location l2) {
                   scf::YieldOp::create(
                       b, l2, emitStart(l2, ctxArg, startFn, p, requestSlot));
                 });
             LLVM::StoreOp::create(b, l, call.getResult(0), statusSlot);
           });

    b.setInsertionPoint(waitAt);
    auto key = cast<dist::AllReduceOp>(op).getKey();
    Value inAgain =
        inputWritten ? in : toBuffer(loc, input, (key + "/wait").str());
    helper(op, "wait", {request}, {inAgain, out}, [&](Location l, Block *body) {
      Value ctxArg = body->getArgument(0);
      Value services = body->getArgument(1);
      Value statusSlot = body->getArgument(2);
      Value requestSlot = body->getArgument(3);
      Value id = LLVM::LoadOp::create(b, l, i64, requestSlot);
      Value has = LLVM::ICmpOp::create(b, l, LLVM::ICmpPredicate::ne, id,
                                       constant(l, i64, 0));
      auto ifHas = scf::IfOp::create(b, l, has, /*withElseRegion=*/false);
      b.setInsertionPointToStart(ifHas.thenBlock());
      LLVM::StoreOp::create(b, l, constant(l, i64, 0), requestSlot);
      Value st = indirectCall(l, serviceEntry(l, services, SERVICE_INDEX(wait)),
                              {ptr, i64}, {ctxArg, id});
      // The first failure is the step's; a later one is released.
      Value prev = LLVM::LoadOp::create(b, l, ptr, statusSlot);
      Value first = LLVM::ICmpOp::create(b, l, LLVM::ICmpPredicate::eq, prev,
                                         LLVM::ZeroOp::create(b, l, ptr));
      auto keep = scf::IfOp::create(b, l, first, /*withElseRegion=*/true);
      b.setInsertionPointToStart(keep.thenBlock());
      LLVM::StoreOp::create(b, l, st, statusSlot);
      b.setInsertionPointToStart(keep.elseBlock());
      Value release = serviceEntry(l, services, SERVICE_INDEX(status_release));
      LLVM::CallOp::create(
          b, l,
          LLVM::LLVMFunctionType::get(LLVM::LLVMVoidType::get(ctx), {ptr}),
          ValueRange{release, st});
    });
  }

  func::FuncOp run;
  ModuleOp module;
  StringRef self;
  const TaskNames &names;
  MLIRContext *ctx;
  OpBuilder b;
  Type ptr, i32, i64;
  Value slot;
  // The load of `slot` that graphc_task_run returns.
  Operation *statusLoad = nullptr;
  unsigned helpers = 0;
  llvm::DenseMap<std::pair<Attribute, Type>, StringRef> globals;
  SmallVector<Attribute> channels;
  SmallVector<std::pair<std::string, SmallVector<std::string>>> groups;
  llvm::StringSet<> groupSeen;
};

} // namespace

LogicalResult lowerCommunication(func::FuncOp run, StringRef self,
                                 const TaskNames &names) {
  return Lowering(run, self, names).lower();
}

} // namespace graphc
