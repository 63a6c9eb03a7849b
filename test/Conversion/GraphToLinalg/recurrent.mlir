// RUN: graph-opt %s --graph-to-linalg --split-input-file | FileCheck %s

// LSTM: the input projection of the whole sequence is one matmul; the time
// loop carries h, c and Y, does one recurrent matmul and one gate generic
// per step, copies the new state over the carried one and writes Y[t].
// CHECK-LABEL: func.func @lstm
// CHECK: %[[RT:.*]] = linalg.transpose ins(%{{.*}} : tensor<12x3xf32>) outs(%{{.*}} : tensor<3x12xf32>)
// CHECK: %[[XW:.*]] = linalg.matmul ins(%{{.*}}, %{{.*}} : tensor<6x4xf32>, tensor<4x12xf32>)
// CHECK: %[[L:.*]]:3 = scf.for %[[S:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[H:.*]] = %{{.*}}, %[[C:.*]] = %{{.*}}, %[[Y:.*]] = %{{.*}}) -> (tensor<2x3xf32>, tensor<2x3xf32>, tensor<3x1x2x3xf32>)
// CHECK: %[[XS:.*]] = tensor.extract_slice %{{.*}}[%[[S]], 0, 0] [1, 2, 12] [1, 1, 1] : tensor<3x2x12xf32> to tensor<2x12xf32>
// CHECK: linalg.matmul ins(%[[H]], %[[RT]] : tensor<2x3xf32>, tensor<3x12xf32>)
// CHECK: %[[CELL:.*]]:2 = linalg.generic
// CHECK: math.tanh
// CHECK: %[[Y1:.*]] = tensor.insert_slice %[[CELL]]#0 into %[[Y]][%[[S]], 0, 0, 0] [1, 1, 2, 3] [1, 1, 1, 1] : tensor<2x3xf32> into tensor<3x1x2x3xf32>
// CHECK: %[[H1:.*]] = linalg.copy ins(%[[CELL]]#0 : tensor<2x3xf32>) outs(%[[H]] : tensor<2x3xf32>)
// CHECK: %[[C1:.*]] = linalg.copy ins(%[[CELL]]#1 : tensor<2x3xf32>) outs(%[[C]] : tensor<2x3xf32>)
// CHECK: scf.yield %[[H1]], %[[C1]], %[[Y1]]
// CHECK: return %[[L]]#2
func.func @lstm(%x: tensor<3x2x4xf32>, %w: tensor<1x12x4xf32>, %r: tensor<1x12x3xf32>) -> tensor<3x1x2x3xf32> {
  %y, %yh, %yc = graph.lstm %x, %w, %r {hidden_size = 3 : i64} : (tensor<3x2x4xf32>, tensor<1x12x4xf32>, tensor<1x12x3xf32>) -> (tensor<3x1x2x3xf32>, tensor<1x2x3xf32>, tensor<1x2x3xf32>)
  return %y : tensor<3x1x2x3xf32>
}

// -----

// GRU reverse with sequence_lens: each row reads its own step through
// tensor.extract and Y is written row by row.
// CHECK-LABEL: func.func @gru_reverse_lens
// CHECK: scf.for %[[S:[^ ]*]] =
// CHECK: linalg.generic
// CHECK: %[[LEN:.*]] = arith.index_cast %{{.*}} : i32 to index
// CHECK: arith.cmpi slt, %[[S]], %[[LEN]] : index
// CHECK: tensor.extract %{{.*}} : tensor<3x2x9xf32>
// CHECK: scf.for
// CHECK: tensor.insert_slice %{{.*}} into %{{.*}} [1, 1, 1, 3] [1, 1, 1, 1] : tensor<3xf32> into tensor<3x1x2x3xf32>
func.func @gru_reverse_lens(%x: tensor<3x2x4xf32>, %w: tensor<1x9x4xf32>, %r: tensor<1x9x3xf32>, %l: tensor<2xi32>) -> tensor<3x1x2x3xf32> {
  %y, %yh = graph.gru %x, %w, %r sequence_lens(%l) {hidden_size = 3 : i64, direction = #graph<rnn_direction reverse>} : (tensor<3x2x4xf32>, tensor<1x9x4xf32>, tensor<1x9x3xf32>, tensor<2xi32>) -> (tensor<3x1x2x3xf32>, tensor<1x2x3xf32>)
  return %y : tensor<3x1x2x3xf32>
}
