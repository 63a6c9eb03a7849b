// RUN: graph-opt %s --dist-report="machine-model=%S/Inputs/machine.json" -o /dev/null 2>&1 | FileCheck %s

// An op whose cost depends on a dynamic shape counts as free and the table
// says so; the relu on 1000 f32 still costs its 8000 bytes (8 us).

// CHECK: main {{ *}}/job:worker/task:0 {{ *}}2 {{ *}}1000 {{ *}}8.000
// CHECK-NEXT: (1 op with dynamic shapes not in the estimate)
// CHECK: estimated step: 8.000 us

module attributes {dist.cluster = #dist.cluster<{worker = 1}>} {
  dist.task @main on #dist.device<"/job:worker/task:0">
      (%x: tensor<1000xf32> {graph.name = "x"}, %d: tensor<?x4xf32> {graph.name = "d"})
      -> (tensor<1000xf32> {graph.name = "y"}, tensor<?x4xf32> {graph.name = "e"}) {
    %y = graph.relu %x : (tensor<1000xf32>) -> tensor<1000xf32>
    %e = graph.relu %d : (tensor<?x4xf32>) -> tensor<?x4xf32>
    dist.return %y, %e : tensor<1000xf32>, tensor<?x4xf32>
  }
}
