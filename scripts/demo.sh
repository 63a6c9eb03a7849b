#!/usr/bin/env bash
# demo.sh: set up, build, and run graphc's main job on the embedded default.
#
# What runs today (see README "Status"): graphc compiles the embedded MLP to
# the graph dialect with every shape inferred; then a 4-task job runs on a
# local cluster of graph-worker processes on loopback: every collective
# (all-reduce, all-gather, reduce-scatter, broadcast, all-to-all) over gRPC,
# with the results checked against NumPy. The job's task libraries are the
# runtime's hand-written test tasks; compiled task binaries come with the CPU
# code generator.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${BUILD_DIR:-$root/build}"

bash "$root/scripts/setup.sh"
bash "$root/scripts/build.sh"

echo "== graphc examples/mlp.mlir --emit=graph"
"$build/bin/graphc" "$root/examples/mlp.mlir" --emit=graph -o -

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
tool="$root/test/runtime/Inputs/graphrt_test.py"
echo "== graph-run --local 4: collectives on a loopback cluster"
/usr/bin/python3 "$tool" coll-bundle 4 "$work" "$build/lib"
inputs=()
for r in 0 1 2 3; do inputs+=(--input "x$r=$work/x$r.npy"); done
"$build/bin/graph-run" --local 4 --steps 3 "${inputs[@]}" \
  --output-dir "$work/out" --metrics "$work/metrics.json" "$work/coll.gjob"
/usr/bin/python3 "$tool" check-coll 4 "$work"
