//===- TFReader.h - read TensorFlow graphs from disk --------------*- C++
//-*-===//
//
// Reads a GraphDef (binary or text), a MetaGraphDef or a SavedModel directory
// into TensorFlow's protobuf classes (graphc's own wire-compatible copies),
// with size and nesting limits and errors that name the file.
//
//===----------------------------------------------------------------------===//

#ifndef GRAPHC_IMPORT_TFREADER_H
#define GRAPHC_IMPORT_TFREADER_H

#include "graphc/Import/ModelFormat.h"
#include "graphc/Import/TF/TensorBundle.h"

#include "tensorflow/graph.pb.h"
#include "tensorflow/meta_graph.pb.h"

#include <optional>
#include <string>
#include <vector>

namespace graphc::import {

/// A TensorFlow graph as read from any of the TensorFlow formats.
struct TFModel {
  /// The path diagnostics name (the file, or the SavedModel directory).
  std::string path;
  ModelFormat format = ModelFormat::GraphDefBinary;
  tensorflow::GraphDef graph;
  /// From a MetaGraphDef: its signatures and the `train_op` collection.
  google::protobuf::Map<std::string, tensorflow::SignatureDef> signatures;
  std::vector<std::string> trainOps;
  /// From a SavedModel's variables/ checkpoint, when it has one.
  std::optional<TensorBundle> variables;
};

/// Parses a binary GraphDef held in `data`. `path` is only for messages.
llvm::Expected<tensorflow::GraphDef>
parseGraphDefBinary(llvm::StringRef data, llvm::StringRef path,
                    const ReadLimits &limits = {});

/// Parses a text-format GraphDef; errors give the line and column.
llvm::Expected<tensorflow::GraphDef>
parseGraphDefText(llvm::StringRef data, llvm::StringRef path,
                  const ReadLimits &limits = {});

/// Parses a binary MetaGraphDef.
llvm::Expected<tensorflow::MetaGraphDef>
parseMetaGraph(llvm::StringRef data, llvm::StringRef path,
               const ReadLimits &limits = {});

/// Reads `path` in `format` (one of the TensorFlow formats). For a SavedModel
/// the meta graph tagged `tag` is taken (the only one when there is one), and
/// its variables/ checkpoint is read when present.
llvm::Expected<TFModel> readTFModel(llvm::StringRef path, ModelFormat format,
                                    const ReadLimits &limits = {},
                                    llvm::StringRef tag = "serve");

} // namespace graphc::import

#endif // GRAPHC_IMPORT_TFREADER_H
