// graph-run: launch a job bundle on local workers or a cluster and run it.
#include "Coordinator.h"
#include "Kubernetes.h"
#include "ProcessMemory.h"

#include <unistd.h>

#include <climits>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <initializer_list>
#include <string>

namespace {

void usage() {
  std::fprintf(
      stderr,
      "usage: graph-run [options] JOB.gjob\n"
      "  --local N            start N graph-worker processes on loopback (the\n"
      "                       default; N defaults to the job's task count)\n"
      "  --cluster FILE       use running workers from a TF_CONFIG-style JSON\n"
      "  --steps N            steps to run (default 1)\n"
      "  --repeat R           run the steps R times, variables carried over\n"
      "  --input NAME=FILE    feed input NAME from a .npy or an ONNX\n"
      "                       TensorProto .pb file (repeatable)\n"
      "  --data NAME=FILE     feed input NAME a new batch every step from a "
      ".npy\n"
      "                       or .csv file of examples (one per row; "
      "repeatable,\n"
      "                       every file the same number of examples)\n"
      "  --epochs E           with --data: run E passes over the examples\n"
      "                       (default: one, unless --steps is given)\n"
      "  --seed N             shuffle the examples of each epoch in an order\n"
      "                       that depends only on N and the epoch (default "
      "0)\n"
      "  --no-shuffle         feed the examples in file order\n"
      "  --partial-batch=drop|pad\n"
      "                       a last batch smaller than the batch size is\n"
      "                       dropped (the default) or padded with the "
      "epoch's\n"
      "                       first examples\n"
      "  --checkpoint-dir DIR write DIR/ckpt-STEP.safetensors (every task's\n"
      "                       variables, the step and the data position) at\n"
      "                       the end of the run, atomically\n"
      "  --checkpoint-every K also after every K steps\n"
      "  --restore            resume from the newest valid checkpoint in the\n"
      "                       --checkpoint-dir (--steps/--epochs count from "
      "0)\n"
      "  --save FILE          write the final weights to FILE (safetensors),\n"
      "                       under the model's names, without optimizer "
      "slots\n"
      "  --eval NAME=FILE     held-out examples for the forward-only job of\n"
      "                       a graphc --train bundle: each model input and\n"
      "                       the labels (repeatable); prints the accuracy\n"
      "                       (or the mse) and loss at the end of the run\n"
      "  --eval-every K       also after every K steps\n"
      "  --max-restarts R     when a worker dies or stalls, restart the job's\n"
      "                       local workers from the last checkpoint, up to R\n"
      "                       times (default 0)\n"
      "  --deterministic      fixed OpenMP schedule in the workers, and check\n"
      "                       that a restored checkpoint is in the workers "
      "bit\n"
      "                       for bit (reductions already run in a fixed "
      "order)\n"
      "  --per-step           one RPC per step and worker, --data batches "
      "sent\n"
      "                       from here (default: each worker runs the steps\n"
      "                       up to the next checkpoint on its own and reads\n"
      "                       its --data files itself)\n"
      "  --output-dir DIR     write DIR/<output name>.npy after the last step\n"
      "  --loss NAME          the scalar float output reported as the loss on\n"
      "                       the progress line and in --metrics (default:\n"
      "                       an output named loss, when there is one)\n"
      "  --metrics FILE       write per-step timings (and loss), totals and\n"
      "                       per-channel byte counters as JSON\n"
      "  --stats FILE         run one warm-up step first, then write the\n"
      "                       timed steps' median_ms, p90_ms and the workers'\n"
      "                       peak_bytes as JSON\n"
      "  --trace FILE         write a Chrome/Perfetto trace (JSON) of every\n"
      "                       task's compute, sends, receives, collectives\n"
      "  --progress / --no-progress\n"
      "                       force the live progress line on or off "
      "(default:\n"
      "                       on when stderr is a terminal)\n"
      "  --worker PATH        graph-worker binary (default: next to "
      "graph-run)\n"
      "  --stall-timeout SEC  a worker that answers no health check this "
      "long,\n"
      "                       or a job whose running tasks all wait in\n"
      "                       communication with no progress anywhere this\n"
      "                       long (a deadlock), is stalled (default 60); a\n"
      "                       task that computes is never stalled\n"
      "  --step-timeout SEC   fail any step longer than SEC (default 0: none)\n"
      "  --recv-timeout SEC   per-receive deadline in the workers (default "
      "30)\n"
      "  --start-timeout SEC  worker start and connect deadline (default 20)\n"
      "  --heartbeat-ms MS    health check period (default 200)\n"
      "  --data-plane MODE    how tensors move between workers: tcp (direct\n"
      "                       connections, TLS under --tls-*; the default) or\n"
      "                       grpc (Transport.Transfer chunk streams); the\n"
      "                       default comes from $GRAPHRT_DATA_PLANE if set\n"
      "  --shm-collectives on|off\n"
      "                       collectives among workers on one host go\n"
      "                       through a shared-memory segment (on, the\n"
      "                       default) or over the data plane (off); the\n"
      "                       default comes from $GRAPHRT_SHM_COLLECTIVES\n"
      "  --chunk-bytes N      chunk size of the grpc data plane (default 1 "
      "MiB)\n"
      "  --quiet              print only errors\n"
      "  --emit-k8s DIR       write DIR/job.json (an Indexed Job, one pod per\n"
      "                       task) and DIR/service.json (a headless Service)\n"
      "                       that run this job on Kubernetes, the other run\n"
      "                       flags passed on; runs nothing\n"
      "  --image IMAGE        container image for --emit-k8s (default\n"
      "                       graphc/graph-run:latest)\n"
      "  --bundle-pvc NAME    PersistentVolumeClaim holding the bundle, "
      "mounted\n"
      "                       at /bundle (default <job>-bundle)\n"
      "  --output-pvc NAME    PersistentVolumeClaim mounted at /outputs, "
      "where\n"
      "                       the outputs go (--output-dir /outputs/<job> "
      "unless\n"
      "                       given; default <job>-outputs)\n"
      "  --tls-cert PEM --tls-key PEM --tls-ca PEM\n"
      "                       mutual TLS on every channel (passed on to local\n"
      "                       workers; cluster workers need the same flags)\n"
      "  --token-file FILE    the job token (default: $GRAPHRT_JOB_TOKEN; a\n"
      "                       fresh random one for --local)\n"
      "exit codes: 0 ok, 1 the job failed or its bundle or inputs are\n"
      "invalid, 2 usage, 4 workers could not start or be reached,\n"
      "5 --emit-k8s failed\n");
}

// The first of `names` set in the environment ("" if none); its name in *which.
std::string firstEnv(std::initializer_list<const char *> names,
                     std::string *which = nullptr) {
  for (const char *n : names) {
    if (const char *v = std::getenv(n)) {
      if (which) {
        *which = n;
      }
      return v;
    }
  }
  return "";
}

// Under mpirun (Open MPI, MPICH/PMI, PMIx), srun or a Kubernetes Indexed Job,
// each rank takes its task from the environment. Returns false on a
// malformed environment.
bool rankFromEnvironment(graphrt::RunOptions *opt) {
  std::string rankVar, sizeVar;
  std::string rank =
      firstEnv({"GRAPHRT_RANK", "OMPI_COMM_WORLD_RANK", "PMIX_RANK", "PMI_RANK",
                "SLURM_PROCID", "JOB_COMPLETION_INDEX"},
               &rankVar);
  if (rank.empty()) {
    return true;
  }
  std::string size = firstEnv({"GRAPHRT_WORLD_SIZE", "OMPI_COMM_WORLD_SIZE",
                               "PMI_SIZE", "SLURM_NTASKS"},
                              &sizeVar);
  char *end = nullptr;
  long r = std::strtol(rank.c_str(), &end, 10);
  if (*end || r < 0) {
    std::fprintf(stderr, "graph-run: error: %s='%s' is not a rank\n",
                 rankVar.c_str(), rank.c_str());
    return false;
  }
  long n = std::strtol(size.c_str(), &end, 10);
  if (size.empty() || *end || n < 1) {
    std::fprintf(stderr,
                 "graph-run: error: %s gives the rank but the world size is "
                 "unknown; set GRAPHRT_WORLD_SIZE (or OMPI_COMM_WORLD_SIZE, "
                 "PMI_SIZE, SLURM_NTASKS)\n",
                 rankVar.c_str());
    return false;
  }
  opt->rank = static_cast<int>(r);
  opt->worldSize = static_cast<int>(n);
  opt->coordinator = firstEnv({"GRAPHRT_COORDINATOR"});
  std::string addr = firstEnv({"MASTER_ADDR"}),
              port = firstEnv({"MASTER_PORT"});
  if (opt->coordinator.empty() && !addr.empty()) {
    opt->coordinator = addr + ":" + (port.empty() ? "29400" : port);
  }
  std::string listen = firstEnv({"GRAPHRT_LISTEN"});
  if (!listen.empty()) {
    opt->listen = listen;
  }
  opt->advertiseHost = firstEnv({"GRAPHRT_ADVERTISE_HOST"});
  if (opt->advertiseHost.empty()) {
    char host[256] = {};
    ::gethostname(host, sizeof host - 1);
    opt->advertiseHost = host;
    std::string sub = firstEnv({"GRAPHRT_SUBDOMAIN"});
    if (!sub.empty()) {
      opt->advertiseHost += "." + sub; // a pod behind a headless Service
    }
  }
  return true;
}

bool parseNumber(const std::string &flag, const std::string &v, double *out) {
  char *end = nullptr;
  *out = std::strtod(v.c_str(), &end);
  if (v.empty() || *end != '\0' || *out < 0) {
    std::fprintf(
        stderr,
        "graph-run: error: %s expects a non-negative number, got '%s'\n",
        flag.c_str(), v.c_str());
    return false;
  }
  return true;
}

/// --eval NAME=FILE: its value from `next`, each NAME once. False (after
/// the message) on a mistake.
bool parseEvalFile(const std::function<bool(std::string *)> &next,
                   graphrt::RunOptions *opt) {
  std::string v;
  if (!next(&v)) {
    return false;
  }
  size_t eq = v.find('=');
  if (eq == std::string::npos || eq == 0 || eq + 1 == v.size()) {
    std::fprintf(stderr,
                 "graph-run: error: --eval expects NAME=FILE (an input of "
                 "the model or its labels), got '%s'\n",
                 v.c_str());
    return false;
  }
  std::string name = v.substr(0, eq);
  if (opt->evalFiles.count(name)) {
    std::fprintf(stderr,
                 "graph-run: error: --eval %s is given twice ('%s' and '%s'); "
                 "keep one\n",
                 name.c_str(), opt->evalFiles[name].c_str(),
                 v.substr(eq + 1).c_str());
    return false;
  }
  opt->evalFiles[name] = v.substr(eq + 1);
  return true;
}

} // namespace

int main(int argc, char **argv) {
  // Task steps malloc and free the same buffers every step.
  graphrt::keepFreedMemory();
  graphrt::RunOptions opt;
  graphrt::K8sOptions k8s;
  k8s.image = graphrt::kK8sDefaultImage;
  char self[PATH_MAX];
  ssize_t n = ::readlink("/proc/self/exe", self, sizeof self - 1);
  if (n > 0) {
    std::string exe(self, static_cast<size_t>(n));
    opt.workerBinary = exe.substr(0, exe.rfind('/') + 1) + "graph-worker";
  }
  // The default data plane may come from the environment (the test suite
  // runs under both); the flag wins.
  if (const char *dp = std::getenv("GRAPHRT_DATA_PLANE")) {
    if (std::string(dp) != "tcp" && std::string(dp) != "grpc") {
      std::fprintf(stderr,
                   "graph-run: error: $GRAPHRT_DATA_PLANE must be tcp or "
                   "grpc, not '%s'\n",
                   dp);
      return 2;
    }
    opt.dataPlane = dp;
  }
  if (const char *shm = std::getenv("GRAPHRT_SHM_COLLECTIVES")) {
    if (std::string(shm) != "on" && std::string(shm) != "off") {
      std::fprintf(stderr,
                   "graph-run: error: $GRAPHRT_SHM_COLLECTIVES must be on or "
                   "off, not '%s'\n",
                   shm);
      return 2;
    }
    opt.shmCollectives = std::string(shm) == "on";
  }
  for (int i = 1; i < argc; ++i) {
    const int first = i;
    std::string a = argv[i], value;
    bool hasValue = false;
    if (a.rfind("--", 0) == 0 && a.find('=') != std::string::npos) {
      value = a.substr(a.find('=') + 1);
      a = a.substr(0, a.find('='));
      hasValue = true;
    }
    auto next = [&](std::string *out) {
      if (hasValue) {
        *out = value;
        return true;
      }
      if (i + 1 >= argc) {
        std::fprintf(stderr, "graph-run: error: %s needs a value\n", a.c_str());
        return false;
      }
      *out = argv[++i];
      return true;
    };
    std::string v;
    double d;
    if (a == "--help" || a == "-h") {
      usage();
      return 0;
    } else if (a == "--quiet") {
      opt.quiet = true;
    } else if (a == "--progress" || a == "--no-progress") {
      opt.progress = a == "--progress" ? 1 : 0;
    } else if (a == "--no-shuffle") {
      opt.shuffle = false;
    } else if (a == "--per-step") {
      opt.perStep = true;
    } else if (a == "--restore") {
      opt.restore = true;
    } else if (a == "--deterministic") {
      opt.deterministic = true;
    } else if (a == "--checkpoint-dir") {
      if (!next(&opt.checkpointDir)) {
        return 2;
      }
    } else if (a == "--save") {
      if (!next(&opt.saveFile)) {
        return 2;
      }
    } else if (a == "--loss") {
      if (!next(&opt.lossOutput) || opt.lossOutput.empty()) {
        if (opt.lossOutput.empty()) {
          std::fprintf(stderr,
                       "graph-run: error: --loss needs an output name\n");
        }
        return 2;
      }
    } else if (a == "--local" || a == "--steps" || a == "--repeat" ||
               a == "--heartbeat-ms" || a == "--chunk-bytes" ||
               a == "--epochs" || a == "--seed" || a == "--checkpoint-every" ||
               a == "--max-restarts" || a == "--eval-every") {
      if (!next(&v) || !parseNumber(a, v, &d)) {
        return 2;
      }
      if (d != static_cast<double>(static_cast<int64_t>(d))) {
        std::fprintf(stderr,
                     "graph-run: error: %s expects a whole number, got '%s'\n",
                     a.c_str(), v.c_str());
        return 2;
      }
      if (a == "--local") {
        opt.local = static_cast<int>(d);
      } else if (a == "--epochs" && d < 1) {
        std::fprintf(stderr, "graph-run: error: --epochs must be at least 1\n");
        return 2;
      } else if (a == "--epochs") {
        opt.epochs = static_cast<int64_t>(d);
      } else if (a == "--seed") {
        opt.seed = static_cast<uint64_t>(d);
      } else if (a == "--checkpoint-every") {
        opt.checkpointEvery = static_cast<int64_t>(d);
      } else if (a == "--max-restarts") {
        opt.maxRestarts = static_cast<int>(d);
      } else if (a == "--eval-every" && d < 1) {
        std::fprintf(stderr,
                     "graph-run: error: --eval-every must be at least 1\n");
        return 2;
      } else if (a == "--eval-every") {
        opt.evalEvery = static_cast<int64_t>(d);
      } else if (a == "--steps") {
        opt.steps = static_cast<int64_t>(d);
        opt.stepsGiven = true;
      } else if (a == "--repeat") {
        opt.repeat = static_cast<int64_t>(d);
      } else if (a == "--heartbeat-ms") {
        opt.heartbeatMs = static_cast<int>(d);
      } else {
        opt.chunkBytes = static_cast<int64_t>(d);
      }
    } else if (a == "--step-timeout" || a == "--recv-timeout" ||
               a == "--start-timeout" || a == "--stall-timeout") {
      if (!next(&v) || !parseNumber(a, v, &d)) {
        return 2;
      }
      (a == "--step-timeout"    ? opt.stepTimeoutSec
       : a == "--recv-timeout"  ? opt.recvTimeoutSec
       : a == "--stall-timeout" ? opt.stallTimeoutSec
                                : opt.startTimeoutSec) = d;
    } else if (a == "--data-plane") {
      if (!next(&v)) {
        return 2;
      }
      if (v != "tcp" && v != "grpc") {
        std::fprintf(stderr,
                     "graph-run: error: --data-plane must be tcp or grpc, not "
                     "'%s'\n",
                     v.c_str());
        return 2;
      }
      opt.dataPlane = v;
    } else if (a == "--shm-collectives") {
      if (!next(&v)) {
        return 2;
      }
      if (v != "on" && v != "off") {
        std::fprintf(stderr,
                     "graph-run: error: --shm-collectives must be on or off, "
                     "not '%s'\n",
                     v.c_str());
        return 2;
      }
      opt.shmCollectives = v == "on";
    } else if (a == "--trace" || a == "--tls-cert" || a == "--tls-key" ||
               a == "--tls-ca" || a == "--token-file") {
      if (!next(&v)) {
        return 2;
      }
      (a == "--trace"      ? opt.traceFile
       : a == "--tls-cert" ? opt.tlsCert
       : a == "--tls-key"  ? opt.tlsKey
       : a == "--tls-ca"   ? opt.tlsCa
                           : opt.tokenFile) = v;
    } else if (a == "--emit-k8s" || a == "--image" || a == "--bundle-pvc" ||
               a == "--output-pvc") {
      if (!next(a == "--emit-k8s"     ? &k8s.outDir
                : a == "--image"      ? &k8s.image
                : a == "--bundle-pvc" ? &k8s.bundlePvc
                                      : &k8s.outputPvc)) {
        return 2;
      }
      continue;
    } else if (a == "--cluster") {
      if (!next(&opt.clusterFile)) {
        return 2;
      }
    } else if (a == "--output-dir") {
      if (!next(&opt.outputDir)) {
        return 2;
      }
    } else if (a == "--metrics") {
      if (!next(&opt.metricsFile)) {
        return 2;
      }
    } else if (a == "--stats") {
      if (!next(&opt.statsFile)) {
        return 2;
      }
    } else if (a == "--worker") {
      if (!next(&opt.workerBinary)) {
        return 2;
      }
    } else if (a == "--partial-batch") {
      if (!next(&v)) {
        return 2;
      }
      if (v != "drop" && v != "pad") {
        std::fprintf(stderr,
                     "graph-run: error: --partial-batch must be drop or pad, "
                     "not '%s'\n",
                     v.c_str());
        return 2;
      }
      opt.padPartialBatch = v == "pad";
    } else if (a == "--input" || a == "--data") {
      if (!next(&v)) {
        return 2;
      }
      size_t eq = v.find('=');
      if (eq == std::string::npos || eq == 0 || eq + 1 == v.size()) {
        std::fprintf(stderr,
                     "graph-run: error: %s expects NAME=FILE, got '%s'\n",
                     a.c_str(), v.c_str());
        return 2;
      }
      std::string name = v.substr(0, eq);
      if ((a == "--input" ? opt.data : opt.inputs).count(name)) {
        std::fprintf(stderr,
                     "graph-run: error: input '%s' is given by both --input "
                     "and --data; keep one\n",
                     name.c_str());
        return 2;
      }
      auto &given = a == "--input" ? opt.inputs : opt.data;
      if (given.count(name)) {
        std::fprintf(stderr,
                     "graph-run: error: %s %s is given twice ('%s' and "
                     "'%s'); keep one\n",
                     a.c_str(), name.c_str(), given[name].c_str(),
                     v.substr(eq + 1).c_str());
        return 2;
      }
      given[name] = v.substr(eq + 1);
    } else if (a == "--eval") {
      if (!parseEvalFile(next, &opt)) {
        return 2;
      }
    } else if (a.rfind("-", 0) == 0) {
      std::fprintf(stderr, "graph-run: error: unknown option '%s'\n",
                   a.c_str());
      usage();
      return 2;
    } else if (opt.bundleDir.empty()) {
      opt.bundleDir = a;
      continue;
    } else {
      std::fprintf(stderr, "graph-run: error: more than one job given ('%s')\n",
                   a.c_str());
      return 2;
    }
    // Run flags travel into the pods of --emit-k8s; where to find workers
    // and local TLS files do not.
    if (a != "--local" && a != "--cluster" && a != "--worker" &&
        a.rfind("--tls-", 0) != 0 && a != "--token-file") {
      for (int j = first; j <= i; ++j) {
        k8s.runArgs.push_back(argv[j]);
      }
    }
  }
  if (opt.bundleDir.empty()) {
    usage();
    return 2;
  }
  if (opt.steps < 1 || opt.repeat < 1 || opt.heartbeatMs < 1) {
    std::fprintf(stderr, "graph-run: error: --steps, --repeat and "
                         "--heartbeat-ms must be at least 1\n");
    return 2;
  }
  if (opt.epochs > 0 && opt.stepsGiven) {
    std::fprintf(stderr, "graph-run: error: give --epochs or --steps, not "
                         "both\n");
    return 2;
  }
  if ((opt.checkpointEvery > 0 || opt.restore) && opt.checkpointDir.empty()) {
    std::fprintf(stderr, "graph-run: error: %s needs --checkpoint-dir DIR\n",
                 opt.restore ? "--restore" : "--checkpoint-every");
    return 2;
  }
  if (opt.evalEvery > 0 && opt.evalFiles.empty()) {
    std::fprintf(stderr, "graph-run: error: --eval-every scores the --eval "
                         "files; give --eval NAME=FILE\n");
    return 2;
  }
  if (opt.epochs > 0 && opt.data.empty()) {
    std::fprintf(stderr, "graph-run: error: --epochs counts passes over the "
                         "--data files; give --data NAME=FILE\n");
    return 2;
  }
  if (!k8s.outDir.empty()) {
    k8s.bundleDir = opt.bundleDir;
    std::string name;
    graphrt::Status st = graphrt::emitKubernetes(k8s, &name);
    if (!st.isOk()) {
      std::fprintf(stderr, "graph-run: error: %s\n", st.message().c_str());
      return st.code() == GRAPHRT_STATUS_UNAVAILABLE ? graphrt::kExitEmitFailed
                                                     : graphrt::kExitBundle;
    }
    std::printf("graph-run: wrote %s/job.json and %s/service.json (job '%s')\n"
                "  kubectl create secret generic %s-token "
                "--from-literal=token=$(openssl rand -hex 32)\n"
                "  kubectl apply -f %s/service.json -f %s/job.json\n",
                k8s.outDir.c_str(), k8s.outDir.c_str(), name.c_str(),
                name.c_str(), k8s.outDir.c_str(), k8s.outDir.c_str());
    return graphrt::kExitOk;
  }
  if (opt.clusterFile.empty() && opt.local == 0 && !rankFromEnvironment(&opt)) {
    return 2;
  }
  if (opt.maxRestarts > 0 && (!opt.clusterFile.empty() || opt.rank >= 0)) {
    std::fprintf(stderr,
                 "graph-run: error: --max-restarts restarts the workers "
                 "graph-run started itself; with --cluster or under a "
                 "launcher, let the scheduler restart the job with "
                 "--restore\n");
    return 2;
  }
  if (!opt.clusterFile.empty() && opt.local != 0) {
    std::fprintf(
        stderr, "graph-run: error: --local and --cluster exclude each other\n");
    return 2;
  }
  return graphrt::runJob(opt);
}
