// A weight feeds local response normalisation, which has no gradient rule.
func.func @main(%x: tensor<2x4x1x1xf32> {graph.name = "x"}) -> tensor<2x4xf32>
    attributes {graph.output_names = ["logits"]} {
  %w = graph.constant dense<[1.0, 2.0, 3.0, 4.5]> : tensor<4xf32> loc("w")
  %r = graph.reshape %w {shape = array<i64: 1, 4, 1, 1>} : (tensor<4xf32>) -> tensor<1x4x1x1xf32>
  %m = graph.mul %x, %r : (tensor<2x4x1x1xf32>, tensor<1x4x1x1xf32>) -> tensor<2x4x1x1xf32>
  %n = graph.lrn %m {size = 3 : i64, alpha = 1.0e-4 : f32, beta = 0.75 : f32, bias = 1.0 : f32} : (tensor<2x4x1x1xf32>) -> tensor<2x4x1x1xf32> loc("lrn1")
  %o = graph.reshape %n {shape = array<i64: 2, 4>} : (tensor<2x4x1x1xf32>) -> tensor<2x4xf32>
  return %o : tensor<2x4xf32>
}
