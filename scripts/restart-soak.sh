#!/usr/bin/env bash
# restart-soak.sh: kills workers of a training job at random steps, COUNT times (default 20), and checks every run ends bit-identical.
#
#   scripts/restart-soak.sh [COUNT]
#
# Each round draws 3 (task, step) kills from its seed (1..COUNT), runs the
# runtime's feed job with --max-restarts 3 --deterministic, and compares the
# final variables' sha256 with an uninterrupted run's
# (test/runtime/Inputs/graphrt_test.py restart-test). Needs a build in
# BUILD_DIR (default: build).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${BUILD_DIR:-$root/build}"
count="${1:-20}"
helper="$root/test/runtime/Inputs/graphrt_test.py"
export PATH="$build/bin:$PATH"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
/usr/bin/python3 "$helper" feed-bundle "$work" "$build/lib" >/dev/null
passed=0
start=$(date +%s)
for seed in $(seq 1 "$count"); do
  if out=$(/usr/bin/python3 "$helper" restart-test "$seed" 3 20 "$work" 2>&1); then
    passed=$((passed + 1))
    echo "$out" | sed -n '1p;$p'
  else
    echo "$out"
    echo "restart-soak: seed $seed FAILED"
  fi
done
echo "restart-soak: $passed/$count runs survived 3 kills each (one restart per failure) and ended bit-identical ($(( $(date +%s) - start )) s)"
[ "$passed" -eq "$count" ]
