// Numeric check of the CPU pipeline on 2-D max and average pooling (the
// direct plane kernel of graphc-cpu-tile-and-vectorize, see
// docs/design/cpu-codegen.md, "Small models against ONNX Runtime"),
// compared with NumPy (Inputs/reference.py), with OpenMP tasks and without:
// * @max: 3x3 windows at stride 2 with padding 1 (-inf, padded per task),
//   batch 8, 22 output columns (16 + 4 + 2 with AVX-512, 8 + 8 + 4 + 2
//   with AVX2), 7 rows (a block of 4 and one of 3).
// * @avg: 3x3 windows at stride 1 with padding 1 excluded from the count,
//   batch 1, 23 output columns (16 + 4 + 2 + 1).
// * @max_s3: mnist-8's 3x3 windows at stride 3, no padding.
// REQUIRES: libomp
// RUN: graph-opt %s --graph-to-linalg --graphc-cpu-codegen=min-parallel-work=0 > %t.mlir
// RUN: graph-opt %s --graph-to-linalg --graphc-cpu-codegen=openmp=0 > %t.serial.mlir
// RUN: for f in %t.mlir %t.serial.mlir; do \
// RUN:   mlir-runner $f -e main_max -entry-point-result=void \
// RUN:     -shared-libs=%mlir_c_runner_utils,%mlir_runner_utils,%libomp > %t.max && \
// RUN:   %numpy_python %S/Inputs/reference.py pool 8,3,13,44,3,3,2,2,1,1,1,1,0 %t.max && \
// RUN:   mlir-runner $f -e main_avg -entry-point-result=void \
// RUN:     -shared-libs=%mlir_c_runner_utils,%mlir_runner_utils,%libomp > %t.avg && \
// RUN:   %numpy_python %S/Inputs/reference.py pool 1,5,9,23,3,3,1,1,1,1,1,1,1 %t.avg && \
// RUN:   mlir-runner $f -e main_max_s3 -entry-point-result=void \
// RUN:     -shared-libs=%mlir_c_runner_utils,%mlir_runner_utils,%libomp > %t.s3 && \
// RUN:   %numpy_python %S/Inputs/reference.py pool 2,4,14,14,3,3,3,3,0,0,0,0,0 %t.s3 \
// RUN:   || exit 1; done | FileCheck %s --check-prefix=NUM
// NUM:      pool OK, 3696 values, max error 0.0
// NUM-NEXT: pool OK, 1035 values
// NUM-NEXT: pool OK, 128 values, max error 0.0
// NUM-NEXT: pool OK, 3696 values, max error 0.0
// NUM-NEXT: pool OK, 1035 values
// NUM-NEXT: pool OK, 128 values, max error 0.0
// The lowering (8 lanes, so it does not depend on the host):
// RUN: graph-opt %s --graph-to-linalg \
// RUN: | graph-opt --pass-pipeline='builtin.module(func.func(graphc-cpu-tile-and-vectorize{vector-width=8}))' \
// RUN: | FileCheck %s

#id4 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>

// Element (i, j, k, l) = ((i * p0 + j * p1 + k * p2 + l * p3) mod 11) - 5.
func.func @init(%t: tensor<?x?x?x?xf32>, %p0: index, %p1: index, %p2: index,
                %p3: index) -> tensor<?x?x?x?xf32> {
  %c11 = arith.constant 11 : index
  %five = arith.constant 5.0 : f32
  %r = linalg.generic {indexing_maps = [#id4],
                       iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      outs(%t : tensor<?x?x?x?xf32>) {
  ^bb0(%o: f32):
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %k = linalg.index 2 : index
    %l = linalg.index 3 : index
    %a = arith.muli %i, %p0 : index
    %b = arith.muli %j, %p1 : index
    %c = arith.muli %k, %p2 : index
    %d = arith.muli %l, %p3 : index
    %s0 = arith.addi %a, %b : index
    %s1 = arith.addi %s0, %c : index
    %s2 = arith.addi %s1, %d : index
    %v = arith.remui %s2, %c11 : index
    %vi = arith.index_cast %v : index to i64
    %vf = arith.sitofp %vi : i64 to f32
    %e = arith.subf %vf, %five : f32
    linalg.yield %e : f32
  } -> tensor<?x?x?x?xf32>
  return %r : tensor<?x?x?x?xf32>
}

// One task per (image, channel), each padding its own plane with -inf
// (written to the border only, the source copied into the interior);
// strided columns are loaded as twice as many contiguous ones and
// compacted; 4 rows x 9 taps of maxima, then the 4- and 2-column pieces.
// CHECK-LABEL: func.func @max(
// CHECK-NOT:   linalg.pooling_nchw_max
// CHECK:       scf.forall ({{.*}}) in (8, 3)
// CHECK-NOT:   tensor.pad
// CHECK:       tensor.empty() : tensor<15x46xf32>
// CHECK:       tensor.insert_slice {{.*}}[1, 1] [13, 44] [1, 1] : tensor<13x44xf32> into tensor<15x46xf32>
// CHECK:       scf.for
// CHECK:       vector.transfer_read {{.*}} : tensor<15x46xf32>, vector<16xf32>
// CHECK-NEXT:  vector.shuffle {{.*}} [0, 2, 4, 6, 8, 10, 12, 14] : vector<16xf32>, vector<16xf32>
// CHECK:       arith.maximumf {{.*}} fastmath<nsz> : vector<8xf32>
// CHECK:       vector.transfer_write {{.*}} : vector<8xf32>, tensor<7x22xf32>
// CHECK:       arith.maximumf {{.*}} : vector<4xf32>
// CHECK:       arith.maximumf {{.*}} : vector<2xf32>
// CHECK:       tensor.parallel_insert_slice
// CHECK-NOT:   linalg.pooling_nchw_max
func.func @max(%x: tensor<8x3x13x44xf32>) -> tensor<8x3x7x22xf32> {
  %r = graph.pool %x {kind = #graph<pool_kind max>, window = array<i64: 3, 3>, strides = array<i64: 2, 2>, pad_low = array<i64: 1, 1>, pad_high = array<i64: 1, 1>}
      : (tensor<8x3x13x44xf32>) -> tensor<8x3x7x22xf32>
  return %r : tensor<8x3x7x22xf32>
}

// Batch 1: the tasks go over the channels (the unit batch folds away). Stride 1: plain loads, and sums
// from a zero accumulator, then the division by the counts.
// CHECK-LABEL: func.func @avg(
// CHECK-NOT:   linalg.pooling_nchw_sum
// CHECK:       scf.forall ({{.*}}) in (5)
// CHECK-NOT:   vector.shuffle
// CHECK:       arith.addf {{.*}} : vector<8xf32>
// CHECK-NOT:   vector.shuffle
// CHECK:       arith.addf {{.*}} : vector<1xf32>
// CHECK:       tensor.parallel_insert_slice
// CHECK:       arith.divf
func.func @avg(%x: tensor<1x5x9x23xf32>) -> tensor<1x5x9x23xf32> {
  %r = graph.pool %x {kind = #graph<pool_kind avg>, window = array<i64: 3, 3>, strides = array<i64: 1, 1>, pad_low = array<i64: 1, 1>, pad_high = array<i64: 1, 1>}
      : (tensor<1x5x9x23xf32>) -> tensor<1x5x9x23xf32>
  return %r : tensor<1x5x9x23xf32>
}

// Stride 3 without padding: the plane is read in place, the four output
// columns are one vector read of 10 elements compacted to 4.
// CHECK-LABEL: func.func @max_s3(
// CHECK:       scf.forall ({{.*}}) in (2, 4)
// CHECK-NOT:   tensor.pad
// CHECK:       vector.transfer_read {{.*}} : tensor<14x14xf32>, vector<12xf32>
// CHECK-NEXT:  vector.shuffle {{.*}} [0, 3, 6, 9] : vector<12xf32>, vector<12xf32>
// CHECK:       arith.maximumf {{.*}} : vector<4xf32>
func.func @max_s3(%x: tensor<2x4x14x14xf32>) -> tensor<2x4x4x4xf32> {
  %r = graph.pool %x {kind = #graph<pool_kind max>, window = array<i64: 3, 3>, strides = array<i64: 3, 3>}
      : (tensor<2x4x14x14xf32>) -> tensor<2x4x4x4xf32>
  return %r : tensor<2x4x4x4xf32>
}

func.func private @printMemrefF32(tensor<*xf32>)

func.func @input(%n: index, %c: index, %h: index, %w: index) -> tensor<?x?x?x?xf32> {
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c5 = arith.constant 5 : index
  %c7 = arith.constant 7 : index
  %e = tensor.empty(%n, %c, %h, %w) : tensor<?x?x?x?xf32>
  %x = call @init(%e, %c7, %c3, %c5, %c2)
      : (tensor<?x?x?x?xf32>, index, index, index, index) -> tensor<?x?x?x?xf32>
  return %x : tensor<?x?x?x?xf32>
}

func.func @main_max() {
  %n = arith.constant 8 : index
  %c = arith.constant 3 : index
  %h = arith.constant 13 : index
  %w = arith.constant 44 : index
  %x = call @input(%n, %c, %h, %w) : (index, index, index, index) -> tensor<?x?x?x?xf32>
  %xs = tensor.cast %x : tensor<?x?x?x?xf32> to tensor<8x3x13x44xf32>
  %r = call @max(%xs) : (tensor<8x3x13x44xf32>) -> tensor<8x3x7x22xf32>
  %u = tensor.cast %r : tensor<8x3x7x22xf32> to tensor<*xf32>
  call @printMemrefF32(%u) : (tensor<*xf32>) -> ()
  return
}

func.func @main_avg() {
  %n = arith.constant 1 : index
  %c = arith.constant 5 : index
  %h = arith.constant 9 : index
  %w = arith.constant 23 : index
  %x = call @input(%n, %c, %h, %w) : (index, index, index, index) -> tensor<?x?x?x?xf32>
  %xs = tensor.cast %x : tensor<?x?x?x?xf32> to tensor<1x5x9x23xf32>
  %r = call @avg(%xs) : (tensor<1x5x9x23xf32>) -> tensor<1x5x9x23xf32>
  %u = tensor.cast %r : tensor<1x5x9x23xf32> to tensor<*xf32>
  call @printMemrefF32(%u) : (tensor<*xf32>) -> ()
  return
}

func.func @main_max_s3() {
  %n = arith.constant 2 : index
  %c = arith.constant 4 : index
  %h = arith.constant 14 : index
  %w = arith.constant 14 : index
  %x = call @input(%n, %c, %h, %w) : (index, index, index, index) -> tensor<?x?x?x?xf32>
  %xs = tensor.cast %x : tensor<?x?x?x?xf32> to tensor<2x4x14x14xf32>
  %r = call @max_s3(%xs) : (tensor<2x4x14x14xf32>) -> tensor<2x4x4x4xf32>
  %u = tensor.cast %r : tensor<2x4x4x4xf32> to tensor<*xf32>
  call @printMemrefF32(%u) : (tensor<*xf32>) -> ()
  return
}
