// RUN: graph-opt %s --dist-place="strategy=replicas replicas=2" --dist-partition --dist-fuse-collectives | FileCheck %s

// The three distribution passes in a row on a two-layer training step for a
// batch of 8: two replicas of 4 rows, the two weight gradients all-reduced
// as one fused buffer, each replica updating its own copy of the weights.
// The output is checked by the dist dialect's verifier (matched keys and
// collectives) as well as here.

// CHECK: graph.variable @w1 : tensor<16x8xf32> {dist.device = #dist.device<"/job:worker/task:0">}
// CHECK-NEXT: graph.variable @w1_r1 : tensor<16x8xf32> {dist.device = #dist.device<"/job:worker/task:1">, graph.replica_of = "w1"}
// CHECK-NEXT: graph.variable @w2 : tensor<8x4xf32> {dist.device = #dist.device<"/job:worker/task:0">}
// CHECK-NEXT: graph.variable @w2_r1 : tensor<8x4xf32> {dist.device = #dist.device<"/job:worker/task:1">, graph.replica_of = "w2"}
// CHECK-LABEL: dist.task @worker0
// CHECK: graph.slice %{{.*}} {limits = array<i64: 4, 16>, starts = array<i64: 0, 0>
// CHECK: dist.send {{.*}} key "x/r1/worker0->worker1" : tensor<4x16xf32>
// CHECK: graph.matmul {{.*}} : (tensor<4x16xf32>, tensor<16x8xf32>) -> tensor<4x8xf32>
// CHECK: %[[AR:.*]] = dist.all_reduce sum %{{.*}} key "g1/all_reduce..g2/all_reduce" : tensor<160xf32> -> tensor<160xf32>
// CHECK-NOT: dist.all_reduce
// CHECK: graph.assign_variable @w1,
// CHECK: graph.assign_variable @w2,
// CHECK: dist.recv from #dist.device<"/job:worker/task:1"> key "y/r1/worker1->worker0" : tensor<4x4xf32>
// CHECK: graph.concat {{.*}} -> tensor<8x4xf32>
// CHECK-LABEL: dist.task @worker1
// CHECK: dist.all_reduce sum %{{.*}} key "g1/all_reduce..g2/all_reduce" : tensor<160xf32> -> tensor<160xf32>
// CHECK-NOT: dist.all_reduce
// CHECK: graph.assign_variable @w1_r1,
// CHECK: graph.assign_variable @w2_r1,
module {
  graph.variable @w1 : tensor<16x8xf32>
  graph.variable @w2 : tensor<8x4xf32>
  func.func @main(%x: tensor<8x16xf32> {graph.name = "x"}, %dy: tensor<8x4xf32> {graph.name = "dy"}, %lr: tensor<f32> {graph.name = "lr"})
      -> (tensor<8x4xf32> {graph.name = "y"}) {
    %w1 = graph.read_variable @w1 : tensor<16x8xf32>
    %w2 = graph.read_variable @w2 : tensor<8x4xf32>
    %h = graph.matmul %x, %w1 : (tensor<8x16xf32>, tensor<16x8xf32>) -> tensor<8x8xf32> loc("m:h")
    %y = graph.matmul %h, %w2 : (tensor<8x8xf32>, tensor<8x4xf32>) -> tensor<8x4xf32> loc("m:y")
    %dh = graph.matmul %dy, %w2 {transpose_rhs} : (tensor<8x4xf32>, tensor<8x4xf32>) -> tensor<8x8xf32> loc("m:dh")
    %g2 = graph.matmul %h, %dy {transpose_lhs} : (tensor<8x8xf32>, tensor<8x4xf32>) -> tensor<8x4xf32> loc("m:g2")
    %g1 = graph.matmul %x, %dh {transpose_lhs} : (tensor<8x16xf32>, tensor<8x8xf32>) -> tensor<16x8xf32> loc("m:g1")
    %s1 = dist.replica_all_reduce sum %g1 : tensor<16x8xf32> loc("m:g1")
    %s2 = dist.replica_all_reduce sum %g2 : tensor<8x4xf32> loc("m:g2")
    %n1 = graph.sgd_update %w1, %s1, %lr : (tensor<16x8xf32>, tensor<16x8xf32>, tensor<f32>) -> tensor<16x8xf32>
    %n2 = graph.sgd_update %w2, %s2, %lr : (tensor<8x4xf32>, tensor<8x4xf32>, tensor<f32>) -> tensor<8x4xf32>
    graph.assign_variable @w1, %n1 : tensor<16x8xf32>
    graph.assign_variable @w2, %n2 : tensor<8x4xf32>
    return %y : tensor<8x4xf32>
  }
}
