//===- Passes.h - the passes that make a training step ----------*- C++ -*-===//

#ifndef GRAPHC_AUTODIFF_PASSES_H
#define GRAPHC_AUTODIFF_PASSES_H

#include "graph/GraphDialect.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"

namespace graphc {

#define GEN_PASS_DECL
#include "graphc/Autodiff/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "graphc/Autodiff/Passes.h.inc"

} // namespace graphc

#endif // GRAPHC_AUTODIFF_PASSES_H
