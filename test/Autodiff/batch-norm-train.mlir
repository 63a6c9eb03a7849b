// RUN: graph-opt %s --graph-batch-norm-train --split-input-file | FileCheck %s
// RUN: not graph-opt %s --graph-batch-norm-train=momentum=2 --split-input-file 2>&1 | FileCheck %s --check-prefix=MOMENTUM
// MOMENTUM: graph-batch-norm-train: momentum=2.000000e+00 must lie in [0, 1]

// Batch statistics replace the running ones, which are updated as PyTorch
// updates them: 0.9 * running + 0.1 * batch, the variance made unbiased
// (n = 2 * 2 * 2 = 8 elements per channel: 0.1 * 8 / 7).
graph.variable @scale trainable : tensor<3xf32>
graph.variable @bias trainable : tensor<3xf32>
graph.variable @mean : tensor<3xf32>
graph.variable @var : tensor<3xf32>

// CHECK-DAG: graph.variable @mean : tensor<3xf32> {graph.trainable = false}
// CHECK-DAG: graph.variable @var : tensor<3xf32> {graph.trainable = false}
// CHECK-LABEL: func.func @main
// CHECK: %[[Y:.*]], %[[BM:.*]], %[[BV:.*]] = graph.batch_norm_train %{{.*}}, %{{.*}}, %{{.*}} {epsilon = 1.000000e-03 : f32}
// CHECK-NOT: graph.batch_norm %
// CHECK: %[[M:.*]] = graph.read_variable @mean
// CHECK: %[[K:.*]] = graph.constant dense<0.899999976>
// CHECK: %[[MS:.*]] = graph.mul %[[M]], %[[K]]
// CHECK: %[[B:.*]] = graph.constant dense<1.000000e-01>
// CHECK: %[[BS:.*]] = graph.mul %[[BM]], %[[B]]
// CHECK: %[[NM:.*]] = graph.add %[[MS]], %[[BS]]
// CHECK: graph.assign_variable @mean, %[[NM]]
// CHECK: graph.read_variable @var
// CHECK: graph.constant dense<0.114285715>
// CHECK: graph.mul %[[BV]]
// CHECK: graph.assign_variable @var
// CHECK: return %[[Y]]
func.func @main(%x: tensor<2x3x2x2xf32>) -> tensor<2x3x2x2xf32> {
  %s = graph.read_variable @scale : tensor<3xf32>
  %b = graph.read_variable @bias : tensor<3xf32>
  %m = graph.read_variable @mean : tensor<3xf32>
  %v = graph.read_variable @var : tensor<3xf32>
  %y = graph.batch_norm %x, %s, %b, %m, %v {epsilon = 1.0e-3 : f32} : (tensor<2x3x2x2xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>) -> tensor<2x3x2x2xf32>
  return %y : tensor<2x3x2x2xf32>
}

// -----

// An exporter merged a fresh BatchNorm's zero mean with its zero bias: the
// running mean gets its own copy, and the bias stays a trained weight.
graph.variable @scale trainable : tensor<2xf32> = dense<1.0>
graph.variable @zeros trainable : tensor<2xf32> = dense<0.0>

// CHECK-DAG: graph.variable @zeros trainable : tensor<2xf32> = dense<0.000000e+00>
// CHECK-DAG: graph.variable @"zeros/running_mean" : tensor<2xf32> = dense<0.000000e+00> {graph.trainable = false}
// CHECK-DAG: graph.variable @"scale/running_var" : tensor<2xf32> = dense<1.000000e+00> {graph.trainable = false}
// CHECK-LABEL: func.func @main
// CHECK: graph.batch_norm_train
// CHECK: graph.assign_variable @"zeros/running_mean"
// CHECK: graph.assign_variable @"scale/running_var"
// CHECK-NOT: graph.assign_variable @zeros
func.func @main(%x: tensor<4x2xf32>) -> tensor<4x2xf32> {
  %s = graph.read_variable @scale : tensor<2xf32>
  %z = graph.read_variable @zeros : tensor<2xf32>
  %y = graph.batch_norm %x, %s, %z, %z, %s : (tensor<4x2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>) -> tensor<4x2xf32>
  return %y : tensor<4x2xf32>
}
