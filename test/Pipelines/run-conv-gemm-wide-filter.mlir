// Numeric check of the wide-filter rewrite of linalg.conv_2d_nchw_fchw
// (wideFilterConvToGemm, docs/design/conv-codegen.md "Backward
// convolutions"): a convolution whose output (2x3 pixels) is smaller than
// its filter (10x14 taps), as autodiff's filter gradients are, becomes
// im2col with the images in N and one linalg.matmul per chunk of input
// channels (2 chunks of 2 here: 2 * 140 taps reach K = 256), accumulated
// into an init that is not a fill, strides [2, 1], dilations [1, 2];
// compared with NumPy (Inputs/reference.py).
// REQUIRES: libomp
// RUN: graph-opt %s --graphc-cpu-codegen \
// RUN: | mlir-runner -e main -entry-point-result=void \
// RUN:   -shared-libs=%mlir_c_runner_utils,%mlir_runner_utils,%libomp > %t.out
// RUN: %numpy_python %S/Inputs/reference.py conv_nchw_strided_acc 5,4,13,29,6,10,14,2,1,1,2 %t.out
// The rewrite happens: the init transposed to [O, B*Q], a loop over the
// channel chunks of im2col [2*10*14, 5*2*3] and a matmul, then the result
// transposed back.
// RUN: graph-opt %s --pass-pipeline='builtin.module(func.func(graphc-cpu-tile-and-vectorize))' \
// RUN: | FileCheck %s
// CHECK-LABEL: func.func @conv
// CHECK-NOT:   linalg.conv_2d_nchw_fchw
// CHECK:       scf.for %{{.*}} = %c0 to %c4 step %c2 iter_args(%{{.*}} = %{{.*}}) -> (tensor<6x30xf32>)
// CHECK:       tensor.extract_slice %{{.*}}[0, %{{.*}}, 0, 0] [5, 2, 13, 29]
// CHECK:       tensor.extract_slice %{{.*}}[0, %{{.*}}, 0, 0] [6, 2, 10, 14]
// CHECK:       vector.contract
// CHECK:       tensor.expand_shape %{{.*}} into tensor<6x5x6xf32>
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

func.func @conv(%x: tensor<5x4x13x29xf32>, %w: tensor<6x4x10x14xf32>, %f: tensor<5x6x2x3xf32>) -> tensor<5x6x2x3xf32> {
  %r = linalg.conv_2d_nchw_fchw {dilations = dense<[1, 2]> : tensor<2xi64>,
                                 strides = dense<[2, 1]> : tensor<2xi64>}
      ins(%x, %w : tensor<5x4x13x29xf32>, tensor<6x4x10x14xf32>)
      outs(%f : tensor<5x6x2x3xf32>) -> tensor<5x6x2x3xf32>
  return %r : tensor<5x6x2x3xf32>
}

func.func private @printMemrefF32(tensor<*xf32>)

func.func @main() {
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c5 = arith.constant 5 : index
  %c7 = arith.constant 7 : index
  %x0 = arith.constant 5 : index
  %x1 = arith.constant 4 : index
  %x2 = arith.constant 13 : index
  %x3 = arith.constant 29 : index
  %w0 = arith.constant 6 : index
  %w1 = arith.constant 4 : index
  %w2 = arith.constant 10 : index
  %w3 = arith.constant 14 : index
  %ex = tensor.empty(%x0, %x1, %x2, %x3) : tensor<?x?x?x?xf32>
  %x = call @init(%ex, %c7, %c3, %c5, %c2)
      : (tensor<?x?x?x?xf32>, index, index, index, index) -> tensor<?x?x?x?xf32>
  %ew = tensor.empty(%w0, %w1, %w2, %w3) : tensor<?x?x?x?xf32>
  %w = call @init(%ew, %c5, %c2, %c3, %c7)
      : (tensor<?x?x?x?xf32>, index, index, index, index) -> tensor<?x?x?x?xf32>
  %xs = tensor.cast %x : tensor<?x?x?x?xf32> to tensor<5x4x13x29xf32>
  %ws = tensor.cast %w : tensor<?x?x?x?xf32> to tensor<6x4x10x14xf32>
  %o0 = arith.constant 5 : index
  %o1 = arith.constant 6 : index
  %eo = tensor.empty(%o0, %o1, %c2, %c3) : tensor<?x?x?x?xf32>
  %acc = call @init(%eo, %c3, %c7, %c2, %c5)
      : (tensor<?x?x?x?xf32>, index, index, index, index) -> tensor<?x?x?x?xf32>
  %accs = tensor.cast %acc : tensor<?x?x?x?xf32> to tensor<5x6x2x3xf32>
  %r = call @conv(%xs, %ws, %accs)
      : (tensor<5x4x13x29xf32>, tensor<6x4x10x14xf32>, tensor<5x6x2x3xf32>) -> tensor<5x6x2x3xf32>
  %u = tensor.cast %r : tensor<5x6x2x3xf32> to tensor<*xf32>
  call @printMemrefF32(%u) : (tensor<*xf32>) -> ()
  return
}
