//===- fuzz_safetensors.cpp - libFuzzer target for safetensors decoding ---===//
//
// decodeSafeTensors reads checkpoints (--restore) and weights. A file it
// accepts must have tensors whose data matches their shapes, and encoding
// the result and decoding that must give the same tensors and metadata.

#include "RuntimeFuzz.h"

#include "SafeTensors.h"

using namespace graphrt;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  SafeTensorsFile file;
  if (!decodeSafeTensors(
           std::string(reinterpret_cast<const char *>(data), size), &file)
           .isOk()) {
    return 0;
  }
  for (const SafeTensor &t : file.tensors) {
    fuzz::checkArraySize(t.dtype, t.shape, t.data.size(),
                         "decodeSafeTensors (tensor '" + t.name + "')");
  }
  std::string encoded;
  if (Status st = encodeSafeTensors(file, &encoded); !st.isOk()) {
    fuzz::broken("encodeSafeTensors refused a decoded file: " + st.message());
  }
  SafeTensorsFile again;
  if (Status st = decodeSafeTensors(encoded, &again); !st.isOk()) {
    fuzz::broken("re-encoded safetensors do not decode: " + st.message());
  }
  if (again.metadata != file.metadata ||
      again.tensors.size() != file.tensors.size()) {
    fuzz::broken("safetensors round trip changed the file");
  }
  for (size_t i = 0; i < file.tensors.size(); ++i) {
    const SafeTensor &a = file.tensors[i], &b = again.tensors[i];
    if (a.name != b.name || a.dtype != b.dtype || a.shape != b.shape ||
        a.data != b.data) {
      fuzz::broken("safetensors round trip changed tensor '" + a.name + "'");
    }
  }
  return 0;
}
