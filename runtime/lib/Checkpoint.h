// Checkpoint.h: graph-run's checkpoints: every task's variables, the step and
// the data position, in one safetensors file.
#ifndef GRAPHRT_LIB_CHECKPOINT_H
#define GRAPHRT_LIB_CHECKPOINT_H

#include "DataFeed.h"
#include "SafeTensors.h"

#include <string>
#include <utility>
#include <vector>

namespace graphrt {

/// What a checkpoint records besides the variables (its __metadata__).
struct CheckpointInfo {
  /// Steps completed: a resumed run starts at this step.
  int64_t step = 0;
  /// Where the next batch of --data starts.
  DataPosition position;
  uint64_t seed = 0;
  std::string manifestSha256;
};

/// How many checkpoints a directory keeps (older ones are removed once a
/// newer one is safely written).
inline constexpr int kCheckpointsKept = 3;

/// Writes DIR/ckpt-STEP.safetensors atomically (DIR/.ckpt-STEP.tmp,
/// fsync, rename, fsync DIR) holding `tensors` (named TASK/VARIABLE) and
/// `info`, with the sha256 of the data section; then removes all but the
/// newest kCheckpointsKept. `*outPath` is the file written.
Status writeCheckpoint(const std::string &dir, const CheckpointInfo &info,
                       std::vector<SafeTensor> tensors, std::string *outPath);

/// The newest checkpoint of `dir` that reads back whole, whose data matches
/// its sha256 and whose manifest sha256 is `manifestSha256`. Each newer file
/// that fails is listed in `*skipped` (path, why). NOT_FOUND when none is
/// valid (or the directory does not exist).
Status
findCheckpoint(const std::string &dir, const std::string &manifestSha256,
               SafeTensorsFile *out, CheckpointInfo *info, std::string *path,
               std::vector<std::pair<std::string, std::string>> *skipped);

} // namespace graphrt

#endif // GRAPHRT_LIB_CHECKPOINT_H
