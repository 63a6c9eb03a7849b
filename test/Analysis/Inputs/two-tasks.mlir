// A small partitioned module the machine-model tests read.
module attributes {dist.cluster = #dist.cluster<{worker = 2}>} {
  dist.task @worker0 on #dist.device<"/job:worker/task:0"> (%x: tensor<4xf32> {graph.name = "x"}) {
    dist.send %x to #dist.device<"/job:worker/task:1"> key "x" : tensor<4xf32>
    dist.return
  }
  dist.task @worker1 on #dist.device<"/job:worker/task:1"> () -> (tensor<4xf32> {graph.name = "y"}) {
    %y = dist.recv from #dist.device<"/job:worker/task:0"> key "x" : tensor<4xf32>
    dist.return %y : tensor<4xf32>
  }
}
