// Grouped 3x3 convolutions on the direct kernels (docs/design/conv-codegen.md,
// "Grouped convolutions on the direct kernels"), checked against NumPy
// (Inputs/reference.py) with OpenMP tasks at vector width 16 and serially at
// 8, and their IR pinned:
// * the row kernel of graphc-cpu-direct-conv, all groups in one task loop,
//   for whole vectors of output channels per group: @row_g2_ep (2 groups
//   of 5 -> 16 channels, padding 1, 9 columns, with a bias per channel, a
//   scale per group, a residual and a ReLU applied in registers),
//   @row_g3_s2 (3 groups of 3 -> 16, stride 2, asymmetric padding, batch
//   2), @row_g2_b3 (2 groups of 7 -> 16, 13 columns, batch 3);
// * the small-group plane kernel of graphc-cpu-tile-and-vectorize for few
//   output channels per group: @small_g4_ep (4 groups of 3 -> 4, batch 2,
//   19 columns: 16 + 2 + 1 or 8 + 8 + 2 + 1, the epilogue), @small_g4_s2
//   (stride 2, asymmetric padding, 21 columns), @small_g2_8 (2 groups of 3
//   -> 8, dilation 2 along the rows, batch 3: the row kernel at 8 lanes,
//   the plane kernel at 16);
// * neither for 12 output channels per group (@gemm_g3_ep, 3 groups of 4
//   -> 12, the epilogue): one im2col + GEMM per group.
// REQUIRES: libomp
// RUN: graph-opt %s --graphc-cpu-codegen="vector-width=16 direct-conv=3x3,strided min-parallel-work=0" > %t.mlir
// RUN: graph-opt %s --graphc-cpu-codegen="vector-width=8 direct-conv=3x3,strided openmp=0" > %t.serial.mlir
// RUN: for f in %t.mlir %t.serial.mlir; do \
// RUN:   mlir-runner $f -e main_row_g2_ep -entry-point-result=void \
// RUN:     -shared-libs=%mlir_c_runner_utils,%mlir_runner_utils,%libomp > %t.row_g2_ep \
// RUN:   && %numpy_python %S/Inputs/reference.py grouped_epilogue 1,10,6,9,32,3,3,1,1,1,1,1,1,1,1,2 %t.row_g2_ep \
// RUN:   && mlir-runner $f -e main_row_g3_s2 -entry-point-result=void \
// RUN:     -shared-libs=%mlir_c_runner_utils,%mlir_runner_utils,%libomp > %t.row_g3_s2 \
// RUN:   && %numpy_python %S/Inputs/reference.py conv_grouped 2,9,9,11,48,3,3,2,2,1,1,1,0,1,2,3 %t.row_g3_s2 \
// RUN:   && mlir-runner $f -e main_row_g2_b3 -entry-point-result=void \
// RUN:     -shared-libs=%mlir_c_runner_utils,%mlir_runner_utils,%libomp > %t.row_g2_b3 \
// RUN:   && %numpy_python %S/Inputs/reference.py conv_grouped 3,14,5,13,32,3,3,1,1,1,1,1,1,1,1,2 %t.row_g2_b3 \
// RUN:   && mlir-runner $f -e main_small_g4_ep -entry-point-result=void \
// RUN:     -shared-libs=%mlir_c_runner_utils,%mlir_runner_utils,%libomp > %t.small_g4_ep \
// RUN:   && %numpy_python %S/Inputs/reference.py grouped_epilogue 2,12,7,19,16,3,3,1,1,1,1,1,1,1,1,4 %t.small_g4_ep \
// RUN:   && mlir-runner $f -e main_small_g4_s2 -entry-point-result=void \
// RUN:     -shared-libs=%mlir_c_runner_utils,%mlir_runner_utils,%libomp > %t.small_g4_s2 \
// RUN:   && %numpy_python %S/Inputs/reference.py conv_grouped 1,12,10,21,16,3,3,2,2,1,1,1,1,0,1,4 %t.small_g4_s2 \
// RUN:   && mlir-runner $f -e main_small_g2_8 -entry-point-result=void \
// RUN:     -shared-libs=%mlir_c_runner_utils,%mlir_runner_utils,%libomp > %t.small_g2_8 \
// RUN:   && %numpy_python %S/Inputs/reference.py grouped_epilogue 3,6,6,17,16,3,3,1,1,2,1,2,1,2,1,2 %t.small_g2_8 \
// RUN:   && mlir-runner $f -e main_gemm_g3_ep -entry-point-result=void \
// RUN:     -shared-libs=%mlir_c_runner_utils,%mlir_runner_utils,%libomp > %t.gemm_g3_ep \
// RUN:   && %numpy_python %S/Inputs/reference.py grouped_epilogue 2,12,5,7,36,3,3,1,1,1,1,1,1,1,1,3 %t.gemm_g3_ep \
// RUN:   || exit 1; done | FileCheck %s --check-prefix=NUM
// NUM:      grouped_epilogue OK, 1728 values, max error 0.0
// NUM-NEXT: conv_grouped OK, 2880 values, max error 0.0
// NUM-NEXT: conv_grouped OK, 6240 values, max error 0.0
// NUM-NEXT: grouped_epilogue OK, 4256 values, max error 0.0
// NUM-NEXT: conv_grouped OK, 880 values, max error 0.0
// NUM-NEXT: grouped_epilogue OK, 4896 values, max error 0.0
// NUM-NEXT: grouped_epilogue OK, 2520 values, max error 0.0
// NUM-NEXT: grouped_epilogue OK, 1728 values, max error 0.0
// NUM-NEXT: conv_grouped OK, 2880 values, max error 0.0
// NUM-NEXT: conv_grouped OK, 6240 values, max error 0.0
// NUM-NEXT: grouped_epilogue OK, 4256 values, max error 0.0
// NUM-NEXT: conv_grouped OK, 880 values, max error 0.0
// NUM-NEXT: grouped_epilogue OK, 4896 values, max error 0.0
// NUM-NEXT: grouped_epilogue OK, 2520 values, max error 0.0
//
// The row kernel (8 lanes: blocks of 16 channels): one task loop over
// (image, channel block, row) for both groups, the padding read through,
// the epilogue's per-channel bias read along the group's channels and its
// per-group scale broadcast, applied to the [16, 9] tile in registers.
// RUN: graph-opt %s --pass-pipeline="builtin.module(func.func(graphc-cpu-direct-conv{vector-width=8 convs=3x3,strided}))" \
// RUN: | FileCheck %s --check-prefix=ROW
// ROW-LABEL: func.func @row_g2_ep(
// ROW:       tensor.collapse_shape %arg0 {{.*}} : tensor<1x10x6x9xf32> into tensor<1x10x54xf32>
// ROW:       scf.forall ({{.*}}) in (1, 2, 6) shared_outs({{.*}}) -> (tensor<1x32x6x9xf32>)
// ROW:       vector.fma {{.*}} : vector<16xf32>
// ROW:       %[[G:.*]] = arith.divui %{{.*}}, %{{.*}} : index
// ROW:       %[[M:.*]] = arith.remui %{{.*}}, %{{.*}} : index
// ROW:       vector.transfer_read %arg2[%[[G]], %[[M]]], {{.*}} : tensor<2x16xf32>, vector<16xf32>
// ROW:       tensor.extract %arg3[%[[G]]] : tensor<2xf32>
// ROW:       arith.maximumf {{.*}} : vector<16x9xf32>
// ROW:       tensor.expand_shape {{.*}} : tensor<1x32x6x9xf32> into tensor<1x2x16x6x9xf32>
// ROW-NOT:   linalg.generic
// ROW:       return
// Stride 2, a row tile of 6 columns x 2 rows: (image, row chunk, block).
// ROW-LABEL: func.func @row_g3_s2(
// ROW:       scf.forall ({{.*}}) in (2, 1, 3) shared_outs({{.*}}) -> (tensor<2x48x5x6xf32>)
// ROW-NOT:   linalg.conv_2d_ngchw_gfchw
// ROW:       return
// ROW-LABEL: func.func @row_g2_b3(
// ROW:       scf.forall ({{.*}}) in (3, 2, 5) shared_outs({{.*}}) -> (tensor<3x32x5x13xf32>)
// ROW-NOT:   linalg.conv_2d_ngchw_gfchw
// ROW:       return
// Fewer output channels per group than a vector: left to the plane kernel.
// ROW-LABEL: func.func @small_g4_ep(
// ROW:       linalg.conv_2d_ngchw_gfchw
// ROW-LABEL: func.func @small_g2_8(
// ROW:       scf.forall ({{.*}}) in (3, 2, 3) shared_outs({{.*}}) -> (tensor<3x16x6x17xf32>)
// ROW-LABEL: func.func @gemm_g3_ep(
// ROW:       linalg.conv_2d_ngchw_gfchw
//
// The small-group plane kernel: one task per (image, group) padding the
// group's 3 input planes into one [3, 9, 21] tensor; per input channel and
// tap, 4 broadcast filter elements by 4 rows (16 FMAs); the epilogue per
// accumulator.
// RUN: graph-opt %s --pass-pipeline="builtin.module(func.func(graphc-cpu-tile-and-vectorize{vector-width=8}))" \
// RUN: | FileCheck %s --check-prefix=SMALL
// SMALL-LABEL: func.func @small_g4_ep(
// SMALL:       scf.forall ({{.*}}) in (2, 4) shared_outs({{.*}}) -> (tensor<2x16x7x19xf32>)
// SMALL:       tensor.empty() : tensor<3x9x21xf32>
// SMALL:       scf.for {{.*}} = %c0 to %c3 step %c1 iter_args(
// SMALL-COUNT-16: vector.fma {{.*}} : vector<8xf32>
// SMALL:       arith.maximumf {{.*}} : vector<8xf32>
// SMALL:       tensor.parallel_insert_slice {{.*}} : tensor<4x7x19xf32> into tensor<2x16x7x19xf32>
// SMALL-NOT:   linalg.generic
// SMALL:       return
// 12 output channels per group: a GEMM per group, then the epilogue.
// SMALL-LABEL: func.func @gemm_g3_ep(
// SMALL:       scf.for {{.*}} = %c0 to %c3 step %c1 iter_args({{.*}}) -> (tensor<2x36x5x7xf32>)
// SMALL:       vector.contract
// SMALL:       arith.maximumf
// SMALL:       return

#id4 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#id5 = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3, d4)>
#g = affine_map<(d0, d1, d2, d3, d4) -> (d1)>
#gm = affine_map<(d0, d1, d2, d3, d4) -> (d1, d2)>

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

func.func @row_g2_ep(%x: tensor<1x10x6x9xf32>, %w: tensor<32x5x3x3xf32>, %b: tensor<2x16xf32>, %s: tensor<2xf32>, %res: tensor<1x2x16x6x9xf32>) -> tensor<1x32x6x9xf32> {
  %zero = arith.constant 0.0 : f32
  %half = arith.constant 0.5 : f32
  %xp = tensor.pad %x low[0, 0, 1, 1] high[0, 0, 1, 1] {
  ^bb0(%i0: index, %i1: index, %i2: index, %i3: index):
    tensor.yield %zero : f32
  } : tensor<1x10x6x9xf32> to tensor<1x10x8x11xf32>
  %xg = tensor.expand_shape %xp [[0], [1, 2], [3], [4]] output_shape [1, 2, 5, 8, 11]
      : tensor<1x10x8x11xf32> into tensor<1x2x5x8x11xf32>
  %wg = tensor.expand_shape %w [[0, 1], [2], [3], [4]] output_shape [2, 16, 5, 3, 3]
      : tensor<32x5x3x3xf32> into tensor<2x16x5x3x3xf32>
  %e = tensor.empty() : tensor<1x2x16x6x9xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x2x16x6x9xf32>) -> tensor<1x2x16x6x9xf32>
  %y = linalg.conv_2d_ngchw_gfchw {dilations = dense<[1, 1]> : tensor<2xi64>,
                                   strides = dense<[1, 1]> : tensor<2xi64>}
      ins(%xg, %wg : tensor<1x2x5x8x11xf32>, tensor<2x16x5x3x3xf32>)
      outs(%f : tensor<1x2x16x6x9xf32>) -> tensor<1x2x16x6x9xf32>
  %e2 = tensor.empty() : tensor<1x2x16x6x9xf32>
  %r = linalg.generic {indexing_maps = [#id5, #gm, #g, #id5, #id5],
                       iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel"]}
      ins(%y, %b, %s, %res : tensor<1x2x16x6x9xf32>, tensor<2x16xf32>, tensor<2xf32>, tensor<1x2x16x6x9xf32>)
      outs(%e2 : tensor<1x2x16x6x9xf32>) {
  ^bb0(%vy: f32, %vb: f32, %vs: f32, %vr: f32, %o: f32):
    %a = arith.addf %vy, %vb : f32
    %s2 = arith.mulf %vs, %vs : f32
    %p = arith.mulf %a, %s2 : f32
    %q0 = arith.addf %p, %vr : f32
    %q = arith.subf %q0, %half : f32
    %relu = arith.maximumf %q, %zero : f32
    linalg.yield %relu : f32
  } -> tensor<1x2x16x6x9xf32>
  %c = tensor.collapse_shape %r [[0], [1, 2], [3], [4]]
      : tensor<1x2x16x6x9xf32> into tensor<1x32x6x9xf32>
  return %c : tensor<1x32x6x9xf32>
}

func.func @main_row_g2_ep() {
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c5 = arith.constant 5 : index
  %c6 = arith.constant 6 : index
  %c7 = arith.constant 7 : index
  %c9 = arith.constant 9 : index
  %c10 = arith.constant 10 : index
  %c32 = arith.constant 32 : index
  %ex = tensor.empty(%c1, %c10, %c6, %c9) : tensor<?x?x?x?xf32>
  %xd = call @init(%ex, %c7, %c3, %c5, %c2)
      : (tensor<?x?x?x?xf32>, index, index, index, index) -> tensor<?x?x?x?xf32>
  %ew = tensor.empty(%c32, %c5, %c3, %c3) : tensor<?x?x?x?xf32>
  %wd = call @init(%ew, %c5, %c2, %c3, %c7)
      : (tensor<?x?x?x?xf32>, index, index, index, index) -> tensor<?x?x?x?xf32>
  %xs = tensor.cast %xd : tensor<?x?x?x?xf32> to tensor<1x10x6x9xf32>
  %ws = tensor.cast %wd : tensor<?x?x?x?xf32> to tensor<32x5x3x3xf32>
  %er = tensor.empty(%c1, %c32, %c6, %c9) : tensor<?x?x?x?xf32>
  %rd = call @init(%er, %c3, %c7, %c2, %c5)
      : (tensor<?x?x?x?xf32>, index, index, index, index) -> tensor<?x?x?x?xf32>
  %eb = tensor.empty(%c1, %c32, %c1, %c1) : tensor<?x?x?x?xf32>
  %bd = call @init(%eb, %c2, %c5, %c7, %c3)
      : (tensor<?x?x?x?xf32>, index, index, index, index) -> tensor<?x?x?x?xf32>
  %es = tensor.empty(%c1, %c2, %c1, %c1) : tensor<?x?x?x?xf32>
  %sd = call @init(%es, %c7, %c3, %c5, %c2)
      : (tensor<?x?x?x?xf32>, index, index, index, index) -> tensor<?x?x?x?xf32>
  %r4 = tensor.cast %rd : tensor<?x?x?x?xf32> to tensor<1x32x6x9xf32>
  %rs = tensor.expand_shape %r4 [[0], [1, 2], [3], [4]] output_shape [1, 2, 16, 6, 9]
      : tensor<1x32x6x9xf32> into tensor<1x2x16x6x9xf32>
  %b4 = tensor.cast %bd : tensor<?x?x?x?xf32> to tensor<1x32x1x1xf32>
  %bf = tensor.collapse_shape %b4 [[0, 1, 2, 3]] : tensor<1x32x1x1xf32> into tensor<32xf32>
  %bs = tensor.expand_shape %bf [[0, 1]] output_shape [2, 16] : tensor<32xf32> into tensor<2x16xf32>
  %s4 = tensor.cast %sd : tensor<?x?x?x?xf32> to tensor<1x2x1x1xf32>
  %ss = tensor.collapse_shape %s4 [[0, 1, 2, 3]] : tensor<1x2x1x1xf32> into tensor<2xf32>
  %y = call @row_g2_ep(%xs, %ws, %bs, %ss, %rs)
      : (tensor<1x10x6x9xf32>, tensor<32x5x3x3xf32>, tensor<2x16xf32>, tensor<2xf32>, tensor<1x2x16x6x9xf32>) -> tensor<1x32x6x9xf32>
  %u = tensor.cast %y : tensor<1x32x6x9xf32> to tensor<*xf32>
  call @printMemrefF32(%u) : (tensor<*xf32>) -> ()
  return
}

func.func @row_g3_s2(%x: tensor<2x9x9x11xf32>, %w: tensor<48x3x3x3xf32>) -> tensor<2x48x5x6xf32> {
  %zero = arith.constant 0.0 : f32
  %xp = tensor.pad %x low[0, 0, 1, 0] high[0, 0, 1, 2] {
  ^bb0(%i0: index, %i1: index, %i2: index, %i3: index):
    tensor.yield %zero : f32
  } : tensor<2x9x9x11xf32> to tensor<2x9x11x13xf32>
  %xg = tensor.expand_shape %xp [[0], [1, 2], [3], [4]] output_shape [2, 3, 3, 11, 13]
      : tensor<2x9x11x13xf32> into tensor<2x3x3x11x13xf32>
  %wg = tensor.expand_shape %w [[0, 1], [2], [3], [4]] output_shape [3, 16, 3, 3, 3]
      : tensor<48x3x3x3xf32> into tensor<3x16x3x3x3xf32>
  %e = tensor.empty() : tensor<2x3x16x5x6xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<2x3x16x5x6xf32>) -> tensor<2x3x16x5x6xf32>
  %y = linalg.conv_2d_ngchw_gfchw {dilations = dense<[1, 1]> : tensor<2xi64>,
                                   strides = dense<[2, 2]> : tensor<2xi64>}
      ins(%xg, %wg : tensor<2x3x3x11x13xf32>, tensor<3x16x3x3x3xf32>)
      outs(%f : tensor<2x3x16x5x6xf32>) -> tensor<2x3x16x5x6xf32>
  %c = tensor.collapse_shape %y [[0], [1, 2], [3], [4]]
      : tensor<2x3x16x5x6xf32> into tensor<2x48x5x6xf32>
  return %c : tensor<2x48x5x6xf32>
}

func.func @main_row_g3_s2() {
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c5 = arith.constant 5 : index
  %c6 = arith.constant 6 : index
  %c7 = arith.constant 7 : index
  %c9 = arith.constant 9 : index
  %c11 = arith.constant 11 : index
  %c48 = arith.constant 48 : index
  %ex = tensor.empty(%c2, %c9, %c9, %c11) : tensor<?x?x?x?xf32>
  %xd = call @init(%ex, %c7, %c3, %c5, %c2)
      : (tensor<?x?x?x?xf32>, index, index, index, index) -> tensor<?x?x?x?xf32>
  %ew = tensor.empty(%c48, %c3, %c3, %c3) : tensor<?x?x?x?xf32>
  %wd = call @init(%ew, %c5, %c2, %c3, %c7)
      : (tensor<?x?x?x?xf32>, index, index, index, index) -> tensor<?x?x?x?xf32>
  %xs = tensor.cast %xd : tensor<?x?x?x?xf32> to tensor<2x9x9x11xf32>
  %ws = tensor.cast %wd : tensor<?x?x?x?xf32> to tensor<48x3x3x3xf32>
  %y = call @row_g3_s2(%xs, %ws)
      : (tensor<2x9x9x11xf32>, tensor<48x3x3x3xf32>) -> tensor<2x48x5x6xf32>
  %u = tensor.cast %y : tensor<2x48x5x6xf32> to tensor<*xf32>
  call @printMemrefF32(%u) : (tensor<*xf32>) -> ()
  return
}

func.func @row_g2_b3(%x: tensor<3x14x5x13xf32>, %w: tensor<32x7x3x3xf32>) -> tensor<3x32x5x13xf32> {
  %zero = arith.constant 0.0 : f32
  %xp = tensor.pad %x low[0, 0, 1, 1] high[0, 0, 1, 1] {
  ^bb0(%i0: index, %i1: index, %i2: index, %i3: index):
    tensor.yield %zero : f32
  } : tensor<3x14x5x13xf32> to tensor<3x14x7x15xf32>
  %xg = tensor.expand_shape %xp [[0], [1, 2], [3], [4]] output_shape [3, 2, 7, 7, 15]
      : tensor<3x14x7x15xf32> into tensor<3x2x7x7x15xf32>
  %wg = tensor.expand_shape %w [[0, 1], [2], [3], [4]] output_shape [2, 16, 7, 3, 3]
      : tensor<32x7x3x3xf32> into tensor<2x16x7x3x3xf32>
  %e = tensor.empty() : tensor<3x2x16x5x13xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<3x2x16x5x13xf32>) -> tensor<3x2x16x5x13xf32>
  %y = linalg.conv_2d_ngchw_gfchw {dilations = dense<[1, 1]> : tensor<2xi64>,
                                   strides = dense<[1, 1]> : tensor<2xi64>}
      ins(%xg, %wg : tensor<3x2x7x7x15xf32>, tensor<2x16x7x3x3xf32>)
      outs(%f : tensor<3x2x16x5x13xf32>) -> tensor<3x2x16x5x13xf32>
  %c = tensor.collapse_shape %y [[0], [1, 2], [3], [4]]
      : tensor<3x2x16x5x13xf32> into tensor<3x32x5x13xf32>
  return %c : tensor<3x32x5x13xf32>
}

func.func @main_row_g2_b3() {
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c5 = arith.constant 5 : index
  %c7 = arith.constant 7 : index
  %c13 = arith.constant 13 : index
  %c14 = arith.constant 14 : index
  %c32 = arith.constant 32 : index
  %ex = tensor.empty(%c3, %c14, %c5, %c13) : tensor<?x?x?x?xf32>
  %xd = call @init(%ex, %c7, %c3, %c5, %c2)
      : (tensor<?x?x?x?xf32>, index, index, index, index) -> tensor<?x?x?x?xf32>
  %ew = tensor.empty(%c32, %c7, %c3, %c3) : tensor<?x?x?x?xf32>
  %wd = call @init(%ew, %c5, %c2, %c3, %c7)
      : (tensor<?x?x?x?xf32>, index, index, index, index) -> tensor<?x?x?x?xf32>
  %xs = tensor.cast %xd : tensor<?x?x?x?xf32> to tensor<3x14x5x13xf32>
  %ws = tensor.cast %wd : tensor<?x?x?x?xf32> to tensor<32x7x3x3xf32>
  %y = call @row_g2_b3(%xs, %ws)
      : (tensor<3x14x5x13xf32>, tensor<32x7x3x3xf32>) -> tensor<3x32x5x13xf32>
  %u = tensor.cast %y : tensor<3x32x5x13xf32> to tensor<*xf32>
  call @printMemrefF32(%u) : (tensor<*xf32>) -> ()
  return
}

func.func @small_g4_ep(%x: tensor<2x12x7x19xf32>, %w: tensor<16x3x3x3xf32>, %b: tensor<4x4xf32>, %s: tensor<4xf32>, %res: tensor<2x4x4x7x19xf32>) -> tensor<2x16x7x19xf32> {
  %zero = arith.constant 0.0 : f32
  %half = arith.constant 0.5 : f32
  %xp = tensor.pad %x low[0, 0, 1, 1] high[0, 0, 1, 1] {
  ^bb0(%i0: index, %i1: index, %i2: index, %i3: index):
    tensor.yield %zero : f32
  } : tensor<2x12x7x19xf32> to tensor<2x12x9x21xf32>
  %xg = tensor.expand_shape %xp [[0], [1, 2], [3], [4]] output_shape [2, 4, 3, 9, 21]
      : tensor<2x12x9x21xf32> into tensor<2x4x3x9x21xf32>
  %wg = tensor.expand_shape %w [[0, 1], [2], [3], [4]] output_shape [4, 4, 3, 3, 3]
      : tensor<16x3x3x3xf32> into tensor<4x4x3x3x3xf32>
  %e = tensor.empty() : tensor<2x4x4x7x19xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<2x4x4x7x19xf32>) -> tensor<2x4x4x7x19xf32>
  %y = linalg.conv_2d_ngchw_gfchw {dilations = dense<[1, 1]> : tensor<2xi64>,
                                   strides = dense<[1, 1]> : tensor<2xi64>}
      ins(%xg, %wg : tensor<2x4x3x9x21xf32>, tensor<4x4x3x3x3xf32>)
      outs(%f : tensor<2x4x4x7x19xf32>) -> tensor<2x4x4x7x19xf32>
  %e2 = tensor.empty() : tensor<2x4x4x7x19xf32>
  %r = linalg.generic {indexing_maps = [#id5, #gm, #g, #id5, #id5],
                       iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel"]}
      ins(%y, %b, %s, %res : tensor<2x4x4x7x19xf32>, tensor<4x4xf32>, tensor<4xf32>, tensor<2x4x4x7x19xf32>)
      outs(%e2 : tensor<2x4x4x7x19xf32>) {
  ^bb0(%vy: f32, %vb: f32, %vs: f32, %vr: f32, %o: f32):
    %a = arith.addf %vy, %vb : f32
    %s2 = arith.mulf %vs, %vs : f32
    %p = arith.mulf %a, %s2 : f32
    %q0 = arith.addf %p, %vr : f32
    %q = arith.subf %q0, %half : f32
    %relu = arith.maximumf %q, %zero : f32
    linalg.yield %relu : f32
  } -> tensor<2x4x4x7x19xf32>
  %c = tensor.collapse_shape %r [[0], [1, 2], [3], [4]]
      : tensor<2x4x4x7x19xf32> into tensor<2x16x7x19xf32>
  return %c : tensor<2x16x7x19xf32>
}

func.func @main_small_g4_ep() {
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %c5 = arith.constant 5 : index
  %c7 = arith.constant 7 : index
  %c12 = arith.constant 12 : index
  %c16 = arith.constant 16 : index
  %c19 = arith.constant 19 : index
  %ex = tensor.empty(%c2, %c12, %c7, %c19) : tensor<?x?x?x?xf32>
  %xd = call @init(%ex, %c7, %c3, %c5, %c2)
      : (tensor<?x?x?x?xf32>, index, index, index, index) -> tensor<?x?x?x?xf32>
  %ew = tensor.empty(%c16, %c3, %c3, %c3) : tensor<?x?x?x?xf32>
  %wd = call @init(%ew, %c5, %c2, %c3, %c7)
      : (tensor<?x?x?x?xf32>, index, index, index, index) -> tensor<?x?x?x?xf32>
  %xs = tensor.cast %xd : tensor<?x?x?x?xf32> to tensor<2x12x7x19xf32>
  %ws = tensor.cast %wd : tensor<?x?x?x?xf32> to tensor<16x3x3x3xf32>
  %er = tensor.empty(%c2, %c16, %c7, %c19) : tensor<?x?x?x?xf32>
  %rd = call @init(%er, %c3, %c7, %c2, %c5)
      : (tensor<?x?x?x?xf32>, index, index, index, index) -> tensor<?x?x?x?xf32>
  %eb = tensor.empty(%c1, %c16, %c1, %c1) : tensor<?x?x?x?xf32>
  %bd = call @init(%eb, %c2, %c5, %c7, %c3)
      : (tensor<?x?x?x?xf32>, index, index, index, index) -> tensor<?x?x?x?xf32>
  %es = tensor.empty(%c1, %c4, %c1, %c1) : tensor<?x?x?x?xf32>
  %sd = call @init(%es, %c7, %c3, %c5, %c2)
      : (tensor<?x?x?x?xf32>, index, index, index, index) -> tensor<?x?x?x?xf32>
  %r4 = tensor.cast %rd : tensor<?x?x?x?xf32> to tensor<2x16x7x19xf32>
  %rs = tensor.expand_shape %r4 [[0], [1, 2], [3], [4]] output_shape [2, 4, 4, 7, 19]
      : tensor<2x16x7x19xf32> into tensor<2x4x4x7x19xf32>
  %b4 = tensor.cast %bd : tensor<?x?x?x?xf32> to tensor<1x16x1x1xf32>
  %bf = tensor.collapse_shape %b4 [[0, 1, 2, 3]] : tensor<1x16x1x1xf32> into tensor<16xf32>
  %bs = tensor.expand_shape %bf [[0, 1]] output_shape [4, 4] : tensor<16xf32> into tensor<4x4xf32>
  %s4 = tensor.cast %sd : tensor<?x?x?x?xf32> to tensor<1x4x1x1xf32>
  %ss = tensor.collapse_shape %s4 [[0, 1, 2, 3]] : tensor<1x4x1x1xf32> into tensor<4xf32>
  %y = call @small_g4_ep(%xs, %ws, %bs, %ss, %rs)
      : (tensor<2x12x7x19xf32>, tensor<16x3x3x3xf32>, tensor<4x4xf32>, tensor<4xf32>, tensor<2x4x4x7x19xf32>) -> tensor<2x16x7x19xf32>
  %u = tensor.cast %y : tensor<2x16x7x19xf32> to tensor<*xf32>
  call @printMemrefF32(%u) : (tensor<*xf32>) -> ()
  return
}

func.func @small_g4_s2(%x: tensor<1x12x10x21xf32>, %w: tensor<16x3x3x3xf32>) -> tensor<1x16x5x11xf32> {
  %zero = arith.constant 0.0 : f32
  %xp = tensor.pad %x low[0, 0, 1, 1] high[0, 0, 0, 1] {
  ^bb0(%i0: index, %i1: index, %i2: index, %i3: index):
    tensor.yield %zero : f32
  } : tensor<1x12x10x21xf32> to tensor<1x12x11x23xf32>
  %xg = tensor.expand_shape %xp [[0], [1, 2], [3], [4]] output_shape [1, 4, 3, 11, 23]
      : tensor<1x12x11x23xf32> into tensor<1x4x3x11x23xf32>
  %wg = tensor.expand_shape %w [[0, 1], [2], [3], [4]] output_shape [4, 4, 3, 3, 3]
      : tensor<16x3x3x3xf32> into tensor<4x4x3x3x3xf32>
  %e = tensor.empty() : tensor<1x4x4x5x11xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x4x4x5x11xf32>) -> tensor<1x4x4x5x11xf32>
  %y = linalg.conv_2d_ngchw_gfchw {dilations = dense<[1, 1]> : tensor<2xi64>,
                                   strides = dense<[2, 2]> : tensor<2xi64>}
      ins(%xg, %wg : tensor<1x4x3x11x23xf32>, tensor<4x4x3x3x3xf32>)
      outs(%f : tensor<1x4x4x5x11xf32>) -> tensor<1x4x4x5x11xf32>
  %c = tensor.collapse_shape %y [[0], [1, 2], [3], [4]]
      : tensor<1x4x4x5x11xf32> into tensor<1x16x5x11xf32>
  return %c : tensor<1x16x5x11xf32>
}

func.func @main_small_g4_s2() {
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %c5 = arith.constant 5 : index
  %c7 = arith.constant 7 : index
  %c10 = arith.constant 10 : index
  %c11 = arith.constant 11 : index
  %c12 = arith.constant 12 : index
  %c16 = arith.constant 16 : index
  %c21 = arith.constant 21 : index
  %ex = tensor.empty(%c1, %c12, %c10, %c21) : tensor<?x?x?x?xf32>
  %xd = call @init(%ex, %c7, %c3, %c5, %c2)
      : (tensor<?x?x?x?xf32>, index, index, index, index) -> tensor<?x?x?x?xf32>
  %ew = tensor.empty(%c16, %c3, %c3, %c3) : tensor<?x?x?x?xf32>
  %wd = call @init(%ew, %c5, %c2, %c3, %c7)
      : (tensor<?x?x?x?xf32>, index, index, index, index) -> tensor<?x?x?x?xf32>
  %xs = tensor.cast %xd : tensor<?x?x?x?xf32> to tensor<1x12x10x21xf32>
  %ws = tensor.cast %wd : tensor<?x?x?x?xf32> to tensor<16x3x3x3xf32>
  %y = call @small_g4_s2(%xs, %ws)
      : (tensor<1x12x10x21xf32>, tensor<16x3x3x3xf32>) -> tensor<1x16x5x11xf32>
  %u = tensor.cast %y : tensor<1x16x5x11xf32> to tensor<*xf32>
  call @printMemrefF32(%u) : (tensor<*xf32>) -> ()
  return
}

func.func @small_g2_8(%x: tensor<3x6x6x17xf32>, %w: tensor<16x3x3x3xf32>, %b: tensor<2x8xf32>, %s: tensor<2xf32>, %res: tensor<3x2x8x6x17xf32>) -> tensor<3x16x6x17xf32> {
  %zero = arith.constant 0.0 : f32
  %half = arith.constant 0.5 : f32
  %xp = tensor.pad %x low[0, 0, 2, 1] high[0, 0, 2, 1] {
  ^bb0(%i0: index, %i1: index, %i2: index, %i3: index):
    tensor.yield %zero : f32
  } : tensor<3x6x6x17xf32> to tensor<3x6x10x19xf32>
  %xg = tensor.expand_shape %xp [[0], [1, 2], [3], [4]] output_shape [3, 2, 3, 10, 19]
      : tensor<3x6x10x19xf32> into tensor<3x2x3x10x19xf32>
  %wg = tensor.expand_shape %w [[0, 1], [2], [3], [4]] output_shape [2, 8, 3, 3, 3]
      : tensor<16x3x3x3xf32> into tensor<2x8x3x3x3xf32>
  %e = tensor.empty() : tensor<3x2x8x6x17xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<3x2x8x6x17xf32>) -> tensor<3x2x8x6x17xf32>
  %y = linalg.conv_2d_ngchw_gfchw {dilations = dense<[2, 1]> : tensor<2xi64>,
                                   strides = dense<[1, 1]> : tensor<2xi64>}
      ins(%xg, %wg : tensor<3x2x3x10x19xf32>, tensor<2x8x3x3x3xf32>)
      outs(%f : tensor<3x2x8x6x17xf32>) -> tensor<3x2x8x6x17xf32>
  %e2 = tensor.empty() : tensor<3x2x8x6x17xf32>
  %r = linalg.generic {indexing_maps = [#id5, #gm, #g, #id5, #id5],
                       iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel"]}
      ins(%y, %b, %s, %res : tensor<3x2x8x6x17xf32>, tensor<2x8xf32>, tensor<2xf32>, tensor<3x2x8x6x17xf32>)
      outs(%e2 : tensor<3x2x8x6x17xf32>) {
  ^bb0(%vy: f32, %vb: f32, %vs: f32, %vr: f32, %o: f32):
    %a = arith.addf %vy, %vb : f32
    %s2 = arith.mulf %vs, %vs : f32
    %p = arith.mulf %a, %s2 : f32
    %q0 = arith.addf %p, %vr : f32
    %q = arith.subf %q0, %half : f32
    %relu = arith.maximumf %q, %zero : f32
    linalg.yield %relu : f32
  } -> tensor<3x2x8x6x17xf32>
  %c = tensor.collapse_shape %r [[0], [1, 2], [3], [4]]
      : tensor<3x2x8x6x17xf32> into tensor<3x16x6x17xf32>
  return %c : tensor<3x16x6x17xf32>
}

func.func @main_small_g2_8() {
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c5 = arith.constant 5 : index
  %c6 = arith.constant 6 : index
  %c7 = arith.constant 7 : index
  %c16 = arith.constant 16 : index
  %c17 = arith.constant 17 : index
  %ex = tensor.empty(%c3, %c6, %c6, %c17) : tensor<?x?x?x?xf32>
  %xd = call @init(%ex, %c7, %c3, %c5, %c2)
      : (tensor<?x?x?x?xf32>, index, index, index, index) -> tensor<?x?x?x?xf32>
  %ew = tensor.empty(%c16, %c3, %c3, %c3) : tensor<?x?x?x?xf32>
  %wd = call @init(%ew, %c5, %c2, %c3, %c7)
      : (tensor<?x?x?x?xf32>, index, index, index, index) -> tensor<?x?x?x?xf32>
  %xs = tensor.cast %xd : tensor<?x?x?x?xf32> to tensor<3x6x6x17xf32>
  %ws = tensor.cast %wd : tensor<?x?x?x?xf32> to tensor<16x3x3x3xf32>
  %er = tensor.empty(%c3, %c16, %c6, %c17) : tensor<?x?x?x?xf32>
  %rd = call @init(%er, %c3, %c7, %c2, %c5)
      : (tensor<?x?x?x?xf32>, index, index, index, index) -> tensor<?x?x?x?xf32>
  %eb = tensor.empty(%c1, %c16, %c1, %c1) : tensor<?x?x?x?xf32>
  %bd = call @init(%eb, %c2, %c5, %c7, %c3)
      : (tensor<?x?x?x?xf32>, index, index, index, index) -> tensor<?x?x?x?xf32>
  %es = tensor.empty(%c1, %c2, %c1, %c1) : tensor<?x?x?x?xf32>
  %sd = call @init(%es, %c7, %c3, %c5, %c2)
      : (tensor<?x?x?x?xf32>, index, index, index, index) -> tensor<?x?x?x?xf32>
  %r4 = tensor.cast %rd : tensor<?x?x?x?xf32> to tensor<3x16x6x17xf32>
  %rs = tensor.expand_shape %r4 [[0], [1, 2], [3], [4]] output_shape [3, 2, 8, 6, 17]
      : tensor<3x16x6x17xf32> into tensor<3x2x8x6x17xf32>
  %b4 = tensor.cast %bd : tensor<?x?x?x?xf32> to tensor<1x16x1x1xf32>
  %bf = tensor.collapse_shape %b4 [[0, 1, 2, 3]] : tensor<1x16x1x1xf32> into tensor<16xf32>
  %bs = tensor.expand_shape %bf [[0, 1]] output_shape [2, 8] : tensor<16xf32> into tensor<2x8xf32>
  %s4 = tensor.cast %sd : tensor<?x?x?x?xf32> to tensor<1x2x1x1xf32>
  %ss = tensor.collapse_shape %s4 [[0, 1, 2, 3]] : tensor<1x2x1x1xf32> into tensor<2xf32>
  %y = call @small_g2_8(%xs, %ws, %bs, %ss, %rs)
      : (tensor<3x6x6x17xf32>, tensor<16x3x3x3xf32>, tensor<2x8xf32>, tensor<2xf32>, tensor<3x2x8x6x17xf32>) -> tensor<3x16x6x17xf32>
  %u = tensor.cast %y : tensor<3x16x6x17xf32> to tensor<*xf32>
  call @printMemrefF32(%u) : (tensor<*xf32>) -> ()
  return
}

func.func @gemm_g3_ep(%x: tensor<2x12x5x7xf32>, %w: tensor<36x4x3x3xf32>, %b: tensor<3x12xf32>, %s: tensor<3xf32>, %res: tensor<2x3x12x5x7xf32>) -> tensor<2x36x5x7xf32> {
  %zero = arith.constant 0.0 : f32
  %half = arith.constant 0.5 : f32
  %xp = tensor.pad %x low[0, 0, 1, 1] high[0, 0, 1, 1] {
  ^bb0(%i0: index, %i1: index, %i2: index, %i3: index):
    tensor.yield %zero : f32
  } : tensor<2x12x5x7xf32> to tensor<2x12x7x9xf32>
  %xg = tensor.expand_shape %xp [[0], [1, 2], [3], [4]] output_shape [2, 3, 4, 7, 9]
      : tensor<2x12x7x9xf32> into tensor<2x3x4x7x9xf32>
  %wg = tensor.expand_shape %w [[0, 1], [2], [3], [4]] output_shape [3, 12, 4, 3, 3]
      : tensor<36x4x3x3xf32> into tensor<3x12x4x3x3xf32>
  %e = tensor.empty() : tensor<2x3x12x5x7xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<2x3x12x5x7xf32>) -> tensor<2x3x12x5x7xf32>
  %y = linalg.conv_2d_ngchw_gfchw {dilations = dense<[1, 1]> : tensor<2xi64>,
                                   strides = dense<[1, 1]> : tensor<2xi64>}
      ins(%xg, %wg : tensor<2x3x4x7x9xf32>, tensor<3x12x4x3x3xf32>)
      outs(%f : tensor<2x3x12x5x7xf32>) -> tensor<2x3x12x5x7xf32>
  %e2 = tensor.empty() : tensor<2x3x12x5x7xf32>
  %r = linalg.generic {indexing_maps = [#id5, #gm, #g, #id5, #id5],
                       iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel"]}
      ins(%y, %b, %s, %res : tensor<2x3x12x5x7xf32>, tensor<3x12xf32>, tensor<3xf32>, tensor<2x3x12x5x7xf32>)
      outs(%e2 : tensor<2x3x12x5x7xf32>) {
  ^bb0(%vy: f32, %vb: f32, %vs: f32, %vr: f32, %o: f32):
    %a = arith.addf %vy, %vb : f32
    %s2 = arith.mulf %vs, %vs : f32
    %p = arith.mulf %a, %s2 : f32
    %q0 = arith.addf %p, %vr : f32
    %q = arith.subf %q0, %half : f32
    %relu = arith.maximumf %q, %zero : f32
    linalg.yield %relu : f32
  } -> tensor<2x3x12x5x7xf32>
  %c = tensor.collapse_shape %r [[0], [1, 2], [3], [4]]
      : tensor<2x3x12x5x7xf32> into tensor<2x36x5x7xf32>
  return %c : tensor<2x36x5x7xf32>
}

func.func @main_gemm_g3_ep() {
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %c5 = arith.constant 5 : index
  %c7 = arith.constant 7 : index
  %c12 = arith.constant 12 : index
  %c36 = arith.constant 36 : index
  %ex = tensor.empty(%c2, %c12, %c5, %c7) : tensor<?x?x?x?xf32>
  %xd = call @init(%ex, %c7, %c3, %c5, %c2)
      : (tensor<?x?x?x?xf32>, index, index, index, index) -> tensor<?x?x?x?xf32>
  %ew = tensor.empty(%c36, %c4, %c3, %c3) : tensor<?x?x?x?xf32>
  %wd = call @init(%ew, %c5, %c2, %c3, %c7)
      : (tensor<?x?x?x?xf32>, index, index, index, index) -> tensor<?x?x?x?xf32>
  %xs = tensor.cast %xd : tensor<?x?x?x?xf32> to tensor<2x12x5x7xf32>
  %ws = tensor.cast %wd : tensor<?x?x?x?xf32> to tensor<36x4x3x3xf32>
  %er = tensor.empty(%c2, %c36, %c5, %c7) : tensor<?x?x?x?xf32>
  %rd = call @init(%er, %c3, %c7, %c2, %c5)
      : (tensor<?x?x?x?xf32>, index, index, index, index) -> tensor<?x?x?x?xf32>
  %eb = tensor.empty(%c1, %c36, %c1, %c1) : tensor<?x?x?x?xf32>
  %bd = call @init(%eb, %c2, %c5, %c7, %c3)
      : (tensor<?x?x?x?xf32>, index, index, index, index) -> tensor<?x?x?x?xf32>
  %es = tensor.empty(%c1, %c3, %c1, %c1) : tensor<?x?x?x?xf32>
  %sd = call @init(%es, %c7, %c3, %c5, %c2)
      : (tensor<?x?x?x?xf32>, index, index, index, index) -> tensor<?x?x?x?xf32>
  %r4 = tensor.cast %rd : tensor<?x?x?x?xf32> to tensor<2x36x5x7xf32>
  %rs = tensor.expand_shape %r4 [[0], [1, 2], [3], [4]] output_shape [2, 3, 12, 5, 7]
      : tensor<2x36x5x7xf32> into tensor<2x3x12x5x7xf32>
  %b4 = tensor.cast %bd : tensor<?x?x?x?xf32> to tensor<1x36x1x1xf32>
  %bf = tensor.collapse_shape %b4 [[0, 1, 2, 3]] : tensor<1x36x1x1xf32> into tensor<36xf32>
  %bs = tensor.expand_shape %bf [[0, 1]] output_shape [3, 12] : tensor<36xf32> into tensor<3x12xf32>
  %s4 = tensor.cast %sd : tensor<?x?x?x?xf32> to tensor<1x3x1x1xf32>
  %ss = tensor.collapse_shape %s4 [[0, 1, 2, 3]] : tensor<1x3x1x1xf32> into tensor<3xf32>
  %y = call @gemm_g3_ep(%xs, %ws, %bs, %ss, %rs)
      : (tensor<2x12x5x7xf32>, tensor<36x4x3x3xf32>, tensor<3x12xf32>, tensor<3xf32>, tensor<2x3x12x5x7xf32>) -> tensor<2x36x5x7xf32>
  %u = tensor.cast %y : tensor<2x36x5x7xf32> to tensor<*xf32>
  call @printMemrefF32(%u) : (tensor<*xf32>) -> ()
  return
}
func.func private @printMemrefF32(tensor<*xf32>)
