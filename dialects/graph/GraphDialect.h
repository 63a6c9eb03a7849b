//===- GraphDialect.h - graph dialect declaration -----------------*- C++
//-*-===//

#ifndef GRAPHC_DIALECTS_GRAPH_GRAPHDIALECT_H
#define GRAPHC_DIALECTS_GRAPH_GRAPHDIALECT_H

#include "mlir/IR/Dialect.h"

#include "graph/GraphDialect.h.inc"

#endif // GRAPHC_DIALECTS_GRAPH_GRAPHDIALECT_H
