#!/usr/bin/env bash
# build.sh: configure (once) and build graphc with clang-22, lld and ccache.
# BUILD_DIR (default: build) and CMAKE_BUILD_TYPE (default: Release) may be set.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${BUILD_DIR:-$root/build}"
type="${CMAKE_BUILD_TYPE:-Release}"

launcher=()
if command -v ccache >/dev/null 2>&1; then
  launcher=(-DCMAKE_C_COMPILER_LAUNCHER=ccache -DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
  # Share cache hits between build folders and checkouts.
  export CCACHE_BASEDIR="$root"
  export CCACHE_NOHASHDIR=1
fi

if [ ! -f "$build/build.ninja" ]; then
  cmake -G Ninja -S "$root" -B "$build" \
    -DCMAKE_BUILD_TYPE="$type" \
    -DCMAKE_C_COMPILER=clang-22 -DCMAKE_CXX_COMPILER=clang++-22 \
    -DLLVM_USE_LINKER=lld-22 \
    -DMLIR_DIR=/usr/lib/llvm-22/lib/cmake/mlir \
    -DLLVM_EXTERNAL_LIT=/usr/lib/llvm-22/bin/lit \
    "${launcher[@]}" "$@"
fi
cmake --build "$build"
