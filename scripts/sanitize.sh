#!/usr/bin/env bash
# sanitize.sh: build graphc under ASan+UBSan and the runtime under TSan, and
# run the tests under them.
#
#   scripts/sanitize.sh [--asan | --tsan] [--subset ci|runtime|full]
#
# --asan: build-asan/ (shared with scripts/fuzz.sh), every target under
#   AddressSanitizer + UndefinedBehaviorSanitizer (leak checking on).
# --tsan: build-tsan/, the runtime only (graph-run, graph-worker, their
#   tests) under ThreadSanitizer: the compiler is single-threaded, the
#   runtime is where threads are (heartbeats, transfers, collectives).
# Both by default.
# --subset runtime (the default): the runtime's unit and service tests
#   (GoogleTest) and its end-to-end tests (lit test/runtime: graph-run with
#   graph-worker processes).
# --subset ci (.ci/run): the GoogleTest part and the end-to-end tests that
#   cover the threads (CI_LIT below: transfers over both data planes,
#   collectives, the data feed, a killed worker), to keep CI's addition short.
# --subset full (ASan only adds to it): every GoogleTest binary, and the lit
#   directories that compile and run whole models (Bundle, e2e, Import,
#   Pipelines, Train, runtime). Conformance is left out: it takes 8 minutes
#   unsanitized and ~3x that under ASan on two cores.
#
# Reports from every process (graph-worker children included, whose exit
# status a test may not look at) are written under DIR/sanitizer-reports;
# the run fails if any appear there.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
source "$root/scripts/sanitizer-build.sh"
modes=(asan tsan)
subset=runtime
while [ $# -gt 0 ]; do
  case "$1" in
    --asan) modes=(asan); shift ;;
    --tsan) modes=(tsan); shift ;;
    --subset) subset="$2"; shift 2 ;;
    -h|--help) sed -n '2,23p' "$0"; exit 0 ;;
    *) echo "sanitize.sh: unknown argument '$1' (see --help)" >&2; exit 2 ;;
  esac
done
case "$subset" in
  ci|runtime|full) ;;
  *) echo "sanitize.sh: --subset is ci, runtime or full, not '$subset'" >&2; exit 2 ;;
esac
CI_LIT=(pair.test data-plane.test collectives.test data.test kill-worker.test)

lit=/usr/lib/llvm-22/bin/lit
runtime_targets=(graph-run graph-worker graphrt-unit-tests graphrt-service-tests
                 graphrt-test-tasks)
status=0

# check_reports DIR: fails (and prints them) if sanitizer reports were written.
check_reports() {
  local dir="$1"
  if compgen -G "$dir/*" >/dev/null; then
    echo "sanitize.sh: sanitizer reports in $dir:" >&2
    for f in "$dir"/*; do
      echo "--- $f" >&2
      head -60 "$f" >&2
    done
    status=1
  fi
}

for mode in "${modes[@]}"; do
  build="$root/build-$mode"
  reports="$build/sanitizer-reports"
  if [ "$mode" = asan ]; then
    configure_sanitized "$build" address,undefined -DGRAPHC_ENABLE_FUZZERS=ON
    if [ "$subset" = full ]; then
      ASAN_OPTIONS=detect_leaks=0 cmake --build "$build" -j2
    else
      ASAN_OPTIONS=detect_leaks=0 cmake --build "$build" -j2 --target "${runtime_targets[@]}"
    fi
  else
    configure_sanitized "$build" thread
    cmake --build "$build" -j2 --target "${runtime_targets[@]}"
  fi

  rm -rf "$reports" && mkdir -p "$reports"
  (
    # log_path: one file per process that reports, named after its pid.
    export ASAN_OPTIONS="$ASAN_OPTIONS:log_path=$reports/asan"
    export UBSAN_OPTIONS="$UBSAN_OPTIONS:log_path=$reports/ubsan"
    # ignore_noninstrumented_modules: gRPC, absl and protobuf are Debian's
    # uninstrumented builds; their memcpy/malloc calls on memory they guard
    # with their own atomics would otherwise be reported (hundreds per
    # test). Accesses from graphc's code are all still checked.
    export TSAN_OPTIONS="halt_on_error=1:ignore_noninstrumented_modules=1:second_deadlock_stack=1:log_path=$reports/tsan:suppressions=$root/test/sanitizers/tsan.supp"
    echo "== $mode: GoogleTest ($subset)"
    if [ "$subset" = full ] && [ "$mode" = asan ]; then
      ctest --test-dir "$build" --output-on-failure -j2 -LE fuzz || exit 1
    else
      "$build/bin/graphrt-unit-tests" --gtest_brief=1 || exit 1
      "$build/bin/graphrt-service-tests" --gtest_brief=1 || exit 1
    fi
    echo "== $mode: lit end-to-end ($subset)"
    dirs=("$build/test/runtime")
    params=(-Druntime_only=1)
    if [ "$subset" = ci ]; then
      dirs=("${CI_LIT[@]/#/$build/test/runtime/}")
    fi
    if [ "$subset" = full ] && [ "$mode" = asan ]; then
      dirs=("$build/test/Bundle" "$build/test/e2e" "$build/test/Import"
            "$build/test/Pipelines" "$build/test/Train" "$build/test/runtime")
      params=()
    fi
    # restart.test kills a worker mid-run and wants graph-run to stop
    # within 30 s; under ASan on a loaded two-core machine it does not (no
    # sanitizer report, only the deadline), so it runs unsanitized only.
    "$lit" -sv "${params[@]}" --filter-out 'restart\.test' "${dirs[@]}" || exit 1
  ) || status=1
  check_reports "$reports"
done
exit $status
