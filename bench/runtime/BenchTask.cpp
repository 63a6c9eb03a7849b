// BenchTask.cpp: task libraries for the runtime benchmarks, built once per role
// (-DROLE_SEND, -DROLE_RECV, -DROLE_PING, -DROLE_PONG, -DROLE_ALLREDUCE with
// RANK). Sizes come from the environment at load time (graph-run's workers
// inherit it), so one build serves every size:
//   GRAPHRT_BENCH_BYTES   bytes per transfer (send/recv, ping/pong)
//   GRAPHRT_BENCH_COUNT   f32 elements per all-reduce
//   GRAPHRT_BENCH_ROUNDS  round trips per step (ping/pong)
// Each step does the measured work once; graph-run --metrics reports each
// task's in-worker step time. A one-element "check" output lets the driver
// verify the data moved.
#include "graphrt/graphrt.h"

#include <cstdlib>
#include <cstring>

namespace {

int64_t envInt(const char *name, int64_t fallback) {
  const char *v = std::getenv(name);
  return v ? std::atoll(v) : fallback;
}

int64_t gShape[1];
const int64_t kShape1[] = {1};
void *gBuffer = nullptr;
int64_t gRounds = 1;

graphrt_status_t ensureBuffer(graphrt_context_t *ctx,
                              const graphrt_services_v1_t *s, size_t bytes) {
  if (gBuffer) {
    return GRAPHRT_OK;
  }
  graphrt_status_t st = s->buffer_allocate(ctx, bytes, 64, &gBuffer);
  if (!st) {
    std::memset(gBuffer, 1, bytes); // touch every page before timing
  }
  return st;
}

#if defined(ROLE_SEND) || defined(ROLE_RECV) || defined(ROLE_PING) ||          \
    defined(ROLE_PONG)
constexpr graphrt_dtype_t kDType = GRAPHRT_DTYPE_U8;
#else
constexpr graphrt_dtype_t kDType = GRAPHRT_DTYPE_F32;
#endif

#if defined(ROLE_SEND)
const char *const kName = "send";
graphrt_channel_t gChannels[] = {
    {"data", "recv", GRAPHRT_CHANNEL_SEND, {"data", kDType, 1, gShape}}};
#elif defined(ROLE_RECV)
const char *const kName = "recv";
graphrt_channel_t gChannels[] = {
    {"data", "send", GRAPHRT_CHANNEL_RECV, {"data", kDType, 1, gShape}}};
#elif defined(ROLE_PING)
const char *const kName = "ping";
graphrt_channel_t gChannels[] = {
    {"ping", "pong", GRAPHRT_CHANNEL_SEND, {"ping", kDType, 1, gShape}},
    {"pong", "pong", GRAPHRT_CHANNEL_RECV, {"pong", kDType, 1, gShape}}};
#elif defined(ROLE_PONG)
const char *const kName = "pong";
graphrt_channel_t gChannels[] = {
    {"ping", "ping", GRAPHRT_CHANNEL_RECV, {"ping", kDType, 1, gShape}},
    {"pong", "ping", GRAPHRT_CHANNEL_SEND, {"pong", kDType, 1, gShape}}};
#elif defined(ROLE_ALLREDUCE)
#define STR2(x) #x
#define STR(x) STR2(x)
const char *const kName = "r" STR(RANK);
const graphrt_collective_group_t kGroups[] = {{"all"}};
#endif

const graphrt_tensor_signature_t kOutputs[] = {{"check_"
#if defined(ROLE_ALLREDUCE)
                                                STR(RANK)
#elif defined(ROLE_SEND)
                                                "send"
#elif defined(ROLE_RECV)
                                                "recv"
#elif defined(ROLE_PING)
                                                "ping"
#else
                                                "pong"
#endif
                                                    ,
                                                GRAPHRT_DTYPE_F32, 1, kShape1}};

graphrt_status_t step(graphrt_context_t *ctx, const graphrt_services_v1_t *s,
                      int64_t stepIndex, const graphrt_tensor_t *, size_t,
                      graphrt_tensor_t *outputs, size_t, graphrt_tensor_t *,
                      size_t) {
  size_t bytes = static_cast<size_t>(gShape[0]) * graphrt_dtype_size(kDType);
  graphrt_status_t st = ensureBuffer(ctx, s, bytes);
  if (st) {
    return st;
  }
  float *check = static_cast<float *>(outputs[0].data);
  [[maybe_unused]] auto *u8 = static_cast<unsigned char *>(gBuffer);
  [[maybe_unused]] graphrt_tensor_t t = {kDType, 1, gShape, gBuffer, bytes};
#if defined(ROLE_SEND)
  u8[0] = static_cast<unsigned char>(stepIndex);
  u8[bytes - 1] = static_cast<unsigned char>(stepIndex + 1);
  st = s->send(ctx, "data", &t);
  *check = u8[0];
#elif defined(ROLE_RECV)
  st = s->recv(ctx, "data", &t);
  *check = u8[0] + u8[bytes - 1];
#elif defined(ROLE_PING)
  for (int64_t r = 0; r < gRounds && !st; ++r) {
    u8[0] = static_cast<unsigned char>(r);
    st = s->send(ctx, "ping", &t);
    if (!st) {
      st = s->recv(ctx, "pong", &t);
    }
  }
  *check = u8[0];
#elif defined(ROLE_PONG)
  for (int64_t r = 0; r < gRounds && !st; ++r) {
    st = s->recv(ctx, "ping", &t);
    if (!st) {
      st = s->send(ctx, "pong", &t);
    }
  }
  *check = u8[0];
#else
  float *x = static_cast<float *>(gBuffer);
  for (int64_t i = 0; i < gShape[0]; i += 4096) {
    x[i] = RANK + 1; // fresh values each step: the sum is checkable
  }
  x[gShape[0] - 1] = RANK + 1;
  st = s->all_reduce(ctx, "all", GRAPHRT_REDUCE_SUM, kDType, x, x,
                     static_cast<size_t>(gShape[0]));
  *check = x[gShape[0] - 1];
#endif
  return st;
}

} // namespace

extern "C" GRAPHRT_EXPORT graphrt_task_descriptor_v1_t
    graphrt_task_descriptor_v1 = {
        GRAPHRT_ABI_VERSION,
        sizeof(graphrt_task_descriptor_v1_t),
        kName,
        nullptr,
        step,
        0,
        nullptr,
        1,
        kOutputs,
        0,
        nullptr,
#if defined(ROLE_ALLREDUCE)
        0,
        nullptr,
        1,
        kGroups,
#else
        sizeof gChannels / sizeof gChannels[0],
        gChannels,
        0,
        nullptr,
#endif
};

// The sizes are read before the worker looks at the descriptor.
__attribute__((constructor)) static void readSizes() {
#if defined(ROLE_ALLREDUCE)
  gShape[0] = envInt("GRAPHRT_BENCH_COUNT", 1 << 20);
#else
  gShape[0] = envInt("GRAPHRT_BENCH_BYTES", 4096);
#endif
  gRounds = envInt("GRAPHRT_BENCH_ROUNDS", 1);
}
