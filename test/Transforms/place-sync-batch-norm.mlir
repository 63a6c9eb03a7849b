// RUN: graph-opt %s -split-input-file --dist-place="strategy=replicas replicas=2" | FileCheck %s

// Synchronised batch norm under the replicas strategy: graph.batch_norm_train
// becomes its statistics (the mean, then the mean of the squared deviations
// from it, both marked graph.batch_statistic) and an inference
// graph.batch_norm; each statistic is all-reduced with mean right where each
// replica computes its share, so every replica normalises with the global
// batch's statistics and returns them.

// CHECK-LABEL: func.func @batch_stats
// CHECK: %[[X:.*]] = dist.replica_split %arg0 axis 0 {{.*}} : tensor<8x3x4x4xf32> -> tensor<4x3x4x4xf32>
// CHECK: %[[M1:.*]] = graph.reduce %[[X]] {axes = array<i64: 0, 2, 3>, {{.*}}graph.batch_statistic, kind = #graph<reduce_kind mean>} : (tensor<4x3x4x4xf32>) -> tensor<3xf32>
// CHECK-NEXT: %[[M:.*]] = dist.replica_all_reduce mean %[[M1]]
// CHECK-NEXT: %[[MB:.*]] = graph.reshape %[[M]] {{.*}}shape = array<i64: 1, 3, 1, 1>
// CHECK-NEXT: %[[D:.*]] = graph.sub %[[X]], %[[MB]]
// CHECK-NEXT: %[[D2:.*]] = graph.mul %[[D]], %[[D]]
// CHECK-NEXT: %[[V1:.*]] = graph.reduce %[[D2]] {axes = array<i64: 0, 2, 3>, {{.*}}graph.batch_statistic, kind = #graph<reduce_kind mean>}
// CHECK-NEXT: %[[V:.*]] = dist.replica_all_reduce mean %[[V1]]
// CHECK-NEXT: %[[Y:.*]] = graph.batch_norm %[[X]], %arg1, %arg2, %[[M]], %[[V]] {{.*}}epsilon = 1.000000e-03 : f32
// CHECK-NEXT: %[[YY:.*]] = dist.replica_concat %[[Y]] axis 0
// CHECK-NEXT: return %[[YY]], %[[M]], %[[V]]
func.func @batch_stats(%x: tensor<8x3x4x4xf32>, %s: tensor<3xf32>, %b: tensor<3xf32>) -> (tensor<8x3x4x4xf32>, tensor<3xf32>, tensor<3xf32>) {
  %y, %bm, %bv = graph.batch_norm_train %x, %s, %b {epsilon = 1.0e-03 : f32} : (tensor<8x3x4x4xf32>, tensor<3xf32>, tensor<3xf32>) -> (tensor<8x3x4x4xf32>, tensor<3xf32>, tensor<3xf32>)
  return %y, %bm, %bv : tensor<8x3x4x4xf32>, tensor<3xf32>, tensor<3xf32>
}

// -----

// A sum over the batch that graph-autodiff marked as a batch statistic (the
// input gradient of batch_norm_train) is all-reduced before it meets the
// batch again; an unmarked one reaching a batched op is still refused
// (place-invalid.mlir).

// CHECK-LABEL: func.func @gradient_sum
// CHECK: %[[S1:.*]] = graph.reduce %{{.*}} {{.*}}graph.batch_statistic, keepdims, kind = #graph<reduce_kind sum>} : (tensor<4x3x4x4xf32>) -> tensor<1x3x1x1xf32>
// CHECK-NEXT: %[[S:.*]] = dist.replica_all_reduce sum %[[S1]]
// CHECK-NEXT: graph.sub %{{.*}}, %[[S]]
func.func @gradient_sum(%g: tensor<8x3x4x4xf32>) -> tensor<8x3x4x4xf32> {
  %s = graph.reduce %g {axes = array<i64: 0, 2, 3>, graph.batch_statistic, keepdims, kind = #graph<reduce_kind sum>} : (tensor<8x3x4x4xf32>) -> tensor<1x3x1x1xf32>
  %d = graph.sub %g, %s : (tensor<8x3x4x4xf32>, tensor<1x3x1x1xf32>) -> tensor<8x3x4x4xf32>
  return %d : tensor<8x3x4x4xf32>
}
