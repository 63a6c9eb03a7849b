// Coordinator.h: graph-run's launcher and coordinator.
#ifndef GRAPHRT_LIB_COORDINATOR_H
#define GRAPHRT_LIB_COORDINATOR_H

#include <map>
#include <string>

namespace graphrt {

struct RunOptions {
  std::string bundleDir;
  /// --local N: number of workers to start (0: one per task of the job).
  int local = 0;
  /// --cluster FILE: TF_CONFIG-style JSON of running workers.
  std::string clusterFile;
  /// The graph-worker binary for --local.
  std::string workerBinary;
  int64_t steps = 1;
  int64_t repeat = 1;
  std::map<std::string, std::string> inputs; // name -> .npy path
  std::string outputDir;
  std::string metricsFile;
  double stepTimeoutSec = 60;
  double recvTimeoutSec = 30;
  double startTimeoutSec = 20;
  int heartbeatMs = 200;
  int64_t chunkBytes = 0;
  bool quiet = false;
};

/// Runs the job; returns the process exit code (0 on success). Errors are
/// printed to stderr naming the task, the step and the cause.
int runJob(const RunOptions& options);

} // namespace graphrt

#endif // GRAPHRT_LIB_COORDINATOR_H
