// A weight is scattered into the input: graph.scatter_elements has no
// gradient rule.
func.func @main(%x: tensor<2x4xf32> {graph.name = "x"}) -> tensor<2x4xf32>
    attributes {graph.output_names = ["logits"]} {
  %w = graph.constant dense<[[1.0, 2.0], [3.0, 4.5]]> : tensor<2x2xf32> loc("w")
  %i = graph.constant dense<[[0, 3], [1, 2]]> : tensor<2x2xi64>
  %s = graph.scatter_elements %x, %i, %w {axis = 1 : i64} : (tensor<2x4xf32>, tensor<2x2xi64>, tensor<2x2xf32>) -> tensor<2x4xf32> loc("scatter1")
  return %s : tensor<2x4xf32>
}
