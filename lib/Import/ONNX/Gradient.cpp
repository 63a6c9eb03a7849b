//===- Gradient.cpp - ai.onnx.preview.training Gradient -------------------===//
//
// Gradient(xs, zs, y) outputs the gradient of the tensor y names with
// respect to each tensor xs names, at the values its inputs feed for xs
// and zs. The forward graph is already imported (buildOnnxNodeGraph makes
// the producers of y, xs and zs come first), so the node runs graph-
// autodiff's reverse mode (lib/Autodiff/ReverseMode.cpp) over the imported
// ops, with y's adjoint 1 in every element: a non-scalar y gets the
// gradient of the sum of its elements. When an input feeds another value
// than the tensor it stands for, the ops between them and y are first
// cloned with the fed values substituted. The nodes between xs/zs and y
// keep their float ops unfolded (run() marks them), so that a weight (an
// initializer, a constant) stays differentiable.
//
//===----------------------------------------------------------------------===//

#include "OnnxNodeBuilder.h"

#include "graphc/Autodiff/ReverseMode.h"

#include "mlir/IR/IRMapping.h"

namespace graphc::import {

using mlir::Block;

namespace {

/// The tensor names a strings attribute (xs, zs) lists; none when absent.
llvm::SmallVector<std::string> names(const onnx::AttributeProto *a) {
  llvm::SmallVector<std::string> out;
  if (a) {
    out.assign(a->strings().begin(), a->strings().end());
  }
  return out;
}

} // namespace

void OnnxImporter::markDifferentiated(const NodeGraph &graph,
                                      llvm::ArrayRef<unsigned> order,
                                      const std::vector<bool> &needed) {
  for (unsigned g : order) {
    const GraphNode &node = graph.nodes[g];
    if (!needed[g] || node.op != "Gradient" ||
        node.domain != "ai.onnx.preview.training") {
      continue;
    }
    const auto &def = *static_cast<const onnx::NodeProto *>(node.source);
    const onnx::AttributeProto *y = attr(def, "y");
    if (!y) {
      continue; // the translator reports it
    }
    // Downstream of xs and zs ...
    llvm::StringSet<> reach;
    for (StringRef list : {"xs", "zs"}) {
      for (const std::string &name : names(attr(def, list))) {
        reach.insert(name);
      }
    }
    std::vector<bool> down(graph.nodes.size(), false);
    for (unsigned index : order) {
      const GraphNode &n = graph.nodes[index];
      bool reads = llvm::any_of(n.inputs, [&](const NodeInput &input) {
        return input.producer != NodeInput::kAbsent &&
               reach.contains(input.name);
      });
      if (!reads) {
        continue;
      }
      down[index] = true;
      for (const std::string &out :
           static_cast<const onnx::NodeProto *>(n.source)->output()) {
        reach.insert(out);
      }
    }
    // ... and upstream of y.
    llvm::SmallVector<StringRef> work = {y->s()};
    llvm::StringSet<> seen;
    while (!work.empty()) {
      StringRef name = work.pop_back_val();
      if (!seen.insert(name).second) {
        continue;
      }
      auto it = graph.valueByName.find(name);
      if (it == graph.valueByName.end() || it->second.first < 0) {
        continue;
      }
      unsigned index = it->second.first;
      if (down[index]) {
        unfoldedNodes.insert(graph.nodes[index].source);
      }
      for (const NodeInput &input : graph.nodes[index].inputs) {
        if (input.producer != NodeInput::kAbsent) {
          work.push_back(input.name);
        }
      }
    }
  }
}

std::optional<FailureOr<llvm::SmallVector<Value>>>
OnnxImporter::importGradient(const GraphNode &node, const onnx::NodeProto &def,
                             llvm::ArrayRef<Value> in, Location at) {
  if (node.op != "Gradient") {
    return std::nullopt;
  }
  auto fail = [&]() { return nodeFailed(mlir::failure()); };
  const onnx::AttributeProto *yAttr = attr(def, "y");
  llvm::SmallVector<std::string> xs = names(attr(def, "xs")),
                                 zs = names(attr(def, "zs"));
  if (!yAttr || yAttr->s().empty() || xs.empty()) {
    return nodeFailed(mlir::emitError(at)
                      << "Gradient needs the attributes y and xs");
  }
  if (in.size() != xs.size() + zs.size()) {
    return nodeFailed(mlir::emitError(at)
                      << "Gradient has " << in.size()
                      << " inputs; its xs and zs name " << xs.size() + zs.size()
                      << " tensors, one input each");
  }
  if (def.output_size() > int(xs.size())) {
    return nodeFailed(mlir::emitError(at)
                      << "Gradient has " << def.output_size()
                      << " outputs but xs names " << xs.size() << " tensors");
  }
  // The tensors the attributes name, and the values fed for them.
  llvm::SmallVector<std::string> all(xs);
  all.append(zs.begin(), zs.end());
  llvm::SmallVector<Value> named;
  bool substituted = false;
  for (auto [i, name] : llvm::enumerate(all)) {
    Value v = lookupValue(name);
    if (!v) {
      return nodeFailed(mlir::emitError(at)
                        << "Gradient " << (i < xs.size() ? "xs" : "zs")
                        << " names '" << name
                        << "', which is no tensor of the graph");
    }
    if (!in[i]) {
      return nodeFailed(mlir::emitError(at)
                        << "Gradient input " << i << " (the value of '" << name
                        << "') is absent");
    }
    if (in[i].getType() != v.getType()) {
      return nodeFailed(mlir::emitError(at)
                        << "Gradient input " << i << " has type "
                        << in[i].getType() << " but '" << name << "' has "
                        << v.getType());
    }
    substituted |= in[i] != v;
    named.push_back(v);
  }
  StringRef yName = yAttr->s();
  Value y = lookupValue(yName);
  if (!y) {
    return nodeFailed(mlir::emitError(at) << "Gradient y names '" << yName
                                          << "', which is no tensor of the "
                                             "graph");
  }
  auto yType = llvm::dyn_cast<RankedTensorType>(y.getType());
  if (!yType || !yType.hasStaticShape() ||
      !llvm::isa<FloatType>(yType.getElementType())) {
    return nodeFailed(mlir::emitError(at)
                      << "Gradient y ('" << yName << "') has type "
                      << y.getType()
                      << "; it must be a float tensor of static shape");
  }
  for (unsigned i = 0; i < xs.size(); ++i) {
    auto t = llvm::dyn_cast<RankedTensorType>(in[i].getType());
    if (!t || !t.hasStaticShape() ||
        !llvm::isa<FloatType>(t.getElementType())) {
      return nodeFailed(mlir::emitError(at)
                        << "Gradient xs '" << xs[i] << "' has type "
                        << in[i].getType()
                        << "; it must be a float tensor of static shape");
    }
  }
  Block *block = builder.getInsertionBlock();
  if (Operation *producer = y.getDefiningOp();
      producer && producer->getBlock() != block) {
    return nodeFailed(mlir::emitError(at)
                      << "Gradient y ('" << yName
                      << "') is computed outside the graph that holds the "
                         "node");
  }
  // Inputs that feed other values than the tensors they stand for: the
  // ops between those and y, cloned with the fed values in their place.
  if (substituted) {
    mlir::IRMapping map;
    for (auto [v, fed] : llvm::zip(named, in)) {
      if (v != fed) {
        map.map(v, fed);
      }
    }
    auto before = llvm::make_range(block->begin(), builder.getInsertionPoint());
    llvm::DenseSet<Value> useful = {y};
    llvm::DenseSet<Operation *> wanted;
    for (Operation &op : llvm::reverse(before)) {
      if (llvm::any_of(op.getResults(),
                       [&](Value r) { return useful.contains(r); })) {
        wanted.insert(&op);
        useful.insert(op.getOperands().begin(), op.getOperands().end());
      }
    }
    // In program order, so that an op's clone reads its operands' clones.
    llvm::SmallVector<Operation *> ops;
    for (Operation &op : before) {
      if (wanted.contains(&op)) {
        ops.push_back(&op);
      }
    }
    for (Operation *op : ops) {
      if (llvm::none_of(op->getOperands(),
                        [&](Value v) { return map.contains(v); })) {
        continue;
      }
      if (op->getNumRegions()) {
        return nodeFailed(mlir::emitError(at)
                          << "Gradient at fed values: '" << op->getName()
                          << "' between xs and y holds regions; feed the "
                             "tensors xs and zs name instead");
      }
      builder.clone(*op, map);
    }
    y = map.lookupOrDefault(y);
  }
  llvm::SmallVector<autodiff::ReverseSource> sources;
  for (unsigned i = 0; i < xs.size(); ++i) {
    sources.push_back({"xs '" + xs[i] + "'", {in[i]}});
  }
  autodiff::ReverseOptions options;
  options.prefix = "Gradient: ";
  options.target = "y ('" + yName.str() + "')";
  FailureOr<llvm::SmallVector<Value>> grads =
      autodiff::reverse(builder, y, 1.0, sources, options);
  if (failed(grads)) {
    return fail();
  }
  llvm::SmallVector<Value> results;
  for (int i = 0; i < def.output_size(); ++i) {
    Value g = (*grads)[i];
    if (!g) {
      // y does not depend on this tensor.
      auto t = llvm::cast<RankedTensorType>(in[i].getType());
      g = constant(at, DenseElementsAttr::get(
                           t, builder.getFloatAttr(t.getElementType(), 0.0)));
    }
    results.push_back(g);
  }
  return nodeResults(results);
}

} // namespace graphc::import
