//===- CudaTarget.h - the CUDA toolkit and the task glue object -*- C++ -*-===//
//
// What --target=cuda needs besides MLIR: where the CUDA toolkit is (ptxas and
// libdevice for gpu-module-to-binary), and the object of CudaTaskGlue.c that
// every cuda task library links (the mgpu* shims and graphc_cuda_* helpers
// over graphrt_gpu_services_t; docs/design/cuda.md).
//
//===----------------------------------------------------------------------===//

#ifndef GRAPHC_TARGET_CUDA_CUDATARGET_H
#define GRAPHC_TARGET_CUDA_CUDATARGET_H

#include "llvm/ADT/StringRef.h"

#include <string>

namespace mlir {
class DialectRegistry;
} // namespace mlir

namespace graphc {

/// Registers what compiling GPU kernels needs in a context: the NVVM target
/// attribute's serialisation (nvvm-attach-target, gpu-module-to-binary) and
/// the GPU and NVVM translations to LLVM IR (kernels, launches, embedded
/// binaries).
void registerCudaCompilation(mlir::DialectRegistry &registry);

/// The CUDA toolkit root with an executable bin/ptxas: $GRAPHC_CUDA_TOOLKIT
/// when set, else the one CMake found when graphc was built; "" when neither
/// has ptxas (the kernels are then embedded as PTX only).
std::string findCudaToolkit();

/// The relocatable object (ELF, the host's architecture) of the task glue,
/// linked into every cuda task's shared object.
llvm::StringRef cudaTaskGlueObject();

} // namespace graphc

#endif // GRAPHC_TARGET_CUDA_CUDATARGET_H
