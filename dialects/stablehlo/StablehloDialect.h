//===- StablehloDialect.h - the stablehlo dialect ---------------*- C++ -*-===//

#ifndef GRAPHC_DIALECTS_STABLEHLO_STABLEHLODIALECT_H
#define GRAPHC_DIALECTS_STABLEHLO_STABLEHLODIALECT_H

#include "mlir/IR/Dialect.h"

#include "stablehlo/StablehloDialect.h.inc"

#endif // GRAPHC_DIALECTS_STABLEHLO_STABLEHLODIALECT_H
