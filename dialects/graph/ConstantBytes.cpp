//===- ConstantBytes.cpp - graph.constants grouped by their bytes ---------===//

#include "graph/ConstantBytes.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/DialectResourceBlobManager.h"

using namespace mlir;

namespace graphc::graph {

std::optional<BytesKey> getBytesKey(Attribute value) {
  if (auto resource = dyn_cast<DenseResourceElementsAttr>(value)) {
    return BytesKey{resource.getRawHandle().getKey(), Attribute()};
  }
  if (auto dense = dyn_cast<DenseElementsAttr>(value)) {
    return BytesKey{StringRef(), dense};
  }
  return std::nullopt;
}

ConstantsByBytes groupConstantsByBytes(ModuleOp module) {
  ConstantsByBytes result;
  module.walk([&](Operation *op) {
    op->getAttrDictionary().walk([&](Attribute attr) {
      if (std::optional<BytesKey> key = getBytesKey(attr)) {
        ++result.references[*key];
      }
    });
    if (auto constant = dyn_cast<ConstantOp>(op)) {
      if (std::optional<BytesKey> key = getBytesKey(constant.getValue())) {
        result.constants[*key].push_back(constant);
      }
    }
  });
  return result;
}

} // namespace graphc::graph
