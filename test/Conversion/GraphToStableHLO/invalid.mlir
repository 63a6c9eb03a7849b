// Errors of graph-to-stablehlo name the op and the task and say what to do.
// RUN: graph-opt %s --graph-to-stablehlo --split-input-file --verify-diagnostics

func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{graph-to-stablehlo: cannot lower 'graph.erf' in task 'main': no StableHLO lowering for this op yet (docs/design/stablehlo.md lists what is lowered); compile this model for --target=cpu}}
  %0 = graph.erf %x : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @main(%x: tensor<5xf32>) -> tensor<2xf32> {
  // expected-error @+1 {{graph-to-stablehlo: cannot lower 'graph.slice' in task 'main': slice strides must be positive (a reversing slice has no lowering yet)}}
  %0 = graph.slice %x {starts = array<i64: 4>, limits = array<i64: 0>, strides = array<i64: -2>} : (tensor<5xf32>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

// expected-error @+1 {{input 'x' has type 'tensor<?x4xf32>'; a task needs static shapes (fix them with --input-shape)}}
func.func @main(%x: tensor<?x4xf32> {graph.name = "x"}) -> tensor<?x4xf32> {
  %0 = graph.relu %x : (tensor<?x4xf32>) -> tensor<?x4xf32>
  return %0 : tensor<?x4xf32>
}

// -----

module attributes {dist.cluster = #dist.cluster<{worker = 2}>} {
  dist.task @worker0 on #dist.device<"/job:worker/task:0"> (%x: tensor<4xf32>) -> tensor<4xf32> {
    // expected-error @+1 {{graph-to-stablehlo: cannot lower 'dist.all_gather' in task 'worker0': the TPU target lowers graph ops, send/recv and all_reduce (docs/design/stablehlo.md)}}
    %y = dist.all_gather %x axis 0 group [#dist.device<"/job:worker/task:0">, #dist.device<"/job:worker/task:1">] key "g" : tensor<4xf32> -> tensor<8xf32>
    %z = graph.slice %y {starts = array<i64: 0>, limits = array<i64: 4>, strides = array<i64: 1>} : (tensor<8xf32>) -> tensor<4xf32>
    dist.return %z : tensor<4xf32>
  }
  dist.task @worker1 on #dist.device<"/job:worker/task:1"> (%x: tensor<4xf32>) {
    %y = dist.all_gather %x axis 0 group [#dist.device<"/job:worker/task:0">, #dist.device<"/job:worker/task:1">] key "g" : tensor<4xf32> -> tensor<8xf32>
    dist.return
  }
}
