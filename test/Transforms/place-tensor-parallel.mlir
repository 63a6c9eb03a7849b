// RUN: graph-opt %s -split-input-file --dist-place="strategy=tensor-parallel tensor-parallel=2" | FileCheck %s

// A Megatron MLP block on two shards: the first weight split by columns,
// its bias with it, the second weight by rows, one sum all-reduce of the
// partial products, then the (replicated) second bias. Each weight shard is
// a variable homed on its task holding its slice of the initial value; the
// input enters and the output leaves on task 0.

// CHECK: module attributes {dist.cluster = #dist.cluster<{worker = 2 x [CPU:0]}>}
// CHECK-DAG: graph.variable @w1_tp0 : tensor<4x2xf32> = dense<{{\[\[}}0.000000e+00, 1.000000e+00], [4.000000e+00, 5.000000e+00], [8.000000e+00, 9.000000e+00], [1.200000e+01, 1.300000e+01]]> {dist.device = #dist.device<"/job:worker/task:0">}
// CHECK-DAG: graph.variable @w1_tp1 : tensor<4x2xf32> = dense<{{\[\[}}2.000000e+00, 3.000000e+00], [6.000000e+00, 7.000000e+00], [1.000000e+01, 1.100000e+01], [1.400000e+01, 1.500000e+01]]> {dist.device = #dist.device<"/job:worker/task:1">}
// CHECK-DAG: graph.variable @w2_tp0 : tensor<2x3xf32> = dense<{{\[\[}}0.000000e+00, 1.000000e+00, 2.000000e+00], [3.000000e+00, 4.000000e+00, 5.000000e+00]]> {dist.device = #dist.device<"/job:worker/task:0">}
// CHECK-DAG: graph.variable @w2_tp1 : tensor<2x3xf32> = dense<{{\[\[}}6.000000e+00, 7.000000e+00, 8.000000e+00], [9.000000e+00, 1.000000e+01, 1.100000e+01]]> {dist.device = #dist.device<"/job:worker/task:1">}
// CHECK-NOT: graph.variable @w1 :
// CHECK-LABEL: func.func @mlp
// CHECK-SAME: (%[[X:.*]]: tensor<8x4xf32> {dist.device = #dist.device<"/job:worker/task:0">})
// CHECK-SAME: -> (tensor<8x3xf32> {dist.device = #dist.device<"/job:worker/task:0">})
// CHECK-NOT: dist.replicas
// CHECK: %[[W0:.*]] = graph.read_variable @w1_tp0 {dist.device = #dist.device<"/job:worker/task:0">} : tensor<4x2xf32>
// CHECK: %[[W1:.*]] = graph.read_variable @w1_tp1 {dist.device = #dist.device<"/job:worker/task:1">} : tensor<4x2xf32>
// CHECK: %[[H0:.*]] = graph.matmul %[[X]], %[[W0]] {dist.device = #dist.device<"/job:worker/task:0">} : (tensor<8x4xf32>, tensor<4x2xf32>) -> tensor<8x2xf32>
// CHECK: %[[H1:.*]] = graph.matmul %[[X]], %[[W1]] {dist.device = #dist.device<"/job:worker/task:1">} : (tensor<8x4xf32>, tensor<4x2xf32>) -> tensor<8x2xf32>
// CHECK: %[[B0:.*]] = graph.constant {dist.device = #dist.device<"/job:worker/task:0">} dense<[1.000000e+00, 2.000000e+00]> : tensor<2xf32>
// CHECK: %[[B1:.*]] = graph.constant {dist.device = #dist.device<"/job:worker/task:1">} dense<[3.000000e+00, 4.000000e+00]> : tensor<2xf32>
// CHECK: graph.add %[[H0]], %[[B0]] {dist.device = #dist.device<"/job:worker/task:0">} : (tensor<8x2xf32>, tensor<2xf32>) -> tensor<8x2xf32>
// CHECK: graph.add %[[H1]], %[[B1]] {dist.device = #dist.device<"/job:worker/task:1">}
// CHECK: %[[R0:.*]] = graph.relu {{.*}}task:0{{.*}} -> tensor<8x2xf32>
// CHECK: %[[R1:.*]] = graph.relu {{.*}}task:1{{.*}} -> tensor<8x2xf32>
// CHECK: %[[V0:.*]] = graph.read_variable @w2_tp0 {{.*}}task:0{{.*}} : tensor<2x3xf32>
// CHECK: %[[V1:.*]] = graph.read_variable @w2_tp1 {{.*}}task:1{{.*}} : tensor<2x3xf32>
// CHECK: %[[P0:.*]] = graph.matmul %[[R0]], %[[V0]] {{.*}}task:0{{.*}} -> tensor<8x3xf32>
// CHECK: %[[P1:.*]] = graph.matmul %[[R1]], %[[V1]] {{.*}}task:1{{.*}} -> tensor<8x3xf32>
// CHECK: %[[S:.*]]:2 = dist.group_all_reduce sum %[[P0]], %[[P1]] group [#dist.device<"/job:worker/task:0">, #dist.device<"/job:worker/task:1">] {dist.device = #dist.device<"/job:worker/task:0">}
// CHECK-NOT: dist.group_all_reduce
// The second bias is not split: every shard adds it to the whole sum.
// CHECK: %[[C0:.*]] = graph.constant {{.*}}task:0{{.*}} dense<5.000000e-01> : tensor<3xf32>
// CHECK: %[[C1:.*]] = graph.constant {{.*}}task:1{{.*}} dense<5.000000e-01> : tensor<3xf32>
// CHECK: %[[Y0:.*]] = graph.add %[[S]]#0, %[[C0]] {{.*}}task:0
// CHECK: graph.add %[[S]]#1, %[[C1]] {{.*}}task:1
// CHECK: return %[[Y0]] : tensor<8x3xf32>
module {
  graph.variable @w1 : tensor<4x4xf32> = dense<[[0.0, 1.0, 2.0, 3.0], [4.0, 5.0, 6.0, 7.0], [8.0, 9.0, 10.0, 11.0], [12.0, 13.0, 14.0, 15.0]]>
  graph.variable @w2 : tensor<4x3xf32> = dense<[[0.0, 1.0, 2.0], [3.0, 4.0, 5.0], [6.0, 7.0, 8.0], [9.0, 10.0, 11.0]]>
  func.func @mlp(%x: tensor<8x4xf32>) -> tensor<8x3xf32> {
    %w1 = graph.read_variable @w1 : tensor<4x4xf32>
    %h = graph.matmul %x, %w1 : (tensor<8x4xf32>, tensor<4x4xf32>) -> tensor<8x4xf32>
    %b1 = graph.constant dense<[1.0, 2.0, 3.0, 4.0]> : tensor<4xf32>
    %hb = graph.add %h, %b1 : (tensor<8x4xf32>, tensor<4xf32>) -> tensor<8x4xf32>
    %r = graph.relu %hb : (tensor<8x4xf32>) -> tensor<8x4xf32>
    %w2 = graph.read_variable @w2 : tensor<4x3xf32>
    %p = graph.matmul %r, %w2 : (tensor<8x4xf32>, tensor<4x3xf32>) -> tensor<8x3xf32>
    %b2 = graph.constant dense<0.5> : tensor<3xf32>
    %y = graph.add %p, %b2 : (tensor<8x3xf32>, tensor<3xf32>) -> tensor<8x3xf32>
    return %y : tensor<8x3xf32>
  }
}

// -----

// Attention as PyTorch exports it: one fused Q/K/V projection (a weight of
// 3 x 4 heads x 2), sliced into Q, K and V, heads merged into the batch
// axis (2 x 4 = 8), scores, softmax, and the output projection (transposed,
// as nn.Linear stores it). Each shard takes its two heads' columns of Q, of
// K and of V (runs of 4 in groups of 8: columns 0-3, 8-11, 16-19 on shard
// 0), so the slices, the head reshapes and the batched matmuls all stay
// local; the output projection is split by rows and all-reduced once.

// CHECK: graph.variable @qkv_tp0 : tensor<8x12xf32>
// CHECK-SAME: task:0
// CHECK: graph.variable @qkv_tp1 : tensor<8x12xf32>
// CHECK-SAME: task:1
// CHECK: graph.variable @out_tp0 : tensor<8x4xf32>
// CHECK: func.func @attention
// CHECK: graph.matmul {{.*}}task:0{{.*}} : (tensor<3x8xf32>, tensor<8x12xf32>) -> tensor<3x12xf32>
// CHECK: graph.slice {{.*}}task:0{{.*}}limits = array<i64: 3, 4>, starts = array<i64: 0, 0>{{.*}} -> tensor<3x4xf32>
// CHECK: graph.slice {{.*}}task:0{{.*}}limits = array<i64: 3, 8>, starts = array<i64: 0, 4>{{.*}} -> tensor<3x4xf32>
// CHECK: graph.reshape {{.*}}task:0{{.*}}shape = array<i64: 3, 2, 2>{{.*}} -> tensor<3x2x2xf32>
// CHECK: graph.matmul {{.*}}task:0{{.*}} : (tensor<2x3x2xf32>, tensor<2x2x3xf32>) -> tensor<2x3x3xf32>
// CHECK: graph.softmax {{.*}}task:0{{.*}} -> tensor<2x3x3xf32>
// CHECK: graph.reshape {{.*}}task:0{{.*}}shape = array<i64: 3, 4>{{.*}} -> tensor<3x4xf32>
// CHECK: graph.read_variable @out_tp0 {{.*}}task:0{{.*}} : tensor<8x4xf32>
// CHECK: graph.matmul {{.*}}transpose_rhs{{.*}} : (tensor<3x4xf32>, tensor<8x4xf32>) -> tensor<3x8xf32>
// CHECK: dist.group_all_reduce sum
// CHECK-NOT: dist.group_all_reduce
// CHECK: return
module {
  graph.variable @qkv : tensor<8x24xf32>
  graph.variable @out : tensor<8x8xf32>
  func.func @attention(%x: tensor<3x8xf32>) -> tensor<3x8xf32> {
    %w = graph.read_variable @qkv : tensor<8x24xf32>
    %qkv = graph.matmul %x, %w : (tensor<3x8xf32>, tensor<8x24xf32>) -> tensor<3x24xf32>
    %q = graph.slice %qkv {starts = array<i64: 0, 0>, limits = array<i64: 3, 8>, strides = array<i64: 1, 1>} : (tensor<3x24xf32>) -> tensor<3x8xf32>
    %k = graph.slice %qkv {starts = array<i64: 0, 8>, limits = array<i64: 3, 16>, strides = array<i64: 1, 1>} : (tensor<3x24xf32>) -> tensor<3x8xf32>
    %v = graph.slice %qkv {starts = array<i64: 0, 16>, limits = array<i64: 3, 24>, strides = array<i64: 1, 1>} : (tensor<3x24xf32>) -> tensor<3x8xf32>
    %qh = graph.reshape %q {shape = array<i64: 3, 4, 2>} : (tensor<3x8xf32>) -> tensor<3x4x2xf32>
    %kh = graph.reshape %k {shape = array<i64: 3, 4, 2>} : (tensor<3x8xf32>) -> tensor<3x4x2xf32>
    %vh = graph.reshape %v {shape = array<i64: 3, 4, 2>} : (tensor<3x8xf32>) -> tensor<3x4x2xf32>
    %qt = graph.transpose %qh {perm = array<i64: 1, 0, 2>} : (tensor<3x4x2xf32>) -> tensor<4x3x2xf32>
    %kt = graph.transpose %kh {perm = array<i64: 1, 2, 0>} : (tensor<3x4x2xf32>) -> tensor<4x2x3xf32>
    %vt = graph.transpose %vh {perm = array<i64: 1, 0, 2>} : (tensor<3x4x2xf32>) -> tensor<4x3x2xf32>
    %s = graph.matmul %qt, %kt : (tensor<4x3x2xf32>, tensor<4x2x3xf32>) -> tensor<4x3x3xf32>
    %p = graph.softmax %s : (tensor<4x3x3xf32>) -> tensor<4x3x3xf32>
    %a = graph.matmul %p, %vt : (tensor<4x3x3xf32>, tensor<4x3x2xf32>) -> tensor<4x3x2xf32>
    %at = graph.transpose %a {perm = array<i64: 1, 0, 2>} : (tensor<4x3x2xf32>) -> tensor<3x4x2xf32>
    %cat = graph.reshape %at {shape = array<i64: 3, 8>} : (tensor<3x4x2xf32>) -> tensor<3x8xf32>
    %wo = graph.read_variable @out : tensor<8x8xf32>
    %y = graph.matmul %cat, %wo {transpose_rhs} : (tensor<3x8xf32>, tensor<8x8xf32>) -> tensor<3x8xf32>
    return %y : tensor<3x8xf32>
  }
}

// -----

// A lone fully connected layer (a CNN's classifier): no second matmul to
// pair a column split with, so the weight is split by rows and each shard
// multiplies its slice of the (replicated) features. The softmax after it
// needs whole rows, so the column split is not taken. A weight read twice
// (@shared) is not split; every shard reads its own copy.

// CHECK-LABEL: graph.variable @fc_tp0 : tensor<4x3xf32>
// CHECK: graph.variable @shared : tensor<3xf32> {dist.device = #dist.device<"/job:worker/task:0">}
// CHECK: graph.variable @shared_t1 : tensor<3xf32> {dist.device = #dist.device<"/job:worker/task:1">, graph.replica_of = "shared"}
// CHECK-LABEL: func.func @classifier
// CHECK: %[[F0:.*]] = graph.slice %arg0 {{.*}}task:0{{.*}}limits = array<i64: 2, 4>, starts = array<i64: 0, 0>{{.*}} -> tensor<2x4xf32>
// CHECK: graph.matmul %[[F0]], {{.*}} : (tensor<2x4xf32>, tensor<4x3xf32>) -> tensor<2x3xf32>
// CHECK: %[[F1:.*]] = graph.slice %arg0 {{.*}}task:1{{.*}}limits = array<i64: 2, 8>, starts = array<i64: 0, 4>{{.*}} -> tensor<2x4xf32>
// CHECK: graph.matmul %[[F1]],
// CHECK: dist.group_all_reduce sum
// CHECK: graph.read_variable @shared {{.*}}task:0
// CHECK: graph.read_variable @shared_t1 {{.*}}task:1
// CHECK: graph.softmax {{.*}}task:0{{.*}} -> tensor<2x3xf32>
module {
  graph.variable @fc : tensor<8x3xf32>
  graph.variable @shared : tensor<3xf32>
  func.func @classifier(%x: tensor<2x8xf32>) -> (tensor<2x3xf32>, tensor<3xf32>) {
    %w = graph.read_variable @fc : tensor<8x3xf32>
    %y = graph.matmul %x, %w : (tensor<2x8xf32>, tensor<8x3xf32>) -> tensor<2x3xf32>
    %b = graph.read_variable @shared : tensor<3xf32>
    %yb = graph.add %y, %b : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
    %p = graph.softmax %yb {axis = 1 : i64} : (tensor<2x3xf32>) -> tensor<2x3xf32>
    %b2 = graph.read_variable @shared : tensor<3xf32>
    return %p, %b2 : tensor<2x3xf32>, tensor<3xf32>
  }
}
