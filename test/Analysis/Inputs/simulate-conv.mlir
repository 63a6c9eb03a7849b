// A one-convolution model: its training step's filter gradient is a
// convolution over the batch as channels, which the replicas strategy
// turns into a partial sum (as in ResNet and Inception).
func.func @main(%x: tensor<4x1x4x4xf32> {graph.name = "x"}) -> tensor<4x2x2x2xf32>
    attributes {graph.output_names = ["y"]} {
  %w = graph.constant dense<[[[[0.1, 0.2, 0.3], [0.4, 0.5, 0.6], [0.7, 0.8, 0.9]]], [[[0.9, 0.8, 0.7], [0.6, 0.5, 0.4], [0.3, 0.2, 0.1]]]]> : tensor<2x1x3x3xf32>
  %y = graph.conv %x, %w : (tensor<4x1x4x4xf32>, tensor<2x1x3x3xf32>) -> tensor<4x2x2x2xf32>
  return %y : tensor<4x2x2x2xf32>
}
