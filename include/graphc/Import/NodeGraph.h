//===- NodeGraph.h - a framework-neutral view of a model's nodes --*- C++
//-*-===//
//
// Both importers first turn the file's node list into a NodeGraph: nodes with
// resolved data and control edges, checked for dangling and duplicate names,
// and a topological order in which TF1 loop back-edges (NextIteration into
// Merge) are ignored and any other cycle is an error naming a node on it.
//
//===----------------------------------------------------------------------===//

#ifndef GRAPHC_IMPORT_NODEGRAPH_H
#define GRAPHC_IMPORT_NODEGRAPH_H

#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/Error.h"

#include "google/protobuf/repeated_ptr_field.h"

#include <string>
#include <vector>

namespace tensorflow {
class NodeDef;
class GraphDef;
} // namespace tensorflow
namespace onnx {
class GraphProto;
class NodeProto;
} // namespace onnx

namespace graphc::import {

/// Where a node input comes from.
struct NodeInput {
  /// A graph input or initializer (ONNX) rather than a node.
  static constexpr int kGraphInput = -1;
  /// An omitted optional input (ONNX's empty name).
  static constexpr int kAbsent = -2;
  /// An outer-scope value (ONNX subgraphs), resolved by the importer.
  static constexpr int kOuter = -3;

  int producer = kAbsent; ///< node index, or one of the constants above
  unsigned index = 0;     ///< output number of the producer
  std::string name;       ///< the value's name as the file spells it
};

struct GraphNode {
  std::string name; ///< unique; ONNX nodes without one get "Op_#N"
  std::string op;
  std::string domain; ///< ONNX domain ("" for the default one)
  std::string device; ///< TensorFlow placement, as written
  llvm::SmallVector<NodeInput, 4> inputs;
  llvm::SmallVector<unsigned, 2> controlInputs;
  /// The source node (tensorflow::NodeDef or onnx::NodeProto).
  const void *source = nullptr;
};

class NodeGraph {
public:
  std::vector<GraphNode> nodes;
  llvm::StringMap<unsigned> nodeByName;
  /// ONNX: value name -> (producer, output); graph inputs map to kGraphInput.
  llvm::StringMap<std::pair<int, unsigned>> valueByName;

  /// Decides whether the edge into `consumer`'s input `inputIndex` closes a
  /// loop and is left out of the order.
  using BackEdgeFn =
      llvm::function_ref<bool(const GraphNode &consumer, unsigned inputIndex)>;

  /// Node indices such that every producer precedes its consumers (data and
  /// control edges), ignoring back-edges. Fails, naming a node on the cycle,
  /// when the rest is not acyclic.
  llvm::Expected<std::vector<unsigned>>
  topologicalOrder(llvm::StringRef path, BackEdgeFn isBackEdge) const;

  /// The TF1 rule: an input of a Merge fed by a NextIteration.
  bool isTFLoopBackEdge(const GraphNode &consumer, unsigned inputIndex) const;
};

/// Splits a TensorFlow input spelling ("node", "node:2", "^node").
struct TFInputRef {
  llvm::StringRef node;
  unsigned index = 0;
  bool control = false;
};
TFInputRef parseTFInput(llvm::StringRef input);

/// Builds the graph of `nodes` (a GraphDef's or a function body's). With
/// `argNames` (a function body), inputs naming an argument, or spelled
/// "node:output_arg:index", are accepted; arguments become kGraphInput.
llvm::Expected<NodeGraph> buildTFNodeGraph(
    const google::protobuf::RepeatedPtrField<tensorflow::NodeDef> &nodes,
    llvm::StringRef path, const std::vector<std::string> *argNames = nullptr);

/// Builds the graph of an ONNX graph. With `isSubgraph`, names produced by
/// nothing in the graph are outer-scope values (kOuter) instead of errors.
llvm::Expected<NodeGraph> buildOnnxNodeGraph(const onnx::GraphProto &graph,
                                             llvm::StringRef path,
                                             bool isSubgraph = false);

} // namespace graphc::import

#endif // GRAPHC_IMPORT_NODEGRAPH_H
