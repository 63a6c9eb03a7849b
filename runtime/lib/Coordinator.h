// Coordinator.h: graph-run's launcher and coordinator.
#ifndef GRAPHRT_LIB_COORDINATOR_H
#define GRAPHRT_LIB_COORDINATOR_H

#include <map>
#include <string>

namespace graphrt {

/// graph-run's exit codes (docs/user/graph-run.md lists them).
enum ExitCode {
  kExitOk = 0,
  /// The job failed: a task returned an error, a worker died or stalled, or
  /// a step exceeded --step-timeout.
  kExitJobFailed = 1,
  /// Bad command line (unknown flag, bad value, TLS files unreadable).
  kExitUsage = 2,
  /// The job could not run as given: the bundle or the inputs are invalid
  /// (manifest, files, --input names, shapes and dtypes), or a worker refused
  /// to load a task of it (a file whose size or sha256 does not match the
  /// manifest, a task binary that disagrees with it). Exit 1, as a job that
  /// failed: the message says which (issue 4 asks for 1 here).
  kExitBundle = 1,
  /// The workers could not be started or reached (the cluster file is
  /// wrong, a worker is down, credentials are refused).
  kExitStartFailed = 4,
  /// --emit-k8s could not write the manifests.
  kExitEmitFailed = 5,
};

struct RunOptions {
  std::string bundleDir;
  /// --local N: number of workers to start (0: one per task of the job).
  int local = 0;
  /// --cluster FILE: TF_CONFIG-style JSON of running workers.
  std::string clusterFile;
  /// The graph-worker binary for --local.
  std::string workerBinary;
  /// --steps S: the run's last step is S-1 (a restored run counts the
  /// checkpoint's steps as done).
  int64_t steps = 1;
  bool stepsGiven = false;
  int64_t repeat = 1;
  std::map<std::string, std::string> inputs; // name -> .npy path
  /// --data NAME=FILE: input NAME gets the next batch of FILE every step.
  std::map<std::string, std::string> data;
  /// --epochs E (0: not given): run E passes over the --data examples.
  int64_t epochs = 0;
  /// --seed N and --no-shuffle: the order of the examples in each epoch.
  uint64_t seed = 0;
  bool shuffle = true;
  /// --partial-batch=drop|pad.
  bool padPartialBatch = false;
  /// --checkpoint-dir DIR --checkpoint-every K: write DIR/ckpt-STEP.
  /// safetensors every K steps (0: only at the end).
  std::string checkpointDir;
  int64_t checkpointEvery = 0;
  /// --restore: resume from the newest valid checkpoint of checkpointDir.
  bool restore = false;
  /// --save FILE: the final weights under the model's names.
  std::string saveFile;
  /// --eval NAME=FILE: held-out examples for the forward-only job graphc
  /// --train writes to JOB/eval/ (its inputs and the labels), scored at the
  /// end of the run and, with --eval-every K (0: only at the end), after
  /// every K steps.
  std::map<std::string, std::string> evalFiles;
  int64_t evalEvery = 0;
  /// --max-restarts R: a worker that dies or stalls mid-run restarts the
  /// job's (local) workers from the last checkpoint, up to R times.
  int maxRestarts = 0;
  /// --deterministic: workers get a fixed OpenMP schedule, and a restored
  /// checkpoint is checked to be in the workers bit for bit.
  bool deterministic = false;
  /// --per-step: one RunStep RPC per step and worker, the --data batches
  /// sent from graph-run (else each worker runs the steps up to the next
  /// checkpoint with one RunSteps call and reads its --data files itself).
  bool perStep = false;
  std::string outputDir;
  std::string metricsFile;
  /// --stats FILE: after one warm-up step, the timed steps' median and p90
  /// and the workers' peak memory as JSON (RunStats.h).
  std::string statsFile;
  /// --trace FILE: Chrome/Perfetto trace JSON of every task's steps.
  std::string traceFile;
  /// A task whose progress counter stays frozen (or whose worker answers no
  /// health check) this long inside a step is stalled.
  double stallTimeoutSec = 60;
  /// A hard bound on one step (0: none).
  double stepTimeoutSec = 0;
  double recvTimeoutSec = 30;
  double startTimeoutSec = 20;
  int heartbeatMs = 200;
  int64_t chunkBytes = 0;
  /// "tcp" (direct worker-to-worker connections) or "grpc" (chunk streams).
  std::string dataPlane = "tcp";
  /// Collectives among workers on one host through shared memory
  /// (--shm-collectives on|off).
  bool shmCollectives = true;
  bool quiet = false;
  /// --loss NAME: the scalar float output reported as the loss; empty: an
  /// output named "loss" when the job has one.
  std::string lossOutput;
  /// Live progress line: 1 on, 0 off, -1 when stderr is a terminal.
  int progress = -1;
  /// Launched by mpirun, srun or a Kubernetes Indexed Job: this process is
  /// rank `rank` (>= 0) of `worldSize` and hosts the task of that index in
  /// manifest order; rank 0 also coordinates, serving registrations at
  /// `coordinator` (host:port); the others register their worker there.
  int rank = -1;
  int worldSize = 0;
  std::string coordinator;
  /// Where this rank's worker listens, and the host it advertises.
  std::string listen = "0.0.0.0:0";
  std::string advertiseHost;
  /// Mutual TLS (all three or none) and the job token file.
  std::string tlsCert, tlsKey, tlsCa, tokenFile;
};

/// Runs the job; returns the process exit code (0 on success). Errors are
/// printed to stderr naming the task, the step and the cause.
int runJob(const RunOptions &options);

} // namespace graphrt

#endif // GRAPHRT_LIB_COORDINATOR_H
