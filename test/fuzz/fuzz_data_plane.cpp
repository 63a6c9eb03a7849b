//===- fuzz_data_plane.cpp - libFuzzer target for the TCP data plane ------===//
//
// What a peer (or anyone who can reach the port) sends to a worker's data
// listener: the hello with its one-shot nonce, then message frames. The
// input's first byte picks the set-up: bit 0 prepends a hello carrying a
// nonce the server issued (so frames are reached), bit 1 loads a task (a
// rendezvous to land tensors in); the rest is the byte stream, written into
// one end of a socketpair whose other end DataServer::admit serves on the
// fuzzer's thread until the stream ends.

#include "RuntimeFuzz.h"

#include "DataPlane.h"

#include <cstring>
#include <sys/socket.h>
#include <thread>

namespace graphrt {

struct DataServerFuzzAccess {
  static void admit(DataServer &server, int fd) { server.admit(fd); }
};

namespace {

class FuzzSink : public DataSink {
public:
  Rendezvous &rendezvous() override { return rdv_; }
  void advance() override {}
  std::chrono::milliseconds ioTimeout() const override {
    return std::chrono::milliseconds(200);
  }

private:
  Rendezvous rdv_;
};

} // namespace
} // namespace graphrt

using namespace graphrt;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size < 1) {
    return 0;
  }
  uint8_t mode = data[0];
  ++data, --size;
  std::shared_ptr<DataSink> sink;
  if (mode & 2) {
    sink = std::make_shared<FuzzSink>();
  }
  DataServer server(nullptr, [&] { return sink; });

  std::string stream;
  if (mode & 1) {
    const std::string src = "fuzz-src";
    std::string nonce = server.issueNonce(src);
    uint32_t magic = 0x31445247, srcBytes = src.size(); // "GRD1"
    stream.append(reinterpret_cast<const char *>(&magic), sizeof magic);
    stream += nonce;
    stream.append(reinterpret_cast<const char *>(&srcBytes), sizeof srcBytes);
    stream += src;
  }
  stream.append(reinterpret_cast<const char *>(data), size);

  int fds[2];
  if (::socketpair(AF_UNIX, SOCK_STREAM, 0, fds) != 0) {
    std::abort();
  }
  // A writer thread, so a stream larger than the socket buffer cannot
  // deadlock against a server that stops reading early.
  std::thread writer([&] {
    size_t off = 0;
    while (off < stream.size()) {
      ssize_t n = ::send(fds[0], stream.data() + off, stream.size() - off,
                         MSG_NOSIGNAL);
      if (n <= 0) {
        break;
      }
      off += size_t(n);
    }
    ::shutdown(fds[0], SHUT_WR);
  });
  DataServerFuzzAccess::admit(server, fds[1]); // takes ownership of fds[1]
  ::shutdown(fds[0], SHUT_RDWR);
  writer.join();
  ::close(fds[0]);
  return 0;
}
