// CollectiveTask.cpp: rank RANK of a GROUP_SIZE-task group that runs every
// collective once per step on its input x<RANK> (f32[GROUP_SIZE * kBlock]).
// Built once per rank with -DRANK=r -DGROUP_SIZE=k.
#include "graphrt/graphrt.h"

#include "TestHooks.h"

#include <cstring>
#include <string>

#define GRAPHRT_STR2(x) #x
#define GRAPHRT_STR(x) GRAPHRT_STR2(x)
#define TASK "c" GRAPHRT_STR(RANK)

namespace {

// Odd, so all-reduce blocks are uneven across ranks.
constexpr int64_t kBlock = 1001;
constexpr int64_t kAll = GROUP_SIZE * kBlock;
const int64_t kShapeAll[] = {kAll};
const int64_t kShapeBlock[] = {kBlock};
constexpr int kBroadcastRoot = 1 % GROUP_SIZE;

const graphrt_tensor_signature_t kInputs[] = {
    {"x" GRAPHRT_STR(RANK), GRAPHRT_DTYPE_F32, 1, kShapeAll}};
enum { kSum, kMean, kMax, kMin, kGather, kScatter, kBcast, kA2A, kNumOutputs };
const graphrt_tensor_signature_t kOutputs[] = {
    {TASK "_sum", GRAPHRT_DTYPE_F32, 1, kShapeAll},
    {TASK "_mean", GRAPHRT_DTYPE_F32, 1, kShapeAll},
    {TASK "_max", GRAPHRT_DTYPE_F32, 1, kShapeAll},
    {TASK "_min", GRAPHRT_DTYPE_F32, 1, kShapeAll},
    {TASK "_gather", GRAPHRT_DTYPE_F32, 1, kShapeAll},
    {TASK "_scatter", GRAPHRT_DTYPE_F32, 1, kShapeBlock},
    {TASK "_bcast", GRAPHRT_DTYPE_F32, 1, kShapeAll},
    {TASK "_a2a", GRAPHRT_DTYPE_F32, 1, kShapeAll},
};
const graphrt_collective_group_t kGroups[] = {{"all"}};

graphrt_status_t step(graphrt_context_t *ctx, const graphrt_services_v1_t *s,
                      int64_t stepIndex, const graphrt_tensor_t *inputs, size_t,
                      graphrt_tensor_t *out, size_t, graphrt_tensor_t *,
                      size_t) {
  graphrtTestHooks(TASK, stepIndex);
  int32_t rank = -1, size = -1;
  CHECK(s->group_rank(ctx, "all", &rank, &size));
  if (rank != RANK || size != GROUP_SIZE) {
    return s->status_create(GRAPHRT_STATUS_INTERNAL,
                            ("rank " + std::to_string(rank) + " of " +
                             std::to_string(size) + ", expected " TASK)
                                .c_str());
  }
  const float *x = static_cast<const float *>(inputs[0].data);
  const graphrt_reduce_op_t ops[] = {GRAPHRT_REDUCE_SUM, GRAPHRT_REDUCE_MEAN,
                                     GRAPHRT_REDUCE_MAX, GRAPHRT_REDUCE_MIN};
  for (int i = 0; i < 4; ++i) {
    CHECK(s->all_reduce(ctx, "all", ops[i], GRAPHRT_DTYPE_F32, x,
                        out[kSum + i].data, kAll));
  }
  CHECK(s->all_gather(ctx, "all", GRAPHRT_DTYPE_F32, x, out[kGather].data,
                      kBlock));
  CHECK(s->reduce_scatter(ctx, "all", GRAPHRT_REDUCE_SUM, GRAPHRT_DTYPE_F32, x,
                          out[kScatter].data, kBlock));
  if (RANK == kBroadcastRoot) {
    std::memcpy(out[kBcast].data, x, kAll * sizeof(float));
  }
  CHECK(s->broadcast(ctx, "all", kBroadcastRoot, GRAPHRT_DTYPE_F32,
                     out[kBcast].data, kAll));
  CHECK(
      s->all_to_all(ctx, "all", GRAPHRT_DTYPE_F32, x, out[kA2A].data, kBlock));
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
        kNumOutputs,
        kOutputs,
        0,
        nullptr,
        0,
        nullptr,
        1,
        kGroups,
};
