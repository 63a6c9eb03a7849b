// RUN: graph-opt %s --graph-autodiff=wrt=arguments | FileCheck %s

// batch_norm_train's adjoint sums over the data twice, not four times:
// sum(g) and sum(g * xhat) per channel (marked graph.batch_statistic, which
// dist-place all-reduces under --replicas) are the bias and scale gradients,
// and dx = rstd * scale * (g - sum(g) / M - xhat * sum(g * xhat) / M), with
// M = 2 * 4 * 4 = 32 elements per channel.

// CHECK-LABEL: func.func @bn
// CHECK: %[[Y:.*]], %[[MEAN:.*]], %[[VAR:.*]] = graph.batch_norm_train
// CHECK: %[[RSTD:.*]] = graph.rsqrt
// CHECK: %[[XHAT:.*]] = graph.mul %{{.*}}, %[[RSTD]]
// CHECK: %[[SCALE:.*]] = graph.reshape %arg1 {{.*}} -> tensor<1x3x1x1xf32>
// CHECK: %[[SG:.*]] = graph.reduce %[[G:[^ ]*]] {axes = array<i64: 0, 2, 3>, graph.batch_statistic, {{.*}}keepdims, kind = #graph<reduce_kind sum>} : (tensor<2x3x4x4xf32>) -> tensor<1x3x1x1xf32>
// CHECK: %[[GX:.*]] = graph.mul %[[G]], %[[XHAT]]
// CHECK: %[[SGX:.*]] = graph.reduce %[[GX]] {axes = array<i64: 0, 2, 3>, graph.batch_statistic, {{.*}}keepdims, kind = #graph<reduce_kind sum>}
// CHECK: %[[DB:.*]] = graph.reshape %[[SG]] {{.*}} -> tensor<3xf32>
// CHECK: %[[DS:.*]] = graph.reshape %[[SGX]] {{.*}} -> tensor<3xf32>
// CHECK: %[[INV_M:.*]] = graph.constant dense<3.125000e-02> : tensor<f32>
// CHECK: %[[A:.*]] = graph.mul %[[SG]], %[[INV_M]]
// CHECK: %[[B:.*]] = graph.sub %[[G]], %[[A]]
// CHECK: %[[C:.*]] = graph.mul %[[SGX]], %{{.*}}
// CHECK: %[[D:.*]] = graph.mul %[[XHAT]], %[[C]]
// CHECK: %[[E:.*]] = graph.sub %[[B]], %[[D]]
// CHECK: %[[K:.*]] = graph.mul %[[RSTD]], %[[SCALE]]
// CHECK: %[[DX:.*]] = graph.mul %[[K]], %[[E]]
// CHECK-NOT: graph.reduce
// CHECK: return %{{.*}}, %[[DX]], %[[DS]], %[[DB]]
func.func @bn(%x: tensor<2x3x4x4xf32> {graph.name = "x"}, %s: tensor<3xf32> {graph.name = "scale"}, %b: tensor<3xf32> {graph.name = "bias"}) -> tensor<f32> attributes {graph.output_names = ["loss"]} {
  %y, %m, %v = graph.batch_norm_train %x, %s, %b : (tensor<2x3x4x4xf32>, tensor<3xf32>, tensor<3xf32>) -> (tensor<2x3x4x4xf32>, tensor<3xf32>, tensor<3xf32>)
  %sq = graph.mul %y, %y : (tensor<2x3x4x4xf32>, tensor<2x3x4x4xf32>) -> tensor<2x3x4x4xf32>
  %l = graph.reduce %sq {axes = array<i64: 0, 1, 2, 3>, kind = #graph<reduce_kind sum>} : (tensor<2x3x4x4xf32>) -> tensor<f32>
  return %l : tensor<f32>
}
