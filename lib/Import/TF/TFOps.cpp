//===- TFOps.cpp - the TensorFlow importer's op registry ------------------===//
//
// The one list of the TensorFlow ops graphc knows. Each entry: op, what the
// importer does with it (map onto graph ops, make it an input, drop it with a
// warning), the graph-dialect ops the translation creates (the op is reported
// unsupported while one is not registered), the file that translates it
// (empty: a planned rule, no translation yet) and a note for the support
// table. The file drives dispatch: importNode runs the translator of that
// op family (GraphDefImporter::lookupTranslator); TF/GraphDefImporter.cpp
// marks the ops the driver drops itself. Keep it sorted by op: lookup is a
// binary search.
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
  {"Abs", M, "graph.abs", "TF/Elementwise.cpp", ""},
  {"Add", M, "graph.add", "TF/Elementwise.cpp", ""},
  {"AddN", M, "graph.add", "TF/Elementwise.cpp", ""},
  {"AddV2", M, "graph.add", "TF/Elementwise.cpp", ""},
  {"ApplyAdam", M, "graph.read_variable,graph.adam_update,graph.assign_variable", "TF/Optimizers.cpp", ""},
  {"ApplyFtrl", M, "graph.read_variable,graph.ftrl_update,graph.assign_variable", "TF/Optimizers.cpp", ""},
  {"ApplyFtrlV2", M, "graph.read_variable,graph.ftrl_update,graph.assign_variable", "", ""},
  {"ApplyGradientDescent", M, "graph.read_variable,graph.sgd_update,graph.assign_variable", "TF/Optimizers.cpp", ""},
  {"ApplyMomentum", M, "graph.read_variable,graph.momentum_update,graph.assign_variable", "TF/Optimizers.cpp", ""},
  {"ArgMax", M, "graph.arg_reduce", "TF/NN.cpp", ""},
  {"ArgMin", M, "graph.arg_reduce", "TF/NN.cpp", ""},
  {"Assert", D, "", "TF/GraphDefImporter.cpp", "dropped with a warning"},
  {"Assign", M, "graph.assign_variable", "TF/Variables.cpp", ""},
  {"AssignAdd", M, "graph.assign_variable", "TF/Variables.cpp", ""},
  {"AssignAddVariableOp", M, "graph.assign_variable", "TF/Variables.cpp", ""},
  {"AssignSub", M, "graph.assign_variable", "TF/Variables.cpp", ""},
  {"AssignSubVariableOp", M, "graph.assign_variable", "TF/Variables.cpp", ""},
  {"AssignVariableOp", M, "graph.assign_variable", "TF/Variables.cpp", ""},
  {"AudioSummary", D, "", "TF/GraphDefImporter.cpp", "dropped with a warning"},
  {"AudioSummaryV2", D, "", "TF/GraphDefImporter.cpp", "dropped with a warning"},
  {"AvgPool", M, "graph.pool,graph.transpose", "TF/NN.cpp", ""},
  {"BatchMatMul", M, "graph.matmul", "TF/NN.cpp", ""},
  {"BatchMatMulV2", M, "graph.matmul", "TF/NN.cpp", ""},
  {"BatchToSpaceND", M, "graph.slice", "TF/NN.cpp", ""},
  {"BiasAdd", M, "graph.add", "TF/Elementwise.cpp", ""},
  {"BiasAddGrad", M, "graph.reduce", "TF/NN.cpp", ""},
  {"BroadcastGradientArgs", M, "graph.constant", "TF/Indexing.cpp", ""},
  {"BroadcastTo", M, "graph.broadcast_to", "", ""},
  {"Cast", M, "graph.cast", "TF/Elementwise.cpp", ""},
  {"Ceil", M, "graph.ceil", "TF/Elementwise.cpp", ""},
  {"CheckNumerics", M, "graph.identity", "TF/Elementwise.cpp", ""},
  {"Concat", M, "graph.concat", "TF/Shapes.cpp", ""},
  {"ConcatV2", M, "graph.concat", "TF/Shapes.cpp", ""},
  {"Const", M, "graph.constant", "TF/Variables.cpp", ""},
  {"Conv2D", M, "graph.conv,graph.transpose", "TF/NN.cpp", ""},
  {"Cos", M, "graph.cos", "TF/Elementwise.cpp", ""},
  {"DepthwiseConv2dNative", M, "graph.conv,graph.transpose,graph.reshape", "TF/NN.cpp", ""},
  {"Div", M, "graph.div", "TF/Elementwise.cpp", ""},
  {"DynamicStitch", M, "graph.constant", "TF/Indexing.cpp", ""},
  {"Elu", M, "graph.elu", "TF/Elementwise.cpp", ""},
  {"Enter", M, "scf.while", "TF/Loops.cpp", "TF1 while loop: one scf.while per frame"},
  {"Equal", M, "graph.compare", "TF/Elementwise.cpp", ""},
  {"Erf", M, "graph.erf", "TF/Elementwise.cpp", ""},
  {"Exit", M, "scf.while", "TF/Loops.cpp", "TF1 while loop: one scf.while per frame"},
  {"Exp", M, "graph.exp", "TF/Elementwise.cpp", ""},
  {"ExpandDims", M, "graph.unsqueeze", "TF/Shapes.cpp", ""},
  {"FIFOQueueV2", In, "", "TF/Variables.cpp", "becomes an input of the function"},
  {"Fill", M, "graph.broadcast_to", "TF/DataMovement.cpp", ""},
  {"Floor", M, "graph.floor", "TF/Elementwise.cpp", ""},
  {"FloorDiv", M, "graph.floor_div", "TF/Elementwise.cpp", ""},
  {"FloorMod", M, "graph.mod", "TF/Elementwise.cpp", ""},
  {"FusedBatchNorm", M, "graph.batch_norm,graph.transpose", "TF/NN.cpp", ""},
  {"FusedBatchNormV3", M, "graph.batch_norm,graph.transpose", "TF/NN.cpp", ""},
  {"Gather", M, "graph.gather", "TF/Indexing.cpp", ""},
  {"GatherNd", M, "graph.gather_nd", "", ""},
  {"GatherV2", M, "graph.gather", "TF/Indexing.cpp", ""},
  {"Greater", M, "graph.compare", "TF/Elementwise.cpp", ""},
  {"GreaterEqual", M, "graph.compare", "TF/Elementwise.cpp", ""},
  {"HistogramSummary", D, "", "TF/GraphDefImporter.cpp", "dropped with a warning"},
  {"Identity", M, "graph.identity", "TF/Elementwise.cpp", ""},
  {"IdentityN", M, "graph.identity", "TF/Variables.cpp", ""},
  {"ImageSummary", D, "", "TF/GraphDefImporter.cpp", "dropped with a warning"},
  {"Inv", M, "graph.reciprocal", "TF/Elementwise.cpp", ""},
  {"IsVariableInitialized", M, "graph.constant", "TF/Variables.cpp", ""},
  {"LeakyRelu", M, "graph.leaky_relu", "TF/Elementwise.cpp", ""},
  {"Less", M, "graph.compare", "TF/Elementwise.cpp", ""},
  {"LessEqual", M, "graph.compare", "TF/Elementwise.cpp", ""},
  {"Log", M, "graph.log", "TF/Elementwise.cpp", ""},
  {"LogSoftmax", M, "graph.log_softmax,graph.reshape", "TF/Elementwise.cpp", ""},
  {"LogicalAnd", M, "graph.and", "TF/Elementwise.cpp", ""},
  {"LogicalNot", M, "graph.not", "TF/Elementwise.cpp", ""},
  {"LogicalOr", M, "graph.or", "TF/Elementwise.cpp", ""},
  {"LoopCond", M, "scf.while", "TF/Loops.cpp", "TF1 while loop: one scf.while per frame"},
  {"MatMul", M, "graph.matmul", "TF/NN.cpp", ""},
  {"Max", M, "graph.reduce", "TF/NN.cpp", ""},
  {"MaxPool", M, "graph.pool,graph.transpose", "TF/NN.cpp", ""},
  {"Maximum", M, "graph.max", "TF/Elementwise.cpp", ""},
  {"Mean", M, "graph.reduce", "TF/NN.cpp", ""},
  {"Merge", M, "scf.while", "TF/Loops.cpp", "TF1 while loop: one scf.while per frame"},
  {"MergeSummary", D, "", "TF/GraphDefImporter.cpp", "dropped with a warning"},
  {"MergeV2Checkpoints", D, "", "TF/GraphDefImporter.cpp", "dropped with a warning"},
  {"Min", M, "graph.reduce", "TF/NN.cpp", ""},
  {"Minimum", M, "graph.min", "TF/Elementwise.cpp", ""},
  {"Mul", M, "graph.mul", "TF/Elementwise.cpp", ""},
  {"Neg", M, "graph.neg", "TF/Elementwise.cpp", ""},
  {"NextIteration", M, "scf.while", "TF/Loops.cpp", "TF1 while loop: one scf.while per frame"},
  {"NoOp", M, "", "TF/Variables.cpp", ""},
  {"NotEqual", M, "graph.compare", "TF/Elementwise.cpp", ""},
  {"OneHot", M, "graph.slice,graph.reshape,graph.one_hot", "TF/Indexing.cpp", ""},
  {"OnesLike", M, "graph.constant", "TF/Elementwise.cpp", ""},
  {"Pack", M, "graph.unsqueeze,graph.concat", "TF/Shapes.cpp", ""},
  {"Pad", M, "graph.pad,graph.slice", "TF/DataMovement.cpp", ""},
  {"PadV2", M, "graph.pad", "TF/DataMovement.cpp", ""},
  {"PaddingFIFOQueueV2", In, "", "TF/Variables.cpp", "becomes an input of the function"},
  {"ParseExample", In, "", "TF/ParseExample.cpp", "dense features become inputs; sparse/ragged refused"},
  {"ParseExampleV2", In, "", "TF/ParseExample.cpp", "dense features become inputs; sparse/ragged refused"},
  {"PartitionedCall", M, "func.call", "TF/FunctionInlining.cpp", "inlined"},
  {"Placeholder", M, "", "TF/Variables.cpp", ""},
  {"PlaceholderWithDefault", M, "graph.identity", "TF/Variables.cpp", ""},
  {"Pow", M, "graph.pow", "TF/Elementwise.cpp", ""},
  {"PreventGradient", M, "graph.identity", "TF/Elementwise.cpp", ""},
  {"Print", D, "", "TF/GraphDefImporter.cpp", "dropped with a warning"},
  {"PrintV2", D, "", "TF/GraphDefImporter.cpp", "dropped with a warning"},
  {"Prod", M, "graph.reduce", "TF/NN.cpp", ""},
  {"QueueCloseV2", D, "", "TF/GraphDefImporter.cpp", "dropped with a warning"},
  {"QueueDequeueManyV2", In, "", "TF/Variables.cpp", "becomes an input of the function"},
  {"QueueDequeueUpToV2", In, "", "TF/Variables.cpp", "becomes an input of the function"},
  {"QueueDequeueV2", In, "", "TF/Variables.cpp", "becomes an input of the function"},
  {"QueueEnqueueManyV2", D, "", "TF/GraphDefImporter.cpp", "dropped with a warning"},
  {"QueueEnqueueV2", D, "", "TF/GraphDefImporter.cpp", "dropped with a warning"},
  {"QueueSizeV2", D, "", "TF/GraphDefImporter.cpp", "dropped with a warning"},
  {"RandomShuffleQueueV2", In, "", "TF/Variables.cpp", "an input with graph.random (no random ops)"},
  {"RandomStandardNormal", In, "", "TF/Random.cpp", "an input with graph.random (no random ops)"},
  {"RandomUniform", In, "", "TF/Random.cpp", "an input with graph.random (no random ops)"},
  {"Range", M, "graph.constant", "TF/Indexing.cpp", ""},
  {"Rank", M, "graph.constant", "TF/Shapes.cpp", ""},
  {"ReadVariableOp", M, "graph.read_variable", "TF/Variables.cpp", ""},
  {"RealDiv", M, "graph.div", "TF/Elementwise.cpp", ""},
  {"Reciprocal", M, "graph.reciprocal", "TF/Elementwise.cpp", ""},
  {"Relu", M, "graph.relu", "TF/Elementwise.cpp", ""},
  {"Relu6", M, "graph.clamp", "TF/Elementwise.cpp", ""},
  {"ReluGrad", M, "graph.compare,graph.select", "TF/Elementwise.cpp", ""},
  {"Reshape", M, "graph.reshape,graph.dynamic_reshape", "TF/Shapes.cpp", ""},
  {"ResourceApplyAdam", M, "graph.read_variable,graph.adam_update,graph.assign_variable", "TF/Optimizers.cpp", ""},
  {"ResourceApplyFtrl", M, "graph.read_variable,graph.ftrl_update,graph.assign_variable", "TF/Optimizers.cpp", ""},
  {"ResourceApplyFtrlV2", M, "graph.read_variable,graph.ftrl_update,graph.assign_variable", "", ""},
  {"ResourceApplyGradientDescent", M, "graph.read_variable,graph.sgd_update,graph.assign_variable", "TF/Optimizers.cpp", ""},
  {"ResourceApplyMomentum", M, "graph.read_variable,graph.momentum_update,graph.assign_variable", "TF/Optimizers.cpp", ""},
  {"ResourceSparseApplyFtrl", M, "graph.read_variable,graph.gather,graph.ftrl_update,graph.scatter_nd,graph.assign_variable", "TF/Optimizers.cpp", ""},
  {"Restore", D, "", "TF/GraphDefImporter.cpp", "dropped with a warning"},
  {"RestoreSlice", D, "", "TF/GraphDefImporter.cpp", "dropped with a warning"},
  {"RestoreV2", D, "", "TF/GraphDefImporter.cpp", "dropped with a warning"},
  {"Round", M, "graph.round", "TF/Elementwise.cpp", ""},
  {"Rsqrt", M, "graph.rsqrt", "TF/Elementwise.cpp", ""},
  {"Save", D, "", "TF/GraphDefImporter.cpp", "dropped with a warning"},
  {"SaveSlices", D, "", "TF/GraphDefImporter.cpp", "dropped with a warning"},
  {"SaveV2", D, "", "TF/GraphDefImporter.cpp", "dropped with a warning"},
  {"ScalarSummary", D, "", "TF/GraphDefImporter.cpp", "dropped with a warning"},
  {"Select", M, "graph.select", "TF/Elementwise.cpp", ""},
  {"SelectV2", M, "graph.select", "TF/Elementwise.cpp", ""},
  {"Shape", M, "graph.shape,graph.slice", "TF/Shapes.cpp", ""},
  {"ShardedFilename", D, "", "TF/GraphDefImporter.cpp", "dropped with a warning"},
  {"ShardedFilespec", D, "", "TF/GraphDefImporter.cpp", "dropped with a warning"},
  {"Sigmoid", M, "graph.sigmoid", "TF/Elementwise.cpp", ""},
  {"SigmoidGrad", M, "graph.mul,graph.sub", "TF/Elementwise.cpp", ""},
  {"Sign", M, "graph.sign", "TF/Elementwise.cpp", ""},
  {"Sin", M, "graph.sin", "TF/Elementwise.cpp", ""},
  {"Size", M, "graph.constant", "TF/Shapes.cpp", ""},
  {"Slice", M, "graph.slice", "TF/DataMovement.cpp", ""},
  {"Snapshot", M, "graph.identity", "TF/Elementwise.cpp", ""},
  {"Softmax", M, "graph.softmax,graph.reshape", "TF/Elementwise.cpp", ""},
  {"SoftmaxCrossEntropyWithLogits", M, "graph.softmax_cross_entropy", "TF/NN.cpp", ""},
  {"Softplus", M, "graph.softplus", "TF/Elementwise.cpp", ""},
  {"SpaceToBatchND", M, "graph.conv", "TF/NN.cpp", ""},
  {"SparseApplyFtrl", M, "graph.read_variable,graph.gather,graph.ftrl_update,graph.scatter_nd,graph.assign_variable", "TF/Optimizers.cpp", ""},
  {"SparseSoftmaxCrossEntropyWithLogits", M, "graph.softmax_cross_entropy", "TF/NN.cpp", ""},
  {"Split", M, "graph.split", "TF/DataMovement.cpp", ""},
  {"SplitV", M, "graph.split", "TF/DataMovement.cpp", ""},
  {"Sqrt", M, "graph.sqrt", "TF/Elementwise.cpp", ""},
  {"Square", M, "graph.mul", "TF/Elementwise.cpp", ""},
  {"SquaredDifference", M, "graph.sub,graph.mul", "TF/Elementwise.cpp", ""},
  {"Squeeze", M, "graph.squeeze", "TF/Shapes.cpp", ""},
  {"StatefulPartitionedCall", M, "func.call", "TF/FunctionInlining.cpp", "inlined"},
  {"StopGradient", M, "graph.identity", "TF/Elementwise.cpp", ""},
  {"StridedSlice", M, "graph.slice,graph.reshape", "TF/DataMovement.cpp", ""},
  {"StringJoin", D, "", "TF/GraphDefImporter.cpp", "dropped with a warning"},
  {"Sub", M, "graph.sub", "TF/Elementwise.cpp", ""},
  {"Sum", M, "graph.reduce", "TF/NN.cpp", ""},
  {"Switch", M, "scf.while", "TF/Loops.cpp", "TF1 while loop: one scf.while per frame"},
  {"Tanh", M, "graph.tanh", "TF/Elementwise.cpp", ""},
  {"TanhGrad", M, "graph.mul,graph.sub", "TF/Elementwise.cpp", ""},
  {"TensorSummary", D, "", "TF/GraphDefImporter.cpp", "dropped with a warning"},
  {"TensorSummaryV2", D, "", "TF/GraphDefImporter.cpp", "dropped with a warning"},
  {"Tile", M, "graph.tile", "TF/DataMovement.cpp", ""},
  {"Transpose", M, "graph.transpose", "TF/DataMovement.cpp", ""},
  {"TruncatedNormal", In, "", "TF/Random.cpp", "an input with graph.random (no random ops)"},
  {"Unpack", M, "graph.split,graph.squeeze", "TF/DataMovement.cpp", ""},
  {"VarHandleOp", M, "graph.variable", "TF/Variables.cpp", ""},
  {"VarIsInitializedOp", M, "graph.constant", "TF/Variables.cpp", ""},
  {"Variable", M, "graph.variable", "TF/Variables.cpp", ""},
  {"VariableV2", M, "graph.variable", "TF/Variables.cpp", ""},
  {"WriteSummary", D, "", "TF/GraphDefImporter.cpp", "dropped with a warning"},
  {"ZerosLike", M, "graph.constant", "TF/Elementwise.cpp", ""},
  {"_Recv", M, "dist.recv", "TF/Partitions.cpp", "paired with a _Send of another task (a partitioned graph, imported as one dist.task per task): dist.recv under TensorFlow's rendezvous key; of the same task: the sent value; unpaired or client_terminated: an argument of @main"},
  {"_Send", M, "dist.send", "TF/Partitions.cpp", "paired with a _Recv of another task: dist.send under TensorFlow's rendezvous key; of the same task: nothing (an edge); unpaired or client_terminated: a result of @main"},
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
