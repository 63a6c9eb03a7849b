// Numeric check of the im2col + GEMM rewrite of linalg.conv_2d_nchw_fchw
// (docs/design/conv-codegen.md) when the convolution accumulates into an
// init that is not a fill (the GEMM reads it back), batch 3 (a whole-batch
// im2col buffer of 2646 elements, so one batched GEMM with a task per
// image; large batches go image by image, see tile-and-vectorize.mlir
// @conv_per_image), strides [2, 1], dilations [1, 2]; compared with NumPy
// (Inputs/reference.py).
// REQUIRES: libomp
// RUN: graph-opt %s --graphc-cpu-codegen \
// RUN: | mlir-runner -e main -entry-point-result=void \
// RUN:   -shared-libs=%mlir_c_runner_utils,%mlir_runner_utils,%libomp > %t.out
// RUN: %numpy_python %S/Inputs/reference.py conv_nchw_strided_acc 3,3,15,9,17,3,2,2,1,1,2 %t.out
// The rewrite happens, the accumulator read as [N, O, P] by one GEMM:
// RUN: graph-opt %s --pass-pipeline='builtin.module(func.func(graphc-cpu-tile-and-vectorize))' \
// RUN: | FileCheck %s
// CHECK-LABEL: func.func @conv
// CHECK-NOT:   linalg.conv_2d_nchw_fchw
// CHECK:       tensor.collapse_shape %{{.*}} {{\[}}[0], [1], [2, 3]] : tensor<3x17x7x7xf32> into tensor<3x17x49xf32>
// CHECK:       tensor.collapse_shape %{{.*}} : tensor<3x3x3x2x7x7xf32> into tensor<3x18x49xf32>
// CHECK:       scf.forall (%{{.*}}) in (3)
// CHECK:       vector.contract
// CHECK-NOT:   linalg.conv_2d_nchw_fchw
// CHECK-LABEL: func.func @main

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

func.func @conv(%x: tensor<3x3x15x9xf32>, %w: tensor<17x3x3x2xf32>, %f: tensor<3x17x7x7xf32>) -> tensor<3x17x7x7xf32> {
  %r = linalg.conv_2d_nchw_fchw {dilations = dense<[1, 2]> : tensor<2xi64>,
                                 strides = dense<[2, 1]> : tensor<2xi64>}
      ins(%x, %w : tensor<3x3x15x9xf32>, tensor<17x3x3x2xf32>)
      outs(%f : tensor<3x17x7x7xf32>) -> tensor<3x17x7x7xf32>
  return %r : tensor<3x17x7x7xf32>
}

func.func private @printMemrefF32(tensor<*xf32>)

func.func @main() {
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c5 = arith.constant 5 : index
  %c7 = arith.constant 7 : index
  %x0 = arith.constant 3 : index
  %x1 = arith.constant 3 : index
  %x2 = arith.constant 15 : index
  %x3 = arith.constant 9 : index
  %w0 = arith.constant 17 : index
  %w1 = arith.constant 3 : index
  %w2 = arith.constant 3 : index
  %w3 = arith.constant 2 : index
  %ex = tensor.empty(%x0, %x1, %x2, %x3) : tensor<?x?x?x?xf32>
  %x = call @init(%ex, %c7, %c3, %c5, %c2)
      : (tensor<?x?x?x?xf32>, index, index, index, index) -> tensor<?x?x?x?xf32>
  %ew = tensor.empty(%w0, %w1, %w2, %w3) : tensor<?x?x?x?xf32>
  %w = call @init(%ew, %c5, %c2, %c3, %c7)
      : (tensor<?x?x?x?xf32>, index, index, index, index) -> tensor<?x?x?x?xf32>
  %xs = tensor.cast %x : tensor<?x?x?x?xf32> to tensor<3x3x15x9xf32>
  %ws = tensor.cast %w : tensor<?x?x?x?xf32> to tensor<17x3x3x2xf32>
  %o0 = arith.constant 3 : index
  %o1 = arith.constant 17 : index
  %eo = tensor.empty(%o0, %o1, %c7, %c7) : tensor<?x?x?x?xf32>
  %acc = call @init(%eo, %c3, %c7, %c2, %c5)
      : (tensor<?x?x?x?xf32>, index, index, index, index) -> tensor<?x?x?x?xf32>
  %accs = tensor.cast %acc : tensor<?x?x?x?xf32> to tensor<3x17x7x7xf32>
  %r = call @conv(%xs, %ws, %accs)
      : (tensor<3x3x15x9xf32>, tensor<17x3x3x2xf32>, tensor<3x17x7x7xf32>) -> tensor<3x17x7x7xf32>
  %u = tensor.cast %r : tensor<3x17x7x7xf32> to tensor<*xf32>
  call @printMemrefF32(%u) : (tensor<*xf32>) -> ()
  return
}
