// Conv2d with padding/stride/bias, grouped dilated conv, max and avg pooling.
// Expected values: reference.py (NumPy), never graphc's own output.
//
// RUN: graph-opt %s --graph-to-linalg --one-shot-bufferize="bufferize-function-boundaries" \
// RUN:   --convert-linalg-to-loops --expand-strided-metadata --lower-affine --convert-scf-to-cf \
// RUN:   --convert-math-to-llvm --convert-math-to-libm --convert-to-llvm --reconcile-unrealized-casts \
// RUN: | %mlir_runner -e main -entry-point-result=void -shared-libs=%runner_libs > %t
// RUN: %python %S/reference.py conv_pool %t | FileCheck %s
// The same through graphc-cpu-codegen (serial), the pipeline graphc uses:
// RUN: graph-opt %s --graph-to-linalg --graphc-cpu-codegen=openmp=0 \
// RUN: | %mlir_runner -e main -entry-point-result=void \
// RUN:   -shared-libs=%mlir_c_runner_utils,%mlir_runner_utils > %t.cpu
// RUN: %python %S/reference.py conv_pool %t.cpu | FileCheck %s
// CHECK: conv_pool: 5 results match NumPy

func.func private @printMemrefF32(tensor<*xf32>)

func.func @compute(%x: tensor<1x2x5x5xf32>, %w: tensor<3x2x3x3xf32>, %bias: tensor<3xf32>, %g: tensor<1x4x4x4xf32>, %gw: tensor<4x2x2x2xf32>) -> (tensor<1x3x3x3xf32>, tensor<1x4x2x3xf32>, tensor<1x2x3x3xf32>, tensor<1x2x3x3xf32>, tensor<1x2x3x3xf32>) {
  %r0 = graph.conv %x, %w, %bias {strides = array<i64: 2, 2>, pad_low = array<i64: 1, 1>, pad_high = array<i64: 1, 1>} : (tensor<1x2x5x5xf32>, tensor<3x2x3x3xf32>, tensor<3xf32>) -> tensor<1x3x3x3xf32>
  %r1 = graph.conv %g, %gw {groups = 2 : i64, dilations = array<i64: 2, 1>} : (tensor<1x4x4x4xf32>, tensor<4x2x2x2xf32>) -> tensor<1x4x2x3xf32>
  %r2 = graph.pool %x {kind = #graph<pool_kind max>, window = array<i64: 3, 3>, strides = array<i64: 2, 2>, pad_low = array<i64: 1, 1>, pad_high = array<i64: 1, 1>} : (tensor<1x2x5x5xf32>) -> tensor<1x2x3x3xf32>
  %r3 = graph.pool %x {kind = #graph<pool_kind avg>, window = array<i64: 2, 2>, strides = array<i64: 2, 2>, pad_low = array<i64: 1, 1>, count_include_pad} : (tensor<1x2x5x5xf32>) -> tensor<1x2x3x3xf32>
  %r4 = graph.pool %x {kind = #graph<pool_kind avg>, window = array<i64: 2, 2>, strides = array<i64: 2, 2>, pad_low = array<i64: 1, 1>} : (tensor<1x2x5x5xf32>) -> tensor<1x2x3x3xf32>
  return %r0, %r1, %r2, %r3, %r4 : tensor<1x3x3x3xf32>, tensor<1x4x2x3xf32>, tensor<1x2x3x3xf32>, tensor<1x2x3x3xf32>, tensor<1x2x3x3xf32>
}

func.func @main() {
  %x = arith.constant dense<[[[[0.35, -1.21, 0.55, 1.31, 1.59],   [1.99, -1.29, -1.54, -0.83, -0.45],   [-1.66, 1.88, 1.60, 0.94, -0.56],   [-1.16, -1.88, 0.02, -0.50, 0.60],   [-0.32, -0.01, 1.18, -0.78, 0.53]],  [[0.48, 0.75, 1.54, -0.95, -1.77],   [1.64, 1.43, 0.23, 0.90, -0.92],   [1.94, 1.01, 0.09, 1.25, -0.14],   [0.68, -0.87, 1.17, -1.01, -1.61],   [-1.80, 1.42, 1.87, -0.37, -0.04]]]]> : tensor<1x2x5x5xf32>
  %w = arith.constant dense<[[[[1.18, 1.57, 1.94],   [-1.28, 1.23, -1.60],   [-0.75, -1.26, -1.70]],  [[0.84, 1.91, -0.97],   [0.91, 0.20, 1.24],   [-0.89, -1.39, 0.10]]], [[[-1.38, 0.85, 0.62],   [0.92, 1.74, 0.14],   [-1.80, 0.69, -1.00]],  [[0.87, 1.48, 0.74],   [1.60, 0.45, -0.83],   [0.14, -1.84, -1.47]]], [[[0.34, 0.58, 0.67],   [0.81, -1.63, -0.21],   [1.55, -1.38, 1.80]],  [[0.29, -1.51, -0.53],   [-0.74, 1.88, -1.49],   [-1.58, -1.77, -1.36]]]]> : tensor<3x2x3x3xf32>
  %bias = arith.constant dense<[1.41, 0.61, -0.39]> : tensor<3xf32>
  %g = arith.constant dense<[[[[-1.53, -1.81, 1.97, -0.53],   [-1.12, -1.10, 0.90, 1.25],   [1.53, 0.11, -1.74, 1.30],   [-1.90, 0.92, 0.84, 1.59]],  [[-0.40, -1.02, 1.74, -0.17],   [-1.89, -1.33, -1.76, -1.42],   [1.09, -1.10, -1.37, -0.97],   [-0.74, -1.01, 0.75, -0.14]],  [[1.50, 1.06, 1.07, 0.66],   [-0.40, -1.28, -1.08, 1.82],   [0.65, 1.68, 1.24, 1.90],   [-1.70, 1.96, -0.70, -0.17]],  [[1.98, 0.11, -0.27, -1.19],   [0.54, 0.76, -1.05, -1.48],   [-1.08, 0.77, 1.36, -1.36],   [-0.16, 0.50, -1.62, -0.43]]]]> : tensor<1x4x4x4xf32>
  %gw = arith.constant dense<[[[[0.14, -0.91],   [-1.77, -1.65]],  [[-1.84, 1.92],   [-1.93, 0.37]]], [[[-0.15, 0.18],   [-0.22, 1.10]],  [[1.29, -1.23],   [1.64, -0.78]]], [[[-1.46, -0.43],   [-0.77, -0.85]],  [[-0.44, 1.73],   [-0.61, -0.40]]], [[[1.32, -0.58],   [1.76, 1.01]],  [[0.09, -1.85],   [1.70, 1.70]]]]> : tensor<4x2x2x2xf32>
  %r0, %r1, %r2, %r3, %r4 = call @compute(%x, %w, %bias, %g, %gw) : (tensor<1x2x5x5xf32>, tensor<3x2x3x3xf32>, tensor<3xf32>, tensor<1x4x4x4xf32>, tensor<4x2x2x2xf32>) -> (tensor<1x3x3x3xf32>, tensor<1x4x2x3xf32>, tensor<1x2x3x3xf32>, tensor<1x2x3x3xf32>, tensor<1x2x3x3xf32>)
  %u0 = tensor.cast %r0 : tensor<1x3x3x3xf32> to tensor<*xf32>
  call @printMemrefF32(%u0) : (tensor<*xf32>) -> ()
  %u1 = tensor.cast %r1 : tensor<1x4x2x3xf32> to tensor<*xf32>
  call @printMemrefF32(%u1) : (tensor<*xf32>) -> ()
  %u2 = tensor.cast %r2 : tensor<1x2x3x3xf32> to tensor<*xf32>
  call @printMemrefF32(%u2) : (tensor<*xf32>) -> ()
  %u3 = tensor.cast %r3 : tensor<1x2x3x3xf32> to tensor<*xf32>
  call @printMemrefF32(%u3) : (tensor<*xf32>) -> ()
  %u4 = tensor.cast %r4 : tensor<1x2x3x3xf32> to tensor<*xf32>
  call @printMemrefF32(%u4) : (tensor<*xf32>) -> ()
  return
}
