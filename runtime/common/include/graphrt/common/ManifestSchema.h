// ManifestSchema.h: manifest.json's rules, parser and printer, one copy for
// graphc and graph-run.
#ifndef GRAPHRT_COMMON_MANIFESTSCHEMA_H
#define GRAPHRT_COMMON_MANIFESTSCHEMA_H

#include "manifest.pb.h"

#include <cstdint>
#include <string>

namespace graphrt {

/// The only manifest format version this runtime reads and graphc writes.
constexpr int kManifestFormatVersion = 1;

/// Number of elements and bytes of a signature (validated beforehand).
int64_t numElements(const manifest::TensorSignature &sig);
int64_t byteSize(const manifest::TensorSignature &sig);
/// "f32[2,3]".
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
