// RUN: graph-opt %s --dist-report="output=%t.json machine-model=%S/Inputs/machine.json" -o /dev/null 2>&1 | FileCheck %s
// RUN: FileCheck %s --check-prefix=JSON < %t.json

// A two-stage pipeline with two microbatches (dist.pipeline), as
// dist-place strategy=pipeline writes it: stage 0 (worker0) applies a relu
// to each microbatch and sends it on, stage 1 (worker1) applies another.
// The machine model runs 1 GFLOP/s, 1 GB/s of memory and 100 MB/s links
// with 10 us latency.
//
// Expected, by hand:
// * relu 2x16: 32 flops, 256 bytes: 0.256 us.
// * worker0: relu 0 .. 0.256, send a0 (128 bytes, busy 1.28 us) to 1.536,
//   relu to 1.792, send a1 to 3.072. a0 arrives at 0.256 + 10 + 1.28 =
//   11.536 us, a1 at 1.792 + 11.28 = 13.072 us.
// * worker1: waits for a0 until 11.536, relu to 11.792, waits for a1 until
//   13.072, relu to 13.328: the step.
// * stage 0: compute 0.512 us (0.256 per microbatch), busy 0.512 + 2.56 =
//   3.072, idle 10.256; stage 1: compute and busy 0.512, idle 12.816.
// * bubble: 1 - (3.072 + 0.512) / (2 * 13.328) = 86.55%; GPipe's for two
//   equal stages and two microbatches: 1/3.

// CHECK: estimated step: 13.328 us
// CHECK-NEXT: pipeline: 2 stages x 2 microbatches, 1 replica(s)
// CHECK-NEXT: stage 0 (worker0): compute 0.512 us (0.256 us per microbatch), busy 3.072 us, idle 10.256 us
// CHECK-NEXT: stage 1 (worker1): compute 0.512 us (0.256 us per microbatch), busy 0.512 us, idle 12.816 us
// CHECK-NEXT: bubble: 86.6% of the stages' step idle (GPipe's (P-1)/(M+P-1) for equal stages: 33.3%)

// JSON: "step_ns": 13328
// JSON: "pipeline": {
// JSON-NEXT: "bubble_fraction": 0.8655{{[0-9]*}},
// JSON-NEXT: "ideal_bubble_fraction": 0.3333{{[0-9]*}},
// JSON-NEXT: "microbatches": 2,
// JSON-NEXT: "replicas": 1,
// JSON-NEXT: "stages": [
// JSON-NEXT: {
// JSON-NEXT: "busy_ns": 3072,
// JSON-NEXT: "compute_ns": 512,
// JSON-NEXT: "idle_ns": 10256,
// JSON-NEXT: "microbatch_ns": 256,
// JSON-NEXT: "tasks": [
// JSON-NEXT: "worker0"
// JSON-NEXT: ]
// JSON-NEXT: },
// JSON-NEXT: {
// JSON-NEXT: "busy_ns": 512,
// JSON-NEXT: "compute_ns": 512,
// JSON-NEXT: "idle_ns": 12816,
// JSON-NEXT: "microbatch_ns": 256,
// JSON-NEXT: "tasks": [
// JSON-NEXT: "worker1"

module attributes {dist.cluster = #dist.cluster<{worker = 2}>,
                   dist.pipeline = {microbatches = 2 : i64, replicas = 1 : i64, stages = 2 : i64}} {
  dist.task @worker0 on #dist.device<"/job:worker/task:0">
      (%x0: tensor<2x16xf32> {graph.name = "x0"}, %x1: tensor<2x16xf32> {graph.name = "x1"}) {
    %a0 = graph.relu %x0 : (tensor<2x16xf32>) -> tensor<2x16xf32>
    dist.send %a0 to #dist.device<"/job:worker/task:1"> key "a0" : tensor<2x16xf32>
    %a1 = graph.relu %x1 : (tensor<2x16xf32>) -> tensor<2x16xf32>
    dist.send %a1 to #dist.device<"/job:worker/task:1"> key "a1" : tensor<2x16xf32>
    dist.return
  }

  dist.task @worker1 on #dist.device<"/job:worker/task:1">
      () -> (tensor<2x16xf32> {graph.name = "y0"}, tensor<2x16xf32> {graph.name = "y1"}) {
    %a0 = dist.recv from #dist.device<"/job:worker/task:0"> key "a0" : tensor<2x16xf32>
    %y0 = graph.relu %a0 : (tensor<2x16xf32>) -> tensor<2x16xf32>
    %a1 = dist.recv from #dist.device<"/job:worker/task:0"> key "a1" : tensor<2x16xf32>
    %y1 = graph.relu %a1 : (tensor<2x16xf32>) -> tensor<2x16xf32>
    dist.return %y0, %y1 : tensor<2x16xf32>, tensor<2x16xf32>
  }
}
