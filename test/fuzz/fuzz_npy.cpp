//===- fuzz_npy.cpp - libFuzzer target for the .npy reader ----------------===//
//
// readNpy reads graph-run's --input and --data files. An array it accepts
// must hold exactly prod(shape) elements, and writing it back and reading
// that must give the same array.

#include "RuntimeFuzz.h"

#include "Npy.h"

using namespace graphrt;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  std::string path = fuzz::writeInput(data, size, "in.npy");
  NpyArray a;
  if (!readNpy(path, &a).isOk()) {
    return 0;
  }
  fuzz::checkArraySize(a.dtype, a.shape, a.data.size(), "readNpy");
  std::string again = fuzz::writeInput(nullptr, 0, "again.npy");
  if (!writeNpy(again, a).isOk()) {
    fuzz::broken("writeNpy refused an array readNpy returned");
  }
  NpyArray b;
  if (!readNpy(again, &b).isOk() || b.dtype != a.dtype || b.shape != a.shape ||
      b.data != a.data) {
    fuzz::broken(".npy round trip changed the array");
  }
  return 0;
}
