// RUN: graph-opt %s --graph-infer-shapes --split-input-file --verify-diagnostics | FileCheck %s

// Pieces of a CNN classifier step written with dynamic result types; static
// shapes flow from the arguments through conv, pool, matmul and the loss.
// CHECK-LABEL: func @cnn
// CHECK-SAME: -> (tensor<4x8x15x15xf32>, tensor<4xf32>, tensor<4x10xf32>)
func.func @cnn(%x: tensor<4x3x32x32xf32>, %k: tensor<8x3x5x5xf32>, %b: tensor<8xf32>,
               %f: tensor<4x1800xf32>, %w: tensor<1800x10xf32>, %labels: tensor<4xi32>)
    -> (tensor<*xf32>, tensor<?xf32>, tensor<*xf32>) {
  // (32 + 2 - 5)/1 + 1 = 30.
  // CHECK: graph.conv {{.*}} -> tensor<4x8x30x30xf32>
  %c = graph.conv %x, %k, %b {pad_low = array<i64: 1, 1>, pad_high = array<i64: 1, 1>} : (tensor<4x3x32x32xf32>, tensor<8x3x5x5xf32>, tensor<8xf32>) -> tensor<?x?x?x?xf32>
  // (30 - 2)/2 + 1 = 15.
  // CHECK: graph.pool {{.*}} : (tensor<4x8x30x30xf32>) -> tensor<4x8x15x15xf32>
  %p = graph.pool %c {kind = #graph<pool_kind max>, window = array<i64: 2, 2>, strides = array<i64: 2, 2>} : (tensor<?x?x?x?xf32>) -> tensor<*xf32>
  // CHECK: graph.matmul {{.*}} -> tensor<4x10xf32>
  %l = graph.matmul %f, %w : (tensor<4x1800xf32>, tensor<1800x10xf32>) -> tensor<?x?xf32>
  // CHECK: graph.softmax_cross_entropy {{.*}} : (tensor<4x10xf32>, tensor<4xi32>) -> (tensor<4xf32>, tensor<4x10xf32>)
  %loss, %grad = graph.softmax_cross_entropy %l, %labels {sparse} : (tensor<?x?xf32>, tensor<4xi32>) -> (tensor<?xf32>, tensor<*xf32>)
  // CHECK: return %{{.*}}, %{{.*}}, %{{.*}} : tensor<4x8x15x15xf32>, tensor<4xf32>, tensor<4x10xf32>
  return %p, %loss, %grad : tensor<*xf32>, tensor<?xf32>, tensor<*xf32>
}

// -----

// Sizes the logits leave open come from the labels.
// CHECK-LABEL: func @loss_from_labels
func.func @loss_from_labels(%l: tensor<?x?xf32>, %y: tensor<6x3xf32>) -> tensor<?xf32> {
  // CHECK: graph.softmax_cross_entropy {{.*}} -> (tensor<6xf32>, tensor<6x3xf32>)
  %loss, %grad = graph.softmax_cross_entropy %l, %y : (tensor<?x?xf32>, tensor<6x3xf32>) -> (tensor<?xf32>, tensor<?x?xf32>)
  return %loss : tensor<?xf32>
}

// -----

// Shapes flow through a transposed convolution, batch norm, a recurrent
// layer and a resize of an unranked value.
// CHECK-LABEL: func @refined
func.func @refined(%x: tensor<2x4x5x5xf32>, %k: tensor<4x3x3x3xf32>, %c: tensor<3xf32>,
                   %s: tensor<6x2x8xf32>, %gw: tensor<1x48x8xf32>, %gr: tensor<1x48x16xf32>) {
  // 2 * (5 - 1) + 1 + 2 + 1 - 1 - 1 = 10.
  // CHECK: graph.conv_transpose {{.*}} -> tensor<2x3x10x10xf32>
  %t = graph.conv_transpose %x, %k {strides = array<i64: 2, 2>, pad_low = array<i64: 1, 1>, pad_high = array<i64: 1, 1>, output_padding = array<i64: 1, 1>} : (tensor<2x4x5x5xf32>, tensor<4x3x3x3xf32>) -> tensor<?x?x?x?xf32>
  // CHECK: graph.batch_norm_train {{.*}} -> (tensor<2x3x10x10xf32>, tensor<3xf32>, tensor<3xf32>)
  %y, %m, %v = graph.batch_norm_train %t, %c, %c : (tensor<?x?x?x?xf32>, tensor<3xf32>, tensor<3xf32>) -> (tensor<*xf32>, tensor<?xf32>, tensor<?xf32>)
  // CHECK: graph.gru {{.*}} -> (tensor<6x1x2x16xf32>, tensor<1x2x16xf32>)
  %o, %h = graph.gru %s, %gw, %gr {hidden_size = 16 : i64} : (tensor<6x2x8xf32>, tensor<1x48x8xf32>, tensor<1x48x16xf32>) -> (tensor<*xf32>, tensor<?x?x?xf32>)
  // CHECK: graph.resize {{.*}} -> tensor<2x3x20x20xf32>
  %r = graph.resize %y {sizes = array<i64: 2, 3, 20, 20>, mode = #graph<resize_mode nearest>} : (tensor<*xf32>) -> tensor<*xf32>
  return
}
