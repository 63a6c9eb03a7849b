//===- Passes.h - analyses of partitioned modules -----------------*- C++
//-*-===//

#ifndef GRAPHC_ANALYSIS_PASSES_H
#define GRAPHC_ANALYSIS_PASSES_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"

namespace graphc {

#define GEN_PASS_DECL
#include "graphc/Analysis/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "graphc/Analysis/Passes.h.inc"

} // namespace graphc

#endif // GRAPHC_ANALYSIS_PASSES_H
