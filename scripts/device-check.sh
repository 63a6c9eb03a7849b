#!/usr/bin/env bash
# device-check.sh: on the GPU machine, run every device check from the folder device-prepare.sh wrote, and print one table.
#
#   bash scripts/device-check.sh            (DEVICE_PACK=build/device-pack)
#
# Runs from a carried checkout (the run tool carries build/device-pack); needs
# python3 with numpy (and torch for the GEMM comparison), nothing built there.
# Sized for 8 minutes: each part has its own time limit. Without a GPU (or a
# CUDA driver) the GPU parts are reported as skipped and the CPU cases still
# run, so the script is exercised on any machine.
set -uo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
pack="${DEVICE_PACK:-$root/build/device-pack}"
rt="$pack/runtime"
work="${DEVICE_CHECK_WORK:-$(mktemp -d)}"
mkdir -p "$work"
start=$(date +%s)
rows=()
failures=0

row() { rows+=("$(printf '%-34s %-8s %s' "$1" "$2" "$3")"); }
fail_row() { row "$1" FAIL "$2"; failures=$((failures + 1)); }
elapsed() { echo $(($(date +%s) - start)); }

# The Python with numpy: the GPU machine's python3 has it (and torch); here
# it may be /usr/bin/python3.
py=""
for p in ${PYTHON:-} python3 /usr/bin/python3; do
  if "$p" -c 'import numpy' 2>/dev/null; then py="$p"; break; fi
done
if [ -z "$py" ]; then
  echo "device-check: error: no python3 with numpy" >&2
  exit 1
fi
tools="$root/scripts/device/runtime_tools.py"

if [ ! -x "$rt/graph-run" ]; then
  # A StableHLO-only pack (DEVICE_PARTS=stablehlo) carries no runtime.
  echo "device-check: no runtime pack in $rt: the runtime's checks are skipped"
fi
echo "device-check: pack $pack ($(grep '^commit' "$rt/PACK-INFO" 2>/dev/null))"

# cuBLASLt and NCCL come from NVIDIA's Python wheels there, outside the
# loader's search path: point the runtime at them.
if [ -z "${GRAPHRT_LIBCUBLASLT:-}${GRAPHRT_LIBNCCL:-}" ]; then
  sp=$("$py" -c 'import site; print(" ".join(site.getsitepackages()))' 2>/dev/null)
  for d in $sp; do
    [ -d "$d/nvidia" ] || continue
    lt=$(find "$d/nvidia" -name 'libcublasLt.so*' 2>/dev/null | sort | head -1)
    nc=$(find "$d/nvidia" -name 'libnccl.so.2*' 2>/dev/null | sort | head -1)
    [ -n "$lt" ] && export GRAPHRT_LIBCUBLASLT="$lt"
    [ -n "$nc" ] && export GRAPHRT_LIBNCCL="$nc"
  done
fi
echo "device-check: cuBLASLt ${GRAPHRT_LIBCUBLASLT:-(system)}, NCCL ${GRAPHRT_LIBNCCL:-(system)}"

# Is there a usable GPU? graphrt-gpu-bench says why not when there is none.
gpu=0
if [ -x "$rt/graphrt-gpu-bench" ]; then
  probe=$(timeout 60 "$rt/graphrt-gpu-bench" --probe 2>&1)
  if [ $? -eq 0 ]; then
    gpu=1
    row "GPU" ok "$probe; $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null | head -1)"
  else
    row "GPU" skipped "none: ${probe#graphrt-gpu-bench: error: }"
  fi
else
  row "GPU" skipped "no graphrt-gpu-bench in the pack"
fi

# 1. The compiled cases: bundle, inputs, reference outputs, tolerance.
# Lines of cuda/cases.txt: BUNDLE INPUTS REFDIR RTOL, paths relative to the
# file's folder, INPUTS NAME=FILE[,NAME=FILE...] or -, '#' comments.
run_cases() {
  local list="$1" dir name bundle inputs ref rtol args out log n=0 pass=0 cpu
  dir=$(dirname "$list")
  while read -r bundle inputs ref rtol _; do
    case "$bundle" in ''|'#'*) continue ;; esac
    if [ "$(elapsed)" -gt 300 ]; then
      row "case $(basename "$bundle")" skipped "out of time"
      continue
    fi
    name=$(basename "$bundle" .gjob)
    args=()
    if [ "$inputs" != "-" ]; then
      IFS=',' read -ra pairs <<< "$inputs"
      for p in "${pairs[@]}"; do args+=(--input "${p%%=*}=$dir/${p#*=}"); done
    fi
    out="$work/cases/$name"
    log="$work/cases/$name.log"
    mkdir -p "$out"
    cpu=1
    grep -q '"target": *"cuda"' "$dir/$bundle/manifest.json" 2>/dev/null && cpu=0
    if [ $cpu -eq 0 ] && [ $gpu -eq 0 ]; then
      row "case $name" skipped "cuda bundle, no GPU"
      continue
    fi
    n=$((n + 1))
    if ! timeout 120 "$rt/graph-run" --quiet --steps 10 --stats "$out/stats.json" \
         --output-dir "$out" "${args[@]}" "$dir/$bundle" > "$log" 2>&1; then
      fail_row "case $name" "graph-run failed: $(grep -m1 error "$log" || tail -1 "$log")"
      continue
    fi
    verdict=$("$py" "$tools" compare "$out" "$dir/$ref" "$rtol" 2>&1)
    if [ $? -eq 0 ]; then
      pass=$((pass + 1))
      row "case $name" ok "$verdict; median step $("$py" "$tools" stats "$out/stats.json") ms"
    else
      fail_row "case $name" "$verdict"
    fi
  done < "$list"
  row "cases ($(basename "$(dirname "$list")"))" "$pass/$n" "passed of those run"
}
found=0
for list in "$pack"/*/cases.txt; do
  [ -f "$list" ] || continue
  found=1
  run_cases "$list"
done
[ $found -eq 1 ] || row "cases" skipped "no $pack/*/cases.txt (no target's prepare script wrote one)"

# 2. GEMM 4096^3 through the runtime's gemm service against torch.matmul.
for dt in f32 bf16; do
  if [ $gpu -eq 0 ]; then
    row "gemm $dt 4096^3" skipped "no GPU"
    continue
  fi
  mkdir -p "$work/gemm-$dt"
  ours=$(timeout 90 "$rt/graphrt-gpu-bench" --dtype $dt --iters 20 --out "$work/gemm-$dt" 2>&1)
  if [ $? -ne 0 ]; then
    fail_row "gemm $dt 4096^3" "$ours"
    continue
  fi
  theirs=$(timeout 90 "$py" "$tools" gemm "$work/gemm-$dt" $dt 20 2>&1)
  st=$?
  ours_tf=$(echo "$ours" | sed -n 's/.* \([0-9.]*\) TFLOP\/s.*/\1/p')
  theirs_tf=$(echo "$theirs" | sed -n 's/.* \([0-9.]*\) TFLOP\/s.*/\1/p')
  ratio=$(awk -v a="$ours_tf" -v b="$theirs_tf" 'BEGIN { if (b > 0) printf "%.2f", a / b; else print "?" }')
  if [ $st -eq 0 ]; then
    row "gemm $dt 4096^3" ok "graphrt ${ours#*: }; ${theirs#ok }; ratio ${ratio}x"
  else
    fail_row "gemm $dt 4096^3" "${ours#*: }; $(echo "$theirs" | tail -1)"
  fi
done

# 3. Two cuda tasks exchange tensors and all-reduce on the GPU (one GPU:
# the all-reduce stages through host memory; two or more: NCCL).
ex="$rt/jobs"
if [ $gpu -eq 0 ]; then
  row "2-task exchange + all-reduce" skipped "no GPU"
elif [ ! -d "$ex/exchange.gjob" ]; then
  fail_row "2-task exchange + all-reduce" "no $ex/exchange.gjob"
else
  out="$work/exchange"
  mkdir -p "$out"
  if timeout 120 "$rt/graph-run" --steps 5 --stats "$out/stats.json" \
       --input "x0=$ex/exchange-inputs/x0.npy" --input "x1=$ex/exchange-inputs/x1.npy" \
       --output-dir "$out" "$ex/exchange.gjob" > "$work/exchange.log" 2>&1; then
    verdict=$("$py" "$tools" compare "$out" "$ex/exchange-ref" 0 2>&1)
    st=$?
    path=$(grep -o 'device collectives on group.*' "$work/exchange.log" | head -1)
    if [ $st -eq 0 ]; then
      row "2-task exchange + all-reduce" ok "$verdict; median step $("$py" "$tools" stats "$out/stats.json") ms; ${path:-path not logged}"
    else
      fail_row "2-task exchange + all-reduce" "$verdict"
    fi
  else
    fail_row "2-task exchange + all-reduce" "$(grep -m1 error "$work/exchange.log" || tail -1 "$work/exchange.log")"
  fi
fi

# 4. Each target's own check (scripts/device/<target>-check.sh|.py).
for chk in "$root"/scripts/device/*-check.sh "$root"/scripts/device/*-check.py; do
  [ -f "$chk" ] || continue
  name=$(basename "$chk")
  part=${name%-check.*}
  if [ ! -d "$pack/$part" ]; then
    row "$name" skipped "no $part pack (scripts/device/$part-prepare.sh did not run)"
    continue
  fi
  left=$((450 - $(elapsed)))
  if [ $left -lt 30 ]; then
    row "$name" skipped "out of time"
    continue
  fi
  case "$chk" in
    *.py) timeout $left "$py" "$chk" "$pack" > "$work/$name.log" 2>&1 ;;
    *) timeout $left bash "$chk" "$pack" > "$work/$name.log" 2>&1 ;;
  esac
  st=$?
  if [ $st -eq 0 ]; then
    row "$name" ok "$(tail -1 "$work/$name.log")"
  elif [ $st -eq 77 ]; then
    # 77: the check cannot run here (automake's convention for skipped).
    row "$name" skipped "$(tail -1 "$work/$name.log")"
  else
    fail_row "$name" "exit $st: $(tail -1 "$work/$name.log")"
  fi
  sed 's/^/  | /' "$work/$name.log"
done
[ -f "$root/scripts/device/stablehlo-check.py" ] ||
  row "stablehlo-check.py" skipped "not in this checkout"

echo
echo "device-check summary ($(elapsed) s)"
printf '%-34s %-8s %s\n' part result figures
for r in "${rows[@]}"; do echo "$r"; done
exit $((failures > 0))
