// Numeric check of graphc-cpu-direct-conv's filter-gradient class ("wgrad",
// lib/Pipelines/CpuFilterGradConv.cpp; docs/design/conv-codegen.md, "Filter
// gradients on the direct kernel"): a convolution with more filter taps
// (64x80) than output pixels (3x3), the shape of graph-autodiff's filter
// gradient (20 images: the forward input channels; 2 input channels: the
// forward batch; dilations [2, 1]: a forward stride of 2 along H). Its
// images go into the output columns (3 * 20 = 60: tiles of 12), and its
// reduction is cut into 4 accumulating chunks, one channel and 32 filter
// rows each (a channel's 64*80*32 floats of re-laid-out filter and its
// input rows are over the chunk budget, 1 MiB);
// the init is not a fill, so it is transposed in and accumulated into.
// Compared with NumPy (Inputs/reference.py).
// REQUIRES: libomp
// RUN: graph-opt %s --graphc-cpu-codegen=direct-conv=wgrad \
// RUN: | mlir-runner -e main -entry-point-result=void \
// RUN:   -shared-libs=%mlir_c_runner_utils,%mlir_runner_utils,%libomp > %t.out
// RUN: %numpy_python %S/Inputs/reference.py conv_nchw_strided_acc 20,2,129,82,32,64,80,1,1,2,1 %t.out
// RUN: graph-opt %s --graphc-cpu-codegen="direct-conv=wgrad vector-width=8" \
// RUN: | mlir-runner -e main -entry-point-result=void \
// RUN:   -shared-libs=%mlir_c_runner_utils,%mlir_runner_utils,%libomp > %t.8
// RUN: %numpy_python %S/Inputs/reference.py conv_nchw_strided_acc 20,2,129,82,32,64,80,1,1,2,1 %t.8
// The form: the input [20, 2, 129, 82] transposed as [20, 2*129*82] to
// [2, 129, 82, 20] and viewed as [1, 2, 129, 1640], the init likewise to
// [1, 32, 3, 60] (2-D transposes: register tiles where whole vectors); a
// loop nest over the chunks (2 channels x 2 blocks of filter rows) around
// one direct kernel (the filter re-laid out per chunk), carrying the
// accumulator; the result transposed back. Other classes are
// not rewritten.
// RUN: graph-opt %s --graphc-cpu-direct-conv="vector-width=16 convs=wgrad" | FileCheck %s
// RUN: graph-opt %s --graphc-cpu-direct-conv="vector-width=16 convs=3x3,strided,other" | FileCheck %s --check-prefix=OTHER
// CHECK-LABEL: func.func @conv
// CHECK:       linalg.transpose ins(%{{.*}} : tensor<20x21156xf32>) outs(%{{.*}} : tensor<21156x20xf32>) permutation = [1, 0]
// CHECK:       tensor.expand_shape {{.*}} : tensor<423120xf32> into tensor<1x2x129x1640xf32>
// CHECK:       linalg.transpose ins(%{{.*}} : tensor<20x288xf32>) outs(%{{.*}} : tensor<288x20xf32>) permutation = [1, 0]
// CHECK:       scf.for %[[C:.*]] = %c0{{.*}} to %c2{{.*}} step %c1{{.*}} iter_args
// CHECK:       scf.for %[[Y:.*]] = %c0{{.*}} to %c64{{.*}} step %c32{{.*}} iter_args
// CHECK:       tensor.extract_slice %{{.*}}[0, %[[C]], %{{.*}}, 0] [1, 1, 65, 1640] [1, 1, 1, 1]
// CHECK:       tensor.extract_slice %{{.*}}[%{{.*}}, %[[C]], %[[Y]], %{{.*}}] [32, 1, 32, 80] [1, 1, 1, 1]
// CHECK:       scf.forall (%{{.*}}, %{{.*}}, %{{.*}}) in (1, 3, 1)
// CHECK-NOT:   scf.forall (%{{.*}}, %{{.*}}, %{{.*}}) in (1, 3, 1)
// CHECK:       linalg.transpose ins(%{{.*}} : tensor<288x20xf32>) outs(%{{.*}} : tensor<20x288xf32>) permutation = [1, 0]
// CHECK-NOT:   linalg.conv_2d_nchw_fchw
// CHECK-LABEL: func.func @main
// OTHER-LABEL: func.func @conv
// OTHER:       linalg.conv_2d_nchw_fchw
// OTHER-LABEL: func.func @main

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

func.func @conv(%x: tensor<20x2x129x82xf32>, %w: tensor<32x2x64x80xf32>, %f: tensor<20x32x3x3xf32>) -> tensor<20x32x3x3xf32> {
  %r = linalg.conv_2d_nchw_fchw {dilations = dense<[2, 1]> : tensor<2xi64>,
                                 strides = dense<[1, 1]> : tensor<2xi64>}
      ins(%x, %w : tensor<20x2x129x82xf32>, tensor<32x2x64x80xf32>)
      outs(%f : tensor<20x32x3x3xf32>) -> tensor<20x32x3x3xf32>
  return %r : tensor<20x32x3x3xf32>
}

func.func private @printMemrefF32(tensor<*xf32>)

func.func @main() {
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c5 = arith.constant 5 : index
  %c7 = arith.constant 7 : index
  %x0 = arith.constant 20 : index
  %x1 = arith.constant 2 : index
  %x2 = arith.constant 129 : index
  %x3 = arith.constant 82 : index
  %w0 = arith.constant 32 : index
  %w1 = arith.constant 2 : index
  %w2 = arith.constant 64 : index
  %w3 = arith.constant 80 : index
  %ex = tensor.empty(%x0, %x1, %x2, %x3) : tensor<?x?x?x?xf32>
  %x = call @init(%ex, %c7, %c3, %c5, %c2)
      : (tensor<?x?x?x?xf32>, index, index, index, index) -> tensor<?x?x?x?xf32>
  %ew = tensor.empty(%w0, %w1, %w2, %w3) : tensor<?x?x?x?xf32>
  %w = call @init(%ew, %c5, %c2, %c3, %c7)
      : (tensor<?x?x?x?xf32>, index, index, index, index) -> tensor<?x?x?x?xf32>
  %xs = tensor.cast %x : tensor<?x?x?x?xf32> to tensor<20x2x129x82xf32>
  %ws = tensor.cast %w : tensor<?x?x?x?xf32> to tensor<32x2x64x80xf32>
  %eo = tensor.empty(%x0, %w0, %c3, %c3) : tensor<?x?x?x?xf32>
  %acc = call @init(%eo, %c3, %c7, %c2, %c5)
      : (tensor<?x?x?x?xf32>, index, index, index, index) -> tensor<?x?x?x?xf32>
  %accs = tensor.cast %acc : tensor<?x?x?x?xf32> to tensor<20x32x3x3xf32>
  %r = call @conv(%xs, %ws, %accs)
      : (tensor<20x2x129x82xf32>, tensor<32x2x64x80xf32>, tensor<20x32x3x3xf32>) -> tensor<20x32x3x3xf32>
  %u = tensor.cast %r : tensor<20x32x3x3xf32> to tensor<*xf32>
  call @printMemrefF32(%u) : (tensor<*xf32>) -> ()
  return
}
