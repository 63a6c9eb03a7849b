// Numeric check of the CPU pipeline on linalg.conv_2d_nchw_fchw, compared
// with NumPy (Inputs/reference.py): by default as im2col + GEMM
// (docs/design/conv-codegen.md), and with conv-gemm=false on the direct path
// (tiled over batch and output channels, scalar loops inside), which
// convolutions above the im2col size limit keep.
// REQUIRES: libomp
// RUN: graph-opt %s --graphc-cpu-codegen \
// RUN: | mlir-runner -e main -entry-point-result=void \
// RUN:   -shared-libs=%mlir_c_runner_utils,%mlir_runner_utils,%libomp > %t.out
// RUN: %numpy_python %S/Inputs/reference.py conv_nchw 2,3,10,21,5,3,2 %t.out
// RUN: graph-opt %s --graphc-cpu-codegen=conv-gemm=false \
// RUN: | mlir-runner -e main -entry-point-result=void \
// RUN:   -shared-libs=%mlir_c_runner_utils,%mlir_runner_utils,%libomp > %t.direct
// RUN: %numpy_python %S/Inputs/reference.py conv_nchw 2,3,10,21,5,3,2 %t.direct

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

func.func @conv(%x: tensor<2x3x10x21xf32>, %w: tensor<5x3x3x2xf32>) -> tensor<2x5x8x20xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2x5x8x20xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<2x5x8x20xf32>) -> tensor<2x5x8x20xf32>
  %r = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>,
                                 strides = dense<1> : tensor<2xi64>}
      ins(%x, %w : tensor<2x3x10x21xf32>, tensor<5x3x3x2xf32>)
      outs(%f : tensor<2x5x8x20xf32>) -> tensor<2x5x8x20xf32>
  return %r : tensor<2x5x8x20xf32>
}

func.func private @printMemrefF32(tensor<*xf32>)

func.func @main() {
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c5 = arith.constant 5 : index
  %c7 = arith.constant 7 : index
  %c10 = arith.constant 10 : index
  %c21 = arith.constant 21 : index
  %ex = tensor.empty(%c2, %c3, %c10, %c21) : tensor<?x?x?x?xf32>
  %x = call @init(%ex, %c7, %c3, %c5, %c2)
      : (tensor<?x?x?x?xf32>, index, index, index, index) -> tensor<?x?x?x?xf32>
  %ew = tensor.empty(%c5, %c3, %c3, %c2) : tensor<?x?x?x?xf32>
  %w = call @init(%ew, %c5, %c2, %c3, %c7)
      : (tensor<?x?x?x?xf32>, index, index, index, index) -> tensor<?x?x?x?xf32>
  %xs = tensor.cast %x : tensor<?x?x?x?xf32> to tensor<2x3x10x21xf32>
  %ws = tensor.cast %w : tensor<?x?x?x?xf32> to tensor<5x3x3x2xf32>
  %r = call @conv(%xs, %ws)
      : (tensor<2x3x10x21xf32>, tensor<5x3x3x2xf32>) -> tensor<2x5x8x20xf32>
  %u = tensor.cast %r : tensor<2x5x8x20xf32> to tensor<*xf32>
  call @printMemrefF32(%u) : (tensor<*xf32>) -> ()
  return
}
