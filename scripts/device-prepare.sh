#!/usr/bin/env bash
# device-prepare.sh: here, write build/device-pack/, the one folder scripts/device-check.sh runs from on the GPU machine.
#
#   bash scripts/device-prepare.sh          (BUILD_DIR=build by default)
#
# build/device-pack/runtime: the runtime pack (scripts/pack-runtime.sh) with
# graphrt-gpu-bench, and jobs/ (the 2-task cuda exchange job). Then each
# target's scripts/device/<target>-prepare.sh, called with the pack folder
# subfolder as $1 (and $BUILD_DIR, $DEVICE_PACK set), writes it. The
# folder travels with the run tool's `carry`, 64 MiB at most: this fails
# above 60 MiB. Everything does not fit at once (ResNet-18's fp32 weights
# alone are 45 MB): pick parts per device run with DEVICE_PARTS, e.g.
#   DEVICE_PARTS=stablehlo bash scripts/device-prepare.sh
#   DEVICE_PARTS=cuda CUDA_PREPARE_ARGS=--no-resnet bash scripts/device-prepare.sh
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
export BUILD_DIR="${BUILD_DIR:-$root/build}"
export DEVICE_PACK="$BUILD_DIR/device-pack"
limit_mib=${DEVICE_PACK_LIMIT_MIB:-60}

cmake --build "$BUILD_DIR" --target graph-run graph-worker graphrt-gpu-bench \
  graphrt-test-tasks
rm -rf "$DEVICE_PACK"
mkdir -p "$DEVICE_PACK"
# The runtime (and its own checks) travels unless the parts chosen run
# without it: StableHLO modules run under JAX.
if [ -z "${DEVICE_PARTS:-}" ] || [[ " $DEVICE_PARTS " == *" cuda "* ]] ||
  [[ " $DEVICE_PARTS " == *" runtime "* ]]; then
  bash "$root/scripts/pack-runtime.sh" "$DEVICE_PACK/runtime"
  /usr/bin/python3 "$root/scripts/device/runtime_tools.py" exchange-bundle \
    "$DEVICE_PACK/runtime/jobs" "$BUILD_DIR/lib"
else
  echo "device-prepare: no runtime pack (DEVICE_PARTS=$DEVICE_PARTS)"
fi

# DEVICE_PARTS picks the targets (default: all); <PART>_PREPARE_ARGS are
# passed to that part's script (STABLEHLO_PREPARE_ARGS=--no-resnet).
for prep in "$root"/scripts/device/*-prepare.sh; do
  [ -f "$prep" ] || continue
  part=$(basename "$prep" -prepare.sh)
  if [ -n "${DEVICE_PARTS:-}" ] && [[ " $DEVICE_PARTS " != *" $part "* ]]; then
    echo "device-prepare: $part left out (DEVICE_PARTS=$DEVICE_PARTS)"
    continue
  fi
  args_var="$(echo "$part" | tr 'a-z-' 'A-Z_')_PREPARE_ARGS"
  read -ra part_args <<<"${!args_var:-}"
  echo "device-prepare: $(basename "$prep") ${part_args[*]}"
  bash "$prep" "$DEVICE_PACK/$part" "${part_args[@]}"
done
ls "$root"/scripts/device/*-prepare.sh > /dev/null 2>&1 ||
  echo "device-prepare: no scripts/device/*-prepare.sh: the pack holds the runtime's checks only"

size_kib=$(du -sk "$DEVICE_PACK" | cut -f1)
echo "device-prepare: $DEVICE_PACK is $((size_kib / 1024)) MiB"
du -sk "$DEVICE_PACK"/* | sort -rn | awk '{ printf "  %6.1f MiB  %s\n", $1 / 1024, $2 }'
if [ "$size_kib" -gt $((limit_mib * 1024)) ]; then
  echo "device-prepare: error: $DEVICE_PACK is over ${limit_mib} MiB; the run" \
       "tool carries 64 MiB at most" >&2
  exit 1
fi
echo "device-prepare: carry build/device-pack and run: bash scripts/device-check.sh"
