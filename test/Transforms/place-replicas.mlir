// RUN: graph-opt %s -split-input-file --dist-place="strategy=replicas replicas=2" | FileCheck %s

// An MLP step for a batch of 8 on two replicas: each replica sees 4 rows.
// The batched input is split, types are re-derived op by op, a reshape that
// names the batch size is rewritten, the batched output is joined, and the
// weights are shared (one copy per replica, not split).

// CHECK: module attributes {dist.cluster = #dist.cluster<{worker = 2 x [CPU:0]}>}
// CHECK: graph.variable @w1 : tensor<784x16xf32> {dist.device = #dist.device<"/job:worker">}
// CHECK-LABEL: func.func @mlp
// CHECK-SAME: (%[[X:.*]]: tensor<8x28x28xf32> {dist.device = #dist.device<"/job:worker/task:0">, graph.name = "x"},
// CHECK-SAME: %[[LR:.*]]: tensor<f32> {dist.device = #dist.device<"/job:worker/task:0">})
// CHECK-SAME: -> (tensor<8x10xf32> {dist.device = #dist.device<"/job:worker/task:0">}, tensor<f32> {dist.device = #dist.device<"/job:worker/task:0">})
// CHECK-SAME: attributes {dist.replicas = 2 : i64}
// CHECK: %[[XS:.*]] = dist.replica_split %[[X]] axis 0 {dist.device = #dist.device<"/job:worker">} : tensor<8x28x28xf32> -> tensor<4x28x28xf32>
// CHECK: %[[FLAT:.*]] = graph.reshape %[[XS]] {dist.device = #dist.device<"/job:worker">, shape = array<i64: 4, 784>} : (tensor<4x28x28xf32>) -> tensor<4x784xf32>
// CHECK: %[[W:.*]] = graph.read_variable @w1 {dist.device = #dist.device<"/job:worker">} : tensor<784x16xf32>
// CHECK: %[[H:.*]] = graph.matmul %[[FLAT]], %[[W]] {{.*}} : (tensor<4x784xf32>, tensor<784x16xf32>) -> tensor<4x16xf32>
// CHECK: %[[B:.*]] = graph.add %[[H]], %{{.*}} {{.*}} : (tensor<4x16xf32>, tensor<16xf32>) -> tensor<4x16xf32>
// CHECK: %[[R:.*]] = graph.relu %[[B]] {{.*}} -> tensor<4x16xf32>
// CHECK: %[[T:.*]] = graph.transpose %[[R]] {{.*}} -> tensor<16x4xf32>
// CHECK: %[[S:.*]] = graph.slice %[[T]] {{.*}}limits = array<i64: 10, 4>{{.*}} -> tensor<10x4xf32>
// CHECK: %[[Y:.*]] = graph.transpose %[[S]] {{.*}} -> tensor<4x10xf32>
// CHECK: %[[P:.*]] = graph.softmax %[[Y]] {{.*}} -> tensor<4x10xf32>
// The scaled sum over the batch is a partial value until all-reduced.
// CHECK: %[[SUM:.*]] = graph.reduce %[[P]] {{.*}} : (tensor<4x10xf32>) -> tensor<f32>
// CHECK: %[[ALL:.*]] = dist.replica_all_reduce sum %[[SUM]] {dist.device = #dist.device<"/job:worker">} : tensor<f32>
// CHECK: %[[LOSS:.*]] = graph.mul %[[ALL]], %[[LR]] {{.*}} -> tensor<f32>
// CHECK: %[[OUT:.*]] = dist.replica_concat %[[P]] axis 0 {dist.device = #dist.device<"/job:worker/task:0">} : tensor<4x10xf32> -> tensor<8x10xf32>
// CHECK: return %[[OUT]], %[[LOSS]] : tensor<8x10xf32>, tensor<f32>
module {
  graph.variable @w1 : tensor<784x16xf32>
  func.func @mlp(%x: tensor<8x28x28xf32> {graph.name = "x"}, %lr: tensor<f32>) -> (tensor<8x10xf32>, tensor<f32>) {
    %flat = graph.reshape %x {shape = array<i64: 8, 784>} : (tensor<8x28x28xf32>) -> tensor<8x784xf32>
    %w = graph.read_variable @w1 : tensor<784x16xf32>
    %h = graph.matmul %flat, %w : (tensor<8x784xf32>, tensor<784x16xf32>) -> tensor<8x16xf32>
    %bias = graph.constant dense<0.5> : tensor<16xf32>
    %b = graph.add %h, %bias : (tensor<8x16xf32>, tensor<16xf32>) -> tensor<8x16xf32>
    %r = graph.relu %b : (tensor<8x16xf32>) -> tensor<8x16xf32>
    %t = graph.transpose %r {perm = array<i64: 1, 0>} : (tensor<8x16xf32>) -> tensor<16x8xf32>
    %s = graph.slice %t {starts = array<i64: 0, 0>, limits = array<i64: 10, 8>, strides = array<i64: 1, 1>} : (tensor<16x8xf32>) -> tensor<10x8xf32>
    %y = graph.transpose %s {perm = array<i64: 1, 0>} : (tensor<10x8xf32>) -> tensor<8x10xf32>
    %p = graph.softmax %y {axis = 1 : i64} : (tensor<8x10xf32>) -> tensor<8x10xf32>
    %sum = graph.reduce %p {axes = array<i64: 0, 1>, kind = #graph<reduce_kind sum>} : (tensor<8x10xf32>) -> tensor<f32>
    %all = dist.replica_all_reduce sum %sum : tensor<f32>
    %loss = graph.mul %all, %lr : (tensor<f32>, tensor<f32>) -> tensor<f32>
    return %p, %loss : tensor<8x10xf32>, tensor<f32>
  }
}

// -----

// A convolution network: conv and pool keep the batch on dimension 0, and
// a flatten reshape with -1 keeps the row size. The weight gradient (a
// matmul contracting the batch) is all-reduced before the update.

// CHECK-LABEL: func.func @conv
// CHECK: dist.replica_split {{.*}} : tensor<6x1x8x8xf32> -> tensor<3x1x8x8xf32>
// CHECK: graph.conv {{.*}} -> tensor<3x4x6x6xf32>
// CHECK: graph.pool {{.*}} -> tensor<3x4x3x3xf32>
// CHECK: graph.reshape {{.*}}shape = array<i64: -1, 36>{{.*}} -> tensor<3x36xf32>
// CHECK: %[[G:.*]] = graph.matmul {{.*}} {{{.*}}transpose_lhs} : (tensor<3x36xf32>, tensor<3x36xf32>) -> tensor<36x36xf32>
// CHECK: %[[GA:.*]] = dist.replica_all_reduce sum %[[G]]
// CHECK: graph.sgd_update %{{.*}}, %[[GA]], %{{.*}}
// CHECK: graph.assign_variable @v
// CHECK-NOT: dist.replica_concat
func.func private @unused()
graph.variable @v : tensor<36x36xf32>
func.func @conv(%x: tensor<6x1x8x8xf32>, %f: tensor<4x1x3x3xf32>, %lr: tensor<f32>) {
  %c = graph.conv %x, %f : (tensor<6x1x8x8xf32>, tensor<4x1x3x3xf32>) -> tensor<6x4x6x6xf32>
  %p = graph.pool %c {kind = #graph<pool_kind max>, window = array<i64: 2, 2>, strides = array<i64: 2, 2>} : (tensor<6x4x6x6xf32>) -> tensor<6x4x3x3xf32>
  %flat = graph.reshape %p {shape = array<i64: -1, 36>} : (tensor<6x4x3x3xf32>) -> tensor<6x36xf32>
  %g = graph.matmul %flat, %flat {transpose_lhs} : (tensor<6x36xf32>, tensor<6x36xf32>) -> tensor<36x36xf32>
  %ga = dist.replica_all_reduce sum %g : tensor<36x36xf32>
  %v = graph.read_variable @v : tensor<36x36xf32>
  %v1 = graph.sgd_update %v, %ga, %lr : (tensor<36x36xf32>, tensor<36x36xf32>, tensor<f32>) -> tensor<36x36xf32>
  graph.assign_variable @v, %v1 : tensor<36x36xf32>
  return
}

// -----

// Linear functions of partial values stay partial until the all-reduce: the
// weight gradient scaled by 1/batch, plus a second path, transposed.

// CHECK-LABEL: func.func @linear
// CHECK: %[[G:.*]] = graph.matmul {{.*}} -> tensor<3x3xf32>
// CHECK: %[[S:.*]] = graph.mul %[[G]], %{{.*}} {{.*}} -> tensor<3x3xf32>
// CHECK: %[[A:.*]] = graph.add %[[S]], %[[G]]
// CHECK: %[[T:.*]] = graph.transpose %[[A]]
// CHECK: dist.replica_all_reduce sum %[[T]]
func.func @linear(%x: tensor<4x3xf32>) -> tensor<3x3xf32> {
  %g = graph.matmul %x, %x {transpose_lhs} : (tensor<4x3xf32>, tensor<4x3xf32>) -> tensor<3x3xf32>
  %inv = graph.constant dense<0.25> : tensor<f32>
  %s = graph.mul %g, %inv : (tensor<3x3xf32>, tensor<f32>) -> tensor<3x3xf32>
  %a = graph.add %s, %g : (tensor<3x3xf32>, tensor<3x3xf32>) -> tensor<3x3xf32>
  %t = graph.transpose %a {perm = array<i64: 1, 0>} : (tensor<3x3xf32>) -> tensor<3x3xf32>
  %r = dist.replica_all_reduce sum %t : tensor<3x3xf32>
  return %r : tensor<3x3xf32>
}

// -----

// A training step (graphc --train): TF-Replicator's fill-in. The weight
// gradients are partial sums (each replica contracts its own rows); where
// they reach an optimizer update's gradient operand or an assignment, a
// dist.replica_all_reduce of their reduction is inserted, so every replica
// applies the same update to its copy. The result named "loss" (a partial
// mean) is all-reduced with mean. The 1/B splat of the mean's gradient has
// the global batch's shape; each replica gets a splat of its share.

graph.variable @w : tensor<3x2xf32>
graph.variable @stat : tensor<2xf32>

// CHECK-LABEL: func.func @step
// CHECK: %[[XS:.*]] = dist.replica_split %{{.*}} axis 0 {{.*}} -> tensor<2x3xf32>
// CHECK: %[[LOSS:.*]] = graph.reduce {{.*}}reduce_kind mean{{.*}} -> tensor<f32>
// CHECK-NEXT: %[[LALL:.*]] = dist.replica_all_reduce mean %[[LOSS]] {dist.device = #dist.device<"/job:worker">} : tensor<f32>
// CHECK-NOT: tensor<4x1xf32>
// CHECK: %[[FILL:.*]] = graph.constant {dist.device = #dist.device<"/job:worker">} dense<1.250000e-01> : tensor<2x1xf32>
// CHECK: %[[G:.*]] = graph.mul %{{.*}}, %[[FILL]] {{.*}} : (tensor<2x2xf32>, tensor<2x1xf32>) -> tensor<2x2xf32>
// The all-reduce follows the gradient right away (it overlaps the rest of
// the backward pass and can share a bucket with the next ones).
// CHECK: %[[GW:.*]] = graph.matmul %[[XS]], %[[G]] {{.*}}transpose_lhs{{.*}} -> tensor<3x2xf32>
// CHECK-NEXT: %[[ALL:.*]] = dist.replica_all_reduce sum %[[GW]] {dist.device = #dist.device<"/job:worker">} : tensor<3x2xf32>
// CHECK: %[[NEW:.*]] = graph.sgd_update %{{.*}}, %[[ALL]], %{{.*}}
// CHECK: graph.assign_variable @w, %[[NEW]]
// CHECK: %[[MEAN:.*]] = graph.reduce %{{.*}} {{.*}}reduce_kind mean{{.*}} : (tensor<2x2xf32>) -> tensor<2xf32>
// CHECK-NEXT: %[[MALL:.*]] = dist.replica_all_reduce mean %[[MEAN]]
// CHECK: graph.assign_variable @stat, %[[MALL]]
// CHECK: return %[[LALL]] : tensor<f32>
func.func @step(%x: tensor<4x3xf32>) -> tensor<f32> attributes {graph.output_names = ["loss"]} {
  %w = graph.read_variable @w : tensor<3x2xf32>
  %y = graph.matmul %x, %w : (tensor<4x3xf32>, tensor<3x2xf32>) -> tensor<4x2xf32>
  %loss = graph.reduce %y {axes = array<i64: 0, 1>, kind = #graph<reduce_kind mean>} : (tensor<4x2xf32>) -> tensor<f32>
  %fill = graph.constant dense<0.125> : tensor<4x1xf32>
  %e = graph.exp %y : (tensor<4x2xf32>) -> tensor<4x2xf32>
  %g = graph.mul %e, %fill : (tensor<4x2xf32>, tensor<4x1xf32>) -> tensor<4x2xf32>
  %gw = graph.matmul %x, %g {transpose_lhs} : (tensor<4x3xf32>, tensor<4x2xf32>) -> tensor<3x2xf32>
  %lr = graph.constant dense<0.1> : tensor<f32>
  %new = graph.sgd_update %w, %gw, %lr : (tensor<3x2xf32>, tensor<3x2xf32>, tensor<f32>) -> tensor<3x2xf32>
  graph.assign_variable @w, %new : tensor<3x2xf32>
  %m = graph.reduce %y {axes = array<i64: 0>, kind = #graph<reduce_kind mean>} : (tensor<4x2xf32>) -> tensor<2xf32>
  graph.assign_variable @stat, %m : tensor<2xf32>
  return %loss : tensor<f32>
}

// -----

// A global average pool's backward: each row's [C,1,1] gradient is broadcast
// over its own row's pixels, so the rows stay apart and the target's batch
// size becomes one replica's share.
// CHECK-LABEL: func.func @pool_backward
// CHECK: %[[G:.*]] = dist.replica_split %{{.*}} axis 0 {{.*}} -> tensor<2x3x1x1xf32>
// CHECK: graph.broadcast_to %[[G]] {{{.*}}shape = array<i64: 2, 3, 4, 4>{{.*}}} : (tensor<2x3x1x1xf32>) -> tensor<2x3x4x4xf32>
// A new leading axis moves the batch to axis 1, where the gather concatenates.
// CHECK: %[[T:.*]] = graph.broadcast_to %{{.*}} {{{.*}}shape = array<i64: 5, 2, 3, 1, 1>{{.*}}} : (tensor<2x3x1x1xf32>) -> tensor<5x2x3x1x1xf32>
// CHECK: dist.replica_concat %[[T]] axis 1
func.func @pool_backward(%g: tensor<4x3x1x1xf32>) -> (tensor<4x3x4x4xf32>, tensor<5x4x3x1x1xf32>) {
  %b = graph.broadcast_to %g {shape = array<i64: 4, 3, 4, 4>} : (tensor<4x3x1x1xf32>) -> tensor<4x3x4x4xf32>
  %t = graph.broadcast_to %g {shape = array<i64: 5, 4, 3, 1, 1>} : (tensor<4x3x1x1xf32>) -> tensor<5x4x3x1x1xf32>
  return %b, %t : tensor<4x3x4x4xf32>, tensor<5x4x3x1x1xf32>
}

// -----

// A max pool's backward (graph-autodiff): each window's gradient is added
// into zeros of x's shape at its input cell, along the flat pixels (axis
// 2), so the rows stay apart; the zeros, a splat of the whole batch, become
// one replica's share.
// CHECK-LABEL: func.func @max_pool_backward
// CHECK-DAG: %[[I:.*]] = dist.replica_split %{{.*}} axis 0 {{.*}} -> tensor<2x3x4xi32>
// CHECK-DAG: %[[U:.*]] = dist.replica_split %{{.*}} axis 0 {{.*}} -> tensor<2x3x4xf32>
// CHECK-DAG: %[[Z:.*]] = graph.constant {{.*}}dense<0.000000e+00> : tensor<2x3x16xf32>
// CHECK: %[[S:.*]] = graph.scatter_elements %[[Z]], %[[I]], %[[U]] {{.*}} -> tensor<2x3x16xf32>
// CHECK: dist.replica_concat %[[S]] axis 0
func.func @max_pool_backward(%idx: tensor<4x3x4xi32>, %g: tensor<4x3x4xf32>) -> tensor<4x3x16xf32> {
  %z = graph.constant dense<0.0> : tensor<4x3x16xf32>
  %s = graph.scatter_elements %z, %idx, %g {axis = 2 : i64, reduction = #graph<scatter_reduction add>} : (tensor<4x3x16xf32>, tensor<4x3x4xi32>, tensor<4x3x4xf32>) -> tensor<4x3x16xf32>
  return %s : tensor<4x3x16xf32>
}

// -----

// Attention's reshapes: the batch (axis 1 once the sequence leads) becomes
// the leading factor of batch x heads (8x64 -> 32x16: each replica holds 16
// of the 32), then sits under the sequence in the rows of a projection
// (10x32x16 -> 80x64: ten blocks of 8 rows, 4 per replica in each), and
// comes back (80x64 -> 10x8x64). A batch split into two factors keeps the
// leading one (8x6 -> 4x12, 4 -> 2 per replica).
// CHECK-LABEL: func.func @attention
// CHECK: %[[XS:.*]] = dist.replica_split %{{.*}} axis 0 {{.*}} -> tensor<4x10x64xf32>
// CHECK: %[[T:.*]] = graph.transpose %[[XS]] {{.*}} -> tensor<10x4x64xf32>
// CHECK: %[[H:.*]] = graph.reshape %[[T]] {{{.*}}shape = array<i64: 10, 16, 16>} : (tensor<10x4x64xf32>) -> tensor<10x16x16xf32>
// CHECK: %[[R:.*]] = graph.reshape %[[H]] {{{.*}}shape = array<i64: -1, 64>} : (tensor<10x16x16xf32>) -> tensor<40x64xf32>
// CHECK: %[[P:.*]] = graph.matmul %[[R]], %{{.*}} : (tensor<40x64xf32>, tensor<64x64xf32>) -> tensor<40x64xf32>
// CHECK: %[[B:.*]] = graph.reshape %[[P]] {{{.*}}shape = array<i64: 10, 4, 64>} : (tensor<40x64xf32>) -> tensor<10x4x64xf32>
// CHECK: %[[Y:.*]] = graph.transpose %[[B]] {{.*}} -> tensor<4x10x64xf32>
// CHECK: %[[S:.*]] = graph.reshape %{{.*}} {{{.*}}shape = array<i64: 2, 12>} : (tensor<4x6xf32>) -> tensor<2x12xf32>
// CHECK: dist.replica_concat %[[Y]] axis 0 {{.*}} : tensor<4x10x64xf32> -> tensor<8x10x64xf32>
// CHECK: dist.replica_concat %[[S]] axis 0 {{.*}} : tensor<2x12xf32> -> tensor<4x12xf32>
func.func @attention(%x: tensor<8x10x64xf32>, %w: tensor<64x64xf32>, %z: tensor<8x6xf32>) -> (tensor<8x10x64xf32>, tensor<4x12xf32>) {
  %t = graph.transpose %x {perm = array<i64: 1, 0, 2>} : (tensor<8x10x64xf32>) -> tensor<10x8x64xf32>
  %h = graph.reshape %t {shape = array<i64: 10, 32, 16>} : (tensor<10x8x64xf32>) -> tensor<10x32x16xf32>
  %r = graph.reshape %h {shape = array<i64: -1, 64>} : (tensor<10x32x16xf32>) -> tensor<80x64xf32>
  %p = graph.matmul %r, %w : (tensor<80x64xf32>, tensor<64x64xf32>) -> tensor<80x64xf32>
  %b = graph.reshape %p {shape = array<i64: 10, 8, 64>} : (tensor<80x64xf32>) -> tensor<10x8x64xf32>
  %y = graph.transpose %b {perm = array<i64: 1, 0, 2>} : (tensor<10x8x64xf32>) -> tensor<8x10x64xf32>
  %s = graph.reshape %z {shape = array<i64: 4, 12>} : (tensor<8x6xf32>) -> tensor<4x12xf32>
  return %y, %s : tensor<8x10x64xf32>, tensor<4x12xf32>
}

// -----

// A convolution's filter gradient as graph-autodiff builds it: the input
// with the batch as channels (4x3x8x8 -> 3x4x8x8 through a reshape that
// moves the batch under the channel groups) convolved with the output
// gradient, the batch as the filter's input channels. The convolution sums
// over the batch, so each replica's result is a partial sum, which stays
// partial through the slice and the transpose and is all-reduced before
// the update.
graph.variable @f : tensor<5x3x3x3xf32>
// CHECK-LABEL: func.func @filter_gradient
// CHECK: %[[X:.*]] = dist.replica_split %{{.*}} axis 0 {{.*}} -> tensor<2x3x8x8xf32>
// CHECK: %[[G:.*]] = dist.replica_split %{{.*}} axis 0 {{.*}} -> tensor<2x5x6x6xf32>
// CHECK: graph.reshape %[[X]] {{.*}} -> tensor<2x1x3x8x8xf32>
// CHECK: graph.transpose {{.*}} -> tensor<3x1x2x8x8xf32>
// CHECK: %[[IN:.*]] = graph.reshape {{.*}}shape = array<i64: 3, 2, 8, 8>{{.*}} -> tensor<3x2x8x8xf32>
// CHECK: %[[GT:.*]] = graph.transpose %[[G]] {{.*}} -> tensor<5x2x6x6xf32>
// CHECK: %[[DW:.*]] = graph.conv %[[IN]], %[[GT]] {{.*}} : (tensor<3x2x8x8xf32>, tensor<5x2x6x6xf32>) -> tensor<3x5x3x3xf32>
// CHECK: %[[CUT:.*]] = graph.slice %[[DW]]
// CHECK: %[[T:.*]] = graph.transpose %[[CUT]]
// CHECK-NEXT: %[[ALL:.*]] = dist.replica_all_reduce sum %[[T]]
// CHECK: graph.sgd_update %{{.*}}, %[[ALL]], %{{.*}}
func.func @filter_gradient(%x: tensor<4x3x8x8xf32>, %g: tensor<4x5x6x6xf32>) {
  %s = graph.reshape %x {shape = array<i64: 4, 1, 3, 8, 8>} : (tensor<4x3x8x8xf32>) -> tensor<4x1x3x8x8xf32>
  %t = graph.transpose %s {perm = array<i64: 2, 1, 0, 3, 4>} : (tensor<4x1x3x8x8xf32>) -> tensor<3x1x4x8x8xf32>
  %in = graph.reshape %t {shape = array<i64: 3, 4, 8, 8>} : (tensor<3x1x4x8x8xf32>) -> tensor<3x4x8x8xf32>
  %gt = graph.transpose %g {perm = array<i64: 1, 0, 2, 3>} : (tensor<4x5x6x6xf32>) -> tensor<5x4x6x6xf32>
  %dw = graph.conv %in, %gt : (tensor<3x4x8x8xf32>, tensor<5x4x6x6xf32>) -> tensor<3x5x3x3xf32>
  %cut = graph.slice %dw {starts = array<i64: 0, 0, 0, 0>, limits = array<i64: 3, 5, 3, 3>, strides = array<i64: 1, 1, 1, 1>} : (tensor<3x5x3x3xf32>) -> tensor<3x5x3x3xf32>
  %dwt = graph.transpose %cut {perm = array<i64: 1, 0, 2, 3>} : (tensor<3x5x3x3xf32>) -> tensor<5x3x3x3xf32>
  %f = graph.read_variable @f : tensor<5x3x3x3xf32>
  %lr = graph.constant dense<0.1> : tensor<f32>
  %new = graph.sgd_update %f, %dwt, %lr : (tensor<5x3x3x3xf32>, tensor<5x3x3x3xf32>, tensor<f32>) -> tensor<5x3x3x3xf32>
  graph.assign_variable @f, %new : tensor<5x3x3x3xf32>
  return
}

// -----

// Attention's weight gradient: the product over the batch rows at each
// sequence position (a partial sum) summed over the positions stays a
// partial sum, as does its broadcast; the all-reduce follows them.
// CHECK-LABEL: func.func @sum_of_partials
// CHECK: %[[P:.*]] = graph.matmul {{.*}} -> tensor<10x3x5xf32>
// CHECK: %[[S:.*]] = graph.reduce %[[P]] {{.*}} -> tensor<3x5xf32>
// CHECK: %[[B:.*]] = graph.broadcast_to %[[S]] {{.*}} -> tensor<2x3x5xf32>
// CHECK-NEXT: dist.replica_all_reduce sum %[[B]]
func.func @sum_of_partials(%x: tensor<8x10x3xf32>, %g: tensor<8x10x5xf32>) -> tensor<2x3x5xf32> {
  %xt = graph.transpose %x {perm = array<i64: 1, 0, 2>} : (tensor<8x10x3xf32>) -> tensor<10x8x3xf32>
  %gt = graph.transpose %g {perm = array<i64: 1, 0, 2>} : (tensor<8x10x5xf32>) -> tensor<10x8x5xf32>
  %p = graph.matmul %xt, %gt {transpose_lhs} : (tensor<10x8x3xf32>, tensor<10x8x5xf32>) -> tensor<10x3x5xf32>
  %s = graph.reduce %p {axes = array<i64: 0>, kind = #graph<reduce_kind sum>} : (tensor<10x3x5xf32>) -> tensor<3x5xf32>
  %b = graph.broadcast_to %s {shape = array<i64: 2, 3, 5>} : (tensor<3x5xf32>) -> tensor<2x3x5xf32>
  %r = dist.replica_all_reduce sum %b : tensor<2x3x5xf32>
  return %r : tensor<2x3x5xf32>
}
