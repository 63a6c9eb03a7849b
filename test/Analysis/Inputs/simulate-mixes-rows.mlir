// A step that sums over its batch and uses the sum per row: the replicas
// strategy refuses it, and so the simulation has no replicated step.
func.func @main(%x: tensor<8x4xf32> {graph.name = "x"}) -> tensor<8x4xf32> {
  %s = graph.reduce %x {axes = array<i64: 0>, kind = #graph<reduce_kind sum>} : (tensor<8x4xf32>) -> tensor<4xf32>
  %y = graph.add %x, %s : (tensor<8x4xf32>, tensor<4xf32>) -> tensor<8x4xf32>
  return %y : tensor<8x4xf32>
}
