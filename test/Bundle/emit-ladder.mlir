// The emit ladder on a small model: relu(x @ W + b). With a 32-byte
// threshold the 48-byte W becomes a variable with a weights file and the
// 16-byte b stays in the shared object.
// RUN: graphc %s --emit=graph | FileCheck %s --check-prefix=GRAPH
// RUN: graphc %s --emit=dist --weights-threshold=32 | FileCheck %s --check-prefix=DIST
// RUN: graphc %s --emit=linalg --weights-threshold=32 | FileCheck %s --check-prefix=LINALG
// RUN: graphc %s --emit=llvm --weights-threshold=32 | FileCheck %s --check-prefix=LLVM
// RUN: graphc %s --emit=obj --weights-threshold=32 -o %t.o
// RUN: llvm-nm %t.o | FileCheck %s --check-prefix=OBJ
// RUN: not graphc %s --emit=job 2>&1 | FileCheck %s --check-prefix=NOOUT
// RUN: rm -rf %t.gjob && graphc %s --weights-threshold=32 -o %t.gjob
// RUN: %python %S/Inputs/manifest_summary.py %t.gjob | FileCheck %s --check-prefix=MANIFEST
// RUN: FileCheck %s --check-prefix=RAW < %t.gjob/manifest.json
// RUN: graphc %s --weights-threshold=-1 -o %t.inline.gjob
// RUN: %python %S/Inputs/manifest_summary.py %t.inline.gjob | FileCheck %s --check-prefix=INLINE

// GRAPH-LABEL: func.func @main
// GRAPH: graph.matmul

// DIST: graph.variable @W : tensor<3x4xf32> = dense<
// DIST-LABEL: dist.task @main on #dist.device<"/job:worker/task:0">
// DIST: graph.read_variable @W : tensor<3x4xf32>
// DIST: graph.constant dense<[5.000000e-01, -1.000000e+00, 2.000000e+00, 0.000000e+00]>

// LINALG-LABEL: module @main attributes
// LINALG-SAME: graphrt.variables = [{dtype = "f32", name = "W", shape = array<i64: 3, 4>, value = dense<
// LINALG: func.func @graphc_task_run(%{{.*}}: !llvm.ptr, %{{.*}}: !llvm.ptr,
// LINALG-SAME: %[[X:.*]]: memref<2x3xf32>, %[[W:.*]]: memref<3x4xf32>, %[[Y:.*]]: memref<2x4xf32>) -> !llvm.ptr
// LINALG-DAG: bufferization.to_tensor %[[X]] restrict
// LINALG-DAG: bufferization.to_tensor %[[W]] restrict
// LINALG: linalg.matmul
// LINALG: bufferization.materialize_in_destination %{{.*}} in restrict writable %[[Y]]
// LINALG-NOT: graph.

// LLVM-DAG: llvm.mlir.global external constant @graphrt_task_descriptor_v1()
// LLVM-DAG: llvm.func internal @graphc_task_step(
// LLVM-DAG: llvm.call @graphc_task_run(

// OBJ-NOT: T graphc_task_run
// OBJ: t graphc_task_step
// OBJ: {{[DR]}} graphrt_task_descriptor_v1

// NOOUT: graphc: error: --emit=job writes a bundle directory; give it with -o NAME.gjob

// MANIFEST: format_version 1
// MANIFEST-NEXT: name emit-ladder
// MANIFEST-NEXT: task main worker:0 library main.so device /job:worker/task:0/device:CPU:0 entry graphrt_task_descriptor_v1
// MANIFEST-NEXT:   input x f32 [2, 3]
// MANIFEST-NEXT:   output y f32 [2, 4]
// MANIFEST-NEXT:   variable W f32 [3, 4] file main.w0.bin
// MANIFEST-NEXT: file main.so sha256 {{[0-9a-f]+}} size {{[1-9][0-9]*}}
// MANIFEST-NEXT: file main.w0.bin sha256 {{[0-9a-f]+}} size 48
// MANIFEST-NOT: {{.}}

// protobuf's JSON printer with the proto field names (not lowerCamelCase).
// RAW: "format_version": 1,

// INLINE: output y f32 [2, 4]
// INLINE-NOT: variable
// INLINE: file main.so
// INLINE-NOT: file

func.func @main(%x: tensor<2x3xf32> {graph.name = "x"})
    -> (tensor<2x4xf32> {graph.name = "y"}) {
  %w = graph.constant dense<[[1.0, -2.0, 3.0, 0.5], [0.25, 4.0, -1.0, 2.0],
                             [-3.0, 1.0, 1.0, -0.5]]> : tensor<3x4xf32> loc("W")
  %b = graph.constant dense<[0.5, -1.0, 2.0, 0.0]> : tensor<4xf32>
  %m = graph.matmul %x, %w : (tensor<2x3xf32>, tensor<3x4xf32>) -> tensor<2x4xf32>
  %a = graph.add %m, %b : (tensor<2x4xf32>, tensor<4xf32>) -> tensor<2x4xf32>
  %r = graph.relu %a : (tensor<2x4xf32>) -> tensor<2x4xf32>
  return %r : tensor<2x4xf32>
}
