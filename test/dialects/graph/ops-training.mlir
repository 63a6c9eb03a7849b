// RUN: graph-opt %s | graph-opt | FileCheck %s
// RUN: graph-opt %s --verify-roundtrip | FileCheck %s
// RUN: graph-opt %s --cse --canonicalize | FileCheck %s --check-prefix=EFFECTS

// CHECK: graph.variable @w trainable : tensor<784x10xf32>{{$}}
graph.variable @w trainable : tensor<784x10xf32>
// The initial value is printed without repeating the declared type.
// CHECK: graph.variable @b trainable : tensor<2xf32> = dense<[1.000000e+00, 2.000000e+00]>{{$}}
graph.variable @b trainable : tensor<2xf32> = dense<[1.0, 2.0]>
// CHECK: graph.variable @step : tensor<i64> = dense<0>{{$}}
graph.variable @step : tensor<i64> = dense<0>
// Discardable attributes survive.
// CHECK: graph.variable @m : tensor<2xf32> = dense<0.000000e+00> {note = "adam"}
graph.variable @m : tensor<2xf32> = dense<0.0> {note = "adam"}

// CHECK-LABEL: func @state
func.func @state(%v: tensor<2xf32>, %d: tensor<?xf32>, %one: tensor<i64>) -> tensor<2xf32> {
  // CHECK: %[[R:.*]] = graph.read_variable @b : tensor<2xf32>
  %r = graph.read_variable @b : tensor<2xf32>
  // CHECK: graph.assign_variable @b, %{{.*}} : tensor<2xf32>
  graph.assign_variable @b, %v : tensor<2xf32>
  // CHECK: graph.assign_variable @b, %{{.*}} mode = sub : tensor<?xf32>
  graph.assign_variable @b, %d mode = sub : tensor<?xf32>
  // The default mode is not printed.
  // CHECK: graph.assign_variable @step, %{{.*}} mode = add : tensor<i64>
  graph.assign_variable @step, %one mode = add : tensor<i64>
  // CHECK: graph.assign_variable @step, %{{.*}} : tensor<i64>
  graph.assign_variable @step, %one mode = set : tensor<i64>
  return %r : tensor<2xf32>
}

// CHECK-LABEL: func @losses
func.func @losses(%logits: tensor<32x10xf32>, %labels: tensor<32x10xf32>, %idx: tensor<32xi64>, %idx32: tensor<?xi32>) {
  // CHECK: graph.softmax_cross_entropy %{{.*}}, %{{.*}} : (tensor<32x10xf32>, tensor<32x10xf32>) -> (tensor<32xf32>, tensor<32x10xf32>)
  %0:2 = graph.softmax_cross_entropy %logits, %labels : (tensor<32x10xf32>, tensor<32x10xf32>) -> (tensor<32xf32>, tensor<32x10xf32>)
  // CHECK: graph.softmax_cross_entropy %{{.*}}, %{{.*}} {sparse} : (tensor<32x10xf32>, tensor<32xi64>) -> (tensor<32xf32>, tensor<32x10xf32>)
  %1:2 = graph.softmax_cross_entropy %logits, %idx {sparse} : (tensor<32x10xf32>, tensor<32xi64>) -> (tensor<32xf32>, tensor<32x10xf32>)
  // CHECK: graph.softmax_cross_entropy %{{.*}}, %{{.*}} {sparse} : (tensor<32x10xf32>, tensor<?xi32>) -> (tensor<32xf32>, tensor<32x10xf32>)
  %2:2 = graph.softmax_cross_entropy %logits, %idx32 {sparse} : (tensor<32x10xf32>, tensor<?xi32>) -> (tensor<32xf32>, tensor<32x10xf32>)
  return
}

// CHECK-LABEL: func @updates
func.func @updates(%p: tensor<10xf32>, %g: tensor<10xf32>, %s: tensor<f32>, %per: tensor<1xf32>) {
  // CHECK: graph.sgd_update %{{.*}}, %{{.*}}, %{{.*}} : (tensor<10xf32>, tensor<10xf32>, tensor<f32>) -> tensor<10xf32>
  %0 = graph.sgd_update %p, %g, %s : (tensor<10xf32>, tensor<10xf32>, tensor<f32>) -> tensor<10xf32>
  // A hyperparameter may be any shape that broadcasts without changing param's.
  // CHECK: graph.sgd_update %{{.*}}, %{{.*}}, %{{.*}} : (tensor<10xf32>, tensor<10xf32>, tensor<1xf32>) -> tensor<10xf32>
  %1 = graph.sgd_update %p, %g, %per : (tensor<10xf32>, tensor<10xf32>, tensor<1xf32>) -> tensor<10xf32>
  // CHECK: graph.momentum_update %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} {nesterov} : (tensor<10xf32>, tensor<10xf32>, tensor<10xf32>, tensor<f32>, tensor<f32>) -> (tensor<10xf32>, tensor<10xf32>)
  %2:2 = graph.momentum_update %p, %p, %g, %s, %s {nesterov} : (tensor<10xf32>, tensor<10xf32>, tensor<10xf32>, tensor<f32>, tensor<f32>) -> (tensor<10xf32>, tensor<10xf32>)
  // CHECK: graph.adam_update %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} : (tensor<10xf32>, tensor<10xf32>, tensor<10xf32>, tensor<10xf32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>) -> (tensor<10xf32>, tensor<10xf32>, tensor<10xf32>)
  %3:3 = graph.adam_update %p, %p, %p, %g, %s, %s, %s, %s, %s, %s : (tensor<10xf32>, tensor<10xf32>, tensor<10xf32>, tensor<10xf32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>) -> (tensor<10xf32>, tensor<10xf32>, tensor<10xf32>)
  // CHECK: graph.ftrl_update %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} : (tensor<10xf32>, tensor<10xf32>, tensor<10xf32>, tensor<10xf32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>) -> (tensor<10xf32>, tensor<10xf32>, tensor<10xf32>)
  %4:3 = graph.ftrl_update %p, %p, %p, %g, %s, %s, %s, %s : (tensor<10xf32>, tensor<10xf32>, tensor<10xf32>, tensor<10xf32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>) -> (tensor<10xf32>, tensor<10xf32>, tensor<10xf32>)
  return
}

// Reads and assignments are effects on the variables: CSE merges two reads
// with no assignment between them but not across one, and neither pass
// drops an assignment whose value nobody reads.
// EFFECTS-LABEL: func @effects
func.func @effects(%v: tensor<2xf32>) -> (tensor<2xf32>, tensor<2xf32>, tensor<2xf32>) {
  // EFFECTS: %[[A:.*]] = graph.read_variable @b
  // EFFECTS-NOT: graph.read_variable
  // EFFECTS: graph.assign_variable @b, %{{.*}} mode = add
  // EFFECTS: %[[C:.*]] = graph.read_variable @b
  // EFFECTS: graph.assign_variable @m
  // EFFECTS: return %[[A]], %[[A]], %[[C]]
  %a = graph.read_variable @b : tensor<2xf32>
  %b = graph.read_variable @b : tensor<2xf32>
  graph.assign_variable @b, %v mode = add : tensor<2xf32>
  %c = graph.read_variable @b : tensor<2xf32>
  graph.assign_variable @m, %v : tensor<2xf32>
  return %a, %b, %c : tensor<2xf32>, tensor<2xf32>, tensor<2xf32>
}

// An unused read has no lasting effect and is removed.
// EFFECTS-LABEL: func @dead_read
func.func @dead_read() {
  // EFFECTS-NOT: graph.read_variable
  %a = graph.read_variable @b : tensor<2xf32>
  return
}
