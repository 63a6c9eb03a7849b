//===- MachineModel.h - the machine the communication report assumes -*- C++
//-*-===//
//
// The few numbers the step-time estimate of `dist-report` needs: how fast one
// worker computes (GEMM-class FLOPs and memory-bound bytes, one thread) and
// how fast its link moves bytes. Read from JSON (`--machine-model`) or taken
// from the built-in default measured with `bash bench/run.sh machine-model`.
//
//===----------------------------------------------------------------------===//

#ifndef GRAPHC_ANALYSIS_MACHINEMODEL_H
#define GRAPHC_ANALYSIS_MACHINEMODEL_H

#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/JSON.h"

#include <string>

namespace graphc {

struct MachineModel {
  /// Where the numbers come from (the CPU, or "built-in default").
  std::string name;
  /// f32 FLOP/s of one worker thread on contraction ops (matmul, conv, ...)
  /// as graphc compiles them.
  double flopsPerSecond = 0;
  /// Bytes/s one worker thread reads plus writes on a memory-bound op.
  double memoryBytesPerSecond = 0;
  /// Payload bytes/s of one point-to-point link between two tasks.
  double linkBytesPerSecond = 0;
  /// Seconds from a send's start until a zero-byte message is received.
  double linkLatencySeconds = 0;
  /// Fraction of `flopsPerSecond` that an op reaches, by op name
  /// ("graph.conv": 0.8); ops not listed reach 1.
  llvm::StringMap<double> efficiency;
  /// Cores that all the job's tasks share, as on one machine running a
  /// local job (`graph-run --local`): while more tasks compute than there
  /// are cores, each one's compute takes tasks/cores times longer. 0 (the
  /// default, and a cluster) means every task has cores of its own. A
  /// model file gives a whole number; the scaling simulation charges one
  /// of R replicas with a share of cores/R, which may be a fraction.
  double sharedCores = 0;

  /// Seconds one op with this cost takes: a roofline, the larger of its
  /// FLOP time and its memory time.
  double opSeconds(llvm::StringRef opName, double flops, double bytes) const;
  /// Seconds a message of `bytes` takes on a link.
  double transferSeconds(double bytes) const {
    return linkLatencySeconds + bytes / linkBytesPerSecond;
  }

  /// The built-in model, measured on the machine graphc was developed on.
  static MachineModel getDefault();
  /// Parses a machine-model JSON document; `source` names it in errors,
  /// which also name the offending field.
  static llvm::Expected<MachineModel> fromJson(llvm::StringRef text,
                                               llvm::StringRef source);
  /// Reads and parses `path`.
  static llvm::Expected<MachineModel> fromFile(llvm::StringRef path);
  /// The JSON form `fromJson` reads.
  llvm::json::Object toJson() const;
};

} // namespace graphc

#endif // GRAPHC_ANALYSIS_MACHINEMODEL_H
