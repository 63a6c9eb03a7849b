//===- OnnxOps.h - the ONNX importer's op registry --------------*- C++ -*-===//
//
// Private to lib/Import. One entry per ONNX op the importer knows: which
// translator takes it, from which opset, what it creates. importNode
// dispatches through it; --list-unsupported and the generated support table
// (graphc --print-op-table) read the same entries through SupportedOps.h.
//
//===----------------------------------------------------------------------===//

#ifndef GRAPHC_LIB_IMPORT_ONNXOPS_H
#define GRAPHC_LIB_IMPORT_ONNXOPS_H

#include "OnnxImporterImpl.h"

#include "graphc/Import/SupportedOps.h"

namespace graphc::import {

/// A translator: the node's results, or failure having emitted at `at`.
using OnnxTranslator = FailureOr<llvm::SmallVector<Value>> (OnnxImporter::*)(
    const GraphNode &node, const onnx::NodeProto &def, llvm::ArrayRef<Value> in,
    Location at);

/// A family of translations and the file (under lib/Import) that holds it.
struct OnnxFamily {
  const char *file;
  OnnxTranslator translate;
};

/// The registry entry of ONNX op `op` in `domain` ("" or "ai.onnx" for the
/// default one), with its rule; null when the importer has no rule for it.
struct OnnxOpEntry {
  const OpRule *rule;
  const OnnxFamily *family;
};
std::optional<OnnxOpEntry> lookupOnnxEntry(StringRef domain, StringRef op);

} // namespace graphc::import

#endif // GRAPHC_LIB_IMPORT_ONNXOPS_H
