// A stride-1 data gradient as ConvTransposeLowering builds it: dY [2, 32, 8, 8]
// padded by 1, convolved by the forward filter w [32, 16, 3, 3] flipped in
// space with its channel dimensions swapped (a gather generic through the
// [1, O, C, 3, 3] group view). graphc-cpu-direct-conv re-lays out w straight
// into its kernel's [C/fb, O, 3, 3, fb] layout (prepackFlippedFilter,
// lib/Pipelines/CpuFilterGradConv.cpp; docs/design/conv-codegen.md, "Fewer
// transposes around the filter-gradient kernel"): per block and forward
// output channel, a [fb, 9] block of w read as one vector, transposed in
// registers, its rows reversed; the scalar gather and the kernel's own
// re-layout of its result are gone. Compared with NumPy
// (Inputs/reference.py data_grad), at 16 and 8 lanes.
// REQUIRES: libomp
// RUN: graph-opt %s --graphc-cpu-codegen=direct-conv=3x3 \
// RUN: | mlir-runner -e main -entry-point-result=void \
// RUN:   -shared-libs=%mlir_c_runner_utils,%mlir_runner_utils,%libomp > %t.out
// RUN: %numpy_python %S/Inputs/reference.py data_grad 2,32,8,8,16,3 %t.out
// RUN: graph-opt %s --graphc-cpu-codegen="direct-conv=3x3 vector-width=8" \
// RUN: | mlir-runner -e main -entry-point-result=void \
// RUN:   -shared-libs=%mlir_c_runner_utils,%mlir_runner_utils,%libomp > %t.8
// RUN: %numpy_python %S/Inputs/reference.py data_grad 2,32,8,8,16,3 %t.8
// RUN: graph-opt %s --graphc-cpu-direct-conv="vector-width=16 convs=3x3" | FileCheck %s
// CHECK-LABEL: func.func @dgrad(
// CHECK-NOT:   tensor.extract %
// CHECK:       tensor.collapse_shape %{{.*}} {{\[}}[0, 1], [2, 3, 4]] : tensor<1x32x16x3x3xf32> into tensor<32x144xf32>
// CHECK:       scf.forall (%[[B:.*]]) in (1)
// CHECK:       scf.for %[[O:.*]] = %c0{{.*}} to %c32{{.*}} step %c1
// CHECK:       vector.transfer_read %{{.*}}[%[[O]], %{{.*}}], %{{.*}} : tensor<32x144xf32>, vector<144xf32>
// CHECK:       vector.shape_cast %{{.*}} : vector<144xf32> to vector<16x9xf32>
// CHECK:       vector.transpose %{{.*}}, [1, 0] : vector<16x9xf32> to vector<9x16xf32>
// CHECK:       vector.shuffle %{{.*}}, %{{.*}} [8, 7, 6, 5, 4, 3, 2, 1, 0] : vector<9x16xf32>, vector<9x16xf32>
// CHECK:       tensor.collapse_shape %{{.*}} : tensor<1x32x3x3x16xf32> into tensor<1x288x16xf32>
// CHECK-NOT:   linalg.transpose
// CHECK-NOT:   linalg.generic
// CHECK-NOT:   linalg.conv_2d_nchw_fchw
// CHECK-LABEL: func.func @main

#id4 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#id5 = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3, d4)>

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

func.func @dgrad(%dy: tensor<2x32x8x8xf32>, %w: tensor<32x16x3x3xf32>) -> tensor<2x16x8x8xf32> {
  %zero = arith.constant 0.0 : f32
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %split = tensor.expand_shape %w [[0, 1], [2], [3], [4]] output_shape [1, 32, 16, 3, 3]
      : tensor<32x16x3x3xf32> into tensor<1x32x16x3x3xf32>
  %e5 = tensor.empty() : tensor<1x16x32x3x3xf32>
  %flipped = linalg.generic {indexing_maps = [#id5],
                             iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel"]}
      outs(%e5 : tensor<1x16x32x3x3xf32>) {
  ^bb0(%out: f32):
    %o = linalg.index 2 : index
    %c = linalg.index 1 : index
    %i = linalg.index 3 : index
    %ri = arith.subi %c2, %i : index
    %j = linalg.index 4 : index
    %rj = arith.subi %c2, %j : index
    %v = tensor.extract %split[%c0, %o, %c, %ri, %rj] : tensor<1x32x16x3x3xf32>
    linalg.yield %v : f32
  } -> tensor<1x16x32x3x3xf32>
  %filter = tensor.collapse_shape %flipped [[0, 1], [2], [3], [4]]
      : tensor<1x16x32x3x3xf32> into tensor<16x32x3x3xf32>
  %dyp = tensor.pad %dy low[0, 0, 1, 1] high[0, 0, 1, 1] {
  ^bb0(%a: index, %b: index, %cc: index, %d: index):
    tensor.yield %zero : f32
  } : tensor<2x32x8x8xf32> to tensor<2x32x10x10xf32>
  %eo = tensor.empty() : tensor<2x16x8x8xf32>
  %f = linalg.fill ins(%zero : f32) outs(%eo : tensor<2x16x8x8xf32>) -> tensor<2x16x8x8xf32>
  %r = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>,
                                 strides = dense<1> : tensor<2xi64>}
      ins(%dyp, %filter : tensor<2x32x10x10xf32>, tensor<16x32x3x3xf32>)
      outs(%f : tensor<2x16x8x8xf32>) -> tensor<2x16x8x8xf32>
  return %r : tensor<2x16x8x8xf32>
}

func.func private @printMemrefF32(tensor<*xf32>)

func.func @main() {
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c5 = arith.constant 5 : index
  %c7 = arith.constant 7 : index
  %c8 = arith.constant 8 : index
  %c16 = arith.constant 16 : index
  %c32 = arith.constant 32 : index
  %ed = tensor.empty(%c2, %c32, %c8, %c8) : tensor<?x?x?x?xf32>
  %dy = call @init(%ed, %c7, %c3, %c5, %c2)
      : (tensor<?x?x?x?xf32>, index, index, index, index) -> tensor<?x?x?x?xf32>
  %ew = tensor.empty(%c32, %c16, %c3, %c3) : tensor<?x?x?x?xf32>
  %w = call @init(%ew, %c5, %c2, %c3, %c7)
      : (tensor<?x?x?x?xf32>, index, index, index, index) -> tensor<?x?x?x?xf32>
  %dys = tensor.cast %dy : tensor<?x?x?x?xf32> to tensor<2x32x8x8xf32>
  %ws = tensor.cast %w : tensor<?x?x?x?xf32> to tensor<32x16x3x3xf32>
  %r = call @dgrad(%dys, %ws)
      : (tensor<2x32x8x8xf32>, tensor<32x16x3x3xf32>) -> tensor<2x16x8x8xf32>
  %u = tensor.cast %r : tensor<2x16x8x8xf32> to tensor<*xf32>
  call @printMemrefF32(%u) : (tensor<*xf32>) -> ()
  return
}
