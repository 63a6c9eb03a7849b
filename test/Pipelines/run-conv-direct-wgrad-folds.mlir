// The filter gradient as graph-autodiff's rule builds it, through
// graphc-cpu-direct-conv's "wgrad" class (lib/Pipelines/CpuFilterGradConv.cpp;
// docs/design/conv-codegen.md, "Fewer transposes around the filter-gradient
// kernel"): x [8, 32, 10, 10] transposed to x^T (the grouped form: through
// [8, 1, 32, 10, 10], the unit group dimension collapsed again), padded by 1,
// convolved by dY^T [32, 8, 10, 10], and the [C, O, 3, 3] result transposed
// to the filter's [O, C, 3, 3]. The kernel's input re-layout [N, H, W, C] is
// then one transpose of x (per image, [C, H*W] -> [H*W, C]) instead of a
// transpose of x^T, and its [O, KH*KW, C] output goes to [O, C, KH, KW] in
// one register-tiled transpose instead of two. Compared with NumPy
// (Inputs/reference.py filter_grad), at 16 and 8 lanes.
// REQUIRES: libomp
// RUN: graph-opt %s --graphc-cpu-codegen=direct-conv=wgrad \
// RUN: | mlir-runner -e main -entry-point-result=void \
// RUN:   -shared-libs=%mlir_c_runner_utils,%mlir_runner_utils,%libomp > %t.out
// RUN: %numpy_python %S/Inputs/reference.py filter_grad 8,32,10,10,32,3,1,1 %t.out
// RUN: graph-opt %s --graphc-cpu-codegen="direct-conv=wgrad vector-width=8" \
// RUN: | mlir-runner -e main -entry-point-result=void \
// RUN:   -shared-libs=%mlir_c_runner_utils,%mlir_runner_utils,%libomp > %t.8
// RUN: %numpy_python %S/Inputs/reference.py filter_grad 8,32,10,10,32,3,1,1 %t.8
// RUN: graph-opt %s --graphc-cpu-direct-conv="vector-width=16 convs=wgrad" | FileCheck %s
// CHECK-LABEL: func.func @grad(
// x padded as the rule padded x^T, then one transpose of its last two
// dimensions; x^T and its pad are gone.
// CHECK-NOT:   permutation = [2, 1, 0, 3, 4]
// CHECK:       tensor.pad %{{.*}} low[0, 0, 1, 1] high[0, 0, 1, 1]
// CHECK:       : tensor<8x32x10x10xf32> to tensor<8x32x12x12xf32>
// CHECK:       linalg.transpose ins(%{{.*}} : tensor<8x32x144xf32>) outs(%{{.*}} : tensor<8x144x32xf32>) permutation = [0, 2, 1]
// CHECK:       tensor.expand_shape {{.*}} into tensor<1x8x12x384xf32>
// The output: per output channel, 9 x 16 blocks transposed in registers into
// the [O, C*9] rows; neither [C, O, 3, 3] transpose is left.
// CHECK:       scf.forall (%[[O:.*]]) in (32)
// CHECK:       scf.for %[[C0:.*]] = %c0{{.*}} to %c32{{.*}} step %c16
// CHECK:       vector.transfer_read %{{.*}}[%[[O]], %c0{{.*}}, %[[C0]]]{{.*}} : tensor<32x9x32xf32>, vector<9x16xf32>
// CHECK:       vector.transpose %{{.*}}, [1, 0] : vector<9x16xf32> to vector<16x9xf32>
// CHECK:       vector.shape_cast %{{.*}} : vector<16x9xf32> to vector<144xf32>
// CHECK:       vector.transfer_write
// CHECK:       tensor.expand_shape {{.*}} into tensor<32x32x3x3xf32>
// CHECK-NOT:   linalg.transpose
// CHECK-NOT:   linalg.conv_2d_nchw_fchw
// CHECK-LABEL: func.func @grad1x1(
// A 1x1 filter (stride 2: x cut to the 9 rows read, dilation 2): x is not
// padded, and [O, 1, C] is [O, C, 1, 1] with no transpose at all.
// CHECK:       linalg.transpose ins(%{{.*}} : tensor<8x32x81xf32>) outs(%{{.*}} : tensor<8x81x32xf32>) permutation = [0, 2, 1]
// CHECK-NOT:   linalg.transpose
// CHECK-NOT:   vector<1x16xf32>
// CHECK:       tensor.expand_shape {{.*}} into tensor<16x32x1x1xf32>
// CHECK-NOT:   linalg.transpose
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

func.func @grad(%x: tensor<8x32x10x10xf32>, %dy: tensor<8x32x10x10xf32>) -> tensor<32x32x3x3xf32> {
  %zero = arith.constant 0.0 : f32
  %xe = tensor.expand_shape %x [[0], [1, 2], [3], [4]] output_shape [8, 1, 32, 10, 10]
      : tensor<8x32x10x10xf32> into tensor<8x1x32x10x10xf32>
  %e5 = tensor.empty() : tensor<32x1x8x10x10xf32>
  %xt = linalg.transpose ins(%xe : tensor<8x1x32x10x10xf32>)
      outs(%e5 : tensor<32x1x8x10x10xf32>) permutation = [2, 1, 0, 3, 4]
  %xp = tensor.pad %xt low[0, 0, 0, 1, 1] high[0, 0, 0, 1, 1] {
  ^bb0(%a: index, %b: index, %c: index, %d: index, %e: index):
    tensor.yield %zero : f32
  } : tensor<32x1x8x10x10xf32> to tensor<32x1x8x12x12xf32>
  %xc = tensor.collapse_shape %xp [[0], [1, 2], [3], [4]]
      : tensor<32x1x8x12x12xf32> into tensor<32x8x12x12xf32>
  %ed = tensor.empty() : tensor<32x8x10x10xf32>
  %dyt = linalg.transpose ins(%dy : tensor<8x32x10x10xf32>)
      outs(%ed : tensor<32x8x10x10xf32>) permutation = [1, 0, 2, 3]
  %ew = tensor.empty() : tensor<32x32x3x3xf32>
  %f = linalg.fill ins(%zero : f32) outs(%ew : tensor<32x32x3x3xf32>) -> tensor<32x32x3x3xf32>
  %g = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>,
                                 strides = dense<1> : tensor<2xi64>}
      ins(%xc, %dyt : tensor<32x8x12x12xf32>, tensor<32x8x10x10xf32>)
      outs(%f : tensor<32x32x3x3xf32>) -> tensor<32x32x3x3xf32>
  %ew2 = tensor.empty() : tensor<32x32x3x3xf32>
  %gt = linalg.transpose ins(%g : tensor<32x32x3x3xf32>)
      outs(%ew2 : tensor<32x32x3x3xf32>) permutation = [1, 0, 2, 3]
  return %gt : tensor<32x32x3x3xf32>
}

func.func @grad1x1(%x: tensor<8x32x9x9xf32>, %dy: tensor<8x16x5x5xf32>) -> tensor<16x32x1x1xf32> {
  %zero = arith.constant 0.0 : f32
  %e4 = tensor.empty() : tensor<32x8x9x9xf32>
  %xt = linalg.transpose ins(%x : tensor<8x32x9x9xf32>)
      outs(%e4 : tensor<32x8x9x9xf32>) permutation = [1, 0, 2, 3]
  %ed = tensor.empty() : tensor<16x8x5x5xf32>
  %dyt = linalg.transpose ins(%dy : tensor<8x16x5x5xf32>)
      outs(%ed : tensor<16x8x5x5xf32>) permutation = [1, 0, 2, 3]
  %ew = tensor.empty() : tensor<32x16x1x1xf32>
  %f = linalg.fill ins(%zero : f32) outs(%ew : tensor<32x16x1x1xf32>) -> tensor<32x16x1x1xf32>
  %g = linalg.conv_2d_nchw_fchw {dilations = dense<2> : tensor<2xi64>,
                                 strides = dense<1> : tensor<2xi64>}
      ins(%xt, %dyt : tensor<32x8x9x9xf32>, tensor<16x8x5x5xf32>)
      outs(%f : tensor<32x16x1x1xf32>) -> tensor<32x16x1x1xf32>
  %ew2 = tensor.empty() : tensor<16x32x1x1xf32>
  %gt = linalg.transpose ins(%g : tensor<32x16x1x1xf32>)
      outs(%ew2 : tensor<16x32x1x1xf32>) permutation = [1, 0, 2, 3]
  return %gt : tensor<16x32x1x1xf32>
}

func.func private @printMemrefF32(tensor<*xf32>)

func.func @main() {
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c5 = arith.constant 5 : index
  %c7 = arith.constant 7 : index
  %c8 = arith.constant 8 : index
  %c10 = arith.constant 10 : index
  %c32 = arith.constant 32 : index
  %ex = tensor.empty(%c8, %c32, %c10, %c10) : tensor<?x?x?x?xf32>
  %x = call @init(%ex, %c7, %c3, %c5, %c2)
      : (tensor<?x?x?x?xf32>, index, index, index, index) -> tensor<?x?x?x?xf32>
  %ed = tensor.empty(%c8, %c32, %c10, %c10) : tensor<?x?x?x?xf32>
  %dy = call @init(%ed, %c5, %c2, %c3, %c7)
      : (tensor<?x?x?x?xf32>, index, index, index, index) -> tensor<?x?x?x?xf32>
  %xs = tensor.cast %x : tensor<?x?x?x?xf32> to tensor<8x32x10x10xf32>
  %dys = tensor.cast %dy : tensor<?x?x?x?xf32> to tensor<8x32x10x10xf32>
  %r = call @grad(%xs, %dys)
      : (tensor<8x32x10x10xf32>, tensor<8x32x10x10xf32>) -> tensor<32x32x3x3xf32>
  %u = tensor.cast %r : tensor<32x32x3x3xf32> to tensor<*xf32>
  call @printMemrefF32(%u) : (tensor<*xf32>) -> ()
  return
}
