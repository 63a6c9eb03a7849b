// Manifest.h: reading, validating and verifying a job bundle's manifest.json.
#ifndef GRAPHRT_LIB_MANIFEST_H
#define GRAPHRT_LIB_MANIFEST_H

#include "Status.h"
#include "graphrt/common/DType.h"
#include "graphrt/common/ManifestSchema.h"

#include <string>

namespace graphrt {

/// Parses manifest JSON strictly (unknown fields are errors) and validates
/// it; INVALID_ARGUMENT with a "manifest: " message on failure.
Status parseManifest(const std::string &json, manifest::Manifest *out);

/// checkManifest (graphrt/common/ManifestSchema.h) as a Status.
Status validateManifest(const manifest::Manifest &m);

/// A bundle read from disk.
struct Bundle {
  std::string dir;
  manifest::Manifest manifest;
  std::string manifestSha256;
};

/// Reads and validates `dir`/manifest.json. Does not hash the other files.
Status readBundle(const std::string &dir, Bundle *out);

/// A stablehlo task (graphc --target=tpu) is a StableHLO module for a PJRT
/// plugin, not a shared object: FAILED_PRECONDITION naming the task and
/// docs/user/tpu.md; OK for any other task.
Status refuseStablehloTask(const manifest::Task &task);

/// Checks size and SHA-256 of bundle file `path` against the manifest;
/// PERMISSION_DENIED on a mismatch (the worker must not run it).
Status verifyBundleFile(const Bundle &bundle, const std::string &path);

} // namespace graphrt

#endif // GRAPHRT_LIB_MANIFEST_H
