//===- OnnxImporterImpl.h - the ONNX importer's class -----------*- C++ -*-===//
//
// Private to lib/Import. The importer's state and helpers, shared by the
// files that translate families of ONNX ops: OnnxImporter.cpp (the driver)
// and one file per family beside it, holding one translator per op or small
// group of ops. The registry (OnnxOps.cpp) names, for each op, the member
// that translates it.
//
//===----------------------------------------------------------------------===//

#ifndef GRAPHC_LIB_IMPORT_ONNXIMPORTERIMPL_H
#define GRAPHC_LIB_IMPORT_ONNXIMPORTERIMPL_H

#include "graphc/Import/Importers.h"

#include "ImportUtils.h"
#include "graphc/Import/NodeGraph.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Matchers.h"

#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/Path.h"

#include "onnx/onnx_pb.h"

#include <functional>
#include <memory>
#include <optional>

namespace graphc::import {

/// Element type of an ONNX TensorProto::DataType; null when unsupported.
mlir::Type convertOnnxElementType(mlir::MLIRContext *ctx, int32_t type);

using llvm::StringRef;
using mlir::ArrayRef;
using mlir::Attribute;
using mlir::DenseElementsAttr;
using mlir::ElementsAttr;
using mlir::FailureOr;
using mlir::FloatType;
using mlir::IntegerType;
using mlir::Location;
using mlir::LogicalResult;
using mlir::MLIRContext;
using mlir::ModuleOp;
using mlir::NamedAttribute;
using mlir::NameLoc;
using mlir::OpBuilder;
using mlir::Operation;
using mlir::OwningOpRef;
using mlir::RankedTensorType;
using mlir::StringAttr;
using mlir::Type;
using mlir::Value;
using mlir::ValueRange;

/// Whether `shape` is known and has no dynamic dimension.
inline bool isStatic(const std::optional<llvm::SmallVector<int64_t>> &shape) {
  return shape && !mlir::ShapedType::isDynamicShape(*shape);
}

class OnnxImporter {
public:
  OnnxImporter(MLIRContext &context, StringRef path,
               const ImportOptions &options)
      : ctx(&context), builder(&context), path(path), options(options) {
    fileName = llvm::sys::path::filename(path).str();
    modelDir = llvm::sys::path::parent_path(path).str();
  }

  OwningOpRef<ModuleOp> run();

public:
  // Everything below is for the family files (OnnxImport*.cpp).
  Location loc(StringRef node) {
    return NameLoc::get(StringAttr::get(ctx, fileName + ":" + node.str()));
  }

  FailureOr<DenseElementsAttr> convertTensor(const onnx::TensorProto &tensor,
                                             Location at);
  /// convertTensor for the 4- and 2-bit types, which ONNX packs.
  FailureOr<DenseElementsAttr>
  convertPackedTensor(const onnx::TensorProto &tensor, RankedTensorType type,
                      const std::string *raw, Location at);
  /// Appends graph.cast's attributes beyond `to` for Cast/CastLike `def`
  /// (saturate); fails on a round_mode graph.cast does not implement.
  LogicalResult castAttributes(const onnx::NodeProto &def, Type to, Location at,
                               llvm::SmallVectorImpl<NamedAttribute> &attrs);
  FailureOr<Type> convertValueType(const onnx::ValueInfoProto &info,
                                   Location at);
  LogicalResult importNode(const GraphNode &node);

  // Attribute accessors.
  const onnx::AttributeProto *attr(const onnx::NodeProto &node,
                                   StringRef name) {
    for (const onnx::AttributeProto &a : node.attribute()) {
      if (a.name() == name) {
        return &a;
      }
    }
    return nullptr;
  }
  int64_t attrInt(const onnx::NodeProto &node, StringRef name, int64_t dflt) {
    const onnx::AttributeProto *a = attr(node, name);
    return a ? a->i() : dflt;
  }
  float attrFloat(const onnx::NodeProto &node, StringRef name, float dflt) {
    const onnx::AttributeProto *a = attr(node, name);
    return a ? a->f() : dflt;
  }
  std::optional<llvm::SmallVector<int64_t>>
  attrInts(const onnx::NodeProto &node, StringRef name) {
    const onnx::AttributeProto *a = attr(node, name);
    if (!a) {
      return std::nullopt;
    }
    return llvm::SmallVector<int64_t>(a->ints().begin(), a->ints().end());
  }
  /// The values of a constant integer operand (shapes, axes).
  std::optional<llvm::SmallVector<int64_t>> constInts(Value value) {
    return constantInts(value);
  }

  Value constant(Location at, ElementsAttr value) {
    Operation *op = createGraphOp(builder, at, "graph.constant", {},
                                  {builder.getNamedAttr("value", value)},
                                  {value.getElementType()});
    return op ? op->getResult(0) : Value();
  }
  /// Folds `op` when all its operands are constants and its results are
  /// small and static (shape subgraphs: Shape -> Gather -> Concat ...), so
  /// that later nodes see constant shapes, axes and sizes.
  llvm::SmallVector<Value> foldConstant(Operation *op);
  /// Builds `name` and folds it as above; null on failure.
  llvm::SmallVector<Value> build(Location at, StringRef name,
                                 ValueRange operands,
                                 llvm::ArrayRef<NamedAttribute> attrs,
                                 llvm::ArrayRef<Type> resultElements) {
    Operation *op =
        createGraphOp(builder, at, name, operands, attrs, resultElements);
    if (!op) {
      return {};
    }
    return foldConstant(op);
  }
  Value build1(Location at, StringRef name, ValueRange operands,
               llvm::ArrayRef<NamedAttribute> attrs = {}, Type element = {}) {
    auto r = build(at, name, operands, attrs,
                   {element ? element : getElementType(operands.front())});
    return r.empty() ? Value() : r[0];
  }
  /// A 1-D i64 constant.
  Value i64Const(Location at, llvm::ArrayRef<int64_t> v) {
    return constant(
        at, DenseElementsAttr::get(RankedTensorType::get({int64_t(v.size())},
                                                         builder.getI64Type()),
                                   v));
  }
  // ---- the node being translated ----------------------------------------
  // importNode sets `current` before calling a translator; the helpers below
  // read it, so the translators share them instead of each declaring its own.
  using Results = llvm::SmallVector<Value>;
  struct CurrentNode {
    StringRef op;
    const onnx::NodeProto *def = nullptr;
    llvm::ArrayRef<Value> in;
    std::optional<Location> at;
  } current;
  /// Input `i`, or null when absent.
  Value operand(unsigned i) {
    return i < current.in.size() ? current.in[i] : Value();
  }
  /// Fails (naming the first) unless inputs 0..n-1 are present.
  LogicalResult need(unsigned n) {
    for (unsigned i = 0; i < n; ++i) {
      if (!operand(i)) {
        return mlir::emitError(*current.at)
               << current.op << " needs input " << i;
      }
    }
    return mlir::success();
  }
  NamedAttribute named(StringRef n, Attribute a) {
    return builder.getNamedAttr(n, a);
  }
  mlir::DenseI64ArrayAttr i64Array(llvm::ArrayRef<int64_t> v) {
    return builder.getDenseI64ArrayAttr(v);
  }
  mlir::IntegerAttr i64Attr(int64_t v) { return builder.getI64IntegerAttr(v); }
  /// One result, or failure when it is null.
  FailureOr<Results> one(Value v) {
    if (!v) {
      return mlir::failure();
    }
    return Results{v};
  }
  StringRef attrStr(StringRef name, StringRef dflt) {
    const onnx::AttributeProto *a = attr(*current.def, name);
    return a ? StringRef(a->s()) : dflt;
  }
  std::optional<int64_t> rankOf(Value v) {
    auto s = getShape(v);
    if (!s) {
      return std::nullopt;
    }
    return int64_t(s->size());
  }
  /// Integer list from input `index` (must be constant) or attribute `name`.
  /// `present` tells whether either was given.
  FailureOr<llvm::SmallVector<int64_t>> intsArg(unsigned index, StringRef name,
                                                bool &present) {
    present = false;
    if (Value v = operand(index)) {
      present = true;
      auto ints = constInts(v);
      if (!ints) {
        return mlir::emitError(*current.at)
               << current.op << " input " << index
               << " must be a constant (it is computed at run time)";
      }
      return *ints;
    }
    if (auto ints = attrInts(*current.def, name)) {
      present = true;
      return *ints;
    }
    return llvm::SmallVector<int64_t>();
  }
  Attribute kindAttr(StringRef text) {
    return parseAttr(ctx, *current.at, text);
  }

  /// The translators the registry (OnnxOps.cpp) dispatches to. Each returns
  /// the node's results or fails having emitted at `at`.
/// Declares translator NAME with the signature the registry calls
/// (OnnxTranslator in OnnxOps.h).
#define GRAPHC_ONNX_TRANSLATOR(NAME)                                           \
  FailureOr<Results> NAME(const GraphNode &node, const onnx::NodeProto &def,   \
                          llvm::ArrayRef<Value> in, Location at)
/// Likewise for a translator returning std::nullopt for an op it does not
/// take (called through `family`).
#define GRAPHC_ONNX_OPTIONAL_TRANSLATOR(NAME)                                  \
  std::optional<FailureOr<llvm::SmallVector<Value>>> NAME(                     \
      const GraphNode &node, const onnx::NodeProto &def,                       \
      llvm::ArrayRef<Value> in, Location at)
  // Core.cpp: one translator per op or small group of ops.
  GRAPHC_ONNX_TRANSLATOR(importOneToOne);
  GRAPHC_ONNX_TRANSLATOR(importPow);
  GRAPHC_ONNX_TRANSLATOR(importVariadic);
  GRAPHC_ONNX_TRANSLATOR(importDropout);
  GRAPHC_ONNX_TRANSLATOR(importConstantOfShape);
  GRAPHC_ONNX_TRANSLATOR(importCompare);
  GRAPHC_ONNX_TRANSLATOR(importWhere);
  GRAPHC_ONNX_TRANSLATOR(importCast);
  GRAPHC_ONNX_TRANSLATOR(importAlphaActivation);
  GRAPHC_ONNX_TRANSLATOR(importConstant);
  GRAPHC_ONNX_TRANSLATOR(importReshape);
  GRAPHC_ONNX_TRANSLATOR(importFlatten);
  GRAPHC_ONNX_TRANSLATOR(importTranspose);
  GRAPHC_ONNX_TRANSLATOR(importConcat);
  GRAPHC_ONNX_TRANSLATOR(importGemm);
  GRAPHC_ONNX_TRANSLATOR(importConvPool);
  // One per op family, in ONNX/<Family>.cpp (OnnxOps.cpp says which).
  FailureOr<Results> importReductions(const GraphNode &node,
                                      const onnx::NodeProto &def,
                                      llvm::ArrayRef<Value> in, Location at);
  // Activations.cpp: one translator per op or small group of ops.
  GRAPHC_ONNX_TRANSLATOR(importSoftmax);
  GRAPHC_ONNX_TRANSLATOR(importComposedActivation);
  GRAPHC_ONNX_TRANSLATOR(importMean);
  GRAPHC_ONNX_TRANSLATOR(importMod);
  GRAPHC_ONNX_TRANSLATOR(importIsNaN);
  GRAPHC_ONNX_TRANSLATOR(importCastLike);
  GRAPHC_ONNX_TRANSLATOR(importClip);
  FailureOr<Results> importShapeOps(const GraphNode &node,
                                    const onnx::NodeProto &def,
                                    llvm::ArrayRef<Value> in, Location at);
  FailureOr<Results> importSliceSplit(const GraphNode &node,
                                      const onnx::NodeProto &def,
                                      llvm::ArrayRef<Value> in, Location at);
  FailureOr<Results> importReshapeLike(const GraphNode &node,
                                       const onnx::NodeProto &def,
                                       llvm::ArrayRef<Value> in, Location at);
  FailureOr<Results> importDepthSpace(const GraphNode &node,
                                      const onnx::NodeProto &def,
                                      llvm::ArrayRef<Value> in, Location at);
  FailureOr<Results> importNormalization(const GraphNode &node,
                                         const onnx::NodeProto &def,
                                         llvm::ArrayRef<Value> in, Location at);
  FailureOr<Results> importConvTranspose(const GraphNode &node,
                                         const onnx::NodeProto &def,
                                         llvm::ArrayRef<Value> in, Location at);
  FailureOr<Results> importResize(const GraphNode &node,
                                  const onnx::NodeProto &def,
                                  llvm::ArrayRef<Value> in, Location at);
  FailureOr<Results> importRecurrent(const GraphNode &node,
                                     const onnx::NodeProto &def,
                                     llvm::ArrayRef<Value> in, Location at);
  FailureOr<Results> importEinsumNode(const GraphNode &node,
                                      const onnx::NodeProto &def,
                                      llvm::ArrayRef<Value> in, Location at);
  FailureOr<llvm::SmallVector<Value>> importEinsum(const onnx::NodeProto &def,
                                                   llvm::ArrayRef<Value> in,
                                                   Location at);
  /// The error for an op the registry sends to a translator that does not
  /// take it: a registry bug, which test/Import/op-registry.test catches.
  LogicalResult notTranslated(const GraphNode &node, Location at) {
    return mlir::emitError(at)
           << "internal error: the ONNX op registry sends '" << node.op
           << "' to a translator that does not take it";
  }
  /// A family file's translator as the registry calls it.
  template <std::optional<FailureOr<llvm::SmallVector<Value>>> (
      OnnxImporter::*Family)(const GraphNode &, const onnx::NodeProto &,
                             llvm::ArrayRef<Value>, Location)>
  FailureOr<llvm::SmallVector<Value>>
  family(const GraphNode &node, const onnx::NodeProto &def,
         llvm::ArrayRef<Value> in, Location at) {
    if (auto results = (this->*Family)(node, def, in, at)) {
      return std::move(*results);
    }
    return notTranslated(node, at);
  }
  /// Family files: std::nullopt when the op is not theirs.
  std::optional<FailureOr<llvm::SmallVector<Value>>>
  importLosses(const GraphNode &node, const onnx::NodeProto &def,
               llvm::ArrayRef<Value> in, Location at);
  std::optional<FailureOr<llvm::SmallVector<Value>>>
  importIndexing(const GraphNode &node, const onnx::NodeProto &def,
                 llvm::ArrayRef<Value> in, Location at);
  // Math.cpp: one translator per op or small group of ops.
  GRAPHC_ONNX_OPTIONAL_TRANSLATOR(importIsInf);
  GRAPHC_ONNX_OPTIONAL_TRANSLATOR(importSwish);
  GRAPHC_ONNX_OPTIONAL_TRANSLATOR(importHardmax);
  GRAPHC_ONNX_OPTIONAL_TRANSLATOR(importLpNormalization);
  GRAPHC_ONNX_OPTIONAL_TRANSLATOR(importMeanVarianceNormalization);
  GRAPHC_ONNX_OPTIONAL_TRANSLATOR(importGroupNormalization);
  GRAPHC_ONNX_OPTIONAL_TRANSLATOR(importDet);
  GRAPHC_ONNX_OPTIONAL_TRANSLATOR(importLpPool);
  GRAPHC_ONNX_OPTIONAL_TRANSLATOR(importMathDirect);
  /// What importLegacy made of an old-form node.
  struct LegacyForm {
    /// The node rewritten into the newer form importNode reads (attributes
    /// renamed or converted); null to read the original.
    std::unique_ptr<onnx::NodeProto> upgraded;
    /// The node's results, when the old form was translated whole.
    std::optional<llvm::SmallVector<Value>> results;
  };
  /// Turns the old (opset < 9) form of a node into what importNode reads:
  /// may rewrite `in` (legacy broadcast, per-channel PRelu slopes), return
  /// an upgraded NodeProto, or translate the node whole.
  FailureOr<LegacyForm> importLegacy(const GraphNode &node,
                                     const onnx::NodeProto &def,
                                     llvm::SmallVectorImpl<Value> &in,
                                     Location at);
  /// ONNX Shrink as compare/select arithmetic (Shrink.cpp).
  std::optional<FailureOr<llvm::SmallVector<Value>>>
  importShrink(const GraphNode &node, const onnx::NodeProto &def,
               llvm::ArrayRef<Value> in, Location at);
  /// Adagrad, Momentum and Adam of ai.onnx.preview.training as graph
  /// arithmetic (Optimizers.cpp).
  GRAPHC_ONNX_OPTIONAL_TRANSLATOR(importTrainingOptimizer);
  /// Attention, RMSNormalization, RotaryEmbedding, CausalConvWithState,
  /// LinearAttention (Attention.cpp).
  std::optional<FailureOr<llvm::SmallVector<Value>>>
  importAttentionFamily(const GraphNode &node, const onnx::NodeProto &def,
                        llvm::ArrayRef<Value> in, Location at);
  // Sampling.cpp: one translator per op or small group of ops.
  GRAPHC_ONNX_OPTIONAL_TRANSLATOR(importGridSample);
  GRAPHC_ONNX_OPTIONAL_TRANSLATOR(importCol2Im);
  GRAPHC_ONNX_OPTIONAL_TRANSLATOR(importBitShift);
  GRAPHC_ONNX_OPTIONAL_TRANSLATOR(importBitCast);
  GRAPHC_ONNX_OPTIONAL_TRANSLATOR(importAffineGrid);
  GRAPHC_ONNX_OPTIONAL_TRANSLATOR(importCenterCropPad);
  GRAPHC_ONNX_OPTIONAL_TRANSLATOR(importRoiAlign);
  /// Pad mode wrap of `x` by the per-dimension `low` and `high` (negative
  /// crops); null after emitting at `at` (Sampling.cpp).
  Value importWrapPad(Value x, llvm::ArrayRef<int64_t> low,
                      llvm::ArrayRef<int64_t> high, Location at);
  // Quant.cpp: one translator per op or small group of ops.
  GRAPHC_ONNX_OPTIONAL_TRANSLATOR(importQuantizeLinear);
  GRAPHC_ONNX_OPTIONAL_TRANSLATOR(importDynamicQuantizeLinear);
  GRAPHC_ONNX_OPTIONAL_TRANSLATOR(importIntegerMatMulConv);
  /// strides, dilations, pad_low and pad_high of a windowed node (Conv,
  /// pooling, ConvInteger, QLinearConv) over an input of shape `inShape`
  /// with spatial window `window`, auto_pad resolved.
  FailureOr<llvm::SmallVector<NamedAttribute>>
  windowAttrs(StringRef op, const onnx::NodeProto &def,
              llvm::ArrayRef<int64_t> inShape, llvm::ArrayRef<int64_t> window,
              Location at);
  // Signal.cpp: one translator per op or small group of ops.
  GRAPHC_ONNX_OPTIONAL_TRANSLATOR(importWindow);
  GRAPHC_ONNX_OPTIONAL_TRANSLATOR(importMelWeightMatrix);
  GRAPHC_ONNX_OPTIONAL_TRANSLATOR(importDFT);
  GRAPHC_ONNX_OPTIONAL_TRANSLATOR(importSTFT);
  /// MaxUnpool as a scatter into zeros (Unpool.cpp).
  std::optional<FailureOr<llvm::SmallVector<Value>>>
  importUnpool(const GraphNode &node, const onnx::NodeProto &def,
               llvm::ArrayRef<Value> in, Location at);
  /// RandomNormal, RandomUniform, their *Like forms, Bernoulli and
  /// Multinomial, drawn at import from a seeded generator (Random.cpp).
  std::optional<FailureOr<llvm::SmallVector<Value>>>
  importRandom(const GraphNode &node, const onnx::NodeProto &def,
               llvm::ArrayRef<Value> in, Location at);
  /// NonZero, Compress, Unique, NonMaxSuppression: outputs whose size
  /// depends on values
  /// (Dynamic.cpp); exact when those values are constants, else bounded.
  std::optional<FailureOr<llvm::SmallVector<Value>>>
  importDynamic(const GraphNode &node, const onnx::NodeProto &def,
                llvm::ArrayRef<Value> in, Location at);
  /// RNN (the simple recurrence), unrolled over the static sequence
  /// (Rnn.cpp).
  std::optional<FailureOr<llvm::SmallVector<Value>>>
  importRnn(const GraphNode &node, const onnx::NodeProto &def,
            llvm::ArrayRef<Value> in, Location at);
  /// A sequence that lives inside the graph: its tensors, known while
  /// importing (Sequences.cpp), and their element type (null: not known,
  /// an empty sequence of no stated type).
  struct Sequence {
    Type element;
    llvm::SmallVector<Value> tensors;
  };
  /// The graph's sequence values by name; a sequence op's output is set
  /// here instead of in `values`.
  llvm::StringMap<Sequence> sequences;
  /// Whether input `input` of `node` is read as a sequence.
  static bool readsSequence(const GraphNode &node, unsigned input);
  /// The sequence ops (Sequences.cpp).
  GRAPHC_ONNX_OPTIONAL_TRANSLATOR(importSequence);
  /// ai.onnx.preview.training Gradient through lib/Autodiff's reverse mode
  /// (Gradient.cpp).
  GRAPHC_ONNX_OPTIONAL_TRANSLATOR(importGradient);
  /// Adds to unfoldedNodes the nodes between each Gradient node's xs/zs
  /// and its y (Gradient.cpp).
  void markDifferentiated(const NodeGraph &graph,
                          llvm::ArrayRef<unsigned> order,
                          const std::vector<bool> &needed);
  /// Nodes (their NodeProto) a Gradient differentiates through: their
  /// float results are not folded, which would cut a constant xs (a
  /// weight) off from y.
  llvm::DenseSet<const void *> unfoldedNodes;
  /// False while such a node is translated.
  bool foldFloats = true;
  /// MaxPool's Indices output: ONNX's flattened index of each window's
  /// first maximum (Core.cpp).
  Value maxPoolIndices(const onnx::NodeProto &def, Value x,
                       llvm::ArrayRef<int64_t> window,
                       llvm::ArrayRef<NamedAttribute> windowed,
                       llvm::ArrayRef<int64_t> outShape, Location at);
  /// If, Loop and Scan (ControlFlow.cpp).
  std::optional<FailureOr<llvm::SmallVector<Value>>>
  importControlFlow(const GraphNode &node, const onnx::NodeProto &def,
                    llvm::ArrayRef<Value> in, Location at);
  /// Node `index` of a subgraph as a GraphNode whose inputs are read by
  /// name from the enclosing scope (an empty name is an absent input);
  /// unnamed nodes are called `what/OP_#index`.
  static GraphNode subgraphNode(const onnx::NodeProto &node, int index,
                                llvm::StringRef what);
  /// Imports subgraph `body` at the insertion point with its inputs bound
  /// to `inputs`; its nodes read the enclosing values by name, and nothing
  /// it defines is visible after. Returns the values of its outputs.
  FailureOr<Results> importSubgraph(const onnx::GraphProto &body,
                                    llvm::ArrayRef<Value> inputs,
                                    StringRef what, Location at);
  FailureOr<Results> importIf(Location at);
  FailureOr<Results> importLoop(Location at);
  FailureOr<Results> importScan(Location at);
  /// What one iteration of a loop body yields: the next condition (null:
  /// unchanged), the loop-carried values, the scan outputs' slices.
  struct LoopBodyResults {
    Value cond;
    llvm::SmallVector<Value> carried, scans;
  };
  /// Builds the body in the loop's `after` block from its arguments
  /// (iteration number, condition, loop-carried values...).
  using LoopBody =
      std::function<FailureOr<LoopBodyResults>(llvm::ArrayRef<Value>)>;
  /// One scf.while running `body` while `cond` (null: true) holds and the
  /// iteration number is below `tripCount` (null: no bound); returns the
  /// final loop-carried values, then each scan output stacked on a new
  /// leading axis (written back to front where `reverseScans` says).
  FailureOr<Results> emitLoop(Value tripCount, Value cond,
                              llvm::ArrayRef<Value> init,
                              llvm::ArrayRef<bool> reverseScans,
                              const LoopBody &body, StringRef what,
                              Location at);
  /// Scan (opset 9 form) of `inputs` with `states` through `graph`.
  FailureOr<Results>
  scanOnce(const onnx::GraphProto &graph, llvm::ArrayRef<Value> states,
           llvm::ArrayRef<Value> inputs, llvm::ArrayRef<int64_t> inAxes,
           llvm::ArrayRef<int64_t> inDirs, llvm::ArrayRef<int64_t> outAxes,
           llvm::ArrayRef<int64_t> outDirs, StringRef what, Location at);
  Value scalar(Location at, Type element, double value) {
    auto type = RankedTensorType::get({}, element);
    if (llvm::isa<FloatType>(element)) {
      return constant(at, DenseElementsAttr::get(
                              type, builder.getFloatAttr(element, value)));
    }
    return constant(at,
                    DenseElementsAttr::get(
                        type, builder.getIntegerAttr(element, int64_t(value))));
  }

  MLIRContext *ctx;
  OpBuilder builder;
  std::string path, fileName, modelDir;
  const ImportOptions &options;
  /// --batch: the graph inputs it left without a static shape, reported
  /// together once every input was read.
  llvm::SmallVector<UnresolvedInput> unresolvedInputs;
  int64_t opset = 0;
  llvm::StringMap<Value> values;
  llvm::StringMap<const onnx::TensorProto *> initializers;
  Value lookupValue(StringRef name);
  /// A large raw initializer as a dense_resource attribute that takes over
  /// the parsed bytes; null when the tensor is small or not raw.
  FailureOr<ElementsAttr> adoptLargeTensor(const onnx::TensorProto &tensor,
                                           Location at);
  const onnx::ModelProto *model = nullptr;
  /// Training imports (ImportOptions::training): what each floating-point
  /// initializer becomes, from how the imported nodes use it.
  /// Ordered by precedence: a use as configuration makes a constant, a use
  /// as running statistics a non-trainable variable.
  enum class InitializerRole { Constant, State, Trainable };
  llvm::StringMap<InitializerRole> initializerRoles;
  void classifyInitializers(llvm::ArrayRef<GraphNode> nodes,
                            const std::vector<bool> &needed);
  /// A read of a new graph.variable holding `value` (initializer `name`).
  Value declareVariable(StringRef name, ElementsAttr value, bool trainable,
                        Location at);
  Operation *mainFunc = nullptr;
  /// Bounded outputs' valid counts (NonZero, Compress, Unique...): each
  /// becomes an extra result of @main, after the model's outputs, named
  /// OUTPUT:valid_count (docs/design/importers.md, "Bounded outputs").
  llvm::SmallVector<std::pair<std::string, Value>> validCounts;
};

} // namespace graphc::import

#endif // GRAPHC_LIB_IMPORT_ONNXIMPORTERIMPL_H
