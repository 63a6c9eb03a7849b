// Matmul: 2-d, batched with broadcasting and transpose_rhs, vector forms.
// Expected values: reference.py (NumPy), never graphc's own output.
//
// RUN: graph-opt %s --graph-to-linalg --one-shot-bufferize="bufferize-function-boundaries" \
// RUN:   --convert-linalg-to-loops --expand-strided-metadata --lower-affine --convert-scf-to-cf \
// RUN:   --convert-math-to-llvm --convert-math-to-libm --convert-to-llvm --reconcile-unrealized-casts \
// RUN: | %mlir_runner -e main -entry-point-result=void -shared-libs=%runner_libs > %t
// RUN: %python %S/reference.py matmul %t | FileCheck %s
// The same through graphc-cpu-codegen (serial), the pipeline graphc uses:
// RUN: graph-opt %s --graph-to-linalg --graphc-cpu-codegen=openmp=0 \
// RUN: | %mlir_runner -e main -entry-point-result=void \
// RUN:   -shared-libs=%mlir_c_runner_utils,%mlir_runner_utils > %t.cpu
// RUN: %python %S/reference.py matmul %t.cpu | FileCheck %s
// CHECK: matmul: 4 results match NumPy

func.func private @printMemrefF32(tensor<*xf32>)

func.func @compute(%a: tensor<3x4xf32>, %b: tensor<4x2xf32>, %q: tensor<2x3x4xf32>, %k: tensor<1x5x4xf32>, %v: tensor<4xf32>) -> (tensor<3x2xf32>, tensor<2x3x5xf32>, tensor<3xf32>, tensor<2xf32>) {
  %r0 = graph.matmul %a, %b : (tensor<3x4xf32>, tensor<4x2xf32>) -> tensor<3x2xf32>
  %r1 = graph.matmul %q, %k {transpose_rhs} : (tensor<2x3x4xf32>, tensor<1x5x4xf32>) -> tensor<2x3x5xf32>
  %r2 = graph.matmul %a, %v : (tensor<3x4xf32>, tensor<4xf32>) -> tensor<3xf32>
  %r3 = graph.matmul %v, %b : (tensor<4xf32>, tensor<4x2xf32>) -> tensor<2xf32>
  return %r0, %r1, %r2, %r3 : tensor<3x2xf32>, tensor<2x3x5xf32>, tensor<3xf32>, tensor<2xf32>
}

func.func @main() {
  %a = arith.constant dense<[[1.09, 0.78, -1.51, 0.05], [-1.80, 1.45, 0.76, -1.69], [1.79, 1.24, -0.97, 1.35]]> : tensor<3x4xf32>
  %b = arith.constant dense<[[-0.42, 1.24], [-1.64, -1.64], [-1.45, -0.09], [-0.53, 1.62]]> : tensor<4x2xf32>
  %q = arith.constant dense<[[[-0.04, -1.47, 0.07, -1.65],  [-1.98, -0.39, -1.84, -1.44],  [-1.77, -0.85, 0.64, -1.13]], [[1.01, -0.21, -0.88, -0.87],  [0.54, 1.64, 1.44, -1.61],  [0.76, 0.45, -0.67, -1.03]]]> : tensor<2x3x4xf32>
  %k = arith.constant dense<[[[1.91, -1.17, 1.97, 0.90],  [-1.79, -0.14, -1.11, -1.18],  [-0.67, 0.46, 1.61, 0.39],  [0.99, -0.84, 0.54, -1.76],  [-0.87, 0.70, -0.28, -0.91]]]> : tensor<1x5x4xf32>
  %v = arith.constant dense<[1.48, 1.66, 1.53, -1.73]> : tensor<4xf32>
  %r0, %r1, %r2, %r3 = call @compute(%a, %b, %q, %k, %v) : (tensor<3x4xf32>, tensor<4x2xf32>, tensor<2x3x4xf32>, tensor<1x5x4xf32>, tensor<4xf32>) -> (tensor<3x2xf32>, tensor<2x3x5xf32>, tensor<3xf32>, tensor<2xf32>)
  %u0 = tensor.cast %r0 : tensor<3x2xf32> to tensor<*xf32>
  call @printMemrefF32(%u0) : (tensor<*xf32>) -> ()
  %u1 = tensor.cast %r1 : tensor<2x3x5xf32> to tensor<*xf32>
  call @printMemrefF32(%u1) : (tensor<*xf32>) -> ()
  %u2 = tensor.cast %r2 : tensor<3xf32> to tensor<*xf32>
  call @printMemrefF32(%u2) : (tensor<*xf32>) -> ()
  %u3 = tensor.cast %r3 : tensor<2xf32> to tensor<*xf32>
  call @printMemrefF32(%u3) : (tensor<*xf32>) -> ()
  return
}
