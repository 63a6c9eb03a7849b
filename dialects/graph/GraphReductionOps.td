//===- GraphReductionOps.td - reduction ops ------------------------*- tablegen -*-===//

#ifndef GRAPHC_DIALECTS_GRAPH_GRAPHREDUCTIONOPS_TD
#define GRAPHC_DIALECTS_GRAPH_GRAPHREDUCTIONOPS_TD

include "graph/GraphBase.td"

#endif // GRAPHC_DIALECTS_GRAPH_GRAPHREDUCTIONOPS_TD
