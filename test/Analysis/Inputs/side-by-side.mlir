// Two tasks that compute side by side from the start, with nothing to
// exchange: worker0 a matmul of 8192 flops, worker1 one of 4096 (8.192 and
// 4.096 us at 1 GFLOP/s on a core each).
module attributes {dist.cluster = #dist.cluster<{worker = 2}>} {
  graph.variable @w0 : tensor<64x16xf32> = dense<1.0>
      {dist.device = #dist.device<"/job:worker/task:0">}
  graph.variable @w1 : tensor<64x8xf32> = dense<1.0>
      {dist.device = #dist.device<"/job:worker/task:1">}

  dist.task @worker0 on #dist.device<"/job:worker/task:0">
      (%x: tensor<4x64xf32> {graph.name = "x0"}) -> (tensor<4x16xf32> {graph.name = "y0"}) {
    %w = graph.read_variable @w0 : tensor<64x16xf32>
    %y = graph.matmul %x, %w : (tensor<4x64xf32>, tensor<64x16xf32>) -> tensor<4x16xf32>
    dist.return %y : tensor<4x16xf32>
  }

  dist.task @worker1 on #dist.device<"/job:worker/task:1">
      (%x: tensor<4x64xf32> {graph.name = "x1"}) -> (tensor<4x8xf32> {graph.name = "y1"}) {
    %w = graph.read_variable @w1 : tensor<64x8xf32>
    %y = graph.matmul %x, %w : (tensor<4x64xf32>, tensor<64x8xf32>) -> tensor<4x8xf32>
    dist.return %y : tensor<4x8xf32>
  }
}
