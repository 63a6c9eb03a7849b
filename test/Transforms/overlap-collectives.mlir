// RUN: graph-opt %s -split-input-file --dist-overlap-collectives | FileCheck %s
// RUN: graph-opt %s -split-input-file --dist-overlap-collectives --dist-overlap-collectives | FileCheck %s

// A gradient bucket's all-reduce moves up to just after its input (the
// concat), not above the previous communication op (the send); the loss's
// all-reduce stays first. Both are marked. The bucket's slices and reshape
// move down to just before the update that reads them, after the rest of the
// backward pass (the matmul of the first layer's gradient); the update and
// the assign stay where they are (the assign has effects). Every task keeps
// its communication in its order.

// CHECK-LABEL: dist.task @w0
// CHECK-NEXT: %[[L:.*]] = dist.all_reduce mean %arg0 {{.*}} key "loss" {dist.overlap}
// CHECK-NEXT: %[[G2:.*]] = graph.neg %arg1
// CHECK-NEXT: dist.send %[[G2]]
// CHECK-NEXT: %[[CAT:.*]] = graph.concat %arg2, %arg3
// CHECK-NEXT: %[[AR:.*]] = dist.all_reduce sum %[[CAT]] {{.*}} key "b1" {dist.overlap}
// CHECK-NEXT: %[[G0:.*]] = graph.matmul
// CHECK-NEXT: %[[AR2:.*]] = dist.all_reduce sum %[[G0]] {{.*}} key "b2" {dist.overlap}
// CHECK-NEXT: %[[W:.*]] = graph.read_variable @w
// CHECK-NEXT: graph.constant
// CHECK-NEXT: %[[S:.*]] = graph.slice %[[AR]]
// CHECK-NEXT: %[[R:.*]] = graph.reshape %[[S]]
// CHECK-NEXT: %[[U:.*]] = graph.sgd_update %[[W]], %[[R]]
// CHECK-NEXT: graph.assign_variable @w, %[[U]]
// CHECK-NEXT: %[[S2:.*]] = graph.slice %[[AR]]
// CHECK-NEXT: dist.return %[[L]], %[[S2]], %[[AR2]]
module attributes {dist.cluster = #dist.cluster<{w = 2}>} {
  graph.variable @w : tensor<2x2xf32> = dense<1.0> {dist.device = #dist.device<"/job:w/task:0">}
  dist.task @w0 on #dist.device<"/job:w/task:0"> (%loss: tensor<f32>, %g2: tensor<4xf32>, %a: tensor<4xf32>, %b: tensor<2xf32>, %m: tensor<2x2xf32>) -> (tensor<f32>, tensor<2xf32>, tensor<2x2xf32>) {
    %l = dist.all_reduce mean %loss group [#dist.device<"/job:w/task:0">, #dist.device<"/job:w/task:1">] key "loss" : tensor<f32> -> tensor<f32>
    %n = graph.neg %g2 : (tensor<4xf32>) -> tensor<4xf32>
    dist.send %n to #dist.device<"/job:w/task:1"> key "n" : tensor<4xf32>
    %cat = graph.concat %a, %b {axis = 0 : i64} : (tensor<4xf32>, tensor<2xf32>) -> tensor<6xf32>
    %g0 = graph.matmul %m, %m : (tensor<2x2xf32>, tensor<2x2xf32>) -> tensor<2x2xf32>
    %ar = dist.all_reduce sum %cat group [#dist.device<"/job:w/task:0">, #dist.device<"/job:w/task:1">] key "b1" : tensor<6xf32> -> tensor<6xf32>
    %s = graph.slice %ar {limits = array<i64: 4>, starts = array<i64: 0>, strides = array<i64: 1>} : (tensor<6xf32>) -> tensor<4xf32>
    %s2 = graph.slice %ar {limits = array<i64: 6>, starts = array<i64: 4>, strides = array<i64: 1>} : (tensor<6xf32>) -> tensor<2xf32>
    %r = graph.reshape %s {shape = array<i64: 2, 2>} : (tensor<4xf32>) -> tensor<2x2xf32>
    %ar2 = dist.all_reduce sum %g0 group [#dist.device<"/job:w/task:0">, #dist.device<"/job:w/task:1">] key "b2" : tensor<2x2xf32> -> tensor<2x2xf32>
    %w = graph.read_variable @w : tensor<2x2xf32>
    %lr = graph.constant dense<0.1> : tensor<f32>
    %u = graph.sgd_update %w, %r, %lr : (tensor<2x2xf32>, tensor<2x2xf32>, tensor<f32>) -> tensor<2x2xf32>
    graph.assign_variable @w, %u : tensor<2x2xf32>
    dist.return %l, %s2, %ar2 : tensor<f32>, tensor<2xf32>, tensor<2x2xf32>
  }
  dist.task @w1 on #dist.device<"/job:w/task:1"> (%loss: tensor<f32>, %c: tensor<6xf32>, %m: tensor<2x2xf32>) -> (tensor<f32>, tensor<6xf32>, tensor<2x2xf32>, tensor<4xf32>) {
    %l = dist.all_reduce mean %loss group [#dist.device<"/job:w/task:0">, #dist.device<"/job:w/task:1">] key "loss" : tensor<f32> -> tensor<f32>
    %n = dist.recv from #dist.device<"/job:w/task:0"> key "n" : tensor<4xf32>
    %ar = dist.all_reduce sum %c group [#dist.device<"/job:w/task:0">, #dist.device<"/job:w/task:1">] key "b1" : tensor<6xf32> -> tensor<6xf32>
    %ar2 = dist.all_reduce sum %m group [#dist.device<"/job:w/task:0">, #dist.device<"/job:w/task:1">] key "b2" : tensor<2x2xf32> -> tensor<2x2xf32>
    dist.return %l, %ar, %ar2, %n : tensor<f32>, tensor<6xf32>, tensor<2x2xf32>, tensor<4xf32>
  }
}

// -----

// Nothing to do between the all-reduce and its first use (a tensor-parallel
// block's all-reduce feeding the next op): not marked, it stays blocking.
// CHECK-LABEL: dist.task @tp0
// CHECK-NEXT: %[[G:.*]] = dist.all_reduce sum %arg0 {{.*}} key "tp" : tensor<4xf32>
// CHECK-NEXT: graph.neg %[[G]]
module attributes {dist.cluster = #dist.cluster<{w = 2}>} {
  dist.task @tp0 on #dist.device<"/job:w/task:0"> (%x: tensor<4xf32>) -> (tensor<4xf32>) {
    %g = dist.all_reduce sum %x group [#dist.device<"/job:w/task:0">, #dist.device<"/job:w/task:1">] key "tp" : tensor<4xf32> -> tensor<4xf32>
    %n = graph.neg %g : (tensor<4xf32>) -> tensor<4xf32>
    dist.return %n : tensor<4xf32>
  }
  dist.task @tp1 on #dist.device<"/job:w/task:1"> (%x: tensor<4xf32>) -> (tensor<4xf32>) {
    %g = dist.all_reduce sum %x group [#dist.device<"/job:w/task:0">, #dist.device<"/job:w/task:1">] key "tp" : tensor<4xf32> -> tensor<4xf32>
    dist.return %g : tensor<4xf32>
  }
}

