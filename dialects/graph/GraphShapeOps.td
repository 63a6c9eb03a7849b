//===- GraphShapeOps.td - shape ops ------------------------*- tablegen -*-===//

#ifndef GRAPHC_DIALECTS_GRAPH_GRAPHSHAPEOPS_TD
#define GRAPHC_DIALECTS_GRAPH_GRAPHSHAPEOPS_TD

include "graph/GraphBase.td"

#endif // GRAPHC_DIALECTS_GRAPH_GRAPHSHAPEOPS_TD
