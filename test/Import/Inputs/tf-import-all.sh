#!/usr/bin/env bash
# tf-import-all.sh DIR: imports every graph of the TensorFlow test corpus
# (DIR = shared/testdata/tf-graphs) with the options it needs, and checks
# each result with graph-opt --verify-each. Prints one line per graph and the
# counts; exits 1 when a graph crashes or an imported module does not verify.
set -u
dir="$1"
tmp="${TMPDIR:-/tmp}/graphc-tf-all-$$"
mkdir -p "$tmp"
total=0 ok=0 refused=0 broken=0
# MODEL|OPTIONS (the options a graph needs: shapes of unshaped placeholders,
# the train op of a training graph).
while IFS='|' read -r model opts; do
  [ -z "$model" ] && continue
  total=$((total + 1))
  # shellcheck disable=SC2086
  timeout 60 graphc "$dir/$model" $opts --emit=graph -o "$tmp/out.mlir" 2>"$tmp/err"
  status=$?
  if [ $status -eq 0 ] && graph-opt --verify-each "$tmp/out.mlir" -o /dev/null 2>>"$tmp/err"; then
    ok=$((ok + 1))
    echo "VERIFIED $model"
  elif [ $status -eq 1 ]; then
    refused=$((refused + 1))
    echo "REFUSED $model: $(grep -m1 error: "$tmp/err")"
  else
    broken=$((broken + 1))
    echo "BROKEN ($status) $model: $(head -3 "$tmp/err")"
  fi
done <<'LIST'
rust_addition.pb|
rust_regression_checkpoint_train.pb|--input-shape=x:100 --input-shape=y:100 --train-op=train
rust_regression_train.pb|--input-shape=x:100 --input-shape=y:100 --train-op=train
tf2onnx_ae0_frozen.pb|
tf2onnx_fc-layers_frozen.pb|
tf2onnx_gru_frozen.pb|--input-shape=X:4x784 --input-shape=keep_prob:
tf2onnx_lstm_frozen.pb|--input-shape=X:4x784 --input-shape=keep_prob:
tract_hey_snips_v3_kws.pb|--input-shape=inputs:80x40
tract_plus3.pb|
tensorboard_demo_mlp_train_xla_placed.pbtxt|--train-op=GradientDescent
tensorboard_functionaltest_linear_ftrl_train.pbtxt|--inputs=linear/linear/AddN:4x1 --outputs=training_loss --train-op=Ftrl/update_linear/bias_weight/part_0/ApplyFtrl
tensorboard_mnist_with_summaries_adam_train.pbtxt|--train-op=train/Adam --input-shape=input/x-input:100x784 --input-shape=input/y-input:100x10 --input-shape=dropout/Placeholder:
tensorflow_grappler_nested_loop.pbtxt|
tensorflow_grappler_while_loop.pbtxt|
serving_session_bundle_half_plus_two_export.meta|
tensorboard_functionaltest_linear_ftrl_train.meta|--inputs=linear/linear/AddN:4x1 --outputs=training_loss --train-op=Ftrl/update_linear/bias_weight/part_0/ApplyFtrl
rust_regression_savedmodel_tf2|--inputs=train_x:100,train_y:100 --outputs=StatefulPartitionedCall_1
serving_saved_model_counter|
serving_saved_model_half_plus_two_cpu|
serving_saved_model_half_plus_two_gpu|
serving_saved_model_half_plus_two_mkl|
serving_saved_model_half_plus_two_tf2_cpu|
tf2onnx_regression_savedmodel_train|
LIST
rm -rf "$tmp"
echo "tf-graphs: $total graphs, $ok imported and verified, $refused refused, $broken broken"
[ $broken -eq 0 ]
