//===- GraphTrainingOps.td - training ops ------------------------*- tablegen -*-===//

#ifndef GRAPHC_DIALECTS_GRAPH_GRAPHTRAININGOPS_TD
#define GRAPHC_DIALECTS_GRAPH_GRAPHTRAININGOPS_TD

include "graph/GraphBase.td"

#endif // GRAPHC_DIALECTS_GRAPH_GRAPHTRAININGOPS_TD
