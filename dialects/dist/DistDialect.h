//===- DistDialect.h - dist dialect declaration -------------------*- C++
//-*-===//

#ifndef GRAPHC_DIALECTS_DIST_DISTDIALECT_H
#define GRAPHC_DIALECTS_DIST_DISTDIALECT_H

#include "mlir/IR/Dialect.h"

#include "dist/DistDialect.h.inc"

#endif // GRAPHC_DIALECTS_DIST_DISTDIALECT_H
