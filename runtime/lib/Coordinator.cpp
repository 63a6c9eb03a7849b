// Coordinator.cpp: starts or finds the workers, loads the bundle on each,
// drives the steps, watches for dead or stuck tasks, and gathers the results.
#include "Coordinator.h"

#include "Manifest.h"
#include "Npy.h"
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

#include <atomic>
#include <condition_variable>
#include <mutex>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <memory>
#include <sstream>
#include <thread>
#include <vector>

namespace graphrt {
namespace {

using SteadyClock = std::chrono::steady_clock;

std::chrono::system_clock::time_point after(double seconds) {
  return std::chrono::system_clock::now() +
         std::chrono::milliseconds(static_cast<int64_t>(seconds * 1000));
}

struct WorkerHandle {
  const manifest::Task* task = nullptr;
  std::string address;
  pid_t pid = -1;
  int stdoutFd = -1;
  bool exited = false;
  std::unique_ptr<rpc::Worker::Stub> stub;
};

// One in-flight RunStep.
struct StepCall {
  grpc::ClientContext ctx;
  rpc::RunStepRequest req;
  rpc::RunStepResponse resp;
  grpc::Status status;
  std::atomic<bool> done{false};
  SteadyClock::time_point finishedAt;
  std::thread thread;
};

class Job {
public:
  explicit Job(const RunOptions& o) : opt_(o) {}
  int run();

private:
  bool fail(const std::string& msg) {
    if (error_.empty())
      error_ = msg;
    return false;
  }
  std::string taskLabel(const WorkerHandle& w) const {
    std::string s = "task '" + w.task->name() + "' (" +
                    (w.task->job().empty() ? "worker" : w.task->job()) + ":" +
                    std::to_string(w.task->index()) + " at " + w.address;
    if (w.pid > 0)
      s += ", pid " + std::to_string(w.pid);
    return s + ")";
  }
  bool readInputs();
  bool startLocalWorkers();
  bool resolveCluster();
  bool connectAndLoad();
  bool runOneStep(int64_t step, bool last);
  /// A dead worker process or an unreachable worker, if any.
  std::string findDeadWorker(size_t* out_index);
  void abortAll(const std::string& reason);
  void stopWorkers();
  bool writeOutputs();
  void reportMetrics(double seconds, int64_t steps);

  RunOptions opt_;
  Bundle bundle_;
  std::vector<WorkerHandle> workers_;
  std::vector<rpc::Tensor> inputs_;
  std::vector<rpc::RunStepResponse> lastResponses_;
  std::string error_;
};

bool Job::readInputs() {
  std::map<std::string, bool> used;
  for (const auto& [name, path] : opt_.inputs)
    used[name] = false;
  for (const manifest::Task& t : bundle_.manifest.tasks())
    for (const manifest::TensorSignature& sig : t.inputs()) {
      auto it = opt_.inputs.find(sig.name());
      if (it == opt_.inputs.end())
        return fail("input '" + sig.name() + "' of task '" + t.name() +
                    "' was not given; pass --input " + sig.name() +
                    "=FILE.npy holding " + describe(sig));
      used[sig.name()] = true;
      NpyArray a;
      Status st = readNpy(it->second, &a);
      if (!st.isOk())
        return fail(st.message());
      if (a.dtype != parseDType(sig.dtype()) ||
          a.shape != std::vector<int64_t>(sig.shape().begin(),
                                          sig.shape().end())) {
        manifest::TensorSignature got;
        got.set_dtype(dtypeName(a.dtype));
        for (int64_t d : a.shape)
          got.add_shape(d);
        return fail("input '" + sig.name() + "' from '" + it->second +
                    "' is " + describe(got) + ", task '" + t.name() +
                    "' expects " + describe(sig));
      }
      rpc::Tensor tensor;
      tensor.set_name(sig.name());
      tensor.set_dtype(sig.dtype());
      *tensor.mutable_shape() = sig.shape();
      tensor.set_data(std::move(a.data));
      inputs_.push_back(std::move(tensor));
    }
  for (const auto& [name, isUsed] : used)
    if (!isUsed)
      return fail("--input '" + name + "' is not an input of any task");
  return true;
}

bool Job::startLocalWorkers() {
  for (WorkerHandle& w : workers_) {
    int fds[2];
    if (::pipe(fds) != 0)
      return fail(std::string("pipe: ") + std::strerror(errno));
    pid_t pid = ::fork();
    if (pid < 0)
      return fail(std::string("fork: ") + std::strerror(errno));
    if (pid == 0) {
      // A worker must not outlive its launcher, even after a kill -9.
      ::prctl(PR_SET_PDEATHSIG, SIGKILL);
      ::dup2(fds[1], STDOUT_FILENO);
      ::close(fds[0]);
      ::close(fds[1]);
      ::execl(opt_.workerBinary.c_str(), "graph-worker", "--listen",
              "127.0.0.1:0", static_cast<char*>(nullptr));
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
  for (WorkerHandle& w : workers_) {
    std::string line;
    while (line.find('\n') == std::string::npos) {
      int left = static_cast<int>(std::chrono::duration_cast<
                                      std::chrono::milliseconds>(
                                      deadline - SteadyClock::now())
                                      .count());
      pollfd p{w.stdoutFd, POLLIN, 0};
      if (left <= 0 || ::poll(&p, 1, left) <= 0)
        return fail("the worker for task '" + w.task->name() + "' (pid " +
                    std::to_string(w.pid) + ") did not start within " +
                    std::to_string(opt_.startTimeoutSec) + " s");
      char buf[256];
      ssize_t n = ::read(w.stdoutFd, buf, sizeof buf);
      if (n <= 0)
        return fail("the worker for task '" + w.task->name() + "' (pid " +
                    std::to_string(w.pid) + ") exited before it was ready");
      line.append(buf, static_cast<size_t>(n));
    }
    const std::string marker = "listening on ";
    size_t at = line.find(marker);
    if (at == std::string::npos)
      return fail("unexpected output from the worker for task '" +
                  w.task->name() + "': " + line);
    w.address = line.substr(at + marker.size(),
                            line.find('\n', at) - at - marker.size());
    if (!opt_.quiet)
      std::fprintf(stderr, "graph-run: started %s\n", taskLabel(w).c_str());
  }
  return true;
}

bool Job::resolveCluster() {
  std::ifstream in(opt_.clusterFile);
  if (!in)
    return fail("cannot read cluster file '" + opt_.clusterFile + "'");
  std::stringstream ss;
  ss << in.rdbuf();
  google::protobuf::Struct config;
  auto st = google::protobuf::util::JsonStringToMessage(ss.str(), &config);
  if (!st.ok())
    return fail("cluster file '" + opt_.clusterFile +
                "' is not JSON: " + std::string(st.message()));
  auto cluster = config.fields().find("cluster");
  if (cluster == config.fields().end() || !cluster->second.has_struct_value())
    return fail("cluster file '" + opt_.clusterFile +
                "' has no \"cluster\" object (TF_CONFIG format: "
                "{\"cluster\": {\"worker\": [\"host:port\", ...]}})");
  const auto& jobs = cluster->second.struct_value().fields();
  for (WorkerHandle& w : workers_) {
    std::string job = w.task->job().empty() ? "worker" : w.task->job();
    auto it = jobs.find(job);
    if (it == jobs.end() || !it->second.has_list_value() ||
        it->second.list_value().values_size() <= w.task->index() ||
        !it->second.list_value().values(w.task->index()).has_string_value())
      return fail("cluster file '" + opt_.clusterFile + "' has no address for " +
                  job + ":" + std::to_string(w.task->index()) + " (task '" +
                  w.task->name() + "')");
    w.address = it->second.list_value().values(w.task->index()).string_value();
  }
  return true;
}

bool Job::connectAndLoad() {
  grpc::ChannelArguments args;
  args.SetMaxReceiveMessageSize(-1);
  args.SetMaxSendMessageSize(-1);
  for (WorkerHandle& w : workers_)
    w.stub = rpc::Worker::NewStub(grpc::CreateCustomChannel(
        w.address, grpc::InsecureChannelCredentials(), args));
  for (WorkerHandle& w : workers_) {
    grpc::ClientContext ctx;
    ctx.set_wait_for_ready(true);
    ctx.set_deadline(after(opt_.startTimeoutSec));
    rpc::HealthResponse resp;
    grpc::Status st = w.stub->Health(&ctx, rpc::HealthRequest(), &resp);
    if (!st.ok())
      return fail(taskLabel(w) + " is not reachable: " + st.error_message());
  }

  char real[PATH_MAX];
  if (!::realpath(opt_.bundleDir.c_str(), real))
    return fail("cannot resolve '" + opt_.bundleDir + "'");
  rpc::LoadTaskRequest base;
  base.set_bundle_dir(real);
  for (const WorkerHandle& w : workers_)
    (*base.mutable_peers())[w.task->name()] = w.address;
  base.set_recv_timeout_ms(static_cast<int64_t>(opt_.recvTimeoutSec * 1000));
  base.set_chunk_bytes(opt_.chunkBytes);

  std::vector<grpc::Status> results(workers_.size());
  std::vector<rpc::LoadTaskResponse> responses(workers_.size());
  std::vector<std::thread> threads;
  for (size_t i = 0; i < workers_.size(); ++i)
    threads.emplace_back([&, i] {
      rpc::LoadTaskRequest req = base;
      req.set_task(workers_[i].task->name());
      grpc::ClientContext ctx;
      ctx.set_deadline(after(opt_.startTimeoutSec + 60));
      results[i] = workers_[i].stub->LoadTask(&ctx, req, &responses[i]);
    });
  for (std::thread& t : threads)
    t.join();
  for (size_t i = 0; i < workers_.size(); ++i) {
    if (!results[i].ok())
      return fail(taskLabel(workers_[i]) + " refused to load the task: " +
                  results[i].error_message());
    if (responses[i].manifest_sha256() != bundle_.manifestSha256)
      return fail(taskLabel(workers_[i]) + " read a manifest with sha256 " +
                  responses[i].manifest_sha256() + ", graph-run read " +
                  bundle_.manifestSha256 +
                  "; every worker must see the same bundle");
  }
  return true;
}

// Why local worker `w` ended, once it has ("" while it runs).
static std::string reapWorker(WorkerHandle& w) {
  int status = 0;
  if (w.pid <= 0 || w.exited || ::waitpid(w.pid, &status, WNOHANG) != w.pid)
    return "";
  w.exited = true;
  if (WIFSIGNALED(status))
    return "its worker process was killed by signal " +
           std::to_string(WTERMSIG(status)) + " (" +
           ::strsignal(WTERMSIG(status)) + ")";
  return "its worker process exited with status " +
         std::to_string(WEXITSTATUS(status));
}

std::string Job::findDeadWorker(size_t* out_index) {
  for (size_t i = 0; i < workers_.size(); ++i) {
    std::string cause = reapWorker(workers_[i]);
    if (!cause.empty()) {
      *out_index = i;
      return cause;
    }
  }
  for (size_t i = 0; i < workers_.size(); ++i) {
    WorkerHandle& w = workers_[i];
    if (w.exited)
      continue;
    grpc::ClientContext ctx;
    ctx.set_deadline(after(1.0));
    rpc::HealthResponse resp;
    grpc::Status st = w.stub->Health(&ctx, rpc::HealthRequest(), &resp);
    if (!st.ok()) {
      *out_index = i;
      // A dying process closes its sockets before it can be reaped; give
      // the exit a moment so the report names the real cause.
      for (int tries = 0; w.pid > 0 && tries < 20; ++tries) {
        std::string cause = reapWorker(w);
        if (!cause.empty())
          return cause;
        std::this_thread::sleep_for(std::chrono::milliseconds(50));
      }
      return "its worker stopped answering health checks (" +
             std::string(statusCodeName(static_cast<graphrt_status_code_t>(
                 st.error_code()))) +
             ": " + st.error_message() + ")";
    }
  }
  return "";
}

bool Job::runOneStep(int64_t step, bool last) {
  std::vector<std::unique_ptr<StepCall>> calls;
  std::mutex doneMu;
  std::condition_variable doneCv;
  auto start = SteadyClock::now();
  for (WorkerHandle& w : workers_) {
    auto call = std::make_unique<StepCall>();
    call->req.set_step(step);
    call->req.set_want_outputs(last);
    for (const manifest::TensorSignature& sig : w.task->inputs())
      for (const rpc::Tensor& t : inputs_)
        if (t.name() == sig.name())
          *call->req.add_inputs() = t;
    // The monitor below fires first; this deadline only bounds the RPC.
    call->ctx.set_deadline(after(opt_.stepTimeoutSec + 10));
    StepCall* c = call.get();
    rpc::Worker::Stub* stub = w.stub.get();
    c->thread = std::thread([c, stub, &doneMu, &doneCv] {
      c->status = stub->RunStep(&c->ctx, c->req, &c->resp);
      c->finishedAt = SteadyClock::now();
      std::lock_guard<std::mutex> lock(doneMu);
      c->done = true;
      doneCv.notify_all();
    });
    calls.push_back(std::move(call));
  }

  auto joinAll = [&] {
    for (auto& c : calls)
      c->thread.join();
  };
  auto stop = [&](const std::string& msg) {
    fail(msg);
    abortAll(msg);
    for (auto& c : calls)
      c->ctx.TryCancel();
    joinAll();
    return false;
  };

  // A peer's error (CANCELLED, a failed send) is usually a symptom; give the
  // root cause a moment to show up before blaming the first task that failed.
  const auto grace = std::chrono::milliseconds(3 * opt_.heartbeatMs + 500);
  auto allDone = [&] {
    for (auto& c : calls)
      if (!c->done)
        return false;
    return true;
  };
  while (true) {
    {
      // Wake at once when the step finishes, else once per heartbeat.
      std::unique_lock<std::mutex> lock(doneMu);
      if (doneCv.wait_for(lock, std::chrono::milliseconds(opt_.heartbeatMs),
                          allDone))
        break;
    }

    size_t dead = 0;
    std::string cause = findDeadWorker(&dead);
    if (!cause.empty())
      return stop(taskLabel(workers_[dead]) + " failed in step " +
                  std::to_string(step) + ": " + cause);

    for (size_t i = 0; i < calls.size(); ++i) {
      StepCall& c = *calls[i];
      if (!c.done || c.status.ok())
        continue;
      auto code = c.status.error_code();
      bool symptom = code == grpc::StatusCode::CANCELLED ||
                     code == grpc::StatusCode::UNAVAILABLE ||
                     code == grpc::StatusCode::DEADLINE_EXCEEDED;
      if (!symptom || SteadyClock::now() - c.finishedAt > grace)
        return stop(taskLabel(workers_[i]) + " failed in step " +
                    std::to_string(step) + ": " +
                    statusCodeName(static_cast<graphrt_status_code_t>(code)) +
                    ": " + c.status.error_message());
    }

    double elapsed =
        std::chrono::duration<double>(SteadyClock::now() - start).count();
    if (elapsed > opt_.stepTimeoutSec) {
      // Blame a task that is computing rather than one waiting on a peer.
      std::string blame, detail;
      for (size_t i = 0; i < calls.size() && blame.empty(); ++i) {
        if (calls[i]->done)
          continue;
        grpc::ClientContext ctx;
        ctx.set_deadline(after(1.0));
        rpc::HealthResponse h;
        if (workers_[i].stub->Health(&ctx, rpc::HealthRequest(), &h).ok() &&
            h.waiting_on().empty()) {
          blame = taskLabel(workers_[i]);
          detail = "it is computing, not waiting on communication";
        }
      }
      for (size_t i = 0; i < calls.size() && blame.empty(); ++i)
        if (!calls[i]->done) {
          blame = taskLabel(workers_[i]);
          detail = "it is waiting on communication";
        }
      return stop(blame + " made no progress in step " + std::to_string(step) +
                  " for " + std::to_string(static_cast<int>(elapsed)) +
                  " s (--step-timeout " +
                  std::to_string(static_cast<int>(opt_.stepTimeoutSec)) +
                  "); " + detail);
    }
  }
  joinAll();
  bool anyFailed = false;
  for (auto& c : calls)
    anyFailed = anyFailed || !c->status.ok();
  if (anyFailed) {
    // Every task may have returned before the monitor saw the root cause (a
    // dead peer makes the others fail fast): look for it before blaming.
    auto until = SteadyClock::now() + grace;
    do {
      size_t dead = 0;
      std::string cause = findDeadWorker(&dead);
      if (!cause.empty()) {
        fail(taskLabel(workers_[dead]) + " failed in step " +
             std::to_string(step) + ": " + cause);
        abortAll(error_);
        return false;
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
    } while (SteadyClock::now() < until);
    size_t blame = calls.size();
    for (size_t i = 0; i < calls.size(); ++i) {
      if (calls[i]->status.ok())
        continue;
      auto code = calls[i]->status.error_code();
      bool symptom = code == grpc::StatusCode::CANCELLED ||
                     code == grpc::StatusCode::UNAVAILABLE ||
                     code == grpc::StatusCode::DEADLINE_EXCEEDED;
      if (blame == calls.size() || !symptom)
        blame = i;
      if (!symptom)
        break;
    }
    fail(taskLabel(workers_[blame]) + " failed in step " +
         std::to_string(step) + ": " +
         statusCodeName(static_cast<graphrt_status_code_t>(
             calls[blame]->status.error_code())) +
         ": " + calls[blame]->status.error_message());
    abortAll(error_);
    return false;
  }
  lastResponses_.clear();
  for (auto& c : calls)
    lastResponses_.push_back(std::move(c->resp));
  return true;
}

void Job::abortAll(const std::string& reason) {
  for (WorkerHandle& w : workers_) {
    if (w.exited || !w.stub)
      continue;
    grpc::ClientContext ctx;
    ctx.set_deadline(after(1.0));
    rpc::AbortRequest req;
    req.set_reason(reason);
    rpc::AbortResponse resp;
    (void)w.stub->Abort(&ctx, req, &resp);
  }
}

void Job::stopWorkers() {
  for (WorkerHandle& w : workers_) {
    if (w.pid <= 0 || w.exited)
      continue;
    if (w.stub) {
      grpc::ClientContext ctx;
      ctx.set_deadline(after(1.0));
      rpc::ShutdownResponse resp;
      (void)w.stub->Shutdown(&ctx, rpc::ShutdownRequest(), &resp);
    }
  }
  auto deadline = SteadyClock::now() + std::chrono::seconds(5);
  for (WorkerHandle& w : workers_) {
    if (w.pid <= 0)
      continue;
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
    if (w.stdoutFd >= 0)
      ::close(w.stdoutFd);
    w.stdoutFd = -1;
  }
}

bool Job::writeOutputs() {
  if (opt_.outputDir.empty())
    return true;
  ::mkdir(opt_.outputDir.c_str(), 0755);
  for (const rpc::RunStepResponse& resp : lastResponses_)
    for (const rpc::Tensor& t : resp.outputs()) {
      NpyArray a;
      a.dtype = parseDType(t.dtype());
      a.shape.assign(t.shape().begin(), t.shape().end());
      a.data = t.data();
      Status st = writeNpy(opt_.outputDir + "/" + t.name() + ".npy", a);
      if (!st.isOk())
        return fail(st.message());
    }
  return true;
}

void Job::reportMetrics(double seconds, int64_t steps) {
  std::string json = "{\"steps\": " + std::to_string(steps) +
                     ", \"seconds\": " + std::to_string(seconds) +
                     ", \"tasks\": {";
  for (size_t i = 0; i < lastResponses_.size(); ++i) {
    const rpc::RunStepResponse& r = lastResponses_[i];
    const std::string& name = workers_[i].task->name();
    json += (i ? ", \"" : "\"") + name + "\": {\"last_step_seconds\": " +
            std::to_string(r.step_seconds()) + ", \"channels\": {";
    for (int j = 0; j < r.counters_size(); ++j) {
      const rpc::ChannelCounter& c = r.counters(j);
      json += (j ? ", \"" : "\"") + c.channel() +
              "\": {\"bytes\": " + std::to_string(c.bytes()) +
              ", \"messages\": " + std::to_string(c.messages()) + "}";
      if (!opt_.quiet)
        std::fprintf(stderr, "graph-run: task '%s' %s: %llu bytes in %llu "
                             "messages\n",
                     name.c_str(), c.channel().c_str(),
                     static_cast<unsigned long long>(c.bytes()),
                     static_cast<unsigned long long>(c.messages()));
    }
    json += "}}";
  }
  json += "}}\n";
  if (!opt_.quiet)
    std::fprintf(stderr, "graph-run: %lld steps in %.3f s (%.1f steps/s)\n",
                 static_cast<long long>(steps), seconds,
                 seconds > 0 ? steps / seconds : 0.0);
  if (!opt_.metricsFile.empty())
    std::ofstream(opt_.metricsFile) << json;
}

int Job::run() {
  Status st = readBundle(opt_.bundleDir, &bundle_);
  if (!st.isOk()) {
    std::fprintf(stderr, "graph-run: error: %s\n", st.message().c_str());
    return 1;
  }
  int tasks = bundle_.manifest.tasks_size();
  bool ok = true;
  if (opt_.clusterFile.empty() && opt_.local != 0 && opt_.local != tasks)
    ok = fail("--local " + std::to_string(opt_.local) + " but the job has " +
              std::to_string(tasks) +
              " tasks; graph-run starts one worker per task");
  for (const manifest::Task& t : bundle_.manifest.tasks()) {
    WorkerHandle w;
    w.task = &t;
    workers_.push_back(std::move(w));
  }
  ok = ok && readInputs();
  ok = ok && (opt_.clusterFile.empty() ? startLocalWorkers() : resolveCluster());
  ok = ok && connectAndLoad();
  auto start = SteadyClock::now();
  int64_t total = opt_.steps * opt_.repeat;
  for (int64_t s = 0; ok && s < total; ++s)
    ok = runOneStep(s, s == total - 1);
  double seconds =
      std::chrono::duration<double>(SteadyClock::now() - start).count();
  ok = ok && writeOutputs();
  if (ok)
    reportMetrics(seconds, total);
  stopWorkers();
  if (!ok) {
    std::fprintf(stderr,
                 "graph-run: error: %s\ngraph-run: the job was stopped; see "
                 "the worker log above for details\n",
                 error_.c_str());
    return 1;
  }
  return 0;
}

} // namespace

int runJob(const RunOptions& options) {
  // A worker that dies mid-send must not take graph-run down with SIGPIPE.
  ::signal(SIGPIPE, SIG_IGN);
  Job job(options);
  return job.run();
}

} // namespace graphrt
