// convert-dist-to-runtime on an all-reduce marked dist.overlap: a helper
// calls all_reduce_start (services entry 17) where the all-reduce stands,
// storing the request id in a slot of graphc_task_run, or the blocking
// all_reduce (entry 8) when the runtime's table is older (struct_size below
// 152, the end of `wait`) or has no all_reduce_start; a second helper waits
// (entry 18) just before the first use of the result, even after a failure
// (releasing the wait's status, entry 2, when the step already failed), and
// reads the input again so that bufferization keeps it intact until then.
// RUN: graph-opt %s --convert-dist-to-runtime | FileCheck %s

// CHECK-LABEL: func.func private @graphc_all_reduce_start_0(
// CHECK-SAME: %[[CTX:.*]]: !llvm.ptr, %[[SERVICES:.*]]: !llvm.ptr, %[[SLOT:.*]]: !llvm.ptr, %[[REQ:.*]]: !llvm.ptr, %{{.*}}: memref<4xf32>, %{{.*}}: memref<4xf32>)
// CHECK: %[[PREV:.*]] = llvm.load %[[SLOT]]
// CHECK: scf.if
// CHECK: %[[SIZE:.*]] = llvm.load %[[SERVICES]] : !llvm.ptr -> i64
// CHECK: %[[END:.*]] = llvm.mlir.constant(152 : i64)
// CHECK: %[[BIG:.*]] = llvm.icmp "uge" %[[SIZE]], %[[END]]
// CHECK: %[[FN:.*]] = scf.if %[[BIG]] -> (!llvm.ptr) {
// CHECK: llvm.getelementptr %[[SERVICES]][17]
// CHECK: } else {
// CHECK: llvm.mlir.zero
// CHECK: %[[NONE:.*]] = llvm.icmp "eq" %[[FN]]
// CHECK: %[[ST:.*]] = scf.if %[[NONE]] -> (!llvm.ptr) {
// CHECK: llvm.getelementptr %[[SERVICES]][8]
// CHECK: llvm.call %{{.*}} : !llvm.ptr, (!llvm.ptr, !llvm.ptr, i32, i32, !llvm.ptr, !llvm.ptr, i64) -> !llvm.ptr
// CHECK: } else {
// CHECK: llvm.call %[[FN]](%[[CTX]], %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %[[REQ]]) : !llvm.ptr, (!llvm.ptr, !llvm.ptr, i32, i32, !llvm.ptr, !llvm.ptr, i64, !llvm.ptr) -> !llvm.ptr
// CHECK: llvm.store %[[ST]], %[[SLOT]]

// CHECK-LABEL: func.func private @graphc_wait_1(
// CHECK-SAME: %[[CTX:.*]]: !llvm.ptr, %[[SERVICES:.*]]: !llvm.ptr, %[[SLOT:.*]]: !llvm.ptr, %[[REQ:.*]]: !llvm.ptr, %{{.*}}: memref<4xf32>, %{{.*}}: memref<4xf32>)
// CHECK: %[[ID:.*]] = llvm.load %[[REQ]] : !llvm.ptr -> i64
// CHECK: %[[HAS:.*]] = llvm.icmp "ne" %[[ID]]
// CHECK: scf.if %[[HAS]] {
// CHECK: llvm.store %{{.*}}, %[[REQ]] : i64, !llvm.ptr
// CHECK: llvm.getelementptr %[[SERVICES]][18]
// CHECK: %[[ST:.*]] = llvm.call %{{.*}}(%[[CTX]], %[[ID]]) : !llvm.ptr, (!llvm.ptr, i64) -> !llvm.ptr
// CHECK: %[[FIRST:.*]] = llvm.icmp "eq"
// CHECK: scf.if %[[FIRST]] {
// CHECK: llvm.store %[[ST]], %[[SLOT]]
// CHECK: } else {
// CHECK: llvm.getelementptr %[[SERVICES]][2]
// CHECK: llvm.call %{{.*}}(%[[ST]]) : !llvm.ptr, (!llvm.ptr) -> ()

// CHECK-LABEL: func.func private @graphc_recv_2(

// The start where the all-reduce was, the recv after it, the wait before
// the add that uses the result.
// CHECK-LABEL: func.func @graphc_task_run(
// CHECK: %[[REQUEST:.*]] = llvm.alloca %{{.*}} x i64
// CHECK: llvm.store %{{.*}}, %[[REQUEST]] : i64, !llvm.ptr
// CHECK: %[[STATUS:.*]] = llvm.alloca %{{.*}} x !llvm.ptr
// CHECK: %[[IN:.*]] = bufferization.to_buffer %[[P:.*]] read_only {graphc.read_for = "g"}
// CHECK: %[[OUT:.*]] = memref.alloc() : memref<4xf32>
// CHECK: call @graphc_all_reduce_start_0(%{{.*}}, %{{.*}}, %[[STATUS]], %[[REQUEST]], %[[IN]], %[[OUT]])
// CHECK: call @graphc_recv_2(
// CHECK: %[[AGAIN:.*]] = bufferization.to_buffer %[[P]] read_only {graphc.read_for = "g/wait"}
// CHECK: call @graphc_wait_1(%{{.*}}, %{{.*}}, %[[STATUS]], %[[REQUEST]], %[[AGAIN]], %[[OUT]])
// CHECK: %[[G:.*]] = bufferization.to_tensor %[[OUT]] restrict writable
// CHECK: graph.add %[[G]]
// CHECK: %[[RESULT:.*]] = llvm.load %[[STATUS]]
// CHECK: return %[[RESULT]]
module attributes {dist.cluster = #dist.cluster<{w = 2}>} {
  dist.task @w0 on #dist.device<"/job:w/task:0"> (%x: tensor<4xf32> {graph.name = "x"}) -> (tensor<4xf32> {graph.name = "y"}) {
    %p = graph.neg %x : (tensor<4xf32>) -> tensor<4xf32>
    %g = dist.all_reduce sum %p group [#dist.device<"/job:w/task:0">, #dist.device<"/job:w/task:1">] key "g" {dist.overlap} : tensor<4xf32> -> tensor<4xf32>
    %r = dist.recv from #dist.device<"/job:w/task:1"> key "r" : tensor<4xf32>
    %y = graph.add %g, %r : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
    dist.return %y : tensor<4xf32>
  }
  dist.task @w1 on #dist.device<"/job:w/task:1"> (%x: tensor<4xf32> {graph.name = "x1"}) -> () {
    %g = dist.all_reduce sum %x group [#dist.device<"/job:w/task:0">, #dist.device<"/job:w/task:1">] key "g" : tensor<4xf32> -> tensor<4xf32>
    dist.send %g to #dist.device<"/job:w/task:0"> key "r" : tensor<4xf32>
    dist.return
  }
}
