// CudaApi.h: the CUDA driver, cuBLASLt and NCCL entry points the runtime uses,
// opened with dlopen.
//
// The types and enum values are declared here, copied from the CUDA 13
// headers (cuda.h, cublasLt.h, library_types.h, nccl.h), so the runtime
// builds on a machine without the CUDA toolkit and runs on one without a
// driver. Each library is a table of function pointers: the loaders fill them
// from the real libraries, and tests fill them with fakes.
#ifndef GRAPHRT_LIB_GPU_CUDAAPI_H
#define GRAPHRT_LIB_GPU_CUDAAPI_H

#include "Status.h"

#include <cstddef>
#include <cstdint>
#include <string>

namespace graphrt::gpu {

//===----------------------------------------------------------------------===//
// CUDA driver (libcuda.so.1)
//===----------------------------------------------------------------------===//

using CUresult = int;
using CUdevice = int;
using CUdeviceptr = unsigned long long;
using CUcontext = struct CUctx_st *;
using CUmodule = struct CUmod_st *;
using CUfunction = struct CUfunc_st *;
using CUstream = struct CUstream_st *;
using CUmemoryPool = struct CUmemPoolHandle_st *;

constexpr CUresult CUDA_SUCCESS = 0;
constexpr CUresult CUDA_ERROR_INVALID_VALUE = 1;
constexpr CUresult CUDA_ERROR_OUT_OF_MEMORY = 2;
constexpr CUresult CUDA_ERROR_NOT_INITIALIZED = 3;
constexpr CUresult CUDA_ERROR_STUB_LIBRARY = 34;
constexpr CUresult CUDA_ERROR_NO_DEVICE = 100;
constexpr CUresult CUDA_ERROR_INVALID_DEVICE = 101;
constexpr int CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR = 75;
constexpr int CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR = 76;
constexpr int CU_MEMPOOL_ATTR_RELEASE_THRESHOLD = 4;
constexpr unsigned CU_STREAM_NON_BLOCKING = 1;

/// The driver entry points, by the names the library exports (the `_v2`
/// suffixes are the ones cuda.h's macros pick).
struct CudaDriverApi {
  CUresult (*cuInit)(unsigned flags);
  CUresult (*cuGetErrorName)(CUresult error, const char **name);
  CUresult (*cuDeviceGetCount)(int *count);
  CUresult (*cuDeviceGet)(CUdevice *device, int ordinal);
  CUresult (*cuDeviceGetAttribute)(int *value, int attribute, CUdevice device);
  CUresult (*cuDeviceGetPCIBusId)(char *busId, int len, CUdevice device);
  CUresult (*cuDevicePrimaryCtxRetain)(CUcontext *ctx, CUdevice device);
  CUresult (*cuDevicePrimaryCtxRelease)(CUdevice device);
  CUresult (*cuCtxSetCurrent)(CUcontext ctx);
  CUresult (*cuModuleLoadData)(CUmodule *module, const void *image);
  CUresult (*cuModuleUnload)(CUmodule module);
  CUresult (*cuModuleGetFunction)(CUfunction *function, CUmodule module,
                                  const char *name);
  CUresult (*cuLaunchKernel)(CUfunction f, unsigned gridX, unsigned gridY,
                             unsigned gridZ, unsigned blockX, unsigned blockY,
                             unsigned blockZ, unsigned sharedBytes,
                             CUstream stream, void **params, void **extra);
  CUresult (*cuStreamCreate)(CUstream *stream, unsigned flags);
  CUresult (*cuStreamDestroy)(CUstream stream);
  CUresult (*cuStreamSynchronize)(CUstream stream);
  CUresult (*cuDeviceGetDefaultMemPool)(CUmemoryPool *pool, CUdevice device);
  CUresult (*cuMemPoolSetAttribute)(CUmemoryPool pool, int attribute,
                                    void *value);
  CUresult (*cuMemAllocAsync)(CUdeviceptr *ptr, size_t size, CUstream stream);
  CUresult (*cuMemFreeAsync)(CUdeviceptr ptr, CUstream stream);
  CUresult (*cuMemAlloc)(CUdeviceptr *ptr, size_t size);
  CUresult (*cuMemFree)(CUdeviceptr ptr);
  CUresult (*cuMemcpyHtoDAsync)(CUdeviceptr dst, const void *src, size_t size,
                                CUstream stream);
  CUresult (*cuMemcpyDtoHAsync)(void *dst, CUdeviceptr src, size_t size,
                                CUstream stream);
  CUresult (*cuMemcpyDtoDAsync)(CUdeviceptr dst, CUdeviceptr src, size_t size,
                                CUstream stream);
  CUresult (*cuMemsetD8Async)(CUdeviceptr dst, unsigned char value, size_t size,
                              CUstream stream);
};

/// The library the driver loader opens: $GRAPHRT_LIBCUDA when set (tests
/// point it at a missing file or the toolkit's stub), else libcuda.so.1.
std::string cudaDriverLibraryName();

/// Opens the driver once per process and resolves every entry point into
/// `*out` (static storage). FAILED_PRECONDITION naming the library when it
/// is missing ("libcuda.so.1: not found") or lacks an entry point.
Status loadCudaDriver(const CudaDriverApi **out);

/// "CUDA_ERROR_OUT_OF_MEMORY": the driver's name for `result`, or the
/// number when the driver has no name for it (the stub library has none).
std::string cudaErrorName(const CudaDriverApi &api, CUresult result);

/// A status for a failed driver call: "CALL failed: CUDA_ERROR_NAME", with
/// a code that says what the caller can do about it (OUT_OF_MEMORY is
/// RESOURCE_EXHAUSTED, INVALID_VALUE is INVALID_ARGUMENT, ...).
Status cudaError(const CudaDriverApi &api, CUresult result,
                 const std::string &call);

/// Whether a cuda task can run here: OK, or FAILED_PRECONDITION saying what
/// is missing ("no CUDA driver (libcuda.so.1: not found)", "no CUDA device
/// (cuInit: CUDA_ERROR_NO_DEVICE)"). Initialises the driver.
Status probeCudaDevice(const CudaDriverApi *api, int *deviceCount);

//===----------------------------------------------------------------------===//
// cuBLASLt (libcublasLt.so.13)
//===----------------------------------------------------------------------===//

using cublasStatus_t = int;
using cublasLtHandle_t = struct cublasLtContext *;
using cublasLtMatmulDesc_t = struct cublasLtMatmulDescOpaque_t *;
using cublasLtMatrixLayout_t = struct cublasLtMatrixLayoutOpaque_t *;
using cublasLtMatmulPreference_t = struct cublasLtMatmulPreferenceOpaque_t *;
struct cublasLtMatmulAlgo_t {
  uint64_t data[8];
};
struct cublasLtMatmulHeuristicResult_t {
  cublasLtMatmulAlgo_t algo;
  size_t workspaceSize;
  cublasStatus_t state;
  float wavesCount;
  int reserved[4];
};

constexpr cublasStatus_t CUBLAS_STATUS_SUCCESS = 0;
constexpr int CUBLAS_OP_N = 0;
constexpr int CUBLAS_OP_T = 1;
constexpr int CUBLAS_COMPUTE_32F = 68;
constexpr int CUDA_R_32F = 0;
constexpr int CUDA_R_16F = 2;
constexpr int CUDA_R_16BF = 14;
constexpr int CUBLASLT_MATMUL_DESC_TRANSA = 3;
constexpr int CUBLASLT_MATMUL_DESC_TRANSB = 4;
constexpr int CUBLASLT_MATRIX_LAYOUT_BATCH_COUNT = 5;
constexpr int CUBLASLT_MATRIX_LAYOUT_STRIDED_BATCH_OFFSET = 6;
constexpr int CUBLASLT_MATMUL_PREF_MAX_WORKSPACE_BYTES = 1;

struct CublasLtApi {
  cublasStatus_t (*cublasLtCreate)(cublasLtHandle_t *handle);
  cublasStatus_t (*cublasLtDestroy)(cublasLtHandle_t handle);
  const char *(*cublasLtGetStatusName)(cublasStatus_t status);
  cublasStatus_t (*cublasLtMatmulDescCreate)(cublasLtMatmulDesc_t *desc,
                                             int computeType, int scaleType);
  cublasStatus_t (*cublasLtMatmulDescDestroy)(cublasLtMatmulDesc_t desc);
  cublasStatus_t (*cublasLtMatmulDescSetAttribute)(cublasLtMatmulDesc_t desc,
                                                   int attribute,
                                                   const void *value,
                                                   size_t size);
  cublasStatus_t (*cublasLtMatrixLayoutCreate)(cublasLtMatrixLayout_t *layout,
                                               int type, uint64_t rows,
                                               uint64_t cols, int64_t ld);
  cublasStatus_t (*cublasLtMatrixLayoutDestroy)(cublasLtMatrixLayout_t layout);
  cublasStatus_t (*cublasLtMatrixLayoutSetAttribute)(
      cublasLtMatrixLayout_t layout, int attribute, const void *value,
      size_t size);
  cublasStatus_t (*cublasLtMatmulPreferenceCreate)(
      cublasLtMatmulPreference_t *pref);
  cublasStatus_t (*cublasLtMatmulPreferenceDestroy)(
      cublasLtMatmulPreference_t pref);
  cublasStatus_t (*cublasLtMatmulPreferenceSetAttribute)(
      cublasLtMatmulPreference_t pref, int attribute, const void *value,
      size_t size);
  cublasStatus_t (*cublasLtMatmulAlgoGetHeuristic)(
      cublasLtHandle_t handle, cublasLtMatmulDesc_t desc,
      cublasLtMatrixLayout_t a, cublasLtMatrixLayout_t b,
      cublasLtMatrixLayout_t c, cublasLtMatrixLayout_t d,
      cublasLtMatmulPreference_t pref, int requested,
      cublasLtMatmulHeuristicResult_t *results, int *returned);
  cublasStatus_t (*cublasLtMatmul)(
      cublasLtHandle_t handle, cublasLtMatmulDesc_t desc, const void *alpha,
      const void *a, cublasLtMatrixLayout_t aDesc, const void *b,
      cublasLtMatrixLayout_t bDesc, const void *beta, const void *c,
      cublasLtMatrixLayout_t cDesc, void *d, cublasLtMatrixLayout_t dDesc,
      const cublasLtMatmulAlgo_t *algo, void *workspace, size_t workspaceSize,
      CUstream stream);
};

/// Opens libcublasLt.so.13 (or libcublasLt.so; $GRAPHRT_LIBCUBLASLT first)
/// once per process; FAILED_PRECONDITION naming what is missing.
Status loadCublasLt(const CublasLtApi **out);

//===----------------------------------------------------------------------===//
// NCCL (libnccl.so.2)
//===----------------------------------------------------------------------===//

using ncclResult_t = int;
using ncclComm_t = struct ncclComm *;
constexpr size_t NCCL_UNIQUE_ID_BYTES = 128;
struct ncclUniqueId {
  char internal[NCCL_UNIQUE_ID_BYTES];
};
constexpr int ncclSum = 0, ncclMax = 2, ncclMin = 3, ncclAvg = 4;
constexpr int ncclInt8 = 0, ncclUint8 = 1, ncclInt32 = 2, ncclUint32 = 3,
              ncclInt64 = 4, ncclUint64 = 5, ncclFloat16 = 6, ncclFloat32 = 7,
              ncclFloat64 = 8, ncclBfloat16 = 9;

struct NcclApi {
  ncclResult_t (*ncclGetUniqueId)(ncclUniqueId *id);
  ncclResult_t (*ncclCommInitRank)(ncclComm_t *comm, int nranks,
                                   ncclUniqueId id, int rank);
  ncclResult_t (*ncclCommDestroy)(ncclComm_t comm);
  const char *(*ncclGetErrorString)(ncclResult_t result);
  ncclResult_t (*ncclAllReduce)(const void *send, void *recv, size_t count,
                                int dtype, int op, ncclComm_t comm,
                                CUstream stream);
  ncclResult_t (*ncclAllGather)(const void *send, void *recv, size_t count,
                                int dtype, ncclComm_t comm, CUstream stream);
  ncclResult_t (*ncclReduceScatter)(const void *send, void *recv,
                                    size_t recvCount, int dtype, int op,
                                    ncclComm_t comm, CUstream stream);
};

/// Opens libnccl.so.2 ($GRAPHRT_LIBNCCL first) once per process; a missing
/// NCCL is not an error for a job, the collectives then stage through host
/// memory.
Status loadNccl(const NcclApi **out);

} // namespace graphrt::gpu

#endif // GRAPHRT_LIB_GPU_CUDAAPI_H
