// GpuTask.cpp: the GPU services of a cuda task over the dlopen'ed driver,
// cuBLASLt and NCCL.
#include "Gpu/GpuTask.h"

#include "Context.h"

#include <unistd.h>

#include <atomic>
#include <climits>
#include <cstring>
#include <set>

namespace graphrt::gpu {
namespace {

constexpr size_t kGemmWorkspaceBytes = 32u << 20;

GpuTask *gpuOf(graphrt_context_t *ctx) { return ctx ? ctx->gpu : nullptr; }

Status noGpu() {
  return Status(GRAPHRT_STATUS_FAILED_PRECONDITION,
                "this task has no GPU state (not a cuda task)");
}

// The services table: each entry finds the task's GpuTask in its context.
template <typename Fn> graphrt_status_t forward(graphrt_context_t *ctx, Fn fn) {
  GpuTask *g = gpuOf(ctx);
  return (g ? fn(*g) : noGpu()).toC();
}

graphrt_status_t svcModuleLoad(graphrt_context_t *ctx, const void *image,
                               size_t size, void **out) {
  return forward(ctx,
                 [&](GpuTask &g) { return g.moduleLoad(image, size, out); });
}
void svcModuleUnload(graphrt_context_t *ctx, void *module) {
  if (GpuTask *g = gpuOf(ctx)) {
    g->moduleUnload(module);
  }
}
graphrt_status_t svcModuleGetFunction(graphrt_context_t *ctx, void *module,
                                      const char *name, void **out) {
  return forward(
      ctx, [&](GpuTask &g) { return g.moduleGetFunction(module, name, out); });
}
graphrt_status_t svcLaunch(graphrt_context_t *ctx, void *function, int64_t gx,
                           int64_t gy, int64_t gz, int64_t bx, int64_t by,
                           int64_t bz, int32_t shared, void *stream,
                           void **params) {
  const int64_t grid[3] = {gx, gy, gz}, block[3] = {bx, by, bz};
  return forward(ctx, [&](GpuTask &g) {
    return g.launch(function, grid, block, shared, stream, params);
  });
}
graphrt_status_t svcStreamSynchronize(graphrt_context_t *ctx, void *stream) {
  return forward(ctx, [&](GpuTask &g) { return g.synchronize(stream); });
}
graphrt_status_t svcMemoryAllocate(graphrt_context_t *ctx, size_t size,
                                   void *stream, void **out) {
  return forward(ctx,
                 [&](GpuTask &g) { return g.allocate(size, stream, out); });
}
void svcMemoryRelease(graphrt_context_t *ctx, void *ptr, void *stream) {
  if (GpuTask *g = gpuOf(ctx)) {
    g->release(ptr, stream);
  }
}
graphrt_status_t svcMemcpy(graphrt_context_t *ctx, void *dst, const void *src,
                           size_t size, graphrt_memcpy_kind_t kind,
                           void *stream) {
  return forward(
      ctx, [&](GpuTask &g) { return g.copy(dst, src, size, kind, stream); });
}
graphrt_status_t svcMemset(graphrt_context_t *ctx, void *dst, uint8_t value,
                           size_t size, void *stream) {
  return forward(ctx,
                 [&](GpuTask &g) { return g.fill(dst, value, size, stream); });
}
graphrt_status_t svcGemm(graphrt_context_t *ctx, void *stream,
                         graphrt_dtype_t dtype, int32_t ta, int32_t tb,
                         int64_t m, int64_t n, int64_t k, float alpha,
                         const void *a, int64_t lda, int64_t sa, const void *b,
                         int64_t ldb, int64_t sb, float beta, void *c,
                         int64_t ldc, int64_t sc, int64_t batch) {
  return forward(ctx, [&](GpuTask &g) {
    return g.gemm(stream, dtype, ta, tb, m, n, k, alpha, a, lda, sa, b, ldb, sb,
                  beta, c, ldc, sc, batch);
  });
}
graphrt_status_t svcAllReduce(graphrt_context_t *ctx, const char *group,
                              graphrt_reduce_op_t op, graphrt_dtype_t dtype,
                              const void *in, void *out, size_t count,
                              void *stream) {
  return forward(ctx, [&](GpuTask &g) {
    return g.collective(ctx, GpuTask::Collective::AllReduce, group, op, dtype,
                        in, out, count, stream);
  });
}
graphrt_status_t svcAllGather(graphrt_context_t *ctx, const char *group,
                              graphrt_dtype_t dtype, const void *in, void *out,
                              size_t count, void *stream) {
  return forward(ctx, [&](GpuTask &g) {
    return g.collective(ctx, GpuTask::Collective::AllGather, group,
                        GRAPHRT_REDUCE_SUM, dtype, in, out, count, stream);
  });
}
graphrt_status_t svcReduceScatter(graphrt_context_t *ctx, const char *group,
                                  graphrt_reduce_op_t op, graphrt_dtype_t dtype,
                                  const void *in, void *out, size_t count,
                                  void *stream) {
  return forward(ctx, [&](GpuTask &g) {
    return g.collective(ctx, GpuTask::Collective::ReduceScatter, group, op,
                        dtype, in, out, count, stream);
  });
}

CUdeviceptr dptr(const void *p) {
  return static_cast<CUdeviceptr>(reinterpret_cast<uintptr_t>(p));
}

int cudaDataType(graphrt_dtype_t dtype) {
  switch (dtype) {
  case GRAPHRT_DTYPE_F32:
    return CUDA_R_32F;
  case GRAPHRT_DTYPE_F16:
    return CUDA_R_16F;
  case GRAPHRT_DTYPE_BF16:
    return CUDA_R_16BF;
  default:
    return -1;
  }
}

int ncclDataType(graphrt_dtype_t dtype) {
  switch (dtype) {
  case GRAPHRT_DTYPE_F32:
    return ncclFloat32;
  case GRAPHRT_DTYPE_F64:
    return ncclFloat64;
  case GRAPHRT_DTYPE_F16:
    return ncclFloat16;
  case GRAPHRT_DTYPE_BF16:
    return ncclBfloat16;
  case GRAPHRT_DTYPE_I32:
    return ncclInt32;
  case GRAPHRT_DTYPE_I64:
    return ncclInt64;
  case GRAPHRT_DTYPE_U32:
    return ncclUint32;
  case GRAPHRT_DTYPE_U64:
    return ncclUint64;
  case GRAPHRT_DTYPE_I8:
    return ncclInt8;
  case GRAPHRT_DTYPE_U8:
  case GRAPHRT_DTYPE_BOOL:
    return ncclUint8;
  default:
    return -1;
  }
}

int ncclReduceOp(graphrt_reduce_op_t op) {
  switch (op) {
  case GRAPHRT_REDUCE_SUM:
    return ncclSum;
  case GRAPHRT_REDUCE_MEAN:
    return ncclAvg;
  case GRAPHRT_REDUCE_MAX:
    return ncclMax;
  case GRAPHRT_REDUCE_MIN:
    return ncclMin;
  }
  return -1;
}

const char *collectiveName(GpuTask::Collective kind) {
  switch (kind) {
  case GpuTask::Collective::AllReduce:
    return "all_reduce";
  case GpuTask::Collective::AllGather:
    return "all_gather";
  case GpuTask::Collective::ReduceScatter:
    return "reduce_scatter";
  }
  return "collective";
}

} // namespace

int deviceOrdinalFor(const std::string &device, int deviceCount) {
  size_t at = device.rfind(":GPU:");
  int ordinal = 0;
  if (at != std::string::npos) {
    ordinal = std::atoi(device.c_str() + at + 5);
  }
  return deviceCount > 0 ? (ordinal < 0 ? 0 : ordinal % deviceCount) : 0;
}

bool groupUsesNccl(const std::vector<DeviceRecord> &members) {
  std::set<std::pair<std::string, std::string>> devices;
  for (const DeviceRecord &r : members) {
    std::string host(r.host, strnlen(r.host, sizeof(r.host)));
    std::string bus(r.busId, strnlen(r.busId, sizeof(r.busId)));
    if (!r.ncclAvailable || !devices.insert({host, bus}).second) {
      return false;
    }
  }
  return members.size() > 1;
}

GemmLayout columnMajorGemm(int32_t ta, int32_t tb, int64_t m, int64_t n,
                           int64_t k, int64_t lda, int64_t ldb, int64_t ldc) {
  // A row-major matrix read as column-major is its transpose, so the
  // row-major C = op(A) op(B) is the column-major C^T = op(B)^T op(A)^T:
  // cuBLASLt multiplies our B (n x k after op) by our A (k x m after op).
  GemmLayout l;
  l.transA = tb ? CUBLAS_OP_T : CUBLAS_OP_N;
  l.transB = ta ? CUBLAS_OP_T : CUBLAS_OP_N;
  l.rows[0] = tb ? k : n;
  l.cols[0] = tb ? n : k;
  l.ld[0] = ldb;
  l.rows[1] = ta ? m : k;
  l.cols[1] = ta ? k : m;
  l.ld[1] = lda;
  l.rows[2] = n;
  l.cols[2] = m;
  l.ld[2] = ldc;
  return l;
}

Status GpuTask::create(const CudaDriverApi *cu, int ordinal,
                       const graphrt_services_v1_t *host,
                       std::unique_ptr<GpuTask> *out) {
  static std::atomic<uint64_t> lastId{0};
  std::unique_ptr<GpuTask> g(new GpuTask(cu, host));
  g->id_ = ++lastId;
  std::string dev = "device " + std::to_string(ordinal);
  CUresult r = cu->cuInit(0);
  if (r != CUDA_SUCCESS) {
    return cudaError(*cu, r, "cuInit");
  }
  if ((r = cu->cuDeviceGet(&g->device_, ordinal)) != CUDA_SUCCESS) {
    return cudaError(*cu, r, "cuDeviceGet(" + dev + ")");
  }
  int major = 0, minor = 0;
  if ((r = cu->cuDeviceGetAttribute(
           &major, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, g->device_)) !=
          CUDA_SUCCESS ||
      (r = cu->cuDeviceGetAttribute(
           &minor, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, g->device_)) !=
          CUDA_SUCCESS) {
    return cudaError(*cu, r, "cuDeviceGetAttribute(" + dev + ")");
  }
  if ((r = cu->cuDevicePrimaryCtxRetain(&g->context_, g->device_)) !=
      CUDA_SUCCESS) {
    return cudaError(*cu, r, "cuDevicePrimaryCtxRetain(" + dev + ")");
  }
  g->retained_ = true;
  GRAPHRT_RETURN_IF_ERROR(g->bind());
  if ((r = cu->cuStreamCreate(&g->stream_, CU_STREAM_NON_BLOCKING)) !=
      CUDA_SUCCESS) {
    return cudaError(*cu, r, "cuStreamCreate");
  }
  // Freed blocks stay in the pool between steps instead of going back to
  // the driver at every synchronisation: a step's allocations then cost no
  // driver call after the first step.
  CUmemoryPool pool = nullptr;
  if ((r = cu->cuDeviceGetDefaultMemPool(&pool, g->device_)) != CUDA_SUCCESS) {
    return cudaError(*cu, r, "cuDeviceGetDefaultMemPool(" + dev + ")");
  }
  uint64_t keep = UINT64_MAX;
  if ((r = cu->cuMemPoolSetAttribute(pool, CU_MEMPOOL_ATTR_RELEASE_THRESHOLD,
                                     &keep)) != CUDA_SUCCESS) {
    return cudaError(*cu, r, "cuMemPoolSetAttribute(release threshold)");
  }

  graphrt_gpu_services_t &t = g->table_;
  t.struct_size = sizeof(graphrt_gpu_services_t);
  t.device_ordinal = ordinal;
  t.compute_capability = major * 10 + minor;
  t.stream = g->stream_;
  t.module_load = svcModuleLoad;
  t.module_unload = svcModuleUnload;
  t.module_get_function = svcModuleGetFunction;
  t.launch = svcLaunch;
  t.stream_synchronize = svcStreamSynchronize;
  t.memory_allocate = svcMemoryAllocate;
  t.memory_release = svcMemoryRelease;
  t.memcpy = svcMemcpy;
  t.memset = svcMemset;
  t.gemm = svcGemm;
  t.all_reduce = svcAllReduce;
  t.all_gather = svcAllGather;
  t.reduce_scatter = svcReduceScatter;
  *out = std::move(g);
  return Status::ok();
}

GpuTask::~GpuTask() {
  if (!context_ || !bind().isOk()) {
    return;
  }
  if (stream_) {
    cu_->cuStreamSynchronize(stream_);
  }
  for (auto &[name, g] : groups_) {
    if (g.comm) {
      nccl_->ncclCommDestroy(g.comm);
    }
  }
  for (auto &[key, p] : plans_) {
    for (cublasLtMatrixLayout_t l : p.layouts) {
      lt_->cublasLtMatrixLayoutDestroy(l);
    }
    lt_->cublasLtMatmulDescDestroy(p.desc);
  }
  if (ltHandle_) {
    lt_->cublasLtDestroy(ltHandle_);
  }
  if (workspace_) {
    cu_->cuMemFree(workspace_);
  }
  if (stream_) {
    cu_->cuStreamDestroy(stream_);
  }
  if (retained_) {
    cu_->cuDevicePrimaryCtxRelease(device_);
  }
}

// Init and each step may run on a different thread of the worker's pool;
// make the task's context current on the calling one.
// Remembered by task, not by context handle: a task loaded after another
// released the same primary context gets the same handle back, and must set
// it current again.
Status GpuTask::bind() {
  thread_local uint64_t current = 0;
  if (current == id_) {
    return Status::ok();
  }
  CUresult r = cu_->cuCtxSetCurrent(context_);
  if (r != CUDA_SUCCESS) {
    return cudaError(*cu_, r, "cuCtxSetCurrent");
  }
  current = id_;
  return Status::ok();
}

Status GpuTask::moduleLoad(const void *image, size_t size, void **out) {
  GRAPHRT_RETURN_IF_ERROR(bind());
  if (!image || !out) {
    return Status(GRAPHRT_STATUS_INVALID_ARGUMENT,
                  "module_load: null image or result pointer");
  }
  CUmodule m = nullptr;
  CUresult r = cu_->cuModuleLoadData(&m, image);
  if (r != CUDA_SUCCESS) {
    return cudaError(*cu_, r,
                     "cuModuleLoadData (" + std::to_string(size) +
                         "-byte image, device " +
                         std::to_string(table_.device_ordinal) + ", sm_" +
                         std::to_string(table_.compute_capability) + ")");
  }
  *out = m;
  return Status::ok();
}

void GpuTask::moduleUnload(void *module) {
  if (module && bind().isOk()) {
    cu_->cuModuleUnload(static_cast<CUmodule>(module));
  }
}

Status GpuTask::moduleGetFunction(void *module, const char *name, void **out) {
  GRAPHRT_RETURN_IF_ERROR(bind());
  CUfunction f = nullptr;
  CUresult r = cu_->cuModuleGetFunction(&f, static_cast<CUmodule>(module),
                                        name ? name : "");
  if (r != CUDA_SUCCESS) {
    return cudaError(*cu_, r,
                     "cuModuleGetFunction('" + std::string(name ? name : "") +
                         "')");
  }
  *out = f;
  return Status::ok();
}

Status GpuTask::launch(void *function, const int64_t grid[3],
                       const int64_t block[3], int32_t sharedBytes,
                       void *stream, void **params) {
  GRAPHRT_RETURN_IF_ERROR(bind());
  for (int i = 0; i < 3; ++i) {
    if (grid[i] < 1 || grid[i] > UINT_MAX || block[i] < 1 ||
        block[i] > UINT_MAX) {
      return Status(
          GRAPHRT_STATUS_INVALID_ARGUMENT,
          "launch: grid " + std::to_string(grid[0]) + "x" +
              std::to_string(grid[1]) + "x" + std::to_string(grid[2]) +
              ", block " + std::to_string(block[0]) + "x" +
              std::to_string(block[1]) + "x" + std::to_string(block[2]) +
              ": every dimension must be at least 1");
    }
  }
  if (sharedBytes < 0) {
    return Status(GRAPHRT_STATUS_INVALID_ARGUMENT,
                  "launch: negative shared memory size " +
                      std::to_string(sharedBytes));
  }
  CUresult r = cu_->cuLaunchKernel(
      static_cast<CUfunction>(function), unsigned(grid[0]), unsigned(grid[1]),
      unsigned(grid[2]), unsigned(block[0]), unsigned(block[1]),
      unsigned(block[2]), unsigned(sharedBytes), streamOr(stream), params,
      nullptr);
  if (r != CUDA_SUCCESS) {
    return cudaError(
        *cu_, r,
        "cuLaunchKernel (grid " + std::to_string(grid[0]) + "x" +
            std::to_string(grid[1]) + "x" + std::to_string(grid[2]) +
            ", block " + std::to_string(block[0]) + "x" +
            std::to_string(block[1]) + "x" + std::to_string(block[2]) + ", " +
            std::to_string(sharedBytes) + " shared bytes)");
  }
  return Status::ok();
}

Status GpuTask::synchronize(void *stream) {
  GRAPHRT_RETURN_IF_ERROR(bind());
  CUresult r = cu_->cuStreamSynchronize(streamOr(stream));
  // Kernel faults surface here, not at the launch.
  return r == CUDA_SUCCESS ? Status::ok()
                           : cudaError(*cu_, r, "cuStreamSynchronize");
}

Status GpuTask::allocate(size_t size, void *stream, void **out) {
  GRAPHRT_RETURN_IF_ERROR(bind());
  CUdeviceptr p = 0;
  CUresult r = cu_->cuMemAllocAsync(&p, size ? size : 1, streamOr(stream));
  if (r != CUDA_SUCCESS) {
    return cudaError(*cu_, r,
                     "cuMemAllocAsync(" + std::to_string(size) + " bytes)");
  }
  *out = reinterpret_cast<void *>(static_cast<uintptr_t>(p));
  return Status::ok();
}

void GpuTask::release(void *ptr, void *stream) {
  if (ptr && bind().isOk()) {
    cu_->cuMemFreeAsync(dptr(ptr), streamOr(stream));
  }
}

Status GpuTask::copy(void *dst, const void *src, size_t size,
                     graphrt_memcpy_kind_t kind, void *stream) {
  GRAPHRT_RETURN_IF_ERROR(bind());
  if (size == 0) {
    return Status::ok();
  }
  CUstream s = streamOr(stream);
  CUresult r;
  const char *call;
  // The kind comes from a task compiled elsewhere: any int may arrive.
  if (kind == GRAPHRT_MEMCPY_HOST_TO_DEVICE) {
    call = "cuMemcpyHtoDAsync";
    r = cu_->cuMemcpyHtoDAsync(dptr(dst), src, size, s);
  } else if (kind == GRAPHRT_MEMCPY_DEVICE_TO_HOST) {
    call = "cuMemcpyDtoHAsync";
    r = cu_->cuMemcpyDtoHAsync(dst, dptr(src), size, s);
  } else if (kind == GRAPHRT_MEMCPY_DEVICE_TO_DEVICE) {
    call = "cuMemcpyDtoDAsync";
    r = cu_->cuMemcpyDtoDAsync(dptr(dst), dptr(src), size, s);
  } else {
    return Status(GRAPHRT_STATUS_INVALID_ARGUMENT,
                  "memcpy: unknown kind " + std::to_string(int(kind)));
  }
  if (r != CUDA_SUCCESS) {
    return cudaError(
        *cu_, r, std::string(call) + "(" + std::to_string(size) + " bytes)");
  }
  return Status::ok();
}

Status GpuTask::fill(void *dst, uint8_t value, size_t size, void *stream) {
  GRAPHRT_RETURN_IF_ERROR(bind());
  CUresult r = cu_->cuMemsetD8Async(dptr(dst), value, size, streamOr(stream));
  return r == CUDA_SUCCESS
             ? Status::ok()
             : cudaError(*cu_, r,
                         "cuMemsetD8Async(" + std::to_string(size) + " bytes)");
}

Status GpuTask::ltError(cublasStatus_t s, const std::string &call) const {
  const char *name =
      lt_->cublasLtGetStatusName ? lt_->cublasLtGetStatusName(s) : nullptr;
  return Status(GRAPHRT_STATUS_INTERNAL,
                call + " failed: " +
                    (name ? name : "cuBLAS status " + std::to_string(s)));
}

Status GpuTask::gemm(void *stream, graphrt_dtype_t dtype, int32_t ta,
                     int32_t tb, int64_t m, int64_t n, int64_t k, float alpha,
                     const void *a, int64_t lda, int64_t strideA, const void *b,
                     int64_t ldb, int64_t strideB, float beta, void *c,
                     int64_t ldc, int64_t strideC, int64_t batch) {
  std::string shape = "gemm " + std::to_string(m) + "x" + std::to_string(n) +
                      "x" + std::to_string(k);
  int type = cudaDataType(dtype);
  if (type < 0) {
    return Status(GRAPHRT_STATUS_INVALID_ARGUMENT,
                  shape + ": dtype " + std::to_string(int(dtype)) +
                      " is not f32, f16 or bf16");
  }
  if (m < 0 || n < 0 || k < 1 || batch < 1) {
    return Status(GRAPHRT_STATUS_INVALID_ARGUMENT,
                  shape + " batch " + std::to_string(batch) +
                      ": m and n must be >= 0, k and batch >= 1");
  }
  if (lda < (ta ? m : k) || ldb < (tb ? k : n) || ldc < n) {
    return Status(GRAPHRT_STATUS_INVALID_ARGUMENT,
                  shape + ": leading dimensions lda=" + std::to_string(lda) +
                      " ldb=" + std::to_string(ldb) +
                      " ldc=" + std::to_string(ldc) +
                      " are shorter than the row-major rows they describe");
  }
  if (m == 0 || n == 0) {
    return Status::ok();
  }
  GRAPHRT_RETURN_IF_ERROR(bind());
  if (!ltTried_) {
    ltTried_ = true;
    Status st = loadCublasLt(&lt_);
    if (!st.isOk()) {
      lt_ = nullptr;
      ltError_ = st.message();
    }
  }
  if (!lt_) {
    return Status(GRAPHRT_STATUS_FAILED_PRECONDITION,
                  shape + " needs cuBLASLt: " +
                      (ltError_.empty() ? "none was given" : ltError_));
  }
  const GemmPlan *plan;
  GRAPHRT_RETURN_IF_ERROR(
      gemmPlan(GemmKey{type, ta ? 1 : 0, tb ? 1 : 0, m, n, k, lda, ldb, ldc,
                       strideA, strideB, strideC, batch},
               &plan));
  cublasStatus_t s = lt_->cublasLtMatmul(
      ltHandle_, plan->desc, &alpha, b, plan->layouts[0], a, plan->layouts[1],
      &beta, c, plan->layouts[2], c, plan->layouts[2], &plan->algo,
      reinterpret_cast<void *>(static_cast<uintptr_t>(workspace_)),
      workspaceBytes_, streamOr(stream));
  return s == CUBLAS_STATUS_SUCCESS
             ? Status::ok()
             : ltError(s, "cublasLtMatmul (" + shape + ")");
}

Status GpuTask::gemmPlan(const GemmKey &key, const GemmPlan **out) {
  auto found = plans_.find(key);
  if (found != plans_.end()) {
    *out = &found->second;
    return Status::ok();
  }
  auto [type, ta, tb, m, n, k, lda, ldb, ldc, sa, sb, sc, batch] = key;
  if (!ltHandle_) {
    cublasStatus_t s = lt_->cublasLtCreate(&ltHandle_);
    if (s != CUBLAS_STATUS_SUCCESS) {
      ltHandle_ = nullptr;
      return ltError(s, "cublasLtCreate");
    }
    CUresult r = cu_->cuMemAlloc(&workspace_, kGemmWorkspaceBytes);
    if (r != CUDA_SUCCESS) {
      workspace_ = 0;
      return cudaError(*cu_, r, "cuMemAlloc(gemm workspace)");
    }
    workspaceBytes_ = kGemmWorkspaceBytes;
  }
  GemmLayout l = columnMajorGemm(ta, tb, m, n, k, lda, ldb, ldc);
  GemmPlan p;
  auto fail = [&](cublasStatus_t s, const char *call) {
    for (cublasLtMatrixLayout_t x : p.layouts) {
      if (x) {
        lt_->cublasLtMatrixLayoutDestroy(x);
      }
    }
    if (p.desc) {
      lt_->cublasLtMatmulDescDestroy(p.desc);
    }
    return ltError(s, call);
  };
  cublasStatus_t s =
      lt_->cublasLtMatmulDescCreate(&p.desc, CUBLAS_COMPUTE_32F, CUDA_R_32F);
  if (s != CUBLAS_STATUS_SUCCESS) {
    p.desc = nullptr;
    return fail(s, "cublasLtMatmulDescCreate");
  }
  int32_t opA = l.transA, opB = l.transB;
  if ((s = lt_->cublasLtMatmulDescSetAttribute(
           p.desc, CUBLASLT_MATMUL_DESC_TRANSA, &opA, sizeof(opA))) !=
          CUBLAS_STATUS_SUCCESS ||
      (s = lt_->cublasLtMatmulDescSetAttribute(
           p.desc, CUBLASLT_MATMUL_DESC_TRANSB, &opB, sizeof(opB))) !=
          CUBLAS_STATUS_SUCCESS) {
    return fail(s, "cublasLtMatmulDescSetAttribute");
  }
  const int64_t strides[3] = {sb, sa, sc}; // cuBLASLt's A is our B
  int32_t count = int32_t(batch);
  for (int i = 0; i < 3; ++i) {
    if ((s = lt_->cublasLtMatrixLayoutCreate(&p.layouts[i], type, l.rows[i],
                                             l.cols[i], l.ld[i])) !=
        CUBLAS_STATUS_SUCCESS) {
      p.layouts[i] = nullptr;
      return fail(s, "cublasLtMatrixLayoutCreate");
    }
    if (batch > 1 &&
        ((s = lt_->cublasLtMatrixLayoutSetAttribute(
              p.layouts[i], CUBLASLT_MATRIX_LAYOUT_BATCH_COUNT, &count,
              sizeof(count))) != CUBLAS_STATUS_SUCCESS ||
         (s = lt_->cublasLtMatrixLayoutSetAttribute(
              p.layouts[i], CUBLASLT_MATRIX_LAYOUT_STRIDED_BATCH_OFFSET,
              &strides[i], sizeof(strides[i]))) != CUBLAS_STATUS_SUCCESS)) {
      return fail(s, "cublasLtMatrixLayoutSetAttribute");
    }
  }
  cublasLtMatmulPreference_t pref = nullptr;
  if ((s = lt_->cublasLtMatmulPreferenceCreate(&pref)) !=
      CUBLAS_STATUS_SUCCESS) {
    return fail(s, "cublasLtMatmulPreferenceCreate");
  }
  uint64_t ws = workspaceBytes_;
  cublasLtMatmulHeuristicResult_t result{};
  int returned = 0;
  s = lt_->cublasLtMatmulPreferenceSetAttribute(
      pref, CUBLASLT_MATMUL_PREF_MAX_WORKSPACE_BYTES, &ws, sizeof(ws));
  if (s == CUBLAS_STATUS_SUCCESS) {
    s = lt_->cublasLtMatmulAlgoGetHeuristic(
        ltHandle_, p.desc, p.layouts[0], p.layouts[1], p.layouts[2],
        p.layouts[2], pref, 1, &result, &returned);
  }
  lt_->cublasLtMatmulPreferenceDestroy(pref);
  if (s != CUBLAS_STATUS_SUCCESS) {
    return fail(s, "cublasLtMatmulAlgoGetHeuristic");
  }
  if (returned < 1) {
    fail(CUBLAS_STATUS_SUCCESS, "");
    return Status(GRAPHRT_STATUS_UNIMPLEMENTED,
                  "cuBLASLt has no algorithm for gemm " + std::to_string(m) +
                      "x" + std::to_string(n) + "x" + std::to_string(k) +
                      " (lda " + std::to_string(lda) + ", ldb " +
                      std::to_string(ldb) + ", ldc " + std::to_string(ldc) +
                      ")");
  }
  p.algo = result.algo;
  *out = &plans_.emplace(key, p).first->second;
  return Status::ok();
}

Status GpuTask::groupState(graphrt_context_t *ctx, const std::string &group,
                           Group **out) {
  auto found = groups_.find(group);
  if (found != groups_.end()) {
    *out = &found->second;
    return Status::ok();
  }
  int32_t rank = 0, size = 0;
  GRAPHRT_RETURN_IF_ERROR(
      Status::fromC(host_->group_rank(ctx, group.c_str(), &rank, &size)));
  if (!ncclTried_) {
    ncclTried_ = true;
    if (!loadNccl(&nccl_).isOk()) {
      nccl_ = nullptr;
    }
  }
  // Every member learns where the others' GPUs are before the first device
  // collective, so all of them pick the same path.
  DeviceRecord mine{};
  ::gethostname(mine.host, sizeof(mine.host) - 1);
  CUresult r =
      cu_->cuDeviceGetPCIBusId(mine.busId, sizeof(mine.busId) - 1, device_);
  if (r != CUDA_SUCCESS) {
    return cudaError(*cu_, r, "cuDeviceGetPCIBusId");
  }
  mine.ncclAvailable = nccl_ ? 1 : 0;
  std::vector<DeviceRecord> all(size);
  GRAPHRT_RETURN_IF_ERROR(Status::fromC(
      host_->all_gather(ctx, group.c_str(), GRAPHRT_DTYPE_U8, &mine, all.data(),
                        sizeof(DeviceRecord))));
  Group g;
  g.nccl = groupUsesNccl(all);
  if (host_->log) {
    std::string why = g.nccl   ? "through NCCL"
                      : !nccl_ ? "through host memory (no NCCL here)"
                               : "through host memory (members share a GPU "
                                 "or lack NCCL)";
    host_->log(ctx, GRAPHRT_LOG_INFO,
               ("device collectives on group '" + group + "' (rank " +
                std::to_string(rank) + " of " + std::to_string(size) +
                ", GPU " + mine.busId + ") go " + why)
                   .c_str());
  }
  if (g.nccl) {
    // The unique id goes from rank 0 to the others over the group's host
    // broadcast, the data plane the coordinator set up for this job.
    ncclUniqueId id{};
    if (rank == 0) {
      int nr = nccl_->ncclGetUniqueId(&id);
      if (nr != 0) {
        return Status(GRAPHRT_STATUS_INTERNAL,
                      std::string("ncclGetUniqueId failed: ") +
                          nccl_->ncclGetErrorString(nr));
      }
    }
    GRAPHRT_RETURN_IF_ERROR(Status::fromC(host_->broadcast(
        ctx, group.c_str(), 0, GRAPHRT_DTYPE_U8, &id, sizeof(id))));
    int nr = nccl_->ncclCommInitRank(&g.comm, size, id, rank);
    if (nr != 0) {
      return Status(GRAPHRT_STATUS_INTERNAL,
                    "ncclCommInitRank (group '" + group + "', rank " +
                        std::to_string(rank) + " of " + std::to_string(size) +
                        ") failed: " + nccl_->ncclGetErrorString(nr));
    }
  }
  *out = &groups_.emplace(group, g).first->second;
  return Status::ok();
}

Status GpuTask::collective(graphrt_context_t *ctx, Collective kind,
                           const char *group, graphrt_reduce_op_t op,
                           graphrt_dtype_t dtype, const void *input,
                           void *output, size_t count, void *stream) {
  GRAPHRT_RETURN_IF_ERROR(bind());
  std::string name = group ? group : "";
  int32_t rank = 0, size = 0;
  GRAPHRT_RETURN_IF_ERROR(
      Status::fromC(host_->group_rank(ctx, name.c_str(), &rank, &size)));
  if (graphrt_dtype_size(dtype) == 0) {
    return Status(GRAPHRT_STATUS_INVALID_ARGUMENT,
                  std::string(collectiveName(kind)) + " on group '" + name +
                      "': invalid dtype " + std::to_string(int(dtype)));
  }
  Group *g;
  GRAPHRT_RETURN_IF_ERROR(groupState(ctx, name, &g));
  CUstream s = streamOr(stream);
  int type = ncclDataType(dtype);
  if (!g->nccl || type < 0) {
    ++stagedCalls_;
    return staged(ctx, kind, name.c_str(), size, op, dtype, input, output,
                  count, s);
  }
  ++ncclCalls_;
  int nr = 0;
  switch (kind) {
  case Collective::AllReduce:
    nr = nccl_->ncclAllReduce(input, output, count, type, ncclReduceOp(op),
                              g->comm, s);
    break;
  case Collective::AllGather:
    nr = nccl_->ncclAllGather(input, output, count, type, g->comm, s);
    break;
  case Collective::ReduceScatter:
    nr = nccl_->ncclReduceScatter(input, output, count, type, ncclReduceOp(op),
                                  g->comm, s);
    break;
  }
  if (nr != 0) {
    return Status(GRAPHRT_STATUS_INTERNAL,
                  std::string("nccl ") + collectiveName(kind) + " on group '" +
                      name + "' (" + std::to_string(count) +
                      " elements) failed: " + nccl_->ncclGetErrorString(nr));
  }
  return Status::ok();
}

// Device -> host, the host collective, host -> device: for members that
// share a GPU or lack NCCL, and for dtypes NCCL has no type for.
Status GpuTask::staged(graphrt_context_t *ctx, Collective kind,
                       const char *group, int32_t size, graphrt_reduce_op_t op,
                       graphrt_dtype_t dtype, const void *input, void *output,
                       size_t count, CUstream stream) {
  size_t es = graphrt_dtype_size(dtype);
  size_t inBytes = count * es * (kind == Collective::ReduceScatter ? size : 1);
  size_t outBytes = count * es * (kind == Collective::AllGather ? size : 1);
  stageIn_.resize(inBytes);
  stageOut_.resize(outBytes);
  GRAPHRT_RETURN_IF_ERROR(copy(stageIn_.data(), input, inBytes,
                               GRAPHRT_MEMCPY_DEVICE_TO_HOST, stream));
  GRAPHRT_RETURN_IF_ERROR(synchronize(stream));
  graphrt_status_t st = nullptr;
  switch (kind) {
  case Collective::AllReduce:
    st = host_->all_reduce(ctx, group, op, dtype, stageIn_.data(),
                           stageOut_.data(), count);
    break;
  case Collective::AllGather:
    st = host_->all_gather(ctx, group, dtype, stageIn_.data(), stageOut_.data(),
                           count);
    break;
  case Collective::ReduceScatter:
    st = host_->reduce_scatter(ctx, group, op, dtype, stageIn_.data(),
                               stageOut_.data(), count);
    break;
  }
  GRAPHRT_RETURN_IF_ERROR(Status::fromC(st));
  // The next staged call synchronises the stream before it reuses the
  // buffer, and the destructor synchronises before freeing it.
  return copy(output, stageOut_.data(), outBytes, GRAPHRT_MEMCPY_HOST_TO_DEVICE,
              stream);
}

} // namespace graphrt::gpu
