#!/usr/bin/env bash
# fuzz.sh: build and run the model-reader fuzz targets (libFuzzer, ASan, UBSan).
#
#   scripts/fuzz.sh [--build DIR] [--seconds N | --runs N] [TARGET...]
#
# TARGET is any of: onnx graphdef-binary graphdef-text metagraph sstable (all
# by default). Without --build, configures build-fuzz/ with clang-22 and
# -DGRAPHC_ENABLE_FUZZERS=ON and builds the targets. Seeds come from
# ../shared/testdata (copied into the build folder, never into the repo);
# new inputs go to DIR/fuzz-work/TARGET, crashes to DIR/fuzz-crashes/TARGET.
# CI runs each target for a few seconds (ctest in the fuzz build); a campaign
# is e.g. `scripts/fuzz.sh --runs 100000` or `--seconds 600`.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
shared="$root/../shared/testdata"
build=""
limit=(-max_total_time=10)
targets=()
while [ $# -gt 0 ]; do
  case "$1" in
    --build) build="$2"; shift 2 ;;
    --seconds) limit=(-max_total_time="$2"); shift 2 ;;
    --runs) limit=(-runs="$2"); shift 2 ;;
    -h|--help) sed -n '2,13p' "$0"; exit 0 ;;
    *) targets+=("$1"); shift ;;
  esac
done
[ ${#targets[@]} -gt 0 ] || targets=(onnx graphdef-binary graphdef-text metagraph sstable)

if [ -z "$build" ]; then
  build="$root/build-fuzz"
  if [ ! -f "$build/build.ninja" ]; then
    cmake -G Ninja -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=RelWithDebInfo \
      -DCMAKE_C_COMPILER=clang-22 -DCMAKE_CXX_COMPILER=clang++-22 \
      -DLLVM_USE_LINKER=lld-22 -DGRAPHC_ENABLE_FUZZERS=ON \
      -DGRAPHC_ENABLE_RUNTIME=OFF \
      -DMLIR_DIR=/usr/lib/llvm-22/lib/cmake/mlir \
      -DLLVM_EXTERNAL_LIT=/usr/lib/llvm-22/bin/lit >/dev/null
  fi
  cmake --build "$build" -j2 --target $(printf 'graphc-fuzz-%s ' "${targets[@]}")
fi

# seed TARGET: fill DIR/fuzz-seeds/TARGET from the shared test data once.
seed() {
  local dir="$build/fuzz-seeds/$1"
  [ -d "$dir" ] && return 0
  mkdir -p "$dir"
  [ -d "$shared" ] || return 0
  local files=()
  case "$1" in
    onnx) files=("$shared"/onnx-models/*.onnx "$shared"/onnx-models/*/*.onnx
                 "$shared"/onnx-backend/node/*/model.onnx) ;;
    graphdef-binary) files=("$shared"/tf-graphs/*.pb) ;;
    graphdef-text) files=("$shared"/tf-graphs/*.pbtxt) ;;
    metagraph) files=("$shared"/tf-graphs/*.meta) ;;
    sstable) files=("$shared"/tf-graphs/*/variables/variables.index) ;;
  esac
  local i=0
  for f in "${files[@]}"; do
    [ -f "$f" ] && cp "$f" "$dir/seed-$((i++))"
  done
}

status=0
for t in "${targets[@]}"; do
  bin="$build/bin/graphc-fuzz-$t"
  [ -x "$bin" ] || { echo "fuzz.sh: $bin is not built" >&2; exit 1; }
  seed "$t"
  mkdir -p "$build/fuzz-work/$t" "$build/fuzz-crashes/$t"
  echo "== fuzz $t (${limit[*]})"
  if ! "$bin" "${limit[@]}" -timeout=10 -rss_limit_mb=2048 -max_len=262144 \
      -print_final_stats=1 -artifact_prefix="$build/fuzz-crashes/$t/" \
      "$build/fuzz-work/$t" "$build/fuzz-seeds/$t" 2>"$build/fuzz-$t.log"; then
    echo "fuzz.sh: $t found a crash; see $build/fuzz-$t.log and $build/fuzz-crashes/$t" >&2
    tail -40 "$build/fuzz-$t.log" >&2
    status=1
  fi
  grep -E '^stat::number_of_executed_units' "$build/fuzz-$t.log" || true
done
exit $status
