//===- SupportedOps.h - which framework ops the importers take ----*- C++
//-*-===//
//
// One registry per framework (lib/Import/ONNX/OnnxOps.cpp,
// lib/Import/TF/TFOps.cpp) says what the importer does with each op: which
// translator takes it and from which opset, the graph-dialect ops it creates
// (named, so availability follows the dialect as it is built), or that it
// becomes a graph input (TF queues) or is dropped with a warning (summaries,
// Save/Restore). The importers dispatch through it; `graphc
// --list-unsupported` and `graphc --print-op-table` read it, so they cannot
// drift apart.
//
//===----------------------------------------------------------------------===//

#ifndef GRAPHC_IMPORT_SUPPORTEDOPS_H
#define GRAPHC_IMPORT_SUPPORTEDOPS_H

#include "graphc/Import/ModelFormat.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <string>
#include <vector>

namespace llvm {
class raw_ostream;
} // namespace llvm

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
  /// ONNX domain ("" for the default one, "ai.onnx.preview"); "" for TF.
  llvm::StringRef domain;
  OpAction action;
  /// Oldest (ONNX) opset whose form is translated; 0 for TF.
  int64_t since = 0;
  /// Newest opset whose form is known to be translated; 0: no limit.
  int64_t until = 0;
  /// Comma-separated full names of the ops the translation creates
  /// ("graph.conv,graph.transpose"); empty when it creates none.
  llvm::StringRef creates;
  /// The file (under lib/Import) that holds the translation; empty when the
  /// op has a rule but no translation yet.
  llvm::StringRef file;
  /// What a user should know (forms refused, limits); may be empty.
  llvm::StringRef notes;

  bool translated() const { return action != OpAction::Map || !file.empty(); }
};

/// The rule for ONNX op `op` in `domain` ("" is the default domain), or null.
const OpRule *lookupOnnxOp(llvm::StringRef domain, llvm::StringRef op);
/// The rule for TensorFlow op `op`, or null.
const OpRule *lookupTFOp(llvm::StringRef op);

/// Every rule of each registry, sorted by (domain, op).
llvm::ArrayRef<OpRule> onnxOpRules();
llvm::ArrayRef<OpRule> tfOpRules();

/// Why an ONNX model of default-domain `opset` cannot take `rule` ("needs
/// opset 6 or later"), or "" when it can.
std::string onnxOpsetProblem(const OpRule &rule, int64_t opset);

/// The support tables of docs/user/import-ops.md (Markdown), generated from
/// the registries: `graphc --print-op-table` prints it and a test compares.
void printOpTables(llvm::raw_ostream &os);

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
