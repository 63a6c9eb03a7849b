// RUN: graph-opt %s --graphc-cpu-lower-alloca-scopes --split-input-file | FileCheck %s
// RUN: graph-opt %s --graphc-cpu-lower-alloca-scopes --convert-scf-to-cf --split-input-file | FileCheck %s --check-prefix=CF

// An alloca scope around a loop (what convert-scf-to-openmp makes of a
// parallel loop body) becomes stack save/restore around the inlined body, so
// the loop can then become branches.

// CHECK-LABEL: func @scope_with_loop
// CHECK: %[[SP:.*]] = llvm.intr.stacksave : !llvm.ptr
// CHECK: memref.alloca
// CHECK: scf.for
// CHECK: llvm.intr.stackrestore %[[SP]]
// CHECK-NOT: memref.alloca_scope
// CF-LABEL: func @scope_with_loop
// CF: llvm.intr.stacksave
// CF: cf.br
// CF: llvm.intr.stackrestore
func.func @scope_with_loop(%out: memref<4xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  memref.alloca_scope {
    %tmp = memref.alloca() : memref<4xf32>
    scf.for %i = %c0 to %c4 step %c1 {
      %v = memref.load %tmp[%i] : memref<4xf32>
      memref.store %v, %out[%i] : memref<4xf32>
    }
  }
  return
}

// -----

// Values the scope returns replace its results.
// CHECK-LABEL: func @scope_with_result
// CHECK: llvm.intr.stacksave
// CHECK: %[[V:.*]] = arith.addf
// CHECK: llvm.intr.stackrestore
// CHECK: return %[[V]]
func.func @scope_with_result(%a: f32) -> f32 {
  %r = memref.alloca_scope -> f32 {
    %s = arith.addf %a, %a : f32
    memref.alloca_scope.return %s : f32
  }
  return %r : f32
}
