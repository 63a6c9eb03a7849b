#!/usr/bin/env bash
# stablehlo-prepare.sh [OUT]: compile the TPU target's device-check cases here
# (ONNX node tests that pass on CPU, mnist-8, ResNet-18, a 2-replica training
# step) into OUT (default build/device-pack/stablehlo) for
# stablehlo-check.py to run with JAX on the GPU machine. See
# stablehlo-prepare.py --help for the options passed through.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
build="${BUILD_DIR:-$root/build}"
out="${1:-$build/device-pack/stablehlo}"
shift || true
exec /usr/bin/python3 "$root/scripts/device/stablehlo-prepare.py" \
  --bin "$build/bin" --shared "$root/../shared/testdata" --out "$out" "$@"
