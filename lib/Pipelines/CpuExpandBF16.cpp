//===- CpuExpandBF16.cpp - bf16 conversions as integer arithmetic ---------===//
//
// See CpuPasses.td: keeps float <-> bf16 conversions from becoming calls of
// compiler-rt builtins on CPUs without native bf16 conversion instructions.
//
//===----------------------------------------------------------------------===//

#include "CpuPasses.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Transforms/Passes.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace graphc {
#define GEN_PASS_DEF_CPUEXPANDBF16
#include "CpuPasses.h.inc"
} // namespace graphc

using namespace mlir;

namespace {

struct CpuExpandBF16 : public graphc::impl::CpuExpandBF16Base<CpuExpandBF16> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    arith::populateExpandBFloat16Patterns(patterns);
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns)))) {
      return signalPassFailure();
    }
  }
};

} // namespace
