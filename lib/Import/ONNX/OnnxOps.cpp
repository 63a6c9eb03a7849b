//===- OnnxOps.cpp - the ONNX importer's op registry ----------------------===//
//
// The one list of the ONNX ops graphc imports. Each entry: op, domain, the
// oldest opset whose form is translated (opsets 1-6 only for ops whose old
// forms Legacy.cpp knows; 7 otherwise), the newest one (0: no
// limit), the translator family, the graph-dialect ops the translation
// creates (docs/design/graph-op-set.md; the op is reported unsupported while
// one of them is not registered) and a note for the support table.
// Keep it sorted by (domain, op): lookup is a binary search, and a test
// (test/Import/op-registry.test) compares the generated table in docs/.
//
//===----------------------------------------------------------------------===//

#include "OnnxOps.h"

#include <algorithm>

namespace graphc::import {

namespace {

// Translator families: one per file of ONNX/ (a file may hold several, one
// function each), so the table below says where each op is translated.
const OnnxFamily kCore = {"ONNX/Core.cpp", &OnnxImporter::importCore};
const OnnxFamily kReductions = {"ONNX/Reductions.cpp",
                                &OnnxImporter::importReductions};
const OnnxFamily kActivations = {"ONNX/Activations.cpp",
                                 &OnnxImporter::importActivations};
const OnnxFamily kShapeOps = {"ONNX/ShapeOps.cpp",
                              &OnnxImporter::importShapeOps};
const OnnxFamily kSliceSplit = {"ONNX/SliceSplit.cpp",
                                &OnnxImporter::importSliceSplit};
const OnnxFamily kReshapeLike = {"ONNX/ReshapeLike.cpp",
                                 &OnnxImporter::importReshapeLike};
const OnnxFamily kDepthSpace = {"ONNX/ReshapeLike.cpp",
                                &OnnxImporter::importDepthSpace};
const OnnxFamily kNormalization = {"ONNX/Normalization.cpp",
                                   &OnnxImporter::importNormalization};
const OnnxFamily kConvTranspose = {"ONNX/ConvTranspose.cpp",
                                   &OnnxImporter::importConvTranspose};
const OnnxFamily kResize = {"ONNX/Resize.cpp", &OnnxImporter::importResize};
const OnnxFamily kRecurrent = {"ONNX/Recurrent.cpp",
                               &OnnxImporter::importRecurrent};
const OnnxFamily kEinsum = {"ONNX/Einsum.cpp", &OnnxImporter::importEinsumNode};
const OnnxFamily kLosses = {"ONNX/Losses.cpp",
                            &OnnxImporter::family<&OnnxImporter::importLosses>};
const OnnxFamily kIndexing = {
    "ONNX/Indexing.cpp", &OnnxImporter::family<&OnnxImporter::importIndexing>};
const OnnxFamily kMath = {"ONNX/Math.cpp",
                          &OnnxImporter::family<&OnnxImporter::importMath>};
const OnnxFamily kShrink = {"ONNX/Shrink.cpp",
                            &OnnxImporter::family<&OnnxImporter::importShrink>};
const OnnxFamily kAttention = {
    "ONNX/Attention.cpp",
    &OnnxImporter::family<&OnnxImporter::importAttentionFamily>};
const OnnxFamily kSampling = {
    "ONNX/Sampling.cpp", &OnnxImporter::family<&OnnxImporter::importSampling>};
const OnnxFamily kQuant = {"ONNX/Quant.cpp",
                           &OnnxImporter::family<&OnnxImporter::importQuant>};
const OnnxFamily kSignal = {"ONNX/Signal.cpp",
                            &OnnxImporter::family<&OnnxImporter::importSignal>};
const OnnxFamily kControlFlow = {
    "ONNX/ControlFlow.cpp",
    &OnnxImporter::family<&OnnxImporter::importControlFlow>};
const OnnxFamily kRandom = {"ONNX/Random.cpp",
                            &OnnxImporter::family<&OnnxImporter::importRandom>};
const OnnxFamily kDynamic = {
    "ONNX/Dynamic.cpp", &OnnxImporter::family<&OnnxImporter::importDynamic>};
const OnnxFamily kRnn = {"ONNX/Rnn.cpp",
                         &OnnxImporter::family<&OnnxImporter::importRnn>};
const OnnxFamily kUnpool = {"ONNX/Unpool.cpp",
                            &OnnxImporter::family<&OnnxImporter::importUnpool>};

struct OnnxOp {
  const char *op;
  const char *domain;
  int64_t since, until;
  const OnnxFamily *family;
  const char *creates;
  const char *notes;
};

// clang-format off
const OnnxOp kOnnxOps[] = {
  {"Abs", "", 1, 0, &kCore, "graph.abs", ""},
  {"Acos", "", 7, 0, &kMath, "graph.acos", ""},
  {"Acosh", "", 7, 0, &kMath, "graph.acosh", ""},
  {"Add", "", 1, 0, &kCore, "graph.add", ""},
  {"AffineGrid", "", 7, 0, &kSampling, "graph.constant,graph.matmul,graph.reshape", ""},
  {"And", "", 1, 0, &kCore, "graph.and", ""},
  {"ArgMax", "", 1, 0, &kReductions, "graph.arg_reduce", ""},
  {"ArgMin", "", 1, 0, &kReductions, "graph.arg_reduce", ""},
  {"Asin", "", 7, 0, &kMath, "graph.asin", ""},
  {"Asinh", "", 7, 0, &kMath, "graph.asinh", ""},
  {"Atan", "", 7, 0, &kMath, "graph.atan", ""},
  {"Atanh", "", 7, 0, &kMath, "graph.atanh", ""},
  {"Attention", "", 7, 0, &kAttention, "graph.matmul,graph.softmax,graph.transpose,graph.reshape,graph.broadcast_to,graph.mul,graph.add,graph.select,graph.cast", "static shapes; KV cache, masks, grouped-query heads"},
  {"AveragePool", "", 1, 0, &kCore, "graph.pool", ""},
  {"BatchNormalization", "", 1, 0, &kNormalization, "graph.batch_norm", "inference only; spatial=0 (before 9) per activation"},
  {"Bernoulli", "", 15, 0, &kRandom, "graph.constant,graph.compare,graph.cast", "uniforms drawn at import (seeded generator, docs/design/importers.md): one sample per compiled job"},
  {"BitCast", "", 7, 0, &kSampling, "graph.bitcast", ""},
  {"BitShift", "", 7, 0, &kSampling, "graph.shift_left,graph.shift_right", ""},
  {"BitwiseAnd", "", 7, 0, &kMath, "graph.bitwise_and", ""},
  {"BitwiseNot", "", 7, 0, &kMath, "graph.bitwise_not", ""},
  {"BitwiseOr", "", 7, 0, &kMath, "graph.bitwise_or", ""},
  {"BitwiseXor", "", 7, 0, &kMath, "graph.bitwise_xor", ""},
  {"BlackmanWindow", "", 7, 0, &kSignal, "graph.constant", ""},
  {"Cast", "", 1, 0, &kCore, "graph.cast", ""},
  {"CastLike", "", 7, 0, &kActivations, "graph.cast", ""},
  {"CausalConvWithState", "", 7, 0, &kAttention, "graph.concat,graph.conv,graph.slice,graph.sigmoid,graph.mul", ""},
  {"Ceil", "", 1, 0, &kCore, "graph.ceil", ""},
  {"Celu", "", 7, 0, &kActivations, "graph.exp,graph.div,graph.sub,graph.mul,graph.max,graph.min,graph.add", ""},
  {"CenterCropPad", "", 7, 0, &kSampling, "graph.slice,graph.pad", ""},
  {"Clip", "", 1, 0, &kActivations, "graph.clamp", ""},
  {"Col2Im", "", 7, 0, &kSampling, "graph.col2im", ""},
  {"Compress", "", 9, 0, &kDynamic, "graph.gather,graph.cumulative,graph.select,graph.scatter_nd,graph.slice,graph.reduce", "constant condition: exact; else bounded to the axis length, zeros after the valid slices, OUTPUT:valid_count result"},
  {"Concat", "", 1, 0, &kCore, "graph.concat", ""},
  {"Constant", "", 1, 0, &kCore, "graph.constant", ""},
  {"ConstantOfShape", "", 7, 0, &kCore, "graph.constant", ""},
  {"Conv", "", 1, 0, &kCore, "graph.conv", ""},
  {"ConvInteger", "", 7, 0, &kQuant, "graph.cast,graph.sub,graph.reshape,graph.conv", ""},
  {"ConvTranspose", "", 1, 0, &kConvTranspose, "graph.conv_transpose", ""},
  {"Cos", "", 7, 0, &kCore, "graph.cos", ""},
  {"Cosh", "", 7, 0, &kMath, "graph.cosh", ""},
  {"CumProd", "", 7, 0, &kIndexing, "graph.cumulative", ""},
  {"CumSum", "", 7, 0, &kIndexing, "graph.cumulative", ""},
  {"DFT", "", 7, 0, &kSignal, "graph.transpose,graph.reshape,graph.matmul", "direct O(N*K) transform; matrix capped at 2^22 elements"},
  {"DepthToSpace", "", 1, 0, &kDepthSpace, "graph.reshape,graph.transpose", ""},
  {"DequantizeLinear", "", 7, 0, &kQuant, "graph.cast,graph.sub,graph.mul,graph.reshape,graph.unsqueeze,graph.broadcast_to,graph.slice", ""},
  {"Det", "", 7, 0, &kMath, "graph.reshape,graph.gather,graph.reduce,graph.mul", ""},
  {"Div", "", 1, 0, &kCore, "graph.div", ""},
  {"Dropout", "", 1, 0, &kCore, "graph.identity", "inference: identity; before opset 7 only with ratio 0 or is_test"},
  {"DynamicQuantizeLinear", "", 7, 0, &kQuant, "graph.reduce,graph.min,graph.max,graph.sub,graph.div,graph.clamp,graph.round,graph.add,graph.cast", ""},
  {"Einsum", "", 7, 0, &kEinsum, "graph.reduce,graph.transpose,graph.reshape,graph.matmul,graph.broadcast_to", "no repeated index within a term"},
  {"Elu", "", 1, 0, &kCore, "graph.elu", ""},
  {"Equal", "", 1, 0, &kCore, "graph.compare", ""},
  {"Erf", "", 7, 0, &kCore, "graph.erf", ""},
  {"Exp", "", 1, 0, &kCore, "graph.exp", ""},
  {"Expand", "", 7, 0, &kReshapeLike, "graph.broadcast_to", ""},
  {"EyeLike", "", 7, 0, &kIndexing, "graph.constant", ""},
  {"Flatten", "", 1, 0, &kCore, "graph.reshape", ""},
  {"Floor", "", 1, 0, &kCore, "graph.floor", ""},
  {"GRU", "", 7, 0, &kRecurrent, "graph.gru", "no activation_alpha/beta"},
  {"Gather", "", 1, 0, &kShapeOps, "graph.gather", ""},
  {"GatherElements", "", 7, 0, &kIndexing, "graph.gather_elements", ""},
  {"GatherND", "", 7, 0, &kShapeOps, "graph.gather_nd", ""},
  {"Gelu", "", 7, 0, &kActivations, "graph.gelu", ""},
  {"Gemm", "", 1, 0, &kCore, "graph.matmul,graph.mul,graph.add", ""},
  {"GlobalAveragePool", "", 1, 0, &kReductions, "graph.reduce", ""},
  {"GlobalMaxPool", "", 1, 0, &kReductions, "graph.reduce", ""},
  {"Greater", "", 1, 0, &kCore, "graph.compare", ""},
  {"GreaterOrEqual", "", 7, 0, &kCore, "graph.compare", ""},
  {"GridSample", "", 7, 0, &kSampling, "graph.grid_sample", ""},
  {"GroupNormalization", "", 7, 0, &kMath, "graph.reshape,graph.reduce,graph.sub,graph.mul,graph.add,graph.rsqrt", ""},
  {"HammingWindow", "", 7, 0, &kSignal, "graph.constant", ""},
  {"HannWindow", "", 7, 0, &kSignal, "graph.constant", ""},
  {"HardSigmoid", "", 1, 0, &kActivations, "graph.mul,graph.add,graph.clamp", ""},
  {"HardSwish", "", 7, 0, &kActivations, "graph.mul,graph.add,graph.clamp", ""},
  {"Hardmax", "", 7, 0, &kMath, "graph.arg_reduce,graph.one_hot", ""},
  {"Identity", "", 1, 0, &kCore, "graph.identity", ""},
  {"If", "", 7, 0, &kControlFlow, "scf.if,tensor.extract,tensor.cast", "constant condition: the taken branch inline; branch outputs joined to one type (differing dimensions dynamic)"},
  {"InstanceNormalization", "", 1, 0, &kNormalization, "graph.reduce,graph.sub,graph.mul,graph.add,graph.rsqrt,graph.reshape", ""},
  {"IsInf", "", 7, 0, &kMath, "graph.compare,graph.or,graph.and", ""},
  {"IsNaN", "", 7, 0, &kActivations, "graph.compare", ""},
  {"LRN", "", 7, 0, &kNormalization, "graph.lrn", ""},
  {"LSTM", "", 7, 0, &kRecurrent, "graph.lstm", "no activation_alpha/beta"},
  {"LayerNormalization", "", 7, 0, &kNormalization, "graph.layer_norm", "Y only (no Mean/InvStdDev outputs)"},
  {"LeakyRelu", "", 1, 0, &kCore, "graph.leaky_relu", ""},
  {"Less", "", 1, 0, &kCore, "graph.compare", ""},
  {"LessOrEqual", "", 7, 0, &kCore, "graph.compare", ""},
  {"LinearAttention", "", 7, 0, &kAttention, "graph.matmul,graph.mul,graph.add,graph.slice,graph.concat,graph.reshape", "recurrence unrolled over the static sequence length"},
  {"Log", "", 1, 0, &kCore, "graph.log", ""},
  {"LogSoftmax", "", 1, 0, &kActivations, "graph.log_softmax,graph.reshape", ""},
  {"Loop", "", 7, 0, &kControlFlow, "scf.while,graph.compare,graph.and,graph.add,graph.scatter_nd,tensor.extract", "loop-carried values keep their shape; scan outputs need a compile-time trip count and a condition that stays true"},
  {"LpNormalization", "", 7, 0, &kMath, "graph.abs,graph.mul,graph.reduce,graph.sqrt,graph.div", ""},
  {"LpPool", "", 7, 0, &kMath, "graph.abs,graph.mul,graph.pow,graph.pool,graph.sqrt", ""},
  {"MatMul", "", 1, 0, &kCore, "graph.matmul", ""},
  {"MatMulInteger", "", 7, 0, &kQuant, "graph.cast,graph.sub,graph.reshape,graph.matmul", ""},
  {"Max", "", 1, 0, &kCore, "graph.max", ""},
  {"MaxPool", "", 1, 0, &kCore, "graph.pool", "Indices output refused"},
  {"MaxUnpool", "", 7, 0, &kUnpool, "graph.constant,graph.reshape,graph.scatter_elements", ""},
  {"Mean", "", 1, 0, &kActivations, "graph.add,graph.div", ""},
  {"MeanVarianceNormalization", "", 7, 0, &kMath, "graph.reduce,graph.mul,graph.sub,graph.sqrt,graph.add,graph.div", ""},
  {"MelWeightMatrix", "", 7, 0, &kSignal, "graph.constant", ""},
  {"Min", "", 1, 0, &kCore, "graph.min", ""},
  {"Mish", "", 7, 0, &kActivations, "graph.softplus,graph.tanh,graph.mul", ""},
  {"Mod", "", 7, 0, &kActivations, "graph.mod,graph.rem", "fmod picks graph.rem"},
  {"Mul", "", 1, 0, &kCore, "graph.mul", ""},
  {"Multinomial", "", 7, 0, &kRandom, "graph.constant,graph.softmax,graph.cumulative,graph.reshape,graph.compare,graph.cast,graph.reduce,graph.min", "inverse-CDF on uniforms drawn at import: one sample per compiled job"},
  {"Neg", "", 1, 0, &kCore, "graph.neg", ""},
  {"NegativeLogLikelihoodLoss", "", 7, 0, &kLosses, "graph.gather_elements,graph.gather,graph.compare,graph.select,graph.cast,graph.neg,graph.mul,graph.div,graph.reduce,graph.squeeze,graph.unsqueeze", ""},
  {"NonZero", "", 9, 0, &kDynamic, "graph.compare,graph.cumulative,graph.select,graph.scatter_nd,graph.slice,graph.transpose,graph.reduce", "constant input: folded; else bounded to [rank, numel], zeros after the valid columns, OUTPUT:valid_count result"},
  {"Not", "", 1, 0, &kCore, "graph.not", ""},
  {"OneHot", "", 7, 0, &kDepthSpace, "graph.slice,graph.reshape,graph.one_hot", ""},
  {"Or", "", 1, 0, &kCore, "graph.or", ""},
  {"PRelu", "", 1, 0, &kActivations, "graph.compare,graph.mul,graph.select", ""},
  {"Pad", "", 1, 0, &kReshapeLike, "graph.pad,graph.slice", ""},
  {"Pow", "", 1, 0, &kCore, "graph.pow", "integer base computed in f64"},
  {"QLinearConv", "", 7, 0, &kQuant, "graph.cast,graph.sub,graph.reshape,graph.conv,graph.mul,graph.div,graph.round,graph.add,graph.clamp", ""},
  {"QLinearMatMul", "", 7, 0, &kQuant, "graph.cast,graph.sub,graph.reshape,graph.matmul,graph.mul,graph.div,graph.round,graph.add,graph.clamp", ""},
  {"QuantizeLinear", "", 7, 0, &kQuant, "graph.div,graph.round,graph.add,graph.clamp,graph.cast,graph.reshape,graph.unsqueeze,graph.broadcast_to,graph.slice", ""},
  {"RMSNormalization", "", 7, 0, &kAttention, "graph.mul,graph.reduce,graph.add,graph.rsqrt,graph.cast", ""},
  {"RNN", "", 7, 0, &kRnn, "graph.gather,graph.transpose,graph.matmul,graph.add,graph.slice,graph.reshape,graph.tanh,graph.relu,graph.sigmoid,graph.clamp,graph.unsqueeze,graph.concat", "unrolled over the static sequence; Tanh/Relu/Sigmoid; no activation_alpha/beta; sequence_lens only at full length"},
  {"RandomNormal", "", 7, 0, &kRandom, "graph.constant", "drawn at import (seeded generator): a constant"},
  {"RandomNormalLike", "", 7, 0, &kRandom, "graph.constant", "drawn at import (seeded generator): a constant; static input shape"},
  {"RandomUniform", "", 7, 0, &kRandom, "graph.constant", "drawn at import (seeded generator): a constant"},
  {"RandomUniformLike", "", 7, 0, &kRandom, "graph.constant", "drawn at import (seeded generator): a constant; static input shape"},
  {"Range", "", 7, 0, &kShapeOps, "graph.constant", "folded to a constant"},
  {"Reciprocal", "", 1, 0, &kCore, "graph.reciprocal", ""},
  {"ReduceL1", "", 1, 0, &kReductions, "graph.abs,graph.reduce", ""},
  {"ReduceL2", "", 1, 0, &kReductions, "graph.mul,graph.reduce,graph.sqrt", ""},
  {"ReduceLogSum", "", 1, 0, &kReductions, "graph.reduce,graph.log", ""},
  {"ReduceLogSumExp", "", 1, 0, &kReductions, "graph.exp,graph.reduce,graph.log", ""},
  {"ReduceMax", "", 1, 0, &kReductions, "graph.reduce", ""},
  {"ReduceMean", "", 1, 0, &kReductions, "graph.reduce", ""},
  {"ReduceMin", "", 1, 0, &kReductions, "graph.reduce", ""},
  {"ReduceProd", "", 1, 0, &kReductions, "graph.reduce", ""},
  {"ReduceSum", "", 1, 0, &kReductions, "graph.reduce", ""},
  {"ReduceSumSquare", "", 1, 0, &kReductions, "graph.mul,graph.reduce", ""},
  {"Relu", "", 1, 0, &kCore, "graph.relu", ""},
  {"Reshape", "", 1, 0, &kCore, "graph.reshape", "allowzero becomes graph.dynamic_reshape"},
  {"Resize", "", 7, 0, &kResize, "graph.resize", "constant scales/sizes; every coordinate mode"},
  {"ReverseSequence", "", 7, 0, &kIndexing, "graph.compare,graph.sub,graph.select,graph.broadcast_to,graph.gather_elements", ""},
  {"RotaryEmbedding", "", 7, 0, &kAttention, "graph.gather,graph.slice,graph.mul,graph.sub,graph.add,graph.concat,graph.reshape", ""},
  {"Round", "", 7, 0, &kCore, "graph.round", ""},
  {"STFT", "", 7, 0, &kSignal, "graph.gather,graph.mul,graph.transpose,graph.reshape,graph.matmul", "frames gathered with constant indices"},
  {"Scan", "", 8, 0, &kControlFlow, "scf.while,graph.gather,graph.scatter_nd,graph.transpose,tensor.extract", "static scan length; opset 8: no sequence_lens, batch unrolled"},
  {"Scatter", "", 7, 0, &kShapeOps, "graph.scatter_elements", ""},
  {"ScatterElements", "", 7, 0, &kShapeOps, "graph.scatter_elements", ""},
  {"ScatterND", "", 7, 0, &kShapeOps, "graph.scatter_nd", ""},
  {"Selu", "", 1, 0, &kActivations, "graph.exp,graph.sub,graph.mul,graph.compare,graph.select", ""},
  {"Shape", "", 1, 0, &kShapeOps, "graph.shape,graph.slice", ""},
  {"Shrink", "", 7, 0, &kShrink, "graph.compare,graph.select,graph.add,graph.sub", ""},
  {"Sigmoid", "", 1, 0, &kCore, "graph.sigmoid", ""},
  {"Sign", "", 7, 0, &kCore, "graph.sign", ""},
  {"Sin", "", 7, 0, &kCore, "graph.sin", ""},
  {"Sinh", "", 7, 0, &kMath, "graph.sinh", ""},
  {"Size", "", 1, 0, &kShapeOps, "graph.constant,graph.shape,graph.reduce", ""},
  {"Slice", "", 1, 0, &kSliceSplit, "graph.slice", "static sizes on the sliced and kept axes"},
  {"Softmax", "", 1, 0, &kActivations, "graph.softmax,graph.reshape", ""},
  {"SoftmaxCrossEntropyLoss", "", 7, 0, &kLosses, "graph.log_softmax,graph.gather_elements,graph.gather,graph.compare,graph.select,graph.cast,graph.neg,graph.mul,graph.div,graph.reduce,graph.squeeze,graph.unsqueeze", ""},
  {"Softplus", "", 1, 0, &kCore, "graph.softplus", ""},
  {"Softsign", "", 1, 0, &kActivations, "graph.abs,graph.add,graph.div", ""},
  {"SpaceToDepth", "", 1, 0, &kDepthSpace, "graph.reshape,graph.transpose", ""},
  {"Split", "", 1, 0, &kSliceSplit, "graph.split", ""},
  {"Sqrt", "", 1, 0, &kCore, "graph.sqrt", ""},
  {"Squeeze", "", 1, 0, &kReshapeLike, "graph.squeeze", ""},
  {"Sub", "", 1, 0, &kCore, "graph.sub", ""},
  {"Sum", "", 1, 0, &kCore, "graph.add", ""},
  {"Swish", "", 7, 0, &kMath, "graph.mul,graph.sigmoid", ""},
  {"Tan", "", 7, 0, &kMath, "graph.tan", ""},
  {"Tanh", "", 1, 0, &kCore, "graph.tanh", ""},
  {"ThresholdedRelu", "", 7, 0, &kActivations, "graph.compare,graph.select", ""},
  {"Tile", "", 6, 0, &kReshapeLike, "graph.tile", "Tile-1 (tiles/axis inputs) is refused"},
  {"TopK", "", 7, 0, &kIndexing, "graph.top_k", ""},
  {"Transpose", "", 1, 0, &kCore, "graph.transpose", ""},
  {"Trilu", "", 7, 0, &kIndexing, "graph.constant,graph.compare,graph.select", ""},
  {"Unsqueeze", "", 1, 0, &kReshapeLike, "graph.unsqueeze", ""},
  {"Upsample", "", 1, 0, &kResize, "graph.resize", "Upsample-1 (experimental): nearest only"},
  {"Where", "", 7, 0, &kCore, "graph.select", ""},
  {"Xor", "", 1, 0, &kCore, "graph.xor", ""},
  {"FlexAttention", "ai.onnx.preview", 7, 0, &kAttention, "graph.matmul,graph.softmax,graph.transpose,graph.mul,graph.add", "score_mod/prob_mod subgraphs imported inline"},
};
// clang-format on

/// The rules of kOnnxOps, in the same order.
const std::vector<OpRule> &rules() {
  static const std::vector<OpRule> all = [] {
    std::vector<OpRule> out;
    for (const OnnxOp &op : kOnnxOps) {
      OpRule rule;
      rule.op = op.op;
      rule.domain = op.domain;
      rule.action = OpAction::Map;
      rule.since = op.since;
      rule.until = op.until;
      rule.creates = op.creates;
      rule.file = op.family ? op.family->file : "";
      rule.notes = op.notes;
      out.push_back(rule);
    }
    return out;
  }();
  return all;
}

} // namespace

std::optional<OnnxOpEntry> lookupOnnxEntry(StringRef domain, StringRef op) {
  if (domain == "ai.onnx") {
    domain = "";
  }
  auto key = [](const OnnxOp &entry) {
    return std::make_pair(StringRef(entry.domain), StringRef(entry.op));
  };
  const OnnxOp *it = std::lower_bound(
      std::begin(kOnnxOps), std::end(kOnnxOps), std::make_pair(domain, op),
      [&](const OnnxOp &entry, std::pair<StringRef, StringRef> want) {
        return key(entry) < want;
      });
  if (it == std::end(kOnnxOps) || key(*it) != std::make_pair(domain, op)) {
    return std::nullopt;
  }
  return OnnxOpEntry{&rules()[it - std::begin(kOnnxOps)], it->family};
}

const OpRule *lookupOnnxOp(StringRef domain, StringRef op) {
  std::optional<OnnxOpEntry> entry = lookupOnnxEntry(domain, op);
  return entry ? entry->rule : nullptr;
}

llvm::ArrayRef<OpRule> onnxOpRules() { return rules(); }

} // namespace graphc::import
