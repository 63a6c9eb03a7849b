//===- SupportedOps.h - which framework ops the importers take ----*- C++ -*-===//
//
// One table per framework says what the importer does with each op: map it
// onto graph-dialect ops (named, so availability follows the dialect as it is
// built), handle it structurally (placeholders, constants, variables, calls),
// turn it into a graph input (TF queues), or drop it with a warning (summaries,
// Save/Restore). `graphc --list-unsupported` and the importers both read it.
//
//===----------------------------------------------------------------------===//

#ifndef GRAPHC_IMPORT_SUPPORTEDOPS_H
#define GRAPHC_IMPORT_SUPPORTEDOPS_H

#include "graphc/Import/ModelFormat.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <string>
#include <vector>

namespace mlir {
class MLIRContext;
} // namespace mlir

namespace graphc::import {

enum class OpAction {
  Map,        ///< becomes the listed ops
  GraphInput, ///< becomes an input of the imported function (TF queues)
  Drop,       ///< serves only TensorFlow's runtime; dropped with a warning
};

struct OpRule {
  llvm::StringRef op;
  OpAction action;
  /// Comma-separated full names of the ops the translation creates
  /// ("graph.conv,graph.transpose"); empty when it creates none.
  llvm::StringRef creates;
};

/// The rule for ONNX op `op` in `domain` ("" is the default domain), or null.
const OpRule *lookupOnnxOp(llvm::StringRef domain, llvm::StringRef op);
/// The rule for TensorFlow op `op`, or null.
const OpRule *lookupTFOp(llvm::StringRef op);

/// Whether the importer has a translation for the op today (defined next to
/// the translations, in OnnxImporter.cpp and GraphDefImporter.cpp). A rule
/// without one is listed by --list-unsupported as "no translation yet".
bool isOnnxOpTranslated(llvm::StringRef op);
bool isTFOpTranslated(llvm::StringRef op);

/// Returns the ops of `rule.creates` that `context` does not know (not loaded
/// or not yet part of the dialect); empty when the rule is usable.
std::vector<std::string> missingOps(const OpRule &rule,
                                    mlir::MLIRContext &context);

/// One op type the importer cannot take, with every node that uses it.
struct UnsupportedOp {
  std::string op;     ///< "Conv2D", or "com.microsoft.FusedMatMul"
  std::string reason; ///< "no rule", or "needs graph.conv"
  std::vector<std::string> nodes;
};

/// Reads the model at `path` and lists, in one pass over every graph,
/// function body and subgraph, each op type the importer cannot take.
/// Sorted by op name.
llvm::Expected<std::vector<UnsupportedOp>>
listUnsupportedOps(llvm::StringRef path, ModelFormat format,
                   mlir::MLIRContext &context, const ReadLimits &limits = {});

} // namespace graphc::import

#endif // GRAPHC_IMPORT_SUPPORTEDOPS_H
