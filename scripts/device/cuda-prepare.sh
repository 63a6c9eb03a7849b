#!/usr/bin/env bash
# cuda-prepare.sh: compiles the cuda target's device-check cases here (no GPU
# needed) into one folder the GPU machine runs from.
#
#   scripts/device/cuda-prepare.sh [OUT] [--no-resnet]
#                                     (default OUT build/device-pack/cuda)
#
# OUT/cases.txt has one case a line, fields separated by single spaces:
#   BUNDLE INPUTS REFERENCE RTOL
# BUNDLE a bundle folder and REFERENCE a folder of NAME.npy (one per output),
# both relative to OUT; INPUTS is NAME=FILE[,NAME=FILE...] (FILE relative to
# OUT, .npy or TensorProto .pb, as graph-run --input takes them); RTOL the
# relative tolerance (atol is 1e-4). The references are graph-run's outputs
# of the same model compiled for the CPU here, so a mismatch on the GPU is
# the cuda target's. scripts/device-check.sh runs every line with graph-run
# (local workers for multi-task bundles) and compares.
#
# What is left out and why: ResNet-18/50 with real weights (47 and 98 MB of
# fp32) do not fit the 64 MiB carried; light_resnet50 (ResNet-50's graph,
# FLOPs and shapes, its weights ConstantOfShape nodes) stands in for both.
# mnist-8 and light_resnet50 have a fixed batch of 1 (constant reshapes),
# so their batch-32 cases are skipped with a line saying so; light_resnet50's
# library is about 39 MB (its ConstantOfShape weights become dense constants
# in the code), most of the pack. ONNX
# node tests: those that pass on the CPU (scripts/onnx-conformance.py
# --results), at most NODE_LIMIT of them (default 300) to bound the pack.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
build="${BUILD_DIR:-$root/build}"
bin="$build/bin"
out="${1:-$build/device-pack/cuda}"
resnet_cases=1
[ "${2:-}" = --no-resnet ] && resnet_cases=0
shared="$root/../shared/testdata"
py=/usr/bin/python3
node_limit="${NODE_LIMIT:-300}"

for tool in graphc graph-run; do
  if [ ! -x "$bin/$tool" ]; then
    echo "cuda-prepare: $bin/$tool is missing; build first (scripts/build.sh)" >&2
    exit 1
  fi
done
rm -rf "$out"
mkdir -p "$out/bundles" "$out/inputs" "$out/ref"
cases="$out/cases.txt"
: >"$cases"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
skipped=0

# add_case NAME MODEL INPUTS RTOL [graphc flags...]: the CPU reference and
# the cuda bundle of MODEL; a model either target refuses is skipped with a
# line saying why.
add_case() {
  local name="$1" model="$2" inputs="$3" rtol="$4"
  shift 4
  local args=() spec
  IFS=',' read -ra specs <<<"$inputs"
  for spec in "${specs[@]}"; do
    args+=(--input "${spec%%=*}=$out/${spec#*=}")
  done
  if ! "$bin/graphc" "$model" "$@" -o "$work/$name.cpu.gjob" 2>"$work/err" ||
    ! "$bin/graph-run" --quiet "$work/$name.cpu.gjob" "${args[@]}" \
      --output-dir "$out/ref/$name" 2>"$work/err"; then
    echo "cuda-prepare: skip $name (cpu: $(head -1 "$work/err"))" >&2
    skipped=$((skipped + 1))
    rm -rf "$out/ref/$name"
    return 0
  fi
  if ! "$bin/graphc" "$model" "$@" --target=cuda \
    -o "$out/bundles/$name.gjob" 2>"$work/err"; then
    echo "cuda-prepare: skip $name (cuda: $(grep -m1 error "$work/err" || head -1 "$work/err"))" >&2
    skipped=$((skipped + 1))
    rm -rf "$out/ref/$name" "$out/bundles/$name.gjob"
    return 0
  fi
  echo "bundles/$name.gjob $inputs ref/$name $rtol" >>"$cases"
}

# random_input FILE SHAPE (e.g. 1x3x224x224): reproducible N(0,1) floats.
random_input() {
  "$py" -c "import numpy as np,sys; s=[int(d) for d in sys.argv[2].split('x')]; np.save(sys.argv[1], np.random.default_rng(0).standard_normal(s).astype(np.float32))" "$1" "$2"
}

# mnist-8: its first reference input.
mnist="$shared/onnx-models/mnist-8_modelzoo"
cp "$mnist/test_data_set_0/input_0.pb" "$out/inputs/mnist-input.pb"
add_case mnist-8 "$mnist/model.onnx" "Input3=inputs/mnist-input.pb" 1e-3

# ResNet-50's graph at batch 1 and 32.
resnet="$shared/onnx-backend/light/light_resnet50.onnx"
[ $resnet_cases -eq 1 ] || echo "cuda-prepare: skip resnet50 (--no-resnet)" >&2
for batch in $([ $resnet_cases -eq 1 ] && echo 1 32); do
  random_input "$out/inputs/resnet50-b$batch.npy" "${batch}x3x224x224"
  add_case "resnet50-b$batch" "$resnet" \
    "gpu_0/data_0=inputs/resnet50-b$batch.npy" 1e-3 \
    --input-shape "gpu_0/data_0:${batch}x3x224x224"
done

# A 2-task job: two data-parallel replicas of the emit-ladder model (the
# batch split over two GPU tasks), and a 2-replica training step whose
# gradients are all-reduced between the GPUs.
ladder="$root/test/Bundle/emit-ladder.mlir"
"$py" -c "import numpy as np; np.save('$out/inputs/ladder-x.npy', np.array([[1, 2, 3], [-4, 0.5, 6]], dtype=np.float32))"
add_case ladder-replicas2 "$ladder" "x=inputs/ladder-x.npy" 1e-3 \
  --weights-threshold=32 --replicas 2
"$py" -c "import numpy as np; np.save('$out/inputs/train-labels.npy', np.array([1, 3], dtype=np.int64))"
add_case train-replicas2 "$ladder" \
  "x=inputs/ladder-x.npy,labels=inputs/train-labels.npy" 1e-3 \
  --train --labels labels --replicas 2 --return-weights

# ONNX node tests that pass on the CPU (NODE_LIMIT=0 skips them and the
# CPU conformance run that selects them, about 8 minutes on two cores).
results="$work/conformance.json"
if [ "$node_limit" -gt 0 ] && "$py" "$root/scripts/onnx-conformance.py" "$shared/onnx-backend" \
  --suites node --bin "$bin" --work "$work/conformance" \
  --results "$results" >"$work/conformance.log" 2>&1; then :; fi
if [ -f "$results" ]; then
  "$py" - "$results" "$node_limit" >"$work/node-tests" <<'PY'
import json, sys
results = json.load(open(sys.argv[1]))
# {"node/NAME": {"status": ..., "reason": ..., "op": ...}}
passed = sorted(k.split("/", 1)[1] for k, v in results.items()
                if k.startswith("node/") and v["status"] == "pass")
limit = int(sys.argv[2])
step = max(1, len(passed) // limit) if passed else 1
for name in passed[::step][:limit]:
    print(name)
PY
  while read -r test; do
    dir="$shared/onnx-backend/node/$test"
    [ -d "$dir/test_data_set_0" ] || continue
    inputs="" shapes=()
    mkdir -p "$out/inputs/$test"
    while read -r name file dims; do
      cp "$dir/test_data_set_0/$file" "$out/inputs/$test/$file"
      inputs+="${inputs:+,}$name=inputs/$test/$file"
      [ -n "$dims" ] && shapes+=(--input-shape "$name:$dims")
    done < <("$py" - "$dir" <<'PY'
import onnx, os, sys
d = sys.argv[1]
m = onnx.load(os.path.join(d, "model.onnx"))
init = {i.name for i in m.graph.initializer}
names = [i.name for i in m.graph.input if i.name not in init]
for i, name in enumerate(names):
    t = onnx.TensorProto()
    t.ParseFromString(open(os.path.join(d, "test_data_set_0", f"input_{i}.pb"), "rb").read())
    print(name, f"input_{i}.pb", "x".join(str(x) for x in t.dims))
PY
)
    add_case "node-$test" "$dir/model.onnx" "$inputs" 1e-3 "${shapes[@]}"
  done <"$work/node-tests"
elif [ "$node_limit" -gt 0 ]; then
  echo "cuda-prepare: the CPU conformance run wrote no results; no node tests (see $work/conformance.log)" >&2
fi

# Inputs of skipped cases do not travel.
find "$out/inputs" -type f | while read -r file; do
  grep -q "=${file#"$out"/}" "$cases" || rm -f "$file"
done
find "$out/inputs" -type d -empty -delete

echo "cuda-prepare: $(wc -l <"$cases") cases, $skipped skipped, $(du -sh "$out" | cut -f1) in $out"
