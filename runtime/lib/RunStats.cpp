// RunStats.cpp: graph-run --stats.
#include "RunStats.h"

#include <sys/resource.h>

#include <algorithm>
#include <cstdio>
#include <fstream>

namespace graphrt {
namespace {

// The q-quantile (0..1) by linear interpolation between order statistics,
// NumPy's default; in milliseconds.
double quantileMs(std::vector<double> v, double q) {
  if (v.empty()) {
    return 0;
  }
  std::sort(v.begin(), v.end());
  double pos = q * static_cast<double>(v.size() - 1);
  size_t lo = static_cast<size_t>(pos);
  size_t hi = std::min(lo + 1, v.size() - 1);
  return 1e3 * (v[lo] + (v[hi] - v[lo]) * (pos - static_cast<double>(lo)));
}

std::string num(double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.6f", v);
  return buf;
}

} // namespace

Status writeRunStats(const std::string &path,
                     const std::vector<double> &taskSeconds,
                     const std::vector<double> &wallSeconds) {
  struct rusage usage = {};
  ::getrusage(RUSAGE_CHILDREN, &usage);
  // Linux reports ru_maxrss in KiB.
  int64_t peak = static_cast<int64_t>(usage.ru_maxrss) * 1024;
  std::string json =
      "{\"steps\": " + std::to_string(taskSeconds.size()) +
      ", \"median_ms\": " + num(quantileMs(taskSeconds, 0.5)) +
      ", \"p90_ms\": " + num(quantileMs(taskSeconds, 0.9)) +
      ", \"min_ms\": " + num(quantileMs(taskSeconds, 0)) +
      ", \"max_ms\": " + num(quantileMs(taskSeconds, 1)) +
      ", \"wall_median_ms\": " + num(quantileMs(wallSeconds, 0.5)) +
      ", \"peak_bytes\": " + std::to_string(peak) + "}\n";
  std::ofstream out(path);
  out << json;
  out.close();
  if (!out) {
    return Status(GRAPHRT_STATUS_UNAVAILABLE,
                  "cannot write the --stats file '" + path + "'");
  }
  return Status::ok();
}

} // namespace graphrt
