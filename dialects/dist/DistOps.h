//===- DistOps.h - dist dialect ops -------------------------------*- C++ -*-===//

#ifndef GRAPHC_DIALECTS_DIST_DISTOPS_H
#define GRAPHC_DIALECTS_DIST_DISTOPS_H

#include "dist/DistDialect.h"

#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/OpImplementation.h"

#define GET_OP_CLASSES
#include "dist/DistOps.h.inc"

#endif // GRAPHC_DIALECTS_DIST_DISTOPS_H
