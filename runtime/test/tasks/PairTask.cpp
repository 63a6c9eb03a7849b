// PairTask.cpp: a producer/consumer pair of test tasks that send and receive
// both ways every step. Built twice: -DPAIR_PRODUCER and -DPAIR_CONSUMER.
//
//   producer --"edge": 2*x + step (f32[N])--> consumer
//   producer <--"back": 10*step (i64[1])----- consumer
//   consumer: y = edge + 1; acc += edge (acc starts from a weights file);
//             loss = y[0] (a scalar graph-run reports every step)
#include "graphrt/graphrt.h"

#include "TestHooks.h"

#include <cstring>

namespace {

constexpr int64_t kN = 100000;
const int64_t kShapeN[] = {kN};
const int64_t kShape1[] = {1};

#ifdef PAIR_PRODUCER
const char *const kName = "producer";
const graphrt_tensor_signature_t kInputs[] = {
    {"x", GRAPHRT_DTYPE_F32, 1, kShapeN}};
const graphrt_tensor_signature_t kOutputs[] = {
    {"p_last", GRAPHRT_DTYPE_I64, 1, kShape1}};
const graphrt_channel_t kChannels[] = {
    {"edge",
     "consumer",
     GRAPHRT_CHANNEL_SEND,
     {"edge", GRAPHRT_DTYPE_F32, 1, kShapeN}},
    {"back",
     "consumer",
     GRAPHRT_CHANNEL_RECV,
     {"back", GRAPHRT_DTYPE_I64, 1, kShape1}},
};

graphrt_status_t step(graphrt_context_t *ctx, const graphrt_services_v1_t *s,
                      int64_t stepIndex, const graphrt_tensor_t *inputs, size_t,
                      graphrt_tensor_t *outputs, size_t, graphrt_tensor_t *,
                      size_t) {
  graphrtTestHooks(kName, stepIndex);
  void *buf = nullptr;
  graphrt_status_t st = s->buffer_allocate(ctx, kN * sizeof(float), 0, &buf);
  if (st) {
    return st;
  }
  const float *x = static_cast<const float *>(inputs[0].data);
  float *out = static_cast<float *>(buf);
  for (int64_t i = 0; i < kN; ++i) {
    out[i] = 2 * x[i] + static_cast<float>(stepIndex);
  }
  graphrt_tensor_t t = {GRAPHRT_DTYPE_F32, 1, kShapeN, buf, kN * sizeof(float)};
  if (!graphrtTestSkipSend(kName, stepIndex)) {
    st = s->send(ctx, "edge", &t);
  }
  s->buffer_release(ctx, buf);
  if (st) {
    return st;
  }
  graphrt_tensor_t back = outputs[0];
  return s->recv(ctx, "back", &back);
}

const graphrt_task_init_fn_t kInit = nullptr;
const graphrt_tensor_signature_t *const kVariables = nullptr;
constexpr size_t kNumVariables = 0;
#else
const char *const kName = "consumer";
const graphrt_tensor_signature_t kVariableSigs[] = {
    {"acc", GRAPHRT_DTYPE_F32, 1, kShapeN}};
const graphrt_tensor_signature_t *const kVariables = kVariableSigs;
constexpr size_t kNumVariables = 1;
const graphrt_tensor_signature_t kOutputs[] = {
    {"y", GRAPHRT_DTYPE_F32, 1, kShapeN},
    {"acc_out", GRAPHRT_DTYPE_F32, 1, kShapeN},
    {"loss", GRAPHRT_DTYPE_F32, 0, nullptr}};
const graphrt_channel_t kChannels[] = {
    {"edge",
     "producer",
     GRAPHRT_CHANNEL_RECV,
     {"edge", GRAPHRT_DTYPE_F32, 1, kShapeN}},
    {"back",
     "producer",
     GRAPHRT_CHANNEL_SEND,
     {"back", GRAPHRT_DTYPE_I64, 1, kShape1}},
};
const graphrt_tensor_signature_t *const kInputs = nullptr;

graphrt_status_t step(graphrt_context_t *ctx, const graphrt_services_v1_t *s,
                      int64_t stepIndex, const graphrt_tensor_t *, size_t,
                      graphrt_tensor_t *outputs, size_t,
                      graphrt_tensor_t *variables, size_t) {
  graphrtTestHooks(kName, stepIndex);
  // Receive straight into the output y, then finish it in place.
  graphrt_tensor_t y = outputs[0];
  graphrt_status_t st = s->recv(ctx, "edge", &y);
  if (st) {
    return st;
  }
  float *yv = static_cast<float *>(y.data);
  float *acc = static_cast<float *>(variables[0].data);
  float *accOut = static_cast<float *>(outputs[1].data);
  for (int64_t i = 0; i < kN; ++i) {
    acc[i] += yv[i];
    accOut[i] = acc[i];
    yv[i] += 1;
  }
  *static_cast<float *>(outputs[2].data) = yv[0];
  int64_t back = 10 * stepIndex;
  graphrt_tensor_t b = {GRAPHRT_DTYPE_I64, 1, kShape1, &back, sizeof back};
  return s->send(ctx, "back", &b);
}

graphrt_status_t init(graphrt_context_t *ctx, const graphrt_services_v1_t *s,
                      graphrt_tensor_t *variables, size_t n) {
  if (n != 1 || variables[0].size_bytes != kN * sizeof(float)) {
    return s->status_create(GRAPHRT_STATUS_INTERNAL, "unexpected variables");
  }
  s->log(ctx, GRAPHRT_LOG_DEBUG, "acc loaded from its weights file");
  return GRAPHRT_OK;
}
const graphrt_task_init_fn_t kInit = init;
#endif

} // namespace

extern "C" GRAPHRT_EXPORT const graphrt_task_descriptor_v1_t
    graphrt_task_descriptor_v1 = {
        GRAPHRT_ABI_VERSION,
        sizeof(graphrt_task_descriptor_v1_t),
        kName,
        kInit,
        step,
#ifdef PAIR_PRODUCER
        1,
#else
        0,
#endif
        kInputs,
        sizeof kOutputs / sizeof kOutputs[0],
        kOutputs,
        kNumVariables,
        kVariables,
        2,
        kChannels,
        0,
        nullptr,
};
