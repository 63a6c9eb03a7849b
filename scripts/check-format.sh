#!/usr/bin/env bash
# check-format.sh [--fix]: every C/C++ file git tracks is formatted as
# .clang-format says (clang-format-22); lists the ones that are not and exits 1.
# With --fix, reformats them in place.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
fix=0
[[ "${1:-}" == "--fix" ]] && fix=1
mapfile -t files < <(git ls-files '*.cpp' '*.cc' '*.h' '*.hpp' '*.c')
bad=()
for f in "${files[@]}"; do
  [[ -f "$f" ]] || continue
  if ! clang-format-22 --dry-run --Werror "$f" >/dev/null 2>&1; then
    if ((fix)); then
      clang-format-22 -i "$f"
    else
      bad+=("$f")
    fi
  fi
done
if ((${#bad[@]})); then
  printf 'check-format: not formatted: %s\n' "${bad[@]}"
  echo "check-format: ${#bad[@]} of ${#files[@]} files; run bash scripts/check-format.sh --fix"
  exit 1
fi
echo "check-format: ${#files[@]} files formatted"
