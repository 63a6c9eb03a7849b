// RUN: graph-opt %s --graph-to-linalg --split-input-file | FileCheck %s

// CHECK-LABEL: func.func @matmul
// CHECK-SAME: (%[[A:.*]]: tensor<8x784xf32>, %[[B:.*]]: tensor<784x10xf32>)
// CHECK: %[[Z:.*]] = arith.constant 0.000000e+00 : f32
// CHECK: %[[F:.*]] = linalg.fill ins(%[[Z]] : f32) outs(%{{.*}} : tensor<8x10xf32>)
// CHECK: %[[R:.*]] = linalg.matmul ins(%[[A]], %[[B]] : tensor<8x784xf32>, tensor<784x10xf32>) outs(%[[F]] : tensor<8x10xf32>)
// CHECK: return %[[R]]
func.func @matmul(%a: tensor<8x784xf32>, %b: tensor<784x10xf32>) -> tensor<8x10xf32> {
  %0 = graph.matmul %a, %b : (tensor<8x784xf32>, tensor<784x10xf32>) -> tensor<8x10xf32>
  return %0 : tensor<8x10xf32>
}

// -----

// One rhs matrix (its batch dimensions all 1) against a batched lhs: the lhs
// batch folds into M and one linalg.matmul takes it, with no broadcast copy
// of the rhs per batch.
// CHECK-LABEL: func.func @batch_matmul_transpose
// CHECK: %[[T:.*]] = linalg.transpose ins(%{{.*}} : tensor<1x16x64xf32>) outs(%{{.*}} : tensor<1x64x16xf32>) permutation = [0, 2, 1]
// CHECK-NOT: linalg.generic
// CHECK: %[[A:.*]] = tensor.collapse_shape {{.*}} into tensor<128x64xf32>
// CHECK: %[[B:.*]] = tensor.collapse_shape %[[T]] {{.*}} into tensor<64x16xf32>
// CHECK: %[[M:.*]] = linalg.matmul ins(%[[A]], %[[B]] : tensor<128x64xf32>, tensor<64x16xf32>)
// CHECK: tensor.expand_shape %[[M]] {{.*}} into tensor<2x4x16x16xf32>
func.func @batch_matmul_transpose(%q: tensor<2x4x16x64xf32>, %k: tensor<1x16x64xf32>) -> tensor<2x4x16x16xf32> {
  %0 = graph.matmul %q, %k {transpose_rhs} : (tensor<2x4x16x64xf32>, tensor<1x16x64xf32>) -> tensor<2x4x16x16xf32>
  return %0 : tensor<2x4x16x16xf32>
}

// -----

// A linear layer on [S, B, K] activations against a 2-D weight (a
// transformer's input projection): one [S*B, K] x [K, N] GEMM.
// CHECK-LABEL: func.func @linear_3d
// CHECK-NOT: linalg.generic
// CHECK-NOT: linalg.batch_matmul
// CHECK: %[[A:.*]] = tensor.collapse_shape %{{.*}} : tensor<128x1x512xf32> into tensor<128x512xf32>
// CHECK: %[[M:.*]] = linalg.matmul ins(%[[A]], %{{.*}} : tensor<128x512xf32>, tensor<512x1536xf32>)
// CHECK: tensor.expand_shape %[[M]] {{.*}} into tensor<128x1x1536xf32>
func.func @linear_3d(%x: tensor<128x1x512xf32>, %w: tensor<512x1536xf32>) -> tensor<128x1x1536xf32> {
  %0 = graph.matmul %x, %w : (tensor<128x1x512xf32>, tensor<512x1536xf32>) -> tensor<128x1x1536xf32>
  return %0 : tensor<128x1x1536xf32>
}

// -----

// Batch dimensions of both sides broadcast, fold into one, and meet
// linalg.batch_matmul (attention's Q K^T per head).
// CHECK-LABEL: func.func @batch_matmul_broadcast
// CHECK: %[[T:.*]] = linalg.transpose ins(%{{.*}} : tensor<1x4x16x64xf32>) outs(%{{.*}} : tensor<1x4x64x16xf32>) permutation = [0, 1, 3, 2]
// CHECK: linalg.generic {{.*}} ins(%[[T]] : tensor<1x4x64x16xf32>)
// CHECK: tensor.collapse_shape {{.*}} into tensor<8x16x64xf32>
// CHECK: tensor.collapse_shape {{.*}} into tensor<8x64x16xf32>
// CHECK: %[[M:.*]] = linalg.batch_matmul
// CHECK: tensor.expand_shape %[[M]] {{.*}} into tensor<2x4x16x16xf32>
func.func @batch_matmul_broadcast(%q: tensor<2x4x16x64xf32>, %k: tensor<1x4x16x64xf32>) -> tensor<2x4x16x16xf32> {
  %0 = graph.matmul %q, %k {transpose_rhs} : (tensor<2x4x16x64xf32>, tensor<1x4x16x64xf32>) -> tensor<2x4x16x16xf32>
  return %0 : tensor<2x4x16x16xf32>
}

// -----

// CHECK-LABEL: func.func @matvec
// CHECK: tensor.expand_shape {{.*}} into tensor<4x1xf32>
// CHECK: %[[M:.*]] = linalg.matmul
// CHECK: tensor.collapse_shape %[[M]] {{.*}} into tensor<3xf32>
func.func @matvec(%a: tensor<3x4xf32>, %v: tensor<4xf32>) -> tensor<3xf32> {
  %0 = graph.matmul %a, %v : (tensor<3x4xf32>, tensor<4xf32>) -> tensor<3xf32>
  return %0 : tensor<3xf32>
}

// -----

// CHECK-LABEL: func.func @conv_pad_stride_bias
// CHECK: %[[P:.*]] = tensor.pad %{{.*}} low[0, 0, 1, 1] high[0, 0, 1, 1]
// CHECK: tensor<1x3x226x226xf32>
// CHECK: %[[C:.*]] = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>} ins(%[[P]], %{{.*}} : tensor<1x3x226x226xf32>, tensor<64x3x7x7xf32>)
// CHECK: linalg.generic {{.*}} ins(%[[C]], %{{.*}} : tensor<1x64x110x110xf32>, tensor<64xf32>)
// CHECK: arith.addf
func.func @conv_pad_stride_bias(%x: tensor<1x3x224x224xf32>, %w: tensor<64x3x7x7xf32>, %b: tensor<64xf32>) -> tensor<1x64x110x110xf32> {
  %0 = graph.conv %x, %w, %b {strides = array<i64: 2, 2>, pad_low = array<i64: 1, 1>, pad_high = array<i64: 1, 1>} : (tensor<1x3x224x224xf32>, tensor<64x3x7x7xf32>, tensor<64xf32>) -> tensor<1x64x110x110xf32>
  return %0 : tensor<1x64x110x110xf32>
}

// -----

// CHECK-LABEL: func.func @conv_grouped
// CHECK: tensor.expand_shape {{.*}} into tensor<1x2x4x8x8xf32>
// CHECK: tensor.expand_shape {{.*}} into tensor<2x4x4x3x3xf32>
// CHECK: %[[C:.*]] = linalg.conv_2d_ngchw_gfchw
// CHECK: tensor.collapse_shape %[[C]] {{.*}} into tensor<1x8x6x6xf32>
func.func @conv_grouped(%x: tensor<1x8x8x8xf32>, %w: tensor<8x4x3x3xf32>) -> tensor<1x8x6x6xf32> {
  %0 = graph.conv %x, %w {groups = 2 : i64} : (tensor<1x8x8x8xf32>, tensor<8x4x3x3xf32>) -> tensor<1x8x6x6xf32>
  return %0 : tensor<1x8x6x6xf32>
}

// -----

// CHECK-LABEL: func.func @conv1d
// CHECK: linalg.conv_1d_ncw_fcw
func.func @conv1d(%x: tensor<1x2x10xf32>, %w: tensor<4x2x3xf32>) -> tensor<1x4x8xf32> {
  %0 = graph.conv %x, %w : (tensor<1x2x10xf32>, tensor<4x2x3xf32>) -> tensor<1x4x8xf32>
  return %0 : tensor<1x4x8xf32>
}

// -----

// Max pooling pads with -inf so padding never wins.
// CHECK-LABEL: func.func @max_pool
// CHECK: %[[NEG:.*]] = arith.constant 0xFF800000 : f32
// CHECK: %[[P:.*]] = tensor.pad %{{.*}} low[0, 0, 1, 1] high[0, 0, 1, 1]
// CHECK: tensor.yield %[[NEG]]
// CHECK: %[[W:.*]] = tensor.empty() : tensor<3x3xf32>
// CHECK: linalg.pooling_nchw_max {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>} ins(%[[P]], %[[W]] :
func.func @max_pool(%x: tensor<1x64x112x112xf32>) -> tensor<1x64x56x56xf32> {
  %0 = graph.pool %x {kind = #graph<pool_kind max>, window = array<i64: 3, 3>, strides = array<i64: 2, 2>, pad_low = array<i64: 1, 1>, pad_high = array<i64: 1, 1>} : (tensor<1x64x112x112xf32>) -> tensor<1x64x56x56xf32>
  return %0 : tensor<1x64x56x56xf32>
}

// -----

// Average pooling divides by the cell counts, a product of per-dimension
// counts known at compile time (here the first window row and column start
// in the padding).
// CHECK-DAG: #[[H:.*]] = affine_map<(d0, d1, d2, d3) -> (d2)>
// CHECK-DAG: #[[W:.*]] = affine_map<(d0, d1, d2, d3) -> (d3)>
// CHECK-LABEL: func.func @avg_pool
// CHECK: %[[SUM:.*]] = linalg.pooling_nchw_sum
// CHECK: %[[CH:.*]] = arith.constant dense<[1.000000e+00, 2.000000e+00, 2.000000e+00, 2.000000e+00]> : tensor<4xf32>
// CHECK: %[[CW:.*]] = arith.constant dense<[1.000000e+00, 2.000000e+00, 2.000000e+00, 2.000000e+00]> : tensor<4xf32>
// CHECK: linalg.generic {indexing_maps = [#{{.*}}, #[[H]], #[[W]], #{{.*}}]{{.*}} ins(%[[SUM]], %[[CH]], %[[CW]] :
// CHECK: ^bb0(%[[S:.*]]: f32, %[[A:.*]]: f32, %[[B:.*]]: f32, %{{.*}}: f32):
// CHECK: %[[N:.*]] = arith.mulf %[[A]], %[[B]]
// CHECK: arith.divf %[[S]], %[[N]]
func.func @avg_pool(%x: tensor<1x2x7x7xf32>) -> tensor<1x2x4x4xf32> {
  %0 = graph.pool %x {kind = #graph<pool_kind avg>, window = array<i64: 2, 2>, strides = array<i64: 2, 2>, pad_low = array<i64: 1, 1>} : (tensor<1x2x7x7xf32>) -> tensor<1x2x4x4xf32>
  return %0 : tensor<1x2x4x4xf32>
}

// -----

// 3-d pooling has no channels-first named op: a generic with window loops.
// CHECK-LABEL: func.func @max_pool_3d
// CHECK: linalg.generic
// CHECK-SAME: iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]
func.func @max_pool_3d(%x: tensor<1x2x4x4x4xf32>) -> tensor<1x2x2x2x2xf32> {
  %0 = graph.pool %x {kind = #graph<pool_kind max>, window = array<i64: 2, 2, 2>, strides = array<i64: 2, 2, 2>} : (tensor<1x2x4x4x4xf32>) -> tensor<1x2x2x2x2xf32>
  return %0 : tensor<1x2x2x2x2xf32>
}

// -----

// 3-d average pooling: the counts do not go through a pooling generic (the
// vectoriser mis-reduced one whose body ignores its window operand); with
// padding excluded, windows at the borders hold 2 of 3 cells per dimension.
// CHECK-LABEL: func.func @avg_pool_3d
// CHECK: %[[SUM:.*]] = linalg.generic
// CHECK-SAME: "reduction", "reduction", "reduction"
// CHECK-COUNT-3: arith.constant dense<[2.000000e+00, 3.000000e+00, 2.000000e+00]> : tensor<3xf32>
// CHECK: linalg.generic {{.*}} ins(%[[SUM]], %{{.*}}, %{{.*}}, %{{.*}} :
// CHECK-COUNT-2: arith.mulf
// CHECK: arith.divf
func.func @avg_pool_3d(%x: tensor<1x1x5x5x5xf32>) -> tensor<1x1x3x3x3xf32> {
  %0 = graph.pool %x {kind = #graph<pool_kind avg>, window = array<i64: 3, 3, 3>, strides = array<i64: 2, 2, 2>, pad_low = array<i64: 1, 1, 1>, pad_high = array<i64: 1, 1, 1>} : (tensor<1x1x5x5x5xf32>) -> tensor<1x1x3x3x3xf32>
  return %0 : tensor<1x1x3x3x3xf32>
}

// -----

// CHECK-DAG: #[[CH:.*]] = affine_map<(d0, d1, d2, d3) -> (d1)>
// CHECK-LABEL: func.func @batch_norm
// CHECK: linalg.generic {indexing_maps = [#{{.*}}, #[[CH]], #[[CH]], #[[CH]], #[[CH]], #{{.*}}]
// CHECK: math.rsqrt
func.func @batch_norm(%x: tensor<8x16x4x4xf32>, %s: tensor<16xf32>, %b: tensor<16xf32>, %m: tensor<16xf32>, %v: tensor<16xf32>) -> tensor<8x16x4x4xf32> {
  %0 = graph.batch_norm %x, %s, %b, %m, %v : (tensor<8x16x4x4xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>) -> tensor<8x16x4x4xf32>
  return %0 : tensor<8x16x4x4xf32>
}

// -----

// CHECK-LABEL: func.func @layer_norm
// CHECK: linalg.reduce {{.*}} dimensions = [2]
// CHECK: linalg.reduce {{.*}} dimensions = [2]
// CHECK: math.rsqrt
func.func @layer_norm(%x: tensor<4x128x768xf32>, %g: tensor<768xf32>, %b: tensor<768xf32>) -> tensor<4x128x768xf32> {
  %0 = graph.layer_norm %x, %g, %b {axis = 2 : i64} : (tensor<4x128x768xf32>, tensor<768xf32>, tensor<768xf32>) -> tensor<4x128x768xf32>
  return %0 : tensor<4x128x768xf32>
}

// -----

// lrn: the channels are zero-padded by the window's reach (size 4: one
// below, two above), one generic sums the squares over the window (the
// reduction loop d4 shifts the channel), one generic divides.
// CHECK-DAG: #[[PAD:.*]] = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1 + d4, d2, d3)>
// CHECK-DAG: #[[WIN:.*]] = affine_map<(d0, d1, d2, d3, d4) -> (d4)>
// CHECK-LABEL: func.func @lrn
// CHECK-SAME: (%[[X:.*]]: tensor<2x6x5x5xf32>)
// CHECK: %[[P:.*]] = tensor.pad %[[X]] low[0, 1, 0, 0] high[0, 2, 0, 0]
// CHECK: tensor<2x6x5x5xf32> to tensor<2x9x5x5xf32>
// CHECK: %[[ACC:.*]] = linalg.fill
// CHECK: %[[SUM:.*]] = linalg.generic {indexing_maps = [#[[PAD]], #[[WIN]], {{.*}}], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%[[P]], %{{.*}} : tensor<2x9x5x5xf32>, tensor<4xf32>) outs(%[[ACC]]
// CHECK: arith.mulf
// CHECK: arith.addf
// CHECK: linalg.generic {{.*}} ins(%[[X]], %[[SUM]] :
// CHECK: arith.constant 5.000000e-01 : f32
// CHECK: arith.mulf
// CHECK: arith.constant 2.000000e+00 : f32
// CHECK: arith.addf
// CHECK: arith.constant 7.500000e-01 : f32
// CHECK: math.powf
// CHECK: arith.divf
// CHECK-NOT: graph.lrn
func.func @lrn(%x: tensor<2x6x5x5xf32>) -> tensor<2x6x5x5xf32> {
  %0 = graph.lrn %x {size = 4 : i64, alpha = 2.0 : f32, bias = 2.0 : f32} : (tensor<2x6x5x5xf32>) -> tensor<2x6x5x5xf32>
  return %0 : tensor<2x6x5x5xf32>
}

// -----

// lrn with size 1 needs no padding; dynamic sizes come from the input.
// CHECK-LABEL: func.func @lrn_dynamic
// CHECK-NOT: tensor.pad
// CHECK: tensor.dim
// CHECK: linalg.generic
// CHECK: linalg.generic
func.func @lrn_dynamic(%x: tensor<?x?x7xf32>) -> tensor<?x?x7xf32> {
  %0 = graph.lrn %x {size = 1 : i64} : (tensor<?x?x7xf32>) -> tensor<?x?x7xf32>
  return %0 : tensor<?x?x7xf32>
}

// -----

// conv_transpose at stride 2: no zero insertion. The filter is flipped
// with its channel dims swapped per group; each output phase (positions
// r + 2m) is a stride-1 grouped convolution (a generic for 1-d) of the
// input rows it reads by the flipped taps that reach it (a strided slice
// of the filter), inserted with stride 2 into the result, which is not
// zero-filled: the two phases write every position. Phase 0 reads all
// three input columns with tap 1, phase 1 columns 1..2 with tap 0.
// CHECK-DAG: #[[IN:.*]] = affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d4, d3 + d5)>
// CHECK-DAG: #[[FIL:.*]] = affine_map<(d0, d1, d2, d3, d4, d5) -> (d1, d2, d4, d5)>
// CHECK-LABEL: func.func @conv_transpose_grouped_1d
// CHECK-SAME: (%[[X:.*]]: tensor<1x4x3xf32>, %[[W:.*]]: tensor<4x3x2xf32>)
// CHECK: %[[WG:.*]] = tensor.expand_shape %[[W]] {{.*}} into tensor<2x2x3x2xf32>
// CHECK: linalg.generic {{.*}} outs(%{{.*}} : tensor<2x3x2x2xf32>)
// CHECK: %[[G:.*]] = linalg.index 0
// CHECK: %[[D2:.*]] = linalg.index 2
// CHECK: %[[D1:.*]] = linalg.index 1
// CHECK: %[[K:.*]] = linalg.index 3
// CHECK: %[[KF:.*]] = arith.subi %{{.*}}, %[[K]]
// CHECK: tensor.extract %[[WG]][%[[G]], %[[D2]], %[[D1]], %[[KF]]] : tensor<2x2x3x2xf32>
// CHECK: %[[F:.*]] = tensor.collapse_shape {{.*}} into tensor<6x2x2xf32>
// CHECK-NOT: linalg.fill
// CHECK: %[[Z:.*]] = tensor.empty() : tensor<1x6x5xf32>
// CHECK-NOT: tensor.insert_slice %[[X]]
// CHECK: %[[T0:.*]] = tensor.extract_slice %[[F]][0, 0, 0] [6, 2, 1] [1, 1, 2] : tensor<6x2x2xf32> to tensor<6x2x1xf32>
// CHECK: tensor.expand_shape %[[X]]
// CHECK: linalg.generic {indexing_maps = [#[[IN]], #[[FIL]], {{.*}}], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction"]}
// CHECK-SAME: outs(%{{.*}} : tensor<1x2x3x3xf32>)
// CHECK: %[[P0:.*]] = tensor.collapse_shape {{.*}} into tensor<1x6x3xf32>
// CHECK: %[[R0:.*]] = tensor.insert_slice %[[P0]] into %[[Z]][0, 0, 0] [1, 6, 3] [1, 1, 2]
// CHECK: %[[X1:.*]] = tensor.extract_slice %[[X]][0, 0, 1] [1, 4, 2] [1, 1, 1]
// CHECK: %[[T1:.*]] = tensor.extract_slice %[[F]][0, 0, 1] [6, 2, 1] [1, 1, 2]
// CHECK: tensor.expand_shape %[[X1]]
// CHECK: linalg.generic {{.*}} outs(%{{.*}} : tensor<1x2x3x2xf32>)
// CHECK: %[[P1:.*]] = tensor.collapse_shape {{.*}} into tensor<1x6x2xf32>
// CHECK: tensor.insert_slice %[[P1]] into %[[R0]][0, 0, 1] [1, 6, 2] [1, 1, 2]
func.func @conv_transpose_grouped_1d(%x: tensor<1x4x3xf32>, %w: tensor<4x3x2xf32>) -> tensor<1x6x5xf32> {
  %0 = graph.conv_transpose %x, %w {strides = array<i64: 2>, pad_low = array<i64: 1>, pad_high = array<i64: 0>, groups = 2 : i64} : (tensor<1x4x3xf32>, tensor<4x3x2xf32>) -> tensor<1x6x5xf32>
  return %0 : tensor<1x6x5xf32>
}

// -----

// A pad larger than dilation * (K - 1): each of the four phases reads
// only input row and column 1, by one tap of the (flipped) filter, in a
// named 1x1 convolution; together they write the whole result, so it is
// not zero-filled.
// CHECK-LABEL: func.func @conv_transpose_crop
// CHECK-SAME: (%[[X:.*]]: tensor<1x1x2x2xf32>, %[[W:.*]]: tensor<1x1x2x2xf32>)
// CHECK: %[[F:.*]] = tensor.collapse_shape {{.*}} into tensor<1x1x2x2xf32>
// CHECK-NOT: linalg.fill
// CHECK: %[[Z:.*]] = tensor.empty() : tensor<1x1x2x2xf32>
// CHECK: %[[X0:.*]] = tensor.extract_slice %[[X]][0, 0, 1, 1] [1, 1, 1, 1] [1, 1, 1, 1]
// CHECK: %[[T0:.*]] = tensor.extract_slice %[[F]][0, 0, 1, 1] [1, 1, 1, 1] [1, 1, 2, 2]
// CHECK: %[[C0:.*]] = linalg.conv_2d_nchw_fchw {{.*}} ins(%[[X0]], %[[T0]] : {{.*}}) {{.*}} -> tensor<1x1x1x1xf32>
// CHECK: %[[R0:.*]] = tensor.insert_slice %[[C0]] into %[[Z]][0, 0, 0, 0] [1, 1, 1, 1] [1, 1, 2, 2]
// CHECK: tensor.extract_slice %[[F]][0, 0, 1, 0] [1, 1, 1, 1] [1, 1, 2, 2]
// CHECK: %[[R1:.*]] = tensor.insert_slice {{.*}} into %[[R0]][0, 0, 0, 1] [1, 1, 1, 1] [1, 1, 2, 2]
// CHECK: tensor.extract_slice %[[F]][0, 0, 0, 1] [1, 1, 1, 1] [1, 1, 2, 2]
// CHECK: %[[R2:.*]] = tensor.insert_slice {{.*}} into %[[R1]][0, 0, 1, 0] [1, 1, 1, 1] [1, 1, 2, 2]
// CHECK: tensor.extract_slice %[[F]][0, 0, 0, 0] [1, 1, 1, 1] [1, 1, 2, 2]
// CHECK: tensor.insert_slice {{.*}} into %[[R2]][0, 0, 1, 1] [1, 1, 1, 1] [1, 1, 2, 2]
func.func @conv_transpose_crop(%x: tensor<1x1x2x2xf32>, %w: tensor<1x1x2x2xf32>) -> tensor<1x1x2x2xf32> {
  %0 = graph.conv_transpose %x, %w {strides = array<i64: 2, 2>, pad_low = array<i64: 2, 2>, pad_high = array<i64: 0, 0>} : (tensor<1x1x2x2xf32>, tensor<1x1x2x2xf32>) -> tensor<1x1x2x2xf32>
  return %0 : tensor<1x1x2x2xf32>
}

// -----

// A 1x1 filter at stride 2 reaches one phase of four (even rows, even
// columns); the other three stay zero, so the result is zero-filled before
// that phase's strided insert.
// CHECK-LABEL: func.func @conv_transpose_1x1_stride2
// CHECK: %[[Z:.*]] = linalg.fill {{.*}} -> tensor<1x2x6x6xf32>
// CHECK: %[[C:.*]] = linalg.conv_2d_nchw_fchw {{.*}} -> tensor<1x2x3x3xf32>
// CHECK: tensor.insert_slice %[[C]] into %[[Z]][0, 0, 0, 0] [1, 2, 3, 3] [1, 1, 2, 2]
// CHECK-NOT: tensor.insert_slice
// CHECK: return
func.func @conv_transpose_1x1_stride2(%x: tensor<1x3x3x3xf32>, %w: tensor<3x2x1x1xf32>) -> tensor<1x2x6x6xf32> {
  %0 = graph.conv_transpose %x, %w {strides = array<i64: 2, 2>, output_padding = array<i64: 1, 1>} : (tensor<1x3x3x3xf32>, tensor<3x2x1x1xf32>) -> tensor<1x2x6x6xf32>
  return %0 : tensor<1x2x6x6xf32>
}
