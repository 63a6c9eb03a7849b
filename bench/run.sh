#!/usr/bin/env bash
# run.sh: build and run a benchmark suite by name; each prints graphc's figures
# beside a peer measured in the same run, and their ratios.
#   bash bench/run.sh runtime [--quick]   # transport and collectives vs raw TCP, gRPC, torch gloo
#   bash bench/run.sh gemm [args...]      # generated SGEMM vs OpenBLAS
# BUILD_DIR (default: build) is the build folder; the suite's targets are
# built first.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${BUILD_DIR:-$root/build}"
name="${1:-}"
shift || true

[ -f "$build/build.ninja" ] || BUILD_DIR="$build" bash "$root/scripts/build.sh"
case "$name" in
  runtime)
    cmake --build "$build" --target graphrt-bench
    /usr/bin/python3 "$root/bench/runtime/bench.py" "$build" "$@"
    ;;
  gemm)
    cmake --build "$build" --target gemm-bench
    exec "$build/bin/gemm-bench" "$@"
    ;;
  *)
    echo "usage: bash bench/run.sh SUITE [ARGS...]; suites: runtime, gemm" >&2
    exit 2
    ;;
esac
