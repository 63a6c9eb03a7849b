// Sha256.cpp: SHA-256 through OpenSSL's EVP interface.
#include "Sha256.h"

#include <openssl/evp.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <memory>
#include <vector>

namespace graphrt {
namespace {

std::string toHex(const unsigned char *digest, unsigned len) {
  static const char hex[] = "0123456789abcdef";
  std::string out(2 * len, '0');
  for (unsigned i = 0; i < len; ++i) {
    out[2 * i] = hex[digest[i] >> 4];
    out[2 * i + 1] = hex[digest[i] & 15];
  }
  return out;
}

struct MdCtxDeleter {
  void operator()(EVP_MD_CTX *ctx) const { EVP_MD_CTX_free(ctx); }
};

} // namespace

std::string sha256Hex(const void *data, size_t size) {
  unsigned char digest[EVP_MAX_MD_SIZE];
  unsigned len = 0;
  EVP_Digest(data, size, digest, &len, EVP_sha256(), nullptr);
  return toHex(digest, len);
}

Status sha256File(const std::string &path, std::string *out_hex) {
  std::unique_ptr<FILE, int (*)(FILE *)> file(std::fopen(path.c_str(), "rb"),
                                              &std::fclose);
  if (!file) {
    return Status(GRAPHRT_STATUS_NOT_FOUND,
                  "cannot open '" + path + "': " + std::strerror(errno));
  }
  std::unique_ptr<EVP_MD_CTX, MdCtxDeleter> ctx(EVP_MD_CTX_new());
  EVP_DigestInit_ex(ctx.get(), EVP_sha256(), nullptr);
  std::vector<unsigned char> buffer(1 << 16);
  size_t n;
  while ((n = std::fread(buffer.data(), 1, buffer.size(), file.get())) > 0) {
    EVP_DigestUpdate(ctx.get(), buffer.data(), n);
  }
  if (std::ferror(file.get())) {
    return Status(GRAPHRT_STATUS_DATA_LOSS, "error reading '" + path + "'");
  }
  unsigned char digest[EVP_MAX_MD_SIZE];
  unsigned len = 0;
  EVP_DigestFinal_ex(ctx.get(), digest, &len);
  *out_hex = toHex(digest, len);
  return Status::ok();
}

} // namespace graphrt
