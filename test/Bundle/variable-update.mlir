// A training step's variable update: graph.assign_variable writes the
// variable after the step's outputs, so `before` is the value the step read
// and `after` the updated one, and the next step starts from it. Two steps
// of acc += x from [1, 2, 3] with x = [10, 20, 30]: the second step reads
// [11, 22, 33] and leaves [21, 42, 63]; `steps` counts with mode = add.
// REQUIRES: runtime
// RUN: rm -rf %t && mkdir -p %t
// RUN: %python -c "import numpy as np; np.save('%t/x.npy', np.array([10, 20, 30], np.float32))"
// RUN: graphc %s -o %t/job.gjob
// RUN: graph-run --quiet %t/job.gjob --steps 2 --input x=%t/x.npy --output-dir %t/out
// RUN: %python -c "import numpy as np; [print(n, np.load('%t/out/' + n + '.npy').tolist()) for n in ('before', 'after', 'steps')]" | FileCheck %s
// CHECK: before [11.0, 22.0, 33.0]
// CHECK-NEXT: after [21.0, 42.0, 63.0]
// CHECK-NEXT: steps 2

// The step function over memrefs: the outputs are written before the
// variables' buffers are overwritten.
// RUN: graphc %s --emit=linalg | FileCheck %s --check-prefix=LINALG
// LINALG-LABEL: module @main attributes
// LINALG-SAME: graphrt.variables = [{dtype = "f32", name = "acc", shape = array<i64: 3>, value = dense<[1.000000e+00, 2.000000e+00, 3.000000e+00]> : tensor<3xf32>}, {dtype = "i64", name = "steps", shape = array<i64>, value = dense<0> : tensor<i64>}]
// LINALG: func.func @graphc_task_run(%{{.*}}: !llvm.ptr, %{{.*}}: !llvm.ptr, %[[X:.*]]: memref<3xf32>, %[[ACC:.*]]: memref<3xf32>, %[[STEPS:.*]]: memref<i64>, %[[BEFORE:.*]]: memref<3xf32>, %[[AFTER:.*]]: memref<3xf32>, %[[OSTEPS:.*]]: memref<i64>) -> !llvm.ptr
// LINALG: bufferization.materialize_in_destination %{{.*}} in restrict writable %[[BEFORE]]
// LINALG: bufferization.materialize_in_destination %{{.*}} in restrict writable %[[AFTER]]
// LINALG: bufferization.materialize_in_destination %{{.*}} in restrict writable %[[OSTEPS]]
// LINALG: memref.copy %{{.*}}, %[[ACC]]
// LINALG: memref.copy %{{.*}}, %[[STEPS]]

graph.variable @acc : tensor<3xf32> = dense<[1.0, 2.0, 3.0]>
graph.variable @steps : tensor<i64> = dense<0>
func.func @main(%x: tensor<3xf32> {graph.name = "x"})
    -> (tensor<3xf32> {graph.name = "before"}, tensor<3xf32> {graph.name = "after"},
        tensor<i64> {graph.name = "steps"}) {
  %v = graph.read_variable @acc : tensor<3xf32>
  %n = graph.add %v, %x : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
  graph.assign_variable @acc, %n : tensor<3xf32>
  %after = graph.read_variable @acc : tensor<3xf32>
  %one = graph.constant dense<1> : tensor<i64>
  graph.assign_variable @steps, %one mode = add : tensor<i64>
  %s = graph.read_variable @steps : tensor<i64>
  return %v, %after, %s : tensor<3xf32>, tensor<3xf32>, tensor<i64>
}
