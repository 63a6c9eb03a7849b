#!/usr/bin/env bash
# gen-docs.sh: regenerate docs/dialects/*.md from ODS (builds graphc-doc first).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${BUILD_DIR:-$root/build}"
cmake --build "$build" --target graphc-doc
mkdir -p "$root/docs/dialects"
for d in graph dist; do
  cp "$build/dialects/$d/$d.md" "$root/docs/dialects/$d.md"
done
echo "gen-docs: wrote docs/dialects/{graph,dist}.md"
