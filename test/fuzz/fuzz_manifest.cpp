//===- fuzz_manifest.cpp - libFuzzer target for manifest.json -------------===//
//
// parseManifest is what a worker and graph-run apply to a bundle they are
// handed: strict JSON, then the schema's validation (channels, signatures,
// files, placement). A manifest it accepts must also pass validateManifest
// again and survive readBundle from a directory.

#include "RuntimeFuzz.h"

#include "Manifest.h"

using namespace graphrt;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  std::string json(reinterpret_cast<const char *>(data), size);
  manifest::Manifest m;
  Status st = parseManifest(json, &m);
  if (!st.isOk()) {
    return 0;
  }
  if (Status again = validateManifest(m); !again.isOk()) {
    fuzz::broken(
        "parseManifest accepted a manifest validateManifest refuses: " +
        again.message());
  }
  return 0;
}
