// ManifestSchema.h: manifest.json's rules, parser and printer, one copy for
// graphc and graph-run.
#ifndef GRAPHRT_COMMON_MANIFESTSCHEMA_H
#define GRAPHRT_COMMON_MANIFESTSCHEMA_H

#include "manifest.pb.h"

#include <cstdint>
#include <string>
#include <vector>

namespace graphrt {

/// The only manifest format version this runtime reads and graphc writes.
constexpr int kManifestFormatVersion = 1;

/// Dimension 0 of a task's input or output may be -1: a batch of any size
/// (docs/design/dynamic-batch.md). The runtime feeds any batch and sizes the
/// batched outputs with the inputs' batch.
constexpr int64_t kBatchDim = -1;

/// Number of elements and bytes of a signature (validated beforehand; for a
/// batched signature, of one sample).
int64_t numElements(const manifest::TensorSignature &sig);
int64_t byteSize(const manifest::TensorSignature &sig);
/// True when dimension 0 of `sig` is kBatchDim.
bool isBatched(const manifest::TensorSignature &sig);
/// True when `shape` is `sig`'s shape, any batch >= 0 standing for -1.
bool matchesSignature(const manifest::TensorSignature &sig,
                      const std::vector<int64_t> &shape);
/// "f32[2,3]"; a batched dimension is "N".
std::string describe(const manifest::TensorSignature &sig);

const manifest::Task *findTask(const manifest::Manifest &m,
                               const std::string &name);
const manifest::File *findFile(const manifest::Manifest &m,
                               const std::string &path);

/// Checks every invariant of docs/design/job-bundle.md that does not need the
/// files themselves. Returns false and sets `error` (without a "manifest:"
/// prefix) on the first violation.
bool checkManifest(const manifest::Manifest &m, std::string *error);

/// Parses manifest JSON strictly (unknown fields are errors), then
/// checkManifest. Returns false and sets `error` on failure.
bool parseManifestJson(const std::string &json, manifest::Manifest *out,
                       std::string *error);

/// The proto3 JSON form of `m` as manifest.json holds it: proto field names,
/// indented, fields at their default value left out (64-bit integers are
/// quoted, as the proto3 JSON mapping says; parseManifestJson reads both).
std::string printManifestJson(const manifest::Manifest &m);

} // namespace graphrt

#endif // GRAPHRT_COMMON_MANIFESTSCHEMA_H
