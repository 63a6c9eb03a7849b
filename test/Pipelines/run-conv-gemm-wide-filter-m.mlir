// Numeric check of wideFilterConvToGemm's second form (docs/design/
// conv-codegen.md, "Backward convolutions"): a convolution whose output
// (2x4 = 8 pixels) is smaller than its filter (182x182 taps) and whose
// filter is past 2 MiB (8x2x182x182 f32, 2.1 MB), as ResNet-18's large
// 3x3 filter gradients are, becomes im2col with the images and pixels in M
// ([3*2*4, 182*182] per channel, 2 chunks of one channel) times the filter
// transposed once ([C*T, O]), accumulated from a zero fill; strides [2, 1];
// compared with NumPy (Inputs/reference.py; integer-valued, exact in f32).
// REQUIRES: libomp
// RUN: graph-opt %s --graphc-cpu-codegen \
// RUN: | mlir-runner -e main -entry-point-result=void \
// RUN:   -shared-libs=%mlir_c_runner_utils,%mlir_runner_utils,%libomp > %t.out
// RUN: %numpy_python %S/Inputs/reference.py conv_nchw_strided 3,2,184,185,8,182,182,2,1,1,1 %t.out
// The rewrite happens: the filter transposed to [C, KH, KW, O], a loop over
// the channels of im2col [24, 33124] and a matmul into [24, 8].
// RUN: graph-opt %s --pass-pipeline='builtin.module(func.func(graphc-cpu-tile-and-vectorize))' \
// RUN: | FileCheck %s
// CHECK-LABEL: func.func @conv
// CHECK-NOT:   linalg.conv_2d_nchw_fchw
// CHECK:       tensor<2x182x182x8xf32>
// CHECK:       scf.for %{{.*}} = %c0 to %c2 step %c1 iter_args(%{{.*}} = %{{.*}}) -> (tensor<24x8xf32>)
// CHECK:       tensor.extract_slice %{{.*}}[0, %{{.*}}, 0, 0] [3, 1, 184, 185]
// CHECK:       tensor.extract_slice %{{.*}}[%{{.*}}, 0, 0, 0] [1, 182, 182, 8]
// CHECK:       vector.contract
// CHECK:       tensor.expand_shape %{{.*}} into tensor<3x8x8xf32>
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

func.func @conv(%x: tensor<3x2x184x185xf32>, %w: tensor<8x2x182x182xf32>) -> tensor<3x8x2x4xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<3x8x2x4xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<3x8x2x4xf32>) -> tensor<3x8x2x4xf32>
  %r = linalg.conv_2d_nchw_fchw {dilations = dense<[1, 1]> : tensor<2xi64>,
                                 strides = dense<[2, 1]> : tensor<2xi64>}
      ins(%x, %w : tensor<3x2x184x185xf32>, tensor<8x2x182x182xf32>)
      outs(%f : tensor<3x8x2x4xf32>) -> tensor<3x8x2x4xf32>
  return %r : tensor<3x8x2x4xf32>
}

func.func private @printMemrefF32(tensor<*xf32>)

func.func @main() {
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c5 = arith.constant 5 : index
  %c7 = arith.constant 7 : index
  %x0 = arith.constant 3 : index
  %x1 = arith.constant 2 : index
  %x2 = arith.constant 184 : index
  %x3 = arith.constant 185 : index
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
  %xs = tensor.cast %x : tensor<?x?x?x?xf32> to tensor<3x2x184x185xf32>
  %ws = tensor.cast %w : tensor<?x?x?x?xf32> to tensor<8x2x182x182xf32>
  %r = call @conv(%xs, %ws)
      : (tensor<3x2x184x185xf32>, tensor<8x2x182x182xf32>) -> tensor<3x8x2x4xf32>
  %u = tensor.cast %r : tensor<3x8x2x4xf32> to tensor<*xf32>
  call @printMemrefF32(%u) : (tensor<*xf32>) -> ()
  return
}
