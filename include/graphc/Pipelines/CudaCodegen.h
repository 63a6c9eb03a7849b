//===- CudaCodegen.h - linalg to GPU kernels and host code ----*- C++ -*-===//
//
// The cuda target's pipelines (docs/design/cuda.md): `graphc-cuda-gpu` takes
// a task module from graphc-task-lowering to outlined GPU kernels with the
// host side on gpu and glue calls (--emit=gpu); `graphc-cuda-codegen` goes on
// to NVVM, an sm_90 fatbin (or PTX) embedded in the module, and the LLVM
// dialect; `graphc-cuda-task-codegen` runs it on every task module and adds
// the graphrt descriptor.
//
//===----------------------------------------------------------------------===//

#ifndef GRAPHC_PIPELINES_CUDACODEGEN_H
#define GRAPHC_PIPELINES_CUDACODEGEN_H

#include "mlir/Support/LLVM.h"

#include <cstdint>
#include <string>

namespace mlir {
class OpPassManager;
class ModuleOp;
} // namespace mlir

namespace graphc {

struct CudaCodegenOptions {
  /// The GPU architecture and PTX features of the cubin.
  std::string chip = "sm_90";
  std::string features = "+ptx80";
  /// gpu-module-to-binary's format: fatbin (cubin + PTX, needs ptxas), isa
  /// (PTX text). Empty: fatbin when `toolkit` has ptxas, else isa.
  std::string format;
  /// The CUDA toolkit root (ptxas, libdevice); empty: findCudaToolkit().
  std::string toolkit;
  /// Threads per block of the generated kernels.
  int64_t blockSize = 256;
};

/// Task module (linalg on tensors) -> outlined kernels, host on gpu ops.
void buildCudaGpuPipeline(mlir::OpPassManager &pm,
                          const CudaCodegenOptions &options);
/// Outlined kernels -> NVVM, binaries and the LLVM dialect.
void buildCudaBinaryPipeline(mlir::OpPassManager &pm,
                             const CudaCodegenOptions &options);
/// Both.
void buildCudaCodegenPipeline(mlir::OpPassManager &pm,
                              const CudaCodegenOptions &options);
/// On a job module: every task module through the codegen pipeline, then
/// its graphrt descriptor.
void buildCudaTaskCodegenPipeline(mlir::OpPassManager &pm,
                                  const CudaCodegenOptions &options);

/// The format buildCudaBinaryPipeline uses for `options` ("fatbin" or
/// "isa"), and whether it falls back to PTX for want of ptxas.
std::string resolveCudaFormat(const CudaCodegenOptions &options,
                              bool *ptxOnly = nullptr);

/// --emit=ptx: every kernel module's PTX, from a module after
/// buildCudaGpuPipeline (lowered in place with format isa).
mlir::LogicalResult printCudaPtx(mlir::ModuleOp module,
                                 const CudaCodegenOptions &options,
                                 llvm::raw_ostream &os);

/// Registers the pipelines and the graphc-cuda-* passes.
void registerCudaCodegenPasses();

} // namespace graphc

#endif // GRAPHC_PIPELINES_CUDACODEGEN_H
