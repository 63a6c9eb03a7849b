//===- fuzz_graphdef_import.cpp - GraphDef bytes through import and verify
//-===//

#include "ImportFuzz.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  return graphc::fuzz::importVerifyInfer(
      data, size, graphc::import::ModelFormat::GraphDefBinary, "model.pb");
}
