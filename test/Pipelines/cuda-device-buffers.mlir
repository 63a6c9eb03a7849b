// graphc-cuda-device-buffers: the task's host tensors become device buffers.
// The input is uploaded, the variables are init's resident copies (only the
// written one, w, is downloaded after the step), the output and temporaries
// are device allocations, the constant is uploaded once, and the step
// returns graphc_cuda_leave's status.
// RUN: graph-opt %s --graphc-cuda-device-buffers --split-input-file -verify-diagnostics | FileCheck %s

// CHECK-LABEL: module @task attributes
// CHECK-SAME: graphrt.target = "cuda"
// CHECK: llvm.func @graphc_task_init(!llvm.ptr, !llvm.ptr, !llvm.ptr, i64) -> !llvm.ptr
// CHECK: func.func @graphc_task_run(%[[CTX:[^:]*]]: !llvm.ptr, %[[SVC:[^:]*]]: !llvm.ptr, %[[XH:[^:]*]]: memref<4xf32>
// CHECK: llvm.call @graphc_cuda_enter(%[[CTX]], %[[SVC]])
// CHECK: %[[WRAPPED:.*]] = llvm.call @graphc_cuda_services()
// CHECK: memref.extract_aligned_pointer_as_index %[[XH]]
// CHECK: %[[X:.*]] = llvm.call @graphc_cuda_upload(%{{.*}}, %{{.*}}) : (!llvm.ptr, i64) -> !llvm.ptr
// CHECK: %[[V:.*]] = llvm.call @graphc_cuda_variable(%{{.*}})
// CHECK: %[[W:.*]] = llvm.call @graphc_cuda_variable(%{{.*}})
// CHECK: %[[Y:.*]] = llvm.call @graphc_cuda_alloc(%{{.*}})
// CHECK: %[[CH:.*]] = memref.get_global @c
// CHECK: llvm.call @graphc_cuda_constant(%{{.*}}, %{{.*}}, %{{.*}}) : (i64, !llvm.ptr, i64) -> !llvm.ptr
// CHECK: %[[T:.*]] = llvm.call @graphc_cuda_alloc(%{{.*}})
// CHECK-NOT: memref.alloc
// CHECK: linalg.add
// CHECK: call @helper(%[[CTX]], %[[WRAPPED]])
// CHECK: llvm.call @graphc_cuda_download(%{{.*}}, %[[W]], %{{.*}})
// CHECK-NOT: @graphc_cuda_download(%{{.*}}, %[[V]]
// CHECK: llvm.call @graphc_cuda_download(%{{.*}}, %[[Y]], %{{.*}})
// CHECK: llvm.call @graphc_cuda_free(%[[X]])
// CHECK-NEXT: llvm.call @graphc_cuda_free(%[[Y]])
// CHECK-NEXT: llvm.call @graphc_cuda_free(%[[T]])
// CHECK-NEXT: %[[S:.*]] = llvm.call @graphc_cuda_leave(%{{.*}})
// CHECK-NEXT: return %[[S]]
module @task attributes {
    graphrt.inputs = [{dtype = "f32", name = "x", shape = array<i64: 4>}],
    graphrt.variables = [{dtype = "f32", name = "v", shape = array<i64: 4>},
                         {dtype = "f32", name = "w", shape = array<i64: 4>}],
    graphrt.outputs = [{dtype = "f32", name = "y", shape = array<i64: 4>}],
    graphrt.channels = [], graphrt.groups = []} {
  memref.global "private" constant @c : memref<4xf32> = dense<1.0>
  func.func private @helper(%ctx: !llvm.ptr, %svc: !llvm.ptr)
  func.func @graphc_task_run(%ctx: !llvm.ptr, %svc: !llvm.ptr,
      %x: memref<4xf32>, %v: memref<4xf32>, %w: memref<4xf32>,
      %y: memref<4xf32>) -> !llvm.ptr {
    %ok = llvm.mlir.zero : !llvm.ptr
    %c = memref.get_global @c : memref<4xf32>
    %t = memref.alloc() : memref<4xf32>
    linalg.add ins(%x, %c : memref<4xf32>, memref<4xf32>) outs(%t : memref<4xf32>)
    linalg.add ins(%t, %v : memref<4xf32>, memref<4xf32>) outs(%y : memref<4xf32>)
    call @helper(%ctx, %svc) : (!llvm.ptr, !llvm.ptr) -> ()
    memref.copy %t, %w : memref<4xf32> to memref<4xf32>
    return %ok : !llvm.ptr
  }
}

// -----

// A buffer allocated inside a loop (its size or lifetime per iteration) has
// no place in the step's device allocations.
module @task attributes {graphrt.inputs = [], graphrt.variables = [],
    graphrt.outputs = [], graphrt.channels = [], graphrt.groups = []} {
  func.func @graphc_task_run(%ctx: !llvm.ptr, %svc: !llvm.ptr) -> !llvm.ptr {
    %ok = llvm.mlir.zero : !llvm.ptr
    %c0 = arith.constant 0 : index
    %c2 = arith.constant 2 : index
    %c1 = arith.constant 1 : index
    scf.for %i = %c0 to %c2 step %c1 {
      // expected-error @below {{the cuda target needs every temporary buffer at the top of the task with a static shape and identity layout}}
      %t = memref.alloc() : memref<4xf32>
    }
    return %ok : !llvm.ptr
  }
}
