//===- CpuHoistSubsets.cpp - loop-invariant subset hoisting, fast ---------===//
//
// Upstream `loop-invariant-subset-hoisting`, the same transformation with
// the same result, made cheap for the loops graphc's micro-kernels produce.
//
// For each loop (innermost first) and each of its region iter_args, the
// subset ops along the iter_arg's use-def chain to the yield are collected;
// an extraction and an insertion of the same loop-invariant subset, disjoint
// from every other subset op on the chain, move out of the loop (the
// extracted value becomes a new iter_arg). Upstream decides "same subset"
// and "disjoint" for every pair of ops on the chain with the value-bounds
// constraint solver (Presburger sets, built anew for each query): a direct
// convolution's accumulator tile is 28 vector transfer reads and 28 writes
// at constant indices, about 3000 solver queries per loop, and the pass took
// 5 to 6 s of DenseNet-121's 20 s MLIR pipeline. Here a pair of vector
// transfers whose indices are all constants is decided by comparing
// intervals, which is what the solver proves for constants; every other
// pair asks the ops' SubsetOpInterface as upstream does. The order of the
// walk, of the pairing and of the hoisting is upstream's, so the IR is the
// same (test/Pipelines/cpu-hoist-subsets.mlir).
//
//===----------------------------------------------------------------------===//

#include "CpuPasses.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Interfaces/DestinationStyleOpInterface.h"
#include "mlir/Interfaces/LoopLikeInterface.h"
#include "mlir/Interfaces/SubsetOpInterface.h"

namespace graphc {
#define GEN_PASS_DEF_CPUHOISTSUBSETS
#include "CpuPasses.h.inc"
} // namespace graphc

using namespace mlir;

namespace {

/// The box a vector transfer accesses, as upstream's SubsetOpInterface
/// model of transfers describes it: its indices as offsets, the chunk it
/// reads or writes as sizes, unit strides.
struct TransferBox {
  SmallVector<Value> offsets;
  SmallVector<int64_t> sizes;
};

static std::optional<TransferBox> transferBox(Operation *op) {
  if (!isa<vector::TransferReadOp, vector::TransferWriteOp>(op)) {
    return std::nullopt;
  }
  auto xfer = cast<VectorTransferOpInterface>(op);
  TransferBox box;
  box.offsets.assign(xfer.getIndices().begin(), xfer.getIndices().end());
  box.sizes = xfer.getTransferChunkAccessed();
  if (box.sizes.size() != box.offsets.size()) {
    return std::nullopt;
  }
  return box;
}

/// `value` as base + constant, peeling `arith.addi` of index constants (a
/// constant is a null base).
static std::pair<Value, int64_t> splitConstant(Value value) {
  int64_t constant = 0;
  while (auto add = value.getDefiningOp<arith::AddIOp>()) {
    if (auto rhs = add.getRhs().getDefiningOp<arith::ConstantIndexOp>()) {
      constant += rhs.value();
      value = add.getLhs();
    } else if (auto lhs =
                   add.getLhs().getDefiningOp<arith::ConstantIndexOp>()) {
      constant += lhs.value();
      value = add.getRhs();
    } else {
      break;
    }
  }
  if (auto c = value.getDefiningOp<arith::ConstantIndexOp>()) {
    return {Value(), constant + c.value()};
  }
  return {value, constant};
}

/// How offsets a and b compare where the value-bounds analysis finds it
/// exactly: both the same value plus constants (arith.constant, or
/// arith.addi of one), so that their difference `gap` (b - a) is a
/// constant. Unknown otherwise.
enum class Offsets { Unknown, Equal, Different };

static Offsets compareOffsets(Value a, Value b, int64_t &gap) {
  gap = 0;
  if (a == b) {
    return Offsets::Equal;
  }
  auto [baseA, constantA] = splitConstant(a);
  auto [baseB, constantB] = splitConstant(b);
  if (baseA != baseB) {
    return Offsets::Unknown;
  }
  gap = constantB - constantA;
  return gap == 0 ? Offsets::Equal : Offsets::Different;
}

/// a and b are subset ops on the same tensor (the pass treats all the
/// tensors of a chain as one). The answer upstream's default interface
/// methods give for two vector transfers, decided without the solver where
/// every dimension's offsets are constants or the same value; any other
/// pair asks the interface.
static bool equivalentSubsets(SubsetOpInterface a, SubsetOpInterface b) {
  std::optional<TransferBox> boxA = transferBox(a), boxB = transferBox(b);
  if (boxA && boxB && boxA->offsets.size() == boxB->offsets.size()) {
    bool unknown = false;
    for (size_t d = 0; d < boxA->offsets.size(); ++d) {
      int64_t gap;
      Offsets cmp = compareOffsets(boxA->offsets[d], boxB->offsets[d], gap);
      // A proven difference in any dimension decides it.
      if (cmp == Offsets::Different || boxA->sizes[d] != boxB->sizes[d]) {
        return false;
      }
      unknown |= cmp == Offsets::Unknown;
    }
    if (!unknown) {
      return true;
    }
  }
  return a.operatesOnEquivalentSubset(b, [](Value, Value) { return true; });
}

static bool disjointSubsets(SubsetOpInterface a, SubsetOpInterface b) {
  std::optional<TransferBox> boxA = transferBox(a), boxB = transferBox(b);
  if (boxA && boxB && boxA->offsets.size() == boxB->offsets.size()) {
    bool unknown = false;
    for (size_t d = 0; d < boxA->offsets.size(); ++d) {
      int64_t gap; // offset b - offset a
      Offsets cmp = compareOffsets(boxA->offsets[d], boxB->offsets[d], gap);
      if (cmp == Offsets::Unknown) {
        unknown = true;
        continue;
      }
      // Disjoint when, in some dimension, one interval ends before the
      // other begins.
      if (boxA->sizes[d] <= gap || boxB->sizes[d] <= -gap) {
        return true;
      }
    }
    if (!unknown) {
      return false;
    }
  }
  return a.operatesOnDisjointSubset(b, [](Value, Value) { return true; });
}

/// The subset ops on one iter_arg's chain, extractions paired with the
/// insertions of the same subset.
class ChainSubsets {
public:
  /// Collects the subset ops from `iterArg` to the yield; failure when the
  /// chain holds anything else or does not end in `iterArg`'s own yielded
  /// operand. Subset ops of nested loops are recorded (they must be
  /// disjoint) but never paired (`pair` false): hoisting from a nested loop
  /// is that loop's own turn.
  LogicalResult collect(LoopLikeOpInterface loop, BlockArgument iterArg,
                        bool pair = true);

  /// Calls `hoist(extraction, insertion)` for each pair (either may be null)
  /// of the same type that is disjoint from every other subset op, in order.
  void forEachHoistable(llvm::function_ref<void(SubsetExtractionOpInterface,
                                                SubsetInsertionOpInterface)>
                            hoist) {
    for (size_t i = 0; i < extractions.size(); ++i) {
      SubsetExtractionOpInterface extraction = extractions[i];
      SubsetInsertionOpInterface insertion = insertions[i];
      if (extraction && insertion &&
          extraction->getResult(0).getType() !=
              insertion.getSourceOperand().get().getType()) {
        continue;
      }
      if (!disjointFromOthers(extraction, insertion)) {
        continue;
      }
      hoist(extraction, insertion);
    }
  }

private:
  void add(SubsetOpInterface op, bool pair) {
    all.push_back(op);
    if (!pair) {
      return;
    }
    if (auto extraction =
            dyn_cast<SubsetExtractionOpInterface>(op.getOperation())) {
      addExtraction(extraction);
    }
    if (auto insertion =
            dyn_cast<SubsetInsertionOpInterface>(op.getOperation())) {
      addInsertion(insertion);
    }
  }

  /// Pairs with the first insertion of the same subset (replacing an
  /// extraction paired with it before), else opens an entry of its own.
  void addExtraction(SubsetExtractionOpInterface extraction) {
    for (size_t i = 0; i < insertions.size(); ++i) {
      if (insertions[i] &&
          equivalentSubsets(
              cast<SubsetOpInterface>(insertions[i].getOperation()),
              cast<SubsetOpInterface>(extraction.getOperation()))) {
        extractions[i] = extraction;
        return;
      }
    }
    extractions.push_back(extraction);
    insertions.push_back({});
  }

  void addInsertion(SubsetInsertionOpInterface insertion) {
    for (size_t i = 0; i < extractions.size(); ++i) {
      if (extractions[i] &&
          equivalentSubsets(
              cast<SubsetOpInterface>(extractions[i].getOperation()),
              cast<SubsetOpInterface>(insertion.getOperation()))) {
        insertions[i] = insertion;
        return;
      }
    }
    extractions.push_back({});
    insertions.push_back(insertion);
  }

  bool disjointFromOthers(SubsetExtractionOpInterface extraction,
                          SubsetInsertionOpInterface insertion) const {
    Operation *ext = extraction ? extraction.getOperation() : nullptr;
    Operation *ins = insertion ? insertion.getOperation() : nullptr;
    for (SubsetOpInterface other : all) {
      if (other.getOperation() == ext || other.getOperation() == ins) {
        continue;
      }
      if (ext && !disjointSubsets(other, cast<SubsetOpInterface>(ext))) {
        return false;
      }
      if (ins && !disjointSubsets(other, cast<SubsetOpInterface>(ins))) {
        return false;
      }
    }
    return true;
  }

  SmallVector<SubsetExtractionOpInterface> extractions;
  SmallVector<SubsetInsertionOpInterface> insertions;
  SmallVector<SubsetOpInterface> all;
};

/// The use of `value` when it is its only use and a terminator's, else null.
static OpOperand *soleTerminatorUse(Value value) {
  if (!value.hasOneUse()) {
    return nullptr;
  }
  OpOperand &use = *value.getUses().begin();
  return use.getOwner()->hasTrait<OpTrait::IsTerminator>() ? &use : nullptr;
}

LogicalResult ChainSubsets::collect(LoopLikeOpInterface loop,
                                    BlockArgument iterArg, bool pair) {
  Value value = iterArg;
  OpOperand *yielded = nullptr;
  while (!(yielded = soleTerminatorUse(value))) {
    Value next;
    for (OpOperand &use : value.getUses()) {
      Operation *user = use.getOwner();
      if (auto nested = dyn_cast<LoopLikeOpInterface>(user)) {
        BlockArgument nestedArg = nested.getTiedLoopRegionIterArg(&use);
        if (!nestedArg || failed(collect(nested, nestedArg, /*pair=*/false))) {
          return failure();
        }
        next = nested.getTiedLoopResult(&use);
        continue;
      }
      auto subset = dyn_cast<SubsetOpInterface>(user);
      if (!subset) {
        return failure();
      }
      add(subset, pair);
      if (auto insertion = dyn_cast<SubsetInsertionOpInterface>(user)) {
        // One chain through insertions into their destinations (a source
        // use reads the whole tensor), of tensors only.
        auto dps = dyn_cast<DestinationStyleOpInterface>(user);
        if (!dps || !dps.hasPureTensorSemantics() ||
            &use != &insertion.getDestinationOperand() || next) {
          return failure();
        }
        next = insertion.getUpdatedDestination();
      }
    }
    if (!next) {
      return failure();
    }
    value = next;
  }
  return success(loop.getTiedLoopYieldedValue(iterArg) == yielded);
}

/// Whether `op` can move out of `loop`: not a terminator, and every value
/// it (or an op nested in it) uses from outside itself passes `allowed`.
static bool movable(Operation *op,
                    llvm::function_ref<bool(OpOperand &)> allowed) {
  if (op->hasTrait<OpTrait::IsTerminator>()) {
    return false;
  }
  return !op->walk([&](Operation *nested) {
              for (OpOperand &operand : nested->getOpOperands()) {
                if (op->isAncestor(
                        operand.get().getParentRegion()->getParentOp())) {
                  continue;
                }
                if (!allowed(operand)) {
                  return WalkResult::interrupt();
                }
              }
              return WalkResult::advance();
            }).wasInterrupted();
}

/// Hoists the subset pairs of `loop`'s iter_arg `iterArg`; returns the loop
/// (a new op when something moved).
static LoopLikeOpInterface hoistAtIterArg(RewriterBase &rewriter,
                                          LoopLikeOpInterface loop,
                                          BlockArgument iterArg) {
  int64_t index = llvm::find(loop.getRegionIterArgs(), iterArg) -
                  loop.getRegionIterArgs().begin();
  ChainSubsets subsets;
  if (failed(subsets.collect(loop, iterArg))) {
    return loop;
  }
  subsets.forEachHoistable([&](SubsetExtractionOpInterface extraction,
                               SubsetInsertionOpInterface insertion) {
    // The subset's position must not depend on the loop.
    if (extraction && !movable(extraction, [&](OpOperand &operand) {
          return loop.isDefinedOutsideOfLoop(operand.get()) ||
                 &operand == &extraction.getSourceOperand();
        })) {
      extraction = {};
    }
    if (insertion && !movable(insertion, [&](OpOperand &operand) {
          return loop.isDefinedOutsideOfLoop(operand.get()) ||
                 &operand == &insertion.getSourceOperand() ||
                 &operand == &insertion.getDestinationOperand();
        })) {
      insertion = {};
    }
    if (!extraction || !insertion) {
      return;
    }
    // The extracted value enters as a new iter_arg; the inserted one is
    // yielded in its place.
    Value inserted = insertion.getSourceOperand().get();
    FailureOr<LoopLikeOpInterface> grown = loop.replaceWithAdditionalYields(
        rewriter, extraction->getResult(0),
        /*replaceInitOperandUsesInLoop=*/true,
        [&](OpBuilder &, Location, ArrayRef<BlockArgument>) {
          return SmallVector<Value>{inserted};
        });
    if (failed(grown)) {
      return;
    }
    loop = *grown;
    BlockArgument arg = loop.getRegionIterArgs()[index];
    OpResult result = loop.getTiedLoopResult(arg);
    OpResult newResult = loop.getLoopResults()->back();
    rewriter.moveOpBefore(extraction, loop);
    rewriter.moveOpAfter(insertion, loop);
    rewriter.replaceAllUsesWith(insertion.getUpdatedDestination(),
                                insertion.getDestinationOperand().get());
    extraction.getSourceOperand().set(loop.getTiedLoopInit(arg)->get());
    rewriter.replaceAllUsesWith(result, insertion.getUpdatedDestination());
    insertion.getSourceOperand().set(newResult);
    insertion.getDestinationOperand().set(result);
  });
  return loop;
}

struct CpuHoistSubsets
    : public graphc::impl::CpuHoistSubsetsBase<CpuHoistSubsets> {
  void runOnOperation() override {
    IRRewriter rewriter(&getContext());
    // Innermost loops first: what moves out of an inner loop may move out
    // of the next one too. Hoisting adds iter_args, which are visited too.
    getOperation()->walk([&](LoopLikeOpInterface loop) {
      for (int64_t i = 0;
           i < static_cast<int64_t>(loop.getRegionIterArgs().size()); ++i) {
        loop = hoistAtIterArg(rewriter, loop, loop.getRegionIterArgs()[i]);
      }
    });
  }
};

} // namespace
