// convert-dist-to-runtime on a hand-partitioned two-task module: each
// dist.task becomes a nested module with its signature, channels and groups
// as attributes, and graphc_task_run over memrefs calling one helper per
// communication op through the services table; graphrt-task-descriptor then
// puts the channels and groups in the descriptor.
// RUN: graph-opt %S/../../Bundle/Inputs/two-task.mlir --convert-dist-to-runtime | FileCheck %s
// RUN: graph-opt %S/../../Bundle/Inputs/two-task.mlir --pass-pipeline='builtin.module(graphc-task-lowering,graphc-task-codegen{openmp=false})' | FileCheck %s --check-prefix=DESC

// The variables and tasks left the outer module.
// CHECK-LABEL: module attributes {dist.cluster
// CHECK-NOT: graph.variable
// CHECK: module @worker0 attributes {
// CHECK-SAME: graphrt.channels = [{direction = "send", dtype = "f32", key = "x1", peer = "worker1", shape = array<i64: 1, 4>}, {direction = "recv", dtype = "f32", key = "y1", peer = "worker1", shape = array<i64: 1, 4>}]
// CHECK-SAME: graphrt.groups = [{name = "worker0+worker1", tasks = ["worker0", "worker1"]}]
// CHECK-SAME: graphrt.inputs = [{dtype = "f32", name = "x", shape = array<i64: 2, 4>}]
// CHECK-SAME: graphrt.outputs = [{dtype = "f32", name = "y", shape = array<i64: 2, 4>}, {dtype = "f32", name = "ag", shape = array<i64: 2, 8>}, {dtype = "f32", name = "rs0", shape = array<i64: 2, 2>}, {dtype = "f32", name = "a2a0", shape = array<i64: 2, 4>}, {dtype = "f32", name = "a2b0", shape = array<i64: 4, 2>}]
// CHECK-SAME: graphrt.task = {device = "/job:worker/task:0/device:CPU:0", index = 0 : i64, job = "worker"}
// CHECK-SAME: graphrt.variables = [{dtype = "f32", name = "w0", shape = array<i64: 1, 4>, value = dense<{{.*}}> : tensor<1x4xf32>}]
// CHECK-DAG: llvm.mlir.global private constant @[[KEY:graphc_comm_str_[0-9]+]]("x1\00")
// CHECK-DAG: llvm.mlir.global private constant @[[GROUP:graphc_comm_str_[0-9]+]]("worker0+worker1\00")
// A helper: skip when the slot holds a failure, else call table entry 6
// (send) with a graphrt_tensor_t and keep its status.
// CHECK-LABEL: func.func private @graphc_send_0(
// CHECK-SAME: %[[CTX:.*]]: !llvm.ptr, %[[SERVICES:.*]]: !llvm.ptr, %[[SLOT:.*]]: !llvm.ptr, %[[BUF:.*]]: memref<1x4xf32>)
// CHECK: %[[PREV:.*]] = llvm.load %[[SLOT]]
// CHECK: %[[OK:.*]] = llvm.icmp "eq" %[[PREV]]
// CHECK: scf.if %[[OK]] {
// CHECK: memref.extract_aligned_pointer_as_index %[[BUF]]
// CHECK: %[[ENTRY:.*]] = llvm.getelementptr %[[SERVICES]][6]
// CHECK: %[[FN:.*]] = llvm.load %[[ENTRY]]
// CHECK: %[[KEYP:.*]] = llvm.mlir.addressof @[[KEY]]
// CHECK: %[[ST:.*]] = llvm.call %[[FN]](%[[CTX]], %[[KEYP]], %{{.*}})
// CHECK: llvm.store %[[ST]], %[[SLOT]]
// all_reduce is entry 8: (ctx, group, SUM = 1, F32 = 1, in, out, 4 elements).
// CHECK-LABEL: func.func private @graphc_all_reduce_1(
// CHECK: llvm.getelementptr %{{.*}}[8]
// CHECK: llvm.call %{{.*}}(%{{.*}}, %{{.*}}, %[[SUM:.*]], %[[F32:.*]], %{{.*}}, %{{.*}}, %{{.*}}) : !llvm.ptr, (!llvm.ptr, !llvm.ptr, i32, i32, !llvm.ptr, !llvm.ptr, i64) -> !llvm.ptr
// CHECK-LABEL: func.func private @graphc_recv_2(
// CHECK: llvm.getelementptr %{{.*}}[7]
// The gather along axis 1 of a 2x4 runs on the transposed 4x2.
// CHECK-LABEL: func.func private @graphc_all_gather_3(
// CHECK-SAME: memref<4x2xf32>, %{{.*}}: memref<8x2xf32>)
// CHECK: llvm.getelementptr %{{.*}}[9]
// CHECK-LABEL: func.func private @graphc_reduce_scatter_4(
// CHECK: llvm.getelementptr %{{.*}}[10]
// broadcast copies its input into the result and broadcasts in place.
// CHECK-LABEL: func.func private @graphc_broadcast_5(
// CHECK: llvm.getelementptr %{{.*}}[11]
// CHECK: "llvm.intr.memcpy"
// all_to_all is entry 12: (ctx, group, F32, in, out, 4 elements per block).
// CHECK-LABEL: func.func private @graphc_all_to_all_6(
// CHECK: llvm.getelementptr %{{.*}}[12]
// CHECK: %[[BLOCK:.*]] = llvm.mlir.constant(4 : i64)
// CHECK: llvm.call %{{.*}}(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %[[BLOCK]])
// CHECK-LABEL: func.func @graphc_task_run(
// CHECK-SAME: %[[C:.*]]: !llvm.ptr, %[[S:.*]]: !llvm.ptr, %[[X:.*]]: memref<2x4xf32>, %[[W:.*]]: memref<1x4xf32>, %[[Y:.*]]: memref<2x4xf32>, %{{.*}}: memref<2x8xf32>, %{{.*}}: memref<2x2xf32>, %{{.*}}: memref<2x4xf32>, %{{.*}}: memref<4x2xf32>) -> !llvm.ptr
// CHECK: %[[STATUS:.*]] = llvm.alloca %{{.*}} x !llvm.ptr
// CHECK: llvm.store %{{.*}}, %[[STATUS]]
// CHECK: %[[XT:.*]] = bufferization.to_tensor %[[X]] restrict :
// CHECK: %[[WT:.*]] = bufferization.to_tensor %[[W]] restrict :
// CHECK: %[[SENT:.*]] = bufferization.to_buffer %{{.*}} read_only
// CHECK: call @graphc_send_0(%[[C]], %[[S]], %[[STATUS]], %[[SENT]])
// CHECK: %[[ALLOC:.*]] = memref.alloc() : memref<1x4xf32>
// CHECK: call @graphc_all_reduce_1(%[[C]], %[[S]], %[[STATUS]], %{{.*}}, %[[ALLOC]])
// CHECK: %[[G:.*]] = bufferization.to_tensor %[[ALLOC]] restrict writable
// CHECK: linalg.transpose ins(%[[XT]] : tensor<2x4xf32>) {{.*}} permutation = [1, 0]
// CHECK: call @graphc_all_gather_3
// CHECK: linalg.transpose {{.*}} permutation = [1, 0]
// An all_to_all splitting columns: the columns are moved first for the
// call, then each received 2x2 block goes back and the blocks are stacked.
// CHECK: linalg.transpose ins(%[[XT]] : tensor<2x4xf32>) {{.*}} permutation = [1, 0]
// CHECK: call @graphc_all_to_all_7
// CHECK: tensor.expand_shape %{{.*}} {{\[}}[0, 1], [2]] {{.*}} : tensor<4x2xf32> into tensor<2x2x2xf32>
// CHECK: linalg.transpose {{.*}} permutation = [0, 2, 1]
// CHECK: tensor.collapse_shape %{{.*}} {{\[}}[0, 1], [2]] : tensor<2x2x2xf32> into tensor<4x2xf32>
// The update w0 += g comes after the outputs are written.
// CHECK: %[[NEW:.*]] = graph.add %[[WT]], %[[G]]
// CHECK: bufferization.materialize_in_destination %{{.*}} in restrict writable %[[Y]]
// CHECK: %[[NEWBUF:.*]] = bufferization.to_buffer %[[NEW]] read_only
// CHECK: memref.copy %[[NEWBUF]], %[[W]]
// CHECK: %[[RESULT:.*]] = llvm.load %[[STATUS]]
// CHECK: return %[[RESULT]] : !llvm.ptr
// CHECK: module @worker1 attributes {
// CHECK-SAME: graphrt.variables = [{dtype = "f32", name = "w1", {{.*}}}, {dtype = "f32", name = "count", shape = array<i64>, value = dense<0.000000e+00> : tensor<f32>}]
// The broadcast's root is rank 0 of the group.
// CHECK-LABEL: func.func private @graphc_broadcast_5(
// CHECK: %[[ROOT:.*]] = llvm.mlir.constant(0 : i32)
// CHECK: llvm.call %{{.*}}(%{{.*}}, %{{.*}}, %[[ROOT]],

// DESC-LABEL: module @worker0
// DESC: llvm.func internal @graphc_send_0(
// DESC: llvm.func internal @graphc_task_run(
// DESC: llvm.func internal @graphc_task_step(
// DESC: %[[R:.*]] = llvm.call @graphc_task_run(
// DESC: llvm.return %[[R]] : !llvm.ptr
// Two channels: (key, peer, SEND = 1 / RECV = 2, payload).
// DESC: llvm.mlir.global private constant @[[CH:graphc_channels_[0-9]+]]() {{.*}} : !llvm.array<2 x struct<(ptr, ptr, i32, struct<(ptr, i32, i32, ptr)>)>>
// DESC: llvm.mlir.global private constant @[[GR:graphc_groups_[0-9]+]]() {{.*}} : !llvm.array<1 x struct<(ptr)>>
// DESC: llvm.mlir.global external constant @graphrt_task_descriptor_v1()
// DESC-DAG: %[[NCH:.*]] = llvm.mlir.constant(2 : i64) : i64
// DESC-DAG: %[[CHP:.*]] = llvm.mlir.addressof @[[CH]]
// DESC-DAG: %[[GRP:.*]] = llvm.mlir.addressof @[[GR]]
// DESC: llvm.insertvalue %[[NCH]], %{{.*}}[11]
// DESC: llvm.insertvalue %[[CHP]], %{{.*}}[12]
// DESC: llvm.insertvalue %[[GRP]], %{{.*}}[14]
// DESC-LABEL: module @worker1
// DESC: llvm.mlir.global external constant @graphrt_task_descriptor_v1()
