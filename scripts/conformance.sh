#!/usr/bin/env bash
# conformance.sh [--update] [ARGS...]: runs the ONNX backend conformance
# suite (../shared/testdata/onnx-backend) through graphc and graph-run.
# Plain: prints pass counts per suite and fails if any is below the recorded
# one (test/Conformance/recorded.json). --update: records this run's counts
# and rewrites docs/conformance/onnx-backend.md. Other ARGS go to
# scripts/onnx-conformance.py (e.g. --filter REGEX -v, --suites node).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${BUILD_DIR:-$root/build}"
shared="${GRAPHC_SHARED:-$root/../shared}"
[ -f "$build/build.ninja" ] || BUILD_DIR="$build" bash "$root/scripts/build.sh"
cmake --build "$build" --target graphc graph-run graph-worker >/dev/null
extra=()
if [ "${1:-}" = "--update" ]; then
  shift
  mkdir -p "$root/docs/conformance"
  extra=(--update --table "$root/docs/conformance/onnx-backend.md")
fi
exec /usr/bin/python3 "$root/scripts/onnx-conformance.py" \
  --bin "$build/bin" --recorded "$root/test/Conformance/recorded.json" \
  --work "${TMPDIR:-/tmp}/graphc-conformance.$$" "${extra[@]}" "$@" \
  "$shared/testdata/onnx-backend"
