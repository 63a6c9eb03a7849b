//===- DynamicBatch.cpp - a dynamic batch as a loop over one sample -------===//
//
// docs/design/dynamic-batch.md: rather than lowering `?` through every
// conversion and the CPU pipeline's static fast paths, the entry is compiled
// for one sample and the task's step loops over the batch. That is only
// right when the function treats dimension 0 as independent samples, which
// this pass checks before it specialises the signature.
//
//===----------------------------------------------------------------------===//

#include "graph/GraphOps.h"
#include "graph/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Builders.h"

#include "llvm/ADT/DenseMap.h"

namespace graphc::graph {
#define GEN_PASS_DEF_GRAPHDYNAMICBATCH
#include "graph/Passes.h.inc"
} // namespace graphc::graph

using namespace mlir;

namespace {

constexpr llvm::StringLiteral kDynamicBatchAttr = "graph.dynamic_batch";
/// On the entry: the function that runs `size` samples at once.
constexpr llvm::StringLiteral kChunkAttr = "graph.dynamic_batch_chunk";

/// `?` in dimension 0 and static everywhere else.
bool isBatchedType(Type type) {
  auto ranked = dyn_cast<RankedTensorType>(type);
  if (!ranked || ranked.getRank() == 0 || !ranked.isDynamicDim(0)) {
    return false;
  }
  return llvm::all_of(ranked.getShape().drop_front(),
                      [](int64_t d) { return !ShapedType::isDynamic(d); });
}

bool hasDynamicDim(Type type) {
  auto ranked = dyn_cast<RankedTensorType>(type);
  return !ranked || !ranked.hasStaticShape();
}

int64_t rankOf(Value v) {
  auto ranked = dyn_cast<RankedTensorType>(v.getType());
  return ranked ? ranked.getRank() : 0;
}

/// The first entry of an integer-array (or integer) attribute, if any.
std::optional<int64_t> firstEntry(Attribute attr) {
  if (auto array = dyn_cast<DenseI64ArrayAttr>(attr)) {
    return array.empty() ? std::nullopt
                         : std::optional<int64_t>(array.asArrayRef()[0]);
  }
  if (auto array = dyn_cast<ArrayAttr>(attr)) {
    if (!array.empty()) {
      if (auto i = dyn_cast<IntegerAttr>(array[0])) {
        return i.getInt();
      }
    }
    return std::nullopt;
  }
  if (auto i = dyn_cast<IntegerAttr>(attr)) {
    return i.getInt();
  }
  return std::nullopt;
}

/// Every entry of an integer-array (or integer) attribute.
SmallVector<int64_t> entries(Attribute attr) {
  SmallVector<int64_t> out;
  if (auto array = dyn_cast<DenseI64ArrayAttr>(attr)) {
    out.assign(array.asArrayRef().begin(), array.asArrayRef().end());
  } else if (auto array = dyn_cast<ArrayAttr>(attr)) {
    for (Attribute a : array) {
      if (auto i = dyn_cast<IntegerAttr>(a)) {
        out.push_back(i.getInt());
      }
    }
  } else if (auto i = dyn_cast<IntegerAttr>(attr)) {
    out.push_back(i.getInt());
  }
  return out;
}

int64_t productAfterFirst(Type type) {
  int64_t n = 1;
  for (int64_t d : cast<RankedTensorType>(type).getShape().drop_front()) {
    n *= d;
  }
  return n;
}

/// Why `op`, which reads the batch, mixes samples; empty when it does not.
std::string mixesSamples(Operation *op, Value batchedOperand) {
  if (op->getNumRegions() != 0) {
    return "has regions";
  }
  StringRef name = op->getName().getStringRef();
  if (op->getDialect() !=
          batchedOperand.getContext()
              ->getLoadedDialect<graphc::graph::GraphDialect>() &&
      !isa<tensor::CastOp>(op)) {
    return "is not a graph op";
  }
  // Recurrences run over dimension 0 (ONNX's time-major layout); batch
  // reshuffles move samples between dimensions.
  if (name == "graph.lstm" || name == "graph.gru" || name == "graph.rnn" ||
      name.contains("space_to_batch") || name.contains("batch_to_space")) {
    return "runs over or rearranges dimension 0";
  }
  for (Type type : op->getResultTypes()) {
    if (!isBatchedType(type)) {
      std::string s;
      llvm::raw_string_ostream os(s);
      os << "gives " << type << ", not a tensor whose only dynamic dimension "
         << "is the batch";
      return s;
    }
  }
  int64_t rank = rankOf(batchedOperand);
  // With several operands, a batched one of lower rank than the result is
  // broadcast: its dimension 0 lands on another dimension of the result.
  for (Value operand : op->getOperands()) {
    if (op->getNumOperands() > 1 && op->getNumResults() == 1 &&
        isBatchedType(operand.getType()) &&
        rankOf(operand) != rankOf(op->getResult(0))) {
      return "broadcasts the batch into another dimension";
    }
  }
  auto isZero = [&](int64_t axis) { return axis == 0 || axis == -rank; };
  for (NamedAttribute attr : op->getAttrs()) {
    StringRef key = attr.getName().getValue();
    if (key == "axis" || key == "axes") {
      for (int64_t axis : entries(attr.getValue())) {
        if (isZero(axis)) {
          return "works along dimension 0 (" + key.str() + ")";
        }
      }
    } else if (key == "perm") {
      std::optional<int64_t> first = firstEntry(attr.getValue());
      if (first && *first != 0) {
        return "moves dimension 0 (perm)";
      }
    } else if (key == "starts" || key == "low" || key == "high" ||
               key == "pads") {
      std::optional<int64_t> first = firstEntry(attr.getValue());
      if (first && *first != 0) {
        return "slices or pads dimension 0 (" + key.str() + ")";
      }
    } else if (key == "multiples") {
      std::optional<int64_t> first = firstEntry(attr.getValue());
      if (first && *first != 1) {
        return "tiles dimension 0";
      }
    } else if (key == "limits" && op->hasAttr("starts")) {
      // A slice to the end of a dynamic dimension keeps it dynamic; a
      // negative limit counts from the end and drops samples.
      std::optional<int64_t> first = firstEntry(attr.getValue());
      if (first && *first >= 0 && *first < (int64_t{1} << 31)) {
        return "slices dimension 0 (limits)";
      }
      if (first && *first < 0) {
        return "slices dimension 0 (limits)";
      }
    } else if (key == "strides" && op->hasAttr("starts")) {
      std::optional<int64_t> first = firstEntry(attr.getValue());
      if (first && *first != 1) {
        return "strides over dimension 0";
      }
    }
  }
  if (name == "graph.reshape" || name == "graph.dynamic_reshape") {
    if (productAfterFirst(batchedOperand.getType()) !=
        productAfterFirst(op->getResult(0).getType())) {
      return "moves elements between samples (a reshape that changes the "
             "size of one sample)";
    }
  }
  return "";
}

struct GraphDynamicBatchPass
    : graphc::graph::impl::GraphDynamicBatchBase<GraphDynamicBatchPass> {
  using Base::Base;

  void runOnOperation() override {
    auto func = getOperation().lookupSymbol<func::FuncOp>(entry);
    if (!func || func.isExternal()) {
      return; // nothing to specialise: later stages name a missing entry
    }
    if (failed(specialise(func))) {
      signalPassFailure();
    }
  }

  static std::string inputName(func::FuncOp func, unsigned i) {
    if (auto name = func.getArgAttrOfType<StringAttr>(i, "graph.name")) {
      return name.getValue().str();
    }
    return "#" + std::to_string(i);
  }

  LogicalResult specialise(func::FuncOp func) {
    // Which input each batched value's batch comes from, for messages.
    llvm::DenseMap<Value, unsigned> batchOf;
    for (BlockArgument arg : func.getArguments()) {
      if (isBatchedType(arg.getType())) {
        batchOf[arg] = arg.getArgNumber();
      }
    }
    if (batchOf.empty()) {
      return success();
    }
    for (BlockArgument arg : func.getArguments()) {
      if (!batchOf.count(arg) && hasDynamicDim(arg.getType())) {
        return func.emitError()
               << "input '" << inputName(func, arg.getArgNumber())
               << "' has type " << arg.getType()
               << "; only the leading (batch) dimension may be dynamic (fix "
                  "the others with --input-shape)";
      }
    }
    // The step runs the body once per sample (or chunk): an update of a
    // variable would be applied that many times per step.
    WalkResult assigns = func.walk([&](graphc::graph::AssignVariableOp assign) {
      unsigned first = batchOf.begin()->second;
      for (auto &[value, input] : batchOf) {
        first = std::min(first, input);
      }
      assign.emitError() << assign->getName() << " updates variable '"
                         << assign.getVariable()
                         << "' once per step, but a dynamic batch runs the "
                            "step's body once per sample; give the batch with "
                            "--input-shape "
                         << inputName(func, first)
                         << ":NxD... to compile for one batch size";
      return WalkResult::interrupt();
    });
    if (assigns.wasInterrupted()) {
      return failure();
    }
    WalkResult walk = func.walk<WalkOrder::PreOrder>([&](Operation *op) {
      if (op == func.getOperation() || isa<func::ReturnOp>(op)) {
        return WalkResult::advance();
      }
      std::optional<unsigned> from;
      Value batched;
      for (Value operand : op->getOperands()) {
        auto it = batchOf.find(operand);
        if (it != batchOf.end()) {
          from = it->second;
          batched = operand;
          break;
        }
      }
      if (!from) {
        return WalkResult::advance();
      }
      std::string why = mixesSamples(op, batched);
      if (!why.empty()) {
        op->emitError() << op->getName() << " " << why
                        << ", so it does not treat dimension 0 of input '"
                        << inputName(func, *from)
                        << "' as independent samples; give the batch with "
                           "--input-shape "
                        << inputName(func, *from) << ":NxD... to compile for "
                        << "one batch size";
        return WalkResult::interrupt();
      }
      for (Value result : op->getResults()) {
        batchOf[result] = *from;
      }
      return WalkResult::advance();
    });
    if (walk.wasInterrupted()) {
      return failure();
    }
    SmallVector<func::ReturnOp> returns;
    func.walk([&](func::ReturnOp ret) { returns.push_back(ret); });
    for (func::ReturnOp ret : returns) {
      for (OpOperand &result : ret->getOpOperands()) {
        if (!batchOf.count(result.get())) {
          std::string name = "#" + std::to_string(result.getOperandNumber());
          if (auto names =
                  func->getAttrOfType<ArrayAttr>("graph.output_names")) {
            if (result.getOperandNumber() < names.size()) {
              if (auto s =
                      dyn_cast<StringAttr>(names[result.getOperandNumber()])) {
                name = s.getValue().str();
              }
            }
          }
          return ret.emitError()
                 << "output '" << name << "' of type " << result.get().getType()
                 << " does not keep the batch as its dimension 0; give the "
                    "batch with --input-shape to compile for one batch size";
        }
      }
    }

    // A batch-1 body alone makes a batched matmul N matrix-vector products;
    // a second copy at `chunk` samples keeps the GEMM path for full chunks,
    // and the step runs the one-sample body for the remainder only. The copy
    // is taken before specialising: reshapes whose target still says `?`
    // then infer the chunk's batch, as an export at that batch would.
    if (chunk > 1) {
      OpBuilder after(func);
      after.setInsertionPointAfter(func);
      auto copy = cast<func::FuncOp>(after.clone(*func));
      SymbolTable symbols(getOperation());
      std::string name = (func.getSymName() + "_batch_chunk").str();
      for (int i = 1; symbols.lookup(name); ++i) {
        name = (func.getSymName() + "_batch_chunk_" + Twine(i)).str();
      }
      copy.setSymName(name);
      copy.setPrivate();
      specialiseBatch(copy, batchOf, chunk);
      Builder b(func.getContext());
      func->setAttr(kChunkAttr,
                    b.getDictionaryAttr(
                        {b.getNamedAttr("func", FlatSymbolRefAttr::get(copy)),
                         b.getNamedAttr("size", b.getI64IntegerAttr(chunk))}));
    }
    specialiseBatch(func, batchOf, 1);
    return success();
  }

  /// Marks the batched arguments of `fn` (those of the entry in `batchOf`,
  /// by position) and every result, and gives the batched arguments
  /// `samples` in dimension 0; graph-infer-shapes makes the body static
  /// from there.
  static void specialiseBatch(func::FuncOp fn,
                              const llvm::DenseMap<Value, unsigned> &batchOf,
                              int64_t samples) {
    Builder b(fn.getContext());
    SmallVector<Type> inputs(fn.getArgumentTypes());
    for (auto [entryArg, from] : batchOf) {
      auto arg = dyn_cast<BlockArgument>(entryArg);
      if (!arg || arg.getArgNumber() != from) {
        continue; // an op result; only the arguments are specialised
      }
      BlockArgument own = fn.getArgument(from);
      auto type = cast<RankedTensorType>(own.getType());
      SmallVector<int64_t> shape(type.getShape());
      shape[0] = samples;
      auto fixed = RankedTensorType::get(shape, type.getElementType());
      own.setType(fixed);
      inputs[from] = fixed;
      fn.setArgAttr(from, kDynamicBatchAttr, b.getUnitAttr());
    }
    for (unsigned i = 0; i < fn.getNumResults(); ++i) {
      fn.setResultAttr(i, kDynamicBatchAttr, b.getUnitAttr());
    }
    fn.setFunctionType(
        FunctionType::get(fn.getContext(), inputs, fn.getResultTypes()));
  }
};

} // namespace
