// RUN: graph-opt %s --split-input-file --graphc-cpu-expand-copies | FileCheck %s

// A strided copy becomes a linalg.copy (later loops), so the shared object
// needs no memrefCopy from MLIR's runner library.
// CHECK-LABEL: func.func @strided
// CHECK-SAME:    (%[[A:.*]]: memref<4x8xf32, strided<[16, 1]>>, %[[B:.*]]: memref<4x8xf32>)
// CHECK:         linalg.copy ins(%[[A]] : {{.*}}) outs(%[[B]] : memref<4x8xf32>)
// CHECK-NOT:     memref.copy
func.func @strided(%a: memref<4x8xf32, strided<[16, 1]>>, %b: memref<4x8xf32>) {
  memref.copy %a, %b : memref<4x8xf32, strided<[16, 1]>> to memref<4x8xf32>
  return
}

// -----

// A copy of a buffer onto itself is dropped.
// CHECK-LABEL: func.func @self
// CHECK-NOT:     copy
// CHECK:         return
func.func @self(%a: memref<4x8xf32>) {
  memref.copy %a, %a : memref<4x8xf32> to memref<4x8xf32>
  return
}
