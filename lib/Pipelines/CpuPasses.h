//===- CpuPasses.h - passes of the CPU code generation pipeline -*- C++ -*-===//

#ifndef GRAPHC_LIB_PIPELINES_CPUPASSES_H
#define GRAPHC_LIB_PIPELINES_CPUPASSES_H

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Pass/Pass.h"

namespace graphc {

#define GEN_PASS_DECL
#include "CpuPasses.h.inc"

#define GEN_PASS_REGISTRATION
#include "CpuPasses.h.inc"

} // namespace graphc

#endif // GRAPHC_LIB_PIPELINES_CPUPASSES_H
