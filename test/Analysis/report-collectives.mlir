// RUN: graph-opt %s -split-input-file --dist-report="machine-model=%S/Inputs/machine.json" -o /dev/null 2>&1 | FileCheck %s

// Every collective over three workers, on sizes that do not split evenly,
// against the runtime's algorithms (runtime/lib/Collectives.cpp), worked by
// hand. Machine: 100 MB/s links, 10 us latency, 1 GB/s memory.
//
// * all_reduce of 10 f32: blocks of 3, 3, 4 elements. Rank r sends every
//   block but r (reduce-scatter), then every block but r+1 (all-gather):
//   rank 0 7+7 = 14 elements (56 bytes), ranks 1 and 2 7+6 and 6+7 = 13
//   (52 bytes); 4 messages each. 2*2*10 us + 56 B/1e8 + 3*(2/3)*40 B/1e9
//   = 40 + 0.56 + 0.08 = 40.64 us.
// * all_gather 2x2 f32 -> 6x2: each sends its 16 bytes twice: 32 bytes, 2
//   messages; 2*10 + 0.32 = 20.32 us.
// * reduce_scatter 6x2 f32 -> 2x2: each sends two blocks of 16 bytes: 32
//   bytes, 2 messages; 20 + 0.32 + 3*(2/3)*48/1e9 s = 20.416 us.
// * broadcast 5 i64 (40 bytes) from task 1: the chain 1 -> 2 -> 0, so ranks
//   1 and 2 send 40 bytes in one segment and rank 0 nothing; (1+3-2) *
//   (10 + 0.4) = 20.8 us.
// * all_to_all 6 i32 split 0: blocks of 2 (8 bytes) to each other member:
//   16 bytes, 2 messages; 20 + 0.16 = 20.16 us.
// The counters add up per group: rank 0 56+32+32+0+16 = 136 bytes in
// 4+2+2+0+2 = 10 messages, ranks 1 and 2 52+32+32+40+16 = 172 in 11. The
// step is the collectives back to back: 122.336 us.

// CHECK-LABEL: communication report
// CHECK: worker0 {{.*}} 122.336
// CHECK-NEXT: counter collective:worker0+worker1+worker2: 136 bytes in 10 messages
// CHECK: worker1 {{.*}} 122.336
// CHECK-NEXT: counter collective:worker0+worker1+worker2: 172 bytes in 11 messages
// CHECK: worker2 {{.*}} 122.336
// CHECK-NEXT: counter collective:worker0+worker1+worker2: 172 bytes in 11 messages
// CHECK: collectives:
// CHECK-NEXT: all_reduce key "ar" on worker0+worker1+worker2 tensor<10xf32>: 40 bytes each, sent 56 52 52 (160 on the wire), 40.640 us
// CHECK-NEXT: all_gather key "ag" on worker0+worker1+worker2 tensor<2x2xf32>: 16 bytes each, sent 32 32 32 (96 on the wire), 20.320 us
// CHECK-NEXT: reduce_scatter key "rs" on worker0+worker1+worker2 tensor<6x2xf32>: 48 bytes each, sent 32 32 32 (96 on the wire), 20.416 us
// CHECK-NEXT: broadcast key "bc" on worker0+worker1+worker2 tensor<5xi64>: 40 bytes each, sent 0 40 40 (80 on the wire), 20.800 us
// CHECK-NEXT: all_to_all key "a2a" on worker0+worker1+worker2 tensor<6xi32>: 24 bytes each, sent 16 16 16 (48 on the wire), 20.160 us
// CHECK: bytes per step: 480 (transfers 0, collectives 480)
// CHECK: estimated step: 122.336 us

module attributes {dist.cluster = #dist.cluster<{worker = 3}>} {
  dist.task @worker0 on #dist.device<"/job:worker/task:0">
      (%a: tensor<10xf32> {graph.name = "a0"}, %b: tensor<2x2xf32> {graph.name = "b0"}, %c: tensor<6x2xf32> {graph.name = "c0"}, %d: tensor<5xi64> {graph.name = "d0"}, %e: tensor<6xi32> {graph.name = "e0"}) {
    %0 = dist.all_reduce sum %a group [#dist.device<"/job:worker/task:0">, #dist.device<"/job:worker/task:1">, #dist.device<"/job:worker/task:2">] key "ar" : tensor<10xf32> -> tensor<10xf32>
    %1 = dist.all_gather %b axis 0 group [#dist.device<"/job:worker/task:0">, #dist.device<"/job:worker/task:1">, #dist.device<"/job:worker/task:2">] key "ag" : tensor<2x2xf32> -> tensor<6x2xf32>
    %2 = dist.reduce_scatter sum %c axis 0 group [#dist.device<"/job:worker/task:0">, #dist.device<"/job:worker/task:1">, #dist.device<"/job:worker/task:2">] key "rs" : tensor<6x2xf32> -> tensor<2x2xf32>
    %3 = dist.broadcast %d root #dist.device<"/job:worker/task:1"> group [#dist.device<"/job:worker/task:0">, #dist.device<"/job:worker/task:1">, #dist.device<"/job:worker/task:2">] key "bc" : tensor<5xi64> -> tensor<5xi64>
    %4 = dist.all_to_all %e split 0 concat 0 group [#dist.device<"/job:worker/task:0">, #dist.device<"/job:worker/task:1">, #dist.device<"/job:worker/task:2">] key "a2a" : tensor<6xi32> -> tensor<6xi32>
    dist.return
  }
  dist.task @worker1 on #dist.device<"/job:worker/task:1">
      (%a: tensor<10xf32> {graph.name = "a1"}, %b: tensor<2x2xf32> {graph.name = "b1"}, %c: tensor<6x2xf32> {graph.name = "c1"}, %d: tensor<5xi64> {graph.name = "d1"}, %e: tensor<6xi32> {graph.name = "e1"}) {
    %0 = dist.all_reduce sum %a group [#dist.device<"/job:worker/task:0">, #dist.device<"/job:worker/task:1">, #dist.device<"/job:worker/task:2">] key "ar" : tensor<10xf32> -> tensor<10xf32>
    %1 = dist.all_gather %b axis 0 group [#dist.device<"/job:worker/task:0">, #dist.device<"/job:worker/task:1">, #dist.device<"/job:worker/task:2">] key "ag" : tensor<2x2xf32> -> tensor<6x2xf32>
    %2 = dist.reduce_scatter sum %c axis 0 group [#dist.device<"/job:worker/task:0">, #dist.device<"/job:worker/task:1">, #dist.device<"/job:worker/task:2">] key "rs" : tensor<6x2xf32> -> tensor<2x2xf32>
    %3 = dist.broadcast %d root #dist.device<"/job:worker/task:1"> group [#dist.device<"/job:worker/task:0">, #dist.device<"/job:worker/task:1">, #dist.device<"/job:worker/task:2">] key "bc" : tensor<5xi64> -> tensor<5xi64>
    %4 = dist.all_to_all %e split 0 concat 0 group [#dist.device<"/job:worker/task:0">, #dist.device<"/job:worker/task:1">, #dist.device<"/job:worker/task:2">] key "a2a" : tensor<6xi32> -> tensor<6xi32>
    dist.return
  }
  dist.task @worker2 on #dist.device<"/job:worker/task:2">
      (%a: tensor<10xf32> {graph.name = "a2"}, %b: tensor<2x2xf32> {graph.name = "b2"}, %c: tensor<6x2xf32> {graph.name = "c2"}, %d: tensor<5xi64> {graph.name = "d2"}, %e: tensor<6xi32> {graph.name = "e2"}) {
    %0 = dist.all_reduce sum %a group [#dist.device<"/job:worker/task:0">, #dist.device<"/job:worker/task:1">, #dist.device<"/job:worker/task:2">] key "ar" : tensor<10xf32> -> tensor<10xf32>
    %1 = dist.all_gather %b axis 0 group [#dist.device<"/job:worker/task:0">, #dist.device<"/job:worker/task:1">, #dist.device<"/job:worker/task:2">] key "ag" : tensor<2x2xf32> -> tensor<6x2xf32>
    %2 = dist.reduce_scatter sum %c axis 0 group [#dist.device<"/job:worker/task:0">, #dist.device<"/job:worker/task:1">, #dist.device<"/job:worker/task:2">] key "rs" : tensor<6x2xf32> -> tensor<2x2xf32>
    %3 = dist.broadcast %d root #dist.device<"/job:worker/task:1"> group [#dist.device<"/job:worker/task:0">, #dist.device<"/job:worker/task:1">, #dist.device<"/job:worker/task:2">] key "bc" : tensor<5xi64> -> tensor<5xi64>
    %4 = dist.all_to_all %e split 0 concat 0 group [#dist.device<"/job:worker/task:0">, #dist.device<"/job:worker/task:1">, #dist.device<"/job:worker/task:2">] key "a2a" : tensor<6xi32> -> tensor<6xi32>
    dist.return
  }
}

// -----

// Large buffers are cut into segments of at least 1 MiB (at most 16) per
// ring step: an all-reduce of 3 x 2^20 f32 over 3 members has blocks of
// 4 MiB, 4 segments each, so every member sends 4 blocks (16 MiB) in 16
// messages.

// CHECK-LABEL: communication report
// CHECK: worker0
// CHECK-NEXT: counter collective:worker0+worker1+worker2: 16777216 bytes in 16 messages
// CHECK: worker1
// CHECK-NEXT: counter collective:worker0+worker1+worker2: 16777216 bytes in 16 messages
// CHECK: all_reduce key "big" on worker0+worker1+worker2 tensor<3x1048576xf32>: 12582912 bytes each, sent 16777216 16777216 16777216 (50331648 on the wire)

module attributes {dist.cluster = #dist.cluster<{worker = 3}>} {
  dist.task @worker0 on #dist.device<"/job:worker/task:0"> (%a: tensor<3x1048576xf32> {graph.name = "a0"}) {
    %0 = dist.all_reduce sum %a group [#dist.device<"/job:worker/task:0">, #dist.device<"/job:worker/task:1">, #dist.device<"/job:worker/task:2">] key "big" : tensor<3x1048576xf32> -> tensor<3x1048576xf32>
    dist.return
  }
  dist.task @worker1 on #dist.device<"/job:worker/task:1"> (%a: tensor<3x1048576xf32> {graph.name = "a1"}) {
    %0 = dist.all_reduce sum %a group [#dist.device<"/job:worker/task:0">, #dist.device<"/job:worker/task:1">, #dist.device<"/job:worker/task:2">] key "big" : tensor<3x1048576xf32> -> tensor<3x1048576xf32>
    dist.return
  }
  dist.task @worker2 on #dist.device<"/job:worker/task:2"> (%a: tensor<3x1048576xf32> {graph.name = "a2"}) {
    %0 = dist.all_reduce sum %a group [#dist.device<"/job:worker/task:0">, #dist.device<"/job:worker/task:1">, #dist.device<"/job:worker/task:2">] key "big" : tensor<3x1048576xf32> -> tensor<3x1048576xf32>
    dist.return
  }
}
