//===- CudaPasses.h - passes of the CUDA pipeline -------------*- C++ -*-===//

#ifndef GRAPHC_LIB_PIPELINES_CUDAPASSES_H
#define GRAPHC_LIB_PIPELINES_CUDAPASSES_H

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Pass/Pass.h"

namespace graphc {

#define GEN_PASS_DECL
#include "CudaPasses.h.inc"

#define GEN_PASS_REGISTRATION
#include "CudaPasses.h.inc"

} // namespace graphc

#endif // GRAPHC_LIB_PIPELINES_CUDAPASSES_H
