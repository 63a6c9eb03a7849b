// The runtime's hand-written producer/consumer pair
// (runtime/test/tasks/PairTask.cpp) as a partitioned module: "edge" carries
// f32[100000] one way, "back" an i64[1] the other.
module attributes {dist.cluster = #dist.cluster<{worker = 2}>} {
  dist.task @producer on #dist.device<"/job:worker/task:0"> (%x: tensor<100000xf32> {graph.name = "x"}) -> (tensor<1xi64> {graph.name = "p_last"}) {
    dist.send %x to #dist.device<"/job:worker/task:1"> key "edge" : tensor<100000xf32>
    %b = dist.recv from #dist.device<"/job:worker/task:1"> key "back" : tensor<1xi64>
    dist.return %b : tensor<1xi64>
  }
  dist.task @consumer on #dist.device<"/job:worker/task:1"> (%s: tensor<1xi64> {graph.name = "s"}) -> (tensor<100000xf32> {graph.name = "y"}) {
    %y = dist.recv from #dist.device<"/job:worker/task:0"> key "edge" : tensor<100000xf32>
    dist.send %s to #dist.device<"/job:worker/task:0"> key "back" : tensor<1xi64>
    dist.return %y : tensor<100000xf32>
  }
}
