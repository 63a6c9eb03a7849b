//===- InitAll.cpp - register graphc's dialects and passes
//-----------------===//

#include "graphc/InitAll.h"
#include "graphc/Analysis/Passes.h"
#include "graphc/Analysis/Planning.h"
#include "graphc/Autodiff/Passes.h"
#include "graphc/Conversion/Passes.h"

#include "dist/DistDialect.h"
#include "graph/GraphDialect.h"
#include "graph/Passes.h"
#include "graphc/Pipelines/CpuCodegen.h"
#include "graphc/Pipelines/CudaCodegen.h"
#include "graphc/Pipelines/GraphcPipelines.h"
#include "graphc/Transforms/Passes.h"
#include "stablehlo/StablehloDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/DialectRegistry.h"

void graphc::registerAllDialects(mlir::DialectRegistry &registry) {
  registry.insert<graph::GraphDialect, dist::DistDialect,
                  stablehlo::StablehloDialect, mlir::func::FuncDialect,
                  mlir::arith::ArithDialect, mlir::tensor::TensorDialect,
                  mlir::scf::SCFDialect>();
}

void graphc::registerAllPasses() {
  static bool once = [] {
    graph::registerGraphPasses();
    registerConversionPasses();
    registerAnalysisPasses();
    registerCpuCodegenPasses();
    registerCudaCodegenPasses();
    registerTransformsPasses();
    registerAutodiffPasses();
    registerGraphcPipelines();
    registerAutoPlacementStrategy();
    return true;
  }();
  (void)once;
}
