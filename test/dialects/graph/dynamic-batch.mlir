// RUN: graph-opt %s --graph-dynamic-batch --graph-infer-shapes --split-input-file --verify-diagnostics | FileCheck %s
// RUN: graph-opt %s --graph-dynamic-batch=chunk=1 --graph-infer-shapes --split-input-file --verify-diagnostics | FileCheck %s --check-prefix=NOCHUNK

// An MLP over a dynamic batch: the batched input and the result are marked,
// the input holds one sample and inference makes the body static.
// CHECK-LABEL: func @main
// CHECK-SAME: (%{{.*}}: tensor<1x16xf32> {graph.dynamic_batch, graph.name = "x"}, %{{.*}}: tensor<16x4xf32>)
// CHECK-SAME: -> (tensor<1x4xf32> {graph.dynamic_batch})
// CHECK-SAME: attributes {graph.dynamic_batch_chunk = {func = @main_batch_chunk, size = 8 : i64}}
// CHECK: graph.matmul {{.*}} -> tensor<1x4xf32>
// CHECK: graph.reshape {{.*}} -> tensor<1x2x2xf32>
// CHECK: graph.reshape {{.*}} -> tensor<1x4xf32>
// The chunk body: the same function at 8 samples, its reshapes inferring the
// batch from the `-1` they kept, the unbatched weight as it was.
// CHECK-LABEL: func private @main_batch_chunk
// CHECK-SAME: (%{{.*}}: tensor<8x16xf32> {graph.dynamic_batch, graph.name = "x"}, %{{.*}}: tensor<16x4xf32>)
// CHECK-SAME: -> (tensor<8x4xf32> {graph.dynamic_batch})
// CHECK: graph.matmul {{.*}} -> tensor<8x4xf32>
// CHECK: graph.reshape {{.*}} -> tensor<8x2x2xf32>
// CHECK: graph.reshape {{.*}} -> tensor<8x4xf32>
// CHECK: graph.softmax {{.*}} -> tensor<8x4xf32>
// chunk=1: the one-sample body only.
// NOCHUNK-LABEL: func @main
// NOCHUNK-SAME: (%{{.*}}: tensor<1x16xf32> {graph.dynamic_batch, graph.name = "x"}, %{{.*}}: tensor<16x4xf32>)
// NOCHUNK-NOT: graph.dynamic_batch_chunk
// NOCHUNK-NOT: func private
func.func @main(%x: tensor<?x16xf32> {graph.name = "x"}, %w: tensor<16x4xf32>) -> tensor<?x4xf32> {
  %m = graph.matmul %x, %w : (tensor<?x16xf32>, tensor<16x4xf32>) -> tensor<?x4xf32>
  %r = graph.reshape %m {shape = array<i64: -1, 2, 2>} : (tensor<?x4xf32>) -> tensor<?x2x2xf32>
  %f = graph.reshape %r {shape = array<i64: -1, 4>} : (tensor<?x2x2xf32>) -> tensor<?x4xf32>
  %s = graph.softmax %f {axis = -1 : i64} : (tensor<?x4xf32>) -> tensor<?x4xf32>
  return %s : tensor<?x4xf32>
}

// -----

// Static inputs are left alone.
// CHECK-LABEL: func @main
// CHECK-SAME: (%{{.*}}: tensor<2x16xf32>) -> tensor<2x16xf32>
// CHECK-NOT: graph.dynamic_batch
func.func @main(%x: tensor<2x16xf32>) -> tensor<2x16xf32> {
  %r = graph.relu %x : (tensor<2x16xf32>) -> tensor<2x16xf32>
  return %r : tensor<2x16xf32>
}

// -----

func.func @main(%x: tensor<?x4xf32> {graph.name = "x"}) -> tensor<?x4xf32> {
  // expected-error @+1 {{graph.softmax works along dimension 0 (axis), so it does not treat dimension 0 of input 'x' as independent samples; give the batch with --input-shape x:NxD... to compile for one batch size}}
  %s = graph.softmax %x {axis = 0 : i64} : (tensor<?x4xf32>) -> tensor<?x4xf32>
  return %s : tensor<?x4xf32>
}

// -----

func.func @main(%x: tensor<?x4xf32> {graph.name = "x"}) -> tensor<?x2xf32> {
  // expected-error @+1 {{graph.reshape moves elements between samples (a reshape that changes the size of one sample), so it does not treat dimension 0 of input 'x'}}
  %r = graph.reshape %x {shape = array<i64: -1, 2>} : (tensor<?x4xf32>) -> tensor<?x2xf32>
  return %r : tensor<?x2xf32>
}

// -----

func.func @main(%x: tensor<?x4xf32> {graph.name = "x"}) -> tensor<1x4xf32> {
  // expected-error @+1 {{graph.reduce gives tensor<1x4xf32>, not a tensor whose only dynamic dimension is the batch, so it does not treat dimension 0 of input 'x'}}
  %r = graph.reduce %x {axes = array<i64: 0>, keepdims, kind = #graph<reduce_kind sum>} : (tensor<?x4xf32>) -> tensor<1x4xf32>
  return %r : tensor<1x4xf32>
}

// -----

func.func @main(%x: tensor<?x4xf32> {graph.name = "x"}) -> tensor<4x?xf32> {
  // expected-error @+1 {{graph.transpose gives tensor<4x?xf32>}}
  %t = graph.transpose %x {perm = array<i64: 1, 0>} : (tensor<?x4xf32>) -> tensor<4x?xf32>
  return %t : tensor<4x?xf32>
}

// -----

func.func @main(%x: tensor<?x4xf32> {graph.name = "x"}, %c: tensor<4xf32>) -> (tensor<?x4xf32>, tensor<4xf32>) attributes {graph.output_names = ["y", "y2"]} {
  %r = graph.relu %x : (tensor<?x4xf32>) -> tensor<?x4xf32>
  // expected-error @+1 {{output 'y2' of type 'tensor<4xf32>' does not keep the batch as its dimension 0; give the batch with --input-shape to compile for one batch size}}
  return %r, %c : tensor<?x4xf32>, tensor<4xf32>
}

// -----

// expected-error @+1 {{input 'z' has type 'tensor<?x?xf32>'; only the leading (batch) dimension may be dynamic (fix the others with --input-shape)}}
func.func @main(%x: tensor<?x4xf32> {graph.name = "x"}, %z: tensor<?x?xf32> {graph.name = "z"}) -> tensor<?x4xf32> {
  return %x : tensor<?x4xf32>
}
