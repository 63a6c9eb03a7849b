// RUN: graph-opt %s --pass-pipeline="builtin.module(graphc-train{labels=y},dist-place{strategy=replicas replicas=2})" | FileCheck %s

// Synchronised batch norm in a training step: with 2 replicas, each
// replica's share of the BatchNorm statistics (the batch mean and variance
// of the forward pass, and the two sums over the batch in its input
// gradient) is all-reduced where it is computed, the running statistics are
// updated from the global ones, and the gradient's constants are the global
// batch's (M = 8 x 4 x 4 = 128 elements per channel).

// CHECK: %[[X:.*]] = dist.replica_split %arg0 axis 0 {{.*}} -> tensor<4x3x4x4xf32>
// CHECK-DAG: %[[INV_M:.*]] = graph.constant {{.*}}dense<7.812500e-03> : tensor<f32>
// CHECK: %[[IN:.*]] = graph.mul %[[X]], %{{.*}} : (tensor<4x3x4x4xf32>, tensor<1x3x1x1xf32>)
// CHECK: %[[MEAN1:.*]] = graph.reduce %[[IN]] {axes = array<i64: 0, 2, 3>, {{.*}}graph.batch_statistic, kind = #graph<reduce_kind mean>}
// CHECK-NEXT: %[[MEAN:.*]] = dist.replica_all_reduce mean %[[MEAN1]] {{.*}}: tensor<3xf32>
// CHECK: %[[VAR1:.*]] = graph.reduce %{{.*}} {axes = array<i64: 0, 2, 3>, {{.*}}graph.batch_statistic, kind = #graph<reduce_kind mean>}
// CHECK-NEXT: %[[VAR:.*]] = dist.replica_all_reduce mean %[[VAR1]] {{.*}}: tensor<3xf32>
// CHECK-NEXT: graph.batch_norm %[[IN]], %{{.*}}, %{{.*}}, %[[MEAN]], %[[VAR]]
// CHECK: %[[LOSS:.*]] = dist.replica_all_reduce mean %{{.*}} : tensor<f32>
// The running statistics (momentum 0.1; the variance unbiased, 128/127).
// CHECK: %[[RM:.*]] = graph.mul %[[MEAN]], %{{.*}}
// CHECK-NEXT: %[[RM2:.*]] = graph.add %{{.*}}, %[[RM]]
// CHECK-NEXT: graph.assign_variable @const3, %[[RM2]]
// CHECK: %[[RV:.*]] = graph.mul %[[VAR]], %{{.*}}
// CHECK-NEXT: %[[RV2:.*]] = graph.add %{{.*}}, %[[RV]]
// CHECK-NEXT: graph.assign_variable @const4, %[[RV2]]
// The input gradient: sum(g) and sum(g * xhat) over the batch, all-reduced,
// then combined with the local rows. They are the BatchNorm's bias and scale
// gradients too, the global batch's already: no all-reduce of their own.
// CHECK: %[[S1L:.*]] = graph.reduce %[[G:[^ ]*]] {axes = array<i64: 0, 2, 3>, {{.*}}graph.batch_statistic, {{.*}}keepdims, kind = #graph<reduce_kind sum>}
// CHECK-NEXT: %[[S1:.*]] = dist.replica_all_reduce sum %[[S1L]] {{.*}}: tensor<1x3x1x1xf32>
// CHECK-NEXT: %[[GX:.*]] = graph.mul %[[G]], %{{.*}}
// CHECK-NEXT: %[[S2L:.*]] = graph.reduce %[[GX]] {axes = array<i64: 0, 2, 3>, {{.*}}graph.batch_statistic, {{.*}}keepdims, kind = #graph<reduce_kind sum>}
// CHECK-NEXT: %[[S2:.*]] = dist.replica_all_reduce sum %[[S2L]] {{.*}}: tensor<1x3x1x1xf32>
// CHECK-NEXT: %[[DB:.*]] = graph.reshape %[[S1]] {{.*}} -> tensor<3xf32>
// CHECK-NEXT: %[[DS:.*]] = graph.reshape %[[S2]] {{.*}} -> tensor<3xf32>
// CHECK-NEXT: %[[S1M:.*]] = graph.mul %[[S1]], %[[INV_M]]
// CHECK-NEXT: graph.sub %[[G]], %[[S1M]]
// CHECK-NEXT: graph.mul %[[S2]], %[[INV_M]]
// Then the input scale's gradient, and nothing else.
// CHECK: dist.replica_all_reduce sum %{{.*}} : tensor<1x3x1x1xf32>
// CHECK-NOT: dist.replica_all_reduce
// CHECK: graph.sgd_update %{{.*}}, %[[DS]]
// CHECK-NOT: dist.replica_all_reduce
// CHECK: graph.sgd_update %{{.*}}, %[[DB]]
func.func @main(%x: tensor<8x3x4x4xf32> {graph.name = "x"}) -> (tensor<8x10xf32> {graph.name = "logits"}) {
  %k = graph.constant dense<[[[[0.5]], [[1.5]], [[2.0]]]]> : tensor<1x3x1x1xf32>
  %s = graph.constant dense<[1.0, 1.5, 0.5]> : tensor<3xf32>
  %b = graph.constant dense<[0.1, 0.2, 0.3]> : tensor<3xf32>
  %m = graph.constant dense<[0.0, 0.1, 0.2]> : tensor<3xf32>
  %v = graph.constant dense<[1.0, 0.9, 1.1]> : tensor<3xf32>
  %w = graph.constant dense<0.01> : tensor<48x10xf32>
  %xk = graph.mul %x, %k : (tensor<8x3x4x4xf32>, tensor<1x3x1x1xf32>) -> tensor<8x3x4x4xf32>
  %y = graph.batch_norm %xk, %s, %b, %m, %v : (tensor<8x3x4x4xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>) -> tensor<8x3x4x4xf32>
  %r = graph.reshape %y {shape = array<i64: 8, 48>} : (tensor<8x3x4x4xf32>) -> tensor<8x48xf32>
  %z = graph.matmul %r, %w : (tensor<8x48xf32>, tensor<48x10xf32>) -> tensor<8x10xf32>
  return %z : tensor<8x10xf32>
}
