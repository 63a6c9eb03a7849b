//===- PrintCost.cpp - report op costs as remarks
//--------------------------===//

#include "graph/GraphOps.h"
#include "graph/Passes.h"

namespace graphc::graph {
#define GEN_PASS_DEF_GRAPHPRINTCOST
#include "graph/Passes.h.inc"
} // namespace graphc::graph

using namespace mlir;
using namespace graphc::graph;

namespace {

std::string format(std::optional<int64_t> value) {
  return value ? std::to_string(*value) : std::string("?");
}

struct GraphPrintCostPass
    : public graphc::graph::impl::GraphPrintCostBase<GraphPrintCostPass> {
  void runOnOperation() override {
    getOperation()->walk([](FunctionOpInterface func) {
      std::optional<int64_t> flops = 0, bytes = 0;
      func.walk([&](CostOpInterface op) {
        std::optional<int64_t> f = op.getFlops(), b = op.getBytesMoved();
        op->emitRemark() << "flops = " << format(f)
                         << ", bytes = " << format(b);
        flops = flops && f ? std::optional<int64_t>(*flops + *f) : std::nullopt;
        bytes = bytes && b ? std::optional<int64_t>(*bytes + *b) : std::nullopt;
      });
      func->emitRemark() << "total flops = " << format(flops)
                         << ", bytes = " << format(bytes);
    });
  }
};

} // namespace
