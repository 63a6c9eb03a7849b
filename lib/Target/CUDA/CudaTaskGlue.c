/*===- CudaTaskGlue.c - GPU glue linked into every cuda task library -----===*
 *
 * A cuda task (graphc --target=cuda) reaches the GPU only through the
 * runtime's graphrt_gpu_services_t table (docs/design/accelerators.md). Its
 * generated host code calls two kinds of functions defined here, all hidden
 * so that the task exports nothing but its descriptor and imports nothing
 * but libc:
 *
 *  - the `mgpu*` functions MLIR's gpu-to-llvm lowering and SelectObjectAttr
 *    emit for module loading and kernel launches (the names and signatures
 *    of mlir/lib/ExecutionEngine/CudaRuntimeWrappers.cpp), forwarding to the
 *    table kept in a task-global;
 *  - `graphc_cuda_*`, which graphc-cuda-device-buffers calls for device
 *    memory, uploads and downloads, resident variables and constants, GEMM
 *    through cuBLASLt, and the step's status.
 *
 * Errors: every call after the first failure of a step is skipped (a null
 * device pointer must not reach a kernel) and graphc_cuda_leave returns that
 * failure, so the step fails with the CUDA error the runtime named.
 *===----------------------------------------------------------------------===*/

#include "graphrt/graphrt.h"

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define HIDDEN __attribute__((visibility("hidden")))

static graphrt_context_t *g_ctx;
static const graphrt_services_v1_t *g_svc;
static const graphrt_gpu_services_t *g_gpu;
/* The first failure of the current step (or of init), owned here. */
static graphrt_status_t g_status;
/* The runtime's table with the collectives and transfers replaced by ones
 * that take device buffers: the dist lowering's service calls use it. */
static graphrt_services_v1_t g_wrapped;

/* Device copies of the variables (uploaded by init, resident) and of the
 * task's constants (uploaded at first use), per context. */
static void **g_vars;
static size_t g_num_vars;
static void **g_consts;
static size_t g_num_consts;

static void record(graphrt_status_t status) {
  if (!status) {
    return;
  }
  if (!g_status) {
    g_status = status;
  } else {
    g_svc->status_release(status);
  }
}

static void fail(graphrt_status_code_t code, const char *message) {
  if (g_svc) {
    record(g_svc->status_create(code, message));
  }
}

static int gpu_ok(void) { return g_gpu != NULL && g_status == NULL; }

/* FAILED_PRECONDITION unless `services` carries a complete GPU table. */
static graphrt_status_t check_gpu(const graphrt_services_v1_t *services) {
  if (services->struct_size <
          offsetof(graphrt_services_v1_t, gpu) + sizeof(void *) ||
      !services->gpu) {
    return services->status_create(
        GRAPHRT_STATUS_FAILED_PRECONDITION,
        "this task is compiled for cuda (graphc --target=cuda) and the "
        "runtime gave it no GPU services (services->gpu is absent or null); "
        "run the bundle with a graph-run or graph-worker that has a CUDA GPU "
        "(docs/user/gpu.md)");
  }
  if (services->gpu->struct_size < sizeof(graphrt_gpu_services_t)) {
    return services->status_create(
        GRAPHRT_STATUS_FAILED_PRECONDITION,
        "the runtime's GPU services table is smaller than the one this cuda "
        "task was compiled against; use a runtime at least as new as graphc");
  }
  return NULL;
}

static void bind(graphrt_context_t *ctx,
                 const graphrt_services_v1_t *services) {
  if (g_ctx != ctx) {
    /* Device memory of another context is not ours to use or free. */
    free(g_consts);
    g_consts = NULL;
    g_num_consts = 0;
  }
  g_ctx = ctx;
  g_svc = services;
  g_gpu = services->gpu;
}

/*===----------------------------------------------------------------------===*
 * Device memory
 *===----------------------------------------------------------------------===*/

HIDDEN void *graphc_cuda_alloc(int64_t bytes) {
  void *ptr = NULL;
  if (!gpu_ok()) {
    return NULL;
  }
  /* Zero-sized tensors still get a distinct, valid pointer. */
  record(g_gpu->memory_allocate(g_ctx, bytes > 0 ? (size_t)bytes : 1,
                                g_gpu->stream, &ptr));
  return ptr;
}

HIDDEN void graphc_cuda_free(void *ptr) {
  if (ptr && g_gpu) {
    g_gpu->memory_release(g_ctx, ptr, g_gpu->stream);
  }
}

static void copy(void *dst, const void *src, int64_t bytes,
                 graphrt_memcpy_kind_t kind) {
  if (gpu_ok() && bytes > 0) {
    record(g_gpu->memcpy(g_ctx, dst, src, (size_t)bytes, kind, g_gpu->stream));
  }
}

static void synchronize(void) {
  if (gpu_ok()) {
    record(g_gpu->stream_synchronize(g_ctx, g_gpu->stream));
  }
}

HIDDEN void *graphc_cuda_upload(const void *host, int64_t bytes) {
  void *dev = graphc_cuda_alloc(bytes);
  copy(dev, host, bytes, GRAPHRT_MEMCPY_HOST_TO_DEVICE);
  return dev;
}

HIDDEN void graphc_cuda_download(void *host, const void *dev, int64_t bytes) {
  copy(host, dev, bytes, GRAPHRT_MEMCPY_DEVICE_TO_HOST);
}

HIDDEN void *graphc_cuda_variable(int64_t index) {
  if (!gpu_ok()) {
    return NULL;
  }
  if (index < 0 || (size_t)index >= g_num_vars || !g_vars) {
    fail(GRAPHRT_STATUS_INTERNAL,
         "cuda task: a variable was used before init uploaded it");
    return NULL;
  }
  return g_vars[index];
}

HIDDEN void *graphc_cuda_constant(int64_t slot, const void *host,
                                  int64_t bytes) {
  if (!gpu_ok() || slot < 0) {
    return NULL;
  }
  if ((size_t)slot >= g_num_consts) {
    size_t n = (size_t)slot + 1;
    void **grown = (void **)realloc(g_consts, n * sizeof(void *));
    if (!grown) {
      fail(GRAPHRT_STATUS_RESOURCE_EXHAUSTED,
           "cuda task: out of host memory for the constant table");
      return NULL;
    }
    memset(grown + g_num_consts, 0, (n - g_num_consts) * sizeof(void *));
    g_consts = grown;
    g_num_consts = n;
  }
  if (!g_consts[slot]) {
    g_consts[slot] = graphc_cuda_upload(host, bytes);
  }
  return g_consts[slot];
}

/* Row-major C[b] += A[b] x B[b]: linalg's matmul accumulates into its
 * output, which the preceding fill (a kernel) initialised. */
HIDDEN void graphc_cuda_gemm(int32_t dtype, int32_t transpose_a,
                             int32_t transpose_b, int64_t m, int64_t n,
                             int64_t k, const void *a, int64_t lda,
                             int64_t stride_a, const void *b, int64_t ldb,
                             int64_t stride_b, void *c, int64_t ldc,
                             int64_t stride_c, int64_t batch) {
  if (!gpu_ok()) {
    return;
  }
  record(g_gpu->gemm(g_ctx, g_gpu->stream, (graphrt_dtype_t)dtype, transpose_a,
                     transpose_b, m, n, k, 1.0f, a, lda, stride_a, b, ldb,
                     stride_b, 1.0f, c, ldc, stride_c, batch));
}

/*===----------------------------------------------------------------------===*
 * Communication on device buffers
 *===----------------------------------------------------------------------===*/

static graphrt_status_t skipped(void) { return NULL; }

static graphrt_status_t gpu_all_reduce(graphrt_context_t *ctx,
                                       const char *group,
                                       graphrt_reduce_op_t op,
                                       graphrt_dtype_t dtype, const void *in,
                                       void *out, size_t count) {
  if (!gpu_ok()) {
    return skipped();
  }
  return g_gpu->all_reduce(ctx, group, op, dtype, in, out, count,
                           g_gpu->stream);
}

static graphrt_status_t gpu_all_gather(graphrt_context_t *ctx,
                                       const char *group, graphrt_dtype_t dtype,
                                       const void *in, void *out,
                                       size_t count) {
  if (!gpu_ok()) {
    return skipped();
  }
  return g_gpu->all_gather(ctx, group, dtype, in, out, count, g_gpu->stream);
}

static graphrt_status_t
gpu_reduce_scatter(graphrt_context_t *ctx, const char *group,
                   graphrt_reduce_op_t op, graphrt_dtype_t dtype,
                   const void *in, void *out, size_t count) {
  if (!gpu_ok()) {
    return skipped();
  }
  return g_gpu->reduce_scatter(ctx, group, op, dtype, in, out, count,
                               g_gpu->stream);
}

/* The table has no device send/recv, broadcast or all_to_all: those go
 * through host buffers around the host services. */
static void *host_buffer(size_t bytes) {
  void *ptr = malloc(bytes > 0 ? bytes : 1);
  if (!ptr) {
    fail(GRAPHRT_STATUS_RESOURCE_EXHAUSTED,
         "cuda task: out of host memory for a staged transfer");
  }
  return ptr;
}

static graphrt_status_t staged_send(graphrt_context_t *ctx, const char *key,
                                    const graphrt_tensor_t *tensor) {
  graphrt_tensor_t host = *tensor;
  void *buffer = host_buffer(tensor->size_bytes);
  if (!buffer) {
    return skipped();
  }
  graphc_cuda_download(buffer, tensor->data, (int64_t)tensor->size_bytes);
  synchronize();
  graphrt_status_t status = NULL;
  if (gpu_ok()) {
    host.data = buffer;
    status = g_svc->send(ctx, key, &host);
  }
  free(buffer);
  return status;
}

static graphrt_status_t staged_recv(graphrt_context_t *ctx, const char *key,
                                    graphrt_tensor_t *tensor) {
  graphrt_tensor_t host = *tensor;
  void *buffer = host_buffer(tensor->size_bytes);
  if (!buffer || !gpu_ok()) {
    free(buffer);
    return skipped();
  }
  host.data = buffer;
  graphrt_status_t status = g_svc->recv(ctx, key, &host);
  if (!status) {
    copy(tensor->data, buffer, (int64_t)tensor->size_bytes,
         GRAPHRT_MEMCPY_HOST_TO_DEVICE);
    synchronize();
  }
  free(buffer);
  return status;
}

static graphrt_status_t staged_broadcast(graphrt_context_t *ctx,
                                         const char *group, int32_t root,
                                         graphrt_dtype_t dtype, void *buffer,
                                         size_t count) {
  size_t bytes = count * graphrt_dtype_size(dtype);
  void *host = host_buffer(bytes);
  if (!host) {
    return skipped();
  }
  graphc_cuda_download(host, buffer, (int64_t)bytes);
  synchronize();
  graphrt_status_t status = NULL;
  if (gpu_ok()) {
    status = g_svc->broadcast(ctx, group, root, dtype, host, count);
    if (!status) {
      copy(buffer, host, (int64_t)bytes, GRAPHRT_MEMCPY_HOST_TO_DEVICE);
      synchronize();
    }
  }
  free(host);
  return status;
}

static graphrt_status_t staged_all_to_all(graphrt_context_t *ctx,
                                          const char *group,
                                          graphrt_dtype_t dtype,
                                          const void *input, void *output,
                                          size_t count) {
  int32_t rank = 0, size = 0;
  graphrt_status_t status = g_svc->group_rank(ctx, group, &rank, &size);
  if (status) {
    return status;
  }
  size_t bytes = count * (size_t)size * graphrt_dtype_size(dtype);
  void *in = host_buffer(bytes), *out = host_buffer(bytes);
  if (in && out) {
    graphc_cuda_download(in, input, (int64_t)bytes);
    synchronize();
    if (gpu_ok()) {
      status = g_svc->all_to_all(ctx, group, dtype, in, out, count);
      if (!status) {
        copy(output, out, (int64_t)bytes, GRAPHRT_MEMCPY_HOST_TO_DEVICE);
        synchronize();
      }
    }
  }
  free(in);
  free(out);
  return status;
}

/*===----------------------------------------------------------------------===*
 * Init and step
 *===----------------------------------------------------------------------===*/

/* The descriptor's init: checks the GPU table and uploads the variables,
 * which then stay on the device (step copies back only those it writes). */
HIDDEN graphrt_status_t graphc_task_init(graphrt_context_t *ctx,
                                         const graphrt_services_v1_t *services,
                                         graphrt_tensor_t *variables,
                                         size_t num_variables) {
  graphrt_status_t status = check_gpu(services);
  if (status) {
    return status;
  }
  bind(ctx, services);
  g_status = NULL;
  free(g_vars);
  g_vars = (void **)calloc(num_variables ? num_variables : 1, sizeof(void *));
  g_num_vars = num_variables;
  if (!g_vars) {
    return services->status_create(
        GRAPHRT_STATUS_RESOURCE_EXHAUSTED,
        "cuda task: out of host memory for the variable table");
  }
  for (size_t i = 0; i < num_variables; ++i) {
    g_vars[i] =
        graphc_cuda_upload(variables[i].data, (int64_t)variables[i].size_bytes);
  }
  synchronize();
  status = g_status;
  g_status = NULL;
  return status;
}

/* Start of a step: binds the tables; a missing GPU becomes the step's
 * status, and everything after it is skipped. */
HIDDEN void graphc_cuda_enter(graphrt_context_t *ctx,
                              const graphrt_services_v1_t *services) {
  g_status = NULL;
  graphrt_status_t status = check_gpu(services);
  g_ctx = ctx;
  g_svc = services;
  if (status) {
    g_gpu = NULL;
    g_status = status;
    return;
  }
  bind(ctx, services);
  size_t size = services->struct_size < sizeof(g_wrapped)
                    ? services->struct_size
                    : sizeof(g_wrapped);
  memset(&g_wrapped, 0, sizeof(g_wrapped));
  memcpy(&g_wrapped, services, size);
  g_wrapped.send = staged_send;
  g_wrapped.recv = staged_recv;
  g_wrapped.all_reduce = gpu_all_reduce;
  g_wrapped.all_gather = gpu_all_gather;
  g_wrapped.reduce_scatter = gpu_reduce_scatter;
  g_wrapped.broadcast = staged_broadcast;
  g_wrapped.all_to_all = staged_all_to_all;
  /* The runtime's started collectives take host buffers: without them the
   * dist lowering's start helper falls back to the blocking all_reduce
   * above. */
  g_wrapped.all_reduce_start = NULL;
  g_wrapped.wait = NULL;
}

HIDDEN const graphrt_services_v1_t *graphc_cuda_services(void) {
  return g_gpu ? &g_wrapped : g_svc;
}

/* End of a step: waits for the stream, and returns the first failure (the
 * run's own status wins: it came first). */
HIDDEN graphrt_status_t graphc_cuda_leave(graphrt_status_t run_status) {
  synchronize();
  graphrt_status_t status = g_status;
  g_status = NULL;
  if (run_status) {
    if (status) {
      g_svc->status_release(status);
    }
    return run_status;
  }
  return status;
}

/*===----------------------------------------------------------------------===*
 * MLIR's mgpu* entry points (CudaRuntimeWrappers.cpp signatures)
 *===----------------------------------------------------------------------===*/

/* SelectObjectAttr loads each gpu.module in a global constructor, which runs
 * at dlopen, before init has a context: record the image and load it on
 * first use. */
typedef struct lazy_module_t {
  const void *image;
  size_t size;
  graphrt_context_t *ctx;
  void *module;
} lazy_module_t;

HIDDEN void *mgpuModuleLoad(void *data, size_t size) {
  lazy_module_t *m = (lazy_module_t *)calloc(1, sizeof(lazy_module_t));
  if (m) {
    m->image = data;
    m->size = size;
  }
  return m;
}

/* PTX only (no ptxas at compile time): the driver JIT-compiles it. */
HIDDEN void *mgpuModuleLoadJIT(void *data, int opt_level) {
  (void)opt_level;
  return mgpuModuleLoad(data, strlen((const char *)data) + 1);
}

/* Runs at dlclose, when the context may be gone: the runtime's unload of
 * the task releases its modules with the context. */
HIDDEN void mgpuModuleUnload(void *module) { free(module); }

HIDDEN void *mgpuModuleGetFunction(void *module, const char *name) {
  lazy_module_t *m = (lazy_module_t *)module;
  void *function = NULL;
  if (!gpu_ok()) {
    return NULL;
  }
  if (!m) {
    fail(GRAPHRT_STATUS_RESOURCE_EXHAUSTED,
         "cuda task: out of host memory when its library was loaded");
    return NULL;
  }
  if (!m->module || m->ctx != g_ctx) {
    m->module = NULL;
    record(g_gpu->module_load(g_ctx, m->image, m->size, &m->module));
    m->ctx = g_ctx;
    if (!gpu_ok()) {
      m->module = NULL;
      return NULL;
    }
  }
  record(g_gpu->module_get_function(g_ctx, m->module, name, &function));
  return function;
}

HIDDEN void *mgpuStreamCreate(void) { return g_gpu ? g_gpu->stream : NULL; }

/* The stream is the task's, not the launch's. */
HIDDEN void mgpuStreamDestroy(void *stream) { (void)stream; }

/* MLIR synchronises after each synchronous launch; everything the task does
 * is ordered on its one stream and the host reads device memory only after
 * graphc_cuda_leave's synchronisation, so waiting here would only add a
 * round trip per kernel. */
HIDDEN void mgpuStreamSynchronize(void *stream) { (void)stream; }

HIDDEN void mgpuLaunchKernel(void *function, intptr_t grid_x, intptr_t grid_y,
                             intptr_t grid_z, intptr_t block_x,
                             intptr_t block_y, intptr_t block_z,
                             int32_t shared_bytes, void *stream, void **params,
                             void **extra, size_t param_count) {
  (void)extra;
  (void)param_count;
  if (!gpu_ok() || !function) {
    return;
  }
  record(g_gpu->launch(g_ctx, function, grid_x, grid_y, grid_z, block_x,
                       block_y, block_z, shared_bytes,
                       stream ? stream : g_gpu->stream, params));
}
