// An inference MLP deep enough for four pipeline stages and wide enough for
// four tensor-parallel shards: batch 64, 256 -> 512 -> 256 -> 512 -> 16.
module {
  graph.variable @w1 : tensor<256x512xf32>
  graph.variable @w2 : tensor<512x256xf32>
  graph.variable @w3 : tensor<256x512xf32>
  graph.variable @w4 : tensor<512x16xf32>
  func.func @main(%x: tensor<64x256xf32> {graph.name = "x"}) -> (tensor<64x16xf32> {graph.name = "y"}) {
    %w1 = graph.read_variable @w1 : tensor<256x512xf32>
    %h1 = graph.matmul %x, %w1 : (tensor<64x256xf32>, tensor<256x512xf32>) -> tensor<64x512xf32>
    %r1 = graph.relu %h1 : (tensor<64x512xf32>) -> tensor<64x512xf32>
    %w2 = graph.read_variable @w2 : tensor<512x256xf32>
    %h2 = graph.matmul %r1, %w2 : (tensor<64x512xf32>, tensor<512x256xf32>) -> tensor<64x256xf32>
    %r2 = graph.relu %h2 : (tensor<64x256xf32>) -> tensor<64x256xf32>
    %w3 = graph.read_variable @w3 : tensor<256x512xf32>
    %h3 = graph.matmul %r2, %w3 : (tensor<64x256xf32>, tensor<256x512xf32>) -> tensor<64x512xf32>
    %r3 = graph.relu %h3 : (tensor<64x512xf32>) -> tensor<64x512xf32>
    %w4 = graph.read_variable @w4 : tensor<512x16xf32>
    %y = graph.matmul %r3, %w4 : (tensor<64x512xf32>, tensor<512x16xf32>) -> tensor<64x16xf32>
    return %y : tensor<64x16xf32>
  }
}
