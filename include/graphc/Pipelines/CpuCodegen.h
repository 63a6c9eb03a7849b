//===- CpuCodegen.h - linalg on tensors to LLVM dialect for CPUs -*- C++
//-*-===//
//
// The named CPU code generation pipeline `graphc-cpu-codegen`: fusion, tiling
// for threads/caches/registers, vectorisation, bufferization, OpenMP and
// lowering to the LLVM dialect. Target/CPU then emits an object from it.
//
//===----------------------------------------------------------------------===//

#ifndef GRAPHC_PIPELINES_CPUCODEGEN_H
#define GRAPHC_PIPELINES_CPUCODEGEN_H

#include "graphc/Target/CPU/CpuTarget.h"

#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <string>

namespace mlir {
class OpPassManager;
} // namespace mlir

namespace graphc {

/// Options of the CPU pipeline. Zero means "derive from the host CPU".
struct CpuCodegenOptions {
  /// f32 lanes in a vector register; 0: from the host's features (16 with
  /// AVX-512, 8 with AVX, 4 otherwise).
  int64_t vectorWidth = 0;
  /// Matmul register tile (rows x columns) and K block (the B panel of
  /// kc x nr stays near the core); 0: chosen per contraction from the
  /// vector width and its shape (graphc-cpu-tile-and-vectorize).
  int64_t mr = 0;
  int64_t nr = 0;
  int64_t kc = 0;
  /// Unroll factor of the matmul micro-kernel's K loop; 0: by shape, 1: not
  /// unrolled.
  int64_t unrollK = 0;
  /// Matmul output tile of one parallel task. Tall tasks: each kc x nr
  /// micro-panel of B is reused by every register tile of the task's rows
  /// while its block of A stays in L2. parallelM 0: by shape (256 rows,
  /// 512 with the large-matmul register tile); parallelN 0: by shape (128
  /// columns; 512 with the large-matmul tile when 512 divides N, the task's
  /// block of A is past 1 MiB and 4 tasks remain).
  int64_t parallelM = 0;
  int64_t parallelN = 0;
  /// Parallel loops become OpenMP worksharing loops (libomp at run time);
  /// when false, the generated code is single-threaded and needs no runtime.
  bool openmp = true;
  /// OpenMP threads per parallel region; 0: the runtime's default
  /// (OMP_NUM_THREADS or the number of cores).
  unsigned numThreads = 0;
  /// Parallel loops of fewer element operations than this run serially
  /// (graphc-cpu-serial-small-tasks); 0: every one is parallel.
  int64_t minParallelWork = 131072;
  /// 2-D NCHW convolutions become im2col + GEMM (docs/design/conv-codegen.md);
  /// false keeps the direct loop nest (for comparisons and its tests).
  bool convGemm = true;
  /// Matmul micro-kernels read B from contiguous kc x nr panels copied once
  /// per N tile and K block (docs/design/cpu-codegen.md, GEMM performance);
  /// false reads B in place (for comparisons).
  bool packB = true;
  /// 2-D NCHW f32 convolutions of these classes get the direct
  /// (im2col-free) kernel of graphc-cpu-direct-conv instead of im2col +
  /// GEMM: "" (none), "all", or a comma-separated list of 3x3, 1x1,
  /// strided, other (docs/design/cpu-codegen.md, "Direct convolution").
  std::string directConv;
  /// In task modules, work that depends only on read-only variables (the
  /// direct kernels' filter re-layout) moves to graphc_task_prepare, run at
  /// load time (graphc-cpu-prepare-weights); false redoes it every step.
  bool prepareWeights = true;
};

/// Why `classes` is not a valid directConv value (the message names the
/// first unknown class), or an empty string when it is. graphc checks its
/// flag with it before reading anything; the pass checks its option.
std::string checkDirectConvClasses(llvm::StringRef classes);

/// Appends the CPU pipeline to `pm`, which must be anchored on a ModuleOp
/// holding func.func ops over tensors (linalg, tensor, arith, math, scf).
/// The result is a module in the LLVM dialect (plus omp ops when `openmp`).
void buildCpuCodegenPipeline(mlir::OpPassManager &pm,
                             const CpuCodegenOptions &options);

/// The fusion of elementwise linalg chains on tensors (canonicalize, fuse,
/// CSE) that starts the CPU and CUDA pipelines. `keepKernelRoots` (the CPU
/// pipeline): nothing is fused into or reshaped through contractions and
/// convolutions (graphc-cpu-fuse-elementwise) instead of upstream's
/// linalg-fuse-elementwise-ops.
void addElementwiseFusionPasses(mlir::OpPassManager &pm,
                                bool keepKernelRoots = false);

/// One-shot bufferization of the whole module into destination buffers,
/// identity-layout memrefs at function boundaries (CPU and CUDA pipelines).
void addOneShotBufferizePasses(mlir::OpPassManager &pm);

/// Runs the pipeline on `module` (in place; it ends in the LLVM dialect).
/// Emits diagnostics on failure.
mlir::LogicalResult lowerToLLVMDialect(mlir::ModuleOp module,
                                       const CpuCodegenOptions &options);

/// Lowers `module` with the pipeline, emits an object for `target` and links
/// the shared object `soPath` with lld; with `options.openmp` the object
/// links libomp (LLVM's, from libomp-22-dev, found next to ld.lld).
/// `link` adds libraries. Emits diagnostics (or the linker's message) on
/// failure. The object goes to a temporary file that is removed.
mlir::LogicalResult compileToSharedObject(mlir::ModuleOp module,
                                          const CpuCodegenOptions &options,
                                          const CpuTargetOptions &target,
                                          llvm::StringRef soPath,
                                          const LinkOptions &link = {});

/// The second half of compileToSharedObject, for a module already in the
/// LLVM dialect (callers that add code after the pipeline): emits an object
/// for `target` and links `soPath`, with libomp when `openmp`.
mlir::LogicalResult emitSharedObject(mlir::ModuleOp module, bool openmp,
                                     const CpuTargetOptions &target,
                                     llvm::StringRef soPath,
                                     const LinkOptions &link = {});

/// Registers the pipeline (`graphc-cpu-codegen`) and its passes
/// (`graphc-cpu-tile-and-vectorize`, `graphc-cpu-hoist-vector-transfers`).
void registerCpuCodegenPasses();

} // namespace graphc

#endif // GRAPHC_PIPELINES_CPUCODEGEN_H
