// The im2col copies as vector copies along input rows (im2colByRows in
// lib/Pipelines/CpuTileAndVectorize.cpp, docs/design/conv-codegen.md), at
// stride 2 along the rows, where a row segment is read contiguously and
// compacted by a shuffle:
// * @conv_s2, convToGemm: strides [1, 2], 20 output columns per row
//   (a loop of 16-lane vectors, then a piece of 4 whose 8-element read
//   would run past the input row, so it reads 7); batch 2, one image per
//   iteration, an scf.forall over (image, channel, filter row).
// * @conv_wide, wideFilterConvToGemm with the images and pixels in M (a
//   filter gradient's form): dilation 2 along the rows, rows of 182 taps
//   (11 x 16 + 4 + 2, the last piece reading 3 elements).
// Both compared with NumPy (Inputs/reference.py; integer-valued, exact in
// f32), with threads and without.
// REQUIRES: libomp
// RUN: graph-opt %s --graphc-cpu-codegen > %t.mlir
// RUN: graph-opt %s --graphc-cpu-codegen=openmp=0 > %t.serial.mlir
// RUN: for f in %t.mlir %t.serial.mlir; do \
// RUN:   mlir-runner $f -e main_s2 -entry-point-result=void \
// RUN:     -shared-libs=%mlir_c_runner_utils,%mlir_runner_utils,%libomp > %t.s2 && \
// RUN:   %numpy_python %S/Inputs/reference.py conv_nchw_strided 2,4,9,41,5,3,3,1,2,1,1 %t.s2 && \
// RUN:   mlir-runner $f -e main_wide -entry-point-result=void \
// RUN:     -shared-libs=%mlir_c_runner_utils,%mlir_runner_utils,%libomp > %t.wide && \
// RUN:   %numpy_python %S/Inputs/reference.py conv_nchw_strided 3,2,184,366,8,182,182,2,1,1,2 %t.wide \
// RUN:   || exit 1; done
// The form: one scf.forall of vector copies per im2col (the unit outer
// dimensions folded away), a vector loop and the static pieces per row.
// RUN: graph-opt %s --pass-pipeline='builtin.module(func.func(graphc-cpu-tile-and-vectorize{vector-width=16}),canonicalize,cse)' \
// RUN: | FileCheck %s
// CHECK-LABEL: func.func @conv_s2
// CHECK-NOT:   linalg.conv_2d_nchw_fchw
// Both images' im2col (under 2^20 elements) is one buffer, copied by one
// scf.forall over (image, channel, filter row), and feeds one batched GEMM.
// CHECK:       scf.forall (%[[N:.*]], %[[C:.*]], %[[KH:.*]]) in (2, 4, 3)
// CHECK:         tensor.extract_slice %{{.*}}[%[[N]], %[[C]], %[[KH]], 0, 0, 0] [1, 1, 1, 3, 7, 20]
// CHECK:         scf.for %[[KW:.*]] = %c0 to %c3 step %c1
// CHECK:           scf.for %[[OH:.*]] = %c0 to %c7 step %c1
// CHECK:             %[[H:.*]] = arith.addi %[[KH]], %[[OH]]
// CHECK:             vector.transfer_read %{{.*}}[%[[N]], %[[C]], %[[H]], %[[KW]]], %{{.*}} {in_bounds = [true]} : tensor<2x4x9x41xf32>, vector<32xf32>
// CHECK:             vector.shuffle %{{.*}} [0, 2, 4, 6, 8, 10, 12, 14, 16, 18, 20, 22, 24, 26, 28, 30] : vector<32xf32>, vector<32xf32>
// CHECK:             vector.transfer_write %{{.*}}[%[[KW]], %[[OH]], %c0] {in_bounds = [true]} : vector<16xf32>, tensor<3x7x20xf32>
// CHECK:             vector.transfer_read %{{.*}} : tensor<2x4x9x41xf32>, vector<7xf32>
// CHECK:             vector.shuffle %{{.*}} [0, 2, 4, 6] : vector<7xf32>, vector<7xf32>
// CHECK:             vector.transfer_write %{{.*}}[%[[KW]], %[[OH]], %c16] {in_bounds = [true]} : vector<4xf32>, tensor<3x7x20xf32>
// CHECK:         tensor.parallel_insert_slice
// CHECK:       tensor.collapse_shape %{{.*}} {{\[}}[0], [1, 2, 3], [4, 5]] : tensor<2x4x3x3x7x20xf32> into tensor<2x36x140xf32>
// CHECK:       scf.forall (%{{.*}}) in (2)
// CHECK:       vector.contract
// CHECK-LABEL: func.func @conv_wide
// CHECK:       scf.forall (%{{.*}}, %{{.*}}, %{{.*}}) in (3, 2, 4)
// CHECK:         scf.for %{{.*}} = %c0 to %c182 step %c1
// CHECK:           scf.for %{{.*}} = %c0 to %c176 step %c16
// CHECK:             vector.transfer_read %{{.*}} {in_bounds = [true]} : tensor<3x1x184x366xf32>, vector<32xf32>
// CHECK:             vector.shuffle
// CHECK:             vector.transfer_write %{{.*}} {in_bounds = [true]} : vector<16xf32>, tensor<1x182x182xf32>
// CHECK:           vector.transfer_read %{{.*}} {in_bounds = [true]} : tensor<3x1x184x366xf32>, vector<8xf32>
// CHECK:           vector.transfer_write %{{.*}}[%c0, %{{.*}}, %c176] {in_bounds = [true]} : vector<4xf32>, tensor<1x182x182xf32>
// CHECK:           vector.transfer_read %{{.*}} {in_bounds = [true]} : tensor<3x1x184x366xf32>, vector<3xf32>
// CHECK:           vector.shuffle %{{.*}} [0, 2] : vector<3xf32>, vector<3xf32>
// CHECK:           vector.transfer_write %{{.*}}[%c0, %{{.*}}, %c180] {in_bounds = [true]} : vector<2xf32>, tensor<1x182x182xf32>
// CHECK:         tensor.parallel_insert_slice
// CHECK:       vector.contract
// CHECK-LABEL: func.func @main_s2

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

func.func @conv_s2(%x: tensor<2x4x9x41xf32>, %w: tensor<5x4x3x3xf32>) -> tensor<2x5x7x20xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2x5x7x20xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<2x5x7x20xf32>) -> tensor<2x5x7x20xf32>
  %r = linalg.conv_2d_nchw_fchw {dilations = dense<[1, 1]> : tensor<2xi64>,
                                 strides = dense<[1, 2]> : tensor<2xi64>}
      ins(%x, %w : tensor<2x4x9x41xf32>, tensor<5x4x3x3xf32>)
      outs(%f : tensor<2x5x7x20xf32>) -> tensor<2x5x7x20xf32>
  return %r : tensor<2x5x7x20xf32>
}

func.func @conv_wide(%x: tensor<3x2x184x366xf32>, %w: tensor<8x2x182x182xf32>) -> tensor<3x8x2x4xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<3x8x2x4xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<3x8x2x4xf32>) -> tensor<3x8x2x4xf32>
  %r = linalg.conv_2d_nchw_fchw {dilations = dense<[1, 2]> : tensor<2xi64>,
                                 strides = dense<[2, 1]> : tensor<2xi64>}
      ins(%x, %w : tensor<3x2x184x366xf32>, tensor<8x2x182x182xf32>)
      outs(%f : tensor<3x8x2x4xf32>) -> tensor<3x8x2x4xf32>
  return %r : tensor<3x8x2x4xf32>
}

func.func private @printMemrefF32(tensor<*xf32>)

func.func @main_s2() {
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c5 = arith.constant 5 : index
  %c7 = arith.constant 7 : index
  %x0 = arith.constant 2 : index
  %x1 = arith.constant 4 : index
  %x2 = arith.constant 9 : index
  %x3 = arith.constant 41 : index
  %w0 = arith.constant 5 : index
  %w1 = arith.constant 4 : index
  %w2 = arith.constant 3 : index
  %w3 = arith.constant 3 : index
  %ex = tensor.empty(%x0, %x1, %x2, %x3) : tensor<?x?x?x?xf32>
  %x = call @init(%ex, %c7, %c3, %c5, %c2)
      : (tensor<?x?x?x?xf32>, index, index, index, index) -> tensor<?x?x?x?xf32>
  %ew = tensor.empty(%w0, %w1, %w2, %w3) : tensor<?x?x?x?xf32>
  %w = call @init(%ew, %c5, %c2, %c3, %c7)
      : (tensor<?x?x?x?xf32>, index, index, index, index) -> tensor<?x?x?x?xf32>
  %xs = tensor.cast %x : tensor<?x?x?x?xf32> to tensor<2x4x9x41xf32>
  %ws = tensor.cast %w : tensor<?x?x?x?xf32> to tensor<5x4x3x3xf32>
  %r = call @conv_s2(%xs, %ws)
      : (tensor<2x4x9x41xf32>, tensor<5x4x3x3xf32>) -> tensor<2x5x7x20xf32>
  %u = tensor.cast %r : tensor<2x5x7x20xf32> to tensor<*xf32>
  call @printMemrefF32(%u) : (tensor<*xf32>) -> ()
  return
}

func.func @main_wide() {
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c5 = arith.constant 5 : index
  %c7 = arith.constant 7 : index
  %x0 = arith.constant 3 : index
  %x1 = arith.constant 2 : index
  %x2 = arith.constant 184 : index
  %x3 = arith.constant 366 : index
  %w0 = arith.constant 8 : index
  %w1 = arith.constant 2 : index
  %w2 = arith.constant 182 : index
  %w3 = arith.constant 182 : index
  %ex = tensor.empty(%x0, %x1, %x2, %x3) : tensor<?x?x?x?xf32>
  %x = call @init(%ex, %c7, %c3, %c5, %c2)
      : (tensor<?x?x?x?xf32>, index, index, index, index) -> tensor<?x?x?x?xf32>
  %ew = tensor.empty(%w0, %w1, %w2, %w3) : tensor<?x?x?x?xf32>
  %w = call @init(%ew, %c5, %c2, %c3, %c7)
      : (tensor<?x?x?x?xf32>, index, index, index, index) -> tensor<?x?x?x?xf32>
  %xs = tensor.cast %x : tensor<?x?x?x?xf32> to tensor<3x2x184x366xf32>
  %ws = tensor.cast %w : tensor<?x?x?x?xf32> to tensor<8x2x182x182xf32>
  %r = call @conv_wide(%xs, %ws)
      : (tensor<3x2x184x366xf32>, tensor<8x2x182x182xf32>) -> tensor<3x8x2x4xf32>
  %u = tensor.cast %r : tensor<3x8x2x4xf32> to tensor<*xf32>
  call @printMemrefF32(%u) : (tensor<*xf32>) -> ()
  return
}
