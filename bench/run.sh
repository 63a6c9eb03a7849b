#!/usr/bin/env bash
# run.sh: run a benchmark suite by name and print its ratios.
#   bash bench/run.sh runtime [--quick]
#   bash bench/run.sh import
# BUILD_DIR (default: build) is the build folder; the suite's targets are
# built first.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${BUILD_DIR:-$root/build}"
name="${1:-}"
shift || true

case "$name" in
  runtime)
    cmake --build "$build" --target graphrt-bench
    /usr/bin/python3 "$root/bench/runtime/bench.py" "$build" "$@"
    ;;
  import)
    cmake --build "$build" --target graphc
    /usr/bin/python3 "$root/bench/import/bench.py" "$build" "$@"
    ;;
  *)
    echo "usage: bash bench/run.sh SUITE [ARGS...]; suites: runtime, import" >&2
    exit 2
    ;;
esac
