// RUN: graph-opt %s --graph-to-linalg --split-input-file | FileCheck %s

// gather_nd: one generic over the result reading the index tuple with
// tensor.extract; negative indices wrap.
// CHECK-LABEL: func.func @gather_nd
// CHECK-SAME: (%[[X:.*]]: tensor<4x5x6xf32>, %[[I:.*]]: tensor<3x2xi64>)
// CHECK: linalg.generic {{.*}} outs(%{{.*}} : tensor<3x6xf32>)
// CHECK: %[[R:.*]] = linalg.index 0 : index
// CHECK: %[[I0:.*]] = tensor.extract %[[I]][%[[R]], %{{.*}}] : tensor<3x2xi64>
// CHECK: arith.index_cast %[[I0]] : i64 to index
// CHECK: arith.cmpi slt
// CHECK: %[[W0:.*]] = arith.select
// CHECK: tensor.extract %[[I]][%[[R]], %{{.*}}] : tensor<3x2xi64>
// CHECK: %[[W1:.*]] = arith.select
// CHECK: %[[S:.*]] = linalg.index 1 : index
// CHECK: %[[V:.*]] = tensor.extract %[[X]][%[[W0]], %[[W1]], %[[S]]] : tensor<4x5x6xf32>
// CHECK: linalg.yield %[[V]] : f32
func.func @gather_nd(%x: tensor<4x5x6xf32>, %i: tensor<3x2xi64>) -> tensor<3x6xf32> {
  %0 = graph.gather_nd %x, %i : (tensor<4x5x6xf32>, tensor<3x2xi64>) -> tensor<3x6xf32>
  return %0 : tensor<3x6xf32>
}

// -----

// scatter_nd: an scf.for nest over the updates carrying the result, which
// starts as the input; `add` reads the old element.
// CHECK-LABEL: func.func @scatter_nd_add
// CHECK-SAME: (%[[X:.*]]: tensor<4x5xf32>, %[[I:.*]]: tensor<2x1xi64>, %[[U:.*]]: tensor<2x5xf32>)
// CHECK: %[[R:.*]] = scf.for %[[T:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[A:.*]] = %[[X]]) -> (tensor<4x5xf32>)
// CHECK: scf.for %[[S:.*]] = %{{.*}} iter_args(%[[B:.*]] = %[[A]]) -> (tensor<4x5xf32>)
// CHECK: tensor.extract %[[I]][%[[T]], %{{.*}}] : tensor<2x1xi64>
// CHECK: %[[D:.*]] = arith.select
// CHECK: %[[NEW:.*]] = tensor.extract %[[U]][%[[T]], %[[S]]]
// CHECK: %[[OLD:.*]] = tensor.extract %[[B]][%[[D]], %[[S]]]
// CHECK: %[[SUM:.*]] = arith.addf %[[OLD]], %[[NEW]] : f32
// CHECK: %[[INS:.*]] = tensor.insert %[[SUM]] into %[[B]][%[[D]], %[[S]]]
// CHECK: scf.yield %[[INS]]
// CHECK: return %[[R]]
func.func @scatter_nd_add(%x: tensor<4x5xf32>, %i: tensor<2x1xi64>, %u: tensor<2x5xf32>) -> tensor<4x5xf32> {
  %0 = graph.scatter_nd %x, %i, %u {reduction = #graph<scatter_reduction add>} : (tensor<4x5xf32>, tensor<2x1xi64>, tensor<2x5xf32>) -> tensor<4x5xf32>
  return %0 : tensor<4x5xf32>
}

// -----

// scatter_elements accepts dynamic shapes (loop bounds from tensor.dim);
// `none` overwrites without reading the old element.
// CHECK-LABEL: func.func @scatter_elements_dynamic
// CHECK-SAME: (%[[X:.*]]: tensor<?x5xi32>, %[[I:.*]]: tensor<?x2xi32>, %[[U:.*]]: tensor<?x2xi32>)
// CHECK: %[[N:.*]] = tensor.dim %[[U]], %{{.*}} : tensor<?x2xi32>
// CHECK: scf.for %[[P:[^ ]*]] = %{{.*}} to %[[N]]
// CHECK: scf.for %[[Q:[^ ]*]] =
// CHECK: tensor.extract %[[I]][%[[P]], %[[Q]]] : tensor<?x2xi32>
// CHECK: %[[D:.*]] = arith.select
// CHECK: %[[NEW:.*]] = tensor.extract %[[U]][%[[P]], %[[Q]]]
// CHECK-NOT: tensor.extract
// CHECK: tensor.insert %[[NEW]] into %{{.*}}[%[[P]], %[[D]]] : tensor<?x5xi32>
func.func @scatter_elements_dynamic(%x: tensor<?x5xi32>, %i: tensor<?x2xi32>, %u: tensor<?x2xi32>) -> tensor<?x5xi32> {
  %0 = graph.scatter_elements %x, %i, %u {axis = 1 : i64} : (tensor<?x5xi32>, tensor<?x2xi32>, tensor<?x2xi32>) -> tensor<?x5xi32>
  return %0 : tensor<?x5xi32>
}

// -----

// CHECK-LABEL: func.func @scatter_elements_max
// CHECK: %[[NEW:.*]] = tensor.extract %arg2
// CHECK: %[[OLD:.*]] = tensor.extract %arg
// CHECK: arith.maximumf %[[OLD]], %[[NEW]] : f32
func.func @scatter_elements_max(%x: tensor<3x5xf32>, %i: tensor<3x2xi64>, %u: tensor<3x2xf32>) -> tensor<3x5xf32> {
  %0 = graph.scatter_elements %x, %i, %u {axis = 1 : i64, reduction = #graph<scatter_reduction max>} : (tensor<3x5xf32>, tensor<3x2xi64>, tensor<3x2xf32>) -> tensor<3x5xf32>
  return %0 : tensor<3x5xf32>
}
