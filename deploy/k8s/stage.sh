#!/usr/bin/env bash
# stage.sh: gathers the docker build context of the graph-run image (deploy/k8s/Dockerfile).
#
#   deploy/k8s/stage.sh BUILD_DIR CONTEXT_DIR
#
# CONTEXT_DIR gets the Dockerfile, bin/graph-run, bin/graph-worker and
# lib/libomp.so.5: the OpenMP runtime graphc's task libraries link (LLVM's, not
# in Debian 12's archive). gRPC, protobuf and OpenSSL come from Debian's
# packages, which the Dockerfile installs. Then:
#
#   docker build -t graphc/graph-run:latest CONTEXT_DIR
#
# LIBOMP=PATH picks another libomp.so.5.
set -euo pipefail

if [[ $# -ne 2 ]]; then
  echo "usage: $0 BUILD_DIR CONTEXT_DIR" >&2
  exit 2
fi
build=$1
context=$2
here=$(cd "$(dirname "$0")" && pwd)

for tool in graph-run graph-worker; do
  if [[ ! -x $build/bin/$tool ]]; then
    echo "stage.sh: error: $build/bin/$tool does not exist; build the runtime first" \
         "(BUILD_DIR=$build bash scripts/build.sh)" >&2
    exit 1
  fi
done
libomp=${LIBOMP:-/usr/lib/llvm-22/lib/libomp.so.5}
if [[ ! -f $libomp ]]; then
  echo "stage.sh: error: $libomp does not exist; install libomp-22-dev or set LIBOMP" >&2
  exit 1
fi

rm -rf "$context"
mkdir -p "$context/bin" "$context/lib"
cp "$here/Dockerfile" "$context/"
cp "$build/bin/graph-run" "$build/bin/graph-worker" "$context/bin/"
cp -L "$libomp" "$context/lib/libomp.so.5"
echo "stage.sh: staged $context; build the image with:"
echo "  docker build -t graphc/graph-run:latest $context"
