// A two-layer MLP whose weights are constants (as an ONNX export's
// initializers are): the model graphc --train turns into a training step.
func.func @main(%x: tensor<6x4xf32> {graph.name = "x"}) -> tensor<6x3xf32>
    attributes {graph.output_names = ["logits"]} {
  %w1 = graph.constant dense<[[0.049, 0.215, 0.103, 0.045, -0.076], [0.146, -0.062, 0.392, 0.464, -0.117], [0.292, 0.029, 0.068, 0.426, -0.429], [-0.413, -0.480, 0.333, 0.278, 0.370]]> : tensor<4x5xf32> loc("fc1.weight")
  %b1 = graph.constant dense<[0.479, 0.299, -0.039, 0.281, -0.382]> : tensor<5xf32> loc("fc1.bias")
  %w2 = graph.constant dense<[[0.140, -0.357, 0.445], [0.022, -0.085, -0.235], [0.274, -0.044, 0.068], [-0.481, 0.118, 0.112], [0.117, 0.444, 0.182]]> : tensor<5x3xf32> loc("fc2.weight")
  %b2 = graph.constant dense<[-0.140, -0.063, 0.198]> : tensor<3xf32> loc("fc2.bias")
  %h = graph.matmul %x, %w1 : (tensor<6x4xf32>, tensor<4x5xf32>) -> tensor<6x5xf32>
  %hb = graph.add %h, %b1 : (tensor<6x5xf32>, tensor<5xf32>) -> tensor<6x5xf32>
  %a = graph.relu %hb : (tensor<6x5xf32>) -> tensor<6x5xf32>
  %o = graph.matmul %a, %w2 : (tensor<6x5xf32>, tensor<5x3xf32>) -> tensor<6x3xf32>
  %y = graph.add %o, %b2 : (tensor<6x3xf32>, tensor<3xf32>) -> tensor<6x3xf32>
  return %y : tensor<6x3xf32>
}
