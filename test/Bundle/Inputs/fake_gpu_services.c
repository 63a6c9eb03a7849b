/* fake_gpu_services.c: runs a cuda task library's init and one step against
 * a fake GPU services table on host memory, printing every GPU call.
 *
 * usage: fake_gpu_services LIB.so [nogpu|oldgpu]
 * With nogpu, services->gpu is null; with oldgpu, the GPU table's
 * struct_size is too small: init must refuse both with FAILED_PRECONDITION,
 * whose message is printed. Otherwise init uploads the variables and the
 * step runs: module loads (fatbin or PTX), kernel launches (which do not run:
 * there is no GPU), GEMMs, copies and collectives are printed in order. */
#include "graphrt/graphrt.h"

#include <dlfcn.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct graphrt_status_s {
  graphrt_status_code_t code;
  char message[512];
};

static graphrt_status_t statusCreate(graphrt_status_code_t code,
                                     const char *message) {
  graphrt_status_t s = calloc(1, sizeof(*s));
  s->code = code;
  snprintf(s->message, sizeof(s->message), "%s", message ? message : "");
  return s;
}
static void statusRelease(graphrt_status_t s) { free(s); }
static graphrt_status_code_t statusCode(graphrt_status_t s) {
  return s ? s->code : GRAPHRT_STATUS_OK;
}

static int allocations;
static const char *kStream = "stream";

static graphrt_status_t moduleLoad(graphrt_context_t *c, const void *image,
                                   size_t size, void **out) {
  uint32_t magic;
  memcpy(&magic, image, sizeof(magic));
  const char *kind = magic == 0xBA55ED50u                           ? "fatbin"
                     : strstr((const char *)image, ".target sm_90") ? "ptx"
                                                                    : "other";
  printf("module_load %s\n", kind);
  *out = strdup(kind);
  return NULL;
}
static void moduleUnload(graphrt_context_t *c, void *m) { free(m); }
static graphrt_status_t getFunction(graphrt_context_t *c, void *m,
                                    const char *name, void **out) {
  *out = strdup(name);
  return NULL;
}
static graphrt_status_t launch(graphrt_context_t *c, void *fn, int64_t gx,
                               int64_t gy, int64_t gz, int64_t bx, int64_t by,
                               int64_t bz, int32_t smem, void *stream,
                               void **params) {
  printf("launch %s grid %lld block %lld%s\n", (const char *)fn, (long long)gx,
         (long long)bx, stream == kStream ? "" : " on another stream");
  return NULL;
}
static graphrt_status_t synchronize(graphrt_context_t *c, void *stream) {
  printf("synchronize\n");
  return NULL;
}
static graphrt_status_t memoryAllocate(graphrt_context_t *c, size_t size,
                                       void *stream, void **out) {
  ++allocations;
  *out = calloc(1, size);
  return NULL;
}
static void memoryRelease(graphrt_context_t *c, void *p, void *stream) {
  --allocations;
  free(p);
}
static graphrt_status_t copy(graphrt_context_t *c, void *dst, const void *src,
                             size_t size, graphrt_memcpy_kind_t kind,
                             void *stream) {
  printf("memcpy %s %zu\n",
         kind == GRAPHRT_MEMCPY_HOST_TO_DEVICE   ? "h2d"
         : kind == GRAPHRT_MEMCPY_DEVICE_TO_HOST ? "d2h"
                                                 : "d2d",
         size);
  memcpy(dst, src, size);
  return NULL;
}
static graphrt_status_t fill(graphrt_context_t *c, void *dst, uint8_t v,
                             size_t size, void *stream) {
  memset(dst, v, size);
  return NULL;
}
static graphrt_status_t gemm(graphrt_context_t *c, void *stream,
                             graphrt_dtype_t dtype, int32_t ta, int32_t tb,
                             int64_t m, int64_t n, int64_t k, float alpha,
                             const void *a, int64_t lda, int64_t sa,
                             const void *b, int64_t ldb, int64_t sb, float beta,
                             void *cc, int64_t ldc, int64_t sc, int64_t batch) {
  printf("gemm dtype %d %lldx%lldx%lld lda %lld ldb %lld ldc %lld batch %lld "
         "alpha %g beta %g\n",
         dtype, (long long)m, (long long)n, (long long)k, (long long)lda,
         (long long)ldb, (long long)ldc, (long long)batch, alpha, beta);
  return NULL;
}
static graphrt_status_t gpuAllReduce(graphrt_context_t *c, const char *g,
                                     graphrt_reduce_op_t op, graphrt_dtype_t d,
                                     const void *in, void *out, size_t n,
                                     void *stream) {
  printf("gpu all_reduce %s %zu\n", g, n);
  return NULL;
}
static graphrt_status_t gpuAllGather(graphrt_context_t *c, const char *g,
                                     graphrt_dtype_t d, const void *in,
                                     void *out, size_t n, void *stream) {
  printf("gpu all_gather %s %zu\n", g, n);
  return NULL;
}
static graphrt_status_t gpuReduceScatter(graphrt_context_t *c, const char *g,
                                         graphrt_reduce_op_t op,
                                         graphrt_dtype_t d, const void *in,
                                         void *out, size_t n, void *stream) {
  printf("gpu reduce_scatter %s %zu\n", g, n);
  return NULL;
}
static graphrt_status_t hostSend(graphrt_context_t *c, const char *key,
                                 const graphrt_tensor_t *t) {
  printf("host send %s %zu\n", key, t->size_bytes);
  return NULL;
}
static graphrt_status_t hostRecv(graphrt_context_t *c, const char *key,
                                 graphrt_tensor_t *t) {
  printf("host recv %s %zu\n", key, t->size_bytes);
  return NULL;
}
static graphrt_status_t hostAllReduce(graphrt_context_t *c, const char *g,
                                      graphrt_reduce_op_t op, graphrt_dtype_t d,
                                      const void *in, void *out, size_t n) {
  printf("host all_reduce %s (a cuda task must use the GPU one)\n", g);
  return NULL;
}

static graphrt_tensor_t *tensors(const graphrt_tensor_signature_t *sigs,
                                 size_t n) {
  graphrt_tensor_t *t = calloc(n ? n : 1, sizeof(graphrt_tensor_t));
  for (size_t i = 0; i < n; ++i) {
    size_t bytes = graphrt_dtype_size(sigs[i].dtype);
    for (int32_t d = 0; d < sigs[i].rank; ++d) {
      bytes *= (size_t)sigs[i].shape[d];
    }
    t[i].dtype = sigs[i].dtype;
    t[i].rank = sigs[i].rank;
    t[i].shape = sigs[i].shape;
    t[i].data = calloc(1, bytes ? bytes : 1);
    t[i].size_bytes = bytes;
  }
  return t;
}

static void release(graphrt_tensor_t *t, size_t n) {
  for (size_t i = 0; i < n; ++i) {
    free(t[i].data);
  }
  free(t);
}

static void report(const char *what, graphrt_status_t s) {
  if (!s) {
    printf("%s ok\n", what);
    return;
  }
  printf("%s failed: code %d: %s\n", what, s->code, s->message);
  free(s);
}

int main(int argc, char **argv) {
  void *lib = dlopen(argv[1], RTLD_NOW | RTLD_LOCAL);
  if (!lib) {
    fprintf(stderr, "%s\n", dlerror());
    return 2;
  }
  const char *mode = argc > 2 ? argv[2] : "";
  const graphrt_task_descriptor_v1_t *desc =
      dlsym(lib, GRAPHRT_TASK_DESCRIPTOR_SYMBOL);
  printf("task %s: init %s\n", desc->name, desc->init ? "yes" : "no");

  graphrt_gpu_services_t gpu;
  memset(&gpu, 0, sizeof(gpu));
  gpu.struct_size = strcmp(mode, "oldgpu") == 0 ? 16 : sizeof(gpu);
  gpu.compute_capability = 90;
  gpu.stream = (void *)kStream;
  gpu.module_load = moduleLoad;
  gpu.module_unload = moduleUnload;
  gpu.module_get_function = getFunction;
  gpu.launch = launch;
  gpu.stream_synchronize = synchronize;
  gpu.memory_allocate = memoryAllocate;
  gpu.memory_release = memoryRelease;
  gpu.memcpy = copy;
  gpu.memset = fill;
  gpu.gemm = gemm;
  gpu.all_reduce = gpuAllReduce;
  gpu.all_gather = gpuAllGather;
  gpu.reduce_scatter = gpuReduceScatter;

  graphrt_services_v1_t services;
  memset(&services, 0, sizeof(services));
  services.struct_size = sizeof(services);
  services.status_create = statusCreate;
  services.status_release = statusRelease;
  services.status_code = statusCode;
  services.send = hostSend;
  services.recv = hostRecv;
  services.all_reduce = hostAllReduce;
  services.gpu = strcmp(mode, "nogpu") == 0 ? NULL : &gpu;

  graphrt_tensor_t *in = tensors(desc->inputs, desc->num_inputs);
  graphrt_tensor_t *out = tensors(desc->outputs, desc->num_outputs);
  graphrt_tensor_t *vars = tensors(desc->variables, desc->num_variables);
  graphrt_status_t st =
      desc->init ? desc->init(NULL, &services, vars, desc->num_variables)
                 : NULL;
  int initFailed = st != NULL;
  report("init", st);
  if (!initFailed) {
    report("step", desc->step(NULL, &services, 0, in, desc->num_inputs, out,
                              desc->num_outputs, vars, desc->num_variables));
    /* Variables stay on the device: init's uploads are the only ones. */
    printf("live device buffers after the step: %d\n", allocations);
  }
  release(in, desc->num_inputs);
  release(out, desc->num_outputs);
  release(vars, desc->num_variables);
  dlclose(lib);
  return 0;
}
