// Security.cpp: TLS credentials and the job token.
#include "Security.h"

#include <openssl/crypto.h>
#include <openssl/rand.h>

#include <netdb.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <cstdint>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <vector>

namespace graphrt {
namespace {

Status readFile(const std::string &flag, const std::string &path,
                std::string *out) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    return Status(GRAPHRT_STATUS_INVALID_ARGUMENT,
                  flag + ": cannot read '" + path + "'");
  }
  std::stringstream ss;
  ss << in.rdbuf();
  *out = ss.str();
  return Status::ok();
}

std::string trim(std::string s) {
  while (!s.empty() && (s.back() == '\n' || s.back() == '\r' ||
                        s.back() == ' ' || s.back() == '\t')) {
    s.pop_back();
  }
  return s;
}

} // namespace

Status loadSecurity(const std::string &certFile, const std::string &keyFile,
                    const std::string &caFile, const std::string &tokenFile,
                    SecurityConfig *out) {
  int given = !certFile.empty() + !keyFile.empty() + !caFile.empty();
  if (given != 0 && given != 3) {
    return Status(GRAPHRT_STATUS_INVALID_ARGUMENT,
                  "--tls-cert, --tls-key and --tls-ca go together (mutual "
                  "TLS needs all three)");
  }
  if (given == 3) {
    GRAPHRT_RETURN_IF_ERROR(readFile("--tls-cert", certFile, &out->certPem));
    GRAPHRT_RETURN_IF_ERROR(readFile("--tls-key", keyFile, &out->keyPem));
    GRAPHRT_RETURN_IF_ERROR(readFile("--tls-ca", caFile, &out->caPem));
    for (const auto &[flag, pem] :
         {std::pair<const char *, std::string *>{"--tls-cert", &out->certPem},
          {"--tls-key", &out->keyPem},
          {"--tls-ca", &out->caPem}}) {
      if (pem->find("-----BEGIN ") == std::string::npos) {
        return Status(GRAPHRT_STATUS_INVALID_ARGUMENT,
                      std::string(flag) + ": '" +
                          (flag == std::string("--tls-cert")  ? certFile
                           : flag == std::string("--tls-key") ? keyFile
                                                              : caFile) +
                          "' is not PEM");
      }
    }
    out->certFile = certFile;
    out->keyFile = keyFile;
    out->caFile = caFile;
  }
  if (!tokenFile.empty()) {
    GRAPHRT_RETURN_IF_ERROR(readFile("--token-file", tokenFile, &out->token));
    out->token = trim(out->token);
    if (out->token.empty()) {
      return Status(GRAPHRT_STATUS_INVALID_ARGUMENT,
                    "--token-file: '" + tokenFile + "' is empty");
    }
  } else if (const char *env = std::getenv(kTokenEnv)) {
    out->token = trim(env);
  }
  return Status::ok();
}

std::string randomToken() {
  unsigned char bytes[32];
  if (RAND_bytes(bytes, sizeof bytes) != 1) {
    std::abort(); // no entropy: never run a job with a guessable token
  }
  static const char *const hex = "0123456789abcdef";
  std::string s;
  for (unsigned char b : bytes) {
    s += hex[b >> 4];
    s += hex[b & 15];
  }
  return s;
}

std::shared_ptr<grpc::ServerCredentials>
serverCredentials(const SecurityConfig &sec) {
  if (!sec.tls()) {
    return grpc::InsecureServerCredentials();
  }
  grpc::SslServerCredentialsOptions opts(
      GRPC_SSL_REQUEST_AND_REQUIRE_CLIENT_CERTIFICATE_AND_VERIFY);
  opts.pem_root_certs = sec.caPem;
  opts.pem_key_cert_pairs.push_back({sec.keyPem, sec.certPem});
  return grpc::SslServerCredentials(opts);
}

std::shared_ptr<grpc::ChannelCredentials>
channelCredentials(const SecurityConfig &sec) {
  if (!sec.tls()) {
    return grpc::InsecureChannelCredentials();
  }
  grpc::SslCredentialsOptions opts;
  opts.pem_root_certs = sec.caPem;
  opts.pem_private_key = sec.keyPem;
  opts.pem_cert_chain = sec.certPem;
  return grpc::SslCredentials(opts);
}

void authorize(grpc::ClientContext *ctx, const SecurityConfig &sec) {
  if (!sec.token.empty()) {
    ctx->AddMetadata(kTokenMetadataKey, sec.token);
  }
}

grpc::Status checkCaller(const grpc::ServerContext *ctx,
                         const SecurityConfig &sec) {
  if (sec.token.empty()) {
    return grpc::Status::OK; // mutual TLS (checked in the handshake) alone
  }
  const auto &md = ctx->client_metadata();
  auto it = md.find(kTokenMetadataKey);
  if (it == md.end()) {
    return grpc::Status(grpc::StatusCode::UNAUTHENTICATED,
                        "the call carries no job token");
  }
  if (it->second.size() != sec.token.size() ||
      CRYPTO_memcmp(it->second.data(), sec.token.data(), sec.token.size()) !=
          0) {
    return grpc::Status(grpc::StatusCode::UNAUTHENTICATED,
                        "the call's job token is not this job's");
  }
  return grpc::Status::OK;
}

namespace {

/// A TLS 1.3 ClientHello (TLS 1.2 offered too) with the extensions a modern
/// server needs to answer it (groups, signature algorithms, a key share,
/// ALPN h2): any TLS server replies with a record, a ServerHello (type 22)
/// or an alert (type 21). The handshake goes no further. A plaintext gRPC
/// server replies with an HTTP/2 frame, or closes.
std::vector<uint8_t> clientHello() {
  std::vector<uint8_t> body = {0x03, 0x03}; // legacy_version TLS 1.2
  for (int i = 0; i < 32; ++i) {
    body.push_back(static_cast<uint8_t>(i * 7 + 1)); // random
  }
  body.push_back(0); // no session id
  const uint16_t suites[] = {0x1301, 0x1302, 0x1303, 0xc02b,
                             0xc02f, 0xc02c, 0xc030};
  body.push_back(0);
  body.push_back(sizeof(suites));
  for (uint16_t c : suites) {
    body.push_back(c >> 8);
    body.push_back(c & 0xff);
  }
  body.push_back(1); // one compression method: null
  body.push_back(0);
  std::vector<uint8_t> ext = {
      0x00, 0x0a, 0x00, 0x06, 0x00, 0x04, 0x00, 0x1d, 0x00, 0x17, // groups
      0x00, 0x0b, 0x00, 0x02, 0x01, 0x00, // ec_point_formats
      0x00, 0x0d, 0x00, 0x0e, 0x00, 0x0c, 0x04, 0x03, 0x08, 0x04,
      0x04, 0x01, 0x05, 0x03, 0x08, 0x05, 0x05, 0x01, // signature_algorithms
      0x00, 0x2b, 0x00, 0x05, 0x04, 0x03, 0x04, 0x03, 0x03,        // versions
      0x00, 0x10, 0x00, 0x05, 0x00, 0x03, 0x02, 'h',  '2',         // ALPN
      0x00, 0x33, 0x00, 0x26, 0x00, 0x24, 0x00, 0x1d, 0x00, 0x20}; // x25519
  for (int i = 0; i < 32; ++i) { // any 32 bytes are an x25519 public key
    ext.push_back(static_cast<uint8_t>(i * 13 + 9));
  }
  body.push_back(static_cast<uint8_t>(ext.size() >> 8));
  body.push_back(static_cast<uint8_t>(ext.size() & 0xff));
  body.insert(body.end(), ext.begin(), ext.end());
  std::vector<uint8_t> hs = {0x01, 0, static_cast<uint8_t>(body.size() >> 8),
                             static_cast<uint8_t>(body.size() & 0xff)};
  hs.insert(hs.end(), body.begin(), body.end());
  std::vector<uint8_t> rec = {0x16, 0x03, 0x01,
                              static_cast<uint8_t>(hs.size() >> 8),
                              static_cast<uint8_t>(hs.size() & 0xff)};
  rec.insert(rec.end(), hs.begin(), hs.end());
  return rec;
}

} // namespace

TlsProbe probeTls(const std::string &address, int timeoutMs) {
  size_t colon = address.rfind(':');
  if (colon == std::string::npos) {
    return TlsProbe::Unknown;
  }
  std::string host = address.substr(0, colon);
  std::string port = address.substr(colon + 1);
  if (host.size() > 2 && host.front() == '[' && host.back() == ']') {
    host = host.substr(1, host.size() - 2);
  }
  addrinfo hints{};
  hints.ai_socktype = SOCK_STREAM;
  addrinfo *found = nullptr;
  if (::getaddrinfo(host.c_str(), port.c_str(), &hints, &found) != 0 ||
      !found) {
    return TlsProbe::Unknown;
  }
  TlsProbe result = TlsProbe::Unknown;
  int fd =
      ::socket(found->ai_family, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC,
               found->ai_protocol);
  if (fd >= 0) {
    pollfd p{fd, POLLOUT, 0};
    int rc = ::connect(fd, found->ai_addr, found->ai_addrlen);
    bool connected =
        rc == 0 || (errno == EINPROGRESS && ::poll(&p, 1, timeoutMs) == 1);
    int err = 0;
    socklen_t len = sizeof(err);
    if (connected && ::getsockopt(fd, SOL_SOCKET, SO_ERROR, &err, &len) == 0 &&
        err == 0) {
      std::vector<uint8_t> hello = clientHello();
      if (::send(fd, hello.data(), hello.size(), MSG_NOSIGNAL) ==
          static_cast<ssize_t>(hello.size())) {
        p = {fd, POLLIN, 0};
        uint8_t first = 0;
        if (::poll(&p, 1, timeoutMs) == 1) {
          ssize_t n = ::recv(fd, &first, 1, 0);
          // A reply that is a TLS record (handshake or alert) is TLS; a reply
          // of anything else, or a close without a word, is not.
          result = n == 1 && (first == 0x15 || first == 0x16)
                       ? TlsProbe::SpeaksTls
                       : TlsProbe::NotTls;
        }
      }
    }
    ::close(fd);
  }
  ::freeaddrinfo(found);
  return result;
}

} // namespace graphrt
