// A classifier whose only output is the class index: nothing to train on.
func.func @main(%x: tensor<6x4xf32> {graph.name = "x"}) -> tensor<6xi64>
    attributes {graph.output_names = ["class"]} {
  %w = graph.constant dense<[[1.0, 2.0], [3.0, 4.0], [5.0, 6.0], [7.0, 8.5]]> : tensor<4x2xf32> loc("w")
  %l = graph.matmul %x, %w : (tensor<6x4xf32>, tensor<4x2xf32>) -> tensor<6x2xf32>
  %c = graph.arg_reduce %l {axis = 1 : i64, kind = #graph<reduce_kind max>} : (tensor<6x2xf32>) -> tensor<6xi64>
  return %c : tensor<6xi64>
}
