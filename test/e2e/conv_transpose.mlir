// conv_transpose (1-d grouped and dilated, 2-d with bias and output_padding,
// 3-d with asymmetric padding) and grouped 1-d/3-d conv, against PyTorch.
//
// RUN: graph-opt %s --graph-to-linalg --one-shot-bufferize="bufferize-function-boundaries" \
// RUN:   --convert-linalg-to-loops --expand-strided-metadata --lower-affine --convert-scf-to-cf \
// RUN:   --convert-math-to-llvm --convert-math-to-libm --convert-to-llvm --reconcile-unrealized-casts \
// RUN: | %mlir_runner -e main -entry-point-result=void -shared-libs=%runner_libs > %t
// RUN: %python %S/reference.py conv_transpose %t | FileCheck %s
// The same through graphc-cpu-codegen (serial), the pipeline graphc uses:
// RUN: graph-opt %s --graph-to-linalg --graphc-cpu-codegen=openmp=0 \
// RUN: | %mlir_runner -e main -entry-point-result=void \
// RUN:   -shared-libs=%mlir_c_runner_utils,%mlir_runner_utils > %t.cpu
// RUN: %python %S/reference.py conv_transpose %t.cpu | FileCheck %s
// CHECK: conv_transpose: 5 results match NumPy

func.func private @printMemrefF32(tensor<*xf32>)

func.func @compute(%x: tensor<1x2x3x3xf32>, %w: tensor<2x3x3x3xf32>, %bias: tensor<3xf32>, %y: tensor<1x4x5xf32>, %v: tensor<4x1x2xf32>, %z: tensor<1x2x2x3x2xf32>, %u: tensor<2x2x2x2x2xf32>, %a: tensor<1x4x6xf32>, %k: tensor<6x2x3xf32>, %c: tensor<1x4x3x4x4xf32>, %e: tensor<2x2x2x2x2xf32>) -> (tensor<1x3x6x6xf32>, tensor<1x2x15xf32>, tensor<1x2x3x5x2xf32>, tensor<1x6x3xf32>, tensor<1x2x2x2x3xf32>) {
  %r0 = graph.conv_transpose %x, %w, %bias {strides = array<i64: 2, 2>, pad_low = array<i64: 1, 1>, pad_high = array<i64: 1, 1>, output_padding = array<i64: 1, 1>}
      : (tensor<1x2x3x3xf32>, tensor<2x3x3x3xf32>, tensor<3xf32>) -> tensor<1x3x6x6xf32>
  %r1 = graph.conv_transpose %y, %v {strides = array<i64: 3>, dilations = array<i64: 2>, pad_low = array<i64: 2>, pad_high = array<i64: 0>, output_padding = array<i64: 2>, groups = 2 : i64}
      : (tensor<1x4x5xf32>, tensor<4x1x2xf32>) -> tensor<1x2x15xf32>
  %r2 = graph.conv_transpose %z, %u {strides = array<i64: 1, 2, 1>, pad_low = array<i64: 0, 1, 0>, pad_high = array<i64: 0, 0, 1>}
      : (tensor<1x2x2x3x2xf32>, tensor<2x2x2x2x2xf32>) -> tensor<1x2x3x5x2xf32>
  %r3 = graph.conv %a, %k {strides = array<i64: 2>, pad_low = array<i64: 1>, pad_high = array<i64: 1>, groups = 2 : i64}
      : (tensor<1x4x6xf32>, tensor<6x2x3xf32>) -> tensor<1x6x3xf32>
  %r4 = graph.conv %c, %e {strides = array<i64: 1, 2, 1>, pad_low = array<i64: 0, 1, 0>, pad_high = array<i64: 0, 0, 1>, dilations = array<i64: 1, 1, 2>, groups = 2 : i64}
      : (tensor<1x4x3x4x4xf32>, tensor<2x2x2x2x2xf32>) -> tensor<1x2x2x2x3xf32>
  return %r0, %r1, %r2, %r3, %r4 : tensor<1x3x6x6xf32>, tensor<1x2x15xf32>, tensor<1x2x3x5x2xf32>, tensor<1x6x3xf32>, tensor<1x2x2x2x3xf32>
}

func.func @main() {
  %x = arith.constant dense<[[[[0.74, -1.19, -1.35],   [0.43, -0.63, -0.76],   [-1.68, 1.38, 0.81]],  [[-1.23, -0.82, 1.06],   [0.80, -0.95, -0.34],   [-0.67, 1.56, 1.97]]]]> : tensor<1x2x3x3xf32>
  %w = arith.constant dense<[[[[-0.72, -0.97, 1.96],   [-1.43, -1.26, 1.09],   [0.07, -0.52, -0.60]],  [[-0.68, 1.87, 1.02],   [-0.69, -0.79, -0.80],   [-1.45, 0.99, -0.34]],  [[0.94, 0.72, -1.16],   [-0.89, -0.09, 1.91],   [1.63, -1.84, -1.54]]], [[[1.40, -0.19, 0.97],   [1.87, -1.33, 0.29],   [-0.71, -0.55, -1.61]],  [[1.29, 0.70, -1.09],   [-1.73, 1.52, 0.14],   [1.23, -0.49, 0.02]],  [[-0.66, -0.09, -0.79],   [-1.50, -0.82, -0.90],   [0.39, -0.91, -1.03]]]]> : tensor<2x3x3x3xf32>
  %bias = arith.constant dense<[-0.90, 0.96, 0.54]> : tensor<3xf32>
  %y = arith.constant dense<[[[0.72, -0.31, -0.93, -0.42, 0.29],  [1.69, -1.03, 0.96, 1.20, 1.16],  [-0.30, 0.90, -0.23, 0.57, -0.23],  [0.01, 0.94, -0.62, -0.27, -1.66]]]> : tensor<1x4x5xf32>
  %v = arith.constant dense<[[[0.31, 0.50]], [[-1.43, 0.02]], [[-1.01, 1.87]], [[-1.33, 1.75]]]> : tensor<4x1x2xf32>
  %z = arith.constant dense<[[[[[-0.24, -1.80],    [1.91, -0.85],    [-1.80, 1.15]],   [[1.24, 0.97],    [-0.72, -1.77],    [1.31, 1.25]]],  [[[0.30, 0.71],    [1.84, 0.30],    [1.06, -0.91]],   [[0.55, 0.68],    [0.46, -1.94],    [-0.39, -0.61]]]]]> : tensor<1x2x2x3x2xf32>
  %u = arith.constant dense<[[[[[1.06, 0.09],    [1.20, -1.81]],   [[-1.09, -0.77],    [-1.72, 0.09]]],  [[[0.65, -1.02],    [1.13, -1.64]],   [[1.82, -1.52],    [0.45, -1.34]]]], [[[[0.35, 1.02],    [-0.49, -0.00]],   [[-1.76, -1.94],    [-1.08, 0.46]]],  [[[-1.40, 0.30],    [-0.88, 1.40]],   [[-0.93, 0.18],    [-0.85, -1.12]]]]]> : tensor<2x2x2x2x2xf32>
  %a = arith.constant dense<[[[0.30, 0.81, -0.28, 1.84, 0.99, -1.61],  [0.60, 1.51, 1.26, 1.37, -0.42, 1.33],  [-1.18, 0.10, -0.07, -1.16, -1.18, -0.73],  [-1.65, 0.56, -0.75, -1.08, -0.24, -1.97]]]> : tensor<1x4x6xf32>
  %k = arith.constant dense<[[[-0.70, 0.45, -1.93],  [0.70, 0.53, -0.83]], [[-1.70, 0.72, -0.34],  [0.84, 1.30, -1.62]], [[1.37, -1.36, 1.22],  [-1.73, -1.97, -1.69]], [[-0.80, -1.37, 1.53],  [-1.46, -1.24, -0.03]], [[0.73, 1.79, 0.25],  [-1.69, 1.06, -0.65]], [[0.01, -0.26, -0.35],  [0.73, 1.14, 1.43]]]> : tensor<6x2x3xf32>
  %c = arith.constant dense<[[[[[0.97, -1.79, -1.15, -0.72],    [-1.58, -0.12, -1.66, 1.18],    [-0.47, 0.56, 0.60, 1.80],    [1.82, -1.51, 1.97, 1.59]],   [[-1.45, -0.25, -0.78, 0.66],    [0.52, -1.87, 0.05, 1.12],    [-0.75, 0.14, -1.37, 0.35],    [0.69, -1.72, -1.95, -0.97]],   [[-1.85, 1.67, 1.50, 1.60],    [1.42, 1.54, 0.18, 1.61],    [-0.50, 1.51, -0.66, -1.06],    [1.47, -1.34, -1.89, 1.79]]],  [[[-0.15, -0.58, 0.35, -0.87],    [-1.80, 1.62, -0.09, 1.31],    [1.41, 1.04, -0.62, 0.31],    [-1.64, -0.86, 0.86, -1.85]],   [[1.51, 1.75, 1.15, 0.55],    [-0.45, 1.79, 1.04, -1.08],    [1.14, -1.81, 0.98, -0.56],    [0.06, -1.63, -0.57, 1.26]],   [[-1.61, -0.99, 1.68, -0.72],    [0.54, -0.40, 1.55, 1.21],    [1.55, -1.28, 0.40, -0.04],    [1.21, -0.36, -1.72, 1.02]]],  [[[1.64, -1.99, -1.51, -1.50],    [0.60, 1.33, -1.95, 1.72],    [-0.63, 1.54, -0.56, 0.91],    [0.75, -0.51, -0.28, -0.68]],   [[1.78, 1.19, -1.56, 1.49],    [0.15, 1.91, 1.46, -1.91],    [-1.19, 0.40, 0.05, -1.86],    [-1.86, 1.36, -1.56, -0.52]],   [[-1.56, -0.96, -0.61, -1.68],    [-0.62, 1.70, -0.91, -1.06],    [1.26, -1.42, 1.82, -0.89],    [1.91, -0.71, 1.85, 1.03]]],  [[[-0.79, 1.85, -0.83, -0.25],    [0.43, -1.19, -1.64, -1.77],    [0.28, 1.14, -1.00, 1.77],    [-1.56, -1.07, 0.20, 1.63]],   [[0.53, 1.48, 1.48, 0.38],    [-0.60, -1.03, 1.56, 0.06],    [0.90, -0.37, 0.84, 0.49],    [0.39, -0.79, 1.60, 1.27]],   [[0.13, -1.94, -0.81, 0.64],    [-0.90, -0.69, -1.53, 0.05],    [-0.27, -0.92, 0.90, -0.04],    [-1.71, -0.07, 0.38, 1.66]]]]]> : tensor<1x4x3x4x4xf32>
  %e = arith.constant dense<[[[[[-1.76, 1.42],    [-0.20, 1.99]],   [[1.03, -1.17],    [-0.67, -1.27]]],  [[[-0.63, -1.93],    [-0.01, 1.28]],   [[1.96, 1.02],    [0.08, -1.36]]]], [[[[-0.15, 0.86],    [0.35, 1.76]],   [[-1.59, -1.16],    [0.40, -0.73]]],  [[[-1.56, -1.46],    [1.78, 1.52]],   [[-0.79, 1.72],    [-0.05, -0.74]]]]]> : tensor<2x2x2x2x2xf32>
  %r0, %r1, %r2, %r3, %r4 = call @compute(%x, %w, %bias, %y, %v, %z, %u, %a, %k, %c, %e) : (tensor<1x2x3x3xf32>, tensor<2x3x3x3xf32>, tensor<3xf32>, tensor<1x4x5xf32>, tensor<4x1x2xf32>, tensor<1x2x2x3x2xf32>, tensor<2x2x2x2x2xf32>, tensor<1x4x6xf32>, tensor<6x2x3xf32>, tensor<1x4x3x4x4xf32>, tensor<2x2x2x2x2xf32>) -> (tensor<1x3x6x6xf32>, tensor<1x2x15xf32>, tensor<1x2x3x5x2xf32>, tensor<1x6x3xf32>, tensor<1x2x2x2x3xf32>)
  %u0 = tensor.cast %r0 : tensor<1x3x6x6xf32> to tensor<*xf32>
  call @printMemrefF32(%u0) : (tensor<*xf32>) -> ()
  %u1 = tensor.cast %r1 : tensor<1x2x15xf32> to tensor<*xf32>
  call @printMemrefF32(%u1) : (tensor<*xf32>) -> ()
  %u2 = tensor.cast %r2 : tensor<1x2x3x5x2xf32> to tensor<*xf32>
  call @printMemrefF32(%u2) : (tensor<*xf32>) -> ()
  %u3 = tensor.cast %r3 : tensor<1x6x3xf32> to tensor<*xf32>
  call @printMemrefF32(%u3) : (tensor<*xf32>) -> ()
  %u4 = tensor.cast %r4 : tensor<1x2x2x2x3xf32> to tensor<*xf32>
  call @printMemrefF32(%u4) : (tensor<*xf32>) -> ()
  return
}
