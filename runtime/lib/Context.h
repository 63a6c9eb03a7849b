// Context.h: what a task's opaque graphrt_context_t holds in this runtime.
#ifndef GRAPHRT_LIB_CONTEXT_H
#define GRAPHRT_LIB_CONTEXT_H

namespace graphrt {
class LoadedTask;
namespace gpu {
class GpuTask;
} // namespace gpu
} // namespace graphrt

/// The worker's task, and its GPU state when the task is a cuda task; the
/// GPU services find their state here, so a test can drive them with a
/// context whose `task` is null.
struct graphrt_context_s {
  graphrt::LoadedTask *task;
  graphrt::gpu::GpuTask *gpu = nullptr;
};

#endif // GRAPHRT_LIB_CONTEXT_H
