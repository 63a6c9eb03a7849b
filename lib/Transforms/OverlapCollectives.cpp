//===- OverlapCollectives.cpp - all-reduces that overlap the backward pass ===//
//
// Moves each top-level `dist.all_reduce` of a task up to just after its
// input and its side-effect-free users down to their own first use, and marks
// it (`dist.overlap`) when the task has work to do in between:
// dist-to-runtime lowers a marked op to all_reduce_start where it stands and
// wait before the first use of its result. An all-reduce never moves past
// another communication op, so every task keeps its communication in the
// order partitioning gave it, the same on every member of a group: the
// runtime runs started collectives in start order, and the members pair up
// as the blocking calls did.
//
//===----------------------------------------------------------------------===//

#include "graphc/Transforms/Placement.h"

#include "graphc/Transforms/Passes.h"

#include "mlir/IR/Builders.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/SmallPtrSet.h"

namespace graphc {
#define GEN_PASS_DEF_DISTOVERLAPCOLLECTIVES
#include "graphc/Transforms/Passes.h.inc"
} // namespace graphc

using namespace mlir;
using namespace graphc;

namespace {

bool isCommunication(Operation *op) {
  return isa<dist::SendOp, dist::RecvOp, dist::CollectiveOpInterface>(op);
}

/// The op of `body` that is or holds `op`.
Operation *inBody(Operation *op, Block &body) {
  while (op && op->getBlock() != &body) {
    op = op->getParentOp();
  }
  return op;
}

/// Moves each side-effect-free op of `body` that uses `value`, and
/// recursively theirs, down to just before its first user, so that the wait
/// on a started all-reduce lands where its result is really needed:
/// dist-fuse-collectives leaves a bucket's slices and reshapes right after
/// the fused op, while the optimizer update that reads them comes after the
/// rest of the backward pass. Returns the number of ops moved.
unsigned sinkUsers(Value value, Block &body,
                   llvm::SmallPtrSetImpl<Operation *> &done) {
  unsigned moved = 0;
  for (Operation *user : llvm::make_early_inc_range(value.getUsers())) {
    if (user->getBlock() != &body || user->getNumRegions() != 0 ||
        !isMemoryEffectFree(user) || isCommunication(user) ||
        !done.insert(user).second) {
      continue;
    }
    for (Value result : user->getResults()) {
      moved += sinkUsers(result, body, done);
    }
    Operation *first = nullptr;
    for (Value result : user->getResults()) {
      for (Operation *use : result.getUsers()) {
        Operation *top = inBody(use, body);
        if (!first || top->isBeforeInBlock(first)) {
          first = top;
        }
      }
    }
    if (first && user->getNextNode() != first) {
      user->moveBefore(first);
      ++moved;
    }
  }
  return moved;
}

/// Whether an op between a start and its wait is work the task's thread
/// can do meanwhile (not a constant, a variable read or a view).
bool isWork(Operation *op) {
  if (op->hasTrait<OpTrait::ConstantLike>()) {
    return false;
  }
  StringRef name = op->getName().getStringRef();
  return name != "graph.read_variable" && name != "graph.reshape" &&
         name != "graph.slice";
}

/// The first op of `body` that uses `op`'s results, or the terminator.
Operation *firstUser(Operation *op, Block &body) {
  Operation *first = body.getTerminator();
  for (Operation *use : op->getUsers()) {
    Operation *top = inBody(use, body);
    if (top->isBeforeInBlock(first)) {
      first = top;
    }
  }
  return first;
}

struct DistOverlapCollectivesPass
    : public graphc::impl::DistOverlapCollectivesBase<
          DistOverlapCollectivesPass> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    for (auto task : module.getOps<dist::TaskOp>()) {
      Block &body = task.getBody().front();
      // The op after which the next collective may start: the last
      // communication op seen so far (null: the start of the body).
      Operation *lastComm = nullptr;
      // Collected first: the ops move while they are visited.
      SmallVector<Operation *> comms;
      for (Operation &op : body) {
        if (isCommunication(&op)) {
          comms.push_back(&op);
        }
      }
      for (Operation *op : comms) {
        auto ar = dyn_cast<dist::AllReduceOp>(op);
        if (!ar) {
          lastComm = op;
          continue;
        }
        // The latest of the input's definition (or its ancestor in the
        // body) and the previous communication op.
        Operation *after = lastComm;
        if (Operation *def = ar.getInput().getDefiningOp()) {
          def = inBody(def, body);
          if (def && (!after || after->isBeforeInBlock(def))) {
            after = def;
          }
        }
        if (after) {
          if (after->getNextNode() != ar) {
            ar->moveAfter(after);
            ++numHoisted;
          }
        } else if (&body.front() != ar.getOperation()) {
          ar->moveBefore(&body.front());
          ++numHoisted;
        }
        lastComm = ar;
        llvm::SmallPtrSet<Operation *, 16> done;
        numSunk += sinkUsers(ar.getResult(), body, done);
        // Marked only when the task has work to do before the result is
        // needed: otherwise the hand-over to the communication thread
        // would only add its latency (a tensor-parallel block's all-reduce
        // feeds the next op).
        Operation *use = firstUser(ar, body);
        bool work = false;
        for (Operation *it = ar->getNextNode(); it && it != use && !work;
             it = it->getNextNode()) {
          work = isWork(it);
        }
        if (work) {
          ar->setAttr(transforms::kOverlapAttr, UnitAttr::get(&getContext()));
          ++numOverlapped;
        }
      }
    }
  }
};

} // namespace
