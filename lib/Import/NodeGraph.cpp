//===- NodeGraph.cpp - resolve edges, order nodes, find cycles
//--------------===//

#include "graphc/Import/NodeGraph.h"

#include "llvm/ADT/StringSet.h"

#include "graphc/Import/ModelFormat.h"

#include "onnx/onnx_pb.h"
#include "tensorflow/node_def.pb.h"

#include <deque>

using namespace llvm;

namespace graphc::import {

TFInputRef parseTFInput(StringRef input) {
  TFInputRef ref;
  if (input.consume_front("^")) {
    ref.control = true;
    ref.node = input;
    return ref;
  }
  ref.node = input;
  size_t colon = input.rfind(':');
  if (colon != StringRef::npos) {
    unsigned index;
    if (!input.drop_front(colon + 1).getAsInteger(10, index)) {
      ref.node = input.take_front(colon);
      ref.index = index;
    }
  }
  return ref;
}

bool NodeGraph::isTFLoopBackEdge(const GraphNode &consumer,
                                 unsigned inputIndex) const {
  if (consumer.op != "Merge" && consumer.op != "RefMerge") {
    return false;
  }
  int producer = consumer.inputs[inputIndex].producer;
  if (producer < 0) {
    return false;
  }
  StringRef op = nodes[producer].op;
  return op == "NextIteration" || op == "RefNextIteration";
}

Expected<std::vector<unsigned>>
NodeGraph::topologicalOrder(StringRef path, BackEdgeFn isBackEdge) const {
  // Kahn's algorithm; ties keep file order so output is deterministic.
  std::vector<unsigned> pending(nodes.size(), 0);
  std::vector<SmallVector<unsigned, 4>> users(nodes.size());
  for (unsigned i = 0, e = nodes.size(); i != e; ++i) {
    const GraphNode &node = nodes[i];
    for (unsigned j = 0, je = node.inputs.size(); j != je; ++j) {
      int producer = node.inputs[j].producer;
      if (producer < 0 || isBackEdge(node, j)) {
        continue;
      }
      ++pending[i];
      users[producer].push_back(i);
    }
    for (unsigned producer : node.controlInputs) {
      ++pending[i];
      users[producer].push_back(i);
    }
  }
  std::vector<unsigned> order;
  order.reserve(nodes.size());
  std::deque<unsigned> ready;
  for (unsigned i = 0, e = nodes.size(); i != e; ++i) {
    if (pending[i] == 0) {
      ready.push_back(i);
    }
  }
  while (!ready.empty()) {
    unsigned i = ready.front();
    ready.pop_front();
    order.push_back(i);
    for (unsigned user : users[i]) {
      if (--pending[user] == 0) {
        ready.push_back(user);
      }
    }
  }
  if (order.size() != nodes.size()) {
    // Walk back along unfinished producers until a node repeats: it is on a
    // cycle (the unfinished nodes not on one only feed from one).
    unsigned at = 0;
    while (pending[at] == 0) {
      ++at;
    }
    std::vector<bool> seen(nodes.size(), false);
    while (!seen[at]) {
      seen[at] = true;
      const GraphNode &node = nodes[at];
      int next = -1;
      for (unsigned j = 0, je = node.inputs.size(); j != je && next < 0; ++j) {
        int p = node.inputs[j].producer;
        if (p >= 0 && pending[p] != 0 && !isBackEdge(node, j)) {
          next = p;
        }
      }
      for (unsigned p : node.controlInputs) {
        if (next < 0 && pending[p] != 0) {
          next = p;
        }
      }
      if (next < 0) {
        break;
      }
      at = next;
    }
    return makeError(path, nodes[at].name,
                     "node is on a cycle that is not a loop (" +
                         Twine(nodes.size() - order.size()) +
                         " nodes cannot be ordered)");
  }
  return std::move(order);
}

Expected<NodeGraph> buildTFNodeGraph(
    const google::protobuf::RepeatedPtrField<tensorflow::NodeDef> &defs,
    StringRef path, const std::vector<std::string> *argNames) {
  NodeGraph graph;
  graph.nodes.reserve(defs.size());
  for (const tensorflow::NodeDef &def : defs) {
    if (!graph.nodeByName.try_emplace(def.name(), graph.nodes.size()).second) {
      return makeError(path, def.name(), "duplicate node name");
    }
    GraphNode node;
    node.name = def.name();
    node.op = def.op();
    node.device = def.device();
    node.source = &def;
    graph.nodes.push_back(std::move(node));
  }
  StringMap<unsigned> args;
  if (argNames) {
    for (unsigned i = 0, e = argNames->size(); i != e; ++i) {
      args.try_emplace((*argNames)[i], i);
    }
  }

  for (GraphNode &node : graph.nodes) {
    const auto &def = *static_cast<const tensorflow::NodeDef *>(node.source);
    bool sawControl = false;
    for (const std::string &spelling : def.input()) {
      TFInputRef ref = parseTFInput(spelling);
      if (ref.node.empty()) {
        return makeError(path, node.name, "empty input name");
      }
      StringRef producerName = ref.node;
      // Function bodies spell outputs "node:output_arg:index"; the middle
      // part was left in `ref.node` by parseTFInput.
      if (argNames && !ref.control) {
        size_t colon = producerName.find(':');
        if (colon != StringRef::npos) {
          producerName = producerName.take_front(colon);
        }
      }
      auto it = graph.nodeByName.find(producerName);
      if (ref.control) {
        if (it == graph.nodeByName.end()) {
          return makeError(path, node.name,
                           "control input '" + spelling + "' names no node");
        }
        node.controlInputs.push_back(it->second);
        sawControl = true;
        continue;
      }
      if (sawControl) {
        return makeError(path, node.name,
                         "data input '" + spelling +
                             "' follows a control input");
      }
      NodeInput input;
      input.name = spelling;
      input.index = ref.index;
      if (it != graph.nodeByName.end()) {
        input.producer = it->second;
      } else if (args.count(producerName)) {
        input.producer = NodeInput::kGraphInput;
        input.index = args.lookup(producerName);
      } else {
        return makeError(path, node.name,
                         "input '" + spelling + "' names no node");
      }
      node.inputs.push_back(std::move(input));
    }
  }
  return std::move(graph);
}

/// Adds to `names` the values `g` (and the subgraphs inside it) reads
/// without defining them: the enclosing graphs' values it captures.
static void collectOuterNames(const onnx::GraphProto &g,
                              llvm::StringSet<> &names) {
  llvm::StringSet<> defined;
  for (const onnx::ValueInfoProto &input : g.input()) {
    defined.insert(input.name());
  }
  for (const onnx::TensorProto &init : g.initializer()) {
    defined.insert(init.name());
  }
  for (const onnx::NodeProto &node : g.node()) {
    for (const std::string &name : node.output()) {
      defined.insert(name);
    }
  }
  llvm::StringSet<> inner;
  for (const onnx::NodeProto &node : g.node()) {
    for (const std::string &name : node.input()) {
      inner.insert(name);
    }
    for (const onnx::AttributeProto &attr : node.attribute()) {
      if (attr.has_g()) {
        collectOuterNames(attr.g(), inner);
      }
      for (const onnx::GraphProto &sub : attr.graphs()) {
        collectOuterNames(sub, inner);
      }
    }
  }
  for (const onnx::ValueInfoProto &output : g.output()) {
    inner.insert(output.name());
  }
  for (const auto &name : inner) {
    if (!name.getKey().empty() && !defined.contains(name.getKey())) {
      names.insert(name.getKey());
    }
  }
}

Expected<NodeGraph> buildOnnxNodeGraph(const onnx::GraphProto &proto,
                                       StringRef path, bool isSubgraph) {
  NodeGraph graph;
  for (const onnx::ValueInfoProto &input : proto.input()) {
    graph.valueByName[input.name()] = {NodeInput::kGraphInput, 0};
  }
  for (const onnx::TensorProto &init : proto.initializer()) {
    graph.valueByName[init.name()] = {NodeInput::kGraphInput, 0};
  }
  for (const onnx::SparseTensorProto &init : proto.sparse_initializer()) {
    graph.valueByName[init.values().name()] = {NodeInput::kGraphInput, 0};
  }

  graph.nodes.reserve(proto.node_size());
  for (const onnx::NodeProto &def : proto.node()) {
    unsigned index = graph.nodes.size();
    GraphNode node;
    node.name = def.name().empty() ? (def.op_type() + "_#" + Twine(index)).str()
                                   : def.name();
    if (def.op_type().empty()) {
      return makeError(path, node.name, "node has no op_type");
    }
    node.op = def.op_type();
    node.domain = def.domain() == "ai.onnx" ? "" : def.domain();
    node.source = &def;
    // ONNX does not require unique node names; keep the first for lookup.
    graph.nodeByName.try_emplace(node.name, index);
    for (unsigned o = 0, oe = def.output_size(); o != oe; ++o) {
      const std::string &out = def.output(o);
      if (out.empty()) {
        continue;
      }
      auto [it, inserted] =
          graph.valueByName.try_emplace(out, std::make_pair(int(index), o));
      if (!inserted) {
        return makeError(path, node.name,
                         "value '" + out + "' is produced more than once");
      }
    }
    graph.nodes.push_back(std::move(node));
  }
  for (GraphNode &node : graph.nodes) {
    const auto &def = *static_cast<const onnx::NodeProto *>(node.source);
    for (const std::string &name : def.input()) {
      NodeInput input;
      input.name = name;
      if (!name.empty()) {
        auto it = graph.valueByName.find(name);
        if (it != graph.valueByName.end()) {
          input.producer = it->second.first;
          input.index = it->second.second;
        } else if (isSubgraph) {
          input.producer = NodeInput::kOuter;
        } else {
          return makeError(path, node.name,
                           "input '" + name +
                               "' is produced by no node, graph input or "
                               "initializer");
        }
      }
      node.inputs.push_back(std::move(input));
    }
    // A subgraph (If's branches, Loop's body) reads enclosing values by
    // name: their producers become control inputs, so they are imported
    // (and ordered) before the node that holds the subgraph.
    llvm::StringSet<> free;
    for (const onnx::AttributeProto &attr : def.attribute()) {
      if (attr.has_g()) {
        collectOuterNames(attr.g(), free);
      }
      for (const onnx::GraphProto &g : attr.graphs()) {
        collectOuterNames(g, free);
      }
    }
    // ai.onnx.preview.training Gradient differentiates the tensor its
    // attribute y names with respect to those xs and zs name: their
    // producers come first, though no input names them.
    if (def.op_type() == "Gradient" &&
        def.domain() == "ai.onnx.preview.training") {
      for (const onnx::AttributeProto &attr : def.attribute()) {
        if (attr.name() == "y") {
          free.insert(attr.s());
        } else if (attr.name() == "xs" || attr.name() == "zs") {
          for (const std::string &name : attr.strings()) {
            free.insert(name);
          }
        }
      }
    }
    for (const auto &name : free) {
      auto it = graph.valueByName.find(name.getKey());
      if (it != graph.valueByName.end() && it->second.first >= 0 &&
          !llvm::is_contained(node.controlInputs, it->second.first)) {
        node.controlInputs.push_back(it->second.first);
      }
    }
  }
  for (const onnx::ValueInfoProto &output : proto.output()) {
    if (!graph.valueByName.count(output.name()) && !isSubgraph) {
      return makeError(path, "",
                       "graph output '" + output.name() +
                           "' is produced by no node");
    }
  }
  return std::move(graph);
}

} // namespace graphc::import
