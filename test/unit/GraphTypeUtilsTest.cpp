//===- GraphTypeUtilsTest.cpp - unit tests for graph shape helpers --------===//

#include "graph/GraphOps.h"

#include "mlir/IR/MLIRContext.h"

#include <gtest/gtest.h>

using namespace mlir;
using namespace graphc::graph;

namespace {

constexpr int64_t kDyn = ShapedType::kDynamic;

SmallVector<int64_t> broadcast(ArrayRef<int64_t> a, ArrayRef<int64_t> b,
                               bool *ok = nullptr) {
  SmallVector<int64_t> out;
  bool succeeded =
      llvm::succeeded(broadcastShapes(std::nullopt, "test", a, b, out));
  if (ok) {
    *ok = succeeded;
  }
  return out;
}

TEST(BroadcastShapes, NumPyRules) {
  EXPECT_EQ(broadcast({8, 1, 6, 1}, {7, 1, 5}),
            (SmallVector<int64_t>{8, 7, 6, 5}));
  EXPECT_EQ(broadcast({}, {3, 4}), (SmallVector<int64_t>{3, 4}));
  EXPECT_EQ(broadcast({5, 4}, {1}), (SmallVector<int64_t>{5, 4}));
  EXPECT_EQ(broadcast({15, 3, 5}, {15, 1, 5}),
            (SmallVector<int64_t>{15, 3, 5}));
}

TEST(BroadcastShapes, DynamicDimensions) {
  // A dynamic size meets 1 and stays dynamic; it meets N and must be N.
  EXPECT_EQ(broadcast({kDyn, 4}, {1, 4}), (SmallVector<int64_t>{kDyn, 4}));
  EXPECT_EQ(broadcast({kDyn, 4}, {3, 4}), (SmallVector<int64_t>{3, 4}));
  EXPECT_EQ(broadcast({kDyn}, {kDyn}), (SmallVector<int64_t>{kDyn}));
}

TEST(BroadcastShapes, RejectsMismatch) {
  bool ok = true;
  broadcast({2, 3}, {4, 3}, &ok);
  EXPECT_FALSE(ok);
  broadcast({3}, {4}, &ok);
  EXPECT_FALSE(ok);
}

TEST(RefineTensorType, TakesStaticDimensionsFromEither) {
  MLIRContext ctx;
  Type f32 = Float32Type::get(&ctx);
  auto a = RankedTensorType::get({kDyn, 4}, f32);
  auto b = RankedTensorType::get({2, kDyn}, f32);
  EXPECT_EQ(refineTensorType(a, b), RankedTensorType::get({2, 4}, f32));
  EXPECT_EQ(refineTensorType(UnrankedTensorType::get(f32), a), a);
  // Conflicts: a static mismatch, a rank mismatch, an element type mismatch.
  EXPECT_FALSE(refineTensorType(RankedTensorType::get({3, 4}, f32),
                                RankedTensorType::get({2, 4}, f32)));
  EXPECT_FALSE(refineTensorType(RankedTensorType::get({4}, f32), a));
  EXPECT_FALSE(refineTensorType(
      a, RankedTensorType::get({kDyn, 4}, IntegerType::get(&ctx, 32))));
}

TEST(StaticSizes, BytesRoundUpPerElement) {
  MLIRContext ctx;
  auto f32 = RankedTensorType::get({2, 3}, Float32Type::get(&ctx));
  auto i1 = RankedTensorType::get({10}, IntegerType::get(&ctx, 1));
  EXPECT_EQ(getStaticSizeInBytes(f32), 24);
  EXPECT_EQ(getStaticSizeInBytes(i1), 10);
  EXPECT_EQ(getStaticSizeInBytes(
                RankedTensorType::get({kDyn}, Float32Type::get(&ctx))),
            std::nullopt);
}

TEST(NormalizeAxis, WrapsNegativeAndRejectsOutOfRange) {
  EXPECT_EQ(*normalizeAxis(std::nullopt, "test", -1, 4), 3);
  EXPECT_EQ(*normalizeAxis(std::nullopt, "test", 0, 4), 0);
  EXPECT_TRUE(failed(normalizeAxis(std::nullopt, "test", 4, 4)));
  EXPECT_TRUE(failed(normalizeAxis(std::nullopt, "test", -5, 4)));
}

} // namespace
