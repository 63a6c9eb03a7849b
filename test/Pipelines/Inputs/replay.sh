#!/bin/bash
# replay.sh MODEL DIR [graphc flags...]: graphc --emit=STAGE against graph-opt
# running that stage's named pipeline on graphc's previous stage, for every
# stage from import to llvm. $REPLAY_DIST, when set, is the graphc-dist
# pipeline with the options that match the graphc flags
# (graphc-dist{strategy=replicas replicas=2}); $REPLAY_GRAPH likewise for the
# graph stage (graphc-graph,graphc-train{...} for --train), $REPLAY_CODEGEN
# for the llvm stage (graphc-task-codegen{direct-conv=...}: graphc's
# --direct-conv default is not the pipeline's). Prints "STAGE: same" per stage; a difference is
# printed as a unified diff and fails. Locations are printed: variable names
# come from them (graph-hoist-weights), so the replay must see them too.
set -euo pipefail
model=$1 dir=$2
shift 2
mkdir -p "$dir"
graphc "$model" "$@" --mlir-print-debuginfo --emit=import -o "$dir/import.mlir"
prev=import
for pair in "graph:${REPLAY_GRAPH:-graphc-graph}" "dist:${REPLAY_DIST:-graphc-dist}" \
            linalg:graphc-task-lowering "llvm:${REPLAY_CODEGEN:-graphc-task-codegen}"; do
  stage=${pair%%:*} pipeline=${pair#*:}
  graphc "$model" "$@" --mlir-print-debuginfo --emit="$stage" -o "$dir/$stage.mlir"
  graph-opt "$dir/$prev.mlir" --mlir-print-debuginfo --pass-pipeline="builtin.module($pipeline)" \
    -o "$dir/$stage.replay.mlir"
  diff -u "$dir/$stage.mlir" "$dir/$stage.replay.mlir"
  echo "$stage: same"
  prev=$stage
done
