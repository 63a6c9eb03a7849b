// DataPlane.h: direct worker-to-worker TCP (or TLS) connections that carry
// tensor payloads, set up through the authenticated gRPC control plane.
//
//   sender task ──OpenData(src) over gRPC──▶ receiving worker: {port, nonce}
//   sender ──TCP connect, hello {nonce, src}──▶ DataServer (checks the nonce)
//   sender ──{header, key, payload} × N──▶ reader thread ──▶ Rendezvous
//
// A connection carries data one way only; its reader thread writes straight
// into the receiving task's buffer when the task is already waiting.
#ifndef GRAPHRT_LIB_DATAPLANE_H
#define GRAPHRT_LIB_DATAPLANE_H

#include "Rendezvous.h"
#include "Security.h"

#include <atomic>
#include <chrono>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

typedef struct ssl_ctx_st SSL_CTX;
typedef struct ssl_st SSL;

namespace graphrt {

/// Where incoming tensors land: the loaded task. Thread-safe.
class DataSink {
public:
  virtual ~DataSink() = default;
  virtual Rendezvous &rendezvous() = 0;
  /// Called as payload bytes arrive (the task's progress counter).
  virtual void advance() = 0;
  /// How long one read of a message in flight may block.
  virtual std::chrono::milliseconds ioTimeout() const = 0;
};

/// OpenSSL contexts for data sockets under mutual TLS: the same certificate,
/// key and CA as the gRPC channels, a peer certificate required both ways.
class DataTls {
public:
  ~DataTls();
  /// Null `*out` when `sec` has no TLS.
  static Status create(const SecurityConfig &sec,
                       std::shared_ptr<DataTls> *out);
  SSL_CTX *server() const { return server_; }
  SSL_CTX *client() const { return client_; }

private:
  SSL_CTX *server_ = nullptr;
  SSL_CTX *client_ = nullptr;
};

/// A connected stream socket, optionally wrapped in TLS. Blocking I/O.
class DataSocket {
public:
  DataSocket(int fd, SSL *ssl) : fd_(fd), ssl_(ssl) {}
  ~DataSocket();
  DataSocket(const DataSocket &) = delete;
  DataSocket &operator=(const DataSocket &) = delete;
  /// Writes all of `a` then all of `b` (one sendmsg for both when plain).
  bool writeAll(const void *a, size_t an, const void *b, size_t bn);
  /// Reads exactly `n` bytes; false on EOF, error or timeout.
  bool readAll(void *dst, size_t n);
  /// Reads up to `n` (at least one) bytes; 0 on EOF or error.
  size_t readSome(void *dst, size_t n);
  /// Blocks until readable (or buffered TLS data); false if stopped.
  bool waitReadable();
  /// Unblocks any read or write in progress, from another thread.
  void shutdown();
  int fd() const { return fd_; }
  /// The last error, for messages.
  std::string lastError() const { return error_; }

private:
  int fd_;
  SSL *ssl_;
  std::string error_;
};

/// The receiving side: one listener per worker, bound on the host of its
/// gRPC address, a reader thread per admitted connection.
class DataServer {
public:
  DataServer(std::shared_ptr<DataTls> tls,
             std::function<std::shared_ptr<DataSink>()> sink);
  ~DataServer();
  /// Binds `host`:0 and starts accepting.
  Status start(const std::string &host);
  int port() const { return port_; }
  /// A fresh one-shot nonce admitting one connection from `srcTask`; handed
  /// out only over the authenticated control channel (OpenData).
  std::string issueNonce(const std::string &srcTask);
  /// Closes every admitted connection (Abort, Shutdown).
  void closeAll();

private:
  // The data-plane fuzzer (test/fuzz/fuzz_data_plane.cpp) drives admit() on
  // one end of a socketpair, without a listener or threads.
  friend struct DataServerFuzzAccess;
  void acceptLoop();
  void admit(int fd);
  void serve(std::shared_ptr<DataSocket> sock, std::string src);

  std::shared_ptr<DataTls> tls_;
  std::function<std::shared_ptr<DataSink>()> sink_;
  int listenFd_ = -1;
  int port_ = 0;
  std::atomic<bool> stopping_{false};
  std::thread acceptThread_;
  std::mutex mu_;
  std::map<std::string, std::string> nonces_; // nonce -> source task
  std::vector<std::weak_ptr<DataSocket>> sockets_;
  std::vector<std::thread> threads_;
};

/// One outgoing connection to a peer worker. `send` is thread-safe (one
/// message at a time).
class DataConnection {
public:
  /// Connects to host:port and introduces itself as `srcTask` with `nonce`.
  static Status connect(const std::string &host, int port,
                        const std::string &nonce, const std::string &srcTask,
                        const std::shared_ptr<DataTls> &tls,
                        std::chrono::milliseconds timeout,
                        std::unique_ptr<DataConnection> *out);
  /// Writes one message: a small header and the caller's buffer, no copy.
  /// Returns once the bytes are handed to the connection; a write that makes
  /// no progress for the connection's timeout fails.
  Status send(const std::string &key, const void *data, size_t bytes);
  /// Unblocks a send in progress (Abort); later sends fail.
  void shutdown() { sock_->shutdown(); }

private:
  explicit DataConnection(std::unique_ptr<DataSocket> sock)
      : sock_(std::move(sock)) {}
  std::mutex mu_;
  std::unique_ptr<DataSocket> sock_;
  bool broken_ = false;
};

} // namespace graphrt

#endif // GRAPHRT_LIB_DATAPLANE_H
