// A model with an op the TPU target does not lower (erf needs XLA's chlo).
func.func @main(%x: tensor<4xf32> {graph.name = "x"}) -> tensor<4xf32> {
  %0 = graph.erf %x : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}
