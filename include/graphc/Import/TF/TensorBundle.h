//===- TensorBundle.h - read TensorFlow V2 checkpoints ------------*- C++
//-*-===//
//
// A SavedModel keeps its variables' values in a TensorFlow "tensor bundle":
// PREFIX.index, an SSTable (LevelDB table format, blocks optionally
// Snappy-compressed) mapping tensor names to BundleEntryProto, and
// PREFIX.data-NNNNN-of-MMMMM shards holding the raw bytes. This is the minimal
// reader for it; every offset and length is checked against the file.
//
//===----------------------------------------------------------------------===//

#ifndef GRAPHC_IMPORT_TENSORBUNDLE_H
#define GRAPHC_IMPORT_TENSORBUNDLE_H

#include "graphc/Import/ModelFormat.h"

#include "llvm/ADT/SmallVector.h"

#include <map>
#include <string>
#include <utility>
#include <vector>

namespace graphc::import {

/// One tensor of a checkpoint.
struct BundleTensor {
  int dtype = 0; ///< a tensorflow::DataType value
  llvm::SmallVector<int64_t, 4> shape;
  /// The stored bytes: little-endian row-major for numeric types; TensorFlow's
  /// own length-prefixed encoding for DT_STRING.
  std::string data;
  /// True when the entry is a slice of a partitioned variable (data empty).
  bool sliced = false;
};

/// All tensors of a checkpoint, by name.
struct TensorBundle {
  std::map<std::string, BundleTensor> tensors;
};

/// Decodes a whole SSTable held in `data` into its (key, value) pairs in key
/// order. Exposed for tests and fuzzing; `path` is only for messages.
llvm::Expected<std::vector<std::pair<std::string, std::string>>>
readSSTable(llvm::StringRef data, llvm::StringRef path);

/// Decompresses a raw Snappy block, refusing output over `maxBytes`.
llvm::Expected<std::string> decompressSnappy(llvm::StringRef data,
                                             uint64_t maxBytes);

/// Reads the checkpoint with file prefix `prefix` (e.g.
/// DIR/variables/variables).
llvm::Expected<TensorBundle> readTensorBundle(llvm::StringRef prefix,
                                              const ReadLimits &limits = {});

} // namespace graphc::import

#endif // GRAPHC_IMPORT_TENSORBUNDLE_H
