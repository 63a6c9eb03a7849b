// RUN: graph-opt %s --graphc-cpu-hoist-vector-transfers | FileCheck %s

// A micro-kernel K loop that graphc-cpu-tile-and-vectorize marked for a
// 4-fold unroll: once the C tile read/write is hoisted (the tile is carried
// in iter_args), the loop is unrolled 4 times, its dynamic trip count
// leaving an epilogue loop, and the mark is dropped. An unmarked loop stays.
// CHECK-LABEL: func.func @kernel
// CHECK:         vector.transfer_read %{{.*}} : memref<6x64xf32>, vector<6x64xf32>
// CHECK:         scf.for {{.*}} step %{{.*}} iter_args(%[[ACC:.*]] = %{{.*}}) -> (vector<6x64xf32>)
// CHECK-COUNT-4:   vector.contract
// CHECK-NOT:       vector.contract
// CHECK:           scf.yield
// CHECK:         scf.for {{.*}} iter_args(%{{.*}}) -> (vector<6x64xf32>)
// CHECK:           vector.contract
// CHECK-NOT:       vector.contract
// CHECK:         vector.transfer_write
// CHECK-NOT:     __graphc_cpu_unroll_k
// CHECK-LABEL: func.func @unmarked
// CHECK:         scf.for
// CHECK-COUNT-1:   vector.contract
// CHECK-NOT:       vector.contract
#a = affine_map<(m, n, k) -> (m, k)>
#b = affine_map<(m, n, k) -> (k, n)>
#c = affine_map<(m, n, k) -> (m, n)>
func.func @kernel(%A: memref<6x?xf32>, %B: memref<?x64xf32>, %C: memref<6x64xf32>, %k: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %pad = arith.constant 0.0 : f32
  scf.for %i = %c0 to %k step %c1 {
    %a = vector.transfer_read %A[%c0, %i], %pad {in_bounds = [true, true]} : memref<6x?xf32>, vector<6x1xf32>
    %b = vector.transfer_read %B[%i, %c0], %pad {in_bounds = [true, true]} : memref<?x64xf32>, vector<1x64xf32>
    %acc = vector.transfer_read %C[%c0, %c0], %pad {in_bounds = [true, true]} : memref<6x64xf32>, vector<6x64xf32>
    %r = vector.contract {indexing_maps = [#a, #b, #c], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %a, %b, %acc : vector<6x1xf32>, vector<1x64xf32> into vector<6x64xf32>
    vector.transfer_write %r, %C[%c0, %c0] {in_bounds = [true, true]} : vector<6x64xf32>, memref<6x64xf32>
  } {__graphc_cpu_unroll_k = 4 : i64}
  return
}
func.func @unmarked(%A: memref<6x?xf32>, %B: memref<?x64xf32>, %C: memref<6x64xf32>, %k: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %pad = arith.constant 0.0 : f32
  scf.for %i = %c0 to %k step %c1 {
    %a = vector.transfer_read %A[%c0, %i], %pad {in_bounds = [true, true]} : memref<6x?xf32>, vector<6x1xf32>
    %b = vector.transfer_read %B[%i, %c0], %pad {in_bounds = [true, true]} : memref<?x64xf32>, vector<1x64xf32>
    %acc = vector.transfer_read %C[%c0, %c0], %pad {in_bounds = [true, true]} : memref<6x64xf32>, vector<6x64xf32>
    %r = vector.contract {indexing_maps = [#a, #b, #c], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %a, %b, %acc : vector<6x1xf32>, vector<1x64xf32> into vector<6x64xf32>
    vector.transfer_write %r, %C[%c0, %c0] {in_bounds = [true, true]} : vector<6x64xf32>, memref<6x64xf32>
  }
  return
}
