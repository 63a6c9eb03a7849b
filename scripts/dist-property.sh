#!/usr/bin/env bash
# dist-property.sh [COUNT] [SEED]: the placement/partitioning property test at
# scale (CI runs 50 cases in test/Distribute/property.test): COUNT random
# placed graphs (default 1000) from SEED (default 1), each compiled as a
# multi-task job and as one task, run with graph-run and compared. Prints
# every failing seed and "N passed, M failed".
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${BUILD_DIR:-$root/build}"
bash "$root/scripts/build.sh" >/dev/null
exec /usr/bin/python3 "$root/test/Distribute/Inputs/dist_property.py" "$build" \
  --count "${1:-1000}" --seed "${2:-1}" --jobs "$(nproc)"
