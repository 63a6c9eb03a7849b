//===- ImportFuzz.h - bytes -> importer -> verifier -> shape inference ----===//
//
// The end-to-end importer fuzz targets share this: the input bytes become a
// model file, which the importer translates into the graph dialect exactly as
// graphc does; a module that comes out must verify, and graph-infer-shapes
// must run on it without crashing (failing with a diagnostic is fine).
//
//===----------------------------------------------------------------------===//
#ifndef GRAPHC_TEST_FUZZ_IMPORTFUZZ_H
#define GRAPHC_TEST_FUZZ_IMPORTFUZZ_H

#include "FuzzCommon.h"

#include "dist/DistDialect.h"
#include "graph/GraphDialect.h"
#include "graph/Passes.h"
#include "graphc/Import/Importers.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdio>
#include <cstdlib>
#include <string>
#include <unistd.h>

namespace graphc::fuzz {

/// The importers read paths (external data, SavedModel layout), so each
/// input is written to one file per process, in a private directory so that
/// relative external-data paths resolve to nothing the fuzzer did not write.
inline std::string modelPath(const char *name) {
  static std::string dir = [] {
    std::string templ =
        (std::getenv("TMPDIR") ? std::getenv("TMPDIR") : std::string("/tmp")) +
        "/graphc-fuzz-XXXXXX";
    if (!mkdtemp(templ.data())) {
      std::abort();
    }
    return templ;
  }();
  return dir + "/" + name;
}

/// Imports `data` as `format`, verifies the result and infers shapes.
/// Aborts (a finding) if the importer returns a module that does not verify:
/// the importer contract is "a module that verifies, or null with an error".
inline int importVerifyInfer(const uint8_t *data, size_t size,
                             import::ModelFormat format, const char *name) {
  quietProtobuf();
  std::string path = modelPath(name);
  {
    FILE *f = std::fopen(path.c_str(), "wb");
    if (!f) {
      std::abort();
    }
    if (size && std::fwrite(data, 1, size, f) != size) {
      std::abort();
    }
    std::fclose(f);
  }

  mlir::DialectRegistry registry;
  registry.insert<graph::GraphDialect, dist::DistDialect,
                  mlir::func::FuncDialect, mlir::arith::ArithDialect,
                  mlir::tensor::TensorDialect, mlir::scf::SCFDialect>();
  mlir::MLIRContext context(registry, mlir::MLIRContext::Threading::DISABLED);
  // Diagnostics are the expected outcome for most inputs; keep them quiet
  // unless GRAPHC_FUZZ_VERBOSE is set (to see why an input is refused).
  static bool verbose = std::getenv("GRAPHC_FUZZ_VERBOSE") != nullptr;
  context.getDiagEngine().registerHandler([](mlir::Diagnostic &diag) {
    if (verbose) {
      llvm::errs() << diag.getLocation() << ": " << diag << "\n";
    }
    return mlir::success();
  });

  import::ImportOptions options;
  options.limits = limits();
  mlir::OwningOpRef<mlir::ModuleOp> module =
      format == import::ModelFormat::Onnx
          ? import::importOnnx(path, context, options)
          : import::importGraphDef(path, format, context, options);
  if (!module) {
    return 0;
  }
  if (mlir::failed(mlir::verify(*module))) {
    llvm::errs() << "fuzz: the importer returned a module that does not "
                    "verify\n";
    std::abort();
  }
  // Failing with a diagnostic is allowed; succeeding with IR that does not
  // verify is a finding, as is any crash or sanitizer report.
  mlir::PassManager pm(&context);
  pm.enableVerifier(false);
  pm.addPass(graph::createGraphInferShapes());
  if (mlir::succeeded(pm.run(*module)) && mlir::failed(mlir::verify(*module))) {
    llvm::errs() << "fuzz: graph-infer-shapes left a module that does not "
                    "verify\n";
    std::abort();
  }
  return 0;
}

} // namespace graphc::fuzz

#endif // GRAPHC_TEST_FUZZ_IMPORTFUZZ_H
