// With outputs passed as memrefs and results materialised into them, the
// pipeline computes every result in place: no heap allocation, no copy
// helper, no returned buffer.
// RUN: graph-opt %s --graphc-cpu-codegen="vector-width=16" | FileCheck %s

// CHECK-NOT:   llvm.call @malloc
// CHECK-NOT:   memrefCopy
// CHECK-LABEL: llvm.func @matmul_bias_tanh
// CHECK-SAME:    i64) {
// CHECK-NOT:   llvm.call @malloc
// CHECK-LABEL: llvm.func @exp
// CHECK-NOT:   llvm.call @malloc
#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d1)>
func.func @matmul_bias_tanh(%a: tensor<67x45xf32>, %b: tensor<45x70xf32>,
                            %bias: tensor<70xf32>, %out: memref<67x70xf32>) {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<67x70xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<67x70xf32>) -> tensor<67x70xf32>
  %mm = linalg.matmul ins(%a, %b : tensor<67x45xf32>, tensor<45x70xf32>)
                      outs(%f : tensor<67x70xf32>) -> tensor<67x70xf32>
  %r = linalg.generic {indexing_maps = [#row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%bias : tensor<70xf32>) outs(%mm : tensor<67x70xf32>) {
  ^bb0(%c: f32, %acc: f32):
    %s = arith.addf %acc, %c : f32
    %t = math.tanh %s : f32
    linalg.yield %t : f32
  } -> tensor<67x70xf32>
  bufferization.materialize_in_destination %r in restrict writable %out
      : (tensor<67x70xf32>, memref<67x70xf32>) -> ()
  return
}

func.func @exp(%x: tensor<8x40xf32>, %out: memref<8x40xf32>) {
  %e = tensor.empty() : tensor<8x40xf32>
  %r = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<8x40xf32>) outs(%e : tensor<8x40xf32>) {
  ^bb0(%a: f32, %o: f32):
    %v = math.exp %a : f32
    linalg.yield %v : f32
  } -> tensor<8x40xf32>
  bufferization.materialize_in_destination %r in restrict writable %out
      : (tensor<8x40xf32>, memref<8x40xf32>) -> ()
  return
}
