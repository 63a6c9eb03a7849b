// graph-hoist-weights: large dense (and dense_resource) non-splat constants
// become variables named after their source; small ones, splats and i1 stay.
// RUN: graph-opt %s --graph-hoist-weights=threshold=16 --split-input-file | FileCheck %s
// RUN: graph-opt %s --graph-hoist-weights=threshold=-1 --split-input-file | FileCheck %s --check-prefix=NONE

// CHECK-LABEL: module
// The two 16-byte constants named W get W and W_1; each is its own variable,
// sharing the same value.
// CHECK: graph.variable @W : tensor<4xf32> = dense<[1.000000e+00, 2.000000e+00, 3.000000e+00, 4.000000e+00]> {dist.device = #dist.device<"/job:worker/task:1">}
// CHECK-NEXT: graph.variable @W_1 : tensor<4xf32> = dense<[1.000000e+00, 2.000000e+00, 3.000000e+00, 4.000000e+00]>
// An unnamed constant is constN (N: its place among the hoisted).
// CHECK-NEXT: graph.variable @const2 : tensor<2x2xi32>
// CHECK-LABEL: func.func @main
// CHECK: graph.read_variable @W {dist.device = #dist.device<"/job:worker/task:1">} : tensor<4xf32>
// CHECK: graph.read_variable @W_1 : tensor<4xf32>
// CHECK: graph.read_variable @const2 : tensor<2x2xi32>
// Too small, a splat, and i1: kept.
// CHECK: graph.constant dense<[1.000000e+00, 2.000000e+00]> : tensor<2xf32>
// CHECK: graph.constant dense<5.000000e+00> : tensor<8xf32>
// CHECK: graph.constant dense<{{.*}}> : tensor<32xi1>
// NONE-NOT: graph.variable
func.func @main(%x: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>, tensor<2x2xi32>, tensor<2xf32>, tensor<8xf32>, tensor<32xi1>) {
  %a = graph.constant {dist.device = #dist.device<"/job:worker/task:1">} dense<[1.0, 2.0, 3.0, 4.0]> : tensor<4xf32> loc("model.onnx:W")
  %b = graph.constant dense<[1.0, 2.0, 3.0, 4.0]> : tensor<4xf32> loc("model.onnx:W")
  %c = graph.constant dense<[[1, 2], [3, 4]]> : tensor<2x2xi32>
  %d = graph.constant dense<[1.0, 2.0]> : tensor<2xf32>
  %e = graph.constant dense<5.0> : tensor<8xf32>
  %f = graph.constant dense<[true, false, true, false, true, false, true, false, true, false, true, false, true, false, true, false, true, false, true, false, true, false, true, false, true, false, true, false, true, false, true, true]> : tensor<32xi1>
  return %a, %b, %c, %d, %e, %f : tensor<4xf32>, tensor<4xf32>, tensor<2x2xi32>, tensor<2xf32>, tensor<8xf32>, tensor<32xi1>
}

// -----

// A dense_resource blob (the ONNX importer's large initializers) of 16 bytes.
// CHECK-LABEL: module
// CHECK: graph.variable @blob.weight : tensor<4xf32> = dense_resource<w_blob>
// CHECK: graph.read_variable @blob.weight
func.func @main() -> tensor<4xf32> {
  %w = graph.constant dense_resource<w_blob> : tensor<4xf32> loc("m.onnx:blob.weight")
  return %w : tensor<4xf32>
}

{-#
  dialect_resources: {
    builtin: {
      w_blob: "0x040000000000803F000000400000404000008040"
    }
  }
#-}

// -----

// A dynamic batch's chunk body (graph-dynamic-batch) reads the entry's
// weights: its copy of W reuses @W instead of storing the bytes twice. A
// constant only the chunk body has still gets its own variable.
// CHECK-LABEL: module
// CHECK: graph.variable @W : tensor<4xf32>
// CHECK-NOT: graph.variable
// CHECK-LABEL: func.func @main
// CHECK: graph.read_variable @W : tensor<4xf32>
// CHECK: graph.variable @V : tensor<4xf32>
// CHECK-NOT: graph.variable
// CHECK-LABEL: func.func private @main_batch_chunk
// CHECK: graph.read_variable @W : tensor<4xf32>
// CHECK: graph.read_variable @V : tensor<4xf32>
func.func @main(%x: tensor<1x4xf32>) -> tensor<1x4xf32> attributes {graph.dynamic_batch_chunk = {func = @main_batch_chunk, size = 8 : i64}} {
  %w = graph.constant dense<[1.0, 2.0, 3.0, 4.0]> : tensor<4xf32> loc("model.onnx:W")
  %y = graph.add %x, %w : (tensor<1x4xf32>, tensor<4xf32>) -> tensor<1x4xf32>
  return %y : tensor<1x4xf32>
}
func.func private @main_batch_chunk(%x: tensor<8x4xf32>) -> tensor<8x4xf32> {
  %w = graph.constant dense<[1.0, 2.0, 3.0, 4.0]> : tensor<4xf32> loc("model.onnx:W")
  %v = graph.constant dense<[5.0, 6.0, 7.0, 8.0]> : tensor<4xf32> loc("model.onnx:V")
  %y = graph.add %x, %w : (tensor<8x4xf32>, tensor<4xf32>) -> tensor<8x4xf32>
  %z = graph.add %y, %v : (tensor<8x4xf32>, tensor<4xf32>) -> tensor<8x4xf32>
  return %z : tensor<8x4xf32>
}
