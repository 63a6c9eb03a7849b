// RUN: graph-opt %s --graph-apply-optimizer="return-weights" | FileCheck %s

// return-weights: the updated weight, then the other state the step sets
// (a running statistic), never an optimizer slot or an accumulation.
graph.variable @w : tensor<2xf32> = dense<1.0>
graph.variable @running_mean : tensor<2xf32> = dense<0.0> {graph.trainable = false}
graph.variable @step : tensor<i64> = dense<0>

// CHECK-LABEL: func.func @main
// CHECK-SAME: -> (tensor<f32>, tensor<2xf32>, tensor<2xf32>) attributes {graph.output_names = ["loss", "w", "running_mean"]}
// CHECK: %[[W:.*]] = graph.sgd_update
// CHECK: return %{{.*}}, %[[W]], %arg0
func.func @main(%x: tensor<2xf32>) -> (tensor<f32>, tensor<2xf32>) attributes {graph.output_names = ["loss", "grad/w"]} {
  %l = graph.constant dense<2.0> : tensor<f32>
  graph.assign_variable @running_mean, %x : tensor<2xf32>
  %one = graph.constant dense<1> : tensor<i64>
  graph.assign_variable @step, %one mode = add : tensor<i64>
  return %l, %x : tensor<f32>, tensor<2xf32>
}
