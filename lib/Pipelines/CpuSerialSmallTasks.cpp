//===- CpuSerialSmallTasks.cpp - small scf.forall loops run serially ------===//
//
// Every scf.forall of the CPU pipeline becomes an OpenMP parallel region: a
// fork of the team, a worksharing loop and a join barrier. For a loop of a
// few thousand vector operations (a bias + ReLU on a 13x13 plane stack, a
// pooling of mnist's 14x14 planes) that costs more than the second thread
// saves, and on a loaded machine the join waits for whichever thread lost
// its core. This pass estimates each forall's work after bufferization and
// turns the small ones into serial scf.for nests.
//
//===----------------------------------------------------------------------===//

#include "CpuPasses.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/SCF/Transforms/Transforms.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/PatternMatch.h"

#include <limits>

namespace graphc {
#define GEN_PASS_DEF_CPUSERIALSMALLTASKS
#include "CpuPasses.h.inc"
} // namespace graphc

using namespace mlir;

namespace {

/// Work that cannot be bounded statically: larger than any threshold.
constexpr int64_t kUnbounded = std::numeric_limits<int64_t>::max() / 4;

int64_t addSat(int64_t a, int64_t b) {
  return a >= kUnbounded - b ? kUnbounded : a + b;
}

int64_t mulSat(int64_t a, int64_t b) {
  if (a == 0 || b == 0) {
    return 0;
  }
  return a >= kUnbounded / b ? kUnbounded : a * b;
}

/// Static trip count of a loop dimension, or -1.
int64_t tripCount(OpFoldResult lb, OpFoldResult ub, OpFoldResult step) {
  std::optional<int64_t> l = getConstantIntValue(lb);
  std::optional<int64_t> u = getConstantIntValue(ub);
  std::optional<int64_t> s = getConstantIntValue(step);
  if (!l || !u || !s || *s <= 0) {
    return -1;
  }
  return *u <= *l ? 0 : (*u - *l + *s - 1) / *s;
}

int64_t blockWork(Block &block);

/// Lanes of the widest vector among the op's operands and results (1 for
/// scalar ops).
int64_t lanes(Operation *op) {
  int64_t n = 1;
  auto widest = [&](Type t) {
    if (auto v = dyn_cast<VectorType>(t)) {
      n = std::max(n, v.getNumElements());
    }
  };
  for (Type t : op->getOperandTypes()) {
    widest(t);
  }
  for (Type t : op->getResultTypes()) {
    widest(t);
  }
  return n;
}

/// Element operations of one execution of `op`, nested regions included.
int64_t opWork(Operation *op) {
  if (auto loop = dyn_cast<scf::ForOp>(op)) {
    int64_t trips =
        tripCount(loop.getLowerBound(), loop.getUpperBound(), loop.getStep());
    if (trips < 0) {
      return kUnbounded;
    }
    return mulSat(trips, blockWork(*loop.getBody()));
  }
  if (isa<scf::WhileOp, CallOpInterface>(op)) {
    return kUnbounded;
  }
  if (auto contract = dyn_cast<vector::ContractionOp>(op)) {
    SmallVector<int64_t> bounds;
    contract.getIterationBounds(bounds);
    int64_t n = 1;
    for (int64_t b : bounds) {
      n = mulSat(n, b);
    }
    // A multiply-add of a register tile retires about twice as many lanes
    // a cycle as a load or store of a copy does.
    return std::max<int64_t>(n / 2, 1);
  }
  if (auto linalgOp = dyn_cast<linalg::LinalgOp>(op)) {
    // Not vectorised: one scalar loop nest over its ranges.
    int64_t points = 1;
    for (int64_t r : linalgOp.getStaticLoopRanges()) {
      if (ShapedType::isDynamic(r)) {
        return kUnbounded;
      }
      points = mulSat(points, r);
    }
    int64_t body = 0;
    for (Operation &inner : linalgOp->getRegion(0).front()) {
      body = addSat(body, opWork(&inner));
    }
    return mulSat(points, std::max<int64_t>(body, 1));
  }
  if (auto copy = dyn_cast<memref::CopyOp>(op)) {
    auto type = cast<MemRefType>(copy.getSource().getType());
    return type.hasStaticShape() ? type.getNumElements() : kUnbounded;
  }
  // Views and bookkeeping cost nothing per element.
  if (isa<memref::SubViewOp, memref::ExpandShapeOp, memref::CollapseShapeOp,
          memref::CastOp, memref::ReinterpretCastOp, memref::DeallocOp,
          scf::YieldOp, linalg::YieldOp, arith::ConstantOp>(op)) {
    return 0;
  }
  // A malloc per task: roughly a hundred element operations.
  int64_t work = isa<memref::AllocOp>(op) ? 100 : lanes(op);
  for (Region &region : op->getRegions()) {
    for (Block &block : region) {
      work = addSat(work, blockWork(block));
    }
  }
  return work;
}

int64_t blockWork(Block &block) {
  int64_t work = 0;
  for (Operation &op : block) {
    work = addSat(work, opWork(&op));
    if (work >= kUnbounded) {
      break;
    }
  }
  return work;
}

/// The whole loop's work: its trip count times one iteration's.
int64_t forallWork(scf::ForallOp forall) {
  int64_t trips = 1;
  for (auto [lb, ub, step] :
       llvm::zip(forall.getMixedLowerBound(), forall.getMixedUpperBound(),
                 forall.getMixedStep())) {
    int64_t n = tripCount(lb, ub, step);
    if (n < 0) {
      return kUnbounded;
    }
    trips = mulSat(trips, n);
  }
  return mulSat(trips, blockWork(*forall.getBody()));
}

struct CpuSerialSmallTasks
    : public graphc::impl::CpuSerialSmallTasksBase<CpuSerialSmallTasks> {
  using CpuSerialSmallTasksBase::CpuSerialSmallTasksBase;

  void runOnOperation() override {
    if (minWork <= 0) {
      return;
    }
    // Innermost first (the walk's post-order), so rewriting one never
    // touches a forall still to be judged.
    SmallVector<scf::ForallOp> foralls;
    getOperation().walk(
        [&](scf::ForallOp forall) { foralls.push_back(forall); });
    IRRewriter rewriter(&getContext());
    for (scf::ForallOp forall : foralls) {
      // Tensor foralls (shared outputs) are not this pass's: it runs after
      // bufferization.
      if (!forall.getOutputs().empty() || forallWork(forall) >= minWork) {
        ++numKept;
        continue;
      }
      rewriter.setInsertionPoint(forall);
      if (failed(scf::forallToForLoop(rewriter, forall))) {
        ++numKept;
        continue;
      }
      ++numSerial;
    }
  }
};

} // namespace
