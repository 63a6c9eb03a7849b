//===- CpuApproximateExp.cpp - f32 exp as a vector polynomial -------------===//
//
// See CpuPasses.td: keeps f32 math.exp (softmax, sigmoid and tanh after
// math-expand-ops) from becoming one libm expf call per vector lane.
//
//===----------------------------------------------------------------------===//

#include "CpuPasses.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Math/Transforms/Passes.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace graphc {
#define GEN_PASS_DEF_CPUAPPROXIMATEEXP
#include "CpuPasses.h.inc"
} // namespace graphc

using namespace mlir;

namespace {

struct CpuApproximateExp
    : public graphc::impl::CpuApproximateExpBase<CpuApproximateExp> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    populateMathPolynomialApproximationPatterns(
        patterns, [](StringRef name) { return name == "math.exp"; });
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns)))) {
      return signalPassFailure();
    }
  }
};

} // namespace
