// RunStats.h: graph-run --stats, step-time percentiles and peak memory.
#ifndef GRAPHRT_LIB_RUNSTATS_H
#define GRAPHRT_LIB_RUNSTATS_H

#include "Status.h"

#include <cstdint>
#include <string>
#include <vector>

namespace graphrt {

/// Writes `path` as JSON: {"steps", "median_ms", "p90_ms", "min_ms",
/// "max_ms" (of `taskSeconds`, the slowest task's time inside its worker per
/// timed step), "wall_median_ms" (of `wallSeconds`, the step as graph-run saw
/// it, transfers included), "peak_bytes" (the largest peak resident set of a
/// worker process graph-run started and waited for; 0 when it started none)}.
Status writeRunStats(const std::string &path,
                     const std::vector<double> &taskSeconds,
                     const std::vector<double> &wallSeconds);

} // namespace graphrt

#endif // GRAPHRT_LIB_RUNSTATS_H
