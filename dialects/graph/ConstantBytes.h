//===- ConstantBytes.h - graph.constants grouped by the bytes behind them -===//
//
// Passes that rewrite a weight's bytes (graph-pretranspose-weights,
// graphc-cpu-prepack-conv-filters) may do so only when every reference to
// those bytes is a constant they rewrite: several constants can share one
// dense_resource blob or one uniqued dense attribute, and other attributes
// can name the same blob.
//
//===----------------------------------------------------------------------===//

#ifndef GRAPHC_DIALECT_GRAPH_CONSTANTBYTES_H
#define GRAPHC_DIALECT_GRAPH_CONSTANTBYTES_H

#include "graph/GraphOps.h"

#include "mlir/IR/BuiltinOps.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/SmallVector.h"

#include <optional>
#include <utility>

namespace graphc::graph {

/// What identifies the bytes behind an elements attribute: a dense_resource
/// blob by its key (attributes of different types may name one blob), a
/// dense attribute by itself (attributes are uniqued).
using BytesKey = std::pair<llvm::StringRef, mlir::Attribute>;

std::optional<BytesKey> getBytesKey(mlir::Attribute value);

struct ConstantsByBytes {
  /// Every reference to each blob or dense value, in any attribute of any op.
  llvm::DenseMap<BytesKey, int64_t> references;
  /// The graph.constants among them, in module order.
  llvm::MapVector<BytesKey, llvm::SmallVector<ConstantOp>> constants;

  /// True when the constants of `key` are all that refer to its bytes.
  bool onlyConstants(const BytesKey &key) const {
    auto it = constants.find(key);
    return it != constants.end() &&
           references.lookup(key) == int64_t(it->second.size());
  }
};

ConstantsByBytes groupConstantsByBytes(mlir::ModuleOp module);

} // namespace graphc::graph

#endif // GRAPHC_DIALECT_GRAPH_CONSTANTBYTES_H
