// graphc verifies the IR once at the end of each pipeline; --verify-each
// verifies it after every pass too (the verifier walks the whole module, so
// on DenseNet-121 that cost 4 to 5 s of a 20 s pipeline). The output is the
// same either way.
// RUN: graphc %s --emit=llvm -o %t.once.mlir
// RUN: graphc %s --emit=llvm --verify-each -o %t.each.mlir
// RUN: diff %t.once.mlir %t.each.mlir
// RUN: FileCheck %s < %t.once.mlir
// CHECK: llvm.func internal @graphc_task_run
func.func @main(%x: tensor<2x3xf32>, %w: tensor<3x4xf32>) -> tensor<2x4xf32> {
  %y = graph.matmul %x, %w : (tensor<2x3xf32>, tensor<3x4xf32>) -> tensor<2x4xf32>
  return %y : tensor<2x4xf32>
}
