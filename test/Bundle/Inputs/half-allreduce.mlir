// Three tasks all-reduce (sum) bf16 and f16 tensors cast from their
// constants; see run-half-allreduce.test.
module attributes {dist.cluster = #dist.cluster<{worker = 3}>} {
  dist.task @worker0 on #dist.device<"/job:worker/task:0">() -> (tensor<4xf32> {graph.name = "bf16"}, tensor<4xf32> {graph.name = "f16"}) {
    %v = graph.constant dense<[256.0, 1.0, 2048.0, 0.5]> : tensor<4xf32>
    %b = graph.cast %v {to = bf16} : (tensor<4xf32>) -> tensor<4xbf16>
    %br = dist.all_reduce sum %b group [#dist.device<"/job:worker/task:0">, #dist.device<"/job:worker/task:1">, #dist.device<"/job:worker/task:2">] key "b" : tensor<4xbf16> -> tensor<4xbf16>
    %bf = graph.cast %br {to = f32} : (tensor<4xbf16>) -> tensor<4xf32>
    %h = graph.cast %v {to = f16} : (tensor<4xf32>) -> tensor<4xf16>
    %hr = dist.all_reduce sum %h group [#dist.device<"/job:worker/task:0">, #dist.device<"/job:worker/task:1">, #dist.device<"/job:worker/task:2">] key "h" : tensor<4xf16> -> tensor<4xf16>
    %hf = graph.cast %hr {to = f32} : (tensor<4xf16>) -> tensor<4xf32>
    dist.return %bf, %hf : tensor<4xf32>, tensor<4xf32>
  }
  dist.task @worker1 on #dist.device<"/job:worker/task:1">() {
    %v = graph.constant dense<[1.0, 1.0, 1.0, 0.25]> : tensor<4xf32>
    %b = graph.cast %v {to = bf16} : (tensor<4xf32>) -> tensor<4xbf16>
    %br = dist.all_reduce sum %b group [#dist.device<"/job:worker/task:0">, #dist.device<"/job:worker/task:1">, #dist.device<"/job:worker/task:2">] key "b" : tensor<4xbf16> -> tensor<4xbf16>
    %bf = graph.cast %br {to = f32} : (tensor<4xbf16>) -> tensor<4xf32>
    %h = graph.cast %v {to = f16} : (tensor<4xf32>) -> tensor<4xf16>
    %hr = dist.all_reduce sum %h group [#dist.device<"/job:worker/task:0">, #dist.device<"/job:worker/task:1">, #dist.device<"/job:worker/task:2">] key "h" : tensor<4xf16> -> tensor<4xf16>
    %hf = graph.cast %hr {to = f32} : (tensor<4xf16>) -> tensor<4xf32>
    dist.return
  }
  dist.task @worker2 on #dist.device<"/job:worker/task:2">() {
    %v = graph.constant dense<[1.0, 1.0, 1.0, 0.25]> : tensor<4xf32>
    %b = graph.cast %v {to = bf16} : (tensor<4xf32>) -> tensor<4xbf16>
    %br = dist.all_reduce sum %b group [#dist.device<"/job:worker/task:0">, #dist.device<"/job:worker/task:1">, #dist.device<"/job:worker/task:2">] key "b" : tensor<4xbf16> -> tensor<4xbf16>
    %bf = graph.cast %br {to = f32} : (tensor<4xbf16>) -> tensor<4xf32>
    %h = graph.cast %v {to = f16} : (tensor<4xf32>) -> tensor<4xf16>
    %hr = dist.all_reduce sum %h group [#dist.device<"/job:worker/task:0">, #dist.device<"/job:worker/task:1">, #dist.device<"/job:worker/task:2">] key "h" : tensor<4xf16> -> tensor<4xf16>
    %hf = graph.cast %hr {to = f32} : (tensor<4xf16>) -> tensor<4xf32>
    dist.return
  }
}
