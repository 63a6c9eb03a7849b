//===- StablehloOps.h - stablehlo ops, attributes and types -----*- C++ -*-===//

#ifndef GRAPHC_DIALECTS_STABLEHLO_STABLEHLOOPS_H
#define GRAPHC_DIALECTS_STABLEHLO_STABLEHLOOPS_H

#include "stablehlo/StablehloDialect.h"

#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/Interfaces/InferTypeOpInterface.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include "stablehlo/StablehloEnums.h.inc"

#define GET_ATTRDEF_CLASSES
#include "stablehlo/StablehloAttrs.h.inc"

#define GET_TYPEDEF_CLASSES
#include "stablehlo/StablehloTypes.h.inc"

#define GET_OP_CLASSES
#include "stablehlo/StablehloOps.h.inc"

#endif // GRAPHC_DIALECTS_STABLEHLO_STABLEHLOOPS_H
