//===- PlacementStrategies.cpp - given, replicas and ps placement ---------===//
//
// The strategy registry and the three built-in strategies of dist-place.
// `given` honours the model's placement the way TensorFlow's placer does for
// tasks: partial device names filled from a default, colocation groups kept
// together, an unplaced op with its inputs. `ps` homes variables on
// parameter servers balanced by bytes. `replicas` is in ReplicaRewrite.cpp,
// `pipeline` in PipelineStrategy.cpp.
//
//===----------------------------------------------------------------------===//

#include "graphc/Transforms/Placement.h"

#include "graph/GraphOps.h"

#include "llvm/ADT/EquivalenceClasses.h"
#include "llvm/ADT/StringMap.h"

using namespace mlir;
using namespace graphc;
using namespace graphc::transforms;
using graphc::dist::DeviceAttr;

PlacementStrategy::~PlacementStrategy() = default;

//===----------------------------------------------------------------------===//
// Registry
//===----------------------------------------------------------------------===//

namespace {
class GivenStrategy;
class ReplicasStrategy;
class ParameterServerStrategy;
} // namespace

static llvm::StringMap<PlacementStrategyFactory> &getRegistry();

void transforms::registerPlacementStrategy(StringRef name,
                                           PlacementStrategyFactory factory) {
  getRegistry()[name] = std::move(factory);
}

std::unique_ptr<PlacementStrategy>
transforms::createPlacementStrategy(StringRef name) {
  auto it = getRegistry().find(name);
  return it == getRegistry().end() ? nullptr : it->second();
}

SmallVector<PlacementCandidate>
PlacementStrategy::getCandidates(int64_t workers) const {
  return {};
}

SmallVector<std::string> transforms::getPlacementStrategyNames() {
  SmallVector<std::string> names;
  for (auto &entry : getRegistry()) {
    names.push_back(entry.getKey().str());
  }
  llvm::sort(names);
  return names;
}

//===----------------------------------------------------------------------===//
// given
//===----------------------------------------------------------------------===//

/// The task a requested device runs on: job and task filled from
/// `defaultTask` (a job other than the default's means its task 0), device
/// fields dropped.
static FailureOr<DeviceAttr>
resolveTask(DeviceAttr requested, DeviceAttr defaultTask,
            function_ref<InFlightDiagnostic()> emit, StringRef what) {
  if (requested.getReplica().value_or(0) != 0) {
    return emit() << "dist-place: device '" << requested.str() << "' of "
                  << what << " names replica " << *requested.getReplica()
                  << "; graphc's clusters have tasks of replica 0 only (use "
                     "/job:NAME/task:N)";
  }
  StringRef job = requested.getJob();
  std::optional<int64_t> task = requested.getTask();
  if (job.empty()) {
    job = defaultTask.getJob();
  }
  if (!task) {
    task = job == defaultTask.getJob() ? *defaultTask.getTask() : 0;
  }
  return DeviceAttr::get(requested.getContext(), job, std::nullopt, task, "",
                         std::nullopt);
}

namespace {
/// Something `given` places: an op of the entry body, a variable or an
/// argument of the entry.
struct Placeable {
  Operation *op = nullptr; // the op or the graph.variable
  int64_t argIndex = -1;   // an entry argument when op is null
  DeviceAttr task;         // the decision, null while undecided
};

struct GivenPlacer {
  GivenPlacer(ModuleOp module, func::FuncOp func, DeviceAttr defaultTask)
      : module(module), func(func), defaultTask(defaultTask) {}

  ModuleOp module;
  func::FuncOp func;
  DeviceAttr defaultTask;

  SmallVector<Placeable> items;
  llvm::DenseMap<Operation *, unsigned> opItem;
  llvm::StringMap<unsigned> nodeItem;
  llvm::StringMap<unsigned> variableItem;
  llvm::EquivalenceClasses<unsigned> groups;
  /// The device each colocation group leader settled on.
  llvm::DenseMap<unsigned, DeviceAttr> groupTask;

  unsigned add(Placeable item, StringRef node) {
    unsigned index = items.size();
    items.push_back(item);
    groups.insert(index);
    if (!node.empty()) {
      nodeItem.try_emplace(node, index);
    }
    return index;
  }

  std::string describe(unsigned index) {
    const Placeable &item = items[index];
    std::string s;
    llvm::raw_string_ostream os(s);
    if (item.op) {
      os << "'" << item.op->getName() << "' at " << item.op->getLoc();
    } else {
      os << "argument #" << item.argIndex << " of @" << func.getSymName();
    }
    return s;
  }

  InFlightDiagnostic emitAt(unsigned index) {
    const Placeable &item = items[index];
    return item.op ? item.op->emitError() : func.emitError();
  }

  LogicalResult collect() {
    for (auto var : module.getOps<graph::VariableOp>()) {
      unsigned i = add({var, -1, {}}, var.getSymName());
      variableItem[var.getSymName()] = i;
    }
    for (unsigned a = 0; a < func.getNumArguments(); ++a) {
      StringRef node;
      if (auto name = func.getArgAttrOfType<StringAttr>(a, kNameAttrName)) {
        node = name.getValue().split(':').first;
      }
      add({nullptr, a, {}}, node);
    }
    for (Operation &op : func.getBody().front().without_terminator()) {
      opItem[&op] = add({&op, -1, {}}, getNodeName(op.getLoc()));
    }
    // The requested devices, filled from the default.
    for (unsigned i = 0; i < items.size(); ++i) {
      Placeable &item = items[i];
      DeviceAttr requested =
          item.op ? getPlacement(item.op)
                  : func.getArgAttrOfType<DeviceAttr>(
                        item.argIndex, dist::DistDialect::kDeviceAttrName);
      if (!requested) {
        continue;
      }
      FailureOr<DeviceAttr> task = resolveTask(
          requested, defaultTask, [&] { return emitAt(i); }, describe(i));
      if (failed(task)) {
        return failure();
      }
      item.task = *task;
    }
    return success();
  }

  /// Joins every op with the nodes its `graph.colocate` names, and gives each
  /// group the one task its members ask for.
  LogicalResult colocate() {
    for (unsigned i = 0; i < items.size(); ++i) {
      Operation *op = items[i].op;
      auto names =
          op ? op->getAttrOfType<ArrayAttr>(kColocateAttrName) : ArrayAttr();
      if (!names) {
        continue;
      }
      for (auto name : names.getAsRange<StringAttr>()) {
        // A node the import dropped (an initializer) constrains nothing.
        auto it = nodeItem.find(name.getValue());
        if (it != nodeItem.end()) {
          groups.unionSets(i, it->second);
        }
      }
    }
    llvm::DenseMap<unsigned, unsigned> firstPlaced;
    for (unsigned i = 0; i < items.size(); ++i) {
      if (!items[i].task) {
        continue;
      }
      unsigned leader = groups.getLeaderValue(i);
      auto [it, inserted] = groupTask.try_emplace(leader, items[i].task);
      if (inserted) {
        firstPlaced[leader] = i;
        continue;
      }
      if (it->second != items[i].task) {
        InFlightDiagnostic diag = emitAt(i);
        diag << "dist-place: " << describe(i) << " is placed on '"
             << items[i].task.str() << "' but is colocated with "
             << describe(firstPlaced[leader]) << " on '" << it->second.str()
             << "'; give the colocation group one task";
        return diag;
      }
    }
    return success();
  }

  /// The task an operand's value comes from, or null while undecided.
  DeviceAttr taskOf(Value value) {
    if (auto arg = dyn_cast<BlockArgument>(value)) {
      if (arg.getOwner() == &func.getBody().front()) {
        return items[variableItem.size() + arg.getArgNumber()].task;
      }
      return {};
    }
    auto it = opItem.find(value.getDefiningOp());
    return it == opItem.end() ? DeviceAttr() : items[it->second].task;
  }

  void decide(unsigned i, DeviceAttr task) {
    unsigned leader = groups.getLeaderValue(i);
    auto [it, inserted] = groupTask.try_emplace(leader, task);
    items[i].task = it->second;
  }

  void propagate() {
    // A variable nobody asked for goes where its first placed user runs.
    for (Operation &op : func.getBody().front().without_terminator()) {
      unsigned i = opItem[&op];
      FlatSymbolRefAttr var;
      if (auto read = dyn_cast<graph::ReadVariableOp>(op)) {
        var = read.getVariableAttr();
      } else if (auto assign = dyn_cast<graph::AssignVariableOp>(op)) {
        var = assign.getVariableAttr();
      }
      auto it = var ? variableItem.find(var.getValue()) : variableItem.end();
      if (it == variableItem.end()) {
        continue;
      }
      if (!items[it->second].task && items[i].task) {
        decide(it->second, items[i].task);
      }
    }
    for (unsigned i = 0; i < variableItem.size(); ++i) {
      if (!items[i].task) {
        decide(i, groupTaskOr(i, defaultTask));
      }
    }

    // An op without a device goes with its colocation group, else its
    // variable, else its first placed operand, else -- an op fed by nothing
    // placed, such as a constant the canonicalizer folded and so stripped of
    // its node's device -- the task of its first placed user, else the
    // default. Users come later in the body, so they are looked at in a
    // backward sweep between two forward ones.
    decideFromOperands(/*fallback=*/{});
    Block &body = func.getBody().front();
    for (Operation &op : llvm::reverse(body.without_terminator())) {
      unsigned i = opItem[&op];
      if (items[i].task) {
        continue;
      }
      for (Operation *user : op.getUsers()) {
        auto it = opItem.find(user);
        if (it != opItem.end() && items[it->second].task) {
          decide(i, items[it->second].task);
          break;
        }
      }
    }
    decideFromOperands(defaultTask);
    // An argument without a device belongs to the task of its first user.
    unsigned firstArg = variableItem.size();
    for (unsigned a = 0; a < func.getNumArguments(); ++a) {
      unsigned i = firstArg + a;
      if (items[i].task) {
        continue;
      }
      DeviceAttr task = groupTaskOr(i, {});
      for (Operation *user : func.getArgument(a).getUsers()) {
        if (!task && opItem.count(user)) {
          task = items[opItem[user]].task;
        }
      }
      decide(i, task ? task : defaultTask);
    }
  }

  /// Decides every undecided op from its colocation group, its variable or
  /// its first placed operand; one that none of these places gets
  /// `fallback` (null: stays undecided).
  void decideFromOperands(DeviceAttr fallback) {
    for (Operation &op : func.getBody().front().without_terminator()) {
      unsigned i = opItem[&op];
      if (items[i].task) {
        continue;
      }
      DeviceAttr task = groupTaskOr(i, {});
      if (!task) {
        FlatSymbolRefAttr var;
        if (auto read = dyn_cast<graph::ReadVariableOp>(op)) {
          var = read.getVariableAttr();
        } else if (auto assign = dyn_cast<graph::AssignVariableOp>(op)) {
          var = assign.getVariableAttr();
        }
        if (var) {
          if (auto it = variableItem.find(var.getValue());
              it != variableItem.end()) {
            task = items[it->second].task;
          }
        }
      }
      for (Value operand : op.getOperands()) {
        if (!task) {
          task = taskOf(operand);
        }
      }
      if (!task) {
        task = fallback;
      }
      if (task) {
        decide(i, task);
      }
    }
  }

  DeviceAttr groupTaskOr(unsigned i, DeviceAttr otherwise) {
    auto it = groupTask.find(groups.getLeaderValue(i));
    return it == groupTask.end() ? otherwise : it->second;
  }

  LogicalResult write() {
    for (const Placeable &item : items) {
      if (item.op) {
        setPlacement(item.op, item.task);
      } else {
        func.setArgAttr(item.argIndex, dist::DistDialect::kDeviceAttrName,
                        item.task);
      }
    }
    // A result the model places (a TF _Send) keeps that task; the others
    // belong to the task that computes them.
    auto ret = cast<func::ReturnOp>(func.getBody().front().getTerminator());
    for (auto [r, value] : llvm::enumerate(ret.getOperands())) {
      DeviceAttr task;
      if (auto requested = func.getResultAttrOfType<DeviceAttr>(
              r, dist::DistDialect::kDeviceAttrName)) {
        FailureOr<DeviceAttr> resolved = resolveTask(
            requested, defaultTask, [&] { return ret.emitError(); },
            "output #" + std::to_string(r) + " of @" + func.getSymName().str());
        if (failed(resolved)) {
          return failure();
        }
        task = *resolved;
      }
      if (!task) {
        task = taskOf(value);
      }
      func.setResultAttr(r, dist::DistDialect::kDeviceAttrName,
                         task ? task : defaultTask);
    }
    return success();
  }
};
} // namespace

LogicalResult transforms::placeAsGiven(ModuleOp module, func::FuncOp func,
                                       DeviceAttr defaultTask) {
  GivenPlacer placer(module, func, defaultTask);
  if (failed(placer.collect()) || failed(placer.colocate())) {
    return failure();
  }
  placer.propagate();
  return placer.write();
}

namespace {
class GivenStrategy : public PlacementStrategy {
public:
  StringRef getName() const override { return "given"; }
  LogicalResult place(ModuleOp module, func::FuncOp entry,
                      const PlacementOptions &options) override {
    return placeAsGiven(module, entry, options.defaultTask);
  }
  /// The model's own placement (one task when it has none): the baseline
  /// every distributed candidate has to beat.
  SmallVector<PlacementCandidate> getCandidates(int64_t) const override {
    PlacementCandidate c{"given", {}};
    c.options.strategy = "given";
    return {c};
  }
};

//===----------------------------------------------------------------------===//
// replicas
//===----------------------------------------------------------------------===//

class ReplicasStrategy : public PlacementStrategy {
public:
  StringRef getName() const override { return "replicas"; }
  LogicalResult place(ModuleOp module, func::FuncOp entry,
                      const PlacementOptions &options) override {
    return rewriteForReplicas(module, entry, options.replicas,
                              options.defaultTask.getJob());
  }
  /// Every replica count from 2 to the cluster size; counts the batch does
  /// not divide are refused by the rewrite and listed as such.
  SmallVector<PlacementCandidate>
  getCandidates(int64_t workers) const override {
    SmallVector<PlacementCandidate> candidates;
    for (int64_t r = 2; r <= workers; ++r) {
      PlacementCandidate c{"replicas=" + std::to_string(r), {}};
      c.options.strategy = "replicas";
      c.options.replicas = r;
      candidates.push_back(c);
    }
    return candidates;
  }
};

//===----------------------------------------------------------------------===//
// ps
//===----------------------------------------------------------------------===//

/// The bytes of a variable's value (0 for a type without a static size).
static int64_t variableBytes(graph::VariableOp var) {
  auto type = dyn_cast<RankedTensorType>(var.getType());
  if (!type || !type.hasStaticShape()) {
    return 0;
  }
  int64_t bits = type.getElementType().isIntOrFloat()
                     ? type.getElementType().getIntOrFloatBitWidth()
                     : 8;
  return type.getNumElements() * ((bits + 7) / 8);
}

/// Ops that compute a variable's next value from its current one: they run
/// on the variable's server when they feed only its assignments.
static bool isUpdateOp(Operation *op) {
  return isa<graph::SGDUpdateOp, graph::MomentumUpdateOp, graph::AdamUpdateOp,
             graph::FtrlUpdateOp>(op);
}

class ParameterServerStrategy : public PlacementStrategy {
public:
  StringRef getName() const override { return "ps"; }
  LogicalResult place(ModuleOp module, func::FuncOp entry,
                      const PlacementOptions &options) override {
    MLIRContext *ctx = module.getContext();
    StringRef workerJob = options.defaultTask.getJob();
    if (workerJob == "ps") {
      return module.emitError()
             << "dist-place: strategy=ps computes on the default device's "
                "job, which must not be 'ps' (default-device "
             << options.defaultTask.str() << ")";
    }
    if (options.replicas > 1) {
      if (failed(
              rewriteForReplicas(module, entry, options.replicas, workerJob))) {
        return failure();
      }
    } else {
      placeAllOn(module, entry, options.defaultTask);
    }

    // Variables updated by one op (a weight and its optimizer slots) share a
    // server, so the update runs where all of them live.
    SmallVector<graph::VariableOp> vars(module.getOps<graph::VariableOp>());
    llvm::StringMap<unsigned> varIndex;
    for (auto [i, var] : llvm::enumerate(vars)) {
      varIndex[var.getSymName()] = i;
    }
    llvm::EquivalenceClasses<unsigned> sets;
    for (unsigned i = 0; i < vars.size(); ++i) {
      sets.insert(i);
    }
    llvm::DenseMap<Operation *, unsigned> updateVar;
    entry.walk([&](graph::AssignVariableOp assign) {
      Operation *def = assign.getValue().getDefiningOp();
      auto it = varIndex.find(assign.getVariable());
      if (!def || !isUpdateOp(def) || it == varIndex.end()) {
        return;
      }
      auto [prev, inserted] = updateVar.try_emplace(def, it->second);
      if (!inserted) {
        sets.unionSets(prev->second, it->second);
      }
    });

    // Largest set first onto the lightest server; ties go to the earlier
    // set and the lower server, so the result is deterministic.
    struct Set {
      unsigned leader;
      int64_t bytes;
    };
    SmallVector<Set> order;
    llvm::DenseMap<unsigned, unsigned> setOf;
    for (unsigned i = 0; i < vars.size(); ++i) {
      unsigned leader = sets.getLeaderValue(i);
      auto [it, inserted] = setOf.try_emplace(leader, order.size());
      if (inserted) {
        order.push_back({leader, 0});
      }
      order[it->second].bytes += variableBytes(vars[i]);
    }
    llvm::stable_sort(
        order, [](const Set &a, const Set &b) { return a.bytes > b.bytes; });
    SmallVector<int64_t> load(options.psTasks, 0);
    llvm::DenseMap<unsigned, DeviceAttr> home;
    for (const Set &set : order) {
      auto lightest = llvm::min_element(load) - load.begin();
      load[lightest] += set.bytes;
      home[set.leader] =
          DeviceAttr::get(ctx, "ps", std::nullopt, lightest, "", std::nullopt);
    }
    for (unsigned i = 0; i < vars.size(); ++i) {
      setPlacement(vars[i], home[sets.getLeaderValue(i)]);
    }

    // Reads and assignments run with the variable; an update op goes there
    // too when every result only feeds assignments on that server.
    auto homeOf = [&](StringRef name) {
      auto it = varIndex.find(name);
      return it == varIndex.end() ? DeviceAttr()
                                  : getPlacement(vars[it->second]);
    };
    for (Operation &op : entry.getBody().front().without_terminator()) {
      if (auto read = dyn_cast<graph::ReadVariableOp>(op)) {
        if (DeviceAttr h = homeOf(read.getVariable())) {
          setPlacement(&op, h);
        }
      }
      if (auto assign = dyn_cast<graph::AssignVariableOp>(op)) {
        if (DeviceAttr h = homeOf(assign.getVariable())) {
          setPlacement(&op, h);
        }
      }
    }
    for (Operation &op : entry.getBody().front().without_terminator()) {
      if (!isUpdateOp(&op)) {
        continue;
      }
      DeviceAttr target;
      bool onlyAssignments = !op.use_empty();
      for (Operation *user : op.getUsers()) {
        auto assign = dyn_cast<graph::AssignVariableOp>(user);
        DeviceAttr h = assign ? homeOf(assign.getVariable()) : DeviceAttr();
        if (!h || (target && h != target)) {
          onlyAssignments = false;
        }
        target = h;
      }
      if (onlyAssignments && target) {
        setPlacement(&op, target);
      }
    }
    return success();
  }
  /// Servers and worker replicas that fit the cluster together: every
  /// split of `workers` tasks (at least one of each) and the smaller ones.
  SmallVector<PlacementCandidate>
  getCandidates(int64_t workers) const override {
    SmallVector<PlacementCandidate> candidates;
    for (int64_t r = 1; r < workers; ++r) {
      for (int64_t p = 1; r + p <= workers; ++p) {
        PlacementCandidate c{"ps replicas=" + std::to_string(r) +
                                 " ps-tasks=" + std::to_string(p),
                             {}};
        c.options.strategy = "ps";
        c.options.replicas = r;
        c.options.psTasks = p;
        candidates.push_back(c);
      }
    }
    return candidates;
  }
};
} // namespace

static llvm::StringMap<PlacementStrategyFactory> &getRegistry() {
  static llvm::StringMap<PlacementStrategyFactory> registry = [] {
    llvm::StringMap<PlacementStrategyFactory> r;
    r["given"] = [] { return std::make_unique<GivenStrategy>(); };
    r["replicas"] = [] { return std::make_unique<ReplicasStrategy>(); };
    r["ps"] = [] { return std::make_unique<ParameterServerStrategy>(); };
    r["tensor-parallel"] = createTensorParallelStrategy;
    r["pipeline"] = createPipelineStrategy;
    return r;
  }();
  return registry;
}
