#!/usr/bin/env bash
# fuzz.sh: build and run graphc's libFuzzer targets (ASan + UBSan).
#
#   scripts/fuzz.sh [--build DIR] [--seconds N | --runs N] [--smoke] [TARGET...]
#
# TARGET is any of the names printed by --list (all by default). Without
# --build, configures build-asan/ (every target under ASan+UBSan with
# coverage; scripts/sanitize.sh shares it) and builds the fuzz targets.
# Seeds are made at run time in DIR/fuzz-seeds/TARGET: model files from
# ../shared/testdata (never copied into the repo) and runtime inputs written
# by scripts/fuzz-seeds.py. New inputs go to DIR/fuzz-work/TARGET, crashes to
# DIR/fuzz-crashes/TARGET. Every input runs under -timeout=10 (seconds) and
# -rss_limit_mb=2048. --smoke (CI) uses a small seed subset so a run of a few
# seconds gets past the seeds; a campaign is e.g. `--seconds 600 TARGET`.
# Exits non-zero when any target finds a crash, leak, timeout or OOM.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
source "$root/scripts/sanitizer-build.sh"
shared="$root/../shared/testdata"
all=(onnx graphdef-binary graphdef-text metagraph sstable onnx-import
     graphdef-import manifest npy csv safetensors tensorproto worker-rpc
     data-plane)
build=""
limit=(-max_total_time=10)
smoke=0
targets=()
while [ $# -gt 0 ]; do
  case "$1" in
    --build) build="$2"; shift 2 ;;
    --seconds) limit=(-max_total_time="$2"); shift 2 ;;
    --runs) limit=(-runs="$2"); shift 2 ;;
    --smoke) smoke=1; shift ;;
    --list) printf '%s\n' "${all[@]}"; exit 0 ;;
    -h|--help) sed -n '2,16p' "$0"; exit 0 ;;
    -*) echo "fuzz.sh: unknown option '$1' (see --help)" >&2; exit 2 ;;
    *) targets+=("$1"); shift ;;
  esac
done
[ ${#targets[@]} -gt 0 ] || targets=("${all[@]}")
for t in "${targets[@]}"; do
  case " ${all[*]} " in
    *" $t "*) ;;
    *) echo "fuzz.sh: unknown target '$t'; targets: ${all[*]}" >&2; exit 2 ;;
  esac
done

if [ -z "$build" ]; then
  build="$root/build-asan"
  configure_sanitized "$build" address,undefined -DGRAPHC_ENABLE_FUZZERS=ON
  ASAN_OPTIONS=detect_leaks=0 cmake --build "$build" -j2 --target \
    $(printf 'graphc-fuzz-%s ' "${targets[@]}")
fi

# seed TARGET DIR: fill DIR with the target's seeds (once per build folder).
seed() {
  local t="$1" dir="$2"
  [ -d "$dir" ] && return 0
  mkdir -p "$dir.tmp"
  local files=()
  if [ -d "$shared" ]; then
    shopt -s nullglob
    case "$t" in
      onnx|onnx-import)
        files=("$shared"/onnx-models/*.onnx "$shared"/onnx-models/*/*.onnx)
        # The backend suite has ~1700 one-node models: all of them for a
        # campaign, every 16th for a smoke run.
        local node=("$shared"/onnx-backend/node/*/model.onnx) i
        for ((i = 0; i < ${#node[@]}; i += smoke ? 16 : 1)); do
          files+=("${node[$i]}")
        done ;;
      graphdef-binary|graphdef-import) files=("$shared"/tf-graphs/*.pb) ;;
      graphdef-text) files=("$shared"/tf-graphs/*.pbtxt) ;;
      metagraph) files=("$shared"/tf-graphs/*.meta) ;;
      sstable) files=("$shared"/tf-graphs/*/variables/variables.index) ;;
      tensorproto)
        local pbs=("$shared"/onnx-backend/node/*/test_data_set_0/*.pb) i
        for ((i = 0; i < ${#pbs[@]}; i += smoke ? 64 : 4)); do
          files+=("${pbs[$i]}")
        done ;;
    esac
    shopt -u nullglob
  fi
  local i=0 f
  for f in "${files[@]}"; do
    cp "$f" "$dir.tmp/seed-$((i++))"
  done
  # The runtime's formats have no files in the shared test data: written
  # here (numpy for .npy), plus structured seeds for the RPC and frame fuzzers.
  /usr/bin/python3 "$root/scripts/fuzz-seeds.py" "$t" "$dir.tmp"
  mv "$dir.tmp" "$dir"
}

status=0
for t in "${targets[@]}"; do
  bin="$build/bin/graphc-fuzz-$t"
  [ -x "$bin" ] || { echo "fuzz.sh: $bin is not built" >&2; exit 1; }
  seeds="$build/fuzz-seeds/$t"
  [ $smoke -eq 1 ] && seeds="$build/fuzz-seeds/smoke-$t"
  seed "$t" "$seeds"
  mkdir -p "$build/fuzz-work/$t" "$build/fuzz-crashes/$t"
  work=("$build/fuzz-work/$t")
  # A smoke run starts from the seeds alone: a corpus grown by a campaign
  # would take longer than the smoke's seconds just to load.
  if [ $smoke -eq 1 ]; then
    work=("$(mktemp -d "$build/fuzz-work/smoke-$t.XXXX")")
  fi
  if [ "$t" = worker-rpc ]; then
    # A real bundle of the runtime's test tasks for LoadTask to load.
    fixture="$build/fuzz-fixture"
    [ -d "$fixture/feed.gjob" ] || { mkdir -p "$fixture" &&
      /usr/bin/python3 "$root/scripts/fuzz-seeds.py" fixture-bundle \
        "$fixture" "$build/lib"; }
    export GRAPHRT_FUZZ_BUNDLE="$fixture/feed.gjob"
  fi
  # Every past finding (test/fuzz/regressions/TARGET) is replayed first.
  regress=("$root/test/fuzz/regressions/$t"/*)
  if [ -e "${regress[0]}" ]; then
    echo "== replay $t: ${#regress[@]} regression input(s)"
    if ! "$bin" -runs=1 -timeout=10 -rss_limit_mb=2048 "${regress[@]}" \
        >"$build/fuzz-$t-regressions.log" 2>&1; then
      echo "fuzz.sh: a regression input of $t fails again; see" \
        "$build/fuzz-$t-regressions.log" >&2
      tail -40 "$build/fuzz-$t-regressions.log" >&2
      status=1
    fi
  fi
  echo "== fuzz $t (${limit[*]})"
  log="$build/fuzz-$t.log"
  if ! "$bin" "${limit[@]}" -timeout=10 -rss_limit_mb=2048 -max_len=262144 \
      -print_final_stats=1 -artifact_prefix="$build/fuzz-crashes/$t/" \
      "${work[@]}" "$seeds" >"$log" 2>&1; then
    echo "fuzz.sh: $t found a crash; see $log and $build/fuzz-crashes/$t" >&2
    grep -E -A30 '^==[0-9]+==ERROR|runtime error|^==[0-9]+== ERROR|deadly signal|timeout after' "$log" | head -60 >&2 || tail -40 "$log" >&2
    status=1
  fi
  [ $smoke -eq 1 ] && rm -rf "${work[0]}"
  grep -E '^stat::(number_of_executed_units|peak_rss_mb)' "$log" || true
done
exit $status
