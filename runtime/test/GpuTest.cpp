// GpuTest.cpp: the GPU services without a GPU: the driver loader, fake device
// memory, host staging and the GEMM mapping.
#include "Collectives.h"
#include "Context.h"
#include "Gpu/CudaApi.h"
#include "Gpu/GpuTask.h"
#include "HalfFloat.h"
#include "Rendezvous.h"

#include <gtest/gtest.h>

#include <dlfcn.h>
#include <unistd.h>

#include <cstdlib>
#include <cstring>
#include <map>
#include <mutex>
#include <thread>

using namespace graphrt;
using namespace graphrt::gpu;

namespace {

//===----------------------------------------------------------------------===//
// The fake driver: FakeCuda.cpp (linked in; "device memory" is host memory it
// tracks, so every copy checks that its direction matches its pointers),
// with a few entry points wrapped to inject failures and count launches.
//===----------------------------------------------------------------------===//

extern "C" {
bool graphrt_fake_cuda_is_device(const void *p, size_t n);
size_t graphrt_fake_cuda_live_blocks();
#define GRAPHRT_FAKE_CU(name, ...) CUresult name(__VA_ARGS__);
GRAPHRT_FAKE_CU(cuInit, unsigned)
GRAPHRT_FAKE_CU(cuGetErrorName, CUresult, const char **)
GRAPHRT_FAKE_CU(cuDeviceGetCount, int *)
GRAPHRT_FAKE_CU(cuDeviceGet, CUdevice *, int)
GRAPHRT_FAKE_CU(cuDeviceGetAttribute, int *, int, CUdevice)
GRAPHRT_FAKE_CU(cuDeviceGetPCIBusId, char *, int, CUdevice)
GRAPHRT_FAKE_CU(cuDevicePrimaryCtxRetain, CUcontext *, CUdevice)
GRAPHRT_FAKE_CU(cuDevicePrimaryCtxRelease_v2, CUdevice)
GRAPHRT_FAKE_CU(cuCtxSetCurrent, CUcontext)
GRAPHRT_FAKE_CU(cuModuleLoadData, CUmodule *, const void *)
GRAPHRT_FAKE_CU(cuModuleUnload, CUmodule)
GRAPHRT_FAKE_CU(cuStreamCreate, CUstream *, unsigned)
GRAPHRT_FAKE_CU(cuStreamDestroy_v2, CUstream)
GRAPHRT_FAKE_CU(cuStreamSynchronize, CUstream)
GRAPHRT_FAKE_CU(cuDeviceGetDefaultMemPool, CUmemoryPool *, CUdevice)
GRAPHRT_FAKE_CU(cuMemPoolSetAttribute, CUmemoryPool, int, void *)
GRAPHRT_FAKE_CU(cuMemAllocAsync, CUdeviceptr *, size_t, CUstream)
GRAPHRT_FAKE_CU(cuMemFreeAsync, CUdeviceptr, CUstream)
GRAPHRT_FAKE_CU(cuMemAlloc_v2, CUdeviceptr *, size_t)
GRAPHRT_FAKE_CU(cuMemFree_v2, CUdeviceptr)
GRAPHRT_FAKE_CU(cuMemcpyHtoDAsync_v2, CUdeviceptr, const void *, size_t,
                CUstream)
GRAPHRT_FAKE_CU(cuMemcpyDtoHAsync_v2, void *, CUdeviceptr, size_t, CUstream)
GRAPHRT_FAKE_CU(cuMemcpyDtoDAsync_v2, CUdeviceptr, CUdeviceptr, size_t,
                CUstream)
GRAPHRT_FAKE_CU(cuMemsetD8Async, CUdeviceptr, unsigned char, size_t, CUstream)
#undef GRAPHRT_FAKE_CU
}

struct FakeDevice {
  size_t limit = 64 << 20;  // larger allocations fail with OOM
  bool loadModules = false; // FakeCuda refuses every image
  int launches = 0;
  bool isDevice(const void *p, size_t n) {
    return graphrt_fake_cuda_is_device(p, n);
  }
};
FakeDevice fake;

CUresult fModuleLoad(CUmodule *m, const void *image) {
  if (!fake.loadModules) {
    return cuModuleLoadData(m, image);
  }
  *m = reinterpret_cast<CUmodule>(0x2000);
  return CUDA_SUCCESS;
}
CUresult fGetFunction(CUfunction *f, CUmodule, const char *) {
  *f = reinterpret_cast<CUfunction>(0x3000);
  return CUDA_SUCCESS;
}
CUresult fLaunch(CUfunction, unsigned, unsigned, unsigned, unsigned, unsigned,
                 unsigned, unsigned, CUstream, void **, void **) {
  ++fake.launches;
  return CUDA_SUCCESS;
}
CUresult fAllocAsync(CUdeviceptr *p, size_t n, CUstream s) {
  return n > fake.limit ? CUDA_ERROR_OUT_OF_MEMORY : cuMemAllocAsync(p, n, s);
}

const CudaDriverApi kFakeDriver = {
    cuInit,
    cuGetErrorName,
    cuDeviceGetCount,
    cuDeviceGet,
    cuDeviceGetAttribute,
    cuDeviceGetPCIBusId,
    cuDevicePrimaryCtxRetain,
    cuDevicePrimaryCtxRelease_v2,
    cuCtxSetCurrent,
    fModuleLoad,
    cuModuleUnload,
    fGetFunction,
    fLaunch,
    cuStreamCreate,
    cuStreamDestroy_v2,
    cuStreamSynchronize,
    cuDeviceGetDefaultMemPool,
    cuMemPoolSetAttribute,
    fAllocAsync,
    cuMemFreeAsync,
    cuMemAlloc_v2,
    cuMemFree_v2,
    cuMemcpyHtoDAsync_v2,
    cuMemcpyDtoHAsync_v2,
    cuMemcpyDtoDAsync_v2,
    cuMemsetD8Async,
};

//===----------------------------------------------------------------------===//
// Host services for ranks that are threads: the runtime's own ring
// collectives over an in-process transport, as in CollectivesTest.
//===----------------------------------------------------------------------===//

struct Rank;
struct HostGroup {
  explicit HostGroup(int n) : inbox(n) {}
  std::vector<Rendezvous> inbox;
};

class Transport : public PeerTransport {
public:
  Transport(HostGroup &g, int rank) : g_(g), rank_(rank) {}
  Status send(int peer, const std::string &key, const void *data,
              size_t bytes) override {
    return g_.inbox[peer].deposit(key, data, bytes);
  }
  Status recv(int, const std::string &key, void *data, size_t bytes) override {
    return g_.inbox[rank_].take(key, data, bytes,
                                Clock::now() + std::chrono::seconds(10));
  }

private:
  HostGroup &g_;
  int rank_;
};

// A rank's context: the runtime's context first, so the services can cast
// back to the rank.
struct Rank {
  graphrt_context_s ctx{nullptr};
  HostGroup *group;
  int rank, size;
  int seq = 0;
  std::unique_ptr<Transport> transport;
  std::vector<char> workspace;
  CollectiveCall call() {
    return CollectiveCall{transport.get(), rank, size,
                          "c" + std::to_string(seq++), &workspace};
  }
};
Rank &rankOf(graphrt_context_t *ctx) { return *reinterpret_cast<Rank *>(ctx); }

graphrt_status_t hGroupRank(graphrt_context_t *ctx, const char *group,
                            int32_t *r, int32_t *n) {
  if (std::strcmp(group, "g") != 0) {
    return Status(GRAPHRT_STATUS_INVALID_ARGUMENT,
                  std::string("unknown collective group '") + group + "'")
        .toC();
  }
  *r = rankOf(ctx).rank;
  *n = rankOf(ctx).size;
  return GRAPHRT_OK;
}
graphrt_status_t hAllReduce(graphrt_context_t *ctx, const char *,
                            graphrt_reduce_op_t op, graphrt_dtype_t dtype,
                            const void *in, void *out, size_t count) {
  EXPECT_FALSE(fake.isDevice(in, 1)) << "host collective on device";
  return ringAllReduce(rankOf(ctx).call(), op, dtype, in, out, count).toC();
}
graphrt_status_t hAllGather(graphrt_context_t *ctx, const char *,
                            graphrt_dtype_t dtype, const void *in, void *out,
                            size_t count) {
  return ringAllGather(rankOf(ctx).call(), dtype, in, out, count).toC();
}
graphrt_status_t hReduceScatter(graphrt_context_t *ctx, const char *,
                                graphrt_reduce_op_t op, graphrt_dtype_t dtype,
                                const void *in, void *out, size_t count) {
  return ringReduceScatter(rankOf(ctx).call(), op, dtype, in, out, count).toC();
}

graphrt_services_v1_t hostServices() {
  graphrt_services_v1_t s{};
  s.struct_size = sizeof(s);
  s.group_rank = hGroupRank;
  s.all_reduce = hAllReduce;
  s.all_gather = hAllGather;
  s.reduce_scatter = hReduceScatter;
  return s;
}

std::unique_ptr<GpuTask> fakeTask(const graphrt_services_v1_t *host) {
  std::unique_ptr<GpuTask> g;
  Status st = GpuTask::create(&kFakeDriver, 0, host, &g);
  EXPECT_TRUE(st.isOk()) << st.toString();
  g->setNccl(nullptr);
  return g;
}

std::string messageOf(graphrt_status_t st) {
  return Status::fromC(st).message();
}

//===----------------------------------------------------------------------===//
// The driver loader
//===----------------------------------------------------------------------===//

// The loader opens the driver once per process, so each case runs in a child.
TEST(CudaLoader, MissingDriverIsNamed) {
  EXPECT_EXIT(
      {
        ::setenv("GRAPHRT_LIBCUDA", "/nonexistent/libcuda.so.1", 1);
        const CudaDriverApi *api = nullptr;
        Status st = loadCudaDriver(&api);
        std::fprintf(stderr, "%s\n", st.toString().c_str());
        std::exit(st.code() == GRAPHRT_STATUS_FAILED_PRECONDITION ? 0 : 1);
      },
      ::testing::ExitedWithCode(0),
      "FAILED_PRECONDITION: /nonexistent/libcuda.so.1: not found");
}

TEST(CudaLoader, DefaultDriverAbsentOnThisMachine) {
  if (void *h = ::dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL)) {
    ::dlclose(h);
    GTEST_SKIP() << "this machine has a CUDA driver";
  }
  EXPECT_EXIT(
      {
        ::unsetenv("GRAPHRT_LIBCUDA");
        const CudaDriverApi *api = nullptr;
        Status st = loadCudaDriver(&api);
        std::fprintf(stderr, "%s\n", st.message().c_str());
        std::exit(st.isOk() ? 1 : 0);
      },
      ::testing::ExitedWithCode(0), "^libcuda.so.1: not found");
}

// The toolkit's stub library exports every entry point and fails every call:
// the loader accepts it and the probe says the device is unusable.
TEST(CudaLoader, StubDriverHasNoDevice) {
  const char *stub = "/usr/local/cuda/lib64/stubs/libcuda.so";
  if (::access(stub, R_OK) != 0) {
    GTEST_SKIP() << "no CUDA toolkit stub at " << stub;
  }
  EXPECT_EXIT(
      {
        ::setenv("GRAPHRT_LIBCUDA", stub, 1);
        const CudaDriverApi *api = nullptr;
        Status st = loadCudaDriver(&api);
        if (!st.isOk()) {
          std::fprintf(stderr, "load: %s\n", st.toString().c_str());
          std::exit(1);
        }
        int count = -1;
        st = probeCudaDevice(api, &count);
        std::fprintf(stderr, "%s\n", st.toString().c_str());
        std::exit(st.isOk() ? 1 : 0);
      },
      ::testing::ExitedWithCode(0),
      "FAILED_PRECONDITION: no usable CUDA device \\(cuInit: "
      "CUDA_ERROR_STUB_LIBRARY\\)");
}

TEST(CudaLoader, ErrorsNameTheCallAndMapTheCode) {
  Status st = cudaError(kFakeDriver, CUDA_ERROR_OUT_OF_MEMORY, "cuMemAlloc");
  EXPECT_EQ(st.code(), GRAPHRT_STATUS_RESOURCE_EXHAUSTED);
  EXPECT_EQ(st.message(), "cuMemAlloc failed: CUDA_ERROR_OUT_OF_MEMORY");
  // The fake names few codes; the loader's own table names the rest.
  st = cudaError(kFakeDriver, CUDA_ERROR_NO_DEVICE, "cuInit");
  EXPECT_EQ(st.code(), GRAPHRT_STATUS_FAILED_PRECONDITION);
  EXPECT_EQ(st.message(), "cuInit failed: CUDA_ERROR_NO_DEVICE");
  EXPECT_EQ(cudaErrorName(kFakeDriver, 999), "CUDA error 999");
}

//===----------------------------------------------------------------------===//
// The services table over the fake device
//===----------------------------------------------------------------------===//

TEST(GpuServices, DeviceOrdinalFromTheManifestDevice) {
  EXPECT_EQ(deviceOrdinalFor("/job:worker/task:0/device:GPU:0", 2), 0);
  EXPECT_EQ(deviceOrdinalFor("/job:worker/task:1/device:GPU:1", 2), 1);
  // More GPUs named than present: tasks share them.
  EXPECT_EQ(deviceOrdinalFor("/job:worker/task:3/device:GPU:3", 2), 1);
  EXPECT_EQ(deviceOrdinalFor("/job:worker/task:0/device:CPU:0", 4), 0);
  EXPECT_EQ(deviceOrdinalFor("", 1), 0);
}

TEST(GpuServices, TableCopiesAndFillsOnTheDevice) {
  graphrt_services_v1_t host = hostServices();
  std::unique_ptr<GpuTask> g = fakeTask(&host);
  graphrt_context_s ctx{nullptr, g.get()};
  const graphrt_gpu_services_t *t = g->table();
  EXPECT_EQ(t->struct_size, sizeof(graphrt_gpu_services_t));
  EXPECT_EQ(t->compute_capability, 90);
  EXPECT_EQ(t->device_ordinal, 0);
  ASSERT_NE(t->stream, nullptr);

  std::vector<float> in = {1, 2, 3, 4}, out(4, 0);
  void *a = nullptr, *b = nullptr;
  ASSERT_EQ(t->memory_allocate(&ctx, 16, t->stream, &a), GRAPHRT_OK);
  ASSERT_EQ(t->memory_allocate(&ctx, 16, nullptr, &b), GRAPHRT_OK);
  EXPECT_EQ(
      t->memcpy(&ctx, a, in.data(), 16, GRAPHRT_MEMCPY_HOST_TO_DEVICE, nullptr),
      GRAPHRT_OK);
  EXPECT_EQ(t->memcpy(&ctx, b, a, 16, GRAPHRT_MEMCPY_DEVICE_TO_DEVICE, nullptr),
            GRAPHRT_OK);
  EXPECT_EQ(t->memset(&ctx, b, 0, 4, nullptr), GRAPHRT_OK); // b[0] = 0.0f
  EXPECT_EQ(t->memcpy(&ctx, out.data(), b, 16, GRAPHRT_MEMCPY_DEVICE_TO_HOST,
                      nullptr),
            GRAPHRT_OK);
  EXPECT_EQ(t->stream_synchronize(&ctx, nullptr), GRAPHRT_OK);
  EXPECT_EQ(out, (std::vector<float>{0, 2, 3, 4}));

  // A copy whose kind contradicts its pointers reaches the driver, whose
  // error comes back named with the call.
  std::string m = messageOf(t->memcpy(&ctx, a, out.data(), 16,
                                      GRAPHRT_MEMCPY_DEVICE_TO_HOST, nullptr));
  EXPECT_EQ(m, "cuMemcpyDtoHAsync(16 bytes) failed: CUDA_ERROR_INVALID_VALUE");
  t->memory_release(&ctx, a, nullptr);
  t->memory_release(&ctx, b, t->stream);
  EXPECT_EQ(graphrt_fake_cuda_live_blocks(), 0u);
}

TEST(GpuServices, FailuresNameTheCudaError) {
  graphrt_services_v1_t host = hostServices();
  std::unique_ptr<GpuTask> g = fakeTask(&host);
  graphrt_context_s ctx{nullptr, g.get()};
  const graphrt_gpu_services_t *t = g->table();
  void *p = nullptr;
  Status st = Status::fromC(t->memory_allocate(&ctx, 128 << 20, nullptr, &p));
  EXPECT_EQ(st.code(), GRAPHRT_STATUS_RESOURCE_EXHAUSTED);
  EXPECT_EQ(
      st.message(),
      "cuMemAllocAsync(134217728 bytes) failed: CUDA_ERROR_OUT_OF_MEMORY");

  void *module = nullptr;
  const char ptx[] = ".version 8.0";
  EXPECT_EQ(messageOf(t->module_load(&ctx, ptx, sizeof(ptx), &module)),
            "cuModuleLoadData (13-byte image, device 0, sm_90) failed: "
            "CUDA_ERROR_INVALID_IMAGE");
  fake.loadModules = true;
  ASSERT_EQ(t->module_load(&ctx, ptx, sizeof(ptx), &module), GRAPHRT_OK);
  void *fn = nullptr;
  ASSERT_EQ(t->module_get_function(&ctx, module, "k", &fn), GRAPHRT_OK);

  int launches = fake.launches;
  EXPECT_EQ(
      messageOf(t->launch(&ctx, fn, 4, 0, 1, 128, 1, 1, 0, nullptr, nullptr)),
      "launch: grid 4x0x1, block 128x1x1: every dimension must be at "
      "least 1");
  EXPECT_EQ(t->launch(&ctx, fn, 4, 1, 1, 128, 1, 1, 0, nullptr, nullptr),
            GRAPHRT_OK);
  EXPECT_EQ(fake.launches, launches + 1);
  t->module_unload(&ctx, module);

  // A context without GPU state (a cpu task handed the table by mistake).
  graphrt_context_s cpu{nullptr};
  st = Status::fromC(t->stream_synchronize(&cpu, nullptr));
  EXPECT_EQ(st.code(), GRAPHRT_STATUS_FAILED_PRECONDITION);
}

//===----------------------------------------------------------------------===//
// Collectives
//===----------------------------------------------------------------------===//

DeviceRecord record(const char *host, const char *bus, int nccl) {
  DeviceRecord r{};
  std::snprintf(r.host, sizeof(r.host), "%s", host);
  std::snprintf(r.busId, sizeof(r.busId), "%s", bus);
  r.ncclAvailable = nccl;
  return r;
}

TEST(GpuCollectives, NcclOnlyWhenEveryMemberHasItsOwnGpu) {
  EXPECT_TRUE(groupUsesNccl(
      {record("a", "0000:19:00.0", 1), record("a", "0000:3b:00.0", 1)}));
  EXPECT_TRUE(groupUsesNccl(
      {record("a", "0000:19:00.0", 1), record("b", "0000:19:00.0", 1)}));
  // Two tasks on one GPU: NCCL refuses duplicate devices.
  EXPECT_FALSE(groupUsesNccl(
      {record("a", "0000:19:00.0", 1), record("a", "0000:19:00.0", 1)}));
  // One member without NCCL: everyone stages.
  EXPECT_FALSE(groupUsesNccl(
      {record("a", "0000:19:00.0", 1), record("b", "0000:19:00.0", 0)}));
}

// Three ranks on one (fake) GPU stage through host memory and the runtime's
// ring collectives; the results land back in device memory.
TEST(GpuCollectives, HostStagedWhenTasksShareAGpu) {
  constexpr int kRanks = 3;
  constexpr size_t kCount = 5;
  HostGroup group(kRanks);
  graphrt_services_v1_t host = hostServices();
  std::vector<std::unique_ptr<Rank>> ranks;
  std::vector<std::unique_ptr<GpuTask>> gpus;
  for (int r = 0; r < kRanks; ++r) {
    auto rank = std::make_unique<Rank>();
    rank->group = &group;
    rank->rank = r;
    rank->size = kRanks;
    rank->transport = std::make_unique<Transport>(group, r);
    gpus.push_back(fakeTask(&host));
    rank->ctx.gpu = gpus.back().get();
    ranks.push_back(std::move(rank));
  }
  std::vector<std::vector<float>> reduced(kRanks), gathered(kRanks),
      scattered(kRanks);
  std::vector<Status> results(kRanks);
  std::vector<std::thread> threads;
  for (int r = 0; r < kRanks; ++r) {
    threads.emplace_back([&, r] {
      graphrt_context_t *ctx = &ranks[r]->ctx;
      const graphrt_gpu_services_t *t = gpus[r]->table();
      std::vector<float> in(kCount * kRanks);
      for (size_t i = 0; i < in.size(); ++i) {
        in[i] = float(r * 100 + i);
      }
      size_t bytes = in.size() * sizeof(float);
      void *dIn = nullptr, *dOut = nullptr;
      auto run = [&]() -> Status {
        GRAPHRT_RETURN_IF_ERROR(
            Status::fromC(t->memory_allocate(ctx, bytes, nullptr, &dIn)));
        GRAPHRT_RETURN_IF_ERROR(
            Status::fromC(t->memory_allocate(ctx, bytes, nullptr, &dOut)));
        GRAPHRT_RETURN_IF_ERROR(
            Status::fromC(t->memcpy(ctx, dIn, in.data(), bytes,
                                    GRAPHRT_MEMCPY_HOST_TO_DEVICE, nullptr)));
        auto fetch = [&](std::vector<float> *v, size_t n) {
          v->resize(n);
          return Status::fromC(
              t->memcpy(ctx, v->data(), dOut, n * sizeof(float),
                        GRAPHRT_MEMCPY_DEVICE_TO_HOST, nullptr));
        };
        GRAPHRT_RETURN_IF_ERROR(Status::fromC(
            t->all_reduce(ctx, "g", GRAPHRT_REDUCE_SUM, GRAPHRT_DTYPE_F32, dIn,
                          dOut, kCount, nullptr)));
        GRAPHRT_RETURN_IF_ERROR(fetch(&reduced[r], kCount));
        GRAPHRT_RETURN_IF_ERROR(Status::fromC(t->all_gather(
            ctx, "g", GRAPHRT_DTYPE_F32, dIn, dOut, kCount, nullptr)));
        GRAPHRT_RETURN_IF_ERROR(fetch(&gathered[r], kCount * kRanks));
        GRAPHRT_RETURN_IF_ERROR(Status::fromC(
            t->reduce_scatter(ctx, "g", GRAPHRT_REDUCE_MAX, GRAPHRT_DTYPE_F32,
                              dIn, dOut, kCount, nullptr)));
        GRAPHRT_RETURN_IF_ERROR(fetch(&scattered[r], kCount));
        t->memory_release(ctx, dIn, nullptr);
        t->memory_release(ctx, dOut, nullptr);
        return Status::ok();
      };
      results[r] = run();
    });
  }
  for (auto &t : threads) {
    t.join();
  }
  for (int r = 0; r < kRanks; ++r) {
    ASSERT_TRUE(results[r].isOk())
        << "rank " << r << ": " << results[r].toString();
    EXPECT_EQ(gpus[r]->stagedCalls(), 3);
    EXPECT_EQ(gpus[r]->ncclCalls(), 0);
    for (size_t i = 0; i < kCount; ++i) {
      EXPECT_EQ(reduced[r][i], float(0 + 100 + 200 + 3 * i)) << i;
      // The largest contribution is rank 2's.
      EXPECT_EQ(scattered[r][i], float(200 + r * kCount + i)) << i;
      for (int q = 0; q < kRanks; ++q) {
        EXPECT_EQ(gathered[r][q * kCount + i], float(q * 100 + i));
      }
    }
  }
}

TEST(GpuCollectives, UnknownGroupIsNamed) {
  graphrt_services_v1_t host = hostServices();
  std::unique_ptr<GpuTask> g = fakeTask(&host);
  Rank rank;
  rank.ctx.gpu = g.get();
  float x = 0;
  EXPECT_EQ(
      messageOf(g->table()->all_reduce(&rank.ctx, "nope", GRAPHRT_REDUCE_SUM,
                                       GRAPHRT_DTYPE_F32, &x, &x, 1, nullptr)),
      "unknown collective group 'nope'");
}

//===----------------------------------------------------------------------===//
// GEMM: a fake cuBLASLt that is a plain column-major BLAS, against a
// row-major reference
//===----------------------------------------------------------------------===//

struct FakeLayout {
  int type;
  uint64_t rows, cols;
  int64_t ld;
  int32_t batch = 1;
  int64_t stride = 0;
};
struct FakeDesc {
  int32_t transA = CUBLAS_OP_N, transB = CUBLAS_OP_N;
};
int fakeMatmuls = 0;

cublasStatus_t ltCreate(cublasLtHandle_t *h) {
  *h = reinterpret_cast<cublasLtHandle_t>(0x5000);
  return CUBLAS_STATUS_SUCCESS;
}
cublasStatus_t ltDestroy(cublasLtHandle_t) { return CUBLAS_STATUS_SUCCESS; }
const char *ltName(cublasStatus_t) { return "CUBLAS_STATUS_NOT_SUPPORTED"; }
cublasStatus_t descCreate(cublasLtMatmulDesc_t *d, int compute, int scale) {
  EXPECT_EQ(compute, CUBLAS_COMPUTE_32F);
  EXPECT_EQ(scale, CUDA_R_32F);
  *d = reinterpret_cast<cublasLtMatmulDesc_t>(new FakeDesc);
  return CUBLAS_STATUS_SUCCESS;
}
cublasStatus_t descDestroy(cublasLtMatmulDesc_t d) {
  delete reinterpret_cast<FakeDesc *>(d);
  return CUBLAS_STATUS_SUCCESS;
}
cublasStatus_t descSet(cublasLtMatmulDesc_t d, int attr, const void *v,
                       size_t n) {
  EXPECT_EQ(n, sizeof(int32_t));
  auto *desc = reinterpret_cast<FakeDesc *>(d);
  std::memcpy(attr == CUBLASLT_MATMUL_DESC_TRANSA ? &desc->transA
                                                  : &desc->transB,
              v, n);
  return CUBLAS_STATUS_SUCCESS;
}
cublasStatus_t layoutCreate(cublasLtMatrixLayout_t *l, int type, uint64_t rows,
                            uint64_t cols, int64_t ld) {
  if (ld < int64_t(rows)) {
    return 7; // CUBLAS_STATUS_INVALID_VALUE, as cuBLASLt would
  }
  *l = reinterpret_cast<cublasLtMatrixLayout_t>(
      new FakeLayout{type, rows, cols, ld});
  return CUBLAS_STATUS_SUCCESS;
}
cublasStatus_t layoutDestroy(cublasLtMatrixLayout_t l) {
  delete reinterpret_cast<FakeLayout *>(l);
  return CUBLAS_STATUS_SUCCESS;
}
cublasStatus_t layoutSet(cublasLtMatrixLayout_t l, int attr, const void *v,
                         size_t n) {
  auto *layout = reinterpret_cast<FakeLayout *>(l);
  if (attr == CUBLASLT_MATRIX_LAYOUT_BATCH_COUNT) {
    EXPECT_EQ(n, sizeof(int32_t));
    std::memcpy(&layout->batch, v, n);
  } else {
    EXPECT_EQ(attr, CUBLASLT_MATRIX_LAYOUT_STRIDED_BATCH_OFFSET);
    EXPECT_EQ(n, sizeof(int64_t));
    std::memcpy(&layout->stride, v, n);
  }
  return CUBLAS_STATUS_SUCCESS;
}
cublasStatus_t prefCreate(cublasLtMatmulPreference_t *p) {
  *p = reinterpret_cast<cublasLtMatmulPreference_t>(0x6000);
  return CUBLAS_STATUS_SUCCESS;
}
cublasStatus_t prefDestroy(cublasLtMatmulPreference_t) {
  return CUBLAS_STATUS_SUCCESS;
}
cublasStatus_t prefSet(cublasLtMatmulPreference_t, int, const void *, size_t) {
  return CUBLAS_STATUS_SUCCESS;
}
cublasStatus_t heuristic(cublasLtHandle_t, cublasLtMatmulDesc_t,
                         cublasLtMatrixLayout_t, cublasLtMatrixLayout_t,
                         cublasLtMatrixLayout_t, cublasLtMatrixLayout_t,
                         cublasLtMatmulPreference_t, int,
                         cublasLtMatmulHeuristicResult_t *res, int *n) {
  res->state = CUBLAS_STATUS_SUCCESS;
  *n = 1;
  return CUBLAS_STATUS_SUCCESS;
}

float load(int type, const void *p, int64_t i) {
  if (type == CUDA_R_32F) {
    return static_cast<const float *>(p)[i];
  }
  return bf16ToFloat(static_cast<const uint16_t *>(p)[i]);
}
void store(int type, void *p, int64_t i, float v) {
  if (type == CUDA_R_32F) {
    static_cast<float *>(p)[i] = v;
  } else {
    static_cast<uint16_t *>(p)[i] = floatToBf16(v);
  }
}

// D = alpha op(A) op(B) + beta C, column-major, as cuBLASLt defines it.
cublasStatus_t matmul(cublasLtHandle_t, cublasLtMatmulDesc_t d,
                      const void *alpha, const void *a,
                      cublasLtMatrixLayout_t la, const void *b,
                      cublasLtMatrixLayout_t lb, const void *beta,
                      const void *c, cublasLtMatrixLayout_t lc, void *out,
                      cublasLtMatrixLayout_t ld, const cublasLtMatmulAlgo_t *,
                      void *, size_t, CUstream) {
  ++fakeMatmuls;
  auto &desc = *reinterpret_cast<FakeDesc *>(d);
  auto &A = *reinterpret_cast<FakeLayout *>(la);
  auto &B = *reinterpret_cast<FakeLayout *>(lb);
  auto &C = *reinterpret_cast<FakeLayout *>(lc);
  auto &D = *reinterpret_cast<FakeLayout *>(ld);
  EXPECT_EQ(c, out);
  uint64_t m = D.rows, n = D.cols;
  uint64_t k = desc.transA ? A.rows : A.cols;
  EXPECT_EQ(desc.transA ? A.cols : A.rows, m);
  EXPECT_EQ(desc.transB ? B.rows : B.cols, n);
  EXPECT_EQ(desc.transB ? B.cols : B.rows, k);
  EXPECT_TRUE(A.batch == D.batch && B.batch == D.batch && C.batch == D.batch);
  float al = *static_cast<const float *>(alpha);
  float be = *static_cast<const float *>(beta);
  for (int32_t bt = 0; bt < D.batch; ++bt) {
    for (uint64_t j = 0; j < n; ++j) {
      for (uint64_t i = 0; i < m; ++i) {
        float acc = 0;
        for (uint64_t l = 0; l < k; ++l) {
          int64_t ai = desc.transA ? l + i * A.ld : i + l * A.ld;
          int64_t bi = desc.transB ? j + l * B.ld : l + j * B.ld;
          acc += load(A.type, a, bt * A.stride + ai) *
                 load(B.type, b, bt * B.stride + bi);
        }
        int64_t ci = bt * C.stride + i + j * C.ld;
        store(D.type, out, ci, al * acc + be * load(C.type, c, ci));
      }
    }
  }
  return CUBLAS_STATUS_SUCCESS;
}

const CublasLtApi kFakeLt = {
    ltCreate,    ltDestroy,    ltName,        descCreate, descDestroy,
    descSet,     layoutCreate, layoutDestroy, layoutSet,  prefCreate,
    prefDestroy, prefSet,      heuristic,     matmul,
};

struct GemmCase {
  int ta, tb;
  int64_t m, n, k, batch;
  int64_t pad; // extra elements at the end of every row
};

// Row-major reference, straight from the table's definition.
void referenceGemm(const GemmCase &g, int type, float alpha,
                   const std::vector<char> &a, int64_t lda, int64_t sa,
                   const std::vector<char> &b, int64_t ldb, int64_t sb,
                   float beta, std::vector<char> *c, int64_t ldc, int64_t sc) {
  for (int64_t bt = 0; bt < g.batch; ++bt) {
    for (int64_t i = 0; i < g.m; ++i) {
      for (int64_t j = 0; j < g.n; ++j) {
        float acc = 0;
        for (int64_t l = 0; l < g.k; ++l) {
          int64_t ai = g.ta ? l * lda + i : i * lda + l;
          int64_t bi = g.tb ? j * ldb + l : l * ldb + j;
          acc += load(type, a.data(), bt * sa + ai) *
                 load(type, b.data(), bt * sb + bi);
        }
        int64_t ci = bt * sc + i * ldc + j;
        store(type, c->data(), ci,
              alpha * acc + beta * load(type, c->data(), ci));
      }
    }
  }
}

void checkGemm(const GemmCase &g, graphrt_dtype_t dtype) {
  int type = dtype == GRAPHRT_DTYPE_F32 ? CUDA_R_32F : CUDA_R_16BF;
  size_t es = graphrt_dtype_size(dtype);
  // Row-major storage: A is m x k (k x m transposed), B k x n (n x k).
  int64_t lda = (g.ta ? g.m : g.k) + g.pad, ldb = (g.tb ? g.k : g.n) + g.pad,
          ldc = g.n + g.pad;
  int64_t sa = (g.ta ? g.k : g.m) * lda + 3, sb = (g.tb ? g.n : g.k) * ldb + 1,
          sc = g.m * ldc + 2;
  std::vector<char> a(sa * g.batch * es), b(sb * g.batch * es),
      c(sc * g.batch * es);
  // Small integers: exact in f32 and bf16 products and sums.
  for (size_t i = 0; i < a.size() / es; ++i) {
    store(type, a.data(), i, float(int(i * 7 % 5) - 2));
  }
  for (size_t i = 0; i < b.size() / es; ++i) {
    store(type, b.data(), i, float(int(i * 3 % 7) - 3));
  }
  for (size_t i = 0; i < c.size() / es; ++i) {
    store(type, c.data(), i, float(int(i % 4)));
  }
  std::vector<char> expected = c;
  referenceGemm(g, type, 2.0f, a, lda, sa, b, ldb, sb, 0.5f, &expected, ldc,
                sc);

  graphrt_services_v1_t host = hostServices();
  std::unique_ptr<GpuTask> task = fakeTask(&host);
  task->setCublasLt(&kFakeLt);
  graphrt_context_s ctx{nullptr, task.get()};
  int before = fakeMatmuls;
  Status st = Status::fromC(task->table()->gemm(
      &ctx, nullptr, dtype, g.ta, g.tb, g.m, g.n, g.k, 2.0f, a.data(), lda, sa,
      b.data(), ldb, sb, 0.5f, c.data(), ldc, sc, g.batch));
  ASSERT_TRUE(st.isOk()) << st.toString();
  EXPECT_EQ(fakeMatmuls, before + 1);
  for (size_t i = 0; i < c.size() / es; ++i) {
    ASSERT_EQ(load(type, c.data(), i), load(type, expected.data(), i))
        << "element " << i << " of case ta=" << g.ta << " tb=" << g.tb
        << " m=" << g.m << " n=" << g.n << " k=" << g.k;
  }
}

TEST(GpuGemm, RowMajorThroughColumnMajorCublasLt) {
  for (int ta = 0; ta < 2; ++ta) {
    for (int tb = 0; tb < 2; ++tb) {
      checkGemm({ta, tb, 3, 5, 4, 1, 0}, GRAPHRT_DTYPE_F32);
      checkGemm({ta, tb, 4, 2, 7, 3, 2}, GRAPHRT_DTYPE_F32);
    }
  }
}

TEST(GpuGemm, Bf16Batched) {
  checkGemm({0, 1, 6, 3, 5, 2, 1}, GRAPHRT_DTYPE_BF16);
}

TEST(GpuGemm, LayoutOfTheTransposeTrick) {
  // C(2x3) = A(2x4) B(4x3): cuBLASLt computes C^T(3x2) = B^T(3x4) A^T(4x2),
  // its A being our B read as a column-major 3x4 matrix.
  GemmLayout l = columnMajorGemm(0, 0, 2, 3, 4, 4, 3, 3);
  EXPECT_EQ(l.transA, CUBLAS_OP_N);
  EXPECT_EQ(l.rows[0], 3u);
  EXPECT_EQ(l.cols[0], 4u);
  EXPECT_EQ(l.rows[1], 4u);
  EXPECT_EQ(l.cols[1], 2u);
  EXPECT_EQ(l.rows[2], 3u);
  EXPECT_EQ(l.cols[2], 2u);
  l = columnMajorGemm(1, 0, 2, 3, 4, 2, 3, 3);
  EXPECT_EQ(l.transB, CUBLAS_OP_T);
  EXPECT_EQ(l.rows[1], 2u);
  EXPECT_EQ(l.cols[1], 4u);
}

TEST(GpuGemm, ArgumentsAreChecked) {
  graphrt_services_v1_t host = hostServices();
  std::unique_ptr<GpuTask> task = fakeTask(&host);
  graphrt_context_s ctx{nullptr, task.get()};
  float x = 0;
  // lda 3 < k 4 for a non-transposed A.
  EXPECT_EQ(messageOf(task->table()->gemm(&ctx, nullptr, GRAPHRT_DTYPE_F32, 0,
                                          0, 2, 2, 4, 1, &x, 3, 0, &x, 2, 0, 0,
                                          &x, 2, 0, 1)),
            "gemm 2x2x4: leading dimensions lda=3 ldb=2 ldc=2 are shorter "
            "than the row-major rows they describe");
  EXPECT_EQ(messageOf(task->table()->gemm(&ctx, nullptr, GRAPHRT_DTYPE_I32, 0,
                                          0, 2, 2, 4, 1, &x, 4, 0, &x, 2, 0, 0,
                                          &x, 2, 0, 1)),
            "gemm 2x2x4: dtype 3 is not f32, f16 or bf16");
  // No cuBLASLt: the reason is named.
  task->setCublasLt(nullptr);
  Status st = Status::fromC(
      task->table()->gemm(&ctx, nullptr, GRAPHRT_DTYPE_F32, 0, 0, 2, 2, 4, 1,
                          &x, 4, 0, &x, 2, 0, 0, &x, 2, 0, 1));
  EXPECT_EQ(st.code(), GRAPHRT_STATUS_FAILED_PRECONDITION);
  EXPECT_EQ(st.message(), "gemm 2x2x4 needs cuBLASLt: none was given");
}

} // namespace
