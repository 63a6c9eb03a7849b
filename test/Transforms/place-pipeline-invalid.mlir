// RUN: graph-opt %s -split-input-file -verify-diagnostics --dist-place="strategy=pipeline pipeline-stages=2 microbatches=2"

// An op that mixes the rows of the batch is refused with the replicas
// strategy's wording: a microbatch is a replica in time.
func.func @mixes_rows(%x: tensor<8x4xf32>) -> tensor<4xf32> {
  %r = graph.relu %x : (tensor<8x4xf32>) -> tensor<8x4xf32>
  // expected-error-re @+1 {{dist-place: pipeline-stages=2 microbatches=2: 'graph.reduce' at {{.*}} reduces over the batch axis 0, and its result reaches 'graph.tanh' at {{.*}} without a dist.replica_all_reduce}}
  %s = graph.reduce %r {axes = array<i64: 0>, kind = #graph<reduce_kind sum>} : (tensor<8x4xf32>) -> tensor<4xf32>
  %t = graph.tanh %s : (tensor<4xf32>) -> tensor<4xf32>
  return %t : tensor<4xf32>
}

// -----

// expected-error @+1 {{dist-place: pipeline-stages=2 microbatches=2: the batch size 3 (dimension 0 of input #0) does not divide into 2 microbatches}}
func.func @odd_batch(%x: tensor<3x4xf32>) -> tensor<3x4xf32> {
  %r = graph.relu %x : (tensor<3x4xf32>) -> tensor<3x4xf32>
  %t = graph.tanh %r : (tensor<3x4xf32>) -> tensor<3x4xf32>
  return %t : tensor<3x4xf32>
}

// -----

// expected-error @+1 {{dist-place: pipeline-stages=2 microbatches=2: @one_op has 1 ops on the batch's path, fewer than 2 stages; use fewer stages}}
func.func @one_op(%x: tensor<8x4xf32>) -> tensor<8x4xf32> {
  %r = graph.relu %x : (tensor<8x4xf32>) -> tensor<8x4xf32>
  return %r : tensor<8x4xf32>
}

// -----

// A value summed over the batch (here an explicit all-reduce of the mean
// over the batch) used with one microbatch's rows: it exists only once all
// microbatches have run, so no microbatch can use it.
func.func @centre(%x: tensor<8x4xf32>) -> tensor<8x4xf32> {
  %r = graph.relu %x : (tensor<8x4xf32>) -> tensor<8x4xf32>
  %m = graph.reduce %r {axes = array<i64: 0>, kind = #graph<reduce_kind mean>} : (tensor<8x4xf32>) -> tensor<4xf32>
  %s = dist.replica_all_reduce mean %m : tensor<4xf32>
  // expected-error-re @+1 {{dist-place: pipeline-stages=2 microbatches=2: 'graph.sub' at {{.*}} uses a value summed over the whole batch (after the microbatches' shares are accumulated) together with one microbatch's rows; the pipeline cannot run it per microbatch (place it with replicas=N and no pipeline stages)}}
  %c = graph.sub %r, %s : (tensor<8x4xf32>, tensor<4xf32>) -> tensor<8x4xf32>
  %t = graph.tanh %c : (tensor<8x4xf32>) -> tensor<8x4xf32>
  return %t : tensor<8x4xf32>
}

// -----

// Batch statistics: the microbatches run one after another, so none holds
// the batch (under replicas they are synchronised: place-sync-batch-norm.mlir).
func.func @batch_stats(%x: tensor<8x3x4x4xf32>, %s: tensor<3xf32>, %b: tensor<3xf32>) -> tensor<8x3x4x4xf32> {
  %r = graph.relu %x : (tensor<8x3x4x4xf32>) -> tensor<8x3x4x4xf32>
  // expected-error @+1 {{computes statistics over the batch axis, of which each of the microbatches holds only a share; use graph.batch_norm with running statistics (graphc --batch-norm=running)}}
  %y, %bm, %bv = graph.batch_norm_train %r, %s, %b : (tensor<8x3x4x4xf32>, tensor<3xf32>, tensor<3xf32>) -> (tensor<8x3x4x4xf32>, tensor<3xf32>, tensor<3xf32>)
  %t = graph.tanh %y : (tensor<8x3x4x4xf32>) -> tensor<8x3x4x4xf32>
  return %t : tensor<8x3x4x4xf32>
}
