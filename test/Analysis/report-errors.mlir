// RUN: graph-opt %s -split-input-file -verify-diagnostics --dist-report="machine-model=%S/Inputs/machine.json quiet=true" -o /dev/null

// A communicated tensor without a static shape has no byte count.

module attributes {dist.cluster = #dist.cluster<{worker = 2}>} {
  dist.task @worker0 on #dist.device<"/job:worker/task:0"> (%x: tensor<?x4xf32> {graph.name = "x"}) {
    // expected-error @+1 {{sent tensor has type 'tensor<?x4xf32>' without a static shape: the report counts bytes and needs static shapes}}
    dist.send %x to #dist.device<"/job:worker/task:1"> key "x" : tensor<?x4xf32>
    dist.return
  }
  dist.task @worker1 on #dist.device<"/job:worker/task:1"> () -> (tensor<?x4xf32> {graph.name = "y"}) {
    %y = dist.recv from #dist.device<"/job:worker/task:0"> key "x" : tensor<?x4xf32>
    dist.return %y : tensor<?x4xf32>
  }
}

// -----

module attributes {dist.cluster = #dist.cluster<{worker = 2}>} {
  dist.task @worker0 on #dist.device<"/job:worker/task:0"> (%x: tensor<?x4xf32> {graph.name = "x"}) {
    // expected-error @+1 {{collective input has type 'tensor<?x4xf32>' without a static shape}}
    %0 = dist.all_gather %x axis 0 group [#dist.device<"/job:worker/task:0">, #dist.device<"/job:worker/task:1">] key "g" : tensor<?x4xf32> -> tensor<?x4xf32>
    dist.return
  }
  dist.task @worker1 on #dist.device<"/job:worker/task:1"> (%x: tensor<?x4xf32> {graph.name = "x1"}) {
    %0 = dist.all_gather %x axis 0 group [#dist.device<"/job:worker/task:0">, #dist.device<"/job:worker/task:1">] key "g" : tensor<?x4xf32> -> tensor<?x4xf32>
    dist.return
  }
}

// -----

// Each task receives before it sends: the programs cannot finish, which the
// simulation finds (the verifier only pairs the ops, it does not order them).

module attributes {dist.cluster = #dist.cluster<{worker = 2}>} {
  dist.task @worker0 on #dist.device<"/job:worker/task:0"> (%x: tensor<4xf32> {graph.name = "x"}) {
    // expected-error @+1 {{task 'worker0' waits here forever: every task is blocked on a receive or collective whose peer comes later in its own program}}
    %b = dist.recv from #dist.device<"/job:worker/task:1"> key "b" : tensor<4xf32>
    dist.send %x to #dist.device<"/job:worker/task:1"> key "a" : tensor<4xf32>
    dist.return
  }
  dist.task @worker1 on #dist.device<"/job:worker/task:1"> (%x: tensor<4xf32> {graph.name = "x1"}) {
    %a = dist.recv from #dist.device<"/job:worker/task:0"> key "a" : tensor<4xf32>
    dist.send %x to #dist.device<"/job:worker/task:0"> key "b" : tensor<4xf32>
    dist.return
  }
}

// -----

// expected-error @+1 {{the module has no dist.task: the report reads a partitioned module (the output of the graphc-dist pipeline)}}
module {
  func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {
    return %x : tensor<4xf32>
  }
}
