#!/usr/bin/env bash
# run.sh: build and run a benchmark suite by name; each prints graphc's figures
# beside a peer measured in the same run, and their ratios.
#   bash bench/run.sh runtime [--quick]   # transport and collectives vs raw TCP, gRPC, torch gloo
#   bash bench/run.sh gemm [args...]      # generated SGEMM (and M = 1 GEMV) vs OpenBLAS at its best core, oneDNN, libxsmm
#   bash bench/run.sh import              # a 45 MB ONNX import vs onnx.load + check_model
#   bash bench/run.sh conv [--quick]      # ResNet-50 conv2d shapes vs PyTorch F.conv2d
#   bash bench/run.sh e2e [--quick]       # whole-model latency vs PyTorch eager and ONNX Runtime
#   bash bench/run.sh dynamic [--quick]   # a dynamic-batch bundle vs bundles specialised per batch
#   bash bench/run.sh compile [--model M] # compile time and peak RSS: ResNet-50, DenseNet-121 (goals beside)
#   bash bench/run.sh machine-model [OUT.json] [--quick] [--batch N]  # this machine for graphc --machine-model
#   bash bench/run.sh dist [--quick]      # ResNet-18 batch 8: --replicas 2, a 2-stage pipeline, 2-way tensor parallelism (1 thread each) vs one task
#   bash bench/run.sh train [--quick]     # MLP, ResNet-18 training at batch 16: --replicas 2 vs torch DDP (gloo)
#   bash bench/run.sh fwdbwd [--quick] [--rounds R] [--only resnet18|convs]  # ResNet-18 train step (fwd+bwd) at batch 8 and its backward convs vs PyTorch, 1 thread
# BUILD_DIR (default: build) is the build folder; the suite's targets are
# built first.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${BUILD_DIR:-$root/build}"
name="${1:-}"
shift || true

[ -f "$build/build.ninja" ] || BUILD_DIR="$build" bash "$root/scripts/build.sh"

# ONNX Runtime for e2e: npm's onnxruntime-node (it carries libonnxruntime for
# Linux x64) under node, installed once into a folder the benchmark owns,
# never into the checkout. --ignore-scripts: its install script only fetches
# optional GPU parts. Without it e2e still runs and says why ORT is missing.
ensure_ort() {
  export GRAPHC_ORT_DIR="${GRAPHC_ORT_DIR:-$HOME/.cache/graphc/ort}"
  if ! command -v node >/dev/null || ! command -v npm >/dev/null; then
    if [ "$(id -u)" = 0 ]; then
      apt-get install -y nodejs npm >&2 || true
    elif command -v sudo >/dev/null; then
      sudo -n apt-get install -y nodejs npm >&2 || true
    fi
  fi
  [ -d "$GRAPHC_ORT_DIR/node_modules/onnxruntime-node" ] && return 0
  command -v npm >/dev/null || { echo "e2e: no npm; ONNX Runtime will be skipped" >&2; return 0; }
  mkdir -p "$GRAPHC_ORT_DIR"
  (cd "$GRAPHC_ORT_DIR" && { [ -f package.json ] || npm init -y >/dev/null; } &&
     npm install --ignore-scripts --no-audit --no-fund onnxruntime-node >&2) ||
    echo "e2e: npm install onnxruntime-node failed; ONNX Runtime will be skipped" >&2
}
case "$name" in
  runtime)
    cmake --build "$build" --target graphrt-bench
    /usr/bin/python3 "$root/bench/runtime/bench.py" "$build" "$@"
    ;;
  import)
    cmake --build "$build" --target graphc
    /usr/bin/python3 "$root/bench/import/bench.py" "$build" "$@"
    ;;
  conv|e2e|compile|dist|train|dynamic|fwdbwd)
    cmake --build "$build" --target graphc graph-run graph-worker
    [ "$name" = e2e ] && ensure_ort
    /usr/bin/python3 "$root/bench/nn/$name.py" "$build" "$@"
    ;;
  machine-model)
    cmake --build "$build" --target graphc graph-run graph-worker \
      graphrt_test_producer graphrt_test_consumer
    out="machine-model.json"
    if [ $# -gt 0 ] && [ "${1#--}" = "$1" ]; then out="$1"; shift; fi
    /usr/bin/python3 "$root/bench/machine_model/measure.py" "$build" "$out" "$@"
    ;;
  gemm)
    # The libraries timed beside OpenBLAS (oneDNN, libxsmm): Debian's
    # packages, installed when missing and we may; the bench runs without.
    if ! dpkg -s libdnnl-dev libxsmm-dev >/dev/null 2>&1; then
      if [ "$(id -u)" = 0 ]; then
        apt-get install -y libdnnl-dev libxsmm-dev >&2 || true
      elif command -v sudo >/dev/null; then
        sudo -n apt-get install -y libdnnl-dev libxsmm-dev >&2 || true
      fi
      cmake "$build" >/dev/null
    fi
    cmake --build "$build" --target gemm-bench
    exec "$build/bin/gemm-bench" "$@"
    ;;
  *)
    echo "usage: bash bench/run.sh SUITE [ARGS...]; suites: runtime, gemm, import, conv, e2e, dynamic, compile, machine-model, dist, train, fwdbwd" >&2
    exit 2
    ;;
esac
