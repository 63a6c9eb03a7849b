// RUN: graph-opt %s --graph-infer-shapes | FileCheck %s
// RUN: graph-opt %s --graph-infer-shapes --graph-infer-shapes | FileCheck %s
// RUN: graph-opt %s --graph-infer-shapes | FileCheck %s --check-prefix=STATIC

// A 25-op CNN classifier with a loss, written the way an importer would: only
// the arguments have static types, every result is unranked or dynamic.
// graph-infer-shapes must give every result its static type. The expected
// shapes are worked out by hand in the comments.

// No dynamic or unranked type is left anywhere.
// STATIC-LABEL: func @cnn
// STATIC-NOT: {{[?*]x}}

// CHECK-LABEL: func @cnn
// CHECK-SAME: -> (tensor<4xf32>, tensor<4xi64>, tensor<4x10xf32>)
func.func @cnn(%img: tensor<4x3x32x32xf32>, %w1: tensor<16x3x3x3xf32>,
               %b1: tensor<16xf32>, %bn_scale: tensor<16xf32>,
               %bn_bias: tensor<16xf32>, %bn_mean: tensor<16xf32>,
               %bn_var: tensor<16xf32>, %w2: tensor<32x16x3x3xf32>,
               %w3: tensor<512x64xf32>, %b3: tensor<64xf32>,
               %ln_scale: tensor<64xf32>, %w4: tensor<64x10xf32>,
               %labels: tensor<4xi64>)
    -> (tensor<*xf32>, tensor<*xi64>, tensor<*xf32>) {
  // (32 + 1 + 1 - 3) / 1 + 1 = 32
  // CHECK: graph.conv {{.*}} -> tensor<4x16x32x32xf32>
  %0 = graph.conv %img, %w1, %b1 {pad_low = array<i64: 1, 1>, pad_high = array<i64: 1, 1>} : (tensor<4x3x32x32xf32>, tensor<16x3x3x3xf32>, tensor<16xf32>) -> tensor<*xf32>
  // CHECK: graph.batch_norm {{.*}} -> tensor<4x16x32x32xf32>
  %1 = graph.batch_norm %0, %bn_scale, %bn_bias, %bn_mean, %bn_var {epsilon = 1.0e-5 : f32} : (tensor<*xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>) -> tensor<*xf32>
  // CHECK: graph.relu {{.*}} -> tensor<4x16x32x32xf32>
  %2 = graph.relu %1 : (tensor<*xf32>) -> tensor<*xf32>
  // (32 - 2) / 2 + 1 = 16
  // CHECK: graph.pool {{.*}} -> tensor<4x16x16x16xf32>
  %3 = graph.pool %2 {kind = #graph<pool_kind max>, window = array<i64: 2, 2>, strides = array<i64: 2, 2>} : (tensor<*xf32>) -> tensor<*xf32>
  // floor((16 + 1 + 1 - 3) / 2) + 1 = 8
  // CHECK: graph.conv {{.*}} -> tensor<4x32x8x8xf32>
  %4 = graph.conv %3, %w2 {strides = array<i64: 2, 2>, pad_low = array<i64: 1, 1>, pad_high = array<i64: 1, 1>} : (tensor<*xf32>, tensor<32x16x3x3xf32>) -> tensor<?x?x?x?xf32>
  // CHECK: graph.gelu {{.*}} -> tensor<4x32x8x8xf32>
  %5 = graph.gelu %4 : (tensor<?x?x?x?xf32>) -> tensor<?x?x?x?xf32>
  // (8 - 2) / 2 + 1 = 4
  // CHECK: graph.pool {{.*}} -> tensor<4x32x4x4xf32>
  %6 = graph.pool %5 {kind = #graph<pool_kind avg>, window = array<i64: 2, 2>, strides = array<i64: 2, 2>} : (tensor<?x?x?x?xf32>) -> tensor<*xf32>
  // 4 * 32 * 4 * 4 = 2048 = 4 * 512
  // CHECK: graph.reshape {{.*}} -> tensor<4x512xf32>
  %7 = graph.reshape %6 {shape = array<i64: -1, 512>} : (tensor<*xf32>) -> tensor<?x512xf32>
  // CHECK: graph.matmul {{.*}} -> tensor<4x64xf32>
  %8 = graph.matmul %7, %w3 : (tensor<?x512xf32>, tensor<512x64xf32>) -> tensor<*xf32>
  // CHECK: graph.add {{.*}} -> tensor<4x64xf32>
  %9 = graph.add %8, %b3 : (tensor<*xf32>, tensor<64xf32>) -> tensor<*xf32>
  // CHECK: graph.layer_norm {{.*}} -> tensor<4x64xf32>
  %10 = graph.layer_norm %9, %ln_scale {axis = 1 : i64} : (tensor<*xf32>, tensor<64xf32>) -> tensor<*xf32>
  // CHECK: graph.tanh {{.*}} -> tensor<4x64xf32>
  %11 = graph.tanh %10 : (tensor<*xf32>) -> tensor<*xf32>
  // CHECK: graph.unsqueeze {{.*}} -> tensor<4x1x64xf32>
  %12 = graph.unsqueeze %11 {axes = array<i64: 1>} : (tensor<*xf32>) -> tensor<*xf32>
  // CHECK: graph.transpose {{.*}} -> tensor<1x4x64xf32>
  %13 = graph.transpose %12 {perm = array<i64: 1, 0, 2>} : (tensor<*xf32>) -> tensor<*xf32>
  // CHECK: graph.squeeze {{.*}} -> tensor<4x64xf32>
  %14 = graph.squeeze %13 {axes = array<i64: 0>} : (tensor<*xf32>) -> tensor<*xf32>
  // CHECK: graph.concat {{.*}} -> tensor<4x128xf32>
  %15 = graph.concat %14, %11 {axis = 1 : i64} : (tensor<*xf32>, tensor<*xf32>) -> tensor<*xf32>
  // Every second column: ceil(128 / 2) = 64
  // CHECK: graph.slice {{.*}} -> tensor<4x64xf32>
  %16 = graph.slice %15 {starts = array<i64: 0, 0>, limits = array<i64: 4, 128>, strides = array<i64: 1, 2>} : (tensor<*xf32>) -> tensor<?x?xf32>
  // CHECK: graph.matmul {{.*}} -> tensor<4x10xf32>
  %17 = graph.matmul %16, %w4 : (tensor<?x?xf32>, tensor<64x10xf32>) -> tensor<?x?xf32>
  // CHECK: graph.softmax {{.*}} -> tensor<4x10xf32>
  %18 = graph.softmax %17 {axis = -1 : i64} : (tensor<?x?xf32>) -> tensor<*xf32>
  // CHECK: graph.reduce {{.*}} -> tensor<4x1xf32>
  %19 = graph.reduce %18 {kind = #graph<reduce_kind mean>, axes = array<i64: 1>, keepdims} : (tensor<*xf32>) -> tensor<*xf32>
  // CHECK: graph.sub {{.*}} -> tensor<4x10xf32>
  %20 = graph.sub %17, %19 : (tensor<?x?xf32>, tensor<*xf32>) -> tensor<*xf32>
  // CHECK: graph.arg_reduce {{.*}} -> tensor<4xi64>
  %21 = graph.arg_reduce %18 {kind = #graph<reduce_kind max>, axis = 1 : i64} : (tensor<*xf32>) -> tensor<*xi64>
  // CHECK: graph.compare {{.*}} -> tensor<4x10xi1>
  %22 = graph.compare %18, %19 {direction = #graph<compare_direction gt>} : (tensor<*xf32>, tensor<*xf32>) -> tensor<*xi1>
  // CHECK: graph.select {{.*}} -> tensor<4x10xf32>
  %23 = graph.select %22, %18, %20 : (tensor<*xi1>, tensor<*xf32>, tensor<*xf32>) -> tensor<*xf32>
  // CHECK: graph.softmax_cross_entropy {{.*}} -> (tensor<4xf32>, tensor<4x10xf32>)
  %loss, %grad = graph.softmax_cross_entropy %23, %labels {sparse} : (tensor<*xf32>, tensor<4xi64>) -> (tensor<*xf32>, tensor<*xf32>)
  // CHECK: return {{.*}} : tensor<4xf32>, tensor<4xi64>, tensor<4x10xf32>
  return %loss, %21, %grad : tensor<*xf32>, tensor<*xi64>, tensor<*xf32>
}
