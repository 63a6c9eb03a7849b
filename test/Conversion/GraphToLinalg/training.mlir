// RUN: graph-opt %s --graph-to-linalg --split-input-file | FileCheck %s

// An optimizer update is one generic with an output per updated tensor;
// the 0-d hyperparameters are read through constant maps.
// CHECK-DAG: #[[ID:.*]] = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-DAG: #[[SCALAR:.*]] = affine_map<(d0, d1) -> ()>
// CHECK-LABEL: func.func @momentum
// CHECK: %[[R:.*]]:2 = linalg.generic {indexing_maps = [#[[ID]], #[[ID]], #[[ID]], #[[SCALAR]], #[[SCALAR]], #[[ID]], #[[ID]]]
// CHECK: ^bb0(%[[P:.*]]: f32, %[[A:.*]]: f32, %[[G:.*]]: f32, %[[LR:.*]]: f32, %[[MU:.*]]: f32, %{{.*}}: f32, %{{.*}}: f32):
// CHECK: %[[AM:.*]] = arith.mulf %[[A]], %[[MU]]
// CHECK: %[[NA:.*]] = arith.addf %[[AM]], %[[G]]
// CHECK: %[[STEP:.*]] = arith.mulf %[[LR]], %[[NA]]
// CHECK: %[[NP:.*]] = arith.subf %[[P]], %[[STEP]]
// CHECK: linalg.yield %[[NP]], %[[NA]] : f32, f32
// CHECK: return %[[R]]#0, %[[R]]#1
func.func @momentum(%p: tensor<4x3xf32>, %a: tensor<4x3xf32>, %g: tensor<4x3xf32>, %lr: tensor<f32>, %mu: tensor<f32>) -> (tensor<4x3xf32>, tensor<4x3xf32>) {
  %0:2 = graph.momentum_update %p, %a, %g, %lr, %mu : (tensor<4x3xf32>, tensor<4x3xf32>, tensor<4x3xf32>, tensor<f32>, tensor<f32>) -> (tensor<4x3xf32>, tensor<4x3xf32>)
  return %0#0, %0#1 : tensor<4x3xf32>, tensor<4x3xf32>
}

// -----

// CHECK-LABEL: func.func @adam
// CHECK: linalg.generic
// CHECK: math.sqrt
// CHECK: linalg.yield %{{.*}}, %{{.*}}, %{{.*}} : f32, f32, f32
func.func @adam(%p: tensor<10xf32>, %m: tensor<10xf32>, %v: tensor<10xf32>, %g: tensor<10xf32>, %lr: tensor<f32>, %b1: tensor<f32>, %b2: tensor<f32>, %eps: tensor<f32>, %b1p: tensor<f32>, %b2p: tensor<f32>) -> tensor<10xf32> {
  %0:3 = graph.adam_update %p, %m, %v, %g, %lr, %b1, %b2, %eps, %b1p, %b2p : (tensor<10xf32>, tensor<10xf32>, tensor<10xf32>, tensor<10xf32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>) -> (tensor<10xf32>, tensor<10xf32>, tensor<10xf32>)
  return %0#0 : tensor<10xf32>
}

// -----

// batch_norm_train: mean and biased variance over every axis but 1.
// CHECK-LABEL: func.func @batch_norm_train
// CHECK: %[[SUM:.*]] = linalg.reduce ins(%{{.*}} : tensor<8x16x4x4xf32>) outs(%{{.*}} : tensor<16xf32>) dimensions = [0, 2, 3]
// CHECK: linalg.reduce ins(%{{.*}} : tensor<8x16x4x4xf32>) outs(%{{.*}} : tensor<16xf32>) dimensions = [0, 2, 3]
// CHECK: math.rsqrt
func.func @batch_norm_train(%x: tensor<8x16x4x4xf32>, %s: tensor<16xf32>, %b: tensor<16xf32>) -> (tensor<8x16x4x4xf32>, tensor<16xf32>, tensor<16xf32>) {
  %0:3 = graph.batch_norm_train %x, %s, %b : (tensor<8x16x4x4xf32>, tensor<16xf32>, tensor<16xf32>) -> (tensor<8x16x4x4xf32>, tensor<16xf32>, tensor<16xf32>)
  return %0#0, %0#1, %0#2 : tensor<8x16x4x4xf32>, tensor<16xf32>, tensor<16xf32>
}

// -----

// Sparse labels pick the log-probability of the labelled class with
// tensor.extract and subtract a one-hot from the softmax.
// CHECK-LABEL: func.func @sparse_cross_entropy
// CHECK: linalg.reduce {{.*}} dimensions = [1]
// CHECK: math.exp
// CHECK: math.log
// CHECK: tensor.extract %{{.*}}[%{{.*}}, %{{.*}}] : tensor<32x10xf32>
// CHECK: %[[C:.*]] = linalg.index 1 : index
// CHECK: arith.cmpi eq, %[[C]]
func.func @sparse_cross_entropy(%l: tensor<32x10xf32>, %y: tensor<32xi64>) -> (tensor<32xf32>, tensor<32x10xf32>) {
  %0:2 = graph.softmax_cross_entropy %l, %y {sparse} : (tensor<32x10xf32>, tensor<32xi64>) -> (tensor<32xf32>, tensor<32x10xf32>)
  return %0#0, %0#1 : tensor<32xf32>, tensor<32x10xf32>
}
