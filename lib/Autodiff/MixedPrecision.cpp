//===- MixedPrecision.cpp - graph-mixed-precision: bf16/f16 compute -------===//
//
// Gives a training step's forward pass its compute precision op by op, the
// way torch.autocast does, before graph-autodiff differentiates it: the
// backward pass then inherits each op's precision from the gradient rules,
// and the casts' gradients bring every weight gradient back to f32.
//
//===----------------------------------------------------------------------===//

#include "StepSignature.h"

#include "graph/GraphOps.h"

#include "graphc/Autodiff/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"

namespace graphc {
#define GEN_PASS_DEF_GRAPHMIXEDPRECISION
#include "graphc/Autodiff/Passes.h.inc"
} // namespace graphc

using namespace mlir;
using namespace graphc;
using namespace graphc::graph;
using namespace graphc::autodiff;

namespace {

/// How an op's f32 compute is given a precision (the design note's table).
enum class Policy {
  /// Matrix products and convolutions: always the low precision.
  Low,
  /// Ops that round once per element or move data: the activations'
  /// precision.
  Follow,
  /// Everything else (losses, reductions, normalisations, transcendental
  /// functions, ops not listed): the types they had.
  Keep,
};

Policy policyOf(Operation *op) {
  if (isa<MatMulOp, ConvOp, ConvTransposeOp>(op)) {
    return Policy::Low;
  }
  // Average pooling sums its window: f32, like the other reductions.
  if (auto pool = dyn_cast<PoolOp>(op)) {
    return pool.getKind() == PoolKind::max ? Policy::Follow : Policy::Keep;
  }
  if (isa<AddOp, SubOp, MulOp, DivOp, MaxOp, MinOp, NegOp, AbsOp, ReluOp,
          LeakyReluOp, EluOp, GeluOp, TanhOp, SigmoidOp, SqrtOp, ClampOp,
          SelectOp, CompareOp, SignOp, FloorOp, CeilOp, RoundOp, IdentityOp,
          ReshapeOp, DynamicReshapeOp, TransposeOp, ConcatOp, SplitOp, SliceOp,
          GatherOp, PadOp, BroadcastToOp, SqueezeOp, UnsqueezeOp, TileOp>(op)) {
    return Policy::Follow;
  }
  return Policy::Keep;
}

bool isF32Tensor(Type t) {
  auto tensor = dyn_cast<RankedTensorType>(t);
  return tensor && tensor.getElementType().isF32();
}

struct GraphMixedPrecisionPass
    : graphc::impl::GraphMixedPrecisionBase<GraphMixedPrecisionPass> {
  using GraphMixedPrecisionBase::GraphMixedPrecisionBase;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    Builder b(module.getContext());
    if (precision == "bf16") {
      low = b.getBF16Type();
    } else if (precision == "f16") {
      low = b.getF16Type();
    } else {
      module.emitError() << "graph-mixed-precision: unknown precision '"
                         << precision << "'; use bf16 or f16";
      return signalPassFailure();
    }
    bool any = false;
    for (func::FuncOp func : module.getOps<func::FuncOp>()) {
      if (func.isExternal() || !findResult(func, "loss")) {
        continue;
      }
      any = true;
      if (failed(convert(func))) {
        return signalPassFailure();
      }
    }
    if (!any) {
      module.emitError()
          << "graph-mixed-precision: no function has a result named 'loss' "
             "in its graph.output_names; run graph-add-loss first (graphc "
             "--train)";
      return signalPassFailure();
    }
  }

  /// `v` cast to `element`, once per value, right where `v` is computed (a
  /// weight's cast sits by its read, and all its low-precision users share
  /// it).
  Value castOf(Value v, Type element, DenseMap<Value, Value> &cache) {
    Value &cached = cache[v];
    if (cached) {
      return cached;
    }
    OpBuilder b(v.getContext());
    if (Operation *def = v.getDefiningOp()) {
      b.setInsertionPointAfter(def);
    } else {
      b.setInsertionPointToStart(v.getParentBlock());
    }
    auto type = cast<RankedTensorType>(v.getType()).clone(element);
    cached = CastOp::create(b, v.getLoc(), type, v, TypeAttr::get(element))
                 .getResult();
    ++numCasts;
    return cached;
  }

  /// `v` rounded to the low precision and back to f32 (emulate).
  Value roundedOf(Value v, DenseMap<Value, Value> &cache) {
    Value narrow = castOf(v, low, cache);
    OpBuilder b(narrow.getContext());
    b.setInsertionPointAfter(narrow.getDefiningOp());
    ++numCasts;
    return CastOp::create(b, v.getLoc(), v.getType(), narrow,
                          TypeAttr::get(Builder(b.getContext()).getF32Type()))
        .getResult();
  }

  LogicalResult convert(func::FuncOp func) {
    func::ReturnOp ret = returnOf(func);
    if (!ret) {
      return func.emitError() << "graph-mixed-precision: @" << func.getSymName()
                              << " must have one block ending in a return";
    }
    // After graph-autodiff the backward pass would be converted op by op
    // without the casts' gradients that bring the gradients back to f32.
    for (const std::string &name : resultNames(func)) {
      if (StringRef(name).starts_with("grad/")) {
        return func.emitError()
               << "graph-mixed-precision: @" << func.getSymName()
               << " already has the gradient result '" << name
               << "'; run graph-mixed-precision before graph-autodiff";
      }
    }
    // Weights and constants (and data movement of them only) take the
    // precision of the op that uses them; inputs and computed values are
    // activations with a precision of their own.
    DenseSet<Value> neutral;
    // The f32 values this pass made low precision.
    DenseSet<Value> lowered;
    DenseMap<Value, Value> toLow, toF32;
    Type f32 = Builder(func.getContext()).getF32Type();

    for (Operation &op : func.getBody().front()) {
      if (isa<ReadVariableOp, ConstantOp>(op)) {
        if (isF32Tensor(op.getResult(0).getType())) {
          neutral.insert(op.getResult(0));
        }
        continue;
      }
      Policy policy = op.getNumRegions() || op.hasTrait<OpTrait::IsTerminator>()
                          ? Policy::Keep
                          : policyOf(&op);
      // Only f32 compute changes: an op that also reads or makes other
      // float types (f64, a model's own bf16) keeps its types.
      bool onlyF32 = true, anyF32 = false, anyLow = false, anyStrong = false,
           allNeutral = true;
      for (Value v : op.getOperands()) {
        if (lowered.contains(v)) {
          anyLow = anyF32 = true;
          allNeutral = false;
          continue;
        }
        if (isF32Tensor(v.getType())) {
          anyF32 = true;
          bool isNeutral = neutral.contains(v);
          anyStrong |= !isNeutral;
          allNeutral &= isNeutral;
          continue;
        }
        auto tensor = dyn_cast<TensorType>(v.getType());
        onlyF32 &= !tensor || !isa<FloatType>(tensor.getElementType());
      }
      for (Type t : op.getResultTypes()) {
        auto tensor = dyn_cast<TensorType>(t);
        onlyF32 &= !tensor || !isa<FloatType>(tensor.getElementType()) ||
                   isF32Tensor(t);
      }
      bool makeLow = false;
      if (onlyF32 && anyF32 && policy == Policy::Low) {
        makeLow = true;
      } else if (onlyF32 && anyF32 && policy == Policy::Follow) {
        makeLow = anyLow && !anyStrong;
        if (allNeutral) {
          for (Value r : op.getResults()) {
            neutral.insert(r);
          }
        }
      }
      if (!makeLow) {
        for (OpOperand &use : op.getOpOperands()) {
          if (!emulate && lowered.contains(use.get())) {
            use.set(castOf(use.get(), f32, toF32));
          }
        }
        continue;
      }
      ++numLowOps;
      if (emulate) {
        // f32 arithmetic on values rounded to the low precision, each
        // result rounded once: the numbers of low-precision compute with
        // f32 accumulation, on a target that cannot compute in it.
        for (OpOperand &use : op.getOpOperands()) {
          if (isF32Tensor(use.get().getType()) &&
              !lowered.contains(use.get())) {
            use.set(roundedOf(use.get(), toLow));
          }
        }
        for (Value r : op.getResults()) {
          if (isF32Tensor(r.getType())) {
            Value rounded = roundedOf(r, toLow);
            r.replaceAllUsesExcept(
                rounded,
                rounded.getDefiningOp()->getOperand(0).getDefiningOp());
            lowered.insert(rounded);
          }
        }
        continue;
      }
      for (OpOperand &use : op.getOpOperands()) {
        if (isF32Tensor(use.get().getType())) {
          use.set(castOf(use.get(), low, toLow));
        }
      }
      for (Value r : op.getResults()) {
        if (isF32Tensor(r.getType())) {
          r.setType(cast<RankedTensorType>(r.getType()).clone(low));
          lowered.insert(r);
        }
      }
    }
    return success();
  }

  Type low;
};

} // namespace
