/* graphrt.h: the versioned C ABI between a compiled graphc task binary and the
 * runtime. */
/*
 * A task binary is a shared object that exports exactly one symbol,
 * `graphrt_task_descriptor_v1` (GRAPHRT_TASK_DESCRIPTOR_SYMBOL), of type
 * `graphrt_task_descriptor_v1_t`. The descriptor names the task's entry points
 * (init, step), the signatures of its inputs, outputs and variables, and the
 * communication it performs (channels it sends or receives on, collective
 * groups it joins). The runtime checks the descriptor against the job manifest
 * before it runs anything.
 *
 * The runtime hands the task a services table (`graphrt_services_v1_t`) and an
 * opaque context at every call. All communication, buffer allocation, logging
 * and cancellation go through that table, so the task binary links nothing of
 * the runtime: the same binary runs under graph-worker or a test harness that
 * fakes its peers.
 *
 * OWNERSHIP (the one rule for the whole header):
 *   - Whoever allocates a thing releases it. Memory from `buffer_allocate`
 *     is released with `buffer_release`; a non-OK status returned by a
 *     service is owned by the caller, who either returns it (handing it
 *     back to the runtime) or releases it with `status_release`.
 *   - Pointers passed *into* a call are borrowed for the duration of that call
 *     only, unless the function says otherwise.
 *   - Everything reachable from the descriptor is owned by the task binary and
 *     must stay valid until the library is unloaded (static storage).
 *   - Input, output and variable tensors passed to `init`/`step` are owned by
 *     the runtime. Variables persist across steps (they are what a checkpoint
 *     saves); inputs and outputs are valid only during one `step` call.
 *
 * THREADING: the runtime calls `init` once and then `step` serially, never
 * concurrently, on one thread per task. Services may be called only from the
 * thread that is executing `init`/`step` unless a service says otherwise.
 *
 * VERSIONING: a change that alters the layout of any struct below creates a new
 * `_v2` descriptor/services type and symbol; `GRAPHRT_ABI_VERSION` names the
 * version of this header.
 */
#ifndef GRAPHRT_GRAPHRT_H
#define GRAPHRT_GRAPHRT_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define GRAPHRT_ABI_VERSION 1
#define GRAPHRT_TASK_DESCRIPTOR_SYMBOL "graphrt_task_descriptor_v1"

#if defined(_WIN32)
#define GRAPHRT_EXPORT __declspec(dllexport)
#else
#define GRAPHRT_EXPORT __attribute__((visibility("default")))
#endif

/*===----------------------------------------------------------------------===*
 * Status
 *===----------------------------------------------------------------------===*/

/// Status codes; the values are gRPC's canonical codes, so converting at the
/// wire is the identity.
typedef enum graphrt_status_code_e {
  GRAPHRT_STATUS_OK = 0,
  GRAPHRT_STATUS_CANCELLED = 1,
  GRAPHRT_STATUS_UNKNOWN = 2,
  GRAPHRT_STATUS_INVALID_ARGUMENT = 3,
  GRAPHRT_STATUS_DEADLINE_EXCEEDED = 4,
  GRAPHRT_STATUS_NOT_FOUND = 5,
  GRAPHRT_STATUS_ALREADY_EXISTS = 6,
  GRAPHRT_STATUS_PERMISSION_DENIED = 7,
  GRAPHRT_STATUS_RESOURCE_EXHAUSTED = 8,
  GRAPHRT_STATUS_FAILED_PRECONDITION = 9,
  GRAPHRT_STATUS_ABORTED = 10,
  GRAPHRT_STATUS_OUT_OF_RANGE = 11,
  GRAPHRT_STATUS_UNIMPLEMENTED = 12,
  GRAPHRT_STATUS_INTERNAL = 13,
  GRAPHRT_STATUS_UNAVAILABLE = 14,
  GRAPHRT_STATUS_DATA_LOSS = 15,
  GRAPHRT_STATUS_UNAUTHENTICATED = 16,
} graphrt_status_code_t;

/// Opaque status handle. OK is the null pointer (zero); any other value is a
/// runtime-allocated object carrying a code and a message, created with
/// `graphrt_services_v1_t::status_create`.
typedef struct graphrt_status_s *graphrt_status_t;
#define GRAPHRT_OK ((graphrt_status_t)0)

/*===----------------------------------------------------------------------===*
 * Tensors and signatures
 *===----------------------------------------------------------------------===*/

/// Element types. The manifest spells them in lower case ("f32", "i64", ...).
typedef enum graphrt_dtype_e {
  GRAPHRT_DTYPE_INVALID = 0,
  GRAPHRT_DTYPE_F32 = 1,
  GRAPHRT_DTYPE_F64 = 2,
  GRAPHRT_DTYPE_I32 = 3,
  GRAPHRT_DTYPE_I64 = 4,
  GRAPHRT_DTYPE_U8 = 5,
  GRAPHRT_DTYPE_I8 = 6,
  GRAPHRT_DTYPE_BOOL = 7,
  GRAPHRT_DTYPE_F16 = 8,
  GRAPHRT_DTYPE_BF16 = 9,
  GRAPHRT_DTYPE_I16 = 10,
  GRAPHRT_DTYPE_U16 = 11,
  GRAPHRT_DTYPE_U32 = 12,
  GRAPHRT_DTYPE_U64 = 13,
  /* ONNX's small types, one element per byte: the float formats' bit
   * patterns in the low bits (zero above), the integers sign- (i4, i2) or
   * zero-extended (u4, u2) to 8 bits. */
  GRAPHRT_DTYPE_F8E4M3FN = 14,
  GRAPHRT_DTYPE_F8E4M3FNUZ = 15,
  GRAPHRT_DTYPE_F8E5M2 = 16,
  GRAPHRT_DTYPE_F8E5M2FNUZ = 17,
  GRAPHRT_DTYPE_F8E8M0 = 18,
  GRAPHRT_DTYPE_F4E2M1 = 19,
  GRAPHRT_DTYPE_I4 = 20,
  GRAPHRT_DTYPE_U4 = 21,
  GRAPHRT_DTYPE_I2 = 22,
  GRAPHRT_DTYPE_U2 = 23,
} graphrt_dtype_t;

/// Name, element type and static shape of an input, output, variable or
/// channel payload. All pointers are owned by the task binary (static).
/// Dimension 0 of an input or output may be -1: a batch of any size
/// (docs/design/dynamic-batch.md). The runtime then passes a
/// graphrt_tensor_t whose shape holds the batch given at run time (the same
/// for every batched input of the task) and allocates every batched output
/// with that batch; the task checks both before it runs.
typedef struct graphrt_tensor_signature_t {
  const char *name;
  graphrt_dtype_t dtype;
  int32_t rank;
  /* `rank` dimensions, each >= 0, except -1 in dimension 0 of a batched
   * input or output */
  const int64_t *shape;
} graphrt_tensor_signature_t;

/// A dense row-major tensor. `data` is borrowed; see OWNERSHIP.
typedef struct graphrt_tensor_t {
  graphrt_dtype_t dtype;
  int32_t rank;
  const int64_t *shape;
  void *data;
  size_t size_bytes;
} graphrt_tensor_t;

/*===----------------------------------------------------------------------===*
 * Communication declared by a task
 *===----------------------------------------------------------------------===*/

typedef enum graphrt_channel_direction_e {
  GRAPHRT_CHANNEL_SEND = 1,
  GRAPHRT_CHANNEL_RECV = 2,
} graphrt_channel_direction_t;

/// A point-to-point channel this task sends or receives on. `key` is the
/// rendezvous key (unique in the job); `peer` is the other task's name.
typedef struct graphrt_channel_t {
  const char *key;
  const char *peer;
  graphrt_channel_direction_t direction;
  graphrt_tensor_signature_t payload;
} graphrt_channel_t;

/// A collective group this task is a member of, by the group's name in the
/// manifest. Membership and rank order come from the manifest.
typedef struct graphrt_collective_group_t {
  const char *name;
} graphrt_collective_group_t;

typedef enum graphrt_reduce_op_e {
  GRAPHRT_REDUCE_SUM = 1,
  GRAPHRT_REDUCE_MEAN = 2,
  GRAPHRT_REDUCE_MAX = 3,
  GRAPHRT_REDUCE_MIN = 4,
} graphrt_reduce_op_t;

typedef enum graphrt_log_level_e {
  GRAPHRT_LOG_ERROR = 0,
  GRAPHRT_LOG_WARNING = 1,
  GRAPHRT_LOG_INFO = 2,
  GRAPHRT_LOG_DEBUG = 3,
} graphrt_log_level_t;

/*===----------------------------------------------------------------------===*
 * Services the runtime hands to a task
 *===----------------------------------------------------------------------===*/

/// Opaque per-task context; owned by the runtime, valid from `init` until the
/// task is unloaded.
typedef struct graphrt_context_s graphrt_context_t;

/*===----------------------------------------------------------------------===*
 * GPU services (tasks compiled with --target=cuda)
 *===----------------------------------------------------------------------===*/

/// Direction of a `gpu->memcpy`.
typedef enum graphrt_memcpy_kind_e {
  GRAPHRT_MEMCPY_HOST_TO_DEVICE = 1,
  GRAPHRT_MEMCPY_DEVICE_TO_HOST = 2,
  GRAPHRT_MEMCPY_DEVICE_TO_DEVICE = 3,
} graphrt_memcpy_kind_t;

/// The runtime's CUDA services for one task, reached through
/// `graphrt_services_v1_t::gpu` (null when the worker has no usable GPU; a
/// cuda task's `init` must then fail with FAILED_PRECONDITION, though the
/// runtime refuses such a task before loading it). The runtime loads the CUDA
/// driver, cuBLASLt and NCCL with dlopen, so neither it nor the task links
/// them. Streams, modules and functions are opaque handles (CUstream,
/// CUmodule, CUfunction underneath). Everything is asynchronous on `stream`
/// unless it says otherwise; errors carry the CUDA error's name. Calls come
/// from the task's thread only (see THREADING). Nothing here alters the
/// v1 layout: the table is appended to graphrt_services_v1_t, whose
/// `struct_size` tells a task whether the member exists.
typedef struct graphrt_gpu_services_t {
  /// sizeof(graphrt_gpu_services_t), so a task can detect appended members.
  size_t struct_size;
  /// The CUDA device ordinal the task runs on, and its compute capability
  /// (major * 10 + minor, 90 for sm_90).
  int32_t device_ordinal;
  int32_t compute_capability;
  /// The task's stream; it stays valid until the task is unloaded.
  void *stream;
  /// Loads a cubin, fatbin or NUL-terminated PTX image (borrowed) on the
  /// task's device into `*out_module`; PTX is JIT-compiled by the driver.
  graphrt_status_t (*module_load)(graphrt_context_t *ctx, const void *image,
                                  size_t size, void **out_module);
  void (*module_unload)(graphrt_context_t *ctx, void *module);
  graphrt_status_t (*module_get_function)(graphrt_context_t *ctx, void *module,
                                          const char *name,
                                          void **out_function);
  /// Launches `function` with `params` (an array of pointers to the
  /// arguments, as cuLaunchKernel takes them).
  graphrt_status_t (*launch)(graphrt_context_t *ctx, void *function,
                             int64_t grid_x, int64_t grid_y, int64_t grid_z,
                             int64_t block_x, int64_t block_y, int64_t block_z,
                             int32_t shared_bytes, void *stream, void **params);
  /// Blocks until the work queued on `stream` is done.
  graphrt_status_t (*stream_synchronize)(graphrt_context_t *ctx, void *stream);
  /// Stream-ordered device memory from the runtime's pool (at least 256-byte
  /// aligned); released with `memory_release` on the same stream.
  graphrt_status_t (*memory_allocate)(graphrt_context_t *ctx, size_t size,
                                      void *stream, void **out_device_ptr);
  void (*memory_release)(graphrt_context_t *ctx, void *device_ptr,
                         void *stream);
  graphrt_status_t (*memcpy)(graphrt_context_t *ctx, void *dst, const void *src,
                             size_t size, graphrt_memcpy_kind_t kind,
                             void *stream);
  graphrt_status_t (*memset)(graphrt_context_t *ctx, void *dst, uint8_t value,
                             size_t size, void *stream);
  /// Row-major (batched) GEMM on device pointers through cuBLASLt:
  /// C[b] = alpha * op(A[b]) x op(B[b]) + beta * C[b], op(A) m x k, op(B)
  /// k x n, C m x n, leading dimensions in elements, `batch` >= 1 matrices
  /// `stride_*` elements apart. dtype F32, F16 or BF16 (f32 accumulation).
  graphrt_status_t (*gemm)(graphrt_context_t *ctx, void *stream,
                           graphrt_dtype_t dtype, int32_t transpose_a,
                           int32_t transpose_b, int64_t m, int64_t n, int64_t k,
                           float alpha, const void *a, int64_t lda,
                           int64_t stride_a, const void *b, int64_t ldb,
                           int64_t stride_b, float beta, void *c, int64_t ldc,
                           int64_t stride_c, int64_t batch);
  /// Collectives on device buffers, semantics as the host ones in
  /// graphrt_services_v1_t: NCCL when every member of `group` has its own
  /// GPU, staged through host memory and the host collectives otherwise.
  graphrt_status_t (*all_reduce)(graphrt_context_t *ctx, const char *group,
                                 graphrt_reduce_op_t op, graphrt_dtype_t dtype,
                                 const void *input, void *output, size_t count,
                                 void *stream);
  graphrt_status_t (*all_gather)(graphrt_context_t *ctx, const char *group,
                                 graphrt_dtype_t dtype, const void *input,
                                 void *output, size_t count, void *stream);
  graphrt_status_t (*reduce_scatter)(graphrt_context_t *ctx, const char *group,
                                     graphrt_reduce_op_t op,
                                     graphrt_dtype_t dtype, const void *input,
                                     void *output, size_t count, void *stream);
} graphrt_gpu_services_t;

typedef struct graphrt_services_v1_t {
  /// sizeof(graphrt_services_v1_t), so a task can detect appended members.
  size_t struct_size;

  /// Creates a status with `code` (not OK) and a copy of `message` (borrowed,
  /// NUL-terminated, may be null). The caller owns the result. Thread-safe.
  graphrt_status_t (*status_create)(graphrt_status_code_t code,
                                    const char *message);
  /// Releases a status the caller owns; null is accepted. Thread-safe.
  void (*status_release)(graphrt_status_t status);
  /// Returns the code of `status` (borrowed); OK for null. Thread-safe.
  graphrt_status_code_t (*status_code)(graphrt_status_t status);

  /// Allocates `size` bytes aligned to `alignment` (a power of two, or 0 for
  /// 64) into `*out_ptr`; the caller owns it and frees it with
  /// `buffer_release`. Thread-safe.
  graphrt_status_t (*buffer_allocate)(graphrt_context_t *ctx, size_t size,
                                      size_t alignment, void **out_ptr);
  /// Releases memory from `buffer_allocate`; null is accepted. Thread-safe.
  void (*buffer_release)(graphrt_context_t *ctx, void *ptr);

  /// Sends `tensor` (borrowed; may be reused once this returns) on the
  /// channel with rendezvous `key`, which must be a SEND channel of this task
  /// whose payload signature matches. Returns once the peer's runtime holds
  /// the data; it does not wait for the peer to call `recv`.
  graphrt_status_t (*send)(graphrt_context_t *ctx, const char *key,
                           const graphrt_tensor_t *tensor);
  /// Receives into `tensor->data` (borrowed, `tensor->size_bytes` long) the
  /// tensor sent on the RECV channel `key` in the current step. Works whether
  /// the sender arrives first or last; fails with DEADLINE_EXCEEDED after the
  /// runtime's receive deadline and CANCELLED when the job is cancelled.
  graphrt_status_t (*recv)(graphrt_context_t *ctx, const char *key,
                           graphrt_tensor_t *tensor);

  /// Collectives over the group named `group`; every member must make the
  /// same sequence of collective calls on that group with the same `dtype`,
  /// `count` and `op`. `input` and `output` are borrowed and may alias only
  /// where stated. Counts are in elements.
  ///
  /// all_reduce: output[i] = op over ranks of input[i]; `count` elements;
  /// input may equal output.
  graphrt_status_t (*all_reduce)(graphrt_context_t *ctx, const char *group,
                                 graphrt_reduce_op_t op, graphrt_dtype_t dtype,
                                 const void *input, void *output, size_t count);
  /// all_gather: `input` has `count` elements; `output` has count * size
  /// elements, rank r's input at offset r * count.
  graphrt_status_t (*all_gather)(graphrt_context_t *ctx, const char *group,
                                 graphrt_dtype_t dtype, const void *input,
                                 void *output, size_t count);
  /// reduce_scatter: `input` has count * size elements; rank r's `output`
  /// (`count` elements) is block r of the element-wise reduction.
  graphrt_status_t (*reduce_scatter)(graphrt_context_t *ctx, const char *group,
                                     graphrt_reduce_op_t op,
                                     graphrt_dtype_t dtype, const void *input,
                                     void *output, size_t count);
  /// broadcast: the member at rank `root` sends its `buffer` (`count`
  /// elements) to every other member, which receives into its `buffer`.
  graphrt_status_t (*broadcast)(graphrt_context_t *ctx, const char *group,
                                int32_t root, graphrt_dtype_t dtype,
                                void *buffer, size_t count);
  /// all_to_all: `input` and `output` have count * size elements; block j of
  /// rank r's input becomes block r of rank j's output. No aliasing.
  graphrt_status_t (*all_to_all)(graphrt_context_t *ctx, const char *group,
                                 graphrt_dtype_t dtype, const void *input,
                                 void *output, size_t count);

  /// Rank of this task in `group` and the group's size, into `*out_rank` and
  /// `*out_size`. Thread-safe.
  graphrt_status_t (*group_rank)(graphrt_context_t *ctx, const char *group,
                                 int32_t *out_rank, int32_t *out_size);

  /// Writes `message` (borrowed) to the worker's log, tagged with the task.
  /// Thread-safe.
  void (*log)(graphrt_context_t *ctx, graphrt_log_level_t level,
              const char *message);
  /// Non-zero once the job has been cancelled; a long step should poll it and
  /// return a CANCELLED status. Thread-safe.
  int (*is_cancelled)(graphrt_context_t *ctx);

  /// Appended after the first release (check `struct_size` before reading):
  /// the GPU services of a cuda task, null for a cpu task or a worker
  /// without a usable GPU.
  const graphrt_gpu_services_t *gpu;

  /// Appended after `gpu` (check `struct_size` before reading): collectives
  /// that overlap the task's computation.
  ///
  /// all_reduce_start: starts the all_reduce that `all_reduce` would run
  /// with the same arguments and returns at once, setting `*out_request`
  /// (never 0 on success; 0 when it fails). The runtime runs it on its
  /// communication thread; until `wait` on the request returns, `input`
  /// must not be written and `output` neither read nor written. It counts
  /// as the group's next collective at the time of the start: every member
  /// must start (or call) the group's collectives in the same order. Started
  /// collectives run one at a time in start order; a blocking collective
  /// called while some are in flight runs after them. Once a started
  /// collective fails, those started after it are not run (their wait
  /// says which one failed).
  graphrt_status_t (*all_reduce_start)(graphrt_context_t *ctx,
                                       const char *group,
                                       graphrt_reduce_op_t op,
                                       graphrt_dtype_t dtype, const void *input,
                                       void *output, size_t count,
                                       uint64_t *out_request);
  /// Waits for a started collective and returns its status (the errors of
  /// the blocking call: a dead peer, the receive deadline, cancellation).
  /// Every started request must be waited on once before `step` returns,
  /// on its error paths too.
  graphrt_status_t (*wait)(graphrt_context_t *ctx, uint64_t request);
} graphrt_services_v1_t;

/*===----------------------------------------------------------------------===*
 * The task descriptor
 *===----------------------------------------------------------------------===*/

/// Called once after the runtime has allocated the variables (and filled those
/// with a weights file in the manifest); initialises the others. `variables`
/// is owned by the runtime and ordered as in the descriptor. Returns a status
/// the runtime takes ownership of.
typedef graphrt_status_t (*graphrt_task_init_fn_t)(
    graphrt_context_t *ctx, const graphrt_services_v1_t *services,
    graphrt_tensor_t *variables, size_t num_variables);

/// Runs step number `step` (0-based). `inputs` are read-only; `outputs` are
/// preallocated by the runtime from the output signatures; `variables` persist
/// across steps. All three are owned by the runtime.
typedef graphrt_status_t (*graphrt_task_step_fn_t)(
    graphrt_context_t *ctx, const graphrt_services_v1_t *services, int64_t step,
    const graphrt_tensor_t *inputs, size_t num_inputs,
    graphrt_tensor_t *outputs, size_t num_outputs, graphrt_tensor_t *variables,
    size_t num_variables);

/// Called after `init` and again after every write of the variables by the
/// runtime (a restore, a handover): recomputes what the task derives from
/// read-only variables only (a filter in the layout its kernel reads) into
/// storage of its own, so that `step` need not redo it. `variables` as for
/// `init`; the task must not write them.
typedef graphrt_status_t (*graphrt_task_prepare_fn_t)(
    graphrt_context_t *ctx, const graphrt_services_v1_t *services,
    graphrt_tensor_t *variables, size_t num_variables);

typedef struct graphrt_task_descriptor_v1_t {
  /// GRAPHRT_ABI_VERSION at the time the task was compiled.
  uint32_t abi_version;
  /// sizeof(graphrt_task_descriptor_v1_t) as the task saw it.
  uint32_t struct_size;
  /// The task's name; must match the manifest's task name.
  const char *name;

  graphrt_task_init_fn_t init; /* may be null: nothing to initialise */
  graphrt_task_step_fn_t step; /* required */

  size_t num_inputs;
  const graphrt_tensor_signature_t *inputs;
  size_t num_outputs;
  const graphrt_tensor_signature_t *outputs;
  size_t num_variables;
  const graphrt_tensor_signature_t *variables;

  size_t num_channels;
  const graphrt_channel_t *channels;
  size_t num_groups;
  const graphrt_collective_group_t *groups;

  /// Appended after the first release (a descriptor whose `struct_size` does
  /// not cover it has none): may be null.
  graphrt_task_prepare_fn_t prepare;
} graphrt_task_descriptor_v1_t;

/// Size in bytes of one element of `dtype`, or 0 for an invalid dtype.
static inline size_t graphrt_dtype_size(graphrt_dtype_t dtype) {
  switch (dtype) {
  case GRAPHRT_DTYPE_F64:
  case GRAPHRT_DTYPE_I64:
  case GRAPHRT_DTYPE_U64:
    return 8;
  case GRAPHRT_DTYPE_F32:
  case GRAPHRT_DTYPE_I32:
  case GRAPHRT_DTYPE_U32:
    return 4;
  case GRAPHRT_DTYPE_F16:
  case GRAPHRT_DTYPE_BF16:
  case GRAPHRT_DTYPE_I16:
  case GRAPHRT_DTYPE_U16:
    return 2;
  case GRAPHRT_DTYPE_U8:
  case GRAPHRT_DTYPE_I8:
  case GRAPHRT_DTYPE_BOOL:
  case GRAPHRT_DTYPE_F8E4M3FN:
  case GRAPHRT_DTYPE_F8E4M3FNUZ:
  case GRAPHRT_DTYPE_F8E5M2:
  case GRAPHRT_DTYPE_F8E5M2FNUZ:
  case GRAPHRT_DTYPE_F8E8M0:
  case GRAPHRT_DTYPE_F4E2M1:
  case GRAPHRT_DTYPE_I4:
  case GRAPHRT_DTYPE_U4:
  case GRAPHRT_DTYPE_I2:
  case GRAPHRT_DTYPE_U2:
    return 1;
  default:
    return 0;
  }
}

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* GRAPHRT_GRAPHRT_H */
