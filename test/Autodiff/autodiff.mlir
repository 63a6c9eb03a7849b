// RUN: graph-opt %s --graph-autodiff --split-input-file | FileCheck %s
// RUN: graph-opt %s --graph-autodiff=wrt=arguments --split-input-file | FileCheck %s --check-prefix=ARGS

// wrt=variables: one grad/ result per float variable read, after the loss,
// in the order of first reads; a variable read twice gets the sum; the
// integer variable and the one marked graph.trainable = false get none; a
// variable the loss does not depend on gets zeros. Arguments are not
// differentiated.

graph.variable @w : tensor<3x2xf32>
graph.variable @b : tensor<2xf32>
graph.variable @frozen : tensor<2xf32> {graph.trainable = false}
graph.variable @unused : tensor<4xf32>
graph.variable @step : tensor<i64>

// CHECK-LABEL: func.func @main(
// CHECK-SAME: %[[X:[^:]*]]: tensor<4x3xf32>)
// CHECK-SAME: -> (tensor<f32>, tensor<3x2xf32>, tensor<2xf32>, tensor<4xf32>)
// CHECK-SAME: graph.output_names = ["loss", "grad/w", "grad/b", "grad/unused"]
func.func @main(%x: tensor<4x3xf32>) -> tensor<f32> attributes {graph.output_names = ["loss"]} {
  %w = graph.read_variable @w : tensor<3x2xf32>
  %b = graph.read_variable @b : tensor<2xf32>
  %f = graph.read_variable @frozen : tensor<2xf32>
  %u = graph.read_variable @unused : tensor<4xf32>
  %s = graph.read_variable @step : tensor<i64>
  %b2 = graph.read_variable @b : tensor<2xf32>
  %m = graph.matmul %x, %w : (tensor<4x3xf32>, tensor<3x2xf32>) -> tensor<4x2xf32>
  %a = graph.add %m, %b : (tensor<4x2xf32>, tensor<2xf32>) -> tensor<4x2xf32>
  %c = graph.mul %a, %b2 : (tensor<4x2xf32>, tensor<2xf32>) -> tensor<4x2xf32>
  %d = graph.add %c, %f : (tensor<4x2xf32>, tensor<2xf32>) -> tensor<4x2xf32>
  %l = graph.reduce %d {axes = array<i64: 0, 1>, kind = #graph<reduce_kind mean>} : (tensor<4x2xf32>) -> tensor<f32>
  graph.assign_variable @step, %s mode = add : tensor<i64>
  return %l : tensor<f32>
}
// Each differentiated op and the ops of its gradient share a mark (the
// pipeline strategy runs them on one stage); constants are not marked.
// CHECK: %[[M:.*]] = graph.matmul %[[X]], %{{.*}} {graph.forward_id = [[MID:[0-9]+]] : i64}
// CHECK: %[[SEED:.*]] = graph.constant dense<1.000000e+00> : tensor<f32>
// The mean's gradient is 1/8 everywhere.
// CHECK: graph.constant dense<1.250000e-01>
// d loss / d w = x^T g.
// CHECK: %[[GW:.*]] = graph.matmul %[[X]], %{{.*}} {graph.grad_of = [[MID]] : i64, transpose_lhs} : (tensor<4x3xf32>, tensor<4x2xf32>) -> tensor<3x2xf32>
// The two reads of @b are summed.
// CHECK: %[[GB:.*]] = graph.add %{{.*}}, %{{.*}} : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
// CHECK: %[[ZERO:.*]] = graph.constant dense<0.000000e+00> : tensor<4xf32>
// CHECK: return %{{.*}}, %[[GW]], %[[GB]], %[[ZERO]] : tensor<f32>, tensor<3x2xf32>, tensor<2xf32>, tensor<4xf32>

// ARGS-LABEL: func.func @main
// ARGS-SAME: graph.output_names = ["loss", "grad/arg0"]

// -----

// Variables read only as an inference batch_norm's mean and variance are
// running statistics (PyTorch buffers), not weights.
graph.variable @gamma : tensor<2xf32>
graph.variable @beta : tensor<2xf32>
graph.variable @running_mean : tensor<2xf32>
graph.variable @running_var : tensor<2xf32>

// CHECK-LABEL: func.func @bn
// CHECK-SAME: graph.output_names = ["loss", "grad/gamma", "grad/beta"]
func.func @bn(%x: tensor<4x2xf32>) -> tensor<f32> attributes {graph.output_names = ["loss"]} {
  %g = graph.read_variable @gamma : tensor<2xf32>
  %b = graph.read_variable @beta : tensor<2xf32>
  %m = graph.read_variable @running_mean : tensor<2xf32>
  %v = graph.read_variable @running_var : tensor<2xf32>
  %y = graph.batch_norm %x, %g, %b, %m, %v : (tensor<4x2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>) -> tensor<4x2xf32>
  %l = graph.reduce %y {axes = array<i64: 0, 1>, kind = #graph<reduce_kind sum>} : (tensor<4x2xf32>) -> tensor<f32>
  return %l : tensor<f32>
}

// -----

// When an importer marked the weights `trainable`, only those are
// differentiated.
graph.variable @weight trainable : tensor<2xf32>
graph.variable @other : tensor<2xf32>

// CHECK-LABEL: func.func @marked
// CHECK-SAME: graph.output_names = ["loss", "grad/weight"]
func.func @marked(%x: tensor<2xf32>) -> tensor<f32> attributes {graph.output_names = ["loss"]} {
  %w = graph.read_variable @weight : tensor<2xf32>
  %o = graph.read_variable @other : tensor<2xf32>
  %a = graph.mul %x, %w : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
  %b = graph.mul %a, %o : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
  %l = graph.reduce %b {axes = array<i64: 0>, kind = #graph<reduce_kind sum>} : (tensor<2xf32>) -> tensor<f32>
  return %l : tensor<f32>
}
