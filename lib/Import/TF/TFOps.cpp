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
  {"Abs", M, "graph.abs", "TF/GraphDefImporter.cpp", ""},
  {"Add", M, "graph.add", "TF/GraphDefImporter.cpp", ""},
  {"AddN", M, "graph.add", "TF/GraphDefImporter.cpp", ""},
  {"AddV2", M, "graph.add", "TF/GraphDefImporter.cpp", ""},
  {"ApplyAdam", M, "graph.read_variable,graph.adam_update,graph.assign_variable", "TF/GraphDefImporter.cpp", ""},
  {"ApplyFtrl", M, "graph.read_variable,graph.ftrl_update,graph.assign_variable", "TF/GraphDefImporter.cpp", ""},
  {"ApplyFtrlV2", M, "graph.read_variable,graph.ftrl_update,graph.assign_variable", "", ""},
  {"ApplyGradientDescent", M, "graph.read_variable,graph.sgd_update,graph.assign_variable", "TF/GraphDefImporter.cpp", ""},
  {"ApplyMomentum", M, "graph.read_variable,graph.momentum_update,graph.assign_variable", "TF/GraphDefImporter.cpp", ""},
  {"ArgMax", M, "graph.arg_reduce", "TF/GraphDefImporter.cpp", ""},
  {"ArgMin", M, "graph.arg_reduce", "TF/GraphDefImporter.cpp", ""},
  {"Assert", D, "", "TF/GraphDefImporter.cpp", "dropped with a warning"},
  {"Assign", M, "graph.assign_variable", "TF/GraphDefImporter.cpp", ""},
  {"AssignAdd", M, "graph.assign_variable", "TF/GraphDefImporter.cpp", ""},
  {"AssignAddVariableOp", M, "graph.assign_variable", "TF/GraphDefImporter.cpp", ""},
  {"AssignSub", M, "graph.assign_variable", "TF/GraphDefImporter.cpp", ""},
  {"AssignSubVariableOp", M, "graph.assign_variable", "TF/GraphDefImporter.cpp", ""},
  {"AssignVariableOp", M, "graph.assign_variable", "TF/GraphDefImporter.cpp", ""},
  {"AudioSummary", D, "", "TF/GraphDefImporter.cpp", "dropped with a warning"},
  {"AudioSummaryV2", D, "", "TF/GraphDefImporter.cpp", "dropped with a warning"},
  {"AvgPool", M, "graph.pool,graph.transpose", "TF/GraphDefImporter.cpp", ""},
  {"BatchMatMul", M, "graph.matmul", "TF/GraphDefImporter.cpp", ""},
  {"BatchMatMulV2", M, "graph.matmul", "TF/GraphDefImporter.cpp", ""},
  {"BatchToSpaceND", M, "graph.slice", "TF/GraphDefImporter.cpp", ""},
  {"BiasAdd", M, "graph.add", "TF/GraphDefImporter.cpp", ""},
  {"BiasAddGrad", M, "graph.reduce", "TF/GraphDefImporter.cpp", ""},
  {"BroadcastGradientArgs", M, "graph.constant", "TF/GraphDefImporter.cpp", ""},
  {"BroadcastTo", M, "graph.broadcast_to", "", ""},
  {"Cast", M, "graph.cast", "TF/GraphDefImporter.cpp", ""},
  {"Ceil", M, "graph.ceil", "TF/GraphDefImporter.cpp", ""},
  {"CheckNumerics", M, "graph.identity", "TF/GraphDefImporter.cpp", ""},
  {"Concat", M, "graph.concat", "TF/GraphDefImporter.cpp", ""},
  {"ConcatV2", M, "graph.concat", "TF/GraphDefImporter.cpp", ""},
  {"Const", M, "graph.constant", "TF/GraphDefImporter.cpp", ""},
  {"Conv2D", M, "graph.conv,graph.transpose", "TF/GraphDefImporter.cpp", ""},
  {"Cos", M, "graph.cos", "TF/GraphDefImporter.cpp", ""},
  {"DepthwiseConv2dNative", M, "graph.conv,graph.transpose,graph.reshape", "TF/GraphDefImporter.cpp", ""},
  {"Div", M, "graph.div", "TF/GraphDefImporter.cpp", ""},
  {"DynamicStitch", M, "graph.constant", "TF/GraphDefImporter.cpp", ""},
  {"Elu", M, "graph.elu", "TF/GraphDefImporter.cpp", ""},
  {"Enter", M, "scf.while", "TF/GraphDefImporter.cpp", "TF1 while loop: one scf.while per frame"},
  {"Equal", M, "graph.compare", "TF/GraphDefImporter.cpp", ""},
  {"Erf", M, "graph.erf", "TF/GraphDefImporter.cpp", ""},
  {"Exit", M, "scf.while", "TF/GraphDefImporter.cpp", "TF1 while loop: one scf.while per frame"},
  {"Exp", M, "graph.exp", "TF/GraphDefImporter.cpp", ""},
  {"ExpandDims", M, "graph.unsqueeze", "TF/GraphDefImporter.cpp", ""},
  {"FIFOQueueV2", In, "", "TF/GraphDefImporter.cpp", "becomes an input of the function"},
  {"Fill", M, "graph.broadcast_to", "TF/GraphDefImporter.cpp", ""},
  {"Floor", M, "graph.floor", "TF/GraphDefImporter.cpp", ""},
  {"FloorDiv", M, "graph.floor_div", "TF/GraphDefImporter.cpp", ""},
  {"FloorMod", M, "graph.mod", "TF/GraphDefImporter.cpp", ""},
  {"FusedBatchNorm", M, "graph.batch_norm,graph.transpose", "TF/GraphDefImporter.cpp", ""},
  {"FusedBatchNormV3", M, "graph.batch_norm,graph.transpose", "TF/GraphDefImporter.cpp", ""},
  {"Gather", M, "graph.gather", "TF/GraphDefImporter.cpp", ""},
  {"GatherNd", M, "graph.gather_nd", "", ""},
  {"GatherV2", M, "graph.gather", "TF/GraphDefImporter.cpp", ""},
  {"Greater", M, "graph.compare", "TF/GraphDefImporter.cpp", ""},
  {"GreaterEqual", M, "graph.compare", "TF/GraphDefImporter.cpp", ""},
  {"HistogramSummary", D, "", "TF/GraphDefImporter.cpp", "dropped with a warning"},
  {"Identity", M, "graph.identity", "TF/GraphDefImporter.cpp", ""},
  {"IdentityN", M, "graph.identity", "TF/GraphDefImporter.cpp", ""},
  {"ImageSummary", D, "", "TF/GraphDefImporter.cpp", "dropped with a warning"},
  {"Inv", M, "graph.reciprocal", "TF/GraphDefImporter.cpp", ""},
  {"IsVariableInitialized", M, "graph.constant", "TF/GraphDefImporter.cpp", ""},
  {"LeakyRelu", M, "graph.leaky_relu", "TF/GraphDefImporter.cpp", ""},
  {"Less", M, "graph.compare", "TF/GraphDefImporter.cpp", ""},
  {"LessEqual", M, "graph.compare", "TF/GraphDefImporter.cpp", ""},
  {"Log", M, "graph.log", "TF/GraphDefImporter.cpp", ""},
  {"LogSoftmax", M, "graph.log_softmax,graph.reshape", "TF/GraphDefImporter.cpp", ""},
  {"LogicalAnd", M, "graph.and", "TF/GraphDefImporter.cpp", ""},
  {"LogicalNot", M, "graph.not", "TF/GraphDefImporter.cpp", ""},
  {"LogicalOr", M, "graph.or", "TF/GraphDefImporter.cpp", ""},
  {"LoopCond", M, "scf.while", "TF/GraphDefImporter.cpp", "TF1 while loop: one scf.while per frame"},
  {"MatMul", M, "graph.matmul", "TF/GraphDefImporter.cpp", ""},
  {"Max", M, "graph.reduce", "TF/GraphDefImporter.cpp", ""},
  {"MaxPool", M, "graph.pool,graph.transpose", "TF/GraphDefImporter.cpp", ""},
  {"Maximum", M, "graph.max", "TF/GraphDefImporter.cpp", ""},
  {"Mean", M, "graph.reduce", "TF/GraphDefImporter.cpp", ""},
  {"Merge", M, "scf.while", "TF/GraphDefImporter.cpp", "TF1 while loop: one scf.while per frame"},
  {"MergeSummary", D, "", "TF/GraphDefImporter.cpp", "dropped with a warning"},
  {"MergeV2Checkpoints", D, "", "TF/GraphDefImporter.cpp", "dropped with a warning"},
  {"Min", M, "graph.reduce", "TF/GraphDefImporter.cpp", ""},
  {"Minimum", M, "graph.min", "TF/GraphDefImporter.cpp", ""},
  {"Mul", M, "graph.mul", "TF/GraphDefImporter.cpp", ""},
  {"Neg", M, "graph.neg", "TF/GraphDefImporter.cpp", ""},
  {"NextIteration", M, "scf.while", "TF/GraphDefImporter.cpp", "TF1 while loop: one scf.while per frame"},
  {"NoOp", M, "", "TF/GraphDefImporter.cpp", ""},
  {"NotEqual", M, "graph.compare", "TF/GraphDefImporter.cpp", ""},
  {"OneHot", M, "graph.slice,graph.reshape,graph.one_hot", "TF/GraphDefImporter.cpp", ""},
  {"OnesLike", M, "graph.constant", "TF/GraphDefImporter.cpp", ""},
  {"Pack", M, "graph.unsqueeze,graph.concat", "TF/GraphDefImporter.cpp", ""},
  {"Pad", M, "graph.pad,graph.slice", "TF/GraphDefImporter.cpp", ""},
  {"PadV2", M, "graph.pad", "TF/GraphDefImporter.cpp", ""},
  {"PaddingFIFOQueueV2", In, "", "TF/GraphDefImporter.cpp", "becomes an input of the function"},
  {"ParseExample", In, "", "TF/GraphDefImporter.cpp", "dense features become inputs; sparse/ragged refused"},
  {"ParseExampleV2", In, "", "TF/GraphDefImporter.cpp", "dense features become inputs; sparse/ragged refused"},
  {"PartitionedCall", M, "func.call", "TF/GraphDefImporter.cpp", "inlined"},
  {"Placeholder", M, "", "TF/GraphDefImporter.cpp", ""},
  {"PlaceholderWithDefault", M, "graph.identity", "TF/GraphDefImporter.cpp", ""},
  {"Pow", M, "graph.pow", "TF/GraphDefImporter.cpp", ""},
  {"PreventGradient", M, "graph.identity", "TF/GraphDefImporter.cpp", ""},
  {"Print", D, "", "TF/GraphDefImporter.cpp", "dropped with a warning"},
  {"PrintV2", D, "", "TF/GraphDefImporter.cpp", "dropped with a warning"},
  {"Prod", M, "graph.reduce", "TF/GraphDefImporter.cpp", ""},
  {"QueueCloseV2", D, "", "TF/GraphDefImporter.cpp", "dropped with a warning"},
  {"QueueDequeueManyV2", In, "", "TF/GraphDefImporter.cpp", "becomes an input of the function"},
  {"QueueDequeueUpToV2", In, "", "TF/GraphDefImporter.cpp", "becomes an input of the function"},
  {"QueueDequeueV2", In, "", "TF/GraphDefImporter.cpp", "becomes an input of the function"},
  {"QueueEnqueueManyV2", D, "", "TF/GraphDefImporter.cpp", "dropped with a warning"},
  {"QueueEnqueueV2", D, "", "TF/GraphDefImporter.cpp", "dropped with a warning"},
  {"QueueSizeV2", D, "", "TF/GraphDefImporter.cpp", "dropped with a warning"},
  {"RandomShuffleQueueV2", In, "", "TF/GraphDefImporter.cpp", "an input with graph.random (no random ops)"},
  {"RandomStandardNormal", In, "", "TF/GraphDefImporter.cpp", "an input with graph.random (no random ops)"},
  {"RandomUniform", In, "", "TF/GraphDefImporter.cpp", "an input with graph.random (no random ops)"},
  {"Range", M, "graph.constant", "TF/GraphDefImporter.cpp", ""},
  {"Rank", M, "graph.constant", "TF/GraphDefImporter.cpp", ""},
  {"ReadVariableOp", M, "graph.read_variable", "TF/GraphDefImporter.cpp", ""},
  {"RealDiv", M, "graph.div", "TF/GraphDefImporter.cpp", ""},
  {"Reciprocal", M, "graph.reciprocal", "TF/GraphDefImporter.cpp", ""},
  {"Relu", M, "graph.relu", "TF/GraphDefImporter.cpp", ""},
  {"Relu6", M, "graph.clamp", "TF/GraphDefImporter.cpp", ""},
  {"ReluGrad", M, "graph.compare,graph.select", "TF/GraphDefImporter.cpp", ""},
  {"Reshape", M, "graph.reshape,graph.dynamic_reshape", "TF/GraphDefImporter.cpp", ""},
  {"ResourceApplyAdam", M, "graph.read_variable,graph.adam_update,graph.assign_variable", "TF/GraphDefImporter.cpp", ""},
  {"ResourceApplyFtrl", M, "graph.read_variable,graph.ftrl_update,graph.assign_variable", "TF/GraphDefImporter.cpp", ""},
  {"ResourceApplyFtrlV2", M, "graph.read_variable,graph.ftrl_update,graph.assign_variable", "", ""},
  {"ResourceApplyGradientDescent", M, "graph.read_variable,graph.sgd_update,graph.assign_variable", "TF/GraphDefImporter.cpp", ""},
  {"ResourceApplyMomentum", M, "graph.read_variable,graph.momentum_update,graph.assign_variable", "TF/GraphDefImporter.cpp", ""},
  {"ResourceSparseApplyFtrl", M, "graph.read_variable,graph.gather,graph.ftrl_update,graph.scatter_nd,graph.assign_variable", "TF/GraphDefImporter.cpp", ""},
  {"Restore", D, "", "TF/GraphDefImporter.cpp", "dropped with a warning"},
  {"RestoreSlice", D, "", "TF/GraphDefImporter.cpp", "dropped with a warning"},
  {"RestoreV2", D, "", "TF/GraphDefImporter.cpp", "dropped with a warning"},
  {"Round", M, "graph.round", "TF/GraphDefImporter.cpp", ""},
  {"Rsqrt", M, "graph.rsqrt", "TF/GraphDefImporter.cpp", ""},
  {"Save", D, "", "TF/GraphDefImporter.cpp", "dropped with a warning"},
  {"SaveSlices", D, "", "TF/GraphDefImporter.cpp", "dropped with a warning"},
  {"SaveV2", D, "", "TF/GraphDefImporter.cpp", "dropped with a warning"},
  {"ScalarSummary", D, "", "TF/GraphDefImporter.cpp", "dropped with a warning"},
  {"Select", M, "graph.select", "TF/GraphDefImporter.cpp", ""},
  {"SelectV2", M, "graph.select", "TF/GraphDefImporter.cpp", ""},
  {"Shape", M, "graph.shape,graph.slice", "TF/GraphDefImporter.cpp", ""},
  {"ShardedFilename", D, "", "TF/GraphDefImporter.cpp", "dropped with a warning"},
  {"ShardedFilespec", D, "", "TF/GraphDefImporter.cpp", "dropped with a warning"},
  {"Sigmoid", M, "graph.sigmoid", "TF/GraphDefImporter.cpp", ""},
  {"SigmoidGrad", M, "graph.mul,graph.sub", "TF/GraphDefImporter.cpp", ""},
  {"Sign", M, "graph.sign", "TF/GraphDefImporter.cpp", ""},
  {"Sin", M, "graph.sin", "TF/GraphDefImporter.cpp", ""},
  {"Size", M, "graph.constant", "TF/GraphDefImporter.cpp", ""},
  {"Slice", M, "graph.slice", "TF/GraphDefImporter.cpp", ""},
  {"Snapshot", M, "graph.identity", "TF/GraphDefImporter.cpp", ""},
  {"Softmax", M, "graph.softmax,graph.reshape", "TF/GraphDefImporter.cpp", ""},
  {"SoftmaxCrossEntropyWithLogits", M, "graph.softmax_cross_entropy", "TF/GraphDefImporter.cpp", ""},
  {"Softplus", M, "graph.softplus", "TF/GraphDefImporter.cpp", ""},
  {"SpaceToBatchND", M, "graph.conv", "TF/GraphDefImporter.cpp", ""},
  {"SparseApplyFtrl", M, "graph.read_variable,graph.gather,graph.ftrl_update,graph.scatter_nd,graph.assign_variable", "TF/GraphDefImporter.cpp", ""},
  {"SparseSoftmaxCrossEntropyWithLogits", M, "graph.softmax_cross_entropy", "TF/GraphDefImporter.cpp", ""},
  {"Split", M, "graph.split", "TF/GraphDefImporter.cpp", ""},
  {"SplitV", M, "graph.split", "TF/GraphDefImporter.cpp", ""},
  {"Sqrt", M, "graph.sqrt", "TF/GraphDefImporter.cpp", ""},
  {"Square", M, "graph.mul", "TF/GraphDefImporter.cpp", ""},
  {"SquaredDifference", M, "graph.sub,graph.mul", "TF/GraphDefImporter.cpp", ""},
  {"Squeeze", M, "graph.squeeze", "TF/GraphDefImporter.cpp", ""},
  {"StatefulPartitionedCall", M, "func.call", "TF/GraphDefImporter.cpp", "inlined"},
  {"StopGradient", M, "graph.identity", "TF/GraphDefImporter.cpp", ""},
  {"StridedSlice", M, "graph.slice,graph.reshape", "TF/GraphDefImporter.cpp", ""},
  {"StringJoin", D, "", "TF/GraphDefImporter.cpp", "dropped with a warning"},
  {"Sub", M, "graph.sub", "TF/GraphDefImporter.cpp", ""},
  {"Sum", M, "graph.reduce", "TF/GraphDefImporter.cpp", ""},
  {"Switch", M, "scf.while", "TF/GraphDefImporter.cpp", "TF1 while loop: one scf.while per frame"},
  {"Tanh", M, "graph.tanh", "TF/GraphDefImporter.cpp", ""},
  {"TanhGrad", M, "graph.mul,graph.sub", "TF/GraphDefImporter.cpp", ""},
  {"TensorSummary", D, "", "TF/GraphDefImporter.cpp", "dropped with a warning"},
  {"TensorSummaryV2", D, "", "TF/GraphDefImporter.cpp", "dropped with a warning"},
  {"Tile", M, "graph.tile", "TF/GraphDefImporter.cpp", ""},
  {"Transpose", M, "graph.transpose", "TF/GraphDefImporter.cpp", ""},
  {"TruncatedNormal", In, "", "TF/GraphDefImporter.cpp", "an input with graph.random (no random ops)"},
  {"Unpack", M, "graph.split,graph.squeeze", "TF/GraphDefImporter.cpp", ""},
  {"VarHandleOp", M, "graph.variable", "TF/GraphDefImporter.cpp", ""},
  {"VarIsInitializedOp", M, "graph.constant", "TF/GraphDefImporter.cpp", ""},
  {"Variable", M, "graph.variable", "TF/GraphDefImporter.cpp", ""},
  {"VariableV2", M, "graph.variable", "TF/GraphDefImporter.cpp", ""},
  {"WriteSummary", D, "", "TF/GraphDefImporter.cpp", "dropped with a warning"},
  {"ZerosLike", M, "graph.constant", "TF/GraphDefImporter.cpp", ""},
  {"_Recv", M, "", "TF/GraphDefImporter.cpp", "a function result / argument outside a dist.task"},
  {"_Send", M, "", "TF/GraphDefImporter.cpp", "a function result / argument outside a dist.task"},
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
