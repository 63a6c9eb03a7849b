// graphc-cuda-map-to-gpu: linalg ops and copies on buffers become one
// parallel loop each, collapsed to one dimension and tiled by the block
// size: tiles on blocks (x), points on threads (x), the bounds check inside,
// reductions sequential in their thread.
// RUN: graph-opt %s --graphc-cuda-map-to-gpu="block-size=128" --split-input-file | FileCheck %s

// 6x100 = 600 elements: 5 blocks of 128 threads, the last partly idle.
// CHECK-LABEL: func.func @elementwise
// CHECK: scf.parallel (%[[B:.*]]) = (%{{.*}}) to (%{{.*}}) step (%[[C128:.*]]) {
// CHECK: scf.parallel (%[[T:.*]]) = (%{{.*}}) to (%[[C128]]) step
// CHECK: scf.if
// CHECK: math.exp
// CHECK: } {mapping = [#gpu.loop_dim_map<processor = thread_x
// CHECK: } {mapping = [#gpu.loop_dim_map<processor = block_x
// CHECK-NOT: linalg.
func.func @elementwise(%a: memref<6x100xf32>, %b: memref<6x100xf32>) {
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>],
                  iterator_types = ["parallel", "parallel"]}
      ins(%a : memref<6x100xf32>) outs(%b : memref<6x100xf32>) {
  ^bb0(%x: f32, %y: f32):
    %e = math.exp %x : f32
    linalg.yield %e : f32
  }
  return
}

// -----

// A row sum: rows on threads, the columns a loop in each thread; a copy is
// a kernel too.
// CHECK-LABEL: func.func @reduce_and_copy
// CHECK: scf.parallel
// CHECK: scf.parallel
// CHECK: scf.for
// CHECK: arith.addf
// CHECK: processor = thread_x
// CHECK: processor = block_x
// CHECK: scf.parallel
// CHECK: scf.parallel
// CHECK: memref.load
// CHECK: memref.store
// CHECK: processor = thread_x
// CHECK: processor = block_x
// CHECK-NOT: memref.copy
func.func @reduce_and_copy(%a: memref<8x16xf32>, %s: memref<8xf32>, %d: memref<8xf32>) {
  linalg.reduce ins(%a : memref<8x16xf32>) outs(%s : memref<8xf32>) dimensions = [1]
    (%x: f32, %acc: f32) {
      %r = arith.addf %x, %acc : f32
      linalg.yield %r : f32
    }
  memref.copy %s, %d : memref<8xf32> to memref<8xf32>
  return
}

// -----

// A full reduction has no parallel dimension: one block of one busy thread.
// CHECK-LABEL: func.func @full_reduction
// CHECK: scf.parallel
// CHECK: scf.parallel
// CHECK: scf.for
// CHECK: scf.for
// CHECK: processor = thread_x
// CHECK: processor = block_x
func.func @full_reduction(%a: memref<8x16xf32>, %s: memref<f32>) {
  linalg.reduce ins(%a : memref<8x16xf32>) outs(%s : memref<f32>) dimensions = [0, 1]
    (%x: f32, %acc: f32) {
      %r = arith.addf %x, %acc : f32
      linalg.yield %r : f32
    }
  return
}
