// RUN: graph-opt %s --dist-place="strategy=tensor-parallel tensor-parallel=2 replicas=2" | FileCheck %s
// RUN: graph-opt %s --dist-place="strategy=tensor-parallel tensor-parallel=2 replicas=2" --dist-partition | FileCheck %s --check-prefix=PART

// Two replicas of a two-shard MLP block on four tasks, replica-major
// (replica r, shard k on task 2r+k): task 0 slices the batch of 8 into the
// replicas' rows, each replica's shards all-reduce among themselves, and
// task 0 joins the replicas' outputs (from each replica's shard 0). Replica
// 1's shards are replica 0's under other names (graph.replica_of).

// CHECK: module attributes {dist.cluster = #dist.cluster<{worker = 4 x [CPU:0]}>}
// CHECK-DAG: graph.variable @w1_tp0 : tensor<4x2xf32> {dist.device = #dist.device<"/job:worker/task:0">}
// CHECK-DAG: graph.variable @w1_tp1 : tensor<4x2xf32> {dist.device = #dist.device<"/job:worker/task:1">}
// CHECK-DAG: graph.variable @w1_tp0_r1 : tensor<4x2xf32> {dist.device = #dist.device<"/job:worker/task:2">, graph.replica_of = "w1_tp0"}
// CHECK-DAG: graph.variable @w1_tp1_r1 : tensor<4x2xf32> {dist.device = #dist.device<"/job:worker/task:3">, graph.replica_of = "w1_tp1"}
// CHECK-LABEL: func.func @mlp
// CHECK-NOT: dist.replicas
// CHECK: %[[X0:.*]] = graph.slice %arg0 {{.*}}task:0{{.*}}limits = array<i64: 4, 4>, starts = array<i64: 0, 0>{{.*}} -> tensor<4x4xf32>
// CHECK: %[[X1:.*]] = graph.slice %arg0 {{.*}}task:0{{.*}}limits = array<i64: 8, 4>, starts = array<i64: 4, 0>{{.*}} -> tensor<4x4xf32>
// CHECK: graph.matmul %[[X0]], {{.*}}task:0{{.*}} -> tensor<4x2xf32>
// CHECK: graph.matmul %[[X0]], {{.*}}task:1{{.*}} -> tensor<4x2xf32>
// CHECK: graph.matmul %[[X1]], {{.*}}task:2{{.*}} -> tensor<4x2xf32>
// CHECK: graph.matmul %[[X1]], {{.*}}task:3{{.*}} -> tensor<4x2xf32>
// CHECK: %[[A:.*]]:2 = dist.group_all_reduce sum {{.*}} group [#dist.device<"/job:worker/task:0">, #dist.device<"/job:worker/task:1">]
// CHECK: %[[B:.*]]:2 = dist.group_all_reduce sum {{.*}} group [#dist.device<"/job:worker/task:2">, #dist.device<"/job:worker/task:3">]
// CHECK: %[[Y:.*]] = graph.concat %[[A]]#0, %[[B]]#0 {{.*}}task:0{{.*}} -> tensor<8x3xf32>
// CHECK: return %[[Y]] : tensor<8x3xf32>

// After partitioning, task 2 (replica 1, shard 0) receives its rows from
// task 0, all-reduces with task 3 and sends its result back to task 0.
// PART-LABEL: dist.task @worker2
// PART: graph.read_variable @w1_tp0_r1
// PART: dist.recv from #dist.device<"/job:worker/task:0"> {{.*}} : tensor<4x4xf32>
// PART: dist.all_reduce sum {{.*}} group [#dist.device<"/job:worker/task:2">, #dist.device<"/job:worker/task:3">]
// PART: dist.send {{.*}} to #dist.device<"/job:worker/task:0"> {{.*}} : tensor<4x3xf32>
module {
  graph.variable @w1 : tensor<4x4xf32>
  graph.variable @w2 : tensor<4x3xf32>
  func.func @mlp(%x: tensor<8x4xf32>) -> tensor<8x3xf32> {
    %w1 = graph.read_variable @w1 : tensor<4x4xf32>
    %h = graph.matmul %x, %w1 : (tensor<8x4xf32>, tensor<4x4xf32>) -> tensor<8x4xf32>
    %r = graph.relu %h : (tensor<8x4xf32>) -> tensor<8x4xf32>
    %w2 = graph.read_variable @w2 : tensor<4x3xf32>
    %y = graph.matmul %r, %w2 : (tensor<8x4xf32>, tensor<4x3xf32>) -> tensor<8x3xf32>
    return %y : tensor<8x3xf32>
  }
}
