// The runtime test bundle coll3 (runtime/test/tasks/CollectiveTask.cpp) as a
// partitioned module: every collective of one step, group of three, on
// f32[3 x 1001]; report-runtime.test compares the report with its counters.
module attributes {dist.cluster = #dist.cluster<{worker = 3}>} {
  dist.task @c0 on #dist.device<"/job:worker/task:0"> (%x: tensor<3003xf32> {graph.name = "x0"}, %b: tensor<1001xf32> {graph.name = "b0"}) {
    %s = dist.all_reduce sum %x group [#dist.device<"/job:worker/task:0">, #dist.device<"/job:worker/task:1">, #dist.device<"/job:worker/task:2">] key "s" : tensor<3003xf32> -> tensor<3003xf32>
    %m = dist.all_reduce mean %x group [#dist.device<"/job:worker/task:0">, #dist.device<"/job:worker/task:1">, #dist.device<"/job:worker/task:2">] key "m" : tensor<3003xf32> -> tensor<3003xf32>
    %mx = dist.all_reduce max %x group [#dist.device<"/job:worker/task:0">, #dist.device<"/job:worker/task:1">, #dist.device<"/job:worker/task:2">] key "mx" : tensor<3003xf32> -> tensor<3003xf32>
    %mn = dist.all_reduce min %x group [#dist.device<"/job:worker/task:0">, #dist.device<"/job:worker/task:1">, #dist.device<"/job:worker/task:2">] key "mn" : tensor<3003xf32> -> tensor<3003xf32>
    %g = dist.all_gather %b axis 0 group [#dist.device<"/job:worker/task:0">, #dist.device<"/job:worker/task:1">, #dist.device<"/job:worker/task:2">] key "g" : tensor<1001xf32> -> tensor<3003xf32>
    %rs = dist.reduce_scatter sum %x axis 0 group [#dist.device<"/job:worker/task:0">, #dist.device<"/job:worker/task:1">, #dist.device<"/job:worker/task:2">] key "rs" : tensor<3003xf32> -> tensor<1001xf32>
    %bc = dist.broadcast %x root #dist.device<"/job:worker/task:1"> group [#dist.device<"/job:worker/task:0">, #dist.device<"/job:worker/task:1">, #dist.device<"/job:worker/task:2">] key "bc" : tensor<3003xf32> -> tensor<3003xf32>
    %a = dist.all_to_all %x split 0 concat 0 group [#dist.device<"/job:worker/task:0">, #dist.device<"/job:worker/task:1">, #dist.device<"/job:worker/task:2">] key "a2a" : tensor<3003xf32> -> tensor<3003xf32>
    dist.return
  }
  dist.task @c1 on #dist.device<"/job:worker/task:1"> (%x: tensor<3003xf32> {graph.name = "x1"}, %b: tensor<1001xf32> {graph.name = "b1"}) {
    %s = dist.all_reduce sum %x group [#dist.device<"/job:worker/task:0">, #dist.device<"/job:worker/task:1">, #dist.device<"/job:worker/task:2">] key "s" : tensor<3003xf32> -> tensor<3003xf32>
    %m = dist.all_reduce mean %x group [#dist.device<"/job:worker/task:0">, #dist.device<"/job:worker/task:1">, #dist.device<"/job:worker/task:2">] key "m" : tensor<3003xf32> -> tensor<3003xf32>
    %mx = dist.all_reduce max %x group [#dist.device<"/job:worker/task:0">, #dist.device<"/job:worker/task:1">, #dist.device<"/job:worker/task:2">] key "mx" : tensor<3003xf32> -> tensor<3003xf32>
    %mn = dist.all_reduce min %x group [#dist.device<"/job:worker/task:0">, #dist.device<"/job:worker/task:1">, #dist.device<"/job:worker/task:2">] key "mn" : tensor<3003xf32> -> tensor<3003xf32>
    %g = dist.all_gather %b axis 0 group [#dist.device<"/job:worker/task:0">, #dist.device<"/job:worker/task:1">, #dist.device<"/job:worker/task:2">] key "g" : tensor<1001xf32> -> tensor<3003xf32>
    %rs = dist.reduce_scatter sum %x axis 0 group [#dist.device<"/job:worker/task:0">, #dist.device<"/job:worker/task:1">, #dist.device<"/job:worker/task:2">] key "rs" : tensor<3003xf32> -> tensor<1001xf32>
    %bc = dist.broadcast %x root #dist.device<"/job:worker/task:1"> group [#dist.device<"/job:worker/task:0">, #dist.device<"/job:worker/task:1">, #dist.device<"/job:worker/task:2">] key "bc" : tensor<3003xf32> -> tensor<3003xf32>
    %a = dist.all_to_all %x split 0 concat 0 group [#dist.device<"/job:worker/task:0">, #dist.device<"/job:worker/task:1">, #dist.device<"/job:worker/task:2">] key "a2a" : tensor<3003xf32> -> tensor<3003xf32>
    dist.return
  }
  dist.task @c2 on #dist.device<"/job:worker/task:2"> (%x: tensor<3003xf32> {graph.name = "x2"}, %b: tensor<1001xf32> {graph.name = "b2"}) {
    %s = dist.all_reduce sum %x group [#dist.device<"/job:worker/task:0">, #dist.device<"/job:worker/task:1">, #dist.device<"/job:worker/task:2">] key "s" : tensor<3003xf32> -> tensor<3003xf32>
    %m = dist.all_reduce mean %x group [#dist.device<"/job:worker/task:0">, #dist.device<"/job:worker/task:1">, #dist.device<"/job:worker/task:2">] key "m" : tensor<3003xf32> -> tensor<3003xf32>
    %mx = dist.all_reduce max %x group [#dist.device<"/job:worker/task:0">, #dist.device<"/job:worker/task:1">, #dist.device<"/job:worker/task:2">] key "mx" : tensor<3003xf32> -> tensor<3003xf32>
    %mn = dist.all_reduce min %x group [#dist.device<"/job:worker/task:0">, #dist.device<"/job:worker/task:1">, #dist.device<"/job:worker/task:2">] key "mn" : tensor<3003xf32> -> tensor<3003xf32>
    %g = dist.all_gather %b axis 0 group [#dist.device<"/job:worker/task:0">, #dist.device<"/job:worker/task:1">, #dist.device<"/job:worker/task:2">] key "g" : tensor<1001xf32> -> tensor<3003xf32>
    %rs = dist.reduce_scatter sum %x axis 0 group [#dist.device<"/job:worker/task:0">, #dist.device<"/job:worker/task:1">, #dist.device<"/job:worker/task:2">] key "rs" : tensor<3003xf32> -> tensor<1001xf32>
    %bc = dist.broadcast %x root #dist.device<"/job:worker/task:1"> group [#dist.device<"/job:worker/task:0">, #dist.device<"/job:worker/task:1">, #dist.device<"/job:worker/task:2">] key "bc" : tensor<3003xf32> -> tensor<3003xf32>
    %a = dist.all_to_all %x split 0 concat 0 group [#dist.device<"/job:worker/task:0">, #dist.device<"/job:worker/task:1">, #dist.device<"/job:worker/task:2">] key "a2a" : tensor<3003xf32> -> tensor<3003xf32>
    dist.return
  }
}
