// Numeric check of the direct kernels' epilogue (docs/design/cpu-codegen.md,
// "Epilogues in the direct kernels"): a convolution whose only user is an
// elementwise linalg.generic that adds a per-channel bias (a 1-D tensor),
// multiplies by the square of a per-channel scale (a [1, F, 1, 1] tensor,
// indexing map (0, d1, 0, 0)), adds a residual of the output's shape, subtracts a scalar
// from outside the body and takes the ReLU. The generic is applied to the
// kernel's tiles in registers and disappears: for the row kernel (3x3, 32
// channels, 8 columns) and the pointwise kernel (1x1, 16 channels, 81
// pixels: three vectors of 16 and a tail). Compared with NumPy
// (Inputs/reference.py). The square of the scale reads per-channel values
// only: it is computed once per channel (a vector over the row kernel's
// channels, a scalar in the pointwise kernel), not per output element.
// REQUIRES: libomp
// RUN: graph-opt %s --graphc-cpu-codegen="direct-conv=all vector-width=16" \
// RUN: | mlir-runner -e main -entry-point-result=void \
// RUN:   -shared-libs=%mlir_c_runner_utils,%mlir_runner_utils,%libomp > %t.out
// RUN: %numpy_python %S/Inputs/reference.py conv_epilogue 2,5,10,10,32,3,3 %t.out
// RUN: graph-opt %s --graphc-cpu-codegen="direct-conv=all vector-width=16" \
// RUN: | mlir-runner -e main_pointwise -entry-point-result=void \
// RUN:   -shared-libs=%mlir_c_runner_utils,%mlir_runner_utils,%libomp > %t.pw
// RUN: %numpy_python %S/Inputs/reference.py conv_epilogue 2,5,9,9,16,1,1 %t.pw
// RUN: graph-opt %s --graphc-cpu-codegen="direct-conv=all vector-width=8" \
// RUN: | mlir-runner -e main -entry-point-result=void \
// RUN:   -shared-libs=%mlir_c_runner_utils,%mlir_runner_utils,%libomp > %t.8
// RUN: %numpy_python %S/Inputs/reference.py conv_epilogue 2,5,10,10,32,3,3 %t.8

// RUN: graph-opt %s --graphc-cpu-direct-conv="vector-width=16" | FileCheck %s
// CHECK-LABEL: func.func @conv
// CHECK-NOT:   linalg.generic
// CHECK:       scf.forall
// CHECK:       vector.fma
// CHECK:       vector.transpose %{{.*}}, [1, 0] : vector<16x16xf32> to vector<16x16xf32>
// CHECK:       vector.extract_strided_slice %{{.*}} {offsets = [0, 0], sizes = [16, 8], strides = [1, 1]} : vector<16x16xf32> to vector<16x8xf32>
// CHECK:       vector.insert_strided_slice %{{.*}}, %{{.*}} {offsets = [16, 0], strides = [1, 1]} : vector<16x8xf32> into vector<32x8xf32>
// CHECK:       vector.transfer_read {{.*}} : tensor<32xf32>, vector<32xf32>
// CHECK:       vector.transfer_read {{.*}} : tensor<1x32x1x1xf32>, vector<32xf32>
// CHECK:       vector.transfer_read {{.*}} : tensor<2x32x8x8xf32>, vector<32x1x8xf32>
// CHECK:       arith.addf {{.*}} : vector<32x8xf32>
// CHECK:       arith.mulf {{.*}} : vector<32xf32>
// CHECK:       arith.mulf {{.*}} : vector<32x8xf32>
// CHECK:       arith.addf {{.*}} : vector<32x8xf32>
// CHECK:       arith.subf {{.*}} : vector<32x8xf32>
// CHECK:       arith.maximumf {{.*}} : vector<32x8xf32>
// CHECK-NOT:   linalg.generic
// CHECK-LABEL: func.func @conv_pointwise
// CHECK-NOT:   linalg.generic
// CHECK:       scf.forall
// CHECK:       vector.fma
// CHECK:       tensor.extract {{.*}} : tensor<16xf32>
// CHECK:       arith.mulf {{.*}} : f32
// CHECK:       arith.maximumf {{.*}} : vector<16xf32>
// CHECK-NOT:   linalg.generic
// A convolution with a second user keeps its generic.
// CHECK-LABEL: func.func @two_users
// CHECK:       scf.forall
// CHECK:       linalg.generic

#id4 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#ch = affine_map<(d0, d1, d2, d3) -> (d1)>
#ch4 = affine_map<(d0, d1, d2, d3) -> (0, d1, 0, 0)>

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

func.func @conv(%x: tensor<2x5x10x10xf32>, %w: tensor<32x5x3x3xf32>, %b: tensor<32xf32>,
                %s: tensor<1x32x1x1xf32>, %res: tensor<2x32x8x8xf32>) -> tensor<2x32x8x8xf32> {
  %zero = arith.constant 0.0 : f32
  %half = arith.constant 0.5 : f32
  %e = tensor.empty() : tensor<2x32x8x8xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<2x32x8x8xf32>) -> tensor<2x32x8x8xf32>
  %y = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>,
                                 strides = dense<1> : tensor<2xi64>}
      ins(%x, %w : tensor<2x5x10x10xf32>, tensor<32x5x3x3xf32>)
      outs(%f : tensor<2x32x8x8xf32>) -> tensor<2x32x8x8xf32>
  %e2 = tensor.empty() : tensor<2x32x8x8xf32>
  %r = linalg.generic {indexing_maps = [#id4, #ch, #ch4, #id4, #id4],
                       iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%y, %b, %s, %res : tensor<2x32x8x8xf32>, tensor<32xf32>, tensor<1x32x1x1xf32>, tensor<2x32x8x8xf32>)
      outs(%e2 : tensor<2x32x8x8xf32>) {
  ^bb0(%vy: f32, %vb: f32, %vs: f32, %vr: f32, %o: f32):
    %a = arith.addf %vy, %vb : f32
    %s2 = arith.mulf %vs, %vs : f32
    %m = arith.mulf %a, %s2 : f32
    %p = arith.addf %m, %vr : f32
    %q = arith.subf %p, %half : f32
    %relu = arith.maximumf %q, %zero : f32
    linalg.yield %relu : f32
  } -> tensor<2x32x8x8xf32>
  return %r : tensor<2x32x8x8xf32>
}

func.func @conv_pointwise(%x: tensor<2x5x9x9xf32>, %w: tensor<16x5x1x1xf32>, %b: tensor<16xf32>,
                          %s: tensor<1x16x1x1xf32>, %res: tensor<2x16x9x9xf32>) -> tensor<2x16x9x9xf32> {
  %zero = arith.constant 0.0 : f32
  %half = arith.constant 0.5 : f32
  %e = tensor.empty() : tensor<2x16x9x9xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<2x16x9x9xf32>) -> tensor<2x16x9x9xf32>
  %y = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>,
                                 strides = dense<1> : tensor<2xi64>}
      ins(%x, %w : tensor<2x5x9x9xf32>, tensor<16x5x1x1xf32>)
      outs(%f : tensor<2x16x9x9xf32>) -> tensor<2x16x9x9xf32>
  %e2 = tensor.empty() : tensor<2x16x9x9xf32>
  %r = linalg.generic {indexing_maps = [#id4, #ch, #ch4, #id4, #id4],
                       iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%y, %b, %s, %res : tensor<2x16x9x9xf32>, tensor<16xf32>, tensor<1x16x1x1xf32>, tensor<2x16x9x9xf32>)
      outs(%e2 : tensor<2x16x9x9xf32>) {
  ^bb0(%vy: f32, %vb: f32, %vs: f32, %vr: f32, %o: f32):
    %a = arith.addf %vy, %vb : f32
    %s2 = arith.mulf %vs, %vs : f32
    %m = arith.mulf %a, %s2 : f32
    %p = arith.addf %m, %vr : f32
    %q = arith.subf %p, %half : f32
    %relu = arith.maximumf %q, %zero : f32
    linalg.yield %relu : f32
  } -> tensor<2x16x9x9xf32>
  return %r : tensor<2x16x9x9xf32>
}

func.func @two_users(%x: tensor<2x5x10x10xf32>, %w: tensor<32x5x3x3xf32>)
    -> (tensor<2x32x8x8xf32>, tensor<2x32x8x8xf32>) {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2x32x8x8xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<2x32x8x8xf32>) -> tensor<2x32x8x8xf32>
  %y = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>,
                                 strides = dense<1> : tensor<2xi64>}
      ins(%x, %w : tensor<2x5x10x10xf32>, tensor<32x5x3x3xf32>)
      outs(%f : tensor<2x32x8x8xf32>) -> tensor<2x32x8x8xf32>
  %e2 = tensor.empty() : tensor<2x32x8x8xf32>
  %r = linalg.generic {indexing_maps = [#id4, #id4],
                       iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%y : tensor<2x32x8x8xf32>) outs(%e2 : tensor<2x32x8x8xf32>) {
  ^bb0(%vy: f32, %o: f32):
    %relu = arith.maximumf %vy, %zero : f32
    linalg.yield %relu : f32
  } -> tensor<2x32x8x8xf32>
  return %y, %r : tensor<2x32x8x8xf32>, tensor<2x32x8x8xf32>
}

func.func private @printMemrefF32(tensor<*xf32>)

// The inputs of conv_epilogue in reference.py: x = input 0, w = input 1,
// the residual input 2, the bias input 3 and the scale input 0, both of
// shape [1, F, 1, 1].
func.func @inputs(%n: index, %c: index, %h: index, %w: index, %f: index,
                  %k: index, %oh: index, %ow: index)
    -> (tensor<?x?x?x?xf32>, tensor<?x?x?x?xf32>, tensor<?x?x?x?xf32>,
        tensor<?x?x?x?xf32>, tensor<?x?x?x?xf32>) {
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c5 = arith.constant 5 : index
  %c7 = arith.constant 7 : index
  %ex = tensor.empty(%n, %c, %h, %w) : tensor<?x?x?x?xf32>
  %x = call @init(%ex, %c7, %c3, %c5, %c2)
      : (tensor<?x?x?x?xf32>, index, index, index, index) -> tensor<?x?x?x?xf32>
  %ew = tensor.empty(%f, %c, %k, %k) : tensor<?x?x?x?xf32>
  %wt = call @init(%ew, %c5, %c2, %c3, %c7)
      : (tensor<?x?x?x?xf32>, index, index, index, index) -> tensor<?x?x?x?xf32>
  %er = tensor.empty(%n, %f, %oh, %ow) : tensor<?x?x?x?xf32>
  %r = call @init(%er, %c3, %c7, %c2, %c5)
      : (tensor<?x?x?x?xf32>, index, index, index, index) -> tensor<?x?x?x?xf32>
  %eb = tensor.empty(%c1, %f, %c1, %c1) : tensor<?x?x?x?xf32>
  %b = call @init(%eb, %c2, %c5, %c7, %c3)
      : (tensor<?x?x?x?xf32>, index, index, index, index) -> tensor<?x?x?x?xf32>
  %s = call @init(%eb, %c7, %c3, %c5, %c2)
      : (tensor<?x?x?x?xf32>, index, index, index, index) -> tensor<?x?x?x?xf32>
  return %x, %wt, %r, %b, %s : tensor<?x?x?x?xf32>, tensor<?x?x?x?xf32>,
      tensor<?x?x?x?xf32>, tensor<?x?x?x?xf32>, tensor<?x?x?x?xf32>
}

func.func @main() {
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c5 = arith.constant 5 : index
  %c8 = arith.constant 8 : index
  %c10 = arith.constant 10 : index
  %c32 = arith.constant 32 : index
  %x, %w, %r, %b, %s = call @inputs(%c2, %c5, %c10, %c10, %c32, %c3, %c8, %c8)
      : (index, index, index, index, index, index, index, index)
      -> (tensor<?x?x?x?xf32>, tensor<?x?x?x?xf32>, tensor<?x?x?x?xf32>,
          tensor<?x?x?x?xf32>, tensor<?x?x?x?xf32>)
  %xs = tensor.cast %x : tensor<?x?x?x?xf32> to tensor<2x5x10x10xf32>
  %ws = tensor.cast %w : tensor<?x?x?x?xf32> to tensor<32x5x3x3xf32>
  %rs = tensor.cast %r : tensor<?x?x?x?xf32> to tensor<2x32x8x8xf32>
  %bs4 = tensor.cast %b : tensor<?x?x?x?xf32> to tensor<1x32x1x1xf32>
  %bs = tensor.collapse_shape %bs4 [[0, 1, 2, 3]] : tensor<1x32x1x1xf32> into tensor<32xf32>
  %ss = tensor.cast %s : tensor<?x?x?x?xf32> to tensor<1x32x1x1xf32>
  %y = call @conv(%xs, %ws, %bs, %ss, %rs)
      : (tensor<2x5x10x10xf32>, tensor<32x5x3x3xf32>, tensor<32xf32>, tensor<1x32x1x1xf32>, tensor<2x32x8x8xf32>) -> tensor<2x32x8x8xf32>
  %u = tensor.cast %y : tensor<2x32x8x8xf32> to tensor<*xf32>
  call @printMemrefF32(%u) : (tensor<*xf32>) -> ()
  return
}

func.func @main_pointwise() {
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c5 = arith.constant 5 : index
  %c9 = arith.constant 9 : index
  %c16 = arith.constant 16 : index
  %x, %w, %r, %b, %s = call @inputs(%c2, %c5, %c9, %c9, %c16, %c1, %c9, %c9)
      : (index, index, index, index, index, index, index, index)
      -> (tensor<?x?x?x?xf32>, tensor<?x?x?x?xf32>, tensor<?x?x?x?xf32>,
          tensor<?x?x?x?xf32>, tensor<?x?x?x?xf32>)
  %xs = tensor.cast %x : tensor<?x?x?x?xf32> to tensor<2x5x9x9xf32>
  %ws = tensor.cast %w : tensor<?x?x?x?xf32> to tensor<16x5x1x1xf32>
  %rs = tensor.cast %r : tensor<?x?x?x?xf32> to tensor<2x16x9x9xf32>
  %bs4 = tensor.cast %b : tensor<?x?x?x?xf32> to tensor<1x16x1x1xf32>
  %bs = tensor.collapse_shape %bs4 [[0, 1, 2, 3]] : tensor<1x16x1x1xf32> into tensor<16xf32>
  %ss = tensor.cast %s : tensor<?x?x?x?xf32> to tensor<1x16x1x1xf32>
  %y = call @conv_pointwise(%xs, %ws, %bs, %ss, %rs)
      : (tensor<2x5x9x9xf32>, tensor<16x5x1x1xf32>, tensor<16xf32>, tensor<1x16x1x1xf32>, tensor<2x16x9x9xf32>) -> tensor<2x16x9x9xf32>
  %u = tensor.cast %y : tensor<2x16x9x9xf32> to tensor<*xf32>
  call @printMemrefF32(%u) : (tensor<*xf32>) -> ()
  return
}
