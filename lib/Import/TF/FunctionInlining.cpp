//===- FunctionInlining.cpp - TensorFlow function inlining ----------------===//
//
// TF2 function libraries: every call (StatefulPartitionedCall,
// PartitionedCall, a library function used as an op) is replaced by its body,
// recursively, before the graph is imported.
//
//===----------------------------------------------------------------------===//

#include "GraphDefImporterImpl.h"

namespace graphc::import {

const tensorflow::FunctionDef *
GraphDefImporter::calledFunction(const tensorflow::NodeDef &nd) {
  if (nd.op() == "StatefulPartitionedCall" || nd.op() == "PartitionedCall") {
    const tensorflow::AttrValue *f = attr(nd, "f");
    return f && f->has_func() ? library.lookup(f->func().name()) : nullptr;
  }
  return library.lookup(nd.op());
}

/// The flat output number of `op`'s output argument `arg`, element `index`.
/// Ops with one output argument (most) number their outputs by `index`;
/// the ops graphc translates that have several name them here.
static std::optional<unsigned> flatOutputIndex(StringRef op, StringRef arg,
                                               unsigned index) {
  static const std::pair<const char *, std::vector<const char *>> kArgs[] = {
      {"FusedBatchNorm",
       {"y", "batch_mean", "batch_variance", "reserve_space_1",
        "reserve_space_2"}},
      {"FusedBatchNormV3",
       {"y", "batch_mean", "batch_variance", "reserve_space_1",
        "reserve_space_2", "reserve_space_3"}},
      {"BroadcastGradientArgs", {"r0", "r1"}},
      {"SoftmaxCrossEntropyWithLogits", {"loss", "backprop"}},
      {"SparseSoftmaxCrossEntropyWithLogits", {"loss", "backprop"}},
      {"Switch", {"output_false", "output_true"}},
      {"RefSwitch", {"output_false", "output_true"}},
      {"Merge", {"output", "value_index"}},
      {"RefMerge", {"output", "value_index"}},
      {"Unique", {"y", "idx"}},
      {"TopKV2", {"values", "indices"}},
  };
  for (const auto &[name, args] : kArgs) {
    if (op != name) {
      continue;
    }
    for (unsigned i = 0; i < args.size(); ++i) {
      if (arg == args[i]) {
        return index == 0 ? std::optional<unsigned>(i) : std::nullopt;
      }
    }
    return std::nullopt;
  }
  return index;
}

/// The flat output number of a ParseExample(V2) output argument: its lists
/// are sized by the node's attributes.
static std::optional<unsigned>
parseExampleOutputIndex(const tensorflow::NodeDef &nd, StringRef arg,
                        unsigned index) {
  bool v2 = nd.op() == "ParseExampleV2";
  auto find = [&](StringRef name) -> const tensorflow::AttrValue * {
    auto it = nd.attr().find(name.str());
    return it == nd.attr().end() ? nullptr : &it->second;
  };
  auto listSize = [&](StringRef name) -> int64_t {
    const tensorflow::AttrValue *a = find(name);
    return a ? a->list().type_size() : 0;
  };
  const tensorflow::AttrValue *sparse = find(v2 ? "num_sparse" : "Nsparse");
  int64_t numSparse = sparse ? sparse->i() : 0;
  int64_t numDense = listSize("Tdense");
  int64_t numRagged = v2 ? listSize("ragged_value_types") : 0;
  const std::pair<const char *, int64_t> lists[] = {
      {"sparse_indices", numSparse}, {"sparse_values", numSparse},
      {"sparse_shapes", numSparse},  {"dense_values", numDense},
      {"ragged_values", numRagged},  {"ragged_row_splits", numRagged}};
  int64_t first = 0;
  for (const auto &[name, size] : lists) {
    if (size < 0) {
      return std::nullopt;
    }
    if (arg == name) {
      return int64_t(index) < size ? std::optional<unsigned>(first + index)
                                   : std::nullopt;
    }
    first += size;
  }
  return std::nullopt;
}

FailureOr<std::string> GraphDefImporter::renameInput(StringRef spelling,
                                                     const InlineScope &scope,
                                                     StringRef node) {
  if (!scope.function) {
    return spelling.str();
  }
  if (spelling.consume_front("^")) {
    return "^" + scope.prefix + spelling.str();
  }
  llvm::SmallVector<StringRef, 3> parts;
  spelling.split(parts, ':');
  unsigned index = 0;
  if (parts.size() > 1 && parts.back().getAsInteger(10, index)) {
    return emitError(loc(scope.prefix + node.str()))
           << "input '" << spelling << "' has a bad output index";
  }
  // An argument: "arg" (or "arg:0").
  if (parts.size() <= 2) {
    if (auto it = scope.args.find(parts[0]); it != scope.args.end()) {
      if (index != 0) {
        return emitError(loc(scope.prefix + node.str()))
               << "input '" << spelling << "' indexes argument '" << parts[0]
               << "', which is one tensor";
      }
      return it->second;
    }
  }
  auto producer = scope.nodes.find(parts[0]);
  if (producer == scope.nodes.end()) {
    return emitError(loc(scope.prefix + node.str()))
           << "input '" << spelling << "' names no node or argument of "
           << "function '" << scope.function->signature().name() << "'";
  }
  if (parts.size() != 3) {
    return scope.prefix + spelling.str();
  }
  // "node:output_arg:index": number the output as the producer's op does.
  const tensorflow::NodeDef &src = *producer->second;
  std::optional<unsigned> flat;
  if (const tensorflow::FunctionDef *callee = calledFunction(src)) {
    const auto &outs = callee->signature().output_arg();
    for (int i = 0; i < outs.size() && !flat; ++i) {
      if (outs[i].name() == parts[1] && index == 0) {
        flat = i;
      }
    }
    // StatefulPartitionedCall's own output list is named "output".
    if (!flat && parts[1] == "output" && index < unsigned(outs.size()) &&
        src.op() != callee->signature().name()) {
      flat = index;
    }
  } else if (src.op() == "ParseExample" || src.op() == "ParseExampleV2") {
    flat = parseExampleOutputIndex(src, parts[1], index);
  } else {
    flat = flatOutputIndex(src.op(), parts[1], index);
  }
  if (!flat) {
    return emitError(loc(scope.prefix + node.str()))
           << "input '" << spelling << "': op '" << src.op()
           << "' has no output '" << parts[1] << ":" << index << "'";
  }
  return scope.prefix + parts[0].str() + ":" + std::to_string(*flat);
}

LogicalResult GraphDefImporter::inlineNodes(
    const google::protobuf::RepeatedPtrField<tensorflow::NodeDef> &in,
    const InlineScope &scope,
    google::protobuf::RepeatedPtrField<tensorflow::NodeDef> &out) {
  for (const tensorflow::NodeDef &nd : in) {
    std::string name = scope.prefix + nd.name();
    llvm::SmallVector<std::string> data, controls;
    for (const std::string &spelling : nd.input()) {
      auto renamed = renameInput(spelling, scope, nd.name());
      if (failed(renamed)) {
        return failure();
      }
      (StringRef(*renamed).starts_with("^") ? controls : data)
          .push_back(*renamed);
    }
    // A body node that takes nothing (a Const) runs after the call's control
    // inputs, as in TensorFlow.
    if (data.empty() && controls.empty()) {
      for (const std::string &c : scope.controls) {
        controls.push_back(c);
      }
    }
    std::string device = nd.device().empty() ? scope.device : nd.device();
    if (scope.function) {
      for (const auto &[key, value] : nd.attr()) {
        if (value.value_case() == tensorflow::AttrValue::kPlaceholder) {
          return emitError(loc(name))
                 << "attribute '" << key << "' is the placeholder '"
                 << value.placeholder() << "' of function '"
                 << scope.function->signature().name()
                 << "': only instantiated functions are imported";
        }
      }
    }

    const tensorflow::FunctionDef *callee = calledFunction(nd);
    bool isCall =
        nd.op() == "StatefulPartitionedCall" || nd.op() == "PartitionedCall";
    if (!callee) {
      if (isCall) {
        const tensorflow::AttrValue *f = attr(nd, "f");
        return emitError(loc(name))
               << nd.op() << " calls function '"
               << (f && f->has_func() ? f->func().name() : std::string())
               << "', which the graph's function library does not define";
      }
      tensorflow::NodeDef *copy = out.Add();
      *copy = nd;
      copy->set_name(name);
      copy->set_device(device);
      copy->clear_input();
      for (const std::string &s : data) {
        copy->add_input(s);
      }
      for (const std::string &s : controls) {
        copy->add_input(s);
      }
      continue;
    }

    const tensorflow::OpDef &sig = callee->signature();
    // Untrusted libraries: bound the nesting (the stack) and the size of
    // the inlined graph (a function calling another twice per level
    // doubles it).
    unsigned depth = 0;
    for (const InlineScope *s = &scope; s; s = s->parent) {
      ++depth;
    }
    if (depth > kMaxCallDepth) {
      return emitError(loc(name))
             << "function calls nest deeper than " << kMaxCallDepth;
    }
    if (out.size() > kMaxInlinedNodes) {
      return emitError(loc(name)) << "inlining the function library makes "
                                     "more than "
                                  << kMaxInlinedNodes << " nodes";
    }
    std::string chain;
    for (const InlineScope *s = &scope; s; s = s->parent) {
      if (s->function) {
        chain = s->function->signature().name() + " -> " + chain;
        if (s->function == callee) {
          return emitError(loc(name))
                 << "function '" << sig.name() << "' is recursive (" << chain
                 << sig.name() << "); recursive functions cannot be inlined";
        }
      }
    }
    for (const auto &arg : sig.input_arg()) {
      if (!arg.number_attr().empty() || !arg.type_list_attr().empty()) {
        return emitError(loc(name))
               << "function '" << sig.name() << "' argument '" << arg.name()
               << "' is a list; only single-tensor arguments are inlined";
      }
    }
    for (const auto &arg : sig.output_arg()) {
      if (!arg.number_attr().empty() || !arg.type_list_attr().empty()) {
        return emitError(loc(name))
               << "function '" << sig.name() << "' result '" << arg.name()
               << "' is a list; only single-tensor results are inlined";
      }
    }
    if (int(data.size()) != sig.input_arg_size()) {
      return emitError(loc(name))
             << "call passes " << data.size() << " inputs to function '"
             << sig.name() << "', which takes " << sig.input_arg_size();
    }

    InlineScope body;
    body.prefix = name + "/";
    body.function = callee;
    body.device = device;
    body.controls = controls;
    body.parent = &scope;
    for (int i = 0; i < sig.input_arg_size(); ++i) {
      body.args[sig.input_arg(i).name()] = data[i];
    }
    for (const tensorflow::NodeDef &b : callee->node_def()) {
      if (!body.nodes.try_emplace(b.name(), &b).second) {
        return emitError(loc(body.prefix + b.name()))
               << "function '" << sig.name() << "' defines node '" << b.name()
               << "' twice";
      }
    }
    if (failed(inlineNodes(callee->node_def(), body, out))) {
      return failure();
    }

    // The call node becomes an IdentityN of the function's results (so
    // "CALL:i" and "^CALL" keep their meaning), after its stateful nodes.
    tensorflow::NodeDef *results = out.Add();
    results->set_name(name);
    results->set_op("IdentityN");
    results->set_device(device);
    for (const auto &arg : sig.output_arg()) {
      auto ret = callee->ret().find(arg.name());
      if (ret == callee->ret().end()) {
        return emitError(loc(name))
               << "function '" << sig.name()
               << "' returns no value for result '" << arg.name() << "'";
      }
      auto renamed = renameInput(ret->second, body, nd.name());
      if (failed(renamed)) {
        return failure();
      }
      results->add_input(*renamed);
    }
    std::vector<std::string> effects;
    for (const auto &[key, node] : callee->control_ret()) {
      if (!body.nodes.count(node)) {
        return emitError(loc(name))
               << "function '" << sig.name() << "' control output '" << key
               << "' names no node '" << node << "'";
      }
      effects.push_back("^" + body.prefix + node);
    }
    llvm::sort(effects); // protobuf maps have no stable order
    for (const std::string &e : effects) {
      results->add_input(e);
    }
  }
  return success();
}

LogicalResult GraphDefImporter::inlineFunctionCalls() {
  if (model.graph.library().function_size() == 0) {
    return success();
  }
  for (const tensorflow::FunctionDef &f : model.graph.library().function()) {
    if (!library.try_emplace(f.signature().name(), &f).second) {
      return emitError(loc(f.signature().name()))
             << "the function library defines '" << f.signature().name()
             << "' twice";
    }
  }
  bool anyCall = false;
  for (const tensorflow::NodeDef &nd : model.graph.node()) {
    anyCall |= nd.op() == "StatefulPartitionedCall" ||
               nd.op() == "PartitionedCall" || library.count(nd.op());
  }
  if (!anyCall) {
    return success();
  }
  google::protobuf::RepeatedPtrField<tensorflow::NodeDef> flat;
  InlineScope top;
  if (failed(inlineNodes(model.graph.node(), top, flat))) {
    return failure();
  }
  // The bodies were copied; the library is no longer needed.
  library.clear();
  model.graph.mutable_node()->Swap(&flat);
  model.graph.clear_library();
  return success();
}

} // namespace graphc::import
