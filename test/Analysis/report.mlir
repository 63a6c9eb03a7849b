// RUN: graph-opt %s --dist-report="output=%t.json machine-model=%S/Inputs/machine.json" -o /dev/null 2>&1 | FileCheck %s
// RUN: FileCheck %s --check-prefix=JSON < %t.json

// Two workers: worker0 computes a matmul and sends it to worker1, which
// applies a relu; both all-reduce their weights. The machine model runs
// 1 GFLOP/s, 1 GB/s of memory and 100 MB/s links with 10 us latency.
//
// Expected, by hand:
// * matmul 4x64 . 64x16: 2*4*64*16 = 8192 flops, (256+1024+64)*4 = 5376
//   bytes: max(8.192 us, 5.376 us) = 8.192 us.
// * send "h" (4x16 f32, 256 bytes): worker0 busy 256/1e8 = 2.56 us, the
//   tensor arrives at 8.192 + 10 + 2.56 = 20.752 us.
// * relu 4x16: 64 flops, 512 bytes: 0.512 us, so worker1 reaches the
//   all-reduce at 21.264 us (worker0 at 10.752 us).
// * all_reduce 64x16 f32 (4096 bytes) over 2: each member sends block 1
//   then block 0 (512 floats each) = 4096 bytes in 2 messages; the wire
//   carries 8192. Time 2*(2-1)*10 us + 4096/1e8 s + 3*(1/2)*4096/1e9 s
//   = 20 + 40.96 + 6.144 = 67.104 us, from 21.264 to 88.368 us.

// CHECK: communication report (machine model: test machine)
// CHECK: worker0 {{ *}}/job:worker/task:0 {{ *}}2 {{ *}}8192 {{ *}}8.192 {{ *}}69.664 {{ *}}10.512 {{ *}}88.368
// CHECK-NEXT: counter collective:worker0+worker1: 4096 bytes in 2 messages
// CHECK-NEXT: counter send:h: 256 bytes in 1 messages
// CHECK: worker1 {{ *}}/job:worker/task:1 {{ *}}2 {{ *}}64 {{ *}}0.512 {{ *}}67.104 {{ *}}20.752 {{ *}}88.368
// CHECK-NEXT: counter collective:worker0+worker1: 4096 bytes in 2 messages
// CHECK-NEXT: counter recv:h: 256 bytes in 1 messages
// CHECK: transfers:
// CHECK-NEXT: worker0 -> worker1 key "h" tensor<4x16xf32>: 256 bytes, 12.560 us
// CHECK: collectives:
// CHECK-NEXT: all_reduce key "grad" on worker0+worker1 tensor<64x16xf32>: 4096 bytes each, sent 4096 4096 (8192 on the wire), 67.104 us
// CHECK: bytes per step: 8448 (transfers 256, collectives 8192)
// CHECK: estimated step: 88.368 us
// CHECK: critical path:
// CHECK-NEXT: 0.000 .. 8.192 us worker0 compute graph.matmul
// CHECK-NEXT: 8.192 .. 20.752 us worker0 transfer h -> worker1
// CHECK-NEXT: 20.752 .. 21.264 us worker1 compute graph.relu
// CHECK-NEXT: 21.264 .. 88.368 us worker0 all_reduce grad

// JSON: "bytes_per_step": {
// JSON-NEXT: "collectives": 8192,
// JSON-NEXT: "total": 8448,
// JSON-NEXT: "transfers": 256
// JSON: "collectives": [
// JSON: "bytes": 4096,
// JSON: "group": [
// JSON-NEXT: "worker0",
// JSON-NEXT: "worker1"
// JSON: "group_name": "worker0+worker1",
// JSON: "kind": "all_reduce",
// JSON-NEXT: "messages": [
// JSON-NEXT: 2,
// JSON-NEXT: 2
// JSON: "ns": 67104,
// JSON-NEXT: "sent_bytes": [
// JSON-NEXT: 4096,
// JSON-NEXT: 4096
// JSON: "wire_bytes": 8192
// JSON: "estimate": {
// JSON-NEXT: "compute_slowdown": 1,
// JSON-NEXT: "critical_path": [
// JSON: "end_ns": 8192,
// JSON: "step_ns": 88368
// JSON: "machine_model": {
// JSON: "link_bytes_per_second": 100000000,
// JSON: "tasks": [
// JSON: "busy_ns": 77856,
// JSON: "send:h": {
// JSON-NEXT: "bytes": 256,
// JSON-NEXT: "messages": 1
// JSON: "idle_ns": 10512,
// JSON: "name": "worker0",
// JSON: "busy_ns": 67616,
// JSON: "recv:h": {
// JSON-NEXT: "bytes": 256,
// JSON-NEXT: "messages": 1
// JSON: "idle_ns": 20752,
// JSON: "name": "worker1",
// JSON: "transfers": [
// JSON-NEXT: {
// JSON-NEXT: "bytes": 256,
// JSON-NEXT: "from": "worker0",
// JSON-NEXT: "key": "h",
// JSON-NEXT: "ns": 12560,
// JSON-NEXT: "to": "worker1",
// JSON-NEXT: "type": "tensor<4x16xf32>"

module attributes {dist.cluster = #dist.cluster<{worker = 2}>} {
  graph.variable @w : tensor<64x16xf32> = dense<1.0>
      {dist.device = #dist.device<"/job:worker/task:0">}
  graph.variable @w_r1 : tensor<64x16xf32> = dense<1.0>
      {dist.device = #dist.device<"/job:worker/task:1">}

  dist.task @worker0 on #dist.device<"/job:worker/task:0">
      (%x: tensor<4x64xf32> {graph.name = "x"}) {
    %w = graph.read_variable @w : tensor<64x16xf32>
    %h = graph.matmul %x, %w : (tensor<4x64xf32>, tensor<64x16xf32>) -> tensor<4x16xf32>
    dist.send %h to #dist.device<"/job:worker/task:1"> key "h" : tensor<4x16xf32>
    %g = dist.all_reduce sum %w group [#dist.device<"/job:worker/task:0">, #dist.device<"/job:worker/task:1">] key "grad" : tensor<64x16xf32> -> tensor<64x16xf32>
    dist.return
  }

  dist.task @worker1 on #dist.device<"/job:worker/task:1">
      () -> (tensor<4x16xf32> {graph.name = "y"}) {
    %w = graph.read_variable @w_r1 : tensor<64x16xf32>
    %h = dist.recv from #dist.device<"/job:worker/task:0"> key "h" : tensor<4x16xf32>
    %y = graph.relu %h : (tensor<4x16xf32>) -> tensor<4x16xf32>
    %g = dist.all_reduce sum %w group [#dist.device<"/job:worker/task:0">, #dist.device<"/job:worker/task:1">] key "grad" : tensor<64x16xf32> -> tensor<64x16xf32>
    dist.return %y : tensor<4x16xf32>
  }
}
