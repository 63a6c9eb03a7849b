//===- Importers.h - translate ONNX and TensorFlow models to MLIR -*- C++
//-*-===//
//
// The entry points graphc's driver calls: read a model and build a module in
// the graph dialect, func @main over tensors. Every op carries a location
// "FILE:NODE". Errors are MLIR diagnostics at those locations; on failure
// the result is null.
//
//===----------------------------------------------------------------------===//

#ifndef GRAPHC_IMPORT_IMPORTERS_H
#define GRAPHC_IMPORT_IMPORTERS_H

#include "graphc/Import/ModelFormat.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OwningOpRef.h"

#include <string>
#include <vector>

namespace graphc::import {

struct ImportOptions {
  /// --inputs: NAME[:SHAPE] entries; empty picks the graph's own inputs.
  std::vector<std::string> inputs;
  /// --outputs: NAME entries; empty picks the graph's own outputs (sinks).
  std::vector<std::string> outputs;
  /// --input-shape: NAME:1x3x224x224 (`?` keeps a dimension dynamic).
  std::vector<std::string> inputShapes;
  /// --freeze-input: NAME=FILE.pb entries (ONNX): the graph input NAME
  /// becomes a constant holding the TensorProto in FILE, so values that fix
  /// shapes (Reshape's shape, Reduce's axes, Slice's starts...) are known at
  /// compile time.
  std::vector<std::string> frozenInputs;
  /// --batch N: every input's unknown leading dimension becomes N, and an
  /// input still without a static shape (unknown rank, another unknown
  /// dimension) is an error naming the --input-shape to add. TensorFlow
  /// Placeholders without a rank take one from their uses
  /// (docs/user/graphc.md). 0: shapes stay as the file gives them.
  int64_t batch = 0;
  /// Initializers become variables (ONNX training) instead of constants.
  bool training = false;
  /// --train-op (TensorFlow): nodes whose effects (variable updates) are
  /// imported besides the outputs.
  std::vector<std::string> trainOps;
  ReadLimits limits;
};

/// Imports the ONNX model at `path`.
mlir::OwningOpRef<mlir::ModuleOp> importOnnx(llvm::StringRef path,
                                             mlir::MLIRContext &context,
                                             const ImportOptions &options);

/// Imports the TensorFlow graph at `path` (GraphDef binary or text,
/// MetaGraphDef, SavedModel directory).
mlir::OwningOpRef<mlir::ModuleOp> importGraphDef(llvm::StringRef path,
                                                 ModelFormat format,
                                                 mlir::MLIRContext &context,
                                                 const ImportOptions &options);

} // namespace graphc::import

#endif // GRAPHC_IMPORT_IMPORTERS_H
