//===- TFReader.cpp - read TensorFlow graphs from disk --------------------===//

#include "graphc/Import/TF/TFReader.h"

#include "ProtoParse.h"

#include "tensorflow/saved_model.pb.h"

#include "google/protobuf/io/tokenizer.h"
#include "google/protobuf/text_format.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

using namespace llvm;

namespace graphc::import {

namespace {

/// Keeps the first text-format error with its position.
class FirstErrorCollector : public google::protobuf::io::ErrorCollector {
public:
  void AddError(int line, google::protobuf::io::ColumnNumber column,
                const std::string &message) override {
    if (!message_.empty()) {
      return;
    }
    // The parser counts from zero; editors count from one.
    message_ = std::to_string(line + 1) + ":" + std::to_string(column + 1) +
               ": " + message;
  }
  void AddWarning(int, google::protobuf::io::ColumnNumber,
                  const std::string &) override {}
  const std::string &message() const { return message_; }

private:
  std::string message_;
};

/// Checks the cheap structural invariants of a graph read from an untrusted
/// file, so that every later stage can rely on them.
Error checkGraph(const tensorflow::GraphDef &graph, StringRef path) {
  if (graph.node_size() == 0 && graph.library().function_size() == 0) {
    return makeError(path, "", "GraphDef has no nodes");
  }
  for (const tensorflow::NodeDef &node : graph.node()) {
    if (node.name().empty()) {
      return makeError(path, "", "a node (op '" + node.op() + "') has no name");
    }
    if (node.op().empty()) {
      return makeError(path, node.name(), "node has no op");
    }
  }
  for (const tensorflow::FunctionDef &function : graph.library().function()) {
    if (function.signature().name().empty()) {
      return makeError(path, "", "a library function has no name");
    }
    for (const tensorflow::NodeDef &node : function.node_def()) {
      if (node.name().empty() || node.op().empty()) {
        return makeError(path, function.signature().name(),
                         "a function body node has no name or no op");
      }
    }
  }
  return Error::success();
}

Expected<TFModel> fromMetaGraph(tensorflow::MetaGraphDef &&meta, StringRef path,
                                ModelFormat format) {
  TFModel model;
  model.path = path.str();
  model.format = format;
  model.graph = std::move(*meta.mutable_graph_def());
  model.signatures = meta.signature_def();
  auto it = meta.collection_def().find("train_op");
  if (it != meta.collection_def().end()) {
    for (const std::string &name : it->second.node_list().value()) {
      model.trainOps.push_back(name);
    }
  }
  if (Error err = checkGraph(model.graph, path)) {
    return std::move(err);
  }
  return std::move(model);
}

} // namespace

Expected<tensorflow::GraphDef>
parseGraphDefBinary(StringRef data, StringRef path, const ReadLimits &limits) {
  tensorflow::GraphDef graph;
  if (Error err =
          parseBinaryProto(data, path, "binary GraphDef", limits, graph)) {
    return std::move(err);
  }
  if (Error err = checkGraph(graph, path)) {
    return std::move(err);
  }
  return std::move(graph);
}

Expected<tensorflow::GraphDef> parseGraphDefText(StringRef data, StringRef path,
                                                 const ReadLimits &limits) {
  tensorflow::GraphDef graph;
  google::protobuf::TextFormat::Parser parser;
  FirstErrorCollector errors;
  parser.RecordErrorsTo(&errors);
  parser.SetRecursionLimit(limits.maxRecursionDepth);
  google::protobuf::io::ArrayInputStream stream(
      data.data(), int(std::min<size_t>(data.size(), INT_MAX)));
  if (data.size() > size_t(INT_MAX) || !parser.Parse(&stream, &graph)) {
    return makeError(path, "",
                     "cannot parse text GraphDef: " +
                         (errors.message().empty() ? std::string("too large")
                                                   : errors.message()));
  }
  if (Error err = checkGraph(graph, path)) {
    return std::move(err);
  }
  return std::move(graph);
}

Expected<tensorflow::MetaGraphDef>
parseMetaGraph(StringRef data, StringRef path, const ReadLimits &limits) {
  tensorflow::MetaGraphDef meta;
  if (Error err = parseBinaryProto(data, path, "MetaGraphDef", limits, meta)) {
    return std::move(err);
  }
  if (!meta.has_graph_def()) {
    return makeError(path, "", "MetaGraphDef holds no graph_def");
  }
  return std::move(meta);
}

Expected<TFModel> readTFModel(StringRef path, ModelFormat format,
                              const ReadLimits &limits, StringRef tag) {
  if (format == ModelFormat::SavedModel) {
    SmallString<256> dir(path);
    if (sys::path::filename(path) == "saved_model.pb") {
      dir = sys::path::parent_path(path);
    }
    if (dir.empty()) {
      dir = ".";
    }
    SmallString<256> pbPath(dir);
    sys::path::append(pbPath, "saved_model.pb");
    auto buffer = readFileBounded(pbPath, limits.maxFileBytes);
    if (!buffer) {
      return buffer.takeError();
    }
    tensorflow::SavedModel saved;
    if (Error err = parseBinaryProto((*buffer)->getBuffer(), pbPath,
                                     "SavedModel", limits, saved)) {
      return std::move(err);
    }
    if (saved.meta_graphs_size() == 0) {
      return makeError(pbPath, "", "SavedModel holds no meta graph");
    }
    const tensorflow::MetaGraphDef *chosen = nullptr;
    for (const tensorflow::MetaGraphDef &meta : saved.meta_graphs()) {
      for (const std::string &t : meta.meta_info_def().tags()) {
        if (!chosen && t == tag) {
          chosen = &meta;
        }
      }
    }
    if (!chosen) {
      if (saved.meta_graphs_size() != 1) {
        return makeError(pbPath, "",
                         "SavedModel has " + Twine(saved.meta_graphs_size()) +
                             " meta graphs and none is tagged '" + tag + "'");
      }
      chosen = &saved.meta_graphs(0);
    }
    if (!chosen->has_graph_def()) {
      return makeError(pbPath, "", "meta graph holds no graph_def");
    }
    auto model = fromMetaGraph(tensorflow::MetaGraphDef(*chosen), pbPath,
                               ModelFormat::SavedModel);
    if (!model) {
      return model.takeError();
    }
    SmallString<256> prefix(dir);
    sys::path::append(prefix, "variables", "variables");
    if (sys::fs::exists(prefix + ".index")) {
      auto bundle = readTensorBundle(prefix, limits);
      if (!bundle) {
        return bundle.takeError();
      }
      model->variables = std::move(*bundle);
    }
    return model;
  }

  auto buffer = readFileBounded(path, limits.maxFileBytes);
  if (!buffer) {
    return buffer.takeError();
  }
  StringRef data = (*buffer)->getBuffer();
  switch (format) {
  case ModelFormat::GraphDefBinary:
  case ModelFormat::GraphDefText: {
    auto graph = format == ModelFormat::GraphDefText
                     ? parseGraphDefText(data, path, limits)
                     : parseGraphDefBinary(data, path, limits);
    if (!graph) {
      return graph.takeError();
    }
    TFModel model;
    model.path = path.str();
    model.format = format;
    model.graph = std::move(*graph);
    return std::move(model);
  }
  case ModelFormat::MetaGraph: {
    auto meta = parseMetaGraph(data, path, limits);
    if (!meta) {
      return meta.takeError();
    }
    return fromMetaGraph(std::move(*meta), path, format);
  }
  default:
    return makeError(path, "",
                     getFormatName(format) + " is not a TensorFlow format");
  }
}

} // namespace graphc::import
