// RUN: graph-opt %s --split-input-file --graphc-cpu-expand-copies="vector-width=16" | FileCheck %s

// Copies become inline loops, so the shared object needs no memrefCopy from
// MLIR's runner library. With contiguous rows in both buffers (a
// convolution input's padding copy: rows of 56 into rows of 58): loops over
// the other dimensions around vector transfers of each row, 16 lanes at a
// time and then power-of-two pieces (56 = 3 x 16 + 8).
// CHECK-LABEL: func.func @padding
// CHECK-SAME:    (%[[A:.*]]: memref<2x3x56x56xf32>, %[[B:.*]]: memref<2x3x58x58xf32>)
// CHECK:         %[[V:.*]] = memref.subview %[[B]][0, 0, 1, 1] [2, 3, 56, 56] [1, 1, 1, 1]
// CHECK:         scf.for %[[N:[^ ]*]] = %{{.*}} to %c2
// CHECK:           scf.for %[[C:[^ ]*]] = %{{.*}} to %c3
// CHECK:             scf.for %[[H:[^ ]*]] = %{{.*}} to %c56
// CHECK:               scf.for %[[W:[^ ]*]] = %{{.*}} to %c48 step %c16
// CHECK:                 %[[R:.*]] = vector.transfer_read %[[A]][%[[N]], %[[C]], %[[H]], %[[W]]], %{{.*}} {in_bounds = [true]} : memref<2x3x56x56xf32>, vector<16xf32>
// CHECK:                 vector.transfer_write %[[R]], %[[V]][%[[N]], %[[C]], %[[H]], %[[W]]] {in_bounds = [true]} : vector<16xf32>, memref<2x3x56x56xf32, strided<[10092, 3364, 58, 1], offset: 59>>
// CHECK:               vector.transfer_read %[[A]][%[[N]], %[[C]], %[[H]], %c48{{.*}}], %{{.*}} : memref<2x3x56x56xf32>, vector<8xf32>
// CHECK:               vector.transfer_write {{.*}} : vector<8xf32>, memref<2x3x56x56xf32, strided<[10092, 3364, 58, 1], offset: 59>>
// CHECK-NOT:     memref.copy
// CHECK-NOT:     linalg.copy
func.func @padding(%a: memref<2x3x56x56xf32>, %b: memref<2x3x58x58xf32>) {
  %v = memref.subview %b[0, 0, 1, 1] [2, 3, 56, 56] [1, 1, 1, 1] : memref<2x3x58x58xf32> to memref<2x3x56x56xf32, strided<[10092, 3364, 58, 1], offset: 59>>
  memref.copy %a, %v : memref<2x3x56x56xf32> to memref<2x3x56x56xf32, strided<[10092, 3364, 58, 1], offset: 59>>
  return
}

// -----

// Rows that are not contiguous (a transposed view) or too short for a
// vector: a linalg.copy (later loops).
// CHECK-LABEL: func.func @strided
// CHECK-SAME:    (%[[A:.*]]: memref<4x8xf32, strided<[1, 4]>>, %[[B:.*]]: memref<4x8xf32>, %[[C:.*]]: memref<4x3xf32, strided<[16, 1]>>, %[[D:.*]]: memref<4x3xf32>)
// CHECK:         linalg.copy ins(%[[A]] : {{.*}}) outs(%[[B]] : memref<4x8xf32>)
// CHECK:         linalg.copy ins(%[[C]] : {{.*}}) outs(%[[D]] : memref<4x3xf32>)
// CHECK-NOT:     memref.copy
func.func @strided(%a: memref<4x8xf32, strided<[1, 4]>>, %b: memref<4x8xf32>,
                   %c: memref<4x3xf32, strided<[16, 1]>>, %d: memref<4x3xf32>) {
  memref.copy %a, %b : memref<4x8xf32, strided<[1, 4]>> to memref<4x8xf32>
  memref.copy %c, %d : memref<4x3xf32, strided<[16, 1]>> to memref<4x3xf32>
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

// -----

// A copy between two identical subviews of one buffer is dropped; one
// between different subviews stays (a row of 16: one vector).
// CHECK-LABEL: func.func @same_subview
// CHECK-COUNT-1: vector.transfer_write
// CHECK-NOT:     copy
// CHECK-NOT:     vector.transfer_write
func.func @same_subview(%a: memref<8x40xf32>, %i: index, %j: index) {
  %v1 = memref.subview %a[%i, %j] [1, 16] [1, 1] : memref<8x40xf32> to memref<1x16xf32, strided<[40, 1], offset: ?>>
  %v2 = memref.subview %a[%i, %j] [1, 16] [1, 1] : memref<8x40xf32> to memref<1x16xf32, strided<[40, 1], offset: ?>>
  %v3 = memref.subview %a[%j, %i] [1, 16] [1, 1] : memref<8x40xf32> to memref<1x16xf32, strided<[40, 1], offset: ?>>
  memref.copy %v1, %v2 : memref<1x16xf32, strided<[40, 1], offset: ?>> to memref<1x16xf32, strided<[40, 1], offset: ?>>
  memref.copy %v1, %v3 : memref<1x16xf32, strided<[40, 1], offset: ?>> to memref<1x16xf32, strided<[40, 1], offset: ?>>
  return
}
