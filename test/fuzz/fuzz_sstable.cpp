//===- fuzz_sstable.cpp - libFuzzer target for checkpoint index tables ----===//

#include "FuzzCommon.h"

#include "graphc/Import/TF/TensorBundle.h"

#include <cstddef>
#include <cstdint>

using namespace graphc;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  llvm::StringRef bytes(reinterpret_cast<const char *>(data), size);
  auto table = import::readSSTable(bytes, "fuzz.index");
  if (!table) {
    llvm::consumeError(table.takeError());
  }
  auto plain = import::decompressSnappy(bytes, 1 << 20);
  if (!plain) {
    llvm::consumeError(plain.takeError());
  }
  return 0;
}
