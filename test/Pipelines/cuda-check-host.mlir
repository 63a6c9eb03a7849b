// graphc-cuda-check-host: host code of a cuda task that still reads or
// writes buffer elements would dereference a device pointer; each such op
// is refused with its location (the graph op it came from).
// RUN: not graph-opt %s --graphc-cuda-check-host 2>&1 | FileCheck %s

// CHECK: loc-of-graph-op:3:7: error: the cuda target cannot run 'memref.load' on the host of a GPU task: it accesses a device buffer outside a kernel
// CHECK-SAME: compile this model with --target=cpu
// CHECK: loc-of-graph-op:4:7: error: the cuda target cannot run 'memref.store' on the host
// CHECK-NOT: error
module attributes {gpu.container_module} {
  func.func @graphc_task_run(%a: memref<4xf32>, %b: memref<4xf32>, %i: index) {
    %x = memref.load %a[%i] : memref<4xf32> loc("loc-of-graph-op":3:7)
    memref.store %x, %b[%i] : memref<4xf32> loc("loc-of-graph-op":4:7)
    gpu.launch_func @k::@k blocks in (%i, %i, %i) threads in (%i, %i, %i) args(%a : memref<4xf32>)
    return
  }
  // Kernels may access buffers.
  gpu.module @k {
    gpu.func @k(%a: memref<4xf32>) kernel {
      %c0 = arith.constant 0 : index
      %x = memref.load %a[%c0] : memref<4xf32>
      memref.store %x, %a[%c0] : memref<4xf32>
      gpu.return
    }
  }
}
