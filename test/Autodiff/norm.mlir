// Gradient check of graph-autodiff's normalisation rules: batch_norm
// (given statistics), batch_norm_train (batch statistics, whose mean and
// variance results are differentiated too), layer_norm and lrn (see
// gradcheck.py).
//
// RUN: %python %S/gradcheck.py %s --runner %mlir_runner --libs %runner_libs | FileCheck %s
// CHECK-NOT: MISMATCH
// CHECK: gradcheck: 17 of 17 gradients match finite differences

// gradcheck @batch_norm var=pos
func.func @batch_norm(%x: tensor<2x3x2x2xf64>, %scale: tensor<3xf64>, %bias: tensor<3xf64>, %mean: tensor<3xf64>, %var: tensor<3xf64>) -> tensor<2x3x2x2xf64> {
  %y = graph.batch_norm %x, %scale, %bias, %mean, %var {epsilon = 1.000000e-03 : f32} : (tensor<2x3x2x2xf64>, tensor<3xf64>, tensor<3xf64>, tensor<3xf64>, tensor<3xf64>) -> tensor<2x3x2x2xf64>
  return %y : tensor<2x3x2x2xf64>
}

func.func @batch_norm_train(%x: tensor<3x2x2x2xf64>, %scale: tensor<2xf64>, %bias: tensor<2xf64>) -> (tensor<3x2x2x2xf64>, tensor<2xf64>, tensor<2xf64>) {
  %y, %m, %v = graph.batch_norm_train %x, %scale, %bias : (tensor<3x2x2x2xf64>, tensor<2xf64>, tensor<2xf64>) -> (tensor<3x2x2x2xf64>, tensor<2xf64>, tensor<2xf64>)
  return %y, %m, %v : tensor<3x2x2x2xf64>, tensor<2xf64>, tensor<2xf64>
}

func.func @batch_norm_train_2d(%x: tensor<4x3xf64>, %scale: tensor<3xf64>, %bias: tensor<3xf64>) -> tensor<4x3xf64> {
  %y, %m, %v = graph.batch_norm_train %x, %scale, %bias : (tensor<4x3xf64>, tensor<3xf64>, tensor<3xf64>) -> (tensor<4x3xf64>, tensor<3xf64>, tensor<3xf64>)
  return %y : tensor<4x3xf64>
}

func.func @layer_norm(%x: tensor<2x3x4xf64>, %gamma: tensor<3x4xf64>, %beta: tensor<3x4xf64>) -> tensor<2x3x4xf64> {
  %y = graph.layer_norm %x, %gamma, %beta {axis = 1 : i64} : (tensor<2x3x4xf64>, tensor<3x4xf64>, tensor<3x4xf64>) -> tensor<2x3x4xf64>
  return %y : tensor<2x3x4xf64>
}

func.func @layer_norm_no_bias(%x: tensor<3x5xf64>, %gamma: tensor<5xf64>) -> tensor<3x5xf64> {
  %y = graph.layer_norm %x, %gamma : (tensor<3x5xf64>, tensor<5xf64>) -> tensor<3x5xf64>
  return %y : tensor<3x5xf64>
}

// Local response normalisation: odd and even windows (the even one reaches
// further up than down).
func.func @lrn(%x: tensor<2x5x2x2xf64>) -> (tensor<2x5x2x2xf64>, tensor<2x5x2x2xf64>) {
  %y = graph.lrn %x {size = 3 : i64, alpha = 0.5 : f32, beta = 0.75 : f32, bias = 1.0 : f32} : (tensor<2x5x2x2xf64>) -> tensor<2x5x2x2xf64>
  %z = graph.lrn %x {size = 4 : i64, alpha = 0.8 : f32, beta = 0.5 : f32, bias = 2.0 : f32} : (tensor<2x5x2x2xf64>) -> tensor<2x5x2x2xf64>
  return %y, %z : tensor<2x5x2x2xf64>, tensor<2x5x2x2xf64>
}
