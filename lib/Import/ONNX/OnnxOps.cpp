//===- OnnxOps.cpp - the ONNX importer's op registry ----------------------===//
//
// The one list of the ONNX ops graphc imports. Each entry: op, domain, the
// oldest opset whose form is translated (opsets 1-6 only for ops whose old
// forms Legacy.cpp knows; 7 otherwise; 1 for ai.onnx.preview.training,
// whose models may declare only that domain's opset 1), the newest one (0: no
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

// Translators: one per op or small group of related ops, each named after
// its op (importPow, importDFT) and paired with the file that holds it, so
// an op's row below leads to its code. The older families that still take
// several ops each (Reductions.cpp, ShapeOps.cpp ...) are listed likewise.
const OnnxFamily kOneToOne = {"ONNX/Core.cpp", &OnnxImporter::importOneToOne};
const OnnxFamily kPow = {"ONNX/Core.cpp", &OnnxImporter::importPow};
const OnnxFamily kVariadic = {"ONNX/Core.cpp", &OnnxImporter::importVariadic};
const OnnxFamily kDropout = {"ONNX/Core.cpp", &OnnxImporter::importDropout};
const OnnxFamily kConstantOfShape = {"ONNX/Core.cpp",
                                     &OnnxImporter::importConstantOfShape};
const OnnxFamily kCompare = {"ONNX/Core.cpp", &OnnxImporter::importCompare};
const OnnxFamily kWhere = {"ONNX/Core.cpp", &OnnxImporter::importWhere};
const OnnxFamily kCast = {"ONNX/Core.cpp", &OnnxImporter::importCast};
const OnnxFamily kAlphaActivation = {"ONNX/Core.cpp",
                                     &OnnxImporter::importAlphaActivation};
const OnnxFamily kConstant = {"ONNX/Core.cpp", &OnnxImporter::importConstant};
const OnnxFamily kReshape = {"ONNX/Core.cpp", &OnnxImporter::importReshape};
const OnnxFamily kFlatten = {"ONNX/Core.cpp", &OnnxImporter::importFlatten};
const OnnxFamily kTranspose = {"ONNX/Core.cpp", &OnnxImporter::importTranspose};
const OnnxFamily kConcat = {"ONNX/Core.cpp", &OnnxImporter::importConcat};
const OnnxFamily kGemm = {"ONNX/Core.cpp", &OnnxImporter::importGemm};
const OnnxFamily kConvPool = {"ONNX/Core.cpp", &OnnxImporter::importConvPool};
const OnnxFamily kReductions = {"ONNX/Reductions.cpp",
                                &OnnxImporter::importReductions};
const OnnxFamily kSoftmax = {"ONNX/Activations.cpp",
                             &OnnxImporter::importSoftmax};
const OnnxFamily kComposedActivation = {
    "ONNX/Activations.cpp", &OnnxImporter::importComposedActivation};
const OnnxFamily kMean = {"ONNX/Activations.cpp", &OnnxImporter::importMean};
const OnnxFamily kMod = {"ONNX/Activations.cpp", &OnnxImporter::importMod};
const OnnxFamily kIsNaN = {"ONNX/Activations.cpp", &OnnxImporter::importIsNaN};
const OnnxFamily kCastLike = {"ONNX/Activations.cpp",
                              &OnnxImporter::importCastLike};
const OnnxFamily kClip = {"ONNX/Activations.cpp", &OnnxImporter::importClip};
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
const OnnxFamily kIsInf = {"ONNX/Math.cpp",
                           &OnnxImporter::family<&OnnxImporter::importIsInf>};
const OnnxFamily kSwish = {"ONNX/Math.cpp",
                           &OnnxImporter::family<&OnnxImporter::importSwish>};
const OnnxFamily kHardmax = {
    "ONNX/Math.cpp", &OnnxImporter::family<&OnnxImporter::importHardmax>};
const OnnxFamily kLpNormalization = {
    "ONNX/Math.cpp",
    &OnnxImporter::family<&OnnxImporter::importLpNormalization>};
const OnnxFamily kMeanVarianceNormalization = {
    "ONNX/Math.cpp",
    &OnnxImporter::family<&OnnxImporter::importMeanVarianceNormalization>};
const OnnxFamily kGroupNormalization = {
    "ONNX/Math.cpp",
    &OnnxImporter::family<&OnnxImporter::importGroupNormalization>};
const OnnxFamily kDet = {"ONNX/Math.cpp",
                         &OnnxImporter::family<&OnnxImporter::importDet>};
const OnnxFamily kLpPool = {"ONNX/Math.cpp",
                            &OnnxImporter::family<&OnnxImporter::importLpPool>};
const OnnxFamily kMathDirect = {
    "ONNX/Math.cpp", &OnnxImporter::family<&OnnxImporter::importMathDirect>};
const OnnxFamily kTrainingOptimizer = {
    "ONNX/Optimizers.cpp",
    &OnnxImporter::family<&OnnxImporter::importTrainingOptimizer>};
const OnnxFamily kShrink = {"ONNX/Shrink.cpp",
                            &OnnxImporter::family<&OnnxImporter::importShrink>};
const OnnxFamily kAttention = {
    "ONNX/Attention.cpp",
    &OnnxImporter::family<&OnnxImporter::importAttentionFamily>};
const OnnxFamily kGridSample = {
    "ONNX/Sampling.cpp",
    &OnnxImporter::family<&OnnxImporter::importGridSample>};
const OnnxFamily kCol2Im = {"ONNX/Sampling.cpp",
                            &OnnxImporter::family<&OnnxImporter::importCol2Im>};
const OnnxFamily kBitShift = {
    "ONNX/Sampling.cpp", &OnnxImporter::family<&OnnxImporter::importBitShift>};
const OnnxFamily kBitCast = {
    "ONNX/Sampling.cpp", &OnnxImporter::family<&OnnxImporter::importBitCast>};
const OnnxFamily kAffineGrid = {
    "ONNX/Sampling.cpp",
    &OnnxImporter::family<&OnnxImporter::importAffineGrid>};
const OnnxFamily kCenterCropPad = {
    "ONNX/Sampling.cpp",
    &OnnxImporter::family<&OnnxImporter::importCenterCropPad>};
const OnnxFamily kRoiAlign = {
    "ONNX/Sampling.cpp", &OnnxImporter::family<&OnnxImporter::importRoiAlign>};
const OnnxFamily kQuantizeLinear = {
    "ONNX/Quant.cpp",
    &OnnxImporter::family<&OnnxImporter::importQuantizeLinear>};
const OnnxFamily kDynamicQuantizeLinear = {
    "ONNX/Quant.cpp",
    &OnnxImporter::family<&OnnxImporter::importDynamicQuantizeLinear>};
const OnnxFamily kIntegerMatMulConv = {
    "ONNX/Quant.cpp",
    &OnnxImporter::family<&OnnxImporter::importIntegerMatMulConv>};
const OnnxFamily kWindow = {"ONNX/Signal.cpp",
                            &OnnxImporter::family<&OnnxImporter::importWindow>};
const OnnxFamily kMelWeightMatrix = {
    "ONNX/Signal.cpp",
    &OnnxImporter::family<&OnnxImporter::importMelWeightMatrix>};
const OnnxFamily kDFT = {"ONNX/Signal.cpp",
                         &OnnxImporter::family<&OnnxImporter::importDFT>};
const OnnxFamily kSTFT = {"ONNX/Signal.cpp",
                          &OnnxImporter::family<&OnnxImporter::importSTFT>};
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
const OnnxFamily kSequence = {
    "ONNX/Sequences.cpp", &OnnxImporter::family<&OnnxImporter::importSequence>};
const OnnxFamily kGradient = {
    "ONNX/Gradient.cpp", &OnnxImporter::family<&OnnxImporter::importGradient>};

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
  {"Abs", "", 1, 0, &kOneToOne, "graph.abs", ""},
  {"Acos", "", 7, 0, &kMathDirect, "graph.acos", ""},
  {"Acosh", "", 7, 0, &kMathDirect, "graph.acosh", ""},
  {"Add", "", 1, 0, &kOneToOne, "graph.add", ""},
  {"AffineGrid", "", 7, 0, &kAffineGrid, "graph.constant,graph.matmul,graph.reshape", ""},
  {"And", "", 1, 0, &kOneToOne, "graph.and", ""},
  {"ArgMax", "", 1, 0, &kReductions, "graph.arg_reduce", ""},
  {"ArgMin", "", 1, 0, &kReductions, "graph.arg_reduce", ""},
  {"Asin", "", 7, 0, &kMathDirect, "graph.asin", ""},
  {"Asinh", "", 7, 0, &kMathDirect, "graph.asinh", ""},
  {"Atan", "", 7, 0, &kMathDirect, "graph.atan", ""},
  {"Atanh", "", 7, 0, &kMathDirect, "graph.atanh", ""},
  {"Attention", "", 7, 0, &kAttention, "graph.matmul,graph.softmax,graph.transpose,graph.reshape,graph.broadcast_to,graph.mul,graph.add,graph.select,graph.cast", "static shapes; KV cache, masks, grouped-query heads"},
  {"AveragePool", "", 1, 0, &kConvPool, "graph.pool", ""},
  {"BatchNormalization", "", 1, 0, &kNormalization, "graph.batch_norm", "inference only; spatial=0 (before 9) per activation"},
  {"Bernoulli", "", 15, 0, &kRandom, "graph.constant,graph.compare,graph.cast", "uniforms drawn at import (seeded generator, docs/design/importers.md): one sample per compiled job"},
  {"BitCast", "", 7, 0, &kBitCast, "graph.bitcast", ""},
  {"BitShift", "", 7, 0, &kBitShift, "graph.shift_left,graph.shift_right", ""},
  {"BitwiseAnd", "", 7, 0, &kMathDirect, "graph.bitwise_and", ""},
  {"BitwiseNot", "", 7, 0, &kMathDirect, "graph.bitwise_not", ""},
  {"BitwiseOr", "", 7, 0, &kMathDirect, "graph.bitwise_or", ""},
  {"BitwiseXor", "", 7, 0, &kMathDirect, "graph.bitwise_xor", ""},
  {"BlackmanWindow", "", 7, 0, &kWindow, "graph.constant", ""},
  {"Cast", "", 1, 0, &kCast, "graph.cast", ""},
  {"CastLike", "", 7, 0, &kCastLike, "graph.cast", ""},
  {"CausalConvWithState", "", 7, 0, &kAttention, "graph.concat,graph.conv,graph.slice,graph.sigmoid,graph.mul", ""},
  {"Ceil", "", 1, 0, &kOneToOne, "graph.ceil", ""},
  {"Celu", "", 7, 0, &kComposedActivation, "graph.exp,graph.div,graph.sub,graph.mul,graph.max,graph.min,graph.add", ""},
  {"CenterCropPad", "", 7, 0, &kCenterCropPad, "graph.slice,graph.pad", ""},
  {"Clip", "", 1, 0, &kClip, "graph.clamp", ""},
  {"Col2Im", "", 7, 0, &kCol2Im, "graph.col2im", ""},
  {"Compress", "", 9, 0, &kDynamic, "graph.gather,graph.cumulative,graph.select,graph.scatter_nd,graph.slice,graph.reduce", "constant condition: exact; else bounded to the axis length, zeros after the valid slices, OUTPUT:valid_count result"},
  {"Concat", "", 1, 0, &kConcat, "graph.concat", ""},
  {"ConcatFromSequence", "", 11, 0, &kSequence, "graph.unsqueeze,graph.concat", "the sequence resolved at import (docs/design/importers.md, Sequences)"},
  {"Constant", "", 1, 0, &kConstant, "graph.constant", ""},
  {"ConstantOfShape", "", 7, 0, &kConstantOfShape, "graph.constant", ""},
  {"Conv", "", 1, 0, &kConvPool, "graph.conv", ""},
  {"ConvInteger", "", 7, 0, &kIntegerMatMulConv, "graph.cast,graph.sub,graph.reshape,graph.conv", ""},
  {"ConvTranspose", "", 1, 0, &kConvTranspose, "graph.conv_transpose", ""},
  {"Cos", "", 7, 0, &kOneToOne, "graph.cos", ""},
  {"Cosh", "", 7, 0, &kMathDirect, "graph.cosh", ""},
  {"CumProd", "", 7, 0, &kIndexing, "graph.cumulative", ""},
  {"CumSum", "", 7, 0, &kIndexing, "graph.cumulative", ""},
  {"DFT", "", 7, 0, &kDFT, "graph.transpose,graph.reshape,graph.matmul", "direct O(N*K) transform; matrix capped at 2^22 elements"},
  {"DepthToSpace", "", 1, 0, &kDepthSpace, "graph.reshape,graph.transpose", ""},
  {"DequantizeLinear", "", 7, 0, &kQuantizeLinear, "graph.cast,graph.sub,graph.mul,graph.reshape,graph.unsqueeze,graph.broadcast_to,graph.slice", ""},
  {"Det", "", 7, 0, &kDet, "graph.reshape,graph.gather,graph.reduce,graph.mul", ""},
  {"Div", "", 1, 0, &kOneToOne, "graph.div", ""},
  {"Dropout", "", 1, 0, &kDropout, "graph.identity", "inference: identity; before opset 7 only with ratio 0 or is_test"},
  {"DynamicQuantizeLinear", "", 7, 0, &kDynamicQuantizeLinear, "graph.reduce,graph.min,graph.max,graph.sub,graph.div,graph.clamp,graph.round,graph.add,graph.cast", ""},
  {"Einsum", "", 7, 0, &kEinsum, "graph.reduce,graph.transpose,graph.reshape,graph.matmul,graph.broadcast_to", "no repeated index within a term"},
  {"Elu", "", 1, 0, &kAlphaActivation, "graph.elu", ""},
  {"Equal", "", 1, 0, &kCompare, "graph.compare", ""},
  {"Erf", "", 7, 0, &kOneToOne, "graph.erf", ""},
  {"Exp", "", 1, 0, &kOneToOne, "graph.exp", ""},
  {"Expand", "", 7, 0, &kReshapeLike, "graph.broadcast_to", ""},
  {"EyeLike", "", 7, 0, &kIndexing, "graph.constant", ""},
  {"Flatten", "", 1, 0, &kFlatten, "graph.reshape", ""},
  {"Floor", "", 1, 0, &kOneToOne, "graph.floor", ""},
  {"GRU", "", 7, 0, &kRecurrent, "graph.gru", "no activation_alpha/beta"},
  {"Gather", "", 1, 0, &kShapeOps, "graph.gather", ""},
  {"GatherElements", "", 7, 0, &kIndexing, "graph.gather_elements", ""},
  {"GatherND", "", 7, 0, &kShapeOps, "graph.gather_nd", ""},
  {"Gelu", "", 7, 0, &kComposedActivation, "graph.gelu", ""},
  {"Gemm", "", 1, 0, &kGemm, "graph.matmul,graph.mul,graph.add", ""},
  {"GlobalAveragePool", "", 1, 0, &kReductions, "graph.reduce", ""},
  {"GlobalMaxPool", "", 1, 0, &kReductions, "graph.reduce", ""},
  {"Greater", "", 1, 0, &kCompare, "graph.compare", ""},
  {"GreaterOrEqual", "", 7, 0, &kCompare, "graph.compare", ""},
  {"GridSample", "", 7, 0, &kGridSample, "graph.grid_sample", ""},
  {"GroupNormalization", "", 7, 0, &kGroupNormalization, "graph.reshape,graph.reduce,graph.sub,graph.mul,graph.add,graph.rsqrt", ""},
  {"HammingWindow", "", 7, 0, &kWindow, "graph.constant", ""},
  {"HannWindow", "", 7, 0, &kWindow, "graph.constant", ""},
  {"HardSigmoid", "", 1, 0, &kComposedActivation, "graph.mul,graph.add,graph.clamp", ""},
  {"HardSwish", "", 7, 0, &kComposedActivation, "graph.mul,graph.add,graph.clamp", ""},
  {"Hardmax", "", 7, 0, &kHardmax, "graph.arg_reduce,graph.one_hot", ""},
  {"Identity", "", 1, 0, &kOneToOne, "graph.identity", ""},
  {"If", "", 7, 0, &kControlFlow, "scf.if,tensor.extract,tensor.cast", "constant condition: the taken branch inline; branch outputs joined to one type (differing dimensions dynamic)"},
  {"InstanceNormalization", "", 1, 0, &kNormalization, "graph.reduce,graph.sub,graph.mul,graph.add,graph.rsqrt,graph.reshape", ""},
  {"IsInf", "", 7, 0, &kIsInf, "graph.compare,graph.or,graph.and", ""},
  {"IsNaN", "", 7, 0, &kIsNaN, "graph.compare", ""},
  {"LRN", "", 7, 0, &kNormalization, "graph.lrn", ""},
  {"LSTM", "", 7, 0, &kRecurrent, "graph.lstm", "no activation_alpha/beta"},
  {"LayerNormalization", "", 7, 0, &kNormalization, "graph.layer_norm", "Y only (no Mean/InvStdDev outputs)"},
  {"LeakyRelu", "", 1, 0, &kAlphaActivation, "graph.leaky_relu", ""},
  {"Less", "", 1, 0, &kCompare, "graph.compare", ""},
  {"LessOrEqual", "", 7, 0, &kCompare, "graph.compare", ""},
  {"LinearAttention", "", 7, 0, &kAttention, "graph.matmul,graph.mul,graph.add,graph.slice,graph.concat,graph.reshape", "recurrence unrolled over the static sequence length"},
  {"Log", "", 1, 0, &kOneToOne, "graph.log", ""},
  {"LogSoftmax", "", 1, 0, &kSoftmax, "graph.log_softmax,graph.reshape", ""},
  {"Loop", "", 7, 0, &kControlFlow, "scf.while,graph.compare,graph.and,graph.add,graph.scatter_nd,tensor.extract", "loop-carried values keep their shape; scan outputs need a compile-time trip count and a condition that stays true"},
  {"LpNormalization", "", 7, 0, &kLpNormalization, "graph.abs,graph.mul,graph.reduce,graph.sqrt,graph.div", ""},
  {"LpPool", "", 7, 0, &kLpPool, "graph.abs,graph.mul,graph.pow,graph.pool,graph.sqrt", ""},
  {"MatMul", "", 1, 0, &kOneToOne, "graph.matmul", ""},
  {"MatMulInteger", "", 7, 0, &kIntegerMatMulConv, "graph.cast,graph.sub,graph.reshape,graph.matmul", ""},
  {"Max", "", 1, 0, &kVariadic, "graph.max", ""},
  {"MaxPool", "", 1, 0, &kConvPool, "graph.pool,graph.pad,graph.slice,graph.compare,graph.select,graph.constant,graph.add", "Indices (storage_order 0 and 1) need a static input shape"},
  {"MaxUnpool", "", 7, 0, &kUnpool, "graph.constant,graph.reshape,graph.scatter_elements", ""},
  {"Mean", "", 1, 0, &kMean, "graph.add,graph.div", ""},
  {"MeanVarianceNormalization", "", 7, 0, &kMeanVarianceNormalization, "graph.reduce,graph.mul,graph.sub,graph.sqrt,graph.add,graph.div", ""},
  {"MelWeightMatrix", "", 7, 0, &kMelWeightMatrix, "graph.constant", ""},
  {"Min", "", 1, 0, &kVariadic, "graph.min", ""},
  {"Mish", "", 7, 0, &kComposedActivation, "graph.softplus,graph.tanh,graph.mul", ""},
  {"Mod", "", 7, 0, &kMod, "graph.mod,graph.rem", "fmod picks graph.rem"},
  {"Mul", "", 1, 0, &kOneToOne, "graph.mul", ""},
  {"Multinomial", "", 7, 0, &kRandom, "graph.constant,graph.softmax,graph.cumulative,graph.reshape,graph.compare,graph.cast,graph.reduce,graph.min", "inverse-CDF on uniforms drawn at import: one sample per compiled job"},
  {"Neg", "", 1, 0, &kOneToOne, "graph.neg", ""},
  {"NegativeLogLikelihoodLoss", "", 7, 0, &kLosses, "graph.gather_elements,graph.gather,graph.compare,graph.select,graph.cast,graph.neg,graph.mul,graph.div,graph.reduce,graph.squeeze,graph.unsqueeze", ""},
  {"NonMaxSuppression", "", 10, 0, &kDynamic, "graph.top_k,graph.compare,graph.constant,graph.slice,graph.mul,graph.sub,graph.add,graph.min,graph.max,graph.gather,graph.reshape,graph.div,graph.and,graph.or,graph.cast,graph.reduce,scf.while,tensor.extract,graph.cumulative,graph.concat,graph.select,graph.scatter_nd", "max_output_boxes_per_class, iou_threshold and score_threshold constant or absent; bounded to B*C*min(max, N) rows, zeros after the valid ones, OUTPUT:valid_count result"},
  {"NonZero", "", 9, 0, &kDynamic, "graph.compare,graph.cumulative,graph.select,graph.scatter_nd,graph.slice,graph.transpose,graph.reduce", "constant input: folded; else bounded to [rank, numel], zeros after the valid columns, OUTPUT:valid_count result"},
  {"Not", "", 1, 0, &kOneToOne, "graph.not", ""},
  {"OneHot", "", 7, 0, &kDepthSpace, "graph.slice,graph.reshape,graph.one_hot", ""},
  {"Or", "", 1, 0, &kOneToOne, "graph.or", ""},
  {"PRelu", "", 1, 0, &kComposedActivation, "graph.compare,graph.mul,graph.select", ""},
  {"Pad", "", 1, 0, &kReshapeLike, "graph.pad,graph.slice", ""},
  {"Pow", "", 1, 0, &kPow, "graph.pow", "integer base computed in f64"},
  {"QLinearConv", "", 7, 0, &kIntegerMatMulConv, "graph.cast,graph.sub,graph.reshape,graph.conv,graph.mul,graph.div,graph.round,graph.add,graph.clamp", ""},
  {"QLinearMatMul", "", 7, 0, &kIntegerMatMulConv, "graph.cast,graph.sub,graph.reshape,graph.matmul,graph.mul,graph.div,graph.round,graph.add,graph.clamp", ""},
  {"QuantizeLinear", "", 7, 0, &kQuantizeLinear, "graph.div,graph.round,graph.add,graph.clamp,graph.cast,graph.reshape,graph.unsqueeze,graph.broadcast_to,graph.slice", ""},
  {"RMSNormalization", "", 7, 0, &kAttention, "graph.mul,graph.reduce,graph.add,graph.rsqrt,graph.cast", ""},
  {"RNN", "", 7, 0, &kRnn, "graph.gather,graph.transpose,graph.matmul,graph.add,graph.slice,graph.reshape,graph.tanh,graph.relu,graph.sigmoid,graph.clamp,graph.unsqueeze,graph.concat", "unrolled over the static sequence; Tanh/Relu/Sigmoid; no activation_alpha/beta; sequence_lens only at full length"},
  {"RandomNormal", "", 7, 0, &kRandom, "graph.constant", "drawn at import (seeded generator): a constant"},
  {"RandomNormalLike", "", 7, 0, &kRandom, "graph.constant", "drawn at import (seeded generator): a constant; static input shape"},
  {"RandomUniform", "", 7, 0, &kRandom, "graph.constant", "drawn at import (seeded generator): a constant"},
  {"RandomUniformLike", "", 7, 0, &kRandom, "graph.constant", "drawn at import (seeded generator): a constant; static input shape"},
  {"Range", "", 7, 0, &kShapeOps, "graph.constant", "folded to a constant"},
  {"Reciprocal", "", 1, 0, &kOneToOne, "graph.reciprocal", ""},
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
  {"Relu", "", 1, 0, &kOneToOne, "graph.relu", ""},
  {"Reshape", "", 1, 0, &kReshape, "graph.reshape", "allowzero becomes graph.dynamic_reshape"},
  {"Resize", "", 7, 0, &kResize, "graph.resize", "constant scales/sizes; every coordinate mode"},
  {"ReverseSequence", "", 7, 0, &kIndexing, "graph.compare,graph.sub,graph.select,graph.broadcast_to,graph.gather_elements", ""},
  {"RoiAlign", "", 10, 0, &kRoiAlign, "graph.constant,graph.transpose,graph.slice,graph.reshape,graph.mul,graph.sub,graph.add,graph.div,graph.max,graph.min,graph.compare,graph.and,graph.floor,graph.select,graph.cast,graph.gather,graph.reduce", "half_pixel and output_half_pixel, avg and max (ONNX Runtime's max of weighted neighbours); sampling_ratio 0 needs constant rois"},
  {"RotaryEmbedding", "", 7, 0, &kAttention, "graph.gather,graph.slice,graph.mul,graph.sub,graph.add,graph.concat,graph.reshape", ""},
  {"Round", "", 7, 0, &kOneToOne, "graph.round", ""},
  {"STFT", "", 7, 0, &kSTFT, "graph.gather,graph.mul,graph.transpose,graph.reshape,graph.matmul", "frames gathered with constant indices"},
  {"Scan", "", 8, 0, &kControlFlow, "scf.while,graph.gather,graph.scatter_nd,graph.transpose,tensor.extract", "static scan length; opset 8: no sequence_lens, batch unrolled"},
  {"Scatter", "", 7, 0, &kShapeOps, "graph.scatter_elements", ""},
  {"ScatterElements", "", 7, 0, &kShapeOps, "graph.scatter_elements", ""},
  {"ScatterND", "", 7, 0, &kShapeOps, "graph.scatter_nd", ""},
  {"Selu", "", 1, 0, &kComposedActivation, "graph.exp,graph.sub,graph.mul,graph.compare,graph.select", ""},
  {"SequenceAt", "", 11, 0, &kSequence, "", "constant position (a tensor of the sequence, no op)"},
  {"SequenceConstruct", "", 11, 0, &kSequence, "", "sequences are lists of tensors known at import; not graph inputs or outputs"},
  {"SequenceEmpty", "", 11, 0, &kSequence, "", ""},
  {"SequenceErase", "", 11, 0, &kSequence, "", "constant position"},
  {"SequenceInsert", "", 11, 0, &kSequence, "", "constant position"},
  {"SequenceLength", "", 11, 0, &kSequence, "graph.constant", ""},
  {"Shape", "", 1, 0, &kShapeOps, "graph.shape,graph.slice", ""},
  {"Shrink", "", 7, 0, &kShrink, "graph.compare,graph.select,graph.add,graph.sub", ""},
  {"Sigmoid", "", 1, 0, &kOneToOne, "graph.sigmoid", ""},
  {"Sign", "", 7, 0, &kOneToOne, "graph.sign", ""},
  {"Sin", "", 7, 0, &kOneToOne, "graph.sin", ""},
  {"Sinh", "", 7, 0, &kMathDirect, "graph.sinh", ""},
  {"Size", "", 1, 0, &kShapeOps, "graph.constant,graph.shape,graph.reduce", ""},
  {"Slice", "", 1, 0, &kSliceSplit, "graph.slice", "static sizes on the sliced and kept axes"},
  {"Softmax", "", 1, 0, &kSoftmax, "graph.softmax,graph.reshape", ""},
  {"SoftmaxCrossEntropyLoss", "", 7, 0, &kLosses, "graph.log_softmax,graph.gather_elements,graph.gather,graph.compare,graph.select,graph.cast,graph.neg,graph.mul,graph.div,graph.reduce,graph.squeeze,graph.unsqueeze", ""},
  {"Softplus", "", 1, 0, &kOneToOne, "graph.softplus", ""},
  {"Softsign", "", 1, 0, &kComposedActivation, "graph.abs,graph.add,graph.div", ""},
  {"SpaceToDepth", "", 1, 0, &kDepthSpace, "graph.reshape,graph.transpose", ""},
  {"Split", "", 1, 0, &kSliceSplit, "graph.split", ""},
  {"SplitToSequence", "", 11, 0, &kSequence, "graph.split,graph.squeeze", "constant split"},
  {"Sqrt", "", 1, 0, &kOneToOne, "graph.sqrt", ""},
  {"Squeeze", "", 1, 0, &kReshapeLike, "graph.squeeze", ""},
  {"Sub", "", 1, 0, &kOneToOne, "graph.sub", ""},
  {"Sum", "", 1, 0, &kVariadic, "graph.add", ""},
  {"Swish", "", 7, 0, &kSwish, "graph.mul,graph.sigmoid", ""},
  {"Tan", "", 7, 0, &kMathDirect, "graph.tan", ""},
  {"Tanh", "", 1, 0, &kOneToOne, "graph.tanh", ""},
  {"ThresholdedRelu", "", 7, 0, &kComposedActivation, "graph.compare,graph.select", ""},
  {"Tile", "", 6, 0, &kReshapeLike, "graph.tile", "Tile-1 (tiles/axis inputs) is refused"},
  {"TopK", "", 7, 0, &kIndexing, "graph.top_k", ""},
  {"Transpose", "", 1, 0, &kTranspose, "graph.transpose", ""},
  {"Trilu", "", 7, 0, &kIndexing, "graph.constant,graph.compare,graph.select", ""},
  {"Unique", "", 11, 0, &kDynamic, "graph.transpose,graph.reshape,graph.slice,graph.gather,graph.top_k,graph.compare,graph.cast,graph.reduce,graph.concat,graph.cumulative,graph.sub,graph.add,graph.select,graph.scatter_nd", "Y, indices and counts bounded to the slices along the axis (numel without one), zeros after the valid ones, OUTPUT:valid_count results"},
  {"Unsqueeze", "", 1, 0, &kReshapeLike, "graph.unsqueeze", ""},
  {"Upsample", "", 1, 0, &kResize, "graph.resize", "Upsample-1 (experimental): nearest only"},
  {"Where", "", 7, 0, &kWhere, "graph.select", ""},
  {"Xor", "", 1, 0, &kOneToOne, "graph.xor", ""},
  {"FlexAttention", "ai.onnx.preview", 7, 0, &kAttention, "graph.matmul,graph.softmax,graph.transpose,graph.mul,graph.add", "score_mod/prob_mod subgraphs imported inline"},
  {"Adagrad", "ai.onnx.preview.training", 1, 0, &kTrainingOptimizer, "graph.add,graph.mul,graph.sub,graph.div,graph.sqrt,graph.cast", "several tensors per node; R and T run-time scalars"},
  {"Adam", "ai.onnx.preview.training", 1, 0, &kTrainingOptimizer, "graph.add,graph.mul,graph.sub,graph.div,graph.sqrt,graph.cast,graph.pow,graph.compare,graph.select", "several tensors per node; R and T run-time scalars"},
  {"Gradient", "ai.onnx.preview.training", 1, 0, &kGradient, "graph.constant", "graph-autodiff's reverse mode over the imported graph (docs/design/training.md); y a static float tensor (non-scalar: gradient of its sum)"},
  {"Momentum", "ai.onnx.preview.training", 1, 0, &kTrainingOptimizer, "graph.add,graph.mul,graph.sub,graph.cast,graph.compare,graph.select", "standard and nesterov modes"},
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
