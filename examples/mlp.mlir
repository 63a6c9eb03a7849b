// A two-layer MLP in the graph dialect: graphc's embedded example.
// The hidden and output shapes are left dynamic; graphc infers them.
func.func @main(%x: tensor<8x784xf32>, %w1: tensor<784x128xf32>,
                %b1: tensor<128xf32>, %w2: tensor<128x10xf32>,
                %b2: tensor<10xf32>) -> tensor<*xf32> {
  %h = graph.matmul %x, %w1 : (tensor<8x784xf32>, tensor<784x128xf32>) -> tensor<?x?xf32>
  %hb = graph.add %h, %b1 : (tensor<?x?xf32>, tensor<128xf32>) -> tensor<?x?xf32>
  %o = graph.matmul %hb, %w2 : (tensor<?x?xf32>, tensor<128x10xf32>) -> tensor<?x?xf32>
  %y = graph.add %o, %b2 : (tensor<?x?xf32>, tensor<10xf32>) -> tensor<*xf32>
  return %y : tensor<*xf32>
}
