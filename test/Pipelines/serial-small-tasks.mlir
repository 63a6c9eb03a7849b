// graphc-cpu-serial-small-tasks: an scf.forall whose estimated work (element
// operations: vector lanes, a contraction's iteration space at half weight,
// times static trip counts) is under min-work becomes serial scf.for loops;
// larger ones, and ones whose work is not static, stay parallel.
// RUN: graph-opt %s --pass-pipeline='builtin.module(func.func(graphc-cpu-serial-small-tasks))' \
// RUN:   | FileCheck %s
// RUN: graph-opt %s --pass-pipeline='builtin.module(func.func(graphc-cpu-serial-small-tasks{min-work=0}))' \
// RUN:   | FileCheck %s --check-prefix=NEVER
// RUN: graph-opt %s --pass-pipeline='builtin.module(func.func(graphc-cpu-serial-small-tasks{min-work=1000000}))' \
// RUN:   | FileCheck %s --check-prefix=HIGH

// 8 tasks x 4 rows x (read, add, write) of 16 lanes: 8 * 4 * 48 = 1536.
// CHECK-LABEL: func.func @small
// CHECK-NOT:     scf.forall
// CHECK:         scf.for %{{.*}} = %{{.*}} to %c8 step
// CHECK:           scf.for
// CHECK:             arith.addf {{.*}} : vector<16xf32>
// NEVER-LABEL: func.func @small
// NEVER:         scf.forall
func.func @small(%a: memref<8x4x16xf32>, %b: memref<8x4x16xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %pad = arith.constant 0.0 : f32
  scf.forall (%i) in (8) {
    scf.for %r = %c0 to %c4 step %c1 {
      %v = vector.transfer_read %a[%i, %r, %c0], %pad {in_bounds = [true]}
          : memref<8x4x16xf32>, vector<16xf32>
      %s = arith.addf %v, %v : vector<16xf32>
      vector.transfer_write %s, %b[%i, %r, %c0] {in_bounds = [true]}
          : vector<16xf32>, memref<8x4x16xf32>
    }
  }
  return
}

// 64 tasks x 256 rows x 48 = 786432: above the default of 131072, below
// 1000000.
// CHECK-LABEL: func.func @large
// CHECK:         scf.forall (%{{.*}}) in (64)
// HIGH-LABEL:  func.func @large
// HIGH-NOT:      scf.forall
func.func @large(%a: memref<64x256x16xf32>, %b: memref<64x256x16xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c256 = arith.constant 256 : index
  %pad = arith.constant 0.0 : f32
  scf.forall (%i) in (64) {
    scf.for %r = %c0 to %c256 step %c1 {
      %v = vector.transfer_read %a[%i, %r, %c0], %pad {in_bounds = [true]}
          : memref<64x256x16xf32>, vector<16xf32>
      %s = arith.addf %v, %v : vector<16xf32>
      vector.transfer_write %s, %b[%i, %r, %c0] {in_bounds = [true]}
          : vector<16xf32>, memref<64x256x16xf32>
    }
  }
  return
}

// A register tile's K loop: 4 tasks x 128 steps x (8 x 32 x 1) / 2 = 65536
// for the contractions, plus the reads: serial under the default.
// CHECK-LABEL: func.func @contract
// CHECK-NOT:     scf.forall
// CHECK:         vector.contract
// HIGH-LABEL:  func.func @contract
// HIGH-NOT:      scf.forall
#lhs = affine_map<(m, n, k) -> (m, k)>
#rhs = affine_map<(m, n, k) -> (k, n)>
#acc = affine_map<(m, n, k) -> (m, n)>
func.func @contract(%a: memref<4x8x128xf32>, %b: memref<128x32xf32>,
                    %c: memref<4x8x32xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c128 = arith.constant 128 : index
  %pad = arith.constant 0.0 : f32
  scf.forall (%t) in (4) {
    %init = vector.transfer_read %c[%t, %c0, %c0], %pad {in_bounds = [true, true]}
        : memref<4x8x32xf32>, vector<8x32xf32>
    %r = scf.for %k = %c0 to %c128 step %c1 iter_args(%acc = %init)
        -> (vector<8x32xf32>) {
      %l = vector.transfer_read %a[%t, %c0, %k], %pad {in_bounds = [true, true]}
          : memref<4x8x128xf32>, vector<8x1xf32>
      %rr = vector.transfer_read %b[%k, %c0], %pad {in_bounds = [true, true]}
          : memref<128x32xf32>, vector<1x32xf32>
      %n = vector.contract {indexing_maps = [#lhs, #rhs, #acc],
                            iterator_types = ["parallel", "parallel", "reduction"],
                            kind = #vector.kind<add>} %l, %rr, %acc
          : vector<8x1xf32>, vector<1x32xf32> into vector<8x32xf32>
      scf.yield %n : vector<8x32xf32>
    }
    vector.transfer_write %r, %c[%t, %c0, %c0] {in_bounds = [true, true]}
        : vector<8x32xf32>, memref<4x8x32xf32>
  }
  return
}

// A loop of unknown trip count: its work is not static, the forall stays.
// CHECK-LABEL: func.func @dynamic
// CHECK:         scf.forall
// HIGH-LABEL:  func.func @dynamic
// HIGH:          scf.forall
func.func @dynamic(%a: memref<2x?xf32>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %one = arith.constant 1.0 : f32
  scf.forall (%i) in (2) {
    scf.for %j = %c0 to %n step %c1 {
      memref.store %one, %a[%i, %j] : memref<2x?xf32>
    }
  }
  return
}

// A scalar linalg op the vectoriser left counts once per point and body op:
// 2 x 16 x 16 x (addf) = 512, serial.
// CHECK-LABEL: func.func @scalar_generic
// CHECK-NOT:     scf.forall
// CHECK:         linalg.generic
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @scalar_generic(%a: memref<2x16x16xf32>) {
  scf.forall (%i) in (2) {
    %s = memref.subview %a[%i, 0, 0] [1, 16, 16] [1, 1, 1]
        : memref<2x16x16xf32> to memref<16x16xf32, strided<[16, 1], offset: ?>>
    linalg.generic {indexing_maps = [#id], iterator_types = ["parallel", "parallel"]}
        outs(%s : memref<16x16xf32, strided<[16, 1], offset: ?>>) {
    ^bb0(%o: f32):
      %d = arith.addf %o, %o : f32
      linalg.yield %d : f32
    }
  }
  return
}
