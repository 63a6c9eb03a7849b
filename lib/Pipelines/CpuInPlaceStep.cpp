//===- CpuInPlaceStep.cpp - bucket members and updates where they end up --===//
//
// A data-parallel training step writes its gradients into one bucket for the
// all-reduce and its updated weights back into the variables. Lowered as
// values, both are copies: the gradients are concatenated into the bucket
// (`tensor.concat`), each update goes into a new buffer that the task copies
// into its variable. This pass rewrites the destinations before bufferization
// so that One-Shot Bufferize writes each value where it ends up: a gradient
// into its slice of the bucket, an update into its variable. The analysis
// still decides every buffer: where a rewrite would clobber a value that is
// read later, it allocates as before.
//
//===----------------------------------------------------------------------===//

#include "CpuPasses.h"

#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Builders.h"
#include "mlir/Interfaces/DestinationStyleOpInterface.h"

namespace graphc {
#define GEN_PASS_DEF_CPUINPLACESTEP
#include "CpuPasses.h.inc"
} // namespace graphc

using namespace mlir;

namespace {

/// The op of `block` that holds the definition of `v`, or null when `v` is
/// defined before the block's ops (a block argument, an outer op).
Operation *definitionIn(Block *block, Value v) {
  Operation *def = v.getDefiningOp();
  return def ? block->findAncestorOpInBlock(*def) : nullptr;
}

/// `a` is before `b` in their block; null is the block's start.
bool before(Operation *a, Operation *b) {
  if (!b) {
    return false;
  }
  return !a || a->isBeforeInBlock(b);
}

/// The destination-style ops of `block` that make `v`, from the first (whose
/// init is a `tensor.empty`) to the one that returns `v`, each result in the
/// chain used once (by the next op, the last by `v`'s one user). A
/// `linalg.fill` of a `tensor.empty` that CSE shared between several ops is
/// cloned for the chain.
std::optional<SmallVector<DestinationStyleOpInterface>>
destinationChain(Block *block, Value v) {
  SmallVector<DestinationStyleOpInterface> chain;
  while (true) {
    auto result = dyn_cast<OpResult>(v);
    if (!result || !v.hasOneUse()) {
      return std::nullopt;
    }
    auto op = dyn_cast<DestinationStyleOpInterface>(result.getOwner());
    if (!op || op->getBlock() != block || !op.hasPureTensorSemantics()) {
      return std::nullopt;
    }
    chain.push_back(op);
    OpOperand *init = op.getTiedOpOperand(result);
    if (init->get().getDefiningOp<tensor::EmptyOp>()) {
      std::reverse(chain.begin(), chain.end());
      return chain;
    }
    auto fill = init->get().getDefiningOp<linalg::FillOp>();
    if (fill && !init->get().hasOneUse() && fill->getBlock() == block &&
        fill.getOutputs().front().getDefiningOp<tensor::EmptyOp>()) {
      OpBuilder b(op);
      init->set(b.clone(*fill)->getResult(0));
    }
    v = init->get();
  }
}

/// The result of `op` that the chain goes on with: the one with a use.
OpResult chainResult(DestinationStyleOpInterface op) {
  for (OpResult r : op->getResults()) {
    if (!r.use_empty()) {
      return r;
    }
  }
  return op->getResult(0);
}

/// A member of a bucket: `insert` puts `insert.getSource()` at `offset`.
struct Member {
  tensor::InsertSliceOp insert;
  int64_t offset;
};

struct CpuInPlaceStep
    : public graphc::impl::CpuInPlaceStepBase<CpuInPlaceStep> {
  void runOnOperation() override {
    func::FuncOp fn = getOperation();
    SmallVector<tensor::ConcatOp> concats;
    fn.walk([&](tensor::ConcatOp op) { concats.push_back(op); });
    for (tensor::ConcatOp op : concats) {
      asInserts(op);
    }
    // Buckets: chains of inserts into a rank-1 tensor.empty, from the last.
    SmallVector<SmallVector<Member>> buckets;
    fn.walk([&](tensor::InsertSliceOp op) {
      if (auto members = bucketEndingAt(op)) {
        buckets.push_back(std::move(*members));
      }
    });
    for (SmallVector<Member> &members : buckets) {
      bucket(members);
    }
    if (!fn.getBody().empty()) {
      updatesInPlace(fn.getBody().front());
    }
  }

  /// A rank-1 concat as a chain of inserts into a `tensor.empty`, as
  /// upstream's decomposition writes it.
  static void asInserts(tensor::ConcatOp concat) {
    auto type = cast<RankedTensorType>(concat.getType());
    if (type.getRank() != 1 || !type.hasStaticShape() ||
        !llvm::all_of(concat.getInputs(), [](Value v) {
          return cast<RankedTensorType>(v.getType()).hasStaticShape();
        })) {
      return;
    }
    OpBuilder b(concat);
    Location loc = concat.getLoc();
    Value current =
        tensor::EmptyOp::create(b, loc, type.getShape(), type.getElementType());
    int64_t offset = 0;
    for (Value member : concat.getInputs()) {
      int64_t n = cast<RankedTensorType>(member.getType()).getNumElements();
      current = tensor::InsertSliceOp::create(
          b, loc, member, current,
          ArrayRef<OpFoldResult>{b.getIndexAttr(offset)},
          ArrayRef<OpFoldResult>{b.getIndexAttr(n)},
          ArrayRef<OpFoldResult>{b.getIndexAttr(1)});
      offset += n;
    }
    concat.replaceAllUsesWith(current);
    concat.erase();
  }

  /// When `last` ends a chain of rank-1 inserts of static slices, each
  /// insert the only use of the one before, that starts at a `tensor.empty`
  /// in the same block: its members, first to last.
  static std::optional<SmallVector<Member>>
  bucketEndingAt(tensor::InsertSliceOp last) {
    auto isMember = [](tensor::InsertSliceOp op) {
      return op.getDestType().getRank() == 1 &&
             op.getDestType().hasStaticShape() &&
             op.getSourceType().hasStaticShape() &&
             !ShapedType::isDynamic(op.getStaticOffsets()[0]) &&
             op.getStaticStrides()[0] == 1 &&
             op.getStaticSizes()[0] == op.getSourceType().getNumElements();
    };
    if (!isMember(last)) {
      return std::nullopt;
    }
    // Not the end of a chain when the next op inserts into it.
    if (last->hasOneUse()) {
      auto next = dyn_cast<tensor::InsertSliceOp>(*last->getUsers().begin());
      if (next && next.getDest() == last.getResult() && isMember(next)) {
        return std::nullopt;
      }
    }
    SmallVector<Member> members;
    tensor::InsertSliceOp op = last;
    while (true) {
      if (!isMember(op) || op->getBlock() != last->getBlock()) {
        return std::nullopt;
      }
      members.push_back({op, op.getStaticOffsets()[0]});
      Value dest = op.getDest();
      if (dest.getDefiningOp<tensor::EmptyOp>()) {
        break;
      }
      auto prev = dest.getDefiningOp<tensor::InsertSliceOp>();
      if (!prev || !dest.hasOneUse()) {
        return std::nullopt;
      }
      op = prev;
    }
    if (members.size() < 2) {
      return std::nullopt;
    }
    std::reverse(members.begin(), members.end());
    return members;
  }

  /// Each member of a bucket inserted right where it is made and, where its
  /// destination chain allows, made in its slice of the bucket.
  void bucket(ArrayRef<Member> members) {
    tensor::InsertSliceOp first = members.front().insert;
    Block *block = first->getBlock();
    Location loc = first.getLoc();
    OpBuilder b(first);
    // The bucket: where an all-reduce reduces it into a buffer
    // allocated before it (convert-dist-to-runtime), that buffer as a
    // tensor, so that the all-reduce runs in place; else a tensor.empty of
    // its own (CSE may share one between several ops) at the block's start.
    // Members made before it are copied in.
    auto type = first.getDestType();
    Value current;
    if (memref::AllocOp alloc = resultBufferOf(first, members.back().insert)) {
      b.setInsertionPointAfter(alloc);
      current = bufferization::ToTensorOp::create(
          b, loc, type, alloc, /*restrict=*/true, /*writable=*/true);
    } else {
      b.setInsertionPointToStart(block);
      current = tensor::EmptyOp::create(b, loc, type.getShape(),
                                        type.getElementType());
    }
    Value oldBase = first.getDest();
    first.getDestMutable().set(current);
    if (oldBase.use_empty()) {
      oldBase.getDefiningOp()->erase();
    }
    Operation *currentDef = current.getDefiningOp();
    for (Member m : members) {
      Value member = m.insert.getSource();
      int64_t n = m.insert.getSourceType().getNumElements();
      // The member's value before a flattening collapse_shape, which moves
      // up to it so that the member is ready (and inserted) where it is
      // made.
      Value source = member;
      auto collapse = member.getDefiningOp<tensor::CollapseShapeOp>();
      if (collapse && collapse->getBlock() == block && member.hasOneUse()) {
        source = collapse.getSrc();
        if (Operation *def = definitionIn(block, source)) {
          collapse->moveAfter(def);
        }
      }
      std::optional<SmallVector<DestinationStyleOpInterface>> chain;
      if (member.hasOneUse() &&
          cast<RankedTensorType>(source.getType()).getRank() > 0) {
        chain = destinationChain(block, source);
      }
      if (chain && canMakeAfter(*chain, currentDef)) {
        // Fills that come before the previous insert move down to it.
        Operation *at = currentDef;
        for (DestinationStyleOpInterface op : *chain) {
          if (op->isBeforeInBlock(currentDef)) {
            op->moveAfter(at);
            at = op;
          }
        }
        DestinationStyleOpInterface head = chain->front();
        OpOperand *init = head.getTiedOpOperand(chainResult(head));
        auto initType = cast<RankedTensorType>(init->get().getType());
        b.setInsertionPoint(head);
        Value slice = tensor::ExtractSliceOp::create(
            b, loc, current, ArrayRef<OpFoldResult>{b.getIndexAttr(m.offset)},
            ArrayRef<OpFoldResult>{b.getIndexAttr(n)},
            ArrayRef<OpFoldResult>{b.getIndexAttr(1)});
        if (initType.getRank() != 1) {
          ReassociationIndices all;
          for (int64_t d = 0; d < initType.getRank(); ++d) {
            all.push_back(d);
          }
          slice = tensor::ExpandShapeOp::create(
              b, loc, initType, slice, ArrayRef<ReassociationIndices>{all});
        }
        init->set(slice);
        ++numMembersInPlace;
      }
      // The insert goes after both the member and the bucket so far.
      Operation *at = currentDef;
      if (Operation *def = definitionIn(block, member);
          def && before(currentDef, def)) {
        at = def;
      }
      m.insert->moveAfter(at);
      m.insert.getDestMutable().set(current);
      current = m.insert.getResult();
      currentDef = m.insert;
    }
  }

  /// The buffer that an all-reduce of the bucket ending at `last` writes
  /// its result into (convert-dist-to-runtime): `last`'s one user is a
  /// writable `to_buffer` whose users are calls (the blocking call, or a
  /// started one's start and wait), each taking it and then the same
  /// `memref.alloc` of `last`'s block that comes before `first`.
  static memref::AllocOp resultBufferOf(tensor::InsertSliceOp first,
                                        tensor::InsertSliceOp last) {
    if (!last->hasOneUse()) {
      return nullptr;
    }
    auto toBuffer =
        dyn_cast<bufferization::ToBufferOp>(*last->getUsers().begin());
    if (!toBuffer || toBuffer.getReadOnly() || toBuffer->use_empty()) {
      return nullptr;
    }
    memref::AllocOp alloc;
    for (Operation *user : toBuffer->getUsers()) {
      auto call = dyn_cast<func::CallOp>(user);
      if (!call) {
        return nullptr;
      }
      SmallVector<Value> args(call.getArgOperands());
      auto at = llvm::find(args, toBuffer.getResult());
      if (at == args.end() || std::next(at) == args.end()) {
        return nullptr;
      }
      auto out = std::next(at)->getDefiningOp<memref::AllocOp>();
      if (!out || (alloc && out != alloc)) {
        return nullptr;
      }
      alloc = out;
    }
    if (alloc->getBlock() != last->getBlock() ||
        !alloc->isBeforeInBlock(first) ||
        alloc.getType() != toBuffer.getType()) {
      return nullptr;
    }
    return alloc;
  }

  /// True when `chain` can write into a slice of the bucket value defined by
  /// `currentDef`: its last op comes after it, and every op of it before
  /// that is a fill (it moves down).
  static bool canMakeAfter(ArrayRef<DestinationStyleOpInterface> chain,
                           Operation *currentDef) {
    if (!currentDef->isBeforeInBlock(chain.back())) {
      return false;
    }
    return llvm::all_of(chain.drop_back(), [&](DestinationStyleOpInterface op) {
      return currentDef->isBeforeInBlock(op) || isa<linalg::FillOp>(op);
    });
  }

  /// Variable updates written into the variable: for each `memref.copy` of
  /// a `to_buffer` of a value into an argument that the function otherwise
  /// only reads through one `to_tensor`, the op making the value takes that
  /// `to_tensor` as its init (instead of a `tensor.empty`).
  void updatesInPlace(Block &entry) {
    SmallVector<memref::CopyOp> copies;
    for (Operation &op : entry) {
      if (auto copy = dyn_cast<memref::CopyOp>(op)) {
        copies.push_back(copy);
      }
    }
    for (memref::CopyOp copy : copies) {
      auto arg = dyn_cast<BlockArgument>(copy.getTarget());
      auto toBuffer =
          copy.getSource().getDefiningOp<bufferization::ToBufferOp>();
      if (!arg || arg.getOwner() != &entry || !toBuffer ||
          !toBuffer->hasOneUse()) {
        continue;
      }
      bufferization::ToTensorOp variable;
      bool otherUse = false;
      for (Operation *user : arg.getUsers()) {
        auto t = dyn_cast<bufferization::ToTensorOp>(user);
        if (t && !variable && t->getBlock() == &entry) {
          variable = t;
        } else if (user != copy) {
          otherUse = true;
        }
      }
      Value value = toBuffer.getTensor();
      auto result = dyn_cast<OpResult>(value);
      if (!variable || otherUse || !result || !value.hasOneUse()) {
        continue;
      }
      auto op = dyn_cast<DestinationStyleOpInterface>(result.getOwner());
      Operation *top = op ? entry.findAncestorOpInBlock(*op) : nullptr;
      if (!top || !op.hasPureTensorSemantics() ||
          !variable->isBeforeInBlock(top)) {
        continue;
      }
      OpOperand *init = op.getTiedOpOperand(result);
      if (!init->get().getDefiningOp<tensor::EmptyOp>() ||
          init->get().getType() != variable.getType()) {
        continue;
      }
      init->set(variable.getResult());
      variable.setWritable(true);
      if (auto generic = dyn_cast<linalg::GenericOp>(op.getOperation())) {
        readFromInit(generic, init);
      }
      ++numUpdatesInPlace;
    }
  }

  /// Where `generic` also reads its init `init` as an input with the init's
  /// indexing map, its payload reads the init's block argument instead and
  /// the input goes: a read-modify-write of one buffer, which stays in place
  /// once tiled (an input and an output on one buffer would not).
  static void readFromInit(linalg::GenericOp generic, OpOperand *init) {
    AffineMap initMap = generic.getMatchingIndexingMap(init);
    Block &body = generic.getRegion().front();
    BlockArgument initArg = generic.getMatchingBlockArgument(init);
    SmallVector<Value> inputs;
    SmallVector<AffineMap> maps;
    SmallVector<unsigned> dropped;
    for (OpOperand *in : generic.getDpsInputOperands()) {
      if (in->get() == init->get() &&
          generic.getMatchingIndexingMap(in) == initMap) {
        dropped.push_back(in->getOperandNumber());
        continue;
      }
      inputs.push_back(in->get());
      maps.push_back(generic.getMatchingIndexingMap(in));
    }
    if (dropped.empty()) {
      return;
    }
    for (OpOperand &out : generic.getDpsInitsMutable()) {
      maps.push_back(generic.getMatchingIndexingMap(&out));
    }
    for (unsigned i : dropped) {
      body.getArgument(i).replaceAllUsesWith(initArg);
    }
    OpBuilder b(generic);
    auto replacement = linalg::GenericOp::create(
        b, generic.getLoc(), generic->getResultTypes(), inputs,
        generic.getOutputs(), maps, generic.getIteratorTypesArray());
    replacement.getRegion().takeBody(generic.getRegion());
    Block &moved = replacement.getRegion().front();
    for (unsigned i : llvm::reverse(dropped)) {
      moved.eraseArgument(i);
    }
    generic.replaceAllUsesWith(replacement);
    generic.erase();
  }
};

} // namespace
