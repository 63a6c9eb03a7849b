// RUN: graph-opt %s --graph-infer-shapes --split-input-file --verify-diagnostics | FileCheck %s

// Static shapes flow from the arguments; the function result follows.
// CHECK-LABEL: func @refine
// CHECK-SAME: -> tensor<8x10xf32>
func.func @refine(%x: tensor<8x784xf32>, %w: tensor<784x10xf32>, %b: tensor<10xf32>) -> tensor<*xf32> {
  // CHECK: graph.matmul {{.*}} -> tensor<8x10xf32>
  %m = graph.matmul %x, %w : (tensor<8x784xf32>, tensor<784x10xf32>) -> tensor<?x?xf32>
  // CHECK: graph.add {{.*}} : (tensor<8x10xf32>, tensor<10xf32>) -> tensor<8x10xf32>
  %y = graph.add %m, %b : (tensor<?x?xf32>, tensor<10xf32>) -> tensor<*xf32>
  // CHECK: return %{{.*}} : tensor<8x10xf32>
  return %y : tensor<*xf32>
}

// -----

// A user outside the graph dialect keeps the type it was written for.
func.func private @consume(tensor<?xf32>) -> tensor<?xf32>
// CHECK-LABEL: func @foreign_user
func.func @foreign_user(%x: tensor<4xf32>) -> tensor<?xf32> {
  // CHECK: %[[N:.*]] = graph.neg %{{.*}} : (tensor<4xf32>) -> tensor<4xf32>
  %n = graph.neg %x : (tensor<4xf32>) -> tensor<?xf32>
  // CHECK: %[[C:.*]] = tensor.cast %[[N]] : tensor<4xf32> to tensor<?xf32>
  // CHECK: call @consume(%[[C]])
  %r = func.call @consume(%n) : (tensor<?xf32>) -> tensor<?xf32>
  return %r : tensor<?xf32>
}

// -----

// A function with a caller keeps its signature.
// CHECK-LABEL: func private @callee
// CHECK-SAME: -> tensor<?xf32>
func.func private @callee(%x: tensor<4xf32>) -> tensor<?xf32> {
  %n = graph.neg %x : (tensor<4xf32>) -> tensor<?xf32>
  // CHECK: %[[C:.*]] = tensor.cast %{{.*}} : tensor<4xf32> to tensor<?xf32>
  // CHECK: return %[[C]]
  return %n : tensor<?xf32>
}
func.func @caller(%x: tensor<4xf32>) -> tensor<?xf32> {
  %r = func.call @callee(%x) : (tensor<4xf32>) -> tensor<?xf32>
  return %r : tensor<?xf32>
}
