//===- Math.cpp - ONNX math and normalisation ops -------------------------===//
//
// The trigonometric, hyperbolic and bitwise ops map one to one onto graph
// ops. IsInf, Swish, Hardmax, LpNormalization, MeanVarianceNormalization,
// GroupNormalization, LpPool and Det are compositions of existing graph ops
// (compare, reduce, arg_reduce + one_hot, pool).
//
//===----------------------------------------------------------------------===//

#include "OnnxNodeBuilder.h"

#include "llvm/ADT/StringSwitch.h"

#include <algorithm>
#include <limits>

using namespace mlir;

namespace graphc::import {

namespace {
/// What every composed math op reads: its first input, ranked.
struct MathInput {
  Value x;
  Type element;
  llvm::SmallVector<int64_t> shape;
  int64_t rank;
};
} // namespace

/// Checks the inputs composed math op `op` needs (three for
/// GroupNormalization), a ranked first input and, but for IsInf, float
/// elements; failure after emitting at `at`.
static FailureOr<MathInput> mathInput(StringRef op, ArrayRef<Value> in,
                                      Location at) {
  unsigned needed = op == "GroupNormalization" ? 3 : 1;
  for (unsigned i = 0; i < needed; ++i) {
    if (i >= in.size() || !in[i]) {
      return emitError(at) << op << " needs input " << i;
    }
  }
  Value x = in[0];
  Type element = getElementType(x);
  auto shape = getShape(x);
  if (!shape) {
    return emitError(at) << op << " of an unranked input";
  }
  if (op != "IsInf" && !isa<FloatType>(element)) {
    return emitError(at) << op << " needs a float input, got " << element;
  }
  return MathInput{x, element, *shape, int64_t(shape->size())};
}

/// The trigonometric, hyperbolic and bitwise ops: one graph op each.
std::optional<FailureOr<llvm::SmallVector<Value>>>
OnnxImporter::importMathDirect(const GraphNode &node,
                               const onnx::NodeProto &def, ArrayRef<Value> in,
                               Location at) {
  StringRef op = node.op;
  StringRef direct = llvm::StringSwitch<StringRef>(op)
                         .Case("Tan", "graph.tan")
                         .Case("Asin", "graph.asin")
                         .Case("Acos", "graph.acos")
                         .Case("Atan", "graph.atan")
                         .Case("Sinh", "graph.sinh")
                         .Case("Cosh", "graph.cosh")
                         .Case("Asinh", "graph.asinh")
                         .Case("Acosh", "graph.acosh")
                         .Case("Atanh", "graph.atanh")
                         .Case("BitwiseNot", "graph.bitwise_not")
                         .Case("BitwiseAnd", "graph.bitwise_and")
                         .Case("BitwiseOr", "graph.bitwise_or")
                         .Case("BitwiseXor", "graph.bitwise_xor")
                         .Default("");
  if (direct.empty()) {
    return std::nullopt;
  }
  unsigned needed = op.starts_with("Bitwise") && op != "BitwiseNot" ? 2 : 1;
  if (failed(need(needed))) {
    return nodeFailed(failure());
  }
  NodeBuilder b{*this, at};
  return nodeResults({b.op(direct, in.take_front(needed))});
}

/// IsInf.
std::optional<FailureOr<llvm::SmallVector<Value>>>
OnnxImporter::importIsInf(const GraphNode &node, const onnx::NodeProto &def,
                          ArrayRef<Value> in, Location at) {
  StringRef op = node.op;
  FailureOr<MathInput> checked = mathInput(op, in, at);
  if (failed(checked)) {
    return nodeFailed(failure());
  }
  Value x = checked->x;
  Type element = checked->element;
  NodeBuilder b{*this, at};
  double inf = std::numeric_limits<double>::infinity();
  bool pos = attrInt(def, "detect_positive", 1);
  bool neg = attrInt(def, "detect_negative", 1);
  Value isPos = b.compare(x, b.scalar(element, inf), "eq");
  Value isNeg = b.compare(x, b.scalar(element, -inf), "eq");
  if (pos && neg) {
    return nodeResults({b.op("graph.or", {isPos, isNeg})});
  }
  if (pos || neg) {
    return nodeResults({pos ? isPos : isNeg});
  }
  // Neither: no element qualifies.
  return nodeResults({b.op("graph.and", {isPos, isNeg})});
}

/// Swish.
std::optional<FailureOr<llvm::SmallVector<Value>>>
OnnxImporter::importSwish(const GraphNode &node, const onnx::NodeProto &def,
                          ArrayRef<Value> in, Location at) {
  StringRef op = node.op;
  FailureOr<MathInput> checked = mathInput(op, in, at);
  if (failed(checked)) {
    return nodeFailed(failure());
  }
  Value x = checked->x;
  Type element = checked->element;
  NodeBuilder b{*this, at};
  double alpha = attrFloat(def, "alpha", 1.0f);
  Value scaled =
      alpha == 1.0 ? x : b.op("graph.mul", {x, b.scalar(element, alpha)});
  return nodeResults({b.op("graph.mul", {x, b.op("graph.sigmoid", {scaled})})});
}

/// Hardmax.
std::optional<FailureOr<llvm::SmallVector<Value>>>
OnnxImporter::importHardmax(const GraphNode &node, const onnx::NodeProto &def,
                            ArrayRef<Value> in, Location at) {
  StringRef op = node.op;
  FailureOr<MathInput> checked = mathInput(op, in, at);
  if (failed(checked)) {
    return nodeFailed(failure());
  }
  Value x = checked->x;
  Type element = checked->element;
  llvm::SmallVector<int64_t> shape = checked->shape;
  int64_t rank = checked->rank;
  NodeBuilder b{*this, at};
  // One-hot of the first maximum along `axis`. Before opset 13 the input
  // is coerced to 2-D at `axis` (as Softmax).
  int64_t axis = attrInt(def, "axis", opset >= 13 ? -1 : 1);
  if (axis < 0) {
    axis += rank;
  }
  if (axis < 0 || axis >= rank) {
    return nodeFailed(emitError(at)
                      << op << " axis " << attrInt(def, "axis", -1)
                      << " out of range for rank " << rank);
  }
  Value input = x;
  llvm::SmallVector<int64_t> flat;
  if (opset < 13 && axis != rank - 1) {
    if (ShapedType::isDynamicShape(shape)) {
      return nodeFailed(emitError(at) << op << " (opset " << opset
                                      << ") needs a static input shape");
    }
    int64_t outer = 1, inner = 1;
    for (int64_t i = 0; i < rank; ++i) {
      (i < axis ? outer : inner) *= shape[i];
    }
    flat = {outer, inner};
    input = b.op("graph.reshape", {x}, {b.i64s("shape", flat)});
    axis = 1;
  }
  auto inShape = input ? getShape(input) : std::nullopt;
  if (!inShape || ShapedType::isDynamic((*inShape)[axis])) {
    return nodeFailed(emitError(at)
                      << op << " needs a static size along its axis");
  }
  Attribute max = b.enumAttr("reduce_kind", "max");
  if (!max) {
    return nodeFailed(failure());
  }
  Value arg =
      b.op("graph.arg_reduce", {input},
           {b.named("kind", max), b.i64("axis", axis)}, builder.getI64Type());
  Value r =
      b.op("graph.one_hot", {arg, b.scalar(element, 1), b.scalar(element, 0)},
           {b.i64("depth", (*inShape)[axis]), b.i64("axis", axis)}, element);
  if (!flat.empty()) {
    r = b.op("graph.reshape", {r}, {b.i64s("shape", shape)});
  }
  return nodeResults({r});
}

/// LpNormalization.
std::optional<FailureOr<llvm::SmallVector<Value>>>
OnnxImporter::importLpNormalization(const GraphNode &node,
                                    const onnx::NodeProto &def,
                                    ArrayRef<Value> in, Location at) {
  StringRef op = node.op;
  FailureOr<MathInput> checked = mathInput(op, in, at);
  if (failed(checked)) {
    return nodeFailed(failure());
  }
  Value x = checked->x;
  Type element = checked->element;
  NodeBuilder b{*this, at};
  int64_t p = attrInt(def, "p", 2);
  int64_t axis = attrInt(def, "axis", -1);
  Value norm;
  if (p == 1) {
    norm = b.reduce(b.op("graph.abs", {x}), "sum", {axis}, true);
  } else if (p == 2) {
    norm = b.op("graph.sqrt",
                {b.reduce(b.op("graph.mul", {x, x}), "sum", {axis}, true)});
  } else {
    return nodeFailed(emitError(at) << op << " p " << p << " is not 1 or 2");
  }
  // A zero norm divides by 1 (its slice is all zeros), as ONNX's
  // reference does, instead of making NaNs.
  Value zero = b.scalar(element, 0);
  Value safe = b.op("graph.select",
                    {b.compare(norm, zero, "eq"), b.scalar(element, 1), norm},
                    {}, element);
  return nodeResults({b.op("graph.div", {x, safe})});
}

/// MeanVarianceNormalization.
std::optional<FailureOr<llvm::SmallVector<Value>>>
OnnxImporter::importMeanVarianceNormalization(const GraphNode &node,
                                              const onnx::NodeProto &def,
                                              ArrayRef<Value> in, Location at) {
  StringRef op = node.op;
  FailureOr<MathInput> checked = mathInput(op, in, at);
  if (failed(checked)) {
    return nodeFailed(failure());
  }
  Value x = checked->x;
  Type element = checked->element;
  NodeBuilder b{*this, at};
  // (x - E[x]) / (sqrt(E[x^2] - E[x]^2) + 1e-9), as ONNX's function body.
  llvm::SmallVector<int64_t> axes =
      attrInts(def, "axes").value_or(llvm::SmallVector<int64_t>{0, 2, 3});
  Value mean = b.reduce(x, "mean", axes, true);
  Value meanSq = b.reduce(b.op("graph.mul", {x, x}), "mean", axes, true);
  Value var = b.op("graph.sub", {meanSq, b.op("graph.mul", {mean, mean})});
  Value std =
      b.op("graph.add", {b.op("graph.sqrt", {var}), b.scalar(element, 1e-9)});
  return nodeResults({b.op("graph.div", {b.op("graph.sub", {x, mean}), std})});
}

/// GroupNormalization.
std::optional<FailureOr<llvm::SmallVector<Value>>>
OnnxImporter::importGroupNormalization(const GraphNode &node,
                                       const onnx::NodeProto &def,
                                       ArrayRef<Value> in, Location at) {
  StringRef op = node.op;
  FailureOr<MathInput> checked = mathInput(op, in, at);
  if (failed(checked)) {
    return nodeFailed(failure());
  }
  Value x = checked->x;
  Type element = checked->element;
  llvm::SmallVector<int64_t> shape = checked->shape;
  int64_t rank = checked->rank;
  NodeBuilder b{*this, at};
  // Normalise [N, G, C/G * spatial] over its last axis, then scale and
  // shift per channel (opset 21) or per group (opset 18: scale of G).
  int64_t groups = attrInt(def, "num_groups", 0);
  double eps = attrFloat(def, "epsilon", 1e-5f);
  if (rank < 2 || ShapedType::isDynamicShape(shape)) {
    return nodeFailed(emitError(at)
                      << op << " needs a static input of rank >= 2");
  }
  int64_t n = shape[0], c = shape[1];
  if (groups <= 0 || c % groups != 0) {
    return nodeFailed(emitError(at) << op << " num_groups " << groups
                                    << " does not divide " << c << " channels");
  }
  auto scaleShape = getShape(in[1]);
  if (!scaleShape || scaleShape->size() != 1 ||
      ((*scaleShape)[0] != c && (*scaleShape)[0] != groups)) {
    return nodeFailed(emitError(at) << op << " scale must have " << c << " or "
                                    << groups << " elements");
  }
  bool perGroup = (*scaleShape)[0] == groups && groups != c;
  Value g = b.op("graph.reshape", {x}, {b.i64s("shape", {n, groups, -1})});
  Value mean = b.reduce(g, "mean", {2}, true);
  Value centered = b.op("graph.sub", {g, mean});
  Value var =
      b.reduce(b.op("graph.mul", {centered, centered}), "mean", {2}, true);
  Value y = b.op(
      "graph.mul",
      {centered, b.op("graph.rsqrt",
                      {b.op("graph.add", {var, b.scalar(element, eps)})})});
  // [G, 1] against the grouped [N, G, rest]; [C, 1, ..] against x.
  llvm::SmallVector<int64_t> paramShape = {groups, 1};
  if (!perGroup) {
    paramShape.assign(rank - 1, 1);
    paramShape[0] = c;
  }
  Value scale = b.op("graph.reshape", {in[1]}, {b.i64s("shape", paramShape)});
  Value bias = b.op("graph.reshape", {in[2]}, {b.i64s("shape", paramShape)});
  if (perGroup) {
    y = b.op("graph.add", {b.op("graph.mul", {y, scale}), bias});
  }
  y = b.op("graph.reshape", {y}, {b.i64s("shape", shape)});
  if (!perGroup) {
    y = b.op("graph.add", {b.op("graph.mul", {y, scale}), bias});
  }
  return nodeResults({y});
}

/// Det.
std::optional<FailureOr<llvm::SmallVector<Value>>>
OnnxImporter::importDet(const GraphNode &node, const onnx::NodeProto &def,
                        ArrayRef<Value> in, Location at) {
  StringRef op = node.op;
  FailureOr<MathInput> checked = mathInput(op, in, at);
  if (failed(checked)) {
    return nodeFailed(failure());
  }
  Value x = checked->x;
  Type element = checked->element;
  llvm::SmallVector<int64_t> shape = checked->shape;
  int64_t rank = checked->rank;
  NodeBuilder b{*this, at};
  // Leibniz's formula over the n! permutations, for the small matrices
  // it is cheap on: gather the n entries each permutation picks from the
  // flattened matrix, multiply them, sign them and sum.
  constexpr int64_t kMaxOrder = 5;
  int64_t n = rank >= 2 ? shape[rank - 1] : 0;
  if (rank < 2 || ShapedType::isDynamic(n) || shape[rank - 2] != n) {
    return nodeFailed(emitError(at) << op << " needs square matrices of "
                                    << "static size");
  }
  if (n > kMaxOrder) {
    return nodeFailed(emitError(at) << op << " of " << n << "x" << n
                                    << " matrices is not supported (at most "
                                    << kMaxOrder << "x" << kMaxOrder << ")");
  }
  llvm::SmallVector<int64_t> perm, picks, signs;
  for (int64_t i = 0; i < n; ++i) {
    perm.push_back(i);
  }
  do {
    int64_t inversions = 0;
    for (int64_t i = 0; i < n; ++i) {
      picks.push_back(i * n + perm[i]);
      for (int64_t j = i + 1; j < n; ++j) {
        inversions += perm[j] < perm[i];
      }
    }
    signs.push_back(inversions % 2 ? -1 : 1);
  } while (std::next_permutation(perm.begin(), perm.end()));
  int64_t count = signs.size();
  llvm::SmallVector<int64_t> flatShape(shape.begin(), shape.end() - 2);
  flatShape.push_back(n * n);
  Value flat = b.op("graph.reshape", {x}, {b.i64s("shape", flatShape)});
  Value idx =
      constant(at, DenseElementsAttr::get(
                       RankedTensorType::get({count, n}, builder.getI64Type()),
                       ArrayRef<int64_t>(picks)));
  Value terms =
      b.reduce(b.op("graph.gather", {flat, idx}, {b.i64("axis", rank - 2)}),
               "prod", {rank - 1}); // [..., count]
  llvm::SmallVector<Attribute> signAttrs;
  for (int64_t v : signs) {
    signAttrs.push_back(builder.getFloatAttr(element, double(v)));
  }
  Value signedTerms = b.op(
      "graph.mul",
      {terms,
       constant(at, DenseElementsAttr::get(
                        RankedTensorType::get({count}, element), signAttrs))});
  return nodeResults({b.reduce(signedTerms, "sum", {rank - 2})});
}

std::optional<FailureOr<llvm::SmallVector<Value>>>
OnnxImporter::importLpPool(const GraphNode &node, const onnx::NodeProto &def,
                           ArrayRef<Value> in, Location at) {
  StringRef op = node.op;
  FailureOr<MathInput> checked = mathInput(op, in, at);
  if (failed(checked)) {
    return nodeFailed(failure());
  }
  Value x = checked->x;
  Type element = checked->element;
  NodeBuilder b{*this, at};
  int64_t p = attrInt(def, "p", 2);
  if (p < 1) {
    return nodeFailed(emitError(at) << op << " p " << p << " is not >= 1");
  }
  auto window = attrInts(def, "kernel_shape");
  if (!window) {
    return nodeFailed(emitError(at) << op << " has no kernel_shape");
  }
  if (attrInt(def, "ceil_mode", 0)) {
    return nodeFailed(emitError(at) << op << " ceil_mode is not supported");
  }
  Value powered =
      p == 1 ? b.op("graph.abs", {x})
      : p == 2
          ? b.op("graph.mul", {x, x})
          : b.op("graph.pow", {b.op("graph.abs", {x}), b.scalar(element, p)});
  if (!powered) {
    return nodeFailed(failure());
  }
  // Reuse AveragePool's translation (pads, auto_pad, strides, dilations)
  // on a copy of the node that reads the powered input.
  onnx::NodeProto avg;
  avg.set_op_type("AveragePool");
  std::string inName = node.name + "/lppool.input";
  std::string outName = node.name + "/lppool.sum";
  avg.add_input(inName);
  avg.add_output(outName);
  for (const onnx::AttributeProto &a : def.attribute()) {
    if (a.name() != "p") {
      *avg.add_attribute() = a;
    }
  }
  onnx::AttributeProto *include = avg.add_attribute();
  include->set_name("count_include_pad");
  include->set_type(onnx::AttributeProto::INT);
  include->set_i(1);
  GraphNode avgNode;
  avgNode.name = node.name;
  avgNode.op = "AveragePool";
  avgNode.source = &avg;
  NodeInput input;
  input.producer = NodeInput::kGraphInput;
  input.name = inName;
  avgNode.inputs.push_back(input);
  values[inName] = powered;
  if (failed(importNode(avgNode))) {
    return nodeFailed(failure());
  }
  Value pooled = values.lookup(outName);
  values.erase(inName);
  values.erase(outName);
  int64_t count = 1;
  for (int64_t k : *window) {
    count *= k;
  }
  Value sum = b.op("graph.mul", {pooled, b.scalar(element, double(count))});
  Value r = p == 1   ? sum
            : p == 2 ? b.op("graph.sqrt", {sum})
                     : b.op("graph.pow", {sum, b.scalar(element, 1.0 / p)});
  return nodeResults({r});
}

} // namespace graphc::import
