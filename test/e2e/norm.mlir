// Batch normalisation (inference) and layer normalisation.
// Expected values: reference.py (NumPy), never graphc's own output.
//
// RUN: graph-opt %s --graph-to-linalg --one-shot-bufferize="bufferize-function-boundaries" \
// RUN:   --convert-linalg-to-loops --expand-strided-metadata --lower-affine --convert-scf-to-cf \
// RUN:   --convert-math-to-llvm --convert-math-to-libm --convert-to-llvm --reconcile-unrealized-casts \
// RUN: | %mlir_runner -e main -entry-point-result=void -shared-libs=%runner_libs > %t
// RUN: %python %S/reference.py norm %t | FileCheck %s
// The same through graphc-cpu-codegen (serial), the pipeline graphc uses:
// RUN: graph-opt %s --graph-to-linalg --graphc-cpu-codegen=openmp=0 \
// RUN: | %mlir_runner -e main -entry-point-result=void \
// RUN:   -shared-libs=%mlir_c_runner_utils,%mlir_runner_utils > %t.cpu
// RUN: %python %S/reference.py norm %t.cpu | FileCheck %s
// CHECK: norm: 2 results match NumPy

func.func private @printMemrefF32(tensor<*xf32>)

func.func @compute(%x: tensor<2x3x2x2xf32>, %scale: tensor<3xf32>, %bias: tensor<3xf32>, %mean: tensor<3xf32>, %var: tensor<3xf32>, %y: tensor<2x4xf32>, %gamma: tensor<4xf32>, %beta: tensor<4xf32>) -> (tensor<2x3x2x2xf32>, tensor<2x4xf32>) {
  %r0 = graph.batch_norm %x, %scale, %bias, %mean, %var {epsilon = 1.0e-03 : f32} : (tensor<2x3x2x2xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>) -> tensor<2x3x2x2xf32>
  %r1 = graph.layer_norm %y, %gamma, %beta {axis = 1 : i64} : (tensor<2x4xf32>, tensor<4xf32>, tensor<4xf32>) -> tensor<2x4xf32>
  return %r0, %r1 : tensor<2x3x2x2xf32>, tensor<2x4xf32>
}

func.func @main() {
  %x = arith.constant dense<[[[[-0.24, 1.28],   [1.07, 1.40]],  [[1.28, -0.39],   [-1.12, -1.52]],  [[1.71, 0.36],   [1.09, -0.27]]], [[[0.41, -0.81],   [0.01, 2.00]],  [[0.42, -0.48],   [-0.60, -0.55]],  [[-0.42, -1.73],   [-1.35, -1.18]]]]> : tensor<2x3x2x2xf32>
  %scale = arith.constant dense<[0.69, -0.74, -0.57]> : tensor<3xf32>
  %bias = arith.constant dense<[0.08, -1.19, -1.01]> : tensor<3xf32>
  %mean = arith.constant dense<[-0.22, -1.81, 0.20]> : tensor<3xf32>
  %var = arith.constant dense<[1.85, 2.06, 0.42]> : tensor<3xf32>
  %y = arith.constant dense<[[-1.26, -0.67, -0.76, -0.52], [-1.87, 0.53, 0.92, -0.79]]> : tensor<2x4xf32>
  %gamma = arith.constant dense<[-1.25, 1.42, -0.05, -1.56]> : tensor<4xf32>
  %beta = arith.constant dense<[-0.35, 0.80, 0.03, 1.62]> : tensor<4xf32>
  %r0, %r1 = call @compute(%x, %scale, %bias, %mean, %var, %y, %gamma, %beta) : (tensor<2x3x2x2xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<2x4xf32>, tensor<4xf32>, tensor<4xf32>) -> (tensor<2x3x2x2xf32>, tensor<2x4xf32>)
  %u0 = tensor.cast %r0 : tensor<2x3x2x2xf32> to tensor<*xf32>
  call @printMemrefF32(%u0) : (tensor<*xf32>) -> ()
  %u1 = tensor.cast %r1 : tensor<2x4xf32> to tensor<*xf32>
  call @printMemrefF32(%u1) : (tensor<*xf32>) -> ()
  return
}
