// Coordinator.cpp: starts or finds the workers, loads the bundle on each,
// drives the steps, watches for dead or stuck tasks, and gathers the results.
#include "Coordinator.h"

#include "Checkpoint.h"
#include "DataFeed.h"
#include "Eval.h"
#include "Gpu/Target.h"
#include "Manifest.h"
#include "Npy.h"
#include "RunStats.h"
#include "Security.h"
#include "Sha256.h"
#include "TensorProto.h"
#include "worker.grpc.pb.h"

#include <google/protobuf/struct.pb.h>
#include <google/protobuf/util/json_util.h>
#include <grpcpp/grpcpp.h>

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <chrono>
#include <climits>
#include <condition_variable>
#include <cstdio>
#include <cstring>
#include <deque>
#include <fstream>
#include <functional>
#include <future>
#include <map>
#include <memory>
#include <mutex>
#include <sstream>
#include <thread>
#include <vector>

namespace graphrt {
namespace {

/// The most steps one RunSteps call runs: the bound on how far a task that
/// only sends (a reader, a pipeline's first stage) can run ahead of the task
/// it feeds, whose queue holds its messages until they are received. 16
/// steps amortise the call (a few ms) to well under the step time of any
/// model worth distributing.
constexpr int64_t kMaxStepsPerCall = 16;

using SteadyClock = std::chrono::steady_clock;

std::chrono::system_clock::time_point after(double seconds) {
  return std::chrono::system_clock::now() +
         std::chrono::milliseconds(static_cast<int64_t>(seconds * 1000));
}

struct WorkerHandle {
  const manifest::Task *task = nullptr;
  std::string address;
  pid_t pid = -1;
  int stdoutFd = -1;
  bool exited = false;
  std::unique_ptr<rpc::Worker::Stub> stub;
  // Stall detection, reset at every step.
  uint64_t progress = 0;
  SteadyClock::time_point progressAt, healthOkAt;
  std::string waitingOn;
  bool inCommunication = false; // else computing (while its step runs)
  // Answers no health check: calls to it would only wait for their deadline.
  bool unresponsive = false;
};

// What one step cost, for --metrics.
struct StepRecord {
  int64_t step;
  double seconds;
  std::vector<double> taskSeconds;
  bool hasLoss = false;
  double loss = 0;
  // Bytes sent in this step, by channel key (the sender's count) and by
  // collective group (summed over its members); every channel and group of
  // the manifest is present, at 0 when it moved nothing.
  std::map<std::string, uint64_t> channelBytes, groupBytes;
};

// Bytes and messages over the run.
struct Traffic {
  uint64_t bytes = 0;
  uint64_t messages = 0;
};

std::string jsonEscape(const std::string &s) {
  std::string out;
  for (char c : s) {
    if (c == '"' || c == '\\') {
      out += '\\';
    }
    if (static_cast<unsigned char>(c) < 0x20) {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\u%04x", c);
      out += buf;
      continue;
    }
    out += c;
  }
  return out;
}

/// {"key": bytes, ...}.
std::string bytesJson(const std::map<std::string, uint64_t> &bytes) {
  std::string json = "{";
  for (const auto &[name, n] : bytes) {
    json += (json.size() > 1 ? ", \"" : "\"") + jsonEscape(name) +
            "\": " + std::to_string(n);
  }
  return json + "}";
}

// `path` from the root, so a worker reads the file graph-run read (it is
// given as is when that fails: the worker's error names it then).
std::string absolutePath(const std::string &path) {
  char buf[PATH_MAX];
  return ::realpath(path.c_str(), buf) ? std::string(buf) : path;
}

int64_t unixMicros() {
  return std::chrono::duration_cast<std::chrono::microseconds>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}

// The state letter of /proc/<pid>/stat ('R', 'S', 'T' stopped, ...), 0 if
// unknown.
char processState(pid_t pid) {
  std::ifstream in("/proc/" + std::to_string(pid) + "/stat");
  std::string line;
  if (!std::getline(in, line)) {
    return 0;
  }
  size_t paren = line.rfind(')');
  return paren != std::string::npos && paren + 2 < line.size() ? line[paren + 2]
                                                               : 0;
}

// One worker's in-flight RunStep (one step) or RunSteps (a range): the
// responses that came back and are not yet consumed, and how many came.
// Guarded by the range's mutex, but for `ctx` and `thread`.
struct StepCall {
  grpc::ClientContext ctx;
  std::deque<rpc::RunStepResponse> ready;
  int64_t delivered = 0;
  grpc::Status status;
  bool done = false;
  SteadyClock::time_point finishedAt;
  std::thread thread;
};

// Rank 0's registration desk for the other ranks' workers.
class LauncherService final : public rpc::Launcher::Service {
public:
  LauncherService(const SecurityConfig &sec, const manifest::Manifest &m)
      : sec_(sec), manifest_(m) {}
  grpc::Status Register(grpc::ServerContext *ctx,
                        const rpc::RegisterRequest *req,
                        rpc::RegisterResponse *) override {
    if (grpc::Status auth = checkCaller(ctx, sec_); !auth.ok()) {
      return auth;
    }
    if (req->rank() <= 0 || req->rank() >= manifest_.tasks_size()) {
      return grpc::Status(
          grpc::StatusCode::INVALID_ARGUMENT,
          "rank " + std::to_string(req->rank()) + " is out of range for " +
              std::to_string(manifest_.tasks_size()) + " tasks");
    }
    const std::string &want = manifest_.tasks(req->rank()).name();
    if (req->task() != want) {
      return grpc::Status(grpc::StatusCode::FAILED_PRECONDITION,
                          "rank " + std::to_string(req->rank()) +
                              " hosts task '" + req->task() +
                              "', the coordinator's manifest puts '" + want +
                              "' there; are all ranks running the same job?");
    }
    std::lock_guard<std::mutex> lock(mu_);
    if (addresses_.count(req->rank())) {
      return grpc::Status(grpc::StatusCode::ALREADY_EXISTS,
                          "rank " + std::to_string(req->rank()) +
                              " registered twice");
    }
    addresses_[req->rank()] = req->address();
    cv_.notify_all();
    return grpc::Status::OK;
  }
  /// Waits until every rank but 0 has registered; false at the deadline.
  bool waitAll(SteadyClock::time_point deadline,
               std::map<int, std::string> *out) {
    std::unique_lock<std::mutex> lock(mu_);
    bool all = cv_.wait_until(lock, deadline, [&] {
      return static_cast<int>(addresses_.size()) == manifest_.tasks_size() - 1;
    });
    *out = addresses_;
    return all;
  }

private:
  const SecurityConfig &sec_;
  const manifest::Manifest &manifest_;
  std::mutex mu_;
  std::condition_variable cv_;
  std::map<int, std::string> addresses_;
};

class Job {
public:
  explicit Job(const RunOptions &o) : opt_(o) {}
  int run();

private:
  bool fail(const std::string &msg) {
    if (error_.empty()) {
      error_ = msg;
    }
    return false;
  }
  std::string taskLabel(const WorkerHandle &w) const {
    std::string s = "task '" + w.task->name() + "' (" +
                    (w.task->job().empty() ? "worker" : w.task->job()) + ":" +
                    std::to_string(w.task->index()) + " at " + w.address;
    if (w.pid > 0) {
      s += ", pid " + std::to_string(w.pid);
    }
    return s + ")";
  }
  bool readInputs();
  /// The names of every task's inputs, for messages.
  std::string jobInputNames() const;
  /// Checks the --data files agree and sets up the batch order.
  bool setUpBatches();
  /// One step's --data tensors.
  struct Batch {
    DataPosition at, next; // where this batch starts, where the next does
    std::vector<rpc::Tensor> tensors;
  };
  /// Cuts the batch at `pos` (runs on the prefetch thread while a step runs).
  Batch prepareBatch(DataPosition pos);
  bool startLocalWorkers();
  /// mpirun/srun/Indexed Job: start this rank's worker, then register it
  /// (rank > 0) or gather the others' (rank 0).
  bool launchRank();
  int serveRank();
  bool resolveCluster();
  bool connectAndLoad();
  /// Calls `call(i, ctx)` for every worker i at once (a thread each, an
  /// authorized context with a deadline of `seconds`); the statuses in
  /// worker order.
  std::vector<grpc::Status> callEveryWorker(
      double seconds,
      const std::function<grpc::Status(size_t, grpc::ClientContext *)> &call);
  /// Every variable of every task (ReadVariables), named TASK/VARIABLE;
  /// `sigs` (if given) gets each one's manifest signature.
  bool readVariables(std::vector<SafeTensor> *out,
                     std::vector<const manifest::TensorSignature *> *sigs);
  /// Writes a checkpoint of the state after step_ steps.
  bool writeCheckpointNow();
  /// Between ranges: the checkpoint and the held-out score that are due.
  bool afterStep(int64_t total);
  /// Where the range starting at step_ must end (see kMaxStepsPerCall).
  int64_t rangeEnd(int64_t total) const;
  /// Writes one when step_ is a multiple of --checkpoint-every.
  bool checkpointIfDue();
  /// --restore: loads the newest valid checkpoint into the workers and moves
  /// step_ and the data position to it.
  bool restoreCheckpoint();
  /// --save: the final weights under the model's names.
  bool saveWeights();
  /// --eval: scores the held-out files with the current variables, prints
  /// the result and keeps it for --metrics.
  bool runEval();
  std::string evalJson() const;
  /// --max-restarts: stops every worker, starts and loads them again, and
  /// restores the newest checkpoint (or starts over at step 0).
  bool restartJob();
  /// --deterministic: the workers hold exactly `tensors` (sha256 each).
  bool verifyVariables(const std::vector<SafeTensor> &tensors,
                       const std::string &from);
  /// Prints a line of its own (clearing the live progress line first).
  void note(const std::string &line);
  /// Runs steps step_ .. total-1, feeding --data batches: a RunSteps range
  /// per worker up to each checkpoint boundary, or one RunStep per step
  /// (perStep_).
  bool runSteps(int64_t total);
  /// Runs `count` steps from step_ (one RunStep when perStep_, with the
  /// batch in current_), recording each as every worker reports it done;
  /// `last`: the range ends the run (the outputs come back).
  bool runRange(int64_t count, bool last);
  /// Starts worker `wi`'s call for the range on `c`'s thread.
  void startCall(size_t wi, int64_t count, bool last, StepCall *c,
                 std::mutex *mu, std::condition_variable *cv);
  /// After every worker finished step step_: record it, move the data
  /// position on, show progress.
  void finishStep(double seconds);
  /// Whether steps go one RunStep at a time (--per-step, or --data files
  /// that remote workers may not see).
  bool perStepRpc() const;
  /// A dead worker process or an unreachable worker, if any.
  std::string findDeadWorker(size_t *out_index);
  /// findDeadWorker, retried for failureGrace(): a peer's error (a broken
  /// call, CANCELLED) often arrives before the dead worker's exit does.
  std::string awaitDeadWorker(size_t *out_index);
  /// How long the root cause of a failure may lag its symptoms.
  std::chrono::milliseconds failureGrace() const {
    return std::chrono::milliseconds(3 * opt_.heartbeatMs + 500);
  }
  void abortAll(const std::string &reason);
  void stopWorkers();
  bool writeOutputs();
  void reportMetrics(double seconds, int64_t steps);
  /// A worker that is stalled (no health answer, or a frozen progress
  /// counter past --stall-timeout) among those still in the step.
  std::string findStalledWorker(const std::vector<bool> &running,
                                size_t *out_index);
  /// The worker that answers no health check, if one has not for a while.
  std::string findUnresponsiveWorker(double minSeconds, size_t *out_index);
  void recordStep(int64_t step, double seconds);
  /// Adds what counter `c` moved since `seen` (updated) to step `r` and to
  /// the run's totals.
  void countStepTraffic(const rpc::ChannelCounter &c, Traffic &seen,
                        StepRecord &r);
  void showProgress(int64_t done, int64_t total, bool last);
  bool writeTrace();
  void prepare(grpc::ClientContext *ctx) const { authorize(ctx, security_); }

  RunOptions opt_;
  Bundle bundle_;
  std::vector<WorkerHandle> workers_;
  std::vector<rpc::Tensor> inputs_;
  /// --data: the files, their inputs' signatures, the order of batches, the
  /// batch of the step being run, and where the next batch starts.
  std::vector<DataFile> dataFiles_;
  std::vector<manifest::TensorSignature> dataSigs_;
  std::unique_ptr<Batcher> batcher_;
  int64_t batchSize_ = 0;
  Batch current_;
  DataPosition dataPos_;
  /// The next step to run, and the first this process ran (a restored run
  /// starts past 0).
  int64_t step_ = 0;
  int64_t firstStep_ = 0;
  /// The step of the newest checkpoint written or restored (-1: none).
  int64_t checkpointStep_ = -1;
  /// The step this graph-run started at (past 0 after --restore).
  int64_t startStep_ = 0;
  /// The last step failed because a worker died, stalled or went away
  /// (what --max-restarts recovers from).
  bool workerLost_ = false;
  int restarts_ = 0;
  /// --eval: the forward-only job, and each scoring (after which step).
  std::unique_ptr<Evaluator> eval_;
  std::vector<std::pair<int64_t, EvalResult>> evalResults_;
  std::vector<rpc::RunStepResponse> lastResponses_;
  /// RunStep/RunSteps calls made to each worker (--metrics step_calls).
  int64_t stepCalls_ = 0;
  /// The step runSteps runs to (for the progress line).
  int64_t runTotal_ = 0;
  std::string error_;
  /// A worker refused to load its task because of the bundle (exit 1, not 4).
  bool bundleRefused_ = false;
  SecurityConfig security_;
  std::vector<std::string> lossOutputs_; // per worker: its "loss" output
  std::vector<StepRecord> stepRecords_;
  /// Per worker: its cumulative counters as of the previous step (workers
  /// report totals since LoadTask; a step's traffic is the difference).
  std::vector<std::map<std::string, Traffic>> seenCounters_;
  std::map<std::string, Traffic> channelTotals_, groupTotals_;
  std::vector<std::string> traceEvents_;
  int64_t traceOriginUs_ = 0;
  SteadyClock::time_point runStart_, lastProgressPrint_;
  bool progressShown_ = false;
  bool progressTty_ = false;
};

bool Job::readInputs() {
  std::map<std::string, bool> used;
  for (const auto &[name, path] : opt_.inputs) {
    used[name] = false;
  }
  std::map<std::string, bool> usedData;
  for (const auto &[name, path] : opt_.data) {
    usedData[name] = false;
  }
  for (const manifest::Task &t : bundle_.manifest.tasks()) {
    // The batch of the task's first batched input, which every other
    // batched input must share (the task's batched outputs get it).
    std::string batchFrom;
    int64_t batch = 0;
    for (const manifest::TensorSignature &sig : t.inputs()) {
      if (opt_.data.count(sig.name())) {
        if (isBatched(sig)) {
          return fail("--data " + sig.name() + ": input '" + sig.name() +
                      "' of task '" + t.name() + "' is " + describe(sig) +
                      ", a batch of any size; --data needs a static batch "
                      "(compile with --input-shape " +
                      sig.name() +
                      ":NxD...) or feed whole tensors with --input");
        }
        if (usedData[sig.name()]) {
          continue; // an input of several tasks is read once
        }
        usedData[sig.name()] = true;
        DataFile f;
        Status st = readDataFile(sig, opt_.data.at(sig.name()), &f);
        if (!st.isOk()) {
          return fail(st.message());
        }
        dataFiles_.push_back(std::move(f));
        dataSigs_.push_back(sig);
        continue;
      }
      auto it = opt_.inputs.find(sig.name());
      if (it == opt_.inputs.end()) {
        return fail("input '" + sig.name() + "' of task '" + t.name() +
                    "' was not given; pass --input " + sig.name() +
                    "=FILE.npy holding " + describe(sig));
      }
      used[sig.name()] = true;
      NpyArray a;
      Status st = readTensorFile(it->second, &a);
      if (!st.isOk()) {
        return fail(st.message());
      }
      if (!npyCanFeed(a.dtype, parseDType(sig.dtype())) ||
          !matchesSignature(sig, a.shape)) {
        manifest::TensorSignature got;
        got.set_dtype(dtypeName(a.dtype));
        for (int64_t d : a.shape) {
          got.add_shape(d);
        }
        return fail("input '" + sig.name() + "' from '" + it->second + "' is " +
                    describe(got) + ", task '" + t.name() + "' expects " +
                    describe(sig));
      }
      if (isBatched(sig)) {
        if (batchFrom.empty()) {
          batchFrom = sig.name();
          batch = a.shape[0];
        } else if (a.shape[0] != batch) {
          return fail("input '" + sig.name() + "' from '" + it->second +
                      "' has a batch of " + std::to_string(a.shape[0]) +
                      ", input '" + batchFrom + "' of task '" + t.name() +
                      "' has " + std::to_string(batch) +
                      "; the batched inputs of a task must have one batch");
        }
      }
      rpc::Tensor tensor;
      tensor.set_name(sig.name());
      tensor.set_dtype(sig.dtype());
      for (int64_t d : a.shape) {
        tensor.add_shape(d);
      }
      tensor.set_data(std::move(a.data));
      inputs_.push_back(std::move(tensor));
    }
  }
  for (const auto &[name, isUsed] : used) {
    if (!isUsed) {
      return fail("--input '" + name + "' is not an input of any task");
    }
  }
  for (const auto &[name, isUsed] : usedData) {
    if (!isUsed) {
      return fail("--data " + name + ": '" + name +
                  "' is not an input of any task; the job's inputs are " +
                  jobInputNames());
    }
  }
  return dataFiles_.empty() || setUpBatches();
}

std::string Job::jobInputNames() const {
  std::string names;
  for (const manifest::Task &t : bundle_.manifest.tasks()) {
    for (const manifest::TensorSignature &sig : t.inputs()) {
      names += (names.empty() ? "" : ", ") + sig.name();
    }
  }
  return names.empty() ? "(none)" : names;
}

bool Job::setUpBatches() {
  const DataFile &first = dataFiles_[0];
  batchSize_ = dataSigs_[0].shape(0);
  for (size_t i = 1; i < dataFiles_.size(); ++i) {
    const DataFile &f = dataFiles_[i];
    if (f.examples != first.examples) {
      return fail("--data files hold different numbers of examples: '" +
                  first.path + "' (input '" + first.input + "') has " +
                  std::to_string(first.examples) + ", '" + f.path +
                  "' (input '" + f.input + "') has " +
                  std::to_string(f.examples) +
                  "; every --data file must have one example per row of "
                  "the same set");
    }
    if (dataSigs_[i].shape(0) != batchSize_) {
      return fail("--data inputs have different batch sizes: '" + first.input +
                  "' takes " + std::to_string(batchSize_) +
                  " examples per step, '" + f.input + "' " +
                  std::to_string(dataSigs_[i].shape(0)) +
                  "; they must advance together");
    }
  }
  if (batchSize_ < 1 || batchSize_ > first.examples) {
    return fail("--data " + first.input + ": input '" + first.input +
                "' takes batches of " + std::to_string(batchSize_) +
                " examples, but '" + first.path + "' holds only " +
                std::to_string(first.examples) +
                "; give more examples or compile for a smaller batch");
  }
  batcher_ = std::make_unique<Batcher>(
      first.examples, batchSize_, opt_.seed, opt_.shuffle,
      opt_.padPartialBatch ? PartialBatch::Pad : PartialBatch::Drop);
  return true;
}

Job::Batch Job::prepareBatch(DataPosition pos) {
  Batch b;
  b.at = batcher_->normalize(pos);
  std::vector<int64_t> rows = batcher_->batchAt(b.at, &b.next);
  for (size_t i = 0; i < dataFiles_.size(); ++i) {
    rpc::Tensor t;
    t.set_name(dataSigs_[i].name());
    t.set_dtype(dataSigs_[i].dtype());
    *t.mutable_shape() = dataSigs_[i].shape();
    t.set_data(gatherRows(dataFiles_[i], rows));
    b.tensors.push_back(std::move(t));
  }
  return b;
}

bool Job::startLocalWorkers() {
  for (size_t wi = 0; wi < workers_.size(); ++wi) {
    WorkerHandle &w = workers_[wi];
    if (opt_.rank >= 0 && static_cast<int>(wi) != opt_.rank) {
      continue; // another rank's
    }
    int fds[2];
    if (::pipe(fds) != 0) {
      return fail(std::string("pipe: ") + std::strerror(errno));
    }
    pid_t pid = ::fork();
    if (pid < 0) {
      return fail(std::string("fork: ") + std::strerror(errno));
    }
    if (pid == 0) {
      // A worker must not outlive its launcher, even after a kill -9.
      ::prctl(PR_SET_PDEATHSIG, SIGKILL);
      ::dup2(fds[1], STDOUT_FILENO);
      ::close(fds[0]);
      ::close(fds[1]);
      if (!security_.token.empty()) {
        ::setenv(kTokenEnv, security_.token.c_str(), 1);
      }
      if (opt_.deterministic) {
        // Work shared in a fixed way whatever the load, so a restarted
        // worker computes what the first one did.
        ::setenv("OMP_DYNAMIC", "false", 1);
        ::setenv("OMP_SCHEDULE", "static", 1);
      }
      std::vector<std::string> args = {
          "graph-worker", "--listen",
          opt_.rank >= 0 ? opt_.listen : std::string("127.0.0.1:0")};
      if (security_.tls()) {
        args.insert(args.end(),
                    {"--tls-cert", security_.certFile, "--tls-key",
                     security_.keyFile, "--tls-ca", security_.caFile});
      }
      std::vector<char *> argv;
      for (std::string &a : args) {
        argv.push_back(a.data());
      }
      argv.push_back(nullptr);
      ::execv(opt_.workerBinary.c_str(), argv.data());
      std::fprintf(stderr, "graph-run: error: cannot run '%s': %s\n",
                   opt_.workerBinary.c_str(), std::strerror(errno));
      ::_exit(127);
    }
    ::close(fds[1]);
    w.pid = pid;
    w.stdoutFd = fds[0];
  }
  // Each worker prints the address it bound (a free port) on stdout.
  auto deadline = SteadyClock::now() +
                  std::chrono::milliseconds(
                      static_cast<int64_t>(opt_.startTimeoutSec * 1000));
  for (WorkerHandle &w : workers_) {
    if (w.pid <= 0) {
      continue;
    }
    std::string line;
    while (line.find('\n') == std::string::npos) {
      int left = static_cast<int>(
          std::chrono::duration_cast<std::chrono::milliseconds>(
              deadline - SteadyClock::now())
              .count());
      pollfd p{w.stdoutFd, POLLIN, 0};
      if (left <= 0 || ::poll(&p, 1, left) <= 0) {
        return fail("the worker for task '" + w.task->name() + "' (pid " +
                    std::to_string(w.pid) + ") did not start within " +
                    std::to_string(opt_.startTimeoutSec) + " s");
      }
      char buf[256];
      ssize_t n = ::read(w.stdoutFd, buf, sizeof buf);
      if (n <= 0) {
        return fail("the worker for task '" + w.task->name() + "' (pid " +
                    std::to_string(w.pid) + ") exited before it was ready");
      }
      line.append(buf, static_cast<size_t>(n));
    }
    const std::string marker = "listening on ";
    size_t at = line.find(marker);
    if (at == std::string::npos) {
      return fail("unexpected output from the worker for task '" +
                  w.task->name() + "': " + line);
    }
    w.address = line.substr(at + marker.size(),
                            line.find('\n', at) - at - marker.size());
    // A worker bound to every interface is reached by this host's name.
    if (opt_.rank >= 0 && !opt_.advertiseHost.empty()) {
      w.address = opt_.advertiseHost + w.address.substr(w.address.rfind(':'));
    }
    if (!opt_.quiet) {
      std::fprintf(stderr, "graph-run: started %s\n", taskLabel(w).c_str());
    }
  }
  return true;
}

bool Job::launchRank() {
  if (opt_.worldSize != static_cast<int>(workers_.size())) {
    return fail("the launcher started " + std::to_string(opt_.worldSize) +
                " ranks but the job has " + std::to_string(workers_.size()) +
                " tasks; start one rank per task");
  }
  if (opt_.rank >= opt_.worldSize) {
    return fail("rank " + std::to_string(opt_.rank) + " is out of range for " +
                std::to_string(opt_.worldSize) + " ranks");
  }
  if (opt_.coordinator.empty()) {
    return fail("rank " + std::to_string(opt_.rank) +
                " does not know where rank 0 is: set MASTER_ADDR and "
                "MASTER_PORT (or GRAPHRT_COORDINATOR=host:port)");
  }
  if (!startLocalWorkers()) {
    return false;
  }
  WorkerHandle &own = workers_[static_cast<size_t>(opt_.rank)];
  auto deadline = after(opt_.startTimeoutSec);
  if (opt_.rank > 0) {
    auto stub = rpc::Launcher::NewStub(
        grpc::CreateChannel(opt_.coordinator, channelCredentials(security_)));
    grpc::ClientContext ctx;
    prepare(&ctx);
    ctx.set_wait_for_ready(true);
    ctx.set_deadline(deadline);
    rpc::RegisterRequest req;
    req.set_rank(opt_.rank);
    req.set_task(own.task->name());
    req.set_address(own.address);
    rpc::RegisterResponse resp;
    grpc::Status st = stub->Register(&ctx, req, &resp);
    if (!st.ok()) {
      return fail("rank " + std::to_string(opt_.rank) +
                  " could not register with rank 0 at " + opt_.coordinator +
                  ": " + st.error_message());
    }
    return true;
  }
  LauncherService launcher(security_, bundle_.manifest);
  grpc::ServerBuilder builder;
  std::string port = opt_.coordinator.substr(opt_.coordinator.rfind(':') + 1);
  int bound = 0;
  builder.AddListeningPort("0.0.0.0:" + port, serverCredentials(security_),
                           &bound);
  builder.RegisterService(&launcher);
  std::unique_ptr<grpc::Server> server = builder.BuildAndStart();
  if (!server || bound == 0) {
    return fail("rank 0 cannot listen on port " + port + " for the others");
  }
  std::map<int, std::string> addresses;
  bool all = launcher.waitAll(
      SteadyClock::now() + std::chrono::milliseconds(static_cast<int64_t>(
                               opt_.startTimeoutSec * 1000)),
      &addresses);
  server->Shutdown(after(1.0));
  if (!all) {
    std::string missing;
    for (int r = 1; r < opt_.worldSize; ++r) {
      if (!addresses.count(r)) {
        missing += (missing.empty() ? "" : ", ") + std::to_string(r);
      }
    }
    return fail("ranks " + missing + " did not register with rank 0 within " +
                std::to_string(static_cast<int>(opt_.startTimeoutSec)) + " s");
  }
  for (const auto &[r, addr] : addresses) {
    workers_[static_cast<size_t>(r)].address = addr;
  }
  return true;
}

// A rank > 0 hosts its worker until the coordinator shuts it down.
int Job::serveRank() {
  WorkerHandle &own = workers_[static_cast<size_t>(opt_.rank)];
  int status = 0;
  while (::waitpid(own.pid, &status, 0) < 0 && errno == EINTR) {
  }
  own.exited = true;
  if (WIFEXITED(status) && WEXITSTATUS(status) == 0) {
    return kExitOk;
  }
  std::fprintf(stderr, "graph-run: error: rank %d: %s\n", opt_.rank,
               WIFSIGNALED(status) ? ("its worker was killed by signal " +
                                      std::to_string(WTERMSIG(status)))
                                         .c_str()
                                   : ("its worker exited with status " +
                                      std::to_string(WEXITSTATUS(status)))
                                         .c_str());
  return kExitJobFailed;
}

bool Job::resolveCluster() {
  std::ifstream in(opt_.clusterFile);
  if (!in) {
    return fail("cannot read cluster file '" + opt_.clusterFile + "'");
  }
  std::stringstream ss;
  ss << in.rdbuf();
  google::protobuf::Struct config;
  auto st = google::protobuf::util::JsonStringToMessage(ss.str(), &config);
  if (!st.ok()) {
    return fail("cluster file '" + opt_.clusterFile +
                "' is not JSON: " + std::string(st.message()));
  }
  auto cluster = config.fields().find("cluster");
  if (cluster == config.fields().end() || !cluster->second.has_struct_value()) {
    return fail("cluster file '" + opt_.clusterFile +
                "' has no \"cluster\" object (TF_CONFIG format: "
                "{\"cluster\": {\"worker\": [\"host:port\", ...]}})");
  }
  const auto &jobs = cluster->second.struct_value().fields();
  for (WorkerHandle &w : workers_) {
    std::string job = w.task->job().empty() ? "worker" : w.task->job();
    auto it = jobs.find(job);
    if (it == jobs.end() || !it->second.has_list_value() ||
        it->second.list_value().values_size() <= w.task->index() ||
        !it->second.list_value().values(w.task->index()).has_string_value()) {
      return fail("cluster file '" + opt_.clusterFile +
                  "' has no address for " + job + ":" +
                  std::to_string(w.task->index()) + " (task '" +
                  w.task->name() + "')");
    }
    w.address = it->second.list_value().values(w.task->index()).string_value();
  }
  return true;
}

std::vector<grpc::Status> Job::callEveryWorker(
    double seconds,
    const std::function<grpc::Status(size_t, grpc::ClientContext *)> &call) {
  std::vector<grpc::Status> results(workers_.size());
  std::vector<std::thread> threads;
  for (size_t i = 0; i < workers_.size(); ++i) {
    threads.emplace_back([&, i] {
      grpc::ClientContext ctx;
      prepare(&ctx);
      ctx.set_deadline(after(seconds));
      results[i] = call(i, &ctx);
    });
  }
  for (std::thread &t : threads) {
    t.join();
  }
  return results;
}

bool Job::connectAndLoad() {
  grpc::ChannelArguments args;
  args.SetMaxReceiveMessageSize(-1);
  args.SetMaxSendMessageSize(-1);
  for (WorkerHandle &w : workers_) {
    w.stub = rpc::Worker::NewStub(grpc::CreateCustomChannel(
        w.address, channelCredentials(security_), args));
  }
  for (WorkerHandle &w : workers_) {
    grpc::ClientContext ctx;
    prepare(&ctx);
    ctx.set_wait_for_ready(true);
    ctx.set_deadline(after(opt_.startTimeoutSec));
    rpc::HealthResponse resp;
    grpc::Status st = w.stub->Health(&ctx, rpc::HealthRequest(), &resp);
    if (!st.ok()) {
      // gRPC reports a TLS mismatch as a timeout; say what it is.
      std::string why = st.error_message();
      TlsProbe probe = probeTls(w.address, 1000);
      if (!security_.tls() && probe == TlsProbe::SpeaksTls) {
        why = "it speaks TLS and graph-run does not; pass the --tls-cert, "
              "--tls-key and --tls-ca the workers were started with";
      } else if (security_.tls() && probe == TlsProbe::NotTls) {
        why = "it does not speak TLS; start the workers with --tls-cert, "
              "--tls-key and --tls-ca, or run graph-run without them";
      }
      return fail(taskLabel(w) + " is not reachable: " + why);
    }
  }

  char real[PATH_MAX];
  if (!::realpath(opt_.bundleDir.c_str(), real)) {
    return fail("cannot resolve '" + opt_.bundleDir + "'");
  }
  rpc::LoadTaskRequest base;
  base.set_bundle_dir(real);
  for (const WorkerHandle &w : workers_) {
    (*base.mutable_peers())[w.task->name()] = w.address;
  }
  base.set_recv_timeout_ms(static_cast<int64_t>(opt_.recvTimeoutSec * 1000));
  base.set_chunk_bytes(opt_.chunkBytes);
  base.set_data_plane(opt_.dataPlane);
  base.set_shm_collectives(opt_.shmCollectives);

  std::vector<rpc::LoadTaskResponse> responses(workers_.size());
  std::vector<grpc::Status> results = callEveryWorker(
      opt_.startTimeoutSec + 60, [&](size_t i, grpc::ClientContext *ctx) {
        rpc::LoadTaskRequest req = base;
        req.set_task(workers_[i].task->name());
        return workers_[i].stub->LoadTask(ctx, req, &responses[i]);
      });
  for (size_t i = 0; i < workers_.size(); ++i) {
    if (!results[i].ok()) {
      // The worker answered and refused the task itself (its files fail
      // the size/sha256 check, PERMISSION_DENIED, or its binary disagrees
      // with the manifest): the bundle is at fault, not the cluster. A
      // worker that cannot be reached or refuses our credentials
      // (UNAUTHENTICATED) is a start failure.
      grpc::StatusCode code = results[i].error_code();
      bundleRefused_ = code != grpc::StatusCode::UNAVAILABLE &&
                       code != grpc::StatusCode::DEADLINE_EXCEEDED &&
                       code != grpc::StatusCode::CANCELLED &&
                       code != grpc::StatusCode::UNAUTHENTICATED;
      return fail(taskLabel(workers_[i]) +
                  " refused to load the task: " + results[i].error_message());
    }
    if (responses[i].manifest_sha256() != bundle_.manifestSha256) {
      bundleRefused_ = true;
      return fail(taskLabel(workers_[i]) + " read a manifest with sha256 " +
                  responses[i].manifest_sha256() + ", graph-run read " +
                  bundle_.manifestSha256 +
                  "; every worker must see the same bundle");
    }
  }
  return true;
}

// Why local worker `w` ended, once it has ("" while it runs).
static std::string reapWorker(WorkerHandle &w) {
  int status = 0;
  if (w.pid <= 0 || w.exited || ::waitpid(w.pid, &status, WNOHANG) != w.pid) {
    return "";
  }
  w.exited = true;
  if (WIFSIGNALED(status)) {
    return "its worker process was killed by signal " +
           std::to_string(WTERMSIG(status)) + " (" +
           ::strsignal(WTERMSIG(status)) + ")";
  }
  return "its worker process exited with status " +
         std::to_string(WEXITSTATUS(status));
}

std::string Job::findDeadWorker(size_t *out_index) {
  for (size_t i = 0; i < workers_.size(); ++i) {
    std::string cause = reapWorker(workers_[i]);
    if (!cause.empty()) {
      *out_index = i;
      return cause;
    }
  }
  for (size_t i = 0; i < workers_.size(); ++i) {
    WorkerHandle &w = workers_[i];
    if (w.exited) {
      continue;
    }
    grpc::ClientContext ctx;
    prepare(&ctx);
    ctx.set_deadline(after(1.0));
    rpc::HealthResponse resp;
    grpc::Status st = w.stub->Health(&ctx, rpc::HealthRequest(), &resp);
    if (st.ok()) {
      auto now = SteadyClock::now();
      w.healthOkAt = now;
      if (resp.progress() != w.progress) {
        w.progress = resp.progress();
        w.progressAt = now;
      }
      w.waitingOn = resp.waiting_on();
      w.inCommunication = resp.in_communication();
      continue;
    }
    // No answer in time: a stopped or overloaded process, judged by
    // findStalledWorker against --stall-timeout, unless it has died.
    if (st.error_code() == grpc::StatusCode::DEADLINE_EXCEEDED) {
      std::string cause = reapWorker(w);
      if (!cause.empty()) {
        *out_index = i;
        return cause;
      }
      continue;
    }
    *out_index = i;
    // A dying process closes its sockets before it can be reaped; give the
    // exit a moment so the report names the real cause.
    for (int tries = 0; w.pid > 0 && tries < 20; ++tries) {
      std::string cause = reapWorker(w);
      if (!cause.empty()) {
        return cause;
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
    return "its worker stopped answering health checks (" +
           std::string(statusCodeName(
               static_cast<graphrt_status_code_t>(st.error_code()))) +
           ": " + st.error_message() + ")";
  }
  return "";
}

std::string Job::awaitDeadWorker(size_t *out_index) {
  auto until = SteadyClock::now() + failureGrace();
  do {
    std::string cause = findDeadWorker(out_index);
    if (!cause.empty()) {
      return cause;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  } while (SteadyClock::now() < until);
  return "";
}

std::string Job::findUnresponsiveWorker(double minSeconds, size_t *out) {
  auto now = SteadyClock::now();
  double worst = minSeconds;
  std::string cause;
  for (size_t i = 0; i < workers_.size(); ++i) {
    WorkerHandle &w = workers_[i];
    if (w.exited) {
      continue;
    }
    double silent = std::chrono::duration<double>(now - w.healthOkAt).count();
    if (silent < worst) {
      continue;
    }
    worst = silent;
    *out = i;
    w.unresponsive = true;
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.1f", silent);
    cause = std::string("its worker has answered no health check for ") + buf +
            " s";
    char state = w.pid > 0 ? processState(w.pid) : 0;
    if (state == 'T' || state == 't') {
      cause += "; its process is stopped (SIGSTOP or a debugger)";
    }
  }
  return cause;
}

std::string Job::findStalledWorker(const std::vector<bool> &running,
                                   size_t *out) {
  auto now = SteadyClock::now();
  auto secs = [&](SteadyClock::time_point t) {
    return std::chrono::duration<double>(now - t).count();
  };
  char limit[64];
  std::snprintf(limit, sizeof limit, " (--stall-timeout %g)",
                opt_.stallTimeoutSec);
  // A worker that answers no health check is stalled (stopped or hung
  // process), and is the root cause of its peers' waits.
  bool anySilent = false;
  for (size_t i = 0; i < workers_.size(); ++i) {
    if (running[i] && !workers_[i].exited &&
        secs(workers_[i].healthOkAt) > opt_.stallTimeoutSec) {
      anySilent = true;
    }
  }
  if (anySilent) {
    std::string cause = findUnresponsiveWorker(
        std::min(opt_.stallTimeoutSec, 2.0 * opt_.heartbeatMs / 1000 + 1.5),
        out);
    if (!cause.empty()) {
      return cause + limit;
    }
  }
  // Otherwise only a deadlock is a stall: every task still in the step is
  // blocked inside a communication call and no counter anywhere in the job
  // has moved. A task that computes may yet send, however long it takes
  // (--step-timeout bounds that), so it is never stalled by itself.
  SteadyClock::time_point lastProgress{};
  size_t waiting = workers_.size();
  for (size_t i = 0; i < workers_.size(); ++i) {
    const WorkerHandle &w = workers_[i];
    lastProgress = std::max(lastProgress, w.progressAt);
    if (!running[i] || w.exited) {
      continue;
    }
    if (!w.inCommunication) {
      return "";
    }
    if (waiting == workers_.size()) {
      waiting = i;
    }
  }
  if (waiting == workers_.size() ||
      secs(lastProgress) <= opt_.stallTimeoutSec) {
    return "";
  }
  *out = waiting;
  const WorkerHandle &w = workers_[waiting];
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.1f", secs(lastProgress));
  return std::string("no progress anywhere in the job for ") + buf + " s" +
         limit +
         " while every running task waits on communication (a "
         "deadlock); it is waiting on " +
         (w.waitingOn.empty() ? std::string("a send") : w.waitingOn);
}

bool Job::restartJob() {
  stopWorkers();
  for (WorkerHandle &w : workers_) {
    w.pid = -1;
    w.exited = false;
    w.unresponsive = false;
    w.stub.reset();
    w.address.clear();
    w.progress = 0;
    w.waitingOn.clear();
    w.inCommunication = false;
  }
  // New workers count their traffic from zero.
  seenCounters_.clear();
  lastResponses_.clear();
  if (!startLocalWorkers() || !connectAndLoad()) {
    return false;
  }
  step_ = 0;
  dataPos_ = DataPosition{};
  if (!opt_.checkpointDir.empty() && !restoreCheckpoint()) {
    return false;
  }
  if (step_ == 0) {
    note("no checkpoint to go back to: starting over at step 0");
  }
  firstStep_ = step_;
  // The steps to be run again are recorded again.
  stepRecords_.erase(
      std::remove_if(stepRecords_.begin(), stepRecords_.end(),
                     [&](const StepRecord &r) { return r.step >= step_; }),
      stepRecords_.end());
  return true;
}

bool Job::verifyVariables(const std::vector<SafeTensor> &want,
                          const std::string &from) {
  std::vector<SafeTensor> got;
  if (!readVariables(&got, nullptr)) {
    return false;
  }
  std::map<std::string, std::string> sums;
  for (const SafeTensor &t : got) {
    sums[t.name] = sha256Hex(t.data.data(), t.data.size());
  }
  for (const SafeTensor &t : want) {
    auto it = sums.find(t.name);
    if (it == sums.end() ||
        it->second != sha256Hex(t.data.data(), t.data.size())) {
      return fail("--deterministic: after restoring '" + from +
                  "', variable '" + t.name +
                  "' does not hold the checkpoint's value");
    }
  }
  return true;
}

void Job::note(const std::string &line) {
  if (opt_.quiet) {
    return;
  }
  std::fprintf(stderr, "%sgraph-run: %s\n",
               progressTty_ && progressShown_ ? "\r\033[K" : "", line.c_str());
  std::fflush(stderr);
}

bool Job::readVariables(std::vector<SafeTensor> *out,
                        std::vector<const manifest::TensorSignature *> *sigs) {
  std::vector<rpc::ReadVariablesResponse> responses(workers_.size());
  std::vector<grpc::Status> results = callEveryWorker(
      opt_.recvTimeoutSec + 60, [&](size_t i, grpc::ClientContext *ctx) {
        return workers_[i].stub->ReadVariables(ctx, rpc::ReadVariablesRequest(),
                                               &responses[i]);
      });
  for (size_t i = 0; i < workers_.size(); ++i) {
    const manifest::Task &task = *workers_[i].task;
    if (!results[i].ok()) {
      // A worker killed during the handover (between two ranges of steps)
      // is lost like one killed in a step, so --max-restarts applies.
      size_t dead = 0;
      if (std::string cause = awaitDeadWorker(&dead); !cause.empty()) {
        workerLost_ = true;
        return fail(taskLabel(workers_[dead]) + " failed in step " +
                    std::to_string(step_) + ": " + cause);
      }
      return fail(taskLabel(workers_[i]) +
                  " could not hand over its "
                  "variables after step " +
                  std::to_string(step_) + ": " + results[i].error_message());
    }
    if (responses[i].variables_size() != task.variables_size()) {
      return fail(taskLabel(workers_[i]) + " returned " +
                  std::to_string(responses[i].variables_size()) +
                  " variables, the manifest gives it " +
                  std::to_string(task.variables_size()));
    }
    for (int v = 0; v < task.variables_size(); ++v) {
      rpc::Tensor &t = *responses[i].mutable_variables(v);
      SafeTensor st;
      st.name = task.name() + "/" + t.name();
      st.dtype = parseDType(t.dtype());
      st.shape.assign(t.shape().begin(), t.shape().end());
      st.data = std::move(*t.mutable_data());
      out->push_back(std::move(st));
      if (sigs) {
        sigs->push_back(&task.variables(v));
      }
    }
  }
  return true;
}

bool Job::writeCheckpointNow() {
  std::vector<SafeTensor> tensors;
  if (!readVariables(&tensors, nullptr)) {
    return false;
  }
  ::mkdir(opt_.checkpointDir.c_str(), 0755);
  CheckpointInfo info;
  info.step = step_;
  info.position = dataPos_;
  info.seed = opt_.seed;
  info.manifestSha256 = bundle_.manifestSha256;
  std::string path;
  Status st =
      writeCheckpoint(opt_.checkpointDir, info, std::move(tensors), &path);
  if (!st.isOk()) {
    return fail("cannot write the checkpoint of step " + std::to_string(step_) +
                " in --checkpoint-dir '" + opt_.checkpointDir +
                "': " + st.message());
  }
  checkpointStep_ = step_;
  if (!progressTty_) {
    note("checkpoint " + path + " (step " + std::to_string(step_) + ")");
  }
  return true;
}

bool Job::restoreCheckpoint() {
  SafeTensorsFile file;
  CheckpointInfo info;
  std::string path;
  std::vector<std::pair<std::string, std::string>> skipped;
  Status st = findCheckpoint(opt_.checkpointDir, bundle_.manifestSha256, &file,
                             &info, &path, &skipped);
  for (const auto &[p, why] : skipped) {
    std::fprintf(stderr, "graph-run: warning: skipping checkpoint '%s': %s\n",
                 p.c_str(), why.c_str());
  }
  if (!st.isOk()) {
    std::fprintf(stderr,
                 "graph-run: warning: --restore: no valid checkpoint in '%s'; "
                 "starting from step 0\n",
                 opt_.checkpointDir.c_str());
    return true;
  }
  if (batcher_ && info.seed != opt_.seed) {
    return fail("checkpoint '" + path + "' was written with --seed " +
                std::to_string(info.seed) + ", this run has --seed " +
                std::to_string(opt_.seed) + "; pass --seed " +
                std::to_string(info.seed) +
                " to resume it with the same batches");
  }
  // Every task gets exactly its own variables back.
  std::map<std::string, const SafeTensor *> byName;
  for (const SafeTensor &t : file.tensors) {
    byName[t.name] = &t;
  }
  std::vector<rpc::WriteVariablesRequest> requests(workers_.size());
  for (size_t i = 0; i < workers_.size(); ++i) {
    const manifest::Task &task = *workers_[i].task;
    for (const manifest::TensorSignature &v : task.variables()) {
      auto it = byName.find(task.name() + "/" + v.name());
      if (it == byName.end()) {
        return fail("checkpoint '" + path + "' has no tensor '" + task.name() +
                    "/" + v.name() + "' for variable '" + v.name() +
                    "' of task '" + task.name() + "'");
      }
      rpc::Tensor *t = requests[i].add_variables();
      t->set_name(v.name());
      t->set_dtype(dtypeName(it->second->dtype));
      for (int64_t d : it->second->shape) {
        t->add_shape(d);
      }
      t->set_data(it->second->data);
    }
  }
  std::vector<grpc::Status> results = callEveryWorker(
      opt_.recvTimeoutSec + 60, [&](size_t i, grpc::ClientContext *ctx) {
        rpc::WriteVariablesResponse resp;
        return workers_[i].stub->WriteVariables(ctx, requests[i], &resp);
      });
  for (size_t i = 0; i < workers_.size(); ++i) {
    if (!results[i].ok()) {
      return fail(taskLabel(workers_[i]) +
                  " refused the variables of "
                  "checkpoint '" +
                  path + "': " + results[i].error_message());
    }
  }
  if (opt_.deterministic && !verifyVariables(file.tensors, path)) {
    return false;
  }
  step_ = firstStep_ = checkpointStep_ = info.step;
  dataPos_ = info.position;
  note("restored " + path + ": resuming at step " + std::to_string(step_) +
       (batcher_ ? ", epoch " + std::to_string(dataPos_.epoch + 1) +
                       " example " + std::to_string(dataPos_.index)
                 : std::string()));
  return true;
}

bool Job::saveWeights() {
  std::vector<SafeTensor> all;
  std::vector<const manifest::TensorSignature *> sigs;
  if (!readVariables(&all, &sigs)) {
    return false;
  }
  // One tensor per model weight: optimizer slots stay out, and a replica's
  // copy stands for the weight it copies only if the original is absent.
  SafeTensorsFile file;
  std::map<std::string, bool> written;
  for (size_t i = 0; i < all.size(); ++i) {
    const manifest::TensorSignature &sig = *sigs[i];
    if (sig.has_slot_of()) {
      continue;
    }
    std::string name = sig.replica_of().empty() ? sig.name() : sig.replica_of();
    if (written[name]) {
      continue;
    }
    written[name] = true;
    all[i].name = name;
    file.tensors.push_back(std::move(all[i]));
  }
  file.metadata = {{"format", "pt"},
                   {"step", std::to_string(step_)},
                   {"job", bundle_.manifest.name()}};
  Status st =
      writeSafeTensorsAtomically(opt_.saveFile, opt_.saveFile + ".tmp", file);
  if (!st.isOk()) {
    return fail("--save: " + st.message());
  }
  note("saved " + std::to_string(file.tensors.size()) + " weights to " +
       opt_.saveFile);
  return true;
}

bool Job::runEval() {
  std::vector<SafeTensor> vars;
  std::vector<const manifest::TensorSignature *> sigs;
  if (!readVariables(&vars, &sigs)) {
    return false;
  }
  EvalResult r;
  Status st = eval_->evaluate(vars, sigs, &r);
  if (!st.isOk()) {
    return fail(st.message() + " (after step " + std::to_string(step_) + ")");
  }
  char line[160];
  if (r.classification) {
    std::snprintf(line, sizeof line,
                  "eval: step %lld: accuracy %.2f%% (%lld of %lld), loss %.4f",
                  static_cast<long long>(step_), r.accuracy(),
                  static_cast<long long>(r.correct),
                  static_cast<long long>(r.examples), r.loss);
  } else {
    std::snprintf(line, sizeof line,
                  "eval: step %lld: mean squared error %.6g (%lld examples)",
                  static_cast<long long>(step_), r.loss,
                  static_cast<long long>(r.examples));
  }
  // The score is the point of --eval: shown even with --quiet.
  std::fprintf(stderr, "%sgraph-run: %s\n",
               progressTty_ && progressShown_ ? "\r\033[K" : "", line);
  std::fflush(stderr);
  evalResults_.emplace_back(step_, r);
  return true;
}

std::string Job::evalJson() const {
  std::string json = ", \"eval\": [";
  for (size_t i = 0; i < evalResults_.size(); ++i) {
    const auto &[step, r] = evalResults_[i];
    char buf[160];
    if (r.classification) {
      std::snprintf(buf, sizeof buf,
                    "{\"step\": %lld, \"examples\": %lld, \"accuracy\": "
                    "%.9g, \"loss\": %.9g}",
                    static_cast<long long>(step),
                    static_cast<long long>(r.examples), r.accuracy() / 100,
                    r.loss);
    } else {
      std::snprintf(buf, sizeof buf,
                    "{\"step\": %lld, \"examples\": %lld, \"mse\": %.9g}",
                    static_cast<long long>(step),
                    static_cast<long long>(r.examples), r.loss);
    }
    json += (i ? ", " : "") + std::string(buf);
  }
  return json + "]";
}

bool Job::checkpointIfDue() {
  return opt_.checkpointDir.empty() || opt_.checkpointEvery <= 0 ||
         step_ % opt_.checkpointEvery != 0 || writeCheckpointNow();
}

bool Job::perStepRpc() const {
  // Workers started elsewhere read --data paths on their own machines,
  // which need not hold the files: feed them from here.
  return opt_.perStep ||
         (!dataFiles_.empty() && (!opt_.clusterFile.empty() || opt_.rank >= 0));
}

bool Job::afterStep(int64_t total) {
  if (!checkpointIfDue()) {
    return false;
  }
  // The end of the run is scored once, after the last step (Job::run).
  return !eval_ || opt_.evalEvery <= 0 || step_ % opt_.evalEvery != 0 ||
         step_ >= total || runEval();
}

int64_t Job::rangeEnd(int64_t total) const {
  // A range ends where the coordinator must act between steps (a
  // checkpoint, a held-out score) and after at most kMaxStepsPerCall steps:
  // inside a range nothing holds the tasks in step, so a task that only
  // sends can run ahead of its receiver, whose queue the range bounds.
  int64_t end = std::min(total, step_ + kMaxStepsPerCall);
  auto boundary = [&](int64_t every) {
    if (every > 0) {
      end = std::min(end, (step_ / every + 1) * every);
    }
  };
  if (!opt_.checkpointDir.empty()) {
    boundary(opt_.checkpointEvery);
  }
  if (eval_) {
    boundary(opt_.evalEvery);
  }
  return end;
}

bool Job::runSteps(int64_t total) {
  runTotal_ = total;
  if (!perStepRpc()) {
    // Each worker runs a range of steps on its own.
    while (step_ < total) {
      int64_t end = rangeEnd(total);
      if (!runRange(end - step_, end == total) || !afterStep(total)) {
        return false;
      }
    }
    return true;
  }
  // The next batch is cut on another thread while the current step runs.
  auto prefetch = [this](DataPosition pos) {
    return std::async(std::launch::async,
                      [this, pos] { return prepareBatch(pos); });
  };
  std::future<Batch> pending;
  if (batcher_ && step_ < total) {
    pending = prefetch(dataPos_);
  }
  while (step_ < total) {
    if (batcher_) {
      current_ = pending.get();
      if (step_ + 1 < total) {
        pending = prefetch(current_.next);
      }
    }
    if (!runRange(1, step_ == total - 1) || !afterStep(total)) {
      return false;
    }
  }
  return true;
}

void Job::finishStep(double seconds) {
  recordStep(step_, seconds);
  if (batcher_) {
    if (!perStepRpc()) {
      // The workers cut the batch; here only where it started (for the
      // progress line) and where the next one starts are needed.
      current_.at = batcher_->normalize(dataPos_);
      (void)batcher_->batchAt(current_.at, &current_.next);
    }
    dataPos_ = current_.next;
  }
  ++step_;
  showProgress(step_, runTotal_, step_ == runTotal_);
}

void Job::startCall(size_t wi, int64_t count, bool last, StepCall *c,
                    std::mutex *mu, std::condition_variable *cv) {
  WorkerHandle &w = workers_[wi];
  prepare(&c->ctx);
  // The monitor fires first; this deadline only bounds the RPC.
  c->ctx.set_deadline(after(
      opt_.stepTimeoutSec > 0 ? opt_.stepTimeoutSec * count + 10 : 7 * 86400));
  // The --input tensors and (per step) the --data batch of this task.
  auto feed = [&](auto *inputs) {
    for (const manifest::TensorSignature &sig : w.task->inputs()) {
      for (const rpc::Tensor &t : inputs_) {
        if (t.name() == sig.name()) {
          *inputs->Add() = t;
        }
      }
      for (const rpc::Tensor &t : current_.tensors) {
        if (t.name() == sig.name()) {
          *inputs->Add() = t;
        }
      }
    }
  };
  auto deliver = [c, mu, cv](rpc::RunStepResponse &&r) {
    std::lock_guard<std::mutex> lock(*mu);
    c->ready.push_back(std::move(r));
    ++c->delivered;
    cv->notify_all();
  };
  auto finish = [c, mu, cv](grpc::Status st) {
    std::lock_guard<std::mutex> lock(*mu);
    c->status = std::move(st);
    c->finishedAt = SteadyClock::now();
    c->done = true;
    cv->notify_all();
  };
  rpc::Worker::Stub *stub = w.stub.get();
  if (perStepRpc()) {
    rpc::RunStepRequest req;
    req.set_step(step_);
    req.set_want_outputs(last);
    req.set_want_trace(!opt_.traceFile.empty());
    if (!lossOutputs_[wi].empty()) {
      req.add_report_outputs(lossOutputs_[wi]);
    }
    feed(req.mutable_inputs());
    c->thread = std::thread([c, stub, req = std::move(req), deliver, finish] {
      rpc::RunStepResponse resp;
      grpc::Status st = stub->RunStep(&c->ctx, req, &resp);
      if (st.ok()) {
        deliver(std::move(resp));
      }
      finish(std::move(st));
    });
    return;
  }
  rpc::RunStepsRequest req;
  req.set_first_step(step_);
  req.set_count(count);
  req.set_want_outputs(last);
  req.set_want_trace(!opt_.traceFile.empty());
  if (!lossOutputs_[wi].empty()) {
    req.add_report_outputs(lossOutputs_[wi]);
  }
  feed(req.mutable_inputs());
  for (const manifest::TensorSignature &sig : w.task->inputs()) {
    for (const DataFile &f : dataFiles_) {
      if (f.input == sig.name()) {
        rpc::DataSource *d = req.add_data();
        d->set_name(f.input);
        d->set_path(absolutePath(f.path));
      }
    }
  }
  req.set_seed(opt_.seed);
  req.set_shuffle(opt_.shuffle);
  req.set_pad_partial_batch(opt_.padPartialBatch);
  req.set_epoch(dataPos_.epoch);
  req.set_index(dataPos_.index);
  c->thread = std::thread([c, stub, req = std::move(req), deliver, finish] {
    std::unique_ptr<grpc::ClientReader<rpc::RunStepResponse>> reader =
        stub->RunSteps(&c->ctx, req);
    rpc::RunStepResponse r;
    while (reader->Read(&r)) {
      deliver(std::move(r));
      r.Clear();
    }
    finish(reader->Finish());
  });
}

bool Job::runRange(int64_t count, bool last) {
  std::vector<std::unique_ptr<StepCall>> calls;
  std::mutex doneMu;
  std::condition_variable doneCv;
  auto start = SteadyClock::now();
  auto stepStart = start;
  auto nextCheck = start + std::chrono::milliseconds(opt_.heartbeatMs);
  ++stepCalls_;
  for (size_t wi = 0; wi < workers_.size(); ++wi) {
    workers_[wi].progressAt = workers_[wi].healthOkAt = start;
    calls.push_back(std::make_unique<StepCall>());
    startCall(wi, count, last, calls.back().get(), &doneMu, &doneCv);
  }

  auto joinAll = [&] {
    for (auto &c : calls) {
      c->thread.join();
    }
  };
  auto stop = [&](const std::string &msg) {
    fail(msg);
    abortAll(msg);
    for (auto &c : calls) {
      c->ctx.TryCancel();
    }
    joinAll();
    return false;
  };
  // The step worker i is in (or failed in): the range's first plus the
  // steps it finished.
  const int64_t first = step_;
  auto stepOf = [&](size_t i) {
    std::lock_guard<std::mutex> lock(doneMu);
    return std::to_string(first + calls[i]->delivered);
  };

  // A peer's error (CANCELLED, a failed send) is usually a symptom; give the
  // root cause a moment to show up before blaming the first task that failed.
  const auto grace = failureGrace();
  // Under doneMu.
  auto stepDone = [&] {
    for (auto &c : calls) {
      if (c->ready.empty()) {
        return false;
      }
    }
    return true;
  };
  auto allDone = [&] {
    for (auto &c : calls) {
      if (!c->done) {
        return false;
      }
    }
    return true;
  };
  while (true) {
    std::vector<rpc::RunStepResponse> finished;
    bool over = false;
    {
      // Wake at once when a step or the range finishes, else once per
      // heartbeat.
      std::unique_lock<std::mutex> lock(doneMu);
      doneCv.wait_until(lock, nextCheck,
                        [&] { return stepDone() || allDone(); });
      if (stepDone()) {
        for (auto &c : calls) {
          finished.push_back(std::move(c->ready.front()));
          c->ready.pop_front();
        }
      } else {
        over = allDone();
      }
    }
    if (!finished.empty()) {
      lastResponses_ = std::move(finished);
      auto now = SteadyClock::now();
      finishStep(std::chrono::duration<double>(now - stepStart).count());
      stepStart = now;
      for (WorkerHandle &w : workers_) {
        w.progressAt = w.healthOkAt = now;
      }
      continue;
    }
    if (over) {
      break;
    }
    if (SteadyClock::now() < nextCheck) {
      continue;
    }
    nextCheck =
        SteadyClock::now() + std::chrono::milliseconds(opt_.heartbeatMs);

    size_t dead = 0;
    std::string cause = findDeadWorker(&dead);
    if (!cause.empty()) {
      workerLost_ = true;
      // The dead worker's stream may still hold the results of steps it
      // finished before it died; let its reader drain them (its call ends
      // once the connection is gone, bounded by the grace) so that the
      // step named is the one it died in, not the range's first.
      {
        std::unique_lock<std::mutex> lock(doneMu);
        doneCv.wait_for(lock, grace, [&] { return calls[dead]->done; });
      }
      return stop(taskLabel(workers_[dead]) + " failed in step " +
                  stepOf(dead) + ": " + cause);
    }

    // Failed calls: blame one at once if it failed on its own; if all are
    // symptoms (a peer's timeout, a cancel), wait out the grace of one of
    // them so the root cause can show up, then blame the most telling.
    std::vector<bool> running;
    std::vector<size_t> failedCalls;
    std::vector<TaskFailure> failures;
    std::vector<grpc::Status> failedStatus;
    bool ownError = false, graceOver = false;
    auto now = SteadyClock::now();
    for (size_t i = 0; i < calls.size(); ++i) {
      StepCall &c = *calls[i];
      grpc::Status status;
      SteadyClock::time_point finishedAt;
      bool done;
      {
        std::lock_guard<std::mutex> lock(doneMu);
        done = c.done;
        status = c.status;
        finishedAt = c.finishedAt;
      }
      running.push_back(!done);
      if (!done || status.ok()) {
        continue;
      }
      auto code = static_cast<graphrt_status_code_t>(status.error_code());
      failedCalls.push_back(i);
      failures.push_back(
          {code, std::chrono::duration<double>(finishedAt.time_since_epoch())
                     .count()});
      failedStatus.push_back(status);
      if (!isSymptomOfPeer(code)) {
        ownError = true;
      } else if (now - finishedAt > grace) {
        graceOver = true;
      }
    }
    if (ownError || graceOver) {
      if (!ownError) {
        // A peer's deadline ran out: blame a worker that answers nothing.
        size_t silent = 0;
        std::string why = findUnresponsiveWorker(
            2.0 * opt_.heartbeatMs / 1000 + 1.5, &silent);
        if (!why.empty()) {
          workerLost_ = true;
          return stop(taskLabel(workers_[silent]) + " stalled in step " +
                      stepOf(silent) + ": " + why);
        }
      }
      size_t pick = chooseFailureToBlame(failures);
      size_t i = failedCalls[pick];
      return stop(taskLabel(workers_[i]) + " failed in step " + stepOf(i) +
                  ": " + statusCodeName(failures[pick].code) + ": " +
                  failedStatus[pick].error_message());
    }

    size_t stalled = 0;
    std::string why = findStalledWorker(running, &stalled);
    if (!why.empty()) {
      workerLost_ = true;
      return stop(taskLabel(workers_[stalled]) + " stalled in step " +
                  std::to_string(step_) + ": " + why);
    }

    // --step-timeout bounds each step: the time since the last one ended.
    double elapsed =
        std::chrono::duration<double>(SteadyClock::now() - stepStart).count();
    if (opt_.stepTimeoutSec > 0 && elapsed > opt_.stepTimeoutSec) {
      // Blame a task that is computing rather than one waiting on a peer.
      std::string blame, detail;
      for (size_t i = 0; i < calls.size() && blame.empty(); ++i) {
        if (!running[i]) {
          continue;
        }
        grpc::ClientContext ctx;
        prepare(&ctx);
        ctx.set_deadline(after(1.0));
        rpc::HealthResponse h;
        if (workers_[i].stub->Health(&ctx, rpc::HealthRequest(), &h).ok() &&
            h.waiting_on().empty()) {
          blame = taskLabel(workers_[i]);
          detail = "it is computing, not waiting on communication";
        }
      }
      for (size_t i = 0; i < calls.size() && blame.empty(); ++i) {
        if (running[i]) {
          blame = taskLabel(workers_[i]);
          detail = "it is waiting on communication";
        }
      }
      return stop(blame + " made no progress in step " + std::to_string(step_) +
                  " for " + std::to_string(static_cast<int>(elapsed)) +
                  " s (--step-timeout " +
                  std::to_string(static_cast<int>(opt_.stepTimeoutSec)) +
                  "); " + detail);
    }
  }
  joinAll();
  bool anyFailed = false;
  for (auto &c : calls) {
    anyFailed = anyFailed || !c->status.ok();
  }
  if (anyFailed) {
    // Every task may have returned before the monitor saw the root cause (a
    // dead peer makes the others fail fast): look for it before blaming.
    size_t dead = 0;
    if (std::string cause = awaitDeadWorker(&dead); !cause.empty()) {
      workerLost_ = true;
      fail(taskLabel(workers_[dead]) + " failed in step " + stepOf(dead) +
           ": " + cause);
      abortAll(error_);
      return false;
    }
    std::vector<size_t> failedCalls;
    std::vector<TaskFailure> failures;
    for (size_t i = 0; i < calls.size(); ++i) {
      if (calls[i]->status.ok()) {
        continue;
      }
      failedCalls.push_back(i);
      failures.push_back(
          {static_cast<graphrt_status_code_t>(calls[i]->status.error_code()),
           std::chrono::duration<double>(
               calls[i]->finishedAt.time_since_epoch())
               .count()});
    }
    size_t pick = chooseFailureToBlame(failures);
    size_t blame = failedCalls[pick];
    fail(taskLabel(workers_[blame]) + " failed in step " + stepOf(blame) +
         ": " + statusCodeName(failures[pick].code) + ": " +
         calls[blame]->status.error_message());
    abortAll(error_);
    return false;
  }
  if (step_ != first + count) {
    // Every worker ended its range without an error but not every step
    // came back: a worker too old for RunSteps, or a broken stream.
    return fail("the workers ended steps " + std::to_string(first) + ".." +
                std::to_string(first + count - 1) + " after only " +
                std::to_string(step_ - first) + " of them");
  }
  return true;
}

void Job::recordStep(int64_t step, double seconds) {
  StepRecord r;
  r.step = step;
  r.seconds = seconds;
  for (const manifest::Channel &c : bundle_.manifest.channels()) {
    r.channelBytes[c.key()] = 0;
  }
  for (const manifest::CollectiveGroup &g :
       bundle_.manifest.collective_groups()) {
    r.groupBytes[g.name()] = 0;
  }
  seenCounters_.resize(lastResponses_.size());
  for (size_t i = 0; i < lastResponses_.size(); ++i) {
    const rpc::RunStepResponse &resp = lastResponses_[i];
    r.taskSeconds.push_back(resp.step_seconds());
    for (const rpc::ChannelCounter &c : resp.counters()) {
      countStepTraffic(c, seenCounters_[i][c.channel()], r);
    }
    for (const rpc::Tensor &t : resp.outputs()) {
      if (t.name() == lossOutputs_[i] && !r.hasLoss) {
        if (t.dtype() == "f32" && t.data().size() == 4) {
          float f;
          std::memcpy(&f, t.data().data(), 4);
          r.loss = f;
          r.hasLoss = true;
        } else if (t.dtype() == "f64" && t.data().size() == 8) {
          std::memcpy(&r.loss, t.data().data(), 8);
          r.hasLoss = true;
        }
      }
    }
    if (!opt_.traceFile.empty()) {
      int pid = static_cast<int>(i) + 1;
      for (const rpc::TraceEvent &e : resp.trace()) {
        traceEvents_.push_back(
            "{\"name\": \"" + jsonEscape(e.name()) + "\", \"cat\": \"" +
            e.category() + "\", \"ph\": \"X\", \"pid\": " +
            std::to_string(pid) + ", \"tid\": " +
            // Started collectives run on the task's communication thread.
            (e.category() == "collective-async" ? "2" : "1") +
            ", \"ts\": " + std::to_string(e.start_us() - traceOriginUs_) +
            ", \"dur\": " + std::to_string(e.duration_us()) +
            ", \"args\": {\"step\": " + std::to_string(step) +
            ", \"bytes\": " + std::to_string(e.bytes()) + ", \"peer\": \"" +
            jsonEscape(e.peer()) + "\"" +
            // Shared-memory collectives: the span's time at barriers.
            (e.wait_us() >= 0 ? ", \"wait_us\": " + std::to_string(e.wait_us())
                              : std::string()) +
            "}}");
      }
    }
  }
  stepRecords_.push_back(std::move(r));
}

void Job::countStepTraffic(const rpc::ChannelCounter &c, Traffic &seen,
                           StepRecord &r) {
  Traffic step{c.bytes() - seen.bytes, c.messages() - seen.messages};
  seen = Traffic{c.bytes(), c.messages()};
  // A channel's bytes are counted once, by its sender ("recv:" counts the
  // same bytes again); a group's by each member for what it sent.
  static const std::string kSend = "send:", kCollective = "collective:";
  std::map<std::string, uint64_t> *perStep;
  std::map<std::string, Traffic> *totals;
  std::string name;
  if (c.channel().compare(0, kSend.size(), kSend) == 0) {
    name = c.channel().substr(kSend.size());
    perStep = &r.channelBytes;
    totals = &channelTotals_;
  } else if (c.channel().compare(0, kCollective.size(), kCollective) == 0) {
    name = c.channel().substr(kCollective.size());
    perStep = &r.groupBytes;
    totals = &groupTotals_;
  } else {
    return;
  }
  (*perStep)[name] += step.bytes;
  Traffic &total = (*totals)[name];
  total.bytes += step.bytes;
  total.messages += step.messages;
}

void Job::showProgress(int64_t done, int64_t total, bool last) {
  if (opt_.quiet || opt_.progress == 0) {
    return;
  }
  auto now = SteadyClock::now();
  auto sinceLast = now - lastProgressPrint_;
  // The live line shows the first step at once, then refreshes at 10 Hz;
  // plain lines (no terminal) come every 10 s.
  bool first = progressTty_ && done == firstStep_ + 1;
  if (!last && !first &&
      sinceLast < (progressTty_ ? std::chrono::milliseconds(100)
                                : std::chrono::milliseconds(10000))) {
    return;
  }
  if (last && !progressShown_ && !progressTty_) {
    return; // a short run needs no progress lines; the summary follows
  }
  lastProgressPrint_ = now;
  double elapsed = std::chrono::duration<double>(now - runStart_).count();
  double rate = elapsed > 0 ? (done - firstStep_) / elapsed : 0;
  char line[256];
  int n = std::snprintf(line, sizeof line, "step %lld/%lld",
                        static_cast<long long>(done),
                        static_cast<long long>(total));
  if (batcher_) {
    n += std::snprintf(line + n, sizeof line - n, "  epoch %lld",
                       static_cast<long long>(current_.at.epoch + 1));
    if (opt_.epochs > 0) {
      n += std::snprintf(line + n, sizeof line - n, "/%lld",
                         static_cast<long long>(opt_.epochs));
    }
  }
  // Training (--data) shows the loss first and the rate in examples.
  if (!batcher_) {
    n += std::snprintf(line + n, sizeof line - n, "  %.1f steps/s", rate);
  }
  if (!stepRecords_.empty() && stepRecords_.back().hasLoss) {
    n += std::snprintf(line + n, sizeof line - n, "  loss %.6g",
                       stepRecords_.back().loss);
  }
  if (batcher_) {
    n += std::snprintf(line + n, sizeof line - n, "  %.0f examples/s",
                       rate * static_cast<double>(batchSize_));
  }
  if (restarts_ > 0) {
    n += std::snprintf(line + n, sizeof line - n, "  restarts %d/%d", restarts_,
                       opt_.maxRestarts);
  }
  if (rate > 0 && done < total) {
    long long eta = static_cast<long long>((total - done) / rate + 0.5);
    std::snprintf(line + n, sizeof line - n, "  ETA %lld:%02lld:%02lld",
                  eta / 3600, eta / 60 % 60, eta % 60);
  }
  progressShown_ = true;
  if (progressTty_) {
    std::fprintf(stderr, "\r\033[Kgraph-run: %s%s", line, last ? "\n" : "");
  } else {
    std::fprintf(stderr, "graph-run: %s\n", line);
  }
  std::fflush(stderr);
}

bool Job::writeTrace() {
  if (opt_.traceFile.empty()) {
    return true;
  }
  std::ofstream out(opt_.traceFile);
  if (!out) {
    return fail("cannot write --trace file '" + opt_.traceFile + "'");
  }
  out << "{\"displayTimeUnit\": \"ms\", \"otherData\": {\"job\": \""
      << jsonEscape(bundle_.manifest.name())
      << "\", \"origin_unix_us\": " << traceOriginUs_
      << "}, \"traceEvents\": [\n";
  for (size_t i = 0; i < workers_.size(); ++i) {
    out << "{\"name\": \"process_name\", \"ph\": \"M\", \"pid\": " << i + 1
        << ", \"tid\": 1, \"args\": {\"name\": \"task "
        << jsonEscape(workers_[i].task->name()) << "\"}},\n";
  }
  for (size_t i = 0; i < traceEvents_.size(); ++i) {
    out << traceEvents_[i] << (i + 1 < traceEvents_.size() ? ",\n" : "\n");
  }
  out << "]}\n";
  if (!out) {
    return fail("cannot write --trace file '" + opt_.traceFile + "'");
  }
  return true;
}

void Job::abortAll(const std::string &reason) {
  for (WorkerHandle &w : workers_) {
    if (w.exited || !w.stub || w.unresponsive) {
      continue;
    }
    grpc::ClientContext ctx;
    prepare(&ctx);
    ctx.set_deadline(after(1.0));
    rpc::AbortRequest req;
    req.set_reason(reason);
    rpc::AbortResponse resp;
    (void)w.stub->Abort(&ctx, req, &resp);
  }
}

void Job::stopWorkers() {
  for (WorkerHandle &w : workers_) {
    // Launched ranks wait for their worker to end: shut every one down.
    bool remoteRank = opt_.rank == 0 && w.pid <= 0 && !w.unresponsive;
    if ((w.pid <= 0 && !remoteRank) || w.exited) {
      continue;
    }
    if (w.unresponsive) {
      // A stopped or wedged local worker cannot shut down by itself.
      ::kill(w.pid, SIGKILL);
      continue;
    }
    if (w.stub) {
      grpc::ClientContext ctx;
      prepare(&ctx);
      ctx.set_deadline(after(1.0));
      rpc::ShutdownResponse resp;
      (void)w.stub->Shutdown(&ctx, rpc::ShutdownRequest(), &resp);
    }
  }
  auto deadline = SteadyClock::now() + std::chrono::seconds(5);
  for (WorkerHandle &w : workers_) {
    if (w.pid <= 0) {
      continue;
    }
    while (!w.exited) {
      int status;
      if (::waitpid(w.pid, &status, WNOHANG) == w.pid) {
        w.exited = true;
      } else if (SteadyClock::now() > deadline) {
        ::kill(w.pid, SIGKILL);
        ::waitpid(w.pid, &status, 0);
        w.exited = true;
      } else {
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
      }
    }
    if (w.stdoutFd >= 0) {
      ::close(w.stdoutFd);
    }
    w.stdoutFd = -1;
  }
}

bool Job::writeOutputs() {
  if (opt_.outputDir.empty()) {
    return true;
  }
  ::mkdir(opt_.outputDir.c_str(), 0755);
  for (const rpc::RunStepResponse &resp : lastResponses_) {
    for (const rpc::Tensor &t : resp.outputs()) {
      NpyArray a;
      a.dtype = parseDType(t.dtype());
      a.shape.assign(t.shape().begin(), t.shape().end());
      a.data = t.data();
      Status st = writeNpy(opt_.outputDir + "/" + t.name() + ".npy", a);
      if (!st.isOk()) {
        return fail(st.message());
      }
    }
  }
  return true;
}

void Job::reportMetrics(double seconds, int64_t steps) {
  std::string json = "{\"steps\": " + std::to_string(steps) +
                     ", \"seconds\": " + std::to_string(seconds) +
                     ", \"step_calls\": " + std::to_string(stepCalls_) +
                     ", \"tasks\": {";
  for (size_t i = 0; i < lastResponses_.size(); ++i) {
    const rpc::RunStepResponse &r = lastResponses_[i];
    const std::string &name = workers_[i].task->name();
    json += (i ? ", \"" : "\"") + name +
            "\": {\"last_step_seconds\": " + std::to_string(r.step_seconds()) +
            ", \"channels\": {";
    for (int j = 0; j < r.counters_size(); ++j) {
      const rpc::ChannelCounter &c = r.counters(j);
      json += (j ? ", \"" : "\"") + c.channel() +
              "\": {\"bytes\": " + std::to_string(c.bytes()) +
              ", \"messages\": " + std::to_string(c.messages()) + "}";
      if (!opt_.quiet) {
        std::fprintf(stderr,
                     "graph-run: task '%s' %s: %llu bytes in %llu "
                     "messages\n",
                     name.c_str(), c.channel().c_str(),
                     static_cast<unsigned long long>(c.bytes()),
                     static_cast<unsigned long long>(c.messages()));
      }
    }
    json += "}}";
  }
  json += "}, \"channels\": {";
  bool first = true;
  for (const manifest::Channel &c : bundle_.manifest.channels()) {
    const Traffic &t = channelTotals_[c.key()];
    json += std::string(first ? "" : ", ") + "\"" + jsonEscape(c.key()) +
            "\": {\"src\": \"" + jsonEscape(c.src()) + "\", \"dst\": \"" +
            jsonEscape(c.dst()) + "\", \"bytes\": " + std::to_string(t.bytes) +
            ", \"messages\": " + std::to_string(t.messages) + "}";
    first = false;
  }
  json += "}, \"collective_groups\": {";
  first = true;
  for (const manifest::CollectiveGroup &g :
       bundle_.manifest.collective_groups()) {
    const Traffic &t = groupTotals_[g.name()];
    json += std::string(first ? "" : ", ") + "\"" + jsonEscape(g.name()) +
            "\": {\"bytes\": " + std::to_string(t.bytes) +
            ", \"messages\": " + std::to_string(t.messages) + "}";
    first = false;
  }
  json += "}, \"per_step\": [";
  for (size_t i = 0; i < stepRecords_.size(); ++i) {
    const StepRecord &r = stepRecords_[i];
    json += (i ? ",\n  {" : "\n  {") + std::string("\"step\": ") +
            std::to_string(r.step) +
            ", \"seconds\": " + std::to_string(r.seconds) +
            ", \"task_seconds\": {";
    for (size_t j = 0; j < r.taskSeconds.size(); ++j) {
      json += (j ? ", \"" : "\"") + jsonEscape(workers_[j].task->name()) +
              "\": " + std::to_string(r.taskSeconds[j]);
    }
    json += "}, \"channel_bytes\": " + bytesJson(r.channelBytes) +
            ", \"collective_bytes\": " + bytesJson(r.groupBytes);
    if (r.hasLoss) {
      char buf[64];
      std::snprintf(buf, sizeof buf, "%.9g", r.loss);
      json += std::string(", \"loss\": ") + buf;
    }
    json += "}";
  }
  json += "]" + (eval_ ? evalJson() : std::string()) + "}\n";
  if (!opt_.quiet) {
    std::fprintf(stderr, "graph-run: %lld steps in %.3f s (%.1f steps/s)\n",
                 static_cast<long long>(steps), seconds,
                 seconds > 0 ? steps / seconds : 0.0);
  }
  if (!opt_.metricsFile.empty()) {
    std::ofstream(opt_.metricsFile) << json;
  }
}

int Job::run() {
  Status st = loadSecurity(opt_.tlsCert, opt_.tlsKey, opt_.tlsCa,
                           opt_.tokenFile, &security_);
  if (!st.isOk()) {
    std::fprintf(stderr, "graph-run: error: %s\n", st.message().c_str());
    return kExitUsage;
  }
  if (security_.token.empty()) {
    if (opt_.rank >= 0 && !security_.tls()) {
      std::fprintf(stderr,
                   "graph-run: error: launched as rank %d: every rank needs "
                   "the same job token (--token-file or $%s) or mutual TLS\n",
                   opt_.rank, kTokenEnv);
      return kExitUsage;
    }
    if (!opt_.clusterFile.empty() && !security_.tls()) {
      std::fprintf(stderr,
                   "graph-run: error: --cluster needs the job token the "
                   "workers were given (--token-file or $%s) or mutual TLS\n",
                   kTokenEnv);
      return kExitUsage;
    }
    if (opt_.clusterFile.empty() && opt_.rank < 0) {
      security_.token = randomToken(); // a fresh token for every local job
    }
  }
  st = readBundle(opt_.bundleDir, &bundle_);
  if (!st.isOk()) {
    std::fprintf(stderr, "graph-run: error: %s\n", st.message().c_str());
    return kExitBundle;
  }
  for (const manifest::Task &t : bundle_.manifest.tasks()) {
    // Workers on other machines (--cluster) check their own GPUs when the
    // task loads; every other task runs here.
    if (!opt_.clusterFile.empty() && isCudaTask(t)) {
      continue;
    }
    st = checkTaskTarget(t);
    if (!st.isOk()) {
      std::fprintf(stderr, "graph-run: error: %s\n", st.message().c_str());
      return kExitBundle;
    }
  }
  progressTty_ =
      opt_.progress == 1 || (opt_.progress == -1 && ::isatty(STDERR_FILENO));
  int tasks = bundle_.manifest.tasks_size();
  bool ok = true;
  int failCode = kExitUsage;
  if (opt_.clusterFile.empty() && opt_.local != 0 && opt_.local != tasks) {
    ok = fail("--local " + std::to_string(opt_.local) + " but the job has " +
              std::to_string(tasks) +
              " tasks; graph-run starts one worker per task");
  }
  for (const manifest::Task &t : bundle_.manifest.tasks()) {
    WorkerHandle w;
    w.task = &t;
    workers_.push_back(std::move(w));
    // A scalar f32/f64 output named "loss" (or --loss) is reported every
    // step.
    const std::string &wanted =
        opt_.lossOutput.empty() ? std::string("loss") : opt_.lossOutput;
    std::string loss;
    for (const manifest::TensorSignature &o : t.outputs()) {
      if (o.name() != wanted) {
        continue;
      }
      if (!isBatched(o) && numElements(o) == 1 &&
          (o.dtype() == "f32" || o.dtype() == "f64")) {
        loss = o.name();
      } else if (!opt_.lossOutput.empty()) {
        ok = fail("--loss " + wanted + ": output '" + wanted + "' of task '" +
                  t.name() +
                  "' is not a scalar f32 or f64; the loss must be "
                  "one number per step");
      }
    }
    lossOutputs_.push_back(loss);
  }
  if (!opt_.lossOutput.empty() &&
      std::all_of(lossOutputs_.begin(), lossOutputs_.end(),
                  [](const std::string &l) { return l.empty(); }) &&
      ok) {
    std::string names;
    for (const manifest::Task &t : bundle_.manifest.tasks()) {
      for (const manifest::TensorSignature &o : t.outputs()) {
        names += (names.empty() ? "" : ", ") + o.name();
      }
    }
    ok = fail("--loss " + opt_.lossOutput + ": the job has no output named '" +
              opt_.lossOutput + "' (its outputs: " +
              (names.empty() ? std::string("none") : names) + ")");
  }
  if (ok) {
    failCode = kExitBundle;
  }
  ok = ok && (opt_.rank > 0 || readInputs()); // rank 0 feeds every task
  if (ok && !opt_.evalFiles.empty() && opt_.rank <= 0) {
    Status es = Evaluator::open(opt_.bundleDir, opt_.evalFiles, &eval_);
    ok = es.isOk() || fail(es.message());
  }
  if (ok) {
    failCode = kExitStartFailed;
  }
  ok = ok && (opt_.rank >= 0             ? launchRank()
              : opt_.clusterFile.empty() ? startLocalWorkers()
                                         : resolveCluster());
  if (ok && opt_.rank > 0) {
    return serveRank();
  }
  ok = ok && connectAndLoad();
  bool started = ok;
  if (ok) {
    failCode = kExitJobFailed;
  }
  auto start = runStart_ = lastProgressPrint_ = SteadyClock::now();
  traceOriginUs_ = unixMicros();
  int64_t total = opt_.steps * opt_.repeat;
  // --data without --steps runs one epoch.
  if (batcher_ && (opt_.epochs > 0 || !opt_.stepsGiven)) {
    total = std::max<int64_t>(opt_.epochs, 1) * batcher_->batchesPerEpoch();
  }
  // --stats: one untimed warm-up step first.
  int64_t warmup = opt_.statsFile.empty() ? 0 : 1;
  total += warmup;
  ok = ok && (!opt_.restore || restoreCheckpoint());
  if (ok && step_ >= total && opt_.restore) {
    note("the checkpoint is at step " + std::to_string(step_) +
         ", the run ends at step " + std::to_string(total) +
         ": no step left to run");
  }
  runStart_ = lastProgressPrint_ = SteadyClock::now();
  startStep_ = step_;
  while (ok && !runSteps(total)) {
    // A lost worker is restarted with all the others, from the last
    // checkpoint, while restarts remain; any other failure ends the run.
    if (!workerLost_ || restarts_ >= opt_.maxRestarts) {
      ok = false;
      break;
    }
    ++restarts_;
    std::string why = error_;
    error_.clear();
    workerLost_ = false;
    note("restart " + std::to_string(restarts_) + "/" +
         std::to_string(opt_.maxRestarts) + ": " + why);
    ok = restartJob();
    runStart_ = lastProgressPrint_ = SteadyClock::now();
  }
  // The end of the run is a checkpoint too, so a later run can go on.
  if (ok && !opt_.checkpointDir.empty() && checkpointStep_ != step_) {
    ok = writeCheckpointNow();
  }
  ok = ok && (opt_.saveFile.empty() || saveWeights());
  ok = ok && (!eval_ || runEval());
  if (!ok && progressShown_ && progressTty_) {
    std::fprintf(stderr, "\n");
  }
  double seconds =
      std::chrono::duration<double>(SteadyClock::now() - start).count();
  ok = ok && writeOutputs();
  if (ok) {
    reportMetrics(seconds, step_ - startStep_);
  }
  if (started) {
    writeTrace(); // also after a failure: the steps that ran are the clue
  }
  stopWorkers();
  if (ok && !opt_.statsFile.empty()) {
    std::vector<double> task, wall;
    for (size_t i = warmup; i < stepRecords_.size(); ++i) {
      const StepRecord &r = stepRecords_[i];
      task.push_back(
          r.taskSeconds.empty()
              ? r.seconds
              : *std::max_element(r.taskSeconds.begin(), r.taskSeconds.end()));
      wall.push_back(r.seconds);
    }
    Status st = writeRunStats(opt_.statsFile, task, wall);
    if (!st.isOk()) {
      std::fprintf(stderr, "graph-run: error: %s\n", st.message().c_str());
      return kExitJobFailed;
    }
  }
  if (!ok) {
    // Only a job whose workers ran has a worker log to point at; an error
    // found before (flags, bundle, inputs, start-up) says all there is.
    std::fprintf(stderr, "graph-run: error: %s\n", error_.c_str());
    if (started) {
      std::fprintf(stderr, "graph-run: the job was stopped; see the worker "
                           "log above for details\n");
    }
    return failCode == kExitStartFailed && bundleRefused_ ? kExitBundle
                                                          : failCode;
  }
  return kExitOk;
}

} // namespace

int runJob(const RunOptions &options) {
  // A worker that dies mid-send must not take graph-run down with SIGPIPE.
  ::signal(SIGPIPE, SIG_IGN);
  Job job(options);
  return job.run();
}

} // namespace graphrt
