#!/usr/bin/env bash
# onnx-node-tests.sh DIR [MIN]: imports every ONNX backend node test in DIR whose ops
# graphc covers (graphc --list-unsupported exits 0), checks graph-opt
# --verify-each accepts the result, prints the counts and fails under MIN
# percent (default 90).
set -u
dir="$1"
tmp="${TMPDIR:-/tmp}/graphc-node-$$"
mkdir -p "$tmp"
total=0 covered=0 passed=0
failures=()
for model in "$dir"/*/model.onnx; do
  total=$((total + 1))
  graphc --list-unsupported "$model" >/dev/null 2>&1 || continue
  covered=$((covered + 1))
  name="$(basename "$(dirname "$model")")"
  if graphc "$model" --emit=graph -o "$tmp/$name.mlir" 2>"$tmp/$name.err" &&
     graph-opt --verify-each "$tmp/$name.mlir" -o /dev/null 2>>"$tmp/$name.err"; then
    passed=$((passed + 1))
  else
    status=$?
    [ $status -gt 1 ] && echo "CRASH ($status): $name"
    failures+=("$name: $(head -1 "$tmp/$name.err")")
  fi
done
rm -rf "$tmp"
echo "onnx node tests: $total total, $covered with covered ops, $passed import and verify"
for f in "${failures[@]+"${failures[@]}"}"; do echo "  FAIL $f"; done
min="${2:-90}"
if [ "$covered" -gt 0 ] && [ $((passed * 100)) -lt $((covered * min)) ]; then
  echo "onnx node tests: under ${min}% of covered tests pass"
  exit 1
fi
