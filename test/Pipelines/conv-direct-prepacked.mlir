// graphc-cpu-direct-conv on a filter that graphc-cpu-prepack-conv-filters
// stored packed: the collapse of a [0, 4, 1, 2, 3] transpose (named or as a
// generic) of a [F/fb, C, KH, KW, fb] tensor is read in place, collapsed to
// [F/fb, C*KH*KW, fb]; no re-layout runs. A block that is not the kernel's
// (16 against its 32 here) is re-laid out as any run-time filter. The
// numbers through graphc are checked against PyTorch by
// test/tools/graphc/prepack-conv-filters.test.
// RUN: graph-opt %s --graphc-cpu-direct-conv="vector-width=16" --canonicalize | FileCheck %s

// CHECK-LABEL: func.func @named
// CHECK-NOT:   linalg.transpose
// CHECK:       tensor.collapse_shape %arg1 {{\[}}[0], [1, 2, 3], [4]] : tensor<1x3x3x3x32xf32> into tensor<1x27x32xf32>
// CHECK-NOT:   linalg.transpose
// CHECK-NOT:   vector<32x16xf32>
// CHECK:       scf.forall (%{{.*}}) in (7)
// CHECK:       vector.fma
// CHECK-NOT:   linalg.conv_2d_nchw_fchw
// CHECK:       return
func.func @named(%x: tensor<1x3x9x18xf32>, %wp: tensor<1x3x3x3x32xf32>, %init: tensor<1x32x7x16xf32>) -> tensor<1x32x7x16xf32> {
  %e = tensor.empty() : tensor<1x32x3x3x3xf32>
  %t = linalg.transpose ins(%wp : tensor<1x3x3x3x32xf32>) outs(%e : tensor<1x32x3x3x3xf32>) permutation = [0, 4, 1, 2, 3]
  %w = tensor.collapse_shape %t [[0, 1], [2], [3], [4]] : tensor<1x32x3x3x3xf32> into tensor<32x3x3x3xf32>
  %y = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%x, %w : tensor<1x3x9x18xf32>, tensor<32x3x3x3xf32>) outs(%init : tensor<1x32x7x16xf32>) -> tensor<1x32x7x16xf32>
  return %y : tensor<1x32x7x16xf32>
}

// CHECK-LABEL: func.func @generic
// CHECK-NOT:   linalg.generic
// CHECK:       tensor.collapse_shape %arg1 {{\[}}[0], [1, 2, 3], [4]] : tensor<1x3x3x3x32xf32> into tensor<1x27x32xf32>
// CHECK-NOT:   linalg.generic
// CHECK-NOT:   vector<32x16xf32>
// CHECK:       scf.forall (%{{.*}}) in (7)
// CHECK:       return
#in = affine_map<(d0, d1, d2, d3, d4) -> (d0, d2, d3, d4, d1)>
#out = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3, d4)>
func.func @generic(%x: tensor<1x3x9x18xf32>, %wp: tensor<1x3x3x3x32xf32>, %init: tensor<1x32x7x16xf32>) -> tensor<1x32x7x16xf32> {
  %e = tensor.empty() : tensor<1x32x3x3x3xf32>
  %t = linalg.generic {indexing_maps = [#in, #out], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel"]}
      ins(%wp : tensor<1x3x3x3x32xf32>) outs(%e : tensor<1x32x3x3x3xf32>) {
  ^bb0(%a: f32, %b: f32):
    linalg.yield %a : f32
  } -> tensor<1x32x3x3x3xf32>
  %w = tensor.collapse_shape %t [[0, 1], [2], [3], [4]] : tensor<1x32x3x3x3xf32> into tensor<32x3x3x3xf32>
  %y = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%x, %w : tensor<1x3x9x18xf32>, tensor<32x3x3x3xf32>) outs(%init : tensor<1x32x7x16xf32>) -> tensor<1x32x7x16xf32>
  return %y : tensor<1x32x7x16xf32>
}

// Blocks of 16 where the kernel takes 32: the transpose stays and the
// filter is re-laid out at run time (16x16 register transposes).
// CHECK-LABEL: func.func @other_block
// CHECK:       linalg.transpose
// CHECK:       vector.transpose %{{.*}}, [1, 0] : vector<32x16xf32> to vector<16x32xf32>
// CHECK:       scf.forall (%{{.*}}) in (7)
// CHECK:       return
func.func @other_block(%x: tensor<1x3x9x18xf32>, %wp: tensor<2x3x3x3x16xf32>, %init: tensor<1x32x7x16xf32>) -> tensor<1x32x7x16xf32> {
  %e = tensor.empty() : tensor<2x16x3x3x3xf32>
  %t = linalg.transpose ins(%wp : tensor<2x3x3x3x16xf32>) outs(%e : tensor<2x16x3x3x3xf32>) permutation = [0, 4, 1, 2, 3]
  %w = tensor.collapse_shape %t [[0, 1], [2], [3], [4]] : tensor<2x16x3x3x3xf32> into tensor<32x3x3x3xf32>
  %y = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%x, %w : tensor<1x3x9x18xf32>, tensor<32x3x3x3xf32>) outs(%init : tensor<1x32x7x16xf32>) -> tensor<1x32x7x16xf32>
  return %y : tensor<1x32x7x16xf32>
}
