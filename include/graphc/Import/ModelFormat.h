//===- ModelFormat.h - model file formats and bounded loading ----*- C++
//-*-===//
//
// Which reader a model path goes to, and reading a file into memory with a size
// limit, so that a huge or special file is refused instead of exhausting
// memory.
//
//===----------------------------------------------------------------------===//

#ifndef GRAPHC_IMPORT_MODELFORMAT_H
#define GRAPHC_IMPORT_MODELFORMAT_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/MemoryBuffer.h"

#include <cstdint>
#include <memory>

namespace graphc::import {

/// The input formats graphc reads.
enum class ModelFormat {
  Onnx,           ///< ONNX ModelProto (.onnx)
  GraphDefBinary, ///< TensorFlow GraphDef, binary (.pb)
  GraphDefText,   ///< TensorFlow GraphDef, text format (.pbtxt)
  MetaGraph,      ///< TensorFlow MetaGraphDef, binary (.meta)
  SavedModel,     ///< TensorFlow SavedModel directory (saved_model.pb)
  Mlir,           ///< graph-dialect MLIR (.mlir)
};

/// A short name for diagnostics ("ONNX model", "GraphDef (text)").
llvm::StringRef getFormatName(ModelFormat format);

/// Limits every reader applies. The defaults stay under protobuf's 2 GiB
/// message limit.
struct ReadLimits {
  /// Largest file a reader loads, in bytes.
  uint64_t maxFileBytes = (uint64_t(2) << 30) - 1;
  /// Largest total of ONNX external data files a model may reference.
  uint64_t maxExternalBytes = uint64_t(64) << 30;
  /// Deepest message nesting protobuf accepts (nested functions, subgraphs).
  int maxRecursionDepth = 100;
};

/// Decides the format of `path` from what it is (a directory holding
/// saved_model.pb is a SavedModel) and its extension. Fails with a message
/// naming the path when neither tells.
llvm::Expected<ModelFormat> detectFormat(llvm::StringRef path);

/// Reads a whole regular file, refusing directories, devices and files over
/// `maxBytes`. Errors name the path.
llvm::Expected<std::unique_ptr<llvm::MemoryBuffer>>
readFileBounded(llvm::StringRef path, uint64_t maxBytes);

/// Makes an error "PATH: MESSAGE" (or "PATH:NODE: MESSAGE" when `node` is not
/// empty), the form every reader and importer diagnostic takes.
llvm::Error makeError(llvm::StringRef path, llvm::StringRef node,
                      const llvm::Twine &message);

} // namespace graphc::import

#endif // GRAPHC_IMPORT_MODELFORMAT_H
