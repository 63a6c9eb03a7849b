#!/usr/bin/env bash
# import-corpus.sh PATH...: imports each model; a model either imports and
# verifies under graph-opt --verify-each, or is refused with a diagnostic
# (exit status 1). Anything else (a crash, a hang past 60 s) fails. Prints the
# counts and each refusal's first line.
set -u
tmp="${TMPDIR:-/tmp}/graphc-corpus-$$"
mkdir -p "$tmp"
total=0 imported=0 refused=0 broken=0
for model in "$@"; do
  total=$((total + 1))
  out="$tmp/out.mlir"
  timeout 60 graphc "$model" --emit=graph -o "$out" 2>"$tmp/err"
  status=$?
  if [ $status -eq 0 ]; then
    if graph-opt --verify-each "$out" -o /dev/null 2>>"$tmp/err"; then
      imported=$((imported + 1))
      echo "IMPORTED $model"
      continue
    fi
    status=2
  fi
  if [ $status -eq 1 ] && [ -s "$tmp/err" ]; then
    refused=$((refused + 1))
    echo "REFUSED $model: $(head -1 "$tmp/err")"
  else
    broken=$((broken + 1))
    echo "BROKEN ($status) $model: $(head -3 "$tmp/err")"
  fi
done
rm -rf "$tmp"
echo "corpus: $total models, $imported imported and verified, $refused refused with a diagnostic, $broken broken"
[ $broken -eq 0 ]
