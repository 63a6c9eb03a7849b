// RUN: graph-opt %s --dist-place="strategy=pipeline pipeline-stages=2 microbatches=2" | FileCheck %s --check-prefix=PLACE
// RUN: graph-opt %s --dist-place="strategy=pipeline pipeline-stages=2 microbatches=2" --dist-partition | FileCheck %s --check-prefix=CUT
// RUN: graph-opt %s --dist-place="strategy=pipeline pipeline-stages=2 microbatches=2 replicas=2" --dist-partition | FileCheck %s --check-prefix=MESH

// A three-layer MLP for a batch of 8 in two stages and two microbatches of 4
// rows. By the built-in machine model the 4x64x256 and 4x256x64 matmuls cost
// about 4.7 us each (memory-bound on their weights) and the rest well under
// 1 us, so the balanced cut is right after the first matmul: stage 0 is it
// plus sending its 4 KiB result (5.8 us), stage 1 the rest (5.6 us); cutting
// after the relu instead would give stage 0 6.3 us. Weights are read by the
// stage that uses them and computed once per step; batched ops are copied per
// microbatch, stage by stage, microbatch after microbatch.

// PLACE: module attributes {dist.cluster = #dist.cluster<{worker = 2 x [CPU:0]}>, dist.pipeline = {microbatches = 2 : i64, replicas = 1 : i64, stages = 2 : i64}}
// PLACE: graph.variable @w1 {{.*}}task:0
// PLACE: graph.variable @w2 {{.*}}task:1
// PLACE: graph.variable @w3 {{.*}}task:1
// PLACE-LABEL: func.func @main
// PLACE-NOT: dist.replicas
// PLACE: %[[X0:.*]] = graph.slice %arg0 {dist.device = #dist.device<"/job:worker/task:0">, limits = array<i64: 4, 64>, starts = array<i64: 0, 0>
// PLACE-NEXT: %[[X1:.*]] = graph.slice %arg0 {dist.device = #dist.device<"/job:worker/task:0">, limits = array<i64: 8, 64>, starts = array<i64: 4, 0>
// PLACE-NEXT: %[[W1:.*]] = graph.read_variable @w1 {dist.device = #dist.device<"/job:worker/task:0">}
// PLACE-NEXT: %[[H0:.*]] = graph.matmul %[[X0]], %[[W1]] {dist.device = #dist.device<"/job:worker/task:0">} : (tensor<4x64xf32>, tensor<64x256xf32>) -> tensor<4x256xf32>
// PLACE-NEXT: %[[H1:.*]] = graph.matmul %[[X1]], %[[W1]] {dist.device = #dist.device<"/job:worker/task:0">}
// PLACE-NEXT: %[[W2:.*]] = graph.read_variable @w2 {dist.device = #dist.device<"/job:worker/task:1">}
// PLACE-NEXT: %[[W3:.*]] = graph.read_variable @w3 {dist.device = #dist.device<"/job:worker/task:1">}
// PLACE-NEXT: %[[R0:.*]] = graph.relu %[[H0]] {dist.device = #dist.device<"/job:worker/task:1">}
// PLACE-NEXT: graph.matmul %[[R0]], %[[W2]]
// PLACE-NEXT: graph.tanh
// PLACE-NEXT: graph.matmul
// PLACE-NEXT: %[[Y0:.*]] = graph.softmax {{.*}} -> tensor<4x8xf32>
// PLACE-NEXT: %[[R1:.*]] = graph.relu %[[H1]] {dist.device = #dist.device<"/job:worker/task:1">}
// PLACE-NEXT: graph.matmul %[[R1]], %[[W2]]
// PLACE-NEXT: graph.tanh
// PLACE-NEXT: graph.matmul
// PLACE-NEXT: %[[Y1:.*]] = graph.softmax {{.*}} -> tensor<4x8xf32>
// PLACE-NEXT: %[[Y:.*]] = graph.concat %[[Y0]], %[[Y1]] {axis = 0 : i64, dist.device = #dist.device<"/job:worker/task:0">} : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<8x8xf32>
// PLACE-NEXT: return %[[Y]]

// dist-partition cuts it as any placed function: one send per microbatch
// right after its matmul, stage 1 receives microbatch 0, works on it and
// sends its rows back before it receives microbatch 1 (GPipe's schedule),
// and task 0 joins the rows in microbatch order.

// CUT-LABEL: dist.task @worker0
// CUT: %[[A:.*]] = graph.matmul
// CUT-NEXT: dist.send %[[A]] to #dist.device<"/job:worker/task:1"> key "matmul_0/worker0->worker1" : tensor<4x256xf32>
// CUT-NEXT: %[[B:.*]] = graph.matmul
// CUT-NEXT: dist.send %[[B]] to #dist.device<"/job:worker/task:1"> key "matmul_1/worker0->worker1" : tensor<4x256xf32>
// CUT-NEXT: %[[Y0:.*]] = dist.recv from #dist.device<"/job:worker/task:1"> key "softmax_2/worker1->worker0" : tensor<4x8xf32>
// CUT-NEXT: %[[Y1:.*]] = dist.recv from #dist.device<"/job:worker/task:1"> key "softmax_3/worker1->worker0" : tensor<4x8xf32>
// CUT-NEXT: %[[Y:.*]] = graph.concat %[[Y0]], %[[Y1]]
// CUT-NEXT: dist.return %[[Y]]
// CUT-LABEL: dist.task @worker1
// CUT: graph.read_variable @w2
// CUT: dist.recv from #dist.device<"/job:worker/task:0"> key "matmul_0/worker0->worker1"
// CUT: %[[S0:.*]] = graph.softmax
// CUT-NEXT: dist.send %[[S0]] to #dist.device<"/job:worker/task:0"> key "softmax_2/worker1->worker0"
// CUT-NEXT: dist.recv from #dist.device<"/job:worker/task:0"> key "matmul_1/worker0->worker1"
// CUT: %[[S1:.*]] = graph.softmax
// CUT-NEXT: dist.send %[[S1]] to #dist.device<"/job:worker/task:0"> key "softmax_3/worker1->worker0"
// CUT-NEXT: dist.return

// Two replicas of the two stages on four tasks, replica-major: replica 1's
// stages are tasks 2 and 3, with their own copies of the weights. Task 0
// slices the batch into four microbatches of 2 rows (rows 4-7 go to replica
// 1) and joins all four.

// MESH: graph.variable @w1 {{.*}}task:0
// MESH: graph.variable @w1_r1 {{.*}}task:2">, graph.replica_of = "w1"}
// MESH: graph.variable @w2 {{.*}}task:1
// MESH: graph.variable @w2_r1 {{.*}}task:3">, graph.replica_of = "w2"}
// MESH-LABEL: dist.task @worker0
// MESH: graph.slice %arg0 {limits = array<i64: 2, 64>, starts = array<i64: 0, 0>
// MESH-NEXT: graph.slice %arg0 {limits = array<i64: 4, 64>, starts = array<i64: 2, 0>
// MESH-NEXT: %[[R1A:.*]] = graph.slice %arg0 {limits = array<i64: 6, 64>, starts = array<i64: 4, 0>
// MESH-NEXT: dist.send %[[R1A]] to #dist.device<"/job:worker/task:2"> key "slice_0/worker0->worker2" : tensor<2x64xf32>
// MESH-NEXT: %[[R1B:.*]] = graph.slice %arg0 {limits = array<i64: 8, 64>, starts = array<i64: 6, 0>
// MESH-NEXT: dist.send %[[R1B]] to #dist.device<"/job:worker/task:2"> key "slice_1/worker0->worker2" : tensor<2x64xf32>
// MESH: dist.recv from #dist.device<"/job:worker/task:1"> key "softmax_6/worker1->worker0"
// MESH-NEXT: dist.recv from #dist.device<"/job:worker/task:1"> key "softmax_7/worker1->worker0"
// MESH-NEXT: dist.recv from #dist.device<"/job:worker/task:3"> key "softmax_8/worker3->worker0"
// MESH-NEXT: dist.recv from #dist.device<"/job:worker/task:3"> key "softmax_9/worker3->worker0"
// MESH-NEXT: graph.concat {{.*}} -> tensor<8x8xf32>
// MESH-LABEL: dist.task @worker1
// MESH: graph.read_variable @w2 :
// MESH-LABEL: dist.task @worker2
// MESH: graph.read_variable @w1_r1
// MESH: dist.recv from #dist.device<"/job:worker/task:0"> key "slice_0/worker0->worker2"
// MESH: dist.send {{.*}} to #dist.device<"/job:worker/task:3"> key "matmul_4/worker2->worker3" : tensor<2x256xf32>
// MESH-NEXT: dist.recv from #dist.device<"/job:worker/task:0"> key "slice_1/worker0->worker2"
// MESH-LABEL: dist.task @worker3
// MESH: graph.read_variable @w2_r1
// MESH: dist.recv from #dist.device<"/job:worker/task:2"> key "matmul_4/worker2->worker3"
// MESH: dist.send {{.*}} to #dist.device<"/job:worker/task:0"> key "softmax_8/worker3->worker0"
// MESH-NEXT: dist.recv from #dist.device<"/job:worker/task:2"> key "matmul_5/worker2->worker3"
// MESH: dist.send {{.*}} to #dist.device<"/job:worker/task:0"> key "softmax_9/worker3->worker0"
// MESH-NEXT: dist.return
module {
  graph.variable @w1 : tensor<64x256xf32>
  graph.variable @w2 : tensor<256x64xf32>
  graph.variable @w3 : tensor<64x8xf32>
  func.func @main(%x: tensor<8x64xf32> {graph.name = "x"}) -> (tensor<8x8xf32> {graph.name = "y"}) {
    %w1 = graph.read_variable @w1 : tensor<64x256xf32>
    %h1 = graph.matmul %x, %w1 : (tensor<8x64xf32>, tensor<64x256xf32>) -> tensor<8x256xf32>
    %r1 = graph.relu %h1 : (tensor<8x256xf32>) -> tensor<8x256xf32>
    %w2 = graph.read_variable @w2 : tensor<256x64xf32>
    %h2 = graph.matmul %r1, %w2 : (tensor<8x256xf32>, tensor<256x64xf32>) -> tensor<8x64xf32>
    %r2 = graph.tanh %h2 : (tensor<8x64xf32>) -> tensor<8x64xf32>
    %w3 = graph.read_variable @w3 : tensor<64x8xf32>
    %h3 = graph.matmul %r2, %w3 : (tensor<8x64xf32>, tensor<64x8xf32>) -> tensor<8x8xf32>
    %y = graph.softmax %h3 {axis = 1 : i64} : (tensor<8x8xf32>) -> tensor<8x8xf32>
    return %y : tensor<8x8xf32>
  }
}
