// RUN: graph-opt %s -split-input-file -verify-diagnostics --dist-partition

// dist-partition reads what dist-place writes; IR that was not placed (or
// was placed by hand on tasks the cluster lacks) is refused with a pointer
// to the missing step.

// expected-error @+1 {{dist-partition: the module has no 'dist.cluster'; run dist-place first}}
module {
  func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {
    return %x : tensor<4xf32>
  }
}

// -----

module attributes {dist.cluster = #dist.cluster<{worker = 1}>} {
  func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {
    // expected-error @+1 {{dist-partition: 'graph.relu' has no dist.device; run dist-place first}}
    %y = graph.relu %x : (tensor<4xf32>) -> tensor<4xf32>
    return %y : tensor<4xf32>
  }
}

// -----

module attributes {dist.cluster = #dist.cluster<{worker = 1}>} {
  func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {
    // expected-error @+1 {{dist-partition: placement '/job:worker/task:3' is not a task of the cluster #dist.cluster<{worker = 1 x [CPU:0]}>}}
    %y = graph.relu %x {dist.device = #dist.device<"/job:worker/task:3">} : (tensor<4xf32>) -> tensor<4xf32>
    return %y : tensor<4xf32>
  }
}

// -----

module attributes {dist.cluster = #dist.cluster<{worker = 2}>} {
  func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {
    // expected-error @+1 {{dist-partition: placement '/job:worker' names no task, and @main is not replicated on that job (dist.replicas)}}
    %y = graph.relu %x {dist.device = #dist.device<"/job:worker">} : (tensor<4xf32>) -> tensor<4xf32>
    return %y : tensor<4xf32>
  }
}

// -----

module attributes {dist.cluster = #dist.cluster<{worker = 1}>} {
  // expected-error @+1 {{dist-partition: @main has 2 replicas on job 'worker' but the cluster #dist.cluster<{worker = 1 x [CPU:0]}> has 1 tasks there}}
  func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> attributes {dist.replicas = 2 : i64} {
    %y = graph.relu %x {dist.device = #dist.device<"/job:worker">} : (tensor<4xf32>) -> tensor<4xf32>
    return %y : tensor<4xf32>
  }
}

// -----

module attributes {dist.cluster = #dist.cluster<{worker = 1}>} {
  // expected-error @+1 {{dist-partition: input #0 is placed on '/job:ps/task:0', which is not a task of the cluster #dist.cluster<{worker = 1 x [CPU:0]}>}}
  func.func @main(%x: tensor<4xf32> {dist.device = #dist.device<"/job:ps/task:0">}) -> tensor<4xf32> {
    return %x : tensor<4xf32>
  }
}
