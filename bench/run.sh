#!/usr/bin/env bash
# run.sh: build and run a benchmark. Usage: bash bench/run.sh gemm [args...]
# Prints graphc and peer throughput measured in the same process, and ratios.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${BUILD_DIR:-$root/build}"
what="${1:-gemm}"
shift || true
case "$what" in
  gemm)
    [ -f "$build/build.ninja" ] || BUILD_DIR="$build" bash "$root/scripts/build.sh"
    cmake --build "$build" --target gemm-bench
    exec "$build/bin/gemm-bench" "$@"
    ;;
  *)
    echo "run.sh: unknown benchmark '$what' (known: gemm)" >&2
    exit 2
    ;;
esac
