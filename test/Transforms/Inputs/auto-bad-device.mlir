// A model that asks for replica 1, which graphc's clusters do not have.
func.func @main(%x: tensor<4x8xf32> {graph.name = "x"}) -> tensor<4x8xf32> {
  %y = graph.relu %x {dist.device = #dist.device<"/job:worker/replica:1/task:0">} : (tensor<4x8xf32>) -> tensor<4x8xf32>
  return %y : tensor<4x8xf32>
}
