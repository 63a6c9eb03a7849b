//===- GraphDefImporterImpl.h - the TensorFlow importer's class -*- C++ -*-===//
//
// Private to lib/Import. The importer's state and helpers, shared by the
// files of TF/: GraphDefImporter.cpp (the driver: outputs, inputs, dispatch
// through the registry), one file per op family (Elementwise.cpp,
// Variables.cpp, Optimizers.cpp, Shapes.cpp, DataMovement.cpp, Indexing.cpp,
// NN.cpp, Random.cpp, with ConvPool.cpp and StridedSlice.cpp), Partitions.cpp
// (_Send/_Recv), InputShapes.cpp (--batch), Loops.cpp
// (TF1 while loops), ParseExample.cpp (tf.Example parsing) and
// FunctionInlining.cpp (TF2 function libraries).
//
//===----------------------------------------------------------------------===//

#ifndef GRAPHC_LIB_IMPORT_TF_GRAPHDEFIMPORTERIMPL_H
#define GRAPHC_LIB_IMPORT_TF_GRAPHDEFIMPORTERIMPL_H

#include "graphc/Import/Importers.h"

#include "ImportUtils.h"
#include "graphc/Import/NodeGraph.h"
#include "graphc/Import/SupportedOps.h"
#include "graphc/Import/TF/TFReader.h"

#include "dist/DistAttrs.h"
#include "dist/DistDialect.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/Verifier.h"

#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/Path.h"

#include <map>

namespace graphc::import {

using namespace mlir;
using llvm::StringRef;

/// The element type of a TensorFlow DataType (reference types included);
/// null when graphc has none (strings, resources, variants, complex).
Type convertTFType(MLIRContext *ctx, int dtype);

class GraphDefImporter {
public:
  GraphDefImporter(MLIRContext &context, TFModel &model,
                   const ImportOptions &options)
      : ctx(&context), builder(&context), model(model), options(options) {
    fileName =
        llvm::sys::path::filename(StringRef(model.path).rtrim('/')).str();
  }

  OwningOpRef<ModuleOp> run();

private:
  void chooseSignature(std::vector<std::string> &inputSpecs,
                       std::vector<std::string> &outputSpecs,
                       std::vector<std::string> &outputKeys);
  LogicalResult closeMain(llvm::ArrayRef<std::pair<unsigned, unsigned>> outputs,
                          bool requested,
                          llvm::ArrayRef<std::string> outputKeys,
                          llvm::ArrayRef<unsigned> order,
                          const std::vector<bool> &keep);
  Location loc(StringRef node) {
    return NameLoc::get(StringAttr::get(ctx, fileName + ":" + node.str()));
  }
  const tensorflow::NodeDef &def(const GraphNode &node) {
    return *static_cast<const tensorflow::NodeDef *>(node.source);
  }
  const tensorflow::AttrValue *attr(const tensorflow::NodeDef &node,
                                    StringRef name) {
    auto it = node.attr().find(name.str());
    return it == node.attr().end() ? nullptr : &it->second;
  }

  FailureOr<DenseElementsAttr> convertTensor(const tensorflow::TensorProto &t,
                                             Location at);
  FailureOr<Type> placeholderType(const tensorflow::NodeDef &node, Location at);
  /// A Placeholder's `shape` attribute, when it gives a rank.
  std::optional<llvm::SmallVector<int64_t>>
  placeholderShape(const tensorflow::NodeDef &node);
  LogicalResult importNode(const GraphNode &node);

  /// The translators of the op families, one per file of TF/ (Elementwise,
  /// Variables, Optimizers, Shapes, DataMovement, Indexing, NN, Random,
  /// Partitions). The registry (TFOps.cpp) names each op's file and
  /// importNode dispatches to that file's translator. A translator sets
  /// `result` (or `results`, one per output) and `recordResults`, for
  /// importNode to place and record them; or records the node's values
  /// itself and leaves `recordResults` false.
  using TFTranslatorFn = LogicalResult(const GraphNode &node,
                                       const tensorflow::NodeDef &nd,
                                       Location at, StringRef op,
                                       llvm::ArrayRef<Value> in, Value &result,
                                       llvm::SmallVectorImpl<Value> &results);
  using TFTranslator = TFTranslatorFn GraphDefImporter::*;
  TFTranslatorFn translateElementwise, translateVariables, translateOptimizers,
      translateShapes, translateDataMovement, translateIndexing, translateNN,
      translateRandom, translatePartitions;
  /// The translator of the family file `file` (the registry's column);
  /// null for ops importNode handles itself and for planned rules.
  static TFTranslator lookupTranslator(StringRef file);
  bool recordResults = false;
  /// An op the registry sends to `file`, whose translator lacks it.
  LogicalResult notTranslated(Location at, StringRef op, StringRef file) {
    return emitError(at) << "TensorFlow op '" << op << "' is registered to "
                         << file << ", which has no translation for it";
  }
  LogicalResult needInputs(llvm::ArrayRef<Value> in, Location at, StringRef op,
                           unsigned count) {
    if (in.size() < count) {
      return emitError(at) << op << " needs " << count << " inputs, has "
                           << in.size();
    }
    return success();
  }
  NamedAttribute named(StringRef name, Attribute value) {
    return builder.getNamedAttr(name, value);
  }
  bool boolAttr(const tensorflow::NodeDef &nd, StringRef name) {
    const tensorflow::AttrValue *a = attr(nd, name);
    return a && a->b();
  }
  /// A queue dequeue: its components become arguments (Variables.cpp).
  LogicalResult importDequeue(const GraphNode &node,
                              const tensorflow::NodeDef &nd, Location at,
                              llvm::ArrayRef<Value> in);
  /// --batch (TF/InputShapes.cpp): the static type of each kept
  /// Placeholder, into batchedInputs; one error lists those still unknown.
  LogicalResult resolveInputShapes(const std::vector<bool> &keep);
  llvm::StringMap<Type> batchedInputs;
  friend class InputShapeResolver;
  LogicalResult annotate(Operation *op, const GraphNode &node);
  FailureOr<FlatSymbolRefAttr> variableFor(unsigned input, Location at);
  Value readVariable(Location at, FlatSymbolRefAttr symbol) {
    return emit(at, "graph.read_variable", {},
                {builder.getNamedAttr("variable", symbol),
                 builder.getNamedAttr(
                     "value_type", TypeAttr::get(variableType.lookup(symbol)))},
                cast<ShapedType>(variableType.lookup(symbol)).getElementType());
  }
  FailureOr<FlatSymbolRefAttr> declareVariable(const GraphNode &node,
                                               Location at);

  /// Builds `name` and, when every operand is a constant, folds it through
  /// the graph dialect's folders (createOrFold), so that the shape
  /// arithmetic of gradient graphs (Shape, integer Add/Mul/FloorDiv,
  /// Reshape/Slice/Concat/Pack of the results) gives the Reshape/Sum/Tile
  /// downstream constant operands.
  Value emit(Location at, StringRef name, ValueRange operands,
             llvm::ArrayRef<NamedAttribute> attrs, Type element = {}) {
    Operation *op =
        createGraphOp(builder, at, name, operands, attrs,
                      {element ? element : getElementType(operands.front())});
    if (!op) {
      emitFailed = true;
      return {};
    }
    // graph.shape folds on its operand's type, the others on constants.
    if (op->getNumResults() == 1 && !operands.empty() &&
        (name == "graph.shape" || llvm::all_of(operands, [](Value v) {
           return matchPattern(v, m_Constant());
         }))) {
      llvm::SmallVector<Value> folded =
          foldCreatedOp(builder, op, FoldReplacement::NewConstant);
      if (!folded.empty()) {
        // Constants this node made and the fold consumed go with it.
        for (Value v : operands) {
          Operation *def = v.getDefiningOp();
          auto mine =
              std::find(created.begin() + nodeFirstCreated, created.end(), def);
          if (def && def->use_empty() && mine != created.end()) {
            created.erase(mine);
            def->erase();
          }
        }
        created.push_back(folded[0].getDefiningOp());
        return folded[0];
      }
    }
    created.push_back(op);
    return op->getResult(0);
  }
  std::optional<llvm::SmallVector<int64_t>> constInts(Value value) {
    return constantInts(value);
  }

  /// An integer tensor known at import time (shapes and their arithmetic).
  struct IntTensor {
    llvm::SmallVector<int64_t> shape;
    llvm::SmallVector<int64_t> data;
  };
  std::optional<IntTensor> constTensor(Value value) {
    DenseElementsAttr attr;
    if (!value || !matchPattern(value, m_Constant(&attr)) ||
        !isa<IntegerType>(attr.getElementType())) {
      return std::nullopt;
    }
    IntTensor t;
    t.shape.assign(attr.getType().getShape().begin(),
                   attr.getType().getShape().end());
    for (const llvm::APInt &v : attr.getValues<llvm::APInt>()) {
      t.data.push_back(attr.getElementType().isInteger(1) ? v.getZExtValue()
                                                          : v.getSExtValue());
    }
    return t;
  }
  Value intConst(Location at, const IntTensor &t, Type element) {
    auto type = RankedTensorType::get(t.shape, element);
    llvm::SmallVector<llvm::APInt> vals;
    unsigned width = element.getIntOrFloatBitWidth();
    for (int64_t v : t.data) {
      vals.push_back(llvm::APInt(width, uint64_t(v), /*isSigned=*/true,
                                 /*implicitTrunc=*/true));
    }
    return emit(
        at, "graph.constant", {},
        {builder.getNamedAttr("value", DenseElementsAttr::get(type, vals))},
        element);
  }
  /// A constant splat of `v` (float or integer element) of `shape`.
  Value splat(Location at, double v, Type element,
              llvm::ArrayRef<int64_t> shape = {}) {
    auto type = RankedTensorType::get(shape, element);
    Attribute scalar;
    if (isa<FloatType>(element)) {
      scalar = builder.getFloatAttr(element, v);
    } else if (element.isInteger(1)) {
      scalar = builder.getBoolAttr(v != 0);
    } else {
      scalar = builder.getIntegerAttr(element, int64_t(v));
    }
    return emit(
        at, "graph.constant", {},
        {builder.getNamedAttr("value", DenseElementsAttr::get(type, scalar))},
        element);
  }
  Value transpose(Location at, Value v, llvm::ArrayRef<int64_t> perm) {
    return emit(
        at, "graph.transpose", {v},
        {builder.getNamedAttr("perm", builder.getDenseI64ArrayAttr(perm))});
  }
  Value reshape(Location at, Value v, llvm::ArrayRef<int64_t> shape) {
    return emit(
        at, "graph.reshape", {v},
        {builder.getNamedAttr("shape", builder.getDenseI64ArrayAttr(shape))});
  }
  Value reduce(Location at, Value v, StringRef kind,
               llvm::ArrayRef<int64_t> axes, bool keepdims) {
    Attribute kindAttr =
        parseAttr(ctx, at, ("#graph<reduce_kind " + kind + ">").str());
    if (!kindAttr) {
      return {};
    }
    llvm::SmallVector<NamedAttribute> attrs = {
        builder.getNamedAttr("kind", kindAttr),
        builder.getNamedAttr("axes", builder.getDenseI64ArrayAttr(axes))};
    if (keepdims) {
      attrs.push_back(builder.getNamedAttr("keepdims", builder.getUnitAttr()));
    }
    return emit(at, "graph.reduce", {v}, attrs);
  }
  Value compare(Location at, Value a, Value b, StringRef dir) {
    Attribute d =
        parseAttr(ctx, at, ("#graph<compare_direction " + dir + ">").str());
    if (!d) {
      return {};
    }
    return emit(at, "graph.compare", {a, b},
                {builder.getNamedAttr("direction", d)},
                IntegerType::get(ctx, 1));
  }

  /// Whether a sink's value has no graphc type (a string: summaries, file
  /// names); such sinks are not default outputs.
  bool opaqueOp(const GraphNode &node) {
    const tensorflow::NodeDef &nd = def(node);
    for (StringRef name : {"dtype", "T", "out_type"}) {
      if (const tensorflow::AttrValue *a = attr(nd, name)) {
        if (a->value_case() == tensorflow::AttrValue::kType) {
          return !convertTFType(ctx, a->type());
        }
      }
    }
    return nd.op() == "NoOp";
  }
  LogicalResult importCutInput(const GraphNode &node, StringRef shapeSpec);
  /// ParseExample/ParseExampleV2: the dense features become arguments.
  LogicalResult importParseExample(const GraphNode &node, Location at);
  /// The strings of a DT_STRING Const (through Identity) feeding `input`.
  std::optional<llvm::SmallVector<std::string>>
  stringConstant(const NodeInput &input);
  /// (serialized input, feature key) -> the argument of a parsed feature.
  llvm::StringMap<Value> parsedFeatures;
  LogicalResult computeFrames(llvm::ArrayRef<unsigned> order);
  void noteUnshapedInputs(unsigned index);
  LogicalResult freezeVariables();

  /// TF2 function libraries: every call (StatefulPartitionedCall,
  /// PartitionedCall, or a node whose op names a library function) is
  /// replaced by its body, recursively, before the node graph is built.
  LogicalResult inlineFunctionCalls();
  static constexpr unsigned kMaxCallDepth = 64;
  static constexpr int kMaxInlinedNodes = 1 << 22;
  /// One scope of the inlining: the nodes of the top-level graph (`scope`
  /// null) or of a function body called as `scope->prefix`.
  struct InlineScope {
    std::string prefix; ///< "CALL/" prepended to body node names
    const tensorflow::FunctionDef *function = nullptr;
    /// Argument name -> the caller's spelling of the value passed.
    llvm::StringMap<std::string> args;
    /// Body node name -> node (for "node:output_arg:index" spellings).
    llvm::StringMap<const tensorflow::NodeDef *> nodes;
    std::string device; ///< the call's device, for body nodes without one
    /// The call's control inputs, for body nodes without any input.
    llvm::SmallVector<std::string> controls;
    const InlineScope *parent = nullptr;
  };
  LogicalResult
  inlineNodes(const google::protobuf::RepeatedPtrField<tensorflow::NodeDef> &in,
              const InlineScope &scope,
              google::protobuf::RepeatedPtrField<tensorflow::NodeDef> &out);
  /// The caller-side spelling of a body input (`spelling` in `scope`), or
  /// an error naming `node`.
  FailureOr<std::string> renameInput(StringRef spelling,
                                     const InlineScope &scope, StringRef node);
  const tensorflow::FunctionDef *calledFunction(const tensorflow::NodeDef &nd);
  llvm::StringMap<const tensorflow::FunctionDef *> library;
  LogicalResult importScope(llvm::ArrayRef<unsigned> order, StringRef frame,
                            const std::vector<bool> &keep);
  LogicalResult importLoop(StringRef frame, llvm::ArrayRef<unsigned> order);
  /// A TF1 loop variable: Enter -> Merge <- NextIteration, Merge -> Switch
  /// (guarded by LoopCond) -> Identity (body) / Exit (result); node indices.
  struct LoopVar {
    int enter = -1, merge = -1, next = -1, sw = -1, exit = -1;
  };
  /// A TF1 while frame being imported (Loops.cpp).
  struct LoopFrame {
    StringRef frame;
    llvm::SmallVector<unsigned> members; // nodes of this frame and below
    llvm::SmallVector<LoopVar> vars;
    int loopCond = -1;
    /// The nodes the condition and the body regions import.
    std::vector<bool> condNodes, bodyNodes;
  };
  /// Whether node `i` lies in `frame` or a frame nested in it.
  bool inFrame(unsigned i, StringRef frame);
  /// Finds the frame's members, loop variables and LoopCond.
  LogicalResult findLoopVars(LoopFrame &loop, llvm::ArrayRef<unsigned> order);
  /// Which members the condition and the body import.
  void findLoopRegions(LoopFrame &loop);
  /// Binds each Enter of the frame to its outer value.
  void bindEnters(const LoopFrame &loop, const llvm::StringMap<Value> &outer);
  /// Imports the condition and body of `op`, whose variables have `types`.
  LogicalResult fillLoop(const LoopFrame &loop, llvm::ArrayRef<unsigned> order,
                         mlir::scf::WhileOp op, llvm::ArrayRef<Type> types);
  /// TF1 control flow: the frame of each node and each frame's parent.
  std::vector<std::string> frameOf;
  llvm::StringMap<std::string> frameParent;
  /// --inputs (or a signature's): node -> shape spelling.
  llvm::StringMap<std::string> cutInputs;
  LogicalResult convOrPool(const tensorflow::NodeDef &nd, Location at,
                           llvm::ArrayRef<Value> in, Value &result);
  LogicalResult stridedSlice(const tensorflow::NodeDef &nd, Location at,
                             llvm::ArrayRef<Value> in, Value &result);
  /// A SpaceToBatchND awaiting the Conv2D of a dilated convolution.
  struct PendingSpaceToBatch {
    Value input;
    llvm::SmallVector<int64_t> block, paddings;
  };
  llvm::StringMap<PendingSpaceToBatch> spaceToBatch;
  /// Results of convolutions folded from SpaceToBatchND (their
  /// BatchToSpaceND becomes a crop).
  llvm::DenseSet<Value> fromSpaceToBatch;
  /// _Send nodes: their tensors become results of @main.
  struct Send {
    Value value;
    std::string node, tensorName, device;
  };
  llvm::SmallVector<Send> sends;

  /// Partitioned graphs (TF/Partitions.cpp): a _Send and the _Recv that
  /// meets it at TensorFlow's rendezvous key, with their tasks.
  struct Rendezvous {
    unsigned send, recv;
    std::string key;
    dist::DeviceAttr from, to;
  };
  /// Pairs every _Send and _Recv of the graph by key; orders each _Recv
  /// after its _Send (a control edge that dropRendezvousEdges removes).
  LogicalResult pairSendsAndRecvs();
  void dropRendezvousEdges();
  /// A paired _Send or _Recv: dist.send / dist.recv between tasks, a plain
  /// edge within one.
  LogicalResult importRendezvous(const GraphNode &node, Location at,
                                 llvm::ArrayRef<Value> in, Value &result);
  /// One body per task (func.func until closeTasks makes each a dist.task)
  /// and the module's dist.cluster.
  LogicalResult openTasks(llvm::ArrayRef<unsigned> order,
                          const std::vector<bool> &keep);
  /// Points `func` and the builder at the task of node `index`.
  void enterTaskOf(unsigned index);
  LogicalResult
  closeTasks(llvm::ArrayRef<std::pair<unsigned, unsigned>> outputs);
  /// _Send and _Recv node name -> its pair.
  llvm::StringMap<Rendezvous> rendezvous;
  /// Rendezvous key -> the value its _Send sends.
  llvm::StringMap<Value> sentValues;
  /// Whether some pair crosses tasks: the import is a dist job.
  bool partitioned = false;
  struct TaskBody {
    dist::DeviceAttr device;
    func::FuncOp body;
  };
  llvm::SmallVector<TaskBody> tasks;
  /// Node -> its slot in `tasks` (-1: not imported).
  std::vector<int> nodeTask;
  /// "node:index" of values graphc has no type for (strings), with what
  /// they are; consumers that need them are refused.
  llvm::StringMap<std::string> opaque;
  /// Set when an op of the current node could not be built (its error is
  /// already emitted).
  bool emitFailed = false;
  /// Nodes whose device is on an op, argument or result of the import.
  llvm::StringSet<> placed;

  MLIRContext *ctx;
  OpBuilder builder;
  TFModel &model;
  const ImportOptions &options;
  std::string fileName;
  NodeGraph graph;
  ModuleOp module;
  func::FuncOp func;
  /// "node:index" -> value.
  llvm::StringMap<Value> values;
  /// Variable node name -> symbol; values that are variable refs/handles.
  llvm::StringMap<FlatSymbolRefAttr> variables;
  /// "node:index" of a variable ref or resource handle -> its symbol.
  llvm::StringMap<FlatSymbolRefAttr> variableOf;
  llvm::DenseMap<Attribute, Type> variableType;
  /// The keys of the current node's inputs.
  llvm::SmallVector<std::string> inKeys;
  llvm::SmallVector<Operation *> created;
  /// Where the ops of the node being imported start in `created`.
  unsigned nodeFirstCreated = 0;
};

} // namespace graphc::import

#endif // GRAPHC_LIB_IMPORT_TF_GRAPHDEFIMPORTERIMPL_H
