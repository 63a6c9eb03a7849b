#!/usr/bin/env bash
# gen-docs.sh: regenerate docs/dialects/*.md and docs/passes/*.md from ODS and
# the Passes.td files (builds graphc-doc first).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${BUILD_DIR:-$root/build}"
cmake --build "$build" --target graphc-doc
mkdir -p "$root/docs/dialects" "$root/docs/passes"
for d in graph dist stablehlo; do
  cp "$build/dialects/$d/$d.md" "$root/docs/dialects/$d.md"
done
# One reference per Passes.td, found wherever its CMakeLists put it.
for p in graph transforms analysis autodiff conversion cpu cuda; do
  src="$(find "$build" -name "$p-passes.md" -not -path '*/CMakeFiles/*' | head -1)"
  cp "$src" "$root/docs/passes/$p.md"
done
echo "gen-docs: wrote docs/dialects/{graph,dist,stablehlo}.md and docs/passes/*.md"
