//===- CudaTarget.cpp - the CUDA toolkit and the task glue object ---------===//

#include "graphc/Target/CUDA/CudaTarget.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/Target/LLVM/NVVM/Target.h"
#include "mlir/Target/LLVMIR/Dialect/Builtin/BuiltinToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/GPU/GPUToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/LLVMIR/LLVMToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/NVVM/NVVMToLLVMIRTranslation.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"

namespace graphc {

void registerCudaCompilation(mlir::DialectRegistry &registry) {
  mlir::NVVM::registerNVVMTargetInterfaceExternalModels(registry);
  mlir::registerBuiltinDialectTranslation(registry);
  mlir::registerLLVMDialectTranslation(registry);
  mlir::registerGPUDialectTranslation(registry);
  mlir::registerNVVMDialectTranslation(registry);
  mlir::gpu::registerOffloadingLLVMTranslationInterfaceExternalModels(registry);
}

static bool hasPtxas(llvm::StringRef root) {
  if (root.empty()) {
    return false;
  }
  llvm::SmallString<256> ptxas(root);
  llvm::sys::path::append(ptxas, "bin", "ptxas");
  return llvm::sys::fs::can_execute(ptxas);
}

std::string findCudaToolkit() {
  if (std::optional<std::string> env =
          llvm::sys::Process::GetEnv("GRAPHC_CUDA_TOOLKIT")) {
    // Set but empty hides the toolkit (tests of the PTX-only path).
    return hasPtxas(*env) ? *env : "";
  }
  llvm::StringRef baked = GRAPHC_CUDA_TOOLKIT;
  return hasPtxas(baked) ? baked.str() : "";
}

// The object is built from CudaTaskGlue.c by lib/Target/CUDA/CMakeLists.txt
// with the C compiler graphc is built with, and embedded here.
static const unsigned char glueObject[] = {
#embed GRAPHC_CUDA_GLUE_OBJECT
};

llvm::StringRef cudaTaskGlueObject() {
  return llvm::StringRef(reinterpret_cast<const char *>(glueObject),
                         sizeof(glueObject));
}

} // namespace graphc
