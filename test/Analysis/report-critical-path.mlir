// RUN: graph-opt %s --dist-report="output=%t.json machine-model=%S/Inputs/machine.json" -o /dev/null 2>&1 | FileCheck %s
// RUN: FileCheck %s --check-prefix=JSON < %t.json

// A three-stage pipeline of 1000-element f32 tensors (4000 bytes) on the
// test machine (1 GB/s memory, 100 MB/s links, 10 us latency):
// * worker0: relu 8 us (8000 bytes), send "a" busy 40 us, arrives at
//   8 + 10 + 40 = 58 us; then a second relu, 48..56 us, off the path.
// * worker1: waits for "a" until 58, add 12 us (12000 bytes) to 70, send
//   "b" busy to 110, arriving at 120.
// * worker2: waits for "b" until 120, two relus to 136: the step.
// The critical path walks back from worker2 through both transfers; its
// two relus are one stretch.

// CHECK: worker0 {{ *}}/job:worker/task:0 {{ *}}2 {{ *}}2000 {{ *}}16.000 {{ *}}40.000 {{ *}}0.000 {{ *}}56.000
// CHECK: worker1 {{ *}}/job:worker/task:1 {{ *}}1 {{ *}}1000 {{ *}}12.000 {{ *}}40.000 {{ *}}58.000 {{ *}}110.000
// CHECK: worker2 {{ *}}/job:worker/task:2 {{ *}}2 {{ *}}2000 {{ *}}16.000 {{ *}}0.000 {{ *}}120.000 {{ *}}136.000
// CHECK: bytes per step: 8000 (transfers 8000, collectives 0)
// CHECK: estimated step: 136.000 us
// CHECK-NEXT: critical path:
// CHECK-NEXT: 0.000 .. 8.000 us worker0 compute graph.relu
// CHECK-NEXT: 8.000 .. 58.000 us worker0 transfer a -> worker1
// CHECK-NEXT: 58.000 .. 70.000 us worker1 compute graph.add
// CHECK-NEXT: 70.000 .. 120.000 us worker1 transfer b -> worker2
// CHECK-NEXT: 120.000 .. 136.000 us worker2 compute 2 ops
// CHECK-EMPTY:

// Idle is the step less busy (compute + comm): 136 - 56 for worker0.
// JSON: "tasks": [
// JSON: "busy_ns": 56000,
// JSON: "idle_ns": 80000,
// JSON: "name": "worker0",
// JSON: "busy_ns": 52000,
// JSON: "idle_ns": 84000,
// JSON: "name": "worker1",
// JSON: "busy_ns": 16000,
// JSON: "idle_ns": 120000,
// JSON: "name": "worker2",

module attributes {dist.cluster = #dist.cluster<{worker = 3}>} {
  dist.task @worker0 on #dist.device<"/job:worker/task:0"> (%x: tensor<1000xf32> {graph.name = "x"}) -> (tensor<1000xf32> {graph.name = "z"}) {
    %a = graph.relu %x : (tensor<1000xf32>) -> tensor<1000xf32>
    dist.send %a to #dist.device<"/job:worker/task:1"> key "a" : tensor<1000xf32>
    %z = graph.relu %a : (tensor<1000xf32>) -> tensor<1000xf32>
    dist.return %z : tensor<1000xf32>
  }
  dist.task @worker1 on #dist.device<"/job:worker/task:1"> () {
    %a = dist.recv from #dist.device<"/job:worker/task:0"> key "a" : tensor<1000xf32>
    %b = graph.add %a, %a : (tensor<1000xf32>, tensor<1000xf32>) -> tensor<1000xf32>
    dist.send %b to #dist.device<"/job:worker/task:2"> key "b" : tensor<1000xf32>
    dist.return
  }
  dist.task @worker2 on #dist.device<"/job:worker/task:2"> () -> (tensor<1000xf32> {graph.name = "y"}) {
    %b = dist.recv from #dist.device<"/job:worker/task:1"> key "b" : tensor<1000xf32>
    %c = graph.relu %b : (tensor<1000xf32>) -> tensor<1000xf32>
    %y = graph.relu %c : (tensor<1000xf32>) -> tensor<1000xf32>
    dist.return %y : tensor<1000xf32>
  }
}
