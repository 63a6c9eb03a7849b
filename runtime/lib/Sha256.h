// Sha256.h: SHA-256 digests of memory and files (OpenSSL's libcrypto).
#ifndef GRAPHRT_LIB_SHA256_H
#define GRAPHRT_LIB_SHA256_H

#include "Status.h"

#include <cstddef>
#include <string>

namespace graphrt {

/// Lower-case hex SHA-256 of `size` bytes at `data`.
std::string sha256Hex(const void *data, size_t size);

/// Lower-case hex SHA-256 of the file at `path` into `*out_hex`, read in
/// chunks; NOT_FOUND / DATA_LOSS on I/O errors.
Status sha256File(const std::string &path, std::string *out_hex);

} // namespace graphrt

#endif // GRAPHRT_LIB_SHA256_H
