// Gather, concat, transpose, negative-stride slice, pads, tile, broadcast_to.
// Expected values: reference.py (NumPy), never graphc's own output.
//
// RUN: graph-opt %s --graph-to-linalg --one-shot-bufferize="bufferize-function-boundaries" \
// RUN:   --convert-linalg-to-loops --expand-strided-metadata --lower-affine --convert-scf-to-cf \
// RUN:   --convert-math-to-llvm --convert-math-to-libm --convert-to-llvm --reconcile-unrealized-casts \
// RUN: | %mlir_runner -e main -entry-point-result=void -shared-libs=%runner_libs > %t
// RUN: %python %S/reference.py data_movement %t | FileCheck %s
// The same through graphc-cpu-codegen (serial), the pipeline graphc uses:
// RUN: graph-opt %s --graph-to-linalg --graphc-cpu-codegen=openmp=0 \
// RUN: | %mlir_runner -e main -entry-point-result=void \
// RUN:   -shared-libs=%mlir_c_runner_utils,%mlir_runner_utils > %t.cpu
// RUN: %python %S/reference.py data_movement %t.cpu | FileCheck %s
// CHECK: data_movement: 8 results match NumPy

func.func private @printMemrefF32(tensor<*xf32>)

func.func @compute(%t: tensor<5x3xf32>, %a: tensor<2x3xf32>, %b: tensor<2x2xf32>) -> (tensor<2x2x3xf32>, tensor<2x5xf32>, tensor<3x2xf32>, tensor<2x3xf32>, tensor<4x6xf32>, tensor<3x4xf32>, tensor<4x6xf32>, tensor<2x2x3xf32>) {
  %idx = graph.constant dense<[[4, 0], [-1, 2]]> : tensor<2x2xi64>
  %r0 = graph.gather %t, %idx {axis = 0 : i64} : (tensor<5x3xf32>, tensor<2x2xi64>) -> tensor<2x2x3xf32>
  %r1 = graph.concat %a, %b {axis = 1 : i64} : (tensor<2x3xf32>, tensor<2x2xf32>) -> tensor<2x5xf32>
  %r2 = graph.transpose %a {perm = array<i64: 1, 0>} : (tensor<2x3xf32>) -> tensor<3x2xf32>
  %r3 = graph.slice %t {starts = array<i64: 4, 2>, limits = array<i64: 0, -1>, strides = array<i64: -2, -1>} : (tensor<5x3xf32>) -> tensor<2x3xf32>
  %zero = graph.constant dense<0.0> : tensor<f32>
  %r4 = graph.pad %a, %zero {low = array<i64: 1, 2>, high = array<i64: 1, 1>, mode = #graph<pad_mode reflect>} : (tensor<2x3xf32>, tensor<f32>) -> tensor<4x6xf32>
  %nine = graph.constant dense<9.0> : tensor<f32>
  %r5 = graph.pad %a, %nine {low = array<i64: 0, 1>, high = array<i64: 1, 0>} : (tensor<2x3xf32>, tensor<f32>) -> tensor<3x4xf32>
  %r6 = graph.tile %b {multiples = array<i64: 2, 3>} : (tensor<2x2xf32>) -> tensor<4x6xf32>
  %u = graph.unsqueeze %a {axes = array<i64: 1>} : (tensor<2x3xf32>) -> tensor<2x1x3xf32>
  %r7 = graph.broadcast_to %u {shape = array<i64: 2, 2, 3>} : (tensor<2x1x3xf32>) -> tensor<2x2x3xf32>
  return %r0, %r1, %r2, %r3, %r4, %r5, %r6, %r7 : tensor<2x2x3xf32>, tensor<2x5xf32>, tensor<3x2xf32>, tensor<2x3xf32>, tensor<4x6xf32>, tensor<3x4xf32>, tensor<4x6xf32>, tensor<2x2x3xf32>
}

func.func @main() {
  %t = arith.constant dense<[[-1.69, 0.86, 1.09], [0.50, 1.59, 1.17], [-0.85, 1.51, 0.09], [0.13, 1.28, 1.65], [-0.92, -0.37, 1.75]]> : tensor<5x3xf32>
  %a = arith.constant dense<[[-1.73, -1.09, 0.64], [-0.32, 1.50, 0.03]]> : tensor<2x3xf32>
  %b = arith.constant dense<[[-0.94, 0.59], [0.04, -1.35]]> : tensor<2x2xf32>
  %r0, %r1, %r2, %r3, %r4, %r5, %r6, %r7 = call @compute(%t, %a, %b) : (tensor<5x3xf32>, tensor<2x3xf32>, tensor<2x2xf32>) -> (tensor<2x2x3xf32>, tensor<2x5xf32>, tensor<3x2xf32>, tensor<2x3xf32>, tensor<4x6xf32>, tensor<3x4xf32>, tensor<4x6xf32>, tensor<2x2x3xf32>)
  %u0 = tensor.cast %r0 : tensor<2x2x3xf32> to tensor<*xf32>
  call @printMemrefF32(%u0) : (tensor<*xf32>) -> ()
  %u1 = tensor.cast %r1 : tensor<2x5xf32> to tensor<*xf32>
  call @printMemrefF32(%u1) : (tensor<*xf32>) -> ()
  %u2 = tensor.cast %r2 : tensor<3x2xf32> to tensor<*xf32>
  call @printMemrefF32(%u2) : (tensor<*xf32>) -> ()
  %u3 = tensor.cast %r3 : tensor<2x3xf32> to tensor<*xf32>
  call @printMemrefF32(%u3) : (tensor<*xf32>) -> ()
  %u4 = tensor.cast %r4 : tensor<4x6xf32> to tensor<*xf32>
  call @printMemrefF32(%u4) : (tensor<*xf32>) -> ()
  %u5 = tensor.cast %r5 : tensor<3x4xf32> to tensor<*xf32>
  call @printMemrefF32(%u5) : (tensor<*xf32>) -> ()
  %u6 = tensor.cast %r6 : tensor<4x6xf32> to tensor<*xf32>
  call @printMemrefF32(%u6) : (tensor<*xf32>) -> ()
  %u7 = tensor.cast %r7 : tensor<2x2x3xf32> to tensor<*xf32>
  call @printMemrefF32(%u7) : (tensor<*xf32>) -> ()
  return
}
