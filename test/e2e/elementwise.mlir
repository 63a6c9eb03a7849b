// Broadcasting elementwise ops, compare/select, clamp, mod, sign.
// Expected values: reference.py (NumPy), never graphc's own output.
//
// RUN: graph-opt %s --graph-to-linalg --one-shot-bufferize="bufferize-function-boundaries" \
// RUN:   --convert-linalg-to-loops --expand-strided-metadata --lower-affine --convert-scf-to-cf \
// RUN:   --convert-math-to-llvm --convert-math-to-libm --convert-to-llvm --reconcile-unrealized-casts \
// RUN: | %mlir_runner -e main -entry-point-result=void -shared-libs=%runner_libs > %t
// RUN: %python %S/reference.py elementwise %t | FileCheck %s
// The same through graphc-cpu-codegen (serial), the pipeline graphc uses:
// RUN: graph-opt %s --graph-to-linalg --graphc-cpu-codegen=openmp=0 \
// RUN: | %mlir_runner -e main -entry-point-result=void \
// RUN:   -shared-libs=%mlir_c_runner_utils,%mlir_runner_utils > %t.cpu
// RUN: %python %S/reference.py elementwise %t.cpu | FileCheck %s
// CHECK: elementwise: 8 results match NumPy

func.func private @printMemrefF32(tensor<*xf32>)

func.func @compute(%a: tensor<2x3xf32>, %b: tensor<3xf32>, %c: tensor<2x1xf32>, %d: tensor<1x3xf32>) -> (tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>) {
  %r0 = graph.add %a, %b : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  %r1 = graph.mul %c, %d : (tensor<2x1xf32>, tensor<1x3xf32>) -> tensor<2x3xf32>
  %s = graph.sub %a, %b : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  %r2 = graph.max %s, %c : (tensor<2x3xf32>, tensor<2x1xf32>) -> tensor<2x3xf32>
  %lt = graph.compare %a, %b {direction = #graph<compare_direction lt>} : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xi1>
  %q = graph.div %a, %b : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  %n = graph.neg %a : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %r3 = graph.select %lt, %q, %n : (tensor<2x3xi1>, tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  %lo = graph.constant dense<-0.5> : tensor<f32>
  %hi = graph.constant dense<0.5> : tensor<f32>
  %r4 = graph.clamp %a, %lo, %hi : (tensor<2x3xf32>, tensor<f32>, tensor<f32>) -> tensor<2x3xf32>
  %t = graph.tanh %a : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %e = graph.exp %b : (tensor<3xf32>) -> tensor<3xf32>
  %abs = graph.abs %a : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %sq = graph.sqrt %abs : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %m = graph.mul %e, %sq : (tensor<3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  %r5 = graph.add %t, %m : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  %r6 = graph.mod %a, %b : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  %ac = graph.sub %a, %c : (tensor<2x3xf32>, tensor<2x1xf32>) -> tensor<2x3xf32>
  %r7 = graph.sign %ac : (tensor<2x3xf32>) -> tensor<2x3xf32>
  return %r0, %r1, %r2, %r3, %r4, %r5, %r6, %r7 : tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>
}

func.func @main() {
  %a = arith.constant dense<[[0.87, -0.67, 1.82], [-1.07, 0.01, 0.40]]> : tensor<2x3xf32>
  %b = arith.constant dense<[-0.73, -0.01, 0.25]> : tensor<3xf32>
  %c = arith.constant dense<[[0.22], [-0.80]]> : tensor<2x1xf32>
  %d = arith.constant dense<[[1.42, -0.73, -0.13]]> : tensor<1x3xf32>
  %r0, %r1, %r2, %r3, %r4, %r5, %r6, %r7 = call @compute(%a, %b, %c, %d) : (tensor<2x3xf32>, tensor<3xf32>, tensor<2x1xf32>, tensor<1x3xf32>) -> (tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>)
  %u0 = tensor.cast %r0 : tensor<2x3xf32> to tensor<*xf32>
  call @printMemrefF32(%u0) : (tensor<*xf32>) -> ()
  %u1 = tensor.cast %r1 : tensor<2x3xf32> to tensor<*xf32>
  call @printMemrefF32(%u1) : (tensor<*xf32>) -> ()
  %u2 = tensor.cast %r2 : tensor<2x3xf32> to tensor<*xf32>
  call @printMemrefF32(%u2) : (tensor<*xf32>) -> ()
  %u3 = tensor.cast %r3 : tensor<2x3xf32> to tensor<*xf32>
  call @printMemrefF32(%u3) : (tensor<*xf32>) -> ()
  %u4 = tensor.cast %r4 : tensor<2x3xf32> to tensor<*xf32>
  call @printMemrefF32(%u4) : (tensor<*xf32>) -> ()
  %u5 = tensor.cast %r5 : tensor<2x3xf32> to tensor<*xf32>
  call @printMemrefF32(%u5) : (tensor<*xf32>) -> ()
  %u6 = tensor.cast %r6 : tensor<2x3xf32> to tensor<*xf32>
  call @printMemrefF32(%u6) : (tensor<*xf32>) -> ()
  %u7 = tensor.cast %r7 : tensor<2x3xf32> to tensor<*xf32>
  call @printMemrefF32(%u7) : (tensor<*xf32>) -> ()
  return
}
