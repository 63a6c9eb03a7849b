// Large constants that the ONNX importer keeps as dense_resource blobs become
// variables with weights files like dense ones do; they used to stay in the
// shared object (a ResNet-50's 97 MB of weights went through LLVM as IR
// constants). The 48-byte W (1..12) passes the 32-byte threshold.
// RUN: rm -rf %t.gjob && graphc %s --weights-threshold=32 -o %t.gjob
// RUN: %python %S/Inputs/manifest_summary.py %t.gjob | FileCheck %s
// RUN: od -A n -v -t f4 %t.gjob/main.w0.bin | FileCheck %s --check-prefix=BYTES
// RUN: graphc %s --emit=linalg --weights-threshold=32 | FileCheck %s --check-prefix=LINALG

// CHECK: variable W f32 [3, 4] file main.w0.bin
// CHECK: file main.w0.bin sha256 {{[0-9a-f]+}} size 48

// BYTES: 1 2 3 4
// BYTES-NEXT: 5 6 7 8
// BYTES-NEXT: 9 10 11 12

// The blob is the variable's initial value, not a constant of the code.
// LINALG: graphrt.variables = [{dtype = "f32", name = "W", shape = array<i64: 3, 4>, value = dense_resource<w_blob> : tensor<3x4xf32>}]
// LINALG: func.func @graphc_task_run(
// LINALG-SAME: %{{.*}}: memref<2x3xf32>, %{{.*}}: memref<3x4xf32>, %{{.*}}: memref<2x4xf32>) -> !llvm.ptr
// LINALG-NOT: arith.constant dense_resource

func.func @main(%x: tensor<2x3xf32> {graph.name = "x"})
    -> (tensor<2x4xf32> {graph.name = "y"}) {
  %w = graph.constant dense_resource<w_blob> : tensor<3x4xf32> loc("W")
  %m = graph.matmul %x, %w : (tensor<2x3xf32>, tensor<3x4xf32>) -> tensor<2x4xf32>
  return %m : tensor<2x4xf32>
}

{-#
  dialect_resources: {
    builtin: {
      w_blob: "0x040000000000803F0000004000004040000080400000A0400000C0400000E0400000004100001041000020410000304100004041"
    }
  }
#-}
