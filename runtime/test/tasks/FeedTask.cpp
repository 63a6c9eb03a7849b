// FeedTask.cpp: a two-task training-like job whose variables change every step,
// for --data and checkpoints. Built twice: -DFEED_READER and -DFEED_PS.
//
//   reader: inputs x f32[4,3], y i64[4] (a batch of 4 examples)
//           log[step % 16] = x[:,0] ++ y (which rows the step got)
//           w_r1 += colsum(x) (a replica's copy of ps's weight w)
//           loss = mean(x[:,0]); sends "g" = colsum(x) to ps
//   ps:     w += g; w/momentum = 0.5 * w/momentum + g (an optimizer slot)
//
// Every update is exact in f32 for the small integers the tests feed, so a
// run restored from a checkpoint must end bit-identical to one that was not.
#include "graphrt/graphrt.h"

#include "TestHooks.h"

namespace {

constexpr int64_t kBatch = 4, kFeatures = 3, kLogRows = 16,
                  kLogCols = 2 * kBatch;
const int64_t kShapeX[] = {kBatch, kFeatures};
const int64_t kShapeY[] = {kBatch};
const int64_t kShapeW[] = {kFeatures};
const int64_t kShapeLog[] = {kLogRows, kLogCols};

#ifdef FEED_READER
const char *const kName = "reader";
const graphrt_tensor_signature_t kInputs[] = {
    {"x", GRAPHRT_DTYPE_F32, 2, kShapeX}, {"y", GRAPHRT_DTYPE_I64, 1, kShapeY}};
constexpr size_t kNumInputs = 2;
const graphrt_tensor_signature_t kOutputs[] = {
    {"log_out", GRAPHRT_DTYPE_F32, 2, kShapeLog},
    {"loss", GRAPHRT_DTYPE_F32, 0, nullptr}};
const graphrt_tensor_signature_t kVariables[] = {
    {"log", GRAPHRT_DTYPE_F32, 2, kShapeLog},
    {"w_r1", GRAPHRT_DTYPE_F32, 1, kShapeW}};
const graphrt_channel_t kChannels[] = {
    {"g", "ps", GRAPHRT_CHANNEL_SEND, {"g", GRAPHRT_DTYPE_F32, 1, kShapeW}}};

graphrt_status_t step(graphrt_context_t *ctx, const graphrt_services_v1_t *s,
                      int64_t stepIndex, const graphrt_tensor_t *inputs, size_t,
                      graphrt_tensor_t *outputs, size_t,
                      graphrt_tensor_t *variables, size_t) {
  graphrtTestHooks(kName, stepIndex);
  const float *x = static_cast<const float *>(inputs[0].data);
  const int64_t *y = static_cast<const int64_t *>(inputs[1].data);
  float *log = static_cast<float *>(variables[0].data);
  float *w = static_cast<float *>(variables[1].data);
  float *row = log + (stepIndex % kLogRows) * kLogCols;
  float g[kFeatures] = {};
  float sum0 = 0;
  for (int64_t b = 0; b < kBatch; ++b) {
    row[b] = x[b * kFeatures];
    row[kBatch + b] = static_cast<float>(y[b]);
    sum0 += x[b * kFeatures];
    for (int64_t f = 0; f < kFeatures; ++f) {
      g[f] += x[b * kFeatures + f];
    }
  }
  for (int64_t f = 0; f < kFeatures; ++f) {
    w[f] += g[f];
  }
  float *logOut = static_cast<float *>(outputs[0].data);
  for (int64_t i = 0; i < kLogRows * kLogCols; ++i) {
    logOut[i] = log[i];
  }
  *static_cast<float *>(outputs[1].data) = sum0 / kBatch;
  graphrt_tensor_t t = {GRAPHRT_DTYPE_F32, 1, kShapeW, g, sizeof g};
  return s->send(ctx, "g", &t);
}
#else
const char *const kName = "ps";
const graphrt_tensor_signature_t *const kInputs = nullptr;
constexpr size_t kNumInputs = 0;
const graphrt_tensor_signature_t kOutputs[] = {
    {"w_out", GRAPHRT_DTYPE_F32, 1, kShapeW}};
const graphrt_tensor_signature_t kVariables[] = {
    {"w", GRAPHRT_DTYPE_F32, 1, kShapeW},
    {"w/momentum", GRAPHRT_DTYPE_F32, 1, kShapeW}};
const graphrt_channel_t kChannels[] = {{"g",
                                        "reader",
                                        GRAPHRT_CHANNEL_RECV,
                                        {"g", GRAPHRT_DTYPE_F32, 1, kShapeW}}};

graphrt_status_t step(graphrt_context_t *ctx, const graphrt_services_v1_t *s,
                      int64_t stepIndex, const graphrt_tensor_t *, size_t,
                      graphrt_tensor_t *outputs, size_t,
                      graphrt_tensor_t *variables, size_t) {
  graphrtTestHooks(kName, stepIndex);
  float g[kFeatures];
  graphrt_tensor_t t = {GRAPHRT_DTYPE_F32, 1, kShapeW, g, sizeof g};
  graphrt_status_t st = s->recv(ctx, "g", &t);
  if (st) {
    return st;
  }
  float *w = static_cast<float *>(variables[0].data);
  float *m = static_cast<float *>(variables[1].data);
  float *out = static_cast<float *>(outputs[0].data);
  for (int64_t f = 0; f < kFeatures; ++f) {
    w[f] += g[f];
    m[f] = 0.5f * m[f] + g[f];
    out[f] = w[f];
  }
  return GRAPHRT_OK;
}
#endif

} // namespace

#ifdef FEED_READER
#define FEED_PREPARE nullptr
#else
// The ps has a `prepare`; VariablesTest (SecurityTest.cpp) reads these to
// check that the runtime calls it after loading and after every write of
// the variables.
extern "C" GRAPHRT_EXPORT int graphrt_test_prepare_calls = 0;
extern "C" GRAPHRT_EXPORT float graphrt_test_prepared_w0 = 0;

namespace {
graphrt_status_t prepare(graphrt_context_t *, const graphrt_services_v1_t *,
                         graphrt_tensor_t *variables, size_t) {
  float w0 = static_cast<const float *>(variables[0].data)[0];
  __atomic_store(&graphrt_test_prepared_w0, &w0, __ATOMIC_RELEASE);
  __atomic_fetch_add(&graphrt_test_prepare_calls, 1, __ATOMIC_RELEASE);
  return GRAPHRT_OK;
}
} // namespace
#define FEED_PREPARE prepare
#endif

extern "C" GRAPHRT_EXPORT const graphrt_task_descriptor_v1_t
    graphrt_task_descriptor_v1 = {
        GRAPHRT_ABI_VERSION,
        sizeof(graphrt_task_descriptor_v1_t),
        kName,
        nullptr,
        step,
        kNumInputs,
        kInputs,
        sizeof kOutputs / sizeof kOutputs[0],
        kOutputs,
        sizeof kVariables / sizeof kVariables[0],
        kVariables,
        1,
        kChannels,
        0,
        nullptr,
        FEED_PREPARE,
};
