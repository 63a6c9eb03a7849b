// RUN: graph-opt %s --graph-to-linalg | FileCheck %s

// Variables are runtime-owned buffers: they stay for the runtime lowering,
// while the computation between them lowers.
// CHECK: graph.variable @w
// CHECK-LABEL: func.func @step
// CHECK: %[[W:.*]] = graph.read_variable @w
// CHECK: %[[N:.*]] = linalg.generic {{.*}} ins(%[[W]], %{{.*}} :
// CHECK: graph.assign_variable @w, %[[N]]
// CHECK-NOT: graph.sub
module {
  graph.variable @w trainable : tensor<4xf32>
  func.func @step(%d: tensor<4xf32>) {
    %w = graph.read_variable @w : tensor<4xf32>
    %n = graph.sub %w, %d : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
    graph.assign_variable @w, %n : tensor<4xf32>
    return
  }
}
