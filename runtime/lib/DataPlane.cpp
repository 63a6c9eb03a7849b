// DataPlane.cpp: the TCP/TLS tensor data plane between workers.
#include "DataPlane.h"

#include <openssl/crypto.h>
#include <openssl/err.h>
#include <openssl/ssl.h>

#include <arpa/inet.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/socket.h>
#include <sys/uio.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>

namespace graphrt {
namespace {

// The first bytes of a connection and of every message.
constexpr uint32_t kHelloMagic = 0x31445247;   // "GRD1"
constexpr uint32_t kMessageMagic = 0x4d445247; // "GRDM"
constexpr size_t kNonceBytes = 64;             // randomToken(): 64 hex digits
constexpr size_t kMaxName = 4096;              // task names and keys
constexpr size_t kReadSlice = 4 << 20;         // progress granularity
constexpr int kHelloTimeoutMs = 10000;

struct MessageHeader {
  uint32_t magic;
  uint32_t keyBytes;
  uint64_t payloadBytes;
};

std::string errnoText(const char *what) {
  return std::string(what) + ": " + std::strerror(errno);
}

std::string sslText(const char *what) {
  unsigned long e = ERR_get_error();
  char buf[256];
  ERR_error_string_n(e, buf, sizeof buf);
  return std::string(what) + ": " + (e ? buf : std::strerror(errno));
}

void setTimeouts(int fd, std::chrono::milliseconds t) {
  timeval tv;
  tv.tv_sec = static_cast<time_t>(t.count() / 1000);
  tv.tv_usec = static_cast<suseconds_t>((t.count() % 1000) * 1000);
  ::setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
  ::setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof tv);
}

void tune(int fd) {
  int one = 1;
  ::setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
  // Room for a large message in flight both ways on a fast link.
  int buf = 4 << 20;
  ::setsockopt(fd, SOL_SOCKET, SO_SNDBUF, &buf, sizeof buf);
  ::setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &buf, sizeof buf);
}

SSL_CTX *makeContext(const SecurityConfig &sec, bool server,
                     std::string *error) {
  SSL_CTX *ctx =
      SSL_CTX_new(server ? TLS_server_method() : TLS_client_method());
  if (!ctx) {
    *error = sslText("SSL_CTX_new");
    return nullptr;
  }
  SSL_CTX_set_min_proto_version(ctx, TLS1_2_VERSION);
  if (SSL_CTX_use_certificate_chain_file(ctx, sec.certFile.c_str()) != 1 ||
      SSL_CTX_use_PrivateKey_file(ctx, sec.keyFile.c_str(), SSL_FILETYPE_PEM) !=
          1 ||
      SSL_CTX_check_private_key(ctx) != 1 ||
      SSL_CTX_load_verify_locations(ctx, sec.caFile.c_str(), nullptr) != 1) {
    *error = sslText("data-plane TLS setup");
    SSL_CTX_free(ctx);
    return nullptr;
  }
  // Mutual: each side must present a certificate signed by the job's CA.
  SSL_CTX_set_verify(ctx, SSL_VERIFY_PEER | SSL_VERIFY_FAIL_IF_NO_PEER_CERT,
                     nullptr);
  if (server) {
    SSL_CTX_set_num_tickets(ctx, 0); // the client never reads on this socket
  }
  return ctx;
}

} // namespace

//===----------------------------------------------------------------------===//
// DataTls
//===----------------------------------------------------------------------===//

DataTls::~DataTls() {
  SSL_CTX_free(server_);
  SSL_CTX_free(client_);
}

Status DataTls::create(const SecurityConfig &sec,
                       std::shared_ptr<DataTls> *out) {
  out->reset();
  if (!sec.tls()) {
    return Status::ok();
  }
  auto tls = std::make_shared<DataTls>();
  std::string error;
  tls->server_ = makeContext(sec, true, &error);
  if (tls->server_) {
    tls->client_ = makeContext(sec, false, &error);
  }
  if (!tls->client_) {
    return Status(GRAPHRT_STATUS_FAILED_PRECONDITION, error);
  }
  *out = std::move(tls);
  return Status::ok();
}

//===----------------------------------------------------------------------===//
// DataSocket
//===----------------------------------------------------------------------===//

DataSocket::~DataSocket() {
  if (ssl_) {
    SSL_free(ssl_);
  }
  if (fd_ >= 0) {
    ::close(fd_);
  }
}

bool DataSocket::writeAll(const void *a, size_t an, const void *b, size_t bn) {
  if (ssl_) {
    for (auto [p, n] :
         {std::pair<const char *, size_t>{static_cast<const char *>(a), an},
          {static_cast<const char *>(b), bn}}) {
      while (n > 0) {
        size_t written = 0;
        if (SSL_write_ex(ssl_, p, n, &written) != 1) {
          error_ = sslText("TLS write");
          return false;
        }
        p += written;
        n -= written;
      }
    }
    return true;
  }
  iovec iov[2] = {{const_cast<void *>(a), an}, {const_cast<void *>(b), bn}};
  int first = an ? 0 : 1;
  int count = bn ? 2 : 1;
  while (first < count) {
    msghdr msg{};
    msg.msg_iov = iov + first;
    msg.msg_iovlen = static_cast<size_t>(count - first);
    ssize_t n = ::sendmsg(fd_, &msg, MSG_NOSIGNAL);
    if (n < 0) {
      if (errno == EINTR) {
        continue;
      }
      error_ = errno == EAGAIN || errno == EWOULDBLOCK
                   ? "write made no progress before the deadline (the peer "
                     "does not read)"
                   : errnoText("write");
      return false;
    }
    size_t left = static_cast<size_t>(n);
    while (first < count && left >= iov[first].iov_len) {
      left -= iov[first].iov_len;
      ++first;
    }
    if (first < count) {
      iov[first].iov_base = static_cast<char *>(iov[first].iov_base) + left;
      iov[first].iov_len -= left;
    }
  }
  return true;
}

size_t DataSocket::readSome(void *dst, size_t n) {
  while (true) {
    if (ssl_) {
      size_t got = 0;
      if (SSL_read_ex(ssl_, dst, n, &got) == 1) {
        return got;
      }
      error_ = sslText("TLS read");
      return 0;
    }
    ssize_t got = ::recv(fd_, dst, n, 0);
    if (got > 0) {
      return static_cast<size_t>(got);
    }
    if (got < 0 && errno == EINTR) {
      continue;
    }
    error_ = got == 0 ? "the peer closed the connection"
             : errno == EAGAIN || errno == EWOULDBLOCK
                 ? "the peer sent nothing before the deadline"
                 : errnoText("read");
    return 0;
  }
}

bool DataSocket::readAll(void *dst, size_t n) {
  char *p = static_cast<char *>(dst);
  while (n > 0) {
    size_t got = readSome(p, n);
    if (got == 0) {
      return false;
    }
    p += got;
    n -= got;
  }
  return true;
}

bool DataSocket::waitReadable() {
  if (ssl_ && SSL_pending(ssl_) > 0) {
    return true;
  }
  pollfd p{fd_, POLLIN, 0};
  while (::poll(&p, 1, -1) < 0) {
    if (errno != EINTR) {
      return false;
    }
  }
  return true;
}

void DataSocket::shutdown() { ::shutdown(fd_, SHUT_RDWR); }

//===----------------------------------------------------------------------===//
// DataServer
//===----------------------------------------------------------------------===//

DataServer::DataServer(std::shared_ptr<DataTls> tls,
                       std::function<std::shared_ptr<DataSink>()> sink)
    : tls_(std::move(tls)), sink_(std::move(sink)) {}

DataServer::~DataServer() {
  stopping_ = true;
  if (listenFd_ >= 0) {
    ::shutdown(listenFd_, SHUT_RDWR);
  }
  if (acceptThread_.joinable()) {
    acceptThread_.join();
  }
  closeAll();
  std::vector<std::thread> threads;
  {
    std::lock_guard<std::mutex> lock(mu_);
    threads.swap(threads_);
  }
  for (std::thread &t : threads) {
    t.join();
  }
  if (listenFd_ >= 0) {
    ::close(listenFd_);
  }
}

Status DataServer::start(const std::string &host) {
  addrinfo hints{};
  hints.ai_family = AF_UNSPEC;
  hints.ai_socktype = SOCK_STREAM;
  hints.ai_flags = AI_PASSIVE;
  addrinfo *res = nullptr;
  std::string h = host;
  if (h.size() > 1 && h.front() == '[' && h.back() == ']') {
    h = h.substr(1, h.size() - 2);
  }
  if (int rc =
          ::getaddrinfo(h.empty() ? nullptr : h.c_str(), "0", &hints, &res)) {
    return Status(GRAPHRT_STATUS_UNAVAILABLE, "data plane: cannot resolve '" +
                                                  host +
                                                  "': " + ::gai_strerror(rc));
  }
  std::string error = "no address";
  for (addrinfo *ai = res; ai; ai = ai->ai_next) {
    int fd = ::socket(ai->ai_family, ai->ai_socktype | SOCK_CLOEXEC, 0);
    if (fd < 0) {
      continue;
    }
    int one = 1;
    ::setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
    if (::bind(fd, ai->ai_addr, ai->ai_addrlen) == 0 && ::listen(fd, 64) == 0) {
      sockaddr_storage ss{};
      socklen_t len = sizeof ss;
      ::getsockname(fd, reinterpret_cast<sockaddr *>(&ss), &len);
      port_ = ntohs(ss.ss_family == AF_INET6
                        ? reinterpret_cast<sockaddr_in6 *>(&ss)->sin6_port
                        : reinterpret_cast<sockaddr_in *>(&ss)->sin_port);
      listenFd_ = fd;
      break;
    }
    error = errnoText("bind");
    ::close(fd);
  }
  ::freeaddrinfo(res);
  if (listenFd_ < 0) {
    return Status(GRAPHRT_STATUS_UNAVAILABLE,
                  "data plane: cannot listen on '" + host + "': " + error);
  }
  acceptThread_ = std::thread([this] { acceptLoop(); });
  return Status::ok();
}

std::string DataServer::issueNonce(const std::string &srcTask) {
  std::string nonce = randomToken();
  std::lock_guard<std::mutex> lock(mu_);
  nonces_[nonce] = srcTask;
  return nonce;
}

void DataServer::closeAll() {
  std::lock_guard<std::mutex> lock(mu_);
  for (const std::weak_ptr<DataSocket> &w : sockets_) {
    if (std::shared_ptr<DataSocket> s = w.lock()) {
      s->shutdown();
    }
  }
  sockets_.clear();
}

void DataServer::acceptLoop() {
  while (!stopping_) {
    int fd = ::accept4(listenFd_, nullptr, nullptr, SOCK_CLOEXEC);
    if (fd < 0) {
      if (errno == EINTR || errno == ECONNABORTED) {
        continue;
      }
      if (stopping_) {
        return;
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
      continue;
    }
    // The handshake runs on the connection's own thread so a slow or
    // hostile client cannot hold up the others.
    std::lock_guard<std::mutex> lock(mu_);
    threads_.emplace_back([this, fd] { admit(fd); });
  }
}

void DataServer::admit(int fd) {
  tune(fd);
  setTimeouts(fd, std::chrono::milliseconds(kHelloTimeoutMs));
  SSL *ssl = nullptr;
  if (tls_) {
    ssl = SSL_new(tls_->server());
    if (!ssl) {
      ::close(fd);
      return;
    }
    SSL_set_fd(ssl, fd);
  }
  auto sock = std::make_shared<DataSocket>(fd, ssl);
  if (ssl && SSL_accept(ssl) != 1) {
    std::fprintf(stderr, "graph-worker: refused a data connection: %s\n",
                 sslText("TLS handshake").c_str());
    return;
  }
  // hello: magic, nonce, source-task length, source task.
  uint32_t magic = 0, srcBytes = 0;
  char nonce[kNonceBytes];
  if (!sock->readAll(&magic, sizeof magic) || magic != kHelloMagic ||
      !sock->readAll(nonce, sizeof nonce) ||
      !sock->readAll(&srcBytes, sizeof srcBytes) || srcBytes > kMaxName) {
    std::fprintf(stderr, "graph-worker: refused a data connection: not a "
                         "graphrt data-plane hello\n");
    return;
  }
  std::string src(srcBytes, '\0');
  if (!sock->readAll(src.data(), srcBytes)) {
    return;
  }
  bool admitted = false;
  {
    // One-shot nonces, compared in constant time.
    std::lock_guard<std::mutex> lock(mu_);
    for (auto it = nonces_.begin(); it != nonces_.end(); ++it) {
      if (CRYPTO_memcmp(it->first.data(), nonce, kNonceBytes) == 0 &&
          it->second == src) {
        nonces_.erase(it);
        admitted = !stopping_;
        break;
      }
    }
    if (admitted) {
      sockets_.push_back(sock);
    }
  }
  if (!admitted) {
    std::fprintf(stderr,
                 "graph-worker: refused a data connection claiming to be "
                 "task '%s': its nonce was not issued by this worker\n",
                 src.c_str());
    return;
  }
  serve(std::move(sock), std::move(src));
}

void DataServer::serve(std::shared_ptr<DataSocket> sock, std::string src) {
  std::vector<char> discard;
  while (!stopping_) {
    if (!sock->waitReadable()) {
      return;
    }
    MessageHeader h;
    if (!sock->readAll(&h, sizeof h)) {
      return; // the sender closed the connection (its task was unloaded)
    }
    if (h.magic != kMessageMagic || h.keyBytes > kMaxName) {
      std::fprintf(stderr,
                   "graph-worker: data connection from task '%s' is out of "
                   "step; closing it\n",
                   src.c_str());
      return;
    }
    std::string key(h.keyBytes, '\0');
    if (!sock->readAll(key.data(), h.keyBytes)) {
      return;
    }
    std::shared_ptr<DataSink> sink = sink_();
    if (sink) {
      setTimeouts(sock->fd(), sink->ioTimeout());
    }
    char *target = nullptr;
    Status st =
        sink ? sink->rendezvous().beginIncoming(key, h.payloadBytes, &target)
             : Status(GRAPHRT_STATUS_FAILED_PRECONDITION, "no task is loaded");
    if (!st.isOk()) {
      // Keep the stream in step: read the payload and drop it.
      discard.resize(std::min<uint64_t>(h.payloadBytes, kReadSlice));
      for (uint64_t left = h.payloadBytes; left > 0;) {
        size_t got = sock->readSome(discard.data(),
                                    std::min<uint64_t>(left, discard.size()));
        if (got == 0) {
          return;
        }
        left -= got;
      }
      continue;
    }
    uint64_t done = 0;
    while (done < h.payloadBytes) {
      size_t want = std::min<uint64_t>(h.payloadBytes - done, kReadSlice);
      // The header's size is the sender's claim: memory follows the bytes
      // that actually arrive.
      st = sink->rendezvous().growIncoming(key, done + want, &target);
      if (!st.isOk()) {
        sink->rendezvous().finishIncoming(key, st);
        return;
      }
      size_t got = sock->readSome(target + done, want);
      if (got == 0) {
        break;
      }
      done += got;
      sink->advance();
    }
    if (done < h.payloadBytes) {
      sink->rendezvous().finishIncoming(
          key, Status(GRAPHRT_STATUS_DATA_LOSS,
                      "the data connection from task '" + src +
                          "' broke after " + std::to_string(done) + " of " +
                          std::to_string(h.payloadBytes) + " bytes of '" + key +
                          "': " + sock->lastError()));
      return;
    }
    sink->advance();
    sink->rendezvous().finishIncoming(key, Status::ok());
  }
}

//===----------------------------------------------------------------------===//
// DataConnection
//===----------------------------------------------------------------------===//

Status DataConnection::connect(const std::string &host, int port,
                               const std::string &nonce,
                               const std::string &srcTask,
                               const std::shared_ptr<DataTls> &tls,
                               std::chrono::milliseconds timeout,
                               std::unique_ptr<DataConnection> *out) {
  std::string where = host + ":" + std::to_string(port);
  if (nonce.size() != kNonceBytes) {
    return Status(GRAPHRT_STATUS_INTERNAL, "data plane: malformed nonce");
  }
  addrinfo hints{};
  hints.ai_family = AF_UNSPEC;
  hints.ai_socktype = SOCK_STREAM;
  addrinfo *res = nullptr;
  std::string h = host;
  if (h.size() > 1 && h.front() == '[' && h.back() == ']') {
    h = h.substr(1, h.size() - 2);
  }
  if (int rc = ::getaddrinfo(h.c_str(), std::to_string(port).c_str(), &hints,
                             &res)) {
    return Status(GRAPHRT_STATUS_UNAVAILABLE, "data plane: cannot resolve '" +
                                                  host +
                                                  "': " + ::gai_strerror(rc));
  }
  int fd = -1;
  std::string error = "no address";
  for (addrinfo *ai = res; ai && fd < 0; ai = ai->ai_next) {
    fd = ::socket(ai->ai_family, ai->ai_socktype | SOCK_CLOEXEC, 0);
    if (fd < 0) {
      continue;
    }
    tune(fd);
    setTimeouts(fd, timeout);
    if (::connect(fd, ai->ai_addr, ai->ai_addrlen) != 0) {
      error = errnoText("connect");
      ::close(fd);
      fd = -1;
    }
  }
  ::freeaddrinfo(res);
  if (fd < 0) {
    return Status(GRAPHRT_STATUS_UNAVAILABLE,
                  "data plane: cannot connect to " + where + ": " + error);
  }
  SSL *ssl = nullptr;
  if (tls) {
    ssl = SSL_new(tls->client());
    if (!ssl) {
      ::close(fd);
      return Status(GRAPHRT_STATUS_INTERNAL, sslText("SSL_new"));
    }
    SSL_set_fd(ssl, fd);
  }
  auto sock = std::make_unique<DataSocket>(fd, ssl);
  if (ssl && SSL_connect(ssl) != 1) {
    return Status(GRAPHRT_STATUS_UNAUTHENTICATED,
                  "data plane: TLS handshake with " + where +
                      " failed: " + sslText("SSL_connect"));
  }
  std::string hello(sizeof(uint32_t), '\0');
  std::memcpy(hello.data(), &kHelloMagic, sizeof kHelloMagic);
  hello += nonce;
  uint32_t srcBytes = static_cast<uint32_t>(srcTask.size());
  hello.append(reinterpret_cast<const char *>(&srcBytes), sizeof srcBytes);
  hello += srcTask;
  if (!sock->writeAll(hello.data(), hello.size(), nullptr, 0)) {
    return Status(GRAPHRT_STATUS_UNAVAILABLE,
                  "data plane: hello to " + where +
                      " failed: " + sock->lastError());
  }
  out->reset(new DataConnection(std::move(sock)));
  return Status::ok();
}

Status DataConnection::send(const std::string &key, const void *data,
                            size_t bytes) {
  std::lock_guard<std::mutex> lock(mu_);
  if (broken_) {
    return Status(GRAPHRT_STATUS_UNAVAILABLE,
                  "the data connection broke earlier: " + sock_->lastError());
  }
  // Header and key in one small buffer, then the caller's bytes in place.
  char head[sizeof(MessageHeader) + 256];
  std::string big;
  const char *headPtr = head;
  size_t headBytes = sizeof(MessageHeader) + key.size();
  MessageHeader h{kMessageMagic, static_cast<uint32_t>(key.size()), bytes};
  if (headBytes <= sizeof head) {
    std::memcpy(head, &h, sizeof h);
    std::memcpy(head + sizeof h, key.data(), key.size());
  } else {
    big.assign(reinterpret_cast<const char *>(&h), sizeof h);
    big += key;
    headPtr = big.data();
  }
  if (!sock_->writeAll(headPtr, headBytes, data, bytes)) {
    broken_ = true; // a partial message leaves the stream out of step
    return Status(GRAPHRT_STATUS_UNAVAILABLE, sock_->lastError());
  }
  return Status::ok();
}

} // namespace graphrt
