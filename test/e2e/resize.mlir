// resize: nearest (round half down), linear and cubic with every coordinate mode,
// up and down, a dimension resized to one cell, and integer nearest.
// Expected values: reference.py (PyTorch where it has the mode, else the
// ONNX formulas in NumPy).
//
// RUN: graph-opt %s --graph-to-linalg --one-shot-bufferize="bufferize-function-boundaries" \
// RUN:   --convert-linalg-to-loops --expand-strided-metadata --lower-affine --convert-scf-to-cf \
// RUN:   --convert-math-to-llvm --convert-math-to-libm --convert-to-llvm --reconcile-unrealized-casts \
// RUN: | %mlir_runner -e main -entry-point-result=void -shared-libs=%runner_libs > %t
// RUN: %python %S/reference.py resize %t | FileCheck %s
// The same through graphc-cpu-codegen (serial), the pipeline graphc uses:
// RUN: graph-opt %s --graph-to-linalg --graphc-cpu-codegen=openmp=0 \
// RUN: | %mlir_runner -e main -entry-point-result=void \
// RUN:   -shared-libs=%mlir_c_runner_utils,%mlir_runner_utils > %t.cpu
// RUN: %python %S/reference.py resize %t.cpu | FileCheck %s
// CHECK: resize: 9 results match NumPy

func.func private @printMemrefF32(tensor<*xf32>)
func.func private @printMemrefI32(tensor<*xi32>)

func.func @compute(%x: tensor<1x1x3x4xf32>, %n: tensor<2x3xi32>)
    -> (tensor<1x1x5x7xf32>, tensor<1x1x2x2xf32>, tensor<1x1x5x6xf32>, tensor<1x1x4x7xf32>,
        tensor<1x1x1x3xf32>, tensor<1x1x6x2xf32>, tensor<4x5xi32>, tensor<1x1x5x6xf32>, tensor<1x1x2x7xf32>) {
  %r0 = graph.resize %x {sizes = array<i64: 1, 1, 5, 7>, mode = #graph<resize_mode nearest>}
      : (tensor<1x1x3x4xf32>) -> tensor<1x1x5x7xf32>
  %r1 = graph.resize %x {sizes = array<i64: 1, 1, 2, 2>, mode = #graph<resize_mode nearest>, coordinate_mode = #graph<coordinate_mode asymmetric>}
      : (tensor<1x1x3x4xf32>) -> tensor<1x1x2x2xf32>
  %r2 = graph.resize %x {sizes = array<i64: 1, 1, 5, 6>, mode = #graph<resize_mode linear>}
      : (tensor<1x1x3x4xf32>) -> tensor<1x1x5x6xf32>
  %r3 = graph.resize %x {sizes = array<i64: 1, 1, 4, 7>, mode = #graph<resize_mode linear>, coordinate_mode = #graph<coordinate_mode align_corners>}
      : (tensor<1x1x3x4xf32>) -> tensor<1x1x4x7xf32>
  %r4 = graph.resize %x {sizes = array<i64: 1, 1, 1, 3>, mode = #graph<resize_mode linear>, coordinate_mode = #graph<coordinate_mode pytorch_half_pixel>}
      : (tensor<1x1x3x4xf32>) -> tensor<1x1x1x3xf32>
  %r5 = graph.resize %x {sizes = array<i64: 1, 1, 6, 2>, mode = #graph<resize_mode linear>, coordinate_mode = #graph<coordinate_mode asymmetric>}
      : (tensor<1x1x3x4xf32>) -> tensor<1x1x6x2xf32>
  %r6 = graph.resize %n {sizes = array<i64: 4, 5>, mode = #graph<resize_mode nearest>, coordinate_mode = #graph<coordinate_mode align_corners>}
      : (tensor<2x3xi32>) -> tensor<4x5xi32>
  %r7 = graph.resize %x {sizes = array<i64: 1, 1, 5, 6>, mode = #graph<resize_mode cubic>}
      : (tensor<1x1x3x4xf32>) -> tensor<1x1x5x6xf32>
  %r8 = graph.resize %x {sizes = array<i64: 1, 1, 2, 7>, mode = #graph<resize_mode cubic>, coordinate_mode = #graph<coordinate_mode align_corners>}
      : (tensor<1x1x3x4xf32>) -> tensor<1x1x2x7xf32>
  return %r0, %r1, %r2, %r3, %r4, %r5, %r6, %r7, %r8
      : tensor<1x1x5x7xf32>, tensor<1x1x2x2xf32>, tensor<1x1x5x6xf32>, tensor<1x1x4x7xf32>,
        tensor<1x1x1x3xf32>, tensor<1x1x6x2xf32>, tensor<4x5xi32>, tensor<1x1x5x6xf32>, tensor<1x1x2x7xf32>
}

func.func @main() {
  %x = arith.constant dense<[[[[0.5, -1.0, 2.0, 3.0], [1.5, 0.25, -0.75, 4.0], [-2.0, 6.0, 1.0, -3.5]]]]> : tensor<1x1x3x4xf32>
  %n = arith.constant dense<[[1, 2, 3], [40, 50, 60]]> : tensor<2x3xi32>
  %r:9 = call @compute(%x, %n) : (tensor<1x1x3x4xf32>, tensor<2x3xi32>)
      -> (tensor<1x1x5x7xf32>, tensor<1x1x2x2xf32>, tensor<1x1x5x6xf32>, tensor<1x1x4x7xf32>,
          tensor<1x1x1x3xf32>, tensor<1x1x6x2xf32>, tensor<4x5xi32>, tensor<1x1x5x6xf32>, tensor<1x1x2x7xf32>)
  %u0 = tensor.cast %r#0 : tensor<1x1x5x7xf32> to tensor<*xf32>
  call @printMemrefF32(%u0) : (tensor<*xf32>) -> ()
  %u1 = tensor.cast %r#1 : tensor<1x1x2x2xf32> to tensor<*xf32>
  call @printMemrefF32(%u1) : (tensor<*xf32>) -> ()
  %u2 = tensor.cast %r#2 : tensor<1x1x5x6xf32> to tensor<*xf32>
  call @printMemrefF32(%u2) : (tensor<*xf32>) -> ()
  %u3 = tensor.cast %r#3 : tensor<1x1x4x7xf32> to tensor<*xf32>
  call @printMemrefF32(%u3) : (tensor<*xf32>) -> ()
  %u4 = tensor.cast %r#4 : tensor<1x1x1x3xf32> to tensor<*xf32>
  call @printMemrefF32(%u4) : (tensor<*xf32>) -> ()
  %u5 = tensor.cast %r#5 : tensor<1x1x6x2xf32> to tensor<*xf32>
  call @printMemrefF32(%u5) : (tensor<*xf32>) -> ()
  %u6 = tensor.cast %r#6 : tensor<4x5xi32> to tensor<*xi32>
  call @printMemrefI32(%u6) : (tensor<*xi32>) -> ()
  %u7 = tensor.cast %r#7 : tensor<1x1x5x6xf32> to tensor<*xf32>
  call @printMemrefF32(%u7) : (tensor<*xf32>) -> ()
  %u8 = tensor.cast %r#8 : tensor<1x1x2x7xf32> to tensor<*xf32>
  call @printMemrefF32(%u8) : (tensor<*xf32>) -> ()
  return
}
