// GpuExchangeTask.cpp: rank RANK of a 2-task cuda job: sends its input to the
// peer, all-reduces it on the GPU. Built once per rank with -DRANK=r; written
// against graphrt.h only, like a compiled cuda task: it reaches the GPU through
// services->gpu and links nothing of CUDA. scripts/device-check.sh runs the job
// on the GPU machine.
#include "graphrt/graphrt.h"

#include "TestHooks.h"

#include <cstddef>

#define GRAPHRT_STR2(x) #x
#define GRAPHRT_STR(x) GRAPHRT_STR2(x)
#define TASK "g" GRAPHRT_STR(RANK)

namespace {

constexpr int64_t kCount = 1 << 16;
const int64_t kShape[] = {kCount};
const graphrt_tensor_signature_t kInputs[] = {
    {"x" GRAPHRT_STR(RANK), GRAPHRT_DTYPE_F32, 1, kShape}};
// The sum over both ranks (on the GPU), and the peer's input (over the
// channel).
const graphrt_tensor_signature_t kOutputs[] = {
    {TASK "_sum", GRAPHRT_DTYPE_F32, 1, kShape},
    {TASK "_peer", GRAPHRT_DTYPE_F32, 1, kShape}};
// The other task is the peer of both channels.
#define PEER (RANK == 0 ? "g1" : "g0")
const graphrt_channel_t kChannels[] = {
    {"g0_to_g1",
     PEER,
     RANK == 0 ? GRAPHRT_CHANNEL_SEND : GRAPHRT_CHANNEL_RECV,
     {"g0_to_g1", GRAPHRT_DTYPE_F32, 1, kShape}},
    {"g1_to_g0",
     PEER,
     RANK == 1 ? GRAPHRT_CHANNEL_SEND : GRAPHRT_CHANNEL_RECV,
     {"g1_to_g0", GRAPHRT_DTYPE_F32, 1, kShape}},
};
const graphrt_collective_group_t kGroups[] = {{"gpus"}};

graphrt_status_t step(graphrt_context_t *ctx, const graphrt_services_v1_t *s,
                      int64_t, const graphrt_tensor_t *in, size_t,
                      graphrt_tensor_t *out, size_t, graphrt_tensor_t *,
                      size_t) {
  const graphrt_gpu_services_t *gpu =
      s->struct_size >= offsetof(graphrt_services_v1_t, gpu) + sizeof(void *)
          ? s->gpu
          : nullptr;
  if (!gpu) {
    return s->status_create(GRAPHRT_STATUS_FAILED_PRECONDITION,
                            TASK " is a cuda task and got no GPU services");
  }
  CHECK(s->send(ctx, RANK == 0 ? "g0_to_g1" : "g1_to_g0", &in[0]));
  CHECK(s->recv(ctx, RANK == 0 ? "g1_to_g0" : "g0_to_g1", &out[1]));
  size_t bytes = kCount * sizeof(float);
  void *d = nullptr;
  CHECK(gpu->memory_allocate(ctx, bytes, gpu->stream, &d));
  CHECK(gpu->memcpy(ctx, d, in[0].data, bytes, GRAPHRT_MEMCPY_HOST_TO_DEVICE,
                    gpu->stream));
  CHECK(gpu->all_reduce(ctx, "gpus", GRAPHRT_REDUCE_SUM, GRAPHRT_DTYPE_F32, d,
                        d, kCount, gpu->stream));
  CHECK(gpu->memcpy(ctx, out[0].data, d, bytes, GRAPHRT_MEMCPY_DEVICE_TO_HOST,
                    gpu->stream));
  CHECK(gpu->stream_synchronize(ctx, gpu->stream));
  gpu->memory_release(ctx, d, gpu->stream);
  return GRAPHRT_OK;
}

} // namespace

extern "C" GRAPHRT_EXPORT const graphrt_task_descriptor_v1_t
    graphrt_task_descriptor_v1 = {
        GRAPHRT_ABI_VERSION,
        sizeof(graphrt_task_descriptor_v1_t),
        TASK,
        nullptr,
        step,
        1,
        kInputs,
        2,
        kOutputs,
        0,
        nullptr,
        2,
        kChannels,
        1,
        kGroups,
};
