// RUN: graph-opt %s -split-input-file --dist-fuse-collectives | FileCheck %s
// RUN: graph-opt %s -split-input-file --dist-fuse-collectives=bucket-bytes=40 | FileCheck %s --check-prefix=SMALL
// RUN: not graph-opt %s --dist-fuse-collectives=bucket-bytes=0 2>&1 | FileCheck %s --check-prefix=BUCKET
// BUCKET: error: dist-fuse-collectives: bucket-bytes=0 must be positive

// Four sum all-reduces of f32 over one group. @w0 uses %g2 before %g3 runs,
// so the bucket closes after %g2 in both tasks (their buckets must agree):
// {g1, g2} and {g3, g4}. The max all-reduce is another class and stays.
// With 40-byte buckets, g1 + g2 (16 + 24 bytes) still fit, g3 + g4 (64)
// do not.

// CHECK-LABEL: dist.task @w0
// CHECK-SAME: (%[[X:.*]]: tensor<4xf32>, %[[Y:.*]]: tensor<2x3xf32>, %[[Z:.*]]: tensor<8xf32>, %[[Z2:.*]]: tensor<8xf32>)
// CHECK-NEXT: %[[FY:.*]] = graph.reshape %[[Y]] {shape = array<i64: 6>} : (tensor<2x3xf32>) -> tensor<6xf32>
// CHECK-NEXT: %[[CAT:.*]] = graph.concat %[[X]], %[[FY]] {axis = 0 : i64} : (tensor<4xf32>, tensor<6xf32>) -> tensor<10xf32>
// CHECK-NEXT: %[[AR:.*]] = dist.all_reduce sum %[[CAT]] group [#dist.device<"/job:w/task:0">, #dist.device<"/job:w/task:1">] key "g1..g2" : tensor<10xf32> -> tensor<10xf32>
// CHECK-NEXT: %[[G1:.*]] = graph.slice %[[AR]] {limits = array<i64: 4>, starts = array<i64: 0>, strides = array<i64: 1>} : (tensor<10xf32>) -> tensor<4xf32>
// CHECK-NEXT: %[[S2:.*]] = graph.slice %[[AR]] {limits = array<i64: 10>, starts = array<i64: 4>, strides = array<i64: 1>} : (tensor<10xf32>) -> tensor<6xf32>
// CHECK-NEXT: %[[G2:.*]] = graph.reshape %[[S2]] {shape = array<i64: 2, 3>} : (tensor<6xf32>) -> tensor<2x3xf32>
// CHECK-NEXT: %[[M:.*]] = dist.all_reduce max %[[X]] {{.*}} key "m"
// CHECK-NEXT: graph.neg %[[G2]]
// CHECK: dist.all_reduce sum {{.*}} key "g3..g4" : tensor<16xf32> -> tensor<16xf32>
// CHECK-NOT: key "g1"
// CHECK-NOT: key "g4"
// CHECK: dist.return %[[G1]], %{{.*}}, %[[M]]
// CHECK-LABEL: dist.task @w1
// CHECK: key "g1..g2"
// CHECK: key "m"
// CHECK: key "g3..g4"
// CHECK-NOT: key "g3"
// SMALL-LABEL: dist.task @w0
// SMALL: key "g1..g2" : tensor<10xf32>
// SMALL: key "g3" : tensor<8xf32>
// SMALL: key "g4" : tensor<8xf32>
// SMALL-LABEL: dist.task @w1
// SMALL: key "g1..g2" : tensor<10xf32>
// SMALL: key "g3" : tensor<8xf32>
// SMALL: key "g4" : tensor<8xf32>
module attributes {dist.cluster = #dist.cluster<{w = 2}>} {
  dist.task @w0 on #dist.device<"/job:w/task:0"> (%x: tensor<4xf32>, %y: tensor<2x3xf32>, %z: tensor<8xf32>, %z2: tensor<8xf32>) -> (tensor<4xf32>, tensor<2x3xf32>, tensor<4xf32>, tensor<8xf32>, tensor<8xf32>) {
    %g1 = dist.all_reduce sum %x group [#dist.device<"/job:w/task:0">, #dist.device<"/job:w/task:1">] key "g1" : tensor<4xf32> -> tensor<4xf32>
    %g2 = dist.all_reduce sum %y group [#dist.device<"/job:w/task:0">, #dist.device<"/job:w/task:1">] key "g2" : tensor<2x3xf32> -> tensor<2x3xf32>
    %m = dist.all_reduce max %x group [#dist.device<"/job:w/task:0">, #dist.device<"/job:w/task:1">] key "m" : tensor<4xf32> -> tensor<4xf32>
    %u = graph.neg %g2 : (tensor<2x3xf32>) -> tensor<2x3xf32>
    %g3 = dist.all_reduce sum %z group [#dist.device<"/job:w/task:0">, #dist.device<"/job:w/task:1">] key "g3" : tensor<8xf32> -> tensor<8xf32>
    %g4 = dist.all_reduce sum %z2 group [#dist.device<"/job:w/task:0">, #dist.device<"/job:w/task:1">] key "g4" : tensor<8xf32> -> tensor<8xf32>
    dist.return %g1, %u, %m, %g3, %g4 : tensor<4xf32>, tensor<2x3xf32>, tensor<4xf32>, tensor<8xf32>, tensor<8xf32>
  }
  dist.task @w1 on #dist.device<"/job:w/task:1"> (%x: tensor<4xf32>, %y: tensor<2x3xf32>, %z: tensor<8xf32>, %z2: tensor<8xf32>) -> (tensor<4xf32>, tensor<2x3xf32>, tensor<8xf32>, tensor<8xf32>) {
    %g1 = dist.all_reduce sum %x group [#dist.device<"/job:w/task:0">, #dist.device<"/job:w/task:1">] key "g1" : tensor<4xf32> -> tensor<4xf32>
    %g2 = dist.all_reduce sum %y group [#dist.device<"/job:w/task:0">, #dist.device<"/job:w/task:1">] key "g2" : tensor<2x3xf32> -> tensor<2x3xf32>
    %m = dist.all_reduce max %x group [#dist.device<"/job:w/task:0">, #dist.device<"/job:w/task:1">] key "m" : tensor<4xf32> -> tensor<4xf32>
    %g3 = dist.all_reduce sum %z group [#dist.device<"/job:w/task:0">, #dist.device<"/job:w/task:1">] key "g3" : tensor<8xf32> -> tensor<8xf32>
    %g4 = dist.all_reduce sum %z2 group [#dist.device<"/job:w/task:0">, #dist.device<"/job:w/task:1">] key "g4" : tensor<8xf32> -> tensor<8xf32>
    dist.return %g1, %g2, %g3, %g4 : tensor<4xf32>, tensor<2x3xf32>, tensor<8xf32>, tensor<8xf32>
  }
}

// -----

// An all-reduce whose input depends on another's result is never fused with
// it; different element types or groups are other classes.

// CHECK-LABEL: dist.task @solo
// CHECK: key "a"
// CHECK: graph.exp
// CHECK: key "b"
// CHECK: key "c" : tensor<4xf16>
// CHECK: key "d"
// CHECK-NOT: ..
module attributes {dist.cluster = #dist.cluster<{w = 2}>} {
  dist.task @solo on #dist.device<"/job:w/task:0"> (%x: tensor<4xf32>, %h: tensor<4xf16>) -> (tensor<4xf32>, tensor<4xf16>, tensor<4xf32>) {
    %a = dist.all_reduce sum %x group [#dist.device<"/job:w/task:0">] key "a" : tensor<4xf32> -> tensor<4xf32>
    %e = graph.exp %a : (tensor<4xf32>) -> tensor<4xf32>
    %b = dist.all_reduce sum %e group [#dist.device<"/job:w/task:0">] key "b" : tensor<4xf32> -> tensor<4xf32>
    %c = dist.all_reduce sum %h group [#dist.device<"/job:w/task:0">] key "c" : tensor<4xf16> -> tensor<4xf16>
    %d = dist.all_reduce sum %x group [#dist.device<"/job:w/task:0">, #dist.device<"/job:w/task:1">] key "d" : tensor<4xf32> -> tensor<4xf32>
    dist.return %b, %c, %d : tensor<4xf32>, tensor<4xf16>, tensor<4xf32>
  }
  dist.task @other on #dist.device<"/job:w/task:1"> (%x: tensor<4xf32>) {
    %d = dist.all_reduce sum %x group [#dist.device<"/job:w/task:0">, #dist.device<"/job:w/task:1">] key "d" : tensor<4xf32> -> tensor<4xf32>
    dist.return
  }
}

// -----

// A data-parallel step's loss (a mean of f32) joins its gradients' sum
// bucket: the bucket is summed, the mean goes last (the sums keep their
// offsets) and its slice is divided by the group's size, as the runtime's
// mean divides its sum. A mean of f16 (the runtime divides before rounding)
// and a bucket of means alone keep their reduction.

// CHECK-LABEL: dist.task @loss
// CHECK-SAME: (%[[L:.*]]: tensor<f32>, %[[G:.*]]: tensor<2x3xf32>, %[[B:.*]]: tensor<4xf32>, %[[H:.*]]: tensor<f16>, %[[M1:.*]]: tensor<2xf32>, %[[M2:.*]]: tensor<3xf32>)
// CHECK-NEXT: dist.all_reduce mean %[[H]] {{.*}} key "h" : tensor<f16> -> tensor<f16>
// CHECK-DAG: %[[FL:.*]] = graph.reshape %[[L]] {shape = array<i64: 1>} : (tensor<f32>) -> tensor<1xf32>
// CHECK-DAG: %[[FG:.*]] = graph.reshape %[[G]] {shape = array<i64: 6>}
// CHECK: %[[CAT:.*]] = graph.concat %[[FG]], %[[B]], %[[FL]] {axis = 0 : i64} : (tensor<6xf32>, tensor<4xf32>, tensor<1xf32>) -> tensor<11xf32>
// CHECK-NEXT: %[[AR:.*]] = dist.all_reduce sum %[[CAT]] {{.*}} key "l..b" : tensor<11xf32> -> tensor<11xf32>
// CHECK: graph.slice %[[AR]] {limits = array<i64: 6>, starts = array<i64: 0>
// CHECK: graph.slice %[[AR]] {limits = array<i64: 10>, starts = array<i64: 6>
// CHECK: %[[SL:.*]] = graph.slice %[[AR]] {limits = array<i64: 11>, starts = array<i64: 10>
// CHECK-NEXT: %[[TWO:.*]] = graph.constant dense<2.000000e+00> : tensor<f32>
// CHECK-NEXT: %[[MEAN:.*]] = graph.div %[[SL]], %[[TWO]] : (tensor<1xf32>, tensor<f32>) -> tensor<1xf32>
// CHECK-NEXT: %[[LR:.*]] = graph.reshape %[[MEAN]] {shape = array<i64>} : (tensor<1xf32>) -> tensor<f32>
// CHECK: dist.all_reduce mean {{.*}} key "m1..m2" : tensor<5xf32> -> tensor<5xf32>
// CHECK: dist.return %[[LR]],
// CHECK-LABEL: dist.task @loss1
// CHECK: dist.all_reduce sum {{.*}} key "l..b" : tensor<11xf32>
module attributes {dist.cluster = #dist.cluster<{w = 2}>} {
  dist.task @loss on #dist.device<"/job:w/task:0"> (%l: tensor<f32>, %g: tensor<2x3xf32>, %b: tensor<4xf32>, %h: tensor<f16>, %m1: tensor<2xf32>, %m2: tensor<3xf32>) -> (tensor<f32>, tensor<2x3xf32>, tensor<4xf32>, tensor<f16>, tensor<2xf32>, tensor<3xf32>) {
    %lr = dist.all_reduce mean %l group [#dist.device<"/job:w/task:0">, #dist.device<"/job:w/task:1">] key "l" : tensor<f32> -> tensor<f32>
    %hr = dist.all_reduce mean %h group [#dist.device<"/job:w/task:0">, #dist.device<"/job:w/task:1">] key "h" : tensor<f16> -> tensor<f16>
    %gr = dist.all_reduce sum %g group [#dist.device<"/job:w/task:0">, #dist.device<"/job:w/task:1">] key "g" : tensor<2x3xf32> -> tensor<2x3xf32>
    %br = dist.all_reduce sum %b group [#dist.device<"/job:w/task:0">, #dist.device<"/job:w/task:1">] key "b" : tensor<4xf32> -> tensor<4xf32>
    %m1r = dist.all_reduce mean %m1 group [#dist.device<"/job:w/task:0">] key "m1" : tensor<2xf32> -> tensor<2xf32>
    %m2r = dist.all_reduce mean %m2 group [#dist.device<"/job:w/task:0">] key "m2" : tensor<3xf32> -> tensor<3xf32>
    dist.return %lr, %gr, %br, %hr, %m1r, %m2r : tensor<f32>, tensor<2x3xf32>, tensor<4xf32>, tensor<f16>, tensor<2xf32>, tensor<3xf32>
  }
  dist.task @loss1 on #dist.device<"/job:w/task:1"> (%l: tensor<f32>, %g: tensor<2x3xf32>, %b: tensor<4xf32>, %h: tensor<f16>) -> (tensor<f32>, tensor<2x3xf32>, tensor<4xf32>, tensor<f16>) {
    %lr = dist.all_reduce mean %l group [#dist.device<"/job:w/task:0">, #dist.device<"/job:w/task:1">] key "l" : tensor<f32> -> tensor<f32>
    %hr = dist.all_reduce mean %h group [#dist.device<"/job:w/task:0">, #dist.device<"/job:w/task:1">] key "h" : tensor<f16> -> tensor<f16>
    %gr = dist.all_reduce sum %g group [#dist.device<"/job:w/task:0">, #dist.device<"/job:w/task:1">] key "g" : tensor<2x3xf32> -> tensor<2x3xf32>
    %br = dist.all_reduce sum %b group [#dist.device<"/job:w/task:0">, #dist.device<"/job:w/task:1">] key "b" : tensor<4xf32> -> tensor<4xf32>
    dist.return %lr, %gr, %br, %hr : tensor<f32>, tensor<2x3xf32>, tensor<4xf32>, tensor<f16>
  }
}
