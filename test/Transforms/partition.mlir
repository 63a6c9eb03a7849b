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
