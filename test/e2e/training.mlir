// The training ops: sgd/momentum (plain and nesterov)/adam/ftrl updates,
// batch_norm_train and softmax_cross_entropy (dense and sparse labels, one
// of them negative). Expected values: reference.py (NumPy).
//
// RUN: graph-opt %s --graph-to-linalg --one-shot-bufferize="bufferize-function-boundaries" \
// RUN:   --convert-linalg-to-loops --expand-strided-metadata --lower-affine --convert-scf-to-cf \
// RUN:   --convert-math-to-llvm --convert-math-to-libm --convert-to-llvm --reconcile-unrealized-casts \
// RUN: | %mlir_runner -e main -entry-point-result=void -shared-libs=%runner_libs > %t
// RUN: %python %S/reference.py training %t | FileCheck %s
// The same through graphc-cpu-codegen (serial), the pipeline graphc uses:
// RUN: graph-opt %s --graph-to-linalg --graphc-cpu-codegen=openmp=0 \
// RUN: | %mlir_runner -e main -entry-point-result=void \
// RUN:   -shared-libs=%mlir_c_runner_utils,%mlir_runner_utils > %t.cpu
// RUN: %python %S/reference.py training %t.cpu | FileCheck %s
// CHECK: training: 18 results match NumPy

func.func private @printMemrefF32(tensor<*xf32>)

func.func @compute(%p: tensor<2x3xf32>, %g: tensor<2x3xf32>, %a: tensor<2x3xf32>, %m: tensor<2x3xf32>, %v: tensor<2x3xf32>, %acc: tensor<2x3xf32>, %lin: tensor<2x3xf32>, %x: tensor<2x3x2x2xf32>, %sc: tensor<3xf32>, %bi: tensor<3xf32>, %lg: tensor<3x4xf32>, %lb: tensor<3x4xf32>)
    -> (tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3x2x2xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3x4xf32>, tensor<3xf32>, tensor<3x4xf32>) {
  %lr = graph.constant dense<0.1> : tensor<f32>
  %mu = graph.constant dense<0.9> : tensor<f32>
  %b1 = graph.constant dense<0.9> : tensor<f32>
  %b2 = graph.constant dense<0.999> : tensor<f32>
  %eps = graph.constant dense<1.0e-07> : tensor<f32>
  %b1p = graph.constant dense<0.729> : tensor<f32>
  %b2p = graph.constant dense<0.997002999> : tensor<f32>
  %l1 = graph.constant dense<0.05> : tensor<f32>
  %l2 = graph.constant dense<0.01> : tensor<f32>
  %pw = graph.constant dense<-0.5> : tensor<f32>
  %lr1 = graph.constant dense<0.1> : tensor<1xf32>
  %r0 = graph.sgd_update %p, %g, %lr1 : (tensor<2x3xf32>, tensor<2x3xf32>, tensor<1xf32>) -> tensor<2x3xf32>
  %r1:2 = graph.momentum_update %p, %a, %g, %lr, %mu : (tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<f32>, tensor<f32>) -> (tensor<2x3xf32>, tensor<2x3xf32>)
  %r2:2 = graph.momentum_update %p, %a, %g, %lr, %mu {nesterov} : (tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<f32>, tensor<f32>) -> (tensor<2x3xf32>, tensor<2x3xf32>)
  %r3:3 = graph.adam_update %p, %m, %v, %g, %lr, %b1, %b2, %eps, %b1p, %b2p
      : (tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>) -> (tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>)
  %r4:3 = graph.ftrl_update %p, %acc, %lin, %g, %lr, %l1, %l2, %pw
      : (tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>) -> (tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>)
  %r5:3 = graph.batch_norm_train %x, %sc, %bi {epsilon = 1.0e-03 : f32}
      : (tensor<2x3x2x2xf32>, tensor<3xf32>, tensor<3xf32>) -> (tensor<2x3x2x2xf32>, tensor<3xf32>, tensor<3xf32>)
  %r6:2 = graph.softmax_cross_entropy %lg, %lb : (tensor<3x4xf32>, tensor<3x4xf32>) -> (tensor<3xf32>, tensor<3x4xf32>)
  %sl = graph.constant dense<[2, 0, -1]> : tensor<3xi64>
  %r7:2 = graph.softmax_cross_entropy %lg, %sl {sparse} : (tensor<3x4xf32>, tensor<3xi64>) -> (tensor<3xf32>, tensor<3x4xf32>)
  return %r0, %r1#0, %r1#1, %r2#0, %r2#1, %r3#0, %r3#1, %r3#2, %r4#0, %r4#1, %r4#2, %r5#0, %r5#1, %r5#2, %r6#0, %r6#1, %r7#0, %r7#1
      : tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3x2x2xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3x4xf32>, tensor<3xf32>, tensor<3x4xf32>
}

func.func @main() {
  %p = arith.constant dense<[[-1.58, 1.25, -0.90], [1.17, 0.20, -1.90]]> : tensor<2x3xf32>
  %g = arith.constant dense<[[1.60, -1.38, 1.30], [-0.53, -1.97, 1.17]]> : tensor<2x3xf32>
  %a = arith.constant dense<[[1.84, 1.48, -1.53], [-0.79, 1.84, 1.72]]> : tensor<2x3xf32>
  %m = arith.constant dense<[[1.92, 1.01, 0.09], [-0.66, -0.53, -1.76]]> : tensor<2x3xf32>
  %v = arith.constant dense<[[1.06, 0.82, 0.20], [1.27, 0.58, 2.09]]> : tensor<2x3xf32>
  %acc = arith.constant dense<[[1.77, 1.33, 0.95], [1.78, 0.71, 1.86]]> : tensor<2x3xf32>
  %lin = arith.constant dense<[[-1.61, 0.96, -1.53], [1.79, 0.14, -1.51]]> : tensor<2x3xf32>
  %x = arith.constant dense<[[[[-0.64, -1.29],   [-0.55, 1.91]],  [[0.80, -0.56],   [-0.85, -0.47]],  [[1.73, 1.54],   [-0.58, -0.24]]], [[[0.89, -0.40],   [-1.59, 1.76]],  [[1.97, -1.75],   [-0.72, 0.18]],  [[-1.50, -1.98],   [-0.54, -1.46]]]]> : tensor<2x3x2x2xf32>
  %sc = arith.constant dense<[-0.21, -1.46, -1.96]> : tensor<3xf32>
  %bi = arith.constant dense<[0.90, 0.80, 0.77]> : tensor<3xf32>
  %lg = arith.constant dense<[[0.36, 3.54, 5.67, -3.21], [-5.94, -2.04, 5.73, 5.91], [-0.45, -2.94, 0.93, -5.46]]> : tensor<3x4xf32>
  %lb = arith.constant dense<[[1.76, 0.73, -1.64, 1.44], [1.21, -0.79, 1.91, 0.84], [-0.84, 1.53, 0.23, 0.61]]> : tensor<3x4xf32>
  %r:18 = call @compute(%p, %g, %a, %m, %v, %acc, %lin, %x, %sc, %bi, %lg, %lb)
      : (tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3x2x2xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3x4xf32>, tensor<3x4xf32>) -> (tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3x2x2xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3x4xf32>, tensor<3xf32>, tensor<3x4xf32>)
  %u0 = tensor.cast %r#0 : tensor<2x3xf32> to tensor<*xf32>
  call @printMemrefF32(%u0) : (tensor<*xf32>) -> ()
  %u1 = tensor.cast %r#1 : tensor<2x3xf32> to tensor<*xf32>
  call @printMemrefF32(%u1) : (tensor<*xf32>) -> ()
  %u2 = tensor.cast %r#2 : tensor<2x3xf32> to tensor<*xf32>
  call @printMemrefF32(%u2) : (tensor<*xf32>) -> ()
  %u3 = tensor.cast %r#3 : tensor<2x3xf32> to tensor<*xf32>
  call @printMemrefF32(%u3) : (tensor<*xf32>) -> ()
  %u4 = tensor.cast %r#4 : tensor<2x3xf32> to tensor<*xf32>
  call @printMemrefF32(%u4) : (tensor<*xf32>) -> ()
  %u5 = tensor.cast %r#5 : tensor<2x3xf32> to tensor<*xf32>
  call @printMemrefF32(%u5) : (tensor<*xf32>) -> ()
  %u6 = tensor.cast %r#6 : tensor<2x3xf32> to tensor<*xf32>
  call @printMemrefF32(%u6) : (tensor<*xf32>) -> ()
  %u7 = tensor.cast %r#7 : tensor<2x3xf32> to tensor<*xf32>
  call @printMemrefF32(%u7) : (tensor<*xf32>) -> ()
  %u8 = tensor.cast %r#8 : tensor<2x3xf32> to tensor<*xf32>
  call @printMemrefF32(%u8) : (tensor<*xf32>) -> ()
  %u9 = tensor.cast %r#9 : tensor<2x3xf32> to tensor<*xf32>
  call @printMemrefF32(%u9) : (tensor<*xf32>) -> ()
  %u10 = tensor.cast %r#10 : tensor<2x3xf32> to tensor<*xf32>
  call @printMemrefF32(%u10) : (tensor<*xf32>) -> ()
  %u11 = tensor.cast %r#11 : tensor<2x3x2x2xf32> to tensor<*xf32>
  call @printMemrefF32(%u11) : (tensor<*xf32>) -> ()
  %u12 = tensor.cast %r#12 : tensor<3xf32> to tensor<*xf32>
  call @printMemrefF32(%u12) : (tensor<*xf32>) -> ()
  %u13 = tensor.cast %r#13 : tensor<3xf32> to tensor<*xf32>
  call @printMemrefF32(%u13) : (tensor<*xf32>) -> ()
  %u14 = tensor.cast %r#14 : tensor<3xf32> to tensor<*xf32>
  call @printMemrefF32(%u14) : (tensor<*xf32>) -> ()
  %u15 = tensor.cast %r#15 : tensor<3x4xf32> to tensor<*xf32>
  call @printMemrefF32(%u15) : (tensor<*xf32>) -> ()
  %u16 = tensor.cast %r#16 : tensor<3xf32> to tensor<*xf32>
  call @printMemrefF32(%u16) : (tensor<*xf32>) -> ()
  %u17 = tensor.cast %r#17 : tensor<3x4xf32> to tensor<*xf32>
  call @printMemrefF32(%u17) : (tensor<*xf32>) -> ()
  return
}
