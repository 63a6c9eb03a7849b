//===- CpuTargetTest.cpp - compile to a shared object, dlopen, run --------===//
//
// End-to-end checks of Target/CPU: linalg on tensors goes through the CPU
// pipeline, emitObject and linkSharedObject, and the .so is loaded with
// dlopen and called through its C interface. Results are compared with plain
// C++ loops written here, not with anything graphc computed.
//
//===----------------------------------------------------------------------===//

#include "graphc/Target/CPU/CpuTarget.h"
#include "graphc/Pipelines/CpuCodegen.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/Parser/Parser.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/AsmParser/Parser.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FileUtilities.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Target/TargetMachine.h"

#include <gtest/gtest.h>

#include <cmath>
#include <dlfcn.h>
#include <vector>

using namespace mlir;

namespace {

/// MLIR's strided memref descriptor for rank N, as _mlir_ciface_ functions
/// take it.
template <int N> struct MemRef {
  float *allocated;
  float *aligned;
  int64_t offset;
  int64_t sizes[N];
  int64_t strides[N];
};

MemRef<2> view(std::vector<float> &data, int64_t rows, int64_t cols) {
  return {data.data(), data.data(), 0, {rows, cols}, {cols, 1}};
}

class CpuTargetTest : public ::testing::Test {
protected:
  void SetUp() override {
    DialectRegistry registry;
    registerAllDialects(registry);
    registerAllExtensions(registry);
    graphc::registerCpuTranslations(registry);
    context.appendDialectRegistry(registry);
    context.loadAllAvailableDialects();
  }

  /// Compiles `source` into a fresh .so and dlopens it.
  void *compile(llvm::StringRef source, const graphc::CpuCodegenOptions &opts,
                const graphc::CpuTargetOptions &target = {}) {
    OwningOpRef<ModuleOp> module =
        parseSourceString<ModuleOp>(source, &context);
    EXPECT_TRUE(module);
    if (!module) {
      return nullptr;
    }
    llvm::SmallString<128> so;
    EXPECT_FALSE(llvm::sys::fs::createTemporaryFile("graphc-test", "so", so));
    removers.emplace_back(so);
    EXPECT_TRUE(
        succeeded(graphc::compileToSharedObject(*module, opts, target, so)));
    void *handle = dlopen(so.c_str(), RTLD_NOW | RTLD_LOCAL);
    EXPECT_NE(handle, nullptr) << dlerror();
    if (handle) {
      handles.push_back(handle);
    }
    return handle;
  }

  void TearDown() override {
    for (void *h : handles) {
      dlclose(h);
    }
  }

  MLIRContext context;
  std::vector<llvm::FileRemover> removers;
  std::vector<void *> handles;
};

// The output is a memref argument the result is materialised into, so the
// C interface is fixed whatever bufferization decides inside.
constexpr const char *kMatmulBias = R"mlir(
#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d1)>
func.func @matmul_bias(%a: tensor<67x45xf32>, %b: tensor<45x70xf32>,
                       %bias: tensor<70xf32>, %out: memref<67x70xf32>)
    attributes {llvm.emit_c_interface} {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<67x70xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<67x70xf32>) -> tensor<67x70xf32>
  %mm = linalg.matmul ins(%a, %b : tensor<67x45xf32>, tensor<45x70xf32>)
                      outs(%f : tensor<67x70xf32>) -> tensor<67x70xf32>
  %r = linalg.generic {indexing_maps = [#row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%bias : tensor<70xf32>) outs(%mm : tensor<67x70xf32>) {
  ^bb0(%c: f32, %acc: f32):
    %s = arith.addf %acc, %c : f32
    %t = math.tanh %s : f32
    linalg.yield %t : f32
  } -> tensor<67x70xf32>
  bufferization.materialize_in_destination %r in restrict writable %out
      : (tensor<67x70xf32>, memref<67x70xf32>) -> ()
  return
}
)mlir";

using MatmulBiasFn = void (*)(MemRef<2> *, MemRef<2> *, MemRef<1> *,
                              MemRef<2> *);

void checkMatmulBias(void *handle) {
  ASSERT_NE(handle, nullptr);
  auto fn =
      reinterpret_cast<MatmulBiasFn>(dlsym(handle, "_mlir_ciface_matmul_bias"));
  ASSERT_NE(fn, nullptr) << dlerror();
  const int64_t m = 67, k = 45, n = 70;
  std::vector<float> a(m * k), b(k * n), bias(n), out(m * n, 123.0f);
  for (int64_t i = 0; i < m * k; ++i) {
    a[i] = float((i * 7) % 13) / 13.0f - 0.5f;
  }
  for (int64_t i = 0; i < k * n; ++i) {
    b[i] = float((i * 5) % 11) / 11.0f - 0.5f;
  }
  for (int64_t j = 0; j < n; ++j) {
    bias[j] = float(j % 5) * 0.1f - 0.2f;
  }
  MemRef<2> ma = view(a, m, k), mb = view(b, k, n), mout = view(out, m, n);
  MemRef<1> mbias = {bias.data(), bias.data(), 0, {n}, {1}};
  fn(&ma, &mb, &mbias, &mout);
  double maxErr = 0;
  for (int64_t i = 0; i < m; ++i) {
    for (int64_t j = 0; j < n; ++j) {
      double acc = 0;
      for (int64_t p = 0; p < k; ++p) {
        acc += double(a[i * k + p]) * double(b[p * n + j]);
      }
      double expected = std::tanh(acc + bias[j]);
      maxErr = std::max(maxErr, std::abs(expected - out[i * n + j]));
    }
  }
  EXPECT_LT(maxErr, 1e-4);
}

TEST_F(CpuTargetTest, MatmulBiasTanhParallel) {
  graphc::CpuCodegenOptions opts;
  opts.parallelM = 32;
  opts.parallelN = 32;
  checkMatmulBias(compile(kMatmulBias, opts));
}

TEST_F(CpuTargetTest, MatmulBiasTanhSerialSmallTiles) {
  graphc::CpuCodegenOptions opts;
  opts.openmp = false;
  opts.mr = 4;
  opts.nr = 16;
  opts.kc = 16;
  checkMatmulBias(compile(kMatmulBias, opts));
}

// Every loop nest in a function of its own (a threshold of one
// instruction) and the identical ones merged: the same numbers.
TEST_F(CpuTargetTest, MatmulBiasTanhSerialOutlined) {
  graphc::CpuCodegenOptions opts;
  opts.openmp = false;
  graphc::CpuTargetOptions target;
  target.outlineLoopsAbove = 1;
  checkMatmulBias(compile(kMatmulBias, opts, target));
}

// Every function in a code generation part of its own, the parts compiled
// on two threads and linked together: the same numbers.
TEST_F(CpuTargetTest, MatmulBiasTanhInParts) {
  graphc::CpuCodegenOptions opts;
  opts.parallelM = 32;
  opts.parallelN = 32;
  graphc::CpuTargetOptions target;
  target.instructionsPerPart = 1;
  target.threads = 2;
  checkMatmulBias(compile(kMatmulBias, opts, target));
}

TEST_F(CpuTargetTest, MatmulBiasTanhSerialOutlinedInParts) {
  graphc::CpuCodegenOptions opts;
  opts.openmp = false;
  graphc::CpuTargetOptions target;
  target.outlineLoopsAbove = 1;
  target.instructionsPerPart = 1;
  target.threads = 3;
  checkMatmulBias(compile(kMatmulBias, opts, target));
}

// Two top-level loops in one function; the second reads what the first
// wrote.
constexpr const char *kTwoLoops = R"ll(
define void @two_loops(ptr %a, ptr %b, i64 %n) {
entry:
  br label %first
first:
  %i = phi i64 [ 0, %entry ], [ %i.next, %first ]
  %pa = getelementptr float, ptr %a, i64 %i
  store float 1.0, ptr %pa
  %i.next = add i64 %i, 1
  %i.done = icmp eq i64 %i.next, %n
  br i1 %i.done, label %between, label %first
between:
  br label %second
second:
  %j = phi i64 [ 0, %between ], [ %j.next, %second ]
  %qa = getelementptr float, ptr %a, i64 %j
  %v = load float, ptr %qa
  %qb = getelementptr float, ptr %b, i64 %j
  store float %v, ptr %qb
  %j.next = add i64 %j, 1
  %j.done = icmp eq i64 %j.next, %n
  br i1 %j.done, label %exit, label %second
exit:
  ret void
}
)ll";

TEST(CpuTarget, OutlineLoopNestsAboveThreshold) {
  llvm::LLVMContext context;
  llvm::SMDiagnostic error;
  std::unique_ptr<llvm::Module> module =
      llvm::parseAssemblyString(kTwoLoops, error, context);
  ASSERT_TRUE(module) << error.getMessage().str();
  unsigned size = module->getFunction("two_loops")->getInstructionCount();
  // At the threshold nothing moves; 0 turns outlining off.
  EXPECT_EQ(graphc::outlineLoopNests(*module, size), 0u);
  EXPECT_EQ(graphc::outlineLoopNests(*module, 0), 0u);
  EXPECT_EQ(graphc::outlineLoopNests(*module, size - 1), 2u);
  unsigned outlined = 0;
  for (llvm::Function &fn : *module) {
    if (fn.getName().starts_with("two_loops.loop")) {
      ++outlined;
      EXPECT_TRUE(fn.hasFnAttribute(llvm::Attribute::NoInline));
      EXPECT_TRUE(fn.hasInternalLinkage());
    }
  }
  EXPECT_EQ(outlined, 2u);
  // The new functions each hold one loop and the caller none: outlining
  // again moves nothing.
  EXPECT_EQ(graphc::outlineLoopNests(*module, 1), 0u);
}

constexpr const char *kFourFunctions = R"ll(
define void @big(ptr %p) {
  store i32 1, ptr %p
  store i32 2, ptr %p
  store i32 3, ptr %p
  store i32 4, ptr %p
  store i32 5, ptr %p
  ret void
}
define internal void @mid(ptr %p) {
  store i32 1, ptr %p
  store i32 2, ptr %p
  store i32 3, ptr %p
  ret void
}
define void @small1(ptr %p) {
  store i32 1, ptr %p
  ret void
}
define void @small2(ptr %p) {
  store i32 1, ptr %p
  ret void
}
declare void @external(ptr)
)ll";

TEST(CpuTarget, CodegenPartsBalanceInstructions) {
  llvm::LLVMContext context;
  llvm::SMDiagnostic error;
  std::unique_ptr<llvm::Module> module =
      llvm::parseAssemblyString(kFourFunctions, error, context);
  ASSERT_TRUE(module) << error.getMessage().str();
  auto part = [&](const auto &map, llvm::StringRef name) {
    return map.lookup(module->getFunction(name));
  };
  // 6 + 4 + 2 + 2 instructions: two parts of 7, largest first onto the
  // lightest part.
  unsigned parts = 0;
  auto two = graphc::assignCodegenParts(*module, 7, 16, parts);
  EXPECT_EQ(parts, 2u);
  EXPECT_EQ(two.size(), 4u); // declarations have no part
  EXPECT_EQ(part(two, "big"), 0u);
  EXPECT_EQ(part(two, "mid"), 1u);
  EXPECT_EQ(part(two, "small1"), 1u);
  EXPECT_EQ(part(two, "small2"), 0u);
  // Capped by maxParts, and by the functions there are.
  graphc::assignCodegenParts(*module, 1, 3, parts);
  EXPECT_EQ(parts, 3u);
  graphc::assignCodegenParts(*module, 1, 16, parts);
  EXPECT_EQ(parts, 4u);
  // 0 turns splitting off; a small module is one part.
  auto one = graphc::assignCodegenParts(*module, 0, 16, parts);
  EXPECT_EQ(parts, 1u);
  EXPECT_EQ(part(one, "mid"), 0u);
  graphc::assignCodegenParts(*module, 1000, 16, parts);
  EXPECT_EQ(parts, 1u);
}

TEST(CpuTarget, CodegenPartsKeepAliasesWhole) {
  llvm::LLVMContext context;
  llvm::SMDiagnostic error;
  std::string source =
      std::string(kFourFunctions) + "@alias = alias void (ptr), ptr @big\n";
  std::unique_ptr<llvm::Module> module =
      llvm::parseAssemblyString(source, error, context);
  ASSERT_TRUE(module) << error.getMessage().str();
  unsigned parts = 0;
  graphc::assignCodegenParts(*module, 1, 16, parts);
  EXPECT_EQ(parts, 1u);
}

TEST(CpuTarget, HostDetectionIsConsistent) {
  graphc::CpuInfo host = graphc::detectHostCpu();
  EXPECT_FALSE(host.triple.empty());
  EXPECT_FALSE(host.cpu.empty());
  bool avx512 = llvm::StringRef(host.features).contains("+avx512f");
  bool avx = llvm::StringRef(host.features).contains("+avx,") ||
             llvm::StringRef(host.features).ends_with("+avx");
  EXPECT_EQ(host.vectorBits, avx512 ? 512u : avx ? 256u : 128u);
  EXPECT_EQ(graphc::vectorBitsFromFeatures("+sse2,+avx,-avx512f"), 256u);
  EXPECT_EQ(graphc::vectorBitsFromFeatures("+avx512f,+avx"), 512u);
  EXPECT_EQ(graphc::vectorBitsFromFeatures(""), 128u);
}

TEST(CpuTarget, TargetMachineForNamedCpu) {
  graphc::CpuTargetOptions opts;
  opts.triple = "x86_64-unknown-linux-gnu";
  opts.cpu = "skylake-avx512";
  opts.features = "+avx512f";
  auto tm = graphc::createCpuTargetMachine(opts);
  ASSERT_TRUE(bool(tm)) << llvm::toString(tm.takeError());
  EXPECT_EQ((*tm)->getTargetCPU(), "skylake-avx512");
  opts.triple = "nonsense-triple";
  auto bad = graphc::createCpuTargetMachine(opts);
  ASSERT_FALSE(bool(bad));
  EXPECT_NE(llvm::toString(bad.takeError()).find("no LLVM target"),
            std::string::npos);
}

TEST(CpuTarget, MissingLldIsAClearError) {
  auto lld = graphc::findLld("/nonexistent/ld.lld");
  ASSERT_FALSE(bool(lld));
  EXPECT_NE(llvm::toString(lld.takeError()).find("not executable"),
            std::string::npos);
  graphc::LinkOptions opts;
  opts.lldPath = "/nonexistent/ld.lld";
  llvm::Error err = graphc::linkSharedObject({"x.o"}, "x.so", opts);
  EXPECT_TRUE(bool(err));
  llvm::consumeError(std::move(err));
}

TEST(CpuTarget, LinkerFailureReportsLldOutput) {
  llvm::SmallString<128> bogus;
  ASSERT_FALSE(llvm::sys::fs::createTemporaryFile("graphc-bogus", "o", bogus));
  llvm::FileRemover remove(bogus);
  {
    std::error_code ec;
    llvm::raw_fd_ostream os(bogus, ec);
    os << "not an object file";
  }
  llvm::Error err =
      graphc::linkSharedObject({bogus.str().str()}, bogus.str().str() + ".so");
  ASSERT_TRUE(bool(err));
  std::string msg = llvm::toString(std::move(err));
  EXPECT_NE(msg.find("failed (exit code"), std::string::npos) << msg;
}

} // namespace
