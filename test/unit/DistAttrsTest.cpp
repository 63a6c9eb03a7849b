//===- DistAttrsTest.cpp - unit tests for dist attributes -----------------===//
//
// Device-string parsing (full, partial, legacy, invalid), compatibility,
// matching and merging of devices, cluster enumeration and containment, and
// the side effects that keep communication ops alive.
//
//===----------------------------------------------------------------------===//

#include "dist/DistOps.h"
#include "graphc/InitAll.h"

#include "mlir/AsmParser/AsmParser.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Parser/Parser.h"

#include <gtest/gtest.h>

using namespace mlir;
using namespace graphc::dist;

namespace {

class DistAttrsTest : public ::testing::Test {
protected:
  DistAttrsTest() { ctx.loadDialect<DistDialect>(); }

  /// Parses `s`, failing the test with the parser's message on error.
  DeviceAttr device(StringRef s) {
    std::string error;
    FailureOr<DeviceAttr> d = DeviceAttr::fromString(&ctx, s, error);
    EXPECT_TRUE(succeeded(d)) << s.str() << ": " << error;
    return succeeded(d) ? *d : DeviceAttr();
  }

  /// The error message for an invalid device string ("" when it parses).
  std::string deviceError(StringRef s) {
    std::string error;
    FailureOr<DeviceAttr> d = DeviceAttr::fromString(&ctx, s, error);
    EXPECT_TRUE(failed(d)) << s.str() << " parsed as " << d->str();
    return error;
  }

  MLIRContext ctx;
};

TEST_F(DistAttrsTest, ParsesFullySpecifiedDevice) {
  DeviceAttr d = device("/job:worker/replica:0/task:1/device:CPU:0");
  EXPECT_EQ(d.getJob(), "worker");
  EXPECT_EQ(d.getReplica(), 0);
  EXPECT_EQ(d.getTask(), 1);
  EXPECT_EQ(d.getDeviceType(), "CPU");
  EXPECT_EQ(d.getDeviceIndex(), 0);
  EXPECT_TRUE(d.isFullySpecified());
  EXPECT_FALSE(d.namesTask());
  EXPECT_EQ(d.str(), "/job:worker/replica:0/task:1/device:CPU:0");
}

TEST_F(DistAttrsTest, ParsesPartialDevices) {
  DeviceAttr ps = device("/job:ps");
  EXPECT_EQ(ps.getJob(), "ps");
  EXPECT_FALSE(ps.getReplica());
  EXPECT_FALSE(ps.getTask());
  EXPECT_TRUE(ps.getDeviceType().empty());
  EXPECT_FALSE(ps.isFullySpecified());

  DeviceAttr task = device("/task:1");
  EXPECT_TRUE(task.getJob().empty());
  EXPECT_EQ(task.getTask(), 1);

  DeviceAttr gpu = device("/device:GPU:0");
  EXPECT_EQ(gpu.getDeviceType(), "GPU");
  EXPECT_EQ(gpu.getDeviceIndex(), 0);

  DeviceAttr workerTask = device("/job:worker/task:0");
  EXPECT_TRUE(workerTask.namesTask());
  EXPECT_EQ(workerTask.str(), "/job:worker/task:0");

  DeviceAttr any = device("");
  EXPECT_EQ(any.str(), "");
  EXPECT_FALSE(any.namesTask());
}

TEST_F(DistAttrsTest, ParsesLegacyAndWildcardForms) {
  EXPECT_EQ(device("/cpu:0"), device("/device:CPU:0"));
  EXPECT_EQ(device("/gpu:2").str(), "/device:GPU:2");
  EXPECT_EQ(device("/device:gpu:1").str(), "/device:GPU:1");
  DeviceAttr anyCpu = device("/device:CPU:*");
  EXPECT_EQ(anyCpu.getDeviceType(), "CPU");
  EXPECT_FALSE(anyCpu.getDeviceIndex());
  EXPECT_EQ(anyCpu.str(), "/device:CPU:*");
  EXPECT_EQ(device("/device:CPU"), anyCpu);
  EXPECT_EQ(device("/job:*/replica:*/task:*/device:*").str(), "");
  // Field order does not matter; the canonical form is job, replica, task.
  EXPECT_EQ(device("/device:GPU:1/task:3/job:w"),
            device("/job:w/task:3/device:GPU:1"));
}

TEST_F(DistAttrsTest, RejectsMalformedDevices) {
  EXPECT_EQ(deviceError("job:w"),
            "expected '/' at the start in device string 'job:w'");
  EXPECT_EQ(deviceError("/host:a"),
            "unknown field 'host:a', expected job, replica, task, device, cpu "
            "or gpu in device string '/host:a'");
  EXPECT_EQ(deviceError("/task:x"),
            "bad task index 'x', expected a non-negative integer or '*' in "
            "device string '/task:x'");
  EXPECT_EQ(deviceError("/task:1/task:2"),
            "duplicate task field 'task:2' in device string '/task:1/task:2'");
  EXPECT_EQ(deviceError("/gpu:0/device:CPU:0"),
            "duplicate device field 'device:CPU:0' in device string "
            "'/gpu:0/device:CPU:0'");
  EXPECT_EQ(deviceError("/job:w//task:0"),
            "empty field in device string '/job:w//task:0'");
  EXPECT_EQ(deviceError("/job"),
            "field 'job' has no value in device string '/job'");
  EXPECT_NE(deviceError("/job:9w").find("bad job name '9w'"),
            std::string::npos);
  EXPECT_NE(deviceError("/replica:-1").find("bad replica index '-1'"),
            std::string::npos);
  EXPECT_NE(deviceError("/device:GPU:1.5").find("bad device index '1.5'"),
            std::string::npos);
  EXPECT_NE(
      deviceError("/device:*:3").find("device index '3' without a device type"),
      std::string::npos);
  EXPECT_NE(deviceError("/task:18446744073709551616").find("bad task index"),
            std::string::npos);
}

TEST_F(DistAttrsTest, SpecParsesWithoutAContext) {
  std::string error;
  FailureOr<DeviceSpec> spec = DeviceSpec::parse("/job:a/cpu:3", error);
  ASSERT_TRUE(succeeded(spec)) << error;
  EXPECT_EQ(spec->job, "a");
  EXPECT_EQ(spec->deviceType, "CPU");
  EXPECT_EQ(spec->deviceIndex, 3);
  EXPECT_EQ(spec->str(), "/job:a/device:CPU:3");
}

TEST_F(DistAttrsTest, Compatibility) {
  DeviceAttr full = device("/job:worker/replica:0/task:1/device:GPU:0");
  EXPECT_TRUE(full.isCompatibleWith(device("/job:worker")));
  EXPECT_TRUE(device("/job:worker").isCompatibleWith(full));
  EXPECT_TRUE(device("/job:worker").isCompatibleWith(device("/device:GPU:0")));
  EXPECT_TRUE(full.isCompatibleWith(device("")));
  EXPECT_FALSE(full.isCompatibleWith(device("/job:ps")));
  EXPECT_FALSE(full.isCompatibleWith(device("/task:0")));
  EXPECT_FALSE(full.isCompatibleWith(device("/device:CPU:0")));
  EXPECT_FALSE(full.isCompatibleWith(device("/device:GPU:1")));
  EXPECT_TRUE(full.isCompatibleWith(device("/device:GPU:*")));
}

TEST_F(DistAttrsTest, Matching) {
  DeviceAttr full = device("/job:worker/replica:0/task:1/device:GPU:0");
  EXPECT_TRUE(full.matches(device("/job:worker/task:1")));
  EXPECT_TRUE(full.matches(device("")));
  EXPECT_FALSE(full.matches(device("/task:2")));
  // A partial device does not satisfy a more specific spec.
  EXPECT_FALSE(device("/job:worker").matches(full));
}

TEST_F(DistAttrsTest, Merging) {
  FailureOr<DeviceAttr> merged =
      device("/job:worker/task:1").mergedWith(device("/device:GPU:0"));
  ASSERT_TRUE(succeeded(merged));
  EXPECT_EQ(merged->str(), "/job:worker/task:1/device:GPU:0");
  // Merging is commutative and the empty device is its identity.
  EXPECT_EQ(*device("/device:GPU:0").mergedWith(device("/job:worker/task:1")),
            *merged);
  EXPECT_EQ(*merged->mergedWith(device("")), *merged);
  EXPECT_EQ(*device("/device:GPU:*").mergedWith(device("/gpu:3")),
            device("/device:GPU:3"));

  std::string error;
  EXPECT_TRUE(
      failed(device("/job:worker").mergedWith(device("/job:ps"), &error)));
  EXPECT_EQ(error, "cannot merge devices '/job:worker' and '/job:ps': job "
                   "worker conflicts with ps");
  EXPECT_TRUE(failed(device("/task:1").mergedWith(device("/task:2"), &error)));
  EXPECT_EQ(error, "cannot merge devices '/task:1' and '/task:2': task 1 "
                   "conflicts with 2");
  EXPECT_TRUE(failed(device("/cpu:0").mergedWith(device("/gpu:0"))));
  EXPECT_TRUE(failed(device("/gpu:0").mergedWith(device("/gpu:1"))));
}

TEST_F(DistAttrsTest, TaskAttrDropsDeviceAndImplicitReplica) {
  DeviceAttr task =
      device("/job:w/replica:0/task:2/device:GPU:1").getTaskAttr();
  EXPECT_EQ(task, device("/job:w/task:2"));
  EXPECT_TRUE(task.namesTask());
  EXPECT_EQ(device("/job:w/replica:1/task:2").getTaskAttr().str(),
            "/job:w/replica:1/task:2");
}

TEST_F(DistAttrsTest, ClusterEnumeration) {
  auto cluster = dyn_cast_or_null<ClusterAttr>(parseAttribute(
      "#dist.cluster<{worker = 2 x [CPU:0, GPU:0], ps = 1}>", &ctx));
  ASSERT_TRUE(cluster);
  EXPECT_EQ(cluster.getNumTasks(), 3);
  ASSERT_TRUE(cluster.getJob("ps"));
  EXPECT_EQ(cluster.getJob("ps").getNumTasks(), 1);
  EXPECT_FALSE(cluster.getJob("chief"));

  SmallVector<std::string> tasks;
  for (DeviceAttr t : cluster.getTaskAttrs()) {
    tasks.push_back(t.str());
  }
  EXPECT_EQ(tasks,
            (SmallVector<std::string>{"/job:worker/task:0",
                                      "/job:worker/task:1", "/job:ps/task:0"}));

  SmallVector<std::string> devices;
  for (DeviceAttr d : cluster.getDevices()) {
    EXPECT_TRUE(d.isFullySpecified());
    devices.push_back(d.str());
  }
  EXPECT_EQ(devices, (SmallVector<std::string>{
                         "/job:worker/replica:0/task:0/device:CPU:0",
                         "/job:worker/replica:0/task:0/device:GPU:0",
                         "/job:worker/replica:0/task:1/device:CPU:0",
                         "/job:worker/replica:0/task:1/device:GPU:0",
                         "/job:ps/replica:0/task:0/device:CPU:0"}));
}

TEST_F(DistAttrsTest, ClusterContainment) {
  auto cluster = dyn_cast_or_null<ClusterAttr>(parseAttribute(
      "#dist.cluster<{worker = 2 x [CPU:0, GPU:0], ps = 1}>", &ctx));
  ASSERT_TRUE(cluster);
  EXPECT_TRUE(cluster.contains(device("/job:worker/task:1")));
  EXPECT_TRUE(
      cluster.contains(device("/job:worker/replica:0/task:1/device:GPU:0")));
  EXPECT_TRUE(cluster.contains(device("/job:ps")));
  EXPECT_TRUE(cluster.contains(device("/device:GPU:0")));
  EXPECT_TRUE(cluster.contains(device("")));
  EXPECT_FALSE(cluster.contains(device("/job:worker/task:2")));
  EXPECT_FALSE(cluster.contains(device("/job:ps/device:GPU:0")));
  EXPECT_FALSE(cluster.contains(device("/job:chief")));
  EXPECT_FALSE(cluster.contains(device("/job:worker/replica:1/task:0")));
  EXPECT_FALSE(cluster.contains(device("/device:GPU:1")));
}

TEST_F(DistAttrsTest, ClusterRejectsBadJobs) {
  // getChecked reports through the callback instead of asserting.
  auto cpu0 = DeviceAttr::get(&ctx, "", std::nullopt, std::nullopt, "CPU", 0);
  std::string message;
  auto emit = [&] { return emitError(UnknownLoc::get(&ctx)); };
  ScopedDiagnosticHandler handler(&ctx, [&](Diagnostic &d) {
    message = d.str();
    return success();
  });
  EXPECT_FALSE(JobAttr::getChecked(emit, &ctx, "w", 0, {cpu0}));
  EXPECT_EQ(message, "job 'w' has 0 tasks, expected at least one");
  JobAttr w = JobAttr::get(&ctx, "w", 1, {cpu0});
  EXPECT_FALSE(ClusterAttr::getChecked(emit, &ctx, {w, w}));
  EXPECT_EQ(message, "job 'w' appears twice");
}

TEST_F(DistAttrsTest, CommunicationOpsAreNotDead) {
  DialectRegistry registry;
  graphc::registerAllDialects(registry);
  MLIRContext context(registry);
  OwningOpRef<ModuleOp> module = parseSourceString<ModuleOp>(R"mlir(
    module attributes {dist.cluster = #dist.cluster<{w = 2}>} {
      dist.task @a on #dist.device<"/job:w/task:0"> (%x: tensor<2xf32>) {
        dist.send %x to #dist.device<"/job:w/task:1"> key "k" : tensor<2xf32>
        %r = dist.all_reduce sum %x group [#dist.device<"/job:w/task:0">,
            #dist.device<"/job:w/task:1">] key "g" : tensor<2xf32> -> tensor<2xf32>
        dist.return
      }
      dist.task @b on #dist.device<"/job:w/task:1"> (%x: tensor<2xf32>) {
        %y = dist.recv from #dist.device<"/job:w/task:0"> key "k" : tensor<2xf32>
        %r = dist.all_reduce sum %x group [#dist.device<"/job:w/task:0">,
            #dist.device<"/job:w/task:1">] key "g" : tensor<2xf32> -> tensor<2xf32>
        dist.return
      }
    })mlir",
                                                             &context);
  ASSERT_TRUE(module);
  int count = 0;
  module->walk([&](Operation *op) {
    if (!isa<SendOp, RecvOp, CollectiveOpInterface>(op)) {
      return;
    }
    ++count;
    EXPECT_FALSE(isMemoryEffectFree(op)) << op->getName().getStringRef().str();
    EXPECT_FALSE(wouldOpBeTriviallyDead(op))
        << op->getName().getStringRef().str();
    auto effects = cast<MemoryEffectOpInterface>(op);
    EXPECT_TRUE(effects.hasEffect<MemoryEffects::Write>());
  });
  EXPECT_EQ(count, 4);
}

TEST_F(DistAttrsTest, BuildsAndVerifiesATwoTaskModule) {
  // What a partitioner does: one task per cluster task, a send/recv pair on
  // the cut edge. The module verifies; renaming one key breaks the pairing.
  DialectRegistry registry;
  graphc::registerAllDialects(registry);
  MLIRContext context(registry);
  context.loadDialect<DistDialect>();
  OpBuilder b(&context);
  Location loc = b.getUnknownLoc();
  OwningOpRef<ModuleOp> module = ModuleOp::create(loc);
  auto cluster = ClusterAttr::get(
      &context, {JobAttr::get(&context, "w", 2,
                              {DeviceAttr::get(&context, "", std::nullopt,
                                               std::nullopt, "CPU", 0)})});
  (*module)->setAttr(DistDialect::kClusterAttrName, cluster);
  SmallVector<DeviceAttr> tasks = cluster.getTaskAttrs();
  ASSERT_EQ(tasks.size(), 2u);

  auto tensor = RankedTensorType::get({3}, b.getF32Type());
  b.setInsertionPointToEnd(module->getBody());
  auto sender =
      TaskOp::create(b, loc, "w0", tasks[0], b.getFunctionType({tensor}, {}));
  auto receiver =
      TaskOp::create(b, loc, "w1", tasks[1], b.getFunctionType({}, {tensor}));

  b.setInsertionPointToEnd(&sender.getBody().front());
  SendOp send = SendOp::create(b, loc, sender.getArgument(0), tasks[1], "e0");
  ReturnOp::create(b, loc);
  b.setInsertionPointToEnd(&receiver.getBody().front());
  auto recv = RecvOp::create(b, loc, tensor, tasks[0], "e0");
  ReturnOp::create(b, loc, ValueRange{recv.getResult()});

  EXPECT_TRUE(succeeded(verify(*module)));

  std::string message;
  ScopedDiagnosticHandler handler(&context, [&](Diagnostic &d) {
    message = d.str();
    return success();
  });
  send.setKey("e1");
  EXPECT_TRUE(failed(verify(*module)));
  EXPECT_EQ(message,
            "'dist.send' op has no matching dist.recv with key \"e1\"");
}

} // namespace
