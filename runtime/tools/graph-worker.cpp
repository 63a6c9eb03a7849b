// graph-worker: the gRPC worker daemon that hosts one task of a job bundle.
#include "ProcessMemory.h"
#include "Worker.h"

#include <grpcpp/grpcpp.h>

#include <condition_variable>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <mutex>
#include <string>
#include <thread>

namespace {
void usage() {
  std::fprintf(
      stderr,
      "usage: graph-worker [--listen HOST:PORT] [--tls-cert PEM "
      "--tls-key PEM --tls-ca PEM]\n"
      "                    [--token-file FILE]\n"
      "  Serves the graphrt Worker and Transport gRPC services, and the\n"
      "  direct TCP data plane on the same host (a free port).\n"
      "  --listen      address to bind (default 127.0.0.1:0, a free "
      "port);\n"
      "                the bound address is printed on stdout\n"
      "  --tls-cert/--tls-key/--tls-ca\n"
      "                mutual TLS on every channel: this worker's "
      "certificate\n"
      "                and key, and the CA that signs every peer's\n"
      "  --token-file  the job token (default: $GRAPHRT_JOB_TOKEN); "
      "every call\n"
      "                must carry it. Without TLS a token is required.\n");
}
} // namespace

int main(int argc, char **argv) {
  // Task steps malloc and free the same buffers every step.
  graphrt::keepFreedMemory();
  std::string listen = "127.0.0.1:0";
  std::map<std::string, std::string> flags;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    std::string name = a.substr(0, a.find('='));
    if (name == "--listen" || name == "--tls-cert" || name == "--tls-key" ||
        name == "--tls-ca" || name == "--token-file") {
      if (name != a) {
        flags[name] = a.substr(name.size() + 1);
      } else if (i + 1 < argc) {
        flags[name] = argv[++i];
      } else {
        std::fprintf(stderr, "graph-worker: error: %s needs a value\n",
                     a.c_str());
        return 2;
      }
    } else if (a == "--help" || a == "-h") {
      usage();
      return 0;
    } else {
      std::fprintf(stderr, "graph-worker: error: unknown argument '%s'\n",
                   a.c_str());
      usage();
      return 2;
    }
  }
  if (flags.count("--listen")) {
    listen = flags["--listen"];
  }
  size_t colon = listen.rfind(':');
  if (colon == std::string::npos) {
    std::fprintf(stderr,
                 "graph-worker: error: --listen '%s' is not HOST:PORT\n",
                 listen.c_str());
    return 2;
  }
  graphrt::SecurityConfig security;
  graphrt::Status st = graphrt::loadSecurity(
      flags["--tls-cert"], flags["--tls-key"], flags["--tls-ca"],
      flags["--token-file"], &security);
  if (!st.isOk()) {
    std::fprintf(stderr, "graph-worker: error: %s\n", st.message().c_str());
    return 2;
  }
  if (!security.authenticates()) {
    std::fprintf(stderr,
                 "graph-worker: error: refusing to serve unauthenticated "
                 "calls: give --tls-cert/--tls-key/--tls-ca or a job token "
                 "(--token-file or $%s)\n",
                 graphrt::kTokenEnv);
    return 2;
  }
  // A peer that dies mid-write must fail the write, not kill this process.
  std::signal(SIGPIPE, SIG_IGN);
  graphrt::WorkerService service(security, listen.substr(0, colon));
  grpc::ServerBuilder builder;
  int port = 0;
  builder.AddListeningPort(listen, graphrt::serverCredentials(security), &port);
  builder.SetMaxReceiveMessageSize(-1);
  builder.SetMaxSendMessageSize(-1);
  builder.RegisterService(
      static_cast<graphrt::rpc::Worker::Service *>(&service));
  builder.RegisterService(
      static_cast<graphrt::rpc::Transport::Service *>(&service));
  std::unique_ptr<grpc::Server> server = builder.BuildAndStart();
  if (!server || port == 0) {
    std::fprintf(stderr, "graph-worker: error: cannot listen on '%s'\n",
                 listen.c_str());
    return 1;
  }
  std::printf("graph-worker: listening on %s:%d\n",
              listen.substr(0, colon).c_str(), port);
  std::fflush(stdout);
  service.waitForShutdown();
  // Give in-flight RPCs (the Shutdown reply among them) a moment to finish;
  // the coordinator ignores a lost Shutdown reply and waits for the exit, so
  // the grace is short (gRPC waits out the whole deadline, which made every
  // graph-run half a second slower with 500 ms).
  // gRPC waits for every running handler, and a task stuck in its step never
  // returns; do not let that keep the process alive.
  std::mutex mu;
  std::condition_variable cv;
  bool stopped = false;
  std::thread stopper([&] {
    server->Shutdown(std::chrono::system_clock::now() +
                     std::chrono::milliseconds(50));
    std::lock_guard<std::mutex> lock(mu);
    stopped = true;
    cv.notify_all();
  });
  std::unique_lock<std::mutex> lock(mu);
  if (!cv.wait_for(lock, std::chrono::seconds(2), [&] { return stopped; })) {
    std::fprintf(stderr, "graph-worker: a step is still running; exiting "
                         "without waiting for it\n");
    std::fflush(stderr);
    std::_Exit(0);
  }
  lock.unlock();
  stopper.join();
  return 0;
}
