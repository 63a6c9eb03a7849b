// RUN: graph-opt %s --graphc-cpu-fuse-elementwise --split-input-file | FileCheck %s
// RUN: graph-opt %s --split-input-file \
// RUN:   --pass-pipeline='builtin.module(graphc-cpu-fuse-elementwise,func.func(graphc-cpu-tile-and-vectorize{vector-width=16 parallel-m=64 parallel-n=256}),canonicalize,cse)' \
// RUN: | FileCheck %s --check-prefix=TILED

// A linear layer on [S, B, K] activations: the collapse_shape into [S*B, K]
// and the expand_shape of the result stay around a named linalg.matmul
// (upstream folds them through it into a 5-loop generic no GEMM strategy
// matches); the bias add after the expand is left alone too.
// CHECK-LABEL: func.func @linear_keeps_matmul
// CHECK: %[[A:.*]] = tensor.collapse_shape %{{.*}} : tensor<128x1x512xf32> into tensor<128x512xf32>
// CHECK: %[[M:.*]] = linalg.matmul ins(%[[A]], %{{.*}} : tensor<128x512xf32>, tensor<512x64xf32>)
// CHECK: %[[E:.*]] = tensor.expand_shape %[[M]]
// CHECK: linalg.generic {{.*}} ins(%[[E]], %{{.*}} : tensor<128x1x64xf32>, tensor<64xf32>)
// ... so the GEMM strategy's register tiles take it.
// TILED-LABEL: func.func @linear_keeps_matmul
// TILED:       scf.forall
// TILED:         vector.contract
// TILED-SAME:      vector<8x1xf32>, vector<1x32xf32> into vector<8x32xf32>
// TILED-LABEL: func.func @no_fusion_into_contraction
#id3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#bias3 = affine_map<(d0, d1, d2) -> (d2)>
func.func @linear_keeps_matmul(%x: tensor<128x1x512xf32>, %w: tensor<512x64xf32>, %b: tensor<64xf32>) -> tensor<128x1x64xf32> {
  %zero = arith.constant 0.0 : f32
  %a = tensor.collapse_shape %x [[0], [1, 2]] : tensor<128x1x512xf32> into tensor<128x512xf32>
  %e = tensor.empty() : tensor<128x64xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<128x64xf32>) -> tensor<128x64xf32>
  %m = linalg.matmul ins(%a, %w : tensor<128x512xf32>, tensor<512x64xf32>) outs(%f : tensor<128x64xf32>) -> tensor<128x64xf32>
  %r = tensor.expand_shape %m [[0], [1, 2]] output_shape [128, 1, 64] : tensor<128x64xf32> into tensor<128x1x64xf32>
  %o = tensor.empty() : tensor<128x1x64xf32>
  %y = linalg.generic {indexing_maps = [#id3, #bias3, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%r, %b : tensor<128x1x64xf32>, tensor<64xf32>) outs(%o : tensor<128x1x64xf32>) {
  ^bb0(%in: f32, %bias: f32, %out: f32):
    %s = arith.addf %in, %bias : f32
    linalg.yield %s : f32
  } -> tensor<128x1x64xf32>
  return %y : tensor<128x1x64xf32>
}

// -----

// A bias + ReLU producer is not fused into the next layer's contraction,
// where it would be recomputed for every output column.
// CHECK-LABEL: func.func @no_fusion_into_contraction
// CHECK: %[[H:.*]] = linalg.generic {{.*}} iterator_types = ["parallel", "parallel"]
// CHECK: arith.maximumf
// CHECK: linalg.generic {{.*}} iterator_types = ["parallel", "parallel", "reduction"]} ins(%[[H]], %{{.*}} : tensor<16x32xf32>, tensor<32x8xf32>)
// CHECK-NOT: arith.maximumf
// CHECK: return
#id2 = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d1)>
#lhs = affine_map<(m, n, k) -> (m, k)>
#rhs = affine_map<(m, n, k) -> (k, n)>
#acc = affine_map<(m, n, k) -> (m, n)>
func.func @no_fusion_into_contraction(%x: tensor<16x32xf32>, %b: tensor<32xf32>, %w: tensor<32x8xf32>, %c: tensor<16x8xf32>) -> tensor<16x8xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<16x32xf32>
  %h = linalg.generic {indexing_maps = [#id2, #row, #id2], iterator_types = ["parallel", "parallel"]} ins(%x, %b : tensor<16x32xf32>, tensor<32xf32>) outs(%e : tensor<16x32xf32>) {
  ^bb0(%in: f32, %bias: f32, %out: f32):
    %s = arith.addf %in, %bias : f32
    %r = arith.maximumf %s, %zero : f32
    linalg.yield %r : f32
  } -> tensor<16x32xf32>
  %y = linalg.generic {indexing_maps = [#lhs, #rhs, #acc], iterator_types = ["parallel", "parallel", "reduction"]} ins(%h, %w : tensor<16x32xf32>, tensor<32x8xf32>) outs(%c : tensor<16x8xf32>) {
  ^bb0(%l: f32, %r: f32, %o: f32):
    %p = arith.mulf %l, %r : f32
    %s = arith.addf %o, %p : f32
    linalg.yield %s : f32
  } -> tensor<16x8xf32>
  return %y : tensor<16x8xf32>
}

// -----

// Elementwise chains and the producer of a reduction (layer norm's
// centring and square before its mean) still fuse as upstream.
// CHECK-LABEL: func.func @elementwise_into_reduction
// CHECK: linalg.generic {{.*}} iterator_types = ["parallel", "reduction"]
// CHECK: arith.subf
// CHECK: arith.mulf
// CHECK: arith.addf
// CHECK-NOT: linalg.generic
// CHECK: return
#id2 = affine_map<(d0, d1) -> (d0, d1)>
#red = affine_map<(d0, d1) -> (d0)>
func.func @elementwise_into_reduction(%x: tensor<16x32xf32>, %m: tensor<16xf32>) -> tensor<16xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<16x32xf32>
  %d = linalg.generic {indexing_maps = [#id2, #red, #id2], iterator_types = ["parallel", "parallel"]} ins(%x, %m : tensor<16x32xf32>, tensor<16xf32>) outs(%e : tensor<16x32xf32>) {
  ^bb0(%in: f32, %mean: f32, %out: f32):
    %s = arith.subf %in, %mean : f32
    linalg.yield %s : f32
  } -> tensor<16x32xf32>
  %sq = linalg.generic {indexing_maps = [#id2, #id2], iterator_types = ["parallel", "parallel"]} ins(%d : tensor<16x32xf32>) outs(%e : tensor<16x32xf32>) {
  ^bb0(%in: f32, %out: f32):
    %p = arith.mulf %in, %in : f32
    linalg.yield %p : f32
  } -> tensor<16x32xf32>
  %e1 = tensor.empty() : tensor<16xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e1 : tensor<16xf32>) -> tensor<16xf32>
  %sum = linalg.generic {indexing_maps = [#id2, #red], iterator_types = ["parallel", "reduction"]} ins(%sq : tensor<16x32xf32>) outs(%f : tensor<16xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %s = arith.addf %in, %acc : f32
    linalg.yield %s : f32
  } -> tensor<16xf32>
  return %sum : tensor<16xf32>
}

// -----

// A concatenation of two ReLUs (SqueezeNet's fire module): the concat
// becomes a tensor.empty of the result and one insert_slice per operand,
// so that empty-tensor elimination lets each ReLU write its slice.
// CHECK-LABEL: func.func @concat_in_place
// CHECK-NOT: tensor.concat
// CHECK: %[[E:.*]] = tensor.empty() : tensor<1x48x5x5xf32>
// CHECK: %[[I:.*]] = tensor.insert_slice %{{.*}} into %[[E]][0, 0, 0, 0] [1, 16, 5, 5] [1, 1, 1, 1]
// CHECK: tensor.insert_slice %{{.*}} into %[[I]][0, 16, 0, 0] [1, 32, 5, 5] [1, 1, 1, 1]
// CHECK-NOT: tensor.concat
// The whole CPU pipeline then writes each ReLU into the concatenation's
// buffer: one allocation (the result), no copy loop between buffers.
// RUN: graph-opt %s --split-input-file --graphc-cpu-codegen="vector-width=16" \
// RUN: | FileCheck %s --check-prefix=CODEGEN
// CODEGEN-LABEL: llvm.func @concat_in_place
// CODEGEN-COUNT-1: llvm.call @malloc
// CODEGEN-NOT: llvm.call @malloc
// CODEGEN: llvm.return
#nchw4 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
func.func @concat_in_place(%x: tensor<1x16x5x5xf32>, %y: tensor<1x32x5x5xf32>) -> tensor<1x48x5x5xf32> {
  %zero = arith.constant 0.0 : f32
  %e1 = tensor.empty() : tensor<1x16x5x5xf32>
  %a = linalg.generic {indexing_maps = [#nchw4, #nchw4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%x : tensor<1x16x5x5xf32>) outs(%e1 : tensor<1x16x5x5xf32>) {
  ^bb0(%in: f32, %out: f32):
    %r = arith.maximumf %in, %zero : f32
    linalg.yield %r : f32
  } -> tensor<1x16x5x5xf32>
  %e2 = tensor.empty() : tensor<1x32x5x5xf32>
  %b = linalg.generic {indexing_maps = [#nchw4, #nchw4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%y : tensor<1x32x5x5xf32>) outs(%e2 : tensor<1x32x5x5xf32>) {
  ^bb0(%in: f32, %out: f32):
    %r = arith.maximumf %in, %zero : f32
    linalg.yield %r : f32
  } -> tensor<1x32x5x5xf32>
  %c = tensor.concat dim(1) %a, %b : (tensor<1x16x5x5xf32>, tensor<1x32x5x5xf32>) -> tensor<1x48x5x5xf32>
  return %c : tensor<1x48x5x5xf32>
}
