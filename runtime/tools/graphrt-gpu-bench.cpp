// graphrt-gpu-bench.cpp: times the runtime's gemm service (cuBLASLt through
// GpuTask) on the local GPU.
//
//   graphrt-gpu-bench --dtype f32|bf16|f16 [--m M --n N --k K] [--iters I]
//                     [--out DIR]
//   graphrt-gpu-bench --probe
//
// --probe only opens the driver and device 0 and prints what it found (exit
// 1 and the reason when there is none).
// Prints one line "gemm DTYPE MxNxK: T ms, F TFLOP/s". With --out it writes
// the operands and the result (as f32 .npy) so a script can check them
// against another implementation.
#include "Context.h"
#include "Gpu/CudaApi.h"
#include "Gpu/GpuTask.h"
#include "HalfFloat.h"

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <string>
#include <vector>

using namespace graphrt;
using namespace graphrt::gpu;

namespace {

int fail(const Status &st) {
  std::fprintf(stderr, "graphrt-gpu-bench: error: %s\n", st.message().c_str());
  return 1;
}

void saveNpy(const std::string &path, const std::vector<float> &v, int64_t rows,
             int64_t cols) {
  std::string header = "{'descr': '<f4', 'fortran_order': False, 'shape': (" +
                       std::to_string(rows) + ", " + std::to_string(cols) +
                       "), }";
  header.append(64 - (10 + header.size() + 1) % 64, ' ');
  header += '\n';
  FILE *f = std::fopen(path.c_str(), "wb");
  if (!f) {
    std::fprintf(stderr, "graphrt-gpu-bench: cannot write %s\n", path.c_str());
    std::exit(1);
  }
  const char magic[] = "\x93NUMPY\x01\x00";
  std::fwrite(magic, 1, 8, f);
  uint16_t len = uint16_t(header.size());
  std::fwrite(&len, 2, 1, f);
  std::fwrite(header.data(), 1, header.size(), f);
  std::fwrite(v.data(), sizeof(float), v.size(), f);
  std::fclose(f);
}

} // namespace

int main(int argc, char **argv) {
  std::string dtypeName = "f32", outDir;
  int64_t m = 4096, n = 4096, k = 4096;
  int iters = 20;
  bool probe = false;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    if (a == "--probe") {
      probe = true;
      continue;
    }
    if (i + 1 >= argc) {
      std::fprintf(stderr, "graphrt-gpu-bench: error: %s needs a value\n",
                   a.c_str());
      return 2;
    }
    std::string v = argv[++i];
    if (a == "--dtype") {
      dtypeName = v;
    } else if (a == "--m") {
      m = std::atoll(v.c_str());
    } else if (a == "--n") {
      n = std::atoll(v.c_str());
    } else if (a == "--k") {
      k = std::atoll(v.c_str());
    } else if (a == "--iters") {
      iters = std::atoi(v.c_str());
    } else if (a == "--out") {
      outDir = v;
    } else {
      std::fprintf(stderr, "graphrt-gpu-bench: error: unknown option '%s'\n",
                   a.c_str());
      return 2;
    }
  }
  graphrt_dtype_t dtype = dtypeName == "f32"    ? GRAPHRT_DTYPE_F32
                          : dtypeName == "bf16" ? GRAPHRT_DTYPE_BF16
                          : dtypeName == "f16"  ? GRAPHRT_DTYPE_F16
                                                : GRAPHRT_DTYPE_INVALID;
  if (dtype == GRAPHRT_DTYPE_INVALID || m < 1 || n < 1 || k < 1 || iters < 1) {
    std::fprintf(stderr, "graphrt-gpu-bench: error: --dtype must be f32, bf16 "
                         "or f16 and the sizes and --iters positive\n");
    return 2;
  }
  const CudaDriverApi *cu = nullptr;
  Status st = loadCudaDriver(&cu);
  if (!st.isOk()) {
    return fail(Status(st.code(), "no CUDA driver (" + st.message() + ")"));
  }
  int devices = 0;
  if (!(st = probeCudaDevice(cu, &devices)).isOk()) {
    return fail(st);
  }
  graphrt_services_v1_t host{};
  host.struct_size = sizeof(host);
  std::unique_ptr<GpuTask> gpu;
  if (!(st = GpuTask::create(cu, 0, &host, &gpu)).isOk()) {
    return fail(st);
  }
  graphrt_context_s ctx{nullptr, gpu.get()};
  const graphrt_gpu_services_t *g = gpu->table();
  if (probe) {
    std::printf("%d CUDA device(s), device 0 is sm_%d\n", devices,
                g->compute_capability);
    return 0;
  }

  // Operands in [-1, 1), rounded to the dtype so the f32 copies written out
  // are exactly what the GPU multiplied.
  size_t es = graphrt_dtype_size(dtype);
  std::mt19937 rng(7);
  std::uniform_real_distribution<float> dist(-1.0f, 1.0f);
  auto make = [&](int64_t count, std::vector<float> *f32,
                  std::vector<char> *raw) {
    f32->resize(count);
    raw->resize(count * es);
    for (int64_t i = 0; i < count; ++i) {
      float x = dist(rng);
      if (dtype == GRAPHRT_DTYPE_BF16) {
        uint16_t b = floatToBf16(x);
        std::memcpy(raw->data() + 2 * i, &b, 2);
        x = bf16ToFloat(b);
      } else if (dtype == GRAPHRT_DTYPE_F16) {
        uint16_t h = floatToF16(x);
        std::memcpy(raw->data() + 2 * i, &h, 2);
        x = f16ToFloat(h);
      } else {
        std::memcpy(raw->data() + 4 * i, &x, 4);
      }
      (*f32)[i] = x;
    }
  };
  std::vector<float> af, bf;
  std::vector<char> ar, br;
  make(m * k, &af, &ar);
  make(k * n, &bf, &br);
  void *da, *db, *dc;
  auto check = [&](graphrt_status_t s) {
    Status x = Status::fromC(s);
    if (!x.isOk()) {
      std::exit(fail(x));
    }
  };
  check(g->memory_allocate(&ctx, ar.size(), nullptr, &da));
  check(g->memory_allocate(&ctx, br.size(), nullptr, &db));
  check(g->memory_allocate(&ctx, m * n * es, nullptr, &dc));
  check(g->memcpy(&ctx, da, ar.data(), ar.size(), GRAPHRT_MEMCPY_HOST_TO_DEVICE,
                  nullptr));
  check(g->memcpy(&ctx, db, br.data(), br.size(), GRAPHRT_MEMCPY_HOST_TO_DEVICE,
                  nullptr));
  auto run = [&] {
    check(g->gemm(&ctx, nullptr, dtype, 0, 0, m, n, k, 1.0f, da, k, 0, db, n, 0,
                  0.0f, dc, n, 0, 1));
  };
  for (int i = 0; i < 3; ++i) {
    run();
  }
  check(g->stream_synchronize(&ctx, nullptr));
  auto start = std::chrono::steady_clock::now();
  for (int i = 0; i < iters; ++i) {
    run();
  }
  check(g->stream_synchronize(&ctx, nullptr));
  double ms = std::chrono::duration<double, std::milli>(
                  std::chrono::steady_clock::now() - start)
                  .count() /
              iters;
  std::printf("gemm %s %lldx%lldx%lld: %.3f ms, %.1f TFLOP/s\n",
              dtypeName.c_str(), (long long)m, (long long)n, (long long)k, ms,
              2.0 * m * n * k / (ms * 1e-3) / 1e12);
  if (!outDir.empty()) {
    std::vector<char> cr(m * n * es);
    check(g->memcpy(&ctx, cr.data(), dc, cr.size(),
                    GRAPHRT_MEMCPY_DEVICE_TO_HOST, nullptr));
    check(g->stream_synchronize(&ctx, nullptr));
    std::vector<float> cf(m * n);
    for (int64_t i = 0; i < m * n; ++i) {
      uint16_t h;
      if (dtype == GRAPHRT_DTYPE_F32) {
        std::memcpy(&cf[i], cr.data() + 4 * i, 4);
        continue;
      }
      std::memcpy(&h, cr.data() + 2 * i, 2);
      cf[i] = dtype == GRAPHRT_DTYPE_BF16 ? bf16ToFloat(h) : f16ToFloat(h);
    }
    saveNpy(outDir + "/a.npy", af, m, k);
    saveNpy(outDir + "/b.npy", bf, k, n);
    saveNpy(outDir + "/c.npy", cf, m, n);
  }
  g->memory_release(&ctx, da, nullptr);
  g->memory_release(&ctx, db, nullptr);
  g->memory_release(&ctx, dc, nullptr);
  return 0;
}
