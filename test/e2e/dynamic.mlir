// Dynamic dimensions: equal at run time they compute as static ones; a
// dynamic dimension that is 1 where the result is larger is not broadcast
// but stops the program with the cf.assert message graph-to-linalg inserts.
//
// RUN: graph-opt %s --graph-to-linalg --one-shot-bufferize="bufferize-function-boundaries" \
// RUN:   --convert-linalg-to-loops --expand-strided-metadata --lower-affine --convert-scf-to-cf \
// RUN:   --convert-math-to-llvm --convert-math-to-libm --convert-to-llvm --reconcile-unrealized-casts > %t.ll.mlir
// RUN: %mlir_runner %t.ll.mlir -e main -entry-point-result=void -shared-libs=%runner_libs > %t
// RUN: %python %S/reference.py dynamic %t | FileCheck %s
// The same through graphc-cpu-codegen (serial), the pipeline graphc uses:
// RUN: graph-opt %s --graph-to-linalg --graphc-cpu-codegen=openmp=0 \
// RUN: | %mlir_runner -e main -entry-point-result=void \
// RUN:   -shared-libs=%mlir_c_runner_utils,%mlir_runner_utils > %t.cpu
// RUN: %python %S/reference.py dynamic %t.cpu | FileCheck %s
// The assert's message goes to stdout through puts before abort: unbuffered
// here, or the abort would drop it.
// RUN: not --crash stdbuf -o0 %mlir_runner %t.ll.mlir -e mismatch -entry-point-result=void -shared-libs=%runner_libs 2>&1 \
// RUN:   | FileCheck %s --check-prefix=MISMATCH
// CHECK: dynamic: 2 results match NumPy
// MISMATCH: graph-to-linalg: dynamic dimension 0 of operand 1 does not match result dimension 0 at run time

func.func private @printMemrefF32(tensor<*xf32>)

func.func @compute(%x: tensor<?x3xf32>, %y: tensor<?x3xf32>, %z: tensor<?x1xf32>) -> (tensor<?x3xf32>, tensor<3xf32>) {
  %s = graph.add %x, %y : (tensor<?x3xf32>, tensor<?x3xf32>) -> tensor<?x3xf32>
  %p = graph.mul %s, %z : (tensor<?x3xf32>, tensor<?x1xf32>) -> tensor<?x3xf32>
  %r = graph.reduce %p {axes = array<i64: 0>, kind = #graph<reduce_kind sum>} : (tensor<?x3xf32>) -> tensor<3xf32>
  return %p, %r : tensor<?x3xf32>, tensor<3xf32>
}

func.func @main() {
  %x = arith.constant dense<[[0.5, -1.0, 2.0], [1.5, 0.25, -0.75]]> : tensor<2x3xf32>
  %y = arith.constant dense<[[1.0, 2.0, 3.0], [-1.0, -2.0, -3.0]]> : tensor<2x3xf32>
  %z = arith.constant dense<[[2.0], [-3.0]]> : tensor<2x1xf32>
  %dx = tensor.cast %x : tensor<2x3xf32> to tensor<?x3xf32>
  %dy = tensor.cast %y : tensor<2x3xf32> to tensor<?x3xf32>
  %dz = tensor.cast %z : tensor<2x1xf32> to tensor<?x1xf32>
  %p, %r = call @compute(%dx, %dy, %dz) : (tensor<?x3xf32>, tensor<?x3xf32>, tensor<?x1xf32>) -> (tensor<?x3xf32>, tensor<3xf32>)
  %u0 = tensor.cast %p : tensor<?x3xf32> to tensor<*xf32>
  call @printMemrefF32(%u0) : (tensor<*xf32>) -> ()
  %u1 = tensor.cast %r : tensor<3xf32> to tensor<*xf32>
  call @printMemrefF32(%u1) : (tensor<*xf32>) -> ()
  return
}

// y has one row at run time: NumPy would broadcast it, graph-to-linalg stops.
func.func @mismatch() {
  %x = arith.constant dense<[[0.5, -1.0, 2.0], [1.5, 0.25, -0.75]]> : tensor<2x3xf32>
  %y = arith.constant dense<[[1.0, 2.0, 3.0]]> : tensor<1x3xf32>
  %z = arith.constant dense<[[2.0], [-3.0]]> : tensor<2x1xf32>
  %dx = tensor.cast %x : tensor<2x3xf32> to tensor<?x3xf32>
  %dy = tensor.cast %y : tensor<1x3xf32> to tensor<?x3xf32>
  %dz = tensor.cast %z : tensor<2x1xf32> to tensor<?x1xf32>
  %p, %r = call @compute(%dx, %dy, %dz) : (tensor<?x3xf32>, tensor<?x3xf32>, tensor<?x1xf32>) -> (tensor<?x3xf32>, tensor<3xf32>)
  %u0 = tensor.cast %p : tensor<?x3xf32> to tensor<*xf32>
  call @printMemrefF32(%u0) : (tensor<*xf32>) -> ()
  return
}
