#!/usr/bin/env bash
# demo.sh: set up, build, and run graphc's main job on the embedded default.
#
# What runs (see README "Status"):
# 0. training: a classifier for scikit-learn's handwritten digits (read from
#    Debian's python3-sklearn at run time) is exported from PyTorch untrained,
#    graphc turns it into a training step split over 4 data-parallel replicas
#    (gradients all-reduced), graph-run trains it on 4 local workers for 20
#    epochs with live progress and checkpoints, and scores the trained
#    weights on 360 held-out digits with the forward-only job graphc put in
#    the bundle (--eval; the run fails below 95% accuracy);
# 1. graphc compiles the embedded MLP (examples/mlp.mlir) to native code in a
#    job bundle, graph-run runs it in a graph-worker on loopback, and the
#    logits are checked against NumPy;
# 2. graphc partitions the same MLP (as ONNX, weights inside) into a 4-task
#    job -- 2 data-parallel replicas and 2 parameter servers -- and prints its
#    communication report; graph-run runs the tasks as graph-worker
#    processes on loopback and the logits are checked against NumPy again.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${BUILD_DIR:-$root/build}"

bash "$root/scripts/setup.sh"
bash "$root/scripts/build.sh"

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

echo "== training: the digits, data-parallel on 4 local workers"
dg="$work/digits"
/usr/bin/python3 "$root/examples/digits.py" prepare "$dg" --batch 64
"$build/bin/graphc" "$dg/digits.onnx" --train --labels=y --optimizer=adam \
  --lr=0.01 --replicas 4 -o "$dg/train.gjob"
"$build/bin/graph-run" "$dg/train.gjob" --data "x=$dg/train_x.npy" \
  --data "y=$dg/train_y.npy" --epochs 20 --seed 1 \
  --checkpoint-dir "$dg/checkpoints" --checkpoint-every 100 \
  --save "$dg/weights.safetensors" --progress \
  --eval "x=$dg/test_x.npy" --eval "y=$dg/test_y.npy" --metrics "$dg/metrics.json"
/usr/bin/python3 -c "import json, sys; a = json.load(open(sys.argv[1]))['eval'][-1]['accuracy']; sys.exit(0 if a >= 0.95 else 'test accuracy %.2f%% is below 95%%' % (100 * a))" "$dg/metrics.json"

echo "== graphc examples/mlp.mlir --emit=graph"
"$build/bin/graphc" "$root/examples/mlp.mlir" --emit=graph -o -

echo "== graphc examples/mlp.mlir -o mlp.gjob; graph-run mlp.gjob"
mlp="$work/mlp"
mkdir -p "$mlp"
"$build/bin/graphc" "$root/examples/mlp.mlir" -o "$mlp/mlp.gjob"
/usr/bin/python3 "$root/examples/mlp_data.py" make "$mlp"
mlp_inputs=()
for n in x w1 b1 w2 b2; do mlp_inputs+=(--input "$n=$mlp/$n.npy"); done
"$build/bin/graph-run" "${mlp_inputs[@]}" --output-dir "$mlp/out" "$mlp/mlp.gjob"
/usr/bin/python3 "$root/examples/mlp_data.py" check "$mlp"

echo "== graphc mlp.onnx --replicas 2 --ps-tasks 2: a job graphc partitions"
# The same MLP with its weights inside (ONNX): two data-parallel replicas split
# the batch of 8, two parameter servers hold the weights, balanced by bytes.
/usr/bin/python3 "$root/examples/mlp_data.py" onnx "$mlp"
"$build/bin/graphc" "$mlp/mlp.onnx" --replicas 2 --ps-tasks 2 \
  --report "$mlp/report.json" -o "$mlp/mlp-dist.gjob"
echo "== graph-run mlp-dist.gjob: one local worker per task, on loopback"
"$build/bin/graph-run" --input "x=$mlp/x.npy" --output-dir "$mlp/dist-out" \
  --metrics "$mlp/metrics.json" "$mlp/mlp-dist.gjob"
/usr/bin/python3 "$root/examples/mlp_data.py" check "$mlp" "$mlp/dist-out"
