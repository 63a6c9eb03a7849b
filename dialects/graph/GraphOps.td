//===- GraphOps.td - graph dialect ops ---------------------*- tablegen -*-===//
//
// The ops are grouped by concern, one file each; this file only gathers them.
//
//===----------------------------------------------------------------------===//

#ifndef GRAPHC_DIALECTS_GRAPH_GRAPHOPS_TD
#define GRAPHC_DIALECTS_GRAPH_GRAPHOPS_TD

include "graph/GraphBase.td"
include "graph/GraphCoreOps.td"
include "graph/GraphElementwiseOps.td"
include "graph/GraphReductionOps.td"
include "graph/GraphShapeOps.td"
include "graph/GraphNNOps.td"
include "graph/GraphTrainingOps.td"
include "graph/GraphExtraOps.td"
include "graph/GraphSamplingOps.td"

#endif // GRAPHC_DIALECTS_GRAPH_GRAPHOPS_TD
