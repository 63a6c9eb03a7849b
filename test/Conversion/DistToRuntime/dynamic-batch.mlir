// A dynamic batch through task lowering (docs/design/dynamic-batch.md): the
// task's signature carries -1 in dimension 0 of the batched input and
// output, graphc_task_run holds one sample, and graphc_task_step reads the
// batch from the input, checks the output has it, and runs one sample per
// iteration, advancing the batched pointers by a sample's bytes.
// RUN: graph-opt %s --pass-pipeline='builtin.module(graphc-graph{dynamic-batch=1},graphc-dist,graphc-task-lowering)' | FileCheck %s
// RUN: graph-opt %s --pass-pipeline='builtin.module(graphc-graph{dynamic-batch=1},graphc-dist,graphc-task-lowering,graphc-task-codegen{openmp=false})' | FileCheck %s --check-prefix=STEP
// Without the option (what --train and --replicas compile with) the batch
// stays dynamic and task lowering asks for --input-shape.
// RUN: not graph-opt %s --pass-pipeline='builtin.module(graphc-graph,graphc-dist,graphc-task-lowering)' 2>&1 | FileCheck %s --check-prefix=STATIC

// CHECK: module @main attributes {
// CHECK-SAME: graphrt.inputs = [{dtype = "f32", name = "x", shape = array<i64: -1, 3>}, {dtype = "f32", name = "bias", shape = array<i64: 3>}]
// CHECK-SAME: graphrt.outputs = [{dtype = "f32", name = "y", shape = array<i64: -1, 3>}]
// CHECK: func.func @graphc_task_run({{.*}}: memref<1x3xf32>, {{.*}}: memref<3xf32>, {{.*}}: memref<1x3xf32>)

// STEP-LABEL: llvm.func internal @graphc_task_step(
// STEP-SAME: %[[CTX:[^:]*]]: !llvm.ptr, %[[SERVICES:[^:]*]]: !llvm.ptr, %{{[^:]*}}: i64, %[[IN:[^:]*]]: !llvm.ptr, %{{[^:]*}}: i64, %[[OUT:[^:]*]]: !llvm.ptr
// The batch: inputs[0].shape[0], compared with outputs[0].shape[0].
// STEP: %[[SHAPEP:.*]] = llvm.getelementptr %[[IN]][0, 2]
// STEP: %[[SHAPE:.*]] = llvm.load %[[SHAPEP]]
// STEP: %[[BATCH:.*]] = llvm.load %[[SHAPE]] : !llvm.ptr -> i64
// STEP: llvm.getelementptr %[[OUT]][0, 2]
// STEP: %[[SAME:.*]] = llvm.icmp "eq" %{{.*}}, %[[BATCH]]
// STEP: llvm.cond_br %[[SAME]], ^[[CHECKED:.*]], ^[[BAD:bb[0-9]+]]
// STEP: ^[[BAD]]:
// STEP: llvm.getelementptr %[[SERVICES]][8]
// STEP: llvm.mlir.addressof @[[MSG:graphc_str_[0-9]+]]
// STEP: llvm.call %{{.*}}(%{{.*}}, %{{.*}}) : !llvm.ptr, (i32, !llvm.ptr) -> !llvm.ptr
// STEP: ^[[HEADER:bb[0-9]+]](%[[I:.*]]: i64):
// STEP: llvm.icmp "slt" %[[I]], %[[BATCH]]
// One sample of x is 12 bytes.
// STEP: llvm.mul %[[I]], %{{.*}}
// STEP: llvm.call @graphc_task_run(
// STEP: llvm.add %[[I]]
// STEP: llvm.br ^[[HEADER]]
// The message, and the descriptor's shape of x with -1 for the batch.
// STEP-DAG: llvm.mlir.global private constant @[[MSG]]("task 'main': output 'y' does not have the batch of input 'x'\00")
// STEP-DAG: llvm.mlir.global private constant @{{.*}}(dense<[-1, 3]> : tensor<2xi64>)

// STATIC: input 'x' has type 'tensor<?x3xf32>'; a task needs static shapes (fix them with --input-shape)

func.func @main(%x: tensor<?x3xf32> {graph.name = "x"}, %bias: tensor<3xf32> {graph.name = "bias"}) -> (tensor<?x3xf32> {graph.name = "y"}) {
  %a = graph.add %x, %bias : (tensor<?x3xf32>, tensor<3xf32>) -> tensor<?x3xf32>
  %r = graph.relu %a : (tensor<?x3xf32>) -> tensor<?x3xf32>
  return %r : tensor<?x3xf32>
}
