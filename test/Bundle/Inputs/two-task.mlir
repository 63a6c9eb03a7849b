// A hand-partitioned two-task job (the form dist-partition produces):
// worker0 owns the input x (2x4) and sends row 1 to worker1; each scales its
// row by its own weight variable, the products are all-reduced (sum); worker1
// sends back g - x1, which worker0 concatenates under g + x0. Both add g to
// their weight (a training step's update; w0 and w1 start equal, so they
// share one weights file), and worker1 counts steps. An all_gather and a
// reduce_scatter along axis 1 (non-leading: transposed around the call), a
// broadcast of worker0's weight, an all_to_all of rows and one that splits
// columns and concatenates rows (transposed around the call) complete the
// collectives.
module attributes {dist.cluster = #dist.cluster<{worker = 2}>} {
  graph.variable @w0 : tensor<1x4xf32> = dense<[[1.0, 2.0, 3.0, 4.0]]> {dist.device = #dist.device<"/job:worker/task:0">}
  graph.variable @w1 : tensor<1x4xf32> = dense<[[1.0, 2.0, 3.0, 4.0]]> {dist.device = #dist.device<"/job:worker/task:1">}
  graph.variable @count : tensor<f32> = dense<0.0> {dist.device = #dist.device<"/job:worker/task:1">}

  dist.task @worker0 on #dist.device<"/job:worker/task:0">
      (%x: tensor<2x4xf32> {graph.name = "x"})
      -> (tensor<2x4xf32> {graph.name = "y"}, tensor<2x8xf32> {graph.name = "ag"},
          tensor<2x2xf32> {graph.name = "rs0"}, tensor<2x4xf32> {graph.name = "a2a0"},
          tensor<4x2xf32> {graph.name = "a2b0"}) {
    %x0 = graph.slice %x {starts = array<i64: 0, 0>, limits = array<i64: 1, 4>, strides = array<i64: 1, 1>} : (tensor<2x4xf32>) -> tensor<1x4xf32>
    %x1 = graph.slice %x {starts = array<i64: 1, 0>, limits = array<i64: 2, 4>, strides = array<i64: 1, 1>} : (tensor<2x4xf32>) -> tensor<1x4xf32>
    dist.send %x1 to #dist.device<"/job:worker/task:1"> key "x1" : tensor<1x4xf32>
    %w = graph.read_variable @w0 : tensor<1x4xf32>
    %p = graph.mul %x0, %w : (tensor<1x4xf32>, tensor<1x4xf32>) -> tensor<1x4xf32>
    %g = dist.all_reduce sum %p group [#dist.device<"/job:worker/task:0">, #dist.device<"/job:worker/task:1">] key "g" : tensor<1x4xf32> -> tensor<1x4xf32>
    %y0 = graph.add %g, %x0 : (tensor<1x4xf32>, tensor<1x4xf32>) -> tensor<1x4xf32>
    %y1 = dist.recv from #dist.device<"/job:worker/task:1"> key "y1" : tensor<1x4xf32>
    %y = graph.concat %y0, %y1 {axis = 0 : i64} : (tensor<1x4xf32>, tensor<1x4xf32>) -> tensor<2x4xf32>
    %ag = dist.all_gather %x axis 1 group [#dist.device<"/job:worker/task:0">, #dist.device<"/job:worker/task:1">] key "ag" : tensor<2x4xf32> -> tensor<2x8xf32>
    %rs = dist.reduce_scatter sum %x axis 1 group [#dist.device<"/job:worker/task:0">, #dist.device<"/job:worker/task:1">] key "rs" : tensor<2x4xf32> -> tensor<2x2xf32>
    %b = dist.broadcast %w root #dist.device<"/job:worker/task:0"> group [#dist.device<"/job:worker/task:0">, #dist.device<"/job:worker/task:1">] key "b" : tensor<1x4xf32> -> tensor<1x4xf32>
    %a2a = dist.all_to_all %x split 0 concat 0 group [#dist.device<"/job:worker/task:0">, #dist.device<"/job:worker/task:1">] key "a2a" : tensor<2x4xf32> -> tensor<2x4xf32>
    %a2b = dist.all_to_all %x split 1 concat 0 group [#dist.device<"/job:worker/task:0">, #dist.device<"/job:worker/task:1">] key "a2b" : tensor<2x4xf32> -> tensor<4x2xf32>
    graph.assign_variable @w0, %g mode = add : tensor<1x4xf32>
    dist.return %y, %ag, %rs, %a2a, %a2b : tensor<2x4xf32>, tensor<2x8xf32>, tensor<2x2xf32>, tensor<2x4xf32>, tensor<4x2xf32>
  }

  dist.task @worker1 on #dist.device<"/job:worker/task:1">
      () -> (tensor<f32> {graph.name = "count"}, tensor<2x2xf32> {graph.name = "rs1"},
             tensor<1x4xf32> {graph.name = "bw"}, tensor<2x4xf32> {graph.name = "a2a1"},
             tensor<4x2xf32> {graph.name = "a2b1"}) {
    %x1 = dist.recv from #dist.device<"/job:worker/task:0"> key "x1" : tensor<1x4xf32>
    %w = graph.read_variable @w1 : tensor<1x4xf32>
    %p = graph.mul %x1, %w : (tensor<1x4xf32>, tensor<1x4xf32>) -> tensor<1x4xf32>
    %g = dist.all_reduce sum %p group [#dist.device<"/job:worker/task:0">, #dist.device<"/job:worker/task:1">] key "g" : tensor<1x4xf32> -> tensor<1x4xf32>
    %y1 = graph.sub %g, %x1 : (tensor<1x4xf32>, tensor<1x4xf32>) -> tensor<1x4xf32>
    dist.send %y1 to #dist.device<"/job:worker/task:0"> key "y1" : tensor<1x4xf32>
    %xx = graph.concat %x1, %x1 {axis = 0 : i64} : (tensor<1x4xf32>, tensor<1x4xf32>) -> tensor<2x4xf32>
    %ag = dist.all_gather %xx axis 1 group [#dist.device<"/job:worker/task:0">, #dist.device<"/job:worker/task:1">] key "ag" : tensor<2x4xf32> -> tensor<2x8xf32>
    %rs = dist.reduce_scatter sum %xx axis 1 group [#dist.device<"/job:worker/task:0">, #dist.device<"/job:worker/task:1">] key "rs" : tensor<2x4xf32> -> tensor<2x2xf32>
    %b = dist.broadcast %w root #dist.device<"/job:worker/task:0"> group [#dist.device<"/job:worker/task:0">, #dist.device<"/job:worker/task:1">] key "b" : tensor<1x4xf32> -> tensor<1x4xf32>
    %a2a = dist.all_to_all %xx split 0 concat 0 group [#dist.device<"/job:worker/task:0">, #dist.device<"/job:worker/task:1">] key "a2a" : tensor<2x4xf32> -> tensor<2x4xf32>
    %a2b = dist.all_to_all %xx split 1 concat 0 group [#dist.device<"/job:worker/task:0">, #dist.device<"/job:worker/task:1">] key "a2b" : tensor<2x4xf32> -> tensor<4x2xf32>
    graph.assign_variable @w1, %g mode = add : tensor<1x4xf32>
    %c = graph.read_variable @count : tensor<f32>
    %one = graph.constant dense<1.0> : tensor<f32>
    %c1 = graph.add %c, %one : (tensor<f32>, tensor<f32>) -> tensor<f32>
    graph.assign_variable @count, %c1 : tensor<f32>
    dist.return %c1, %rs, %b, %a2a, %a2b : tensor<f32>, tensor<2x2xf32>, tensor<1x4xf32>, tensor<2x4xf32>, tensor<4x2xf32>
  }
}
