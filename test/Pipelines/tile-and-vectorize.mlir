// RUN: graph-opt %s --split-input-file \
// RUN:   --pass-pipeline='builtin.module(func.func(graphc-cpu-tile-and-vectorize{vector-width=16 mr=8 nr=32 parallel-m=64 parallel-n=256}),canonicalize,cse)' \
// RUN: | FileCheck %s
// RUN: graph-opt %s --split-input-file \
// RUN:   --pass-pipeline='builtin.module(func.func(graphc-cpu-tile-and-vectorize{vector-width=16 mr=8 nr=32 parallel-m=64 parallel-n=256 pack-b=0}),canonicalize,cse)' \
// RUN: | FileCheck %s --check-prefix=NOPACK
// RUN: graph-opt %s --split-input-file \
// RUN:   --pass-pipeline='builtin.module(func.func(graphc-cpu-tile-and-vectorize{vector-width=16}),canonicalize,cse)' \
// RUN: | FileCheck %s --check-prefix=DEFAULT
// RUN: graph-opt %s --split-input-file \
// RUN:   --pass-pipeline='builtin.module(func.func(graphc-cpu-tile-and-vectorize{vector-width=16 mr=6 nr=64 parallel-m=64 parallel-n=256}),canonicalize,cse)' \
// RUN: | FileCheck %s --check-prefix=WIDE

// The matmul strategy: one scf.forall task per output tile with the fill
// fused in (64x256 asked for, but a GEMM of 2^20 multiply-adds or more is
// split into at least 8 tasks, so 32x256), register tiles of 8x32 with N
// outer, a K loop of step 1 around one vector.contract (8x1 times 1x32).
// Before the N loop, the task's 256x256 block of B is packed into 8
// contiguous 256x32 micro-panels (packed[j, k, c] = B[k, 32 j + c]),
// walking each row of B once, one vector transfer per panel (a tiled
// linalg.copy became scalar loops); each N tile then reads its panel, which
// the micro-kernel streams (pack-b); without pack-b it reads B in place.
// With 16 lanes the default register tile is 8x32 (16 zmm accumulators).
// CHECK-LABEL: func.func @matmul
// CHECK:       scf.forall (%{{.*}}, %{{.*}}) = (0, 0) to (128, 512) step (32, 256)
// CHECK:         %[[BLOCK:.*]] = tensor.extract_slice %{{.*}}[0, %{{.*}}] [256, 256] [1, 1] : tensor<256x512xf32> to tensor<256x256xf32>
// CHECK:         vector.transfer_write %{{.*}} : vector<1x16xf32>, tensor<1x16xf32>
// CHECK:         %[[BUF:.*]] = tensor.empty() : tensor<8x256x32xf32>
// CHECK:         %[[PACKED:.*]] = scf.for %[[R:.*]] = %c0 to %c256 step %c1 iter_args(%[[ACC:.*]] = %[[BUF]])
// CHECK-NEXT:      scf.for %[[J:.*]] = %c0 to %c8 step %c1 iter_args(%[[ACC2:.*]] = %[[ACC]])
// CHECK-NEXT:        %[[COL:.*]] = arith.muli %[[J]], %c32
// CHECK-NEXT:        %[[ROW:.*]] = vector.transfer_read %[[BLOCK]][%[[R]], %[[COL]]]{{.*}} : tensor<256x256xf32>, vector<1x32xf32>
// CHECK-NEXT:        %[[NEXT:.*]] = vector.transfer_write %[[ROW]], %[[ACC2]][%[[J]], %[[R]], %c0]{{.*}} : vector<1x32xf32>, tensor<8x256x32xf32>
// CHECK-NEXT:        scf.yield %[[NEXT]]
// CHECK:         scf.for %[[N:.*]] = %{{.*}} to %{{.*}} step %c32
// CHECK:           scf.for %[[M:.*]] = %{{.*}} to %{{.*}} step %c8
// CHECK:             %[[TILE:.*]] = arith.divui %[[N]], %c32
// CHECK:             %[[PANEL:.*]] = tensor.extract_slice %[[PACKED]][%[[TILE]], 0, 0] [1, 256, 32] [1, 1, 1] : tensor<8x256x32xf32> to tensor<256x32xf32>
// CHECK:             scf.for %[[K:.*]] = %{{.*}} to %c256 step %c1
// CHECK:               tensor.extract_slice %[[PANEL]][%[[K]], 0] [1, 32] [1, 1] : tensor<256x32xf32> to tensor<1x32xf32>
// CHECK:               vector.contract
// CHECK-SAME:            vector<8x1xf32>, vector<1x32xf32> into vector<8x32xf32>
// CHECK:       scf.forall.in_parallel
// CHECK-NOT:   linalg.matmul
// NOPACK-LABEL: func.func @matmul
// DEFAULT-LABEL: func.func @matmul
// DEFAULT:         scf.forall (%{{.*}}, %{{.*}}) = (0, 0) to (128, 512) step (64, 128)
// DEFAULT:           vector.transfer_read %{{.*}} : tensor<256x128xf32>, vector<1x32xf32>
// DEFAULT:           vector.contract
// DEFAULT-SAME:        vector<8x1xf32>, vector<1x32xf32> into vector<8x32xf32>
// DEFAULT-NOT:         into vector<6x64xf32>
// NOPACK:         scf.for %[[N:.*]] = %{{.*}} to %{{.*}} step %c32
// NOPACK-NOT:       tensor.empty
// NOPACK:           scf.for %[[M:.*]] = %{{.*}} to %{{.*}} step %c8
// NOPACK:             %[[PANEL:.*]] = tensor.extract_slice %{{.*}}[0, %[[N]]] [256, 32] [1, 1] : tensor<256x256xf32> to tensor<256x32xf32>
// NOPACK:             scf.for %[[K:.*]] = %{{.*}} to %c256 step %c1
// NOPACK:               tensor.extract_slice %[[PANEL]][%[[K]], 0] [1, 32] [1, 1] : tensor<256x32xf32> to tensor<1x32xf32>
// NOPACK:               vector.contract
func.func @matmul(%a: tensor<128x256xf32>, %b: tensor<256x512xf32>) -> tensor<128x512xf32> {
  %cst = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<128x512xf32>
  %f = linalg.fill ins(%cst : f32) outs(%e : tensor<128x512xf32>) -> tensor<128x512xf32>
  %r = linalg.matmul ins(%a, %b : tensor<128x256xf32>, tensor<256x512xf32>)
                     outs(%f : tensor<128x512xf32>) -> tensor<128x512xf32>
  return %r : tensor<128x512xf32>
}

// -----

// B is not packed where the copy would not pay: a transposed B (its rows
// run along K, a plain copy would not make the panel contiguous), a task
// of one register tile of rows (each panel is read once), a B narrower
// than 256 columns (1 KiB rows), and a B of at most 256 KiB (256x256: it
// stays in L2, and each task would copy its block again).
// CHECK-LABEL: func.func @matmul_transpose_b
// CHECK-NOT:   tensor.empty
// CHECK:       vector.contract
// CHECK-LABEL: func.func @matmul_narrow_b
// CHECK-NOT:   tensor.empty
// CHECK:       vector.contract
// CHECK-LABEL: func.func @matmul_small_b
// CHECK:       scf.forall
// CHECK-NOT:   tensor.empty
// CHECK:       vector.contract
// CHECK-SAME:    vector<8x1xf32>, vector<1x32xf32> into vector<8x32xf32>
// CHECK-LABEL: func.func @matmul_one_m_tile
// CHECK-NOT:   tensor.empty
// CHECK:       vector.contract
func.func @matmul_transpose_b(%a: tensor<64x128xf32>, %b: tensor<256x128xf32>,
                              %c: tensor<64x256xf32>) -> tensor<64x256xf32> {
  %r = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>,
                                      affine_map<(m, n, k) -> (n, k)>,
                                      affine_map<(m, n, k) -> (m, n)>]
                     ins(%a, %b : tensor<64x128xf32>, tensor<256x128xf32>)
                     outs(%c : tensor<64x256xf32>) -> tensor<64x256xf32>
  return %r : tensor<64x256xf32>
}
func.func @matmul_narrow_b(%a: tensor<64x128xf32>, %b: tensor<128x192xf32>,
                           %c: tensor<64x192xf32>) -> tensor<64x192xf32> {
  %r = linalg.matmul ins(%a, %b : tensor<64x128xf32>, tensor<128x192xf32>)
                     outs(%c : tensor<64x192xf32>) -> tensor<64x192xf32>
  return %r : tensor<64x192xf32>
}
func.func @matmul_small_b(%a: tensor<128x256xf32>, %b: tensor<256x256xf32>,
                          %c: tensor<128x256xf32>) -> tensor<128x256xf32> {
  %r = linalg.matmul ins(%a, %b : tensor<128x256xf32>, tensor<256x256xf32>)
                     outs(%c : tensor<128x256xf32>) -> tensor<128x256xf32>
  return %r : tensor<128x256xf32>
}
func.func @matmul_one_m_tile(%a: tensor<8x128xf32>, %b: tensor<128x256xf32>,
                             %c: tensor<8x256xf32>) -> tensor<8x256xf32> {
  %r = linalg.matmul ins(%a, %b : tensor<8x128xf32>, tensor<128x256xf32>)
                     outs(%c : tensor<8x256xf32>) -> tensor<8x256xf32>
  return %r : tensor<8x256xf32>
}

// -----

// One row of A against a row-major B (batch-1 fully connected layer): the
// GEMV strategy, whatever mr, nr and the task tiles say. Tasks of 2048
// columns (two for 4096), K in steps of 4 rows outside register tiles of
// 1 x 128 (8 vectors), so each row of B is read contiguously across the
// task and the output row is updated once per 4 rows; B is not packed.
// 1000 columns have no divisor on a vector boundary: one column task. Its
// rows of B (4000 bytes) are not whole 64-byte vectors, so the register
// tiles take 8-lane vectors (1 x 64 columns as 8 contractions of 8 lanes,
// none of whose loads spans two cache lines), the edge split into 32 and 8
// columns (whole 8-lane vectors in power-of-two groups); from 2^18
// multiply-adds such a GEMV is split along K instead (splitGemvDepth): 2
// tasks of 2048 whole rows of B (A and B reshaped, no copies) write partial
// rows padded to 1008 columns, which an elementwise sum adds into the
// output. A transposed B keeps the matmul tiles.
// CHECK-LABEL: func.func @gemv
// CHECK:       scf.forall (%{{.*}}) = (0) to (4096) step (2048)
// CHECK:         scf.for %{{.*}} = %c0 to %c512 step %c4
// CHECK-NEXT:      tensor.extract_slice
// CHECK:           scf.for %{{.*}} = %c0 to %c2048 step %c128
// CHECK:             scf.for %{{.*}} = %c0 to %c4 step %c1
// CHECK:               vector.contract
// CHECK-SAME:            vector<1x1xf32>, vector<1x128xf32> into vector<1x128xf32>
// CHECK-NOT:   tensor.empty
// CHECK-LABEL: func.func @gemv_odd
// CHECK-NOT:   scf.forall
// CHECK:       scf.for %{{.*}} = %c0 to %c64 step %c4
// CHECK:         scf.for %{{.*}} = %c0 to %c960 step %c64
// CHECK:           scf.for %{{.*}} = %c0 to %c4 step %c1
// CHECK-COUNT-8:     vector.transfer_read {{.*}} : tensor<1x64xf32>, vector<1x8xf32>
// CHECK-COUNT-8:     vector<1x1xf32>, vector<1x8xf32> into vector<1x8xf32>
// CHECK-COUNT-8:     vector.transfer_write {{.*}} : vector<1x8xf32>, tensor<1x64xf32>
// CHECK:         scf.for %{{.*}} = %c0 to %c4 step %c1
// CHECK-COUNT-4:   vector<1x1xf32>, vector<1x8xf32> into vector<1x8xf32>
// CHECK:         scf.for %{{.*}} = %c0 to %c4 step %c1
// CHECK:           vector<1x1xf32>, vector<1x8xf32> into vector<1x8xf32>
// CHECK-NOT:     vector<16xf32>
// CHECK-NOT:     vector<1x16xf32>
// CHECK-LABEL: func.func @gemv_split_k
// CHECK:       tensor.collapse_shape %{{.*}} {{\[\[}}0, 1]] : tensor<1x4096xf32> into tensor<4096xf32>
// CHECK:       tensor.expand_shape %{{.*}} {{\[\[}}0, 1, 2]] output_shape [2, 1, 2048]
// CHECK:       tensor.expand_shape %{{.*}} {{\[\[}}0, 1], [2]] output_shape [2, 2048, 1000]
// CHECK:       tensor.empty() : tensor<2x1x1008xf32>
// CHECK:       scf.forall (%{{.*}}) in (2)
// CHECK:         scf.for %{{.*}} = %c0 to %c2048 step %c4
// CHECK:           scf.for %{{.*}} = %c0 to %c960 step %c64
// CHECK-COUNT-8:       vector<1x1x1xf32>, vector<1x1x8xf32> into vector<1x1x8xf32>
// CHECK-COUNT-4:     vector<1x1x1xf32>, vector<1x1x8xf32> into vector<1x1x8xf32>
// CHECK:             vector<1x1x1xf32>, vector<1x1x8xf32> into vector<1x1x8xf32>
// CHECK:       scf.forall.in_parallel
// CHECK:       scf.for %{{.*}} = %c0 to %c992 step %c16
// CHECK-COUNT-2: arith.addf %{{.*}}, %{{.*}} : vector<1x16xf32>
// CHECK-NOT:     arith.addf %{{.*}}, %{{.*}} : vector<1x16xf32>
// CHECK-COUNT-2: arith.addf %{{.*}}, %{{.*}} : vector<1x8xf32>
// CHECK-NOT:     arith.addf
// CHECK-NOT:   scf.forall
// CHECK-LABEL: func.func @gemv_transpose_b
// CHECK:       scf.for %{{.*}} = %c0 to %c512 step %c256
// CHECK:         vector<1x1xf32>, vector<32x1xf32> into vector<1x32xf32>
func.func @gemv(%a: tensor<1x512xf32>, %b: tensor<512x4096xf32>) -> tensor<1x4096xf32> {
  %cst = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x4096xf32>
  %f = linalg.fill ins(%cst : f32) outs(%e : tensor<1x4096xf32>) -> tensor<1x4096xf32>
  %r = linalg.matmul ins(%a, %b : tensor<1x512xf32>, tensor<512x4096xf32>)
                     outs(%f : tensor<1x4096xf32>) -> tensor<1x4096xf32>
  return %r : tensor<1x4096xf32>
}
func.func @gemv_odd(%a: tensor<1x64xf32>, %b: tensor<64x1000xf32>, %c: tensor<1x1000xf32>) -> tensor<1x1000xf32> {
  %r = linalg.matmul ins(%a, %b : tensor<1x64xf32>, tensor<64x1000xf32>)
                     outs(%c : tensor<1x1000xf32>) -> tensor<1x1000xf32>
  return %r : tensor<1x1000xf32>
}
func.func @gemv_split_k(%a: tensor<1x4096xf32>, %b: tensor<4096x1000xf32>) -> tensor<1x1000xf32> {
  %cst = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x1000xf32>
  %f = linalg.fill ins(%cst : f32) outs(%e : tensor<1x1000xf32>) -> tensor<1x1000xf32>
  %r = linalg.matmul ins(%a, %b : tensor<1x4096xf32>, tensor<4096x1000xf32>)
                     outs(%f : tensor<1x1000xf32>) -> tensor<1x1000xf32>
  return %r : tensor<1x1000xf32>
}
func.func @gemv_transpose_b(%a: tensor<1x512xf32>, %b: tensor<1000x512xf32>, %c: tensor<1x1000xf32>) -> tensor<1x1000xf32> {
  %r = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>,
                                      affine_map<(m, n, k) -> (n, k)>,
                                      affine_map<(m, n, k) -> (m, n)>]
                     ins(%a, %b : tensor<1x512xf32>, tensor<1000x512xf32>)
                     outs(%c : tensor<1x1000xf32>) -> tensor<1x1000xf32>
  return %r : tensor<1x1000xf32>
}

// -----

// Edge tiles are peeled: 20 rows = 2 full register tiles of 8 and a static
// tile of 4; 40 columns = one tile of 32 and one of 8. No masks.
// CHECK-LABEL: func.func @matmul_edges
// CHECK-NOT:   vector.mask
// CHECK-DAG:   vector<8x1xf32>, vector<1x32xf32> into vector<8x32xf32>
// CHECK-DAG:   vector<4x1xf32>, vector<1x32xf32> into vector<4x32xf32>
// CHECK-DAG:   vector<8x1xf32>, vector<1x8xf32> into vector<8x8xf32>
// CHECK-DAG:   vector<4x1xf32>, vector<1x8xf32> into vector<4x8xf32>
// CHECK-NOT:   linalg.matmul
func.func @matmul_edges(%a: tensor<20x16xf32>, %b: tensor<16x40xf32>,
                        %c: tensor<20x40xf32>) -> tensor<20x40xf32> {
  %r = linalg.matmul ins(%a, %b : tensor<20x16xf32>, tensor<16x40xf32>)
                     outs(%c : tensor<20x40xf32>) -> tensor<20x40xf32>
  return %r : tensor<20x40xf32>
}

// -----

// Elementwise ops: a task per 1/16th of the rows, vectors of 16 along the
// inner dimension and a peeled static remainder (100 = 6 x 16 + 4).
// CHECK-LABEL: func.func @elementwise
// CHECK:       scf.forall (%{{.*}}) = (0) to (256) step (16)
// CHECK:         math.exp %{{.*}} : vector<1x16xf32>
// CHECK:         math.exp %{{.*}} : vector<1x4xf32>
// CHECK-NOT:   linalg.generic
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @elementwise(%x: tensor<256x100xf32>) -> tensor<256x100xf32> {
  %e = tensor.empty() : tensor<256x100xf32>
  %r = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<256x100xf32>) outs(%e : tensor<256x100xf32>) {
  ^bb0(%a: f32, %o: f32):
    %v = math.exp %a : f32
    linalg.yield %v : f32
  } -> tensor<256x100xf32>
  return %r : tensor<256x100xf32>
}

// -----

// An NCHW elementwise op at batch 1 (a bias + ReLU after a convolution):
// the unit batch loop is skipped and the 64 channels make the tasks (one
// task ran everything before).
// CHECK-LABEL: func.func @elementwise_batch1
// CHECK:       scf.forall (%{{.*}}) = (0) to (64) step (4)
// CHECK:         arith.maximumf %{{.*}} : vector<1x1x1x16xf32>
// CHECK:         arith.maximumf %{{.*}} : vector<1x1x1x7xf32>
#nchw = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#chan = affine_map<(d0, d1, d2, d3) -> (d1)>
func.func @elementwise_batch1(%x: tensor<1x64x55x55xf32>, %b: tensor<64xf32>) -> tensor<1x64x55x55xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x64x55x55xf32>
  %r = linalg.generic {indexing_maps = [#nchw, #chan, #nchw], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%x, %b : tensor<1x64x55x55xf32>, tensor<64xf32>) outs(%e : tensor<1x64x55x55xf32>) {
  ^bb0(%a: f32, %c: f32, %o: f32):
    %s = arith.addf %a, %c : f32
    %v = arith.maximumf %s, %zero : f32
    linalg.yield %v : f32
  } -> tensor<1x64x55x55xf32>
  return %r : tensor<1x64x55x55xf32>
}

// -----

// 1000 channels (SqueezeNet's last convolution): tasks of a divisor of the
// extent (100), not of 63 with a partial last task, whose dynamic sizes
// would keep the op scalar.
// CHECK-LABEL: func.func @elementwise_divisor_tiles
// CHECK:       scf.forall (%{{.*}}) = (0) to (1000) step (100)
// CHECK:         arith.maximumf %{{.*}} : vector<1x1x1x13xf32>
#nchw1 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
func.func @elementwise_divisor_tiles(%x: tensor<1x1000x13x13xf32>) -> tensor<1x1000x13x13xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x1000x13x13xf32>
  %r = linalg.generic {indexing_maps = [#nchw1, #nchw1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%x : tensor<1x1000x13x13xf32>) outs(%e : tensor<1x1000x13x13xf32>) {
  ^bb0(%a: f32, %o: f32):
    %v = arith.maximumf %a, %zero : f32
    linalg.yield %v : f32
  } -> tensor<1x1000x13x13xf32>
  return %r : tensor<1x1000x13x13xf32>
}

// -----

// SqueezeNet's 3x3 expand convolution at 13x13 as the GEMM convToGemm
// makes of it (256 x 169 x 576, one image): one 256x256 task by default,
// which ran the whole GEMM on one thread; split by rows into 8 tasks of 32.
// DEFAULT-LABEL: func.func @gemm_few_tasks
// DEFAULT:       scf.forall (%{{.*}}) = (0) to (256) step (32)
// DEFAULT:         vector.contract
// DEFAULT-SAME:      vector<8x1xf32>, vector<1x32xf32> into vector<8x32xf32>
func.func @gemm_few_tasks(%w: tensor<256x576xf32>, %col: tensor<576x169xf32>) -> tensor<256x169xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<256x169xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<256x169xf32>) -> tensor<256x169xf32>
  %r = linalg.matmul ins(%w, %col : tensor<256x576xf32>, tensor<576x169xf32>)
                     outs(%f : tensor<256x169xf32>) -> tensor<256x169xf32>
  return %r : tensor<256x169xf32>
}

// -----

// Convolutions at batch 8: mnist-8's second one (a whole-batch im2col
// buffer of 313 k elements) is one batched GEMM, one parallel region with
// a task per image and tile; a 3x3 64->64 layer at 56x56 (14.5 M elements)
// still goes one image at a time, its im2col buffer one image's.
// DEFAULT-LABEL: func.func @conv_batched
// DEFAULT-NOT:   -> (tensor<8x16x196xf32>)
// DEFAULT:       tensor<8x8x5x5x14x14xf32> into tensor<8x200x196xf32>
// DEFAULT:       scf.forall (%{{.*}}, %{{.*}}) = (0, 0) to (8, 196) step (1, 98)
// DEFAULT:         vector.contract
// DEFAULT-LABEL: func.func @conv_per_image
// DEFAULT:       scf.for %{{.*}} = %c0 to %c8 step %c1 iter_args(%{{.*}}) -> (tensor<8x64x3136xf32>)
// DEFAULT:         tensor.extract_slice %{{.*}}[%{{.*}}, 0, 0, 0] [1, 64, 58, 58]
// DEFAULT:         scf.forall
// DEFAULT:           vector.contract
func.func @conv_batched(%x: tensor<8x8x18x18xf32>, %w: tensor<16x8x5x5xf32>) -> tensor<8x16x14x14xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<8x16x14x14xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<8x16x14x14xf32>) -> tensor<8x16x14x14xf32>
  %r = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%x, %w : tensor<8x8x18x18xf32>, tensor<16x8x5x5xf32>) outs(%f : tensor<8x16x14x14xf32>) -> tensor<8x16x14x14xf32>
  return %r : tensor<8x16x14x14xf32>
}
func.func @conv_per_image(%x: tensor<8x64x58x58xf32>, %w: tensor<64x64x3x3xf32>) -> tensor<8x64x56x56xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<8x64x56x56xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<8x64x56x56xf32>) -> tensor<8x64x56x56xf32>
  %r = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%x, %w : tensor<8x64x58x58xf32>, tensor<64x64x3x3xf32>) outs(%f : tensor<8x64x56x56xf32>) -> tensor<8x64x56x56xf32>
  return %r : tensor<8x64x56x56xf32>
}

// -----

// A row reduction: vectorised into a multi-reduction over 16 lanes.
// CHECK-LABEL: func.func @row_sum
// CHECK:       vector.multi_reduction <add>, %{{.*}} [1] : vector<1x16xf32> to vector<1xf32>
// CHECK-NOT:   linalg.generic
#id = affine_map<(d0, d1) -> (d0, d1)>
#rows = affine_map<(d0, d1) -> (d0)>
func.func @row_sum(%x: tensor<8x64xf32>, %init: tensor<8xf32>) -> tensor<8xf32> {
  %r = linalg.generic {indexing_maps = [#id, #rows], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<8x64xf32>) outs(%init : tensor<8xf32>) {
  ^bb0(%a: f32, %s: f32):
    %v = arith.addf %a, %s : f32
    linalg.yield %v : f32
  } -> tensor<8xf32>
  return %r : tensor<8xf32>
}

// -----

// NHWC convolutions decompose into vectorised 1-D convolutions.
// CHECK-LABEL: func.func @conv_nhwc
// CHECK:       scf.forall
// CHECK:       vector.contract
// CHECK-NOT:   linalg.conv_2d_nhwc_hwcf
func.func @conv_nhwc(%x: tensor<1x10x34x8xf32>, %w: tensor<3x3x8x16xf32>,
                     %o: tensor<1x8x32x16xf32>) -> tensor<1x8x32x16xf32> {
  %r = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>,
                                 strides = dense<1> : tensor<2xi64>}
      ins(%x, %w : tensor<1x10x34x8xf32>, tensor<3x3x8x16xf32>)
      outs(%o : tensor<1x8x32x16xf32>) -> tensor<1x8x32x16xf32>
  return %r : tensor<1x8x32x16xf32>
}

// -----

// Dynamic shapes stay scalar (no masked vectors) but are still tiled.
// CHECK-LABEL: func.func @dynamic
// CHECK:       linalg.generic
// CHECK-SAME:    tensor<1x?xf32>
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @dynamic(%x: tensor<?x?xf32>) -> tensor<?x?xf32> {
  %r = linalg.generic {indexing_maps = [#id], iterator_types = ["parallel", "parallel"]}
      outs(%x : tensor<?x?xf32>) {
  ^bb0(%o: f32):
    %v = arith.addf %o, %o : f32
    linalg.yield %v : f32
  } -> tensor<?x?xf32>
  return %r : tensor<?x?xf32>
}

// -----

// Ops that read or write i1 memory stay scalar (memory holds a byte per i1,
// vector<Nxi1> transfers would pack bits) but still get their tasks.
// CHECK-LABEL: func.func @bool_result
// CHECK:       scf.forall (%{{.*}}) = (0) to (256) step (16)
// CHECK:         linalg.generic
// CHECK-SAME:      outs(%{{.*}} : tensor<16x100xi1>)
// CHECK-NOT:   vector.transfer
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @bool_result(%x: tensor<256x100xf32>) -> tensor<256x100xi1> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<256x100xi1>
  %r = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<256x100xf32>) outs(%e : tensor<256x100xi1>) {
  ^bb0(%a: f32, %o: i1):
    %v = arith.cmpf ogt, %a, %zero : f32
    linalg.yield %v : i1
  } -> tensor<256x100xi1>
  return %r : tensor<256x100xi1>
}

// -----

// A strided 1-D pooling with a small window and few columns is vectorised
// (one operation per filter tap and output column).
// CHECK-LABEL: func.func @pool_small
// CHECK:       arith.maximumf {{.*}} : vector<
// CHECK-NOT:   linalg.pooling_ncw_max
func.func @pool_small(%x: tensor<1x1x64xf32>) -> tensor<1x1x15xf32> {
  %cst = arith.constant 0xFF800000 : f32
  %w = tensor.empty() : tensor<8xf32>
  %e = tensor.empty() : tensor<1x1x15xf32>
  %f = linalg.fill ins(%cst : f32) outs(%e : tensor<1x1x15xf32>) -> tensor<1x1x15xf32>
  %r = linalg.pooling_ncw_max {dilations = dense<1> : tensor<1xi64>, strides = dense<4> : tensor<1xi64>}
         ins(%x, %w : tensor<1x1x64xf32>, tensor<8xf32>) outs(%f : tensor<1x1x15xf32>) -> tensor<1x1x15xf32>
  return %r : tensor<1x1x15xf32>
}

// -----

// A wide window over many strided columns would unroll into 200 x 21821
// operations (graphc ran for minutes on ONNX's
// test_MaxPool1d_stride_padding_dilation): it stays a scalar loop nest.
// CHECK-LABEL: func.func @pool_wide_strided
// CHECK:       linalg.pooling_ncw_max
// CHECK-NOT:   vector.
func.func @pool_wide_strided(%x: tensor<1x1x220200xf32>) -> tensor<1x1x21821xf32> {
  %cst = arith.constant 0xFF800000 : f32
  %w = tensor.empty() : tensor<200xf32>
  %e = tensor.empty() : tensor<1x1x21821xf32>
  %f = linalg.fill ins(%cst : f32) outs(%e : tensor<1x1x21821xf32>) -> tensor<1x1x21821xf32>
  %r = linalg.pooling_ncw_max {dilations = dense<10> : tensor<1xi64>, strides = dense<10> : tensor<1xi64>}
         ins(%x, %w : tensor<1x1x220200xf32>, tensor<200xf32>) outs(%f : tensor<1x1x21821xf32>) -> tensor<1x1x21821xf32>
  return %r : tensor<1x1x21821xf32>
}

// -----

// A reduction whose value reads no input element (the divisor of an average
// pool once the tensor of ones is fused away: out + 1 per window element)
// stays scalar: MLIR 22's vectoriser added the 1.0 once per vector instead
// of once per element, so 2x2x2 windows counted 4.
// CHECK-LABEL: func.func @count_windows
// CHECK:       linalg.generic
// CHECK:         arith.addf %{{.*}}, %{{.*}} : f32
// CHECK-NOT:   vector.multi_reduction
func.func @count_windows(%w: tensor<2x2x2xf32>) -> tensor<1x1x2x2x2xf32> {
  %zero = arith.constant 0.0 : f32
  %one = arith.constant 1.0 : f32
  %e = tensor.empty() : tensor<1x1x2x2x2xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x1x2x2x2xf32>) -> tensor<1x1x2x2x2xf32>
  %r = linalg.generic {
         indexing_maps = [affine_map<(d0, d1, d2, d3, d4, d5, d6, d7) -> (d5, d6, d7)>,
                          affine_map<(d0, d1, d2, d3, d4, d5, d6, d7) -> (d0, d1, d2, d3, d4)>],
         iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel",
                           "reduction", "reduction", "reduction"]}
         ins(%w : tensor<2x2x2xf32>) outs(%f : tensor<1x1x2x2x2xf32>) {
  ^bb0(%in: f32, %out: f32):
    %s = arith.addf %out, %one : f32
    linalg.yield %s : f32
  } -> tensor<1x1x2x2x2xf32>
  return %r : tensor<1x1x2x2x2xf32>
}

// -----

// Columns left after the whole nr tiles go in power-of-two groups of
// vectors: with 64-column tiles, 176 columns are 2 x 64 + 32 + 16, never
// one 48-column (3-vector) tile, which LLVM loads and stores one element at
// a time (the convolution models' 6x64 slowdown). A 6-row tile on 64 rows
// leaves a 4-row edge.
// WIDE-LABEL: func.func @wide_edges
// WIDE:         vector<6x1xf32>, vector<1x64xf32> into vector<6x64xf32>
// WIDE:         vector<4x1xf32>, vector<1x64xf32> into vector<4x64xf32>
// WIDE:         vector<6x1xf32>, vector<1x32xf32> into vector<6x32xf32>
// WIDE:         vector<4x1xf32>, vector<1x32xf32> into vector<4x32xf32>
// WIDE:         vector<6x1xf32>, vector<1x16xf32> into vector<6x16xf32>
// WIDE:         vector<4x1xf32>, vector<1x16xf32> into vector<4x16xf32>
// WIDE-NOT:     vector<1x48xf32>
func.func @wide_edges(%a: tensor<64x256xf32>, %b: tensor<256x176xf32>, %c: tensor<64x176xf32>) -> tensor<64x176xf32> {
  %r = linalg.matmul ins(%a, %b : tensor<64x256xf32>, tensor<256x176xf32>)
                     outs(%c : tensor<64x176xf32>) -> tensor<64x176xf32>
  return %r : tensor<64x176xf32>
}

// -----

// A transpose gets 16x16 tiles (vector-width=16): whole rows of the input
// are read and transposed in registers (vector.shuffle), not gathered one
// element per lane. The task's 49 rows are 3 tiles and one peeled row whose
// 1x16 tile keeps the transposed read.
// CHECK-LABEL: func.func @transpose_blocked
// CHECK:         scf.forall
// CHECK:           scf.for {{.*}} step %c16
// CHECK:             scf.for {{.*}} step %c16
// CHECK:               vector.transfer_read {{.*}} {in_bounds = [true, true]} : tensor<16x16xf32>, vector<16x16xf32>
// CHECK-NOT:           permutation_map
// CHECK-COUNT-64:      vector.shuffle
// CHECK:               vector.transfer_write {{.*}} : vector<16x16xf32>, tensor<16x16xf32>
// CHECK:           vector.transfer_read {{.*}} permutation_map = {{.*}} : tensor<16x1xf32>, vector<1x16xf32>
func.func @transpose_blocked(%a: tensor<512x784xf32>) -> tensor<784x512xf32> {
  %e = tensor.empty() : tensor<784x512xf32>
  %t = linalg.transpose ins(%a : tensor<512x784xf32>) outs(%e : tensor<784x512xf32>) permutation = [1, 0]
  return %t : tensor<784x512xf32>
}

// -----

// The default register tile follows the shape (chooseGemmTile): a large
// matmul whose N is a multiple of 64 gets 6x64 tiles, K blocks of up to 1024
// balanced (2048 = 2 x 1024) and its K loop marked for a 4-fold unroll (done
// by graphc-cpu-hoist-vector-transfers); K under 512 or N not a multiple of
// 64 (a convolution GEMM's 196 output pixels) keep 8x32 and K blocks of
// 256. Forced options win (the CHECK run: mr=8 nr=32).
// DEFAULT-LABEL: func.func @gemm_wide
// DEFAULT:         scf.for %{{.*}} = %c0 to %c2048 step %c1024
// DEFAULT:           scf.for
// DEFAULT:             vector.contract
// DEFAULT-SAME:          vector<6x1xf32>, vector<1x64xf32> into vector<6x64xf32>
// DEFAULT:           } {__graphc_cpu_unroll_k = 4 : i64}
// DEFAULT-NOT:     into vector<8x32xf32>
// DEFAULT-LABEL: func.func @gemm_short_k
// DEFAULT:         scf.for %{{.*}} = %c0 to %c384 step %c256
// DEFAULT:           vector<8x1xf32>, vector<1x32xf32> into vector<8x32xf32>
// DEFAULT-NOT:     __graphc_cpu_unroll_k
// DEFAULT-LABEL: func.func @gemm_pixels
// DEFAULT:           vector<8x1xf32>, vector<1x32xf32> into vector<8x32xf32>
// DEFAULT-NOT:     into vector<6x64xf32>
// CHECK-LABEL: func.func @gemm_wide
// CHECK:           vector<8x1xf32>, vector<1x32xf32> into vector<8x32xf32>
// CHECK-NOT:       into vector<6x64xf32>
func.func @gemm_wide(%a: tensor<256x2048xf32>, %b: tensor<2048x512xf32>, %c: tensor<256x512xf32>) -> tensor<256x512xf32> {
  %r = linalg.matmul ins(%a, %b : tensor<256x2048xf32>, tensor<2048x512xf32>)
                     outs(%c : tensor<256x512xf32>) -> tensor<256x512xf32>
  return %r : tensor<256x512xf32>
}
func.func @gemm_short_k(%a: tensor<256x384xf32>, %b: tensor<384x512xf32>, %c: tensor<256x512xf32>) -> tensor<256x512xf32> {
  %r = linalg.matmul ins(%a, %b : tensor<256x384xf32>, tensor<384x512xf32>)
                     outs(%c : tensor<256x512xf32>) -> tensor<256x512xf32>
  return %r : tensor<256x512xf32>
}
func.func @gemm_pixels(%a: tensor<256x1024xf32>, %b: tensor<1024x196xf32>, %c: tensor<256x196xf32>) -> tensor<256x196xf32> {
  %r = linalg.matmul ins(%a, %b : tensor<256x1024xf32>, tensor<1024x196xf32>)
                     outs(%c : tensor<256x196xf32>) -> tensor<256x196xf32>
  return %r : tensor<256x196xf32>
}

// -----

// Task columns follow the shape with the 6x64 tile when a task's K block
// of A is past 1 MiB (wideTaskColumns): 512 where 512 divides N and leaves
// at least 4 tasks, else the 128 columns other tiles keep. 2048 x 2048 x
// 1024: 4 x 4 tasks of 512 x 512. 2048 x 2048 x 512 (A blocks of 512 x
// 512, 1 MiB) and 128 rows (A blocks of 128 x 1024) keep 128 columns; so
// does N = 768 (no 512 divisor) and 8x32 tiles (K under 512).
// DEFAULT-LABEL: func.func @tasks_square
// DEFAULT:         scf.forall (%{{.*}}, %{{.*}}) = (0, 0) to (2048, 2048) step (512, 512)
// DEFAULT:           into vector<6x64xf32>
// DEFAULT-LABEL: func.func @tasks_small_a_block
// DEFAULT:         scf.forall (%{{.*}}, %{{.*}}) = (0, 0) to (2048, 2048) step (512, 128)
// DEFAULT:           into vector<6x64xf32>
// DEFAULT-LABEL: func.func @tasks_one_row_task
// DEFAULT:         scf.forall (%{{.*}}) = (0) to (512) step (128)
// DEFAULT:           into vector<6x64xf32>
// DEFAULT-LABEL: func.func @tasks_divisor
// DEFAULT:         scf.forall (%{{.*}}) = (0) to (768) step (128)
// DEFAULT:           into vector<6x64xf32>
// DEFAULT-LABEL: func.func @tasks_narrow_tile
// DEFAULT:         scf.forall (%{{.*}}, %{{.*}}) = (0, 0) to (512, 2048) step (256, 128)
// DEFAULT:           into vector<8x32xf32>
func.func @tasks_square(%a: tensor<2048x1024xf32>, %b: tensor<1024x2048xf32>, %c: tensor<2048x2048xf32>) -> tensor<2048x2048xf32> {
  %r = linalg.matmul ins(%a, %b : tensor<2048x1024xf32>, tensor<1024x2048xf32>)
                     outs(%c : tensor<2048x2048xf32>) -> tensor<2048x2048xf32>
  return %r : tensor<2048x2048xf32>
}
func.func @tasks_small_a_block(%a: tensor<2048x512xf32>, %b: tensor<512x2048xf32>, %c: tensor<2048x2048xf32>) -> tensor<2048x2048xf32> {
  %r = linalg.matmul ins(%a, %b : tensor<2048x512xf32>, tensor<512x2048xf32>)
                     outs(%c : tensor<2048x2048xf32>) -> tensor<2048x2048xf32>
  return %r : tensor<2048x2048xf32>
}
func.func @tasks_one_row_task(%a: tensor<128x2048xf32>, %b: tensor<2048x512xf32>, %c: tensor<128x512xf32>) -> tensor<128x512xf32> {
  %r = linalg.matmul ins(%a, %b : tensor<128x2048xf32>, tensor<2048x512xf32>)
                     outs(%c : tensor<128x512xf32>) -> tensor<128x512xf32>
  return %r : tensor<128x512xf32>
}
func.func @tasks_divisor(%a: tensor<512x768xf32>, %b: tensor<768x768xf32>, %c: tensor<512x768xf32>) -> tensor<512x768xf32> {
  %r = linalg.matmul ins(%a, %b : tensor<512x768xf32>, tensor<768x768xf32>)
                     outs(%c : tensor<512x768xf32>) -> tensor<512x768xf32>
  return %r : tensor<512x768xf32>
}
func.func @tasks_narrow_tile(%a: tensor<512x384xf32>, %b: tensor<384x2048xf32>, %c: tensor<512x2048xf32>) -> tensor<512x2048xf32> {
  %r = linalg.matmul ins(%a, %b : tensor<512x384xf32>, tensor<384x2048xf32>)
                     outs(%c : tensor<512x2048xf32>) -> tensor<512x2048xf32>
  return %r : tensor<512x2048xf32>
}
