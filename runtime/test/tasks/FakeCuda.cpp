// FakeCuda.cpp: a stand-in libcuda.so.1 over host memory, so the worker's GPU path runs end to end without a GPU.
//
// Loaded through $GRAPHRT_LIBCUDA by test/runtime/gpu-fake-driver.test. It
// exports the driver entry points the runtime resolves (by their exported
// names) with the semantics the runtime relies on: one device, sm_90,
// "device memory" from malloc that the fake tracks, so a copy whose kind
// contradicts its pointers fails with CUDA_ERROR_INVALID_VALUE as on a GPU.
// Kernels cannot run: cuModuleLoadData refuses every image.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <mutex>

namespace {

using CUresult = int;
constexpr CUresult kOk = 0, kInvalidValue = 1, kNotInitialized = 3,
                   kInvalidDevice = 101, kInvalidImage = 200;

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

CUresult alloc(unsigned long long *p, size_t n) {
  void *m = std::malloc(n ? n : 1);
  if (!m) {
    return 2; // CUDA_ERROR_OUT_OF_MEMORY
  }
  std::lock_guard<std::mutex> lock(mu);
  blocks[reinterpret_cast<uintptr_t>(m)] = n ? n : 1;
  *p = reinterpret_cast<uintptr_t>(m);
  return kOk;
}

CUresult release(unsigned long long p) {
  std::lock_guard<std::mutex> lock(mu);
  if (!blocks.erase(p)) {
    return kInvalidValue;
  }
  std::free(reinterpret_cast<void *>(p));
  return kOk;
}

} // namespace

#define FAKE extern "C" __attribute__((visibility("default"))) CUresult

FAKE cuInit(unsigned) {
  initialised = true;
  return kOk;
}
FAKE cuGetErrorName(CUresult r, const char **name) {
  switch (r) {
  case kInvalidValue:
    *name = "CUDA_ERROR_INVALID_VALUE";
    return kOk;
  case kInvalidImage:
    *name = "CUDA_ERROR_INVALID_IMAGE";
    return kOk;
  default:
    return kInvalidValue;
  }
}
FAKE cuDeviceGetCount(int *n) {
  *n = 1;
  return initialised ? kOk : kNotInitialized;
}
FAKE cuDeviceGet(int *d, int ordinal) {
  *d = ordinal;
  return ordinal == 0 ? kOk : kInvalidDevice;
}
FAKE cuDeviceGetAttribute(int *v, int attr, int) {
  *v = attr == 75 ? 9 : 0; // compute capability 9.0
  return kOk;
}
FAKE cuDeviceGetPCIBusId(char *id, int len, int) {
  std::snprintf(id, len, "0000:fa:00.0");
  return kOk;
}
FAKE cuDevicePrimaryCtxRetain(void **ctx, int) {
  *ctx = reinterpret_cast<void *>(0x1000);
  return kOk;
}
FAKE cuDevicePrimaryCtxRelease_v2(int) { return kOk; }
FAKE cuCtxSetCurrent(void *) { return kOk; }
FAKE cuModuleLoadData(void **, const void *) { return kInvalidImage; }
FAKE cuModuleUnload(void *) { return kOk; }
FAKE cuModuleGetFunction(void **, void *, const char *) {
  return kInvalidValue;
}
FAKE cuLaunchKernel(void *, unsigned, unsigned, unsigned, unsigned, unsigned,
                    unsigned, unsigned, void *, void **, void **) {
  return kInvalidValue;
}
FAKE cuStreamCreate(void **s, unsigned) {
  *s = std::malloc(1);
  return kOk;
}
FAKE cuStreamDestroy_v2(void *s) {
  std::free(s);
  return kOk;
}
FAKE cuStreamSynchronize(void *) { return kOk; }
FAKE cuDeviceGetDefaultMemPool(void **pool, int) {
  *pool = reinterpret_cast<void *>(0x2000);
  return kOk;
}
FAKE cuMemPoolSetAttribute(void *, int, void *) { return kOk; }
FAKE cuMemAllocAsync(unsigned long long *p, size_t n, void *) {
  return alloc(p, n);
}
FAKE cuMemFreeAsync(unsigned long long p, void *) { return release(p); }
FAKE cuMemAlloc_v2(unsigned long long *p, size_t n) { return alloc(p, n); }
FAKE cuMemFree_v2(unsigned long long p) { return release(p); }
FAKE cuMemcpyHtoDAsync_v2(unsigned long long d, const void *h, size_t n,
                          void *) {
  if (!isDevice(d, n) || isDevice(reinterpret_cast<uintptr_t>(h), n)) {
    return kInvalidValue;
  }
  std::memcpy(reinterpret_cast<void *>(d), h, n);
  return kOk;
}
FAKE cuMemcpyDtoHAsync_v2(void *h, unsigned long long d, size_t n, void *) {
  if (!isDevice(d, n) || isDevice(reinterpret_cast<uintptr_t>(h), n)) {
    return kInvalidValue;
  }
  std::memcpy(h, reinterpret_cast<void *>(d), n);
  return kOk;
}
FAKE cuMemcpyDtoDAsync_v2(unsigned long long d, unsigned long long s, size_t n,
                          void *) {
  if (!isDevice(d, n) || !isDevice(s, n)) {
    return kInvalidValue;
  }
  std::memmove(reinterpret_cast<void *>(d), reinterpret_cast<void *>(s), n);
  return kOk;
}
FAKE cuMemsetD8Async(unsigned long long d, unsigned char v, size_t n, void *) {
  if (!isDevice(d, n)) {
    return kInvalidValue;
  }
  std::memset(reinterpret_cast<void *>(d), v, n);
  return kOk;
}
