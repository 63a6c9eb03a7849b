// RUN: graph-opt %s --canonicalize --cse | FileCheck %s

// Communication ops have side effects: a recv or collective whose result is
// unused is kept (its peers would otherwise wait forever), while a pure op
// with an unused result is erased.

module attributes {dist.cluster = #dist.cluster<{worker = 2}>} {
  // CHECK-LABEL: dist.task @w0
  dist.task @w0 on #dist.device<"/job:worker/task:0"> (%x: tensor<4xf32>) {
    // CHECK-NEXT: dist.send
    dist.send %x to #dist.device<"/job:worker/task:1"> key "a" : tensor<4xf32>
    // CHECK-NEXT: dist.recv {{.*}} key "b"
    %unused = dist.recv from #dist.device<"/job:worker/task:1"> key "b" : tensor<4xf32>
    // CHECK-NEXT: dist.all_reduce
    %r = dist.all_reduce sum %x group [#dist.device<"/job:worker/task:0">, #dist.device<"/job:worker/task:1">] key "g" : tensor<4xf32> -> tensor<4xf32>
    // CHECK-NEXT: dist.all_gather
    %g = dist.all_gather %x axis 0 group [#dist.device<"/job:worker/task:0">, #dist.device<"/job:worker/task:1">] key "ag" : tensor<4xf32> -> tensor<8xf32>
    // CHECK-NOT: arith.addf
    %dead = arith.addf %x, %x : tensor<4xf32>
    // CHECK-NEXT: dist.return
    dist.return
  }
  // CHECK-LABEL: dist.task @w1
  dist.task @w1 on #dist.device<"/job:worker/task:1"> (%x: tensor<4xf32>) {
    // CHECK-NEXT: dist.recv {{.*}} key "a"
    %unused = dist.recv from #dist.device<"/job:worker/task:0"> key "a" : tensor<4xf32>
    // CHECK-NEXT: dist.send {{.*}} key "b"
    dist.send %x to #dist.device<"/job:worker/task:0"> key "b" : tensor<4xf32>
    // CHECK-NEXT: dist.all_reduce
    %r = dist.all_reduce sum %x group [#dist.device<"/job:worker/task:0">, #dist.device<"/job:worker/task:1">] key "g" : tensor<4xf32> -> tensor<4xf32>
    // CHECK-NEXT: dist.all_gather
    %g = dist.all_gather %x axis 0 group [#dist.device<"/job:worker/task:0">, #dist.device<"/job:worker/task:1">] key "ag" : tensor<4xf32> -> tensor<8xf32>
    // CHECK-NEXT: dist.return
    dist.return
  }
}
