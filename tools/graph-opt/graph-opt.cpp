//===- graph-opt.cpp - mlir-opt with graphc's dialects and passes ---------===//
//
// Runs and debugs pass pipelines: every upstream dialect and pass, plus the
// graph and dist dialects and every graphc pass and pipeline.
//
//===----------------------------------------------------------------------===//

#include "graphc/InitAll.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/InitAllPasses.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"

int main(int argc, char **argv) {
  mlir::registerAllPasses();
  graphc::registerAllPasses();

  mlir::DialectRegistry registry;
  mlir::registerAllDialects(registry);
  mlir::registerAllExtensions(registry);
  graphc::registerAllDialects(registry);

  return mlir::asMainReturnCode(mlir::MlirOptMain(
      argc, argv, "graphc pass driver: runs graph and dist pass pipelines\n",
      registry));
}
