// A three-layer MLP (8 -> 6 -> relu -> 6 -> tanh -> 4) for a batch of 8,
// weights as constants: what place-pipeline-train.mlir trains in stages.
func.func @main(%x: tensor<8x8xf32> {graph.name = "x"}) -> tensor<8x4xf32>
    attributes {graph.output_names = ["logits"]} {
  %w1 = graph.constant dense<[[0.14,-0.23,-0.46,-0.48,0.31,0.41],[0.11,0.23,0.04,0.44,0.32,-0.5],[0.36,-0.47,0.23,-0.32,0.36,0.04],[-0.2,-0.08,-0.47,-0.38,0.17,0.15],[0.12,-0.12,0.5,0.48,0.19,0.15],[0.19,-0.11,-0.36,0.22,0.03,-0.19],[-0.01,0.39,0.43,-0.14,0.07,-0.18],[0.09,-0.16,-0.11,0.39,-0.27,0.12]]> : tensor<8x6xf32> loc("fc1.weight")
  %w2 = graph.constant dense<[[-0.42,0.33,0.29,-0.26,0.38,-0.44],[-0.16,-0.35,-0.05,0.3,-0.27,-0.45],[-0.1,-0.3,-0.41,0.08,-0.2,0.17],[-0.3,0.44,-0.13,-0.39,0.13,0.43],[-0.06,0.45,-0.0,-0.07,0.12,0.5],[0.45,-0.04,0.26,-0.0,0.03,0.29]]> : tensor<6x6xf32> loc("fc2.weight")
  %b2 = graph.constant dense<[-0.09,0.23,0.21,0.43,-0.39,0.23]> : tensor<6xf32> loc("fc2.bias")
  %w3 = graph.constant dense<[[0.43,0.47,-0.49,0.36],[0.48,0.46,-0.35,0.47],[0.39,0.32,-0.02,-0.27],[0.3,0.42,-0.23,0.04],[-0.06,0.43,-0.46,0.23],[0.11,-0.47,0.22,-0.48]]> : tensor<6x4xf32> loc("fc3.weight")
  %h = graph.matmul %x, %w1 : (tensor<8x8xf32>, tensor<8x6xf32>) -> tensor<8x6xf32>
  %a = graph.relu %h : (tensor<8x6xf32>) -> tensor<8x6xf32>
  %g = graph.matmul %a, %w2 : (tensor<8x6xf32>, tensor<6x6xf32>) -> tensor<8x6xf32>
  %gb = graph.add %g, %b2 : (tensor<8x6xf32>, tensor<6xf32>) -> tensor<8x6xf32>
  %t = graph.tanh %gb : (tensor<8x6xf32>) -> tensor<8x6xf32>
  %y = graph.matmul %t, %w3 : (tensor<8x6xf32>, tensor<6x4xf32>) -> tensor<8x4xf32>
  return %y : tensor<8x4xf32>
}
