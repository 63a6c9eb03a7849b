// Errors of convert-dist-to-runtime name the op, variable or task and what to do.
// RUN: graph-opt %s --convert-dist-to-runtime --split-input-file --verify-diagnostics

module attributes {dist.cluster = #dist.cluster<{worker = 2}>} {
  dist.task @worker0 on #dist.device<"/job:worker/task:0"> (%x: tensor<4xf32>) -> tensor<4xf32> {
    // expected-error @+1 {{reduces with 'prod', which the graphrt services have no operator for (sum, mean, max, min)}}
    %y = dist.all_reduce prod %x group [#dist.device<"/job:worker/task:0">, #dist.device<"/job:worker/task:1">] key "p" : tensor<4xf32> -> tensor<4xf32>
    dist.return %y : tensor<4xf32>
  }
  dist.task @worker1 on #dist.device<"/job:worker/task:1"> (%x: tensor<4xf32>) -> tensor<4xf32> {
    %y = dist.all_reduce prod %x group [#dist.device<"/job:worker/task:0">, #dist.device<"/job:worker/task:1">] key "p" : tensor<4xf32> -> tensor<4xf32>
    dist.return %y : tensor<4xf32>
  }
}

// -----

module attributes {dist.cluster = #dist.cluster<{worker = 2}>} {
  graph.variable @w : tensor<4xf32> {dist.device = #dist.device<"/job:worker/task:1">}
  dist.task @worker0 on #dist.device<"/job:worker/task:0"> () -> tensor<4xf32> {
    // expected-error @+1 {{'graph.read_variable' op in task 'worker0' uses variable @w, which lives on task /job:worker/task:1; a task reads and assigns only its own variables (another task receives the value with dist.recv)}}
    %w = graph.read_variable @w : tensor<4xf32>
    dist.return %w : tensor<4xf32>
  }
  dist.task @worker1 on #dist.device<"/job:worker/task:1"> () -> () {
    dist.return
  }
}

// -----

module attributes {dist.cluster = #dist.cluster<{worker = 2}>} {
  // expected-error @+1 {{graph.variable @w has no dist.device, and the module has 2 tasks; run dist-place to home it on one}}
  graph.variable @w : tensor<4xf32>
  dist.task @worker0 on #dist.device<"/job:worker/task:0"> () -> () {
    dist.return
  }
  dist.task @worker1 on #dist.device<"/job:worker/task:1"> () -> () {
    dist.return
  }
}

// -----

// expected-error @+1 {{input 'x' has type 'tensor<?x4xf32>'; a task needs static shapes (fix them with --input-shape)}}
func.func @main(%x: tensor<?x4xf32> {graph.name = "x"}) -> tensor<?x4xf32> {
  return %x : tensor<?x4xf32>
}

// -----

// expected-error @+1 {{no dist.task and no entry function 'main' with a body; give the entry with entry=NAME (graphc: --entry)}}
module {
  func.func @other() {
    return
  }
}

// -----

module {
  graph.variable @w : tensor<4xf32>
  func.func @main() -> tensor<4xf32> {
    %w = graph.read_variable @w : tensor<4xf32>
    %c = arith.constant true
    %r = scf.if %c -> tensor<4xf32> {
      // expected-error @+1 {{'graph.assign_variable' op inside a region of 'scf.if' is not supported by task lowering; read the variable before the region and assign it after}}
      graph.assign_variable @w, %w : tensor<4xf32>
      scf.yield %w : tensor<4xf32>
    } else {
      scf.yield %w : tensor<4xf32>
    }
    return %r : tensor<4xf32>
  }
}
