//===- ModelFormat.cpp - format detection and bounded file reading
//---------===//

#include "graphc/Import/ModelFormat.h"

#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

using namespace llvm;

namespace graphc::import {

StringRef getFormatName(ModelFormat format) {
  switch (format) {
  case ModelFormat::Onnx:
    return "ONNX model";
  case ModelFormat::GraphDefBinary:
    return "GraphDef (binary)";
  case ModelFormat::GraphDefText:
    return "GraphDef (text)";
  case ModelFormat::MetaGraph:
    return "MetaGraphDef";
  case ModelFormat::SavedModel:
    return "SavedModel";
  case ModelFormat::Mlir:
    return "graph-dialect MLIR";
  }
  return "unknown format";
}

Error makeError(StringRef path, StringRef node, const Twine &message) {
  std::string text = path.str();
  if (!node.empty()) {
    text += ":" + node.str();
  }
  text += ": " + message.str();
  return createStringError(inconvertibleErrorCode(), text);
}

Expected<ModelFormat> detectFormat(StringRef path) {
  sys::fs::file_status status;
  if (std::error_code ec = sys::fs::status(path, status)) {
    return makeError(path, "", "cannot open: " + ec.message());
  }
  if (sys::fs::is_directory(status)) {
    SmallString<256> pb(path);
    sys::path::append(pb, "saved_model.pb");
    if (sys::fs::exists(pb)) {
      return ModelFormat::SavedModel;
    }
    return makeError(path, "",
                     "directory holds no saved_model.pb; a SavedModel "
                     "directory is the only directory graphc reads");
  }
  if (sys::path::filename(path) == "saved_model.pb") {
    return ModelFormat::SavedModel;
  }
  StringRef ext = sys::path::extension(path);
  std::optional<ModelFormat> format =
      StringSwitch<std::optional<ModelFormat>>(ext)
          .Case(".onnx", ModelFormat::Onnx)
          .Case(".pb", ModelFormat::GraphDefBinary)
          .Case(".pbtxt", ModelFormat::GraphDefText)
          .Case(".meta", ModelFormat::MetaGraph)
          .Case(".mlir", ModelFormat::Mlir)
          .Default(std::nullopt);
  if (!format) {
    return makeError(path, "",
                     "unknown model format '" + ext +
                         "'; expected .onnx, .pb, .pbtxt, .meta, .mlir or a "
                         "SavedModel directory");
  }
  return *format;
}

Expected<std::unique_ptr<MemoryBuffer>> readFileBounded(StringRef path,
                                                        uint64_t maxBytes) {
  sys::fs::file_status status;
  if (std::error_code ec = sys::fs::status(path, status)) {
    return makeError(path, "", "cannot open: " + ec.message());
  }
  if (status.type() != sys::fs::file_type::regular_file) {
    return makeError(path, "", "not a regular file");
  }
  if (status.getSize() > maxBytes) {
    return makeError(path, "",
                     "file is " + Twine(status.getSize()) +
                         " bytes, over the limit of " + Twine(maxBytes));
  }
  ErrorOr<std::unique_ptr<MemoryBuffer>> buffer =
      MemoryBuffer::getFile(path, /*IsText=*/false,
                            /*RequiresNullTerminator=*/false);
  if (!buffer) {
    return makeError(path, "", "cannot read: " + buffer.getError().message());
  }
  return std::move(*buffer);
}

} // namespace graphc::import
