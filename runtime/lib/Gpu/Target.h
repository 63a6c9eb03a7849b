// Target.h: whether a task's compile target can run on this machine, checked
// before its library loads.
#ifndef GRAPHRT_LIB_GPU_TARGET_H
#define GRAPHRT_LIB_GPU_TARGET_H

#include "Status.h"
#include "manifest.pb.h"

namespace graphrt {

/// OK for a cpu task (target "" or "cpu") and for a cuda task on a machine
/// whose CUDA driver loads and sees a device; FAILED_PRECONDITION otherwise,
/// naming the task, its target, what is missing and the user doc to read.
/// A stablehlo task is never run here: it is a StableHLO module, not a
/// shared object.
Status checkTaskTarget(const manifest::Task &task);

/// Whether the task runs on a GPU (its target is "cuda").
inline bool isCudaTask(const manifest::Task &task) {
  return task.target() == "cuda";
}

} // namespace graphrt

#endif // GRAPHRT_LIB_GPU_TARGET_H
