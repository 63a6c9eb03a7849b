//===- PlacementStrategyTest.cpp - plugging a strategy into dist-place ----===//
//
// A placement strategy registered from outside lib/Transforms is picked by
// dist-place's `strategy=` option, and what it decides flows through
// dist-partition into a job that verifies: the extension point later
// strategies (pipeline stages, tensor parallelism) rely on.
//
//===----------------------------------------------------------------------===//

#include "graphc/InitAll.h"
#include "graphc/Transforms/Passes.h"
#include "graphc/Transforms/Placement.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"

#include <gtest/gtest.h>

using namespace mlir;
using namespace graphc;
using namespace graphc::transforms;

namespace {

/// Places the ops of the entry alternately on /job:worker/task:0 and 1.
class AlternateStrategy : public PlacementStrategy {
public:
  StringRef getName() const override { return "alternate"; }
  LogicalResult place(ModuleOp module, func::FuncOp entry,
                      const PlacementOptions &options) override {
    placeAllOn(module, entry, options.defaultTask);
    int64_t i = 0;
    for (Operation &op : entry.getBody().front().without_terminator()) {
      setPlacement(&op, dist::DeviceAttr::get(module.getContext(), "worker",
                                              std::nullopt, i++ % 2, "",
                                              std::nullopt));
    }
    return success();
  }
};

TEST(PlacementStrategyTest, RegisteredStrategyDrivesPartition) {
  registerPlacementStrategy(
      "alternate", [] { return std::make_unique<AlternateStrategy>(); });
  SmallVector<std::string> names = getPlacementStrategyNames();
  EXPECT_EQ(names,
            (SmallVector<std::string>{"alternate", "given", "pipeline", "ps",
                                      "replicas", "tensor-parallel"}));

  DialectRegistry registry;
  graphc::registerAllDialects(registry);
  MLIRContext ctx(registry);
  ctx.loadAllAvailableDialects();
  OwningOpRef<ModuleOp> module = parseSourceString<ModuleOp>(R"mlir(
    func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {
      %a = graph.relu %x : (tensor<4xf32>) -> tensor<4xf32>
      %b = graph.neg %a : (tensor<4xf32>) -> tensor<4xf32>
      %c = graph.exp %b : (tensor<4xf32>) -> tensor<4xf32>
      return %c : tensor<4xf32>
    }
  )mlir",
                                                             &ctx);
  ASSERT_TRUE(module);

  PassManager pm(&ctx);
  DistPlaceOptions place;
  place.strategy = "alternate";
  pm.addPass(createDistPlace(place));
  pm.addPass(createDistPartition());
  ASSERT_TRUE(succeeded(pm.run(*module)));
  ASSERT_TRUE(succeeded(verify(*module)));

  // relu (task 0) -> neg (task 1) -> exp (task 0) -> output (task 0): two
  // cut edges, one send each.
  SmallVector<std::string> tasks, keys;
  module->walk(
      [&](dist::TaskOp task) { tasks.push_back(task.getSymName().str()); });
  module->walk([&](dist::SendOp send) { keys.push_back(send.getKey().str()); });
  EXPECT_EQ(tasks, (SmallVector<std::string>{"worker0", "worker1"}));
  EXPECT_EQ(keys.size(), 2u);
}

TEST(PlacementStrategyTest, UnknownNameIsNull) {
  EXPECT_EQ(createPlacementStrategy("no-such-strategy"), nullptr);
  EXPECT_NE(createPlacementStrategy("given"), nullptr);
}

} // namespace
