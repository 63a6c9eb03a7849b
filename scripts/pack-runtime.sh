#!/usr/bin/env bash
# pack-runtime.sh: copy graph-run, graph-worker and the shared libraries they need into one folder that runs on another Linux.
#
#   scripts/pack-runtime.sh DIR        (BUILD_DIR=build by default)
#
# DIR gets graph-run and graph-worker, and DIR/lib their ldd closure. The
# binaries are linked with an $ORIGIN/lib DT_RPATH (runtime/CMakeLists.txt),
# which the loader also applies to the libraries' own dependencies, so no
# library needs patching and LD_LIBRARY_PATH is not needed.
#
# Left out: the C library and its loader (libc, libm, libdl, libpthread,
# librt, libutil, libresolv, ld-linux). They must match each other and the
# kernel interface of the machine, and glibc runs programs built against an
# older version of it, so the pack needs the GLIBC version it prints (or
# newer) on the target. The compiler's runtime (libstdc++, libgcc_s,
# libatomic) IS copied: a target's may be older than the one the runtime was
# built with, and newer ones of these run on any glibc the pack accepts.
# The CUDA libraries are not in the closure (the runtime dlopens them) and
# come from the GPU node.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${BUILD_DIR:-$root/build}"
if [ $# -ne 1 ]; then
  echo "usage: pack-runtime.sh DIR" >&2
  exit 2
fi
out="$1"

# graphrt-gpu-bench (device checks) travels too when it is built.
tools=(graph-run graph-worker)
[ -x "$build/bin/graphrt-gpu-bench" ] && tools+=(graphrt-gpu-bench)

for tool in "${tools[@]}"; do
  if [ ! -x "$build/bin/$tool" ]; then
    echo "pack-runtime: error: $build/bin/$tool is missing; build it first" \
         "(scripts/build.sh, or BUILD_DIR=...)" >&2
    exit 1
  fi
  # Not `readelf | grep -q`: under pipefail, grep quitting at the first match
  # can fail the pipeline with readelf's SIGPIPE.
  if ! grep -q 'RPATH.*\$ORIGIN/lib' <(readelf -d "$build/bin/$tool"); then
    echo "pack-runtime: error: $build/bin/$tool has no \$ORIGIN/lib RPATH;" \
         "rebuild it with this checkout's runtime/CMakeLists.txt" >&2
    exit 1
  fi
done

# The C library's own sonames: the target's are used.
is_libc() {
  case "$1" in
    linux-vdso.so.*|ld-linux*|libc.so.*|libm.so.*|libdl.so.*|libpthread.so.*|\
    librt.so.*|libutil.so.*|libresolv.so.*|libanl.so.*|libnsl.so.*) return 0 ;;
  esac
  return 1
}

rm -rf "$out"
mkdir -p "$out/lib"
for tool in "${tools[@]}"; do
  cp "$build/bin/$tool" "$out/$tool"
  # ldd lines: "soname => /path (addr)"; LD_LIBRARY_PATH is cleared so the
  # closure is what the system would resolve.
  env -u LD_LIBRARY_PATH ldd "$build/bin/$tool" | while read -r name arrow path _; do
    [ "$arrow" = "=>" ] || continue
    is_libc "$name" && continue
    if [ ! -f "$path" ]; then
      echo "pack-runtime: error: $tool needs $name, which ldd does not find" >&2
      exit 1
    fi
    [ -f "$out/lib/$name" ] || cp -L "$path" "$out/lib/$name"
  done
done
for tool in "${tools[@]}"; do strip --strip-unneeded "$out/$tool"; done
strip --strip-unneeded "$out"/lib/*.so* 2>/dev/null || true

# Every library the packed binaries load now comes from the pack, except the
# C library's.
bad=$(for tool in "${tools[@]}"; do
        env -u LD_LIBRARY_PATH ldd "$out/$tool"
      done | awk -v dir="$(cd "$out" && pwd)" '
        /=>/ { if ($3 == "not") { print $1 " not found"; next }
               if (index($3, dir "/") != 1) print $1 " => " $3 }' |
      while read -r name rest; do is_libc "$name" || echo "$name $rest"; done)
if [ -n "$bad" ]; then
  echo "pack-runtime: error: libraries resolved outside $out:" >&2
  echo "$bad" >&2
  exit 1
fi

glibc=$(for f in "${tools[@]/#/$out/}" "$out"/lib/*; do
          objdump -T "$f" 2>/dev/null | grep -o 'GLIBC_[0-9][0-9.]*' || true
        done | sort -uV | tail -1)
{
  echo "graphc runtime pack"
  echo "commit: $(git -C "$root" rev-parse --short HEAD 2>/dev/null || echo unknown)"
  echo "needs: Linux x86-64 with ${glibc:-GLIBC} or newer"
  echo "libraries: $(ls "$out/lib" | tr '\n' ' ')"
} > "$out/PACK-INFO"
size=$(du -sk "$out" | cut -f1)
echo "pack-runtime: $out: graph-run, graph-worker and $(ls "$out/lib" | wc -l)" \
     "libraries, $((size / 1024)) MiB; needs ${glibc:-GLIBC} or newer"
