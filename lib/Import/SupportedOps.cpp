//===- SupportedOps.cpp - what the op registries say about a model -------===//
//
// --list-unsupported and --print-op-table, over the registries of
// OnnxOps.cpp and TFOps.cpp. An op is supported when it has a translation,
// the model's opset is in its range, and every graph-dialect op its
// translation creates is registered.
//
//===----------------------------------------------------------------------===//

#include "graphc/Import/SupportedOps.h"

#include "graphc/Import/NodeGraph.h"
#include "graphc/Import/ONNX/OnnxReader.h"
#include "graphc/Import/TF/TFReader.h"

#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/OperationSupport.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <map>

using namespace llvm;

namespace graphc::import {

namespace {

/// Accumulates unsupported op types across graphs.
class UnsupportedCollector {
public:
  explicit UnsupportedCollector(mlir::MLIRContext &context)
      : context(context) {}

  /// `opsetProblem`: why the model's opset cannot take the op, or "".
  void add(const OpRule *rule, StringRef displayOp, StringRef node,
           StringRef opsetProblem = "") {
    std::string reason;
    if (!rule) {
      reason = "no import rule";
    } else if (!rule->translated()) {
      reason = "no translation yet";
    } else if (!opsetProblem.empty()) {
      reason = opsetProblem.str();
    } else {
      auto cached = missingCache.find(rule->op);
      if (cached == missingCache.end()) {
        std::vector<std::string> missing = missingOps(*rule, context);
        std::string text;
        if (!missing.empty()) {
          text = "needs " + join(missing, ", ");
        }
        cached = missingCache.try_emplace(rule->op, text).first;
      }
      reason = cached->second;
      if (reason.empty()) {
        return;
      }
    }
    UnsupportedOp &entry = byOp[displayOp.str()];
    entry.op = displayOp.str();
    entry.reason = reason;
    entry.nodes.push_back(node.str());
  }

  std::vector<UnsupportedOp> take() {
    std::vector<UnsupportedOp> out;
    for (auto &[name, entry] : byOp) {
      out.push_back(std::move(entry));
    }
    return out;
  }

private:
  mlir::MLIRContext &context;
  StringMap<std::string> missingCache;
  std::map<std::string, UnsupportedOp> byOp;
};

void collectOnnxGraph(const onnx::GraphProto &graph, StringRef prefix,
                      int64_t opset, UnsupportedCollector &collector) {
  for (int i = 0, e = graph.node_size(); i != e; ++i) {
    const onnx::NodeProto &node = graph.node(i);
    std::string name =
        prefix.str() + (node.name().empty()
                            ? node.op_type() + "_#" + std::to_string(i)
                            : node.name());
    StringRef domain = node.domain();
    if (domain == "ai.onnx") {
      domain = "";
    }
    std::string display =
        domain.empty() ? node.op_type() : (domain + "." + node.op_type()).str();
    const OpRule *rule = lookupOnnxOp(domain, node.op_type());
    collector.add(rule, display, name,
                  rule ? onnxOpsetProblem(*rule, opset) : "");
    for (const onnx::AttributeProto &attr : node.attribute()) {
      if (attr.has_g()) {
        collectOnnxGraph(attr.g(), name + "/" + attr.name() + "/", opset,
                         collector);
      }
      for (const onnx::GraphProto &g : attr.graphs()) {
        collectOnnxGraph(g, name + "/" + attr.name() + "/", opset, collector);
      }
    }
  }
}

} // namespace

std::string onnxOpsetProblem(const OpRule &rule, int64_t opset) {
  std::string text;
  llvm::raw_string_ostream os(text);
  if (opset < rule.since) {
    os << "is not supported at opset " << opset
       << " (graphc translates its form from opset " << rule.since
       << " on); upgrade the model with onnx.version_converter";
  } else if (rule.until && opset > rule.until) {
    os << "is not supported at opset " << opset
       << " (graphc translates its forms up to opset " << rule.until << ")";
  }
  return text;
}

namespace {

/// One Markdown table row; `|` in a cell would end it early.
void printRow(raw_ostream &os, ArrayRef<std::string> cells) {
  os << "|";
  for (const std::string &cell : cells) {
    std::string text = cell;
    std::replace(text.begin(), text.end(), '|', '/');
    os << " " << text << " |";
  }
  os << "\n";
}

std::string creates(const OpRule &rule) {
  if (rule.creates.empty()) {
    return "";
  }
  SmallVector<StringRef, 8> names;
  rule.creates.split(names, ',', -1, /*KeepEmpty=*/false);
  std::string text;
  for (StringRef name : names) {
    text += (text.empty() ? "`" : ", `") + name.str() + "`";
  }
  return text;
}

std::string translation(const OpRule &rule) {
  if (rule.action == OpAction::Drop) {
    return "dropped";
  }
  if (rule.action == OpAction::GraphInput) {
    return "graph input";
  }
  return rule.file.empty() ? "(none yet)" : rule.file.str();
}

} // namespace

void printOpTables(raw_ostream &os) {
  ArrayRef<OpRule> onnx = onnxOpRules(), tf = tfOpRules();
  os << "# Ops the importers take\n\n"
        "Generated by `graphc --print-op-table` from the op registries\n"
        "(`lib/Import/ONNX/OnnxOps.cpp`, `lib/Import/TF/TFOps.cpp`), which "
        "also\n"
        "drive the importers' dispatch and `graphc --list-unsupported`. Do\n"
        "not edit: `test/Import/op-registry.test` fails when this file is\n"
        "stale; after changing a registry, run `graphc --print-op-table > "
        "docs/user/import-ops.md`.\n"
        "\n"
        "An op is taken when it has a translation, the model's opset is in\n"
        "its range and every graph op it creates is registered. Shapes must\n"
        "be static where the notes (or docs/design/importers.md) say so.\n\n";
  os << "## ONNX (" << onnx.size() << " ops)\n\n";
  printRow(os,
           {"op", "opsets", "translation (lib/Import)", "creates", "notes"});
  os << "|---|---|---|---|---|\n";
  for (const OpRule &rule : onnx) {
    std::string name = rule.domain.empty()
                           ? rule.op.str()
                           : (rule.domain + "." + rule.op).str();
    std::string opsets = std::to_string(rule.since) + "-" +
                         (rule.until ? std::to_string(rule.until) : "");
    printRow(
        os, {name, opsets, translation(rule), creates(rule), rule.notes.str()});
  }
  os << "\n## TensorFlow (" << tf.size() << " ops)\n\n";
  printRow(os, {"op", "translation (lib/Import)", "creates", "notes"});
  os << "|---|---|---|---|\n";
  for (const OpRule &rule : tf) {
    printRow(os, {rule.op.str(), translation(rule), creates(rule),
                  rule.notes.str()});
  }
}

std::vector<std::string> missingOps(const OpRule &rule,
                                    mlir::MLIRContext &context) {
  std::vector<std::string> missing;
  SmallVector<StringRef, 4> names;
  rule.creates.split(names, ',', -1, /*KeepEmpty=*/false);
  for (StringRef name : names) {
    if (!mlir::RegisteredOperationName::lookup(name, &context)) {
      missing.push_back(name.str());
    }
  }
  return missing;
}

Expected<std::vector<UnsupportedOp>>
listUnsupportedOps(StringRef path, ModelFormat format,
                   mlir::MLIRContext &context, const ReadLimits &limits) {
  context.loadAllAvailableDialects();
  UnsupportedCollector collector(context);
  if (format == ModelFormat::Onnx) {
    auto model = readOnnxModel(path, limits);
    if (!model) {
      return model.takeError();
    }
    collectOnnxGraph((*model)->graph(), "", getOnnxOpset(**model), collector);
    return collector.take();
  }
  if (format == ModelFormat::Mlir) {
    return makeError(path, "",
                     "--list-unsupported reads ONNX and TensorFlow "
                     "models, not MLIR");
  }
  auto model = readTFModel(path, format, limits);
  if (!model) {
    return model.takeError();
  }
  // A call names a library function by its op; those are supported when
  // their bodies are, which the loop over the library checks.
  StringMap<bool> functions;
  for (const tensorflow::FunctionDef &function :
       model->graph.library().function()) {
    functions[function.signature().name()] = true;
  }
  for (const tensorflow::NodeDef &node : model->graph.node()) {
    if (!functions.count(node.op())) {
      collector.add(lookupTFOp(node.op()), node.op(), node.name());
    }
  }
  for (const tensorflow::FunctionDef &function :
       model->graph.library().function()) {
    for (const tensorflow::NodeDef &node : function.node_def()) {
      if (!functions.count(node.op())) {
        collector.add(lookupTFOp(node.op()), node.op(),
                      function.signature().name() + "/" + node.name());
      }
    }
  }
  return collector.take();
}

} // namespace graphc::import
