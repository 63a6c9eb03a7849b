//===- DistPlace.cpp - the dist-place pass and placement helpers ----------===//
//
// dist-place dispatches to a registered placement strategy, then checks that
// everything got a task and derives the module's dist.cluster from the tasks
// used. The helpers that say how a placement is written in the IR live here
// too, since dist-partition reads what this pass writes.
//
//===----------------------------------------------------------------------===//

#include "graphc/Transforms/Placement.h"

#include "graph/GraphOps.h"
#include "graphc/Transforms/Passes.h"

#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/StringExtras.h"

namespace graphc {
#define GEN_PASS_DEF_DISTPLACE
#include "graphc/Transforms/Passes.h.inc"
} // namespace graphc

using namespace mlir;
using namespace graphc;
using namespace graphc::transforms;
using graphc::dist::DeviceAttr;

//===----------------------------------------------------------------------===//
// Shared helpers
//===----------------------------------------------------------------------===//

DeviceAttr transforms::getPlacement(Operation *op) {
  return op->getAttrOfType<DeviceAttr>(dist::DistDialect::kDeviceAttrName);
}

void transforms::setPlacement(Operation *op, DeviceAttr device) {
  op->setAttr(dist::DistDialect::kDeviceAttrName, device);
}

bool transforms::isReplicatedPlacement(DeviceAttr device) {
  return device && !device.getJob().empty() && !device.getTask() &&
         device.getDeviceType().empty();
}

StringRef transforms::getNodeName(Location loc) {
  if (auto name = dyn_cast<NameLoc>(loc)) {
    StringRef text = name.getName().getValue();
    size_t colon = text.rfind(':');
    return colon == StringRef::npos ? text : text.drop_front(colon + 1);
  }
  if (auto fused = dyn_cast<FusedLoc>(loc)) {
    for (Location inner : fused.getLocations()) {
      if (StringRef name = getNodeName(inner); !name.empty()) {
        return name;
      }
    }
  }
  return "";
}

/// The entry function, or null after an error.
static func::FuncOp lookupEntry(ModuleOp module, StringRef entry,
                                StringRef passName);

func::FuncOp transforms::findEntryFunction(ModuleOp module, StringRef entry,
                                           StringRef passName) {
  func::FuncOp func = lookupEntry(module, entry, passName);
  // Placement and partitioning follow one order of the ops: a function with
  // control flow between blocks has none.
  if (func && !func.getBody().hasOneBlock()) {
    func.emitError() << passName << ": @" << func.getSymName() << " has "
                     << func.getBody().getBlocks().size()
                     << " blocks; only a single-block function can be "
                        "distributed (structured control flow is fine)";
    return {};
  }
  return func;
}

static func::FuncOp lookupEntry(ModuleOp module, StringRef entry,
                                StringRef passName) {
  if (!entry.empty()) {
    auto func = module.lookupSymbol<func::FuncOp>(entry);
    if (!func || func.isExternal()) {
      module.emitError() << passName << ": no function with a body named '"
                         << entry << "'";
    }
    return func && !func.isExternal() ? func : func::FuncOp();
  }
  SmallVector<func::FuncOp> defined;
  for (auto func : module.getOps<func::FuncOp>()) {
    if (!func.isExternal()) {
      defined.push_back(func);
    }
  }
  if (defined.size() == 1) {
    return defined.front();
  }
  if (auto main = module.lookupSymbol<func::FuncOp>("main")) {
    if (!main.isExternal()) {
      return main;
    }
  }
  module.emitError() << passName << ": "
                     << (defined.empty() ? "no function to place"
                                         : "several functions and none is "
                                           "@main")
                     << "; name the function with entry=NAME";
  return {};
}

void transforms::placeAllOn(ModuleOp module, func::FuncOp func,
                            DeviceAttr task) {
  for (Operation &op : func.getBody().front().without_terminator()) {
    setPlacement(&op, task);
  }
  for (unsigned a = 0; a < func.getNumArguments(); ++a) {
    func.setArgAttr(a, dist::DistDialect::kDeviceAttrName, task);
  }
  for (unsigned r = 0; r < func.getNumResults(); ++r) {
    func.setResultAttr(r, dist::DistDialect::kDeviceAttrName, task);
  }
  for (auto var : module.getOps<graph::VariableOp>()) {
    setPlacement(var, task);
  }
}

SmallVector<Value> transforms::getUsedValues(Operation *op) {
  llvm::SetVector<Value> used(op->operand_begin(), op->operand_end());
  op->walk([&](Operation *nested) {
    if (nested == op) {
      return;
    }
    for (Value v : nested->getOperands()) {
      if (!op->isAncestor(v.getParentRegion()->getParentOp())) {
        used.insert(v);
      }
    }
  });
  return used.takeVector();
}

bool transforms::isPartitioned(ModuleOp module) {
  return !module.getOps<dist::TaskOp>().empty();
}

void transforms::buildPostPlacementPasses(OpPassManager &pm, StringRef entry,
                                          int64_t bucketBytes, bool overlap) {
  // One dist.task per task with send/recv on the cut edges: the form task
  // lowering turns into one module, and one .so, per task.
  DistPartitionOptions partition;
  partition.entry = entry.str();
  pm.addPass(createDistPartition(partition));
  // Fewer, larger all-reduces: one runtime call per bucket instead of one
  // per gradient.
  DistFuseCollectivesOptions fuse;
  fuse.bucketBytes = bucketBytes;
  pm.addPass(createDistFuseCollectives(fuse));
  // Each bucket's all-reduce started as soon as its gradients exist and
  // waited on at its first use, so it runs while the backward pass goes on.
  if (overlap) {
    pm.addPass(createDistOverlapCollectives());
  }
}

//===----------------------------------------------------------------------===//
// The pass
//===----------------------------------------------------------------------===//

namespace {

/// Collects the tasks a placement uses, in first-use order per job.
struct TaskCollector {
  llvm::MapVector<StringRef, int64_t> jobs; // job -> task count
  void add(DeviceAttr device, int64_t replicas) {
    if (!device) {
      return;
    }
    int64_t count = isReplicatedPlacement(device)
                        ? replicas
                        : device.getTask().value_or(0) + 1;
    int64_t &n = jobs[device.getJob()];
    n = std::max(n, count);
  }
};

} // namespace

LogicalResult transforms::setClusterFromPlacement(ModuleOp module,
                                                  func::FuncOp func,
                                                  DeviceAttr defaultTask,
                                                  StringRef strategy) {
  int64_t replicaCount = dist::getReplicaCount(func).value_or(1);
  TaskCollector tasks;
  tasks.add(defaultTask, 1);
  // An unused default task is not part of the job.
  tasks.jobs[defaultTask.getJob()] = 0;
  for (Operation &op : func.getBody().front().without_terminator()) {
    DeviceAttr device = getPlacement(&op);
    if (!device || (!device.namesTask() && !isReplicatedPlacement(device))) {
      return op.emitError() << "dist-place: strategy '" << strategy
                            << "' left '" << op.getName() << "' without a task";
    }
    tasks.add(device, replicaCount);
  }
  auto addAttrs = [&](ArrayAttr attrs) {
    if (attrs) {
      for (auto dict : attrs.getAsRange<DictionaryAttr>()) {
        tasks.add(dict.getAs<DeviceAttr>(dist::DistDialect::kDeviceAttrName),
                  replicaCount);
      }
    }
  };
  addAttrs(func.getArgAttrsAttr());
  addAttrs(func.getResAttrsAttr());
  for (auto var : module.getOps<graph::VariableOp>()) {
    tasks.add(getPlacement(var), replicaCount);
  }

  SmallVector<dist::JobAttr> jobs;
  MLIRContext *ctx = module.getContext();
  auto cpu = DeviceAttr::get(ctx, "", std::nullopt, std::nullopt, "CPU", 0);
  for (auto [job, count] : tasks.jobs) {
    if (count > 0) {
      jobs.push_back(dist::JobAttr::get(ctx, job, count, {cpu}));
    }
  }
  if (jobs.empty()) {
    jobs.push_back(dist::JobAttr::get(ctx, defaultTask.getJob(), 1, {cpu}));
  }
  module->setAttr(dist::DistDialect::kClusterAttrName,
                  dist::ClusterAttr::get(ctx, jobs));
  return success();
}

namespace {

struct DistPlacePass : public graphc::impl::DistPlaceBase<DistPlacePass> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    if (isPartitioned(module)) {
      return;
    }
    func::FuncOp func = findEntryFunction(module, entry, "dist-place");
    if (!func) {
      return signalPassFailure();
    }
    if (std::optional<int64_t> placed = dist::getReplicaCount(func)) {
      // Splitting the batch twice would halve it again.
      func.emitError() << "dist-place: @" << func.getSymName()
                       << " is already the step of " << *placed
                       << " replicas (dist.replicas); run dist-place once";
      return signalPassFailure();
    }

    PlacementOptions options;
    options.strategy = strategy;
    options.replicas = replicas;
    options.psTasks = psTasks;
    options.workers = workers;
    options.machineModel = machineModel;
    options.tensorParallel = tensorParallel;
    options.pipelineStages = pipelineStages;
    options.microbatches = microbatches;
    if (failed(parseDefaultDevice(module, options)) ||
        failed(checkOptions(module))) {
      return signalPassFailure();
    }

    std::unique_ptr<PlacementStrategy> impl = createPlacementStrategy(strategy);
    if (!impl) {
      module.emitError() << "dist-place: unknown strategy '" << strategy
                         << "'; known: "
                         << llvm::join(getPlacementStrategyNames(), ", ");
      return signalPassFailure();
    }
    if (failed(impl->place(module, func, options)) ||
        failed(setClusterFromPlacement(module, func, options.defaultTask,
                                       strategy))) {
      return signalPassFailure();
    }
    numPlaced += func.getBody().front().getOperations().size() - 1;
  }

  LogicalResult parseDefaultDevice(ModuleOp module, PlacementOptions &options) {
    std::string error;
    FailureOr<DeviceAttr> device =
        DeviceAttr::fromString(module.getContext(), defaultDevice, error);
    if (failed(device)) {
      return module.emitError() << "dist-place: bad default-device '"
                                << defaultDevice << "': " << error;
    }
    if (device->getJob().empty() || !device->getTask() ||
        device->getReplica().value_or(0) != 0) {
      return module.emitError()
             << "dist-place: default-device '" << defaultDevice
             << "' must name a job and a task of replica 0, such as "
                "/job:worker/task:0";
    }
    options.defaultTask = device->getTaskAttr();
    return success();
  }

  LogicalResult checkOptions(ModuleOp module) {
    // Plain copies: a pass option streams into a diagnostic as nothing.
    int64_t replicas = this->replicas, psTasks = this->psTasks,
            tensorParallel = this->tensorParallel;
    if (replicas < 1) {
      return module.emitError()
             << "dist-place: replicas=" << replicas << " must be at least 1";
    }
    if (psTasks < 1) {
      return module.emitError()
             << "dist-place: ps-tasks=" << psTasks << " must be at least 1";
    }
    // An option the strategy would ignore is a mistake the user should hear
    // about, not a silent single-task job.
    if (strategy == "given" && (replicas != 1 || psTasks != 1)) {
      return module.emitError()
             << "dist-place: strategy=given takes no replicas or ps-tasks "
                "(got replicas="
             << replicas << ", ps-tasks=" << psTasks
             << "); use strategy=replicas or strategy=ps";
    }
    // auto picks replicas and ps-tasks itself; workers and the machine
    // model only size and cost its candidates.
    if (strategy == "auto" &&
        (replicas != 1 || psTasks != 1 || tensorParallel != 1)) {
      return module.emitError()
             << "dist-place: strategy=auto chooses replicas, ps-tasks and "
                "tensor-parallel itself (got replicas="
             << replicas << ", ps-tasks=" << psTasks
             << ", tensor-parallel=" << tensorParallel
             << "); give the cluster size with workers=N";
    }
    int64_t workers = this->workers;
    if (strategy != "auto" && (workers != 0 || !machineModel.empty())) {
      return module.emitError()
             << "dist-place: workers and machine-model size and cost the "
                "candidates of strategy=auto; strategy="
             << strategy << " takes neither";
    }
    if (workers < 0) {
      return module.emitError()
             << "dist-place: workers=" << workers << " must be positive";
    }
    if (tensorParallel < 1) {
      return module.emitError()
             << "dist-place: tensor-parallel=" << tensorParallel
             << " must be at least 1";
    }
    if (strategy == "tensor-parallel") {
      if (tensorParallel < 2) {
        return module.emitError()
               << "dist-place: strategy=tensor-parallel needs "
                  "tensor-parallel=2 or more (got "
               << tensorParallel << ")";
      }
      if (psTasks != 1) {
        return module.emitError()
               << "dist-place: strategy=tensor-parallel takes no ps-tasks "
                  "(got "
               << psTasks << "); weight shards live on their compute tasks";
      }
    } else if (tensorParallel != 1) {
      return module.emitError()
             << "dist-place: tensor-parallel=" << tensorParallel
             << " is only used by strategy=tensor-parallel (got strategy="
             << strategy << ")";
    }
    if (strategy == "replicas" && psTasks != 1) {
      return module.emitError()
             << "dist-place: strategy=replicas takes no ps-tasks (got "
             << psTasks << "); use strategy=ps with replicas=N";
    }
    int64_t stages = pipelineStages, slices = microbatches;
    if (stages < 1) {
      return module.emitError() << "dist-place: pipeline-stages=" << stages
                                << " must be at least 1";
    }
    if (slices < 0) {
      return module.emitError() << "dist-place: microbatches=" << slices
                                << " must be at least 1 (0: one per stage)";
    }
    if (strategy != "pipeline" && (stages != 1 || slices != 0)) {
      return module.emitError()
             << "dist-place: strategy=" << strategy
             << " takes no pipeline-stages or microbatches (got "
                "pipeline-stages="
             << stages << ", microbatches=" << slices
             << "); use strategy=pipeline";
    }
    if (strategy == "pipeline" && psTasks != 1) {
      return module.emitError()
             << "dist-place: strategy=pipeline takes no ps-tasks (got "
             << psTasks << "); the stages hold their own variables";
    }
    return success();
  }
};

} // namespace
