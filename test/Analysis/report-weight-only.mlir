// RUN: graph-opt %s --dist-report="machine-model=%S/Inputs/machine.json" -o /dev/null 2>&1 | FileCheck %s
// RUN: graph-opt %s --dist-report="machine-model=%S/Inputs/machine.json prepared-weights=false" -o /dev/null 2>&1 | FileCheck %s --check-prefix=EVERY

// Work that reads only weights (variables no task assigns, and constants)
// is done once when the task loads (graphc-cpu-prepare-weights), so the
// estimate leaves it out: here the relu of @w and the add of its relu and a
// constant (20 us more if they counted). What remains: the relu of @v,
// which the step assigns (8000 bytes, 8 us), the add of the input (12 us)
// and the assignment (4 us).

// CHECK: main {{ *}}/job:worker/task:0 {{ *}}8 {{ *}}2000 {{ *}}24.000
// CHECK: estimated step: 24.000 us
// CHECK: main compute 3 ops

// Compiled with --prepare-weights=false the weight-only work runs every
// step and is charged: 20 us more, 5 ops.
// EVERY: estimated step: 44.000 us
// EVERY: main compute 5 ops

module attributes {dist.cluster = #dist.cluster<{worker = 1}>} {
  graph.variable @w : tensor<1000xf32> = dense<1.0>
  graph.variable @v : tensor<1000xf32> = dense<1.0>
  dist.task @main on #dist.device<"/job:worker/task:0">
      (%x: tensor<1000xf32> {graph.name = "x"})
      -> (tensor<1000xf32> {graph.name = "y"}) {
    %w = graph.read_variable @w : tensor<1000xf32>
    %rw = graph.relu %w : (tensor<1000xf32>) -> tensor<1000xf32>
    %c = graph.constant dense<2.0> : tensor<1000xf32>
    %wc = graph.add %rw, %c : (tensor<1000xf32>, tensor<1000xf32>) -> tensor<1000xf32>
    %y = graph.add %x, %wc : (tensor<1000xf32>, tensor<1000xf32>) -> tensor<1000xf32>
    %v = graph.read_variable @v : tensor<1000xf32>
    %rv = graph.relu %v : (tensor<1000xf32>) -> tensor<1000xf32>
    graph.assign_variable @v, %rv : tensor<1000xf32>
    dist.return %y : tensor<1000xf32>
  }
}
