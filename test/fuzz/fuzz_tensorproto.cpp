//===- fuzz_tensorproto.cpp - libFuzzer target for .pb (TensorProto) inputs
//===//
//
// readTensorProto reads graph-run's .pb inputs (the ONNX backend tests'
// input_N.pb) without linking ONNX. An array it accepts must hold exactly
// prod(shape) elements.

#include "RuntimeFuzz.h"

#include "TensorProto.h"

using namespace graphrt;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  std::string path = fuzz::writeInput(data, size, "in.pb");
  NpyArray a;
  if (!readTensorFile(path, &a).isOk()) {
    return 0;
  }
  fuzz::checkArraySize(a.dtype, a.shape, a.data.size(), "readTensorProto");
  return 0;
}
