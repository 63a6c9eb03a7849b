// Security.h: mutual TLS and per-job token authentication for both gRPC
// services (graph-run -> worker control, worker <-> worker transport).
#ifndef GRAPHRT_LIB_SECURITY_H
#define GRAPHRT_LIB_SECURITY_H

#include "Status.h"

#include <grpcpp/grpcpp.h>

#include <memory>
#include <string>

namespace graphrt {

/// Metadata key that carries the job token on every call.
inline constexpr const char *kTokenMetadataKey = "x-graphrt-job-token";
/// Environment variable both tools read the job token from.
inline constexpr const char *kTokenEnv = "GRAPHRT_JOB_TOKEN";

/// How a process authenticates its calls and checks the calls it serves.
/// With TLS, every channel is mutual TLS against `caPem` (a peer without a
/// certificate signed by that CA cannot connect). A non-empty `token` is sent
/// on every call and required on every call served.
struct SecurityConfig {
  std::string certFile, keyFile, caFile; // paths, for passing on to workers
  std::string certPem, keyPem, caPem;
  std::string token;
  bool tls() const { return !certPem.empty(); }
  /// True when served calls are authenticated at all.
  bool authenticates() const { return tls() || !token.empty(); }
};

/// Reads the PEM files (all three or none) and the token: from `tokenFile`
/// when given, else from $GRAPHRT_JOB_TOKEN. Errors name the flag and file.
Status loadSecurity(const std::string &certFile, const std::string &keyFile,
                    const std::string &caFile, const std::string &tokenFile,
                    SecurityConfig *out);

/// 32 random bytes as 64 hex digits (OpenSSL's RAND_bytes).
std::string randomToken();

std::shared_ptr<grpc::ServerCredentials>
serverCredentials(const SecurityConfig &sec);
std::shared_ptr<grpc::ChannelCredentials>
channelCredentials(const SecurityConfig &sec);

/// Adds the job token to an outgoing call.
void authorize(grpc::ClientContext *ctx, const SecurityConfig &sec);

/// OK when a served call carries the job token (or no token is configured);
/// UNAUTHENTICATED otherwise. Constant-time comparison.
grpc::Status checkCaller(const grpc::ServerContext *ctx,
                         const SecurityConfig &sec);

/// What answers at `address` (HOST:PORT) when it is sent the start of a TLS
/// handshake: used only to explain a connection that failed, so that a TLS
/// worker reached without TLS (or the reverse) is reported as such instead
/// of as a timeout. Waits at most `timeoutMs` for each of connect and reply.
enum class TlsProbe { Unknown, SpeaksTls, NotTls };
TlsProbe probeTls(const std::string &address, int timeoutMs);

} // namespace graphrt

#endif // GRAPHRT_LIB_SECURITY_H
