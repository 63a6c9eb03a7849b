// Security.cpp: TLS credentials and the job token.
#include "Security.h"

#include <openssl/crypto.h>
#include <openssl/rand.h>

#include <cstdlib>
#include <fstream>
#include <sstream>

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

} // namespace graphrt
