//===- fuzz_worker_rpc.cpp - libFuzzer target for graph-worker's RPCs ----===//
//
// A structured fuzzer: the input is a WorkerSession (worker_fuzz.proto), a
// sequence of request messages that a fresh WorkerService handles in order,
// exactly as gRPC would hand them over (same handlers, a server context
// without a token: the auth check is tested elsewhere). Inputs that do not
// parse as a session are skipped, so libFuzzer's byte mutations work on the
// protobuf encoding; the seeds (scripts/fuzz-seeds.py) are valid sessions.
//
// LoadTask's bundle_dir is replaced by GRAPHRT_FUZZ_BUNDLE (a real bundle of
// the runtime's test tasks that fuzz.sh writes) when that is set, so the
// later calls reach a loaded task; timeouts are clamped so that no input
// waits long. Transfer streams go through receiveChunks, the function the
// Transfer handler runs on the call's chunks, into a fresh rendezvous:
// grpc::ServerReader cannot be built outside a call.

#include "RuntimeFuzz.h"

#include "Transfer.h"
#include "Worker.h"
#include "worker_fuzz.pb.h"

#include <google/protobuf/stubs/logging.h>
#include <grpcpp/server_context.h>

#include <algorithm>
#include <cstdlib>

using namespace graphrt;

static const int64_t kMaxTimeoutMs = 50;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  // Mutated strings are often not UTF-8; protobuf logs each refusal.
  static bool quiet = (google::protobuf::SetLogHandler(nullptr), true);
  (void)quiet;
  fuzz::WorkerSession session;
  if (!session.ParseFromArray(data, static_cast<int>(size))) {
    return 0;
  }
  static const char *bundle = std::getenv("GRAPHRT_FUZZ_BUNDLE");
  WorkerService worker;
  // One handler call with a fresh server context, as gRPC makes per call.
  auto handle = [&](auto method, const auto &req, auto resp) {
    grpc::ServerContext ctx;
    (void)(worker.*method)(&ctx, &req, &resp);
  };
  for (fuzz::WorkerCall &call : *session.mutable_calls()) {
    switch (call.call_case()) {
    case fuzz::WorkerCall::kLoadTask: {
      rpc::LoadTaskRequest &req = *call.mutable_load_task();
      if (bundle && !req.bundle_dir().empty()) {
        req.set_bundle_dir(bundle);
      }
      // Peers are other hosts: never reach out from a fuzzer.
      req.clear_peers();
      req.set_recv_timeout_ms(
          std::clamp<int64_t>(req.recv_timeout_ms(), 1, kMaxTimeoutMs));
      handle(&WorkerService::LoadTask, req, rpc::LoadTaskResponse());
      break;
    }
    case fuzz::WorkerCall::kRunStep:
      handle(&WorkerService::RunStep, call.run_step(), rpc::RunStepResponse());
      break;
    case fuzz::WorkerCall::kHealth:
      handle(&WorkerService::Health, call.health(), rpc::HealthResponse());
      break;
    case fuzz::WorkerCall::kAbort:
      handle(&WorkerService::Abort, call.abort(), rpc::AbortResponse());
      break;
    case fuzz::WorkerCall::kReadVariables:
      handle(&WorkerService::ReadVariables, call.read_variables(),
             rpc::ReadVariablesResponse());
      break;
    case fuzz::WorkerCall::kWriteVariables:
      handle(&WorkerService::WriteVariables, call.write_variables(),
             rpc::WriteVariablesResponse());
      break;
    case fuzz::WorkerCall::kShutdown:
      handle(&WorkerService::Shutdown, call.shutdown(),
             rpc::ShutdownResponse());
      break;
    case fuzz::WorkerCall::kOpenData:
      handle(&WorkerService::OpenData, call.open_data(),
             rpc::OpenDataResponse());
      break;
    case fuzz::WorkerCall::kTransfer: {
      Rendezvous rdv;
      int next = 0;
      const auto &chunks = call.transfer().chunks();
      uint64_t received = 0;
      (void)receiveChunks(
          rdv,
          [&](rpc::TensorChunk *chunk) {
            if (next == chunks.size()) {
              return false;
            }
            *chunk = chunks[next++];
            return true;
          },
          &received);
      break;
    }
    case fuzz::WorkerCall::CALL_NOT_SET:
      break;
    }
  }
  return 0;
}
