// RUN: graph-opt %s -split-input-file --dist-partition | FileCheck %s

// A one-task job: the placed function becomes dist.task @main, keeping its
// argument and result names; the placements go, the task says where.

// CHECK-LABEL: module attributes {dist.cluster = #dist.cluster<{worker = 1 x [CPU:0]}>}
// CHECK-NOT: func.func
// CHECK: dist.task @main on #dist.device<"/job:worker/task:0">
// CHECK-SAME: (%[[X:.*]]: tensor<4xf32> {graph.name = "x"}) -> (tensor<4xf32> {graph.name = "y"}) {
// CHECK-NEXT: %[[R:.*]] = graph.relu %[[X]] : (tensor<4xf32>) -> tensor<4xf32>
// CHECK-NEXT: dist.return %[[R]] : tensor<4xf32>
// CHECK-NOT: dist.send
module attributes {dist.cluster = #dist.cluster<{worker = 1}>} {
  func.func @main(%x: tensor<4xf32> {dist.device = #dist.device<"/job:worker/task:0">, graph.name = "x"})
      -> (tensor<4xf32> {dist.device = #dist.device<"/job:worker/task:0">})
      attributes {graph.output_names = ["y"]} {
    %r = graph.relu %x {dist.device = #dist.device<"/job:worker/task:0">} : (tensor<4xf32>) -> tensor<4xf32>
    return %r : tensor<4xf32>
  }
}

// -----

// Three tasks. Each cut edge is one send right after the definition and one
// recv right before the first use, once per (value, destination): %mm goes
// to worker0 once for two users. The read of @w, placed on worker1, runs in
// the variable's home ps0, which sends the value. A control input from
// another task is an empty token. An unused task still gets a program.

// CHECK-LABEL: module attributes {dist.cluster = #dist.cluster<{worker = 3 x [CPU:0], ps = 1 x [CPU:0]}>}
// CHECK: graph.variable @w : tensor<4x4xf32> {dist.device = #dist.device<"/job:ps/task:0">}
// CHECK-LABEL: dist.task @worker0 on #dist.device<"/job:worker/task:0">
// CHECK-SAME: () -> (tensor<2x4xf32> {graph.name = "y"})
// CHECK-NEXT: %[[MM:.*]] = dist.recv from #dist.device<"/job:worker/task:1"> key "mm/worker1->worker0" : tensor<2x4xf32>
// CHECK-NEXT: %[[R:.*]] = graph.relu %[[MM]]
// CHECK-NEXT: %[[N:.*]] = graph.neg %[[MM]]
// CHECK-NEXT: dist.recv from #dist.device<"/job:worker/task:1"> key "^init/worker1->worker0" : tensor<0xi8>
// CHECK-NEXT: %[[A:.*]] = graph.add %[[R]], %[[N]] {graph.control_deps = ["init"]}
// CHECK-NEXT: dist.return %[[A]]
// CHECK-LABEL: dist.task @worker1 on #dist.device<"/job:worker/task:1">
// CHECK-SAME: (%[[X:.*]]: tensor<2x4xf32> {graph.name = "x"}) {
// CHECK-NEXT: %[[INIT:.*]] = graph.exp %[[X]]
// CHECK-NEXT: %[[TOK:.*]] = graph.constant dense<> : tensor<0xi8>
// CHECK-NEXT: dist.send %[[TOK]] to #dist.device<"/job:worker/task:0"> key "^init/worker1->worker0" : tensor<0xi8>
// CHECK-NEXT: %[[W:.*]] = dist.recv from #dist.device<"/job:ps/task:0"> key "w/read/ps0->worker1" : tensor<4x4xf32>
// CHECK-NEXT: %[[MM1:.*]] = graph.matmul %[[X]], %[[W]]
// CHECK-NEXT: dist.send %[[MM1]] to #dist.device<"/job:worker/task:0"> key "mm/worker1->worker0" : tensor<2x4xf32>
// CHECK-NEXT: dist.return
// CHECK-LABEL: dist.task @worker2 on #dist.device<"/job:worker/task:2"> () {
// CHECK-NEXT: dist.return
// CHECK-LABEL: dist.task @ps0 on #dist.device<"/job:ps/task:0"> () {
// CHECK-NEXT: %[[WR:.*]] = graph.read_variable @w : tensor<4x4xf32>
// CHECK-NEXT: dist.send %[[WR]] to #dist.device<"/job:worker/task:1"> key "w/read/ps0->worker1"
// CHECK-NEXT: dist.return
module attributes {dist.cluster = #dist.cluster<{worker = 3, ps = 1}>} {
  graph.variable @w : tensor<4x4xf32> {dist.device = #dist.device<"/job:ps/task:0">}
  func.func @main(%x: tensor<2x4xf32> {dist.device = #dist.device<"/job:worker/task:1">, graph.name = "x"})
      -> (tensor<2x4xf32> {dist.device = #dist.device<"/job:worker/task:0">, graph.name = "y"}) {
    %init = graph.exp %x {dist.device = #dist.device<"/job:worker/task:1">} : (tensor<2x4xf32>) -> tensor<2x4xf32> loc("m.pb:init")
    %w = graph.read_variable @w {dist.device = #dist.device<"/job:worker/task:1">} : tensor<4x4xf32> loc("m.pb:w/read")
    %mm = graph.matmul %x, %w {dist.device = #dist.device<"/job:worker/task:1">} : (tensor<2x4xf32>, tensor<4x4xf32>) -> tensor<2x4xf32> loc("m.pb:mm")
    %r = graph.relu %mm {dist.device = #dist.device<"/job:worker/task:0">} : (tensor<2x4xf32>) -> tensor<2x4xf32> loc("m.pb:relu")
    %n = graph.neg %mm {dist.device = #dist.device<"/job:worker/task:0">} : (tensor<2x4xf32>) -> tensor<2x4xf32> loc("m.pb:neg")
    %a = graph.add %r, %n {dist.device = #dist.device<"/job:worker/task:0">, graph.control_deps = ["init"]} : (tensor<2x4xf32>, tensor<2x4xf32>) -> tensor<2x4xf32> loc("m.pb:add")
    return %a : tensor<2x4xf32>
  }
}

// -----

// A hand-partitioned module is left as it is.

// CHECK-LABEL: dist.task @only
// CHECK: func.func @helper
module attributes {dist.cluster = #dist.cluster<{worker = 1}>} {
  dist.task @only on #dist.device<"/job:worker/task:0"> () {
    dist.return
  }
  func.func @helper(%x: tensor<4xf32>) -> tensor<4xf32> {
    return %x : tensor<4xf32>
  }
}

// -----

// Two replicas of a training step (as dist-place strategy=replicas writes
// it). The input's owner (worker0) slices the batch and sends replica 1 its
// rows; replica 1 sends its output rows back for the concat; the gradient
// all-reduce spans both replicas under one key; the variable has one copy
// per replica, each read and assigned in its own task.

// CHECK-LABEL: module attributes {dist.cluster = #dist.cluster<{worker = 2 x [CPU:0]}>}
// CHECK: graph.variable @w : tensor<4x3xf32> = dense<1.000000e+00> {dist.device = #dist.device<"/job:worker/task:0">}
// CHECK-NEXT: graph.variable @w_r1 : tensor<4x3xf32> = dense<1.000000e+00> {dist.device = #dist.device<"/job:worker/task:1">, graph.replica_of = "w"}
// CHECK-LABEL: dist.task @worker0 on #dist.device<"/job:worker/task:0">
// CHECK-SAME: (%[[X:.*]]: tensor<6x4xf32> {graph.name = "x"}, %[[LR:.*]]: tensor<f32> {graph.name = "lr"}) -> (tensor<6x3xf32> {graph.name = "y"})
// CHECK-NEXT: dist.send %[[LR]] to #dist.device<"/job:worker/task:1"> key "lr/worker0->worker1" : tensor<f32>
// CHECK-NEXT: %[[X0:.*]] = graph.slice %[[X]] {limits = array<i64: 3, 4>, starts = array<i64: 0, 0>, strides = array<i64: 1, 1>}
// CHECK-NEXT: %[[X1:.*]] = graph.slice %[[X]] {limits = array<i64: 6, 4>, starts = array<i64: 3, 0>, strides = array<i64: 1, 1>}
// CHECK-NEXT: dist.send %[[X1]] to #dist.device<"/job:worker/task:1"> key "x/r1/worker0->worker1" : tensor<3x4xf32>
// CHECK-NEXT: %[[W:.*]] = graph.read_variable @w : tensor<4x3xf32>
// CHECK-NEXT: %[[Y:.*]] = graph.matmul %[[X0]], %[[W]]
// CHECK-NEXT: %[[G:.*]] = graph.matmul %[[X0]], %[[Y]] {transpose_lhs}
// CHECK-NEXT: %[[GS:.*]] = dist.all_reduce sum %[[G]] group [#dist.device<"/job:worker/task:0">, #dist.device<"/job:worker/task:1">] key "grad/all_reduce" : tensor<4x3xf32> -> tensor<4x3xf32>
// CHECK-NEXT: %[[W1:.*]] = graph.sgd_update %[[W]], %[[GS]], %[[LR]]
// CHECK-NEXT: graph.assign_variable @w, %[[W1]]
// CHECK-NEXT: %[[Y1:.*]] = dist.recv from #dist.device<"/job:worker/task:1"> key "y/r1/worker1->worker0" : tensor<3x3xf32>
// CHECK-NEXT: %[[CAT:.*]] = graph.concat %[[Y]], %[[Y1]] {axis = 0 : i64}
// CHECK-NEXT: dist.return %[[CAT]] : tensor<6x3xf32>
// CHECK-LABEL: dist.task @worker1 on #dist.device<"/job:worker/task:1"> () {
// CHECK-NEXT: %[[RX:.*]] = dist.recv from #dist.device<"/job:worker/task:0"> key "x/r1/worker0->worker1" : tensor<3x4xf32>
// CHECK-NEXT: %[[RW:.*]] = graph.read_variable @w_r1 : tensor<4x3xf32>
// CHECK-NEXT: %[[RY:.*]] = graph.matmul %[[RX]], %[[RW]]
// CHECK-NEXT: dist.send %[[RY]] to #dist.device<"/job:worker/task:0"> key "y/r1/worker1->worker0" : tensor<3x3xf32>
// CHECK-NEXT: %[[RG:.*]] = graph.matmul %[[RX]], %[[RY]] {transpose_lhs}
// CHECK-NEXT: %[[RGS:.*]] = dist.all_reduce sum %[[RG]] {{.*}} key "grad/all_reduce"
// CHECK-NEXT: %[[RLR:.*]] = dist.recv from #dist.device<"/job:worker/task:0"> key "lr/worker0->worker1" : tensor<f32>
// CHECK-NEXT: %[[RW1:.*]] = graph.sgd_update %[[RW]], %[[RGS]], %[[RLR]]
// CHECK-NEXT: graph.assign_variable @w_r1, %[[RW1]]
// CHECK-NEXT: dist.return
module attributes {dist.cluster = #dist.cluster<{worker = 2}>} {
  graph.variable @w : tensor<4x3xf32> = dense<1.0> {dist.device = #dist.device<"/job:worker">}
  func.func @main(%x: tensor<6x4xf32> {dist.device = #dist.device<"/job:worker/task:0">, graph.name = "x"},
                  %lr: tensor<f32> {dist.device = #dist.device<"/job:worker/task:0">, graph.name = "lr"})
      -> (tensor<6x3xf32> {dist.device = #dist.device<"/job:worker/task:0">, graph.name = "y"})
      attributes {dist.replicas = 2 : i64} {
    %xs = dist.replica_split %x axis 0 {dist.device = #dist.device<"/job:worker">} : tensor<6x4xf32> -> tensor<3x4xf32> loc("m.pb:x")
    %w = graph.read_variable @w {dist.device = #dist.device<"/job:worker">} : tensor<4x3xf32> loc("m.pb:w")
    %y = graph.matmul %xs, %w {dist.device = #dist.device<"/job:worker">} : (tensor<3x4xf32>, tensor<4x3xf32>) -> tensor<3x3xf32> loc("m.pb:y")
    %g = graph.matmul %xs, %y {dist.device = #dist.device<"/job:worker">, transpose_lhs} : (tensor<3x4xf32>, tensor<3x3xf32>) -> tensor<4x3xf32> loc("m.pb:g")
    %gs = dist.replica_all_reduce sum %g {dist.device = #dist.device<"/job:worker">} : tensor<4x3xf32> loc("m.pb:grad")
    %w1 = graph.sgd_update %w, %gs, %lr {dist.device = #dist.device<"/job:worker">} : (tensor<4x3xf32>, tensor<4x3xf32>, tensor<f32>) -> tensor<4x3xf32> loc("m.pb:update")
    graph.assign_variable @w, %w1 {dist.device = #dist.device<"/job:worker">} : tensor<4x3xf32> loc("m.pb:assign")
    %yc = dist.replica_concat %y axis 0 {dist.device = #dist.device<"/job:worker/task:0">} : tensor<3x3xf32> -> tensor<6x3xf32> loc("m.pb:y")
    return %yc : tensor<6x3xf32>
  }
}

// -----

// Two replicas with the variable on a parameter server (strategy=ps
// replicas=2): one read on ps0 sent to both replicas, the all-reduced
// gradient sent from replica 0 to ps0, which updates in place.

// CHECK-LABEL: module attributes {dist.cluster = #dist.cluster<{worker = 2 x [CPU:0], ps = 1 x [CPU:0]}>}
// CHECK: graph.variable @w : tensor<4x3xf32> {dist.device = #dist.device<"/job:ps/task:0">}
// CHECK-NOT: graph.variable
// CHECK-LABEL: dist.task @worker0
// CHECK: dist.recv from #dist.device<"/job:ps/task:0"> key "w/ps0->worker0"
// CHECK: %[[GS:.*]] = dist.all_reduce sum
// CHECK-NEXT: dist.send %[[GS]] to #dist.device<"/job:ps/task:0"> key "grad/worker0->ps0"
// CHECK-LABEL: dist.task @worker1
// CHECK: dist.recv from #dist.device<"/job:ps/task:0"> key "w/ps0->worker1"
// CHECK: dist.all_reduce sum
// CHECK-NOT: dist.send
// CHECK-LABEL: dist.task @ps0
// CHECK-NEXT: %[[W:.*]] = graph.read_variable @w
// CHECK-NEXT: dist.send %[[W]] to #dist.device<"/job:worker/task:0"> key "w/ps0->worker0"
// CHECK-NEXT: dist.send %[[W]] to #dist.device<"/job:worker/task:1"> key "w/ps0->worker1"
// CHECK-NEXT: %[[G:.*]] = dist.recv from #dist.device<"/job:worker/task:0"> key "grad/worker0->ps0"
// CHECK-NEXT: %[[LR:.*]] = dist.recv from #dist.device<"/job:worker/task:0"> key "lr/worker0->ps0"
// CHECK-NEXT: %[[W1:.*]] = graph.sgd_update %[[W]], %[[G]], %[[LR]]
// CHECK-NEXT: graph.assign_variable @w, %[[W1]]
module attributes {dist.cluster = #dist.cluster<{worker = 2, ps = 1}>} {
  graph.variable @w : tensor<4x3xf32> {dist.device = #dist.device<"/job:ps/task:0">}
  func.func @main(%x: tensor<6x4xf32> {dist.device = #dist.device<"/job:worker/task:0">, graph.name = "x"},
                  %lr: tensor<f32> {dist.device = #dist.device<"/job:worker/task:0">, graph.name = "lr"})
      attributes {dist.replicas = 2 : i64} {
    %xs = dist.replica_split %x axis 0 {dist.device = #dist.device<"/job:worker">} : tensor<6x4xf32> -> tensor<3x4xf32> loc("m.pb:x")
    %w = graph.read_variable @w {dist.device = #dist.device<"/job:ps/task:0">} : tensor<4x3xf32> loc("m.pb:w")
    %y = graph.matmul %xs, %w {dist.device = #dist.device<"/job:worker">} : (tensor<3x4xf32>, tensor<4x3xf32>) -> tensor<3x3xf32> loc("m.pb:y")
    %g = graph.matmul %xs, %y {dist.device = #dist.device<"/job:worker">, transpose_lhs} : (tensor<3x4xf32>, tensor<3x3xf32>) -> tensor<4x3xf32> loc("m.pb:g")
    %gs = dist.replica_all_reduce sum %g {dist.device = #dist.device<"/job:worker">} : tensor<4x3xf32> loc("m.pb:grad")
    %w1 = graph.sgd_update %w, %gs, %lr {dist.device = #dist.device<"/job:ps/task:0">} : (tensor<4x3xf32>, tensor<4x3xf32>, tensor<f32>) -> tensor<4x3xf32> loc("m.pb:update")
    graph.assign_variable @w, %w1 {dist.device = #dist.device<"/job:ps/task:0">} : tensor<4x3xf32> loc("m.pb:assign")
    return
  }
}

// -----

// Every input and output of the job gets a graph.name unique across the
// job: its own, else inputN / outputN, a repeat made unique with _K
// (inputs first, then outputs, as the single-task bundle names them).

// CHECK-LABEL: dist.task @worker0
// CHECK-SAME: (%{{.*}}: tensor<4xf32> {graph.name = "input0"}) -> (tensor<4xf32> {graph.name = "out_1"})
// CHECK-LABEL: dist.task @worker1
// CHECK-SAME: (%{{.*}}: tensor<4xf32> {graph.name = "out"}) -> (tensor<4xf32> {graph.name = "output1"}, tensor<4xf32> {graph.name = "out_2"})
module attributes {dist.cluster = #dist.cluster<{worker = 2}>} {
  func.func @main(%x: tensor<4xf32> {dist.device = #dist.device<"/job:worker/task:0">},
                  %y: tensor<4xf32> {dist.device = #dist.device<"/job:worker/task:1">, graph.name = "out"})
      -> (tensor<4xf32> {dist.device = #dist.device<"/job:worker/task:0">, graph.name = "out"},
          tensor<4xf32> {dist.device = #dist.device<"/job:worker/task:1">},
          tensor<4xf32> {dist.device = #dist.device<"/job:worker/task:1">, graph.name = "out"}) {
    return %x, %y, %y : tensor<4xf32>, tensor<4xf32>, tensor<4xf32>
  }
}

// -----

// A read with no TF node name is keyed after its variable.

// CHECK-LABEL: dist.task @worker0
// CHECK: dist.recv from #dist.device<"/job:ps/task:0"> key "bias/ps0->worker0" : tensor<4xf32>
// CHECK-LABEL: dist.task @ps0
// CHECK: dist.send %{{.*}} key "bias/ps0->worker0"
module attributes {dist.cluster = #dist.cluster<{worker = 1, ps = 1}>} {
  graph.variable @bias : tensor<4xf32> {dist.device = #dist.device<"/job:ps/task:0">}
  func.func @main(%x: tensor<4xf32> {dist.device = #dist.device<"/job:worker/task:0">}) -> (tensor<4xf32> {dist.device = #dist.device<"/job:worker/task:0">}) {
    %b = graph.read_variable @bias {dist.device = #dist.device<"/job:ps/task:0">} : tensor<4xf32>
    %y = graph.add %x, %b {dist.device = #dist.device<"/job:worker/task:0">} : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
    return %y : tensor<4xf32>
  }
}

// -----

// dist.group_all_reduce (the tensor-parallel strategy's placeholder): one
// dist.all_reduce per member, input i from task i, at the op's position, the
// same key in both; each result stays on its member. Task 0's input reaches
// task 1 by a send right after it is defined.

// CHECK-LABEL: dist.task @worker0
// CHECK: dist.send %{{.*}} key "input0/worker0->worker1"
// CHECK: %[[P0:.*]] = graph.mul
// CHECK: %[[S0:.*]] = dist.all_reduce sum %[[P0]] group [#dist.device<"/job:worker/task:0">, #dist.device<"/job:worker/task:1">] key "group_all_reduce_0/all_reduce" : tensor<4xf32> -> tensor<4xf32>
// CHECK: dist.return %[[S0]]
// CHECK-LABEL: dist.task @worker1
// CHECK: %[[X1:.*]] = dist.recv from #dist.device<"/job:worker/task:0"> key "input0/worker0->worker1"
// CHECK: %[[P1:.*]] = graph.add %[[X1]], %[[X1]]
// CHECK: %[[S1:.*]] = dist.all_reduce sum %[[P1]] group [#dist.device<"/job:worker/task:0">, #dist.device<"/job:worker/task:1">] key "group_all_reduce_0/all_reduce"
// CHECK: graph.neg %[[S1]]
module attributes {dist.cluster = #dist.cluster<{worker = 2}>} {
  func.func @main(%x: tensor<4xf32> {dist.device = #dist.device<"/job:worker/task:0">}) -> (tensor<4xf32> {dist.device = #dist.device<"/job:worker/task:0">}) {
    %p0 = graph.mul %x, %x {dist.device = #dist.device<"/job:worker/task:0">} : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
    %p1 = graph.add %x, %x {dist.device = #dist.device<"/job:worker/task:1">} : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
    %s:2 = dist.group_all_reduce sum %p0, %p1 group [#dist.device<"/job:worker/task:0">, #dist.device<"/job:worker/task:1">] {dist.device = #dist.device<"/job:worker/task:0">} : tensor<4xf32>, tensor<4xf32> -> tensor<4xf32>, tensor<4xf32>
    %n = graph.neg %s#1 {dist.device = #dist.device<"/job:worker/task:1">} : (tensor<4xf32>) -> tensor<4xf32>
    return %s#0 : tensor<4xf32>
  }
}
