#!/usr/bin/env bash
# demo.sh: set up, build, and run graphc's main job on the embedded default.
#
# What runs today (see README "Status"):
# 1. graphc compiles the embedded MLP (examples/mlp.mlir) to native code in a
#    job bundle, graph-run runs it in a graph-worker on loopback, and the
#    logits are checked against NumPy;
# 2. a 4-task job runs on a local cluster of graph-worker processes on
#    loopback: every collective (all-reduce, all-gather, reduce-scatter,
#    broadcast, all-to-all), results checked against NumPy. Its task
#    libraries are the runtime's hand-written test tasks: the passes that
#    partition a model into communicating tasks are not built yet.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${BUILD_DIR:-$root/build}"

bash "$root/scripts/setup.sh"
bash "$root/scripts/build.sh"

echo "== graphc examples/mlp.mlir --emit=graph"
"$build/bin/graphc" "$root/examples/mlp.mlir" --emit=graph -o -

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

echo "== graphc examples/mlp.mlir -o mlp.gjob; graph-run mlp.gjob"
mlp="$work/mlp"
mkdir -p "$mlp"
"$build/bin/graphc" "$root/examples/mlp.mlir" -o "$mlp/mlp.gjob"
/usr/bin/python3 "$root/examples/mlp_data.py" make "$mlp"
mlp_inputs=()
for n in x w1 b1 w2 b2; do mlp_inputs+=(--input "$n=$mlp/$n.npy"); done
"$build/bin/graph-run" "${mlp_inputs[@]}" --output-dir "$mlp/out" "$mlp/mlp.gjob"
/usr/bin/python3 "$root/examples/mlp_data.py" check "$mlp"

tool="$root/test/runtime/Inputs/graphrt_test.py"
echo "== graph-run --local 4: collectives on a loopback cluster"
/usr/bin/python3 "$tool" coll-bundle 4 "$work" "$build/lib"
inputs=()
for r in 0 1 2 3; do inputs+=(--input "x$r=$work/x$r.npy"); done
"$build/bin/graph-run" --local 4 --steps 3 "${inputs[@]}" \
  --output-dir "$work/out" --metrics "$work/metrics.json" "$work/coll.gjob"
/usr/bin/python3 "$tool" check-coll 4 "$work"
