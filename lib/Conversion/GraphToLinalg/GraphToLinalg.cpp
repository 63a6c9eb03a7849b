//===- GraphToLinalg.cpp - the graph-to-linalg conversion pass ------------===//

#include "graphc/Conversion/GraphToLinalg/GraphToLinalg.h"
#include "graphc/Conversion/Passes.h"

#include "LoweringUtils.h"
#include "SmallTypes.h"

#include "graph/GraphDialect.h"
#include "graph/GraphOps.h"

#include "mlir/Dialect/ControlFlow/IR/ControlFlowOps.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

namespace graphc {
#define GEN_PASS_DEF_CONVERTGRAPHTOLINALG
#include "graphc/Conversion/Passes.h.inc"
} // namespace graphc

using namespace mlir;

namespace graphc {

void populateGraphToLinalgPatterns(RewritePatternSet &patterns,
                                   const TypeConverter *converter) {
  lowering::populateElementwisePatterns(patterns, converter);
  lowering::populateReductionPatterns(patterns, converter);
  lowering::populateDataMovementPatterns(patterns, converter);
  lowering::populateNNPatterns(patterns, converter);
  lowering::populateIndexingPatterns(patterns, converter);
  lowering::populateTrainingPatterns(patterns, converter);
  lowering::populateRecurrentPatterns(patterns, converter);
  lowering::populateExtraPatterns(patterns, converter);
  lowering::populateSamplingPatterns(patterns, converter);
}

void configureGraphToLinalgTarget(ConversionTarget &target) {
  target.addLegalDialect<arith::ArithDialect, cf::ControlFlowDialect,
                         linalg::LinalgDialect, math::MathDialect,
                         scf::SCFDialect, tensor::TensorDialect>();
  target.addIllegalDialect<graph::GraphDialect>();
  // Variables are runtime-owned buffers; they are lowered with the runtime
  // calls, not here.
  target.addLegalOp<graph::VariableOp, graph::ReadVariableOp,
                    graph::AssignVariableOp>();
}

namespace {

struct ConvertGraphToLinalgPass
    : impl::ConvertGraphToLinalgBase<ConvertGraphToLinalgPass> {
  void runOnOperation() override {
    // Reject unranked tensors up front with one clear message per op rather
    // than a generic legalization failure.
    bool hasUnranked = false;
    getOperation().walk([&](Operation *op) {
      if (!isa_and_nonnull<graph::GraphDialect>(op->getDialect()) ||
          isa<graph::VariableOp, graph::ReadVariableOp,
              graph::AssignVariableOp>(op)) {
        return;
      }
      auto isUnranked = [](Type type) { return isa<UnrankedTensorType>(type); };
      if (llvm::any_of(op->getOperandTypes(), isUnranked) ||
          llvm::any_of(op->getResultTypes(), isUnranked)) {
        op->emitError("graph-to-linalg: unranked tensor not supported; run "
                      "graph-infer-shapes or give --input-shape");
        hasUnranked = true;
      }
    });
    if (hasUnranked) {
      return signalPassFailure();
    }
    // Small types first: 2- and 4-bit integers become 8-bit ones, which
    // the unsigned legalization below then sees like any other.
    if (failed(lowering::legalizeSmallTypes(getOperation()))) {
      return signalPassFailure();
    }
    if (failed(lowering::lowerUnsignedIntegers(getOperation()))) {
      return signalPassFailure();
    }

    ConversionTarget target(getContext());
    configureGraphToLinalgTarget(target);
    RewritePatternSet patterns(&getContext());
    populateGraphToLinalgPatterns(patterns);
    if (failed(applyPartialConversion(getOperation(), target,
                                      std::move(patterns)))) {
      signalPassFailure();
    }
  }
};

} // namespace
} // namespace graphc
