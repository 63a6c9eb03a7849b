// Sums (and maxima, minima) over contiguous innermost elements keep lane
// partial results
// (CpuInnerDims.cpp): batch norm's per-channel sum over N, H, W of an NCHW
// tensor reads H*W = 49 elements per (n, c) as 3 vectors of 16 added into a
// [C, 16] accumulator (no horizontal reduction in the loop), the 49th
// element as a tail into the op's own init, then one horizontal sum per
// channel. Other reductions (products, too few elements, outer dimensions)
// keep the leaf strategy.
// RUN: graph-opt %s --split-input-file \
// RUN:   --pass-pipeline='builtin.module(func.func(graphc-cpu-tile-and-vectorize{vector-width=16 parallel=0}),canonicalize,cse)' \
// RUN: | FileCheck %s

// CHECK-LABEL: func.func @bn_sum
// CHECK-DAG:     %[[ZERO:.*]] = arith.constant dense<0.000000e+00> : vector<1x16xf32>
// CHECK:         %[[COL:.*]] = tensor.collapse_shape %arg0 {{\[}}[0], [1], [2, 3]] : tensor<8x64x7x7xf32> into tensor<8x64x49xf32>
// CHECK:         %[[MAIN:.*]] = tensor.extract_slice %[[COL]][0, 0, 0] [8, 64, 48] [1, 1, 1]
// CHECK:         %[[LANES:.*]] = tensor.expand_shape %[[MAIN]] {{\[}}[0], [1], [2, 3]] output_shape [8, 64, 3, 16]
// The [64, 16] accumulator starts at zero.
// CHECK:         scf.for
// CHECK:           vector.transfer_write %[[ZERO]], {{.*}} : vector<1x16xf32>, tensor<1x16xf32>
// Channels outermost, then images, then the vectors of a channel's plane.
// CHECK:         %[[PARTIAL:.*]] = scf.for %[[C:.*]] = %c0 to %c64 step %c1 iter_args({{.*}}) -> (tensor<64x16xf32>)
// CHECK:           scf.for %[[N:.*]] = %c0 to %c8 step %c1
// CHECK:             scf.for %[[Q:.*]] = %c0 to %c3 step %c1
// CHECK:               tensor.extract_slice %[[LANES]][%[[N]], %[[C]], %[[Q]], 0] [1, 1, 1, 16]
// CHECK:               %[[X:.*]] = vector.shape_cast {{.*}} : vector<1x1x1x16xf32> to vector<1x16xf32>
// CHECK-NOT:           vector.multi_reduction
// CHECK:               arith.addf {{.*}} : vector<1x16xf32>
// The tail: element 48 of each plane, into the fill of the original init.
// CHECK:         tensor.extract_slice %{{.*}}[0, 0, 48] [8, 64, 1] [1, 1, 1] : tensor<8x64x49xf32> to tensor<8x64x1xf32>
// CHECK:         %[[TAIL:.*]] = scf.for {{.*}} -> (tensor<64xf32>)
// CHECK:         scf.for {{.*}} iter_args(%{{.*}} = %[[TAIL]]) -> (tensor<64xf32>)
// CHECK:           tensor.extract_slice %[[PARTIAL]]
// CHECK:           vector.multi_reduction <add>, {{.*}} [1] : vector<1x16xf32> to vector<1xf32>
#id4 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#out = affine_map<(d0, d1, d2, d3) -> (d1)>
func.func @bn_sum(%x: tensor<8x64x7x7xf32>) -> tensor<64xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<64xf32>
  %i = linalg.fill ins(%zero : f32) outs(%e : tensor<64xf32>) -> tensor<64xf32>
  %s = linalg.reduce ins(%x : tensor<8x64x7x7xf32>) outs(%i : tensor<64xf32>) dimensions = [0, 2, 3]
    (%in: f32, %init: f32) {
      %r = arith.addf %in, %init : f32
      linalg.yield %r : f32
    }
  return %s : tensor<64xf32>
}

// -----

// A whole number of vectors (H*W = 64): no tail; the per-channel operand
// (read through a broadcast map) keeps its map.
// CHECK-LABEL: func.func @fused_no_tail
// CHECK:         tensor.expand_shape %{{.*}} {{\[}}[0], [1], [2, 3]] output_shape [2, 4, 4, 16]
// CHECK:         arith.subf {{.*}} : vector<1x1x1x16xf32>
// CHECK:         arith.mulf {{.*}} : vector<1x1x1x16xf32>
// CHECK:         arith.addf {{.*}} : vector<1x16xf32>
// CHECK-NOT:     tensor<2x4x0xf32>
// CHECK:         vector.multi_reduction <add>, {{.*}} [1] : vector<1x16xf32> to vector<1xf32>
#id4 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#chan = affine_map<(d0, d1, d2, d3) -> (0, d1, 0, 0)>
#out = affine_map<(d0, d1, d2, d3) -> (d1)>
func.func @fused_no_tail(%x: tensor<2x4x8x8xf32>, %y: tensor<2x4x8x8xf32>,
                         %b: tensor<1x4x1x1xf32>) -> tensor<4xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4xf32>
  %i = linalg.fill ins(%zero : f32) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  %s = linalg.generic {indexing_maps = [#id4, #id4, #chan, #out],
                       iterator_types = ["reduction", "parallel", "reduction", "reduction"]}
      ins(%x, %y, %b : tensor<2x4x8x8xf32>, tensor<2x4x8x8xf32>, tensor<1x4x1x1xf32>)
      outs(%i : tensor<4xf32>) {
  ^bb0(%a: f32, %g: f32, %m: f32, %acc: f32):
    %c = arith.subf %a, %m : f32
    %p = arith.mulf %c, %g : f32
    %r = arith.addf %p, %acc : f32
    linalg.yield %r : f32
  } -> tensor<4xf32>
  return %s : tensor<4xf32>
}

// -----

// A maximum (a softmax row's) splits the same way: partials start at -inf,
// and a maximum, not a sum, combines them; the tail (elements 32-36) goes
// into the op's own init. A minnumf starts at +inf. Both are exact in any
// order (NaN propagates, -0 < +0), so the result is the serial one's.
// CHECK-LABEL: func.func @row_max
// CHECK-DAG:     %[[NINF:.*]] = arith.constant dense<0xFF800000> : vector<1x16xf32>
// CHECK-DAG:     %[[PINF:.*]] = arith.constant dense<0x7F800000> : vector<1x16xf32>
// CHECK:         tensor.expand_shape %{{.*}} {{\[}}[0], [1, 2]] output_shape [4, 2, 16]
// CHECK:         vector.transfer_write %[[NINF]]
// CHECK:         scf.for
// CHECK:           scf.for
// CHECK-NOT:         vector.multi_reduction
// CHECK:             arith.maximumf {{.*}} : vector<1x16xf32>
// CHECK:         tensor.extract_slice %arg0[0, 32] [4, 5] [1, 1]
// CHECK:         vector.multi_reduction <maximumf>, {{.*}} [1] : vector<1x5xf32> to vector<1xf32>
// CHECK:         vector.multi_reduction <maximumf>, {{.*}} [1] : vector<1x16xf32> to vector<1xf32>
// CHECK:         vector.transfer_write %[[PINF]]
// CHECK:         arith.minnumf {{.*}} : vector<1x16xf32>
// CHECK:         vector.multi_reduction <minnumf>, {{.*}} [1] : vector<1x16xf32> to vector<1xf32>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
#rows = affine_map<(d0, d1) -> (d0)>
func.func @row_max(%x: tensor<4x37xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
  %ninf = arith.constant 0xFF800000 : f32
  %e = tensor.empty() : tensor<4xf32>
  %i = linalg.fill ins(%ninf : f32) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  %m = linalg.generic {indexing_maps = [#id2, #rows],
                       iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<4x37xf32>) outs(%i : tensor<4xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %r = arith.maximumf %a, %acc : f32
    linalg.yield %r : f32
  } -> tensor<4xf32>
  %n = linalg.generic {indexing_maps = [#id2, #rows],
                       iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<4x37xf32>) outs(%i : tensor<4xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %r = arith.minnumf %acc, %a : f32
    linalg.yield %r : f32
  } -> tensor<4xf32>
  return %m, %n : tensor<4xf32>, tensor<4xf32>
}

// -----

// Left alone: a product (not a sum, maximum or minimum), a sum over fewer
// than 2 vectors, and a sum over the outer dimension (its elements are not
// contiguous).
// CHECK-LABEL: func.func @left_alone
// CHECK-NOT:     tensor.expand_shape
// CHECK-NOT:     tensor<4x16xf32>
// CHECK:         vector.multi_reduction <mul>, {{.*}} [1] : vector<1x16xf32> to vector<1xf32>
// CHECK-NOT:     tensor.expand_shape
// CHECK-NOT:     tensor<4x16xf32>
// CHECK:         return
#id2 = affine_map<(d0, d1) -> (d0, d1)>
#rows = affine_map<(d0, d1) -> (d0)>
#cols = affine_map<(d0, d1) -> (d1)>
func.func @left_alone(%x: tensor<4x64xf32>, %y: tensor<4x31xf32>,
                      %z: tensor<64x4xf32>) -> (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4xf32>
  %i = linalg.fill ins(%zero : f32) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  %m = linalg.generic {indexing_maps = [#id2, #rows], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<4x64xf32>) outs(%i : tensor<4xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %r = arith.mulf %a, %acc : f32
    linalg.yield %r : f32
  } -> tensor<4xf32>
  %s = linalg.generic {indexing_maps = [#id2, #rows], iterator_types = ["parallel", "reduction"]}
      ins(%y : tensor<4x31xf32>) outs(%i : tensor<4xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %r = arith.addf %a, %acc : f32
    linalg.yield %r : f32
  } -> tensor<4xf32>
  %t = linalg.generic {indexing_maps = [#id2, #cols], iterator_types = ["reduction", "parallel"]}
      ins(%z : tensor<64x4xf32>) outs(%i : tensor<4xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %r = arith.addf %a, %acc : f32
    linalg.yield %r : f32
  } -> tensor<4xf32>
  return %m, %s, %t : tensor<4xf32>, tensor<4xf32>, tensor<4xf32>
}
