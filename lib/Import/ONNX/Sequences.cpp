//===- Sequences.cpp - ONNX sequences inside a graph ----------------------===//
//
// SequenceEmpty, SequenceConstruct, SequenceInsert, SequenceErase,
// SequenceAt, SequenceLength, SplitToSequence and ConcatFromSequence.
// graphc compiles static shapes, so a sequence that lives inside a graph is
// a list of tensor values known while importing: each sequence op edits
// the list (OnnxImporter::sequences) or reads a tensor out of it, and no
// graph op stands for the sequence itself. Positions must be constants
// (after folding or --freeze-input). Sequence-typed graph inputs and
// outputs stay unsupported (docs/design/importers.md, "Sequences").
//
//===----------------------------------------------------------------------===//

#include "OnnxNodeBuilder.h"

#include "llvm/ADT/StringSwitch.h"

namespace graphc::import {

bool OnnxImporter::readsSequence(const GraphNode &node, unsigned input) {
  if (!node.domain.empty()) {
    return false;
  }
  return input == 0 &&
         llvm::StringSwitch<bool>(node.op)
             .Cases({"SequenceInsert", "SequenceErase", "SequenceAt",
                     "SequenceLength", "ConcatFromSequence"},
                    true)
             .Default(false);
}

namespace {

/// Reads a node's sequence operand and its constant positions.
struct SequenceNode {
  OnnxImporter &imp;
  StringRef op;
  const onnx::NodeProto &def;
  llvm::ArrayRef<Value> in;
  Location at;

  /// The sequence input 0 names, or null having emitted.
  const OnnxImporter::Sequence *sequence() {
    StringRef name = def.input_size() ? StringRef(def.input(0)) : "";
    auto it = imp.sequences.find(name);
    if (it != imp.sequences.end()) {
      return &it->second;
    }
    if (name.empty()) {
      mlir::emitError(at) << op << " needs input 0 (a sequence)";
    } else {
      mlir::emitError(at) << op << " input 0 ('" << name
                          << "') is not a sequence";
    }
    return nullptr;
  }

  /// Position input `index` (nullopt when absent) normalised against a
  /// sequence of `length`, where `last` is the largest valid position
  /// (length - 1, or length for an insertion); failure having emitted when
  /// it is not a constant scalar or is out of range.
  FailureOr<std::optional<int64_t>> position(unsigned index, int64_t length,
                                             int64_t last) {
    Value v = index < in.size() ? in[index] : Value();
    if (!v) {
      return std::optional<int64_t>();
    }
    StringRef name = def.input(index);
    std::optional<llvm::SmallVector<int64_t>> ints = imp.constInts(v);
    if (!ints) {
      return mlir::emitError(at)
             << op << " position (input " << index << ", '" << name
             << "') must be a constant (it is computed at run time): graphc "
                "resolves sequences while importing; if it is a graph input, "
                "give its value with --freeze-input="
             << name << "=FILE.pb (a TensorProto)";
    }
    if (ints->size() != 1) {
      return mlir::emitError(at)
             << op << " position (input " << index << ", '" << name << "') has "
             << ints->size() << " elements; it must be a scalar";
    }
    int64_t p = (*ints)[0];
    int64_t first = -length;
    if (p < first || p > last) {
      return mlir::emitError(at)
             << op << " position " << p << " is out of range [" << first << ", "
             << last << "] for a sequence of " << length << " tensors";
    }
    return std::optional<int64_t>(p < 0 ? p + length : p);
  }

  /// SplitToSequence's pieces: graph.split by the constant `split` (a
  /// scalar: chunks, the last one smaller; absent: size-1 pieces, squeezed
  /// without keepdims).
  FailureOr<OnnxImporter::Sequence> splitToSequence(NodeBuilder &b) {
    if (failed(imp.need(1))) {
      return mlir::failure();
    }
    auto shape = getShape(in[0]);
    if (!shape) {
      return mlir::emitError(at) << "SplitToSequence of an unranked input";
    }
    int64_t rank = shape->size(), axis = imp.attrInt(def, "axis", 0);
    if (axis < -rank || axis >= rank) {
      return mlir::emitError(at) << "SplitToSequence axis " << axis
                                 << " is out of range for rank " << rank;
    }
    axis = axis < 0 ? axis + rank : axis;
    int64_t dim = (*shape)[axis];
    if (mlir::ShapedType::isDynamic(dim)) {
      return mlir::emitError(at) << "SplitToSequence along dimension " << axis
                                 << " of unknown size (give --input-shape)";
    }
    llvm::SmallVector<int64_t> sizes;
    bool squeeze = false;
    if (Value split = imp.operand(1)) {
      auto ints = imp.constInts(split);
      auto splitShape = getShape(split);
      if (!ints) {
        return mlir::emitError(at)
               << "SplitToSequence split (input 1, '" << def.input(1)
               << "') must be a constant (it is computed at run "
                  "time)";
      }
      if (splitShape && splitShape->empty()) {
        int64_t chunk = (*ints)[0];
        if (chunk <= 0) {
          return mlir::emitError(at)
                 << "SplitToSequence split " << chunk << " is not positive";
        }
        for (int64_t start = 0; start < dim; start += chunk) {
          sizes.push_back(std::min(chunk, dim - start));
        }
      } else {
        sizes = *ints;
        int64_t total = 0;
        for (int64_t size : sizes) {
          if (size < 0) {
            return mlir::emitError(at)
                   << "SplitToSequence split has the negative "
                      "size "
                   << size;
          }
          total += size;
        }
        if (total != dim) {
          return mlir::emitError(at)
                 << "SplitToSequence split sums to " << total
                 << " but dimension " << axis << " has " << dim;
        }
      }
    } else {
      sizes.assign(dim, 1);
      squeeze = imp.attrInt(def, "keepdims", 1) == 0;
    }
    OnnxImporter::Sequence seq{getElementType(in[0]), {}};
    if (!sizes.empty()) {
      llvm::SmallVector<Type> elements(sizes.size(), seq.element);
      seq.tensors = imp.build(at, "graph.split", {in[0]},
                              {imp.named("axis", imp.i64Attr(axis)),
                               imp.named("sizes", imp.i64Array(sizes))},
                              elements);
      if (seq.tensors.size() != sizes.size()) {
        return mlir::failure();
      }
    }
    if (squeeze) {
      for (Value &t : seq.tensors) {
        t = b.op("graph.squeeze", {t}, {b.i64s("axes", {axis})});
        if (!t) {
          return mlir::failure();
        }
      }
    }
    return seq;
  }

  /// Fails unless `v`'s element type is the sequence's.
  LogicalResult sameElement(const OnnxImporter::Sequence &seq, Value v,
                            StringRef what) {
    Type element = getElementType(v);
    if (seq.element && element != seq.element) {
      return mlir::emitError(at)
             << op << " " << what << " has element type " << element
             << " but the sequence holds " << seq.element;
    }
    return mlir::success();
  }
};

} // namespace

std::optional<FailureOr<llvm::SmallVector<Value>>>
OnnxImporter::importSequence(const GraphNode &node, const onnx::NodeProto &def,
                             llvm::ArrayRef<Value> in, Location at) {
  StringRef op = node.op;
  SequenceNode s{*this, op, def, in, at};
  NodeBuilder b{*this, at};
  auto failedNode = [] { return nodeFailed(mlir::failure()); };
  // A sequence-producing node stores its list under its output's name;
  // importNode takes the output as set.
  auto produce = [&](Sequence seq) {
    if (def.output_size() != 1 || def.output(0).empty()) {
      return nodeFailed(mlir::emitError(at)
                        << op << " must have one output (a sequence)");
    }
    sequences[def.output(0)] = std::move(seq);
    return nodeResults({});
  };

  if (op == "SequenceEmpty") {
    Type element = convertOnnxElementType(
        ctx, attrInt(def, "dtype", onnx::TensorProto::FLOAT));
    if (!element) {
      return nodeFailed(mlir::emitError(at)
                        << "SequenceEmpty dtype " << attrInt(def, "dtype", 0)
                        << " is not a supported element type");
    }
    return produce({element, {}});
  }
  if (op == "SequenceConstruct") {
    Sequence seq;
    for (auto [i, v] : llvm::enumerate(in)) {
      if (!v) {
        return nodeFailed(mlir::emitError(at) << "SequenceConstruct input " << i
                                              << " is absent or not a tensor");
      }
      if (i == 0) {
        seq.element = getElementType(v);
      } else if (failed(s.sameElement(seq, v, "input " + std::to_string(i)))) {
        return failedNode();
      }
      seq.tensors.push_back(v);
    }
    if (seq.tensors.empty()) {
      return nodeFailed(mlir::emitError(at)
                        << "SequenceConstruct needs at least one tensor");
    }
    return produce(std::move(seq));
  }
  if (op == "SequenceInsert") {
    const Sequence *from = s.sequence();
    if (!from) {
      return failedNode();
    }
    Value tensor = in.size() > 1 ? in[1] : Value();
    if (!tensor) {
      return nodeFailed(mlir::emitError(at)
                        << "SequenceInsert needs input 1 (the tensor)");
    }
    Sequence seq = *from;
    int64_t n = seq.tensors.size();
    auto p = s.position(2, n, n);
    if (failed(p) || failed(s.sameElement(seq, tensor, "tensor"))) {
      return failedNode();
    }
    seq.element = getElementType(tensor);
    seq.tensors.insert(seq.tensors.begin() + p->value_or(n), tensor);
    return produce(std::move(seq));
  }
  if (op == "SequenceErase") {
    const Sequence *from = s.sequence();
    if (!from) {
      return failedNode();
    }
    Sequence seq = *from;
    int64_t n = seq.tensors.size();
    if (n == 0) {
      return nodeFailed(mlir::emitError(at)
                        << "SequenceErase of an empty sequence");
    }
    auto p = s.position(1, n, n - 1);
    if (failed(p)) {
      return failedNode();
    }
    seq.tensors.erase(seq.tensors.begin() + p->value_or(n - 1));
    return produce(std::move(seq));
  }
  if (op == "SequenceAt") {
    const Sequence *seq = s.sequence();
    if (!seq) {
      return failedNode();
    }
    int64_t n = seq->tensors.size();
    if (in.size() < 2 || !in[1]) {
      return nodeFailed(mlir::emitError(at)
                        << "SequenceAt needs input 1 (the position)");
    }
    if (n == 0) {
      return nodeFailed(mlir::emitError(at)
                        << "SequenceAt of an empty sequence");
    }
    auto p = s.position(1, n, n - 1);
    if (failed(p)) {
      return failedNode();
    }
    return nodeResults({seq->tensors[**p]});
  }
  if (op == "SequenceLength") {
    const Sequence *seq = s.sequence();
    if (!seq) {
      return failedNode();
    }
    return nodeResults(
        {b.scalar(builder.getI64Type(), double(seq->tensors.size()))});
  }
  if (op == "SplitToSequence") {
    FailureOr<Sequence> seq = s.splitToSequence(b);
    if (failed(seq)) {
      return failedNode();
    }
    return produce(std::move(*seq));
  }
  if (op == "ConcatFromSequence") {
    const Sequence *seq = s.sequence();
    if (!seq) {
      return failedNode();
    }
    if (seq->tensors.empty()) {
      return nodeFailed(mlir::emitError(at)
                        << "ConcatFromSequence of an empty sequence");
    }
    const onnx::AttributeProto *axisAttr = attr(def, "axis");
    if (!axisAttr) {
      return nodeFailed(mlir::emitError(at)
                        << "ConcatFromSequence needs the attribute axis");
    }
    auto rank = rankOf(seq->tensors.front());
    if (!rank) {
      return nodeFailed(mlir::emitError(at)
                        << "ConcatFromSequence of unranked tensors");
    }
    bool newAxis = attrInt(def, "new_axis", 0) != 0;
    int64_t outRank = *rank + (newAxis ? 1 : 0);
    int64_t axis = axisAttr->i();
    if (axis < -outRank || axis >= outRank) {
      return nodeFailed(mlir::emitError(at)
                        << "ConcatFromSequence axis " << axis
                        << " is out of range for rank " << outRank);
    }
    axis = axis < 0 ? axis + outRank : axis;
    llvm::SmallVector<Value> parts;
    for (Value t : seq->tensors) {
      if (newAxis) {
        t = b.op("graph.unsqueeze", {t}, {b.i64s("axes", {axis})});
      }
      parts.push_back(t);
    }
    return nodeResults({b.concat(parts, axis)});
  }
  return std::nullopt;
}

} // namespace graphc::import
