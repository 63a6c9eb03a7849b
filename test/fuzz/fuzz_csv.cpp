//===- fuzz_csv.cpp - libFuzzer target for graph-run's --data .csv parser
//--===//
//
// The first byte picks the column count (1-16) and the second the element
// type; the rest is the CSV text. Accepted text must yield rows * columns
// elements of that type.

#include "RuntimeFuzz.h"

#include "DataFeed.h"

using namespace graphrt;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size < 2) {
    return 0;
  }
  static const graphrt_dtype_t kTypes[] = {
      GRAPHRT_DTYPE_F32, GRAPHRT_DTYPE_F64,  GRAPHRT_DTYPE_I8,
      GRAPHRT_DTYPE_I16, GRAPHRT_DTYPE_I32,  GRAPHRT_DTYPE_I64,
      GRAPHRT_DTYPE_U8,  GRAPHRT_DTYPE_BOOL, GRAPHRT_DTYPE_F16};
  int64_t columns = 1 + data[0] % 16;
  graphrt_dtype_t dtype = kTypes[data[1] % (sizeof kTypes / sizeof *kTypes)];
  std::string text(reinterpret_cast<const char *>(data + 2), size - 2);
  std::string out;
  int64_t rows = 0;
  if (!parseCsv(text, "fuzz.csv", "x", columns, dtype, &out, &rows).isOk()) {
    return 0;
  }
  if (rows < 0 ||
      out.size() != uint64_t(rows) * columns * graphrt_dtype_size(dtype)) {
    fuzz::broken("parseCsv returned " + std::to_string(out.size()) +
                 " bytes for " + std::to_string(rows) + " rows");
  }
  return 0;
}
