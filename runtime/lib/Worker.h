// Worker.h: graph-worker's gRPC services (control plane and tensor transport).
#ifndef GRAPHRT_LIB_WORKER_H
#define GRAPHRT_LIB_WORKER_H

#include "Security.h"
#include "worker.grpc.pb.h"

#include <atomic>
#include <condition_variable>
#include <memory>
#include <mutex>

namespace graphrt {

class LoadedTask;
class DataServer;
class DataTls;
class StepThread;

/// One worker process hosts one task at a time. Control RPCs come from
/// graph-run; Transfer streams come from peer workers and land in the loaded
/// task's rendezvous. Thread-safe: gRPC calls these from its thread pool.
class WorkerService final : public rpc::Worker::Service,
                            public rpc::Transport::Service {
public:
  /// `dataHost` is where the TCP data plane listens (the host of the gRPC
  /// address; empty: every interface).
  explicit WorkerService(SecurityConfig security = {},
                         std::string dataHost = "127.0.0.1");
  ~WorkerService() override;

  grpc::Status LoadTask(grpc::ServerContext *ctx,
                        const rpc::LoadTaskRequest *req,
                        rpc::LoadTaskResponse *resp) override;
  grpc::Status RunStep(grpc::ServerContext *ctx, const rpc::RunStepRequest *req,
                       rpc::RunStepResponse *resp) override;
  grpc::Status
  RunSteps(grpc::ServerContext *ctx, const rpc::RunStepsRequest *req,
           grpc::ServerWriter<rpc::RunStepResponse> *writer) override;
  grpc::Status Health(grpc::ServerContext *ctx, const rpc::HealthRequest *req,
                      rpc::HealthResponse *resp) override;
  grpc::Status Abort(grpc::ServerContext *ctx, const rpc::AbortRequest *req,
                     rpc::AbortResponse *resp) override;
  grpc::Status ReadVariables(grpc::ServerContext *ctx,
                             const rpc::ReadVariablesRequest *req,
                             rpc::ReadVariablesResponse *resp) override;
  grpc::Status WriteVariables(grpc::ServerContext *ctx,
                              const rpc::WriteVariablesRequest *req,
                              rpc::WriteVariablesResponse *resp) override;
  grpc::Status Shutdown(grpc::ServerContext *ctx,
                        const rpc::ShutdownRequest *req,
                        rpc::ShutdownResponse *resp) override;
  grpc::Status Transfer(grpc::ServerContext *ctx,
                        grpc::ServerReader<rpc::TensorChunk> *reader,
                        rpc::TransferAck *resp) override;
  grpc::Status OpenData(grpc::ServerContext *ctx,
                        const rpc::OpenDataRequest *req,
                        rpc::OpenDataResponse *resp) override;

  /// Blocks until a Shutdown RPC arrives.
  void waitForShutdown();

private:
  std::shared_ptr<LoadedTask> task();
  /// For calls that run between steps on the loaded task: checks the
  /// caller, takes the step lock (`busy` is the error while a step holds it)
  /// and the task.
  grpc::Status between(grpc::ServerContext *ctx, const char *busy,
                       std::unique_lock<std::mutex> *stepLock,
                       std::shared_ptr<LoadedTask> *t);

  const SecurityConfig security_;
  const std::string dataHost_;
  std::shared_ptr<DataTls> dataTls_;
  Status dataTlsStatus_;
  std::mutex dataMu_;
  std::unique_ptr<DataServer> dataServer_; // started by the first OpenData

  std::mutex mu_;
  std::shared_ptr<LoadedTask> task_;
  std::mutex stepMu_; // steps run one at a time
  /// Where the task's code runs (its init, its prepare after a variable
  /// write, and every step): one long-lived
  /// thread, so the OpenMP runtime keeps one team of threads for the whole
  /// job (docs/design/runtime.md, "One step thread").
  std::unique_ptr<StepThread> stepThread_;
  bool shutdown_ = false;
  std::condition_variable shutdownCv_;
};

} // namespace graphrt

#endif // GRAPHRT_LIB_WORKER_H
