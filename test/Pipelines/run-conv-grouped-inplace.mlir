// Grouped convolutions that write their result in place, with their
// elementwise consumer as an epilogue (docs/design/cpu-codegen.md, "Grouped
// convolutions in place"), checked against NumPy (Inputs/reference.py) with
// OpenMP tasks (vector width 16) and without (8), and their IR pinned:
// * @pw1, @pw2: grouped 1x1 (3 groups of 4 -> 3 channels, 5x7) at batch 1
//   and 2, whose batch matmul runs parallel inside, so the epilogue (bias
//   per output channel, scale per group, residual, ReLU) is an scf.forall
//   over the output channels of its own. At batch 1 the matmul writes a
//   tensor.empty at its own shape [G, O/G, P], not an insert_slice into a
//   slice of one.
// * @g1, @g2: grouped 3x3 (padding 1, 3 output channels per group) at
//   batch 1 and 2: the small-group kernel (docs/design/conv-codegen.md,
//   "Grouped convolutions on the direct kernels"), one task per (image,
//   group) writing the group's channels of the result, the epilogue
//   applied to each accumulator before its store.
// * @g8: 8 groups of 2 -> 2 channels at batch 2: the same kernel, 16
//   tasks. (The per-group GEMM with its epilogue over the group's channels,
//   for more output channels per group, is pinned in
//   run-conv-grouped-direct.mlir.)
// * @out_pw1, @out_g2, @out_conv: results materialized into output memrefs
//   as graphc_task_run does; the reshapes between the convolution and the
//   output are moved into the output buffer, so the kernel writes the
//   output (no temporary of the output's size, no copy), also for an
//   ungrouped 5x5 convolution's im2col + GEMM; @out_g2's already padded
//   input is read in place (no buffer at all).
// REQUIRES: libomp
// RUN: graph-opt %s --graphc-cpu-codegen="vector-width=16 min-parallel-work=0" > %t.mlir
// RUN: graph-opt %s --graphc-cpu-codegen="vector-width=8 openmp=0" > %t.serial.mlir
// RUN: for f in %t.mlir %t.serial.mlir; do \
// RUN:   mlir-runner $f -e main_pw1 -entry-point-result=void \
// RUN:     -shared-libs=%mlir_c_runner_utils,%mlir_runner_utils,%libomp > %t.pw1 && \
// RUN:   %numpy_python %S/Inputs/reference.py pw_epilogue 1,12,5,7,9,3 %t.pw1 && \
// RUN:   mlir-runner $f -e main_pw2 -entry-point-result=void \
// RUN:     -shared-libs=%mlir_c_runner_utils,%mlir_runner_utils,%libomp > %t.pw2 && \
// RUN:   %numpy_python %S/Inputs/reference.py pw_epilogue 2,12,5,7,9,3 %t.pw2 && \
// RUN:   mlir-runner $f -e main_g1 -entry-point-result=void \
// RUN:     -shared-libs=%mlir_c_runner_utils,%mlir_runner_utils,%libomp > %t.g1 && \
// RUN:   %numpy_python %S/Inputs/reference.py grouped_epilogue 1,12,5,7,9,3,3,1,1,1,1,1,1,1,1,3 %t.g1 && \
// RUN:   mlir-runner $f -e main_g2 -entry-point-result=void \
// RUN:     -shared-libs=%mlir_c_runner_utils,%mlir_runner_utils,%libomp > %t.g2 && \
// RUN:   %numpy_python %S/Inputs/reference.py grouped_epilogue 2,12,5,7,9,3,3,1,1,1,1,1,1,1,1,3 %t.g2 && \
// RUN:   mlir-runner $f -e main_g8 -entry-point-result=void \
// RUN:     -shared-libs=%mlir_c_runner_utils,%mlir_runner_utils,%libomp > %t.g8 && \
// RUN:   %numpy_python %S/Inputs/reference.py grouped_epilogue 2,16,5,7,16,3,3,1,1,1,1,1,1,1,1,8 %t.g8 \
// RUN:   || exit 1; done | FileCheck %s --check-prefix=NUM
// NUM:      pw_epilogue OK, 315 values, max error 0.0
// NUM-NEXT: pw_epilogue OK, 630 values, max error 0.0
// NUM-NEXT: grouped_epilogue OK, 315 values, max error 0.0
// NUM-NEXT: grouped_epilogue OK, 630 values, max error 0.0
// NUM-NEXT: grouped_epilogue OK, 1120 values, max error 0.0
// NUM-NEXT: pw_epilogue OK, 315 values, max error 0.0
// NUM-NEXT: pw_epilogue OK, 630 values, max error 0.0
// NUM-NEXT: grouped_epilogue OK, 315 values, max error 0.0
// NUM-NEXT: grouped_epilogue OK, 630 values, max error 0.0
// NUM-NEXT: grouped_epilogue OK, 1120 values, max error 0.0
//
// RUN: graph-opt %s --pass-pipeline='builtin.module(func.func(graphc-cpu-tile-and-vectorize{vector-width=8}))' \
// RUN: | FileCheck %s
// CHECK-LABEL: func.func @pw1(
// CHECK-NOT:   linalg.generic
// CHECK:       %[[E:.*]] = tensor.empty() : tensor<3x3x35xf32>
// CHECK:       %[[P:.*]] = scf.forall (%{{.*}}) in (3) shared_outs(%{{.*}} = %[[E]]) -> (tensor<3x3x35xf32>)
// CHECK:       vector.contract
// CHECK:       scf.forall (%{{.*}}, %{{.*}}) in (3, 3) shared_outs(%{{.*}} = %[[P]]) -> (tensor<3x3x35xf32>)
// CHECK:       tensor.extract {{.*}} : tensor<3x3xf32>
// CHECK:       tensor.extract {{.*}} : tensor<3xf32>
// CHECK:       arith.mulf {{.*}} : f32
// CHECK:       tensor.extract_slice {{.*}} : tensor<3x3x35xf32> to tensor<35xf32>
// CHECK:       arith.maximumf {{.*}} : vector<8xf32>
// CHECK:       arith.maximumf {{.*}} : vector<2xf32>
// CHECK:       arith.maximumf {{.*}} : vector<1xf32>
// CHECK:       tensor.parallel_insert_slice {{.*}} : tensor<35xf32> into tensor<3x3x35xf32>
// CHECK-NOT:   tensor.insert_slice
// CHECK-NOT:   linalg.generic
// CHECK:       return
// CHECK-LABEL: func.func @pw2(
// CHECK:       scf.for %{{.*}} = %c0{{.*}} to %c2{{.*}} step %c1{{.*}} -> (tensor<2x9x5x7xf32>)
// CHECK:       vector.contract
// CHECK:       scf.forall (%{{.*}}, %{{.*}}) in (3, 3) shared_outs({{.*}}) -> (tensor<3x3x35xf32>)
// CHECK:       arith.maximumf {{.*}} : vector<8xf32>
// CHECK:       tensor.insert_slice {{.*}} : tensor<9x5x7xf32> into tensor<2x9x5x7xf32>
// CHECK-NOT:   linalg.generic
// CHECK:       return
// One task per (image, group): the group's 3 output channels of the result
// (as [N, O, OH, OW]), the epilogue applied in registers.
// CHECK-LABEL: func.func @g2(
// CHECK:       %[[D:.*]] = tensor.empty() : tensor<2x9x5x7xf32>
// CHECK:       scf.forall (%{{.*}}, %{{.*}}) in (2, 3) shared_outs(%[[C:.*]] = %[[D]]) -> (tensor<2x9x5x7xf32>)
// CHECK:       tensor.extract_slice %[[C]][%{{.*}}, %{{.*}}, 0, 0] [1, 3, 5, 7] [1, 1, 1, 1] : tensor<2x9x5x7xf32> to tensor<3x5x7xf32>
// CHECK:       vector.fma
// CHECK:       arith.maximumf {{.*}} : vector<4xf32>
// CHECK:       tensor.parallel_insert_slice {{.*}} into %[[C]][%{{.*}}, %{{.*}}, 0, 0] [1, 3, 5, 7] [1, 1, 1, 1] : tensor<3x5x7xf32> into tensor<2x9x5x7xf32>
// CHECK-NOT:   linalg.generic
// CHECK:       return
// CHECK-LABEL: func.func @g8(
// CHECK:       %[[D8:.*]] = tensor.empty() : tensor<2x16x5x7xf32>
// CHECK:       scf.forall (%{{.*}}, %{{.*}}) in (2, 8) shared_outs(%[[C8:.*]] = %[[D8]]) -> (tensor<2x16x5x7xf32>)
// CHECK:       vector.fma
// CHECK:       arith.maximumf {{.*}} : vector<4xf32>
// CHECK:       tensor.parallel_insert_slice {{.*}} into %[[C8]][%{{.*}}, %{{.*}}, 0, 0] [1, 2, 5, 7] [1, 1, 1, 1] : tensor<2x5x7xf32> into tensor<2x16x5x7xf32>
// CHECK-NOT:   linalg.generic
// CHECK:       return
//
// RUN: graph-opt %s --graphc-cpu-codegen=min-parallel-work=0 \
// RUN:   --mlir-print-ir-before=graphc-cpu-expand-copies -o /dev/null 2>&1 \
// RUN: | FileCheck %s --check-prefix=BUF
// BUF-LABEL: func.func @out_pw1(
// BUF-NOT:   memref.alloc
// BUF-NOT:   memref.copy
// BUF:       return
// BUF-LABEL: func.func @out_g2(
// BUF-NOT:   memref.alloc
// BUF-NOT:   memref.copy
// BUF:       return
// BUF-LABEL: func.func @out_conv(
// BUF-NOT:   memref.alloc
// BUF:       memref.alloc() {{.*}} : memref<1x8x5x5x5x5xf32>
// BUF-NOT:   memref.alloc
// BUF-NOT:   memref.copy
// BUF:       return

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

func.func @pw1(%x: tensor<1x12x5x7xf32>, %w: tensor<9x4x1x1xf32>, %b: tensor<3x3xf32>,
              %s: tensor<3xf32>, %res: tensor<1x3x3x5x7xf32>) -> tensor<1x9x5x7xf32> {
  %zero = arith.constant 0.0 : f32
  %half = arith.constant 0.5 : f32
  %xg = tensor.expand_shape %x [[0], [1, 2], [3], [4]] output_shape [1, 3, 4, 5, 7]
      : tensor<1x12x5x7xf32> into tensor<1x3x4x5x7xf32>
  %wg = tensor.expand_shape %w [[0, 1], [2], [3], [4]] output_shape [3, 3, 4, 1, 1]
      : tensor<9x4x1x1xf32> into tensor<3x3x4x1x1xf32>
  %e = tensor.empty() : tensor<1x3x3x5x7xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x3x3x5x7xf32>) -> tensor<1x3x3x5x7xf32>
  %y = linalg.conv_2d_ngchw_gfchw {dilations = dense<1> : tensor<2xi64>,
                                   strides = dense<1> : tensor<2xi64>}
      ins(%xg, %wg : tensor<1x3x4x5x7xf32>, tensor<3x3x4x1x1xf32>)
      outs(%f : tensor<1x3x3x5x7xf32>) -> tensor<1x3x3x5x7xf32>
  %e2 = tensor.empty() : tensor<1x3x3x5x7xf32>
  %r = linalg.generic {indexing_maps = [#id5, #gm, #g, #id5, #id5],
                       iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel"]}
      ins(%y, %b, %s, %res : tensor<1x3x3x5x7xf32>, tensor<3x3xf32>, tensor<3xf32>, tensor<1x3x3x5x7xf32>)
      outs(%e2 : tensor<1x3x3x5x7xf32>) {
  ^bb0(%vy: f32, %vb: f32, %vs: f32, %vr: f32, %o: f32):
    %a = arith.addf %vy, %vb : f32
    %s2 = arith.mulf %vs, %vs : f32
    %m = arith.mulf %a, %s2 : f32
    %q0 = arith.addf %m, %vr : f32
    %q = arith.subf %q0, %half : f32
    %relu = arith.maximumf %q, %zero : f32
    linalg.yield %relu : f32
  } -> tensor<1x3x3x5x7xf32>
  %c = tensor.collapse_shape %r [[0], [1, 2], [3], [4]]
      : tensor<1x3x3x5x7xf32> into tensor<1x9x5x7xf32>
  return %c : tensor<1x9x5x7xf32>
}

func.func @pw2(%x: tensor<2x12x5x7xf32>, %w: tensor<9x4x1x1xf32>, %b: tensor<3x3xf32>,
              %s: tensor<3xf32>, %res: tensor<2x3x3x5x7xf32>) -> tensor<2x9x5x7xf32> {
  %zero = arith.constant 0.0 : f32
  %half = arith.constant 0.5 : f32
  %xg = tensor.expand_shape %x [[0], [1, 2], [3], [4]] output_shape [2, 3, 4, 5, 7]
      : tensor<2x12x5x7xf32> into tensor<2x3x4x5x7xf32>
  %wg = tensor.expand_shape %w [[0, 1], [2], [3], [4]] output_shape [3, 3, 4, 1, 1]
      : tensor<9x4x1x1xf32> into tensor<3x3x4x1x1xf32>
  %e = tensor.empty() : tensor<2x3x3x5x7xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<2x3x3x5x7xf32>) -> tensor<2x3x3x5x7xf32>
  %y = linalg.conv_2d_ngchw_gfchw {dilations = dense<1> : tensor<2xi64>,
                                   strides = dense<1> : tensor<2xi64>}
      ins(%xg, %wg : tensor<2x3x4x5x7xf32>, tensor<3x3x4x1x1xf32>)
      outs(%f : tensor<2x3x3x5x7xf32>) -> tensor<2x3x3x5x7xf32>
  %e2 = tensor.empty() : tensor<2x3x3x5x7xf32>
  %r = linalg.generic {indexing_maps = [#id5, #gm, #g, #id5, #id5],
                       iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel"]}
      ins(%y, %b, %s, %res : tensor<2x3x3x5x7xf32>, tensor<3x3xf32>, tensor<3xf32>, tensor<2x3x3x5x7xf32>)
      outs(%e2 : tensor<2x3x3x5x7xf32>) {
  ^bb0(%vy: f32, %vb: f32, %vs: f32, %vr: f32, %o: f32):
    %a = arith.addf %vy, %vb : f32
    %s2 = arith.mulf %vs, %vs : f32
    %m = arith.mulf %a, %s2 : f32
    %q0 = arith.addf %m, %vr : f32
    %q = arith.subf %q0, %half : f32
    %relu = arith.maximumf %q, %zero : f32
    linalg.yield %relu : f32
  } -> tensor<2x3x3x5x7xf32>
  %c = tensor.collapse_shape %r [[0], [1, 2], [3], [4]]
      : tensor<2x3x3x5x7xf32> into tensor<2x9x5x7xf32>
  return %c : tensor<2x9x5x7xf32>
}

func.func @g1(%x: tensor<1x12x5x7xf32>, %w: tensor<9x4x3x3xf32>, %b: tensor<3x3xf32>,
              %s: tensor<3xf32>, %res: tensor<1x3x3x5x7xf32>) -> tensor<1x9x5x7xf32> {
  %zero = arith.constant 0.0 : f32
  %half = arith.constant 0.5 : f32
  %xp = tensor.pad %x low[0, 0, 1, 1] high[0, 0, 1, 1] {
  ^bb0(%i0: index, %i1: index, %i2: index, %i3: index):
    tensor.yield %zero : f32
  } : tensor<1x12x5x7xf32> to tensor<1x12x7x9xf32>
  %xg = tensor.expand_shape %xp [[0], [1, 2], [3], [4]] output_shape [1, 3, 4, 7, 9]
      : tensor<1x12x7x9xf32> into tensor<1x3x4x7x9xf32>
  %wg = tensor.expand_shape %w [[0, 1], [2], [3], [4]] output_shape [3, 3, 4, 3, 3]
      : tensor<9x4x3x3xf32> into tensor<3x3x4x3x3xf32>
  %e = tensor.empty() : tensor<1x3x3x5x7xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x3x3x5x7xf32>) -> tensor<1x3x3x5x7xf32>
  %y = linalg.conv_2d_ngchw_gfchw {dilations = dense<1> : tensor<2xi64>,
                                   strides = dense<1> : tensor<2xi64>}
      ins(%xg, %wg : tensor<1x3x4x7x9xf32>, tensor<3x3x4x3x3xf32>)
      outs(%f : tensor<1x3x3x5x7xf32>) -> tensor<1x3x3x5x7xf32>
  %e2 = tensor.empty() : tensor<1x3x3x5x7xf32>
  %r = linalg.generic {indexing_maps = [#id5, #gm, #g, #id5, #id5],
                       iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel"]}
      ins(%y, %b, %s, %res : tensor<1x3x3x5x7xf32>, tensor<3x3xf32>, tensor<3xf32>, tensor<1x3x3x5x7xf32>)
      outs(%e2 : tensor<1x3x3x5x7xf32>) {
  ^bb0(%vy: f32, %vb: f32, %vs: f32, %vr: f32, %o: f32):
    %a = arith.addf %vy, %vb : f32
    %s2 = arith.mulf %vs, %vs : f32
    %m = arith.mulf %a, %s2 : f32
    %q0 = arith.addf %m, %vr : f32
    %q = arith.subf %q0, %half : f32
    %relu = arith.maximumf %q, %zero : f32
    linalg.yield %relu : f32
  } -> tensor<1x3x3x5x7xf32>
  %c = tensor.collapse_shape %r [[0], [1, 2], [3], [4]]
      : tensor<1x3x3x5x7xf32> into tensor<1x9x5x7xf32>
  return %c : tensor<1x9x5x7xf32>
}

func.func @g2(%x: tensor<2x12x5x7xf32>, %w: tensor<9x4x3x3xf32>, %b: tensor<3x3xf32>,
              %s: tensor<3xf32>, %res: tensor<2x3x3x5x7xf32>) -> tensor<2x9x5x7xf32> {
  %zero = arith.constant 0.0 : f32
  %half = arith.constant 0.5 : f32
  %xp = tensor.pad %x low[0, 0, 1, 1] high[0, 0, 1, 1] {
  ^bb0(%i0: index, %i1: index, %i2: index, %i3: index):
    tensor.yield %zero : f32
  } : tensor<2x12x5x7xf32> to tensor<2x12x7x9xf32>
  %xg = tensor.expand_shape %xp [[0], [1, 2], [3], [4]] output_shape [2, 3, 4, 7, 9]
      : tensor<2x12x7x9xf32> into tensor<2x3x4x7x9xf32>
  %wg = tensor.expand_shape %w [[0, 1], [2], [3], [4]] output_shape [3, 3, 4, 3, 3]
      : tensor<9x4x3x3xf32> into tensor<3x3x4x3x3xf32>
  %e = tensor.empty() : tensor<2x3x3x5x7xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<2x3x3x5x7xf32>) -> tensor<2x3x3x5x7xf32>
  %y = linalg.conv_2d_ngchw_gfchw {dilations = dense<1> : tensor<2xi64>,
                                   strides = dense<1> : tensor<2xi64>}
      ins(%xg, %wg : tensor<2x3x4x7x9xf32>, tensor<3x3x4x3x3xf32>)
      outs(%f : tensor<2x3x3x5x7xf32>) -> tensor<2x3x3x5x7xf32>
  %e2 = tensor.empty() : tensor<2x3x3x5x7xf32>
  %r = linalg.generic {indexing_maps = [#id5, #gm, #g, #id5, #id5],
                       iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel"]}
      ins(%y, %b, %s, %res : tensor<2x3x3x5x7xf32>, tensor<3x3xf32>, tensor<3xf32>, tensor<2x3x3x5x7xf32>)
      outs(%e2 : tensor<2x3x3x5x7xf32>) {
  ^bb0(%vy: f32, %vb: f32, %vs: f32, %vr: f32, %o: f32):
    %a = arith.addf %vy, %vb : f32
    %s2 = arith.mulf %vs, %vs : f32
    %m = arith.mulf %a, %s2 : f32
    %q0 = arith.addf %m, %vr : f32
    %q = arith.subf %q0, %half : f32
    %relu = arith.maximumf %q, %zero : f32
    linalg.yield %relu : f32
  } -> tensor<2x3x3x5x7xf32>
  %c = tensor.collapse_shape %r [[0], [1, 2], [3], [4]]
      : tensor<2x3x3x5x7xf32> into tensor<2x9x5x7xf32>
  return %c : tensor<2x9x5x7xf32>
}

func.func @g8(%x: tensor<2x16x5x7xf32>, %w: tensor<16x2x3x3xf32>, %b: tensor<8x2xf32>,
              %s: tensor<8xf32>, %res: tensor<2x8x2x5x7xf32>) -> tensor<2x16x5x7xf32> {
  %zero = arith.constant 0.0 : f32
  %half = arith.constant 0.5 : f32
  %xp = tensor.pad %x low[0, 0, 1, 1] high[0, 0, 1, 1] {
  ^bb0(%i0: index, %i1: index, %i2: index, %i3: index):
    tensor.yield %zero : f32
  } : tensor<2x16x5x7xf32> to tensor<2x16x7x9xf32>
  %xg = tensor.expand_shape %xp [[0], [1, 2], [3], [4]] output_shape [2, 8, 2, 7, 9]
      : tensor<2x16x7x9xf32> into tensor<2x8x2x7x9xf32>
  %wg = tensor.expand_shape %w [[0, 1], [2], [3], [4]] output_shape [8, 2, 2, 3, 3]
      : tensor<16x2x3x3xf32> into tensor<8x2x2x3x3xf32>
  %e = tensor.empty() : tensor<2x8x2x5x7xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<2x8x2x5x7xf32>) -> tensor<2x8x2x5x7xf32>
  %y = linalg.conv_2d_ngchw_gfchw {dilations = dense<1> : tensor<2xi64>,
                                   strides = dense<1> : tensor<2xi64>}
      ins(%xg, %wg : tensor<2x8x2x7x9xf32>, tensor<8x2x2x3x3xf32>)
      outs(%f : tensor<2x8x2x5x7xf32>) -> tensor<2x8x2x5x7xf32>
  %e2 = tensor.empty() : tensor<2x8x2x5x7xf32>
  %r = linalg.generic {indexing_maps = [#id5, #gm, #g, #id5, #id5],
                       iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel"]}
      ins(%y, %b, %s, %res : tensor<2x8x2x5x7xf32>, tensor<8x2xf32>, tensor<8xf32>, tensor<2x8x2x5x7xf32>)
      outs(%e2 : tensor<2x8x2x5x7xf32>) {
  ^bb0(%vy: f32, %vb: f32, %vs: f32, %vr: f32, %o: f32):
    %a = arith.addf %vy, %vb : f32
    %s2 = arith.mulf %vs, %vs : f32
    %m = arith.mulf %a, %s2 : f32
    %q0 = arith.addf %m, %vr : f32
    %q = arith.subf %q0, %half : f32
    %relu = arith.maximumf %q, %zero : f32
    linalg.yield %relu : f32
  } -> tensor<2x8x2x5x7xf32>
  %c = tensor.collapse_shape %r [[0], [1, 2], [3], [4]]
      : tensor<2x8x2x5x7xf32> into tensor<2x16x5x7xf32>
  return %c : tensor<2x16x5x7xf32>
}

func.func @main_pw1() {
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %c5 = arith.constant 5 : index
  %c7 = arith.constant 7 : index
  %c9 = arith.constant 9 : index
  %c12 = arith.constant 12 : index
  %cn = arith.constant 1 : index
  %cc = arith.constant 12 : index
  %cf = arith.constant 9 : index
  %ccg = arith.constant 4 : index
  %cg = arith.constant 3 : index
  %ck = arith.constant 1 : index
  %ex = tensor.empty(%cn, %cc, %c5, %c7) : tensor<?x?x?x?xf32>
  %x = call @init(%ex, %c7, %c3, %c5, %c2)
      : (tensor<?x?x?x?xf32>, index, index, index, index) -> tensor<?x?x?x?xf32>
  %ew = tensor.empty(%cf, %ccg, %ck, %ck) : tensor<?x?x?x?xf32>
  %wt = call @init(%ew, %c5, %c2, %c3, %c7)
      : (tensor<?x?x?x?xf32>, index, index, index, index) -> tensor<?x?x?x?xf32>
  %er = tensor.empty(%cn, %cf, %c5, %c7) : tensor<?x?x?x?xf32>
  %r = call @init(%er, %c3, %c7, %c2, %c5)
      : (tensor<?x?x?x?xf32>, index, index, index, index) -> tensor<?x?x?x?xf32>
  %eb = tensor.empty(%c1, %cf, %c1, %c1) : tensor<?x?x?x?xf32>
  %b = call @init(%eb, %c2, %c5, %c7, %c3)
      : (tensor<?x?x?x?xf32>, index, index, index, index) -> tensor<?x?x?x?xf32>
  %es = tensor.empty(%c1, %cg, %c1, %c1) : tensor<?x?x?x?xf32>
  %s = call @init(%es, %c7, %c3, %c5, %c2)
      : (tensor<?x?x?x?xf32>, index, index, index, index) -> tensor<?x?x?x?xf32>
  %xs = tensor.cast %x : tensor<?x?x?x?xf32> to tensor<1x12x5x7xf32>
  %ws = tensor.cast %wt : tensor<?x?x?x?xf32> to tensor<9x4x1x1xf32>
  %r4 = tensor.cast %r : tensor<?x?x?x?xf32> to tensor<1x9x5x7xf32>
  %rs = tensor.expand_shape %r4 [[0], [1, 2], [3], [4]] output_shape [1, 3, 3, 5, 7]
      : tensor<1x9x5x7xf32> into tensor<1x3x3x5x7xf32>
  %b4 = tensor.cast %b : tensor<?x?x?x?xf32> to tensor<1x9x1x1xf32>
  %b9 = tensor.collapse_shape %b4 [[0, 1, 2, 3]] : tensor<1x9x1x1xf32> into tensor<9xf32>
  %bs = tensor.expand_shape %b9 [[0, 1]] output_shape [3, 3] : tensor<9xf32> into tensor<3x3xf32>
  %s4 = tensor.cast %s : tensor<?x?x?x?xf32> to tensor<1x3x1x1xf32>
  %ss = tensor.collapse_shape %s4 [[0, 1, 2, 3]] : tensor<1x3x1x1xf32> into tensor<3xf32>
  %y = call @pw1(%xs, %ws, %bs, %ss, %rs)
      : (tensor<1x12x5x7xf32>, tensor<9x4x1x1xf32>, tensor<3x3xf32>, tensor<3xf32>,
         tensor<1x3x3x5x7xf32>) -> tensor<1x9x5x7xf32>
  %u = tensor.cast %y : tensor<1x9x5x7xf32> to tensor<*xf32>
  call @printMemrefF32(%u) : (tensor<*xf32>) -> ()
  return
}

func.func @main_pw2() {
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %c5 = arith.constant 5 : index
  %c7 = arith.constant 7 : index
  %c9 = arith.constant 9 : index
  %c12 = arith.constant 12 : index
  %cn = arith.constant 2 : index
  %cc = arith.constant 12 : index
  %cf = arith.constant 9 : index
  %ccg = arith.constant 4 : index
  %cg = arith.constant 3 : index
  %ck = arith.constant 1 : index
  %ex = tensor.empty(%cn, %cc, %c5, %c7) : tensor<?x?x?x?xf32>
  %x = call @init(%ex, %c7, %c3, %c5, %c2)
      : (tensor<?x?x?x?xf32>, index, index, index, index) -> tensor<?x?x?x?xf32>
  %ew = tensor.empty(%cf, %ccg, %ck, %ck) : tensor<?x?x?x?xf32>
  %wt = call @init(%ew, %c5, %c2, %c3, %c7)
      : (tensor<?x?x?x?xf32>, index, index, index, index) -> tensor<?x?x?x?xf32>
  %er = tensor.empty(%cn, %cf, %c5, %c7) : tensor<?x?x?x?xf32>
  %r = call @init(%er, %c3, %c7, %c2, %c5)
      : (tensor<?x?x?x?xf32>, index, index, index, index) -> tensor<?x?x?x?xf32>
  %eb = tensor.empty(%c1, %cf, %c1, %c1) : tensor<?x?x?x?xf32>
  %b = call @init(%eb, %c2, %c5, %c7, %c3)
      : (tensor<?x?x?x?xf32>, index, index, index, index) -> tensor<?x?x?x?xf32>
  %es = tensor.empty(%c1, %cg, %c1, %c1) : tensor<?x?x?x?xf32>
  %s = call @init(%es, %c7, %c3, %c5, %c2)
      : (tensor<?x?x?x?xf32>, index, index, index, index) -> tensor<?x?x?x?xf32>
  %xs = tensor.cast %x : tensor<?x?x?x?xf32> to tensor<2x12x5x7xf32>
  %ws = tensor.cast %wt : tensor<?x?x?x?xf32> to tensor<9x4x1x1xf32>
  %r4 = tensor.cast %r : tensor<?x?x?x?xf32> to tensor<2x9x5x7xf32>
  %rs = tensor.expand_shape %r4 [[0], [1, 2], [3], [4]] output_shape [2, 3, 3, 5, 7]
      : tensor<2x9x5x7xf32> into tensor<2x3x3x5x7xf32>
  %b4 = tensor.cast %b : tensor<?x?x?x?xf32> to tensor<1x9x1x1xf32>
  %b9 = tensor.collapse_shape %b4 [[0, 1, 2, 3]] : tensor<1x9x1x1xf32> into tensor<9xf32>
  %bs = tensor.expand_shape %b9 [[0, 1]] output_shape [3, 3] : tensor<9xf32> into tensor<3x3xf32>
  %s4 = tensor.cast %s : tensor<?x?x?x?xf32> to tensor<1x3x1x1xf32>
  %ss = tensor.collapse_shape %s4 [[0, 1, 2, 3]] : tensor<1x3x1x1xf32> into tensor<3xf32>
  %y = call @pw2(%xs, %ws, %bs, %ss, %rs)
      : (tensor<2x12x5x7xf32>, tensor<9x4x1x1xf32>, tensor<3x3xf32>, tensor<3xf32>,
         tensor<2x3x3x5x7xf32>) -> tensor<2x9x5x7xf32>
  %u = tensor.cast %y : tensor<2x9x5x7xf32> to tensor<*xf32>
  call @printMemrefF32(%u) : (tensor<*xf32>) -> ()
  return
}

func.func @main_g1() {
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %c5 = arith.constant 5 : index
  %c7 = arith.constant 7 : index
  %c9 = arith.constant 9 : index
  %c12 = arith.constant 12 : index
  %cn = arith.constant 1 : index
  %cc = arith.constant 12 : index
  %cf = arith.constant 9 : index
  %ccg = arith.constant 4 : index
  %cg = arith.constant 3 : index
  %ck = arith.constant 3 : index
  %ex = tensor.empty(%cn, %cc, %c5, %c7) : tensor<?x?x?x?xf32>
  %x = call @init(%ex, %c7, %c3, %c5, %c2)
      : (tensor<?x?x?x?xf32>, index, index, index, index) -> tensor<?x?x?x?xf32>
  %ew = tensor.empty(%cf, %ccg, %ck, %ck) : tensor<?x?x?x?xf32>
  %wt = call @init(%ew, %c5, %c2, %c3, %c7)
      : (tensor<?x?x?x?xf32>, index, index, index, index) -> tensor<?x?x?x?xf32>
  %er = tensor.empty(%cn, %cf, %c5, %c7) : tensor<?x?x?x?xf32>
  %r = call @init(%er, %c3, %c7, %c2, %c5)
      : (tensor<?x?x?x?xf32>, index, index, index, index) -> tensor<?x?x?x?xf32>
  %eb = tensor.empty(%c1, %cf, %c1, %c1) : tensor<?x?x?x?xf32>
  %b = call @init(%eb, %c2, %c5, %c7, %c3)
      : (tensor<?x?x?x?xf32>, index, index, index, index) -> tensor<?x?x?x?xf32>
  %es = tensor.empty(%c1, %cg, %c1, %c1) : tensor<?x?x?x?xf32>
  %s = call @init(%es, %c7, %c3, %c5, %c2)
      : (tensor<?x?x?x?xf32>, index, index, index, index) -> tensor<?x?x?x?xf32>
  %xs = tensor.cast %x : tensor<?x?x?x?xf32> to tensor<1x12x5x7xf32>
  %ws = tensor.cast %wt : tensor<?x?x?x?xf32> to tensor<9x4x3x3xf32>
  %r4 = tensor.cast %r : tensor<?x?x?x?xf32> to tensor<1x9x5x7xf32>
  %rs = tensor.expand_shape %r4 [[0], [1, 2], [3], [4]] output_shape [1, 3, 3, 5, 7]
      : tensor<1x9x5x7xf32> into tensor<1x3x3x5x7xf32>
  %b4 = tensor.cast %b : tensor<?x?x?x?xf32> to tensor<1x9x1x1xf32>
  %b9 = tensor.collapse_shape %b4 [[0, 1, 2, 3]] : tensor<1x9x1x1xf32> into tensor<9xf32>
  %bs = tensor.expand_shape %b9 [[0, 1]] output_shape [3, 3] : tensor<9xf32> into tensor<3x3xf32>
  %s4 = tensor.cast %s : tensor<?x?x?x?xf32> to tensor<1x3x1x1xf32>
  %ss = tensor.collapse_shape %s4 [[0, 1, 2, 3]] : tensor<1x3x1x1xf32> into tensor<3xf32>
  %y = call @g1(%xs, %ws, %bs, %ss, %rs)
      : (tensor<1x12x5x7xf32>, tensor<9x4x3x3xf32>, tensor<3x3xf32>, tensor<3xf32>,
         tensor<1x3x3x5x7xf32>) -> tensor<1x9x5x7xf32>
  %u = tensor.cast %y : tensor<1x9x5x7xf32> to tensor<*xf32>
  call @printMemrefF32(%u) : (tensor<*xf32>) -> ()
  return
}

func.func @main_g2() {
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %c5 = arith.constant 5 : index
  %c7 = arith.constant 7 : index
  %c9 = arith.constant 9 : index
  %c12 = arith.constant 12 : index
  %cn = arith.constant 2 : index
  %cc = arith.constant 12 : index
  %cf = arith.constant 9 : index
  %ccg = arith.constant 4 : index
  %cg = arith.constant 3 : index
  %ck = arith.constant 3 : index
  %ex = tensor.empty(%cn, %cc, %c5, %c7) : tensor<?x?x?x?xf32>
  %x = call @init(%ex, %c7, %c3, %c5, %c2)
      : (tensor<?x?x?x?xf32>, index, index, index, index) -> tensor<?x?x?x?xf32>
  %ew = tensor.empty(%cf, %ccg, %ck, %ck) : tensor<?x?x?x?xf32>
  %wt = call @init(%ew, %c5, %c2, %c3, %c7)
      : (tensor<?x?x?x?xf32>, index, index, index, index) -> tensor<?x?x?x?xf32>
  %er = tensor.empty(%cn, %cf, %c5, %c7) : tensor<?x?x?x?xf32>
  %r = call @init(%er, %c3, %c7, %c2, %c5)
      : (tensor<?x?x?x?xf32>, index, index, index, index) -> tensor<?x?x?x?xf32>
  %eb = tensor.empty(%c1, %cf, %c1, %c1) : tensor<?x?x?x?xf32>
  %b = call @init(%eb, %c2, %c5, %c7, %c3)
      : (tensor<?x?x?x?xf32>, index, index, index, index) -> tensor<?x?x?x?xf32>
  %es = tensor.empty(%c1, %cg, %c1, %c1) : tensor<?x?x?x?xf32>
  %s = call @init(%es, %c7, %c3, %c5, %c2)
      : (tensor<?x?x?x?xf32>, index, index, index, index) -> tensor<?x?x?x?xf32>
  %xs = tensor.cast %x : tensor<?x?x?x?xf32> to tensor<2x12x5x7xf32>
  %ws = tensor.cast %wt : tensor<?x?x?x?xf32> to tensor<9x4x3x3xf32>
  %r4 = tensor.cast %r : tensor<?x?x?x?xf32> to tensor<2x9x5x7xf32>
  %rs = tensor.expand_shape %r4 [[0], [1, 2], [3], [4]] output_shape [2, 3, 3, 5, 7]
      : tensor<2x9x5x7xf32> into tensor<2x3x3x5x7xf32>
  %b4 = tensor.cast %b : tensor<?x?x?x?xf32> to tensor<1x9x1x1xf32>
  %b9 = tensor.collapse_shape %b4 [[0, 1, 2, 3]] : tensor<1x9x1x1xf32> into tensor<9xf32>
  %bs = tensor.expand_shape %b9 [[0, 1]] output_shape [3, 3] : tensor<9xf32> into tensor<3x3xf32>
  %s4 = tensor.cast %s : tensor<?x?x?x?xf32> to tensor<1x3x1x1xf32>
  %ss = tensor.collapse_shape %s4 [[0, 1, 2, 3]] : tensor<1x3x1x1xf32> into tensor<3xf32>
  %y = call @g2(%xs, %ws, %bs, %ss, %rs)
      : (tensor<2x12x5x7xf32>, tensor<9x4x3x3xf32>, tensor<3x3xf32>, tensor<3xf32>,
         tensor<2x3x3x5x7xf32>) -> tensor<2x9x5x7xf32>
  %u = tensor.cast %y : tensor<2x9x5x7xf32> to tensor<*xf32>
  call @printMemrefF32(%u) : (tensor<*xf32>) -> ()
  return
}

func.func @main_g8() {
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %c5 = arith.constant 5 : index
  %c7 = arith.constant 7 : index
  %c9 = arith.constant 9 : index
  %c12 = arith.constant 12 : index
  %cn = arith.constant 2 : index
  %cc = arith.constant 16 : index
  %cf = arith.constant 16 : index
  %ccg = arith.constant 2 : index
  %cg = arith.constant 8 : index
  %ck = arith.constant 3 : index
  %ex = tensor.empty(%cn, %cc, %c5, %c7) : tensor<?x?x?x?xf32>
  %x = call @init(%ex, %c7, %c3, %c5, %c2)
      : (tensor<?x?x?x?xf32>, index, index, index, index) -> tensor<?x?x?x?xf32>
  %ew = tensor.empty(%cf, %ccg, %ck, %ck) : tensor<?x?x?x?xf32>
  %wt = call @init(%ew, %c5, %c2, %c3, %c7)
      : (tensor<?x?x?x?xf32>, index, index, index, index) -> tensor<?x?x?x?xf32>
  %er = tensor.empty(%cn, %cf, %c5, %c7) : tensor<?x?x?x?xf32>
  %r = call @init(%er, %c3, %c7, %c2, %c5)
      : (tensor<?x?x?x?xf32>, index, index, index, index) -> tensor<?x?x?x?xf32>
  %eb = tensor.empty(%c1, %cf, %c1, %c1) : tensor<?x?x?x?xf32>
  %b = call @init(%eb, %c2, %c5, %c7, %c3)
      : (tensor<?x?x?x?xf32>, index, index, index, index) -> tensor<?x?x?x?xf32>
  %es = tensor.empty(%c1, %cg, %c1, %c1) : tensor<?x?x?x?xf32>
  %s = call @init(%es, %c7, %c3, %c5, %c2)
      : (tensor<?x?x?x?xf32>, index, index, index, index) -> tensor<?x?x?x?xf32>
  %xs = tensor.cast %x : tensor<?x?x?x?xf32> to tensor<2x16x5x7xf32>
  %ws = tensor.cast %wt : tensor<?x?x?x?xf32> to tensor<16x2x3x3xf32>
  %r4 = tensor.cast %r : tensor<?x?x?x?xf32> to tensor<2x16x5x7xf32>
  %rs = tensor.expand_shape %r4 [[0], [1, 2], [3], [4]] output_shape [2, 8, 2, 5, 7]
      : tensor<2x16x5x7xf32> into tensor<2x8x2x5x7xf32>
  %b4 = tensor.cast %b : tensor<?x?x?x?xf32> to tensor<1x16x1x1xf32>
  %b9 = tensor.collapse_shape %b4 [[0, 1, 2, 3]] : tensor<1x16x1x1xf32> into tensor<16xf32>
  %bs = tensor.expand_shape %b9 [[0, 1]] output_shape [8, 2] : tensor<16xf32> into tensor<8x2xf32>
  %s4 = tensor.cast %s : tensor<?x?x?x?xf32> to tensor<1x8x1x1xf32>
  %ss = tensor.collapse_shape %s4 [[0, 1, 2, 3]] : tensor<1x8x1x1xf32> into tensor<8xf32>
  %y = call @g8(%xs, %ws, %bs, %ss, %rs)
      : (tensor<2x16x5x7xf32>, tensor<16x2x3x3xf32>, tensor<8x2xf32>, tensor<8xf32>,
         tensor<2x8x2x5x7xf32>) -> tensor<2x16x5x7xf32>
  %u = tensor.cast %y : tensor<2x16x5x7xf32> to tensor<*xf32>
  call @printMemrefF32(%u) : (tensor<*xf32>) -> ()
  return
}

func.func private @printMemrefF32(tensor<*xf32>)

// Output buffers as graphc_task_run has them: each result is materialized
// into a memref argument.
func.func @out_pw1(%x: memref<1x12x5x7xf32>, %w: memref<9x4x1x1xf32>,
                   %out: memref<1x9x5x7xf32>) {
  %zero = arith.constant 0.0 : f32
  %xt = bufferization.to_tensor %x restrict : memref<1x12x5x7xf32> to tensor<1x12x5x7xf32>
  %wt = bufferization.to_tensor %w restrict : memref<9x4x1x1xf32> to tensor<9x4x1x1xf32>
  %xg = tensor.expand_shape %xt [[0], [1, 2], [3], [4]] output_shape [1, 3, 4, 5, 7]
      : tensor<1x12x5x7xf32> into tensor<1x3x4x5x7xf32>
  %wg = tensor.expand_shape %wt [[0, 1], [2], [3], [4]] output_shape [3, 3, 4, 1, 1]
      : tensor<9x4x1x1xf32> into tensor<3x3x4x1x1xf32>
  %e = tensor.empty() : tensor<1x3x3x5x7xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x3x3x5x7xf32>) -> tensor<1x3x3x5x7xf32>
  %y = linalg.conv_2d_ngchw_gfchw {dilations = dense<1> : tensor<2xi64>,
                                   strides = dense<1> : tensor<2xi64>}
      ins(%xg, %wg : tensor<1x3x4x5x7xf32>, tensor<3x3x4x1x1xf32>)
      outs(%f : tensor<1x3x3x5x7xf32>) -> tensor<1x3x3x5x7xf32>
  %c = tensor.collapse_shape %y [[0], [1, 2], [3], [4]]
      : tensor<1x3x3x5x7xf32> into tensor<1x9x5x7xf32>
  bufferization.materialize_in_destination %c in restrict writable %out
      : (tensor<1x9x5x7xf32>, memref<1x9x5x7xf32>) -> ()
  return
}

func.func @out_g2(%x: memref<2x12x7x9xf32>, %w: memref<9x4x3x3xf32>,
                  %out: memref<2x9x5x7xf32>) {
  %zero = arith.constant 0.0 : f32
  %xt = bufferization.to_tensor %x restrict : memref<2x12x7x9xf32> to tensor<2x12x7x9xf32>
  %wt = bufferization.to_tensor %w restrict : memref<9x4x3x3xf32> to tensor<9x4x3x3xf32>
  %xg = tensor.expand_shape %xt [[0], [1, 2], [3], [4]] output_shape [2, 3, 4, 7, 9]
      : tensor<2x12x7x9xf32> into tensor<2x3x4x7x9xf32>
  %wg = tensor.expand_shape %wt [[0, 1], [2], [3], [4]] output_shape [3, 3, 4, 3, 3]
      : tensor<9x4x3x3xf32> into tensor<3x3x4x3x3xf32>
  %e = tensor.empty() : tensor<2x3x3x5x7xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<2x3x3x5x7xf32>) -> tensor<2x3x3x5x7xf32>
  %y = linalg.conv_2d_ngchw_gfchw {dilations = dense<1> : tensor<2xi64>,
                                   strides = dense<1> : tensor<2xi64>}
      ins(%xg, %wg : tensor<2x3x4x7x9xf32>, tensor<3x3x4x3x3xf32>)
      outs(%f : tensor<2x3x3x5x7xf32>) -> tensor<2x3x3x5x7xf32>
  %c = tensor.collapse_shape %y [[0], [1, 2], [3], [4]]
      : tensor<2x3x3x5x7xf32> into tensor<2x9x5x7xf32>
  bufferization.materialize_in_destination %c in restrict writable %out
      : (tensor<2x9x5x7xf32>, memref<2x9x5x7xf32>) -> ()
  return
}

func.func @out_conv(%x: memref<1x8x9x9xf32>, %w: memref<16x8x5x5xf32>,
                    %out: memref<1x16x5x5xf32>) {
  %zero = arith.constant 0.0 : f32
  %xt = bufferization.to_tensor %x restrict : memref<1x8x9x9xf32> to tensor<1x8x9x9xf32>
  %wt = bufferization.to_tensor %w restrict : memref<16x8x5x5xf32> to tensor<16x8x5x5xf32>
  %e = tensor.empty() : tensor<1x16x5x5xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x16x5x5xf32>) -> tensor<1x16x5x5xf32>
  %y = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>,
                                 strides = dense<1> : tensor<2xi64>}
      ins(%xt, %wt : tensor<1x8x9x9xf32>, tensor<16x8x5x5xf32>)
      outs(%f : tensor<1x16x5x5xf32>) -> tensor<1x16x5x5xf32>
  bufferization.materialize_in_destination %y in restrict writable %out
      : (tensor<1x16x5x5xf32>, memref<1x16x5x5xf32>) -> ()
  return
}
