//===- DistReport.cpp - bytes, counters and the simulated step of a job
//------===//
//
// The byte counts mirror runtime/lib/Collectives.cpp and Worker.cpp exactly
// (block boundaries, segment counts, which rank sends what): the report's
// claim is that it predicts the runtime's per-channel counters, not an
// approximation of them.
//
//===----------------------------------------------------------------------===//

#include "graphc/Analysis/DistReport.h"

#include "dist/DistOps.h"
#include "graph/GraphOps.h"
#include "graph/GraphTypeUtils.h"

#include "mlir/IR/Builders.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringMap.h"

#include <algorithm>
#include <cmath>

using namespace mlir;
using namespace graphc;
using namespace graphc::dist;

int64_t CollectiveReport::wireBytes() const {
  int64_t total = 0;
  for (int64_t b : sentBytes) {
    total += b;
  }
  return total;
}

namespace {

//===----------------------------------------------------------------------===//
// What the runtime sends (runtime/lib/Collectives.cpp)
//===----------------------------------------------------------------------===//

int64_t blockBegin(int64_t count, int64_t parts, int64_t i) {
  return count * i / parts;
}
int64_t blockSize(int64_t count, int64_t parts, int64_t i) {
  return blockBegin(count, parts, i + 1) - blockBegin(count, parts, i);
}
int64_t mod(int64_t a, int64_t k) { return ((a % k) + k) % k; }

// Collectives.cpp segmentsFor: messages one ring step is cut into.
int64_t segmentsFor(int64_t count, int64_t esize) {
  int64_t bytes = count * esize;
  return std::max<int64_t>(1,
                           std::min<int64_t>({16, bytes / (1 << 20), count}));
}

// Collectives.cpp pipelinedBroadcast: segments of the chain.
int64_t broadcastSegments(int64_t count, int64_t esize, int64_t k) {
  return std::max<int64_t>(
      1, std::min<int64_t>(4 * k, count * esize / (64 << 10)));
}

struct Sent {
  int64_t bytes = 0;
  int64_t messages = 0;
  void add(int64_t count, int64_t esize) {
    bytes += count * esize;
    messages += segmentsFor(count, esize);
  }
};

// Ring reduce-scatter over `count` elements: rank r sends every block but
// its own, block (r-s-1) in step s.
void ringReduceScatter(Sent &sent, int64_t count, int64_t esize, int64_t k,
                       int64_t r) {
  for (int64_t s = 0; s < k - 1; ++s) {
    sent.add(blockSize(count, k, mod(r - s - 1, k)), esize);
  }
}
// Ring all-gather over `count` elements: rank r sends block (r-s) in step s.
void ringAllGather(Sent &sent, int64_t count, int64_t esize, int64_t k,
                   int64_t r) {
  for (int64_t s = 0; s < k - 1; ++s) {
    sent.add(blockSize(count, k, mod(r - s, k)), esize);
  }
}

/// Bytes and messages member `r` of a group of `k` sends for `op`, whose
/// input has `inputCount` elements of `esize` bytes.
Sent collectiveSent(StringRef kind, int64_t inputCount, int64_t outputCount,
                    int64_t esize, int64_t k, int64_t r, int64_t root) {
  Sent sent;
  if (k == 1) {
    return sent;
  }
  if (kind == "all_reduce") {
    ringReduceScatter(sent, inputCount, esize, k, r);
    ringAllGather(sent, inputCount, esize, k, r);
  } else if (kind == "all_gather") {
    // svcAllGather passes the input's count; the ring runs over count * k.
    ringAllGather(sent, inputCount * k, esize, k, r);
  } else if (kind == "reduce_scatter") {
    // svcReduceScatter passes the output's count.
    ringReduceScatter(sent, outputCount * k, esize, k, r);
  } else if (kind == "broadcast") {
    if (mod(r - root, k) < k - 1) {
      sent.bytes = inputCount * esize;
      sent.messages = broadcastSegments(inputCount, esize, k);
    }
  } else if (kind == "all_to_all") {
    // One block of inputCount / k elements to every other member.
    sent.bytes = (k - 1) * (inputCount / k) * esize;
    sent.messages = k - 1;
  }
  return sent;
}

/// Seconds a collective takes once all members are in: the ring's steps,
/// each a latency plus the largest block any member sends in it (all send
/// at once), plus the reductions' memory traffic.
double collectiveSeconds(StringRef kind, int64_t inputCount,
                         int64_t outputCount, int64_t esize, int64_t k,
                         int64_t maxSentBytes, const MachineModel &m) {
  if (k == 1) {
    return 0;
  }
  double latency = m.linkLatencySeconds, bw = m.linkBytesPerSecond;
  // A reduction reads two blocks and writes one for each block received.
  auto reduceSeconds = [&](int64_t count) {
    return 3.0 * double(k - 1) / double(k) * double(count * esize) /
           m.memoryBytesPerSecond;
  };
  if (kind == "all_reduce") {
    return 2.0 * double(k - 1) * latency + double(maxSentBytes) / bw +
           reduceSeconds(inputCount);
  }
  if (kind == "reduce_scatter") {
    return double(k - 1) * latency + double(maxSentBytes) / bw +
           reduceSeconds(outputCount * k);
  }
  if (kind == "broadcast") {
    int64_t segs = broadcastSegments(inputCount, esize, k);
    return double(segs + k - 2) *
           (latency + double(inputCount * esize) / double(segs) / bw);
  }
  // all_gather, all_to_all: k - 1 exchanges.
  return double(k - 1) * latency + double(maxSentBytes) / bw;
}

std::string typeString(Type type) {
  std::string s;
  llvm::raw_string_ostream os(s);
  os << type;
  return s;
}

//===----------------------------------------------------------------------===//
// The tasks' programs
//===----------------------------------------------------------------------===//

struct Instr {
  enum Kind { Compute, Send, Recv, Collective } kind;
  Operation *op;
  std::string name;
  /// Compute: its seconds. Send: seconds the sender is busy.
  double seconds = 0;
  int64_t bytes = 0;
  /// Collective: index into the report's collectives and member index.
  int collective = -1;
  int member = -1;
  /// Simulated: when the program reached it, started moving, ended.
  double ready = 0, start = 0, end = 0;
};

struct Arrival {
  double time;
  int task;
  size_t instr;
};

class Analyzer {
public:
  Analyzer(ModuleOp module, const MachineModel &machine, bool preparedWeights)
      : module(module), machine(machine), preparedWeights(preparedWeights) {}

  FailureOr<DistReport> run();

private:
  LogicalResult collect();
  LogicalResult shareCores();
  void resetSimulation();
  LogicalResult simulate();
  void criticalPath();
  void pipelineStages();

  FailureOr<int64_t> staticBytes(Operation *op, Type type, StringRef what);
  int taskIndex(DeviceAttr device) {
    auto it = taskByDevice.find(device.getTaskAttr());
    return it == taskByDevice.end() ? -1 : it->second;
  }

  ModuleOp module;
  const MachineModel &machine;
  bool preparedWeights;
  DistReport report;
  SmallVector<TaskOp> tasks;
  DenseMap<Attribute, int> taskByDevice;
  std::vector<std::vector<Instr>> programs;
  llvm::StringMap<int> collectiveByKey;
  /// Per send key: where the send is (task, instr).
  llvm::StringMap<std::pair<int, size_t>> sendAt;
  /// Per collective: where each member is in its program (task, instr).
  std::vector<std::vector<std::pair<int, size_t>>> members;
};

FailureOr<int64_t> Analyzer::staticBytes(Operation *op, Type type,
                                         StringRef what) {
  std::optional<int64_t> bytes = graph::getStaticSizeInBytes(type);
  if (!bytes) {
    return op->emitError() << what << " has type " << type
                           << " without a static shape: the report counts "
                              "bytes and needs static shapes (run "
                              "graph-infer-shapes or give --input-shape)";
  }
  return *bytes;
}

LogicalResult Analyzer::collect() {
  for (TaskOp task : module.getOps<TaskOp>()) {
    taskByDevice[task.getDevice().getTaskAttr()] = tasks.size();
    tasks.push_back(task);
    TaskReport r;
    r.name = task.getSymName().str();
    r.device = task.getDevice().str();
    report.tasks.push_back(std::move(r));
  }
  if (tasks.empty()) {
    return module.emitError()
           << "the module has no dist.task: the report reads a partitioned "
              "module (the output of the graphc-dist pipeline)";
  }
  programs.resize(tasks.size());

  // Variables no task assigns are weights: work that reads only them (and
  // constants) is done once when the task loads (graphc-cpu-prepare-weights,
  // e.g. the re-layout of a packed conv filter), not every step, unless the
  // job was compiled with --prepare-weights=false.
  llvm::DenseSet<StringAttr> assigned;
  module.walk([&](graph::AssignVariableOp a) {
    assigned.insert(a.getVariableAttr().getAttr());
  });

  for (auto [ti, task] : llvm::enumerate(tasks)) {
    TaskReport &tr = report.tasks[ti];
    std::vector<Instr> &prog = programs[ti];
    llvm::DenseSet<Value> weightOnly;
    for (Operation &op : task.getBody().front()) {
      if (isa<ReturnOp>(op)) {
        continue;
      }
      if (auto send = dyn_cast<SendOp>(op)) {
        FailureOr<int64_t> bytes =
            staticBytes(send, send.getInput().getType(), "sent tensor");
        if (failed(bytes)) {
          return failure();
        }
        int peer = taskIndex(send.getPeer());
        std::string to =
            peer >= 0 ? report.tasks[peer].name : send.getPeer().str();
        TransferReport t{tr.name,
                         to,
                         send.getKey().str(),
                         typeString(send.getInput().getType()),
                         *bytes,
                         machine.transferSeconds(double(*bytes))};
        report.transfers.push_back(t);
        report.transferBytes += *bytes;
        ChannelCount &c = tr.counters["send:" + t.key];
        c.bytes += *bytes;
        c.messages += 1;
        if (peer >= 0) {
          ChannelCount &rc = report.tasks[peer].counters["recv:" + t.key];
          rc.bytes += *bytes;
          rc.messages += 1;
        }
        sendAt[t.key] = {int(ti), prog.size()};
        Instr in{Instr::Send, &op, t.key};
        in.bytes = *bytes;
        in.seconds = double(*bytes) / machine.linkBytesPerSecond;
        prog.push_back(std::move(in));
        continue;
      }
      if (auto recv = dyn_cast<RecvOp>(op)) {
        Instr in{Instr::Recv, &op, recv.getKey().str()};
        prog.push_back(std::move(in));
        continue;
      }
      if (auto coll = dyn_cast<CollectiveOpInterface>(op)) {
        Type inType = coll.getInput().getType(),
             outType = coll.getResult().getType();
        FailureOr<int64_t> inBytes =
            staticBytes(&op, inType, "collective input");
        if (failed(inBytes) ||
            failed(staticBytes(&op, outType, "collective result"))) {
          return failure();
        }
        ArrayAttr group = coll.getGroup();
        int member = -1;
        for (auto [i, m] : llvm::enumerate(group)) {
          if (cast<DeviceAttr>(m).getTaskAttr() ==
              task.getDevice().getTaskAttr()) {
            member = i;
          }
        }
        Type elem = cast<ShapedType>(inType).getElementType();
        if (member < 0) {
          return op.emitError() << "task '" << tr.name
                                << "' is not a member of the group of "
                                   "collective '"
                                << coll.getKey() << "'";
        }
        if (!elem.isIntOrFloat()) {
          return op.emitError()
                 << "collective '" << coll.getKey() << "' on element type "
                 << elem << " has no runtime dtype to count bytes of";
        }
        auto [it, inserted] = collectiveByKey.try_emplace(
            coll.getKey(), report.collectives.size());
        if (inserted) {
          CollectiveReport c;
          c.kind = op.getName().stripDialect().str();
          c.key = coll.getKey().str();
          c.type = typeString(inType);
          c.bytes = *inBytes;
          for (Attribute m : group) {
            int idx = taskIndex(cast<DeviceAttr>(m));
            c.group.push_back(idx >= 0 ? report.tasks[idx].name
                                       : cast<DeviceAttr>(m).str());
          }
          c.groupName = llvm::join(c.group, "+");
          int64_t esize = (elem.getIntOrFloatBitWidth() + 7) / 8;
          c.elementBytes = esize;
          int64_t inCount = *graph::getStaticNumElements(inType);
          int64_t outCount = *graph::getStaticNumElements(outType);
          int64_t k = group.size(), root = 0;
          if (auto b = dyn_cast<BroadcastOp>(op)) {
            for (auto [i, m] : llvm::enumerate(group)) {
              if (cast<DeviceAttr>(m).getTaskAttr() ==
                  b.getRoot().getTaskAttr()) {
                root = i;
              }
            }
          }
          int64_t maxSent = 0;
          for (int64_t r = 0; r < k; ++r) {
            Sent s =
                collectiveSent(c.kind, inCount, outCount, esize, k, r, root);
            c.sentBytes.push_back(s.bytes);
            c.messages.push_back(s.messages);
            maxSent = std::max(maxSent, s.bytes);
          }
          c.seconds = collectiveSeconds(c.kind, inCount, outCount, esize, k,
                                        maxSent, machine);
          report.collectiveBytes += c.wireBytes();
          report.collectives.push_back(std::move(c));
          members.emplace_back(k, std::make_pair(-1, size_t(0)));
        }
        members[it->second][member] = {int(ti), prog.size()};
        Instr in{Instr::Collective, &op, coll.getKey().str()};
        in.collective = it->second;
        in.member = member;
        prog.push_back(std::move(in));
        continue;
      }
      ++tr.numOps;
      // A variable read or a constant names a buffer the task already has
      // (a memref argument, a global): the ops that read it pay for it.
      if (auto read = dyn_cast<graph::ReadVariableOp>(op)) {
        if (preparedWeights &&
            !assigned.contains(read.getVariableAttr().getAttr())) {
          weightOnly.insert(read.getResult());
        }
        continue;
      }
      if (isa<graph::ConstantOp>(op)) {
        continue;
      }
      bool fromWeight = false, onlyWeights = isPure(&op) &&
                                             op.getNumRegions() == 0 &&
                                             op.getNumOperands() > 0;
      for (Value v : op.getOperands()) {
        if (weightOnly.contains(v)) {
          fromWeight = true;
        } else if (!v.getDefiningOp<graph::ConstantOp>()) {
          onlyWeights = false;
        }
      }
      if (onlyWeights && fromWeight) {
        weightOnly.insert(op.getResults().begin(), op.getResults().end());
        continue;
      }
      std::optional<OpCost> cost = getOpCost(&op);
      if (!cost) {
        ++tr.unknownCostOps;
        continue;
      }
      tr.flops += cost->flops;
      tr.bytesMoved += cost->bytes;
      Instr in{Instr::Compute, &op, op.getName().getStringRef().str()};
      in.seconds = machine.opSeconds(op.getName().getStringRef(),
                                     double(cost->flops), double(cost->bytes));
      tr.computeSeconds += in.seconds;
      prog.push_back(std::move(in));
    }
  }

  // The runtime counts a collective's bytes once, at each sending member,
  // under the group's name; a member that sends nothing has no counter.
  for (CollectiveReport &c : report.collectives) {
    for (size_t i = 0; i < c.group.size(); ++i) {
      auto it = llvm::find_if(report.tasks, [&](const TaskReport &t) {
        return t.name == c.group[i];
      });
      if (it == report.tasks.end() || c.messages[i] == 0) {
        continue;
      }
      ChannelCount &cc = it->counters["collective:" + c.groupName];
      cc.bytes += c.sentBytes[i];
      cc.messages += c.messages[i];
    }
  }
  return success();
}

LogicalResult Analyzer::simulate() {
  size_t n = programs.size();
  std::vector<size_t> pc(n, 0);
  std::vector<double> clock(n, 0);
  llvm::StringMap<Arrival> arrivals;
  // Per collective: members arrived so far and when the last one did.
  std::vector<unsigned> arrived(report.collectives.size(), 0);
  std::vector<std::vector<bool>> memberIn(report.collectives.size());
  for (size_t i = 0; i < members.size(); ++i) {
    memberIn[i].assign(members[i].size(), false);
  }
  std::vector<double> startOf(report.collectives.size(), 0);

  for (bool progress = true; progress;) {
    progress = false;
    for (size_t t = 0; t < n; ++t) {
      std::vector<Instr> &prog = programs[t];
      TaskReport &tr = report.tasks[t];
      while (pc[t] < prog.size()) {
        Instr &in = prog[pc[t]];
        if (in.kind == Instr::Recv) {
          auto it = arrivals.find(in.name);
          if (it == arrivals.end()) {
            break;
          }
          in.ready = in.start = clock[t];
          in.end = std::max(clock[t], it->second.time);
          tr.waitSeconds += in.end - in.ready;
        } else if (in.kind == Instr::Collective) {
          int c = in.collective;
          if (!memberIn[c][in.member]) {
            memberIn[c][in.member] = true;
            in.ready = clock[t];
            startOf[c] = std::max(startOf[c], clock[t]);
            ++arrived[c];
            progress = true;
          }
          if (arrived[c] < members[c].size()) {
            break;
          }
          in.start = startOf[c];
          in.end = in.start + report.collectives[c].seconds;
          tr.waitSeconds += in.start - in.ready;
          tr.commSeconds += in.end - in.start;
        } else {
          in.ready = in.start = clock[t];
          in.end = in.start + in.seconds;
          if (in.kind == Instr::Send) {
            arrivals[in.name] = {in.start +
                                     machine.transferSeconds(double(in.bytes)),
                                 int(t), pc[t]};
            tr.commSeconds += in.seconds;
          }
        }
        clock[t] = in.end;
        ++pc[t];
        progress = true;
      }
    }
  }

  for (size_t t = 0; t < n; ++t) {
    if (pc[t] < programs[t].size()) {
      Instr &in = programs[t][pc[t]];
      return in.op->emitError()
             << "task '" << report.tasks[t].name
             << "' waits here forever: every task is blocked on a receive or "
                "collective whose peer comes later in its own program; order "
                "each task's ops by one global topological order";
    }
    report.tasks[t].finishSeconds = clock[t];
    report.stepSeconds = std::max(report.stepSeconds, clock[t]);
  }
  return success();
}

void Analyzer::criticalPath() {
  if (programs.empty()) {
    return;
  }
  int t = 0;
  for (size_t i = 1; i < programs.size(); ++i) {
    if (report.tasks[i].finishSeconds > report.tasks[t].finishSeconds) {
      t = i;
    }
  }
  std::vector<PathStep> path;
  // Ops merged into each compute stretch of `path`.
  std::vector<unsigned> merged;
  auto push = [&](int task, StringRef kind, StringRef name, double start,
                  double end) {
    if (end <= start) {
      return;
    }
    // Consecutive compute ops of one task read as one stretch.
    if (!path.empty() && kind == "compute" && path.back().kind == "compute" &&
        path.back().task == report.tasks[task].name) {
      path.back().startSeconds = start;
      path.back().name = std::to_string(++merged.back()) + " ops";
      return;
    }
    path.push_back(
        {report.tasks[task].name, kind.str(), name.str(), start, end});
    merged.push_back(1);
  };
  long idx = long(programs[t].size()) - 1;
  while (idx >= 0) {
    const Instr &in = programs[t][idx];
    switch (in.kind) {
    case Instr::Compute:
      push(t, "compute", in.name, in.start, in.end);
      --idx;
      break;
    case Instr::Send:
      push(t, "send", in.name, in.start, in.end);
      --idx;
      break;
    case Instr::Recv: {
      // A receive that waited continues the path in its sender.
      auto it = sendAt.find(in.name);
      if (in.end > in.ready && it != sendAt.end()) {
        auto [st, si] = it->second;
        push(st, "transfer", in.name + " -> " + report.tasks[t].name,
             programs[st][si].start, in.end);
        t = st;
        idx = long(si) - 1;
        break;
      }
      --idx;
      break;
    }
    case Instr::Collective: {
      const CollectiveReport &c = report.collectives[in.collective];
      push(t, c.kind, in.name, in.start, in.end);
      if (in.start > in.ready) {
        // Continue in the member that arrived last: it held the rest.
        for (auto [mt, mi] : members[in.collective]) {
          if (programs[mt][mi].ready == in.start) {
            t = mt;
            idx = long(mi);
            break;
          }
        }
      }
      --idx;
      break;
    }
    }
  }
  std::reverse(path.begin(), path.end());
  report.criticalPath = std::move(path);
}

/// Tasks that share `machine.sharedCores` cores (a local job) compute
/// slower while more of them compute than there are cores: with N tasks
/// computing on C < N cores each one advances at C/N of a core's speed
/// (processor sharing). Which tasks compute at once depends on the
/// schedule: the replicas of a data-parallel step all compute together, but
/// pipeline stages take turns and a stage waiting on its receive leaves its
/// core to the others. So each compute op runs, on the simulated timeline,
/// at the speed that the tasks computing beside it leave it; since the
/// stretched ops move the timeline, this is iterated (damped, so that two
/// orders of events do not ping-pong) to a fixed point, where every op's
/// duration is what processor sharing gives it. Sends and transfers are
/// left alone (loopback copies are short next to compute).
LogicalResult Analyzer::shareCores() {
  unsigned computing = llvm::count_if(
      report.tasks, [](const TaskReport &t) { return t.computeSeconds > 0; });
  double cores = machine.sharedCores;
  if (cores <= 0 || computing <= cores) {
    return success();
  }
  std::vector<Instr *> ops;
  std::vector<double> work;
  for (std::vector<Instr> &prog : programs) {
    for (Instr &in : prog) {
      if (in.kind == Instr::Compute && in.seconds > 0) {
        ops.push_back(&in);
        work.push_back(in.seconds);
      }
    }
  }
  auto speed = [&](int level) {
    return level <= cores ? 1.0 : cores / double(level);
  };
  std::vector<double> factor(ops.size(), 1.0);
  constexpr int kMaxIterations = 100;
  constexpr double kTolerance = 1e-5;
  for (int iter = 0; iter < kMaxIterations; ++iter) {
    for (size_t i = 0; i < ops.size(); ++i) {
      ops[i]->seconds = work[i] * factor[i];
    }
    if (failed(simulate())) {
      return failure();
    }
    // The tasks computing, a step function of time (levels[k] from
    // times[k] on), and the work one op gets done from times[0] to each
    // breakpoint (done[k]): before and after the breakpoints nothing else
    // computes and an op runs at full speed.
    std::vector<std::pair<double, int>> events;
    events.reserve(2 * ops.size());
    for (Instr *in : ops) {
      events.push_back({in->start, +1});
      events.push_back({in->end, -1});
    }
    llvm::sort(events);
    std::vector<double> times, done;
    std::vector<int> levels;
    int level = 0;
    for (auto [time, step] : events) {
      done.push_back(times.empty() ? 0
                                   : done.back() + speed(levels.back()) *
                                                       (time - times.back()));
      times.push_back(time);
      level += step;
      levels.push_back(level);
    }
    // Work done by `t`, and its inverse.
    auto doneBy = [&](double t) {
      long k = long(llvm::upper_bound(times, t) - times.begin()) - 1;
      return k < 0 ? t - times[0] : done[k] + speed(levels[k]) * (t - times[k]);
    };
    auto timeOf = [&](double w) {
      long k = long(llvm::upper_bound(done, w) - done.begin()) - 1;
      return k < 0 ? times[0] + w : times[k] + (w - done[k]) / speed(levels[k]);
    };
    double moved = 0;
    for (size_t i = 0; i < ops.size(); ++i) {
      double end = timeOf(doneBy(ops[i]->start) + work[i]);
      double target = (end - ops[i]->start) / work[i];
      // Alone on a core (up to rounding): no stretch at all.
      target = target < 1 + 1e-9 ? 1.0 : target;
      moved = std::max(moved, std::abs(target - factor[i]) / factor[i]);
      factor[i] = 0.5 * (factor[i] + target);
    }
    resetSimulation();
    if (moved < kTolerance) {
      break;
    }
  }
  double before = 0, after = 0;
  for (size_t i = 0; i < ops.size(); ++i) {
    ops[i]->seconds = work[i] * factor[i];
    before += work[i];
    after += ops[i]->seconds;
  }
  for (auto [t, prog] : llvm::enumerate(programs)) {
    report.tasks[t].computeSeconds = 0;
    for (Instr &in : prog) {
      if (in.kind == Instr::Compute) {
        report.tasks[t].computeSeconds += in.seconds;
      }
    }
  }
  report.computeSlowdown = before > 0 ? after / before : 1;
  return success();
}

/// Forgets what a simulate() run added up, so that it can run again.
void Analyzer::resetSimulation() {
  for (TaskReport &t : report.tasks) {
    t.waitSeconds = t.commSeconds = t.finishSeconds = 0;
  }
  report.stepSeconds = 0;
}

/// Per stage of a pipeline (dist.pipeline): stage k of replica r is the
/// worker job's task r*P + k. The bubble is what GPipe's schedule leaves
/// idle while the pipeline fills and drains, plus what unequal stages wait.
void Analyzer::pipelineStages() {
  auto attr = module->getAttrOfType<DictionaryAttr>(
      dist::DistDialect::kPipelineAttrName);
  if (!attr) {
    return;
  }
  int64_t p = attr.getAs<IntegerAttr>("stages").getInt();
  PipelineReport pipe;
  pipe.microbatches = attr.getAs<IntegerAttr>("microbatches").getInt();
  pipe.replicas = attr.getAs<IntegerAttr>("replicas").getInt();
  pipe.stages.resize(p);
  pipe.idealBubble = double(p - 1) / double(pipe.microbatches + p - 1);
  double busyTotal = 0;
  int64_t counted = 0;
  for (auto [ti, task] : llvm::enumerate(tasks)) {
    std::optional<int64_t> index = task.getDevice().getTask();
    if (!index || *index >= p * pipe.replicas) {
      continue;
    }
    const TaskReport &t = report.tasks[ti];
    StageReport &stage = pipe.stages[*index % p];
    double busy = t.computeSeconds + t.commSeconds;
    stage.tasks.push_back(t.name);
    stage.computeSeconds = std::max(stage.computeSeconds, t.computeSeconds);
    stage.busySeconds = std::max(stage.busySeconds, busy);
    busyTotal += busy;
    ++counted;
  }
  for (StageReport &stage : pipe.stages) {
    stage.idleSeconds = report.stepSeconds - stage.busySeconds;
  }
  if (counted > 0 && report.stepSeconds > 0) {
    pipe.bubble = 1 - busyTotal / (double(counted) * report.stepSeconds);
  }
  report.pipeline = std::move(pipe);
}

FailureOr<DistReport> Analyzer::run() {
  report.machine = machine;
  report.autoChoice = AutoReport::fromAttr(module->getAttr(kAutoAttrName));
  if (failed(collect())) {
    return failure();
  }
  if (failed(shareCores()) || failed(simulate())) {
    return failure();
  }
  criticalPath();
  pipelineStages();
  return std::move(report);
}

} // namespace

std::optional<OpCost> graphc::getOpCost(Operation *op) {
  if (isa<graph::ReadVariableOp, graph::ConstantOp>(op)) {
    return OpCost{};
  }
  // The cost interface where an op has it; ops with regions and no cost of
  // their own cost what their bodies cost.
  std::optional<int64_t> flops = 0, bytes = 0;
  auto add = [&](graph::CostOpInterface c) {
    std::optional<int64_t> f = c.getFlops(), b = c.getBytesMoved();
    flops = flops && f ? std::optional<int64_t>(*flops + *f) : std::nullopt;
    bytes = bytes && b ? std::optional<int64_t>(*bytes + *b) : std::nullopt;
  };
  if (auto c = dyn_cast<graph::CostOpInterface>(op)) {
    add(c);
  } else {
    op->walk([&](graph::CostOpInterface c) { add(c); });
  }
  if (!flops || !bytes) {
    return std::nullopt;
  }
  return OpCost{*flops, *bytes};
}

FailureOr<DistReport> graphc::analyzeDistribution(ModuleOp module,
                                                  const MachineModel &machine,
                                                  bool preparedWeights) {
  return Analyzer(module, machine, preparedWeights).run();
}

double graphc::estimateComputeSeconds(Operation *op,
                                      const MachineModel &machine) {
  std::optional<OpCost> cost = getOpCost(op);
  return cost ? machine.opSeconds(op->getName().getStringRef(),
                                  double(cost->flops), double(cost->bytes))
              : 0;
}

double graphc::estimateCollectiveSeconds(llvm::StringRef kind,
                                         int64_t inputCount,
                                         int64_t outputCount,
                                         int64_t elementBytes, int64_t members,
                                         const MachineModel &machine) {
  int64_t maxSent = 0;
  for (int64_t r = 0; r < members; ++r) {
    maxSent = std::max(maxSent, collectiveSent(kind, inputCount, outputCount,
                                               elementBytes, members, r, 0)
                                    .bytes);
  }
  return collectiveSeconds(kind, inputCount, outputCount, elementBytes, members,
                           maxSent, machine);
}

DictionaryAttr AutoReport::toAttr(MLIRContext *ctx) const {
  Builder b(ctx);
  SmallVector<Attribute> list;
  for (const AutoCandidateReport &c : candidates) {
    SmallVector<NamedAttribute> fields{
        b.getNamedAttr("label", b.getStringAttr(c.label))};
    if (c.refusal.empty()) {
      fields.push_back(b.getNamedAttr("tasks", b.getI64IntegerAttr(c.tasks)));
      // Integer nanoseconds, as the report's JSON writes times.
      fields.push_back(b.getNamedAttr(
          "step_ns", b.getI64IntegerAttr(std::llround(c.stepSeconds * 1e9))));
    } else {
      fields.push_back(b.getNamedAttr("refused", b.getStringAttr(c.refusal)));
    }
    list.push_back(b.getDictionaryAttr(fields));
  }
  return b.getDictionaryAttr(
      {b.getNamedAttr("chosen", b.getStringAttr(chosen)),
       b.getNamedAttr("workers", b.getI64IntegerAttr(workers)),
       b.getNamedAttr("machine", b.getStringAttr(machine)),
       b.getNamedAttr("candidates", b.getArrayAttr(list))});
}

std::optional<AutoReport> AutoReport::fromAttr(Attribute attr) {
  auto dict = dyn_cast_or_null<DictionaryAttr>(attr);
  if (!dict) {
    return std::nullopt;
  }
  AutoReport r;
  auto str = [](DictionaryAttr d, StringRef name) {
    auto s = d.getAs<StringAttr>(name);
    return s ? s.str() : std::string();
  };
  auto i64 = [](DictionaryAttr d, StringRef name) {
    auto i = d.getAs<IntegerAttr>(name);
    return i ? i.getInt() : int64_t(0);
  };
  r.chosen = str(dict, "chosen");
  r.workers = i64(dict, "workers");
  r.machine = str(dict, "machine");
  if (auto list = dict.getAs<ArrayAttr>("candidates")) {
    for (auto c : list.getAsRange<DictionaryAttr>()) {
      r.candidates.push_back({str(c, "label"), i64(c, "tasks"),
                              double(i64(c, "step_ns")) * 1e-9,
                              str(c, "refused")});
    }
  }
  return r;
}
