// baselines.cpp: the reference numbers the runtime benchmarks compare with,
// measured on this machine in the same run:
//   memcpy BYTES REPS        GiB/s of a memcpy of BYTES
//   tcp BYTES REPS           GiB/s of BYTES over a raw loopback TCP socket
//                            (one thread writes, one reads into a buffer)
//   grpc-pingpong BYTES N    median microseconds of a unary gRPC call that
//                            carries BYTES each way (plain C++ sync API)
// Each prints one line "<name> <value>" (the median of REPS trials).
#include "echo.grpc.pb.h"

#include <grpcpp/grpcpp.h>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <thread>
#include <vector>

namespace {

using Clock = std::chrono::steady_clock;

double seconds(Clock::time_point a, Clock::time_point b) {
  return std::chrono::duration<double>(b - a).count();
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

constexpr double kGiB = 1024.0 * 1024 * 1024;

void benchMemcpy(size_t bytes, int reps) {
  std::vector<char> a(bytes, 1), b(bytes, 2);
  std::vector<double> t;
  for (int r = 0; r < reps; ++r) {
    auto s = Clock::now();
    std::memcpy(b.data(), a.data(), bytes);
    t.push_back(seconds(s, Clock::now()));
  }
  std::printf("memcpy %.3f\n", bytes / median(t) / kGiB);
}

void benchTcp(size_t bytes, int reps) {
  int listener = ::socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  socklen_t len = sizeof addr;
  if (::bind(listener, reinterpret_cast<sockaddr *>(&addr), sizeof addr) ||
      ::listen(listener, 1) ||
      ::getsockname(listener, reinterpret_cast<sockaddr *>(&addr), &len)) {
    std::perror("tcp");
    std::exit(1);
  }
  std::vector<char> src(bytes, 3), dst(bytes);
  std::thread writer([&] {
    int fd = ::socket(AF_INET, SOCK_STREAM, 0);
    ::connect(fd, reinterpret_cast<sockaddr *>(&addr), sizeof addr);
    for (int r = 0; r < reps; ++r) {
      char go;
      if (::read(fd, &go, 1) != 1) {
        break;
      }
      for (size_t off = 0; off < bytes;) {
        ssize_t n = ::write(fd, src.data() + off, bytes - off);
        if (n <= 0) {
          std::exit(1);
        }
        off += static_cast<size_t>(n);
      }
    }
    ::close(fd);
  });
  int fd = ::accept(listener, nullptr, nullptr);
  std::vector<double> t;
  for (int r = 0; r < reps; ++r) {
    auto s = Clock::now();
    char go = 1;
    (void)::write(fd, &go, 1);
    for (size_t off = 0; off < bytes;) {
      ssize_t n = ::read(fd, dst.data() + off, bytes - off);
      if (n <= 0) {
        std::exit(1);
      }
      off += static_cast<size_t>(n);
    }
    t.push_back(seconds(s, Clock::now()));
  }
  writer.join();
  ::close(fd);
  ::close(listener);
  std::printf("tcp %.3f\n", bytes / median(t) / kGiB);
}

class EchoService final : public graphrt::bench::Echo::Service {
  grpc::Status Ping(grpc::ServerContext *, const graphrt::bench::Blob *req,
                    graphrt::bench::Blob *resp) override {
    resp->set_data(req->data());
    return grpc::Status::OK;
  }
};

void benchPingPong(size_t bytes, int n) {
  EchoService service;
  grpc::ServerBuilder b;
  int port = 0;
  b.AddListeningPort("127.0.0.1:0", grpc::InsecureServerCredentials(), &port);
  b.RegisterService(&service);
  auto server = b.BuildAndStart();
  auto stub = graphrt::bench::Echo::NewStub(grpc::CreateChannel(
      "127.0.0.1:" + std::to_string(port), grpc::InsecureChannelCredentials()));
  graphrt::bench::Blob req, resp;
  req.set_data(std::string(bytes, 'x'));
  std::vector<double> t;
  for (int i = 0; i < n + 20; ++i) {
    grpc::ClientContext ctx;
    ctx.set_deadline(std::chrono::system_clock::now() +
                     std::chrono::seconds(10));
    auto s = Clock::now();
    grpc::Status st = stub->Ping(&ctx, req, &resp);
    double dt = seconds(s, Clock::now());
    if (!st.ok() || resp.data().size() != bytes) {
      std::fprintf(stderr, "ping failed: %s\n", st.error_message().c_str());
      std::exit(1);
    }
    if (i >= 20) { // warm-up
      t.push_back(dt);
    }
  }
  server->Shutdown();
  std::printf("grpc-pingpong %.1f\n", median(t) * 1e6);
}

} // namespace

int main(int argc, char **argv) {
  if (argc != 4) {
    std::fprintf(stderr,
                 "usage: graphrt-bench-baselines memcpy|tcp|grpc-pingpong "
                 "BYTES REPS\n");
    return 2;
  }
  std::string what = argv[1];
  size_t bytes = std::strtoull(argv[2], nullptr, 10);
  int reps = std::atoi(argv[3]);
  if (what == "memcpy") {
    benchMemcpy(bytes, reps);
  } else if (what == "tcp") {
    benchTcp(bytes, reps);
  } else if (what == "grpc-pingpong") {
    benchPingPong(bytes, reps);
  } else {
    return 2;
  }
  return 0;
}
