// Numeric check of the im2col + GEMM rewrite on a 1x1 convolution at
// stride 1, which reads its input as the GEMM operand without a copy:
// batch 2, 8 -> 20 channels, 5x7 = 35 pixels (32 + 3 columns); compared
// with NumPy (Inputs/reference.py).
// REQUIRES: libomp
// RUN: graph-opt %s --graphc-cpu-codegen \
// RUN: | mlir-runner -e main -entry-point-result=void \
// RUN:   -shared-libs=%mlir_c_runner_utils,%mlir_runner_utils,%libomp > %t.out
// RUN: %numpy_python %S/Inputs/reference.py conv_nchw 2,8,5,7,20,1,1 %t.out
// RUN: graph-opt %s --pass-pipeline='builtin.module(func.func(graphc-cpu-tile-and-vectorize))' \
// RUN: | FileCheck %s
// CHECK-LABEL: func.func @conv
// CHECK-NOT:   linalg.conv_2d_nchw_fchw
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

func.func @conv(%x: tensor<2x8x5x7xf32>, %w: tensor<20x8x1x1xf32>) -> tensor<2x20x5x7xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2x20x5x7xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<2x20x5x7xf32>) -> tensor<2x20x5x7xf32>
  %r = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>,
                                 strides = dense<1> : tensor<2xi64>}
      ins(%x, %w : tensor<2x8x5x7xf32>, tensor<20x8x1x1xf32>)
      outs(%f : tensor<2x20x5x7xf32>) -> tensor<2x20x5x7xf32>
  return %r : tensor<2x20x5x7xf32>
}

func.func private @printMemrefF32(tensor<*xf32>)

func.func @main() {
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c5 = arith.constant 5 : index
  %c7 = arith.constant 7 : index
  %x0 = arith.constant 2 : index
  %x1 = arith.constant 8 : index
  %x2 = arith.constant 5 : index
  %x3 = arith.constant 7 : index
  %w0 = arith.constant 20 : index
  %w1 = arith.constant 8 : index
  %w2 = arith.constant 1 : index
  %w3 = arith.constant 1 : index
  %ex = tensor.empty(%x0, %x1, %x2, %x3) : tensor<?x?x?x?xf32>
  %x = call @init(%ex, %c7, %c3, %c5, %c2)
      : (tensor<?x?x?x?xf32>, index, index, index, index) -> tensor<?x?x?x?xf32>
  %ew = tensor.empty(%w0, %w1, %w2, %w3) : tensor<?x?x?x?xf32>
  %w = call @init(%ew, %c5, %c2, %c3, %c7)
      : (tensor<?x?x?x?xf32>, index, index, index, index) -> tensor<?x?x?x?xf32>
  %xs = tensor.cast %x : tensor<?x?x?x?xf32> to tensor<2x8x5x7xf32>
  %ws = tensor.cast %w : tensor<?x?x?x?xf32> to tensor<20x8x1x1xf32>
  %r = call @conv(%xs, %ws)
      : (tensor<2x8x5x7xf32>, tensor<20x8x1x1xf32>) -> tensor<2x20x5x7xf32>
  %u = tensor.cast %r : tensor<2x20x5x7xf32> to tensor<*xf32>
  call @printMemrefF32(%u) : (tensor<*xf32>) -> ()
  return
}
