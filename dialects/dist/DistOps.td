//===- DistOps.td - dist dialect ops -------------------------*- tablegen -*-===//

#ifndef GRAPHC_DIALECTS_DIST_DISTOPS_TD
#define GRAPHC_DIALECTS_DIST_DISTOPS_TD

include "dist/DistBase.td"

#endif // GRAPHC_DIALECTS_DIST_DISTOPS_TD
