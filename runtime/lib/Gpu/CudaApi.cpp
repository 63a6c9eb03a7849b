// CudaApi.cpp: opening libcuda, cuBLASLt and NCCL with dlopen at first use.
#include "Gpu/CudaApi.h"

#include <dlfcn.h>

#include <cstdlib>
#include <cstring>
#include <mutex>

namespace graphrt::gpu {
namespace {

// "libcuda.so.1: not found" for the common case, dlerror's text otherwise
// (a wrong architecture, a missing dependency of the library itself).
std::string openError(const std::string &name) {
  const char *err = ::dlerror();
  std::string text = err ? err : "";
  if (text.find("No such file") != std::string::npos ||
      text.find("cannot open shared object") != std::string::npos) {
    return name + ": not found";
  }
  return text.empty() ? name + ": cannot be opened" : text;
}

// Opens the first library of `names` that exists.
void *openFirst(std::initializer_list<std::string> names, std::string *error) {
  for (const std::string &n : names) {
    if (n.empty()) {
      continue;
    }
    if (void *h = ::dlopen(n.c_str(), RTLD_NOW | RTLD_LOCAL)) {
      return h;
    }
    if (error->empty()) {
      *error = openError(n);
    }
  }
  return nullptr;
}

// Resolves `symbol` into `*fn`; records the first symbol missing.
template <typename Fn>
void resolve(void *handle, const char *symbol, Fn *fn, std::string *missing) {
  *fn = reinterpret_cast<Fn>(::dlsym(handle, symbol));
  if (!*fn && missing->empty()) {
    *missing = symbol;
  }
}

std::string envOr(const char *var, const char *fallback) {
  const char *v = std::getenv(var);
  return v && *v ? v : fallback;
}

struct Loaded {
  std::once_flag once;
  Status status;
};

} // namespace

std::string cudaDriverLibraryName() {
  return envOr("GRAPHRT_LIBCUDA", "libcuda.so.1");
}

Status loadCudaDriver(const CudaDriverApi **out) {
  static Loaded state;
  static CudaDriverApi api;
  std::call_once(state.once, [] {
    std::string name = cudaDriverLibraryName(), error;
    void *h = openFirst({name}, &error);
    if (!h) {
      state.status = Status(GRAPHRT_STATUS_FAILED_PRECONDITION, error);
      return;
    }
    std::string missing;
#define GRAPHRT_CU(field, symbol) resolve(h, symbol, &api.field, &missing)
    GRAPHRT_CU(cuInit, "cuInit");
    GRAPHRT_CU(cuGetErrorName, "cuGetErrorName");
    GRAPHRT_CU(cuDeviceGetCount, "cuDeviceGetCount");
    GRAPHRT_CU(cuDeviceGet, "cuDeviceGet");
    GRAPHRT_CU(cuDeviceGetAttribute, "cuDeviceGetAttribute");
    GRAPHRT_CU(cuDeviceGetPCIBusId, "cuDeviceGetPCIBusId");
    GRAPHRT_CU(cuDevicePrimaryCtxRetain, "cuDevicePrimaryCtxRetain");
    GRAPHRT_CU(cuDevicePrimaryCtxRelease, "cuDevicePrimaryCtxRelease_v2");
    GRAPHRT_CU(cuCtxSetCurrent, "cuCtxSetCurrent");
    GRAPHRT_CU(cuModuleLoadData, "cuModuleLoadData");
    GRAPHRT_CU(cuModuleUnload, "cuModuleUnload");
    GRAPHRT_CU(cuModuleGetFunction, "cuModuleGetFunction");
    GRAPHRT_CU(cuLaunchKernel, "cuLaunchKernel");
    GRAPHRT_CU(cuStreamCreate, "cuStreamCreate");
    GRAPHRT_CU(cuStreamDestroy, "cuStreamDestroy_v2");
    GRAPHRT_CU(cuStreamSynchronize, "cuStreamSynchronize");
    GRAPHRT_CU(cuDeviceGetDefaultMemPool, "cuDeviceGetDefaultMemPool");
    GRAPHRT_CU(cuMemPoolSetAttribute, "cuMemPoolSetAttribute");
    GRAPHRT_CU(cuMemAllocAsync, "cuMemAllocAsync");
    GRAPHRT_CU(cuMemFreeAsync, "cuMemFreeAsync");
    GRAPHRT_CU(cuMemAlloc, "cuMemAlloc_v2");
    GRAPHRT_CU(cuMemFree, "cuMemFree_v2");
    GRAPHRT_CU(cuMemcpyHtoDAsync, "cuMemcpyHtoDAsync_v2");
    GRAPHRT_CU(cuMemcpyDtoHAsync, "cuMemcpyDtoHAsync_v2");
    GRAPHRT_CU(cuMemcpyDtoDAsync, "cuMemcpyDtoDAsync_v2");
    GRAPHRT_CU(cuMemsetD8Async, "cuMemsetD8Async");
#undef GRAPHRT_CU
    if (!missing.empty()) {
      state.status = Status(GRAPHRT_STATUS_FAILED_PRECONDITION,
                            name + " lacks " + missing +
                                " (the driver is older than CUDA 11.2)");
    }
  });
  if (state.status.isOk()) {
    *out = &api;
  }
  return state.status;
}

std::string cudaErrorName(const CudaDriverApi &api, CUresult result) {
  const char *name = nullptr;
  if (api.cuGetErrorName && api.cuGetErrorName(result, &name) == CUDA_SUCCESS &&
      name) {
    return name;
  }
  // The stub library answers every call with CUDA_ERROR_STUB_LIBRARY and
  // names nothing; name the codes a caller is likely to meet.
  switch (result) {
  case CUDA_ERROR_INVALID_VALUE:
    return "CUDA_ERROR_INVALID_VALUE";
  case CUDA_ERROR_OUT_OF_MEMORY:
    return "CUDA_ERROR_OUT_OF_MEMORY";
  case CUDA_ERROR_NOT_INITIALIZED:
    return "CUDA_ERROR_NOT_INITIALIZED";
  case CUDA_ERROR_STUB_LIBRARY:
    return "CUDA_ERROR_STUB_LIBRARY";
  case CUDA_ERROR_NO_DEVICE:
    return "CUDA_ERROR_NO_DEVICE";
  case CUDA_ERROR_INVALID_DEVICE:
    return "CUDA_ERROR_INVALID_DEVICE";
  default:
    return "CUDA error " + std::to_string(result);
  }
}

Status cudaError(const CudaDriverApi &api, CUresult result,
                 const std::string &call) {
  graphrt_status_code_t code = GRAPHRT_STATUS_INTERNAL;
  if (result == CUDA_ERROR_OUT_OF_MEMORY) {
    code = GRAPHRT_STATUS_RESOURCE_EXHAUSTED;
  } else if (result == CUDA_ERROR_INVALID_VALUE) {
    code = GRAPHRT_STATUS_INVALID_ARGUMENT;
  } else if (result == CUDA_ERROR_NO_DEVICE ||
             result == CUDA_ERROR_INVALID_DEVICE ||
             result == CUDA_ERROR_STUB_LIBRARY) {
    code = GRAPHRT_STATUS_FAILED_PRECONDITION;
  }
  return Status(code, call + " failed: " + cudaErrorName(api, result));
}

Status probeCudaDevice(const CudaDriverApi *api, int *deviceCount) {
  CUresult r = api->cuInit(0);
  if (r != CUDA_SUCCESS) {
    return Status(GRAPHRT_STATUS_FAILED_PRECONDITION,
                  "no usable CUDA device (cuInit: " + cudaErrorName(*api, r) +
                      ")");
  }
  int count = 0;
  r = api->cuDeviceGetCount(&count);
  if (r != CUDA_SUCCESS || count == 0) {
    return Status(GRAPHRT_STATUS_FAILED_PRECONDITION,
                  "no CUDA device (" +
                      (r != CUDA_SUCCESS
                           ? "cuDeviceGetCount: " + cudaErrorName(*api, r)
                           : std::string("the driver sees 0 devices; "
                                         "CUDA_VISIBLE_DEVICES='") +
                                 envOr("CUDA_VISIBLE_DEVICES", "") + "'") +
                      ")");
  }
  *deviceCount = count;
  return Status::ok();
}

Status loadCublasLt(const CublasLtApi **out) {
  static Loaded state;
  static CublasLtApi api;
  std::call_once(state.once, [] {
    std::string error;
    void *h = openFirst({envOr("GRAPHRT_LIBCUBLASLT", ""), "libcublasLt.so.13",
                         "libcublasLt.so"},
                        &error);
    if (!h) {
      state.status = Status(GRAPHRT_STATUS_FAILED_PRECONDITION,
                            "no cuBLASLt (" + error + ")");
      return;
    }
    std::string missing;
#define GRAPHRT_LT(name) resolve(h, #name, &api.name, &missing)
    GRAPHRT_LT(cublasLtCreate);
    GRAPHRT_LT(cublasLtDestroy);
    GRAPHRT_LT(cublasLtGetStatusName);
    GRAPHRT_LT(cublasLtMatmulDescCreate);
    GRAPHRT_LT(cublasLtMatmulDescDestroy);
    GRAPHRT_LT(cublasLtMatmulDescSetAttribute);
    GRAPHRT_LT(cublasLtMatrixLayoutCreate);
    GRAPHRT_LT(cublasLtMatrixLayoutDestroy);
    GRAPHRT_LT(cublasLtMatrixLayoutSetAttribute);
    GRAPHRT_LT(cublasLtMatmulPreferenceCreate);
    GRAPHRT_LT(cublasLtMatmulPreferenceDestroy);
    GRAPHRT_LT(cublasLtMatmulPreferenceSetAttribute);
    GRAPHRT_LT(cublasLtMatmulAlgoGetHeuristic);
    GRAPHRT_LT(cublasLtMatmul);
#undef GRAPHRT_LT
    if (!missing.empty()) {
      state.status = Status(GRAPHRT_STATUS_FAILED_PRECONDITION,
                            "cuBLASLt lacks " + missing);
    }
  });
  if (state.status.isOk()) {
    *out = &api;
  }
  return state.status;
}

Status loadNccl(const NcclApi **out) {
  static Loaded state;
  static NcclApi api;
  std::call_once(state.once, [] {
    std::string error;
    void *h = openFirst({envOr("GRAPHRT_LIBNCCL", ""), "libnccl.so.2"}, &error);
    if (!h) {
      state.status =
          Status(GRAPHRT_STATUS_FAILED_PRECONDITION, "no NCCL (" + error + ")");
      return;
    }
    std::string missing;
#define GRAPHRT_NCCL(name) resolve(h, #name, &api.name, &missing)
    GRAPHRT_NCCL(ncclGetUniqueId);
    GRAPHRT_NCCL(ncclCommInitRank);
    GRAPHRT_NCCL(ncclCommDestroy);
    GRAPHRT_NCCL(ncclGetErrorString);
    GRAPHRT_NCCL(ncclAllReduce);
    GRAPHRT_NCCL(ncclAllGather);
    GRAPHRT_NCCL(ncclReduceScatter);
#undef GRAPHRT_NCCL
    if (!missing.empty()) {
      state.status =
          Status(GRAPHRT_STATUS_FAILED_PRECONDITION, "NCCL lacks " + missing);
    }
  });
  if (state.status.isOk()) {
    *out = &api;
  }
  return state.status;
}

} // namespace graphrt::gpu
