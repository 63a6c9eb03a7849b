// RUN: graph-opt %s --graphc-cpu-drop-equivalent-results | FileCheck %s

// A public function returning its updated argument loses the result and
// stays public; its caller reads the argument instead.
// CHECK-LABEL: func.func @kernel(%{{.*}}: memref<4xf32>) {
// CHECK-NEXT:    return
// CHECK-NEXT:  }
func.func @kernel(%a: memref<4xf32>) -> memref<4xf32> {
  return %a : memref<4xf32>
}

// The caller's own result is its argument again: dropped too.
// CHECK-LABEL: func.func @caller
// CHECK-SAME:    (%[[X:.*]]: memref<4xf32>) {
// CHECK:         call @kernel(%[[X]]) : (memref<4xf32>) -> ()
// CHECK-NEXT:    return{{$}}
func.func @caller(%x: memref<4xf32>) -> memref<4xf32> {
  %r = call @kernel(%x) : (memref<4xf32>) -> memref<4xf32>
  return %r : memref<4xf32>
}

// A result that is a new buffer stays.
// CHECK-LABEL: func.func @fresh() -> memref<4xf32>
func.func @fresh() -> memref<4xf32> {
  %m = memref.alloc() : memref<4xf32>
  return %m : memref<4xf32>
}
