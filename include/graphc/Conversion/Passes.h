//===- Passes.h - conversion passes between graphc dialects -------*- C++
//-*-===//

#ifndef GRAPHC_CONVERSION_PASSES_H
#define GRAPHC_CONVERSION_PASSES_H

#include "dist/DistDialect.h"
#include "graph/GraphDialect.h"
#include "stablehlo/StablehloDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlowOps.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"

namespace graphc {

#define GEN_PASS_DECL
#include "graphc/Conversion/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "graphc/Conversion/Passes.h.inc"

} // namespace graphc

#endif // GRAPHC_CONVERSION_PASSES_H
