#!/usr/bin/env bash
# demo.sh: set up, build and run graphc's main job on the embedded example.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${BUILD_DIR:-$root/build}"

bash "$root/scripts/setup.sh"
bash "$root/scripts/build.sh"

echo "== graphc examples/mlp.mlir --emit=graph"
"$build/bin/graphc" "$root/examples/mlp.mlir" --emit=graph -o -
