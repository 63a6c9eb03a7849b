// A two-layer MLP in the graph dialect: graphc's embedded example.
// The hidden and output shapes are left dynamic; graphc infers them.
func.func @main(%x: tensor<8x784xf32> {graph.name = "x"},
                %w1: tensor<784x128xf32> {graph.name = "w1"},
                %b1: tensor<128xf32> {graph.name = "b1"},
                %w2: tensor<128x10xf32> {graph.name = "w2"},
                %b2: tensor<10xf32> {graph.name = "b2"}) -> tensor<*xf32>
    attributes {graph.output_names = ["logits"]} {
  %h = graph.matmul %x, %w1 : (tensor<8x784xf32>, tensor<784x128xf32>) -> tensor<?x?xf32>
  %hb = graph.add %h, %b1 : (tensor<?x?xf32>, tensor<128xf32>) -> tensor<?x?xf32>
  %a = graph.relu %hb : (tensor<?x?xf32>) -> tensor<?x?xf32>
  %o = graph.matmul %a, %w2 : (tensor<?x?xf32>, tensor<128x10xf32>) -> tensor<?x?xf32>
  %y = graph.add %o, %b2 : (tensor<?x?xf32>, tensor<10xf32>) -> tensor<*xf32>
  return %y : tensor<*xf32>
}
