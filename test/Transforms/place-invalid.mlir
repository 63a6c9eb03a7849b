// RUN: graph-opt %s -split-input-file -verify-diagnostics --dist-place="strategy=replicas replicas=2"

// Every refusal of the replicas strategy names the op, where it is, and why
// the replicated step would compute something else.

func.func @sum_over_batch(%x: tensor<8x4xf32>) -> tensor<8x4xf32> {
  // expected-error-re @+1 {{dist-place: replicas=2: 'graph.reduce' at loc({{.*}}) reduces over the batch axis 0, and its result reaches 'graph.add' at loc({{.*}}) without a dist.replica_all_reduce}}
  %s = graph.reduce %x {axes = array<i64: 0>, kind = #graph<reduce_kind sum>} : (tensor<8x4xf32>) -> tensor<4xf32>
  %y = graph.add %x, %s : (tensor<8x4xf32>, tensor<4xf32>) -> tensor<8x4xf32>
  return %y : tensor<8x4xf32>
}

// -----

func.func @mean_output(%x: tensor<8x4xf32>) -> tensor<f32> {
  // expected-error-re @+1 {{dist-place: replicas=2: 'graph.reduce' at loc({{.*}}) reduces over the batch axis 0, and its result reaches output #0 of @mean_output without a dist.replica_all_reduce; each replica holds only its share of it (all-reduce it, or keep the batch axis)}}
  %m = graph.reduce %x {axes = array<i64: 0, 1>, kind = #graph<reduce_kind mean>} : (tensor<8x4xf32>) -> tensor<f32>
  return %m : tensor<f32>
}

// -----

func.func @wrong_kind(%x: tensor<8x4xf32>) -> tensor<4xf32> {
  %s = graph.reduce %x {axes = array<i64: 0>, kind = #graph<reduce_kind sum>} : (tensor<8x4xf32>) -> tensor<4xf32>
  // expected-error-re @+1 {{dist-place: replicas=2: 'dist.replica_all_reduce' at loc({{.*}}) combines with mean the value that 'graph.reduce' at loc({{.*}}) reduces with sum over the batch axis 0; use dist.replica_all_reduce sum}}
  %a = dist.replica_all_reduce mean %s : tensor<4xf32>
  return %a : tensor<4xf32>
}

// -----

// The batch (axis 1 after the transpose, under 3 blocks) against a target
// whose first dimension (8) is not a multiple of the 3 blocks and whose
// second starts inside a block.
func.func @fold_batch(%x: tensor<8x3xf32>) -> tensor<8x3xf32> {
  %t = graph.transpose %x {perm = array<i64: 1, 0>} : (tensor<8x3xf32>) -> tensor<3x8xf32>
  // expected-error-re @+1 {{dist-place: replicas=2: 'graph.reshape' at loc({{.*}}) reshapes to 8x3, which mixes the rows of the batch axis 1 (size 8) with other dimensions: no target dimension starts where the batch axis does and divides into 2 replicas; keep the batch as the leading factor of one dimension}}
  %y = graph.reshape %t {shape = array<i64: 8, 3>} : (tensor<3x8xf32>) -> tensor<8x3xf32>
  return %y : tensor<8x3xf32>
}

// -----

// 8x3 -> 3x8: the first target dimension (3) does not divide into 2
// replicas, and the second starts inside the batch's first row.
func.func @split_batch_unevenly(%x: tensor<8x3xf32>) -> tensor<3x8xf32> {
  // expected-error-re @+1 {{dist-place: replicas=2: 'graph.reshape' at loc({{.*}}) reshapes to 3x8, which mixes the rows of the batch axis 0 (size 8) with other dimensions}}
  %y = graph.reshape %x {shape = array<i64: 3, 8>} : (tensor<8x3xf32>) -> tensor<3x8xf32>
  return %y : tensor<3x8xf32>
}

// -----

// The batch under the sequence (10 blocks of 8 rows) cannot be joined end
// to end at the output.
// expected-error @+1 {{dist-place: replicas=2: output #0 of @blocks_output holds the batch along axis 0 in 10 blocks (a reshape merged it under another dimension); reshape it so the batch leads that dimension}}
func.func @blocks_output(%x: tensor<8x10xf32>) -> tensor<80xf32> {
  %t = graph.transpose %x {perm = array<i64: 1, 0>} : (tensor<8x10xf32>) -> tensor<10x8xf32>
  %y = graph.reshape %t {shape = array<i64: 80>} : (tensor<10x8xf32>) -> tensor<80xf32>
  return %y : tensor<80xf32>
}

// -----

// Values whose batch rows are laid out differently along the same axis.
func.func @blocks_differ(%x: tensor<8x10xf32>, %z: tensor<80xf32>) -> tensor<80xf32> {
  %t = graph.transpose %x {perm = array<i64: 1, 0>} : (tensor<8x10xf32>) -> tensor<10x8xf32>
  %y = graph.reshape %t {shape = array<i64: 80>} : (tensor<10x8xf32>) -> tensor<80xf32>
  %f = graph.reshape %x {shape = array<i64: 80>} : (tensor<8x10xf32>) -> tensor<80xf32>
  // expected-error-re @+1 {{dist-place: replicas=2: 'graph.add' at loc({{.*}}) combines values whose batch rows are laid out differently (in 10 and 1 blocks along the batch axis)}}
  %s = graph.add %y, %f : (tensor<80xf32>, tensor<80xf32>) -> tensor<80xf32>
  return %s : tensor<80xf32>
}

// -----

// A convolution over the batch as channels needs both operands split there.
func.func @conv_batch_channels_shared_filter(%x: tensor<4x3x8x8xf32>, %w: tensor<5x4x3x3xf32>) -> tensor<3x5x6x6xf32> {
  %t = graph.transpose %x {perm = array<i64: 1, 0, 2, 3>} : (tensor<4x3x8x8xf32>) -> tensor<3x4x8x8xf32>
  // expected-error-re @+1 {{dist-place: replicas=2: 'graph.conv' at loc({{.*}}) contracts over the batch (its input channels) with an operand that is not split along them}}
  %c = graph.conv %t, %w : (tensor<3x4x8x8xf32>, tensor<5x4x3x3xf32>) -> tensor<3x5x6x6xf32>
  return %c : tensor<3x5x6x6xf32>
}

// -----

// A grouped filter gradient: the input's channels are 2 groups of the batch
// (2 blocks), the filter's the batch.
func.func @conv_batch_grouped(%x: tensor<4x2x8x8xf32>, %g: tensor<4x6x6x6xf32>) -> tensor<1x6x3x3xf32> {
  %t = graph.transpose %x {perm = array<i64: 1, 0, 2, 3>} : (tensor<4x2x8x8xf32>) -> tensor<2x4x8x8xf32>
  %in = graph.reshape %t {shape = array<i64: 1, 8, 8, 8>} : (tensor<2x4x8x8xf32>) -> tensor<1x8x8x8xf32>
  %gt = graph.transpose %g {perm = array<i64: 1, 0, 2, 3>} : (tensor<4x6x6x6xf32>) -> tensor<6x4x6x6xf32>
  // expected-error-re @+1 {{dist-place: replicas=2: 'graph.conv' at loc({{.*}}) contracts over the batch in 2 groups; each replica's channels would mix groups}}
  %c = graph.conv %in, %gt {groups = 2 : i64} : (tensor<1x8x8x8xf32>, tensor<6x4x6x6xf32>) -> tensor<1x6x3x3xf32>
  return %c : tensor<1x6x3x3xf32>
}

// -----

func.func @conv_batch_bias(%x: tensor<4x3x8x8xf32>, %g: tensor<4x5x6x6xf32>, %b: tensor<5xf32>) -> tensor<3x5x3x3xf32> {
  %t = graph.transpose %x {perm = array<i64: 1, 0, 2, 3>} : (tensor<4x3x8x8xf32>) -> tensor<3x4x8x8xf32>
  %gt = graph.transpose %g {perm = array<i64: 1, 0, 2, 3>} : (tensor<4x5x6x6xf32>) -> tensor<5x4x6x6xf32>
  // expected-error-re @+1 {{dist-place: replicas=2: 'graph.conv' at loc({{.*}}) adds a bias to a sum over the batch; every replica would add it}}
  %c = graph.conv %t, %gt, %b : (tensor<3x4x8x8xf32>, tensor<5x4x6x6xf32>, tensor<5xf32>) -> tensor<3x5x3x3xf32>
  return %c : tensor<3x5x3x3xf32>
}

// -----

func.func @concat_batch(%x: tensor<8x4xf32>) -> tensor<16x4xf32> {
  // expected-error-re @+1 {{dist-place: replicas=2: 'graph.concat' at loc({{.*}}) concatenates along the batch axis 0}}
  %y = graph.concat %x, %x {axis = 0 : i64} : (tensor<8x4xf32>, tensor<8x4xf32>) -> tensor<16x4xf32>
  return %y : tensor<16x4xf32>
}

// -----

func.func @softmax_batch(%x: tensor<8x4xf32>) -> tensor<8x4xf32> {
  // expected-error @+1 {{normalises over the batch axis 0}}
  %y = graph.softmax %x {axis = 0 : i64} : (tensor<8x4xf32>) -> tensor<8x4xf32>
  return %y : tensor<8x4xf32>
}

// -----

// One value per row of the whole batch (a splat would be the same in every
// replica's rows, and is split).
func.func @row_constant(%x: tensor<8x4xf32>) -> tensor<8x4xf32> {
  %c = graph.constant dense<[[1.0], [2.0], [3.0], [4.0], [5.0], [6.0], [7.0], [8.0]]> : tensor<8x1xf32>
  // expected-error @+1 {{combines the batch with an operand that is not split (its dimension 0 has size 8, not 1)}}
  %y = graph.add %x, %c : (tensor<8x4xf32>, tensor<8x1xf32>) -> tensor<8x4xf32>
  return %y : tensor<8x4xf32>
}

// -----

func.func @weight_from_batch(%x: tensor<8x4xf32>, %w: tensor<4x8xf32>) -> tensor<4x4xf32> {
  // expected-error @+1 {{contracts over the batch axis with an operand that is not split}}
  %y = graph.matmul %w, %x : (tensor<4x8xf32>, tensor<8x4xf32>) -> tensor<4x4xf32>
  return %y : tensor<4x4xf32>
}

// -----

graph.variable @acts : tensor<8x4xf32>
func.func @store_rows(%x: tensor<8x4xf32>) {
  // expected-error @+1 {{assigns a split value to variable @acts; each replica would store different rows}}
  graph.assign_variable @acts, %x : tensor<8x4xf32>
  return
}

// -----

func.func @unknown(%x: tensor<8x4xf32>) -> tensor<8x4xf32> {
  // expected-error-re @+1 {{dist-place: replicas=2: 'graph.cumulative' at loc({{.*}}) is not known to keep the rows of the batch apart (dist-place's allowlist does not have it)}}
  %y = graph.cumulative %x {axis = 1 : i64, kind = #graph<reduce_kind sum>} : (tensor<8x4xf32>) -> tensor<8x4xf32>
  return %y : tensor<8x4xf32>
}

// -----

// expected-error @+1 {{dist-place: replicas=2: the batch size 7 (dimension 0 of input #0) does not divide into 2 replicas}}
func.func @odd(%x: tensor<7x4xf32>) -> tensor<7x4xf32> {
  return %x : tensor<7x4xf32>
}

// -----

// expected-error @+1 {{dist-place: replicas=2: input #0 of @dynamic has a dynamic batch size; fix it first (graph-infer-shapes arg-shapes; graphc: --input-shape #0:NxD...)}}
func.func @dynamic(%x: tensor<?x4xf32>) -> tensor<?x4xf32> {
  return %x : tensor<?x4xf32>
}

// -----

// expected-error @+1 {{dist-place: replicas=2: @scalars has no input with a batch dimension}}
func.func @scalars(%x: tensor<f32>) -> tensor<f32> {
  return %x : tensor<f32>
}

// -----

// expected-error @+1 {{dist-place: replicas=2: input #1 of @ragged has type 'tensor<8x?xf32>'; a batched input needs a static shape to be split (graph-infer-shapes arg-shapes)}}
func.func @ragged(%x: tensor<8x4xf32>, %y: tensor<8x?xf32>) -> tensor<8x?xf32> {
  %z = graph.relu %y : (tensor<8x?xf32>) -> tensor<8x?xf32>
  return %z : tensor<8x?xf32>
}

// -----

// Adding a shared value to a partial sum is not linear: every replica would
// add it, and the all-reduce would count it twice.

func.func @decay(%x: tensor<4x3xf32>, %w: tensor<3x3xf32>) -> tensor<3x3xf32> {
  // expected-error-re @+1 {{dist-place: replicas=2: 'graph.matmul' at loc({{.*}}) reduces over the batch axis 0, and its result reaches 'graph.add' at loc({{.*}}) without a dist.replica_all_reduce}}
  %g = graph.matmul %x, %x {transpose_lhs} : (tensor<4x3xf32>, tensor<4x3xf32>) -> tensor<3x3xf32>
  %d = graph.add %g, %w : (tensor<3x3xf32>, tensor<3x3xf32>) -> tensor<3x3xf32>
  %r = dist.replica_all_reduce sum %d : tensor<3x3xf32>
  return %r : tensor<3x3xf32>
}


// -----

// The largest element of each replica's share of a sum is not a share of
// the sum's largest element: only sums and means keep a partial sum.
func.func @max_of_partial(%x: tensor<8x3xf32>) -> tensor<f32> {
  // expected-error-re @+1 {{dist-place: replicas=2: 'graph.matmul' at loc({{.*}}) reduces over the batch axis 0, and its result reaches 'graph.reduce' at loc({{.*}}) without a dist.replica_all_reduce}}
  %p = graph.matmul %x, %x {transpose_lhs} : (tensor<8x3xf32>, tensor<8x3xf32>) -> tensor<3x3xf32>
  %m = graph.reduce %p {axes = array<i64: 0, 1>, kind = #graph<reduce_kind max>} : (tensor<3x3xf32>) -> tensor<f32>
  return %m : tensor<f32>
}

// -----

// A scatter along the batch axis mixes the rows.
func.func @scatter_batch_axis(%idx: tensor<4x3xi32>, %g: tensor<4x3xf32>) -> tensor<8x3xf32> {
  %z = graph.constant dense<0.0> : tensor<8x3xf32>
  // expected-error-re @+1 {{dist-place: replicas=2: 'graph.scatter_elements' at loc({{.*}}) scatters along the batch axis, or with indices and updates not split alike}}
  %s = graph.scatter_elements %z, %idx, %g {axis = 0 : i64, reduction = #graph<scatter_reduction add>} : (tensor<8x3xf32>, tensor<4x3xi32>, tensor<4x3xf32>) -> tensor<8x3xf32>
  return %s : tensor<8x3xf32>
}
