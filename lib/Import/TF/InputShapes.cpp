//===- InputShapes.cpp - --batch: static shapes for TF Placeholders -------===//
//
// `graphc --batch N` asks for an import with static input shapes. A
// Placeholder takes, in order: its --input-shape (as given), its `shape`
// attribute, or, when the graph gives it no rank (TF1 graphs written with
// `tf.placeholder(tf.float32)`), the shape its uses imply. Then an unknown
// leading dimension becomes N. What is still unknown is one error listing
// every such input with the --input-shape to add.
//
// The uses looked at are the ones whose operand shape is fixed by the other
// operands or by attributes: ExpandDims, convolutions and pools (rank 4, the
// channels from the filter), MatMul (the contracted dimension from the other
// side), Reshape to [Shape(x)[0], c1, c2, ...] or [-1, c1, ...] (a batch of
// c1*c2*... values), SoftmaxCrossEntropyWithLogits (labels are shaped as the
// logits), ScalarSummary (shaped as its tags). An input used only by
// element-wise ops is a vector of the batch when the values it meets are
// vectors (y - w * x with w of shape [1]), else a scalar (a dropout's
// keep_prob). Each choice is a remark naming the use, so the user can see it
// and override it.
//
//===----------------------------------------------------------------------===//

#include "GraphDefImporterImpl.h"

namespace graphc::import {

namespace {

using Shape = std::optional<llvm::SmallVector<int64_t>>;

bool isUnaryElementwise(StringRef op) {
  return llvm::is_contained(
      {"Identity",  "Relu",     "Relu6",        "Elu",       "Selu",
       "Sigmoid",   "Tanh",     "Softplus",     "Softsign",  "Floor",
       "Ceil",      "Round",    "Neg",          "Abs",       "Exp",
       "Log",       "Sqrt",     "Rsqrt",        "Square",    "Reciprocal",
       "Sign",      "Cast",     "StopGradient", "Softmax",   "LogSoftmax",
       "ZerosLike", "OnesLike", "Snapshot",     "LeakyRelu", "Erf",
       "BiasAdd"},
      op);
}

bool isBinaryElementwise(StringRef op) {
  return llvm::is_contained(
      {"Add", "AddV2", "Sub", "Mul", "RealDiv", "Div", "DivNoNan", "Maximum",
       "Minimum", "SquaredDifference", "Pow", "FloorDiv", "FloorMod", "Equal",
       "NotEqual", "Less", "LessEqual", "Greater", "GreaterEqual"},
      op);
}

/// Uses that say nothing about the operand's shape and take any.
bool isShapeAgnostic(StringRef op) {
  return llvm::is_contained({"Shape", "Size", "Rank", "HistogramSummary"}, op);
}

/// NumPy broadcasting of two shapes; none when they cannot broadcast.
Shape broadcast(llvm::ArrayRef<int64_t> a, llvm::ArrayRef<int64_t> b) {
  llvm::SmallVector<int64_t> out(std::max(a.size(), b.size()), 1);
  for (size_t i = 0; i < out.size(); ++i) {
    int64_t x = i < a.size() ? a[a.size() - 1 - i] : 1;
    int64_t y = i < b.size() ? b[b.size() - 1 - i] : 1;
    int64_t &d = out[out.size() - 1 - i];
    if (x == y || y == 1) {
      d = x;
    } else if (x == 1) {
      d = y;
    } else if (ShapedType::isDynamic(x) || ShapedType::isDynamic(y)) {
      d = ShapedType::isDynamic(x) ? y : x;
    } else {
      return std::nullopt;
    }
  }
  return out;
}

} // namespace

/// The static shapes of output 0 of nodes, forwards from constants,
/// variables and resolved Placeholders, and backwards from a node's uses.
class InputShapeResolver {
public:
  explicit InputShapeResolver(GraphDefImporter &importer)
      : im(importer), nodes(importer.graph.nodes), users(nodes.size()) {
    for (auto [i, node] : llvm::enumerate(nodes)) {
      for (auto [operand, in] : llvm::enumerate(node.inputs)) {
        if (in.producer >= 0 && in.index == 0) {
          users[in.producer].push_back({unsigned(i), unsigned(operand)});
        }
      }
    }
  }

  /// Placeholder `index`'s shape for --batch (its leading dimension filled),
  /// none when not even the rank is known. `use` is set to the node whose
  /// use gave the shape, when the graph itself gave none.
  Shape placeholder(unsigned index, std::optional<unsigned> *use = nullptr) {
    if (auto it = resolved.find(index); it != resolved.end()) {
      if (use) {
        *use = usedBy.lookup(index);
      }
      return it->second;
    }
    if (!busy.insert(index).second) {
      return std::nullopt; // its own uses lead back to it
    }
    const tensorflow::NodeDef &nd = im.def(nodes[index]);
    Shape shape;
    FailureOr<std::optional<InputShapeSpec>> given = findInputShape(
        im.options.inputShapes, nodes[index].name, im.loc(nodes[index].name));
    if (succeeded(given) && *given) {
      shape = (*given)->shape; // as written: --input-shape wins
    } else if ((shape = im.placeholderShape(nd))) {
      fillLeadingBatch(*shape, im.options.batch);
    } else {
      std::optional<unsigned> from;
      shape = fromUses(index, from);
      if (shape) {
        fillLeadingBatch(*shape, im.options.batch);
        usedBy[index] = from;
      }
    }
    busy.erase(index);
    resolved[index] = shape;
    if (use) {
      *use = usedBy.lookup(index);
    }
    return shape;
  }

private:
  /// The static shape of node `index`'s output 0, from its operands.
  Shape forward(int index) {
    if (index < 0) {
      return std::nullopt;
    }
    if (auto it = forwardMemo.find(index); it != forwardMemo.end()) {
      return it->second;
    }
    if (!forwardBusy.insert(index).second) {
      return std::nullopt;
    }
    Shape shape = computeForward(index);
    forwardBusy.erase(index);
    forwardMemo[index] = shape;
    return shape;
  }

  Shape operandShape(unsigned node, unsigned operand) {
    const GraphNode &n = nodes[node];
    if (operand >= n.inputs.size() || n.inputs[operand].index != 0) {
      return std::nullopt;
    }
    return forward(n.inputs[operand].producer);
  }

  Shape computeForward(unsigned index) {
    const GraphNode &n = nodes[index];
    const tensorflow::NodeDef &nd = im.def(n);
    StringRef op = n.op;
    if (op == "Const") {
      if (const tensorflow::AttrValue *value = im.attr(nd, "value")) {
        llvm::SmallVector<int64_t> dims;
        for (const auto &dim : value->tensor().tensor_shape().dim()) {
          dims.push_back(dim.size());
        }
        return dims;
      }
      return std::nullopt;
    }
    if (op == "VariableV2" || op == "Variable" || op == "VarHandleOp") {
      const tensorflow::AttrValue *shape = im.attr(nd, "shape");
      if (!shape || shape->shape().unknown_rank()) {
        return std::nullopt;
      }
      llvm::SmallVector<int64_t> dims;
      for (const auto &dim : shape->shape().dim()) {
        dims.push_back(dim.size() < 0 ? ShapedType::kDynamic : dim.size());
      }
      return dims;
    }
    if (op == "Placeholder" || op == "PlaceholderWithDefault") {
      return placeholder(index);
    }
    if (op == "ReadVariableOp" || isUnaryElementwise(op)) {
      return operandShape(index, 0);
    }
    if (isBinaryElementwise(op)) {
      Shape a = operandShape(index, 0), b = operandShape(index, 1);
      return a && b ? broadcast(*a, *b) : std::nullopt;
    }
    if (op == "MatMul") {
      Shape a = operandShape(index, 0), b = operandShape(index, 1);
      if (!a || !b || a->size() != 2 || b->size() != 2) {
        return std::nullopt;
      }
      bool ta = im.attr(nd, "transpose_a") && im.attr(nd, "transpose_a")->b();
      bool tb = im.attr(nd, "transpose_b") && im.attr(nd, "transpose_b")->b();
      return llvm::SmallVector<int64_t>{(*a)[ta ? 1 : 0], (*b)[tb ? 0 : 1]};
    }
    if (op == "RandomUniform" || op == "RandomStandardNormal" ||
        op == "TruncatedNormal") {
      // The shape operand: a constant, or the shape of another value.
      int shapeOf = n.inputs.empty() ? -1 : n.inputs[0].producer;
      if (shapeOf >= 0 && nodes[shapeOf].op == "Shape") {
        return operandShape(shapeOf, 0);
      }
      if (auto dims = constInts(shapeOf)) {
        return dims;
      }
    }
    return std::nullopt;
  }

  /// The integers of a Const node (through Identity).
  std::optional<llvm::SmallVector<int64_t>> constInts(int index) {
    while (index >= 0 && nodes[index].op == "Identity" &&
           !nodes[index].inputs.empty()) {
      index = nodes[index].inputs[0].producer;
    }
    if (index < 0 || nodes[index].op != "Const") {
      return std::nullopt;
    }
    const tensorflow::AttrValue *value = im.attr(im.def(nodes[index]), "value");
    if (!value) {
      return std::nullopt;
    }
    FailureOr<DenseElementsAttr> dense =
        im.convertTensor(value->tensor(), im.loc(nodes[index].name));
    if (failed(dense) || !isa<IntegerType>(dense->getElementType())) {
      return std::nullopt;
    }
    llvm::SmallVector<int64_t> out;
    for (const llvm::APInt &v : dense->getValues<llvm::APInt>()) {
      out.push_back(v.getSExtValue());
    }
    return out;
  }

  /// Whether `index` computes from the shape of `of` (Shape(of), sliced).
  bool readsShapeOf(int index, unsigned of) {
    for (int depth = 0; index >= 0 && depth < 8; ++depth) {
      const GraphNode &n = nodes[index];
      if (n.op == "Shape") {
        return !n.inputs.empty() && n.inputs[0].producer == int(of);
      }
      if (!llvm::is_contained(
              {"StridedSlice", "Slice", "Identity", "Gather", "GatherV2"},
              StringRef(n.op)) ||
          n.inputs.empty()) {
        return false;
      }
      index = n.inputs[0].producer;
    }
    return false;
  }

  /// The shape of `index`'s output 0 implied by its uses; `from` is the use.
  Shape fromUses(unsigned index, std::optional<unsigned> &from) {
    for (auto [user, operand] : users[index]) {
      if (Shape shape = fromUse(index, user, operand)) {
        from = user;
        return shape;
      }
    }
    return fromElementwiseUses(index, from);
  }

  /// What use `user` (operand `operand` is `index`) fixes of its shape.
  Shape fromUse(unsigned index, unsigned user, unsigned operand) {
    const GraphNode &u = nodes[user];
    const tensorflow::NodeDef &nd = im.def(u);
    StringRef op = u.op;
    auto flag = [&](StringRef name) {
      const tensorflow::AttrValue *a = im.attr(nd, name);
      return a && a->b();
    };
    if (op == "ExpandDims" && operand == 0) {
      auto axis = constInts(u.inputs.size() > 1 ? u.inputs[1].producer : -1);
      std::optional<unsigned> unused;
      Shape out = fromUsesOnce(user, unused);
      if (!axis || axis->size() != 1 || !out || out->empty()) {
        return std::nullopt;
      }
      int64_t d =
          (*axis)[0] < 0 ? (*axis)[0] + int64_t(out->size()) : (*axis)[0];
      if (d < 0 || d >= int64_t(out->size())) {
        return std::nullopt;
      }
      out->erase(out->begin() + d);
      return out;
    }
    if ((op == "Conv2D" || op == "DepthwiseConv2dNative") && operand == 0) {
      Shape filter = operandShape(user, 1);
      if (!filter || filter->size() != 4) {
        return std::nullopt;
      }
      const tensorflow::AttrValue *format = im.attr(nd, "data_format");
      int64_t d = ShapedType::kDynamic, c = (*filter)[2];
      if (format && format->s() == "NCHW") {
        return llvm::SmallVector<int64_t>{d, c, d, d};
      }
      return llvm::SmallVector<int64_t>{d, d, d, c};
    }
    if (op == "MatMul") {
      Shape other = operandShape(user, 1 - operand);
      if (operand > 1 || !other || other->size() != 2) {
        return std::nullopt;
      }
      bool ta = flag("transpose_a"), tb = flag("transpose_b");
      int64_t d = ShapedType::kDynamic;
      if (operand == 0) {
        int64_t k = (*other)[tb ? 1 : 0];
        return ta ? llvm::SmallVector<int64_t>{k, d}
                  : llvm::SmallVector<int64_t>{d, k};
      }
      int64_t k = (*other)[ta ? 0 : 1];
      return tb ? llvm::SmallVector<int64_t>{d, k}
                : llvm::SmallVector<int64_t>{k, d};
    }
    if (op == "Reshape" && operand == 0) {
      return fromReshape(index, user);
    }
    if (op == "SoftmaxCrossEntropyWithLogits" && operand < 2) {
      return operandShape(user, 1 - operand);
    }
    if (op == "ScalarSummary" && operand == 1) {
      return operandShape(user, 0);
    }
    return std::nullopt;
  }

  /// fromUses for an intermediate node, memoized.
  Shape fromUsesOnce(unsigned index, std::optional<unsigned> &from) {
    if (auto it = backwardMemo.find(index); it != backwardMemo.end()) {
      return it->second;
    }
    if (!busy.insert(index).second) {
      return std::nullopt;
    }
    Shape shape = fromUses(index, from);
    busy.erase(index);
    backwardMemo[index] = shape;
    return shape;
  }

  /// Reshape(x, target): a target [Shape(x)[0], c1, c2...] or [-1, c1,
  /// c2...] keeps the batch and makes c1*c2*... values of each example, so
  /// x is taken as [batch, c1*c2*...]. A target computed from x's shape
  /// alone (the flattening inside softmax_cross_entropy_with_logits) says
  /// nothing, but the op it feeds may.
  Shape fromReshape(unsigned index, unsigned reshape) {
    const GraphNode &r = nodes[reshape];
    int target = r.inputs.size() > 1 ? r.inputs[1].producer : -1;
    int64_t d = ShapedType::kDynamic;
    if (auto values = constInts(target)) {
      if (values->size() >= 2 && (*values)[0] == -1 &&
          llvm::all_of(llvm::drop_begin(*values),
                       [](int64_t v) { return v > 0; })) {
        int64_t product = 1;
        for (int64_t v : llvm::drop_begin(*values)) {
          product *= v;
        }
        return llvm::SmallVector<int64_t>{d, product};
      }
    } else if (target >= 0 && nodes[target].op == "Pack" &&
               nodes[target].inputs.size() >= 2 &&
               readsShapeOf(nodes[target].inputs[0].producer, index)) {
      int64_t product = 1;
      for (const NodeInput &in : llvm::drop_begin(nodes[target].inputs)) {
        auto v = constInts(in.producer);
        if (!v || v->size() != 1 || (*v)[0] <= 0) {
          return std::nullopt;
        }
        product *= (*v)[0];
      }
      return llvm::SmallVector<int64_t>{d, product};
    }
    // softmax_cross_entropy_with_logits(labels=x, logits=y) reshapes both
    // the same way: x is shaped as y before its reshape.
    for (auto [user, operand] : users[reshape]) {
      if (nodes[user].op != "SoftmaxCrossEntropyWithLogits" || operand > 1) {
        continue;
      }
      const NodeInput &other = nodes[user].inputs[1 - operand];
      if (other.producer >= 0 && nodes[other.producer].op == "Reshape") {
        return operandShape(other.producer, 0);
      }
      return forward(other.producer);
    }
    return std::nullopt;
  }

  /// An input only added to, multiplied by... other values: a vector of the
  /// batch when every value it meets whose shape is known is a scalar or a
  /// vector, else a scalar (broadcasts against anything).
  Shape fromElementwiseUses(unsigned index, std::optional<unsigned> &from) {
    std::optional<unsigned> first, vectorUse;
    bool wider = false;
    for (auto [user, operand] : users[index]) {
      StringRef op = nodes[user].op;
      if (isShapeAgnostic(op) || isUnaryElementwise(op) ||
          op == "ScalarSummary") {
        continue;
      }
      if (!isBinaryElementwise(op) || operand > 1) {
        return std::nullopt;
      }
      first = first.value_or(user);
      if (Shape other = operandShape(user, 1 - operand)) {
        if (other->size() > 1) {
          wider = true;
        } else {
          vectorUse = vectorUse.value_or(user);
        }
      }
    }
    if (!first) {
      return std::nullopt;
    }
    if (vectorUse && !wider) {
      from = vectorUse;
      return llvm::SmallVector<int64_t>{ShapedType::kDynamic};
    }
    from = first;
    return llvm::SmallVector<int64_t>{};
  }

  GraphDefImporter &im;
  const std::vector<GraphNode> &nodes;
  /// Node -> (user, operand) of each use of its output 0.
  std::vector<llvm::SmallVector<std::pair<unsigned, unsigned>, 2>> users;
  llvm::DenseMap<unsigned, Shape> resolved, forwardMemo, backwardMemo;
  llvm::DenseMap<unsigned, std::optional<unsigned>> usedBy;
  /// Nodes being resolved, to stop at cycles.
  llvm::DenseSet<unsigned> busy, forwardBusy;
};

LogicalResult
GraphDefImporter::resolveInputShapes(const std::vector<bool> &keep) {
  if (options.batch <= 0) {
    return success();
  }
  InputShapeResolver resolver(*this);
  llvm::SmallVector<UnresolvedInput> unresolved;
  for (auto [index, node] : llvm::enumerate(graph.nodes)) {
    if (!keep[index] || cutInputs.count(node.name) ||
        (node.op != "Placeholder" && node.op != "PlaceholderWithDefault")) {
      continue;
    }
    FailureOr<std::optional<InputShapeSpec>> given =
        findInputShape(options.inputShapes, node.name, loc(node.name));
    if (failed(given) || *given) {
      continue; // as written (placeholderType reports a bad one)
    }
    const tensorflow::AttrValue *dtype = attr(def(node), "dtype");
    Type element = dtype ? convertTFType(ctx, dtype->type()) : Type();
    if (!element) {
      continue; // strings: an error if something needs them
    }
    std::optional<unsigned> use;
    Shape shape = resolver.placeholder(index, &use);
    if (!shape || !ShapedType::isStaticShape(*shape)) {
      unresolved.push_back({node.name, shape});
      continue;
    }
    auto type = RankedTensorType::get(*shape, element);
    batchedInputs[node.name] = type;
    if (use) {
      const GraphNode &user = graph.nodes[*use];
      emitRemark(loc(node.name))
          << "input '" << node.name << "' has no shape in the graph; --batch "
          << options.batch << " takes it as " << Type(type)
          << " from its use by '" << user.name << "' (" << user.op
          << "); --input-shape " << node.name << ":DIMS overrides it";
    }
  }
  if (unresolved.empty()) {
    return success();
  }
  return reportUnresolvedInputs(NameLoc::get(StringAttr::get(ctx, fileName)),
                                options.batch, unresolved);
}

} // namespace graphc::import
