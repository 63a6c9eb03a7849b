// Softmax, log_softmax, reductions with keepdims, arg_reduce.
// Expected values: reference.py (NumPy), never graphc's own output.
//
// RUN: graph-opt %s --graph-to-linalg --one-shot-bufferize="bufferize-function-boundaries" \
// RUN:   --convert-linalg-to-loops --expand-strided-metadata --lower-affine --convert-scf-to-cf \
// RUN:   --convert-math-to-llvm --convert-math-to-libm --convert-to-llvm --reconcile-unrealized-casts \
// RUN: | %mlir_runner -e main -entry-point-result=void -shared-libs=%runner_libs > %t
// RUN: %python %S/reference.py softmax %t | FileCheck %s
// The same through graphc-cpu-codegen (serial), the pipeline graphc uses:
// RUN: graph-opt %s --graph-to-linalg --graphc-cpu-codegen=openmp=0 \
// RUN: | %mlir_runner -e main -entry-point-result=void \
// RUN:   -shared-libs=%mlir_c_runner_utils,%mlir_runner_utils > %t.cpu
// RUN: %python %S/reference.py softmax %t.cpu | FileCheck %s
// CHECK: softmax: 6 results match NumPy

func.func private @printMemrefF32(tensor<*xf32>)

func.func @compute(%x: tensor<2x5xf32>, %y: tensor<2x3x4xf32>) -> (tensor<2x5xf32>, tensor<2x5xf32>, tensor<1x3x1xf32>, tensor<2x3xf32>, tensor<f32>, tensor<2xf32>) {
  %r0 = graph.softmax %x {axis = 1 : i64} : (tensor<2x5xf32>) -> tensor<2x5xf32>
  %r1 = graph.log_softmax %x : (tensor<2x5xf32>) -> tensor<2x5xf32>
  %r2 = graph.reduce %y {axes = array<i64: 0, 2>, keepdims, kind = #graph<reduce_kind mean>} : (tensor<2x3x4xf32>) -> tensor<1x3x1xf32>
  %r3 = graph.reduce %y {axes = array<i64: -1>, kind = #graph<reduce_kind max>} : (tensor<2x3x4xf32>) -> tensor<2x3xf32>
  %r4 = graph.reduce %y {axes = array<i64: 0, 1, 2>, kind = #graph<reduce_kind sum>} : (tensor<2x3x4xf32>) -> tensor<f32>
  %i = graph.arg_reduce %x {axis = 1 : i64, kind = #graph<reduce_kind max>} : (tensor<2x5xf32>) -> tensor<2xi64>
  %r5 = graph.cast %i {to = f32} : (tensor<2xi64>) -> tensor<2xf32>
  return %r0, %r1, %r2, %r3, %r4, %r5 : tensor<2x5xf32>, tensor<2x5xf32>, tensor<1x3x1xf32>, tensor<2x3xf32>, tensor<f32>, tensor<2xf32>
}

func.func @main() {
  %x = arith.constant dense<[[-19.40, 1.50, -19.60, 18.60, 3.30], [13.30, -15.40, -5.40, 6.60, 1.90]]> : tensor<2x5xf32>
  %y = arith.constant dense<[[[1.19, 0.99, 1.29, -1.77],  [0.23, -0.39, 1.86, -1.60],  [1.86, 1.66, -1.45, 0.42]], [[-1.55, 0.03, 0.43, -0.70],  [-0.34, -0.58, -1.62, -1.30],  [-1.42, -1.11, -1.92, 1.93]]]> : tensor<2x3x4xf32>
  %r0, %r1, %r2, %r3, %r4, %r5 = call @compute(%x, %y) : (tensor<2x5xf32>, tensor<2x3x4xf32>) -> (tensor<2x5xf32>, tensor<2x5xf32>, tensor<1x3x1xf32>, tensor<2x3xf32>, tensor<f32>, tensor<2xf32>)
  %u0 = tensor.cast %r0 : tensor<2x5xf32> to tensor<*xf32>
  call @printMemrefF32(%u0) : (tensor<*xf32>) -> ()
  %u1 = tensor.cast %r1 : tensor<2x5xf32> to tensor<*xf32>
  call @printMemrefF32(%u1) : (tensor<*xf32>) -> ()
  %u2 = tensor.cast %r2 : tensor<1x3x1xf32> to tensor<*xf32>
  call @printMemrefF32(%u2) : (tensor<*xf32>) -> ()
  %u3 = tensor.cast %r3 : tensor<2x3xf32> to tensor<*xf32>
  call @printMemrefF32(%u3) : (tensor<*xf32>) -> ()
  %u4 = tensor.cast %r4 : tensor<f32> to tensor<*xf32>
  call @printMemrefF32(%u4) : (tensor<*xf32>) -> ()
  %u5 = tensor.cast %r5 : tensor<2xf32> to tensor<*xf32>
  call @printMemrefF32(%u5) : (tensor<*xf32>) -> ()
  return
}
