// Manifest.h: reading, validating and verifying a job bundle's manifest.json.
#ifndef GRAPHRT_LIB_MANIFEST_H
#define GRAPHRT_LIB_MANIFEST_H

#include "Status.h"
#include "manifest.pb.h"

#include <cstdint>
#include <string>

namespace graphrt {

/// The only manifest format version this runtime reads.
constexpr int kManifestFormatVersion = 1;

/// Parses a dtype name ("f32"); GRAPHRT_DTYPE_INVALID if unknown.
graphrt_dtype_t parseDType(const std::string& name);
/// The manifest spelling of `dtype` ("f32"); "invalid" for unknown values.
const char* dtypeName(graphrt_dtype_t dtype);

/// Number of elements and bytes of a signature (validated beforehand).
int64_t numElements(const manifest::TensorSignature& sig);
int64_t byteSize(const manifest::TensorSignature& sig);
/// "f32[2,3]".
std::string describe(const manifest::TensorSignature& sig);

/// Parses manifest JSON strictly (unknown fields are errors) and validates it.
Status parseManifest(const std::string& json, manifest::Manifest* out);

/// Checks every invariant of docs/design/job-bundle.md that does not need the
/// files themselves.
Status validateManifest(const manifest::Manifest& m);

const manifest::Task* findTask(const manifest::Manifest& m,
                               const std::string& name);
const manifest::File* findFile(const manifest::Manifest& m,
                               const std::string& path);

/// A bundle read from disk.
struct Bundle {
  std::string dir;
  manifest::Manifest manifest;
  std::string manifestSha256;
};

/// Reads and validates `dir`/manifest.json. Does not hash the other files.
Status readBundle(const std::string& dir, Bundle* out);

/// Checks size and SHA-256 of bundle file `path` against the manifest;
/// PERMISSION_DENIED on a mismatch (the worker must not run it).
Status verifyBundleFile(const Bundle& bundle, const std::string& path);

} // namespace graphrt

#endif // GRAPHRT_LIB_MANIFEST_H
