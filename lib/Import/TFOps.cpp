//===- TFOps.cpp - the TensorFlow importer's op registry ------------------===//
//
// The one list of the TensorFlow ops graphc knows. Each entry: op, what the
// importer does with it (map onto graph ops, make it an input, drop it with a
// warning), the graph-dialect ops the translation creates (the op is reported
// unsupported while one is not registered), the file that translates it
// (empty: a planned rule, no translation yet) and a note for the support
// table. Keep it sorted by op: lookup is a binary search.
//
//===----------------------------------------------------------------------===//

#include "graphc/Import/SupportedOps.h"

#include <algorithm>
#include <vector>

namespace graphc::import {

namespace {

constexpr OpAction M = OpAction::Map;
constexpr OpAction In = OpAction::GraphInput;
constexpr OpAction D = OpAction::Drop;

struct TFOp {
  const char *op;
  OpAction action;
  const char *creates;
  const char *file;
  const char *notes;
};

// clang-format off
const TFOp kTFOps[] = {
  {"Abs", M, "graph.abs", "GraphDefImporter.cpp", ""},
  {"Add", M, "graph.add", "GraphDefImporter.cpp", ""},
  {"AddN", M, "graph.add", "GraphDefImporter.cpp", ""},
  {"AddV2", M, "graph.add", "GraphDefImporter.cpp", ""},
  {"ApplyAdam", M, "graph.read_variable,graph.adam_update,graph.assign_variable", "GraphDefImporter.cpp", ""},
  {"ApplyFtrl", M, "graph.read_variable,graph.ftrl_update,graph.assign_variable", "GraphDefImporter.cpp", ""},
  {"ApplyFtrlV2", M, "graph.read_variable,graph.ftrl_update,graph.assign_variable", "", ""},
  {"ApplyGradientDescent", M, "graph.read_variable,graph.sgd_update,graph.assign_variable", "GraphDefImporter.cpp", ""},
  {"ApplyMomentum", M, "graph.read_variable,graph.momentum_update,graph.assign_variable", "GraphDefImporter.cpp", ""},
  {"ArgMax", M, "graph.arg_reduce", "GraphDefImporter.cpp", ""},
  {"ArgMin", M, "graph.arg_reduce", "GraphDefImporter.cpp", ""},
  {"Assert", D, "", "GraphDefImporter.cpp", "dropped with a warning"},
  {"Assign", M, "graph.assign_variable", "GraphDefImporter.cpp", ""},
  {"AssignAdd", M, "graph.assign_variable", "GraphDefImporter.cpp", ""},
  {"AssignAddVariableOp", M, "graph.assign_variable", "GraphDefImporter.cpp", ""},
  {"AssignSub", M, "graph.assign_variable", "GraphDefImporter.cpp", ""},
  {"AssignSubVariableOp", M, "graph.assign_variable", "GraphDefImporter.cpp", ""},
  {"AssignVariableOp", M, "graph.assign_variable", "GraphDefImporter.cpp", ""},
  {"AudioSummary", D, "", "GraphDefImporter.cpp", "dropped with a warning"},
  {"AudioSummaryV2", D, "", "GraphDefImporter.cpp", "dropped with a warning"},
  {"AvgPool", M, "graph.pool,graph.transpose", "GraphDefImporter.cpp", ""},
  {"BatchMatMul", M, "graph.matmul", "GraphDefImporter.cpp", ""},
  {"BatchMatMulV2", M, "graph.matmul", "GraphDefImporter.cpp", ""},
  {"BatchToSpaceND", M, "graph.slice", "GraphDefImporter.cpp", ""},
  {"BiasAdd", M, "graph.add", "GraphDefImporter.cpp", ""},
  {"BiasAddGrad", M, "graph.reduce", "GraphDefImporter.cpp", ""},
  {"BroadcastGradientArgs", M, "graph.constant", "GraphDefImporter.cpp", ""},
  {"BroadcastTo", M, "graph.broadcast_to", "", ""},
  {"Cast", M, "graph.cast", "GraphDefImporter.cpp", ""},
  {"Ceil", M, "graph.ceil", "GraphDefImporter.cpp", ""},
  {"CheckNumerics", M, "graph.identity", "GraphDefImporter.cpp", ""},
  {"Concat", M, "graph.concat", "GraphDefImporter.cpp", ""},
  {"ConcatV2", M, "graph.concat", "GraphDefImporter.cpp", ""},
  {"Const", M, "graph.constant", "GraphDefImporter.cpp", ""},
  {"Conv2D", M, "graph.conv,graph.transpose", "GraphDefImporter.cpp", ""},
  {"Cos", M, "graph.cos", "GraphDefImporter.cpp", ""},
  {"DepthwiseConv2dNative", M, "graph.conv,graph.transpose,graph.reshape", "GraphDefImporter.cpp", ""},
  {"Div", M, "graph.div", "GraphDefImporter.cpp", ""},
  {"DynamicStitch", M, "graph.constant", "GraphDefImporter.cpp", ""},
  {"Elu", M, "graph.elu", "GraphDefImporter.cpp", ""},
  {"Enter", M, "scf.while", "GraphDefImporter.cpp", "TF1 while loop: one scf.while per frame"},
  {"Equal", M, "graph.compare", "GraphDefImporter.cpp", ""},
  {"Erf", M, "graph.erf", "GraphDefImporter.cpp", ""},
  {"Exit", M, "scf.while", "GraphDefImporter.cpp", "TF1 while loop: one scf.while per frame"},
  {"Exp", M, "graph.exp", "GraphDefImporter.cpp", ""},
  {"ExpandDims", M, "graph.unsqueeze", "GraphDefImporter.cpp", ""},
  {"FIFOQueueV2", In, "", "GraphDefImporter.cpp", "becomes an input of the function"},
  {"Fill", M, "graph.broadcast_to", "GraphDefImporter.cpp", ""},
  {"Floor", M, "graph.floor", "GraphDefImporter.cpp", ""},
  {"FloorDiv", M, "graph.floor_div", "GraphDefImporter.cpp", ""},
  {"FloorMod", M, "graph.mod", "GraphDefImporter.cpp", ""},
  {"FusedBatchNorm", M, "graph.batch_norm,graph.transpose", "GraphDefImporter.cpp", ""},
  {"FusedBatchNormV3", M, "graph.batch_norm,graph.transpose", "GraphDefImporter.cpp", ""},
  {"Gather", M, "graph.gather", "GraphDefImporter.cpp", ""},
  {"GatherNd", M, "graph.gather_nd", "", ""},
  {"GatherV2", M, "graph.gather", "GraphDefImporter.cpp", ""},
  {"Greater", M, "graph.compare", "GraphDefImporter.cpp", ""},
  {"GreaterEqual", M, "graph.compare", "GraphDefImporter.cpp", ""},
  {"HistogramSummary", D, "", "GraphDefImporter.cpp", "dropped with a warning"},
  {"Identity", M, "graph.identity", "GraphDefImporter.cpp", ""},
  {"IdentityN", M, "graph.identity", "GraphDefImporter.cpp", ""},
  {"ImageSummary", D, "", "GraphDefImporter.cpp", "dropped with a warning"},
  {"Inv", M, "graph.reciprocal", "GraphDefImporter.cpp", ""},
  {"IsVariableInitialized", M, "graph.constant", "GraphDefImporter.cpp", ""},
  {"LeakyRelu", M, "graph.leaky_relu", "GraphDefImporter.cpp", ""},
  {"Less", M, "graph.compare", "GraphDefImporter.cpp", ""},
  {"LessEqual", M, "graph.compare", "GraphDefImporter.cpp", ""},
  {"Log", M, "graph.log", "GraphDefImporter.cpp", ""},
  {"LogSoftmax", M, "graph.log_softmax,graph.reshape", "GraphDefImporter.cpp", ""},
  {"LogicalAnd", M, "graph.and", "GraphDefImporter.cpp", ""},
  {"LogicalNot", M, "graph.not", "GraphDefImporter.cpp", ""},
  {"LogicalOr", M, "graph.or", "GraphDefImporter.cpp", ""},
  {"LoopCond", M, "scf.while", "GraphDefImporter.cpp", "TF1 while loop: one scf.while per frame"},
  {"MatMul", M, "graph.matmul", "GraphDefImporter.cpp", ""},
  {"Max", M, "graph.reduce", "GraphDefImporter.cpp", ""},
  {"MaxPool", M, "graph.pool,graph.transpose", "GraphDefImporter.cpp", ""},
  {"Maximum", M, "graph.max", "GraphDefImporter.cpp", ""},
  {"Mean", M, "graph.reduce", "GraphDefImporter.cpp", ""},
  {"Merge", M, "scf.while", "GraphDefImporter.cpp", "TF1 while loop: one scf.while per frame"},
  {"MergeSummary", D, "", "GraphDefImporter.cpp", "dropped with a warning"},
  {"MergeV2Checkpoints", D, "", "GraphDefImporter.cpp", "dropped with a warning"},
  {"Min", M, "graph.reduce", "GraphDefImporter.cpp", ""},
  {"Minimum", M, "graph.min", "GraphDefImporter.cpp", ""},
  {"Mul", M, "graph.mul", "GraphDefImporter.cpp", ""},
  {"Neg", M, "graph.neg", "GraphDefImporter.cpp", ""},
  {"NextIteration", M, "scf.while", "GraphDefImporter.cpp", "TF1 while loop: one scf.while per frame"},
  {"NoOp", M, "", "GraphDefImporter.cpp", ""},
  {"NotEqual", M, "graph.compare", "GraphDefImporter.cpp", ""},
  {"OneHot", M, "graph.slice,graph.reshape,graph.one_hot", "GraphDefImporter.cpp", ""},
  {"OnesLike", M, "graph.constant", "GraphDefImporter.cpp", ""},
  {"Pack", M, "graph.unsqueeze,graph.concat", "GraphDefImporter.cpp", ""},
  {"Pad", M, "graph.pad,graph.slice", "GraphDefImporter.cpp", ""},
  {"PadV2", M, "graph.pad", "GraphDefImporter.cpp", ""},
  {"PaddingFIFOQueueV2", In, "", "GraphDefImporter.cpp", "becomes an input of the function"},
  {"ParseExample", In, "", "GraphDefImporter.cpp", "dense features become inputs; sparse/ragged refused"},
  {"ParseExampleV2", In, "", "GraphDefImporter.cpp", "dense features become inputs; sparse/ragged refused"},
  {"PartitionedCall", M, "func.call", "GraphDefImporter.cpp", "inlined"},
  {"Placeholder", M, "", "GraphDefImporter.cpp", ""},
  {"PlaceholderWithDefault", M, "graph.identity", "GraphDefImporter.cpp", ""},
  {"Pow", M, "graph.pow", "GraphDefImporter.cpp", ""},
  {"PreventGradient", M, "graph.identity", "GraphDefImporter.cpp", ""},
  {"Print", D, "", "GraphDefImporter.cpp", "dropped with a warning"},
  {"PrintV2", D, "", "GraphDefImporter.cpp", "dropped with a warning"},
  {"Prod", M, "graph.reduce", "GraphDefImporter.cpp", ""},
  {"QueueCloseV2", D, "", "GraphDefImporter.cpp", "dropped with a warning"},
  {"QueueDequeueManyV2", In, "", "GraphDefImporter.cpp", "becomes an input of the function"},
  {"QueueDequeueUpToV2", In, "", "GraphDefImporter.cpp", "becomes an input of the function"},
  {"QueueDequeueV2", In, "", "GraphDefImporter.cpp", "becomes an input of the function"},
  {"QueueEnqueueManyV2", D, "", "GraphDefImporter.cpp", "dropped with a warning"},
  {"QueueEnqueueV2", D, "", "GraphDefImporter.cpp", "dropped with a warning"},
  {"QueueSizeV2", D, "", "GraphDefImporter.cpp", "dropped with a warning"},
  {"RandomShuffleQueueV2", In, "", "GraphDefImporter.cpp", "an input with graph.random (no random ops)"},
  {"RandomStandardNormal", In, "", "GraphDefImporter.cpp", "an input with graph.random (no random ops)"},
  {"RandomUniform", In, "", "GraphDefImporter.cpp", "an input with graph.random (no random ops)"},
  {"Range", M, "graph.constant", "GraphDefImporter.cpp", ""},
  {"Rank", M, "graph.constant", "GraphDefImporter.cpp", ""},
  {"ReadVariableOp", M, "graph.read_variable", "GraphDefImporter.cpp", ""},
  {"RealDiv", M, "graph.div", "GraphDefImporter.cpp", ""},
  {"Reciprocal", M, "graph.reciprocal", "GraphDefImporter.cpp", ""},
  {"Relu", M, "graph.relu", "GraphDefImporter.cpp", ""},
  {"Relu6", M, "graph.clamp", "GraphDefImporter.cpp", ""},
  {"ReluGrad", M, "graph.compare,graph.select", "GraphDefImporter.cpp", ""},
  {"Reshape", M, "graph.reshape,graph.dynamic_reshape", "GraphDefImporter.cpp", ""},
  {"ResourceApplyAdam", M, "graph.read_variable,graph.adam_update,graph.assign_variable", "GraphDefImporter.cpp", ""},
  {"ResourceApplyFtrl", M, "graph.read_variable,graph.ftrl_update,graph.assign_variable", "GraphDefImporter.cpp", ""},
  {"ResourceApplyFtrlV2", M, "graph.read_variable,graph.ftrl_update,graph.assign_variable", "", ""},
  {"ResourceApplyGradientDescent", M, "graph.read_variable,graph.sgd_update,graph.assign_variable", "GraphDefImporter.cpp", ""},
  {"ResourceApplyMomentum", M, "graph.read_variable,graph.momentum_update,graph.assign_variable", "GraphDefImporter.cpp", ""},
  {"ResourceSparseApplyFtrl", M, "graph.read_variable,graph.gather,graph.ftrl_update,graph.scatter_nd,graph.assign_variable", "GraphDefImporter.cpp", ""},
  {"Restore", D, "", "GraphDefImporter.cpp", "dropped with a warning"},
  {"RestoreSlice", D, "", "GraphDefImporter.cpp", "dropped with a warning"},
  {"RestoreV2", D, "", "GraphDefImporter.cpp", "dropped with a warning"},
  {"Round", M, "graph.round", "GraphDefImporter.cpp", ""},
  {"Rsqrt", M, "graph.rsqrt", "GraphDefImporter.cpp", ""},
  {"Save", D, "", "GraphDefImporter.cpp", "dropped with a warning"},
  {"SaveSlices", D, "", "GraphDefImporter.cpp", "dropped with a warning"},
  {"SaveV2", D, "", "GraphDefImporter.cpp", "dropped with a warning"},
  {"ScalarSummary", D, "", "GraphDefImporter.cpp", "dropped with a warning"},
  {"Select", M, "graph.select", "GraphDefImporter.cpp", ""},
  {"SelectV2", M, "graph.select", "GraphDefImporter.cpp", ""},
  {"Shape", M, "graph.shape,graph.slice", "GraphDefImporter.cpp", ""},
  {"ShardedFilename", D, "", "GraphDefImporter.cpp", "dropped with a warning"},
  {"ShardedFilespec", D, "", "GraphDefImporter.cpp", "dropped with a warning"},
  {"Sigmoid", M, "graph.sigmoid", "GraphDefImporter.cpp", ""},
  {"SigmoidGrad", M, "graph.mul,graph.sub", "GraphDefImporter.cpp", ""},
  {"Sign", M, "graph.sign", "GraphDefImporter.cpp", ""},
  {"Sin", M, "graph.sin", "GraphDefImporter.cpp", ""},
  {"Size", M, "graph.constant", "GraphDefImporter.cpp", ""},
  {"Slice", M, "graph.slice", "GraphDefImporter.cpp", ""},
  {"Snapshot", M, "graph.identity", "GraphDefImporter.cpp", ""},
  {"Softmax", M, "graph.softmax,graph.reshape", "GraphDefImporter.cpp", ""},
  {"SoftmaxCrossEntropyWithLogits", M, "graph.softmax_cross_entropy", "GraphDefImporter.cpp", ""},
  {"Softplus", M, "graph.softplus", "GraphDefImporter.cpp", ""},
  {"SpaceToBatchND", M, "graph.conv", "GraphDefImporter.cpp", ""},
  {"SparseApplyFtrl", M, "graph.read_variable,graph.gather,graph.ftrl_update,graph.scatter_nd,graph.assign_variable", "GraphDefImporter.cpp", ""},
  {"SparseSoftmaxCrossEntropyWithLogits", M, "graph.softmax_cross_entropy", "GraphDefImporter.cpp", ""},
  {"Split", M, "graph.split", "GraphDefImporter.cpp", ""},
  {"SplitV", M, "graph.split", "GraphDefImporter.cpp", ""},
  {"Sqrt", M, "graph.sqrt", "GraphDefImporter.cpp", ""},
  {"Square", M, "graph.mul", "GraphDefImporter.cpp", ""},
  {"SquaredDifference", M, "graph.sub,graph.mul", "GraphDefImporter.cpp", ""},
  {"Squeeze", M, "graph.squeeze", "GraphDefImporter.cpp", ""},
  {"StatefulPartitionedCall", M, "func.call", "GraphDefImporter.cpp", "inlined"},
  {"StopGradient", M, "graph.identity", "GraphDefImporter.cpp", ""},
  {"StridedSlice", M, "graph.slice,graph.reshape", "GraphDefImporter.cpp", ""},
  {"StringJoin", D, "", "GraphDefImporter.cpp", "dropped with a warning"},
  {"Sub", M, "graph.sub", "GraphDefImporter.cpp", ""},
  {"Sum", M, "graph.reduce", "GraphDefImporter.cpp", ""},
  {"Switch", M, "scf.while", "GraphDefImporter.cpp", "TF1 while loop: one scf.while per frame"},
  {"Tanh", M, "graph.tanh", "GraphDefImporter.cpp", ""},
  {"TanhGrad", M, "graph.mul,graph.sub", "GraphDefImporter.cpp", ""},
  {"TensorSummary", D, "", "GraphDefImporter.cpp", "dropped with a warning"},
  {"TensorSummaryV2", D, "", "GraphDefImporter.cpp", "dropped with a warning"},
  {"Tile", M, "graph.tile", "GraphDefImporter.cpp", ""},
  {"Transpose", M, "graph.transpose", "GraphDefImporter.cpp", ""},
  {"TruncatedNormal", In, "", "GraphDefImporter.cpp", "an input with graph.random (no random ops)"},
  {"Unpack", M, "graph.split,graph.squeeze", "GraphDefImporter.cpp", ""},
  {"VarHandleOp", M, "graph.variable", "GraphDefImporter.cpp", ""},
  {"VarIsInitializedOp", M, "graph.constant", "GraphDefImporter.cpp", ""},
  {"Variable", M, "graph.variable", "GraphDefImporter.cpp", ""},
  {"VariableV2", M, "graph.variable", "GraphDefImporter.cpp", ""},
  {"WriteSummary", D, "", "GraphDefImporter.cpp", "dropped with a warning"},
  {"ZerosLike", M, "graph.constant", "GraphDefImporter.cpp", ""},
  {"_Recv", M, "", "GraphDefImporter.cpp", "a function result / argument outside a dist.task"},
  {"_Send", M, "", "GraphDefImporter.cpp", "a function result / argument outside a dist.task"},
};
// clang-format on

const std::vector<OpRule> &rules() {
  static const std::vector<OpRule> all = [] {
    std::vector<OpRule> out;
    for (const TFOp &op : kTFOps) {
      OpRule rule;
      rule.op = op.op;
      rule.action = op.action;
      rule.creates = op.creates;
      rule.file = op.file;
      rule.notes = op.notes;
      out.push_back(rule);
    }
    return out;
  }();
  return all;
}

} // namespace

const OpRule *lookupTFOp(llvm::StringRef op) {
  const std::vector<OpRule> &all = rules();
  auto it = std::lower_bound(
      all.begin(), all.end(), op,
      [](const OpRule &rule, llvm::StringRef name) { return rule.op < name; });
  if (it == all.end() || it->op != op) {
    return nullptr;
  }
  return &*it;
}

llvm::ArrayRef<OpRule> tfOpRules() { return rules(); }

} // namespace graphc::import
