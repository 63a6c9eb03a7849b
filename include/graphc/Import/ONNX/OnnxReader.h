//===- OnnxReader.h - read ONNX models from disk ------------------*- C++
//-*-===//
//
// Parses an ONNX ModelProto (Debian's libonnx-dev classes) with size and
// nesting limits, checks the opset, and resolves external data files only
// inside the model's own directory.
//
//===----------------------------------------------------------------------===//

#ifndef GRAPHC_IMPORT_ONNXREADER_H
#define GRAPHC_IMPORT_ONNXREADER_H

#include "graphc/Import/ModelFormat.h"

#include "onnx/onnx_pb.h"

#include <memory>
#include <string>

namespace graphc::import {

/// The oldest default-domain opset the reader accepts: every released one.
/// Below opset 7 the importer takes only the ops whose old forms it
/// translates (see docs/design/importers.md) and names any other.
constexpr int64_t kMinOnnxOpset = 1;

/// Parses a binary ModelProto held in `data` and checks it is a model graphc
/// can take (has a graph, default-domain opset >= kMinOnnxOpset, or a
/// legacy IR 1-2 model without opset_import). `path` is only for messages.
llvm::Expected<std::unique_ptr<onnx::ModelProto>>
parseOnnxModel(llvm::StringRef data, llvm::StringRef path,
               const ReadLimits &limits = {});

/// Checks a parsed model as parseOnnxModel does (IR version, graph, opset).
llvm::Error checkOnnxModel(const onnx::ModelProto &model, llvm::StringRef path);

/// Reads and parses the ONNX model at `path`, streaming from the file (the
/// file is not held in memory next to the parsed model).
llvm::Expected<std::unique_ptr<onnx::ModelProto>>
readOnnxModel(llvm::StringRef path, const ReadLimits &limits = {});

/// Applies --freeze-input: for each "NAME=FILE.pb" spec, reads the
/// TensorProto in FILE and turns graph input NAME of `model` into an
/// initializer holding it. The tensor's element type must match the input's
/// and its shape must fit the input's declared dims. `modelPath` names the
/// model in messages.
llvm::Error freezeOnnxInputs(onnx::ModelProto &model,
                             llvm::ArrayRef<std::string> specs,
                             llvm::StringRef modelPath,
                             const ReadLimits &limits = {});

/// Whether `model` is of IR version 1 or 2 without opset_import, which
/// onnx.checker reads as default-domain opset 1. parseOnnxModel accepts
/// such a model; the importer then takes only ops whose opset-1 form it
/// knows.
bool isLegacyOnnxModel(const onnx::ModelProto &model);

/// The default-domain opset version of `model` (1 when it declares none).
int64_t getOnnxOpset(const onnx::ModelProto &model);

/// Returns the bytes of `tensor`'s external data. The location must be a
/// relative path that stays inside `modelDir`: no absolute path, no `..`
/// component, and no symbolic link that resolves outside it; offset and length
/// must lie inside the file. `modelPath` names the model in messages.
llvm::Expected<std::string>
readOnnxExternalData(const onnx::TensorProto &tensor, llvm::StringRef modelDir,
                     llvm::StringRef modelPath, const ReadLimits &limits = {});

} // namespace graphc::import

#endif // GRAPHC_IMPORT_ONNXREADER_H
