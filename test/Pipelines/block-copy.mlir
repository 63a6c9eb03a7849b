// Copies that move contiguous blocks (CpuInnerDims.cpp): a filter
// gradient's [C, O, KH, KW] -> [O, C, KH, KW] transpose reads and writes
// whole 3x3 blocks, so its innermost loops collapse into one of 9 elements
// and each block is copied as vectors of 8 and 1 (was vectors of KW = 3,
// which LLVM scalarised; a vector<9> came out of LLVM as scalar moves too).
// A transposing elementwise generic is collapsed the same way.
// RUN: graph-opt %s --split-input-file \
// RUN:   --pass-pipeline='builtin.module(func.func(graphc-cpu-tile-and-vectorize{vector-width=16 parallel=0}),canonicalize,cse)' \
// RUN: | FileCheck %s

// CHECK-LABEL: func.func @filter_transpose
// CHECK:         %[[IN:.*]] = tensor.collapse_shape %arg0 {{\[}}[0], [1], [2, 3]] : tensor<64x32x3x3xf32> into tensor<64x32x9xf32>
// CHECK:         %[[HEAD:.*]] = tensor.extract_slice %[[IN]][0, 0, 0] [64, 32, 8] [1, 1, 1]
// CHECK:         scf.for %[[O:.*]] = %c0 to %c32 step %c1
// CHECK:           scf.for %[[C:.*]] = %c0 to %c64 step %c1
// CHECK:             tensor.extract_slice %[[HEAD]][%[[C]], %[[O]], 0] [1, 1, 8] [1, 1, 1]
// CHECK:             vector.transfer_read {{.*}} : tensor<1x1x8xf32>, vector<1x1x8xf32>
// CHECK:             vector.transfer_write {{.*}} : vector<1x1x8xf32>, tensor<1x1x8xf32>
// CHECK:         tensor.insert_slice %{{.*}}[0, 0, 0] [32, 64, 8] [1, 1, 1]
// CHECK:         %[[LAST:.*]] = tensor.extract_slice %[[IN]][0, 0, 8] [64, 32, 1] [1, 1, 1]
// CHECK:         scf.for
// CHECK:           scf.for
// CHECK:             vector.transfer_read {{.*}} : tensor<1x1x1xf32>, vector<1x1x1xf32>
// CHECK:         tensor.insert_slice %{{.*}}[0, 0, 8] [32, 64, 1] [1, 1, 1]
// CHECK:         tensor.expand_shape %{{.*}} {{\[}}[0], [1], [2, 3]] output_shape [32, 64, 3, 3]
func.func @filter_transpose(%x: tensor<64x32x3x3xf32>) -> tensor<32x64x3x3xf32> {
  %e = tensor.empty() : tensor<32x64x3x3xf32>
  %t = linalg.transpose ins(%x : tensor<64x32x3x3xf32>) outs(%e : tensor<32x64x3x3xf32>) permutation = [1, 0, 2, 3]
  return %t : tensor<32x64x3x3xf32>
}

// -----

// A training step's x^T of a 7x7 map: blocks of 49 (3 vectors and 1).
// CHECK-LABEL: func.func @plane_transpose
// CHECK:         tensor.collapse_shape %arg0 {{\[}}[0], [1], [2, 3]] : tensor<8x16x7x7xf32> into tensor<8x16x49xf32>
// CHECK:         vector<1x1x16xf32>
// CHECK:         vector<1x1x1xf32>
#in = affine_map<(d0, d1, d2, d3) -> (d1, d0, d2, d3)>
#id = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
func.func @plane_transpose(%x: tensor<8x16x7x7xf32>) -> tensor<16x8x7x7xf32> {
  %e = tensor.empty() : tensor<16x8x7x7xf32>
  %t = linalg.generic {indexing_maps = [#in, #id],
                       iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%x : tensor<8x16x7x7xf32>) outs(%e : tensor<16x8x7x7xf32>) {
  ^bb0(%a: f32, %o: f32):
    linalg.yield %a : f32
  } -> tensor<16x8x7x7xf32>
  return %t : tensor<16x8x7x7xf32>
}

// -----

// Left alone: rows that already fill a vector, and a broadcast operand (not
// a permutation). The negation moves 3x3 blocks and is collapsed.
// CHECK-LABEL: func.func @left_alone
// CHECK-NOT:     tensor.collapse_shape %arg0
// CHECK:         tensor.collapse_shape %arg1 {{\[}}[0], [1], [2, 3]] : tensor<8x4x3x3xf32> into tensor<8x4x9xf32>
// CHECK:         arith.negf {{.*}} : vector<1x1x8xf32>
// CHECK:         arith.negf {{.*}} : vector<1x1x1xf32>
// CHECK-NOT:     tensor.collapse_shape %arg2
// CHECK:         return
#in = affine_map<(d0, d1, d2, d3) -> (d1, d0, d2, d3)>
#id = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#bcast = affine_map<(d0, d1, d2, d3) -> (d1)>
func.func @left_alone(%x: tensor<4x8x2x16xf32>, %y: tensor<8x4x3x3xf32>,
                      %z: tensor<8xf32>, %w: tensor<4x8x3x3xf32>)
    -> (tensor<8x4x2x16xf32>, tensor<4x8x3x3xf32>, tensor<4x8x3x3xf32>) {
  %e = tensor.empty() : tensor<8x4x2x16xf32>
  %t = linalg.transpose ins(%x : tensor<4x8x2x16xf32>) outs(%e : tensor<8x4x2x16xf32>) permutation = [1, 0, 2, 3]
  %f = tensor.empty() : tensor<4x8x3x3xf32>
  %n = linalg.generic {indexing_maps = [#in, #id],
                       iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%y : tensor<8x4x3x3xf32>) outs(%f : tensor<4x8x3x3xf32>) {
  ^bb0(%a: f32, %o: f32):
    %m = arith.negf %a : f32
    linalg.yield %m : f32
  } -> tensor<4x8x3x3xf32>
  %b = linalg.generic {indexing_maps = [#id, #bcast, #id],
                       iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%w, %z : tensor<4x8x3x3xf32>, tensor<8xf32>) outs(%f : tensor<4x8x3x3xf32>) {
  ^bb0(%a: f32, %c: f32, %o: f32):
    %m = arith.addf %a, %c : f32
    linalg.yield %m : f32
  } -> tensor<4x8x3x3xf32>
  return %t, %n, %b : tensor<8x4x2x16xf32>, tensor<4x8x3x3xf32>, tensor<4x8x3x3xf32>
}
