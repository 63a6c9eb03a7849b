// The filter gradient's dY^T packed once from dY (graphc-cpu-direct-conv's
// "wgrad" class, lib/Pipelines/CpuFilterGradConv.cpp; docs/design/
// conv-codegen.md, "One re-layout of dY per filter gradient"): x [2, 8, 90,
// 90], a 3x3 convolution padded by 1, dY [2, 32, 90, 90]. The kernel's
// filter is dY^T [32, 2, 90, 90]; the rule's transpose of dY is not
// materialised: dY goes once to the packed [32/fb, 2, 90, 90, fb] (per
// block of fb output channels and image, [fb, 8100] transposed by fb x
// lanes register tiles, 506 whole tiles and one of 4 pixels at 16 lanes),
// and each chunk of the reduction (both images apart, each in two blocks
// of 45 filter rows: one image's 90 rows of packed dY are over the chunk
// budget, 1 MiB) reads a slice of it. Compared with NumPy
// (Inputs/reference.py filter_grad), at 16 and 8 lanes (fb 32 and 16).
// REQUIRES: libomp
// RUN: graph-opt %s --graphc-cpu-codegen=direct-conv=wgrad \
// RUN: | mlir-runner -e main -entry-point-result=void \
// RUN:   -shared-libs=%mlir_c_runner_utils,%mlir_runner_utils,%libomp > %t.out
// RUN: %numpy_python %S/Inputs/reference.py filter_grad 2,8,90,90,32,3,1,1 %t.out
// RUN: graph-opt %s --graphc-cpu-codegen="direct-conv=wgrad vector-width=8" \
// RUN: | mlir-runner -e main -entry-point-result=void \
// RUN:   -shared-libs=%mlir_c_runner_utils,%mlir_runner_utils,%libomp > %t.8
// RUN: %numpy_python %S/Inputs/reference.py filter_grad 2,8,90,90,32,3,1,1 %t.8
// RUN: graph-opt %s --graphc-cpu-direct-conv="vector-width=16 convs=wgrad" | FileCheck %s
// CHECK-LABEL: func.func @grad(
// dY^T is gone; dY is packed by one register-tiled pass.
// CHECK-NOT:   permutation = [1, 0, 2, 3]
// CHECK:       tensor.collapse_shape %{{.*}} {{\[}}[0], [1], [2, 3]] : tensor<2x32x90x90xf32> into tensor<2x32x8100xf32>
// CHECK:       scf.forall (%{{.*}}) in (1)
// CHECK:       scf.for %{{.*}} = %c0{{.*}} to %c2{{.*}} step %c1
// CHECK:       scf.for %{{.*}} = %c0{{.*}} to %c8096{{.*}} step %c16
// CHECK:       vector.transfer_read {{.*}} : tensor<2x32x8100xf32>, vector<32x16xf32>
// CHECK:       vector.transpose %{{.*}}, [1, 0] : vector<32x16xf32> to vector<16x32xf32>
// CHECK:       vector.transfer_write {{.*}} : vector<512xf32>, tensor<518400xf32>
// CHECK:       vector.transfer_read {{.*}} : tensor<2x32x8100xf32>, vector<32x4xf32>
// CHECK:       vector.transpose %{{.*}}, [1, 0] : vector<32x4xf32> to vector<4x32xf32>
// CHECK:       tensor.expand_shape {{.*}} into tensor<1x2x90x90x32xf32>
// The chunks: 2 images by 2 blocks of 45 filter rows, each kernel reading
// a slice of the packed dY.
// CHECK:       scf.for %{{.*}} = %c0{{.*}} to %c2{{.*}} step %c1
// CHECK:       scf.for %[[Y0:.*]] = %c0{{.*}} to %c90{{.*}} step %c45
// CHECK:       tensor.extract_slice %{{.*}}[0, %{{.*}}, %[[Y0]], 0, 0] [1, 1, 45, 90, 32] [1, 1, 1, 1, 1] : tensor<1x2x90x90x32xf32> to tensor<1x1x45x90x32xf32>
// CHECK-NOT:   linalg.transpose {{.*}}permutation = [0, 4, 1, 2, 3]
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

func.func @grad(%x: tensor<2x8x90x90xf32>, %dy: tensor<2x32x90x90xf32>) -> tensor<32x8x3x3xf32> {
  %zero = arith.constant 0.0 : f32
  %xe = tensor.expand_shape %x [[0], [1, 2], [3], [4]] output_shape [2, 1, 8, 90, 90]
      : tensor<2x8x90x90xf32> into tensor<2x1x8x90x90xf32>
  %e5 = tensor.empty() : tensor<8x1x2x90x90xf32>
  %xt = linalg.transpose ins(%xe : tensor<2x1x8x90x90xf32>)
      outs(%e5 : tensor<8x1x2x90x90xf32>) permutation = [2, 1, 0, 3, 4]
  %xp = tensor.pad %xt low[0, 0, 0, 1, 1] high[0, 0, 0, 1, 1] {
  ^bb0(%a: index, %b: index, %c: index, %d: index, %e: index):
    tensor.yield %zero : f32
  } : tensor<8x1x2x90x90xf32> to tensor<8x1x2x92x92xf32>
  %xc = tensor.collapse_shape %xp [[0], [1, 2], [3], [4]]
      : tensor<8x1x2x92x92xf32> into tensor<8x2x92x92xf32>
  %ed = tensor.empty() : tensor<32x2x90x90xf32>
  %dyt = linalg.transpose ins(%dy : tensor<2x32x90x90xf32>)
      outs(%ed : tensor<32x2x90x90xf32>) permutation = [1, 0, 2, 3]
  %ew = tensor.empty() : tensor<8x32x3x3xf32>
  %f = linalg.fill ins(%zero : f32) outs(%ew : tensor<8x32x3x3xf32>) -> tensor<8x32x3x3xf32>
  %g = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>,
                                 strides = dense<1> : tensor<2xi64>}
      ins(%xc, %dyt : tensor<8x2x92x92xf32>, tensor<32x2x90x90xf32>)
      outs(%f : tensor<8x32x3x3xf32>) -> tensor<8x32x3x3xf32>
  %ew2 = tensor.empty() : tensor<32x8x3x3xf32>
  %gt = linalg.transpose ins(%g : tensor<8x32x3x3xf32>)
      outs(%ew2 : tensor<32x8x3x3xf32>) permutation = [1, 0, 2, 3]
  return %gt : tensor<32x8x3x3xf32>
}

func.func private @printMemrefF32(tensor<*xf32>)

func.func @main() {
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c5 = arith.constant 5 : index
  %c7 = arith.constant 7 : index
  %c8 = arith.constant 8 : index
  %c32 = arith.constant 32 : index
  %c90 = arith.constant 90 : index
  %ex = tensor.empty(%c2, %c8, %c90, %c90) : tensor<?x?x?x?xf32>
  %x = call @init(%ex, %c7, %c3, %c5, %c2)
      : (tensor<?x?x?x?xf32>, index, index, index, index) -> tensor<?x?x?x?xf32>
  %ed = tensor.empty(%c2, %c32, %c90, %c90) : tensor<?x?x?x?xf32>
  %dy = call @init(%ed, %c5, %c2, %c3, %c7)
      : (tensor<?x?x?x?xf32>, index, index, index, index) -> tensor<?x?x?x?xf32>
  %xs = tensor.cast %x : tensor<?x?x?x?xf32> to tensor<2x8x90x90xf32>
  %dys = tensor.cast %dy : tensor<?x?x?x?xf32> to tensor<2x32x90x90xf32>
  %r = call @grad(%xs, %dys)
      : (tensor<2x8x90x90xf32>, tensor<2x32x90x90xf32>) -> tensor<32x8x3x3xf32>
  %u = tensor.cast %r : tensor<32x8x3x3xf32> to tensor<*xf32>
  call @printMemrefF32(%u) : (tensor<*xf32>) -> ()
  return
}
