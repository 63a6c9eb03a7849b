//===- SupportedOps.cpp - the importers' op tables --------------------------===//
//
// Each rule names the graph-dialect ops its translation creates (see
// docs/design/graph-op-set.md); an op is supported when all of them are
// registered. Keep the tables sorted by op name: lookup is a binary search.
//
//===----------------------------------------------------------------------===//

#include "graphc/Import/SupportedOps.h"

#include "graphc/Import/NodeGraph.h"
#include "graphc/Import/OnnxReader.h"
#include "graphc/Import/TFReader.h"

#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/OperationSupport.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringMap.h"

#include <algorithm>
#include <map>

using namespace llvm;

namespace graphc::import {

namespace {

constexpr OpAction M = OpAction::Map;
constexpr OpAction In = OpAction::GraphInput;
constexpr OpAction D = OpAction::Drop;

// clang-format off
const OpRule kOnnxRules[] = {
  {"Abs", M, "graph.abs"},
  {"Acos", M, "graph.acos"},
  {"Acosh", M, "graph.acosh"},
  {"Add", M, "graph.add"},
  {"AffineGrid", M, "graph.constant,graph.matmul,graph.reshape"},
  {"And", M, "graph.and"},
  {"ArgMax", M, "graph.arg_reduce"},
  {"ArgMin", M, "graph.arg_reduce"},
  {"Asin", M, "graph.asin"},
  {"Asinh", M, "graph.asinh"},
  {"Atan", M, "graph.atan"},
  {"Atanh", M, "graph.atanh"},
  {"AveragePool", M, "graph.pool"},
  {"BatchNormalization", M, "graph.batch_norm"},
  {"BitCast", M, "graph.bitcast"},
  {"BitShift", M, "graph.shift_left,graph.shift_right"},
  {"BitwiseAnd", M, "graph.bitwise_and"},
  {"BitwiseNot", M, "graph.bitwise_not"},
  {"BitwiseOr", M, "graph.bitwise_or"},
  {"BitwiseXor", M, "graph.bitwise_xor"},
  {"BlackmanWindow", M, "graph.constant"},
  {"Cast", M, "graph.cast"},
  {"CastLike", M, "graph.cast"},
  {"Ceil", M, "graph.ceil"},
  {"Celu", M, "graph.exp,graph.div,graph.sub,graph.mul,graph.max,graph.min,graph.add"},
  {"CenterCropPad", M, "graph.slice,graph.pad"},
  {"Clip", M, "graph.clamp"},
  {"Col2Im", M, "graph.col2im"},
  {"Concat", M, "graph.concat"},
  {"Constant", M, "graph.constant"},
  {"ConstantOfShape", M, "graph.constant"},
  {"Conv", M, "graph.conv"},
  {"ConvInteger", M, "graph.cast,graph.sub,graph.reshape,graph.conv"},
  {"ConvTranspose", M, "graph.conv_transpose"},
  {"Cos", M, "graph.cos"},
  {"Cosh", M, "graph.cosh"},
  {"CumProd", M, "graph.cumulative"},
  {"CumSum", M, "graph.cumulative"},
  {"DFT", M, "graph.transpose,graph.reshape,graph.matmul"},
  {"DepthToSpace", M, "graph.reshape,graph.transpose"},
  {"DequantizeLinear", M, "graph.cast,graph.sub,graph.mul,graph.reshape,graph.unsqueeze,graph.broadcast_to,graph.slice"},
  {"Det", M, "graph.reshape,graph.gather,graph.reduce,graph.mul"},
  {"Div", M, "graph.div"},
  {"Dropout", M, "graph.identity"},
  {"DynamicQuantizeLinear", M, "graph.reduce,graph.min,graph.max,graph.sub,graph.div,graph.clamp,graph.round,graph.add,graph.cast"},
  {"Einsum", M, "graph.reduce,graph.transpose,graph.reshape,graph.matmul,graph.broadcast_to"},
  {"Elu", M, "graph.elu"},
  {"Equal", M, "graph.compare"},
  {"Erf", M, "graph.erf"},
  {"Exp", M, "graph.exp"},
  {"Expand", M, "graph.broadcast_to"},
  {"EyeLike", M, "graph.constant"},
  {"Flatten", M, "graph.reshape"},
  {"Floor", M, "graph.floor"},
  {"GRU", M, "graph.gru"},
  {"Gather", M, "graph.gather"},
  {"GatherElements", M, "graph.gather_elements"},
  {"GatherND", M, "graph.gather_nd"},
  {"Gelu", M, "graph.gelu"},
  {"Gemm", M, "graph.matmul,graph.mul,graph.add"},
  {"GlobalAveragePool", M, "graph.reduce"},
  {"GlobalMaxPool", M, "graph.reduce"},
  {"Greater", M, "graph.compare"},
  {"GreaterOrEqual", M, "graph.compare"},
  {"GridSample", M, "graph.grid_sample"},
  {"GroupNormalization", M, "graph.reshape,graph.reduce,graph.sub,graph.mul,graph.add,graph.rsqrt"},
  {"HammingWindow", M, "graph.constant"},
  {"HannWindow", M, "graph.constant"},
  {"HardSigmoid", M, "graph.mul,graph.add,graph.clamp"},
  {"HardSwish", M, "graph.mul,graph.add,graph.clamp"},
  {"Hardmax", M, "graph.arg_reduce,graph.one_hot"},
  {"Identity", M, "graph.identity"},
  {"InstanceNormalization", M, "graph.reduce,graph.sub,graph.mul,graph.add,graph.rsqrt,graph.reshape"},
  {"IsInf", M, "graph.compare,graph.or,graph.and"},
  {"IsNaN", M, "graph.compare"},
  {"LRN", M, "graph.lrn"},
  {"LSTM", M, "graph.lstm"},
  {"LayerNormalization", M, "graph.layer_norm"},
  {"LeakyRelu", M, "graph.leaky_relu"},
  {"Less", M, "graph.compare"},
  {"LessOrEqual", M, "graph.compare"},
  {"Log", M, "graph.log"},
  {"LogSoftmax", M, "graph.log_softmax,graph.reshape"},
  {"LpNormalization", M, "graph.abs,graph.mul,graph.reduce,graph.sqrt,graph.div"},
  {"LpPool", M, "graph.abs,graph.mul,graph.pow,graph.pool,graph.sqrt"},
  {"MatMul", M, "graph.matmul"},
  {"MatMulInteger", M, "graph.cast,graph.sub,graph.reshape,graph.matmul"},
  {"Max", M, "graph.max"},
  {"MaxPool", M, "graph.pool"},
  {"MaxUnpool", M, "graph.constant,graph.reshape,graph.scatter_elements"},
  {"Mean", M, "graph.add,graph.div"},
  {"MeanVarianceNormalization", M, "graph.reduce,graph.mul,graph.sub,graph.sqrt,graph.add,graph.div"},
  {"MelWeightMatrix", M, "graph.constant"},
  {"Min", M, "graph.min"},
  {"Mish", M, "graph.softplus,graph.tanh,graph.mul"},
  {"Mod", M, "graph.mod,graph.rem"},
  {"Mul", M, "graph.mul"},
  {"Neg", M, "graph.neg"},
  {"NegativeLogLikelihoodLoss", M, "graph.gather_elements,graph.gather,graph.compare,graph.select,graph.cast,graph.neg,graph.mul,graph.div,graph.reduce,graph.squeeze,graph.unsqueeze"},
  {"Not", M, "graph.not"},
  {"OneHot", M, "graph.slice,graph.reshape,graph.one_hot"},
  {"Or", M, "graph.or"},
  {"PRelu", M, "graph.compare,graph.mul,graph.select"},
  {"Pad", M, "graph.pad,graph.slice"},
  {"Pow", M, "graph.pow"},
  {"QLinearConv", M, "graph.cast,graph.sub,graph.reshape,graph.conv,graph.mul,graph.div,graph.round,graph.add,graph.clamp"},
  {"QLinearMatMul", M, "graph.cast,graph.sub,graph.reshape,graph.matmul,graph.mul,graph.div,graph.round,graph.add,graph.clamp"},
  {"QuantizeLinear", M, "graph.div,graph.round,graph.add,graph.clamp,graph.cast,graph.reshape,graph.unsqueeze,graph.broadcast_to,graph.slice"},
  {"Range", M, "graph.constant"},
  {"Reciprocal", M, "graph.reciprocal"},
  {"ReduceL1", M, "graph.abs,graph.reduce"},
  {"ReduceL2", M, "graph.mul,graph.reduce,graph.sqrt"},
  {"ReduceLogSum", M, "graph.reduce,graph.log"},
  {"ReduceLogSumExp", M, "graph.exp,graph.reduce,graph.log"},
  {"ReduceMax", M, "graph.reduce"},
  {"ReduceMean", M, "graph.reduce"},
  {"ReduceMin", M, "graph.reduce"},
  {"ReduceProd", M, "graph.reduce"},
  {"ReduceSum", M, "graph.reduce"},
  {"ReduceSumSquare", M, "graph.mul,graph.reduce"},
  {"Relu", M, "graph.relu"},
  {"Reshape", M, "graph.reshape"},
  {"Resize", M, "graph.resize"},
  {"ReverseSequence", M, "graph.compare,graph.sub,graph.select,graph.broadcast_to,graph.gather_elements"},
  {"Round", M, "graph.round"},
  {"STFT", M, "graph.gather,graph.mul,graph.transpose,graph.reshape,graph.matmul"},
  {"Scatter", M, "graph.scatter_elements"},
  {"ScatterElements", M, "graph.scatter_elements"},
  {"ScatterND", M, "graph.scatter_nd"},
  {"Selu", M, "graph.exp,graph.sub,graph.mul,graph.compare,graph.select"},
  {"Shape", M, "graph.shape,graph.slice"},
  {"Shrink", M, "graph.compare,graph.select,graph.add,graph.sub"},
  {"Sigmoid", M, "graph.sigmoid"},
  {"Sign", M, "graph.sign"},
  {"Sin", M, "graph.sin"},
  {"Sinh", M, "graph.sinh"},
  {"Size", M, "graph.constant,graph.shape,graph.reduce"},
  {"Slice", M, "graph.slice"},
  {"Softmax", M, "graph.softmax,graph.reshape"},
  {"SoftmaxCrossEntropyLoss", M, "graph.log_softmax,graph.gather_elements,graph.gather,graph.compare,graph.select,graph.cast,graph.neg,graph.mul,graph.div,graph.reduce,graph.squeeze,graph.unsqueeze"},
  {"Softplus", M, "graph.softplus"},
  {"Softsign", M, "graph.abs,graph.add,graph.div"},
  {"SpaceToDepth", M, "graph.reshape,graph.transpose"},
  {"Split", M, "graph.split"},
  {"Sqrt", M, "graph.sqrt"},
  {"Squeeze", M, "graph.squeeze"},
  {"Sub", M, "graph.sub"},
  {"Sum", M, "graph.add"},
  {"Swish", M, "graph.mul,graph.sigmoid"},
  {"Tan", M, "graph.tan"},
  {"Tanh", M, "graph.tanh"},
  {"ThresholdedRelu", M, "graph.compare,graph.select"},
  {"Tile", M, "graph.tile"},
  {"TopK", M, "graph.top_k"},
  {"Transpose", M, "graph.transpose"},
  {"Trilu", M, "graph.constant,graph.compare,graph.select"},
  {"Unsqueeze", M, "graph.unsqueeze"},
  {"Upsample", M, "graph.resize"},
  {"Where", M, "graph.select"},
  {"Xor", M, "graph.xor"},
};

const OpRule kTFRules[] = {
  {"Abs", M, "graph.abs"},
  {"Add", M, "graph.add"},
  {"AddN", M, "graph.add"},
  {"AddV2", M, "graph.add"},
  {"ApplyAdam", M, "graph.read_variable,graph.adam_update,graph.assign_variable"},
  {"ApplyFtrl", M, "graph.read_variable,graph.ftrl_update,graph.assign_variable"},
  {"ApplyFtrlV2", M, "graph.read_variable,graph.ftrl_update,graph.assign_variable"},
  {"ApplyGradientDescent", M, "graph.read_variable,graph.sgd_update,graph.assign_variable"},
  {"ApplyMomentum", M, "graph.read_variable,graph.momentum_update,graph.assign_variable"},
  {"ArgMax", M, "graph.arg_reduce"},
  {"ArgMin", M, "graph.arg_reduce"},
  {"Assert", D, ""},
  {"Assign", M, "graph.assign_variable"},
  {"AssignAdd", M, "graph.assign_variable"},
  {"AssignAddVariableOp", M, "graph.assign_variable"},
  {"AssignSub", M, "graph.assign_variable"},
  {"AssignSubVariableOp", M, "graph.assign_variable"},
  {"AssignVariableOp", M, "graph.assign_variable"},
  {"AudioSummary", D, ""},
  {"AudioSummaryV2", D, ""},
  {"AvgPool", M, "graph.pool,graph.transpose"},
  {"BatchMatMul", M, "graph.matmul"},
  {"BatchMatMulV2", M, "graph.matmul"},
  {"BatchToSpaceND", M, "graph.slice"},
  {"BiasAdd", M, "graph.add"},
  {"BiasAddGrad", M, "graph.reduce"},
  {"BroadcastGradientArgs", M, "graph.constant"},
  {"BroadcastTo", M, "graph.broadcast_to"},
  {"Cast", M, "graph.cast"},
  {"Ceil", M, "graph.ceil"},
  {"CheckNumerics", M, "graph.identity"},
  {"Concat", M, "graph.concat"},
  {"ConcatV2", M, "graph.concat"},
  {"Const", M, "graph.constant"},
  {"Conv2D", M, "graph.conv,graph.transpose"},
  {"Cos", M, "graph.cos"},
  {"DepthwiseConv2dNative", M, "graph.conv,graph.transpose,graph.reshape"},
  {"Div", M, "graph.div"},
  {"DynamicStitch", M, "graph.constant"},
  {"Elu", M, "graph.elu"},
  {"Enter", M, "scf.while"},
  {"Equal", M, "graph.compare"},
  {"Erf", M, "graph.erf"},
  {"Exit", M, "scf.while"},
  {"Exp", M, "graph.exp"},
  {"ExpandDims", M, "graph.unsqueeze"},
  {"FIFOQueueV2", In, ""},
  {"Fill", M, "graph.broadcast_to"},
  {"Floor", M, "graph.floor"},
  {"FloorDiv", M, "graph.floor_div"},
  {"FloorMod", M, "graph.mod"},
  {"FusedBatchNorm", M, "graph.batch_norm,graph.transpose"},
  {"FusedBatchNormV3", M, "graph.batch_norm,graph.transpose"},
  {"Gather", M, "graph.gather"},
  {"GatherNd", M, "graph.gather_nd"},
  {"GatherV2", M, "graph.gather"},
  {"Greater", M, "graph.compare"},
  {"GreaterEqual", M, "graph.compare"},
  {"HistogramSummary", D, ""},
  {"Identity", M, "graph.identity"},
  {"IdentityN", M, "graph.identity"},
  {"ImageSummary", D, ""},
  {"Inv", M, "graph.reciprocal"},
  {"IsVariableInitialized", M, "graph.constant"},
  {"LeakyRelu", M, "graph.leaky_relu"},
  {"Less", M, "graph.compare"},
  {"LessEqual", M, "graph.compare"},
  {"Log", M, "graph.log"},
  {"LogSoftmax", M, "graph.log_softmax,graph.reshape"},
  {"LogicalAnd", M, "graph.and"},
  {"LogicalNot", M, "graph.not"},
  {"LogicalOr", M, "graph.or"},
  {"LoopCond", M, "scf.while"},
  {"MatMul", M, "graph.matmul"},
  {"Max", M, "graph.reduce"},
  {"MaxPool", M, "graph.pool,graph.transpose"},
  {"Maximum", M, "graph.max"},
  {"Mean", M, "graph.reduce"},
  {"Merge", M, "scf.while"},
  {"MergeSummary", D, ""},
  {"MergeV2Checkpoints", D, ""},
  {"Min", M, "graph.reduce"},
  {"Minimum", M, "graph.min"},
  {"Mul", M, "graph.mul"},
  {"Neg", M, "graph.neg"},
  {"NextIteration", M, "scf.while"},
  {"NoOp", M, ""},
  {"NotEqual", M, "graph.compare"},
  {"OneHot", M, "graph.slice,graph.reshape,graph.one_hot"},
  {"OnesLike", M, "graph.constant"},
  {"Pack", M, "graph.unsqueeze,graph.concat"},
  {"Pad", M, "graph.pad,graph.slice"},
  {"PadV2", M, "graph.pad"},
  {"PaddingFIFOQueueV2", In, ""},
  {"ParseExample", In, ""},
  {"ParseExampleV2", In, ""},
  {"PartitionedCall", M, "func.call"},
  {"Placeholder", M, ""},
  {"PlaceholderWithDefault", M, "graph.identity"},
  {"Pow", M, "graph.pow"},
  {"PreventGradient", M, "graph.identity"},
  {"Print", D, ""},
  {"PrintV2", D, ""},
  {"Prod", M, "graph.reduce"},
  {"QueueCloseV2", D, ""},
  {"QueueDequeueManyV2", In, ""},
  {"QueueDequeueUpToV2", In, ""},
  {"QueueDequeueV2", In, ""},
  {"QueueEnqueueManyV2", D, ""},
  {"QueueEnqueueV2", D, ""},
  {"QueueSizeV2", D, ""},
  {"RandomShuffleQueueV2", In, ""},
  {"RandomStandardNormal", In, ""},
  {"RandomUniform", In, ""},
  {"Range", M, "graph.constant"},
  {"Rank", M, "graph.constant"},
  {"ReadVariableOp", M, "graph.read_variable"},
  {"RealDiv", M, "graph.div"},
  {"Reciprocal", M, "graph.reciprocal"},
  {"Relu", M, "graph.relu"},
  {"Relu6", M, "graph.clamp"},
  {"ReluGrad", M, "graph.compare,graph.select"},
  {"Reshape", M, "graph.reshape,graph.dynamic_reshape"},
  {"ResourceApplyAdam", M, "graph.read_variable,graph.adam_update,graph.assign_variable"},
  {"ResourceApplyFtrl", M, "graph.read_variable,graph.ftrl_update,graph.assign_variable"},
  {"ResourceApplyFtrlV2", M, "graph.read_variable,graph.ftrl_update,graph.assign_variable"},
  {"ResourceApplyGradientDescent", M, "graph.read_variable,graph.sgd_update,graph.assign_variable"},
  {"ResourceApplyMomentum", M, "graph.read_variable,graph.momentum_update,graph.assign_variable"},
  {"ResourceSparseApplyFtrl", M, "graph.read_variable,graph.gather,graph.ftrl_update,graph.scatter_nd,graph.assign_variable"},
  {"Restore", D, ""},
  {"RestoreSlice", D, ""},
  {"RestoreV2", D, ""},
  {"Round", M, "graph.round"},
  {"Rsqrt", M, "graph.rsqrt"},
  {"Save", D, ""},
  {"SaveSlices", D, ""},
  {"SaveV2", D, ""},
  {"ScalarSummary", D, ""},
  {"Select", M, "graph.select"},
  {"SelectV2", M, "graph.select"},
  {"Shape", M, "graph.shape,graph.slice"},
  {"ShardedFilename", D, ""},
  {"ShardedFilespec", D, ""},
  {"Sigmoid", M, "graph.sigmoid"},
  {"SigmoidGrad", M, "graph.mul,graph.sub"},
  {"Sign", M, "graph.sign"},
  {"Sin", M, "graph.sin"},
  {"Size", M, "graph.constant"},
  {"Slice", M, "graph.slice"},
  {"Snapshot", M, "graph.identity"},
  {"Softmax", M, "graph.softmax,graph.reshape"},
  {"SoftmaxCrossEntropyWithLogits", M, "graph.softmax_cross_entropy"},
  {"Softplus", M, "graph.softplus"},
  {"SpaceToBatchND", M, "graph.conv"},
  {"SparseApplyFtrl", M, "graph.read_variable,graph.gather,graph.ftrl_update,graph.scatter_nd,graph.assign_variable"},
  {"SparseSoftmaxCrossEntropyWithLogits", M, "graph.softmax_cross_entropy"},
  {"Split", M, "graph.split"},
  {"SplitV", M, "graph.split"},
  {"Sqrt", M, "graph.sqrt"},
  {"Square", M, "graph.mul"},
  {"SquaredDifference", M, "graph.sub,graph.mul"},
  {"Squeeze", M, "graph.squeeze"},
  {"StatefulPartitionedCall", M, "func.call"},
  {"StopGradient", M, "graph.identity"},
  {"StridedSlice", M, "graph.slice,graph.reshape"},
  {"StringJoin", D, ""},
  {"Sub", M, "graph.sub"},
  {"Sum", M, "graph.reduce"},
  {"Switch", M, "scf.while"},
  {"Tanh", M, "graph.tanh"},
  {"TanhGrad", M, "graph.mul,graph.sub"},
  {"TensorSummary", D, ""},
  {"TensorSummaryV2", D, ""},
  {"Tile", M, "graph.tile"},
  {"Transpose", M, "graph.transpose"},
  {"TruncatedNormal", In, ""},
  {"Unpack", M, "graph.split,graph.squeeze"},
  {"VarHandleOp", M, "graph.variable"},
  {"VarIsInitializedOp", M, "graph.constant"},
  {"Variable", M, "graph.variable"},
  {"VariableV2", M, "graph.variable"},
  {"WriteSummary", D, ""},
  {"ZerosLike", M, "graph.constant"},
  {"_Recv", M, ""},
  {"_Send", M, ""},
};
// clang-format on

template <size_t N>
const OpRule *lookup(const OpRule (&table)[N], StringRef op) {
  const OpRule *it =
      std::lower_bound(std::begin(table), std::end(table), op,
                       [](const OpRule &rule, StringRef name) {
                         return rule.op < name;
                       });
  if (it == std::end(table) || it->op != op)
    return nullptr;
  return it;
}

/// Accumulates unsupported op types across graphs.
class UnsupportedCollector {
public:
  explicit UnsupportedCollector(mlir::MLIRContext &context)
      : context(context) {}

  void add(const OpRule *rule, StringRef displayOp, StringRef node,
           bool translated) {
    std::string reason;
    if (!rule) {
      reason = "no import rule";
    } else if (!translated) {
      reason = "no translation yet";
    } else {
      auto cached = missingCache.find(rule->op);
      if (cached == missingCache.end()) {
        std::vector<std::string> missing = missingOps(*rule, context);
        std::string text;
        if (!missing.empty())
          text = "needs " + join(missing, ", ");
        cached = missingCache.try_emplace(rule->op, text).first;
      }
      reason = cached->second;
      if (reason.empty())
        return;
    }
    UnsupportedOp &entry = byOp[displayOp.str()];
    entry.op = displayOp.str();
    entry.reason = reason;
    entry.nodes.push_back(node.str());
  }

  std::vector<UnsupportedOp> take() {
    std::vector<UnsupportedOp> out;
    for (auto &[name, entry] : byOp)
      out.push_back(std::move(entry));
    return out;
  }

private:
  mlir::MLIRContext &context;
  StringMap<std::string> missingCache;
  std::map<std::string, UnsupportedOp> byOp;
};

void collectOnnxGraph(const onnx::GraphProto &graph, StringRef prefix,
                      UnsupportedCollector &collector) {
  for (int i = 0, e = graph.node_size(); i != e; ++i) {
    const onnx::NodeProto &node = graph.node(i);
    std::string name = prefix.str() + (node.name().empty()
                                           ? node.op_type() + "_#" +
                                                 std::to_string(i)
                                           : node.name());
    StringRef domain = node.domain();
    if (domain == "ai.onnx")
      domain = "";
    std::string display =
        domain.empty() ? node.op_type() : (domain + "." + node.op_type()).str();
    collector.add(lookupOnnxOp(domain, node.op_type()), display, name,
                  isOnnxOpTranslated(node.op_type()));
    for (const onnx::AttributeProto &attr : node.attribute()) {
      if (attr.has_g())
        collectOnnxGraph(attr.g(), name + "/" + attr.name() + "/", collector);
      for (const onnx::GraphProto &g : attr.graphs())
        collectOnnxGraph(g, name + "/" + attr.name() + "/", collector);
    }
  }
}

} // namespace

const OpRule *lookupOnnxOp(StringRef domain, StringRef op) {
  if (!domain.empty() && domain != "ai.onnx")
    return nullptr;
  return lookup(kOnnxRules, op);
}

const OpRule *lookupTFOp(StringRef op) { return lookup(kTFRules, op); }

std::vector<std::string> missingOps(const OpRule &rule,
                                    mlir::MLIRContext &context) {
  std::vector<std::string> missing;
  SmallVector<StringRef, 4> names;
  rule.creates.split(names, ',', -1, /*KeepEmpty=*/false);
  for (StringRef name : names)
    if (!mlir::RegisteredOperationName::lookup(name, &context))
      missing.push_back(name.str());
  return missing;
}

Expected<std::vector<UnsupportedOp>>
listUnsupportedOps(StringRef path, ModelFormat format,
                   mlir::MLIRContext &context, const ReadLimits &limits) {
  context.loadAllAvailableDialects();
  UnsupportedCollector collector(context);
  if (format == ModelFormat::Onnx) {
    auto model = readOnnxModel(path, limits);
    if (!model)
      return model.takeError();
    collectOnnxGraph((*model)->graph(), "", collector);
    return collector.take();
  }
  if (format == ModelFormat::Mlir)
    return makeError(path, "", "--list-unsupported reads ONNX and TensorFlow "
                               "models, not MLIR");
  auto model = readTFModel(path, format, limits);
  if (!model)
    return model.takeError();
  // A call names a library function by its op; those are supported when
  // their bodies are, which the loop over the library checks.
  StringMap<bool> functions;
  for (const tensorflow::FunctionDef &function :
       model->graph.library().function())
    functions[function.signature().name()] = true;
  for (const tensorflow::NodeDef &node : model->graph.node())
    if (!functions.count(node.op()))
      collector.add(lookupTFOp(node.op()), node.op(), node.name(),
                    isTFOpTranslated(node.op()));
  for (const tensorflow::FunctionDef &function :
       model->graph.library().function())
    for (const tensorflow::NodeDef &node : function.node_def())
      if (!functions.count(node.op()))
        collector.add(lookupTFOp(node.op()), node.op(),
                      function.signature().name() + "/" + node.name(),
                      isTFOpTranslated(node.op()));
  return collector.take();
}

} // namespace graphc::import
