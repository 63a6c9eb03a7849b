//===- Registration.cpp - what a context needs to compile a task ----------===//
//
// The CPU pipeline runs upstream passes whose interfaces (TilingInterface,
// BufferizableOpInterface, ConvertToLLVMPatternInterface, ...) are external
// models registered by dialect extensions, and Target/CPU needs the LLVM IR
// translations. Registering all upstream dialects and extensions is what
// graph-opt does too; it keeps graphc and graph-opt in agreement.
//
//===----------------------------------------------------------------------===//

#include "graphc/Bundle/JobBundle.h"
#include "graphc/Target/CUDA/CudaTarget.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"

void graphc::registerTaskCompilation(mlir::DialectRegistry &registry) {
  mlir::registerAllDialects(registry);
  // Before the upstream extensions: DialectRegistry keeps one extension per
  // function type, so the GPU translation's would be dropped after
  // registerAllExtensions registered another on the gpu dialect.
  registerCudaCompilation(registry);
  mlir::registerAllExtensions(registry);
  registerCpuTranslations(registry);
}
