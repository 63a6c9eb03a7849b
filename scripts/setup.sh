#!/usr/bin/env bash
# setup.sh: install every Debian package graphc needs (idempotent; as root).
# Skips apt entirely when everything is already installed.
set -euo pipefail

PACKAGES=(
  # Compiler toolchain and MLIR.
  clang-22 lld-22 llvm-22-dev llvm-22-tools libmlir-22-dev mlir-22-tools
  cmake ninja-build ccache clang-format-22
  # Serialisation and RPC for the importers and the runtime.
  libprotobuf-dev protobuf-compiler libgrpc++-dev protobuf-compiler-grpc
  libonnx-dev
  # SHA-256 of bundle files (libcrypto) in the runtime.
  libssl-dev
  # Tests and numeric references.
  libgtest-dev libgmock-dev libbenchmark-dev python3-numpy python3-onnx
  # PyTorch 1.13: models exported in tests (test/Distribute) and references.
  python3-torch
  # scikit-learn's handwritten digits (digits.csv.gz): the README's training run.
  python3-sklearn
  # Test certificates for the runtime's TLS tests (openssl CLI).
  openssl
  libopenblas-dev
  # OpenMP runtime for the parallel loops of CPU code (graphc-cpu-codegen).
  libomp-22-dev
  # Sanitizer and libFuzzer runtimes (ASan, UBSan, TSan, libclang_rt.fuzzer):
  # scripts/fuzz.sh and scripts/sanitize.sh link against them.
  libclang-rt-22-dev
)

missing=()
for p in "${PACKAGES[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done

if [ ${#missing[@]} -eq 0 ]; then
  echo "setup: all ${#PACKAGES[@]} packages present"
  exit 0
fi

if [ "$(id -u)" -ne 0 ]; then
  echo "setup: missing packages: ${missing[*]}" >&2
  echo "setup: run this script as root (or install them with apt-get)" >&2
  exit 1
fi

echo "setup: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq --no-install-recommends "${missing[@]}"
