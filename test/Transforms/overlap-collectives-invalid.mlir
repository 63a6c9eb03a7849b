// RUN: graph-opt %s --verify-diagnostics -o /dev/null

// Only an all-reduce carries the mark.
module attributes {dist.cluster = #dist.cluster<{w = 2}>} {
  dist.task @w0 on #dist.device<"/job:w/task:0"> (%x: tensor<4xf32>) -> (tensor<8xf32>) {
    // expected-error @below {{'dist.overlap' must be a unit attribute on a dist.all_reduce}}
    %g = dist.all_gather %x axis 0 group [#dist.device<"/job:w/task:0">, #dist.device<"/job:w/task:1">] key "g" {dist.overlap} : tensor<4xf32> -> tensor<8xf32>
    dist.return %g : tensor<8xf32>
  }
  dist.task @w1 on #dist.device<"/job:w/task:1"> (%x: tensor<4xf32>) -> (tensor<8xf32>) {
    %g = dist.all_gather %x axis 0 group [#dist.device<"/job:w/task:0">, #dist.device<"/job:w/task:1">] key "g" : tensor<4xf32> -> tensor<8xf32>
    dist.return %g : tensor<8xf32>
  }
}
