// Worker.cpp: loading a task from a bundle, running its steps, and moving its
// tensors between workers.
#include "Worker.h"

#include "CollectiveQueue.h"
#include "Collectives.h"
#include "Context.h"
#include "DataFeed.h"
#include "DataPlane.h"
#include "Gpu/GpuTask.h"
#include "Gpu/Target.h"
#include "Manifest.h"
#include "Rendezvous.h"
#include "ShmCollectives.h"
#include "Transfer.h"

#include <grpcpp/grpcpp.h>

#include <dlfcn.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdarg>
#include <cstddef>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <fstream>
#include <functional>
#include <future>
#include <map>
#include <set>
#include <thread>
#include <type_traits>

namespace graphrt {
namespace {

constexpr size_t kDefaultChunkBytes = 1 << 20;

grpc::Status toGrpc(const Status &st) {
  if (st.isOk()) {
    return grpc::Status::OK;
  }
  return grpc::Status(static_cast<grpc::StatusCode>(st.code()), st.message());
}

struct FreeDeleter {
  void operator()(void *p) const { std::free(p); }
};
using AlignedBytes = std::unique_ptr<char, FreeDeleter>;

AlignedBytes allocateAligned(size_t size, size_t alignment) {
  if (alignment == 0) {
    alignment = 64;
  }
  size_t rounded = (size + alignment - 1) / alignment * alignment;
  void *p = std::aligned_alloc(alignment, rounded ? rounded : alignment);
  if (p) {
    std::memset(p, 0, rounded ? rounded : alignment);
  }
  return AlignedBytes(static_cast<char *>(p));
}

std::string shapeString(const int64_t *shape, int32_t rank) {
  std::string s = "[";
  for (int32_t i = 0; i < rank; ++i) {
    s += (i ? "," : "") + std::to_string(shape[i]);
  }
  return s + "]";
}

Status compareSignature(const graphrt_tensor_signature_t &d,
                        const manifest::TensorSignature &m,
                        const std::string &where) {
  std::string dname = d.name ? d.name : "";
  if (dname != m.name()) {
    return Status(GRAPHRT_STATUS_FAILED_PRECONDITION,
                  where + " is '" + dname + "' in the task binary but '" +
                      m.name() + "' in the manifest");
  }
  bool same = parseDType(m.dtype()) == d.dtype && d.rank == m.shape_size();
  for (int32_t i = 0; same && i < d.rank; ++i) {
    same = d.shape[i] == m.shape(i);
  }
  if (!same) {
    return Status(GRAPHRT_STATUS_FAILED_PRECONDITION,
                  where + " '" + m.name() + "' is " + dtypeName(d.dtype) +
                      shapeString(d.shape, d.rank) +
                      " in the task binary but " + describe(m) +
                      " in the manifest");
  }
  return Status::ok();
}

} // namespace

/// A task loaded from a bundle: its library, variables, rendezvous and peers.
class LoadedTask final : public DataSink {
public:
  ~LoadedTask() {
    // The library stays mapped: a task may have left threads or static
    // destructors behind, and unmapping under them would crash the worker.
  }

  Status load(const rpc::LoadTaskRequest &req, const SecurityConfig *sec,
              std::shared_ptr<DataTls> tls);
  Status runStep(const rpc::RunStepRequest &req, rpc::RunStepResponse *resp);
  /// RunSteps: the range of steps, each batch of the request's --data
  /// inputs cut here while the previous step runs; `emit` gets each step's
  /// response and returns false when graph-run has gone away.
  Status
  runSteps(const rpc::RunStepsRequest &req,
           const std::function<bool(const rpc::RunStepResponse &)> &emit);
  /// The variables out (a copy) and in (every one, checked against the
  /// manifest); the caller holds the step lock.
  void readVariables(rpc::ReadVariablesResponse *resp) const;
  Status writeVariables(const rpc::WriteVariablesRequest &req);
  /// The descriptor's `prepare`, when it has one (after loading or writing
  /// the variables).
  Status prepareVariables();

  Status sendBytes(const std::string &peer, const std::string &key,
                   const void *data, size_t bytes, const std::string &counter);
  Status recvBytes(const std::string &key, void *data, size_t bytes,
                   const std::string &counter);
  /// Offers `data` to an incoming `key` before waiting on it with
  /// `recvBytes`, so a transfer that arrives meanwhile lands in place.
  void postRecv(const std::string &key, void *data, size_t bytes) {
    rdv_.post(key, data, bytes);
  }
  /// Withdraws a posted buffer that will not be waited on (an error path):
  /// afterwards no transfer writes into it.
  void unpostRecv(const std::string &key, void *data, size_t bytes) {
    (void)rdv_.take(key, data, bytes, Clock::now());
  }

  // DataSink, for the TCP data plane's reader threads.
  Rendezvous &rendezvous() override { return rdv_; }
  void advance() override { progress_.fetch_add(1, std::memory_order_relaxed); }
  std::chrono::milliseconds ioTimeout() const override { return recvTimeout_; }

  /// Marks the task's thread as inside a communication call of the runtime
  /// (for health reports: a task outside one is computing, not stalled).
  struct InCall {
    explicit InCall(LoadedTask *t) : t(t) { ++t->inCall_; }
    ~InCall() { --t->inCall_; }
    LoadedTask *t;
  };
  std::atomic<int> inCall_{0};
  /// Collective scratch, reused across steps (collectives run one at a time,
  /// on the step's thread or the communication thread).
  std::vector<char> workspace_;
  /// The communication thread: started collectives (all_reduce_start) run
  /// there in start order; a blocking collective issued while some are in
  /// flight runs after them.
  CollectiveQueue collectives_;
  /// The shared-memory path of `group` for a call that wants `bytes` per
  /// slot, set up (or grown) on first need over `call`'s transport; null
  /// when the group's collectives run over the data plane. Every member
  /// decides alike: the flag and the addresses are the same on all, and a
  /// setup's outcome is agreed on. On the step's thread only.
  Status shmGroup(const manifest::CollectiveGroup &group,
                  const CollectiveCall &call, size_t bytes, ShmGroup **out);
  /// "shared-memory barrier (waiting for ...)" while the task waits in one.
  std::string shmWaitingOn() {
    std::lock_guard<std::mutex> lock(shmMu_);
    for (auto &[name, s] : shm_) {
      if (s.group) {
        std::string w = s.group->waitingOn();
        if (!w.empty()) {
          return "group '" + name + "' " + w;
        }
      }
    }
    return "";
  }
  void count(const std::string &counter, uint64_t bytes) {
    std::lock_guard<std::mutex> lock(countersMu_);
    auto &c = counters_[counter];
    c.first += bytes;
    c.second += 1;
  }
  void fillCounters(rpc::RunStepResponse *resp) {
    std::lock_guard<std::mutex> lock(countersMu_);
    for (const auto &[name, c] : counters_) {
      rpc::ChannelCounter *out = resp->add_counters();
      out->set_channel(name);
      out->set_bytes(c.first);
      out->set_messages(c.second);
    }
  }
  void abort(const std::string &reason) {
    cancelled_ = true;
    rdv_.cancel(Status(GRAPHRT_STATUS_CANCELLED,
                       "task '" + name() + "' was cancelled: " + reason));
    // Outgoing transfers too: one stuck on a dead peer would otherwise hold
    // the step (and the worker's shutdown) until its deadline.
    {
      std::lock_guard<std::mutex> lock(inflightMu_);
      for (grpc::ClientContext *ctx : inflight_) {
        ctx->TryCancel();
      }
    }
    {
      std::lock_guard<std::mutex> lock(shmMu_);
      for (auto &[group, s] : shm_) {
        if (s.group) {
          s.group->wake();
        }
      }
    }
    std::lock_guard<std::mutex> lock(dataMu_);
    for (auto &[peer, conn] : data_) {
      conn->shutdown();
    }
  }
  const std::string &name() const { return spec_->name(); }

  /// Records a span of this step when tracing; returns the start time.
  static int64_t nowUs() {
    return std::chrono::duration_cast<std::chrono::microseconds>(
               std::chrono::system_clock::now().time_since_epoch())
        .count();
  }
  void traceEvent(const std::string &name, const char *category,
                  int64_t startUs, uint64_t bytes, const std::string &peer,
                  int64_t waitUs = -1) {
    if (!tracing_) {
      return;
    }
    rpc::TraceEvent e;
    e.set_name(name);
    e.set_category(category);
    e.set_start_us(startUs);
    e.set_duration_us(nowUs() - startUs);
    e.set_bytes(bytes);
    e.set_peer(peer);
    e.set_wait_us(waitUs);
    std::lock_guard<std::mutex> lock(traceMu_);
    trace_.push_back(std::move(e));
  }
  std::atomic<uint64_t> progress_{0};
  std::string stepKey(const std::string &kind, const std::string &key) const {
    return "s" + std::to_string(currentStep_.load()) + "/" + kind + "/" + key;
  }
  const manifest::Channel *channel(const std::string &key) const {
    for (const manifest::Channel &c : bundle_.manifest.channels()) {
      if (c.key() == key) {
        return &c;
      }
    }
    return nullptr;
  }
  const manifest::CollectiveGroup *group(const std::string &name) const {
    for (const manifest::CollectiveGroup &g :
         bundle_.manifest.collective_groups()) {
      if (g.name() == name) {
        return &g;
      }
    }
    return nullptr;
  }
  /// The key prefix of the next collective on `group` in this step.
  std::string nextCollectiveKey(const std::string &group) {
    int seq = groupSeq_[group]++;
    return stepKey("c", group + "/" + std::to_string(seq));
  }

  std::atomic<int64_t> currentStep_{-1};
  std::atomic<int64_t> stepsCompleted_{0};
  std::atomic<bool> cancelled_{false};
  std::atomic<bool> failed_{false};
  std::mutex errorMu_;
  std::string lastError_;
  std::string manifestSha256() const { return bundle_.manifestSha256; }

private:
  Status checkDescriptor();
  Status bindGpu();
  Status loadVariables();
  Status transportStub(const std::string &peer, rpc::Transport::Stub **out);
  Status sendGrpc(const std::string &peer, const std::string &key,
                  const void *data, size_t bytes);
  Status sendTcp(const std::string &peer, const std::string &key,
                 const void *data, size_t bytes);
  Status dataConnection(const std::string &peer, DataConnection **out);

  Bundle bundle_;
  const manifest::Task *spec_ = nullptr;
  const graphrt_task_descriptor_v1_t *desc_ = nullptr;
  std::vector<AlignedBytes> variableData_;
  std::vector<graphrt_tensor_t> variables_;
  Rendezvous rdv_;
  std::map<std::string, std::string> peers_;
  std::mutex stubsMu_;
  std::map<std::string, std::unique_ptr<rpc::Transport::Stub>> stubs_;
  std::chrono::milliseconds recvTimeout_{30000};
  size_t chunkBytes_ = kDefaultChunkBytes;
  std::mutex countersMu_;
  std::map<std::string, std::pair<uint64_t, uint64_t>> counters_;
  std::map<std::string, int> groupSeq_;
  std::mutex inflightMu_;
  std::set<grpc::ClientContext *> inflight_;
  const SecurityConfig *sec_ = nullptr;
  bool tcp_ = false; // --data-plane=tcp
  std::shared_ptr<DataTls> tls_;
  /// --data files read by runSteps, kept for the next range (by input and
  /// path): a run's ranges read the same files.
  std::map<std::pair<std::string, std::string>, DataFile> feedFiles_;
  std::mutex dataMu_;
  std::map<std::string, std::unique_ptr<DataConnection>> data_;
  bool shmCollectives_ = false; // LoadTaskRequest.shm_collectives
  struct ShmState {
    bool decided = false; // whether shared memory may be used at all
    bool off = false;
    std::unique_ptr<ShmGroup> group;
  };
  // By group name. Replaced only on the step's thread, under the lock that
  // abort() and Health take to reach the groups.
  std::mutex shmMu_;
  std::map<std::string, ShmState> shm_;
  std::atomic<bool> tracing_{false};
  std::mutex traceMu_;
  std::vector<rpc::TraceEvent> trace_;
  // The table handed to the task: the shared services, with `gpu` set for
  // a cuda task.
  graphrt_services_v1_t services_{};
  std::unique_ptr<gpu::GpuTask> gpu_;
  graphrt_context_s ctx_{this};
};

namespace {

// Collective members address each other by rank; ranks map to task names.
// `record` false: the shared-memory setup's messages, which are neither
// counted nor traced (they are not the collective's data).
class GroupTransport : public PeerTransport {
public:
  GroupTransport(LoadedTask &task, const manifest::CollectiveGroup &group,
                 bool record = true)
      : task_(task), group_(group), record_(record) {}
  Status send(int peerRank, const std::string &key, const void *data,
              size_t bytes) override {
    int64_t start = LoadedTask::nowUs();
    Status st = task_.sendBytes(group_.tasks(peerRank), key, data, bytes,
                                record_ ? "collective:" + group_.name() : "");
    if (record_) {
      task_.traceEvent("send " + group_.name(), "send", start, bytes,
                       group_.tasks(peerRank));
    }
    return st;
  }
  Status recv(int peerRank, const std::string &key, void *data,
              size_t bytes) override {
    // Bytes are counted once, at the sender.
    int64_t start = LoadedTask::nowUs();
    Status st = task_.recvBytes(key, data, bytes, "");
    if (record_) {
      task_.traceEvent("recv " + group_.name(), "recv", start, bytes,
                       group_.tasks(peerRank));
    }
    return st;
  }

  void post(int, const std::string &key, void *data, size_t bytes) override {
    task_.postRecv(key, data, bytes);
  }
  void unpost(int, const std::string &key, void *data, size_t bytes) override {
    task_.unpostRecv(key, data, bytes);
  }

private:
  LoadedTask &task_;
  const manifest::CollectiveGroup &group_;
  bool record_;
};

LoadedTask *taskOf(graphrt_context_t *ctx) { return ctx->task; }

//===----------------------------------------------------------------------===//
// The services table handed to task binaries
//===----------------------------------------------------------------------===//

graphrt_status_t svcStatusCreate(graphrt_status_code_t code,
                                 const char *message) {
  return Status(code == GRAPHRT_STATUS_OK ? GRAPHRT_STATUS_UNKNOWN : code,
                message ? message : "")
      .toC();
}
void svcStatusRelease(graphrt_status_t st) { delete st; }
graphrt_status_code_t svcStatusCode(graphrt_status_t st) {
  return st ? st->code : GRAPHRT_STATUS_OK;
}

graphrt_status_t svcBufferAllocate(graphrt_context_t *, size_t size,
                                   size_t alignment, void **out_ptr) {
  if (alignment & (alignment - 1)) {
    return Status(GRAPHRT_STATUS_INVALID_ARGUMENT,
                  "alignment " + std::to_string(alignment) +
                      " is not a power of two")
        .toC();
  }
  AlignedBytes p = allocateAligned(size, alignment);
  if (!p) {
    return Status(GRAPHRT_STATUS_RESOURCE_EXHAUSTED,
                  "cannot allocate " + std::to_string(size) + " bytes")
        .toC();
  }
  *out_ptr = p.release();
  return GRAPHRT_OK;
}
void svcBufferRelease(graphrt_context_t *, void *ptr) { std::free(ptr); }

graphrt_status_t svcSend(graphrt_context_t *ctx, const char *key,
                         const graphrt_tensor_t *tensor) {
  LoadedTask *t = taskOf(ctx);
  const manifest::Channel *c = key ? t->channel(key) : nullptr;
  if (!c || c->src() != t->name()) {
    return Status(GRAPHRT_STATUS_INVALID_ARGUMENT,
                  "task '" + t->name() + "' has no send channel '" +
                      (key ? key : "") + "'")
        .toC();
  }
  if (static_cast<int64_t>(tensor->size_bytes) != byteSize(c->payload())) {
    return Status(GRAPHRT_STATUS_INVALID_ARGUMENT,
                  "send on '" + c->key() +
                      "': " + std::to_string(tensor->size_bytes) +
                      " bytes, the channel carries " + describe(c->payload()))
        .toC();
  }
  LoadedTask::InCall inCall(t);
  int64_t start = LoadedTask::nowUs();
  Status st = t->sendBytes(c->dst(), t->stepKey("p", c->key()), tensor->data,
                           tensor->size_bytes, "send:" + c->key());
  t->traceEvent("send " + c->key(), "send", start, tensor->size_bytes,
                c->dst());
  return st.toC();
}

graphrt_status_t svcRecv(graphrt_context_t *ctx, const char *key,
                         graphrt_tensor_t *tensor) {
  LoadedTask *t = taskOf(ctx);
  const manifest::Channel *c = key ? t->channel(key) : nullptr;
  if (!c || c->dst() != t->name()) {
    return Status(GRAPHRT_STATUS_INVALID_ARGUMENT,
                  "task '" + t->name() + "' has no recv channel '" +
                      (key ? key : "") + "'")
        .toC();
  }
  if (static_cast<int64_t>(tensor->size_bytes) != byteSize(c->payload())) {
    return Status(GRAPHRT_STATUS_INVALID_ARGUMENT,
                  "recv on '" + c->key() + "': buffer of " +
                      std::to_string(tensor->size_bytes) +
                      " bytes, the channel carries " + describe(c->payload()))
        .toC();
  }
  LoadedTask::InCall inCall(t);
  int64_t start = LoadedTask::nowUs();
  Status st = t->recvBytes(t->stepKey("p", c->key()), tensor->data,
                           tensor->size_bytes, "recv:" + c->key());
  t->traceEvent("recv " + c->key(), "recv", start, tensor->size_bytes,
                c->src());
  return st.toC();
}

// Resolves `group` to a collective call for this task.
Status collectiveCall(LoadedTask *t, const char *group,
                      const manifest::CollectiveGroup **out_group,
                      int *out_rank) {
  const manifest::CollectiveGroup *g = group ? t->group(group) : nullptr;
  if (!g) {
    return Status(GRAPHRT_STATUS_INVALID_ARGUMENT,
                  "unknown collective group '" +
                      std::string(group ? group : "") + "'");
  }
  for (int i = 0; i < g->tasks_size(); ++i) {
    if (g->tasks(i) == t->name()) {
      *out_group = g;
      *out_rank = i;
      return Status::ok();
    }
  }
  return Status(GRAPHRT_STATUS_INVALID_ARGUMENT,
                "task '" + t->name() +
                    "' is not a member of collective group '" + g->name() +
                    "'");
}

// Runs one collective of `t`, member `rank` of `g`, under the key prefix
// `key`: over the group's shared-memory segment when its members share this
// host (`shmBytes`: what the call wants per slot; `shmFn(group)`), else over
// the data plane (`ringFn(call)`). `bytes` is the tensor size for the trace;
// `inBytes` what this rank puts in, counted as "shm:<group>" on the
// shared-memory path. Runs on the task's thread or its communication thread
// (`category` "collective-async"), never on both at once.
template <typename RingFn, typename ShmFn>
Status execCollective(LoadedTask *t, const manifest::CollectiveGroup *g,
                      int rank, const std::string &key, const char *what,
                      const char *category, size_t bytes, size_t shmBytes,
                      size_t inBytes, RingFn ringFn, ShmFn shmFn) {
  LoadedTask::InCall inCall(t);
  GroupTransport transport(*t, *g);
  CollectiveCall call{&transport, rank, g->tasks_size(), key, &t->workspace_};
  int64_t start = LoadedTask::nowUs();
  ShmGroup *shm = nullptr;
  int64_t waitUs = -1;
  Status st;
  if constexpr (!std::is_same_v<ShmFn, std::nullptr_t>) {
    st = t->shmGroup(*g, call, shmBytes, &shm);
    if (st.isOk() && shm) {
      st = shmFn(*shm);
      waitUs = shm->lastWaitUs();
      if (st.isOk()) {
        t->count("shm:" + g->name(), inBytes);
      }
    }
  }
  if (st.isOk() && !shm) {
    st = ringFn(call);
  }
  t->advance();
  t->traceEvent(std::string(what) + " " + g->name(), category, start, bytes,
                g->name(), waitUs);
  if (!st.isOk()) {
    st = Status(st.code(),
                "collective on group '" + g->name() + "': " + st.message());
  }
  return st;
}

// The task, group, rank and next key of a collective call on `group`.
struct CollectiveTarget {
  LoadedTask *task;
  const manifest::CollectiveGroup *group;
  int rank;
  std::string key;
  std::string describe(const char *what) const {
    return std::string(what) + " on group '" + group->name() + "'";
  }
};

Status collectiveTarget(graphrt_context_t *ctx, const char *group,
                        CollectiveTarget *out) {
  out->task = taskOf(ctx);
  Status st = collectiveCall(out->task, group, &out->group, &out->rank);
  if (st.isOk()) {
    out->key = out->task->nextCollectiveKey(out->group->name());
  }
  return st;
}

// A blocking collective: runs at once on the task's thread, or, while
// started collectives are in flight, after them on the communication thread.
template <typename RingFn, typename ShmFn>
graphrt_status_t runCollective(graphrt_context_t *ctx, const char *what,
                               const char *group, size_t bytes, size_t shmBytes,
                               size_t inBytes, RingFn ringFn, ShmFn shmFn) {
  CollectiveTarget c;
  if (Status st = collectiveTarget(ctx, group, &c); !st.isOk()) {
    return st.toC();
  }
  LoadedTask::InCall inCall(c.task);
  return c.task->collectives_
      .runNow(c.describe(what),
              [&] {
                return execCollective(c.task, c.group, c.rank, c.key, what,
                                      "collective", bytes, shmBytes, inBytes,
                                      ringFn, shmFn);
              })
      .toC();
}

// The ring and shared-memory forms of one all-reduce, for runCollective or
// a started call.
auto allReduceFns(graphrt_reduce_op_t op, graphrt_dtype_t dtype,
                  const void *input, void *output, size_t count) {
  return std::make_pair(
      [=](const CollectiveCall &c) {
        return ringAllReduce(c, op, dtype, input, output, count);
      },
      [=](ShmGroup &s) {
        return s.allReduce(op, dtype, input, output, count);
      });
}

graphrt_status_t svcAllReduce(graphrt_context_t *ctx, const char *group,
                              graphrt_reduce_op_t op, graphrt_dtype_t dtype,
                              const void *input, void *output, size_t count) {
  size_t bytes = count * graphrt_dtype_size(dtype);
  auto [ring, shm] = allReduceFns(op, dtype, input, output, count);
  return runCollective(ctx, "all_reduce", group, bytes,
                       shmAllReduceBytes(dtype, count), bytes, ring, shm);
}
// all_reduce_start: the call is queued for the task's communication thread
// with its key taken now, so that the members' calls pair in program order.
graphrt_status_t svcAllReduceStart(graphrt_context_t *ctx, const char *group,
                                   graphrt_reduce_op_t op,
                                   graphrt_dtype_t dtype, const void *input,
                                   void *output, size_t count,
                                   uint64_t *out_request) {
  *out_request = 0;
  CollectiveTarget c;
  if (Status st = collectiveTarget(ctx, group, &c); !st.isOk()) {
    return st.toC();
  }
  size_t bytes = count * graphrt_dtype_size(dtype);
  auto run = [c, bytes, shmBytes = shmAllReduceBytes(dtype, count),
              fns = allReduceFns(op, dtype, input, output, count)]() {
    return execCollective(c.task, c.group, c.rank, c.key, "all_reduce",
                          "collective-async", bytes, shmBytes, bytes, fns.first,
                          fns.second);
  };
  *out_request = c.task->collectives_.start(c.describe("all_reduce"), run);
  return GRAPHRT_OK;
}

graphrt_status_t svcWait(graphrt_context_t *ctx, uint64_t request) {
  LoadedTask *t = taskOf(ctx);
  LoadedTask::InCall inCall(t);
  int64_t start = LoadedTask::nowUs();
  Status st = t->collectives_.wait(request);
  t->traceEvent("wait", "wait", start, 0, "");
  return st.toC();
}

graphrt_status_t svcAllGather(graphrt_context_t *ctx, const char *group,
                              graphrt_dtype_t dtype, const void *input,
                              void *output, size_t count) {
  size_t bytes = count * graphrt_dtype_size(dtype);
  return runCollective(
      ctx, "all_gather", group, bytes, bytes, bytes,
      [&](const CollectiveCall &c) {
        return ringAllGather(c, dtype, input, output, count);
      },
      [&](ShmGroup &s) { return s.allGather(dtype, input, output, count); });
}
graphrt_status_t svcReduceScatter(graphrt_context_t *ctx, const char *group,
                                  graphrt_reduce_op_t op, graphrt_dtype_t dtype,
                                  const void *input, void *output,
                                  size_t count) {
  size_t bytes = count * graphrt_dtype_size(dtype);
  const manifest::CollectiveGroup *g =
      group ? taskOf(ctx)->group(group) : nullptr;
  int k = g ? g->tasks_size() : 0; // an unknown group fails in runCollective
  return runCollective(
      ctx, "reduce_scatter", group, bytes,
      shmReduceScatterBytes(dtype, count, k), bytes * static_cast<size_t>(k),
      [&](const CollectiveCall &c) {
        return ringReduceScatter(c, op, dtype, input, output, count);
      },
      [&](ShmGroup &s) {
        return s.reduceScatter(op, dtype, input, output, count);
      });
}
graphrt_status_t svcBroadcast(graphrt_context_t *ctx, const char *group,
                              int32_t root, graphrt_dtype_t dtype, void *buffer,
                              size_t count) {
  size_t bytes = count * graphrt_dtype_size(dtype);
  return runCollective(
      ctx, "broadcast", group, bytes, bytes, bytes,
      [&](const CollectiveCall &c) {
        return pipelinedBroadcast(c, root, dtype, buffer, count);
      },
      [&](ShmGroup &s) { return s.broadcast(root, dtype, buffer, count); });
}
graphrt_status_t svcAllToAll(graphrt_context_t *ctx, const char *group,
                             graphrt_dtype_t dtype, const void *input,
                             void *output, size_t count) {
  // Pairwise over the data plane: each block crosses once either way, so a
  // segment would save one copy at most.
  return runCollective(
      ctx, "all_to_all", group, count * graphrt_dtype_size(dtype), 0, 0,
      [&](const CollectiveCall &c) {
        return pairwiseAllToAll(c, dtype, input, output, count);
      },
      nullptr);
}
graphrt_status_t svcGroupRank(graphrt_context_t *ctx, const char *group,
                              int32_t *out_rank, int32_t *out_size) {
  const manifest::CollectiveGroup *g;
  int rank;
  Status st = collectiveCall(taskOf(ctx), group, &g, &rank);
  if (!st.isOk()) {
    return st.toC();
  }
  *out_rank = rank;
  *out_size = g->tasks_size();
  return GRAPHRT_OK;
}

void svcLog(graphrt_context_t *ctx, graphrt_log_level_t level,
            const char *message) {
  static const char *const names[] = {"error", "warning", "info", "debug"};
  const char *lvl = level >= 0 && level <= 3 ? names[level] : "info";
  std::fprintf(stderr, "graph-worker[%s] %s: %s\n", taskOf(ctx)->name().c_str(),
               lvl, message ? message : "");
}
int svcIsCancelled(graphrt_context_t *ctx) {
  return taskOf(ctx)->cancelled_.load() ? 1 : 0;
}

const graphrt_services_v1_t kServices = {
    sizeof(graphrt_services_v1_t),
    svcStatusCreate,
    svcStatusRelease,
    svcStatusCode,
    svcBufferAllocate,
    svcBufferRelease,
    svcSend,
    svcRecv,
    svcAllReduce,
    svcAllGather,
    svcReduceScatter,
    svcBroadcast,
    svcAllToAll,
    svcGroupRank,
    svcLog,
    svcIsCancelled,
    nullptr, // gpu: set per task once the runtime has GPU services
    svcAllReduceStart,
    svcWait,
};

} // namespace

//===----------------------------------------------------------------------===//
// LoadedTask
//===----------------------------------------------------------------------===//

Status LoadedTask::load(const rpc::LoadTaskRequest &req,
                        const SecurityConfig *sec,
                        std::shared_ptr<DataTls> tls) {
  sec_ = sec;
  tls_ = std::move(tls);
  if (req.data_plane() == "tcp") {
    tcp_ = true;
  } else if (!req.data_plane().empty() && req.data_plane() != "grpc") {
    return Status(GRAPHRT_STATUS_INVALID_ARGUMENT,
                  "unknown data plane '" + req.data_plane() +
                      "' (expected grpc or tcp)");
  }
  GRAPHRT_RETURN_IF_ERROR(readBundle(req.bundle_dir(), &bundle_));
  spec_ = findTask(bundle_.manifest, req.task());
  if (!spec_) {
    return Status(GRAPHRT_STATUS_NOT_FOUND, "bundle '" + req.bundle_dir() +
                                                "' has no task '" + req.task() +
                                                "'");
  }
  for (const auto &[task, addr] : req.peers()) {
    peers_[task] = addr;
  }
  if (req.recv_timeout_ms() > 0) {
    recvTimeout_ = std::chrono::milliseconds(req.recv_timeout_ms());
  }
  if (req.chunk_bytes() > 0) {
    chunkBytes_ = static_cast<size_t>(req.chunk_bytes());
  }
  shmCollectives_ = req.shm_collectives();

  // A task this machine cannot run is refused before anything of it loads.
  GRAPHRT_RETURN_IF_ERROR(checkTaskTarget(*spec_));
  services_ = kServices;
  if (isCudaTask(*spec_)) {
    GRAPHRT_RETURN_IF_ERROR(bindGpu());
  }

  // Hash every file this task will read before mapping any of it.
  GRAPHRT_RETURN_IF_ERROR(verifyBundleFile(bundle_, spec_->library()));
  for (const manifest::TensorSignature &v : spec_->variables()) {
    if (!v.file().empty()) {
      GRAPHRT_RETURN_IF_ERROR(verifyBundleFile(bundle_, v.file()));
    }
  }

  std::string lib = bundle_.dir + "/" + spec_->library();
  void *handle = ::dlopen(lib.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!handle) {
    return Status(GRAPHRT_STATUS_FAILED_PRECONDITION,
                  "cannot load task library: " + std::string(::dlerror()));
  }
  desc_ = static_cast<const graphrt_task_descriptor_v1_t *>(
      ::dlsym(handle, GRAPHRT_TASK_DESCRIPTOR_SYMBOL));
  if (!desc_) {
    return Status(GRAPHRT_STATUS_FAILED_PRECONDITION,
                  "'" + lib + "' does not export " +
                      GRAPHRT_TASK_DESCRIPTOR_SYMBOL);
  }
  GRAPHRT_RETURN_IF_ERROR(checkDescriptor());
  GRAPHRT_RETURN_IF_ERROR(loadVariables());
  if (desc_->init) {
    Status st = Status::fromC(
        desc_->init(&ctx_, &services_, variables_.data(), variables_.size()));
    if (!st.isOk()) {
      return Status(st.code(),
                    "task '" + name() + "' init failed: " + st.message());
    }
  }
  return prepareVariables();
}

Status LoadedTask::prepareVariables() {
  const graphrt_task_descriptor_v1_t &d = *desc_;
  if (d.struct_size <
          offsetof(graphrt_task_descriptor_v1_t, prepare) + sizeof(d.prepare) ||
      !d.prepare) {
    return Status::ok();
  }
  Status st = Status::fromC(
      d.prepare(&ctx_, &services_, variables_.data(), variables_.size()));
  if (!st.isOk()) {
    return Status(st.code(),
                  "task '" + name() +
                      "' could not prepare its weights: " + st.message());
  }
  return Status::ok();
}

// The device is the task's manifest device among those CUDA_VISIBLE_DEVICES
// leaves visible (the driver renumbers them from 0).
Status LoadedTask::bindGpu() {
  const gpu::CudaDriverApi *cu = nullptr;
  GRAPHRT_RETURN_IF_ERROR(gpu::loadCudaDriver(&cu));
  int count = 0;
  GRAPHRT_RETURN_IF_ERROR(gpu::probeCudaDevice(cu, &count));
  int ordinal = gpu::deviceOrdinalFor(spec_->device(), count);
  Status st = gpu::GpuTask::create(cu, ordinal, &services_, &gpu_);
  if (!st.isOk()) {
    return Status(st.code(), "task '" + name() + "' cannot use CUDA device " +
                                 std::to_string(ordinal) + ": " + st.message());
  }
  ctx_.gpu = gpu_.get();
  services_.gpu = gpu_->table();
  return Status::ok();
}

Status LoadedTask::checkDescriptor() {
  const graphrt_task_descriptor_v1_t &d = *desc_;
  std::string where = "task '" + name() + "': ";
  // `prepare` was appended later: a descriptor may end before it.
  if (d.abi_version != GRAPHRT_ABI_VERSION ||
      d.struct_size < offsetof(graphrt_task_descriptor_v1_t, prepare)) {
    return Status(GRAPHRT_STATUS_FAILED_PRECONDITION,
                  where + "descriptor has ABI version " +
                      std::to_string(d.abi_version) + " (size " +
                      std::to_string(d.struct_size) + "), this runtime needs " +
                      std::to_string(GRAPHRT_ABI_VERSION));
  }
  if (!d.name || name() != d.name) {
    return Status(GRAPHRT_STATUS_FAILED_PRECONDITION,
                  where + "the library's descriptor names task '" +
                      (d.name ? d.name : "") + "'");
  }
  if (!d.step) {
    return Status(GRAPHRT_STATUS_FAILED_PRECONDITION,
                  where + "descriptor has no step entry point");
  }
  auto compareList =
      [&](const char *what, size_t n, const graphrt_tensor_signature_t *sigs,
          const google::protobuf::RepeatedPtrField<manifest::TensorSignature>
              &m) -> Status {
    if (n != static_cast<size_t>(m.size())) {
      return Status(GRAPHRT_STATUS_FAILED_PRECONDITION,
                    where + "the task binary has " + std::to_string(n) + " " +
                        what + "s, the manifest " + std::to_string(m.size()));
    }
    for (size_t i = 0; i < n; ++i) {
      GRAPHRT_RETURN_IF_ERROR(
          compareSignature(sigs[i], m[static_cast<int>(i)],
                           where + what + " " + std::to_string(i)));
    }
    return Status::ok();
  };
  GRAPHRT_RETURN_IF_ERROR(
      compareList("input", d.num_inputs, d.inputs, spec_->inputs()));
  GRAPHRT_RETURN_IF_ERROR(
      compareList("output", d.num_outputs, d.outputs, spec_->outputs()));
  GRAPHRT_RETURN_IF_ERROR(compareList("variable", d.num_variables, d.variables,
                                      spec_->variables()));

  // Channels: the binary and the manifest must agree in both directions.
  size_t mine = 0;
  for (const manifest::Channel &c : bundle_.manifest.channels()) {
    if (c.src() == name() || c.dst() == name()) {
      ++mine;
    }
  }
  if (mine != d.num_channels) {
    return Status(
        GRAPHRT_STATUS_FAILED_PRECONDITION,
        where + "the task binary declares " + std::to_string(d.num_channels) +
            " channels, the manifest gives it " + std::to_string(mine));
  }
  for (size_t i = 0; i < d.num_channels; ++i) {
    const graphrt_channel_t &dc = d.channels[i];
    const manifest::Channel *c = channel(dc.key ? dc.key : "");
    bool isSend = dc.direction == GRAPHRT_CHANNEL_SEND;
    std::string peer = dc.peer ? dc.peer : "";
    if (!c || (isSend ? c->src() != name() || c->dst() != peer
                      : c->dst() != name() || c->src() != peer)) {
      return Status(GRAPHRT_STATUS_FAILED_PRECONDITION,
                    where + "channel '" + (dc.key ? dc.key : "") + "' (" +
                        (isSend ? "send to '" : "recv from '") + peer +
                        "') is not in the manifest");
    }
    manifest::TensorSignature payload = c->payload();
    payload.set_name(dc.payload.name ? dc.payload.name : "");
    GRAPHRT_RETURN_IF_ERROR(compareSignature(
        dc.payload, payload, where + "channel '" + c->key() + "' payload"));
  }
  size_t groups = 0;
  for (const manifest::CollectiveGroup &g :
       bundle_.manifest.collective_groups()) {
    for (const std::string &t : g.tasks()) {
      if (t == name()) {
        ++groups;
      }
    }
  }
  if (groups != d.num_groups) {
    return Status(GRAPHRT_STATUS_FAILED_PRECONDITION,
                  where + "the task binary joins " +
                      std::to_string(d.num_groups) +
                      " collective groups, the manifest puts it in " +
                      std::to_string(groups));
  }
  for (size_t i = 0; i < d.num_groups; ++i) {
    const manifest::CollectiveGroup *g;
    int rank;
    GRAPHRT_RETURN_IF_ERROR(collectiveCall(this, d.groups[i].name, &g, &rank));
  }
  return Status::ok();
}

Status LoadedTask::loadVariables() {
  for (int i = 0; i < spec_->variables_size(); ++i) {
    const manifest::TensorSignature &v = spec_->variables(i);
    size_t bytes = static_cast<size_t>(byteSize(v));
    AlignedBytes data = allocateAligned(bytes, 64);
    if (!data) {
      return Status(GRAPHRT_STATUS_RESOURCE_EXHAUSTED,
                    "cannot allocate variable '" + v.name() + "'");
    }
    if (!v.file().empty()) {
      std::ifstream in(bundle_.dir + "/" + v.file(), std::ios::binary);
      in.read(data.get(), static_cast<std::streamsize>(bytes));
      if (!in) {
        return Status(GRAPHRT_STATUS_DATA_LOSS,
                      "cannot read weights '" + v.file() + "'");
      }
    }
    graphrt_tensor_t t;
    t.dtype = parseDType(v.dtype());
    t.rank = v.shape_size();
    t.shape = v.shape().data();
    t.data = data.get();
    t.size_bytes = bytes;
    variables_.push_back(t);
    variableData_.push_back(std::move(data));
  }
  return Status::ok();
}

void LoadedTask::readVariables(rpc::ReadVariablesResponse *resp) const {
  for (int i = 0; i < spec_->variables_size(); ++i) {
    const manifest::TensorSignature &v = spec_->variables(i);
    rpc::Tensor *t = resp->add_variables();
    t->set_name(v.name());
    t->set_dtype(v.dtype());
    *t->mutable_shape() = v.shape();
    t->set_data(static_cast<const char *>(variables_[i].data),
                variables_[i].size_bytes);
  }
}

Status LoadedTask::writeVariables(const rpc::WriteVariablesRequest &req) {
  std::map<std::string, const rpc::Tensor *> given;
  for (const rpc::Tensor &t : req.variables()) {
    if (!given.emplace(t.name(), &t).second) {
      return Status(GRAPHRT_STATUS_INVALID_ARGUMENT,
                    "task '" + name() + "': variable '" + t.name() +
                        "' is given twice");
    }
  }
  // Check everything before writing anything: a refused write leaves the
  // variables as they were.
  for (const manifest::TensorSignature &v : spec_->variables()) {
    auto it = given.find(v.name());
    if (it == given.end()) {
      return Status(GRAPHRT_STATUS_INVALID_ARGUMENT,
                    "task '" + name() + "': variable '" + v.name() +
                        "' is missing; every variable must be written");
    }
    const rpc::Tensor &t = *it->second;
    if (t.dtype() != v.dtype() ||
        static_cast<int64_t>(t.data().size()) != byteSize(v) ||
        !std::equal(t.shape().begin(), t.shape().end(), v.shape().begin(),
                    v.shape().end())) {
      return Status(GRAPHRT_STATUS_INVALID_ARGUMENT,
                    "task '" + name() + "': variable '" + v.name() +
                        "' must be " + describe(v) + ", got " + t.dtype() +
                        " with " + std::to_string(t.data().size()) + " bytes");
    }
  }
  if (given.size() != static_cast<size_t>(spec_->variables_size())) {
    for (const auto &entry : given) {
      const auto &n = entry.first;
      if (!std::any_of(spec_->variables().begin(), spec_->variables().end(),
                       [&](const manifest::TensorSignature &v) {
                         return v.name() == n;
                       })) {
        return Status(GRAPHRT_STATUS_INVALID_ARGUMENT,
                      "task '" + name() + "' has no variable '" + n + "'");
      }
    }
  }
  for (int i = 0; i < spec_->variables_size(); ++i) {
    const std::string &data = given[spec_->variables(i).name()]->data();
    std::memcpy(variables_[i].data, data.data(), data.size());
  }
  // What the task derives from its weights follows them.
  return prepareVariables();
}

Status LoadedTask::transportStub(const std::string &peer,
                                 rpc::Transport::Stub **out) {
  std::lock_guard<std::mutex> lock(stubsMu_);
  auto it = stubs_.find(peer);
  if (it == stubs_.end()) {
    auto addr = peers_.find(peer);
    if (addr == peers_.end()) {
      return Status(GRAPHRT_STATUS_FAILED_PRECONDITION,
                    "no address for peer task '" + peer + "'");
    }
    grpc::ChannelArguments args;
    args.SetMaxReceiveMessageSize(-1);
    args.SetMaxSendMessageSize(-1);
    auto channel = grpc::CreateCustomChannel(addr->second,
                                             channelCredentials(*sec_), args);
    it = stubs_.emplace(peer, rpc::Transport::NewStub(channel)).first;
  }
  *out = it->second.get();
  return Status::ok();
}

Status LoadedTask::sendBytes(const std::string &peer, const std::string &key,
                             const void *data, size_t bytes,
                             const std::string &counter) {
  if (cancelled_) {
    return Status(GRAPHRT_STATUS_CANCELLED,
                  "task '" + name() + "' was cancelled");
  }
  Status st =
      tcp_ ? sendTcp(peer, key, data, bytes) : sendGrpc(peer, key, data, bytes);
  if (!st.isOk()) {
    return Status(st.code(), "sending '" + key + "' to task '" + peer +
                                 "' at " + peers_[peer] +
                                 " failed: " + st.message());
  }
  advance();
  if (!counter.empty()) {
    count(counter, bytes);
  }
  return Status::ok();
}

Status LoadedTask::dataConnection(const std::string &peer,
                                  DataConnection **out) {
  {
    std::lock_guard<std::mutex> lock(dataMu_);
    auto it = data_.find(peer);
    if (it != data_.end()) {
      *out = it->second.get();
      return Status::ok();
    }
  }
  // Ask the peer over the authenticated control channel for a port and a
  // one-shot nonce, then connect and present it.
  rpc::Transport::Stub *stub;
  GRAPHRT_RETURN_IF_ERROR(transportStub(peer, &stub));
  grpc::ClientContext cctx;
  cctx.set_deadline(std::chrono::system_clock::now() + recvTimeout_);
  authorize(&cctx, *sec_);
  rpc::OpenDataRequest req;
  req.set_src_task(name());
  rpc::OpenDataResponse resp;
  grpc::Status gst = stub->OpenData(&cctx, req, &resp);
  if (!gst.ok()) {
    return Status(static_cast<graphrt_status_code_t>(gst.error_code()),
                  "opening a data connection: " + gst.error_message());
  }
  const std::string &addr = peers_[peer];
  std::string host = addr.substr(0, addr.rfind(':'));
  std::unique_ptr<DataConnection> conn;
  GRAPHRT_RETURN_IF_ERROR(DataConnection::connect(
      host, resp.port(), resp.nonce(), name(), tls_, recvTimeout_, &conn));
  std::lock_guard<std::mutex> lock(dataMu_);
  if (cancelled_) {
    conn->shutdown();
  }
  *out = conn.get();
  data_[peer] = std::move(conn);
  return Status::ok();
}

Status LoadedTask::sendTcp(const std::string &peer, const std::string &key,
                           const void *data, size_t bytes) {
  DataConnection *conn;
  GRAPHRT_RETURN_IF_ERROR(dataConnection(peer, &conn));
  Status st = conn->send(key, data, bytes);
  if (!st.isOk() && cancelled_) {
    return Status(GRAPHRT_STATUS_CANCELLED,
                  "task '" + name() + "' was cancelled");
  }
  return st;
}

Status LoadedTask::sendGrpc(const std::string &peer, const std::string &key,
                            const void *data, size_t bytes) {
  rpc::Transport::Stub *stub;
  GRAPHRT_RETURN_IF_ERROR(transportStub(peer, &stub));
  grpc::ClientContext cctx;
  cctx.set_deadline(std::chrono::system_clock::now() + recvTimeout_);
  authorize(&cctx, *sec_);
  {
    std::lock_guard<std::mutex> lock(inflightMu_);
    if (cancelled_) {
      return Status(GRAPHRT_STATUS_CANCELLED,
                    "task '" + name() + "' was cancelled");
    }
    inflight_.insert(&cctx);
  }
  struct Unregister {
    LoadedTask *t;
    grpc::ClientContext *c;
    ~Unregister() {
      std::lock_guard<std::mutex> lock(t->inflightMu_);
      t->inflight_.erase(c);
    }
  } unregister{this, &cctx};
  rpc::TransferAck ack;
  std::unique_ptr<grpc::ClientWriter<rpc::TensorChunk>> writer(
      stub->Transfer(&cctx, &ack));
  writeChunks(key, name(), data, bytes, chunkBytes_,
              [&](const rpc::TensorChunk &chunk) {
                bool ok = writer->Write(chunk);
                advance();
                return ok;
              }); // on a broken stream, Finish() says why
  writer->WritesDone();
  grpc::Status st = writer->Finish();
  if (!st.ok()) {
    return Status(static_cast<graphrt_status_code_t>(st.error_code()),
                  st.error_message());
  }
  return Status::ok();
}

Status LoadedTask::recvBytes(const std::string &key, void *data, size_t bytes,
                             const std::string &counter) {
  Status st = rdv_.take(key, data, bytes, Clock::now() + recvTimeout_);
  if (!st.isOk()) {
    return st;
  }
  advance();
  if (!counter.empty()) {
    count(counter, bytes);
  }
  return Status::ok();
}

Status LoadedTask::shmGroup(const manifest::CollectiveGroup &g,
                            const CollectiveCall &call, size_t bytes,
                            ShmGroup **out) {
  *out = nullptr;
  int k = g.tasks_size();
  if (!shmCollectives_ || k < 2) {
    return Status::ok();
  }
  ShmState *state;
  {
    std::lock_guard<std::mutex> lock(shmMu_);
    state = &shm_[g.name()];
  }
  auto off = [&](const std::string &why) {
    state->off = true;
    std::fprintf(stderr,
                 "graph-worker[%s] info: collective group '%s' does not use "
                 "shared memory: %s; its collectives run over the data "
                 "plane\n",
                 name().c_str(), g.name().c_str(), why.c_str());
  };
  if (!state->decided) {
    state->decided = true;
    std::vector<std::string> addresses;
    for (const std::string &task : g.tasks()) {
      addresses.push_back(peers_[task]);
    }
    std::string why;
    if (k > kShmMaxRanks) {
      off("it has " + std::to_string(k) + " members, more than " +
          std::to_string(kShmMaxRanks));
    } else if (!addressesShareHost(addresses, &why)) {
      off(why);
    }
  }
  if (state->off) {
    return Status::ok();
  }
  size_t want = shmSlotBytesFor(bytes);
  if (!state->group || state->group->slotBytes() < want) {
    ShmOptions opt;
    opt.timeout = recvTimeout_;
    opt.cancelled = &cancelled_;
    opt.names.assign(g.tasks().begin(), g.tasks().end());
    GroupTransport quiet(*this, g, /*record=*/false);
    CollectiveCall setup = call;
    setup.transport = &quiet;
    std::unique_ptr<ShmGroup> made;
    std::string why;
    GRAPHRT_RETURN_IF_ERROR(setupShmGroup(setup, want, opt, &made, &why));
    {
      std::lock_guard<std::mutex> lock(shmMu_);
      state->group = std::move(made);
    }
    if (!state->group) {
      off(why);
      return Status::ok();
    }
    // Abort may have come while the segment was being set up, before
    // abort() could reach it.
    if (cancelled_) {
      return Status(GRAPHRT_STATUS_CANCELLED,
                    "task '" + name() + "' was cancelled");
    }
  }
  *out = state->group.get();
  return Status::ok();
}

Status LoadedTask::runStep(const rpc::RunStepRequest &req,
                           rpc::RunStepResponse *resp) {
  std::vector<graphrt_tensor_t> inputs;
  // The shapes the task sees (with the batch in place of -1); a deque, so
  // the pointers in `inputs` and `outputs` stay valid as it grows.
  std::deque<std::vector<int64_t>> shapes;
  int64_t batch = -1;
  std::string batchFrom;
  for (const manifest::TensorSignature &sig : spec_->inputs()) {
    const rpc::Tensor *given = nullptr;
    for (const rpc::Tensor &t : req.inputs()) {
      if (t.name() == sig.name()) {
        given = &t;
      }
    }
    if (!given) {
      return Status(GRAPHRT_STATUS_INVALID_ARGUMENT,
                    "input '" + sig.name() + "' was not fed");
    }
    std::vector<int64_t> shape(given->shape().begin(), given->shape().end());
    // A batched input (-1 in dimension 0) takes any batch; one sample is
    // byteSize(sig).
    int64_t samples = isBatched(sig) && !shape.empty() ? shape[0] : 1;
    if (given->dtype() != sig.dtype() || !matchesSignature(sig, shape) ||
        static_cast<int64_t>(given->data().size()) != byteSize(sig) * samples) {
      std::string got = given->dtype() + "[";
      for (size_t i = 0; i < shape.size(); ++i) {
        got += (i ? "," : "") + std::to_string(shape[i]);
      }
      return Status(GRAPHRT_STATUS_INVALID_ARGUMENT,
                    "input '" + sig.name() + "' is " + got + ", task '" +
                        spec_->name() + "' expects " + describe(sig));
    }
    if (isBatched(sig)) {
      if (batch < 0) {
        batch = samples;
        batchFrom = sig.name();
      } else if (samples != batch) {
        return Status(GRAPHRT_STATUS_INVALID_ARGUMENT,
                      "input '" + sig.name() + "' has a batch of " +
                          std::to_string(samples) + ", input '" + batchFrom +
                          "' has " + std::to_string(batch) +
                          "; the batched inputs of task '" + spec_->name() +
                          "' must have one batch");
      }
    }
    shapes.push_back(std::move(shape));
    graphrt_tensor_t t;
    t.dtype = parseDType(sig.dtype());
    t.rank = sig.shape_size();
    t.shape = shapes.back().data();
    t.data = const_cast<char *>(given->data().data());
    t.size_bytes = given->data().size();
    inputs.push_back(t);
  }
  std::vector<AlignedBytes> outputData;
  std::vector<graphrt_tensor_t> outputs;
  for (const manifest::TensorSignature &sig : spec_->outputs()) {
    std::vector<int64_t> shape(sig.shape().begin(), sig.shape().end());
    size_t bytes = static_cast<size_t>(byteSize(sig));
    if (isBatched(sig)) {
      // The schema guarantees the task has a batched input.
      shape[0] = std::max<int64_t>(batch, 0);
      bytes *= static_cast<size_t>(shape[0]);
    }
    shapes.push_back(std::move(shape));
    // Zero bytes for a batch of 0: still a distinct, valid pointer.
    outputData.push_back(allocateAligned(std::max<size_t>(bytes, 1), 64));
    graphrt_tensor_t t;
    t.dtype = parseDType(sig.dtype());
    t.rank = sig.shape_size();
    t.shape = shapes.back().data();
    t.data = outputData.back().get();
    t.size_bytes = bytes;
    outputs.push_back(t);
  }

  currentStep_ = req.step();
  groupSeq_.clear();
  {
    std::lock_guard<std::mutex> lock(traceMu_);
    trace_.clear();
  }
  tracing_ = req.want_trace();
  advance();
  auto start = Clock::now();
  int64_t startUs = nowUs();
  Status st = Status::fromC(desc_->step(
      &ctx_, &services_, req.step(), inputs.data(), inputs.size(),
      outputs.data(), outputs.size(), variables_.data(), variables_.size()));
  // Nothing of the step may still write into its buffers once it has
  // returned: a compiled task waits on every collective it starts, even on
  // its error path, so anything left is a task that broke the contract.
  Status left;
  if (size_t n = collectives_.drain(&left); n > 0 && st.isOk()) {
    st = Status(
        GRAPHRT_STATUS_INTERNAL,
        "task '" + name() + "' returned from step " +
            std::to_string(req.step()) + " with " + std::to_string(n) +
            " started collective(s) not waited on" +
            (left.isOk() ? "" : " (the first failed: " + left.message() + ")"));
  }
  if (!st.isOk()) {
    return st;
  }
  advance();
  resp->set_step_seconds(
      std::chrono::duration<double>(Clock::now() - start).count());
  traceEvent("step " + std::to_string(req.step()), "compute", startUs, 0, "");
  tracing_ = false;
  {
    std::lock_guard<std::mutex> lock(traceMu_);
    for (rpc::TraceEvent &e : trace_) {
      *resp->add_trace() = std::move(e);
    }
    trace_.clear();
  }
  ++stepsCompleted_;
  for (int i = 0; i < spec_->outputs_size(); ++i) {
    const manifest::TensorSignature &sig = spec_->outputs(i);
    if (req.want_outputs() ||
        std::find(req.report_outputs().begin(), req.report_outputs().end(),
                  sig.name()) != req.report_outputs().end()) {
      rpc::Tensor *out = resp->add_outputs();
      out->set_name(sig.name());
      out->set_dtype(sig.dtype());
      for (int32_t d = 0; d < outputs[i].rank; ++d) {
        out->add_shape(outputs[i].shape[d]);
      }
      out->set_data(outputData[i].get(), outputs[i].size_bytes);
    }
  }
  fillCounters(resp);
  return Status::ok();
}

Status LoadedTask::runSteps(
    const rpc::RunStepsRequest &req,
    const std::function<bool(const rpc::RunStepResponse &)> &emit) {
  if (req.count() < 1) {
    return Status(GRAPHRT_STATUS_INVALID_ARGUMENT,
                  "RunSteps needs a count of at least 1, got " +
                      std::to_string(req.count()));
  }
  // One request serves every step: the --input tensors stay, each --data
  // input's slot gets the step's batch moved in.
  rpc::RunStepRequest step;
  *step.mutable_inputs() = req.inputs();
  *step.mutable_report_outputs() = req.report_outputs();
  step.set_want_trace(req.want_trace());
  std::vector<const DataFile *> files;
  std::vector<int> slots;
  int64_t batch = 0;
  for (const rpc::DataSource &src : req.data()) {
    const manifest::TensorSignature *sig = nullptr;
    for (const manifest::TensorSignature &in : spec_->inputs()) {
      if (in.name() == src.name()) {
        sig = &in;
      }
    }
    if (!sig || isBatched(*sig) || sig->shape_size() == 0) {
      return Status(GRAPHRT_STATUS_INVALID_ARGUMENT,
                    "--data " + src.name() + ": task '" + name() +
                        "' has no input '" + src.name() +
                        "' with a static batch to feed");
    }
    auto key = std::make_pair(src.name(), src.path());
    auto it = feedFiles_.find(key);
    if (it == feedFiles_.end()) {
      DataFile f;
      Status st = readDataFile(*sig, src.path(), &f);
      if (!st.isOk()) {
        return st;
      }
      it = feedFiles_.emplace(key, std::move(f)).first;
    }
    const DataFile &f = it->second;
    if (!files.empty() &&
        (sig->shape(0) != batch || f.examples != files[0]->examples)) {
      return Status(GRAPHRT_STATUS_INVALID_ARGUMENT,
                    "--data " + src.name() + ": '" + f.path +
                        "' does not advance with '" + files[0]->path +
                        "' (batch " + std::to_string(sig->shape(0)) + " of " +
                        std::to_string(f.examples) + " examples against " +
                        std::to_string(batch) + " of " +
                        std::to_string(files[0]->examples) + ")");
    }
    batch = sig->shape(0);
    if (batch < 1 || batch > f.examples) {
      return Status(GRAPHRT_STATUS_INVALID_ARGUMENT,
                    "--data " + src.name() + ": '" + f.path + "' holds " +
                        std::to_string(f.examples) +
                        " examples, fewer than the batch of " +
                        std::to_string(batch));
    }
    files.push_back(&f);
    slots.push_back(step.inputs_size());
    rpc::Tensor *t = step.add_inputs();
    t->set_name(sig->name());
    t->set_dtype(sig->dtype());
    *t->mutable_shape() = sig->shape();
  }

  struct Cut {
    DataPosition next;
    std::vector<std::string> rows; // per file
  };
  std::unique_ptr<Batcher> batcher;
  if (!files.empty()) {
    batcher = std::make_unique<Batcher>(
        files[0]->examples, batch, req.seed(), req.shuffle(),
        req.pad_partial_batch() ? PartialBatch::Pad : PartialBatch::Drop);
  }
  // Only one cut is ever in flight, so the batcher is used by one thread at
  // a time; `pending` is declared last and so waits for it before the
  // batcher and the files go away.
  auto cut = [&](DataPosition pos) {
    Cut c;
    std::vector<int64_t> rows =
        batcher->batchAt(batcher->normalize(pos), &c.next);
    for (const DataFile *f : files) {
      c.rows.push_back(gatherRows(*f, rows));
    }
    return c;
  };
  std::future<Cut> pending;
  if (batcher) {
    pending = std::async(std::launch::async, cut,
                         DataPosition{req.epoch(), req.index()});
  }
  for (int64_t i = 0; i < req.count(); ++i) {
    if (batcher) {
      Cut c = pending.get();
      for (size_t j = 0; j < slots.size(); ++j) {
        step.mutable_inputs(slots[j])->set_data(std::move(c.rows[j]));
      }
      if (i + 1 < req.count()) {
        pending = std::async(std::launch::async, cut, c.next);
      }
    }
    step.set_step(req.first_step() + i);
    step.set_want_outputs(req.want_outputs() && i + 1 == req.count());
    rpc::RunStepResponse resp;
    Status st = runStep(step, &resp);
    if (!st.isOk()) {
      return st;
    }
    resp.set_step(step.step());
    if (!emit(resp)) {
      return Status(GRAPHRT_STATUS_CANCELLED,
                    "graph-run stopped reading the steps of task '" + name() +
                        "' after step " + std::to_string(step.step()));
    }
  }
  return Status::ok();
}

//===----------------------------------------------------------------------===//
// StepThread
//===----------------------------------------------------------------------===//

/// Runs the loaded task's code (its init and its steps) on one long-lived
/// thread. gRPC serves each call on a thread of its pool, and the pool's
/// threads come and go; libomp gives every native thread that starts a
/// parallel region its own team, so steps served on changing threads each
/// started a new team while the previous team's workers still spun out
/// their blocktime (200 ms) on the same cores. On a 2-core machine that was
/// about a third of SqueezeNet's step at batch 1 (docs/design/runtime.md,
/// "One step thread").
class StepThread {
public:
  StepThread() : thread_([this] { loop(); }) {}
  ~StepThread() {
    {
      std::lock_guard<std::mutex> lock(mu_);
      stop_ = true;
    }
    cv_.notify_all();
    thread_.join();
  }

  /// Runs `fn` on the step thread and returns when it has returned. Calls
  /// from several threads run one after the other.
  void run(const std::function<void()> &fn) {
    std::lock_guard<std::mutex> one(callMu_);
    std::unique_lock<std::mutex> lock(mu_);
    job_ = &fn;
    done_ = false;
    cv_.notify_all();
    cv_.wait(lock, [&] { return done_; });
  }

private:
  void loop() {
    std::unique_lock<std::mutex> lock(mu_);
    for (;;) {
      cv_.wait(lock, [&] { return stop_ || job_; });
      if (!job_) {
        return; // stopping, with nothing left to run
      }
      const std::function<void()> *fn = job_;
      lock.unlock();
      (*fn)();
      lock.lock();
      job_ = nullptr;
      done_ = true;
      cv_.notify_all();
    }
  }

  std::mutex callMu_; // one caller at a time
  std::mutex mu_;
  std::condition_variable cv_;
  const std::function<void()> *job_ = nullptr;
  bool done_ = false;
  bool stop_ = false;
  std::thread thread_; // last: starts once the members above exist
};

//===----------------------------------------------------------------------===//
// WorkerService
//===----------------------------------------------------------------------===//

WorkerService::WorkerService(SecurityConfig security, std::string dataHost)
    : security_(std::move(security)), dataHost_(std::move(dataHost)),
      stepThread_(std::make_unique<StepThread>()) {
  dataTlsStatus_ = DataTls::create(security_, &dataTls_);
}
WorkerService::~WorkerService() = default;

grpc::Status WorkerService::between(grpc::ServerContext *ctx, const char *busy,
                                    std::unique_lock<std::mutex> *stepLock,
                                    std::shared_ptr<LoadedTask> *t) {
  if (grpc::Status auth = checkCaller(ctx, security_); !auth.ok()) {
    return auth;
  }
  *stepLock = std::unique_lock<std::mutex>(stepMu_, std::try_to_lock);
  if (!*stepLock) {
    return grpc::Status(grpc::StatusCode::FAILED_PRECONDITION, busy);
  }
  *t = task();
  if (!*t) {
    return grpc::Status(grpc::StatusCode::FAILED_PRECONDITION,
                        "no task is loaded; call LoadTask first");
  }
  return grpc::Status::OK;
}

std::shared_ptr<LoadedTask> WorkerService::task() {
  std::lock_guard<std::mutex> lock(mu_);
  return task_;
}

grpc::Status WorkerService::LoadTask(grpc::ServerContext *ctx,
                                     const rpc::LoadTaskRequest *req,
                                     rpc::LoadTaskResponse *resp) {
  if (grpc::Status auth = checkCaller(ctx, security_); !auth.ok()) {
    return auth;
  }
  std::unique_lock<std::mutex> stepLock(stepMu_, std::try_to_lock);
  if (!stepLock) {
    return grpc::Status(grpc::StatusCode::FAILED_PRECONDITION,
                        "a step is running; cannot load a task now");
  }
  auto loaded = std::make_shared<LoadedTask>();
  if (!dataTlsStatus_.isOk()) {
    return toGrpc(dataTlsStatus_);
  }
  Status st;
  stepThread_->run([&] { st = loaded->load(*req, &security_, dataTls_); });
  if (!st.isOk()) {
    std::fprintf(stderr, "graph-worker: refusing task '%s': %s\n",
                 req->task().c_str(), st.message().c_str());
    return toGrpc(st);
  }
  resp->set_manifest_sha256(loaded->manifestSha256());
  std::lock_guard<std::mutex> lock(mu_);
  task_ = std::move(loaded);
  return grpc::Status::OK;
}

/// A step's status for graph-run; a failure is also the task's last error
/// (Health reports it).
static grpc::Status stepStatus(LoadedTask &t, const Status &st) {
  if (!st.isOk()) {
    t.failed_ = true;
    std::lock_guard<std::mutex> lock(t.errorMu_);
    t.lastError_ = st.toString();
  }
  return toGrpc(st);
}

grpc::Status WorkerService::RunStep(grpc::ServerContext *ctx,
                                    const rpc::RunStepRequest *req,
                                    rpc::RunStepResponse *resp) {
  std::unique_lock<std::mutex> stepLock;
  std::shared_ptr<LoadedTask> t;
  if (grpc::Status st =
          between(ctx, "another step is still running", &stepLock, &t);
      !st.ok()) {
    return st;
  }
  Status st;
  stepThread_->run([&] { st = t->runStep(*req, resp); });
  return stepStatus(*t, st);
}

grpc::Status
WorkerService::RunSteps(grpc::ServerContext *ctx,
                        const rpc::RunStepsRequest *req,
                        grpc::ServerWriter<rpc::RunStepResponse> *writer) {
  std::unique_lock<std::mutex> stepLock;
  std::shared_ptr<LoadedTask> t;
  if (grpc::Status st =
          between(ctx, "another step is still running", &stepLock, &t);
      !st.ok()) {
    return st;
  }
  Status st;
  stepThread_->run([&] {
    st = t->runSteps(*req, [writer](const rpc::RunStepResponse &r) {
      return writer->Write(r);
    });
  });
  return stepStatus(*t, st);
}

grpc::Status WorkerService::Health(grpc::ServerContext *ctx,
                                   const rpc::HealthRequest *,
                                   rpc::HealthResponse *resp) {
  if (grpc::Status auth = checkCaller(ctx, security_); !auth.ok()) {
    return auth;
  }
  resp->set_pid(static_cast<int32_t>(::getpid()));
  std::shared_ptr<LoadedTask> t = task();
  if (!t) {
    resp->set_state(rpc::HealthResponse::IDLE);
    return grpc::Status::OK;
  }
  resp->set_task(t->name());
  resp->set_steps_completed(t->stepsCompleted_);
  resp->set_current_step(t->currentStep_);
  std::string waiting = t->rendezvous().waitingOn();
  resp->set_waiting_on(waiting.empty() ? t->shmWaitingOn() : waiting);
  resp->set_progress(t->progress_.load());
  resp->set_in_communication(t->inCall_.load() > 0);
  {
    std::lock_guard<std::mutex> lock(t->errorMu_);
    resp->set_last_error(t->lastError_);
  }
  bool running = !stepMu_.try_lock();
  if (!running) {
    stepMu_.unlock();
  }
  resp->set_state(t->failed_ ? rpc::HealthResponse::FAILED
                  : running  ? rpc::HealthResponse::RUNNING
                             : rpc::HealthResponse::LOADED);
  return grpc::Status::OK;
}

grpc::Status WorkerService::Abort(grpc::ServerContext *ctx,
                                  const rpc::AbortRequest *req,
                                  rpc::AbortResponse *) {
  if (grpc::Status auth = checkCaller(ctx, security_); !auth.ok()) {
    return auth;
  }
  if (std::shared_ptr<LoadedTask> t = task()) {
    t->abort(req->reason());
  }
  std::lock_guard<std::mutex> lock(dataMu_);
  if (dataServer_) {
    dataServer_->closeAll();
  }
  return grpc::Status::OK;
}

grpc::Status WorkerService::ReadVariables(grpc::ServerContext *ctx,
                                          const rpc::ReadVariablesRequest *,
                                          rpc::ReadVariablesResponse *resp) {
  std::unique_lock<std::mutex> stepLock;
  std::shared_ptr<LoadedTask> t;
  if (grpc::Status st =
          between(ctx, "a step is running; variables are read between steps",
                  &stepLock, &t);
      !st.ok()) {
    return st;
  }
  t->readVariables(resp);
  return grpc::Status::OK;
}

grpc::Status
WorkerService::WriteVariables(grpc::ServerContext *ctx,
                              const rpc::WriteVariablesRequest *req,
                              rpc::WriteVariablesResponse *) {
  std::unique_lock<std::mutex> stepLock;
  std::shared_ptr<LoadedTask> t;
  if (grpc::Status st =
          between(ctx, "a step is running; variables are written between steps",
                  &stepLock, &t);
      !st.ok()) {
    return st;
  }
  // On the step thread: the write runs the task's prepare, whose OpenMP
  // team is then the one the steps use, not a second team of this RPC's.
  Status st;
  stepThread_->run([&] { st = t->writeVariables(*req); });
  return toGrpc(st);
}

grpc::Status WorkerService::Shutdown(grpc::ServerContext *ctx,
                                     const rpc::ShutdownRequest *,
                                     rpc::ShutdownResponse *) {
  if (grpc::Status auth = checkCaller(ctx, security_); !auth.ok()) {
    return auth;
  }
  if (std::shared_ptr<LoadedTask> t = task()) {
    t->abort("the worker is shutting down");
  }
  {
    std::lock_guard<std::mutex> lock(dataMu_);
    if (dataServer_) {
      dataServer_->closeAll();
    }
  }
  {
    std::lock_guard<std::mutex> lock(mu_);
    shutdown_ = true;
  }
  shutdownCv_.notify_all();
  return grpc::Status::OK;
}

void WorkerService::waitForShutdown() {
  std::unique_lock<std::mutex> lock(mu_);
  shutdownCv_.wait(lock, [&] { return shutdown_; });
}

grpc::Status
WorkerService::Transfer(grpc::ServerContext *ctx,
                        grpc::ServerReader<rpc::TensorChunk> *reader,
                        rpc::TransferAck *resp) {
  if (grpc::Status auth = checkCaller(ctx, security_); !auth.ok()) {
    return auth;
  }
  std::shared_ptr<LoadedTask> t = task();
  if (!t) {
    return grpc::Status(grpc::StatusCode::FAILED_PRECONDITION,
                        "no task is loaded on this worker");
  }
  uint64_t received = 0;
  Status st = receiveChunks(
      t->rendezvous(),
      [&](rpc::TensorChunk *chunk) {
        bool ok = reader->Read(chunk);
        t->advance();
        return ok;
      },
      &received);
  if (!st.isOk()) {
    return toGrpc(st);
  }
  resp->set_bytes(received);
  return grpc::Status::OK;
}

grpc::Status WorkerService::OpenData(grpc::ServerContext *ctx,
                                     const rpc::OpenDataRequest *req,
                                     rpc::OpenDataResponse *resp) {
  if (grpc::Status auth = checkCaller(ctx, security_); !auth.ok()) {
    return auth;
  }
  if (!task()) {
    return grpc::Status(grpc::StatusCode::FAILED_PRECONDITION,
                        "no task is loaded on this worker");
  }
  std::lock_guard<std::mutex> lock(dataMu_);
  if (!dataServer_) {
    auto server = std::make_unique<DataServer>(
        dataTls_, [this]() -> std::shared_ptr<DataSink> { return task(); });
    Status st = server->start(dataHost_);
    if (!st.isOk()) {
      return toGrpc(st);
    }
    dataServer_ = std::move(server);
  }
  resp->set_port(dataServer_->port());
  resp->set_nonce(dataServer_->issueNonce(req->src_task()));
  return grpc::Status::OK;
}

} // namespace graphrt
