// A dynamic batch through task lowering (docs/design/dynamic-batch.md): the
// task's signature carries -1 in dimension 0 of the batched input and
// output, graphc_task_run holds one sample and graphc_task_run_chunk eight
// (graph-dynamic-batch's chunk body), and graphc_task_step reads the batch
// from the input, checks the output has it, runs every full chunk of eight
// through graphc_task_run_chunk and the remaining samples one at a time
// through graphc_task_run, advancing the batched pointers by a sample's
// bytes.
// RUN: graph-opt %s --pass-pipeline='builtin.module(graphc-graph{dynamic-batch=1},graphc-dist,graphc-task-lowering)' | FileCheck %s
// RUN: graph-opt %s --pass-pipeline='builtin.module(graphc-graph{dynamic-batch=1},graphc-dist,graphc-task-lowering,graphc-task-codegen{openmp=false})' | FileCheck %s --check-prefix=STEP
// dynamic-batch-chunk=1 (the CUDA target's): one body, one loop.
// RUN: graph-opt %s --pass-pipeline='builtin.module(graphc-graph{dynamic-batch=1 dynamic-batch-chunk=1},graphc-dist,graphc-task-lowering,graphc-task-codegen{openmp=false})' | FileCheck %s --check-prefix=SINGLE
// Without the option (what --train and --replicas compile with) the batch
// stays dynamic and task lowering asks for --input-shape.
// RUN: not graph-opt %s --pass-pipeline='builtin.module(graphc-graph,graphc-dist,graphc-task-lowering)' 2>&1 | FileCheck %s --check-prefix=STATIC

// CHECK: module @main attributes {
// CHECK-SAME: graphrt.batch_chunk = 8 : i64
// CHECK-SAME: graphrt.inputs = [{dtype = "f32", name = "x", shape = array<i64: -1, 3>}, {dtype = "f32", name = "bias", shape = array<i64: 3>}]
// CHECK-SAME: graphrt.outputs = [{dtype = "f32", name = "y", shape = array<i64: -1, 3>}]
// CHECK: func.func @graphc_task_run({{.*}}: memref<1x3xf32>, {{.*}}: memref<3xf32>, {{.*}}: memref<1x3xf32>)
// CHECK: func.func @graphc_task_run_chunk({{.*}}: memref<8x3xf32>, {{.*}}: memref<3xf32>, {{.*}}: memref<8x3xf32>)
// CHECK-NOT: func.func

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
// Full chunks: while i + 8 <= batch, the chunk body from sample i (12
// bytes a sample), then i += 8.
// STEP: ^[[CHUNK:bb[0-9]+]](%[[I:.*]]: i64):
// STEP: %[[NEXT:.*]] = llvm.add %[[I]], %[[EIGHT:.*]] : i64
// STEP: %[[FITS:.*]] = llvm.icmp "sle" %[[NEXT]], %[[BATCH]]
// STEP: llvm.cond_br %[[FITS]], ^[[CHUNKBODY:bb[0-9]+]], ^[[REST:bb[0-9]+]]
// STEP: ^[[CHUNKBODY]]:
// STEP: llvm.mul %[[I]], %{{.*}}
// STEP: llvm.call @graphc_task_run_chunk(
// STEP: llvm.cond_br %{{.*}}, ^[[LATCH:bb[0-9]+]], ^[[FAILED:bb[0-9]+]](
// STEP: ^[[LATCH]]:
// STEP: llvm.br ^[[CHUNK]](%[[NEXT]] : i64)
// The remainder from where the chunks stopped: one sample a call.
// STEP: ^[[REST]]:
// STEP: llvm.br ^[[ONE:bb[0-9]+]](%[[I]] : i64)
// STEP: ^[[ONE]](%[[J:.*]]: i64):
// STEP: %[[JNEXT:.*]] = llvm.add %[[J]], %{{.*}} : i64
// STEP: llvm.icmp "sle" %[[JNEXT]], %[[BATCH]]
// STEP: llvm.mul %[[J]], %{{.*}}
// STEP: llvm.call @graphc_task_run(
// STEP: llvm.br ^[[ONE]](%[[JNEXT]] : i64)
// STEP: llvm.return %{{.*}} : !llvm.ptr
// STEP: ^[[FAILED]](%[[STATUS:.*]]: !llvm.ptr):
// STEP: llvm.return %[[STATUS]]
// The message, and the descriptor's shape of x with -1 for the batch.
// STEP-DAG: llvm.mlir.global private constant @[[MSG]]("task 'main': output 'y' does not have the batch of input 'x'\00")
// STEP-DAG: llvm.mlir.global private constant @{{.*}}(dense<[-1, 3]> : tensor<2xi64>)

// SINGLE-LABEL: llvm.func internal @graphc_task_step(
// SINGLE-NOT: graphc_task_run_chunk
// SINGLE: llvm.call @graphc_task_run(
// SINGLE-NOT: graphc_task_run_chunk

// STATIC: input 'x' has type 'tensor<?x3xf32>'; a task needs static shapes (fix them with --input-shape)

func.func @main(%x: tensor<?x3xf32> {graph.name = "x"}, %bias: tensor<3xf32> {graph.name = "bias"}) -> (tensor<?x3xf32> {graph.name = "y"}) {
  %a = graph.add %x, %bias : (tensor<?x3xf32>, tensor<3xf32>) -> tensor<?x3xf32>
  %r = graph.relu %a : (tensor<?x3xf32>) -> tensor<?x3xf32>
  return %r : tensor<?x3xf32>
}
