// An inference MLP, batch 64, 256 -> 512 -> 10: compute-heavy enough that
// data parallelism pays on a fast link and loses on a slow one.
module {
  graph.variable @w1 : tensor<256x512xf32>
  graph.variable @w2 : tensor<512x10xf32>
  func.func @main(%x: tensor<64x256xf32> {graph.name = "x"}) -> (tensor<64x10xf32> {graph.name = "y"}) {
    %w1 = graph.read_variable @w1 : tensor<256x512xf32>
    %h = graph.matmul %x, %w1 : (tensor<64x256xf32>, tensor<256x512xf32>) -> tensor<64x512xf32>
    %r = graph.relu %h : (tensor<64x512xf32>) -> tensor<64x512xf32>
    %w2 = graph.read_variable @w2 : tensor<512x10xf32>
    %y = graph.matmul %r, %w2 : (tensor<64x512xf32>, tensor<512x10xf32>) -> tensor<64x10xf32>
    return %y : tensor<64x10xf32>
  }
}
