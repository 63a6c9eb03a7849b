// FakeCuda.cpp: a stand-in libcuda.so.1 over host memory, so the worker's GPU
// path runs end to end without a GPU.
//
// Loaded through $GRAPHRT_LIBCUDA by test/runtime/gpu-fake-driver.test. It
// exports the driver entry points the runtime resolves (by their exported
// names) with the semantics the runtime relies on: one device, sm_90,
// "device memory" from malloc that the fake tracks, so a copy whose kind
// contradicts its pointers fails with CUDA_ERROR_INVALID_VALUE as on a GPU.
// Kernels cannot run: cuModuleLoadData refuses every image. graphrt-gpu-tests
// links this file too and builds its fake driver table from it.
#include "Gpu/CudaApi.h"

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <mutex>

using namespace graphrt::gpu;

namespace {

constexpr CUresult kInvalidImage = 200;

std::mutex mu;
std::map<uintptr_t, size_t> blocks;
bool initialised = false;

bool isDevice(uintptr_t p, size_t n) {
  std::lock_guard<std::mutex> lock(mu);
  auto it = blocks.upper_bound(p);
  if (it == blocks.begin()) {
    return false;
  }
  --it;
  return p >= it->first && p + n <= it->first + it->second;
}

CUresult alloc(CUdeviceptr *p, size_t n) {
  void *m = std::malloc(n ? n : 1);
  if (!m) {
    return CUDA_ERROR_OUT_OF_MEMORY;
  }
  std::lock_guard<std::mutex> lock(mu);
  blocks[reinterpret_cast<uintptr_t>(m)] = n ? n : 1;
  *p = reinterpret_cast<uintptr_t>(m);
  return CUDA_SUCCESS;
}

CUresult release(CUdeviceptr p) {
  std::lock_guard<std::mutex> lock(mu);
  if (!blocks.erase(p)) {
    return CUDA_ERROR_INVALID_VALUE;
  }
  std::free(reinterpret_cast<void *>(p));
  return CUDA_SUCCESS;
}

} // namespace

#define FAKE extern "C" __attribute__((visibility("default")))

// For tests that link this file: whether [p, p + n) is fake device memory,
// and how many device blocks are live.
FAKE bool graphrt_fake_cuda_is_device(const void *p, size_t n) {
  return isDevice(reinterpret_cast<uintptr_t>(p), n);
}
FAKE size_t graphrt_fake_cuda_live_blocks() {
  std::lock_guard<std::mutex> lock(mu);
  return blocks.size();
}

FAKE CUresult cuInit(unsigned) {
  initialised = true;
  return CUDA_SUCCESS;
}
FAKE CUresult cuGetErrorName(CUresult r, const char **name) {
  if (r != CUDA_ERROR_INVALID_VALUE && r != kInvalidImage) {
    return CUDA_ERROR_INVALID_VALUE;
  }
  *name = r == kInvalidImage ? "CUDA_ERROR_INVALID_IMAGE"
                             : "CUDA_ERROR_INVALID_VALUE";
  return CUDA_SUCCESS;
}
FAKE CUresult cuDeviceGetCount(int *n) {
  *n = 1;
  return initialised ? CUDA_SUCCESS : CUDA_ERROR_NOT_INITIALIZED;
}
FAKE CUresult cuDeviceGet(CUdevice *d, int ordinal) {
  *d = ordinal;
  return ordinal == 0 ? CUDA_SUCCESS : CUDA_ERROR_INVALID_DEVICE;
}
FAKE CUresult cuDeviceGetAttribute(int *v, int attr, CUdevice) {
  *v = attr == CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR ? 9 : 0;
  return CUDA_SUCCESS;
}
FAKE CUresult cuDeviceGetPCIBusId(char *id, int len, CUdevice) {
  std::snprintf(id, len, "0000:fa:00.0");
  return CUDA_SUCCESS;
}
FAKE CUresult cuDevicePrimaryCtxRetain(CUcontext *ctx, CUdevice) {
  *ctx = reinterpret_cast<CUcontext>(0x1000);
  return CUDA_SUCCESS;
}
FAKE CUresult cuDevicePrimaryCtxRelease_v2(CUdevice) { return CUDA_SUCCESS; }
FAKE CUresult cuCtxSetCurrent(CUcontext) { return CUDA_SUCCESS; }
FAKE CUresult cuModuleLoadData(CUmodule *, const void *) {
  return kInvalidImage;
}
FAKE CUresult cuModuleUnload(CUmodule) { return CUDA_SUCCESS; }
FAKE CUresult cuModuleGetFunction(CUfunction *, CUmodule, const char *) {
  return CUDA_ERROR_INVALID_VALUE;
}
FAKE CUresult cuLaunchKernel(CUfunction, unsigned, unsigned, unsigned, unsigned,
                             unsigned, unsigned, unsigned, CUstream, void **,
                             void **) {
  return CUDA_ERROR_INVALID_VALUE;
}
FAKE CUresult cuStreamCreate(CUstream *s, unsigned) {
  *s = static_cast<CUstream>(std::malloc(1));
  return CUDA_SUCCESS;
}
FAKE CUresult cuStreamDestroy_v2(CUstream s) {
  std::free(s);
  return CUDA_SUCCESS;
}
FAKE CUresult cuStreamSynchronize(CUstream) { return CUDA_SUCCESS; }
FAKE CUresult cuDeviceGetDefaultMemPool(CUmemoryPool *pool, CUdevice) {
  *pool = reinterpret_cast<CUmemoryPool>(0x2000);
  return CUDA_SUCCESS;
}
FAKE CUresult cuMemPoolSetAttribute(CUmemoryPool, int, void *) {
  return CUDA_SUCCESS;
}
FAKE CUresult cuMemAllocAsync(CUdeviceptr *p, size_t n, CUstream) {
  return alloc(p, n);
}
FAKE CUresult cuMemFreeAsync(CUdeviceptr p, CUstream) { return release(p); }
FAKE CUresult cuMemAlloc_v2(CUdeviceptr *p, size_t n) { return alloc(p, n); }
FAKE CUresult cuMemFree_v2(CUdeviceptr p) { return release(p); }
FAKE CUresult cuMemcpyHtoDAsync_v2(CUdeviceptr d, const void *h, size_t n,
                                   CUstream) {
  if (!isDevice(d, n) || isDevice(reinterpret_cast<uintptr_t>(h), n)) {
    return CUDA_ERROR_INVALID_VALUE;
  }
  std::memcpy(reinterpret_cast<void *>(d), h, n);
  return CUDA_SUCCESS;
}
FAKE CUresult cuMemcpyDtoHAsync_v2(void *h, CUdeviceptr d, size_t n, CUstream) {
  if (!isDevice(d, n) || isDevice(reinterpret_cast<uintptr_t>(h), n)) {
    return CUDA_ERROR_INVALID_VALUE;
  }
  std::memcpy(h, reinterpret_cast<void *>(d), n);
  return CUDA_SUCCESS;
}
FAKE CUresult cuMemcpyDtoDAsync_v2(CUdeviceptr d, CUdeviceptr s, size_t n,
                                   CUstream) {
  if (!isDevice(d, n) || !isDevice(s, n)) {
    return CUDA_ERROR_INVALID_VALUE;
  }
  std::memmove(reinterpret_cast<void *>(d), reinterpret_cast<void *>(s), n);
  return CUDA_SUCCESS;
}
FAKE CUresult cuMemsetD8Async(CUdeviceptr d, unsigned char v, size_t n,
                              CUstream) {
  if (!isDevice(d, n)) {
    return CUDA_ERROR_INVALID_VALUE;
  }
  std::memset(reinterpret_cast<void *>(d), v, n);
  return CUDA_SUCCESS;
}
