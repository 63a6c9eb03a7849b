// Numeric check of the epilogues of the depthwise kernel and of the grouped
// 1x1 GEMMs (docs/design/cpu-codegen.md, "Grouped and depthwise
// convolutions"): a depthwise 3x3 convolution
// (linalg.conv_2d_ngchw_gfchw, 6 channels, padding 1 by a tensor.pad of the
// images) whose only user is an elementwise linalg.generic that adds a
// per-channel bias (indexing map d1), multiplies by the square of a
// per-channel scale (a [G, M] tensor, map (d1, d2)), adds a residual of the
// output's shape, subtracts a scalar from outside the body and takes the
// ReLU: max((y + b) * s^2 + r - 0.5, 0). The kernel applies the generic to
// each accumulator vector before its store and the generic disappears; the
// square of the scale reads per-channel values only and is computed once
// per task, as a scalar. Compared with NumPy (Inputs/reference.py), with
// vector widths 16 and 8 (11 columns: a tail of 8, 2, 1 or one of 8 and 3).
// REQUIRES: libomp
// RUN: graph-opt %s --graphc-cpu-codegen="vector-width=16 min-parallel-work=0" \
// RUN: | mlir-runner -e main -entry-point-result=void \
// RUN:   -shared-libs=%mlir_c_runner_utils,%mlir_runner_utils,%libomp > %t.16
// RUN: %numpy_python %S/Inputs/reference.py dw_epilogue 2,6,9,11 %t.16 | FileCheck %s --check-prefix=NUM
// RUN: graph-opt %s --graphc-cpu-codegen="vector-width=8 openmp=0" \
// RUN: | mlir-runner -e main -entry-point-result=void \
// RUN:   -shared-libs=%mlir_c_runner_utils,%mlir_runner_utils,%libomp > %t.8
// RUN: %numpy_python %S/Inputs/reference.py dw_epilogue 2,6,9,11 %t.8 | FileCheck %s --check-prefix=NUM
// NUM: dw_epilogue OK, 1188 values, max error 0.0
//
// The same epilogue on a grouped 1x1 convolution (3 groups of 4 -> 3
// channels, batch 8: one task per image, its batch matmul, then the
// epilogue on the image's result, per output channel, 35 pixels as vectors
// of 16 or 8 and the rest in pieces); the bias is per output channel (map
// (d1, d2)), the scale per group (map d1).
// RUN: graph-opt %s --graphc-cpu-codegen="vector-width=16 min-parallel-work=0" \
// RUN: | mlir-runner -e main_pw -entry-point-result=void \
// RUN:   -shared-libs=%mlir_c_runner_utils,%mlir_runner_utils,%libomp > %t.pw16
// RUN: %numpy_python %S/Inputs/reference.py pw_epilogue 8,12,5,7,9,3 %t.pw16 | FileCheck %s --check-prefix=PW
// RUN: graph-opt %s --graphc-cpu-codegen="vector-width=8 openmp=0" \
// RUN: | mlir-runner -e main_pw -entry-point-result=void \
// RUN:   -shared-libs=%mlir_c_runner_utils,%mlir_runner_utils,%libomp > %t.pw8
// RUN: %numpy_python %S/Inputs/reference.py pw_epilogue 8,12,5,7,9,3 %t.pw8 | FileCheck %s --check-prefix=PW
// PW: pw_epilogue OK, 2520 values, max error 0.0

// RUN: graph-opt %s --pass-pipeline='builtin.module(func.func(graphc-cpu-tile-and-vectorize{vector-width=8}))' \
// RUN: | FileCheck %s
// CHECK-LABEL: func.func @dw(
// CHECK-NOT:   linalg.generic
// CHECK:       scf.forall ({{.*}}) in (2, 6) shared_outs({{.*}}) -> (tensor<2x6x9x11xf32>)
// CHECK:       tensor.extract_slice {{.*}} : tensor<2x6x1x9x11xf32> to tensor<9x11xf32>
// CHECK:       tensor.extract {{.*}} : tensor<6xf32>
// CHECK:       tensor.extract {{.*}} : tensor<6x1xf32>
// CHECK:       arith.mulf {{.*}} : f32
// CHECK-NEXT:  scf.for
// CHECK:       vector.fma {{.*}} : vector<8xf32>
// CHECK:       vector.transfer_read {{.*}} : tensor<9x11xf32>, vector<8xf32>
// CHECK:       arith.addf {{.*}} : vector<8xf32>
// CHECK:       arith.mulf {{.*}} : vector<8xf32>
// CHECK:       arith.addf {{.*}} : vector<8xf32>
// CHECK:       arith.subf {{.*}} : vector<8xf32>
// CHECK:       arith.maximumf {{.*}} : vector<8xf32>
// CHECK:       vector.transfer_write
// CHECK-NOT:   linalg.generic
// CHECK-LABEL: func.func @pw(
// CHECK-NOT:   linalg.generic
// CHECK:       scf.forall (%[[I:.*]]) in (8) shared_outs({{.*}}) -> (tensor<8x9x5x7xf32>)
// CHECK:       vector.contract
// CHECK:       scf.for %{{.*}} = %c0{{.*}} to %c3{{.*}} step %c1
// CHECK-NEXT:  scf.for %{{.*}} = %c0{{.*}} to %c3{{.*}} step %c1
// CHECK:       tensor.extract {{.*}} : tensor<3x3xf32>
// CHECK:       tensor.extract {{.*}} : tensor<3xf32>
// CHECK:       arith.mulf {{.*}} : f32
// CHECK:       tensor.extract_slice {{.*}} : tensor<3x3x35xf32> to tensor<35xf32>
// CHECK:       scf.for
// CHECK:       vector.transfer_read {{.*}} : tensor<35xf32>, vector<8xf32>
// CHECK:       arith.maximumf {{.*}} : vector<8xf32>
// CHECK:       arith.maximumf {{.*}} : vector<2xf32>
// CHECK:       arith.maximumf {{.*}} : vector<1xf32>
// CHECK:       tensor.parallel_insert_slice
// CHECK-NOT:   linalg.generic
// A convolution with a second user keeps its generic (a separate loop nest
// after the kernel's scf.forall).
// CHECK-LABEL: func.func @two_users(
// CHECK:       scf.forall
// CHECK:       vector.fma
// CHECK-NOT:   arith.maximumf
// CHECK:       scf.forall.in_parallel
// CHECK:       scf.for
// CHECK:       arith.maximumf {{.*}} : vector<1x1x1x1x8xf32>

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

func.func @dw(%x: tensor<2x6x9x11xf32>, %w: tensor<6x1x1x3x3xf32>, %b: tensor<6xf32>,
              %s: tensor<6x1xf32>, %res: tensor<2x6x1x9x11xf32>) -> tensor<2x6x9x11xf32> {
  %zero = arith.constant 0.0 : f32
  %half = arith.constant 0.5 : f32
  %p = tensor.pad %x low[0, 0, 1, 1] high[0, 0, 1, 1] {
  ^bb0(%i0: index, %i1: index, %i2: index, %i3: index):
    tensor.yield %zero : f32
  } : tensor<2x6x9x11xf32> to tensor<2x6x11x13xf32>
  %xp = tensor.expand_shape %p [[0], [1], [2, 3], [4]] output_shape [2, 6, 1, 11, 13]
      : tensor<2x6x11x13xf32> into tensor<2x6x1x11x13xf32>
  %e = tensor.empty() : tensor<2x6x1x9x11xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<2x6x1x9x11xf32>) -> tensor<2x6x1x9x11xf32>
  %y = linalg.conv_2d_ngchw_gfchw {dilations = dense<1> : tensor<2xi64>,
                                   strides = dense<1> : tensor<2xi64>}
      ins(%xp, %w : tensor<2x6x1x11x13xf32>, tensor<6x1x1x3x3xf32>)
      outs(%f : tensor<2x6x1x9x11xf32>) -> tensor<2x6x1x9x11xf32>
  %e2 = tensor.empty() : tensor<2x6x1x9x11xf32>
  %r = linalg.generic {indexing_maps = [#id5, #g, #gm, #id5, #id5],
                       iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel"]}
      ins(%y, %b, %s, %res : tensor<2x6x1x9x11xf32>, tensor<6xf32>, tensor<6x1xf32>, tensor<2x6x1x9x11xf32>)
      outs(%e2 : tensor<2x6x1x9x11xf32>) {
  ^bb0(%vy: f32, %vb: f32, %vs: f32, %vr: f32, %o: f32):
    %a = arith.addf %vy, %vb : f32
    %s2 = arith.mulf %vs, %vs : f32
    %m = arith.mulf %a, %s2 : f32
    %q0 = arith.addf %m, %vr : f32
    %q = arith.subf %q0, %half : f32
    %relu = arith.maximumf %q, %zero : f32
    linalg.yield %relu : f32
  } -> tensor<2x6x1x9x11xf32>
  %c = tensor.collapse_shape %r [[0], [1, 2], [3], [4]]
      : tensor<2x6x1x9x11xf32> into tensor<2x6x9x11xf32>
  return %c : tensor<2x6x9x11xf32>
}

func.func @pw(%x: tensor<8x12x5x7xf32>, %w: tensor<9x4x1x1xf32>, %b: tensor<3x3xf32>,
              %s: tensor<3xf32>, %res: tensor<8x3x3x5x7xf32>) -> tensor<8x9x5x7xf32> {
  %zero = arith.constant 0.0 : f32
  %half = arith.constant 0.5 : f32
  %xg = tensor.expand_shape %x [[0], [1, 2], [3], [4]] output_shape [8, 3, 4, 5, 7]
      : tensor<8x12x5x7xf32> into tensor<8x3x4x5x7xf32>
  %wg = tensor.expand_shape %w [[0, 1], [2], [3], [4]] output_shape [3, 3, 4, 1, 1]
      : tensor<9x4x1x1xf32> into tensor<3x3x4x1x1xf32>
  %e = tensor.empty() : tensor<8x3x3x5x7xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<8x3x3x5x7xf32>) -> tensor<8x3x3x5x7xf32>
  %y = linalg.conv_2d_ngchw_gfchw {dilations = dense<1> : tensor<2xi64>,
                                   strides = dense<1> : tensor<2xi64>}
      ins(%xg, %wg : tensor<8x3x4x5x7xf32>, tensor<3x3x4x1x1xf32>)
      outs(%f : tensor<8x3x3x5x7xf32>) -> tensor<8x3x3x5x7xf32>
  %e2 = tensor.empty() : tensor<8x3x3x5x7xf32>
  %r = linalg.generic {indexing_maps = [#id5, #gm, #g, #id5, #id5],
                       iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel"]}
      ins(%y, %b, %s, %res : tensor<8x3x3x5x7xf32>, tensor<3x3xf32>, tensor<3xf32>, tensor<8x3x3x5x7xf32>)
      outs(%e2 : tensor<8x3x3x5x7xf32>) {
  ^bb0(%vy: f32, %vb: f32, %vs: f32, %vr: f32, %o: f32):
    %a = arith.addf %vy, %vb : f32
    %s2 = arith.mulf %vs, %vs : f32
    %m = arith.mulf %a, %s2 : f32
    %q0 = arith.addf %m, %vr : f32
    %q = arith.subf %q0, %half : f32
    %relu = arith.maximumf %q, %zero : f32
    linalg.yield %relu : f32
  } -> tensor<8x3x3x5x7xf32>
  %c = tensor.collapse_shape %r [[0], [1, 2], [3], [4]]
      : tensor<8x3x3x5x7xf32> into tensor<8x9x5x7xf32>
  return %c : tensor<8x9x5x7xf32>
}

func.func @two_users(%x: tensor<2x6x1x11x13xf32>, %w: tensor<6x1x1x3x3xf32>)
    -> (tensor<2x6x1x9x11xf32>, tensor<2x6x1x9x11xf32>) {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2x6x1x9x11xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<2x6x1x9x11xf32>) -> tensor<2x6x1x9x11xf32>
  %y = linalg.conv_2d_ngchw_gfchw {dilations = dense<1> : tensor<2xi64>,
                                   strides = dense<1> : tensor<2xi64>}
      ins(%x, %w : tensor<2x6x1x11x13xf32>, tensor<6x1x1x3x3xf32>)
      outs(%f : tensor<2x6x1x9x11xf32>) -> tensor<2x6x1x9x11xf32>
  %e2 = tensor.empty() : tensor<2x6x1x9x11xf32>
  %r = linalg.generic {indexing_maps = [#id5, #id5],
                       iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel"]}
      ins(%y : tensor<2x6x1x9x11xf32>) outs(%e2 : tensor<2x6x1x9x11xf32>) {
  ^bb0(%vy: f32, %o: f32):
    %relu = arith.maximumf %vy, %zero : f32
    linalg.yield %relu : f32
  } -> tensor<2x6x1x9x11xf32>
  return %y, %r : tensor<2x6x1x9x11xf32>, tensor<2x6x1x9x11xf32>
}

func.func private @printMemrefF32(tensor<*xf32>)

// The inputs of dw_epilogue in reference.py: x = input 0, w = input 1
// ([6, 1, 3, 3]), the residual input 2, the bias input 3 and the scale
// input 0, both of shape [1, 6, 1, 1].
func.func @main() {
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c5 = arith.constant 5 : index
  %c6 = arith.constant 6 : index
  %c7 = arith.constant 7 : index
  %c9 = arith.constant 9 : index
  %c11 = arith.constant 11 : index
  %ex = tensor.empty(%c2, %c6, %c9, %c11) : tensor<?x?x?x?xf32>
  %x = call @init(%ex, %c7, %c3, %c5, %c2)
      : (tensor<?x?x?x?xf32>, index, index, index, index) -> tensor<?x?x?x?xf32>
  %ew = tensor.empty(%c6, %c1, %c3, %c3) : tensor<?x?x?x?xf32>
  %wt = call @init(%ew, %c5, %c2, %c3, %c7)
      : (tensor<?x?x?x?xf32>, index, index, index, index) -> tensor<?x?x?x?xf32>
  %r = call @init(%ex, %c3, %c7, %c2, %c5)
      : (tensor<?x?x?x?xf32>, index, index, index, index) -> tensor<?x?x?x?xf32>
  %eb = tensor.empty(%c1, %c6, %c1, %c1) : tensor<?x?x?x?xf32>
  %b = call @init(%eb, %c2, %c5, %c7, %c3)
      : (tensor<?x?x?x?xf32>, index, index, index, index) -> tensor<?x?x?x?xf32>
  %s = call @init(%eb, %c7, %c3, %c5, %c2)
      : (tensor<?x?x?x?xf32>, index, index, index, index) -> tensor<?x?x?x?xf32>
  %xs = tensor.cast %x : tensor<?x?x?x?xf32> to tensor<2x6x9x11xf32>
  %w4 = tensor.cast %wt : tensor<?x?x?x?xf32> to tensor<6x1x3x3xf32>
  %ws = tensor.expand_shape %w4 [[0], [1, 2], [3], [4]] output_shape [6, 1, 1, 3, 3]
      : tensor<6x1x3x3xf32> into tensor<6x1x1x3x3xf32>
  %r4 = tensor.cast %r : tensor<?x?x?x?xf32> to tensor<2x6x9x11xf32>
  %rs = tensor.expand_shape %r4 [[0], [1, 2], [3], [4]] output_shape [2, 6, 1, 9, 11]
      : tensor<2x6x9x11xf32> into tensor<2x6x1x9x11xf32>
  %b4 = tensor.cast %b : tensor<?x?x?x?xf32> to tensor<1x6x1x1xf32>
  %bs = tensor.collapse_shape %b4 [[0, 1, 2, 3]] : tensor<1x6x1x1xf32> into tensor<6xf32>
  %s4 = tensor.cast %s : tensor<?x?x?x?xf32> to tensor<1x6x1x1xf32>
  %ss = tensor.collapse_shape %s4 [[0, 1], [2, 3]] : tensor<1x6x1x1xf32> into tensor<6x1xf32>
  %y = call @dw(%xs, %ws, %bs, %ss, %rs)
      : (tensor<2x6x9x11xf32>, tensor<6x1x1x3x3xf32>, tensor<6xf32>, tensor<6x1xf32>,
         tensor<2x6x1x9x11xf32>) -> tensor<2x6x9x11xf32>
  %u = tensor.cast %y : tensor<2x6x9x11xf32> to tensor<*xf32>
  call @printMemrefF32(%u) : (tensor<*xf32>) -> ()
  return
}

// The inputs of pw_epilogue in reference.py: x = input 0, w = input 1,
// the residual input 2, the bias input 3 ([1, 9, 1, 1]) and the scale
// input 0 ([1, 3, 1, 1]).
func.func @main_pw() {
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %c5 = arith.constant 5 : index
  %c7 = arith.constant 7 : index
  %c8 = arith.constant 8 : index
  %c9 = arith.constant 9 : index
  %c12 = arith.constant 12 : index
  %ex = tensor.empty(%c8, %c12, %c5, %c7) : tensor<?x?x?x?xf32>
  %x = call @init(%ex, %c7, %c3, %c5, %c2)
      : (tensor<?x?x?x?xf32>, index, index, index, index) -> tensor<?x?x?x?xf32>
  %ew = tensor.empty(%c9, %c4, %c1, %c1) : tensor<?x?x?x?xf32>
  %wt = call @init(%ew, %c5, %c2, %c3, %c7)
      : (tensor<?x?x?x?xf32>, index, index, index, index) -> tensor<?x?x?x?xf32>
  %er = tensor.empty(%c8, %c9, %c5, %c7) : tensor<?x?x?x?xf32>
  %r = call @init(%er, %c3, %c7, %c2, %c5)
      : (tensor<?x?x?x?xf32>, index, index, index, index) -> tensor<?x?x?x?xf32>
  %eb = tensor.empty(%c1, %c9, %c1, %c1) : tensor<?x?x?x?xf32>
  %b = call @init(%eb, %c2, %c5, %c7, %c3)
      : (tensor<?x?x?x?xf32>, index, index, index, index) -> tensor<?x?x?x?xf32>
  %es = tensor.empty(%c1, %c3, %c1, %c1) : tensor<?x?x?x?xf32>
  %s = call @init(%es, %c7, %c3, %c5, %c2)
      : (tensor<?x?x?x?xf32>, index, index, index, index) -> tensor<?x?x?x?xf32>
  %xs = tensor.cast %x : tensor<?x?x?x?xf32> to tensor<8x12x5x7xf32>
  %ws = tensor.cast %wt : tensor<?x?x?x?xf32> to tensor<9x4x1x1xf32>
  %r4 = tensor.cast %r : tensor<?x?x?x?xf32> to tensor<8x9x5x7xf32>
  %rs = tensor.expand_shape %r4 [[0], [1, 2], [3], [4]] output_shape [8, 3, 3, 5, 7]
      : tensor<8x9x5x7xf32> into tensor<8x3x3x5x7xf32>
  %b4 = tensor.cast %b : tensor<?x?x?x?xf32> to tensor<1x9x1x1xf32>
  %b9 = tensor.collapse_shape %b4 [[0, 1, 2, 3]] : tensor<1x9x1x1xf32> into tensor<9xf32>
  %bs = tensor.expand_shape %b9 [[0, 1]] output_shape [3, 3] : tensor<9xf32> into tensor<3x3xf32>
  %s4 = tensor.cast %s : tensor<?x?x?x?xf32> to tensor<1x3x1x1xf32>
  %ss = tensor.collapse_shape %s4 [[0, 1, 2, 3]] : tensor<1x3x1x1xf32> into tensor<3xf32>
  %y = call @pw(%xs, %ws, %bs, %ss, %rs)
      : (tensor<8x12x5x7xf32>, tensor<9x4x1x1xf32>, tensor<3x3xf32>, tensor<3xf32>,
         tensor<8x3x3x5x7xf32>) -> tensor<8x9x5x7xf32>
  %u = tensor.cast %y : tensor<8x9x5x7xf32> to tensor<*xf32>
  call @printMemrefF32(%u) : (tensor<*xf32>) -> ()
  return
}
