#!/usr/bin/env bash
# test.sh: set up, build and run the whole test suite (lit + GoogleTest).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${BUILD_DIR:-$root/build}"

bash "$root/scripts/setup.sh"
bash "$root/scripts/build.sh"

status=0
echo "== formatting"
bash "$root/scripts/check-format.sh" || status=1
echo "== lit tests"
/usr/lib/llvm-22/bin/lit -sv "$build/test" || status=1
echo "== unit tests"
ctest --test-dir "$build" --output-on-failure -j2 || status=1
exit $status
