//===- Passes.h - graphc's cross-dialect transforms ---------------*- C++
//-*-===//

#ifndef GRAPHC_TRANSFORMS_PASSES_H
#define GRAPHC_TRANSFORMS_PASSES_H

#include "dist/DistDialect.h"
#include "graph/GraphDialect.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"

namespace graphc {

#define GEN_PASS_DECL
#include "graphc/Transforms/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "graphc/Transforms/Passes.h.inc"

} // namespace graphc

#endif // GRAPHC_TRANSFORMS_PASSES_H
