//===- fuzz_onnx_import.cpp - ONNX bytes through import, verify, infer ----===//

#include "ImportFuzz.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  return graphc::fuzz::importVerifyInfer(
      data, size, graphc::import::ModelFormat::Onnx, "model.onnx");
}
