//===- FuseCollectives.cpp - bucket all-reduces of one group --------------===//
//
// Horovod's tensor fusion as an IR rewrite: many small all-reduces (one per
// gradient) cost one latency each; flattened, concatenated and all-reduced
// together they cost one per bucket. Buckets are decided once per group from
// every member task, so all members fuse the same keys in the same order
// and the collectives still pair up.
//
// A float mean joins the sum bucket of its group (a data-parallel step's
// loss, beside its gradients): the bucket is summed and the mean's slice
// divided by the group's size afterwards, as the runtime's mean does (sum,
// then one f32/f64 division), so the result is the same to the bit and the
// step makes one collective fewer.
//
//===----------------------------------------------------------------------===//

#include "graphc/Transforms/Placement.h"

#include "graph/GraphOps.h"
#include "graphc/Transforms/Passes.h"

#include "mlir/IR/Builders.h"
#include "llvm/ADT/MapVector.h"

namespace graphc {
#define GEN_PASS_DEF_DISTFUSECOLLECTIVES
#include "graphc/Transforms/Passes.h.inc"
} // namespace graphc

using namespace mlir;
using namespace graphc;
using namespace graphc::transforms;

namespace {

/// Whether an all-reduce with `reduction` over `elementType` may share a
/// sum bucket: a sum, or a mean of f32/f64, whose runtime form (sum, then
/// one division in the element type) the bucket's slice repeats exactly.
/// Not a mean of f16/bf16 (the runtime divides before rounding) or of
/// integers.
static bool summable(dist::ReductionKind reduction, Type elementType) {
  return reduction == dist::ReductionKind::sum ||
         (reduction == dist::ReductionKind::mean &&
          (elementType.isF32() || elementType.isF64()));
}

/// What must agree for two all-reduces to share a buffer (a summable mean
/// counts as a sum).
struct FusionClass {
  ArrayAttr group;
  dist::ReductionKind reduction;
  Type elementType;
  bool operator==(const FusionClass &o) const {
    return group == o.group && reduction == o.reduction &&
           elementType == o.elementType;
  }
};

/// Positions of a task body's ops, and where each all-reduce's result is
/// first used.
struct TaskIndex {
  llvm::DenseMap<Operation *, unsigned> position;
  unsigned firstUse(dist::AllReduceOp op) {
    unsigned first = ~0u;
    for (Operation *user : op.getResult().getUsers()) {
      Operation *top = user;
      while (top->getBlock() != op->getBlock()) {
        top = top->getParentOp();
      }
      first = std::min(first, position.lookup(top));
    }
    return first;
  }
};

static std::optional<int64_t> bytesOf(RankedTensorType type) {
  if (!type.hasStaticShape() || !type.getElementType().isIntOrFloat()) {
    return std::nullopt;
  }
  return type.getNumElements() *
         ((type.getElementType().getIntOrFloatBitWidth() + 7) / 8);
}

struct DistFuseCollectivesPass
    : public graphc::impl::DistFuseCollectivesBase<DistFuseCollectivesPass> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    if (bucketBytes <= 0) {
      module.emitError() << "dist-fuse-collectives: bucket-bytes="
                         << static_cast<int64_t>(bucketBytes)
                         << " must be positive";
      return signalPassFailure();
    }
    // Every instance of every all-reduce key, and each task's op order.
    llvm::MapVector<StringRef, SmallVector<dist::AllReduceOp>> byKey;
    llvm::DenseMap<Operation *, TaskIndex> indexes;
    for (auto task : module.getOps<dist::TaskOp>()) {
      TaskIndex &index = indexes[task];
      for (auto [i, op] : llvm::enumerate(task.getBody().front())) {
        index.position[&op] = i;
      }
      task.getBody().front().walk([&](dist::AllReduceOp op) {
        if (op->getBlock() == &task.getBody().front()) {
          byKey[op.getKey()].push_back(op);
        }
      });
    }

    // The keys of each class, in program order (the same in every member
    // task: partitioning emits collectives in one global order).
    SmallVector<std::pair<FusionClass, SmallVector<StringRef>>> classes;
    for (auto &[key, ops] : byKey) {
      auto type = cast<RankedTensorType>(ops.front().getInput().getType());
      if (!bytesOf(type)) {
        continue;
      }
      dist::ReductionKind reduction = ops.front().getReduction();
      if (summable(reduction, type.getElementType())) {
        reduction = dist::ReductionKind::sum;
      }
      FusionClass cls{ops.front().getGroup(), reduction, type.getElementType()};
      auto it = llvm::find_if(classes, [&](auto &c) { return c.first == cls; });
      if (it == classes.end()) {
        classes.push_back({cls, {}});
        it = std::prev(classes.end());
      }
      it->second.push_back(key);
    }

    for (auto &[cls, keys] : classes) {
      SmallVector<StringRef> bucket;
      int64_t bytes = 0;
      for (StringRef key : keys) {
        int64_t size = *bytesOf(
            cast<RankedTensorType>(byKey[key].front().getInput().getType()));
        if (!bucket.empty() && (bytes + size > bucketBytes ||
                                !canJoin(bucket, key, byKey, indexes))) {
          fuse(bucket, byKey);
          bucket.clear();
          bytes = 0;
        }
        bucket.push_back(key);
        bytes += size;
      }
      fuse(bucket, byKey);
    }
  }

  /// True when, in every task, no result of the bucket is used before `key`
  /// runs: the fused op then sits where `key` was without any use of a
  /// result moving before it (and `key` cannot depend on the bucket).
  bool
  canJoin(ArrayRef<StringRef> bucket, StringRef key,
          llvm::MapVector<StringRef, SmallVector<dist::AllReduceOp>> &byKey,
          llvm::DenseMap<Operation *, TaskIndex> &indexes) {
    for (dist::AllReduceOp next : byKey[key]) {
      Operation *task = next->getParentOp();
      TaskIndex &index = indexes[task];
      unsigned at = index.position.lookup(next);
      for (StringRef member : bucket) {
        for (dist::AllReduceOp op : byKey[member]) {
          if (op->getParentOp() == task && index.firstUse(op) <= at) {
            return false;
          }
        }
      }
    }
    return true;
  }

  /// Replaces the all-reduces of `bucket` in each task by one over their
  /// flattened concatenation, placed where the last one was. A bucket of
  /// sums and means is summed, the means last (the sums keep the offsets
  /// they would have alone) and each mean's slice divided by the group's
  /// size.
  void fuse(ArrayRef<StringRef> bucket,
            llvm::MapVector<StringRef, SmallVector<dist::AllReduceOp>> &byKey) {
    if (bucket.size() < 2) {
      return;
    }
    std::string key = (bucket.front() + ".." + bucket.back()).str();
    for (dist::AllReduceOp last : byKey[bucket.back()]) {
      Operation *task = last->getParentOp();
      SmallVector<dist::AllReduceOp> members;
      for (StringRef k : bucket) {
        for (dist::AllReduceOp op : byKey[k]) {
          if (op->getParentOp() == task) {
            members.push_back(op);
          }
        }
      }
      dist::ReductionKind reduction = last.getReduction();
      if (llvm::any_of(members, [&](dist::AllReduceOp op) {
            return op.getReduction() != reduction;
          })) {
        reduction = dist::ReductionKind::sum;
      }
      std::stable_partition(
          members.begin(), members.end(),
          [&](dist::AllReduceOp op) { return op.getReduction() == reduction; });
      OpBuilder b(last);
      Location loc = b.getFusedLoc(llvm::map_to_vector(
          members, [](dist::AllReduceOp op) { return op.getLoc(); }));
      SmallVector<Value> flat;
      int64_t total = 0;
      for (dist::AllReduceOp op : members) {
        auto type = cast<RankedTensorType>(op.getInput().getType());
        total += type.getNumElements();
        flat.push_back(
            type.getRank() == 1
                ? op.getInput()
                : graph::ReshapeOp::create(
                      b, op.getLoc(),
                      RankedTensorType::get({type.getNumElements()},
                                            type.getElementType()),
                      op.getInput(),
                      b.getDenseI64ArrayAttr({type.getNumElements()}))
                      .getResult());
      }
      auto flatType = RankedTensorType::get(
          {total}, members.front().getInput().getType().getElementType());
      Value joined = graph::ConcatOp::create(b, loc, flatType, flat, 0);
      auto fused = dist::AllReduceOp::create(b, loc, flatType, reduction,
                                             joined, last.getGroup(), key);
      int64_t offset = 0;
      for (dist::AllReduceOp op : members) {
        auto type = cast<RankedTensorType>(op.getInput().getType());
        int64_t n = type.getNumElements();
        Value part = graph::SliceOp::create(
            b, op.getLoc(), RankedTensorType::get({n}, type.getElementType()),
            fused.getResult(), b.getDenseI64ArrayAttr({offset}),
            b.getDenseI64ArrayAttr({offset + n}), b.getDenseI64ArrayAttr({1}));
        if (op.getReduction() != reduction) {
          // A mean in a sum bucket: the sum over the group's size.
          auto scalar = RankedTensorType::get({}, type.getElementType());
          auto size = graph::ConstantOp::create(
              b, op.getLoc(),
              DenseElementsAttr::get(
                  scalar, ArrayRef<Attribute>{b.getFloatAttr(
                              type.getElementType(),
                              static_cast<double>(last.getGroup().size()))}));
          part =
              graph::DivOp::create(b, op.getLoc(), part.getType(), part, size);
        }
        Value shaped = part;
        if (type.getRank() != 1) {
          shaped =
              graph::ReshapeOp::create(b, op.getLoc(), type, part,
                                       b.getDenseI64ArrayAttr(type.getShape()));
        }
        op.getResult().replaceAllUsesWith(shaped);
        offset += n;
      }
      for (dist::AllReduceOp op : members) {
        op.erase();
      }
      numFused += members.size() - 1;
    }
  }
};

} // namespace
