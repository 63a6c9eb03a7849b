// graph-worker: the gRPC worker daemon that hosts one task of a job bundle.
#include "Worker.h"

#include <grpcpp/grpcpp.h>

#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <mutex>
#include <thread>
#include <cstring>
#include <string>

namespace {
void usage() {
  std::fprintf(stderr,
               "usage: graph-worker [--listen HOST:PORT]\n"
               "  Serves the graphrt Worker and Transport gRPC services.\n"
               "  --listen  address to bind (default 127.0.0.1:0, a free port);\n"
               "            the bound address is printed on stdout\n");
}
} // namespace

int main(int argc, char** argv) {
  std::string listen = "127.0.0.1:0";
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    if (a == "--listen" && i + 1 < argc) {
      listen = argv[++i];
    } else if (a.rfind("--listen=", 0) == 0) {
      listen = a.substr(9);
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
  size_t colon = listen.rfind(':');
  if (colon == std::string::npos) {
    std::fprintf(stderr,
                 "graph-worker: error: --listen '%s' is not HOST:PORT\n",
                 listen.c_str());
    return 2;
  }
  graphrt::WorkerService service;
  grpc::ServerBuilder builder;
  int port = 0;
  builder.AddListeningPort(listen, grpc::InsecureServerCredentials(), &port);
  builder.SetMaxReceiveMessageSize(-1);
  builder.SetMaxSendMessageSize(-1);
  builder.RegisterService(static_cast<graphrt::rpc::Worker::Service*>(&service));
  builder.RegisterService(
      static_cast<graphrt::rpc::Transport::Service*>(&service));
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
  // Give in-flight RPCs (the Shutdown reply among them) a moment to finish.
  // gRPC waits for every running handler, and a task stuck in its step never
  // returns; do not let that keep the process alive.
  std::mutex mu;
  std::condition_variable cv;
  bool stopped = false;
  std::thread stopper([&] {
    server->Shutdown(std::chrono::system_clock::now() +
                     std::chrono::milliseconds(500));
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
