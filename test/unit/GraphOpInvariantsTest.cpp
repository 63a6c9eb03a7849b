//===- GraphOpInvariantsTest.cpp - every graph op keeps the dialect's rules
//===//
//
// The dialect promises that every op infers its result types and reports its
// cost; this test walks the registered ops so a new op cannot forget either.
//
//===----------------------------------------------------------------------===//

#include "graph/GraphOps.h"
#include "graphc/InitAll.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"

#include <gtest/gtest.h>

using namespace mlir;
using namespace graphc::graph;

TEST(GraphOpInvariants, EveryOpInfersTypesAndHasACost) {
  DialectRegistry registry;
  graphc::registerAllDialects(registry);
  MLIRContext ctx(registry);
  ctx.loadDialect<GraphDialect>();
  int count = 0;
  for (RegisteredOperationName name : ctx.getRegisteredOperations()) {
    if (name.getDialectNamespace() != GraphDialect::getDialectNamespace()) {
      continue;
    }
    ++count;
    EXPECT_TRUE(name.hasInterface<InferTypeOpInterface>())
        << name.getStringRef().str() << " does not infer its result types";
    EXPECT_TRUE(name.hasInterface<CostOpInterface>())
        << name.getStringRef().str() << " does not implement CostOpInterface";
  }
  EXPECT_GT(count, 0);
}
