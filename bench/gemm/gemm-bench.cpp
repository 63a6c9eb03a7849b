//===- gemm-bench.cpp - graphc-generated SGEMM against OpenBLAS -----------===//
//
// For each shape (M, N, K) and thread count, compiles C = A * B through the
// graphc CPU pipeline into a shared object, loads it, and times it against
// OpenBLAS's cblas_sgemm (cblas_sgemv when M = 1) in the same process,
// printing both GFLOP/s and the ratio. Results are checked against OpenBLAS
// before timing.
//
// OpenBLAS at its best: Debian's OpenBLAS 0.3.21 (DYNAMIC_ARCH) does not know
// every CPU model and then falls back to a slow core (Prescott, SSE3: about
// 5x slower on an Emerald Rapids Xeon). It picks its core in a constructor,
// before main, from OPENBLAS_CORETYPE; so when that is unset and OpenBLAS
// reports a fallback core, the bench re-executes itself once with
// OPENBLAS_CORETYPE set to SkylakeX (AVX-512) or Haswell (AVX2), in its own
// environment only; also when it runs an AVX2 core on an AVX-512 CPU, which
// an OPENBLAS_CORETYPE=Haswell inherited from the environment does (this
// project's AMD Zen 5 machines set it). GEMM_BENCH_KEEP_CORE=1 keeps the
// core as it is.
//
// Usage: gemm-bench [--threads=1,2] [--shapes=MxNxK,...] [--min-time=0.1]
//                   [--rounds=7] [--cpu-time]
//                   [--mr=N --nr=N --kc=N --unroll-k=N --pm=N --pn=N]
//                   [--no-openmp]
//                   [--no-pack-b] [--peers=openblas,dnnl,xsmm]
//        gemm-bench --emit-dir=DIR --cpu=NAME [--vector-width=N] [--shapes=..]
//   writes DIR/gemm_MxNxK.so for another machine (bench/gemm/remote.py).
//
//===----------------------------------------------------------------------===//

#include "graphc/Pipelines/CpuCodegen.h"
#include "graphc/Target/CPU/CpuTarget.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/Parser/Parser.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FileUtilities.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <dlfcn.h>
#include <fstream>
#include <functional>
#include <string>
#include <time.h>
#include <unistd.h>
#include <vector>

#ifdef GRAPHC_HAVE_DNNL
#include <oneapi/dnnl/dnnl.h>
#endif
#ifdef GRAPHC_HAVE_XSMM
#include <libxsmm.h>
#endif

extern "C" {
void omp_set_num_threads(int);
void openblas_set_num_threads(int);
int openblas_get_num_threads(void);
char *openblas_get_corename(void);
char *openblas_get_config(void);
enum CBLAS_ORDER { CblasRowMajor = 101 };
enum CBLAS_TRANSPOSE { CblasNoTrans = 111, CblasTrans = 112 };
void cblas_sgemm(CBLAS_ORDER, CBLAS_TRANSPOSE, CBLAS_TRANSPOSE, int, int, int,
                 float, const float *, int, const float *, int, float, float *,
                 int);
void cblas_sgemv(CBLAS_ORDER, CBLAS_TRANSPOSE, int, int, float, const float *,
                 int, const float *, int, float, float *, int);
}

namespace {

struct Shape {
  int64_t m, n, k;
  std::string name;
};

template <int N> struct MemRef {
  float *allocated;
  float *aligned;
  int64_t offset;
  int64_t sizes[N];
  int64_t strides[N];
};
using GemmFn = void (*)(MemRef<2> *, MemRef<2> *, MemRef<2> *);

/// Operand buffers start on a cache line, as a framework's tensors do: with
/// std::vector's 16-byte alignment the same generated code for 49x512x4608
/// ran at 115 or 139 GFLOP/s from one process to the next (byte-identical
/// objects; the row vectors of B straddled two lines or not).
template <typename T> struct LineAligned {
  using value_type = T;
  LineAligned() = default;
  template <typename U> LineAligned(const LineAligned<U> &) {}
  T *allocate(size_t n) {
    size_t bytes = (n * sizeof(T) + 63) / 64 * 64;
    void *p = std::aligned_alloc(64, std::max<size_t>(bytes, 64));
    if (!p) {
      std::fprintf(stderr, "gemm-bench: out of memory\n");
      std::abort();
    }
    return static_cast<T *>(p);
  }
  void deallocate(T *p, size_t) { std::free(p); }
  template <typename U> bool operator==(const LineAligned<U> &) const {
    return true;
  }
  template <typename U> bool operator!=(const LineAligned<U> &) const {
    return false;
  }
};
using Buffer = std::vector<float, LineAligned<float>>;

MemRef<2> view(Buffer &v, int64_t r, int64_t c) {
  return {v.data(), v.data(), 0, {r, c}, {c, 1}};
}

std::string gemmSource(const Shape &s) {
  std::string a =
      "tensor<" + std::to_string(s.m) + "x" + std::to_string(s.k) + "xf32>";
  std::string b =
      "tensor<" + std::to_string(s.k) + "x" + std::to_string(s.n) + "xf32>";
  std::string c =
      "tensor<" + std::to_string(s.m) + "x" + std::to_string(s.n) + "xf32>";
  std::string cm =
      "memref<" + std::to_string(s.m) + "x" + std::to_string(s.n) + "xf32>";
  return "func.func @gemm(%a: " + a + ", %b: " + b + ", %out: " + cm +
         ") attributes {llvm.emit_c_interface} {\n"
         "  %zero = arith.constant 0.0 : f32\n"
         "  %e = tensor.empty() : " +
         c +
         "\n"
         "  %f = linalg.fill ins(%zero : f32) outs(%e : " +
         c + ") -> " + c +
         "\n"
         "  %r = linalg.matmul ins(%a, %b : " +
         a + ", " + b + ") outs(%f : " + c + ") -> " + c +
         "\n"
         "  bufferization.materialize_in_destination %r in restrict writable "
         "%out : (" +
         c + ", " + cm +
         ") -> ()\n"
         "  return\n}\n";
}

/// With --cpu-time, batches are timed by the calling thread's CPU time
/// instead of the wall clock: on a shared machine a 1-thread run then does
/// not count the time other processes held its core (cache pollution by
/// them still counts). Only meaningful for 1 thread.
bool useCpuTime = false;

double now() {
  if (useCpuTime) {
    timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
  }
  return std::chrono::duration<double>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

/// Time per call of one batch of at least `minTime` seconds.
template <typename F> double batchTime(F &&fn, double minTime) {
  int reps = 0;
  double start = now();
  double elapsed = 0;
  do {
    fn();
    ++reps;
    elapsed = now() - start;
  } while (elapsed < minTime);
  return elapsed / reps;
}

/// Best time per call of each callable over `rounds` rounds that alternate
/// one batch of each, so all see the same machine load; the best batch is the
/// one least disturbed by other processes.
std::vector<double> timeAll(const std::vector<std::function<void()>> &fns,
                            double minTime, int rounds) {
  for (const auto &fn : fns) {
    fn(); // warm up (page faults, thread pool start)
  }
  std::vector<double> best(fns.size(), 1e30);
  for (int r = 0; r < rounds; ++r) {
    for (size_t i = 0; i < fns.size(); ++i) {
      best[i] = std::min(best[i], batchTime(fns[i], minTime));
    }
  }
  return best;
}

/// A library timed beside OpenBLAS: C = A * B into `out`, row-major.
struct Peer {
  const char *name;
  std::function<void(const Shape &, const float *, const float *, float *)> run;
};

std::vector<Peer> availablePeers() {
  std::vector<Peer> peers;
#ifdef GRAPHC_HAVE_DNNL
  peers.push_back(
      {"onednn", [](const Shape &s, const float *a, const float *b, float *c) {
         dnnl_sgemm('N', 'N', s.m, s.n, s.k, 1.0f, a, s.k, b, s.n, 0.0f, c,
                    s.n);
       }});
#endif
#ifdef GRAPHC_HAVE_XSMM
  peers.push_back(
      {"libxsmm", [](const Shape &s, const float *a, const float *b, float *c) {
         // Column-major: C^T = B^T * A^T.
         libxsmm_blasint m = s.n, n = s.m, k = s.k;
         float alpha = 1.0f, beta = 0.0f;
         libxsmm_sgemm("N", "N", &m, &n, &k, &alpha, b, &m, a, &k, &beta, c,
                       &m);
       }});
#endif
  return peers;
}

int64_t parseInt(const char *arg, const char *name) {
  return std::atoll(arg + std::strlen(name));
}

/// The CPU's model name from /proc/cpuinfo ("unknown" elsewhere).
std::string cpuModelName() {
  std::ifstream in("/proc/cpuinfo");
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind("model name", 0) == 0) {
      size_t colon = line.find(':');
      if (colon != std::string::npos) {
        return line.substr(line.find_first_not_of(" \t", colon + 1));
      }
    }
  }
  return "unknown";
}

/// The OpenBLAS core this host should run: the best kernel set its
/// features allow, or empty when OpenBLAS's own choice is to be kept.
std::string bestOpenblasCore(const graphc::CpuInfo &host) {
  std::string core = openblas_get_corename();
  // Cores OpenBLAS 0.3.21 falls back to for models it does not know.
  bool fallback = core == "Prescott" || core == "Core2" || core == "Nehalem" ||
                  core == "Sandybridge" || core == "Katmai";
  // An AVX2 core on an AVX-512 CPU (an OPENBLAS_CORETYPE=Haswell inherited
  // from the environment, as on this project's AMD Zen 5 machines, where
  // OpenBLAS itself picks Cooperlake) runs at half speed: sgemm 2048^3 on
  // one Zen 5 core, 92-95 GFLOP/s with Haswell's kernels against 185-194
  // with SkylakeX's (2026-12-03).
  bool avx2Core = core == "Haswell" || core == "Zen";
  if (host.vectorBits >= 512 && (fallback || avx2Core)) {
    return "SkylakeX";
  }
  if (!fallback) {
    return "";
  }
  if (host.vectorBits >= 256 && host.hasFma) {
    return "Haswell";
  }
  return "";
}

} // namespace

int main(int argc, char **argv) {
  graphc::CpuInfo host = graphc::detectHostCpu();
  // OpenBLAS has already chosen its core (library constructor): re-execute
  // once with the best one in the environment if it runs a slower one, its
  // own fallback or an OPENBLAS_CORETYPE inherited from the environment
  // (some machines' images set Haswell on AVX-512 CPUs).
  // GEMM_BENCH_KEEP_CORE=1 keeps whatever core OpenBLAS runs.
  const char *userCore = std::getenv("OPENBLAS_CORETYPE");
  if (!std::getenv("GEMM_BENCH_REEXEC") &&
      !std::getenv("GEMM_BENCH_KEEP_CORE")) {
    std::string best = bestOpenblasCore(host);
    if (!best.empty()) {
      std::string was = openblas_get_corename();
      if (userCore) {
        was += std::string(", from OPENBLAS_CORETYPE=") + userCore +
               " in the environment";
      }
      setenv("OPENBLAS_CORETYPE", best.c_str(), 1);
      setenv("GEMM_BENCH_REEXEC", was.c_str(), 1);
      std::fflush(stdout);
      execv("/proc/self/exe", argv);
      std::perror("gemm-bench: re-exec with OPENBLAS_CORETYPE failed");
      return 1;
    }
  }
  std::vector<int> threads = {1, 2};
  std::vector<Peer> peers = availablePeers();
  double minTime = 0.1;
  int rounds = 7;
  graphc::CpuCodegenOptions options;
  graphc::CpuTargetOptions target;
  std::string emitDir;
  std::vector<Shape> shapes = {
      {256, 256, 256, "square"},
      {512, 512, 512, "square"},
      {1024, 1024, 1024, "square"},
      {2048, 2048, 2048, "square"},
      // ResNet-50 convolutions as im2col GEMMs (batch 1): M = output pixels,
      // N = output channels, K = input channels x 3 x 3.
      {3136, 64, 576, "resnet conv2_x 3x3"},
      {784, 128, 1152, "resnet conv3_x 3x3"},
      {196, 256, 2304, "resnet conv4_x 3x3"},
      {49, 512, 4608, "resnet conv5_x 3x3"},
      // BERT-base, 4 sequences of 128 tokens: QKV/output projection, FFN.
      {512, 768, 768, "bert projection"},
      {512, 3072, 768, "bert ffn up"},
      {512, 768, 3072, "bert ffn down"},
      // Fully connected layers at batch 1 (GEMV, M = 1): AlexNet/VGG's
      // classifier, [1, K] x [K, N] with B read once.
      // OpenBLAS's figure for these rows is its sgemv.
      {1, 4096, 9216, "fc batch 1 (gemv)"},
      {1, 4096, 4096, "fc batch 1 (gemv)"},
      {1, 1000, 4096, "fc batch 1 (gemv)"},
  };
  for (int i = 1; i < argc; ++i) {
    llvm::StringRef arg(argv[i]);
    if (arg.consume_front("--threads=")) {
      threads.clear();
      llvm::SmallVector<llvm::StringRef> parts;
      arg.split(parts, ',');
      for (llvm::StringRef p : parts) {
        threads.push_back(std::atoi(p.str().c_str()));
      }
    } else if (arg.consume_front("--shapes=")) {
      shapes.clear();
      llvm::SmallVector<llvm::StringRef> parts;
      arg.split(parts, ',');
      for (llvm::StringRef p : parts) {
        Shape s{0, 0, 0, "custom"};
        if (std::sscanf(p.str().c_str(), "%ldx%ldx%ld", &s.m, &s.n, &s.k) !=
            3) {
          llvm::errs() << "gemm-bench: bad shape '" << p << "', want MxNxK\n";
          return 2;
        }
        shapes.push_back(s);
      }
    } else if (arg.consume_front("--rounds=")) {
      rounds = std::max(1, std::atoi(arg.str().c_str()));
    } else if (arg.consume_front("--min-time=")) {
      minTime = std::atof(arg.str().c_str());
    } else if (arg.consume_front("--emit-dir=")) {
      emitDir = arg.str();
    } else if (arg.consume_front("--cpu=")) {
      target.cpu = arg.str();
    } else if (arg.starts_with("--vector-width=")) {
      options.vectorWidth = parseInt(argv[i], "--vector-width=");
    } else if (arg.consume_front("--peers=")) {
      llvm::SmallVector<llvm::StringRef> names;
      arg.split(names, ',');
      std::vector<Peer> kept;
      for (llvm::StringRef name : names) {
        if (name == "openblas") {
          continue;
        }
        auto it = std::find_if(peers.begin(), peers.end(),
                               [&](const Peer &p) { return name == p.name; });
        if (it == peers.end()) {
          llvm::errs() << "gemm-bench: peer '" << name
                       << "' is not built in (this build has openblas";
          for (const Peer &p : peers) {
            llvm::errs() << ", " << p.name;
          }
          llvm::errs() << ")\n";
          return 2;
        }
        kept.push_back(*it);
      }
      peers = kept;
    } else if (arg == "--cpu-time") {
      useCpuTime = true;
    } else if (arg == "--no-openmp") {
      options.openmp = false;
    } else if (arg == "--no-pack-b") {
      options.packB = false;

    } else if (arg.starts_with("--mr=")) {
      options.mr = parseInt(argv[i], "--mr=");
    } else if (arg.starts_with("--nr=")) {
      options.nr = parseInt(argv[i], "--nr=");
    } else if (arg.starts_with("--kc=")) {
      options.kc = parseInt(argv[i], "--kc=");
    } else if (arg.starts_with("--unroll-k=")) {
      options.unrollK = parseInt(argv[i], "--unroll-k=");
    } else if (arg.starts_with("--pm=")) {
      options.parallelM = parseInt(argv[i], "--pm=");
    } else if (arg.starts_with("--pn=")) {
      options.parallelN = parseInt(argv[i], "--pn=");
    } else {
      llvm::errs() << "gemm-bench: unknown argument '" << arg << "'\n";
      return 2;
    }
  }

  if (useCpuTime && llvm::any_of(threads, [](int t) { return t != 1; })) {
    llvm::errs() << "gemm-bench: --cpu-time times the calling thread only, "
                    "so it measures 1-thread runs; pass --threads=1 with it\n";
    return 2;
  }

  mlir::DialectRegistry registry;
  mlir::registerAllDialects(registry);
  mlir::registerAllExtensions(registry);
  graphc::registerCpuTranslations(registry);
  mlir::MLIRContext context(registry);
  context.loadAllAvailableDialects();

  if (!emitDir.empty()) {
    // Cross-compile only: one shared object per shape for another machine.
    for (const Shape &s : shapes) {
      auto module =
          mlir::parseSourceString<mlir::ModuleOp>(gemmSource(s), &context);
      std::string so = emitDir + "/gemm_" + std::to_string(s.m) + "x" +
                       std::to_string(s.n) + "x" + std::to_string(s.k) + ".so";
      if (!module || mlir::failed(graphc::compileToSharedObject(
                         *module, options, target, so))) {
        return 1;
      }
      std::printf("wrote %s\n", so.c_str());
    }
    return 0;
  }

  const char *replaced = std::getenv("GEMM_BENCH_REEXEC");
  std::printf("cpu: %s\n", cpuModelName().c_str());
  std::printf(
      "openblas: core %s (%s), OPENBLAS_CORETYPE=%s%s\n",
      openblas_get_corename(), openblas_get_config(),
      std::getenv("OPENBLAS_CORETYPE") ? std::getenv("OPENBLAS_CORETYPE")
                                       : "(unset)",
      replaced
          ? (std::string(" set by gemm-bench; its own choice was ") + replaced)
                .c_str()
          : "");
  std::printf("host: %s, %u-bit vectors; graphc tiles mr=%ld nr=%ld kc=%ld "
              "unroll-k=%ld task=%ldx%ld%s (0: by shape)\n",
              host.cpu.c_str(), host.vectorBits, (long)options.mr,
              (long)options.nr, (long)options.kc, (long)options.unrollK,
              (long)options.parallelM, (long)options.parallelN,
              options.packB ? " pack-b" : "");
#ifdef GRAPHC_HAVE_DNNL
  if (const dnnl_version_t *v = dnnl_version()) {
    std::printf("onednn: %d.%d.%d, cpu runtime %s, isa %s\n", v->major,
                v->minor, v->patch,
                v->cpu_runtime == DNNL_RUNTIME_OMP ? "OpenMP" : "other", [] {
                  switch (dnnl_get_effective_cpu_isa()) {
                  case dnnl_cpu_isa_avx512_core_amx:
                    return "avx512_core_amx";
                  case dnnl_cpu_isa_avx512_core_bf16:
                    return "avx512_core_bf16";
                  case dnnl_cpu_isa_avx512_core_vnni:
                    return "avx512_core_vnni";
                  case dnnl_cpu_isa_avx512_core:
                    return "avx512_core";
                  case dnnl_cpu_isa_avx2:
                    return "avx2";
                  default:
                    return "other";
                  }
                }());
  }
#endif
#ifdef GRAPHC_HAVE_XSMM
  std::printf("libxsmm: %s, JIT for M*N*K <= %d (BLAS above), target %s\n",
              LIBXSMM_VERSION, LIBXSMM_MAX_MNK, libxsmm_get_target_arch());
#endif
  std::printf("%-22s %16s %3s %10s %10s %7s", "shape", "MxNxK", "thr", "graphc",
              "openblas", "ratio");
  for (const Peer &p : peers) {
    std::printf(" %10s %7s", p.name, "ratio");
  }
  std::printf("\n");

  int failures = 0;
  for (const Shape &s : shapes) {
    auto module =
        mlir::parseSourceString<mlir::ModuleOp>(gemmSource(s), &context);
    llvm::SmallString<128> so;
    if (!module || llvm::sys::fs::createTemporaryFile("gemm-bench", "so", so)) {
      return 1;
    }
    llvm::FileRemover remove(so);
    if (mlir::failed(
            graphc::compileToSharedObject(*module, options, target, so))) {
      return 1;
    }
    void *handle = dlopen(so.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (!handle) {
      llvm::errs() << "gemm-bench: " << dlerror() << "\n";
      return 1;
    }
    auto gemm = reinterpret_cast<GemmFn>(dlsym(handle, "_mlir_ciface_gemm"));

    Buffer a(s.m * s.k), b(s.k * s.n), c(s.m * s.n), ref(s.m * s.n);
    for (size_t i = 0; i < a.size(); ++i) {
      a[i] = float((i * 7 + 3) % 17) / 17.0f - 0.5f;
    }
    for (size_t i = 0; i < b.size(); ++i) {
      b[i] = float((i * 5 + 1) % 13) / 13.0f - 0.5f;
    }
    MemRef<2> ma = view(a, s.m, s.k), mb = view(b, s.k, s.n),
              mc = view(c, s.m, s.n);
    auto runGraphc = [&] { gemm(&ma, &mb, &mc); };
    // M = 1 is a GEMV: OpenBLAS 0.3.21's sgemm does not forward it to its
    // GEMV kernels (it packs B like any GEMM), so the peer at its best is
    // cblas_sgemv, y = B^T a with B row-major [K, N].
    auto runBlas = [&] {
      if (s.m == 1) {
        cblas_sgemv(CblasRowMajor, CblasTrans, s.k, s.n, 1.0f, b.data(), s.n,
                    a.data(), 1, 0.0f, ref.data(), 1);
        return;
      }
      cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, s.m, s.n, s.k,
                  1.0f, a.data(), s.k, b.data(), s.n, 0.0f, ref.data(), s.n);
    };

    for (int t : threads) {
      omp_set_num_threads(t);
      openblas_set_num_threads(t);
      if (openblas_get_num_threads() != t) {
        std::printf("warning: OpenBLAS runs %d threads, not %d\n",
                    openblas_get_num_threads(), t);
      }
      runGraphc();
      runBlas();
      double maxErr = 0, maxRef = 0;
      for (size_t i = 0; i < c.size(); ++i) {
        maxErr = std::max(maxErr, double(std::abs(c[i] - ref[i])));
        maxRef = std::max(maxRef, double(std::abs(ref[i])));
      }
      bool ok = maxErr <= 1e-4 * std::max(1.0, maxRef) * std::sqrt(s.k);
      double flops = 2.0 * s.m * s.n * s.k;
      // The other libraries, each checked against OpenBLAS (M = 1 rows
      // against its sgemv, as above).
      std::vector<std::function<void()>> fns = {runGraphc, runBlas};
      std::vector<Buffer> outs(peers.size(), Buffer(c.size()));
      std::vector<bool> peerOk(peers.size(), true);
      for (size_t p = 0; p < peers.size(); ++p) {
        float *out = outs[p].data();
        const Peer &peer = peers[p];
        fns.push_back([&, out] { peer.run(s, a.data(), b.data(), out); });
        fns.back()();
        for (size_t i = 0; i < c.size(); ++i) {
          if (std::abs(out[i] - ref[i]) >
              1e-4 * std::max(1.0, maxRef) * std::sqrt(s.k)) {
            peerOk[p] = false;
            break;
          }
        }
      }
      std::vector<double> times = timeAll(fns, minTime, rounds);
      double tg = times[0], tb = times[1];
      std::printf("%-22s %16s %3d %10.1f %10.1f %7.2f", s.name.c_str(),
                  (std::to_string(s.m) + "x" + std::to_string(s.n) + "x" +
                   std::to_string(s.k))
                      .c_str(),
                  t, flops / tg * 1e-9, flops / tb * 1e-9, tb / tg);
      for (size_t p = 0; p < peers.size(); ++p) {
        std::printf(" %10.1f %7.2f%s", flops / times[2 + p] * 1e-9,
                    times[2 + p] / tg, peerOk[p] ? "" : " WRONG");
      }
      std::printf("%s\n", ok ? "" : "  WRONG RESULT");
      std::fflush(stdout);
      failures += !ok;
    }
    dlclose(handle);
  }
  std::printf("GFLOP/s columns; ratio = graphc / openblas (higher is better); "
              "a library's ratio column = graphc / that library\n");
  return failures ? 1 : 0;
}
