// DataFeed.h: graph-run's --data: examples read from .npy/.csv files, cut into
// (shuffled) batches.
#ifndef GRAPHRT_LIB_DATAFEED_H
#define GRAPHRT_LIB_DATAFEED_H

#include "Status.h"
#include "graphrt/common/ManifestSchema.h"

#include <cstdint>
#include <string>
#include <vector>

namespace graphrt {

/// The examples of one --data file, laid out as the input they feed expects:
/// `examples` rows of `exampleBytes` raw little-endian bytes each.
struct DataFile {
  std::string input; // the job input it feeds
  std::string path;
  graphrt_dtype_t dtype = GRAPHRT_DTYPE_INVALID;
  int64_t examples = 0;
  size_t exampleBytes = 0;
  std::string data;
};

/// Reads `path` (.npy, or .csv with one example per row) as the examples of
/// job input `sig`, whose dimension 0 is the batch: a .npy must have
/// `sig`'s dtype and shape[1:]; a .csv must have prod(shape[1:]) numeric
/// columns per row (a first line that is not numeric is a header, skipped).
/// INVALID_ARGUMENT naming the file and the input on any mismatch, NOT_FOUND
/// for a missing file.
Status readDataFile(const manifest::TensorSignature &sig,
                    const std::string &path, DataFile *out);

/// Parses CSV `text` (from `path`, for messages) into rows of `columns`
/// numbers converted to `dtype` (f32, f64, signed and unsigned integers,
/// bool), appended to `*out` as raw bytes; `*rows` is the number of rows.
/// Blank lines are skipped.
Status parseCsv(const std::string &text, const std::string &path,
                const std::string &input, int64_t columns,
                graphrt_dtype_t dtype, std::string *out, int64_t *rows);

/// Where a feed stands: the epoch and the index, into that epoch's order, of
/// the next batch's first example. Always a position where a batch starts.
struct DataPosition {
  int64_t epoch = 0;
  int64_t index = 0;
  bool operator==(const DataPosition &o) const {
    return epoch == o.epoch && index == o.index;
  }
};

enum class PartialBatch { Drop, Pad };

/// The order in which `examples` examples are cut into batches of `batch`.
/// Epoch e visits the examples in a permutation that depends only on (seed,
/// e) (the identity when not shuffling); a last batch smaller than `batch`
/// is dropped, or padded with the first examples of the same epoch's order.
/// Not thread-safe (it caches the current epoch's order).
class Batcher {
public:
  /// Requires 1 <= batch <= examples.
  Batcher(int64_t examples, int64_t batch, uint64_t seed, bool shuffle,
          PartialBatch partial);

  int64_t batchesPerEpoch() const;
  /// Epoch `epoch`'s visiting order (a permutation of 0..examples-1).
  std::vector<int64_t> order(int64_t epoch) const;
  /// The example indices of the batch at `pos`; `*next` is where the
  /// following batch starts.
  std::vector<int64_t> batchAt(DataPosition pos, DataPosition *next);
  /// Position `pos` moved to the start of the next epoch when no batch
  /// starts there any more.
  DataPosition normalize(DataPosition pos) const;

private:
  int64_t examples_, batch_;
  uint64_t seed_;
  bool shuffle_;
  PartialBatch partial_;
  int64_t cachedEpoch_ = -1;
  std::vector<int64_t> cachedOrder_;
};

/// Rows `indices` of `file`, concatenated (the batch's raw bytes).
std::string gatherRows(const DataFile &file,
                       const std::vector<int64_t> &indices);

} // namespace graphrt

#endif // GRAPHRT_LIB_DATAFEED_H
