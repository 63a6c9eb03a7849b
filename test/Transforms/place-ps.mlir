// RUN: graph-opt %s -split-input-file --dist-place="strategy=ps ps-tasks=2" | FileCheck %s
// RUN: graph-opt %s -split-input-file --dist-place="strategy=ps ps-tasks=2 replicas=2" | FileCheck %s --check-prefix=REPL

// Variables balanced by bytes over two servers, largest set first onto the
// lightest server: @big (4096 B) to ps0; @w with its momentum slot @w_m (one
// set of 2048 B, since one update writes both) to ps1; @mid (2048 B, after
// @w in module order) to ps1; @tiny (4 B) ties at 4096 B each and goes to
// the lower server, ps0. Reads, assignments and the update ops that only
// feed assignments run with their variable; the compute stays on the worker.

// CHECK: module attributes {dist.cluster = #dist.cluster<{worker = 1 x [CPU:0], ps = 2 x [CPU:0]}>}
// CHECK: graph.variable @tiny : tensor<f32> {dist.device = #dist.device<"/job:ps/task:0">}
// CHECK: graph.variable @w : tensor<16x16xf32> {dist.device = #dist.device<"/job:ps/task:1">}
// CHECK: graph.variable @w_m : tensor<16x16xf32> {dist.device = #dist.device<"/job:ps/task:1">}
// CHECK: graph.variable @big : tensor<32x32xf32> {dist.device = #dist.device<"/job:ps/task:0">}
// CHECK: graph.variable @mid : tensor<16x32xf32> {dist.device = #dist.device<"/job:ps/task:1">}
// CHECK-LABEL: func.func @step
// CHECK-SAME: {dist.device = #dist.device<"/job:worker/task:0">}
// CHECK: graph.read_variable @w {dist.device = #dist.device<"/job:ps/task:1">}
// CHECK: graph.read_variable @w_m {dist.device = #dist.device<"/job:ps/task:1">}
// CHECK: graph.matmul {{.*}}dist.device = #dist.device<"/job:worker/task:0">
// CHECK: graph.momentum_update {{.*}}dist.device = #dist.device<"/job:ps/task:1">
// CHECK: graph.assign_variable @w, {{.*}}dist.device = #dist.device<"/job:ps/task:1">
// CHECK: graph.assign_variable @w_m, {{.*}}dist.device = #dist.device<"/job:ps/task:1">
// The update's result is also returned: it stays on the worker.
// CHECK: graph.sgd_update {{.*}}dist.device = #dist.device<"/job:worker/task:0">
// CHECK: graph.assign_variable @tiny, {{.*}}dist.device = #dist.device<"/job:ps/task:0">
// REPL: module attributes {dist.cluster = #dist.cluster<{worker = 2 x [CPU:0], ps = 2 x [CPU:0]}>}
// REPL: graph.variable @w : tensor<16x16xf32> {dist.device = #dist.device<"/job:ps/task:1">}
// REPL-LABEL: func.func @step
// REPL-SAME: dist.replicas = 2
// REPL: dist.replica_split {{.*}} : tensor<4x16xf32> -> tensor<2x16xf32>
// REPL: graph.read_variable @w {dist.device = #dist.device<"/job:ps/task:1">}
// REPL: graph.matmul {{.*}}dist.device = #dist.device<"/job:worker">{{.*}} -> tensor<2x16xf32>
// REPL: dist.replica_all_reduce sum {{.*}}dist.device = #dist.device<"/job:worker">
// REPL: graph.momentum_update {{.*}}dist.device = #dist.device<"/job:ps/task:1">
module {
  graph.variable @tiny : tensor<f32>
  graph.variable @w : tensor<16x16xf32>
  graph.variable @w_m : tensor<16x16xf32>
  graph.variable @big : tensor<32x32xf32>
  graph.variable @mid : tensor<16x32xf32>
  func.func @step(%x: tensor<4x16xf32>, %lr: tensor<f32>, %mu: tensor<f32>) -> (tensor<4x16xf32>, tensor<f32>) {
    %w = graph.read_variable @w : tensor<16x16xf32>
    %m = graph.read_variable @w_m : tensor<16x16xf32>
    %y = graph.matmul %x, %w : (tensor<4x16xf32>, tensor<16x16xf32>) -> tensor<4x16xf32>
    %g = graph.matmul %x, %y {transpose_lhs} : (tensor<4x16xf32>, tensor<4x16xf32>) -> tensor<16x16xf32>
    %ga = dist.replica_all_reduce sum %g : tensor<16x16xf32>
    %w1, %m1 = graph.momentum_update %w, %m, %ga, %lr, %mu : (tensor<16x16xf32>, tensor<16x16xf32>, tensor<16x16xf32>, tensor<f32>, tensor<f32>) -> (tensor<16x16xf32>, tensor<16x16xf32>)
    graph.assign_variable @w, %w1 : tensor<16x16xf32>
    graph.assign_variable @w_m, %m1 : tensor<16x16xf32>
    %t = graph.read_variable @tiny : tensor<f32>
    %t1 = graph.sgd_update %t, %lr, %lr : (tensor<f32>, tensor<f32>, tensor<f32>) -> tensor<f32>
    graph.assign_variable @tiny, %t1 : tensor<f32>
    return %y, %t1 : tensor<4x16xf32>, tensor<f32>
  }
}
