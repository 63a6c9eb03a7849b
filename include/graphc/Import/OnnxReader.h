//===- OnnxReader.h - read ONNX models from disk ------------------*- C++ -*-===//
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

/// The oldest default-domain opset the importer accepts.
constexpr int64_t kMinOnnxOpset = 7;

/// Parses a binary ModelProto held in `data` and checks it is a model graphc
/// can take (has a graph, default-domain opset >= 7). `path` is only for
/// messages.
llvm::Expected<std::unique_ptr<onnx::ModelProto>>
parseOnnxModel(llvm::StringRef data, llvm::StringRef path,
               const ReadLimits &limits = {});

/// Reads and parses the ONNX model at `path`.
llvm::Expected<std::unique_ptr<onnx::ModelProto>>
readOnnxModel(llvm::StringRef path, const ReadLimits &limits = {});

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
