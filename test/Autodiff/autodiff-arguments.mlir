// RUN: graph-opt %s --graph-autodiff=wrt=arguments | FileCheck %s --check-prefix=ARGS

// wrt=arguments names gradients after graph.name; integer arguments and
// values that only feed integer ops are not differentiated, and an op off
// every path to the loss (the argmax) needs no rule.

// ARGS-LABEL: func.func @named
// ARGS-SAME: -> (tensor<f32>, tensor<2xi64>, tensor<2x3xf32>)
// ARGS-SAME: graph.output_names = ["loss", "prediction", "grad/logits"]
func.func @named(%logits: tensor<2x3xf32> {graph.name = "logits"}, %labels: tensor<2xi64> {graph.name = "labels"}) -> (tensor<f32>, tensor<2xi64>) attributes {graph.output_names = ["loss", "prediction"]} {
  %loss, %grad = graph.softmax_cross_entropy %logits, %labels {sparse} : (tensor<2x3xf32>, tensor<2xi64>) -> (tensor<2xf32>, tensor<2x3xf32>)
  %mean = graph.reduce %loss {axes = array<i64: 0>, kind = #graph<reduce_kind mean>} : (tensor<2xf32>) -> tensor<f32>
  %p = graph.arg_reduce %logits {axis = 1 : i64, kind = #graph<reduce_kind max>} : (tensor<2x3xf32>) -> tensor<2xi64>
  return %mean, %p : tensor<f32>, tensor<2xi64>
}
// ARGS: %[[G:.*]] = graph.mul %{{.*}}, %{{.*}} : (tensor<2x1xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
// ARGS: return %{{.*}}, %{{.*}}, %[[G]] : tensor<f32>, tensor<2xi64>, tensor<2x3xf32>

