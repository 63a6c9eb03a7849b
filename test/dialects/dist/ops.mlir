// RUN: graph-opt %s | graph-opt | FileCheck %s
// RUN: graph-opt %s --verify-roundtrip | FileCheck %s

// A two-worker, one-ps job that uses every op: the ps sends the weights to
// both workers, the workers exchange activations and run every collective.

// CHECK: module attributes {dist.cluster = #dist.cluster<{worker = 2 x [CPU:0, GPU:0], ps = 1 x [CPU:0]}>}
module attributes {dist.cluster = #dist.cluster<{worker = 2 x [CPU:0, GPU:0], ps = 1}>} {

  // CHECK-LABEL: dist.task @ps0 on #dist.device<"/job:ps/task:0"> (%{{.*}}: tensor<4x4xf32>) {
  dist.task @ps0 on #dist.device<"/job:ps/task:0"> (%w: tensor<4x4xf32>) {
    // CHECK: dist.send %{{.*}} to #dist.device<"/job:worker/task:0"> key "w->0" : tensor<4x4xf32>
    dist.send %w to #dist.device<"/job:worker/task:0"> key "w->0" : tensor<4x4xf32>
    // CHECK: dist.send %{{.*}} to #dist.device<"/job:worker/task:1"> key "w->1" : tensor<4x4xf32>
    dist.send %w to #dist.device<"/job:worker/task:1"> key "w->1" : tensor<4x4xf32>
    // CHECK: dist.return{{$}}
    dist.return
  }

  // CHECK-LABEL: dist.task @worker0 on #dist.device<"/job:worker/replica:0/task:0"> (%{{.*}}: tensor<4x4xf32>, %{{.*}}: tensor<?x4xf32>) -> (tensor<4x4xf32>, tensor<2x4xf32>)
  // CHECK-SAME: attributes {stage = 0 : i64}
  dist.task @worker0 on #dist.device<"/job:worker/replica:0/task:0">
      (%x: tensor<4x4xf32>, %d: tensor<?x4xf32>) -> (tensor<4x4xf32>, tensor<2x4xf32>)
      attributes {stage = 0 : i64} {
    // CHECK: %[[W:.*]] = dist.recv from #dist.device<"/job:ps/task:0"> key "w->0" : tensor<4x4xf32>
    %w = dist.recv from #dist.device<"/job:ps/task:0"> key "w->0" : tensor<4x4xf32>
    // CHECK: dist.send %[[W]] to #dist.device<"/job:worker/task:1"> key "act" : tensor<4x4xf32>
    dist.send %w to #dist.device<"/job:worker/task:1"> key "act" : tensor<4x4xf32>
    // CHECK: %[[R:.*]] = dist.all_reduce sum %[[W]] group [#dist.device<"/job:worker/task:0">, #dist.device<"/job:worker/task:1">] key "grad" : tensor<4x4xf32> -> tensor<4x4xf32>
    %r = dist.all_reduce sum %w group [#dist.device<"/job:worker/task:0">, #dist.device<"/job:worker/task:1">] key "grad" : tensor<4x4xf32> -> tensor<4x4xf32>
    // CHECK: dist.all_reduce mean
    %m = dist.all_reduce mean %w group [#dist.device<"/job:worker/task:0">, #dist.device<"/job:worker/task:1">] key "mean" : tensor<4x4xf32> -> tensor<4x4xf32>
    // CHECK: dist.all_reduce max
    %mx = dist.all_reduce max %w group [#dist.device<"/job:worker/task:0">, #dist.device<"/job:worker/task:1">] key "max" : tensor<4x4xf32> -> tensor<4x4xf32>
    // CHECK: dist.all_reduce min
    %mn = dist.all_reduce min %w group [#dist.device<"/job:worker/task:0">, #dist.device<"/job:worker/task:1">] key "min" : tensor<4x4xf32> -> tensor<4x4xf32>
    // CHECK: dist.all_reduce prod
    %p = dist.all_reduce prod %w group [#dist.device<"/job:worker/task:0">, #dist.device<"/job:worker/task:1">] key "prod" : tensor<4x4xf32> -> tensor<4x4xf32>
    // CHECK: dist.all_gather %[[W]] axis 1 group [#dist.device<"/job:worker/task:0">, #dist.device<"/job:worker/task:1">] key "gather" : tensor<4x4xf32> -> tensor<4x8xf32>
    %g = dist.all_gather %w axis 1 group [#dist.device<"/job:worker/task:0">, #dist.device<"/job:worker/task:1">] key "gather" : tensor<4x4xf32> -> tensor<4x8xf32>
    // CHECK: dist.all_gather %{{.*}} axis 0 {{.*}} key "gather_dyn" : tensor<?x4xf32> -> tensor<?x4xf32>
    %gd = dist.all_gather %d axis 0 group [#dist.device<"/job:worker/task:0">, #dist.device<"/job:worker/task:1">] key "gather_dyn" : tensor<?x4xf32> -> tensor<?x4xf32>
    // CHECK: %[[S:.*]] = dist.reduce_scatter sum %[[W]] axis 0 group [#dist.device<"/job:worker/task:0">, #dist.device<"/job:worker/task:1">] key "scatter" : tensor<4x4xf32> -> tensor<2x4xf32>
    %s = dist.reduce_scatter sum %w axis 0 group [#dist.device<"/job:worker/task:0">, #dist.device<"/job:worker/task:1">] key "scatter" : tensor<4x4xf32> -> tensor<2x4xf32>
    // CHECK: dist.broadcast %[[W]] root #dist.device<"/job:worker/task:1"> group [#dist.device<"/job:worker/task:0">, #dist.device<"/job:worker/task:1">] key "bcast" : tensor<4x4xf32> -> tensor<4x4xf32>
    %b = dist.broadcast %w root #dist.device<"/job:worker/task:1"> group [#dist.device<"/job:worker/task:0">, #dist.device<"/job:worker/task:1">] key "bcast" : tensor<4x4xf32> -> tensor<4x4xf32>
    // CHECK: dist.all_to_all %[[W]] split 0 concat 1 group [#dist.device<"/job:worker/task:0">, #dist.device<"/job:worker/task:1">] key "a2a" : tensor<4x4xf32> -> tensor<2x8xf32>
    %a = dist.all_to_all %w split 0 concat 1 group [#dist.device<"/job:worker/task:0">, #dist.device<"/job:worker/task:1">] key "a2a" : tensor<4x4xf32> -> tensor<2x8xf32>
    // CHECK: dist.all_to_all %[[W]] split 1 concat 1 {{.*}} : tensor<4x4xf32> -> tensor<4x4xf32>
    %a2 = dist.all_to_all %w split 1 concat 1 group [#dist.device<"/job:worker/task:0">, #dist.device<"/job:worker/task:1">] key "a2a_same" : tensor<4x4xf32> -> tensor<4x4xf32>
    // CHECK: dist.return %[[R]], %[[S]] : tensor<4x4xf32>, tensor<2x4xf32>
    dist.return %r, %s : tensor<4x4xf32>, tensor<2x4xf32>
  }

  // The same collectives in the other worker; the group order is the same.
  // CHECK-LABEL: dist.task @worker1 on #dist.device<"/job:worker/task:1"> (%{{.*}}: tensor<4x4xf32>, %{{.*}}: tensor<?x4xf32>) -> (tensor<4x4xf32>, tensor<2x4xf32>)
  dist.task @worker1 on #dist.device<"/job:worker/task:1">
      (%x: tensor<4x4xf32>, %d: tensor<?x4xf32>) -> (tensor<4x4xf32>, tensor<2x4xf32>) {
    // CHECK: dist.recv from #dist.device<"/job:ps/task:0"> key "w->1"
    %w = dist.recv from #dist.device<"/job:ps/task:0"> key "w->1" : tensor<4x4xf32>
    // CHECK: dist.recv from #dist.device<"/job:worker/task:0"> key "act"
    %act = dist.recv from #dist.device<"/job:worker/task:0"> key "act" : tensor<4x4xf32>
    // A placement on one instance does not make it differ from the others.
    // CHECK: dist.all_reduce sum {{.*}} key "grad" {dist.device = #dist.device<"/job:worker/task:1/device:GPU:0">} : tensor<4x4xf32> -> tensor<4x4xf32>
    %r = dist.all_reduce sum %w group [#dist.device<"/job:worker/task:0">, #dist.device<"/job:worker/task:1">] key "grad" {dist.device = #dist.device<"/job:worker/task:1/device:GPU:0">} : tensor<4x4xf32> -> tensor<4x4xf32>
    %m = dist.all_reduce mean %w group [#dist.device<"/job:worker/task:0">, #dist.device<"/job:worker/task:1">] key "mean" : tensor<4x4xf32> -> tensor<4x4xf32>
    %mx = dist.all_reduce max %w group [#dist.device<"/job:worker/task:0">, #dist.device<"/job:worker/task:1">] key "max" : tensor<4x4xf32> -> tensor<4x4xf32>
    %mn = dist.all_reduce min %w group [#dist.device<"/job:worker/task:0">, #dist.device<"/job:worker/task:1">] key "min" : tensor<4x4xf32> -> tensor<4x4xf32>
    %p = dist.all_reduce prod %w group [#dist.device<"/job:worker/task:0">, #dist.device<"/job:worker/task:1">] key "prod" : tensor<4x4xf32> -> tensor<4x4xf32>
    %g = dist.all_gather %w axis 1 group [#dist.device<"/job:worker/task:0">, #dist.device<"/job:worker/task:1">] key "gather" : tensor<4x4xf32> -> tensor<4x8xf32>
    %gd = dist.all_gather %d axis 0 group [#dist.device<"/job:worker/task:0">, #dist.device<"/job:worker/task:1">] key "gather_dyn" : tensor<?x4xf32> -> tensor<?x4xf32>
    %s = dist.reduce_scatter sum %w axis 0 group [#dist.device<"/job:worker/task:0">, #dist.device<"/job:worker/task:1">] key "scatter" : tensor<4x4xf32> -> tensor<2x4xf32>
    %b = dist.broadcast %w root #dist.device<"/job:worker/task:1"> group [#dist.device<"/job:worker/task:0">, #dist.device<"/job:worker/task:1">] key "bcast" : tensor<4x4xf32> -> tensor<4x4xf32>
    %a = dist.all_to_all %w split 0 concat 1 group [#dist.device<"/job:worker/task:0">, #dist.device<"/job:worker/task:1">] key "a2a" : tensor<4x4xf32> -> tensor<2x8xf32>
    %a2 = dist.all_to_all %w split 1 concat 1 group [#dist.device<"/job:worker/task:0">, #dist.device<"/job:worker/task:1">] key "a2a_same" : tensor<4x4xf32> -> tensor<4x4xf32>
    dist.return %r, %s : tensor<4x4xf32>, tensor<2x4xf32>
  }
}

// A second module, checked on its own: a single-member collective is legal
// (the identity), and integer tensors are fine.

// CHECK-LABEL: dist.task @solo
module attributes {dist.cluster = #dist.cluster<{chief = 1}>} {
  dist.task @solo on #dist.device<"/job:chief/task:0"> (%x: tensor<3xi32>) -> tensor<3xi32> {
    // CHECK: dist.all_reduce sum %{{.*}} group [#dist.device<"/job:chief/task:0">] key "solo" : tensor<3xi32> -> tensor<3xi32>
    %r = dist.all_reduce sum %x group [#dist.device<"/job:chief/task:0">] key "solo" : tensor<3xi32> -> tensor<3xi32>
    dist.return %r : tensor<3xi32>
  }
}

// The cross-replica placeholders inside a replicated function: the slice
// ratio is the function's dist.replicas.

// CHECK-LABEL: func @replicated
// CHECK-SAME: dist.replicas = 2
func.func @replicated(%x: tensor<8x784xf32>, %g: tensor<784x10xf32>) -> (tensor<8x10xf32>, tensor<784x10xf32>) attributes {dist.replicas = 2 : i64} {
  // CHECK: %[[XR:.*]] = dist.replica_split %{{.*}} axis 0 : tensor<8x784xf32> -> tensor<4x784xf32>
  %xr = dist.replica_split %x axis 0 : tensor<8x784xf32> -> tensor<4x784xf32>
  %yr = graph.matmul %xr, %g : (tensor<4x784xf32>, tensor<784x10xf32>) -> tensor<4x10xf32>
  // CHECK: dist.replica_concat %{{.*}} axis 0 : tensor<4x10xf32> -> tensor<8x10xf32>
  %y = dist.replica_concat %yr axis 0 : tensor<4x10xf32> -> tensor<8x10xf32>
  // CHECK: dist.replica_all_reduce mean %{{.*}} : tensor<784x10xf32>
  %gm = dist.replica_all_reduce mean %g : tensor<784x10xf32>
  return %y, %gm : tensor<8x10xf32>, tensor<784x10xf32>
}

// Outside a replicated function, any whole ratio is accepted, on any axis.

// CHECK-LABEL: func @unreplicated
func.func @unreplicated(%x: tensor<3x6xf32>) -> tensor<3x6xf32> {
  // CHECK: dist.replica_split %{{.*}} axis 1 : tensor<3x6xf32> -> tensor<3x2xf32>
  %s = dist.replica_split %x axis 1 : tensor<3x6xf32> -> tensor<3x2xf32>
  // CHECK: dist.replica_concat %{{.*}} axis 1 : tensor<3x2xf32> -> tensor<3x6xf32>
  %c = dist.replica_concat %s axis 1 : tensor<3x2xf32> -> tensor<3x6xf32>
  return %c : tensor<3x6xf32>
}

// The tensor-parallel placeholder: one input and one result per member task.

// CHECK-LABEL: func @group_reduce
func.func @group_reduce(%a: tensor<4x8xf32>, %b: tensor<4x8xf32>) -> tensor<4x8xf32> {
  // CHECK: %{{.*}}:2 = dist.group_all_reduce sum %{{.*}}, %{{.*}} group [#dist.device<"/job:worker/task:0">, #dist.device<"/job:worker/task:1">] : tensor<4x8xf32>, tensor<4x8xf32> -> tensor<4x8xf32>, tensor<4x8xf32>
  %s:2 = dist.group_all_reduce sum %a, %b group [#dist.device<"/job:worker/task:0">, #dist.device<"/job:worker/task:1">] : tensor<4x8xf32>, tensor<4x8xf32> -> tensor<4x8xf32>, tensor<4x8xf32>
  return %s#0 : tensor<4x8xf32>
}
